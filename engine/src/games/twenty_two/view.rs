//! What one seat (or a spectator) may see (spec §6): a whitelist.

use super::action::Cards;
use super::rules::Options;
use super::state::{Phase, PlayRecord, SeatCard, State};
use crate::cards::Card;
use crate::game::{Seat, Viewer};
use serde::{Deserialize, Serialize};

/// A completed trick of the current deal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TrickView {
    /// The plays, in order.
    pub plays: Vec<PlayRecord>,
    /// Who won it.
    pub winner: Seat,
}

/// The view of a seat or a spectator.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct View {
    /// The viewing seat (`null` for a spectator).
    pub seat: Option<Seat>,
    /// The viewer's own cards (seats only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<Card>>,
    /// The cards this seat discarded in this deal's exchange (seats only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub my_discards: Option<Vec<Card>>,
    /// The cards this seat drew in this deal's exchange (seats only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub my_draws: Option<Vec<Card>>,
    /// The options of the game.
    pub options: Options,
    /// Number of seats.
    pub players: usize,
    /// Number of packs.
    pub packs: usize,
    /// Deal number (1-based).
    pub deal: u32,
    /// Dealer.
    pub dealer: Seat,
    /// Leader of the deal.
    pub leader: Seat,
    /// `exchange`, `play`, `buy_back` or `over`.
    pub phase: String,
    /// The seat to act, if any.
    pub to_act: Option<Seat>,
    /// Cards dealt to each player in this deal.
    pub cards_each: usize,
    /// Cards in each hand.
    pub hand_sizes: Vec<usize>,
    /// Cards in the stock.
    pub stock_size: usize,
    /// Cards each seat discarded in this deal's exchange.
    pub discarded: Vec<usize>,
    /// Cards each seat drew in this deal's exchange.
    pub drew: Vec<usize>,
    /// Penalty totals (lower is better).
    pub totals: Vec<u32>,
    /// Whether each seat is out.
    pub eliminated: Vec<bool>,
    /// The deal in which each seat went out.
    pub eliminated_in: Vec<Option<u32>>,
    /// Penalty markers in front of each seat.
    pub markers: Vec<Vec<Card>>,
    /// Completed tricks of this deal.
    pub tricks: Vec<TrickView>,
    /// The current trick so far.
    pub trick: Vec<PlayRecord>,
    /// The set to beat (`null` when a lead is due).
    pub target: Option<Cards>,
    /// The last cards of the latest finished deal.
    pub last_cards: Vec<SeatCard>,
    /// Losers of the latest finished deal.
    pub last_losers: Vec<Seat>,
    /// Who has used the buy-back.
    pub bought_back: Vec<bool>,
    /// Stakes paid per seat.
    pub stakes: Vec<u32>,
    /// Stakes in the pot.
    pub pot: u32,
}

/// Builds the view of `viewer` from the state, field by field.
pub fn view(state: &State, viewer: Viewer) -> View {
    let seat = match viewer {
        Viewer::Seat(s) if s < state.table.players => Some(s),
        _ => None,
    };
    let own = |list: &[SeatCard]| -> Option<Vec<Card>> {
        seat.map(|s| {
            list.iter()
                .filter(|x| x.seat == s)
                .map(|x| x.card)
                .collect()
        })
    };
    let per_seat = |list: &[SeatCard]| -> Vec<usize> {
        (0..state.table.players)
            .map(|s| list.iter().filter(|x| x.seat == s).count())
            .collect()
    };
    let in_trick = state.started_with.max(1);
    let tricks = state
        .winners
        .iter()
        .enumerate()
        .map(|(t, winner)| TrickView {
            plays: state
                .plays
                .get(t * in_trick..(t + 1) * in_trick)
                .unwrap_or(&[])
                .to_vec(),
            winner: *winner,
        })
        .collect();
    View {
        seat,
        hand: seat
            .and_then(|s| state.hands.get(s))
            .map(|h| h.cards().collect()),
        my_discards: own(&state.discards),
        my_draws: own(&state.drawn),
        options: state.table.options.clone(),
        players: state.table.players,
        packs: state.packs,
        deal: state.deal,
        dealer: state.dealer,
        leader: state.leader,
        phase: match state.phase {
            Phase::Exchange { .. } => "exchange",
            Phase::Play { .. } => "play",
            Phase::BuyBack { .. } => "buy_back",
            Phase::Over => "over",
        }
        .to_string(),
        to_act: state.actor(),
        cards_each: state.cards_each,
        hand_sizes: state.hands.iter().map(|h| h.len()).collect(),
        stock_size: state.stock.len(),
        discarded: per_seat(&state.discards),
        drew: per_seat(&state.drawn),
        totals: state.totals.clone(),
        eliminated: state.eliminated_in.iter().map(Option::is_some).collect(),
        eliminated_in: state.eliminated_in.clone(),
        markers: state.markers.clone(),
        tricks,
        trick: state.trick().to_vec(),
        target: state.target_play().map(|p| p.cards),
        last_cards: state.revealed.clone(),
        last_losers: state.losers.iter().map(|l| l.seat).collect(),
        bought_back: state.bought_back.clone(),
        stakes: state.stakes.clone(),
        pot: state.stakes.iter().sum(),
    }
}

/// Codes `viewer` must not see: other hands, the stock, others' discards, unless a copy is visible
/// (its own cards, every played card, markers, last cards).
pub fn hidden_from(state: &State, viewer: Viewer) -> Vec<String> {
    let seat = match viewer {
        Viewer::Seat(s) => Some(s),
        Viewer::Spectator => None,
    };
    let mut hidden = [false; 52];
    let mut visible = [false; 52];
    let mark = |flags: &mut [bool; 52], card: Card| {
        if let Some(f) = flags.get_mut(card.index()) {
            *f = true;
        }
    };
    for (s, hand) in state.hands.iter().enumerate() {
        let flags = if Some(s) == seat {
            &mut visible
        } else {
            &mut hidden
        };
        for card in hand.cards() {
            mark(flags, card);
        }
    }
    for card in &state.stock {
        mark(&mut hidden, *card);
    }
    for d in &state.discards {
        let flags = if Some(d.seat) == seat {
            &mut visible
        } else {
            &mut hidden
        };
        mark(flags, d.card);
    }
    for d in &state.drawn {
        if Some(d.seat) == seat {
            mark(&mut visible, d.card);
        }
    }
    for play in &state.plays {
        for card in play.cards.as_slice() {
            mark(&mut visible, *card);
        }
    }
    for card in state.markers.iter().flatten() {
        mark(&mut visible, *card);
    }
    for s in &state.revealed {
        mark(&mut visible, s.card);
    }
    (0..52)
        .filter(|i| hidden[*i] && !visible[*i])
        .filter_map(Card::from_index)
        .map(|c| c.to_string())
        .collect()
}
