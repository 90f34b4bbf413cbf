//! The [`Arena`] handle: opens the store, runs the match workers and the ladder, and implements
//! every operation the HTTP routes and the `play` command need, one file per resource: [`bots`]
//! (and [`feedback`]: a bot's faults, rating history and secret rotation),
//! [`matches`], [`tournaments`], [`leaderboards`], [`live`] (the live stream and frames); the
//! background work in [`workers`], [`ladder`] and [`maintenance`].
//!
//! Matches are a durable queue in the database: a worker claims one (a row lease, see
//! [`Store::claim_next`]), renews its leases while it plays, and another worker resumes a dead
//! worker's matches once their leases run out. Several processes can share one PostgreSQL
//! database; SQLite serves one process.

mod bots;
pub mod drain;
mod feedback;
pub mod idempotency;
mod info;
pub mod ladder;
mod leaderboards;
pub mod live;
pub mod maintenance;
mod matches;
pub mod operations;
pub mod outside;
mod players;
mod queue;
mod rematch;
mod tables;
mod tournaments;
mod workers;

use crate::bots::{HealthPolicy, new_id};
use crate::bus::Bus;
use crate::client::BotClient;
use crate::config::{ArenaConfig, Role};
use crate::limits::Limits;
use crate::live::LiveHub;
use crate::metrics::ArenaMetrics;
use crate::problem::ServiceError;
use crate::runner::Runner;
use crate::seal::Sealer;
use crate::store::{Creator, Dialect, SqlStore, Store};
use crate::wire::Clock;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use tokio::sync::Notify;

/// The arena: a cheap, clonable handle.
#[derive(Debug, Clone)]
pub struct Arena {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    config: ArenaConfig,
    store: Arc<dyn Store>,
    client: BotClient,
    /// This process's id in match leases.
    worker: String,
    /// Wakes this process's idle workers when it queues a match.
    wake: Arc<Notify>,
    /// Everything live, across the processes on the database.
    bus: Arc<dyn Bus>,
    live: LiveHub,
    /// Counters for `/metrics`.
    metrics: Arc<ArenaMetrics>,
    /// Rate limits of registrations and match creations.
    limits: Limits,
    /// When the ladder last started a match of each game id, and its daily budget; held by the
    /// process that leads the ladder.
    ladder_pace: Mutex<ladder::LadderPace>,
    /// The game ids whose built-in bots have played their seeding matches (ladder leader).
    builtins_seeded: Mutex<HashSet<String>>,
    /// Seals the `info` of move requests (the arena's key; see [`ArenaConfig::seal_key`]).
    sealer: Arc<Sealer>,
    /// The positions `info` tokens named lately, rebuilt.
    info_cache: info::InfoCache,
    /// Stream bots by owner-token hash, read lately (see [`outside::STREAM_TOKEN_TTL`]).
    stream_tokens: outside::StreamTokens,
    /// Draining before the process stops (see [`drain`]).
    drain: Arc<drain::Drain>,
    /// Held from a creation's count of the client's queued matches until its matches are
    /// stored (see [`queue`]).
    admission: tokio::sync::Mutex<()>,
    /// The streams open, per client and in all (48s).
    streams: crate::streams::StreamGate,
}

/// The clock of ranked matches of `game`: a 60 s bank per seat plus 200 ms per move, beside the
/// per-move deadline (1 s by default). The same for every game id today; a game whose seats
/// make many more decisions would get a larger bank here (docs/bots.md lists the values).
pub fn ranked_clock(_game: &str) -> Clock {
    Clock {
        initial_ms: 60_000,
        increment_ms: 200,
    }
}

