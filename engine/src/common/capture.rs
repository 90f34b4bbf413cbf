//! Fishing-game building blocks: capturing from a shared face-up layout.
//!
//! A [`Layout`] holds the face-up cards in the order they arrived. A played card captures by
//! pairing (cards the game's mask accepts, tested against [`Layout::set`]: "makes ten" in Chinese
//! Ten, "same rank" in Basra) and/or by sums ([`sum_captures`]: disjoint groups of cards whose
//! values add up to the played card's value, as in Basra). A capture that empties the layout is a
//! sweep ([`is_sweep`]). At the end of a deal the cards left go to the last capturer
//! ([`LastCapture`]).
//!
//! When a play admits several capture sets, the player chooses one card at a time
//! ([`CaptureChoice`]), so that every legal list stays small (one action per layout card plus a
//! "stop here"). Games pass their own rules in (which cards pair, card values, which parts are
//! compulsory); nothing here knows a particular game.

use crate::cards::{Card, CardList, CardSet};
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;
use std::collections::HashSet;

/// Capture sets of one play. Nearly every play has at most a handful, so they live inline (a
/// list per play was a large share of Basra's playout time).
pub type CaptureSets = SmallVec<[CardSet; 4]>;

/// Candidate cards for sums with their values (a layout rarely holds more than 16 cards).
pub type Valued = SmallVec<[(Card, u32); 16]>;

/// The face-up cards of a fishing game, in the order they arrived on the table, with their set
/// kept alongside (every legal list asks which cards lie there). Serialized as the list alone.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Layout {
    cards: Vec<Card>,
    set: CardSet,
}

impl Serialize for Layout {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.cards.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Layout {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Vec::<Card>::deserialize(deserializer).map(Layout::of)
    }
}

impl schemars::JsonSchema for Layout {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        <Vec<Card>>::schema_name()
    }
    fn schema_id() -> std::borrow::Cow<'static, str> {
        <Vec<Card>>::schema_id()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <Vec<Card>>::json_schema(generator)
    }
}

impl Layout {
    /// An empty layout.
    pub fn new() -> Layout {
        Layout::default()
    }

    /// A layout of these cards, in this order.
    pub fn of(cards: Vec<Card>) -> Layout {
        let set = CardSet::from_cards(cards.iter().copied());
        Layout { cards, set }
    }

    /// The cards in arrival order.
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }

    /// The cards as a set.
    pub fn set(&self) -> CardSet {
        self.set
    }

    /// Number of cards.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// True if no card lies there.
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// True if the card lies there.
    pub fn contains(&self, card: Card) -> bool {
        self.set.contains(card)
    }

    /// Puts a card face up (a trail, or a card dealt or flipped to the layout).
    pub fn add(&mut self, card: Card) {
        self.cards.push(card);
        self.set.insert(card);
    }

    /// Removes the cards of `cards` that lie there (keeping the order of the others) and returns
    /// the set actually removed.
    pub fn take(&mut self, cards: CardSet) -> CardSet {
        let taken = CardSet(self.set.0 & cards.0);
        if !taken.is_empty() {
            // Compacted by hand: `retain` costs several times this on a list of a few cards.
            // Every card is written to the next kept slot and counted only if kept: no branch
            // per card to mispredict where the taken ones lie.
            let mut kept = 0;
            for i in 0..self.cards.len() {
                let card = self.cards[i];
                self.cards[kept] = card;
                kept += usize::from(!taken.contains(card));
            }
            self.cards.truncate(kept);
            self.set = CardSet(self.set.0 & !taken.0);
        }
        taken
    }

    /// Lays exactly these cards, in this order (a new deal's layout), in the list's memory.
    pub fn set_cards(&mut self, cards: &[Card]) {
        self.cards.clear();
        self.cards.extend_from_slice(cards);
        self.set = CardSet::from_cards(cards.iter().copied());
    }

    /// Removes every card, keeping the list's memory for the next deal.
    pub fn clear(&mut self) {
        self.cards.clear();
        self.set = CardSet::EMPTY;
    }

    /// Removes every card and returns them in arrival order.
    pub fn take_all(&mut self) -> Vec<Card> {
        self.set = CardSet::EMPTY;
        std::mem::take(&mut self.cards)
    }
}

