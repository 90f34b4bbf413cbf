//! Ratings per game id and table size. The attack this stops: one rating per game id mixed 2-,
//! 3- and 4-player tables, so a bot's place depended on which sizes the ladder drew. Over HTTP:
//! `GET /v1/leaderboards/{game}?players=N` (default: the size with the most ranked matches),
//! partnership tables rating each seat from its side's result, a bot's ratings and history per
//! size. On the store: the upgrade's rebuild replays the ranked results in rating order into
//! exactly the ratings the matches wrote as they finished.

use crate::support::{ADMIN_TOKEN, Behavior, register, send, spawn_app, spawn_arena, spawn_bot};
use arena::result::MatchResult;
use arena::store::{
    BotRecord, Creator, Finish, MatchRecord, MatchStatus, SqlStore, Store, Transport, now_ms,
};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::time::Duration;

const WATTEN: &str = "watten";

/// A board's rows by bot id: (mu, wins, draws, losses, games).
fn rows(board: &Value) -> BTreeMap<String, (f64, u64, u64, u64, u64)> {
    board["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| {
            let n = |key: &str| e[key].as_u64().expect("count");
            (
                e["bot"].as_str().expect("bot").to_string(),
                (
                    e["mu"].as_f64().expect("mu"),
                    n("wins"),
                    n("draws"),
                    n("losses"),
                    n("games"),
                ),
            )
        })
        .collect()
}

#[tokio::test]
async fn each_table_size_has_its_own_ratings_and_partners_share_their_sides_result() {
    let arena = spawn_arena("ratings-sizes").await;
    let builtins = arena.register_builtins().await.expect("built-in bots");
    let (random, heuristic) = (builtins[0].clone(), builtins[1].clone());
    let base = spawn_app(&arena).await;
    let http = reqwest::Client::new();
    let (one, two) = (
        spawn_bot(Behavior::Good).await,
        spawn_bot(Behavior::Good).await,
    );
    let (a, b) = (
        register(&arena, &one, WATTEN).await,
        register(&arena, &two, WATTEN).await,
    );
    let ranked = |bots: Vec<&str>| {
        http.post(format!("{base}/v1/matches"))
            .bearer_auth(ADMIN_TOKEN)
            .json(&json!({"game": WATTEN, "bots": bots, "ranked": true}))
    };
    let mut ids = Vec::new();
    for _ in 0..3 {
        let (status, created) = send(ranked(vec!["random", "heuristic"])).await;
        assert_eq!(status, 202, "{created}");
        ids.push(created["id"].as_str().expect("id").to_string());
    }
    // Partners sit opposite: random and heuristic (seats 0, 2) against a and b (1, 3).
    let (status, created) = send(ranked(vec!["random", &a, "heuristic", &b])).await;
    assert_eq!(status, 202, "{created}");
    ids.push(created["id"].as_str().expect("id").to_string());
    for id in &ids {
        let record = arena
            .wait_for(id, Duration::from_secs(120))
            .await
            .expect("ends");
        assert_eq!(record.status, MatchStatus::Finished, "{:?}", record.error);
    }

    let board = |query: &str| {
        let url = format!("{base}/v1/leaderboards/{WATTEN}{query}");
        let http = http.clone();
        async move { send(http.get(url)).await }
    };
    let (status, two_players) = board("?players=2").await;
    assert_eq!(status, 200, "{two_players}");
    assert_eq!(two_players["players"], 2);
    assert_eq!(two_players["table_sizes"], json!({"2": 3, "4": 1}));
    let twos = rows(&two_players);
    assert_eq!(twos.keys().cloned().collect::<Vec<_>>(), {
        let mut both = vec![random.clone(), heuristic.clone()];
        both.sort();
        both
    });
    assert!(twos.values().all(|row| row.4 == 3), "{two_players}");
    // The default board is the size with the most ranked matches.
    let (_, default) = board("").await;
    assert_eq!(default, two_players);

    let (_, four_players) = board("?players=4").await;
    assert_eq!(four_players["players"], 4);
    let fours = rows(&four_players);
    assert_eq!(fours.len(), 4, "{four_players}");
    assert!(fours.values().all(|row| row.4 == 1), "one match each at 4");
    // Each seat is rated from its side's result: partners share the outcome and move alike.
    for (left, right) in [(&random, &heuristic), (&a, &b)] {
        let (l, r) = (fours[left], fours[right]);
        assert_eq!((l.1, l.2, l.3), (r.1, r.2, r.3), "{four_players}");
        assert_eq!(l.0 > 25.0, r.0 > 25.0, "{four_players}");
    }
    // The two sides' outcomes mirror each other.
    let (ours, theirs) = (fours[&random], fours[&a]);
    assert_eq!(
        (ours.1, ours.2, ours.3),
        (theirs.3, theirs.2, theirs.1),
        "{four_players}"
    );
    // The 2-player board knows nothing of the 4-player table.
    assert!(!twos.contains_key(&a));

    for bad in ["?players=9", "?players=1", "?players=two"] {
        let (status, problem) = board(bad).await;
        assert_eq!(
            (status, problem["code"].as_str()),
            (400, Some("invalid_request")),
            "{bad}: {problem}"
        );
    }
    // A bot's ratings and their history, per size.
    let (_, shown) = send(http.get(format!("{base}/v1/bots/{heuristic}"))).await;
    let sizes: Vec<(Value, Value)> = shown["ratings"]
        .as_array()
        .expect("ratings")
        .iter()
        .filter(|r| r["game"] == WATTEN)
        .map(|r| (r["players"].clone(), r["played"].clone()))
        .collect();
    assert_eq!(sizes, vec![(json!(2), json!(3)), (json!(4), json!(1))]);
    let history = |query: &str| {
        let url = format!("{base}/v1/bots/{heuristic}/ratings?game={WATTEN}{query}");
        let http = http.clone();
        async move { send(http.get(url)).await.1 }
    };
    let at_four = history("&players=4").await;
    let points = at_four["ratings"].as_array().expect("ratings");
    assert_eq!(points.len(), 1, "{at_four}");
    assert_eq!(points[0]["players"], 4);
    assert!((points[0]["mu"].as_f64().unwrap() - fours[&heuristic].0).abs() < 1e-9);
    let every = history("").await;
    assert_eq!(every["ratings"].as_array().expect("ratings").len(), 4);
}

