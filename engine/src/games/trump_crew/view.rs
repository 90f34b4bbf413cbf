//! What one seat (or a spectator) sees (spec §6), and the built-in heuristic bot that reads it.

use super::action::Strength;
use super::state::{DealSummary, Phase, Play, State, Trick};
use crate::cards::{Card, CardSet, Suit};
use crate::common::determinize::{ANY, note_follow, redeal_sets, reseed};
use crate::game::{Seat, Viewer};
use crate::rng::PlayoutRng;
use serde::{Deserialize, Serialize};

/// The whitelisted view: public facts of the game and the current deal, plus the viewer's hand.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct View {
    /// Number of seats.
    pub players: usize,
    /// The viewer's seat (None for a spectator).
    pub seat: Option<Seat>,
    /// The viewer's hand (None for a spectator).
    pub hand: Option<Vec<Card>>,
    /// Cards held by each seat.
    pub hand_sizes: Vec<usize>,
    /// The phase.
    pub phase: Phase,
    /// The seat to act (None once over).
    pub to_act: Option<Seat>,
    /// The final stage S.
    pub final_stage: u32,
    /// The first stage of this game.
    pub start_stage: u32,
    /// The deal limit (None = unlimited).
    pub max_deals: Option<u64>,
    /// The current stage N.
    pub stage: u32,
    /// 1-based number of the current (or last) deal.
    pub deal_number: u64,
    /// Deals finished.
    pub deals_played: u64,
    /// Stages cleared.
    pub stages_cleared: u32,
    /// True once the final stage is cleared.
    pub cleared: bool,
    /// The dealer.
    pub dealer: Seat,
    /// The face-up indicator card.
    pub indicator: Card,
    /// Trump (None when the indicator is the joker).
    pub trump: Option<Suit>,
    /// The dealer's announcement.
    pub strength: Option<Strength>,
    /// Bids so far.
    pub bids: Vec<Option<u32>>,
    /// Chips still in the centre.
    pub chips_left: u32,
    /// The trick in progress.
    pub trick: Vec<Play>,
    /// Its led suit (None before the lead or after a joker lead naming no suit).
    pub led_suit: Option<Suit>,
    /// Completed tricks of this deal.
    pub tricks: Vec<Trick>,
    /// Tricks won per seat in this deal.
    pub tricks_won: Vec<u32>,
    /// The last finished deal (bids and tricks, no cards).
    pub last_deal: Option<DealSummary>,
}

/// Builds the view of `viewer`.
pub fn view(state: &State, viewer: Viewer) -> View {
    let seat = match viewer {
        Viewer::Seat(s) if s < state.table.players => Some(s),
        _ => None,
    };
    View {
        players: state.table.players,
        seat,
        hand: seat.map(|s| {
            state
                .hands
                .get(s)
                .map_or_else(Vec::new, |h| h.iter().collect())
        }),
        hand_sizes: state.hands.iter().map(|h| h.len()).collect(),
        phase: state.phase,
        to_act: (state.phase != Phase::Over).then_some(state.to_play),
        final_stage: state.final_stage,
        start_stage: state.table.options.start_stage,
        max_deals: state.deal_limit,
        stage: state.stage,
        deal_number: state.deals_played + u64::from(state.phase != Phase::Over),
        deals_played: state.deals_played,
        stages_cleared: state.stages_cleared,
        cleared: state.cleared,
        dealer: state.dealer,
        indicator: state.indicator,
        trump: state.trump(),
        strength: state.strength,
        bids: state.bids.clone(),
        chips_left: state.chips_left(),
        trick: state.trick.to_vec(),
        led_suit: state.led,
        tricks: state.tricks.clone(),
        tricks_won: state.won.clone(),
        last_deal: state.last_deal.clone(),
    }
}

/// Codes `viewer` must not see: other hands and the undealt cards (§6).
pub fn hidden_from(state: &State, viewer: Viewer) -> Vec<String> {
    let mut hidden = state.undealt;
    for (seat, hand) in state.hands.iter().enumerate() {
        if viewer != Viewer::Seat(seat) {
            hidden.0 |= hand.0;
        }
    }
    hidden.iter().map(|c| c.to_string()).collect()
}

/// Determinization for `seat` (see `GameState::determinize`): the other hands and the undealt
/// cards are redealt with their sizes; a seat that played a card of another suit than the led one
/// (the joker excepted: it may be played at any time, R5) holds none of the led suit.
pub fn determinize(state: &State, seat: Seat, rng: &mut PlayoutRng) -> Option<State> {
    let n = state.table.players;
    let mut voids = vec![0u64; n];
    let tricks = state.tricks.iter().map(|t| (t.led, t.plays.as_slice()));
    for (led, plays) in tricks.chain([(state.led, state.trick.as_slice())]) {
        if let Some(led) = led {
            for play in plays.iter().skip(1) {
                let exempt = play.card == Card::JOKER;
                note_follow(&mut voids, play.seat, led, play.card, exempt);
            }
        }
    }
    let others: Vec<Seat> = (0..n).filter(|&s| s != seat).collect();
    let mut places: Vec<(CardSet, u64)> = others
        .iter()
        .map(|&s| (state.hands[s], !voids[s]))
        .collect();
    places.push((state.undealt, ANY));
    let mut dealt = redeal_sets(&places, rng)?;
    let mut sample = state.clone();
    sample.undealt = dealt.pop()?;
    for (s, hand) in others.into_iter().zip(dealt) {
        sample.hands[s] = hand;
    }
    reseed(&mut sample.table.rng, rng);
    Some(sample)
}
