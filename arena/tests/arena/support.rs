//! Fake bots (a tiny HTTP server on 127.0.0.1:0 per bot), arena and app spawning, and helpers.

use arena::client::sign;
use arena::{Arena, ArenaConfig};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// How a fake bot answers `POST /move`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Behavior {
    /// The first legal action, at once.
    Good,
    /// The first legal action after sleeping this many milliseconds.
    Slow(u64),
    /// 200 with a body that is not JSON.
    Garbage,
    /// 200 with an action that is not legal.
    Illegal,
    /// Closes the connection without answering.
    Close,
    /// 500.
    Error500,
    /// A body over the 64 KiB cap.
    Huge,
    /// A redirect to another URL.
    Redirect,
    /// `GET /` answers JSON that is not a bot description.
    NoInfo,
}

/// What a fake bot saw.
#[derive(Debug, Default)]
pub struct Seen {
    /// Requests received.
    pub requests: AtomicUsize,
    /// Requests whose signature did not verify (neither `X-Cardroom-Signature` nor
    /// `X-Cardroom-Signature-Previous`).
    pub bad_signatures: AtomicUsize,
    /// Requests that verified by `X-Cardroom-Signature-Previous` alone (a secret was rotated
    /// and the bot still checks with the replaced one).
    pub previous_signatures: AtomicUsize,
    /// `/start` notices.
    pub starts: AtomicUsize,
    /// `/end` notices.
    pub ends: AtomicUsize,
    /// When set, the bot closes every connection without answering.
    pub down: std::sync::atomic::AtomicBool,
    /// The signing secret to verify with (set after registration; empty = do not check).
    pub secret: std::sync::Mutex<String>,
    /// `time_left_ms` of every move request that had one, in order.
    pub time_left: std::sync::Mutex<Vec<u64>>,
    /// The version `GET /` reports (`0.0.1` while unset).
    pub version: std::sync::Mutex<Option<String>>,
    /// Every move request's body, in order.
    pub move_requests: std::sync::Mutex<Vec<Value>>,
}

/// A running fake bot.
#[derive(Debug, Clone)]
pub struct FakeBot {
    /// Base URL.
    pub url: String,
    /// Counters.
    pub seen: Arc<Seen>,
}

/// Every game id, as a fake bot's `games`.
pub fn all_games() -> Vec<String> {
    engine::registry::games()
        .iter()
        .map(|g| g.info().id.clone())
        .collect()
}

/// A game two bots can play (the registry has several; a registry without one fails the tests).
pub fn two_player_game() -> String {
    engine::registry::games()
        .iter()
        .find(|g| g.info().players.min <= 2 && g.info().players.max >= 2)
        .map(|g| g.info().id.clone())
        .expect("the registry has a two-player game")
}

/// Starts a fake bot.
pub async fn spawn_bot(behavior: Behavior) -> FakeBot {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    let seen = Arc::new(Seen::default());
    serve_on(listener, behavior, seen.clone());
    FakeBot { url, seen }
}

/// A fake bot that can stop listening (its port refuses connections, as a bot process that
/// restarts) and listen again on the same port.
pub struct RestartableBot {
    /// The bot.
    pub bot: FakeBot,
    behavior: Behavior,
    server: Option<tokio::task::JoinHandle<()>>,
}

impl RestartableBot {
    /// Starts one.
    pub async fn spawn(behavior: Behavior) -> RestartableBot {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("addr"));
        let seen = Arc::new(Seen::default());
        let server = serve_on(listener, behavior, seen.clone());
        RestartableBot {
            bot: FakeBot { url, seen },
            behavior,
            server: Some(server),
        }
    }

    /// Stops listening: connections are refused until [`RestartableBot::start`].
    pub async fn stop(&mut self) {
        if let Some(server) = self.server.take() {
            server.abort();
            let _ = server.await;
        }
    }

    /// Listens again on the same port.
    pub async fn start(&mut self) {
        let address = self.bot.url.trim_start_matches("http://").to_string();
        let listener = TcpListener::bind(&address).await.expect("rebind");
        self.server = Some(serve_on(listener, self.behavior, self.bot.seen.clone()));
    }
}

/// Serves the fake bot protocol on `listener` until the task is aborted.
fn serve_on(
    listener: TcpListener,
    behavior: Behavior,
    seen: Arc<Seen>,
) -> tokio::task::JoinHandle<()> {
    let state = seen;
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                return;
            };
            let seen = state.clone();
            tokio::spawn(async move {
                let _ = serve(stream, behavior, &seen).await;
            });
        }
    })
}

