//! Spawning the server (in this process, or the `cardroom` binary as a child) and talking to it.

use api::codec::{SealKey, StateCodec};
use api::startup::{ServeConfig, build};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;

/// The game the end-to-end tests play.
pub const GAME: &str = "twenty_two";

/// The admin token of every test server's arena (`serve --admin-token`): ranked matches over
/// HTTP need it.
pub const ADMIN_TOKEN: &str = "e2e-admin-token";

/// The arena configuration of a test server: `ArenaConfig::local` with [`ADMIN_TOKEN`].
pub fn arena_config(database: impl Into<String>) -> arena::ArenaConfig {
    arena::ArenaConfig {
        admin_token: Some(ADMIN_TOKEN.into()),
        // The defaults otherwise (the caps included: tables the browser test leaves open hold
        // no slot and no turn of its one client).
        ..arena::ArenaConfig::local(database)
    }
}

/// A running server and a client for it.
pub struct TestApp {
    /// `http://127.0.0.1:<port>`.
    pub base: String,
    /// The HTTP client.
    pub client: reqwest::Client,
    /// The ids of the built-in bots, in `arena::builtin::NAMES` order (empty unless asked for).
    pub builtins: Vec<String>,
    handle: actix_web::dev::ServerHandle,
    /// The temporary directory of the arena's SQLite file, removed when the app is dropped.
    _dir: Option<tempfile::TempDir>,
}

/// Where a test server's arena keeps its data.
enum ArenaData {
    /// No arena: its routes answer 500.
    None,
    /// `sqlite::memory:`.
    Memory,
    /// A SQLite file in a fresh temporary directory named after the test.
    File(String),
}

/// How a test server is started: the server on 127.0.0.1:0, one worker, no signal handling,
/// otherwise `ServeConfig`'s defaults and no arena, unless a method says otherwise. `spawn`
/// starts it in this process.
pub struct ServerOptions {
    config: ServeConfig,
    arena: ArenaData,
    builtins: bool,
    /// The arena's stream limits, if not its defaults (48s).
    streams: Option<arena::streams::StreamLimits>,
}

impl Default for ServerOptions {
    fn default() -> Self {
        ServerOptions {
            config: ServeConfig {
                port: 0,
                workers: Some(1),
                handle_signals: false,
                ..ServeConfig::default()
            },
            arena: ArenaData::None,
            builtins: false,
            streams: None,
        }
    }
}

impl ServerOptions {
    pub fn codec(mut self, codec: StateCodec) -> Self {
        self.config.codec = codec;
        self
    }

    pub fn workers(mut self, workers: usize) -> Self {
        self.config.workers = Some(workers);
        self
    }

    pub fn max_body_bytes(mut self, bytes: usize) -> Self {
        self.config.max_body_bytes = bytes;
        self
    }

    /// An arena on a fresh SQLite file (see [`open_arena`]).
    pub fn arena(mut self, name: &str) -> Self {
        self.arena = ArenaData::File(name.into());
        self
    }

    /// An arena in memory.
    pub fn arena_in_memory(mut self) -> Self {
        self.arena = ArenaData::Memory;
        self
    }

    /// The origins a browser may call the routes that take a token from (`--cors-origins`).
    pub fn cors_origins(mut self, origins: &str) -> Self {
        self.config.cors_origins = origins.parse().expect("origins");
        self
    }

    /// `/metrics` behind a bearer token (`--metrics-token`).
    pub fn metrics_token(mut self, token: &str) -> Self {
        self.config.metrics_token = Some(token.to_string());
        self
    }

    /// The time a request body has to arrive (`--body-timeout-ms`).
    pub fn body_timeout(mut self, timeout: std::time::Duration) -> Self {
        self.config.body_timeout = timeout;
        self
    }

    /// The arena's stream limits (`--max-streams-per-client`, `--max-streams`).
    pub fn streams(mut self, limits: arena::streams::StreamLimits) -> Self {
        self.streams = Some(limits);
        self
    }

    /// The built-in bots registered before the server starts (needs an arena).
    pub fn builtins(mut self) -> Self {
        self.builtins = true;
        self
    }

