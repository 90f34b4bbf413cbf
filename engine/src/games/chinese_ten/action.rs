//! The actions of Chinese Ten (spec §3, R15).

use crate::cards::{Card, CardList, CardSet};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;
use std::fmt;

/// Everything a seat can do. Serialized as `{"type": ...}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
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

/// Cards kept inline by [`Cards`]: every list the rules produce (one card, a capture of one
/// card or an initial trio, four of a kind, a 4-card layout) fits. Eight, so that a list is
/// stored and read back as one 8-byte word (seven were stored as two overlapping words, and
/// the move's first read of the listed action stalled on them).
const INLINE: usize = 8;

/// A list of cards as the family's actions name them: serialized, parsed and described exactly
/// as a [`CardList`] (any length, order and repeats kept as sent), but 16 bytes with up to
/// [`INLINE`] cards inline, so that an action is 32 bytes (56 with two `CardList`s: the legal
/// list of every move is made of these). Longer lists, which only a client sends, are on the
/// heap.
#[derive(Clone)]
pub struct Cards(Repr);

#[derive(Clone)]
enum Repr {
    /// `len` cards at the front of `cards` (the rest is filler).
    Inline { len: u8, cards: [Card; INLINE] },
    /// More than [`INLINE`] cards, behind a thin pointer (the tag then leaves the action a
    /// niche for its own: 32 bytes, not 40).
    Heap(Box<CardList>),
}

impl Cards {
    /// No card.
    pub const EMPTY: Cards = Cards(Repr::Inline {
        len: 0,
        cards: [Card::JOKER; INLINE],
    });

    /// One card, written whole.
    #[inline]
    pub fn one(card: Card) -> Cards {
        Cards(Repr::Inline {
            len: 1,
            cards: [card; INLINE],
        })
    }

    /// The lowest card of `set` if it holds one card, nothing if it is empty: a capture of none
    /// or one target, built without a branch on which (the target counts of a hand are random).
    #[inline]
    pub fn at_most_one(set: CardSet) -> Cards {
        Cards(Repr::Inline {
            len: u8::from(!set.is_empty()),
            cards: [lowest(set); INLINE],
        })
    }

    /// The cards of `set` in the order they appear in `order` (cards of `set` missing from
    /// `order` are left out), as [`crate::cards::in_order`] lists them.
    pub fn in_order(order: &[Card], set: CardSet) -> Cards {
        Cards::from(crate::cards::in_order(order, set))
    }

    /// The cards as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Card] {
        match &self.0 {
            Repr::Inline { len, cards } => cards.get(..usize::from(*len)).unwrap_or(&[]),
            Repr::Heap(cards) => cards,
        }
    }

    /// The cards as a set (repeats once). Inline, every slot is tested and the filler masked
    /// off: no branch on the length (a capture of none or one card, at random).
    #[inline]
    pub fn set(&self) -> CardSet {
        match &self.0 {
            Repr::Inline { len, cards } => {
                let mut bits = 0u64;
                for (i, card) in cards.iter().enumerate() {
                    let listed = 0u64.wrapping_sub(u64::from(i < usize::from(*len)));
                    // Card indices are below 53.
                    bits |= (1u64 << (card.index() & 63)) & listed;
                }
                CardSet(bits)
            }
            Repr::Heap(cards) => CardSet::from_cards(cards.iter().copied()),
        }
    }

    /// The cards as an event's [`Few`], `None` past [`FEW`] cards. Inline lists are copied
    /// whole, in registers: a copy of their length only stalled the event's first read of them.
    #[inline]
    pub fn to_few(&self) -> Option<Few> {
        match &self.0 {
            Repr::Inline { len, cards } => {
                let [a, b, c, d, e, f, g, h] = *cards;
                let j = Card::JOKER;
                Some(Few {
                    len: *len,
                    cards: [a, b, c, d, e, f, g, h, j, j, j, j],
                })
            }
            Repr::Heap(cards) => Few::of(cards),
        }
    }

    /// The cards as a [`CardList`].
    pub fn to_list(&self) -> CardList {
        CardList::from_slice(self.as_slice())
    }
}

impl Default for Cards {
    fn default() -> Cards {
        Cards::EMPTY
    }
}

