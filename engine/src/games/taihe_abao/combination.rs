//! The ranks, the pack and the combinations of Taihe A Bao (spec §4): classifying a play,
//! comparing two, and enumerating a hand's plays.

use super::rules::Options;
use crate::cards::{Card, CardSet, Rank, Suit};
use serde::{Deserialize, Serialize};

/// The ranks of the game, low to high (8s, 3s and 2s removed).
pub const RANKS: [Rank; 10] = [
    Rank::Four,
    Rank::Five,
    Rank::Six,
    Rank::Seven,
    Rank::Nine,
    Rank::Ten,
    Rank::Jack,
    Rank::Queen,
    Rank::King,
    Rank::Ace,
];

/// The game's rank index 0..10 of a card (4 = 0 ... A = 9), `None` for a rank not in the game.
pub fn rank_index(card: Card) -> Option<usize> {
    match card.rank()? {
        Rank::Four => Some(0),
        Rank::Five => Some(1),
        Rank::Six => Some(2),
        Rank::Seven => Some(3),
        Rank::Nine => Some(4),
        Rank::Ten => Some(5),
        Rank::Jack => Some(6),
        Rank::Queen => Some(7),
        Rank::King => Some(8),
        Rank::Ace => Some(9),
        _ => None,
    }
}

/// The deck for a player count and options, in canonical card order.
pub fn deck(players: usize, options: &Options) -> Vec<Card> {
    let mut cards = Vec::with_capacity(40);
    for &rank in &RANKS {
        if options.no_aces && rank == Rank::Ace {
            continue;
        }
        for suit in Suit::ALL {
            let card = Card::new(rank, suit);
            if players == 3 && !options.no_aces && card == Card::new(Rank::Ace, Suit::Spades) {
                continue;
            }
            if players == 5 && options.no_aces && card == Card::new(Rank::King, Suit::Spades) {
                continue;
            }
            cards.push(card);
        }
    }
    cards
}

/// The rank index of which the deck holds exactly three cards (AAA with 3 players, KKK with 5
/// players without Aces), if the option makes that triple the top quad (R8).
pub fn top_triple_rank(players: usize, options: &Options) -> Option<usize> {
    // The decks of `deck`: 3 players without the AS, 5 players without aces and without the KS.
    match (
        options.missing_card_triple_is_top_quad,
        players,
        options.no_aces,
    ) {
        (true, 3, false) => Some(9),
        (true, 5, true) => Some(8),
        _ => None,
    }
}

/// The kinds of combination (spec §4).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// One card.
    Single,
    /// Two cards of one rank.
    Pair,
    /// Three or more adjacent ranks, one card each.
    Sequence,
    /// Two or more adjacent ranks, two cards each.
    DoubleSequence,
    /// Three cards of one rank (a bomb).
    Triple,
    /// Four cards of one rank (a bomb); also the top triple of R8.
    Quad,
}

/// A classified combination: kind, number of cards, top rank index (the R8 top triple is a quad
/// with top 10, above every real quad).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Combo {
    /// The kind.
    pub kind: Kind,
    /// Number of cards.
    pub len: usize,
    /// Highest rank index in it (10 for the R8 top quad).
    pub top: usize,
}

/// Rank index of the R8 top quad, above the Ace.
pub const TOP_QUAD: usize = 10;

/// True if rank indices `a` and `a + 1` are adjacent for runs (R2: 7 and 9 are not; Aces never).
pub fn adjacent(a: usize) -> bool {
    // 4-5, 5-6, 6-7 (0..3) and 9-T, T-J, J-Q, Q-K (4..8).
    matches!(a, 0..=2 | 4..=7)
}

/// The combination of `len` cards of the one rank `rank`: single, pair, triple or quad, and the
/// top triple that counts as the highest quad (R8).
fn one_rank(len: usize, rank: usize, top_triple: Option<usize>) -> Combo {
    let kind = match len {
        1 => Kind::Single,
        2 => Kind::Pair,
        3 if top_triple == Some(rank) => {
            return Combo {
                kind: Kind::Quad,
                len: 3,
                top: TOP_QUAD,
            };
        }
        3 => Kind::Triple,
        _ => Kind::Quad,
    };
    Combo {
        kind,
        len,
        top: rank,
    }
}

