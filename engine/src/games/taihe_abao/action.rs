//! The actions of Taihe A Bao (spec §3): `{"type":"declare"}`, `{"type":"pass"}`,
//! `{"type":"call","cards":["KH"]}`, `{"type":"exchange","cards":["5S"]}`,
//! `{"type":"play","cards":["9S","TH","JD"]}`.

use super::state::HandRecord;
use crate::cards::CardList;
use crate::game::Seat;
use serde::{Deserialize, Serialize};

/// Everything a seat can do. Serialized as `{"type": ...}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Round 1: become the declarer.
    Declare {},
    /// Round 1 or 2: no bid; in play: no combination this turn.
    Pass {},
    /// Round 2: call one card (a one-card list).
    Call {
        /// The called card.
        cards: CardList,
    },
    /// After a call: the card the caller gives the holder face down (a one-card list).
    Exchange {
        /// The given card.
        cards: CardList,
    },
    /// Play a combination.
    Play {
        /// The cards, in any order.
        cards: CardList,
    },
}

/// Public events.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A hand was dealt.
    Deal {
        /// Hand number, from 1.
        hand: u32,
        /// First bidder.
        first_bidder: Seat,
    },
    /// Round 1 declaration.
    Declare {
        /// Who.
        seat: Seat,
    },
    /// A pass (bidding or play).
    Pass {
        /// Who.
        seat: Seat,
    },
    /// A call; the holder hands the card over face up.
    Call {
        /// Caller.
        seat: Seat,
        /// Called card (one).
        cards: CardList,
        /// Holder who gave it.
        from: Seat,
    },
    /// The caller gave a card face down (not named).
    Exchange {
        /// Caller.
        seat: Seat,
        /// Receiver.
        to: Seat,
    },
    /// The play starts.
    Declarer {
        /// The declarer.
        seat: Seat,
        /// Stake unit.
        stake: i64,
        /// Round-1 declarer?
        first_round: bool,
    },
    /// A combination.
    Play {
        /// Who.
        seat: Seat,
        /// Cards.
        cards: CardList,
    },
    /// Everyone else passed: the seat leads the next round.
    RoundWon {
        /// Who.
        seat: Seat,
    },
    /// A hand ended.
    HandEnd {
        /// The record.
        record: Box<HandRecord>,
    },
    /// The game is over.
    GameOver {
        /// Final totals.
        scores: Vec<i64>,
    },
}
