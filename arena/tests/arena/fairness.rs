//! A fair arena, over HTTP: faults lose (a bot that faults on every move never rates above
//! `random`, stays paused until a clean trial), a restart is not a fault, a bot down for good
//! aborts its match (`bot_unavailable`), ranked matches need the admin token, the ladder plays
//! every table size, and every match records the version each seat ran. (Cancels: cancels.rs.)

use crate::support::{
    ADMIN_TOKEN, Behavior, RestartableBot, register, register_owned, send, spawn_app, spawn_arena,
    spawn_arena_with, spawn_bot,
};
use arena::Arena;
use serde_json::{Value, json};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

const GAME: &str = "twenty_two";

/// Plays the built-in bots in `game` only, so the ladder schedules nothing else.
async fn builtins_for(arena: &Arena, game: &str) -> Vec<String> {
    let ids = arena.register_builtins().await.expect("built-in bots");
    for id in &ids {
        let mut bot = arena.store().bot(id).await.unwrap().unwrap();
        bot.games = vec![game.to_string()];
        arena.store().update_bot(&bot).await.unwrap();
    }
    ids
}

async fn wait_status(http: &reqwest::Client, base: &str, id: &str, wanted: &[&str]) -> Value {
    let started = Instant::now();
    loop {
        let (_, view) = send(http.get(format!("{base}/v1/matches/{id}"))).await;
        if wanted.iter().any(|w| view["status"] == *w) {
            return view;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "match {id} still {}",
            view["status"]
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The leaderboard's entries by bot id: (display, wins, draws, games).
fn entries(board: &Value) -> Vec<(String, f64, u64, u64, u64)> {
    board["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| {
            (
                e["bot"].as_str().unwrap().to_string(),
                e["display"].as_f64().unwrap(),
                e["wins"].as_u64().unwrap(),
                e["draws"].as_u64().unwrap(),
                e["games"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_that_fault_on_every_move_never_rate_above_random_and_stay_paused() {
    let arena = spawn_arena_with("fair-ladder", |config| {
        config.ladder = true;
        config.ladder_interval = Duration::from_millis(10);
        config.ladder_matches_per_minute = 0;
        // The built-in bots keep playing each other (past the seeding a real ladder stops at):
        // the faulty bots are paused most of the time, and the test wants many ranked matches.
        config.ladder_builtin_matches = u32::MAX;
        config.pause_window = Duration::from_millis(300);
        config.retry_backoff = Duration::from_millis(50);
        config.deadline_ms = 100;
        config.concurrency = 2;
    })
    .await;
    let builtins = builtins_for(&arena, GAME).await;
    let random = builtins[0].clone();
    let base = spawn_app(&arena).await;
    let http = reqwest::Client::new();
    let mut faulty = Vec::new();
    let mut servers = Vec::new();
    for _ in 0..3 {
        let bot = spawn_bot(Behavior::Garbage).await;
        faulty.push(register(&arena, &bot, GAME).await);
        servers.push(bot);
    }
    let started = Instant::now();
    let mut ranked = 0;
    let mut worst_margin = f64::INFINITY;
    while ranked < 200 {
        assert!(
            started.elapsed() < Duration::from_secs(480),
            "{ranked} ranked matches after {:?}",
            started.elapsed()
        );
        let (status, board) = send(http.get(format!("{base}/v1/leaderboards/{GAME}"))).await;
        assert_eq!(status, 200, "{board}");
        let sizes = board["table_sizes"]
            .as_object()
            .expect("table_sizes")
            .clone();
        ranked = sizes.values().map(|n| n.as_u64().unwrap()).sum::<u64>();
        // Each table size is its own leaderboard: at every one, a faulting bot rates below
        // random once a few of its matches there have told (one or two say little either
        // way: random may have lost its first ones to heuristic).
        for players in sizes.keys() {
            let (status, board) =
                send(http.get(format!("{base}/v1/leaderboards/{GAME}?players={players}"))).await;
            assert_eq!(status, 200, "{board}");
            assert_eq!(board["players"].to_string(), *players);
            let rows = entries(&board);
            let random_display = rows
                .iter()
                .find(|(id, ..)| *id == random)
                .map_or(0.0, |r| r.1);
            for (id, display, wins, draws, games) in
                rows.iter().filter(|(id, ..)| faulty.contains(id))
            {
                assert_eq!((*wins, *draws), (0, 0), "faults lose: {board}");
                if *games >= 3 {
                    assert!(
                        *display < random_display,
                        "faulting bot {id} rates {display} at or above random's {random_display} at {players} players: {board}"
                    );
                    worst_margin = worst_margin.min(random_display - display);
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (_, board) = send(http.get(format!("{base}/v1/leaderboards/{GAME}"))).await;
    println!(
        "{ranked} ranked matches in {:?}; the smallest lead of random over a faulting bot: {worst_margin:.2}; table sizes {}; displays {:?}",
        started.elapsed(),
        board["table_sizes"],
        entries(&board)
            .iter()
            .map(|(id, d, ..)| (id.clone(), (d * 100.0).round() / 100.0))
            .collect::<Vec<_>>()
    );
    // Paused for their disqualifications, tried again (they answer their probes) and kept
    // paused by the faults of their trial matches.
    for id in &faulty {
        let (_, bot) = send(http.get(format!("{base}/v1/bots/{id}"))).await;
        assert_eq!(bot["paused"], true, "{bot}");
        assert!(
            ["disqualified", "trial_faulted"].contains(&bot["pause_reason"].as_str().unwrap()),
            "{bot}"
        );
    }
    let trials_faulted = {
        let mut n = 0;
        for id in &faulty {
            let (_, bot) = send(http.get(format!("{base}/v1/bots/{id}"))).await;
            n += usize::from(bot["pause_reason"] == "trial_faulted");
        }
        n
    };
    assert!(trials_faulted > 0, "trial matches were played and faulted");
    assert!(
        servers
            .iter()
            .all(|s| s.seen.requests.load(Ordering::SeqCst) > 0)
    );
}

#[tokio::test]
async fn a_bot_down_for_a_second_during_a_match_loses_nothing() {
    let arena = spawn_arena("fair-restart").await;
    arena.register_builtins().await.expect("built-in bots");
    let base = spawn_app(&arena).await;
    let http = reqwest::Client::new();
    let mut bot = RestartableBot::spawn(Behavior::Good).await;
    let id = register(&arena, &bot.bot, GAME).await;
    let (status, created) = send(
        http.post(format!("{base}/v1/matches"))
            .json(&json!({"game": GAME, "bots": [id, "heuristic"], "deadline_ms": 2500})),
    )
    .await;
    assert_eq!(status, 202, "{created}");
    let match_id = created["id"].as_str().unwrap().to_string();
    // Down after a few answers, for a second: every connection meanwhile is refused.
    while bot.bot.seen.requests.load(Ordering::SeqCst) < 6 {
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    bot.stop().await;
    tokio::time::sleep(Duration::from_millis(1000)).await;
    bot.start().await;
    let view = wait_status(&http, &base, &match_id, &["finished", "aborted"]).await;
    assert_eq!(view["status"], "finished", "{view}");
    assert_eq!(
        view["result"]["faults"],
        json!([0, 0]),
        "{}",
        view["result"]
    );
    let slowest = view["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["seat"] == 0)
        .map(|m| m["latency_ms"].as_u64().unwrap())
        .max()
        .unwrap();
    assert!(
        slowest >= 500,
        "one move waited for the restart: {slowest} ms"
    );
}

#[tokio::test]
async fn a_bot_down_for_good_aborts_its_match_as_bot_unavailable() {
    let arena = spawn_arena_with("fair-down", |config| {
        config.start_probe_window = Duration::from_millis(1500);
    })
    .await;
    arena.register_builtins().await.expect("built-in bots");
    let base = spawn_app(&arena).await;
    let http = reqwest::Client::new();
    let mut bot = RestartableBot::spawn(Behavior::Good).await;
    let (id, token) = register_owned(&arena, &bot.bot, GAME).await;
    bot.stop().await;
    let started = Instant::now();
    let (status, created) = send(
        http.post(format!("{base}/v1/matches"))
            .bearer_auth(ADMIN_TOKEN)
            .json(&json!({"game": GAME, "bots": [id, "heuristic"], "ranked": true})),
    )
    .await;
    assert_eq!(status, 202, "{created}");
    let match_id = created["id"].as_str().unwrap().to_string();
    let view = wait_status(&http, &base, &match_id, &["finished", "aborted"]).await;
    assert_eq!(
        (&view["status"], &view["abort_reason"]),
        (&json!("aborted"), &json!("bot_unavailable")),
        "{view}"
    );
    assert!(
        started.elapsed() >= Duration::from_millis(1400),
        "the probe was retried for its window"
    );
    assert!(view["error"].as_str().unwrap().contains(&id), "{view}");
    assert!(view["moves"].as_array().unwrap().is_empty());
    // No rating moved. The admin's match is not the bot's owner's: its failure does not
    // count toward the bot's health.
    let (_, board) = send(http.get(format!("{base}/v1/leaderboards/{GAME}"))).await;
    assert_eq!(board["entries"], json!([]), "{board}");
    let stored = arena.store().bot(&id).await.unwrap().unwrap();
    assert_eq!(stored.failures, 0);
    // The owner's own match: the failure counts.
    let (status, created) = send(
        http.post(format!("{base}/v1/matches"))
            .bearer_auth(&token)
            .json(&json!({"game": GAME, "bots": [id, "heuristic"]})),
    )
    .await;
    assert_eq!(status, 202, "{created}");
    let view = wait_status(&http, &base, created["id"].as_str().unwrap(), &["aborted"]).await;
    assert_eq!(view["abort_reason"], "bot_unavailable", "{view}");
    let stored = arena.store().bot(&id).await.unwrap().unwrap();
    assert_eq!(stored.failures, 1);
}

#[tokio::test]
async fn ranked_matches_need_the_admin_token() {
    let arena = spawn_arena("fair-ranked").await;
    arena.register_builtins().await.expect("built-in bots");
    let base = spawn_app(&arena).await;
    let http = reqwest::Client::new();
    let body = json!({"game": GAME, "bots": ["random", "heuristic"], "ranked": true});
    let (status, problem) = send(http.post(format!("{base}/v1/matches")).json(&body)).await;
    assert_eq!(
        (status, problem["code"].as_str()),
        (403, Some("ranked_by_ladder_only")),
        "{problem}"
    );
    // A guessed token is no token of this server: refused as such, not taken as anonymous.
    let (status, problem) = send(
        http.post(format!("{base}/v1/matches"))
            .bearer_auth("guess")
            .json(&body),
    )
    .await;
    assert_eq!(
        (status, problem["code"].as_str()),
        (401, Some("invalid_token")),
        "{problem}"
    );
    let (status, created) = send(
        http.post(format!("{base}/v1/matches"))
            .bearer_auth(ADMIN_TOKEN)
            .json(&body),
    )
    .await;
    assert_eq!(status, 202, "{created}");
    // `ranked` defaults to false: anyone may play an unranked match.
    let (status, created) = send(
        http.post(format!("{base}/v1/matches"))
            .json(&json!({"game": GAME, "bots": ["random", "heuristic"]})),
    )
    .await;
    assert_eq!(status, 202, "{created}");
    let view = wait_status(&http, &base, created["id"].as_str().unwrap(), &["finished"]).await;
    assert_eq!(view["ranked"], false);
}

#[tokio::test]
async fn every_match_records_the_version_each_seat_ran() {
    let arena = spawn_arena("fair-versions").await;
    arena.register_builtins().await.expect("built-in bots");
    let base = spawn_app(&arena).await;
    let http = reqwest::Client::new();
    let bot = spawn_bot(Behavior::Good).await;
    let id = register(&arena, &bot, GAME).await;
    let (_, shown) = send(http.get(format!("{base}/v1/bots/{id}"))).await;
    assert_eq!(shown["version"], "0.0.1");
    let mut played = Vec::new();
    for version in ["mc-1", "mc-3"] {
        *bot.seen.version.lock().unwrap() = Some(version.to_string());
        let (_, created) = send(
            http.post(format!("{base}/v1/matches"))
                .json(&json!({"game": GAME, "bots": [id, "random"]})),
        )
        .await;
        let view = wait_status(&http, &base, created["id"].as_str().unwrap(), &["finished"]).await;
        played.push((
            view["seats"][0]["version"].clone(),
            view["seats"][0]["reported_name"].clone(),
            view["seats"][1]["version"].clone(),
        ));
        let (_, shown) = send(http.get(format!("{base}/v1/bots/{id}"))).await;
        assert_eq!(shown["version"], version, "the bot's current version");
    }
    let builtin = json!(env!("CARGO_PKG_VERSION"));
    assert_eq!(
        played,
        vec![
            (json!("mc-1"), json!("fake"), builtin.clone()),
            (json!("mc-3"), json!("fake"), builtin)
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ladder_plays_every_table_size_of_a_game() {
    const WATTEN: &str = "watten";
    let arena = spawn_arena_with("fair-sizes", |config| {
        config.ladder = true;
        config.ladder_interval = Duration::from_millis(10);
        config.ladder_matches_per_minute = 0;
    })
    .await;
    builtins_for(&arena, WATTEN).await;
    let base = spawn_app(&arena).await;
    let http = reqwest::Client::new();
    let mut bots = Vec::new();
    for _ in 0..2 {
        let bot = spawn_bot(Behavior::Good).await;
        register(&arena, &bot, WATTEN).await;
        bots.push(bot);
    }
    let started = Instant::now();
    loop {
        let (_, board) = send(http.get(format!("{base}/v1/leaderboards/{WATTEN}"))).await;
        let sizes = board["table_sizes"].as_object().unwrap().clone();
        if ["2", "3", "4"].iter().all(|n| sizes.get(*n).is_some()) {
            // The least played size goes next: the counts stay within one another.
            let counts: Vec<u64> = sizes.values().map(|n| n.as_u64().unwrap()).collect();
            assert!(
                counts.iter().max().unwrap() - counts.iter().min().unwrap() <= 1,
                "{sizes:?}"
            );
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(90),
            "table sizes so far: {sizes:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
