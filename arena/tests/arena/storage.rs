//! An arena that runs for months: the ladder keeps its pace and goes quiet once the built-in bots
//! settle, moves are stored as actions and replayed to their events, old unranked moves are
//! pruned while results stay, the write-ahead log is truncated, and a database can be filled
//! with synthetic history through the store.

use crate::support::{Behavior, register, spawn_app, spawn_arena_with, spawn_bot, two_player_game};
use arena::dto::CreateMatch;
use arena::store::{MatchFilter, MoveRecord, Retention, now_ms};
use arena::{Arena, ArenaConfig};
use serde_json::Value;
use std::sync::Mutex;
use std::time::Duration;

fn builtin_match(game: &str, ranked: bool) -> CreateMatch {
    CreateMatch {
        game: game.to_string(),
        bots: vec!["random".into(), "heuristic".into()],
        // Ranked matches draw a secret seed.
        seed: (!ranked).then_some(7),
        ranked: Some(ranked),
        ..CreateMatch::default()
    }
}

async fn finished(arena: &Arena, id: &str) {
    arena
        .wait_for(id, Duration::from_secs(300))
        .await
        .expect("the match ends");
}

/// An arena with the built-in bots, for `game`, that has played one match between them (ranked
/// or not) for each flag in `ranked`; returns the arena and the matches' ids.
async fn arena_with_played(
    name: &str,
    game: &str,
    ranked: &[bool],
) -> (crate::support::TestArena, Vec<String>) {
    let arena = spawn_arena_with(name, |_| {}).await;
    arena.register_builtins().await.expect("builtins");
    let mut ids = Vec::new();
    for ranked in ranked {
        let id = arena
            .create_match(builtin_match(game, *ranked))
            .await
            .expect("create")
            .id;
        ids.push(id);
    }
    for id in &ids {
        finished(&arena, id).await;
    }
    (arena, ids)
}

#[tokio::test]
async fn the_ladder_keeps_each_games_pace_even_when_its_matches_finish_at_once() {
    let arena = spawn_arena_with("pace", |config| config.ladder_matches_per_minute = 1).await;
    arena.register_builtins().await.expect("builtins");
    let first = arena::ladder::round(&arena).await.expect("round");
    assert!(!first.is_empty(), "every game id the built-in bots play");
    for id in &first {
        finished(&arena, id).await;
    }
    // Every match is over, so only the pace (one a minute per game id) holds the next ones back.
    let second = arena::ladder::round(&arena).await.expect("round");
    assert_eq!(second, Vec::<String>::new());
}

#[tokio::test]
async fn settled_built_in_bots_stop_and_a_settled_registered_bot_plays_at_the_settled_pace() {
    let game = two_player_game();
    // A threshold above a new rating's sigma (8.33): every bot counts as settled.
    let arena = spawn_arena_with("settled", |config| {
        config.ladder_settled_sigma = 9.0;
        config.ladder_settled_matches_per_hour = 1;
    })
    .await;
    arena.register_builtins().await.expect("builtins");
    assert_eq!(
        arena::ladder::round(&arena).await.expect("round"),
        Vec::<String>::new(),
        "settled built-in bots are not matched against each other"
    );
    let bot = spawn_bot(Behavior::Good).await;
    let id = register(&arena, &bot, &game).await;
    let scheduled = arena::ladder::round(&arena).await.expect("round");
    assert_eq!(scheduled.len(), 1, "only the game the registered bot plays");
    let record = arena
        .store()
        .get_match(&scheduled[0])
        .await
        .expect("get")
        .expect("match");
    assert_eq!(record.game, game);
    assert!(record.ranked && record.ladder && record.bots.contains(&id));
    // A settled registered bot plays at the settled pace (one an hour here), not as fast as its
    // matches finish.
    finished(&arena, &scheduled[0]).await;
    assert_eq!(
        arena::ladder::round(&arena).await.expect("round"),
        Vec::<String>::new()
    );
}

#[tokio::test]
async fn a_stored_match_replays_to_the_events_its_bots_were_sent() {
    let game = two_player_game();
    // No workers: this test plays the match itself and sees each move as it is played.
    let mut config = ArenaConfig::local("sqlite::memory:");
    config.role = arena::Role::Api;
    let arena = Arena::open(config).await.expect("open");
    arena.register_builtins().await.expect("builtins");
    let id = arena
        .create_match(builtin_match(&game, false))
        .await
        .expect("create")
        .id;
    let played: Mutex<Vec<MoveRecord>> = Mutex::new(Vec::new());
    let record = |m: &MoveRecord| played.lock().expect("lock").push(m.clone());
    arena.runner().run(&id, Some(&record)).await.expect("run");
    let played = played.into_inner().expect("lock");
    assert!(!played.is_empty());

    // The store keeps actions only ...
    let stored = arena.store().moves(&id).await.expect("moves");
    assert_eq!(stored.len(), played.len());
    assert!(stored.iter().all(|m| m.events.is_empty()));
    // ... and the match page gives back, by replay, exactly the events played.
    let view = arena.get_match(&id).await.expect("view");
    let live: Vec<Value> = played.iter().flat_map(|m| m.events.clone()).collect();
    assert!(!live.is_empty());
    assert_eq!(view.events(), live);
}

