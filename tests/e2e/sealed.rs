//! Sealed mode: opaque tokens, tampering detection, require-sealed.

use crate::play::play_to_end;
use crate::support::{GAME, TestApp, first_legal, spawn_with, test_key};
use api::codec::{SealKey, StateCodec};
use serde_json::{Value, json};

#[tokio::test]
async fn a_sealed_game_round_trips_and_views_stay_in_the_clear() {
    let app = spawn_with(StateCodec::sealed(&test_key(), false)).await;
    let step = app.new_game(2, 4).await;
    let token = step["state"].as_str().expect("a sealed token");
    assert!(token.starts_with("v2."), "{token}");

    let reply = app
        .op(GAME, "view", &json!({"state": token, "seat": 0}))
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert!(reply.body["view"].is_object());
    let (seat, _) = first_legal(&step);
    let reply = app
        .op(GAME, "legal", &json!({"state": token, "seat": seat}))
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);

    let (end, _) = play_to_end(&app, step).await;
    assert!(end["state"].is_string());
    assert!(end["result"]["ranking"].is_array());

    let healthz = app.get("/healthz").await;
    assert_eq!(healthz.body["sealed"], true);
}

#[tokio::test]
async fn a_modified_or_foreign_token_is_state_tampered() {
    let app = spawn_with(StateCodec::sealed(&test_key(), false)).await;
    let step = app.new_game(2, 4).await;
    let token = step["state"].as_str().unwrap().to_string();
    let (seat, action) = first_legal(&step);

    let other = spawn_with(StateCodec::sealed(&SealKey::from_bytes([1; 32]), false)).await;
    let foreign = other.new_game(2, 4).await["state"]
        .as_str()
        .unwrap()
        .to_string();
    let [flipped, truncated] = damaged(&token);
    let states = [
        flipped,
        truncated,
        ("other key", foreign),
        ("garbage", "hello".into()),
    ];
    assert_tampered(&app, seat, &action, states).await;
}

/// The token with one character changed in its middle, and the token cut short.
fn damaged(token: &str) -> [(&'static str, String); 2] {
    let mut bytes = token.as_bytes().to_vec();
    let i = bytes.len() / 2;
    bytes[i] = if bytes[i] == b'A' { b'B' } else { b'A' };
    let flipped = String::from_utf8(bytes).expect("ascii");
    let truncated = token[..token.len() - 4].to_string();
    [("flipped", flipped), ("truncated", truncated)]
}

/// Each state, applied with `seat` and `action`, is refused as `state_tampered`.
async fn assert_tampered<const N: usize>(
    app: &TestApp,
    seat: u64,
    action: &Value,
    states: [(&str, String); N],
) {
    for (name, state) in states {
        let reply = app
            .op(
                GAME,
                "apply",
                &json!({"state": state, "seat": seat, "action": action}),
            )
            .await;
        assert_eq!(reply.status, 400, "{name}: {}", reply.body);
        assert_eq!(reply.problem_code(), "state_tampered", "{name}");
    }
}

#[tokio::test]
async fn require_sealed_refuses_transparent_states_and_sealed_mode_accepts_them_otherwise() {
    let transparent = crate::support::spawn_app().await;
    let plain = transparent.new_game(2, 8).await;
    let (seat, action) = first_legal(&plain);
    let body = json!({"state": plain["state"], "seat": seat, "action": action});

    let lenient = spawn_with(StateCodec::sealed(&test_key(), false)).await;
    let reply = lenient.op(GAME, "apply", &body).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert!(reply.body["state"].is_string(), "the answer is sealed");

    let strict = spawn_with(StateCodec::sealed(&test_key(), true)).await;
    let reply = strict.op(GAME, "apply", &body).await;
    assert_eq!(reply.status, 400, "{}", reply.body);
    assert_eq!(reply.problem_code(), "sealed_state_required");
}

/// A `v1.` token (XChaCha20-Poly1305 over the envelope's JSON) made by the server before `v2.`
/// tokens were issued, under the test key, of `new` with 2 players and seed 4: it still opens
/// (the same view as the transparent game, an action applies and is answered with a `v2.`
/// token), and a changed or truncated `v1.` token is `state_tampered`.
#[tokio::test]
async fn a_v1_token_of_an_older_server_still_opens() {
    let token = include_str!("fixtures/v1_token.txt").trim();
    assert!(token.starts_with("v1."), "{token}");
    let app = spawn_with(StateCodec::sealed(&test_key(), false)).await;
    let transparent = crate::support::spawn_app().await;
    let plain = transparent.new_game(2, 4).await;
    for seat in 0..2 {
        let sealed_view = app
            .op(GAME, "view", &json!({"state": token, "seat": seat}))
            .await;
        let plain_view = transparent
            .op(
                GAME,
                "view",
                &json!({"state": plain["state"], "seat": seat}),
            )
            .await;
        assert_eq!(sealed_view.status, 200, "{}", sealed_view.body);
        assert_eq!(sealed_view.body, plain_view.body, "seat {seat}");
    }

    let (seat, action) = first_legal(&plain);
    let reply = app
        .op(
            GAME,
            "apply",
            &json!({"state": token, "seat": seat, "action": action}),
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let next = reply.body["state"].as_str().expect("a sealed token");
    assert!(next.starts_with("v2."), "{next}");
    let plain_next = transparent
        .op(
            GAME,
            "apply",
            &json!({"state": plain["state"], "seat": seat, "action": action}),
        )
        .await;
    assert_eq!(
        reply.body["legal_actions"],
        plain_next.body["legal_actions"]
    );
    assert_eq!(reply.body["events"], plain_next.body["events"]);

    assert_tampered(&app, seat, &action, damaged(token)).await;
}
