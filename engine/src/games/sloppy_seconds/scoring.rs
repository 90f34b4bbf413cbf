//! Card points and the second-place hand score (spec §5.1, rulings R1, R6, R7).

use super::rules::{MinimumRule, TieRule};
use crate::cards::{Card, CardSet, Rank, Suit};

/// Card points (R1): A = 1, 2..10 face value, J = 11, Q = 12, K = 13.
pub fn card_points(card: Card) -> u32 {
    match card.rank() {
        Some(Rank::Ace) => 1,
        Some(rank) => u32::from(rank.value()),
        None => 0,
    }
}

/// The points of each suit (S, H, D, C) in a set of cards.
pub fn suit_points(cards: CardSet) -> [u32; 4] {
    let mut points = [0; 4];
    for card in cards.iter() {
        if let Some(suit) = card.suit() {
            points[suit.index()] += card_points(card);
        }
    }
    points
}

/// What each player scores for one suit (R7): the players with the second-highest distinct value
/// score that value; first place and everything below second score nothing; if all are equal
/// nobody scores.
pub fn second_place(values: &[u32]) -> Vec<u32> {
    let first = values.iter().copied().max().unwrap_or(0);
    let second = values.iter().copied().filter(|v| *v < first).max();
    values
        .iter()
        .map(|v| match second {
            Some(s) if *v == s => s,
            _ => 0,
        })
        .collect()
}

/// One hand's scores for every player from the per-suit captured points, with the minimum rule
/// applied once per hand to the hand total (R6).
pub fn hand_scores(points: &[[u32; 4]], rule: MinimumRule) -> Vec<u32> {
    let mut scores = vec![0u32; points.len()];
    for suit in Suit::ALL {
        let values: Vec<u32> = points.iter().map(|p| p[suit.index()]).collect();
        for (score, add) in scores.iter_mut().zip(second_place(&values)) {
            *score += add;
        }
    }
    for (score, captured) in scores.iter_mut().zip(points) {
        match rule {
            MinimumRule::HandFloor => *score = (*score).max(5),
            MinimumRule::LowCapture => {
                if captured.iter().sum::<u32>() <= 4 {
                    *score = 5;
                }
            }
        }
    }
    scores
}

/// True if the game ends with these totals after a hand (R8, R9): someone reached `target` and,
/// under `play_on`, one player alone has the highest total.
pub fn game_over(totals: &[i64], target: i64, tie_rule: TieRule) -> bool {
    let best = totals.iter().copied().max().unwrap_or(0);
    let leaders = totals.iter().filter(|t| **t == best).count();
    best >= target && (leaders == 1 || tie_rule == TieRule::Shared)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_place_cases() {
        assert_eq!(second_place(&[34, 34, 23, 0]), [0, 0, 23, 0]);
        assert_eq!(second_place(&[89, 0, 0]), [0, 0, 0]);
        assert_eq!(second_place(&[50, 20, 20, 1]), [0, 20, 20, 0]);
        assert_eq!(second_place(&[7, 7, 7]), [0, 0, 0]);
    }
}
