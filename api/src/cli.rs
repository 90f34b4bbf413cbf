//! The `cardroom` command line: `serve`, `openapi` and `playouts`. Every flag of `serve` can also
//! be set with a `CARDROOM_*` environment variable.

use crate::codec::{SealKey, StateCodec};
use crate::startup::ServeConfig;
use anyhow::{Context, bail};
use clap::builder::BoolishValueParser;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// cardroom: a rules service and bot arena for traditional card games.
#[derive(Debug, Parser)]
#[command(name = "cardroom", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
// Parsed once per process: the size of `serve`'s many flags costs nothing.
#[allow(clippy::large_enum_variant)]
pub enum Command {
    /// Run the HTTP server: the rules API, its docs (/docs, /openapi.json), /healthz and /metrics.
    Serve(ServeArgs),
    /// Print the OpenAPI 3.1 document (or write it to a file, or check a file against it); with
    /// `--write-games`/`--check-games`, the same for every game id's own document.
    Openapi(OpenapiArgs),
    /// Play uniformly random games in process on one thread and print one JSON line of throughput.
    Playouts(PlayoutArgs),
    /// Play one arena match locally against bot URLs (`--bot-secret` or CARDROOM_SIGNING_SECRET for
    /// a bot that checks signatures) or built-in bots (`random`, `heuristic`), printing every move
    /// by bot name, the deals and scores as they happen, and the result.
    Play(arena::PlayArgs),
    /// Look after the arena database: `vacuum` (return the space retention freed), `size`, and
    /// `fill` (synthetic history for capacity tests).
    Db(DbArgs),
}

/// Flags of `db`.
#[derive(Debug, Clone, Args)]
pub struct DbArgs {
    /// The arena database, as for `serve`: a SQLite file or a `postgres://` URL.
    #[arg(
        long,
        env = "CARDROOM_DATABASE",
        default_value = "cardroom.db",
        global = true
    )]
    pub database: String,
    /// A file holding the database URL, in place of `--database` (as for `serve`).
    #[arg(
        long,
        env = "CARDROOM_DATABASE_URL_FILE",
        value_name = "PATH",
        global = true,
        conflicts_with = "database"
    )]
    pub database_url_file: Option<PathBuf>,
    /// What to do.
    #[command(subcommand)]
    pub command: DbCommand,
}

impl DbArgs {
    /// The database: `--database`, or the URL in `--database-url-file`.
    pub fn database(&self) -> anyhow::Result<String> {
        match &self.database_url_file {
            Some(path) => arena::config::read_secret_file(path, "database URL"),
            None => Ok(self.database.clone()),
        }
    }
}

/// The subcommands of `db`.
#[derive(Debug, Clone, Subcommand)]
pub enum DbCommand {
    /// Return the space of deleted moves (retention) to the file system and print the sizes
    /// before and after. SQLite: stop the server first (a vacuum needs the file to itself; a
    /// running server holds it and the command says so). PostgreSQL: runs beside the servers.
    Vacuum,
    /// Print the database's size as one JSON line: `database`, `wal` and `free` bytes (reads a
    /// database a server runs on, without stopping it).
    Size,
    /// Apply the migrations of this binary the database lacks, then print the versions applied
    /// (servers also migrate on start; this runs them ahead of a rolling upgrade). SQLite: stop
    /// the server first.
    Migrate,
    /// Write a consistent copy of a SQLite database to FILE while servers run on it (`VACUUM
    /// INTO`), and its seal key beside it as `FILE.seal-key` (mode 0600): without the key, the
    /// sealed states and `info` tokens issued before would not open on the restored copy.
    /// Refuses, saying why, when it has no key to copy. PostgreSQL: use `pg_dump` (the command
    /// says how).
    Backup(crate::backup::BackupArgs),
    /// Store synthetic finished matches (real random games, replicated) until both `--matches`
    /// and `--moves` are reached, for capacity tests; refuses a database that holds matches.
    Fill(FillArgs),
}

