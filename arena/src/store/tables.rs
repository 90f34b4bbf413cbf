//! Tables people share with bots, as stored: a table is an ordinary match (created with it,
//! [`MatchStatus::Waiting`](super::MatchStatus::Waiting) until every person seat is taken) and
//! who sits where. A person's seat is held by a secret key, of which only the hash is kept.

use super::MatchRecord;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The bot id every person seat of a match names (`match_seats` needs a bot row; that row is
/// never listed, looked up by name or laddered; at a rated table the player in the seat is
/// rated instead).
pub const PERSON_BOT_ID: &str = "person";

/// Who sits in a seat of a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SeatKind {
    /// A bot, called as in any match.
    Bot,
    /// A person the table's creator invited: the seat's link holds its key.
    Human,
    /// A seat anyone with the table's link may take, choosing a name.
    Open,
    /// A seat held for a player (`players`): joined with its link plus the player's token.
    Player,
}

impl SeatKind {
    /// The stored (and wire) name.
    pub fn as_str(self) -> &'static str {
        match self {
            SeatKind::Bot => "bot",
            SeatKind::Human => "human",
            SeatKind::Open => "open",
            SeatKind::Player => "player",
        }
    }

    /// From the stored name.
    pub fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "bot" => SeatKind::Bot,
            "human" => SeatKind::Human,
            "open" => SeatKind::Open,
            "player" => SeatKind::Player,
            _ => return None,
        })
    }
}

/// One seat of a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableSeat {
    /// The seat.
    pub seat: usize,
    /// Who sits there.
    pub kind: SeatKind,
    /// The bot's name, or the person's; None for an open seat nobody took yet.
    pub name: Option<String>,
    /// Hex SHA-256 of the seat's key: a human seat's from the start, an open seat's once taken.
    pub key_hash: Option<String>,
    /// When the person took the seat, unix milliseconds.
    pub joined_at: Option<i64>,
    /// The player in the seat: a player seat's from the start, a person seat's when a player
    /// took it with their token.
    pub player_id: Option<String>,
}

/// A table, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableRecord {
    /// Table id (`t_` is the tournaments'; tables are `tb_` + hex).
    pub id: String,
    /// Its match.
    pub match_id: String,
    /// The least time each move stays on screen, in milliseconds (0 to 5000).
    pub pace_ms: u64,
    /// Creation time, unix milliseconds.
    pub created_at: i64,
    /// Every seat, in order.
    pub seats: Vec<TableSeat>,
    /// The table "Play again" opened after this one, once someone asked.
    pub rematch: Option<String>,
}

/// A table as the lobby and the lists show it: the table and its match's game and status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableListing {
    /// The table and its seats.
    pub table: TableRecord,
    /// Its match's game id.
    pub game: String,
    /// Its match's status.
    pub status: super::MatchStatus,
    /// Whether its match is ranked (a rated table).
    pub rated: bool,
    /// Why its match was aborted, if it was.
    pub abort_reason: Option<super::AbortReason>,
}

/// Which tables a list selects.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TableFilter {
    /// Only tables whose match is in this status; `waiting` selects the lobby: waiting tables
    /// with an open seat nobody took yet.
    pub status: Option<super::MatchStatus>,
    /// Only this game id.
    pub game: Option<String>,
    /// At most this many, newest first.
    pub limit: u32,
    /// Only tables older than this one: the key (creation time, id) of the previous page's last.
    pub before: Option<(i64, String)>,
}

/// The tables' part of the [`Store`](super::Store). Every method is one transaction.
#[async_trait::async_trait]
pub trait TableStore {
    /// Stores a table with its match (as given: waiting, or queued when nobody is to join).
    /// With `rematch_of`, the table is that table's rematch: stored only if it has none yet
    /// (returns false, storing nothing, if another request opened it first).
    async fn insert_table(
        &self,
        table: &TableRecord,
        record: &MatchRecord,
        rematch_of: Option<&str>,
    ) -> anyhow::Result<bool>;
    /// The secret a table's rematch keys are derived from (made on first use).
    async fn rematch_secret(&self, table_id: &str) -> anyhow::Result<String>;
    /// A table.
    async fn get_table(&self, id: &str) -> anyhow::Result<Option<TableRecord>>;
    /// The tables `filter` selects, newest first (by creation time, then id).
    async fn tables(&self, filter: &TableFilter) -> anyhow::Result<Vec<TableListing>>;
    /// The table a match is played at, if any.
    async fn table_of_match(&self, match_id: &str) -> anyhow::Result<Option<TableRecord>>;
    /// Takes the open seat `seat` for a person named `name`, holding the key hashed `key_hash`.
    /// Returns false if it is not an open seat or someone took it first.
    /// With `player`, the seat is that player's.
    async fn take_open_seat(
        &self,
        table_id: &str,
        seat: usize,
        name: &str,
        key_hash: &str,
        player: Option<&str>,
    ) -> anyhow::Result<bool>;
    /// Marks a human or player seat joined (the first time), under `name`; with `player`, a
    /// human seat becomes that player's.
    async fn join_person_seat(
        &self,
        table_id: &str,
        seat: usize,
        name: &str,
        player: Option<&str>,
    ) -> anyhow::Result<()>;
    /// Queues the table's waiting match if every person seat is taken. Returns true if this
    /// call queued it (several joins racing: exactly one does).
    async fn start_table(&self, table_id: &str) -> anyhow::Result<bool>;
}
