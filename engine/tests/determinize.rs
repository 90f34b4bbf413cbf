//! Determinization against exact enumeration (issue 17): on small seeded positions, the
//! distribution of sampled deals matches the uniform law over every deal consistent with what the
//! seat has seen, counted here independently of the engine (chi-square, fixed seeds).
//! (`conformance` checks the other properties on every game id: view kept, pieces conserved,
//! validation passed, play continues.)

use crate::support::start;
use engine::Match;
use engine::rng::PlayoutRng;
use serde_json::{Value, json};
use std::collections::HashMap;

/// Plays the lowest-indexed legal action until `stop` says the position is small enough.
fn play_until(game: &mut Box<dyn Match>, stop: impl Fn(&Value) -> bool, pick: usize) {
    let mut turn = 0;
    while !stop(&game.save()["data"]) {
        let seat = game.to_act()[0];
        let legal = game.legal_actions(seat);
        let action = legal[(turn * pick) % legal.len()].clone();
        game.apply(seat, &action).unwrap();
        turn += 1;
    }
}

fn cards(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect()
}

fn suit(card: &str) -> char {
    card.chars().nth(1).unwrap()
}

/// Voids shown by the plays of one hand of Sloppy Seconds: a seat that did not follow the led
/// suit holds none of it (suit must be followed).
fn voids(data: &Value, players: usize) -> Vec<Vec<char>> {
    let mut voids = vec![Vec::new(); players];
    let tricks = data["tricks"].as_array().unwrap();
    let mut all: Vec<Vec<(usize, String)>> = tricks
        .iter()
        .map(|t| {
            t["plays"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| {
                    (
                        p[0].as_u64().unwrap() as usize,
                        p[1].as_str().unwrap().into(),
                    )
                })
                .collect()
        })
        .collect();
    all.push(
        data["trick"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (
                    p[0].as_u64().unwrap() as usize,
                    p[1].as_str().unwrap().into(),
                )
            })
            .collect(),
    );
    for plays in all {
        if let Some((_, lead)) = plays.first() {
            for (seat, card) in &plays[1..] {
                if suit(card) != suit(lead) {
                    voids[*seat].push(suit(lead));
                }
            }
        }
    }
    voids
}

/// Chi-square of observed counts against equal expectations over `cells` outcomes.
fn chi_square(counts: &HashMap<Vec<String>, usize>, cells: usize, draws: usize) -> f64 {
    let expected = draws as f64 / cells as f64;
    let seen: f64 = counts
        .values()
        .map(|&o| (o as f64 - expected).powi(2) / expected)
        .sum();
    // Cells never drawn count fully.
    seen + (cells - counts.len()) as f64 * expected
}

#[test]
fn sloppy_seconds_samples_are_uniform_over_the_deals_consistent_with_shown_voids() {
    let mut checked_with_void = false;
    for seed in 0..40 {
        let mut game = start("sloppy_seconds", 3, json!({}), vec![], seed);
        // Late in the first hand: 3 cards or fewer each, so the deals can be listed.
        play_until(
            &mut game,
            |d| d["hands"][1].as_array().is_some_and(|h| h.len() <= 3),
            (seed as usize % 3) + 1,
        );
        let data = game.save()["data"].clone();
        let voids = voids(&data, 3);
        let (h1, h2) = (cards(&data["hands"][1]), cards(&data["hands"][2]));
        let unseen: Vec<String> = h1.iter().chain(&h2).cloned().collect();
        // Every split of the unseen cards: seat 1 takes h1.len() of them, seat 2 the rest.
        let mut consistent: Vec<Vec<String>> = Vec::new();
        for mask in 0u32..(1 << unseen.len()) {
            if mask.count_ones() as usize != h1.len() {
                continue;
            }
            let (mut one, mut two) = (Vec::new(), Vec::new());
            for (i, card) in unseen.iter().enumerate() {
                if mask & (1 << i) != 0 {
                    one.push(card.clone());
                } else {
                    two.push(card.clone());
                }
            }
            let fits =
                |hand: &[String], seat: usize| hand.iter().all(|c| !voids[seat].contains(&suit(c)));
            if fits(&one, 1) && fits(&two, 2) {
                one.sort();
                consistent.push(one);
            }
        }
        let mut actual = h1.clone();
        actual.sort();
        assert!(
            consistent.contains(&actual),
            "seed {seed}: the real deal is not listed"
        );
        let k = consistent.len();
        if !(2..=20).contains(&k) || voids[1..].iter().all(|v| v.is_empty()) {
            continue; // nothing to sample, too many deals, or no void to respect
        }
        checked_with_void = true;
        let draws = 400 * consistent.len();
        let mut rng = PlayoutRng::new(seed);
        let mut counts: HashMap<Vec<String>, usize> = HashMap::new();
        for _ in 0..draws {
            let sample = game.determinize(0, &mut rng).unwrap().save();
            let mut one = cards(&sample["data"]["hands"][1]);
            one.sort();
            assert!(
                consistent.contains(&one),
                "seed {seed}: inconsistent sample {one:?}"
            );
            *counts.entry(one).or_default() += 1;
        }
        // 0.999 quantiles of chi-square with k - 1 degrees of freedom (k <= 20).
        const Q999: [f64; 20] = [
            0.0, 10.83, 13.82, 16.27, 18.47, 20.52, 22.46, 24.32, 26.12, 27.88, 29.59, 31.26,
            32.91, 34.53, 36.12, 37.70, 39.25, 40.79, 42.31, 43.82,
        ];
        let stat = chi_square(&counts, k, draws);
        assert!(
            stat < Q999[k - 1],
            "seed {seed}: chi-square {stat} over {k} deals: {counts:?}"
        );
    }
    assert!(checked_with_void, "no position with a void was sampled");
}

#[test]
fn a_seat_with_nothing_hidden_gets_the_state_back_with_the_future_redrawn() {
    // A finished game hides nothing: every hand is empty.
    let mut game = start("sloppy_seconds", 3, json!({}), vec![], 5);
    play_until(
        &mut game,
        |d| {
            d["hands"]
                .as_array()
                .unwrap()
                .iter()
                .all(|h| h.as_array().unwrap().is_empty())
                || d["over"] == true
        },
        1,
    );
    let before = game.save();
    let sample = game.determinize(1, &mut PlayoutRng::new(9)).unwrap().save();
    let mut a = before["data"].clone();
    let mut b = sample["data"].clone();
    a["table"]["rng"]["seed"] = Value::Null;
    b["table"]["rng"]["seed"] = Value::Null;
    assert_eq!(
        a, b,
        "with nothing hidden, only the future's seed may differ"
    );
}
