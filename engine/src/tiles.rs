//! Domino tiles, the second kind of piece: [`Tile`] with codes `a-b` (a ≤ b, pips 0..=6), copies of a
//! duplicated tile told apart by a suffix `#1`, `#2` (`6-6#1`), and tile sets built from a
//! description ([`TileSetSpec`]) such as the 32-tile Chinese set.
//!
//! The copy suffix only keeps the ids of identical tiles unique (so stacked deals, views and the
//! conservation audit can name each physical tile); the copies of one face are identical in play.
//! A tile that a set holds once has no suffix. Stacked tile deals are parsed with
//! [`parse_tile_deals`], the counterpart of [`crate::deal::parse_card_deals`]; the generic
//! [`crate::deal::deal_sequence`] then orders them like any other piece.

use crate::error::SetupError;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// Highest pip count on one end of a tile (double-six sets).
pub const MAX_PIPS: u8 = 6;

/// A short list of tiles, inline up to four: the one-tile lists of actions and events are built
/// for every legal action and every move.
pub type TileList = smallvec::SmallVec<[Tile; 4]>;

/// One domino tile: two ends (`low` ≤ `high`) and a copy number (0 for a tile the set holds once,
/// 1.. for the copies of a duplicated tile).
///
/// Serialized as its code (`"2-5"`, `"6-6#1"`). Ordered by face (low, then high), then copy.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tile {
    low: u8,
    high: u8,
    copy: u8,
}

impl Tile {
    /// Number of distinct faces of a double-six set (0-0 .. 6-6).
    pub const FACES: usize = 28;

    /// The tile with ends `a` and `b` (in any order) and copy number `copy` (0 = no suffix).
    /// `None` if an end exceeds [`MAX_PIPS`] or the copy exceeds 9.
    pub const fn new(a: u8, b: u8, copy: u8) -> Option<Tile> {
        let (low, high) = if a <= b { (a, b) } else { (b, a) };
        if high <= MAX_PIPS && copy <= 9 {
            Some(Tile { low, high, copy })
        } else {
            None
        }
    }

    /// The lower end.
    pub const fn low(self) -> u8 {
        self.low
    }

    /// The higher end.
    pub const fn high(self) -> u8 {
        self.high
    }

    /// The copy number: 0 for a single tile, 1.. for copies of a duplicated tile.
    pub const fn copy(self) -> u8 {
        self.copy
    }

    /// Total pips (low + high).
    pub const fn pips(self) -> u8 {
        self.low + self.high
    }

    /// True if both ends are equal.
    pub const fn is_double(self) -> bool {
        self.low == self.high
    }

    /// The same face without copy number (identical in play).
    pub const fn face(self) -> Tile {
        Tile {
            low: self.low,
            high: self.high,
            copy: 0,
        }
    }

    /// True if the two tiles show the same face (copies of each other, or the same tile).
    pub const fn same_face(self, other: Tile) -> bool {
        self.low == other.low && self.high == other.high
    }

    /// Dense index of the face, 0..28 (0-0 = 0, 0-1 = 1, ..., 6-6 = 27).
    pub const fn face_index(self) -> usize {
        let (l, h) = (self.low as usize, self.high as usize);
        // Faces with low end < l come first: sum over i < l of (7 - i).
        l * 7 - l * (l.saturating_sub(1)) / 2 + (h - l)
    }

    /// The code, e.g. `"2-5"`, `"6-6#1"`.
    pub fn code(self) -> String {
        self.to_string()
    }

    /// Parses a tile code: `a-b` with a ≤ b (0..=6), optionally followed by `#k` (copy k, 1..=9).
    pub fn parse(code: &str) -> Result<Tile, TileParseError> {
        code.parse()
    }

    /// Parses a whitespace-separated list of codes, e.g. `"6-6#1 2-4 1-2"` (tests and docs).
    pub fn parse_list(codes: &str) -> Result<Vec<Tile>, TileParseError> {
        codes.split_whitespace().map(str::parse).collect()
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.copy == 0 {
            write!(f, "{}-{}", self.low, self.high)
        } else {
            write!(f, "{}-{}#{}", self.low, self.high, self.copy)
        }
    }
}