fn bot(id: &str, url: &str, builtin: bool) -> BotRecord {
    BotRecord {
        id: id.into(),
        name: format!("n{id}"),
        url: url.into(),
        games: vec!["g".into()],
        author: "a".into(),
        version: "1".into(),
        token_hash: "h".into(),
        signing_secret: "s".into(),
        previous_secret: None,
        builtin,
        transport: Transport::Url,
        paused: false,
        failures: 0,
        failing_since: None,
        retry_at: None,
        pause_reason: None,
        trial_match: None,
        created_at: now_ms(),
        history: Default::default(),
        open_to_challenges: builtin,
    }
}

/// Finishes a ranked match of `bots` with `result` as the runner does (its sides from the
/// ranking, the teams and the disqualified seats).
async fn rate(store: &SqlStore, game: &str, n: usize, bots: &[&str], result: MatchResult) {
    let bots: Vec<String> = bots.iter().map(|b| b.to_string()).collect();
    let record = MatchRecord {
        id: format!("m_{game}{n}"),
        seq: 0,
        moves_pruned: false,
        game: game.into(),
        bots: bots.clone(),
        options: json!({}),
        seed: 1,
        seed_salt: None,
        deals: vec![],
        ranked: true,
        ladder: true,
        deadline_ms: 100,
        max_faults: 3,
        clock: None,
        pace_ms: 0,
        status: MatchStatus::Queued,
        result: None,
        error: None,
        abort_reason: None,
        created_at: now_ms() + n as i64,
        started_at: None,
        finished_at: None,
        creator: Some(Creator::ladder()),
    };
    store.insert_match(&record).await.expect("insert");
    assert!(
        store
            .claim(&record.id, "w", Duration::from_secs(30))
            .await
            .expect("claim")
    );
    let (sides, forfeited) = arena::ratings::rated_sides(
        &result.ranking,
        result.teams.as_deref(),
        &result.disqualified,
        &bots,
    );
    let finish = Finish {
        faults: bots
            .iter()
            .cloned()
            .zip(result.faults.iter().copied())
            .collect(),
        result,
        sides: Some(sides),
        forfeited,
    };
    assert!(
        store
            .finish_match(&record.id, "w", &finish)
            .await
            .expect("finish")
    );
}

