//! Determinization: dealing the pieces a seat cannot see back into the places it cannot see into,
//! uniformly among the deals consistent with what it has seen.
//!
//! A family lists the unseen pieces, the places that hold them (their sizes are public) and, per
//! place, the classes of piece it may hold (a seat that failed to follow a suit holds none of it).
//! [`redeal`] then draws one assignment uniformly among all that respect the sizes and classes:
//! first by rejection (exact, and fast when constraints are loose); when a few draws all fail, by
//! exact counting over the classes (the free places merged into one, since they accept
//! everything) where few places are constrained, else by a swap chain whose stationary law is the
//! same uniform one (many constrained places, as in a twelve-seat Twenty-Two).

use crate::cards::{Card, CardSet, Suit};
use crate::rng::{GameRng, MAX_SEED, PlayoutRng};
use std::collections::HashMap;

/// The class of a card for void constraints: its suit (S, H, D, C = 0..3), 4 for a joker.
pub fn suit_class(card: Card) -> usize {
    card.suit().map_or(4, |s| s as usize)
}

/// The class bit of a suit.
pub fn suit_bit(suit: Suit) -> u64 {
    1 << (suit as usize)
}

/// Records what one play shows when suit must be followed: a card of another suit than `led`
/// (that is not `exempt`, such as a joker playable at any time) means no card of `led` is left.
pub fn note_follow(voids: &mut [u64], seat: usize, led: Suit, card: Card, exempt: bool) {
    if !exempt
        && card.suit() != Some(led)
        && let Some(v) = voids.get_mut(seat)
    {
        *v |= suit_bit(led);
    }
}

/// Redeals the cards of card-set places (hands, a stock kept as a set), each with its allowed
/// suit classes (see [`suit_class`]): the same sizes, uniformly among the consistent deals.
pub fn redeal_sets(places: &[(CardSet, u64)], rng: &mut PlayoutRng) -> Option<Vec<CardSet>> {
    let pieces: Vec<Card> = places.iter().flat_map(|(set, _)| set.iter()).collect();
    let specs: Vec<Place> = places
        .iter()
        .map(|(set, allowed)| Place {
            size: set.len(),
            allowed: *allowed,
        })
        .collect();
    let dealt = redeal(&pieces, suit_class, &specs, rng)?;
    Some(dealt.into_iter().map(CardSet::from_cards).collect())
}

/// [`redeal_sets`] with one class per card (its index): `allowed` is then a card set's bits, for
/// constraints on single cards (a seat that cannot hold a given card).
pub fn redeal_cards(places: &[(CardSet, u64)], rng: &mut PlayoutRng) -> Option<Vec<CardSet>> {
    let pieces: Vec<Card> = places.iter().flat_map(|(set, _)| set.iter()).collect();
    let specs: Vec<Place> = places
        .iter()
        .map(|(set, allowed)| Place {
            size: set.len(),
            allowed: *allowed,
        })
        .collect();
    let dealt = redeal(&pieces, |c| c.index(), &specs, rng)?;
    Some(dealt.into_iter().map(CardSet::from_cards).collect())
}

/// Redeals the cards of the other seats' hands and of an ordered stock that `seat` cannot place,
/// uniformly (no constraint but the sizes): every card of `fixed` (a card whose place the seat
/// knows, such as a peeked bottom card) stays where it is, in a hand or at its stock position.
pub fn redeal_hands_and_stock(
    hands: &mut [CardSet],
    seat: usize,
    stock: &mut [Card],
    fixed: CardSet,
    rng: &mut PlayoutRng,
) -> Option<()> {
    redeal_hands_and_stock_by_class(hands, seat, stock, fixed, (|_| 0, ANY, ANY), rng)
}

