//! The state of a Watten game: deals (§2), naming (§3.1–3.2), raising (§3.4), play (§3.3, §3.5),
//! the Bohemian exchange (§3.7) and scoring (§5).

use super::action::{Action, Cards, Event, Proposal, SIGNAL_CODES, SharedSummary, SignalCode};
use super::rules::{
    BlindReveal, LastTrickRaise, Options, RaiseCap, RaiseTiming, Signals, ThreePlayerDeclarer,
    Variant,
};
use super::scoring::Roles;
use super::view::{self, View};
use crate::cards::{Card, CardList, CardSet, Rank, Suit};
use crate::deal::deal_sequence_into;
use crate::error::ActionError;
use crate::game::Seat;
use crate::game::{Actors, GameResult, GameState, Seats, Table, Viewer, push_in_place};
use crate::options::FirstDealer;
use crate::rng::GameRng;
use serde::{Deserialize, Serialize};
use serde_json::json;
use smallvec::{SmallVec, smallvec};
use std::borrow::Cow;
use std::sync::Arc;

/// The phase of the current deal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Proposals and declarations (§3.1, §3.2).
    Naming,
    /// Bohemian exchange round (§3.7.2).
    Exchange,
    /// Tricks and raising.
    Play,
    /// The game has ended.
    Over,
}

/// One trick: its leader, the cards in play order, the winner once complete.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Trick {
    /// The seat that led.
    pub leader: Seat,
    /// `(seat, card)` in play order.
    // Inline: a trick holds at most six cards, and a heap list per trick showed in profiles.
    pub plays: SmallVec<[(Seat, Card); 6]>,
    /// The winner, once complete.
    pub winner: Option<Seat>,
}

/// A raise awaiting an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PendingRaise {
    /// The raising seat.
    pub seat: Seat,
    /// The proposed value.
    pub to: u32,
    /// The raise may be challenged (§3.4.4).
    pub challengeable: bool,
}

/// One deal in progress (or the last one, once the game is over).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Deal {
    /// The dealer.
    pub dealer: Seat,
    /// Hands.
    pub hands: Vec<CardSet>,
    /// Criticals taken by the cutter at the cut (public).
    pub cut_taken: Vec<Card>,
    /// The non-critical card shown at the cut (public, undealt).
    pub cut_shown: Option<Card>,
    /// Bohemian turn-up card (public, undealt).
    pub turn_up: Option<Card>,
    /// Stock / unused cards, in deal-sequence order (top first).
    pub stock: Vec<Card>,
    /// Cards each seat laid away (new cards, Bohemian exchange); known to the owner only.
    pub discards: Vec<CardSet>,
    /// A pending naming proposal.
    pub proposal: Option<Proposal>,
    /// E may still propose new cards.
    pub new_cards_open: bool,
    /// E may still propose the Schlag swap.
    pub swap_open: bool,
    /// The swap was accepted.
    pub swapped: bool,
    /// The Schlag, once named.
    pub schlag: Option<Rank>,
    /// The trump suit, once named (Bohemian: from the turn-up).
    pub trump: Option<Suit>,
    /// Blind: the cards designated by E and by the dealer.
    pub designated: [Option<Card>; 2],
    /// Completed tricks.
    pub tricks: Vec<Trick>,
    /// The trick in progress.
    pub current: Trick,
    /// Tricks won per side (Bohemian: per seat).
    pub won: Vec<u8>,
    /// Current value of the deal.
    pub stake: u32,
    /// A raise awaiting an answer.
    pub pending: Option<PendingRaise>,
    /// The side holding the raise right (`None` = any).
    pub raise_right: Option<usize>,
    /// A raise has been made in this deal.
    pub raised: bool,
    /// Signals sent so far (public).
    pub signals: Vec<(Seat, String)>,
    /// Signals used per seat.
    pub signals_used: Vec<u8>,
    /// Bohemian exchange: the seat whose turn it is.
    pub ex_seat: Seat,
    /// Bohemian exchange: cards discarded in the current turn.
    pub ex_discarded: u8,
    /// Bohemian exchange log: `(seat, cards exchanged)`.
    pub exchanges: Vec<(Seat, u8)>,
}

/// Public summary of a finished deal.
// Inline lists and a static reason, with the JSON and schema of `Vec` and `String`: a summary is
// built and copied every deal (about 15 actions), and their allocations showed in profiles.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct DealSummary {
    /// Deal number (0-based).
    pub deal: u32,
    /// Dealer.
    pub dealer: Seat,
    /// The seats that scored.
    pub winners: SmallVec<[Seat; 2]>,
    /// Points scored by each winner (Bohemian: per-seat change, in `changes`).
    pub points: i32,
    /// How the deal ended: `tricks`, `fold`, `maschine`, `challenge`.
    pub reason: Cow<'static, str>,
    /// The Schlag.
    pub schlag: Option<Rank>,
    /// The trump suit.
    pub trump: Option<Suit>,
    /// Bohemian: score change per seat.
    #[serde(default, skip_serializing_if = "SmallVec::is_empty")]
    pub changes: SmallVec<[i32; 6]>,
}

/// The full state of a Watten game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The shared header: players, options, the RNG and its seed.
    pub table: Table<Options>,
    /// Stacked deals (hidden).
    pub stacked: Vec<Vec<Card>>,
    /// Scores per seat (partners repeat their side's score).
    pub scores: Vec<i32>,
    /// Deals finished before the one in progress (its 0-based index).
    #[serde(rename = "deal_no")]
    pub deals_played: u32,
    /// Phase.
    pub phase: Phase,
    /// The current deal.
    pub deal: Deal,
    /// The last finished deal (shared with its event).
    #[serde(with = "crate::game::shared::option", default)]
    pub last_deal: Option<Arc<DealSummary>>,
    /// The roles of the current deal once named (derived data, never serialized).
    #[serde(skip)]
    roles_cache: RolesCache,
}

/// The roles of a deal for the Schlag and trump they were computed for. Every legal list and
/// every card play needs them, and computing them was the largest share of Watten's playout time;
/// [`State::roles`] uses them only while the key still matches, so a stale or absent cache (a
/// state just deserialized) costs a recomputation, never a wrong answer.
#[derive(Debug, Clone, Default)]
struct RolesCache(Option<(Option<Rank>, Suit, Roles)>);

impl PartialEq for RolesCache {
    /// Derived data: two states are equal whatever their caches hold.
    fn eq(&self, _: &RolesCache) -> bool {
        true
    }
}

