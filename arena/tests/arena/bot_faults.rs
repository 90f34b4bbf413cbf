//! Matches against misbehaving bots: each fault is recorded with its kind, the seat's first legal
//! action is played instead, a bot with 3 faults is disqualified and ranked last, and the match
//! still finishes.

use crate::support::{Behavior, register, spawn_arena, spawn_bot, two_player_game};
use arena::client::FaultKind;
use arena::dto::CreateMatch;
use arena::store::MatchStatus;
use serde_json::Value;
use std::sync::atomic::Ordering;
use std::time::Duration;

async fn play_against(behavior: Behavior, expected: FaultKind) {
    let game = two_player_game();
    let arena = spawn_arena("faults").await;
    let good = spawn_bot(Behavior::Good).await;
    let bad = spawn_bot(behavior).await;
    let good_id = register(&arena, &good, &game).await;
    let bad_id = register(&arena, &bad, &game).await;
    let created = arena
        .create_match(CreateMatch {
            game: game.clone(),
            bots: vec![bad_id, good_id],
            ranked: Some(true),
            // Room for the good bot on a loaded machine (it faulted once at 150 ms under CI-like
            // load); the slow bot's 600 ms is still well past it.
            deadline_ms: Some(400),
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
    let bad_moves: Vec<_> = view.moves().iter().filter(|m| m.seat == 0).collect();
    assert!(!bad_moves.is_empty());
    for (i, m) in bad_moves.iter().enumerate() {
        let fault = m
            .fault
            .as_ref()
            .expect("every move of the bad bot is a fault");
        let kind = if i < 3 {
            expected
        } else {
            FaultKind::Disqualified
        };
        assert_eq!(fault.kind, kind, "move {i}: {}", fault.detail);
        assert!(!fault.detail.is_empty());
    }
    assert!(
        view.moves()
            .iter()
            .filter(|m| m.seat == 1)
            .all(|m| m.fault.is_none())
    );
    let result = view.result.clone().expect("result");
    if bad_moves.len() >= 3 {
        assert_eq!(result.disqualified, [0]);
        assert_eq!(result.ranking.last(), Some(&vec![0]));
    }
    assert_eq!(result.faults[0], bad_moves.len().min(3) as u32);
    // The well-behaved bot verified every signature and got both notices.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(good.seen.bad_signatures.load(Ordering::SeqCst), 0);
    assert_eq!(bad.seen.bad_signatures.load(Ordering::SeqCst), 0);
    assert_eq!(good.seen.starts.load(Ordering::SeqCst), 1);
    assert_eq!(good.seen.ends.load(Ordering::SeqCst), 1);
    // The replay input replays to the same end.
    let engine_game = engine::registry::find(&game).expect("game");
    let replay_input = view
        .replay_request()
        .expect("a finished match publishes its replay");
    // The drawn seed is JSON-safe, so the replay input survives jq and JavaScript.
    assert!(
        replay_input.seed <= engine::rng::MAX_SEED,
        "seed {} is above 2^53 - 1",
        replay_input.seed
    );
    let actions: Vec<(usize, Value)> = replay_input
        .actions
        .iter()
        .flatten()
        .map(|a| (a.seat, a.action.clone()))
        .collect();
    let replay = engine_game
        .replay(
            &engine::NewGame {
                players: 2,
                options: Default::default(),
                seed: replay_input.seed,
                deals: vec![],
            },
            &actions,
        )
        .expect("replay");
    assert!(replay.refused.is_none());
    assert!(replay.game.is_over());
}

#[tokio::test]
async fn a_slow_bot_times_out_and_is_disqualified() {
    play_against(Behavior::Slow(600), FaultKind::Timeout).await;
}

#[tokio::test]
async fn a_bot_answering_garbage_is_a_bad_json_fault() {
    play_against(Behavior::Garbage, FaultKind::BadJson).await;
}

#[tokio::test]
async fn a_bot_playing_illegal_actions_is_an_illegal_action_fault() {
    play_against(Behavior::Illegal, FaultKind::IllegalAction).await;
}

#[tokio::test]
async fn a_bot_closing_the_connection_is_a_transport_fault() {
    play_against(Behavior::Close, FaultKind::Transport).await;
}

#[tokio::test]
async fn a_bot_answering_500_is_a_bad_status_fault() {
    play_against(Behavior::Error500, FaultKind::BadStatus).await;
}

#[tokio::test]
async fn an_oversized_answer_is_cut_off_as_bad_json() {
    play_against(Behavior::Huge, FaultKind::BadJson).await;
}

#[tokio::test]
async fn redirects_are_not_followed() {
    play_against(Behavior::Redirect, FaultKind::BadStatus).await;
}

#[tokio::test]
async fn well_behaved_bots_play_a_clean_ranked_match_that_moves_ratings() {
    let game = two_player_game();
    let arena = spawn_arena("clean").await;
    let a = spawn_bot(Behavior::Good).await;
    let b = spawn_bot(Behavior::Good).await;
    let a_id = register(&arena, &a, &game).await;
    let b_id = register(&arena, &b, &game).await;
    let created = arena
        .create_match(CreateMatch {
            game: game.clone(),
            bots: vec![a_id.clone(), b_id.clone()],
            ranked: Some(true),
            ..CreateMatch::default()
        })
        .await
        .expect("create");
    let record = arena
        .wait_for(&created.id, Duration::from_secs(60))
        .await
        .expect("finish");
    assert_eq!(record.status, MatchStatus::Finished);
    let view = arena.get_match(&created.id).await.expect("view");
    assert!(
        view.moves()
            .iter()
            .all(|m| m.fault.is_none() && m.comment.as_deref() == Some("first legal"))
    );
    let board = arena
        .leaderboard(&game, Default::default())
        .await
        .expect("board");
    assert_eq!(board.entries.len(), 2);
    assert!(
        board
            .entries
            .iter()
            .all(|e| e.played == 1 && e.last_match.as_deref() == Some(created.id.as_str()))
    );
    assert_eq!(
        arena
            .store()
            .rating_history_count(&created.id)
            .await
            .expect("count"),
        2
    );
}
