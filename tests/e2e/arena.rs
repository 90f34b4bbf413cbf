//! The arena mounted in the real server: built-in bots registered at start, a ranked match over
//! HTTP, the leaderboard moving, problem+json errors from arena routes.

use crate::support::{ADMIN_TOKEN, ServerOptions, TestApp};
use serde_json::{Value, json};
use std::time::Duration;

#[tokio::test]
async fn a_ranked_match_between_builtin_bots_moves_the_leaderboard() {
    let (app, builtins) = spawn_arena("arena").await;
    let (base, http) = (&app.base, &app.client);

    let created: Value = http
        .post(format!("{base}/v1/matches"))
        .bearer_auth(ADMIN_TOKEN)
        .json(&json!({"game": "twenty_two", "bots": builtins, "ranked": true}))
        .send()
        .await
        .expect("send")
        .json()
        .await
        .expect("json");
    let id = created["id"].as_str().expect("match id").to_string();
    let mut status = Value::Null;
    for _ in 0..400 {
        let view: Value = http
            .get(format!("{base}/v1/matches/{id}"))
            .send()
            .await
            .expect("send")
            .json()
            .await
            .expect("json");
        status = view["status"].clone();
        if status == "finished" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(status, "finished");
    let board: Value = http
        .get(format!("{base}/v1/leaderboards/twenty_two"))
        .send()
        .await
        .expect("send")
        .json()
        .await
        .expect("json");
    assert_eq!(
        board["entries"].as_array().map(Vec::len),
        Some(2),
        "{board}"
    );

    let response = http
        .get(format!("{base}/v1/bots/b_nope"))
        .send()
        .await
        .expect("send");
    assert_eq!(response.status().as_u16(), 404);
    assert_eq!(
        response.headers()["content-type"],
        "application/problem+json"
    );
    app.stop().await;
}

/// Starts the server with an arena on a fresh SQLite file and the built-in bots registered; also
/// answers the ids of `random` and `heuristic` (the searching `ismcts` spends 200 ms a move: these
/// tests need quick two-seat matches).
async fn spawn_arena(name: &str) -> (TestApp, Vec<String>) {
    let app = ServerOptions::default()
        .arena(name)
        .builtins()
        .spawn()
        .await;
    assert_eq!(
        arena::builtin::NAMES[..2],
        ["random", "heuristic"],
        "the registration order"
    );
    let fast = app.builtins[..2].to_vec();
    (app, fast)
}

/// Runs `program args` with `input` on stdin and returns its stdout.
fn pipe(program: &str, args: &[&str], input: &str) -> String {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {program} (installed by .ci/run): {e}"));
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write stdin");
    let output = child.wait_with_output().expect("wait");
    assert!(output.status.success(), "{program} {args:?} failed");
    String::from_utf8(output.stdout).expect("utf-8")
}

/// Issue 13 item 4: the seed the arena draws survives `jq` and JavaScript, so a finished match's
/// `replay` block replays to the same result after passing through either.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_replay_block_through_jq_and_node_replays_to_the_same_result() {
    if !e2e::tool_or_skip("jq", "apt-get install -y jq")
        || !e2e::tool_or_skip("node", "Node.js 20 or later: apt-get install -y nodejs")
    {
        return;
    }
    let (app, builtins) = spawn_arena("replay-jq").await;
    let (base, http) = (&app.base, &app.client);
    let created: Value = http
        .post(format!("{base}/v1/matches"))
        .json(&json!({"game": "basra", "bots": builtins}))
        .send()
        .await
        .expect("send")
        .json()
        .await
        .expect("json");
    let id = created["id"].as_str().expect("match id").to_string();
    let mut text = String::new();
    for _ in 0..800 {
        text = http
            // The replay block alone carries its actions (beside `moves` it refers to them).
            .get(format!("{base}/v1/matches/{id}?include=replay"))
            .send()
            .await
            .expect("send")
            .text()
            .await
            .expect("text");
        let view: Value = serde_json::from_str(&text).expect("json");
        if view["status"] == "finished" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let view: Value = serde_json::from_str(&text).expect("json");
    assert_eq!(view["status"], "finished", "{view}");
    let seed = view["replay"]["seed"].as_u64().expect("a seed");
    assert!(seed <= engine::rng::MAX_SEED, "{seed}");
    let scores = view["result"]["scores"].clone();
    assert!(scores.is_array(), "{view}");

    let through_jq = pipe("jq", &["-c", ".replay"], &text);
    let through_node = pipe(
        "node",
        &[
            "-e",
            "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>\
             process.stdout.write(JSON.stringify(JSON.parse(s).replay)))",
        ],
        &text,
    );
    for (tool, block) in [("jq", through_jq), ("node", through_node)] {
        let block: Value = serde_json::from_str(&block).expect("json");
        assert_eq!(block["seed"].as_u64(), Some(seed), "{tool} kept the seed");
        let replayed: Value = http
            .post(format!("{base}/v1/games/basra/replay"))
            .json(&block)
            .send()
            .await
            .expect("send")
            .json()
            .await
            .expect("json");
        assert_eq!(replayed["step"]["over"], true, "{tool}: {replayed}");
        assert_eq!(
            replayed["step"]["result"]["scores"], scores,
            "{tool}: the replay ends as the match did"
        );
    }
    app.stop().await;
}

/// Issue 13 items 3 and 4: the documented limits are enforced on the arena's routes, and their
/// refusals are problems.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_arena_refuses_out_of_range_seeds_limits_and_notices() {
    let (app, builtins) = spawn_arena("limits").await;
    let (base, http) = (&app.base, &app.client);
    let cases = [
        (
            "POST",
            "/v1/matches",
            json!({"game": "twenty_two", "bots": builtins, "seed": engine::rng::MAX_SEED + 1}),
            422,
            "invalid_seed",
        ),
        (
            "GET",
            "/v1/matches?limit=501",
            Value::Null,
            400,
            "invalid_request",
        ),
        (
            "GET",
            "/v1/matches?limit=0",
            Value::Null,
            400,
            "invalid_request",
        ),
        (
            "POST",
            "/bots/random/start",
            json!({}),
            400,
            "malformed_json",
        ),
        ("POST", "/bots/nobody/end", json!({}), 404, "unknown_bot"),
        // The arena reads raw bodies; over the limit they are problems like the rules API's.
        (
            "POST",
            "/v1/bots",
            json!({"name": "a".repeat(300_000), "url": "http://127.0.0.1:9/"}),
            413,
            "payload_too_large",
        ),
    ];
    for (method, path, body, status, code) in cases {
        let request = match method {
            "GET" => http.get(format!("{base}{path}")),
            _ => http.post(format!("{base}{path}")).json(&body),
        };
        let response = request.send().await.expect("send");
        assert_eq!(response.status().as_u16(), status, "{method} {path}");
        assert_eq!(
            response.headers()["content-type"],
            "application/problem+json",
            "{method} {path}"
        );
        let problem: Value = response.json().await.expect("json");
        assert_eq!(problem["code"], code, "{method} {path}: {problem}");
    }
    // A start notice without a body is refused, not acknowledged.
    let response = http
        .post(format!("{base}/bots/random/start"))
        .header("content-type", "application/json")
        .send()
        .await
        .expect("send");
    assert_eq!(response.status().as_u16(), 400);
    let response = http
        .get(format!("{base}/v1/matches?limit=500"))
        .send()
        .await
        .expect("send");
    assert_eq!(response.status().as_u16(), 200);
    app.stop().await;
}