/// Where [`State::list_legal`] puts the legal actions.
trait ActionSink {
    /// Adds the action `make` builds (a list builds it in place, see `push_in_place`).
    fn push_with(&mut self, make: impl FnOnce() -> Action);

    fn push(&mut self, action: Action) {
        self.push_with(|| action);
    }

    /// Adds one action per item, each built by `make`. Inlined: an iterator handed to a call
    /// is copied from the stack just after being built, and that copy stalls.
    #[inline(always)]
    fn push_each<T>(&mut self, items: impl Iterator<Item = T>, make: impl Fn(T) -> Action) {
        for item in items {
            self.push_with(|| make(item));
        }
    }
}

impl ActionSink for Vec<Action> {
    #[inline(always)]
    fn push_with(&mut self, make: impl FnOnce() -> Action) {
        push_in_place(self, make);
    }
}

/// Notes whether one action is legal without building the list: `apply` checks every move that
/// is not a card play this way, and a list per check showed in playout profiles.
struct Contains<'a> {
    action: &'a Action,
    found: bool,
}

impl ActionSink for Contains<'_> {
    fn push_with(&mut self, make: impl FnOnce() -> Action) {
        self.found |= make() == *self.action;
    }
}

/// `seat % n` for `seat < 2 * n` (a seat plus less than a round), without the division: seat
/// arithmetic runs on every move, and divisions showed in wall-time profiles.
fn wrap(seat: Seat, n: usize) -> Seat {
    if seat >= n { seat - n } else { seat }
}

fn list(cards: CardSet) -> String {
    cards.iter().map(|c| c.code()).collect::<Vec<_>>().join(" ")
}

impl State {
    /// A new game: scores, then the first deal.
    pub fn new(
        options: Options,
        players: usize,
        seed: u64,
        stacked: Vec<Vec<Card>>,
        events: &mut Vec<Event>,
    ) -> State {
        let start = if options.variant == Variant::Bohemian {
            options.bohemian_start
        } else {
            0
        };
        let mut rng = GameRng::new(seed);
        // A fixed seat in Watten (no draw), refused at setup when outside the game (R49).
        let dealer = FirstDealer::Seat(options.first_dealer).pick(&mut rng, players);
        let mut state = State {
            stacked,
            scores: vec![start; players],
            deals_played: 0,
            phase: Phase::Naming,
            // Dealt by `start_deal` below.
            deal: Deal::default(),
            last_deal: None,
            table: Table {
                players,
                options,
                rng,
            },
            roles_cache: RolesCache::default(),
        };
        state.start_deal(dealer, events);
        state.refresh_roles_cache();
        state
    }

    // ----- seats and sides -----

    /// The seat after the dealer (Vorhand).
    pub fn eldest(&self) -> Seat {
        wrap(self.deal.dealer + 1, self.table.players)
    }

    /// The cutter: the seat before the dealer (E with 2 players).
    pub fn cutter(&self) -> Seat {
        if self.table.players == 2 {
            self.eldest()
        } else {
            (self.deal.dealer + self.table.players - 1) % self.table.players
        }
    }

    /// The side of a seat in this deal (§2.2): 4p seat%2, 3p solo 0 / pair 1, else the seat.
    pub fn side_of(&self, seat: Seat) -> usize {
        match (self.table.options.variant, self.table.players) {
            (Variant::Bohemian, _) => seat,
            (_, 4) => seat % 2,
            (_, 3) => usize::from(seat != self.eldest()),
            _ => seat,
        }
    }

