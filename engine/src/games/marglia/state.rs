//! The state of a game of Marglia or Maniglia: dealing and the turn-up, early stop, auction,
//! communication, trick play with the trumping obligations, and scoring.

use super::action::{Action, Answer, Declaration, Event, Question};
use super::rules::{Communication, GameLength, Options, Variant};
use super::scoring::{self, RANKS};
use super::view::{self, View};
use crate::cards::{Card, CardSet, PackSpec, Rank, Suit};
use crate::common::trick::{TrickPlays, winner_by_strength};
use crate::deal::{deal_sequence, parse_card_deals};
use crate::error::{ActionError, SetupError};
use crate::game::{Actors, GameResult, GameState, Table, Viewer};
use crate::game::{Seat, Setup};
use crate::rng::GameRng;
use serde::{Deserialize, Serialize};
use smallvec::smallvec;

/// The phase of the current deal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// Marglia phase B: the dealer may stop the deal.
    EarlyStop,
    /// Maniglia auction.
    Bidding {
        /// Whose turn it is.
        turn: Seat,
        /// The highest bid so far.
        high: Option<(Seat, i64)>,
        /// Who has passed.
        passed: Vec<bool>,
    },
    /// Maniglia: the bidder names trumps.
    Declare {
        /// The bidder.
        bidder: Seat,
    },
    /// Phase B2: `asked` players (from dealer+1) have asked or passed.
    Communication {
        /// How many players are done.
        asked: usize,
    },
    /// Trick play.
    Play,
    /// The game is over.
    Over,
}

/// A completed trick.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Trick {
    /// Plays in order, the lead first.
    pub plays: TrickPlays,
    /// The winner.
    pub winner: Seat,
}

/// A call of the Maniglia auction (`points: None` = pass).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Call {
    /// Who called.
    pub seat: Seat,
    /// The bid, or none for a pass.
    pub points: Option<i64>,
}

/// The winning bid of a Maniglia deal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Contract {
    /// The bidder.
    pub seat: Seat,
    /// The bid.
    pub points: i64,
}

/// The public scoring of the previous deal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct DealReport {
    /// Raw totals (card points + trick bonus) per side; zeros for a stopped or thrown-in deal.
    pub raw: Vec<i64>,
    /// Deal scores per side.
    pub scores: Vec<i64>,
    /// True if the deal was stopped (Marglia) or thrown in (Maniglia) without play.
    pub unplayed: bool,
}

/// The full state.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct State {
    /// The shared header: players, options, the RNG and its seed.
    pub table: Table<Options>,
    /// Stacked deals.
    #[serde(rename = "deals")]
    pub stacked: Vec<Vec<Card>>,
    /// Deals dealt so far (the current deal's number, 1-based).
    pub deal_number: usize,
    /// The dealer.
    pub dealer: Seat,
    /// The phase.
    pub phase: Phase,
    /// Each seat's cards.
    pub hands: Vec<CardSet>,
    /// The turned card of this deal (Marglia: the trump card), public.
    pub turned: Option<Card>,
    /// The trump suit, once known.
    pub trump: Option<Suit>,
    /// Maniglia: the auction of this deal.
    pub auction: Vec<Call>,
    /// Maniglia: the contract.
    pub contract: Option<Contract>,
    /// Communication answers of this deal.
    pub answers: Vec<Answer>,
    /// The trick in progress.
    pub trick: Vec<(Seat, Card)>,
    /// Its leader.
    pub leader: Seat,
    /// Completed tricks of this deal.
    pub tricks: Vec<Trick>,
    /// Cumulative scores per side (teams {0,2},{1,3} in partnerships, else per seat).
    pub cumulative: Vec<i64>,
    /// The scoring of the previous deal.
    pub last_deal: Option<DealReport>,
}

/// The pack of a game: 40 cards, minus the removed 2 in 3-player Maniglia.
pub fn pack(options: &Options, players: usize) -> Vec<Card> {
    let mut cards = PackSpec::with_ranks(&RANKS).cards();
    if let Some(removed) = removed_card(options, players) {
        cards.retain(|c| *c != removed);
    }
    cards
}

