//! Issue 50, what clients send and get back, over HTTP: safe retries (`Idempotency-Key`,
//! `Location`), resumable streams (`id:`, `Last-Event-ID`), strict and complete queries, one
//! error vocabulary (and docs/api.md's table of it), and leaner bodies.

use crate::http_edge::{Raw, finished_match, send};
use crate::support::{ADMIN_TOKEN, GAME, ServerOptions, TestApp, workspace_root};
use reqwest::Method;
use serde_json::{Value, json};
use std::collections::BTreeSet;

async fn arena_app(name: &str) -> TestApp {
    ServerOptions::default()
        .arena(name)
        .builtins()
        .spawn()
        .await
}

/// POSTs `body` (as given, bytes) to `path` with `headers`.
async fn post(app: &TestApp, path: &str, body: &str, headers: &[(&str, &str)]) -> Raw {
    let mut request = app
        .client
        .post(format!("{}{path}", app.base))
        .header("content-type", "application/json")
        .body(body.to_string());
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.expect("send");
    Raw {
        status: response.status().as_u16(),
        headers: response.headers().clone(),
        bytes: response.bytes().await.expect("body").to_vec(),
    }
}

async fn match_count(app: &TestApp) -> usize {
    app.get("/v1/matches?limit=500").await.body["matches"]
        .as_array()
        .expect("matches")
        .len()
}

#[tokio::test]
async fn a_create_retried_with_its_key_answers_the_first_answer_and_makes_nothing_more() {
    let app = arena_app("retries").await;
    let key = ("idempotency-key", "9b2e6c1a-5f0d-4e7b-8a3c-2d1f0e9b8a77");
    let first = post(
        &app,
        "/v1/matches",
        r#"{"game": "twenty_two", "bots": ["random", "heuristic"], "seed": 4}"#,
        &[key],
    )
    .await;
    assert_eq!(first.status, 202, "{:?}", first.json());
    let id = first.json()["id"].as_str().expect("id").to_string();
    assert_eq!(
        first.header("location"),
        Some(format!("/v1/matches/{id}").as_str())
    );
    assert_eq!(first.header("idempotent-replayed"), None);
    assert!(
        first.header("ratelimit-limit").is_some(),
        "a counted request says where it stands"
    );
    // The same body, written otherwise (another key order, spaces): the same answer, again.
    let retry = post(
        &app,
        "/v1/matches",
        r#"{"seed":4,"bots":["random","heuristic"],"game":"twenty_two"}"#,
        &[key],
    )
    .await;
    assert_eq!(retry.status, 202);
    assert_eq!(retry.bytes, first.bytes, "the same body");
    assert_eq!(retry.header("location"), first.header("location"));
    assert_eq!(retry.header("idempotent-replayed"), Some("true"));
    assert_eq!(match_count(&app).await, 1, "one match");
    // Another body with that key is refused; another key is another match.
    let reused = post(
        &app,
        "/v1/matches",
        r#"{"game": "twenty_two", "bots": ["random", "heuristic"], "seed": 5}"#,
        &[key],
    )
    .await;
    assert_eq!(reused.status, 422);
    assert_eq!(reused.json()["code"], "idempotency_key_reused");
    // The key is the client's: another client (another token) with it makes its own match.
    let token = register_stream_bot(&app, "key-owner", None).await.1;
    let bearer = format!("Bearer {token}");
    let theirs = post(
        &app,
        "/v1/matches",
        r#"{"game": "twenty_two", "bots": ["random", "heuristic"], "seed": 4}"#,
        &[key, ("authorization", &bearer)],
    )
    .await;
    assert_eq!(theirs.status, 202);
    assert_ne!(theirs.json()["id"], first.json()["id"]);
    assert_eq!(match_count(&app).await, 2);
    // `Location` names the match.
    let located = app.get(first.header("location").expect("location")).await;
    assert_eq!(
        (located.status, located.body["id"].as_str()),
        (200, Some(id.as_str()))
    );
    // A request that fails frees its key: fixed, the retry runs.
    let failed = post(
        &app,
        "/v1/matches",
        r#"{"game": "twenty_two", "bots": ["nobody", "random"]}"#,
        &[("idempotency-key", "fix-me")],
    )
    .await;
    assert_eq!(failed.json()["code"], "unknown_bot");
    let fixed = post(
        &app,
        "/v1/matches",
        r#"{"game": "twenty_two", "bots": ["random", "random"]}"#,
        &[("idempotency-key", "fix-me")],
    )
    .await;
    assert_eq!(fixed.status, 202);
    // A key of the wrong shape.
    let bad = post(
        &app,
        "/v1/matches",
        "{}",
        &[("idempotency-key", &"k".repeat(256))],
    )
    .await;
    assert_eq!(bad.json()["code"], "invalid_request");
    app.stop().await;
}

