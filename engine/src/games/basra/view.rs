//! What one seat (or a spectator) may see (spec §6).

use super::rules::{BuryMode, Options};
use super::scoring::DealScore;
use super::state::{Phase, State};
use crate::cards::{Card, CardSet};
use crate::common::determinize::{redeal_hands_and_stock_by_class, reseed};
use crate::game::{Seat, Viewer};
use crate::rng::PlayoutRng;
use serde::{Deserialize, Serialize};

/// A viewer's whitelist of the state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct View {
    /// The viewing seat (none for a spectator).
    pub seat: Option<Seat>,
    /// Number of players.
    pub players: usize,
    /// The options (public).
    pub options: Options,
    /// The viewer's hand.
    pub hand: Option<Vec<Card>>,
    /// Hand sizes.
    pub hand_sizes: Vec<usize>,
    /// The floor, in arrival order.
    pub floor: Vec<Card>,
    /// Cards left in the stock.
    pub stock_size: usize,
    /// Buried cards still in the stock (identities public, positions not).
    pub buried: Vec<Card>,
    /// The bottom card seen at the cut (dealer; both players with `open_cut`), while in the stock.
    pub peek: Option<Card>,
    /// Side piles (public, §6).
    pub piles: Vec<Vec<Card>>,
    /// Bonus captures this deal per side.
    pub basras: Vec<u32>,
    /// Bonus points this deal per side.
    pub bonus_points: Vec<f64>,
    /// Side totals in the current game (points).
    pub totals: Vec<f64>,
    /// Majority awards carried.
    pub carry: u32,
    /// Games won per side (rubbers).
    pub games_won: Vec<u32>,
    /// The deal number.
    pub deal: usize,
    /// The dealer.
    pub dealer: Seat,
    /// The seat to act (none when over).
    pub turn: Option<Seat>,
    /// A played card whose capture is being chosen.
    pub pending: Option<Card>,
    /// The floor cards selected so far.
    pub selection: Vec<Card>,
    /// The last scored deal.
    pub last_deal: Option<DealScore>,
    /// True when the game is over.
    pub over: bool,
}

fn sees_peek(state: &State, seat: Option<Seat>) -> bool {
    match seat {
        Some(s) => s == state.dealer || (state.table.options.open_cut && state.table.players == 2),
        None => false,
    }
}

/// Builds the view of `viewer`.
pub fn view(state: &State, viewer: Viewer) -> View {
    let seat = match viewer {
        Viewer::Seat(s) if s < state.table.players => Some(s),
        _ => None,
    };
    let (pending, selection) = match &state.phase {
        Phase::Choose { card, choice } => (Some(*card), choice.selection.iter().collect()),
        _ => (None, Vec::new()),
    };
    View {
        seat,
        players: state.table.players,
        options: state.table.options.clone(),
        hand: seat
            .and_then(|s| state.hands.get(s))
            .map(|h| h.iter().collect()),
        hand_sizes: state.hands.iter().map(|h| h.len()).collect(),
        floor: state.floor.cards().to_vec(),
        stock_size: state.stock.len(),
        buried: state
            .buried
            .iter()
            .copied()
            .filter(|c| state.stock.contains(c))
            .collect(),
        peek: state
            .peek
            .filter(|c| sees_peek(state, seat) && state.stock.contains(c)),
        piles: state.piles.iter().map(|p| p.iter().collect()).collect(),
        basras: state.basras.clone(),
        bonus_points: state.bonus.iter().map(|b| *b as f64 / 2.0).collect(),
        totals: state.totals.iter().map(|t| *t as f64 / 2.0).collect(),
        carry: state.carry,
        games_won: state.games_won.clone(),
        deal: state.deal,
        dealer: state.dealer,
        turn: (state.phase != Phase::Over).then_some(state.turn),
        pending,
        selection,
        last_deal: state.last_deal.as_deref().cloned(),
        over: state.phase == Phase::Over,
    }
}

/// Codes `viewer` must not see: other hands and the stock, minus buried cards (public identities)
/// and the peeked card for those who saw it.
pub fn hidden_from(state: &State, viewer: Viewer) -> Vec<String> {
    let seat = match viewer {
        Viewer::Seat(s) => Some(s),
        Viewer::Spectator => None,
    };
    let mut out = Vec::new();
    for (s, hand) in state.hands.iter().enumerate() {
        if Some(s) != seat {
            out.extend(hand.iter().map(|c| c.to_string()));
        }
    }
    let peeked = state.peek.filter(|_| sees_peek(state, seat));
    out.extend(
        state
            .stock
            .iter()
            .filter(|c| Some(**c) != peeked && !state.buried.contains(c))
            .map(|c| c.to_string()),
    );
    out
}

/// Determinization for `seat` (see `GameState::determinize`): the other hands and the stock are
/// redealt uniformly with their sizes. The peeked bottom card stays where it is for a seat that saw
/// it (the dealer, both seats with `open_cut` at two), and so do buried cards with `bury_mode`
/// `bottom` (public identities at public places). Buried cards shuffled into the stock (`random`,
/// `bottom10`) stay in the stock at any position while the view lists them there, and out of it
/// once dealt (with `bottom10` they are in fact among the last eleven or so cards: a sample may
/// place them higher, a documented approximation).
pub fn determinize(state: &State, seat: Seat, rng: &mut PlayoutRng) -> Option<State> {
    let mut fixed = CardSet::EMPTY;
    if let Some(peek) = state.peek.filter(|_| sees_peek(state, Some(seat))) {
        fixed.insert(peek);
    }
    if state.table.options.bury_mode == BuryMode::Bottom {
        fixed.0 |= CardSet::from_cards(state.buried.iter().copied()).0;
    }
    // The view lists the buried cards still in the stock: those stay in it (class 1), the others
    // stay out of it (class 2), wherever the redeal puts them.
    let buried_in_stock: Vec<Card> = state
        .buried
        .iter()
        .copied()
        .filter(|c| state.stock.contains(c))
        .collect();
    let class = |c: Card| match (state.buried.contains(&c), buried_in_stock.contains(&c)) {
        (false, _) => 0,
        (true, true) => 1,
        (true, false) => 2,
    };
    let mut sample = state.clone();
    redeal_hands_and_stock_by_class(
        &mut sample.hands,
        seat,
        &mut sample.stock,
        fixed,
        (class, 0b101, 0b011),
        rng,
    )?;
    reseed(&mut sample.table.rng, rng);
    Some(sample)
}
