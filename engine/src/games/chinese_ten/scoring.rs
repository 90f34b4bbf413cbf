//! Card points per rule set (spec §5 table), pars, and the deal sizes.

use super::rules::{BlackAces, Options, Ruleset, TaiwanEnd, ThaiLowCards};
use super::state::PerSeat;
use crate::cards::{Card, CardSet, Rank, Suit};
use serde::{Deserialize, Serialize};

/// Capture value: A = 1, 2-9 face value; T, J, Q, K have none (spec §1).
pub fn capture_value(card: Card) -> Option<u32> {
    match card.rank()? {
        Rank::Ace => Some(1),
        r if r.value() <= 9 => Some(u32::from(r.value())),
        _ => None,
    }
}

/// True if `a` and `b` pair (spec §4): numerals making ten, or T/J/Q/K with the same rank.
pub fn pairs(a: Card, b: Card) -> bool {
    match (capture_value(a), capture_value(b)) {
        (Some(x), Some(y)) => x + y == 10,
        (None, None) => a.rank() == b.rank(),
        _ => false,
    }
}

/// The rank index each rank index pairs with (see [`pairs`]): 2-8 with 8-2, 9 with the Ace, T,
/// J, Q and K with themselves. A table, as every legal list asks it for each card in hand.
const PARTNER: [usize; 13] = [6, 5, 4, 3, 2, 1, 0, 12, 8, 9, 10, 11, 7];

/// Every card `card` pairs with (the same relation as [`pairs`], as one set). One load from a
/// table by card: every move asks it of each card in hand and of the flipped card, and the rank,
/// its partner and the shift were a chain of dependent loads ahead of a branch on the result.
pub fn pair_mask(card: Card) -> CardSet {
    CardSet(PAIR_MASK.get(card.index()).copied().unwrap_or(JOKER_ONLY))
}

/// The joker's set: it pairs with a joker only (no pack of the family holds one).
const JOKER_ONLY: u64 = 1 << Card::JOKER.index();

/// [`pair_mask`] by card index: the four cards of the partner rank ([`PARTNER`]) of each suited
/// card, then the joker's.
static PAIR_MASK: [u64; Card::COUNT] = pair_masks();

const fn pair_masks() -> [u64; Card::COUNT] {
    let mut masks = [JOKER_ONLY; Card::COUNT];
    let mut index = 0;
    while index < 52 {
        masks[index] = 0xF << (PARTNER[index / 4] * 4);
        index += 1;
    }
    masks
}

/// The index of the rank a card pairs with (none for the joker, which pairs with no suited card).
pub fn partner_index(card: Card) -> Option<usize> {
    card.rank().map(|rank| PARTNER[rank.index()])
}

/// The ranks whose three or four copies in the initial layout trigger the trio / four rules
/// (R7, R8, R9), in rank order.
pub const SELF_PAIRING: [Rank; 5] = [Rank::Five, Rank::Ten, Rank::Jack, Rank::Queen, Rank::King];

/// True for a rank of [`SELF_PAIRING`].
pub fn self_pairing(rank: Rank) -> bool {
    SELF_PAIRING.contains(&rank)
}

/// True if `set` holds exactly three cards of `rank`: three of the rank's four bits, told without
/// counting them (the target has no popcount, and this is asked for every card of a hand).
pub fn three_of_rank(set: CardSet, rank: Rank) -> bool {
    matches!(set.of_rank(rank).0 >> (4 * rank.index()), 7 | 11 | 13 | 14)
}

/// Cards per hand and initial layout size (spec §2, §7).
pub fn sizes(ruleset: Ruleset, players: usize) -> (usize, usize) {
    match (ruleset, players) {
        (Ruleset::MainMerah, 2) => (10, 12),
        (Ruleset::MainMerah, _) => (7, 10),
        _ => (24 / players.max(1), 4),
    }
}

/// A red card's points where red cards count (spec §5, R1: the seed's suitless lines are the red
/// cards): 2-8 face value, 9-K 10, A 20. The oracle of [`RED_BY_RANK`].
#[cfg(test)]
fn red_table(rank: Rank) -> i64 {
    match rank {
        Rank::Ace => 20,
        r if r.value() <= 8 => i64::from(r.value()),
        _ => 10,
    }
}