/// Registers a stream bot (no probe); its id and token.
async fn register_stream_bot(app: &TestApp, name: &str, key: Option<&str>) -> (String, String) {
    let headers: Vec<(&str, &str)> = key.map(|k| ("idempotency-key", k)).into_iter().collect();
    let registered = post(
        app,
        "/v1/bots",
        &json!({"name": name, "transport": "stream", "games": [GAME]}).to_string(),
        &headers,
    )
    .await;
    assert_eq!(registered.status, 201, "{:?}", registered.json());
    let body = registered.json();
    (
        body["id"].as_str().expect("id").to_string(),
        body["token"].as_str().expect("token").to_string(),
    )
}

#[tokio::test]
async fn a_bot_registration_retried_after_a_lost_answer_gets_its_token_again() {
    let app = arena_app("retries-bots").await;
    let body = json!({"name": "lost-answer", "transport": "stream", "games": [GAME]}).to_string();
    let key = ("idempotency-key", "lost-answer-1");
    let first = post(&app, "/v1/bots", &body, &[key]).await;
    assert_eq!(first.status, 201);
    let id = first.json()["id"].as_str().expect("id").to_string();
    assert_eq!(
        first.header("location"),
        Some(format!("/v1/bots/{id}").as_str())
    );
    let retry = post(&app, "/v1/bots", &body, &[key]).await;
    assert_eq!(
        retry.status, 201,
        "not 409: the name is the first request's own"
    );
    assert_eq!(
        retry.json()["token"],
        first.json()["token"],
        "the token shown once, again"
    );
    assert_eq!(retry.header("idempotent-replayed"), Some("true"));
    // The token works: the bot is the caller's.
    let token = first.json()["token"].as_str().expect("token").to_string();
    let renamed = app
        .client
        .patch(format!("{}/v1/bots/{id}", app.base))
        .bearer_auth(&token)
        .json(&json!({"name": "found-answer"}))
        .send()
        .await
        .expect("patch");
    assert_eq!(renamed.status().as_u16(), 200);
    // Without a key the same retry is what it always was: the name is taken.
    let again = post(
        &app,
        "/v1/bots",
        &json!({"name": "found-answer", "transport": "stream", "games": [GAME]}).to_string(),
        &[],
    )
    .await;
    assert_eq!(again.json()["code"], "bot_name_taken");
    // Tables and tournaments: `Location`, and the same answer on a retry (a table's seat links
    // are shown once too).
    for (path, body, status) in [
        (
            "/v1/tables",
            json!({"game": GAME, "players": 2, "seats": [{"human": "Ann"}, {"bot": "random"}]}),
            201,
        ),
        (
            "/v1/tournaments",
            json!({"game": GAME, "bots": ["random", "heuristic"], "deals": 1}),
            202,
        ),
    ] {
        let key = ("idempotency-key", path);
        let made = post(&app, path, &body.to_string(), &[key]).await;
        assert_eq!(made.status, status, "{path}: {:?}", made.json());
        let id = made.json()["id"].as_str().expect("id").to_string();
        assert_eq!(
            made.header("location"),
            Some(format!("{path}/{id}").as_str())
        );
        assert_eq!(app.get(&format!("{path}/{id}")).await.status, 200, "{path}");
        let again = post(&app, path, &body.to_string(), &[key]).await;
        assert_eq!(
            (again.status, again.bytes.clone()),
            (status, made.bytes.clone()),
            "{path}"
        );
    }
    app.stop().await;
}

