//! State of a game of Basra: dealing and burying, turns with step-by-step capture choice, deal
//! scoring, game and rubber end. Scores are kept in half-points.

use super::action::{Action, Cards, Event};
use super::rules::{BuryMode, GameEnd, Options, Rubber};
use super::scoring::{self, DealScore};
use super::view::{self, View};
use crate::cards::{Card, CardList, CardSet, in_order};
use crate::common::capture::{CaptureChoice, LastCapture, Layout};
use crate::deal::deal_sequence_into;
use crate::error::ActionError;
use crate::game::Seat;
use crate::game::{Actors, GameResult, GameState, Ranking, Table, Viewer, push_in_place};
use crate::rng::GameRng;
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;
use std::sync::Arc;

/// Where the game stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// The player to act plays a card.
    Play,
    /// The played card has several capture sets; the player picks floor cards one at a time.
    Choose {
        /// The played card (public).
        card: Card,
        /// The capture sets and the selection so far.
        choice: CaptureChoice,
    },
    /// The game (or rubber) is over.
    Over,
}

/// The full state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The shared header: players, options, the RNG and its seed.
    pub table: Table<Options>,
    /// Stacked entries (parsed).
    pub stacked: Vec<Vec<Card>>,
    /// Deals started (deal d uses entry d-1).
    pub deal: usize,
    /// The dealer.
    pub dealer: Seat,
    /// Hands.
    pub hands: Vec<CardSet>,
    /// The floor.
    pub floor: Layout,
    /// The stock, top first.
    pub stock: Vec<Card>,
    /// Buried cards (public identities).
    pub buried: Vec<Card>,
    /// The bottom card seen at the cut.
    pub peek: Option<Card>,
    /// Side piles.
    pub piles: Vec<CardSet>,
    /// Cards set aside unscored (nobody captured all deal).
    pub unscored: CardSet,
    /// Bonuses this deal per side (half-points).
    pub bonus: Vec<i64>,
    /// Number of bonus captures this deal per side.
    pub basras: Vec<u32>,
    /// Last capturing side.
    pub last_capture: LastCapture,
    /// The seat to act.
    pub turn: Seat,
    /// Phase.
    pub phase: Phase,
    /// Side totals in the current game (half-points).
    pub totals: Vec<i64>,
    /// Majority awards carried.
    pub carry: u32,
    /// Ladder step.
    pub ladder_step: usize,
    /// Games won per side (rubbers).
    pub games_won: Vec<u32>,
    /// The last scored deal (shared with its event).
    #[serde(with = "crate::game::shared::option", default)]
    pub last_deal: Option<Arc<DealScore>>,
    /// Winner of the match (side), once over; none with a draw.
    pub winner: Option<usize>,
}

fn list(cards: impl IntoIterator<Item = Card>) -> String {
    let v: Vec<String> = cards.into_iter().map(|c| c.to_string()).collect();
    if v.is_empty() {
        "nothing".into()
    } else {
        v.join(" ")
    }
}

fn half(x: i64) -> f64 {
    x as f64 / 2.0
}

impl State {
    /// A new game, first deal made.
    pub fn new(
        options: Options,
        players: usize,
        seed: u64,
        stacked: Vec<Vec<Card>>,
        events: &mut Vec<Event>,
    ) -> State {
        let mut rng = GameRng::new(seed);
        let dealer = options.first_dealer.pick(&mut rng, players);
        let mut state = State {
            table: Table {
                players,
                options,
                rng,
            },
            stacked,
            deal: 0,
            dealer,
            hands: vec![CardSet::EMPTY; players],
            floor: Layout::new(),
            stock: Vec::new(),
            buried: Vec::new(),
            peek: None,
            piles: vec![CardSet::EMPTY; 2],
            unscored: CardSet::EMPTY,
            bonus: vec![0; 2],
            basras: vec![0; 2],
            last_capture: LastCapture::default(),
            turn: 0,
            phase: Phase::Play,
            totals: vec![0; 2],
            carry: 0,
            ladder_step: 0,
            games_won: vec![0; 2],
            last_deal: None,
            winner: None,
        };
        state.start_deal(events);
        state
    }

