//! State, phases and the flow of a game of Taihe A Bao: deal, two bidding rounds with calls and
//! exchanges, climbing play, stakes, next hand.

use super::action::{Action, Event};
use super::combination::{
    Combo, RANKS, beats, canonical, classify, classify_set, deck, for_each_combo, rank_counts,
    rank_index, top_triple_rank,
};
use super::rules::{Options, StakeScheme};
use super::view;
use super::view::View;
use crate::cards::{Card, CardList, CardSet, Rank, Suit};
use crate::deal::{deal_sequence_inline, parse_card_deals};
use crate::error::{ActionError, SetupError};
use crate::game::{Actors, GameResult, GameState, Table, Viewer};
use crate::game::{Seat, Setup};
use crate::rng::GameRng;
use serde::{Deserialize, Serialize};
use smallvec::smallvec;

/// The phase of the current hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Bidding round 1: declare or pass.
    Bid1,
    /// Bidding round 2: call a card or pass.
    Bid2,
    /// A caller gives a card back face down.
    Exchange,
    /// The climbing play.
    Play,
    /// The game is over.
    Over,
}

/// A public call: who called which card, and who handed it over face up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Call {
    /// The caller.
    pub seat: Seat,
    /// The called card.
    pub card: Card,
    /// Who held it and gave it face up.
    pub from: Seat,
}

/// The combination on top of the current round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Top {
    /// Who played it.
    pub seat: Seat,
    /// Its cards.
    pub cards: CardSet,
    /// Its classification.
    pub combo: Combo,
}

/// How a hand ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Played out: someone went out first.
    Played,
    /// Nobody declared or called: thrown in (R15).
    ThrownIn,
    /// `single_call_wins`: one caller, won without play.
    SingleCall,
}

/// The public record of one finished hand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct HandRecord {
    /// Hand number, from 1.
    pub hand: u32,
    /// The first bidder.
    pub first_bidder: Seat,
    /// How it ended.
    pub outcome: Outcome,
    /// The declarer, if any.
    pub declarer: Option<Seat>,
    /// True if the declarer declared in round 1.
    pub first_round: bool,
    /// The callers of round 2, in order.
    pub callers: Vec<Seat>,
    /// Stake unit s (before any doubling).
    pub stake: i64,
    /// True if the stake was doubled (spring, R7).
    pub doubled: bool,
    /// Who went out first (played hands).
    pub first_out: Option<Seat>,
    /// True if the declarer won.
    pub declarer_won: Option<bool>,
    /// Stakes won (+) or paid (−) per seat.
    pub payoffs: Vec<i64>,
}

/// The exchange owed after a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Pending {
    /// The caller, who must give a card.
    pub caller: Seat,
    /// The holder, who gave the called card and receives one.
    pub holder: Seat,
    /// The called card just received.
    pub received: Card,
}

/// The full state of a game.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct State {
    /// The shared header: players, options, the RNG and its seed.
    pub table: Table<Options>,
    /// Stacked deals.
    #[serde(rename = "deals")]
    pub stacked: Vec<Vec<Card>>,
    /// Deals consumed so far (the next entry's index).
    pub deals_used: usize,
    /// Hands finished (thrown-in hands included).
    #[serde(rename = "hands_done")]
    pub deals_played: u32,
    /// Each seat's cards.
    pub hands: Vec<CardSet>,
    /// Cards played in this hand.
    pub pile: CardSet,
    /// Phase.
    pub phase: Phase,
    /// Seat to act.
    pub turn: Seat,
    /// First bidder of this hand.
    pub first_bidder: Seat,
    /// Turns taken in the current bidding circuit.
    pub bid_turns: usize,
    /// Calls of this hand.
    pub calls: Vec<Call>,
    /// The exchange owed (phase `Exchange`).
    pub pending: Option<Pending>,
    /// The declarer (play phase).
    pub declarer: Option<Seat>,
    /// True if the declarer declared in round 1.
    pub first_round: bool,
    /// Stake unit s of this hand.
    pub stake: i64,
    /// The top combination of the round, if any (none: the turn seat leads).
    pub top: Option<Top>,
    /// Passes since the last play.
    pub passes: usize,
    /// Combinations played per seat in this hand.
    pub played: Vec<u32>,
    /// Previous played hand: declarer and whether it won (first-bidder rule).
    pub last: Option<(Seat, bool)>,
    /// Cumulative stakes per seat.
    pub scores: Vec<i64>,
    /// Finished hands.
    pub history: Vec<HandRecord>,
}

