//! Schemathesis (PyPI) against the real server, arena included: the whole-service document and
//! two per-game documents, with the checks `not_a_server_error`, `status_code_conformance`,
//! `content_type_conformance`, `response_schema_conformance` and `negative_data_rejection`.
//! Any failure fails the test with schemathesis' own report (each failure with a `curl` line).
//!
//! Needs schemathesis (PyPI) in `target/st-venv`: installed with `CARDROOM_TOOLCHAINS=1`, else
//! the test is skipped while it is missing (see `toolchains`). The run is bounded by
//! `--max-examples` and a fixed `--seed`.

use super::{pip_install, require};
use crate::support::{ServerOptions, workspace_root};
use std::process::Command;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn schemathesis_finds_no_failure_in_the_service_and_two_game_documents() {
    let root = workspace_root();
    let venv = root.join("target/st-venv");
    let Some(schemathesis) = require(
        "schemathesis_finds_no_failure_in_the_service_and_two_game_documents",
        "schemathesis is not installed in target/st-venv",
        || Some(venv.join("bin/schemathesis")).filter(|bin| bin.exists()),
        || pip_install(&venv, &["schemathesis>=4,<5"]),
    ) else {
        return;
    };
    let app = ServerOptions::default()
        .workers(2)
        .arena("st")
        .builtins()
        .spawn()
        .await;
    let base = app.base.clone();
    // Schemathesis writes its cache where it runs: a temporary directory, removed when the test
    // ends.
    let scratch = crate::support::temp_dir("st");

    let documents = [
        "/openapi.json",
        "/v1/games/watten/openapi.json",
        "/v1/games/basra/openapi.json",
    ];
    let work_dir = scratch.path().to_path_buf();
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
                    // One worker: with two, hypothesis describes lambdas (`ast.parse`) from two
                    // threads at once, and CPython 3.11's parser is not safe for that (a CI run
                    // stopped with "AST constructor recursion depth mismatch", a Runtime Error
                    // of the tool, not a finding).
                    "--workers",
                    "1",
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
    app.stop().await;
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
