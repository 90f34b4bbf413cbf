//! The one event bus across processes (PostgreSQL `LISTEN/NOTIFY`), as real `cardroom`
//! processes: two `--role api` and two `--role worker` on one throwaway database. A stream bot
//! connected to api 1 plays a ranked match, run by a worker, against a URL bot; api 2's
//! `/v1/matches/{id}/events` streams every move while it runs; api 1 is killed with SIGKILL
//! mid-match, the bot reconnects to api 2 and the match finishes, no fault charged beyond the
//! moves whose deadline passed.

use crate::support::{GAME, Process, cardroom, free_port};
use actix_web::{App, HttpResponse, HttpServer, web};
use e2e::fresh_postgres;
use serde_json::{Value, json};
use std::process::Stdio;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

const ADMIN: &str = "bus-test-admin-token";
/// Moves the bot answers through api 1 before api 1 is killed.
const MOVES_BEFORE_KILL: usize = 6;

/// `cardroom serve --role ROLE` on `database`; an api process listens on `port`.
fn serve(database: &str, role: &str, port: u16) -> Process {
    let port = port.to_string();
    let mut command = cardroom([
        "serve",
        "--role",
        role,
        "--database",
        database,
        "--port",
        &port,
        "--no-ladder",
        "--admin-token",
        ADMIN,
        "--move-deadline-ms",
        "2000",
        "--log",
        "warn",
    ]);
    // Two workers on one machine: no admin listener (they would share its default port).
    command
        .env("CARDROOM_ADMIN_LISTEN", "off")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    Process::spawn(&mut command)
}

