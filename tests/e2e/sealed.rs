//! Sealed mode: opaque tokens, tampering detection, require-sealed.

use crate::play::play_to_end;
use crate::support::{GAME, first_legal, spawn_with, test_key};
use api::codec::{SealKey, StateCodec};
use serde_json::json;

#[tokio::test]
async fn a_sealed_game_round_trips_and_views_stay_in_the_clear() {
    let app = spawn_with(StateCodec::sealed(&test_key(), false)).await;
    let step = app.new_game(2, 4).await;
    let token = step["state"].as_str().expect("a sealed token");
    assert!(token.starts_with("v1."), "{token}");

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

    let mut bytes = token.clone().into_bytes();
    let i = bytes.len() / 2;
    bytes[i] = if bytes[i] == b'A' { b'B' } else { b'A' };
    let flipped = String::from_utf8(bytes).unwrap();
    let truncated = token[..token.len() - 4].to_string();
    let other = spawn_with(StateCodec::sealed(&SealKey::from_bytes([1; 32]), false)).await;
    let foreign = other.new_game(2, 4).await["state"]
        .as_str()
        .unwrap()
        .to_string();
    for (name, state) in [
        ("flipped", flipped),
        ("truncated", truncated),
        ("other key", foreign),
        ("garbage", "hello".into()),
    ] {
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