/// Every group of at least `min_size` cards among `candidates` (card, value) whose values add up
/// to exactly `target`. Values must be positive; the number of groups is bounded by the number of
/// subsets with that sum, small for card values up to 10. The groups come in no particular order
/// (callers sort what they keep).
pub fn sum_groups(candidates: &[(Card, u32)], target: u32, min_size: usize) -> CaptureSets {
    // In increasing value order a walk stops at the first card worth more than what is left.
    if !candidates.is_sorted_by_key(|c| c.1) {
        let mut sorted: Valued = candidates.iter().copied().collect();
        sorted.sort_by_key(|c| c.1);
        return sum_groups(&sorted, target, min_size);
    }
    fn walk(
        cands: &[(Card, u32)],
        start: usize,
        left: u32,
        size: usize,
        set: CardSet,
        min_size: usize,
        out: &mut CaptureSets,
    ) {
        for i in start..cands.len() {
            let (card, value) = cands[i];
            if value > left {
                break;
            }
            if value == 0 {
                continue;
            }
            let mut next = set;
            next.insert(card);
            if value == left {
                if size + 1 >= min_size {
                    out.push(next);
                }
            } else {
                walk(cands, i + 1, left - value, size + 1, next, min_size, out);
            }
        }
    }
    let mut out = CaptureSets::new();
    if target > 0 {
        walk(candidates, 0, target, 0, CardSet::EMPTY, min_size, &mut out);
    }
    out
}

/// Upper bound on the number of distinct unions [`disjoint_unions`] explores; far above what any
/// 52-card layout produces (a few hundred), it only guards against misuse.
pub const UNION_LIMIT: usize = 1 << 16;

/// Groups up to which [`disjoint_unions`] lists every family of disjoint groups directly (at most
/// 2^12 unions, far below [`UNION_LIMIT`]); past it, a search that meets each union once.
const FEW_GROUPS: usize = 12;

/// Every union of pairwise disjoint `groups` (the empty union included), deduplicated, in a
/// deterministic order (by size, then by card mask).
pub fn disjoint_unions(groups: &[CardSet]) -> CaptureSets {
    // The usual plays have no group or one (a single sum): answer those without any search.
    match groups {
        [] => return smallvec::smallvec![CardSet::EMPTY],
        [one] if !one.is_empty() => return smallvec::smallvec![CardSet::EMPTY, *one],
        _ => {}
    }
    let mut sorted: CaptureSets = groups.iter().copied().collect();
    sorted.sort_by_key(|g| g.0);
    sorted.dedup();
    let mut out = if sorted.len() <= FEW_GROUPS {
        // A few groups (every real play): each family in index order, no hashing and no heap
        // sets; a union two families share is listed twice and deduplicated below.
        fn families(groups: &[CardSet], start: usize, union: u64, out: &mut CaptureSets) {
            out.push(CardSet(union));
            for (i, g) in groups.iter().enumerate().skip(start) {
                if union & g.0 == 0 {
                    families(groups, i + 1, union | g.0, out);
                }
            }
        }
        let mut out = CaptureSets::new();
        families(&sorted, 0, 0, &mut out);
        out
    } else {
        unions_searched(&sorted)
    };
    out.sort_by_key(|s| (s.len(), s.0));
    out.dedup();
    out
}

/// The distinct unions of disjoint families of `groups` (sorted, deduplicated), by a search that
/// meets each (union, next group) state once.
fn unions_searched(groups: &[CardSet]) -> CaptureSets {
    // States are (union, index of the last group used + 1); groups are added in index order so
    // each family of groups is built once. The sets hash card masks with a fixed multiplicative
    // hash: the output is sorted, so the hasher only has to be fast.
    let mut seen: HashSet<(u64, usize), MaskHash> = HashSet::default();
    let mut unions: HashSet<u64, MaskHash> = HashSet::default();
    let mut stack: Vec<(u64, usize)> = vec![(0, 0)];
    while let Some((union, next)) = stack.pop() {
        unions.insert(union);
        if unions.len() >= UNION_LIMIT {
            break;
        }
        for (i, g) in groups.iter().enumerate().skip(next) {
            if union & g.0 == 0 {
                let state = (union | g.0, i + 1);
                if seen.insert(state) {
                    stack.push(state);
                }
            }
        }
    }
    unions.into_iter().map(CardSet).collect()
}

/// A fast deterministic hasher for card masks and small integers (Fx-style multiply-rotate).
#[derive(Default, Clone, Copy)]
struct MaskHasher(u64);

