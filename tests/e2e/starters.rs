//! The starter bots of `examples/bots/` (JavaScript, Python, Rust), each started as its own
//! process the way its README says: registered over HTTP with a running server, restarted with
//! the signing secret the arena returned, and played against the built-in heuristic bot to the end
//! with no fault. Then `cardroom play` with `--bot-secret` plays a starter started with that secret.
//!
//! Never skipped: without `node` (20+) or `python3` on PATH the tests fail and say what to
//! install. The Rust starter is built with the cargo running the tests (`cargo build -p
//! cardroom-starter-bot`).

use crate::support::{GAME, ServerOptions, TestApp, cargo_binary, run, workspace_root};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// A starter bot in `examples/bots/<lang>/`.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Starter {
    JavaScript,
    Python,
    Rust,
}

impl Starter {
    /// The name the starter reports at `GET /` by default.
    fn name(self) -> &'static str {
        match self {
            Starter::JavaScript => "javascript-starter",
            Starter::Python => "python-starter",
            Starter::Rust => "rust-starter",
        }
    }

    /// The command that runs the starter on a free port, as its README does.
    fn command(self) -> Command {
        let root = workspace_root();
        match self {
            Starter::JavaScript => {
                let mut command = Command::new("node");
                command.arg(root.join("examples/bots/javascript/bot.mjs"));
                command
            }
            Starter::Python => {
                let mut command = Command::new("python3");
                command
                    .args(["-m", "cardroom_bot"])
                    .current_dir(root.join("examples/bots/python"))
                    .env("PYTHONDONTWRITEBYTECODE", "1");
                command
            }
            Starter::Rust => Command::new(cargo_binary(
                &[
                    "build",
                    "-p",
                    "cardroom-starter-bot",
                    "--bin",
                    "cardroom-rust-bot",
                ],
                "cardroom-rust-bot",
            )),
        }
    }
}

/// Fails the test with what to install if `program --version` does not run.
/// Whether the starter's language runs here; if not, the test is skipped (`SKIPPED:` line) and
/// returns.
fn runs_here(starter: Starter) -> bool {
    match starter {
        Starter::JavaScript => e2e::tool_or_skip("node", NODE),
        Starter::Python => e2e::tool_or_skip("python3", PYTHON),
        Starter::Rust => true,
    }
}

const NODE: &str = "Node.js 20 or later: apt-get install -y nodejs";
const PYTHON: &str = "Python 3.9 or later: apt-get install -y python3";

/// A running starter: killed when dropped.
struct BotProcess {
    child: Child,
    url: String,
    log: PathBuf,
}

impl BotProcess {
    /// Runs `command` (a starter's, with its mode's flags) with stdout piped and stderr in a log
    /// file, and returns the process with the first line it printed (within 60 s).
    fn spawn(starter: Starter, mut command: Command) -> (BotProcess, Option<String>) {
        let log = std::env::temp_dir().join(format!(
            "cardroom-starter-{}-{}-{}.log",
            starter.name(),
            std::process::id(),
            unique()
        ));
        command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).expect("a log file"));
        let mut child = command
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {command:?}: {e}"));
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            let _ = sender.send(lines.next());
            // Keep reading so the bot never writes into a closed pipe.
            for _ in lines {}
        });
        let first = match receiver.recv_timeout(Duration::from_secs(60)) {
            Ok(Some(Ok(line))) => Some(line),
            _ => None,
        };
        let bot = BotProcess {
            child,
            url: String::new(),
            log,
        };
        (bot, first)
    }

    /// Starts `starter` on a free port of 127.0.0.1, with `secret` as `CARDROOM_SIGNING_SECRET`
    /// (none: the bot accepts unsigned requests, as for its first registration probe).
    fn start(starter: Starter, secret: Option<&str>) -> BotProcess {
        let mut command = starter.command();
        command
            .args(["--port", "0", "--host", "127.0.0.1"])
            .env_remove("CARDROOM_SIGNING_SECRET");
        if let Some(secret) = secret {
            command.env("CARDROOM_SIGNING_SECRET", secret);
        }
        let (mut bot, first) = BotProcess::spawn(starter, command);
        match first
            .as_deref()
            .and_then(|line| line.strip_prefix("listening on "))
        {
            Some(url) => bot.url = url.to_string(),
            None => panic!(
                "{} did not print `listening on http://...` ({first:?}); its log:\n{}",
                starter.name(),
                bot.log_text()
            ),
        }
        bot
    }

    fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.log);
    }
}

