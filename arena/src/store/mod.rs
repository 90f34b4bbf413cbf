//! Persistence: the [`Store`] trait the arena is written against. It uses plain records and
//! portable SQL concepts (one transaction for result + ratings, a conditional status update so a
//! match finishes once, leases fencing every write of a match to the worker that holds it), and
//! has one implementation, [`sql::SqlStore`], for both SQLite (the single-process default) and
//! PostgreSQL (several processes); [`sql::Dialect`] holds the few places their SQL differs.

mod creator;
pub mod idempotency;
pub mod outside;
mod pending;
pub mod players;
pub mod queue;
pub mod sql;
pub mod tables;
pub mod upkeep;
mod writer;

pub use creator::{Creator, CreatorKind};
pub use idempotency::{IdempotencyStore, Reservation};
pub use outside::OutsideStore;
pub use players::{PlayerRecord, PlayerStore};
pub use queue::{Claim, Lane, QueueStore};
pub use sql::{Dialect, Leadership, SqlStore};
pub use tables::{SeatKind, TableFilter, TableListing, TableRecord, TableSeat, TableStore};
pub use upkeep::{PoolStats, QueueDepth, Readiness, UpkeepStore};

/// A move could not be stored because the move writer has stopped: only while the process shuts
/// down (its runtime may drop the writer before the matches waiting on it). The match stays
/// running and resumes from its logged moves, here or on another worker.
#[derive(Debug, thiserror::Error)]
#[error("the move writer has stopped (the process is shutting down)")]
pub struct WriterStopped;

use crate::client::{Fault, PreviousSecret};
use crate::ratings::Rating;
use crate::result::MatchResult;
use crate::wire::Clock;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::HashSet;
use std::time::Duration;
use utoipa::ToSchema;

/// A registered bot, as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct BotRecord {
    /// Bot id (`b_` + hex).
    pub id: String,
    /// Name given at registration.
    pub name: String,
    /// Base URL (`builtin:<name>` for built-in bots).
    pub url: String,
    /// Game ids the bot plays in the arena.
    pub games: Vec<String>,
    /// Author, from the probe.
    pub author: String,
    /// Version, from the probe.
    pub version: String,
    /// Hex SHA-256 of the owner token.
    pub token_hash: String,
    /// Key with which requests to the bot are signed.
    pub signing_secret: String,
    /// The key a rotation replaced, still valid for a while (requests carry its signature too).
    pub previous_secret: Option<PreviousSecret>,
    /// A built-in bot.
    pub builtin: bool,
    /// How the arena reaches the bot: it calls its URL, or the bot connects out.
    pub transport: Transport,
    /// Paused from the ladder until a clean probe and a clean trial match.
    pub paused: bool,
    /// Disqualifications or failed probes in a row.
    pub failures: u32,
    /// When the current failure streak began, unix milliseconds (None while healthy).
    pub failing_since: Option<i64>,
    /// When the ladder may probe the bot again after a failed probe (back-off), unix ms.
    pub retry_at: Option<i64>,
    /// Why the bot is paused (None while it is not).
    pub pause_reason: Option<PauseReason>,
    /// The unranked trial match a paused bot plays to return to the ladder, while it is on.
    pub trial_match: Option<String>,
    /// Registration time, unix milliseconds.
    pub created_at: i64,
    /// What its move requests carry of the history.
    pub history: crate::wire::HistoryMode,
    /// Anyone may seat it (its owner opened it to challenges; built-in bots always are):
    /// otherwise only the ladder, its owner's token and the admin.
    pub open_to_challenges: bool,
}

impl BotRecord {
    /// Whether `creator` may seat this bot: the ladder and the admin may, its owner may, and
    /// anyone may once it is open to challenges (built-in bots always are).
    pub fn consents_to(&self, creator: &Creator) -> bool {
        self.builtin
            || self.open_to_challenges
            || matches!(creator.kind, CreatorKind::Ladder | CreatorKind::Admin)
            || creator.bot.as_deref() == Some(self.id.as_str())
    }

