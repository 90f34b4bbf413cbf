//! # Chinese Ten (揀紅點, Kap Hong Dim) and variants
//!
//! A fishing game for 2-4 players with a 52-card pack: each turn a player plays a card from hand
//! and then flips the top stock card; each card captures one layout card that makes ten with it
//! or has its rank (T, J, Q, K). Red cards (and black aces with 3-4 players) score.
//! Variants as their own game ids: the red-five bonus, Taiwan (a race to 60 card points), Thai
//! Red Frog/Black Frog scoring, and Indonesian Main Merah.
//!
//! Rules: `docs/rules/chinese_ten.md` (rulings R1-R18, examples X1-X13).
//!
//! Implementation notes:
//! - The layout, pairing captures and the one-target-at-a-time stock choice come from
//!   [`crate::common::capture`], shared with Basra; the pairing rule is passed in as a predicate.
//! - The hand step is one action naming the capture (R15); the stock step needs an action only
//!   when the flipped card has several targets.
//! - The stock is stored with the next card to flip last; the cutter's peek (`deck[51]`) is shown
//!   to the cutter only while that card is still in the stock.

pub mod action;
pub mod bot;
pub mod rules;
pub mod scoring;
pub mod state;
pub mod table;
pub mod view;

use crate::cards::PackSpec;
use crate::deal::parse_card_deals;
use crate::error::SetupError;
use crate::game::{Family, GameDef, Setup};
use crate::options::PlayerRange;
use action::{Action, Event};
use rules::Options;
use state::State;
use view::View;

/// The Chinese Ten family.
pub struct ChineseTen;

impl GameDef for ChineseTen {
    type State = State;

    fn family() -> Family {
        Family {
            id: "chinese_ten",
            name: "Chinese Ten",
            description: "Oriental fishing game: capture pairs that make ten and collect the red cards.",
            rules_summary: "Each player is dealt a hand (6/8/12 cards for 4/3/2 players) and four cards are laid face up. On your turn play a card: if it makes ten with a layout card (A+9, 2+8, 3+7, 4+6, 5+5) or matches a T, J, Q or K, it must capture one such card (your choice among several); otherwise it joins the layout. Then flip the top stock card, which captures the same way. Red cards score (2-8 face value, 9-K 10, aces 20), the ace of spades 30 from 3 players and the ace of clubs 40 with 4. Three of a kind of 5/T/J/Q/K in the initial layout are taken together by the fourth; four go to the dealer.",
            players: PlayerRange { min: 2, max: 4 },
            options: rules::option_specs(),
            presets: rules::presets(),
            players_when: Vec::new(),
            table: table::table_layout(),
        }
    }

    fn setup(setup: &Setup<Options>, events: &mut Vec<Event>) -> Result<State, SetupError> {
        let n = setup.players;
        let options = setup.options.clone();
        state::check_ruleset_players(&options, n).map_err(SetupError::InvalidOptions)?;
        options
            .first_dealer
            .check(n)
            .map_err(SetupError::InvalidOptions)?;
        // Nothing stacked (every random game): no pack description to build for the check.
        let stacked = if setup.deals.is_empty() {
            Vec::new()
        } else {
            parse_card_deals(&setup.deals, &PackSpec::standard())?
        };
        Ok(State::new(options, n, setup.seed, stacked, events))
    }

    fn heuristic(view: &View, legal: &[Action]) -> usize {
        bot::heuristic(view, legal)
    }
}
