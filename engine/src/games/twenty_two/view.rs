//! What one seat (or a spectator) may see (spec §6): a whitelist.

use super::action::Cards;
use super::action::rank_of;
use super::rules::{Options, PlayStyle};
use super::state::{Hand, Phase, PlayRecord, SeatCard, State, covers, follow_ok};
use crate::cards::Card;
use crate::common::determinize::{ANY, Place, draw_until, redeal, reseed, shuffle};
use crate::game::{Seat, Viewer};
use crate::rng::PlayoutRng;
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

/// Determinization for `seat` (see `GameState::determinize`; spec §6). Redealt uniformly with
/// their sizes: the other hands, the stock (its order too) and the other seats' face-down exchange
/// discards; the seat's own discards and draws stay. A deal is kept only if every follow of this
/// deal was legal from the hand it implies: a play that did not cover the target was the hand's
/// lowest cards (§3.2 (b)), so everything left is at least as high; under Agurk the head-or-lowest
/// rule (R25) is replayed the same way. The other seats' drawn cards (known only to them) are
/// then chosen uniformly among the cards they held after the exchange.
pub fn determinize(state: &State, seat: Seat, rng: &mut PlayoutRng) -> Option<State> {
    let n = state.table.players;
    let others: Vec<Seat> = (0..n).filter(|&s| s != seat).collect();
    let allowed = rank_bounds(state);
    let mut pieces: Vec<Card> = Vec::new();
    let mut places: Vec<Place> = Vec::new();
    for &s in &others {
        let before = pieces.len();
        pieces.extend(state.hands[s].cards());
        places.push(Place {
            size: pieces.len() - before,
            allowed: allowed[s],
        });
    }
    pieces.extend(&state.stock);
    places.push(Place::free(state.stock.len()));
    let hidden_discards: Vec<usize> = (0..state.discards.len())
        .filter(|&i| state.discards[i].seat != seat)
        .collect();
    pieces.extend(hidden_discards.iter().map(|&i| state.discards[i].card));
    places.push(Place::free(hidden_discards.len()));
    let draw = |rng: &mut PlayoutRng| {
        let mut dealt = redeal(&pieces, |c| rank_of(c.index()) as usize, &places, rng)?;
        let mut sample = state.clone();
        for (&i, card) in hidden_discards.iter().zip(dealt.pop()?) {
            sample.discards[i].card = card;
        }
        sample.stock = dealt.pop()?;
        for (&s, cards) in others.iter().zip(dealt) {
            sample.hands[s] = Hand::from_cards(&cards);
        }
        Some(sample)
    };
    let mut sample = draw_until(rng, draw, follows_were_legal)?;
    for &s in &others {
        let draws: Vec<usize> = (0..sample.drawn.len())
            .filter(|&i| sample.drawn[i].seat == s)
            .collect();
        let mut held: Vec<Card> = sample.hands[s].cards().collect();
        held.extend(
            sample
                .plays
                .iter()
                .filter(|p| p.seat == s)
                .flat_map(|p| p.cards.as_slice().iter().copied()),
        );
        shuffle(&mut held, rng);
        for (&i, card) in draws.iter().zip(held) {
            sample.drawn[i].card = card;
        }
    }
    reseed(&mut sample.table.rng, rng);
    Some(sample)
}

/// True if every follow of the deal's tricks was legal from the hands these cards imply.
fn follows_were_legal(state: &State) -> bool {
    let agurk = state.table.options.play_style == PlayStyle::Agurk;
    let mut hands = state.hands.clone();
    let per_trick = state.started_with.max(1);
    let tricks: Vec<&[PlayRecord]> = state.plays.chunks(per_trick).collect();
    for trick in tricks.iter().rev() {
        let mut before: Vec<Hand> = Vec::with_capacity(trick.len());
        for play in trick.iter().rev() {
            let Some(hand) = hands.get_mut(play.seat) else {
                return false;
            };
            for card in play.cards.as_slice() {
                hand.add(*card);
            }
            before.push(hand.clone());
        }
        before.reverse();
        let lead = trick[0].cards;
        let mut target = lead;
        for (play, hand) in trick.iter().zip(&before).skip(1) {
            match follow_ok(agurk, hand, &lead, &target, &play.cards) {
                None => return false,
                Some(true) => target = play.cards,
                Some(false) => {}
            }
        }
    }
    true
}

/// The ranks each seat may still hold (a bit per rank index), from the deal's public plays: a
/// follow that did not cover the target was its hand's lowest cards, so what is left ranks at
/// least as high (§3.2 (b)); under Agurk a card below the target shows the hand could not head
/// it and was its lowest (R25). The exact check is [`follows_were_legal`]; these bounds make the
/// draw find consistent deals quickly.
fn rank_bounds(state: &State) -> Vec<u64> {
    let agurk = state.table.options.play_style == PlayStyle::Agurk;
    let mut allowed = vec![ANY; state.table.players];
    let mut limit = |seat: Seat, low: u8, high: u8| {
        if let Some(a) = allowed.get_mut(seat) {
            // Ranks low..=high stay allowed.
            let band = ((1u64 << (high + 1)) - 1) & !((1u64 << low) - 1);
            *a &= band;
        }
    };
    for trick in state.plays.chunks(state.started_with.max(1)) {
        let lead = trick[0].cards;
        let mut target = lead;
        for play in &trick[1..] {
            let ranks: Vec<u8> = play
                .cards
                .as_slice()
                .iter()
                .map(|c| rank_of(c.index()))
                .collect();
            let top_played = ranks.iter().copied().max().unwrap_or(0);
            let low_played = ranks.iter().copied().min().unwrap_or(0);
            if agurk {
                let top = target.as_slice().first().map_or(0, |c| rank_of(c.index()));
                let led_ace = lead
                    .as_slice()
                    .first()
                    .is_some_and(|c| rank_of(c.index()) == 12);
                if low_played >= top && !led_ace {
                    target = play.cards;
                } else if led_ace {
                    limit(play.seat, low_played, 12);
                } else {
                    limit(play.seat, low_played, top.saturating_sub(1));
                }
                if led_ace && low_played >= top {
                    target = play.cards;
                }
                continue;
            }
            let mut x = ranks.clone();
            x.sort_unstable();
            let mut t: Vec<u8> = target
                .as_slice()
                .iter()
                .map(|c| rank_of(c.index()))
                .collect();
            t.sort_unstable();
            if covers(&x, &t) {
                target = play.cards;
            } else {
                limit(play.seat, top_played, 12);
            }
        }
    }
    allowed
}
