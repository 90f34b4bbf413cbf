//! The built-in heuristic bot of Trump Crew: chooses from a seat's view and legal actions only (never
//! the full state).

use super::action::*;
use super::state::*;
use super::view::*;
use crate::cards::*;
use crate::game::Seat;

/// Rough expected tricks of a hand (a simple trick count, not a simulation).
fn estimate(hand: &[Card], trump: Option<Suit>, players: usize) -> f64 {
    let crowd = (4.0 / players.max(2) as f64).min(1.0);
    hand.iter()
        .map(|card| match (card.rank(), card.suit()) {
            (None, _) | (_, None) => 1.0,
            (Some(rank), Some(suit)) if Some(suit) == trump => match rank {
                Rank::Ace => 0.95,
                Rank::King => 0.8,
                Rank::Queen => 0.6,
                Rank::Jack => 0.45,
                _ => 0.3 * crowd + 0.05,
            },
            (Some(Rank::Ace), _) => 0.75 * crowd,
            (Some(Rank::King), _) => 0.35 * crowd,
            _ => 0.0,
        })
        .sum()
}

fn index_of(legal: &[Action], wanted: &Action) -> usize {
    legal.iter().position(|a| a == wanted).unwrap_or(0)
}

/// The heuristic policy: bid a trick estimate, then try to win exactly the bid.
pub fn heuristic(view: &View, legal: &[Action]) -> usize {
    let hand = view.hand.clone().unwrap_or_default();
    let Some(me) = view.seat else { return 0 };
    match legal.first() {
        Some(Action::Declare { .. }) => {
            let share = f64::from(view.stage) / view.players.max(1) as f64;
            let ratio = estimate(&hand, view.trump, view.players) / share.max(0.01);
            let word = if ratio > 1.3 {
                Strength::Strong
            } else if ratio < 0.7 {
                Strength::Weak
            } else {
                Strength::Medium
            };
            index_of(legal, &Action::Declare { strength: word })
        }
        Some(Action::Bid { .. }) => {
            let est = estimate(&hand, view.trump, view.players).round() as u32;
            let tricks = est.min(view.chips_left);
            index_of(legal, &Action::Bid { tricks })
        }
        Some(Action::Play { .. }) => play(view, me, legal),
        None => 0,
    }
}

fn card_of(action: &Action) -> Option<Card> {
    match action {
        Action::Play { cards, .. } => cards.first().copied(),
        _ => None,
    }
}

/// A legal card: its index in `legal`, the card, its strength in the trick.
type Candidate = (usize, Card, Option<(u8, u8)>);

fn play(view: &View, me: Seat, legal: &[Action]) -> usize {
    let bid = view.bids.get(me).copied().flatten().unwrap_or(0);
    let won = view.tricks_won.get(me).copied().unwrap_or(0);
    let want_win = won < bid;
    let trump = view.trump;
    let rank = |c: Card| c.rank().map_or(15, |r| r.value());
    if view.trick.is_empty() {
        // Leading.
        let hand: CardSet = legal.iter().filter_map(card_of).collect();
        if want_win {
            if hand.contains(Card::JOKER) {
                return index_of(legal, &Action::joker_lead(None));
            }
            let best = hand.iter().max_by_key(|c| {
                let is_trump = c.suit() == trump && trump.is_some();
                (is_trump && rank(*c) >= 13, rank(*c), is_trump)
            });
            return best.map_or(0, |c| index_of(legal, &Action::play(c)));
        }
        let low = hand
            .iter()
            .filter(|c| !c.is_joker())
            .min_by_key(|c| (trump.is_some() && c.suit() == trump, rank(*c)));
        return low.map_or(0, |c| index_of(legal, &Action::play(c)));
    }
    // Following: what would each card do to the trick as it stands?
    let led = view.led_suit;
    let best_so_far = view
        .trick
        .iter()
        .filter_map(|p| strength(p.card, led, trump))
        .max();
    let last = view.trick.len() + 1 == view.players;
    let mut options: Vec<Candidate> = legal
        .iter()
        .enumerate()
        .filter_map(|(i, a)| card_of(a).map(|c| (i, c, strength(c, led, trump))))
        .collect();
    let beats = |s: Option<(u8, u8)>| s.is_some() && s > best_so_far;
    if want_win {
        let winners: Vec<_> = options.iter().filter(|o| beats(o.2)).copied().collect();
        let plain: Vec<_> = winners
            .iter()
            .filter(|o| !o.1.is_joker())
            .copied()
            .collect();
        let pick = if last {
            plain.iter().min_by_key(|o| o.2).or(winners.first())
        } else {
            // Not last: only a strong winner is worth it; the joker is sure.
            plain
                .iter()
                .filter(|o| o.2.is_some_and(|(_, r)| r >= 12))
                .max_by_key(|o| o.2)
                .or(winners.iter().find(|o| o.1.is_joker()))
                .or(plain.iter().max_by_key(|o| o.2))
        };
        if let Some(o) = pick {
            return o.0;
        }
        // Cannot win: throw the lowest card.
        options.sort_by_key(|o| (o.1.is_joker(), o.2.is_some(), rank(o.1)));
        return options.first().map_or(0, |o| o.0);
    }
    // Trying to lose: the highest card that does not win now, never the joker.
    let losers = options
        .iter()
        .filter(|o| !beats(o.2) && !o.1.is_joker())
        .max_by_key(|o| (o.2, rank(o.1)));
    if let Some(o) = losers {
        return o.0;
    }
    options
        .iter()
        .filter(|o| !o.1.is_joker())
        .min_by_key(|o| o.2)
        .or(options.first())
        .map_or(0, |o| o.0)
}
