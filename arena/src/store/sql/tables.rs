//! [`TableStore`] on SQLite and PostgreSQL: the same statements on either pool.

use super::{Columns, Dialect, Pool, SqlStore, json, older_than};
use crate::store::tables::{
    SeatKind, TableFilter, TableListing, TableRecord, TableSeat, TableStore,
};
use crate::store::{AbortReason, MatchRecord, MatchStatus, now_ms};
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
        player_id: row.opt_text("player_id")?,
    })
}

/// The columns of a table row.
const TABLE_COLUMNS: &str = "t.id, t.match_id, t.pace_ms, t.created_at, t.rematch_id";

impl SqlStore {
    /// The seats of table `id`, in order.
    async fn table_seats(&self, id: &str) -> anyhow::Result<Vec<TableSeat>> {
        on_pool!(&self.pool, p => sqlx::query(
            "SELECT seat, kind, name, key_hash, joined_at, player_id FROM table_seats \
             WHERE table_id = $1 ORDER BY seat",
        )
        .bind(id)
        .fetch_all(p)
        .await?
        .iter()
        .map(seat_row)
        .collect::<anyhow::Result<Vec<_>>>())
    }

    /// The table whose `column` (`id` or `match_id`) is `value`, with its seats.
    async fn table_where(&self, column: &str, value: &str) -> anyhow::Result<Option<TableRecord>> {
        let sql = format!("SELECT {TABLE_COLUMNS} FROM tables t WHERE t.{column} = $1");
        let row = on_pool!(&self.pool, p => {
            let Some(row) = sqlx::query(AssertSqlSafe(sql)).bind(value).fetch_optional(p).await? else {
                return Ok(None);
            };
            (row.text("id")?, row.text("match_id")?, row.int("pace_ms")?, row.int("created_at")?, row.opt_text("rematch_id")?)
        });
        let (id, match_id, pace_ms, created_at, rematch) = row;
        Ok(Some(TableRecord {
            seats: self.table_seats(&id).await?,
            rematch,
            match_id,
            pace_ms: u64::try_from(pace_ms)?,
            created_at,
            id,
        }))
    }
}

