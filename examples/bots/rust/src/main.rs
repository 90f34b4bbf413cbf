//! A cardroom arena bot in Rust: an actix-web server for the bot protocol (docs/bots.md,
//! openapi/bot-protocol.json):
//!
//! - `GET /` → `{"name", "author", "version", "games"}`
//! - `POST /move` → `{"action": one of legal_actions}`
//! - `POST /start`, `POST /end` → 204 (notifications)
//!
//! With `CARDROOM_SIGNING_SECRET` set, unsigned, forged or stale requests are answered 401.
//! Without it every request is accepted: that is only for the first registration probe, before the
//! arena has told you the secret. `--port 0` picks a free port; the first line on stdout is
//! `listening on http://HOST:PORT`.
//!
//! With `--connect URL --token T` (or `CARDROOM_TOKEN`) it runs in stream mode instead: no server,
//! the bot connects out to the arena (see `src/stream.rs`). In either mode, `--search URL` plays
//! each choice by rollouts over the rules API at URL (see `src/search.rs`).
#![forbid(unsafe_code)]

use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use cardroom_starter_bot::protocol::{
    BotInfo, EndNotice, MoveRequest, PREVIOUS_SIGNATURE_HEADER, SIGNATURE_HEADER, StartNotice,
    TIMESTAMP_HEADER, verify_any,
};
use cardroom_starter_bot::search::{Search, decide};
use clap::Parser;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Largest request body read; a long match's history stays far below it.
const BODY_LIMIT: usize = 8 * 1024 * 1024;

/// A cardroom arena bot.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Args {
    /// Port to listen on (0 picks a free port).
    #[arg(long, default_value_t = 8765)]
    port: u16,
    /// Interface to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Game ids the bot plays, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "twenty_two")]
    games: Vec<String>,
    /// The name the bot reports at `GET /`.
    #[arg(long, default_value = "rust-starter")]
    name: String,
    /// The signing secret the arena returned at registration.
    #[arg(
        long,
        env = "CARDROOM_SIGNING_SECRET",
        hide_env_values = true,
        default_value = ""
    )]
    secret: String,
    /// Stream mode: the arena to connect out to (e.g. `https://arena.example`), for a bot
    /// registered with `"transport": "stream"`. No server is started.
    #[arg(long, value_name = "URL")]
    connect: Option<String>,
    /// The bot's token (from registration), for stream mode.
    #[arg(
        long,
        env = "CARDROOM_TOKEN",
        hide_env_values = true,
        default_value = ""
    )]
    token: String,
    /// Search: play each choice by rollouts over the rules API at this URL (from each move
    /// request's `info`; see `src/search.rs`).
    #[arg(long, value_name = "URL")]
    search: Option<String>,
    /// Playouts per legal action when searching.
    #[arg(long, default_value_t = cardroom_starter_bot::search::DEFAULT_PLAYOUTS)]
    playouts: u32,
}

/// What every handler reads.
struct Settings {
    info: BotInfo,
    secret: String,
    search: Option<Search>,
}

impl Settings {
    /// True if the request is signed with our secret (always, when we have none yet).
    fn signed(&self, request: &HttpRequest, body: &[u8]) -> bool {
        if self.secret.is_empty() {
            return true;
        }
        let header = |name| {
            request
                .headers()
                .get(name)
                .and_then(|value| value.to_str().ok())
        };
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        verify_any(
            self.secret.as_bytes(),
            header(TIMESTAMP_HEADER),
            &[header(SIGNATURE_HEADER), header(PREVIOUS_SIGNATURE_HEADER)],
            body,
            now,
        )
    }
}

fn error(status: actix_web::http::StatusCode, message: &str) -> HttpResponse {
    HttpResponse::build(status).json(serde_json::json!({ "error": message }))
}

fn unsigned() -> HttpResponse {
    error(
        actix_web::http::StatusCode::UNAUTHORIZED,
        "bad or stale signature",
    )
}

