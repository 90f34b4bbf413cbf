//! # Sloppy Seconds (Peter Schell)
//!
//! 3 or 4 players, each for himself, 52 cards (51 without the 2C for 3). Plain must-follow trick
//! taking with no trump at the start of a hand: the second suit to be broken in (played off-suit)
//! becomes trump at once, for the rest of the hand. In each suit only the player(s) with the
//! second-highest captured card points score them; a hand is worth at least 5. The game ends after
//! the hand in which someone reaches the target (300); the highest total wins.
//!
//! Rules: `docs/rules/sloppy_seconds.md` (rulings R1..R11, worked examples S1..S9).
//!
//! Some notes on this implementation:
//! - The player count is the game's player count (3 or 4), not an option.
//! - Tricks use `common::trick` with the natural rank order (ace high); the trump is tracked per
//!   hand as `first_broken` / `trump` exactly as spec §3 describes.
//! - The heuristic evaluates each legal card by its expected hand-score margin (own score minus the
//!   others' mean): the trick goes to its current winner or, with the estimated chance of being
//!   beaten, to a later player, and all uncaptured cards are spread over the players in 64
//!   deterministic samples before the second-place scoring is applied (view only).

pub mod action;
pub mod bot;
pub mod rules;
pub mod scoring;
pub mod state;
pub mod table;
pub mod view;

pub use action::{Action, Event};
pub use rules::Options;
pub use state::State;
pub use view::View;

use crate::error::SetupError;
use crate::game::{Family, GameDef, Setup};
use crate::options::PlayerRange;

/// The Sloppy Seconds family.
pub struct SloppySeconds;

impl GameDef for SloppySeconds {
    type State = State;

    fn family() -> Family {
        Family {
            id: "sloppy_seconds",
            name: "Sloppy Seconds",
            description: "Trick taking for 3 or 4 where the second suit broken in becomes trump and only second place in each suit scores.",
            rules_summary: "52 cards (3 players: without the 2C), dealt out one at a time from the dealer's left. Follow suit if you can; there is no trump at first. The first suit played off-suit in a hand can never be trump; the second different suit played off-suit becomes trump immediately, even within the trick, for the rest of the hand. Cards score face value (A 1, J 11, Q 12, K 13; 91 per suit) but the ace ranks high in play. After each hand, in every suit only the player(s) with the second-highest point total score that total; every hand is worth at least 5. After a hand in which someone reaches 300, the highest total wins.",
            players: PlayerRange { min: 3, max: 4 },
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
        bot::heuristic(view, legal)
    }
}