impl std::hash::Hasher for MaskHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0.rotate_left(5) ^ value).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_usize(&mut self, value: usize) {
        self.write_u64(value as u64);
    }
}

type MaskHash = std::hash::BuildHasherDefault<MaskHasher>;

/// How sum captures are constrained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SumRule {
    /// The groups taken must cover as many cards as possible (ties: any of the largest).
    Maximal,
    /// Any family of disjoint groups, none included.
    Optional,
}

/// The sum parts a card of value `target` may take from `candidates`: unions of disjoint groups
/// of at least `min_size` cards each adding up to `target`. Under [`SumRule::Maximal`] only the
/// largest unions (the empty set when no group exists); under [`SumRule::Optional`] all of them.
pub fn sum_captures(
    candidates: &[(Card, u32)],
    target: u32,
    min_size: usize,
    rule: SumRule,
) -> CaptureSets {
    let groups = sum_groups(candidates, target, min_size);
    // No group or one (nearly every play): the answer without the union search and its counts.
    match (&groups[..], rule) {
        ([], _) => return smallvec::smallvec![CardSet::EMPTY],
        ([one], SumRule::Maximal) if !one.is_empty() => return smallvec::smallvec![*one],
        ([one], SumRule::Optional) if !one.is_empty() => {
            return smallvec::smallvec![CardSet::EMPTY, *one];
        }
        _ => {}
    }
    let mut unions = disjoint_unions(&groups);
    if rule == SumRule::Maximal {
        let best = unions.iter().map(|u| u.len()).max().unwrap_or(0);
        unions.retain(|u| u.len() == best);
    }
    unions
}

/// All capture sets `p ∪ s` for a compulsory part `p` among `parts` and a sum part `s` among
/// `sums` (each list holds the empty set where that part may be empty), deduplicated.
pub fn combine(parts: &[CardSet], sums: &[CardSet]) -> CaptureSets {
    let mut out = CaptureSets::new();
    for p in parts {
        for s in sums {
            let set = CardSet(p.0 | s.0);
            if !out.contains(&set) {
                out.push(set);
            }
        }
    }
    out
}

/// True if capturing `captured` from a layout holding `before` takes every card (a sweep).
pub fn is_sweep(before: CardSet, captured: CardSet) -> bool {
    !captured.is_empty() && before.0 & !captured.0 == 0
}

/// A capture being chosen one layout card at a time among the legal capture `options`.
///
/// While two or more options contain the selection the player acts again: add a card that keeps
/// some option reachable ([`CaptureChoice::addable`]) or stop if the selection itself is an
/// option ([`CaptureChoice::can_stop`]). As soon as exactly one option contains the selection,
/// it is the capture ([`CaptureChoice::resolved`]). The outcomes reachable are exactly `options`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CaptureChoice {
    /// The legal capture sets (the empty set stands for "capture nothing").
    pub options: CaptureSets,
    /// The cards selected so far.
    pub selection: CardSet,
}

impl CaptureChoice {
    /// A choice among `options` with nothing selected yet.
    pub fn new(options: CaptureSets) -> CaptureChoice {
        CaptureChoice {
            options,
            selection: CardSet::EMPTY,
        }
    }

    fn open(&self) -> impl Iterator<Item = CardSet> + '_ {
        let sel = self.selection.0;
        self.options
            .iter()
            .copied()
            .filter(move |o| o.0 & sel == sel)
    }

    /// The capture, once exactly one option contains the selection.
    pub fn resolved(&self) -> Option<CardSet> {
        let mut open = self.open();
        let first = open.next()?;
        open.next().is_none().then_some(first)
    }

    /// The cards that may be added to the selection, as a set.
    pub fn addable_set(&self) -> CardSet {
        CardSet(self.open().fold(0u64, |acc, o| acc | o.0) & !self.selection.0)
    }

    /// The cards (in the given layout order) that may be added to the selection.
    pub fn addable(&self, order: &[Card]) -> CardList {
        crate::cards::in_order(order, self.addable_set())
    }

    /// True if the selection itself is an option ("take exactly these").
    pub fn can_stop(&self) -> bool {
        self.options.contains(&self.selection)
    }

    /// Adds a card if that keeps an option reachable; false (and no change) otherwise.
    pub fn select(&mut self, card: Card) -> bool {
        if self.selection.contains(card) {
            return false;
        }
        let mut next = self.selection;
        next.insert(card);
        if self.options.iter().any(|o| o.0 & next.0 == next.0) {
            self.selection = next;
            true
        } else {
            false
        }
    }
}

