//! Synthetic history for capacity tests (`cardroom db fill`, `bench/arena_scale.sh`): a database
//! filled with many finished matches quickly, through the store, without running bots. Every
//! match is a real game: a few uniformly random games per game id are played in process, and each
//! stored match is one of them (same seed, same actions), so its page, its frames and its replay
//! work like any played match's.

use crate::bots::new_id;
use crate::result::MatchResult;
use crate::store::{BotRecord, MatchRecord, MatchStatus, MoveRecord, Store, Transport, now_ms};
use engine::erased::NewGame;
use engine::rng::PlayoutRng;
use serde_json::Value;
use std::time::Instant;

/// What to generate.
#[derive(Debug, Clone)]
pub struct FillSpec {
    /// Matches to store at least.
    pub matches: u64,
    /// Moves to store at least (more matches are stored until both are reached).
    pub moves: u64,
    /// Registered bots to create beside the built-in ones (they never answer: a filled database
    /// is for reading, with the ladder off).
    pub bots: usize,
    /// Seed of the random games and of the seating.
    pub seed: u64,
}

/// What was generated.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct FillReport {
    /// Matches stored.
    pub matches: u64,
    /// Moves stored.
    pub moves: u64,
    /// Bots created.
    pub bots: usize,
    /// Seconds it took.
    pub seconds: f64,
}

/// One game played in process, replicated into many stored matches.
struct Template {
    game: String,
    players: usize,
    seed: u64,
    moves: Vec<MoveRecord>,
    result: MatchResult,
}

/// Random games to replicate per game id.
const TEMPLATES_PER_GAME: u64 = 4;
/// Matches per store transaction.
const CHUNK: usize = 2000;

/// Plays the templates: a few random games of every game id at its smallest table.
fn templates(seed: u64) -> Vec<Template> {
    let mut out = Vec::new();
    for game in engine::registry::games() {
        let info = game.info();
        let players = info.players.min.max(2);
        for t in 0..TEMPLATES_PER_GAME {
            let game_seed = (seed.wrapping_mul(31).wrapping_add(t)) & engine::rng::MAX_SEED;
            let request = NewGame {
                players,
                seed: game_seed,
                ..NewGame::default()
            };
            let Ok(mut state) = game.start(&request) else {
                continue;
            };
            let mut rng = PlayoutRng::new(game_seed);
            let mut moves = Vec::new();
            while let Some(&seat) = state.to_act().first() {
                let legal = state.legal_actions(seat);
                let action = legal[rng.below(legal.len())].clone();
                if state.apply(seat, &action).is_err() {
                    break;
                }
                moves.push(MoveRecord {
                    index: moves.len(),
                    seat,
                    action,
                    latency_ms: 1 + rng.below(40) as u64,
                    fault: None,
                    comment: None,
                    events: Vec::new(),
                });
            }
            let Some(result) = state.result() else {
                continue;
            };
            let faults = vec![0u32; players];
            out.push(Template {
                game: info.id.clone(),
                players,
                seed: game_seed,
                moves,
                result: MatchResult::new(&result, Vec::new(), Vec::new(), faults),
            });
        }
    }
    out
}

/// Fills `store` with `spec`'s matches, oldest first, ending now (one match a second back in
/// time). Seats go to the built-in `random` and `heuristic` bots and `spec.bots` registered ones.
pub async fn fill(store: &dyn Store, spec: &FillSpec) -> anyhow::Result<FillReport> {
    let start = Instant::now();
    let mut bots: Vec<String> = store
        .bots()
        .await?
        .into_iter()
        .filter(|b| b.builtin)
        .map(|b| b.id)
        .collect();
    for i in 0..spec.bots {
        let bot = BotRecord {
            id: new_id("b"),
            name: format!("filled-{i}-{}", spec.seed),
            url: format!("http://127.0.0.1:9/filled-{i}"),
            games: engine::registry::games()
                .iter()
                .map(|g| g.info().id.clone())
                .collect(),
            author: "cardroom db fill".into(),
            version: "1".into(),
            token_hash: String::new(),
            signing_secret: crate::bots::new_secret(),
            previous_secret: None,
            builtin: false,
            transport: Transport::Url,
            paused: false,
            failures: 0,
            failing_since: None,
            retry_at: None,
            pause_reason: None,
            trial_match: None,
            created_at: now_ms(),
            history: Default::default(),
            open_to_challenges: false,
        };
        store.insert_bot(&bot).await?;
        bots.push(bot.id);
    }
    anyhow::ensure!(
        bots.len() >= 2,
        "no bots to seat: register the built-in bots first"
    );
    let templates = templates(spec.seed);
    anyhow::ensure!(!templates.is_empty(), "no game could be played");
    let mut rng = PlayoutRng::new(spec.seed);
    let mut report = FillReport {
        bots: spec.bots,
        ..FillReport::default()
    };
    // Both goals are met at once: while the moves run ahead of the matches' target mean, the
    // next match is one of the shorter games (every game id still appears).
    let target_mean = spec.moves as f64 / spec.matches.max(1) as f64;
    let mut short: Vec<usize> = (0..templates.len())
        .filter(|&i| templates[i].moves.len() as f64 <= target_mean)
        .collect();
    if short.is_empty() {
        let shortest = (0..templates.len())
            .min_by_key(|&i| templates[i].moves.len())
            .expect("templates");
        short.push(shortest);
    }
    let mean = templates.iter().map(|t| t.moves.len() as u64).sum::<u64>() / templates.len() as u64;
    let expected = spec.matches.max(spec.moves.div_ceil(mean.max(1)));
    let oldest = now_ms() - expected as i64 * 1000;
    let mut batch: Vec<(MatchRecord, Vec<MoveRecord>)> = Vec::with_capacity(CHUNK);
    while report.matches < spec.matches || report.moves < spec.moves {
        let n = report.matches;
        let ahead = report.moves as f64 > target_mean * n as f64;
        let template = if ahead {
            &templates[short[rng.below(short.len())]]
        } else {
            &templates[rng.below(templates.len())]
        };
        let mut seats = Vec::with_capacity(template.players);
        while seats.len() < template.players {
            let bot = &bots[rng.below(bots.len())];
            if !seats.contains(bot) || bots.len() < template.players {
                seats.push(bot.clone());
            }
        }
        let created_at = oldest + n as i64 * 1000;
        let ranked = rng.below(2) == 0;
        let record = MatchRecord {
            id: new_id("m"),
            seq: 0,
            moves_pruned: false,
            game: template.game.clone(),
            bots: seats,
            options: Value::Object(Default::default()),
            seed: template.seed,
            // Filled matches stand for past ones, stored before commitments.
            seed_salt: None,
            deals: Vec::new(),
            ranked,
            ladder: ranked,
            deadline_ms: 1000,
            max_faults: 3,
            clock: None,
            pace_ms: 0,
            status: MatchStatus::Finished,
            result: Some(template.result.clone()),
            error: None,
            abort_reason: None,
            created_at,
            started_at: Some(created_at),
            finished_at: Some(created_at + 500),
            creator: Some(if ranked {
                crate::store::Creator::ladder()
            } else {
                crate::store::Creator::admin()
            }),
        };
        report.matches += 1;
        report.moves += template.moves.len() as u64;
        batch.push((record, template.moves.clone()));
        if batch.len() == CHUNK {
            store.import_matches(&batch).await?;
            batch.clear();
        }
    }
    if !batch.is_empty() {
        store.import_matches(&batch).await?;
    }
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}
