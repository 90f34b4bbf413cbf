//! Leaderboards: a game's ratings at one table size, best first.

use super::Arena;
use crate::dto::{Leaderboard, LeaderboardEntry, rfc3339};
use crate::problem::ServiceError;

impl Arena {
    /// The leaderboard of a game at `players` seats (None: the table size with the most ranked
    /// matches, the smallest on a tie; before any, the smallest the game id seats).
    pub async fn leaderboard(
        &self,
        game: &str,
        players: Option<usize>,
    ) -> Result<Leaderboard, ServiceError> {
        let Some(found) = engine::registry::find(game) else {
            return Err(ServiceError::unknown_game(game));
        };
        let sizes = self.inner.store.table_sizes(game).await?;
        let range = found.info().players;
        let players = match players {
            Some(players) if !(range.min..=range.max).contains(&players) => {
                return Err(ServiceError::invalid(format!(
                    "`{game}` seats {} to {} players: there is no leaderboard of {players}",
                    range.min, range.max
                )));
            }
            Some(players) => players,
            None => most_played(&sizes).unwrap_or(range.min.max(2)),
        };
        let rows = self.inner.store.leaderboard(game, players).await?;
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
        Ok(Leaderboard {
            game: game.to_string(),
            players,
            entries,
            table_sizes: sizes
                .into_iter()
                .map(|(players, matches)| (players.to_string(), matches))
                .collect(),
        })
    }
}

/// The table size with the most ranked matches (the smallest on a tie), if any was played.
fn most_played(sizes: &[(usize, u64)]) -> Option<usize> {
    sizes
        .iter()
        .filter(|(_, matches)| *matches > 0)
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
        .map(|(players, _)| *players)
}

#[cfg(test)]
mod tests {
    use super::most_played;

    #[test]
    fn the_default_board_is_the_size_played_most_the_smallest_on_a_tie() {
        assert_eq!(most_played(&[]), None);
        assert_eq!(most_played(&[(2, 3), (3, 9), (4, 1)]), Some(3));
        assert_eq!(most_played(&[(2, 5), (4, 5)]), Some(2));
        assert_eq!(most_played(&[(2, 0)]), None);
    }
}
