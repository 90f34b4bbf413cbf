//! Every error is a 4xx problem+json with a stable code: never a 500, never a panic.

use crate::play::play_to_end;
use crate::support::{GAME, first_legal, spawn_app};
use serde_json::{Value, json};

#[tokio::test]
async fn malformed_json_wrong_types_and_missing_fields_are_bad_requests() {
    let app = spawn_app().await;
    let path = format!("/v1/games/{GAME}/new");
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("malformed", b"{\"players\": ".to_vec(), "bad_request"),
        ("not json", b"hello".to_vec(), "bad_request"),
        (
            "wrong type",
            br#"{"players": "two"}"#.to_vec(),
            "bad_request",
        ),
        ("negative", br#"{"players": -1}"#.to_vec(), "bad_request"),
        ("missing field", br#"{"seed": 1}"#.to_vec(), "bad_request"),
        (
            "unknown field",
            br#"{"players": 2, "colour": "red"}"#.to_vec(),
            "bad_request",
        ),
        (
            "players out of range",
            br#"{"players": 99}"#.to_vec(),
            "invalid_players",
        ),
        (
            "unknown option",
            br#"{"players": 2, "options": {"nope": 1}}"#.to_vec(),
            "invalid_options",
        ),
        (
            "bad deal",
            br#"{"players": 2, "seed": 1, "deals": [["ZZ"]]}"#.to_vec(),
            "invalid_deals",
        ),
    ];
    for (name, body, code) in cases {
        let reply = app.post_raw(&path, body).await;
        assert!(
            (400..500).contains(&reply.status),
            "{name}: {} {}",
            reply.status,
            reply.body
        );
        assert_eq!(reply.problem_code(), code, "{name}: {}", reply.body);
        assert!(!reply.body["detail"].as_str().unwrap().is_empty());
    }
    let reply = app
        .op(GAME, "apply", &json!({"seat": 0, "action": {}}))
        .await;
    assert_eq!(reply.problem_code(), "bad_request");
    assert!(
        reply.body["detail"].as_str().unwrap().contains("state"),
        "{}",
        reply.body
    );
}

#[tokio::test]
async fn unknown_games_and_routes_are_404_problems() {
    let app = spawn_app().await;
    let reply = app.op("chess", "new", &json!({"players": 2})).await;
    assert_eq!(reply.status, 404);
    assert_eq!(reply.problem_code(), "unknown_game");
    let reply = app.get("/v1/nothing").await;
    assert_eq!(reply.status, 404);
    assert_eq!(reply.problem_code(), "not_found");
}

fn is_card_list(items: &[Value]) -> bool {
    items.len() >= 2
        && items
            .iter()
            .all(|v| v.as_str().is_some_and(|s| (2..=3).contains(&s.len())))
}

fn first_card_array(value: &mut Value) -> Option<&mut Vec<Value>> {
    if value.as_array().is_some_and(|items| is_card_list(items)) {
        return value.as_array_mut();
    }
    match value {
        Value::Array(items) => items.iter_mut().find_map(first_card_array),
        Value::Object(map) => map.values_mut().find_map(first_card_array),
        _ => None,
    }
}

#[tokio::test]
async fn forged_foreign_and_garbage_states_are_invalid_state() {
    let app = spawn_app().await;
    let step = app.new_game(2, 3).await;
    let (seat, action) = first_legal(&step);
    let state = step["state"].clone();

    let mut foreign = state.clone();
    foreign["game"] = json!("watten");
    let mut future = state.clone();
    future["version"] = json!(99);
    let mut emptied = state.clone();
    emptied["data"] = json!({});
    let mut duplicated = state.clone();
    let cards = first_card_array(&mut duplicated["data"]).expect("a list of cards in the state");
    cards[1] = cards[0].clone();
    let cases = [
        ("another game", foreign),
        ("another version", future),
        ("empty data", emptied),
        ("a duplicated card", duplicated),
        ("a number", json!(5)),
        ("a token in transparent mode", json!("v1.AAAA")),
        ("null", Value::Null),
    ];
    for (name, state) in cases {
        for op in ["apply", "legal", "view"] {
            let body = if op == "apply" {
                json!({"state": state, "seat": seat, "action": action})
            } else {
                json!({"state": state, "seat": seat})
            };
            let reply = app.op(GAME, op, &body).await;
            assert_eq!(reply.status, 400, "{name} / {op}: {}", reply.body);
            assert_eq!(
                reply.problem_code(),
                "invalid_state",
                "{name} / {op}: {}",
                reply.body
            );
        }
    }
}

#[tokio::test]
async fn wrong_seats_illegal_actions_and_finished_games_are_422() {
    let app = spawn_app().await;
    let step = app.new_game(2, 9).await;
    let (seat, action) = first_legal(&step);
    let other = 1 - seat;

    let reply = app
        .op(
            GAME,
            "apply",
            &json!({"state": step["state"], "seat": other, "action": action}),
        )
        .await;
    assert_eq!(reply.status, 422, "{}", reply.body);
    assert_eq!(reply.problem_code(), "not_your_turn");
    assert_eq!(reply.body["reason"], "not_your_turn");

    let reply = app
        .op(
            GAME,
            "apply",
            &json!({"state": step["state"], "seat": seat, "action": {"type": "teleport"}}),
        )
        .await;
    assert_eq!(reply.status, 422, "{}", reply.body);
    assert_eq!(reply.problem_code(), "illegal_action");
    assert!(reply.body["reason"].is_string());

    let reply = app
        .op(
            GAME,
            "apply",
            &json!({"state": step["state"], "seat": 7, "action": action}),
        )
        .await;
    assert_eq!(reply.status, 400, "{}", reply.body);
    assert_eq!(reply.problem_code(), "invalid_seat");
    let reply = app
        .op(GAME, "view", &json!({"state": step["state"], "seat": 7}))
        .await;
    assert_eq!(reply.problem_code(), "invalid_seat");

    let (end, _) = play_to_end(&app, step).await;
    let reply = app
        .op(
            GAME,
            "apply",
            &json!({"state": end["state"], "seat": 0, "action": action}),
        )
        .await;
    assert_eq!(reply.status, 422, "{}", reply.body);
    assert_eq!(reply.problem_code(), "game_over");
}

#[tokio::test]
async fn an_illegal_card_is_refused_in_words_a_player_understands() {
    let app = spawn_app().await;
    let step = app.new_game(2, 21).await;
    let (seat, legal) = first_legal(&step);
    // Ask for a legal-looking action of the same type with a value the seat does not have.
    let mut action = legal.clone();
    if let Some(map) = action.as_object_mut() {
        for (key, value) in map.iter_mut() {
            if key != "type" && value.is_string() {
                *value = json!("ZZ");
            }
        }
    }
    let reply = app
        .op(
            GAME,
            "apply",
            &json!({"state": step["state"], "seat": seat, "action": action}),
        )
        .await;
    if reply.status != 200 {
        assert_eq!(reply.status, 422, "{}", reply.body);
        assert_eq!(reply.problem_code(), "illegal_action");
        let detail = reply.body["detail"].as_str().unwrap();
        assert!(
            detail.len() > 10 && !detail.contains("panicked"),
            "{detail}"
        );
    }
}

#[tokio::test]
async fn a_body_over_the_limit_is_413() {
    let app = spawn_app().await;
    let big = format!(
        "{{\"players\": 2, \"options\": {{\"x\": \"{}\"}}}}",
        "a".repeat(200_000)
    );
    let reply = app.post_raw(&format!("/v1/games/{GAME}/new"), big).await;
    assert_eq!(reply.status, 413, "{}", reply.body);
    assert_eq!(reply.problem_code(), "payload_too_large");
}