fn list(cards: &[Card]) -> String {
    cards
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

const FOUR_HEARTS: Card = Card::new(Rank::Four, Suit::Hearts);

/// True for a card that may be neither called nor given in an exchange (Aces and 4s).
fn barred(card: Card) -> bool {
    matches!(card.rank(), Some(Rank::Ace | Rank::Four))
}

impl State {
    /// Sets up the game and deals hand 1.
    pub fn new(setup: &Setup<Options>, events: &mut Vec<Event>) -> Result<State, SetupError> {
        let n = setup.players;
        if !(3..=5).contains(&n) {
            return Err(SetupError::InvalidOptions(format!(
                "Taihe A Bao is played by 3, 4 or 5 players, not {n}"
            )));
        }
        let deck = deck(n, &setup.options);
        let pack = pack_of(&deck);
        let deals = parse_card_deals(&setup.deals, &pack)?;
        // parse_card_deals checks against a pack built from ranks; reject removed cards too.
        for (d, entry) in deals.iter().enumerate() {
            if let Some(card) = entry.iter().find(|c| !deck.contains(c)) {
                return Err(SetupError::InvalidDeals(format!(
                    "deal {d}: {card} is not a card of this game's pack"
                )));
            }
        }
        let mut state = State {
            table: Table {
                players: n,
                options: setup.options.clone(),
                rng: GameRng::new(setup.seed),
            },
            stacked: deals,
            deals_used: 0,
            deals_played: 0,
            hands: vec![CardSet::EMPTY; n],
            pile: CardSet::EMPTY,
            phase: Phase::Bid1,
            turn: 0,
            first_bidder: 0,
            bid_turns: 0,
            calls: Vec::new(),
            pending: None,
            declarer: None,
            first_round: false,
            stake: 0,
            top: None,
            passes: 0,
            played: vec![0; n],
            last: None,
            scores: vec![0; n],
            history: Vec::new(),
        };
        state.start_hand(events);
        Ok(state)
    }

    /// The deck of this game.
    pub fn deck(&self) -> Vec<Card> {
        deck(self.table.players, &self.table.options)
    }

    /// The seat after `seat` (a seat of the game), without a division: it runs on every move.
    fn next(&self, seat: Seat) -> Seat {
        if seat + 1 >= self.table.players {
            0
        } else {
            seat + 1
        }
    }

    /// Deals a hand (§2, R16) and opens round 1.
    fn start_hand(&mut self, events: &mut Vec<Event>) {
        let n = self.table.players;
        let deck = self.deck();
        let entry = self.stacked.get(self.deals_used).map(|e| e.as_slice());
        self.deals_used += 1;
        // On the stack, the same draws as `deal_sequence` (the deck is at most 52 cards).
        let sequence = deal_sequence_inline(&deck, entry, &mut self.table.rng);
        // First bidder known before the deal: later hands (not under four_hearts_always_starts).
        let known = match (self.table.options.four_hearts_always_starts, self.last) {
            (false, Some((declarer, won))) => Some(if won { declarer } else { (declarer + 1) % n }),
            _ => None,
        };
        let base = known.unwrap_or(0);
        // Emptied in place; card i goes to seat (base + i) % n, counted round, not divided.
        self.hands.clear();
        self.hands.resize(n, CardSet::EMPTY);
        let mut seat = base % n;
        for card in sequence {
            self.hands[seat].insert(card);
            seat = if seat + 1 >= n { 0 } else { seat + 1 };
        }
        self.first_bidder = known.unwrap_or_else(|| {
            (0..n)
                .find(|&s| self.hands[s].contains(FOUR_HEARTS))
                .unwrap_or(0)
        });
        self.pile = CardSet::EMPTY;
        self.phase = Phase::Bid1;
        self.turn = self.first_bidder;
        self.bid_turns = 0;
        self.calls.clear();
        self.pending = None;
        self.declarer = None;
        self.first_round = false;
        self.stake = 0;
        self.top = None;
        self.passes = 0;
        self.played.clear();
        self.played.resize(n, 0);
        events.push(Event::Deal {
            hand: self.deals_played + 1,
            first_bidder: self.first_bidder,
        });
    }

    fn first_round_stake(&self) -> i64 {
        match self.table.options.stake_scheme {
            StakeScheme::Seed => self.table.players as i64 + 1,
            StakeScheme::Flat => 2,
        }
    }

    fn second_round_stake(&self, callers: usize) -> i64 {
        match self.table.options.stake_scheme {
            StakeScheme::Seed => callers as i64,
            StakeScheme::Flat => 1,
        }
    }

    /// The cards `seat` may call now (round 2), in card order.
    pub fn legal_calls(&self, seat: Seat) -> Vec<Card> {
        let Some(own) = self.hands.get(seat) else {
            return Vec::new();
        };
        self.deck()
            .into_iter()
            .filter(|c| {
                !own.contains(*c)
                    && !barred(*c)
                    && (self.table.options.allow_recall || !self.calls.iter().any(|k| k.card == *c))
            })
            .collect()
    }

    /// The cards the caller may give in the pending exchange (R6, R14).
    pub fn legal_gifts(&self) -> Vec<Card> {
        let Some(p) = self.pending else {
            return Vec::new();
        };
        let Some(hand) = self.hands.get(p.caller) else {
            return Vec::new();
        };
        let allowed: Vec<Card> = hand.iter().filter(|c| !barred(*c)).collect();
        if self.table.options.return_called_card_allowed {
            return allowed;
        }
        let others: Vec<Card> = allowed
            .iter()
            .copied()
            .filter(|c| *c != p.received)
            .collect();
        // R14: the received card only when nothing else may be given.
        if others.is_empty() { allowed } else { others }
    }

    /// Calls `f` with every combination `seat` may play now, as a canonical card set (R13), in
    /// the legal list's order; no intermediate list (this runs at every turn).
    fn for_each_legal_play(&self, seat: Seat, mut f: impl FnMut(CardSet)) {
        let Some(&hand) = self.hands.get(seat) else {
            return;
        };
        let top_triple = top_triple_rank(self.table.players, &self.table.options);
        // for_each_combo lists exactly what beats the top (R4).
        for_each_combo(hand, top_triple, self.top.map(|t| t.combo), |set, _| f(set));
    }

    fn must_call(&self, seat: Seat) -> bool {
        self.table.options.first_bidder_must_call
            && seat == self.first_bidder
            && self.bid_turns == 0
            && !self.legal_calls(seat).is_empty()
    }

    fn one_card(cards: &[Card], what: &str) -> Result<Card, ActionError> {
        match cards {
            [card] => Ok(*card),
            _ => Err(ActionError::illegal(
                "one_card_expected",
                format!("{what} names exactly one card, not [{}]", list(cards)),
            )),
        }
    }

    fn call(
        &mut self,
        seat: Seat,
        cards: &[Card],
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let card = Self::one_card(cards, "a call")?;
        if barred(card) {
            return Err(ActionError::illegal(
                "call_ace_or_four",
                format!("{card}: Aces and 4s may not be called"),
            ));
        }
        if self.hands.get(seat).is_some_and(|h| h.contains(card)) {
            return Err(ActionError::illegal(
                "call_own_card",
                format!("you hold {card} yourself: call a card another player holds"),
            ));
        }
        if !self.table.options.allow_recall && self.calls.iter().any(|k| k.card == card) {
            return Err(ActionError::illegal(
                "already_called",
                format!("{card} has already been called in this hand"),
            ));
        }
        let Some(holder) =
            (0..self.table.players).find(|&s| s != seat && self.hands[s].contains(card))
        else {
            return Err(ActionError::illegal(
                "card_not_in_game",
                format!("{card} is not a card of this game"),
            ));
        };
        self.hands[holder].remove(card);
        self.hands[seat].insert(card);
        self.calls.push(Call {
            seat,
            card,
            from: holder,
        });
        self.pending = Some(Pending {
            caller: seat,
            holder,
            received: card,
        });
        self.phase = Phase::Exchange;
        events.push(Event::Call {
            seat,
            cards: smallvec![card],
            from: holder,
        });
        Ok(())
    }

    fn exchange(
        &mut self,
        seat: Seat,
        cards: &[Card],
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let card = Self::one_card(cards, "an exchange")?;
        let Some(p) = self.pending else {
            return Err(ActionError::illegal(
                "wrong_phase",
                "there is no exchange to make",
            ));
        };
        if !self.hands[seat].contains(card) {
            return Err(ActionError::illegal(
                "card_not_in_hand",
                format!("you do not hold {card}"),
            ));
        }
        if barred(card) {
            return Err(ActionError::illegal(
                "give_ace_or_four",
                format!("{card}: Aces and 4s may not be given in the exchange"),
            ));
        }
        if !self.legal_gifts().contains(&card) {
            return Err(ActionError::illegal(
                "return_called_card",
                format!("{card} is the card you just called: give another card"),
            ));
        }
        self.hands[seat].remove(card);
        self.hands[p.holder].insert(card);
        self.pending = None;
        self.phase = Phase::Bid2;
        events.push(Event::Exchange { seat, to: p.holder });
        self.advance_round2(events);
        Ok(())
    }

    fn advance_round2(&mut self, events: &mut Vec<Event>) {
        self.bid_turns += 1;
        if self.bid_turns < self.table.players {
            self.turn = self.next(self.turn);
            return;
        }
        let callers: Vec<Seat> = self.calls.iter().map(|c| c.seat).collect();
        let Some(&declarer) = callers.last() else {
            // No call: thrown in (R15).
            let record = HandRecord {
                hand: self.deals_played + 1,
                first_bidder: self.first_bidder,
                outcome: Outcome::ThrownIn,
                declarer: None,
                first_round: false,
                callers,
                stake: 0,
                doubled: false,
                first_out: None,
                declarer_won: None,
                payoffs: vec![0; self.table.players],
            };
            self.finish_hand(record, events);
            return;
        };
        self.declarer = Some(declarer);
        self.first_round = false;
        self.stake = self.second_round_stake(callers.len());
        if self.table.options.single_call_wins && callers.len() == 1 {
            let payoffs = self.payoffs(declarer, true, self.stake);
            let record = HandRecord {
                hand: self.deals_played + 1,
                first_bidder: self.first_bidder,
                outcome: Outcome::SingleCall,
                declarer: Some(declarer),
                first_round: false,
                callers,
                stake: self.stake,
                doubled: false,
                first_out: None,
                declarer_won: Some(true),
                payoffs,
            };
            self.last = Some((declarer, true));
            self.finish_hand(record, events);
            return;
        }
        self.start_play(events);
    }

    fn start_play(&mut self, events: &mut Vec<Event>) {
        let Some(declarer) = self.declarer else {
            return;
        };
        self.phase = Phase::Play;
        self.turn = declarer;
        self.top = None;
        self.passes = 0;
        events.push(Event::Declarer {
            seat: declarer,
            stake: self.stake,
            first_round: self.first_round,
        });
    }

    fn play(
        &mut self,
        seat: Seat,
        cards: &[Card],
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let hand = self.hands[seat];
        let set = CardSet::from_cards(cards.iter().copied());
        if cards.is_empty() {
            return Err(ActionError::illegal(
                "empty_play",
                "a play needs at least one card",
            ));
        }
        if set.len() != cards.len() {
            return Err(ActionError::illegal(
                "duplicate_card",
                format!("[{}] names a card twice", list(cards)),
            ));
        }
        let missing: Vec<Card> = cards
            .iter()
            .copied()
            .filter(|c| !hand.contains(*c))
            .collect();
        if !missing.is_empty() {
            return Err(ActionError::illegal(
                "card_not_in_hand",
                format!("you do not hold {}", list(&missing)),
            ));
        }
        if let Some(card) = cards.iter().find(|c| rank_index(**c).is_none()) {
            return Err(ActionError::illegal(
                "card_not_in_game",
                format!("{card} is not a card of this game"),
            ));
        }
        let counts = rank_counts(set);
        let top_triple = top_triple_rank(self.table.players, &self.table.options);
        let Some(combo) = classify(&counts, top_triple) else {
            return Err(ActionError::illegal(
                "not_a_combination",
                format!(
                    "[{}] is not a combination: play a single, a pair, a run of 3+ adjacent ranks (7 and 9 are not adjacent, no Aces), a double run, a triple or a quad",
                    list(cards)
                ),
            ));
        };
        if let Some(top) = self.top
            && !beats(combo, top.combo)
        {
            return Err(ActionError::illegal(
                "does_not_beat",
                format!(
                    "[{}] does not beat [{}]: play the same kind and size with a higher top card, or a bomb (a triple beats a non-bomb or a lower triple, a quad beats anything but a higher quad)",
                    list(cards),
                    list(&canonical_order(top.cards))
                ),
            ));
        }
        if canonical(hand, &counts) != Some(set) {
            let wanted = canonical(hand, &counts)
                .map(canonical_order)
                .unwrap_or_default();
            return Err(ActionError::illegal(
                "not_canonical",
                format!(
                    "suits never matter in play; this combination is played as [{}] (per rank the suits S, H, D, C first, R13)",
                    list(&wanted)
                ),
            ));
        }
        self.lay(seat, set, combo, events);
        Ok(())
    }

    /// Plays `set` (checked: held, canonical, classified as `combo` and beating the top) for
    /// `seat`.
    fn lay(&mut self, seat: Seat, set: CardSet, combo: Combo, events: &mut Vec<Event>) {
        self.hands[seat] = CardSet(self.hands[seat].0 & !set.0);
        self.pile = CardSet(self.pile.0 | set.0);
        self.top = Some(Top {
            seat,
            cards: set,
            combo,
        });
        self.passes = 0;
        self.played[seat] += 1;
        events.push(Event::Play {
            seat,
            cards: canonical_order(set),
        });
        if self.hands[seat].is_empty() {
            self.end_played_hand(seat, events);
        } else {
            self.turn = self.next(seat);
        }
    }

    /// Stakes per seat for a decided hand (§5).
    fn payoffs(&self, declarer: Seat, won: bool, stake: i64) -> Vec<i64> {
        let n = self.table.players as i64;
        let sign = if won { 1 } else { -1 };
        (0..self.table.players)
            .map(|s| {
                if s == declarer {
                    sign * stake * (n - 1)
                } else {
                    -sign * stake
                }
            })
            .collect()
    }

    fn end_played_hand(&mut self, first_out: Seat, events: &mut Vec<Event>) {
        let Some(declarer) = self.declarer else {
            return;
        };
        let won = first_out == declarer;
        // R7: spring (no opponent card) or anti-spring (declarer played only the opening lead).
        let opponents_played: u32 = (0..self.table.players)
            .filter(|&s| s != declarer)
            .map(|s| self.played[s])
            .sum();
        let doubled = self.table.options.spring_double
            && if won {
                opponents_played == 0
            } else {
                self.played[declarer] <= 1
            };
        let stake = if doubled { self.stake * 2 } else { self.stake };
        let record = HandRecord {
            hand: self.deals_played + 1,
            first_bidder: self.first_bidder,
            outcome: Outcome::Played,
            declarer: Some(declarer),
            first_round: self.first_round,
            callers: self.calls.iter().map(|c| c.seat).collect(),
            stake: self.stake,
            doubled,
            first_out: Some(first_out),
            declarer_won: Some(won),
            payoffs: self.payoffs(declarer, won, stake),
        };
        self.last = Some((declarer, won));
        self.finish_hand(record, events);
    }

    fn finish_hand(&mut self, record: HandRecord, events: &mut Vec<Event>) {
        for (score, pay) in self.scores.iter_mut().zip(&record.payoffs) {
            *score += pay;
        }
        self.deals_played += 1;
        self.history.push(record.clone());
        events.push(Event::HandEnd {
            record: Box::new(record),
        });
        if self.deals_played >= self.table.options.hands {
            self.phase = Phase::Over;
            self.top = None;
            self.pending = None;
            events.push(Event::GameOver {
                scores: self.scores.clone(),
            });
        } else {
            self.start_hand(events);
        }
    }
}

/// A card set as a list in play order: by the game's rank order, then suits S, H, D, C.
pub fn canonical_order(set: CardSet) -> CardList {
    // A card set iterates by rank, then suit S, H, D, C: already the game's order, as its ranks
    // (4-7, 9-A) keep the natural order. Every legal play is one of these lists: a plain array
    // filled from the mask and handed over whole, not pushed card by card.
    // No `set.len()`: without a popcount instruction in the target it costs more than this.
    let mut cards = [Card::JOKER; 8];
    let mut bits = set.0;
    let mut len = 0;
    for slot in cards.iter_mut() {
        if bits == 0 {
            break;
        }
        *slot = CARD_AT[bits.trailing_zeros() as usize & 63];
        bits &= bits - 1;
        len += 1;
    }
    if bits != 0 {
        // Over 8 cards (a double run of 5 ranks): the rare spilled list.
        return set.iter().collect();
    }
    CardList::from_buf_and_len(cards, len)
}

/// The card of each bit of a card mask (the joker from bit 52 on: never in this game's sets).
const CARD_AT: [Card; 64] = {
    let mut cards = [Card::JOKER; 64];
    let mut i = 0;
    while i < 52 {
        cards[i] = Card::new(Rank::ALL[i / 4], Suit::ALL[i % 4]);
        i += 1;
    }
    cards
};

/// A pack description holding exactly the cards of `deck` (for checking stacked deals).
fn pack_of(deck: &[Card]) -> crate::cards::PackSpec {
    let set = CardSet::from_cards(deck.iter().copied());
    let full: Vec<Rank> = RANKS
        .iter()
        .copied()
        .filter(|r| set.of_rank(*r).len() == 4)
        .collect();
    let extra: Vec<Card> = RANKS
        .iter()
        .filter(|r| set.of_rank(**r).len() < 4)
        .flat_map(|r| set.of_rank(*r).iter())
        .collect();
    crate::cards::PackSpec::with_ranks(&full).extra(&extra)
}

fn action_name(action: &Action) -> &'static str {
    match action {
        Action::Declare {} => "declare",
        Action::Pass {} => "pass",
        Action::Call { .. } => "call",
        Action::Exchange { .. } => "exchange",
        Action::Play { .. } => "play",
    }
}

