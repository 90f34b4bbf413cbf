//! The lobby over HTTP: `GET /v1/tables?status=waiting` lists the tables with an open seat,
//! newest first and a page at a time; a table leaves it once its open seats are taken; a table
//! waiting only for the people its creator invited is never listed; the query is strict. And
//! `GET /v1/matches?people=true|false` keeps people's tables apart from bots' matches.

use crate::support::{Reply, ServerOptions, TestApp};
use serde_json::{Value, json};

async fn server(name: &str) -> TestApp {
    ServerOptions::default()
        .workers(1)
        .arena(&format!("lobby-{name}"))
        .builtins()
        .spawn()
        .await
}

fn expect_problem(reply: &Reply, status: u16, code: &str) {
    assert_eq!(reply.status, status, "{}", reply.body);
    assert_eq!(reply.problem_code(), code, "{}", reply.body);
}

/// A 2-player twenty_two table with the given seats; its id.
async fn table(app: &TestApp, seats: Value) -> String {
    let created = app
        .post(
            "/v1/tables",
            &json!({"game": "twenty_two", "players": 2, "seats": seats}),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    created.body["id"].as_str().expect("id").to_string()
}

fn ids(list: &Value) -> Vec<String> {
    list["tables"]
        .as_array()
        .expect("tables")
        .iter()
        .map(|t| t["id"].as_str().expect("id").to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_lists_open_tables_newest_first_and_drops_a_full_one() {
    let app = server("lists").await;
    let first = table(&app, json!([{"open": true}, {"bot": "random"}])).await;
    let invited_only = table(&app, json!([{"human": "Anna"}, {"bot": "random"}])).await;
    let second = table(&app, json!([{"open": true}, {"open": true}])).await;
    let bots_only = table(&app, json!([{"bot": "random"}, {"bot": "heuristic"}])).await;

    let lobby = app.get("/v1/tables?status=waiting").await;
    assert_eq!(lobby.status, 200, "{}", lobby.body);
    assert_eq!(ids(&lobby.body), [second.clone(), first.clone()]);
    assert!(lobby.body["next_cursor"].is_null());
    let listed = &lobby.body["tables"][0];
    assert_eq!(listed["game"], "twenty_two");
    assert_eq!(listed["players"], 2);
    assert_eq!(listed["open_seats"], json!([0, 1]));
    assert_eq!(listed["status"], "waiting");
    assert_eq!(listed["watch_url"], format!("/table/{second}"));
    assert!(
        listed["created_at"]
            .as_str()
            .is_some_and(|t| t.ends_with('Z'))
    );
    assert_eq!(listed["seats"][0]["kind"], "open");
    assert!(!lobby.body.to_string().contains("key"), "{}", lobby.body);

    // Pages: one table each, the cursor leading from the newest to the oldest.
    let page = app.get("/v1/tables?status=waiting&limit=1").await;
    assert_eq!(ids(&page.body), std::slice::from_ref(&second));
    let cursor = page.body["next_cursor"].as_str().expect("a next page");
    let next = app
        .get(&format!(
            "/v1/tables?status=waiting&limit=1&cursor={cursor}"
        ))
        .await;
    assert_eq!(ids(&next.body), std::slice::from_ref(&first));
    assert!(next.body["next_cursor"].is_null());

    // Every table, whatever its status; one game's; none of another game's.
    let all = app.get("/v1/tables").await;
    let every = ids(&all.body);
    for id in [&first, &invited_only, &second, &bots_only] {
        assert!(every.contains(id), "{id} in {every:?}");
    }
    let other_game = app.get("/v1/tables?status=waiting&game=basra").await;
    assert_eq!(ids(&other_game.body), Vec::<String>::new());
    let same_game = app.get("/v1/tables?status=waiting&game=twenty_two").await;
    assert_eq!(ids(&same_game.body), [second.clone(), first.clone()]);

    // One of two open seats taken: still listed with the other; both: gone.
    let joined = app
        .post(
            &format!("/v1/tables/{second}/join"),
            &json!({"name": "Bob"}),
        )
        .await;
    assert_eq!(joined.status, 200, "{}", joined.body);
    let lobby = app.get("/v1/tables?status=waiting").await;
    assert_eq!(ids(&lobby.body), [second.clone(), first.clone()]);
    assert_eq!(lobby.body["tables"][0]["open_seats"], json!([1]));
    let full = app
        .post(
            &format!("/v1/tables/{second}/join"),
            &json!({"name": "Cleo"}),
        )
        .await;
    assert_eq!(full.status, 200, "{}", full.body);
    let lobby = app.get("/v1/tables?status=waiting").await;
    assert_eq!(ids(&lobby.body), std::slice::from_ref(&first));
    let shown = app.get(&format!("/v1/tables/{second}")).await;
    assert_eq!(shown.body["open_seats"], json!([]));

    // People's tables apart from bots' matches.
    let people = app.get("/v1/matches?people=true").await;
    assert_eq!(people.status, 200, "{}", people.body);
    let people_ids: Vec<&str> = people.body["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    let bots = app.get("/v1/matches?people=false").await;
    let bot_ids: Vec<&str> = bots.body["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    let match_of = |id: &str| {
        let id = id.to_string();
        let app = &app;
        async move {
            app.get(&format!("/v1/tables/{id}")).await.body["match_id"]
                .as_str()
                .unwrap()
                .to_string()
        }
    };
    for id in [&first, &invited_only, &second] {
        let m = match_of(id).await;
        assert!(people_ids.contains(&m.as_str()) && !bot_ids.contains(&m.as_str()));
    }
    let m = match_of(&bots_only).await;
    assert!(bot_ids.contains(&m.as_str()) && !people_ids.contains(&m.as_str()));
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_query_is_strict() {
    let app = server("strict").await;
    for (query, code) in [
        ("?statu=waiting", "invalid_request"),
        ("?status=open", "invalid_request"),
        ("?limit=0", "invalid_request"),
        ("?limit=501", "invalid_request"),
        ("?cursor=bm90IGpzb24", "invalid_request"),
    ] {
        let reply = app.get(&format!("/v1/tables{query}")).await;
        expect_problem(&reply, 400, code);
    }
    let unknown = app.get("/v1/tables?game=no_such_game").await;
    expect_problem(&unknown, 404, "unknown_game");
    let matches = app.get("/v1/matches?people=maybe").await;
    expect_problem(&matches, 400, "invalid_request");
    app.stop().await;
}
