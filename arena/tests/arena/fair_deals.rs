//! Provably fair deals over HTTP: a running match's seed (and the salt of its commitment) shows
//! nowhere, its `seed_commitment` shows from the start and checks out against the seed and salt
//! revealed at the end; a tournament deal's revealed seed gives away no other deal's seed.

use crate::support::{
    ADMIN_TOKEN, Behavior, register, spawn_app, spawn_arena_with, spawn_bot, two_player_game,
};
use arena::commitment::seed_commitment;
use arena::store::{AbortReason, MatchStatus};
use serde_json::{Value, json};
use std::time::Duration;

async fn send(request: reqwest::RequestBuilder) -> (u16, String) {
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    (status, response.text().await.expect("body"))
}

async fn get_json(http: &reqwest::Client, url: String) -> Value {
    let (status, body) = send(http.get(&url)).await;
    assert_eq!(status, 200, "{url}: {body}");
    serde_json::from_str(&body).expect("JSON")
}

/// POSTs `body` to `url`, expects 202, and answers the created id.
async fn create(http: &reqwest::Client, url: String, body: Value) -> String {
    let (status, created) = send(http.post(&url).json(&body)).await;
    assert_eq!(status, 202, "{url}: {created}");
    serde_json::from_str::<Value>(&created).expect("JSON")["id"]
        .as_str()
        .expect("id")
        .to_string()
}

/// The first `move` event of a match's live stream, as text (the stream stays open while the
/// match runs).
async fn first_streamed_move(http: &reqwest::Client, url: String) -> String {
    let mut response = http.get(&url).send().await.expect("GET events");
    assert_eq!(response.status().as_u16(), 200);
    let mut text = String::new();
    while !text.contains("event: move") || !text.ends_with("\n\n") {
        let chunk = tokio::time::timeout(Duration::from_secs(30), response.chunk())
            .await
            .expect("the stream stalls")
            .expect("read")
            .expect("the stream ended before a move");
        text.push_str(&String::from_utf8_lossy(&chunk));
    }
    text
}

#[tokio::test]
async fn a_running_matchs_seed_shows_nowhere_and_its_commitment_checks_out_at_the_end() {
    let game = two_player_game();
    let arena = spawn_arena_with("fair-deal", |config| config.deadline_ms = 1000).await;
    arena.register_builtins().await.expect("builtins");
    let slow = spawn_bot(Behavior::Slow(60)).await;
    let slow_id = register(&arena, &slow, &game).await;
    let base = spawn_app(&arena).await;
    let http = reqwest::Client::new();
    // Many digits: found in a body only if the body names it.
    let seed: u64 = 7_385_629_104_557_313;
    let body = json!({"game": game, "bots": [slow_id, "random"], "seed": seed});
    let id = create(&http, format!("{base}/v1/matches"), body).await;
    let salt = arena
        .store()
        .get_match(&id)
        .await
        .unwrap()
        .unwrap()
        .seed_salt
        .expect("a new match has a salt");
    assert_eq!(salt.len(), 64);
    let commitment = seed_commitment(seed, &salt);

    let streamed = first_streamed_move(&http, format!("{base}/v1/matches/{id}/events")).await;
    let running = get_json(&http, format!("{base}/v1/matches/{id}")).await;
    assert_eq!(running["status"], "running", "{running}");
    assert_eq!(running["seed"], Value::Null);
    assert_eq!(running["seed_salt"], Value::Null);
    assert_eq!(running["seed_commitment"], commitment.as_str());
    // Everywhere a running match shows: its detail, the lists (one page and NDJSON, by game and
    // by bot), its frames and stream, its bots' pages and faults.
    let mut bodies = vec![("stream", streamed), ("detail", running.to_string())];
    for path in [
        "/v1/matches".to_string(),
        "/v1/matches?format=ndjson".to_string(),
        format!("/v1/matches?game={game}&format=ndjson"),
        format!("/v1/matches?bot={slow_id}"),
        format!("/v1/matches/{id}/frames"),
        format!("/v1/bots/{slow_id}"),
        format!("/v1/bots/{slow_id}/faults"),
        format!("/v1/leaderboards/{game}"),
    ] {
        let (status, body) = send(http.get(format!("{base}{path}"))).await;
        assert_eq!(status, 200, "{path}: {body}");
        bodies.push(("list", format!("{path}: {body}")));
    }
    for (what, body) in &bodies {
        assert!(
            !body.contains(&seed.to_string()),
            "{what}: the seed shows while the match runs: {body}"
        );
        assert!(
            !body.contains(&salt),
            "{what}: the salt shows while the match runs"
        );
    }

    let ended = arena
        .wait_for(&id, Duration::from_secs(120))
        .await
        .expect("the match ends");
    assert_eq!(ended.status, arena::store::MatchStatus::Finished);
    let over = get_json(&http, format!("{base}/v1/matches/{id}")).await;
    assert_eq!(over["seed"], seed);
    assert_eq!(over["seed_salt"], salt.as_str());
    assert_eq!(
        over["seed_commitment"],
        commitment.as_str(),
        "the same commitment"
    );
    // What a reader checks with sha256sum: the text "<seed>:<salt>".
    assert_eq!(
        seed_commitment(
            over["seed"].as_u64().unwrap(),
            over["seed_salt"].as_str().unwrap()
        ),
        over["seed_commitment"].as_str().unwrap()
    );

    // A match stored before commitments (no salt) shows none, before and after its end. The
    // process stops claiming first: a worker must not start the inserted match before it is
    // aborted by hand (seen under a loaded CI).
    arena.drain_within(Duration::ZERO).await;
    let mut old = arena.store().get_match(&id).await.unwrap().unwrap();
    old.id = "m_00000000000000ab".into();
    old.seed_salt = None;
    // Inserted as it was stored then: queued (an insert keeps the record's status).
    old.status = MatchStatus::Queued;
    arena.store().insert_match(&old).await.expect("insert");
    let shown = get_json(&http, format!("{base}/v1/matches/{}", old.id)).await;
    assert_eq!(shown["seed_commitment"], Value::Null);
    assert_eq!(shown["seed_salt"], Value::Null);
    assert!(
        arena
            .store()
            .abort_match(&old.id, AbortReason::Cancelled, "test")
            .await
            .unwrap()
    );
    let shown = get_json(&http, format!("{base}/v1/matches/{}", old.id)).await;
    assert_eq!(shown["seed"], seed);
    assert_eq!(shown["seed_commitment"], Value::Null);
}

