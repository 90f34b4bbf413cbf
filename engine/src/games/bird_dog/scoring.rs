//! Pricing a finished hand (spec §5): pairs, the solo bonus, team tallies, nil.

use super::rules::TeamPairs;
use super::state::HandSummary;
use crate::cards::{CardSet, Rank};
use crate::game::Seat;

/// Points of a made or failed nil (R11).
pub const NIL_POINTS: u32 = 3;

/// pairs(cards) = ⌊#J/2⌋ + ⌊#Q/2⌋ + ⌊#K/2⌋ (§5.1, R10).
pub fn pairs(cards: CardSet) -> u32 {
    [Rank::Jack, Rank::Queen, Rank::King]
        .iter()
        .map(|&r| cards.of_rank(r).len() as u32 / 2)
        .sum()
}

/// The team tally T of two teammates' won cards (§5.2, R6).
pub fn team_tally(a: CardSet, b: CardSet, rule: TeamPairs) -> u32 {
    match rule {
        TeamPairs::IndividualSum => pairs(a) + pairs(b),
        TeamPairs::Pooled => pairs(CardSet(a.0 | b.0)),
    }
}

/// The solo player's points: S, plus 1 if S > T strictly (R8).
pub fn solo_points(solo_pairs: u32, other: u32) -> u32 {
    solo_pairs + u32::from(solo_pairs > other)
}

/// Scores one hand. `won[s]` are the cards seat s won (the dummy's counted for its controller),
/// `tricks[s]` the tricks seat s itself took (never the dummy's).
pub fn score_hand(
    hand: u32,
    won: &[CardSet],
    tricks: &[u32],
    solo: Option<Seat>,
    nil: Option<Seat>,
    rule: TeamPairs,
) -> HandSummary {
    let n = won.len();
    let own: Vec<u32> = won.iter().map(|w| pairs(*w)).collect();
    let mut scores = vec![0; n];
    let kind;
    if let Some(nil) = nil {
        // §5.3: only the nil outcome is scored.
        kind = "nil";
        if tricks.get(nil).copied().unwrap_or(0) == 0 {
            scores[nil] = NIL_POINTS;
        } else {
            for (seat, score) in scores.iter_mut().enumerate() {
                if seat != nil {
                    *score = NIL_POINTS;
                }
            }
        }
    } else if let Some(solo) = solo {
        kind = "solo";
        let others: Vec<Seat> = (0..n).filter(|s| *s != solo).collect();
        let tally = match *others.as_slice() {
            // 3 players: the team's tally (R6, R7).
            [a, b] => team_tally(won[a], won[b], rule),
            // 2 players: the controller's pairs, dummy's cards included.
            [other] => own[other],
            _ => 0,
        };
        let solo_pairs = own[solo];
        scores[solo] = solo_points(solo_pairs, tally);
        for seat in others {
            scores[seat] = tally;
        }
    } else {
        // R9: free-for-all, own pairs, no bonus.
        kind = "free_for_all";
        scores.clone_from(&own);
    }
    HandSummary {
        hand,
        kind: kind.into(),
        solo,
        nil,
        pairs: own,
        scores,
    }
}
