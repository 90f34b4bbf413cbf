//! `cardroom play`: one match, run locally from the command line, against bot URLs or built-in
//! bots, with a readable move log and the result. Nothing is kept: the arena runs on an
//! in-memory database.
//!
//! A bot checking signatures needs the secret it was started with: `--bot-secret` (or
//! `CARDROOM_SIGNING_SECRET`, the variable the starter bots read) gives it, and the bot is
//! registered in this in-memory arena under that secret. The public `POST /v1/bots` keeps making
//! every secret itself.
//!
//! A seat given as `stream` (or `stream:NAME`) is a stream bot: the command serves the arena's
//! routes on `--listen`, prints the `--connect URL --token T` to start the bot with, and starts
//! the match once every stream bot is connected (within `--connect-wait`).

use crate::client::{FaultKind, Target};
use crate::config::ArenaConfig;
use crate::dto::{CreateMatch, RegisterBot};
use crate::runner::compact;
use crate::service::Arena;
use crate::store::MoveRecord;
use serde_json::Value;
use std::io::Write;
use std::sync::Mutex;

/// Flags of `cardroom play`.
#[derive(Debug, Clone, clap::Args)]
pub struct PlayArgs {
    /// Game id, e.g. `twenty_two`.
    #[arg(long)]
    pub game: String,
    /// A bot per seat, in seat order: a URL, a built-in bot (`random`, `heuristic`), or `stream`
    /// (`stream:NAME`) for a stream bot that connects to `--listen` with the token printed.
    #[arg(long = "bot", required = true)]
    pub bots: Vec<String>,
    /// Where stream bots connect (`GET /v1/bot/stream`); port 0 picks a free one.
    #[arg(long, default_value = "127.0.0.1:0")]
    pub listen: String,
    /// Seconds to wait for every stream bot to connect before giving up.
    #[arg(long, default_value_t = 300)]
    pub connect_wait: u64,
    /// The signing secret the bot at a URL was started with (its `CARDROOM_SIGNING_SECRET`). Once:
    /// for every URL bot; or once per URL bot, in the order of the `--bot` flags. Without it each
    /// bot gets a fresh secret, which only a bot that does not check signatures accepts.
    #[arg(
        long = "bot-secret",
        value_name = "SECRET",
        env = "CARDROOM_SIGNING_SECRET",
        hide_env_values = true
    )]
    pub bot_secrets: Vec<String>,
    /// Seed of the match (random if absent).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Option overrides as a JSON object, e.g. `{"target": 11}`.
    #[arg(long)]
    pub options: Option<String>,
    /// Per-move deadline in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub deadline_ms: u64,
    /// Deny non-public bot addresses (loopback bots are allowed by default).
    #[arg(long)]
    pub public: bool,
}

/// Event types worth a progress line of their own: deals, hands, rounds, scores, eliminations and
/// the end of the game (every family names its events from this vocabulary).
const MILESTONES: [&str; 9] = [
    "deal", "hand", "round", "score", "penalty", "eliminat", "target", "game_", "buy_back",
];

/// The signing secret of each URL bot, in order (`None`: make a fresh one).
fn secrets(args: &PlayArgs, url_bots: usize) -> anyhow::Result<Vec<Option<String>>> {
    if args.bot_secrets.iter().any(String::is_empty) {
        anyhow::bail!("--bot-secret (or CARDROOM_SIGNING_SECRET) must not be empty");
    }
    match args.bot_secrets.as_slice() {
        [] => Ok(vec![None; url_bots]),
        [one] => Ok(vec![Some(one.clone()); url_bots]),
        many if many.len() == url_bots => Ok(many.iter().cloned().map(Some).collect()),
        many => anyhow::bail!(
            "{} --bot-secret values for {url_bots} bot URLs: give one for all, or one per URL bot",
            many.len()
        ),
    }
}

/// The name a `--bot` spec gives a stream bot (`stream` or `stream:NAME`), None for other specs.
fn stream_spec(spec: &str) -> Option<&str> {
    match spec.split_once(':') {
        None if spec == "stream" => Some("stream"),
        Some(("stream", name)) if !name.is_empty() => Some(name),
        _ => None,
    }
}

/// A stream bot seated by `cardroom play`.
struct StreamSeat {
    seat: usize,
    name: String,
    id: String,
    token: String,
}

/// Routes `cardroom play` serves beside the stream bots' (the `cardroom` binary adds the rules
/// API's `/rollouts` and `/determinize`, opening the `info` of this arena's move requests): a
/// search bot can be tried locally.
pub type ExtraRoutes =
    std::sync::Arc<dyn Fn(&mut actix_web::web::ServiceConfig, &Arena) + Send + Sync>;

