//! The state of a Trump Crew game: the stage ladder, one deal at a time (spec §2-§5).

use super::action::{Action, Event, Strength};
use super::rules::{MAX_PLAYERS, MIN_PLAYERS, Options, PACK_SIZE};
use super::view::{self, View};
use crate::cards::{Card, CardSet, PackSpec, Suit, one_card};
use crate::common::trick::{follow_suit, plain_strength, winner_by_strength};
use crate::deal::{deal_sequence_inline, parse_card_deals};
use crate::error::{ActionError, SetupError};
use crate::game::{Actors, GameResult, GameState, Table, Viewer};
use crate::game::{Seat, Setup};
use crate::rng::GameRng;
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;
use std::sync::LazyLock;

/// The plays of one trick, inline for up to six seats: a heap list per trick (allocated when the
/// trick starts, freed with the deal) showed in playout profiles. Serialized as a list.
pub type TrickPlays = SmallVec<[Play; 6]>;

/// One number per seat (bids, tricks won), inline for up to six seats: a deal's summary and its
/// event are built every deal, and the early stages are a few actions long. Serialized as a list.
pub type PerSeat = SmallVec<[u32; 6]>;

/// Where a deal stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The dealer announces his strength (§3.1).
    Declare,
    /// The non-dealers bid in turn (§3.2).
    Bid,
    /// Tricks are played (§3.3).
    Play,
    /// The game has ended (final stage cleared, or `max_deals` reached).
    Over,
}

/// One card played to a trick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Play {
    /// Who played it.
    pub seat: Seat,
    /// The card.
    pub card: Card,
}

/// A completed trick of the current deal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Trick {
    /// The cards in play order (the leader first).
    pub plays: TrickPlays,
    /// The led suit (None when the joker was led without naming a suit).
    pub led: Option<Suit>,
    /// Who took it.
    pub winner: Seat,
}

/// What happened in one finished deal (public facts only, no cards).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct DealSummary {
    /// 1-based number of the deal in the game.
    pub deal: u64,
    /// Its stage N.
    pub stage: u32,
    /// Its dealer.
    pub dealer: Seat,
    /// Its trump (None: the joker was the indicator).
    pub trump: Option<Suit>,
    /// The dealer's announcement.
    pub strength: Option<Strength>,
    /// Every seat's bid.
    pub bids: PerSeat,
    /// Every seat's tricks.
    pub tricks_won: PerSeat,
    /// True if every seat made its bid exactly.
    pub cleared: bool,
}

/// The full state, hidden cards and RNG included.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The shared header: players, options, the RNG and its seed.
    pub table: Table<Options>,
    /// Stacked deals still to be used (entry d is deal d, 0-based).
    pub stacked: Vec<Vec<Card>>,
    /// The final stage S.
    pub final_stage: u32,
    /// `max_deals` resolved (None = unlimited).
    pub deal_limit: Option<u64>,
    /// The phase.
    pub phase: Phase,
    /// The current stage N.
    pub stage: u32,
    /// The current dealer.
    pub dealer: Seat,
    /// Deals finished so far.
    pub deals_played: u64,
    /// Stages cleared so far in this game.
    pub stages_cleared: u32,
    /// True once the final stage is cleared.
    pub cleared: bool,
    /// The hands.
    pub hands: Vec<CardSet>,
    /// The face-up indicator.
    pub indicator: Card,
    /// The face-down undealt cards (the indicator excluded).
    pub undealt: CardSet,
    /// The dealer's announcement.
    pub strength: Option<Strength>,
    /// Bids so far.
    pub bids: Vec<Option<u32>>,
    /// The seat to act in the bid and play phases.
    pub to_play: Seat,
    /// The trick in progress.
    pub trick: TrickPlays,
    /// Its led suit (None before the lead and after a joker lead naming no suit).
    pub led: Option<Suit>,
    /// Completed tricks of this deal.
    pub tricks: Vec<Trick>,
    /// Tricks won per seat in this deal.
    pub won: Vec<u32>,
    /// The last finished deal (None before the first deal ends).
    pub last_deal: Option<DealSummary>,
}

/// The 53-card pack in canonical order.
pub fn pack() -> PackSpec {
    PackSpec::standard().jokers(1)
}

