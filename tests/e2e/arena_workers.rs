//! Several `cardroom serve` processes on one arena database, as real processes of the binary
//! (built by `support::cardroom`).
//!
//! - PostgreSQL (`DATABASE_URL`, as `.ci/run` provides): three `--role worker` processes play
//!   60 queued ranked matches; one is killed with SIGKILL halfway. Every match finishes exactly
//!   once, the dead worker's matches are resumed from their logged moves by the others, no bot's
//!   `played` counts a match twice, and every rating equals what replaying the recorded results
//!   in their recorded order gives.
//! - SQLite: a second process on the same database file is refused with a clear message.

use crate::support::{GAME, Process, cardroom, temp_dir};
use arena::dto::CreateMatch;
use arena::ratings::{self, Rating, Side};
use arena::store::{MatchFilter, MatchRecord, MatchStatus, Store};
use arena::{Arena, ArenaConfig, Role};
use e2e::fresh_postgres;
use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::{Duration, Instant};

const MATCHES: usize = 60;

/// `cardroom serve --role worker` on `database` with these flags, its stdout dropped.
fn worker_command(database: &str, flags: &[&str]) -> std::process::Command {
    // Several workers on one machine: no admin listener (they would share its default port).
    let mut command = cardroom([
        "serve",
        "--role",
        "worker",
        "--database",
        database,
        "--admin-listen",
        "off",
    ]);
    command.args(flags).stdout(Stdio::null());
    command
}

fn worker(database: &str) -> Process {
    let flags = [
        "--no-ladder",
        "--match-concurrency",
        "4",
        "--match-lease-ms",
        "1500",
        "--log",
        "warn",
    ];
    Process::spawn(worker_command(database, &flags).stderr(Stdio::null()))
}

async fn all_matches(store: &dyn Store) -> Vec<MatchRecord> {
    store
        .matches(&MatchFilter {
            game: Some(GAME.into()),
            limit: 1000,
            ..MatchFilter::default()
        })
        .await
        .expect("matches")
}

