//! What one seat (or a spectator) may see (spec §6).

use super::rules::Options;
use super::scoring::{self, DealScore};
use super::state::{Phase, State};
use crate::cards::{Card, CardSet, Rank};
use crate::common::determinize::{redeal_hands_and_stock, reseed};
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
    /// The layout, in arrival order.
    pub layout: Vec<Card>,
    /// Rank of an initial trio waiting for its fourth card.
    pub trio: Option<Rank>,
    /// Cards left in the stock.
    pub stock_size: usize,
    /// The cutter's private peek at the last stock card (while it is still in the stock).
    pub peek: Option<Card>,
    /// Captured piles (all public, §6).
    pub piles: Vec<Vec<Card>>,
    /// Card points of each pile.
    pub card_points: Vec<i64>,
    /// Red-five captures this deal.
    pub red_five_captures: Vec<u32>,
    /// Cumulative points.
    pub totals: Vec<i64>,
    /// Current deal number and the number of deals.
    pub deal: usize,
    /// Deals in the game.
    pub deals: usize,
    /// The dealer.
    pub dealer: Seat,
    /// The seat to act (none when over).
    pub turn: Option<Seat>,
    /// Turns left in the deal.
    pub turns_left: usize,
    /// A flipped stock card waiting for its capture choice.
    pub flipped: Option<Card>,
    /// Its possible targets.
    pub targets: Vec<Card>,
    /// The last scored deal.
    pub last_deal: Option<DealScore>,
    /// True when the game is over.
    pub over: bool,
}

/// Builds the view of `viewer`.
pub fn view(state: &State, viewer: Viewer) -> View {
    let seat = match viewer {
        Viewer::Seat(s) if s < state.table.players => Some(s),
        _ => None,
    };
    let (flipped, targets) = match &state.phase {
        Phase::StockChoice { card, choice } => {
            (Some(*card), choice.addable(state.layout.cards()).to_vec())
        }
        _ => (None, Vec::new()),
    };
    let peek = state
        .peek
        .filter(|(cutter, card)| Some(*cutter) == seat && state.stock.contains(card))
        .map(|(_, card)| card);
    View {
        seat,
        players: state.table.players,
        options: state.table.options.clone(),
        hand: seat
            .and_then(|s| state.hands.get(s))
            .map(|h| h.iter().collect()),
        hand_sizes: state.hands.iter().map(|h| h.len()).collect(),
        layout: state.layout.cards().to_vec(),
        trio: state.trio,
        stock_size: state.stock.len(),
        peek,
        piles: state.piles.iter().map(|p| p.iter().collect()).collect(),
        card_points: state
            .piles
            .iter()
            .map(|p| scoring::pile_points(&state.table.options, state.table.players, *p))
            .collect(),
        red_five_captures: state.red_fives.to_vec(),
        totals: state.totals.to_vec(),
        deal: state.deal,
        deals: state.table.options.deal_count(state.table.players),
        dealer: state.dealer,
        turn: (state.phase != Phase::Over).then_some(state.turn),
        turns_left: state.turns_left,
        flipped,
        targets,
        last_deal: state.last_deal.as_deref().cloned(),
        over: state.phase == Phase::Over,
    }
}

/// Codes `viewer` must not see: other hands and the stock (minus the cutter's peeked card).
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
    let peeked = state
        .peek
        .filter(|(cutter, _)| Some(*cutter) == seat)
        .map(|(_, c)| c);
    out.extend(
        state
            .stock
            .iter()
            .filter(|c| Some(**c) != peeked)
            .map(|c| c.to_string()),
    );
    out
}

/// Determinization for `seat` (see `GameState::determinize`): the other hands and the stock are
/// redealt uniformly with their sizes; the card the cutter peeked at stays where it is for the
/// cutter. Nothing in play shows a void (any card may be played).
pub fn determinize(state: &State, seat: Seat, rng: &mut PlayoutRng) -> Option<State> {
    let mut fixed = CardSet::EMPTY;
    if let Some((_, card)) = state.peek.filter(|(cutter, _)| *cutter == seat) {
        fixed.insert(card);
    }
    let mut sample = state.clone();
    redeal_hands_and_stock(&mut sample.hands, seat, &mut sample.stock, fixed, rng)?;
    reseed(&mut sample.table.rng, rng);
    Some(sample)
}