    /// The side of a seat (partners 0/2 and 1/3; with 2 players each seat).
    pub fn side(seat: Seat) -> usize {
        seat % 2
    }

    /// Deals: hands, floor, burying (spec §2).
    pub fn start_deal(&mut self, events: &mut Vec<Event>) {
        let n = self.table.players;
        let k = self.table.options.hand_size;
        let pack = scoring::pack_cards(&self.table.options);
        let entry = self.stacked.get(self.deal).map(Vec::as_slice);
        // The deal sequence is written in the stock's memory: hands and floor are read from its
        // front, which is then dropped (a list per deal showed in playout profiles).
        deal_sequence_into(pack, entry, &mut self.table.rng, &mut self.stock);
        self.deal += 1;
        // The per-seat and per-side lists are refilled in place (a deal is short).
        self.hands.clear();
        self.hands.resize(n, CardSet::EMPTY);
        let dealt = (k * n).min(self.stock.len());
        for (i, card) in self.stock[..dealt].iter().enumerate() {
            self.hands[(self.dealer + 1 + i) % n].insert(*card);
        }
        self.peek = self.stock.last().copied();
        // Floor and buried cards inline (four and at most five cards), the stock read from `next`.
        let mut next = (dealt + 4).min(self.stock.len());
        let mut floor: SmallVec<[Card; 8]> = SmallVec::from_slice(&self.stock[dealt..next]);
        let buried_here = |c: &Card| {
            c.rank() == Some(crate::cards::Rank::Jack)
                || scoring::is_special_seven(&self.table.options, *c)
        };
        let mut aside: SmallVec<[Card; 8]> = SmallVec::new();
        while floor.iter().any(buried_here) {
            aside.extend(floor.iter().copied().filter(buried_here));
            floor.retain(|c| !buried_here(c));
            while floor.len() < 4 && next < self.stock.len() {
                floor.push(self.stock[next]);
                next += 1;
            }
        }
        self.stock.drain(..next);
        match self.table.options.bury_mode {
            BuryMode::Random => {
                for card in &aside {
                    let g = self.table.rng.pick(self.stock.len() + 1);
                    self.stock.insert(g.min(self.stock.len()), *card);
                }
            }
            BuryMode::Bottom => self.stock.extend(aside.iter().copied()),
            BuryMode::Bottom10 => {
                if !aside.is_empty() {
                    let b = self.stock.len().min(10);
                    let mut packet = self.stock.split_off(self.stock.len() - b);
                    packet.extend(aside.iter().copied());
                    self.table.rng.shuffle(&mut packet);
                    self.stock.extend(packet);
                }
            }
        }
        self.buried.clear();
        self.buried.extend_from_slice(&aside);
        self.floor.set_cards(&floor);
        self.piles.clear();
        self.piles.resize(2, CardSet::EMPTY);
        self.unscored = CardSet::EMPTY;
        self.bonus.clear();
        self.bonus.resize(2, 0);
        self.basras.clear();
        self.basras.resize(2, 0);
        self.last_capture = LastCapture::default();
        self.turn = (self.dealer + 1) % n;
        self.phase = Phase::Play;
        debug_assert!(
            floor.len() <= 8 && aside.len() <= 8,
            "four floor cards, five buried"
        );
        push_in_place(events, || Event::Deal {
            deal: self.deal,
            dealer: self.dealer,
            floor: Cards::of(&floor).unwrap_or_default(),
            buried: Cards::of(&aside).unwrap_or_default(),
        });
    }

