//! Card values, capture sets, card points and bonuses of Basra, all in HALF-POINTS (spec header).

use super::rules::{
    BasraRule, Deck, GameEnd, Majority, Options, PairingValue, Rubber, Ruleset, SameRank,
    SumCapture, SyriaCardPoints, SyriaDouble, TieRule,
};
use crate::cards::{Card, CardSet, PackSpec, Rank, Suit};
use crate::common::capture::{
    CaptureSets, Layout, SumRule, Valued, combine, is_sweep, sum_captures,
};
use serde::{Deserialize, Serialize};
use smallvec::smallvec;
use std::sync::LazyLock;

/// The seven of diamonds.
pub const SEVEN_D: Card = Card::new(Rank::Seven, Suit::Diamonds);

/// The pack of the options.
pub fn pack(options: &Options) -> PackSpec {
    pack_of(options.deck)
}

fn pack_of(deck: Deck) -> PackSpec {
    match deck {
        Deck::Full => PackSpec::standard(),
        Deck::NoQk => PackSpec::with_ranks(
            &Rank::ALL
                .iter()
                .copied()
                .filter(|r| !matches!(r, Rank::Queen | Rank::King))
                .collect::<Vec<_>>(),
        ),
    }
}

/// The cards of [`pack`] in its order, listed once per pack (every deal shuffles them).
pub fn pack_cards(options: &Options) -> &'static [Card] {
    static FULL: LazyLock<Vec<Card>> = LazyLock::new(|| pack_of(Deck::Full).cards());
    static NO_QK: LazyLock<Vec<Card>> = LazyLock::new(|| pack_of(Deck::NoQk).cards());
    match options.deck {
        Deck::Full => &FULL,
        Deck::NoQk => &NO_QK,
    }
}

/// Numeric value of a card lying on the floor or played as a numeral: A = 1, 2-10 face value.
pub fn value(card: Card) -> Option<u32> {
    match card.rank()? {
        Rank::Ace => Some(1),
        r if r.value() <= 10 => Some(u32::from(r.value())),
        _ => None,
    }
}

/// The four aces (rank index 12, four bits per rank).
const ACES: u64 = 0xF << (4 * 12);

/// The mask of the cards worth less than `v` (aces are worth 1, a numeral its face value).
fn values_below(v: u32) -> u64 {
    match v {
        0 | 1 => 0,
        // Ranks Two..=(v-1) are indexes 0..v-2, four bits each.
        _ => ACES | ((1u64 << (4 * (v - 2))) - 1),
    }
}

/// True if the played card is the special sweeping 7D.
pub fn is_special_seven(options: &Options, card: Card) -> bool {
    options.seven_d_special && card == SEVEN_D
}

/// [`value`] by card index (0 for J, Q, K and the joker, which have none): one load, where the
/// rank's look-up and match cost a play's capture test several times this.
static VALUE_BY_INDEX: [u8; Card::COUNT] = values_by_index();

const fn values_by_index() -> [u8; Card::COUNT] {
    let mut values = [0u8; Card::COUNT];
    let mut index = 0;
    while index < 52 {
        // Rank indexes 0..=8 are the Two to the Ten, 12 the Ace (four cards per rank).
        let rank = index / 4;
        values[index] = match rank {
            0..=8 => rank as u8 + 2,
            12 => 1,
            _ => 0,
        };
        index += 1;
    }
    values
}

/// The capture of `card` on `floor` when the rules leave it no choice (nearly every play), told
/// on masks without listing [`capture_sets`]: an empty floor (a trail), a sweep, or the same-rank
/// part alone (one card or none, or all of them) where no sum can be made. `None` where there
/// may be several capture sets or a sum: then [`capture_sets`] decides.
pub fn forced_capture(options: &Options, floor: &Layout, card: Card) -> Option<CardSet> {
    let set = floor.set();
    if set.is_empty() {
        return Some(CardSet::EMPTY);
    }
    let rank = card.rank()?;
    if rank == Rank::Jack || is_special_seven(options, card) {
        return Some(set);
    }
    let same = set.of_rank(rank);
    // Two or more to take one from: the player chooses.
    if options.same_rank_capture == SameRank::One && same.0 & same.0.wrapping_sub(1) != 0 {
        return None;
    }
    let v = u32::from(VALUE_BY_INDEX.get(card.index()).copied().unwrap_or(0));
    if v == 0 {
        return Some(same); // Q or K: same rank only.
    }
    // The cards worth less than `v` are those a sum could use: too little between them, no sum.
    let mut reach = 0;
    for low in CardSet(set.0 & values_below(v)).iter() {
        reach += u32::from(VALUE_BY_INDEX.get(low.index()).copied().unwrap_or(0));
        if reach >= v {
            return None;
        }
    }
    Some(same)
}

