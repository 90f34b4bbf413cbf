//! What a bot's author acts on, over HTTP: every fault of a bot with what it answered and what was
//! expected (`GET /v1/bots/{id}/faults`), its rating after every ranked match
//! (`GET /v1/bots/{id}/ratings`), the rotation of its signing secret (`POST /v1/bots/{id}/secret`,
//! checked by a bot server that verifies the signature headers), and cursor pagination of every
//! list with the NDJSON stream of `GET /v1/matches`.

use crate::support::{Behavior, FakeBot, spawn_app, spawn_arena, spawn_bot, two_player_game};
use arena::dto::CreateMatch;
use arena::store::{MatchRecord, MatchStatus, now_ms};
use serde_json::{Value, json};
use std::collections::HashSet;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// An HTTP client of one arena app.
struct Api {
    base: String,
    http: reqwest::Client,
}

impl Api {
    async fn start(arena: &arena::Arena) -> Api {
        arena::client::install_crypto_provider();
        Api {
            base: spawn_app(arena).await,
            http: reqwest::Client::new(),
        }
    }

    async fn send(&self, request: reqwest::RequestBuilder) -> (u16, Value) {
        let response = request.send().await.expect("the app answers");
        let status = response.status().as_u16();
        let text = response.text().await.expect("body");
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    async fn get(&self, path: &str) -> (u16, Value) {
        self.send(self.http.get(format!("{}{path}", self.base)))
            .await
    }

    async fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        self.send(self.http.post(format!("{}{path}", self.base)).json(body))
            .await
    }

    /// Registers a fake bot over HTTP and has it check signatures with the secret it got.
    /// Returns its id and owner token.
    async fn register(&self, bot: &FakeBot, game: &str) -> (String, String) {
        let (status, registered) = self
            .post(
                "/v1/bots",
                // Open: the tests seat it without its owner's token.
                &json!({"name": format!("fake {}", bot.url), "url": bot.url, "games": [game], "open_to_challenges": true}),
            )
            .await;
        assert_eq!(status, 201, "{registered}");
        *bot.seen.secret.lock().expect("lock") = registered["signing_secret"]
            .as_str()
            .expect("secret")
            .to_string();
        (
            registered["id"].as_str().expect("id").to_string(),
            registered["token"].as_str().expect("token").to_string(),
        )
    }

    /// Creates an unranked match and returns its id.
    async fn play(&self, game: &str, bots: &[&str], deadline_ms: u64) -> String {
        let (status, created) = self
            .post(
                "/v1/matches",
                &json!({"game": game, "bots": bots, "deadline_ms": deadline_ms}),
            )
            .await;
        assert_eq!(status, 202, "{created}");
        created["id"].as_str().expect("id").to_string()
    }

