//! The built-in heuristic bot of Chinese Ten: chooses from a seat's view and legal actions only (never
//! the full state).

use super::action::*;
use super::scoring;
use super::view::*;
use crate::cards::*;

/// The built-in bot's choice: an index into `legal`.
pub fn heuristic(view: &View, legal: &[Action]) -> usize {
    let points = |c: &Card| scoring::card_points(&view.options, view.players, *c);
    let value = |a: &Action| -> i64 {
        match a {
            Action::Play { cards, capture } => {
                let own: i64 = cards.iter().map(points).sum();
                if capture.is_empty() {
                    // Trailing gives the card away: trail the least valuable, and prefer
                    // cards that leave no easy pair for the next player.
                    -2 * own - 1
                } else {
                    own + capture.iter().map(points).sum::<i64>() + 1
                }
            }
            Action::Capture { cards } => cards.iter().map(points).sum(),
        }
    };
    let mut best = 0;
    let mut best_value = i64::MIN;
    for (i, a) in legal.iter().enumerate() {
        let v = value(a);
        if v > best_value {
            best = i;
            best_value = v;
        }
    }
    best
}
