//! The state of a Bird Dog game: hands of trump/solo, nil, play and scoring (spec §2-§5).

use super::action::{Action, Cards, Contract, Event};
use super::rules::{AllPass, HAND_SIZE, Options, PACK_SIZE, TieRule};
use super::scoring;
use super::view::{self, View};
use crate::cards::{Card, CardSet, PackSpec, Rank, Suit};
use crate::common::trick::{follow_suit, plain_strength, winner_by_strength};
use crate::deal::{deal_sequence_inline, parse_card_deals};
use crate::error::{ActionError, SetupError};
use crate::game::{Actors, GameResult, GameState, Table, Viewer, push_in_place};
use crate::game::{Seat, Setup};
use crate::rng::GameRng;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::sync::LazyLock;

/// Where a hand stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Turn-ups: solo or pass (§3.1).
    Trump,
    /// Nil or pass (§3.2).
    Nil,
    /// Tricks (§3.3, §3.4).
    Play,
    /// The game has ended.
    Over,
}

/// A place at the table that plays cards: a seat, or the 2-player dummy (serialized `"dummy"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pos {
    /// A player's seat.
    Seat(Seat),
    /// The dummy hand of the 2-player game.
    Dummy,
}

impl Serialize for Pos {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Pos::Seat(s) => serializer.serialize_u64(*s as u64),
            Pos::Dummy => serializer.serialize_str("dummy"),
        }
    }
}

impl<'de> Deserialize<'de> for Pos {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match serde_json::Value::deserialize(deserializer)? {
            serde_json::Value::String(s) if s == "dummy" => Ok(Pos::Dummy),
            serde_json::Value::Number(n) => n
                .as_u64()
                .and_then(|v| usize::try_from(v).ok())
                .map(Pos::Seat)
                .ok_or_else(|| serde::de::Error::custom("not a seat")),
            other => Err(serde::de::Error::custom(format!(
                "expected a seat or \"dummy\", not {other}"
            ))),
        }
    }
}

/// One card played to a trick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Play {
    /// Who played it (a seat or `"dummy"`).
    pub by: Pos,
    /// The card.
    pub card: Card,
}

/// A completed trick.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Trick {
    /// Plays in order, the leader first.
    pub plays: Vec<Play>,
    /// Who took it.
    pub winner: Pos,
}

/// A declaration or pass of the current hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Call {
    /// The seat.
    pub seat: Seat,
    /// 1..3 in the trump phase (which turn-up), 0 in the nil phase.
    pub round: usize,
    /// `solo`, `nil`, or None for a pass.
    pub contract: Option<Contract>,
}

/// The Bird Dog card's identity (rank and suit, public), kept apart from card codes so that a view
/// naming it never shows where the card is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CardName {
    /// Rank.
    pub rank: Rank,
    /// Suit.
    pub suit: Suit,
}

/// How a finished hand went (public facts, no cards).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct HandSummary {
    /// 1-based hand number.
    pub hand: u32,
    /// `solo`, `free_for_all`, `nil` or `annulled`.
    pub kind: String,
    /// The solo player.
    pub solo: Option<Seat>,
    /// The nil player.
    pub nil: Option<Seat>,
    /// Pairs per seat (won cards; dummy's counted for its controller).
    pub pairs: Vec<u32>,
    /// Points scored per seat this hand.
    pub scores: Vec<u32>,
}

/// The full state, hidden cards and RNG included.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The shared header: players, options, the RNG and its seed.
    pub table: Table<Options>,
    /// Stacked deals (entry d for hand d, 0-based, annulled hands included).
    pub stacked: Vec<Vec<Card>>,
    /// The phase.
    pub phase: Phase,
    /// The dealer.
    pub dealer: Seat,
    /// Hands finished (annulled ones included).
    #[serde(rename = "hands_played")]
    pub deals_played: u32,
    /// Game totals.
    pub totals: Vec<u32>,
    /// Human hands.
    pub hands: Vec<CardSet>,
    /// The dummy's face-down pile, top first (2 players).
    pub dummy_down: Vec<Card>,
    /// The dummy's face-up cards (2 players).
    pub dummy_up: CardSet,
    /// W1, W2, W3.
    pub widow: Vec<Card>,
    /// Index of the current (or trump-fixing) turn-up, 0..3; widow[..=round] are public.
    pub round: usize,
    /// Passes so far in the current round (trump phase) or in the nil phase.
    pub passes: usize,
    /// The seat to act (for the dummy's turn: its controller).
    pub to_play: Seat,
    /// Declarations and passes of this hand.
    pub calls: Vec<Call>,
    /// The solo player.
    pub solo: Option<Seat>,
    /// The trump indicator, once fixed.
    pub indicator: Option<Card>,
    /// The nil player.
    pub nil: Option<Seat>,
    /// The dummy's controller (2 players, from the start of play).
    pub controller: Option<Seat>,
    /// Who plays next.
    pub next: Pos,
    /// The trick in progress.
    pub trick: Vec<Play>,
    /// Completed tricks of this hand.
    pub tricks: Vec<Trick>,
    /// The last finished hand.
    pub last_hand: Option<HandSummary>,
}