#[tokio::test]
async fn old_unranked_moves_are_pruned_the_result_stays_and_frames_say_gone() {
    let game = two_player_game();
    let (arena, ids) = arena_with_played("prune", &game, &[false, true]).await;
    let (unranked, ranked) = (ids[0].clone(), ids[1].clone());
    let moves_before = arena.store().moves(&ranked).await.expect("moves").len();

    // Nothing has ended before a cut-off an hour ago.
    let pruned = arena
        .store()
        .prune_moves(Retention::Unranked, now_ms() - 3_600_000, 100)
        .await
        .expect("prune");
    assert_eq!(pruned.matches, 0);
    // Every match ended before now + 1 s: only the unranked one loses its moves.
    let pruned = arena
        .store()
        .prune_moves(Retention::Unranked, now_ms() + 1000, 100)
        .await
        .expect("prune");
    assert_eq!(pruned.matches, 1);
    assert!(pruned.moves > 0);

    let view = arena.get_match(&unranked).await.expect("view");
    assert!(view.moves_pruned && view.moves().is_empty() && view.events().is_empty());
    assert!(
        view.replay_request().is_none(),
        "no replay without the moves"
    );
    assert!(view.result.is_some(), "the result stays");
    let kept = arena.get_match(&ranked).await.expect("view");
    assert!(!kept.moves_pruned && kept.replay_request().is_some());
    assert_eq!(kept.moves().len(), moves_before);
    // Pruned once: a second pass finds nothing.
    let again = arena
        .store()
        .prune_moves(Retention::Unranked, now_ms() + 1000, 100)
        .await
        .expect("prune");
    assert_eq!(again.matches, 0);

    let base = spawn_app(&arena).await;
    let client = reqwest::Client::new();
    let gone = client
        .get(format!("{base}/v1/matches/{unranked}/frames"))
        .send()
        .await
        .expect("frames");
    assert_eq!(gone.status(), 410);
    let problem: Value = gone.json().await.expect("problem");
    assert_eq!(problem["code"], "moves_pruned");
    let page: Value = client
        .get(format!("{base}/v1/matches/{unranked}"))
        .send()
        .await
        .expect("match")
        .json()
        .await
        .expect("json");
    assert_eq!(page["moves_pruned"], true);
    assert!(page["result"]["ranking"].is_array());
}

#[tokio::test]
async fn the_write_ahead_log_is_checkpointed_and_truncated() {
    let (arena, _) = arena_with_played("wal", &two_player_game(), &[false]).await;
    let before = arena.store().size().await.expect("size");
    assert!(before.wal > 0, "the match was written to the log");
    let checkpoint = arena.store().checkpoint().await.expect("checkpoint");
    assert!(!checkpoint.busy);
    let after = arena.store().size().await.expect("size");
    assert_eq!(after.wal, 0, "truncated");
    assert!(after.database > 0);
}

#[tokio::test]
async fn a_filled_database_holds_real_games_that_replay() {
    let arena = spawn_arena_with("fill", |_| {}).await;
    arena.register_builtins().await.expect("builtins");
    let report = arena::synthetic::fill(
        arena.store().as_ref(),
        &arena::synthetic::FillSpec {
            matches: 300,
            moves: 0,
            bots: 3,
            seed: 5,
        },
    )
    .await
    .expect("fill");
    assert_eq!(report.matches, 300);
    assert!(report.moves > 300);
    let listed = arena
        .store()
        .matches(&MatchFilter {
            limit: 500,
            ..MatchFilter::default()
        })
        .await
        .expect("list");
    assert_eq!(listed.len(), 300);
    // Newest first, and a bot's own list comes from its seats.
    assert!(
        listed
            .windows(2)
            .all(|w| w[0].created_at >= w[1].created_at)
    );
    let bot = listed[0].bots[0].clone();
    let mine = arena
        .store()
        .matches(&MatchFilter {
            bot: Some(bot.clone()),
            limit: 20,
            ..MatchFilter::default()
        })
        .await
        .expect("bot's matches");
    assert!(!mine.is_empty() && mine.len() <= 20);
    assert!(mine.iter().all(|m| m.bots.contains(&bot)));
    assert!(mine.windows(2).all(|w| w[0].created_at >= w[1].created_at));
    let view = arena.get_match(&listed[0].id).await.expect("view");
    assert!(
        !view.events().is_empty(),
        "the moves replay to their events"
    );
    assert!(view.replay_request().is_some());
}