    /// Opens the arena, if any, and starts the server.
    pub async fn spawn(self) -> TestApp {
        let ServerOptions {
            mut config,
            arena,
            builtins,
            streams,
        } = self;
        let configured = |database: String| arena::ArenaConfig {
            streams: streams.unwrap_or_default(),
            ..arena_config(database)
        };
        let (arena, dir) = match arena {
            ArenaData::None => (None, None),
            ArenaData::Memory => {
                let arena = arena::Arena::open(configured("sqlite::memory:".into()))
                    .await
                    .expect("open the arena");
                (Some(arena), None)
            }
            ArenaData::File(name) => {
                let dir = temp_dir(&name);
                let database = dir.path().join("arena.db").display().to_string();
                let arena = arena::Arena::open(configured(database))
                    .await
                    .expect("open the arena");
                (Some(arena), Some(dir))
            }
        };
        let builtins = match (&arena, builtins) {
            (Some(arena), true) => arena.register_builtins().await.expect("built-in bots"),
            (None, true) => panic!("built-in bots need an arena"),
            (_, false) => Vec::new(),
        };
        config.arena = arena;
        arena::client::install_crypto_provider();
        let running = build(config).expect("the server binds 127.0.0.1:0");
        let handle = running.server.handle();
        tokio::spawn(running.server);
        TestApp {
            base: format!("http://{}", running.addr),
            client: reqwest::Client::new(),
            builtins,
            handle,
            _dir: dir,
        }
    }
}

/// A reply: status, headers, and the JSON body (Null if not JSON).
pub struct Reply {
    pub status: u16,
    pub content_type: String,
    pub request_id: Option<String>,
    pub body: Value,
}

impl Reply {
    /// The `code` of a problem reply, asserting the problem+json shape.
    pub fn problem_code(&self) -> &str {
        assert_eq!(
            self.content_type, "application/problem+json",
            "{}: {}",
            self.status, self.body
        );
        for field in ["type", "title", "status", "detail", "code"] {
            assert!(
                self.body.get(field).is_some(),
                "missing {field}: {}",
                self.body
            );
        }
        assert_eq!(self.body["status"], self.status);
        self.body["code"].as_str().unwrap_or_default()
    }
}

/// A fresh temporary directory `cardroom-e2e-<name>-<random>`, removed when the guard is
/// dropped: when the test ends, passing or panicking.
pub fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("cardroom-e2e-{name}-"))
        .tempdir()
        .expect("temp dir")
}

/// An arena on a fresh SQLite file, with the temporary directory holding it: keep the guard as
/// long as the arena is in use.
pub async fn open_arena(name: &str) -> (arena::Arena, tempfile::TempDir) {
    let dir = temp_dir(name);
    let arena = arena::Arena::open(arena_config(
        dir.path().join("arena.db").to_string_lossy().to_string(),
    ))
    .await
    .expect("open the arena");
    (arena, dir)
}

/// The sealing key of sealed-mode tests.
pub fn test_key() -> SealKey {
    SealKey::from_bytes([0x5a; 32])
}

/// Starts a server in transparent mode.
pub async fn spawn_app() -> TestApp {
    spawn_with(StateCodec::transparent()).await
}

/// Starts a server with this codec (and a 64 KiB body limit, which the errors tests reach).
pub async fn spawn_with(codec: StateCodec) -> TestApp {
    ServerOptions::default()
        .codec(codec)
        .max_body_bytes(64 * 1024)
        .spawn()
        .await
}

impl TestApp {
    /// Stops the server, waiting for the requests in flight.
    pub async fn stop(self) {
        self.handle.stop(true).await;
    }

    async fn reply(response: reqwest::Response) -> Reply {
        let status = response.status().as_u16();
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        let content_type = header("content-type").unwrap_or_default();
        let request_id = header("x-request-id");
        let bytes = response.bytes().await.expect("a body");
        let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Reply {
            status,
            content_type,
            request_id,
            body,
        }
    }

