//! [`InlineCards`]: a short list of cards held inline as plain data, serialized, parsed and
//! described exactly as a [`CardList`]. A family whose legal list or events dominate a playout
//! keeps its actions' and events' card lists in it: nothing to allocate, nothing to drop, so a
//! move's list and events are cleared without a loop over them.

use crate::cards::{Card, CardList, CardSet};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;
use std::fmt;

/// A list of at most `N` cards, plain data: no allocation and nothing to drop, so the legal
/// list and the events of every move are written and cleared without a loop over them.
/// Serialized, parsed and described exactly as a [`CardList`] (order and repeats kept as sent);
/// a longer list is refused when parsed (the rules never name that many).
#[derive(Clone, Copy)]
pub struct InlineCards<const N: usize> {
    pub(crate) len: u8,
    pub(crate) cards: [Card; N],
}

impl<const N: usize> InlineCards<N> {
    /// No card.
    pub const EMPTY: Self = InlineCards {
        len: 0,
        cards: [Card::JOKER; N],
    };

    /// One card, written whole.
    #[inline]
    pub fn one(card: Card) -> Self {
        InlineCards {
            len: 1,
            cards: [card; N],
        }
    }

    /// The lowest card of `set` if it holds one card, nothing if it is empty: a capture of none
    /// or one target, built without a branch on which (the target counts of a hand are random).
    #[inline]
    pub fn at_most_one(set: CardSet) -> Self {
        InlineCards {
            len: u8::from(!set.is_empty()),
            cards: [lowest(set); N],
        }
    }

    /// The cards of a list, `None` past `N` cards.
    #[inline]
    pub fn of(list: &[Card]) -> Option<Self> {
        let mut inline = Self::EMPTY;
        inline.cards.get_mut(..list.len())?.copy_from_slice(list);
        inline.len = list.len() as u8;
        Some(inline)
    }

    /// The cards of `set` in the order they appear in `order` (cards of `set` missing from
    /// `order` are left out), as [`crate::cards::in_order`] lists them. The rules ask this of
    /// captures (at most three cards) and four of a kind: never past `N`.
    pub fn in_order(order: &[Card], set: CardSet) -> Self {
        let list = crate::cards::in_order(order, set);
        debug_assert!(list.len() <= N, "a list of more than {N} cards");
        Self::of(list.get(..N).unwrap_or(&list)).unwrap_or(Self::EMPTY)
    }

    /// The cards of `set` in card order (four of a kind: never past `N`).
    pub fn of_set(set: CardSet) -> Self {
        let mut inline = Self::EMPTY;
        for (slot, card) in inline.cards.iter_mut().zip(set.iter()) {
            *slot = card;
            inline.len += 1;
        }
        debug_assert_eq!(usize::from(inline.len), set.len(), "more than {N} cards");
        inline
    }

    /// The cards as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Card] {
        self.cards.get(..usize::from(self.len)).unwrap_or(&[])
    }

    /// The cards as a set (repeats once). None or one card (nearly every list) is read from the
    /// first slot, masked by the length: no branch on which of the two it is (at random). Longer
    /// lists test every slot and mask the filler off.
    #[inline]
    pub fn set(&self) -> CardSet {
        if self.len <= 1 {
            let first = self
                .cards
                .first()
                .map_or(0, |card| 1u64 << (card.index() & 63));
            return CardSet(first & 0u64.wrapping_sub(u64::from(self.len)));
        }
        let mut bits = 0u64;
        for (i, card) in self.cards.iter().enumerate() {
            let listed = 0u64.wrapping_sub(u64::from(i < usize::from(self.len)));
            // Card indices are below 53.
            bits |= (1u64 << (card.index() & 63)) & listed;
        }
        CardSet(bits)
    }

    /// The cards as a [`CardList`].
    pub fn to_list(&self) -> CardList {
        CardList::from_slice(self.as_slice())
    }
}

impl<const N: usize> Default for InlineCards<N> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<const N: usize> std::ops::Deref for InlineCards<N> {
    type Target = [Card];

    fn deref(&self) -> &[Card] {
        self.as_slice()
    }
}

impl<const N: usize> PartialEq for InlineCards<N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<const N: usize> Eq for InlineCards<N> {}

impl<const N: usize> fmt::Debug for InlineCards<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<const N: usize> Serialize for InlineCards<N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(serializer)
    }
}

impl<'de, const N: usize> Deserialize<'de> for InlineCards<N> {
    // Parsed as a `CardList` (whatever it accepts and refuses, and how), then held inline.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let list = CardList::deserialize(deserializer)?;
        Self::of(&list).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "{} cards in one list; a list names at most {N} (a play names one card and \
                 captures at most three)",
                list.len()
            ))
        })
    }
}

impl<const N: usize> schemars::JsonSchema for InlineCards<N> {
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

/// The lowest card of `set`, the joker if it is empty (suited cards are bits 0 to 51 and the
/// joker bit 52: one bit scan, no branch).
#[inline]
fn lowest(set: CardSet) -> Card {
    Card::from_index((set.0 | 1 << Card::JOKER.index()).trailing_zeros() as usize)
        .unwrap_or(Card::JOKER)
}

#[cfg(test)]
mod tests {
    use super::*;

    type Cards = InlineCards<8>;
    type Few = InlineCards<12>;

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
            "AS 2C 3D 4H 5S 6C 7D 8H",
        ] {
            let old: CardList = cards(list).into_iter().collect();
            let new = Cards::of(&cards(list)).unwrap_or_default();
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
        // Past eight cards an action's list is refused when parsed, with the count.
        let nine = serde_json::to_string(&cards("AS 2C 3D 4H 5S 6C 7D 8H 9S")).unwrap_or_default();
        let refused = serde_json::from_str::<Cards>(&nine).map_err(|e| e.to_string());
        assert!(
            refused
                .as_ref()
                .is_err_and(|e| e.contains("9 cards in one list")),
            "{refused:?}"
        );
        assert!(serde_json::from_str::<Few>(&nine).is_ok());
    }

    #[test]
    fn cards_in_order_is_the_card_list_in_order() {
        let order = cards("AS 2C 3D 4H 5S 6C 7D 8H 9S TH");
        for mask in [0u64, 1, 0b1111_0000, 0b1010_0110] {
            let set = CardSet(CardSet::from_cards(order.iter().copied()).0 & mask.rotate_left(3));
            assert_eq!(
                Cards::in_order(&order, set).as_slice(),
                crate::cards::in_order(&order, set).as_slice()
            );
        }
        for (i, &card) in order.iter().enumerate() {
            let set = CardSet::from_cards(order[i..].iter().copied());
            assert_eq!(lowest(set), set.iter().next().unwrap_or(Card::JOKER));
            let one = CardSet::from_cards([card]);
            assert_eq!(Cards::at_most_one(one), Cards::one(card));
            assert_eq!(Few::at_most_one(one), Few::one(card));
            assert_eq!(
                Few::of(&order[i..]).map(|f| f.to_vec()),
                Some(order[i..].to_vec())
            );
        }
        assert_eq!(Cards::at_most_one(CardSet::EMPTY), Cards::EMPTY);
        assert_eq!(Few::at_most_one(CardSet::EMPTY), Few::EMPTY);
        for len in 0..=order.len() {
            let Some(list) = Cards::of(&order[..len]) else {
                assert!(len > 8, "{len} cards fit inline");
                continue;
            };
            assert_eq!(
                list.set(),
                CardSet::from_cards(order[..len].iter().copied())
            );
        }
        assert_eq!(Few::of(&[Card::JOKER; 13]), None);
    }
}
