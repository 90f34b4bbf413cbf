//! The store contract, run against SQLite in a temporary directory and, when `DATABASE_URL`
//! names a PostgreSQL database (as `.ci/run` provides), against PostgreSQL too.

use crate::support::{Behavior, register, spawn_bot, temp_dir, two_player_game};
use arena::client::{Fault, FaultKind};
use arena::dto::CreateMatch;
use arena::result::MatchResult;
use arena::store::{
    AbortReason, BotHealth, BotRecord, Finish, MatchFilter, MatchRecord, MatchStatus, MoveRecord,
    PauseReason, SqlStore, Store, Transport, WriterStopped, now_ms,
};
use arena::{Arena, ArenaConfig};
use serde_json::json;
use std::time::Duration;

use crate::support::fresh_postgres;

/// Seat 0's move number `index`, of action type `kind`, without fault, comment or events.
fn plain_move(index: usize, kind: &str) -> MoveRecord {
    MoveRecord {
        index,
        seat: 0,
        action: json!({ "type": kind }),
        latency_ms: 1,
        fault: None,
        comment: None,
        events: vec![],
    }
}

fn bot(id: &str) -> BotRecord {
    BotRecord {
        id: id.into(),
        name: format!("n{id}"),
        url: "http://example.com".into(),
        games: vec!["g".into()],
        author: "a".into(),
        version: "1".into(),
        token_hash: "h".into(),
        signing_secret: "s".into(),
        previous_secret: None,
        builtin: false,
        transport: Transport::Url,
        paused: false,
        failures: 0,
        failing_since: None,
        retry_at: None,
        pause_reason: None,
        trial_match: None,
        created_at: now_ms(),
        history: Default::default(),
        open_to_challenges: false,
    }
}

