//! The actions of Chinese Ten (spec §3, R15).

use super::scoring::DealScore;
use super::state::RedealReason;
use crate::cards::Card;
use crate::game::{Ranking, Seat};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Everything a seat can do. Serialized as `{"type": ...}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Hand step: play one card and name exactly the layout cards it takes (`[]` to trail).
    Play {
        /// The one card played.
        cards: Cards,
        /// The layout cards captured (always present, R15).
        capture: Cards,
    },
    /// Stock step: the layout card the flipped card takes, when it has several targets.
    Capture {
        /// Exactly one layout card.
        cards: Cards,
    },
}

pub use crate::inline_cards::InlineCards;

/// The card lists of actions: a played card, a capture (one card, or an initial trio). Eight
/// cards, so that a list is stored and read back as one 8-byte word, and an action is 19 bytes.
pub type Cards = InlineCards<8>;

/// The card lists of events: a played card, a capture, four of a kind, an initial layout (at
/// most 12 cards, a Main Merah layout).
pub type Few = InlineCards<12>;

impl Cards {
    /// The cards as an event's [`Few`], copied whole, in registers: a copy of their length only
    /// stalled the event's first read of them.
    #[inline]
    pub fn to_few(&self) -> Few {
        let [a, b, c, d, e, f, g, h] = self.cards;
        let j = Card::JOKER;
        Few {
            len: self.len,
            cards: [a, b, c, d, e, f, g, h, j, j, j, j],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(list: &str) -> Vec<Card> {
        Card::parse_list(list).unwrap_or_default()
    }

    #[test]
    fn an_action_is_nineteen_bytes_and_a_few_is_its_cards() {
        assert!(std::mem::size_of::<Action>() <= 19);
        let order = cards("AS 2C 3D 4H 5S 6C 7D 8H 9S TH");
        for len in 0..=8 {
            let list = Cards::of(&order[..len]).unwrap_or_default();
            assert_eq!(list.to_few().to_vec(), order[..len].to_vec());
        }
    }
}

/// Public events.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A deal was made (layout face up).
    Deal {
        /// Deal number, from 1.
        deal: usize,
        /// The dealer.
        dealer: Seat,
        /// The initial layout.
        #[schemars(with = "Vec<Card>")]
        layout: Few,
    },
    /// Main Merah: the deal is void and redealt by the same dealer.
    Redeal {
        /// The dealer.
        dealer: Seat,
        /// Why.
        #[schemars(with = "String")]
        reason: RedealReason,
    },
    /// Four of a kind in the initial layout go to the dealer.
    FourOfAKind {
        /// The dealer.
        seat: Seat,
        /// The four cards.
        cards: Few,
    },
    /// A card played from hand and what it captured.
    Play {
        /// The player.
        seat: Seat,
        /// The card.
        cards: Few,
        /// The captured layout cards (`[]` = trailed).
        capture: Few,
    },
    /// A stock card turned face up.
    Flip {
        /// The player whose turn it is.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// The flipped card captured.
    Capture {
        /// The player.
        seat: Seat,
        /// The flipped card.
        card: Card,
        /// The captured layout cards.
        cards: Few,
    },
    /// The flipped card joined the layout.
    Trail {
        /// The player.
        seat: Seat,
        /// The flipped card.
        card: Card,
    },
    /// Taiwan: a player's card points reached the target.
    TargetReached {
        /// The player.
        seat: Seat,
        /// Their card points.
        points: i64,
    },
    /// A deal was scored.
    DealScored {
        /// Deal number.
        deal: usize,
        /// The scoring.
        // Shared with the state's `last_deal` (one scoring per deal, not a copy).
        #[serde(serialize_with = "crate::game::shared::serialize")]
        #[schemars(with = "DealScore")]
        score: Arc<DealScore>,
        /// Cumulative scores.
        #[schemars(with = "Vec<i64>")]
        totals: Box<[i64]>,
    },
    /// The game ended.
    GameOver {
        /// Final ranking.
        ranking: Ranking,
    },
}
