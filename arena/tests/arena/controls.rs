//! A bot's own controls and the admin's, over HTTP: a stream bot reports its version with
//! `PATCH` (shown on the seats of later matches), a new owner token stops the old one at once
//! (and the stream it opened), one stream connection per bot (409 `already_connected` unless
//! `?replace=true`), `GET /v1/bots` shows who is connected, and the admin renames, pauses,
//! returns and deletes any registered bot.

use crate::stream::{Stream, get, play_to_the_end, post, register_stream_bot, wait_finished};
use crate::support::{
    ADMIN_TOKEN, Behavior, register_owned, send, spawn_app, spawn_arena, spawn_bot,
};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

const GAME: &str = "twenty_two";

async fn patch(base: &str, id: &str, token: Option<&str>, body: &Value) -> (u16, Value) {
    let mut request = reqwest::Client::new()
        .patch(format!("{base}/v1/bots/{id}"))
        .json(body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    send(request).await
}

/// The attack this stops: a stream bot could not say which code played (`PATCH {"version"}`
/// was 400), so its matches and rating history could not tell versions apart.
#[tokio::test]
async fn a_stream_bot_reports_its_version_shown_on_its_later_matches() {
    let arena = spawn_arena("controls-version").await;
    arena.register_builtins().await.expect("built-in bots");
    let base = spawn_app(&arena).await;
    let (id, token) = register_stream_bot(&base, "versioned", GAME).await;
    let (status, shown) = patch(&base, &id, Some(&token), &json!({"version": "2.1-beta"})).await;
    assert_eq!(
        (status, &shown["version"]),
        (200, &json!("2.1-beta")),
        "{shown}"
    );
    for bad in [json!(""), json!("x".repeat(65))] {
        let (status, problem) = patch(&base, &id, Some(&token), &json!({"version": bad})).await;
        assert_eq!(
            (status, problem["code"].as_str()),
            (400, Some("invalid_request")),
            "{problem}"
        );
    }
    // A version is shown beside the name: the rule of names (docs/api.md, "Names").
    for bad in ["line\nbreak", "2.0\u{202E}", "<b>3</b>"] {
        let (status, problem) = patch(&base, &id, Some(&token), &json!({"version": bad})).await;
        assert_eq!(
            (status, problem["code"].as_str()),
            (422, Some("invalid_name")),
            "{problem}"
        );
    }
    // A bot the arena calls reports its own at `GET /`.
    let url_bot = spawn_bot(Behavior::Good).await;
    let (url_id, url_token) = register_owned(&arena, &url_bot, GAME).await;
    let (status, problem) = patch(&base, &url_id, Some(&url_token), &json!({"version": "9"})).await;
    assert_eq!(
        (status, problem["code"].as_str()),
        (400, Some("invalid_request"))
    );
    // Someone else's token changes nothing.
    let (status, _) = patch(&base, &id, Some(&url_token), &json!({"version": "evil"})).await;
    assert_eq!(status, 401);

    let (_, _, mut stream) = Stream::connect(&base, &token).await;
    let (status, created) = post(
        &base,
        "/v1/matches",
        Some(&token),
        &json!({"game": GAME, "bots": [id, "random"], "deadline_ms": 5000}),
    )
    .await;
    assert_eq!(status, 202, "{created}");
    let match_id = created["id"].as_str().expect("id").to_string();
    play_to_the_end(&base, &token, &mut stream).await;
    let shown = wait_finished(&base, &match_id).await;
    assert_eq!(shown["seats"][0]["version"], "2.1-beta", "{shown}");
    assert_eq!(
        get(&base, &format!("/v1/bots/{id}")).await["version"],
        "2.1-beta"
    );
}

/// The attack this stops: a leaked token could not be replaced.
#[tokio::test]
async fn a_new_owner_token_stops_the_old_one_and_its_stream_at_once() {
    let arena = spawn_arena("controls-token").await;
    let base = spawn_app(&arena).await;
    let (id, old) = register_stream_bot(&base, "leaky", GAME).await;
    let (status, _, mut stream) = Stream::connect(&base, &old).await;
    assert_eq!(status, 200);
    let rotate = |token: &str| {
        reqwest::Client::new()
            .post(format!("{base}/v1/bots/{id}/token"))
            .bearer_auth(token)
    };
    let (status, _) = send(rotate("not the token")).await;
    assert_eq!(status, 401);
    let (status, rotated) = send(rotate(&old)).await;
    assert_eq!(status, 200, "{rotated}");
    assert_eq!(rotated["id"], id.as_str());
    let new = rotated["token"].as_str().expect("token").to_string();
    assert_ne!(new, old);
    // The stream opened with the old token ends.
    let started = Instant::now();
    while let Some(line) = stream.next().await {
        assert!(started.elapsed() < Duration::from_secs(10), "{line}");
    }
    // The old token opens nothing, changes nothing, rotates nothing.
    let (status, _, _) = Stream::connect(&base, &old).await;
    assert_eq!(status, 401);
    let (status, _) = patch(&base, &id, Some(&old), &json!({"version": "x"})).await;
    assert_eq!(status, 401);
    let (status, _) = send(rotate(&old)).await;
    assert_eq!(status, 401);
    let (status, _) = post(
        &base,
        "/v1/bot/matches/m_0000000000000000/move",
        Some(&old),
        &json!({"request_id": "r_1", "action": {}}),
    )
    .await;
    assert_eq!(status, 401);
    // The new one does all of it.
    let (status, _, _stream) = Stream::connect(&base, &new).await;
    assert_eq!(status, 200);
    let (status, _) = patch(&base, &id, Some(&new), &json!({"version": "2"})).await;
    assert_eq!(status, 200);
}

/// The attack this stops: a second connection silently closed the first (two processes of one
/// bot took each other's moves), and nothing said which bots were connected.
#[tokio::test]
async fn one_stream_per_bot_and_the_list_shows_who_is_connected() {
    let arena = spawn_arena("controls-connected").await;
    let base = spawn_app(&arena).await;
    let (on, on_token) = register_stream_bot(&base, "online", GAME).await;
    let (off, _) = register_stream_bot(&base, "offline", GAME).await;
    let url_bot = spawn_bot(Behavior::Good).await;
    let (url_id, _) = register_owned(&arena, &url_bot, GAME).await;
    let (status, _, mut first) = Stream::connect(&base, &on_token).await;
    assert_eq!(status, 200);

    let listed = |query: &'static str| {
        let base = base.clone();
        async move {
            let (status, list) =
                send(reqwest::Client::new().get(format!("{base}/v1/bots{query}"))).await;
            assert_eq!(status, 200, "{list}");
            list["bots"]
                .as_array()
                .expect("bots")
                .iter()
                .map(|b| {
                    (
                        b["id"].as_str().expect("id").to_string(),
                        b["connected"].clone(),
                    )
                })
                .collect::<Vec<_>>()
        }
    };
    let all = listed("").await;
    let connected = |id: &str| all.iter().find(|(b, _)| b == id).map(|(_, c)| c.clone());
    assert_eq!(connected(&on), Some(json!(true)));
    assert_eq!(connected(&off), Some(json!(false)));
    assert_eq!(
        connected(&url_id),
        Some(Value::Null),
        "a bot the arena calls"
    );
    assert_eq!(
        listed("?connected=true").await,
        vec![(on.clone(), json!(true))]
    );
    assert_eq!(
        listed("?connected=false").await,
        vec![(off.clone(), json!(false))]
    );
    assert_eq!(
        get(&base, &format!("/v1/bots/{on}")).await["connected"],
        true
    );
    let (status, problem) =
        send(reqwest::Client::new().get(format!("{base}/v1/bots?connected=maybe"))).await;
    assert_eq!(
        (status, problem["code"].as_str()),
        (400, Some("invalid_request"))
    );

    // A second connection is refused; replacing ends the first.
    let (status, _, _) = Stream::connect(&base, &on_token).await;
    assert_eq!(status, 409);
    let (status, _, second) = Stream::connect_to(&base, &on_token, "?replace=true").await;
    assert_eq!(status, 200);
    assert!(first.next().await.is_none(), "the first connection ended");
    // Gone: not connected any more, at once.
    drop(second);
    let started = Instant::now();
    while listed("?connected=true")
        .await
        .iter()
        .any(|(id, _)| *id == on)
    {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "still connected"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let (status, _, _stream) = Stream::connect(&base, &on_token).await;
    assert_eq!(status, 200, "no `replace` needed after a clean end");
}

/// The attack this stops: an offensive bot could be neither renamed nor removed (401).
#[tokio::test]
async fn the_admin_renames_pauses_returns_and_deletes_any_registered_bot() {
    let arena = spawn_arena("controls-admin").await;
    let builtins = arena.register_builtins().await.expect("built-in bots");
    let base = spawn_app(&arena).await;
    let bot = spawn_bot(Behavior::Good).await;
    let (id, token) = register_owned(&arena, &bot, GAME).await;
    // Only the admin pauses.
    let (status, _) = patch(&base, &id, None, &json!({"name": "tidy"})).await;
    assert_eq!(status, 401);
    let (status, problem) = patch(&base, &id, Some(&token), &json!({"paused": false})).await;
    assert_eq!((status, problem["code"].as_str()), (403, Some("forbidden")));
    let (status, shown) = patch(&base, &id, Some(ADMIN_TOKEN), &json!({"name": "tidy"})).await;
    assert_eq!((status, &shown["name"]), (200, &json!("tidy")), "{shown}");
    let (status, shown) = patch(&base, &id, Some(ADMIN_TOKEN), &json!({"paused": true})).await;
    assert_eq!(status, 200, "{shown}");
    assert_eq!(
        (&shown["paused"], &shown["pause_reason"]),
        (&json!(true), &json!("moderated"))
    );
    // The ladder leaves it out, and it answers its probe without a trial match returning it
    // (a bot paused for its failures would get one now).
    let scheduled = arena::ladder::round(&arena).await.expect("round");
    for match_id in &scheduled {
        let seated = get(&base, &format!("/v1/matches/{match_id}")).await;
        assert!(
            seated["seats"]
                .as_array()
                .expect("seats")
                .iter()
                .all(|s| s["bot"] != id.as_str()),
            "{seated}"
        );
    }
    let shown = get(&base, &format!("/v1/bots/{id}")).await;
    assert_eq!(shown["paused"], true, "{shown}");
    assert!(shown.get("trial_match").is_none(), "{shown}");
    // Its owner cannot return it, nor may the admin change the owner's fields.
    let (status, _) = patch(&base, &id, Some(&token), &json!({"paused": false})).await;
    assert_eq!(status, 403);
    let (status, problem) = patch(&base, &id, Some(ADMIN_TOKEN), &json!({"games": [GAME]})).await;
    assert_eq!(
        (status, problem["code"].as_str()),
        (400, Some("invalid_request"))
    );
    let (status, shown) = patch(&base, &id, Some(ADMIN_TOKEN), &json!({"paused": false})).await;
    assert_eq!((status, &shown["paused"]), (200, &json!(false)), "{shown}");
    // Built-in bots are the arena's own.
    let (status, _) = patch(
        &base,
        &builtins[0],
        Some(ADMIN_TOKEN),
        &json!({"name": "x"}),
    )
    .await;
    assert_eq!(status, 403);
    let delete = |bot: &str| reqwest::Client::new().delete(format!("{base}/v1/bots/{bot}"));
    let (status, _) = send(delete(&builtins[0]).bearer_auth(ADMIN_TOKEN)).await;
    assert_eq!(status, 403);
    let (status, _) = send(delete(&id)).await;
    assert_eq!(status, 401);
    let (status, _) = send(delete(&id).bearer_auth(ADMIN_TOKEN)).await;
    assert_eq!(status, 204);
    let (status, _) = send(reqwest::Client::new().get(format!("{base}/v1/bots/{id}"))).await;
    assert_eq!(status, 404);
    // Its token stopped with it.
    let (status, _) = patch(&base, &id, Some(&token), &json!({"version": "1"})).await;
    assert_eq!(status, 404);
}