fn finished(records: &[MatchRecord]) -> usize {
    records
        .iter()
        .filter(|m| m.status == MatchStatus::Finished)
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_workers_one_killed_every_match_finishes_once_and_ratings_replay() {
    let Some(database) = fresh_postgres().await else {
        return;
    };
    let started = Instant::now();
    // This process only queues and inspects: no workers of its own.
    let mut config = ArenaConfig::local(database.clone());
    config.role = Role::Api;
    let queue = Arena::open(config).await.expect("open the arena");
    let bots = queue.register_builtins().await.expect("built-in bots");
    let mut ids = Vec::new();
    for i in 0..MATCHES {
        // Alternate the seats so both bots play both.
        let seats = if i % 2 == 0 {
            vec![bots[0].clone(), bots[1].clone()]
        } else {
            vec![bots[1].clone(), bots[0].clone()]
        };
        let created = queue
            .create_match(CreateMatch {
                game: GAME.into(),
                bots: seats,
                ranked: Some(true),
                ..CreateMatch::default()
            })
            .await
            .expect("queue a match");
        ids.push(created.id);
    }
    let store = queue.store().clone();
    let mut workers: Vec<Process> = (0..3).map(|_| worker(&database)).collect();

    // Halfway, kill one worker with SIGKILL while it holds matches.
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut victim = workers.remove(0);
    let prefix = format!("w_{}_", victim.0.id());
    loop {
        assert!(Instant::now() < deadline, "the workers made no progress");
        let records = all_matches(&*store).await;
        let holds = store
            .lease_holders()
            .await
            .expect("leases")
            .iter()
            .any(|(_, owner)| owner.starts_with(&prefix));
        if finished(&records) >= MATCHES / 2 && holds {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    victim.0.kill().expect("SIGKILL the worker");
    victim.0.wait().expect("reap");
    let killed_at = Instant::now();
    // What the dead worker left: running matches under its lease, with their logged moves.
    let mut stranded = Vec::new();
    for (id, owner) in store.lease_holders().await.expect("leases") {
        if owner.starts_with(&prefix) {
            let logged = store.moves(&id).await.expect("moves");
            stranded.push((id, logged));
        }
    }
    assert!(
        !stranded.is_empty(),
        "the killed worker held matches when it died"
    );

    // The two others finish everything, the dead worker's matches included.
    loop {
        let records = all_matches(&*store).await;
        assert!(
            records.iter().all(|m| m.status != MatchStatus::Aborted),
            "no match is aborted"
        );
        if finished(&records) == MATCHES {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "{} of {MATCHES} matches finished",
            finished(&records)
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let recovered_in = killed_at.elapsed();
    for (id, logged_at_kill) in &stranded {
        let moves = store.moves(id).await.expect("moves");
        assert_eq!(
            &moves[..logged_at_kill.len()],
            &logged_at_kill[..],
            "the moves logged before the kill are kept, and the match resumed from them"
        );
    }

    // Exactly once: every match has each index once, one rating update per seat, and its
    // result entered the rating order once.
    let mut records = HashMap::new();
    for id in &ids {
        let moves = store.moves(id).await.expect("moves");
        assert!(!moves.is_empty());
        assert!(moves.iter().enumerate().all(|(i, m)| m.index == i));
        assert_eq!(store.rating_history_count(id).await.expect("history"), 2);
        let record = store.get_match(id).await.expect("get").expect("match");
        records.insert(id.clone(), record);
    }
    let order = store.rating_order(GAME).await.expect("order");
    assert_eq!(order.len(), MATCHES, "each result moved the ratings once");
    let mut distinct = order.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), MATCHES);

    // Replaying the recorded results in their recorded order gives the stored ratings.
    let mut replayed: HashMap<String, Rating> = HashMap::new();
    let mut played: HashMap<String, u64> = HashMap::new();
    for id in &order {
        let record = &records[id];
        let result = record.result.as_ref().expect("a result");
        let sides: Vec<(Vec<String>, usize)> =
            ratings::sides_of(&result.ranking, result.teams.as_deref())
                .into_iter()
                .map(|(seats, place)| {
                    (
                        seats.iter().map(|s| record.bots[*s].clone()).collect(),
                        place,
                    )
                })
                .collect();
        let before: Vec<Side> = sides
            .iter()
            .map(|(bots, place)| Side {
                members: bots
                    .iter()
                    .map(|b| replayed.get(b).copied().unwrap_or_default())
                    .collect(),
                place: *place,
            })
            .collect();
        let after = ratings::update(&before);
        for ((bots, _), new) in sides.iter().zip(after) {
            for (bot, rating) in bots.iter().zip(new) {
                replayed.insert(bot.clone(), rating);
                *played.entry(bot.clone()).or_default() += 1;
            }
        }
    }
    let board = store.leaderboard(GAME, 2).await.expect("leaderboard");
    assert_eq!(board.len(), 2);
    for row in &board {
        assert_eq!(row.played, MATCHES as u64, "played counts each match once");
        assert_eq!(played[&row.bot_id], MATCHES as u64);
        assert_eq!(
            row.rating, replayed[&row.bot_id],
            "the stored rating is the replay of the recorded results"
        );
    }
    drop(workers);
    eprintln!(
        "{MATCHES} matches on 3 workers, one killed: {} matches stranded, all finished {:.1} s \
         after the kill; test {:.1} s",
        stranded.len(),
        recovered_in.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn a_second_process_on_one_sqlite_database_is_refused_with_a_clear_message() {
    // Removed when the test ends, passing or failing.
    let dir = temp_dir("sqlite-lock");
    let database = dir.path().join("arena.db").to_string_lossy().to_string();
    let serve = |extra: &[&str]| {
        let mut command = cardroom([
            "serve",
            "--port",
            "0",
            "--no-ladder",
            "--database",
            &database,
        ]);
        command
            .args(extra)
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        command
    };
    let mut first = Process::spawn(&mut serve(&[]));
    // Wait until the first one listens (it holds the database from then on).
    let stderr = first.0.stderr.take().expect("stderr");
    let mut lines = BufReader::new(stderr).lines();
    loop {
        let line = lines
            .next()
            .expect("the first server logs that it listens")
            .expect("a log line");
        if line.contains("cardroom listening") {
            break;
        }
    }
    let second = serve(&[]).output().expect("second process");
    assert!(!second.status.success(), "the second process exits");
    let message = String::from_utf8_lossy(&second.stderr);
    assert!(
        message.contains("in use by another cardroom process") && message.contains("PostgreSQL"),
        "{message}"
    );
    // --role worker on SQLite is refused up front, whatever else runs.
    drop(first);
    let worker = serve(&["--role", "worker"]).output().expect("worker");
    assert!(!worker.status.success());
    assert!(
        String::from_utf8_lossy(&worker.stderr).contains("needs PostgreSQL"),
        "{}",
        String::from_utf8_lossy(&worker.stderr)
    );
}

/// A `--role worker` process with the ladder on, its log lines sent to `lines` as
/// `(worker, line)`.
fn ladder_worker(
    database: &str,
    index: usize,
    lines: std::sync::mpsc::Sender<(usize, String)>,
) -> Process {
    let flags = [
        "--ladder-interval-ms",
        "200",
        "--match-concurrency",
        "2",
        // A killed worker's matches come back soon, so the ladder's bots are free again.
        "--match-lease-ms",
        "1500",
        "--log",
        "info",
    ];
    let mut worker = Process::spawn(worker_command(database, &flags).stderr(Stdio::piped()));
    let stderr = worker.0.stderr.take().expect("stderr");
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if lines.send((index, line)).is_err() {
                return;
            }
        }
    });
    worker
}

/// Holders of the ladder leader's advisory lock (key 7262, `LADDER_LOCK` in the store) on
/// `database` right now.
async fn advisory_locks(database: &str) -> i64 {
    use sqlx::Connection as _;
    let mut connection = sqlx::PgConnection::connect(database)
        .await
        .expect("connect");
    sqlx::query_scalar(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted \
         AND classid = 0 AND objid = 7262 AND objsubid = 1 \
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
    )
    .fetch_one(&mut connection)
    .await
    .expect("pg_locks")
}

/// Issue 14: exactly one ladder scheduler runs at a time across workers, and when its process
/// dies (SIGKILL) another worker takes over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_ladder_leader_at_a_time_and_another_takes_over_when_it_is_killed() {
    let Some(database) = fresh_postgres().await else {
        return;
    };
    let mut config = ArenaConfig::local(database.clone());
    config.role = Role::Api;
    let arena = Arena::open(config).await.expect("open the arena");
    arena.register_builtins().await.expect("built-in bots");
    let store = arena.store().clone();
    let (sender, lines) = std::sync::mpsc::channel();
    let mut workers: Vec<Option<Process>> = (0..3)
        .map(|i| Some(ladder_worker(&database, i, sender.clone())))
        .collect();
    let leads = "this process now schedules the ladder";

    // Waits for the next worker to announce it leads (and for nothing else to).
    let next_leader = |lines: &std::sync::mpsc::Receiver<(usize, String)>| {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match lines.recv_timeout(left) {
                Ok((worker, line)) if line.contains(leads) => return worker,
                Ok(_) => {}
                Err(_) => panic!("no worker took the ladder in 30 s"),
            }
        }
    };
    let first = next_leader(&lines);
    // For a while: one lock, no second leader, and the leader schedules ranked matches.
    let watch_until = Instant::now() + Duration::from_secs(3);
    while Instant::now() < watch_until {
        assert_eq!(advisory_locks(&database).await, 1, "one leader's lock");
        while let Ok((worker, line)) = lines.try_recv() {
            assert!(
                !line.contains(leads),
                "worker {worker} leads while worker {first} does"
            );
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let scheduled = all_matches(&*store).await.len();
    assert!(scheduled > 0, "the leader schedules ladder matches");

    // SIGKILL the leader: its session ends, and another worker takes the ladder.
    let mut killed = workers[first].take().expect("the leader");
    killed.0.kill().expect("SIGKILL the leader");
    killed.0.wait().expect("reap");
    let killed_at = Instant::now();
    let second = next_leader(&lines);
    assert_ne!(second, first, "a live worker takes over");
    let took_over_in = killed_at.elapsed();
    let watch_until = Instant::now() + Duration::from_secs(2);
    while Instant::now() < watch_until {
        assert_eq!(advisory_locks(&database).await, 1, "one leader's lock");
        while let Ok((worker, line)) = lines.try_recv() {
            assert!(!line.contains(leads), "worker {worker} leads too");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // The new leader schedules once the bots are free (the killed worker's matches are resumed
    // by the others when their leases run out).
    let schedules_until = Instant::now() + Duration::from_secs(60);
    let mut later = all_matches(&*store).await.len();
    while later <= scheduled && Instant::now() < schedules_until {
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert_eq!(advisory_locks(&database).await, 1, "one leader's lock");
        later = all_matches(&*store).await.len();
    }
    assert!(
        later > scheduled,
        "the new leader schedules: {later} > {scheduled}"
    );
    drop(workers);
    eprintln!(
        "ladder: worker {first} led, was killed; worker {second} took over in {:.2} s",
        took_over_in.as_secs_f64()
    );
}
