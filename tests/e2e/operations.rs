//! Operations through the real server: a client's `x-request-id` is kept; `/metrics` carries
//! the arena's families once a match has been played, in the format `Accept` asks; `/livez`,
//! `/readyz` and `/healthz`; the sample Grafana dashboard asks only for metrics that exist.

use crate::support::{ServerOptions, open_arena, spawn_app};
use serde_json::{Value, json};
use std::time::Duration;

#[tokio::test]
async fn a_clients_request_id_is_echoed_and_a_bad_one_is_replaced() {
    let app = spawn_app().await;
    let response = app
        .client
        .get(format!("{}/v1/games/no_such_game", app.base))
        .header("x-request-id", "client-7f3a-0001")
        .send()
        .await
        .expect("send");
    assert_eq!(response.status().as_u16(), 404);
    assert_eq!(response.headers()["x-request-id"], "client-7f3a-0001");
    let response = app
        .client
        .get(format!("{}/healthz", app.base))
        .header("x-request-id", "x".repeat(200))
        .send()
        .await
        .expect("send");
    let id = response.headers()["x-request-id"]
        .to_str()
        .expect("ascii")
        .to_string();
    assert_eq!(id.len(), 32, "{id}");
    assert!(id.bytes().all(|b| b.is_ascii_hexdigit()), "{id}");
}

