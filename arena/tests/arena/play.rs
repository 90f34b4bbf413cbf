//! `cardroom play`: one local match against a bot URL and a built-in bot, printed move by move.

use crate::support::{Behavior, spawn_bot, two_player_game};
use arena::PlayArgs;

#[tokio::test]
async fn play_prints_a_move_log_and_the_result() {
    let Some(game) = two_player_game() else {
        return;
    };
    let bot = spawn_bot(Behavior::Illegal).await;
    let args = PlayArgs {
        game: game.clone(),
        bots: vec![bot.url.clone(), "heuristic".into()],
        seed: Some(9),
        options: None,
        deadline_ms: 500,
        public: false,
    };
    let mut out = Vec::new();
    let result = arena::play(&args, &mut out).await.expect("play");
    let text = String::from_utf8(out).expect("utf8");
    assert!(text.starts_with(&format!("{game} · seed 9")), "{text}");
    assert!(text.contains("seat 1: heuristic (built-in)"), "{text}");
    assert!(text.contains("FAULT illegal_action"), "{text}");
    assert!(text.contains("result:"), "{text}");
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
        seed: Some(1),
        options: None,
        deadline_ms: 500,
        public: false,
    };
    let mut out = Vec::new();
    let error = arena::play(&args, &mut out)
        .await
        .expect_err("unknown game");
    assert!(error.to_string().contains("no_such_game"));
}
