//! The built-in heuristic bot of Tjak-mat-tchi-ki: chooses from a seat's view and legal actions only (never
//! the full state).

use super::action::*;
use super::combination::*;
use super::view::*;
use crate::tiles::Tile;

/// Simple policy: always take a pairing discard; discard first a tile whose partner is already
/// visible on the table (it can never pair, and nobody can use it), else the first tile.
pub fn heuristic(view: &View, legal: &[Action]) -> Option<usize> {
    if let Some(i) = legal.iter().position(|a| matches!(a, Action::Take { .. })) {
        return Some(i);
    }
    if let Some(i) = legal.iter().position(|a| *a == Action::Draw {}) {
        return Some(i);
    }
    let visible: Vec<Tile> = view
        .laid
        .iter()
        .flatten()
        .flatten()
        .copied()
        .chain(view.table.iter().map(|d| d.tile))
        .collect();
    let dead = |t: &Tile| partner(*t).is_some_and(|p| visible.contains(&p));
    legal
        .iter()
        .position(|a| matches!(a, Action::Discard { tiles } if tiles.first().is_some_and(dead)))
        .or(Some(0))
}
