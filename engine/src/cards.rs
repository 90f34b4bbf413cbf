//! Playing cards: [`Rank`], [`Suit`], [`Card`] with the shared codes (`TH`, `AS`, `7C`, `JK`), and packs
//! built from a description ([`PackSpec`]) rather than by hand per game.
//!
//! A card is one byte (`Card::index`): suited cards are `rank_index * 4 + suit_index` (0..52) and the
//! joker is 52. That keeps hands as `u64` bitsets ([`CardSet`]) for single-pack games.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// A card rank, ordered low to high by its natural value (2..=14, ace high).
///
/// Games that rank cards differently (Watten, Basra, ...) map ranks to their own order; the natural
/// order here is only the default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Rank {
    /// 2
    Two = 2,
    /// 3
    Three,
    /// 4
    Four,
    /// 5
    Five,
    /// 6
    Six,
    /// 7
    Seven,
    /// 8
    Eight,
    /// 9
    Nine,
    /// 10, code `T`
    Ten,
    /// Jack, code `J`
    Jack,
    /// Queen, code `Q`
    Queen,
    /// King, code `K`
    King,
    /// Ace, code `A`
    Ace,
}

impl Rank {
    /// All thirteen ranks, low to high.
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// Natural value: 2..=10 for pips, J=11, Q=12, K=13, A=14.
    pub const fn value(self) -> u8 {
        self as u8
    }

    /// Zero-based index 0..13 (Two = 0, Ace = 12).
    pub const fn index(self) -> usize {
        self as usize - 2
    }

    /// The rank with the given zero-based index (0..13).
    pub fn from_index(index: usize) -> Option<Rank> {
        Rank::ALL.get(index).copied()
    }

    /// The rank with the given natural value (2..=14).
    pub fn from_value(value: u8) -> Option<Rank> {
        (2..=14)
            .contains(&value)
            .then(|| Rank::ALL[value as usize - 2])
    }

    /// The one-character code: `2`..`9`, `T`, `J`, `Q`, `K`, `A`.
    pub const fn code(self) -> char {
        match self {
            Rank::Two => '2',
            Rank::Three => '3',
            Rank::Four => '4',
            Rank::Five => '5',
            Rank::Six => '6',
            Rank::Seven => '7',
            Rank::Eight => '8',
            Rank::Nine => '9',
            Rank::Ten => 'T',
            Rank::Jack => 'J',
            Rank::Queen => 'Q',
            Rank::King => 'K',
            Rank::Ace => 'A',
        }
    }

    /// Parses a one-character rank code (`T` for ten; `10` is also accepted for ten).
    pub fn from_code(code: &str) -> Option<Rank> {
        Some(match code {
            "2" => Rank::Two,
            "3" => Rank::Three,
            "4" => Rank::Four,
            "5" => Rank::Five,
            "6" => Rank::Six,
            "7" => Rank::Seven,
            "8" => Rank::Eight,
            "9" => Rank::Nine,
            "T" | "10" => Rank::Ten,
            "J" => Rank::Jack,
            "Q" => Rank::Queen,
            "K" => Rank::King,
            "A" => Rank::Ace,
            _ => return None,
        })
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.code())
    }
}

impl Serialize for Rank {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut buf = [0u8; 4];
        serializer.serialize_str(self.code().encode_utf8(&mut buf))
    }
}

impl<'de> Deserialize<'de> for Rank {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let code = String::deserialize(deserializer)?;
        Rank::from_code(&code).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "`{code}` is not a rank (expected one of 2 3 4 5 6 7 8 9 T J Q K A)"
            ))
        })
    }
}

/// A French suit. Codes `S` `H` `D` `C`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Suit {
    /// Spades, `S`
    Spades = 0,
    /// Hearts, `H`
    Hearts,
    /// Diamonds, `D`
    Diamonds,
    /// Clubs, `C`
    Clubs,
}

impl Suit {
    /// The four suits in code order S, H, D, C.
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// Zero-based index 0..4.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The one-letter code.
    pub const fn code(self) -> char {
        match self {
            Suit::Spades => 'S',
            Suit::Hearts => 'H',
            Suit::Diamonds => 'D',
            Suit::Clubs => 'C',
        }
    }

