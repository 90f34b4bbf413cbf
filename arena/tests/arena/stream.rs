//! Stream bots over real HTTP: a bot that connects out (`GET /v1/bot/stream`) plays whole
//! matches against URL bots, answers by `POST /v1/bot/matches/{id}/move` (204, 409
//! `stale_request`, 422 `illegal_action` charged as a fault), gets its pending move again (with
//! the time it has left) when it reconnects, has one connection (a second is 409
//! `already_connected` unless it replaces the first), and is scheduled by the ladder only while
//! connected. (Outages and the reconnect grace: grace.rs.)

use crate::support::{Behavior, register, spawn_app, spawn_arena, spawn_bot, two_player_game};
use serde_json::{Value, json};
use std::time::Duration;
use tokio::sync::mpsc;

/// How long a test waits for one line before it fails.
pub(crate) const LINE_WAIT: Duration = Duration::from_secs(20);

/// A stream connection read line by line (empty keep-alive lines skipped); `None` once the
/// server ended it.
pub(crate) struct Stream {
    lines: mpsc::Receiver<Value>,
}

impl Stream {
    pub(crate) async fn connect(base: &str, token: &str) -> (u16, Option<String>, Stream) {
        Stream::connect_to(base, token, "").await
    }

    /// Connects with a query (`?replace=true`).
    pub(crate) async fn connect_to(
        base: &str,
        token: &str,
        query: &str,
    ) -> (u16, Option<String>, Stream) {
        arena::client::install_crypto_provider();
        let response = reqwest::Client::new()
            .get(format!("{base}/v1/bot/stream{query}"))
            .bearer_auth(token)
            .send()
            .await
            .expect("connect");
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let lines = e2e::ndjson_lines(response);
        (status, content_type, Stream { lines })
    }

    pub(crate) async fn next(&mut self) -> Option<Value> {
        tokio::time::timeout(LINE_WAIT, self.lines.recv())
            .await
            .expect("a line in time")
    }

    /// The next line of `kind`, skipping the others.
    pub(crate) async fn next_of(&mut self, kind: &str) -> Value {
        loop {
            let line = self.next().await.expect("the stream is open");
            if line["type"] == kind {
                return line;
            }
        }
    }
}