async fn contract(store: &dyn Store) {
    let suffix = arena::client::hex(&rand::random::<[u8; 6]>());
    let (a, b) = (format!("b_a{suffix}"), format!("b_b{suffix}"));
    assert!(store.insert_bot(&bot(&a)).await.expect("insert"));
    assert!(store.insert_bot(&bot(&b)).await.expect("insert"));
    // Names are unique among live bots: a second bot of that name is not stored, and renaming
    // a bot to a taken name changes nothing.
    let mut twin = bot(&format!("b_c{suffix}"));
    twin.name = format!("n{a}");
    assert!(!store.insert_bot(&twin).await.expect("insert twin"));
    assert!(store.bot(&twin.id).await.expect("get").is_none());
    assert_eq!(
        store
            .bot_named(&format!("n{a}"))
            .await
            .expect("named")
            .map(|b| b.id),
        Some(a.clone())
    );
    let mut clash = store.bot(&b).await.expect("get").expect("bot");
    clash.name = format!("n{a}");
    assert!(
        !store
            .update_bot(&clash)
            .await
            .expect("rename to a taken name")
    );
    assert_eq!(
        store.bot(&b).await.expect("get").expect("bot").name,
        format!("n{b}")
    );
    let mut changed = store.bot(&a).await.expect("get").expect("bot");
    assert_eq!(changed, bot(&a).clone_with_time(changed.created_at));
    changed.name = "renamed".into();
    assert!(store.update_bot(&changed).await.expect("update"));
    assert_eq!(
        store.bot(&a).await.expect("get").expect("bot").name,
        "renamed"
    );
    let health = BotHealth {
        paused: true,
        failures: 3,
        failing_since: Some(1_000),
        retry_at: Some(31_000),
        pause_reason: Some(PauseReason::Unreachable),
        trial_match: Some("m_trial".into()),
    };
    store.set_bot_health(&a, &health).await.expect("health");
    let paused = store.bot(&a).await.expect("get").expect("bot");
    assert_eq!(paused.health(), health);

    let game = format!("g{suffix}");
    let record = MatchRecord {
        id: format!("m_{suffix}"),
        seq: 0,
        moves_pruned: false,
        game: game.clone(),
        bots: vec![b.clone(), a.clone()],
        options: json!({"x": 1}),
        seed: u64::MAX - 5,
        seed_salt: Some("ab".repeat(32)),
        deals: vec![vec!["AS".into()]],
        ranked: true,
        ladder: false,
        deadline_ms: 100,
        max_faults: 3,
        clock: Some(arena::wire::Clock {
            initial_ms: 5000,
            increment_ms: 50,
        }),
        pace_ms: 750,
        status: MatchStatus::Queued,
        result: None,
        error: None,
        abort_reason: None,
        created_at: now_ms(),
        started_at: None,
        finished_at: None,
        creator: Some(arena::store::Creator::owner(&a)),
    };
    store.insert_match(&record).await.expect("insert match");
    let stored = store
        .get_match(&record.id)
        .await
        .expect("get")
        .expect("match");
    assert!(stored.seq > 0, "the store numbers the match");
    assert_eq!(
        MatchRecord {
            seq: 0,
            ..stored.clone()
        },
        record
    );
    let lease = Duration::from_secs(30);
    assert!(
        store
            .claim(&record.id, "w_one", lease)
            .await
            .expect("claim"),
        "a queued match is claimed"
    );
    assert!(
        !store
            .claim(&record.id, "w_two", lease)
            .await
            .expect("claim"),
        "a match under a live lease is not claimed by another worker"
    );
    let first = MoveRecord {
        index: 0,
        seat: 1,
        action: json!({"type": "play"}),
        latency_ms: 12,
        fault: Some(Fault::new(FaultKind::Timeout, "late")),
        comment: Some("hm".into()),
        events: vec![json!({"type": "played"})],
    };
    assert!(
        store
            .append_move(stored.seq, "w_one", &first)
            .await
            .expect("move")
    );
    // The same index again (a resumed run) is refused and changes nothing.
    assert!(
        !store
            .append_move(
                stored.seq,
                "w_one",
                &MoveRecord {
                    latency_ms: 99,
                    ..first.clone()
                },
            )
            .await
            .expect("move again")
    );
    // A worker that does not hold the match writes nothing.
    assert!(
        !store
            .append_move(
                stored.seq,
                "w_two",
                &MoveRecord {
                    index: 1,
                    ..first.clone()
                },
            )
            .await
            .expect("fenced move")
    );
    // Events are not stored: replaying the actions gives them back (`arena::replay`).
    assert_eq!(
        store.moves(&record.id).await.expect("moves"),
        vec![MoveRecord {
            events: vec![],
            ..first.clone()
        }]
    );
    let listed = store
        .matches(&MatchFilter {
            game: Some(game.clone()),
            bot: Some(a.clone()),
            statuses: vec![MatchStatus::Running],
            people: None,
            limit: 10,
            before: None,
        })
        .await
        .expect("list");
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].bots, vec![b.clone(), a.clone()]);

    // A bot's faults are listed from their own index: the moves it was asked for, not the
    // arena's fallbacks for a disqualified seat or one flagged earlier (played at once).
    for (index, kind, latency_ms) in [
        (1, FaultKind::Disqualified, 0),
        (2, FaultKind::Flagged, 0),
        (3, FaultKind::Flagged, 40),
    ] {
        let played = MoveRecord {
            index,
            latency_ms,
            fault: Some(Fault::new(kind, "fallback")),
            ..first.clone()
        };
        assert!(
            store
                .append_move(stored.seq, "w_one", &played)
                .await
                .expect("move")
        );
    }
    let faults = store.bot_faults(&a, None, 10).await.expect("faults");
    assert_eq!(
        faults
            .iter()
            .map(|f| (f.index, f.seat, f.fault.kind, f.match_ended))
            .collect::<Vec<_>>(),
        vec![
            (3, 1, FaultKind::Flagged, false),
            (0, 1, FaultKind::Timeout, false)
        ]
    );
    assert_eq!(faults[1].fault, first.fault.clone().expect("a fault"));
    assert_eq!(faults[1].match_id, record.id);
    let newest = &faults[0];
    assert_eq!(
        store
            .bot_faults(&a, Some((newest.at, newest.match_seq, 3)), 10)
            .await
            .expect("the next page")
            .iter()
            .map(|f| f.index)
            .collect::<Vec<_>>(),
        vec![0]
    );
    assert!(
        store
            .bot_faults(&b, None, 10)
            .await
            .expect("faults")
            .is_empty()
    );

    let finish = Finish {
        result: MatchResult {
            ranking: vec![vec![1], vec![0]],
            ..MatchResult::default()
        },
        sides: Some(vec![(vec![a.clone()], 1), (vec![b.clone()], 2)]),
        faults: vec![(b.clone(), 2), (a.clone(), 0)],
        forfeited: vec![false, false],
    };
    assert!(
        !store
            .finish_match(&record.id, "w_two", &finish)
            .await
            .expect("fenced finish"),
        "only the lease holder finishes a match"
    );
    assert!(
        store
            .finish_match(&record.id, "w_one", &finish)
            .await
            .expect("finish")
    );
    assert!(
        !store
            .finish_match(&record.id, "w_one", &finish)
            .await
            .expect("finish twice"),
        "a match finishes once"
    );
    assert_eq!(
        store.rating_order(&game).await.expect("order"),
        vec![record.id.clone()]
    );
    assert!(
        !store
            .abort_match(&record.id, AbortReason::Failed, "late")
            .await
            .expect("abort")
    );
    assert_eq!(
        store
            .rating_history_count(&record.id)
            .await
            .expect("history"),
        2
    );
    assert!(
        store.bot_faults(&a, None, 10).await.expect("faults")[0].match_ended,
        "the match is over"
    );
    // The rating after the match, with the version the bot reported then.
    let history = store
        .rating_history(&a, &game, None, None, 10)
        .await
        .expect("rating history");
    assert_eq!(history.len(), 1);
    assert_eq!(
        (history[0].match_id.as_str(), history[0].version.as_deref()),
        (record.id.as_str(), Some("1"))
    );
    assert!(
        store
            .rating_history(
                &a,
                &game,
                None,
                Some((history[0].at, record.id.clone())),
                10
            )
            .await
            .expect("the next page")
            .is_empty()
    );
    let board = store.leaderboard(&game, 2).await.expect("board");
    assert_eq!(board[0].rating, history[0].rating);
    assert_eq!(
        board.iter().map(|r| r.bot_id.clone()).collect::<Vec<_>>(),
        vec![a.clone(), b.clone()]
    );
    assert!((board[0].rating.mu - 27.63523138347365).abs() < 1e-9);
    assert_eq!(board[0].played, 1);
    assert_eq!(
        board
            .iter()
            .map(|r| (r.wins, r.draws, r.losses, r.faults))
            .collect::<Vec<_>>(),
        vec![(1, 0, 0, 0), (0, 0, 1, 2)]
    );
    // A rotation keeps the replaced secret, until when it was told.
    assert!(store.rotate_secret(&b, "s2", 77).await.expect("rotate"));
    let rotated = store.bot(&b).await.expect("get").expect("bot");
    assert_eq!(rotated.signing_secret, "s2");
    assert_eq!(
        rotated.previous_secret,
        Some(arena::client::PreviousSecret {
            secret: "s".into(),
            until: 77
        })
    );
    store.delete_bot(&a).await.expect("delete");
    assert!(store.bot(&a).await.expect("get").is_none());
    assert!(store.bot_any(&a).await.expect("get").is_some());
    assert_eq!(store.leaderboard(&game, 2).await.expect("board").len(), 1);
    leases(store, &b, &game).await;
}

