//! Delta history over HTTP (issue 41): a bot registered with `"history": "delta"` gets
//! `history_from` and the moves since its previous request, rebuilds the full history from them
//! (the same, its own actions aside, as a full-mode bot's in the same match), every request signed
//! correctly; `PATCH` changes the mode.

use crate::support::{Behavior, FakeBot, send, spawn_app, spawn_arena, spawn_bot};
use serde_json::{Value, json};
use std::time::Duration;

/// A delta bot's history after each of its requests, rebuilt as a bot would: its copy cut to
/// `history_from` entries, then the request's entries appended.
pub fn rebuilt_histories(requests: &[Value]) -> Vec<Vec<Value>> {
    let mut held: Vec<Value> = Vec::new();
    requests
        .iter()
        .map(|request| {
            let from = request["history_from"]
                .as_u64()
                .expect("a delta request has history_from") as usize;
            assert!(
                from <= held.len(),
                "history_from {from} past what the bot holds"
            );
            held.truncate(from);
            held.extend(
                request["history"]
                    .as_array()
                    .expect("history")
                    .iter()
                    .cloned(),
            );
            held.clone()
        })
        .collect()
}

/// Every entry's events carry its own index (`action_index`): the history is whole and in order.
pub fn assert_whole(history: &[Value]) {
    for (index, entry) in history.iter().enumerate() {
        for event in entry["events"].as_array().expect("events") {
            assert_eq!(event["action_index"], index, "entry {index}: {entry}");
        }
    }
}

/// The entries without the receiving seat's own actions (what any two seats share).
fn public(history: &[Value]) -> Vec<Value> {
    history
        .iter()
        .map(|entry| json!({"seat": entry["seat"], "events": entry["events"]}))
        .collect()
}

fn requests(bot: &FakeBot) -> Vec<Value> {
    bot.seen.move_requests.lock().expect("lock").clone()
}

#[tokio::test]
async fn a_delta_bot_gets_the_moves_since_its_last_request_and_rebuilds_the_history() {
    let arena = spawn_arena("delta-history").await;
    arena.register_builtins().await.expect("built-in bots");
    let base = spawn_app(&arena).await;
    let http = reqwest::Client::new();
    let game = "twenty_two";
    let delta = spawn_bot(Behavior::Good).await;
    let full = spawn_bot(Behavior::Good).await;
    let mut ids = Vec::new();
    for (bot, name, history) in [(&delta, "delta", Some("delta")), (&full, "full", None)] {
        let mut body =
            json!({"name": name, "url": bot.url, "games": [game], "open_to_challenges": true});
        if let Some(history) = history {
            body["history"] = json!(history);
        }
        let (status, registered) = send(http.post(format!("{base}/v1/bots")).json(&body)).await;
        assert_eq!(status, 201, "{registered}");
        assert_eq!(registered["bot"]["history"], history.unwrap_or("full"));
        *bot.seen.secret.lock().expect("lock") = registered["signing_secret"]
            .as_str()
            .expect("secret")
            .into();
        ids.push(registered["id"].as_str().expect("id").to_string());
    }
    let (status, created) = send(http.post(format!("{base}/v1/matches")).json(&json!({
        "game": game, "bots": [ids[0], ids[1], "random"], "seed": 41, "deadline_ms": 2000
    })))
    .await;
    assert_eq!(status, 202, "{created}");
    let match_id = created["id"].as_str().expect("id");
    let record = arena
        .wait_for(match_id, Duration::from_secs(60))
        .await
        .expect("the match ends");
    assert_eq!(
        record.result.as_ref().map(|r| r.faults.clone()),
        Some(vec![0, 0, 0])
    );

    let delta_requests = requests(&delta);
    let full_requests = requests(&full);
    assert!(delta_requests.len() > 5 && full_requests.len() > 5);
    for bot in [&delta, &full] {
        assert_eq!(
            bot.seen
                .bad_signatures
                .load(std::sync::atomic::Ordering::SeqCst),
            0,
            "every request verifies"
        );
    }
    assert!(
        full_requests
            .iter()
            .all(|r| r.get("history_from").is_none())
    );
    // The first request carries everything so far; each later one exactly the moves since the
    // one before (every request was answered).
    assert_eq!(delta_requests[0]["history_from"], 0);
    // The view's options come with the first request only (they never change); the full-mode
    // bot gets them every time.
    assert!(delta_requests[0]["view"]["options"].is_object());
    assert!(
        delta_requests[1..]
            .iter()
            .all(|r| r["view"].get("options").is_none() && r["view"]["seat"].is_number())
    );
    assert!(
        full_requests
            .iter()
            .all(|r| r["view"]["options"].is_object())
    );
    let rebuilt = rebuilt_histories(&delta_requests);
    for (i, request) in delta_requests.iter().enumerate().skip(1) {
        assert_eq!(
            request["history_from"].as_u64(),
            Some(rebuilt[i - 1].len() as u64),
            "request {i} starts where the one before ended"
        );
    }
    for history in &rebuilt {
        assert_whole(history);
    }
    // The rebuilt histories are the full-mode bot's (cut to the same length), but for each
    // seat's own actions.
    let last_full = full_requests.last().expect("a full request")["history"]
        .as_array()
        .expect("history")
        .clone();
    let mut compared = 0;
    for history in &rebuilt {
        if history.len() <= last_full.len() {
            assert_eq!(public(history), public(&last_full[..history.len()]));
            compared += 1;
        }
        assert!(
            history
                .iter()
                .filter(|entry| entry.get("action").is_some())
                .all(|entry| entry["seat"] == 0),
            "a delta history shows only the seat's own actions"
        );
    }
    assert!(compared > 0, "nothing compared");
    // Delta requests are smaller: the last one carries a few moves, the full one all of them.
    let size = |request: &Value| request.to_string().len();
    assert!(size(delta_requests.last().expect("last")) < size(full_requests.last().expect("last")));
}

#[tokio::test]
async fn patch_changes_a_bots_history_mode() {
    let arena = spawn_arena("delta-patch").await;
    let base = spawn_app(&arena).await;
    let http = reqwest::Client::new();
    let bot = spawn_bot(Behavior::Good).await;
    let (status, registered) = send(
        http.post(format!("{base}/v1/bots"))
            .json(&json!({"name": "patched", "url": bot.url, "games": ["twenty_two"]})),
    )
    .await;
    assert_eq!(status, 201, "{registered}");
    assert_eq!(registered["bot"]["history"], "full");
    let id = registered["id"].as_str().expect("id");
    let token = registered["token"].as_str().expect("token");
    for mode in ["delta", "full"] {
        let (status, patched) = send(
            http.patch(format!("{base}/v1/bots/{id}"))
                .bearer_auth(token)
                .json(&json!({"history": mode})),
        )
        .await;
        assert_eq!(
            (status, patched["history"].as_str()),
            (200, Some(mode)),
            "{patched}"
        );
        let (_, shown) = send(http.get(format!("{base}/v1/bots/{id}"))).await;
        assert_eq!(shown["history"], mode);
    }
    let (status, refused) = send(
        http.patch(format!("{base}/v1/bots/{id}"))
            .bearer_auth(token)
            .json(&json!({"history": "some"})),
    )
    .await;
    assert_eq!(status, 400, "{refused}");
}
