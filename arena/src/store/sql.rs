//! The one [`Store`] implementation, for SQLite and PostgreSQL alike. Every query is written once
//! with `$N` placeholders (both drivers take them) and runs on whichever pool the URL opened;
//! [`Dialect`] supplies the few fragments whose SQL differs (the database clock, JSON
//! aggregation, row locks). The schema comes from sqlx's migrator (`arena/migrations/<dialect>`).
//!
//! Moves are written by the group-commit writer ([`super::writer`]).
//!
//! SQLite is single-process: opening a SQLite file takes an exclusive lock on `<file>.lock` for
//! as long as the store lives, and a second process is refused with a clear message.

use super::writer::MoveWriter;
use super::{
    AbortReason, BotHealth, BotRecord, Cancelled, Checkpoint, Creator, FaultRecord, Finish,
    MatchFilter, MatchRecord, MatchStatus, MoveRecord, PauseReason, Pruned, RatingPoint,
    RatingRecord, Retention, SeatReport, StorageSize, Store, TournamentMatch, TournamentRecord,
    Transport, now_ms,
};
use crate::client::PreviousSecret;
use crate::seal::SealKey;
use crate::store::tables::PERSON_BOT_ID;
use crate::wire::{Clock, HistoryMode};
use anyhow::Context;
use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::postgres::{PgConnectOptions, PgConnection, PgPool, PgPoolOptions, PgRow};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteRow,
    SqliteSynchronous,
};
use sqlx::{AssertSqlSafe, Connection, Row, SqlStr};
use std::borrow::Cow;
use std::collections::HashSet;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

/// Where the SQL of the two databases differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// SQLite: one process, writers serialized by the database lock.
    Sqlite,
    /// PostgreSQL: several processes, row locks and advisory locks.
    Postgres,
}

/// Every migration of one dialect, in order: (version, description, SQL), the SQL embedded from
/// `arena/migrations/<dialect>/<file>.sql`. Both dialects have the same files; a new migration is
/// one line here (its two files written).
macro_rules! migrations {
    ($dialect:literal) => {
        migrations!(@files $dialect,
            (1, "init", "0001_init"),
            (2, "queue", "0002_queue"),
            (3, "operations", "0003_operations"),
            (4, "tournaments", "0004_tournaments"),
            (5, "storage", "0005_storage"),
            (6, "fairness", "0006_fairness"),
            (7, "feedback", "0007_feedback"),
            (8, "outside_seats", "0008_outside_seats"),
            (9, "delta_history", "0009_delta_history"),
            (10, "tables", "0010_tables"),
            (11, "watchable", "0011_watchable"),
            (12, "fair_competition", "0012_fair_competition"),
            (13, "http", "0013_http"),
            (14, "fair queue", "0014_fair_queue"),
            (15, "upkeep", "0015_upkeep"),
            (16, "people", "0016_people"),
        )
    };
    (@files $dialect:literal, $(($version:literal, $description:literal, $file:literal)),* $(,)?) => {
        [$((
            $version,
            $description,
            include_str!(concat!("../../migrations/", $dialect, "/", $file, ".sql")),
        )),*]
    };
}

impl Dialect {
    /// The database clock in unix milliseconds: leases compare against one clock, whatever the
    /// clocks of the worker machines say.
    fn now_ms(self) -> &'static str {
        match self {
            Dialect::Sqlite => "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)",
            Dialect::Postgres => "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)",
        }
    }

    /// A match's bot ids in seat order as a JSON array (text), for `m`.
    fn seat_bots(self) -> &'static str {
        match self {
            Dialect::Sqlite => {
                "(SELECT json_group_array(bot_id) FROM (SELECT bot_id FROM match_seats s \
                 WHERE s.match_id = m.id ORDER BY seat))"
            }
            Dialect::Postgres => {
                "(SELECT COALESCE(json_agg(bot_id ORDER BY seat), '[]'::json)::text \
                 FROM match_seats s WHERE s.match_id = m.id)"
            }
        }
    }

    /// The sequence number of a match being inserted: insertion order. SQLite has one writer at a
    /// time (the insert holds the write lock); PostgreSQL draws from a sequence.
    fn next_seq(self) -> &'static str {
        match self {
            Dialect::Sqlite => "(SELECT COALESCE(MAX(seq), 0) + 1 FROM matches)",
            Dialect::Postgres => "nextval('matches_seq_seq')",
        }
    }

    /// Appended to the claim's inner SELECT: skip rows another worker is claiming or writing
    /// to. SQLite has one writer at a time and needs nothing.
    fn skip_locked(self) -> &'static str {
        match self {
            Dialect::Sqlite => "",
            Dialect::Postgres => " FOR UPDATE SKIP LOCKED",
        }
    }

    /// Appended to an ordered SELECT of the rows a multi-row UPDATE changes: lock them in that
    /// order (PostgreSQL would otherwise lock them in scan order and could deadlock with a move
    /// batch).
    fn lock_in_order(self) -> &'static str {
        match self {
            Dialect::Sqlite => "",
            Dialect::Postgres => " FOR UPDATE",
        }
    }

    /// Appended to the fence of a batch of moves, the lookup of each move's match: hold the
    /// match against a concurrent claim until the moves commit (so a new holder reads every
    /// one). SQLite has one writer process and needs nothing.
    pub(super) fn share_lock(self) -> &'static str {
        match self {
            Dialect::Sqlite => "",
            Dialect::Postgres => " FOR SHARE",
        }
    }

    /// What wraps a batch of moves, one statement that reads (its fence) before it writes, to
    /// commit it as one. SQLite: the write lock taken first, `BEGIN IMMEDIATE` (waiting out the
    /// busy timeout); a deferred transaction that read first cannot upgrade once another
    /// connection has written, and fails at once with SQLITE_BUSY. The three statements go in
    /// one string: SQLite runs them on a thread of its own and answers a BEGIN or a COMMIT
    /// sent alone with a round trip each. PostgreSQL: the statement commits on its own.
    pub(super) fn batch_wrapping(self) -> (&'static str, &'static str) {
        match self {
            Dialect::Sqlite => ("BEGIN IMMEDIATE; ", "; COMMIT"),
            Dialect::Postgres => ("", ""),
        }
    }

    /// Opens a transaction that reads before it writes. SQLite: the write lock taken first
    /// (waiting out the busy timeout): a deferred transaction that read first cannot upgrade once
    /// another connection has written, and fails at once.
    fn begin_writing(self) -> &'static str {
        match self {
            Dialect::Sqlite => "BEGIN IMMEDIATE",
            Dialect::Postgres => "BEGIN",
        }
    }

    /// The migrations of this database, embedded in the binary.
    fn migrator(self) -> Migrator {
        let files = match self {
            Dialect::Sqlite => migrations!("sqlite"),
            Dialect::Postgres => migrations!("postgres"),
        };
        Migrator::with_migrations(
            files
                .into_iter()
                .map(|(version, description, sql)| {
                    Migration::new(
                        version,
                        Cow::Borrowed(description),
                        MigrationType::Simple,
                        SqlStr::from_static(sql),
                        false,
                    )
                })
                .collect(),
        )
    }
}