/// The traits a card list type shares with `[Card]` and [`CardList`], through its `as_slice`:
/// deref, equality, `Debug`, and the serialized form and schema of a [`CardList`] (the
/// published schemas do not change).
macro_rules! card_list_like {
    ($list:ty) => {
        impl std::ops::Deref for $list {
            type Target = [Card];

            fn deref(&self) -> &[Card] {
                self.as_slice()
            }
        }

        impl PartialEq for $list {
            fn eq(&self, other: &$list) -> bool {
                self.as_slice() == other.as_slice()
            }
        }

        impl Eq for $list {}

        impl fmt::Debug for $list {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_list().entries(self.iter()).finish()
            }
        }

        impl Serialize for $list {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                self.as_slice().serialize(serializer)
            }
        }

        impl schemars::JsonSchema for $list {
            fn inline_schema() -> bool {
                CardList::inline_schema()
            }
            fn schema_name() -> Cow<'static, str> {
                CardList::schema_name()
            }
            fn schema_id() -> Cow<'static, str> {
                CardList::schema_id()
            }
            fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
                CardList::json_schema(generator)
            }
        }
    };
}

card_list_like!(Cards);

impl From<&[Card]> for Cards {
    fn from(list: &[Card]) -> Cards {
        if list.len() > INLINE {
            return Cards(Repr::Heap(Box::new(CardList::from_slice(list))));
        }
        let mut cards = [Card::JOKER; INLINE];
        for (slot, card) in cards.iter_mut().zip(list) {
            *slot = *card;
        }
        Cards(Repr::Inline {
            len: list.len() as u8,
            cards,
        })
    }
}

impl From<CardList> for Cards {
    fn from(list: CardList) -> Cards {
        if list.len() > INLINE {
            return Cards(Repr::Heap(Box::new(list)));
        }
        Cards::from(list.as_slice())
    }
}

impl From<Vec<Card>> for Cards {
    fn from(list: Vec<Card>) -> Cards {
        Cards::from(list.as_slice())
    }
}

impl FromIterator<Card> for Cards {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Cards {
        Cards::from(iter.into_iter().collect::<CardList>())
    }
}

impl<'de> Deserialize<'de> for Cards {
    // Parsed as a `CardList`, so whatever it accepted and refused (and how) is unchanged.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        CardList::deserialize(deserializer).map(Cards::from)
    }
}

/// The lowest card of `set`, the joker if it is empty (suited cards are bits 0 to 51 and the
/// joker bit 52: one bit scan, no branch).
#[inline]
fn lowest(set: CardSet) -> Card {
    Card::from_index((set.0 | 1 << Card::JOKER.index()).trailing_zeros() as usize)
        .unwrap_or(Card::JOKER)
}

/// Cards held by a [`Few`]: the longest list an event of the family names (a 12-card Main
/// Merah layout).
const FEW: usize = 12;

/// A short list of cards the rules build for an event (a played card, a capture, four of a kind,
/// an initial layout): serialized and described exactly as a [`CardList`], but plain data, so a
/// move's events need no clean-up (dropping them was a twentieth of a playout). The rules never
/// name more than [`FEW`] cards in one list.
#[derive(Clone, Copy)]
pub struct Few {
    len: u8,
    cards: [Card; FEW],
}

impl Few {
    /// No card.
    pub const EMPTY: Few = Few {
        len: 0,
        cards: [Card::JOKER; FEW],
    };

    /// One card.
    #[inline]
    pub fn one(card: Card) -> Few {
        Few {
            len: 1,
            cards: [card; FEW],
        }
    }

    /// The lowest card of `set` if it holds one card, nothing if it is empty, without a branch
    /// on which (see [`Cards::at_most_one`]).
    #[inline]
    pub fn at_most_one(set: CardSet) -> Few {
        Few {
            len: u8::from(!set.is_empty()),
            cards: [lowest(set); FEW],
        }
    }

    /// The cards of a list the rules built, `None` past [`FEW`] cards.
    #[inline]
    pub fn of(list: &[Card]) -> Option<Few> {
        let mut few = Few::EMPTY;
        few.cards.get_mut(..list.len())?.copy_from_slice(list);
        few.len = list.len() as u8;
        Some(few)
    }

