//! What one seat (or a spectator) may know (spec §6): a whitelist built field by field.

use super::action::Proposal;
use super::rules::Options;
use super::state::{DealSummary, Phase, State, Trick, blind_knowledge};
use crate::cards::{Card, CardSet, Rank, Suit};
use crate::common::determinize::{ANY, draw_until, redeal_cards, reseed, shuffle};
use crate::game::GameState;
use crate::game::{Seat, Viewer};
use crate::rng::PlayoutRng;
use serde::{Deserialize, Serialize};

/// A pending raise as everyone sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RaiseView {
    /// The raising seat.
    pub seat: Seat,
    /// The proposed value.
    pub to: u32,
}

/// The view of one seat or a spectator.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct View {
    /// The viewing seat (`None` for a spectator).
    pub seat: Option<Seat>,
    /// Number of seats.
    pub players: usize,
    /// The options (public). `carinthian_top` is written `carinthian_top_jd` (a bool) here, so
    /// that a view never holds a card code of a hidden card.
    #[serde(with = "view_options")]
    #[schemars(schema_with = "view_options::schema")]
    pub options: Options,
    /// Phase.
    pub phase: Phase,
    /// Deal number (0-based).
    pub deal: u32,
    /// Dealer.
    pub dealer: Seat,
    /// Eldest (Vorhand).
    pub eldest: Seat,
    /// Cutter.
    pub cutter: Seat,
    /// The seats of each side in this deal.
    pub sides: Vec<Vec<Seat>>,
    /// Scores per seat (partners repeat their side's score).
    pub scores: Vec<i32>,
    /// Own hand, when the viewer may look at it.
    #[serde(default)]
    pub hand: Option<Vec<Card>>,
    /// Cards per seat.
    pub hand_sizes: Vec<usize>,
    /// Criticals taken by the cutter at the cut (public).
    pub cut_taken: Vec<Card>,
    /// The card shown at the cut.
    pub cut_shown: Option<Card>,
    /// Bohemian turn-up card.
    pub turn_up: Option<Card>,
    /// The partner's hand (Tyrolean Schlag 6, R31).
    #[serde(default)]
    pub partner_hand: Option<Vec<Card>>,
    /// Own discards (new cards, Bohemian exchange).
    pub own_discards: Vec<Card>,
    /// Pending naming proposal.
    pub proposal: Option<Proposal>,
    /// The Schlag swap was accepted.
    pub swapped: bool,
    /// The Schlag, if known to the viewer.
    pub schlag: Option<Rank>,
    /// The trump suit, if known to the viewer.
    pub trump: Option<Suit>,
    /// Blind: the designated cards the viewer knows (E's, dealer's).
    pub designated: [Option<Card>; 2],
    /// Blind: which of E / dealer has designated.
    pub has_designated: [bool; 2],
    /// Value of the deal.
    pub stake: u32,
    /// The side holding the raise right (`None` = any).
    pub raise_right: Option<usize>,
    /// A pending raise.
    pub pending_raise: Option<RaiseView>,
    /// Completed tricks of this deal.
    pub tricks: Vec<Trick>,
    /// The trick in progress.
    pub current: Trick,
    /// Tricks won per side (Bohemian: per seat).
    pub won: Vec<u8>,
    /// The seat whose card is next (play phase).
    pub seat_to_play: Option<Seat>,
    /// Seats that may act now.
    pub to_act: Vec<Seat>,
    /// Signals of this deal.
    pub signals: Vec<(Seat, String)>,
    /// Bohemian exchange: `(seat, cards exchanged)`, and the seat whose turn it is.
    pub exchanges: Vec<(Seat, u8)>,
    /// Stock cards left (count only).
    pub stock_size: usize,
    /// The last finished deal.
    pub last_deal: Option<DealSummary>,
}

/// The cards `viewer` may see (everything else is hidden from it).
pub fn visible_cards(state: &State, viewer: Viewer) -> CardSet {
    let d = &state.deal;
    let mut v = CardSet::from_cards(d.cut_taken.iter().copied());
    v.0 |= CardSet::from_cards(d.cut_shown.into_iter().chain(d.turn_up)).0;
    for t in d.tricks.iter().chain(std::iter::once(&d.current)) {
        for (_, c) in &t.plays {
            v.insert(*c);
        }
    }
    if let Viewer::Seat(s) = viewer {
        if hand_visible(state, s) {
            v.0 |= d.hands.get(s).map_or(0, |h| h.0);
        }
        v.0 |= d.discards.get(s).map_or(0, |h| h.0);
        if let Some(p) = partner(state, s) {
            v.0 |= d.hands.get(p).map_or(0, |h| h.0);
        }
    }
    let seat = match viewer {
        Viewer::Seat(s) => Some(s),
        Viewer::Spectator => None,
    };
    let (_, seen) = blind_knowledge(state, seat);
    for (i, c) in d.designated.iter().enumerate() {
        if let Some(c) = c
            && seen[i]
        {
            v.insert(*c);
        }
    }
    v
}

