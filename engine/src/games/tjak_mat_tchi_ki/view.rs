//! What one seat (or a spectator) may see of a game of Tjak-mat-tchi-ki (spec §6).

use super::rules::TakeFrom;
use super::state::{Discard, DrawRound, HandRecord, Phase, State};
use crate::game::{Seat, Viewer};
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
        hand_number: state.hands_done + u32::from(!over),
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