/// Trick resolution (§4, R5, R8): the joker, else the highest trump, else the highest card of the
/// led suit. Returns the index of the winning play.
pub fn trick_winner(plays: &[Play], led: Option<Suit>, trump: Option<Suit>) -> usize {
    let mut pairs = [(0usize, Card::JOKER); MAX_PLAYERS];
    let count = plays.len().min(MAX_PLAYERS);
    for (slot, play) in pairs.iter_mut().zip(plays) {
        *slot = (play.seat, play.card);
    }
    winner_by_strength(&pairs[..count], |_, card| strength(card, led, trump))
}

/// A card's strength in a trick: joker (3), trump (2), led suit (1), or None (cannot win).
pub fn strength(card: Card, led: Option<Suit>, trump: Option<Suit>) -> Option<(u8, u8)> {
    if card.is_joker() {
        return Some((3, 0));
    }
    match led {
        Some(led) => plain_strength(card, led, trump),
        // A joker lead naming no suit: the joker wins anyway (§4), only trumps could rank.
        None => match (card.suit(), card.rank()) {
            (Some(suit), Some(rank)) if Some(suit) == trump => Some((2, rank.value())),
            _ => None,
        },
    }
}

/// The cards of `hand` that may follow to a trick with `led` (§3.3, R5, R7): the led suit if held,
/// plus the joker at any time; everything when void or after a joker lead naming no suit.
pub fn playable(hand: CardSet, led: Option<Suit>) -> CardSet {
    match led {
        None => hand,
        Some(led) => {
            let mut plain = hand;
            let joker = plain.remove(Card::JOKER);
            let mut allowed = follow_suit(plain, led);
            if joker {
                allowed.insert(Card::JOKER);
            }
            allowed
        }
    }
}

fn suit_name(suit: Suit) -> &'static str {
    match suit {
        Suit::Spades => "spades",
        Suit::Hearts => "hearts",
        Suit::Diamonds => "diamonds",
        Suit::Clubs => "clubs",
    }
}

