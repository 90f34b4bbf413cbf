//! Leaderboards: a game's ratings at one table size, best first.

use super::Arena;
use crate::dto::{Leaderboard, LeaderboardEntry, LeaderboardKind, LeaderboardQuery, rfc3339};
use crate::paging;
use crate::problem::ServiceError;
use crate::store::RatingRecord;

/// The order of a leaderboard, and its pages' key: the conservative rating, best first (as
/// the bits of the `f64`, exact in a cursor), then the bot id.
fn position(row: &RatingRecord) -> (std::cmp::Reverse<TotalF64>, String) {
    (
        std::cmp::Reverse(TotalF64(row.rating.display())),
        row.bot_id.clone(),
    )
}

/// An `f64` ordered by `total_cmp` (ratings are finite).
#[derive(Debug, Clone, Copy, PartialEq)]
struct TotalF64(f64);

impl Eq for TotalF64 {}

impl PartialOrd for TotalF64 {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for TotalF64 {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

impl Arena {
    /// A page of the leaderboard of a game at `query.players` seats (None: the table size with
    /// the most ranked matches, the smallest on a tie; before any, the smallest the game id
    /// seats): one indexed read of the ratings (a row per bot that played it ranked), the page
    /// cut after the cursor's position, names read for the page's rows only. Ranks count from
    /// the top whatever the page.
    pub async fn leaderboard(
        &self,
        game: &str,
        query: LeaderboardQuery,
    ) -> Result<Leaderboard, ServiceError> {
        let Some(found) = engine::registry::find(game) else {
            return Err(ServiceError::unknown_game(game));
        };
        let sizes = self.inner.store.table_sizes(game).await?;
        let range = found.info().players;
        let players = match query.players {
            Some(players) if !(range.min..=range.max).contains(&players) => {
                return Err(ServiceError::invalid(format!(
                    "`{game}` seats {} to {} players: there is no leaderboard of {players}",
                    range.min, range.max
                )));
            }
            Some(players) => players,
            None => most_played(&sizes).unwrap_or(range.min.max(2)),
        };
        let limit = paging::limit(query.limit, 100);
        let after: Option<(u64, String)> = paging::after(query.cursor.as_deref())?;
        let kind = query.kind.unwrap_or_default();
        let mut rows = match kind {
            LeaderboardKind::Bots => self.inner.store.leaderboard(game, players).await?,
            LeaderboardKind::People => self.inner.store.people_leaderboard(game, players).await?,
        };
        rows.sort_by_key(position);
        let first = match &after {
            None => 0,
            Some((bits, bot)) => {
                let key = (
                    std::cmp::Reverse(TotalF64(f64::from_bits(*bits))),
                    bot.clone(),
                );
                rows.partition_point(|row| position(row) <= key)
            }
        };
        let ranked: Vec<(usize, RatingRecord)> = rows.into_iter().enumerate().skip(first).collect();
        let (page, next_cursor) = paging::page(ranked, limit, |(_, row)| {
            (row.rating.display().to_bits(), row.bot_id.clone())
        });
        let mut entries = Vec::new();
        for (i, row) in page {
            let (bot, player, name) = match kind {
                LeaderboardKind::Bots => {
                    let name = self.inner.store.bot_any(&row.bot_id).await?.map(|b| b.name);
                    (Some(row.bot_id), None, name)
                }
                LeaderboardKind::People => {
                    let name = self.inner.store.player(&row.bot_id).await?.map(|p| p.name);
                    (None, Some(row.bot_id), name)
                }
            };
            entries.push(LeaderboardEntry {
                rank: i + 1,
                bot,
                player,
                name: name.unwrap_or_default(),
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
            kind,
            entries,
            table_sizes: sizes
                .into_iter()
                .map(|(players, matches)| (players.to_string(), matches))
                .collect(),
            next_cursor,
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
