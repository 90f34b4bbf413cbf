//! Schemathesis (PyPI) against the real server, arena included: the whole-service document and
//! two per-game documents, with the checks `not_a_server_error`, `status_code_conformance`,
//! `content_type_conformance`, `response_schema_conformance` and `negative_data_rejection`.
//! Any failure fails the test with schemathesis' own report (each failure with a `curl` line).
//!
//! The first run installs schemathesis into `target/st-venv`; the run is bounded by
//! `--max-examples` and a fixed `--seed`. Never skipped: without python3 it fails with
//! instructions.

use crate::python_client::run;
use crate::support::workspace_root;
use api::startup::{ServeConfig, build};
use std::path::{Path, PathBuf};
use std::process::Command;

/// `target/st-venv` with schemathesis 4 from PyPI.
fn ensure_schemathesis(root: &Path) -> PathBuf {
    let venv = root.join("target/st-venv");
    let bin = venv.join("bin/schemathesis");
    if bin.exists() {
        return bin;
    }
    let python = Command::new("python3").arg("--version").output();
    assert!(
        python.is_ok_and(|o| o.status.success()),
        "this test needs python3 with the venv module (Debian: apt-get install -y python3 python3-venv)"
    );
    run(
        Command::new("python3").args(["-m", "venv"]).arg(&venv),
        "creating target/st-venv",
    );
    run(
        Command::new(venv.join("bin/pip")).args([
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "schemathesis>=4,<5",
        ]),
        "pip install schemathesis (needs PyPI)",
    );
    bin
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn schemathesis_finds_no_failure_in_the_service_and_two_game_documents() {
    let root = workspace_root();
    let schemathesis = tokio::task::spawn_blocking({
        let root = root.clone();
        move || ensure_schemathesis(&root)
    })
    .await
    .expect("install");
    // Removed when the test ends (the guard lives to the end of this function).
    let (arena, dir) = crate::support::open_arena("st").await;
    arena.register_builtins().await.expect("built-in bots");
    let running = build(ServeConfig {
        port: 0,
        workers: Some(2),
        handle_signals: false,
        arena: Some(arena),
        ..ServeConfig::default()
    })
    .expect("bind");
    let base = format!("http://{}", running.addr);
    let handle = running.server.handle();
    tokio::spawn(running.server);

    let documents = [
        "/openapi.json",
        "/v1/games/watten/openapi.json",
        "/v1/games/basra/openapi.json",
    ];
    let work_dir = dir.path().to_path_buf();
    let failures = tokio::task::spawn_blocking(move || {
        let mut failures = Vec::new();
        for document in documents {
            let output = Command::new(&schemathesis)
                .current_dir(&work_dir)
                .env("NO_COLOR", "1")
                .args([
                    "run",
                    &format!("{base}{document}"),
                    "--checks",
                    "not_a_server_error,status_code_conformance,content_type_conformance,\
response_schema_conformance,negative_data_rejection",
                    "--max-examples",
                    "25",
                    "--seed",
                    "20261125",
                    "--workers",
                    "2",
                    "--request-timeout",
                    "10",
                ])
                .output()
                .expect("cannot run schemathesis");
            let stdout = String::from_utf8_lossy(&output.stdout);
            // The summary line counts generated cases; a run that tested nothing proves nothing.
            let tested = stdout
                .lines()
                .any(|l| l.contains("generated") && !l.contains(" 0 generated"));
            if !output.status.success() || !tested {
                failures.push(format!(
                    "{document} ({}):\n{stdout}\n{}",
                    output.status,
                    String::from_utf8_lossy(&output.stderr)
                ));
            }
        }
        failures
    })
    .await
    .expect("schemathesis");
    handle.stop(false).await;
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
