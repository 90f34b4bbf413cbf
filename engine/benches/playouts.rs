//! Random playouts per second on the typed path (`engine::erased::random_playout::<G>`), legal
//! action generation included. One line per (game id, players) in [`ENTRIES`]; families add theirs.
//!
//! Each iteration plays the same [`GAMES`] seeded games, so the throughput (applied actions per
//! iteration) is exact; games/s = iterations/s × GAMES.
//! Run: `cargo bench -p engine --bench playouts -- --quick`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use engine::erased::random_playout;
use engine::game::{GameDef, OptionsOf, Setup};
use engine::games::trump_crew::TrumpCrew;
use engine::games::twenty_two::TwentyTwo;
use engine::games::watten::Watten;
use engine::options::merge_options;
use serde_json::{Map, Value};
use std::hint::black_box;

/// Games per iteration.
const GAMES: u64 = 16;

type Bench = fn(&mut Criterion, &'static str, usize);

/// (game id, players, typed benchmark of its family).
const ENTRIES: &[(&str, usize, Bench)] = &[
    ("twenty_two", 2, typed::<TwentyTwo>),
    ("twenty_two", 4, typed::<TwentyTwo>),
    ("twenty_two", 6, typed::<TwentyTwo>),
    ("watten", 4, typed::<Watten>),
    // Beside OpenSpiel's oh_hell (3 players by default): 1.2-1.5 M decisions/s on this machine.
    ("trump_crew", 3, typed::<TrumpCrew>),
];

/// The typed setup of a preset with its default options.
fn setup_for<G: GameDef>(id: &str, players: usize) -> Setup<OptionsOf<G>> {
    let family = G::family();
    let preset = family
        .presets
        .iter()
        .find(|p| p.id == id)
        .unwrap_or_else(|| panic!("{id} is not a preset of {}", family.id));
    let mut merged = merge_options(&family.options, preset, &Map::new()).expect("default options");
    G::resolve_options(&Map::new(), &mut merged).expect("default options resolve");
    Setup {
        players,
        options: serde_json::from_value(Value::Object(merged)).expect("typed options"),
        seed: 0,
        deals: Vec::new(),
    }
}

fn batch<G: GameDef>(setups: &[Setup<OptionsOf<G>>]) -> u64 {
    setups
        .iter()
        .map(|s| random_playout::<G>(s, s.seed ^ 0x9E37_79B9_7F4A_7C15))
        .sum()
}

fn typed<G: GameDef>(c: &mut Criterion, id: &'static str, players: usize) {
    let base = setup_for::<G>(id, players);
    let setups: Vec<Setup<OptionsOf<G>>> = (0..GAMES)
        .map(|seed| Setup {
            seed,
            ..base.clone()
        })
        .collect();
    let actions = batch::<G>(&setups);
    eprintln!(
        "{id}/{players}p: {GAMES} games, {actions} actions ({:.0} per game)",
        actions as f64 / GAMES as f64
    );
    let mut group = c.benchmark_group("playouts");
    group.throughput(Throughput::Elements(actions));
    group.bench_function(format!("{id}/{players}p"), |b| {
        b.iter(|| black_box(batch::<G>(black_box(&setups))))
    });
    group.finish();
}

fn playouts(c: &mut Criterion) {
    for (id, players, bench) in ENTRIES {
        bench(c, id, *players);
    }
}

criterion_group!(benches, playouts);
criterion_main!(benches);