/// A red card's points by rank index, 2 to A (spec §5, R1): 2-8 face value, 9-K 10, A 20.
const RED_BY_RANK: [i64; 13] = [2, 3, 4, 5, 6, 7, 8, 10, 10, 10, 10, 10, 20];

/// The red points of the cards of one byte of a pile (byte k: rank indices 2k and 2k + 1, suits
/// S H D C by bit), from [`RED_BY_RANK`]. Black cards and the joker's bit count nothing.
static RED_BY_BYTE: [[u8; 256]; 7] = red_by_byte();

const fn red_by_byte() -> [[u8; 256]; 7] {
    let mut table = [[0u8; 256]; 7];
    let mut k = 0;
    while k < 7 {
        let mut byte = 0;
        while byte < 256 {
            let mut points = 0;
            let mut half = 0;
            while half < 2 {
                let rank = 2 * k + half;
                if rank < 13 {
                    let nibble = byte >> (4 * half);
                    // Hearts and diamonds are bits 1 and 2 of a rank's nibble.
                    let reds = ((nibble >> 1) & 1) + ((nibble >> 2) & 1);
                    points += RED_BY_RANK[rank] * reds as i64;
                }
                half += 1;
            }
            table[k][byte] = points as u8;
            byte += 1;
        }
        k += 1;
    }
    table
}

/// Points of one captured card under the options and player count (spec §5): the points of a
/// pile holding only that card, so the table is written once, in [`pile_points`].
pub fn card_points(options: &Options, players: usize, card: Card) -> i64 {
    pile_points(options, players, CardSet::from_cards([card]))
}

/// Card points of a pile under the options and player count (spec §5), counted rank by rank on
/// the set's masks: a Taiwan race asks after every capture, and card by card this was a seventh
/// of its time. A card without rank or suit (the joker, in no pack of the family) counts 0.
pub fn pile_points(options: &Options, players: usize, pile: CardSet) -> i64 {
    let red = CardSet(pile.of_suit(Suit::Hearts).0 | pile.of_suit(Suit::Diamonds).0);
    let black = CardSet(pile.of_suit(Suit::Spades).0 | pile.of_suit(Suit::Clubs).0);
    let count = |set: CardSet, rank: Rank| i64::from(set.of_rank(rank).0.count_ones());
    let holds = |rank: Rank, suit: Suit| i64::from(pile.contains(Card::new(rank, suit)));
    // One table load per byte of the pile (two ranks): no popcount in the target, and a Taiwan
    // race asks after every capture.
    let red_points = || {
        (0..7)
            .map(|k| i64::from(RED_BY_BYTE[k][((pile.0 >> (8 * k)) & 0xFF) as usize]))
            .sum::<i64>()
    };
    match options.ruleset {
        Ruleset::Base | Ruleset::Taiwan => {
            // R2: AS 30 from 3 players; AC 40 with 4 (or from 3 with `seed_literal`), base game
            // only (R18 a).
            let spade_ace = if players >= 3 { 30 } else { 0 };
            let club_ace_counts = options.ruleset == Ruleset::Base
                && match options.black_aces {
                    BlackAces::ByPlayerCount => players == 4,
                    BlackAces::SeedLiteral => players >= 3,
                };
            let club_ace = if club_ace_counts { 40 } else { 0 };
            red_points()
                + spade_ace * holds(Rank::Ace, Suit::Spades)
                + club_ace * holds(Rank::Ace, Suit::Clubs)
        }
        Ruleset::MainMerah => red_points(),
        Ruleset::Thai => {
            // R4: 2-8 of the `thai_low_cards` colour at face value, black 9-K 10 (the 9 at
            // `thai_nine`), AS 50; red 9-K and the other aces nothing.
            let low_colour = match options.thai_low_cards {
                ThaiLowCards::Red => red,
                ThaiLowCards::Black => black,
            };
            let mut points = 50 * holds(Rank::Ace, Suit::Spades);
            for rank in Rank::ALL {
                points += match rank {
                    Rank::Ace => 0,
                    r if r.value() <= 8 => i64::from(r.value()) * count(low_colour, r),
                    Rank::Nine => options.thai_nine * count(black, rank),
                    _ => 10 * count(black, rank),
                };
            }
            points
        }
    }
}

