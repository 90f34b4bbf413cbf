//! What one seat (or a spectator) sees (spec §6), and the built-in heuristic bot that reads it.

use super::state::{Call, CardName, HandSummary, Phase, Play, Pos, State, Trick};
use crate::cards::{Card, CardSet, Suit};
use crate::common::determinize::{Place, note_follow, redeal, reseed, suit_class};
use crate::game::{Seat, Viewer};
use crate::rng::PlayoutRng;
use serde::{Deserialize, Serialize};

/// The dummy as everyone sees it (2 players).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct DummyView {
    /// Its face-up cards (public).
    pub face_up: Vec<Card>,
    /// How many cards remain face down.
    pub face_down: usize,
    /// The seat that plays its cards (from the start of play).
    pub controller: Option<Seat>,
}

/// The whitelisted view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct View {
    /// 2 or 3.
    pub players: usize,
    /// The viewer's seat (None for a spectator).
    pub seat: Option<Seat>,
    /// The viewer's hand (None for a spectator).
    pub hand: Option<Vec<Card>>,
    /// Cards held per seat.
    pub hand_sizes: Vec<usize>,
    /// The dummy (2 players).
    pub dummy: Option<DummyView>,
    /// The phase.
    pub phase: Phase,
    /// The seat to act (None once over).
    pub to_act: Option<Seat>,
    /// True when the seat to act plays the dummy's card.
    pub dummy_to_play: bool,
    /// The dealer.
    pub dealer: Seat,
    /// 1-based number of the current (or last) hand.
    pub hand_number: u32,
    /// The target total.
    pub target: u32,
    /// Game totals.
    pub totals: Vec<u32>,
    /// The face-up candidate (trump phase).
    pub candidate: Option<Card>,
    /// Which turn-up (1..3).
    pub round: usize,
    /// Widow cards turned up so far in this hand (public knowledge).
    pub widow_seen: Vec<Card>,
    /// Declarations and passes of this hand.
    pub calls: Vec<Call>,
    /// The solo player.
    pub solo: Option<Seat>,
    /// The nil player.
    pub nil: Option<Seat>,
    /// Trump, once fixed.
    pub trump: Option<Suit>,
    /// The indicator, once fixed.
    pub indicator: Option<Card>,
    /// The Bird Dog card's identity, once trump is fixed.
    pub bird_dog: Option<CardName>,
    /// True once the Bird Dog card has been seen turned up from the widow or played (R22: where
    /// an unseen Bird Dog card lies, hand or never-turned widow, is hidden from everyone).
    pub bird_dog_seen: bool,
    /// The trick in progress.
    pub trick: Vec<Play>,
    /// Completed tricks of this hand.
    pub tricks: Vec<Trick>,
    /// Cards won per seat this hand (the dummy's with its controller).
    pub won_cards: Vec<Vec<Card>>,
    /// Tricks taken per seat (the seat's own, not the dummy's).
    pub tricks_won: Vec<u32>,
    /// Tricks taken by the dummy.
    pub dummy_tricks: u32,
    /// The last finished hand.
    pub last_hand: Option<HandSummary>,
}

/// Builds the view of `viewer`.
pub fn view(state: &State, viewer: Viewer) -> View {
    let seat = match viewer {
        Viewer::Seat(s) if s < state.table.players => Some(s),
        _ => None,
    };
    let (tricks_won, dummy_tricks) = state.tricks_won();
    let bird_dog = state.bird_dog();
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
        dummy: state.two_player().then(|| DummyView {
            face_up: state.dummy_up.iter().collect(),
            face_down: state.dummy_down.len(),
            controller: state.controller,
        }),
        phase: state.phase,
        to_act: (state.phase != Phase::Over).then_some(state.to_play),
        dummy_to_play: state.phase == Phase::Play && state.next == Pos::Dummy,
        dealer: state.dealer,
        hand_number: state.deals_played + u32::from(state.phase != Phase::Over),
        target: state.table.options.target,
        totals: state.totals.clone(),
        candidate: state.candidate(),
        round: state.round + 1,
        widow_seen: state.widow_seen().to_vec(),
        calls: state.calls.clone(),
        solo: state.solo,
        nil: state.nil,
        trump: state.trump(),
        indicator: state.indicator,
        bird_dog: bird_dog.and_then(|c| {
            Some(CardName {
                rank: c.rank()?,
                suit: c.suit()?,
            })
        }),
        bird_dog_seen: state.bird_dog_seen(),
        trick: state.trick.clone(),
        tricks: state.tricks.clone(),
        won_cards: state
            .won_cards()
            .iter()
            .map(|w| w.iter().collect())
            .collect(),
        tricks_won,
        dummy_tricks,
        last_hand: state.last_hand.clone(),
    }
}

/// Codes `viewer` must not see: other hands, the dummy's face-down pile, unturned widow cards.
pub fn hidden_from(state: &State, viewer: Viewer) -> Vec<String> {
    let mut hidden: CardSet = state.dummy_down.iter().copied().collect();
    for card in state.widow.iter().skip(state.round + 1) {
        hidden.insert(*card);
    }
    for (seat, hand) in state.hands.iter().enumerate() {
        if viewer != Viewer::Seat(seat) {
            hidden.0 |= hand.0;
        }
    }
    hidden.iter().map(|c| c.to_string()).collect()
}

/// Determinization for `seat` (see `GameState::determinize`): the other hands, the dummy's
/// face-down cards and the widow cards not yet turned are redealt with their sizes (the face-down
/// and widow orders too, which decide what turns up next); a seat that did not follow the led suit
/// holds none of it (§5: suit must be followed). The dummy plays only face-up cards: it shows
/// nothing about its face-down ones.
pub fn determinize(state: &State, seat: Seat, rng: &mut PlayoutRng) -> Option<State> {
    let n = state.table.players;
    let mut voids = vec![0u64; n];
    let tricks = state.tricks.iter().map(|t| t.plays.as_slice());
    for plays in tricks.chain([state.trick.as_slice()]) {
        if let Some(led) = plays.first().and_then(|p| p.card.suit()) {
            for play in &plays[1..] {
                if let Pos::Seat(s) = play.by {
                    note_follow(&mut voids, s, led, play.card, false);
                }
            }
        }
    }
    let others: Vec<Seat> = (0..n).filter(|&s| s != seat).collect();
    let seen = (state.round + 1).min(state.widow.len());
    let mut pieces: Vec<Card> = others.iter().flat_map(|&s| state.hands[s].iter()).collect();
    pieces.extend(&state.dummy_down);
    pieces.extend(&state.widow[seen..]);
    let mut places: Vec<Place> = others
        .iter()
        .map(|&s| Place {
            size: state.hands[s].len(),
            allowed: !voids[s],
        })
        .collect();
    places.push(Place::free(state.dummy_down.len()));
    places.push(Place::free(state.widow.len() - seen));
    let mut dealt = redeal(&pieces, suit_class, &places, rng)?;
    let mut sample = state.clone();
    sample.widow.truncate(seen);
    sample.widow.extend(dealt.pop()?);
    sample.dummy_down = dealt.pop()?;
    for (s, hand) in others.into_iter().zip(dealt) {
        sample.hands[s] = CardSet::from_cards(hand);
    }
    reseed(&mut sample.table.rng, rng);
    Some(sample)
}
