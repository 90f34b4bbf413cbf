//! People as players over HTTP: `POST /v1/players` (names checked, unique, idempotent creates,
//! Location), `GET /v1/players/{id}`, a table seat held for a player and joined with its link
//! plus the player's token (a missing or wrong token refused), an open seat taken with a
//! player's token, and a rated table of players and bots that rates every seat at its end: the
//! players on `GET /v1/leaderboards/{game}?kind=people` and their page, the bots on the bots'.

use crate::support::{Reply, ServerOptions, TestApp};
use serde_json::{Value, json};
use std::time::Duration;

async fn server(name: &str) -> TestApp {
    ServerOptions::default()
        .workers(2)
        .arena(&format!("players-{name}"))
        .builtins()
        .spawn()
        .await
}

fn expect_problem(reply: &Reply, status: u16, code: &str) {
    assert_eq!(reply.status, status, "{}", reply.body);
    assert_eq!(reply.problem_code(), code, "{}", reply.body);
}

/// A new player: (id, token).
async fn player(app: &TestApp, name: &str) -> (String, String) {
    let made = app.post("/v1/players", &json!({"name": name})).await;
    assert_eq!(made.status, 201, "{}", made.body);
    assert_eq!(made.body["name"], name);
    (
        made.body["id"].as_str().expect("id").to_string(),
        made.body["token"].as_str().expect("token").to_string(),
    )
}

