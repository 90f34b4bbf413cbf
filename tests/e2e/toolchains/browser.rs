//! The web pages in a real browser: Debian's Chromium (`/usr/bin/chromium`) driven by Playwright
//! for Python (`tests/web/browser_test.py`) from `target/web-venv`, installed from PyPI with
//! `CARDROOM_TOOLCHAINS=1` (never `playwright install`: the browser is the system's), else the
//! test is skipped while either is missing (see `toolchains`).

use super::{pip_install, require};
use crate::support::{run, workspace_root};
use crate::web::{Server, spawn_slow_bot};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const CHROMIUM: &str = "/usr/bin/chromium";

/// The venv's python when Chromium is there and the venv imports Playwright.
fn playwright(venv: &Path) -> Option<PathBuf> {
    let python = venv.join("bin/python");
    let ready = Path::new(CHROMIUM).exists()
        && python.exists()
        && Command::new(&python)
            .args(["-c", "import playwright.sync_api"])
            .output()
            .is_ok_and(|o| o.status.success());
    ready.then_some(python)
}

/// A bot on loopback whose every move is answered 500 with an error body of its own.
async fn spawn_failing_bot() -> String {
    use actix_web::{App, HttpResponse, HttpServer, web};
    let server = HttpServer::new(|| {
        App::new()
            .route(
                "/",
                web::get().to(|| async {
                    HttpResponse::Ok().json(json!({
                        "name": "failing", "author": "e2e", "version": "1",
                        "games": ["twenty_two"],
                    }))
                }),
            )
            .route(
                "/move",
                web::post().to(|| async {
                    HttpResponse::InternalServerError()
                        .json(json!({"error": "no strategy for this position"}))
                }),
            )
            .default_service(web::to(HttpResponse::NoContent))
    })
    .workers(1)
    .disable_signals()
    .bind("127.0.0.1:0")
    .expect("bind the failing bot");
    let addr = server.addrs()[0];
    tokio::spawn(server.run());
    format!("http://{addr}")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pages_work_in_a_real_browser() {
    let root = workspace_root();
    let venv = root.join("target/web-venv");
    let Some(python) = require(
        "the_pages_work_in_a_real_browser",
        "Playwright for Python is not installed in target/web-venv, or Debian's Chromium is not \
         at /usr/bin/chromium",
        || playwright(&venv),
        || {
            // Only the Python package comes from a registry (never `playwright install`).
            assert!(
                Path::new(CHROMIUM).exists(),
                "the browser test needs Debian's Chromium at {CHROMIUM} (apt-get install -y chromium)"
            );
            pip_install(&venv, &["playwright"]);
        },
    ) else {
        return;
    };
    let server = Server::start("browser").await;
    let builtins = server.builtin_ids().await;
    assert_eq!(builtins.len(), 2, "the two built-in bots");
    // Ranked matches fill the leaderboard; the last one is replayed in the browser.
    let mut finished = String::new();
    for round in 0..4 {
        let bots = if round % 2 == 0 {
            builtins.clone()
        } else {
            builtins.iter().rev().cloned().collect()
        };
        let created = server
            .post_as_admin(
                "/v1/matches",
                &json!({"game": "twenty_two", "bots": bots, "ranked": true}),
            )
            .await;
        finished = created["id"].as_str().expect("id").to_string();
        server.wait_finished(&finished).await;
    }
    let slow = spawn_slow_bot(Duration::from_millis(100)).await;
    let slow_bots = server.register_slow_bots(&slow).await;
    // A bot whose every move is an error: 21 faults, one more than the bot page's first page.
    let failing = spawn_failing_bot().await;
    let registered = server
        .post(
            "/v1/bots",
            &json!({"name": "failing", "url": failing, "games": ["twenty_two"], "open_to_challenges": true}),
        )
        .await;
    let failing_bot = registered["id"].as_str().expect("id").to_string();
    let mut failing_matches = Vec::new();
    for _ in 0..7 {
        let created = server
            .post(
                "/v1/matches",
                &json!({"game": "twenty_two", "bots": [failing_bot, builtins[1]]}),
            )
            .await;
        failing_matches.push(created["id"].as_str().expect("id").to_string());
    }
    for id in &failing_matches {
        server.wait_finished(id).await;
    }
    let screenshots = root.join("docs/screenshots");
    std::fs::create_dir_all(&screenshots).expect("docs/screenshots");
    let config = json!({
        "base": server.0.base,
        "finished_match": finished,
        "slow_bots": slow_bots,
        "builtin_bots": builtins,
        "admin_token": crate::support::ADMIN_TOKEN,
        "bot": builtins[0],
        "failing_bot": failing_bot,
        "screenshots": screenshots,
    });
    let script = root.join("tests/web/browser_test.py");
    let output = tokio::task::spawn_blocking(move || {
        run(
            Command::new(python).arg(script).arg(config.to_string()),
            "the browser test (tests/web/browser_test.py)",
        )
    })
    .await
    .expect("browser test");
    println!("{output}");
    assert!(output.contains("all browser checks passed"), "{output}");
    for shot in [
        "leaderboard.png",
        "replay.png",
        "play.png",
        "table-watten.png",
        "table-basra.png",
        "table-tjak.png",
        "table-mobile.png",
    ] {
        let size = std::fs::metadata(screenshots.join(shot))
            .map(|m| m.len())
            .unwrap_or(0);
        assert!(size > 10_000, "docs/screenshots/{shot} was not written");
    }
    server.0.stop().await;
}
