//! Watchable matches over HTTP: a paced match (`pace_ms`) holds its moves for spectators without
//! charging the hold to any bot.

use crate::web::{Server, parse_sse};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// Reads a match's live stream to its end, with the time each `move` event arrived.
async fn stream_with_arrivals(server: &Server, id: &str) -> Vec<(Instant, Value)> {
    let mut response = server
        .0
        .client
        .get(format!("{}/v1/matches/{id}/events", server.0.base))
        .send()
        .await
        .expect("GET events");
    assert_eq!(response.status().as_u16(), 200);
    let mut moves = Vec::new();
    let mut pending = String::new();
    while let Some(chunk) = tokio::time::timeout(Duration::from_secs(60), response.chunk())
        .await
        .expect("the stream stalls")
        .expect("read the stream")
    {
        let arrived = Instant::now();
        pending.push_str(&String::from_utf8_lossy(&chunk));
        // Whole events only: an event ends with a blank line.
        if let Some(end) = pending.rfind("\n\n") {
            let complete: String = pending.drain(..end + 2).collect();
            moves.extend(
                parse_sse(&complete)
                    .into_iter()
                    .filter(|(event, _)| event == "move")
                    .map(|(_, data)| (arrived, data)),
            );
        }
    }
    moves
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paced_match_holds_each_move_without_charging_the_bots() {
    let server = Server::start("pace").await;
    let builtins = server.builtin_ids().await;
    for pace in [5001, 60_000] {
        let refused = server
            .0
            .client
            .post(format!("{}/v1/matches", server.0.base))
            .json(&json!({"game": "twenty_two", "bots": builtins, "pace_ms": pace}))
            .send()
            .await
            .expect("POST");
        assert_eq!(refused.status().as_u16(), 400, "pace_ms {pace}");
        let problem: Value = refused.json().await.expect("problem+json");
        assert_eq!(problem["code"], "invalid_request", "{problem}");
    }

    let pace_ms: u64 = 200;
    // A bank of 100 ms topped up by 100 ms a move: a bot charged for one hold of 200 ms would be
    // flagged on its first move.
    let created = server
        .post(
            "/v1/matches",
            &json!({"game": "twenty_two", "bots": builtins, "seed": 4, "pace_ms": pace_ms,
                    "clock": {"initial_ms": 100, "increment_ms": 100}}),
        )
        .await;
    let id = created["id"].as_str().expect("id").to_string();
    // The first move is held `pace_ms` after the start: time to connect before it.
    let moves = stream_with_arrivals(&server, &id).await;
    let matched = server.wait_finished(&id).await;
    assert_eq!(matched["pace_ms"], pace_ms);
    let played = matched["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), played.len(), "every move was streamed live");
    assert!(played.len() >= 10, "{} moves", played.len());
    // The server holds each move a full `pace_ms`; the margin is for the delivery of one event
    // being later than the next's on a loaded machine.
    let gaps: Vec<u128> = moves
        .windows(2)
        .map(|pair| pair[1].0.duration_since(pair[0].0).as_millis())
        .collect();
    assert!(
        gaps.iter().all(|gap| *gap + 40 >= u128::from(pace_ms)),
        "moves closer than {pace_ms} ms: {gaps:?}"
    );
    let span = moves.last().expect("a move").0 - moves[0].0;
    assert!(
        span.as_millis() + 40 >= u128::from(pace_ms) * (moves.len() as u128 - 1),
        "{span:?} for {} moves",
        moves.len()
    );
    // Latency is the bots' own time, as without a pace; nobody ran out of time.
    for (index, played) in played.iter().enumerate() {
        let latency = played["latency_ms"].as_u64().expect("latency");
        assert!(latency < pace_ms, "move {index}: latency {latency} ms");
        assert_eq!(played["fault"], Value::Null, "move {index}");
    }
    for (streamed, played) in moves.iter().zip(played) {
        assert_eq!(streamed.1["latency_ms"], played["latency_ms"]);
    }
    let flagged = &matched["result"]["flagged"];
    assert!(
        flagged.is_null() || flagged.as_array().is_some_and(Vec::is_empty),
        "{flagged}"
    );

    // Without a pace the match record says 0.
    let unpaced = server
        .post(
            "/v1/matches",
            &json!({"game": "twenty_two", "bots": builtins}),
        )
        .await;
    let unpaced = server
        .wait_finished(unpaced["id"].as_str().expect("id"))
        .await;
    assert_eq!(unpaced["pace_ms"], 0);
    server.0.stop().await;
}
