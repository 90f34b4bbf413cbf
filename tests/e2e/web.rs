//! The live stream over plain HTTP: every streamed event against the spectator's view; the
//! replay frames; every event and action of every family written as a sentence by the pages'
//! own renderer (table.js, run by Node). (The pages in a real browser: `toolchains::browser`.)

use crate::support::{ServerOptions, TestApp};
use actix_web::{App, HttpResponse, HttpServer, web};
use engine::Viewer;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
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

/// At most this many samples of one event or action type per game id: the first of each shape
/// (which fields are set, zero or empty), so a bonus of 0 and one of 10 are both rendered.
const SAMPLES_PER_TYPE: usize = 8;

/// Which fields of an item are set, and which are zero, false, null or empty.
fn shape(item: &Value) -> String {
    let Some(fields) = item.as_object() else {
        return item.to_string();
    };
    let empty = |v: &Value| match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
    };
    let mut keys: Vec<String> = fields
        .iter()
        .filter(|(k, _)| k.as_str() != "action_index")
        .map(|(k, v)| format!("{k}{}", if empty(v) { "-" } else { "+" }))
        .collect();
    keys.sort();
    keys.join(",")
}

/// Real events and legal actions of every game id, with the spectator's view at the time and
/// the seat each one concerns: seeded games of each table size the id seats (up to 6 players),
/// played to the end with seeded random legal moves.
fn sentence_fixtures() -> Value {
    let mut games = Vec::new();
    for game in engine::registry::games() {
        let info = game.info();
        let (min, max) = (info.players.min, info.players.max.min(6));
        let mut sizes = vec![min, max];
        if (min..=max).contains(&4) {
            sizes.push(4);
        }
        sizes.dedup();
        let mut kept: BTreeMap<(String, String), Vec<Value>> = BTreeMap::new();
        let mut seen = BTreeSet::new();
        for players in sizes {
            for seed in 0..2u64 {
                let request = engine::NewGame {
                    players,
                    options: serde_json::Map::new(),
                    seed,
                    deals: Vec::new(),
                };
                let Ok((mut play, start)) = game.start_with_events(&request) else {
                    continue;
                };
                let mut keep = |kind: &str, item: &Value, play: &dyn engine::Match, actor| {
                    let key = format!("{kind}/{}/{}", item["type"], shape(item));
                    let list = kept
                        .entry((kind.to_string(), item["type"].to_string()))
                        .or_default();
                    if list.len() < SAMPLES_PER_TYPE && seen.insert(key) {
                        let me = item["seat"].as_u64().or(actor).or(item["dealer"].as_u64());
                        list.push(json!({
                            "value": item, "players": players, "me": me,
                            "view": play.view(Viewer::Spectator),
                        }));
                    }
                };
                for event in &start {
                    keep("event", event, play.as_ref(), None);
                }
                let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ players as u64;
                let mut moves = 0;
                while !play.is_over() && moves < 2000 {
                    let seat = play.to_act()[0];
                    let legal = play.legal_actions(seat);
                    for action in &legal {
                        keep("action", action, play.as_ref(), Some(seat as u64));
                    }
                    rng = rng
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    let pick = &legal[(rng >> 33) as usize % legal.len()];
                    let applied = play.apply(seat, pick).expect("a listed action applies");
                    for event in &applied.events {
                        keep("event", event, play.as_ref(), None);
                    }
                    moves += 1;
                }
            }
        }
        let list = |kind: &str| -> Vec<Value> {
            kept.iter()
                .filter(|((k, _), _)| k == kind)
                .flat_map(|(_, items)| items.clone())
                .collect()
        };
        games.push(json!({
            "id": info.id, "table": info.table,
            "events": list("event"), "actions": list("action"),
        }));
    }
    json!(games)
}

