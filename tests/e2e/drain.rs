//! A deploy costs no match, as real `cardroom` processes on one SQLite file: ranked matches
//! between a stream bot and URL bots are playing (paced, so they outlast the drain) when the
//! server gets SIGTERM. While it drains (`--drain-secs`) `/readyz` answers 503 `not_ready`, its
//! listener stays open and the matches go on (the stream bot's answers are taken); then the
//! stream bot's last line is `server_restarting`, a watcher's last event is `server_restarting`,
//! and the process exits cleanly, the matches left stopped at a move boundary. Restarted on the
//! same file, the server resumes them: every match finishes exactly once, with no fault and no
//! abort, its moves contiguous, and the watcher resumes after its `Last-Event-ID`.

use crate::stream_bus::spawn_url_bot;
use crate::support::{GAME, Process, cardroom, free_port, temp_dir};
use serde_json::{Value, json};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const ADMIN: &str = "drain-test-admin-token";
/// Short, so the test is quick; long enough for moves to be played while the process drains.
const DRAIN_SECS: &str = "2";
/// Each match holds every move this long: a match outlasts the drain.
const PACE_MS: u64 = 250;

/// `cardroom serve` on `database`, listening on `port`, its log appended to `log`.
fn serve(database: &Path, port: u16, log: &Path) -> Process {
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .expect("log file");
    let mut command = cardroom([
        "serve",
        "--database",
        &database.to_string_lossy(),
        "--port",
        &port.to_string(),
        "--no-ladder",
        "--admin-token",
        ADMIN,
        "--drain-secs",
        DRAIN_SECS,
        "--log",
        "info",
    ]);
    command
        .env("CARDROOM_ADMIN_LISTEN", "off")
        .stdout(Stdio::null())
        .stderr(log);
    Process::spawn(&mut command)
}