async fn serve(mut stream: TcpStream, behavior: Behavior, seen: &Seen) -> std::io::Result<()> {
    if seen.down.load(Ordering::SeqCst) {
        return Ok(());
    }
    let mut buffer = Vec::new();
    let mut chunk = [0u8; 8192];
    let head_end = loop {
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Ok(());
        }
        buffer.extend_from_slice(&chunk[..n]);
        if let Some(i) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&buffer[..head_end]).to_string();
    let header = |name: &str| {
        head.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim()
                .eq_ignore_ascii_case(name)
                .then(|| v.trim().to_string())
        })
    };
    let length: usize = header("content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    while buffer.len() < head_end + length {
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            break;
        }
        buffer.extend_from_slice(&chunk[..n]);
    }
    let body = &buffer[head_end..(head_end + length).min(buffer.len())];
    seen.requests.fetch_add(1, Ordering::SeqCst);
    let secret = seen.secret.lock().map(|s| s.clone()).unwrap_or_default();
    if !secret.is_empty() {
        let verifies = |name: &str| match (header("x-cardroom-timestamp"), header(name)) {
            (Some(ts), Some(sig)) => ts
                .parse::<u64>()
                .map(|ts| sign(&secret, ts, body) == sig)
                .unwrap_or(false),
            _ => false,
        };
        if !verifies("x-cardroom-signature") {
            if verifies("x-cardroom-signature-previous") {
                seen.previous_signatures.fetch_add(1, Ordering::SeqCst);
            } else {
                seen.bad_signatures.fetch_add(1, Ordering::SeqCst);
            }
        }
    }
    let path = head.split_whitespace().nth(1).unwrap_or("/").to_string();
    let (status, payload): (u16, Vec<u8>) = match path.as_str() {
        "/" if behavior == Behavior::NoInfo => (200, b"{\"hello\": 1}".to_vec()),
        "/" => {
            let version = seen
                .version
                .lock()
                .ok()
                .and_then(|v| v.clone())
                .unwrap_or_else(|| "0.0.1".into());
            (
                200,
                json!({"name": "fake", "author": "tests", "version": version, "games": all_games()})
                    .to_string()
                    .into_bytes(),
            )
        }
        "/start" => {
            seen.starts.fetch_add(1, Ordering::SeqCst);
            (204, Vec::new())
        }
        "/end" => {
            seen.ends.fetch_add(1, Ordering::SeqCst);
            (204, Vec::new())
        }
        "/move" => {
            let request: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
            let first = request["legal_actions"][0].clone();
            if let Ok(mut requests) = seen.move_requests.lock() {
                requests.push(request.clone());
            }
            if let (Some(left), Ok(mut seen_left)) =
                (request["time_left_ms"].as_u64(), seen.time_left.lock())
            {
                seen_left.push(left);
            }
            match behavior {
                Behavior::Good | Behavior::NoInfo => (
                    200,
                    json!({"action": first, "comment": "first legal"})
                        .to_string()
                        .into_bytes(),
                ),
                Behavior::Slow(ms) => {
                    tokio::time::sleep(Duration::from_millis(ms)).await;
                    (200, json!({"action": first}).to_string().into_bytes())
                }
                Behavior::Garbage => (200, b"<html>not json</html>".to_vec()),
                Behavior::Illegal => (
                    200,
                    json!({"action": {"type": "no_such_action"}})
                        .to_string()
                        .into_bytes(),
                ),
                Behavior::Close => return Ok(()),
                Behavior::Error500 => (500, b"{\"error\": \"boom\"}".to_vec()),
                Behavior::Huge => (
                    200,
                    format!("{{\"action\": \"{}\"}}", "x".repeat(100_000)).into_bytes(),
                ),
                Behavior::Redirect => {
                    let response = "HTTP/1.1 307 Temporary Redirect\r\nLocation: http://127.0.0.1:9/move\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
                    stream.write_all(response.as_bytes()).await?;
                    return Ok(());
                }
            }
        }
        _ => (404, Vec::new()),
    };
    let reason = match status {
        200 => "OK",
        204 => "No Content",
        404 => "Not Found",
        _ => "Internal Server Error",
    };
    let response = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        payload.len()
    );
    stream.write_all(response.as_bytes()).await?;
    stream.write_all(&payload).await?;
    stream.flush().await
}

