//! Strength of the IS-MCTS search against `heuristic` and `random`, one game id per family, in
//! seeded duplicate series: for every seed and every side (a seat, or in a partnership game both
//! partners), the game is played once with IS-MCTS in that side's seats and once with the opponent
//! policy there, the other seats and the cards (same seed) unchanged. Reported per id and
//! opponent policy:
//! - `ismcts`, `opponent`: the mean standing (0 last .. 1 first, ties shared; see
//!   `engine::search::standing`) of IS-MCTS and of the policy it replaced, in the same seats;
//! - `paired`: the share of paired games in which IS-MCTS finished better than the replaced policy
//!   did (ties half), and `points`: the same by points margin over the best other side;
//! - `margin`: the points of margin IS-MCTS gained per game over the replaced policy;
//! - `first`: the share of games IS-MCTS's side finished first (a shared first place split), beside
//!   the replaced policy's share in the same seats (in a two-sided game: the win rate of the
//!   IS-MCTS side against the other policy's side, beside 50%).
//!
//! `cargo bench -p engine --bench ismcts` (environment: `ISMCTS_SEEDS` seeds per id, default 2;
//! `ISMCTS_ITERATIONS` iterations per move, default 150; `ISMCTS_MS` a time budget per move in
//! milliseconds instead, as the arena's bot has; `ISMCTS_ROLLOUT` `uniform` or the percentage of
//! rollout moves the family's heuristic plays, or `family` (the default: the family's choice, what
//! the arena's bot plays); `ISMCTS_IDS` a comma list of ids; `ISMCTS_OPPONENTS` `heuristic` or
//! `random` for one of the two; `ISMCTS_SIDE=seat` to put IS-MCTS in one seat only of a
//! partnership, beside a partner of the opponent policy; `ISMCTS_PLAYERS` a player count, clamped
//! to each id's range, instead of its least from 3). A benchmark, not a test: it prints figures
//! and asserts nothing.

use engine::rng::PlayoutRng;
use engine::search::{Rollout, standing};
use engine::{Game, GameResult, Match, NewGame, Viewer, registry};
use std::time::{Duration, Instant};

