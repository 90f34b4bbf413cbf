//! Tables people share with bots: the bodies of `/v1/tables` and the seats' keys. A table is an
//! ordinary unranked match whose person seats are moved from outside (the page, or
//! `POST /v1/tables/{id}/move`); each person seat is held by a random key, a capability carried
//! in the seat's link, of which the store keeps only the hash.

use crate::result::MatchResult;
use crate::store::{AbortReason, MatchStatus, SeatKind};
use crate::wire::Clock;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

pub use crate::store::tables::PERSON_BOT_ID;

/// The page of a table: where people watch it and take its open seats.
pub fn watch_url(table_id: &str) -> String {
    format!("/table/{table_id}")
}

/// A seat's secret link: the table's page with the seat and its key in the fragment, which
/// browsers never send to a server (no access log or `Referer` holds the key).
pub fn join_url(table_id: &str, seat: usize, key: &str) -> String {
    format!("/table/{table_id}#seat={seat}&key={key}")
}

/// Who sits in one seat of a new table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum SeatRequest {
    /// A bot, by id or by name.
    Bot(String),
    /// A person invited by the table's creator, with a name (`null`: the person chooses one
    /// when joining). The answer holds the seat's secret `join_url`.
    Human(Option<String>),
    /// A seat anyone with the table's link may take, choosing a name (`true`).
    Open(bool),
    /// A player (`POST /v1/players`), by id: the answer holds the seat's secret `join_url`,
    /// which the player opens with their token (`Authorization: Bearer <token>`).
    Player(String),
}

/// `POST /v1/tables`: a table people share with bots.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"game": "watten", "players": 4, "seats": [{"human": "Anna"}, {"bot": "heuristic"}, {"open": true}, {"bot": "random"}], "pace_ms": 500}))]
pub struct CreateTable {
    /// Game id.
    pub game: String,
    /// Number of players: one entry of `seats` each.
    pub players: usize,
    /// Option overrides.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub options: Option<serde_json::Map<String, Value>>,
    /// Who sits where, in seat order.
    pub seats: Vec<SeatRequest>,
    /// Seed (random if absent), as for `POST /v1/matches`: a table's match is unranked.
    #[serde(default)]
    #[schema(maximum = 9_007_199_254_740_991_u64)]
    pub seed: Option<u64>,
    /// A time bank per seat (people included); without one a person has no deadline and bots
    /// the arena's per-move deadline.
    #[serde(default)]
    pub clock: Option<Clock>,
    /// Each move is held at least this long for the people at the table and watching, in
    /// milliseconds (0 to 5000, default 0), as `pace_ms` of `POST /v1/matches`.
    #[serde(default)]
    #[schema(maximum = 5000)]
    pub pace_ms: Option<u64>,
    /// Rate every seat at the end (default false): the seats must all be players or bots, each
    /// once; the game id's own options and a secret seed (no `options` or `seed`); `clock`
    /// as given, else 15 minutes and 10 seconds a move per seat. Ratings are kept per game id
    /// and table size, people's apart from bots' (`GET /v1/leaderboards/{game}?kind=people`).
    #[serde(default)]
    pub rated: Option<bool>,
}

/// One seat in the answer to `POST /v1/tables`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct CreatedSeat {
    /// Seat number.
    pub seat: usize,
    /// Who sits there.
    pub kind: SeatKind,
    /// The bot's name, or the person's (`null` until someone takes an open seat, or a person
    /// invited without a name joins).
    pub name: Option<String>,
    /// A human seat's secret link (relative to the server): whoever holds it plays this seat.
    /// Shown once; the server keeps only a hash of its key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub join_url: Option<String>,
}

/// The answer to `POST /v1/tables`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TableCreated {
    /// Table id.
    pub id: String,
    /// The table's match (`GET /v1/matches/{id}`; `waiting` until every person has joined).
    pub match_id: String,
    /// Every seat.
    pub seats: Vec<CreatedSeat>,
    /// The table's page (relative to the server): anyone may watch there and take an open seat.
    pub watch_url: String,
}

/// One seat of a table, as anyone may see it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TableSeatView {
    /// Seat number.
    pub seat: usize,
    /// Who sits there.
    pub kind: SeatKind,
    /// The bot's name, or the person's (`null` for a seat nobody has taken).
    pub name: Option<String>,
    /// A person has taken the seat (always true for a bot).
    pub joined: bool,
    /// The player in the seat (their page: `/player/{id}`), if a player holds it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
}