/// The key in a seat's link (`/table/{id}#seat=N&key=K`).
fn key_of(join_url: &Value) -> String {
    let url = join_url.as_str().expect("a join_url");
    url.split_once("&key=").expect("a key").1.to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_is_created_once_per_key_with_a_checked_unique_name() {
    let app = server("create").await;
    let response = app
        .client
        .post(format!("{}/v1/players", app.base))
        .header("idempotency-key", "anna-1")
        .json(&json!({"name": "Anna"}))
        .send()
        .await
        .expect("POST");
    assert_eq!(response.status().as_u16(), 201);
    let location = response.headers()["location"].to_str().unwrap().to_string();
    let first: Value = response.json().await.expect("json");
    let id = first["id"].as_str().expect("id");
    assert!(id.starts_with("p_") && id.len() == 18, "{id}");
    assert_eq!(location, format!("/v1/players/{id}"));
    assert_eq!(first["token"].as_str().map(str::len), Some(64));
    // A retry with the same key answers the same player and token.
    let again = app
        .client
        .post(format!("{}/v1/players", app.base))
        .header("idempotency-key", "anna-1")
        .json(&json!({"name": "Anna"}))
        .send()
        .await
        .expect("POST");
    assert_eq!(again.status().as_u16(), 201);
    assert_eq!(again.headers()["idempotent-replayed"], "true");
    let replayed: Value = again.json().await.expect("json");
    assert_eq!(replayed, first);

    let taken = app.post("/v1/players", &json!({"name": "Anna"})).await;
    expect_problem(&taken, 409, "player_name_taken");
    for bad in [
        json!({"name": ""}),
        json!({"name": "x".repeat(65)}),
        json!({"name": "p_0123456789abcdef"}),
        json!({"name": "b_0123456789abcdef"}),
    ] {
        let refused = app.post("/v1/players", &bad).await;
        expect_problem(&refused, 400, "invalid_request");
    }
    // Unprintable characters are refused as names (issue 48; more in abuse::pages).
    let tab = app.post("/v1/players", &json!({"name": "tab\there"})).await;
    expect_problem(&tab, 422, "invalid_name");
    let extra = app
        .post(
            "/v1/players",
            &json!({"name": "Bo", "email": "bo@example.org"}),
        )
        .await;
    expect_problem(&extra, 400, "malformed_json");
    let forged = app
        .post_as(&"0".repeat(64), "/v1/players", &json!({"name": "Cleo"}))
        .await;
    expect_problem(&forged, 401, "invalid_token");

    let shown = app.get(&location).await;
    assert_eq!(shown.status, 200, "{}", shown.body);
    assert_eq!(shown.body["name"], "Anna");
    assert_eq!(shown.body["ratings"], json!([]));
    assert_eq!(shown.body["tables"], json!([]));
    assert!(shown.body.get("token").is_none(), "{}", shown.body);
    let unknown = app.get("/v1/players/p_0000000000000000").await;
    expect_problem(&unknown, 404, "unknown_player");
    let query = app.get(&format!("{location}?full=1")).await;
    expect_problem(&query, 400, "invalid_request");
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_seat_is_joined_with_its_link_and_the_players_token_only() {
    let app = server("seats").await;
    let (anna, anna_token) = player(&app, "Anna").await;
    let (_, bob_token) = player(&app, "Bob").await;
    let unknown = app
        .post(
            "/v1/tables",
            &json!({"game": "twenty_two", "players": 2, "seats": [{"player": "p_0000000000000000"}, {"bot": "random"}]}),
        )
        .await;
    expect_problem(&unknown, 404, "unknown_player");
    let twice = app
        .post(
            "/v1/tables",
            &json!({"game": "twenty_two", "players": 2, "seats": [{"player": anna}, {"player": anna}]}),
        )
        .await;
    expect_problem(&twice, 400, "invalid_request");
    // A player's token is a valid bearer token where one may be sent.
    let created = app
        .post_as(
            &bob_token,
            "/v1/tables",
            &json!({"game": "twenty_two", "players": 2, "seats": [{"player": anna}, {"open": true}]}),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let id = created.body["id"].as_str().unwrap().to_string();
    let seat = &created.body["seats"][0];
    assert_eq!(seat["kind"], "player");
    assert_eq!(seat["name"], "Anna");
    let key = key_of(&seat["join_url"]);
    let join = format!("/v1/tables/{id}/join");

    let anonymous = app.post(&join, &json!({"key": key})).await;
    expect_problem(&anonymous, 403, "player_token_refused");
    let wrong = app.post_as(&bob_token, &join, &json!({"key": key})).await;
    expect_problem(&wrong, 403, "player_token_refused");
    let forged = app
        .post_as(&"0".repeat(64), &join, &json!({"key": key}))
        .await;
    expect_problem(&forged, 403, "player_token_refused");
    let no_key = app
        .post_as(&anna_token, &join, &json!({"key": "0".repeat(64)}))
        .await;
    expect_problem(&no_key, 403, "seat_key_refused");
    let shown = app.get(&format!("/v1/tables/{id}")).await;
    assert_eq!(shown.body["seats"][0]["joined"], false);
    assert_eq!(shown.body["seats"][0]["player"], anna.as_str());

    // Anna joins under her name, whatever name she sends.
    let joined = app
        .post_as(&anna_token, &join, &json!({"key": key, "name": "Someone"}))
        .await;
    assert_eq!(joined.status, 200, "{}", joined.body);
    assert_eq!(joined.body["name"], "Anna");
    // Bob takes the open seat with his token: the seat is his, under his name.
    let bob = app
        .post_as(&bob_token, &join, &json!({"name": "Robert"}))
        .await;
    assert_eq!(bob.status, 200, "{}", bob.body);
    assert_eq!(bob.body["name"], "Bob");
    let shown = app.get(&format!("/v1/tables/{id}")).await;
    assert_eq!(shown.body["seats"][1]["name"], "Bob");
    assert!(shown.body["seats"][1]["player"].is_string());
    assert_eq!(shown.body["rated"], false);
    let page = app.get(&format!("/v1/players/{anna}")).await;
    assert_eq!(page.body["tables"][0]["id"], id.as_str(), "{}", page.body);
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_table_takes_players_and_bots_only_and_no_overrides() {
    let app = server("rated-rules").await;
    let (anna, _) = player(&app, "Anna").await;
    let table = |seats: Value, extra: Value| {
        let mut body =
            json!({"game": "chinese_ten_taiwan", "players": 4, "seats": seats, "rated": true});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        body
    };
    let open = app
        .post(
            "/v1/tables",
            &table(
                json!([{"player": anna}, {"open": true}, {"bot": "random"}, {"bot": "heuristic"}]),
                json!({}),
            ),
        )
        .await;
    expect_problem(&open, 400, "invalid_request");
    let human = app
        .post(
            "/v1/tables",
            &table(
                json!([{"player": anna}, {"human": "Zoe"}, {"bot": "random"}, {"bot": "heuristic"}]),
                json!({}),
            ),
        )
        .await;
    expect_problem(&human, 400, "invalid_request");
    let bots_twice = app
        .post(
            "/v1/tables",
            &table(
                json!([{"player": anna}, {"bot": "random"}, {"bot": "random"}, {"bot": "heuristic"}]),
                json!({}),
            ),
        )
        .await;
    expect_problem(&bots_twice, 422, "duplicate_bots");
    let seeded = app
        .post(
            "/v1/tables",
            &table(
                json!([{"player": anna}, {"bot": "random"}, {"bot": "heuristic"}, {"bot": "ismcts"}]),
                json!({"seed": 7}),
            ),
        )
        .await;
    assert_eq!(seeded.status, 422, "{}", seeded.body);
    assert_eq!(seeded.problem_code(), "ranked_overrides");
    app.stop().await;
}

/// Plays every person's pending move (their first legal action) until the table's match is
/// over.
async fn play_people(app: &TestApp, id: &str, people: &[(usize, String)]) {
    for _ in 0..20_000 {
        let table = app.get(&format!("/v1/tables/{id}")).await.body;
        if table["status"] == "finished" || table["status"] == "aborted" {
            assert_eq!(table["status"], "finished", "{table}");
            return;
        }
        for (seat, key) in people {
            let state = app
                .post(
                    &format!("/v1/tables/{id}/seat"),
                    &json!({"seat": seat, "key": key}),
                )
                .await;
            assert_eq!(state.status, 200, "{}", state.body);
            let Some(request_id) = state.body["request_id"].as_str() else {
                continue;
            };
            let action = state.body["legal_actions"][0].clone();
            let moved = app
                .post(
                    &format!("/v1/tables/{id}/move"),
                    &json!({"seat": seat, "key": key, "action": action, "request_id": request_id}),
                )
                .await;
            assert_eq!(moved.status, 204, "{}", moved.body);
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!("table {id} did not finish");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_table_rates_its_players_and_bots_per_game_id_and_table_size() {
    let app = server("rated").await;
    let (anna, anna_token) = player(&app, "Anna").await;
    let (bob, bob_token) = player(&app, "Bob").await;
    let game = "chinese_ten_taiwan";
    let created = app
        .post(
            "/v1/tables",
            &json!({"game": game, "players": 4, "rated": true,
                    "seats": [{"player": anna}, {"bot": "random"}, {"player": bob}, {"bot": "heuristic"}]}),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let id = created.body["id"].as_str().unwrap().to_string();
    let match_id = created.body["match_id"].as_str().unwrap().to_string();
    let anna_key = key_of(&created.body["seats"][0]["join_url"]);
    let bob_key = key_of(&created.body["seats"][2]["join_url"]);
    let join = format!("/v1/tables/{id}/join");
    for (token, key) in [(&anna_token, &anna_key), (&bob_token, &bob_key)] {
        let joined = app.post_as(token, &join, &json!({"key": key})).await;
        assert_eq!(joined.status, 200, "{}", joined.body);
    }
    let shown = app.get(&format!("/v1/tables/{id}")).await;
    assert_eq!(shown.body["rated"], true);
    assert!(shown.body["clock"].is_object(), "{}", shown.body);
    play_people(&app, &id, &[(0, anna_key), (2, bob_key)]).await;

    let finished = app.get(&format!("/v1/matches/{match_id}")).await;
    assert_eq!(finished.body["ranked"], true);
    assert_eq!(finished.body["seats"][0]["player"], anna.as_str());
    assert_eq!(finished.body["seats"][0]["name"], "Anna");
    for (id, name) in [(&anna, "Anna"), (&bob, "Bob")] {
        let page = app.get(&format!("/v1/players/{id}")).await;
        assert_eq!(page.status, 200, "{}", page.body);
        assert_eq!(page.body["name"], name);
        let ratings = page.body["ratings"].as_array().expect("ratings");
        assert_eq!(ratings.len(), 1, "{}", page.body);
        assert_eq!(ratings[0]["game"], game);
        assert_eq!(ratings[0]["players"], 4);
        assert_eq!(ratings[0]["played"], 1);
        assert_eq!(ratings[0]["last_match"], match_id.as_str());
        assert_eq!(page.body["tables"][0]["status"], "finished");
    }

    let people = app
        .get(&format!("/v1/leaderboards/{game}?kind=people&players=4"))
        .await;
    assert_eq!(people.status, 200, "{}", people.body);
    assert_eq!(people.body["kind"], "people");
    let entries = people.body["entries"].as_array().expect("entries");
    let mut players: Vec<&str> = entries
        .iter()
        .map(|e| e["player"].as_str().expect("a player id"))
        .collect();
    players.sort_unstable();
    let mut expected = [anna.as_str(), bob.as_str()];
    expected.sort_unstable();
    assert_eq!(players, expected);
    assert!(entries.iter().all(|e| e.get("bot").is_none()));
    assert_eq!(entries[0]["rank"], 1);
    assert!(entries[0]["display"].as_f64() >= entries[1]["display"].as_f64());

    // The bots of the table are rated too, on the bots' board (the default kind), and no
    // person is.
    let bots = app.get(&format!("/v1/leaderboards/{game}?players=4")).await;
    assert_eq!(bots.body["kind"], "bots");
    let names: Vec<&str> = bots.body["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"random") && names.contains(&"heuristic"),
        "{names:?}"
    );
    assert!(
        !names.contains(&"Anna") && !names.contains(&"person"),
        "{names:?}"
    );
    let bad_kind = app
        .get(&format!("/v1/leaderboards/{game}?kind=robots"))
        .await;
    expect_problem(&bad_kind, 400, "invalid_request");
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_again_opens_one_rematch_of_the_same_seats_with_renewed_invitations() {
    let app = server("rematch").await;
    let (anna, anna_token) = player(&app, "Anna").await;
    let game = "chinese_ten_taiwan";
    let created = app
        .post(
            "/v1/tables",
            &json!({"game": game, "players": 4, "pace_ms": 0,
                    "seats": [{"player": anna}, {"human": "Zoe"}, {"bot": "random"}, {"bot": "heuristic"}]}),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let id = created.body["id"].as_str().unwrap().to_string();
    let anna_key = key_of(&created.body["seats"][0]["join_url"]);
    let zoe_key = key_of(&created.body["seats"][1]["join_url"]);
    let rematch = format!("/v1/tables/{id}/rematch");
    let early = app
        .post(&rematch, &json!({"seat": 1, "key": zoe_key}))
        .await;
    expect_problem(&early, 409, "match_underway");
    let join = format!("/v1/tables/{id}/join");
    let joined = app
        .post_as(&anna_token, &join, &json!({"key": anna_key}))
        .await;
    assert_eq!(joined.status, 200, "{}", joined.body);
    let joined = app.post(&join, &json!({"key": zoe_key})).await;
    assert_eq!(joined.status, 200, "{}", joined.body);
    play_people(&app, &id, &[(0, anna_key.clone()), (1, zoe_key.clone())]).await;

    let forged = app
        .post(&rematch, &json!({"seat": 1, "key": "0".repeat(64)}))
        .await;
    expect_problem(&forged, 403, "seat_key_refused");
    let other = app
        .post(&rematch, &json!({"seat": 0, "key": zoe_key}))
        .await;
    expect_problem(&other, 403, "not_your_seat");
    let unknown = app
        .post(
            "/v1/tables/tb_0000000000000000/rematch",
            &json!({"seat": 0, "key": zoe_key}),
        )
        .await;
    expect_problem(&unknown, 404, "unknown_table");

    // Zoe asks first: a new table of the same seats, every person's link renewed.
    let first = app
        .post(&rematch, &json!({"seat": 1, "key": zoe_key}))
        .await;
    assert_eq!(first.status, 201, "{}", first.body);
    let again = first.body["id"].as_str().expect("id").to_string();
    assert_ne!(again, id);
    let seats = first.body["seats"].as_array().unwrap();
    let kinds: Vec<&str> = seats.iter().map(|s| s["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["player", "human", "bot", "bot"]);
    let names: Vec<&str> = seats.iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Anna", "Zoe", "random", "heuristic"]);
    assert!(seats[2].get("join_url").is_none() && seats[3].get("join_url").is_none());
    // Anna asks next: the same table and the same links.
    let second = app
        .post(&rematch, &json!({"seat": 0, "key": anna_key}))
        .await;
    assert_eq!(second.status, 200, "{}", second.body);
    assert_eq!(second.body, first.body);

    // The old keys hold no seat there; the new links do (Anna's with her token).
    let new_join = format!("/v1/tables/{again}/join");
    let old = app.post(&new_join, &json!({"key": zoe_key})).await;
    expect_problem(&old, 403, "seat_key_refused");
    let zoe_again = key_of(&seats[1]["join_url"]);
    let anna_again = key_of(&seats[0]["join_url"]);
    let without_token = app.post(&new_join, &json!({"key": anna_again})).await;
    expect_problem(&without_token, 403, "player_token_refused");
    for (token, key) in [(Some(&anna_token), &anna_again), (None, &zoe_again)] {
        let joined = match token {
            Some(token) => app.post_as(token, &new_join, &json!({"key": key})).await,
            None => app.post(&new_join, &json!({"key": key})).await,
        };
        assert_eq!(joined.status, 200, "{}", joined.body);
    }
    let shown = app.get(&format!("/v1/tables/{again}")).await;
    assert_ne!(shown.body["status"], "waiting", "{}", shown.body);
    assert_eq!(shown.body["game"], game);
    assert_eq!(shown.body["seats"][0]["player"], anna.as_str());
    app.stop().await;
}