    /// Seats of a side.
    pub fn side_seats(&self, side: usize) -> impl Iterator<Item = Seat> + '_ {
        (0..self.table.players).filter(move |s| self.side_of(*s) == side)
    }

    fn is_blind(&self) -> bool {
        self.table.options.variant == Variant::Blind
    }

    /// True for the two blind seats of Blind Watten (not E, not the dealer).
    pub fn is_blind_seat(&self, seat: Seat) -> bool {
        self.is_blind() && seat != self.eldest() && seat != self.deal.dealer
    }

    /// The roles of the current deal, once Schlag and trump are known (borrowed from the cache
    /// when it is fresh: this runs for every card play and legal list).
    pub fn roles(&self) -> Option<Cow<'_, Roles>> {
        let (s, t) = self.roles_key()?;
        if let Some((cs, ct, roles)) = &self.roles_cache.0
            && (*cs, *ct) == (s, t)
        {
            return Some(Cow::Borrowed(roles));
        }
        Some(Cow::Owned(Roles::new(&self.table.options, s, t)))
    }

    /// `f` of the current deal's roles, once Schlag and trump are known: the cached roles when
    /// fresh (every move), else computed. No `Cow` handed out: moving one showed in profiles.
    #[inline]
    fn with_roles<R>(&self, f: impl FnOnce(&Roles) -> R) -> Option<R> {
        let (s, t) = self.roles_key()?;
        if let Some((cs, ct, roles)) = &self.roles_cache.0
            && (*cs, *ct) == (s, t)
        {
            return Some(f(roles));
        }
        Some(f(&Roles::new(&self.table.options, s, t)))
    }

    /// The Schlag (none in Bohemian Watten) and trump the roles depend on, once named.
    fn roles_key(&self) -> Option<(Option<Rank>, Suit)> {
        let t = self.deal.trump?;
        if self.table.options.variant == Variant::Bohemian {
            return Some((None, t));
        }
        Some((Some(self.deal.schlag?), t))
    }

    /// Keeps [`RolesCache`] in step after a move.
    fn refresh_roles_cache(&mut self) {
        let fresh = match (self.roles_key(), &self.roles_cache.0) {
            (None, _) => None,
            (Some(key), Some((cs, ct, _))) if key == (*cs, *ct) => return,
            (Some((s, t)), _) => Some((s, t, Roles::new(&self.table.options, s, t))),
        };
        self.roles_cache = RolesCache(fresh);
    }

    /// The seat whose card is next (E before the first lead).
    pub fn seat_to_play(&self) -> Seat {
        // The leader is a seat and a trick in progress holds fewer plays than seats.
        wrap(
            self.deal.current.leader + self.deal.current.plays.len(),
            self.table.players,
        )
    }

    // ----- dealing -----

    fn start_deal(&mut self, dealer: Seat, events: &mut Vec<Event>) {
        let n = self.table.players;
        let entry = self
            .stacked
            .get(self.deals_played as usize)
            .map(Vec::as_slice);
        // The deal sequence is written in the last stock's memory (it becomes the stock).
        let mut seq = std::mem::take(&mut self.deal.stock);
        deal_sequence_into(
            self.table.options.pack_cards(),
            entry,
            &mut self.table.rng,
            &mut seq,
        );
        self.deal.reset(dealer, n);
        self.phase = Phase::Naming;
        events.push(Event::Deal {
            deal: self.deals_played,
            dealer,
        });
        let eldest = self.eldest();
        let cutter = self.cutter();
        let crit = self.table.options.criticals();
        let variant = self.table.options.variant;
        let mut pos = 0;
        // §2.4 step 2 / §2.6 step 2.
        if variant.bavarian_family() && self.table.options.cut_criticals {
            while self.deal.cut_taken.len() < crit.len() {
                let Some(&c) = seq.get(pos) else { break };
                pos += 1;
                if crit.contains(&c) {
                    self.deal.cut_taken.push(c);
                } else {
                    self.deal.cut_shown = Some(c);
                    break;
                }
            }
            events.push(Event::Cut {
                seat: cutter,
                // At most the criticals (four cards).
                taken: Cards::of(&self.deal.cut_taken).unwrap_or_default(),
                shown: self.deal.cut_shown,
            });
        } else if variant == Variant::Bohemian {
            let b = seq[0];
            pos = 1;
            let trump = if crit.contains(&b) {
                Suit::Hearts // R44
            } else {
                b.suit().unwrap_or(Suit::Hearts)
            };
            self.deal.turn_up = Some(b);
            self.deal.trump = Some(trump);
            events.push(Event::TurnUp { card: b, trump });
        }
        let c = self.deal.cut_taken.len();
        for &card in &self.deal.cut_taken {
            self.deal.hands[cutter].insert(card);
        }
        // §2.7: two rounds from E, the cutter's packets reduced by the criticals it took.
        let first = 3usize.saturating_sub(c);
        for round in 0..2 {
            for i in 0..n {
                let seat = wrap(eldest + i, n);
                let size = match (round, seat == cutter && c > 0) {
                    (0, false) => 3,
                    (1, false) => 2,
                    (0, true) => first,
                    _ => 5 - c.min(5) - first,
                };
                let packet = seq.get(pos..(pos + size).min(seq.len())).unwrap_or(&[]);
                let hand = &mut self.deal.hands[seat];
                hand.0 |= CardSet::from_cards(packet.iter().copied()).0;
                pos += size;
            }
        }
        // The rest of the sequence is the stock: kept rather than copied.
        seq.drain(..pos.min(seq.len()));
        self.deal.stock = seq;
        self.deal.new_cards_open = self.table.options.new_cards && variant != Variant::Bohemian;
        self.deal.swap_open = self.table.options.schlag_swap
            && n != 3
            && !matches!(variant, Variant::Blind | Variant::Bohemian);
        if variant == Variant::Bohemian {
            self.phase = Phase::Exchange;
            self.deal.ex_seat = eldest;
            if self.deal.stock.is_empty() {
                self.phase = Phase::Play;
            }
            return;
        }
        self.maschine_check(events);
    }

    /// §3.1.1: a seat holding every critical ends the deal at once.
    fn maschine_check(&mut self, events: &mut Vec<Event>) {
        if !self.table.options.maschine || self.table.options.variant == Variant::Bohemian {
            return;
        }
        let crit = self.table.options.criticals();
        if crit.is_empty() {
            return;
        }
        let all = CardSet::from_cards(crit.iter().copied());
        let holder = (0..self.table.players).find(|s| self.deal.hands[*s].0 & all.0 == all.0);
        if let Some(seat) = holder {
            events.push(Event::Maschine {
                seat,
                cards: CardList::from_slice(crit),
            });
            let side = self.side_of(seat);
            self.finish_deal(side, self.table.options.maschine_points, "maschine", events);
        }
    }

    fn finish_deal(
        &mut self,
        side: usize,
        points: i32,
        reason: &'static str,
        events: &mut Vec<Event>,
    ) {
        let winners: SmallVec<[Seat; 2]> = self.side_seats(side).collect();
        for &s in &winners {
            self.scores[s] += points;
        }
        self.end_deal(winners, points, reason, SmallVec::new(), events);
    }

    fn end_deal(
        &mut self,
        winners: SmallVec<[Seat; 2]>,
        points: i32,
        reason: &'static str,
        changes: SmallVec<[i32; 6]>,
        events: &mut Vec<Event>,
    ) {
        let summary = DealSummary {
            deal: self.deals_played,
            dealer: self.deal.dealer,
            winners,
            points,
            reason: Cow::Borrowed(reason),
            schlag: self.deal.schlag,
            trump: self.deal.trump,
            changes,
        };
        let designated = self.deal.designated.iter().flatten().copied().collect();
        let summary = Arc::new(summary);
        events.push(Event::DealEnd {
            summary: SharedSummary(Arc::clone(&summary)),
            designated,
        });
        self.last_deal = Some(summary);
        self.deal.pending = None;
        self.deal.proposal = None;
        let over = if self.table.options.variant == Variant::Bohemian {
            self.scores.iter().any(|s| *s <= 0)
                || self.deals_played + 1 >= self.table.options.max_deals
        } else {
            self.scores.iter().any(|s| *s >= self.table.options.target)
        };
        if over {
            self.phase = Phase::Over;
            events.push(Event::GameOver {
                scores: self.scores.clone(),
            });
        } else {
            self.deals_played += 1;
            let dealer = (self.deal.dealer + 1) % self.table.players;
            self.start_deal(dealer, events);
        }
    }

    // ----- who acts -----

    /// The seat acting in the naming phase.
    pub fn naming_actor(&self) -> Seat {
        let d = &self.deal;
        let e = self.eldest();
        if d.proposal.is_some() {
            return d.dealer;
        }
        if self.is_blind() {
            return if d.designated[0].is_none() {
                e
            } else {
                d.dealer
            };
        }
        if !d.swapped {
            if d.schlag.is_none()
                || (self.table.players == 3
                    && self.table.options.three_player_declarer == ThreePlayerDeclarer::EldestBoth)
            {
                e
            } else {
                d.dealer
            }
        } else if d.trump.is_none() {
            e
        } else {
            d.dealer
        }
    }

    /// The seats answering a raise by `raiser` (§3.4.2, R63).
    pub fn responders(&self, raiser: Seat) -> Seats {
        let n = self.table.players;
        let side = self.side_of(raiser);
        let mut out = Seats::new();
        for k in 1..n {
            let s = (raiser + k) % n;
            if self.side_of(s) != side {
                out.push(s);
                if self.table.options.raise_timing == RaiseTiming::OnTurn {
                    break;
                }
            }
        }
        out
    }

    fn may_raise_to(&self, seat: Seat, v: u32) -> bool {
        let target = self.table.options.target;
        let score = self.scores[seat];
        let v = v as i32;
        match self.table.options.raise_cap {
            RaiseCap::Needed => v <= target - score,
            RaiseCap::Target => score < target - 2 && v <= target,
        }
    }

    /// The 2:2 window of the last-trick rule (§3.4.4).
    pub fn in_last_trick_window(&self) -> bool {
        let d = &self.deal;
        !d.raised
            && d.pending.is_none()
            && d.tricks.len() == 4
            && d.won.iter().take(2).all(|w| *w == 2)
            && !d.current.plays.is_empty()
    }

    /// The seat's last card (held or played to trick 5).
    fn last_card(&self, seat: Seat) -> Option<Card> {
        let d = &self.deal;
        d.current
            .plays
            .iter()
            .find(|(s, _)| *s == seat)
            .map(|(_, c)| *c)
            .or_else(|| d.hands.get(seat).and_then(|h| h.iter().next()))
    }

    /// Whether the seat's last card qualifies (§3.4.4, R62).
    pub fn last_card_qualifies(&self, seat: Seat) -> bool {
        let d = &self.deal;
        if d.current.leader == seat {
            return true;
        }
        let (Some(roles), Some(last), Some(&(_, led))) =
            (self.roles(), self.last_card(seat), d.current.plays.first())
        else {
            return true;
        };
        if !roles.is_plain(last) {
            return true;
        }
        roles.is_plain(led)
            && roles.plain_suit(led).is_some()
            && roles.plain_suit(led) == roles.plain_suit(last)
    }

    /// Whether `seat` may open a raise now, value aside (§3.4).
    fn raise_open(&self, seat: Seat) -> bool {
        let d = &self.deal;
        if self.phase != Phase::Play
            || self.table.options.variant == Variant::Bohemian
            || d.pending.is_some()
        {
            return false;
        }
        if d.raise_right.is_some_and(|r| r != self.side_of(seat)) {
            return false;
        }
        if self.table.options.raise_timing == RaiseTiming::OnTurn && seat != self.seat_to_play() {
            return false;
        }
        !(self.table.options.last_trick_raise == LastTrickRaise::Restricted
            && self.table.options.variant.tyrolean_family()
            && self.in_last_trick_window()
            && !self.is_blind_seat(seat)
            && !self.last_card_qualifies(seat))
    }

    /// Whether [`State::raise_options`] lists anything, without listing: `to_act` asks it of
    /// every other seat at every card. The jump to four needs the one-step raise allowed too (a
    /// seat may raise to a value only up to a bound), so the one-step raise decides.
    fn can_raise(&self, seat: Seat) -> bool {
        self.raise_open(seat) && self.may_raise_to(seat, self.deal.stake + 1)
    }

    /// The raises `seat` may open now (no raise pending), in increasing order.
    pub fn raise_options(&self, seat: Seat) -> SmallVec<[u32; 2]> {
        let d = &self.deal;
        if !self.raise_open(seat) {
            return SmallVec::new();
        }
        let side = self.side_of(seat);
        let mut out = SmallVec::new();
        if self.may_raise_to(seat, d.stake + 1) {
            out.push(d.stake + 1);
        }
        // §3.4.5 jump to four.
        if self.table.options.jump_to_four
            && self.table.players != 3
            && !d.raised
            && d.stake == 2
            && d.raise_right.is_none()
            && d.tricks.is_empty()
            && d.current.plays.is_empty()
            && self.may_raise_to(seat, 4)
        {
            let own = self.scores[seat];
            let opp = (0..self.table.players)
                .filter(|s| self.side_of(*s) != side)
                .map(|s| self.scores[s])
                .max()
                .unwrap_or(0);
            if own + 4 <= opp {
                out.push(4);
            }
        }
        out
    }

    fn can_signal(&self, seat: Seat) -> bool {
        let d = &self.deal;
        self.table.options.signals == Signals::Public
            && self.table.players == 4
            && self.table.options.variant != Variant::Bohemian
            && self.phase == Phase::Play
            && d.pending.is_none()
            && !self.partner_view_in_force()
            && d.signals_used.get(seat).is_some_and(|u| *u < 5)
            && (self.table.options.raise_timing == RaiseTiming::AnyTime
                || seat == self.seat_to_play())
    }

    /// R31: Tyrolean 4p, Schlag 6, partners see each other's hands during play.
    pub fn partner_view_in_force(&self) -> bool {
        self.table.options.variant == Variant::Tyrolean
            && self.table.players == 4
            && self.table.options.six_schlag_partner_view
            && self.deal.schlag == Some(Rank::Six)
            && self.phase == Phase::Play
    }

    /// The cards `seat` may play now (it must be the seat to play).
    pub fn legal_cards(&self, seat: Seat) -> CardSet {
        let d = &self.deal;
        let hand = d.hands.get(seat).copied().unwrap_or(CardSet::EMPTY);
        // What `legal_follow` answers without the roles: a lead is free in every variant, and the
        // Bavarian family's only duty is in trick 1. Half of all card choices take this way.
        if d.current.plays.is_empty()
            || (self.table.options.variant.bavarian_family() && !d.tricks.is_empty())
        {
            return hand;
        }
        let bound = !self.is_blind_seat(seat);
        self.with_roles(|roles| {
            roles.legal_follow(
                &self.table.options,
                hand,
                &d.current.plays,
                d.tricks.len(),
                bound,
            )
        })
        .unwrap_or(hand)
    }

    fn declaring_schlag(&self) -> bool {
        let d = &self.deal;
        if d.swapped {
            d.trump.is_some()
        } else {
            d.schlag.is_none()
        }
    }

    fn exchange_limit(&self, seat: Seat) -> usize {
        let lim = if seat == self.deal.dealer { 2 } else { 3 };
        lim.min(self.deal.stock.len())
    }

    // ----- apply -----

    /// Whether `action` is among `seat`'s legal actions, without listing them all.
    fn is_legal(&self, seat: Seat, action: &Action) -> bool {
        // A card play (most actions) is checked without listing every legal action; the same
        // rule as `legal_actions`: no pending raise, the seat's turn, a legal card.
        match (self.phase, action) {
            (Phase::Play, Action::Play { cards }) => match cards.as_slice() {
                [card] => {
                    self.deal.pending.is_none()
                        && seat == self.seat_to_play()
                        && self.legal_cards(seat).contains(*card)
                }
                _ => false,
            },
            _ => {
                let mut sink = Contains {
                    action,
                    found: false,
                };
                self.list_legal(seat, &mut sink);
                sink.found
            }
        }
    }

    /// Applies a legal action.
    fn apply_legal(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        match (self.phase, action) {
            (Phase::Naming, _) => self.apply_naming(seat, action, events),
            (Phase::Exchange, Action::Discard { card }) => {
                self.deal.hands[seat].remove(*card);
                self.deal.discards[seat].insert(*card);
                self.deal.ex_discarded += 1;
                push_in_place(events, || Event::Discard { seat });
            }
            (Phase::Exchange, _) => self.apply_draw(seat, events),
            (Phase::Play, _) => self.apply_play(seat, action, events),
            (Phase::Over, _) => return Err(ActionError::GameOver),
        }
        self.refresh_roles_cache();
        Ok(())
    }

    /// Why an unlisted action is refused (a sentence naming the cards).
    fn refusal(&self, seat: Seat, action: &Action) -> ActionError {
        let d = &self.deal;
        match (self.phase, action) {
            (_, Action::Play { cards }) if cards.len() != 1 => {
                ActionError::illegal("one_card", "play exactly one card: {\"cards\":[\"AS\"]}")
            }
            (Phase::Play, Action::Play { cards }) => {
                let c = cards[0];
                if d.pending.is_some() {
                    ActionError::illegal(
                        "raise_pending",
                        "a raise is pending: it must be answered before any card is played",
                    )
                } else if seat != self.seat_to_play() {
                    ActionError::illegal(
                        "not_your_card",
                        format!(
                            "it is seat {}'s turn to play a card, not seat {seat}'s",
                            self.seat_to_play()
                        ),
                    )
                } else if !d.hands[seat].contains(c) {
                    ActionError::illegal(
                        "card_not_in_hand",
                        format!("{c} is not in your hand ({})", list(d.hands[seat])),
                    )
                } else if self.table.options.variant == Variant::Bohemian {
                    ActionError::illegal(
                        "must_follow_and_beat",
                        format!(
                            "you must follow suit and beat the trick if you can: you may play {}",
                            list(self.legal_cards(seat))
                        ),
                    )
                } else {
                    ActionError::illegal(
                        "must_give_trump",
                        format!(
                            "a trump was led and you hold one: you must play one of {}",
                            list(self.legal_cards(seat))
                        ),
                    )
                }
            }
            (Phase::Play, Action::Raise { to }) => {
                if let Some(p) = d.pending {
                    ActionError::illegal(
                        "raise_pending",
                        format!(
                            "seat {}'s raise to {} is pending; a counter-raise must be to {} and within your cap",
                            p.seat,
                            p.to,
                            p.to + 1
                        ),
                    )
                } else {
                    let opts = self.raise_options(seat);
                    if opts.is_empty() {
                        ActionError::illegal(
                            "may_not_raise",
                            format!(
                                "you may not raise now (the stake is {}: your side lacks the raise right, is capped by its score, or the last-trick rule forbids it)",
                                d.stake
                            ),
                        )
                    } else {
                        ActionError::illegal(
                            "wrong_raise_value",
                            format!("a raise now must be to {opts:?}, not {to}"),
                        )
                    }
                }
            }
            (Phase::Play, Action::Accept {} | Action::Fold {} | Action::Challenge {}) => {
                if d.pending.is_none() {
                    ActionError::illegal("no_raise_pending", "there is no raise to answer")
                } else {
                    ActionError::illegal(
                        "not_responder",
                        "you may not answer this raise (or challenge it) now",
                    )
                }
            }
            (Phase::Play, Action::Signal { code }) => ActionError::illegal(
                "no_signal",
                format!(
                    "signal `{code}` is not allowed now (signals off, used up, or a raise is pending)"
                ),
            ),
            (Phase::Naming, Action::Declare { .. }) => ActionError::illegal(
                "bad_declaration",
                "this declaration is not allowed now: see your legal actions (the Schlag rank, the trump suit, or in Blind Watten a card of your hand)",
            ),
            (Phase::Naming, Action::Accept {} | Action::Decline {}) => {
                ActionError::illegal("no_proposal", "there is no proposal to answer")
            }
            (Phase::Naming, Action::Propose { proposal }) => ActionError::illegal(
                "proposal_unavailable",
                format!("the proposal {proposal:?} is not available now"),
            ),
            (Phase::Exchange, Action::Discard { card }) => {
                if d.hands[seat].contains(*card) {
                    ActionError::illegal(
                        "exchange_limit",
                        format!(
                            "you may exchange at most {} cards now; draw to end your turn",
                            self.exchange_limit(seat)
                        ),
                    )
                } else {
                    ActionError::illegal(
                        "card_not_in_hand",
                        format!("{card} is not in your hand ({})", list(d.hands[seat])),
                    )
                }
            }
            (phase, _) => ActionError::illegal(
                "wrong_phase",
                format!("this action is not possible in the {phase:?} phase"),
            ),
        }
    }

    fn apply_naming(&mut self, seat: Seat, action: &Action, events: &mut Vec<Event>) {
        let e = self.eldest();
        match action {
            Action::Propose { proposal } => {
                self.deal.proposal = Some(*proposal);
                self.deal.new_cards_open = false;
                if *proposal == Proposal::SchlagSwap {
                    self.deal.swap_open = false;
                }
                push_in_place(events, || Event::Propose {
                    seat,
                    proposal: *proposal,
                });
            }
            Action::Accept {} | Action::Decline {} => {
                let accepted = *action == Action::Accept {};
                let proposal = self.deal.proposal.take();
                push_in_place(events, || Event::Answer { seat, accepted });
                match (proposal, accepted) {
                    (Some(Proposal::NewCards), true) => {
                        // §3.2.1: both hands away, E takes the first 5 stock cards, the dealer the next 5.
                        let dealer = self.deal.dealer;
                        for s in [e, dealer] {
                            let old = self.deal.hands[s];
                            self.deal.discards[s].0 |= old.0;
                            let take = self.deal.stock.len().min(5);
                            self.deal.hands[s] = self.deal.stock.drain(..take).collect();
                        }
                        self.maschine_check(events);
                    }
                    (Some(Proposal::SchlagSwap), true) => self.deal.swapped = true,
                    _ => {}
                }
            }
            Action::Declare {
                schlag,
                trump,
                card,
            } => {
                self.deal.new_cards_open = false;
                self.deal.swap_open = false;
                if let Some(card) = card {
                    let index = usize::from(seat != e);
                    self.deal.designated[index] = Some(*card);
                    events.push(Event::Designate { seat });
                    if let [Some(ec), Some(dc)] = self.deal.designated {
                        self.deal.schlag = ec.rank();
                        self.deal.trump = dc.suit();
                    }
                } else {
                    if schlag.is_some() {
                        self.deal.schlag = *schlag;
                    }
                    if trump.is_some() {
                        self.deal.trump = *trump;
                    }
                    push_in_place(events, || Event::Declare {
                        seat,
                        schlag: *schlag,
                        trump: *trump,
                    });
                }
                if self.deal.schlag.is_some() && self.deal.trump.is_some() {
                    self.phase = Phase::Play;
                    self.deal.current = Trick {
                        leader: e,
                        plays: SmallVec::new(),
                        winner: None,
                    };
                }
            }
            _ => {}
        }
    }

    fn apply_draw(&mut self, seat: Seat, events: &mut Vec<Event>) {
        let k = (self.deal.ex_discarded as usize).min(self.deal.stock.len());
        for c in self.deal.stock.drain(..k) {
            self.deal.hands[seat].insert(c);
        }
        push_in_place(events, || Event::Draw {
            seat,
            count: k as u8,
        });
        self.deal.exchanges.push((seat, k as u8));
        self.deal.ex_discarded = 0;
        if seat == self.deal.dealer || self.deal.stock.is_empty() {
            self.phase = Phase::Play;
        } else {
            self.deal.ex_seat = (seat + 1) % self.table.players;
        }
    }

    fn apply_play(&mut self, seat: Seat, action: &Action, events: &mut Vec<Event>) {
        match action {
            Action::Play { cards } => self.play_card(seat, cards[0], events),
            Action::Raise { to } => {
                let side = self.side_of(seat);
                if let Some(p) = self.deal.pending {
                    // A counter-raise accepts p.to and raises (§3.4.2).
                    self.deal.stake = p.to;
                    self.deal.raise_right = Some(side);
                }
                let challengeable = self.deal.pending.is_none()
                    && self.table.options.last_trick_raise == LastTrickRaise::Challenge
                    && self.table.options.variant.tyrolean_family()
                    && self.in_last_trick_window()
                    && !self.is_blind_seat(seat);
                self.deal.pending = Some(PendingRaise {
                    seat,
                    to: *to,
                    challengeable,
                });
                self.deal.raised = true;
                push_in_place(events, || Event::Raise { seat, to: *to });
            }
            Action::Accept {} => {
                if let Some(p) = self.deal.pending.take() {
                    self.deal.stake = p.to;
                    self.deal.raise_right = Some(self.side_of(seat));
                }
                push_in_place(events, || Event::Accept { seat });
            }
            Action::Fold {} => {
                push_in_place(events, || Event::Fold { seat });
                if let Some(p) = self.deal.pending.take() {
                    let side = self.side_of(p.seat);
                    let stake = self.deal.stake as i32;
                    self.finish_deal(side, stake, "fold", events);
                }
            }
            Action::Challenge {} => {
                // Listed only when the raiser's last card is known (legal_actions), so this holds.
                let challenged = self
                    .deal
                    .pending
                    .and_then(|p| self.last_card(p.seat).map(|card| (p, card)));
                if let Some((p, card)) = challenged {
                    self.deal.pending = None;
                    let qualifies = self.last_card_qualifies(p.seat);
                    events.push(Event::Challenge {
                        seat,
                        card,
                        qualifies,
                    });
                    let side = if qualifies {
                        self.side_of(p.seat)
                    } else {
                        self.side_of(seat)
                    };
                    self.finish_deal(side, 2, "challenge", events);
                }
            }
            Action::Signal { code } => {
                self.deal.signals.push((seat, code.to_string()));
                self.deal.signals_used[seat] += 1;
                push_in_place(events, || Event::Signal { seat, code: *code });
            }
            _ => {}
        }
    }

    fn play_card(&mut self, seat: Seat, card: Card, events: &mut Vec<Event>) {
        self.deal.hands[seat].remove(card);
        self.deal.current.plays.push((seat, card));
        push_in_place(events, || Event::Play {
            seat,
            cards: Cards::one(card),
        });
        if self.deal.current.plays.len() < self.table.players {
            return;
        }
        let Some(w) = self.with_roles(|roles| roles.winner(&self.deal.current.plays)) else {
            return;
        };
        let winner = self.deal.current.plays[w].0;
        push_in_place(events, || Event::TrickWon { seat: winner });
        let mut done = std::mem::replace(
            &mut self.deal.current,
            Trick {
                leader: winner,
                plays: SmallVec::new(),
                winner: None,
            },
        );
        done.winner = Some(winner);
        self.deal.tricks.push(done);
        let side = self.side_of(winner);
        self.deal.won[side] += 1;
        if self.table.options.variant == Variant::Bohemian {
            if self.deal.tricks.len() == 5 {
                self.score_bohemian(events);
            }
        } else if self.deal.won[side] >= 3 {
            let stake = self.deal.stake as i32;
            self.finish_deal(side, stake, "tricks", events);
        }
    }

    /// §5.3.
    fn score_bohemian(&mut self, events: &mut Vec<Event>) {
        let m = if self.deal.trump == Some(Suit::Hearts) {
            2
        } else {
            1
        };
        let p = self.table.options.bohemian_trick_points;
        let changes: SmallVec<[i32; 6]> = (0..self.table.players)
            .map(|s| {
                let k = self.deal.won[s] as i32;
                if k > 0 { -k * p * m } else { 5 * m }
            })
            .collect();
        for (s, c) in changes.iter().enumerate() {
            self.scores[s] += c;
        }
        self.end_deal(SmallVec::new(), 0, "tricks", changes, events);
    }

    /// Every legal action of `seat`, canonical order, into `out`.
    fn list_legal(&self, seat: Seat, out: &mut impl ActionSink) {
        if seat >= self.table.players {
            return;
        }
        let d = &self.deal;
        match self.phase {
            Phase::Over => {}
            Phase::Naming => {
                if seat != self.naming_actor() {
                    return;
                }
                if d.proposal.is_some() {
                    out.push(Action::Accept {});
                    out.push(Action::Decline {});
                    return;
                }
                if seat == self.eldest() {
                    if d.new_cards_open {
                        out.push(Action::Propose {
                            proposal: Proposal::NewCards,
                        });
                    }
                    if d.swap_open {
                        out.push(Action::Propose {
                            proposal: Proposal::SchlagSwap,
                        });
                    }
                }
                if self.is_blind() {
                    out.push_each(d.hands[seat].iter(), Action::designate);
                } else if self.declaring_schlag() {
                    let hand = d.hands[seat];
                    for &r in self.table.options.schlag_ranks() {
                        if !self.table.options.schlag_must_hold || !hand.of_rank(r).is_empty() {
                            out.push_with(|| Action::schlag(r));
                        }
                    }
                } else {
                    // Built in the list's memory: a declaration built on the stack and copied
                    // stalled on its narrow fields (a quarter of a 2-player list's time).
                    for s in [Suit::Clubs, Suit::Spades, Suit::Hearts, Suit::Diamonds] {
                        out.push_with(|| Action::trump(s));
                    }
                }
            }
            Phase::Exchange => {
                if seat != d.ex_seat {
                    return;
                }
                if (d.ex_discarded as usize) < self.exchange_limit(seat) {
                    out.push_each(d.hands[seat].iter(), |card| Action::Discard { card });
                }
                out.push(Action::Draw {});
            }
            Phase::Play => {
                if let Some(p) = d.pending {
                    if self.responders(p.seat).contains(&seat) {
                        out.push(Action::Accept {});
                        out.push(Action::Fold {});
                        if self.may_raise_to(seat, p.to + 1) {
                            out.push(Action::Raise { to: p.to + 1 });
                        }
                        if p.challengeable && self.last_card(p.seat).is_some() {
                            out.push(Action::Challenge {});
                        }
                    }
                    return;
                }
                if seat == self.seat_to_play() {
                    out.push_each(self.legal_cards(seat).iter(), Action::play);
                }
                out.push_each(self.raise_options(seat).into_iter(), |to| Action::Raise {
                    to,
                });
                if self.can_signal(seat) {
                    out.push_each(SIGNAL_CODES.iter(), |c| Action::Signal {
                        code: SignalCode::new(c).unwrap_or_else(|| unreachable!("{c} is short")),
                    });
                }
            }
        }
    }

    /// Every card of the game, wherever it is.
    pub fn all_cards(&self) -> Vec<Card> {
        let d = &self.deal;
        let mut out = Vec::with_capacity(33);
        for h in &d.hands {
            out.extend(h.iter());
        }
        for h in &d.discards {
            out.extend(h.iter());
        }
        out.extend(d.stock.iter().copied());
        out.extend(d.cut_shown);
        out.extend(d.turn_up);
        for t in d.tricks.iter().chain(std::iter::once(&d.current)) {
            out.extend(t.plays.iter().map(|(_, c)| *c));
        }
        out
    }
}

