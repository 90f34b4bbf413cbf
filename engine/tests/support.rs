//! Helpers shared by the rules tests (`rules_<family>.rs`): start a game through the registry
//! with stacked deals, apply an action that must pass, check a refusal, read a seat's view.

use engine::{Match, NewGame, Viewer, registry};
use serde_json::Value;

/// Starts `id` through the registry with the given options (a JSON object), stacked deals and seed.
pub fn start(
    id: &str,
    players: usize,
    options: Value,
    deals: Vec<Vec<String>>,
    seed: u64,
) -> Box<dyn Match> {
    registry::find(id)
        .unwrap_or_else(|| panic!("no game {id}"))
        .start(&NewGame {
            players,
            options: options.as_object().cloned().unwrap_or_default(),
            seed,
            deals,
        })
        .unwrap_or_else(|e| panic!("{id} setup refused: {e}"))
}

/// Applies an action that must be accepted; returns its public events.
pub fn act(game: &mut Box<dyn Match>, seat: usize, action: Value) -> Vec<Value> {
    game.apply(seat, &action)
        .unwrap_or_else(|e| panic!("seat {seat} {action}: {e}"))
        .events
}

/// Applies an action that must be refused, checks the state is unchanged, returns the reason.
pub fn refused(game: &mut Box<dyn Match>, seat: usize, action: Value) -> &'static str {
    let before = game.save();
    let err = game.apply(seat, &action).unwrap_err();
    assert_eq!(game.save(), before, "a refused action changed the state");
    err.reason()
}

/// The view of one seat.
pub fn view(game: &dyn Match, seat: usize) -> Value {
    game.view(Viewer::Seat(seat))
}
