//! The tiles and their pairings in Tjak-mat-tchi-ki (spec §1): the tile set, each tile's partner,
//! the tiles' ranks and tile masks.

use crate::tiles::{Tile, TileSetSpec};

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

/// Number of tiles in the set.
pub const SET_SIZE: usize = 32;

/// The tiles of the set in `Tile` order (low, high, copy): tile `r` is bit `r` of a [`TileMask`].
pub const TILE_OF_RANK: [Tile; SET_SIZE] = rank_table().0;

/// A set of tiles of the set, one bit per rank: hands and their partners are a few bit
/// operations instead of list scans (the turn loop asks "does this discard pair?" per discard).
pub type TileMask = u32;

/// Per `(low * 7 + high) * 10 + copy` (every tile `Tile::new` can make): the tile's rank, or
/// `NO_RANK` outside the set.
const RANK_OF: [u8; 7 * 7 * 10] = rank_table().1;

/// Per rank: the bit of the partner's rank (R1, R2).
const PARTNER_BIT: [TileMask; SET_SIZE] = rank_table().2;

const NO_RANK: u8 = u8::MAX;

const fn tile(low: u8, high: u8, copy: u8) -> Tile {
    match Tile::new(low, high, copy) {
        Some(t) => t,
        // Compile-time only: the table below builds valid tiles.
        None => panic!("invalid tile"),
    }
}

const fn rank_slot(t: Tile) -> usize {
    (t.low() as usize * 7 + t.high() as usize) * 10 + t.copy() as usize
}

const fn rank_table() -> ([Tile; SET_SIZE], [u8; 7 * 7 * 10], [TileMask; SET_SIZE]) {
    let mut tiles = [tile(0, 0, 0); SET_SIZE];
    let mut ranks = [NO_RANK; 7 * 7 * 10];
    let mut n = 0;
    let mut low = 0;
    while low <= 6 {
        let mut high = low;
        while high <= 6 {
            let (kind, _, _) = PARTNERS[face_index(low, high)];
            let copies: &[u8] = match kind {
                CIVIL => &[1, 2],
                MILITARY => &[0],
                _ => &[],
            };
            let mut c = 0;
            while c < copies.len() {
                let t = tile(low, high, copies[c]);
                tiles[n] = t;
                ranks[rank_slot(t)] = n as u8;
                n += 1;
                c += 1;
            }
            high += 1;
        }
        low += 1;
    }
    assert!(n == SET_SIZE, "the Chinese set has 32 tiles");
    let mut partner_bits = [0; SET_SIZE];
    let mut r = 0;
    while r < SET_SIZE {
        let t = tiles[r];
        let p = match PARTNER_OF[t.face_index() * 3 + t.copy() as usize] {
            Some(p) => p,
            None => panic!("every tile of the set has a partner"),
        };
        partner_bits[r] = 1 << ranks[rank_slot(p)];
        r += 1;
    }
    (tiles, ranks, partner_bits)
}

/// The rank of a tile of the set (its index in [`TILE_OF_RANK`]); `None` outside it.
#[inline]
pub fn rank(tile: Tile) -> Option<usize> {
    match RANK_OF.get(rank_slot(tile)) {
        Some(&r) if r != NO_RANK => Some(r as usize),
        _ => None,
    }
}

/// The bit of a tile of the set; 0 for a tile outside it.
#[inline]
pub fn bit(tile: Tile) -> TileMask {
    BIT_OF.get(rank_slot(tile)).copied().unwrap_or(0)
}

/// [`RANK_OF`] as bits (0 outside the set): one load per tile in the discard scans.
const BIT_OF: [TileMask; 7 * 7 * 10] = {
    let mut bits = [0; 7 * 7 * 10];
    let mut i = 0;
    while i < bits.len() {
        if RANK_OF[i] != NO_RANK {
            bits[i] = 1 << RANK_OF[i];
        }
        i += 1;
    }
    bits
};

/// The bits of the tiles of a list (tiles outside the set left out).
#[inline]
pub fn mask(tiles: &[Tile]) -> TileMask {
    tiles.iter().fold(0, |m, &t| m | bit(t))
}

/// The partners of every tile in `m` (R1, R2; partners are mutual, so a tile pairs with one in
/// `m` exactly when its bit is in `partners(m)`).
#[inline]
pub fn partners(mut m: TileMask) -> TileMask {
    let mut out = 0;
    while m != 0 {
        out |= PARTNER_BIT[m.trailing_zeros() as usize];
        m &= m - 1;
    }
    out
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

    #[test]
    fn ranks_follow_tile_order_and_partners() {
        let mut tiles = tile_set().tiles();
        tiles.sort();
        assert_eq!(tiles, TILE_OF_RANK.to_vec());
        for (r, &t) in TILE_OF_RANK.iter().enumerate() {
            assert_eq!(bit(t), 1 << r);
            assert_eq!(partners(bit(t)), partner(t).map_or(0, bit));
        }
        assert_eq!(bit(Tile::new(6, 6, 0).unwrap()), 0);
        assert_eq!(bit(Tile::new(3, 6, 1).unwrap()), 0);
        assert_eq!(bit(Tile::new(0, 0, 9).unwrap()), 0);
    }
}