/// Whether a seat may look at its own hand (§6, R7).
pub fn hand_visible(state: &State, seat: Seat) -> bool {
    state.phase != Phase::Naming
        || state.table.players == 2
        || seat == state.eldest()
        || seat == state.deal.dealer
}

fn partner(state: &State, seat: Seat) -> Option<Seat> {
    state
        .partner_view_in_force()
        .then_some((seat + 2) % state.table.players)
}

/// Builds the view.
pub fn view(state: &State, viewer: Viewer) -> View {
    let d = &state.deal;
    let seat = match viewer {
        Viewer::Seat(s) if s < state.table.players => Some(s),
        _ => None,
    };
    let (knows, seen) = blind_knowledge(state, seat);
    let sides_count = if state.table.options.variant == super::rules::Variant::Bohemian {
        state.table.players
    } else {
        2
    };
    let designated = [0, 1].map(|i| d.designated[i].filter(|_| seen[i]));
    View {
        seat,
        players: state.table.players,
        options: state.table.options.clone(),
        phase: state.phase,
        deal: state.deals_played,
        dealer: d.dealer,
        eldest: state.eldest(),
        cutter: state.cutter(),
        sides: (0..sides_count)
            .map(|s| state.side_seats(s).collect())
            .collect(),
        scores: state.scores.clone(),
        hand: seat
            .filter(|s| hand_visible(state, *s))
            .map(|s| d.hands[s].iter().collect()),
        hand_sizes: d.hands.iter().map(|h| h.len()).collect(),
        cut_taken: d.cut_taken.clone(),
        cut_shown: d.cut_shown,
        turn_up: d.turn_up,
        partner_hand: seat
            .and_then(|s| partner(state, s))
            .map(|p| d.hands[p].iter().collect()),
        own_discards: seat.map_or(Vec::new(), |s| d.discards[s].iter().collect()),
        proposal: d.proposal,
        swapped: d.swapped,
        schlag: if knows { d.schlag } else { None },
        trump: if knows { d.trump } else { None },
        designated,
        has_designated: [d.designated[0].is_some(), d.designated[1].is_some()],
        stake: d.stake,
        raise_right: d.raise_right,
        pending_raise: d.pending.map(|p| RaiseView {
            seat: p.seat,
            to: p.to,
        }),
        tricks: d.tricks.clone(),
        current: d.current.clone(),
        won: d.won.iter().take(sides_count).copied().collect(),
        seat_to_play: (state.phase == Phase::Play).then(|| state.seat_to_play()),
        to_act: state.to_act().to_vec(),
        signals: d.signals.clone(),
        exchanges: d.exchanges.clone(),
        stock_size: d.stock.len(),
        last_deal: state.last_deal.as_deref().cloned(),
    }
}

mod view_options {
    use super::Options;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use serde_json::Value;

    pub fn serialize<S: Serializer>(options: &Options, s: S) -> Result<S::Ok, S::Error> {
        let mut value = serde_json::to_value(options).map_err(serde::ser::Error::custom)?;
        if let Value::Object(map) = &mut value {
            let jd = map.remove("carinthian_top") == Some(Value::from("JD"));
            map.insert("carinthian_top_jd".into(), Value::Bool(jd));
        }
        value.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Options, D::Error> {
        let mut value = Value::deserialize(d)?;
        if let Value::Object(map) = &mut value {
            let jd = map.remove("carinthian_top_jd") == Some(Value::Bool(true));
            map.insert(
                "carinthian_top".into(),
                Value::from(if jd { "JD" } else { "JH" }),
            );
        }
        serde_json::from_value(value).map_err(serde::de::Error::custom)
    }

    /// The schema of [`serialize`]'s output: the options' schema with `carinthian_top` replaced.
    pub fn schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut schema = <Options as schemars::JsonSchema>::json_schema(generator);
        if let Some(Value::Object(properties)) = schema.get_mut("properties") {
            properties.remove("carinthian_top");
            properties.insert(
                "carinthian_top_jd".into(),
                serde_json::json!({
                    "type": "boolean",
                    "description": "True if the Carinthian top card is the jack of diamonds (else the jack of hearts).",
                }),
            );
        }
        if let Some(Value::Array(required)) = schema.get_mut("required") {
            for name in required.iter_mut() {
                if name == "carinthian_top" {
                    *name = Value::from("carinthian_top_jd");
                }
            }
        }
        schema
    }
}

