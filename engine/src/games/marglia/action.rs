//! The action vocabulary and events of Marglia and Maniglia (spec §3 and Part II).

use crate::cards::{Card, CardList, Rank, Suit};
use crate::game::Seat;
use serde::{Deserialize, Serialize};

/// What a `declare` action declares in Marglia's early-stop decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Declaration {
    /// End the deal unplayed (phase B).
    Stop,
}

/// The structured partner questions (phase B2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Question {
    /// How many cards of `suit` do you hold?
    SuitCount,
    /// How many cards of `rank` do you hold?
    RankCount,
    /// How many card points do you hold?
    HandPoints,
}

/// Everything a seat can do. Serialized as `{"type": ...}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Play a card: `{"type":"play","cards":["7S"]}`.
    Play {
        /// The card (a one-element list).
        cards: CardList,
    },
    /// Pass: keep playing (early stop), no question, or no bid.
    Pass {},
    /// `{"type":"declare","what":"stop"}` (Marglia early stop) or
    /// `{"type":"declare","suit":"H"}` (Maniglia: the bidder names trumps).
    Declare {
        /// The early-stop declaration.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        what: Option<Declaration>,
        /// The trump suit named by the Maniglia bidder.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        suit: Option<Suit>,
    },
    /// A Maniglia bid: `{"type":"bid","points":40}`.
    Bid {
        /// The points bid.
        points: i64,
    },
    /// A structured question to the partner.
    Ask {
        /// Which question.
        question: Question,
        /// The suit, for `suit_count`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        suit: Option<Suit>,
        /// The rank, for `rank_count`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rank: Option<Rank>,
    },
}

/// A public answer of the communication phase.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Answer {
    /// Who asked.
    pub seat: Seat,
    /// The partner who answered (through the engine, truthfully).
    pub partner: Seat,
    /// The question.
    pub question: Question,
    /// Its suit, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suit: Option<Suit>,
    /// Its rank, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<Rank>,
    /// The true answer.
    pub answer: u32,
}

/// Public events.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A deal was dealt (numbers start at 1).
    Deal {
        /// Deal number.
        deal: usize,
        /// The dealer.
        dealer: Seat,
    },
    /// The turned card was shown (Marglia: it fixes trumps).
    TurnUp {
        /// The card, now in the dealer's hand.
        card: Card,
        /// The trump suit it fixes (Marglia), if any.
        #[serde(skip_serializing_if = "Option::is_none")]
        trump: Option<Suit>,
    },
    /// The turned card's points were credited to the dealer's side.
    TurnupBonus {
        /// The dealer.
        seat: Seat,
        /// Points credited.
        points: i64,
    },
    /// The dealer stopped the deal unplayed.
    Stop {
        /// The dealer.
        seat: Seat,
    },
    /// A pass (early stop, question or bid).
    Pass {
        /// Who passed.
        seat: Seat,
    },
    /// A bid.
    Bid {
        /// Who bid.
        seat: Seat,
        /// Points.
        points: i64,
    },
    /// Everybody passed: the deal is thrown in.
    ThrownIn,
    /// The bidder named trumps.
    Trump {
        /// The bidder.
        seat: Seat,
        /// The trump suit.
        suit: Suit,
        /// The contract.
        points: i64,
    },
    /// A question and its public answer.
    Answer(Answer),
    /// A card was played.
    Play {
        /// Who played.
        seat: Seat,
        /// The card.
        cards: CardList,
    },
    /// A trick was won.
    TrickWon {
        /// The winner.
        seat: Seat,
    },
    /// A deal was scored: raw totals and scores per side.
    DealScored {
        /// Raw deal totals (card points + trick bonus) per side.
        raw: Vec<i64>,
        /// What each side scored.
        scores: Vec<i64>,
        /// Cumulative scores per side after the deal.
        cumulative: Vec<i64>,
    },
    /// The game ended.
    GameOver {
        /// Final cumulative scores per side.
        cumulative: Vec<i64>,
    },
}
