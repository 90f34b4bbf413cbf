//! The state of a game of 22 and its rules: dealing (§2), exchange (§3.1), tricks (§3.2-3.3),
//! penalties, eliminations and buy-backs (§3.4), the end check (§3.5) and dealer succession (§3.7).

use super::action::{Action, CARDS, Cards, Event, MAX_PLAY, rank_of};
use super::rules::{
    DealSize, DealerWhenLosersOut, EndCondition, Options, PlayStyle, SetTrickWinner,
};
use super::view::{self, View};
use crate::cards::Card;
use crate::deal::deal_sequence_in_place;
use crate::error::ActionError;
use crate::game::Seat;
use crate::game::{Actors, GameResult, GameState, Seats, Table, Viewer};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Rank codes by rank index, for messages.
const RANK_CODES: [char; 13] = [
    '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A',
];

/// A hand: a multiset of card codes, as per-code counts (copies of several packs are
/// interchangeable, §2.1). Serialized as the list of codes in ascending order.
#[derive(Clone, PartialEq, Eq)]
pub struct Hand {
    counts: [u8; 52],
    present: u64,
    len: u8,
}

impl Default for Hand {
    fn default() -> Self {
        Hand {
            counts: [0; 52],
            present: 0,
            len: 0,
        }
    }
}

impl Hand {
    /// A hand from card codes (tests).
    pub fn from_cards(cards: &[Card]) -> Hand {
        let mut hand = Hand::default();
        for card in cards {
            hand.add(*card);
        }
        hand
    }

    /// Adds one copy (suited cards only).
    #[inline]
    pub fn add(&mut self, card: Card) {
        let i = card.index();
        if let Some(c) = self.counts.get_mut(i) {
            *c = c.saturating_add(1);
            self.present |= 1 << i;
            self.len = self.len.saturating_add(1);
        }
    }

    /// Removes one copy; false if absent.
    #[inline]
    pub fn remove(&mut self, card: Card) -> bool {
        let i = card.index();
        match self.counts.get_mut(i) {
            Some(c) if *c > 0 => {
                *c -= 1;
                if *c == 0 {
                    self.present &= !(1 << i);
                }
                self.len -= 1;
                true
            }
            _ => false,
        }
    }

    /// Copies of `card` held.
    #[inline]
    pub fn count(&self, card: Card) -> u8 {
        self.counts.get(card.index()).copied().unwrap_or(0)
    }

    /// Number of cards.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// True if empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bitmask of the codes held (bit = card index).
    #[inline]
    pub fn present(&self) -> u64 {
        self.present
    }

    /// Every card with multiplicity, ascending.
    pub fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        BitIter(self.present)
            .flat_map(move |i| std::iter::repeat_n(CARDS[i], self.counts[i] as usize))
    }

    /// Cards held per rank index.
    pub fn rank_counts(&self) -> [u8; 13] {
        let mut ranks = [0u8; 13];
        for i in BitIter(self.present) {
            ranks[i / 4] += self.counts[i];
        }
        ranks
    }

    /// The lowest rank held.
    pub fn lowest_rank(&self) -> Option<u8> {
        (self.present != 0).then(|| rank_of(self.present.trailing_zeros() as usize))
    }

    /// The highest rank held.
    pub fn highest_rank(&self) -> Option<u8> {
        (self.present != 0).then(|| rank_of(63 - self.present.leading_zeros() as usize))
    }

    fn clear(&mut self) {
        *self = Hand::default();
    }
}

/// Iterates the set bits of a mask, lowest first.
struct BitIter(u64);

impl Iterator for BitIter {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(i)
    }
}

impl std::fmt::Debug for Hand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.cards()).finish()
    }
}

impl Serialize for Hand {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.cards())
    }
}

impl<'de> Deserialize<'de> for Hand {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let cards = Vec::<Card>::deserialize(deserializer)?;
        if cards.len() > 255 || cards.iter().any(|c| c.is_joker()) {
            return Err(serde::de::Error::custom(
                "a hand holds at most 255 suited cards",
            ));
        }
        Ok(Hand::from_cards(&cards))
    }
}

/// One play of the current deal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PlayRecord {
    /// Who played.
    pub seat: Seat,
    /// The cards.
    pub cards: Cards,
}

/// A seat and one card (last-trick reveal, losers, exchange records).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SeatCard {
    /// The seat.
    pub seat: Seat,
    /// The card.
    pub card: Card,
}

/// Where the game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// `seat` exchanges; it has discarded `discarded` cards so far (R28).
    Exchange {
        /// The exchanging seat.
        seat: Seat,
        /// Cards discarded in this turn.
        discarded: u8,
    },
    /// `seat` leads or follows.
    Play {
        /// The seat to play.
        seat: Seat,
    },
    /// `seat` decides a buy-back (R24).
    BuyBack {
        /// The deciding seat.
        seat: Seat,
    },
    /// The game is over.
    Over,
}

