//! Configuration of the arena: [`ArenaConfig`] (what [`crate::Arena::open`] takes) and
//! [`ArenaArgs`] (the `cardroom serve` flags that build it, each with a `CARDROOM_*` variable).

use crate::safety::AddressPolicy;
use clap::builder::BoolishValueParser;
use ipnet::IpNet;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What a `cardroom serve` process does: the stateless HTTP API, the match workers, or both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Role {
    /// The HTTP API and the match workers (the ladder too, if this process is its leader).
    All,
    /// Only the HTTP API: matches are queued in the database for the workers.
    Api,
    /// Only match workers (and the ladder, if this process is its leader): no HTTP listener.
    Worker,
}

impl Role {
    /// This process serves the HTTP API.
    pub fn serves_api(self) -> bool {
        matches!(self, Role::All | Role::Api)
    }

    /// This process plays matches (and may lead the ladder).
    pub fn runs_matches(self) -> bool {
        matches!(self, Role::All | Role::Worker)
    }

    /// The role's name, as the flag takes it (`all`, `api`, `worker`).
    pub fn name(self) -> &'static str {
        match self {
            Role::All => "all",
            Role::Api => "api",
            Role::Worker => "worker",
        }
    }
}

/// Everything the arena needs to run.
#[derive(Debug, Clone)]
pub struct ArenaConfig {
    /// The database: a SQLite file path (created if missing) or a `sqlite:` URL.
    pub database: String,
    /// Which addresses bots may live at.
    pub policy: AddressPolicy,
    /// Matches played at the same time.
    pub concurrency: usize,
    /// Default per-move deadline.
    pub deadline_ms: u64,
    /// Faults in one match after which a seat is disqualified.
    pub max_faults: u32,
    /// Run the ranked ladder.
    pub ladder: bool,
    /// Time between two ladder rounds (each round schedules at most one match per game).
    pub ladder_interval: Duration,
    /// Disqualifications or failed probes in a row after which a bot may be paused from the
    /// ladder (once the streak also spans `pause_window`).
    pub pause_after: u32,
    /// How long a bot's failures must go on before it is paused from the ladder: a bot that
    /// restarts within this window keeps its place.
    pub pause_window: Duration,
    /// Wait before the first re-probe of a bot whose probe failed; doubled after each further
    /// failure, up to half the pause window (at most 30 s).
    pub retry_backoff: Duration,
    /// `POST /v1/bots` per minute per client address and per owner token (0: no limit).
    pub registrations_per_minute: u32,
    /// `POST /v1/matches` per minute per client address and per owner token (0: no limit).
    pub matches_per_minute: u32,
    /// Timeout of probes (`GET {url}/`) and notifications.
    pub probe_timeout: Duration,
    /// API, workers or both.
    pub role: Role,
    /// How long a worker's claim on a match lasts without renewal (renewed every third of it):
    /// a dead worker's matches are resumed by another worker this long after its last renewal.
    pub lease: Duration,
    /// How often an idle worker looks for queued matches (matches created in the same process
    /// wake it at once).
    pub poll_interval: Duration,
    /// How long the built-in `ismcts` bot searches per move, in milliseconds (at most half the
    /// move's deadline).
    pub ismcts_ms: u64,
    /// Ladder matches each game id may start per minute at most (0: no pace, only one match of
    /// a game id in flight at a time, which always holds).
    pub ladder_matches_per_minute: u32,
    /// Ladder matches the whole ladder may start a day, every game id together (0: no cap): the
    /// bound on the disk the ladder fills, whatever its phase. Spent evenly, with a burst of an
    /// hour's share.
    pub ladder_matches_per_day: u32,
    /// A bot's rating counts as settled in a game once its sigma is below this: a game plays at
    /// the full pace only while one of its bots is unsettled.
    pub ladder_settled_sigma: f64,
    /// Ladder matches a game id may start per hour once all its bots are settled, for registered
    /// bots (built-in bots alone stop); 0: no wait.
    pub ladder_settled_matches_per_hour: u32,
    /// Days the moves of a finished unranked match are kept (its result stays); 0 keeps them.
    pub retain_unranked_days: u32,
    /// Ranked ladder matches between built-in bots alone that seed a game id's ratings; after
    /// them every ladder match of the game id seats a registered bot.
    pub ladder_builtin_matches: u32,
    /// Days the moves of a finished ranked match between built-in bots alone are kept (its result
    /// and rating changes stay); 0 keeps them.
    pub retain_builtin_days: u32,
    /// How often the write-ahead log is checkpointed and truncated (SQLite) and retention runs.
    pub maintenance_interval: Duration,
    /// How long a starting match tries each bot's probe (each try within the move deadline)
    /// before it is aborted as `bot_unavailable`.
    pub start_probe_window: Duration,
    /// The admin token (`--admin-token`): it creates ranked matches and cancels any match or
    /// tournament. None: nobody has those powers over HTTP.
    pub admin_token: Option<String>,
    /// The key that seals the `info` of move requests (`--seal-key-file`, `CARDROOM_SEAL_KEY`):
    /// every process of one arena must have the same. None: on SQLite the key kept beside the
    /// database file (made on the first start), on PostgreSQL the one kept in the database (made
    /// by the first process), in memory a fresh one.
    pub seal_key: Option<crate::seal::SealKey>,
    /// `--new-seal-key`: start with a new seal key where the database's own is missing (SQLite:
    /// the file beside it), and accept a key other than the one the database was used with.
    /// Tokens sealed with the old key stop opening. Without it such a start is refused.
    pub new_seal_key: bool,
    /// How long, per match, a stream seat waits for its bot to connect again before the time of
    /// its move runs on (`--reconnect-grace-ms`; zero: no grace).
    pub reconnect_grace: Duration,
    /// How long a process that was told to stop (SIGTERM) lets the matches it plays finish
    /// (`--drain-secs`); it claims no new match meanwhile, and what is still running then stops
    /// at a move boundary, to be resumed by another process or after the restart.
    pub drain: Duration,
    // Issue 48q (the fair queue): caps per client, table slots, table expiry.
    /// Matches one client may have waiting (queued, or tables waiting for people) at once
    /// (`--max-queued-per-client`; 0: no cap). The admin and the ladder have none.
    pub max_queued_per_client: u32,
    /// Tables a tournament may have without the admin token (`--max-tournament-matches`).
    pub max_tournament_matches: u32,
    /// Worker slots one client's matches may hold at once, over every process
    /// (`--max-running-per-client`; 0: no cap).
    pub max_running_per_client: u32,
    /// Slots of each worker process for tables with people, beside `concurrency`
    /// (`--table-slots`).
    pub table_slots: usize,
    /// How long a table waits for its people before it is aborted as `table_expired`
    /// (`--table-expiry-minutes`; zero: never).
    pub table_expiry: Duration,
    // Issue 48, part 48s (bounded connections).
    /// Streams per client and in all (`--max-streams-per-client`, `--max-streams`).
    pub streams: crate::streams::StreamLimits,
}

