//! The seeded randomness of a game.
//!
//! All chance in a game comes from [`GameRng`], which lives in the game state, so
//! `(game, players, options, seed, deals, actions)` replays to the identical state on every machine.
//! Each chance event (a shuffle, a dealer draw, ...) draws from its own ChaCha8 stream, numbered by the
//! event's position in the game: the state only needs the seed and an event counter, and the
//! algorithm (ChaCha8 + our own rejection sampling and Fisher-Yates) never changes with a dependency
//! upgrade (the golden deal tests pin it).

use rand::rngs::{ChaCha8Rng, Xoshiro256PlusPlus};
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// The largest seed a server draws or hands out: 2^53 - 1, exact in every JSON number (JavaScript
/// included), so a published seed replays after passing through `jq` or `JSON.parse`.
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// The replayable random source carried in a game state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRng {
    /// The game's seed.
    pub seed: u64,
    /// How many chance events have been drawn so far.
    pub events: u64,
}

impl GameRng {
    /// A fresh source for a game with this seed.
    pub fn new(seed: u64) -> GameRng {
        GameRng { seed, events: 0 }
    }

    /// Opens the next chance event: a random stream used for exactly one event.
    pub fn event(&mut self) -> ChanceEvent {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        rng.set_stream(self.events);
        self.events += 1;
        ChanceEvent { rng }
    }

    /// Shuffles `items` uniformly in one chance event.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        self.event().shuffle(items);
    }

    /// Picks a uniform index below `n` (n ≥ 1) in one chance event.
    pub fn pick(&mut self, n: usize) -> usize {
        self.event().below(n)
    }
}

/// The random stream of one chance event.
pub struct ChanceEvent {
    rng: ChaCha8Rng,
}

impl ChanceEvent {
    /// A uniform integer in `0..n` (n ≥ 1; 0 gives 0), by rejection sampling (no modulo bias).
    pub fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let n = n as u64;
        loop {
            let value = self.rng.next_u64();
            // Values at or above the largest multiple of n that fits are redrawn. That bound lies
            // above u64::MAX - n, so only a value up there needs it computed (a division): the
            // two divisions of every draw were most of a shuffle's time.
            if value <= u64::MAX - n || value < u64::MAX - (u64::MAX % n) {
                return remainder(value, n) as usize;
            }
        }
    }

    /// Fisher-Yates shuffle, uniform over all permutations.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// Divisors with a precomputed remainder by multiplication: every shuffle of up to this many
/// items (a pack, or two).
const FAST_REMAINDER_MAX: u64 = 256;

/// ceil(2^128 / d) for each divisor d from 2 to [`FAST_REMAINDER_MAX`] (0 and 1 unused).
static REMAINDER_FACTORS: [u128; FAST_REMAINDER_MAX as usize + 1] = remainder_factors();

const fn remainder_factors() -> [u128; FAST_REMAINDER_MAX as usize + 1] {
    let mut factors = [0u128; FAST_REMAINDER_MAX as usize + 1];
    let mut d = 2;
    while d <= FAST_REMAINDER_MAX as usize {
        factors[d] = u128::MAX / d as u128 + 1;
        d += 1;
    }
    factors
}

/// `value % d` (d ≥ 2), exactly, by multiplications where `d` has a precomputed factor (Lemire,
/// Kaser and Kurz, "Faster remainder by direct computation", 2019: with c = ceil(2^128 / d),
/// value % d = ((c * value) mod 2^128) * d / 2^128), by a division otherwise.
fn remainder(value: u64, d: u64) -> u64 {
    if d > FAST_REMAINDER_MAX {
        return value % d;
    }
    let fraction = REMAINDER_FACTORS[d as usize].wrapping_mul(u128::from(value));
    let d = u128::from(d);
    // The top 64 bits of the 192-bit product fraction * d, from its two 64-bit halves.
    let high = (fraction >> 64) * d;
    let carry = (u128::from(fraction as u64) * d) >> 64;
    ((high + carry) >> 64) as u64
}

/// A small, fast, seeded generator for bots, searches and random playouts (not for game chance,
/// and nothing stored depends on its draws: a bot's choices are kept as actions). Xoshiro256++:
/// 32 bytes of state and a few instructions per draw, where a ChaCha stream's first draw computes
/// four blocks, which weighed on every short playout.
#[derive(Debug, Clone)]
pub struct PlayoutRng(Xoshiro256PlusPlus);

impl PlayoutRng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> PlayoutRng {
        PlayoutRng(Xoshiro256PlusPlus::seed_from_u64(seed))
    }

    /// A uniform integer in `0..n` (n ≥ 1).
    pub fn below(&mut self, n: usize) -> usize {
        // Lemire's multiply-shift: plenty uniform for choosing among a few dozen actions.
        ((self.0.next_u32() as u64 * n as u64) >> 32) as usize
    }

    /// A raw 64-bit value.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_events() {
        let mut a = GameRng::new(42);
        let mut b = GameRng::new(42);
        let mut xs: Vec<u32> = (0..52).collect();
        let mut ys = xs.clone();
        a.shuffle(&mut xs);
        b.shuffle(&mut ys);
        assert_eq!(xs, ys);
        assert_eq!(a.pick(7), b.pick(7));
        assert_eq!(a.events, 2);
    }

    #[test]
    fn golden_shuffle_is_pinned() {
        // Pins ChaCha8 + our Fisher-Yates: if this changes, every stored replay changes.
        let mut rng = GameRng::new(42);
        let mut xs: Vec<u32> = (0..10).collect();
        rng.shuffle(&mut xs);
        assert_eq!(xs, GOLDEN_42);
    }

    const GOLDEN_42: [u32; 10] = [1, 5, 9, 6, 3, 2, 0, 8, 4, 7];

    #[test]
    fn the_remainder_by_multiplication_is_the_remainder() {
        let mut rng = ChaCha8Rng::seed_from_u64(12);
        for d in 2..=FAST_REMAINDER_MAX + 2 {
            let edges = [0, 1, d - 1, d, d + 1, u64::MAX, u64::MAX - 1, u64::MAX - d];
            let top = u64::MAX - u64::MAX % d;
            let near_multiples = [top, top - 1, top - d, top - d + 1, top / 2 / d * d];
            let random = (0..2000).map(|_| rng.next_u64());
            for value in edges.into_iter().chain(near_multiples).chain(random) {
                assert_eq!(remainder(value, d), value % d, "{value} % {d}");
            }
        }
    }

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut event = GameRng::new(7).event();
        let mut seen = [false; 5];
        for _ in 0..200 {
            let v = event.below(5);
            seen[v] = true;
        }
        assert!(seen.iter().all(|s| *s));
    }
}