    /// The bot's ladder health.
    pub fn health(&self) -> BotHealth {
        BotHealth {
            paused: self.paused,
            failures: self.failures,
            failing_since: self.failing_since,
            retry_at: self.retry_at,
            pause_reason: self.pause_reason,
            trial_match: self.trial_match.clone(),
        }
    }
}

/// How a seat's answers reach the runner. `Url` (and the built-in bots, `builtin:` URLs): the
/// runner calls the bot. Every other kind answers from outside the worker: the runner stores a
/// [`PendingMove`], announces it on the bus, and waits for the answer posted to any process
/// ([`crate::Arena::submit_move`]). A new outside kind is one more variant here (and its name in
/// [`stored_names`]); the runner asks [`Transport::answers_from_outside`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Transport {
    /// The arena calls the bot's URL (`POST {url}/move`).
    #[default]
    Url,
    /// The bot connects out (`GET /v1/bot/stream`) and answers with
    /// `POST /v1/bot/matches/{match_id}/move`.
    Stream,
    /// A person at a shared table (`/v1/tables`): moved from the table's page or
    /// `POST /v1/tables/{id}/move`; never called, never probed, no deadline without a clock.
    Person,
}

impl Transport {
    /// Whether the seat's answers come from outside the worker (a pending move on the bus)
    /// rather than from a call the runner makes.
    pub fn answers_from_outside(self) -> bool {
        match self {
            Transport::Url => false,
            Transport::Stream | Transport::Person => true,
        }
    }
}

/// A move the runner waits for from outside the worker (see [`Transport`]): stored so every
/// process sees it (an answer may be posted to any of them, a reconnecting bot gets it again);
/// on SQLite, whose one process is every process, in memory.
#[derive(Debug, Clone, PartialEq)]
pub struct PendingMove {
    /// The match.
    pub match_id: String,
    /// The seat to act.
    pub seat: usize,
    /// Fresh for every request: an answer names it, so an answer to an older request is told
    /// apart (409 `stale_request`).
    pub request_id: String,
    /// The bot in the seat.
    pub bot_id: String,
    /// The `move` line as sent (JSON text): the move request with `type`, `match_id`,
    /// `request_id` and `history_from`.
    pub request: String,
    /// When it was announced, unix ms.
    pub created_at: i64,
    /// When its time runs out, unix ms (while it runs).
    pub deadline_at: i64,
    /// The time it has left while its stream bot is away within the match's reconnect grace:
    /// frozen, it runs again (to a new `deadline_at`) once the bot is back or the grace is spent.
    pub frozen_left_ms: Option<i64>,
}

impl PendingMove {
    /// Milliseconds the move has left at `now` (unix ms): frozen, or up to its deadline.
    pub fn left_ms(&self, now: i64) -> i64 {
        self.frozen_left_ms.unwrap_or(self.deadline_at - now).max(0)
    }
}

/// A bot's ladder health: what [`crate::ladder::HealthPolicy`] decides and the store keeps.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BotHealth {
    /// Paused from the ladder until a clean probe and a clean trial match.
    pub paused: bool,
    /// Disqualifications or failed probes in a row.
    pub failures: u32,
    /// When the current failure streak began, unix milliseconds.
    pub failing_since: Option<i64>,
    /// When the ladder may probe the bot again, unix milliseconds.
    pub retry_at: Option<i64>,
    /// Why the bot is paused.
    pub pause_reason: Option<PauseReason>,
    /// The unranked trial match that may return a paused bot to the ladder, while it is on.
    pub trial_match: Option<String>,
}

/// Why a bot is paused from the ladder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PauseReason {
    /// Its probes (`GET /`, the ladder's or a match's) failed for the whole pause window.
    Unreachable,
    /// It was disqualified (too many faults) in its matches for the whole pause window.
    Disqualified,
    /// It answered its probe again, but faulted in its unranked trial match.
    TrialFaulted,
    /// The admin paused it (`PATCH /v1/bots/{id}` `{"paused": true}`); only the admin returns it.
    Moderated,
}