/// Matches one client may have queued at once by default (`--max-queued-per-client`).
pub const MAX_QUEUED_PER_CLIENT: u32 = 200;
/// Tables a tournament may have without the admin token by default (`--max-tournament-matches`).
pub const MAX_TOURNAMENT_MATCHES: u32 = 400;
/// Worker slots one client's matches may hold at once by default (`--max-running-per-client`).
pub const MAX_RUNNING_PER_CLIENT: u32 = 8;
/// Slots for tables with people per worker process by default (`--table-slots`).
pub const TABLE_SLOTS: usize = 16;
/// Minutes a table waits for its people by default (`--table-expiry-minutes`).
pub const TABLE_EXPIRY_MINUTES: u64 = 60;

/// How long a stopping process lets its running matches finish by default (`--drain-secs`).
pub const DRAIN_SECS: u64 = 30;

/// The reconnect grace of a stream seat per match by default (`--reconnect-grace-ms`): a bot or
/// an arena process restarting in a few seconds costs nothing.
pub const RECONNECT_GRACE_MS: u64 = 10_000;

/// How long a starting match tries its bots' probes by default.
pub const START_PROBE_WINDOW: Duration = Duration::from_secs(10);

/// Ladder matches per minute per game id by default: with the built-in bots alone, a 30-minute
/// run plays at most 120 matches of a game id, and fewer once the bots' ratings settle.
pub const LADDER_MATCHES_PER_MINUTE: u32 = 4;