/// `list` emptied, its allocation kept.
fn emptied<T>(mut list: Vec<T>) -> Vec<T> {
    list.clear();
    list
}

/// `list` holding `len` copies of `value`, its allocation kept.
fn refill<T: Clone>(list: Vec<T>, len: usize, value: T) -> Vec<T> {
    let mut list = emptied(list);
    list.resize(len, value);
    list
}

impl Deal {
    /// Starts a fresh deal in place. The lists are emptied rather than rebuilt: a Watten deal is
    /// about 15 actions, so per-deal allocations showed in playout profiles.
    fn reset(&mut self, dealer: Seat, n: usize) {
        let old = std::mem::take(self);
        let mut tricks = emptied(old.tricks);
        // At most five tricks a deal: one allocation instead of growing.
        tricks.reserve(5);
        *self = Deal {
            dealer,
            hands: refill(old.hands, n, CardSet::EMPTY),
            cut_taken: emptied(old.cut_taken),
            cut_shown: None,
            turn_up: None,
            stock: emptied(old.stock),
            discards: refill(old.discards, n, CardSet::EMPTY),
            proposal: None,
            new_cards_open: false,
            swap_open: false,
            swapped: false,
            schlag: None,
            trump: None,
            designated: [None, None],
            tricks,
            current: Trick {
                leader: (dealer + 1) % n.max(1),
                plays: SmallVec::new(),
                winner: None,
            },
            won: refill(old.won, n.max(2), 0),
            stake: 2,
            pending: None,
            raise_right: None,
            raised: false,
            signals: emptied(old.signals),
            signals_used: refill(old.signals_used, n, 0),
            ex_seat: (dealer + 1) % n.max(1),
            ex_discarded: 0,
            exchanges: emptied(old.exchanges),
        };
    }
}

