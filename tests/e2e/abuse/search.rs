//! Bounded search (issue 48, part 48s): the attacks on `/rollouts` and `/determinize`
//! reproduced, and shown stopped. A request too large is refused before it runs; `budget_ms`
//! answers what fitted; a client has two searches at once; a flood of the largest searches
//! leaves `/apply` answering and an honest bot's match without a fault.

use crate::support::{GAME, ServerOptions, spawn_app};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// The largest search one request may ask: every action, ten thousand heuristic playouts each.
fn largest(step: &Value, budget_ms: Option<u64>) -> Value {
    let seat = step["legal_actions"][0]["seat"].as_u64().expect("a seat");
    let mut body =
        json!({"state": step["state"], "seat": seat, "count": 10_000, "policy": "heuristic"});
    if let Some(budget) = budget_ms {
        body["budget_ms"] = json!(budget);
    }
    body
}

/// Before: the server played 2 s of playouts, then refused. Now the estimate refuses it at once
/// (the generous bound here: well under the 2 s running it would take).
#[tokio::test]
async fn an_over_budget_rollouts_request_is_refused_before_it_runs() {
    let app = spawn_app().await;
    let step = app.new_game(4, 7).await;
    // The game's playout cost is measured by its first search.
    let small = json!({"state": step["state"], "seat": largest(&step, None)["seat"], "count": 1, "policy": "heuristic"});
    assert_eq!(app.op(GAME, "rollouts", &small).await.status, 200);
    let asked = Instant::now();
    let refused = app.op(GAME, "rollouts", &largest(&step, None)).await;
    let took = asked.elapsed();
    assert_eq!(refused.status, 422, "{}", refused.body);
    assert_eq!(refused.problem_code(), "search_over_budget");
    assert!(took < Duration::from_millis(1500), "refused after {took:?}");
    // `/determinize` is estimated the same way: 256 states of a fresh game fit.
    let drawn = app
        .op(
            GAME,
            "determinize",
            &json!({"state": step["state"], "seat": 0, "count": 256, "seed": 1}),
        )
        .await;
    assert_eq!(drawn.status, 200, "{}", drawn.body);
    assert_eq!(drawn.body["count_done"], 256);
    assert_eq!(drawn.body["complete"], true);
}

/// `budget_ms` asks for what fits: the answer holds the playouts played in time, each action's
/// count and the standard errors of its mean standing.
#[tokio::test]
async fn budget_ms_answers_the_playouts_that_fitted_with_standard_errors() {
    let app = spawn_app().await;
    let step = app.new_game(4, 7).await;
    let reply = app.op(GAME, "rollouts", &largest(&step, Some(200))).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body["complete"], false, "{}", reply.body);
    assert_eq!(reply.body["count"], 10_000);
    assert_eq!(reply.body["budget_ms"], 200);
    let results = reply.body["results"].as_array().expect("results");
    assert!(!results.is_empty());
    for entry in results {
        let done = entry["count_done"].as_u64().expect("count_done");
        assert!((1..10_000).contains(&done), "{entry}");
        assert_eq!(entry["count_done"], entry["playouts"], "{entry}");
        let errors = entry["mean_standing_error"].as_array().expect("errors");
        assert_eq!(errors.len(), 4, "{entry}");
        assert!(
            errors.iter().all(|e| e.as_f64().is_some_and(|e| e >= 0.0)),
            "{entry}"
        );
    }
    // A request that fits whole is complete, whatever its budget.
    let seat = &largest(&step, None)["seat"];
    let whole = app
        .op(
            GAME,
            "rollouts",
            &json!({"state": step["state"], "seat": seat, "count": 4, "policy": "random", "budget_ms": 2000}),
        )
        .await;
    assert_eq!(whole.body["complete"], true, "{}", whole.body);
    assert!(
        whole.body["results"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["count_done"] == 4)
    );
    // `/determinize` with a budget answers at least one state, at most `count`.
    let drawn = app
        .op(
            GAME,
            "determinize",
            &json!({"state": step["state"], "seat": 0, "count": 256, "budget_ms": 1}),
        )
        .await;
    assert_eq!(drawn.status, 200, "{}", drawn.body);
    let done = drawn.body["count_done"].as_u64().expect("count_done");
    assert!((1..=256).contains(&done), "{}", drawn.body);
    assert_eq!(drawn.body["states"].as_array().unwrap().len() as u64, done);
}