/// Ladder matches a day across every game id by default: with the 16 KB a ladder match stores
/// (bench/journal/2026-11-29-ladder-storage.md), the ladder adds at most about 85 MB a day, its
/// first day (seeding and unsettled ratings) included.
pub const LADDER_MATCHES_PER_DAY: u32 = 5000;

/// The sigma below which a built-in bot's rating counts as settled: two bots reach it after
/// about 70 matches against each other (Weng-Lin, from sigma 8.33).
pub const LADDER_SETTLED_SIGMA: f64 = 3.5;

/// Ladder matches per hour per game id once every bot there is settled: a registered bot's rating
/// stays current (24 matches a day per game id) without filling a disk.
pub const LADDER_SETTLED_MATCHES_PER_HOUR: u32 = 1;

/// Days the moves of unranked matches are kept by default.
pub const RETAIN_UNRANKED_DAYS: u32 = 30;

/// Ranked matches between built-in bots alone per game id by default: enough to seed the
/// built-in bots' ratings (yardsticks for registered bots), never a stream of matches nobody
/// watches.
pub const LADDER_BUILTIN_MATCHES: u32 = 50;

/// Days the moves of ranked matches between built-in bots alone are kept by default.
pub const RETAIN_BUILTIN_DAYS: u32 = 7;

impl ArenaConfig {
    /// A configuration for local use and tests: loopback bots allowed, no ladder.
    pub fn local(database: impl Into<String>) -> Self {
        ArenaConfig {
            database: database.into(),
            policy: AddressPolicy::local(),
            concurrency: 4,
            deadline_ms: 1000,
            max_faults: 3,
            ladder: false,
            ladder_interval: Duration::from_secs(5),
            pause_after: 3,
            pause_window: Duration::from_secs(60),
            retry_backoff: Duration::from_secs(1),
            registrations_per_minute: 60,
            matches_per_minute: 120,
            probe_timeout: Duration::from_secs(3),
            role: Role::All,
            lease: Duration::from_secs(10),
            poll_interval: Duration::from_millis(200),
            ismcts_ms: crate::builtin::ISMCTS_BUDGET_MS,
            ladder_matches_per_minute: 0,
            ladder_matches_per_day: 0,
            ladder_settled_sigma: LADDER_SETTLED_SIGMA,
            ladder_settled_matches_per_hour: 0,
            retain_unranked_days: RETAIN_UNRANKED_DAYS,
            ladder_builtin_matches: LADDER_BUILTIN_MATCHES,
            retain_builtin_days: RETAIN_BUILTIN_DAYS,
            maintenance_interval: Duration::from_secs(30),
            start_probe_window: START_PROBE_WINDOW,
            admin_token: None,
            seal_key: None,
            new_seal_key: false,
            reconnect_grace: Duration::from_millis(RECONNECT_GRACE_MS),
            drain: Duration::from_secs(DRAIN_SECS),
            max_queued_per_client: MAX_QUEUED_PER_CLIENT,
            max_tournament_matches: MAX_TOURNAMENT_MATCHES,
            max_running_per_client: MAX_RUNNING_PER_CLIENT,
            table_slots: TABLE_SLOTS,
            table_expiry: Duration::from_secs(TABLE_EXPIRY_MINUTES * 60),
            streams: Default::default(),
        }
    }
}

