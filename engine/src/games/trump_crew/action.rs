//! The action vocabulary of Trump Crew (spec §3), serialized as `{"type": ...}`.

use super::state::PerSeat;
use crate::cards::{Card, CardList, Suit, one_card};
use crate::game::Seat;
use serde::{Deserialize, Deserializer, Serialize};

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
            cards: one_card(card),
            suit: None,
        }
    }

    /// A joker lead naming `suit` (None = no suit).
    pub fn joker_lead(suit: Option<Suit>) -> Action {
        Action::Play {
            cards: one_card(Card::JOKER),
            suit: Some(suit),
        }
    }
}

/// Public events.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A new deal: its number (1-based), stage, dealer, the turned indicator and the trump.
    Deal {
        /// 1-based deal number.
        deal: u64,
        /// Stage N (cards per player).
        stage: u32,
        /// The dealer.
        dealer: Seat,
        /// The face-up indicator.
        indicator: Card,
        /// Trump suit (None when the indicator is the joker).
        trump: Option<Suit>,
    },
    /// The dealer's announcement.
    Declare {
        /// The dealer.
        seat: Seat,
        /// strong / medium / weak.
        strength: Strength,
    },
    /// A bid; `forced` for the dealer's automatic bid.
    Bid {
        /// The bidder.
        seat: Seat,
        /// Tricks bid.
        tricks: u32,
        /// True for the dealer's forced bid.
        forced: bool,
    },
    /// A card played (`suit` only on a joker lead; null = no suit named).
    Play {
        /// The player.
        seat: Seat,
        /// The card, as a one-element list.
        cards: CardList,
        /// The named suit of a joker lead.
        #[serde(skip_serializing_if = "Option::is_none")]
        suit: Option<Option<Suit>>,
    },
    /// A trick was won.
    TrickWon {
        /// The winner.
        seat: Seat,
    },
    /// A deal ended.
    DealEnd {
        /// Its stage.
        stage: u32,
        /// True if every bid was made exactly.
        cleared: bool,
        /// Bids per seat.
        bids: PerSeat,
        /// Tricks per seat.
        tricks_won: PerSeat,
    },
    /// The game ended.
    GameOver {
        /// True if the final stage was cleared.
        cleared: bool,
        /// Deals played.
        deals: u64,
        /// Stages cleared.
        stages_cleared: u32,
    },
}
