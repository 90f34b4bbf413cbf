//! "From any language": a Python client generated from the committed spec plays a full game.
//!
//! Needs openapi-python-client (PyPI) in `target/py-venv`: installed with `CARDROOM_TOOLCHAINS=1`
//! (python3 with `venv`), else the test is skipped while it is missing (see `toolchains`).

use super::{pip_install, require};
use crate::support::{run, spawn_app, workspace_root};
use std::path::{Path, PathBuf};
use std::process::Command;

/// `target/py-venv` with openapi-python-client, or None when `test` is skipped.
pub fn openapi_python_client(root: &Path, test: &str) -> Option<PathBuf> {
    let venv = root.join("target/py-venv");
    require(
        test,
        "openapi-python-client is not installed in target/py-venv",
        || {
            let ready = venv.join("bin/openapi-python-client").exists();
            ready.then(|| venv.clone())
        },
        || pip_install(&venv, &["openapi-python-client"]),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_generated_python_client_plays_a_full_game_of_twenty_two() {
    let root = workspace_root();
    let Some(venv) = openapi_python_client(
        &root,
        "a_generated_python_client_plays_a_full_game_of_twenty_two",
    ) else {
        return;
    };
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
