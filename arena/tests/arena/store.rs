//! The store contract, run against SQLite in a temporary directory and, when `DATABASE_URL`
//! names a PostgreSQL database (as `.ci/run` provides), against PostgreSQL too.

use crate::support::{Behavior, register, spawn_bot, temp_dir, two_player_game};
use arena::client::{Fault, FaultKind};
use arena::dto::CreateMatch;
use arena::store::{
    BotRecord, Finish, MatchFilter, MatchRecord, MatchStatus, MoveRecord, Store, now_ms,
};
use arena::{Arena, ArenaConfig};
use serde_json::json;
use std::time::Duration;

fn postgres_url() -> Option<String> {
    std::env::var("DATABASE_URL")
        .ok()
        .filter(|url| url.starts_with("postgres"))
}

fn bot(id: &str) -> BotRecord {
    BotRecord {
        id: id.into(),
        name: "n".into(),
        url: "http://example.com".into(),
        games: vec!["g".into()],
        author: "a".into(),
        version: "1".into(),
        token_hash: "h".into(),
        signing_secret: "s".into(),
        builtin: false,
        paused: false,
        failures: 0,
        created_at: now_ms(),
    }
}

async fn contract(store: &dyn Store) {
    let suffix = arena::client::hex(&rand::random::<[u8; 6]>());
    let (a, b) = (format!("b_a{suffix}"), format!("b_b{suffix}"));
    store.insert_bot(&bot(&a)).await.expect("insert");
    store.insert_bot(&bot(&b)).await.expect("insert");
    let mut changed = store.bot(&a).await.expect("get").expect("bot");
    assert_eq!(changed, bot(&a).clone_with_time(changed.created_at));
    changed.name = "renamed".into();
    store.update_bot(&changed).await.expect("update");
    assert_eq!(
        store.bot(&a).await.expect("get").expect("bot").name,
        "renamed"
    );
    store.set_bot_health(&a, true, 3).await.expect("health");
    let paused = store.bot(&a).await.expect("get").expect("bot");
    assert!(paused.paused && paused.failures == 3);

    let game = format!("g{suffix}");
    let record = MatchRecord {
        id: format!("m_{suffix}"),
        game: game.clone(),
        bots: vec![b.clone(), a.clone()],
        options: json!({"x": 1}),
        seed: u64::MAX - 5,
        deals: vec![vec!["AS".into()]],
        ranked: true,
        ladder: false,
        deadline_ms: 100,
        max_faults: 3,
        status: MatchStatus::Queued,
        result: None,
        error: None,
        created_at: now_ms(),
        started_at: None,
        finished_at: None,
    };
    store.insert_match(&record).await.expect("insert match");
    let stored = store
        .get_match(&record.id)
        .await
        .expect("get")
        .expect("match");
    assert_eq!(stored, record);
    store.mark_running(&record.id).await.expect("running");
    let first = MoveRecord {
        index: 0,
        seat: 1,
        action: json!({"type": "play"}),
        latency_ms: 12,
        fault: Some(Fault::new(FaultKind::Timeout, "late")),
        comment: Some("hm".into()),
        events: vec![json!({"type": "played"})],
    };
    store.append_move(&record.id, &first).await.expect("move");
    // The same index again (a resumed run) is ignored.
    store
        .append_move(
            &record.id,
            &MoveRecord {
                latency_ms: 99,
                ..first.clone()
            },
        )
        .await
        .expect("move again");
    assert_eq!(store.moves(&record.id).await.expect("moves"), vec![first]);
    let listed = store
        .matches(&MatchFilter {
            game: Some(game.clone()),
            bot: Some(a.clone()),
            statuses: vec![MatchStatus::Running],
            limit: 10,
        })
        .await
        .expect("list");
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].bots, vec![b.clone(), a.clone()]);

    let finish = Finish {
        result: json!({"ranking": [[1], [0]]}),
        sides: Some(vec![(vec![a.clone()], 1), (vec![b.clone()], 2)]),
    };
    assert!(
        store
            .finish_match(&record.id, &finish)
            .await
            .expect("finish")
    );
    assert!(
        !store
            .finish_match(&record.id, &finish)
            .await
            .expect("finish twice"),
        "a match finishes once"
    );
    assert!(!store.abort_match(&record.id, "late").await.expect("abort"));
    assert_eq!(
        store
            .rating_history_count(&record.id)
            .await
            .expect("history"),
        2
    );
    let board = store.leaderboard(&game).await.expect("board");
    assert_eq!(
        board.iter().map(|r| r.bot_id.clone()).collect::<Vec<_>>(),
        vec![a.clone(), b.clone()]
    );
    assert!((board[0].rating.mu - 27.63523138347365).abs() < 1e-9);
    assert_eq!(board[0].played, 1);
    store.delete_bot(&a).await.expect("delete");
    assert!(store.bot(&a).await.expect("get").is_none());
    assert!(store.bot_any(&a).await.expect("get").is_some());
    assert_eq!(store.leaderboard(&game).await.expect("board").len(), 1);
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
    let path = temp_dir("store").join("s.db");
    let store = arena::store::sqlite::SqliteStore::open(&path.to_string_lossy())
        .await
        .expect("open");
    contract(&store).await;
    // Reopening migrates nothing twice and keeps the data.
    drop(store);
    let again = arena::store::sqlite::SqliteStore::open(&path.to_string_lossy())
        .await
        .expect("reopen");
    assert_eq!(again.bots().await.expect("bots").len(), 1);
}

#[tokio::test]
async fn the_postgres_store_keeps_the_contract_when_a_database_is_given() {
    let Some(url) = postgres_url() else {
        eprintln!("DATABASE_URL is not a postgres:// URL: PostgreSQL store not tested");
        return;
    };
    let store = arena::store::postgres::PostgresStore::open(&url)
        .await
        .expect("open");
    contract(&store).await;
    // A second open finds the schema migrated.
    arena::store::postgres::PostgresStore::open(&url)
        .await
        .expect("reopen");
}

#[tokio::test]
async fn a_ranked_match_runs_on_postgres_when_a_database_is_given() {
    let (Some(url), Some(game)) = (postgres_url(), two_player_game()) else {
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
            options: None,
            seed: None,
            deals: None,
            ranked: Some(true),
            deadline_ms: None,
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