/// A fresh temporary directory for one test (`cardroom-arena-<name>-<random>`), removed when the
/// guard is dropped: when the test ends, passing or panicking. Keep it alive as long as the
/// database inside is in use.
pub fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("cardroom-arena-{name}-"))
        .tempdir()
        .expect("temp dir")
}

/// An arena on its own SQLite file, with the temporary directory holding that file: the directory
/// is removed when this is dropped. Derefs to the [`Arena`].
pub struct TestArena {
    arena: Arena,
    _dir: tempfile::TempDir,
}

impl std::ops::Deref for TestArena {
    type Target = Arena;

    fn deref(&self) -> &Arena {
        &self.arena
    }
}

/// The admin token of the test arenas (`serve --admin-token`): ranked matches over HTTP and
/// cancelling any match need it.
pub const ADMIN_TOKEN: &str = "arena-test-admin-token";

/// An arena on a fresh SQLite file, loopback allowed, no ladder, short deadlines, the admin
/// token [`ADMIN_TOKEN`].
pub async fn spawn_arena(name: &str) -> TestArena {
    spawn_arena_with(name, |_| {}).await
}

/// [`spawn_arena`] with changes to the configuration.
pub async fn spawn_arena_with(name: &str, change: impl FnOnce(&mut ArenaConfig)) -> TestArena {
    let dir = temp_dir(name);
    let db = dir.path().join("arena.db");
    let mut config = ArenaConfig::local(db.to_string_lossy().to_string());
    config.deadline_ms = 200;
    config.admin_token = Some(ADMIN_TOKEN.into());
    change(&mut config);
    let arena = Arena::open(config).await.expect("open arena");
    TestArena { arena, _dir: dir }
}

/// Registers a fake bot through the arena (named after its URL: names are unique) and sets its
/// secret for signature checks.
pub async fn register(arena: &Arena, bot: &FakeBot, game: &str) -> String {
    register_with_history(arena, bot, game, arena::wire::HistoryMode::Full).await
}

/// [`register`] with the history mode of its move requests.
pub async fn register_with_history(
    arena: &Arena,
    bot: &FakeBot,
    game: &str,
    history: arena::wire::HistoryMode,
) -> String {
    let registered = arena
        .register_bot(arena::dto::RegisterBot {
            name: format!("fake {}", bot.url),
            url: bot.url.clone(),
            games: vec![game.to_string()],
            transport: Default::default(),
            history,
            // Open: the tests seat the fake bots in matches without their owner's token.
            open_to_challenges: true,
        })
        .await
        .expect("register");
    *bot.seen.secret.lock().expect("lock") = registered.signing_secret.clone();
    registered.id
}

/// Registers a fake bot as its owner would: closed to challenges (only its owner's token, the
/// admin or the ladder seat it). Returns its id and owner token.
pub async fn register_owned(arena: &Arena, bot: &FakeBot, game: &str) -> (String, String) {
    let registered = arena
        .register_bot(arena::dto::RegisterBot {
            name: format!("owned {}", bot.url),
            url: bot.url.clone(),
            games: vec![game.to_string()],
            transport: Default::default(),
            history: Default::default(),
            open_to_challenges: false,
        })
        .await
        .expect("register");
    *bot.seen.secret.lock().expect("lock") = registered.signing_secret.clone();
    (registered.id, registered.token)
}

/// Serves the arena's routes on 127.0.0.1:0; returns the base URL.
pub async fn spawn_app(arena: &Arena) -> String {
    use actix_web::{App, HttpServer, web};
    use utoipa_actix_web::AppExt;
    let data = web::Data::new(arena.clone());
    let server = HttpServer::new(move || {
        App::new()
            .app_data(data.clone())
            .into_utoipa_app()
            .configure(arena::configure)
            .into_app()
    })
    .workers(1)
    // As `cardroom serve`: a client that closes its side is gone at once (a stream bot's
    // connection ends, its seats start their reconnect grace).
    .h1_allow_half_closed(false)
    .bind("127.0.0.1:0")
    .expect("bind");
    let addr = server.addrs()[0];
    tokio::spawn(server.run());
    format!("http://{addr}")
}

/// One `fresh_postgres` for every test suite: the end-to-end tests' library holds it.
pub use e2e::fresh_postgres;

/// Sends a request: its status and JSON body (null when it has none).
pub async fn send(request: reqwest::RequestBuilder) -> (u16, Value) {
    let response = request.send().await.expect("send");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}