/// The pool of the database the URL named.
#[derive(Debug, Clone)]
pub(super) enum Pool {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// Runs `$body` with `$p` bound to the concrete pool: the body is written once and compiled for
/// each driver.
macro_rules! on_pool {
    ($pool:expr, $p:ident => $body:expr) => {
        match $pool {
            Pool::Sqlite($p) => $body,
            Pool::Postgres($p) => $body,
        }
    };
}

/// Typed column access shared by both drivers' rows.
trait Columns {
    fn text(&self, column: &str) -> anyhow::Result<String>;
    fn opt_text(&self, column: &str) -> anyhow::Result<Option<String>>;
    fn int(&self, column: &str) -> anyhow::Result<i64>;
    fn opt_int(&self, column: &str) -> anyhow::Result<Option<i64>>;
    fn real(&self, column: &str) -> anyhow::Result<f64>;
    fn flag(&self, column: &str) -> anyhow::Result<bool>;
}

macro_rules! columns {
    ($row:ty) => {
        impl Columns for $row {
            fn text(&self, column: &str) -> anyhow::Result<String> {
                Ok(self.try_get(column)?)
            }
            fn opt_text(&self, column: &str) -> anyhow::Result<Option<String>> {
                Ok(self.try_get(column)?)
            }
            fn int(&self, column: &str) -> anyhow::Result<i64> {
                Ok(self.try_get(column)?)
            }
            fn opt_int(&self, column: &str) -> anyhow::Result<Option<i64>> {
                Ok(self.try_get(column)?)
            }
            fn real(&self, column: &str) -> anyhow::Result<f64> {
                Ok(self.try_get(column)?)
            }
            fn flag(&self, column: &str) -> anyhow::Result<bool> {
                Ok(self.try_get(column)?)
            }
        }
    };
}
columns!(SqliteRow);
columns!(PgRow);

// Ratings per game id and table size: the statements that rate a match (`rate_sides!`), the
// rebuild, the leaderboards and the history.
#[macro_use]
mod rated;

/// Appended to the claim's condition: a queued tournament table is not claimed while another
/// table of its deal that seats one of its bots is running, so no bot plays two tables of one
/// deal at the same time (they hold the same cards); other deals' tables fill the slots
/// meanwhile. A running match (resumed after its worker died) is exempt: it already started.
const DEAL_FREE: &str = " AND (status = 'running' OR NOT EXISTS (SELECT 1 FROM tournament_matches mine \
     JOIN tournament_matches other ON other.tournament_id = mine.tournament_id \
     AND other.deal = mine.deal AND other.match_id <> mine.match_id \
     JOIN matches om ON om.id = other.match_id AND om.status = 'running' \
     JOIN match_seats os ON os.match_id = om.id \
     JOIN match_seats ms ON ms.match_id = mine.match_id AND ms.bot_id = os.bot_id \
     WHERE mine.match_id = matches.id))";

/// The statements whose text depends on the dialect, built once at open.
#[derive(Debug)]
struct Statements {
    match_select: String,
    claim_next: Arc<str>,
    claim: Arc<str>,
    renew: Arc<str>,
    release: Arc<str>,
}

impl Statements {
    fn new(dialect: Dialect) -> Self {
        let now = dialect.now_ms();
        let match_select = format!(
            "SELECT m.id, m.seq, m.moves_pruned, m.game, m.options, m.seed, m.seed_salt, m.deals, m.ranked, m.ladder, m.deadline_ms, \
             m.max_faults, m.clock_initial_ms, m.clock_increment_ms, m.pace_ms, m.status, m.result, m.error, m.abort_reason, m.created_at, m.started_at, m.finished_at, \
             m.creator_kind, m.creator_bot, m.creator_key, {} AS bots FROM matches m",
            dialect.seat_bots()
        );
        let take = format!(
            "UPDATE matches SET status = 'running', lease_owner = $1, lease_until = {now} + $2, \
             started_at = COALESCE(started_at, {now})"
        );
        Statements {
            match_select,
            claim_next: format!(
                "{take} WHERE id = (SELECT id FROM matches WHERE status IN ('queued', 'running') \
                 AND (lease_until IS NULL OR lease_until < {now}){DEAL_FREE} ORDER BY created_at, id LIMIT 1{}) \
                 RETURNING id",
                dialect.skip_locked()
            )
            .into(),
            claim: format!(
                "{take} WHERE id = (SELECT id FROM matches WHERE id = $3 AND status IN ('queued', 'running') \
                 AND (lease_until IS NULL OR lease_until < {now} OR lease_owner = $1){DEAL_FREE}{}) RETURNING id",
                dialect.skip_locked()
            )
            .into(),
            // Both lock their rows in `seq` order, as the move writer does (its batch is sorted by
            // `match_seq`): no deadlock between them.
            renew: format!(
                "UPDATE matches SET lease_until = {now} + $2 WHERE id IN (SELECT id FROM matches \
                 WHERE lease_owner = $1 AND status = 'running' ORDER BY seq{})",
                dialect.lock_in_order()
            )
            .into(),
            release: format!(
                "UPDATE matches SET lease_owner = NULL, lease_until = 0 WHERE id IN (SELECT id FROM matches \
                 WHERE lease_owner = $1 AND status = 'running' \
                 AND (CAST($2 AS TEXT) IS NULL OR id = $2) ORDER BY seq{})",
                dialect.lock_in_order()
            )
            .into(),
        }
    }
}

/// The SQL store.
#[derive(Debug, Clone)]
pub struct SqlStore {
    pool: Pool,
    dialect: Dialect,
    statements: Arc<Statements>,
    moves: MoveWriter,
    /// PostgreSQL: how to open the ladder leader's own connection.
    pg_options: Option<PgConnectOptions>,
    /// SQLite: the process lock, held as long as any clone of the store lives.
    _lock: Option<Arc<std::fs::File>>,
    /// SQLite: the database file (None in memory).
    sqlite_path: Option<std::path::PathBuf>,
    /// SQLite: the pending moves, in this process's memory (its only process); PostgreSQL keeps
    /// them in `pending_moves`, which every process reads.
    pending: Option<Arc<super::pending::PendingMemory>>,
    /// The cipher of stored secrets, once the arena's seal key is known
    /// ([`SqlStore::keep_secrets_under`]).
    secrets: Arc<std::sync::OnceLock<crate::seal::StoredSecrets>>,
}

/// Connections of a PostgreSQL pool (each process has one, plus the bus's listener and the
/// ladder leader's lock connection).
pub const PG_POOL_SIZE: u32 = 16;

/// How long a PostgreSQL query waits for a connection before it fails: a request that needs a
/// database that does not answer gets 503 `database_unavailable` within it.
pub const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(3);

/// A wait for a pool connection this long or longer is counted as a slow acquire (sqlx's event,
/// counted by the binary's telemetry): the pool was busy, or the database slow to connect.
pub const SLOW_ACQUIRE: Duration = Duration::from_millis(50);

/// The write-ahead log's size past which SQLite truncates it when the log is reset (after a
/// checkpoint): the file never stays larger than this once readers let a checkpoint finish.
pub const WAL_SIZE_LIMIT: u64 = 64 * 1024 * 1024;

/// The page size of a new SQLite database. A commit writes every page it changed to the log,
/// whole: a move's commit changes its match's last page of `match_moves` (and, when that page
/// splits, its neighbours), so the page size sets the bytes written per move. Measured on
/// 4-player twenty_two (bench/arena_storage.sh, and a simulation of the same inserts): 4096-byte
/// pages wrote about 5.3 KB per move, 1024 about 2.1 KB, 512 about 1.4 KB. An existing database
/// keeps its page size.
pub const SQLITE_PAGE_SIZE: u32 = 512;

/// The ladder leadership of one process. PostgreSQL: a session-level advisory lock held on a
/// connection of its own, released by the server when the holder's session ends (a crashed
/// process included), so another process takes over. SQLite: the process lock already makes the
/// one process the leader.
#[derive(Debug)]
pub struct Leadership {
    connection: Option<PgConnection>,
}

/// The advisory lock key of the ladder leader.
const LADDER_LOCK: i64 = 7262;
/// The advisory lock key that serializes rating updates.
const RATINGS_LOCK: i64 = 7261;
/// The advisory lock key that serializes claims (PostgreSQL): a claim reads which tables of a
/// deal are running (see [`DEAL_FREE`]), so two workers must not claim two tables of one deal
/// at once, each before the other's claim commits.
const CLAIM_LOCK: i64 = 7263;

impl Leadership {
    /// True while this process still leads: its lock connection answers.
    pub async fn holds(&mut self) -> bool {
        let Some(connection) = &mut self.connection else {
            return true;
        };
        let ping = sqlx::query("SELECT 1").execute(&mut *connection);
        matches!(
            tokio::time::timeout(Duration::from_secs(5), ping).await,
            Ok(Ok(_))
        )
    }
}

impl SqlStore {
    /// Opens the database named by `database` and migrates it: a `postgres://` URL, or a SQLite
    /// file path or `sqlite:` URL (created if missing).
    pub async fn open(database: &str) -> anyhow::Result<Self> {
        Self::open_as(database, "cardroom").await
    }