    /// Parses a one-letter suit code.
    pub fn from_code(code: &str) -> Option<Suit> {
        Some(match code {
            "S" => Suit::Spades,
            "H" => Suit::Hearts,
            "D" => Suit::Diamonds,
            "C" => Suit::Clubs,
            _ => return None,
        })
    }

    /// True for hearts and diamonds.
    pub const fn is_red(self) -> bool {
        matches!(self, Suit::Hearts | Suit::Diamonds)
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.code())
    }
}

impl Serialize for Suit {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut buf = [0u8; 4];
        serializer.serialize_str(self.code().encode_utf8(&mut buf))
    }
}

impl<'de> Deserialize<'de> for Suit {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let code = String::deserialize(deserializer)?;
        Suit::from_code(&code).ok_or_else(|| {
            serde::de::Error::custom(format!("`{code}` is not a suit (expected S, H, D or C)"))
        })
    }
}

/// A short list of cards kept inline (no allocation up to 8 cards): the `cards` of actions and
/// events, which a playout creates and drops at every move. Serialized as a JSON list of codes.
pub type CardList = smallvec::SmallVec<[Card; 8]>;

/// A [`CardList`] of one card, written whole: `smallvec![card]` goes through an out-of-line
/// `push`, and the struct copied right after it stalls on the byte just stored.
pub fn one_card(card: Card) -> CardList {
    CardList::from_buf_and_len([card; 8], 1)
}

/// The cards of `set` in the order they appear in `order` (cards of `set` missing from `order`
/// are left out). Up to eight cards are gathered in a register and stored whole (see
/// [`one_card`]); longer lists are pushed one by one.
pub fn in_order(order: &[Card], set: CardSet) -> CardList {
    // Byte `i` of `packed` is the i-th card (bytes past `len` are unused). Every card is written
    // to byte `len` and counted only if it is in `set`: no branch per card on where they lie.
    let mut packed = 0u64;
    let mut len = 0;
    for &card in order {
        let listed = set.contains(card);
        if listed & (len == 8) {
            let mut long = CardList::from_buf_and_len(packed.to_le_bytes().map(Card), 8);
            long.extend(order.iter().copied().filter(|c| set.contains(*c)).skip(8));
            return long;
        }
        packed |= (u64::from(card.0) << ((8 * len) & 63)) & 0u64.wrapping_sub(u64::from(listed));
        len += usize::from(listed);
    }
    CardList::from_buf_and_len(packed.to_le_bytes().map(Card), len)
}