#[tokio::test]
async fn two_requests_with_one_key_at_once_make_one_match() {
    let app = arena_app("retries-race").await;
    let body = r#"{"game": "twenty_two", "bots": ["random", "random"], "seed": 8}"#;
    let key = [("idempotency-key", "at-once")];
    let (a, b, c) = tokio::join!(
        post(&app, "/v1/matches", body, &key),
        post(&app, "/v1/matches", body, &key),
        post(&app, "/v1/matches", body, &key)
    );
    for answer in [&a, &b, &c] {
        assert_eq!(answer.status, 202, "{:?}", answer.json());
        assert_eq!(answer.json()["id"], a.json()["id"]);
    }
    assert_eq!(match_count(&app).await, 1);
    app.stop().await;
}

#[tokio::test]
async fn a_reconnecting_event_stream_resumes_after_its_last_event_id() {
    let app = arena_app("sse-resume").await;
    let id = finished_match(&app, 9).await;
    let moves = app.get(&format!("/v1/matches/{id}")).await.body["moves"]
        .as_array()
        .expect("moves")
        .len();
    let events = |text: &str| -> Vec<(Option<usize>, String)> {
        text.split("\n\n")
            .filter(|block| block.contains("event: "))
            .map(|block| {
                let id = block
                    .lines()
                    .find_map(|l| l.strip_prefix("id: "))
                    .map(|i| i.parse().expect("a move index"));
                let name = block
                    .lines()
                    .find_map(|l| l.strip_prefix("event: "))
                    .expect("name")
                    .to_string();
                (id, name)
            })
            .collect()
    };
    let whole = send(&app, Method::GET, &format!("/v1/matches/{id}/events"), &[]).await;
    let whole = events(&String::from_utf8_lossy(&whole.bytes));
    let ids: Vec<usize> = whole.iter().filter_map(|(id, _)| *id).collect();
    assert_eq!(
        ids,
        (0..moves).collect::<Vec<_>>(),
        "every move event has its index as id"
    );
    assert!(
        whole
            .iter()
            .all(|(id, name)| id.is_some() == (name == "move"))
    );
    let after = moves / 2;
    let resumed = send(
        &app,
        Method::GET,
        &format!("/v1/matches/{id}/events"),
        &[("last-event-id", &after.to_string())],
    )
    .await;
    let resumed = events(&String::from_utf8_lossy(&resumed.bytes));
    let ids: Vec<usize> = resumed.iter().filter_map(|(id, _)| *id).collect();
    assert_eq!(ids, (after + 1..moves).collect::<Vec<_>>());
    let names: Vec<&str> = resumed
        .iter()
        .rev()
        .take(2)
        .map(|(_, n)| n.as_str())
        .collect();
    assert_eq!(names, ["end", "result"]);
    // Not a number, or beyond what JSON keeps exact (schemathesis sent 2^53): no move's id.
    for id_sent in ["soon", "9007199254740992"] {
        let bad = send(
            &app,
            Method::GET,
            &format!("/v1/matches/{id}/events"),
            &[("last-event-id", id_sent)],
        )
        .await;
        assert_eq!(
            (bad.status, bad.json()["code"].as_str()),
            (400, Some("invalid_request")),
            "{id_sent}"
        );
    }
    app.stop().await;
}

