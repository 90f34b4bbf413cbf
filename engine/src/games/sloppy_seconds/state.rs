//! The state of a game of Sloppy Seconds: dealing, legal plays, the mid-hand trump, tricks, scoring.

use super::action::{Action, Event};
use super::rules::Options;
use super::scoring;
use super::view::{self, View};
use crate::cards::{Card, CardSet, PackSpec, Rank, Suit};
use crate::common::trick::{TrickPlays, follow_suit, plain_strength, winner_by_strength};
use crate::deal::{deal_sequence, parse_card_deals};
use crate::error::{ActionError, SetupError};
use crate::game::{Actors, GameResult, GameState, Table, Viewer};
use crate::game::{Seat, Setup};
use crate::rng::GameRng;
use serde::{Deserialize, Serialize};
use smallvec::smallvec;
use std::sync::LazyLock;

/// One completed trick.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Trick {
    /// The plays in order, the lead first.
    pub plays: TrickPlays,
    /// Who won it.
    pub winner: Seat,
}

/// The public scoring of a finished hand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct HandReport {
    /// Captured card points per seat and suit (S, H, D, C).
    pub points: Vec<[u32; 4]>,
    /// What each seat scored for the hand (minimum rule applied).
    pub scores: Vec<u32>,
}

/// The full state, hidden hands and RNG included.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct State {
    /// The shared header: players, options, the RNG and its seed.
    pub table: Table<Options>,
    /// Stacked deals (entry d for hand d).
    #[serde(rename = "deals")]
    pub stacked: Vec<Vec<Card>>,
    /// Hands dealt so far (the current hand's number, 1-based).
    #[serde(rename = "hand_number")]
    pub deal_number: usize,
    /// The dealer of the current hand.
    pub dealer: Seat,
    /// Each seat's cards.
    pub hands: Vec<CardSet>,
    /// The trick in progress.
    pub trick: Vec<(Seat, Card)>,
    /// The leader of the trick in progress.
    pub leader: Seat,
    /// Completed tricks of this hand.
    pub tricks: Vec<Trick>,
    /// The first suit broken this hand (never trump this hand).
    pub first_broken: Option<Suit>,
    /// The trump suit, once a second suit is broken.
    pub trump: Option<Suit>,
    /// Running totals.
    pub totals: Vec<i64>,
    /// The scoring of the previous hand.
    pub last_hand: Option<HandReport>,
    /// True once the game has ended.
    pub over: bool,
}

/// The 2C, removed with 3 players (R2).
pub fn two_of_clubs() -> Card {
    Card::new(Rank::Two, Suit::Clubs)
}

/// The pack for this many players, in canonical order.
pub fn pack(players: usize) -> Vec<Card> {
    let mut cards = PackSpec::standard().cards();
    if players == 3 {
        cards.retain(|c| *c != two_of_clubs());
    }
    cards
}

impl State {
    /// Sets up a game and deals the first hand.
    pub fn new(setup: &Setup<Options>, events: &mut Vec<Event>) -> Result<State, SetupError> {
        let n = setup.players;
        let deals = parse_card_deals(&setup.deals, &PackSpec::standard())?;
        if n == 3
            && let Some(d) = deals.iter().position(|e| e.contains(&two_of_clubs()))
        {
            return Err(SetupError::InvalidDeals(format!(
                "deal {d}: 2C is removed from the pack with 3 players"
            )));
        }
        let mut rng = GameRng::new(setup.seed);
        setup
            .options
            .first_dealer
            .check(n)
            .map_err(SetupError::InvalidOptions)?;
        let dealer = setup.options.first_dealer.pick(&mut rng, n);
        let mut state = State {
            table: Table {
                players: n,
                options: setup.options.clone(),
                rng,
            },
            stacked: deals,
            deal_number: 0,
            dealer,
            hands: vec![CardSet::EMPTY; n],
            trick: Vec::new(),
            leader: 0,
            tricks: Vec::new(),
            first_broken: None,
            trump: None,
            totals: vec![0; n],
            last_hand: None,
            over: false,
        };
        state.deal(events);
        Ok(state)
    }