/// The card removed from the pack (3-player Maniglia, R13).
pub fn removed_card(options: &Options, players: usize) -> Option<Card> {
    (options.variant == Variant::Maniglia && players == 3).then_some(options.maniglia_removed_two)
}

/// True if the game is played in two fixed partnerships.
pub fn partnership(options: &Options, players: usize) -> bool {
    players == 4 && (options.variant == Variant::Marglia || options.maniglia_partnership)
}

impl State {
    /// Sets up a game and deals the first deal.
    pub fn new(setup: &Setup<Options>, events: &mut Vec<Event>) -> Result<State, SetupError> {
        let n = setup.players;
        let options = &setup.options;
        check_options(options, n).map_err(SetupError::InvalidOptions)?;
        let deals = parse_card_deals(&setup.deals, &PackSpec::with_ranks(&RANKS))?;
        if let Some(removed) = removed_card(options, n)
            && let Some(d) = deals.iter().position(|e| e.contains(&removed))
        {
            return Err(SetupError::InvalidDeals(format!(
                "deal {d}: {removed} is removed from the pack with 3 players"
            )));
        }
        let mut rng = GameRng::new(setup.seed);
        let dealer = options.first_dealer.pick(&mut rng, n);
        let sides = if partnership(options, n) { 2 } else { n };
        let mut state = State {
            table: Table {
                players: n,
                options: options.clone(),
                rng,
            },
            stacked: deals,
            deal_number: 0,
            dealer,
            phase: Phase::Play,
            hands: vec![CardSet::EMPTY; n],
            turned: None,
            trump: None,
            auction: Vec::new(),
            contract: None,
            answers: Vec::new(),
            trick: Vec::new(),
            leader: 0,
            tricks: Vec::new(),
            cumulative: vec![0; sides],
            last_deal: None,
        };
        state.start_deal(events);
        Ok(state)
    }

    /// The side of a seat for scores: its team in partnerships, else itself.
    pub fn side(&self, seat: Seat) -> usize {
        if partnership(&self.table.options, self.table.players) {
            seat % 2
        } else {
            seat
        }
    }

    /// True if `a` and `b` are partners now: teammates, or co-defenders against a Maniglia bidder.
    pub fn partners(&self, a: Seat, b: Seat) -> bool {
        if a == b {
            return false;
        }
        if partnership(&self.table.options, self.table.players) {
            return a % 2 == b % 2;
        }
        self.contract.is_some_and(|c| a != c.seat && b != c.seat)
    }

    /// Deals the next deal with the current dealer (turn-up, bonus, early-stop check or auction).
    pub fn start_deal(&mut self, events: &mut Vec<Event>) {
        let n = self.table.players;
        let entry = self.stacked.get(self.deal_number).map(Vec::as_slice);
        let sequence = deal_sequence(&pack(&self.table.options, n), entry, &mut self.table.rng);
        self.deal_number += 1;
        self.hands.clear();
        self.hands.resize(n, CardSet::EMPTY);
        self.turned = None;
        self.trump = None;
        self.auction.clear();
        self.contract = None;
        self.answers.clear();
        self.trick.clear();
        self.tricks.clear();
        self.leader = (self.dealer + 1) % n;
        events.push(Event::Deal {
            deal: self.deal_number,
            dealer: self.dealer,
        });
        match self.table.options.variant {
            Variant::Marglia => {
                // §2, R16: entry[0] is the bottom card; deck[j] = entry[1 + j] goes out in
                // blocks of five from dealer+1, the dealer's second block having four.
                let Some((&trump_card, deck)) = sequence.split_first() else {
                    return;
                };
                for (j, card) in deck.iter().enumerate() {
                    self.hands[(self.dealer + 1 + j / 5) % n].insert(*card);
                }
                self.hands[self.dealer].insert(trump_card);
                self.turned = Some(trump_card);
                self.trump = trump_card.suit();
                events.push(Event::TurnUp {
                    card: trump_card,
                    trump: self.trump,
                });
                if self.table.options.turnup_bonus {
                    self.credit_turnup(events);
                }
                // R4: the dealer may stop when his team's cumulative reaches early_stop_at.
                let side = self.side(self.dealer);
                let eligible = self
                    .table
                    .options
                    .early_stop_at
                    .is_some_and(|at| self.cumulative.get(side).is_some_and(|c| *c >= at));
                if eligible {
                    self.phase = Phase::EarlyStop;
                } else {
                    self.begin_communication_or_play();
                }
            }
            Variant::Maniglia => {
                for (i, card) in sequence.iter().enumerate() {
                    self.hands[(self.dealer + 1 + i) % n].insert(*card);
                }
                self.turned = sequence.last().copied();
                if let Some(card) = self.turned {
                    events.push(Event::TurnUp { card, trump: None });
                }
                self.phase = Phase::Bidding {
                    turn: (self.dealer + 1) % n,
                    high: None,
                    passed: vec![false; n],
                };
            }
        }
    }

