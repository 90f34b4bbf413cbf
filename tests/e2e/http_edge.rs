//! Issue 50, what every route gets from the HTTP edge, over HTTP: compression by
//! `Accept-Encoding` (and never where it would hold back a live stream), validators (strong
//! `ETag`, `If-None-Match` -> 304, `Cache-Control`), `HEAD` on every `GET`, 405 with `Allow`,
//! `OPTIONS`, and CORS with `--cors-origins` (also as `CARDROOM_CORS_ORIGINS`).

use crate::support::{GAME, Process, ServerOptions, TestApp, cardroom};
use reqwest::Method;
use reqwest::header::HeaderMap;
use serde_json::{Value, json};
use std::io::Read as _;

/// An answer as bytes on the wire, with its headers.
pub struct Raw {
    pub status: u16,
    pub headers: HeaderMap,
    pub bytes: Vec<u8>,
}

impl Raw {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The body decoded as its `Content-Encoding` says.
    pub fn decoded(&self) -> Vec<u8> {
        let mut out = Vec::new();
        match self.header("content-encoding") {
            None => out.extend_from_slice(&self.bytes),
            Some("gzip") => {
                flate2::read::GzDecoder::new(&self.bytes[..])
                    .read_to_end(&mut out)
                    .expect("gzip");
            }
            Some("br") => {
                brotli::Decompressor::new(&self.bytes[..], 4096)
                    .read_to_end(&mut out)
                    .expect("brotli");
            }
            Some(other) => panic!("unexpected coding {other}"),
        }
        out
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.decoded()).unwrap_or(Value::Null)
    }
}

/// Sends `method path` with `headers`; the answer's raw bytes.
pub async fn send(app: &TestApp, method: Method, path: &str, headers: &[(&str, &str)]) -> Raw {
    let mut request = app.client.request(method, format!("{}{path}", app.base));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.expect("send");
    Raw {
        status: response.status().as_u16(),
        headers: response.headers().clone(),
        bytes: response.bytes().await.expect("body").to_vec(),
    }
}

/// A server with an arena and the built-in bots.
async fn arena_app(name: &str) -> TestApp {
    ServerOptions::default()
        .arena(name)
        .builtins()
        .spawn()
        .await
}

/// A finished four-seat twenty_two match between built-in bots: its id.
pub async fn finished_match(app: &TestApp, seed: u64) -> String {
    let created = app
        .post(
            "/v1/matches",
            &json!({"game": GAME, "bots": ["random", "heuristic", "random", "heuristic"], "seed": seed}),
        )
        .await;
    assert_eq!(created.status, 202, "{}", created.body);
    let id = created.body["id"].as_str().expect("id").to_string();
    app.wait_finished(&id).await;
    id
}

