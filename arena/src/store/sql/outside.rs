//! [`OutsideStore`] on SQLite and PostgreSQL: pending moves (SQLite: in memory, see
//! `store/pending.rs`) and stream connections.

use super::{Columns, Pool, SqlStore, millis};
use crate::store::{OutsideStore, PendingMove};
use sqlx::AssertSqlSafe;
use std::collections::HashSet;
use std::time::Duration;

fn pending_row(row: &impl Columns) -> anyhow::Result<PendingMove> {
    Ok(PendingMove {
        match_id: row.text("match_id")?,
        seat: usize::try_from(row.int("seat")?)?,
        request_id: row.text("request_id")?,
        bot_id: row.text("bot_id")?,
        request: row.text("request")?,
        created_at: row.int("created_at")?,
        deadline_at: row.int("deadline_at")?,
        frozen_left_ms: row.opt_int("frozen_left_ms")?,
    })
}

#[async_trait::async_trait]
impl OutsideStore for SqlStore {
    async fn put_pending(&self, pending: &PendingMove) -> anyhow::Result<()> {
        if let Some(memory) = &self.pending {
            memory.put(pending);
            return Ok(());
        }
        on_pool!(&self.pool, p => sqlx::query(
            "INSERT INTO pending_moves (match_id, seat, request_id, bot_id, request, created_at, \
             deadline_at, frozen_left_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (match_id, seat) \
             DO UPDATE SET request_id = $3, bot_id = $4, request = $5, created_at = $6, deadline_at = $7, \
             frozen_left_ms = $8",
        )
            .bind(&pending.match_id)
            .bind(pending.seat as i64)
            .bind(&pending.request_id)
            .bind(&pending.bot_id)
            .bind(&pending.request)
            .bind(pending.created_at)
            .bind(pending.deadline_at)
            .bind(pending.frozen_left_ms)
            .execute(p)
            .await
            .map(|r| r.rows_affected()))?;
        Ok(())
    }

    async fn take_pending(
        &self,
        match_id: &str,
        seat: usize,
        request_id: Option<&str>,
    ) -> anyhow::Result<Option<PendingMove>> {
        if let Some(memory) = &self.pending {
            return Ok(memory.take(match_id, seat, request_id));
        }
        on_pool!(&self.pool, p => sqlx::query(
            "DELETE FROM pending_moves WHERE match_id = $1 AND seat = $2 \
             AND (CAST($3 AS TEXT) IS NULL OR request_id = $3) RETURNING *",
        )
            .bind(match_id)
            .bind(seat as i64)
            .bind(request_id)
            .fetch_optional(p)
            .await?
            .as_ref()
            .map(pending_row)
            .transpose())
    }

    async fn take_bot_pending(
        &self,
        match_id: &str,
        bot_id: &str,
        request_id: &str,
    ) -> anyhow::Result<Option<PendingMove>> {
        if let Some(memory) = &self.pending {
            return Ok(memory.take_bot(match_id, bot_id, request_id));
        }
        on_pool!(&self.pool, p => sqlx::query(
            "DELETE FROM pending_moves WHERE match_id = $1 AND bot_id = $2 AND request_id = $3 \
             RETURNING *",
        )
            .bind(match_id)
            .bind(bot_id)
            .bind(request_id)
            .fetch_optional(p)
            .await?
            .as_ref()
            .map(pending_row)
            .transpose())
    }

    async fn pending_moves(
        &self,
        match_id: Option<&str>,
        bot_id: Option<&str>,
    ) -> anyhow::Result<Vec<PendingMove>> {
        if let Some(memory) = &self.pending {
            return Ok(memory.list(match_id, bot_id));
        }
        on_pool!(&self.pool, p => sqlx::query(
            "SELECT * FROM pending_moves WHERE (CAST($1 AS TEXT) IS NULL OR match_id = $1) \
             AND (CAST($2 AS TEXT) IS NULL OR bot_id = $2) ORDER BY created_at, match_id, seat",
        )
            .bind(match_id)
            .bind(bot_id)
            .fetch_all(p)
            .await?
            .iter()
            .map(pending_row)
            .collect())
    }

