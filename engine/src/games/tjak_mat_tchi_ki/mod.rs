//! # Tjak-mat-tchi-ki (짝맞추기, "pair making")
//!
//! A Korean draw-and-discard game with the 32 Chinese domino tiles ([`crate::tiles`]), for 2 to 4
//! players. The first player gets 6 tiles, the others 5; the rest is a face-down reserve. On a
//! turn a player takes the previous player's discard if it pairs with a tile in hand, or draws;
//! pairs are laid face up at once; then one tile is discarded. Three pairs win: every other player
//! pays the stake, or, when the winning pair was made with a discard, its discarder alone pays for
//! all ("responsibility").
//!
//! Rules: `docs/rules/tjak_mat_tchi_ki.md` (rulings R1..R14, examples K1..K10).
//!
//! Implementation notes:
//! - Civil tiles carry copy suffixes `#1`/`#2` (`6-6#1`); every tile has exactly one partner, so
//!   laying pairs is automatic and never a choice (R5).
//! - Player count is the seat count (2..=4); the spec's `players` option is not an `options` entry.
//! - The first-player draw happens in setup from the game's RNG (not from stacked `deals`, which
//!   are the hands' deals); it is public (`first_player_draw` in the view).
//! - A hand ends without a winner when the player to act can neither take nor draw (R6).

pub mod action;
pub mod bot;
pub mod combination;
pub mod rules;
pub mod state;
pub mod table;
pub mod view;

use crate::error::SetupError;
use crate::game::{Family, GameDef, Setup};
use crate::options::PlayerRange;
pub use action::Action;
use action::Event;
use rules::Options;
use state::State;
use view::View;

/// The Tjak-mat-tchi-ki family.
pub struct TjakMatTchiKi;

impl GameDef for TjakMatTchiKi {
    type State = State;

    fn family() -> Family {
        Family {
            id: "tjak_mat_tchi_ki",
            name: "Tjak-mat-tchi-ki",
            description: "Korean pair-making game with Chinese dominoes: first to lay three pairs wins.",
            rules_summary: "32 Chinese domino tiles: 11 civil tiles twice (two identical tiles pair) and 10 military tiles once (3-6/4-5, 2-6/3-5, 2-5/3-4, 1-4/2-3 pair, and 2-4/1-2 is the supreme pair). The first player gets 6 tiles, the others 5, the rest is the reserve. Pairs are laid face up as soon as they are held. On a turn a player takes the previous player's discard if it pairs with one of their tiles, or draws from the reserve, lays the new pair, and discards one tile face up. Three pairs win: each other player pays the stake, but if the winning tile was a discard its discarder pays for everybody. When the reserve is empty and the discard cannot be used, the hand ends without a winner.",
            players: PlayerRange { min: 2, max: 4 },
            options: rules::option_specs(),
            presets: rules::presets(),
            players_when: Vec::new(),
            table: table::table_layout(),
        }
    }

    fn setup(setup: &Setup<Options>, events: &mut Vec<Event>) -> Result<State, SetupError> {
        State::new(setup, events)
    }

    fn heuristic(view: &View, legal: &[Action]) -> usize {
        bot::heuristic(view, legal).unwrap_or(0)
    }
}
