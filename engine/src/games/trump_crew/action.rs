//! The action vocabulary of Trump Crew (spec §3), serialized as `{"type": ...}`.

use crate::cards::{Card, CardList, Suit};
use serde::{Deserialize, Deserializer, Serialize};
use smallvec::smallvec;

/// The dealer's strength announcement (強い / 中位 / 弱い, §3.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Strength {
    /// 強い
    Strong,
    /// 中位
    Medium,
    /// 弱い
    Weak,
}

impl Strength {
    /// The three words in canonical order.
    pub const ALL: [Strength; 3] = [Strength::Strong, Strength::Medium, Strength::Weak];
}

/// Everything a seat can do in Trump Crew.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// The dealer rates his hand: `{"type":"declare","strength":"weak"}` (§3.1, R3).
    Declare {
        /// strong, medium or weak.
        strength: Strength,
    },
    /// A non-dealer takes `tricks` chips: `{"type":"bid","tricks":2}` (§3.2, R2).
    Bid {
        /// The number of tricks bid.
        tricks: u32,
    },
    /// Plays one card: `{"type":"play","cards":["TH"]}`. Leading the joker names a suit or none:
    /// `{"type":"play","cards":["JK"],"suit":"D"}` / `{"type":"play","cards":["JK"],"suit":null}`
    /// (§3.3, R6); `suit` is present exactly for a joker lead.
    Play {
        /// Exactly one card.
        cards: CardList,
        /// Only for a joker lead: `Some(Some(suit))` names a suit, `Some(None)` is `"suit": null`.
        #[serde(
            default,
            deserialize_with = "present",
            skip_serializing_if = "Option::is_none"
        )]
        suit: Option<Option<Suit>>,
    },
}

/// Tells a present `"suit": null` (Some(None)) from an absent key (None, via `default`).
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Option<Suit>>, D::Error> {
    Option::<Suit>::deserialize(deserializer).map(Some)
}

impl Action {
    /// A plain one-card play.
    pub fn play(card: Card) -> Action {
        Action::Play {
            cards: smallvec![card],
            suit: None,
        }
    }

    /// A joker lead naming `suit` (None = no suit).
    pub fn joker_lead(suit: Option<Suit>) -> Action {
        Action::Play {
            cards: smallvec![Card::JOKER],
            suit: Some(suit),
        }
    }
}