/// One client has two searches at once: of three sent together, each holding its place for
/// 1.5 s, one is 429 `too_many_searches` with `Retry-After`, at once; another search is
/// admitted once they are answered.
#[tokio::test]
async fn a_third_concurrent_search_of_one_client_is_refused() {
    let app = spawn_app().await;
    let step = app.new_game(4, 7).await;
    let long = largest(&step, Some(1500));
    let sent: Vec<_> = (0..3)
        .map(|_| {
            let (client, url, body) = (
                app.client.clone(),
                format!("{}/v1/games/{GAME}/rollouts", app.base),
                long.clone(),
            );
            tokio::spawn(async move {
                let reply = client.post(url).json(&body).send().await.expect("POST");
                let status = reply.status().as_u16();
                let retry = reply.headers().contains_key("retry-after");
                let body: Value = reply.json().await.expect("JSON");
                (status, retry, body)
            })
        })
        .collect();
    let mut answers = Vec::new();
    for task in sent {
        answers.push(task.await.expect("task"));
    }
    let refused: Vec<_> = answers
        .iter()
        .filter(|(status, ..)| *status == 429)
        .collect();
    let answered = answers.iter().filter(|(status, ..)| *status == 200).count();
    assert_eq!((refused.len(), answered), (1, 2), "{answers:?}");
    let (_, retry, problem) = refused[0];
    assert!(retry, "Retry-After");
    assert_eq!(problem["code"], "too_many_searches", "{problem}");
    let seat = &long["seat"];
    let small = json!({"state": step["state"], "seat": seat, "count": 1, "policy": "random"});
    assert_eq!(app.op(GAME, "rollouts", &small).await.status, 200);
}

/// Sixteen of the largest searches at once from one client, sent again as soon as refused, for
/// as long as an honest URL bot's match runs: `/apply` keeps answering and the match finishes
/// without a fault (no timeout charged to a bot for the server's own load).
#[tokio::test]
async fn sixteen_largest_searches_leave_apply_and_an_honest_bots_match_alone() {
    let app = ServerOptions::default().arena("abuse-search").spawn().await;
    let first = app.register_url_bot("honest-a", GAME).await;
    let second = app.register_url_bot("honest-b", GAME).await;
    let created = app
        .post(
            "/v1/matches",
            &json!({"game": GAME, "bots": [first, second], "seed": 5, "deadline_ms": 1000}),
        )
        .await;
    assert_eq!(created.status, 202, "{}", created.body);
    let id = created.body["id"].as_str().expect("id").to_string();
    let step = app.new_game(4, 7).await;
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flood: Vec<_> = (0..16)
        .map(|_| {
            tokio::spawn(flood_one(
                app.client.clone(),
                format!("{}/v1/games/{GAME}/rollouts", app.base),
                largest(&step, Some(2000)),
                stop.clone(),
            ))
        })
        .collect();
    let mut applied = 0;
    let shown = loop {
        let played = app.advance(step.clone(), 1).await;
        assert_ne!(played, step);
        applied += 1;
        let shown = app.get(&format!("/v1/matches/{id}")).await.body;
        if shown["status"] == "finished" || shown["status"] == "aborted" {
            break shown;
        }
    };
    stop.store(true, std::sync::atomic::Ordering::Release);
    let mut answers = 0;
    for task in flood {
        answers += task.await.expect("flood task");
    }
    assert_eq!(shown["status"], "finished", "{shown}");
    assert_eq!(shown["result"]["faults"], json!([0, 0]), "{shown}");
    assert!(
        applied > 0 && answers > 0,
        "{applied} applies, {answers} searches answered"
    );
}

