//! URL safety through registration: each refused kind gets a clear problem.

use crate::support::{Behavior, spawn_bot, temp_dir};
use arena::dto::RegisterBot;
use arena::safety::AddressPolicy;
use arena::{Arena, ArenaConfig};

/// An arena refusing non-public addresses, with the guard of its temporary directory (keep it
/// while the arena is in use).
async fn public_arena() -> (Arena, tempfile::TempDir) {
    let dir = temp_dir("safety");
    let mut config = ArenaConfig::local(dir.path().join("a.db").to_string_lossy().to_string());
    config.policy = AddressPolicy::public();
    (Arena::open(config).await.expect("open"), dir)
}

async fn refusal(arena: &Arena, url: &str) -> (u16, String, String) {
    let error = arena
        .register_bot(RegisterBot {
            name: "x".into(),
            url: url.into(),
            games: vec!["any".into()],
            transport: Default::default(),
            history: Default::default(),
            open_to_challenges: false,
        })
        .await
        .expect_err(url);
    (
        error.status().as_u16(),
        error.code.to_string(),
        error.detail,
    )
}

#[tokio::test]
async fn every_refused_address_kind_is_refused_at_registration() {
    let (arena, _dir) = public_arena().await;
    for (url, kind) in [
        ("http://127.0.0.1:8080/", "loopback"),
        ("http://[::1]:8080/", "loopback"),
        ("http://10.0.0.7/", "private"),
        ("http://172.20.1.1/", "private"),
        ("http://192.168.0.10/", "private"),
        ("http://[fd12::1]/", "private"),
        ("http://169.254.169.254/latest/meta-data", "link-local"),
        ("http://[fe80::1]/", "link-local"),
        ("http://224.0.0.251/", "multicast"),
        ("http://0.0.0.0/", "unspecified"),
        ("http://[::ffff:127.0.0.1]/", "IPv4-mapped"),
        ("http://[::ffff:a9fe:a9fe]/", "IPv4-mapped"),
    ] {
        let (status, code, detail) = refusal(&arena, url).await;
        assert_eq!(
            (status, code.as_str()),
            (422, "bot_url_refused"),
            "{url}: {detail}"
        );
        assert!(detail.contains(kind), "{url}: {detail}");
    }
    for url in [
        "ftp://bots.example.com/",
        "file:///etc/passwd",
        "javascript:alert(1)",
        "http://user:pw@example.com/",
    ] {
        let (status, code, _) = refusal(&arena, url).await;
        assert_eq!((status, code.as_str()), (422, "bot_url_refused"), "{url}");
    }
}

/// Issue 11 item 5: under `--public`, `http://localhost/` and `http://localhost./` were answered
/// `bot_unreachable`; a URL the address policy refuses is always `bot_url_refused`, with the reason.
#[tokio::test]
async fn public_localhost_urls_are_bot_url_refused_with_the_reason_not_bot_unreachable() {
    let (arena, _dir) = public_arena().await;
    let bot = spawn_bot(Behavior::Good).await;
    let port = bot.url.rsplit(':').next().expect("port");
    for url in [
        "http://localhost/".to_string(),
        "http://localhost./".to_string(),
        "http://LocalHost./bot".to_string(),
        "http://api.localhost/".to_string(),
        // A live bot behind the name: refused before any connection, not probed.
        format!("http://localhost:{port}/"),
        format!("http://localhost.:{port}/"),
    ] {
        let (status, code, detail) = refusal(&arena, &url).await;
        assert_eq!(
            (status, code.as_str()),
            (422, "bot_url_refused"),
            "{url}: {detail}"
        );
        assert!(detail.contains("loopback"), "{url}: {detail}");
    }
    assert_eq!(
        bot.seen.requests.load(std::sync::atomic::Ordering::SeqCst),
        0,
        "a refused URL must not be contacted"
    );
}

#[tokio::test]
async fn unreachable_and_nonconforming_bots_are_refused() {
    let dir = temp_dir("probe");
    let arena = Arena::open(ArenaConfig::local(
        dir.path().join("a.db").to_string_lossy().to_string(),
    ))
    .await
    .expect("open");
    // Nothing listens on port 9 (discard) on loopback.
    let (status, code, _) = refusal(&arena, "http://127.0.0.1:9/").await;
    assert_eq!((status, code.as_str()), (422, "bot_unreachable"));
    let garbage = spawn_bot(Behavior::Garbage).await;
    let (_, code, _) = refusal(&arena, &format!("{}/nowhere", garbage.url)).await;
    assert_eq!(code, "bot_unreachable", "a 404 probe");
    let noinfo = spawn_bot(Behavior::NoInfo).await;
    let (status, code, _) = refusal(&arena, &noinfo.url).await;
    assert_eq!((status, code.as_str()), (422, "bot_nonconforming"));
}
