//! [`PlayerStore`] on SQLite and PostgreSQL: the same statements on either pool.

use super::rated::{PLAYER, rating_row};
use super::{Columns, Pool, SqlStore};
use crate::store::players::{PlayerRecord, PlayerStore};
use crate::store::{RatingRecord, TableListing, TableStore};

fn player_row(row: &impl Columns) -> anyhow::Result<PlayerRecord> {
    Ok(PlayerRecord {
        id: row.text("id")?,
        name: row.text("name")?,
        token_hash: row.text("token_hash")?,
        created_at: row.int("created_at")?,
    })
}

impl SqlStore {
    /// The player whose `column` (`id` or `token_hash`) is `value`.
    async fn player_where(
        &self,
        column: &'static str,
        value: &str,
    ) -> anyhow::Result<Option<PlayerRecord>> {
        let sql = match column {
            "id" => "SELECT * FROM players WHERE id = $1",
            _ => "SELECT * FROM players WHERE token_hash = $1",
        };
        on_pool!(&self.pool, p => sqlx::query(sql)
            .bind(value)
            .fetch_optional(p)
            .await?
            .as_ref()
            .map(player_row)
            .transpose())
    }
}

#[async_trait::async_trait]
impl PlayerStore for SqlStore {
    async fn insert_player(&self, player: &PlayerRecord) -> anyhow::Result<bool> {
        let inserted = on_pool!(&self.pool, p => sqlx::query(
            "INSERT INTO players (id, name, token_hash, created_at) VALUES ($1, $2, $3, $4) \
             ON CONFLICT DO NOTHING",
        )
        .bind(&player.id)
        .bind(&player.name)
        .bind(&player.token_hash)
        .bind(player.created_at)
        .execute(p)
        .await
        .map(|r| r.rows_affected()))?;
        Ok(inserted > 0)
    }

    async fn player(&self, id: &str) -> anyhow::Result<Option<PlayerRecord>> {
        self.player_where("id", id).await
    }

    async fn player_by_token(&self, token_hash: &str) -> anyhow::Result<Option<PlayerRecord>> {
        self.player_where("token_hash", token_hash).await
    }

    async fn player_tables(&self, id: &str, limit: u32) -> anyhow::Result<Vec<TableListing>> {
        let ids: Vec<String> = on_pool!(&self.pool, p => sqlx::query_scalar(
            "SELECT t.id FROM table_seats s JOIN tables t ON t.id = s.table_id \
             WHERE s.player_id = $1 GROUP BY t.id, t.created_at \
             ORDER BY t.created_at DESC, t.id DESC LIMIT $2",
        )
        .bind(id)
        .bind(i64::from(limit))
        .fetch_all(p)
        .await?);
        let mut tables = Vec::with_capacity(ids.len());
        for table_id in ids {
            if let Some(listed) = self.table_listing(&table_id).await? {
                tables.push(listed);
            }
        }
        Ok(tables)
    }

    async fn player_ratings(&self, id: &str) -> anyhow::Result<Vec<RatingRecord>> {
        on_pool!(&self.pool, p => sqlx::query(
            "SELECT * FROM ratings WHERE kind = $1 AND rated_id = $2 ORDER BY game, players",
        )
        .bind(PLAYER)
        .bind(id)
        .fetch_all(p)
        .await?
        .iter()
        .map(rating_row)
        .collect())
    }

    async fn people_leaderboard(
        &self,
        game: &str,
        players: usize,
    ) -> anyhow::Result<Vec<RatingRecord>> {
        on_pool!(&self.pool, p => sqlx::query(
            "SELECT * FROM ratings WHERE kind = $1 AND game = $2 AND players = $3",
        )
        .bind(PLAYER)
        .bind(game)
        .bind(players as i64)
        .fetch_all(p)
        .await?
        .iter()
        .map(rating_row)
        .collect())
    }
}

impl SqlStore {
    /// One table with its match's game and status.
    async fn table_listing(&self, id: &str) -> anyhow::Result<Option<TableListing>> {
        let Some(table) = self.get_table(id).await? else {
            return Ok(None);
        };
        let Some(record) = crate::store::Store::get_match(self, &table.match_id).await? else {
            return Ok(None);
        };
        Ok(Some(TableListing {
            table,
            game: record.game,
            status: record.status,
            rated: record.ranked,
            abort_reason: record.abort_reason,
        }))
    }
}
