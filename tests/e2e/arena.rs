//! The arena mounted in the real server: built-in bots registered at start, a ranked match over
//! HTTP, the leaderboard moving, problem+json errors from arena routes.

use api::startup::{ServeConfig, build};
use serde_json::{Value, json};
use std::time::Duration;

#[tokio::test]
async fn a_ranked_match_between_builtin_bots_moves_the_leaderboard() {
    let dir = std::env::temp_dir().join(format!("cardroom-e2e-arena-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let arena = arena::Arena::open(arena::ArenaConfig::local(
        dir.join("arena.db").to_string_lossy().to_string(),
    ))
    .await
    .expect("open the arena");
    let builtins = arena.register_builtins().await.expect("built-in bots");
    let running = build(ServeConfig {
        port: 0,
        workers: Some(1),
        handle_signals: false,
        arena: Some(arena),
        ..ServeConfig::default()
    })
    .expect("bind");
    let base = format!("http://{}", running.addr);
    let handle = running.server.handle();
    tokio::spawn(running.server);
    arena::client::install_crypto_provider();
    let http = reqwest::Client::new();

    let created: Value = http
        .post(format!("{base}/v1/matches"))
        .json(&json!({"game": "twenty_two", "bots": builtins, "ranked": true}))
        .send()
        .await
        .expect("send")
        .json()
        .await
        .expect("json");
    let id = created["id"].as_str().expect("match id").to_string();
    let mut status = Value::Null;
    for _ in 0..400 {
        let view: Value = http
            .get(format!("{base}/v1/matches/{id}"))
            .send()
            .await
            .expect("send")
            .json()
            .await
            .expect("json");
        status = view["status"].clone();
        if status == "finished" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(status, "finished");
    let board: Value = http
        .get(format!("{base}/v1/leaderboards/twenty_two"))
        .send()
        .await
        .expect("send")
        .json()
        .await
        .expect("json");
    assert_eq!(
        board["entries"].as_array().map(Vec::len),
        Some(2),
        "{board}"
    );

    let response = http
        .get(format!("{base}/v1/bots/b_nope"))
        .send()
        .await
        .expect("send");
    assert_eq!(response.status().as_u16(), 404);
    assert_eq!(
        response.headers()["content-type"],
        "application/problem+json"
    );
    handle.stop(true).await;
}