#[tokio::test]
async fn lists_refuse_unknown_parameters_filter_by_status_and_bot_name_and_page_everything() {
    let app = arena_app("queries").await;
    let finished = finished_match(&app, 2).await;
    // A table whose people have not joined waits; a paced match runs.
    let table = app
        .post(
            "/v1/tables",
            &json!({"game": GAME, "players": 2, "seats": [{"human": "Ann"}, {"bot": "random"}]}),
        )
        .await
        .body;
    let waiting = table["match_id"].as_str().expect("match").to_string();
    for (path, unknown) in [
        ("/v1/matches?statu=finished", "`statu`"),
        ("/v1/games?fields=id", "`fields`"),
        ("/v1/bots?limit=5&colour=red&page=2", "`colour`, `page`"),
        (
            &format!("/v1/matches/{finished}?verbose=1") as &str,
            "`verbose`",
        ),
        ("/v1/leaderboards/twenty_two?season=1", "`season`"),
    ] {
        let refused = app.get(path).await;
        assert_eq!(refused.status, 400, "{path}");
        assert_eq!(refused.problem_code(), "invalid_request", "{path}");
        let detail = refused.body["detail"].as_str().expect("detail");
        assert!(detail.contains(unknown), "{path}: {detail}");
    }
    let ids = |reply: &Value| -> BTreeSet<String> {
        reply["matches"]
            .as_array()
            .expect("matches")
            .iter()
            .map(|m| m["id"].as_str().expect("id").to_string())
            .collect()
    };
    let only_finished = app.get("/v1/matches?status=finished").await.body;
    assert_eq!(ids(&only_finished), BTreeSet::from([finished.clone()]));
    let only_waiting = app.get("/v1/matches?status=waiting").await.body;
    assert_eq!(ids(&only_waiting), BTreeSet::from([waiting.clone()]));
    assert!(ids(&app.get("/v1/matches?status=aborted").await.body).is_empty());
    assert_eq!(
        app.get("/v1/matches?status=done").await.problem_code(),
        "invalid_request"
    );
    // A bot by name or by id: the same matches.
    let random = app.builtins[0].clone();
    let by_name = app.get("/v1/matches?bot=random").await.body;
    assert!(ids(&by_name).contains(&finished), "{by_name}");
    assert_eq!(
        ids(&by_name),
        ids(&app.get(&format!("/v1/matches?bot={random}")).await.body)
    );
    assert_eq!(
        app.get("/v1/matches?bot=nobody").await.problem_code(),
        "unknown_bot"
    );
    assert_eq!(
        app.get("/v1/matches?game=chess").await.problem_code(),
        "unknown_game"
    );
    // Every list pages with `next_cursor`, the bots' included, to `null` on the last page.
    let mut seen = Vec::new();
    let mut path = "/v1/bots?limit=1".to_string();
    loop {
        let page = app.get(&path).await.body;
        assert_eq!(page["bots"].as_array().expect("bots").len(), 1, "{page}");
        seen.push(page["bots"][0]["id"].as_str().expect("id").to_string());
        match page["next_cursor"].as_str() {
            Some(cursor) => path = format!("/v1/bots?limit=1&cursor={cursor}"),
            None => break,
        }
    }
    let distinct: BTreeSet<&String> = seen.iter().collect();
    assert_eq!(distinct.len(), seen.len(), "each bot once: {seen:?}");
    assert_eq!(distinct, app.builtins.iter().collect(), "every bot");
    // NDJSON by `Accept`; `format=json` still wins.
    let lines = send(
        &app,
        Method::GET,
        "/v1/matches",
        &[("accept", "application/x-ndjson")],
    )
    .await;
    assert_eq!(lines.header("content-type"), Some("application/x-ndjson"));
    let text = String::from_utf8_lossy(&lines.bytes).to_string();
    assert_eq!(text.lines().count(), 2, "{text}");
    let page = send(
        &app,
        Method::GET,
        "/v1/matches?format=json",
        &[("accept", "application/x-ndjson")],
    )
    .await;
    assert!(page.json()["matches"].is_array());
    assert_eq!(
        app.get("/v1/matches?format=ndjson&limit=5")
            .await
            .problem_code(),
        "invalid_request"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_leaderboard_pages_with_ranks_counted_from_the_top() {
    let app = arena_app("leaderboard-pages").await;
    let ranked = app
        .client
        .post(format!("{}/v1/matches", app.base))
        .bearer_auth(ADMIN_TOKEN)
        .json(&json!({"game": GAME, "bots": ["random", "heuristic"], "ranked": true}))
        .send()
        .await
        .expect("ranked");
    assert_eq!(ranked.status().as_u16(), 202);
    let id = ranked.json::<Value>().await.expect("json")["id"]
        .as_str()
        .expect("id")
        .to_string();
    app.wait_finished(&id).await;
    let whole = app.get(&format!("/v1/leaderboards/{GAME}")).await.body;
    assert_eq!(
        whole["entries"].as_array().expect("entries").len(),
        2,
        "{whole}"
    );
    assert!(whole["next_cursor"].is_null());
    let first = app
        .get(&format!("/v1/leaderboards/{GAME}?limit=1"))
        .await
        .body;
    let cursor = first["next_cursor"].as_str().expect("a second page");
    let second = app
        .get(&format!("/v1/leaderboards/{GAME}?limit=1&cursor={cursor}"))
        .await
        .body;
    assert!(second["next_cursor"].is_null());
    let paged: Vec<&Value> = [&first, &second].iter().map(|p| &p["entries"][0]).collect();
    assert_eq!(
        paged,
        whole["entries"]
            .as_array()
            .expect("entries")
            .iter()
            .collect::<Vec<_>>()
    );
    assert_eq!(
        (paged[0]["rank"].as_u64(), paged[1]["rank"].as_u64()),
        (Some(1), Some(2))
    );
    assert_eq!(
        app.get(&format!("/v1/leaderboards/{GAME}?cursor=nonsense"))
            .await
            .problem_code(),
        "invalid_request"
    );
    app.stop().await;
}

#[tokio::test]
async fn one_error_vocabulary_invalid_tokens_and_rate_limits_say_so() {
    let app = arena_app("vocabulary").await;
    // Malformed JSON is one code on the rules API and the arena alike.
    for path in [
        &format!("/v1/games/{GAME}/new") as &str,
        "/v1/matches",
        "/v1/bots",
        "/v1/tables",
    ] {
        let reply = app.post_raw(path, "{bad").await;
        assert_eq!(
            (reply.status, reply.problem_code()),
            (400, "malformed_json"),
            "{path}"
        );
    }
    // A token that is not valid is refused even where none is needed.
    for (path, body) in [
        (
            "/v1/matches",
            json!({"game": GAME, "bots": ["random", "random"]}),
        ),
        (
            "/v1/tournaments",
            json!({"game": GAME, "bots": ["random", "random"], "deals": 1}),
        ),
        (
            "/v1/bots",
            json!({"name": "x", "transport": "stream", "games": [GAME]}),
        ),
    ] {
        let refused = app
            .client
            .post(format!("{}{path}", app.base))
            .bearer_auth("not-a-token")
            .json(&body)
            .send()
            .await
            .expect("send");
        assert_eq!(refused.status().as_u16(), 401, "{path}");
        let challenge = refused.headers()["www-authenticate"]
            .to_str()
            .expect("text")
            .to_string();
        assert!(
            challenge.starts_with("Bearer") && challenge.contains("invalid_token"),
            "{challenge}"
        );
        let problem: Value = refused.json().await.expect("json");
        assert_eq!(problem["code"], "invalid_token", "{path}");
    }
    let (bot, token) = register_stream_bot(&app, "vocab-bot", None).await;
    // A missing token is `unauthorized`, with its challenge; a valid one of another bot too.
    let missing = send(&app, Method::DELETE, &format!("/v1/bots/{bot}"), &[]).await;
    assert_eq!(
        (missing.status, missing.json()["code"].as_str()),
        (401, Some("unauthorized"))
    );
    assert_eq!(
        missing.header("www-authenticate"),
        Some("Bearer realm=\"cardroom\"")
    );
    let wrong = send(
        &app,
        Method::DELETE,
        &format!("/v1/bots/{bot}"),
        &[("authorization", "Bearer nope")],
    )
    .await;
    assert_eq!(wrong.json()["code"], "invalid_token");
    // A valid token is accepted where it is optional, and counted: RateLimit-* on the answer.
    let made = app
        .client
        .post(format!("{}/v1/matches", app.base))
        .bearer_auth(&token)
        .json(&json!({"game": GAME, "bots": ["random", "random"]}))
        .send()
        .await
        .expect("send");
    assert_eq!(made.status().as_u16(), 202);
    for header in [
        "ratelimit-limit",
        "ratelimit-remaining",
        "ratelimit-reset",
        "ratelimit-policy",
    ] {
        assert!(made.headers().get(header).is_some(), "{header}");
    }
    assert_eq!(made.headers()["ratelimit-limit"], "120");
    app.stop().await;
}

/// The codes of docs/api.md's error table: the backticked words of each row's first cell.
fn documented_codes() -> BTreeSet<String> {
    let text = std::fs::read_to_string(workspace_root().join("docs/api.md")).expect("docs/api.md");
    let table = text
        .split("| code | status | when |")
        .nth(1)
        .expect("the error table");
    table
        .lines()
        .skip(1)
        .take_while(|line| line.starts_with('|'))
        .flat_map(|line| {
            let cell = line.split('|').nth(1).unwrap_or_default().to_string();
            cell.split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn the_error_table_of_docs_api_md_lists_every_code_the_server_can_send() {
    let codes: BTreeSet<String> = arena::ErrorCode::ALL
        .iter()
        .map(|c| c.as_str().to_string())
        .collect();
    let documented = documented_codes();
    let missing: Vec<&String> = codes.difference(&documented).collect();
    let unknown: Vec<&String> = documented.difference(&codes).collect();
    assert!(
        missing.is_empty(),
        "docs/api.md's error table misses {missing:?}"
    );
    assert!(
        unknown.is_empty(),
        "docs/api.md's error table lists codes that do not exist: {unknown:?}"
    );
    // And each row's status is the code's own.
    let text = std::fs::read_to_string(workspace_root().join("docs/api.md")).expect("docs");
    for line in text
        .split("| code | status | when |")
        .nth(1)
        .expect("table")
        .lines()
        .skip(1)
    {
        if !line.starts_with('|') {
            break;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        for code in cells[1].split('`').skip(1).step_by(2) {
            let code = arena::ErrorCode::ALL
                .into_iter()
                .find(|c| c.as_str() == code)
                .expect("known");
            assert_eq!(cells[2], code.status().as_u16().to_string(), "{code}");
        }
    }
}

#[tokio::test]
async fn bodies_say_each_thing_once_and_the_export_carries_training_data() {
    let app = arena_app("lean").await;
    let id = finished_match(&app, 13).await;
    // Frames carry the options once; every view the live stream shows carries them.
    let frames = app.get(&format!("/v1/matches/{id}/frames")).await.body;
    let options = frames["options"].clone();
    assert!(options.is_object(), "{}", frames["options"]);
    for frame in frames["frames"].as_array().expect("frames") {
        assert!(frame["view"].get("options").is_none(), "{frame}");
    }
    let stream = send(&app, Method::GET, &format!("/v1/matches/{id}/events"), &[]).await;
    let stream = String::from_utf8_lossy(&stream.bytes).to_string();
    let first_move = stream
        .lines()
        .find_map(|line| {
            line.strip_prefix("data: ")
                .filter(|d| d.contains("\"view\""))
        })
        .expect("a move");
    let first_move: Value = serde_json::from_str(first_move).expect("json");
    assert_eq!(first_move["view"]["options"], options);
    // A match names its actions once: in `moves`; the replay block refers to them.
    let shown = app.get(&format!("/v1/matches/{id}")).await.body;
    assert!(shown["replay"]["seed"].is_u64());
    assert!(
        shown["replay"].get("actions").is_none(),
        "{}",
        shown["replay"]
    );
    let replay_only = app
        .get(&format!("/v1/matches/{id}?include=replay"))
        .await
        .body;
    assert!(replay_only.get("moves").is_none() && replay_only.get("events").is_none());
    let actions = replay_only["replay"]["actions"]
        .as_array()
        .expect("actions");
    let moves = shown["moves"].as_array().expect("moves");
    assert_eq!(actions.len(), moves.len());
    for (action, played) in actions.iter().zip(moves) {
        assert_eq!(
            (&action["seat"], &action["action"]),
            (&played["seat"], &played["action"])
        );
    }
    let replayed = app.op(GAME, "replay", &replay_only["replay"]).await;
    let result = &replayed.body["step"]["result"];
    assert_eq!(
        (&result["ranking"], &result["scores"]),
        (&shown["result"]["ranking"], &shown["result"]["scores"])
    );
    let moves_only = app
        .get(&format!("/v1/matches/{id}?include=moves"))
        .await
        .body;
    assert!(
        moves_only["moves"].is_array()
            && moves_only.get("events").is_none()
            && moves_only.get("replay").is_none()
    );
    assert_eq!(
        app.get(&format!("/v1/matches/{id}?include=seed"))
            .await
            .problem_code(),
        "invalid_request"
    );
    // The NDJSON export with `include=moves,result`: every line replays to its result.
    let export = send(
        &app,
        Method::GET,
        "/v1/matches?format=ndjson&include=moves,result",
        &[],
    )
    .await;
    let text = String::from_utf8_lossy(&export.bytes).to_string();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a line"))
        .collect();
    assert_eq!(lines.len(), 1);
    let line = &lines[0];
    assert_eq!(line["result"], shown["result"]);
    let mut request = line["replay"].clone();
    request["actions"] = line["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| json!({"seat": m["seat"], "action": m["action"]}))
        .collect();
    let replayed = app.op(GAME, "replay", &request).await;
    let result = &replayed.body["step"]["result"];
    assert_eq!(
        (&result["ranking"], &result["scores"]),
        (&shown["result"]["ranking"], &shown["result"]["scores"])
    );
    let plain = send(&app, Method::GET, "/v1/matches?format=ndjson", &[]).await;
    let plain: Value =
        serde_json::from_slice(plain.bytes.split(|b| *b == b'\n').next().expect("line"))
            .expect("json");
    assert!(plain.get("moves").is_none() && plain.get("result").is_none());
    // `StreamLine` is a discriminated union like every other.
    let document = app.get("/openapi.json").await.body;
    let line = &document["components"]["schemas"]["StreamLine"];
    assert_eq!(line["discriminator"]["propertyName"], "type");
    let mapping = line["discriminator"]["mapping"]
        .as_object()
        .expect("mapping");
    assert_eq!(
        mapping.keys().map(String::as_str).collect::<BTreeSet<_>>(),
        BTreeSet::from(["match_end", "match_start", "move", "server_restarting"])
    );
    app.stop().await;
}

/// docs/api.md's pagination loop, run as written against a server: it reads every page and
/// stops on the last one's `null` cursor (it never sends `cursor=null`).
#[tokio::test]
async fn the_docs_pagination_loop_reads_every_page_and_stops() {
    let app = arena_app("docs-loop").await;
    let mut made = BTreeSet::new();
    for seed in 0..5 {
        let created = app
            .post(
                "/v1/matches",
                &json!({"game": GAME, "bots": ["random", "random"], "seed": seed}),
            )
            .await;
        made.insert(created.body["id"].as_str().expect("id").to_string());
    }
    let text = std::fs::read_to_string(workspace_root().join("docs/api.md")).expect("docs");
    let script = text
        .split("<!-- the pagination loop, run by tests/e2e/http_requests.rs -->\n```sh\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the loop in docs/api.md");
    let script = script
        .replace("localhost:8080", app.base.trim_start_matches("http://"))
        .replace("limit=100", "limit=2");
    let output = tokio::process::Command::new("bash")
        .args(["-euc", &script])
        .output()
        .await
        .expect("bash");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let listed: BTreeSet<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| {
            serde_json::from_str::<Value>(line).expect("a match")["id"]
                .as_str()
                .expect("id")
                .to_string()
        })
        .collect();
    assert_eq!(listed, made);
    app.stop().await;
}