/// [`redeal_hands_and_stock`] where a card's class decides where it may go: `(class, allowed in
/// a hand, allowed in the stock)` (a card known to be still in the stock, or known to have left
/// it, without its exact place).
pub fn redeal_hands_and_stock_by_class(
    hands: &mut [CardSet],
    seat: usize,
    stock: &mut [Card],
    fixed: CardSet,
    (class, in_hand, in_stock): (impl Fn(Card) -> usize, u64, u64),
    rng: &mut PlayoutRng,
) -> Option<()> {
    let others: Vec<usize> = (0..hands.len()).filter(|&s| s != seat).collect();
    let movable = |set: CardSet| CardSet(set.0 & !fixed.0);
    let mut pieces: Vec<Card> = others
        .iter()
        .flat_map(|&s| movable(hands[s]).iter())
        .collect();
    let slots: Vec<usize> = (0..stock.len())
        .filter(|&i| !fixed.contains(stock[i]))
        .collect();
    pieces.extend(slots.iter().map(|&i| stock[i]));
    let mut places: Vec<Place> = others
        .iter()
        .map(|&s| Place {
            size: movable(hands[s]).len(),
            allowed: in_hand,
        })
        .collect();
    places.push(Place {
        size: slots.len(),
        allowed: in_stock,
    });
    let mut dealt = redeal(&pieces, class, &places, rng)?;
    for (slot, card) in slots.into_iter().zip(dealt.pop()?) {
        stock[slot] = card;
    }
    for (s, cards) in others.into_iter().zip(dealt) {
        hands[s] = CardSet(hands[s].0 & fixed.0 | CardSet::from_cards(cards).0);
    }
    Some(())
}

/// Draws until `consistent` accepts (rejection: uniform over the consistent draws when `draw` is
/// uniform over a superset of them), for constraints finer than suit voids (must trump, must
/// overtrump, announced counts). `None` after 4096 refusals or when `draw` finds no deal.
pub fn draw_until<S>(
    rng: &mut PlayoutRng,
    mut draw: impl FnMut(&mut PlayoutRng) -> Option<S>,
    consistent: impl Fn(&S) -> bool,
) -> Option<S> {
    for _ in 0..4096 {
        let sample = draw(rng)?;
        if consistent(&sample) {
            return Some(sample);
        }
    }
    None
}

/// Draws a fresh seed for the chance still to come (the viewer cannot know the real one).
pub fn reseed(game_rng: &mut GameRng, rng: &mut PlayoutRng) {
    game_rng.seed = rng.next_u64() & MAX_SEED;
}

/// A class mask allowing every class.
pub const ANY: u64 = u64::MAX;

/// One place an unseen piece may lie in: a hand, a stock, a face-down pile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// How many unseen pieces it holds (public: a hand's size, the stock's count).
    pub size: usize,
    /// Bit `c` set when it may hold a piece of class `c`.
    pub allowed: u64,
}

impl Place {
    /// A place of `size` pieces with no constraint.
    pub fn free(size: usize) -> Place {
        Place { size, allowed: ANY }
    }
}

/// Rejection draws tried before counting or the swap chain.
const REJECTION_TRIES: usize = 64;
/// Classes (a place's `allowed` has one bit each; a higher class counts as the last).
const MAX_CLASSES: usize = 64;

/// Deals `pieces` into `places` (their sizes must sum to `pieces.len()`), uniformly among the
/// assignments where every piece lands in a place allowing its `class` (below 64: a card's
/// index serves, for constraints on single cards). Each place's
/// pieces come in a uniformly random order. `None` when no assignment exists (a state whose record
/// contradicts itself).
pub fn redeal<T: Copy>(
    pieces: &[T],
    class: impl Fn(T) -> usize,
    places: &[Place],
    rng: &mut PlayoutRng,
) -> Option<Vec<Vec<T>>> {
    if places.iter().map(|p| p.size).sum::<usize>() != pieces.len() {
        return None;
    }
    let class = |t: T| class(t).min(MAX_CLASSES - 1);
    let mut pool = pieces.to_vec();
    for _ in 0..REJECTION_TRIES {
        shuffle(&mut pool, rng);
        let mut out = Vec::with_capacity(places.len());
        let mut rest = pool.as_slice();
        let mut fits = true;
        for place in places {
            let (mine, after) = rest.split_at(place.size);
            if place.allowed != ANY && mine.iter().any(|t| place.allowed & (1 << class(*t)) == 0) {
                fits = false;
                break;
            }
            out.push(mine.to_vec());
            rest = after;
        }
        if fits {
            return Some(out);
        }
    }
    let states: usize = places
        .iter()
        .filter(|p| p.allowed != ANY)
        .map(|p| p.size + 1)
        .try_fold(1usize, |acc, c| acc.checked_mul(c))
        .unwrap_or(usize::MAX);
    if states <= MAX_COUNTED_STATES {
        exact(pieces, &class, places, rng)
    } else {
        swap_chain(pieces, &class, places, rng)
    }
}