    /// [`SqlStore::open`], naming the process to PostgreSQL as `application_name` (its
    /// connections show it in `pg_stat_activity`; a name the URL gives wins).
    pub async fn open_as(database: &str, application_name: &str) -> anyhow::Result<Self> {
        let mut sqlite_path = None;
        let (pool, dialect, pg_options, lock) = if is_postgres(database) {
            let mut options =
                PgConnectOptions::from_str(database).context("parsing the PostgreSQL URL")?;
            if options.get_application_name().is_none() {
                options = options.application_name(application_name);
            }
            let pool = PgPoolOptions::new()
                .max_connections(PG_POOL_SIZE)
                // A database that does not answer (stopped, unreachable) fails a request
                // within this (503 `database_unavailable`), not after sqlx's 30 s.
                .acquire_timeout(ACQUIRE_TIMEOUT)
                // Waits for a connection are counted (`cardroom_db_pool_slow_acquires_total`),
                // not logged: a busy pool would fill the log.
                .acquire_slow_threshold(SLOW_ACQUIRE)
                .acquire_slow_level(log::LevelFilter::Debug)
                .connect_with(options.clone())
                .await
                .context("connecting to the arena's PostgreSQL database")?;
            (Pool::Postgres(pool), Dialect::Postgres, Some(options), None)
        } else {
            let options = if database.starts_with("sqlite:") {
                SqliteConnectOptions::from_str(database)?
            } else {
                SqliteConnectOptions::new().filename(database)
            };
            let memory = database.contains(":memory:") || database.contains("mode=memory");
            let lock = if memory {
                None
            } else {
                sqlite_path = Some(options.get_filename().to_path_buf());
                let lock = lock_sqlite(options.get_filename())?;
                // Under the lock: no other process opens the files meanwhile.
                files::make_private(options.get_filename())?;
                Some(Arc::new(lock))
            };
            let options = options
                .create_if_missing(true)
                .journal_mode(if memory {
                    SqliteJournalMode::Memory
                } else {
                    SqliteJournalMode::Wal
                })
                .synchronous(SqliteSynchronous::Normal)
                // Takes effect when the file is created (an existing database keeps its
                // own). No auto-vacuum: its pointer-map pages would be written with every
                // split; `cardroom db vacuum` returns free pages instead.
                .page_size(SQLITE_PAGE_SIZE)
                // The log is copied into the database every 1000 pages (SQLite's default,
                // stated), and truncated to this size when it is reset; the arena's
                // maintenance also truncates it every half minute (`Store::checkpoint`).
                .pragma("wal_autocheckpoint", "1000")
                .pragma("journal_size_limit", WAL_SIZE_LIMIT.to_string())
                .busy_timeout(Duration::from_secs(30))
                .foreign_keys(true)
                // A multi-row INSERT in a transaction keeps a statement journal (to undo
                // itself alone on a constraint error); in a temporary file that cost a file
                // open, writes and a close per batch of moves. Nothing durable lives there.
                .pragma("temp_store", "memory")
                // A row changed or deleted leaves no copy of its old values in its page where
                // zeroing them costs no extra write (a secret sealed at start, issue 48).
                .pragma("secure_delete", "fast");
            // A local file answers or fails at once: no ping before every statement.
            let pool = SqlitePoolOptions::new()
                .test_before_acquire(false)
                .acquire_slow_threshold(SLOW_ACQUIRE)
                .acquire_slow_level(log::LevelFilter::Debug)
                .max_connections(if memory { 1 } else { 8 })
                .connect_with(options)
                .await
                .with_context(|| format!("opening the arena database `{database}`"))?;
            (Pool::Sqlite(pool), Dialect::Sqlite, None, lock)
        };
        let mut migrator = dialect.migrator();
        // A database newer binaries migrated still opens: migrations only add (nullable columns,
        // tables, indexes), so an older process rolled back or restarted mid-upgrade runs.
        migrator.set_ignore_missing(true);
        on_pool!(&pool, p => migrator.run(p).await).context("migrating the arena database")?;
        if let Pool::Sqlite(pool) = &pool {
            // This process holds the only lock on the file: leases left by an earlier process
            // are dead, so its matches resume at once.
            sqlx::query("UPDATE matches SET lease_until = NULL WHERE status = 'running'")
                .execute(pool)
                .await?;
        }
        let store = SqlStore::assemble(pool, dialect, pg_options, lock, sqlite_path);
        store
            .rebuild_ratings()
            .await
            .context("rebuilding the ratings per table size")?;
        Ok(store)
    }

    /// The store over an open pool.
    fn assemble(
        pool: Pool,
        dialect: Dialect,
        pg_options: Option<PgConnectOptions>,
        lock: Option<Arc<std::fs::File>>,
        sqlite_path: Option<std::path::PathBuf>,
    ) -> SqlStore {
        SqlStore {
            moves: MoveWriter::spawn(&pool, dialect),
            pool,
            dialect,
            statements: Arc::new(Statements::new(dialect)),
            pg_options,
            pending: (dialect == Dialect::Sqlite).then(Default::default),
            _lock: lock,
            sqlite_path,
            secrets: Default::default(),
        }
    }

    /// Which database this is.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The PostgreSQL pool (None on SQLite): the event bus listens and notifies on it.
    pub fn postgres_pool(&self) -> Option<PgPool> {
        match &self.pool {
            Pool::Postgres(pool) => Some(pool.clone()),
            Pool::Sqlite(_) => None,
        }
    }

    /// The arena's seal key when no process is given one: on SQLite the file beside the
    /// database (`<file>.seal-key`, mode 0600, made on the first start), in memory a fresh key;
    /// on PostgreSQL the key kept in the database, made by the first process that asks, so the
    /// API processes and the workers all seal and open with the same key. (The database holds
    /// every match's seed and cards already: a key beside them guards nothing it could not
    /// read. Give `--seal-key-file` to keep the key out of the database.)
    ///
    /// A SQLite database used before whose key file is missing (a copy restored without it) is
    /// refused unless `make_new` (`--new-seal-key`): a new key would silently stop every sealed
    /// state and `info` token of the old one from opening.
    pub async fn own_seal_key(&self, make_new: bool) -> anyhow::Result<SealKey> {
        match (&self.pool, &self.sqlite_path) {
            (Pool::Sqlite(_), Some(path)) => {
                let file = SealKey::beside(path);
                if !make_new && !file.exists() && self.used_before().await? {
                    anyhow::bail!(
                        "the seal key of the arena database {} is missing: {} does not exist, yet \
                         the database was used with a key (sealed states and info tokens issued \
                         before would no longer open). Put the key file back (`cardroom db \
                         backup` keeps it beside its copy), give the key with --seal-key-file, or \
                         start with --new-seal-key to make a new one (old tokens stop opening)",
                        path.display(),
                        file.display()
                    );
                }
                Ok(SealKey::load_or_create(&file)?)
            }
            (Pool::Sqlite(_), None) => Ok(SealKey::generate()),
            (Pool::Postgres(pool), _) => {
                sqlx::query("INSERT INTO seal_key (id, key) VALUES (1, $1) ON CONFLICT DO NOTHING")
                    .bind(SealKey::generate().to_hex())
                    .execute(pool)
                    .await?;
                let (key,): (String,) = sqlx::query_as("SELECT key FROM seal_key WHERE id = 1")
                    .fetch_one(pool)
                    .await?;
                Ok(SealKey::parse(key.as_bytes())?)
            }
        }
    }
}

/// Whether `database` names a PostgreSQL database (else a SQLite file or URL).
pub fn is_postgres(database: &str) -> bool {
    database.starts_with("postgres:") || database.starts_with("postgresql:")
}

impl SqlStore {
    /// Runs a claim statement (`$1` worker, `$2` lease, `$3` the match if named). PostgreSQL:
    /// in a transaction holding [`CLAIM_LOCK`], so the claim sees every claim before it (the
    /// rule of [`DEAL_FREE`] reads other rows than the one it takes). SQLite has one writer.
    async fn claim_with(
        &self,
        sql: Arc<str>,
        worker: &str,
        lease: Duration,
        id: Option<&str>,
    ) -> anyhow::Result<Option<String>> {
        macro_rules! claim {
            ($executor:expr) => {{
                let query = sqlx::query_scalar(AssertSqlSafe(sql))
                    .bind(worker)
                    .bind(millis(lease));
                match id {
                    Some(id) => query.bind(id).fetch_optional($executor).await?,
                    None => query.fetch_optional($executor).await?,
                }
            }};
        }
        match &self.pool {
            Pool::Sqlite(pool) => Ok(claim!(pool)),
            Pool::Postgres(pool) => {
                let mut tx = pool.begin().await?;
                sqlx::query("SELECT pg_advisory_xact_lock($1)")
                    .bind(CLAIM_LOCK)
                    .execute(&mut *tx)
                    .await?;
                let claimed: Option<String> = claim!(&mut *tx);
                tx.commit().await?;
                Ok(claimed)
            }
        }
    }
}

/// Takes the process lock of a SQLite database: an exclusive lock on `<file>.lock`.
fn lock_sqlite(path: &std::path::Path) -> anyhow::Result<std::fs::File> {
    let mut lock_path = path.as_os_str().to_owned();
    lock_path.push(".lock");
    let mut options = std::fs::OpenOptions::new();
    options.create(true).truncate(false).write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, files::PRIVATE_MODE);
    let file = options
        .open(&lock_path)
        .with_context(|| format!("opening the lock file {}", lock_path.to_string_lossy()))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => anyhow::bail!(
            "the arena database {} is in use by another cardroom process: SQLite serves one \
             process only (stop the other one, or use PostgreSQL with --database postgres://... \
             to run several)",
            path.display()
        ),
        Err(std::fs::TryLockError::Error(error)) => {
            Err(error).with_context(|| format!("locking {}", lock_path.to_string_lossy()))
        }
    }
}

fn json<T: serde::Serialize>(value: &T) -> anyhow::Result<String> {
    Ok(serde_json::to_string(value)?)
}

fn parse<T: serde::de::DeserializeOwned>(text: &str) -> anyhow::Result<T> {
    Ok(serde_json::from_str(text)?)
}

