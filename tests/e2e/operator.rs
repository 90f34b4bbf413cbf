//! An arena as an operator runs it, as real processes of the binary:
//! - a `--role worker` on PostgreSQL serves `/livez`, `/readyz` and `/metrics` on its admin
//!   listener, counting the matches it plays; its connections carry `application_name`
//!   `cardroom-worker`; its database URL comes from `CARDROOM_DATABASE_URL_FILE` and
//!   `CARDROOM_NO_LADDER=1` turns the ladder off;
//! - a server whose PostgreSQL is stopped answers requests that need it with 503
//!   `database_unavailable` within 5 s, is not ready but live, and is ready again once the
//!   database is back; its request log lines carry the client's address.

use crate::cluster::Cluster;
use crate::support::{GAME, Process, cardroom, free_port, temp_dir};
use arena::dto::CreateMatch;
use arena::{Arena, ArenaConfig, Role};
use e2e::fresh_postgres;
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// GETs `url` until it answers (the process may still be starting): status and body.
async fn get_when_up(http: &reqwest::Client, url: &str) -> (u16, String) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        match http.get(url).send().await {
            Ok(response) => {
                let status = response.status().as_u16();
                return (status, response.text().await.expect("body"));
            }
            Err(error) if Instant::now() < deadline => {
                drop(error);
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(error) => panic!("{url} never answered: {error}"),
        }
    }
}

/// The value of the sample `name` (its whole name and labels) in an exposition; 0 if absent.
fn sample(text: &str, name: &str) -> f64 {
    text.lines()
        .find_map(|line| line.strip_prefix(name)?.trim().parse::<f64>().ok())
        .unwrap_or(0.0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_serves_health_and_its_metrics_on_the_admin_listener() {
    let Some(database) = fresh_postgres().await else {
        return;
    };
    let dir = temp_dir("admin");
    let url_file = dir.path().join("database-url");
    std::fs::write(&url_file, format!("{database}\n")).expect("url file");
    let port = free_port();
    let mut command = cardroom([
        "serve",
        "--role",
        "worker",
        "--admin-listen",
        &format!("127.0.0.1:{port}"),
        "--log",
        "warn",
    ]);
    command
        .env("CARDROOM_DATABASE_URL_FILE", &url_file)
        .env("CARDROOM_NO_LADDER", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let _worker = Process::spawn(&mut command);
    let admin = format!("http://127.0.0.1:{port}");
    arena::client::install_crypto_provider();
    let http = reqwest::Client::new();
    assert_eq!(
        get_when_up(&http, &format!("{admin}/livez")).await,
        (200, "{\"status\":\"ok\"}".into())
    );
    let (status, ready) = get_when_up(&http, &format!("{admin}/readyz")).await;
    assert_eq!(status, 200, "{ready}");

    // A match queued by an API process is played by the worker, which counts it.
    let mut config = ArenaConfig::local(database.clone());
    config.role = Role::Api;
    let queue = Arena::open(config).await.expect("open the arena");
    let bots = queue.register_builtins().await.expect("built-in bots");
    let id = queue
        .create_match(CreateMatch {
            game: GAME.into(),
            bots: vec![bots[0].clone(), bots[1].clone()],
            seed: Some(3),
            ..CreateMatch::default()
        })
        .await
        .expect("queue")
        .id;
    queue
        .wait_for(&id, Duration::from_secs(120))
        .await
        .expect("the worker plays it");
    let (status, text) = get_when_up(&http, &format!("{admin}/metrics")).await;
    assert_eq!(status, 200);
    let started = format!("cardroom_arena_matches_started_total{{game=\"{GAME}\"}}");
    assert_eq!(sample(&text, &started), 1.0, "{text}");
    assert!(sample(&text, "cardroom_db_pool_max_connections") >= 1.0);
    assert!(sample(&text, "process_resident_memory_bytes") > 0.0);
    assert!(text.contains("cardroom_build_info{version="), "{text}");
    // No ladder: `CARDROOM_NO_LADDER=1` was read as true.
    assert_eq!(sample(&text, "cardroom_arena_ladder_leader"), 0.0);

    // The worker's connections say who they are.
    let mut connection = <sqlx::PgConnection as sqlx::Connection>::connect(&database)
        .await
        .expect("connect");
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT DISTINCT application_name FROM pg_stat_activity WHERE datname = current_database()",
    )
    .fetch_all(&mut connection)
    .await
    .expect("pg_stat_activity");
    for role in ["cardroom-worker", "cardroom-api"] {
        assert!(names.iter().any(|n| n == role), "{role} not in {names:?}");
    }
}

/// `cardroom serve` on `database`, port `port`, logging JSON lines into `log`.
fn serve_logged(database: &str, port: u16, log: &Arc<Mutex<Vec<String>>>) -> Process {
    let mut command = cardroom([
        "serve",
        "--database",
        database,
        "--port",
        &port.to_string(),
        "--log-format",
        "json",
    ]);
    command
        .env("CARDROOM_NO_LADDER", "true")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut process = Process::spawn(&mut command);
    let stderr = process.0.stderr.take().expect("stderr");
    let log = log.clone();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            log.lock().expect("log").push(line);
        }
    });
    process
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_postgresql_stopped_requests_get_503_within_5_s_and_readiness_follows() {
    let Some(cluster) = Cluster::start("outage") else {
        return;
    };
    let port = free_port();
    let log = Arc::new(Mutex::new(Vec::new()));
    let _server = serve_logged(&cluster.url, port, &log);
    let base = format!("http://127.0.0.1:{port}");
    // The contract: an answer within 5 s, whatever the database does.
    arena::client::install_crypto_provider();
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(5))
        .build()
        .expect("client");
    let get = |path: &str| {
        let request = http.get(format!("{base}{path}"));
        async move { request.send().await.expect("an answer within 5 s") }
    };
    let (status, _) = get_when_up(&http, &format!("{base}/readyz")).await;
    assert_eq!(status, 200);
    assert_eq!(get("/v1/bots").await.status(), 200);

    cluster.halt();
    let refused = get("/v1/bots").await;
    assert_eq!(refused.status(), 503);
    assert_eq!(refused.headers()["retry-after"], "5");
    let problem: Value = refused.json().await.expect("problem");
    assert_eq!(problem["code"], "database_unavailable", "{problem}");
    let not_ready = get("/readyz").await;
    assert_eq!(not_ready.status(), 503);
    let body: Value = not_ready.json().await.expect("json");
    assert_eq!(body["code"], "not_ready", "{body}");
    for live in ["/livez", "/healthz"] {
        assert_eq!(get(live).await.status(), 200, "{live}");
    }

    // The database is back: so is readiness, and the requests that need it.
    cluster.resume();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let ready = http.get(format!("{base}/readyz")).send().await;
        if ready.is_ok_and(|r| r.status() == 200) {
            break;
        }
        assert!(Instant::now() < deadline, "never ready again");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(get("/v1/bots").await.status(), 200);
    let metrics = get("/metrics").await.text().await.expect("text");
    assert_eq!(
        sample(
            &metrics,
            "cardroom_http_problem_responses_total{code=\"database_unavailable\"}"
        ),
        1.0
    );

    // Each request's log line names its client.
    let lines = log.lock().expect("log").clone();
    let finished = lines
        .iter()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .find(|line| {
            line["fields"]["message"] == "request finished" && line["fields"]["status"] == 503
        })
        .unwrap_or_else(|| panic!("no request line in {lines:?}"));
    assert_eq!(finished["span"]["client"], "127.0.0.1", "{finished}");
}