    async fn set_pending_clock(
        &self,
        match_id: &str,
        seat: usize,
        request_id: &str,
        deadline_at: i64,
        frozen_left_ms: Option<i64>,
    ) -> anyhow::Result<bool> {
        if let Some(memory) = &self.pending {
            return Ok(memory.set_clock(match_id, seat, request_id, deadline_at, frozen_left_ms));
        }
        let updated = on_pool!(&self.pool, p => sqlx::query(
            "UPDATE pending_moves SET deadline_at = $1, frozen_left_ms = $2 \
             WHERE match_id = $3 AND seat = $4 AND request_id = $5",
        )
            .bind(deadline_at)
            .bind(frozen_left_ms)
            .bind(match_id)
            .bind(seat as i64)
            .bind(request_id)
            .execute(p)
            .await
            .map(|r| r.rows_affected()))?;
        Ok(updated > 0)
    }

    async fn clear_pending(&self, match_id: &str) -> anyhow::Result<()> {
        if let Some(memory) = &self.pending {
            memory.clear(match_id);
            return Ok(());
        }
        on_pool!(&self.pool, p => sqlx::query("DELETE FROM pending_moves WHERE match_id = $1")
            .bind(match_id)
            .execute(p)
            .await
            .map(|r| r.rows_affected()))?;
        Ok(())
    }

    async fn set_connection(
        &self,
        bot_id: &str,
        connection_id: &str,
        ttl: Duration,
        replace: bool,
    ) -> anyhow::Result<bool> {
        let now = self.dialect.now_ms();
        // A live connection stays unless the new one asks to replace it; one whose time ran
        // out (its process died) is replaced anyway.
        let sql = format!(
            "INSERT INTO bot_connections (bot_id, connection_id, connected_at, until) \
             VALUES ($1, $2, {now}, {now} + $3) ON CONFLICT (bot_id) DO UPDATE \
             SET connection_id = $2, connected_at = {now}, until = {now} + $3 \
             WHERE $4 OR bot_connections.until <= {now}"
        );
        let set = on_pool!(&self.pool, p => sqlx::query(AssertSqlSafe(sql))
            .bind(bot_id)
            .bind(connection_id)
            .bind(millis(ttl))
            .bind(replace)
            .execute(p)
            .await
            .map(|r| r.rows_affected()))?;
        Ok(set > 0)
    }

    async fn renew_connection(
        &self,
        bot_id: &str,
        connection_id: &str,
        ttl: Duration,
    ) -> anyhow::Result<bool> {
        let sql = format!(
            "UPDATE bot_connections SET until = {} + $3 WHERE bot_id = $1 AND connection_id = $2",
            self.dialect.now_ms()
        );
        let renewed = on_pool!(&self.pool, p => sqlx::query(AssertSqlSafe(sql))
            .bind(bot_id)
            .bind(connection_id)
            .bind(millis(ttl))
            .execute(p)
            .await
            .map(|r| r.rows_affected()))?;
        Ok(renewed > 0)
    }

    async fn end_connection(&self, bot_id: &str, connection_id: &str) -> anyhow::Result<bool> {
        let ended = on_pool!(&self.pool, p => sqlx::query(
            "DELETE FROM bot_connections WHERE bot_id = $1 AND connection_id = $2",
        )
            .bind(bot_id)
            .bind(connection_id)
            .execute(p)
            .await
            .map(|r| r.rows_affected()))?;
        Ok(ended > 0)
    }

    async fn connected_bots(&self) -> anyhow::Result<HashSet<String>> {
        let sql = format!(
            "SELECT bot_id FROM bot_connections WHERE until > {}",
            self.dialect.now_ms()
        );
        let ids: Vec<String> = on_pool!(&self.pool, p =>
            sqlx::query_scalar(AssertSqlSafe(sql)).fetch_all(p).await?);
        Ok(ids.into_iter().collect())
    }
}