/// The arena's flags of `cardroom serve`.
#[derive(Debug, Clone, clap::Args)]
pub struct ArenaArgs {
    /// The arena database: a SQLite file (created and migrated on start; one process only), a
    /// `sqlite:` URL, or a `postgres://user:password@host/database` URL (several processes).
    #[arg(long, env = "CARDROOM_DATABASE", default_value = "cardroom.db")]
    pub database: String,
    /// A file holding the database URL (one line; for a `postgres://` URL with a password kept
    /// out of the environment and the process list). Takes the place of `--database`.
    #[arg(
        long,
        env = "CARDROOM_DATABASE_URL_FILE",
        value_name = "PATH",
        conflicts_with = "database"
    )]
    pub database_url_file: Option<PathBuf>,
    /// What this process does: `all` (HTTP API and match workers), `api` (HTTP API only) or
    /// `worker` (match workers and the ladder leader election, no HTTP). `api` and `worker` need
    /// PostgreSQL.
    #[arg(long, env = "CARDROOM_ROLE", value_enum, default_value_t = Role::All)]
    pub role: Role,
    /// Milliseconds a worker's claim on a match lasts without renewal: a dead worker's matches
    /// are resumed by another worker this long after it died.
    #[arg(long, env = "CARDROOM_MATCH_LEASE_MS", default_value_t = 10_000)]
    pub match_lease_ms: u64,
    /// Deny every non-public bot address, loopback included (by default loopback bots are
    /// allowed so local development works).
    #[arg(long, env = "CARDROOM_PUBLIC", value_parser = BoolishValueParser::new())]
    pub public: bool,
    /// Networks bots may use even though the deny list covers them (comma-separated CIDRs).
    #[arg(long, env = "CARDROOM_ALLOW_BOT_NETWORKS", value_delimiter = ',')]
    pub allow_bot_network: Vec<IpNet>,
    /// Do not run the ranked ladder.
    #[arg(long, env = "CARDROOM_NO_LADDER", value_parser = BoolishValueParser::new())]
    pub no_ladder: bool,
    /// Milliseconds between ladder rounds.
    #[arg(long, env = "CARDROOM_LADDER_INTERVAL_MS", default_value_t = 2000)]
    pub ladder_interval_ms: u64,
    /// Matches played at the same time.
    #[arg(long, env = "CARDROOM_MATCH_CONCURRENCY", default_value_t = 4)]
    pub match_concurrency: usize,
    /// Default per-move deadline in milliseconds (10 to 60000, the range a match may ask for).
    #[arg(long, env = "CARDROOM_MOVE_DEADLINE_MS", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(10..=60_000))]
    pub move_deadline_ms: u64,
    /// Faults in one match after which a bot is disqualified from it.
    #[arg(long, env = "CARDROOM_MAX_FAULTS", default_value_t = 3)]
    pub max_faults: u32,
    /// Milliseconds a bot's failures (failed probes, disqualifications) must go on before it is
    /// paused from the ladder; failed probes are retried with back-off meanwhile, so a bot that
    /// restarts within this window keeps its place.
    #[arg(long, env = "CARDROOM_PAUSE_WINDOW_MS", default_value_t = 60_000)]
    pub pause_window_ms: u64,
    /// Bot registrations (`POST /v1/bots`) per minute per client address and per owner token;
    /// 0 turns the limit off.
    #[arg(long, env = "CARDROOM_REGISTRATIONS_PER_MINUTE", default_value_t = 60)]
    pub registrations_per_minute: u32,
    /// Match creations (`POST /v1/matches`) per minute per client address and per owner
    /// token; 0 turns the limit off.
    #[arg(long, env = "CARDROOM_MATCHES_PER_MINUTE", default_value_t = 120)]
    pub matches_per_minute: u32,
    /// Milliseconds the built-in `ismcts` bot searches per move (1 to 60000; it never takes more
    /// than half the move's deadline).
    #[arg(long, env = "CARDROOM_ISMCTS_MS", default_value_t = crate::builtin::ISMCTS_BUDGET_MS,
          value_parser = clap::value_parser!(u64).range(1..=60_000))]
    pub ismcts_ms: u64,
    /// Threads of the runtime that plays matches (at least 1). By default every core when the
    /// process only plays matches (`--role worker`), and half the cores otherwise: the HTTP
    /// server already runs one thread per core, and more runnable threads than cores cost
    /// wake-ups and switches on every move (on 2 cores, one runtime thread instead of two: 120-134
    /// us of CPU per move against 132-144).
    #[arg(long, env = "CARDROOM_ARENA_THREADS")]
    pub arena_threads: Option<usize>,
    /// Ladder matches each game id may start per minute (0: as fast as its matches finish).
    /// This pace holds while a bot of the game id has an unsettled rating (see
    /// `--ladder-settled-sigma`); after that built-in bots stop playing each other and a
    /// registered bot plays at `--ladder-settled-matches-per-hour`.
    #[arg(long, env = "CARDROOM_LADDER_MATCHES_PER_MINUTE", default_value_t = LADDER_MATCHES_PER_MINUTE)]
    pub ladder_matches_per_minute: u32,
    /// Ladder matches a day across every game id (0: no cap), spent evenly with a burst of an
    /// hour's share: the bound on the storage the ladder adds a day, seeding and unsettled
    /// ratings included.
    #[arg(long, env = "CARDROOM_LADDER_MATCHES_PER_DAY", default_value_t = LADDER_MATCHES_PER_DAY)]
    pub ladder_matches_per_day: u32,
    /// The rating sigma below which a bot counts as settled in a game: a game plays at the
    /// full pace while one of its bots is unsettled.
    #[arg(long, env = "CARDROOM_LADDER_SETTLED_SIGMA", default_value_t = LADDER_SETTLED_SIGMA)]
    pub ladder_settled_sigma: f64,
    /// Ladder matches each game id may start per hour once all its bots are settled: built-in
    /// bots alone stop; a registered bot keeps playing at this pace (0: no wait).
    #[arg(long, env = "CARDROOM_LADDER_SETTLED_MATCHES_PER_HOUR", default_value_t = LADDER_SETTLED_MATCHES_PER_HOUR)]
    pub ladder_settled_matches_per_hour: u32,
    /// Days the moves of a finished unranked match are kept; then they are deleted and its
    /// result stays (0: keep them for ever). Ranked matches keep their moves.
    #[arg(long, env = "CARDROOM_RETAIN_UNRANKED_DAYS", default_value_t = RETAIN_UNRANKED_DAYS)]
    pub retain_unranked_days: u32,
    /// Ranked ladder matches between built-in bots alone per game id, to seed their ratings;
    /// after them every ladder match of the game id seats a registered bot (0: none at all).
    #[arg(long, env = "CARDROOM_LADDER_BUILTIN_MATCHES", default_value_t = LADDER_BUILTIN_MATCHES)]
    pub ladder_builtin_matches: u32,
    /// Days the moves of a finished ranked match between built-in bots alone are kept; then
    /// they are deleted and its result and rating changes stay (0: keep them for ever).
    #[arg(long, env = "CARDROOM_RETAIN_BUILTIN_DAYS", default_value_t = RETAIN_BUILTIN_DAYS)]
    pub retain_builtin_days: u32,
    /// The admin token: `Authorization: Bearer <token>` with it creates ranked matches
    /// (otherwise only the ladder does) and cancels any match or tournament. Unset: nobody can.
    /// Prefer the variable to the flag (a flag shows in the process list).
    #[arg(long, env = "CARDROOM_ADMIN_TOKEN", hide_env_values = true)]
    pub admin_token: Option<String>,
    /// A file holding the admin token (one line), in place of `--admin-token`.
    #[arg(
        long,
        env = "CARDROOM_ADMIN_TOKEN_FILE",
        value_name = "PATH",
        conflicts_with = "admin_token"
    )]
    pub admin_token_file: Option<PathBuf>,
    /// Milliseconds a stream bot's seat waits, per match, for the bot to connect again after
    /// its connection dropped, its move's time standing still meanwhile (then the time runs on
    /// from where it stood); 0 turns the grace off. URL bots keep their retry until the deadline.
    #[arg(long, env = "CARDROOM_RECONNECT_GRACE_MS", default_value_t = RECONNECT_GRACE_MS,
          value_parser = clap::value_parser!(u64).range(0..=600_000))]
    pub reconnect_grace_ms: u64,
    /// Seconds a process told to stop (SIGTERM, Ctrl-C) lets the matches it plays finish: it
    /// claims no new match, answers `/readyz` 503 and keeps its listener open for bot answers
    /// and streams meanwhile. What is still running then stops at a move boundary and resumes,
    /// no fault charged, on another process (PostgreSQL) or after the restart (SQLite). 0 stops
    /// them at once.
    #[arg(long, env = "CARDROOM_DRAIN_SECS", default_value_t = DRAIN_SECS,
          value_parser = clap::value_parser!(u64).range(0..=3600))]
    pub drain_secs: u64,
    // Issue 48q (the fair queue): caps per client, table slots, table expiry.
    /// Matches one client (its token, else its address) may have waiting at once: queued, or
    /// tables waiting for people (counted apart from its other matches). A request that would
    /// pass it is refused whole, 429 `queue_full`. 0: no cap. The admin has none.
    #[arg(long, env = "CARDROOM_MAX_QUEUED_PER_CLIENT", default_value_t = MAX_QUEUED_PER_CLIENT)]
    pub max_queued_per_client: u32,
    /// Tables a tournament may have (deals times seat rotations) without the admin token; a
    /// larger one is refused, 403 `admin_required`.
    #[arg(long, env = "CARDROOM_MAX_TOURNAMENT_MATCHES", default_value_t = MAX_TOURNAMENT_MATCHES)]
    pub max_tournament_matches: u32,
    /// Worker slots one client's matches may hold at once, over every process on the database;
    /// its other matches wait while the other clients' take turns. 0: no cap. Tables with
    /// people are not counted: they hold a table slot only while their bots play.
    #[arg(long, env = "CARDROOM_MAX_RUNNING_PER_CLIENT", default_value_t = MAX_RUNNING_PER_CLIENT)]
    pub max_running_per_client: u32,
    /// Slots of each worker process for tables with people, beside `--match-concurrency`: a
    /// person's table never waits behind bots' matches (at least 1).
    #[arg(long, env = "CARDROOM_TABLE_SLOTS", default_value_t = TABLE_SLOTS)]
    pub table_slots: usize,
    /// Minutes a table waits for its people before it is aborted (`abort_reason`
    /// `table_expired`): to join, and, at a table without a clock, for each of their moves (the
    /// table was left); 0: tables wait for ever.
    #[arg(long, env = "CARDROOM_TABLE_EXPIRY_MINUTES", default_value_t = TABLE_EXPIRY_MINUTES,
          value_parser = clap::value_parser!(u64).range(0..=525_600))]
    pub table_expiry_minutes: u64,
    // Issue 48, part 48s (bounded connections).
    /// Streams per client and in all.
    #[command(flatten)]
    pub streams: crate::streams::StreamArgs,
}

