//! The actions of Basra (spec §3, R21).

use super::scoring::DealScore;
use crate::cards::Card;
use crate::cards::CardList;
use crate::game::{Ranking, Seat};
use crate::inline_cards::InlineCards;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The card lists of actions and of the events that name one card, or a deal's four floor
/// cards and its buried jacks: plain data (no drop), so a move's legal list and events are
/// written in place and cleared without a loop. JSON and schema as a `CardList`.
pub type Cards = InlineCards<8>;

/// Everything a seat can do. Serialized as `{"type": ...}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Play one card from hand.
    Play {
        /// The one card.
        #[schemars(length(min = 1, max = 1))]
        cards: Cards,
    },
    /// Add one floor card to the capture being chosen.
    Capture {
        /// The one floor card.
        #[schemars(length(min = 1, max = 1))]
        cards: Cards,
    },
    /// Take exactly the cards selected (with none selected: trail).
    Pass {},
}

/// Public events.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A deal was made.
    Deal {
        /// Deal number (from 1, counting the whole match).
        deal: usize,
        /// The dealer.
        dealer: Seat,
        /// The initial floor after burying.
        #[schemars(with = "Vec<Card>")]
        floor: Cards,
        /// Cards buried in the stock (public identities).
        #[schemars(with = "Vec<Card>")]
        buried: Cards,
    },
    /// A new round of cards was dealt to the hands.
    Round {
        /// Cards each.
        cards_each: usize,
    },
    /// A card played.
    Play {
        /// The player.
        seat: Seat,
        /// The card.
        cards: Cards,
    },
    /// A floor card selected for the capture being chosen.
    Select {
        /// The player.
        seat: Seat,
        /// The floor card.
        card: Card,
    },
    /// A capture.
    Capture {
        /// The player.
        seat: Seat,
        /// The capturing card.
        card: Card,
        /// The floor cards taken.
        cards: CardList,
        /// Bonus scored (points; 0 if none).
        bonus: f64,
    },
    /// The card was trailed onto the floor.
    Trail {
        /// The player.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// End of deal: the floor goes to the last capturer (or is set aside).
    Remainder {
        /// The side that takes them (none: set aside unscored).
        side: Option<usize>,
        /// The cards.
        cards: CardList,
    },
    /// A deal was scored.
    DealScored {
        /// Deal number.
        deal: usize,
        /// The scoring.
        // Shared with the state's `last_deal` (one scoring per deal, not a copy).
        #[serde(serialize_with = "crate::game::shared::serialize")]
        #[schemars(with = "DealScore")]
        score: Arc<DealScore>,
        /// Side totals (points).
        #[schemars(with = "Vec<f64>")]
        totals: [f64; 2],
    },
    /// A game ended (one of a rubber, or the whole match).
    GameEnded {
        /// The winning side (none: draw).
        winner: Option<usize>,
        /// Side totals.
        totals: Vec<f64>,
    },
    /// The match is over.
    GameOver {
        /// Final ranking of seats.
        ranking: Ranking,
    },
}
