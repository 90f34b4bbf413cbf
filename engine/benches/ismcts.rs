//! Strength of the IS-MCTS search against `heuristic` and `random`, one game id per family, in
//! seeded duplicate series: for every seed and every seat, the game is played once with IS-MCTS in
//! that seat and once with the opponent policy there, the other seats and the cards (same seed)
//! unchanged. Reported per id: the mean standing (0 last .. 1 first, ties shared; see
//! `engine::search::standing`) of IS-MCTS and of the policy it replaced in the same seats, and the
//! share of paired games IS-MCTS did better in (ties count half).
//!
//! `cargo bench -p engine --bench ismcts` (environment: `ISMCTS_SEEDS` seeds per id, default 2;
//! `ISMCTS_ITERATIONS` iterations per move, default 150; `ISMCTS_MS` a time budget per move in
//! milliseconds instead, as the arena's bot has; `ISMCTS_ROLLOUT` `uniform` or the percentage of
//! rollout moves the family's heuristic plays, default the arena's; `ISMCTS_IDS` a comma list of
//! ids). A benchmark, not a test: it prints figures and asserts nothing.

use engine::rng::PlayoutRng;
use engine::search::{Rollout, standing};
use engine::{Game, Match, NewGame, Viewer, registry};
use std::time::{Duration, Instant};

const IDS: [&str; 10] = [
    "twenty_two_short",
    "sloppy_seconds",
    "marglia",
    "watten",
    "bird_dog_short",
    "trump_crew",
    "basra",
    "chinese_ten",
    "taihe_abao",
    "tjak_mat_tchi_ki",
];

#[derive(Clone, Copy, PartialEq)]
enum Policy {
    Random,
    Heuristic,
    Search,
}

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// How long one search runs.
#[derive(Clone, Copy)]
enum Budget {
    Iterations(u32),
    Time(Duration),
}

/// Plays one game and answers the standing of `seat`.
fn play(
    game: &dyn Game,
    players: usize,
    seed: u64,
    seat: usize,
    (mine, others): (Policy, Policy),
    budget: Budget,
    rollout: Rollout,
) -> f64 {
    let mut state: Box<dyn Match> = game
        .start(&NewGame {
            players,
            seed,
            ..NewGame::default()
        })
        .expect("setup");
    let mut rng = PlayoutRng::new(seed ^ 0x5EED);
    let mut moves = 0;
    while let Some(&actor) = state.to_act().first() {
        let legal = state.legal_actions(actor);
        let policy = if actor == seat { mine } else { others };
        let index = match policy {
            Policy::Random => rng.below(legal.len()),
            Policy::Heuristic => game
                .heuristic(&state.view(Viewer::Seat(actor)), &legal)
                .unwrap_or(0),
            Policy::Search => {
                let started = Instant::now();
                let mut keep_going = |done: u32| match budget {
                    Budget::Iterations(n) => done < n,
                    Budget::Time(t) => done < 8 || started.elapsed() < t,
                };
                state
                    .ismcts(actor, &mut rng, rollout, &mut keep_going)
                    .unwrap_or(0)
            }
        };
        state.apply(actor, &legal[index]).expect("a listed action");
        moves += 1;
        assert!(moves < 200_000, "no end");
    }
    let result = state.result().expect("a result");
    standing(&result, seat, players)
}

fn main() {
    let seeds = env_or("ISMCTS_SEEDS", 2) as u64;
    let iterations = env_or("ISMCTS_ITERATIONS", 150) as u32;
    let budget = match std::env::var("ISMCTS_MS") {
        Ok(ms) => Budget::Time(Duration::from_millis(
            ms.parse()
                .unwrap_or_else(|_| panic!("ISMCTS_MS: milliseconds, not `{ms}`")),
        )),
        Err(_) => Budget::Iterations(iterations),
    };
    let rollout = match std::env::var("ISMCTS_ROLLOUT").as_deref() {
        Ok("uniform") => Rollout::Uniform,
        Ok(percent) => Rollout::Heuristic {
            percent: percent
                .parse()
                .ok()
                .filter(|p| *p <= 100)
                .unwrap_or_else(|| {
                    panic!("ISMCTS_ROLLOUT: `uniform` or a percentage 0-100, not `{percent}`")
                }),
        },
        Err(_) => Rollout::default(),
    };
    let chosen: Vec<String> = std::env::var("ISMCTS_IDS")
        .map(|v| v.split(',').map(String::from).collect())
        .unwrap_or_else(|_| IDS.iter().map(|s| s.to_string()).collect());
    let per_move = match budget {
        Budget::Iterations(n) => format!("{n} iterations"),
        Budget::Time(t) => format!("{} ms", t.as_millis()),
    };
    println!(
        "IS-MCTS ({per_move} per move, rollouts {rollout:?}) in duplicate series, {seeds} seeds x every seat"
    );
    println!(
        "{:<18} {:>3} {:>10} {:>10} {:>9} {:>10} {:>10} {:>9} {:>8}",
        "game id", "n", "ismcts", "heuristic", "won", "ismcts", "random", "won", "seconds"
    );
    for id in chosen {
        let Some(game) = registry::find(&id) else {
            println!("{id}: no such game id");
            continue;
        };
        let players = game.info().players.min.max(3).min(game.info().players.max);
        let started = Instant::now();
        let mut row = Vec::new();
        for opponent in [Policy::Heuristic, Policy::Random] {
            let (mut search, mut base, mut won, mut games) = (0.0, 0.0, 0.0, 0.0);
            for seed in 0..seeds {
                for seat in 0..players {
                    let s = play(
                        game,
                        players,
                        seed,
                        seat,
                        (Policy::Search, opponent),
                        budget,
                        rollout,
                    );
                    let b = play(
                        game,
                        players,
                        seed,
                        seat,
                        (opponent, opponent),
                        budget,
                        rollout,
                    );
                    search += s;
                    base += b;
                    won += if s > b {
                        1.0
                    } else if s == b {
                        0.5
                    } else {
                        0.0
                    };
                    games += 1.0;
                }
            }
            row.push((search / games, base / games, won / games));
        }
        println!(
            "{:<18} {:>3} {:>10.3} {:>10.3} {:>8.0}% {:>10.3} {:>10.3} {:>8.0}% {:>8.1}",
            id,
            players,
            row[0].0,
            row[0].1,
            row[0].2 * 100.0,
            row[1].0,
            row[1].1,
            row[1].2 * 100.0,
            started.elapsed().as_secs_f64()
        );
    }
}
