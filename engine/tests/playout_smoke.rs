//! The benchmark loop's smoke test: `cargo bench` and `bench/openspiel_compare.sh` are not run in
//! CI, so this plays a few hundred games of every game id at every player count it seats through
//! the very loop they time (`Game::random_playouts`, which `cardroom playouts` calls, on
//! `engine::erased::PlayoutLists`, which the criterion bench drives), in the normal test suite.
//! It keeps that path compiling and correct, cheaply (a few seconds): the engine's test builds
//! have debug assertions, under which the loop fails on a refused setup, a seat to act with
//! nothing listed, a listed action refused, or a game that stops without a result of one score
//! per seat. No timing is asserted (speed lives in the benchmarks).

use engine::registry;

/// Games per (id, player count).
const GAMES: u64 = 200;

#[test]
fn every_id_plays_a_few_hundred_benchmark_playouts() {
    let games = registry::games();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(2, |p| p.get());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(game) = games.get(i) else { break };
                    let info = game.info();
                    let mut seated = 0;
                    for players in info.players.min..=info.players.max {
                        // A count the preset does not seat is refused at setup, with a reason.
                        let Ok(applied) = game.random_playouts(players, 500, GAMES) else {
                            continue;
                        };
                        seated += 1;
                        assert!(
                            applied >= GAMES,
                            "{} {players}p: {applied} actions in {GAMES} games",
                            info.id
                        );
                    }
                    assert!(seated > 0, "{}: no player count seats", info.id);
                }
            });
        }
    });
}