/// The secret a `*_FILE` variable names: the file's text without its surrounding whitespace (a
/// trailing newline, as `echo` or an editor leaves it); an empty file is refused.
pub fn read_secret_file(path: &Path, what: &str) -> anyhow::Result<String> {
    let text = std::fs::read_to_string(path).map_err(|error| {
        anyhow::anyhow!("cannot read the {what} file {}: {error}", path.display())
    })?;
    let secret = text.trim();
    anyhow::ensure!(
        !secret.is_empty(),
        "the {what} file {} is empty",
        path.display()
    );
    Ok(secret.to_string())
}

impl ArenaArgs {
    /// Threads for the match runtime on a machine with `cores` cores (see
    /// [`ArenaArgs::arena_threads`]).
    pub fn runtime_threads(&self, cores: usize) -> usize {
        let default = if self.role.serves_api() {
            cores / 2
        } else {
            cores
        };
        self.arena_threads.unwrap_or(default).max(1)
    }

    /// The database: `--database`, or the URL in `--database-url-file`.
    pub fn database(&self) -> anyhow::Result<String> {
        match &self.database_url_file {
            Some(path) => read_secret_file(path, "database URL"),
            None => Ok(self.database.clone()),
        }
    }

    /// The admin token: `--admin-token`, or the one in `--admin-token-file` (None if unset or
    /// empty).
    pub fn admin_token(&self) -> anyhow::Result<Option<String>> {
        Ok(match &self.admin_token_file {
            Some(path) => Some(read_secret_file(path, "admin token")?),
            None => self.admin_token.clone().filter(|token| !token.is_empty()),
        })
    }

