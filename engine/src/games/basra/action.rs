//! The actions of Basra (spec §3, R21).

use crate::cards::CardList;
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