/// One playing card: a rank of a suit, or the joker (`JK`).
///
/// Serialized as its code (`"TH"`, `"AS"`, `"JK"`). Ordered by index (rank, then suit, joker last).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// The joker.
    pub const JOKER: Card = Card(52);
    /// Number of distinct card identities (52 suited cards + the joker).
    pub const COUNT: usize = 53;

    /// The suited card of `rank` and `suit`.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card((rank.index() * 4 + suit.index()) as u8)
    }

    /// The card with the given index (0..53).
    pub fn from_index(index: usize) -> Option<Card> {
        (index < Self::COUNT).then_some(Card(index as u8))
    }

    /// Dense index 0..53, usable for bitsets and count arrays.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// True for the joker.
    pub const fn is_joker(self) -> bool {
        self.0 == 52
    }

    /// The rank, or `None` for the joker.
    pub fn rank(self) -> Option<Rank> {
        (!self.is_joker()).then(|| Rank::ALL[self.0 as usize / 4])
    }

    /// The suit, or `None` for the joker.
    pub fn suit(self) -> Option<Suit> {
        (!self.is_joker()).then(|| Suit::ALL[self.0 as usize % 4])
    }

    /// The code, e.g. `"TH"`, `"JK"`.
    pub fn code(self) -> String {
        self.as_str().to_string()
    }

    /// The code as a static string, e.g. `"TH"`, `"JK"`: read from a table, so serializing a
    /// card (every state, view and event carries dozens) neither formats nor checks UTF-8.
    pub fn as_str(self) -> &'static str {
        let at = 2 * self.index();
        &CARD_CODES[at..at + 2]
    }

    /// The card of a two-byte code (`TH`, `JK`), None for any other pair of bytes.
    const fn from_code_bytes(rank: u8, suit: u8) -> Option<Card> {
        let rank = match rank {
            b'2'..=b'9' => rank - b'2',
            b'T' => 8,
            b'J' if suit == b'K' => return Some(Card::JOKER),
            b'J' => 9,
            b'Q' => 10,
            b'K' => 11,
            b'A' => 12,
            _ => return None,
        };
        // Suit indices in `CARD_CODES` order: S H D C.
        let suit = match suit {
            b'S' => 0,
            b'H' => 1,
            b'D' => 2,
            b'C' => 3,
            _ => return None,
        };
        Some(Card(rank * 4 + suit))
    }

    /// Parses a card code: rank then suit (`TH`, `AS`, `7C`; `10H` is accepted for `TH`), or `JK`.
    pub fn parse(code: &str) -> Result<Card, CardParseError> {
        code.parse()
    }

    /// Parses a whitespace-separated list of codes, e.g. `"7H 8H AS"` (handy in tests and docs).
    pub fn parse_list(codes: &str) -> Result<Vec<Card>, CardParseError> {
        codes.split_whitespace().map(str::parse).collect()
    }
}

/// Every card's code in index order (rank by rank from the two, suits S H D C, the joker last),
/// two characters each; `codes_round_trip_for_every_card` checks it against `Rank`/`Suit` codes.
const CARD_CODES: &str = "2S2H2D2C3S3H3D3C4S4H4D4C5S5H5D5C6S6H6D6C7S7H7D7C8S8H8D8C9S9H9D9C\
TSTHTDTCJSJHJDJCQSQHQDQCKSKHKDKCASAHADACJK";

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A string that is not a card code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a card code (expected rank 2-9/T/J/Q/K/A then suit S/H/D/C, like `TH` or `AS`, or `JK`)"
)]
pub struct CardParseError(pub String);

impl FromStr for Card {
    type Err = CardParseError;
    fn from_str(code: &str) -> Result<Card, CardParseError> {
        // Nearly every code on the wire is two bytes: read them by table (a state carries
        // dozens of cards, parsed on every request of the rules API).
        if let &[rank, suit] = code.as_bytes()
            && let Some(card) = Card::from_code_bytes(rank, suit)
        {
            return Ok(card);
        }
        if code == "JK" {
            return Ok(Card::JOKER);
        }
        let err = || CardParseError(code.to_string());
        if !code.is_ascii() || code.len() < 2 {
            return Err(err());
        }
        let (rank, suit) = code.split_at(code.len() - 1);
        let rank = Rank::from_code(rank).ok_or_else(err)?;
        let suit = Suit::from_code(suit).ok_or_else(err)?;
        Ok(Card::new(rank, suit))
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CodeVisitor;
        impl serde::de::Visitor<'_> for CodeVisitor {
            type Value = Card;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a card code such as \"TH\", \"AS\" or \"JK\"")
            }
            fn visit_str<E: serde::de::Error>(self, code: &str) -> Result<Card, E> {
                code.parse().map_err(E::custom)
            }
        }
        deserializer.deserialize_str(CodeVisitor)
    }
}