impl fmt::Debug for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A string that is not a tile code, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{code}` is not a tile code: {reason}")]
pub struct TileParseError {
    /// The refused text.
    pub code: String,
    /// What is wrong with it.
    pub reason: String,
}

impl FromStr for Tile {
    type Err = TileParseError;
    fn from_str(code: &str) -> Result<Tile, TileParseError> {
        let err = |reason: &str| TileParseError {
            code: code.to_string(),
            reason: reason.to_string(),
        };
        const FORM: &str = "expected `a-b` with pips 0 to 6 and a <= b, like `2-5`, optionally with a copy suffix `#1`/`#2` like `6-6#1`";
        let (face, copy) = match code.split_once('#') {
            Some((face, copy)) => {
                let copy = match copy.as_bytes() {
                    [d @ b'1'..=b'9'] => d - b'0',
                    _ => return Err(err("the copy suffix must be `#1` to `#9`")),
                };
                (face, copy)
            }
            None => (code, 0),
        };
        let (a, b) = match face.as_bytes() {
            [a @ b'0'..=b'9', b'-', b @ b'0'..=b'9'] => (a - b'0', b - b'0'),
            _ => return Err(err(FORM)),
        };
        if a > MAX_PIPS || b > MAX_PIPS {
            return Err(err("an end has more than 6 pips"));
        }
        if a > b {
            return Err(err(&format!("write the lower end first: `{b}-{a}`")));
        }
        Ok(Tile {
            low: a,
            high: b,
            copy,
        })
    }
}

impl Serialize for Tile {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // At most 5 ASCII characters (`6-6#2`): format without allocating.
        let mut buf = [0u8; 5];
        buf[0] = b'0' + self.low;
        buf[1] = b'-';
        buf[2] = b'0' + self.high;
        let len = if self.copy == 0 {
            3
        } else {
            buf[3] = b'#';
            buf[4] = b'0' + self.copy;
            5
        };
        serializer
            .serialize_str(std::str::from_utf8(&buf[..len]).map_err(serde::ser::Error::custom)?)
    }
}

impl<'de> Deserialize<'de> for Tile {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CodeVisitor;
        impl serde::de::Visitor<'_> for CodeVisitor {
            type Value = Tile;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a tile code such as \"2-5\" or \"6-6#1\"")
            }
            fn visit_str<E: serde::de::Error>(self, code: &str) -> Result<Tile, E> {
                code.parse().map_err(E::custom)
            }
        }
        deserializer.deserialize_str(CodeVisitor)
    }
}

/// One face of a tile set and how many copies of it the set holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TileKind {
    /// Lower end.
    pub low: u8,
    /// Higher end.
    pub high: u8,
    /// Copies in the set (1 = a single tile without suffix; 2.. = copies `#1`, `#2`, ...).
    pub copies: u8,
}

/// Describes a tile set: which faces, how many copies of each.
///
/// Examples: the 32-tile Chinese set ([`TileSetSpec::chinese`]), the 28-tile double-six set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TileSetSpec {
    /// The faces of the set, in canonical order.
    pub kinds: Vec<TileKind>,
}

impl TileSetSpec {
    /// Civil tiles of the Chinese set (each present twice), in the traditional ranking order.
    pub const CHINESE_CIVIL: [(u8, u8); 11] = [
        (6, 6),
        (1, 1),
        (4, 4),
        (1, 3),
        (5, 5),
        (3, 3),
        (2, 2),
        (5, 6),
        (4, 6),
        (1, 6),
        (1, 5),
    ];

    /// Military tiles of the Chinese set (each present once).
    pub const CHINESE_MILITARY: [(u8, u8); 10] = [
        (3, 6),
        (4, 5),
        (2, 6),
        (3, 5),
        (2, 5),
        (3, 4),
        (1, 4),
        (2, 3),
        (2, 4),
        (1, 2),
    ];

    /// The 32-tile Chinese (and Korean) set: 11 civil faces twice (`6-6#1`, `6-6#2`, ...) and
    /// 10 military faces once (`3-6`, ...). No blanks.
    pub fn chinese() -> TileSetSpec {
        let civil = Self::CHINESE_CIVIL.iter().map(|&(low, high)| TileKind {
            low,
            high,
            copies: 2,
        });
        let military = Self::CHINESE_MILITARY.iter().map(|&(low, high)| TileKind {
            low,
            high,
            copies: 1,
        });
        TileSetSpec {
            kinds: civil.chain(military).collect(),
        }
    }

    /// The 28-tile double-six set, every face once.
    pub fn double_six() -> TileSetSpec {
        let mut kinds = Vec::with_capacity(Tile::FACES);
        for low in 0..=MAX_PIPS {
            for high in low..=MAX_PIPS {
                kinds.push(TileKind {
                    low,
                    high,
                    copies: 1,
                });
            }
        }
        TileSetSpec { kinds }
    }

