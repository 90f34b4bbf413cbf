//! The queue, fair between clients: the lane each match waits in, the claim that takes the
//! lanes in order and a lane's clients round robin under a cap of running matches per client,
//! what a client has queued (its cap), and the expiry of tables left waiting for people.

use super::{Cancelled, CreatorKind, MatchRecord};
use crate::store::tables::PERSON_BOT_ID;
use std::time::Duration;

/// The line a match waits in: decided when it is stored, from its seats and its creator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lane {
    /// A table with people (a person holds a seat): slots of its own (`--table-slots`), so a
    /// person's table starts within seconds however many matches bots' clients have queued.
    People,
    /// The ranked ladder's matches (and its trial matches of paused bots).
    Ladder,
    /// Every other match: taken round robin by the client that created it (`Creator::key`).
    Clients,
}

impl Lane {
    /// The lanes a match slot takes from, in order: the ladder, then the clients' matches.
    pub const MATCH_SLOTS: &'static [Lane] = &[Lane::Ladder, Lane::Clients];
    /// The lanes a table slot takes from: tables with people only.
    pub const TABLE_SLOTS: &'static [Lane] = &[Lane::People];

    /// The lane of `record`.
    pub fn of(record: &MatchRecord) -> Lane {
        if record.bots.iter().any(|bot| bot == PERSON_BOT_ID) {
            Lane::People
        } else if record.ladder
            || record
                .creator
                .as_ref()
                .is_some_and(|creator| creator.kind == CreatorKind::Ladder)
        {
            Lane::Ladder
        } else {
            Lane::Clients
        }
    }

    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Lane::People => "people",
            Lane::Ladder => "ladder",
            Lane::Clients => "clients",
        }
    }
}

/// How a claim picks: the lanes in order, and within each the cap per client.
#[derive(Debug, Clone, Copy)]
pub struct Claim<'a> {
    /// The lanes, first tried first.
    pub lanes: &'a [Lane],
    /// Matches one client may have running in a lane, counted over every process on the
    /// database (`--max-running-per-client`; 0: no cap). The ladder's lane has none (it runs
    /// one match per game id at a time), nor the people's (a table holds a slot only while its
    /// bots play).
    pub max_running_per_client: u32,
    /// The lease the claimed match is held under.
    pub lease: Duration,
}

/// The queue's operations beside [`super::Store`]'s.
#[async_trait::async_trait]
pub trait QueueStore {
    /// Claims a match for `worker`, fairly: lane by lane in `claim.lanes`' order, first a
    /// running match whose lease ran out (its worker died; it resumes), then a queued one of
    /// the client served longest ago (the newest start among its matches oldest) whose running
    /// matches in the lane are below the cap, its oldest claimable one (a tournament table
    /// waits while another table of its deal seats one of its bots, see `Store::claim_next`).
    /// Claims are serialized (PostgreSQL: an advisory lock; SQLite: the write lock), so two
    /// workers never take one match and a cap is never passed. Returns the match's id.
    async fn claim_fair(&self, worker: &str, claim: Claim<'_>) -> anyhow::Result<Option<String>>;

    /// Matches `client_key` created that wait for a worker or for people (`queued`, `waiting`),
    /// in the people's lane if `people`, else in the others.
    async fn queued_by(&self, client_key: &str, people: bool) -> anyhow::Result<u64>;

    /// Holds the admission of `client_key`'s new matches across every process on the database
    /// until the hold is dropped: on PostgreSQL a transaction holding an advisory lock of the
    /// client (released when the transaction rolls back as the hold drops), so two processes
    /// never both count the same queue before either stores its matches; on SQLite, whose one
    /// process admits under its own lock, nothing.
    async fn hold_admission(&self, client_key: &str) -> anyhow::Result<AdmissionHold>;

    /// Cancels match `id` (`cancelled`, with `detail`) only while it waits (`waiting`, `queued`):
    /// [`Cancelled::Underway`] once a worker has taken it, [`Cancelled::Over`] if it has ended
    /// or does not exist.
    async fn cancel_waiting(&self, id: &str, detail: &str) -> anyhow::Result<Cancelled>;

    /// Aborts (`table_expired`) at most `limit` tables still waiting for people that were
    /// created before `created_before` (unix ms), oldest first. Returns their match ids.
    async fn expire_waiting(&self, created_before: i64, limit: u32) -> anyhow::Result<Vec<String>>;
}

/// What [`QueueStore::hold_admission`] holds (dropped: released).
pub struct AdmissionHold {
    _held: Option<sqlx::Transaction<'static, sqlx::Postgres>>,
}

impl AdmissionHold {
    /// A hold of nothing (one process admits alone).
    pub fn none() -> Self {
        Self { _held: None }
    }

    /// A hold by `transaction`, which holds the client's advisory lock.
    pub(super) fn postgres(transaction: sqlx::Transaction<'static, sqlx::Postgres>) -> Self {
        Self {
            _held: Some(transaction),
        }
    }
}

/// The client key of a match stored without a creator (tools, imports, matches from before
/// creators were kept): they share one client in the queue.
pub const UNKNOWN_CLIENT: &str = "unknown";

/// The client key stored with `record` (what the queue's fairness and caps count by).
pub fn client_key(record: &MatchRecord) -> &str {
    record
        .creator
        .as_ref()
        .map_or(UNKNOWN_CLIENT, |creator| creator.key.as_str())
}
