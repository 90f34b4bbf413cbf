//! What a seat (or a spectator) sees in Marglia/Maniglia (spec §6): its own hand and everything
//! public: the turned card (known to be in the dealer's hand until played), trumps, the auction,
//! communication answers, every played card and trick winner, scores.

use super::action::{Answer, Question};
use super::rules::{GameLength, Variant};
use super::scoring;
use super::state::{
    Call, Contract, DealReport, Phase, State, Trick, legal_cards, partnership, removed_card,
};
use crate::cards::{Card, CardSet, Suit};
use crate::common::determinize::{draw_until, note_follow, redeal_sets, reseed};
use crate::game::{Seat, Viewer};
use crate::rng::PlayoutRng;
use serde::{Deserialize, Serialize};

/// A whitelist view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct View {
    /// The viewing seat (none for a spectator).
    pub seat: Option<Seat>,
    /// Number of players.
    pub players: usize,
    /// Marglia or Maniglia.
    pub variant: Variant,
    /// The fixed partnerships, if any ({0,2} and {1,3}).
    pub teams: Option<Vec<Vec<Seat>>>,
    /// The viewer's cards.
    pub hand: CardSet,
    /// Cards held per seat.
    pub hand_sizes: Vec<usize>,
    /// The card removed from the pack (3-player Maniglia).
    pub removed: Option<Card>,
    /// Current deal number (1-based).
    pub deal_number: usize,
    /// Game length: number of deals or target.
    pub length: GameLength,
    /// The dealer.
    pub dealer: Seat,
    /// The phase.
    pub phase: Phase,
    /// The seat to act.
    pub to_act: Option<Seat>,
    /// The turned card of this deal.
    pub turned: Option<Card>,
    /// True while the turned card is still in the dealer's hand.
    pub turned_in_dealer_hand: bool,
    /// Trumps, once known.
    pub trump: Option<Suit>,
    /// Maniglia auction calls of this deal.
    pub auction: Vec<Call>,
    /// Maniglia contract.
    pub contract: Option<Contract>,
    /// Communication answers of this deal.
    pub answers: Vec<Answer>,
    /// The trick in progress.
    pub trick: Vec<(Seat, Card)>,
    /// Completed tricks of this deal.
    pub tricks: Vec<Trick>,
    /// Raw deal points so far per side.
    pub raw: Vec<i64>,
    /// Cumulative scores per side.
    pub cumulative: Vec<i64>,
    /// The previous deal's scoring.
    pub last_deal: Option<DealReport>,
}

/// Builds the view of `viewer`.
pub fn view(state: &State, viewer: Viewer) -> View {
    let seat = match viewer {
        Viewer::Seat(s) if s < state.table.players => Some(s),
        _ => None,
    };
    let n = state.table.players;
    View {
        seat,
        players: n,
        variant: state.table.options.variant,
        teams: partnership(&state.table.options, n).then(|| vec![vec![0, 2], vec![1, 3]]),
        hand: seat
            .and_then(|s| state.hands.get(s).copied())
            .unwrap_or_default(),
        hand_sizes: state.hands.iter().map(|h| h.len()).collect(),
        removed: removed_card(&state.table.options, n),
        deal_number: state.deal_number,
        length: state.table.options.length(n),
        dealer: state.dealer,
        phase: state.phase.clone(),
        to_act: state.current(),
        turned: state.turned,
        turned_in_dealer_hand: turned_in_dealer_hand(state),
        trump: state.trump,
        auction: state.auction.clone(),
        contract: state.contract,
        answers: state.answers.clone(),
        trick: state.trick.clone(),
        tricks: state.tricks.clone(),
        raw: state.raw_totals(),
        cumulative: state.cumulative.clone(),
        last_deal: state.last_deal.clone(),
    }
}

fn turned_in_dealer_hand(state: &State) -> bool {
    state
        .turned
        .zip(state.hands.get(state.dealer))
        .is_some_and(|(card, hand)| hand.contains(card))
}

/// Codes the viewer must not see: the other seats' cards, except the turned card (public).
pub fn hidden_from(state: &State, viewer: Viewer) -> Vec<String> {
    state
        .hands
        .iter()
        .enumerate()
        .filter(|(s, _)| viewer != Viewer::Seat(*s))
        .flat_map(|(_, h)| h.iter())
        .filter(|c| Some(*c) != state.turned)
        .map(|c| c.code())
        .collect()
}

/// Determinization for `seat` (see `GameState::determinize`): the other hands are redealt with
/// their sizes, the turned card staying with whoever holds it (public). A deal is kept only if
/// every play of this deal was legal from the hand it implies (follow suit, else trump, else
/// overtrump: R5 and the play rules replayed with [`legal_cards`]) and every answer given to a
/// partner's question matches the hand it implies at the time (before the first trick).
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
    let fixed = |s: Seat| {
        let mut hand = state.hands[s];
        hand.0 &= !state.turned.map_or(0, |t| CardSet::from_cards([t]).0);
        hand
    };
    let places: Vec<(CardSet, u64)> = others.iter().map(|&s| (fixed(s), !voids[s])).collect();
    let draw = |rng: &mut PlayoutRng| {
        let dealt = redeal_sets(&places, rng)?;
        let mut sample = state.clone();
        for (&s, hand) in others.iter().zip(dealt) {
            sample.hands[s].0 = hand.0 | (state.hands[s].0 & !fixed(s).0);
        }
        Some(sample)
    };
    let mut sample = draw_until(rng, draw, consistent_with_record)?;
    reseed(&mut sample.table.rng, rng);
    Some(sample)
}

/// True if the deal's plays and answers are what these hands allow.
fn consistent_with_record(state: &State) -> bool {
    let options = &state.table.options;
    let mut hands = state.hands.clone();
    let tricks = state.tricks.iter().map(|t| t.plays.as_slice());
    let all: Vec<&[(Seat, Card)]> = tricks.chain([state.trick.as_slice()]).collect();
    for plays in all.iter().rev() {
        for i in (0..plays.len()).rev() {
            let (s, card) = plays[i];
            let Some(hand) = hands.get_mut(s) else {
                return false;
            };
            hand.insert(card);
            let legal = legal_cards(
                *hand,
                &plays[..i],
                state.trump,
                options.must_overtrump,
                |winner| state.partners(s, winner),
            );
            if !legal.contains(card) {
                return false;
            }
        }
    }
    state.answers.iter().all(|a| {
        let hand = hands.get(a.partner).copied().unwrap_or_default();
        let truth = match a.question {
            Question::SuitCount => a.suit.map_or(0, |s| hand.of_suit(s).len()) as u32,
            Question::RankCount => a.rank.map_or(0, |r| hand.of_rank(r).len()) as u32,
            Question::HandPoints => hand.iter().map(scoring::points).sum::<i64>() as u32,
        };
        truth == a.answer
    })
}