    /// The tiles of the set in canonical order (kinds in order, copies in order).
    pub fn tiles(&self) -> Vec<Tile> {
        let mut tiles = Vec::with_capacity(self.len());
        for kind in &self.kinds {
            if kind.copies == 1 {
                tiles.push(Tile {
                    low: kind.low,
                    high: kind.high,
                    copy: 0,
                });
            } else {
                tiles.extend((1..=kind.copies).map(|copy| Tile {
                    low: kind.low,
                    high: kind.high,
                    copy,
                }));
            }
        }
        tiles
    }

    /// Number of tiles.
    pub fn len(&self) -> usize {
        self.kinds.iter().map(|k| k.copies as usize).sum()
    }

    /// True if the set has no tile.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The kind of this tile's face, if the set has it.
    fn kind_of(&self, tile: Tile) -> Option<&TileKind> {
        self.kinds
            .iter()
            .find(|k| k.low == tile.low && k.high == tile.high)
    }

    /// True if the set holds exactly this tile id (face and copy suffix).
    pub fn contains(&self, tile: Tile) -> bool {
        match self.kind_of(tile) {
            Some(kind) if kind.copies == 1 => tile.copy == 0,
            Some(kind) => (1..=kind.copies).contains(&tile.copy),
            None => false,
        }
    }

    /// Why `tile` is not a tile of this set, or `None` if it is.
    pub fn why_not(&self, tile: Tile) -> Option<String> {
        let face = format!("{}-{}", tile.low, tile.high);
        match self.kind_of(tile) {
            None => Some(format!("{face} is not a tile of this set")),
            Some(kind) if kind.copies == 1 && tile.copy != 0 => Some(format!(
                "{tile}: this set holds {face} once, write it without a copy suffix"
            )),
            Some(kind) if kind.copies > 1 && tile.copy == 0 => Some(format!(
                "{face}: this set holds {} copies, name one with a suffix (`{face}#1` .. `{face}#{}`)",
                kind.copies, kind.copies
            )),
            Some(kind) if tile.copy > kind.copies => Some(format!(
                "{tile}: this set holds only {} copies of {face}",
                kind.copies
            )),
            Some(_) => None,
        }
    }
}

/// Parses and checks stacked tile deals against a set: every code is a tile id of the set (copy
/// suffix included), no entry names a tile twice, no entry is longer than the set.
pub fn parse_tile_deals(
    deals: &[Vec<String>],
    set: &TileSetSpec,
) -> Result<Vec<Vec<Tile>>, SetupError> {
    deals
        .iter()
        .enumerate()
        .map(|(d, entry)| {
            if entry.len() > set.len() {
                return Err(SetupError::InvalidDeals(format!(
                    "deal {d} lists {} tiles but the set has only {}",
                    entry.len(),
                    set.len()
                )));
            }
            let mut seen: Vec<Tile> = Vec::with_capacity(entry.len());
            entry
                .iter()
                .map(|code| {
                    let tile = Tile::parse(code)
                        .map_err(|e| SetupError::InvalidDeals(format!("deal {d}: {e}")))?;
                    if let Some(why) = set.why_not(tile) {
                        return Err(SetupError::InvalidDeals(format!("deal {d}: {why}")));
                    }
                    if seen.contains(&tile) {
                        return Err(SetupError::InvalidDeals(format!(
                            "deal {d}: {tile} is listed twice"
                        )));
                    }
                    seen.push(tile);
                    Ok(tile)
                })
                .collect()
        })
        .collect()
}

/// The pattern of a tile code, exactly what [`Tile::from_str`] accepts: `a-b` with pips 0 to 6 and
/// the lower end first, optionally a copy suffix `#1` to `#9`.
pub const TILE_CODE_PATTERN: &str =
    "^(0-[0-6]|1-[1-6]|2-[2-6]|3-[3-6]|4-[4-6]|5-[5-6]|6-6)(#[1-9])?$";