    /// A valid play: `card` leaves `seat`'s hand and captures, or the player starts choosing
    /// among its capture sets (R21).
    fn play_card(&mut self, seat: Seat, card: Card, events: &mut Vec<Event>) {
        self.hands[seat].remove(card);
        push_in_place(events, || Event::Play {
            seat,
            cards: Cards::one(card),
        });
        // A capture the rules force (nearly every play) is told on masks: no list of capture
        // sets to build.
        if let Some(set) = scoring::forced_capture(&self.table.options, &self.floor, card) {
            self.resolve(seat, card, set, events);
            return;
        }
        let options = scoring::capture_sets(&self.table.options, &self.floor, card);
        // One capture set is the capture: no choice to build.
        if let [set] = options[..] {
            self.resolve(seat, card, set, events);
            return;
        }
        let choice = CaptureChoice::new(options);
        match choice.resolved() {
            Some(set) => self.resolve(seat, card, set, events),
            None => self.phase = Phase::Choose { card, choice },
        }
    }

    fn hands_empty(&self) -> bool {
        self.hands.iter().all(|h| h.is_empty())
    }

    fn resolve(&mut self, seat: Seat, card: Card, capture: CardSet, events: &mut Vec<Event>) {
        self.phase = Phase::Play;
        let side = Self::side(seat);
        // The hands do not change below: asked once.
        let hands_empty = self.hands_empty();
        if capture.is_empty() {
            self.floor.add(card);
            push_in_place(events, || Event::Trail { seat, card });
        } else {
            // The bonus and the event read the floor before the capture.
            let before = self.floor.set();
            let taken = CardSet(before.0 & capture.0);
            let cards = in_order(self.floor.cards(), taken);
            let last_card = hands_empty && self.stock.is_empty();
            let mut bonus =
                scoring::bonus_on(&self.table.options, card, self.floor.cards(), before, taken);
            self.floor.take(taken);
            if last_card && !self.table.options.basra_on_last_card {
                bonus = 0;
            }
            let mut gain = taken;
            gain.insert(card);
            self.piles[side] = CardSet(self.piles[side].0 | gain.0);
            self.last_capture.record(side);
            if bonus > 0 {
                self.bonus[side] += bonus;
                self.basras[side] += 1;
            }
            push_in_place(events, || Event::Capture {
                seat,
                card,
                cards,
                bonus: half(bonus),
            });
        }
        self.turn = if seat + 1 == self.table.players {
            0
        } else {
            seat + 1
        };
        if hands_empty {
            let n = self.table.players;
            let m = self.table.options.hand_size.min(self.stock.len() / n);
            if m > 0 {
                for (i, card) in self.stock.drain(..m * n).enumerate() {
                    self.hands[(self.dealer + 1 + i) % n].insert(card);
                }
                self.buried.retain(|c| self.stock.contains(c));
                events.push(Event::Round { cards_each: m });
            } else {
                self.end_deal(events);
            }
        }
    }

    fn end_deal(&mut self, events: &mut Vec<Event>) {
        // Anything the stock could still hold (never with 52 or 44 cards) joins the floor.
        for c in self.stock.drain(..) {
            self.floor.add(c);
        }
        // The rest goes to the last capturer; the floor's and the stock's lists are kept for
        // the next deal.
        let side = self.last_capture.0;
        if !self.floor.is_empty() {
            let rest = self.floor.set();
            match side {
                Some(s) => self.piles[s] = CardSet(self.piles[s].0 | rest.0),
                None => self.unscored = CardSet(self.unscored.0 | rest.0),
            }
            events.push(Event::Remainder {
                side,
                cards: CardList::from_slice(self.floor.cards()),
            });
            self.floor.clear();
        }
        self.score_deal(events);
        if !self.check_game_end(events) {
            self.dealer = (self.dealer + 1) % self.table.players;
            self.start_deal(events);
        }
    }

