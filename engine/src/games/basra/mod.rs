//! # Basra (Bastra, باصرة) and its national variants
//!
//! A Middle-Eastern fishing game for 2 players or 4 in two partnerships, 52 cards (44 without
//! queens and kings in the Palestinian and Syrian presets). A played card captures the floor
//! cards of its rank and groups of numerals adding up to its value; jacks (and the 7D) sweep the
//! floor; clearing the floor is a basra. Most cards, TD, 2C, aces, jacks and basras score.
//! Presets: Egypt (base), open cut, Jordan, Yemen, Ethiopia, Lebanon A, Lebanon B (Ashush),
//! Palestine, Syria; each for 2 players (`basra_<x>`) and for partnerships (`basra_<x>_partners`).
//!
//! Rules: `docs/rules/basra.md` (rulings R1-R34, examples B1-B18).
//!
//! Implementation notes:
//! - Capture sets K (same-rank part × maximal or optional sum families) are built with
//!   [`crate::common::capture`] (shared with Chinese Ten): the same-rank cards by mask,
//!   `sum_captures` for the sums, `combine`; the player then picks one floor card at a time with
//!   `CaptureChoice` (R21), and `LastCapture` hands the floor to the last capturing side.
//! - All scores are kept in integer half-points and reported divided by 2 (Syrian jacks: 12.5; R18).
//! - Sides: seat % 2 (partners 0/2 and 1/3); with 2 players each seat is its side.
//! - Buried card identities are public while in the stock; the cut peek is shown while the card
//!   is still in the stock.

pub mod action;
pub mod bot;
pub mod rules;
pub mod scoring;
pub mod state;
pub mod table;
pub mod view;

use crate::deal::parse_card_deals;
use crate::error::SetupError;
use crate::game::{Family, GameDef, Setup};
use crate::options::PlayerRange;
use action::{Action, Event};
use rules::Options;
use state::State;
use view::View;

/// The Basra family.
pub struct Basra;

impl GameDef for Basra {
    type State = State;

    fn family() -> Family {
        Family {
            id: "basra",
            name: "Basra",
            description: "Middle-Eastern fishing game: capture by rank and by sums; jacks and the seven of diamonds sweep; clearing the floor is a basra.",
            rules_summary: "Four cards to each player and four face up on the floor (jacks and the 7D there are buried in the stock). Play one card per turn: it takes the floor cards of its rank and every group of numerals adding up to its value (A=1..10), as many as possible; a jack takes the whole floor, and so does the 7D (a basra only if the floor totals 10 or less); a card that takes nothing stays on the floor. Clearing the floor with a numeral or picture card is a basra (10). When the hands are empty four more are dealt until the pack is used up; the last capturer takes what is left. Majority of cards 30 (carried on a tie), 10 of diamonds 3, 2 of clubs 2, aces and jacks 1 each. Game to 101. Variants change the bonuses, the pack and the targets.",
            players: PlayerRange { min: 2, max: 4 },
            options: rules::option_specs(),
            presets: rules::presets(),
            players_when: Vec::new(),
            table: table::table_layout(),
        }
    }

    fn setup(setup: &Setup<Options>, events: &mut Vec<Event>) -> Result<State, SetupError> {
        let n = setup.players;
        state::check_options(&setup.options, n).map_err(SetupError::InvalidOptions)?;
        // Nothing stacked (every random game): no pack description to build for the check.
        let stacked = if setup.deals.is_empty() {
            Vec::new()
        } else {
            parse_card_deals(&setup.deals, &scoring::pack(&setup.options))?
        };
        Ok(State::new(
            setup.options.clone(),
            n,
            setup.seed,
            stacked,
            events,
        ))
    }

    fn heuristic(view: &View, legal: &[Action]) -> usize {
        bot::heuristic(view, legal)
    }
}