/// Does the viewer know Schlag and trump (and which designated cards) in Blind Watten?
pub fn blind_knowledge(state: &State, seat: Option<Seat>) -> (bool, [bool; 2]) {
    let d = &state.deal;
    if state.table.options.variant != Variant::Blind {
        return (true, [true, true]);
    }
    if state.phase == Phase::Over {
        return (true, [true, true]);
    }
    let both = d.designated[0].is_some() && d.designated[1].is_some();
    let e = state.eldest();
    match seat {
        Some(s) if s == e => (both, [true, both]),
        Some(s) if s == d.dealer => {
            let sees_e = both || state.table.options.blind_reveal == BlindReveal::Sequential;
            (both, [sees_e, true])
        }
        _ => (false, [false, false]),
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

    /// `to_act` (§3.4.6).
    fn to_act(&self) -> Actors {
        match self.phase {
            Phase::Over => Actors::None,
            Phase::Naming => Actors::One(self.naming_actor()),
            Phase::Exchange => Actors::One(self.deal.ex_seat),
            Phase::Play => {
                if let Some(p) = self.deal.pending {
                    let r = self.responders(p.seat);
                    return if r.len() == 1 {
                        Actors::One(r[0])
                    } else {
                        Actors::Many(r)
                    };
                }
                let stp = self.seat_to_play();
                if self.table.options.raise_timing == RaiseTiming::OnTurn
                    || self.table.options.variant == Variant::Bohemian
                {
                    return Actors::One(stp);
                }
                let mut seats: Seats = smallvec![stp];
                for k in 1..self.table.players {
                    let s = (stp + k) % self.table.players;
                    if self.can_raise(s) || self.can_signal(s) {
                        seats.push(s);
                    }
                }
                if seats.len() == 1 {
                    Actors::One(stp)
                } else {
                    Actors::Many(seats)
                }
            }
        }
    }

    /// Every legal action of `seat`, canonical order.
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        self.list_legal(seat, out);
    }

    /// Applies an action of a seat in `to_act` (validated before any change).
    fn apply(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if !self.is_legal(seat, action) {
            return Err(self.refusal(seat, action));
        }
        self.apply_legal(seat, action, events)
    }

    /// A listed action needs no second check: the card check alone is a tenth of a playout.
    fn apply_listed(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        debug_assert!(
            self.is_legal(seat, action),
            "{action:?} of seat {seat} is listed"
        );
        self.apply_legal(seat, action, events)
    }

    fn view(&self, viewer: Viewer) -> View {
        view::view(self, viewer)
    }

    fn result(&self) -> Option<GameResult> {
        if self.phase != Phase::Over {
            return None;
        }
        let n = self.table.players;
        let scores: Vec<f64> = self.scores.iter().map(|s| f64::from(*s)).collect();
        let details = json!({ "deals": self.deals_played + 1 });
        if self.table.options.variant == Variant::Bohemian {
            // §5.3: lowest score first.
            let ranking = GameResult::ranking_by_key(0..n, |s| self.scores[s]);
            return Some(GameResult {
                ranking,
                scores,
                teams: None,
                details,
            });
        }
        let target = self.table.options.target;
        let (ranking, teams) = if n == 4 {
            let a_won = self.scores[0] >= target;
            let (w, l) = if a_won {
                (vec![0, 2], vec![1, 3])
            } else {
                (vec![1, 3], vec![0, 2])
            };
            (vec![w, l], Some(vec![vec![0, 2], vec![1, 3]]))
        } else {
            // §5.2: everyone at the target shares rank 1; the rest by score.
            let ranking = GameResult::ranking_by_key(0..n, |s| {
                if self.scores[s] >= target {
                    i32::MIN
                } else {
                    -self.scores[s]
                }
            });
            (ranking, None)
        };
        Some(GameResult {
            ranking,
            scores,
            teams,
            details,
        })
    }

    fn validate(&self) -> Result<(), String> {
        validate(self)
    }

    fn pieces(&self) -> Vec<String> {
        self.all_cards().iter().map(|c| c.code()).collect()
    }

    fn hidden_from(&self, viewer: Viewer) -> Vec<String> {
        let visible = view::visible_cards(self, viewer);
        self.table
            .options
            .pack()
            .cards()
            .into_iter()
            .filter(|c| !visible.contains(*c))
            .map(|c| c.code())
            .collect()
    }

    fn determinize(&self, seat: Seat, rng: &mut crate::rng::PlayoutRng) -> Option<Self> {
        view::determinize(self, seat, rng)
    }
}

