//! The built-in heuristic bot of Watten: plays from a seat's view only.

use super::action::*;
use super::rules::*;
use super::scoring::Roles;
use super::view::*;
use crate::cards::{Card, Rank, Suit};
use crate::game::Seat;

fn side_of(view: &View, seat: Seat) -> Option<usize> {
    view.sides.iter().position(|s| s.contains(&seat))
}

fn roles_of(view: &View) -> Option<Roles> {
    let t = view.trump?;
    if view.options.variant == Variant::Bohemian {
        return Some(Roles::new(&view.options, None, t));
    }
    Some(Roles::new(&view.options, Some(view.schlag?), t))
}

/// Strength of a card for choosing, from what the viewer knows.
fn strength(roles: &Option<Roles>, c: Card, led: Option<Card>) -> (u8, u8) {
    let rank = c.rank().map_or(0, Rank::value);
    match (roles, led) {
        (Some(r), Some(led)) => r.key(c, led, false).unwrap_or((0, rank / 4)),
        (Some(r), None) => r.key(c, c, true).unwrap_or((0, rank)),
        (None, _) => (1, rank),
    }
}

/// A simple policy (see the rules tests for its margin over random play).
/// The built-in bot's choice among `legal`, from the seat's view only.
pub fn heuristic(view: &View, legal: &[Action]) -> usize {
    let hand: Vec<Card> = view.hand.clone().unwrap_or_default();
    let roles = roles_of(view);
    let pos = |pred: &dyn Fn(&Action) -> bool| legal.iter().position(pred);
    // Proposals: decline; raises pending: accept if we hold something.
    if let Some(i) = pos(&|a| *a == Action::Decline {}) {
        return i;
    }
    if legal.contains(&Action::Fold {}) {
        let strong = hand
            .iter()
            .filter(|c| strength(&roles, **c, None).0 >= 2)
            .count();
        let me = view.seat.and_then(|s| side_of(view, s)).unwrap_or(0);
        let mine = view.won.get(me).copied().unwrap_or(0);
        let theirs = view.won.iter().copied().max().unwrap_or(0);
        let want = strong >= 1 || mine >= theirs;
        let target = if want {
            Action::Accept {}
        } else {
            Action::Fold {}
        };
        return pos(&|a| *a == target).unwrap_or(0);
    }
    // Naming.
    let best_by = |score: &dyn Fn(&Action) -> i32| {
        legal
            .iter()
            .enumerate()
            .max_by_key(|(i, a)| (score(a), -(*i as i32)))
            .map_or(0, |(i, _)| i)
    };
    if legal.iter().any(|a| matches!(a, Action::Declare { .. })) {
        let rank_count = |r: Rank| hand.iter().filter(|c| c.rank() == Some(r)).count() as i32;
        let suit_count = |s: Suit| hand.iter().filter(|c| c.suit() == Some(s)).count() as i32;
        let is_e = view.seat == Some(view.eldest);
        return best_by(&|a| match a {
            Action::Declare {
                schlag: Some(r), ..
            } => rank_count(*r) * 20 + r.value() as i32,
            Action::Declare { trump: Some(s), .. } => {
                let with_schlag = view
                    .schlag
                    .is_some_and(|r| hand.contains(&Card::new(r, *s)));
                suit_count(*s) * 10 + i32::from(with_schlag) * 15
            }
            Action::Declare { card: Some(c), .. } => {
                if is_e {
                    c.rank().map_or(0, rank_count) * 20 + c.rank().map_or(0, |r| r.value() as i32)
                } else {
                    c.suit().map_or(0, suit_count) * 20 + c.rank().map_or(0, |r| r.value() as i32)
                }
            }
            _ => i32::MIN,
        });
    }
    // Bohemian exchange: lay away the weakest plain low card.
    if legal.contains(&Action::Draw {}) {
        let weakest = legal
            .iter()
            .enumerate()
            .filter_map(|(i, a)| match a {
                Action::Discard { card } => Some((strength(&roles, *card, None), i)),
                _ => None,
            })
            .min();
        return match weakest {
            Some(((tier, rank), i)) if tier < 2 && rank < Rank::Queen.value() => i,
            _ => pos(&|a| *a == Action::Draw {}).unwrap_or(0),
        };
    }
    // Play: lead the strongest; follow with the cheapest winner, or the cheapest card.
    let plays: Vec<(usize, Card)> = legal
        .iter()
        .enumerate()
        .filter_map(|(i, a)| match a {
            Action::Play { cards } => cards.first().map(|c| (i, *c)),
            _ => None,
        })
        .collect();
    if plays.is_empty() {
        return 0;
    }
    let current = &view.current.plays;
    let Some(&(_, led)) = current.first() else {
        return plays
            .iter()
            .max_by_key(|(_, c)| strength(&roles, *c, None))
            .map_or(0, |(i, _)| *i);
    };
    let (winner_seat, best) = match &roles {
        Some(r) => {
            let w = r.winner(current);
            let best = current
                .get(w)
                .and_then(|(_, c)| r.key(*c, led, w == 0))
                .unwrap_or((0, 0));
            (current.get(w).map(|(s, _)| *s), best)
        }
        None => (None, (1, led.rank().map_or(0, Rank::value))),
    };
    let me = view.seat.and_then(|s| side_of(view, s));
    let partner_winning = me.is_some()
        && winner_seat.and_then(|w| side_of(view, w)) == me
        && view.options.variant != Variant::Bohemian;
    let cheapest = |cands: &mut dyn Iterator<Item = &(usize, Card)>| {
        cands
            .min_by_key(|(_, c)| strength(&roles, *c, Some(led)))
            .map(|(i, _)| *i)
    };
    if !partner_winning {
        let mut beating = plays
            .iter()
            .filter(|(_, c)| strength(&roles, *c, Some(led)) > best);
        if let Some(i) = cheapest(&mut beating) {
            return i;
        }
    }
    cheapest(&mut plays.iter()).unwrap_or(0)
}