fn unique() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos())
}

fn unix_seconds() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// A server with the arena (in-memory database, no ladder) and its built-in bots.
struct ArenaServer(TestApp);

impl ArenaServer {
    async fn start() -> ArenaServer {
        let app = ServerOptions::default()
            .arena_in_memory()
            .builtins()
            .spawn()
            .await;
        ArenaServer(app)
    }

    async fn send(&self, request: reqwest::RequestBuilder) -> (u16, Value) {
        let response = request.send().await.expect("the server answers");
        let status = response.status().as_u16();
        let body = response.json().await.unwrap_or(Value::Null);
        (status, body)
    }

    async fn get(&self, path: &str) -> (u16, Value) {
        self.send(self.0.client.get(format!("{}{path}", self.0.base)))
            .await
    }

    async fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        self.send(
            self.0
                .client
                .post(format!("{}{path}", self.0.base))
                .json(body),
        )
        .await
    }

    /// The id of the built-in bot `name`.
    async fn builtin(&self, name: &str) -> String {
        let (status, list) = self.get("/v1/bots").await;
        assert_eq!(status, 200, "{list}");
        list["bots"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|b| b["name"] == name && b["builtin"] == true)
            .and_then(|b| b["id"].as_str())
            .unwrap_or_else(|| panic!("no built-in bot {name} in {list}"))
            .to_string()
    }

    /// Plays `bot` in seat 0 against the built-in heuristic bot (5 s per move), as its owner
    /// (`token`), and returns the match once it has ended.
    async fn play_against_heuristic(&self, bot: &str, token: &str, seed: u64) -> Value {
        let heuristic = self.builtin("heuristic").await;
        let (status, created) = self
            .send(
                self.0
                    .client
                    .post(format!("{}/v1/matches", self.0.base))
                    .bearer_auth(token)
                    .json(&json!({"game": GAME, "bots": [bot, heuristic], "seed": seed, "deadline_ms": 5000})),
            )
            .await;
        assert_eq!(status, 202, "{created}");
        self.wait_for_end(created["id"].as_str().expect("match id"))
            .await
    }

    /// Polls the match until it has ended (at most three minutes on a slow machine).
    async fn wait_for_end(&self, id: &str) -> Value {
        let started = Instant::now();
        loop {
            let (status, view) = self.get(&format!("/v1/matches/{id}")).await;
            assert_eq!(status, 200, "{view}");
            if view["status"] == "finished" || view["status"] == "aborted" {
                return view;
            }
            assert!(
                started.elapsed() < Duration::from_secs(180),
                "match {id} still {} after 3 minutes",
                view["status"]
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

/// The bot refuses what the arena did not sign, or signed too long ago, and accepts the arena's
/// own signature.
async fn check_signatures(bot: &BotProcess, secret: &str, starter: Starter) {
    let http = reqwest::Client::new();
    let unsigned = http
        .get(format!("{}/", bot.url))
        .send()
        .await
        .expect("GET /");
    assert_eq!(
        unsigned.status().as_u16(),
        401,
        "{starter:?}: unsigned GET /"
    );

    let body = json!({"match": "m_0", "game": GAME, "seat": 0, "view": {}, "deadline_ms": 1000,
                      "legal_actions": [{"type": "draw"}]})
    .to_string();
    let stale = unix_seconds() - 3600;
    let replayed = http
        .post(format!("{}/move", bot.url))
        .header("X-Cardroom-Timestamp", stale.to_string())
        .header(
            "X-Cardroom-Signature",
            arena::client::sign(secret, stale, body.as_bytes()),
        )
        .header("content-type", "application/json")
        .body(body.clone())
        .send()
        .await
        .expect("POST /move");
    assert_eq!(
        replayed.status().as_u16(),
        401,
        "{starter:?}: a stale signature"
    );

    let now = unix_seconds();
    let forged = http
        .post(format!("{}/move", bot.url))
        .header("X-Cardroom-Timestamp", now.to_string())
        .header(
            "X-Cardroom-Signature",
            arena::client::sign("another secret", now, body.as_bytes()),
        )
        .header("content-type", "application/json")
        .body(body.clone())
        .send()
        .await
        .expect("POST /move");
    assert_eq!(
        forged.status().as_u16(),
        401,
        "{starter:?}: a forged signature"
    );

    // After a rotation the arena signs with the new secret and the replaced one: a bot still on
    // the replaced secret accepts the request by `X-Cardroom-Signature-Previous`.
    for (signature, previous, accepted) in [
        (secret, None, true),
        ("the new secret", Some(secret), true),
        ("the new secret", Some("another secret"), false),
    ] {
        let mut request = http
            .post(format!("{}/move", bot.url))
            .header("X-Cardroom-Timestamp", now.to_string())
            .header(
                "X-Cardroom-Signature",
                arena::client::sign(signature, now, body.as_bytes()),
            )
            .header("content-type", "application/json")
            .body(body.clone());
        if let Some(previous) = previous {
            request = request.header(
                "X-Cardroom-Signature-Previous",
                arena::client::sign(previous, now, body.as_bytes()),
            );
        }
        let answer = request.send().await.expect("POST /move");
        assert_eq!(
            answer.status().as_u16(),
            if accepted { 200 } else { 401 },
            "{starter:?}: signed with {signature:?}, previously {previous:?}"
        );
        if accepted {
            let answer: Value = answer.json().await.expect("JSON");
            assert_eq!(answer["action"], json!({"type": "draw"}), "{starter:?}");
        }
    }
}

/// Registers the starter, restarts it with its secret, rotates the secret (the bot keeps the
/// replaced one) and plays it against the heuristic bot.
async fn a_starter_plays_a_match_to_the_end_without_fault(starter: Starter) {
    if !runs_here(starter) {
        return;
    }
    let server = ArenaServer::start().await;
    let first = tokio::task::spawn_blocking(move || BotProcess::start(starter, None))
        .await
        .expect("start the bot");
    let (status, registered) = server
        .post(
            "/v1/bots",
            &json!({"name": format!("my-{}", starter.name()), "url": first.url, "games": [GAME]}),
        )
        .await;
    assert_eq!(status, 201, "{starter:?}: {registered}");
    let id = registered["id"].as_str().expect("bot id").to_string();
    let token = registered["token"].as_str().expect("token").to_string();
    let secret = registered["signing_secret"]
        .as_str()
        .expect("signing secret")
        .to_string();
    drop(first);

    // Restarted with its secret (on another free port, so the URL is updated: the arena probes
    // it again, signed).
    let bot = tokio::task::spawn_blocking({
        let secret = secret.clone();
        move || BotProcess::start(starter, Some(&secret))
    })
    .await
    .expect("restart the bot");
    check_signatures(&bot, &secret, starter).await;
    let (status, updated) = server
        .send(
            server
                .0
                .client
                .patch(format!("{}/v1/bots/{id}", server.0.base))
                .bearer_auth(&token)
                .json(&json!({"url": bot.url})),
        )
        .await;
    assert_eq!(status, 200, "{starter:?}: {updated}\n{}", bot.log_text());

    // The owner rotates the secret; the bot, still running with the replaced one, plays on by
    // the signature the arena keeps sending with it for 10 minutes.
    let (status, rotated) = server
        .send(
            server
                .0
                .client
                .post(format!("{}/v1/bots/{id}/secret", server.0.base))
                .bearer_auth(&token),
        )
        .await;
    assert_eq!(status, 200, "{starter:?}: {rotated}");
    assert_ne!(rotated["signing_secret"].as_str(), Some(secret.as_str()));

    let view = server.play_against_heuristic(&id, &token, 11).await;
    assert_eq!(view["status"], "finished", "{starter:?}: {view}");
    let moves = view["moves"].as_array().expect("moves");
    let faults: Vec<&Value> = moves
        .iter()
        .filter(|m| m["seat"] == 0 && !m["fault"].is_null())
        .map(|m| &m["fault"])
        .collect();
    assert!(
        faults.is_empty(),
        "{starter:?} faulted: {faults:?}\n{}",
        bot.log_text()
    );
    assert!(
        moves.iter().filter(|m| m["seat"] == 0).count() > 1,
        "{starter:?} played: {view}"
    );
    assert_eq!(view["result"]["faults"][0], 0, "{starter:?}: {view}");
    assert_eq!(view["result"]["disqualified"], json!([]), "{starter:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_javascript_starter_plays_a_match_to_the_end_without_fault() {
    a_starter_plays_a_match_to_the_end_without_fault(Starter::JavaScript).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_starter_plays_a_match_to_the_end_without_fault() {
    a_starter_plays_a_match_to_the_end_without_fault(Starter::Python).await;
}

/// Starts `starter` in stream mode (`--connect URL --token T`, as its README shows, plus
/// `extra` flags) and waits for its first line on stdout, `connected to URL`.
async fn connect_starter(starter: Starter, base: &str, token: &str, extra: &[&str]) -> BotProcess {
    let mut command = starter.command();
    command.args(["--connect", base, "--token", token]);
    command.args(extra);
    let (bot, first) = tokio::task::spawn_blocking(move || BotProcess::spawn(starter, command))
        .await
        .expect("start the starter");
    assert!(
        first
            .as_deref()
            .is_some_and(|line| line.starts_with("connected to ")),
        "{starter:?}: {first:?}\n{}",
        bot.log_text()
    );
    bot
}

/// A starter in stream mode connects out and plays a match against the heuristic bot to the
/// end without fault, searching its choices (`--search`: `/rollouts` from each line's `info`).
async fn a_starter_plays_a_match_to_the_end_over_its_stream(starter: Starter) {
    if !runs_here(starter) {
        return;
    }
    let server = ArenaServer::start().await;
    let (status, registered) = server
        .post(
            "/v1/bots",
            &json!({"name": format!("my-{}-stream", starter.name()), "transport": "stream", "games": [GAME]}),
        )
        .await;
    assert_eq!(status, 201, "{registered}");
    let id = registered["id"].as_str().expect("bot id").to_string();
    let token = registered["token"].as_str().expect("token").to_string();
    let base = server.0.base.clone();
    let bot = connect_starter(
        starter,
        &base,
        &token,
        &["--search", &base, "--playouts", "4"],
    )
    .await;

    let view = server.play_against_heuristic(&id, &token, 13).await;
    assert_eq!(view["status"], "finished", "{view}\n{}", bot.log_text());
    assert_eq!(view["result"]["faults"][0], 0, "{view}\n{}", bot.log_text());
    let comments: Vec<&str> = view["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .filter(|m| m["seat"] == 0)
        .map(|m| m["comment"].as_str().unwrap_or_default())
        .collect();
    assert!(comments.len() > 1, "{view}");
    // Every choice was searched (the others were forced), none fell back.
    assert!(
        comments
            .iter()
            .any(|c| c.starts_with("rollouts: 4 per action"))
            && comments
                .iter()
                .all(|c| c.starts_with("rollouts: ") || *c == "forced"),
        "{comments:?}\n{}",
        bot.log_text()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_starter_plays_a_match_to_the_end_over_its_stream() {
    a_starter_plays_a_match_to_the_end_over_its_stream(Starter::Python).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_javascript_starter_plays_a_match_to_the_end_over_its_stream() {
    a_starter_plays_a_match_to_the_end_over_its_stream(Starter::JavaScript).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rust_starter_plays_a_match_to_the_end_over_its_stream() {
    a_starter_plays_a_match_to_the_end_over_its_stream(Starter::Rust).await;
}

/// `cardroom play --bot stream:NAME` serves the arena for the stream bot, prints the command
/// line to start it with, and plays the match once it is connected.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cardroom_play_seats_a_stream_bot() {
    if !runs_here(Starter::JavaScript) {
        return;
    }
    use api::cli::{Cli, Command as Sub};
    use clap::Parser as _;

    let cli = Cli::try_parse_from([
        "cardroom",
        "play",
        "--game",
        GAME,
        "--bot",
        "stream:mine",
        "--bot",
        "heuristic",
        "--seed",
        "9",
        "--deadline-ms",
        "5000",
        "--connect-wait",
        "60",
    ])
    .expect("the play flags parse");
    let Sub::Play(args) = cli.command else {
        panic!("`cardroom play` parses as Play");
    };
    // `play` writes the `--connect` line first; a pipe hands it to the bot starter below.
    let (reader, mut writer) = std::io::pipe().expect("a pipe");
    // On its own thread and actix system, as `cardroom play` runs (it serves HTTP meanwhile).
    let played = std::thread::spawn(move || {
        let mut tee = Vec::new();
        let result = actix_web::rt::System::new()
            .block_on(async { arena::play(&args, &mut TeeWriter(&mut writer, &mut tee)).await });
        (result, String::from_utf8(tee).expect("UTF-8"))
    });
    let connect_line = tokio::task::spawn_blocking(move || {
        BufReader::new(reader)
            .lines()
            .map_while(Result::ok)
            .find(|line| line.contains("--connect "))
    })
    .await
    .expect("read the output")
    .expect("play prints how to start the stream bot");
    let words: Vec<&str> = connect_line.split_whitespace().collect();
    let after = |flag: &str| {
        let at = words.iter().position(|w| *w == flag).expect(flag);
        words[at + 1].to_string()
    };
    let bot = connect_starter(
        Starter::JavaScript,
        &after("--connect"),
        &after("--token"),
        &[],
    )
    .await;
    let (result, text) = tokio::task::spawn_blocking(move || played.join().expect("play ran"))
        .await
        .expect("join");
    let result = result.unwrap_or_else(|e| panic!("{e}\n{text}\n{}", bot.log_text()));
    assert_eq!(
        result["faults"],
        json!([0, 0]),
        "{text}\n{}",
        bot.log_text()
    );
    assert!(text.contains("seat 0: mine (stream bot)"), "{text}");
    assert!(text.contains("seat 0 mine "), "moves name the bot: {text}");
    assert!(text.contains("result after "), "{text}");
}

/// Writes to both: the pipe the test reads while `play` runs, and a copy for the assertions.
struct TeeWriter<'a>(&'a mut std::io::PipeWriter, &'a mut Vec<u8>);

impl std::io::Write for TeeWriter<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.1.extend_from_slice(bytes);
        // The reader stops reading once it has the line it wants: a closed pipe is fine.
        let _ = self.0.write_all(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let _ = self.0.flush();
        Ok(())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rust_starter_plays_a_match_to_the_end_without_fault() {
    a_starter_plays_a_match_to_the_end_without_fault(Starter::Rust).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cardroom_play_with_the_bot_secret_plays_a_starter_to_the_end() {
    use api::cli::{Cli, Command as Sub};
    use clap::Parser as _;
    if !runs_here(Starter::JavaScript) {
        return;
    }

    let secret = format!("local-secret-{}", unique());
    let bot = tokio::task::spawn_blocking({
        let secret = secret.clone();
        move || BotProcess::start(Starter::JavaScript, Some(&secret))
    })
    .await
    .expect("start the bot");
    let cli = Cli::try_parse_from([
        "cardroom",
        "play",
        "--game",
        GAME,
        "--bot",
        &bot.url,
        "--bot",
        "heuristic",
        "--bot-secret",
        &secret,
        "--seed",
        "5",
        "--deadline-ms",
        "5000",
    ])
    .expect("the play flags parse");
    let Sub::Play(mut args) = cli.command else {
        panic!("`cardroom play` parses as Play");
    };
    let mut out = Vec::new();
    let result = arena::play(&args, &mut out)
        .await
        .expect("the match is played");
    let text = String::from_utf8(out).expect("UTF-8");
    assert_eq!(
        result["faults"],
        json!([0, 0]),
        "{text}\n{}",
        bot.log_text()
    );
    assert!(
        text.contains("seat 0: javascript-starter 1.0.0 by cardroom starter"),
        "{text}"
    );
    assert!(
        text.contains("seat 0 javascript-starter "),
        "moves name the bot: {text}"
    );
    assert!(text.contains("      -- deal "), "deals are shown: {text}");
    assert!(text.contains("result after "), "{text}");

    // Without the secret the bot refuses the arena's signature, and `play` says what to do.
    args.bot_secrets.clear();
    let error = arena::play(&args, &mut Vec::new())
        .await
        .expect_err("the bot refuses an unknown secret");
    let message = error.to_string();
    assert!(
        message.contains("HTTP 401") && message.contains("--bot-secret"),
        "{message}"
    );
}

#[test]
fn the_javascript_and_python_starters_pass_their_own_unit_tests() {
    let root = workspace_root();
    if !runs_here(Starter::JavaScript) || !runs_here(Starter::Python) {
        return;
    }
    let mut node = Command::new("node");
    node.args(["--test", "examples/bots/javascript/"])
        .current_dir(&root);
    run(&mut node, "node --test examples/bots/javascript/");
    let mut python = Command::new("python3");
    python
        .args(["-m", "unittest", "discover", "-s", "tests"])
        .current_dir(root.join("examples/bots/python"))
        .env("PYTHONDONTWRITEBYTECODE", "1");
    run(&mut python, "python3 -m unittest (examples/bots/python)");
}
