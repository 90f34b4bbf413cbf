//! What an operator watches and the ladder counts, as stored: whether the database answers and
//! is migrated ([`Readiness`]), the queue by class ([`QueueDepth`]), the connection pool
//! ([`PoolStats`]) and the built-in bots' seeding matches of a game id.

/// Whether the database can serve: it answered (the call returned) and these migrations of the
/// binary's are not applied (or their run failed).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Readiness {
    /// Versions of this binary's migrations the database lacks or failed (empty: current).
    pub pending_migrations: Vec<i64>,
}

/// The matches of one class (`ladder`, `ranked` by the admin, `unranked`) waiting for a worker
/// or being played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueueDepth {
    /// `ladder`, `ranked` or `unranked`.
    pub class: &'static str,
    /// Queued (waiting for a worker) or running.
    pub running: bool,
    /// How many.
    pub matches: u64,
    /// When the oldest of them was created, unix ms.
    pub oldest_created_at: i64,
}

impl QueueDepth {
    /// The class of a match: scheduled by the ladder, ranked by the admin, or unranked.
    pub fn class(ladder: bool, ranked: bool) -> &'static str {
        match (ladder, ranked) {
            (true, _) => "ladder",
            (false, true) => "ranked",
            (false, false) => "unranked",
        }
    }
}

/// The connection pool of this process, now.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PoolStats {
    /// Connections lent out to a query or transaction.
    pub in_use: u32,
    /// Open connections waiting in the pool.
    pub idle: u32,
    /// The pool's size limit.
    pub max: u32,
}

/// The store's side of operations (a supertrait of [`super::Store`]).
#[async_trait::async_trait]
pub trait UpkeepStore: Send + Sync {
    /// Whether the database answers and has every migration of this binary: an error when it
    /// does not answer.
    async fn readiness(&self) -> anyhow::Result<Readiness>;
    /// The queued and running matches per class, with the oldest's creation time.
    async fn queue_depths(&self) -> anyhow::Result<Vec<QueueDepth>>;
    /// The connection pool, now.
    fn pool_stats(&self) -> PoolStats;
    /// Ranked matches (not aborted) of `game` between built-in bots alone, counted up to
    /// `at_most`: the matches that seed the built-in bots' ratings.
    async fn builtin_matches(&self, game: &str, at_most: u32) -> anyhow::Result<u64>;
}
