//! Operations through the real server: a client's `x-request-id` is kept, and `/metrics` carries
//! the arena's families once a match has been played (bots named by name).

use crate::support::{ServerOptions, spawn_app};
use serde_json::{Value, json};
use std::time::Duration;

#[tokio::test]
async fn a_clients_request_id_is_echoed_and_a_bad_one_is_replaced() {
    let app = spawn_app().await;
    let response = app
        .client
        .get(format!("{}/v1/games/no_such_game", app.base))
        .header("x-request-id", "client-7f3a-0001")
        .send()
        .await
        .expect("send");
    assert_eq!(response.status().as_u16(), 404);
    assert_eq!(response.headers()["x-request-id"], "client-7f3a-0001");
    let response = app
        .client
        .get(format!("{}/healthz", app.base))
        .header("x-request-id", "x".repeat(200))
        .send()
        .await
        .expect("send");
    let id = response.headers()["x-request-id"]
        .to_str()
        .expect("ascii")
        .to_string();
    assert_eq!(id.len(), 32, "{id}");
    assert!(id.bytes().all(|b| b.is_ascii_hexdigit()), "{id}");
}

#[tokio::test]
async fn metrics_count_the_arenas_matches_moves_and_bot_calls() {
    let app = ServerOptions::default()
        .arena("ops")
        .builtins()
        .spawn()
        .await;
    let (base, http) = (&app.base, &app.client);

    let created: Value = http
        .post(format!("{base}/v1/matches"))
        .json(&json!({"game": "twenty_two", "bots": ["random", "heuristic"], "seed": 9}))
        .send()
        .await
        .expect("send")
        .json()
        .await
        .expect("json");
    let id = created["id"].as_str().expect("match id").to_string();
    let mut view = Value::Null;
    for _ in 0..400 {
        view = http
            .get(format!("{base}/v1/matches/{id}"))
            .send()
            .await
            .expect("send")
            .json()
            .await
            .expect("json");
        if view["status"] == "finished" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(view["status"], "finished", "{view}");
    let moves = view["moves"].as_array().map_or(0, Vec::len);
    let text = http
        .get(format!("{base}/metrics"))
        .send()
        .await
        .expect("send")
        .text()
        .await
        .expect("text");
    for line in [
        "cardroom_arena_matches_started_total{game=\"twenty_two\"} 1".to_string(),
        "cardroom_arena_matches_finished_total{game=\"twenty_two\",outcome=\"clean\"} 1"
            .to_string(),
        format!("cardroom_arena_moves_total{{game=\"twenty_two\"}} {moves}"),
        format!("cardroom_arena_bot_call_duration_seconds_count {moves}"),
    ] {
        assert!(text.lines().any(|l| l == line), "{line} missing in\n{text}");
    }
    // OpenMetrics: a counter family is typed under its name without `_total`, and the
    // exposition (the API's and the arena's registries) ends with one `# EOF`.
    assert!(
        text.contains("# TYPE cardroom_arena_faults counter"),
        "{text}"
    );
    assert!(text.ends_with("# EOF\n"), "{text}");
    assert_eq!(text.matches("# EOF").count(), 1, "{text}");
    app.stop().await;
}
