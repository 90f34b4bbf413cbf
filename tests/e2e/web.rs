//! The live stream over plain HTTP: every streamed event against the spectator's view; and the
//! replay frames. (The pages in a real browser: `toolchains::browser`.)

use crate::support::{ServerOptions, TestApp};
use actix_web::{App, HttpResponse, HttpServer, web};
use engine::Viewer;
use serde_json::{Value, json};
use std::time::Duration;

/// A bot on loopback that thinks for a while (the heuristic's move after `delay`), so a match
/// lasts long enough to be watched live.
pub async fn spawn_slow_bot(delay: Duration) -> String {
    let server = HttpServer::new(move || {
        App::new()
            .route(
                "/",
                web::get().to(|| async {
                    HttpResponse::Ok().json(json!({
                        "name": "slowpoke", "author": "e2e", "version": "1",
                        "games": ["twenty_two", "basra"],
                    }))
                }),
            )
            .route(
                "/move",
                web::post().to(
                    move |request: web::Json<arena::wire::MoveRequest>| async move {
                        tokio::time::sleep(delay).await;
                        match arena::builtin::choose(
                            "heuristic",
                            &request,
                            arena::builtin::ISMCTS_BUDGET_MS,
                        ) {
                            Ok(answer) => HttpResponse::Ok().json(answer),
                            Err(reason) => HttpResponse::UnprocessableEntity().body(reason),
                        }
                    },
                ),
            )
            .default_service(web::to(HttpResponse::NoContent))
    })
    .workers(1)
    .disable_signals()
    .bind("127.0.0.1:0")
    .expect("bind the slow bot");
    let addr = server.addrs()[0];
    tokio::spawn(server.run());
    format!("http://{addr}")
}

/// A server with an arena on a fresh SQLite file and the built-in bots (two workers: the pages
/// read while matches run), and the reads and writes these tests make.
pub struct Server(pub TestApp);

impl Server {
    pub async fn start(name: &str) -> Server {
        let app = ServerOptions::default()
            .workers(2)
            .arena(&format!("web-{name}"))
            .builtins()
            .spawn()
            .await;
        Server(app)
    }

    pub async fn get(&self, path: &str) -> Value {
        self.0
            .client
            .get(format!("{}{path}", self.0.base))
            .send()
            .await
            .expect("GET")
            .json()
            .await
            .expect("JSON")
    }

    pub async fn post(&self, path: &str, body: &Value) -> Value {
        let response = self
            .0
            .client
            .post(format!("{}{path}", self.0.base))
            .json(body)
            .send()
            .await
            .expect("POST");
        let status = response.status();
        let body: Value = response.json().await.expect("JSON");
        assert!(status.is_success(), "POST {path}: {status} {body}");
        body
    }

    /// POST with the server's admin token (ranked matches need it).
    pub async fn post_as_admin(&self, path: &str, body: &Value) -> Value {
        let response = self
            .0
            .client
            .post(format!("{}{path}", self.0.base))
            .bearer_auth(crate::support::ADMIN_TOKEN)
            .json(body)
            .send()
            .await
            .expect("POST");
        let status = response.status();
        let body: Value = response.json().await.expect("JSON");
        assert!(status.is_success(), "POST {path}: {status} {body}");
        body
    }

    pub async fn builtin_ids(&self) -> Vec<String> {
        let bots = self.get("/v1/bots").await;
        bots["bots"]
            .as_array()
            .expect("bots")
            .iter()
            // `random` and `heuristic`: the searching `ismcts` spends 200 ms a move.
            .filter(|b| b["builtin"] == true && b["name"] != "ismcts")
            .map(|b| b["id"].as_str().expect("id").to_string())
            .collect()
    }

    pub async fn register_slow_bots(&self, url: &str) -> Vec<String> {
        let mut ids = Vec::new();
        for name in ["slow-a", "slow-b"] {
            let registered = self
                .post(
                    "/v1/bots",
                    // Open: the tests seat them without their owners' tokens.
                    &json!({"name": name, "url": url, "games": ["twenty_two", "basra"], "open_to_challenges": true}),
                )
                .await;
            ids.push(registered["id"].as_str().expect("id").to_string());
        }
        ids
    }

