//! People as players, as stored: a name and the hash of a token (no password, no e-mail). A
//! table seat may hold a player; a rated table rates its players in the ratings table under the
//! rated entity kind `player`, per game id and table size as bots are.

use super::{RatingRecord, TableListing};

/// The prefix of a player's key among the rated members of a match (a bot's key is its id):
/// `player:<id>`.
pub const RATED_PLAYER_PREFIX: &str = "player:";

/// The rated member key of player `id`.
pub fn rated_key(id: &str) -> String {
    format!("{RATED_PLAYER_PREFIX}{id}")
}

/// A player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerRecord {
    /// `p_` + 16 hex digits.
    pub id: String,
    /// The name shown (unique among players).
    pub name: String,
    /// Hex SHA-256 of the player's token.
    pub token_hash: String,
    /// Creation time, unix milliseconds.
    pub created_at: i64,
}

/// The players' part of the [`Store`](super::Store). Every method is one transaction.
#[async_trait::async_trait]
pub trait PlayerStore {
    /// Stores a new player. Returns false, storing nothing, if a player already has its name.
    async fn insert_player(&self, player: &PlayerRecord) -> anyhow::Result<bool>;
    /// A player by id.
    async fn player(&self, id: &str) -> anyhow::Result<Option<PlayerRecord>>;
    /// The player whose token hashes to `token_hash`.
    async fn player_by_token(&self, token_hash: &str) -> anyhow::Result<Option<PlayerRecord>>;
    /// The tables where the player holds a seat, newest first, at most `limit`.
    async fn player_tables(&self, id: &str, limit: u32) -> anyhow::Result<Vec<TableListing>>;
    /// The player's ratings, by game id and table size.
    async fn player_ratings(&self, id: &str) -> anyhow::Result<Vec<RatingRecord>>;
    /// The people's leaderboard of `game` at `players` seats (unsorted; `bot_id` holds the
    /// player id).
    async fn people_leaderboard(
        &self,
        game: &str,
        players: usize,
    ) -> anyhow::Result<Vec<RatingRecord>>;
}
