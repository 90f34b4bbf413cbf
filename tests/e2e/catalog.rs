//! Catalog, service routes, docs.

use crate::support::{GAME, spawn_app};

#[tokio::test]
async fn the_catalog_lists_every_registered_game_with_players_and_options() {
    let app = spawn_app().await;
    let reply = app.get("/v1/games").await;
    assert_eq!(reply.status, 200);
    let games = reply.body.as_array().expect("an array of games");
    assert_eq!(games.len(), engine::registry::games().len());
    let entry = games
        .iter()
        .find(|g| g["id"] == GAME)
        .expect("twenty_two is in the catalog");
    for field in ["name", "description", "rules_summary", "players", "options"] {
        assert!(entry.get(field).is_some(), "{field} in {entry}");
    }
    assert!(entry["players"]["min"].as_u64().unwrap() >= 2);
    for option in entry["options"].as_array().unwrap() {
        for field in ["id", "type", "default", "description"] {
            assert!(option.get(field).is_some(), "{field} in {option}");
        }
    }
    assert_eq!(
        entry["schemas"]["action"],
        format!("#/components/schemas/{GAME}.Action")
    );
}

#[tokio::test]
async fn one_game_is_described_and_an_unknown_one_is_a_404_problem() {
    let app = spawn_app().await;
    let reply = app.get(&format!("/v1/games/{GAME}")).await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body["id"], GAME);

    let reply = app.get("/v1/games/chess").await;
    assert_eq!(reply.status, 404);
    assert_eq!(reply.problem_code(), "unknown_game");
    assert!(reply.body["detail"].as_str().unwrap().contains("chess"));
}

#[tokio::test]
async fn health_metrics_and_request_ids_are_served() {
    let app = spawn_app().await;
    let reply = app.get("/healthz").await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body["status"], "ok");
    let id = reply.request_id.expect("an x-request-id header");
    assert!(id.len() >= 32, "{id}");

    app.get("/v1/games").await;
    let (status, text) = app.get_text("/metrics").await;
    assert_eq!(status, 200);
    assert!(
        text.contains(
            "cardroom_http_requests_total{route=\"/v1/games\",method=\"GET\",status=\"200\"} 1"
        ),
        "{text}"
    );
    assert!(text.contains("cardroom_http_request_duration_seconds_bucket"));
}

#[tokio::test]
async fn an_incoming_request_id_is_kept_and_an_implausible_one_replaced() {
    let app = spawn_app().await;
    let send = |id: &'static str| {
        app.client
            .get(format!("{}/healthz", app.base))
            .header("x-request-id", id)
            .send()
    };
    let kept = send("proxy-7f3a.42:1").await.expect("send");
    assert_eq!(kept.headers()["x-request-id"], "proxy-7f3a.42:1");
    let replaced = send("a b\tc<script>").await.expect("send");
    let id = replaced.headers()["x-request-id"]
        .to_str()
        .expect("ascii")
        .to_string();
    assert_ne!(id, "a b\tc<script>");
    assert_eq!(id.len(), 32, "{id}");
}

#[tokio::test]
async fn the_spec_and_an_offline_docs_page_are_served() {
    let app = spawn_app().await;
    let reply = app.get("/openapi.json").await;
    assert_eq!(reply.status, 200);
    assert!(reply.body["openapi"].as_str().unwrap().starts_with("3.1"));
    assert_eq!(reply.body, api::openapi::document());

    let (status, html) = app.get_text("/docs/").await;
    assert_eq!(status, 200);
    assert!(html.to_lowercase().contains("swagger"), "{html}");
    assert!(
        !html.contains("https://"),
        "the docs page fetches nothing from the internet: {html}"
    );
    let (status, init) = app.get_text("/docs/swagger-initializer.js").await;
    assert_eq!(status, 200);
    assert!(init.contains("/openapi.json"), "{init}");
    let (status, bundle) = app.get_text("/docs/swagger-ui-bundle.js").await;
    assert_eq!(status, 200);
    assert!(bundle.len() > 100_000, "the bundle is vendored");

    let reply = app.get("/docs").await;
    assert_eq!(reply.status, 200, "/docs redirects to /docs/");
}

/// Every game id's entry carries its family's table layout (the pages draw every family from
/// it), and the family's name and one-line description for the home page; the layout's paths
/// point into the view the API answers.
#[tokio::test]
async fn every_game_describes_its_table_and_the_view_holds_what_it_names() {
    let app = spawn_app().await;
    let games = app.get("/v1/games").await.body;
    for entry in games.as_array().expect("games") {
        let id = entry["id"].as_str().expect("id");
        let table = &entry["table"];
        assert!(
            ["cards", "tiles"].contains(&table["pieces"].as_str().unwrap_or_default()),
            "{id}: {table}"
        );
        assert!(!entry["family_name"].as_str().unwrap_or_default().is_empty());
        assert!(
            !entry["family_description"]
                .as_str()
                .unwrap_or_default()
                .is_empty()
        );
        assert!(
            table["events"].as_array().is_some_and(|e| !e.is_empty()),
            "{id}: sentences"
        );
        if entry["family"] != id {
            continue;
        }
        // The family's base id: a new game's view holds the hand, hand sizes and scores.
        let players = entry["players"]["min"].as_u64().expect("min");
        let step = app
            .post(
                &format!("/v1/games/{id}/new"),
                &serde_json::json!({"players": players, "seed": 3}),
            )
            .await
            .body;
        let view = app
            .post(
                &format!("/v1/games/{id}/view"),
                &serde_json::json!({"state": step["state"], "seat": 0}),
            )
            .await
            .body["view"]
            .clone();
        for key in ["hand", "hand_sizes"] {
            let path = table[key].as_str().expect("a path");
            assert!(
                view.pointer(path).is_some_and(|v| v.is_array()),
                "{id}: {key} `{path}` in {view}"
            );
        }
        let scores = table["scores"]["path"].as_str().expect("scores path");
        assert!(
            view.pointer(scores).is_some(),
            "{id}: scores `{scores}` in {view}"
        );
    }
}
