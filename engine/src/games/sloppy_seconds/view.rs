//! What a seat (or a spectator) sees in Sloppy Seconds: its own hand and everything public
//! (spec §6): hand sizes, all played cards and trick winners, the broken suit, trump, each seat's
//! captured points per suit, totals.

use super::state::{HandReport, State, Trick};
use crate::cards::{Card, CardSet, Suit};
use crate::common::determinize::{note_follow, redeal_sets, reseed};
use crate::game::{Seat, Viewer};
use crate::rng::PlayoutRng;
use serde::{Deserialize, Serialize};

/// A whitelist view of the game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct View {
    /// The viewing seat (none for a spectator).
    pub seat: Option<Seat>,
    /// Number of players.
    pub players: usize,
    /// The viewer's own cards (empty for a spectator).
    pub hand: CardSet,
    /// Cards held by each seat.
    pub hand_sizes: Vec<usize>,
    /// Cards removed from the pack (2C with 3 players).
    pub removed: Vec<Card>,
    /// Current hand number (1-based).
    pub hand_number: usize,
    /// The dealer.
    pub dealer: Seat,
    /// The seat to play, if any.
    pub to_act: Option<Seat>,
    /// The trick in progress.
    pub trick: Vec<(Seat, Card)>,
    /// Completed tricks of this hand.
    pub tricks: Vec<Trick>,
    /// First suit broken this hand.
    pub first_broken: Option<Suit>,
    /// Trump suit, once set.
    pub trump: Option<Suit>,
    /// Captured card points per seat and suit (S, H, D, C) this hand.
    pub points: Vec<[u32; 4]>,
    /// Running totals.
    pub totals: Vec<i64>,
    /// Target total.
    pub target: i64,
    /// Scoring of the previous hand.
    pub last_hand: Option<HandReport>,
    /// True once the game is over.
    pub over: bool,
}

/// Builds the view of `viewer`.
pub fn view(state: &State, viewer: Viewer) -> View {
    let seat = match viewer {
        Viewer::Seat(s) if s < state.table.players => Some(s),
        _ => None,
    };
    View {
        seat,
        players: state.table.players,
        hand: seat
            .and_then(|s| state.hands.get(s).copied())
            .unwrap_or_default(),
        hand_sizes: state.hands.iter().map(|h| h.len()).collect(),
        removed: if state.table.players == 3 {
            vec![super::state::two_of_clubs()]
        } else {
            Vec::new()
        },
        hand_number: state.deal_number,
        dealer: state.dealer,
        to_act: state.current(),
        trick: state.trick.clone(),
        tricks: state.tricks.clone(),
        first_broken: state.first_broken,
        trump: state.trump,
        points: state.captured_points(),
        totals: state.totals.clone(),
        target: state.table.options.target,
        last_hand: state.last_hand.clone(),
        over: state.over,
    }
}

/// Codes the viewer must not see: the other seats' hands.
pub fn hidden_from(state: &State, viewer: Viewer) -> Vec<String> {
    state
        .hands
        .iter()
        .enumerate()
        .filter(|(s, _)| viewer != Viewer::Seat(*s))
        .flat_map(|(_, h)| h.iter().map(|c| c.code()))
        .collect()
}

/// Determinization for `seat` (see `GameState::determinize`): the other hands are redealt with
/// their sizes; a seat that did not follow the led suit in a trick of this hand (completed or in
/// progress) holds none of it (R-follow: suit must be followed whenever possible).
pub fn determinize(state: &State, seat: Seat, rng: &mut PlayoutRng) -> Option<State> {
    let n = state.table.players;
    let mut voids = vec![0u64; n];
    let tricks = state.tricks.iter().map(|t| t.plays.as_slice());
    for plays in tricks.chain([state.trick.as_slice()]) {
        if let Some(led) = plays.first().and_then(|(_, c)| c.suit()) {
            for (s, card) in &plays[1..] {
                note_follow(&mut voids, *s, led, *card, false);
            }
        }
    }
    let others: Vec<Seat> = (0..n).filter(|&s| s != seat).collect();
    let places: Vec<(CardSet, u64)> = others
        .iter()
        .map(|&s| (state.hands[s], !voids[s]))
        .collect();
    let dealt = redeal_sets(&places, rng)?;
    let mut sample = state.clone();
    for (s, hand) in others.into_iter().zip(dealt) {
        sample.hands[s] = hand;
    }
    reseed(&mut sample.table.rng, rng);
    Some(sample)
}