/// A set of distinct cards as a 64-bit mask (bit `card.index()`), for single-pack games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct CardSet(pub u64);

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet(0);

    /// Builds a set from cards (duplicates collapse).
    pub fn from_cards(cards: impl IntoIterator<Item = Card>) -> CardSet {
        let mut set = CardSet::EMPTY;
        for card in cards {
            set.insert(card);
        }
        set
    }

    /// Adds a card; returns false if it was already present.
    pub fn insert(&mut self, card: Card) -> bool {
        let bit = 1u64 << card.index();
        let fresh = self.0 & bit == 0;
        self.0 |= bit;
        fresh
    }

    /// Removes a card; returns false if it was absent.
    pub fn remove(&mut self, card: Card) -> bool {
        let bit = 1u64 << card.index();
        let present = self.0 & bit != 0;
        self.0 &= !bit;
        present
    }

    /// True if the card is in the set.
    pub const fn contains(self, card: Card) -> bool {
        self.0 & (1u64 << card.0) != 0
    }

    /// Number of cards.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// True if empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The cards in index order (rank, then suit, joker last).
    pub fn iter(self) -> impl Iterator<Item = Card> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let index = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            Some(Card(index))
        })
    }

    /// The cards of one suit.
    pub fn of_suit(self, suit: Suit) -> CardSet {
        // Bits of suit s are s, s+4, s+8, ... (joker excluded).
        const SPADES: u64 = 0x1_1111_1111_1111;
        CardSet(self.0 & (SPADES << suit.index()))
    }

    /// The cards of one rank.
    pub fn of_rank(self, rank: Rank) -> CardSet {
        CardSet(self.0 & (0xF << (rank.index() * 4)))
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<T: IntoIterator<Item = Card>>(iter: T) -> Self {
        CardSet::from_cards(iter)
    }
}

impl Serialize for CardSet {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for CardSet {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let cards = Vec::<Card>::deserialize(deserializer)?;
        let mut set = CardSet::EMPTY;
        for card in cards {
            if !set.insert(card) {
                return Err(serde::de::Error::custom(format!(
                    "card {card} appears twice"
                )));
            }
        }
        Ok(set)
    }
}

/// Describes a pack: which ranks and suits, how many jokers, how many copies, plus extra single cards.
///
/// Examples: the 52-card pack, Watten's 32 (7..A) and 33 (+ `6D`), 40 (no 8 9 T), 44, double packs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackSpec {
    /// Ranks present in every suit.
    pub ranks: Vec<Rank>,
    /// Suits present.
    pub suits: Vec<Suit>,
    /// Additional individual cards (e.g. Watten's Weli `6D`).
    pub extra: Vec<Card>,
    /// Jokers per copy of the pack.
    pub jokers: usize,
    /// Copies of the whole pack (2 = a double pack).
    pub copies: usize,
}

impl PackSpec {
    /// The standard 52-card pack.
    pub fn standard() -> PackSpec {
        PackSpec::ranks_from(Rank::Two)
    }

    /// All four suits with ranks from `lowest` up to the ace (`Seven` gives the 32-card pack).
    pub fn ranks_from(lowest: Rank) -> PackSpec {
        PackSpec {
            ranks: Rank::ALL.iter().copied().filter(|r| *r >= lowest).collect(),
            suits: Suit::ALL.to_vec(),
            extra: Vec::new(),
            jokers: 0,
            copies: 1,
        }
    }

    /// All four suits with exactly these ranks.
    pub fn with_ranks(ranks: &[Rank]) -> PackSpec {
        PackSpec {
            ranks: ranks.to_vec(),
            suits: Suit::ALL.to_vec(),
            extra: Vec::new(),
            jokers: 0,
            copies: 1,
        }
    }

    /// Adds jokers per copy.
    pub fn jokers(mut self, jokers: usize) -> PackSpec {
        self.jokers = jokers;
        self
    }

    /// Adds extra single cards per copy.
    pub fn extra(mut self, cards: &[Card]) -> PackSpec {
        self.extra.extend_from_slice(cards);
        self
    }

    /// Sets the number of copies of the pack.
    pub fn copies(mut self, copies: usize) -> PackSpec {
        self.copies = copies;
        self
    }

    /// The cards of the pack in a fixed canonical order (by copy, suit, rank; extras; jokers).
    pub fn cards(&self) -> Vec<Card> {
        let mut cards = Vec::with_capacity(self.len());
        for _ in 0..self.copies {
            for &suit in &self.suits {
                for &rank in &self.ranks {
                    cards.push(Card::new(rank, suit));
                }
            }
            cards.extend_from_slice(&self.extra);
            cards.extend(std::iter::repeat_n(Card::JOKER, self.jokers));
        }
        cards
    }