/// Flags of `db fill`.
#[derive(Debug, Clone, Args)]
pub struct FillArgs {
    /// Matches to store at least.
    #[arg(long, default_value_t = 200_000)]
    pub matches: u64,
    /// Moves to store at least.
    #[arg(long, default_value_t = 10_000_000)]
    pub moves: u64,
    /// Registered bots to create beside the built-in ones (they never answer: keep the ladder off
    /// on a filled database).
    #[arg(long, default_value_t = 40)]
    pub bots: usize,
    /// Seed of the games and the seating.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Runs `db`, printing one JSON line.
pub async fn db(args: &DbArgs) -> anyhow::Result<serde_json::Value> {
    use arena::store::Store;
    let database = args.database()?;
    match &args.command {
        DbCommand::Vacuum => {
            let store = arena::store::SqlStore::open_as(&database, "cardroom-db").await?;
            let before = store.size().await?;
            store.vacuum().await?;
            let after = store.size().await?;
            Ok(serde_json::json!({
                "before": size_json(&before),
                "after": size_json(&after),
            }))
        }
        DbCommand::Size => {
            let store = arena::store::SqlStore::inspect(&database).await?;
            Ok(size_json(&store.size().await?))
        }
        DbCommand::Migrate => crate::backup::migrate(&database).await,
        DbCommand::Backup(backup) => crate::backup::backup(&database, backup).await,
        DbCommand::Fill(fill) => {
            let mut config = arena::ArenaConfig::local(database.clone());
            config.retain_unranked_days = 0;
            let arena = arena::Arena::open(config).await?;
            let existing = arena
                .store()
                .matches(&arena::store::MatchFilter {
                    limit: 1,
                    ..Default::default()
                })
                .await?;
            anyhow::ensure!(
                existing.is_empty(),
                "the database {} already holds matches: fill a new one",
                database
            );
            arena.register_builtins().await?;
            let report = arena::synthetic::fill(
                arena.store().as_ref(),
                &arena::synthetic::FillSpec {
                    matches: fill.matches,
                    moves: fill.moves,
                    bots: fill.bots,
                    seed: fill.seed,
                },
            )
            .await?;
            arena.store().checkpoint().await?;
            let size = arena.store().size().await?;
            Ok(serde_json::json!({ "filled": report, "size": size_json(&size) }))
        }
    }
}

fn size_json(size: &arena::store::StorageSize) -> serde_json::Value {
    serde_json::json!({ "database": size.database, "wal": size.wal, "free": size.free })
}

/// Log line format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
}