fn bot_row(row: &impl Columns) -> anyhow::Result<BotRecord> {
    Ok(BotRecord {
        id: row.text("id")?,
        name: row.text("name")?,
        url: row.text("url")?,
        games: parse(&row.text("games")?)?,
        author: row.text("author")?,
        version: row.text("version")?,
        token_hash: row.text("token_hash")?,
        signing_secret: row.text("signing_secret")?,
        previous_secret: match (
            row.opt_text("previous_signing_secret")?,
            row.opt_int("previous_secret_until")?,
        ) {
            (Some(secret), Some(until)) => Some(PreviousSecret { secret, until }),
            _ => None,
        },
        builtin: row.flag("builtin")?,
        transport: Transport::parse(&row.text("transport")?).unwrap_or_default(),
        paused: row.flag("paused")?,
        failures: row.int("failures")? as u32,
        failing_since: row.opt_int("failing_since")?,
        retry_at: row.opt_int("retry_at")?,
        pause_reason: row
            .opt_text("pause_reason")?
            .and_then(|name| PauseReason::parse(&name)),
        trial_match: row.opt_text("trial_match")?,
        created_at: row.int("created_at")?,
        history: HistoryMode::parse(&row.text("history_mode")?),
        open_to_challenges: row.flag("open_to_challenges")?,
    })
}

/// Inserts a new match (queued, or waiting for a table's people) and its seats on a transaction (one statement per row).
macro_rules! insert_match_rows {
    ($tx:expr, $dialect:expr, $record:expr) => {{
        let record: &MatchRecord = $record;
        let dialect: Dialect = $dialect;
        sqlx::query(AssertSqlSafe(format!(
            "INSERT INTO matches (id, game, options, seed, deals, ranked, ladder, deadline_ms, \
             max_faults, status, created_at, clock_initial_ms, clock_increment_ms, pace_ms, seed_salt, \
             creator_kind, creator_bot, creator_key, lane, seq) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $15, $10, $11, $12, $13, $14, $16, $17, $18, $19, {})",
            dialect.next_seq()
        )))
        .bind(&record.id)
        .bind(&record.game)
        .bind(json(&record.options)?)
        .bind(record.seed as i64)
        .bind(json(&record.deals)?)
        .bind(record.ranked)
        .bind(record.ladder)
        .bind(record.deadline_ms as i64)
        .bind(i64::from(record.max_faults))
        .bind(record.created_at)
        .bind(record.clock.map(|c| c.initial_ms as i64))
        .bind(record.clock.map(|c| c.increment_ms as i64))
        .bind(record.pace_ms as i64)
        .bind(&record.seed_salt)
        .bind(record.status.as_str())
        .bind(record.creator.as_ref().map(|c| c.kind.as_str()))
        .bind(record.creator.as_ref().and_then(|c| c.bot.clone()))
        .bind($crate::store::queue::client_key(record))
        .bind($crate::store::Lane::of(record).as_str())
        .execute($tx)
        .await?;
        for (seat, bot) in record.bots.iter().enumerate() {
            sqlx::query(
                "INSERT INTO match_seats (match_id, seat, bot_id, game, created_at) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(&record.id)
            .bind(seat as i64)
            .bind(bot)
            .bind(&record.game)
            .bind(record.created_at)
            .execute($tx)
            .await?;
        }
    }};
}

fn tournament_row(row: &impl Columns) -> anyhow::Result<TournamentRecord> {
    Ok(TournamentRecord {
        id: row.text("id")?,
        game: row.text("game")?,
        options: parse(&row.text("options")?)?,
        seed: row.int("seed")? as u64,
        deals: u32::try_from(row.int("deals")?)?,
        seat_rotations: row.flag("seat_rotations")?,
        deadline_ms: row.int("deadline_ms")? as u64,
        bots: parse(&row.text("bots")?)?,
        created_at: row.int("created_at")?,
    })
}

fn match_row(row: &impl Columns) -> anyhow::Result<MatchRecord> {
    let status = row.text("status")?;
    Ok(MatchRecord {
        id: row.text("id")?,
        seq: row.int("seq")?,
        moves_pruned: row.flag("moves_pruned")?,
        game: row.text("game")?,
        bots: parse(&row.text("bots")?)?,
        options: parse(&row.text("options")?)?,
        seed: row.int("seed")? as u64,
        seed_salt: row.opt_text("seed_salt")?,
        deals: parse(&row.text("deals")?)?,
        ranked: row.flag("ranked")?,
        ladder: row.flag("ladder")?,
        deadline_ms: row.int("deadline_ms")? as u64,
        max_faults: row.int("max_faults")? as u32,
        clock: match (
            row.opt_int("clock_initial_ms")?,
            row.opt_int("clock_increment_ms")?,
        ) {
            (Some(initial), increment) => Some(Clock {
                initial_ms: initial as u64,
                increment_ms: increment.unwrap_or(0) as u64,
            }),
            (None, _) => None,
        },
        pace_ms: row.int("pace_ms")? as u64,
        status: MatchStatus::parse(&status)
            .with_context(|| format!("unknown match status `{status}`"))?,
        result: row
            .opt_text("result")?
            .map(|text| parse(&text))
            .transpose()?,
        error: row.opt_text("error")?,
        abort_reason: row
            .opt_text("abort_reason")?
            .and_then(|name| AbortReason::parse(&name)),
        created_at: row.int("created_at")?,
        started_at: row.opt_int("started_at")?,
        finished_at: row.opt_int("finished_at")?,
        creator: Creator::from_columns(
            row.opt_text("creator_kind")?.as_deref(),
            row.opt_text("creator_bot")?,
            row.opt_text("creator_key")?,
        ),
    })
}

fn move_row(row: &impl Columns) -> anyhow::Result<MoveRecord> {
    Ok(MoveRecord {
        index: row.int("idx")? as usize,
        seat: row.int("seat")? as usize,
        action: parse(&row.text("action")?)?,
        latency_ms: row.int("latency_ms")? as u64,
        fault: row
            .opt_text("fault")?
            .map(|text| parse(&text))
            .transpose()?,
        comment: row.opt_text("comment")?,
        // Not stored: `crate::replay::logged` gives them back.
        events: Vec::new(),
    })
}

/// The keyset condition of a page after another, newest first: `{joiner} (columns) < ($first,
/// ...)`, one placeholder per column from `$first`; nothing for a first page. Written only when
/// needed: a condition such as `$n IS NULL OR ...` would keep both databases from using it to
/// seek in the index.
fn older_than(paged: bool, joiner: &str, columns: &str, first: usize) -> String {
    if !paged {
        return String::new();
    }
    let placeholders: Vec<String> = (0..columns.split(',').count())
        .map(|i| format!("${}", first + i))
        .collect();
    format!(" {joiner} ({columns}) < ({})", placeholders.join(", "))
}

fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX / 2)
}

#[async_trait::async_trait]
impl Store for SqlStore {
    async fn insert_bot(&self, bot: &BotRecord) -> anyhow::Result<bool> {
        // ON CONFLICT: a live bot with this name, or a built-in bot another process registered
        // meanwhile (one per URL).
        let inserted = on_pool!(&self.pool, p => sqlx::query(
            "INSERT INTO bots (id, name, url, games, author, version, token_hash, signing_secret, \
             builtin, paused, failures, deleted, created_at, transport, history_mode, open_to_challenges) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, FALSE, $12, $13, $14, $15) ON CONFLICT DO NOTHING",
        )
        .bind(&bot.id)
        .bind(&bot.name)
        .bind(&bot.url)
        .bind(json(&bot.games)?)
        .bind(&bot.author)
        .bind(&bot.version)
        .bind(&bot.token_hash)
        .bind(self.seal_secret(&secrets::bot_owner(&bot.id), &bot.signing_secret))
        .bind(bot.builtin)
        .bind(bot.paused)
        .bind(i64::from(bot.failures))
        .bind(bot.created_at)
        .bind(bot.transport.as_str())
        .bind(bot.history.as_str())
        .bind(bot.open_to_challenges || bot.builtin)
        .execute(p)
        .await
        .map(|r| r.rows_affected()))?;
        Ok(inserted > 0)
    }

    async fn update_bot(&self, bot: &BotRecord) -> anyhow::Result<bool> {
        let updated = on_pool!(&self.pool, p => sqlx::query(
            "UPDATE bots SET name = $1, url = $2, games = $3, author = $4, version = $5, paused = $6, \
             failures = $7, failing_since = $8, retry_at = $9, pause_reason = $10, trial_match = $11, \
             history_mode = $12, open_to_challenges = $14 WHERE id = $13",
        )
        .bind(&bot.name)
        .bind(&bot.url)
        .bind(json(&bot.games)?)
        .bind(&bot.author)
        .bind(&bot.version)
        .bind(bot.paused)
        .bind(i64::from(bot.failures))
        .bind(bot.failing_since)
        .bind(bot.retry_at)
        .bind(bot.pause_reason.map(PauseReason::as_str))
        .bind(&bot.trial_match)
        .bind(bot.history.as_str())
        .bind(&bot.id)
        .bind(bot.open_to_challenges || bot.builtin)
        .execute(p)
        .await
        .map(|r| r.rows_affected()));
        match updated {
            Ok(_) => Ok(true),
            // The unique index on live names: another bot took the name meanwhile.
            Err(sqlx::Error::Database(error)) if error.is_unique_violation() => Ok(false),
            Err(error) => Err(error.into()),
        }
    }