    /// The configuration these flags describe (reads the `*_FILE` files).
    pub fn config(&self) -> anyhow::Result<ArenaConfig> {
        Ok(ArenaConfig {
            database: self.database()?,
            policy: AddressPolicy {
                allow_loopback: !self.public,
                allow: self.allow_bot_network.clone(),
            },
            concurrency: self.match_concurrency.max(1),
            deadline_ms: self.move_deadline_ms,
            max_faults: self.max_faults.max(1),
            ladder: !self.no_ladder,
            ladder_interval: Duration::from_millis(self.ladder_interval_ms.max(100)),
            pause_after: 3,
            pause_window: Duration::from_millis(self.pause_window_ms),
            retry_backoff: Duration::from_secs(1),
            registrations_per_minute: self.registrations_per_minute,
            matches_per_minute: self.matches_per_minute,
            probe_timeout: Duration::from_secs(3),
            role: self.role,
            lease: Duration::from_millis(self.match_lease_ms.max(300)),
            poll_interval: Duration::from_millis(200),
            ismcts_ms: self.ismcts_ms,
            ladder_matches_per_minute: self.ladder_matches_per_minute,
            ladder_matches_per_day: self.ladder_matches_per_day,
            ladder_settled_sigma: self.ladder_settled_sigma,
            ladder_settled_matches_per_hour: self.ladder_settled_matches_per_hour,
            retain_unranked_days: self.retain_unranked_days,
            ladder_builtin_matches: self.ladder_builtin_matches,
            retain_builtin_days: self.retain_builtin_days,
            maintenance_interval: Duration::from_secs(30),
            start_probe_window: START_PROBE_WINDOW,
            admin_token: self.admin_token()?,
            // The key flags belong to `serve` (they seal the rules API's states too).
            seal_key: None,
            new_seal_key: false,
            reconnect_grace: Duration::from_millis(self.reconnect_grace_ms),
            drain: Duration::from_secs(self.drain_secs),
            max_queued_per_client: self.max_queued_per_client,
            max_tournament_matches: self.max_tournament_matches,
            max_running_per_client: self.max_running_per_client,
            table_slots: self.table_slots.max(1),
            table_expiry: Duration::from_secs(self.table_expiry_minutes * 60),
            streams: self.streams.limits(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Flags {
        #[command(flatten)]
        arena: ArenaArgs,
    }

    fn threads(flags: &[&str], cores: usize) -> usize {
        let flags = Flags::try_parse_from(std::iter::once("serve").chain(flags.iter().copied()))
            .expect("flags");
        flags.arena.runtime_threads(cores)
    }

    #[test]
    fn the_reconnect_grace_is_ten_seconds_unless_told_by_flag_or_variable() {
        let parse = |flags: &[&str]| {
            Flags::try_parse_from(std::iter::once("serve").chain(flags.iter().copied()))
                .map(|flags| flags.arena.config().unwrap().reconnect_grace)
        };
        assert_eq!(parse(&[]).ok(), Some(Duration::from_secs(10)));
        assert_eq!(
            parse(&["--reconnect-grace-ms", "2500"]).ok(),
            Some(Duration::from_millis(2500))
        );
        assert_eq!(
            parse(&["--reconnect-grace-ms", "0"]).ok(),
            Some(Duration::ZERO)
        );
        assert!(parse(&["--reconnect-grace-ms", "-1"]).is_err());
        // The variable, as every flag has one.
        let command = <Flags as clap::CommandFactory>::command();
        let env = command
            .get_arguments()
            .find(|arg| arg.get_long() == Some("reconnect-grace-ms"))
            .and_then(|arg| arg.get_env().map(|env| env.to_os_string()));
        assert_eq!(
            env.as_deref(),
            Some(std::ffi::OsStr::new("CARDROOM_RECONNECT_GRACE_MS"))
        );
    }

    #[test]
    fn a_stopping_process_drains_thirty_seconds_unless_told_by_flag_or_variable() {
        let parse = |flags: &[&str]| {
            Flags::try_parse_from(std::iter::once("serve").chain(flags.iter().copied()))
                .map(|flags| flags.arena.config().unwrap().drain)
        };
        assert_eq!(parse(&[]).ok(), Some(Duration::from_secs(30)));
        assert_eq!(
            parse(&["--drain-secs", "5"]).ok(),
            Some(Duration::from_secs(5))
        );
        assert_eq!(parse(&["--drain-secs", "0"]).ok(), Some(Duration::ZERO));
        assert!(parse(&["--drain-secs", "-1"]).is_err());
        let command = <Flags as clap::CommandFactory>::command();
        let env = command
            .get_arguments()
            .find(|arg| arg.get_long() == Some("drain-secs"))
            .and_then(|arg| arg.get_env().map(|env| env.to_os_string()));
        assert_eq!(
            env.as_deref(),
            Some(std::ffi::OsStr::new("CARDROOM_DRAIN_SECS"))
        );
    }

    #[test]
    fn the_queue_limits_have_their_defaults_unless_told_by_flag() {
        let parse = |flags: &[&str]| {
            Flags::try_parse_from(std::iter::once("serve").chain(flags.iter().copied()))
                .map(|flags| flags.arena.config().unwrap())
        };
        let config = parse(&[]).expect("defaults");
        assert_eq!(config.max_queued_per_client, 200);
        assert_eq!(config.max_tournament_matches, 400);
        assert_eq!(config.max_running_per_client, 8);
        assert_eq!(config.table_slots, 16);
        assert_eq!(config.table_expiry, Duration::from_secs(3600));
        let config = parse(&[
            "--max-queued-per-client",
            "5",
            "--max-tournament-matches",
            "12",
            "--max-running-per-client",
            "2",
            "--table-slots",
            "0",
            "--table-expiry-minutes",
            "3",
        ])
        .expect("flags");
        assert_eq!(config.max_queued_per_client, 5);
        assert_eq!(config.max_tournament_matches, 12);
        assert_eq!(config.max_running_per_client, 2);
        assert_eq!(config.table_slots, 1);
        assert_eq!(config.table_expiry, Duration::from_secs(180));
    }

    #[test]
    fn the_match_runtime_leaves_the_http_servers_cores_unless_told() {
        // Beside the HTTP server: half the cores, never none.
        assert_eq!(threads(&[], 8), 4);
        assert_eq!(threads(&[], 2), 1);
        assert_eq!(threads(&[], 1), 1);
        assert_eq!(threads(&["--role", "api"], 4), 2);
        // A worker has no HTTP server: every core.
        assert_eq!(threads(&["--role", "worker"], 8), 8);
        // The flag wins, and 0 means 1.
        assert_eq!(threads(&["--arena-threads", "3"], 8), 3);
        assert_eq!(threads(&["--role", "worker", "--arena-threads", "0"], 8), 1);
    }
}