/// Flags of `serve`.
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Interface to listen on (use 0.0.0.0 to accept remote clients).
    #[arg(long, env = "CARDROOM_HOST", default_value = "127.0.0.1")]
    pub host: String,
    /// TCP port to listen on (0 picks a free port).
    #[arg(long, env = "CARDROOM_PORT", default_value_t = 8080)]
    pub port: u16,
    /// File holding the 32-byte sealing key (64 hex digits, or 32 raw bytes). With a key, states
    /// are returned as sealed tokens (XAES-256-GCM): clients can store them but can neither read
    /// hidden cards nor forge them. The arena seals the `info` of its move requests with it too:
    /// give every process of one arena the same file. Without it the arena keeps its own key
    /// (beside a SQLite file, in a PostgreSQL database) and states stay transparent. Generate
    /// one with `openssl rand -hex 32`.
    #[arg(long, env = "CARDROOM_SEAL_KEY_FILE", value_name = "PATH")]
    pub seal_key_file: Option<PathBuf>,
    /// The sealing key itself as 64 hex digits (prefer the environment variable or the file: a
    /// flag is visible in the process list).
    #[arg(
        long,
        env = "CARDROOM_SEAL_KEY",
        hide_env_values = true,
        value_name = "HEX"
    )]
    pub seal_key: Option<String>,
    /// Refuse transparent (JSON object) states: only sealed tokens are accepted. Needs a key.
    #[arg(long, env = "CARDROOM_REQUIRE_SEALED", value_parser = BoolishValueParser::new())]
    pub require_sealed: bool,
    /// Start with a new seal key where the database's own is missing (SQLite: the
    /// `<database>.seal-key` file beside it, as a copy restored without it), or where the key
    /// given is not the one the database was used with. Sealed states and `info` tokens of the
    /// old key stop opening; without this flag such a start is refused, saying why.
    #[arg(long, env = "CARDROOM_NEW_SEAL_KEY", value_parser = BoolishValueParser::new())]
    pub new_seal_key: bool,
    /// Where a worker (`--role worker`) serves `/livez`, `/readyz`, `/healthz` and `/metrics`:
    /// an address and port, or `off`. By default `127.0.0.1:9091` for `--role worker` and off
    /// for the roles that serve the API (which answer those paths on their own listener).
    #[arg(long, env = "CARDROOM_ADMIN_LISTEN", value_name = "ADDR|off")]
    pub admin_listen: Option<String>,
    /// Largest accepted request body in bytes (larger: 413 payload_too_large).
    #[arg(long, env = "CARDROOM_MAX_BODY_BYTES", default_value_t = 256 * 1024)]
    pub max_body_bytes: usize,
    /// Seconds a client has to send a request's head before the connection is closed.
    #[arg(long, env = "CARDROOM_REQUEST_TIMEOUT_SECS", default_value_t = 5)]
    pub request_timeout_secs: u64,
    /// Seconds an idle keep-alive connection stays open.
    #[arg(long, env = "CARDROOM_KEEP_ALIVE_SECS", default_value_t = 30)]
    pub keep_alive_secs: u64,
    /// Seconds in-flight requests get to finish after SIGTERM/SIGINT (graceful shutdown).
    #[arg(long, env = "CARDROOM_SHUTDOWN_TIMEOUT_SECS", default_value_t = 10)]
    pub shutdown_timeout_secs: u64,
    /// Worker threads (default: one per CPU core).
    #[arg(long, env = "CARDROOM_WORKERS")]
    pub workers: Option<usize>,
    /// Origins a browser may call the routes that take a token from (bots, matches, tables,
    /// tournaments created or changed with an owner or admin token): `*` (any), or origins
    /// separated by commas (`https://cards.example,http://localhost:5173`). The rules API and
    /// every public read answer any origin whatever this says; no route allows credentials.
    #[arg(long, env = "CARDROOM_CORS_ORIGINS", default_value = "*", value_parser = parse_cors_origins)]
    pub cors_origins: crate::http::CorsOrigins,
    /// Log filter (tracing EnvFilter syntax, e.g. `info`, `warn`, `api=debug`).
    #[arg(long, env = "CARDROOM_LOG", default_value = "info")]
    pub log: String,
    /// Log format.
    #[arg(long, env = "CARDROOM_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    // Issue 48 (48f): hardening.
    /// Make `/metrics` (on the API's listener and on `--admin-listen`'s) require
    /// `Authorization: Bearer <token>` with this token (401 `invalid_token` otherwise). Without
    /// it `/metrics` is open to whoever reaches the listener.
    #[arg(
        long,
        env = "CARDROOM_METRICS_TOKEN",
        hide_env_values = true,
        value_name = "TOKEN"
    )]
    pub metrics_token: Option<String>,
    /// A file holding the metrics token (one line), in place of `--metrics-token`.
    #[arg(
        long,
        env = "CARDROOM_METRICS_TOKEN_FILE",
        value_name = "PATH",
        conflicts_with = "metrics_token"
    )]
    pub metrics_token_file: Option<PathBuf>,
    // Issue 48, part 48s (bounded search and connections).
    /// Threads that run `/rollouts` and `/determinize` (a pool of their own, apart from the
    /// workers answering requests). Default: the cores but one, at least one.
    #[arg(long, env = "CARDROOM_SEARCH_THREADS", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub search_threads: Option<u64>,
    /// Searches (`/rollouts`, `/determinize`) one client (TCP peer address) may have running or
    /// waiting at once; beyond, 429 `too_many_searches`.
    #[arg(long, env = "CARDROOM_SEARCH_PER_CLIENT", default_value_t = crate::search::DEFAULT_SEARCH_PER_CLIENT as u64,
          value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub search_per_client: u64,
    /// Milliseconds a request's body has to arrive whole, from its head; then 408
    /// `request_timeout` and the connection closes (a body trickled a byte at a time).
    #[arg(long, env = "CARDROOM_BODY_TIMEOUT_MS", default_value_t = crate::http::body_timeout::BODY_TIMEOUT_MS,
          value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub body_timeout_ms: u64,
    /// The bot arena: database, bot address policy, ladder, concurrency, deadlines.
    #[command(flatten)]
    pub arena: arena::ArenaArgs,
}

