//! A queue no one client can drain (issue 48, costs counted per match and a fair queue), each
//! attack reproduced and shown stopped:
//! - one `POST /v1/tournaments` with `deals: 1000` (thousands of tables, one request): refused
//!   whole, 403 `admin_required`; smaller ones are charged one unit per table against the rate
//!   limit (429 `rate_limited`, nothing stored);
//! - a client over its cap of queued matches: 429 `queue_full` with `Retry-After`, nothing stored;
//! - a table with people created after another client queued hundreds of slow matches starts
//!   within seconds of its last seat being taken (tables have slots of their own);
//! - one client's running matches never pass the cap while another client's get slots;
//! - a table left waiting for people expires (`table_expired`);
//! - the creator of builtin bots' matches cancels those still queued (nobody else but the admin).
//!
//! The claim itself (lanes, round robin, the cap, racing workers) is checked on the store, on
//! SQLite and, when `DATABASE_URL` names one, on PostgreSQL.

use crate::support::{
    ADMIN_TOKEN, Behavior, fresh_postgres, register, register_owned, send, spawn_app,
    spawn_arena_with, spawn_bot, temp_dir, two_player_game,
};
use arena::store::{
    AbortReason, Cancelled, Claim, Creator, Lane, MatchRecord, MatchStatus, SqlStore, Store,
};
use arena::tables::{CreateTable, JoinTable, SeatRequest};
use arena::{Arena, ArenaConfig, Role};
use serde_json::{Value, json};
use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// An arena without match workers (nothing leaves the queue), on an in-memory database, with
/// the test admin token and `change` applied.
async fn queue_only(change: impl FnOnce(&mut ArenaConfig)) -> Arena {
    let mut config = ArenaConfig {
        role: Role::Api,
        admin_token: Some(ADMIN_TOKEN.into()),
        ..ArenaConfig::local("sqlite::memory:")
    };
    change(&mut config);
    let arena = Arena::open(config).await.expect("arena");
    arena.register_builtins().await.expect("built-in bots");
    arena
}

/// Every match stored, whatever its status.
async fn stored(arena: &Arena) -> Vec<MatchRecord> {
    arena
        .store()
        .matches(&arena::store::MatchFilter {
            limit: 100_000,
            ..Default::default()
        })
        .await
        .expect("matches")
}

fn retry_after(response: &reqwest::Response) -> Option<u64> {
    response
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
}

