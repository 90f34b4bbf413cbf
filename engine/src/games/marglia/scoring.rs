//! Card order, card points and deal scoring of Marglia and Maniglia (spec §1, §4, §5, Part II).

use super::rules::TrickBonus;
use crate::cards::{Card, Rank};

/// The ranks of the 40-card pack (no 8, 9, 10).
pub const RANKS: [Rank; 10] = [
    Rank::Two,
    Rank::Three,
    Rank::Four,
    Rank::Five,
    Rank::Six,
    Rank::Seven,
    Rank::Jack,
    Rank::Queen,
    Rank::King,
    Rank::Ace,
];

/// Strength inside a suit: 7 > A > K > J > Q > 6 > 5 > 4 > 3 > 2 (the Jack above the Queen).
pub fn strength(card: Card) -> u8 {
    match card.rank() {
        Some(Rank::Seven) => 10,
        Some(Rank::Ace) => 9,
        Some(Rank::King) => 8,
        Some(Rank::Jack) => 7,
        Some(Rank::Queen) => 6,
        Some(rank) => rank.value().saturating_sub(1),
        None => 0,
    }
}

/// Card points (R1): 7 = 5, A = 4, K = 3, J = 2, Q = 1, frilli 0.
pub fn points(card: Card) -> i64 {
    match card.rank() {
        Some(Rank::Seven) => 5,
        Some(Rank::Ace) => 4,
        Some(Rank::King) => 3,
        Some(Rank::Jack) => 2,
        Some(Rank::Queen) => 1,
        _ => 0,
    }
}

/// True for a frillo (2-6).
pub fn is_frillo(card: Card) -> bool {
    card.rank().is_some_and(|r| r <= Rank::Six)
}

/// The value of one won trick: its card points plus the trick bonus (R2).
pub fn trick_value(cards: impl IntoIterator<Item = Card> + Clone, bonus: TrickBonus) -> i64 {
    let card_points: i64 = cards.clone().into_iter().map(points).sum();
    let extra = match bonus {
        TrickBonus::Frillo => i64::from(cards.into_iter().any(is_frillo)),
        TrickBonus::EveryTrick => 1,
        TrickBonus::None => 0,
    };
    card_points + extra
}

/// Marglia's deal score of a side (§5): only the part above the threshold.
pub fn deal_score(raw: i64, threshold: i64) -> i64 {
    (raw - threshold).max(0)
}

/// Maniglia's contract score of the bidder's side (Part II, proposed): made, it scores
/// raw − threshold; failed, it loses bid − threshold.
pub fn contract_score(raw: i64, bid: i64, threshold: i64) -> i64 {
    if raw >= bid {
        raw - threshold
    } else {
        -(bid - threshold)
    }
}