async fn wait_up(base: &str, deadline: Instant) {
    while reqwest::get(format!("{base}/healthz")).await.is_err() {
        assert!(Instant::now() < deadline, "{base} did not come up");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A URL bot on 127.0.0.1: plays its first legal action (it checks no signature).
pub(crate) fn spawn_url_bot() -> String {
    let server = HttpServer::new(|| {
        App::new()
            .route(
                "/",
                web::get().to(|| async {
                    HttpResponse::Ok().json(json!({"name": "first", "author": "test",
                        "version": "1", "games": [GAME]}))
                }),
            )
            .route(
                "/move",
                web::post().to(|body: web::Json<Value>| async move {
                    HttpResponse::Ok().json(json!({"action": body["legal_actions"][0]}))
                }),
            )
            .route("/start", web::post().to(HttpResponse::Ok))
            .route("/end", web::post().to(HttpResponse::Ok))
    })
    .workers(1)
    .bind("127.0.0.1:0")
    .expect("bind");
    let addr = server.addrs()[0];
    tokio::spawn(server.run());
    format!("http://{addr}")
}

/// The lines of a stream connection (keep-alives skipped); the channel closes with the stream.
/// `query`: `?replace=true` when the bot connects again after its connection dropped (the
/// arena may not have seen it end: a killed process says nothing).
async fn connect(base: &str, token: &str, query: &str) -> mpsc::Receiver<Value> {
    let response = reqwest::Client::new()
        .get(format!("{base}/v1/bot/stream{query}"))
        .bearer_auth(token)
        .send()
        .await
        .expect("connect");
    assert_eq!(response.status(), 200);
    e2e::ndjson_lines(response)
}

/// Every `move` event's index read from `/events` until `end`.
async fn watch(base: String, match_id: String) -> Vec<u64> {
    let mut response = reqwest::get(format!("{base}/v1/matches/{match_id}/events"))
        .await
        .expect("events");
    let mut text = String::new();
    let mut indices = Vec::new();
    while let Ok(Some(chunk)) = response.chunk().await {
        text.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = text.find("\n\n") {
            let event: String = text.drain(..end + 2).collect();
            let name = event.lines().find_map(|l| l.strip_prefix("event: "));
            let data = event.lines().find_map(|l| l.strip_prefix("data: "));
            match (name, data) {
                (Some("move"), Some(data)) => {
                    let parsed: Value = serde_json::from_str(data).expect("move data");
                    indices.push(parsed["index"].as_u64().expect("index"));
                }
                (Some("end"), _) => return indices,
                _ => {}
            }
        }
    }
    indices
}

async fn post(base: &str, path: &str, token: &str, body: &Value) -> (u16, Value) {
    let response = reqwest::Client::new()
        .post(format!("{base}{path}"))
        .bearer_auth(token)
        .json(body)
        .send()
        .await
        .expect("post");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_apis_two_workers_a_stream_bot_survives_its_api_killed() {
    let Some(database) = fresh_postgres().await else {
        return;
    };
    arena::client::install_crypto_provider();
    let deadline = Instant::now() + Duration::from_secs(150);
    let (port1, port2) = (free_port(), free_port());
    let (api1_url, api2_url) = (
        format!("http://127.0.0.1:{port1}"),
        format!("http://127.0.0.1:{port2}"),
    );
    // The first process migrates the database; the others start once it serves.
    let mut api1 = serve(&database, "api", port1);
    wait_up(&api1_url, deadline).await;
    let _api2 = serve(&database, "api", port2);
    let _workers = [
        serve(&database, "worker", free_port()),
        serve(&database, "worker", free_port()),
    ];
    wait_up(&api2_url, deadline).await;

    let (status, registered) = post(
        &api1_url,
        "/v1/bots",
        "",
        &json!({"name": "streamer", "transport": "stream", "games": [GAME]}),
    )
    .await;
    assert_eq!(status, 201, "{registered}");
    let stream_id = registered["id"].as_str().expect("id").to_string();
    let token = registered["token"].as_str().expect("token").to_string();
    let (status, url_bot) = post(
        &api1_url,
        "/v1/bots",
        "",
        &json!({"name": "url bot", "url": spawn_url_bot(), "games": [GAME]}),
    )
    .await;
    assert_eq!(status, 201, "{url_bot}");

    let mut lines = connect(&api1_url, &token, "").await;
    let (status, created) = post(
        &api2_url,
        "/v1/matches",
        ADMIN,
        &json!({"game": GAME, "bots": [stream_id, url_bot["id"]], "ranked": true}),
    )
    .await;
    assert_eq!(status, 202, "{created}");
    let match_id = created["id"].as_str().expect("id").to_string();
    let watched = tokio::spawn(watch(api2_url.clone(), match_id.clone()));

    // Play through api 1, then kill it mid-match and go on through api 2.
    let mut answered = 0;
    let mut through = api1_url.clone();
    loop {
        assert!(
            Instant::now() < deadline,
            "the match did not finish in time"
        );
        let line = match tokio::time::timeout(Duration::from_secs(30), lines.recv()).await {
            Ok(Some(line)) => line,
            Ok(None) => {
                // The stream ended with its process: reconnect to the other api.
                assert_eq!(through, api2_url, "only the killed api ends the stream");
                lines = connect(&api2_url, &token, "?replace=true").await;
                continue;
            }
            Err(_) => panic!("no line for 30 s"),
        };
        match line["type"].as_str() {
            Some("move") => {
                let (status, body) = post(
                    &through,
                    &format!("/v1/bot/matches/{match_id}/move"),
                    &token,
                    &json!({"request_id": line["request_id"], "action": line["legal_actions"][0]}),
                )
                .await;
                assert!(status == 204 || status == 409, "{status} {body}");
                answered += 1;
                if answered == MOVES_BEFORE_KILL {
                    api1.0.kill().expect("SIGKILL api 1");
                    api1.0.wait().expect("reap");
                    through = api2_url.clone();
                }
            }
            Some("match_end") => break,
            _ => {}
        }
    }
    assert!(answered > MOVES_BEFORE_KILL, "api 1 died mid-match");

    let shown: Value = reqwest::get(format!("{api2_url}/v1/matches/{match_id}"))
        .await
        .expect("show")
        .json()
        .await
        .expect("json");
    assert_eq!(shown["status"], "finished", "{shown}");
    let moves = shown["moves"].as_array().expect("moves");
    // Only a move whose deadline passed while the bot reconnected may be charged.
    for played in moves {
        if let Some(kind) = played["fault"]["kind"].as_str() {
            assert_eq!(kind, "timeout", "{played}");
        }
    }
    let faults = shown["result"]["faults"].as_array().expect("faults");
    assert!(
        faults[0].as_u64().expect("n") <= 1 && faults[1] == 0,
        "{shown}"
    );

    // api 2 streamed every move while a worker played it.
    let indices = tokio::time::timeout(Duration::from_secs(30), watched)
        .await
        .expect("the events end")
        .expect("watcher");
    assert_eq!(
        indices,
        (0..moves.len() as u64).collect::<Vec<_>>(),
        "every move, in order, once"
    );
}
