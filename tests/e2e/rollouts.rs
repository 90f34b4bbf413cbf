//! `POST /v1/games/{game}/rollouts` over HTTP (issue 41): per action every seat's mean final
//! score from `count` playouts, the same figures for the same seed, listed actions in the order
//! asked, sealed states played out from the seat's determinizations, and the bounds refused with
//! their stable codes.

use crate::support::{GAME, spawn_app, spawn_with, test_key};
use api::codec::StateCodec;
use serde_json::{Value, json};

fn results(body: &Value) -> &Vec<Value> {
    body["results"].as_array().expect("results")
}

#[tokio::test]
async fn every_legal_action_gets_every_seats_mean_and_the_seed_replays() {
    let app = spawn_app().await;
    let step = app.advance(app.new_game(4, 11).await, 9).await;
    let seat = step["legal_actions"][0]["seat"].as_u64().expect("a seat");
    let legal = step["legal_actions"][0]["actions"]
        .as_array()
        .unwrap()
        .clone();
    assert!(legal.len() >= 2, "a choice: {legal:?}");
    for policy in ["random", "heuristic"] {
        let body =
            json!({"state": step["state"], "seat": seat, "count": 20, "policy": policy, "seed": 3});
        let reply = app.op(GAME, "rollouts", &body).await;
        assert_eq!(reply.status, 200, "{}", reply.body);
        assert_eq!(reply.body["seat"], seat);
        assert_eq!(reply.body["seed"], 3);
        assert_eq!(reply.body["policy"], policy);
        assert_eq!(reply.body["determinized"], false);
        let found = results(&reply.body);
        assert_eq!(found.len(), legal.len(), "one entry per legal action");
        for (entry, action) in found.iter().zip(&legal) {
            assert_eq!(&entry["action"], action, "canonical order");
            assert_eq!(entry["playouts"], 20);
            assert_eq!(entry["mean"].as_array().unwrap().len(), 4);
            let errors = entry["standard_error"].as_array().unwrap();
            assert_eq!(errors.len(), 4);
            assert!(errors.iter().all(|e| e.as_f64().unwrap() >= 0.0), "{entry}");
            // Standings in 0..1, shared places sharing their value: the four sum to 2 in
            // every playout (places 1, 2/3, 1/3 and 0), so their means do too.
            let standings: Vec<f64> = entry["mean_standing"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_f64().unwrap())
                .collect();
            assert_eq!(standings.len(), 4);
            assert!(standings.iter().all(|s| (0.0..=1.0).contains(s)), "{entry}");
            assert!(
                (standings.iter().sum::<f64>() - 2.0).abs() < 1e-9,
                "{entry}"
            );
        }
        let again = app.op(GAME, "rollouts", &body).await;
        assert_eq!(again.body, reply.body, "the same seed, the same figures");
    }
    // Listed actions come back in the order asked.
    let asked = json!([legal[1], legal[0]]);
    let reply = app
        .op(
            GAME,
            "rollouts",
            &json!({"state": step["state"], "seat": seat, "count": 5, "policy": "random", "actions": asked}),
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let found = results(&reply.body);
    assert_eq!(found.len(), 2);
    assert_eq!(found[0]["action"], legal[1]);
    assert_eq!(found[1]["action"], legal[0]);
    // Without a seed the server draws one and says which.
    let drawn = app
        .op(
            GAME,
            "rollouts",
            &json!({"state": step["state"], "seat": seat, "count": 1, "policy": "random"}),
        )
        .await;
    assert_eq!(drawn.status, 200, "{}", drawn.body);
    assert!(drawn.body["seed"].as_u64().is_some());
}

/// A sealed state tells the client nothing of the hidden cards, so its playouts start from the
/// seat's determinizations, never from the state itself.
#[tokio::test]
async fn a_sealed_state_is_played_out_from_the_seats_determinizations() {
    let app = spawn_with(StateCodec::sealed(&test_key(), true)).await;
    let step = app.advance(app.new_game(3, 2).await, 4).await;
    assert!(step["state"].is_string(), "sealed");
    let seat = step["legal_actions"][0]["seat"].as_u64().unwrap();
    let reply = app
        .op(
            GAME,
            "rollouts",
            &json!({"state": step["state"], "seat": seat, "count": 10, "policy": "heuristic", "seed": 8}),
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body["determinized"], true);
    assert!(
        results(&reply.body)
            .iter()
            .all(|entry| entry["playouts"] == 10)
    );
}

#[tokio::test]
async fn bad_rollout_requests_get_stable_codes() {
    let app = spawn_app().await;
    let step = app.advance(app.new_game(4, 5).await, 3).await;
    let state = &step["state"];
    let seat = step["legal_actions"][0]["seat"].as_u64().unwrap();
    let idle = (seat + 1) % 4;
    let cases = [
        (
            json!({"state": state, "seat": seat, "count": 0, "policy": "random"}),
            400,
            "invalid_request",
        ),
        (
            json!({"state": state, "seat": seat, "count": 10_001, "policy": "random"}),
            400,
            "invalid_request",
        ),
        (
            json!({"state": state, "seat": seat, "count": 1, "policy": "random", "budget_ms": 2001}),
            400,
            "invalid_request",
        ),
        (
            json!({"state": state, "seat": seat, "count": 1, "policy": "random", "budget_ms": 0}),
            400,
            "invalid_request",
        ),
        (
            json!({"state": state, "seat": seat, "count": 1, "policy": "random", "actions": []}),
            400,
            "invalid_request",
        ),
        (
            json!({"state": state, "seat": seat, "count": 1, "policy": "smart"}),
            400,
            "malformed_json",
        ),
        (
            json!({"state": state, "seat": 9, "count": 1, "policy": "random"}),
            400,
            "invalid_seat",
        ),
        (
            json!({"state": state, "seat": idle, "count": 1, "policy": "random"}),
            422,
            "not_your_turn",
        ),
        (
            json!({"state": state, "seat": seat, "count": 1, "policy": "random", "actions": [{"type": "fly"}]}),
            422,
            "illegal_action",
        ),
        (
            json!({"state": state, "seat": seat, "count": 1, "policy": "random", "seed": 9_007_199_254_740_992u64}),
            422,
            "invalid_seed",
        ),
    ];
    for (body, status, code) in cases {
        let reply = app.op(GAME, "rollouts", &body).await;
        assert_eq!(reply.status, status, "{body}: {}", reply.body);
        assert_eq!(reply.problem_code(), code, "{body}: {}", reply.body);
    }
}

/// Ten thousand heuristic playouts of every action of a four-player game take far more than the
/// 2 s a request may take: refused at once (estimated, not run) as `search_over_budget`, saying
/// what fits and what to ask instead.
#[tokio::test]
async fn more_than_two_seconds_of_playouts_is_refused() {
    let app = spawn_app().await;
    let step = app.new_game(4, 7).await;
    let seat = step["legal_actions"][0]["seat"].as_u64().unwrap();
    let reply = app
        .op(
            GAME,
            "rollouts",
            &json!({"state": step["state"], "seat": seat, "count": 10_000, "policy": "heuristic"}),
        )
        .await;
    assert_eq!(reply.status, 422, "{}", reply.body);
    assert_eq!(reply.problem_code(), "search_over_budget");
    let detail = reply.body["detail"].as_str().unwrap();
    assert!(
        detail.contains("ask for fewer") && detail.contains("budget_ms"),
        "{detail}"
    );
}