    /// Number of cards in the pack.
    pub fn len(&self) -> usize {
        self.copies * (self.suits.len() * self.ranks.len() + self.extra.len() + self.jokers)
    }

    /// True if the pack has no card.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many copies of `card` the pack holds.
    pub fn count_of(&self, card: Card) -> usize {
        let per_copy = if card.is_joker() {
            self.jokers
        } else {
            let in_grid = match (card.rank(), card.suit()) {
                (Some(rank), Some(suit)) => {
                    usize::from(self.ranks.contains(&rank) && self.suits.contains(&suit))
                }
                _ => 0,
            };
            in_grid + self.extra.iter().filter(|c| **c == card).count()
        };
        per_copy * self.copies
    }
}

// JSON Schemas of the codes, matching exactly what the `Deserialize` impls above accept (`10` is
// read as a ten, so `10H` is a valid card code although `TH` is what the engine writes).
impl schemars::JsonSchema for Rank {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Rank".into()
    }
    fn schema_id() -> std::borrow::Cow<'static, str> {
        "engine::cards::Rank".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut codes: Vec<String> = Rank::ALL.iter().map(|r| r.code().to_string()).collect();
        codes.push("10".into());
        schemars::json_schema!({
            "type": "string",
            "description": "A rank code: 2-9, T (ten; `10` is also accepted), J, Q, K, A.",
            "enum": codes,
        })
    }
}

impl schemars::JsonSchema for Suit {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Suit".into()
    }
    fn schema_id() -> std::borrow::Cow<'static, str> {
        "engine::cards::Suit".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let codes: Vec<String> = Suit::ALL.iter().map(|s| s.code().to_string()).collect();
        schemars::json_schema!({
            "type": "string",
            "description": "A suit code: S (spades), H (hearts), D (diamonds), C (clubs).",
            "enum": codes,
        })
    }
}

/// The pattern of a card code, exactly what [`Card::from_str`] accepts.
pub const CARD_CODE_PATTERN: &str = "^(JK|([2-9TJQKA]|10)[SHDC])$";

impl schemars::JsonSchema for Card {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Card".into()
    }
    fn schema_id() -> std::borrow::Cow<'static, str> {
        "engine::cards::Card".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "description": "A card code: rank (2-9, T, J, Q, K, A; `10` is also accepted for T) then suit \
        (S, H, D, C), like `TH`, `AS`, `7C`; or `JK` for the joker.",
            "pattern": CARD_CODE_PATTERN,
            "examples": ["TH", "AS", "7C", "JK"],
        })
    }
}

