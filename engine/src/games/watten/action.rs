//! The action vocabulary of Watten (spec §3.0), serialized as `{"type": ...}`.

use super::state::DealSummary;
use crate::cards::{Card, CardList, Rank, Suit};
use crate::game::Seat;
use crate::inline_cards::InlineCards;
use serde::{Deserialize, Serialize, Serializer};
use std::borrow::Cow;
use std::sync::Arc;

/// The card list of a play and its event: plain data (no drop), JSON and schema as a `CardList`.
pub type Cards = InlineCards<8>;

/// A finished deal's summary as its event carries it: shared with the state's `last_deal` (one
/// summary per deal, not a copy), written and described as the summary itself.
#[derive(Debug, Clone, PartialEq)]
pub struct SharedSummary(pub Arc<DealSummary>);

impl Serialize for SharedSummary {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl schemars::JsonSchema for SharedSummary {
    fn inline_schema() -> bool {
        DealSummary::inline_schema()
    }
    fn schema_name() -> Cow<'static, str> {
        DealSummary::schema_name()
    }
    fn schema_id() -> Cow<'static, str> {
        DealSummary::schema_id()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        DealSummary::json_schema(generator)
    }
}

/// What E may propose to the dealer during naming.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Proposal {
    /// Schöneres: E and the dealer take new hands from the stock (§3.2.1).
    NewCards,
    /// Schlagwechsel: E names the suit, the dealer the rank (§3.1.2).
    SchlagSwap,
}

/// Everything a seat can do in Watten.
// Plain data (no drop): a legal list is cleared without a loop over it, which showed in playout
// profiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// `{"type":"propose","proposal":"new_cards"}`.
    Propose {
        /// The proposal.
        proposal: Proposal,
    },
    /// Accepts a pending proposal or raise.
    Accept {},
    /// Declines a pending proposal.
    Decline {},
    /// Names the Schlag (`{"schlag":"9"}`), the trump suit (`{"trump":"H"}`), or, in Blind
    /// Watten, designates a card (`{"card":"9H"}`). Exactly one field is given.
    Declare {
        /// The Schlag rank.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        schlag: Option<Rank>,
        /// The trump suit.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        trump: Option<Suit>,
        /// The designated card (Blind).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<Card>,
    },
    /// Plays exactly one card: `{"type":"play","cards":["AS"]}`.
    Play {
        /// The card, as a one-element list.
        #[schemars(length(min = 1, max = 1))]
        cards: Cards,
    },
    /// Raises the deal's value to `to`.
    Raise {
        /// The new value.
        to: u32,
    },
    /// Folds a pending raise.
    Fold {},
    /// Challenges a first raise at 2:2 (`last_trick_raise=challenge`).
    Challenge {},
    /// Bohemian exchange: lays one card away face down.
    Discard {
        /// The card.
        card: Card,
    },
    /// Bohemian exchange: ends the turn, drawing as many cards as discarded.
    Draw {},
    /// A public signal (`signals=public`).
    Signal {
        /// The signal code.
        code: SignalCode,
    },
}

/// A signal's code (§3.8) held inline: the codes are short words, so an action or an event
/// carries no heap string. JSON and schema as a string; a code longer than [`SignalCode::MAX`]
/// bytes (longer than any of §3.8's) is refused when parsed.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct SignalCode {
    len: u8,
    bytes: [u8; SignalCode::MAX],
}

impl SignalCode {
    /// The longest code held.
    pub const MAX: usize = 15;

    /// The code, `None` past [`SignalCode::MAX`] bytes.
    pub fn new(code: &str) -> Option<SignalCode> {
        let mut bytes = [0; SignalCode::MAX];
        bytes
            .get_mut(..code.len())?
            .copy_from_slice(code.as_bytes());
        Some(SignalCode {
            len: code.len() as u8,
            bytes,
        })
    }

    /// The code as text.
    pub fn as_str(&self) -> &str {
        // The bytes of a whole `&str`: always UTF-8.
        std::str::from_utf8(self.bytes.get(..usize::from(self.len)).unwrap_or_default())
            .unwrap_or_default()
    }
}

impl std::ops::Deref for SignalCode {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl std::fmt::Display for SignalCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::fmt::Debug for SignalCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl Serialize for SignalCode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for SignalCode {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let code = String::deserialize(deserializer)?;
        SignalCode::new(&code).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "signal code `{code}` is longer than any signal ({} bytes at most)",
                SignalCode::MAX
            ))
        })
    }
}