    async fn delete_bot(&self, id: &str) -> anyhow::Result<()> {
        on_pool!(&self.pool, p => sqlx::query("UPDATE bots SET deleted = TRUE WHERE id = $1")
            .bind(id)
            .execute(p)
            .await
            .map(|r| r.rows_affected()))?;
        Ok(())
    }

    async fn bot(&self, id: &str) -> anyhow::Result<Option<BotRecord>> {
        on_pool!(&self.pool, p => sqlx::query("SELECT * FROM bots WHERE id = $1 AND deleted = FALSE")
            .bind(id)
            .fetch_optional(p)
            .await?
            .as_ref()
            .map(|row| self.bot_from(row))
            .transpose())
    }

    async fn bot_any(&self, id: &str) -> anyhow::Result<Option<BotRecord>> {
        on_pool!(&self.pool, p => sqlx::query("SELECT * FROM bots WHERE id = $1")
            .bind(id)
            .fetch_optional(p)
            .await?
            .as_ref()
            .map(|row| self.bot_from(row))
            .transpose())
    }

    async fn bot_named(&self, name: &str) -> anyhow::Result<Option<BotRecord>> {
        on_pool!(&self.pool, p => sqlx::query("SELECT * FROM bots WHERE name = $1 AND deleted = FALSE")
            .bind(name)
            .fetch_optional(p)
            .await?
            .as_ref()
            .map(|row| self.bot_from(row))
            .transpose())
    }

    async fn bots(&self) -> anyhow::Result<Vec<BotRecord>> {
        on_pool!(&self.pool, p => sqlx::query("SELECT * FROM bots WHERE deleted = FALSE ORDER BY created_at, id")
            .fetch_all(p)
            .await?
            .iter()
            .map(|row| self.bot_from(row))
            .collect())
    }

    async fn bots_after(
        &self,
        after: Option<(i64, String)>,
        limit: u32,
    ) -> anyhow::Result<Vec<BotRecord>> {
        SqlStore::bots_after(self, after, limit).await
    }

    async fn ratings_of_bots(&self, ids: &[String]) -> anyhow::Result<Vec<RatingRecord>> {
        SqlStore::ratings_of_bots(self, ids).await
    }

    async fn set_bot_health(&self, id: &str, health: &BotHealth) -> anyhow::Result<()> {
        on_pool!(&self.pool, p => sqlx::query(
            "UPDATE bots SET paused = $1, failures = $2, failing_since = $3, retry_at = $4, \
             pause_reason = $5, trial_match = $6 WHERE id = $7",
        )
            .bind(health.paused)
            .bind(i64::from(health.failures))
            .bind(health.failing_since)
            .bind(health.retry_at)
            .bind(health.pause_reason.map(PauseReason::as_str))
            .bind(&health.trial_match)
            .bind(id)
            .execute(p)
            .await
            .map(|r| r.rows_affected()))?;
        Ok(())
    }

    async fn set_bot_info(&self, id: &str, author: &str, version: &str) -> anyhow::Result<()> {
        on_pool!(&self.pool, p => sqlx::query(
            "UPDATE bots SET author = $1, version = $2 WHERE id = $3 AND (author <> $1 OR version <> $2)",
        )
            .bind(author)
            .bind(version)
            .bind(id)
            .execute(p)
            .await
            .map(|r| r.rows_affected()))?;
        Ok(())
    }

    async fn rotate_secret(
        &self,
        id: &str,
        secret: &str,
        previous_until: i64,
    ) -> anyhow::Result<bool> {
        let updated = on_pool!(&self.pool, p => sqlx::query(
            "UPDATE bots SET previous_signing_secret = signing_secret, previous_secret_until = $1, \
             signing_secret = $2 WHERE id = $3 AND deleted = FALSE",
        )
        .bind(previous_until)
        .bind(self.seal_secret(&secrets::bot_owner(id), secret))
        .bind(id)
        .execute(p)
        .await
        .map(|r| r.rows_affected()))?;
        Ok(updated > 0)
    }

    async fn bot_faults(
        &self,
        bot_id: &str,
        before: Option<(i64, i64, i64)>,
        limit: u32,
    ) -> anyhow::Result<Vec<FaultRecord>> {
        let sql = format!(
            "SELECT f.match_seq, f.idx, f.match_id, f.seat, f.fault, f.at, m.status, \
             m.creator_kind, m.creator_bot, m.creator_key \
             FROM bot_faults f JOIN matches m ON m.seq = f.match_seq WHERE f.bot_id = $1{} \
             ORDER BY f.at DESC, f.match_seq DESC, f.idx DESC LIMIT $2",
            older_than(before.is_some(), "AND", "f.at, f.match_seq, f.idx", 3)
        );
        on_pool!(&self.pool, p => {
            let mut query = sqlx::query(AssertSqlSafe(sql.clone()))
                .bind(bot_id)
                .bind(i64::from(limit));
            if let Some((at, seq, index)) = before {
                query = query.bind(at).bind(seq).bind(index);
            }
            query.fetch_all(p)
        .await?
        .iter()
        .map(|row| {
            Ok(FaultRecord {
                match_seq: row.int("match_seq")?,
                match_id: row.text("match_id")?,
                index: row.int("idx")? as u64,
                seat: row.int("seat")? as u64,
                fault: parse(&row.text("fault")?)?,
                at: row.int("at")?,
                match_ended: matches!(row.text("status")?.as_str(), "finished" | "aborted"),
                creator: Creator::from_columns(
                    row.opt_text("creator_kind")?.as_deref(),
                    row.opt_text("creator_bot")?,
                    row.opt_text("creator_key")?,
                ),
            })
        })
        .collect()})
    }

    async fn insert_match(&self, record: &MatchRecord) -> anyhow::Result<()> {
        on_pool!(&self.pool, p => {
            let mut tx = p.begin().await?;
            insert_match_rows!(&mut *tx, self.dialect, record);
            tx.commit().await?;
        });
        Ok(())
    }

    async fn get_match(&self, id: &str) -> anyhow::Result<Option<MatchRecord>> {
        let sql = format!("{} WHERE m.id = $1", self.statements.match_select);
        on_pool!(&self.pool, p => sqlx::query(AssertSqlSafe(sql))
            .bind(id)
            .fetch_optional(p)
            .await?
            .as_ref()
            .map(match_row)
            .transpose())
    }

    async fn matches(&self, filter: &MatchFilter) -> anyhow::Result<Vec<MatchRecord>> {
        // $1 is the limit; the game and the bot follow when filtered on.
        let mut placeholders = 1;
        let mut next = || {
            placeholders += 1;
            placeholders
        };
        let game = filter.game.as_ref().map(|_| next());
        let bot = filter.bot.as_ref().map(|_| next());
        // A page after another: the keyset (creation time, id) below the previous page's last.
        let before = filter.before.as_ref().map(|_| {
            let first = next();
            next();
            first
        });
        let older = |columns: &str| {
            before.map_or(String::new(), |first| {
                older_than(true, "AND", columns, first)
            })
        };
        let mut sql = format!("{} WHERE 1 = 1", self.statements.match_select);
        match (bot, game) {
            (Some(bot), game) => {
                // The bot's seats, newest first, straight from an index: seats carry their
                // match's game and creation time. Grouped, since a bot may hold several seats
                // of one match; the limit applies inside when nothing else filters.
                let game = game.map_or(String::new(), |g| format!(" AND s.game = ${g}"));
                let limit = if filter.statuses.is_empty() && filter.people.is_none() {
                    " LIMIT $1"
                } else {
                    ""
                };
                let older = older("s.created_at, s.match_id");
                sql.push_str(&format!(
                    " AND m.id IN (SELECT s.match_id FROM match_seats s WHERE s.bot_id = ${bot}{game}{older} \
                     GROUP BY s.created_at, s.match_id ORDER BY s.created_at DESC, s.match_id DESC{limit})"
                ));
            }
            (None, Some(game)) => {
                sql.push_str(&format!(" AND m.game = ${game}"));
                sql.push_str(&older("m.created_at, m.id"));
            }
            (None, None) => sql.push_str(&older("m.created_at, m.id")),
        }
        if !filter.statuses.is_empty() {
            let names: Vec<String> = filter
                .statuses
                .iter()
                .map(|s| format!("'{}'", s.as_str()))
                .collect();
            sql.push_str(&format!(" AND m.status IN ({})", names.join(", ")));
        }
        if let Some(people) = filter.people {
            let not = if people { "" } else { "NOT " };
            sql.push_str(&format!(
                " AND {not}EXISTS (SELECT 1 FROM match_seats ps WHERE ps.match_id = m.id \
                 AND ps.bot_id = '{PERSON_BOT_ID}')"
            ));
        }
        sql.push_str(" ORDER BY m.created_at DESC, m.id DESC LIMIT $1");
        on_pool!(&self.pool, p => {
            let mut query = sqlx::query(AssertSqlSafe(sql)).bind(i64::from(filter.limit));
            if let Some(game) = &filter.game {
                query = query.bind(game);
            }
            if let Some(bot) = &filter.bot {
                query = query.bind(bot);
            }
            if let Some((at, id)) = &filter.before {
                query = query.bind(*at).bind(id);
            }
            query
                .fetch_all(p)
                .await?
                .iter()
                .map(match_row)
                .collect()
        })
    }

