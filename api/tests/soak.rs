//! Soak: `cardroom serve` as the README starts it (default flags: SQLite, the built-in bots, the
//! ladder on), for `CARDROOM_SOAK_SECS` seconds (20 by default, to keep CI short; set it for a
//! longer soak), with a reader hitting every endpoint the pages read, one request after another,
//! the whole time. It checks that nothing errors, that every read answers (within a 10 s timeout:
//! a hang fails, speed is measured, not asserted), that the write-ahead log stays bounded, and
//! that the ladder keeps its pace; it prints matches per minute, bytes per move, the log's peak
//! and the reads' p50/p99 (on stderr, shown even when the test passes).

use sqlx::Connection as _;
use std::collections::BTreeMap;
use std::io::Write as _;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The server process, killed when dropped (a failing test leaves nothing behind).
struct Process(Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port()
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let index = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[index].as_secs_f64() * 1000.0
}

fn file_len(path: &std::path::Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn defaults_soak_with_the_ladder_and_a_reader_bounded_wal_no_errors() {
    let seconds: u64 = std::env::var("CARDROOM_SOAK_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let dir = tempfile::Builder::new()
        .prefix("cardroom-soak-")
        .tempdir()
        .expect("temp dir");
    let database = dir.path().join("cardroom.db");
    let wal = dir.path().join("cardroom.db-wal");
    let log = dir.path().join("server.log");
    let port = free_port();
    // The README's command with its defaults; only the port and the file's place differ.
    let server = Process(
        Command::new(env!("CARGO_BIN_EXE_cardroom"))
            .args(["serve", "--port", &port.to_string(), "--database"])
            .arg(&database)
            .env_remove("CARDROOM_DATABASE")
            .env_remove("DATABASE_URL")
            .stdout(Stdio::from(std::fs::File::create(&log).expect("log")))
            .stderr(Stdio::null())
            .spawn()
            .expect("start cardroom serve"),
    );
    let base = format!("http://127.0.0.1:{port}");
    arena::client::install_crypto_provider();
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .expect("client");
    let up = Instant::now();
    while client.get(format!("{base}/healthz")).send().await.is_err() {
        assert!(
            up.elapsed() < Duration::from_secs(60),
            "the server did not start"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let started = Instant::now();
    let games: Vec<String> = client
        .get(format!("{base}/v1/games"))
        .send()
        .await
        .expect("games")
        .json::<serde_json::Value>()
        .await
        .expect("json")
        .as_array()
        .expect("games")
        .iter()
        .filter_map(|g| g["id"].as_str().map(String::from))
        .collect();
    assert!(!games.is_empty());

    // The log's size, sampled every 100 ms.
    let done = Arc::new(AtomicBool::new(false));
    let wal_peak = Arc::new(AtomicU64::new(0));
    let sampler = {
        let (done, wal_peak, wal) = (done.clone(), wal_peak.clone(), wal.clone());
        tokio::spawn(async move {
            while !done.load(Ordering::Relaxed) {
                wal_peak.fetch_max(file_len(&wal), Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        })
    };

    // The reader: every endpoint the pages read, round after round.
    let mut latencies: BTreeMap<&'static str, Vec<Duration>> = BTreeMap::new();
    let mut errors: Vec<String> = Vec::new();
    let mut round = 0usize;
    let get = |path: String| {
        let client = client.clone();
        let url = format!("{base}{path}");
        async move {
            let begun = Instant::now();
            let reply = client.get(&url).send().await;
            let answer = match reply {
                Ok(reply) if reply.status().is_success() => {
                    reply.bytes().await.map_err(|e| format!("{url}: {e}"))
                }
                Ok(reply) => Err(format!("{url}: {}", reply.status())),
                Err(error) => Err(format!("{url}: {error}")),
            };
            (begun.elapsed(), answer)
        }
    };
    while started.elapsed() < Duration::from_secs(seconds) {
        let game = &games[round % games.len()];
        round += 1;
        let (took, bots) = get("/v1/bots".into()).await;
        latencies.entry("/v1/bots").or_default().push(took);
        let bots: serde_json::Value = match bots {
            Ok(bytes) => serde_json::from_slice(&bytes).expect("bots json"),
            Err(error) => {
                errors.push(error);
                continue;
            }
        };
        let bot_ids: Vec<String> = bots["bots"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|b| b["id"].as_str().map(String::from))
            .collect();
        let bot = &bot_ids[round % bot_ids.len()];
        let (took, listed) = get("/v1/matches?limit=50".into()).await;
        latencies.entry("/v1/matches").or_default().push(took);
        let latest = listed
            .as_ref()
            .ok()
            .and_then(|bytes| serde_json::from_slice::<serde_json::Value>(bytes).ok())
            .and_then(|list| list["matches"][0]["id"].as_str().map(String::from));
        if let Err(error) = listed {
            errors.push(error);
        }
        let mut reads: Vec<(&'static str, String)> = vec![
            ("/v1/bots/{id}", format!("/v1/bots/{bot}")),
            ("/v1/matches?bot=", format!("/v1/matches?bot={bot}")),
            ("/v1/matches?game=", format!("/v1/matches?game={game}")),
            (
                "/v1/leaderboards/{game}",
                format!("/v1/leaderboards/{game}"),
            ),
            ("/v1/tournaments", "/v1/tournaments".into()),
            ("/ (page)", "/".into()),
            ("/matches (page)", "/matches".into()),
        ];
        if let Some(id) = latest {
            reads.push(("/v1/matches/{id}", format!("/v1/matches/{id}")));
            reads.push((
                "/v1/matches/{id}/frames",
                format!("/v1/matches/{id}/frames"),
            ));
        }
        for (name, path) in reads {
            let (took, answer) = get(path).await;
            latencies.entry(name).or_default().push(took);
            if let Err(error) = answer {
                errors.push(error);
            }
        }
    }
    done.store(true, Ordering::Relaxed);
    sampler.await.expect("sampler");
    let elapsed = started.elapsed();
    drop(server);

    // The figures, from the database the server left.
    let mut db = sqlx::SqliteConnection::connect(&format!("sqlite:{}", database.display()))
        .await
        .expect("open the database");
    let (matches, ladder): (i64, i64) =
        sqlx::query_as("SELECT COUNT(*), COALESCE(SUM(ladder), 0) FROM matches")
            .fetch_one(&mut db)
            .await
            .expect("count matches");
    let moves: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM match_moves")
        .fetch_one(&mut db)
        .await
        .expect("count moves");
    let (pages, page_size): (i64, i64) = (
        sqlx::query_scalar("PRAGMA page_count")
            .fetch_one(&mut db)
            .await
            .expect("pages"),
        sqlx::query_scalar("PRAGMA page_size")
            .fetch_one(&mut db)
            .await
            .expect("page size"),
    );
    drop(db);
    let minutes = elapsed.as_secs_f64() / 60.0;
    let all: Vec<Duration> = {
        let mut all: Vec<Duration> = latencies.values().flatten().copied().collect();
        all.sort();
        all
    };
    // Straight to the process's stderr: the test harness captures `println!` of a passing test,
    // and these figures belong in every run's output.
    let mut out = std::io::stderr();
    let _ = writeln!(
        out,
        "soak {:.0} s: {matches} matches ({:.1}/min, {ladder} from the ladder), {moves} moves, \
         {} bytes stored per move ({}-byte pages), write-ahead log peak {:.1} MiB, {} reads, \
         p50 {:.1} ms, p99 {:.1} ms",
        elapsed.as_secs_f64(),
        matches as f64 / minutes,
        (pages * page_size) / moves.max(1),
        page_size,
        wal_peak.load(Ordering::Relaxed) as f64 / 1_048_576.0,
        all.len(),
        percentile(&all, 0.5),
        percentile(&all, 0.99),
    );
    for (name, took) in &mut latencies {
        took.sort();
        let _ = writeln!(
            out,
            "  {name:<26} {:>5} reads  p50 {:>7.1} ms  p99 {:>7.1} ms",
            took.len(),
            percentile(took, 0.5),
            percentile(took, 0.99)
        );
    }
    let server_log = std::fs::read_to_string(&log).unwrap_or_default();
    let failures: Vec<&str> = server_log
        .lines()
        .filter(|line| line.contains("ERROR"))
        .take(5)
        .collect();

    assert!(
        errors.is_empty(),
        "reads failed: {:?}",
        &errors[..errors.len().min(5)]
    );
    assert!(
        failures.is_empty(),
        "the server logged errors: {failures:#?}"
    );
    assert!(matches > 0 && moves > 0, "the ladder played");
    // The log stays far below its limit: the arena checkpoints and truncates it.
    assert!(
        wal_peak.load(Ordering::Relaxed) < arena::store::sql::WAL_SIZE_LIMIT,
        "write-ahead log peak {} bytes",
        wal_peak.load(Ordering::Relaxed)
    );
    // The pace: each game id starts at most one match per 60 s / rate, plus the first.
    let rate = f64::from(arena::config::LADDER_MATCHES_PER_MINUTE);
    let bound = games.len() as f64 * (1.0 + rate * minutes.ceil());
    assert!(
        (ladder as f64) <= bound,
        "{ladder} ladder matches in {minutes:.1} min, over the pace's bound {bound}"
    );
}
