//! "From any language": a Python client generated from the committed spec plays a full game.
//!
//! Needs `python3` with the `venv` module; the first run installs openapi-python-client from PyPI
//! into `target/py-venv`. Never skipped: without python3 the test fails with instructions.

use crate::support::{spawn_app, workspace_root};
use std::path::Path;
use std::process::Command;

pub(crate) fn run(command: &mut Command, what: &str) {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run {command:?}: {e}"));
    assert!(
        output.status.success(),
        "{what} failed ({}):\n--- stdout\n{}\n--- stderr\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Installs npm `packages` into the private npm project `tools` (created if missing; under
/// target/, so nothing global changes); `what` names the step in a failure.
pub(crate) fn npm_install(tools: &Path, packages: &[&str], what: &str) {
    std::fs::create_dir_all(tools).expect("npm tools folder");
    if !tools.join("package.json").exists() {
        std::fs::write(tools.join("package.json"), "{\"private\": true}\n").expect("package.json");
    }
    run(
        Command::new("npm")
            .current_dir(tools)
            .args(["install", "--no-audit", "--no-fund", "--silent"])
            .args(packages),
        what,
    );
}

pub(crate) fn ensure_venv(root: &Path) -> std::path::PathBuf {
    let venv = root.join("target/py-venv");
    let generator = venv.join("bin/openapi-python-client");
    if generator.exists() {
        return venv;
    }
    let python = Command::new("python3").arg("--version").output();
    assert!(
        python.is_ok_and(|o| o.status.success()),
        "this test needs python3 with the venv module (Debian: apt-get install -y python3 python3-venv)"
    );
    run(
        Command::new("python3").args(["-m", "venv"]).arg(&venv),
        "creating target/py-venv",
    );
    run(
        Command::new(venv.join("bin/pip")).args([
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "openapi-python-client",
        ]),
        "pip install openapi-python-client (needs PyPI)",
    );
    venv
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_generated_python_client_plays_a_full_game_of_twenty_two() {
    let root = workspace_root();
    let venv = tokio::task::spawn_blocking({
        let root = root.clone();
        move || ensure_venv(&root)
    })
    .await
    .expect("venv");
    let app = spawn_app().await;
    // The client is generated into `client/` (which must not exist yet) beside its config; the
    // directory is removed when the test ends.
    let scratch = crate::support::temp_dir("pyclient");
    let out = scratch.path().join("client");
    let config = scratch.path().join("client.yaml");
    std::fs::write(
        &config,
        "project_name_override: cardroom-client\npackage_name_override: cardroom_client\npost_hooks: []\n",
    )
    .expect("config");
    let base = app.base.clone();
    let script = root.join("tests/python/play_twenty_two.py");
    let spec = root.join(api::openapi::COMMITTED_PATH);
    tokio::task::spawn_blocking(move || {
        run(
            Command::new(venv.join("bin/openapi-python-client"))
                .arg("generate")
                .arg("--path")
                .arg(&spec)
                .arg("--output-path")
                .arg(&out)
                .arg("--config")
                .arg(&config)
                .arg("--overwrite"),
            "openapi-python-client generate",
        );
        run(
            Command::new(venv.join("bin/python"))
                .arg(&script)
                .arg(&base)
                .env("PYTHONPATH", &out),
            "tests/python/play_twenty_two.py",
        );
    })
    .await
    .expect("python");
}
