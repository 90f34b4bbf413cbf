//! The arena's HTTP API end to end: register bots, play a match, read it back, leaderboards,
//! owner-only changes, problem+json errors; the arena keeps serving while bots misbehave.

use crate::support::{
    ADMIN_TOKEN, Behavior, all_games, spawn_app, spawn_arena, spawn_bot, two_player_game,
};
use serde_json::{Value, json};
use std::time::Duration;

async fn send(_client: &reqwest::Client, request: reqwest::RequestBuilder) -> (u16, Value) {
    let response = request.send().await.expect("send");
    let status = response.status().as_u16();
    let text = response.text().await.expect("body");
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

#[tokio::test]
async fn bots_matches_and_leaderboards_over_http() {
    let arena = spawn_arena("routes").await;
    let base = spawn_app(&arena).await;
    arena::client::install_crypto_provider();
    let http = reqwest::Client::new();
    let good = spawn_bot(Behavior::Good).await;
    let failing = spawn_bot(Behavior::Error500).await;
    let games = all_games();
    let first_game = games
        .first()
        .cloned()
        .unwrap_or_else(|| "twenty_two".into());

    // Malformed JSON and unknown things are problem+json.
    let (status, body) = send(
        &http,
        http.post(format!("{base}/v1/bots"))
            .header("content-type", "application/json")
            .body("{not json"),
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("malformed_json"))
    );
    assert_eq!(body["status"], 400);
    assert!(
        body["type"]
            .as_str()
            .is_some_and(|t| t.ends_with("malformed_json"))
    );
    let (status, body) = send(&http, http.get(format!("{base}/v1/bots/b_nope"))).await;
    assert_eq!((status, body["code"].as_str()), (404, Some("unknown_bot")));
    let (status, body) = send(
        &http,
        http.get(format!("{base}/v1/leaderboards/no_such_game")),
    )
    .await;
    assert_eq!((status, body["code"].as_str()), (404, Some("unknown_game")));
    let (status, body) = send(
        &http,
        http.post(format!("{base}/v1/bots"))
            .json(&json!({"name": "x", "url": "http://127.0.0.1:9", "games": [first_game]})),
    )
    .await;
    assert_eq!(status, 422, "{body}");

    // The built-in bots answer the protocol over HTTP.
    // At the base URL the arena registers (`/bots/random/`) and without the trailing slash, the
    // documented path (issue 43).
    for path in ["/bots/random/", "/bots/random"] {
        let (status, body) = send(&http, http.get(format!("{base}{path}"))).await;
        assert_eq!(
            (status, body["name"].as_str()),
            (200, Some("random")),
            "{path}"
        );
    }
    for path in ["/bots/nobody/", "/bots/nobody"] {
        let (status, body) = send(&http, http.get(format!("{base}{path}"))).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (404, Some("unknown_bot")),
            "{path}"
        );
    }

    let game = two_player_game();
    let (status, registered) = send(
        &http,
        http.post(format!("{base}/v1/bots")).json(
            &json!({"name": "good", "url": good.url, "games": [game], "open_to_challenges": true}),
        ),
    )
    .await;
    assert_eq!(status, 201, "{registered}");
    let good_id = registered["id"].as_str().expect("id").to_string();
    let token = registered["token"].as_str().expect("token").to_string();
    assert_eq!(
        registered["signing_secret"].as_str().map(str::len),
        Some(64)
    );
    let (_, failing_reg) = send(
        &http,
        http.post(format!("{base}/v1/bots"))
            .json(&json!({"name": "failing", "url": failing.url, "games": [game], "open_to_challenges": true})),
    )
    .await;
    let failing_id = failing_reg["id"].as_str().expect("id").to_string();

    // A built-in bot can answer a move request for this game.
    let engine_game = engine::registry::find(&game).expect("game");
    let state = engine_game
        .start(&engine::NewGame {
            players: 2,
            seed: 1,
            ..Default::default()
        })
        .expect("start");
    let seat = state.to_act()[0];
    let (status, body) = send(
        &http,
        http.post(format!("{base}/bots/heuristic/move")).json(&json!({
            "match": "m_x", "game": game, "seat": seat, "view": state.view(engine::Viewer::Seat(seat)),
            "legal_actions": state.legal_actions(seat), "deadline_ms": 1000
        })),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert!(state.legal_actions(seat).contains(&body["action"]));

    // Ranked matches refuse option overrides.
    let (status, body) = send(&http, http.post(format!("{base}/v1/matches")).bearer_auth(ADMIN_TOKEN).json(&json!({"game": game, "bots": [good_id, failing_id], "ranked": true, "options": {"x": 1}}))).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (422, Some("ranked_overrides"))
    );
    let (status, body) = send(
        &http,
        http.post(format!("{base}/v1/matches"))
            .json(&json!({"game": game, "bots": [good_id, "b_nope"]})),
    )
    .await;
    assert_eq!((status, body["code"].as_str()), (404, Some("unknown_bot")));

    // A ranked match's seed is secret: a caller cannot choose it.
    let (status, body) = send(
        &http,
        http.post(format!("{base}/v1/matches"))
            .bearer_auth(ADMIN_TOKEN)
            .json(&json!({"game": game, "bots": [good_id, failing_id], "seed": 5, "ranked": true})),
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (422, Some("ranked_overrides")),
        "{body}"
    );

    let (status, created) = send(&http, http.post(format!("{base}/v1/matches")).bearer_auth(ADMIN_TOKEN).json(&json!({"game": game, "bots": [good_id, failing_id], "ranked": true, "deadline_ms": 300}))).await;
    assert_eq!(status, 202, "{created}");
    let match_id = created["id"].as_str().expect("id").to_string();
    let mut view = Value::Null;
    for _ in 0..600 {
        let (_, body) = send(&http, http.get(format!("{base}/v1/matches/{match_id}"))).await;
        view = body;
        if view["status"] == "finished" {
            break;
        }
        // While the match is live its seed, replay and actions (which may hide cards) are secret.
        if view["status"] == "running" {
            assert!(view["seed"].is_null() && view["replay"].is_null(), "{view}");
            let moves = view["moves"].as_array().expect("moves");
            assert!(moves.iter().all(|m| m["action"].is_null()), "{view}");
        }
        // The arena keeps serving while the match runs.
        let (status, _) = send(&http, http.get(format!("{base}/v1/bots"))).await;
        assert_eq!(status, 200);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(view["status"], "finished", "{view}");
    assert_eq!(view["seats"][1]["name"], "failing");
    let moves = view["moves"].as_array().expect("moves");
    assert!(
        moves
            .iter()
            .filter(|m| m["seat"] == 1)
            .take(3)
            .all(|m| m["fault"]["kind"] == "bad_status")
    );
    assert!(
        moves
            .iter()
            .filter(|m| m["seat"] == 0)
            .all(|m| m["fault"].is_null() && m["latency_ms"].is_u64())
    );
    // The replay block refers to the moves for its actions; alone, it carries them.
    assert!(view["replay"]["seed"].is_u64() && view["replay"].get("actions").is_none());
    let (_, replay_only) = send(
        &http,
        http.get(format!("{base}/v1/matches/{match_id}?include=replay")),
    )
    .await;
    assert_eq!(
        replay_only["replay"]["actions"].as_array().map(Vec::len),
        Some(moves.len())
    );
    assert!(view["seed"].is_u64() && moves.iter().all(|m| m["action"].is_object()));
    assert!(view["result"]["ranking"].is_array());

    let (status, list) = send(
        &http,
        http.get(format!(
            "{base}/v1/matches?game={game}&bot={good_id}&limit=5"
        )),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(list["matches"][0]["id"], json!(match_id));
    let (status, board) = send(&http, http.get(format!("{base}/v1/leaderboards/{game}"))).await;
    assert_eq!(status, 200);
    assert_eq!(board["entries"].as_array().map(Vec::len), Some(2));
    let (_, bot) = send(&http, http.get(format!("{base}/v1/bots/{good_id}"))).await;
    assert_eq!(bot["ratings"][0]["played"], 1);
    assert_eq!(bot["recent_matches"][0]["id"], json!(match_id));
    assert!(bot.get("url").is_none() && bot.get("token").is_none());

    // Owner-only changes.
    let (status, body) = send(
        &http,
        http.patch(format!("{base}/v1/bots/{good_id}"))
            .json(&json!({"name": "renamed"})),
    )
    .await;
    assert_eq!((status, body["code"].as_str()), (401, Some("unauthorized")));
    let (status, _) = send(
        &http,
        http.patch(format!("{base}/v1/bots/{good_id}"))
            .bearer_auth("wrong")
            .json(&json!({"name": "renamed"})),
    )
    .await;
    assert_eq!(status, 401);
    let (status, body) = send(
        &http,
        http.patch(format!("{base}/v1/bots/{good_id}"))
            .bearer_auth(&token)
            .json(&json!({"name": "renamed"})),
    )
    .await;
    assert_eq!((status, body["name"].as_str()), (200, Some("renamed")));
    let (status, _) = send(
        &http,
        http.delete(format!("{base}/v1/bots/{good_id}"))
            .bearer_auth(&token),
    )
    .await;
    assert_eq!(status, 204);
    let (status, _) = send(&http, http.get(format!("{base}/v1/bots/{good_id}"))).await;
    assert_eq!(status, 404);
    // Its match stays readable.
    let (status, _) = send(&http, http.get(format!("{base}/v1/matches/{match_id}"))).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn the_ladder_schedules_ranked_matches_among_builtin_bots() {
    let game = two_player_game();
    let arena = spawn_arena("ladder").await;
    arena.register_builtins().await.expect("builtins");
    // Registering again finds the same bots.
    assert_eq!(arena.register_builtins().await.expect("again").len(), 3);
    assert_eq!(
        arena
            .list_bots(Default::default())
            .await
            .expect("bots")
            .bots
            .len(),
        3
    );
    let scheduled = arena::ladder::round(&arena).await.expect("round");
    assert!(!scheduled.is_empty());
    // One match per game id at once, 4 at a time: a bound for a loaded machine, not a speed test.
    for id in &scheduled {
        let record = arena
            .wait_for(id, Duration::from_secs(300))
            .await
            .expect("finish");
        assert!(record.ranked && record.ladder);
    }
    // `ismcts` plays only the matches that name it: the ladder leaves it out.
    let board = arena
        .leaderboard(&game, Default::default())
        .await
        .expect("board");
    assert_eq!(board.entries.len(), 2);
}