/// Who made the last capture of a deal (a seat or a side, as the game counts them).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(transparent)]
pub struct LastCapture(pub Option<usize>);

impl LastCapture {
    /// Records a capture by `who`.
    pub fn record(&mut self, who: usize) {
        self.0 = Some(who);
    }

    /// At the end of a deal: the cards left on the layout and who takes them (`None` when nobody
    /// captured all deal, in which case the game decides what happens to them). Empties the layout.
    pub fn take_rest(&self, layout: &mut Layout) -> (Option<usize>, Vec<Card>) {
        (self.0, layout.take_all())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(list: &str) -> Vec<Card> {
        Card::parse_list(list).unwrap()
    }

    fn set(list: &str) -> CardSet {
        CardSet::from_cards(cards(list))
    }

    fn valued(list: &str) -> Vec<(Card, u32)> {
        cards(list)
            .into_iter()
            .map(|c| {
                let v = match c.rank().unwrap().value() {
                    14 => 1,
                    v if v <= 10 => u32::from(v),
                    _ => 0,
                };
                (c, v)
            })
            .collect()
    }

    fn sets(list: &[&str]) -> CaptureSets {
        list.iter().map(|l| set(l)).collect()
    }

    fn same(mut a: CaptureSets, mut b: CaptureSets) -> bool {
        a.sort_by_key(|s| s.0);
        b.sort_by_key(|s| s.0);
        a == b
    }

    #[test]
    fn layout_keeps_arrival_order_and_takes_cards() {
        let mut layout = Layout::of(cards("3S 8D KC"));
        layout.add(cards("2H")[0]);
        assert_eq!(layout.cards(), &cards("3S 8D KC 2H")[..]);
        assert_eq!(layout.take(set("8D 2H 9C")), set("8D 2H"));
        assert_eq!(layout.cards(), &cards("3S KC")[..]);
        assert!(layout.contains(cards("KC")[0]));
        assert_eq!(layout.take_all(), cards("3S KC"));
        assert!(layout.is_empty());
    }

    #[test]
    fn sum_groups_enumerate_exact_subsets() {
        let cases: [(&str, u32, usize, &[&str]); 4] = [
            ("AS 2H 6C 4D 5C", 9, 2, &["AS 2H 6C", "4D 5C"]),
            ("AS 2H 6C 4D 5C", 5, 2, &["AS 4D"]),
            ("AS 2H 6C 4D 5C", 5, 1, &["AS 4D", "5C"]),
            ("7S 8H", 3, 2, &[]),
        ];
        for (floor, target, min, expected) in cases {
            let got = sum_groups(&valued(floor), target, min);
            assert!(
                same(got.clone(), sets(expected)),
                "{floor} {target}: {got:?}"
            );
        }
    }

    #[test]
    fn disjoint_unions_cover_every_family_once() {
        let groups = sets(&["AS 8H", "4D 5C", "AS 3C 5C"]);
        let got = disjoint_unions(&groups);
        let expected = sets(&["", "AS 8H", "4D 5C", "AS 3C 5C", "AS 8H 4D 5C"]);
        assert!(same(got.clone(), expected), "{got:?}");
        assert_eq!(got[0], CardSet::EMPTY);
    }

    /// The direct listing of a few groups' families and the search agree (sorted, deduplicated),
    /// and sum groups are every subset of at least `min_size` cards with the sum, whatever the
    /// candidates' order: checked against brute force over seeded random floors.
    #[test]
    fn unions_and_groups_agree_with_brute_force() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for _ in 0..3000 {
            let pack: Vec<Card> = crate::cards::PackSpec::standard().cards();
            let size = 1 + next(12) as usize;
            let mut floor: Vec<(Card, u32)> = Vec::new();
            while floor.len() < size {
                let card = pack[next(52) as usize];
                let v = match card.rank().map(|r| r.value()) {
                    Some(14) => 1,
                    Some(v) if v <= 10 => u32::from(v),
                    _ => continue,
                };
                if !floor.iter().any(|(c, _)| *c == card) {
                    floor.push((card, v));
                }
            }
            let target = 1 + next(10) as u32;
            let min_size = 1 + next(2) as usize;
            let mut brute: Vec<u64> = (1u32..1 << floor.len())
                .filter(|mask| {
                    let chosen = floor.iter().enumerate().filter(|(i, _)| mask >> i & 1 == 1);
                    chosen.clone().count() >= min_size
                        && chosen.map(|(_, (_, v))| v).sum::<u32>() == target
                })
                .map(|mask| {
                    floor
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| mask >> i & 1 == 1)
                        .fold(0u64, |acc, (_, (c, _))| acc | 1 << c.index())
                })
                .collect();
            brute.sort_unstable();
            let mut groups: Vec<u64> = sum_groups(&floor, target, min_size)
                .iter()
                .map(|g| g.0)
                .collect();
            groups.sort_unstable();
            assert_eq!(groups, brute, "{floor:?} {target} {min_size}");
            let groups: Vec<CardSet> = groups.into_iter().map(CardSet).collect();
            let mut searched = unions_searched(&groups);
            searched.sort_by_key(|s| (s.len(), s.0));
            if groups.len() >= 2 {
                assert_eq!(disjoint_unions(&groups), searched, "{groups:?}");
            }
        }
    }

    #[test]
    fn sum_rules_maximal_and_optional() {
        let floor = valued("AS 4D 5C 8H");
        assert_eq!(
            sum_captures(&floor, 9, 2, SumRule::Maximal),
            sets(&["AS 4D 5C 8H"])
        );
        assert!(same(
            sum_captures(&floor, 9, 2, SumRule::Optional),
            sets(&["", "AS 8H", "4D 5C", "AS 4D 5C 8H"])
        ));
        // Ties for the maximum are all kept.
        let tied = valued("AS AH 2C");
        assert!(same(
            sum_captures(&tied, 3, 2, SumRule::Maximal),
            sets(&["AS 2C", "AH 2C"])
        ));
        // Nothing to sum: the empty part only.
        assert_eq!(
            sum_captures(&valued("9S"), 3, 2, SumRule::Maximal),
            sets(&[""])
        );
    }

    #[test]
    fn combine_crosses_parts_and_dedups() {
        let got = combine(&sets(&["3D"]), &sets(&["AS 2C", "AH 2C"]));
        assert_eq!(got, sets(&["3D AS 2C", "3D AH 2C"]));
        assert_eq!(combine(&sets(&[""]), &sets(&["", ""])), sets(&[""]));
    }

    #[test]
    fn sweeps_take_everything() {
        assert!(is_sweep(set("AS 2H"), set("AS 2H")));
        assert!(!is_sweep(set("AS 2H"), set("AS")));
        assert!(!is_sweep(CardSet::EMPTY, CardSet::EMPTY));
    }

    #[test]
    fn choice_steps_reach_exactly_the_options() {
        let order = cards("AS AH 2C 3D");
        let mut choice = CaptureChoice::new(sets(&["3D AS 2C", "3D AH 2C"]));
        assert_eq!(choice.resolved(), None);
        assert_eq!(choice.addable(&order).to_vec(), cards("AS AH 2C 3D"));
        assert!(!choice.can_stop());
        assert!(choice.select(cards("3D")[0]));
        assert_eq!(choice.resolved(), None);
        assert!(!choice.select(cards("9C")[0]));
        assert!(choice.select(cards("AH")[0]));
        assert_eq!(choice.resolved(), Some(set("3D AH 2C")));

        // Optional sums: stopping is allowed where the selection is itself an option.
        let mut optional = CaptureChoice::new(sets(&["", "AS 8H", "4D 5C", "AS 8H 4D 5C"]));
        assert!(optional.can_stop());
        assert!(optional.select(cards("AS")[0]));
        assert!(!optional.can_stop());
        assert_eq!(
            optional.addable(&cards("AS 4D 5C 8H")).to_vec(),
            cards("4D 5C 8H")
        );
        assert!(optional.select(cards("8H")[0]));
        assert!(optional.can_stop());
        assert!(optional.select(cards("4D")[0]));
        assert_eq!(optional.resolved(), Some(set("AS 8H 4D 5C")));
    }

    #[test]
    fn last_capturer_takes_the_rest() {
        let mut layout = Layout::of(cards("4C 9H"));
        let mut last = LastCapture::default();
        assert_eq!(last.take_rest(&mut layout.clone()).0, None);
        last.record(1);
        last.record(0);
        assert_eq!(last.take_rest(&mut layout), (Some(0), cards("4C 9H")));
        assert!(layout.is_empty());
    }
}