    /// Scores the deal just ended into the game totals (§5).
    pub fn score_deal(&mut self, events: &mut Vec<Event>) {
        // One scoring shared by the state and the event. Once the last deal's event is gone (a
        // playout clears its events), its lists are reused in place.
        let options = &self.table.options;
        let (total, score) = match self.last_deal.take() {
            Some(mut last) => match Arc::get_mut(&mut last) {
                Some(lists) => {
                    let total = scoring::score_deal_into(
                        options,
                        &self.piles,
                        &self.bonus,
                        &mut self.carry,
                        lists,
                    );
                    (total, last)
                }
                None => {
                    let (total, score) =
                        scoring::score_deal(options, &self.piles, &self.bonus, &mut self.carry);
                    (total, Arc::new(score))
                }
            },
            None => {
                let (total, score) =
                    scoring::score_deal(options, &self.piles, &self.bonus, &mut self.carry);
                (total, Arc::new(score))
            }
        };
        for (t, x) in self.totals.iter_mut().zip(&total) {
            *t += x;
        }
        events.push(Event::DealScored {
            deal: self.deal,
            score: Arc::clone(&score),
            totals: [half(self.totals[0]), half(self.totals[1])],
        });
        self.last_deal = Some(score);
    }

    /// The game end in force for the current game (rubbers may change the target, R24).
    pub fn effective_end(&self) -> GameEnd {
        scoring::effective_end(&self.table.options, &self.games_won)
    }

    /// After a deal: is the game decided? `Some(Some(side))` a win, `Some(None)` a draw.
    pub fn game_decision(&mut self) -> Option<Option<usize>> {
        scoring::game_decision(
            &self.effective_end(),
            self.table.options.tie_rule,
            [self.totals[0], self.totals[1]],
            &mut self.ladder_step,
        )
    }

    fn check_game_end(&mut self, events: &mut Vec<Event>) -> bool {
        let Some(winner) = self.game_decision() else {
            return false;
        };
        events.push(Event::GameEnded {
            winner,
            totals: self.totals.iter().map(|x| half(*x)).collect(),
        });
        if self.table.options.rubber != Rubber::None {
            if let Some(w) = winner {
                self.games_won[w] += 1;
            }
            if let Some(w) = (0..2).find(|s| self.games_won[*s] >= 3) {
                self.winner = Some(w);
            } else {
                self.totals = vec![0; 2];
                self.carry = 0;
                self.ladder_step = 0;
                return false;
            }
        } else {
            self.winner = winner;
        }
        self.phase = Phase::Over;
        events.push(Event::GameOver {
            ranking: self.ranking(),
        });
        true
    }

    /// Ranking of seats, best first; partners share a group (§5).
    pub fn ranking(&self) -> Ranking {
        let key = |s: Seat| -> i64 {
            if self.table.options.rubber != Rubber::None {
                match self.winner {
                    Some(w) if w == Self::side(s) => 0,
                    Some(_) => 1,
                    None => 0,
                }
            } else {
                -self.totals.get(Self::side(s)).copied().unwrap_or(0)
            }
        };
        crate::game::Ranking::by_key(0..self.table.players, key)
    }

    /// Per-seat scores: the side's total in points (rubber: games won), R31.
    pub fn seat_scores(&self) -> Vec<f64> {
        (0..self.table.players)
            .map(|s| {
                let side = Self::side(s);
                if self.table.options.rubber != Rubber::None {
                    f64::from(self.games_won.get(side).copied().unwrap_or(0))
                } else {
                    half(self.totals.get(side).copied().unwrap_or(0))
                }
            })
            .collect()
    }

    /// Every card in the game.
    pub fn all_cards(&self) -> Vec<Card> {
        let mut out = Vec::with_capacity(52);
        for h in &self.hands {
            out.extend(h.iter());
        }
        out.extend(self.floor.cards().iter().copied());
        out.extend(self.stock.iter().copied());
        for p in &self.piles {
            out.extend(p.iter());
        }
        out.extend(self.unscored.iter());
        if let Phase::Choose { card, .. } = &self.phase {
            out.push(*card);
        }
        out
    }
}