impl ServeArgs {
    /// The key given by `--seal-key-file` or `CARDROOM_SEAL_KEY`, if any (read from its file).
    pub fn seal_key(&self) -> anyhow::Result<Option<SealKey>> {
        Ok(match (&self.seal_key_file, &self.seal_key) {
            (Some(_), Some(_)) => bail!("give either --seal-key-file or --seal-key, not both"),
            (Some(path), None) => Some(SealKey::from_file(path)?),
            (None, Some(hex)) => {
                Some(SealKey::parse(hex.as_bytes()).context("invalid CARDROOM_SEAL_KEY")?)
            }
            (None, None) => None,
        })
    }

    /// The arena's configuration: its flags, and the key the rules API seals with.
    pub fn arena_config(&self) -> anyhow::Result<arena::ArenaConfig> {
        Ok(arena::ArenaConfig {
            seal_key: self.seal_key()?,
            new_seal_key: self.new_seal_key,
            ..self.arena.config()?
        })
    }

    /// Where the admin listener binds (`--admin-listen`), if anywhere: by default
    /// `127.0.0.1:9091` for a worker, nowhere for the roles that serve the API.
    pub fn admin_listen(&self) -> Option<String> {
        match self.admin_listen.as_deref() {
            Some("off" | "") => None,
            Some(address) => Some(address.to_string()),
            None if self.arena.role.serves_api() => None,
            None => Some(DEFAULT_ADMIN_LISTEN.to_string()),
        }
    }

    /// The metrics token: `--metrics-token`, or the one in `--metrics-token-file` (None if unset
    /// or empty).
    pub fn metrics_token(&self) -> anyhow::Result<Option<String>> {
        Ok(match &self.metrics_token_file {
            Some(path) => Some(arena::config::read_secret_file(path, "metrics token")?),
            None => self.metrics_token.clone().filter(|token| !token.is_empty()),
        })
    }

    /// The server configuration these flags describe (reads the key file).
    pub fn config(&self) -> anyhow::Result<ServeConfig> {
        let codec = match self.seal_key()? {
            Some(key) => StateCodec::sealed(&key, self.require_sealed),
            None if self.require_sealed => {
                bail!("--require-sealed needs a key (--seal-key-file or CARDROOM_SEAL_KEY)")
            }
            None => StateCodec::transparent(),
        };
        Ok(ServeConfig {
            host: self.host.clone(),
            port: self.port,
            codec,
            max_body_bytes: self.max_body_bytes,
            request_timeout: Duration::from_secs(self.request_timeout_secs),
            keep_alive: Duration::from_secs(self.keep_alive_secs),
            shutdown_timeout: Duration::from_secs(self.shutdown_timeout_secs),
            workers: self.workers,
            handle_signals: true,
            arena: None,
            cors_origins: self.cors_origins.clone(),
            metrics_token: self.metrics_token()?,
            search: self.search_limits(),
            body_timeout: Duration::from_millis(self.body_timeout_ms),
        })
    }

    /// The search pool's limits: `--search-threads` (default the cores but one) and
    /// `--search-per-client`.
    pub fn search_limits(&self) -> crate::search::SearchLimits {
        let default = crate::search::SearchLimits::default();
        crate::search::SearchLimits {
            threads: self
                .search_threads
                .map_or(default.threads, |threads| threads as usize),
            per_client: self.search_per_client as usize,
        }
    }
}

/// The routes `cardroom play` serves beside the stream bots': the rules API's `/rollouts` and
/// `/determinize` (bounded as `serve` bounds them), opening the `info` of the local arena's
/// move requests, so a search bot can be tried locally.
pub fn play_routes() -> std::io::Result<arena::ExtraRoutes> {
    use actix_web::web;
    let search = web::Data::new(crate::search::SearchPool::new(
        crate::search::SearchLimits::default(),
    )?);
    Ok(std::sync::Arc::new(
        move |config: &mut web::ServiceConfig, arena: &arena::Arena| {
            config
                .app_data(web::Data::new(
                    StateCodec::transparent().with_info(arena.clone()),
                ))
                .app_data(search.clone())
                .app_data(arena::problem::json_config(
                    ServeConfig::default().max_body_bytes,
                ))
                .service(crate::routes::search::rollouts)
                .service(crate::routes::search::determinize);
        },
    ))
}

/// Where a worker serves its health and metrics unless told (`--admin-listen`).
pub const DEFAULT_ADMIN_LISTEN: &str = "127.0.0.1:9091";
fn parse_cors_origins(text: &str) -> Result<crate::http::CorsOrigins, String> {
    text.parse()
}