#[tokio::test]
async fn metrics_count_the_arenas_matches_moves_and_bot_calls() {
    let app = ServerOptions::default()
        .arena("ops")
        .builtins()
        .spawn()
        .await;
    let (base, http) = (&app.base, &app.client);

    let created: Value = http
        .post(format!("{base}/v1/matches"))
        .json(&json!({"game": "twenty_two", "bots": ["random", "heuristic"], "seed": 9}))
        .send()
        .await
        .expect("send")
        .json()
        .await
        .expect("json");
    let id = created["id"].as_str().expect("match id").to_string();
    let mut view = Value::Null;
    for _ in 0..400 {
        view = http
            .get(format!("{base}/v1/matches/{id}"))
            .send()
            .await
            .expect("send")
            .json()
            .await
            .expect("json");
        if view["status"] == "finished" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(view["status"], "finished", "{view}");
    let moves = view["moves"].as_array().map_or(0, Vec::len);
    let text = http
        .get(format!("{base}/metrics"))
        .header("accept", OPENMETRICS)
        .send()
        .await
        .expect("send")
        .text()
        .await
        .expect("text");
    for line in [
        "cardroom_arena_matches_started_total{game=\"twenty_two\"} 1".to_string(),
        "cardroom_arena_matches_finished_total{game=\"twenty_two\",outcome=\"clean\"} 1"
            .to_string(),
        format!("cardroom_arena_moves_total{{game=\"twenty_two\"}} {moves}"),
        "cardroom_arena_lease_resumes_total 0".to_string(),
        "cardroom_arena_queue_depth{class=\"unranked\",status=\"queued\"} 0".to_string(),
    ] {
        assert!(text.lines().any(|l| l == line), "{line} missing in\n{text}");
    }
    // Built-in bots' moves are timed apart, by bot: no registered bot's series.
    let builtin_calls: u64 = ["random", "heuristic"]
        .iter()
        .map(|bot| {
            sample(
                &text,
                &format!("cardroom_arena_builtin_call_duration_seconds_count{{bot=\"{bot}\"}}"),
            )
        })
        .sum();
    assert_eq!(builtin_calls, moves as u64);
    assert!(!text.contains("cardroom_arena_bot_call_duration_seconds_count"));
    // OpenMetrics: a counter family is typed under its name without `_total`, and the
    // exposition (the API's and the arena's registries) ends with one `# EOF`.
    assert!(
        text.contains("# TYPE cardroom_arena_faults counter"),
        "{text}"
    );
    assert!(text.ends_with("# EOF\n"), "{text}");
    assert_eq!(text.matches("# EOF").count(), 1, "{text}");
    app.stop().await;
}

/// The `Accept` header Prometheus scrapes with: OpenMetrics first.
const OPENMETRICS: &str = "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

/// The value of the sample `name` (its whole name and labels) in an exposition; 0 if absent.
fn sample(text: &str, name: &str) -> u64 {
    text.lines()
        .find_map(|line| line.strip_prefix(name)?.trim().parse::<f64>().ok())
        .map_or(0, |value| value as u64)
}

#[tokio::test]
async fn metrics_answer_in_the_format_accept_asks_for() {
    let app = ServerOptions::default().arena_in_memory().spawn().await;
    let get = |accept: Option<&'static str>| {
        let mut request = app.client.get(format!("{}/metrics", app.base));
        if let Some(accept) = accept {
            request = request.header("accept", accept);
        }
        async move {
            let response = request.send().await.expect("send");
            assert_eq!(response.status(), 200);
            assert_eq!(response.headers()["vary"], "Accept");
            let content_type = response.headers()["content-type"]
                .to_str()
                .expect("ascii")
                .to_string();
            (content_type, response.text().await.expect("text"))
        }
    };
    // A request, so its family has a series (a family without one is not written).
    assert_eq!(app.get("/healthz").await.status, 200);
    // The Prometheus text format 0.0.4 by default and when asked: counters typed under the
    // name their samples carry, no OpenMetrics-only lines.
    for accept in [None, Some("text/plain;version=0.0.4"), Some("*/*")] {
        let (content_type, text) = get(accept).await;
        assert_eq!(content_type, "text/plain; version=0.0.4; charset=utf-8");
        for line in [
            "# TYPE cardroom_http_requests_total counter",
            "# TYPE cardroom_arena_faults_total counter",
            "# TYPE cardroom_build_info gauge",
            "# TYPE process_cpu_seconds_total counter",
            "# TYPE process_resident_memory_bytes gauge",
            "# TYPE cardroom_db_pool_slow_acquires_total counter",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} missing in\n{text}");
        }
        let build = format!(
            "cardroom_build_info{{version=\"{}\"}} 1",
            env!("CARGO_PKG_VERSION")
        );
        assert!(text.lines().any(|l| l == build), "{build}\n{text}");
        assert!(
            !text.contains("# EOF") && !text.contains("# UNIT"),
            "{text}"
        );
    }
    // OpenMetrics when it ranks first, as Prometheus asks.
    let (content_type, text) = get(Some(OPENMETRICS)).await;
    assert_eq!(
        content_type,
        "application/openmetrics-text; version=1.0.0; charset=utf-8"
    );
    assert!(
        text.contains("# TYPE cardroom_arena_faults counter\n"),
        "{text}"
    );
    assert!(text.contains("# TYPE cardroom_build info\n"), "{text}");
    assert!(text.ends_with("# EOF\n") && text.matches("# EOF").count() == 1);
    // The pool and the problems by code are there from the start.
    for line in [
        "cardroom_db_pool_max_connections 1",
        "cardroom_http_problem_responses_total{code=\"database_unavailable\"} 0",
    ] {
        assert!(text.lines().any(|l| l == line), "{line} missing in\n{text}");
    }
    // A problem response is counted by its code.
    assert_eq!(app.get("/v1/no/such/route").await.status, 404);
    let (_, text) = get(None).await;
    assert_eq!(
        sample(
            &text,
            "cardroom_http_problem_responses_total{code=\"not_found\"}"
        ),
        1
    );
    app.stop().await;
}

