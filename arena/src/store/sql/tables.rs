//! [`TableStore`] on SQLite and PostgreSQL: the same statements on either pool.

use super::{Columns, Dialect, Pool, SqlStore, json};
use crate::store::tables::{SeatKind, TableRecord, TableSeat, TableStore};
use crate::store::{MatchRecord, now_ms};
use anyhow::Context;
use sqlx::AssertSqlSafe;

fn seat_row(row: &impl Columns) -> anyhow::Result<TableSeat> {
    let kind = row.text("kind")?;
    Ok(TableSeat {
        seat: usize::try_from(row.int("seat")?)?,
        kind: SeatKind::parse(&kind).with_context(|| format!("unknown seat kind `{kind}`"))?,
        name: row.opt_text("name")?,
        key_hash: row.opt_text("key_hash")?,
        joined_at: row.opt_int("joined_at")?,
    })
}

impl SqlStore {
    /// The table whose `column` (`id` or `match_id`) is `value`, with its seats.
    async fn table_where(&self, column: &str, value: &str) -> anyhow::Result<Option<TableRecord>> {
        let sql =
            format!("SELECT id, match_id, pace_ms, created_at FROM tables WHERE {column} = $1");
        on_pool!(&self.pool, p => {
            let Some(row) = sqlx::query(AssertSqlSafe(sql)).bind(value).fetch_optional(p).await? else {
                return Ok(None);
            };
            let id = row.text("id")?;
            let seats = sqlx::query(
                "SELECT seat, kind, name, key_hash, joined_at FROM table_seats \
                 WHERE table_id = $1 ORDER BY seat",
            )
            .bind(&id)
            .fetch_all(p)
            .await?
            .iter()
            .map(seat_row)
            .collect::<anyhow::Result<Vec<_>>>()?;
            Ok(Some(TableRecord {
                match_id: row.text("match_id")?,
                pace_ms: u64::try_from(row.int("pace_ms")?)?,
                created_at: row.int("created_at")?,
                seats,
                id,
            }))
        })
    }
}

#[async_trait::async_trait]
impl TableStore for SqlStore {
    async fn insert_table(&self, table: &TableRecord, record: &MatchRecord) -> anyhow::Result<()> {
        on_pool!(&self.pool, p => {
            let mut tx = p.begin().await?;
            insert_match_rows!(&mut *tx, self.dialect, record);
            sqlx::query("INSERT INTO tables (id, match_id, pace_ms, created_at) VALUES ($1, $2, $3, $4)")
                .bind(&table.id)
                .bind(&table.match_id)
                .bind(table.pace_ms as i64)
                .bind(table.created_at)
                .execute(&mut *tx)
                .await?;
            for seat in &table.seats {
                sqlx::query(
                    "INSERT INTO table_seats (table_id, seat, kind, name, key_hash, joined_at) \
                     VALUES ($1, $2, $3, $4, $5, $6)",
                )
                .bind(&table.id)
                .bind(seat.seat as i64)
                .bind(seat.kind.as_str())
                .bind(&seat.name)
                .bind(&seat.key_hash)
                .bind(seat.joined_at)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    async fn get_table(&self, id: &str) -> anyhow::Result<Option<TableRecord>> {
        self.table_where("id", id).await
    }

    async fn table_of_match(&self, match_id: &str) -> anyhow::Result<Option<TableRecord>> {
        self.table_where("match_id", match_id).await
    }

    async fn take_open_seat(
        &self,
        table_id: &str,
        seat: usize,
        name: &str,
        key_hash: &str,
    ) -> anyhow::Result<bool> {
        let taken = on_pool!(&self.pool, p => sqlx::query(
            "UPDATE table_seats SET name = $1, key_hash = $2, joined_at = $3 \
             WHERE table_id = $4 AND seat = $5 AND kind = 'open' AND key_hash IS NULL",
        )
        .bind(name)
        .bind(key_hash)
        .bind(now_ms())
        .bind(table_id)
        .bind(seat as i64)
        .execute(p)
        .await
        .map(|r| r.rows_affected()))?;
        Ok(taken > 0)
    }

    async fn join_human_seat(&self, table_id: &str, seat: usize, name: &str) -> anyhow::Result<()> {
        on_pool!(&self.pool, p => sqlx::query(
            "UPDATE table_seats SET joined_at = COALESCE(joined_at, $1), name = $2 \
             WHERE table_id = $3 AND seat = $4 AND kind = 'human'",
        )
        .bind(now_ms())
        .bind(name)
        .bind(table_id)
        .bind(seat as i64)
        .execute(p)
        .await
        .map(|_| ()))?;
        Ok(())
    }

    async fn start_table(&self, table_id: &str) -> anyhow::Result<bool> {
        let started = on_pool!(&self.pool, p => sqlx::query(
            "UPDATE matches SET status = 'queued' \
             WHERE id = (SELECT match_id FROM tables WHERE id = $1) AND status = 'waiting' \
             AND NOT EXISTS (SELECT 1 FROM table_seats \
                             WHERE table_id = $1 AND kind <> 'bot' AND joined_at IS NULL)",
        )
        .bind(table_id)
        .execute(p)
        .await
        .map(|r| r.rows_affected()))?;
        Ok(started > 0)
    }
}