/// Flags of `openapi`.
#[derive(Debug, Clone, Args)]
pub struct OpenapiArgs {
    /// Write the document to this file instead of standard output
    /// (`cargo run -p api -- openapi --write openapi/cardroom.json`).
    #[arg(long, value_name = "PATH", conflicts_with = "check")]
    pub write: Option<PathBuf>,
    /// Exit with an error if this file differs from the generated document.
    #[arg(long, value_name = "PATH")]
    pub check: Option<PathBuf>,
    /// Also write every game id's own document to `DIR/<id>.json`
    /// (`cargo run -p api -- openapi --write-games openapi/games`).
    #[arg(long, value_name = "DIR", conflicts_with = "check_games")]
    pub write_games: Option<PathBuf>,
    /// Exit with an error if `DIR/<id>.json` differs from any game id's generated document, or
    /// if `DIR` holds a document of an id that does not exist.
    #[arg(long, value_name = "DIR")]
    pub check_games: Option<PathBuf>,
    /// Also write the OpenAPI 3.0.3 copy of every document (the service's, the bot protocol's and
    /// every game id's) under `DIR` (`cargo run -p api -- openapi --write-3-0 openapi/3.0`).
    #[arg(long = "write-3-0", value_name = "DIR", conflicts_with = "check_3_0")]
    pub write_3_0: Option<PathBuf>,
    /// Exit with an error if any 3.0.3 copy under `DIR` differs from the generated one.
    #[arg(long = "check-3-0", value_name = "DIR")]
    pub check_3_0: Option<PathBuf>,
}

