//! Leaderboards: a game's ratings, best first.

use super::Arena;
use crate::dto::{Leaderboard, LeaderboardEntry, rfc3339};
use crate::problem::ServiceError;

impl Arena {
    /// The leaderboard of a game.
    pub async fn leaderboard(&self, game: &str) -> Result<Leaderboard, ServiceError> {
        if engine::registry::find(game).is_none() {
            return Err(ServiceError::unknown_game(game));
        }
        let rows = self.inner.store.leaderboard(game).await?;
        let mut entries = Vec::new();
        for (i, row) in rows.into_iter().enumerate() {
            let name = self
                .inner
                .store
                .bot_any(&row.bot_id)
                .await?
                .map(|b| b.name)
                .unwrap_or_default();
            entries.push(LeaderboardEntry {
                rank: i + 1,
                bot: row.bot_id,
                name,
                display: row.rating.display(),
                mu: row.rating.mu,
                sigma: row.rating.sigma,
                games: row.played,
                wins: row.wins,
                draws: row.draws,
                losses: row.losses,
                faults: row.faults,
                played: row.played,
                last_match: row.last_match,
                last_played_at: rfc3339(row.updated_at),
            });
        }
        let table_sizes = self
            .inner
            .store
            .table_sizes(game)
            .await?
            .into_iter()
            .map(|(players, matches)| (players.to_string(), matches))
            .collect();
        Ok(Leaderboard {
            game: game.to_string(),
            entries,
            table_sizes,
        })
    }
}