#[tokio::test]
async fn answers_are_compressed_as_the_client_asks_and_decode_to_the_same_bytes() {
    let app = arena_app("http-compression").await;
    let id = finished_match(&app, 7).await;
    for path in [
        format!("/v1/matches/{id}"),
        format!("/v1/matches/{id}/frames"),
        "/openapi.json".to_string(),
        "/v1/games".to_string(),
        "/docs/swagger-ui-bundle.js".to_string(),
    ] {
        let plain = send(&app, Method::GET, &path, &[]).await;
        assert_eq!(plain.status, 200, "{path}");
        assert_eq!(
            plain.header("content-encoding"),
            None,
            "{path}: identity when none is asked"
        );
        for (asked, coding) in [("gzip", "gzip"), ("br", "br"), ("gzip, deflate, br", "br")] {
            let coded = send(&app, Method::GET, &path, &[("accept-encoding", asked)]).await;
            assert_eq!(coded.status, 200, "{path}");
            assert_eq!(
                coded.header("content-encoding"),
                Some(coding),
                "{path} {asked}"
            );
            assert!(
                coded
                    .header("vary")
                    .is_some_and(|v| v.contains("accept-encoding")),
                "{path}"
            );
            assert_eq!(
                coded.decoded(),
                plain.bytes,
                "{path} {asked}: the same bytes"
            );
            assert!(coded.bytes.len() < plain.bytes.len() / 3, "{path} {asked}");
        }
    }
    // The issue's measure: a finished four-player match gzipped is at most 15% of its size.
    let plain = send(&app, Method::GET, &format!("/v1/matches/{id}"), &[]).await;
    let gzipped = send(
        &app,
        Method::GET,
        &format!("/v1/matches/{id}"),
        &[("accept-encoding", "gzip")],
    )
    .await;
    assert!(
        gzipped.bytes.len() * 100 <= plain.bytes.len() * 15,
        "{} of {} bytes",
        gzipped.bytes.len(),
        plain.bytes.len()
    );
    // Small answers, HEAD answers and live streams go as they are.
    let small = send(
        &app,
        Method::GET,
        "/healthz",
        &[("accept-encoding", "gzip")],
    )
    .await;
    assert!(small.bytes.len() < 1024);
    assert_eq!(small.header("content-encoding"), None);
    let head = send(
        &app,
        Method::HEAD,
        &format!("/v1/matches/{id}"),
        &[("accept-encoding", "gzip")],
    )
    .await;
    assert_eq!(
        (
            head.status,
            head.header("content-encoding"),
            head.bytes.len()
        ),
        (200, None, 0)
    );
    let events = send(
        &app,
        Method::GET,
        &format!("/v1/matches/{id}/events"),
        &[("accept-encoding", "gzip, br")],
    )
    .await;
    assert_eq!(
        events.header("content-encoding"),
        None,
        "the event stream is never compressed"
    );
    assert!(String::from_utf8_lossy(&events.bytes).contains("event: end"));
    // The NDJSON export is compressed as it streams, line for line the same.
    let lines = send(&app, Method::GET, "/v1/matches?format=ndjson", &[]).await;
    let coded = send(
        &app,
        Method::GET,
        "/v1/matches?format=ndjson",
        &[("accept-encoding", "gzip")],
    )
    .await;
    assert_eq!(coded.header("content-encoding"), Some("gzip"));
    assert_eq!(coded.decoded(), lines.bytes);
    app.stop().await;
}

#[tokio::test]
async fn a_live_event_stream_delivers_each_move_as_it_is_played_to_a_client_that_asks_for_gzip() {
    let app = arena_app("http-live-uncompressed").await;
    let created = app
        .post(
            "/v1/matches",
            &json!({"game": GAME, "bots": ["random", "random"], "seed": 3, "pace_ms": 300}),
        )
        .await;
    let id = created.body["id"].as_str().expect("id").to_string();
    let mut response = app
        .client
        .get(format!("{}/v1/matches/{id}/events", app.base))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .expect("stream");
    assert!(response.headers().get("content-encoding").is_none());
    // The first move arrives while the match still runs (its later moves are held 300 ms each).
    let mut text = String::new();
    while !text.contains("event: move") {
        let chunk = response.chunk().await.expect("chunk").expect("more");
        text.push_str(&String::from_utf8_lossy(&chunk));
    }
    let view = app.get(&format!("/v1/matches/{id}")).await.body;
    assert_eq!(view["status"], "running", "a move came before the end");
    app.stop().await;
}