/// Flags of `playouts`.
#[derive(Debug, Clone, Args)]
pub struct PlayoutArgs {
    /// Game id (see GET /v1/games).
    #[arg(long)]
    pub game: String,
    /// Number of players.
    #[arg(long)]
    pub players: usize,
    /// How long to play, in seconds.
    #[arg(long, default_value_t = 5.0)]
    pub seconds: f64,
    /// Seed of the first game (game i uses seed + i).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// Runs `openapi`.
pub fn openapi(args: &OpenapiArgs) -> anyhow::Result<()> {
    if let Some(dir) = &args.write_games {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        for (id, text) in crate::contract::all_documents() {
            let path = dir.join(format!("{id}.json"));
            std::fs::write(&path, text)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
    }
    if let Some(dir) = &args.check_games {
        let stale = crate::contract::stale_documents(dir);
        if !stale.is_empty() {
            bail!(
                "out of date in {}: {}; regenerate them with `{}`",
                dir.display(),
                stale.join(", "),
                crate::contract::REGENERATE
            );
        }
    }
    if let Some(dir) = &args.write_3_0 {
        crate::openapi30::write_all(dir)
            .with_context(|| format!("cannot write the 3.0 copies under {}", dir.display()))?;
    }
    if let Some(dir) = &args.check_3_0 {
        let stale = crate::openapi30::stale_documents(dir);
        if !stale.is_empty() {
            bail!(
                "out of date in {}: {}; regenerate them with `{}`",
                dir.display(),
                stale.join(", "),
                crate::openapi30::REGENERATE
            );
        }
    }
    if args.write.is_none()
        && args.check.is_none()
        && (args.write_games.is_some()
            || args.check_games.is_some()
            || args.write_3_0.is_some()
            || args.check_3_0.is_some())
    {
        return Ok(());
    }
    let text = crate::openapi::document_string();
    if let Some(path) = &args.write {
        std::fs::write(path, &text).with_context(|| format!("cannot write {}", path.display()))?;
    } else if let Some(path) = &args.check {
        let committed = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        if committed != text {
            bail!(
                "{} is out of date; regenerate it with `{}`",
                path.display(),
                crate::openapi::REGENERATE
            );
        }
    } else {
        print!("{text}");
    }
    Ok(())
}

/// The result line of `playouts`.
#[derive(Debug, serde::Serialize)]
pub struct PlayoutReport {
    /// Game id.
    pub game: String,
    /// Players per game.
    pub players: usize,
    /// Games finished.
    pub games: u64,
    /// Actions applied.
    pub actions: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Actions per second.
    pub actions_per_s: f64,
    /// Games per second.
    pub games_per_s: f64,
}

/// Games played per call of [`engine::erased::Game::random_playouts`] by `cardroom playouts`.
const PLAYOUTS_PER_CALL: u64 = 8;

/// Runs `playouts`: random games until the time is up.
pub fn playouts(args: &PlayoutArgs) -> anyhow::Result<PlayoutReport> {
    let Some(game) = engine::registry::find(&args.game) else {
        let ids: Vec<&str> = engine::registry::games()
            .iter()
            .map(|g| g.info().id.as_str())
            .collect();
        bail!(
            "unknown game `{}`; known ids: {}",
            args.game,
            ids.join(", ")
        );
    };
    let budget = Duration::from_secs_f64(args.seconds.max(0.0));
    let started = Instant::now();
    let (mut games, mut actions) = (0u64, 0u64);
    loop {
        // A few games per call: the lists they play in are kept from one game to the next, and
        // the clock is read less often; a chunk of the longest games lasts well under 1 ms.
        actions += game.random_playouts(
            args.players,
            args.seed.wrapping_add(games),
            PLAYOUTS_PER_CALL,
        )?;
        games += PLAYOUTS_PER_CALL;
        if started.elapsed() >= budget {
            break;
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    Ok(PlayoutReport {
        game: args.game.clone(),
        players: args.players,
        games,
        actions,
        seconds,
        actions_per_s: actions as f64 / seconds,
        games_per_s: games as f64 / seconds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory as _;

    /// Every boolean flag read from a variable (`CARDROOM_NO_LADDER=1`...) takes 1, 0, true and
    /// false, and refuses a word that is neither (a typo does not silently read as true).
    #[test]
    fn every_boolean_variable_reads_1_0_true_and_false() {
        fn walk(command: &clap::Command, seen: &mut Vec<String>) {
            for arg in command.get_arguments() {
                let Some(variable) = arg.get_env() else {
                    continue;
                };
                if !matches!(arg.get_action(), clap::ArgAction::SetTrue) {
                    continue;
                }
                // The flag's own value parser, given the value as a variable would.
                let probe = clap::Command::new("probe").arg(
                    arg.clone()
                        .long("value")
                        .action(clap::ArgAction::Set)
                        .required(false),
                );
                let parse = |text: &str| {
                    probe
                        .clone()
                        .try_get_matches_from(["probe", "--value", text])
                        .map(|matches| matches.get_one::<bool>(arg.get_id().as_str()).copied())
                };
                for (text, value) in [
                    ("1", true),
                    ("0", false),
                    ("true", true),
                    ("false", false),
                    ("TRUE", true),
                    ("no", false),
                ] {
                    let parsed = parse(text);
                    assert!(
                        matches!(parsed, Ok(Some(read)) if read == value),
                        "{variable:?}={text}: {parsed:?}"
                    );
                }
                assert!(parse("maybe").is_err(), "{variable:?}=maybe read");
                seen.push(variable.to_string_lossy().to_string());
            }
            for sub in command.get_subcommands() {
                walk(sub, seen);
            }
        }
        let mut seen = Vec::new();
        walk(&Cli::command(), &mut seen);
        for variable in [
            "CARDROOM_REQUIRE_SEALED",
            "CARDROOM_NEW_SEAL_KEY",
            "CARDROOM_PUBLIC",
            "CARDROOM_NO_LADDER",
        ] {
            assert!(seen.iter().any(|v| v == variable), "{variable}: {seen:?}");
        }
    }

    #[test]
    fn a_worker_listens_for_its_health_unless_told_and_the_api_roles_do_not() {
        let listen = |flags: &[&str]| {
            let cli =
                Cli::try_parse_from(["cardroom", "serve"].iter().chain(flags)).expect("flags");
            let Command::Serve(args) = cli.command else {
                panic!("serve")
            };
            args.admin_listen()
        };
        assert_eq!(
            listen(&["--role", "worker"]),
            Some(DEFAULT_ADMIN_LISTEN.into())
        );
        assert_eq!(listen(&[]), None);
        assert_eq!(listen(&["--role", "api"]), None);
        assert_eq!(
            listen(&["--admin-listen", "0.0.0.0:9100"]),
            Some("0.0.0.0:9100".into())
        );
        assert_eq!(listen(&["--role", "worker", "--admin-listen", "off"]), None);
    }
}