/// K: the legal capture sets of `card` played on `floor` (§4). The empty set is a trail.
pub fn capture_sets(options: &Options, floor: &Layout, card: Card) -> CaptureSets {
    if floor.is_empty() {
        return smallvec![CardSet::EMPTY];
    }
    let rank = card.rank();
    if rank == Some(Rank::Jack) || is_special_seven(options, card) {
        return smallvec![floor.set()];
    }
    // The same-rank cards as a mask (one test per floor card below, no list).
    let same = rank.map_or(CardSet::EMPTY, |r| floor.set().of_rank(r));
    let parts: CaptureSets = if same.is_empty() {
        smallvec![CardSet::EMPTY]
    } else {
        match options.same_rank_capture {
            // One part per same-rank card, in floor order.
            // Pushed one by one: `collect` into a SmallVec goes through its slow generic `extend`.
            SameRank::One => {
                let mut parts = CaptureSets::new();
                for &c in floor.cards() {
                    if same.contains(c) {
                        parts.push(CardSet::from_cards([c]));
                    }
                }
                parts
            }
            SameRank::All => smallvec![same],
        }
    };
    let Some(v) = value(card) else {
        return parts; // Q or K: same rank only.
    };
    // A group of two or more cards adding up to `v` holds only cards worth less than `v`: the
    // others are left out, and when those left cannot reach `v` there is no sum to look for.
    // Those cards are a mask (ranks 2 to v-1 are the low bits, aces the top four): the sums
    // found do not depend on the candidates' order (`sum_captures` returns one group as itself
    // and several unions sorted).
    // In increasing value (aces, worth 1, first), as `sum_captures` walks them fastest.
    let below = floor.set().0 & values_below(v);
    let mut candidates = Valued::new();
    let mut reach = 0;
    for part in [below & ACES, below & !ACES] {
        for c in CardSet(part).iter() {
            let cv = u32::from(VALUE_BY_INDEX.get(c.index()).copied().unwrap_or(0));
            candidates.push((c, cv));
            reach += cv;
        }
    }
    if reach < v {
        return parts;
    }
    let rule = match options.sum_capture {
        SumCapture::Maximal => SumRule::Maximal,
        SumCapture::Optional => SumRule::Optional,
    };
    let sums = sum_captures(&candidates, v, 2, rule);
    // The sums are distinct, and so are the parts: with either side only the empty set, the
    // other is the answer.
    if parts[..] == [CardSet::EMPTY] {
        return sums;
    }
    if sums[..] == [CardSet::EMPTY] {
        return parts;
    }
    combine(&parts, &sums)
}

/// Card points of one card, in half-points (§5, §7, R27): the points of a pile holding only that
/// card, so the table is written once, in [`pile_points`].
pub fn card_points(options: &Options, card: Card) -> i64 {
    pile_points(options, CardSet::from_cards([card]))
}

/// Card points of a pile, in half-points (§5, §7, R27), counted on the set's masks: every deal
/// scores two piles, and card by card this was a twentieth of a playout. The joker (in no pack
/// of the family) counts 0.
pub fn pile_points(options: &Options, pile: CardSet) -> i64 {
    let rank = |rank: Rank| i64::from(pile.of_rank(rank).0.count_ones());
    let holds = |rank: Rank, suit: Suit| i64::from(pile.contains(Card::new(rank, suit)));
    if options.ruleset == Ruleset::Syria {
        let jacks = 25 * rank(Rank::Jack);
        return match options.syria_card_points {
            SyriaCardPoints::JOnly => jacks,
            SyriaCardPoints::Full => {
                jacks
                    + 6 * rank(Rank::Queen)
                    + 8 * rank(Rank::King)
                    + 6 * holds(Rank::Ten, Suit::Diamonds)
                    + 4 * holds(Rank::Two, Suit::Clubs)
                    + 2 * rank(Rank::Ace)
            }
        };
    }
    6 * holds(Rank::Ten, Suit::Diamonds)
        + 4 * holds(Rank::Two, Suit::Clubs)
        + 2 * (rank(Rank::Ace) + rank(Rank::Jack))
}

fn numerals_total(cards: &[Card]) -> Option<u32> {
    cards.iter().map(|c| value(*c)).sum()
}

