//! What one seat (or a spectator) may see of a game of Taihe A Bao (spec §6).

use super::combination::Combo;
use super::state::{Call, HandRecord, Phase, State, canonical_order};
use crate::cards::{Card, CardSet};
use crate::common::determinize::{redeal_hands_and_stock, reseed};
use crate::game::{Seat, Viewer};
use crate::rng::PlayoutRng;
use serde::{Deserialize, Serialize};

/// The combination on top of the round, as seen by everybody.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TopView {
    /// Who played it.
    pub seat: Seat,
    /// Its cards.
    pub cards: Vec<Card>,
    /// Its classification.
    pub combo: Combo,
}

/// A whitelisted view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct View {
    /// The viewing seat (none for a spectator).
    pub seat: Option<Seat>,
    /// Number of players.
    pub players: usize,
    /// The viewer's own cards (none for a spectator).
    pub hand: Option<Vec<Card>>,
    /// Cards held per seat.
    pub hand_sizes: Vec<usize>,
    /// Phase.
    pub phase: Phase,
    /// Seat to act (none when over).
    pub turn: Option<Seat>,
    /// Current hand number (from 1) and the number of hands in the game.
    pub hand_number: u32,
    /// Hands in the game.
    pub hands: u32,
    /// First bidder of this hand.
    pub first_bidder: Seat,
    /// Calls of this hand (public, face-up transfers).
    pub calls: Vec<Call>,
    /// The caller who owes a card to the holder (exchange phase): (caller, holder).
    pub exchange: Option<(Seat, Seat)>,
    /// The declarer, once known.
    pub declarer: Option<Seat>,
    /// True if the declarer declared in round 1.
    pub first_round: bool,
    /// Stake unit of this hand.
    pub stake: i64,
    /// The top combination of the round (none: the turn seat leads).
    pub top: Option<TopView>,
    /// Passes since the last play.
    pub passes: usize,
    /// Every card played in this hand.
    pub played_cards: Vec<Card>,
    /// Combinations played per seat in this hand.
    pub plays_per_seat: Vec<u32>,
    /// Cumulative stakes.
    pub scores: Vec<i64>,
    /// Finished hands.
    pub history: Vec<HandRecord>,
}

/// Builds the view of `viewer`.
pub fn view(state: &State, viewer: Viewer) -> View {
    let seat = match viewer {
        Viewer::Seat(s) if s < state.table.players => Some(s),
        _ => None,
    };
    let over = state.phase == Phase::Over;
    View {
        seat,
        players: state.table.players,
        hand: seat
            .and_then(|s| state.hands.get(s))
            .map(|h| canonical_order(*h).to_vec()),
        hand_sizes: state.hands.iter().map(|h| h.len()).collect(),
        phase: state.phase,
        turn: (!over).then_some(state.turn),
        hand_number: state.deals_played + u32::from(!over),
        hands: state.table.options.hands,
        first_bidder: state.first_bidder,
        calls: state.calls.clone(),
        exchange: state.pending.map(|p| (p.caller, p.holder)),
        declarer: state.declarer,
        first_round: state.first_round,
        stake: state.stake,
        top: state.top.map(|t| TopView {
            seat: t.seat,
            cards: canonical_order(t.cards).to_vec(),
            combo: t.combo,
        }),
        passes: state.passes,
        played_cards: canonical_order(state.pile).to_vec(),
        plays_per_seat: state.played.clone(),
        scores: state.scores.clone(),
        history: state.history.clone(),
    }
}

/// The cards hidden from a viewer: other hands, except the publicly called cards.
pub fn hidden_from(state: &State, viewer: Viewer) -> Vec<String> {
    let seat = match viewer {
        Viewer::Seat(s) => Some(s),
        Viewer::Spectator => None,
    };
    let called = CardSet::from_cards(state.calls.iter().map(|c| c.card));
    (0..state.table.players)
        .filter(|&s| Some(s) != seat)
        .flat_map(|s| state.hands[s].iter())
        .filter(|c| !called.contains(*c))
        .map(|c| c.to_string())
        .collect()
}

/// Determinization for `seat` (see `GameState::determinize`): the other hands are redealt
/// uniformly with their sizes; a called card stays with its caller (the transfer is face up).
/// Passing is always allowed, so play shows no holding. The card a caller returned face down is
/// not in the record (the state keeps no trace of it), so a caller's sample does not place it.
pub fn determinize(state: &State, seat: Seat, rng: &mut PlayoutRng) -> Option<State> {
    let called = CardSet::from_cards(state.calls.iter().map(|c| c.card));
    let mut sample = state.clone();
    redeal_hands_and_stock(&mut sample.hands, seat, &mut [], called, rng)?;
    reseed(&mut sample.table.rng, rng);
    Some(sample)
}