impl schemars::JsonSchema for Tile {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Tile".into()
    }
    fn schema_id() -> std::borrow::Cow<'static, str> {
        "engine::tiles::Tile".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "description": "A domino tile code: `a-b` with pips 0 to 6 and the lower end first, like `2-5`; \
        copies of a duplicated tile carry a suffix `#1` to `#9`, like `6-6#1`.",
            "pattern": TILE_CODE_PATTERN,
            "examples": ["2-5", "6-6#1"],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::deal_sequence;
    use crate::rng::GameRng;

    fn codes(list: &str) -> Vec<String> {
        list.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn codes_round_trip_through_text_and_json() {
        for tile in TileSetSpec::chinese()
            .tiles()
            .into_iter()
            .chain(TileSetSpec::double_six().tiles())
        {
            let code = tile.to_string();
            assert_eq!(code.parse::<Tile>().unwrap(), tile);
            let json = serde_json::to_string(&tile).unwrap();
            assert_eq!(json, format!("\"{code}\""));
            assert_eq!(serde_json::from_str::<Tile>(&json).unwrap(), tile);
        }
        let t = Tile::parse("6-6#2").unwrap();
        assert_eq!((t.low(), t.high(), t.copy(), t.pips()), (6, 6, 2, 12));
        assert!(t.is_double() && t.same_face(Tile::parse("6-6#1").unwrap()));
        assert_eq!(t.face().to_string(), "6-6");
        assert_eq!(Tile::new(5, 2, 0).unwrap().to_string(), "2-5");
    }

    #[test]
    fn bad_codes_are_refused_with_a_reason() {
        let cases = [
            ("5-2", "write the lower end first: `2-5`"),
            ("2-7", "more than 6 pips"),
            ("25", "expected `a-b`"),
            ("", "expected `a-b`"),
            ("6-6#", "copy suffix"),
            ("6-6#0", "copy suffix"),
            ("6-6#12", "copy suffix"),
            ("a-b", "expected `a-b`"),
        ];
        for (code, expected) in cases {
            let err = Tile::parse(code).unwrap_err().to_string();
            assert!(err.contains(&format!("`{code}`")), "{err}");
            assert!(err.contains(expected), "{code}: {err}");
        }
    }

    #[test]
    fn face_indices_are_dense() {
        let mut seen = [false; Tile::FACES];
        for tile in TileSetSpec::double_six().tiles() {
            seen[tile.face_index()] = true;
        }
        assert!(seen.iter().all(|s| *s));
        assert_eq!(Tile::parse("0-0").unwrap().face_index(), 0);
        assert_eq!(Tile::parse("6-6").unwrap().face_index(), 27);
    }

    #[test]
    fn chinese_set_has_32_tiles_with_suffixes_on_civil_copies() {
        let set = TileSetSpec::chinese();
        let tiles = set.tiles();
        assert_eq!(tiles.len(), 32);
        assert_eq!(set.len(), 32);
        assert_eq!(tiles.iter().filter(|t| t.copy() > 0).count(), 22);
        let mut ids: Vec<String> = tiles.iter().map(|t| t.to_string()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), 32, "ids are unique");
        assert!(set.contains(Tile::parse("6-6#1").unwrap()));
        assert!(set.contains(Tile::parse("2-5").unwrap()));
        assert!(!set.contains(Tile::parse("6-6").unwrap()));
        assert!(!set.contains(Tile::parse("2-5#1").unwrap()));
        assert!(!set.contains(Tile::parse("0-3").unwrap()));
        assert_eq!(TileSetSpec::double_six().len(), 28);
    }

    #[test]
    fn stacked_tile_deals_are_checked_and_dealt_first() {
        let set = TileSetSpec::chinese();
        let deals = parse_tile_deals(&[codes("6-6#1 1-2 3-4")], &set).unwrap();
        let seq = deal_sequence(&set.tiles(), Some(&deals[0]), &mut GameRng::new(9));
        assert_eq!(&seq[..3], &deals[0][..]);
        let mut sorted = seq.clone();
        sorted.sort();
        let mut all = set.tiles();
        all.sort();
        assert_eq!(sorted, all);

        let cases = [
            (codes("6-6"), "name one with a suffix"),
            (codes("2-5#1"), "write it without a copy suffix"),
            (codes("6-6#3"), "only 2 copies"),
            (codes("0-0"), "0-0 is not a tile of this set"),
            (codes("1-2 1-2"), "1-2 is listed twice"),
            (codes("2-x"), "is not a tile code"),
        ];
        for (entry, expected) in cases {
            let err = parse_tile_deals(&[entry], &set).unwrap_err();
            assert!(err.to_string().contains(expected), "{err}");
            assert_eq!(err.code(), "invalid_deals");
        }
        let too_long = vec!["1-2".to_string(); 33];
        assert!(
            parse_tile_deals(&[too_long], &set)
                .unwrap_err()
                .to_string()
                .contains("33 tiles")
        );
    }
}