    async fn claim_next(&self, worker: &str, lease: Duration) -> anyhow::Result<Option<String>> {
        self.claim_with(self.statements.claim_next.clone(), worker, lease, None)
            .await
    }

    async fn claim(&self, id: &str, worker: &str, lease: Duration) -> anyhow::Result<bool> {
        let sql = self.statements.claim.clone();
        Ok(self
            .claim_with(sql, worker, lease, Some(id))
            .await?
            .is_some())
    }

    async fn lease_holders(&self) -> anyhow::Result<Vec<(String, String)>> {
        Ok(on_pool!(&self.pool, p => sqlx::query_as(
            "SELECT id, lease_owner FROM matches WHERE status = 'running' \
             AND lease_owner IS NOT NULL ORDER BY created_at, id",
        )
        .fetch_all(p)
        .await)?)
    }

    async fn renew_leases(&self, worker: &str, lease: Duration) -> anyhow::Result<u64> {
        let sql = self.statements.renew.clone();
        Ok(on_pool!(&self.pool, p => sqlx::query(AssertSqlSafe(sql))
            .bind(worker)
            .bind(millis(lease))
            .execute(p)
            .await
            .map(|r| r.rows_affected()))?)
    }

    async fn release_leases(&self, worker: &str, match_id: Option<&str>) -> anyhow::Result<u64> {
        let sql = self.statements.release.clone();
        Ok(on_pool!(&self.pool, p => sqlx::query(AssertSqlSafe(sql))
            .bind(worker)
            .bind(match_id)
            .execute(p)
            .await
            .map(|r| r.rows_affected()))?)
    }

    async fn append_move(
        &self,
        match_seq: i64,
        worker: &str,
        record: &MoveRecord,
    ) -> anyhow::Result<bool> {
        self.moves.append(match_seq, worker, record).await
    }

    async fn moves(&self, match_id: &str) -> anyhow::Result<Vec<MoveRecord>> {
        on_pool!(&self.pool, p => sqlx::query(
            "SELECT idx, seat, action, latency_ms, fault, comment FROM match_moves \
             WHERE match_seq = (SELECT seq FROM matches WHERE id = $1) ORDER BY idx",
        )
            .bind(match_id)
            .fetch_all(p)
            .await?
            .iter()
            .map(move_row)
            .collect())
    }

    async fn import_matches(
        &self,
        matches: &[(MatchRecord, Vec<MoveRecord>)],
    ) -> anyhow::Result<()> {
        let dialect = self.dialect;
        on_pool!(&self.pool, p => {
            let mut tx = p.begin_with(dialect.begin_writing()).await?;
            // The sequence numbers of the new matches, drawn at once.
            let seqs: Vec<i64> = match dialect {
                Dialect::Sqlite => {
                    let last: i64 =
                        sqlx::query_scalar("SELECT COALESCE(MAX(seq), 0) FROM matches")
                            .fetch_one(&mut *tx)
                            .await?;
                    (1..=matches.len() as i64).map(|i| last + i).collect()
                }
                Dialect::Postgres => {
                    sqlx::query_scalar(
                        "SELECT nextval('matches_seq_seq') FROM generate_series(1, $1)",
                    )
                    .bind(matches.len() as i64)
                    .fetch_all(&mut *tx)
                    .await?
                }
            };
            // Rows per statement: well under either database's limit of bound values.
            for (chunk, seqs) in matches.chunks(500).zip(seqs.chunks(500)) {
                let mut query = sqlx::QueryBuilder::new(
                    "INSERT INTO matches (id, seq, game, options, seed, deals, ranked, ladder, \
                     deadline_ms, max_faults, status, result, error, created_at, started_at, \
                     finished_at, clock_initial_ms, clock_increment_ms, pace_ms, seed_salt, prunable_since, \
                     creator_kind, creator_bot, creator_key, lane) ",
                );
                let mut rows = Vec::with_capacity(chunk.len());
                for ((record, _), seq) in chunk.iter().zip(seqs) {
                    let ended = matches!(record.status, MatchStatus::Finished | MatchStatus::Aborted);
                    rows.push((
                        record,
                        *seq,
                        json(&record.options)?,
                        json(&record.deals)?,
                        record.result.as_ref().map(json).transpose()?,
                        (ended && !record.ranked).then_some(record.finished_at).flatten(),
                    ));
                }
                query.push_values(&rows, |mut row, (record, seq, options, deals, result, prunable)| {
                    row.push_bind(&record.id)
                        .push_bind(*seq)
                        .push_bind(&record.game)
                        .push_bind(options)
                        .push_bind(record.seed as i64)
                        .push_bind(deals)
                        .push_bind(record.ranked)
                        .push_bind(record.ladder)
                        .push_bind(record.deadline_ms as i64)
                        .push_bind(i64::from(record.max_faults))
                        .push_bind(record.status.as_str())
                        .push_bind(result)
                        .push_bind(&record.error)
                        .push_bind(record.created_at)
                        .push_bind(record.started_at)
                        .push_bind(record.finished_at)
                        .push_bind(record.clock.map(|c| c.initial_ms as i64))
                        .push_bind(record.clock.map(|c| c.increment_ms as i64))
                        .push_bind(record.pace_ms as i64)
                        .push_bind(&record.seed_salt)
                        .push_bind(*prunable)
                        .push_bind(record.creator.as_ref().map(|c| c.kind.as_str()))
                        .push_bind(record.creator.as_ref().and_then(|c| c.bot.clone()))
                        .push_bind(crate::store::queue::client_key(record))
                        .push_bind(crate::store::Lane::of(record).as_str());
                });
                query.build().execute(&mut *tx).await?;
                let seats: Vec<(&MatchRecord, usize, &String)> = chunk
                    .iter()
                    .flat_map(|(record, _)| {
                        record.bots.iter().enumerate().map(move |(seat, bot)| (record, seat, bot))
                    })
                    .collect();
                for seats in seats.chunks(1000) {
                    let mut query = sqlx::QueryBuilder::new(
                        "INSERT INTO match_seats (match_id, seat, bot_id, game, created_at) ",
                    );
                    query.push_values(seats, |mut row, (record, seat, bot)| {
                        row.push_bind(&record.id)
                            .push_bind(*seat as i64)
                            .push_bind(*bot)
                            .push_bind(&record.game)
                            .push_bind(record.created_at);
                    });
                    query.build().execute(&mut *tx).await?;
                }
                let mut moves = Vec::new();
                for ((_, logged), seq) in chunk.iter().zip(seqs) {
                    for m in logged {
                        moves.push((
                            *seq,
                            m,
                            json(&m.action)?,
                            m.fault.as_ref().map(json).transpose()?,
                        ));
                    }
                }
                for moves in moves.chunks(1000) {
                    let mut query = sqlx::QueryBuilder::new(
                        "INSERT INTO match_moves (match_seq, idx, seat, action, latency_ms, fault, comment) ",
                    );
                    query.push_values(moves, |mut row, (seq, m, action, fault)| {
                        row.push_bind(*seq)
                            .push_bind(m.index as i64)
                            .push_bind(m.seat as i64)
                            .push_bind(action)
                            .push_bind(m.latency_ms as i64)
                            .push_bind(fault)
                            .push_bind(&m.comment);
                    });
                    query.build().execute(&mut *tx).await?;
                }
            }
            tx.commit().await?;
        });
        Ok(())
    }

    async fn prune_moves(
        &self,
        class: Retention,
        ended_before: i64,
        limit: u32,
    ) -> anyhow::Result<Pruned> {
        let column = class.column();
        let sql = format!(
            "UPDATE matches SET moves_pruned = TRUE, {column} = NULL WHERE seq IN \
             (SELECT seq FROM matches WHERE {column} < $1 ORDER BY {column} LIMIT $2) \
             RETURNING seq"
        );
        on_pool!(&self.pool, p => {
            let mut tx = p.begin().await?;
            // The first statement writes, so this transaction holds the write lock (SQLite) from
            // the start: the oldest prunable matches, from their index.
            let seqs: Vec<i64> = sqlx::query_scalar(AssertSqlSafe(sql.clone()))
            .bind(ended_before)
            .bind(i64::from(limit))
            .fetch_all(&mut *tx)
            .await?;
            let mut moves = 0;
            for seq in &seqs {
                moves += sqlx::query("DELETE FROM match_moves WHERE match_seq = $1")
                    .bind(*seq)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
            }
            tx.commit().await?;
            Ok(Pruned {
                matches: seqs.len() as u64,
                moves,
            })
        })
    }

