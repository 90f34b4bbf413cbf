//! The actions of Chinese Ten (spec §3, R15).

use crate::cards::CardList;
use serde::{Deserialize, Serialize};

/// Everything a seat can do. Serialized as `{"type": ...}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Hand step: play one card and name exactly the layout cards it takes (`[]` to trail).
    Play {
        /// The one card played.
        cards: CardList,
        /// The layout cards captured (always present, R15).
        capture: CardList,
    },
    /// Stock step: the layout card the flipped card takes, when it has several targets.
    Capture {
        /// Exactly one layout card.
        cards: CardList,
    },
}
