//! Consent, over HTTP: a registered bot is seated only by the ladder, its owner's token, the
//! admin token, or by anyone once its owner opened it to challenges, on `POST /v1/matches`,
//! `/v1/tournaments` and `/v1/tables` alike (403 `consent_required` naming the bot, and nothing
//! stored). And health counts only what the owner chose: a stranger's matches with a deadline
//! the bot cannot meet never pause it, while its owner's own do; every fault is listed, marked
//! with who created its match.

use crate::support::{
    ADMIN_TOKEN, Behavior, send, spawn_app, spawn_arena, spawn_arena_with, spawn_bot,
};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

const GAME: &str = "twenty_two";

/// Registers a fake bot over HTTP (closed unless `open`); returns its id and owner token.
async fn register(
    http: &reqwest::Client,
    base: &str,
    bot: &crate::support::FakeBot,
    name: &str,
    open: Option<bool>,
) -> (String, String) {
    let mut body = json!({"name": name, "url": bot.url, "games": [GAME]});
    if let Some(open) = open {
        body["open_to_challenges"] = json!(open);
    }
    let (status, registered) = send(http.post(format!("{base}/v1/bots")).json(&body)).await;
    assert_eq!(status, 201, "{registered}");
    assert_eq!(
        registered["bot"]["open_to_challenges"],
        open.unwrap_or(false)
    );
    *bot.seen.secret.lock().expect("lock") = registered["signing_secret"]
        .as_str()
        .expect("secret")
        .into();
    (
        registered["id"].as_str().expect("id").to_string(),
        registered["token"].as_str().expect("token").to_string(),
    )
}