    async fn checkpoint(&self) -> anyhow::Result<Checkpoint> {
        let Pool::Sqlite(pool) = &self.pool else {
            return Ok(Checkpoint::default());
        };
        if self.sqlite_path.is_none() {
            return Ok(Checkpoint::default());
        }
        let (busy, _log, copied): (i64, i64, i64) =
            sqlx::query_as("PRAGMA wal_checkpoint(TRUNCATE)")
                .fetch_one(pool)
                .await?;
        Ok(Checkpoint {
            busy: busy != 0,
            pages: copied.max(0) as u64,
        })
    }

    async fn vacuum(&self) -> anyhow::Result<()> {
        match &self.pool {
            Pool::Sqlite(pool) => {
                let mut connection = pool.acquire().await?;
                sqlx::raw_sql("VACUUM; PRAGMA wal_checkpoint(TRUNCATE)")
                    .execute(&mut *connection)
                    .await?;
            }
            Pool::Postgres(pool) => {
                sqlx::raw_sql(
                    "VACUUM (ANALYZE) match_moves, matches, match_seats, ratings, rating_history",
                )
                .execute(pool)
                .await?;
            }
        }
        Ok(())
    }

    async fn size(&self) -> anyhow::Result<StorageSize> {
        match &self.pool {
            Pool::Sqlite(pool) => {
                let pages: i64 = sqlx::query_scalar("PRAGMA page_count")
                    .fetch_one(pool)
                    .await?;
                let page: i64 = sqlx::query_scalar("PRAGMA page_size")
                    .fetch_one(pool)
                    .await?;
                let free: i64 = sqlx::query_scalar("PRAGMA freelist_count")
                    .fetch_one(pool)
                    .await?;
                let file_len = |suffix: &str| {
                    self.sqlite_path.as_ref().map_or(0, |path| {
                        let mut name = path.as_os_str().to_owned();
                        name.push(suffix);
                        std::fs::metadata(name).map_or(0, |m| m.len())
                    })
                };
                Ok(StorageSize {
                    database: match file_len("") {
                        0 => (pages * page) as u64,
                        len => len,
                    },
                    wal: file_len("-wal"),
                    free: (free * page) as u64,
                })
            }
            Pool::Postgres(pool) => {
                let bytes: i64 = sqlx::query_scalar("SELECT pg_database_size(current_database())")
                    .fetch_one(pool)
                    .await?;
                Ok(StorageSize {
                    database: bytes as u64,
                    wal: 0,
                    free: 0,
                })
            }
        }
    }

