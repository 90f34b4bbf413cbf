//! Tables people share with bots, over HTTP: `POST /v1/tables`, joining by a seat's link or an
//! open seat, people's moves beside bots until the match ends, the match recorded and listed with
//! its person seats, and every refusal (keys, seats, stale and illegal moves, unknown tables).

use crate::support::{Reply, ServerOptions, TestApp};
use serde_json::{Value, json};
use std::time::Duration;

async fn server(name: &str) -> TestApp {
    ServerOptions::default()
        .workers(2)
        .arena(&format!("tables-{name}"))
        .builtins()
        .spawn()
        .await
}

/// The key in a seat's link (`/table/{id}#seat=N&key=K`).
fn key_of(join_url: &str) -> String {
    join_url
        .split_once("&key=")
        .map(|(_, key)| key.to_string())
        .unwrap_or_else(|| panic!("no key in {join_url}"))
}

/// POST to `/v1/tables/{id}/{op}`.
async fn at(app: &TestApp, id: &str, op: &str, body: Value) -> Reply {
    app.post(&format!("/v1/tables/{id}/{op}"), &body).await
}

fn expect_problem(reply: &Reply, status: u16, code: &str) {
    assert_eq!(reply.status, status, "{}", reply.body);
    assert_eq!(reply.problem_code(), code, "{}", reply.body);
}