    fn credit_turnup(&mut self, events: &mut Vec<Event>) {
        let points = self.turned.map_or(0, scoring::points);
        if points > 0 {
            let side = self.side(self.dealer);
            if let Some(score) = self.cumulative.get_mut(side) {
                *score = score.saturating_add(points);
            }
            events.push(Event::TurnupBonus {
                seat: self.dealer,
                points,
            });
        }
    }

    fn begin_communication_or_play(&mut self) {
        self.phase = if self.table.options.communication == Communication::Structured {
            Phase::Communication { asked: 0 }
        } else {
            Phase::Play
        };
    }

    /// The seat to act, if any.
    pub fn current(&self) -> Option<Seat> {
        let n = self.table.players;
        match &self.phase {
            Phase::EarlyStop => Some(self.dealer),
            Phase::Bidding { turn, .. } => Some(*turn),
            Phase::Declare { bidder } => Some(*bidder),
            Phase::Communication { asked } => Some((self.dealer + 1 + asked) % n),
            Phase::Play => Some((self.leader + self.trick.len()) % n),
            Phase::Over => None,
        }
    }

    /// The index (into the trick) of the card winning it so far (§4).
    pub fn winning_index(trick: &[(Seat, Card)], trump: Option<Suit>) -> Option<usize> {
        let led = trick.first()?.1.suit();
        Some(winner_by_strength(trick, |_, card| {
            let suit = card.suit();
            if suit.is_some() && suit == trump {
                Some((2, scoring::strength(card)))
            } else if suit == led {
                Some((1, scoring::strength(card)))
            } else {
                None
            }
        }))
    }

    /// The cards `seat` may play now (§3 phase C: follow suit, else the trumping obligation with
    /// the seed's three exceptions).
    pub fn playable(&self, seat: Seat) -> CardSet {
        if self.phase != Phase::Play || self.current() != Some(seat) {
            return CardSet::EMPTY;
        }
        let hand = self.hands.get(seat).copied().unwrap_or_default();
        legal_cards(
            hand,
            &self.trick,
            self.trump,
            self.table.options.must_overtrump,
            |winner| self.partners(seat, winner),
        )
    }

    fn lowest_bid(&self, high: Option<(Seat, i64)>) -> i64 {
        let min = self.table.options.maniglia_min_bid;
        high.map_or(min, |(_, h)| min.max(h.saturating_add(1)))
    }

