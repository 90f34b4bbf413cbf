//! Issue 48, files, pages, names and metrics (48f): the pages carry the headers that keep a
//! browser from running, framing or leaking them; names others see refuse bidi overrides,
//! invisible characters, markup and decomposed forms; `/metrics` needs its token when the
//! server has one. (The files' modes and the sealed secrets: arena/tests/arena/hardening.rs and
//! tests/e2e/backup.rs.)

use crate::support::{Reply, ServerOptions, TestApp, open_arena};
use serde_json::{Value, json};

fn expect_problem(reply: &Reply, status: u16, code: &str) {
    assert_eq!(reply.status, status, "{}", reply.body);
    assert_eq!(reply.problem_code(), code, "{}", reply.body);
}

/// The four headers of a page, checked on one answer.
fn assert_page_headers(path: &str, headers: &reqwest::header::HeaderMap) {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|value| value.to_str().ok())
            .unwrap_or_else(|| panic!("{path}: no {name} header"))
            .to_string()
    };
    let policy = header("content-security-policy");
    for directive in [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "frame-ancestors 'none'",
    ] {
        assert!(policy.contains(directive), "{path}: {policy}");
    }
    assert!(
        !policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"),
        "{path}: {policy}"
    );
    assert_eq!(header("x-content-type-options"), "nosniff", "{path}");
    assert_eq!(header("x-frame-options"), "DENY", "{path}");
    assert_eq!(header("referrer-policy"), "no-referrer", "{path}");
}

/// Issue 48: "Pages send no Content-Security-Policy, `X-Content-Type-Options`, frame protection
/// or Referrer-Policy". Every page (the docs page and a 404 page too) now sends all four, and
/// holds no inline script or style the policy would block; every other answer is `nosniff`.
#[tokio::test]
async fn pages_send_csp_nosniff_frame_and_referrer_headers() {
    let app = ServerOptions::default().arena_in_memory().spawn().await;
    for path in [
        "/",
        "/matches",
        "/leaderboard",
        "/play",
        "/play/twenty_two",
        "/rules/twenty_two",
        "/docs/",
        "/docs/index.html",
        "/bot/b_0000000000000000",
        "/table/t_0000000000000000",
    ] {
        let response = app
            .client
            .get(format!("{}{path}", app.base))
            .send()
            .await
            .expect("send");
        let headers = response.headers().clone();
        let content_type = headers
            .get("content-type")
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default()
            .to_string();
        assert!(
            content_type.starts_with("text/html"),
            "{path}: {content_type}"
        );
        assert_page_headers(path, &headers);
        let html = response.text().await.expect("body");
        let lower = html.to_ascii_lowercase();
        assert!(!lower.contains("<style"), "{path}: an inline <style>");
        assert!(!lower.contains(" style="), "{path}: a style attribute");
        for (at, _) in lower.match_indices("<script") {
            let tag = &lower[at..at + lower[at..].find('>').expect("tag end")];
            assert!(tag.contains(" src="), "{path}: an inline script: {tag}");
        }
    }
    for path in ["/v1/games", "/assets/app.js", "/openapi.json", "/healthz"] {
        let response = app
            .client
            .get(format!("{}{path}", app.base))
            .send()
            .await
            .expect("send");
        assert_eq!(
            response
                .headers()
                .get("x-content-type-options")
                .map(|value| value.as_bytes()),
            Some(&b"nosniff"[..]),
            "{path}"
        );
    }
    app.stop().await;
}

/// Names a client sends that others see, each with the attack issue 48 names.
fn spoofed_names() -> Vec<(&'static str, String)> {
    vec![
        ("a bidi override", "evil\u{202E}gnp.exe".to_string()),
        ("a bidi isolate", "left\u{2067}right".to_string()),
        ("a zero-width space", "admin\u{200B}".to_string()),
        ("a zero-width joiner", "ad\u{200D}min".to_string()),
        ("a byte order mark", "\u{FEFF}heuristic".to_string()),
        ("markup", "<img src=x onerror=alert(1)>".to_string()),
        ("a closing tag", "bot</td>".to_string()),
        ("a decomposed é", "Jose\u{0301}".to_string()),
        ("a control", "tab\there".to_string()),
        ("a line separator", "two\u{2028}lines".to_string()),
        ("private use", "logo\u{E000}".to_string()),
        ("padding", " heuristic".to_string()),
    ]
}