    /// The cards of `set` in the order they appear in `order`, as [`Cards::in_order`] lists
    /// them; the rules only ask this of captures (at most three cards) and four of a kind, so
    /// nothing is ever left out past [`FEW`].
    pub fn in_order(order: &[Card], set: CardSet) -> Few {
        let list = crate::cards::in_order(order, set);
        debug_assert_eq!(
            list.len(),
            set.len(),
            "an event list of more than {FEW} cards"
        );
        Few::of(list.get(..FEW).unwrap_or(&list)).unwrap_or(Few::EMPTY)
    }

    /// The cards of `set` in card order (four of a kind: never past [`FEW`]).
    pub fn of_set(set: CardSet) -> Few {
        let mut few = Few::EMPTY;
        for (slot, card) in few.cards.iter_mut().zip(set.iter()) {
            *slot = card;
            few.len += 1;
        }
        debug_assert_eq!(
            usize::from(few.len),
            set.len(),
            "an event list of more than {FEW} cards"
        );
        few
    }

    /// The cards as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Card] {
        self.cards.get(..usize::from(self.len)).unwrap_or(&[])
    }
}

card_list_like!(Few);

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(list: &str) -> Vec<Card> {
        Card::parse_list(list).unwrap_or_default()
    }

    #[test]
    fn cards_serialize_and_parse_as_a_card_list() {
        for list in [
            "",
            "TH",
            "TH 9S",
            "AS 2C 3D 4H 5S 6C 7D",
            "AS 2C 3D 4H 5S 6C 7D 8H 9S TH",
        ] {
            let old: CardList = cards(list).into_iter().collect();
            let new = Cards::from(cards(list));
            assert_eq!(new.as_slice(), old.as_slice());
            let json = serde_json::to_string(&old).unwrap_or_default();
            assert_eq!(serde_json::to_string(&new).unwrap_or_default(), json);
            let back: Cards = serde_json::from_str(&json).unwrap_or_default();
            assert_eq!(back, new);
            assert_eq!(format!("{new:?}"), format!("{old:?}"));
        }
        for bad in ["[\"TH\", 3]", "\"TH\"", "[\"ZZ\"]", "{}"] {
            let old = serde_json::from_str::<CardList>(bad).map_err(|e| e.to_string());
            let new = serde_json::from_str::<Cards>(bad).map_err(|e| e.to_string());
            assert_eq!(new.map(|c| c.to_list()), old, "{bad}");
        }
    }

    #[test]
    fn cards_in_order_is_the_card_list_in_order() {
        let order = cards("AS 2C 3D 4H 5S 6C 7D 8H 9S TH");
        for mask in [0u64, 1, 0b1111_0000, u64::MAX] {
            let set = CardSet(CardSet::from_cards(order.iter().copied()).0 & mask.rotate_left(3));
            assert_eq!(
                Cards::in_order(&order, set).as_slice(),
                crate::cards::in_order(&order, set).as_slice()
            );
        }
        assert!(std::mem::size_of::<Action>() <= 32);
        for (i, &card) in order.iter().enumerate() {
            let set = CardSet::from_cards(order[i..].iter().copied());
            assert_eq!(lowest(set), set.iter().next().unwrap_or(Card::JOKER));
            let one = CardSet::from_cards([card]);
            assert_eq!(Cards::at_most_one(one), Cards::one(card));
            assert_eq!(Few::at_most_one(one), Few::one(card));
            assert_eq!(
                Few::in_order(&order, set).as_slice(),
                &Cards::in_order(&order, set)[..]
            );
            assert_eq!(
                Few::of(&order[i..]).map(|f| f.to_vec()),
                Some(order[i..].to_vec())
            );
        }
        assert_eq!(Cards::at_most_one(CardSet::EMPTY), Cards::EMPTY);
        assert_eq!(Few::at_most_one(CardSet::EMPTY), Few::EMPTY);
        for len in 0..=order.len() {
            let list = Cards::from(&order[..len]);
            assert_eq!(
                list.set(),
                CardSet::from_cards(order[..len].iter().copied())
            );
            assert_eq!(
                list.to_few().map(|f| f.to_vec()),
                Few::of(&order[..len]).map(|f| f.to_vec())
            );
        }
        assert_eq!(Few::of(&[Card::JOKER; FEW + 1]), None);
    }
}
