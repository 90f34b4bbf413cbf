//! Stream bots that drop their connection, over HTTP: within the reconnect grace the seat waits
//! (its time stands still) and the move replayed on reconnecting carries the time actually
//! left; past the grace the time runs as it always did. And duplicate deals stay secret: a
//! stream bot in a 2-bot tournament never plays two tables of one deal at the same time.

use crate::stream::{Stream, answer, get, post, register_stream_bot, wait_finished};
use crate::support::{Behavior, register, spawn_app, spawn_arena, spawn_arena_with, spawn_bot};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

const GAME: &str = "twenty_two";

/// Answers the stream's `move` lines with their first legal action until `count` were
/// answered; returns the next `move` line, unanswered.
async fn answer_moves(base: &str, token: &str, stream: &mut Stream, count: usize) -> Value {
    let mut answered = 0;
    loop {
        let line = stream.next_of("move").await;
        if answered == count {
            return line;
        }
        let (status, body) = answer(base, token, &line, &line["legal_actions"][0]).await;
        assert_eq!(status, 204, "{body}");
        answered += 1;
    }
}

/// Answers every `move` line until the match ends.
async fn answer_to_the_end(base: &str, token: &str, stream: &mut Stream) {
    loop {
        let line = stream.next().await.expect("the stream is open");
        match line["type"].as_str() {
            Some("move") => {
                let (status, body) = answer(base, token, &line, &line["legal_actions"][0]).await;
                assert!(status == 204 || status == 409, "{body}");
            }
            Some("match_end") => return,
            _ => {}
        }
    }
}