fn list(cards: CardSet) -> String {
    cards
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

impl State {
    /// Sets up a game and deals the first deal.
    pub fn new(setup: &Setup<Options>, events: &mut Vec<Event>) -> Result<State, SetupError> {
        let players = setup.players;
        let options = setup.options.clone();
        options.check(players).map_err(SetupError::InvalidOptions)?;
        let stacked = parse_card_deals(&setup.deals, &pack())?;
        let final_stage = options.final_stage(players) as u32;
        let mut rng = GameRng::new(setup.seed);
        let dealer = options.first_dealer.pick(&mut rng, players);
        let mut state = State {
            stage: options.start_stage,
            deal_limit: options.deal_limit(final_stage as usize),
            table: Table {
                players,
                options,
                rng,
            },
            stacked,
            final_stage,
            phase: Phase::Declare,
            dealer,
            deals_played: 0,
            stages_cleared: 0,
            cleared: false,
            hands: vec![CardSet::EMPTY; players],
            indicator: Card::JOKER,
            undealt: CardSet::EMPTY,
            strength: None,
            bids: vec![None; players],
            to_play: dealer,
            trick: TrickPlays::new(),
            led: None,
            tricks: Vec::new(),
            won: vec![0; players],
            last_deal: None,
        };
        state.deal(events);
        Ok(state)
    }

    /// The trump suit of the deal (None when the indicator is the joker, R4).
    pub fn trump(&self) -> Option<Suit> {
        self.indicator.suit()
    }

    /// Chips still in the centre.
    pub fn chips_left(&self) -> u32 {
        let bid: u32 = self.bids.iter().flatten().sum();
        self.stage.saturating_sub(bid)
    }

    /// Deals stage `self.stage` with `self.dealer` (§2, R12, R16).
    fn deal(&mut self, events: &mut Vec<Event>) {
        let n = self.table.players;
        // The pack in canonical order, listed once; the per-seat lists are refilled in place:
        // the early stages deal a card or two, so a deal's set-up is most of their cost.
        static PACK: LazyLock<Vec<Card>> = LazyLock::new(|| pack().cards());
        let entry = usize::try_from(self.deals_played)
            .ok()
            .and_then(|d| self.stacked.get(d))
            .map(Vec::as_slice);
        static PACK_SET: LazyLock<CardSet> = LazyLock::new(|| pack().cards().into_iter().collect());
        let sequence = deal_sequence_inline(&PACK, entry, &mut self.table.rng);
        let dealt = n * self.stage as usize;
        self.hands.clear();
        self.hands.resize(n, CardSet::EMPTY);
        // Seats in dealing order from the dealer's left, without a division per card.
        let mut seat = self.dealer;
        let mut out = CardSet::EMPTY;
        for &card in sequence.iter().take(dealt) {
            seat = if seat + 1 >= n { 0 } else { seat + 1 };
            self.hands[seat].insert(card);
            out.insert(card);
        }
        // A stage deals at most PACK_SIZE - 1 cards (validate and setup bound the stage), so the
        // indicator always exists.
        self.indicator = sequence[dealt];
        out.insert(self.indicator);
        // The sequence is an order of the whole pack (53 distinct cards, stacked or not): what
        // was not dealt or turned is the rest of the pack, by set arithmetic rather than card by
        // card.
        self.undealt = CardSet(PACK_SET.0 & !out.0);
        self.strength = None;
        self.bids.clear();
        self.bids.resize(n, None);
        self.trick.clear();
        self.led = None;
        self.tricks.clear();
        self.won.clear();
        self.won.resize(n, 0);
        self.phase = Phase::Declare;
        self.to_play = self.dealer;
        events.push(Event::Deal {
            deal: self.deals_played + 1,
            stage: self.stage,
            dealer: self.dealer,
            indicator: self.indicator,
            trump: self.trump(),
        });
    }

    fn bid(&mut self, seat: Seat, tricks: u32, events: &mut Vec<Event>) -> Result<(), ActionError> {
        let left = self.chips_left();
        if tricks > left {
            return Err(ActionError::illegal(
                "bid_too_high",
                format!(
                    "You cannot bid {tricks}: only {left} of the {} chips are left in the centre, so bid 0 to {left}.",
                    self.stage
                ),
            ));
        }
        let n = self.table.players;
        self.bids[seat] = Some(tricks);
        events.push(Event::Bid {
            seat,
            tricks,
            forced: false,
        });
        let next = (seat + 1) % n;
        if next == self.dealer {
            // §3.2, R2: the dealer takes exactly the chips left, automatically.
            let forced = self.chips_left();
            self.bids[next] = Some(forced);
            events.push(Event::Bid {
                seat: next,
                tricks: forced,
                forced: true,
            });
            self.phase = Phase::Play;
            self.to_play = (self.dealer + 1) % n; // R12: the dealer's left leads.
        } else {
            self.to_play = next;
        }
        Ok(())
    }

    fn play(
        &mut self,
        seat: Seat,
        cards: &[Card],
        suit: Option<Option<Suit>>,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let card = self.check_play(seat, cards, suit)?;
        self.lay(seat, card, suit, events);
        Ok(())
    }

    /// The card of a legal play of `seat` (one held card, legal to lead or follow, a suit named
    /// exactly for a joker lead), or why it is refused.
    fn check_play(
        &self,
        seat: Seat,
        cards: &[Card],
        suit: Option<Option<Suit>>,
    ) -> Result<Card, ActionError> {
        let &[card] = cards else {
            return Err(ActionError::illegal(
                "one_card",
                format!("Play exactly one card, not {}.", cards.len()),
            ));
        };
        let hand = self.hands.get(seat).copied().unwrap_or_default();
        if !hand.contains(card) {
            return Err(ActionError::illegal(
                "card_not_in_hand",
                format!("You do not hold {card}; your hand is {}.", list(hand)),
            ));
        }
        let leading = self.trick.is_empty();
        if leading && card.is_joker() && suit.is_none() {
            return Err(ActionError::illegal(
                "joker_lead_needs_suit",
                "When you lead the joker, name a suit (\"suit\": \"S\", \"H\", \"D\" or \"C\") or none (\"suit\": null).",
            ));
        }
        if suit.is_some() && !(leading && card.is_joker()) {
            return Err(ActionError::illegal(
                "suit_only_for_joker_lead",
                format!(
                    "A suit may only be named when leading the joker; play {card} without \"suit\"."
                ),
            ));
        }
        if !leading && !playable(hand, self.led).contains(card) {
            let led = self.led.unwrap_or(Suit::Spades);
            let must = hand.of_suit(led);
            return Err(ActionError::illegal(
                "must_follow_suit",
                format!(
                    "{} were led and you hold {}: play one of them{} instead of {card}.",
                    suit_name(led),
                    list(must),
                    if hand.contains(Card::JOKER) {
                        " or the joker"
                    } else {
                        ""
                    }
                ),
            ));
        }
        Ok(card)
    }

    /// Plays `card` for `seat` (checked: held, and legal to lead or follow with `suit`).
    fn lay(&mut self, seat: Seat, card: Card, suit: Option<Option<Suit>>, events: &mut Vec<Event>) {
        let leading = self.trick.is_empty();
        self.hands[seat].remove(card);
        if leading {
            self.led = if card.is_joker() {
                suit.flatten()
            } else {
                card.suit()
            };
        }
        self.trick.push(Play { seat, card });
        events.push(Event::Play {
            seat,
            cards: one_card(card),
            suit: if leading && card.is_joker() {
                suit
            } else {
                None
            },
        });
        let n = self.table.players;
        if self.trick.len() < n {
            self.to_play = (seat + 1) % n;
            return;
        }
        let index = trick_winner(&self.trick, self.led, self.trump());
        let winner = self.trick.get(index).map_or(seat, |p| p.seat);
        self.won[winner] += 1;
        events.push(Event::TrickWon { seat: winner });
        self.tricks.push(Trick {
            plays: std::mem::take(&mut self.trick),
            led: self.led.take(),
            winner,
        });
        self.to_play = winner;
        if self.tricks.len() == self.stage as usize {
            self.end_deal(events);
        }
    }

    /// §3.4, R9, R13: scores the deal, then ends the game or deals the next stage.
    fn end_deal(&mut self, events: &mut Vec<Event>) {
        let bids: PerSeat = self.bids.iter().map(|b| b.unwrap_or(0)).collect();
        let won = PerSeat::from_slice(&self.won);
        let cleared = bids == won;
        self.deals_played += 1;
        self.last_deal = Some(DealSummary {
            deal: self.deals_played,
            stage: self.stage,
            dealer: self.dealer,
            trump: self.trump(),
            strength: self.strength,
            bids: bids.clone(),
            tricks_won: won.clone(),
            cleared,
        });
        events.push(Event::DealEnd {
            stage: self.stage,
            cleared,
            bids,
            tricks_won: won,
        });
        if cleared {
            self.stages_cleared += 1;
            if self.stage >= self.final_stage {
                self.cleared = true;
                self.finish(events);
                return;
            }
        }
        if self
            .deal_limit
            .is_some_and(|limit| self.deals_played >= limit)
        {
            // R13: the game ends as a loss; `stage` stays the stage of the last deal played.
            self.finish(events);
            return;
        }
        if cleared {
            self.stage += 1;
        }
        self.dealer = (self.dealer + 1) % self.table.players;
        self.deal(events);
    }

    fn finish(&mut self, events: &mut Vec<Event>) {
        self.phase = Phase::Over;
        events.push(Event::GameOver {
            cleared: self.cleared,
            deals: self.deals_played,
            stages_cleared: self.stages_cleared,
        });
    }

    /// The crew's score x = stages cleared / stages to clear (§5).
    pub fn score(&self) -> f64 {
        super::scoring::score(
            self.stages_cleared,
            self.final_stage,
            self.table.options.start_stage,
        )
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
            Phase::Declare => out.extend(
                Strength::ALL
                    .iter()
                    .map(|&strength| Action::Declare { strength }),
            ),
            Phase::Bid => out.extend((0..=self.chips_left()).map(|tricks| Action::Bid { tricks })),
            Phase::Play => {
                let Some(&hand) = self.hands.get(seat) else {
                    return;
                };
                if self.trick.is_empty() {
                    out.extend(hand.iter().filter(|c| !c.is_joker()).map(Action::play));
                    if hand.contains(Card::JOKER) {
                        out.push(Action::joker_lead(None));
                        out.extend(Suit::ALL.iter().map(|&s| Action::joker_lead(Some(s))));
                    }
                } else {
                    out.extend(playable(hand, self.led).iter().map(Action::play));
                }
            }
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
            (Phase::Declare, Action::Declare { strength }) => {
                self.strength = Some(*strength);
                events.push(Event::Declare {
                    seat,
                    strength: *strength,
                });
                self.phase = Phase::Bid;
                self.to_play = (self.dealer + 1) % self.table.players;
                Ok(())
            }
            (Phase::Bid, Action::Bid { tricks }) => self.bid(seat, *tricks, events),
            (Phase::Play, Action::Play { cards, suit }) => self.play(seat, cards, *suit, events),
            (Phase::Declare, _) => Err(ActionError::illegal(
                "must_declare",
                "The dealer must first announce his hand as strong, medium or weak ({\"type\":\"declare\",\"strength\":\"weak\"}).",
            )),
            (Phase::Bid, _) => Err(ActionError::illegal(
                "must_bid",
                format!(
                    "It is time to bid: take 0 to {} of the chips left ({{\"type\":\"bid\",\"tricks\":n}}).",
                    self.chips_left()
                ),
            )),
            (Phase::Play, _) => Err(ActionError::illegal(
                "must_play",
                "Bidding is over: play a card ({\"type\":\"play\",\"cards\":[...]}).",
            )),
            (Phase::Over, _) => Err(ActionError::GameOver),
        }
    }

    /// A listed play skips the checks its listing made (one held card, legal to lead or follow,
    /// a suit named exactly for a joker lead); every other listed action goes through `apply`.
    fn apply_listed(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        match (self.phase, action) {
            (Phase::Play, Action::Play { cards, suit }) if cards.len() == 1 => {
                debug_assert!(
                    seat == self.to_play && self.check_play(seat, cards, *suit).is_ok(),
                    "{action:?} of seat {seat} is listed"
                );
                self.lay(seat, cards[0], *suit, events);
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
        let seats: Vec<Seat> = (0..self.table.players).collect();
        let score = self.score();
        Some(GameResult {
            ranking: vec![seats.clone()],
            scores: vec![score; self.table.players],
            teams: Some(vec![seats]),
            details: serde_json::json!({
                "cooperative": true,
                "cleared": self.cleared,
                "deals": self.deals_played,
                "failures": self.deals_played - u64::from(self.stages_cleared),
                "stages_cleared": self.stages_cleared,
                "stage_reached": self.stage,
                "final_stage": self.final_stage,
                "start_stage": self.table.options.start_stage,
                "max_deals": self.deal_limit,
                "score": score,
            }),
        })
    }

    /// Checks a state from outside (see `GameDef::validate`).
    fn validate(&self) -> Result<(), String> {
        let n = self.table.players;
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&n) {
            return Err(format!("{n} players is outside 2..=17"));
        }
        self.table.options.check(n)?;
        let final_stage = self.table.options.final_stage(n);
        if self.final_stage as usize != final_stage {
            return Err(format!(
                "final_stage {} does not match the options ({final_stage})",
                self.final_stage
            ));
        }
        if self.deal_limit != self.table.options.deal_limit(final_stage) {
            return Err("deal_limit does not match the option max_deals".into());
        }
        if self.hands.len() != n || self.bids.len() != n || self.won.len() != n {
            return Err("hands, bids and tricks won need one entry per seat".into());
        }
        if self.dealer >= n || self.to_play >= n {
            return Err("dealer or seat to play out of range".into());
        }
        if !(self.table.options.start_stage..=self.final_stage).contains(&self.stage) {
            return Err(format!("stage {} out of range", self.stage));
        }
        // Conservation: every card of the pack exactly once.
        let mut seen = CardSet::EMPTY;
        let pieces = self.cards();
        for card in &pieces {
            if !seen.insert(*card) {
                return Err(format!("{card} appears twice"));
            }
        }
        if pieces.len() != PACK_SIZE {
            return Err(format!("{} cards instead of {PACK_SIZE}", pieces.len()));
        }
        if self.last_deal.is_some() != (self.deals_played > 0)
            || u64::from(self.stages_cleared) > self.deals_played
        {
            return Err("deal history does not match the deal count".into());
        }
        let stage = self.stage as usize;
        let dealt = n * stage;
        if self.undealt.len() != PACK_SIZE - dealt - 1 {
            return Err("wrong number of undealt cards for the stage".into());
        }
        let bid_sum: u32 = self.bids.iter().flatten().sum();
        if bid_sum > self.stage {
            return Err("bids exceed the stage".into());
        }
        let tricks_done = self.tricks.len();
        let won_sum: u32 = self.won.iter().sum();
        if won_sum as usize != tricks_done || tricks_done > stage {
            return Err("tricks won do not match the tricks played".into());
        }
        for trick in &self.tricks {
            if trick.plays.len() != n
                || trick.winner >= n
                || trick.plays.iter().any(|p| p.seat >= n)
            {
                return Err("a completed trick is malformed".into());
            }
        }
        let in_trick = |seat: Seat| self.trick.iter().any(|p| p.seat == seat);
        for (seat, hand) in self.hands.iter().enumerate() {
            let expected = stage - tricks_done - usize::from(in_trick(seat));
            if hand.len() != expected {
                return Err(format!(
                    "seat {seat} holds {} cards, not {expected}",
                    hand.len()
                ));
            }
        }
        let fresh = self.strength.is_none()
            && self.bids.iter().all(Option::is_none)
            && self.trick.is_empty()
            && tricks_done == 0;
        match self.phase {
            Phase::Declare => {
                if !fresh || self.to_play != self.dealer {
                    return Err("declare phase data incoherent".into());
                }
            }
            Phase::Bid => {
                if self.strength.is_none()
                    || !self.trick.is_empty()
                    || tricks_done != 0
                    || self.to_play == self.dealer
                {
                    return Err("bid phase data incoherent".into());
                }
                // Seats dealer+1 .. to_play-1 have bid, the others not.
                let mut seat = (self.dealer + 1) % n;
                while seat != self.to_play {
                    if self.bids[seat].is_none() {
                        return Err(format!("seat {seat} should have bid"));
                    }
                    seat = (seat + 1) % n;
                }
                while seat != (self.dealer + 1) % n {
                    if self.bids[seat].is_some() {
                        return Err(format!("seat {seat} should not have bid yet"));
                    }
                    seat = (seat + 1) % n;
                }
            }
            Phase::Play | Phase::Over => {
                if self.strength.is_none()
                    || self.bids.iter().any(Option::is_none)
                    || bid_sum != self.stage
                {
                    return Err("bids must be complete and add up to the stage".into());
                }
                if self.phase == Phase::Over {
                    if tricks_done != stage || !self.trick.is_empty() {
                        return Err("a finished game has a finished deal".into());
                    }
                    if self.cleared
                        != (self.last_deal.as_ref().is_some_and(|d| d.cleared)
                            && self.stage == self.final_stage)
                    {
                        return Err("cleared flag incoherent".into());
                    }
                    return Ok(());
                }
                if tricks_done >= stage || self.trick.len() >= n {
                    return Err("play phase data incoherent".into());
                }
                let leader = match (self.trick.first(), self.tricks.last()) {
                    (Some(first), _) => first.seat,
                    (None, Some(last)) => last.winner,
                    (None, None) => (self.dealer + 1) % n,
                };
                for (i, play) in self.trick.iter().enumerate() {
                    if play.seat != (leader + i) % n {
                        return Err("trick plays out of order".into());
                    }
                }
                if self.to_play != (leader + self.trick.len()) % n {
                    return Err("wrong seat to play".into());
                }
                match self.trick.first() {
                    None if self.led.is_some() => return Err("a led suit without a lead".into()),
                    Some(first) if !first.card.is_joker() && self.led != first.card.suit() => {
                        return Err("led suit does not match the lead".into());
                    }
                    _ => {}
                }
            }
        }
        if self
            .deal_limit
            .is_some_and(|limit| self.deals_played >= limit)
        {
            return Err("the deal limit is reached but the game is not over".into());
        }
        if self.cleared {
            return Err("cleared before the game is over".into());
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
        cards.extend(self.trick.iter().map(|p| p.card));
        cards.extend(
            self.tricks
                .iter()
                .flat_map(|t| t.plays.iter().map(|p| p.card)),
        );
        cards.push(self.indicator);
        cards.extend(self.undealt.iter());
        cards
    }
}