impl Arena {
    /// Opens the arena: creates and migrates the database and, if the role plays matches,
    /// starts the match workers (which also resume matches whose worker died: on SQLite at once,
    /// on PostgreSQL when their lease runs out) and the ladder (run by one leader among every
    /// process on the database). Must be called inside a tokio runtime.
    pub async fn open(config: ArenaConfig) -> anyhow::Result<Arena> {
        let sql = SqlStore::open_as(
            &config.database,
            &format!("cardroom-{}", config.role.name()),
        )
        .await?;
        if sql.dialect() == Dialect::Sqlite
            && config.role != Role::All
            && !config.database.contains(":memory:")
        {
            anyhow::bail!(
                "--role {} needs PostgreSQL (--database postgres://...): a SQLite database serves \
                 one process, which must be both API and worker (--role all)",
                if config.role == Role::Api {
                    "api"
                } else {
                    "worker"
                }
            );
        }
        let bus = crate::bus::open(sql.postgres_pool()).await?;
        let seal_key = match &config.seal_key {
            Some(key) => key.clone(),
            None => sql.own_seal_key(config.new_seal_key).await?,
        };
        sql.check_seal_key(&seal_key, config.new_seal_key).await?;
        // Issue 48: secrets are stored sealed under the key; a database from before is sealed now.
        sql.keep_secrets_under(&seal_key);
        let secrets = sql
            .seal_stored_secrets()
            .await
            .map_err(|error| error.context("sealing the secrets stored in plaintext"))?;
        if secrets.sealed > 0 {
            tracing::info!(
                sealed = secrets.sealed,
                "sealed the secrets stored in plaintext under the seal key"
            );
        }
        if secrets.unreadable_bots > 0 || secrets.dropped_rematch > 0 {
            tracing::warn!(
                bots = secrets.unreadable_bots,
                rematch_secrets = secrets.dropped_rematch,
                "stored secrets were sealed under another seal key (replaced with --new-seal-key): \
                 these bots' requests are signed with a secret they do not know until their owners \
                 rotate it (POST /v1/bots/{{id}}/secret)"
            );
        }
        let store: Arc<dyn Store> = Arc::new(sql);
        // A token replaced or a bot deleted through any process stops here at once.
        let stream_tokens = outside::StreamTokens::default();
        tokio::spawn(outside::forget_revoked(
            bus.subscribe(crate::bus::topic::REVOKED),
            stream_tokens.clone(),
        ));
        let client = BotClient::new(config.policy.clone())?.with_ismcts_ms(config.ismcts_ms);
        let arena = Arena {
            inner: Arc::new(Inner {
                config: config.clone(),
                store: store.clone(),
                client: client.clone(),
                // The pid in the id tells an operator which process holds a lease.
                worker: format!(
                    "w_{}_{}",
                    std::process::id(),
                    new_id("w").trim_start_matches("w_")
                ),
                wake: Arc::new(Notify::new()),
                live: LiveHub::new(bus.clone()),
                bus,
                metrics: Arc::new(ArenaMetrics::default()),
                limits: Limits::new(config.registrations_per_minute, config.matches_per_minute),
                ladder_pace: Mutex::new(ladder::LadderPace::new(config.ladder_matches_per_day)),
                builtins_seeded: Default::default(),
                sealer: Arc::new(Sealer::new(&seal_key)),
                info_cache: Default::default(),
                stream_tokens,
                drain: Default::default(),
                admission: Default::default(),
                streams: crate::streams::StreamGate::new(config.streams),
            }),
        };
        if config.role.runs_matches() {
            arena.start_background_work();
        }
        Ok(arena)
    }

    /// Ends this process's match leases so other workers resume its matches at once (call it on
    /// a clean shutdown, after [`Arena::drain`]; after a crash the leases run out instead).
    pub async fn release(&self) -> anyhow::Result<u64> {
        self.inner
            .store
            .release_leases(&self.inner.worker, None)
            .await
    }

    /// The configuration.
    pub fn config(&self) -> &ArenaConfig {
        &self.inner.config
    }