/// Above this many capacity combinations of the constrained places, counting costs more than
/// the swap chain.
const MAX_COUNTED_STATES: usize = 512;
/// Sweeps of the swap chain (proposals per piece).
const SWEEPS: usize = 64;

/// Tight constraints over many places: a Metropolis chain whose stationary law is uniform over
/// the consistent assignments (a proposal swaps two pieces of different places, kept when both
/// classes are allowed where they land), started from the actual deal (`pieces` listed place by
/// place, which families do) and run for [`SWEEPS`] sweeps, so the start is forgotten.
fn swap_chain<T: Copy>(
    pieces: &[T],
    class: &impl Fn(T) -> usize,
    places: &[Place],
    rng: &mut PlayoutRng,
) -> Option<Vec<Vec<T>>> {
    let mut owner: Vec<usize> = Vec::with_capacity(pieces.len());
    for (i, place) in places.iter().enumerate() {
        owner.extend(std::iter::repeat_n(i, place.size));
    }
    let allows = |place: usize, piece: T| {
        let allowed = places[place].allowed;
        allowed == ANY || allowed & (1 << class(piece)) != 0
    };
    let mut deal = pieces.to_vec();
    if (0..deal.len()).any(|i| !allows(owner[i], deal[i])) {
        return None;
    }
    let n = deal.len();
    if n < 2 {
        return Some(split(&deal, places));
    }
    for _ in 0..SWEEPS * n {
        let (a, b) = (rng.below(n), rng.below(n));
        if owner[a] != owner[b] && allows(owner[a], deal[b]) && allows(owner[b], deal[a]) {
            deal.swap(a, b);
        }
    }
    let mut out = split(&deal, places);
    for place in &mut out {
        shuffle(place, rng);
    }
    Some(out)
}

/// Cuts a place-by-place list into its places.
fn split<T: Copy>(deal: &[T], places: &[Place]) -> Vec<Vec<T>> {
    let mut rest = deal;
    places
        .iter()
        .map(|place| {
            let (mine, after) = rest.split_at(place.size);
            rest = after;
            mine.to_vec()
        })
        .collect()
}

/// Uniform shuffle (Fisher-Yates).
pub fn shuffle<T>(items: &mut [T], rng: &mut PlayoutRng) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i + 1);
        items.swap(i, j);
    }
}

/// The exact sampler: counts completions class by class, over the constrained places' remaining
/// capacities (the free places pooled as one).
fn exact<T: Copy>(
    pieces: &[T],
    class: &impl Fn(T) -> usize,
    places: &[Place],
    rng: &mut PlayoutRng,
) -> Option<Vec<Vec<T>>> {
    let constrained: Vec<usize> = (0..places.len())
        .filter(|&i| places[i].allowed != ANY && places[i].size > 0)
        .collect();
    let mut by_class: Vec<Vec<T>> = vec![Vec::new(); MAX_CLASSES];
    for piece in pieces {
        by_class[class(*piece)].push(*piece);
    }
    let classes: Vec<usize> = (0..MAX_CLASSES)
        .filter(|&c| !by_class[c].is_empty())
        .collect();
    let counter = Counter {
        counts: classes.iter().map(|&c| by_class[c].len()).collect(),
        allowed: classes
            .iter()
            .map(|&c| {
                constrained
                    .iter()
                    .map(|&p| places[p].allowed & (1 << c) != 0)
                    .collect()
            })
            .collect(),
        memo: HashMap::new(),
    };
    let mut counter = counter;
    let mut caps: Vec<usize> = constrained.iter().map(|&p| places[p].size).collect();
    let free_total = pieces.len() - caps.iter().sum::<usize>();
    if counter.ways(0, &caps, free_total) <= 0.0 {
        return None;
    }
    let mut out: Vec<Vec<T>> = places.iter().map(|p| Vec::with_capacity(p.size)).collect();
    let mut free_pool: Vec<T> = Vec::with_capacity(free_total);
    let mut free_left = free_total;
    for (ci, &c) in classes.iter().enumerate() {
        // Draw how many of this class go to each constrained place, weighted by completions.
        let options = counter.splits(ci, &caps, free_left);
        let total: f64 = options.iter().map(|(_, w)| *w).sum();
        let mut pick = unit(rng) * total;
        let mut chosen = &options[options.len() - 1].0;
        for (split, weight) in &options {
            if pick < *weight {
                chosen = split;
                break;
            }
            pick -= weight;
        }
        let mut members = by_class[c].clone();
        shuffle(&mut members, rng);
        let mut at = 0;
        for (slot, &k) in chosen.iter().enumerate() {
            out[constrained[slot]].extend_from_slice(&members[at..at + k]);
            caps[slot] -= k;
            at += k;
        }
        free_left -= members.len() - at;
        free_pool.extend_from_slice(&members[at..]);
    }
    shuffle(&mut free_pool, rng);
    let mut rest = free_pool.as_slice();
    for (i, place) in places.iter().enumerate() {
        if !constrained.contains(&i) {
            let (mine, after) = rest.split_at(place.size);
            out[i].extend_from_slice(mine);
            rest = after;
        } else {
            shuffle(&mut out[i], rng);
        }
    }
    Some(out)
}

