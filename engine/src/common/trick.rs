//! Trick-taking building blocks: who must follow suit with what, and who wins a trick.
//!
//! Games pass their own card strength in (trump, Rechter, Guate, joker powers...), so the shared
//! part stays the same for every family.

use crate::cards::{Card, CardSet, Suit};
use crate::game::Seat;

/// A finished trick's plays in order, the lead first, inline (up to four seats): a finished
/// trick allocates nothing, and the list of the trick in progress keeps its room from one trick
/// to the next. Serialized as a list, like a `Vec`.
pub type TrickPlays = smallvec::SmallVec<[(Seat, Card); 4]>;

/// The cards of `hand` that may be played when `led` was led and suit must be followed:
/// the cards of that suit, or the whole hand when it has none.
pub fn follow_suit(hand: CardSet, led: Suit) -> CardSet {
    let same = hand.of_suit(led);
    if same.is_empty() { hand } else { same }
}

/// The index (into `plays`) of the winning play: the highest `strength`, the earliest play on a
/// tie. `strength` returns `None` for a card that cannot win (off-suit, not trump). The lead always
/// has a strength, so there is always a winner.
pub fn winner_by_strength<K: Ord>(
    plays: &[(Seat, Card)],
    strength: impl Fn(usize, Card) -> Option<K>,
) -> usize {
    let mut best: Option<(usize, K)> = None;
    for (i, (_, card)) in plays.iter().enumerate() {
        if let Some(k) = strength(i, *card) {
            match &best {
                Some((_, b)) if *b >= k => {}
                _ => best = Some((i, k)),
            }
        }
    }
    best.map_or(0, |(i, _)| i)
}

/// Standard strength: trumps beat the led suit; within a suit the natural rank order.
pub fn plain_strength(card: Card, led: Suit, trump: Option<Suit>) -> Option<(u8, u8)> {
    let (rank, suit) = (card.rank()?, card.suit()?);
    if Some(suit) == trump {
        Some((2, rank.value()))
    } else if suit == led {
        Some((1, rank.value()))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plays(codes: &str) -> Vec<(Seat, Card)> {
        Card::parse_list(codes)
            .unwrap()
            .into_iter()
            .enumerate()
            .collect()
    }

    #[test]
    fn highest_of_led_suit_wins_without_trump() {
        let p = plays("9H AS KH 2H");
        assert_eq!(
            winner_by_strength(&p, |_, c| plain_strength(c, Suit::Hearts, None)),
            2
        );
    }

    #[test]
    fn any_trump_beats_the_led_suit_and_first_wins_ties() {
        let p = plays("AH 2S KH 2S");
        assert_eq!(
            winner_by_strength(&p, |_, c| plain_strength(
                c,
                Suit::Hearts,
                Some(Suit::Spades)
            )),
            1
        );
    }

    #[test]
    fn follow_suit_restricts_only_when_possible() {
        let hand = CardSet::from_cards(Card::parse_list("2H 9H AS").unwrap());
        assert_eq!(follow_suit(hand, Suit::Hearts).len(), 2);
        assert_eq!(follow_suit(hand, Suit::Clubs).len(), 3);
    }
}