/// Determinization for `seat` (see `GameState::determinize`; spec §6): every card the seat cannot
/// see ([`visible_cards`]: its own hand once it may look, its partner's hand where partners show,
/// its discards, the cut, the turn-up, designated cards it saw, every played card) is redealt
/// uniformly over the places holding unseen cards (hands, the stock at its unseen positions, the
/// other seats' exchange discards), each keeping its size; seen cards stay where they are. A deal
/// is kept only if every play of this deal was legal from the hand it implies (the follow rules
/// of §3.5 replayed with the deal's roles: trump led must be answered, bound seats only). Signals
/// are free codes, not checked by the engine: they constrain nothing.
pub fn determinize(state: &State, seat: Seat, rng: &mut PlayoutRng) -> Option<State> {
    let d = &state.deal;
    let visible = visible_cards(state, Viewer::Seat(seat));
    let unseen = |set: CardSet| CardSet(set.0 & !visible.0);
    // A card y a follower could not have held: with y beside the card it played, that card would
    // have been illegal (follow, beat, answer trumps). Bounds for a quick draw; the exact check
    // is [`plays_were_legal`].
    let pack = CardSet::from_cards(state.table.options.pack().cards());
    let pool = CardSet(pack.0 & !visible.0);
    let excluded = follow_exclusions(state, pool);
    let mut places: Vec<(CardSet, u64)> = d
        .hands
        .iter()
        .zip(&excluded)
        .map(|(h, x)| (unseen(*h), !x.0))
        .collect();
    places.extend(d.discards.iter().map(|h| (unseen(*h), ANY)));
    let stock_slots: Vec<usize> = (0..d.stock.len())
        .filter(|&i| !visible.contains(d.stock[i]))
        .collect();
    places.push((
        CardSet::from_cards(stock_slots.iter().map(|&i| d.stock[i])),
        ANY,
    ));
    let n = d.hands.len();
    let draw = |rng: &mut PlayoutRng| {
        let mut dealt = redeal_cards(&places, rng)?;
        let mut sample = state.clone();
        let stock = dealt.pop()?;
        let mut stock_cards: Vec<Card> = stock.iter().collect();
        shuffle(&mut stock_cards, rng);
        for (&i, card) in stock_slots.iter().zip(stock_cards) {
            sample.deal.stock[i] = card;
        }
        for (i, set) in dealt.into_iter().enumerate() {
            let place = if i < n {
                &mut sample.deal.hands[i]
            } else {
                &mut sample.deal.discards[i - n]
            };
            place.0 = (place.0 & visible.0) | set.0;
        }
        Some(sample)
    };
    let mut sample = draw_until(rng, draw, plays_were_legal)?;
    reseed(&mut sample.table.rng, rng);
    Some(sample)
}

/// True if every play of the deal was legal from the hand these cards imply.
fn plays_were_legal(state: &State) -> bool {
    let d = &state.deal;
    let Some(roles) = state.roles() else {
        return true;
    };
    let mut hands = d.hands.clone();
    let tricks: Vec<&Trick> = d.tricks.iter().chain([&d.current]).collect();
    for (t, trick) in tricks.iter().enumerate().rev() {
        for i in (0..trick.plays.len()).rev() {
            let (s, card) = trick.plays[i];
            let Some(hand) = hands.get_mut(s) else {
                return false;
            };
            hand.insert(card);
            let bound = !state.is_blind_seat(s);
            let legal =
                roles.legal_follow(&state.table.options, *hand, &trick.plays[..i], t, bound);
            if !legal.contains(card) {
                return false;
            }
        }
    }
    true
}

/// Per seat, the unseen cards (`pool`) it cannot hold: those that, beside a card it followed
/// with, would have made that card illegal (the follow rules are monotone: a card that forbids a
/// play in a two-card hand forbids it in any hand).
fn follow_exclusions(state: &State, pool: CardSet) -> Vec<CardSet> {
    let d = &state.deal;
    let mut excluded = vec![CardSet::EMPTY; d.hands.len()];
    let Some(roles) = state.roles() else {
        return excluded;
    };
    for (t, trick) in d.tricks.iter().chain([&d.current]).enumerate() {
        for i in 1..trick.plays.len() {
            let (s, card) = trick.plays[i];
            let bound = !state.is_blind_seat(s);
            for y in pool.iter() {
                let pair = CardSet::from_cards([card, y]);
                let legal =
                    roles.legal_follow(&state.table.options, pair, &trick.plays[..i], t, bound);
                if !legal.contains(card)
                    && let Some(x) = excluded.get_mut(s)
                {
                    x.insert(y);
                }
            }
        }
    }
    excluded
}