    /// Polls a match until it has ended; asserts it finished and returns it.
    pub async fn wait_finished(&self, id: &str) -> Value {
        for _ in 0..2400 {
            let view = self.get(&format!("/v1/matches/{id}")).await.body;
            if view["status"] == "finished" || view["status"] == "aborted" {
                assert_eq!(view["status"], "finished", "{view}");
                return view;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        panic!("match {id} did not finish");
    }

    /// GET a path.
    pub async fn get(&self, path: &str) -> Reply {
        let response = self
            .client
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .expect("GET");
        Self::reply(response).await
    }

    /// Registers a URL bot at this server's own built-in `random` for `game` (a registered bot
    /// as the arena sees it: probed and called over HTTP), open to challenges so any test client
    /// may seat it; its id.
    pub async fn register_url_bot(&self, name: &str, game: &str) -> String {
        let reply = self
            .post(
                "/v1/bots",
                &json!({"name": name, "url": format!("{}/bots/random", self.base), "games": [game],
                        "open_to_challenges": true}),
            )
            .await;
        assert_eq!(reply.status, 201, "{}", reply.body);
        reply.body["id"].as_str().expect("bot id").to_string()
    }

    /// Creates a match (`POST /v1/matches` with `body`) and waits for its end (two minutes at
    /// most): its page.
    pub async fn play(&self, body: &Value) -> Value {
        let created = self.post("/v1/matches", body).await;
        assert_eq!(created.status, 202, "{}", created.body);
        let id = created.body["id"].as_str().expect("match id").to_string();
        for _ in 0..2400 {
            let shown = self.get(&format!("/v1/matches/{id}")).await.body;
            if shown["status"] == "finished" {
                return shown;
            }
            assert_ne!(shown["status"], "aborted", "{shown}");
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        panic!("match {id} did not finish");
    }

    /// GET a path and return the text.
    pub async fn get_text(&self, path: &str) -> (u16, String) {
        let response = self
            .client
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .expect("GET");
        let status = response.status().as_u16();
        (status, response.text().await.expect("text"))
    }

    /// POST raw bytes with a JSON content type.
    pub async fn post_raw(&self, path: &str, body: impl Into<reqwest::Body>) -> Reply {
        let response = self
            .client
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .expect("POST");
        Self::reply(response).await
    }

    /// POST a JSON value with `Authorization: Bearer <token>`.
    pub async fn post_as(&self, token: &str, path: &str, body: &Value) -> Reply {
        let response = self
            .client
            .post(format!("{}{path}", self.base))
            .bearer_auth(token)
            .json(body)
            .send()
            .await
            .expect("POST");
        Self::reply(response).await
    }

    /// POST a JSON value.
    pub async fn post(&self, path: &str, body: &Value) -> Reply {
        self.post_raw(path, serde_json::to_vec(body).expect("json"))
            .await
    }

    /// POST to `/v1/games/{game}/{op}`.
    pub async fn op(&self, game: &str, op: &str, body: &Value) -> Reply {
        self.post(&format!("/v1/games/{game}/{op}"), body).await
    }

    /// Starts a game of [`GAME`] and returns the step.
    pub async fn new_game(&self, players: usize, seed: u64) -> Value {
        let reply = self
            .op(GAME, "new", &json!({"players": players, "seed": seed}))
            .await;
        assert_eq!(reply.status, 200, "{}", reply.body);
        reply.body
    }

    /// Plays `moves` actions from a step, always the first legal action of the first seat to act.
    pub async fn advance(&self, mut step: Value, moves: usize) -> Value {
        for _ in 0..moves {
            if step["over"] == true {
                break;
            }
            let (seat, action) = first_legal(&step);
            let reply = self
                .op(
                    GAME,
                    "apply",
                    &json!({"state": step["state"], "seat": seat, "action": action}),
                )
                .await;
            assert_eq!(reply.status, 200, "{}", reply.body);
            step = reply.body;
        }
        step
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        // Stops the server without waiting (the runtime may be shutting down).
        drop(self.handle.stop(false));
    }
}

/// The first seat to act and its first legal action.
/// The replay request of a match as `GET /v1/matches/{id}` shows it: its `replay` block, whose
/// actions are the `seat` and `action` of its `moves`.
pub fn replay_request(matched: &Value) -> Value {
    let mut replay = matched["replay"].clone();
    if replay.get("actions").is_none() {
        let actions: Vec<Value> = matched["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .map(|m| json!({"seat": m["seat"], "action": m["action"]}))
            .collect();
        replay["actions"] = Value::from(actions);
    }
    replay
}

pub fn first_legal(step: &Value) -> (u64, Value) {
    let entry = &step["legal_actions"][0];
    let seat = entry["seat"].as_u64().expect("a seat to act");
    (seat, entry["actions"][0].clone())
}

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is inside the workspace")
        .to_path_buf()
}

/// Runs `command` to its end and returns its stdout; fails the test with both outputs unless it
/// succeeds (`what` names the step).
pub fn run(command: &mut Command, what: &str) -> String {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run {command:?}: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(
        output.status.success(),
        "{what} failed ({}):\n--- stdout\n{stdout}\n--- stderr\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// Runs `command`, which must fail (`what` names it): its error output.
pub fn run_refused(command: &mut Command, what: &str) -> String {
    let output = command
        .stdout(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run {command:?}: {e}"));
    assert!(!output.status.success(), "{what} succeeded");
    String::from_utf8_lossy(&output.stderr).to_string()
}

/// The executable `bin` that `cargo <args>` builds, run once per test run by the cargo running
/// the tests (`CARGO_BIN_EXE_*` exists only in the tests of the package that owns a binary).
pub fn cargo_binary(args: &[&str], bin: &str) -> PathBuf {
    static BUILT: Mutex<BTreeMap<String, PathBuf>> = Mutex::new(BTreeMap::new());
    let mut built = BUILT
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(path) = built.get(bin) {
        return path.clone();
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(&cargo);
    // Without the variables cargo sets for this test binary: build scripts that read one (ring's
    // reads CARGO_MANIFEST_DIR) would see it changed and rebuild, and the next `cargo test` again.
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        let set_for_tests = name.starts_with("CARGO_PKG_")
            || [
                "CARGO_MANIFEST_DIR",
                "CARGO_MANIFEST_PATH",
                "CARGO_CRATE_NAME",
                "CARGO_PRIMARY_PACKAGE",
            ]
            .contains(&name.as_ref());
        if set_for_tests {
            command.env_remove(name.as_ref());
        }
    }
    let output = command
        .args(args)
        .args(["--quiet", "--message-format=json-render-diagnostics"])
        .current_dir(workspace_root())
        .stderr(Stdio::inherit())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cargo}: {e}"));
    assert!(output.status.success(), "cargo {args:?} failed");
    let path = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|message| {
            message["target"]["name"] == bin && message["target"]["kind"] == json!(["bin"])
        })
        .find_map(|message| message["executable"].as_str().map(PathBuf::from))
        .unwrap_or_else(|| panic!("cargo {args:?} reports no {bin} executable"));
    built.insert(bin.to_string(), path.clone());
    path
}

/// The `cardroom` binary, built with the features of `cargo test --workspace` (the api package's
/// test `soak` needs it, with dev-dependencies on), so the binary that test run built is reused;
/// `cargo build -p api` would resolve other features and rebuild some 30 crates.
pub fn cardroom_binary() -> PathBuf {
    cargo_binary(
        &["test", "--workspace", "--no-run", "--test", "soak"],
        "cardroom",
    )
}

/// A child process, killed when dropped: a failing test leaves nothing running.
pub struct Process(pub Child);

impl Process {
    /// Starts `command`.
    pub fn spawn(command: &mut Command) -> Process {
        let child = command
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {command:?}: {e}"));
        Process(child)
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The `cardroom` binary with these arguments (`cardroom serve ...` to start a server process).
pub fn cardroom<I, S>(args: I) -> Command
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let mut command = Command::new(cardroom_binary());
    command.args(args);
    command
}

/// A port free on 127.0.0.1 now (for a process started with `--port`).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .expect("a free port")
}
