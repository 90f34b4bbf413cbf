//! Searching from the seat (issue 41): every arena move request carries `info`, the position
//! sealed for that seat and match; `/determinize` and `/rollouts` accept it in place of
//! `state`+`seat`, and refuse a changed, cut, foreign or other game's token clearly. The arena's
//! seal key is made once beside its SQLite file (0600) and reused across restarts.

use crate::support::{GAME, Process, ServerOptions, TestApp, cardroom, run_refused, temp_dir};
use actix_web::{App, HttpResponse, HttpServer, web};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A URL bot that plays the first legal action and keeps every move request it gets.
pub(crate) struct RecordingBot {
    url: String,
    requests: Arc<Mutex<Vec<Value>>>,
}

impl RecordingBot {
    pub(crate) fn spawn() -> RecordingBot {
        let requests: Arc<Mutex<Vec<Value>>> = Arc::default();
        let kept = web::Data::new(requests.clone());
        let server = HttpServer::new(move || {
            App::new()
                .app_data(kept.clone())
                .route(
                    "/",
                    web::get().to(|| async {
                        let games: Vec<String> = engine::registry::games()
                            .iter()
                            .map(|g| g.info().id.clone())
                            .collect();
                        HttpResponse::Ok().json(
                            json!({"name": "recorder", "author": "e2e", "version": "1", "games": games}),
                        )
                    }),
                )
                .route(
                    "/move",
                    web::post().to(
                        |kept: web::Data<Arc<Mutex<Vec<Value>>>>, body: web::Json<Value>| async move {
                            let action = body["legal_actions"][0].clone();
                            kept.lock().expect("lock").push(body.into_inner());
                            HttpResponse::Ok().json(json!({"action": action}))
                        },
                    ),
                )
        })
        .workers(1)
        .bind("127.0.0.1:0")
        .expect("bind");
        let url = format!("http://{}", server.addrs()[0]);
        tokio::spawn(server.run());
        RecordingBot { url, requests }
    }

    fn requests(&self) -> Vec<Value> {
        self.requests.lock().expect("lock").clone()
    }
}

