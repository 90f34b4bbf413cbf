//! The action vocabulary of 22 (spec §3): `discard`, `draw`, `play`, `accept`, `fold`.

use super::state::SeatCard;
use crate::cards::{Card, CardParseError, Rank, Suit};
use crate::game::Seat;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// Why [`Cards::parse`] refused a list.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CardsError {
    /// A code is not a card.
    #[error(transparent)]
    Card(#[from] CardParseError),
    /// More cards than one play can hold.
    #[error("a play holds at most {MAX_PLAY} cards, not {0}")]
    TooMany(usize),
}

/// Most cards one play can hold: a set is at most four cards per pack, and at most 3 packs (R22).
pub const MAX_PLAY: usize = 12;

const fn card_table() -> [Card; 52] {
    let mut table = [Card::new(Rank::Two, Suit::Spades); 52];
    let mut i = 0;
    while i < 52 {
        table[i] = Card::new(Rank::ALL[i / 4], Suit::ALL[i % 4]);
        i += 1;
    }
    table
}

/// The 52 suited cards by index (rank * 4 + suit).
pub const CARDS: [Card; 52] = card_table();

/// Rank index 0 (two) .. 12 (ace) of a suited card index.
#[inline]
pub const fn rank_of(index: usize) -> u8 {
    (index / 4) as u8
}

/// A short list of cards stored inline (no allocation), serialized as a JSON list of codes.
#[derive(Clone, Copy)]
pub struct Cards {
    len: u8,
    cards: [Card; MAX_PLAY],
}

impl Cards {
    /// The empty list.
    pub const fn new() -> Cards {
        Cards {
            len: 0,
            cards: [CARDS[0]; MAX_PLAY],
        }
    }

    /// One card, written whole (every slot at once, no length-dependent store).
    #[inline]
    pub const fn one(card: Card) -> Cards {
        Cards {
            len: 1,
            cards: [card; MAX_PLAY],
        }
    }

    /// Adds a card (ignored when full; callers never exceed [`MAX_PLAY`]).
    #[inline]
    pub fn push(&mut self, card: Card) {
        if let Some(slot) = self.cards.get_mut(self.len as usize) {
            *slot = card;
            self.len += 1;
        }
    }

    /// Removes the last card.
    #[inline]
    pub fn pop(&mut self) {
        self.len = self.len.saturating_sub(1);
    }

    /// The cards.
    #[inline]
    pub fn as_slice(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }

    /// Number of cards.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// True if empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Builds a list from space-separated card codes; refuses a bad code or more than
    /// [`MAX_PLAY`] cards.
    pub fn parse(codes: &str) -> Result<Cards, CardsError> {
        let list = Card::parse_list(codes)?;
        if list.len() > MAX_PLAY {
            return Err(CardsError::TooMany(list.len()));
        }
        let mut cards = Cards::new();
        for card in list {
            cards.push(card);
        }
        Ok(cards)
    }

    /// The same cards in ascending index order (rank, then suit).
    pub fn sorted(&self) -> Cards {
        let mut copy = *self;
        copy.cards[..self.len as usize].sort_unstable();
        copy
    }
}

impl Default for Cards {
    fn default() -> Self {
        Cards::new()
    }
}

impl PartialEq for Cards {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Cards {}

impl fmt::Debug for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl Serialize for Cards {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.as_slice())
    }
}

impl<'de> Deserialize<'de> for Cards {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let list = Vec::<Card>::deserialize(deserializer)?;
        if list.len() > MAX_PLAY {
            return Err(serde::de::Error::custom(format!(
                "a play has at most {MAX_PLAY} cards, not {}",
                list.len()
            )));
        }
        let mut cards = Cards::new();
        for card in list {
            cards.push(card);
        }
        Ok(cards)
    }
}

/// Everything a seat can do in 22, serialized as `{"type": ...}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Exchange step: lay one card face down (only while fewer are discarded than the stock holds; R28).
    Discard {
        /// The card.
        card: Card,
    },
    /// Ends the seat's exchange: draw as many cards as discarded (R7, R28).
    Draw {},
    /// Lead or follow with these cards (any order; R27).
    Play {
        /// The cards.
        cards: Cards,
    },
    /// Buy back in (gambling, R24).
    Accept {},
    /// Decline the buy-back: eliminated.
    Fold {},
}

impl schemars::JsonSchema for Cards {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Cards".into()
    }
    fn schema_id() -> std::borrow::Cow<'static, str> {
        concat!(module_path!(), "::Cards").into()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "array",
            "items": generator.subschema_for::<Card>(),
            "maxItems": MAX_PLAY,
        })
    }
}

/// Public events of 22.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A deal began.
    Deal {
        /// Deal number (1-based).
        deal: u32,
        /// Dealer.
        dealer: Seat,
        /// Leader (first to exchange and to lead).
        leader: Seat,
        /// Cards dealt to each player.
        cards_each: usize,
        /// Stock size.
        stock: usize,
    },
    /// A seat laid one card face down (which card is private).
    Discard {
        /// The seat.
        seat: Seat,
    },
    /// A seat ended its exchange, drawing `count` cards.
    Draw {
        /// The seat.
        seat: Seat,
        /// Cards drawn.
        count: usize,
    },
    /// Cards played to the trick.
    Play {
        /// The seat.
        seat: Seat,
        /// The cards.
        cards: Cards,
    },
    /// A trick was won.
    TrickWon {
        /// The winner.
        seat: Seat,
    },
    /// The last cards were revealed.
    LastTrick {
        /// Each player's last card.
        cards: Vec<SeatCard>,
    },
    /// A loser scored penalty points.
    Penalty {
        /// The loser.
        seat: Seat,
        /// His last card.
        card: Card,
        /// Points scored.
        points: u32,
        /// New total.
        total: u32,
    },
    /// A player bought back in (R24).
    BuyBack {
        /// The seat.
        seat: Seat,
        /// Total after the buy-back.
        total: u32,
    },
    /// A player declined the buy-back.
    Fold {
        /// The seat.
        seat: Seat,
    },
    /// A player is out.
    Eliminated {
        /// The seat.
        seat: Seat,
        /// His total.
        total: u32,
    },
    /// The game ended.
    GameOver,
}