/// A uniform float in [0, 1).
fn unit(rng: &mut PlayoutRng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// Counts assignments of distinguishable pieces, class by class.
struct Counter {
    counts: Vec<usize>,
    /// Per class, per constrained place: may it hold the class.
    allowed: Vec<Vec<bool>>,
    memo: HashMap<(usize, Vec<usize>), f64>,
}

impl Counter {
    /// Ways to place classes `ci..` with these constrained capacities and `free` free slots.
    fn ways(&mut self, ci: usize, caps: &[usize], free: usize) -> f64 {
        if ci == self.counts.len() {
            return if free == 0 && caps.iter().all(|&c| c == 0) {
                1.0
            } else {
                0.0
            };
        }
        if let Some(w) = self.memo.get(&(ci, caps.to_vec())) {
            return *w;
        }
        let w = self.splits(ci, caps, free).iter().map(|(_, w)| w).sum();
        self.memo.insert((ci, caps.to_vec()), w);
        w
    }

    /// Every split of class `ci` over the constrained places (the rest to the free pool), with the
    /// number of completions each leaves.
    fn splits(&mut self, ci: usize, caps: &[usize], free: usize) -> Vec<(Vec<usize>, f64)> {
        let n = self.counts[ci];
        let mut out = Vec::new();
        let mut split = vec![0; caps.len()];
        self.enumerate(ci, caps, free, n, 0, &mut split, &mut out);
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn enumerate(
        &mut self,
        ci: usize,
        caps: &[usize],
        free: usize,
        left: usize,
        slot: usize,
        split: &mut Vec<usize>,
        out: &mut Vec<(Vec<usize>, f64)>,
    ) {
        if slot == caps.len() {
            if left > free {
                return;
            }
            // Distinguishable pieces: the multinomial of this split times the completions.
            let n = self.counts[ci];
            let mut coefficient = factorial(n) / factorial(left);
            for &k in split.iter() {
                coefficient /= factorial(k);
            }
            let rest: Vec<usize> = caps.iter().zip(split.iter()).map(|(c, k)| c - k).collect();
            let completions = self.ways(ci + 1, &rest, free - left);
            if completions > 0.0 {
                out.push((split.clone(), coefficient * completions));
            }
            return;
        }
        let most = if self.allowed[ci][slot] {
            left.min(caps[slot])
        } else {
            0
        };
        for k in 0..=most {
            split[slot] = k;
            self.enumerate(ci, caps, free, left - k, slot + 1, split, out);
        }
        split[slot] = 0;
    }
}

fn factorial(n: usize) -> f64 {
    (1..=n).map(|i| i as f64).product()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_classes_are_respected() {
        let mut rng = PlayoutRng::new(1);
        // Pieces 0..12, class = piece / 4 (three classes of four).
        let pieces: Vec<usize> = (0..12).collect();
        let places = [
            Place {
                size: 4,
                allowed: 0b001,
            },
            Place {
                size: 4,
                allowed: 0b110,
            },
            Place::free(4),
        ];
        for _ in 0..200 {
            let out = redeal(&pieces, |p| p / 4, &places, &mut rng).unwrap();
            assert_eq!(out[0].iter().filter(|p| **p / 4 == 0).count(), 4);
            assert!(out[1].iter().all(|p| *p >= 4));
            let mut all: Vec<usize> = out.concat();
            all.sort();
            assert_eq!(all, pieces);
        }
    }

    #[test]
    fn impossible_constraints_give_none() {
        let mut rng = PlayoutRng::new(2);
        let places = [
            Place {
                size: 3,
                allowed: 0b1,
            },
            Place::free(1),
        ];
        // Only two pieces of class 0 for a place that takes three of them.
        assert!(redeal(&[0, 0, 1, 1], |p| p, &places, &mut rng).is_none());
        assert!(redeal(&[0, 0], |p| p, &[Place::free(3)], &mut rng).is_none());
    }

    #[test]
    fn tight_constraints_are_sampled_uniformly() {
        // Two places of three; place 0 takes only class 0 or 1, place 1 anything. Pieces 0..6,
        // classes 0,0,1,2,2,2: place 0 gets three of {0,1,2}: exactly one assignment, and the
        // counting branch (rejection almost always fails here) must find it.
        let mut rng = PlayoutRng::new(3);
        let classes = [0, 0, 1, 2, 2, 2];
        let places = [
            Place {
                size: 3,
                allowed: 0b011,
            },
            Place::free(3),
        ];
        for _ in 0..50 {
            let out = redeal(&[0usize, 1, 2, 3, 4, 5], |p| classes[p], &places, &mut rng).unwrap();
            let mut first = out[0].clone();
            first.sort();
            assert_eq!(first, vec![0, 1, 2]);
        }
    }

    #[test]
    fn the_swap_chain_is_uniform() {
        // The same 36 consistent assignments as below, drawn by the chain started from one of them.
        let mut rng = PlayoutRng::new(5);
        let classes = [0, 0, 0, 0, 1, 1];
        let places = [
            Place {
                size: 2,
                allowed: 0b01,
            },
            Place::free(2),
            Place::free(2),
        ];
        let mut seen: HashMap<Vec<Vec<usize>>, usize> = HashMap::new();
        let draws = 36_000;
        for _ in 0..draws {
            let mut out =
                swap_chain(&[0usize, 1, 2, 3, 4, 5], &|p| classes[p], &places, &mut rng).unwrap();
            for place in &mut out {
                place.sort();
            }
            assert!(out[0].iter().all(|p| *p < 4));
            *seen.entry(out).or_default() += 1;
        }
        assert_eq!(seen.len(), 36);
        let expected = draws as f64 / 36.0;
        let chi_square: f64 = seen
            .values()
            .map(|&o| (o as f64 - expected).powi(2) / expected)
            .sum();
        assert!(chi_square < 66.6, "chi-square {chi_square}");
    }

    #[test]
    fn the_counting_branch_is_uniform() {
        // Place 0 (2 pieces) allows class 0 only; place 1 (2) and 2 (2) are free. Classes: pieces
        // 0..3 are class 0, 4 and 5 class 1. Consistent assignments: place 0 takes 2 of the 4
        // class-0 pieces (6 ways), the other 4 pieces split 2/2 over places 1 and 2 (6 ways): 36
        // equally likely. Check the counting branch alone against them.
        let mut rng = PlayoutRng::new(4);
        let classes = [0, 0, 0, 0, 1, 1];
        let places = [
            Place {
                size: 2,
                allowed: 0b01,
            },
            Place::free(2),
            Place::free(2),
        ];
        let mut seen: HashMap<Vec<Vec<usize>>, usize> = HashMap::new();
        let draws = 36_000;
        for _ in 0..draws {
            let mut out =
                exact(&[0usize, 1, 2, 3, 4, 5], &|p| classes[p], &places, &mut rng).unwrap();
            for place in &mut out {
                place.sort();
            }
            assert!(out[0].iter().all(|p| *p < 4));
            *seen.entry(out).or_default() += 1;
        }
        assert_eq!(seen.len(), 36);
        let expected = draws as f64 / 36.0;
        let chi_square: f64 = seen
            .values()
            .map(|&o| (o as f64 - expected).powi(2) / expected)
            .sum();
        // 35 degrees of freedom: the 0.999 quantile is 66.6.
        assert!(chi_square < 66.6, "chi-square {chi_square}");
    }
}
