//! [`IdempotencyStore`] on SQLite and PostgreSQL: the same statements on either pool.

use super::{Columns, Pool, SqlStore};
use crate::store::idempotency::{IdempotencyStore, Reservation};
use crate::store::now_ms;

#[async_trait::async_trait]
impl IdempotencyStore for SqlStore {
    async fn reserve_key(
        &self,
        key_hash: &str,
        request_hash: &str,
        locked_until: i64,
        expired_before: i64,
    ) -> anyhow::Result<Reservation> {
        let now = now_ms();
        on_pool!(&self.pool, p => {
            let inserted = sqlx::query(
                "INSERT INTO idempotency_keys (key_hash, request_hash, answer, locked_until, created_at) \
                 VALUES ($1, $2, NULL, $3, $4) ON CONFLICT (key_hash) DO NOTHING",
            )
            .bind(key_hash)
            .bind(request_hash)
            .bind(locked_until)
            .bind(now)
            .execute(p)
            .await?
            .rows_affected();
            if inserted > 0 {
                return Ok(Reservation::Reserved);
            }
            // Taken over: a key past its day (not pruned yet) is new again; a key whose first
            // request died before answering (its lock ran out) goes to this one.
            let taken = sqlx::query(
                "UPDATE idempotency_keys SET request_hash = $2, answer = NULL, locked_until = $3, \
                 created_at = $4 WHERE key_hash = $1 AND (created_at < $5 \
                 OR (answer IS NULL AND locked_until < $4 AND request_hash = $2))",
            )
            .bind(key_hash)
            .bind(request_hash)
            .bind(locked_until)
            .bind(now)
            .bind(expired_before)
            .execute(p)
            .await?
            .rows_affected();
            if taken > 0 {
                return Ok(Reservation::Reserved);
            }
            let row = sqlx::query(
                "SELECT request_hash, answer FROM idempotency_keys WHERE key_hash = $1",
            )
            .bind(key_hash)
            .fetch_optional(p)
            .await?;
            Ok(match row {
                // Pruned meanwhile: the caller tries again.
                None => Reservation::InFlight,
                Some(row) if row.text("request_hash")? != request_hash => Reservation::OtherBody,
                Some(row) => match row.opt_text("answer")? {
                    Some(answer) => Reservation::Answered(answer),
                    None => Reservation::InFlight,
                },
            })
        })
    }

    async fn answer_key(&self, key_hash: &str, answer: &str) -> anyhow::Result<()> {
        on_pool!(&self.pool, p => sqlx::query(
            "UPDATE idempotency_keys SET answer = $2 WHERE key_hash = $1",
        )
        .bind(key_hash)
        .bind(answer)
        .execute(p)
        .await
        .map(|_| ()))?;
        Ok(())
    }

    async fn release_key(&self, key_hash: &str) -> anyhow::Result<()> {
        on_pool!(&self.pool, p => sqlx::query(
            "DELETE FROM idempotency_keys WHERE key_hash = $1 AND answer IS NULL",
        )
        .bind(key_hash)
        .execute(p)
        .await
        .map(|_| ()))?;
        Ok(())
    }

    async fn prune_keys(&self, created_before: i64, limit: u32) -> anyhow::Result<u64> {
        let deleted = on_pool!(&self.pool, p => sqlx::query(
            "DELETE FROM idempotency_keys WHERE key_hash IN \
             (SELECT key_hash FROM idempotency_keys WHERE created_at < $1 LIMIT $2)",
        )
        .bind(created_before)
        .bind(i64::from(limit))
        .execute(p)
        .await
        .map(|r| r.rows_affected()))?;
        Ok(deleted)
    }
}
