//! `cardroom play`: one local match against a bot URL and a built-in bot, printed move by move.

use crate::support::{Behavior, spawn_bot, two_player_game};
use arena::PlayArgs;
use std::sync::atomic::Ordering;

#[tokio::test]
async fn play_prints_a_move_log_and_the_result() {
    let game = two_player_game();
    let bot = spawn_bot(Behavior::Illegal).await;
    let args = PlayArgs {
        game: game.clone(),
        bots: vec![bot.url.clone(), "heuristic".into()],
        bot_secrets: Vec::new(),
        seed: Some(9),
        options: None,
        deadline_ms: 500,
        public: false,
        listen: "127.0.0.1:0".into(),
        connect_wait: 0,
    };
    let mut out = Vec::new();
    let result = arena::play(&args, &mut out).await.expect("play");
    let text = String::from_utf8(out).expect("utf8");
    assert!(text.starts_with(&format!("{game} · seed 9")), "{text}");
    assert!(text.contains("seat 1: heuristic (built-in)"), "{text}");
    assert!(text.contains("seat 0: fake 0.0.1 by tests"), "{text}");
    assert!(
        text.contains("   1  seat "),
        "moves are counted from 1: {text}"
    );
    assert!(text.contains("result after "), "{text}");
    assert!(text.contains("FAULT illegal_action"), "{text}");
    assert_eq!(result["disqualified"], serde_json::json!([0]));
    // The same seed plays the same match.
    let mut again = Vec::new();
    arena::play(&args, &mut again).await.expect("play");
    // Latencies and the match id differ between runs; everything else is the same.
    let strip = |t: &str| {
        t.lines()
            .filter(|l| !l.contains("match m_"))
            .map(|l| {
                l.split("  ")
                    .filter(|part| !part.ends_with(" ms"))
                    .collect::<Vec<_>>()
                    .join("  ")
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        strip(&text),
        strip(&String::from_utf8(again).expect("utf8"))
    );
}

#[tokio::test]
async fn play_refuses_an_unknown_game() {
    let args = PlayArgs {
        game: "no_such_game".into(),
        bots: vec!["random".into(), "random".into()],
        bot_secrets: Vec::new(),
        seed: Some(1),
        options: None,
        deadline_ms: 500,
        public: false,
        listen: "127.0.0.1:0".into(),
        connect_wait: 0,
    };
    let mut out = Vec::new();
    let error = arena::play(&args, &mut out)
        .await
        .expect_err("unknown game");
    assert!(error.to_string().contains("no_such_game"));
}

#[tokio::test]
async fn play_signs_with_the_secret_the_bot_was_started_with() {
    let bot = spawn_bot(Behavior::Good).await;
    *bot.seen.secret.lock().expect("lock") = "started-with-this".into();
    let args = PlayArgs {
        game: "twenty_two".into(),
        bots: vec![bot.url.clone(), "random".into()],
        bot_secrets: vec!["started-with-this".into()],
        seed: Some(4),
        options: None,
        deadline_ms: 2000,
        public: false,
        listen: "127.0.0.1:0".into(),
        connect_wait: 0,
    };
    let mut out = Vec::new();
    let result = arena::play(&args, &mut out).await.expect("play");
    let text = String::from_utf8(out).expect("utf8");
    assert!(
        bot.seen.requests.load(Ordering::SeqCst) > 1,
        "the bot was asked: {text}"
    );
    assert_eq!(bot.seen.bad_signatures.load(Ordering::SeqCst), 0, "{text}");
    assert_eq!(result["faults"], serde_json::json!([0, 0]), "{text}");
    assert!(text.contains("signed with the given secret"), "{text}");
}

#[tokio::test]
async fn play_without_the_secret_signs_with_one_the_bot_cannot_know() {
    let bot = spawn_bot(Behavior::Good).await;
    *bot.seen.secret.lock().expect("lock") = "started-with-this".into();
    let args = PlayArgs {
        game: "twenty_two".into(),
        bots: vec![bot.url.clone(), "random".into()],
        bot_secrets: Vec::new(),
        seed: Some(4),
        options: None,
        deadline_ms: 2000,
        public: false,
        listen: "127.0.0.1:0".into(),
        connect_wait: 0,
    };
    arena::play(&args, &mut Vec::new()).await.expect("play");
    assert!(bot.seen.bad_signatures.load(Ordering::SeqCst) > 0);
}

#[tokio::test]
async fn play_takes_one_secret_for_all_bot_urls_or_one_per_url() {
    let mut args = PlayArgs {
        game: "twenty_two".into(),
        bots: vec![
            "http://127.0.0.1:9".into(),
            "heuristic".into(),
            "http://127.0.0.1:9".into(),
        ],
        bot_secrets: vec!["a".into(), "b".into(), "c".into()],
        seed: Some(1),
        options: None,
        deadline_ms: 500,
        public: false,
        listen: "127.0.0.1:0".into(),
        connect_wait: 0,
    };
    let error = arena::play(&args, &mut Vec::new())
        .await
        .expect_err("three secrets for two URLs");
    assert!(
        error
            .to_string()
            .contains("3 --bot-secret values for 2 bot URLs"),
        "{error}"
    );
    args.bot_secrets = vec![String::new()];
    let error = arena::play(&args, &mut Vec::new())
        .await
        .expect_err("an empty secret");
    assert!(error.to_string().contains("must not be empty"), "{error}");
}
