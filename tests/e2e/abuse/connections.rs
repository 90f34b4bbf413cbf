//! Bounded connections (issue 48, part 48s): the attacks on the server's connections
//! reproduced, and shown stopped. A client holds at most `--max-streams-per-client` streams
//! (429 beyond), the server `--max-streams` (503); a body trickled a byte at a time is cut with
//! 408; hundreds of event streams from one client leave `/healthz` and the matches alone.

use crate::support::{GAME, ServerOptions, TestApp};
use crate::web::spawn_slow_bot;
use arena::streams::StreamLimits;
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

/// A match that runs for a while: two bots thinking 100 ms a move.
async fn long_match(app: &TestApp, name: &str) -> String {
    let url = spawn_slow_bot(Duration::from_millis(100)).await;
    let mut bots = Vec::new();
    for seat in ["a", "b"] {
        let registered = app
            .post(
                "/v1/bots",
                &json!({"name": format!("{name}-{seat}"), "url": url, "games": [GAME], "open_to_challenges": true}),
            )
            .await;
        assert_eq!(registered.status, 201, "{}", registered.body);
        bots.push(registered.body["id"].clone());
    }
    let created = app
        .post(
            "/v1/matches",
            &json!({"game": GAME, "bots": bots, "seed": 3}),
        )
        .await;
    assert_eq!(created.status, 202, "{}", created.body);
    created.body["id"].as_str().expect("id").to_string()
}

/// Opens `count` event streams of `id` at once; the open ones (held: their bodies unread) and
/// the status of each.
async fn open_streams(
    app: &TestApp,
    id: &str,
    count: usize,
) -> (Vec<reqwest::Response>, Vec<(u16, Option<String>, Value)>) {
    let url = format!("{}/v1/matches/{id}/events", app.base);
    let tries: Vec<_> = (0..count)
        .map(|_| {
            // One connection each, as a browser tab's `EventSource` has.
            let client = reqwest::Client::new();
            let url = url.clone();
            tokio::spawn(async move { client.get(url).send().await.expect("GET events") })
        })
        .collect();
    let (mut open, mut refused) = (Vec::new(), Vec::new());
    for task in tries {
        let response = task.await.expect("task");
        if response.status() == 200 {
            open.push(response);
        } else {
            let status = response.status().as_u16();
            let retry = response
                .headers()
                .get("retry-after")
                .and_then(|v| v.to_str().ok())
                .map(str::to_string);
            refused.push((status, retry, response.json().await.unwrap_or_default()));
        }
    }
    (open, refused)
}

#[tokio::test]
async fn the_33rd_stream_of_a_client_is_429_and_past_the_global_cap_503() {
    let app = ServerOptions::default()
        .arena("abuse-streams")
        .spawn()
        .await;
    let id = long_match(&app, "streamed").await;
    let (open, refused) = open_streams(&app, &id, 33).await;
    assert_eq!(open.len(), 32, "{refused:?}");
    let [(status, retry, problem)] = refused.as_slice() else {
        panic!("one refused: {refused:?}");
    };
    assert_eq!(*status, 429, "{problem}");
    assert_eq!(problem["code"], "too_many_streams", "{problem}");
    assert!(retry.is_some(), "Retry-After");
    // A stream closed gives its place back.
    drop(open);
    let mut reopened = None;
    for _ in 0..200 {
        let (open, _) = open_streams(&app, &id, 1).await;
        if let Some(stream) = open.into_iter().next() {
            reopened = Some(stream);
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert!(reopened.is_some(), "a stream once the others closed");

    // The server's own cap, all clients together: 503 with Retry-After.
    let capped = ServerOptions::default()
        .arena("abuse-streams-cap")
        .streams(StreamLimits {
            per_client: 32,
            total: 8,
        })
        .spawn()
        .await;
    let id = long_match(&capped, "capped").await;
    let (open, refused) = open_streams(&capped, &id, 9).await;
    assert_eq!(open.len(), 8, "{refused:?}");
    assert_eq!(refused.len(), 1);
    let (status, retry, problem) = &refused[0];
    assert_eq!(*status, 503, "{problem}");
    assert_eq!(problem["code"], "server_busy", "{problem}");
    assert!(retry.is_some(), "Retry-After");
}

/// A body sent a byte at a time never arrives whole: cut at `--body-timeout-ms` with 408
/// `request_timeout`, and the connection is closed.
#[tokio::test]
async fn a_body_trickled_slowly_gets_408() {
    let app = ServerOptions::default()
        .body_timeout(Duration::from_millis(300))
        .spawn()
        .await;
    let address = app.base.trim_start_matches("http://").to_string();
    let mut socket = tokio::net::TcpStream::connect(&address)
        .await
        .expect("connect");
    let body = json!({"players": 4, "seed": 1}).to_string();
    let head = format!(
        "POST /v1/games/{GAME}/new HTTP/1.1\r\nhost: {address}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
        body.len()
    );
    socket.write_all(head.as_bytes()).await.expect("head");
    let started = Instant::now();
    let mut answer = Vec::new();
    // A byte every 100 ms (the body needs about 2 s); the answer comes first.
    for byte in body.as_bytes() {
        if socket.write_all(&[*byte]).await.is_err() {
            break;
        }
        let mut chunk = [0u8; 4096];
        match tokio::time::timeout(Duration::from_millis(100), socket.read(&mut chunk)).await {
            Ok(Ok(0)) | Ok(Err(_)) => break,
            Ok(Ok(read)) => {
                answer.extend_from_slice(&chunk[..read]);
                break;
            }
            Err(_still_waiting) => {}
        }
    }
    let _ = tokio::time::timeout(Duration::from_secs(5), socket.read_to_end(&mut answer)).await;
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("request_timeout"), "{text}");
    assert!(
        started.elapsed() < Duration::from_millis(100 * body.len() as u64),
        "cut before the body's end"
    );
    // A body sent whole is taken as before.
    assert_eq!(app.new_game(4, 1).await["over"], false);
}

/// Four hundred event streams from one client at once: 32 are served, the rest refused at once;
/// `/healthz` answers meanwhile and a match finishes.
#[tokio::test]
async fn four_hundred_event_streams_from_one_client_leave_healthz_and_matches_alone() {
    let app = ServerOptions::default()
        .arena("abuse-400-streams")
        .builtins()
        .spawn()
        .await;
    let id = long_match(&app, "watched").await;
    let (open, refused) = open_streams(&app, &id, 400).await;
    assert_eq!(open.len(), 32);
    assert_eq!(refused.len(), 368);
    assert!(
        refused
            .iter()
            .all(|(status, _, problem)| *status == 429 && problem["code"] == "too_many_streams"),
        "{:?}",
        refused.first()
    );
    let asked = Instant::now();
    let health = app.get("/healthz").await;
    assert_eq!(health.status, 200, "{}", health.body);
    assert!(
        asked.elapsed() < Duration::from_secs(1),
        "{:?}",
        asked.elapsed()
    );
    // A match of the built-in bots starts and finishes while the streams are held.
    let bots = json!([app.builtins[0], app.builtins[1]]);
    let shown = app
        .play(&json!({"game": GAME, "bots": bots, "seed": 9}))
        .await;
    assert_eq!(shown["status"], "finished");
    drop(open);
}
