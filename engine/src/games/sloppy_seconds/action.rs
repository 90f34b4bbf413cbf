//! The action vocabulary of Sloppy Seconds: `{"type":"play","cards":["5S"]}`.

use crate::cards::CardList;
use serde::{Deserialize, Serialize};

/// Everything a seat can do: play one card to the trick (spec §3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Play a card (always a one-element list).
    Play {
        /// The card played.
        cards: CardList,
    },
}

/// Public events of a game of Sloppy Seconds.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A hand was dealt (deal numbers start at 1).
    Deal {
        /// Deal number.
        deal: usize,
        /// The dealer.
        dealer: usize,
    },
    /// A card was played.
    Play {
        /// Who played.
        seat: usize,
        /// The card.
        cards: CardList,
    },
    /// The first suit was broken in this hand: it can no longer become trump.
    FirstBroken {
        /// Who broke it.
        seat: usize,
        /// The suit.
        suit: crate::cards::Suit,
    },
    /// The second broken suit became trump for the rest of the hand.
    Trump {
        /// Who broke it.
        seat: usize,
        /// The trump suit.
        suit: crate::cards::Suit,
    },
    /// A trick was won.
    TrickWon {
        /// The winner.
        seat: usize,
    },
    /// A hand was scored.
    HandScored {
        /// Each seat's score for the hand.
        scores: Vec<u32>,
        /// Running totals after the hand.
        totals: Vec<i64>,
    },
    /// The game ended.
    GameOver {
        /// Final totals.
        totals: Vec<i64>,
    },
}