    fn expecting(&self) -> &'static str {
        match self.phase {
            Phase::EarlyStop => {
                "the dealer decides whether to stop the deal (declare stop, or pass)"
            }
            Phase::Bidding { .. } => "the auction is on (bid or pass)",
            Phase::Declare { .. } => "the bidder names trumps (declare a suit)",
            Phase::Communication { .. } => "players ask their partner a question or pass",
            Phase::Play => "cards are being played",
            Phase::Over => "the game is over",
        }
    }

    fn advance_auction(
        &mut self,
        seat: Seat,
        high: Option<(Seat, i64)>,
        passed: Vec<bool>,
        events: &mut Vec<Event>,
    ) {
        let n = self.table.players;
        let active = passed.iter().filter(|p| !**p).count();
        match high {
            Some((bidder, points)) if active == 1 => {
                self.contract = Some(Contract {
                    seat: bidder,
                    points,
                });
                self.phase = Phase::Declare { bidder };
            }
            None if active == 0 => {
                events.push(Event::ThrownIn);
                self.finish_unplayed(events);
            }
            _ => {
                let turn = (1..=n)
                    .map(|k| (seat + k) % n)
                    .find(|s| !passed[*s])
                    .unwrap_or(seat);
                self.phase = Phase::Bidding { turn, high, passed };
            }
        }
    }

    fn advance_communication(&mut self, asked: usize) {
        if asked + 1 >= self.table.players {
            self.phase = Phase::Play;
        } else {
            self.phase = Phase::Communication { asked: asked + 1 };
        }
    }

    fn play(
        &mut self,
        seat: Seat,
        cards: &[Card],
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let card = match cards {
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
        let playable = self.playable(seat);
        if !playable.contains(card) {
            let led = self.trick.first().and_then(|(_, c)| c.suit());
            let (reason, message) = if led.is_some_and(|l| !hand.of_suit(l).is_empty()) {
                (
                    "must_follow_suit",
                    format!(
                        "{card} does not follow the led suit {}, and you hold a card of that suit",
                        led.map_or('?', Suit::code)
                    ),
                )
            } else if playable.iter().all(|c| c.suit() == self.trump)
                && self.trick.iter().any(|(_, c)| c.suit() == self.trump)
                && self.table.options.must_overtrump
            {
                (
                    "must_overtrump",
                    format!(
                        "{card} is not allowed: you must play a trump higher than the trumps in the trick ({})",
                        list(playable)
                    ),
                )
            } else {
                (
                    "must_trump",
                    format!(
                        "{card} is not allowed: void in the led suit, with an opponent winning, you must trump ({})",
                        list(playable)
                    ),
                )
            };
            return Err(ActionError::illegal(reason, message));
        }
        self.lay_card(seat, card, events);
        Ok(())
    }

    /// Plays a legal card: the trick, and the deal's end after its last trick.
    fn lay_card(&mut self, seat: Seat, card: Card, events: &mut Vec<Event>) {
        self.hands[seat].remove(card);
        self.trick.push((seat, card));
        events.push(Event::Play {
            seat,
            cards: smallvec![card],
        });
        if self.trick.len() == self.table.players {
            let index = Self::winning_index(&self.trick, self.trump).unwrap_or(0);
            let winner = self.trick.get(index).map_or(self.leader, |(s, _)| *s);
            self.tricks.push(Trick {
                plays: TrickPlays::from_slice(&self.trick),
                winner,
            });
            self.trick.clear();
            events.push(Event::TrickWon { seat: winner });
            self.leader = winner;
            if self.hands.iter().all(|h| h.is_empty()) {
                self.score_deal(events);
            }
        }
    }

    /// Raw deal totals per side (card points + trick bonus of the tricks each side won).
    pub fn raw_totals(&self) -> Vec<i64> {
        let mut raw = vec![0; self.cumulative.len()];
        for trick in &self.tricks {
            let value = scoring::trick_value(
                trick.plays.iter().map(|(_, c)| *c),
                self.table.options.trick_bonus,
            );
            if let Some(r) = raw.get_mut(self.side(trick.winner)) {
                *r += value;
            }
        }
        raw
    }

    fn score_deal(&mut self, events: &mut Vec<Event>) {
        let raw = self.raw_totals();
        let threshold = self.table.options.deal_threshold;
        let scores: Vec<i64> = match (self.table.options.variant, self.contract) {
            (Variant::Maniglia, Some(contract)) => {
                // Part II (proposed): only the bidder's side scores, made or failed.
                let bidder_side = self.side(contract.seat);
                (0..raw.len())
                    .map(|side| {
                        if side == bidder_side {
                            scoring::contract_score(raw[side], contract.points, threshold)
                        } else {
                            0
                        }
                    })
                    .collect()
            }
            _ => raw
                .iter()
                .map(|r| scoring::deal_score(*r, threshold))
                .collect(),
        };
        for (total, add) in self.cumulative.iter_mut().zip(&scores) {
            *total = total.saturating_add(*add);
        }
        events.push(Event::DealScored {
            raw: raw.clone(),
            scores: scores.clone(),
            cumulative: self.cumulative.clone(),
        });
        self.last_deal = Some(DealReport {
            raw,
            scores,
            unplayed: false,
        });
        self.end_of_deal(events);
    }

    fn finish_unplayed(&mut self, events: &mut Vec<Event>) {
        let sides = self.cumulative.len();
        events.push(Event::DealScored {
            raw: vec![0; sides],
            scores: vec![0; sides],
            cumulative: self.cumulative.clone(),
        });
        self.last_deal = Some(DealReport {
            raw: vec![0; sides],
            scores: vec![0; sides],
            unplayed: true,
        });
        self.end_of_deal(events);
    }

    fn end_of_deal(&mut self, events: &mut Vec<Event>) {
        let over = match self.table.options.length(self.table.players) {
            GameLength::Deals(deals) => self.deal_number >= deals as usize,
            GameLength::Target(target) => self.cumulative.iter().any(|c| *c >= target),
        };
        if over {
            self.phase = Phase::Over;
            events.push(Event::GameOver {
                cumulative: self.cumulative.clone(),
            });
        } else {
            self.dealer = (self.dealer + 1) % self.table.players;
            self.start_deal(events);
        }
    }

    /// Every card in the game.
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

/// The legal cards of a hand for a non-leader (spec §3 phase C), or the whole hand for the leader.
pub fn legal_cards(
    hand: CardSet,
    trick: &[(Seat, Card)],
    trump: Option<Suit>,
    must_overtrump: bool,
    partner_of: impl Fn(Seat) -> bool,
) -> CardSet {
    let Some(led) = trick.first().and_then(|(_, c)| c.suit()) else {
        return hand;
    };
    // 1. Follow suit with any card of it.
    let same = hand.of_suit(led);
    if !same.is_empty() {
        return same;
    }
    let Some(trump) = trump else { return hand };
    let trumps = hand.of_suit(trump);
    let winner = State::winning_index(trick, Some(trump))
        .and_then(|i| trick.get(i))
        .map(|(s, _)| *s);
    let top_trump = trick
        .iter()
        .filter(|(_, c)| c.suit() == Some(trump))
        .map(|(_, c)| scoring::strength(*c))
        .max();
    let higher: CardSet = trumps
        .iter()
        .filter(|c| top_trump.is_none_or(|t| scoring::strength(*c) > t))
        .collect();
    // 2a partner winning, 2b no trump, 2c cannot beat the trump in the trick: any card.
    if winner.is_some_and(partner_of)
        || trumps.is_empty()
        || (top_trump.is_some() && higher.is_empty())
    {
        return hand;
    }
    // 3. Must trump, and overtrump a trump in the trick (R5).
    if top_trump.is_some() && must_overtrump {
        higher
    } else {
        trumps
    }
}

fn list(cards: CardSet) -> String {
    cards.iter().map(|c| c.code()).collect::<Vec<_>>().join(" ")
}

fn describe(action: &Action) -> &'static str {
    match action {
        Action::Play { .. } => "playing a card",
        Action::Pass {} => "passing",
        Action::Declare { .. } => "declaring",
        Action::Bid { .. } => "bidding",
        Action::Ask { .. } => "asking a question",
    }
}