/// Classifies a rank count vector (cards per rank index). `None` if it is no combination.
pub fn classify(counts: &[u8; 10], top_triple: Option<usize>) -> Option<Combo> {
    // One pass, no allocation: this runs for every candidate of every legal list.
    let (mut low, mut high, mut distinct, mut len) = (None, 0, 0, 0);
    for (r, &c) in counts.iter().enumerate() {
        if c > 0 {
            low.get_or_insert(r);
            high = r;
            distinct += 1;
        }
        len += c as usize;
    }
    let low = low?;
    if distinct == 1 {
        return Some(one_rank(len, low, top_triple));
    }
    // Runs: contiguous ranks, each adjacent to the next, all with the same count (1 or 2).
    let contiguous = high - low + 1 == distinct && (low..high).all(adjacent);
    if !contiguous {
        return None;
    }
    let per = counts[low];
    if counts[low..=high].iter().any(|&c| c != per) {
        return None;
    }
    match per {
        1 if distinct >= 3 => Some(Combo {
            kind: Kind::Sequence,
            len,
            top: high,
        }),
        2 => Some(Combo {
            kind: Kind::DoubleSequence,
            len,
            top: high,
        }),
        _ => None,
    }
}

/// True if `y` may be played on the current top combination `x` (spec §4, R4).
pub fn beats(y: Combo, x: Combo) -> bool {
    match x.kind {
        Kind::Quad => y.kind == Kind::Quad && y.top > x.top,
        Kind::Triple => (y.kind == Kind::Triple && y.top > x.top) || y.kind == Kind::Quad,
        _ => {
            matches!(y.kind, Kind::Triple | Kind::Quad)
                || (y.kind == x.kind && y.len == x.len && y.top > x.top)
        }
    }
}

/// Rank counts of a set of cards (cards outside the game's ranks are ignored; callers check).
pub fn rank_counts(cards: CardSet) -> [u8; 10] {
    RANKS.map(|rank| cards.of_rank(rank).len() as u8)
}

/// The canonical cards for a rank multiset taken from `hand` (R13): per rank, the lowest suits in
/// the order S, H, D, C. `None` if the hand lacks them.
pub fn canonical(hand: CardSet, counts: &[u8; 10]) -> Option<CardSet> {
    // A rank's four cards are four adjacent bits in suit order S, H, D, C: the lowest suits are
    // the lowest set bits of the hand's nibble for that rank.
    let mut out = 0u64;
    for (r, &n) in counts.iter().enumerate() {
        let mut left = hand.of_rank(RANKS[r]).0;
        for _ in 0..n {
            if left == 0 {
                return None;
            }
            out |= left & left.wrapping_neg();
            left &= left - 1;
        }
    }
    Some(CardSet(out))
}

/// Every distinct rank multiset `hand` can play (R13), in canonical order: singles, pairs,
/// sequences, double sequences, triples, quads; within a kind by length, then top rank.
pub fn all_plays(hand: CardSet) -> Vec<[u8; 10]> {
    let mut out = Vec::new();
    for_each_play(hand, |counts| out.push(*counts));
    out
}

/// Calls `f` with every rank multiset of [`all_plays`], in the same order, without collecting.
pub fn for_each_play(hand: CardSet, mut f: impl FnMut(&[u8; 10])) {
    let have = rank_counts(hand);
    for need in [1u8, 2] {
        for r in 0..10 {
            if have[r] >= need {
                let mut c = [0u8; 10];
                c[r] = need;
                f(&c);
            }
        }
    }
    for (per, min_len) in [(1u8, 3usize), (2, 2)] {
        for len in min_len..=5 {
            for start in 0..10usize {
                let end = start + len - 1;
                if end >= 10 || !(start..end).all(adjacent) {
                    continue;
                }
                if (start..=end).all(|r| have[r] >= per) {
                    let mut c = [0u8; 10];
                    for x in c.iter_mut().take(end + 1).skip(start) {
                        *x = per;
                    }
                    f(&c);
                }
            }
        }
    }
    for need in [3u8, 4] {
        for r in 0..10 {
            if have[r] >= need {
                let mut c = [0u8; 10];
                c[r] = need;
                f(&c);
            }
        }
    }
}

