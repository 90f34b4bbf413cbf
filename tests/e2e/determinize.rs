//! `POST /v1/games/{game}/determinize` over HTTP (issue 17): samples show the seat exactly its
//! view, play continues from them, a seed reproduces them, sealed servers seal them, and bad
//! requests get their stable codes.

use crate::support::{GAME, first_legal, spawn_app, spawn_with, test_key};
use api::codec::StateCodec;
use serde_json::{Value, json};

async fn view(app: &crate::support::TestApp, state: &Value, seat: u64) -> Value {
    let reply = app
        .op(GAME, "view", &json!({"state": state, "seat": seat}))
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    reply.body["view"].clone()
}

#[tokio::test]
async fn samples_keep_the_seats_view_and_play_continues_from_them() {
    let app = spawn_app().await;
    let step = app.new_game(4, 11).await;
    // Into the exchange and tricks of the first deal.
    let step = app.advance(step, 9).await;
    let seat = 1;
    let body = json!({"state": step["state"], "seat": seat, "count": 6, "seed": 5});
    let reply = app.op(GAME, "determinize", &body).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body["seat"], seat);
    assert_eq!(reply.body["seed"], 5);
    let states = reply.body["states"].as_array().expect("states").clone();
    assert_eq!(states.len(), 6);
    let mine = view(&app, &step["state"], seat).await;
    let mut others_hands = std::collections::BTreeSet::new();
    for state in &states {
        assert_eq!(
            view(&app, state, seat).await,
            mine,
            "a sample changed the view"
        );
        others_hands.insert(state["data"]["hands"][2].to_string());
        // The actor's choices in the sample are its own (another seat's hand was redealt).
        let (actor, _) = first_legal(&step);
        let legal = app
            .op(GAME, "legal", &json!({"state": state, "seat": actor}))
            .await;
        let action = legal.body["actions"][0].clone();
        let reply = app
            .op(
                GAME,
                "apply",
                &json!({"state": state, "seat": actor, "action": action}),
            )
            .await;
        assert_eq!(reply.status, 200, "play continues: {}", reply.body);
    }
    assert!(
        others_hands.len() > 1,
        "six samples all gave seat 2 the same hand: nothing was redealt"
    );
    // The same seed answers the same states; another seed other ones.
    let again = app.op(GAME, "determinize", &body).await;
    assert_eq!(again.body["states"], reply.body["states"]);
    let other = app
        .op(
            GAME,
            "determinize",
            &json!({"state": step["state"], "seat": seat, "count": 6, "seed": 6}),
        )
        .await;
    assert_ne!(other.body["states"], reply.body["states"]);
    // Without a seed the server draws one and says which.
    let drawn = app
        .op(
            GAME,
            "determinize",
            &json!({"state": step["state"], "seat": seat, "count": 1}),
        )
        .await;
    assert_eq!(drawn.status, 200, "{}", drawn.body);
    assert!(drawn.body["seed"].as_u64().is_some());
}

#[tokio::test]
async fn a_sealing_server_answers_sealed_samples() {
    let app = spawn_with(StateCodec::sealed(&test_key(), false)).await;
    let step = app.new_game(3, 2).await;
    let reply = app
        .op(
            GAME,
            "determinize",
            &json!({"state": step["state"], "seat": 0, "count": 2, "seed": 1}),
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let mine = view(&app, &step["state"], 0).await;
    for state in reply.body["states"].as_array().unwrap() {
        let token = state.as_str().expect("a sealed token");
        assert!(token.starts_with("v2."), "{token}");
        assert_eq!(view(&app, state, 0).await, mine);
    }
}

#[tokio::test]
async fn bad_determinize_requests_get_stable_codes() {
    let app = spawn_app().await;
    let step = app.new_game(3, 4).await;
    let state = &step["state"];
    let cases = [
        (
            json!({"state": state, "seat": 0, "count": 0}),
            400,
            "invalid_request",
        ),
        (
            json!({"state": state, "seat": 0, "count": 257}),
            400,
            "invalid_request",
        ),
        (
            json!({"state": state, "seat": 7, "count": 1}),
            400,
            "invalid_seat",
        ),
        (
            json!({"state": state, "seat": 0, "count": 1, "seed": 9_007_199_254_740_992u64}),
            422,
            "invalid_seed",
        ),
        (
            json!({"state": {"game": GAME}, "seat": 0, "count": 1}),
            400,
            "invalid_state",
        ),
        (json!({"state": state, "seat": 0}), 400, "malformed_json"),
    ];
    for (body, status, code) in cases {
        let reply = app.op(GAME, "determinize", &body).await;
        assert_eq!(reply.status, status, "{body}: {}", reply.body);
        assert_eq!(reply.problem_code(), code, "{body}: {}", reply.body);
    }
}

/// The Python example (`examples/ismcts/ismcts.py`, standard library only) runs its IS-MCTS
/// against the real server: every search samples with `determinize` and plays its rollouts with
/// `apply`, the other seats ask the built-in heuristic bot's move route, and every game of the
/// duplicate series ends with a full result. A refused call would stop it with the problem's code.
/// The server only takes sealed states: the example never reads one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_ismcts_example_plays_duplicate_games_over_http() {
    if !e2e::tool_or_skip("python3", "Python 3.9 or later: apt-get install -y python3") {
        return;
    }
    let app = spawn_with(StateCodec::sealed(&test_key(), true)).await;
    let base = app.base.clone();
    let output = tokio::task::spawn_blocking(move || {
        std::process::Command::new("python3")
            .arg(crate::support::workspace_root().join("examples/ismcts/ismcts.py"))
            .args(["duel", "--base", &base, "--game", "bird_dog_short"])
            .args([
                "--players",
                "3",
                "--seeds",
                "1",
                "--iterations",
                "2",
                "--json",
            ])
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .output()
    })
    .await
    .expect("join")
    .expect("this test needs python3 on PATH");
    assert!(
        output.status.success(),
        "the example failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_slice(&output.stdout).expect("one JSON document");
    let summary = &report["summary"];
    assert_eq!(summary["games"], 3, "{summary}");
    let games = report["games"].as_array().expect("games");
    assert_eq!(games.len(), 3);
    for (seat, game) in games.iter().enumerate() {
        assert_eq!(game["seat"], seat);
        let ranked: usize = game["result"]["ranking"]
            .as_array()
            .expect("ranking")
            .iter()
            .map(|group| group.as_array().expect("group").len())
            .sum();
        assert_eq!(ranked, 3, "every seat is ranked: {game}");
        for key in ["ismcts", "heuristic"] {
            let standing = game[key].as_f64().expect("a standing");
            assert!((0.0..=1.0).contains(&standing), "{game}");
        }
    }
    let better = summary["better"].as_u64().expect("better");
    let level = summary["level"].as_u64().expect("level");
    let worse = summary["worse"].as_u64().expect("worse");
    assert_eq!(better + level + worse, 3);
    // Searches made calls beyond the moves of the three games and their baseline.
    assert!(summary["calls"].as_u64().expect("calls") > 300, "{summary}");
}
