//! What one seat (or a spectator) may see of a game of Tjak-mat-tchi-ki (spec §6).

use super::rules::TakeFrom;
use super::state::{Discard, DrawRound, HandRecord, Phase, State};
use crate::common::determinize::{Place, draw_until, redeal, reseed};
use crate::game::{GameState, Seat, Viewer};
use crate::rng::PlayoutRng;
use crate::tiles::Tile;
use serde::{Deserialize, Serialize};

/// A whitelisted view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct View {
    /// The viewing seat (none for a spectator).
    pub seat: Option<Seat>,
    /// Number of players.
    pub players: usize,
    /// The viewer's concealed tiles (none for a spectator).
    pub hand: Option<Vec<Tile>>,
    /// Concealed tiles per seat.
    pub concealed_sizes: Vec<usize>,
    /// Laid pairs per seat (public).
    pub laid: Vec<Vec<[Tile; 2]>>,
    /// Face-up discards on the table, oldest first, with their discarders.
    pub table: Vec<Discard>,
    /// The live last discard (while the seat to act may still take it), if any.
    pub last_discard: Option<Discard>,
    /// Which discards may be taken.
    pub take_from: TakeFrom,
    /// Tiles left in the reserve.
    pub reserve_size: usize,
    /// Phase.
    pub phase: Phase,
    /// Seat to act (none when over).
    pub turn: Option<Seat>,
    /// First player of this hand.
    pub first_player: Seat,
    /// Current hand number (from 1).
    pub hand_number: u32,
    /// Hands in the game.
    pub hands: u32,
    /// Chips per seat.
    pub chips: Vec<i64>,
    /// The first-player draw of hand 1 (public).
    pub first_player_draw: Vec<DrawRound>,
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
        hand: seat.and_then(|s| state.concealed.get(s)).cloned(),
        concealed_sizes: state.concealed.iter().map(Vec::len).collect(),
        laid: state.laid.clone(),
        table: state.discards.clone(),
        last_discard: if state.phase == Phase::Acquire {
            state.discards.last().copied()
        } else {
            None
        },
        take_from: state.table.options.take_from,
        reserve_size: state.reserve.len(),
        phase: state.phase,
        turn: (!over).then_some(state.turn),
        first_player: state.first_player,
        hand_number: state.deals_played + u32::from(!over),
        hands: state.table.options.hands,
        chips: state.chips.clone(),
        first_player_draw: state.draws.clone(),
        history: state.history.clone(),
    }
}

/// Tiles hidden from a viewer: other concealed hands and the reserve, except codes shown in the
/// public first-player draw.
pub fn hidden_from(state: &State, viewer: Viewer) -> Vec<String> {
    let seat = match viewer {
        Viewer::Seat(s) => Some(s),
        Viewer::Spectator => None,
    };
    let shown: Vec<Tile> = state.draws.iter().flatten().map(|(_, t)| *t).collect();
    (0..state.table.players)
        .filter(|&s| Some(s) != seat)
        .flat_map(|s| state.concealed[s].iter())
        .chain(&state.reserve)
        .filter(|t| !shown.contains(t))
        .map(|t| t.to_string())
        .collect()
}

/// Determinization for `seat` (see `GameState::determinize`): the other concealed hands and the
/// reserve are redealt uniformly with their sizes (the reserve's order too: it decides the next
/// draws). A seat that has had its first turn lays every pair as soon as it forms (R5), so its
/// concealed hand holds no pair: deals giving it one are refused; so are deals where the seat to
/// act, with the reserve empty, could take nothing (the hand would have ended, R6).
pub fn determinize(state: &State, seat: Seat, rng: &mut PlayoutRng) -> Option<State> {
    let n = state.table.players;
    let others: Vec<Seat> = (0..n).filter(|&s| s != seat).collect();
    let mut pieces: Vec<Tile> = others
        .iter()
        .flat_map(|&s| state.concealed[s].iter().copied())
        .collect();
    pieces.extend(&state.reserve);
    let mut places: Vec<Place> = others
        .iter()
        .map(|&s| Place::free(state.concealed[s].len()))
        .collect();
    places.push(Place::free(state.reserve.len()));
    let draw = |rng: &mut PlayoutRng| {
        let mut dealt = redeal(&pieces, |_| 0, &places, rng)?;
        let mut sample = state.clone();
        sample.reserve = dealt.pop()?;
        for (&s, mut hand) in others.iter().zip(dealt) {
            hand.sort();
            sample.concealed[s] = hand;
        }
        Some(sample)
    };
    // Validation refuses a deal giving a seat past its first turn a pair it would have laid (R5),
    // and one where the seat to act could neither take nor draw (R6 would have ended the hand).
    let mut sample = draw_until(rng, draw, |sample: &State| sample.validate().is_ok())?;
    reseed(&mut sample.table.rng, rng);
    Some(sample)
}
