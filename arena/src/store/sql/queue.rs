//! [`QueueStore`] on SQLite and PostgreSQL: the fair claim, the counts of a client's queued
//! matches, cancels of waiting matches and the expiry of tables nobody joined.

use super::{CLAIM_LOCK, DEAL_FREE, Dialect, Pool, SqlStore, millis};
use crate::store::queue::{AdmissionHold, Claim, Lane, QueueStore};
use crate::store::{AbortReason, Cancelled, now_ms};
use sqlx::AssertSqlSafe;

/// Clients of a lane a claim looks at, in their turn: the first with a claimable match wins
/// (the others only when every match of the first waits for its deal's other tables).
const CLIENTS_PER_CLAIM: i64 = 64;

/// The first key of the advisory locks that admit one client's new matches at a time across
/// processes (the second is the client key's hash; [`CLAIM_LOCK`] is a one-key lock, so the two
/// never meet).
const ADMISSION_LOCK: i32 = 7264;

impl SqlStore {
    /// The statements of a claim in `lane` (`$1` the lane throughout): an abandoned running
    /// match; the lane's clients in their turn, under the cap (`$2`, 0: none); a client's
    /// (`$2`) oldest claimable match.
    fn claim_statements(&self) -> [String; 4] {
        let now = self.dialect.now_ms();
        [
            format!(
                "SELECT id FROM matches WHERE status = 'running' AND lane = $1 \
                 AND (lease_until IS NULL OR lease_until < {now}) ORDER BY created_at, id LIMIT 1"
            ),
            // Round robin: the client whose newest match started longest ago (never: first),
            // then the one waiting longest.
            format!(
                "SELECT q.creator_key FROM (SELECT creator_key, MIN(created_at) AS oldest \
                 FROM matches WHERE status = 'queued' AND lane = $1 GROUP BY creator_key) q \
                 WHERE $2 = 0 OR (SELECT COUNT(*) FROM matches r WHERE r.status = 'running' \
                 AND r.lane = $1 AND r.creator_key = q.creator_key) < $2 \
                 ORDER BY COALESCE((SELECT MAX(s.started_at) FROM matches s \
                 WHERE s.creator_key = q.creator_key), 0), q.oldest, q.creator_key \
                 LIMIT {CLIENTS_PER_CLAIM}"
            ),
            format!(
                "SELECT id FROM matches WHERE status = 'queued' AND lane = $1 AND creator_key = $2\
                 {DEAL_FREE} ORDER BY created_at, id LIMIT 1"
            ),
            // Conditional: a cancel may have come between the choice and the take.
            format!(
                "UPDATE matches SET status = 'running', lease_owner = $1, lease_until = {now} + $2, \
                 started_at = COALESCE(started_at, {now}) WHERE id = $3 AND (status = 'queued' \
                 OR (status = 'running' AND (lease_until IS NULL OR lease_until < {now}))) \
                 RETURNING id"
            ),
        ]
    }
}

