//! # Sloppy Seconds (Peter Schell)
//!
//! 3 or 4 players, each for himself, 52 cards (51 without the 2C for 3). Plain must-follow trick
//! taking with no trump at the start of a hand: the second suit to be broken in (played off-suit)
//! becomes trump at once, for the rest of the hand. In each suit only the player(s) with the
//! second-highest captured card points score them; a hand is worth at least 5. The game ends after
//! the hand in which someone reaches the target (300); the highest total wins.
//!
//! Spec: `shared/rules/sloppy_seconds.md` (rulings R1..R11, worked examples S1..S9); project doc:
//! `docs/rules/sloppy_seconds.md`.
//!
//! Some notes on this implementation:
//! - The player count is the game's player count (3 or 4), not an option.
//! - Tricks use `common::trick` with the natural rank order (ace high); the trump is tracked per
//!   hand as `first_broken` / `trump` exactly as spec §3 describes.
//! - The heuristic evaluates each legal card by its expected hand-score margin (own score minus the
//!   others' mean): the trick goes to its current winner or, with the estimated chance of being
//!   beaten, to a later player, and all uncaptured cards are spread over the players in 64
//!   deterministic samples before the second-place scoring is applied (view only).

pub mod action;
pub mod rules;
pub mod scoring;
pub mod state;
pub mod view;

pub use action::{Action, Event};
pub use rules::Options;
pub use state::State;
pub use view::View;

use crate::cards::{Card, CardSet};
use crate::common::trick::{plain_strength, winner_by_strength};
use crate::error::SetupError;
use crate::game::{Family, GameDef, Seat, Setup};
use crate::options::PlayerRange;

/// The Sloppy Seconds family.
pub struct SloppySeconds;

impl GameDef for SloppySeconds {
    type State = State;

    fn family() -> Family {
        Family {
            id: "sloppy_seconds",
            name: "Sloppy Seconds",
            description: "Trick taking for 3 or 4 where the second suit broken in becomes trump and only second place in each suit scores.",
            rules_summary: "52 cards (3 players: without the 2C), dealt out one at a time from the dealer's left. Follow suit if you can; there is no trump at first. The first suit played off-suit in a hand can never be trump; the second different suit played off-suit becomes trump immediately, even within the trick, for the rest of the hand. Cards score face value (A 1, J 11, Q 12, K 13; 91 per suit) but the ace ranks high in play. After each hand, in every suit only the player(s) with the second-highest point total score that total; every hand is worth at least 5. After a hand in which someone reaches 300, the highest total wins.",
            players: PlayerRange { min: 3, max: 4 },
            options: rules::option_specs(),
            presets: rules::presets(),
            players_when: Vec::new(),
        }
    }

    fn setup(setup: &Setup<Options>) -> Result<State, SetupError> {
        State::new(setup, &mut Vec::new())
    }

    fn heuristic(view: &View, legal: &[Action]) -> usize {
        let Some(me) = view.seat else { return 0 };
        let mut best = (i64::MIN, 0usize);
        for (index, action) in legal.iter().enumerate() {
            let Action::Play { cards } = action;
            let Some(&card) = cards.first() else { continue };
            let value = (evaluate(view, me, card) * 1000.0).round() as i64;
            // Ties: the lower card (keep strength for later).
            let tie = -(card.rank().map_or(0, |r| i64::from(r.value())));
            let key = value * 100 + tie;
            if key > best.0 {
                best = (key, index);
            }
        }
        best.1
    }
}

/// Samples per evaluation of the rest of the hand (common random numbers across the actions).
const SAMPLES: usize = 64;

/// The expected hand-score margin (own hand score minus the others' mean) of playing `card`, from
/// the seat's view only. The trick in progress goes to its current winner unless a later player
/// beats it (estimated from the unseen cards of the winning suit), else to one of the later
/// players; every card not yet captured (unseen or in this hand) is then given to a uniformly
/// random player, as random-ish play spreads them, and the second-place scoring is applied.
fn evaluate(view: &View, me: Seat, card: Card) -> f64 {
    let n = view.players.max(1);
    let mut plays = view.trick.clone();
    plays.push((me, card));
    let led = plays
        .first()
        .and_then(|(_, c)| c.suit())
        .unwrap_or(crate::cards::Suit::Spades);
    let mut trump = view.trump;
    if let (Some(suit), None) = (card.suit(), trump)
        && plays.len() > 1
        && suit != led
        && view.first_broken.is_some_and(|f| f != suit)
    {
        trump = Some(suit);
    }
    let index = winner_by_strength(&plays, |_, c| plain_strength(c, led, trump));
    let (winner, winning) = plays.get(index).copied().unwrap_or((me, card));

    // Cards not yet captured: everything outside completed tricks and the trick in progress.
    let mut captured = CardSet::EMPTY;
    for trick in &view.tricks {
        for (_, c) in &trick.plays {
            captured.insert(*c);
        }
    }
    for (_, c) in &plays {
        captured.insert(*c);
    }
    let loose: Vec<Card> = state::pack(n)
        .into_iter()
        .filter(|c| !captured.contains(*c))
        .collect();
    let unseen: Vec<Card> = loose
        .iter()
        .copied()
        .filter(|c| !view.hand.contains(*c))
        .collect();

    // Chance that each later player beats the current winner.
    let later: Vec<Seat> = (1..=n - plays.len().min(n))
        .map(|k| (plays[0].0 + plays.len() - 1 + k) % n)
        .collect();
    let beats = |c: &Card| plain_strength(*c, led, trump) > plain_strength(winning, led, trump);
    let win_suit = winning.suit();
    let same: Vec<&Card> = unseen.iter().filter(|c| c.suit() == win_suit).collect();
    let p_beat = if same.is_empty() {
        0.0
    } else {
        same.iter().filter(|c| beats(c)).count() as f64 / same.len() as f64
    };
    let hold = (1.0 - p_beat).powi(later.len() as i32);
    let mut outcomes = vec![(winner, hold)];
    for seat in &later {
        outcomes.push((*seat, (1.0 - hold) / later.len() as f64));
    }

    let mut base = view.points.clone();
    base.resize(n, [0; 4]);
    let mut trick_points = [0u32; 4];
    for (_, c) in &plays {
        if let Some(suit) = c.suit() {
            trick_points[suit.index()] += scoring::card_points(*c);
        }
    }
    let mut total = 0.0;
    let mut rng: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..SAMPLES {
        let mut sample = base.clone();
        // One draw per card of the pack, so the samples line up across the actions.
        for c in state::pack(n) {
            rng = rng
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            if captured.contains(c) {
                continue;
            }
            let to = ((rng >> 33) % n as u64) as usize;
            if let Some(suit) = c.suit() {
                sample[to][suit.index()] += scoring::card_points(c);
            }
        }
        for (seat, weight) in &outcomes {
            if *weight <= 0.0 {
                continue;
            }
            let mut points = sample.clone();
            for suit in 0..4 {
                points[*seat][suit] += trick_points[suit];
            }
            let scores = scoring::hand_scores(&points, rules::MinimumRule::HandFloor);
            let mine = f64::from(scores[me]);
            let others = scores.iter().map(|s| f64::from(*s)).sum::<f64>() - mine;
            total += weight * (mine - others / (n - 1).max(1) as f64);
        }
    }
    total / SAMPLES as f64
}