/// Serves the arena's stream routes (and `extra`) on `--listen` until the handle stops it.
fn serve(
    arena: &Arena,
    args: &PlayArgs,
    extra: Option<ExtraRoutes>,
) -> anyhow::Result<(actix_web::dev::ServerHandle, std::net::SocketAddr)> {
    let data = actix_web::web::Data::new(arena.clone());
    let served = arena.clone();
    let server = actix_web::HttpServer::new(move || {
        // The stream bots' front door and the search routes only: nothing else of the arena is
        // served here.
        let served = served.clone();
        let extra = extra.clone();
        actix_web::App::new()
            .app_data(data.clone())
            .service(crate::routes::stream::stream)
            .service(crate::routes::stream::answer)
            .configure(move |config| {
                if let Some(extra) = &extra {
                    extra(config, &served);
                }
            })
    })
    .workers(1)
    .disable_signals()
    .bind(args.listen.as_str())
    .map_err(|e| anyhow::anyhow!("--listen {}: {e}", args.listen))?;
    let address = *server
        .addrs()
        .first()
        .ok_or_else(|| anyhow::anyhow!("--listen {}: no address", args.listen))?;
    let server = server.run();
    let handle = server.handle();
    tokio::spawn(server);
    Ok((handle, address))
}

/// Serves `--listen` while the match runs when a seat is a stream bot or `extra` routes are
/// given (saying where the search routes are), once every stream bot is connected.
async fn start_serving(
    arena: &Arena,
    args: &PlayArgs,
    stream_seats: &[StreamSeat],
    extra: Option<ExtraRoutes>,
    out: &mut (dyn Write + Send),
) -> anyhow::Result<Option<actix_web::dev::ServerHandle>> {
    let searchable = extra.is_some();
    if stream_seats.is_empty() && !searchable {
        return Ok(None);
    }
    let (handle, address) = serve(arena, args, extra)?;
    if searchable {
        writeln!(
            out,
            "search: POST http://{address}/v1/games/{}/rollouts and /determinize with a move request's `info` (a search bot's --search http://{address})",
            args.game
        )?;
    }
    Ok(Some(
        connect_stream_bots(arena, args, stream_seats, (handle, address), out).await?,
    ))
}