/// Why a match was aborted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AbortReason {
    /// Its creator, a seated bot's owner or the admin cancelled it (`DELETE`).
    Cancelled,
    /// A bot did not answer its probe before the match started (retried for 10 s).
    BotUnavailable,
    /// The arena could not go on (a game no longer served, a deleted bot, a broken log).
    Failed,
    /// A table waited for its people longer than `--table-expiry-minutes`: to join, or (without
    /// a clock) for one of their moves.
    TableExpired,
}

/// The names of [`PauseReason`] and [`AbortReason`] as stored (their wire names).
macro_rules! stored_names {
    ($kind:ty { $($variant:ident = $name:literal),* $(,)? }) => {
        impl $kind {
            /// The stored (and wire) name.
            pub fn as_str(self) -> &'static str {
                match self { $(Self::$variant => $name),* }
            }

            /// From the stored name.
            pub fn parse(name: &str) -> Option<Self> {
                match name { $($name => Some(Self::$variant),)* _ => None }
            }
        }
    };
}

stored_names!(PauseReason {
    Unreachable = "unreachable",
    Disqualified = "disqualified",
    TrialFaulted = "trial_faulted",
    Moderated = "moderated",
});
stored_names!(Transport {
    Url = "url",
    Stream = "stream",
    Person = "person",
});
stored_names!(AbortReason {
    Cancelled = "cancelled",
    BotUnavailable = "bot_unavailable",
    Failed = "failed",
    TableExpired = "table_expired",
});

/// What a seat's bot reported at `GET /` when its match started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatReport {
    /// The seat.
    pub seat: usize,
    /// The bot's own name for itself.
    pub name: String,
    /// Its version.
    pub version: String,
}

/// Where a match is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MatchStatus {
    /// A shared table's match, waiting for its people to take their seats (then queued).
    Waiting,
    /// Waiting for a worker.
    Queued,
    /// Being played.
    Running,
    /// Over, with a result.
    Finished,
    /// Stopped without a result (setup failed, or a bot was deleted).
    Aborted,
}

impl MatchStatus {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            MatchStatus::Waiting => "waiting",
            MatchStatus::Queued => "queued",
            MatchStatus::Running => "running",
            MatchStatus::Finished => "finished",
            MatchStatus::Aborted => "aborted",
        }
    }

    /// From the stored name.
    pub fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "waiting" => MatchStatus::Waiting,
            "queued" => MatchStatus::Queued,
            "running" => MatchStatus::Running,
            "finished" => MatchStatus::Finished,
            "aborted" => MatchStatus::Aborted,
            _ => return None,
        })
    }
}

/// A match, as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchRecord {
    /// Match id (`m_` + hex).
    pub id: String,
    /// The store's sequence number of the match (insertion order), the key of its moves; 0 in a
    /// record not stored yet (the store assigns it).
    pub seq: i64,
    /// Its moves were deleted by retention (`--retain-unranked-days`); the result stays.
    pub moves_pruned: bool,
    /// Game id.
    pub game: String,
    /// Bot ids in seat order.
    pub bots: Vec<String>,
    /// Option overrides (an object; empty for ranked matches).
    pub options: Value,
    /// Seed of the game.
    pub seed: u64,
    /// The random salt of the seed's commitment, published from the start
    /// ([`crate::commitment`]); None for matches stored before commitments.
    pub seed_salt: Option<String>,
    /// Stacked deals.
    pub deals: Vec<Vec<String>>,
    /// Moves ratings when finished.
    pub ranked: bool,
    /// Scheduled by the ladder.
    pub ladder: bool,
    /// Per-move deadline.
    pub deadline_ms: u64,
    /// Faults after which a seat is disqualified.
    pub max_faults: u32,
    /// Each seat's time bank, if the match has one.
    pub clock: Option<Clock>,
    /// Each move is held at least this long after the previous one was published, for
    /// spectators (0: no hold); bots' deadlines and clocks do not include the hold.
    pub pace_ms: u64,
    /// Status.
    pub status: MatchStatus,
    /// The result, once finished.
    pub result: Option<MatchResult>,
    /// Why it was aborted, in words.
    pub error: Option<String>,
    /// Why it was aborted, as a code (None for matches aborted before codes were kept).
    pub abort_reason: Option<AbortReason>,
    /// Creation time, unix milliseconds.
    pub created_at: i64,
    /// When a worker first picked it up.
    pub started_at: Option<i64>,
    /// When it finished or was aborted.
    pub finished_at: Option<i64>,
    /// Who created it (None for matches created before creators were kept).
    pub creator: Option<Creator>,
}

