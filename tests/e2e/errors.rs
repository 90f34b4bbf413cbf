//! Every error is a 4xx problem+json with a stable code: never a 500, never a panic.

use crate::play::play_to_end;
use crate::support::{GAME, ServerOptions, first_legal, spawn_app};
use serde_json::{Value, json};

#[tokio::test]
async fn malformed_json_wrong_types_and_missing_fields_are_malformed_json_everywhere() {
    let app = spawn_app().await;
    let path = format!("/v1/games/{GAME}/new");
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("malformed", b"{\"players\": ".to_vec(), "malformed_json"),
        ("not json", b"hello".to_vec(), "malformed_json"),
        (
            "wrong type",
            br#"{"players": "two"}"#.to_vec(),
            "malformed_json",
        ),
        ("negative", br#"{"players": -1}"#.to_vec(), "malformed_json"),
        (
            "missing field",
            br#"{"seed": 1}"#.to_vec(),
            "malformed_json",
        ),
        (
            "unknown field",
            br#"{"players": 2, "colour": "red"}"#.to_vec(),
            "malformed_json",
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
        (
            "seed above 2^53 - 1",
            br#"{"players": 2, "seed": 9007199254740992}"#.to_vec(),
            "invalid_seed",
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
        .op(
            GAME,
            "replay",
            &json!({"players": 2, "seed": engine::rng::MAX_SEED + 1, "actions": []}),
        )
        .await;
    assert_eq!(reply.status, 422, "{}", reply.body);
    assert_eq!(reply.problem_code(), "invalid_seed");
    let reply = app
        .op(GAME, "apply", &json!({"seat": 0, "action": {}}))
        .await;
    assert_eq!(reply.problem_code(), "malformed_json");
    assert!(
        reply.body["detail"].as_str().unwrap().contains("state"),
        "{}",
        reply.body
    );
}

/// `apply` reads the body as clients send it in one pass (its state straight into the typed
/// state); every other body takes the general path. Both must answer alike: any field order,
/// escaped keys, and the same problems for repeated or unknown fields, wrong types, bytes that
/// are not UTF-8, and a malformed body naming an unknown game.
#[tokio::test]
async fn apply_answers_alike_whatever_the_shape_of_its_body() {
    let app = spawn_app().await;
    let step = app.new_game(3, 11).await;
    let (seat, action) = first_legal(&step);
    let state = serde_json::to_string(&step["state"]).unwrap();
    let action = serde_json::to_string(&action).unwrap();
    let path = format!("/v1/games/{GAME}/apply");
    let canonical = app
        .post_raw(
            &path,
            format!(r#"{{"state":{state},"seat":{seat},"action":{action}}}"#),
        )
        .await;
    assert_eq!(canonical.status, 200, "{}", canonical.body);
    for body in [
        format!(r#"{{"action":{action},"seat":{seat},"state":{state}}}"#),
        format!(r#" {{ "seat" : {seat} , "st\u0061te" : {state} , "action" : {action} }} "#),
    ] {
        let reply = app.post_raw(&path, body.clone()).await;
        assert_eq!(reply.status, 200, "{body}: {}", reply.body);
        assert_eq!(reply.body, canonical.body, "{body}");
    }
    let refused: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "a repeated state",
            format!(r#"{{"state":{state},"state":{state},"seat":{seat},"action":{action}}}"#)
                .into(),
            "duplicate field",
        ),
        (
            "an unknown field",
            format!(r#"{{"state":{state},"seat":{seat},"action":{action},"colour":1}}"#).into(),
            "unknown field",
        ),
        (
            "a seat as text",
            format!(r#"{{"state":{state},"seat":"{seat}","action":{action}}}"#).into(),
            "invalid type",
        ),
        (
            "no action",
            format!(r#"{{"state":{state},"seat":{seat}}}"#).into(),
            "missing field",
        ),
        (
            "bytes that are not UTF-8",
            [
                format!(r#"{{"state":{state},"seat":{seat},"action":""#).as_bytes(),
                &[0xff],
                b"\"}",
            ]
            .concat(),
            "invalid unicode code point",
        ),
    ];
    for (name, body, detail) in refused {
        let reply = app.post_raw(&path, body).await;
        assert_eq!(reply.status, 400, "{name}: {}", reply.body);
        assert_eq!(
            reply.problem_code(),
            "malformed_json",
            "{name}: {}",
            reply.body
        );
        let said = reply.body["detail"].as_str().unwrap();
        assert!(said.contains(detail), "{name}: {said}");
    }
    // The body's errors come before the game's: a malformed body for an unknown game is a 400.
    let reply = app.post_raw("/v1/games/chess/apply", "{\"state\": ").await;
    assert_eq!(reply.problem_code(), "malformed_json", "{}", reply.body);
    let reply = app
        .post_raw(
            "/v1/games/chess/apply",
            format!(r#"{{"state":{state},"seat":{seat},"action":{action}}}"#),
        )
        .await;
    assert_eq!(reply.problem_code(), "unknown_game", "{}", reply.body);
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

/// Issue 11 item 4: a JSON body sent as `text/plain` (what a cross-origin form may post without
/// CORS) was accepted by `new`. Every JSON endpoint of the OpenAPI document, rules API and arena,
/// answers 415 `unsupported_media_type` to another content type and to none.
#[tokio::test]
async fn a_json_body_sent_as_text_plain_is_415_on_every_json_endpoint() {
    let app = ServerOptions::default().arena("415").spawn().await;
    let (base, http) = (&app.base, &app.client);

    let doc = api::openapi::document();
    let mut checked = 0;
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("operations") {
            let Some(example) = op["requestBody"]["content"].get("application/json") else {
                continue;
            };
            // A body the endpoint would accept as JSON: its documented example when there is one.
            let body = example
                .get("example")
                .cloned()
                .unwrap_or_else(|| json!({"players": 2}));
            let url = format!("{base}{path}")
                .replace("{game}", GAME)
                .replace("{id}", "b_nope")
                .replace("{name}", "random")
                .replace("{event}", "start");
            let method =
                reqwest::Method::from_bytes(method.to_uppercase().as_bytes()).expect("method");
            for content_type in [
                Some("text/plain"),
                Some("application/x-www-form-urlencoded"),
                None,
            ] {
                let mut request = http
                    .request(method.clone(), &url)
                    .body(serde_json::to_vec(&body).expect("json"));
                if let Some(content_type) = content_type {
                    request = request.header("content-type", content_type);
                }
                let response = request.send().await.expect("send");
                let status = response.status().as_u16();
                let media = response
                    .headers()
                    .get("content-type")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or_default()
                    .to_string();
                let problem: Value = response.json().await.expect("a JSON body");
                let name = format!("{method} {path} as {content_type:?}");
                assert_eq!(status, 415, "{name}: {problem}");
                assert_eq!(media, "application/problem+json", "{name}");
                assert_eq!(problem["code"], "unsupported_media_type", "{name}");
                assert_eq!(problem["status"], 415, "{name}");
            }
            checked += 1;
        }
    }
    // new, legal, apply, view, replay; register, update, create match; bot move and notice.
    assert!(checked >= 10, "only {checked} JSON endpoints found");
    app.stop().await;
}