/// `GET /v1/tables/{id}`: a table as anyone may see it (never a key).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TableView {
    /// Table id.
    pub id: String,
    /// The table's match.
    pub match_id: String,
    /// Game id.
    pub game: String,
    /// Number of players.
    pub players: usize,
    /// The match's status: `waiting` for people to join, then as any match.
    pub status: MatchStatus,
    /// Why the match was aborted (`status` `aborted` only): `table_expired` for a table nobody
    /// joined in time or one its person left in the middle, `cancelled`, ...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abort_reason: Option<AbortReason>,
    /// Whether the table is rated (its match is ranked): every seat is rated at the end.
    pub rated: bool,
    /// Every seat, who sits there and whether they joined.
    pub seats: Vec<TableSeatView>,
    /// The open seats nobody took yet: anyone with the table's link may take one (`POST
    /// /v1/tables/{id}/join`).
    pub open_seats: Vec<usize>,
    /// Each seat's time bank, if the table has one.
    pub clock: Option<Clock>,
    /// The least time each move stays on screen, in milliseconds.
    pub pace_ms: u64,
    /// The table's page.
    pub watch_url: String,
    /// Creation time (RFC 3339).
    #[schema(format = DateTime, example = "2026-11-23T18:50:28.123Z")]
    pub created_at: String,
}

/// The query of `GET /v1/tables`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TableQuery {
    /// Only tables whose match is in this status. `waiting` is the lobby: tables waiting for
    /// people with an open seat anyone may take (a table leaves it once full).
    #[param(inline)]
    pub status: Option<MatchStatus>,
    /// Only this game id (404 `unknown_game` for an id the catalog does not have).
    pub game: Option<String>,
    /// At most this many (default 50; 1 to 500, anything else is refused with `invalid_request`).
    #[param(minimum = 1, maximum = 500)]
    pub limit: Option<u32>,
    /// The page after another: that page's `next_cursor`.
    pub cursor: Option<String>,
}

/// `GET /v1/tables`: tables, newest first.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TableList {
    /// Tables, newest first.
    pub tables: Vec<TableView>,
    /// The `cursor` of the next page; `null` on the last page.
    pub next_cursor: Option<String>,
}

/// `POST /v1/tables/{id}/join`: take a seat. With `key`, the human seat that key holds (the
/// seat's link); without, an open seat (`seat`, or the first one free) under `name`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Anna"}))]
pub struct JoinTable {
    /// The seat to take (default: the key's seat, or the first open seat).
    #[serde(default)]
    pub seat: Option<usize>,
    /// The key of a human seat's link.
    #[serde(default)]
    pub key: Option<String>,
    /// The name to show (1 to 64 characters); default `guest <seat>`, or the name the table's
    /// creator gave.
    #[serde(default)]
    pub name: Option<String>,
}

/// The answer to `POST /v1/tables/{id}/join`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SeatJoined {
    /// The seat taken.
    pub seat: usize,
    /// The name shown for it.
    pub name: String,
    /// The seat's key: keep it (with it, the seat is yours on any device).
    pub key: String,
    /// The seat's secret link: opening it again resumes the seat.
    pub join_url: String,
}

/// A person's seat and key (`POST /v1/tables/{id}/seat`).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatKey {
    /// Seat number.
    pub seat: usize,
    /// The seat's key.
    pub key: String,
}

/// What a person at a table sees: the seat's view, and while the seat is to act its legal
/// actions and the request a move answers.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SeatState {
    /// The table.
    pub table: TableView,
    /// The seat.
    pub seat: usize,
    /// Moves played so far.
    pub moves: usize,
    /// The seat's view (exactly as `POST /v1/games/{game}/view` shows it).
    #[schema(value_type = Object)]
    pub view: Value,
    /// Seats to act.
    pub to_act: Vec<usize>,
    /// The seat's legal actions while the arena waits for its move (else empty).
    #[schema(value_type = Vec<Object>)]
    pub legal_actions: Vec<Value>,
    /// The request a move answers (`request_id` of `POST /v1/tables/{id}/move`), while the arena
    /// waits for this seat's move.
    pub request_id: Option<String>,
    /// Every public event so far, the setup's first (each move's tagged with its `action_index`).
    #[schema(value_type = Vec<Object>)]
    pub events: Vec<Value>,
    /// The result, once the match is finished (as `GET /v1/matches/{id}` shows it).
    #[schema(value_type = Option<Object>)]
    pub result: Option<MatchResult>,
}

/// `POST /v1/tables/{id}/move`: a person's move.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"seat": 0, "key": "3f2a…", "action": {"type": "play", "card": "AS"}}))]
pub struct TableMove {
    /// Seat number.
    pub seat: usize,
    /// The seat's key.
    pub key: String,
    /// One of the seat's legal actions.
    #[schema(value_type = Object)]
    pub action: Value,
    /// The request this move answers (`request_id` of the seat's state): a move sent for an
    /// earlier request is refused (409 `stale_request`). Without it, the move answers the
    /// request pending now.
    #[serde(default)]
    pub request_id: Option<String>,
}