/// The upgrade from ratings that mixed table sizes: the rebuild replays every ranked result in
/// rating order, and gets exactly what finishing the matches wrote (forfeits against the
/// yardstick and partnerships included); the history keeps its times and gets its sizes.
#[tokio::test]
async fn the_rebuild_replays_the_ranked_results_into_the_ratings_they_wrote() {
    let dir = crate::support::temp_dir("ratings-rebuild");
    let path = dir.path().join("arena.db").to_string_lossy().to_string();
    let boards = {
        let store = SqlStore::open(&path).await.expect("open");
        for (id, url, builtin) in [
            ("b_random", "builtin:random", true),
            ("b_1", "http://one", false),
            ("b_2", "http://two", false),
            ("b_3", "http://three", false),
        ] {
            assert!(store.insert_bot(&bot(id, url, builtin)).await.expect("bot"));
        }
        let result = |ranking: Vec<Vec<usize>>, teams: Option<Vec<Vec<usize>>>, dq: Vec<usize>| {
            MatchResult {
                faults: vec![0; ranking.iter().flatten().count()],
                ranking,
                teams,
                disqualified: dq,
                ..MatchResult::default()
            }
        };
        rate(
            &store,
            "g",
            0,
            &["b_1", "b_random"],
            result(vec![vec![0], vec![1]], None, vec![]),
        )
        .await;
        rate(
            &store,
            "g",
            1,
            &["b_2", "b_1"],
            result(vec![vec![0], vec![1]], None, vec![1]),
        )
        .await;
        rate(
            &store,
            "g",
            2,
            &["b_1", "b_2", "b_random", "b_3"],
            result(
                vec![vec![1, 3], vec![0, 2]],
                Some(vec![vec![0, 2], vec![1, 3]]),
                vec![],
            ),
        )
        .await;
        rate(
            &store,
            "g",
            3,
            &["b_3", "b_2", "b_1"],
            result(vec![vec![2], vec![0, 1]], None, vec![]),
        )
        .await;
        let mut boards = Vec::new();
        for players in [2, 3, 4] {
            boards.push(store.leaderboard("g", players).await.expect("board"));
        }
        boards
    };
    assert_eq!(
        boards.iter().map(Vec::len).collect::<Vec<_>>(),
        vec![3, 3, 4]
    );
    let history = |store: SqlStore| async move {
        store
            .rating_history("b_1", "g", None, None, 50)
            .await
            .expect("history")
    };
    let before = history(SqlStore::open(&path).await.expect("reopen")).await;
    // What an older database holds: no ratings per size, a history without sizes.
    {
        let mut connection =
            <sqlx::SqliteConnection as sqlx::Connection>::connect(&format!("sqlite://{path}"))
                .await
                .expect("connect");
        sqlx::raw_sql(
            "DELETE FROM ratings; UPDATE rating_history SET players = NULL, mu_after = 0; \
             INSERT INTO rating_rebuild (id) VALUES (1)",
        )
        .execute(&mut connection)
        .await
        .expect("the upgrade's starting point");
    }
    let store = SqlStore::open(&path).await.expect("open and rebuild");
    for (players, board) in [2, 3, 4].into_iter().zip(&boards) {
        let rebuilt = store.leaderboard("g", players).await.expect("board");
        assert_eq!(rebuilt.len(), board.len());
        for (row, old) in rebuilt.iter().zip(board) {
            assert_eq!(
                (
                    &row.bot_id,
                    row.players,
                    row.played,
                    row.wins,
                    row.draws,
                    row.losses,
                    row.faults
                ),
                (
                    &old.bot_id,
                    old.players,
                    old.played,
                    old.wins,
                    old.draws,
                    old.losses,
                    old.faults
                )
            );
            assert!(
                (row.rating.mu - old.rating.mu).abs() < 1e-9,
                "{row:?} {old:?}"
            );
            assert!((row.rating.sigma - old.rating.sigma).abs() < 1e-9);
        }
    }
    let after = history(store).await;
    assert_eq!(after.len(), 4);
    for (new, old) in after.iter().zip(&before) {
        assert_eq!(
            (&new.match_id, new.at, new.players),
            (&old.match_id, old.at, old.players)
        );
        assert!((new.rating.mu - old.rating.mu).abs() < 1e-9);
    }
    // Done once.
    let again = SqlStore::open(&path).await.expect("open");
    assert_eq!(again.leaderboard("g", 4).await.expect("board").len(), 4);
}
