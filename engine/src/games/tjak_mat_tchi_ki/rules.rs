//! Options, presets and the pairings of Tjak-mat-tchi-ki (spec §1, §7).

use crate::options::{OptionSpec, Preset};
use crate::tiles::{Tile, TileSetSpec};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// Which face-up discards may be taken (R4, R13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TakeFrom {
    /// Only the last discard, by the next player (pagat/Culin).
    LastDiscard,
    /// Any unpaired discard of another player lying on the table (the seed's literal wording).
    AnyTableTile,
}

/// Who starts the hand after a hand without a winner (R8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum NoWinnerNext {
    /// The same first player again.
    Same,
    /// The next seat.
    NextSeat,
}

/// The word `"draw"` of the `first_player` option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum DrawWord {
    /// Decide the first player by drawing tiles.
    #[serde(rename = "draw")]
    Draw,
}

/// `first_player`: `"draw"` or a fixed seat (R11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum FirstPlayer {
    /// Draw tiles (§2).
    Draw(DrawWord),
    /// This seat starts the first hand.
    Seat(usize),
}

/// Options of one game. The player count (2, 3 or 4; spec option `players`) is the game's seat
/// count, not an entry of this struct.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// `stake`: chips per loser (c).
    pub stake: i64,
    /// `start_chips`: chips each player starts with.
    pub start_chips: i64,
    /// `hands`: number of hands in the game.
    pub hands: u32,
    /// `take_from`: `"last_discard"` or `"any_table_tile"`.
    pub take_from: TakeFrom,
    /// `no_winner_next`: `"same"` or `"next_seat"`.
    pub no_winner_next: NoWinnerNext,
    /// `first_player`: `"draw"` or a seat.
    pub first_player: FirstPlayer,
}

/// Every option with its default (spec §7; `players` is the seat count).
pub fn option_specs() -> Vec<OptionSpec> {
    vec![
        OptionSpec::integer(
            "stake",
            1,
            1_000_000,
            1,
            "Chips c per loser and hand. Seed.",
        ),
        OptionSpec::integer(
            "start_chips",
            -1_000_000_000,
            1_000_000_000,
            20,
            "Chips each player starts with; balances may go negative (R9).",
        ),
        OptionSpec::integer("hands", 1, 1000, 8, "Number of hands in the game. Seed."),
        OptionSpec::choice(
            "take_from",
            &["last_discard", "any_table_tile"],
            "last_discard",
            "\"last_discard\": only the previous player's discard may be taken; \"any_table_tile\": any unpaired discard of another player (R4, R13).",
        ),
        OptionSpec::choice(
            "no_winner_next",
            &["same", "next_seat"],
            "same",
            "Who starts after a hand without a winner: the same first player or the next seat (R8).",
        ),
        OptionSpec::choice_or_integer(
            "first_player",
            &["draw"],
            0,
            3,
            json!("draw"),
            "\"draw\": the first player of hand 1 is found by drawing tiles; a seat number fixes it (R11).",
        ),
    ]
}

/// The published game ids, the base id first.
pub fn presets() -> Vec<Preset> {
    vec![
        Preset::plain(
            "tjak_mat_tchi_ki",
            "Tjak-mat-tchi-ki",
            "Korean pair-making game with the 32 Chinese domino tiles: draw or take the previous discard when it pairs, lay pairs, discard; first to three pairs wins. 2 to 4 players.",
        ),
        Preset::plain(
            "tjak_mat_tchi_ki_any_tile",
            "Tjak-mat-tchi-ki (any table tile)",
            "Tjak-mat-tchi-ki as the seed words it: any unpaired discard of another player may be taken when it pairs.",
        )
        .fixing(json!({"take_from": "any_table_tile"})),
    ]
}

/// The tile set of the game: the 32 Chinese tiles.
pub fn tile_set() -> TileSetSpec {
    TileSetSpec::chinese()
}

/// The military and supreme pairs (R2), by face.
const MILITARY_PAIRS: [((u8, u8), (u8, u8)); 5] = [
    ((3, 6), (4, 5)),
    ((2, 6), (3, 5)),
    ((2, 5), (3, 4)),
    ((1, 4), (2, 3)),
    ((2, 4), (1, 2)),
];

/// The one partner of a tile of the set (R1, R2): the other copy of a civil tile, the listed
/// military or supreme partner otherwise. `None` for a tile outside the set.
pub fn partner(tile: Tile) -> Option<Tile> {
    // A table by face and copy, built at compile time from the lists below: this runs for every
    // tile of every hand on every turn. Copies above 2 are outside the set.
    let copy = tile.copy() as usize;
    if copy > 2 {
        return None;
    }
    PARTNER_OF
        .get(tile.face_index() * 3 + copy)
        .copied()
        .flatten()
}

/// Per (face index, copy): the partner tile.
const PARTNER_OF: [Option<Tile>; 28 * 3] = partner_of_table();

const fn partner_of_table() -> [Option<Tile>; 28 * 3] {
    let mut table = [None; 28 * 3];
    let mut face = 0;
    while face < PARTNERS.len() {
        let (kind, low, high) = PARTNERS[face];
        match kind {
            CIVIL => {
                table[face * 3 + 1] = Tile::new(low, high, 2);
                table[face * 3 + 2] = Tile::new(low, high, 1);
            }
            MILITARY => table[face * 3] = Tile::new(low, high, 0),
            _ => {}
        }
        face += 1;
    }
    table
}

const NONE: u8 = 0;
const CIVIL: u8 = 1;
const MILITARY: u8 = 2;

/// Per face index (`Tile::face_index`): the kind of face and the partner's face.
const PARTNERS: [(u8, u8, u8); 28] = partner_table();

const fn face_index(low: u8, high: u8) -> usize {
    let (l, h) = (low as usize, high as usize);
    l * 7 - l * (l.saturating_sub(1)) / 2 + (h - l)
}

const fn partner_table() -> [(u8, u8, u8); 28] {
    let mut table = [(NONE, 0, 0); 28];
    let mut i = 0;
    while i < MILITARY_PAIRS.len() {
        let ((a0, a1), (b0, b1)) = MILITARY_PAIRS[i];
        table[face_index(a0, a1)] = (MILITARY, b0, b1);
        table[face_index(b0, b1)] = (MILITARY, a0, a1);
        i += 1;
    }
    // Civil faces last: a civil face is never read as military.
    let mut i = 0;
    while i < TileSetSpec::CHINESE_CIVIL.len() {
        let (low, high) = TileSetSpec::CHINESE_CIVIL[i];
        table[face_index(low, high)] = (CIVIL, low, high);
        i += 1;
    }
    table
}

/// True if the two tiles form a pair.
pub fn is_pair(a: Tile, b: Tile) -> bool {
    partner(a) == Some(b)
}

/// True for the koan-a tile 2-5, which makes its drawer first player.
pub fn is_koan_a(tile: Tile) -> bool {
    tile.low() == 2 && tile.high() == 5
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tile_has_exactly_one_partner_in_the_set() {
        let tiles = tile_set().tiles();
        for &t in &tiles {
            let p = partner(t).unwrap();
            assert_ne!(p, t);
            assert!(tiles.contains(&p), "{t} -> {p}");
            assert_eq!(partner(p), Some(t));
            assert_eq!(tiles.iter().filter(|&&u| is_pair(t, u)).count(), 1);
        }
    }
}
