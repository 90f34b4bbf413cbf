//! The actions of Tjak-mat-tchi-ki (spec §3): `{"type":"take","tiles":["3-5"]}`,
//! `{"type":"draw"}`, `{"type":"discard","tiles":["3-6"]}`.

use super::state::HandRecord;
use crate::game::Seat;
use crate::tiles::Tile;
use crate::tiles::TileList;
use serde::{Deserialize, Serialize};

/// Everything a seat can do. Serialized as `{"type": ...}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Take a face-up discard that pairs with a tile in hand (a one-tile list).
    Take {
        /// The taken tile.
        tiles: TileList,
    },
    /// Draw the top tile of the reserve.
    Draw {},
    /// Discard a tile face up (a one-tile list).
    Discard {
        /// The discarded tile.
        tiles: TileList,
    },
}

/// Public events.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A hand was dealt.
    Deal {
        /// Hand number, from 1.
        hand: u32,
        /// First player.
        first_player: Seat,
    },
    /// A pair laid face up.
    Lay {
        /// Who.
        seat: Seat,
        /// The two tiles.
        tiles: [Tile; 2],
    },
    /// A discard taken.
    Take {
        /// Who.
        seat: Seat,
        /// The tile (one).
        tiles: TileList,
        /// Its discarder.
        from: Seat,
    },
    /// A tile drawn from the reserve (not named).
    Draw {
        /// Who.
        seat: Seat,
    },
    /// A discard.
    Discard {
        /// Who.
        seat: Seat,
        /// The tile (one).
        tiles: TileList,
    },
    /// A hand ended.
    HandEnd {
        /// The record.
        record: Box<HandRecord>,
    },
    /// The game is over.
    GameOver {
        /// Final chips.
        chips: Vec<i64>,
    },
}