/// Two workers and a lease that runs out: the second worker takes the match over, and from then
/// on the first one can neither log a move nor finish it.
async fn leases(store: &dyn Store, bot_id: &str, game: &str) {
    let suffix = arena::client::hex(&rand::random::<[u8; 6]>());
    let (one, two) = (format!("w_1{suffix}"), format!("w_2{suffix}"));
    let record = MatchRecord {
        id: format!("m_lease{suffix}"),
        seq: 0,
        moves_pruned: false,
        game: game.to_string(),
        bots: vec![bot_id.to_string()],
        options: json!({}),
        seed: 1,
        seed_salt: None,
        deals: vec![],
        ranked: false,
        ladder: false,
        deadline_ms: 100,
        max_faults: 3,
        clock: Some(arena::wire::Clock {
            initial_ms: 5000,
            increment_ms: 50,
        }),
        pace_ms: 0,
        status: MatchStatus::Queued,
        result: None,
        error: None,
        abort_reason: None,
        created_at: 0,
        started_at: None,
        finished_at: None,
        creator: None,
    };
    store.insert_match(&record).await.expect("insert");
    let seq = store
        .get_match(&record.id)
        .await
        .expect("get")
        .expect("stored")
        .seq;
    // created_at 0: the oldest claimable match of the database, so claim_next takes it.
    // A lease long enough that a loaded machine's late wake-ups (hundreds of ms) change nothing
    // below: the renewal comes at 60% of the term, the check after it past the first term.
    let short = Duration::from_millis(2000);
    assert_eq!(
        store.claim_next(&one, short).await.expect("claim"),
        Some(record.id.clone())
    );
    assert_ne!(
        store.claim_next(&two, short).await.expect("claim"),
        Some(record.id.clone()),
        "a held match is skipped"
    );
    let first = plain_move(0, "a");
    assert!(store.append_move(seq, &one, &first).await.expect("move"));
    // Renewing keeps the lease alive past its first term.
    tokio::time::sleep(short * 6 / 10).await;
    assert!(store.renew_leases(&one, short).await.expect("renew") >= 1);
    tokio::time::sleep(short * 6 / 10).await;
    assert!(!store.claim(&record.id, &two, short).await.expect("claim"));
    // The first worker stops renewing (it died): the lease runs out, the second takes over.
    let stopped = std::time::Instant::now();
    while !store
        .claim(&record.id, &two, short)
        .await
        .expect("take over")
    {
        assert!(
            stopped.elapsed() < short * 5,
            "the lease never ran out for another worker"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        store.moves(&record.id).await.expect("moves"),
        vec![first.clone()]
    );
    let second = MoveRecord {
        index: 1,
        ..first.clone()
    };
    assert!(
        !store
            .append_move(seq, &one, &second)
            .await
            .expect("stale move"),
        "the replaced worker is fenced out"
    );
    assert!(store.append_move(seq, &two, &second).await.expect("move"));
    let finish = Finish {
        result: MatchResult::default(),
        sides: None,
        faults: Vec::new(),
        forfeited: Vec::new(),
    };
    assert!(
        !store
            .finish_match(&record.id, &one, &finish)
            .await
            .expect("stale finish")
    );
    // A clean shutdown hands the match back at once.
    assert_eq!(store.release_leases(&two, None).await.expect("release"), 1);
    // A released match is no longer the old worker's: its lease renewals (which go on for its
    // other matches) do not take it back.
    assert_eq!(store.renew_leases(&two, short).await.expect("renew"), 0);
    assert!(store.lease_holders().await.expect("leases").is_empty());
    assert!(
        store
            .claim(&record.id, &one, short)
            .await
            .expect("claim after release")
    );
    assert!(
        store
            .finish_match(&record.id, &one, &finish)
            .await
            .expect("finish")
    );
    assert_eq!(store.moves(&record.id).await.expect("moves").len(), 2);
    assert!(
        !store.claim(&record.id, &two, short).await.expect("claim"),
        "a finished match is never claimed"
    );
}

trait WithTime {
    fn clone_with_time(&self, created_at: i64) -> Self;
}

impl WithTime for BotRecord {
    fn clone_with_time(&self, created_at: i64) -> Self {
        BotRecord {
            created_at,
            ..self.clone()
        }
    }
}

#[tokio::test]
async fn the_sqlite_store_keeps_the_contract() {
    let dir = temp_dir("store");
    let path = dir.path().join("s.db");
    let store = SqlStore::open(&path.to_string_lossy()).await.expect("open");
    contract(&store).await;
    // The one process of a SQLite database leads the ladder.
    assert!(store.try_lead().await.expect("lead").is_some());
    // Reopening migrates nothing twice and keeps the data.
    drop(store);
    let again = SqlStore::open(&path.to_string_lossy())
        .await
        .expect("reopen");
    assert_eq!(again.bots().await.expect("bots").len(), 1);
}

/// A process shutting down drops its runtime's tasks in no set order: a match that logs a move
/// after the move writer went gets the typed `WriterStopped` (the worker then says the match was
/// interrupted, not that it failed).
#[test]
fn a_move_logged_after_the_writer_stopped_is_refused_as_writer_stopped() {
    let dir = temp_dir("store-writer");
    let path = dir.path().join("s.db");
    let runtime = || {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("runtime")
    };
    let first = runtime();
    let store = first
        .block_on(SqlStore::open(&path.to_string_lossy()))
        .expect("open");
    // The writer task lives on the runtime that opened the store.
    drop(first);
    let refused = runtime()
        .block_on(store.append_move(1, "w_1", &plain_move(0, "play")))
        .expect_err("no writer stores the move");
    assert!(refused.is::<WriterStopped>(), "{refused:#}");
}

#[tokio::test]
async fn a_sqlite_database_refuses_a_second_opener_with_a_clear_message() {
    let dir = temp_dir("store-lock");
    let path = dir.path().join("s.db");
    let first = SqlStore::open(&path.to_string_lossy()).await.expect("open");
    let refused = SqlStore::open(&path.to_string_lossy())
        .await
        .expect_err("a second opener is refused");
    let message = format!("{refused:#}");
    assert!(
        message.contains("in use by another cardroom process") && message.contains("PostgreSQL"),
        "{message}"
    );
    drop(first);
    SqlStore::open(&path.to_string_lossy())
        .await
        .expect("open again once the first has closed");
}

#[tokio::test]
async fn a_role_other_than_all_needs_postgres() {
    let dir = temp_dir("store-role");
    let path = dir.path().join("s.db");
    let mut config = ArenaConfig::local(path.to_string_lossy().to_string());
    config.role = arena::Role::Worker;
    let refused = Arena::open(config).await.expect_err("refused");
    assert!(
        format!("{refused:#}").contains("needs PostgreSQL"),
        "{refused:#}"
    );
}

#[tokio::test]
async fn the_postgres_store_keeps_the_contract_when_a_database_is_given() {
    let Some(url) = fresh_postgres().await else {
        return;
    };
    let store = SqlStore::open(&url).await.expect("open");
    contract(&store).await;
    // A second open (another process) finds the schema migrated.
    let other = SqlStore::open(&url).await.expect("reopen");
    // One ladder leader at a time; when its session ends another process takes over.
    let mut leader = loop {
        // An earlier test's leader connection may still be closing.
        if let Some(leader) = store.try_lead().await.expect("lead") {
            break leader;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(leader.holds().await);
    assert!(other.try_lead().await.expect("lead").is_none());
    drop(leader);
    let mut taken = false;
    for _ in 0..100 {
        if other.try_lead().await.expect("lead").is_some() {
            taken = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(taken, "the lock of a dropped leader is released");
}

#[tokio::test]
async fn a_ranked_match_runs_on_postgres_when_a_database_is_given() {
    let game = two_player_game();
    let Some(url) = fresh_postgres().await else {
        return;
    };
    let mut config = ArenaConfig::local(url);
    config.deadline_ms = 500;
    let arena = Arena::open(config).await.expect("open");
    let (x, y) = (
        spawn_bot(Behavior::Good).await,
        spawn_bot(Behavior::Illegal).await,
    );
    let (x_id, y_id) = (
        register(&arena, &x, &game).await,
        register(&arena, &y, &game).await,
    );
    let created = arena
        .create_match(CreateMatch {
            game: game.clone(),
            bots: vec![x_id.clone(), y_id],
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
    let bot = arena.bot(&x_id).await.expect("bot");
    assert_eq!(bot.ratings.len(), 1);
    assert_eq!(bot.ratings[0].played, 1);
}