impl MatchRecord {
    /// Whether faults in this match count toward `bot_id`'s ladder health: in matches the
    /// ladder or the bot's owner created (and in those created before creators were kept), not
    /// in anyone else's.
    pub fn counts_for_health(&self, bot_id: &str) -> bool {
        self.creator
            .as_ref()
            .is_none_or(|creator| creator.counts_for(bot_id))
    }
}

/// A duplicate tournament, as stored: its matches are ordinary matches linked to it.
#[derive(Debug, Clone, PartialEq)]
pub struct TournamentRecord {
    /// Tournament id (`t_` + hex).
    pub id: String,
    /// Game id.
    pub game: String,
    /// Option overrides (an object).
    pub options: Value,
    /// The tournament's seed; deal `d` is played with [`deal_seed`]`(seed, d)`.
    pub seed: u64,
    /// Number of deals.
    pub deals: u32,
    /// Whether each deal is played once per rotation of the seats.
    pub seat_rotations: bool,
    /// Per-move deadline.
    pub deadline_ms: u64,
    /// Bot ids in seat order (rotation 0).
    pub bots: Vec<String>,
    /// Creation time, unix milliseconds.
    pub created_at: i64,
}

/// One match of a tournament: which deal, which rotation of the seats.
#[derive(Debug, Clone)]
pub struct TournamentMatch {
    /// 0-based deal.
    pub deal: u32,
    /// Rotation of the seats: seat `s` holds the bot of seat `(s + rotation) % players` of
    /// rotation 0.
    pub rotation: u32,
    /// The match.
    pub record: MatchRecord,
}

/// The seed of deal `deal` of a tournament seeded `seed`: the first 8 bytes (little-endian) of
/// SHA-256 of the text `"cardroom deal <deal> of <seed>"`, kept JSON-safe (at most 2^53 - 1).
/// One-way: a deal's seed, revealed when its tables end, does not give away the tournament's
/// seed, hence the seeds of deals still playing (an invertible mix, such as the SplitMix64 step
/// used before, did).
pub fn deal_seed(seed: u64, deal: u32) -> u64 {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(format!("cardroom deal {deal} of {seed}").as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(first) & engine::rng::MAX_SEED
}

/// One move of a match, as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveRecord {
    /// 0-based index in the match.
    pub index: usize,
    /// The seat that acted.
    pub seat: usize,
    /// The action applied (the bot's, or the fallback after a fault).
    pub action: Value,
    /// Time the bot took, in milliseconds.
    pub latency_ms: u64,
    /// The fault, if the bot's answer was not used.
    pub fault: Option<Fault>,
    /// The bot's comment.
    pub comment: Option<String>,
    /// Public events the action produced. Not stored: a match's moves read from the store come
    /// without them, and [`crate::replay::logged`] gives them back by replaying the actions.
    pub events: Vec<Value>,
}

/// A rating row of one bot in one game id at one table size.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingRecord {
    /// Bot id.
    pub bot_id: String,
    /// Game id.
    pub game: String,
    /// Table size (number of players).
    pub players: usize,
    /// The rating.
    pub rating: Rating,
    /// Ranked matches played.
    pub played: u64,
    /// Ranked matches won (the bot's side alone in first place).
    pub wins: u64,
    /// Ranked matches drawn (first place shared with another side).
    pub draws: u64,
    /// Ranked matches lost.
    pub losses: u64,
    /// Faults the bot made in its ranked matches.
    pub faults: u64,
    /// The last ranked match.
    pub last_match: Option<String>,
    /// When the rating last changed, unix milliseconds.
    pub updated_at: i64,
}

