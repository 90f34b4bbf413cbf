//! Duplicate tournaments (`/v1/tournaments`): every deal at every rotation of the seats with the
//! same cards, standings with confidence intervals, head-to-head counts, and the embargo that
//! keeps a table's moves secret while another table plays the same deal.

use crate::support::{
    Behavior, fresh_postgres, register, send, spawn_app, spawn_arena, spawn_arena_with, spawn_bot,
    two_player_game,
};
use arena::store::{AbortReason, deal_seed};
use arena::{Arena, ArenaConfig};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::time::Duration;

async fn wait_tournament(base: &str, http: &reqwest::Client, id: &str) -> Value {
    for _ in 0..2400 {
        let (status, view) = send(http.get(format!("{base}/v1/tournaments/{id}"))).await;
        assert_eq!(status, 200, "{view}");
        if view["status"] == "finished" {
            return view;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("tournament {id} did not finish");
}

#[tokio::test]
async fn every_deal_is_played_at_every_rotation_with_the_same_cards_and_scored() {
    let arena = spawn_arena("tournament").await;
    play_a_tournament(&arena).await;
}

#[tokio::test]
async fn a_tournament_plays_on_postgres_when_a_database_is_given() {
    let Some(url) = fresh_postgres().await else {
        return;
    };
    play_a_tournament(&Arena::open(ArenaConfig::local(url)).await.expect("open")).await;
}

async fn play_a_tournament(arena: &Arena) {
    let game = two_player_game();
    arena.register_builtins().await.expect("builtins");
    let base = spawn_app(arena).await;
    let http = reqwest::Client::new();
    let (status, created) = send(http.post(format!("{base}/v1/tournaments")).json(&json!({
        "game": game, "bots": ["random", "heuristic"], "deals": 3, "seed": 42
    })))
    .await;
    assert_eq!(status, 202, "{created}");
    assert_eq!(created["status"], "running");
    assert_eq!(created["matches"], 6);
    let id = created["id"].as_str().unwrap().to_string();
    assert!(id.starts_with("t_"), "{id}");

    let view = wait_tournament(&base, &http, &id).await;
    assert_eq!(view["seed"], 42, "the seed opens once every table is over");
    assert_eq!(view["deals"], 3);
    assert_eq!(view["seat_rotations"], true);
    let random = view["seats"][0]["bot"].as_str().unwrap().to_string();
    let heuristic = view["seats"][1]["bot"].as_str().unwrap().to_string();
    assert_eq!(view["seats"][1]["name"], "heuristic");
    let tables = view["matches"].as_array().unwrap();
    assert_eq!(tables.len(), 6);

    // bot -> deal -> scores at that deal's tables (the test's own computation of the standings).
    let mut per_deal: BTreeMap<String, BTreeMap<u64, Vec<f64>>> = BTreeMap::new();
    for deal in 0..3u64 {
        let pair: Vec<&Value> = tables.iter().filter(|t| t["deal"] == deal).collect();
        assert_eq!(pair.len(), 2, "deal {deal}: one table per rotation");
        assert_eq!(pair[0]["rotation"], 0);
        assert_eq!(pair[1]["rotation"], 1);
        assert_eq!(pair[0]["bots"], json!([random, heuristic]));
        assert_eq!(pair[1]["bots"], json!([heuristic, random]));
        let mut starts = Vec::new();
        for table in &pair {
            let match_id = table["id"].as_str().unwrap();
            let (status, detail) = send(http.get(format!("{base}/v1/matches/{match_id}"))).await;
            assert_eq!(status, 200, "{detail}");
            assert_eq!(detail["status"], "finished");
            assert_eq!(detail["seed"], deal_seed(42, deal as u32));
            assert_eq!(detail["result"]["scores"], table["scores"]);
            for (seat, bot) in table["bots"].as_array().unwrap().iter().enumerate() {
                per_deal
                    .entry(bot.as_str().unwrap().to_string())
                    .or_default()
                    .entry(deal)
                    .or_default()
                    .push(table["scores"][seat].as_f64().unwrap());
            }
            // The same cards in the same seats: the start position seen from seat 0.
            let (status, frames) =
                send(http.get(format!("{base}/v1/matches/{match_id}/frames?seat=0"))).await;
            assert_eq!(status, 200, "{frames}");
            starts.push(frames["frames"][0]["view"].clone());
        }
        assert_eq!(
            starts[0], starts[1],
            "deal {deal}: both tables deal the same cards"
        );
    }
    assert_ne!(deal_seed(42, 0), deal_seed(42, 1));

    let standings = view["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 2);
    for standing in standings {
        let bot = standing["bot"].as_str().unwrap();
        let means: Vec<f64> = per_deal[bot]
            .values()
            .map(|scores| scores.iter().sum::<f64>() / scores.len() as f64)
            .collect();
        let mean = means.iter().sum::<f64>() / 3.0;
        assert_eq!(standing["deals"], 3);
        assert!((standing["mean_score"].as_f64().unwrap() - mean).abs() < 1e-9);
        let sd = (means.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / 2.0).sqrt();
        let half = 4.303 * sd / 3f64.sqrt();
        let ci = standing["ci95"].as_array().unwrap();
        assert!(
            (ci[0].as_f64().unwrap() - (mean - half)).abs() < 1e-9,
            "{standing}"
        );
        assert!(
            (ci[1].as_f64().unwrap() - (mean + half)).abs() < 1e-9,
            "{standing}"
        );
    }
    assert!(
        standings[0]["mean_score"].as_f64() >= standings[1]["mean_score"].as_f64(),
        "best first: {standings:?}"
    );
    let pairs = view["head_to_head"].as_array().unwrap();
    assert_eq!(pairs.len(), 1);
    let played = ["wins", "losses", "ties"]
        .iter()
        .map(|k| pairs[0][k].as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(played, 6, "{pairs:?}");

    let (status, list) = send(http.get(format!("{base}/v1/tournaments?limit=5"))).await;
    assert_eq!(status, 200);
    assert_eq!(list["tournaments"][0]["id"], id.as_str());
    assert_eq!(list["tournaments"][0]["deals"], 3);
}

#[tokio::test]
async fn a_tables_moves_and_result_stay_secret_while_another_table_plays_its_deal() {
    let game = two_player_game();
    // One match at a time against a bot that takes 30 s to answer: the first table waits on it,
    // the second stays queued.
    let arena = spawn_arena_with("embargo", |config| config.concurrency = 1).await;
    arena.register_builtins().await.expect("builtins");
    let slow = spawn_bot(Behavior::Slow(30_000)).await;
    let slow_id = register(&arena, &slow, &game).await;
    let base = spawn_app(&arena).await;
    let http = reqwest::Client::new();
    let (status, created) = send(http.post(format!("{base}/v1/tournaments")).json(&json!({
        "game": game, "bots": [slow_id, "random"], "deals": 1, "deadline_ms": 60000
    })))
    .await;
    assert_eq!(status, 202, "{created}");
    let id = created["id"].as_str().unwrap();
    let (_, view) = send(http.get(format!("{base}/v1/tournaments/{id}"))).await;
    assert_eq!(view["status"], "running");
    assert_eq!(view["seed"], Value::Null);
    let tables: Vec<String> = view["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(tables.len(), 2);
    for path in ["", "/frames"] {
        let (status, problem) =
            send(http.get(format!("{base}/v1/matches/{}{path}", tables[0]))).await;
        assert_eq!(status, 403, "{problem}");
        assert_eq!(problem["code"], "deal_in_play");
    }
    let response = http
        .get(format!("{base}/v1/matches/{}/events", tables[0]))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 403);

    // One table over, the other still queued: still secret.
    assert!(
        arena
            .store()
            .abort_match(&tables[0], AbortReason::Failed, "test")
            .await
            .unwrap()
    );
    let (status, _) = send(http.get(format!("{base}/v1/matches/{}", tables[0]))).await;
    assert_eq!(status, 403);
    // Every table over: open.
    assert!(
        arena
            .store()
            .abort_match(&tables[1], AbortReason::Failed, "test")
            .await
            .unwrap()
    );
    for table in &tables {
        let (status, detail) = send(http.get(format!("{base}/v1/matches/{table}"))).await;
        assert_eq!(status, 200, "{detail}");
    }
    let (_, view) = send(http.get(format!("{base}/v1/tournaments/{id}"))).await;
    assert_eq!(view["status"], "finished");
    assert!(view["seed"].is_u64());
    // A deal with an aborted table is not counted.
    assert_eq!(view["standings"][0]["deals"], 0);
    assert_eq!(view["standings"][0]["mean_score"], Value::Null);
}

#[tokio::test]
async fn bad_tournaments_are_refused_with_their_codes() {
    let game = two_player_game();
    let arena = spawn_arena("bad-tournaments").await;
    arena.register_builtins().await.expect("builtins");
    let base = spawn_app(&arena).await;
    let http = reqwest::Client::new();
    let cases = [
        (
            json!({"game": game, "bots": ["random", "heuristic"], "deals": 0}),
            400,
            "invalid_request",
        ),
        (
            json!({"game": game, "bots": ["random", "heuristic"], "deals": 1001}),
            400,
            "invalid_request",
        ),
        (
            json!({"game": game, "bots": [], "deals": 1}),
            400,
            "invalid_request",
        ),
        (
            json!({"game": game, "bots": ["random", "nobody"], "deals": 1}),
            404,
            "unknown_bot",
        ),
        (
            json!({"game": "nope", "bots": ["random", "heuristic"], "deals": 1}),
            404,
            "unknown_game",
        ),
        (
            json!({"game": game, "bots": ["random", "heuristic"], "deals": 1, "seed": 9_007_199_254_740_992_u64}),
            422,
            "invalid_seed",
        ),
        (
            json!({"game": game, "bots": ["random"], "deals": 1, "extra": 1}),
            400,
            "malformed_json",
        ),
    ];
    for (body, status, code) in cases {
        let (got, problem) = send(http.post(format!("{base}/v1/tournaments")).json(&body)).await;
        assert_eq!(
            (got, problem["code"].as_str()),
            (status, Some(code)),
            "{body}: {problem}"
        );
    }
    let (status, problem) = send(http.get(format!("{base}/v1/tournaments/t_nope"))).await;
    assert_eq!(
        (status, problem["code"].as_str()),
        (404, Some("unknown_tournament"))
    );
    let (status, _) = send(http.get(format!("{base}/v1/tournaments?limit=0"))).await;
    assert_eq!(status, 400);
}
