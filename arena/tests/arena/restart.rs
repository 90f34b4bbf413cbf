//! Kill the arena in the middle of a ranked match, reopen it on the same database: the match is
//! resumed from its logged moves, finishes exactly once, and its ratings are applied once; a bot
//! in delta mode gets the whole history on the resumed run's first request.

use crate::history::{assert_whole, rebuilt_histories};
use crate::support::{
    Behavior, register, register_with_history, spawn_bot, temp_dir, two_player_game,
};
use arena::dto::CreateMatch;
use arena::runner::Outcome;
use arena::store::{Finish, MatchStatus, Store};
use arena::{Arena, ArenaConfig};
use std::time::Duration;

#[test]
fn a_match_interrupted_by_a_crash_finishes_exactly_once_after_restart() {
    let game = two_player_game();
    // Held to the end: both arena "processes" open this one file.
    let dir = temp_dir("restart");
    let db = dir.path().join("arena.db").to_string_lossy().to_string();
    // The bots outlive both arena "processes".
    let bots_runtime = tokio::runtime::Runtime::new().expect("runtime");
    let (a, b) = bots_runtime.block_on(async {
        (
            spawn_bot(Behavior::Slow(40)).await,
            spawn_bot(Behavior::Slow(40)).await,
        )
    });

    let first = tokio::runtime::Runtime::new().expect("runtime");
    let (match_id, moves_before) = first.block_on(async {
        let arena = Arena::open(ArenaConfig::local(db.clone()))
            .await
            .expect("open");
        let a_id = register_with_history(&arena, &a, &game, arena::wire::HistoryMode::Delta).await;
        let b_id = register(&arena, &b, &game).await;
        let created = arena
            .create_match(CreateMatch {
                game: game.clone(),
                bots: vec![a_id, b_id],
                ranked: Some(true),
                deadline_ms: Some(2000),
                ..CreateMatch::default()
            })
            .await
            .expect("create");
        loop {
            let moves = arena.store().moves(&created.id).await.expect("moves").len();
            let status = arena
                .store()
                .get_match(&created.id)
                .await
                .expect("get")
                .map(|m| m.status);
            // After the delta bot's first requests, so the resumed run's first one is a restart.
            let asked = a.seen.move_requests.lock().expect("lock").len();
            if (moves >= 3 && asked >= 2) || status == Some(MatchStatus::Finished) {
                return (created.id, moves);
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    });
    // The crash: every task of the first arena stops where it is.
    first.shutdown_background();

    let second = tokio::runtime::Runtime::new().expect("runtime");
    second.block_on(async {
        // What the crash left behind: a running match with some logged moves.
        // The crashed runtime's tasks (and with them its hold on the SQLite process lock) are
        // dropped by its worker threads as they stop: wait for that, as a restarted process
        // would find the lock of a dead one released.
        let mut attempts = 0;
        let left = loop {
            match arena::store::SqlStore::open(&db).await {
                Ok(store) => break store,
                Err(error) if attempts < 200 => {
                    attempts += 1;
                    assert!(format!("{error:#}").contains("in use"), "{error:#}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                Err(error) => panic!("the lock of the crashed arena was never released: {error:#}"),
            }
        };
        let record = left
            .get_match(&match_id)
            .await
            .expect("get")
            .expect("match");
        assert_eq!(record.status, MatchStatus::Running);
        let moves_at_crash = left.moves(&match_id).await.expect("moves").len();
        assert!(moves_at_crash >= moves_before);
        drop(left);
        let arena = Arena::open(ArenaConfig::local(db.clone()))
            .await
            .expect("reopen");
        let record = arena
            .wait_for(&match_id, Duration::from_secs(60))
            .await
            .expect("finish");
        assert_eq!(record.status, MatchStatus::Finished, "{:?}", record.error);
        let moves = arena.store().moves(&match_id).await.expect("moves");
        assert!(
            moves.len() > moves_at_crash,
            "the second process played the rest of the match"
        );
        assert!(
            moves.iter().enumerate().all(|(i, m)| m.index == i),
            "moves are logged once each, in order"
        );
        assert_eq!(
            arena
                .store()
                .rating_history_count(&match_id)
                .await
                .expect("count"),
            2
        );
        // The delta bot rebuilds the whole history across the restart: the resumed run's first
        // request started again from 0, with every move logged before the crash.
        let requests = a.seen.move_requests.lock().expect("lock").clone();
        let restarts: Vec<usize> = requests
            .iter()
            .enumerate()
            .filter(|(_, r)| r["history_from"] == 0)
            .map(|(i, _)| i)
            .collect();
        assert_eq!(restarts[0], 0);
        // (A request the bot left unanswered under load is sent again from 0 as well: the
        // resumed run's is the one carrying every move logged before the crash.)
        assert!(
            restarts.iter().skip(1).any(|&i| {
                requests[i]["history"].as_array().expect("history").len() >= moves_at_crash
            }),
            "a request of the resumed run starts from 0 with the {moves_at_crash} moves logged before the crash"
        );
        let rebuilt = rebuilt_histories(&requests);
        rebuilt.iter().for_each(|history| assert_whole(history));
        let board = arena.leaderboard(&game, Default::default()).await.expect("board");
        assert!(board.entries.iter().all(|e| e.played == 1));
        // Running it again, or finishing it again, changes nothing.
        assert_eq!(
            arena.runner().run(&match_id, None).await.expect("run"),
            Outcome::AlreadyOver
        );
        let again = arena
            .store()
            .finish_match(
                &match_id,
                "w_any",
                &Finish {
                    result: arena::result::MatchResult::default(),
                    sides: Some(vec![]),
                    faults: Vec::new(),
                    forfeited: Vec::new(),
                },
            )
            .await
            .expect("finish");
        assert!(!again);
        assert_eq!(
            arena
                .store()
                .rating_history_count(&match_id)
                .await
                .expect("count"),
            2
        );
    });
    second.shutdown_background();
    bots_runtime.shutdown_background();
}