/// What is wrong with one rendered sentence, if anything: a doubled word ("deal deal"), a stray
/// digit ("5♥0"), a raw code ("TH", "rank T, suit H", `some_id`), a placeholder or a JavaScript
/// value left in, or a verb that does not agree with "you".
fn sentence_faults(text: &str, pieces: &[String]) -> Vec<String> {
    let mut faults = Vec::new();
    if text.trim().is_empty() {
        return vec!["empty".into()];
    }
    for word in [
        "null",
        "undefined",
        "NaN",
        "[object",
        "{",
        "}",
        "_",
        "true",
        "false",
    ] {
        if text.contains(word) {
            faults.push(format!("`{word}`"));
        }
    }
    let trim = |t: &str| {
        t.trim_matches(|c: char| ",;:.()!?\"“”'".contains(c))
            .to_string()
    };
    let tokens: Vec<String> = text.split_whitespace().map(trim).collect();
    for pair in tokens.windows(2) {
        let alphabetic = |t: &str| !t.is_empty() && t.chars().all(char::is_alphabetic);
        if alphabetic(&pair[0]) && pair[0].eq_ignore_ascii_case(&pair[1]) {
            faults.push(format!("doubled `{}`", pair[0]));
        }
        if pair[0].eq_ignore_ascii_case("you")
            && pair[1].len() > 2
            && pair[1].ends_with('s')
            && !pair[1].ends_with("ss")
            && pair[1].chars().all(|c| c.is_ascii_lowercase())
        {
            faults.push(format!("`you {}`", pair[1]));
        }
    }
    // A clause whose subject is "you" goes on with "and take", not "and takes".
    for clause in text.split([';', ':']) {
        let clause = clause.trim().to_lowercase();
        if !clause.starts_with("you ") {
            continue;
        }
        for pair in clause.split_whitespace().collect::<Vec<_>>().windows(2) {
            if pair[0] == "and" && pair[1].ends_with('s') && !pair[1].ends_with("ss") {
                faults.push(format!("`you ... and {}`", pair[1]));
            }
        }
    }
    // A suit symbol belongs to a piece's text, whole ("5♥", not "5♥0").
    for token in &tokens {
        if token.contains(['♣', '♦', '♥', '♠']) && !pieces.contains(token) {
            faults.push(format!("stray `{token}`"));
        }
    }
    // Without the pieces' texts, what is left holds words and whole numbers only.
    let mut rest = format!(" {text} ");
    let mut by_length: Vec<&String> = pieces.iter().collect();
    by_length.sort_by_key(|p| std::cmp::Reverse(p.len()));
    for piece in by_length {
        rest = rest.replace(piece.as_str(), " piece ");
    }
    for token in rest.split_whitespace().map(trim) {
        // Whole or decimal numbers ("43.5" points), and a number's plural ("three 5s").
        let number = token.trim_start_matches('-').trim_end_matches('s');
        let is_number = !number.is_empty()
            && number.split('.').count() <= 2
            && number
                .split('.')
                .all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_digit()));
        if token.chars().any(|c| c.is_ascii_digit()) && !is_number {
            faults.push(format!("stray digits in `{token}`"));
        }
        let raw_code =
            (token.len() == 1 && token != "I" && token.chars().all(|c| c.is_ascii_uppercase()))
                || token == "JK"
                || (token.len() == 2
                    && "23456789TJQKA".contains(&token[..1])
                    && "CDHS".contains(&token[1..]));
        if raw_code {
            faults.push(format!("raw code `{token}`"));
        }
    }
    faults
}

#[test]
fn every_event_and_action_of_every_family_reads_as_a_sentence() {
    // The pages' own renderer, run by Node on the assets as the binary serves them.
    let root = crate::support::workspace_root();
    if !e2e::tool_or_skip("node", "Node.js 20 or later: apt-get install -y nodejs") {
        return;
    }
    let folder = tempfile::tempdir().expect("a temporary folder");
    for file in ["faces.js", "table.js"] {
        std::fs::copy(
            root.join("api/src/web/assets").join(file),
            folder.path().join(file),
        )
        .expect("copy an asset");
    }
    std::fs::write(folder.path().join("package.json"), r#"{"type": "module"}"#).expect("write");
    let fixtures = folder.path().join("fixtures.json");
    let games = sentence_fixtures();
    std::fs::write(&fixtures, games.to_string()).expect("write the fixtures");
    let output = crate::support::run(
        std::process::Command::new("node")
            .arg(root.join("tests/web/sentences.mjs"))
            .arg(folder.path())
            .arg(&fixtures),
        "node tests/web/sentences.mjs",
    );
    let rendered: Vec<Value> = serde_json::from_str(&output).expect("the renderings as JSON");
    // CARDROOM_SENTENCES=1 prints every rendering, to read them.
    if std::env::var_os("CARDROOM_SENTENCES").is_some() {
        for item in &rendered {
            println!(
                "{} {} (me {}): {}",
                item["game"], item["type"], item["me"], item["text"]
            );
        }
    }
    let mut types = BTreeSet::new();
    let mut faults = Vec::new();
    for item in &rendered {
        let text = item["text"].as_str().unwrap_or_default();
        let pieces: Vec<String> = serde_json::from_value(item["pieces"].clone()).expect("pieces");
        let mut wrong = sentence_faults(text, &pieces);
        if item["declared"] != true {
            wrong.push("no sentence declared for this type".into());
        }
        types.insert((
            item["game"].to_string(),
            item["kind"].to_string(),
            item["type"].to_string(),
        ));
        if !wrong.is_empty() {
            faults.push(format!(
                "{} {} `{}` (me {}): {text:?}: {}; from {}",
                item["game"],
                item["kind"],
                item["type"],
                item["me"],
                wrong.join(", "),
                item["value"]
            ));
        }
    }
    faults.sort();
    faults.dedup();
    assert!(
        faults.is_empty(),
        "{} sentences read wrong:\n{}",
        faults.len(),
        faults.join("\n")
    );
    // Every family's every event type that its games wrote was rendered (and found right).
    for game in games.as_array().expect("games") {
        for event in game["events"].as_array().expect("events") {
            let key = (
                game["id"].to_string(),
                "\"event\"".to_string(),
                event["value"]["type"].to_string(),
            );
            assert!(types.contains(&key), "{key:?} was not rendered");
        }
    }
    let events = rendered.iter().filter(|r| r["kind"] == "event").count();
    assert!(events > 300, "only {events} event renderings");
    // The sentences the issue quotes, as the checks see them.
    let quoted = |text: &str, pieces: &[&str]| {
        sentence_faults(
            text,
            &pieces.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
        )
    };
    assert!(!quoted("You deal deal 1", &[]).is_empty());
    assert!(!quoted("Anna captures 5♠ with 5♥0", &["5♠", "5♥"]).is_empty());
    assert!(
        !quoted(
            "Spades is trump (10♠); the Bird Dog is rank T, suit H",
            &["10♠"]
        )
        .is_empty()
    );
    assert!(!quoted("You play 3♥ and takes 7♥", &["3♥", "7♥"]).is_empty());
    assert!(quoted("You play 3♥ and take 7♥", &["3♥", "7♥"]).is_empty());
}