    /// Deals a hand with the current dealer (spec §2, R11): card i goes to seat dealer+1+i.
    fn deal(&mut self, events: &mut Vec<Event>) {
        let n = self.table.players;
        let entry = self.stacked.get(self.deal_number).map(Vec::as_slice);
        // Both packs listed once; the hands are refilled in place (a hand is short).
        static PACK_3: LazyLock<Vec<Card>> = LazyLock::new(|| pack(3));
        static PACK: LazyLock<Vec<Card>> = LazyLock::new(|| pack(4));
        let cards: &[Card] = if n == 3 { &PACK_3 } else { &PACK };
        let sequence = deal_sequence(cards, entry, &mut self.table.rng);
        self.hands.clear();
        self.hands.resize(n, CardSet::EMPTY);
        for (i, card) in sequence.into_iter().enumerate() {
            self.hands[(self.dealer + 1 + i) % n].insert(card);
        }
        self.deal_number += 1;
        self.tricks.clear();
        self.trick.clear();
        self.first_broken = None;
        self.trump = None;
        self.leader = (self.dealer + 1) % n; // R10
        events.push(Event::Deal {
            deal: self.deal_number,
            dealer: self.dealer,
        });
    }

    /// The seat to play, if the game is not over.
    pub fn current(&self) -> Option<Seat> {
        (!self.over).then(|| (self.leader + self.trick.len()) % self.table.players)
    }

    /// The suit led in the trick in progress.
    pub fn led(&self) -> Option<Suit> {
        self.trick.first().and_then(|(_, c)| c.suit())
    }

    /// The cards `seat` may play now (empty if not its turn).
    pub fn playable(&self, seat: Seat) -> CardSet {
        if self.current() != Some(seat) {
            return CardSet::EMPTY;
        }
        let hand = self.hands.get(seat).copied().unwrap_or_default();
        match self.led() {
            None => hand,
            Some(led) => follow_suit(hand, led),
        }
    }

    fn finish_trick(&mut self, events: &mut Vec<Event>) {
        let led = self.led().unwrap_or(Suit::Spades);
        let trump = self.trump;
        let index = winner_by_strength(&self.trick, |_, c| plain_strength(c, led, trump));
        let winner = self.trick.get(index).map_or(self.leader, |(s, _)| *s);
        self.tricks.push(Trick {
            plays: TrickPlays::from_slice(&self.trick),
            winner,
        });
        self.trick.clear();
        events.push(Event::TrickWon { seat: winner });
        self.leader = winner;
        if self.hands.iter().all(|h| h.is_empty()) {
            self.finish_hand(events);
        }
    }

    /// Card points captured per seat and suit this hand.
    pub fn captured_points(&self) -> Vec<[u32; 4]> {
        let mut won = vec![CardSet::EMPTY; self.table.players];
        for trick in &self.tricks {
            if let Some(set) = won.get_mut(trick.winner) {
                for (_, card) in &trick.plays {
                    set.insert(*card);
                }
            }
        }
        won.into_iter().map(scoring::suit_points).collect()
    }

    fn finish_hand(&mut self, events: &mut Vec<Event>) {
        let points = self.captured_points();
        let scores = scoring::hand_scores(&points, self.table.options.minimum_rule);
        for (total, add) in self.totals.iter_mut().zip(&scores) {
            *total = total.saturating_add(i64::from(*add));
        }
        events.push(Event::HandScored {
            scores: scores.clone(),
            totals: self.totals.clone(),
        });
        self.last_hand = Some(HandReport { points, scores });
        // R8: checked only at the end of a hand; R9: a tie for first plays on by default.
        let over = scoring::game_over(
            &self.totals,
            self.table.options.target,
            self.table.options.tie_rule,
        );
        if over {
            self.over = true;
            events.push(Event::GameOver {
                totals: self.totals.clone(),
            });
        } else {
            self.dealer = (self.dealer + 1) % self.table.players;
            self.deal(events);
        }
    }

    /// Every card in the game (hands, trick, completed tricks).
    pub fn all_cards(&self) -> Vec<Card> {
        let mut cards: Vec<Card> = self.hands.iter().flat_map(|h| h.iter()).collect();
        cards.extend(self.trick.iter().map(|(_, c)| *c));
        cards.extend(
            self.tricks
                .iter()
                .flat_map(|t| t.plays.iter().map(|(_, c)| *c)),
        );
        cards
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
        self.current().map_or(Actors::None, Actors::One)
    }