/// Checks the options against the player count (setup and validation).
pub fn check_options(options: &Options, players: usize) -> Result<(), String> {
    options.first_dealer.check(players)?;
    if options.maniglia_removed_two.rank() != Some(Rank::Two) {
        return Err("option `maniglia_removed_two` must be a 2".into());
    }
    if options.communication == Communication::Structured && !partnership(options, players) {
        return Err(
            "option `communication` \"structured\" needs 4 players in partnerships (maniglia_partnership true)"
                .into(),
        );
    }
    match options.length(players) {
        GameLength::Deals(0) => Err("option `game_length` needs at least 1 deal".into()),
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
        self.current().map_or(Actors::None, Actors::One)
    }

    /// Legal actions in canonical order.
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        if self.current() != Some(seat) {
            return;
        }
        match &self.phase {
            Phase::EarlyStop => {
                out.push(Action::Declare {
                    what: Some(Declaration::Stop),
                    suit: None,
                });
                out.push(Action::Pass {});
            }
            Phase::Bidding { high, .. } => {
                let lowest = self.lowest_bid(*high);
                out.extend((lowest..=70).map(|points| Action::Bid { points }));
                out.push(Action::Pass {});
            }
            Phase::Declare { .. } => {
                out.extend(Suit::ALL.iter().map(|s| Action::Declare {
                    what: None,
                    suit: Some(*s),
                }));
            }
            Phase::Communication { .. } => {
                for suit in Suit::ALL {
                    out.push(Action::Ask {
                        question: Question::SuitCount,
                        suit: Some(suit),
                        rank: None,
                    });
                }
                for rank in RANKS {
                    out.push(Action::Ask {
                        question: Question::RankCount,
                        suit: None,
                        rank: Some(rank),
                    });
                }
                out.push(Action::Ask {
                    question: Question::HandPoints,
                    suit: None,
                    rank: None,
                });
                out.push(Action::Pass {});
            }
            Phase::Play => out.extend(self.playable(seat).iter().map(|card| Action::Play {
                cards: smallvec![card],
            })),
            Phase::Over => {}
        }
    }

    /// Applies an action, validated completely before any change.
    fn apply(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let phase = self.phase.clone();
        match (&phase, action) {
            (Phase::EarlyStop, Action::Declare { what, suit }) => {
                if *what != Some(Declaration::Stop) || suit.is_some() {
                    return Err(ActionError::illegal(
                        "stop_or_pass",
                        "the dealer may only stop the deal ({\"type\":\"declare\",\"what\":\"stop\"}) or pass",
                    ));
                }
                events.push(Event::Stop { seat });
                self.finish_unplayed(events);
                Ok(())
            }
            (Phase::EarlyStop, Action::Pass {}) => {
                events.push(Event::Pass { seat });
                self.begin_communication_or_play();
                Ok(())
            }
            (Phase::Bidding { high, passed, .. }, Action::Bid { points }) => {
                let lowest = self.lowest_bid(*high);
                if *points < lowest || *points > 70 {
                    return Err(ActionError::illegal(
                        "bid_out_of_range",
                        format!("a bid of {points} is not allowed: bid from {lowest} to 70"),
                    ));
                }
                let mut passed = passed.clone();
                let high = Some((seat, *points));
                self.auction.push(Call {
                    seat,
                    points: Some(*points),
                });
                events.push(Event::Bid {
                    seat,
                    points: *points,
                });
                passed[seat] = false;
                self.advance_auction(seat, high, passed, events);
                Ok(())
            }
            (Phase::Bidding { high, passed, .. }, Action::Pass {}) => {
                let mut passed = passed.clone();
                passed[seat] = true;
                self.auction.push(Call { seat, points: None });
                events.push(Event::Pass { seat });
                self.advance_auction(seat, *high, passed, events);
                Ok(())
            }
            (Phase::Declare { bidder }, Action::Declare { what, suit }) => {
                let (None, Some(suit)) = (what, suit) else {
                    return Err(ActionError::illegal(
                        "name_a_suit",
                        "the bidder names trumps: {\"type\":\"declare\",\"suit\":\"H\"}",
                    ));
                };
                let points = self.contract.map_or(0, |c| c.points);
                self.trump = Some(*suit);
                events.push(Event::Trump {
                    seat: *bidder,
                    suit: *suit,
                    points,
                });
                // R12, R17: the turned-card bonus once there is a bidder, unless blocked.
                let side = self.side(self.dealer);
                let before = self.cumulative.get(side).copied().unwrap_or(0);
                let blocked = self
                    .table
                    .options
                    .turnup_block_at
                    .is_some_and(|at| before >= at);
                if self.table.options.turnup_bonus && !blocked {
                    self.credit_turnup(events);
                }
                self.begin_communication_or_play();
                Ok(())
            }
            (
                Phase::Communication { asked },
                Action::Ask {
                    question,
                    suit,
                    rank,
                },
            ) => {
                let fits = match question {
                    Question::SuitCount => suit.is_some() && rank.is_none(),
                    Question::RankCount => {
                        suit.is_none() && rank.is_some_and(|r| RANKS.contains(&r))
                    }
                    Question::HandPoints => suit.is_none() && rank.is_none(),
                };
                if !fits {
                    return Err(ActionError::illegal(
                        "malformed_question",
                        "ask suit_count with a suit, rank_count with a rank of the pack, or hand_points alone",
                    ));
                }
                let partner = (seat + 2) % self.table.players;
                let hand = self.hands.get(partner).copied().unwrap_or_default();
                let answer = match question {
                    Question::SuitCount => suit.map_or(0, |s| hand.of_suit(s).len()) as u32,
                    Question::RankCount => rank.map_or(0, |r| hand.of_rank(r).len()) as u32,
                    Question::HandPoints => hand.iter().map(scoring::points).sum::<i64>() as u32,
                };
                let answer = Answer {
                    seat,
                    partner,
                    question: *question,
                    suit: *suit,
                    rank: *rank,
                    answer,
                };
                self.answers.push(answer.clone());
                events.push(Event::Answer(answer));
                self.advance_communication(*asked);
                Ok(())
            }
            (Phase::Communication { asked }, Action::Pass {}) => {
                events.push(Event::Pass { seat });
                self.advance_communication(*asked);
                Ok(())
            }
            (Phase::Play, Action::Play { cards }) => self.play(seat, cards, events),
            _ => Err(ActionError::illegal(
                "not_now",
                format!(
                    "{} is not possible now: {}",
                    describe(action),
                    self.expecting()
                ),
            )),
        }
    }

    /// A listed card play skips the second computation of the playable cards (a fifth of a
    /// playout); every other listed action goes through `apply`.
    fn apply_listed(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        match (&self.phase, action) {
            (Phase::Play, Action::Play { cards }) if cards.len() == 1 => {
                let card = cards[0];
                debug_assert!(self.playable(seat).contains(card), "{card} is listed");
                self.lay_card(seat, card, events);
                Ok(())
            }
            _ => self.apply(seat, action, events),
        }
    }

    fn view(&self, viewer: Viewer) -> View {
        view::view(self, viewer)
    }

    fn result(&self) -> Option<GameResult> {
        super::result(self)
    }

    /// Checks a state from outside (see `GameDef::validate`).
    fn validate(&self) -> Result<(), String> {
        let n = self.table.players;
        let (min, max) = match self.table.options.variant {
            Variant::Marglia => (4, 4),
            Variant::Maniglia => (3, 5),
        };
        if !(min..=max).contains(&n) {
            return Err(format!("{n} players is outside {min}..={max}"));
        }
        check_options(&self.table.options, n)?;
        let sides = if partnership(&self.table.options, n) {
            2
        } else {
            n
        };
        if self.hands.len() != n || self.cumulative.len() != sides {
            return Err("hands need one entry per seat and scores one per side".into());
        }
        if self.dealer >= n || self.leader >= n {
            return Err("dealer or leader out of range".into());
        }
        let mut seen = CardSet::EMPTY;
        for card in self.all_cards() {
            if !seen.insert(card) {
                return Err(format!("{card} appears twice"));
            }
        }
        if seen != CardSet::from_cards(pack(&self.table.options, n)) {
            return Err("the cards are not exactly the pack".into());
        }
        let per_hand = pack(&self.table.options, n).len() / n;
        if self.tricks.len() > per_hand || self.trick.len() >= n {
            return Err("too many tricks or plays".into());
        }
        for trick in &self.tricks {
            if trick.plays.len() != n || trick.winner >= n {
                return Err("a completed trick needs one play per seat and a winner".into());
            }
        }
        for (i, (seat, _)) in self.trick.iter().enumerate() {
            if *seat != (self.leader + i) % n {
                return Err("the trick's plays are not in order from the leader".into());
            }
        }
        let played_out = self.hands.iter().all(|h| h.is_empty());
        let untouched = self.tricks.is_empty()
            && self.trick.is_empty()
            && self.hands.iter().all(|h| h.len() == per_hand);
        if self.turned.is_none() {
            return Err("every deal has a turned card".into());
        }
        if let Some(contract) = self.contract
            && (contract.seat >= n || !(0..=70).contains(&contract.points))
        {
            return Err("contract out of range".into());
        }
        if self.auction.iter().any(|c| c.seat >= n) || self.answers.iter().any(|a| a.seat >= n) {
            return Err("a call or answer names a seat out of range".into());
        }
        if let Some(report) = &self.last_deal
            && (report.raw.len() != sides || report.scores.len() != sides)
        {
            return Err("the last deal report needs one entry per side".into());
        }
        match &self.phase {
            Phase::EarlyStop
            | Phase::Communication { .. }
            | Phase::Bidding { .. }
            | Phase::Declare { .. }
                if !untouched =>
            {
                Err("before play every hand must be full".into())
            }
            Phase::EarlyStop
                if self.table.options.variant != Variant::Marglia || self.trump.is_none() =>
            {
                Err("early stop is a Marglia phase after the turn-up".into())
            }
            Phase::Communication { asked } if *asked >= n || self.trump.is_none() => {
                Err("communication index out of range".into())
            }
            Phase::Communication { .. } if !partnership(&self.table.options, n) => {
                Err("communication needs partnerships".into())
            }
            Phase::Bidding { turn, high, passed } => {
                let bad_high = high.is_some_and(|(s, p)| s >= n || !(0..=70).contains(&p));
                let active = passed.iter().filter(|p| !**p).count();
                if self.table.options.variant != Variant::Maniglia
                    || *turn >= n
                    || passed.len() != n
                    || bad_high
                    || passed.get(*turn) != Some(&false)
                    || active == 0
                    || self.trump.is_some()
                {
                    Err("auction data out of range".into())
                } else {
                    Ok(())
                }
            }
            Phase::Declare { bidder } => {
                if self.table.options.variant != Variant::Maniglia
                    || *bidder >= n
                    || self.contract.map(|c| c.seat) != Some(*bidder)
                {
                    Err("declare phase needs the bidder's contract".into())
                } else {
                    Ok(())
                }
            }
            Phase::Play => {
                if self.trump.is_none() {
                    return Err("play needs a trump suit".into());
                }
                if self.table.options.variant == Variant::Maniglia && self.contract.is_none() {
                    return Err("Maniglia play needs a contract".into());
                }
                for (seat, hand) in self.hands.iter().enumerate() {
                    let played = usize::from(self.trick.iter().any(|(s, _)| *s == seat));
                    if hand.len() + self.tricks.len() + played != per_hand {
                        return Err(format!("seat {seat} holds {} cards", hand.len()));
                    }
                }
                if played_out {
                    return Err("a played-out deal must have been scored".into());
                }
                Ok(())
            }
            Phase::Over => {
                if played_out || untouched {
                    Ok(())
                } else {
                    Err("a finished game ends with a played-out or unplayed deal".into())
                }
            }
            _ => Ok(()),
        }
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