/// The 24-card pack.
pub fn pack() -> PackSpec {
    PackSpec::ranks_from(Rank::Nine)
}

/// The Bird Dog card of an indicator: same rank, other suit of the same colour (R1).
pub fn bird_dog_of(indicator: Card) -> Option<Card> {
    let (rank, suit) = (indicator.rank()?, indicator.suit()?);
    let partner = match suit {
        Suit::Spades => Suit::Clubs,
        Suit::Clubs => Suit::Spades,
        Suit::Hearts => Suit::Diamonds,
        Suit::Diamonds => Suit::Hearts,
    };
    Some(Card::new(rank, partner))
}

/// A card's strength in a trick (§4): Bird Dog (3), trump (2), led suit (1), else None.
pub fn strength(
    card: Card,
    led: Suit,
    trump: Option<Suit>,
    bird_dog: Option<Card>,
) -> Option<(u8, u8)> {
    if Some(card) == bird_dog {
        return Some((3, 0));
    }
    plain_strength(card, led, trump)
}

fn list(cards: CardSet) -> String {
    cards
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

impl State {
    /// Sets up a game and deals the first hand.
    pub fn new(setup: &Setup<Options>, events: &mut Vec<Event>) -> Result<State, SetupError> {
        let players = setup.players;
        let options = setup.options.clone();
        options.check(players).map_err(SetupError::InvalidOptions)?;
        let stacked = parse_card_deals(&setup.deals, &pack())?;
        let mut rng = GameRng::new(setup.seed);
        let dealer = options.first_dealer.pick(&mut rng, players);
        let mut state = State {
            table: Table {
                players,
                options,
                rng,
            },
            stacked,
            phase: Phase::Trump,
            dealer,
            deals_played: 0,
            totals: vec![0; players],
            hands: vec![CardSet::EMPTY; players],
            dummy_down: Vec::new(),
            dummy_up: CardSet::EMPTY,
            widow: Vec::new(),
            round: 0,
            passes: 0,
            to_play: dealer,
            calls: Vec::new(),
            solo: None,
            indicator: None,
            nil: None,
            controller: None,
            next: Pos::Seat(dealer),
            trick: Vec::new(),
            tricks: Vec::new(),
            last_hand: None,
        };
        state.deal(events);
        Ok(state)
    }

    /// True for the 2-player game with the dummy.
    pub fn two_player(&self) -> bool {
        self.table.players == 2
    }

    /// The trump suit, once fixed.
    pub fn trump(&self) -> Option<Suit> {
        self.indicator.and_then(Card::suit)
    }

    /// The Bird Dog card, once trump is fixed (even if it lies in the widow).
    pub fn bird_dog(&self) -> Option<Card> {
        self.indicator.and_then(bird_dog_of)
    }

    /// True once everyone has seen the Bird Dog card: turned up from the widow or played. Only
    /// this is public; whether an unseen Bird Dog card lies in a hand or in the never-turned
    /// widow is not (R22), so nothing else about its place may reach a view, event or bot.
    pub fn bird_dog_seen(&self) -> bool {
        self.bird_dog().is_some_and(|bird_dog| {
            self.widow_seen().contains(&bird_dog)
                || self.trick.iter().any(|p| p.card == bird_dog)
                || self
                    .tricks
                    .iter()
                    .any(|t| t.plays.iter().any(|p| p.card == bird_dog))
        })
    }

    /// Widow cards seen face up (public).
    pub fn widow_seen(&self) -> &[Card] {
        self.widow.get(..=self.round).unwrap_or(&self.widow)
    }

    /// The current turn-up candidate (trump phase only).
    pub fn candidate(&self) -> Option<Card> {
        (self.phase == Phase::Trump)
            .then(|| self.widow.get(self.round).copied())
            .flatten()
    }

    /// The seat that acts for a position.
    pub fn actor(&self, pos: Pos) -> Seat {
        match pos {
            Pos::Seat(s) => s,
            Pos::Dummy => self.controller.unwrap_or(0),
        }
    }

    /// The non-dealer of the 2-player game (the dealer's left in either game).
    fn left_of_dealer(&self) -> Seat {
        (self.dealer + 1) % self.table.players
    }

    /// The position after `pos` in play order (3 players: clockwise; 2 players: ND → dummy → DL).
    pub fn after(&self, pos: Pos) -> Pos {
        if !self.two_player() {
            return match pos {
                Pos::Seat(s) => Pos::Seat((s + 1) % self.table.players),
                Pos::Dummy => Pos::Seat(0),
            };
        }
        let nd = self.left_of_dealer();
        match pos {
            Pos::Seat(s) if s == nd => Pos::Dummy,
            Pos::Dummy => Pos::Seat(self.dealer),
            Pos::Seat(_) => Pos::Seat(nd),
        }
    }

    /// Deals a hand (§2, R20): 3 players round-robin from the dealer's left, 2 players ND, dummy,
    /// DL; the last three cards are the widow.
    fn deal(&mut self, events: &mut Vec<Event>) {
        // The pack in canonical order, listed once; the per-seat lists are refilled in place.
        static PACK: LazyLock<Vec<Card>> = LazyLock::new(|| pack().cards());
        let entry = self
            .stacked
            .get(self.deals_played as usize)
            .map(Vec::as_slice);
        let sequence = deal_sequence_inline(&PACK, entry, &mut self.table.rng);
        let dealt = 3 * HAND_SIZE;
        self.hands.clear();
        self.hands.resize(self.table.players, CardSet::EMPTY);
        self.dummy_down.clear();
        self.dummy_up = CardSet::EMPTY;
        let nd = self.left_of_dealer();
        for (i, &card) in sequence.iter().take(dealt).enumerate() {
            if self.two_player() {
                match i % 3 {
                    0 => self.hands[nd].insert(card),
                    1 => {
                        self.dummy_down.push(card);
                        true
                    }
                    _ => self.hands[self.dealer].insert(card),
                };
            } else {
                self.hands[(self.dealer + 1 + i) % 3].insert(card);
            }
        }
        self.widow.clear();
        self.widow.extend(sequence.iter().skip(dealt).copied());
        self.round = 0;
        self.passes = 0;
        self.calls.clear();
        self.solo = None;
        self.indicator = None;
        self.nil = None;
        self.controller = None;
        self.trick.clear();
        self.tricks.clear();
        self.phase = Phase::Trump;
        self.to_play = nd;
        self.next = Pos::Seat(nd);
        events.push(Event::Deal {
            hand: self.deals_played + 1,
            dealer: self.dealer,
            // The widow always holds 3 cards after a deal (validate refuses any other count).
            candidate: self.widow[0],
        });
    }

    /// The cards the position to play may play now.
    fn playable(&self) -> CardSet {
        let source = match self.next {
            Pos::Seat(s) => self.hands.get(s).copied().unwrap_or_default(),
            Pos::Dummy => self.dummy_up,
        };
        match self.trick.first().and_then(|p| p.card.suit()) {
            Some(led) => follow_suit(source, led),
            None => source,
        }
    }

    fn fix_trump(&mut self, events: &mut Vec<Event>) {
        // round <= 2 and a 3-card widow: validate refuses anything else.
        let indicator = self.widow[self.round];
        self.indicator = Some(indicator);
        let bird_dog = bird_dog_of(indicator).unwrap_or(indicator);
        events.push(Event::Trump {
            trump: indicator.suit().unwrap_or(Suit::Spades),
            indicator,
            bird_dog: CardName {
                rank: bird_dog.rank().unwrap_or(Rank::Nine),
                suit: bird_dog.suit().unwrap_or(Suit::Spades),
            },
            solo: self.solo,
        });
        self.phase = Phase::Nil;
        self.passes = 0;
        self.to_play = self.left_of_dealer();
    }

    fn start_play(&mut self) {
        if self.two_player() {
            // §3.4, R18: the human who did not declare nil, else the one who is not solo.
            let other = |s: Seat| (s + 1) % 2;
            self.controller = Some(match (self.nil, self.solo) {
                (Some(nil), _) => other(nil),
                (None, Some(solo)) => other(solo),
                (None, None) => self.dealer,
            });
            let up = self.dummy_down.len().min(3);
            self.dummy_up = self.dummy_down.drain(..up).collect();
        }
        self.phase = Phase::Play;
        self.next = Pos::Seat(self.left_of_dealer()); // R5
        self.to_play = self.actor(self.next);
    }

    fn play(
        &mut self,
        seat: Seat,
        cards: &[Card],
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let &[card] = cards else {
            return Err(ActionError::illegal(
                "one_card",
                format!("Play exactly one card, not {}.", cards.len()),
            ));
        };
        let dummy = self.next == Pos::Dummy;
        let source = match self.next {
            Pos::Seat(s) => self.hands.get(s).copied().unwrap_or_default(),
            Pos::Dummy => self.dummy_up,
        };
        if !source.contains(card) {
            return Err(if dummy {
                ActionError::illegal(
                    "not_a_dummy_card",
                    format!(
                        "It is the dummy's turn: play one of its face-up cards ({}), not {card}.",
                        list(source)
                    ),
                )
            } else {
                ActionError::illegal(
                    "card_not_in_hand",
                    format!("You do not hold {card}; your hand is {}.", list(source)),
                )
            });
        }
        let allowed = self.playable();
        if !allowed.contains(card) {
            return Err(ActionError::illegal(
                "must_follow_suit",
                format!(
                    "{} must follow suit: play {} instead of {card}.",
                    if dummy { "The dummy" } else { "You" },
                    list(allowed)
                ),
            ));
        }
        match self.next {
            Pos::Seat(s) => {
                self.hands[s].remove(card);
            }
            Pos::Dummy => {
                self.dummy_up.remove(card);
            }
        }
        self.trick.push(Play {
            by: self.next,
            card,
        });
        push_in_place(events, || Event::Play {
            seat,
            cards: Cards::one(card),
            dummy,
        });
        if self.trick.len() < 3 {
            self.next = self.after(self.next);
            self.to_play = self.actor(self.next);
            return Ok(());
        }
        let led = self
            .trick
            .first()
            .and_then(|p| p.card.suit())
            .unwrap_or(Suit::Spades);
        let (trump, bird_dog) = (self.trump(), self.bird_dog());
        let pairs: Vec<(Seat, Card)> = self.trick.iter().map(|p| (0, p.card)).collect();
        let index = winner_by_strength(&pairs, |_, c| strength(c, led, trump, bird_dog));
        let winner = self.trick.get(index).map_or(self.next, |p| p.by);
        events.push(Event::TrickWon { seat: winner });
        self.tricks.push(Trick {
            plays: std::mem::take(&mut self.trick),
            winner,
        });
        if self.two_player() && !self.dummy_down.is_empty() {
            // R17: one more dummy card face up after each trick.
            let card = self.dummy_down.remove(0);
            self.dummy_up.insert(card);
            events.push(Event::DummyTurnUp { card });
        }
        let nil_failed = self.nil.is_some_and(|nil| winner == Pos::Seat(nil));
        if nil_failed || self.tricks.len() == HAND_SIZE {
            // R12: a failed nil ends the hand at once.
            self.end_hand(events);
        } else {
            self.next = winner;
            self.to_play = self.actor(winner);
        }
        Ok(())
    }

    /// Cards won per seat (the dummy's for its controller).
    pub fn won_cards(&self) -> Vec<CardSet> {
        let mut won = vec![CardSet::EMPTY; self.table.players];
        for trick in &self.tricks {
            let seat = self.actor(trick.winner);
            if let Some(set) = won.get_mut(seat) {
                for play in &trick.plays {
                    set.insert(play.card);
                }
            }
        }
        won
    }

    /// Tricks won per position: one entry per seat, then the dummy's.
    pub fn tricks_won(&self) -> (Vec<u32>, u32) {
        let mut per_seat = vec![0; self.table.players];
        let mut dummy = 0;
        for trick in &self.tricks {
            match trick.winner {
                Pos::Seat(s) => {
                    if let Some(n) = per_seat.get_mut(s) {
                        *n += 1;
                    }
                }
                Pos::Dummy => dummy += 1,
            }
        }
        (per_seat, dummy)
    }

    fn end_hand(&mut self, events: &mut Vec<Event>) {
        let won = self.won_cards();
        let (tricks, _) = self.tricks_won();
        let summary = scoring::score_hand(
            self.deals_played + 1,
            &won,
            &tricks,
            self.solo,
            self.nil,
            self.table.options.team_pairs,
        );
        for (total, s) in self.totals.iter_mut().zip(&summary.scores) {
            *total += s;
        }
        self.finish_hand(summary, events);
    }

    /// R16: the 2-player triple pass annuls the hand.
    fn annul(&mut self, events: &mut Vec<Event>) {
        let summary = HandSummary {
            hand: self.deals_played + 1,
            kind: "annulled".into(),
            solo: None,
            nil: None,
            pairs: vec![0; self.table.players],
            scores: vec![0; self.table.players],
        };
        self.finish_hand(summary, events);
    }

    fn finish_hand(&mut self, summary: HandSummary, events: &mut Vec<Event>) {
        let annulled = summary.kind == "annulled";
        self.deals_played += 1;
        events.push(Event::HandEnd {
            summary: Box::new(summary.clone()),
            totals: self.totals.clone(),
        });
        self.last_hand = Some(summary);
        if self.game_ends() {
            self.phase = Phase::Over;
            events.push(Event::GameOver {
                totals: self.totals.clone(),
            });
            return;
        }
        let same = annulled && self.table.options.two_player_all_pass == AllPass::RedealSameDealer;
        if !same {
            self.dealer = (self.dealer + 1) % self.table.players;
        }
        self.deal(events);
    }

    /// §5.4, R14, R21.
    fn game_ends(&self) -> bool {
        let best = self.totals.iter().copied().max().unwrap_or(0);
        if best >= self.table.options.target {
            let leaders = self.totals.iter().filter(|t| **t == best).count();
            if leaders == 1 || self.table.options.tie_rule == TieRule::Shared {
                return true;
            }
        }
        self.table
            .options
            .max_hands
            .is_some_and(|max| self.deals_played >= max)
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

    /// Who acts now.
    fn to_act(&self) -> Actors {
        match self.phase {
            Phase::Over => Actors::None,
            _ => Actors::One(self.to_play),
        }
    }

    /// Legal actions of `seat`, canonical order.
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        if self.phase == Phase::Over || seat != self.to_play {
            return;
        }
        match self.phase {
            Phase::Trump => {
                out.push(Action::Declare {
                    contract: Contract::Solo,
                });
                out.push(Action::Pass {});
            }
            Phase::Nil => {
                out.push(Action::Declare {
                    contract: Contract::Nil,
                });
                out.push(Action::Pass {});
            }
            Phase::Play => out.extend(self.playable().iter().map(Action::play)),
            Phase::Over => {}
        }
    }

    /// Applies an action of `seat` (validated completely before any change).
    fn apply(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        match (self.phase, action) {
            (
                Phase::Trump,
                Action::Declare {
                    contract: Contract::Solo,
                },
            ) => {
                self.calls.push(Call {
                    seat,
                    round: self.round + 1,
                    contract: Some(Contract::Solo),
                });
                events.push(Event::Declare {
                    seat,
                    contract: Contract::Solo,
                });
                self.solo = Some(seat);
                self.fix_trump(events);
                Ok(())
            }
            (Phase::Trump, Action::Pass {}) => {
                self.calls.push(Call {
                    seat,
                    round: self.round + 1,
                    contract: None,
                });
                events.push(Event::Pass { seat });
                self.passes += 1;
                if self.passes < self.table.players {
                    self.to_play = (seat + 1) % self.table.players;
                } else if self.round < 2 {
                    // R4: turn the card down, turn the next one up, the dealer's left speaks first.
                    self.round += 1;
                    self.passes = 0;
                    self.to_play = self.left_of_dealer();
                    events.push(Event::TurnUp {
                        round: self.round + 1,
                        candidate: self.widow[self.round],
                    });
                } else if self.two_player() {
                    // R16: the 2-player hand is annulled and redealt.
                    self.annul(events);
                } else {
                    // §3.1 step 4: W3 fixes trump anyway; free-for-all.
                    self.fix_trump(events);
                }
                Ok(())
            }
            (
                Phase::Nil,
                Action::Declare {
                    contract: Contract::Nil,
                },
            ) => {
                self.calls.push(Call {
                    seat,
                    round: 0,
                    contract: Some(Contract::Nil),
                });
                events.push(Event::Declare {
                    seat,
                    contract: Contract::Nil,
                });
                self.nil = Some(seat); // R11: the first nil ends the phase.
                self.start_play();
                Ok(())
            }
            (Phase::Nil, Action::Pass {}) => {
                self.calls.push(Call {
                    seat,
                    round: 0,
                    contract: None,
                });
                events.push(Event::Pass { seat });
                self.passes += 1;
                if self.passes < self.table.players {
                    self.to_play = (seat + 1) % self.table.players;
                } else {
                    self.start_play();
                }
                Ok(())
            }
            (Phase::Play, Action::Play { cards }) => self.play(seat, cards, events),
            (Phase::Trump, _) => Err(ActionError::illegal(
                "solo_or_pass",
                "A card is turned up: declare solo ({\"type\":\"declare\",\"contract\":\"solo\"}) or pass ({\"type\":\"pass\"}).",
            )),
            (Phase::Nil, _) => Err(ActionError::illegal(
                "nil_or_pass",
                "Trump is fixed: declare nil ({\"type\":\"declare\",\"contract\":\"nil\"}) or pass ({\"type\":\"pass\"}).",
            )),
            (Phase::Play, _) => Err(ActionError::illegal(
                "must_play",
                "Declarations are over: play a card ({\"type\":\"play\",\"cards\":[...]}).",
            )),
            (Phase::Over, _) => Err(ActionError::GameOver),
        }
    }

    fn view(&self, viewer: Viewer) -> View {
        view::view(self, viewer)
    }

    fn result(&self) -> Option<GameResult> {
        if self.phase != Phase::Over {
            return None;
        }
        let totals = &self.totals;
        let ranking = GameResult::ranking_by_key(0..self.table.players, |s| {
            std::cmp::Reverse(totals.get(s).copied().unwrap_or(0))
        });
        Some(GameResult {
            ranking,
            scores: totals.iter().map(|t| f64::from(*t)).collect(),
            teams: None,
            details: serde_json::json!({
                "totals": totals,
                "hands": self.deals_played,
                "target": self.table.options.target,
            }),
        })
    }

    /// Checks a state from outside (see `GameDef::validate`).
    fn validate(&self) -> Result<(), String> {
        let n = self.table.players;
        if !(2..=3).contains(&n) {
            return Err(format!("{n} players: Bird Dog is for 2 or 3"));
        }
        self.table.options.check(n)?;
        if self.hands.len() != n || self.totals.len() != n {
            return Err("hands and totals need one entry per seat".into());
        }
        if self.dealer >= n || self.to_play >= n {
            return Err("dealer or seat to act out of range".into());
        }
        let pack = pack();
        let mut seen = CardSet::EMPTY;
        let pieces = self.cards();
        for card in &pieces {
            if pack.count_of(*card) == 0 {
                return Err(format!("{card} is not a Bird Dog card"));
            }
            if !seen.insert(*card) {
                return Err(format!("{card} appears twice"));
            }
        }
        if pieces.len() != PACK_SIZE || self.widow.len() != 3 || self.round > 2 {
            return Err("the pack, widow or turn-up round is incomplete".into());
        }
        if !self.two_player()
            && (!self.dummy_down.is_empty() || !self.dummy_up.is_empty() || self.next == Pos::Dummy)
        {
            return Err("only the 2-player game has a dummy".into());
        }
        if self.solo.is_some_and(|s| s >= n) || self.nil.is_some_and(|s| s >= n) {
            return Err("solo or nil seat out of range".into());
        }
        let done = self.tricks.len();
        if done > HAND_SIZE || self.trick.len() >= 3 {
            return Err("too many tricks".into());
        }
        let in_trick = |pos: Pos| self.trick.iter().any(|p| p.by == pos);
        let expected = |pos: Pos| HAND_SIZE - done - usize::from(in_trick(pos));
        for (seat, hand) in self.hands.iter().enumerate() {
            if self.phase != Phase::Over && hand.len() != expected(Pos::Seat(seat)) {
                return Err(format!("seat {seat} holds a wrong number of cards"));
            }
        }
        let speaking = (self.left_of_dealer() + self.passes) % n;
        match self.phase {
            Phase::Trump | Phase::Nil => {
                if done != 0
                    || !self.trick.is_empty()
                    || self.passes >= n
                    || self.to_play != speaking
                {
                    return Err("declaration phase data incoherent".into());
                }
                if self.two_player()
                    && (self.dummy_down.len() != HAND_SIZE || !self.dummy_up.is_empty())
                {
                    return Err("the dummy's pile is untouched before play".into());
                }
                if self.phase == Phase::Trump
                    && (self.indicator.is_some() || self.solo.is_some() || self.nil.is_some())
                {
                    return Err("trump phase data incoherent".into());
                }
                if self.phase == Phase::Nil
                    && (self.indicator != self.widow.get(self.round).copied()
                        || self.nil.is_some()
                        || (self.two_player() && self.solo.is_none()))
                {
                    return Err("nil phase data incoherent".into());
                }
            }
            Phase::Play => {
                if self.indicator != self.widow.get(self.round).copied() {
                    return Err("play without a trump".into());
                }
                if self.two_player() {
                    let Some(controller) = self.controller else {
                        return Err("2-player play needs a controller".into());
                    };
                    if controller >= n {
                        return Err("controller out of range".into());
                    }
                    let left = self.dummy_up.len() + self.dummy_down.len();
                    if left != expected(Pos::Dummy)
                        || self.dummy_up.len() > 3
                        || (!self.dummy_down.is_empty() && self.dummy_up.len() < 2)
                    {
                        return Err("the dummy's cards are incoherent".into());
                    }
                }
                if done >= HAND_SIZE {
                    return Err("a finished hand is still in play".into());
                }
                if self
                    .nil
                    .is_some_and(|nil| self.tricks.iter().any(|t| t.winner == Pos::Seat(nil)))
                {
                    return Err("a failed nil hand is still in play".into());
                }
                let leader = match (self.trick.first(), self.tricks.last()) {
                    (Some(first), _) => first.by,
                    (None, Some(last)) => last.winner,
                    (None, None) => Pos::Seat(self.left_of_dealer()),
                };
                let mut pos = leader;
                for play in &self.trick {
                    if play.by != pos {
                        return Err("trick plays out of order".into());
                    }
                    pos = self.after(pos);
                }
                if matches!(pos, Pos::Seat(s) if s >= n) {
                    return Err("position out of range".into());
                }
                if self.next != pos || self.to_play != self.actor(pos) {
                    return Err("wrong position to play".into());
                }
            }
            Phase::Over => {}
        }
        for trick in &self.tricks {
            if trick.plays.len() != 3
                || trick
                    .plays
                    .iter()
                    .any(|p| matches!(p.by, Pos::Seat(s) if s >= n))
            {
                return Err("a completed trick is malformed".into());
            }
            if matches!(trick.winner, Pos::Seat(s) if s >= n)
                || (trick.winner == Pos::Dummy && !self.two_player())
            {
                return Err("a trick winner is out of range".into());
            }
        }
        if self.phase != Phase::Over && self.game_ends() {
            return Err("the game should be over".into());
        }
        Ok(())
    }

    /// Every card in the game.
    fn pieces(&self) -> Vec<String> {
        self.cards().iter().map(Card::to_string).collect()
    }

    fn hidden_from(&self, viewer: Viewer) -> Vec<String> {
        view::hidden_from(self, viewer)
    }

    fn determinize(&self, seat: Seat, rng: &mut crate::rng::PlayoutRng) -> Option<Self> {
        view::determinize(self, seat, rng)
    }
}

impl State {
    /// Every card in the game, wherever it lies.
    pub fn cards(&self) -> Vec<Card> {
        let mut cards: Vec<Card> = self.hands.iter().flat_map(|h| h.iter()).collect();
        cards.extend(self.dummy_down.iter().copied());
        cards.extend(self.dummy_up.iter());
        cards.extend(self.widow.iter().copied());
        cards.extend(self.trick.iter().map(|p| p.card));
        cards.extend(
            self.tricks
                .iter()
                .flat_map(|t| t.plays.iter().map(|p| p.card)),
        );
        cards
    }
}

impl schemars::JsonSchema for Pos {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Pos".into()
    }
    fn schema_id() -> std::borrow::Cow<'static, str> {
        concat!(module_path!(), "::Pos").into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        crate::schema::word_or_count(
            "dummy",
            "A seat number, or `\"dummy\"` for the dummy hand of the 2-player game.",
        )
    }
}
