//! Honest cancels, over HTTP. The attack: a seated bot's owner `DELETE`s a running ranked match
//! it is losing (an aborted match moves no rating). A seated bot's owner cancels only until its
//! bot has made its first move (409 `match_underway` after); the admin cancels at any time; a
//! cancelled match moves no rating. In a tournament the owner withdraws its bot from the tables
//! not yet started, and the started ones play on.

use crate::support::{
    ADMIN_TOKEN, Behavior, RestartableBot, register_owned, send, spawn_app, spawn_arena, spawn_bot,
};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

const GAME: &str = "twenty_two";

async fn view(http: &reqwest::Client, base: &str, id: &str) -> Value {
    send(http.get(format!("{base}/v1/matches/{id}"))).await.1
}

/// Polls a match until `ready` holds.
async fn wait_until(
    http: &reqwest::Client,
    base: &str,
    id: &str,
    ready: impl Fn(&Value) -> bool,
) -> Value {
    let started = Instant::now();
    loop {
        let shown = view(http, base, id).await;
        if ready(&shown) {
            return shown;
        }
        assert!(started.elapsed() < Duration::from_secs(90), "{shown}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

fn ended(shown: &Value) -> bool {
    shown["status"] == "finished" || shown["status"] == "aborted"
}

/// Whether seat `seat` has a logged move.
fn moved(shown: &Value, seat: u64) -> bool {
    shown["moves"]
        .as_array()
        .is_some_and(|moves| moves.iter().any(|m| m["seat"] == seat))
}

#[tokio::test]
async fn an_owner_cancels_only_before_its_bots_first_move_the_admin_at_any_time() {
    let arena = spawn_arena("cancel-rules").await;
    arena.register_builtins().await.expect("built-in bots");
    let base = spawn_app(&arena).await;
    let http = reqwest::Client::new();
    let mut bot = RestartableBot::spawn(Behavior::Slow(15)).await;
    let (id, token) = register_owned(&arena, &bot.bot, GAME).await;
    let stranger = spawn_bot(Behavior::Good).await;
    let (_, stranger_token) = register_owned(&arena, &stranger, GAME).await;
    let cancel = |match_id: &str| http.delete(format!("{base}/v1/matches/{match_id}"));

    // Before its first move (the bot is down: the match waits for its probe), the owner may.
    bot.stop().await;
    let (status, created) = send(
        http.post(format!("{base}/v1/matches"))
            .bearer_auth(&token)
            .json(&json!({"game": GAME, "bots": [id, "heuristic"]})),
    )
    .await;
    assert_eq!(status, 202, "{created}");
    let early = created["id"].as_str().expect("id").to_string();
    for request in [cancel(&early), cancel(&early).bearer_auth(&stranger_token)] {
        let (status, problem) = send(request).await;
        assert_eq!(
            (status, problem["code"].as_str()),
            (403, Some("forbidden")),
            "{problem}"
        );
    }
    // A token of nobody at all is no token of this server: 401 (issue 50), and nothing changes.
    let (status, problem) = send(cancel(&early).bearer_auth("not a token")).await;
    assert_eq!(
        (status, problem["code"].as_str()),
        (401, Some("invalid_token")),
        "{problem}"
    );
    let (status, cancelled) = send(cancel(&early).bearer_auth(&token)).await;
    assert_eq!(
        (status, cancelled),
        (
            200,
            json!({"id": early, "status": "aborted", "abort_reason": "cancelled"})
        )
    );
    let (status, problem) = send(cancel(&early).bearer_auth(&token)).await;
    assert_eq!(
        (status, problem["code"].as_str()),
        (409, Some("match_finished"))
    );
    bot.start().await;

    // A ranked match (the ladder's kind): once the bot has moved, its owner cannot abort it,
    // and it finishes and is rated.
    let ranked = |http: &reqwest::Client| {
        http.post(format!("{base}/v1/matches"))
            .bearer_auth(ADMIN_TOKEN)
            .json(&json!({"game": GAME, "bots": [id, "heuristic"], "ranked": true}))
    };
    let (status, created) = send(ranked(&http)).await;
    assert_eq!(status, 202, "{created}");
    let rated = created["id"].as_str().expect("id").to_string();
    let seat = |shown: &Value| -> u64 {
        (0..2)
            .find(|s| shown["seats"][*s as usize]["bot"] == id.as_str())
            .expect("the bot's seat")
    };
    let shown = wait_until(&http, &base, &rated, |v| moved(v, seat(v)) || ended(v)).await;
    assert_eq!(shown["status"], "running", "{shown}");
    let (status, problem) = send(cancel(&rated).bearer_auth(&token)).await;
    assert_eq!(
        (status, problem["code"].as_str()),
        (409, Some("match_underway")),
        "{problem}"
    );
    let shown = wait_until(&http, &base, &rated, ended).await;
    assert_eq!(shown["status"], "finished", "{shown}");
    let (_, board) = send(http.get(format!("{base}/v1/leaderboards/{GAME}?players=2"))).await;
    let games = |board: &Value| -> Vec<u64> {
        board["entries"]
            .as_array()
            .expect("entries")
            .iter()
            .map(|e| e["games"].as_u64().expect("games"))
            .collect()
    };
    assert_eq!(games(&board), vec![1, 1], "{board}");

    // The admin cancels a running ranked match after moves: aborted, no rating moves.
    let (_, created) = send(ranked(&http)).await;
    let aborted = created["id"].as_str().expect("id").to_string();
    wait_until(&http, &base, &aborted, |v| {
        v["moves"].as_array().is_some_and(|m| m.len() >= 2) || ended(v)
    })
    .await;
    let (status, _) = send(cancel(&aborted).bearer_auth(ADMIN_TOKEN)).await;
    assert_eq!(status, 200);
    let shown = wait_until(&http, &base, &aborted, ended).await;
    assert_eq!(shown["abort_reason"], "cancelled", "{shown}");
    assert!(
        shown["error"]
            .as_str()
            .is_some_and(|e| e.contains("the admin"))
    );
    let (_, board) = send(http.get(format!("{base}/v1/leaderboards/{GAME}?players=2"))).await;
    assert_eq!(games(&board), vec![1, 1], "no rating moved: {board}");
}

#[tokio::test]
async fn an_owner_withdraws_its_bot_from_the_tournament_tables_not_yet_started() {
    let arena = crate::support::spawn_arena_with("cancel-withdraw", |config| {
        config.concurrency = 2;
    })
    .await;
    arena.register_builtins().await.expect("built-in bots");
    let base = spawn_app(&arena).await;
    let http = reqwest::Client::new();
    let bot = spawn_bot(Behavior::Slow(20)).await;
    let (id, token) = register_owned(&arena, &bot, GAME).await;
    let stranger = spawn_bot(Behavior::Good).await;
    let (_, stranger_token) = register_owned(&arena, &stranger, GAME).await;
    let (status, created) = send(
        http.post(format!("{base}/v1/tournaments"))
            .bearer_auth(&token)
            .json(&json!({"game": GAME, "bots": [id, "heuristic"], "deals": 4})),
    )
    .await;
    assert_eq!(status, 202, "{created}");
    let tid = created["id"].as_str().expect("id").to_string();
    let tables = |shown: &Value| shown["matches"].as_array().expect("tables").clone();
    // Wait until a table has moves: it started.
    let started = Instant::now();
    let underway = loop {
        let (_, shown) = send(http.get(format!("{base}/v1/tournaments/{tid}"))).await;
        let mut underway = Vec::new();
        for table in tables(&shown) {
            if table["status"] == "running" {
                let id = table["id"].as_str().expect("id");
                if arena.store().moves(id).await.expect("moves").len() > 1 {
                    underway.push(id.to_string());
                }
            }
        }
        if !underway.is_empty() {
            break underway;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "{shown}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    let withdraw = || http.delete(format!("{base}/v1/tournaments/{tid}"));
    let (status, problem) = send(withdraw().bearer_auth(&stranger_token)).await;
    assert_eq!((status, problem["code"].as_str()), (403, Some("forbidden")));
    let (status, withdrawn) = send(withdraw().bearer_auth(&token)).await;
    assert_eq!(status, 200, "{withdrawn}");
    assert_eq!(withdrawn["withdrawn"], id.as_str());
    let cancelled = withdrawn["cancelled"].as_u64().expect("cancelled");
    assert!(cancelled >= 1, "{withdrawn}");
    // The started tables play on to their end; the others were aborted before any move.
    for table in &underway {
        let shown = wait_until(&http, &base, table, ended).await;
        assert_eq!(shown["status"], "finished", "{shown}");
    }
    let (_, shown) = send(http.get(format!("{base}/v1/tournaments/{tid}"))).await;
    let mut aborted = 0;
    for table in tables(&shown) {
        let table_id = table["id"].as_str().expect("id");
        let record = arena
            .wait_for(table_id, Duration::from_secs(60))
            .await
            .expect("ends");
        if record.status == arena::store::MatchStatus::Aborted {
            aborted += 1;
            assert_eq!(
                record.abort_reason,
                Some(arena::store::AbortReason::Cancelled)
            );
            assert!(
                arena
                    .store()
                    .moves(table_id)
                    .await
                    .expect("moves")
                    .is_empty(),
                "{table_id} had started"
            );
        }
    }
    assert_eq!(aborted, cancelled);
    // Nothing left to withdraw from.
    let (status, problem) = send(withdraw().bearer_auth(&token)).await;
    assert_eq!(
        (status, problem["code"].as_str()),
        (409, Some("match_finished")),
        "{problem}"
    );
}
