//! Typed clients from the per-game documents (`openapi/games/<id>.json`): a Python client
//! (openapi-python-client, PyPI) plays full games of `watten` and `basra` with typed models only,
//! and a TypeScript client (openapi-typescript, npm) type-checks a game loop of `twenty_two` and
//! refuses the same loop with a misspelt action type.
//!
//! Their tools: openapi-python-client (PyPI) in `target/py-venv`, openapi-typescript and
//! typescript (npm) in `target/ts-tools`; installed with `CARDROOM_TOOLCHAINS=1`, else a test is
//! skipped while its tools are missing (see `toolchains`).

use super::python_client::openapi_python_client;
use super::{npm_install, require};
use crate::support::{run, spawn_app, workspace_root};
use std::path::Path;
use std::process::Command;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn generated_python_clients_play_watten_and_basra_with_typed_models_only() {
    let root = workspace_root();
    let Some(venv) = openapi_python_client(
        &root,
        "generated_python_clients_play_watten_and_basra_with_typed_models_only",
    ) else {
        return;
    };
    let app = spawn_app().await;
    let base = app.base.clone();
    tokio::task::spawn_blocking(move || {
        for game in ["watten", "basra"] {
            let scratch = crate::support::temp_dir(&format!("py-{game}"));
            let out = scratch.path();
            let package = format!("{game}_client");
            let config = out.join("config.yaml");
            std::fs::write(
                &config,
                format!(
                    "project_name_override: {game}-client\npackage_name_override: {package}\npost_hooks: []\n"
                ),
            )
            .expect("config");
            let client = out.join("client");
            run(
                Command::new(venv.join("bin/openapi-python-client"))
                    .arg("generate")
                    .arg("--path")
                    .arg(root.join(api::contract::committed_path(game)))
                    .arg("--output-path")
                    .arg(&client)
                    .arg("--config")
                    .arg(&config)
                    .arg("--overwrite"),
                &format!("openapi-python-client generate ({game})"),
            );
            run(
                Command::new(venv.join("bin/python"))
                    .arg(root.join("tests/python/play_typed.py"))
                    .args([game, &package, &base])
                    .env("PYTHONPATH", &client),
                &format!("tests/python/play_typed.py {game}"),
            );
        }
    })
    .await
    .expect("python");
}

fn tsc(bin: &Path, dir: &Path, file: &str) -> std::process::Output {
    Command::new(bin.join("tsc"))
        .current_dir(dir)
        .args([
            "--noEmit",
            "--strict",
            "--target",
            "es2022",
            "--module",
            "es2022",
            "--moduleResolution",
            "bundler",
            "--lib",
            "es2022,dom",
            file,
        ])
        .output()
        .expect("cannot run tsc")
}

#[test]
fn a_generated_typescript_client_type_checks_a_game_loop_and_refuses_a_misspelt_action() {
    let root = workspace_root();
    let tools = root.join("target/ts-tools");
    let Some(bin) = require(
        "a_generated_typescript_client_type_checks_a_game_loop_and_refuses_a_misspelt_action",
        "openapi-typescript and typescript are not installed in target/ts-tools",
        || {
            let bin = tools.join("node_modules/.bin");
            let ready = bin.join("openapi-typescript").exists() && bin.join("tsc").exists();
            ready.then_some(bin)
        },
        || npm_install(&tools, &["openapi-typescript@7", "typescript@5"]),
    ) else {
        return;
    };
    let scratch = crate::support::temp_dir("ts-twenty_two");
    let dir = scratch.path();
    run(
        Command::new(bin.join("openapi-typescript"))
            .arg(root.join(api::contract::committed_path("twenty_two")))
            .arg("--output")
            .arg(dir.join("schema.d.ts")),
        "openapi-typescript openapi/games/twenty_two.json",
    );
    let source = std::fs::read_to_string(root.join("tests/ts/play_twenty_two.ts")).expect("loop");
    std::fs::write(dir.join("play.ts"), &source).expect("play.ts");
    let good = tsc(&bin, dir, "play.ts");
    assert!(
        good.status.success(),
        "the game loop does not type-check:\n{}{}",
        String::from_utf8_lossy(&good.stdout),
        String::from_utf8_lossy(&good.stderr)
    );

    let correct = "const fold: Action = { type: \"fold\" };";
    assert!(source.contains(correct), "the loop builds a fold action");
    let misspelt = source.replace(correct, "const fold: Action = { type: \"flod\" };");
    std::fs::write(dir.join("misspelt.ts"), misspelt).expect("misspelt.ts");
    let bad = tsc(&bin, dir, "misspelt.ts");
    let output = String::from_utf8_lossy(&bad.stdout).to_string();
    assert!(
        !bad.status.success(),
        "a misspelt action type type-checks:\n{output}"
    );
    assert!(
        output.contains("misspelt.ts") && output.contains("\"flod\""),
        "tsc refused the loop for another reason:\n{output}"
    );
}
