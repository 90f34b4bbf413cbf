//! Random playouts per second on the typed path (`engine::erased::PlayoutLists`, its lists kept
//! from game to game as `cardroom playouts` keeps them), legal action generation included. One
//! line per (game id, players) in [`ENTRIES`]: every published id.
//! `bench/openspiel_compare.sh` runs the same loop through `cardroom playouts` beside OpenSpiel.
//!
//! Each iteration plays the same [`GAMES`] seeded games, so the throughput (applied actions per
//! iteration) is exact; games/s = iterations/s × GAMES.
//! Run: `cargo bench -p engine --bench playouts -- --quick`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use engine::NewGame;
use engine::erased::{PlayoutLists, PresetGame};
use engine::game::{GameDef, OptionsOf, Setup};
use engine::games::basra::Basra;
use engine::games::bird_dog::BirdDog;
use engine::games::chinese_ten::ChineseTen;
use engine::games::marglia::{Maniglia, Marglia};
use engine::games::sloppy_seconds::SloppySeconds;
use engine::games::taihe_abao::TaiheAbao;
use engine::games::tjak_mat_tchi_ki::TjakMatTchiKi;
use engine::games::trump_crew::TrumpCrew;
use engine::games::twenty_two::TwentyTwo;
use engine::games::watten::Watten;
use std::hint::black_box;

/// Games per iteration.
const GAMES: u64 = 16;

type Bench = fn(&mut Criterion, &'static str, usize);

/// (game id, players, typed benchmark of its family): every published id at its usual table size
/// (the same list as `bench/openspiel_compare.sh`, which measures the same loop through the binary).
const ENTRIES: &[(&str, usize, Bench)] = &[
    ("twenty_two", 2, typed::<TwentyTwo>),
    ("twenty_two", 4, typed::<TwentyTwo>),
    ("twenty_two", 6, typed::<TwentyTwo>),
    ("twenty_two_short", 4, typed::<TwentyTwo>),
    ("gambling_cucumber", 4, typed::<TwentyTwo>),
    ("sloppy_seconds", 3, typed::<SloppySeconds>),
    ("sloppy_seconds_364", 3, typed::<SloppySeconds>),
    ("marglia", 4, typed::<Marglia>),
    ("marglia_pagat", 4, typed::<Marglia>),
    ("maniglia", 4, typed::<Maniglia>),
    ("watten", 2, typed::<Watten>),
    ("watten", 4, typed::<Watten>),
    ("watten_austrian", 4, typed::<Watten>),
    ("watten_carinthian", 4, typed::<Watten>),
    ("watten_tyrolean", 4, typed::<Watten>),
    ("watten_kritische", 4, typed::<Watten>),
    ("watten_blind", 4, typed::<Watten>),
    ("watten_bohemian", 4, typed::<Watten>),
    ("chinese_ten", 4, typed::<ChineseTen>),
    ("chinese_ten_red_five", 4, typed::<ChineseTen>),
    ("chinese_ten_taiwan", 4, typed::<ChineseTen>),
    ("chinese_ten_thai", 4, typed::<ChineseTen>),
    ("chinese_ten_main_merah", 2, typed::<ChineseTen>),
    ("basra", 2, typed::<Basra>),
    ("basra_partners", 4, typed::<Basra>),
    ("basra_open_cut", 2, typed::<Basra>),
    ("basra_jordan", 2, typed::<Basra>),
    ("basra_jordan_partners", 4, typed::<Basra>),
    ("basra_yemen", 2, typed::<Basra>),
    ("basra_yemen_partners", 4, typed::<Basra>),
    ("basra_ethiopia", 2, typed::<Basra>),
    ("basra_ethiopia_partners", 4, typed::<Basra>),
    ("basra_lebanon_a", 2, typed::<Basra>),
    ("basra_lebanon_a_partners", 4, typed::<Basra>),
    ("basra_lebanon_b", 2, typed::<Basra>),
    ("basra_lebanon_b_partners", 4, typed::<Basra>),
    ("basra_palestine", 2, typed::<Basra>),
    ("basra_palestine_partners", 4, typed::<Basra>),
    ("basra_syria", 2, typed::<Basra>),
    ("basra_syria_partners", 4, typed::<Basra>),
    ("taihe_abao", 4, typed::<TaiheAbao>),
    ("taihe_abao_no_aces", 4, typed::<TaiheAbao>),
    ("tjak_mat_tchi_ki", 4, typed::<TjakMatTchiKi>),
    ("tjak_mat_tchi_ki_any_tile", 4, typed::<TjakMatTchiKi>),
    // Beside OpenSpiel's oh_hell (3 players by default): 1.2-1.5 M decisions/s on this machine.
    ("trump_crew", 3, typed::<TrumpCrew>),
    ("trump_crew", 4, typed::<TrumpCrew>),
    ("bird_dog", 3, typed::<BirdDog>),
    ("bird_dog_two_player", 2, typed::<BirdDog>),
    ("bird_dog_short", 3, typed::<BirdDog>),
];

/// The typed setup of a preset with its default options.
fn setup_for<G: GameDef>(id: &str, players: usize) -> Setup<OptionsOf<G>> {
    PresetGame::<G>::preset(id)
        .unwrap_or_else(|| panic!("{id} is not a preset of {}", G::family().id))
        .typed_setup(&NewGame {
            players,
            ..NewGame::default()
        })
        .unwrap_or_else(|e| panic!("{id} with {players} players: {e}"))
}

fn batch<G: GameDef>(setups: &[Setup<OptionsOf<G>>]) -> u64 {
    let mut lists = PlayoutLists::<G>::default();
    setups
        .iter()
        .map(|s| lists.play(s, s.seed ^ 0x9E37_79B9_7F4A_7C15))
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