/// Sends a request: status, `Retry-After`, the JSON body.
async fn send_full(request: reqwest::RequestBuilder) -> (u16, Option<u64>, Value) {
    let response = request.send().await.expect("send");
    let status = response.status().as_u16();
    let retry = retry_after(&response);
    (status, retry, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_tournament_is_charged_per_table_and_one_of_a_thousand_deals_is_refused_whole() {
    let arena = queue_only(|config| config.matches_per_minute = 100).await;
    let base = spawn_app(&arena).await;
    let http = reqwest::Client::new();
    let game = two_player_game();
    let tournament = |deals: u32| {
        http.post(format!("{base}/v1/tournaments"))
            .json(&json!({"game": game, "bots": ["random", "heuristic"], "deals": deals}))
    };
    // The attack: one request, 1000 deals, two seatings each: 2000 tables.
    let (status, _, problem) = send_full(tournament(1000)).await;
    assert_eq!(
        (status, problem["code"].as_str()),
        (403, Some("admin_required")),
        "{problem}"
    );
    assert!(stored(&arena).await.is_empty(), "nothing of it is queued");
    // 30 deals: 60 tables, 60 units of the 100 a minute.
    let response = tournament(30).send().await.expect("send");
    assert_eq!(response.status().as_u16(), 202);
    assert_eq!(
        response
            .headers()
            .get("ratelimit-remaining")
            .and_then(|v| v.to_str().ok()),
        Some("40")
    );
    assert_eq!(stored(&arena).await.len(), 60);
    // 25 deals: 50 tables, more than the 40 left: refused whole, with when to retry.
    let (status, retry, problem) = send_full(tournament(25)).await;
    assert_eq!(
        (status, problem["code"].as_str()),
        (429, Some("rate_limited")),
        "{problem}"
    );
    assert!(retry.is_some_and(|secs| secs >= 1), "Retry-After");
    assert_eq!(stored(&arena).await.len(), 60, "nothing of it is queued");
    // A single match is one unit: it still fits.
    let (status, _, created) = send_full(
        http.post(format!("{base}/v1/matches"))
            .json(&json!({"game": game, "bots": ["random", "heuristic"]})),
    )
    .await;
    assert_eq!(status, 202, "{created}");
    // The admin may play a large tournament (the size cap is the admin's call).
    let (status, _, created) = send_full(
        http.post(format!("{base}/v1/tournaments"))
            .bearer_auth(ADMIN_TOKEN)
            .json(&json!({"game": game, "bots": ["random", "heuristic"], "deals": 201})),
    )
    .await;
    assert_eq!(status, 202, "{created}");
    assert_eq!(created["matches"], 402);
}

#[tokio::test]
async fn a_client_over_its_queued_cap_gets_queue_full_and_nothing_is_queued() {
    let arena = queue_only(|config| config.max_queued_per_client = 5).await;
    let base = spawn_app(&arena).await;
    let http = reqwest::Client::new();
    let game = two_player_game();
    let one = || {
        http.post(format!("{base}/v1/matches"))
            .json(&json!({"game": game, "bots": ["random", "heuristic"]}))
    };
    let mut ids = Vec::new();
    for _ in 0..5 {
        let (status, _, created) = send_full(one()).await;
        assert_eq!(status, 202, "{created}");
        ids.push(created["id"].as_str().expect("id").to_string());
    }
    let (status, retry, problem) = send_full(one()).await;
    assert_eq!(
        (status, problem["code"].as_str()),
        (429, Some("queue_full")),
        "{problem}"
    );
    assert!(retry.is_some_and(|secs| secs >= 1), "Retry-After");
    // A tournament's tables count too: refused whole.
    let (status, _, problem) = send_full(
        http.post(format!("{base}/v1/tournaments"))
            .json(&json!({"game": game, "bots": ["random", "heuristic"], "deals": 1})),
    )
    .await;
    assert_eq!(
        (status, problem["code"].as_str()),
        (429, Some("queue_full"))
    );
    assert_eq!(stored(&arena).await.len(), 5, "nothing of them is queued");
    // A table with people has a cap (and an allowance) of its own.
    let (status, _, table) = send_full(http.post(format!("{base}/v1/tables")).json(&json!({
        "game": game, "players": 2, "seats": [{"open": true}, {"bot": "random"}],
    })))
    .await;
    assert_eq!(status, 201, "{table}");
    // Another client is not affected.
    let (status, _, created) = send_full(one().bearer_auth(ADMIN_TOKEN)).await;
    assert_eq!(status, 202, "{created}");
    // Once one of its matches leaves the queue (here: its creator cancels it), one fits again.
    let (status, _, cancelled) =
        send_full(http.delete(format!("{base}/v1/matches/{}", ids[0]))).await;
    assert_eq!(status, 200, "{cancelled}");
    let (status, _, created) = send_full(one()).await;
    assert_eq!(status, 202, "{created}");
}

#[tokio::test]
async fn the_creator_cancels_its_queued_builtin_matches_and_tournaments_nobody_else_does() {
    let arena = queue_only(|_| {}).await;
    let base = spawn_app(&arena).await;
    let http = reqwest::Client::new();
    let game = two_player_game();
    let stranger = spawn_bot(Behavior::Good).await;
    let (_, stranger_token) = register_owned(&arena, &stranger, &game).await;
    // An anonymous client (by its address) queues a match of built-in bots and a tournament.
    let (status, _, created) = send_full(
        http.post(format!("{base}/v1/matches"))
            .json(&json!({"game": game, "bots": ["random", "heuristic"]})),
    )
    .await;
    assert_eq!(status, 202, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let (status, _, created) = send_full(
        http.post(format!("{base}/v1/tournaments"))
            .json(&json!({"game": game, "bots": ["random", "heuristic"], "deals": 2})),
    )
    .await;
    assert_eq!(status, 202, "{created}");
    let tid = created["id"].as_str().expect("id").to_string();
    // Another client may not (no seated bot of its, not the admin).
    for path in [format!("v1/matches/{id}"), format!("v1/tournaments/{tid}")] {
        let (status, _, problem) = send_full(
            http.delete(format!("{base}/{path}"))
                .bearer_auth(&stranger_token),
        )
        .await;
        assert_eq!(
            (status, problem["code"].as_str()),
            (403, Some("forbidden")),
            "{problem}"
        );
    }
    // Its creator may, while they are queued.
    let (status, _, cancelled) = send_full(http.delete(format!("{base}/v1/matches/{id}"))).await;
    assert_eq!(status, 200, "{cancelled}");
    assert_eq!(cancelled["abort_reason"], "cancelled");
    let (status, _, cancelled) =
        send_full(http.delete(format!("{base}/v1/tournaments/{tid}"))).await;
    assert_eq!(status, 200, "{cancelled}");
    assert_eq!(cancelled["cancelled"], 4);
    let (_, shown) = send(http.get(format!("{base}/v1/matches/{id}"))).await;
    assert_eq!(shown["status"], "aborted");
    assert!(
        shown["error"]
            .as_str()
            .is_some_and(|e| e.contains("its creator") && !e.contains("127.0.0.1")),
        "{shown}"
    );
    let (status, _, problem) = send_full(http.delete(format!("{base}/v1/matches/{id}"))).await;
    assert_eq!(
        (status, problem["code"].as_str()),
        (409, Some("match_finished"))
    );
}

#[tokio::test]
async fn a_table_with_people_starts_within_seconds_behind_hundreds_of_queued_matches() {
    let game = two_player_game();
    let arena = spawn_arena_with("queue-people-first", |config| {
        config.concurrency = 1;
        config.matches_per_minute = 0;
    })
    .await;
    arena.register_builtins().await.expect("built-in bots");
    let base = spawn_app(&arena).await;
    let http = reqwest::Client::new();
    // Another client queues hundreds of slow matches (each takes seconds).
    let slow = spawn_bot(Behavior::Slow(100)).await;
    let slow_id = register(&arena, &slow, &game).await;
    let (status, _, created) = send_full(
        http.post(format!("{base}/v1/tournaments"))
            .bearer_auth(ADMIN_TOKEN)
            .json(&json!({"game": game, "bots": [slow_id, "random"], "deals": 150})),
    )
    .await;
    assert_eq!(status, 202, "{created}");
    assert_eq!(created["matches"], 300);
    // The bots' one slot is taken.
    wait(
        Duration::from_secs(30),
        "a tournament table runs",
        || async {
            stored(&arena)
                .await
                .iter()
                .any(|m| m.status == MatchStatus::Running)
        },
    )
    .await;
    // A person's table: it waits for its person, then starts within seconds.
    let (status, _, table) = send_full(http.post(format!("{base}/v1/tables")).json(&json!({
        "game": game, "players": 2, "seats": [{"open": true}, {"bot": "random"}],
    })))
    .await;
    assert_eq!(status, 201, "{table}");
    let table_id = table["id"].as_str().expect("id").to_string();
    let (status, _, joined) = send_full(
        http.post(format!("{base}/v1/tables/{table_id}/join"))
            .json(&json!({"name": "Anna"})),
    )
    .await;
    assert_eq!(status, 200, "{joined}");
    let seated = Instant::now();
    wait(Duration::from_secs(10), "the table starts", || async {
        let (_, shown) = send(http.get(format!("{base}/v1/tables/{table_id}"))).await;
        shown["status"] == "running" || shown["status"] == "finished"
    })
    .await;
    let queued = stored(&arena)
        .await
        .iter()
        .filter(|m| m.status == MatchStatus::Queued)
        .count();
    assert!(
        queued > 250,
        "the table started ({:?} after its last seat) while {queued} matches still wait",
        seated.elapsed()
    );
    // The rest is of no interest: end it.
    let (status, _, _) = send_full(
        http.delete(format!(
            "{base}/v1/tournaments/{}",
            created["id"].as_str().expect("id")
        ))
        .bearer_auth(ADMIN_TOKEN),
    )
    .await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn one_clients_running_matches_never_pass_the_cap_while_another_client_gets_slots() {
    let game = two_player_game();
    let arena = spawn_arena_with("queue-cap", |config| {
        config.concurrency = 4;
        config.max_running_per_client = 2;
        config.matches_per_minute = 0;
    })
    .await;
    arena.register_builtins().await.expect("built-in bots");
    let base = spawn_app(&arena).await;
    let http = reqwest::Client::new();
    let slow = spawn_bot(Behavior::Slow(40)).await;
    let slow_id = register(&arena, &slow, &game).await;
    let create = |token: Option<&str>| {
        let request = http
            .post(format!("{base}/v1/matches"))
            .json(&json!({"game": game, "bots": [slow_id, "random"]}));
        match token {
            Some(token) => request.bearer_auth(token),
            None => request,
        }
    };
    // The first client (the admin's token) queues 12 matches, then another (anonymous) 3.
    for _ in 0..12 {
        let (status, _, created) = send_full(create(Some(ADMIN_TOKEN))).await;
        assert_eq!(status, 202, "{created}");
    }
    for _ in 0..3 {
        let (status, _, created) = send_full(create(None)).await;
        assert_eq!(status, 202, "{created}");
    }
    let started = Instant::now();
    let mut other_ran_while_first_waited = false;
    while started.elapsed() < Duration::from_secs(60) {
        let matches = stored(&arena).await;
        let count = |key: &str, status: MatchStatus| {
            matches
                .iter()
                .filter(|m| m.status == status)
                .filter(|m| m.creator.as_ref().is_some_and(|c| c.key == key))
                .count()
        };
        let first_running = count("admin", MatchStatus::Running);
        assert!(first_running <= 2, "{first_running} running for one client");
        assert!(count("addr:127.0.0.1", MatchStatus::Running) <= 2);
        if count("addr:127.0.0.1", MatchStatus::Running) > 0
            && count("admin", MatchStatus::Queued) > 0
        {
            other_ran_while_first_waited = true;
        }
        if matches
            .iter()
            .all(|m| matches!(m.status, MatchStatus::Finished | MatchStatus::Aborted))
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(
        other_ran_while_first_waited,
        "the second client's matches got slots while the first client's queue was full"
    );
    assert!(
        stored(&arena)
            .await
            .iter()
            .all(|m| m.status == MatchStatus::Finished),
        "every match finished"
    );
}

#[tokio::test]
async fn a_table_left_waiting_for_people_expires() {
    let game = two_player_game();
    let arena = spawn_arena_with("queue-expiry", |config| {
        config.table_expiry = Duration::from_millis(300);
        config.maintenance_interval = Duration::from_millis(100);
    })
    .await;
    arena.register_builtins().await.expect("built-in bots");
    let table = arena
        .create_table(
            table_against_random(&game, SeatRequest::Open(true)),
            Creator::admin(),
        )
        .await
        .expect("table");
    let record = arena
        .wait_for(&table.match_id, Duration::from_secs(20))
        .await
        .expect("the table expires");
    assert_eq!(record.status, MatchStatus::Aborted);
    assert_eq!(record.abort_reason, Some(AbortReason::TableExpired));
    let shown = arena.get_match(&table.match_id).await.expect("match");
    assert_eq!(shown.abort_reason, Some(AbortReason::TableExpired));
    let listed = arena.get_table(&table.id).await.expect("table");
    assert_eq!(listed.abort_reason, Some(AbortReason::TableExpired));
    // Nobody joins an expired table.
    let refused = arena
        .join_table(&table.id, JoinTable::default(), None)
        .await
        .expect_err("expired");
    assert_eq!(refused.code, arena::ErrorCode::MatchFinished, "{refused:?}");
}

/// Tables a person left in the middle (their seat's move asked, nobody answering, no clock) hold
/// no slot and no per-client turn: with the cap at 1 running match per client and one table
/// slot, the same client's next tables still start; and a left table is aborted
/// (`table_expired`) once nobody moved for its seat in `--table-expiry-minutes`.
#[tokio::test]
async fn tables_left_in_the_middle_keep_no_table_waiting_and_expire() {
    let game = two_player_game();
    let arena = spawn_arena_with("queue-left", |config| {
        config.max_running_per_client = 1;
        config.table_slots = 1;
        config.table_expiry = Duration::from_secs(3);
    })
    .await;
    arena.register_builtins().await.expect("built-in bots");
    let mut opened = Vec::new();
    for _ in 0..3 {
        let table = arena
            .create_table(
                table_against_random(&game, SeatRequest::Human(None)),
                Creator::client(None),
            )
            .await
            .expect("table");
        let url = table.seats[0].join_url.as_deref().expect("join url");
        let key = url.split_once("&key=").expect("a key").1.to_string();
        let join = JoinTable {
            key: Some(key),
            ..JoinTable::default()
        };
        arena.join_table(&table.id, join, None).await.expect("join");
        // The table runs and asks the person (who never answers) before the next one opens.
        let match_id = table.match_id.clone();
        wait(Duration::from_secs(20), "the person is asked", || {
            let arena = arena.clone();
            let match_id = match_id.clone();
            async move {
                let pending = arena.match_pending_moves(&match_id).await.expect("pending");
                pending.iter().any(|p| p.seat == 0)
            }
        })
        .await;
        opened.push((table.id, table.match_id));
    }
    for (table_id, match_id) in &opened {
        let record = arena
            .wait_for(match_id, Duration::from_secs(30))
            .await
            .expect("the left table ends");
        assert_eq!(record.status, MatchStatus::Aborted);
        assert_eq!(record.abort_reason, Some(AbortReason::TableExpired));
        let shown = arena.get_match(match_id).await.expect("match");
        assert!(
            shown
                .error
                .as_deref()
                .is_some_and(|e| e.contains("the table was left")),
            "{:?}",
            shown.error
        );
        let table = arena.get_table(table_id).await.expect("table");
        assert_eq!(table.abort_reason, Some(AbortReason::TableExpired));
    }
}

/// Two API processes on one PostgreSQL database, one client creating matches through both at
/// once (a thread and a runtime each): the cap of queued matches holds over both (each admission
/// holds the client's lock across processes from its count to its insert), so exactly the cap is
/// queued and the rest is refused `queue_full`.
#[test]
fn the_queued_cap_holds_across_processes_on_postgres_when_a_database_is_given() {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let Some(database) = runtime.block_on(fresh_postgres()) else {
        return;
    };
    const CAP: u32 = 20;
    let open = |database: String| async move {
        let arena = Arena::open(ArenaConfig {
            role: Role::Api,
            max_queued_per_client: CAP,
            ..ArenaConfig::local(database)
        })
        .await
        .expect("open");
        arena.register_builtins().await.expect("built-in bots");
        arena
    };
    runtime.block_on(open(database.clone()));
    let client = Creator::client(None);
    let start = Arc::new(std::sync::Barrier::new(2));
    let process = |database: String| {
        let (client, start) = (client.clone(), start.clone());
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Runtime::new().expect("runtime");
            runtime.block_on(async move {
                let arena = open(database).await;
                start.wait();
                let mut results = Vec::new();
                for _ in 0..CAP {
                    let request = arena::dto::CreateMatch {
                        game: two_player_game(),
                        bots: vec!["random".into(), "heuristic".into()],
                        ..arena::dto::CreateMatch::default()
                    };
                    let created = arena.create_match_by(request, client.clone()).await;
                    results.push(created.map(|_| ()).map_err(|e| e.code));
                }
                results
            })
        })
    };
    let (first, second) = (process(database.clone()), process(database));
    let mut results = first.join().expect("first process");
    results.extend(second.join().expect("second process"));
    let queued = results.iter().filter(|r| r.is_ok()).count();
    assert!(
        results
            .iter()
            .all(|r| matches!(r, Ok(()) | Err(arena::ErrorCode::QueueFull))),
        "{results:?}"
    );
    assert_eq!(queued, CAP as usize, "queued over both processes");
}

/// An unrated table without a clock: `person` in seat 0, the built-in `random` in seat 1.
fn table_against_random(game: &str, person: SeatRequest) -> CreateTable {
    CreateTable {
        game: game.to_string(),
        players: 2,
        options: None,
        seats: vec![person, SeatRequest::Bot("random".into())],
        seed: None,
        clock: None,
        pace_ms: None,
        rated: Some(false),
    }
}

/// Polls `ready` every 20 ms until it holds, at most `within`.
async fn wait<F, Fut>(within: Duration, what: &str, ready: F)
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let started = Instant::now();
    while !ready().await {
        assert!(started.elapsed() < within, "{what}: not within {within:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

// The store's claim, on either database.

fn queued(id: &str, creator: Creator, bots: &[&str], created_at: i64) -> MatchRecord {
    MatchRecord {
        id: id.to_string(),
        seq: 0,
        moves_pruned: false,
        game: two_player_game(),
        bots: bots.iter().map(|b| b.to_string()).collect(),
        options: json!({}),
        seed: 1,
        seed_salt: None,
        deals: vec![],
        ranked: false,
        ladder: false,
        deadline_ms: 100,
        max_faults: 3,
        clock: None,
        pace_ms: 0,
        status: MatchStatus::Queued,
        result: None,
        error: None,
        abort_reason: None,
        created_at,
        started_at: None,
        finished_at: None,
        creator: Some(creator),
    }
}

const LEASE: Duration = Duration::from_secs(30);

fn claim(lanes: &[Lane], cap: u32) -> Claim<'_> {
    Claim {
        lanes,
        max_running_per_client: cap,
        lease: LEASE,
    }
}

/// The claim's order and caps, and what the queue counts, on a store with no other match.
async fn fair_claims(store: &dyn Store, bot: &str) {
    let (a, b) = (Creator::owner("b_a"), Creator::client(None));
    for i in 0..5 {
        let record = queued(&format!("m_a{i}"), a.clone(), &[bot, bot], 10 + i);
        store.insert_match(&record).await.expect("insert");
    }
    for i in 0..2 {
        let record = queued(&format!("m_b{i}"), b.clone(), &[bot, bot], 100 + i);
        store.insert_match(&record).await.expect("insert");
    }
    let ladder = MatchRecord {
        ladder: true,
        ranked: true,
        ..queued("m_ladder", Creator::ladder(), &[bot, bot], 500)
    };
    store.insert_match(&ladder).await.expect("insert");
    let people = queued(
        "m_people",
        b.clone(),
        &[arena::tables::PERSON_BOT_ID, bot],
        900,
    );
    store.insert_match(&people).await.expect("insert");
    for i in 0..2 {
        let more = queued(
            &format!("m_people{i}"),
            b.clone(),
            &[arena::tables::PERSON_BOT_ID, bot],
            901 + i,
        );
        store.insert_match(&more).await.expect("insert");
    }
    assert_eq!(store.queued_by(&a.key, false).await.expect("count"), 5);
    assert_eq!(store.queued_by(&b.key, false).await.expect("count"), 2);
    assert_eq!(store.queued_by(&b.key, true).await.expect("count"), 3);

    // Table slots take tables with people only, however old the others, and one client's
    // running tables do not count against its cap (they hold a slot only while bots play).
    let take = |lanes: &'static [Lane], cap| async move {
        store
            .claim_fair("w_1", claim(lanes, cap))
            .await
            .expect("claim")
    };
    for expected in ["m_people", "m_people0", "m_people1"] {
        assert_eq!(take(Lane::TABLE_SLOTS, 2).await.as_deref(), Some(expected));
    }
    assert_eq!(take(Lane::TABLE_SLOTS, 2).await, None);
    // Match slots: the ladder first, then the clients in turn, each under its cap of 2.
    assert_eq!(
        take(Lane::MATCH_SLOTS, 2).await.as_deref(),
        Some("m_ladder")
    );
    assert_eq!(take(Lane::MATCH_SLOTS, 2).await.as_deref(), Some("m_a0"));
    assert_eq!(
        take(Lane::MATCH_SLOTS, 2).await.as_deref(),
        Some("m_b0"),
        "the client never served goes next, though its matches are younger"
    );
    assert_eq!(take(Lane::MATCH_SLOTS, 2).await.as_deref(), Some("m_a1"));
    assert_eq!(take(Lane::MATCH_SLOTS, 2).await.as_deref(), Some("m_b1"));
    assert_eq!(
        take(Lane::MATCH_SLOTS, 2).await,
        None,
        "the first client is at its cap, the other has nothing queued"
    );
    // One of the first client's matches ends: its next one may start.
    assert!(
        store
            .abort_match("m_a0", AbortReason::Failed, "test")
            .await
            .expect("abort")
    );
    assert_eq!(take(Lane::MATCH_SLOTS, 2).await.as_deref(), Some("m_a2"));
    assert_eq!(store.queued_by(&a.key, false).await.expect("count"), 2);

    // Cancels of waiting matches: queued yes, running no, over no.
    assert_eq!(
        store
            .cancel_waiting("m_a4", "by its creator")
            .await
            .expect("cancel"),
        Cancelled::Cancelled
    );
    assert_eq!(
        store
            .cancel_waiting("m_a2", "by its creator")
            .await
            .expect("cancel"),
        Cancelled::Underway
    );
    assert_eq!(
        store
            .cancel_waiting("m_a4", "by its creator")
            .await
            .expect("cancel"),
        Cancelled::Over
    );

    // Tables waiting for people expire once old enough, not before.
    let waiting = |id: &str, created_at| MatchRecord {
        status: MatchStatus::Waiting,
        ..queued(
            id,
            b.clone(),
            &[arena::tables::PERSON_BOT_ID, bot],
            created_at,
        )
    };
    store
        .insert_match(&waiting("m_old", 1_000))
        .await
        .expect("insert");
    store
        .insert_match(&waiting("m_new", 5_000))
        .await
        .expect("insert");
    assert_eq!(
        store.expire_waiting(2_000, 10).await.expect("expire"),
        vec!["m_old".to_string()]
    );
    assert_eq!(
        store.expire_waiting(2_000, 10).await.expect("expire"),
        Vec::<String>::new()
    );
    let old = store
        .get_match("m_old")
        .await
        .expect("get")
        .expect("stored");
    assert_eq!(old.abort_reason, Some(AbortReason::TableExpired));
    assert_eq!(
        store
            .get_match("m_new")
            .await
            .expect("get")
            .expect("stored")
            .status,
        MatchStatus::Waiting
    );
}

/// Workers racing for one client's queue: each match is taken once, and never more than the
/// cap at a time.
async fn racing_claims(store: Arc<dyn Store>, bot: &str) {
    let client = Creator::client(Some("10.0.0.9".parse().expect("address")));
    for i in 0..20 {
        let record = queued(
            &format!("m_race{i}"),
            client.clone(),
            &[bot, bot],
            2_000 + i,
        );
        store.insert_match(&record).await.expect("insert");
    }
    let mut workers = Vec::new();
    for w in 0..12 {
        let store = store.clone();
        workers.push(tokio::spawn(async move {
            store
                .claim_fair(&format!("w_race{w}"), claim(Lane::MATCH_SLOTS, 3))
                .await
                .expect("claim")
        }));
    }
    let mut taken = HashSet::new();
    for worker in workers {
        if let Some(id) = worker.await.expect("worker") {
            assert!(taken.insert(id), "a match taken twice");
        }
    }
    assert_eq!(
        taken.len(),
        3,
        "the cap holds across racing workers: {taken:?}"
    );
}

async fn store_with_bot(store: &dyn Store) -> String {
    let id = format!("b_q{}", arena::client::hex(&rand::random::<[u8; 4]>()));
    let bot = arena::store::BotRecord {
        id: id.clone(),
        name: id.clone(),
        url: format!("http://127.0.0.1:9/{id}"),
        games: vec![two_player_game()],
        author: String::new(),
        version: String::new(),
        token_hash: String::new(),
        signing_secret: "secret".into(),
        previous_secret: None,
        builtin: false,
        transport: Default::default(),
        paused: false,
        failures: 0,
        failing_since: None,
        retry_at: None,
        pause_reason: None,
        trial_match: None,
        created_at: 0,
        history: Default::default(),
        open_to_challenges: true,
    };
    assert!(store.insert_bot(&bot).await.expect("bot"));
    id
}

#[tokio::test]
async fn the_sqlite_queue_is_fair_and_race_free() {
    let dir = temp_dir("queue-store");
    let path = dir.path().join("queue.db");
    let store: Arc<dyn Store> =
        Arc::new(SqlStore::open(&path.to_string_lossy()).await.expect("open"));
    let bot = store_with_bot(store.as_ref()).await;
    fair_claims(store.as_ref(), &bot).await;
    let dir = temp_dir("queue-race");
    let path = dir.path().join("race.db");
    let store: Arc<dyn Store> =
        Arc::new(SqlStore::open(&path.to_string_lossy()).await.expect("open"));
    let bot = store_with_bot(store.as_ref()).await;
    racing_claims(store, &bot).await;
}

#[tokio::test]
async fn the_postgres_queue_is_fair_and_race_free_when_a_database_is_given() {
    let Some(url) = fresh_postgres().await else {
        return;
    };
    let store: Arc<dyn Store> = Arc::new(SqlStore::open(&url).await.expect("open"));
    let bot = store_with_bot(store.as_ref()).await;
    fair_claims(store.as_ref(), &bot).await;
    let Some(url) = fresh_postgres().await else {
        return;
    };
    // Two processes' stores on one database.
    let one: Arc<dyn Store> = Arc::new(SqlStore::open(&url).await.expect("open"));
    let bot = store_with_bot(one.as_ref()).await;
    racing_claims(one, &bot).await;
}