pub(crate) async fn post(
    base: &str,
    path: &str,
    token: Option<&str>,
    body: &Value,
) -> (u16, Value) {
    let mut request = reqwest::Client::new()
        .post(format!("{base}{path}"))
        .json(body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.expect("send");
    let status = response.status().as_u16();
    let text = response.text().await.expect("body");
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

pub(crate) async fn get(base: &str, path: &str) -> Value {
    reqwest::get(format!("{base}{path}"))
        .await
        .expect("get")
        .json()
        .await
        .expect("json")
}

/// Registers a stream bot over HTTP; returns (id, token).
pub(crate) async fn register_stream_bot(base: &str, name: &str, game: &str) -> (String, String) {
    let (status, body) = post(
        base,
        "/v1/bots",
        None,
        &json!({"name": name, "transport": "stream", "games": [game]}),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    assert!(body.get("url").is_none(), "a stream bot has no url: {body}");
    assert_eq!(body["bot"]["transport"], "stream");
    (
        body["id"].as_str().expect("id").to_string(),
        body["token"].as_str().expect("token").to_string(),
    )
}

pub(crate) async fn answer(base: &str, token: &str, line: &Value, action: &Value) -> (u16, Value) {
    post(
        base,
        &format!(
            "/v1/bot/matches/{}/move",
            line["match_id"].as_str().expect("match_id")
        ),
        Some(token),
        &json!({"request_id": line["request_id"], "action": action, "comment": "streamed"}),
    )
    .await
}

/// Answers every `move` line with its first legal action until `match_end`; returns the end.
pub(crate) async fn play_to_the_end(base: &str, token: &str, stream: &mut Stream) -> Value {
    loop {
        let line = stream.next().await.expect("the stream is open");
        match line["type"].as_str() {
            Some("move") => {
                let (status, body) = answer(base, token, &line, &line["legal_actions"][0]).await;
                assert_eq!(status, 204, "{body}");
            }
            Some("match_end") => return line,
            _ => {}
        }
    }
}

pub(crate) async fn wait_finished(base: &str, match_id: &str) -> Value {
    for _ in 0..200 {
        let shown = get(base, &format!("/v1/matches/{match_id}")).await;
        if shown["status"] == "finished" || shown["status"] == "aborted" {
            return shown;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("match {match_id} did not end");
}

#[tokio::test]
async fn a_stream_bot_plays_a_whole_match_against_a_url_bot() {
    let arena = spawn_arena("stream-match").await;
    let base = spawn_app(&arena).await;
    let game = two_player_game();
    let (stream_id, token) = register_stream_bot(&base, "streamer", &game).await;
    let url_bot = spawn_bot(Behavior::Good).await;
    let url_id = register(&arena, &url_bot, &game).await;

    // Without the owner token, or with a URL bot's, no stream.
    let (status, _, _) = Stream::connect(&base, "not a token").await;
    assert_eq!(status, 401);
    let (status, content_type, mut stream) = Stream::connect(&base, &token).await;
    assert_eq!(status, 200);
    assert_eq!(content_type.as_deref(), Some("application/x-ndjson"));

    let (status, created) = post(
        &base,
        "/v1/matches",
        Some(&token),
        &json!({"game": game, "bots": [stream_id, url_id], "deadline_ms": 5000, "seed": 7}),
    )
    .await;
    assert_eq!(status, 202, "{created}");
    let match_id = created["id"].as_str().expect("id").to_string();

    // The start comes first, then the first move: nothing is skipped.
    let start = stream.next().await.expect("the stream is open");
    assert_eq!(start["type"], "match_start", "{start}");
    assert_eq!(start["match_id"], match_id.as_str());
    assert_eq!(start["match"], match_id.as_str());
    assert_eq!(start["seat"], 0);
    // The first move: the fields of a URL bot's move request, and what the answer names.
    let first = stream.next().await.expect("the stream is open");
    assert_eq!(first["type"], "move", "{first}");
    assert_eq!(first["match"], match_id.as_str());
    assert_eq!(first["history_from"], 0);
    assert!(first["history"].is_array() && first["view"].is_object());
    assert!(
        first["request_id"]
            .as_str()
            .is_some_and(|id| !id.is_empty())
    );
    let action = first["legal_actions"][0].clone();
    let (status, body) = answer(&base, &token, &first, &action).await;
    assert_eq!(status, 204, "{body}");
    // The same request again: taken already.
    let (status, body) = answer(&base, &token, &first, &action).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("stale_request"))
    );

    let end = play_to_the_end(&base, &token, &mut stream).await;
    assert_eq!(end["match_id"], match_id.as_str());
    let shown = wait_finished(&base, &match_id).await;
    assert_eq!(shown["status"], "finished", "{shown}");
    assert_eq!(shown["result"]["faults"], json!([0, 0]), "{shown}");
    assert!(
        url_bot
            .seen
            .requests
            .load(std::sync::atomic::Ordering::Relaxed)
            > 0
    );
    let comments: Vec<&Value> = shown["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .filter(|m| m["seat"] == 0)
        .map(|m| &m["comment"])
        .collect();
    assert!(!comments.is_empty() && comments.iter().all(|c| *c == "streamed"));
}

#[tokio::test]
async fn an_illegal_answer_is_422_and_a_fault() {
    let arena = spawn_arena("stream-illegal").await;
    let base = spawn_app(&arena).await;
    let game = two_player_game();
    let (stream_id, token) = register_stream_bot(&base, "illegal streamer", &game).await;
    let url_bot = spawn_bot(Behavior::Good).await;
    let url_id = register(&arena, &url_bot, &game).await;
    let (_, _, mut stream) = Stream::connect(&base, &token).await;
    let (_, created) = post(
        &base,
        "/v1/matches",
        Some(&token),
        &json!({"game": game, "bots": [stream_id, url_id], "deadline_ms": 5000, "seed": 3}),
    )
    .await;
    let match_id = created["id"].as_str().expect("id").to_string();

    let first = stream.next_of("move").await;
    let (status, body) = answer(&base, &token, &first, &json!({"type": "no such move"})).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (422, Some("illegal_action"))
    );
    // Another bot's token: it holds no seat here.
    let (_, other_token) = register_stream_bot(&base, "bystander", &game).await;
    let (status, body) = answer(&base, &other_token, &first, &json!({})).await;
    assert_eq!((status, body["code"].as_str()), (403, Some("forbidden")));

    play_to_the_end(&base, &token, &mut stream).await;
    let shown = wait_finished(&base, &match_id).await;
    assert_eq!(shown["result"]["faults"][0], 1, "{shown}");
    let faulted = &shown["moves"][first_move_index(&shown)]["fault"];
    assert_eq!(faulted["kind"], "illegal_action", "{shown}");
    assert_eq!(
        faulted["answer"]["body"],
        json!({"type": "no such move"}).to_string()
    );
}

/// The index of seat 0's first move (the stream bot's).
fn first_move_index(shown: &Value) -> usize {
    shown["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .position(|m| m["seat"] == 0)
        .expect("a move of seat 0")
}

#[tokio::test]
async fn a_reconnecting_bot_gets_its_pending_move_and_replaces_its_first_connection() {
    let arena = spawn_arena("stream-reconnect").await;
    let base = spawn_app(&arena).await;
    let game = two_player_game();
    let (stream_id, token) = register_stream_bot(&base, "reconnecting", &game).await;
    let url_bot = spawn_bot(Behavior::Good).await;
    let url_id = register(&arena, &url_bot, &game).await;
    let (_, _, mut first) = Stream::connect(&base, &token).await;
    let (_, created) = post(
        &base,
        "/v1/matches",
        Some(&token),
        &json!({"game": game, "bots": [stream_id, url_id], "deadline_ms": 10000, "seed": 5}),
    )
    .await;
    let match_id = created["id"].as_str().expect("id").to_string();
    let pending = first.next_of("move").await;

    // A second connection is refused while the first is open (it would take its moves)...
    let (status, _, _) = Stream::connect(&base, &token).await;
    assert_eq!(status, 409, "already_connected");
    // ...unless it replaces it: the pending move at once, and the first connection ends.
    let (status, _, mut second) = Stream::connect_to(&base, &token, "?replace=true").await;
    assert_eq!(status, 200);
    let again = second.next_of("move").await;
    // The same request, whole, with the time it has left.
    let left = |line: &Value| line["deadline_ms"].as_u64().expect("deadline_ms");
    assert!(
        left(&again) <= left(&pending) && left(&again) > 0,
        "{again}"
    );
    let without_time = |line: &Value| {
        let mut line = line.clone();
        line.as_object_mut().expect("a line").remove("deadline_ms");
        line
    };
    assert_eq!(without_time(&again), without_time(&pending));
    loop {
        match first.next().await {
            None => break,
            Some(line) => assert_ne!(line["type"], "move", "the replaced stream gets no moves"),
        }
    }
    let shown = get(&base, &format!("/v1/matches/{match_id}")).await;
    assert_eq!(shown["status"], "running");

    let (status, body) = answer(&base, &token, &again, &again["legal_actions"][0]).await;
    assert_eq!(status, 204, "{body}");
    play_to_the_end(&base, &token, &mut second).await;
    let shown = wait_finished(&base, &match_id).await;
    assert_eq!(shown["result"]["faults"], json!([0, 0]), "{shown}");
}

#[tokio::test]
async fn the_ladder_schedules_a_stream_bot_only_while_it_is_connected() {
    let arena = spawn_arena("stream-ladder").await;
    let base = spawn_app(&arena).await;
    let game = two_player_game();
    let (stream_id, token) = register_stream_bot(&base, "sometimes there", &game).await;
    let url_bot = spawn_bot(Behavior::Good).await;
    register(&arena, &url_bot, &game).await;

    // Not connected: the URL bot alone is no table.
    let scheduled = arena::ladder::round(&arena).await.expect("round");
    assert!(scheduled.is_empty(), "{scheduled:?}");
    let bot = get(&base, &format!("/v1/bots/{stream_id}")).await;
    assert_eq!(
        bot["paused"], false,
        "not connected is not a failure: {bot}"
    );

    let (_, _, mut stream) = Stream::connect(&base, &token).await;
    let scheduled = arena::ladder::round(&arena).await.expect("round");
    assert_eq!(scheduled.len(), 1, "{scheduled:?}");
    let shown = get(&base, &format!("/v1/matches/{}", scheduled[0])).await;
    assert!(
        shown["seats"]
            .as_array()
            .expect("seats")
            .iter()
            .any(|s| s["bot"] == stream_id.as_str()),
        "{shown}"
    );
    assert_eq!(shown["ranked"], true);
    // It starts: the bot was connected before the match (its probe).
    let start = stream.next_of("match_start").await;
    assert_eq!(start["match_id"], scheduled[0].as_str());
}

/// A stream is always in delta mode: each `move` line carries the moves since the seat's previous
/// request (`history_from` > 0 after the first), and a new connection gets its pending move with
/// the whole history, the same list the deltas built.
#[tokio::test]
async fn stream_lines_carry_the_delta_and_a_reconnection_the_whole_history() {
    let arena = spawn_arena("stream-delta").await;
    let base = spawn_app(&arena).await;
    let game = two_player_game();
    let (stream_id, token) = register_stream_bot(&base, "delta streamer", &game).await;
    let url_bot = spawn_bot(Behavior::Good).await;
    let url_id = register(&arena, &url_bot, &game).await;
    let (_, _, mut first) = Stream::connect(&base, &token).await;
    let (status, created) = post(
        &base,
        "/v1/matches",
        Some(&token),
        &json!({"game": game, "bots": [stream_id, url_id], "deadline_ms": 10000, "seed": 11}),
    )
    .await;
    assert_eq!(status, 202, "{created}");
    let match_id = created["id"].as_str().expect("id").to_string();

    // What the bot keeps: cut to `history_from`, then append.
    let mut kept: Vec<Value> = Vec::new();
    let mut deltas = 0;
    let pending = loop {
        let line = first.next_of("move").await;
        let from = line["history_from"].as_u64().expect("history_from") as usize;
        assert!(from <= kept.len(), "{from} > {}", kept.len());
        kept.truncate(from);
        kept.extend(line["history"].as_array().expect("history").iter().cloned());
        if from > 0 {
            deltas += 1;
        }
        if deltas == 3 {
            break line;
        }
        let (status, body) = answer(&base, &token, &line, &line["legal_actions"][0]).await;
        assert_eq!(status, 204, "{body}");
    };

    // Connected again before answering: the same request, with the whole history.
    let (_, _, mut second) = Stream::connect_to(&base, &token, "?replace=true").await;
    let again = second.next_of("move").await;
    assert_eq!(again["request_id"], pending["request_id"]);
    assert_eq!(again["history_from"], 0);
    assert_eq!(
        again["history"],
        Value::Array(kept.clone()),
        "the deltas rebuilt the whole history"
    );
    assert!(
        pending["history"].as_array().expect("history").len() < kept.len(),
        "the delta line is shorter than the whole history"
    );
    // Its view is whole again (the options a delta line leaves out), the rest as first sent.
    assert!(pending["view"].get("options").is_none(), "{pending}");
    let mut view = again["view"].clone();
    assert!(view["options"].is_object(), "{again}");
    view.as_object_mut().expect("view").remove("options");
    assert_eq!(view, pending["view"]);
    for field in ["type", "match_id", "match", "seat", "legal_actions", "info"] {
        assert_eq!(again[field], pending[field], "{field}");
    }
    // With the time it has left.
    assert!(again["deadline_ms"].as_u64() <= pending["deadline_ms"].as_u64());
    let (status, body) = answer(&base, &token, &again, &again["legal_actions"][0]).await;
    assert_eq!(status, 204, "{body}");
    play_to_the_end(&base, &token, &mut second).await;
    let shown = wait_finished(&base, &match_id).await;
    assert_eq!(shown["result"]["faults"], json!([0, 0]), "{shown}");
}
