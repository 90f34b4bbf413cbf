//! The built-in heuristic bot of Basra: chooses from a seat's view and legal actions only (never
//! the full state).

use super::action::*;
use super::scoring;
use super::view::*;
use crate::cards::*;

/// The built-in bot's choice: an index into `legal`.
pub fn heuristic(view: &View, legal: &[Action]) -> usize {
    let floor = crate::common::capture::Layout::of(view.floor.clone());
    let worth = |c: Card| scoring::card_points(&view.options, c);
    let value = |a: &Action| -> i64 {
        match a {
            Action::Play { cards } => {
                let Some(&card) = cards.first() else {
                    return i64::MIN;
                };
                let sets = scoring::capture_sets(&view.options, &floor, card);
                sets.iter()
                    .map(|set| {
                        if set.is_empty() {
                            // A trail gives the card away: keep jacks, the 7D and scoring cards.
                            let keep = if card.rank() == Some(crate::cards::Rank::Jack)
                                || scoring::is_special_seven(&view.options, card)
                            {
                                40
                            } else {
                                0
                            };
                            -4 * worth(card) - keep - i64::from(scoring::value(card).unwrap_or(0))
                        } else {
                            let bonus = scoring::bonus(&view.options, card, &view.floor, *set);
                            let pts: i64 = set.iter().map(worth).sum::<i64>() + worth(card);
                            10 * (set.len() as i64 + 1) + 4 * pts + 4 * bonus
                        }
                    })
                    .max()
                    .unwrap_or(0)
            }
            Action::Capture { cards } => cards.iter().map(|c| 1 + worth(*c)).sum(),
            Action::Pass {} => 0,
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