/// The full state of a game of 22 (hidden cards and the RNG included).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    /// The shared header: players, options, the RNG and its seed.
    pub table: Table<Options>,
    /// Number of 52-card packs.
    pub packs: usize,
    /// Stacked deals (entry d = deal d+1).
    pub stacked: Vec<Vec<Card>>,
    /// Current deal number, 1-based.
    pub deal: u32,
    /// Dealer of the current deal.
    pub dealer: Seat,
    /// Leader of the current deal.
    pub leader: Seat,
    /// Cards dealt to each player this deal.
    pub cards_each: usize,
    /// Players in the game when this deal started.
    pub started_with: usize,
    /// Target size T of the next deal (value of the last losing card).
    pub next_size: usize,
    /// Penalty totals.
    pub totals: Vec<u32>,
    /// Deal in which each seat was eliminated.
    pub eliminated_in: Vec<Option<u32>>,
    /// Seats that used their buy-back.
    pub bought_back: Vec<bool>,
    /// Stakes paid per seat.
    pub stakes: Vec<u32>,
    /// Penalty markers in front of each seat (public record).
    pub markers: Vec<Vec<Card>>,
    /// Cards currently out of the pack (markers).
    pub withheld: Vec<Card>,
    /// Hands.
    pub hands: Vec<Hand>,
    /// The stock, top card first.
    pub stock: Vec<Card>,
    /// The exchange-discard pile of this deal, with who discarded.
    pub discards: Vec<SeatCard>,
    /// Cards drawn in this deal's exchange, with who drew.
    pub drawn: Vec<SeatCard>,
    /// Every play of this deal; trick t is `plays[t*in .. (t+1)*in]`.
    pub plays: Vec<PlayRecord>,
    /// Winners of this deal's completed tricks.
    pub winners: Vec<Seat>,
    /// Index in `plays` of the current trick's target.
    pub target: usize,
    /// Cards laid aside after the last trick (not markers).
    pub laid_aside: Vec<Card>,
    /// The last cards of the latest finished deal (public record).
    pub revealed: Vec<SeatCard>,
    /// Losers of the latest finished deal, with their cards.
    pub losers: Vec<SeatCard>,
    /// Seats still to decide a buy-back after the current one.
    pub buy_back_queue: Vec<Seat>,
    /// Seats to eliminate when the buy-back decisions are done.
    pub fatal: Vec<Seat>,
    /// The phase.
    pub phase: Phase,
}

/// Ascending ranks of some cards.
fn sorted_ranks(cards: &[Card]) -> ([u8; MAX_PLAY], usize) {
    let mut ranks = [0u8; MAX_PLAY];
    let n = cards.len().min(MAX_PLAY);
    for (r, c) in ranks.iter_mut().zip(cards) {
        *r = rank_of(c.index());
    }
    ranks[..n].sort_unstable();
    (ranks, n)
}

/// X covers Y: componentwise >= on the ascending sorts (R11).
#[inline]
pub fn covers(x: &[u8], y: &[u8]) -> bool {
    x.len() == y.len() && x.iter().zip(y).all(|(a, b)| a >= b)
}

/// The ranks of the `m` lowest cards of a hand, ascending (R13).
fn lowest_ranks(hand: &Hand, m: usize) -> ([u8; MAX_PLAY], usize) {
    let mut ranks = [0u8; MAX_PLAY];
    let mut n = 0;
    'outer: for i in BitIter(hand.present) {
        for _ in 0..hand.counts[i] {
            if n >= m.min(MAX_PLAY) {
                break 'outer;
            }
            ranks[n] = rank_of(i);
            n += 1;
        }
    }
    (ranks, n)
}

/// Ranks as "9-9" for messages.
pub fn rank_text(ranks: &[u8]) -> String {
    ranks
        .iter()
        .map(|r| {
            RANK_CODES
                .get(*r as usize)
                .copied()
                .unwrap_or('?')
                .to_string()
        })
        .collect::<Vec<_>>()
        .join("-")
}

fn count_words(n: usize) -> String {
    const WORDS: [&str; 13] = [
        "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    match n {
        1 => "lowest card".into(),
        _ => format!(
            "lowest {} cards",
            WORDS.get(n).map_or(n.to_string(), |w| w.to_string())
        ),
    }
}

