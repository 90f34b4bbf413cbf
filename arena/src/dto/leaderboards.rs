//! The bodies of `GET /v1/leaderboards/{game}`: bots' boards and people's.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// The table size and paging of `GET /v1/leaderboards/{game}`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LeaderboardQuery {
    /// Whose ratings: `bots` (default) or `people` (players rated at rated tables).
    #[param(inline)]
    pub kind: Option<LeaderboardKind>,
    /// The table size (number of players); default: the size with the most ranked matches (the
    /// smallest the game id allows before any).
    pub players: Option<usize>,
    /// At most this many rows (default 100; 1 to 500, anything else is refused with
    /// `invalid_request`).
    #[param(minimum = 1, maximum = 500)]
    pub limit: Option<u32>,
    /// The rows after another page: that page's `next_cursor`.
    pub cursor: Option<String>,
}

/// Whose ratings a leaderboard ranks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum LeaderboardKind {
    /// Bots, from ranked matches (the ladder's, and rated tables').
    #[default]
    Bots,
    /// People as players, from rated tables.
    People,
}

/// One row of a leaderboard.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct LeaderboardEntry {
    /// 1-based rank.
    pub rank: usize,
    /// Bot id (on a board of bots).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    /// Player id (on a board of people: their page is `/player/{id}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// The bot's or the player's name.
    pub name: String,
    /// Conservative rating `mu - 3 sigma`.
    pub display: f64,
    /// Estimated skill.
    pub mu: f64,
    /// Uncertainty.
    pub sigma: f64,
    /// Ranked matches played.
    pub games: u64,
    /// Ranked matches won: the bot's side alone in first place.
    pub wins: u64,
    /// Ranked matches drawn: first place shared with another side.
    pub draws: u64,
    /// Ranked matches lost: any other place (disqualified seats rank last).
    pub losses: u64,
    /// Faults the bot made in its ranked matches (timeouts, errors, illegal actions, ...).
    pub faults: u64,
    /// Ranked matches played (the same as `games`; kept for older clients).
    pub played: u64,
    /// The last ranked match.
    pub last_match: Option<String>,
    /// When the last ranked match finished (RFC 3339).
    #[schema(format = DateTime, example = "2026-11-23T18:50:28.123Z")]
    pub last_played_at: String,
}

/// `GET /v1/leaderboards/{game}`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Leaderboard {
    /// Game id.
    pub game: String,
    /// The table size of this board (`?players=N`; by default the size with the most ranked
    /// matches): ratings at different sizes are kept apart.
    pub players: usize,
    /// Whose ratings: `bots` or `people`.
    pub kind: LeaderboardKind,
    /// Bots (or people), best first.
    pub entries: Vec<LeaderboardEntry>,
    /// Ranked matches of this game id per table size (number of players, as a string key):
    /// the ladder plays every size the game id allows among its bots, the least played first.
    #[schema(example = json!({"2": 40, "3": 38, "4": 37}))]
    pub table_sizes: std::collections::BTreeMap<String, u64>,
    /// The `cursor` of the next rows (lower ratings); `null` on the last page.
    pub next_cursor: Option<String>,
}
