//! Bench-only: the engine's in-process rollout rate on a state, the figure `bench/rollouts.sh`
//! sets beside `POST /v1/games/{game}/rollouts` on the same state.
//! `cargo run --release -p api --example rollouts_rate -- GAME STATE_FILE SEAT COUNT POLICY`
//! prints `playouts_per_second` for `count` playouts after every legal action of `seat`.

use engine::rng::PlayoutRng;
use engine::search::{Rollout, RolloutPlan, RolloutStart};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [game, file, seat, count, policy] = args.as_slice() else {
        panic!("usage: rollouts_rate GAME STATE_FILE SEAT COUNT random|heuristic");
    };
    let game = engine::registry::find(game).expect("a game id");
    let text = std::fs::read_to_string(file).expect("a state file");
    let state = game.load_json(&text).expect("a transparent state");
    let seat: usize = seat.parse().expect("a seat");
    let count: u32 = count.parse().expect("a count");
    let policy = match policy.as_str() {
        "random" => Rollout::Uniform,
        "heuristic" => Rollout::Heuristic { percent: 100 },
        other => panic!("policy {other}"),
    };
    let actions: Vec<usize> = (0..state.legal_actions(seat).len()).collect();
    let plan = RolloutPlan {
        actions: &actions,
        count,
        start: RolloutStart::Exact,
        partial: false,
    };
    let started = Instant::now();
    let values = state
        .rollouts(seat, plan, policy, &mut PlayoutRng::new(1), &mut |_| true)
        .expect("rollouts");
    let seconds = started.elapsed().as_secs_f64();
    let playouts: u32 = values.iter().map(|v| v.playouts).sum();
    println!(
        "playouts {playouts} seconds {seconds:.4} playouts_per_second {:.0}",
        f64::from(playouts) / seconds
    );
}
