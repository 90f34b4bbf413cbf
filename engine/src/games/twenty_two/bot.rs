//! The built-in heuristic bot of 22: plays from a seat's view only.

use super::action::{Action, rank_of};
use super::view::View;
use crate::cards::Card;

/// The built-in bot: get rid of high cards, keep low ones (the last card decides).
/// Exchange: discard tens and higher, highest first. Leads: the highest card (all copies of it the
/// rule allows). Follows: the play with the highest ranks. Buy-back: accept.
pub fn heuristic(view: &View, legal: &[Action]) -> usize {
    let rank = |c: &Card| rank_of(c.index()) as u32;
    let mut best = (0usize, 0u64);
    let leading = view.target.is_none();
    for (i, action) in legal.iter().enumerate() {
        let score: u64 = match action {
            Action::Accept {} => 2,
            Action::Fold {} => 1,
            Action::Draw {} => 100,
            Action::Discard { card } if rank(card) >= 8 => 200 + rank(card) as u64,
            Action::Discard { .. } => 0,
            Action::Play { cards } => {
                let list = cards.as_slice();
                let top = list.iter().map(rank).max().unwrap_or(0) as u64;
                let sum: u64 = list.iter().map(|c| rank(c) as u64).sum();
                if leading {
                    top * 100 + list.len() as u64
                } else {
                    sum * 100 + top
                }
            }
        };
        if i == 0 || score > best.1 {
            best = (i, score);
        }
    }
    best.0
}
