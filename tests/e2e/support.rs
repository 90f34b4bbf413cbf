//! Spawning the server and talking to it.

use api::codec::{SealKey, StateCodec};
use api::startup::{ServeConfig, build};
use serde_json::{Value, json};
use std::path::PathBuf;

/// The game the end-to-end tests play.
pub const GAME: &str = "twenty_two";

/// A running server and a client for it.
pub struct TestApp {
    /// `http://127.0.0.1:<port>`.
    pub base: String,
    /// The HTTP client.
    pub client: reqwest::Client,
    handle: actix_web::dev::ServerHandle,
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
    let arena = arena::Arena::open(arena::ArenaConfig::local(
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

/// Starts a server with this codec.
pub async fn spawn_with(codec: StateCodec) -> TestApp {
    let config = ServeConfig {
        port: 0,
        codec,
        workers: Some(1),
        handle_signals: false,
        max_body_bytes: 64 * 1024,
        ..ServeConfig::default()
    };
    arena::client::install_crypto_provider();
    let running = build(config).expect("the server binds 127.0.0.1:0");
    let handle = running.server.handle();
    tokio::spawn(running.server);
    TestApp {
        base: format!("http://{}", running.addr),
        client: reqwest::Client::new(),
        handle,
    }
}

impl TestApp {
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