    pub async fn wait_finished(&self, id: &str) -> Value {
        for _ in 0..2400 {
            let view = self.get(&format!("/v1/matches/{id}")).await;
            if view["status"] == "finished" || view["status"] == "aborted" {
                assert_eq!(view["status"], "finished", "{view}");
                return view;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("match {id} did not finish");
    }
}

/// Every string in a JSON value (the piece codes an action names, among others).
fn strings_in(value: &Value) -> Vec<String> {
    match value {
        Value::String(text) => vec![text.clone()],
        Value::Array(items) => items.iter().flat_map(strings_in).collect(),
        Value::Object(map) => map.values().flat_map(strings_in).collect(),
        _ => Vec::new(),
    }
}

/// Parses a Server-Sent Events body into (event, data) pairs.
pub fn parse_sse(text: &str) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for block in text.split("\n\n") {
        let mut event = String::from("message");
        let mut data = String::new();
        for line in block.lines() {
            if let Some(name) = line.strip_prefix("event: ") {
                event = name.to_string();
            } else if let Some(chunk) = line.strip_prefix("data: ") {
                data.push_str(chunk);
            }
        }
        if !data.is_empty() {
            out.push((
                event,
                serde_json::from_str(&data).expect("SSE data is JSON"),
            ));
        }
    }
    out
}

/// Reads the stream of a match to its end; also returns how many `move` events arrived while
/// the match was still running (seen through the API after each chunk).
async fn read_stream(server: &Server, id: &str) -> (Vec<(String, Value)>, usize) {
    let mut response = server
        .0
        .client
        .get(format!("{}/v1/matches/{id}/events", server.0.base))
        .send()
        .await
        .expect("GET events");
    assert_eq!(response.status().as_u16(), 200);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap_or_default()
            .starts_with("text/event-stream"),
        "{:?}",
        response.headers()
    );
    let mut text = String::new();
    let mut live_moves = 0;
    let started = std::time::Instant::now();
    while let Some(chunk) = tokio::time::timeout(Duration::from_secs(60), response.chunk())
        .await
        .expect("the stream stalls")
        .expect("read the stream")
    {
        let piece = String::from_utf8_lossy(&chunk).to_string();
        let moves_in_chunk = piece.matches("event: move").count();
        if moves_in_chunk > 0 {
            let status = server.get(&format!("/v1/matches/{id}")).await["status"].clone();
            if status == "running" {
                live_moves += moves_in_chunk;
            }
        }
        text.push_str(&piece);
        assert!(
            started.elapsed() < Duration::from_secs(240),
            "stream too long"
        );
    }
    (parse_sse(&text), live_moves)
}