impl schemars::JsonSchema for CardSet {
    // A list of distinct card codes: always written in place, like a `Vec<Card>`.
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "CardSet".into()
    }
    fn schema_id() -> std::borrow::Cow<'static, str> {
        "engine::cards::CardSet".into()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "array",
            "items": generator.subschema_for::<Card>(),
            "uniqueItems": true,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_byte_codes_read_by_table_as_by_rank_and_suit() {
        // The table read of a two-byte code against the general reading, over every pair of
        // ASCII bytes: the same card, or refused by both.
        for rank in 0u8..128 {
            for suit in 0u8..128 {
                let code = [rank, suit];
                let code = std::str::from_utf8(&code).unwrap();
                let general = if code == "JK" {
                    Some(Card::JOKER)
                } else {
                    Rank::from_code(&code[..1])
                        .zip(Suit::from_code(&code[1..]))
                        .map(|(rank, suit)| Card::new(rank, suit))
                };
                assert_eq!(Card::from_code_bytes(rank, suit), general, "{code:?}");
                assert_eq!(code.parse::<Card>().ok(), general, "{code:?}");
            }
        }
    }

    #[test]
    fn codes_round_trip_for_every_card() {
        for index in 0..Card::COUNT {
            let card = Card::from_index(index).unwrap();
            let code = card.to_string();
            let spelled = match (card.rank(), card.suit()) {
                (Some(rank), Some(suit)) => format!("{}{}", rank.code(), suit.code()),
                _ => "JK".to_string(),
            };
            assert_eq!(code, spelled, "the code table at index {index}");
            assert_eq!(code.parse::<Card>().unwrap(), card, "{code}");
            let json = serde_json::to_string(&card).unwrap();
            assert_eq!(json, format!("\"{code}\""));
            assert_eq!(serde_json::from_str::<Card>(&json).unwrap(), card);
        }
        assert_eq!(
            Card::parse("TH").unwrap(),
            Card::new(Rank::Ten, Suit::Hearts)
        );
        assert_eq!(
            Card::parse("10H").unwrap(),
            Card::new(Rank::Ten, Suit::Hearts)
        );
        assert_eq!(Card::parse("JK").unwrap(), Card::JOKER);
    }

    #[test]
    fn lists_of_one_and_in_order_match_their_plain_forms() {
        let card = Card::new(Rank::Seven, Suit::Diamonds);
        assert_eq!(one_card(card), smallvec::smallvec![card] as CardList);
        // Orders of 0 to 13 cards, every subset size, the 9th card and beyond included.
        let order = Card::parse_list("KS 2H 9C JK AD 3S TH 5C QD 4H 8S 6D 7C").unwrap();
        for mask in [0u64, 1, 0b1011, 0xFF, 0x1FF, u64::MAX] {
            for take in 0..=order.len() {
                let set = CardSet::from_cards(order[..take].iter().copied());
                let set = CardSet(set.0 & mask.rotate_left(take as u32));
                let plain: CardList = order.iter().copied().filter(|c| set.contains(*c)).collect();
                assert_eq!(in_order(&order, set), plain, "{take} cards, mask {mask:#x}");
            }
        }
    }

    #[test]
    fn bad_codes_are_refused_with_the_code_named() {
        for bad in ["", "T", "1H", "TX", "th", "JKK", "♥A", "AAS"] {
            let err = Card::parse(bad).unwrap_err();
            assert!(err.to_string().contains(&format!("`{bad}`")), "{err}");
        }
    }

    #[test]
    fn pack_sizes_follow_their_description() {
        assert_eq!(PackSpec::standard().cards().len(), 52);
        assert_eq!(PackSpec::ranks_from(Rank::Seven).cards().len(), 32);
        let weli = Card::parse("6D").unwrap();
        let p33 = PackSpec::ranks_from(Rank::Seven).extra(&[weli]);
        assert_eq!(p33.cards().len(), 33);
        assert_eq!(p33.count_of(weli), 1);
        let no_89t = PackSpec::with_ranks(&[
            Rank::Two,
            Rank::Three,
            Rank::Four,
            Rank::Five,
            Rank::Six,
            Rank::Seven,
            Rank::Jack,
            Rank::Queen,
            Rank::King,
            Rank::Ace,
        ]);
        assert_eq!(no_89t.cards().len(), 40);
        assert_eq!(PackSpec::ranks_from(Rank::Three).cards().len(), 48);
        assert_eq!(PackSpec::ranks_from(Rank::Five).cards().len(), 40);
        let double = PackSpec::standard().copies(2);
        assert_eq!(double.cards().len(), 104);
        assert_eq!(double.count_of(Card::parse("7H").unwrap()), 2);
        let with_joker = PackSpec::standard().jokers(1);
        assert_eq!(with_joker.len(), 53);
        assert_eq!(with_joker.count_of(Card::JOKER), 1);
    }

    #[test]
    fn card_set_suit_and_rank_masks() {
        let set = CardSet::from_cards(Card::parse_list("2S 2H AS KD JK").unwrap());
        assert_eq!(set.len(), 5);
        assert_eq!(
            set.of_suit(Suit::Spades)
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>(),
            ["2S", "AS"]
        );
        assert_eq!(set.of_rank(Rank::Two).len(), 2);
        assert!(set.contains(Card::JOKER));
        assert_eq!(set.of_suit(Suit::Clubs).len(), 0);
    }
}