fn codes(cards: &[Card]) -> String {
    cards
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// One pack in the order of `PackSpec::standard().cards()`: by suit, then rank (a deal copies
/// it rather than pushing its 52 cards one by one).
const PACK_ORDER: [Card; 52] = {
    let mut cards = [CARDS[0]; 52];
    let mut i = 0;
    while i < 52 {
        cards[i] = CARDS[(i % 13) * 4 + i / 13];
        i += 1;
    }
    cards
};

impl State {
    /// True if `seat` is still in the game.
    #[inline]
    pub fn in_game(&self, seat: Seat) -> bool {
        matches!(self.eliminated_in.get(seat), Some(None))
    }

    /// Number of players still in the game.
    pub fn in_count(&self) -> usize {
        self.eliminated_in.iter().filter(|e| e.is_none()).count()
    }

    /// The first seat after `seat` still in the game (itself if nobody else is).
    pub fn next_in(&self, seat: Seat) -> Seat {
        let n = self.table.players;
        let mut s = seat;
        for _ in 0..n {
            s += 1;
            if s >= n {
                s = 0;
            }
            if self.in_game(s) {
                return s;
            }
        }
        seat
    }

    /// The last seat before `seat` still in the game.
    pub fn prev_in(&self, seat: Seat) -> Seat {
        let n = self.table.players;
        (1..=n)
            .map(|d| (seat + n - d % n) % n)
            .find(|s| self.in_game(*s))
            .unwrap_or(seat)
    }

    /// The seats in the game in dealing order, leader first (§2.4).
    pub fn order(&self) -> Seats {
        let mut order = Seats::new();
        let mut seat = self.leader;
        for _ in 0..self.table.players {
            if self.in_game(seat) {
                order.push(seat);
            }
            seat = (seat + 1) % self.table.players.max(1);
        }
        order
    }

    /// Start of the current trick in `plays`.
    #[inline]
    pub fn trick_start(&self) -> usize {
        self.winners.len() * self.started_with
    }

    /// The plays of the current trick.
    pub fn trick(&self) -> &[PlayRecord] {
        self.plays.get(self.trick_start()..).unwrap_or(&[])
    }

    /// The current target (the set to beat), if a trick is under way.
    pub fn target_play(&self) -> Option<&PlayRecord> {
        if self.trick().is_empty() {
            None
        } else {
            self.plays.get(self.target)
        }
    }

    /// The full pack(s) in canonical order.
    pub fn full_pack(&self) -> Vec<Card> {
        let mut cards = Vec::new();
        self.full_pack_into(&mut cards);
        cards
    }

    /// [`State::full_pack`] written into `cards` (its old content dropped, its memory kept).
    fn full_pack_into(&self, cards: &mut Vec<Card>) {
        // The order of `PackSpec::standard().copies(packs).cards()`: by copy, suit, rank.
        cards.clear();
        for _ in 0..self.packs {
            cards.extend_from_slice(&PACK_ORDER);
        }
    }

    /// Starts the next deal (§2.3, §2.4): shuffle, deal from the leader, stock, exchange.
    pub fn start_deal(&mut self, events: &mut Vec<Event>) {
        self.deal += 1;
        self.leader = self.next_in(self.dealer);
        let order = self.order();
        let n_in = order.len().max(1);
        self.started_with = order.len();
        let wanted = if self.deal == 1 || self.table.options.deal_size == DealSize::Fixed7 {
            7
        } else {
            self.next_size
        };
        // The pack, then the deal sequence, in the last stock's memory (the rest becomes the
        // stock): a list per deal showed in playout profiles.
        let mut sequence = std::mem::take(&mut self.stock);
        self.pack_without_markers_into(&mut sequence);
        if sequence.len() / n_in == 0 {
            // §2.3 defensive rule (raised thresholds only): markers go back into the pack.
            self.withheld.clear();
            self.full_pack_into(&mut sequence);
        }
        let k = wanted.min(sequence.len() / n_in);
        let entry = self
            .stacked
            .get(self.deal as usize - 1)
            .map(|e| e.as_slice());
        deal_sequence_in_place(&mut sequence, entry, &mut self.table.rng);
        for hand in &mut self.hands {
            hand.clear();
        }
        self.discards.clear();
        self.drawn.clear();
        self.plays.clear();
        self.winners.clear();
        self.laid_aside.clear();
        self.target = 0;
        let dealt = (n_in * k).min(sequence.len());
        // Card j goes to `order[j % n_in]`: dealt round by round, without a division per card.
        for round in sequence[..dealt].chunks(n_in) {
            for (&seat, card) in order.iter().zip(round) {
                self.hands[seat].add(*card);
            }
        }
        sequence.drain(..dealt);
        self.stock = sequence;
        self.cards_each = k;
        events.push(Event::Deal {
            deal: self.deal,
            dealer: self.dealer,
            leader: self.leader,
            cards_each: k,
            stock: self.stock.len(),
        });
        if self.table.options.play_style == PlayStyle::Agurk || self.stock.is_empty() {
            self.begin_tricks(events);
        } else {
            self.phase = Phase::Exchange {
                seat: self.leader,
                discarded: 0,
            };
        }
    }

    /// The trick phase, or straight to the last trick when one card each was dealt (§3.3).
    fn begin_tricks(&mut self, events: &mut Vec<Event>) {
        if self.cards_each <= 1 {
            self.finish_deal(events);
        } else {
            self.phase = Phase::Play { seat: self.leader };
        }
    }

    /// The full pack without the withheld markers, written into `pack`.
    fn pack_without_markers_into(&self, pack: &mut Vec<Card>) {
        self.full_pack_into(pack);
        if self.withheld.is_empty() {
            return;
        }
        let mut out = [0u8; 52];
        for card in &self.withheld {
            if let Some(c) = out.get_mut(card.index()) {
                *c += 1;
            }
        }
        pack.retain(|card| match out.get_mut(card.index()) {
            Some(c) if *c > 0 => {
                *c -= 1;
                false
            }
            _ => true,
        });
    }

    /// The seat to act, if any.
    pub fn actor(&self) -> Option<Seat> {
        match self.phase {
            Phase::Exchange { seat, .. } | Phase::Play { seat } | Phase::BuyBack { seat } => {
                Some(seat)
            }
            Phase::Over => None,
        }
    }

    fn legal_leads(&self, hand: &Hand, out: &mut Vec<Action>) {
        let h = hand.len();
        for i in BitIter(hand.present) {
            out.push(Action::Play {
                cards: Cards::one(CARDS[i]),
            });
        }
        if self.table.options.play_style == PlayStyle::Agurk || h < 3 {
            return;
        }
        // Sets: 2..=min(count, h-1) cards of one rank (R9, R22, E6); with one pack the count caps
        // a set at four, which is all R23 asks.
        // The ranks held, one bit per rank's nibble (its lowest): a hand holds few of the 13.
        let mut held = hand.present | hand.present >> 2;
        held = (held | held >> 1) & 0x1_1111_1111_1111;
        for rank in BitIter(held).map(|bit| bit / 4) {
            let total: usize = (0..4).map(|s| hand.counts[rank * 4 + s] as usize).sum();
            let most = total.min(h - 1).min(MAX_PLAY);
            for size in 2..=most {
                let mut cards = Cards::new();
                multisets_of_rank(hand, rank, 0, size, &mut cards, out);
            }
        }
    }

    fn legal_follows(&self, hand: &Hand, target: &PlayRecord, out: &mut Vec<Action>) {
        let lead = self.trick().first().map_or(target.cards, |p| p.cards);
        if self.table.options.play_style == PlayStyle::Agurk {
            let allowed = agurk_allowed(hand, &lead, &target.cards);
            for i in BitIter(hand.present) {
                if allowed(rank_of(i)) {
                    out.push(Action::Play {
                        cards: Cards::one(CARDS[i]),
                    });
                }
            }
            return;
        }
        if let [single] = target.cards.as_slice() {
            // Single cards: every code of rank >= the target, then the lowest rank's codes.
            let t0 = usize::from(rank_of(single.index())) * 4;
            for i in BitIter(hand.present & (!0u64 << t0)) {
                out.push(Action::Play {
                    cards: Cards::one(CARDS[i]),
                });
            }
            let low = hand.present.trailing_zeros() as usize & !3;
            if low < t0 {
                for i in BitIter(hand.present & (0xF << low)) {
                    out.push(Action::Play {
                        cards: Cards::one(CARDS[i]),
                    });
                }
            }
            return;
        }
        let (t, m) = sorted_ranks(target.cards.as_slice());
        let t = &t[..m];
        // (a) every covering multiset, ascending code order (R11, R27).
        let mut codes = [(0u8, 0u8); 52];
        let mut n = 0;
        for i in BitIter(hand.present) {
            codes[n] = (i as u8, hand.counts[i]);
            n += 1;
        }
        let mut remaining = [0u8; 53];
        for j in (0..n).rev() {
            remaining[j] = remaining[j + 1].saturating_add(codes[j].1);
        }
        let mut cards = Cards::new();
        covers_from(&codes[..n], &remaining, 0, t, &mut cards, out);
        // (b) the lowest-m throws, unless they cover (then they are listed already).
        let (low, ln) = lowest_ranks(hand, m);
        if ln == m && !covers(&low[..m], t) {
            lowest_throws(hand, m, out);
        }
    }

    fn discard(
        &mut self,
        seat: Seat,
        discarded: u8,
        card: Card,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if self.hands[seat].count(card) == 0 {
            return Err(ActionError::illegal(
                "card_not_in_hand",
                format!("{card} is not in your hand"),
            ));
        }
        if discarded as usize >= self.stock.len() {
            return Err(ActionError::illegal(
                "stock_exhausted",
                format!(
                    "you have discarded {discarded} card{}, as many as the stock holds: draw now",
                    if discarded == 1 { "" } else { "s" }
                ),
            ));
        }
        self.hands[seat].remove(card);
        self.discards.push(SeatCard { seat, card });
        self.phase = Phase::Exchange {
            seat,
            discarded: discarded + 1,
        };
        events.push(Event::Discard { seat });
        Ok(())
    }

    fn draw(&mut self, seat: Seat, count: usize, events: &mut Vec<Event>) {
        let count = count.min(self.stock.len());
        for card in self.stock.drain(..count) {
            self.hands[seat].add(card);
            self.drawn.push(SeatCard { seat, card });
        }
        events.push(Event::Draw { seat, count });
        // R7/R28: one turn each, leader first, dealer last; an empty stock ends the exchange.
        if seat == self.dealer || self.stock.is_empty() {
            self.begin_tricks(events);
        } else {
            self.phase = Phase::Exchange {
                seat: self.next_in(seat),
                discarded: 0,
            };
        }
    }

    /// Checks a play of `seat` (R9, R11-R13, R25). Returns whether it becomes the target.
    pub fn check_play(&self, seat: Seat, cards: &Cards) -> Result<bool, ActionError> {
        let hand = &self.hands[seat];
        let list = cards.as_slice();
        if list.is_empty() {
            return Err(ActionError::illegal("empty_play", "play at least one card"));
        }
        if let Some(joker) = list.iter().find(|c| c.is_joker()) {
            return Err(ActionError::illegal(
                "card_not_in_hand",
                format!("{joker} is not in your hand"),
            ));
        }
        for (k, card) in list.iter().enumerate() {
            let wanted = list[..=k].iter().filter(|c| *c == card).count();
            let held = hand.count(*card) as usize;
            if wanted > held {
                return Err(ActionError::illegal(
                    "card_not_in_hand",
                    if held == 0 {
                        format!("{card} is not in your hand")
                    } else {
                        format!("you hold {held} {card}, not {wanted}")
                    },
                ));
            }
        }
        let h = hand.len();
        let agurk = self.table.options.play_style == PlayStyle::Agurk;
        let Some(target) = self.target_play() else {
            // A lead.
            if list.len() > 1 {
                if agurk {
                    return Err(ActionError::illegal(
                        "single_cards_only",
                        "under the Agurk rules every play is a single card",
                    ));
                }
                if let Some(other) = list.iter().find(|c| c.rank() != list[0].rank()) {
                    return Err(ActionError::illegal(
                        "not_a_set",
                        format!("a set is cards of one rank: {} and {other} differ", list[0]),
                    ));
                }
                if list.len() >= h {
                    return Err(ActionError::illegal(
                        "must_keep_a_card",
                        format!(
                            "you must keep at least one card: lead at most {} of your {h} cards",
                            h.saturating_sub(1)
                        ),
                    ));
                }
            }
            return Ok(true);
        };
        let lead = self.trick().first().map_or(target.cards, |p| p.cards);
        let m = lead.len();
        if list.len() != m {
            return Err(ActionError::illegal(
                "wrong_count",
                format!(
                    "the lead was {m} card{}: play exactly {m}",
                    if m == 1 { "" } else { "s" }
                ),
            ));
        }
        if agurk {
            let rank = rank_of(list[0].index());
            if agurk_allowed(hand, &lead, &target.cards)(rank) {
                return Ok(rank >= rank_of(target.cards.as_slice()[0].index()));
            }
            let low = hand.lowest_rank().unwrap_or(0);
            let top = rank_of(target.cards.as_slice()[0].index());
            let led_ace = rank_of(lead.as_slice()[0].index()) == 12;
            return Err(if led_ace {
                ActionError::illegal(
                    "must_play_lowest",
                    format!(
                        "an ace was led: play your lowest card (a {})",
                        rank_text(&[low])
                    ),
                )
            } else if hand.highest_rank().unwrap_or(0) >= top {
                ActionError::illegal(
                    "must_head",
                    format!(
                        "you can head the {}: play a card of rank {} or higher",
                        rank_text(&[top]),
                        rank_text(&[top])
                    ),
                )
            } else {
                ActionError::illegal(
                    "must_play_lowest",
                    format!(
                        "you cannot head the {}: play your lowest card (a {})",
                        rank_text(&[top]),
                        rank_text(&[low])
                    ),
                )
            });
        }
        if m == 1 {
            let rank = rank_of(list[0].index());
            let top = rank_of(target.cards.as_slice()[0].index());
            if rank >= top {
                return Ok(true);
            }
            if Some(rank) == hand.lowest_rank() {
                return Ok(false);
            }
        }
        let (x, _) = sorted_ranks(list);
        let (t, _) = sorted_ranks(target.cards.as_slice());
        if covers(&x[..m], &t[..m]) {
            return Ok(true);
        }
        let (low, _) = lowest_ranks(hand, m);
        if x[..m] == low[..m] {
            return Ok(false);
        }
        Err(ActionError::illegal(
            "must_cover_or_play_lowest",
            format!(
                "{}: you must cover the target {} or play your {} ({})",
                codes(list),
                rank_text(&t[..m]),
                count_words(m),
                rank_text(&low[..m])
            ),
        ))
    }

    fn play(
        &mut self,
        seat: Seat,
        cards: &Cards,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let becomes_target = self.check_play(seat, cards)?;
        self.lay_play(seat, cards, becomes_target, events);
        Ok(())
    }

    /// Whether a legal play becomes the trick's target: a lead does, a follow when it covers the
    /// target (R11; under Agurk, R25, a single card of the target's rank or higher, the same test).
    fn legal_play_becomes_target(&self, cards: &Cards) -> bool {
        let Some(target) = self.target_play() else {
            return true;
        };
        let m = cards.len();
        let (x, _) = sorted_ranks(cards.as_slice());
        let (t, _) = sorted_ranks(target.cards.as_slice());
        covers(&x[..m.min(MAX_PLAY)], &t[..m.min(MAX_PLAY)])
    }

    /// Plays checked cards: the trick, its winner, the deal's end.
    fn lay_play(
        &mut self,
        seat: Seat,
        cards: &Cards,
        becomes_target: bool,
        events: &mut Vec<Event>,
    ) {
        let cards = cards.sorted();
        for card in cards.as_slice() {
            self.hands[seat].remove(*card);
        }
        if becomes_target {
            self.target = self.plays.len();
        }
        self.plays.push(PlayRecord { seat, cards });
        events.push(Event::Play { seat, cards });
        if self.trick().len() < self.started_with {
            self.phase = Phase::Play {
                seat: self.next_in(seat),
            };
            return;
        }
        let winner = self.trick_winner();
        events.push(Event::TrickWon { seat: winner });
        self.winners.push(winner);
        if self.hands[winner].len() <= 1 {
            self.finish_deal(events);
        } else {
            self.phase = Phase::Play { seat: winner };
        }
    }

    /// The winner of the complete current trick (§4.2, R14).
    fn trick_winner(&self) -> Seat {
        let trick = self.trick();
        if self.table.options.set_trick_winner == SetTrickWinner::LastCover {
            return self.plays.get(self.target).map_or(self.leader, |p| p.seat);
        }
        let mut best = (0u8, self.leader);
        for play in trick {
            for card in play.cards.as_slice() {
                let rank = rank_of(card.index());
                if rank >= best.0 {
                    best = (rank, play.seat);
                }
            }
        }
        best.1
    }

    /// The last trick (§3.3, R15, R16), penalties, then the elimination step (§3.4).
    fn finish_deal(&mut self, events: &mut Vec<Event>) {
        let start = self.winners.last().copied().unwrap_or(self.leader);
        let mut shown = Vec::with_capacity(self.started_with);
        let mut seat = start;
        for _ in 0..self.table.players {
            if self.in_game(seat) {
                if let Some(card) = self.hands[seat].cards().next() {
                    shown.push(SeatCard { seat, card });
                }
                self.hands[seat].clear();
            }
            seat = (seat + 1) % self.table.players;
        }
        let top = shown
            .iter()
            .map(|s| rank_of(s.card.index()))
            .max()
            .unwrap_or(0);
        events.push(Event::LastTrick {
            cards: shown.clone(),
        });
        let mut losers: Vec<SeatCard> = shown
            .iter()
            .copied()
            .filter(|s| rank_of(s.card.index()) == top)
            .collect();
        losers.sort_by_key(|s| s.seat);
        for s in &shown {
            let marker =
                self.table.options.penalty_cards_leave_pack && rank_of(s.card.index()) == top;
            if marker {
                self.withheld.push(s.card);
                self.markers[s.seat].push(s.card);
            } else {
                self.laid_aside.push(s.card);
            }
        }
        for loser in &losers {
            let points = self.table.options.penalty(top);
            self.totals[loser.seat] += points;
            events.push(Event::Penalty {
                seat: loser.seat,
                card: loser.card,
                points,
                total: self.totals[loser.seat],
            });
        }
        self.next_size = self.table.options.penalty(top) as usize;
        self.revealed = shown;
        self.losers = losers;
        // §3.4: who reaches the threshold, in seat order from the deal's leader.
        self.fatal.clear();
        self.buy_back_queue.clear();
        let mut seat = self.leader;
        for _ in 0..self.table.players {
            if self.in_game(seat) && self.totals[seat] >= self.table.options.elimination_threshold {
                let eligible = self.table.options.buy_back
                    && !self.bought_back[seat]
                    && self.started_with >= 4;
                if eligible {
                    self.buy_back_queue.push(seat);
                } else {
                    self.fatal.push(seat);
                }
            }
            seat = (seat + 1) % self.table.players;
        }
        self.next_decision(events);
    }

    fn next_decision(&mut self, events: &mut Vec<Event>) {
        if self.buy_back_queue.is_empty() {
            self.conclude_deal(events);
        } else {
            let seat = self.buy_back_queue.remove(0);
            self.phase = Phase::BuyBack { seat };
        }
    }

    fn buy_back(&mut self, seat: Seat, accept: bool, events: &mut Vec<Event>) {
        if accept {
            // R24: pay a stake, the fatal penalty is cancelled, the marker returns to the pack.
            self.stakes[seat] += 1;
            self.bought_back[seat] = true;
            if let Some(lost) = self.losers.iter().find(|l| l.seat == seat) {
                let rank = rank_of(lost.card.index());
                self.totals[seat] =
                    self.totals[seat].saturating_sub(self.table.options.penalty(rank));
                if self.table.options.penalty_cards_leave_pack {
                    if let Some(pos) = self.withheld.iter().rposition(|c| *c == lost.card) {
                        self.withheld.remove(pos);
                        self.laid_aside.push(lost.card);
                    }
                    if let Some(pos) = self.markers[seat].iter().rposition(|c| *c == lost.card) {
                        self.markers[seat].remove(pos);
                    }
                }
            }
            events.push(Event::BuyBack {
                seat,
                total: self.totals[seat],
            });
        } else {
            self.fatal.push(seat);
            events.push(Event::Fold { seat });
        }
        self.next_decision(events);
    }

    /// Eliminations, the end check (§3.5) and the next deal (§3.7).
    fn conclude_deal(&mut self, events: &mut Vec<Event>) {
        let mut fatal = std::mem::take(&mut self.fatal);
        fatal.sort_unstable();
        for &seat in &fatal {
            self.eliminated_in[seat] = Some(self.deal);
            events.push(Event::Eliminated {
                seat,
                total: self.totals[seat],
            });
        }
        let left = self.in_count();
        let over = left <= 1
            || match self.table.options.end_condition {
                EndCondition::LastSurvivor => false,
                EndCondition::FirstElimination => self.eliminated_in.iter().any(Option::is_some),
                // R30: only a deal with an elimination ends the gambling game.
                EndCondition::Pot => !fatal.is_empty() && (self.started_with <= 3 || left <= 2),
            };
        if over {
            self.phase = Phase::Over;
            events.push(Event::GameOver);
            return;
        }
        self.dealer = self.next_dealer();
        self.start_deal(events);
    }

    /// §3.7, R21: a surviving loser deals (uniform draw if several), else by the option.
    fn next_dealer(&mut self) -> Seat {
        let surviving: Vec<Seat> = self
            .losers
            .iter()
            .map(|l| l.seat)
            .filter(|s| self.in_game(*s))
            .collect();
        match surviving.len() {
            1 => return surviving[0],
            n if n > 1 => return surviving[self.table.rng.pick(n)],
            _ => {}
        }
        match self.table.options.dealer_when_losers_out {
            DealerWhenLosersOut::RandomSurvivor => {
                let survivors: Vec<Seat> = (0..self.table.players)
                    .filter(|s| self.in_game(*s))
                    .collect();
                survivors
                    .get(self.table.rng.pick(survivors.len()))
                    .copied()
                    .unwrap_or(self.dealer)
            }
            DealerWhenLosersOut::NextSeat => {
                let loser = match self.losers.len() {
                    0 => self.dealer,
                    1 => self.losers[0].seat,
                    n => self.losers[self.table.rng.pick(n)].seat,
                };
                let leader = self.next_in(loser);
                self.prev_in(leader)
            }
        }
    }
}

/// Whether a follow `play` was legal from `hand` (§3.2, R11, R13; Agurk R25), and if so whether it
/// became the target: for determinization, which replays a deal's plays against sampled hands.
pub fn follow_ok(
    agurk: bool,
    hand: &Hand,
    lead: &Cards,
    target: &Cards,
    play: &Cards,
) -> Option<bool> {
    let m = lead.len();
    if play.len() != m || target.is_empty() {
        return None;
    }
    if agurk {
        let rank = rank_of(play.as_slice()[0].index());
        let top = rank_of(target.as_slice()[0].index());
        return agurk_allowed(hand, lead, target)(rank).then_some(rank >= top);
    }
    let (x, _) = sorted_ranks(play.as_slice());
    let (t, _) = sorted_ranks(target.as_slice());
    if covers(&x[..m], &t[..m]) {
        return Some(true);
    }
    let (low, n) = lowest_ranks(hand, m);
    (n == m && low[..m] == x[..m]).then_some(false)
}

/// Agurk follow rule (R25): which ranks a follower may play.
fn agurk_allowed(hand: &Hand, lead: &Cards, target: &Cards) -> impl Fn(u8) -> bool {
    let low = hand.lowest_rank().unwrap_or(0);
    let top = target.as_slice().first().map_or(0, |c| rank_of(c.index()));
    let led_ace = lead
        .as_slice()
        .first()
        .is_some_and(|c| rank_of(c.index()) == 12);
    let can_head = hand.highest_rank().is_some_and(|r| r >= top);
    move |rank| {
        if led_ace || !can_head {
            rank == low
        } else {
            rank >= top
        }
    }
}

/// Every multiset of `size` more codes of `rank` from suit `from` on.
fn multisets_of_rank(
    hand: &Hand,
    rank: usize,
    from: usize,
    size: usize,
    cards: &mut Cards,
    out: &mut Vec<Action>,
) {
    if size == 0 {
        out.push(Action::Play { cards: *cards });
        return;
    }
    for suit in from..4 {
        let i = rank * 4 + suit;
        let count = hand.counts[i] as usize;
        let mut pushed = 0;
        while pushed < count.min(size) {
            cards.push(CARDS[i]);
            pushed += 1;
            multisets_of_rank(hand, rank, suit + 1, size - pushed, cards, out);
        }
        for _ in 0..pushed {
            cards.pop();
        }
    }
}

/// Every covering multiset: codes ascending, position p must have rank >= t[p] (R11).
fn covers_from(
    codes: &[(u8, u8)],
    remaining: &[u8; 53],
    from: usize,
    t: &[u8],
    cards: &mut Cards,
    out: &mut Vec<Action>,
) {
    let pos = cards.len();
    if pos == t.len() {
        out.push(Action::Play { cards: *cards });
        return;
    }
    let need = t.len() - pos;
    for j in from..codes.len() {
        if (remaining[j] as usize) < need {
            return;
        }
        let (index, count) = codes[j];
        let rank = rank_of(index as usize);
        if rank < t[pos] {
            continue;
        }
        let mut pushed = 0;
        while pushed < (count as usize).min(need) && rank >= t[pos + pushed] {
            cards.push(CARDS[index as usize]);
            pushed += 1;
            covers_from(codes, remaining, j + 1, t, cards, out);
        }
        for _ in 0..pushed {
            cards.pop();
        }
    }
}

/// Every code-level choice of the lowest `m` cards (R13, E7).
fn lowest_throws(hand: &Hand, m: usize, out: &mut Vec<Action>) {
    let mut cards = Cards::new();
    let ranks = hand.rank_counts();
    let mut left = m;
    for (rank, &n) in ranks.iter().enumerate() {
        if left == 0 {
            break;
        }
        let n = n as usize;
        if n == 0 {
            continue;
        }
        if n <= left {
            for suit in 0..4 {
                let i = rank * 4 + suit;
                for _ in 0..hand.counts[i] {
                    cards.push(CARDS[i]);
                }
            }
            left -= n;
        } else {
            // Boundary rank: any `left` of its cards.
            // The fixed part holds only lower ranks, so every choice stays in ascending order.
            multisets_of_rank(hand, rank, 0, left, &mut cards, out);
            return;
        }
    }
    out.push(Action::Play { cards });
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
        match self.actor() {
            Some(seat) => Actors::One(seat),
            None => Actors::None,
        }
    }

    /// Appends the legal actions of `seat` (nothing if it is not to act), in canonical order.
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        if self.actor() != Some(seat) {
            return;
        }
        let Some(hand) = self.hands.get(seat) else {
            return;
        };
        match self.phase {
            Phase::Exchange { discarded, .. } => {
                if (discarded as usize) < self.stock.len() {
                    for i in BitIter(hand.present) {
                        out.push(Action::Discard { card: CARDS[i] });
                    }
                }
                out.push(Action::Draw {});
            }
            Phase::Play { .. } => match self.target_play() {
                None => self.legal_leads(hand, out),
                Some(target) => self.legal_follows(hand, target, out),
            },
            Phase::BuyBack { .. } => {
                out.push(Action::Accept {});
                out.push(Action::Fold {});
            }
            Phase::Over => {}
        }
    }

    /// Applies an action of `seat`, validating fully first.
    fn apply(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if self.actor() != Some(seat) {
            return Err(ActionError::illegal(
                "not_your_turn",
                format!("seat {seat} is not to act"),
            ));
        }
        match (self.phase, action) {
            (Phase::Exchange { discarded, .. }, Action::Discard { card }) => {
                self.discard(seat, discarded, *card, events)
            }
            (Phase::Exchange { discarded, .. }, Action::Draw {}) => {
                self.draw(seat, discarded as usize, events);
                Ok(())
            }
            (Phase::Play { .. }, Action::Play { cards }) => self.play(seat, cards, events),
            (Phase::BuyBack { .. }, Action::Accept {}) => {
                self.buy_back(seat, true, events);
                Ok(())
            }
            (Phase::BuyBack { .. }, Action::Fold {}) => {
                self.buy_back(seat, false, events);
                Ok(())
            }
            (Phase::Exchange { .. }, _) => Err(ActionError::illegal(
                "wrong_phase",
                "it is your exchange turn: discard a card or draw",
            )),
            (Phase::Play { .. }, _) => Err(ActionError::illegal(
                "wrong_phase",
                "it is your turn to play cards to the trick",
            )),
            (Phase::BuyBack { .. }, _) => Err(ActionError::illegal(
                "wrong_phase",
                "you have reached the elimination total: accept (buy back in) or fold",
            )),
            (Phase::Over, _) => Err(ActionError::GameOver),
        }
    }

    /// A listed play skips `check_play` (its hand counts and cover tests ran for the listing);
    /// only whether it becomes the target is worked out. Other listed actions go through `apply`.
    fn apply_listed(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if let (Phase::Play { .. }, Action::Play { cards }) = (self.phase, action) {
            let becomes_target = self.legal_play_becomes_target(cards);
            debug_assert_eq!(
                self.check_play(seat, cards).ok(),
                Some(becomes_target),
                "{action:?} of seat {seat} is listed"
            );
            self.lay_play(seat, cards, becomes_target, events);
            return Ok(());
        }
        self.apply(seat, action, events)
    }

    fn view(&self, viewer: Viewer) -> View {
        view::view(self, viewer)
    }

    fn result(&self) -> Option<GameResult> {
        super::scoring::result(self)
    }

    fn validate(&self) -> Result<(), String> {
        validate(self)
    }

    fn pieces(&self) -> Vec<String> {
        live_cards(self).iter().map(|c| c.to_string()).collect()
    }

    fn hidden_from(&self, viewer: Viewer) -> Vec<String> {
        view::hidden_from(self, viewer)
    }

    fn determinize(&self, seat: Seat, rng: &mut crate::rng::PlayoutRng) -> Option<Self> {
        view::determinize(self, seat, rng)
    }
}