    async fn finish_match(&self, id: &str, worker: &str, finish: &Finish) -> anyhow::Result<bool> {
        let now = now_ms();
        let dialect = self.dialect;
        on_pool!(&self.pool, p => {
            let mut tx = p.begin().await?;
            // The first statement writes, so this transaction holds the match row (PostgreSQL)
            // or the database write lock (SQLite) from here on.
            let updated = sqlx::query(
                "UPDATE matches SET status = 'finished', result = $1, finished_at = $2, \
                 lease_until = NULL, prunable_since = CASE WHEN ranked THEN NULL ELSE $2 END, \
                 builtin_prunable_since = CASE WHEN ranked AND NOT EXISTS (SELECT 1 FROM match_seats s \
                 JOIN bots b ON b.id = s.bot_id WHERE s.match_id = matches.id AND NOT b.builtin) \
                 THEN $2 END \
                 WHERE id = $3 AND status = 'running' AND lease_owner = $4",
            )
            .bind(json(&finish.result)?)
            .bind(now)
            .bind(id)
            .bind(worker)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if updated == 0 {
                tx.rollback().await?;
                return Ok(false);
            }
            if let Some(sides) = &finish.sides {
                if dialect == Dialect::Postgres {
                    // Serialize rating updates: two matches finishing at once must not both
                    // read the same rating and overwrite each other's update.
                    sqlx::query("SELECT pg_advisory_xact_lock($1)")
                        .bind(RATINGS_LOCK)
                        .execute(&mut *tx)
                        .await?;
                }
                sqlx::query(
                    "UPDATE matches SET rating_seq = \
                     (SELECT COALESCE(MAX(rating_seq), 0) + 1 FROM matches) WHERE id = $1",
                )
                .bind(id)
                .execute(&mut *tx)
                .await?;
                // Rated at its table size: a 2-player table's rating is not a 4-player one's.
                let (game, players): (String, i64) = sqlx::query_as(
                    "SELECT game, (SELECT COUNT(*) FROM match_seats s WHERE s.match_id = $1) \
                     FROM matches WHERE id = $1",
                )
                .bind(id)
                .fetch_one(&mut *tx)
                .await?;
                let rated = rate_sides!(
                    tx,
                    id,
                    &game,
                    players,
                    sides,
                    &finish.forfeited,
                    &finish.faults,
                    now
                );
                for (bot, old, new) in rated {
                    // The history is bots' (`GET /v1/bots/{id}/ratings`); a player's page
                    // shows the ratings as they are.
                    if rated::entity(&bot).0 != rated::BOT {
                        continue;
                    }
                    sqlx::query(
                        "INSERT INTO rating_history (match_id, bot_id, game, players, mu_before, \
                         sigma_before, mu_after, sigma_after, at, version) VALUES ($1, $2, $3, $4, $5, \
                         $6, $7, $8, $9, (SELECT version FROM bots WHERE id = $2))",
                    )
                    .bind(id)
                    .bind(&bot)
                    .bind(&game)
                    .bind(players)
                    .bind(old.mu)
                    .bind(old.sigma)
                    .bind(new.mu)
                    .bind(new.sigma)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
                }
                sqlx::query(
                    "INSERT INTO table_sizes (game, players, matches) VALUES ($1, $2, 1) \
                     ON CONFLICT (game, players) DO UPDATE SET matches = table_sizes.matches + 1",
                )
                .bind(&game)
                .bind(players)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
        });
        Ok(true)
    }

    async fn cancel_match(
        &self,
        id: &str,
        detail: &str,
        unmoved: &[usize],
    ) -> anyhow::Result<Cancelled> {
        let dialect = self.dialect;
        let locked = format!(
            "SELECT seq, status FROM matches WHERE id = $1{}",
            dialect.lock_in_order()
        );
        on_pool!(&self.pool, p => {
            // The match row first, locked (PostgreSQL; SQLite: the write lock): the move writer
            // holds it while it commits a move, so the moves read next are all there are.
            let mut tx = p.begin_with(dialect.begin_writing()).await?;
            let Some(row) = sqlx::query(AssertSqlSafe(locked)).bind(id).fetch_optional(&mut *tx).await? else {
                tx.rollback().await?;
                return Ok(Cancelled::Over);
            };
            if !matches!(row.text("status")?.as_str(), "waiting" | "queued" | "running") {
                tx.rollback().await?;
                return Ok(Cancelled::Over);
            }
            let seq = row.int("seq")?;
            for seat in unmoved {
                let moved: Option<i64> = sqlx::query_scalar(
                    "SELECT idx FROM match_moves WHERE match_seq = $1 AND seat = $2 LIMIT 1",
                )
                .bind(seq)
                .bind(*seat as i64)
                .fetch_optional(&mut *tx)
                .await?;
                if moved.is_some() {
                    tx.rollback().await?;
                    return Ok(Cancelled::Underway);
                }
            }
            sqlx::query(
                "UPDATE matches SET status = 'aborted', error = $1, abort_reason = $2, finished_at = $3, \
                 lease_until = NULL, prunable_since = CASE WHEN ranked THEN NULL ELSE $3 END WHERE id = $4",
            )
            .bind(detail)
            .bind(AbortReason::Cancelled.as_str())
            .bind(now_ms())
            .bind(id)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(Cancelled::Cancelled)
        })
    }

    async fn abort_match(
        &self,
        id: &str,
        reason: AbortReason,
        detail: &str,
    ) -> anyhow::Result<bool> {
        let updated = on_pool!(&self.pool, p => sqlx::query(
            "UPDATE matches SET status = 'aborted', error = $1, abort_reason = $2, finished_at = $3, \
             lease_until = NULL, prunable_since = CASE WHEN ranked THEN NULL ELSE $3 END \
             WHERE id = $4 AND status IN ('waiting', 'queued', 'running')",
        )
        .bind(detail)
        .bind(reason.as_str())
        .bind(now_ms())
        .bind(id)
        .execute(p)
        .await
        .map(|r| r.rows_affected()))?;
        Ok(updated > 0)
    }

    async fn set_seat_reports(&self, match_id: &str, reports: &[SeatReport]) -> anyhow::Result<()> {
        on_pool!(&self.pool, p => {
            let mut tx = p.begin().await?;
            for report in reports {
                sqlx::query(
                    "UPDATE match_seats SET reported_name = $1, reported_version = $2 \
                     WHERE match_id = $3 AND seat = $4",
                )
                .bind(&report.name)
                .bind(&report.version)
                .bind(match_id)
                .bind(report.seat as i64)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    async fn seat_reports(&self, match_id: &str) -> anyhow::Result<Vec<SeatReport>> {
        on_pool!(&self.pool, p => sqlx::query(
            "SELECT seat, reported_name, reported_version FROM match_seats \
             WHERE match_id = $1 AND reported_version IS NOT NULL ORDER BY seat",
        )
        .bind(match_id)
        .fetch_all(p)
        .await?
        .iter()
        .map(|row| {
            Ok(SeatReport {
                seat: row.int("seat")? as usize,
                name: row.opt_text("reported_name")?.unwrap_or_default(),
                version: row.text("reported_version")?,
            })
        })
        .collect())
    }

    async fn table_sizes(&self, game: &str) -> anyhow::Result<Vec<(usize, u64)>> {
        on_pool!(&self.pool, p => sqlx::query(
            "SELECT players, matches FROM table_sizes WHERE game = $1 ORDER BY players",
        )
        .bind(game)
        .fetch_all(p)
        .await?
        .iter()
        .map(|row| Ok((row.int("players")? as usize, row.int("matches")? as u64)))
        .collect())
    }

    async fn rating_order(&self, game: &str) -> anyhow::Result<Vec<String>> {
        Ok(on_pool!(&self.pool, p => sqlx::query_scalar(
            "SELECT id FROM matches WHERE game = $1 AND rating_seq IS NOT NULL ORDER BY rating_seq",
        )
        .bind(game)
        .fetch_all(p)
        .await)?)
    }

    async fn try_lead(&self) -> anyhow::Result<Option<Leadership>> {
        let Some(options) = &self.pg_options else {
            return Ok(Some(Leadership { connection: None }));
        };
        let mut connection = PgConnection::connect_with(options)
            .await
            .context("opening the ladder leader's connection")?;
        let leads: bool = sqlx::query_scalar("SELECT pg_try_advisory_lock($1)")
            .bind(LADDER_LOCK)
            .fetch_one(&mut connection)
            .await?;
        if leads {
            Ok(Some(Leadership {
                connection: Some(connection),
            }))
        } else {
            // Dropping the connection closes it; nothing is held.
            Ok(None)
        }
    }

    async fn leaderboard(&self, game: &str, players: usize) -> anyhow::Result<Vec<RatingRecord>> {
        self.leaderboard_rows(game, players).await
    }

    async fn bot_ratings(&self, bot_id: &str) -> anyhow::Result<Vec<RatingRecord>> {
        self.rating_rows(Some(bot_id)).await
    }

    async fn rating_history(
        &self,
        bot_id: &str,
        game: &str,
        players: Option<usize>,
        before: Option<(i64, String)>,
        limit: u32,
    ) -> anyhow::Result<Vec<RatingPoint>> {
        self.rating_history_rows(bot_id, game, players, before, limit)
            .await
    }

    async fn rating_history_count(&self, match_id: &str) -> anyhow::Result<u64> {
        let count: i64 = on_pool!(&self.pool, p => sqlx::query_scalar(
            "SELECT COUNT(*) FROM rating_history WHERE match_id = $1",
        )
        .bind(match_id)
        .fetch_one(p)
        .await)?;
        Ok(count as u64)
    }
    async fn insert_tournament(
        &self,
        tournament: &TournamentRecord,
        matches: &[TournamentMatch],
    ) -> anyhow::Result<()> {
        on_pool!(&self.pool, p => {
            let mut tx = p.begin().await?;
            sqlx::query(
                "INSERT INTO tournaments (id, game, options, seed, deals, seat_rotations, \
                 deadline_ms, bots, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            )
            .bind(&tournament.id)
            .bind(&tournament.game)
            .bind(json(&tournament.options)?)
            .bind(tournament.seed as i64)
            .bind(i64::from(tournament.deals))
            .bind(tournament.seat_rotations)
            .bind(tournament.deadline_ms as i64)
            .bind(json(&tournament.bots)?)
            .bind(tournament.created_at)
            .execute(&mut *tx)
            .await?;
            for entry in matches {
                insert_match_rows!(&mut *tx, self.dialect, &entry.record);
                sqlx::query(
                    "INSERT INTO tournament_matches (tournament_id, match_id, deal, rotation) \
                     VALUES ($1, $2, $3, $4)",
                )
                .bind(&tournament.id)
                .bind(&entry.record.id)
                .bind(i64::from(entry.deal))
                .bind(i64::from(entry.rotation))
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    async fn get_tournament(&self, id: &str) -> anyhow::Result<Option<TournamentRecord>> {
        on_pool!(&self.pool, p => sqlx::query("SELECT * FROM tournaments WHERE id = $1")
            .bind(id)
            .fetch_optional(p)
            .await?
            .as_ref()
            .map(tournament_row)
            .transpose())
    }

    async fn tournaments(
        &self,
        before: Option<(i64, String)>,
        limit: u32,
    ) -> anyhow::Result<Vec<TournamentRecord>> {
        let sql = format!(
            "SELECT * FROM tournaments{} ORDER BY created_at DESC, id DESC LIMIT $1",
            older_than(before.is_some(), "WHERE", "created_at, id", 2)
        );
        let (at, id) = before.unzip();
        on_pool!(&self.pool, p => {
            let mut query = sqlx::query(AssertSqlSafe(sql.clone())).bind(i64::from(limit));
            if let (Some(at), Some(id)) = (at, &id) {
                query = query.bind(at).bind(id.clone());
            }
            query.fetch_all(p)
        .await?
        .iter()
        .map(tournament_row)
        .collect()})
    }

    async fn tournament_matches(&self, id: &str) -> anyhow::Result<Vec<TournamentMatch>> {
        let sql = format!(
            "{} WHERE m.id IN (SELECT match_id FROM tournament_matches WHERE tournament_id = $1)",
            self.statements.match_select
        );
        let (links, records) = on_pool!(&self.pool, p => {
            let links: Vec<(String, i64, i64)> = sqlx::query_as(
                "SELECT match_id, deal, rotation FROM tournament_matches \
                 WHERE tournament_id = $1 ORDER BY deal, rotation",
            )
            .bind(id)
            .fetch_all(p)
            .await?;
            let records = sqlx::query(AssertSqlSafe(sql))
                .bind(id)
                .fetch_all(p)
                .await?
                .iter()
                .map(match_row)
                .collect::<anyhow::Result<Vec<MatchRecord>>>()?;
            (links, records)
        });
        let mut records: std::collections::HashMap<String, MatchRecord> =
            records.into_iter().map(|r| (r.id.clone(), r)).collect();
        links
            .into_iter()
            .map(|(match_id, deal, rotation)| {
                Ok(TournamentMatch {
                    deal: u32::try_from(deal)?,
                    rotation: u32::try_from(rotation)?,
                    record: records
                        .remove(&match_id)
                        .with_context(|| format!("tournament match {match_id} is missing"))?,
                })
            })
            .collect()
    }

    async fn bot_by_token(&self, token_hash: &str) -> anyhow::Result<Option<BotRecord>> {
        on_pool!(&self.pool, p => sqlx::query(
            "SELECT * FROM bots WHERE token_hash = $1 AND deleted = FALSE AND builtin = FALSE",
        )
            .bind(token_hash)
            .fetch_optional(p)
            .await?
            .as_ref()
            .map(|row| self.bot_from(row))
            .transpose())
    }

    async fn set_bot_token(&self, id: &str, token_hash: &str) -> anyhow::Result<bool> {
        let updated = on_pool!(&self.pool, p => sqlx::query(
            "UPDATE bots SET token_hash = $1 WHERE id = $2 AND deleted = FALSE AND builtin = FALSE",
        )
            .bind(token_hash)
            .bind(id)
            .execute(p)
            .await
            .map(|r| r.rows_affected()))?;
        Ok(updated > 0)
    }

    async fn embargoed(&self, match_ids: &[&str]) -> anyhow::Result<HashSet<String>> {
        if match_ids.is_empty() {
            return Ok(HashSet::new());
        }
        let placeholders: Vec<String> = (1..=match_ids.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT DISTINCT mine.match_id FROM tournament_matches mine \
             JOIN tournament_matches other ON other.tournament_id = mine.tournament_id \
             AND other.deal = mine.deal \
             JOIN matches m ON m.id = other.match_id \
             WHERE m.status IN ('queued', 'running') AND mine.match_id IN ({})",
            placeholders.join(", ")
        );
        let ids: Vec<String> = on_pool!(&self.pool, p => {
            let mut query = sqlx::query_scalar(AssertSqlSafe(sql));
            for id in match_ids {
                query = query.bind(*id);
            }
            query.fetch_all(p).await?
        });
        Ok(ids.into_iter().collect())
    }
}

// Tables people share with bots: their own statements, beside the match rows they write.
pub mod files;
mod idempotency;
mod lists;
mod players;
mod queue;
pub mod secrets;
mod tables;
mod upkeep;
pub use upkeep::seal_key_fingerprint;

// The pending moves of seats answered from outside, and who is connected.
mod outside;