async fn wait_ready(http: &reqwest::Client, base: &str, deadline: Instant) {
    loop {
        if let Ok(response) = http.get(format!("{base}/readyz")).send().await
            && response.status() == 200
        {
            return;
        }
        assert!(Instant::now() < deadline, "{base} did not become ready");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn post(http: &reqwest::Client, url: String, token: &str, body: &Value) -> (u16, Value) {
    let response = http
        .post(url)
        .bearer_auth(token)
        .json(body)
        .send()
        .await
        .expect("post");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn show(http: &reqwest::Client, base: &str, id: &str) -> Option<Value> {
    let response = http
        .get(format!("{base}/v1/matches/{id}"))
        .send()
        .await
        .ok()?;
    response.json().await.ok()
}

fn moves(shown: &Value) -> usize {
    shown["moves"].as_array().map_or(0, Vec::len)
}

/// What the stream bot saw: the type of every line, and how its answers were taken.
#[derive(Debug, Default)]
struct Seen {
    kinds: Vec<String>,
    /// Answer statuses other than 204 (taken) and 409 (a request made void by the drain).
    refused: Vec<u16>,
    answered: usize,
}

/// A stream bot playing its first legal action, connecting again whenever its stream ends
/// (as after `server_restarting`) until `until`.
async fn stream_bot(base: String, token: String, seen: Arc<Mutex<Seen>>, until: Instant) {
    let http = reqwest::Client::new();
    while Instant::now() < until {
        let response = match http
            .get(format!("{base}/v1/bot/stream?replace=true"))
            .bearer_auth(&token)
            .send()
            .await
        {
            Ok(response) if response.status() == 200 => response,
            // The server is restarting: try again.
            _ => {
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let mut lines = e2e::ndjson_lines(response);
        while let Some(line) = lines.recv().await {
            let kind = line["type"].as_str().unwrap_or_default().to_string();
            seen.lock().expect("seen").kinds.push(kind.clone());
            if kind != "move" {
                continue;
            }
            let match_id = line["match_id"].as_str().expect("match_id");
            let answer = http
                .post(format!("{base}/v1/bot/matches/{match_id}/move"))
                .bearer_auth(&token)
                .json(
                    &json!({"request_id": line["request_id"], "action": line["legal_actions"][0]}),
                )
                .send()
                .await;
            let mut seen = seen.lock().expect("seen");
            match answer.map(|r| r.status().as_u16()) {
                Ok(204) => seen.answered += 1,
                Ok(409) | Err(_) => {}
                Ok(status) => seen.refused.push(status),
            }
        }
    }
}

/// Reads a match's live stream (after move `last`, if given) until it closes: the name of every
/// event and the index of every move.
async fn watch(base: String, id: String, last: Option<u64>) -> (Vec<String>, Vec<u64>) {
    let mut request = reqwest::Client::new().get(format!("{base}/v1/matches/{id}/events"));
    if let Some(last) = last {
        request = request.header("last-event-id", last.to_string());
    }
    let mut response = request.send().await.expect("events");
    assert_eq!(response.status(), 200);
    let (mut text, mut names, mut indices) = (String::new(), Vec::new(), Vec::new());
    while let Ok(Some(chunk)) = response.chunk().await {
        text.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = text.find("\n\n") {
            let event: String = text.drain(..end + 2).collect();
            let Some(name) = event.lines().find_map(|l| l.strip_prefix("event: ")) else {
                continue;
            };
            names.push(name.to_string());
            if name == "move" {
                let data = event.lines().find_map(|l| l.strip_prefix("data: "));
                let parsed: Value = serde_json::from_str(data.expect("data")).expect("move");
                indices.push(parsed["index"].as_u64().expect("index"));
            }
        }
    }
    (names, indices)
}

/// Sends SIGTERM to `process`, as a deploy does.
fn terminate(process: &Process) {
    let status = Command::new("kill")
        .args(["-TERM", &process.0.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success(), "kill -TERM");
}

/// Waits for `process` to exit by itself; its exit status.
async fn exited(process: &mut Process, deadline: Instant) -> std::process::ExitStatus {
    loop {
        if let Some(status) = process.0.try_wait().expect("try_wait") {
            return status;
        }
        assert!(Instant::now() < deadline, "the process did not stop");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deploy_mid_match_costs_no_match_and_charges_no_fault() {
    arena::client::install_crypto_provider();
    // Built first (the first test to need it builds it): the deadline is the test's own.
    crate::support::cardroom_binary();
    let deadline = Instant::now() + Duration::from_secs(240);
    let dir = temp_dir("drain");
    let database = dir.path().join("arena.db");
    let log = dir.path().join("server.log");
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let http = reqwest::Client::new();
    let mut first = serve(&database, port, &log);
    wait_ready(&http, &base, deadline).await;

    let (status, streamer) = post(
        &http,
        format!("{base}/v1/bots"),
        "",
        &json!({"name": "streamer", "transport": "stream", "games": [GAME]}),
    )
    .await;
    assert_eq!(status, 201, "{streamer}");
    let stream_id = streamer["id"].as_str().expect("id").to_string();
    let token = streamer["token"].as_str().expect("token").to_string();
    let mut url_ids = Vec::new();
    for name in ["url one", "url two"] {
        let (status, bot) = post(
            &http,
            format!("{base}/v1/bots"),
            "",
            &json!({"name": name, "url": spawn_url_bot(), "games": [GAME]}),
        )
        .await;
        assert_eq!(status, 201, "{bot}");
        url_ids.push(bot["id"].as_str().expect("id").to_string());
    }
    let seen = Arc::new(Mutex::new(Seen::default()));
    let bot = tokio::spawn(stream_bot(base.clone(), token, seen.clone(), deadline));

    let seatings = [
        [&stream_id, &url_ids[0]],
        [&url_ids[0], &url_ids[1]],
        [&url_ids[1], &stream_id],
    ];
    let mut ids = Vec::new();
    for bots in &seatings {
        let (status, created) = post(
            &http,
            format!("{base}/v1/matches"),
            ADMIN,
            &json!({"game": GAME, "bots": bots, "ranked": true, "pace_ms": PACE_MS}),
        )
        .await;
        assert_eq!(status, 202, "{created}");
        ids.push(created["id"].as_str().expect("id").to_string());
    }
    let watcher = tokio::spawn(watch(base.clone(), ids[0].clone(), None));

    // Mid-match: every match has played a few moves.
    for id in &ids {
        while show(&http, &base, id).await.map_or(0, |s| moves(&s)) < 3 {
            assert!(Instant::now() < deadline, "match {id} did not start");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    let at_signal = moves(&show(&http, &base, &ids[0]).await.expect("shown"));
    terminate(&first);

    // Draining: not ready, yet the listener takes the stream bot's answers and the matches go on.
    let not_ready = loop {
        let response = http
            .get(format!("{base}/readyz"))
            .send()
            .await
            .expect("the listener stays open while the process drains");
        if response.status() == 503 {
            break response.json::<Value>().await.expect("problem");
        }
        assert!(Instant::now() < deadline, "/readyz stayed ready");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(not_ready["code"], "not_ready", "{not_ready}");
    assert!(
        not_ready["detail"]
            .as_str()
            .is_some_and(|d| d.contains("draining")),
        "{not_ready}"
    );
    let mut during_drain = at_signal;
    while let Some(shown) = show(&http, &base, &ids[0]).await {
        during_drain = during_drain.max(moves(&shown));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let status = exited(&mut first, deadline).await;
    assert!(
        status.success(),
        "the drained process exits cleanly: {status}"
    );
    let log_text = || std::fs::read_to_string(&log).expect("log");
    assert!(
        during_drain > at_signal,
        "the stream bot's match went on while the process drained ({at_signal} -> {during_drain})\n{}",
        log_text()
    );
    let suspended = log_text().matches("match suspended").count();
    assert!(
        suspended >= 1,
        "a match outlasted the drain and was stopped at a move boundary\n{}",
        log_text()
    );

    // The watcher's last event says the server restarts; its moves so far, in order.
    let (names, indices) = tokio::time::timeout(Duration::from_secs(30), watcher)
        .await
        .expect("the live stream closes with the process")
        .expect("watcher");
    assert_eq!(
        names.last().map(String::as_str),
        Some("server_restarting"),
        "{names:?}"
    );
    assert_eq!(indices, (0..indices.len() as u64).collect::<Vec<_>>());

    // The same file, a new process: the matches resume and finish, nothing charged.
    let mut second = serve(&database, port, &log);
    wait_ready(&http, &base, deadline).await;
    let last = indices.last().copied();
    let rewatch = tokio::spawn(watch(base.clone(), ids[0].clone(), last));
    for id in &ids {
        let shown = loop {
            let shown = show(&http, &base, id).await.unwrap_or(Value::Null);
            if shown["status"] == "finished" || shown["status"] == "aborted" {
                break shown;
            }
            assert!(Instant::now() < deadline, "match {id} did not finish");
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        assert_eq!(shown["status"], "finished", "{shown}");
        let played = shown["moves"].as_array().expect("moves");
        for played in played {
            assert!(played["fault"].is_null(), "no fault charged: {played}");
        }
        let faults = shown["result"]["faults"].as_array().expect("faults");
        assert!(faults.iter().all(|n| n == 0), "{shown}");
        assert!(
            shown["result"]["disqualified"]
                .as_array()
                .is_none_or(Vec::is_empty),
            "{shown}"
        );
        let finished = log_text()
            .lines()
            .filter(|line| line.contains("match finished") && line.contains(id.as_str()))
            .count();
        assert_eq!(finished, 1, "match {id} finished exactly once");
    }
    let (names, rest) = tokio::time::timeout(Duration::from_secs(30), rewatch)
        .await
        .expect("the live stream ends with the match")
        .expect("watcher");
    assert_eq!(names.last().map(String::as_str), Some("end"), "{names:?}");
    let from = last.map_or(0, |l| l + 1);
    assert_eq!(
        rest,
        (from..from + rest.len() as u64).collect::<Vec<_>>(),
        "the watcher resumed after its last move"
    );
    {
        let seen = seen.lock().expect("seen");
        assert!(
            seen.kinds.iter().any(|k| k == "server_restarting"),
            "{:?}",
            seen.kinds
        );
        assert!(seen.refused.is_empty(), "{:?}", seen.refused);
        assert!(seen.answered > 0);
        eprintln!(
            "drain: {} matches, {suspended} stopped at a move boundary by the drain; the watched match \
             {at_signal} -> {during_drain} moves while draining; the stream bot answered {} moves, \
             lines {:?}",
            ids.len(),
            seen.answered,
            seen.kinds
                .iter()
                .filter(|k| *k != "move")
                .collect::<Vec<_>>()
        );
    }
    bot.abort();

    // An idle process stops at once, cleanly.
    terminate(&second);
    let status = exited(&mut second, deadline).await;
    assert!(status.success(), "{status}");
}
