//! The actions of Basra (spec §3, R21).

use super::scoring::DealScore;
use crate::cards::Card;
use crate::cards::CardList;
use crate::game::{Ranking, Seat};
use serde::{Deserialize, Serialize};

/// Everything a seat can do. Serialized as `{"type": ...}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Play one card from hand.
    Play {
        /// The one card.
        #[schemars(length(min = 1, max = 1))]
        cards: CardList,
    },
    /// Add one floor card to the capture being chosen.
    Capture {
        /// The one floor card.
        #[schemars(length(min = 1, max = 1))]
        cards: CardList,
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
        floor: Vec<Card>,
        /// Cards buried in the stock (public identities).
        buried: Vec<Card>,
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
        cards: CardList,
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
        score: Box<DealScore>,
        /// Side totals (points).
        totals: Vec<f64>,
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
