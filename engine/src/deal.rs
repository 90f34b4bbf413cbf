//! Shared dealing mechanics: stacked deals (setup input `deals`) and the deal sequence of one deal.
//!
//! A stacked entry fixes the first pieces of a deal's sequence (the order in which the game's own
//! dealing procedure consumes the pack); the rest follows in seeded-random order. The same entry
//! list with seats rotated gives duplicate tournaments.

use crate::cards::{Card, PackSpec};
use crate::error::SetupError;
use crate::rng::GameRng;
use smallvec::SmallVec;

/// Parses and checks stacked card deals against a pack: every code is a card, no entry holds a card
/// more often than the pack does, no entry is longer than the pack.
pub fn parse_card_deals(
    deals: &[Vec<String>],
    pack: &PackSpec,
) -> Result<Vec<Vec<Card>>, SetupError> {
    deals
        .iter()
        .enumerate()
        .map(|(d, entry)| {
            if entry.len() > pack.len() {
                return Err(SetupError::InvalidDeals(format!(
                    "deal {d} lists {} cards but the pack has only {}",
                    entry.len(),
                    pack.len()
                )));
            }
            let mut counts = [0usize; Card::COUNT];
            entry
                .iter()
                .map(|code| {
                    let card = Card::parse(code)
                        .map_err(|e| SetupError::InvalidDeals(format!("deal {d}: {e}")))?;
                    let available = pack.count_of(card);
                    counts[card.index()] += 1;
                    if available == 0 {
                        return Err(SetupError::InvalidDeals(format!(
                            "deal {d}: {card} is not a card of this game's pack"
                        )));
                    }
                    if counts[card.index()] > available {
                        return Err(SetupError::InvalidDeals(format!(
                            "deal {d}: {card} is listed {} times but the pack holds {available}",
                            counts[card.index()]
                        )));
                    }
                    Ok(card)
                })
                .collect()
        })
        .collect()
}

/// The deal sequence of one deal: the stacked entry first (cards of the entry that are not in
/// `current` are dropped, later entry cards moving up), then the rest of `current` shuffled in one
/// chance event. The shuffle event is drawn whether or not an entry exists, so stacking one deal
/// never changes the randomness of another.
pub fn deal_sequence<T: Copy + PartialEq>(
    current: &[T],
    entry: Option<&[T]>,
    rng: &mut GameRng,
) -> Vec<T> {
    let mut sequence = Vec::new();
    deal_sequence_into(current, entry, rng, &mut sequence);
    sequence
}

/// [`deal_sequence`] held inline (on the stack) up to 64 pieces: a family that deals the
/// sequence out at once needs no list per deal. The same draws, so the same deals.
pub fn deal_sequence_inline<T: Copy + PartialEq>(
    current: &[T],
    entry: Option<&[T]>,
    rng: &mut GameRng,
) -> SmallVec<[T; 64]> {
    match entry {
        None => {
            let mut sequence = SmallVec::from_slice(current);
            rng.shuffle(&mut sequence);
            sequence
        }
        Some(entry) => SmallVec::from_vec(stacked_sequence(current, entry, rng)),
    }
}

/// [`deal_sequence`] written into `sequence` (its old content dropped, its memory kept): a family
/// that keeps the sequence as its stock deals every deal without a new list.
pub fn deal_sequence_into<T: Copy + PartialEq>(
    current: &[T],
    entry: Option<&[T]>,
    rng: &mut GameRng,
    sequence: &mut Vec<T>,
) {
    sequence.clear();
    sequence.extend_from_slice(current);
    deal_sequence_in_place(sequence, entry, rng);
}

/// [`deal_sequence`] of the pieces `sequence` holds (the current pack, in its order), in place.
pub fn deal_sequence_in_place<T: Copy + PartialEq>(
    sequence: &mut Vec<T>,
    entry: Option<&[T]>,
    rng: &mut GameRng,
) {
    match entry {
        // Nothing stacked (every random deal): the shuffled pack is the whole sequence, the same
        // as with an empty entry, without a second list.
        None => rng.shuffle(sequence),
        Some(entry) => *sequence = stacked_sequence(sequence, entry, rng),
    }
}

fn stacked_sequence<T: Copy + PartialEq>(current: &[T], entry: &[T], rng: &mut GameRng) -> Vec<T> {
    let mut rest: Vec<T> = current.to_vec();
    let mut sequence = Vec::with_capacity(current.len());
    for piece in entry {
        if let Some(pos) = rest.iter().position(|p| p == piece) {
            sequence.push(rest.remove(pos));
        }
    }
    // Shuffle from the canonical order of what is left, so the result depends only on the set.
    rng.shuffle(&mut rest);
    sequence.extend(rest);
    sequence
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Rank;

    fn codes(list: &str) -> Vec<String> {
        list.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn stacked_cards_come_first_and_the_rest_is_the_remaining_pack() {
        let pack = PackSpec::standard();
        let deals = parse_card_deals(&[codes("AS KH 2C")], &pack).unwrap();
        let mut rng = GameRng::new(1);
        let seq = deal_sequence(&pack.cards(), Some(&deals[0]), &mut rng);
        assert_eq!(&seq[..3], &deals[0][..]);
        assert_eq!(seq.len(), 52);
        let mut sorted = seq.clone();
        sorted.sort();
        let mut all = pack.cards();
        all.sort();
        assert_eq!(sorted, all);
    }

    #[test]
    fn no_entry_deals_as_an_empty_entry_and_draws_the_same_chance() {
        let pack = PackSpec::standard().cards();
        let (mut absent, mut empty) = (GameRng::new(7), GameRng::new(7));
        let a = deal_sequence(&pack, None, &mut absent);
        let b = deal_sequence(&pack, Some(&[]), &mut empty);
        assert_eq!(a, b);
        assert_ne!(a, pack, "shuffled");
        assert_eq!(absent, empty, "the same chance events were drawn");
    }

    #[test]
    fn unavailable_entry_cards_are_dropped() {
        let pack: Vec<Card> = PackSpec::standard()
            .cards()
            .into_iter()
            .filter(|c| c.rank() != Some(Rank::Ace))
            .collect();
        let entry = Card::parse_list("KS AS QH").unwrap();
        let seq = deal_sequence(&pack, Some(&entry), &mut GameRng::new(3));
        assert_eq!(seq[..2], Card::parse_list("KS QH").unwrap()[..]);
    }

    #[test]
    fn bad_entries_are_refused_with_reasons() {
        let pack = PackSpec::ranks_from(Rank::Seven);
        let cases = [
            (codes("AS XX"), "`XX` is not a card code"),
            (codes("2S"), "2S is not a card of this game's pack"),
            (codes("AS AS"), "AS is listed 2 times but the pack holds 1"),
        ];
        for (entry, expected) in cases {
            let err = parse_card_deals(&[entry], &pack).unwrap_err();
            assert!(err.to_string().contains(expected), "{err}");
            assert_eq!(err.code(), "invalid_deals");
        }
        let double = PackSpec::standard().copies(2);
        assert!(parse_card_deals(&[codes("AS AS")], &double).is_ok());
        let too_long = vec!["AS".to_string(); 33];
        assert!(
            parse_card_deals(&[too_long], &pack)
                .unwrap_err()
                .to_string()
                .contains("33 cards")
        );
    }
}
