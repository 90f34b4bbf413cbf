//! People as players: the bodies of `/v1/players`. A player is a name and a token (kept in the
//! person's browser; no password, no e-mail): a table seat may name a player (`{"player": id}`),
//! joined with the seat's link plus the player's token, and a rated table rates its players per
//! game id and table size, as bots are rated.

use crate::dto::GameRating;
use crate::tables::TableView;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// How many recent tables `GET /v1/players/{id}` shows.
pub const RECENT_TABLES: u32 = 20;

pub use crate::store::players::{RATED_PLAYER_PREFIX, rated_key};

/// `POST /v1/players`: a person becomes a player.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Anna"}))]
pub struct CreatePlayer {
    /// The name shown at tables and on leaderboards: 1 to 64 printable characters, unique
    /// among players.
    pub name: String,
}

/// The answer to `POST /v1/players`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PlayerCreated {
    /// Player id (`p_` + 16 hex digits).
    pub id: String,
    /// The name.
    pub name: String,
    /// The player's token, shown once: send it as `Authorization: Bearer <token>` when joining
    /// a seat held for this player. Whoever holds it plays as this player.
    pub token: String,
}

/// `GET /v1/players/{id}`: a player as anyone may see them.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PlayerView {
    /// Player id.
    pub id: String,
    /// The name.
    pub name: String,
    /// When the player was created (RFC 3339).
    #[schema(format = DateTime, example = "2026-11-23T18:50:28.123Z")]
    pub created_at: String,
    /// Ratings from rated tables, one per game id and table size.
    pub ratings: Vec<GameRating>,
    /// The tables where the player holds a seat, newest first (at most 20).
    pub tables: Vec<TableView>,
}