/// Issue 48: "bot names accept bidi overrides (U+202E) and markup". A bot's, a player's and a
/// person's table-seat name with any of them is now 422 `invalid_name` naming the character;
/// the same names in NFC, plain text, still register (accents, other scripts, emoji).
#[tokio::test]
async fn names_with_bidi_controls_invisibles_markup_or_decomposed_forms_are_invalid_name() {
    let app = ServerOptions::default()
        .arena_in_memory()
        .builtins()
        .spawn()
        .await;
    for (what, name) in spoofed_names() {
        let bot = app
            .post(
                "/v1/bots",
                &json!({"name": name, "transport": "stream", "games": ["twenty_two"]}),
            )
            .await;
        expect_problem(&bot, 422, "invalid_name");
        let detail = bot.body["detail"].as_str().unwrap_or_default().to_string();
        assert!(detail.contains("`name`"), "{what}: {detail}");
        let player = app.post("/v1/players", &json!({"name": name})).await;
        expect_problem(&player, 422, "invalid_name");
        let table = app
            .post(
                "/v1/tables",
                &json!({"game": "twenty_two", "players": 2,
                        "seats": [{"human": name}, {"bot": "random"}]}),
            )
            .await;
        expect_problem(&table, 422, "invalid_name");
    }
    let detail = app
        .post("/v1/players", &json!({"name": "evil\u{202E}gnp.exe"}))
        .await
        .body["detail"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        detail.contains("U+202E") && detail.contains("bidirectional"),
        "{detail}"
    );

    // Joining an open seat under a spoofed name is refused too.
    let open = app
        .post(
            "/v1/tables",
            &json!({"game": "twenty_two", "players": 2, "seats": [{"open": true}, {"bot": "random"}]}),
        )
        .await;
    assert_eq!(open.status, 201, "{}", open.body);
    let id = open.body["id"].as_str().expect("id");
    let join = app
        .post(
            &format!("/v1/tables/{id}/join"),
            &json!({"name": "Anna\u{202E}"}),
        )
        .await;
    expect_problem(&join, 422, "invalid_name");

    // Honest names in NFC: accents, other scripts, an emoji, `&`.
    for name in ["José", "Zoë & Ana", "李小龙", "Ελένη", "♠ Ace 🂡"] {
        let player = app.post("/v1/players", &json!({"name": name})).await;
        assert_eq!(player.status, 201, "{name}: {}", player.body);
        assert_eq!(player.body["name"], json!(name));
    }
    let bot = app
        .post(
            "/v1/bots",
            &json!({"name": "José's bot", "transport": "stream", "games": ["twenty_two"]}),
        )
        .await;
    assert_eq!(bot.status, 201, "{}", bot.body);
    app.stop().await;
}

async fn metrics(app: &TestApp, base: &str, token: Option<&str>) -> (u16, String, String) {
    let mut request = app.client.get(format!("{base}/metrics"));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.expect("send");
    let status = response.status().as_u16();
    let challenge = response
        .headers()
        .get("www-authenticate")
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .to_string();
    (status, challenge, response.text().await.expect("body"))
}

/// Issue 48: "`/metrics` is public". With `--metrics-token`, `/metrics` answers only its bearer
/// token, on the API's listener and on a worker's admin listener: 401 `invalid_token` with
/// `WWW-Authenticate: Bearer` without it or with another. Without the flag it stays open.
#[tokio::test]
async fn metrics_need_the_metrics_token_when_the_server_has_one() {
    let open = ServerOptions::default().spawn().await;
    let (status, _, body) = metrics(&open, &open.base, None).await;
    assert_eq!(status, 200);
    assert!(body.contains("cardroom_build_info"), "{body}");
    open.stop().await;

    let app = ServerOptions::default()
        .arena_in_memory()
        .metrics_token("m3trics-t0ken")
        .spawn()
        .await;
    for token in [None, Some("wrong"), Some("")] {
        let (status, challenge, body) = metrics(&app, &app.base, token).await;
        assert_eq!(status, 401, "{token:?}: {body}");
        assert!(challenge.starts_with("Bearer"), "{challenge}");
        let problem: Value = serde_json::from_str(&body).expect("problem");
        assert_eq!(problem["code"], "invalid_token", "{problem}");
        assert!(!body.contains("cardroom_"), "{body}");
    }
    let (status, _, body) = metrics(&app, &app.base, Some("m3trics-t0ken")).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("cardroom_build_info"), "{body}");

    // A worker's admin listener (`--admin-listen`) guards it the same way.
    let (arena, _dir) = open_arena("metrics-admin").await;
    let admin = api::startup::build_admin("127.0.0.1:0", arena, Some("m3trics-t0ken".into()))
        .expect("bind");
    let handle = admin.server.handle();
    tokio::spawn(admin.server);
    let base = format!("http://{}", admin.addr);
    let (status, challenge, _) = metrics(&app, &base, None).await;
    assert_eq!((status, challenge.starts_with("Bearer")), (401, true));
    let (status, _, body) = metrics(&app, &base, Some("m3trics-t0ken")).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("cardroom_"), "{body}");
    let livez = app
        .client
        .get(format!("{base}/livez"))
        .send()
        .await
        .expect("livez");
    assert_eq!(livez.status().as_u16(), 200, "health stays open");
    handle.stop(false).await;
    app.stop().await;
}