    /// Polls a match until it has ended.
    async fn wait_ended(&self, id: &str) -> Value {
        let started = Instant::now();
        loop {
            let (status, view) = self.get(&format!("/v1/matches/{id}")).await;
            assert_eq!(status, 200, "{view}");
            if view["status"] == "finished" || view["status"] == "aborted" {
                return view;
            }
            assert!(
                started.elapsed() < Duration::from_secs(120),
                "match {id} still {}",
                view["status"]
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Every item of a paged list, following `next_cursor` (`path` has a query already), and
    /// the number of pages.
    async fn all_pages(&self, path: &str, key: &str) -> (Vec<Value>, usize) {
        let mut items = Vec::new();
        let mut cursor: Option<String> = None;
        let mut pages = 0;
        loop {
            let url = match &cursor {
                Some(cursor) => format!("{path}&cursor={cursor}"),
                None => path.to_string(),
            };
            let (status, page) = self.get(&url).await;
            assert_eq!(status, 200, "{url}: {page}");
            pages += 1;
            items.extend(page[key].as_array().expect("a list").iter().cloned());
            match page["next_cursor"].as_str() {
                Some(next) => cursor = Some(next.to_string()),
                None => {
                    assert!(page["next_cursor"].is_null(), "{page}");
                    return (items, pages);
                }
            }
            assert!(pages < 1000, "{path}: no end of pages");
        }
    }
}

/// The `at` of each item, which must not increase (newest first).
fn assert_newest_first(items: &[Value], field: &str) {
    let times: Vec<&str> = items
        .iter()
        .map(|i| i[field].as_str().expect("a time"))
        .collect();
    assert!(
        times.windows(2).all(|w| w[0] >= w[1]),
        "not newest first: {times:?}"
    );
}

#[tokio::test]
async fn every_fault_is_listed_with_what_the_bot_answered_page_by_page() {
    let game = two_player_game();
    let arena = spawn_arena("feedback-faults").await;
    let api = Api::start(&arena).await;
    let failing = spawn_bot(Behavior::Error500).await;
    let garbage = spawn_bot(Behavior::Garbage).await;
    let huge = spawn_bot(Behavior::Huge).await;
    let good = spawn_bot(Behavior::Good).await;
    let slow = spawn_bot(Behavior::Slow(150)).await;
    let (good_id, _) = api.register(&good, &game).await;
    let (failing_id, _) = api.register(&failing, &game).await;
    let (garbage_id, _) = api.register(&garbage, &game).await;
    let (huge_id, _) = api.register(&huge, &game).await;
    let (slow_id, _) = api.register(&slow, &game).await;

    // Two matches of the failing bot: 3 counted faults each before it is disqualified.
    let first = api.play(&game, &[&failing_id, &good_id], 1000).await;
    api.wait_ended(&first).await;
    let second = api.play(&game, &[&good_id, &failing_id], 1000).await;
    let second_view = api.wait_ended(&second).await;
    let (faults, pages) = api
        .all_pages(&format!("/v1/bots/{failing_id}/faults?limit=2"), "faults")
        .await;
    assert_eq!(pages, 3, "6 faults in pages of 2");
    // The moves played for it once disqualified are not the bot's faults.
    assert_eq!(faults.len(), 6, "{faults:?}");
    assert_newest_first(&faults, "at");
    let keys: HashSet<(String, u64)> = faults
        .iter()
        .map(|f| {
            (
                f["match_id"].as_str().expect("match").to_string(),
                f["move"].as_u64().expect("move"),
            )
        })
        .collect();
    assert_eq!(keys.len(), 6, "no fault twice across pages");
    assert_eq!(faults[0]["match_id"], second.as_str(), "newest first");
    for fault in &faults {
        assert_eq!(fault["kind"], "bad_status", "{fault}");
        assert_eq!(fault["detail"], "the bot answered HTTP 500");
        // The bot's own error body, and what was expected.
        assert_eq!(
            fault["answer"],
            json!({"status": 500, "body": "{\"error\": \"boom\"}", "truncated": false})
        );
        assert!(
            fault["expected"]
                .as_str()
                .is_some_and(|e| e.contains("2xx")),
            "{fault}"
        );
    }
    // Each names its move: the same fault as the match's own record of it.
    for fault in faults.iter().filter(|f| f["match_id"] == second.as_str()) {
        let index = fault["move"].as_u64().expect("move") as usize;
        let logged = &second_view["moves"][index];
        assert_eq!(logged["seat"], fault["seat"]);
        assert_eq!(logged["fault"]["kind"], "bad_status");
        assert_eq!(logged["fault"]["answer"], fault["answer"]);
    }

    // `bad_json` quotes what came back, the first 512 bytes of it when it is long.
    let garbage_match = api.play(&game, &[&garbage_id, &huge_id], 1000).await;
    api.wait_ended(&garbage_match).await;
    let (status, page) = api.get(&format!("/v1/bots/{garbage_id}/faults")).await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["faults"].as_array().map(Vec::len), Some(3), "{page}");
    assert!(page["next_cursor"].is_null());
    let fault = &page["faults"][0];
    assert_eq!(fault["kind"], "bad_json");
    assert_eq!(
        fault["answer"],
        json!({"status": 200, "body": "<html>not json</html>", "truncated": false})
    );
    assert!(
        fault["expected"]
            .as_str()
            .is_some_and(|e| e.contains("\"action\"")),
        "{fault}"
    );
    let (_, page) = api.get(&format!("/v1/bots/{huge_id}/faults")).await;
    let answer = &page["faults"][0]["answer"];
    assert_eq!(page["faults"][0]["kind"], "bad_json", "{page}");
    assert_eq!(answer["truncated"], true, "{answer}");
    assert_eq!(answer["body"].as_str().map(str::len), Some(512), "{answer}");
    assert!(
        answer["body"]
            .as_str()
            .is_some_and(|b| b.starts_with("{\"action\": \"xxx")),
        "{answer}"
    );

    // While a match is live its faults show their kind only: the detail and the answer may
    // quote hidden cards. The slow bot keeps the match running after the faults.
    let live = api.play(&game, &[&garbage_id, &slow_id], 1000).await;
    let started = Instant::now();
    let live_fault = loop {
        let (_, page) = api
            .get(&format!("/v1/bots/{garbage_id}/faults?limit=1"))
            .await;
        let newest = page["faults"][0].clone();
        if newest["match_id"] == live.as_str() {
            break newest;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "{page}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    let (_, view) = api.get(&format!("/v1/matches/{live}")).await;
    assert_eq!(view["status"], "running", "the slow bot keeps it running");
    assert_eq!(live_fault["kind"], "bad_json");
    assert!(live_fault["detail"].is_null(), "{live_fault}");
    assert!(live_fault.get("answer").is_none(), "{live_fault}");
    api.wait_ended(&live).await;
    let (_, page) = api
        .get(&format!("/v1/bots/{garbage_id}/faults?limit=1"))
        .await;
    assert!(page["faults"][0]["detail"].is_string(), "{page}");
    assert!(page["faults"][0]["answer"].is_object(), "{page}");

    // A bot that never faulted has an empty list; bad cursors and unknown bots are refused.
    let (_, page) = api.get(&format!("/v1/bots/{good_id}/faults")).await;
    assert_eq!(page, json!({"faults": [], "next_cursor": null}));
    let (status, problem) = api
        .get(&format!("/v1/bots/{failing_id}/faults?cursor=not-a-cursor"))
        .await;
    assert_eq!(
        (status, problem["code"].as_str()),
        (400, Some("invalid_request"))
    );
    let (status, problem) = api.get("/v1/bots/b_0000000000000000/faults").await;
    assert_eq!(
        (status, problem["code"].as_str()),
        (404, Some("unknown_bot"))
    );
}

#[tokio::test]
async fn a_rotated_secret_signs_beside_the_new_one_until_it_expires() {
    let game = two_player_game();
    let arena = spawn_arena("feedback-secret").await;
    let api = Api::start(&arena).await;
    // A bot that takes its time, so a match runs while the secret is rotated.
    let bot = spawn_bot(Behavior::Slow(20)).await;
    let other = spawn_bot(Behavior::Good).await;
    let (id, token) = api.register(&bot, &game).await;
    let (other_id, _) = api.register(&other, &game).await;
    let old_secret = bot.seen.secret.lock().expect("lock").clone();
    let rotate = |token: Option<&str>| {
        let request = api.http.post(format!("{}/v1/bots/{id}/secret", api.base));
        match token {
            Some(token) => request.bearer_auth(token),
            None => request,
        }
    };

    // The owner token only.
    let (status, problem) = api.send(rotate(None)).await;
    assert_eq!(
        (status, problem["code"].as_str()),
        (401, Some("unauthorized"))
    );
    let (status, _) = api.send(rotate(Some("not the token"))).await;
    assert_eq!(status, 401);

    // Rotated while a match runs: its requests carry the new secret's signature and the old
    // one's, so the bot, still checking with the old secret, accepts every one.
    let running = api.play(&game, &[&id, &other_id], 2000).await;
    let started = Instant::now();
    while bot.seen.requests.load(Ordering::SeqCst) < 4 {
        assert!(started.elapsed() < Duration::from_secs(30), "no move asked");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let (status, rotated) = api.send(rotate(Some(&token))).await;
    assert_eq!(status, 200, "{rotated}");
    let new_secret = rotated["signing_secret"]
        .as_str()
        .expect("new secret")
        .to_string();
    assert_ne!(new_secret, old_secret);
    // RFC 3339 times of one format compare as text.
    let until = rotated["previous_valid_until"].as_str().expect("until");
    let minutes = |m: i64| arena::dto::rfc3339(now_ms() + m * 60_000);
    assert!(
        minutes(9).as_str() < until && until <= minutes(10).as_str(),
        "the old secret stays valid 10 minutes: {until}"
    );
    // The running match picks the new secret up before its next move.
    let started = Instant::now();
    while bot.seen.previous_signatures.load(Ordering::SeqCst) == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the running match still signs with the old secret alone"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // The bot restarts with the new secret: the new signature verifies from now on.
    *bot.seen.secret.lock().expect("lock") = new_secret.clone();
    let view = api.wait_ended(&running).await;
    assert_eq!(view["status"], "finished", "{view}");
    assert_eq!(view["result"]["faults"], json!([0, 0]), "{view}");
    assert_eq!(bot.seen.bad_signatures.load(Ordering::SeqCst), 0);

    // A bot still on the old secret keeps working in a new match while it is valid.
    // (The end notices, sent after the match, land first.)
    tokio::time::sleep(Duration::from_millis(500)).await;
    *bot.seen.secret.lock().expect("lock") = old_secret.clone();
    let before = bot.seen.previous_signatures.load(Ordering::SeqCst);
    let view = api
        .wait_ended(&api.play(&game, &[&id, &other_id], 2000).await)
        .await;
    assert_eq!(view["result"]["faults"], json!([0, 0]), "{view}");
    assert_eq!(bot.seen.bad_signatures.load(Ordering::SeqCst), 0);
    assert!(bot.seen.previous_signatures.load(Ordering::SeqCst) > before);

    // Once the replaced secret has expired (a rotation as 10 minutes ago would leave it),
    // requests carry the new signature alone: the old secret no longer verifies.
    assert!(
        arena
            .store()
            .rotate_secret(&id, &new_secret, now_ms() - 1)
            .await
            .expect("rotate")
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    *bot.seen.secret.lock().expect("lock") = old_secret;
    let before = bot.seen.previous_signatures.load(Ordering::SeqCst);
    api.wait_ended(&api.play(&game, &[&id, &other_id], 2000).await)
        .await;
    assert!(bot.seen.bad_signatures.load(Ordering::SeqCst) > 0);
    assert_eq!(bot.seen.previous_signatures.load(Ordering::SeqCst), before);
}

#[tokio::test]
async fn the_rating_after_every_ranked_match_is_listed_with_the_bots_version() {
    let game = two_player_game();
    let arena = spawn_arena("feedback-ratings").await;
    let api = Api::start(&arena).await;
    let first = spawn_bot(Behavior::Good).await;
    let second = spawn_bot(Behavior::Good).await;
    let (first_id, _) = api.register(&first, &game).await;
    let (second_id, _) = api.register(&second, &game).await;
    let (status, history) = api
        .get(&format!("/v1/bots/{first_id}/ratings?game={game}"))
        .await;
    assert_eq!(status, 200, "{history}");
    assert_eq!(
        history,
        json!({"game": game, "ratings": [], "next_cursor": null})
    );
    let mut played = Vec::new();
    for seats in [
        [&first_id, &second_id],
        [&second_id, &first_id],
        [&first_id, &second_id],
    ] {
        let created = arena
            .create_match(CreateMatch {
                game: game.clone(),
                bots: seats.iter().map(|s| s.to_string()).collect(),
                ranked: Some(true),
                ..CreateMatch::default()
            })
            .await
            .expect("a ranked match");
        api.wait_ended(&created.id).await;
        played.push(created.id);
    }
    let (points, pages) = api
        .all_pages(
            &format!("/v1/bots/{first_id}/ratings?game={game}&limit=2"),
            "ratings",
        )
        .await;
    assert_eq!(pages, 2);
    assert_eq!(points.len(), 3, "{points:?}");
    assert_newest_first(&points, "at");
    let listed: Vec<&str> = points
        .iter()
        .map(|p| p["match_id"].as_str().expect("match"))
        .collect();
    assert_eq!(
        listed,
        played.iter().rev().map(String::as_str).collect::<Vec<_>>(),
        "played one after another: newest first"
    );
    for point in &points {
        let (mu, sigma, display) = (
            point["mu"].as_f64().expect("mu"),
            point["sigma"].as_f64().expect("sigma"),
            point["display"].as_f64().expect("display"),
        );
        assert!((display - (mu - 3.0 * sigma)).abs() < 1e-9, "{point}");
        // The version the fake bot reports at `GET /`.
        assert_eq!(point["version"], "0.0.1");
    }
    // The newest point is the bot's current rating.
    let (_, shown) = api.get(&format!("/v1/bots/{first_id}")).await;
    assert_eq!(shown["ratings"][0]["mu"], points[0]["mu"], "{shown}");
    // Uncertainty falls with every match.
    let sigmas: Vec<f64> = points
        .iter()
        .map(|p| p["sigma"].as_f64().expect("sigma"))
        .collect();
    assert!(sigmas.windows(2).all(|w| w[0] < w[1]), "{sigmas:?}");

    // The game is required and must exist; the bot too.
    let (status, problem) = api.get(&format!("/v1/bots/{first_id}/ratings")).await;
    assert_eq!(
        (status, problem["code"].as_str()),
        (400, Some("invalid_request"))
    );
    let (status, problem) = api
        .get(&format!("/v1/bots/{first_id}/ratings?game=no_such_game"))
        .await;
    assert_eq!(
        (status, problem["code"].as_str()),
        (404, Some("unknown_game"))
    );
    let (status, problem) = api
        .get(&format!("/v1/bots/b_0000000000000000/ratings?game={game}"))
        .await;
    assert_eq!(
        (status, problem["code"].as_str()),
        (404, Some("unknown_bot"))
    );
}

#[tokio::test]
async fn lists_page_by_cursor_and_ndjson_streams_every_match_of_a_bot() {
    let game = two_player_game();
    let arena = spawn_arena("feedback-pages").await;
    let api = Api::start(&arena).await;
    let first = spawn_bot(Behavior::Good).await;
    let second = spawn_bot(Behavior::Good).await;
    let (first_id, _) = api.register(&first, &game).await;
    let (second_id, _) = api.register(&second, &game).await;
    // More matches than one read of the stream (200), several created in the same
    // millisecond (the id breaks the tie), loaded as they are.
    let created_at = now_ms() - 1_000_000;
    let imported: Vec<(MatchRecord, Vec<arena::store::MoveRecord>)> = (0..450u64)
        .map(|i| {
            let record = MatchRecord {
                id: format!("m_{i:016x}"),
                seq: 0,
                moves_pruned: false,
                game: game.clone(),
                bots: if i % 2 == 0 {
                    vec![first_id.clone(), second_id.clone()]
                } else {
                    vec![second_id.clone(), first_id.clone()]
                },
                options: json!({}),
                seed: i,
                deals: Vec::new(),
                ranked: false,
                ladder: false,
                deadline_ms: 1000,
                max_faults: 3,
                clock: None,
                seed_salt: None,
                pace_ms: 0,
                status: MatchStatus::Aborted,
                result: None,
                error: Some("imported".into()),
                abort_reason: None,
                created_at: created_at + (i as i64) / 3,
                started_at: None,
                finished_at: Some(created_at),
                creator: None,
            };
            (record, Vec::new())
        })
        .collect();
    arena
        .store()
        .import_matches(&imported)
        .await
        .expect("import");
    let played = api.play(&game, &[&first_id, &second_id], 1000).await;
    api.wait_ended(&played).await;

    // Pages of the bot's matches: every one once, newest first, the played one first.
    let (matches, pages) = api
        .all_pages(&format!("/v1/matches?bot={first_id}&limit=100"), "matches")
        .await;
    assert_eq!((matches.len(), pages), (451, 5));
    let ids: Vec<&str> = matches
        .iter()
        .map(|m| m["id"].as_str().expect("id"))
        .collect();
    assert_eq!(ids.iter().collect::<HashSet<_>>().len(), 451);
    assert_eq!(ids[0], played);
    assert_eq!(
        ids[1], "m_00000000000001c1",
        "the newest import next, ties by id"
    );
    assert_newest_first(&matches, "created_at");
    // The same with the game filter, and with none.
    let (by_game, _) = api
        .all_pages(&format!("/v1/matches?game={game}&limit=200"), "matches")
        .await;
    let (every, _) = api.all_pages("/v1/matches?limit=300", "matches").await;
    for list in [&by_game, &every] {
        let listed: Vec<&str> = list.iter().map(|m| m["id"].as_str().expect("id")).collect();
        assert_eq!(listed, ids);
    }
    let (status, problem) = api.get("/v1/matches?cursor=bm90IGEgY3Vyc29y").await;
    assert_eq!(
        (status, problem["code"].as_str()),
        (400, Some("invalid_request"))
    );

    // NDJSON: every match of the bot, one object per line, streamed in chunks.
    let response = api
        .http
        .get(format!(
            "{}/v1/matches?format=ndjson&bot={first_id}",
            api.base
        ))
        .send()
        .await
        .expect("ndjson");
    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(
        response.headers()["content-type"].to_str().ok(),
        Some("application/x-ndjson")
    );
    assert!(
        response.headers().get("content-length").is_none(),
        "streamed, not sent as one sized body"
    );
    let text = response.text().await.expect("body");
    assert!(text.ends_with('\n'));
    let streamed: Vec<Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
        .collect();
    assert_eq!(
        streamed
            .iter()
            .map(|m| m["id"].as_str().expect("id"))
            .collect::<Vec<_>>(),
        ids
    );
    assert_eq!(streamed[0], matches[0], "the same objects as the JSON list");

    // Tournaments page the same way.
    let mut tournaments = Vec::new();
    for seed in 0..3 {
        let (status, created) = api
            .post(
                "/v1/tournaments",
                &json!({"game": game, "bots": [first_id, second_id], "deals": 1,
                        "seat_rotations": false, "seed": seed}),
            )
            .await;
        assert_eq!(status, 202, "{created}");
        tournaments.push(created["id"].as_str().expect("id").to_string());
    }
    let (listed, pages) = api
        .all_pages("/v1/tournaments?limit=2", "tournaments")
        .await;
    assert_eq!(pages, 2);
    let mut listed: Vec<String> = listed
        .iter()
        .map(|t| t["id"].as_str().expect("id").to_string())
        .collect();
    listed.sort();
    tournaments.sort();
    assert_eq!(listed, tournaments);
}