/// A 4-player watten table: Anna invited (seat 0), two bots, one open seat (2).
async fn watten_table(app: &TestApp) -> Value {
    let created = app
        .post(
            "/v1/tables",
            &json!({
                "game": "watten", "players": 4, "options": {"target": 11}, "seed": 11,
                "seats": [{"human": "Anna"}, {"bot": "heuristic"}, {"open": true}, {"bot": "random"}],
                "pace_ms": 0,
            }),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    created.body
}

/// Plays every person's pending move (their first legal action) until the match is over.
/// Returns how many moves the people made.
async fn play_people(app: &TestApp, id: &str, people: &[(u64, String)]) -> usize {
    let mut moved = 0;
    for _ in 0..20_000 {
        let table = app.get(&format!("/v1/tables/{id}")).await.body;
        if table["status"] == "finished" || table["status"] == "aborted" {
            assert_eq!(table["status"], "finished", "{table}");
            return moved;
        }
        for (seat, key) in people {
            let state = at(app, id, "seat", json!({"seat": seat, "key": key})).await;
            assert_eq!(state.status, 200, "{}", state.body);
            let Some(request_id) = state.body["request_id"].as_str() else {
                continue;
            };
            let action = state.body["legal_actions"][0].clone();
            let reply = at(
                app,
                id,
                "move",
                json!({"seat": seat, "key": key, "action": action, "request_id": request_id}),
            )
            .await;
            assert_eq!(reply.status, 204, "{}", reply.body);
            moved += 1;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!("table {id} did not finish");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn people_and_bots_finish_a_table_recorded_like_any_match() {
    let app = server("play").await;
    let created = watten_table(&app).await;
    let id = created["id"].as_str().expect("id").to_string();
    let match_id = created["match_id"].as_str().expect("match id").to_string();
    let seats = created["seats"].as_array().expect("seats");
    let kinds: Vec<&str> = seats.iter().map(|s| s["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["human", "bot", "open", "bot"]);
    assert_eq!(seats[0]["name"], "Anna");
    assert_eq!(seats[1]["name"], "heuristic");
    assert!(seats[2]["name"].is_null() && seats[2].get("join_url").is_none());
    assert!(seats[1].get("join_url").is_none());
    let anna = key_of(seats[0]["join_url"].as_str().expect("Anna's link"));
    assert_eq!(created["watch_url"], format!("/table/{id}"));

    // Public: seats and who joined, never a key; the match waits.
    let shown = app.get(&format!("/v1/tables/{id}")).await;
    assert_eq!(shown.status, 200);
    assert_eq!(shown.body["status"], "waiting");
    assert!(
        !shown.body.to_string().contains(&anna),
        "a key in {}",
        shown.body
    );
    let joined: Vec<&Value> = shown.body["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["joined"])
        .collect();
    assert_eq!(
        joined,
        [&json!(false), &json!(true), &json!(false), &json!(true)]
    );
    let waiting = app.get(&format!("/v1/matches/{match_id}")).await;
    assert_eq!(waiting.body["status"], "waiting", "{}", waiting.body);

    // No move before everyone has joined.
    let early = at(
        &app,
        &id,
        "move",
        json!({"seat": 0, "key": anna, "action": {"type": "pass"}}),
    )
    .await;
    expect_problem(&early, 409, "table_waiting");

    // A body that is not an object takes no seat (serde would read `[null, null]` as a join
    // with every field left out; schemathesis sent it).
    let array = at(&app, &id, "join", json!([null, null])).await;
    expect_problem(&array, 400, "malformed_json");

    // Bob takes the open seat through the table's link; the table is then full.
    let bob = at(&app, &id, "join", json!({"name": "Bob"})).await;
    assert_eq!(bob.status, 200, "{}", bob.body);
    assert_eq!(bob.body["seat"], 2);
    assert_eq!(bob.body["name"], "Bob");
    let bob_key = bob.body["key"].as_str().expect("key").to_string();
    assert_eq!(key_of(bob.body["join_url"].as_str().unwrap()), bob_key);
    let full = at(&app, &id, "join", json!({"name": "Carl"})).await;
    expect_problem(&full, 409, "table_full");
    let taken = at(&app, &id, "join", json!({"seat": 2, "name": "Carl"})).await;
    expect_problem(&taken, 409, "seat_taken");
    let invited = at(&app, &id, "join", json!({"seat": 0, "name": "Carl"})).await;
    expect_problem(&invited, 409, "seat_taken");
    let bot_seat = at(&app, &id, "join", json!({"seat": 1, "name": "Carl"})).await;
    expect_problem(&bot_seat, 409, "seat_taken");
    let no_seat = at(&app, &id, "join", json!({"seat": 9, "name": "Carl"})).await;
    expect_problem(&no_seat, 400, "invalid_seat");

    // Keys: a key of no seat, another seat's key.
    let forged = at(&app, &id, "join", json!({"key": "0".repeat(64)})).await;
    expect_problem(&forged, 403, "seat_key_refused");
    let not_hers = at(&app, &id, "join", json!({"seat": 2, "key": anna})).await;
    expect_problem(&not_hers, 403, "not_your_seat");
    let peek = at(&app, &id, "seat", json!({"seat": 0, "key": bob_key})).await;
    expect_problem(&peek, 403, "not_your_seat");

    // Anna opens her link: every person has joined, the match starts.
    let anna_joined = at(&app, &id, "join", json!({"key": anna})).await;
    assert_eq!(anna_joined.status, 200, "{}", anna_joined.body);
    assert_eq!(anna_joined.body["name"], "Anna");
    assert_eq!(anna_joined.body["seat"], 0);

    // Wait for the arena to ask one of them, then try refused moves on that request.
    let people = [(0u64, anna.clone()), (2u64, bob_key.clone())];
    let (seat, key, state) = 'asked: loop {
        for (seat, key) in &people {
            let state = at(&app, &id, "seat", json!({"seat": seat, "key": key})).await;
            assert_eq!(state.status, 200, "{}", state.body);
            if state.body["request_id"].is_string() {
                break 'asked (*seat, key.clone(), state.body);
            }
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    assert!(state["view"].is_object() && !state["legal_actions"].as_array().unwrap().is_empty());
    assert!(state["to_act"].as_array().unwrap().contains(&json!(seat)));
    let other = if seat == 0 { &people[1] } else { &people[0] };
    let request_id = state["request_id"].as_str().unwrap();
    let action = state["legal_actions"][0].clone();
    let stale = at(
        &app,
        &id,
        "move",
        json!({"seat": seat, "key": key, "action": action, "request_id": "r_stale"}),
    )
    .await;
    expect_problem(&stale, 409, "stale_request");
    let illegal = at(&app, &id, "move", json!({"seat": seat, "key": key, "action": {"type": "play", "card": "XX"}, "request_id": request_id})).await;
    expect_problem(&illegal, 422, "illegal_action");
    let out_of_turn = at(
        &app,
        &id,
        "move",
        json!({"seat": other.0, "key": other.1, "action": action}),
    )
    .await;
    assert_eq!(out_of_turn.status, 409, "{}", out_of_turn.body);
    assert_eq!(out_of_turn.problem_code(), "stale_request");
    let not_mine = at(
        &app,
        &id,
        "move",
        json!({"seat": seat, "key": other.1, "action": action}),
    )
    .await;
    expect_problem(&not_mine, 403, "not_your_seat");

    let moved = play_people(&app, &id, &people).await;
    assert!(moved > 4, "the people made {moved} moves");

    // Recorded like any match: unranked, person seats with their names, replayable, listed.
    let shown = app.get(&format!("/v1/matches/{match_id}")).await.body;
    assert_eq!(shown["status"], "finished", "{shown}");
    assert_eq!(shown["ranked"], false);
    let names: Vec<&str> = shown["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Anna", "heuristic", "Bob", "random"]);
    assert_eq!(shown["seats"][0]["bot"], "person");
    let faults = shown["result"]["faults"].as_array().expect("faults");
    assert!(faults.iter().all(|f| f == 0), "{shown}");
    let replay = &crate::support::replay_request(&shown);
    let replayed = app.op("watten", "replay", replay).await;
    assert_eq!(replayed.status, 200, "{}", replayed.body);
    let listed = app.get("/v1/matches?game=watten").await.body;
    let row = listed["matches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["id"] == match_id.as_str())
        .expect("the table's match is listed");
    assert_eq!(row["bots"][0], "person");
    assert_eq!(row["bots"][2], "person");

    // A finished table takes no move.
    let late = at(
        &app,
        &id,
        "move",
        json!({"seat": 0, "key": anna, "action": action}),
    )
    .await;
    expect_problem(&late, 409, "match_finished");
    app.stop().await;
}

#[tokio::test]
async fn refused_tables_and_unknown_ones() {
    let app = server("refusals").await;
    let cases = [
        (
            json!({"game": "watten", "players": 4, "seats": [{"human": null}, {"bot": "random"}]}),
            400,
            "invalid_request",
        ),
        (
            json!({"game": "watten", "players": 2, "seats": [{"human": null}, {"bot": "random"}], "pace_ms": 5001}),
            400,
            "invalid_request",
        ),
        (
            json!({"game": "watten", "players": 2, "seats": [{"open": false}, {"bot": "random"}]}),
            400,
            "invalid_request",
        ),
        (
            json!({"game": "watten", "players": 2, "seats": [{"human": ""}, {"bot": "random"}]}),
            400,
            "invalid_request",
        ),
        (
            json!({"game": "watten", "players": 2, "seats": [{"human": null}, {"robot": "random"}]}),
            400,
            "malformed_json",
        ),
        (
            json!({"game": "watten", "players": 2, "seats": [{"human": null}, {"bot": "nobody"}]}),
            404,
            "unknown_bot",
        ),
        (
            json!({"game": "no_such_game", "players": 2, "seats": [{"human": null}, {"bot": "random"}]}),
            404,
            "unknown_game",
        ),
        (
            json!({"game": "watten", "players": 1, "seats": [{"open": true}]}),
            422,
            "invalid_players",
        ),
    ];
    for (body, status, code) in cases {
        let reply = app.post("/v1/tables", &body).await;
        assert_eq!(reply.status, status, "{body}: {}", reply.body);
        assert_eq!(reply.problem_code(), code, "{body}");
    }
    // A table at pace 5000 with a clock is fine; a person may be invited without a name.
    let created = app
        .post(
            "/v1/tables",
            &json!({"game": "twenty_two", "players": 2, "seats": [{"human": null}, {"bot": "random"}],
                    "pace_ms": 5000, "clock": {"initial_ms": 60000, "increment_ms": 0}}),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    assert!(created.body["seats"][0]["name"].is_null());
    let id = created.body["id"].as_str().unwrap();
    let shown = app.get(&format!("/v1/tables/{id}")).await.body;
    assert_eq!(shown["pace_ms"], 5000);
    assert_eq!(shown["clock"]["initial_ms"], 60000);
    let key = key_of(created.body["seats"][0]["join_url"].as_str().unwrap());
    let joined = at(&app, id, "join", json!({"key": key})).await;
    assert_eq!(joined.body["name"], "guest 0", "{}", joined.body);

    for (path, body) in [
        ("/v1/tables/tb_0000000000000000", None),
        (
            "/v1/tables/tb_0000000000000000/join",
            Some(json!({"name": "Anna"})),
        ),
        (
            "/v1/tables/tb_0000000000000000/seat",
            Some(json!({"seat": 0, "key": "k"})),
        ),
        (
            "/v1/tables/tb_0000000000000000/move",
            Some(json!({"seat": 0, "key": "k", "action": {"type": "pass"}})),
        ),
    ] {
        let reply = match body {
            Some(body) => app.post(path, &body).await,
            None => app.get(path).await,
        };
        expect_problem(&reply, 404, "unknown_table");
    }
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn people_left_thinking_never_hold_up_the_bots_matches() {
    let app = server("slots").await;
    // More tables than the arena has match slots (4), each waiting for its person's move.
    let mut waiting = Vec::new();
    for _ in 0..6 {
        let created = app
            .post(
                "/v1/tables",
                &json!({"game": "twenty_two", "players": 2, "seats": [{"human": "Anna"}, {"bot": "random"}]}),
            )
            .await;
        assert_eq!(created.status, 201, "{}", created.body);
        let id = created.body["id"].as_str().unwrap().to_string();
        let key = key_of(created.body["seats"][0]["join_url"].as_str().unwrap());
        let joined = at(&app, &id, "join", json!({"key": key})).await;
        assert_eq!(joined.status, 200, "{}", joined.body);
        waiting.push((id, key));
    }
    for (id, key) in &waiting {
        let mut asked = false;
        for _ in 0..2000 {
            let state = at(&app, id, "seat", json!({"seat": 0, "key": key})).await;
            if state.body["request_id"].is_string() {
                asked = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert!(asked, "table {id}: the arena never asked Anna");
    }
    // Every table waits for Anna; the bots' match still plays.
    let created = app
        .post(
            "/v1/matches",
            &json!({"game": "twenty_two", "bots": ["random", "heuristic"]}),
        )
        .await;
    assert_eq!(created.status, 202, "{}", created.body);
    let id = created.body["id"].as_str().unwrap();
    let mut status = Value::Null;
    for _ in 0..1000 {
        status = app.get(&format!("/v1/matches/{id}")).await.body["status"].clone();
        if status == "finished" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        status, "finished",
        "the bots' match waited behind the tables"
    );
    app.stop().await;
}