/// Bit 0 of each of the 13 rank nibbles of a card mask (a card's bit is `rank * 4 + suit`, so a
/// rank's cards are one nibble, suits S, H, D, C from its low bit): a rank's "marker".
const NIBBLE_LOW: u64 = 0x1_1111_1111_1111;
/// The cards of the game's ranks: 4-7 (nibbles 2..5) and 9-A (nibbles 7..12). Without the 8s'
/// nibble 6 no run of nibbles bridges 7 and 9 (R2).
const GAME_CARDS: u64 = (0xFFFF << 8) | (0xFF_FFFF << 28);
/// The Ace's marker: Aces never run (spec §4).
const ACE_MARK: u64 = 1 << 48;
/// The nibble of each game rank index (4 = 0 ... A = 9).
const NIBBLE_OF: [u32; 10] = [2, 3, 4, 5, 7, 8, 9, 10, 11, 12];
/// The game rank index of each nibble (only the game's nibbles are looked up).
const RANK_OF_NIBBLE: [usize; 16] = [0, 0, 0, 1, 2, 3, 0, 4, 5, 6, 7, 8, 9, 0, 0, 0];

/// Per rank, the lowest card of `x` (its first suit in S, H, D, C), all ranks at once.
fn lowest_per_rank(x: u64) -> u64 {
    // Inclusive prefix-or upwards inside each nibble, then keep the bits with nothing below.
    let p = x | ((x << 1) & !NIBBLE_LOW);
    let p = p | ((p << 2) & (NIBBLE_LOW * 0xC));
    x & !((p << 1) & !NIBBLE_LOW)
}

/// The markers of the ranks with a card in `x`.
fn rank_marks(x: u64) -> u64 {
    (x | (x >> 1) | (x >> 2) | (x >> 3)) & NIBBLE_LOW
}

/// The markers (and cards) of the ranks above game rank `top`; none above the R8 top quad.
fn above(top: usize) -> u64 {
    NIBBLE_OF.get(top).map_or(0, |n| u64::MAX << (4 * n + 4))
}

/// The set bits of a mask, lowest first.
fn bits64(mut mask: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let b = mask.trailing_zeros();
            mask &= mask - 1;
            b
        })
    })
}

/// The game rank index of the nibble holding bit `b`.
fn rank_of(b: u32) -> usize {
    RANK_OF_NIBBLE[(b as usize >> 2) & 15]
}

/// [`classify`] of the rank counts of `cards`, from the card mask directly (a listed play is
/// classified at every move of a playout).
pub fn classify_set(cards: CardSet, top_triple: Option<usize>) -> Option<Combo> {
    let h = cards.0 & GAME_CARDS;
    let marks = rank_marks(h);
    if marks == 0 {
        return None;
    }
    let len = h.count_ones() as usize;
    let distinct = marks.count_ones() as usize;
    let (low, high) = (marks.trailing_zeros(), 63 - marks.leading_zeros());
    let top = rank_of(high);
    if distinct == 1 {
        return Some(one_rank(len, top, top_triple));
    }
    // Runs: ranks in adjacent nibbles (no 8s' nibble between 7 and 9, R2), no Ace, the same
    // count (1 or 2) of each.
    if (high - low) as usize / 4 + 1 != distinct || marks & ACE_MARK != 0 {
        return None;
    }
    let kind = if len == distinct && distinct >= 3 {
        Kind::Sequence
    } else if len == 2 * distinct && rank_marks(h ^ lowest_per_rank(h)) == marks {
        Kind::DoubleSequence
    } else {
        return None;
    };
    Some(Combo { kind, len, top })
}

/// The non-bomb groups of a lead in the legal list's order: kind and number of cards.
const LEADS: [(Kind, usize); 9] = [
    (Kind::Single, 1),
    (Kind::Pair, 2),
    (Kind::Sequence, 3),
    (Kind::Sequence, 4),
    (Kind::Sequence, 5),
    (Kind::DoubleSequence, 4),
    (Kind::DoubleSequence, 6),
    (Kind::DoubleSequence, 8),
    (Kind::DoubleSequence, 10),
];