#[tokio::test]
async fn livez_readyz_and_healthz_tell_the_process_its_database_and_its_version() {
    let (arena, dir) = open_arena("ready").await;
    let running = api::startup::build(api::startup::ServeConfig {
        port: 0,
        workers: Some(1),
        handle_signals: false,
        arena: Some(arena),
        ..api::startup::ServeConfig::default()
    })
    .expect("bind");
    let handle = running.server.handle();
    tokio::spawn(running.server);
    let base = format!("http://{}", running.addr);
    let http = reqwest::Client::new();
    let get = |path: &str| {
        let request = http.get(format!("{base}{path}"));
        async move {
            let response = request.send().await.expect("send");
            let status = response.status().as_u16();
            (status, response.json::<Value>().await.expect("json"))
        }
    };
    assert_eq!(get("/livez").await, (200, json!({"status": "ok"})));
    let (status, health) = get("/healthz").await;
    assert_eq!(status, 200);
    assert_eq!(health["version"], env!("CARGO_PKG_VERSION"));
    let ready = json!({"status": "ready", "database": "ok", "migrations": "current", "pending_migrations": []});
    assert_eq!(get("/readyz").await, (200, ready.clone()));

    // A migration of this build missing from the database: not ready, saying which.
    let database = dir.path().join("arena.db");
    let mut connection = <sqlx::SqliteConnection as sqlx::Connection>::connect(&format!(
        "sqlite:{}",
        database.display()
    ))
    .await
    .expect("a second connection");
    let (latest,): (i64,) = sqlx::query_as("SELECT MAX(version) FROM _sqlx_migrations")
        .fetch_one(&mut connection)
        .await
        .expect("latest");
    sqlx::query("UPDATE _sqlx_migrations SET success = FALSE WHERE version = $1")
        .bind(latest)
        .execute(&mut connection)
        .await
        .expect("mark it failed");
    let (status, body) = get("/readyz").await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["code"], "not_ready");
    assert!(
        body["detail"]
            .as_str()
            .is_some_and(|d| d.contains(&format!("[{latest}]"))),
        "{body}"
    );
    // Liveness does not read the database.
    assert_eq!(get("/livez").await.0, 200);
    sqlx::query("UPDATE _sqlx_migrations SET success = TRUE WHERE version = $1")
        .bind(latest)
        .execute(&mut connection)
        .await
        .expect("restore");
    assert_eq!(get("/readyz").await, (200, ready));
    handle.stop(true).await;
}

/// Every metric the sample dashboard's queries name (`docs/grafana-dashboard.json`) is one this
/// server exposes: its family, or a histogram's `_bucket`, `_sum` or `_count`.
#[tokio::test]
async fn the_grafana_dashboard_asks_only_for_metrics_that_exist() {
    let path = crate::support::workspace_root().join("docs/grafana-dashboard.json");
    let dashboard: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("the dashboard"))
            .expect("JSON");
    let mut exprs = Vec::new();
    for panel in dashboard["panels"].as_array().expect("panels") {
        for target in panel["targets"].as_array().into_iter().flatten() {
            exprs.push(target["expr"].as_str().expect("an expr").to_string());
        }
    }
    assert!(exprs.len() >= 10, "{exprs:?}");
    // A match with a registered bot, so every family has a series (one without is not written).
    let app = ServerOptions::default()
        .arena("dashboard")
        .builtins()
        .spawn()
        .await;
    let bot = app.register_url_bot("dashboard bot", "twenty_two").await;
    app.play(&json!({"game": "twenty_two", "bots": [bot, "heuristic"], "seed": 2}))
        .await;
    let (_, text) = app.get_text("/metrics").await;
    // The 0.0.4 format types each family under the name its samples carry (`_total` included).
    let families: Vec<&str> = text
        .lines()
        .filter_map(|line| line.strip_prefix("# TYPE ")?.split(' ').next())
        .collect();
    let known = |name: &str| {
        families.contains(&name)
            || ["_bucket", "_sum", "_count"].iter().any(|suffix| {
                name.strip_suffix(suffix)
                    .is_some_and(|family| families.contains(&family))
            })
    };
    for expr in &exprs {
        let named: Vec<&str> = expr
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
            .filter(|token| token.starts_with("cardroom_") || token.starts_with("process_"))
            .collect();
        assert!(!named.is_empty(), "`{expr}` names no metric of ours");
        for token in named {
            assert!(
                known(token),
                "`{token}` (in `{expr}`) is not exposed:\n{text}"
            );
        }
    }
    app.stop().await;
}