impl schemars::JsonSchema for SignalCode {
    fn inline_schema() -> bool {
        String::inline_schema()
    }
    fn schema_name() -> Cow<'static, str> {
        String::schema_name()
    }
    fn schema_id() -> Cow<'static, str> {
        String::schema_id()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        String::json_schema(generator)
    }
}

impl Action {
    /// `declare schlag`.
    pub fn schlag(rank: Rank) -> Action {
        Action::Declare {
            schlag: Some(rank),
            trump: None,
            card: None,
        }
    }

    /// `declare trump`.
    pub fn trump(suit: Suit) -> Action {
        Action::Declare {
            schlag: None,
            trump: Some(suit),
            card: None,
        }
    }

    /// `declare card`.
    pub fn designate(card: Card) -> Action {
        Action::Declare {
            schlag: None,
            trump: None,
            card: Some(card),
        }
    }

    /// `play`.
    pub fn play(card: Card) -> Action {
        Action::Play {
            cards: Cards::one(card),
        }
    }
}

/// The signal codes of §3.8.
pub const SIGNAL_CODES: [&str; 28] = [
    "maxi",
    "belli",
    "spitz",
    "hauptschlag",
    "blinde_1",
    "blinde_2",
    "blinde_3",
    "trumps_1",
    "trumps_2",
    "trumps_3",
    "trumps_4",
    "martl",
    "weli",
    "nell",
    "rechte",
    "linke_1",
    "linke_2",
    "linke_3",
    "trump_A",
    "trump_K",
    "trump_Q",
    "trump_J",
    "trump_low",
    "suit_C",
    "suit_S",
    "suit_H",
    "suit_D",
    "bad_hand",
];

/// Public events.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A new deal.
    Deal {
        /// Deal number.
        deal: u32,
        /// Dealer.
        dealer: Seat,
    },
    /// The cut reveal.
    Cut {
        /// Cutter.
        seat: Seat,
        /// Criticals taken.
        #[schemars(with = "Vec<Card>")]
        taken: Cards,
        /// The shown card.
        shown: Option<Card>,
    },
    /// Bohemian turn-up.
    TurnUp {
        /// The card.
        card: Card,
        /// The trump suit.
        trump: Suit,
    },
    /// A Maschine.
    Maschine {
        /// Holder.
        seat: Seat,
        /// The criticals.
        cards: CardList,
    },
    /// A proposal.
    Propose {
        /// E.
        seat: Seat,
        /// What.
        proposal: Proposal,
    },
    /// The dealer's answer to a proposal.
    Answer {
        /// Dealer.
        seat: Seat,
        /// Accepted.
        accepted: bool,
    },
    /// A public declaration.
    Declare {
        /// Seat.
        seat: Seat,
        /// Schlag.
        #[serde(skip_serializing_if = "Option::is_none")]
        schlag: Option<Rank>,
        /// Trump.
        #[serde(skip_serializing_if = "Option::is_none")]
        trump: Option<Suit>,
    },
    /// Blind: a seat designated a card (which is secret).
    Designate {
        /// Seat.
        seat: Seat,
    },
    /// A card played.
    Play {
        /// Seat.
        seat: Seat,
        /// The card.
        cards: Cards,
    },
    /// A trick completed.
    TrickWon {
        /// Winner.
        seat: Seat,
    },
    /// A raise.
    Raise {
        /// Seat.
        seat: Seat,
        /// Value.
        to: u32,
    },
    /// A raise accepted.
    Accept {
        /// Seat.
        seat: Seat,
    },
    /// A raise folded.
    Fold {
        /// Seat.
        seat: Seat,
    },
    /// A challenge (§3.4.4).
    Challenge {
        /// Challenger.
        seat: Seat,
        /// The raiser's last card.
        card: Card,
        /// It qualified.
        qualifies: bool,
    },
    /// A signal.
    Signal {
        /// Seat.
        seat: Seat,
        /// Code.
        code: SignalCode,
    },
    /// Bohemian: a seat discarded a card (face down).
    Discard {
        /// Seat.
        seat: Seat,
    },
    /// Bohemian: a seat drew.
    Draw {
        /// Seat.
        seat: Seat,
        /// Cards drawn.
        count: u8,
    },
    /// A deal ended; Schlag, trump and Blind designations become public.
    DealEnd {
        /// Summary.
        #[serde(flatten)]
        summary: SharedSummary,
        /// Blind: the designated cards (E's, dealer's).
        #[serde(skip_serializing_if = "Vec::is_empty")]
        designated: Vec<Card>,
    },
    /// The game ended.
    GameOver {
        /// Final scores.
        scores: Vec<i32>,
    },
}
