//! Playing twenty-two over HTTP: new, legal, apply, view, replay.

use crate::support::{GAME, TestApp, spawn_app};
use serde_json::{Value, json};

/// Plays to the end with a deterministic choice per move; returns the final step and the history.
pub async fn play_to_end(app: &TestApp, mut step: Value) -> (Value, Vec<Value>) {
    let mut history = Vec::new();
    for turn in 0..5000usize {
        if step["over"] == true {
            return (step, history);
        }
        let to_act = step["to_act"].as_array().expect("to_act").clone();
        let legal = step["legal_actions"].as_array().expect("legal_actions");
        assert_eq!(
            legal.len(),
            to_act.len(),
            "legal actions for every seat to act"
        );
        let entry = &legal[turn % legal.len()];
        let actions = entry["actions"].as_array().expect("actions");
        assert!(
            !actions.is_empty(),
            "a seat to act has a legal action: {step}"
        );
        let action = actions[(turn * 7 + 1) % actions.len()].clone();
        let seat = entry["seat"].clone();
        let reply = app
            .op(
                GAME,
                "apply",
                &json!({"state": step["state"], "seat": seat, "action": action}),
            )
            .await;
        assert_eq!(reply.status, 200, "{}", reply.body);
        history.push(json!({"seat": seat, "action": action}));
        step = reply.body;
    }
    panic!("the game did not end in 5000 moves");
}

fn find_seed(value: &Value) -> Option<u64> {
    match value {
        Value::Object(map) => map
            .get("seed")
            .and_then(Value::as_u64)
            .or_else(|| map.values().find_map(find_seed)),
        Value::Array(items) => items.iter().find_map(find_seed),
        _ => None,
    }
}

#[tokio::test]
async fn a_full_game_of_twenty_two_is_played_over_http_and_replays_identically() {
    let app = spawn_app().await;
    let start = app.new_game(3, 7).await;
    assert_eq!(start["game"], GAME);
    assert_eq!(start["over"], false);
    assert!(start["result"].is_null());
    assert_eq!(start["state"]["version"], 2);

    let (end, history) = play_to_end(&app, start).await;
    assert_eq!(end["over"], true);
    assert!(end["to_act"].as_array().unwrap().is_empty());
    assert!(end["legal_actions"].as_array().unwrap().is_empty());
    let ranking = end["result"]["ranking"].as_array().expect("a ranking");
    let mut seats: Vec<u64> = ranking
        .iter()
        .flat_map(|g| g.as_array().unwrap().iter().map(|s| s.as_u64().unwrap()))
        .collect();
    seats.sort();
    assert_eq!(seats, vec![0, 1, 2], "the ranking places every seat once");
    assert_eq!(end["result"]["scores"].as_array().unwrap().len(), 3);

    let reply = app
        .op(
            GAME,
            "replay",
            &json!({"players": 3, "options": {}, "seed": 7, "actions": history}),
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body["step"]["state"], end["state"]);
    assert_eq!(reply.body["step"]["result"], end["result"]);
    assert!(!reply.body["log"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn legal_and_view_agree_with_the_step() {
    let app = spawn_app().await;
    let step = app.new_game(2, 11).await;
    let seat = step["to_act"][0].clone();
    let reply = app
        .op(
            GAME,
            "legal",
            &json!({"state": step["state"], "seat": seat}),
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body["seat"], seat);
    assert_eq!(reply.body["actions"], step["legal_actions"][0]["actions"]);

    let reply = app
        .op(GAME, "view", &json!({"state": step["state"], "seat": 0}))
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body["seat"], 0);
    assert!(reply.body["view"].is_object());

    let reply = app.op(GAME, "view", &json!({"state": step["state"]})).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert!(reply.body["seat"].is_null());
    assert_ne!(reply.body["view"], Value::Null);
}

#[tokio::test]
async fn a_game_started_without_a_seed_records_one_and_replays() {
    let app = spawn_app().await;
    let reply = app.op(GAME, "new", &json!({"players": 2})).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let seed = find_seed(&reply.body["state"]).expect("the state records the seed");
    assert!(seed < 1 << 53, "exact in JavaScript");
    let step = app.advance(reply.body, 3).await;
    let replayed = app
        .op(
            GAME,
            "replay",
            &json!({"players": 2, "seed": seed, "actions": []}),
        )
        .await;
    assert_eq!(replayed.status, 200, "{}", replayed.body);
    assert!(step["state"].is_object());
}

#[tokio::test]
async fn a_replay_reports_the_first_refused_action_with_its_index() {
    let app = spawn_app().await;
    let start = app.new_game(2, 5).await;
    let (seat, action) = crate::support::first_legal(&start);
    let other = 1 - seat;
    let reply = app
        .op(
            GAME,
            "replay",
            &json!({"players": 2, "seed": 5, "actions": [
                {"seat": seat, "action": action},
                {"seat": seat, "action": {"type": "no_such_action"}},
            ]}),
        )
        .await;
    assert_eq!(reply.status, 422, "{}", reply.body);
    assert!(["illegal_action", "not_your_turn"].contains(&reply.problem_code()));
    assert_eq!(reply.body["index"], 1);

    let reply = app
        .op(
            GAME,
            "replay",
            &json!({"players": 2, "seed": 5, "actions": [{"seat": other, "action": action}]}),
        )
        .await;
    assert_eq!(reply.status, 422, "{}", reply.body);
    assert_eq!(reply.problem_code(), "not_your_turn");
    assert_eq!(reply.body["index"], 0);
}

/// Issue 13 item 5: `new` reports the setup as events, redacted like views (the deal says who got
/// how many cards, never which), and a replay's log starts with the same events.
#[tokio::test]
async fn new_reports_the_setup_as_public_events_and_the_replay_log_starts_with_them() {
    let app = spawn_app().await;
    let step = app.new_game(3, 11).await;
    let events = step["events"].as_array().expect("events");
    let deal = events
        .iter()
        .find(|e| e["type"] == "deal")
        .unwrap_or_else(|| panic!("a deal event: {events:?}"));
    assert_eq!(deal["cards_each"], 7, "{deal}");
    // No card of any hand is named: the hands are only in each seat's own view.
    let text = serde_json::to_string(events).expect("json");
    for seat in 0..3 {
        let view = app
            .op(GAME, "view", &json!({"state": step["state"], "seat": seat}))
            .await;
        let hand = view.body["view"]["hand"]
            .as_array()
            .expect("a hand")
            .clone();
        assert!(!hand.is_empty());
        for card in hand {
            assert!(!text.contains(&card.to_string()), "{card} in {text}");
        }
    }
    let replay = app
        .op(
            GAME,
            "replay",
            &json!({"players": 3, "seed": 11, "actions": []}),
        )
        .await;
    assert_eq!(replay.status, 200, "{}", replay.body);
    assert_eq!(replay.body["log"], step["events"]);
}
