//! Bird Dog (Nathaniel Meadow, 2017): a 3-player trick-taking game (and a 2-player version with a
//! dummy hand, the "bird dog") where points come from pairs of jacks, queens and kings won.
//!
//! Rules: `docs/rules/bird_dog.md` (rulings R1..R22, examples B1..B13). 24 cards (9-A). Each
//! hand: 7 cards each, a 3-card widow turned up one card at a time; whoever accepts a turned card
//! as trump plays solo against the other two (who score their team tally); after trump, one
//! player may go nil (3 points for taking no trick). The card of the indicator's rank in the other
//! suit of the same colour is the Bird Dog card, the highest card of the hand. First to 21 (11
//! with 2 players).
//!
//! Some notes on this implementation:
//! - The 2-player dummy is not a seat: when it is the dummy's turn, the controller (the human not
//!   solo, or not nil) is the seat to act and its legal actions are the dummy's playable face-up
//!   cards (`"dummy_to_play": true` in the view). Trick plays name their position: a seat number
//!   or `"dummy"`.
//! - Views name the Bird Dog card as `{"rank", "suit"}` rather than as a card code, so naming it
//!   never reveals where it lies.
//! - A failed nil ends the hand at once (R12); `max_hands` (default 50) bounds a game (R21).

pub mod action;
pub mod bot;
pub mod rules;
pub mod scoring;
pub mod state;
pub mod table;
pub mod view;

use crate::error::SetupError;
use crate::game::{Family, GameDef, Setup};
use crate::options::PlayerRange;
pub use action::{Action, Contract, Event};
pub use rules::Options;
pub use state::{Phase, State};
pub use view::View;

/// The Bird Dog family.
pub struct BirdDog;

impl GameDef for BirdDog {
    type State = State;

    fn family() -> Family {
        Family {
            id: "bird_dog",
            name: "Bird Dog",
            description: "Solo against a team with a 24-card pack, scoring pairs of jacks, queens and kings (Nathaniel Meadow, 2017); 3 players, or 2 with a dummy.",
            rules_summary: "24 cards (9-A), 7 each, 3 in a widow. The widow cards are turned up one at a time: whoever accepts the turned card's suit as trump plays solo against the other two; if all pass three times the third card is trump and everyone plays for himself (2 players: redeal). Then one player may go nil (3 points if he takes no trick, else 3 to each other player). The card of the indicator's rank in the other suit of the same colour (the Bird Dog card) beats everything. Follow suit. Score one point per pair of J, Q or K won; the solo scores his pairs (+1 if more than the team's tally), each teammate the team's tally. First to 21 (2 players: 11, with a dummy whose three face-up cards the non-solo player plays).",
            players: PlayerRange { min: 2, max: 3 },
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