#[async_trait::async_trait]
impl TableStore for SqlStore {
    async fn insert_table(
        &self,
        table: &TableRecord,
        record: &MatchRecord,
        rematch_of: Option<&str>,
    ) -> anyhow::Result<bool> {
        on_pool!(&self.pool, p => {
            let mut tx = p.begin().await?;
            if let Some(old) = rematch_of {
                // First: the old table's row decides which request opens the rematch.
                let claimed = sqlx::query(
                    "UPDATE tables SET rematch_id = $1 WHERE id = $2 AND rematch_id IS NULL",
                )
                .bind(&table.id)
                .bind(old)
                .execute(&mut *tx)
                .await?
                .rows_affected();
                if claimed == 0 {
                    tx.rollback().await?;
                    return Ok(false);
                }
            }
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
                    "INSERT INTO table_seats (table_id, seat, kind, name, key_hash, joined_at, player_id) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7)",
                )
                .bind(&table.id)
                .bind(seat.seat as i64)
                .bind(seat.kind.as_str())
                .bind(&seat.name)
                .bind(&seat.key_hash)
                .bind(seat.joined_at)
                .bind(&seat.player_id)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
        });
        Ok(true)
    }

    async fn rematch_secret(&self, table_id: &str) -> anyhow::Result<String> {
        on_pool!(&self.pool, p => {
            sqlx::query(
                "UPDATE tables SET rematch_secret = $1 WHERE id = $2 AND rematch_secret IS NULL",
            )
            .bind(self.seal_secret(
                &super::secrets::table_owner(table_id),
                &rand::random::<[u8; 32]>()
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect::<String>(),
            ))
            .bind(table_id)
            .execute(p)
            .await?;
            let secret: Option<String> =
                sqlx::query_scalar("SELECT rematch_secret FROM tables WHERE id = $1")
                    .bind(table_id)
                    .fetch_optional(p)
                    .await?
                    .flatten();
            let secret = secret.with_context(|| format!("no table `{table_id}`"))?;
            Ok(self.open_secret(&super::secrets::table_owner(table_id), &secret))
        })
    }

    async fn get_table(&self, id: &str) -> anyhow::Result<Option<TableRecord>> {
        self.table_where("id", id).await
    }

    async fn tables(&self, filter: &TableFilter) -> anyhow::Result<Vec<TableListing>> {
        // $1 is the limit; the game and the previous page's key follow when given.
        let mut conditions = String::new();
        if let Some(status) = filter.status {
            conditions.push_str(&format!(" AND m.status = '{}'", status.as_str()));
            if status == MatchStatus::Waiting {
                // The lobby: a table waiting only for the people its creator invited is theirs.
                conditions.push_str(
                    " AND EXISTS (SELECT 1 FROM table_seats s WHERE s.table_id = t.id \
                     AND s.kind = 'open' AND s.key_hash IS NULL)",
                );
            }
        }
        let mut next = 2;
        if filter.game.is_some() {
            conditions.push_str(" AND m.game = $2");
            next = 3;
        }
        conditions.push_str(&older_than(
            filter.before.is_some(),
            "AND",
            "t.created_at, t.id",
            next,
        ));
        let sql = format!(
            "SELECT {TABLE_COLUMNS}, m.game, m.status, m.ranked, m.abort_reason FROM tables t JOIN matches m ON m.id = t.match_id \
             WHERE 1 = 1{conditions} ORDER BY t.created_at DESC, t.id DESC LIMIT $1"
        );
        let rows = on_pool!(&self.pool, p => {
            let mut query = sqlx::query(AssertSqlSafe(sql)).bind(i64::from(filter.limit));
            if let Some(game) = &filter.game {
                query = query.bind(game);
            }
            if let Some((at, id)) = &filter.before {
                query = query.bind(*at).bind(id);
            }
            query
                .fetch_all(p)
                .await?
                .iter()
                .map(|row| {
                    let status = row.text("status")?;
                    Ok((
                        row.text("id")?,
                        row.text("match_id")?,
                        u64::try_from(row.int("pace_ms")?)?,
                        row.int("created_at")?,
                        row.text("game")?,
                        MatchStatus::parse(&status)
                            .with_context(|| format!("unknown match status `{status}`"))?,
                        row.flag("ranked")?,
                        row.opt_text("rematch_id")?,
                        row.opt_text("abort_reason")?
                            .and_then(|name| AbortReason::parse(&name)),
                    ))
                })
                .collect::<anyhow::Result<Vec<_>>>()?
        });
        let mut listed = Vec::with_capacity(rows.len());
        for (id, match_id, pace_ms, created_at, game, status, rated, rematch, abort_reason) in rows
        {
            listed.push(TableListing {
                table: TableRecord {
                    seats: self.table_seats(&id).await?,
                    rematch,
                    id,
                    match_id,
                    pace_ms,
                    created_at,
                },
                game,
                status,
                rated,
                abort_reason,
            });
        }
        Ok(listed)
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
        player: Option<&str>,
    ) -> anyhow::Result<bool> {
        let taken = on_pool!(&self.pool, p => sqlx::query(
            "UPDATE table_seats SET name = $1, key_hash = $2, joined_at = $3, player_id = $6 \
             WHERE table_id = $4 AND seat = $5 AND kind = 'open' AND key_hash IS NULL",
        )
        .bind(name)
        .bind(key_hash)
        .bind(now_ms())
        .bind(table_id)
        .bind(seat as i64)
        .bind(player)
        .execute(p)
        .await
        .map(|r| r.rows_affected()))?;
        Ok(taken > 0)
    }

    async fn join_person_seat(
        &self,
        table_id: &str,
        seat: usize,
        name: &str,
        player: Option<&str>,
    ) -> anyhow::Result<()> {
        on_pool!(&self.pool, p => sqlx::query(
            "UPDATE table_seats SET joined_at = COALESCE(joined_at, $1), name = $2, \
             player_id = COALESCE(player_id, $5) \
             WHERE table_id = $3 AND seat = $4 AND kind IN ('human', 'player')",
        )
        .bind(now_ms())
        .bind(name)
        .bind(table_id)
        .bind(seat as i64)
        .bind(player)
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
