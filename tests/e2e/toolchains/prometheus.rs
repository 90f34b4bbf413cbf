//! `/metrics` as Prometheus reads it: the exposition in both formats (`Accept`), parsed by the
//! Prometheus project's Python client (`prometheus_client`: its text-format parser, and its
//! strict OpenMetrics parser, which refuses any line the format does not allow), once the arena
//! has played a match.
//!
//! Needs prometheus_client (PyPI) in `target/prometheus-venv`: installed with
//! `CARDROOM_TOOLCHAINS=1` (python3 with `venv`), else the test is skipped while it is missing
//! (see `toolchains`).

use super::{pip_install, require};
use crate::support::{ServerOptions, run, workspace_root};
use serde_json::{Value, json};
use std::process::Command;

const TEST: &str = "both_metrics_formats_parse_with_prometheus_clients_parsers";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_metrics_formats_parse_with_prometheus_clients_parsers() {
    let root = workspace_root();
    let venv = root.join("target/prometheus-venv");
    let python = venv.join("bin/python");
    let Some(python) = require(
        TEST,
        "prometheus_client is not installed in target/prometheus-venv",
        || {
            let ready = python.exists()
                && Command::new(&python)
                    .args(["-c", "import prometheus_client"])
                    .status()
                    .is_ok_and(|status| status.success());
            ready.then(|| python.clone())
        },
        || pip_install(&venv, &["prometheus_client"]),
    ) else {
        return;
    };
    let app = ServerOptions::default()
        .arena("prometheus")
        .builtins()
        .spawn()
        .await;
    // A match with a registered bot: every family has a series (one without is not written).
    let bot = app.register_url_bot("parsed bot", "twenty_two").await;
    app.play(&json!({"game": "twenty_two", "bots": [bot, "heuristic"], "seed": 5}))
        .await;
    // A problem response, so a labelled counter has a sample beyond zero.
    assert_eq!(app.get("/v1/bots/b_none").await.status, 404);
    let scratch = crate::support::temp_dir("prometheus");
    let mut files = Vec::new();
    for (accept, name) in [
        ("text/plain;version=0.0.4", "metrics.txt"),
        ("application/openmetrics-text;version=1.0.0", "metrics.om"),
    ] {
        let text = app
            .client
            .get(format!("{}/metrics", app.base))
            .header("accept", accept)
            .send()
            .await
            .expect("metrics")
            .text()
            .await
            .expect("text");
        let path = scratch.path().join(name);
        std::fs::write(&path, text).expect("write");
        files.push(path);
    }
    let script = root.join("tests/python/parse_metrics.py");
    let out = tokio::task::spawn_blocking(move || {
        run(
            Command::new(python).arg(script).args(&files),
            "parse /metrics with prometheus_client",
        )
    })
    .await
    .expect("join");
    let parsed: Value = serde_json::from_str(&out).expect("the script's JSON");
    for (format, build) in [("text", "gauge"), ("openmetrics", "info")] {
        let families = &parsed[format];
        let typed = |name: &str| families[name]["type"].as_str().unwrap_or("(missing)");
        // The parsers name a counter family without `_total`, and an info family without
        // `_info` (the 0.0.4 format has no info type: a gauge named with it).
        let build_family = if format == "text" {
            "cardroom_build_info"
        } else {
            "cardroom_build"
        };
        assert_eq!(typed(build_family), build, "{format}: {families}");
        for (name, kind) in [
            ("cardroom_http_requests", "counter"),
            ("cardroom_http_problem_responses", "counter"),
            ("cardroom_http_request_duration_seconds", "histogram"),
            ("cardroom_arena_matches_started", "counter"),
            ("cardroom_arena_matches_aborted", "counter"),
            ("cardroom_arena_moves", "counter"),
            ("cardroom_arena_lease_resumes", "counter"),
            ("cardroom_arena_builtin_call_duration_seconds", "histogram"),
            ("cardroom_arena_bot_call_duration_seconds", "histogram"),
            ("cardroom_arena_queue_depth", "gauge"),
            ("cardroom_arena_stream_connections", "gauge"),
            ("cardroom_db_pool_connections", "gauge"),
            ("cardroom_db_pool_slow_acquires", "counter"),
            ("process_cpu_seconds", "counter"),
            ("process_resident_memory_bytes", "gauge"),
        ] {
            assert_eq!(typed(name), kind, "{format} {name}: {families}");
        }
        assert!(
            families["cardroom_arena_matches_started"]["samples"]
                .as_u64()
                .is_some_and(|n| n >= 1),
            "{format}: {families}"
        );
    }
    app.stop().await;
}
