//! Arena operations: unique bot names and matches by name, time banks (flagged seats), ladder
//! health over a time window, rate limits, leaderboard counts, RFC 3339 times and metrics.

use crate::support::{
    ADMIN_TOKEN, Behavior, register, spawn_app, spawn_arena, spawn_arena_with, spawn_bot,
    two_player_game,
};
use arena::client::FaultKind;
use arena::dto::CreateMatch;
use arena::problem::ErrorCode;
use arena::store::MatchStatus;
use arena::store::PauseReason;
use arena::wire::Clock;
use serde_json::{Value, json};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

async fn send(request: reqwest::RequestBuilder) -> (u16, reqwest::header::HeaderMap, Value) {
    let response = request.send().await.expect("send");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let text = response.text().await.expect("body");
    (
        status,
        headers,
        serde_json::from_str(&text).unwrap_or(Value::Null),
    )
}

/// `2026-11-23T18:50:28.123Z`: RFC 3339, UTC, milliseconds.
fn assert_rfc3339(value: &Value) {
    let text = value
        .as_str()
        .unwrap_or_else(|| panic!("not a string: {value}"));
    let bytes = text.as_bytes();
    assert_eq!(bytes.len(), 24, "{text}");
    for (i, b) in bytes.iter().enumerate() {
        let expected = match i {
            4 | 7 => b'-',
            10 => b'T',
            13 | 16 => b':',
            19 => b'.',
            23 => b'Z',
            _ => {
                assert!(b.is_ascii_digit(), "{text}");
                continue;
            }
        };
        assert_eq!(*b, expected, "{text}");
    }
    assert!(text.starts_with("20"), "{text}");
}