    /// Legal actions in card order.
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        out.extend(self.playable(seat).iter().map(|card| Action::Play {
            cards: smallvec![card],
        }));
    }

    /// Applies a play: validated completely first.
    fn apply(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let Action::Play { cards } = action;
        let card = match cards.as_slice() {
            [card] => *card,
            _ => {
                return Err(ActionError::illegal(
                    "play_one_card",
                    format!("play exactly one card, not {}", cards.len()),
                ));
            }
        };
        let hand = self.hands.get(seat).copied().unwrap_or_default();
        if !hand.contains(card) {
            return Err(ActionError::illegal(
                "card_not_in_hand",
                format!("{card} is not in your hand"),
            ));
        }
        if !self.playable(seat).contains(card) {
            let led = self.led().map_or('?', Suit::code);
            return Err(ActionError::illegal(
                "must_follow_suit",
                format!(
                    "{card} does not follow the led suit {led}, and you hold a card of that suit"
                ),
            ));
        }
        // Validated: mutate.
        self.hands[seat].remove(card);
        events.push(Event::Play {
            seat,
            cards: smallvec![card],
        });
        if let (Some(led), Some(suit)) = (self.led(), card.suit()) {
            // R3: an off-suit card breaks its suit; the second broken suit becomes trump at once.
            if suit != led && self.trump.is_none() {
                match self.first_broken {
                    None => {
                        self.first_broken = Some(suit);
                        events.push(Event::FirstBroken { seat, suit });
                    }
                    Some(first) if first != suit => {
                        self.trump = Some(suit);
                        events.push(Event::Trump { seat, suit });
                    }
                    Some(_) => {}
                }
            }
        }
        self.trick.push((seat, card));
        if self.trick.len() == self.table.players {
            self.finish_trick(events);
        }
        Ok(())
    }

    fn view(&self, viewer: Viewer) -> View {
        view::view(self, viewer)
    }

    fn result(&self) -> Option<GameResult> {
        if !self.over {
            return None;
        }
        let totals = &self.totals;
        Some(GameResult {
            ranking: GameResult::ranking_by_key(0..self.table.players, |s| {
                std::cmp::Reverse(totals.get(s).copied().unwrap_or(0))
            }),
            scores: totals.iter().map(|t| *t as f64).collect(),
            teams: None,
            details: serde_json::json!({ "hands": self.deal_number }),
        })
    }

    /// Checks a state from outside (see `GameDef::validate`).
    fn validate(&self) -> Result<(), String> {
        let n = self.table.players;
        if !(3..=4).contains(&n) {
            return Err(format!("{n} players (3 or 4 expected)"));
        }
        if self.hands.len() != n || self.totals.len() != n {
            return Err("hands and totals need one entry per seat".into());
        }
        if self.dealer >= n || self.leader >= n {
            return Err("dealer or leader out of range".into());
        }
        self.table.options.first_dealer.check(n)?;
        // Conservation: every card of the pack exactly once.
        let mut seen = CardSet::EMPTY;
        for card in self.all_cards() {
            if !seen.insert(card) {
                return Err(format!("{card} appears twice"));
            }
        }
        if seen != CardSet::from_cards(pack(n)) {
            return Err("the cards are not exactly the pack".into());
        }
        let per_hand = pack(n).len() / n;
        if self.tricks.len() > per_hand || self.trick.len() >= n {
            return Err("too many tricks or plays".into());
        }
        for trick in &self.tricks {
            if trick.plays.len() != n || trick.winner >= n {
                return Err("a completed trick must have one play per seat and a winner".into());
            }
        }
        for (i, (seat, _)) in self.trick.iter().enumerate() {
            if *seat != (self.leader + i) % n {
                return Err("the trick's plays are not in seat order from the leader".into());
            }
        }
        for (seat, hand) in self.hands.iter().enumerate() {
            let played = usize::from(self.trick.iter().any(|(s, _)| *s == seat));
            if hand.len() + self.tricks.len() + played != per_hand {
                return Err(format!("seat {seat} holds {} cards", hand.len()));
            }
        }
        match (self.first_broken, self.trump) {
            (None, Some(_)) => return Err("trump set before any suit was broken".into()),
            (Some(a), Some(b)) if a == b => {
                return Err("the first broken suit cannot be trump".into());
            }
            _ => {}
        }
        if self.over != self.hands.iter().all(|h| h.is_empty()) {
            return Err("the game is over exactly when all hands are played out".into());
        }
        if let Some(report) = &self.last_hand
            && (report.points.len() != n || report.scores.len() != n)
        {
            return Err("last hand report needs one entry per seat".into());
        }
        Ok(())
    }

    fn pieces(&self) -> Vec<String> {
        self.all_cards().iter().map(|c| c.code()).collect()
    }

    fn hidden_from(&self, viewer: Viewer) -> Vec<String> {
        view::hidden_from(self, viewer)
    }

    fn determinize(&self, seat: Seat, rng: &mut crate::rng::PlayoutRng) -> Option<Self> {
        view::determinize(self, seat, rng)
    }
}
