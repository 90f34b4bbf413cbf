//! The built-in heuristic bot of Taihe A Bao: chooses from a seat's view and legal actions only (never
//! the full state).

use super::action::*;
use super::combination::*;
use super::state::*;
use super::view::*;
use crate::cards::*;

/// Hand strength for bidding: bombs, Aces, Kings.
fn strength(hand: &[Card]) -> f64 {
    let counts = rank_counts(CardSet::from_cards(hand.iter().copied()));
    let bombs = counts.iter().filter(|&&c| c >= 3).count() as f64;
    3.0 * bombs + f64::from(counts[9]) + 0.5 * f64::from(counts[8])
}

fn position(legal: &[Action], wanted: &Action) -> Option<usize> {
    legal.iter().position(|a| a == wanted)
}

/// Simple policy: bid on strong hands, call towards a bomb, give a lone low card, lead the lowest
/// rank in its longest combination, follow as cheaply as possible, never beat a partner, bomb only
/// against a player close to going out.
pub fn heuristic(view: &View, legal: &[Action]) -> Option<usize> {
    let me = view.seat?;
    let hand = view.hand.as_ref()?;
    let counts = rank_counts(CardSet::from_cards(hand.iter().copied()));
    let count_of = |card: &Card| rank_index(*card).map_or(0, |r| counts[r]);
    let rank_of = |card: &Card| rank_index(*card).unwrap_or(0);
    match view.phase {
        Phase::Bid1 => {
            let wanted = if strength(hand) >= 4.0 {
                Action::Declare {}
            } else {
                Action::Pass {}
            };
            position(legal, &wanted)
        }
        Phase::Bid2 => {
            if strength(hand) >= 3.0 || !legal.contains(&Action::Pass {}) {
                legal
                    .iter()
                    .enumerate()
                    .filter_map(|(i, a)| match a {
                        Action::Call { cards } => cards.first().map(|c| (i, c)),
                        _ => None,
                    })
                    .max_by_key(|(_, c)| (count_of(c), rank_of(c)))
                    .map(|(i, _)| i)
            } else {
                position(legal, &Action::Pass {})
            }
        }
        Phase::Exchange => legal
            .iter()
            .enumerate()
            .filter_map(|(i, a)| match a {
                Action::Exchange { cards } => cards.first().map(|c| (i, c)),
                _ => None,
            })
            .min_by_key(|(_, c)| (count_of(c), rank_of(c)))
            .map(|(i, _)| i),
        Phase::Play => {
            let plays: Vec<(usize, &CardList, Kind, usize, usize)> = legal
                .iter()
                .enumerate()
                .filter_map(|(i, a)| match a {
                    Action::Play { cards } => {
                        let c = rank_counts(CardSet::from_cards(cards.iter().copied()));
                        let combo = classify(&c, None)?;
                        let low = (0..10).find(|&r| c[r] > 0)?;
                        Some((i, cards, combo.kind, combo.top, low))
                    }
                    _ => None,
                })
                .collect();
            if let Some(out) = plays.iter().find(|p| p.1.len() == hand.len()) {
                return Some(out.0);
            }
            let bomb = |k: Kind| matches!(k, Kind::Triple | Kind::Quad);
            let pass = position(legal, &Action::Pass {});
            let Some(top) = &view.top else {
                // Leading: the lowest rank, in its longest non-bomb combination.
                return plays
                    .iter()
                    .filter(|p| !bomb(p.2))
                    .min_by_key(|p| (p.4, std::cmp::Reverse(p.1.len())))
                    .or_else(|| plays.iter().min_by_key(|p| p.3))
                    .map(|p| p.0);
            };
            let partner_on_top = view.declarer.is_some_and(|d| d != me && top.seat != d);
            if partner_on_top {
                return pass;
            }
            if let Some(cheap) = plays.iter().filter(|p| !bomb(p.2)).min_by_key(|p| p.3) {
                return Some(cheap.0);
            }
            let danger = view.hand_sizes.get(top.seat).copied().unwrap_or(0) <= 4;
            if (danger || view.declarer == Some(me))
                && let Some(b) = plays.iter().min_by_key(|p| (p.1.len(), p.3))
            {
                return Some(b.0);
            }
            pass
        }
        Phase::Over => None,
    }
}