    /// The store (tests, tools).
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.inner.store
    }

    /// This process's worker id, as written in the leases of the matches it plays
    /// (`w_<pid>_<random>`).
    pub fn worker(&self) -> &str {
        &self.inner.worker
    }

    /// The arena's counters (rendered by the API's `/metrics`).
    pub fn metrics(&self) -> &ArenaMetrics {
        &self.inner.metrics
    }

    /// The rate limits of registrations and match creations.
    pub fn limits(&self) -> &Limits {
        &self.inner.limits
    }

    /// The ciphers of the arena's seal key: the rules API opens the `info` tokens of move
    /// requests with them.
    pub fn sealer(&self) -> &Arc<Sealer> {
        &self.inner.sealer
    }

    /// The bot client.
    pub fn client(&self) -> &BotClient {
        &self.inner.client
    }

    /// A match runner on this arena's store and client (the workers use the same).
    pub fn runner(&self) -> Runner {
        Runner {
            store: self.inner.store.clone(),
            client: self.inner.client.clone(),
            notify_timeout: self.inner.config.probe_timeout,
            health: HealthPolicy::of(&self.inner.config),
            metrics: self.inner.metrics.clone(),
            worker: self.inner.worker.clone(),
            lease: self.inner.config.lease,
            live: self.inner.live.clone(),
            bus: self.inner.bus.clone(),
            start_probe_window: self.inner.config.start_probe_window,
            slots: None,
            sealer: self.inner.sealer.clone(),
            reconnect_grace: self.inner.config.reconnect_grace,
            table_expiry: self.inner.config.table_expiry,
            suspension: self.inner.drain.suspension(),
        }
    }

    /// When the ladder last started a match of each game id.
    pub fn ladder_pace(&self) -> &Mutex<ladder::LadderPace> {
        &self.inner.ladder_pace
    }

    /// The game ids whose built-in bots have played their seeding matches among themselves.
    pub fn builtins_seeded(&self) -> &Mutex<HashSet<String>> {
        &self.inner.builtins_seeded
    }

    /// The hub of live matches (the runner publishes to it; `/v1/matches/{id}/events` reads it).
    pub fn live(&self) -> &LiveHub {
        &self.inner.live
    }

    /// The streams open, per client and in all: a stream route takes its slot here first.
    pub fn streams(&self) -> &crate::streams::StreamGate {
        &self.inner.streams
    }

    /// The event bus.
    pub fn bus(&self) -> &Arc<dyn Bus> {
        &self.inner.bus
    }

    pub(super) fn enqueue(&self) {
        // The match is queued in the database; this only wakes the idle workers of this process
        // (both sets of slots: each claims from its own lanes), or the next to wait.
        self.inner.wake.notify_waiters();
        self.inner.wake.notify_one();
    }
}

/// Who sends a request: its bearer token and its client address (the TCP peer). The arena
/// decides from them who created a match ([`Arena::creator`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Caller<'a> {
    /// The `Authorization: Bearer` token, if any.
    pub token: Option<&'a str>,
    /// The client's address.
    pub address: Option<std::net::IpAddr>,
}

impl<'a> Caller<'a> {
    /// The caller of an HTTP request.
    pub fn of(request: &'a actix_web::HttpRequest) -> Self {
        Caller {
            token: crate::bots::bearer(request),
            address: request.peer_addr().map(|peer| peer.ip()),
        }
    }
}

impl Arena {
    /// Who `caller` is as a match's creator: the admin (its token), a bot's owner (that bot's
    /// owner token), or else an anonymous client keyed by its address (the HTTP routes refuse a
    /// token the arena does not know first, as 401 `invalid_token`).
    pub async fn creator(&self, caller: Caller<'_>) -> Result<Creator, ServiceError> {
        let Some(token) = caller.token else {
            return Ok(Creator::client(caller.address));
        };
        if self.is_admin(Some(token)) {
            return Ok(Creator::admin());
        }
        Ok(
            match self
                .inner
                .store
                .bot_by_token(&crate::bots::hash_token(token))
                .await?
            {
                Some(bot) => Creator::owner(&bot.id),
                None => Creator::client(caller.address),
            },
        )
    }
}

/// The items in their first order, each once.
fn dedup(items: Vec<String>) -> Vec<String> {
    let mut seen = HashSet::new();
    items
        .into_iter()
        .filter(|item| seen.insert(item.clone()))
        .collect()
}