#[tokio::test]
async fn built_in_bots_play_each_other_only_to_seed_a_game_then_only_with_a_registered_bot() {
    let game = two_player_game();
    let arena = spawn_arena_with("seeded", |config| config.ladder_builtin_matches = 1).await;
    arena.register_builtins().await.expect("builtins");
    // Each game id's seeding match: built-in bots alone.
    let seeding = arena::ladder::round(&arena).await.expect("round");
    assert!(!seeding.is_empty(), "every game id the built-in bots play");
    for id in &seeding {
        finished(&arena, id).await;
    }
    // Seeded: no more matches between built-in bots, however unsettled their ratings.
    assert_eq!(
        arena::ladder::round(&arena).await.expect("round"),
        Vec::<String>::new()
    );
    let bot = spawn_bot(Behavior::Good).await;
    let id = register(&arena, &bot, &game).await;
    let scheduled = arena::ladder::round(&arena).await.expect("round");
    assert_eq!(scheduled.len(), 1, "only the game the registered bot plays");
    let record = arena
        .store()
        .get_match(&scheduled[0])
        .await
        .expect("get")
        .expect("match");
    assert!(record.ranked && record.ladder && record.bots.contains(&id));
    finished(&arena, &scheduled[0]).await;
    // Its next match seats it again (it is the one bot the game still needs).
    let next = arena::ladder::round(&arena).await.expect("round");
    let record = arena
        .store()
        .get_match(&next[0])
        .await
        .expect("get")
        .expect("match");
    assert!(record.bots.contains(&id), "{:?}", record.bots);
}

#[tokio::test]
async fn ranked_moves_between_built_in_bots_are_pruned_after_their_own_retention() {
    let game = two_player_game();
    let (arena, ids) = arena_with_played("builtin-prune", &game, &[true]).await;
    let builtin = ids[0].clone();
    let bot = spawn_bot(Behavior::Good).await;
    let registered = register(&arena, &bot, &game).await;
    let with_registered = arena
        .create_match(CreateMatch {
            game: game.clone(),
            bots: vec![registered, "random".into()],
            ranked: Some(true),
            ..CreateMatch::default()
        })
        .await
        .expect("create")
        .id;
    finished(&arena, &with_registered).await;
    let ratings_before = arena.store().leaderboard(&game, 2).await.expect("ratings");

    // The unranked rule leaves ranked matches alone.
    let unranked = arena
        .store()
        .prune_moves(Retention::Unranked, now_ms() + 1000, 100)
        .await
        .expect("prune");
    assert_eq!(unranked.matches, 0);
    let pruned = arena
        .store()
        .prune_moves(Retention::Builtin, now_ms() + 1000, 100)
        .await
        .expect("prune");
    assert_eq!(pruned.matches, 1, "only the match between built-in bots");
    assert!(pruned.moves > 0);
    let view = arena.get_match(&builtin).await.expect("view");
    assert!(view.moves_pruned && view.moves().is_empty());
    assert!(view.result.is_some(), "the result stays");
    let kept = arena.get_match(&with_registered).await.expect("view");
    assert!(!kept.moves_pruned && !kept.moves().is_empty());
    assert_eq!(
        arena.store().leaderboard(&game, 2).await.expect("ratings"),
        ratings_before,
        "ratings stay"
    );
}

#[tokio::test]
async fn a_used_database_whose_seal_key_is_missing_or_other_is_refused_unless_told() {
    use arena::seal::SealKey;
    use arena::store::SqlStore;
    let dir = crate::support::temp_dir("seal-check");
    let database = dir.path().join("arena.db").to_string_lossy().to_string();
    let key_file = SealKey::beside(std::path::Path::new(&database));
    let store = SqlStore::open(&database).await.expect("open");
    let key = store.own_seal_key(false).await.expect("made beside");
    store.check_seal_key(&key, false).await.expect("recorded");
    drop(store);

    // Restored without its key file: refused, saying why, and no key is made.
    std::fs::remove_file(&key_file).expect("remove the key");
    let store = SqlStore::open(&database).await.expect("open");
    let refused = store.own_seal_key(false).await.expect_err("refused");
    let message = format!("{refused:#}");
    assert!(
        message.contains("seal key") && message.contains("--new-seal-key"),
        "{message}"
    );
    assert!(!key_file.exists(), "no key made");
    // `--new-seal-key`: a new key, which the database takes once told.
    let new = store.own_seal_key(true).await.expect("made, as told");
    assert_ne!(new, key);
    let refused = store
        .check_seal_key(&new, false)
        .await
        .expect_err("refused");
    assert!(
        format!("{refused:#}").contains("not the one"),
        "{refused:#}"
    );
    store
        .check_seal_key(&new, true)
        .await
        .expect("replaced, as told");
    store
        .check_seal_key(&new, false)
        .await
        .expect("now the database's");
    // The old key is now the other one.
    assert!(store.check_seal_key(&key, false).await.is_err());
}