/// One flooding client's lane: the largest search again and again until told to stop; the
/// searches answered.
async fn flood_one(
    client: reqwest::Client,
    url: String,
    body: Value,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> u32 {
    let mut answered = 0;
    while !stop.load(std::sync::atomic::Ordering::Acquire) {
        let reply = client.post(&url).json(&body).send().await.expect("POST");
        match reply.status().as_u16() {
            200 => answered += 1,
            // Refused at once: asked again after a pause, as a client hammering would.
            429 => tokio::time::sleep(Duration::from_millis(20)).await,
            other => panic!("a search answered {other}"),
        }
    }
    answered
}

/// `cardroom play` serves `/rollouts` and `/determinize` on `--listen` (bounded as `serve`
/// bounds them), and says where: a search bot can be tried locally.
#[tokio::test]
async fn cardroom_play_serves_the_search_routes() {
    use api::cli::{Cli, Command as Sub};
    use clap::Parser as _;
    use std::io::BufRead as _;

    let cli = Cli::try_parse_from([
        "cardroom",
        "play",
        "--game",
        GAME,
        "--bot",
        "stream:searcher",
        "--bot",
        "heuristic",
        "--connect-wait",
        "15",
    ])
    .expect("the play flags parse");
    let Sub::Play(args) = cli.command else {
        panic!("`cardroom play` parses as Play");
    };
    // The position first: `play` gives up `--connect-wait` seconds after it starts (no stream
    // bot comes), and the requests must reach it before then, even on a loaded machine.
    let app = spawn_app().await;
    let step = app.new_game(4, 7).await;
    let seat = step["legal_actions"][0]["seat"].clone();
    let (reader, mut writer) = std::io::pipe().expect("a pipe");
    // On its own thread and actix system, as `cardroom play` runs; no stream bot comes, so it
    // gives up after `--connect-wait`.
    let played = std::thread::spawn(move || {
        let routes = api::cli::play_routes().expect("the search pool");
        actix_web::rt::System::new()
            .block_on(async { arena::play_serving(&args, &mut writer, Some(routes)).await })
            .is_ok()
    });
    // The output is read to its end (a reader gone after the line it wanted would make play's
    // next write fail with a broken pipe, and play stop serving).
    let (found, search_line) = tokio::sync::oneshot::channel();
    std::thread::spawn(move || {
        let mut found = Some(found);
        for line in std::io::BufReader::new(reader)
            .lines()
            .map_while(Result::ok)
        {
            if line.starts_with("search: ")
                && let Some(found) = found.take()
            {
                let _ = found.send(line);
            }
        }
    });
    let search_line = search_line
        .await
        .expect("play says where the search routes are");
    let url = search_line
        .split_whitespace()
        .find(|word| word.starts_with("http://") && word.ends_with("/rollouts"))
        .expect("the rollouts URL")
        .to_string();
    let client = reqwest::Client::new();
    let answered = client
        .post(&url)
        .json(&json!({"state": step["state"], "seat": seat, "count": 3, "policy": "random", "seed": 1}))
        .send()
        .await
        .expect("POST rollouts");
    assert_eq!(answered.status(), 200);
    let body: Value = answered.json().await.expect("JSON");
    assert_eq!(body["complete"], true, "{body}");
    let refused = client
        .post(&url)
        .json(&largest(&step, None))
        .send()
        .await
        .expect("POST rollouts");
    assert_eq!(refused.status(), 422);
    let determinized = client
        .post(url.replace("/rollouts", "/determinize"))
        .json(&json!({"state": step["state"], "seat": 0, "count": 2}))
        .send()
        .await
        .expect("POST determinize");
    assert_eq!(determinized.status(), 200);
    let gave_up = tokio::task::spawn_blocking(move || played.join().expect("play ran"))
        .await
        .expect("join");
    assert!(!gave_up, "no stream bot connected: play gives up");
}