/// Calls `f` with the plays of one non-bomb group (`kind` of `len` cards) whose top rank's
/// marker is in `tops`, lowest top first; `lowest` and `marks` as in [`for_each_combo`].
#[inline]
fn plain_group(
    lowest: &[u64; 5],
    marks: &[u64; 5],
    kind: Kind,
    len: usize,
    tops: u64,
    f: &mut impl FnMut(CardSet, Combo),
) {
    // Cards per rank and ranks (sequences 3-5 ranks, double sequences 2-5).
    let (per, ranks) = match kind {
        Kind::Single => (1, 1),
        Kind::Pair => (2, 1),
        Kind::Sequence => (1, len),
        _ => (2, len / 2),
    };
    // A checked top is never longer (10 cards); the guard keeps the shifts in range.
    if !(1..=5).contains(&ranks) {
        return;
    }
    // `starts`: the markers of the lowest of `ranks` held ranks in a row; runs never hold an
    // Ace, and the empty 8s' nibble keeps 7 and 9 apart (R2).
    let held = if ranks == 1 {
        marks[per]
    } else {
        marks[per] & !ACE_MARK
    };
    let mut starts = held;
    for k in 1..ranks {
        starts &= held >> (4 * k);
    }
    // A play from marker b has its top ranks - 1 nibbles higher.
    let span = (1u64 << (4 * ranks)) - 1;
    for b in bits64(starts & (tops >> (4 * (ranks - 1)))) {
        let combo = Combo {
            kind,
            len,
            top: rank_of(b) + ranks - 1,
        };
        f(CardSet(lowest[per] & (span << b)), combo);
    }
}