/// Checks a state from outside (see [`GameState::validate`]).
fn validate(state: &State) -> Result<(), String> {
    let n = state.table.players;
    super::rules::check_players(&state.table.options, n).map_err(|e| e.to_string())?;
    let d = &state.deal;
    let lens = [
        ("scores", state.scores.len(), n),
        ("hands", d.hands.len(), n),
        ("discards", d.discards.len(), n),
        ("signals_used", d.signals_used.len(), n),
        ("won", d.won.len(), n.max(2)),
    ];
    for (what, got, want) in lens {
        if got != want {
            return Err(format!("{what} has {got} entries, expected {want}"));
        }
    }
    if d.dealer >= n || d.ex_seat >= n || d.current.leader >= n {
        return Err("a seat is out of range".into());
    }
    let mut all = state.all_cards();
    all.sort();
    let mut pack = state.table.options.pack().cards();
    pack.sort();
    if all != pack {
        return Err("the cards are not exactly the pack".into());
    }
    if d.tricks.len() > 5 || d.current.plays.len() >= n {
        return Err("too many tricks or plays".into());
    }
    for t in &d.tricks {
        if t.plays.len() != n || t.winner.is_none_or(|w| w >= n) || t.leader >= n {
            return Err("a completed trick is malformed".into());
        }
    }
    for t in d.tricks.iter().chain(std::iter::once(&d.current)) {
        for (i, (s, _)) in t.plays.iter().enumerate() {
            if *s != (t.leader + i) % n {
                return Err("a trick's plays are out of seat order".into());
            }
        }
    }
    let pack_set = CardSet::from_cards(state.table.options.pack().cards());
    let crit = state.table.options.criticals();
    if d.cut_taken.iter().any(|c| !crit.contains(c))
        || d.designated
            .iter()
            .flatten()
            .any(|c| !pack_set.contains(*c))
    {
        return Err("cut or designated cards are invalid".into());
    }
    if d.pending.is_some_and(|p| p.seat >= n) || d.raise_right.is_some_and(|r| r >= 2) {
        return Err("raise data out of range".into());
    }
    if !(2..=1000).contains(&d.stake) || d.signals_used.iter().any(|u| *u > 5) {
        return Err("stake or signals out of range".into());
    }
    let bohemian = state.table.options.variant == Variant::Bohemian;
    match state.phase {
        Phase::Play => {
            if d.trump.is_none() || (!bohemian && d.schlag.is_none()) {
                return Err("play phase without Schlag and trump".into());
            }
            for s in 0..n {
                let played = d
                    .tricks
                    .iter()
                    .chain(std::iter::once(&d.current))
                    .flat_map(|t| t.plays.iter())
                    .filter(|(p, _)| *p == s)
                    .count();
                if d.hands[s].len() + played != 5 {
                    return Err(format!("seat {s} holds a wrong number of cards"));
                }
            }
            if d.pending.is_some() && bohemian {
                return Err("no raising in Bohemian Watten".into());
            }
        }
        Phase::Naming => {
            if bohemian || d.pending.is_some() || !d.tricks.is_empty() {
                return Err("naming phase data is incoherent".into());
            }
            if d.hands.iter().any(|h| h.len() != 5) {
                return Err("a hand does not hold 5 cards during naming".into());
            }
            if state.table.options.variant == Variant::Blind
                && d.designated[0].is_none()
                && d.designated[1].is_some()
            {
                return Err("the dealer designated before E".into());
            }
        }
        Phase::Exchange => {
            if !bohemian || !d.tricks.is_empty() || !d.current.plays.is_empty() {
                return Err("exchange phase data is incoherent".into());
            }
            let held = d.hands.get(d.ex_seat).map_or(0, |h| h.len());
            if held + d.ex_discarded as usize != 5 || d.stock.is_empty() {
                return Err("exchange turn is incoherent".into());
            }
        }
        Phase::Over => {}
    }
    Ok(())
}