/// Prints how to start each stream bot against `address`, and waits until all of them are
/// connected.
async fn connect_stream_bots(
    arena: &Arena,
    args: &PlayArgs,
    seats: &[StreamSeat],
    (handle, address): (actix_web::dev::ServerHandle, std::net::SocketAddr),
    out: &mut (dyn Write + Send),
) -> anyhow::Result<actix_web::dev::ServerHandle> {
    for seat in seats {
        writeln!(
            out,
            "seat {} ({}) is a stream bot: start it with --connect http://{address} --token {}",
            seat.seat, seat.name, seat.token
        )?;
    }
    out.flush()?;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(args.connect_wait);
    loop {
        let connected = arena.store().connected_bots().await?;
        let waiting: Vec<&str> = seats
            .iter()
            .filter(|seat| !connected.contains(&seat.id))
            .map(|seat| seat.name.as_str())
            .collect();
        if waiting.is_empty() {
            return Ok(handle);
        }
        if std::time::Instant::now() >= deadline {
            handle.stop(false).await;
            anyhow::bail!(
                "stream bots not connected after {} s: {}",
                args.connect_wait,
                waiting.join(", ")
            );
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

/// A name for the bot that is not taken yet in this match (the bot's own name if it is free).
fn unique_name(wanted: &str, url: &str, taken: &[String]) -> String {
    // Text a name may hold (issue 48's rules), at most 56 characters.
    let printable = |text: &str| -> String {
        let kept: String = crate::bots::printable_name(text).chars().take(56).collect();
        kept.trim_end().to_string()
    };
    let base = printable(wanted);
    let base = if base.is_empty() {
        printable(url)
    } else {
        base
    };
    let mut name = base.clone();
    let mut n = 2;
    while taken.contains(&name) {
        name = format!("{base} #{n}");
        n += 1;
    }
    name
}

/// An event as one readable line: `type key=value ...` (the arena's `action_index` left out).
fn describe(event: &Value) -> Option<String> {
    let map = event.as_object()?;
    let kind = map.get("type")?.as_str()?;
    if !MILESTONES.iter().any(|m| kind.contains(m)) {
        return None;
    }
    let mut line = kind.to_string();
    for (key, value) in map {
        if key != "type" && key != "action_index" {
            line.push_str(&format!(" {key}={}", compact(value)));
        }
    }
    Some(line)
}

/// Plays the match and writes the move log and the result to `out`. Returns the result as JSON
/// (as `GET /v1/matches/{id}` shows it).
pub async fn play(args: &PlayArgs, out: &mut (dyn Write + Send)) -> anyhow::Result<Value> {
    play_serving(args, out, None).await
}

/// [`play`], serving `extra` routes on `--listen` too (the `cardroom` binary: the rules API's
/// search routes), and saying where.
pub async fn play_serving(
    args: &PlayArgs,
    out: &mut (dyn Write + Send),
    extra: Option<ExtraRoutes>,
) -> anyhow::Result<Value> {
    let mut config = ArenaConfig::local("sqlite::memory:");
    if args.public {
        config.policy = crate::safety::AddressPolicy::public();
    }
    config.deadline_ms = args.deadline_ms;
    // No workers: this command plays its one match itself, below.
    config.role = crate::config::Role::Api;
    let arena = Arena::open(config).await?;
    let Seated {
        bots,
        seat_names,
        labels,
        stream_seats,
        ..
    } = seat_bots(&arena, args).await?;
    // Served until the match is over: the stream bots read their lines and answer through it.
    let server = start_serving(&arena, args, &stream_seats, extra, out).await?;
    let options = match &args.options {
        Some(text) => Some(
            serde_json::from_str(text)
                .map_err(|e| anyhow::anyhow!("--options is not a JSON object: {e}"))?,
        ),
        None => None,
    };
    let record = arena
        .new_match(
            CreateMatch {
                game: args.game.clone(),
                bots,
                options,
                seed: args.seed,
                ranked: Some(false),
                deadline_ms: Some(args.deadline_ms),
                ..CreateMatch::default()
            },
            crate::store::Creator::admin(),
            false,
        )
        .await
        .map_err(|e| anyhow::anyhow!("{}", e.detail))?;
    writeln!(
        out,
        "{} · seed {} · match {}",
        record.game, record.seed, record.id
    )?;
    for (seat, label) in labels.iter().enumerate() {
        writeln!(out, "  seat {seat}: {label}")?;
    }
    let width = seat_names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0);
    let record_id = record.id.clone();
    let outcome = {
        let out = Mutex::new(&mut *out);
        let print = |m: &MoveRecord| {
            if let Ok(mut out) = out.lock() {
                let name = seat_names.get(m.seat).map(String::as_str).unwrap_or("");
                write_move(&mut **out, m, name, width);
            }
        };
        arena.runner().run(&record_id, Some(&print)).await?
    };
    let finished = arena
        .wait_for(&record_id, std::time::Duration::from_secs(5))
        .await?;
    let Some(result) = finished.result else {
        anyhow::bail!(
            "the match did not finish: {outcome:?} {}",
            finished.error.unwrap_or_default()
        );
    };
    if let Some(server) = server {
        // Gives the stream bots their `match_end` line before the connections close.
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        server.stop(true).await;
    }
    let moves = arena.store().moves(&record_id).await?.len();
    write_result(out, &result, &labels, moves)?;
    Ok(serde_json::to_value(result)?)
}

/// The seats of `args.bots`, in order: built-in bots by name, stream bots (`stream:<name>`)
/// registered to connect, URL bots probed and registered.
async fn seat_bots(arena: &Arena, args: &PlayArgs) -> anyhow::Result<Seated> {
    let url_bots = args
        .bots
        .iter()
        .filter(|spec| !crate::builtin::is_builtin(spec) && stream_spec(spec).is_none())
        .count();
    let mut secrets = secrets(args, url_bots)?.into_iter();
    let builtins = arena.register_builtins().await?;
    let mut seated = Seated {
        names: crate::builtin::NAMES
            .iter()
            .map(|n| n.to_string())
            .collect(),
        ..Seated::default()
    };
    for (seat, spec) in args.bots.iter().enumerate() {
        if let Some(i) = crate::builtin::NAMES.iter().position(|n| n == spec) {
            seated.bots.push(builtins[i].clone());
            seated.seat_names.push(spec.clone());
            seated.labels.push(format!("{spec} (built-in)"));
            continue;
        }
        if let Some(wanted) = stream_spec(spec) {
            let name = unique_name(wanted, spec, &seated.names);
            let registered = arena
                .register_bot(RegisterBot {
                    name: name.clone(),
                    url: String::new(),
                    games: vec![args.game.clone()],
                    transport: crate::store::Transport::Stream,
                    history: Default::default(),
                    open_to_challenges: false,
                })
                .await
                .map_err(|e| anyhow::anyhow!("bot {spec}: {}", e.detail))?;
            seated.labels.push(format!("{name} (stream bot)"));
            seated.names.push(name.clone());
            seated.seat_names.push(name.clone());
            seated.stream_seats.push(StreamSeat {
                seat,
                name,
                id: registered.id.clone(),
                token: registered.token.clone(),
            });
            seated.bots.push(registered.id);
            continue;
        }
        seat_url_bot(arena, args, spec, secrets.next().flatten(), &mut seated).await?;
    }
    Ok(seated)
}

/// Who sits where in `cardroom play`'s match.
#[derive(Default)]
struct Seated {
    /// Each seat's bot id.
    bots: Vec<String>,
    /// Names taken so far (bot names are unique in an arena).
    names: Vec<String>,
    /// Per seat, a short name for the move log.
    seat_names: Vec<String>,
    /// Per seat, a long label for the header.
    labels: Vec<String>,
    /// The seats of stream bots, told how to connect.
    stream_seats: Vec<StreamSeat>,
}

/// Registers the URL bot `spec` (its `GET /` names it) with `given` secret or a new one.
async fn seat_url_bot(
    arena: &Arena,
    args: &PlayArgs,
    spec: &str,
    given: Option<String>,
    seated: &mut Seated,
) -> anyhow::Result<()> {
    let signing_secret = given.clone().unwrap_or_else(crate::bots::new_secret);
    let target = Target {
        url: spec.trim_end_matches('/').to_string(),
        signing_secret: signing_secret.clone(),
        ..Target::default()
    };
    let info = arena
        .client()
        .probe(&target, arena.config().probe_timeout)
        .await
        .map_err(|fault| {
            // The client words a refusal "the bot answered HTTP 401" (or 403).
            let refused = fault.kind == FaultKind::BadStatus
                && (fault.detail.ends_with(" 401") || fault.detail.ends_with(" 403"));
            let hint = match (refused, &given) {
                (true, Some(_)) => {
                    ". Is the bot running with the same secret as --bot-secret / CARDROOM_SIGNING_SECRET?"
                }
                (true, None) => {
                    ". If the bot checks signatures, pass the secret it was started with: --bot-secret SECRET or CARDROOM_SIGNING_SECRET"
                }
                _ => "",
            };
            anyhow::anyhow!("bot {spec}: GET / failed: {}{hint}", fault.detail)
        })?;
    let name = unique_name(&info.name, spec, &seated.names);
    let registered = arena
        .register_bot_with_secret(
            RegisterBot {
                name: name.clone(),
                url: spec.to_string(),
                games: vec![args.game.clone()],
                transport: Default::default(),
                history: Default::default(),
                open_to_challenges: false,
            },
            signing_secret,
        )
        .await
        .map_err(|e| anyhow::anyhow!("bot {spec}: {}", e.detail))?;
    seated.labels.push(format!(
        "{name} {} by {} ({spec}{})",
        registered.bot.version,
        registered.bot.author,
        if given.is_some() {
            ", signed with the given secret"
        } else {
            ""
        }
    ));
    seated.names.push(name.clone());
    seated.seat_names.push(name);
    seated.bots.push(registered.id);
    Ok(())
}

/// Writes the result: each seat's place, score and faults, the disqualified seats.
fn write_result(
    out: &mut (dyn Write + Send),
    result: &crate::result::MatchResult,
    labels: &[String],
    moves: usize,
) -> anyhow::Result<()> {
    writeln!(out, "result after {moves} moves:")?;
    for (place, group) in result.ranking.iter().enumerate() {
        for &seat in group {
            // Numbers print as JSON does (a score of 3 as `3.0`); a seat beyond the lists as `null`.
            let score = result
                .scores
                .get(seat)
                .map_or(Value::Null, |s| Value::from(*s));
            let faults = result
                .faults
                .get(seat)
                .map_or(Value::Null, |f| Value::from(*f));
            writeln!(
                out,
                "  {}. seat {seat} {}  score {score}  faults {faults}",
                place + 1,
                labels.get(seat).map(String::as_str).unwrap_or(""),
            )?;
        }
    }
    if !result.disqualified.is_empty() {
        writeln!(
            out,
            "  disqualified seats: {}",
            Value::from(result.disqualified.clone())
        )?;
    }
    Ok(())
}

/// A played move as the log shows it: its line, then one line per event.
fn write_move(out: &mut (dyn Write + Send), m: &MoveRecord, name: &str, width: usize) {
    let fault = match &m.fault {
        Some(f) if f.kind == FaultKind::Disqualified => {
            "  (disqualified: first legal action)".to_string()
        }
        Some(f) => format!(
            "  FAULT {}: {} → first legal action",
            serde_json::to_value(f.kind)
                .unwrap_or_default()
                .as_str()
                .unwrap_or(""),
            f.detail
        ),
        None => String::new(),
    };
    // A failed write (a closed pipe) must not stop the match: it is ignored here and the result
    // reports the error.
    let _ = writeln!(
        out,
        "{:>4}  seat {} {name:<width$}  {}  {} ms{fault}",
        m.index + 1,
        m.seat,
        compact(&m.action),
        m.latency_ms
    );
    for line in m.events.iter().filter_map(describe) {
        let _ = writeln!(out, "      -- {line}");
    }
}