/// Calls `f` with every combination `hand` can play on `over` (every one when `over` is `None`:
/// a lead), i.e. each one [`beats`] `over`, as its canonical cards (R13, what [`canonical`]
/// gives) classified as [`classify`] would, in [`all_plays`]'s order (the legal list's order).
/// Only what beats `over` is generated: this runs at every turn of the legal list, so it works
/// on whole-hand masks (one nibble per rank) instead of per-rank loops.
pub fn for_each_combo(
    hand: CardSet,
    top_triple: Option<usize>,
    over: Option<Combo>,
    mut f: impl FnMut(CardSet, Combo),
) {
    let h = hand.0 & GAME_CARDS;
    // `lowest[k]`: every rank's k lowest cards (R13's canonical k cards where it holds k);
    // `marks[k]`: the markers of the ranks held k or more times.
    let e1 = lowest_per_rank(h);
    let e2 = lowest_per_rank(h ^ e1);
    let l2 = e1 | e2;
    let e3 = lowest_per_rank(h ^ l2);
    let l3 = l2 | e3;
    let lowest = [0, e1, l2, l3, h];
    let marks = [
        0,
        rank_marks(h),
        rank_marks(e2),
        rank_marks(e3),
        rank_marks(h ^ l3),
    ];
    match over {
        None => {
            for (kind, len) in LEADS {
                plain_group(&lowest, &marks, kind, len, u64::MAX, &mut f);
            }
        }
        // R4: on a non-bomb, the same kind and size with a higher top (then the bombs below).
        Some(x) if !matches!(x.kind, Kind::Triple | Kind::Quad) => {
            plain_group(&lowest, &marks, x.kind, x.len, above(x.top), &mut f);
        }
        Some(_) => {}
    }
    // Bombs (R4): a triple beats a non-bomb or a lower triple, a quad anything but a higher quad;
    // the R8 top triple is a quad above every quad.
    let (triples, top_triple_beats, quads) = match over {
        Some(Combo {
            kind: Kind::Quad,
            top,
            ..
        }) => (0, top < TOP_QUAD, above(top)),
        Some(Combo {
            kind: Kind::Triple,
            top,
            ..
        }) => (above(top), true, u64::MAX),
        _ => (u64::MAX, true, u64::MAX),
    };
    let top_mark = top_triple
        .and_then(|r| NIBBLE_OF.get(r))
        .map_or(0, |n| 1u64 << (4 * n));
    let triples = (triples & !top_mark) | if top_triple_beats { top_mark } else { 0 };
    for b in bits64(marks[3] & triples) {
        let combo = if 1u64 << b == top_mark {
            Combo {
                kind: Kind::Quad,
                len: 3,
                top: TOP_QUAD,
            }
        } else {
            Combo {
                kind: Kind::Triple,
                len: 3,
                top: rank_of(b),
            }
        };
        f(CardSet(lowest[3] & (0xF << b)), combo);
    }
    for b in bits64(marks[4] & quads) {
        let combo = Combo {
            kind: Kind::Quad,
            len: 4,
            top: rank_of(b),
        };
        f(CardSet(h & (0xF << b)), combo);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(list: &str) -> [u8; 10] {
        rank_counts(CardSet::from_cards(Card::parse_list(list).unwrap()))
    }

    fn combo(list: &str) -> Option<Combo> {
        classify(&counts(list), None)
    }

    #[test]
    fn the_nibble_tables_match_the_ranks() {
        let mut game = 0u64;
        for (r, rank) in RANKS.iter().enumerate() {
            assert_eq!(NIBBLE_OF[r] as usize, rank.index(), "rank index {r}");
            assert_eq!(RANK_OF_NIBBLE[rank.index()], r);
            game |= 0xF << (4 * rank.index());
            // Adjacent for runs exactly when the next rank is the next nibble and not the Ace.
            if r + 1 < RANKS.len() {
                let next_nibble = NIBBLE_OF[r + 1] == NIBBLE_OF[r] + 1;
                let next_mark = 1u64 << (4 * NIBBLE_OF[r + 1]);
                assert_eq!(
                    next_nibble && next_mark != ACE_MARK,
                    adjacent(r),
                    "rank {r}"
                );
            }
        }
        assert_eq!(game, GAME_CARDS);
        assert_eq!(ACE_MARK, 1 << (4 * Rank::Ace.index()));
    }

    #[test]
    fn classify_set_agrees_with_classify() {
        let mut rng = crate::rng::PlayoutRng::new(5);
        let pack: Vec<Card> = crate::cards::PackSpec::standard().cards();
        let game: Vec<Card> = pack
            .iter()
            .copied()
            .filter(|c| rank_index(*c).is_some())
            .collect();
        for i in 0..200_000 {
            // Small sets of a few neighbouring ranks (the interesting ones), some from the pack.
            let cards = if i % 4 == 0 {
                CardSet::from_cards(pack.iter().copied().filter(|_| rng.below(12) == 0))
            } else {
                let from = rng.below(game.len());
                let width = 4 + rng.below(24);
                let keep = 2 + rng.below(3);
                CardSet::from_cards(
                    game.iter()
                        .skip(from)
                        .take(width)
                        .copied()
                        .filter(|_| rng.below(keep) != 0),
                )
            };
            for top_triple in [None, Some(9), Some(8)] {
                assert_eq!(
                    classify_set(cards, top_triple),
                    classify(&rank_counts(cards), top_triple),
                    "{cards:?}"
                );
            }
        }
        // Every play of the game classifies alike.
        let every = CardSet::from_cards(pack.iter().copied());
        for_each_play(every, |c| {
            let set = canonical(every, c).unwrap_or_default();
            assert_eq!(classify_set(set, Some(9)), classify(c, Some(9)), "{c:?}");
        });
    }

    #[test]
    fn for_each_combo_agrees_with_classify_and_all_plays() {
        let mut rng = crate::rng::PlayoutRng::new(3);
        let pack: Vec<Card> = crate::cards::PackSpec::standard().cards();
        let every_play = all_plays(CardSet::from_cards(pack.iter().copied()));
        for i in 0..2000 {
            // Sparse to dense hands (every one from the full pack: other ranks are ignored).
            let density = [2, 3, 5][i % 3];
            let hand =
                CardSet::from_cards(pack.iter().copied().filter(|_| rng.below(density) == 0));
            let plays = all_plays(hand);
            for top_triple in [None, Some(9), Some(8)] {
                let mut listed = Vec::new();
                for_each_combo(hand, top_triple, None, |set, combo| {
                    let c = rank_counts(set);
                    assert_eq!(classify(&c, top_triple), Some(combo), "{c:?}");
                    assert_eq!(canonical(hand, &c), Some(set), "{c:?}");
                    listed.push(c);
                });
                assert_eq!(listed, plays);
                // Every combination of the game as the one to beat, the top quad included.
                let overs = every_play.iter().filter_map(|c| classify(c, top_triple));
                for over in overs {
                    let mut beating = Vec::new();
                    for_each_combo(hand, top_triple, Some(over), |set, combo| {
                        let c = rank_counts(set);
                        assert!(beats(combo, over), "{c:?} on {over:?}");
                        assert_eq!(classify(&c, top_triple), Some(combo), "{c:?}");
                        assert_eq!(canonical(hand, &c), Some(set), "{c:?}");
                        beating.push(c);
                    });
                    let expected: Vec<[u8; 10]> = plays
                        .iter()
                        .copied()
                        .filter(|c| classify(c, top_triple).is_some_and(|y| beats(y, over)))
                        .collect();
                    assert_eq!(beating, expected, "{hand:?} on {over:?}");
                }
            }
        }
    }

    #[test]
    fn the_top_triple_is_the_rank_the_deck_holds_three_of() {
        for players in 3..=5 {
            for no_aces in [false, true] {
                let o: Options = serde_json::from_value(serde_json::json!({
                    "no_aces": no_aces, "hands": 8, "allow_recall": false,
                    "four_hearts_always_starts": false, "first_bidder_must_call": false,
                    "single_call_wins": false, "stake_scheme": "seed", "spring_double": false,
                    "return_called_card_allowed": false, "missing_card_triple_is_top_quad": true
                }))
                .unwrap();
                let deck = CardSet::from_cards(deck(players, &o));
                let three = (0..RANKS.len()).find(|&r| deck.of_rank(RANKS[r]).len() == 3);
                assert_eq!(
                    top_triple_rank(players, &o),
                    three,
                    "{players} players, no_aces {no_aces}"
                );
                for card in deck.iter() {
                    assert_eq!(rank_index(card).map(|r| RANKS[r]), card.rank());
                }
            }
        }
    }

    #[test]
    fn combination_kinds() {
        assert_eq!(combo("9S TH JD").unwrap().kind, Kind::Sequence);
        assert_eq!(combo("6S 7S 9S"), None);
        assert_eq!(combo("QS KS AS"), None);
        assert_eq!(combo("5S 6S"), None);
        assert_eq!(combo("5S 6S 6H 7S").map(|c| c.kind), None);
        assert_eq!(combo("7S 7H 9S 9H"), None);
        assert_eq!(
            combo("JS JH QS QH KS KH").unwrap().kind,
            Kind::DoubleSequence
        );
        assert_eq!(combo("AS AH AD").unwrap().kind, Kind::Triple);
        assert_eq!(combo("AS AH AD AC").unwrap().kind, Kind::Quad);
        assert_eq!(
            classify(&counts("AH AD AC"), Some(9)).unwrap(),
            Combo {
                kind: Kind::Quad,
                len: 3,
                top: TOP_QUAD
            }
        );
    }

    #[test]
    fn deck_sizes() {
        let o: Options = serde_json::from_value(serde_json::json!({
            "no_aces": false, "hands": 8, "allow_recall": false, "four_hearts_always_starts": false,
            "first_bidder_must_call": false, "single_call_wins": false, "stake_scheme": "seed",
            "spring_double": false, "return_called_card_allowed": false,
            "missing_card_triple_is_top_quad": true
        }))
        .unwrap();
        assert_eq!(deck(4, &o).len(), 40);
        assert_eq!(deck(3, &o).len(), 39);
        assert_eq!(top_triple_rank(3, &o), Some(9));
        assert_eq!(top_triple_rank(4, &o), None);
        let na = Options {
            no_aces: true,
            ..o.clone()
        };
        assert_eq!(deck(5, &na).len(), 35);
        assert_eq!(deck(3, &na).len(), 36);
        assert_eq!(top_triple_rank(5, &na), Some(8));
    }
}