/// The attack this stops: a bot that drops for 2.3 s was disqualified (three 1 s timeouts while
/// it was away), and the move replayed on reconnecting still said `deadline_ms: 1000`.
#[tokio::test]
async fn a_stream_bot_away_for_2_5_seconds_loses_nothing_and_is_told_the_time_left() {
    let arena = spawn_arena("grace-within").await;
    let base = spawn_app(&arena).await;
    let (stream_id, token) = register_stream_bot(&base, "blinking", GAME).await;
    let url_bot = spawn_bot(Behavior::Good).await;
    let url_id = register(&arena, &url_bot, GAME).await;
    let (_, _, mut stream) = Stream::connect(&base, &token).await;
    let (status, created) = post(
        &base,
        "/v1/matches",
        Some(&token),
        &json!({"game": GAME, "bots": [stream_id, url_id], "deadline_ms": 1000, "seed": 9,
                "clock": {"initial_ms": 60000, "increment_ms": 0}}),
    )
    .await;
    assert_eq!(status, 202, "{created}");
    let match_id = created["id"].as_str().expect("id").to_string();
    let pending = answer_moves(&base, &token, &mut stream, 2).await;
    assert_eq!(pending["deadline_ms"], 1000);
    // Think for a while, then lose the connection for 2.5 s: more than twice the deadline.
    tokio::time::sleep(Duration::from_millis(300)).await;
    drop(stream);
    tokio::time::sleep(Duration::from_millis(2500)).await;
    // The connection ended cleanly: connecting again needs no `replace`.
    let (status, _, mut stream) = Stream::connect(&base, &token).await;
    assert_eq!(status, 200);
    let replayed = stream.next_of("move").await;
    assert_eq!(replayed["request_id"], pending["request_id"]);
    let left = replayed["deadline_ms"].as_u64().expect("deadline_ms");
    assert!(
        (400..=700).contains(&left),
        "the time left when the bot went away (1000 ms less 300 and a little): {left}"
    );
    assert_eq!(
        replayed["time_left_ms"].as_u64().expect("bank"),
        pending["time_left_ms"].as_u64().expect("bank") - (1000 - left),
        "the bank less the time used"
    );
    let (status, body) = answer(&base, &token, &replayed, &replayed["legal_actions"][0]).await;
    assert_eq!(status, 204, "{body}");
    answer_to_the_end(&base, &token, &mut stream).await;
    let shown = wait_finished(&base, &match_id).await;
    assert_eq!(shown["status"], "finished", "{shown}");
    assert_eq!(shown["result"]["faults"], json!([0, 0]), "{shown}");
    assert_eq!(shown["result"]["flagged"], json!([]), "{shown}");
    // The move is charged the time that ran, not the outage.
    let charged = shown["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .filter(|m| m["seat"] == 0)
        .map(|m| m["latency_ms"].as_u64().expect("latency"))
        .max()
        .expect("moves of the stream bot");
    assert!(charged < 1000, "{charged}");
}

#[tokio::test]
async fn an_outage_past_the_grace_costs_time_as_it_always_did() {
    let arena = spawn_arena_with("grace-past", |config| {
        config.reconnect_grace = Duration::from_millis(300);
    })
    .await;
    let base = spawn_app(&arena).await;
    let (stream_id, token) = register_stream_bot(&base, "gone long", GAME).await;
    let url_bot = spawn_bot(Behavior::Good).await;
    let url_id = register(&arena, &url_bot, GAME).await;
    let (_, _, mut stream) = Stream::connect(&base, &token).await;
    let (status, created) = post(
        &base,
        "/v1/matches",
        Some(&token),
        &json!({"game": GAME, "bots": [stream_id, url_id], "deadline_ms": 1000, "seed": 9}),
    )
    .await;
    assert_eq!(status, 202, "{created}");
    let match_id = created["id"].as_str().expect("id").to_string();
    answer_moves(&base, &token, &mut stream, 2).await;
    let away = Instant::now();
    drop(stream);
    // Away for the grace and the whole deadline: the move times out.
    let fault = loop {
        let shown = get(&base, &format!("/v1/matches/{match_id}")).await;
        if let Some(fault) = shown["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .find_map(|m| m["fault"].as_object().cloned())
        {
            break fault;
        }
        assert!(away.elapsed() < Duration::from_secs(20), "{shown}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(fault["kind"], "timeout", "{fault:?}");
    assert!(
        away.elapsed() >= Duration::from_millis(1300),
        "the grace (300 ms) first, then the deadline (1000 ms): {:?}",
        away.elapsed()
    );
    // Back: the match goes on with it.
    let (status, _, mut stream) = Stream::connect(&base, &token).await;
    assert_eq!(status, 200);
    answer_to_the_end(&base, &token, &mut stream).await;
    let shown = wait_finished(&base, &match_id).await;
    assert_eq!(shown["status"], "finished", "{shown}");
    assert!(shown["result"]["faults"][0].as_u64().expect("faults") >= 1);
}

/// The attack this stops: a tournament's two rotations of one deal ran at once, so a stream
/// bot seated at both held, at one table, the very hand its opponent held at the other.
#[tokio::test]
async fn a_stream_bot_never_plays_two_tables_of_one_deal_at_the_same_time() {
    let arena = spawn_arena("grace-deals").await;
    arena.register_builtins().await.expect("built-in bots");
    let base = spawn_app(&arena).await;
    let (stream_id, token) = register_stream_bot(&base, "remembers", GAME).await;
    let (_, _, mut stream) = Stream::connect(&base, &token).await;
    let (status, created) = post(
        &base,
        "/v1/tournaments",
        Some(&token),
        &json!({"game": GAME, "bots": [stream_id, "random"], "deals": 3, "deadline_ms": 5000}),
    )
    .await;
    assert_eq!(status, 202, "{created}");
    let tid = created["id"].as_str().expect("id").to_string();
    let mut ended = BTreeSet::new();
    // Tables of other deals the bot played at the same time (the slots are filled).
    let mut most_at_once = 0;
    let mut played = BTreeSet::new();
    while ended.len() < 6 {
        let line = stream.next().await.expect("the stream is open");
        let match_id = line["match_id"].as_str().unwrap_or_default().to_string();
        match line["type"].as_str() {
            Some("move") => {
                let shown = get(&base, &format!("/v1/tournaments/{tid}")).await;
                let tables = shown["matches"].as_array().expect("tables");
                let mine = tables
                    .iter()
                    .find(|t| t["id"] == match_id.as_str())
                    .expect("a table of the tournament");
                for other in tables.iter().filter(|t| t["id"] != match_id.as_str()) {
                    if other["deal"] == mine["deal"] {
                        assert_ne!(
                            other["status"], "running",
                            "two tables of deal {} at once: {shown}",
                            mine["deal"]
                        );
                    }
                }
                most_at_once =
                    most_at_once.max(tables.iter().filter(|t| t["status"] == "running").count());
                played.insert(match_id.clone());
                let (status, body) = answer(&base, &token, &line, &line["legal_actions"][0]).await;
                assert!(status == 204 || status == 409, "{body}");
            }
            Some("match_end") => {
                ended.insert(match_id);
            }
            _ => {}
        }
    }
    assert!(
        most_at_once >= 2,
        "tables of different deals share the slots: {most_at_once}"
    );
    let shown = get(&base, &format!("/v1/tournaments/{tid}")).await;
    assert_eq!(shown["status"], "finished", "{shown}");
    assert_eq!(played.len(), 6, "the bot played every table");
}