#[tokio::test]
async fn validated_answers_are_304_while_the_client_holds_the_current_tag() {
    let app = arena_app("http-validators").await;
    let id = finished_match(&app, 11).await;
    let page = send(&app, Method::GET, "/", &[]).await;
    let html = String::from_utf8_lossy(&page.bytes).to_string();
    let app_js = html
        .split("src=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the page loads app.js")
        .to_string();
    assert!(app_js.starts_with("/assets/app.js?v="), "{app_js}");
    let cases = [
        ("/v1/games".to_string(), "public, max-age=300"),
        (format!("/v1/games/{GAME}"), "public, max-age=300"),
        (
            format!("/v1/games/{GAME}/openapi.json"),
            "public, max-age=300",
        ),
        ("/openapi.json".to_string(), "public, max-age=300"),
        (format!("/v1/matches/{id}"), "public, max-age=300"),
        (format!("/v1/matches/{id}/frames"), "public, max-age=300"),
        (
            format!("/v1/matches/{id}/frames?seat=1"),
            "public, max-age=300",
        ),
        ("/docs/swagger-ui.css".to_string(), "public, max-age=300"),
        // Assets by their content's hash: a year; by name alone: revalidated.
        (app_js.clone(), "public, max-age=31536000, immutable"),
        ("/assets/app.js".to_string(), "no-cache"),
    ];
    for (path, cache_control) in cases {
        let first = send(&app, Method::GET, &path, &[]).await;
        assert_eq!(first.status, 200, "{path}");
        let etag = first.header("etag").expect("an ETag").to_string();
        assert!(
            etag.starts_with('"') && etag.ends_with('"'),
            "{path}: strong tag {etag}"
        );
        assert_eq!(first.header("cache-control"), Some(cache_control), "{path}");
        let again = send(&app, Method::GET, &path, &[]).await;
        assert_eq!(
            again.header("etag"),
            Some(etag.as_str()),
            "{path}: the same content, the same tag"
        );
        let unchanged = send(&app, Method::GET, &path, &[("if-none-match", &etag)]).await;
        assert_eq!(unchanged.status, 304, "{path}");
        assert!(unchanged.bytes.is_empty(), "{path}");
        assert_eq!(unchanged.header("etag"), Some(etag.as_str()), "{path}");
        assert_eq!(
            unchanged.header("cache-control"),
            Some(cache_control),
            "{path}"
        );
        let stale = send(&app, Method::GET, &path, &[("if-none-match", "\"0123\"")]).await;
        assert_eq!(stale.status, 200, "{path}");
        // A compressed answer's tag names its coding, and still validates.
        let coded = send(&app, Method::GET, &path, &[("accept-encoding", "gzip")]).await;
        if coded.header("content-encoding") == Some("gzip") {
            let coded_tag = coded.header("etag").expect("etag").to_string();
            assert_eq!(
                coded_tag,
                format!("{}-gzip\"", &etag[..etag.len() - 1]),
                "{path}"
            );
            let revalidated = send(
                &app,
                Method::GET,
                &path,
                &[("accept-encoding", "gzip"), ("if-none-match", &coded_tag)],
            )
            .await;
            assert_eq!(revalidated.status, 304, "{path}");
            assert_eq!(revalidated.header("etag"), Some(coded_tag.as_str()));
        }
    }
    // A running match is revalidated every time, and its tag changes with each move.
    let created = app
        .post(
            "/v1/matches",
            &json!({"game": GAME, "bots": ["random", "random"], "pace_ms": 200}),
        )
        .await;
    let running = created.body["id"].as_str().expect("id").to_string();
    let mut tags = Vec::new();
    for _ in 0..200 {
        let view = send(&app, Method::GET, &format!("/v1/matches/{running}"), &[]).await;
        if view.json()["status"] == "running" {
            assert_eq!(view.header("cache-control"), Some("no-cache"));
            tags.push(view.header("etag").expect("etag").to_string());
            if tags.windows(2).any(|w| w[0] != w[1]) {
                break;
            }
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(
        tags.windows(2).any(|w| w[0] != w[1]),
        "the tag follows the moves: {tags:?}"
    );
    app.stop().await;
}

/// Every `GET` path of the whole-service document, with its parameters filled from real ids.
async fn every_get_path(app: &TestApp, match_id: &str) -> Vec<String> {
    let document = app.get("/openapi.json").await.body;
    let bot = app.builtins[0].clone();
    let table = app
        .post(
            "/v1/tables",
            &json!({"game": GAME, "players": 2, "seats": [{"human": "Ann"}, {"bot": "random"}]}),
        )
        .await
        .body["id"]
        .as_str()
        .expect("table")
        .to_string();
    let tournament = app
        .post(
            "/v1/tournaments",
            &json!({"game": GAME, "bots": ["random", "random"], "deals": 1}),
        )
        .await
        .body["id"]
        .as_str()
        .expect("tournament")
        .to_string();
    let player = app.post("/v1/players", &json!({"name": "Pat"})).await.body["id"]
        .as_str()
        .expect("player")
        .to_string();
    let mut paths = vec![
        "/".to_string(),
        "/docs/".to_string(),
        "/matches".to_string(),
    ];
    for (path, item) in document["paths"].as_object().expect("paths") {
        if item.get("get").is_none() {
            continue;
        }
        let id = if path.starts_with("/v1/bots/") {
            &bot
        } else if path.starts_with("/v1/tables/") {
            &table
        } else if path.starts_with("/v1/tournaments/") {
            &tournament
        } else if path.starts_with("/v1/players/") {
            &player
        } else {
            match_id
        };
        let mut concrete = path
            .replace("{game}", GAME)
            .replace("{name}", "random")
            .replace("{id}", id);
        if concrete.ends_with("/ratings") {
            concrete.push_str(&format!("?game={GAME}"));
        }
        paths.push(concrete);
    }
    paths
}

#[tokio::test]
async fn head_answers_every_get_route_and_a_wrong_method_is_405_with_allow() {
    let app = arena_app("http-methods").await;
    let id = finished_match(&app, 5).await;
    let paths = every_get_path(&app, &id).await;
    assert!(paths.len() > 20, "{paths:?}");
    for path in &paths {
        let get = send(&app, Method::GET, path, &[]).await;
        let head = send(&app, Method::HEAD, path, &[]).await;
        assert_eq!(head.status, get.status, "HEAD {path}");
        assert!(head.bytes.is_empty(), "HEAD {path} sends no body");
        assert_eq!(
            head.header("content-type"),
            get.header("content-type"),
            "HEAD {path}"
        );
        assert_ne!(head.status, 404, "HEAD {path}");
        assert_ne!(head.status, 405, "HEAD {path}");
    }
    let cases = [
        ("DELETE", "/v1/games", "GET, HEAD, OPTIONS"),
        ("GET", "/v1/games/twenty_two/apply", "POST, OPTIONS"),
        ("PUT", "/v1/bots", "GET, HEAD, POST, OPTIONS"),
        (
            "POST",
            &format!("/v1/matches/{id}") as &str,
            "GET, HEAD, DELETE, OPTIONS",
        ),
        ("PATCH", "/", "GET, HEAD, OPTIONS"),
    ];
    for (method, path, allow) in cases {
        let method = Method::from_bytes(method.as_bytes()).expect("method");
        let refused = send(&app, method.clone(), path, &[]).await;
        assert_eq!(refused.status, 405, "{method} {path}");
        assert_eq!(refused.header("allow"), Some(allow), "{method} {path}");
        assert_eq!(
            refused.json()["code"],
            "method_not_allowed",
            "{method} {path}"
        );
        let options = send(&app, Method::OPTIONS, path, &[]).await;
        assert_eq!(
            (options.status, options.header("allow")),
            (204, Some(allow)),
            "OPTIONS {path}"
        );
    }
    // An unknown path is still 404, whatever the method.
    for method in [Method::GET, Method::DELETE, Method::OPTIONS] {
        let missing = send(&app, method.clone(), "/v1/nothing", &[]).await;
        assert_eq!(missing.status, 404, "{method}");
        assert_eq!(missing.json()["code"], "not_found");
    }
    app.stop().await;
}

#[tokio::test]
async fn browsers_on_any_origin_reach_the_public_routes_and_listed_origins_the_token_routes() {
    let app = ServerOptions::default()
        .arena("http-cors")
        .builtins()
        .cors_origins("https://cards.example")
        .spawn()
        .await;
    let ours = ("origin", "https://cards.example");
    let theirs = ("origin", "https://elsewhere.example");
    // Public routes: any origin, no credentials.
    let catalog = send(&app, Method::GET, "/v1/games", &[theirs]).await;
    assert_eq!(catalog.header("access-control-allow-origin"), Some("*"));
    assert_eq!(catalog.header("access-control-allow-credentials"), None);
    assert!(
        catalog
            .header("access-control-expose-headers")
            .is_some_and(|h| h.contains("etag"))
    );
    let preflight = send(
        &app,
        Method::OPTIONS,
        &format!("/v1/games/{GAME}/apply"),
        &[
            theirs,
            ("access-control-request-method", "POST"),
            ("access-control-request-headers", "content-type"),
        ],
    )
    .await;
    assert_eq!(preflight.status, 204);
    assert_eq!(preflight.header("access-control-allow-origin"), Some("*"));
    assert_eq!(
        preflight.header("access-control-allow-methods"),
        Some("POST, OPTIONS")
    );
    assert!(
        preflight
            .header("access-control-allow-headers")
            .is_some_and(|h| h.contains("content-type"))
    );
    // A refused request still carries the header, so the page can read the problem.
    let problem = send(&app, Method::GET, "/v1/games/chess", &[theirs]).await;
    assert_eq!(
        (
            problem.status,
            problem.header("access-control-allow-origin")
        ),
        (404, Some("*"))
    );
    // Routes that take a token: the listed origin only.
    let bot = app.builtins[0].clone();
    let path = format!("/v1/bots/{bot}");
    let refused = send(
        &app,
        Method::OPTIONS,
        &path,
        &[theirs, ("access-control-request-method", "DELETE")],
    )
    .await;
    assert_eq!(refused.status, 403);
    assert_eq!(refused.header("access-control-allow-origin"), None);
    let allowed = send(
        &app,
        Method::OPTIONS,
        &path,
        &[ours, ("access-control-request-method", "DELETE")],
    )
    .await;
    assert_eq!(allowed.status, 204);
    assert_eq!(
        allowed.header("access-control-allow-origin"),
        Some("https://cards.example")
    );
    assert!(allowed.header("vary").is_some_and(|v| v.contains("origin")));
    let deleted = send(&app, Method::DELETE, &path, &[theirs]).await;
    assert_eq!(deleted.header("access-control-allow-origin"), None);
    let deleted = send(&app, Method::DELETE, &path, &[ours]).await;
    assert_eq!(
        deleted.header("access-control-allow-origin"),
        Some("https://cards.example")
    );
    // The same path's public read answers any origin.
    let read = send(&app, Method::GET, &path, &[theirs]).await;
    assert_eq!(read.header("access-control-allow-origin"), Some("*"));
    app.stop().await;
}

#[tokio::test]
async fn cors_origins_come_from_the_flag_or_the_environment() {
    // The environment form, on the real binary.
    let port = free_port();
    let dir = crate::support::temp_dir("http-cors-env");
    let _server = Process::spawn(
        cardroom([
            "serve".to_string(),
            "--port".into(),
            port.to_string(),
            "--database".into(),
            dir.path().join("cardroom.db").display().to_string(),
        ])
        .env("CARDROOM_CORS_ORIGINS", "https://env.example")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null()),
    );
    let client = reqwest::Client::new();
    let preflight = |origin: &'static str| {
        client
            .request(
                Method::OPTIONS,
                format!("http://127.0.0.1:{port}/v1/bots/b_0000000000000000"),
            )
            .header("origin", origin)
            .header("access-control-request-method", "DELETE")
            .send()
    };
    let mut status = None;
    for _ in 0..600 {
        if let Ok(answer) = preflight("https://env.example").await {
            status = Some(answer.status().as_u16());
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(status, Some(204), "the server answers the listed origin");
    let other = preflight("https://other.example").await.expect("answer");
    assert_eq!(other.status().as_u16(), 403);
    // The flag, and what it refuses.
    let parse = |args: &[&str]| {
        use clap::Parser as _;
        let mut argv = vec!["cardroom", "serve"];
        argv.extend_from_slice(args);
        api::cli::Cli::try_parse_from(argv)
    };
    let parsed =
        parse(&["--cors-origins", "https://a.example,http://localhost:5173"]).expect("parses");
    let api::cli::Command::Serve(serve) = parsed.command else {
        panic!("serve")
    };
    assert_eq!(
        serve.config().expect("config").cors_origins,
        api::http::CorsOrigins::Listed(vec![
            "https://a.example".into(),
            "http://localhost:5173".into()
        ])
    );
    assert!(parse(&["--cors-origins", "a.example/app"]).is_err());
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

#[tokio::test]
async fn the_documents_declare_the_headers_and_the_304_and_405_answers() {
    let app = ServerOptions::default().spawn().await;
    let document = app.get("/openapi.json").await.body;
    let headers = document["components"]["headers"]
        .as_object()
        .expect("headers");
    for name in [
        "ETag",
        "Location",
        "RateLimit-Limit",
        "RateLimit-Remaining",
        "RateLimit-Reset",
        "X-Request-Id",
        "Allow",
    ] {
        assert!(headers.contains_key(name), "{name}");
    }
    let operation = |path: &str, method: &str| document["paths"][path][method].clone();
    let show = operation("/v1/matches/{id}", "get");
    assert!(show["responses"]["304"].is_object());
    assert_eq!(
        show["responses"]["200"]["headers"]["ETag"]["$ref"],
        "#/components/headers/ETag"
    );
    assert!(
        show["parameters"]
            .as_array()
            .expect("params")
            .iter()
            .any(|p| p["name"] == "If-None-Match")
    );
    for (path, method) in [
        ("/v1/matches", "post"),
        ("/v1/bots", "post"),
        ("/v1/tables", "post"),
        ("/v1/tournaments", "post"),
    ] {
        let create = operation(path, method);
        assert!(
            create["parameters"]
                .as_array()
                .expect("params")
                .iter()
                .any(|p| p["name"] == "Idempotency-Key"),
            "{path}"
        );
        let made = create["responses"]
            .as_object()
            .expect("responses")
            .iter()
            .find(|(status, _)| *status == "201" || *status == "202")
            .map(|(_, r)| r.clone())
            .expect("201 or 202");
        for header in [
            "Location",
            "Idempotent-Replayed",
            "RateLimit-Limit",
            "X-Request-Id",
        ] {
            assert!(made["headers"][header].is_object(), "{path} {header}");
        }
    }
    for (path, item) in document["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("operations") {
            assert!(
                op["responses"]["405"]["headers"]["Allow"].is_object(),
                "{method} {path}"
            );
            for (status, response) in op["responses"].as_object().expect("responses") {
                assert!(
                    response["headers"]["X-Request-Id"].is_object(),
                    "{method} {path} {status}"
                );
            }
        }
    }
    // Each game's own document carries the headers it names.
    let game = app
        .get(&format!("/v1/games/{GAME}/openapi.json"))
        .await
        .body;
    assert!(game["components"]["headers"]["ETag"].is_object());
    app.stop().await;
}

#[tokio::test]
async fn a_compressed_request_body_is_refused_before_it_is_inflated() {
    let app = ServerOptions::default().spawn().await;
    let mut gzipped = Vec::new();
    {
        use std::io::Write as _;
        let mut encoder = flate2::write::GzEncoder::new(&mut gzipped, flate2::Compression::best());
        // A kilobyte-sized body that would inflate to 64 MiB.
        encoder.write_all(&vec![b' '; 64 << 20]).expect("gzip");
        encoder.finish().expect("gzip");
    }
    assert!(gzipped.len() < 128 * 1024);
    let refused = app
        .client
        .post(format!("{}/v1/games/{GAME}/new", app.base))
        .header("content-type", "application/json")
        .header("content-encoding", "gzip")
        .body(gzipped)
        .send()
        .await
        .expect("send");
    assert_eq!(refused.status().as_u16(), 415);
    assert_eq!(refused.headers()["accept-encoding"], "identity");
    let problem: Value = refused.json().await.expect("json");
    assert_eq!(problem["code"], "unsupported_media_type");
    app.stop().await;
}
