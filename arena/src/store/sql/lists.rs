//! The pages of lists read straight from the store: bots in the order they registered, and the
//! ratings of a page's bots.

use super::rated::rating_row;
use super::{Pool, SqlStore};
use crate::store::{BotRecord, RatingRecord};
use sqlx::AssertSqlSafe;

impl SqlStore {
    /// Live bots registered after `after` (creation time, id), oldest first, at most `limit`.
    pub(super) async fn bots_after(
        &self,
        after: Option<(i64, String)>,
        limit: u32,
    ) -> anyhow::Result<Vec<BotRecord>> {
        // Written only for a later page: a condition that is always there, `$2 IS NULL OR ...`,
        // would keep the databases from seeking in the index.
        let newer = if after.is_some() {
            " AND (created_at, id) > ($2, $3)"
        } else {
            ""
        };
        let sql = format!(
            "SELECT * FROM bots WHERE deleted = FALSE{newer} ORDER BY created_at, id LIMIT $1"
        );
        on_pool!(&self.pool, p => {
            let mut query = sqlx::query(AssertSqlSafe(sql.clone())).bind(i64::from(limit));
            if let Some((at, id)) = &after {
                query = query.bind(*at).bind(id.clone());
            }
            query.fetch_all(p).await?.iter().map(|row| self.bot_from(row)).collect()
        })
    }

    /// The ratings of the bots `ids`, by bot, game and table size.
    pub(super) async fn ratings_of_bots(
        &self,
        ids: &[String],
    ) -> anyhow::Result<Vec<RatingRecord>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let placeholders: Vec<String> = (2..=ids.len() + 1).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT * FROM ratings WHERE kind = $1 AND rated_id IN ({}) \
             ORDER BY rated_id, game, players",
            placeholders.join(", ")
        );
        on_pool!(&self.pool, p => {
            let mut query = sqlx::query(AssertSqlSafe(sql.clone())).bind(super::rated::BOT);
            for id in ids {
                query = query.bind(id.clone());
            }
            query.fetch_all(p).await?.iter().map(rating_row).collect()
        })
    }
}