#[async_trait::async_trait]
impl QueueStore for SqlStore {
    async fn claim_fair(&self, worker: &str, claim: Claim<'_>) -> anyhow::Result<Option<String>> {
        let [abandoned, clients, oldest, take] = self.claim_statements();
        let dialect = self.dialect;
        on_pool!(&self.pool, p => {
            // Serialized: every claim sees the claims before it (the cap per client and the
            // rule of a deal's tables count other rows than the one taken).
            let mut tx = p.begin_with(dialect.begin_writing()).await?;
            if dialect == Dialect::Postgres {
                sqlx::query("SELECT pg_advisory_xact_lock($1)")
                    .bind(CLAIM_LOCK)
                    .execute(&mut *tx)
                    .await?;
            }
            let mut chosen: Option<String> = None;
            for lane in claim.lanes {
                chosen = sqlx::query_scalar(AssertSqlSafe(abandoned.clone()))
                    .bind(lane.as_str())
                    .fetch_optional(&mut *tx)
                    .await?;
                if chosen.is_some() {
                    break;
                }
                // Tables with people are not capped per client: a table's run holds a slot
                // only while its bots play (it gives it back while it waits for a person), so
                // tables a client left open never stop its next one; the table slots bound them.
                let cap = match lane {
                    Lane::Ladder | Lane::People => 0,
                    Lane::Clients => i64::from(claim.max_running_per_client),
                };
                let turn: Vec<String> = sqlx::query_scalar(AssertSqlSafe(clients.clone()))
                    .bind(lane.as_str())
                    .bind(cap)
                    .fetch_all(&mut *tx)
                    .await?;
                for client in turn {
                    chosen = sqlx::query_scalar(AssertSqlSafe(oldest.clone()))
                        .bind(lane.as_str())
                        .bind(&client)
                        .fetch_optional(&mut *tx)
                        .await?;
                    if chosen.is_some() {
                        break;
                    }
                }
                if chosen.is_some() {
                    break;
                }
            }
            let Some(id) = chosen else {
                tx.rollback().await?;
                return Ok(None);
            };
            let taken: Option<String> = sqlx::query_scalar(AssertSqlSafe(take))
                .bind(worker)
                .bind(millis(claim.lease))
                .bind(&id)
                .fetch_optional(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(taken)
        })
    }

    async fn queued_by(&self, client_key: &str, people: bool) -> anyhow::Result<u64> {
        let lanes = if people {
            "lane = 'people'"
        } else {
            "lane <> 'people'"
        };
        let sql = format!(
            "SELECT COUNT(*) FROM matches WHERE status IN ('waiting', 'queued') \
             AND creator_key = $1 AND {lanes}"
        );
        let count: i64 = on_pool!(&self.pool, p => sqlx::query_scalar(AssertSqlSafe(sql))
            .bind(client_key)
            .fetch_one(p)
            .await)?;
        Ok(u64::try_from(count).unwrap_or(0))
    }

    async fn hold_admission(&self, client_key: &str) -> anyhow::Result<AdmissionHold> {
        let Pool::Postgres(pool) = &self.pool else {
            return Ok(AdmissionHold::none());
        };
        let mut transaction = pool.begin().await?;
        // One lock per client (two keys: the admission's class, the client's hash), so clients
        // are admitted in parallel and one client's requests one at a time.
        sqlx::query("SELECT pg_advisory_xact_lock($1, hashtext($2))")
            .bind(ADMISSION_LOCK)
            .bind(client_key)
            .execute(&mut *transaction)
            .await?;
        Ok(AdmissionHold::postgres(transaction))
    }

    async fn cancel_waiting(&self, id: &str, detail: &str) -> anyhow::Result<Cancelled> {
        let cancelled = on_pool!(&self.pool, p => sqlx::query(
            "UPDATE matches SET status = 'aborted', error = $1, abort_reason = $2, finished_at = $3, \
             lease_until = NULL, prunable_since = CASE WHEN ranked THEN NULL ELSE $3 END \
             WHERE id = $4 AND status IN ('waiting', 'queued')",
        )
        .bind(detail)
        .bind(AbortReason::Cancelled.as_str())
        .bind(now_ms())
        .bind(id)
        .execute(p)
        .await
        .map(|r| r.rows_affected()))?;
        if cancelled > 0 {
            return Ok(Cancelled::Cancelled);
        }
        let status: Option<String> = on_pool!(&self.pool, p => sqlx::query_scalar(
            "SELECT status FROM matches WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(p)
        .await)?;
        Ok(match status.as_deref() {
            Some("running") => Cancelled::Underway,
            _ => Cancelled::Over,
        })
    }

    async fn expire_waiting(&self, created_before: i64, limit: u32) -> anyhow::Result<Vec<String>> {
        // The oldest first, through the index of statuses; each aborted only if still waiting.
        let waiting: Vec<String> = on_pool!(&self.pool, p => sqlx::query_scalar(
            "SELECT id FROM matches WHERE status = 'waiting' AND created_at < $1 \
             ORDER BY created_at, id LIMIT $2",
        )
        .bind(created_before)
        .bind(i64::from(limit))
        .fetch_all(p)
        .await)?;
        let mut expired = Vec::with_capacity(waiting.len());
        for id in waiting {
            let aborted = on_pool!(&self.pool, p => sqlx::query(
                "UPDATE matches SET status = 'aborted', error = $1, abort_reason = $2, \
                 finished_at = $3, lease_until = NULL, \
                 prunable_since = CASE WHEN ranked THEN NULL ELSE $3 END \
                 WHERE id = $4 AND status = 'waiting'",
            )
            .bind("the table waited for its people longer than the server keeps a table open")
            .bind(AbortReason::TableExpired.as_str())
            .bind(now_ms())
            .bind(&id)
            .execute(p)
            .await
            .map(|r| r.rows_affected()))?;
            if aborted > 0 {
                expired.push(id);
            }
        }
        Ok(expired)
    }
}