const IDS: [&str; 11] = [
    "twenty_two_short",
    "sloppy_seconds",
    "marglia",
    "maniglia",
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

/// How far `seat` finished ahead of the best other side, in the game's points (negative when
/// behind). Whether more points are better is read from the ranking: the first place's score
/// against the last's (0 when every side has the same score).
fn margin(result: &GameResult, seat: usize) -> f64 {
    let score = |s: usize| result.scores.get(s).copied().unwrap_or(0.0);
    let (Some(first), Some(last)) = (result.ranking.first(), result.ranking.last()) else {
        return 0.0;
    };
    let direction = (score(first[0]) - score(last[0])).signum();
    let partners = |s: usize| {
        result
            .teams
            .as_ref()
            .is_some_and(|teams| teams.iter().any(|t| t.contains(&s) && t.contains(&seat)))
    };
    let best_other = (0..result.scores.len())
        .filter(|&s| s != seat && !partners(s))
        .map(|s| direction * score(s))
        .fold(f64::NEG_INFINITY, f64::max);
    if best_other.is_finite() {
        direction * score(seat) - best_other
    } else {
        0.0
    }
}

/// The share of first place that `seat`'s side holds: 1 alone in first place, split between
/// the sides sharing it, 0 below.
fn first_share(result: &GameResult, seat: usize) -> f64 {
    let Some(first) = result.ranking.first() else {
        return 0.0;
    };
    if !first.contains(&seat) {
        return 0.0;
    }
    let side_of = |s: usize| {
        result
            .teams
            .as_ref()
            .and_then(|teams| teams.iter().position(|t| t.contains(&s)))
            .map_or(s, |team| usize::MAX - team)
    };
    let mut sides: Vec<usize> = first.iter().map(|&s| side_of(s)).collect();
    sides.sort_unstable();
    sides.dedup();
    1.0 / sides.len() as f64
}

/// Plays one game, `mine` in the seats of `side` and `others` elsewhere, and answers its result.
fn play(
    game: &dyn Game,
    players: usize,
    seed: u64,
    side: &[usize],
    (mine, others): (Policy, Policy),
    budget: Budget,
    rollout: Rollout,
) -> GameResult {
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
        let policy = if side.contains(&actor) { mine } else { others };
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
    state.result().expect("a result")
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
        Ok("family") => Rollout::Family,
        Ok(percent) => Rollout::Heuristic {
            percent: percent
                .parse()
                .ok()
                .filter(|p| *p <= 100)
                .unwrap_or_else(|| {
                    panic!(
                        "ISMCTS_ROLLOUT: `family`, `uniform` or a percentage 0-100, not `{percent}`"
                    )
                }),
        },
        Err(_) => Rollout::default(),
    };
    let chosen: Vec<String> = std::env::var("ISMCTS_IDS")
        .map(|v| v.split(',').map(String::from).collect())
        .unwrap_or_else(|_| IDS.iter().map(|s| s.to_string()).collect());
    let by_team = std::env::var("ISMCTS_SIDE").as_deref() != Ok("seat");
    let per_move = match budget {
        Budget::Iterations(n) => format!("{n} iterations"),
        Budget::Time(t) => format!("{} ms", t.as_millis()),
    };
    println!(
        "IS-MCTS ({per_move} per move, rollouts {rollout:?}) in duplicate series, {seeds} seeds x every {}",
        if by_team {
            "side (partners both search)"
        } else {
            "seat"
        }
    );
    println!(
        "{:<18} {:>3} {:>9} {:>7} {:>8} {:>7} {:>7} {:>8} {:>11} {:>8}",
        "game id",
        "n",
        "against",
        "ismcts",
        "opponent",
        "paired",
        "points",
        "margin",
        "first",
        "seconds"
    );
    let opponents = match std::env::var("ISMCTS_OPPONENTS").as_deref() {
        Ok("heuristic") => vec![Policy::Heuristic],
        Ok("random") => vec![Policy::Random],
        _ => vec![Policy::Heuristic, Policy::Random],
    };
    for id in chosen {
        let Some(game) = registry::find(&id) else {
            println!("{id}: no such game id");
            continue;
        };
        let range = game.info().players;
        let players = env_or("ISMCTS_PLAYERS", range.min.max(3)).clamp(range.min, range.max);
        for &opponent in &opponents {
            let started = Instant::now();
            let mut tally = Tally::default();
            for seed in 0..seeds {
                for seat in 0..players {
                    let base = play(
                        game,
                        players,
                        seed,
                        &[seat],
                        (opponent, opponent),
                        budget,
                        rollout,
                    );
                    // In a partnership game IS-MCTS takes the whole side (each seat searching
                    // on its own information), unless ISMCTS_SIDE=seat; a side counts once.
                    let side: Vec<usize> = match &base.teams {
                        Some(teams) if by_team => teams
                            .iter()
                            .find(|t| t.contains(&seat))
                            .cloned()
                            .unwrap_or_else(|| vec![seat]),
                        _ => vec![seat],
                    };
                    if side.iter().min() != Some(&seat) {
                        continue;
                    }
                    let search = play(
                        game,
                        players,
                        seed,
                        &side,
                        (Policy::Search, opponent),
                        budget,
                        rollout,
                    );
                    let outcome = |r: &GameResult| Outcome {
                        standing: standing(r, seat, players),
                        margin: margin(r, seat),
                        first: first_share(r, seat),
                    };
                    tally.add(outcome(&search), outcome(&base));
                }
            }
            let games = tally.games.max(1.0);
            println!(
                "{:<18} {:>3} {:>9} {:>7.3} {:>8.3} {:>6.0}% {:>6.0}% {:>+8.2} {:>4.0}% / {:>2.0}% {:>8.1}",
                id,
                players,
                if opponent == Policy::Heuristic {
                    "heuristic"
                } else {
                    "random"
                },
                tally.search / games,
                tally.base / games,
                tally.won / games * 100.0,
                tally.points_won / games * 100.0,
                tally.margin_gain / games,
                tally.search_first / games * 100.0,
                tally.base_first / games * 100.0,
                started.elapsed().as_secs_f64()
            );
        }
    }
}

/// How one game went for the side measured.
struct Outcome {
    standing: f64,
    margin: f64,
    first: f64,
}

/// Sums over paired games: standings, the share of pairs IS-MCTS did better in by standing and by
/// points margin (ties half), how many points of margin it gained, and first places.
#[derive(Default)]
struct Tally {
    search: f64,
    base: f64,
    won: f64,
    points_won: f64,
    margin_gain: f64,
    search_first: f64,
    base_first: f64,
    games: f64,
}

impl Tally {
    fn add(&mut self, search: Outcome, base: Outcome) {
        let better = |a: f64, b: f64| match a.partial_cmp(&b) {
            Some(std::cmp::Ordering::Greater) => 1.0,
            Some(std::cmp::Ordering::Equal) => 0.5,
            _ => 0.0,
        };
        self.search += search.standing;
        self.base += base.standing;
        self.won += better(search.standing, base.standing);
        self.points_won += better(search.margin, base.margin);
        self.margin_gain += search.margin - base.margin;
        self.search_first += search.first;
        self.base_first += base.first;
        self.games += 1.0;
    }
}