/// The par ("winning threshold") of a deal, where the spec's table gives one (R12).
pub fn par(options: &Options, players: usize) -> Option<i64> {
    match options.ruleset {
        Ruleset::Thai => None,
        Ruleset::Taiwan => Some(options.taiwan_target),
        Ruleset::MainMerah => Some(if players == 2 { 105 } else { 70 }),
        Ruleset::Base => Some(match players {
            2 => 105,
            3 => 80,
            _ => 70,
        }),
    }
}

/// The scoring of one deal.
// Its lists are inline up to four seats (serialized and described as lists, as `Vec`s were): a
// short Taiwan race allocated them anew in every game. (A note, not part of the published doc.)
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct DealScore {
    /// Card points per seat.
    pub card_points: PerSeat<i64>,
    /// Red-five transfers per seat (zero-sum).
    pub transfers: PerSeat<i64>,
    /// Card points + transfers.
    pub points: PerSeat<i64>,
    /// Cards in each pile at the end of the deal.
    pub pile_sizes: PerSeat<usize>,
    /// Whether each seat reached par (absent where the rule set has none).
    pub won_deal: Option<PerSeat<bool>>,
}

/// Scores one deal from every seat's pile and its count of red-five pairs taken (each pays 10 from
/// every other seat, R13): card points, transfers, their sum and, where the rule set has a par,
/// who reached it.
pub fn deal_score(options: &Options, piles: &[CardSet], red_fives: &[u32]) -> DealScore {
    let mut score = DealScore {
        card_points: PerSeat::new(),
        transfers: PerSeat::new(),
        points: PerSeat::new(),
        pile_sizes: PerSeat::new(),
        won_deal: None,
    };
    deal_score_into(options, piles, red_fives, &mut score);
    score
}

/// [`deal_score`] written over an earlier score, reusing its lists (a deal's scoring allocated
/// a handful of them, a fair part of a short Taiwan game).
pub fn deal_score_into(
    options: &Options,
    piles: &[CardSet],
    red_fives: &[u32],
    score: &mut DealScore,
) {
    let n = piles.len();
    // R13: each red-five pair taken pays 10 from every other seat, so a seat that took `k` of
    // the table's `all` pairs gains 10 (n - 1) k and pays 10 (all - k): 10 (n k - all).
    let all: i64 = red_fives.iter().map(|k| i64::from(*k)).sum();
    score.card_points.clear();
    score.transfers.clear();
    score.points.clear();
    score.pile_sizes.clear();
    let par = par(options, n);
    match (par, &mut score.won_deal) {
        (None, won) => *won = None,
        (Some(_), Some(won)) => won.clear(),
        (Some(_), won) => *won = Some(PerSeat::new()),
    }
    // Seat by seat, pushed: generic `extend`s over iterators cost several times this.
    for (seat, pile) in piles.iter().enumerate() {
        let card_points = pile_points(options, n, *pile);
        let taken = i64::from(red_fives.get(seat).copied().unwrap_or(0));
        let transfer = 10 * (n as i64 * taken - all);
        score.card_points.push(card_points);
        score.transfers.push(transfer);
        score.points.push(card_points + transfer);
        score.pile_sizes.push(pile.len());
        if let (Some(par), Some(won)) = (par, &mut score.won_deal) {
            won.push(card_points + transfer >= par);
        }
    }
}

/// The cards that score under the Taiwan rules (R1, R2): every red card and the ace of spades
/// (the ace of clubs scores in the base game only). A capture of none of them leaves a pile's
/// card points as they were.
pub const TAIWAN_POINT_CARDS: CardSet =
    CardSet(red_cards() | 1 << Card::new(Rank::Ace, Suit::Spades).index());

const fn red_cards() -> u64 {
    let mut mask = 0;
    let mut rank = 0;
    while rank < 13 {
        mask |= 1 << (4 * rank + Suit::Hearts.index()) | 1 << (4 * rank + Suit::Diamonds.index());
        rank += 1;
    }
    mask
}