/// A filter for listing matches.
#[derive(Debug, Clone, Default)]
pub struct MatchFilter {
    /// Only this game.
    pub game: Option<String>,
    /// Only matches this bot played.
    pub bot: Option<String>,
    /// Only these statuses (any if empty).
    pub statuses: Vec<MatchStatus>,
    /// Only matches where people hold seats (true: the tables people play), or only matches
    /// of bots alone (false).
    pub people: Option<bool>,
    /// At most this many, newest first.
    pub limit: u32,
    /// Only matches older than this one: the key (creation time, id) of the last match of the
    /// previous page.
    pub before: Option<(i64, String)>,
}

/// A bot's rating after one ranked match.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingPoint {
    /// The match.
    pub match_id: String,
    /// When the rating was written, unix milliseconds.
    pub at: i64,
    /// The rating after the match.
    pub rating: Rating,
    /// The version the bot reported when the rating was written (None before it was kept).
    pub version: Option<String>,
    /// The match's table size.
    pub players: usize,
}

/// One fault a bot made, as listed on its page.
#[derive(Debug, Clone, PartialEq)]
pub struct FaultRecord {
    /// The match's sequence number (the list's key, with `index`).
    pub match_seq: i64,
    /// The match.
    pub match_id: String,
    /// The move's index in the match.
    pub index: u64,
    /// The bot's seat.
    pub seat: u64,
    /// The fault.
    pub fault: Fault,
    /// When the move was stored, unix milliseconds.
    pub at: i64,
    /// The match is over (finished or aborted).
    pub match_ended: bool,
    /// Who created the match.
    pub creator: Option<Creator>,
}

/// What a cancel did ([`Store::cancel_match`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cancelled {
    /// The match is aborted (`cancelled`).
    Cancelled,
    /// It was already over.
    Over,
    /// One of the seats that had to be still unmoved has moved: it stays.
    Underway,
}

/// The matches a retention rule deletes the moves of, once they ended long enough ago.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retention {
    /// Unranked matches (`--retain-unranked-days`).
    Unranked,
    /// Ranked matches between built-in bots alone (`--retain-builtin-days`): they seed the
    /// built-in bots' ratings; their results and rating changes stay.
    Builtin,
}

impl Retention {
    /// The column that holds when a match of the class ended (NULL for the others and once
    /// pruned).
    pub(crate) fn column(self) -> &'static str {
        match self {
            Retention::Unranked => "prunable_since",
            Retention::Builtin => "builtin_prunable_since",
        }
    }
}

/// What one retention pass deleted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pruned {
    /// Matches whose moves were deleted.
    pub matches: u64,
    /// Moves deleted.
    pub moves: u64,
}

/// What a checkpoint of the write-ahead log did (SQLite).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Checkpoint {
    /// Readers kept it from finishing (it is tried again at the next one).
    pub busy: bool,
    /// Pages copied from the log into the database.
    pub pages: u64,
}

/// The space a database takes, in bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StorageSize {
    /// The database (SQLite: its file; PostgreSQL: `pg_database_size`).
    pub database: u64,
    /// SQLite: the write-ahead log file; PostgreSQL: 0.
    pub wal: u64,
    /// SQLite: pages on the free list (reused by new rows; `cardroom db vacuum` returns them),
    /// in bytes.
    pub free: u64,
}