/// Checks a streamed log against the engine: each `move` is the stored move's public events and
/// the spectator's view after it, and names no piece hidden from the spectator at that point.
fn check_against_spectator(game_id: &str, stream: &[(String, Value)], matched: &Value) {
    let game = engine::registry::find(game_id).expect("game");
    let replay = &crate::support::replay_request(matched);
    let setup = engine::NewGame {
        players: replay["players"].as_u64().expect("players") as usize,
        options: replay["options"].as_object().cloned().unwrap_or_default(),
        seed: replay["seed"].as_u64().expect("seed"),
        deals: serde_json::from_value(replay["deals"].clone()).expect("deals"),
    };
    let mut state = game.start(&setup).expect("start");
    let actions = replay["actions"].as_array().expect("actions");
    let moves: Vec<&Value> = stream
        .iter()
        .filter(|(event, _)| event == "move")
        .map(|(_, data)| data)
        .collect();
    assert_eq!(moves.len(), actions.len(), "one move event per move");
    let stored_events = matched["events"].as_array().expect("events");
    for (index, (streamed, action)) in moves.iter().zip(actions).enumerate() {
        let seat = action["seat"].as_u64().expect("seat") as usize;
        let applied = state
            .apply(seat, &action["action"])
            .expect("the logged action replays");
        assert_eq!(streamed["index"], index);
        assert_eq!(streamed["seat"], seat);
        // The view is the spectator's, and names no piece hidden from the spectator.
        assert_eq!(
            streamed["view"],
            state.view(Viewer::Spectator),
            "move {index}: the streamed view is the spectator's"
        );
        let view_text = streamed["view"].to_string();
        for code in state.hidden_from(Viewer::Spectator) {
            assert!(
                !view_text.contains(&format!("\"{code}\"")),
                "move {index}: the streamed view shows {code}, hidden from the spectator"
            );
        }
        // The events are the engine's public events of the move, as the match shows them.
        let public: Vec<Value> = applied
            .events
            .into_iter()
            .map(|mut event| {
                event["action_index"] = json!(index);
                event
            })
            .collect();
        assert_eq!(
            streamed["events"],
            json!(public),
            "move {index}: the streamed events are the public events"
        );
        let stored: Vec<&Value> = stored_events
            .iter()
            .filter(|e| e["action_index"] == index)
            .collect();
        assert_eq!(json!(stored), json!(public), "move {index}: stored events");
        // A piece the action names but the public events do not (a card discarded face down)
        // appears nowhere in the streamed move unless the spectator's view shows it.
        let public_text = json!(public).to_string();
        let streamed_text = streamed.to_string();
        for code in strings_in(&action["action"]) {
            let quoted = format!("\"{code}\"");
            if !public_text.contains(&quoted) && !view_text.contains(&quoted) {
                assert!(
                    !streamed_text.contains(&quoted),
                    "move {index}: the stream names {code}, which only the action named"
                );
            }
        }
        assert!(
            streamed.get("action").is_none(),
            "move {index}: no action on the stream"
        );
    }
    let ends: Vec<&String> = stream.iter().map(|(event, _)| event).collect();
    assert_eq!(
        ends[ends.len().saturating_sub(2)..],
        [&"result".to_string(), &"end".to_string()],
        "the stream ends with the result, then the end"
    );
    let result = &stream[stream.len() - 2].1;
    assert_eq!(result["status"], "finished");
    assert_eq!(result["result"], matched["result"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_live_stream_shows_a_spectator_exactly_the_spectators_view() {
    let server = Server::start("sse").await;
    let slow = spawn_slow_bot(Duration::from_millis(15)).await;
    let slow_bots = server.register_slow_bots(&slow).await;
    for game in ["twenty_two", "basra"] {
        let created = server
            .post(
                "/v1/matches",
                &json!({"game": game, "bots": slow_bots, "seed": 3}),
            )
            .await;
        let id = created["id"].as_str().expect("id").to_string();
        // Watched while it runs.
        let (live, live_moves) = read_stream(&server, &id).await;
        let matched = server.wait_finished(&id).await;
        assert!(
            live_moves > 0,
            "{game}: no move event arrived while the match ran"
        );
        check_against_spectator(game, &live, &matched);
        // Once over: the whole log, the result, the end.
        let (after, _) = read_stream(&server, &id).await;
        check_against_spectator(game, &after, &matched);
        assert_eq!(
            live.iter()
                .filter(|(e, _)| e == "move")
                .map(|(_, d)| d)
                .collect::<Vec<_>>(),
            after
                .iter()
                .filter(|(e, _)| e == "move")
                .map(|(_, d)| d)
                .collect::<Vec<_>>(),
            "{game}: the live stream and the finished log agree"
        );
    }
    let missing = server
        .0
        .client
        .get(format!("{}/v1/matches/m_nope/events", server.0.base))
        .send()
        .await
        .expect("GET");
    assert_eq!(missing.status().as_u16(), 404);
    server.0.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn frames_show_any_seat_only_once_the_match_is_over() {
    let server = Server::start("frames").await;
    let builtins = server.builtin_ids().await;
    let created = server
        .post(
            "/v1/matches",
            &json!({"game": "twenty_two", "bots": builtins, "seed": 9}),
        )
        .await;
    let id = created["id"].as_str().expect("id").to_string();
    let matched = server.wait_finished(&id).await;
    let moves = matched["moves"].as_array().expect("moves").len();
    for seat in ["", "?seat=0", "?seat=1"] {
        let frames = server.get(&format!("/v1/matches/{id}/frames{seat}")).await;
        let list = frames["frames"].as_array().expect("frames");
        assert_eq!(list.len(), moves + 1, "{seat}: the start and every move");
        assert!(list[0]["index"].is_null());
        assert_eq!(list[moves]["action"], matched["moves"][moves - 1]["action"]);
        assert_eq!(frames["result"], matched["result"]);
    }
    let bad = server
        .0
        .client
        .get(format!("{}/v1/matches/{id}/frames?seat=7", server.0.base))
        .send()
        .await
        .expect("GET");
    // No such seat: `invalid_seat`, a 400 in the closed code list.
    assert_eq!(bad.status().as_u16(), 400);
    let problem: serde_json::Value = bad.json().await.expect("problem+json");
    assert_eq!(problem["code"], "invalid_seat");
    server.0.stop().await;
}
