//! What one seat (or a spectator) sees (spec §6), and the built-in heuristic bot that reads it.

use super::action::{Action, Contract};
use super::state::{
    Call, CardName, HandSummary, Phase, Play, Pos, State, Trick, bird_dog_of, strength,
};
use crate::cards::{Card, CardSet, Rank, Suit};
use crate::game::{Seat, Viewer};
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
    /// False when the Bird Dog card lies in the widow.
    pub bird_dog_in_play: bool,
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
        Viewer::Seat(s) if s < state.players => Some(s),
        _ => None,
    };
    let (tricks_won, dummy_tricks) = state.tricks_won();
    let bird_dog = state.bird_dog();
    View {
        players: state.players,
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
        hand_number: state.hands_played + u32::from(state.phase != Phase::Over),
        target: state.options.target,
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
        bird_dog_in_play: state.bird_dog_in_play().is_some(),
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

fn index_of(legal: &[Action], wanted: &Action) -> usize {
    legal.iter().position(|a| a == wanted).unwrap_or(0)
}

fn card_of(action: &Action) -> Option<Card> {
    match action {
        Action::Play { cards } => cards.first().copied(),
        _ => None,
    }
}

fn rank_value(card: Card) -> u8 {
    card.rank().map_or(0, Rank::value)
}

/// How good a hand is with `trump` and its Bird Dog card (a rough trick count).
fn hand_strength(hand: &[Card], trump: Suit, bird_dog: Option<Card>) -> f64 {
    hand.iter()
        .map(|&c| {
            if Some(c) == bird_dog {
                1.5
            } else if c.suit() == Some(trump) {
                0.7 + f64::from(rank_value(c).saturating_sub(9)) * 0.1
            } else if c.rank() == Some(Rank::Ace) {
                0.6
            } else {
                0.0
            }
        })
        .sum()
}

/// The heuristic: go solo with a strong hand for the turned suit, nil with a hopeless one, then
/// win tricks cheaply (or duck everything when nil).
pub fn heuristic(view: &View, legal: &[Action]) -> usize {
    let Some(me) = view.seat else { return 0 };
    let hand = view.hand.clone().unwrap_or_default();
    match legal.first() {
        Some(Action::Declare {
            contract: Contract::Solo,
        }) => {
            let Some(candidate) = view.candidate else {
                return 1;
            };
            let trump = candidate.suit().unwrap_or(Suit::Spades);
            let bird_dog = bird_dog_of(candidate).filter(|c| !view.widow_seen.contains(c));
            let strong = hand_strength(&hand, trump, bird_dog);
            let bar = if view.players == 2 { 3.2 } else { 3.6 };
            let wanted = if strong >= bar {
                Action::Declare {
                    contract: Contract::Solo,
                }
            } else {
                Action::Pass
            };
            index_of(legal, &wanted)
        }
        Some(Action::Declare {
            contract: Contract::Nil,
        }) => {
            let trump = view.trump.unwrap_or(Suit::Spades);
            let bird_dog = view.bird_dog.map(|b| Card::new(b.rank, b.suit));
            let hopeless = view.solo != Some(me)
                && hand.iter().all(|&c| {
                    Some(c) != bird_dog && c.suit() != Some(trump) && rank_value(c) <= 11
                });
            index_of(legal, if hopeless { &legal[0] } else { &Action::Pass })
        }
        Some(Action::Pass) => 0,
        Some(Action::Play { .. }) => play(view, me, legal),
        None => 0,
    }
}

fn play(view: &View, me: Seat, legal: &[Action]) -> usize {
    let trump = view.trump;
    let bird_dog = if view.bird_dog_in_play {
        view.bird_dog.map(|b| Card::new(b.rank, b.suit))
    } else {
        None
    };
    let ducking = view.nil == Some(me) && !view.dummy_to_play;
    let cards: Vec<(usize, Card)> = legal
        .iter()
        .enumerate()
        .filter_map(|(i, a)| card_of(a).map(|c| (i, c)))
        .collect();
    let is_trump = |c: Card| trump.is_some() && c.suit() == trump;
    let Some(first) = view.trick.first() else {
        // Leading.
        let pick = if ducking {
            cards
                .iter()
                .filter(|(_, c)| Some(*c) != bird_dog && !is_trump(*c))
                .min_by_key(|(_, c)| rank_value(*c))
                .or(cards.iter().min_by_key(|(_, c)| rank_value(*c)))
        } else {
            cards
                .iter()
                .find(|(_, c)| Some(*c) == bird_dog)
                .or(cards
                    .iter()
                    .filter(|(_, c)| rank_value(*c) == 14)
                    .max_by_key(|(_, c)| is_trump(*c)))
                .or(cards
                    .iter()
                    .filter(|(_, c)| !is_trump(*c))
                    .min_by_key(|(_, c)| rank_value(*c)))
                .or(cards.first())
        };
        return pick.map_or(0, |(i, _)| *i);
    };
    let led = first.card.suit().unwrap_or(Suit::Spades);
    let best = view
        .trick
        .iter()
        .filter_map(|p| strength(p.card, led, trump, bird_dog))
        .max();
    let power = |c: Card| strength(c, led, trump, bird_dog);
    let beats = |c: Card| power(c).is_some() && power(c) > best;
    let last = view.trick.len() == 2;
    if ducking {
        let pick = cards
            .iter()
            .filter(|(_, c)| !beats(*c))
            .max_by_key(|(_, c)| (power(*c), rank_value(*c)))
            .or(cards.iter().min_by_key(|(_, c)| power(*c)));
        return pick.map_or(0, |(i, _)| *i);
    }
    // Win cheaply when last or when the win is sure (Bird Dog, ace of trump); else throw low.
    let winners = cards.iter().filter(|(_, c)| beats(*c));
    let pick = if last {
        winners.min_by_key(|(_, c)| power(*c))
    } else {
        winners
            .filter(|(_, c)| Some(*c) == bird_dog || (is_trump(*c) && rank_value(*c) == 14))
            .min_by_key(|(_, c)| power(*c))
    };
    let pick = pick.or(cards
        .iter()
        .min_by_key(|(_, c)| (is_trump(*c) || Some(*c) == bird_dog, rank_value(*c))));
    pick.map_or(0, |(i, _)| *i)
}