/// Option checks that depend on the player count or on option contents (R32, R33).
pub fn check_options(options: &Options, n: usize) -> Result<(), String> {
    if options.open_cut && n != 2 {
        return Err(
            "option `open_cut` is a two-player variant; it cannot be true with 4 players".into(),
        );
    }
    if !(4..=6).contains(&options.hand_size) {
        return Err(format!(
            "option `hand_size` must be 4, 5 or 6, not {}",
            options.hand_size
        ));
    }
    options.first_dealer.check(n)?;
    match &options.game_end {
        GameEnd::Target(t) if *t < 1 => Err(format!(
            "option `game_end`: the target must be at least 1, not {t}"
        )),
        GameEnd::Ladder(steps) if steps.is_empty() => {
            Err("option `game_end`: the ladder must list at least one target".into())
        }
        _ => Ok(()),
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

    /// Legal actions of `seat`, canonical order.
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        if seat != self.turn {
            return;
        }
        match &self.phase {
            Phase::Play => {
                if let Some(hand) = self.hands.get(seat) {
                    // Each play written in the list's memory: one built on the stack and copied
                    // stalled on its narrow fields just stored (most of the list's time).
                    for card in hand.iter() {
                        push_in_place(out, || Action::Play {
                            cards: Cards::one(card),
                        });
                    }
                }
            }
            Phase::Choose { choice, .. } => {
                for card in choice.addable(self.floor.cards()) {
                    push_in_place(out, || Action::Capture {
                        cards: Cards::one(card),
                    });
                }
                if choice.can_stop() {
                    out.push(Action::Pass {});
                }
            }
            Phase::Over => {}
        }
    }

    /// Applies an action of the seat to act (validated before any change).
    fn apply(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if seat != self.turn || self.phase == Phase::Over {
            return Err(ActionError::illegal(
                "not_your_step",
                format!("seat {seat} may not act now"),
            ));
        }
        match (&self.phase, action) {
            (Phase::Play, Action::Play { cards }) => {
                let [card] = *cards.as_slice() else {
                    return Err(ActionError::illegal(
                        "play_one_card",
                        format!("play exactly one card, not {}", list(cards.iter().copied())),
                    ));
                };
                if !self.hands.get(seat).is_some_and(|h| h.contains(card)) {
                    return Err(ActionError::illegal(
                        "card_not_in_hand",
                        format!("{card} is not in your hand"),
                    ));
                }
                self.play_card(seat, card, events);
                Ok(())
            }
            (Phase::Choose { card, choice }, Action::Capture { cards }) => {
                let (card, mut choice) = (*card, choice.clone());
                let ok = match *cards.as_slice() {
                    [one] => choice.select(one),
                    _ => false,
                };
                if !ok {
                    return Err(ActionError::illegal(
                        "not_capturable",
                        format!(
                            "{card} cannot take {} together with {}; add one of: {}",
                            list(cards.iter().copied()),
                            list(choice.selection.iter()),
                            list(choice.addable(self.floor.cards()))
                        ),
                    ));
                }
                if let [one] = *cards.as_slice() {
                    push_in_place(events, || Event::Select { seat, card: one });
                }
                match choice.resolved() {
                    Some(set) => self.resolve(seat, card, set, events),
                    None => self.phase = Phase::Choose { card, choice },
                }
                Ok(())
            }
            (Phase::Choose { card, choice }, Action::Pass {}) => {
                if !choice.can_stop() {
                    return Err(ActionError::illegal(
                        "capture_incomplete",
                        format!(
                            "{card} cannot take just {}: add one of {}",
                            list(choice.selection.iter()),
                            list(choice.addable(self.floor.cards()))
                        ),
                    ));
                }
                let (card, set) = (*card, choice.selection);
                self.resolve(seat, card, set, events);
                Ok(())
            }
            (Phase::Choose { card, .. }, Action::Play { .. }) => Err(ActionError::illegal(
                "finish_capture",
                format!("first finish choosing what {card} captures"),
            )),
            (Phase::Play, _) => Err(ActionError::illegal(
                "nothing_to_choose",
                "no capture is being chosen; play a card from your hand",
            )),
            (Phase::Over, _) => Err(ActionError::illegal("game_over", "the game is over")),
        }
    }

    /// A listed play names one card of the hand of the seat to act (the checks of [`apply`]
    /// skipped); anything else is applied as sent.
    ///
    /// [`apply`]: GameState::apply
    fn apply_listed(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        debug_assert!(
            self.lists(seat, action),
            "{action:?} of seat {seat} is listed"
        );
        match (action, &self.phase) {
            (Action::Play { cards }, Phase::Play) if seat == self.turn => match *cards.as_slice() {
                [card] => {
                    self.play_card(seat, card, events);
                    Ok(())
                }
                _ => self.apply(seat, action, events),
            },
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
        Some(GameResult {
            ranking: self.ranking().to_vec(),
            scores: self.seat_scores(),
            teams: (self.table.players == 4).then(|| vec![vec![0, 2], vec![1, 3]]),
            details: serde_json::json!({
                "winner_side": self.winner,
                "side_totals": self.totals.iter().map(|t| *t as f64 / 2.0).collect::<Vec<_>>(),
                "games_won": self.games_won,
                "last_deal": self.last_deal.as_deref(),
            }),
        })
    }

    /// Checks a state from outside.
    fn validate(&self) -> Result<(), String> {
        let n = self.table.players;
        if n != 2 && n != 4 {
            return Err(format!("Basra is for 2 or 4 players, not {n}"));
        }
        check_options(&self.table.options, n)?;
        if self.hands.len() != n {
            return Err("one hand per seat".into());
        }
        for (name, len) in [
            ("piles", self.piles.len()),
            ("bonus", self.bonus.len()),
            ("basras", self.basras.len()),
            ("totals", self.totals.len()),
            ("games_won", self.games_won.len()),
        ] {
            if len != 2 {
                return Err(format!("{name} must have one entry per side"));
            }
        }
        if self.dealer >= n
            || self.turn >= n
            || self.last_capture.0.is_some_and(|s| s >= 2)
            || self.winner.is_some_and(|s| s >= 2)
        {
            return Err("seat or side out of range".into());
        }
        if self.deal == 0 {
            return Err("no deal made".into());
        }
        let pack = scoring::pack(&self.table.options);
        let all = self.all_cards();
        let mut seen = CardSet::EMPTY;
        for c in &all {
            if pack.count_of(*c) == 0 || !seen.insert(*c) {
                return Err(format!("card {c} appears twice or is not in the pack"));
            }
        }
        if all.len() != pack.len() {
            return Err(format!("{} cards instead of {}", all.len(), pack.len()));
        }
        if !self.stock.len().is_multiple_of(n) {
            return Err("the stock must divide among the players".into());
        }
        match &self.phase {
            Phase::Over => {}
            Phase::Play => {
                if self.hands[self.turn].is_empty() {
                    return Err("the player to act has no card".into());
                }
            }
            Phase::Choose { card, choice } => {
                let floor = self.floor.set();
                if floor.contains(*card)
                    || choice.options.iter().any(|o| o.0 & !floor.0 != 0)
                    || choice.selection.0 & !floor.0 != 0
                    || !choice
                        .options
                        .iter()
                        .any(|o| o.0 & choice.selection.0 == choice.selection.0)
                    || choice.resolved().is_some()
                {
                    return Err("the pending capture choice is incoherent".into());
                }
            }
        }
        Ok(())
    }

    fn pieces(&self) -> Vec<String> {
        self.all_cards().iter().map(Card::to_string).collect()
    }

    fn hidden_from(&self, viewer: Viewer) -> Vec<String> {
        view::hidden_from(self, viewer)
    }

    fn determinize(&self, seat: Seat, rng: &mut crate::rng::PlayoutRng) -> Option<Self> {
        view::determinize(self, seat, rng)
    }
}