/// Yemen condition (c), R28: the cards split into >= 2 groups of equal total below 10.
fn yemen_split(cards: &[Card]) -> bool {
    let Some(total) = numerals_total(cards) else {
        return false;
    };
    let values: Vec<u32> = cards.iter().filter_map(|c| value(*c)).collect();
    (2..=values.len()).any(|groups| {
        let t = total / groups as u32;
        t * groups as u32 == total && t < 10 && t > 0 && partition(&values, t, groups)
    })
}

/// Can `values` be split into `groups` groups each adding up to `t`?
fn partition(values: &[u32], t: u32, groups: usize) -> bool {
    fn fill(
        values: &[u32],
        used: &mut Vec<bool>,
        t: u32,
        left: u32,
        groups: usize,
        start: usize,
    ) -> bool {
        if groups == 0 {
            return used.iter().all(|u| *u);
        }
        if left == 0 {
            return fill(values, used, t, t, groups - 1, 0);
        }
        for i in start..values.len() {
            if !used[i] && values[i] <= left {
                used[i] = true;
                if fill(values, used, t, left - values[i], groups, i + 1) {
                    return true;
                }
                used[i] = false;
                if left == t {
                    // The first card of a group is the lowest unused one: no other order to try.
                    return false;
                }
            }
        }
        false
    }
    let mut used = vec![false; values.len()];
    fill(values, &mut used, t, t, groups, 0)
}

/// The bonus of a capture, in half-points (§4.5, §7). `before` is the floor before the play.
pub fn bonus(options: &Options, card: Card, before: &[Card], captured: CardSet) -> i64 {
    bonus_on(
        options,
        card,
        before,
        CardSet::from_cards(before.iter().copied()),
        captured,
    )
}

/// [`bonus`] where the floor's set is known (`before_set`, the cards of `before`): the state
/// keeps it, and a capture built it again card by card.
pub fn bonus_on(
    options: &Options,
    card: Card,
    before: &[Card],
    before_set: CardSet,
    captured: CardSet,
) -> i64 {
    let cleared = is_sweep(before_set, captured);
    let rank = card.rank();
    let jack = rank == Some(Rank::Jack);
    let lone = |r: Rank| before.len() == 1 && before[0].rank() == Some(r);
    let special = is_special_seven(options, card);
    match options.basra_rule {
        BasraRule::Egypt | BasraRule::Ethiopia | BasraRule::Yemen => {
            if !cleared {
                return 0;
            }
            if jack {
                let yemen = options.basra_rule == BasraRule::Yemen;
                return if yemen && lone(Rank::Jack) { 40 } else { 0 };
            }
            if special {
                let total = numerals_total(before);
                let ok = match options.basra_rule {
                    BasraRule::Yemen => {
                        total.is_some_and(|t| t < 10)
                            || before.iter().all(|c| {
                                matches!(c.rank(), Some(Rank::Ten | Rank::Queen | Rank::King))
                            })
                            || yemen_split(before)
                    }
                    _ => total.is_some_and(|t| t <= 10),
                };
                return if ok { 20 } else { 0 };
            }
            if options.basra_rule == BasraRule::Ethiopia
                && rank == Some(Rank::Queen)
                && lone(Rank::Queen)
            {
                return 0;
            }
            20
        }
        BasraRule::LebanonA | BasraRule::LebanonB => {
            let max = if options.basra_rule == BasraRule::LebanonA {
                2
            } else {
                1
            };
            if !cleared {
                return 0;
            }
            if jack {
                return if lone(Rank::Jack) { 20 } else { 0 };
            }
            if before.len() <= max { 20 } else { 0 }
        }
        BasraRule::Pairing => {
            let Some(r) = rank else { return 0 };
            if !cleared || jack || !lone(r) {
                return 0;
            }
            let worth = match options.pairing_value {
                PairingValue::DoubleValue => 2 * i64::from(value(card).unwrap_or(10)),
                PairingValue::SeedFlat if r == Rank::Seven => 14,
                PairingValue::SeedFlat => 20,
            };
            2 * worth
        }
        BasraRule::Syria => {
            let Some(r) = rank else { return 0 };
            let doubles = match r {
                Rank::Jack => true,
                Rank::Queen | Rank::King => options.syria_double == SyriaDouble::Jqk,
                _ => false,
            };
            if cleared && doubles && lone(r) {
                card_points(options, card) + card_points(options, before[0])
            } else {
                0
            }
        }
    }
}