/// Under the Taiwan race (R16), the card points of a pile that ends the game at once: card points
/// only, red-five transfers are settled afterwards and never end it.
pub fn race_reached(options: &Options, players: usize, pile: CardSet) -> Option<i64> {
    if options.ruleset != Ruleset::Taiwan || options.taiwan_end != TaiwanEnd::Race {
        return None;
    }
    let points = pile_points(options, players, pile);
    (points >= options.taiwan_target).then_some(points)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::PlayoutRng;

    #[test]
    fn the_taiwan_point_cards_are_those_that_score_under_taiwan() {
        let options: Options = serde_json::from_value(serde_json::json!({
            "ruleset": "taiwan", "first_dealer": "random", "black_aces": "by_player_count",
            "red_five_bonus": true, "thai_nine": 10, "thai_low_cards": "black",
            "taiwan_target": 60, "taiwan_end": "race", "cutter_peek": false, "deals": 1,
        }))
        .expect("options");
        for index in 0..52 {
            let card = Card::from_index(index).unwrap();
            assert_eq!(
                card_points(&options, 4, card) > 0,
                TAIWAN_POINT_CARDS.contains(card),
                "{card}"
            );
        }
    }

    /// Spec §5's table read card by card, as the rules state it (R1, R2, R4, R18 a): the oracle
    /// the mask count is checked against.
    fn spec_card_points(options: &Options, players: usize, card: Card) -> i64 {
        let (Some(rank), Some(suit)) = (card.rank(), card.suit()) else {
            return 0;
        };
        let red = suit.is_red();
        let v = i64::from(rank.value());
        match options.ruleset {
            Ruleset::Base | Ruleset::Taiwan => {
                if red {
                    return red_table(rank);
                }
                match (rank, suit) {
                    (Rank::Ace, Suit::Spades) if players >= 3 => 30,
                    (Rank::Ace, Suit::Clubs) if options.ruleset == Ruleset::Base => {
                        let counts = match options.black_aces {
                            BlackAces::ByPlayerCount => players == 4,
                            BlackAces::SeedLiteral => players >= 3,
                        };
                        if counts { 40 } else { 0 }
                    }
                    _ => 0,
                }
            }
            Ruleset::MainMerah => {
                if red {
                    red_table(rank)
                } else {
                    0
                }
            }
            Ruleset::Thai => {
                if rank == Rank::Ace {
                    return if suit == Suit::Spades { 50 } else { 0 };
                }
                let low_colour_red = options.thai_low_cards == ThaiLowCards::Red;
                if v <= 8 {
                    return if red == low_colour_red { v } else { 0 };
                }
                match (red, rank) {
                    (true, _) => 0,
                    (false, Rank::Nine) => options.thai_nine,
                    (false, _) => 10,
                }
            }
        }
    }

    #[test]
    fn red_by_rank_is_the_red_table() {
        for rank in Rank::ALL {
            assert_eq!(RED_BY_RANK[rank.index()], red_table(rank), "{rank:?}");
        }
    }

    #[test]
    fn pair_mask_is_the_pairs_relation() {
        let pack = crate::cards::PackSpec::standard().cards();
        for &a in &pack {
            for &b in &pack {
                assert_eq!(pair_mask(a).contains(b), pairs(a, b), "{a} {b}");
            }
        }
    }

    #[test]
    fn pile_points_is_the_sum_of_card_points_under_every_rule_set() {
        let base: Options = serde_json::from_value(serde_json::json!({
            "ruleset": "base", "first_dealer": "random", "black_aces": "by_player_count",
            "red_five_bonus": true, "thai_nine": 10, "thai_low_cards": "black",
            "taiwan_target": 140, "taiwan_end": "race", "cutter_peek": false, "deals": 1,
        }))
        .expect("options");
        let mut rng = PlayoutRng::new(7);
        for ruleset in [
            Ruleset::Base,
            Ruleset::Taiwan,
            Ruleset::Thai,
            Ruleset::MainMerah,
        ] {
            for (black_aces, thai_low_cards, thai_nine) in [
                (BlackAces::ByPlayerCount, ThaiLowCards::Black, 10),
                (BlackAces::SeedLiteral, ThaiLowCards::Red, 9),
            ] {
                let options = Options {
                    ruleset,
                    black_aces,
                    thai_low_cards,
                    thai_nine,
                    ..base.clone()
                };
                for players in 2..=4 {
                    for _ in 0..200 {
                        // A random subset of the 52 cards (every rank and suit, aces included).
                        let mask = ((rng.below(1 << 26) as u64) << 26) | rng.below(1 << 26) as u64;
                        let pile = CardSet(mask);
                        let by_card: i64 = pile
                            .iter()
                            .map(|c| spec_card_points(&options, players, c))
                            .sum();
                        assert_eq!(
                            pile_points(&options, players, pile),
                            by_card,
                            "{options:?} {players}p {pile:?}"
                        );
                    }
                }
            }
        }
    }
}
