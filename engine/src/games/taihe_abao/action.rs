//! The actions of Taihe A Bao (spec §3): `{"type":"declare"}`, `{"type":"pass"}`,
//! `{"type":"call","cards":["KH"]}`, `{"type":"exchange","cards":["5S"]}`,
//! `{"type":"play","cards":["9S","TH","JD"]}`.

use crate::cards::CardList;
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