pub(crate) async fn post(http: &reqwest::Client, url: String, body: &Value) -> (u16, Value) {
    let response = http.post(url).json(body).send().await.expect("send");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// Registers `bot` on the server at `base`, plays it against `random` and `heuristic` to the
/// end, and returns its move requests.
pub(crate) async fn play_match(
    http: &reqwest::Client,
    base: &str,
    bot: &RecordingBot,
    seed: u64,
) -> Vec<Value> {
    let name = format!("recorder {seed} {}", bot.url);
    let (status, registered) = post(
        http,
        format!("{base}/v1/bots"),
        &json!({"name": name, "url": bot.url, "games": [GAME], "open_to_challenges": true}),
    )
    .await;
    assert_eq!(status, 201, "{registered}");
    let (status, created) = post(
        http,
        format!("{base}/v1/matches"),
        &json!({"game": GAME, "bots": [registered["id"], "random", "heuristic"], "seed": seed, "deadline_ms": 5000}),
    )
    .await;
    assert_eq!(status, 202, "{created}");
    let id = created["id"].as_str().expect("id");
    let shown = finished(http, base, id).await;
    assert_eq!(shown["result"]["faults"], json!([0, 0, 0]), "{shown}");
    bot.requests()
        .into_iter()
        .filter(|r| r["match"] == id)
        .collect()
}

/// `GET /v1/matches/{id}` once the match has finished (within two minutes).
async fn finished(http: &reqwest::Client, base: &str, id: &str) -> Value {
    for _ in 0..2400 {
        let shown: Value = http
            .get(format!("{base}/v1/matches/{id}"))
            .send()
            .await
            .expect("get")
            .json()
            .await
            .expect("json");
        if shown["status"] == "finished" {
            return shown;
        }
        assert_ne!(shown["status"], "aborted", "{shown}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("match {id} did not finish");
}

/// A request of the middle of the match, with a choice to make.
pub(crate) fn with_a_choice(requests: &[Value]) -> &Value {
    requests
        .iter()
        .skip(requests.len() / 3)
        .find(|r| r["legal_actions"].as_array().is_some_and(|a| a.len() > 1))
        .expect("a move with a choice")
}

pub(crate) fn problem(reply: &(u16, Value)) -> (u16, &str) {
    (reply.0, reply.1["code"].as_str().unwrap_or_default())
}

#[tokio::test]
async fn info_from_a_move_request_determinizes_rolls_out_and_refuses_changes() {
    let app: TestApp = ServerOptions::default()
        .arena("seat-info")
        .builtins()
        .spawn()
        .await;
    let http = reqwest::Client::new();
    let bot = RecordingBot::spawn();
    let requests = play_match(&http, &app.base, &bot, 17).await;
    let request = with_a_choice(&requests);
    let info = request["info"]
        .as_str()
        .expect("every move request has info");
    let seat = request["seat"].as_u64().expect("seat");
    // Readable in the token: whose position it is (match, seat, moves played), nothing more;
    // about 50 bytes, where the whole sealed state was 2 KB.
    for r in &requests {
        let token = r["info"].as_str().expect("info");
        let played = r["history"].as_array().expect("full history").len();
        assert!(
            token.starts_with(&format!(
                "i2.{}.{}.{played}.",
                r["match"].as_str().expect("match"),
                r["seat"]
            )),
            "{token}"
        );
        assert!(token.len() < 64, "{token}");
    }

    let op = |game: &str, op: &str| format!("{}/v1/games/{game}/{op}", app.base);
    // Determinizations for the token's seat: each shows it exactly the view it was sent.
    let sampled = post(
        &http,
        op(GAME, "determinize"),
        &json!({"info": info, "count": 4, "seed": 3}),
    )
    .await;
    assert_eq!(sampled.0, 200, "{}", sampled.1);
    assert_eq!(sampled.1["seat"], seat);
    let states = sampled.1["states"].as_array().expect("states");
    assert_eq!(states.len(), 4);
    for state in states {
        let (status, view) = post(
            &http,
            op(GAME, "view"),
            &json!({"state": state, "seat": seat}),
        )
        .await;
        assert_eq!(status, 200, "{view}");
        assert_eq!(view["view"], request["view"]);
    }
    // The same seat may be named; another one is refused.
    let named = post(
        &http,
        op(GAME, "determinize"),
        &json!({"info": info, "seat": seat, "count": 4, "seed": 3}),
    )
    .await;
    assert_eq!(named.1["states"], sampled.1["states"]);

    // The seed a client gives is not the seed sampling uses: sampling permutes from the real
    // deal's order, so with the seed used a client could undo a sample and read the hidden
    // cards. The real position, rebuilt once the match is over (its seed revealed), sampled
    // with the same client seed gives other deals.
    let shown: Value = http
        .get(format!(
            "{}/v1/matches/{}",
            app.base,
            request["match"].as_str().expect("match")
        ))
        .send()
        .await
        .expect("get")
        .json()
        .await
        .expect("json");
    let played = request["history"].as_array().expect("full history").len();
    let actions: Vec<Value> = shown["moves"].as_array().expect("moves")[..played]
        .iter()
        .map(|m| json!({"seat": m["seat"], "action": m["action"]}))
        .collect();
    let replayed = post(
        &http,
        op(GAME, "replay"),
        &json!({"players": 3, "seed": shown["seed"], "actions": actions}),
    )
    .await;
    assert_eq!(replayed.0, 200, "{}", replayed.1);
    let (status, view) = post(
        &http,
        op(GAME, "view"),
        &json!({"state": replayed.1["step"]["state"], "seat": seat}),
    )
    .await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(
        view["view"], request["view"],
        "the rebuilt position is the request's"
    );
    let from_the_real_state = post(
        &http,
        op(GAME, "determinize"),
        &json!({"state": replayed.1["step"]["state"], "seat": seat, "count": 4, "seed": 3}),
    )
    .await;
    assert_eq!(from_the_real_state.0, 200, "{}", from_the_real_state.1);
    assert_ne!(
        from_the_real_state.1["states"], sampled.1["states"],
        "the info token's samples must not be reproducible from the client's seed"
    );
    let other_seat = (seat + 1) % 3;
    for (endpoint, body) in [
        (
            "determinize",
            json!({"info": info, "seat": other_seat, "count": 4}),
        ),
        (
            "rollouts",
            json!({"info": info, "seat": other_seat, "count": 4, "policy": "random"}),
        ),
    ] {
        let refused = post(&http, op(GAME, endpoint), &body).await;
        assert_eq!(problem(&refused), (400, "invalid_request"), "{}", refused.1);
    }

    // Rollouts from the seat's determinizations, every legal action weighed.
    let rolled = post(
        &http,
        op(GAME, "rollouts"),
        &json!({"info": info, "count": 20, "policy": "random", "seed": 1}),
    )
    .await;
    assert_eq!(rolled.0, 200, "{}", rolled.1);
    assert_eq!(rolled.1["seat"], seat);
    assert_eq!(rolled.1["determinized"], true);
    let results = rolled.1["results"].as_array().expect("results");
    assert_eq!(
        results.len(),
        request["legal_actions"].as_array().expect("legal").len()
    );
    assert!(results.iter().all(|r| r["playouts"] == 20));

    // Neither or both of `state` and `info`.
    let neither = post(&http, op(GAME, "determinize"), &json!({"count": 1})).await;
    assert_eq!(problem(&neither), (400, "invalid_request"));
    let start = post(&http, op(GAME, "new"), &json!({"players": 3, "seed": 1})).await;
    let both = post(
        &http,
        op(GAME, "rollouts"),
        &json!({"state": start.1["state"], "seat": 0, "info": info, "count": 1, "policy": "random"}),
    )
    .await;
    assert_eq!(problem(&both), (400, "invalid_request"));

    // Changed, cut, re-addressed to another match, seat or move, or another game's: refused.
    let (claims, tag) = info.rsplit_once('.').expect("a tag");
    let mut flipped = info.to_string().into_bytes();
    let middle = flipped.len() - tag.len() / 2;
    flipped[middle] = if flipped[middle] == b'A' { b'B' } else { b'A' };
    let played: usize = claims
        .rsplit('.')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("moves");
    let match_id = request["match"].as_str().expect("match");
    for forged in [
        String::from_utf8(flipped).expect("ascii"),
        info[..info.len() - 4].to_string(),
        format!("i2.m_0000000000000000.{seat}.{played}.{tag}"),
        format!("i2.{match_id}.{other_seat}.{played}.{tag}"),
        format!("i2.{match_id}.{seat}.{}.{tag}", played + 1),
        "v2.AAAA".to_string(),
    ] {
        let refused = post(
            &http,
            op(GAME, "determinize"),
            &json!({"info": forged, "count": 1}),
        )
        .await;
        assert_eq!(problem(&refused), (400, "invalid_info"), "{}", refused.1);
    }
    let other_game = post(
        &http,
        op("twenty_two_short", "rollouts"),
        &json!({"info": info, "count": 1, "policy": "random"}),
    )
    .await;
    assert_eq!(problem(&other_game), (400, "invalid_info"));
    assert!(
        other_game.1["detail"]
            .as_str()
            .unwrap_or_default()
            .contains("twenty_two`"),
        "{}",
        other_game.1
    );
    app.stop().await;
}

/// `cardroom serve` on `database`; its base URL once it listens.
pub(crate) fn serve(database: &str, extra: &[&str]) -> (Process, String) {
    let mut command = cardroom([
        "serve",
        "--port",
        "0",
        "--no-ladder",
        "--database",
        database,
    ]);
    command
        .args(extra)
        .env("CARDROOM_LOG_FORMAT", "json")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut process = Process::spawn(&mut command);
    let output = process.0.stderr.take().expect("stderr");
    let mut lines = BufReader::new(output).lines();
    for line in lines.by_ref() {
        let line = line.expect("a log line");
        if line.contains("cardroom listening") {
            let logged: Value = serde_json::from_str(&line).expect("a JSON log line");
            let addr = logged["fields"]["addr"].as_str().expect("addr").to_string();
            // The rest of the log is read (and dropped) so the server never blocks on it.
            std::thread::spawn(move || lines.for_each(drop));
            return (process, format!("http://{addr}"));
        }
    }
    panic!("the server never listened");
}

/// `cardroom serve` on `database` that must refuse to start: its error output.
pub(crate) fn refused_start(database: &str, extra: &[&str]) -> String {
    run_refused(
        cardroom([
            "serve",
            "--port",
            "0",
            "--no-ladder",
            "--database",
            database,
        ])
        .args(extra),
        "cardroom serve",
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn the_seal_key_is_made_once_beside_the_database_and_reused() {
    let dir = temp_dir("seal-key");
    let database = dir.path().join("arena.db").to_string_lossy().to_string();
    let key_file = dir.path().join("arena.db.seal-key");
    let http = reqwest::Client::new();
    let bot = RecordingBot::spawn();

    let (first, base) = serve(&database, &[]);
    let created = std::fs::read_to_string(&key_file).expect("the key file was made");
    assert_eq!(created.trim().len(), 64);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&key_file)
            .expect("key file")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "readable by its owner only");
    }
    let requests = play_match(&http, &base, &bot, 5).await;
    let info = with_a_choice(&requests)["info"].clone();
    let body = json!({"info": info, "count": 2, "seed": 9});
    let before = post(&http, format!("{base}/v1/games/{GAME}/determinize"), &body).await;
    assert_eq!(before.0, 200, "{}", before.1);
    drop(first);

    // Restarted: the same key, so the token the bot holds still opens, to the same samples.
    let (second, base) = serve(&database, &[]);
    assert_eq!(
        std::fs::read_to_string(&key_file).expect("key file"),
        created
    );
    let after = post(&http, format!("{base}/v1/games/{GAME}/determinize"), &body).await;
    assert_eq!(after, before);
    drop(second);

    // Another key (`--seal-key-file`): refused, unless told to replace the database's; then the
    // token was sealed by another arena.
    let other_key = dir.path().join("other.key");
    std::fs::write(&other_key, "ab".repeat(32)).expect("key");
    let other = other_key.to_string_lossy().to_string();
    let refused = refused_start(&database, &["--seal-key-file", &other]);
    assert!(refused.contains("--new-seal-key"), "{refused}");
    let (_third, base) = serve(&database, &["--seal-key-file", &other, "--new-seal-key"]);
    let refused = post(&http, format!("{base}/v1/games/{GAME}/determinize"), &body).await;
    assert_eq!(problem(&refused), (400, "invalid_info"), "{}", refused.1);
    assert_eq!(
        std::fs::read_to_string(&key_file).expect("key file"),
        created
    );
}

/// `examples/ismcts/ismcts.py serve` plays in the arena: it searches from each request's `info`
/// (`/determinize`, `/rollouts`) and finishes a match against `heuristic` without a fault.
#[tokio::test(flavor = "multi_thread")]
async fn the_ismcts_example_plays_in_the_arena_from_info() {
    if !e2e::tool_or_skip("python3", "Python 3.9 or later: apt-get install -y python3") {
        return;
    }
    let app: TestApp = ServerOptions::default()
        .arena("ismcts-example")
        .builtins()
        .spawn()
        .await;
    let script = crate::support::workspace_root().join("examples/ismcts/ismcts.py");
    let mut command = std::process::Command::new("python3");
    command
        .arg(script)
        .args(["serve", "--port", "0", "--seconds", "0.1", "--games", GAME])
        .args(["--cardroom", &app.base])
        .env_remove("CARDROOM_SIGNING_SECRET")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    let mut bot = Process::spawn(&mut command);
    let mut lines = BufReader::new(bot.0.stdout.take().expect("stdout")).lines();
    let first = lines.next().expect("a line").expect("text");
    let url = first
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("ismcts.py printed {first:?}"))
        .to_string();
    std::thread::spawn(move || lines.for_each(drop));
    let http = reqwest::Client::new();
    let (status, registered) = post(
        &http,
        format!("{}/v1/bots", app.base),
        &json!({"name": "ismcts.py", "url": url, "games": [GAME], "open_to_challenges": true}),
    )
    .await;
    assert_eq!(status, 201, "{registered}");
    let (status, created) = post(
        &http,
        format!("{}/v1/matches", app.base),
        &json!({"game": GAME, "bots": [registered["id"], "heuristic"], "seed": 3, "deadline_ms": 3000}),
    )
    .await;
    assert_eq!(status, 202, "{created}");
    let id = created["id"].as_str().expect("id");
    let shown = finished(&http, &app.base, id).await;
    assert_eq!(shown["result"]["faults"], json!([0, 0]), "{shown}");
    let searched = shown["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .filter(|played| {
            played["seat"] == 0
                && played["comment"]
                    .as_str()
                    .is_some_and(|comment| comment.ends_with(" calls"))
        })
        .count();
    assert!(searched > 0, "no move was searched: {shown}");
    app.stop().await;
}