/// The scoring of one deal, in points (half-points divided by 2), per side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct DealScore {
    /// Cards in each side's pile.
    pub cards: Vec<usize>,
    /// Majority award.
    pub majority: Vec<f64>,
    /// Card points.
    pub card_points: Vec<f64>,
    /// Basra (and pairing / doubling) bonuses.
    pub bonuses: Vec<f64>,
    /// Deal total.
    pub total: Vec<f64>,
    /// Majority awards carried to the next deal (Egypt ties).
    pub carried: u32,
}

fn half(x: i64) -> f64 {
    x as f64 / 2.0
}

/// Scores one deal from the two sides' piles and bonuses (half-points): the majority award with
/// Egypt's carry of tied awards (R8), card points and bonuses. Returns the deal's totals in
/// half-points and its public score; `carry` is the count of tied awards carried, updated.
pub fn score_deal(
    options: &Options,
    piles: &[CardSet],
    bonus: &[i64],
    carry: &mut u32,
) -> ([i64; 2], DealScore) {
    let mut score = DealScore {
        cards: Vec::new(),
        majority: Vec::new(),
        card_points: Vec::new(),
        bonuses: Vec::new(),
        total: Vec::new(),
        carried: 0,
    };
    let total = score_deal_into(options, piles, bonus, carry, &mut score);
    (total, score)
}

/// [`score_deal`] written over an earlier score, reusing its lists (every deal allocated five of
/// them). Returns the deal's totals in half-points.
pub fn score_deal_into(
    options: &Options,
    piles: &[CardSet],
    bonus: &[i64],
    carry: &mut u32,
    score: &mut DealScore,
) -> [i64; 2] {
    let cards = [0, 1].map(|s| piles.get(s).map_or(0, |p| p.len()));
    let mut majority = [0i64; 2];
    let leader = match cards[0].cmp(&cards[1]) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    };
    match (options.majority, leader) {
        (Majority::Carry30, Some(s)) => {
            majority[s] = 60 * (1 + i64::from(*carry));
            *carry = 0;
        }
        (Majority::Carry30, None) => *carry += 1,
        (Majority::NoCarry3, Some(s)) => majority[s] = 6,
        (Majority::NoCarry3, None) => {}
    }
    let card_points = [0, 1].map(|s| piles.get(s).map_or(0, |p| pile_points(options, *p)));
    let bonus = [0, 1].map(|s| bonus.get(s).copied().unwrap_or(0));
    let total = [0, 1].map(|s| majority[s] + card_points[s] + bonus[s]);
    // Two sides, written in place.
    let DealScore {
        cards: cards_list,
        majority: majority_list,
        card_points: points_list,
        bonuses,
        total: total_list,
        carried,
    } = score;
    for (list, values) in [
        (majority_list, majority),
        (points_list, card_points),
        (bonuses, bonus),
        (total_list, total),
    ] {
        list.clear();
        list.extend(values.map(half));
    }
    cards_list.clear();
    cards_list.extend(cards);
    *carried = *carry;
    total
}

/// The game end in force for a game of a rubber where the sides have won `games_won` games (R24):
/// Seed's rubbers play every game to 150, Parlett's the decider at 2-2.
pub fn effective_end(options: &Options, games_won: &[u32]) -> GameEnd {
    match options.rubber {
        Rubber::None => options.game_end.clone(),
        Rubber::Seed => GameEnd::Target(150),
        Rubber::Parlett if games_won == [2, 2] => GameEnd::Target(150),
        Rubber::Parlett => options.game_end.clone(),
    }
}

