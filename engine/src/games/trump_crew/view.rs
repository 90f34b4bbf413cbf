//! What one seat (or a spectator) sees (spec §6), and the built-in heuristic bot that reads it.

use super::action::{Action, Strength};
use super::state::{DealSummary, Phase, Play, State, Trick, strength};
use crate::cards::{Card, CardSet, Rank, Suit};
use crate::game::{Seat, Viewer};
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
        Viewer::Seat(s) if s < state.players => Some(s),
        _ => None,
    };
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
        phase: state.phase,
        to_act: (state.phase != Phase::Over).then_some(state.to_play),
        final_stage: state.final_stage,
        start_stage: state.options.start_stage,
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
        trick: state.trick.clone(),
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

/// Rough expected tricks of a hand (a simple trick count, not a simulation).
fn estimate(hand: &[Card], trump: Option<Suit>, players: usize) -> f64 {
    let crowd = (4.0 / players.max(2) as f64).min(1.0);
    hand.iter()
        .map(|card| match (card.rank(), card.suit()) {
            (None, _) | (_, None) => 1.0,
            (Some(rank), Some(suit)) if Some(suit) == trump => match rank {
                Rank::Ace => 0.95,
                Rank::King => 0.8,
                Rank::Queen => 0.6,
                Rank::Jack => 0.45,
                _ => 0.3 * crowd + 0.05,
            },
            (Some(Rank::Ace), _) => 0.75 * crowd,
            (Some(Rank::King), _) => 0.35 * crowd,
            _ => 0.0,
        })
        .sum()
}

fn index_of(legal: &[Action], wanted: &Action) -> usize {
    legal.iter().position(|a| a == wanted).unwrap_or(0)
}

/// The heuristic policy: bid a trick estimate, then try to win exactly the bid.
pub fn heuristic(view: &View, legal: &[Action]) -> usize {
    let hand = view.hand.clone().unwrap_or_default();
    let Some(me) = view.seat else { return 0 };
    match legal.first() {
        Some(Action::Declare { .. }) => {
            let share = f64::from(view.stage) / view.players.max(1) as f64;
            let ratio = estimate(&hand, view.trump, view.players) / share.max(0.01);
            let word = if ratio > 1.3 {
                Strength::Strong
            } else if ratio < 0.7 {
                Strength::Weak
            } else {
                Strength::Medium
            };
            index_of(legal, &Action::Declare { strength: word })
        }
        Some(Action::Bid { .. }) => {
            let est = estimate(&hand, view.trump, view.players).round() as u32;
            let tricks = est.min(view.chips_left);
            index_of(legal, &Action::Bid { tricks })
        }
        Some(Action::Play { .. }) => play(view, me, legal),
        None => 0,
    }
}

fn card_of(action: &Action) -> Option<Card> {
    match action {
        Action::Play { cards, .. } => cards.first().copied(),
        _ => None,
    }
}

/// A legal card: its index in `legal`, the card, its strength in the trick.
type Candidate = (usize, Card, Option<(u8, u8)>);

fn play(view: &View, me: Seat, legal: &[Action]) -> usize {
    let bid = view.bids.get(me).copied().flatten().unwrap_or(0);
    let won = view.tricks_won.get(me).copied().unwrap_or(0);
    let want_win = won < bid;
    let trump = view.trump;
    let rank = |c: Card| c.rank().map_or(15, |r| r.value());
    if view.trick.is_empty() {
        // Leading.
        let hand: CardSet = legal.iter().filter_map(card_of).collect();
        if want_win {
            if hand.contains(Card::JOKER) {
                return index_of(legal, &Action::joker_lead(None));
            }
            let best = hand.iter().max_by_key(|c| {
                let is_trump = c.suit() == trump && trump.is_some();
                (is_trump && rank(*c) >= 13, rank(*c), is_trump)
            });
            return best.map_or(0, |c| index_of(legal, &Action::play(c)));
        }
        let low = hand
            .iter()
            .filter(|c| !c.is_joker())
            .min_by_key(|c| (trump.is_some() && c.suit() == trump, rank(*c)));
        return low.map_or(0, |c| index_of(legal, &Action::play(c)));
    }
    // Following: what would each card do to the trick as it stands?
    let led = view.led_suit;
    let best_so_far = view
        .trick
        .iter()
        .filter_map(|p| strength(p.card, led, trump))
        .max();
    let last = view.trick.len() + 1 == view.players;
    let mut options: Vec<Candidate> = legal
        .iter()
        .enumerate()
        .filter_map(|(i, a)| card_of(a).map(|c| (i, c, strength(c, led, trump))))
        .collect();
    let beats = |s: Option<(u8, u8)>| s.is_some() && s > best_so_far;
    if want_win {
        let winners: Vec<_> = options.iter().filter(|o| beats(o.2)).copied().collect();
        let plain: Vec<_> = winners
            .iter()
            .filter(|o| !o.1.is_joker())
            .copied()
            .collect();
        let pick = if last {
            plain.iter().min_by_key(|o| o.2).or(winners.first())
        } else {
            // Not last: only a strong winner is worth it; the joker is sure.
            plain
                .iter()
                .filter(|o| o.2.is_some_and(|(_, r)| r >= 12))
                .max_by_key(|o| o.2)
                .or(winners.iter().find(|o| o.1.is_joker()))
                .or(plain.iter().max_by_key(|o| o.2))
        };
        if let Some(o) = pick {
            return o.0;
        }
        // Cannot win: throw the lowest card.
        options.sort_by_key(|o| (o.1.is_joker(), o.2.is_some(), rank(o.1)));
        return options.first().map_or(0, |o| o.0);
    }
    // Trying to lose: the highest card that does not win now, never the joker.
    let losers = options
        .iter()
        .filter(|o| !beats(o.2) && !o.1.is_joker())
        .max_by_key(|o| (o.2, rank(o.1)));
    if let Some(o) = losers {
        return o.0;
    }
    options
        .iter()
        .filter(|o| !o.1.is_joker())
        .min_by_key(|o| o.2)
        .or(options.first())
        .map_or(0, |o| o.0)
}