const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;
const MIX1: u64 = 0xbf58_476d_1ce4_e5b9;
const MIX2: u64 = 0x94d0_49bb_1331_11eb;
const MAX_SEED: u64 = (1 << 53) - 1;

/// How deal seeds were derived before: one SplitMix64 step.
fn splitmix_deal_seed(seed: u64, deal: u32) -> u64 {
    let mut z = (seed ^ u64::from(deal).wrapping_mul(GOLDEN)).wrapping_add(GOLDEN);
    z = (z ^ (z >> 30)).wrapping_mul(MIX1);
    z = (z ^ (z >> 27)).wrapping_mul(MIX2);
    (z ^ (z >> 31)) & MAX_SEED
}

/// The inverse of an odd number modulo 2^64 (Newton's iteration).
fn inverse(odd: u64) -> u64 {
    let mut x = odd;
    for _ in 0..5 {
        x = x.wrapping_mul(2u64.wrapping_sub(odd.wrapping_mul(x)));
    }
    x
}

/// The inverse of `x ^ (x >> shift)`.
fn unshift(y: u64, shift: u32) -> u64 {
    let mut x = y;
    for _ in 0..64 / shift + 1 {
        x = y ^ (x >> shift);
    }
    x
}

/// Every JSON-safe tournament seed whose deal `deal` has the seed `revealed` under the SplitMix64
/// step: the attack a one-way derivation must defeat (the 11 masked bits are tried).
fn splitmix_preimages(revealed: u64, deal: u32) -> Vec<u64> {
    (0..1u64 << 11)
        .filter_map(|top| {
            let mut z = unshift(revealed | (top << 53), 31).wrapping_mul(inverse(MIX2));
            z = unshift(z, 27).wrapping_mul(inverse(MIX1));
            z = unshift(z, 30).wrapping_sub(GOLDEN);
            let seed = z ^ u64::from(deal).wrapping_mul(GOLDEN);
            (seed <= MAX_SEED).then_some(seed)
        })
        .collect()
}

#[tokio::test]
async fn a_finished_deals_seed_gives_away_no_other_deal_of_its_tournament() {
    // The attack works on the old derivation: one revealed deal seed, every other deal's seed.
    let secret = 4_503_599_627_370_449;
    assert!(splitmix_preimages(splitmix_deal_seed(secret, 0), 0).contains(&secret));

    let game = two_player_game();
    // One match at a time against a bot that takes 30 s a move: deal 0's table, then deal 1's.
    let arena = spawn_arena_with("deal-seeds", |config| config.concurrency = 1).await;
    arena.register_builtins().await.expect("builtins");
    let slow = spawn_bot(Behavior::Slow(30_000)).await;
    let slow_id = register(&arena, &slow, &game).await;
    let base = spawn_app(&arena).await;
    let http = reqwest::Client::new();
    let body = json!({"game": game, "bots": [slow_id, "random"], "deals": 2,
                      "seat_rotations": false, "deadline_ms": 60000});
    let id = create(&http, format!("{base}/v1/tournaments"), body).await;
    let view = get_json(&http, format!("{base}/v1/tournaments/{id}")).await;
    let tables: Vec<String> = view["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(tables.len(), 2);
    assert!(
        arena
            .store()
            .abort_match(&tables[0], AbortReason::Cancelled, "test")
            .await
            .unwrap()
    );
    // Deal 0 is over: its seed is public. Deal 1 still plays.
    let first = get_json(&http, format!("{base}/v1/matches/{}", tables[0])).await;
    let revealed = first["seed"].as_u64().expect("deal 0's seed once over");
    // A table shows nothing while its deal plays.
    let (status, body) = send(http.get(format!("{base}/v1/matches/{}", tables[1]))).await;
    assert_eq!(status, 403, "{body}");
    let second = arena.store().get_match(&tables[1]).await.unwrap().unwrap();
    assert_ne!(
        Some(first["seed_salt"].as_str().expect("deal 0's salt")),
        second.seed_salt.as_deref(),
        "each table has its own salt"
    );
    let hidden = second.seed;
    let guesses: Vec<u64> = splitmix_preimages(revealed, 0)
        .into_iter()
        .map(|tournament_seed| splitmix_deal_seed(tournament_seed, 1))
        .collect();
    assert!(
        !guesses.contains(&hidden),
        "deal 1's seed follows from deal 0's"
    );
    // Cancelling the rest ends the test's slow table.
    let (status, body) = send(
        http.delete(format!("{base}/v1/tournaments/{id}"))
            .bearer_auth(ADMIN_TOKEN),
    )
    .await;
    assert_eq!(status, 200, "{body}");
}
