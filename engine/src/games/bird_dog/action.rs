//! The action vocabulary of Bird Dog (spec §3), serialized as `{"type": ...}`.

use crate::cards::{Card, CardList};
use serde::{Deserialize, Serialize};
use smallvec::smallvec;

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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
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
        cards: CardList,
    },
}

impl Action {
    /// A one-card play.
    pub fn play(card: Card) -> Action {
        Action::Play {
            cards: smallvec![card],
        }
    }
}