async fn wait_ended(http: &reqwest::Client, base: &str, id: &str) -> Value {
    let started = Instant::now();
    loop {
        let (status, view) = send(http.get(format!("{base}/v1/matches/{id}"))).await;
        assert_eq!(status, 200, "{view}");
        if view["status"] == "finished" || view["status"] == "aborted" {
            return view;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "{view}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The attack: anyone seating anyone's bot, without a token, in matches, tournaments and tables.
#[tokio::test]
async fn a_registered_bot_is_seated_only_with_its_owners_consent() {
    let arena = spawn_arena("consent").await;
    arena.register_builtins().await.expect("built-in bots");
    let base = spawn_app(&arena).await;
    let http = reqwest::Client::new();
    let mine = spawn_bot(Behavior::Good).await;
    let (id, token) = register(&http, &base, &mine, "closed", None).await;
    let theirs = spawn_bot(Behavior::Good).await;
    let (_, their_token) = register(&http, &base, &theirs, "someone else", None).await;

    // The setting is public; built-in bots are open.
    let (_, shown) = send(http.get(format!("{base}/v1/bots/{id}"))).await;
    assert_eq!(shown["open_to_challenges"], false, "{shown}");
    let (_, bots) = send(http.get(format!("{base}/v1/bots"))).await;
    let heuristic = bots["bots"]
        .as_array()
        .expect("bots")
        .iter()
        .find(|b| b["name"] == "heuristic")
        .expect("heuristic")
        .clone();
    assert_eq!(heuristic["open_to_challenges"], true);

    let match_body = json!({"game": GAME, "bots": [id, "heuristic"], "deadline_ms": 10});
    let tournament_body = json!({"game": GAME, "bots": [id, "heuristic"], "deals": 2});
    let table_body = json!({"game": GAME, "players": 2, "seats": [{"bot": id}, {"human": "Anna"}]});
    let creations = [
        ("/v1/matches", &match_body),
        ("/v1/tournaments", &tournament_body),
        ("/v1/tables", &table_body),
    ];
    // No token, another bot's owner token: refused, naming the bot (a token the arena does not
    // know is refused before, as 401 `invalid_token`: below).
    for (path, body) in creations {
        let (status, problem) = send(
            http.post(format!("{base}{path}"))
                .bearer_auth("not a token")
                .json(body),
        )
        .await;
        assert_eq!(
            (status, problem["code"].as_str()),
            (401, Some("invalid_token")),
            "{path}: {problem}"
        );
        for token in [None, Some(their_token.as_str())] {
            let mut request = http.post(format!("{base}{path}")).json(body);
            if let Some(token) = token {
                request = request.bearer_auth(token);
            }
            let (status, problem) = send(request).await;
            assert_eq!(
                (status, problem["code"].as_str()),
                (403, Some("consent_required")),
                "{path} {token:?}: {problem}"
            );
            let detail = problem["detail"].as_str().expect("detail");
            assert!(
                detail.contains(&id) && detail.contains("closed"),
                "{detail}"
            );
        }
    }
    // Nothing was stored.
    let (_, listed) = send(http.get(format!("{base}/v1/matches?bot={id}"))).await;
    assert_eq!(listed["matches"], json!([]), "{listed}");
    let (_, tournaments) = send(http.get(format!("{base}/v1/tournaments"))).await;
    assert_eq!(tournaments["tournaments"], json!([]), "{tournaments}");

    // Its owner's token and the admin token seat it.
    for token in [token.as_str(), ADMIN_TOKEN] {
        for (path, body) in creations {
            let (status, created) = send(
                http.post(format!("{base}{path}"))
                    .bearer_auth(token)
                    .json(body),
            )
            .await;
            assert!(status == 201 || status == 202, "{path}: {created}");
        }
    }
    let (_, listed) = send(http.get(format!("{base}/v1/matches?bot={id}&limit=500"))).await;
    let created_by: Vec<Value> = listed["matches"]
        .as_array()
        .expect("matches")
        .iter()
        .map(|m| m["id"].clone())
        .collect();
    assert!(!created_by.is_empty());
    let (_, first) = send(http.get(format!(
        "{base}/v1/matches/{}",
        created_by.last().and_then(Value::as_str).expect("id")
    )))
    .await;
    assert_eq!(first["created_by"], json!({"kind": "owner", "bot": id}));

    // Opened by its owner: anyone may seat it.
    let (status, patched) = send(
        http.patch(format!("{base}/v1/bots/{id}"))
            .bearer_auth(&token)
            .json(&json!({"open_to_challenges": true})),
    )
    .await;
    assert_eq!(status, 200, "{patched}");
    assert_eq!(patched["open_to_challenges"], true);
    let (status, created) = send(http.post(format!("{base}/v1/matches")).json(&match_body)).await;
    assert_eq!(status, 202, "{created}");
    let (_, view) = send(http.get(format!(
        "{base}/v1/matches/{}",
        created["id"].as_str().expect("id")
    )))
    .await;
    assert_eq!(view["created_by"], json!({"kind": "client"}), "{view}");
}

/// The attack: a stranger queues matches with a 10 ms deadline around a healthy (open) bot
/// until it is disqualified again and again, to pause it from the ladder.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_strangers_matches_never_pause_a_bot_its_owners_own_do() {
    let arena = spawn_arena_with("consent-health", |config| {
        config.pause_window = Duration::from_millis(200);
        config.retry_backoff = Duration::from_millis(50);
    })
    .await;
    arena.register_builtins().await.expect("built-in bots");
    let base = spawn_app(&arena).await;
    let http = reqwest::Client::new();
    // Healthy: it answers within 30 ms, which no 10 ms deadline allows.
    let bot = spawn_bot(Behavior::Slow(30)).await;
    let (id, token) = register(&http, &base, &bot, "healthy", Some(true)).await;
    let attack = json!({"game": GAME, "bots": [id, "random"], "deadline_ms": 10});
    let started = Instant::now();
    for _ in 0..6 {
        let (status, created) = send(http.post(format!("{base}/v1/matches")).json(&attack)).await;
        assert_eq!(status, 202, "{created}");
        let view = wait_ended(&http, &base, created["id"].as_str().expect("id")).await;
        assert_eq!(view["result"]["disqualified"], json!([0]), "{view}");
    }
    assert!(
        started.elapsed() >= Duration::from_millis(200),
        "the window passed"
    );
    let (_, shown) = send(http.get(format!("{base}/v1/bots/{id}"))).await;
    assert_eq!(shown["paused"], false, "{shown}");
    assert_eq!(arena.store().bot(&id).await.unwrap().unwrap().failures, 0);
    // Every fault is listed, marked with who created its match, as not counting.
    let (_, listed) = send(http.get(format!("{base}/v1/bots/{id}/faults?limit=500"))).await;
    let faults = listed["faults"].as_array().expect("faults");
    assert!(faults.len() >= 18, "{listed}");
    for fault in faults {
        assert_eq!(fault["created_by"], json!({"kind": "client"}), "{fault}");
        assert_eq!(fault["counts_toward_pause"], false, "{fault}");
    }

    // The same matches, created by its owner: each disqualification counts, and once they
    // span the pause window the bot is paused.
    let mut paused = Value::Null;
    for _ in 0..20 {
        let (status, created) = send(
            http.post(format!("{base}/v1/matches"))
                .bearer_auth(&token)
                .json(&attack),
        )
        .await;
        assert_eq!(status, 202, "{created}");
        wait_ended(&http, &base, created["id"].as_str().expect("id")).await;
        let (_, shown) = send(http.get(format!("{base}/v1/bots/{id}"))).await;
        if shown["paused"] == true {
            paused = shown;
            break;
        }
    }
    assert_eq!(paused["pause_reason"], "disqualified", "{paused}");
    let (_, listed) = send(http.get(format!("{base}/v1/bots/{id}/faults?limit=3"))).await;
    for fault in listed["faults"].as_array().expect("faults") {
        assert_eq!(fault["created_by"], json!({"kind": "owner", "bot": id}));
        assert_eq!(fault["counts_toward_pause"], true);
    }
}
