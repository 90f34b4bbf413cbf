//! Plays a fixed number of seeded random playouts of one game id through the loop `cardroom
//! playouts` runs (`Game::random_playouts`) and prints the actions applied: a deterministic
//! workload for instruction counts (`bench/instructions.sh` subtracts two of these under
//! callgrind), built with the engine alone.
//!
//! `cargo run --release -p engine --example playout_count -- basra 2 400`

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [id, players, games] = &args[..] else {
        eprintln!("usage: playout_count GAME_ID PLAYERS GAMES");
        std::process::exit(2);
    };
    let game = engine::registry::find(id).unwrap_or_else(|| {
        eprintln!("unknown game `{id}`");
        std::process::exit(2);
    });
    let players: usize = players.parse().expect("PLAYERS is a number");
    let games: u64 = games.parse().expect("GAMES is a number");
    let actions = game
        .random_playouts(players, 0, games)
        .unwrap_or_else(|e| panic!("{id} with {players} players: {e}"));
    println!("{actions}");
}
