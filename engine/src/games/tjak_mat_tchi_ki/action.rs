//! The actions of Tjak-mat-tchi-ki (spec §3): `{"type":"take","tiles":["3-5"]}`,
//! `{"type":"draw"}`, `{"type":"discard","tiles":["3-6"]}`.

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