/// After a deal: is the game decided by these totals (half-points) under `end`? `Some(Some(side))`
/// a win, `Some(None)` a draw, `None` play on. A ladder (R30) climbs `ladder_step` while both sides
/// pass its step; equal totals at the last step are a draw whatever the tie rule.
pub fn game_decision(
    end: &GameEnd,
    tie_rule: TieRule,
    totals: [i64; 2],
    ladder_step: &mut usize,
) -> Option<Option<usize>> {
    let [a, b] = totals;
    let higher = match a.cmp(&b) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    };
    match end {
        GameEnd::Target(t) => {
            let t = 2 * *t;
            if a < t && b < t {
                return None;
            }
            match (higher, tie_rule) {
                (Some(s), _) => Some(Some(s)),
                (None, TieRule::Draw) => Some(None),
                (None, TieRule::SuddenDeath) => None,
            }
        }
        GameEnd::Ladder(steps) => loop {
            let t = 2 * steps.get(*ladder_step).copied().unwrap_or(0);
            match (a >= t, b >= t) {
                (false, false) => return None,
                (true, false) => return Some(Some(0)),
                (false, true) => return Some(Some(1)),
                (true, true) if *ladder_step + 1 >= steps.len() => return Some(higher),
                (true, true) => *ladder_step += 1,
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The card-point tables of R27 card by card, in half-points: (ruleset, Syria table, card).
    fn table(syria: Option<SyriaCardPoints>, card: Card) -> i64 {
        let (rank, suit) = (card.rank().unwrap(), card.suit().unwrap());
        match (syria, rank, suit) {
            (Some(_), Rank::Jack, _) => 25,
            (Some(SyriaCardPoints::JOnly), _, _) => 0,
            (Some(_), Rank::Queen, _) => 6,
            (Some(_), Rank::King, _) => 8,
            (_, Rank::Ten, Suit::Diamonds) => 6,
            (_, Rank::Two, Suit::Clubs) => 4,
            (_, Rank::Ace, _) => 2,
            (None, Rank::Jack, _) => 2,
            _ => 0,
        }
    }

    #[test]
    fn pile_points_add_up_the_r27_tables_card_by_card() {
        let defaults: Options = serde_json::from_value(
            super::super::rules::option_specs()
                .into_iter()
                .map(|spec| (spec.id, spec.default))
                .collect(),
        )
        .expect("the declared defaults make options");
        let mut rng = crate::rng::PlayoutRng::new(27);
        for (ruleset, syria) in [
            (Ruleset::Egypt, None),
            (Ruleset::Syria, Some(SyriaCardPoints::Full)),
            (Ruleset::Syria, Some(SyriaCardPoints::JOnly)),
        ] {
            let options = Options {
                ruleset,
                syria_card_points: syria.unwrap_or(SyriaCardPoints::Full),
                ..defaults.clone()
            };
            let full = CardSet((1u64 << 52) - 1);
            let mut piles = vec![CardSet::EMPTY, full, CardSet::from_cards([Card::JOKER])];
            piles.extend((0..200).map(|_| CardSet(rng.next_u64() & full.0)));
            for pile in piles {
                let expected: i64 = pile
                    .iter()
                    .filter(|c| !c.is_joker())
                    .map(|c| table(syria, c))
                    .sum();
                assert_eq!(
                    pile_points(&options, pile),
                    expected,
                    "{ruleset:?} {pile:?}"
                );
            }
        }
    }

    #[test]
    fn a_forced_capture_is_the_one_capture_set() {
        let defaults: Options = serde_json::from_value(
            super::super::rules::option_specs()
                .into_iter()
                .map(|spec| (spec.id, spec.default))
                .collect(),
        )
        .expect("the declared defaults make options");
        let mut rng = crate::rng::PlayoutRng::new(52);
        let pack = PackSpec::standard().cards();
        let mut forced = 0;
        for round in 0..20_000 {
            let options = Options {
                same_rank_capture: [SameRank::One, SameRank::All][round % 2],
                sum_capture: [SumCapture::Maximal, SumCapture::Optional][round / 2 % 2],
                seven_d_special: round / 4 % 2 == 0,
                ..defaults.clone()
            };
            let mut cards = pack.clone();
            for i in (1..cards.len()).rev() {
                cards.swap(i, rng.below(i + 1));
            }
            let floor = Layout::of(cards[1..1 + rng.below(9)].to_vec());
            let card = cards[0];
            if let Some(set) = forced_capture(&options, &floor, card) {
                forced += 1;
                assert_eq!(
                    capture_sets(&options, &floor, card)[..],
                    [set],
                    "{card} on {:?}",
                    floor.cards()
                );
            }
        }
        assert!(forced > 10_000, "{forced}");
    }

    #[test]
    fn the_value_table_is_the_value_of_each_card() {
        for (index, table_value) in VALUE_BY_INDEX.iter().enumerate() {
            let card = Card::from_index(index).unwrap();
            assert_eq!(u32::from(*table_value), value(card).unwrap_or(0), "{card}");
        }
    }

    #[test]
    fn values_below_masks_exactly_the_cards_worth_less() {
        for v in 0..=11 {
            for index in 0..Card::COUNT {
                let card = Card::from_index(index).unwrap();
                let below = value(card).is_some_and(|cv| cv < v);
                assert_eq!(
                    values_below(v) >> index & 1 == 1,
                    below,
                    "{card} against {v}"
                );
            }
        }
    }
}
