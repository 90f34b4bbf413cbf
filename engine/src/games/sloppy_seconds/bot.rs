//! The built-in heuristic bot of Sloppy Seconds: chooses from a seat's view and legal actions only (never
//! the full state).

use super::action::*;
use super::view::*;
use super::{rules, scoring, state};
use crate::cards::*;
use crate::common::trick::{plain_strength, winner_by_strength};
use crate::game::Seat;

/// The built-in bot's choice: an index into `legal`.
pub fn heuristic(view: &View, legal: &[Action]) -> usize {
    let Some(me) = view.seat else { return 0 };
    let mut best = (i64::MIN, 0usize);
    for (index, action) in legal.iter().enumerate() {
        let Action::Play { cards } = action;
        let Some(&card) = cards.first() else { continue };
        let value = (evaluate(view, me, card) * 1000.0).round() as i64;
        // Ties: the lower card (keep strength for later).
        let tie = -(card.rank().map_or(0, |r| i64::from(r.value())));
        let key = value * 100 + tie;
        if key > best.0 {
            best = (key, index);
        }
    }
    best.1
}

/// Samples per evaluation of the rest of the hand (common random numbers across the actions).
const SAMPLES: usize = 64;

/// The expected hand-score margin (own hand score minus the others' mean) of playing `card`, from
/// the seat's view only. The trick in progress goes to its current winner unless a later player
/// beats it (estimated from the unseen cards of the winning suit), else to one of the later
/// players; every card not yet captured (unseen or in this hand) is then given to a uniformly
/// random player, as random-ish play spreads them, and the second-place scoring is applied.
fn evaluate(view: &View, me: Seat, card: Card) -> f64 {
    let n = view.players.max(1);
    let mut plays = view.trick.clone();
    plays.push((me, card));
    let led = plays
        .first()
        .and_then(|(_, c)| c.suit())
        .unwrap_or(crate::cards::Suit::Spades);
    let mut trump = view.trump;
    if let (Some(suit), None) = (card.suit(), trump)
        && plays.len() > 1
        && suit != led
        && view.first_broken.is_some_and(|f| f != suit)
    {
        trump = Some(suit);
    }
    let index = winner_by_strength(&plays, |_, c| plain_strength(c, led, trump));
    let (winner, winning) = plays.get(index).copied().unwrap_or((me, card));

    // Cards not yet captured: everything outside completed tricks and the trick in progress.
    let mut captured = CardSet::EMPTY;
    for trick in &view.tricks {
        for (_, c) in &trick.plays {
            captured.insert(*c);
        }
    }
    for (_, c) in &plays {
        captured.insert(*c);
    }
    let loose: Vec<Card> = state::pack(n)
        .into_iter()
        .filter(|c| !captured.contains(*c))
        .collect();
    let unseen: Vec<Card> = loose
        .iter()
        .copied()
        .filter(|c| !view.hand.contains(*c))
        .collect();

    // Chance that each later player beats the current winner.
    let later: Vec<Seat> = (1..=n - plays.len().min(n))
        .map(|k| (plays[0].0 + plays.len() - 1 + k) % n)
        .collect();
    let beats = |c: &Card| plain_strength(*c, led, trump) > plain_strength(winning, led, trump);
    let win_suit = winning.suit();
    let same: Vec<&Card> = unseen.iter().filter(|c| c.suit() == win_suit).collect();
    let p_beat = if same.is_empty() {
        0.0
    } else {
        same.iter().filter(|c| beats(c)).count() as f64 / same.len() as f64
    };
    let hold = (1.0 - p_beat).powi(later.len() as i32);
    let mut outcomes = vec![(winner, hold)];
    for seat in &later {
        outcomes.push((*seat, (1.0 - hold) / later.len() as f64));
    }

    let mut base = view.points.clone();
    base.resize(n, [0; 4]);
    let mut trick_points = [0u32; 4];
    for (_, c) in &plays {
        if let Some(suit) = c.suit() {
            trick_points[suit.index()] += scoring::card_points(*c);
        }
    }
    let mut total = 0.0;
    let mut rng: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..SAMPLES {
        let mut sample = base.clone();
        // One draw per card of the pack, so the samples line up across the actions.
        for c in state::pack(n) {
            rng = rng
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            if captured.contains(c) {
                continue;
            }
            let to = ((rng >> 33) % n as u64) as usize;
            if let Some(suit) = c.suit() {
                sample[to][suit.index()] += scoring::card_points(c);
            }
        }
        for (seat, weight) in &outcomes {
            if *weight <= 0.0 {
                continue;
            }
            let mut points = sample.clone();
            for suit in 0..4 {
                points[*seat][suit] += trick_points[suit];
            }
            let scores = scoring::hand_scores(&points, rules::MinimumRule::HandFloor);
            let mine = f64::from(scores[me]);
            let others = scores.iter().map(|s| f64::from(*s)).sum::<f64>() - mine;
            total += weight * (mine - others / (n - 1).max(1) as f64);
        }
    }
    total / SAMPLES as f64
}