async fn wait_finished(base: &str, http: &reqwest::Client, id: &str) -> Value {
    for _ in 0..1200 {
        let (_, _, view) = send(http.get(format!("{base}/v1/matches/{id}"))).await;
        if view["status"] == "finished" || view["status"] == "aborted" {
            return view;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("match {id} did not finish");
}

#[tokio::test]
async fn bot_names_are_unique_and_matches_name_bots_by_name_or_id() {
    let game = two_player_game();
    let arena = spawn_arena("names").await;
    arena.register_builtins().await.expect("builtins");
    let base = spawn_app(&arena).await;
    let http = reqwest::Client::new();
    let bot = spawn_bot(Behavior::Good).await;
    let body = |name: &str| json!({"name": name, "url": bot.url, "games": [game], "open_to_challenges": true});

    let (status, _, alpha) = send(http.post(format!("{base}/v1/bots")).json(&body("alpha"))).await;
    assert_eq!(status, 201, "{alpha}");
    assert_rfc3339(&alpha["bot"]["created_at"]);
    for taken in ["alpha", "random"] {
        let (status, headers, problem) =
            send(http.post(format!("{base}/v1/bots")).json(&body(taken))).await;
        assert_eq!(
            (status, problem["code"].as_str()),
            (409, Some("bot_name_taken"))
        );
        assert_eq!(headers["content-type"], "application/problem+json");
        assert_eq!(problem["status"], 409);
    }
    let (status, _, problem) = send(
        http.post(format!("{base}/v1/bots"))
            .json(&body("b_0123456789abcdef")),
    )
    .await;
    assert_eq!(
        (status, problem["code"].as_str()),
        (400, Some("invalid_request"))
    );
    let (status, _, beta) = send(http.post(format!("{base}/v1/bots")).json(&body("beta"))).await;
    assert_eq!(status, 201, "{beta}");
    let beta_id = beta["id"].as_str().expect("id");
    let beta_token = beta["token"].as_str().expect("token");
    let (status, _, problem) = send(
        http.patch(format!("{base}/v1/bots/{beta_id}"))
            .bearer_auth(beta_token)
            .json(&json!({"name": "alpha"})),
    )
    .await;
    assert_eq!(
        (status, problem["code"].as_str()),
        (409, Some("bot_name_taken"))
    );
    // Renaming a bot to its own name is no conflict.
    let (status, _, renamed) = send(
        http.patch(format!("{base}/v1/bots/{beta_id}"))
            .bearer_auth(beta_token)
            .json(&json!({"name": "beta"})),
    )
    .await;
    assert_eq!((status, renamed["name"].as_str()), (200, Some("beta")));

    // Seats by name (built-in and registered) or by id.
    let (status, _, created) = send(
        http.post(format!("{base}/v1/matches"))
            .json(&json!({"game": game, "bots": ["random", "heuristic"], "seed": 3})),
    )
    .await;
    assert_eq!(status, 202, "{created}");
    let view = wait_finished(&base, &http, created["id"].as_str().expect("id")).await;
    assert_eq!(view["status"], "finished", "{view}");
    assert_eq!(view["seats"][0]["name"], "random");
    assert_eq!(view["seats"][1]["name"], "heuristic");
    assert!(
        view["seats"][0]["bot"]
            .as_str()
            .is_some_and(|id| id.starts_with("b_"))
    );
    assert_rfc3339(&view["created_at"]);
    assert_rfc3339(&view["started_at"]);
    assert_rfc3339(&view["finished_at"]);
    // The searching built-in bot plays a whole match in process (a short deadline: it searches
    // half of it per move), with no fault.
    let (status, _, created) = send(http.post(format!("{base}/v1/matches")).json(
        &json!({"game": game, "bots": ["ismcts", "heuristic"], "seed": 5, "deadline_ms": 20}),
    ))
    .await;
    assert_eq!(status, 202, "{created}");
    let view = wait_finished(&base, &http, created["id"].as_str().expect("id")).await;
    assert_eq!(view["status"], "finished", "{view}");
    assert_eq!(view["seats"][0]["name"], "ismcts");
    let (status, _, created) = send(
        http.post(format!("{base}/v1/matches"))
            .json(&json!({"game": game, "bots": ["alpha", beta_id], "seed": 3})),
    )
    .await;
    assert_eq!(status, 202, "{created}");
    let (status, _, problem) = send(
        http.post(format!("{base}/v1/matches"))
            .json(&json!({"game": game, "bots": ["alpha", "nobody"]})),
    )
    .await;
    assert_eq!(
        (status, problem["code"].as_str()),
        (404, Some("unknown_bot"))
    );
    // A ranked match needs two different bots, however they are named.
    let alpha_id = alpha["id"].as_str().expect("id");
    let (status, _, problem) = send(
        http.post(format!("{base}/v1/matches"))
            .bearer_auth(ADMIN_TOKEN)
            .json(&json!({"game": game, "bots": ["alpha", alpha_id], "ranked": true})),
    )
    .await;
    assert_eq!(
        (status, problem["code"].as_str()),
        (422, Some("duplicate_bots"))
    );
    let (_, _, list) = send(http.get(format!("{base}/v1/matches"))).await;
    assert_rfc3339(&list["matches"][0]["created_at"]);
}

#[tokio::test]
async fn a_seat_whose_bank_runs_out_is_flagged_and_plays_the_fallback_for_the_rest() {
    let game = two_player_game();
    let arena = spawn_arena_with("clock", |config| config.deadline_ms = 1000).await;
    let slow = spawn_bot(Behavior::Slow(600)).await;
    let good = spawn_bot(Behavior::Good).await;
    let slow_id = register(&arena, &slow, &game).await;
    let good_id = register(&arena, &good, &game).await;
    let clock = Clock {
        initial_ms: 1000,
        increment_ms: 0,
    };
    let created = arena
        .create_match(CreateMatch {
            game: game.clone(),
            bots: vec![slow_id, good_id],
            seed: Some(11),
            ranked: Some(false),
            clock: Some(clock),
            ..CreateMatch::default()
        })
        .await
        .expect("create");
    let record = arena
        .wait_for(&created.id, Duration::from_secs(60))
        .await
        .expect("finish");
    assert_eq!(record.status, MatchStatus::Finished, "{:?}", record.error);
    let view = arena.get_match(&created.id).await.expect("view");
    assert_eq!(view.clock, Some(clock));
    let slow_moves: Vec<_> = view.moves().iter().filter(|m| m.seat == 0).collect();
    assert!(
        slow_moves.len() >= 2,
        "seat 0 moves {} times",
        slow_moves.len()
    );
    // 1000 ms bank, 600 ms per answer: the first answer leaves at most 400 ms (less the
    // network), the second runs out.
    assert!(slow_moves[0].fault.is_none());
    for later in &slow_moves[1..] {
        let fault = later.fault.as_ref().expect("flagged");
        assert_eq!(fault.kind, FaultKind::Flagged, "{}", fault.detail);
    }
    let asked = slow.seen.time_left.lock().expect("lock").clone();
    assert_eq!(
        asked.len(),
        2,
        "the flagged seat is not asked again: {asked:?}"
    );
    assert_eq!(asked[0], 1000);
    assert!(asked[1] > 0 && asked[1] <= 400, "{asked:?}");
    // The other seat's bank was never near empty, and it never faulted.
    assert!(
        view.moves()
            .iter()
            .filter(|m| m.seat == 1)
            .all(|m| m.fault.is_none())
    );
    assert!(
        good.seen
            .time_left
            .lock()
            .expect("lock")
            .iter()
            .all(|left| *left > 0)
    );
    let result = view.result.clone().expect("result");
    assert_eq!(result.flagged, Some(vec![0]));
    assert!(result.disqualified.is_empty());
    assert_eq!(result.faults, [0, 0], "flags are not faults");
    let metrics = arena.metrics().render();
    for line in [
        format!("cardroom_arena_matches_started_total{{game=\"{game}\"}} 1"),
        format!("cardroom_arena_matches_finished_total{{game=\"{game}\",outcome=\"faulted\"}} 1"),
        format!(
            "cardroom_arena_moves_total{{game=\"{game}\"}} {}",
            view.moves().len()
        ),
        format!(
            "cardroom_arena_faults_total{{kind=\"flagged\"}} {}",
            slow_moves.len() - 1
        ),
    ] {
        assert!(
            metrics.lines().any(|l| l == line),
            "{line} missing in\n{metrics}"
        );
    }

    // Ranked matches play the game id's own clock and refuse another.
    arena.register_builtins().await.expect("builtins");
    let ranked = |clock| CreateMatch {
        game: game.clone(),
        bots: vec!["random".into(), "heuristic".into()],
        ranked: Some(true),
        clock,
        ..CreateMatch::default()
    };
    let refused = arena
        .create_match(ranked(Some(clock)))
        .await
        .expect_err("ranked clock override");
    assert_eq!(refused.code, ErrorCode::RankedOverrides);
    let created = arena.create_match(ranked(None)).await.expect("ranked");
    let view = arena.get_match(&created.id).await.expect("view");
    assert_eq!(view.clock, Some(arena::service::ranked_clock(&game)));
    // A bank out of range is refused.
    let mut bad = ranked(Some(Clock {
        initial_ms: 5,
        increment_ms: 0,
    }));
    bad.ranked = Some(false);
    assert_eq!(
        arena.create_match(bad).await.expect_err("tiny bank").code,
        ErrorCode::InvalidRequest
    );
}

#[tokio::test]
async fn a_bot_down_for_two_seconds_keeps_its_place_and_one_down_past_the_window_is_paused() {
    let game = two_player_game();
    let arena = spawn_arena_with("health", |config| {
        config.pause_window = Duration::from_secs(3);
        config.retry_backoff = Duration::from_millis(250);
        config.probe_timeout = Duration::from_millis(500);
    })
    .await;
    // The built-in `random` plays a paused bot's trial match.
    arena.register_builtins().await.expect("built-in bots");
    let bot = spawn_bot(Behavior::Good).await;
    let id = register(&arena, &bot, &game).await;
    let health = || async { arena.store().bot(&id).await.expect("get").expect("bot") };

    // A restart of 2 s: probes fail (retried with back-off), the bot is not paused, and its
    // first probe after the restart clears the streak.
    bot.seen.down.store(true, Ordering::SeqCst);
    let down = Instant::now();
    while down.elapsed() < Duration::from_secs(2) {
        arena::ladder::round(&arena).await.expect("round");
        assert!(!health().await.paused, "paused after {:?}", down.elapsed());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let failed = health().await;
    assert!(
        failed.failures >= 3 && failed.retry_at.is_some(),
        "{failed:?}"
    );
    bot.seen.down.store(false, Ordering::SeqCst);
    let up = Instant::now();
    loop {
        arena::ladder::round(&arena).await.expect("round");
        let record = health().await;
        assert!(!record.paused);
        if record.failures == 0 {
            assert_eq!((record.failing_since, record.retry_at), (None, None));
            break;
        }
        assert!(up.elapsed() < Duration::from_secs(5), "never re-probed");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // Down past the 3 s window: paused, once the failures span the window.
    bot.seen.down.store(true, Ordering::SeqCst);
    let down = Instant::now();
    let paused = loop {
        arena::ladder::round(&arena).await.expect("round");
        let record = health().await;
        if record.paused {
            break record;
        }
        assert!(down.elapsed() < Duration::from_secs(10), "never paused");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(
        down.elapsed() >= Duration::from_secs(3),
        "{:?}",
        down.elapsed()
    );
    assert!(paused.failing_since.is_some() && paused.failures >= 3);
    let view = arena.bot(&id).await.expect("view");
    assert!(view.paused);
    assert_eq!(view.pause_reason, Some(PauseReason::Unreachable));
    // Back up: the next probe (after at most the capped back-off) queues its trial match, whose
    // clean end unpauses it.
    bot.seen.down.store(false, Ordering::SeqCst);
    let up = Instant::now();
    let mut trial = None;
    loop {
        arena::ladder::round(&arena).await.expect("round");
        let record = health().await;
        if !record.paused {
            break;
        }
        trial = trial.or(record.trial_match);
        assert!(up.elapsed() < Duration::from_secs(30), "never unpaused");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let trial = trial.expect("a trial match returned it");
    let played = arena.get_match(&trial).await.expect("trial");
    assert!(!played.ranked && played.seats.iter().any(|s| s.name == "random"));
    assert_eq!(health().await.failures, 0);
}

#[tokio::test]
async fn registrations_and_match_creations_over_the_limit_get_429_with_retry_headers() {
    let game = two_player_game();
    let arena = spawn_arena_with("limits", |config| {
        config.registrations_per_minute = 3;
        config.matches_per_minute = 2;
    })
    .await;
    arena.register_builtins().await.expect("builtins");
    let base = spawn_app(&arena).await;
    let http = reqwest::Client::new();
    let bot = spawn_bot(Behavior::Good).await;
    for i in 0..3 {
        let (status, headers, body) = send(
            http.post(format!("{base}/v1/bots"))
                .json(&json!({"name": format!("burst {i}"), "url": bot.url, "games": [game]})),
        )
        .await;
        assert_eq!(status, 201, "{body}");
        assert!(headers.get("retry-after").is_none());
    }
    let (status, headers, problem) = send(
        http.post(format!("{base}/v1/bots"))
            .json(&json!({"name": "one too many", "url": bot.url, "games": [game]})),
    )
    .await;
    assert_eq!(
        (status, problem["code"].as_str()),
        (429, Some("rate_limited"))
    );
    assert_eq!(headers["content-type"], "application/problem+json");
    let header = |name: &str| -> u64 {
        headers[name]
            .to_str()
            .expect("ascii")
            .parse()
            .unwrap_or_else(|_| panic!("{name} is not a number"))
    };
    // 3 per minute: the next registration is allowed 20 s after the first.
    assert!((1..=20).contains(&header("retry-after")));
    assert_eq!(header("ratelimit-limit"), 3);
    assert_eq!(header("ratelimit-remaining"), 0);
    assert!((1..=60).contains(&header("ratelimit-reset")));
    // The three built-in bots and the three allowed registrations.
    assert_eq!(
        arena
            .list_bots(Default::default())
            .await
            .expect("bots")
            .bots
            .len(),
        6
    );

    let create = json!({"game": game, "bots": ["random", "heuristic"]});
    for _ in 0..2 {
        let (status, _, body) = send(http.post(format!("{base}/v1/matches")).json(&create)).await;
        assert_eq!(status, 202, "{body}");
    }
    let (status, headers, problem) =
        send(http.post(format!("{base}/v1/matches")).json(&create)).await;
    assert_eq!(
        (status, problem["code"].as_str()),
        (429, Some("rate_limited"))
    );
    assert!(headers.contains_key("retry-after") && headers.contains_key("ratelimit-limit"));
    // Reads are not limited.
    let (status, _, _) = send(http.get(format!("{base}/v1/matches"))).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn leaderboard_entries_count_games_wins_draws_losses_and_faults() {
    let game = two_player_game();
    let arena = spawn_arena("board").await;
    let good = spawn_bot(Behavior::Good).await;
    let failing = spawn_bot(Behavior::Error500).await;
    let good_id = register(&arena, &good, &game).await;
    let failing_id = register(&arena, &failing, &game).await;
    let created = arena
        .create_match(CreateMatch {
            game: game.clone(),
            bots: vec![good_id.clone(), failing_id.clone()],
            ranked: Some(true),
            ..CreateMatch::default()
        })
        .await
        .expect("create");
    let record = arena
        .wait_for(&created.id, Duration::from_secs(60))
        .await
        .expect("finish");
    assert_eq!(record.status, MatchStatus::Finished, "{:?}", record.error);
    let board = arena
        .leaderboard(&game, Default::default())
        .await
        .expect("board");
    let entry = |id: &str| {
        board
            .entries
            .iter()
            .find(|e| e.bot.as_deref() == Some(id))
            .cloned()
            .expect("on the board")
    };
    let result = record.result.expect("result");
    let first = &result.ranking[0];
    for (seat, id) in [&good_id, &failing_id].into_iter().enumerate() {
        let row = entry(id);
        let expected = match (first.contains(&seat), first.len()) {
            (true, 1) => (1, 0, 0),
            (true, _) => (0, 1, 0),
            (false, _) => (0, 0, 1),
        };
        assert_eq!((row.games, row.played), (1, 1));
        assert_eq!(
            (row.wins, row.draws, row.losses),
            expected,
            "seat {seat}: {result:?}"
        );
        assert_eq!(row.faults, u64::from(result.faults[seat]));
    }
    // The failing bot faulted on every move it was asked (and is disqualified after 3).
    assert!(entry(&failing_id).faults >= 1);
    assert_eq!(entry(&good_id).faults, 0);
    let json = serde_json::to_value(&board).expect("json");
    assert_rfc3339(&json["entries"][0]["last_played_at"]);
}
