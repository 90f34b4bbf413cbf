//! The action vocabulary of Bird Dog (spec §3), serialized as `{"type": ...}`.

use super::state::{CardName, HandSummary, Pos};
use crate::cards::Card;
use crate::cards::Suit;
use crate::game::Seat;
use crate::inline_cards::InlineCards;
use serde::{Deserialize, Serialize};

/// The card list of a play and its event: plain data (no drop), so a legal list is cleared
/// without a loop over it. JSON and schema as a `CardList`.
pub type Cards = InlineCards<8>;

/// What a declaration claims.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Contract {
    /// Accept the turned-up card as trump and play alone against the others (§3.1).
    Solo,
    /// Bet on taking no trick (§3.2).
    Nil,
}

/// Everything a seat can do in Bird Dog.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// `{"type":"declare","contract":"solo"}` in the trump phase, `"nil"` in the nil phase.
    Declare {
        /// solo or nil.
        contract: Contract,
    },
    /// `{"type":"pass"}`.
    Pass {},
    /// `{"type":"play","cards":["TH"]}`: one card (the dummy's when the controller plays for it).
    Play {
        /// Exactly one card.
        cards: Cards,
    },
}

impl Action {
    /// A one-card play.
    pub fn play(card: Card) -> Action {
        Action::Play {
            cards: Cards::one(card),
        }
    }
}

/// Public events.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A new hand is dealt; W1 is turned up.
    Deal {
        /// 1-based hand number.
        hand: u32,
        /// The dealer.
        dealer: Seat,
        /// The first candidate (W1).
        candidate: Card,
    },
    /// The next widow card is turned up after all passed.
    TurnUp {
        /// 2 or 3.
        round: usize,
        /// The candidate.
        candidate: Card,
    },
    /// A solo or nil declaration.
    Declare {
        /// The seat.
        seat: Seat,
        /// solo or nil.
        contract: Contract,
    },
    /// A pass.
    Pass {
        /// The seat.
        seat: Seat,
    },
    /// Trump is fixed.
    Trump {
        /// Trump suit.
        trump: Suit,
        /// The indicator.
        indicator: Card,
        /// The Bird Dog card.
        bird_dog: CardName,
        /// The solo player (None: free-for-all).
        solo: Option<Seat>,
    },
    /// A card played; `dummy` when the controller played the dummy's card.
    Play {
        /// The seat that acted.
        seat: Seat,
        /// The card.
        cards: Cards,
        /// True for a dummy card.
        dummy: bool,
    },
    /// A trick was won (by a seat or the dummy).
    TrickWon {
        /// The winner.
        seat: Pos,
    },
    /// The dummy's next face-down card is turned up.
    DummyTurnUp {
        /// The card.
        card: Card,
    },
    /// A hand ended.
    HandEnd {
        /// What happened.
        summary: Box<HandSummary>,
        /// Totals after the hand.
        totals: Vec<u32>,
    },
    /// The game ended.
    GameOver {
        /// Final totals.
        totals: Vec<u32>,
    },
}