async fn info(settings: web::Data<Settings>, request: HttpRequest) -> HttpResponse {
    if !settings.signed(&request, b"") {
        return unsigned();
    }
    HttpResponse::Ok().json(&settings.info)
}

async fn act(
    settings: web::Data<Settings>,
    request: HttpRequest,
    body: web::Bytes,
) -> HttpResponse {
    if !settings.signed(&request, &body) {
        return unsigned();
    }
    let move_request: MoveRequest = match serde_json::from_slice(&body) {
        Ok(parsed) => parsed,
        Err(e) => return error(actix_web::http::StatusCode::BAD_REQUEST, &e.to_string()),
    };
    let answer = decide(
        &move_request,
        cardroom_starter_bot::strategy::choose,
        settings.search.as_ref(),
    )
    .await;
    let Some(answer) = answer else {
        return error(
            actix_web::http::StatusCode::BAD_REQUEST,
            "no legal_actions to choose from",
        );
    };
    HttpResponse::Ok().json(answer)
}

async fn start(
    settings: web::Data<Settings>,
    request: HttpRequest,
    body: web::Bytes,
) -> HttpResponse {
    if !settings.signed(&request, &body) {
        return unsigned();
    }
    if let Ok(notice) = serde_json::from_slice::<StartNotice>(&body) {
        let names: Vec<&str> = notice.seats.iter().map(|s| s.name.as_str()).collect();
        eprintln!(
            "match {} ({}) started: seat {} of {names:?}",
            notice.match_id, notice.game, notice.seat
        );
    }
    HttpResponse::NoContent().finish()
}

async fn end(
    settings: web::Data<Settings>,
    request: HttpRequest,
    body: web::Bytes,
) -> HttpResponse {
    if !settings.signed(&request, &body) {
        return unsigned();
    }
    if let Ok(notice) = serde_json::from_slice::<EndNotice>(&body) {
        eprintln!(
            "match {} ended: seat {}, ranking {} scores {}",
            notice.match_id, notice.seat, notice.result["ranking"], notice.result["scores"]
        );
    }
    HttpResponse::NoContent().finish()
}

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let args = Args::parse();
    let search = match &args.search {
        Some(api) => Some(Search::new(api, args.playouts).map_err(std::io::Error::other)?),
        None => None,
    };
    if let Some(arena) = &args.connect {
        if args.token.is_empty() {
            eprintln!("--connect needs the bot's token: --token TOKEN or CARDROOM_TOKEN");
            std::process::exit(2);
        }
        let stream = cardroom_starter_bot::stream::Stream::new(arena, &args.token)
            .map_err(std::io::Error::other)?;
        let error = stream
            .run(cardroom_starter_bot::strategy::choose, search.as_ref())
            .await;
        return Err(std::io::Error::other(error));
    }
    if args.secret.is_empty() {
        eprintln!(
            "CARDROOM_SIGNING_SECRET is not set: accepting unsigned requests (only for registering)"
        );
    }
    let settings = web::Data::new(Settings {
        info: BotInfo {
            name: args.name,
            author: "cardroom starter".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            games: args.games.into_iter().filter(|g| !g.is_empty()).collect(),
        },
        secret: args.secret,
        search,
    });
    let server = HttpServer::new(move || {
        App::new()
            .app_data(settings.clone())
            .app_data(web::PayloadConfig::new(BODY_LIMIT))
            .route("/", web::get().to(info))
            .route("/move", web::post().to(act))
            .route("/start", web::post().to(start))
            .route("/end", web::post().to(end))
    })
    .workers(2)
    // The arena keeps connections open for up to 90 s between calls; closing ours earlier could
    // race with a request already on the wire (a transport fault), so idle connections outlive it.
    .keep_alive(Duration::from_secs(120))
    .bind((args.host.as_str(), args.port))?;
    if let Some(address) = server.addrs().first() {
        println!("listening on http://{address}");
    }
    server.run().await
}