/// Every card in a live place: hands, stock, exchange discards, plays, laid aside, withheld markers.
fn live_cards(state: &State) -> Vec<Card> {
    let mut cards: Vec<Card> = state.hands.iter().flat_map(|h| h.cards()).collect();
    cards.extend(&state.stock);
    cards.extend(state.discards.iter().map(|d| d.card));
    cards.extend(
        state
            .plays
            .iter()
            .flat_map(|p| p.cards.as_slice().iter().copied()),
    );
    cards.extend(&state.laid_aside);
    cards.extend(&state.withheld);
    cards
}

fn validate(state: &State) -> Result<(), String> {
    let n = state.table.players;
    if !(2..=12).contains(&n) {
        return Err(format!("{n} players is outside 2..=12"));
    }
    if state.packs != state.table.options.pack_count(n) || !(1..=3).contains(&state.packs) {
        return Err(format!("{} packs do not match the options", state.packs));
    }
    if !(10..=99).contains(&state.table.options.elimination_threshold) {
        return Err("elimination_threshold must be 10..99".into());
    }
    state.table.options.first_dealer.check(n)?;
    let lens = [
        state.totals.len(),
        state.eliminated_in.len(),
        state.bought_back.len(),
        state.stakes.len(),
        state.markers.len(),
        state.hands.len(),
    ];
    if lens.iter().any(|l| *l != n) {
        return Err("per-seat lists must have one entry per seat".into());
    }
    // Conservation against the full pack(s).
    let mut counts = [0usize; 52];
    for card in live_cards(state) {
        if card.is_joker() {
            return Err("22 has no joker".into());
        }
        counts[card.index()] += 1;
    }
    if counts.iter().any(|c| *c != state.packs) {
        return Err("the cards are not the full pack(s) exactly once each".into());
    }
    for entry in &state.stacked {
        let mut c = [0usize; 53];
        for card in entry {
            c[card.index()] += 1;
        }
        if entry.len() > 52 * state.packs || c[52] > 0 || c.iter().any(|x| *x > state.packs) {
            return Err("a stacked deal entry does not fit the pack(s)".into());
        }
    }
    let mut marker_counts = [0usize; 52];
    for card in state.markers.iter().flatten() {
        if card.is_joker() {
            return Err("a marker is a joker".into());
        }
        marker_counts[card.index()] += 1;
    }
    let mut withheld = [0usize; 52];
    for card in &state.withheld {
        withheld[card.index()] += 1;
    }
    if withheld.iter().zip(&marker_counts).any(|(w, m)| w > m) {
        return Err("a withheld card is not a marker".into());
    }
    if state.started_with > n || state.cards_each > 52 * state.packs {
        return Err("deal sizes out of range".into());
    }
    if state.deal == 0 || state.deal > 1_000_000 || state.dealer >= n || state.leader >= n {
        return Err("deal, dealer or leader out of range".into());
    }
    let seat_ok = |s: Seat| s < n;
    let records_ok = state.discards.iter().all(|d| seat_ok(d.seat))
        && state
            .drawn
            .iter()
            .all(|d| seat_ok(d.seat) && !d.card.is_joker())
        && state
            .revealed
            .iter()
            .all(|d| seat_ok(d.seat) && !d.card.is_joker())
        && state
            .losers
            .iter()
            .all(|d| seat_ok(d.seat) && !d.card.is_joker())
        && state.winners.iter().all(|s| seat_ok(*s))
        && state.buy_back_queue.iter().all(|s| state.in_game(*s))
        && state.fatal.iter().all(|s| state.in_game(*s));
    if !records_ok {
        return Err("a record names a seat out of range".into());
    }
    for (s, hand) in state.hands.iter().enumerate() {
        if !state.in_game(s) && !hand.is_empty() {
            return Err(format!("eliminated seat {s} holds cards"));
        }
    }
    let in_count = state.in_count();
    if state.phase != Phase::Over && (in_count < 2 || state.started_with != in_count) {
        return Err("a deal needs at least two players, as many as started it".into());
    }
    if !state.in_game(state.dealer) && state.phase != Phase::Over {
        return Err("the dealer is out of the game".into());
    }
    if state.phase != Phase::Over && state.leader != state.next_in(state.dealer) {
        return Err("the leader must follow the dealer".into());
    }
    let in_trick = state.started_with.max(1);
    if state.plays.len() < state.winners.len() * in_trick
        || state.plays.len() >= (state.winners.len() + 1) * in_trick
    {
        return Err("plays do not match the completed tricks".into());
    }
    let trick = state.trick();
    let mut expect = state.winners.last().copied().unwrap_or(state.leader);
    for play in trick {
        if play.seat != expect || play.cards.is_empty() {
            return Err("the trick's plays are out of order".into());
        }
        expect = state.next_in(play.seat);
    }
    if let Some(lead) = trick.first()
        && (trick.iter().any(|p| p.cards.len() != lead.cards.len())
            || state.target < state.trick_start()
            || state.target >= state.plays.len())
    {
        return Err("the trick's plays or target are incoherent".into());
    }
    let played = |s: Seat| trick.iter().any(|p| p.seat == s);
    let m = trick.first().map_or(0, |p| p.cards.len());
    let trick_leader = state.winners.last().copied().unwrap_or(state.leader);
    let h = state.hands.get(trick_leader).map_or(0, |h| h.len())
        + usize::from(played(trick_leader)) * m;
    match state.phase {
        Phase::Exchange { seat, discarded } => {
            if !state.in_game(seat) || !trick.is_empty() || !state.winners.is_empty() {
                return Err("exchange turn incoherent".into());
            }
            if state.table.options.play_style == super::rules::PlayStyle::Agurk {
                return Err("Agurk has no exchange".into());
            }
            let own = state.discards.iter().filter(|d| d.seat == seat).count();
            if own != discarded as usize || discarded as usize > state.stock.len() {
                return Err("the exchange count is incoherent".into());
            }
            for s in 0..n {
                let want = if s == seat {
                    state.cards_each.saturating_sub(own)
                } else {
                    state.cards_each
                };
                if state.in_game(s) && state.hands[s].len() != want {
                    return Err("hand sizes are incoherent".into());
                }
            }
        }
        Phase::Play { seat } => {
            if !state.in_game(seat) || seat != expect {
                return Err("the seat to play is not next in the trick".into());
            }
            for s in (0..n).filter(|s| state.in_game(*s)) {
                let want = if played(s) { h.saturating_sub(m) } else { h };
                if state.hands[s].len() != want {
                    return Err("hand sizes are incoherent".into());
                }
            }
            if h < 2 || (trick.is_empty() && state.hands[seat].len() < 2) || m >= h.max(1) && m > 0
            {
                return Err("the trick phase needs two or more cards in hand".into());
            }
        }
        Phase::BuyBack { seat } => {
            if !state.in_game(seat) || state.hands.iter().any(|h| !h.is_empty()) {
                return Err("buy-back decision incoherent".into());
            }
        }
        Phase::Over => {
            if state.hands.iter().any(|h| !h.is_empty()) {
                return Err("a finished game has no cards in hand".into());
            }
        }
    }
    let pending = !state.buy_back_queue.is_empty() || !state.fatal.is_empty();
    if pending && !matches!(state.phase, Phase::BuyBack { .. }) {
        return Err("pending buy-backs outside the buy-back phase".into());
    }
    Ok(())
}

impl schemars::JsonSchema for Hand {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Hand".into()
    }
    fn schema_id() -> std::borrow::Cow<'static, str> {
        concat!(module_path!(), "::Hand").into()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "array",
            "items": generator.subschema_for::<Card>(),
            "maxItems": 255,
        })
    }
}