fn phase_text(phase: Phase) -> &'static str {
    match phase {
        Phase::Bid1 => "first bidding round: declare or pass",
        Phase::Bid2 => "second bidding round: call a card or pass",
        Phase::Exchange => "give the holder one card face down",
        Phase::Play => "play a combination or pass",
        Phase::Over => "the game is over",
    }
}

impl GameState for State {
    type Options = Options;
    type Action = Action;
    type Event = Event;
    type View = View;

    fn table(&self) -> &Table<Options> {
        &self.table
    }

    fn table_mut(&mut self) -> &mut Table<Options> {
        &mut self.table
    }

    fn to_act(&self) -> Actors {
        if self.phase == Phase::Over {
            Actors::None
        } else {
            Actors::One(self.turn)
        }
    }

    /// Legal actions of `seat` in canonical order: `pass` first, then the others.
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        if self.phase == Phase::Over || seat != self.turn {
            return;
        }
        match self.phase {
            Phase::Bid1 => {
                out.push(Action::Pass {});
                out.push(Action::Declare {});
            }
            Phase::Bid2 => {
                if !self.must_call(seat) {
                    out.push(Action::Pass {});
                }
                out.extend(self.legal_calls(seat).into_iter().map(|c| Action::Call {
                    cards: smallvec![c],
                }));
            }
            Phase::Exchange => {
                out.extend(self.legal_gifts().into_iter().map(|c| Action::Exchange {
                    cards: smallvec![c],
                }))
            }
            Phase::Play => {
                if self.top.is_some() {
                    out.push(Action::Pass {});
                }
                self.for_each_legal_play(seat, |set| {
                    out.push(Action::Play {
                        cards: canonical_order(set),
                    })
                });
            }
            Phase::Over => {}
        }
    }

    /// Applies an action of the seat to act (validated first; state unchanged on error).
    fn apply(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        match (self.phase, action) {
            (Phase::Bid1, Action::Declare {}) => {
                self.declarer = Some(seat);
                self.first_round = true;
                self.stake = self.first_round_stake();
                events.push(Event::Declare { seat });
                self.start_play(events);
                Ok(())
            }
            (Phase::Bid1, Action::Pass {}) => {
                events.push(Event::Pass { seat });
                self.bid_turns += 1;
                if self.bid_turns == self.table.players {
                    self.phase = Phase::Bid2;
                    self.bid_turns = 0;
                    self.turn = self.first_bidder;
                } else {
                    self.turn = self.next(seat);
                }
                Ok(())
            }
            (Phase::Bid2, Action::Pass {}) => {
                if self.must_call(seat) {
                    return Err(ActionError::illegal(
                        "first_bidder_must_call",
                        "the first bidder may not pass in the second round: call a card",
                    ));
                }
                events.push(Event::Pass { seat });
                self.advance_round2(events);
                Ok(())
            }
            (Phase::Bid2, Action::Call { cards }) => self.call(seat, cards, events),
            (Phase::Exchange, Action::Exchange { cards }) => self.exchange(seat, cards, events),
            (Phase::Play, Action::Pass {}) => {
                let Some(top) = self.top else {
                    return Err(ActionError::illegal(
                        "must_lead",
                        "you lead this round: play a combination, passing is not allowed",
                    ));
                };
                events.push(Event::Pass { seat });
                self.passes += 1;
                if self.passes + 1 >= self.table.players {
                    self.top = None;
                    self.passes = 0;
                    self.turn = top.seat;
                    events.push(Event::RoundWon { seat: top.seat });
                } else {
                    self.turn = self.next(seat);
                }
                Ok(())
            }
            (Phase::Play, Action::Play { cards }) => self.play(seat, cards, events),
            (phase, action) => Err(ActionError::illegal(
                "wrong_phase",
                format!(
                    "{} is not possible now ({})",
                    action_name(action),
                    phase_text(phase)
                ),
            )),
        }
    }

    /// A listed play skips the checks its listing made (held, canonical, a combination that
    /// beats the top) and is classified from its mask; every other listed action goes through
    /// `apply`.
    fn apply_listed(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        match (self.phase, action) {
            (Phase::Play, Action::Play { cards }) if seat == self.turn => {
                let set = CardSet::from_cards(cards.iter().copied());
                let top_triple = top_triple_rank(self.table.players, &self.table.options);
                let Some(combo) = classify_set(set, top_triple) else {
                    return self.apply(seat, action, events);
                };
                debug_assert!(
                    {
                        let mut listed = false;
                        self.for_each_legal_play(seat, |s| listed |= s == set);
                        listed && set.len() == cards.len()
                    },
                    "{cards:?} is listed"
                );
                self.lay(seat, set, combo, events);
                Ok(())
            }
            _ => self.apply(seat, action, events),
        }
    }

    fn view(&self, viewer: Viewer) -> View {
        view::view(self, viewer)
    }

    fn result(&self) -> Option<GameResult> {
        if self.phase != Phase::Over {
            return None;
        }
        let scores = &self.scores;
        let ranking = GameResult::ranking_by_key(0..self.table.players, |s| -scores[s]);
        let teams = match self.history.as_slice() {
            [only] => only.declarer.map(|d| {
                vec![
                    vec![d],
                    (0..self.table.players)
                        .filter(|&s| s != d)
                        .collect::<Vec<_>>(),
                ]
            }),
            _ => None,
        };
        Some(GameResult {
            ranking,
            scores: scores.iter().map(|&s| s as f64).collect(),
            teams,
            details: serde_json::json!({
                "stakes": scores,
                "hands": self.history,
            }),
        })
    }

    /// Checks a state from outside (see [`crate::game::GameDef::validate`]).
    fn validate(&self) -> Result<(), String> {
        let n = self.table.players;
        if !(3..=5).contains(&n) {
            return Err(format!("{n} players is outside 3..=5"));
        }
        if self.hands.len() != n || self.played.len() != n || self.scores.len() != n {
            return Err("hands, played and scores need one entry per seat".into());
        }
        if self.turn >= n || self.first_bidder >= n {
            return Err("turn or first bidder out of range".into());
        }
        if !(1..=1000).contains(&self.table.options.hands) {
            return Err("hands must be from 1 to 1000".into());
        }
        // Bounds that keep every later addition and multiplication far from overflowing.
        if !(0..=n as i64 + 1).contains(&self.stake)
            || self.scores.iter().any(|s| s.abs() > 1_000_000_000)
            || self.played.iter().any(|&p| p > 100)
            || self.deals_used > 1_000_000
            || self.table.rng.events > u64::MAX / 2
        {
            return Err("a stake, score or counter is out of range".into());
        }
        let deck = CardSet::from_cards(self.deck());
        let mut seen = self.pile;
        let mut total = self.pile.len();
        for hand in &self.hands {
            total += hand.len();
            seen = CardSet(seen.0 | hand.0);
        }
        if seen != deck || total != deck.len() {
            return Err("the cards in hands and on the table are not exactly the pack".into());
        }
        if self.declarer.is_some_and(|d| d >= n)
            || self.last.is_some_and(|(d, _)| d >= n)
            || self
                .calls
                .iter()
                .any(|c| c.seat >= n || c.from >= n || !deck.contains(c.card))
        {
            return Err("a seat or card in the bidding record is out of range".into());
        }
        if self.bid_turns > n || self.passes >= n {
            return Err("bidding or pass counter out of range".into());
        }
        let over = self.deals_played >= self.table.options.hands;
        if over != (self.phase == Phase::Over) {
            return Err("the phase does not agree with the number of hands played".into());
        }
        match self.phase {
            Phase::Exchange => {
                let Some(p) = self.pending else {
                    return Err("exchange phase without a pending exchange".into());
                };
                if p.caller != self.turn || p.holder >= n || p.holder == p.caller {
                    return Err("pending exchange seats are incoherent".into());
                }
            }
            Phase::Play => {
                if self.declarer.is_none() {
                    return Err("play phase without a declarer".into());
                }
                if self.hands.iter().any(|h| h.is_empty()) {
                    return Err("a player without cards in the play phase".into());
                }
                if let Some(top) = self.top {
                    let counts = rank_counts(top.cards);
                    if top.seat >= n
                        || top.cards.is_empty()
                        || top.cards.0 & !self.pile.0 != 0
                        || classify(&counts, top_triple_rank(n, &self.table.options))
                            != Some(top.combo)
                    {
                        return Err("the top combination is incoherent".into());
                    }
                }
            }
            _ => {}
        }
        if self.phase != Phase::Exchange && self.pending.is_some() {
            return Err("a pending exchange outside the exchange phase".into());
        }
        Ok(())
    }

    fn pieces(&self) -> Vec<String> {
        self.hands
            .iter()
            .chain(std::iter::once(&self.pile))
            .flat_map(|h| h.iter())
            .map(|c| c.to_string())
            .collect()
    }

    fn hidden_from(&self, viewer: Viewer) -> Vec<String> {
        view::hidden_from(self, viewer)
    }

    fn determinize(&self, seat: Seat, rng: &mut crate::rng::PlayoutRng) -> Option<Self> {
        view::determinize(self, seat, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::super::combination::all_plays;
    use super::*;
    use crate::rng::PlayoutRng;

    fn options(no_aces: bool) -> Options {
        serde_json::from_value(serde_json::json!({
            "no_aces": no_aces, "hands": 8, "allow_recall": false,
            "four_hearts_always_starts": false, "first_bidder_must_call": false,
            "single_call_wins": false, "stake_scheme": "seed", "spring_double": false,
            "return_called_card_allowed": false, "missing_card_triple_is_top_quad": true
        }))
        .unwrap()
    }

    /// The legal plays as the spec words them (R13, R4): every rank multiset the hand holds that
    /// is a combination beating the top, as its canonical cards, in `all_plays` order.
    fn reference_plays(state: &State, seat: Seat) -> Vec<Action> {
        let hand = state.hands[seat];
        let top_triple = top_triple_rank(state.table.players, &state.table.options);
        all_plays(hand)
            .iter()
            .filter(|c| {
                classify(c, top_triple).is_some_and(|y| state.top.is_none_or(|t| beats(y, t.combo)))
            })
            .filter_map(|c| canonical(hand, c))
            .map(|set| Action::Play {
                cards: set.iter().collect(),
            })
            .collect()
    }

    #[test]
    fn legal_plays_and_listed_moves_match_the_reference_over_random_games() {
        let mut actions = Vec::new();
        let mut events = Vec::new();
        let mut plain_events = Vec::new();
        for players in 3..=5 {
            for no_aces in [false, true] {
                for seed in 0..40 {
                    let setup = Setup {
                        players,
                        options: options(no_aces),
                        seed,
                        deals: Vec::new(),
                    };
                    let mut state = State::new(&setup, &mut events).unwrap();
                    let mut rng = PlayoutRng::new(seed ^ 0x5EED);
                    while let Actors::One(seat) = state.to_act() {
                        actions.clear();
                        state.legal_actions(seat, &mut actions);
                        if state.phase == Phase::Play {
                            let plays: Vec<Action> = actions
                                .iter()
                                .filter(|a| matches!(a, Action::Play { .. }))
                                .cloned()
                                .collect();
                            assert_eq!(plays, reference_plays(&state, seat));
                            let passes = usize::from(state.top.is_some());
                            assert_eq!(actions.len(), plays.len() + passes);
                        }
                        let action = actions[rng.below(actions.len())].clone();
                        let mut plain = state.clone();
                        plain_events.clear();
                        plain.apply(seat, &action, &mut plain_events).unwrap();
                        events.clear();
                        state.apply_listed(seat, &action, &mut events).unwrap();
                        assert_eq!(events, plain_events);
                        assert_eq!(
                            serde_json::to_value(&state).unwrap(),
                            serde_json::to_value(&plain).unwrap()
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn canonical_order_lists_the_set_in_card_order() {
        for (i, card) in CARD_AT.iter().enumerate().take(52) {
            assert_eq!(card.index(), i);
        }
        let mut rng = PlayoutRng::new(9);
        for _ in 0..10_000 {
            let set = CardSet((0..52).fold(0, |m, b| m | (u64::from(rng.below(4) == 0) << b)));
            let expected: CardList = set.iter().collect();
            assert_eq!(canonical_order(set), expected);
        }
    }
}