/// What finishing a match writes.
#[derive(Debug, Clone)]
pub struct Finish {
    /// The result shown by `GET /v1/matches/{id}`.
    pub result: MatchResult,
    /// For ranked matches: each side's bot ids and place (1 = best). Ratings are read, updated
    /// and written in the same transaction as the result.
    pub sides: Option<Vec<(Vec<String>, usize)>>,
    /// For ranked matches: the faults each bot made in the match (added to its leaderboard row).
    pub faults: Vec<(String, u32)>,
    /// For ranked matches: whether each side (as in `sides`) was disqualified. A disqualified
    /// side always counts a loss and is rated by [`crate::ratings::update_forfeits`].
    pub forfeited: Vec<bool>,
}

/// The arena's persistence. Every method is one transaction.
#[async_trait::async_trait]
pub trait Store:
    TableStore
    + PlayerStore
    + UpkeepStore
    + OutsideStore
    + IdempotencyStore
    + QueueStore
    + Send
    + Sync
    + std::fmt::Debug
{
    /// Stores a new bot. Returns false, storing nothing, if a live bot already has its name (or,
    /// for a built-in bot, its URL).
    async fn insert_bot(&self, bot: &BotRecord) -> anyhow::Result<bool>;
    /// Replaces a bot's name, URL, games, author, version, history mode, consent and health.
    /// Returns false, changing nothing, if another live bot has the new name.
    async fn update_bot(&self, bot: &BotRecord) -> anyhow::Result<bool>;
    /// Deletes a bot (its matches and ratings stay, marked as a deleted bot's).
    async fn delete_bot(&self, id: &str) -> anyhow::Result<()>;
    /// A bot that is not deleted.
    async fn bot(&self, id: &str) -> anyhow::Result<Option<BotRecord>>;
    /// Any bot, deleted or not (for match pages).
    async fn bot_any(&self, id: &str) -> anyhow::Result<Option<BotRecord>>;
    /// The live bot with this name (names are unique among live bots).
    async fn bot_named(&self, name: &str) -> anyhow::Result<Option<BotRecord>>;
    /// Every bot that is not deleted, oldest first.
    async fn bots(&self) -> anyhow::Result<Vec<BotRecord>>;
    /// At most `limit` bots that are not deleted, registered after `after` (creation time,
    /// id), oldest first: a page of `GET /v1/bots`.
    async fn bots_after(
        &self,
        after: Option<(i64, String)>,
        limit: u32,
    ) -> anyhow::Result<Vec<BotRecord>>;
    /// The ratings of these bots, by bot then game.
    async fn ratings_of_bots(&self, ids: &[String]) -> anyhow::Result<Vec<RatingRecord>>;
    /// Sets a bot's ladder health.
    async fn set_bot_health(&self, id: &str, health: &BotHealth) -> anyhow::Result<()>;
    /// Replaces a live bot's signing secret with `secret`; the replaced one stays valid until
    /// `previous_until` (unix ms). Returns false if there is no such live bot.
    async fn rotate_secret(
        &self,
        id: &str,
        secret: &str,
        previous_until: i64,
    ) -> anyhow::Result<bool>;
    /// The faults of a bot, newest first: at most `limit`, older than `before` (the key
    /// `(at, match_seq, index)` of the last fault of the previous page).
    async fn bot_faults(
        &self,
        bot_id: &str,
        before: Option<(i64, i64, i64)>,
        limit: u32,
    ) -> anyhow::Result<Vec<FaultRecord>>;
    /// Sets the author and version a bot reported at its latest probe.
    async fn set_bot_info(&self, id: &str, author: &str, version: &str) -> anyhow::Result<()>;

    /// Stores a new match (status queued).
    async fn insert_match(&self, record: &MatchRecord) -> anyhow::Result<()>;
    /// A match.
    async fn get_match(&self, id: &str) -> anyhow::Result<Option<MatchRecord>>;
    /// Matches, newest first.
    async fn matches(&self, filter: &MatchFilter) -> anyhow::Result<Vec<MatchRecord>>;
    /// Claims the oldest match that is queued, or running under a lease that ran out (its
    /// worker died), for `worker`: marks it running under a lease of `lease` (database clock).
    /// Several workers claiming at once each get a different match (PostgreSQL: `FOR UPDATE
    /// SKIP LOCKED`). Returns its id, or None when there is nothing to claim.
    async fn claim_next(&self, worker: &str, lease: Duration) -> anyhow::Result<Option<String>>;
    /// Claims the match `id` for `worker` if it is queued, or running under a lease that ran out
    /// or that `worker` already holds. Returns false if it is over or another worker holds it.
    async fn claim(&self, id: &str, worker: &str, lease: Duration) -> anyhow::Result<bool>;
    /// Every running match and the worker whose lease it is under, oldest first (operators:
    /// which process plays what).
    async fn lease_holders(&self) -> anyhow::Result<Vec<(String, String)>>;
    /// Extends the leases of every running match `worker` holds. Returns how many.
    async fn renew_leases(&self, worker: &str, lease: Duration) -> anyhow::Result<u64>;
    /// Ends the leases `worker` holds at once (all of them on a clean shutdown, or one match
    /// whose run failed), so a worker resumes those matches without waiting for the leases to
    /// run out. The matches stop being `worker`'s: its renewals no longer extend them.
    /// Returns how many.
    async fn release_leases(&self, worker: &str, match_id: Option<&str>) -> anyhow::Result<u64>;
    /// Appends a move as `worker`, durably (committed before this returns; concurrent moves of
    /// all matches share one commit). Returns false, storing nothing, if `worker` no longer
    /// holds the match or the index is already taken: the caller must stop playing it.
    /// The match is named by its [`MatchRecord::seq`].
    async fn append_move(
        &self,
        match_seq: i64,
        worker: &str,
        record: &MoveRecord,
    ) -> anyhow::Result<bool>;
    /// The moves of a match, in order, without their events (see [`MoveRecord::events`]).
    async fn moves(&self, match_id: &str) -> anyhow::Result<Vec<MoveRecord>>;
    /// Stores matches as they are, with their moves, in one transaction: a bulk load (benchmarks,
    /// tools). Each record's status, result and times are written as given; ratings are not
    /// touched.
    async fn import_matches(
        &self,
        matches: &[(MatchRecord, Vec<MoveRecord>)],
    ) -> anyhow::Result<()>;
    /// Retention: deletes the moves of at most `limit` matches of the `class` that ended before
    /// `ended_before` (unix ms), oldest first, and marks them pruned; their results stay.
    async fn prune_moves(
        &self,
        class: Retention,
        ended_before: i64,
        limit: u32,
    ) -> anyhow::Result<Pruned>;
    /// SQLite: checkpoints the write-ahead log into the database and truncates it (waiting for
    /// readers up to the busy timeout). PostgreSQL manages its own log: nothing to do.
    async fn checkpoint(&self) -> anyhow::Result<Checkpoint>;
    /// Returns the space of deleted rows to the file system (SQLite: `VACUUM`, which needs the
    /// database to itself; PostgreSQL: `VACUUM` of the arena's tables).
    async fn vacuum(&self) -> anyhow::Result<()>;
    /// How much space the database takes.
    async fn size(&self) -> anyhow::Result<StorageSize>;
    /// Finishes a running match `worker` holds and applies its ratings, atomically. Returns
    /// false (and changes nothing) if the match was not running or another worker holds it: a
    /// match never finishes twice.
    async fn finish_match(&self, id: &str, worker: &str, finish: &Finish) -> anyhow::Result<bool>;
    /// Cancels a match (`cancelled`, with `detail`) unless it is over or one of the seats
    /// `unmoved` has a logged move: checked and aborted in one transaction, under the match's
    /// row lock, so a move stored meanwhile is seen (the move writer holds that row while it
    /// commits; a move after the cancel is refused by its fence).
    async fn cancel_match(
        &self,
        id: &str,
        detail: &str,
        unmoved: &[usize],
    ) -> anyhow::Result<Cancelled>;
    /// Aborts a queued or running match, with a reason code and words. Returns false if it was
    /// not queued or running. A running match's worker sees it at its next move (the move is
    /// refused: the match is no longer running) and stops.
    async fn abort_match(
        &self,
        id: &str,
        reason: AbortReason,
        detail: &str,
    ) -> anyhow::Result<bool>;
    /// Keeps what each seat's bot reported at `GET /` when the match started.
    async fn set_seat_reports(&self, match_id: &str, reports: &[SeatReport]) -> anyhow::Result<()>;
    /// What each seat's bot reported when the match started (seats without a report left out).
    async fn seat_reports(&self, match_id: &str) -> anyhow::Result<Vec<SeatReport>>;
    /// Ranked matches of a game that moved ratings, per table size (players, matches).
    async fn table_sizes(&self, game: &str) -> anyhow::Result<Vec<(usize, u64)>>;
    /// The ranked matches of a game whose results moved ratings, in the order they did.
    async fn rating_order(&self, game: &str) -> anyhow::Result<Vec<String>>;
    /// Tries to become the one ladder scheduler among every process on this database. Holding
    /// the returned [`Leadership`] keeps it; None if another process leads.
    async fn try_lead(&self) -> anyhow::Result<Option<Leadership>>;

    /// Stores a tournament and all its matches (queued), atomically: a tournament is never
    /// left half created.
    async fn insert_tournament(
        &self,
        tournament: &TournamentRecord,
        matches: &[TournamentMatch],
    ) -> anyhow::Result<()>;
    /// A tournament.
    async fn get_tournament(&self, id: &str) -> anyhow::Result<Option<TournamentRecord>>;
    /// Tournaments, newest first: at most `limit`, older than `before` (the key (creation time,
    /// id) of the last tournament of the previous page).
    async fn tournaments(
        &self,
        before: Option<(i64, String)>,
        limit: u32,
    ) -> anyhow::Result<Vec<TournamentRecord>>;
    /// The matches of a tournament, by deal then rotation.
    async fn tournament_matches(&self, id: &str) -> anyhow::Result<Vec<TournamentMatch>>;
    /// Which of `match_ids` belong to a tournament deal still in play (a match of that deal is
    /// queued or running): every table of a deal holds the same cards, so what one table shows
    /// stays secret until all of them are over.
    async fn embargoed(&self, match_ids: &[&str]) -> anyhow::Result<HashSet<String>>;

    /// Ratings in a game at a table size, best display value first.
    async fn leaderboard(&self, game: &str, players: usize) -> anyhow::Result<Vec<RatingRecord>>;
    /// Ratings of a bot in every game and table size it has played.
    async fn bot_ratings(&self, bot_id: &str) -> anyhow::Result<Vec<RatingRecord>>;
    /// A bot's rating after each ranked match of `game` (at `players` only, if given), newest
    /// first: at most `limit`, older than `before` (the key (time, match id) of the last point
    /// of the previous page).
    async fn rating_history(
        &self,
        bot_id: &str,
        game: &str,
        players: Option<usize>,
        before: Option<(i64, String)>,
        limit: u32,
    ) -> anyhow::Result<Vec<RatingPoint>>;
    /// Number of rating-history rows of a match (tests: ratings applied exactly once).
    async fn rating_history_count(&self, match_id: &str) -> anyhow::Result<u64>;

    /// The live bot whose owner token hashes to `token_hash` (a stream bot's credential).
    async fn bot_by_token(&self, token_hash: &str) -> anyhow::Result<Option<BotRecord>>;
    /// Replaces a live bot's owner token (its hash). False if there is no such live bot.
    async fn set_bot_token(&self, id: &str, token_hash: &str) -> anyhow::Result<bool>;
}

/// Opens the store named by `database`: a `postgres://` URL, or a SQLite file path or `sqlite:`
/// URL (created if missing); either is migrated.
pub async fn open(database: &str) -> anyhow::Result<std::sync::Arc<dyn Store>> {
    Ok(std::sync::Arc::new(SqlStore::open(database).await?))
}

/// Now, in unix milliseconds.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}
