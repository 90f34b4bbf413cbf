//! State of a game of Chinese Ten: dealing, the turn's two steps, deal scoring, game end.

use super::action::{Action, Cards, Event, Few, InlineCards};
use super::rules::{Options, Ruleset};
use super::scoring::{self, DealScore};
use super::view::{self, View};
use crate::cards::{Card, CardSet, PackSpec, Rank, Suit};
use crate::common::capture::{CaptureChoice, Layout};
use crate::deal::deal_sequence;
use crate::error::ActionError;
use crate::game::Seat;
use crate::game::{Actors, GameResult, GameState, Ranking, Table, Viewer, push_in_place};
use crate::rng::GameRng;
use serde::{Deserialize, Serialize, Serializer};
use smallvec::smallvec;
use std::fmt;
use std::sync::{Arc, LazyLock};

/// Where the game stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// The player to act plays a card from hand.
    Play,
    /// The flipped stock card has several targets; the player to act chooses one.
    StockChoice {
        /// The flipped card.
        card: Card,
        /// Its capture options (one target each).
        choice: CaptureChoice,
    },
    /// The game is over.
    Over,
}

/// Why a Main Merah layout is redealt (spec §7, R9), worded only when serialized (a redeal was
/// a formatted string, a fair part of a Main Merah deal). Serialized and described as that text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RedealReason {
    /// Three or more cards of a self-pairing rank.
    Three(Rank),
    /// `count` cards (five or more) of the class `low`/`10 - low`.
    Stranded {
        /// Cards of the class.
        count: usize,
        /// The class's low value, 1 to 4.
        low: u32,
    },
}

impl fmt::Display for RedealReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RedealReason::Three(rank) => write!(f, "three or more {rank}s in the layout"),
            RedealReason::Stranded { count, low } => write!(
                f,
                "{count} cards of the {}/{} class in the layout: a card would be stranded",
                low,
                10 - low
            ),
        }
    }
}

impl Serialize for RedealReason {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Sets `list` to `n` copies of `value`, in place (written over when it already has `n` entries,
/// as it has at every deal: `resize` goes through a generic `extend`).
fn refill<T: Copy>(list: &mut PerSeat<T>, n: usize, value: T) {
    if list.len() == n {
        list.fill(value);
    } else {
        list.clear();
        list.resize(n, value);
    }
}

/// The stock, inline up to 32 cards (every deal's stock is at most 24: no list allocated per
/// game; serialized as a list, as the `Vec` was).
pub type Stock = smallvec::SmallVec<[Card; 32]>;

/// Per-seat lists of the state, inline up to four seats (no allocations per game; serialized as
/// lists, as `Vec`s were).
pub type PerSeat<T> = smallvec::SmallVec<[T; 4]>;

/// The full state (hidden cards and RNG included).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The shared header: players, options, the RNG and its seed.
    pub table: Table<Options>,
    /// Stacked deal entries (parsed).
    pub stacked: Vec<Vec<Card>>,
    /// Entries consumed (every deal, redeals included, consumes one).
    pub entries_used: usize,
    /// Number of the current deal, from 1 (redeals do not count).
    pub deal: usize,
    /// The dealer.
    pub dealer: Seat,
    /// Hands.
    pub hands: PerSeat<CardSet>,
    /// The face-up layout.
    pub layout: Layout,
    /// Rank of an initial-layout trio still waiting for its fourth card.
    pub trio: Option<Rank>,
    /// The stock, the next card to flip LAST.
    pub stock: Stock,
    /// Captured piles.
    pub piles: PerSeat<CardSet>,
    /// Red-five captures this deal, per seat.
    pub red_fives: PerSeat<u32>,
    /// The seat to act.
    pub turn: Seat,
    /// Turns left in the deal (the current one included).
    pub turns_left: usize,
    /// Phase.
    pub phase: Phase,
    /// Cumulative points.
    pub totals: PerSeat<i64>,
    /// The last scored deal.
    #[serde(with = "crate::game::shared::option", default)]
    pub last_deal: Option<Arc<DealScore>>,
    /// The cutter and the card they saw (the last stock card).
    pub peek: Option<(Seat, Card)>,
    /// Taiwan: the seat that reached the target.
    pub race_winner: Option<Seat>,
}

fn list(cards: impl IntoIterator<Item = Card>) -> String {
    let v: Vec<String> = cards.into_iter().map(|c| c.to_string()).collect();
    if v.is_empty() {
        "nothing".into()
    } else {
        v.join(" ")
    }
}

const RED_FIVES: [Card; 2] = [
    Card::new(Rank::Five, Suit::Hearts),
    Card::new(Rank::Five, Suit::Diamonds),
];

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
            entries_used: 0,
            deal: 0,
            dealer,
            hands: smallvec![CardSet::EMPTY; players],
            layout: Layout::new(),
            trio: None,
            stock: Stock::new(),
            piles: smallvec![CardSet::EMPTY; players],
            red_fives: smallvec![0; players],
            turn: 0,
            turns_left: 0,
            phase: Phase::Play,
            totals: smallvec![0; players],
            last_deal: None,
            peek: None,
            race_winner: None,
        };
        state.start_deal(events);
        state
    }

    /// Sets up the next deal (redealing Main Merah layouts as needed), and emits its events.
    pub fn start_deal(&mut self, events: &mut Vec<Event>) {
        let n = self.table.players;
        let (h, l) = scoring::sizes(self.table.options.ruleset, n);
        self.deal += 1;
        // The pack in canonical order, listed once (Chinese Ten deals are short).
        static PACK: LazyLock<Vec<Card>> = LazyLock::new(|| PackSpec::standard().cards());
        let pack: &[Card] = &PACK;
        loop {
            // Nothing stacked (every random deal): the pack is shuffled on the stack, exactly as
            // `deal_sequence` shuffles its copy (one chance event), without a list per deal.
            let mut shuffled = [Card::JOKER; 52];
            let stacked_deck;
            let deck: &[Card] = match self.stacked.get(self.entries_used) {
                None if pack.len() == shuffled.len() => {
                    shuffled.copy_from_slice(pack);
                    self.table.rng.shuffle(&mut shuffled);
                    &shuffled
                }
                entry => {
                    stacked_deck =
                        deal_sequence(pack, entry.map(Vec::as_slice), &mut self.table.rng);
                    &stacked_deck
                }
            };
            self.entries_used += 1;
            let layout = deck.get(n * h..(n * h + l).min(deck.len())).unwrap_or(&[]);
            // A void Main Merah deal is redealt before anything is dealt from it: the next deal
            // sets every hand, pile and list anew.
            if self.table.options.ruleset == Ruleset::MainMerah
                && let Some(reason) = main_merah_redeal(layout)
            {
                push_in_place(events, || Event::Redeal {
                    dealer: self.dealer,
                    reason,
                });
                continue;
            }
            // Card i goes to the (i mod n)-th seat after the dealer: gathered in a local array
            // (the per-seat list was checked for its inline storage at every card), then stored.
            // The per-seat lists are refilled in place: a Taiwan race is often one short deal,
            // where allocating them anew weighed on every game.
            let mut dealt = [CardSet::EMPTY; 4];
            let mut slot = 0;
            for card in deck.iter().take(n * h) {
                if let Some(hand) = dealt.get_mut(slot) {
                    hand.insert(*card);
                }
                slot = if slot + 1 == n { 0 } else { slot + 1 };
            }
            refill(&mut self.hands, n, CardSet::EMPTY);
            for (k, cards) in dealt.iter().take(n).enumerate() {
                if let Some(hand) = self.hands.get_mut((self.dealer + 1 + k) % n) {
                    *hand = *cards;
                }
            }
            self.stock.clear();
            self.stock
                .extend_from_slice(deck.get(n * h + l..).unwrap_or(&[]));
            self.stock.reverse();
            refill(&mut self.piles, n, CardSet::EMPTY);
            refill(&mut self.red_fives, n, 0);
            self.trio = None;
            self.peek = if self.table.options.cutter_peek {
                deck.last().map(|c| ((self.dealer + n - 1) % n, *c))
            } else {
                None
            };
            // The layout's list is reused from the last deal.
            let mut cards = self.layout.take_all();
            cards.clear();
            cards.extend_from_slice(layout);
            self.layout = Layout::of(cards);
            push_in_place(events, || Event::Deal {
                deal: self.deal,
                dealer: self.dealer,
                // At most 12 cards (`scoring::sizes`).
                layout: Few::of(layout).unwrap_or(Few::EMPTY),
            });
            if self.table.options.ruleset != Ruleset::MainMerah {
                self.initial_specials(events);
            }
            break;
        }
        self.turn = (self.dealer + 1) % n;
        self.turns_left = n * h;
        self.phase = Phase::Play;
    }

    fn initial_specials(&mut self, events: &mut Vec<Event>) {
        let set = self.layout.set();
        for rank in scoring::SELF_PAIRING {
            let same = set.of_rank(rank);
            if same.0 >> (4 * rank.index()) == 0xF {
                self.layout.take(same);
                self.piles[self.dealer] = CardSet(self.piles[self.dealer].0 | same.0);
                events.push(Event::FourOfAKind {
                    seat: self.dealer,
                    cards: Few::of_set(same),
                });
            } else if scoring::three_of_rank(set, rank) {
                self.trio = Some(rank);
            }
        }
    }

    /// The layout cards `card` may capture, and whether it takes them all together (the fourth
    /// card of an initial trio) or exactly one of them.
    fn targets(&self, card: Card) -> (CardSet, bool) {
        // The trio first: nearly always none, and then the card's rank is not looked up.
        if let Some(trio) = self.trio
            && let Some(rank) = card.rank()
        {
            let three = self.layout.set().of_rank(rank);
            if rank == trio && three.len() == 3 {
                return (three, true);
            }
        }
        // One mask test per layout card instead of `pairs`.
        (
            CardSet(scoring::pair_mask(card).0 & self.layout.set().0),
            false,
        )
    }

    /// The capture options of `card` on the current layout (empty: it trails): the trio whole,
    /// or one option per target, in card order (as the legal list names them).
    pub fn capture_options(&self, card: Card) -> smallvec::SmallVec<[CardSet; 4]> {
        let (hits, together) = self.targets(card);
        if together {
            return smallvec![hits];
        }
        hits.iter()
            .map(|target| CardSet::from_cards([target]))
            .collect()
    }

    /// A capture (a legal one: at most three cards) in layout order, as an action's list or an
    /// event's, whichever the caller builds.
    fn in_layout_order<const N: usize>(&self, set: CardSet) -> InlineCards<N> {
        // Nearly every capture takes one card (or none): no scan of the layout for it.
        match (set.0, set.0 & set.0.wrapping_sub(1)) {
            (0, _) => InlineCards::EMPTY,
            (_, 0) => set
                .iter()
                .next()
                .map_or(InlineCards::EMPTY, InlineCards::one),
            _ => InlineCards::in_order(self.layout.cards(), set),
        }
    }

    fn play(
        &mut self,
        seat: Seat,
        cards: &[Card],
        capture: &[Card],
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if let Phase::StockChoice { card, .. } = &self.phase {
            return Err(ActionError::illegal(
                "choose_stock_capture",
                format!("first choose which layout card the flipped {card} captures"),
            ));
        }
        let [card] = cards else {
            return Err(ActionError::illegal(
                "play_one_card",
                format!("play exactly one card, not {}", list(cards.iter().copied())),
            ));
        };
        let card = *card;
        let hand = self.hands.get(seat).copied().unwrap_or_default();
        if !hand.contains(card) {
            return Err(ActionError::illegal(
                "card_not_in_hand",
                format!("{card} is not in your hand"),
            ));
        }
        let wanted = CardSet::from_cards(capture.iter().copied());
        if wanted.len() != capture.len() {
            return Err(ActionError::illegal(
                "invalid_capture",
                format!(
                    "the capture {} names a card twice",
                    list(capture.iter().copied())
                ),
            ));
        }
        // Checked on the targets' mask; the list of options is built for the error only.
        let (targets, together) = self.targets(card);
        let legal = if targets.is_empty() {
            wanted.is_empty()
        } else if together {
            wanted == targets
        } else {
            wanted.len() == 1 && wanted.0 & !targets.0 == 0
        };
        if !legal {
            let options = self.capture_options(card);
            if options.is_empty() {
                return Err(ActionError::illegal(
                    "invalid_capture",
                    format!(
                        "{card} captures nothing on this layout ({}); send \"capture\": []",
                        list(self.layout.cards().iter().copied())
                    ),
                ));
            }
            let names: Vec<String> = options
                .iter()
                .map(|o| {
                    let capture: Cards = self.in_layout_order(*o);
                    list(capture.iter().copied())
                })
                .collect();
            if wanted.is_empty() {
                return Err(ActionError::illegal(
                    "capture_compulsory",
                    format!(
                        "{card} can capture ({}), so it must: a card that can capture does capture",
                        names.join(" or ")
                    ),
                ));
            }
            return Err(ActionError::illegal(
                "invalid_capture",
                format!(
                    "{card} cannot capture {}; it captures {}",
                    list(capture.iter().copied()),
                    names.join(" or ")
                ),
            ));
        }
        let captured: Cards = self.in_layout_order(wanted);
        self.play_checked(seat, card, wanted, captured, events);
        Ok(())
    }

    /// The hand step of a valid play: `card` from `seat`'s hand takes `wanted`, which is
    /// `captured` in layout order (R15).
    fn play_checked(
        &mut self,
        seat: Seat,
        card: Card,
        wanted: CardSet,
        captured: Cards,
        events: &mut Vec<Event>,
    ) {
        self.hands[seat].remove(card);
        push_in_place(events, || Event::Play {
            seat,
            cards: Few::one(card),
            capture: captured.to_few(),
        });
        if self.resolve(seat, card, wanted, events) {
            return;
        }
        self.stock_step(seat, events);
    }

    fn choose(
        &mut self,
        seat: Seat,
        cards: &[Card],
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let Phase::StockChoice {
            card: flipped,
            choice,
        } = &self.phase
        else {
            return Err(ActionError::illegal(
                "nothing_to_choose",
                "there is no flipped card waiting for a choice; play a card from your hand",
            ));
        };
        let flipped = *flipped;
        let mut choice = choice.clone();
        let ok = match cards {
            [one] => choice.select(*one),
            _ => false,
        };
        let Some(set) = choice.resolved().filter(|_| ok) else {
            return Err(ActionError::illegal(
                "not_a_target",
                format!(
                    "the flipped {flipped} captures exactly one of {}, not {}",
                    list(choice.addable_set().iter()),
                    list(cards.iter().copied())
                ),
            ));
        };
        self.capture_checked(seat, flipped, set, events);
        Ok(())
    }

    /// The stock step of a valid choice: the `flipped` card takes `set`, one of its targets.
    fn capture_checked(
        &mut self,
        seat: Seat,
        flipped: Card,
        set: CardSet,
        events: &mut Vec<Event>,
    ) {
        self.phase = Phase::Play;
        push_in_place(events, || Event::Capture {
            seat,
            card: flipped,
            cards: self.in_layout_order(set),
        });
        if self.resolve(seat, flipped, set, events) {
            return;
        }
        self.end_turn(events);
    }

    /// Puts `card` and its capture in `seat`'s pile, or on the layout if it captures nothing.
    /// Returns true if the game ended (Taiwan race).
    fn resolve(
        &mut self,
        seat: Seat,
        card: Card,
        capture: CardSet,
        events: &mut Vec<Event>,
    ) -> bool {
        if capture.is_empty() {
            self.layout.add(card);
            return false;
        }
        let taken = self.layout.take(capture);
        if let Some(rank) = self.trio
            && self.layout.set().of_rank(rank).len() < 3
        {
            self.trio = None;
        }
        let mut gain = taken;
        gain.insert(card);
        self.piles[seat] = CardSet(self.piles[seat].0 | gain.0);
        if self.table.options.red_five_bonus
            && let Some(i) = RED_FIVES.iter().position(|c| *c == card)
            && taken.contains(RED_FIVES[1 - i])
        {
            self.red_fives[seat] += 1;
        }
        // Every card of a pile but the dealer's (an initial four of a kind, R8) came by a capture
        // checked here, below the target: a gain of no point card leaves it below (the points of
        // a pile are the sum of its cards'), and the race is asked only after one.
        if (gain.0 & scoring::TAIWAN_POINT_CARDS.0 != 0 || seat == self.dealer)
            && let Some(points) =
                scoring::race_reached(&self.table.options, self.table.players, self.piles[seat])
        {
            self.race_winner = Some(seat);
            events.push(Event::TargetReached { seat, points });
            self.score_deal(events);
            self.finish(events);
            return true;
        }
        false
    }

    fn stock_step(&mut self, seat: Seat, events: &mut Vec<Event>) {
        let Some(card) = self.stock.pop() else {
            self.end_turn(events);
            return;
        };
        push_in_place(events, || Event::Flip { seat, card });
        let (targets, together) = self.targets(card);
        // None, one or several targets, told apart without counting the bits.
        let several = targets.0 & targets.0.wrapping_sub(1) != 0;
        match targets.0 {
            0 => {
                self.layout.add(card);
                push_in_place(events, || Event::Trail { seat, card });
            }
            _ if !several || together => {
                let set = targets;
                push_in_place(events, || Event::Capture {
                    seat,
                    card,
                    // One target (nearly always) needs no look at the layout's order.
                    cards: if together {
                        self.in_layout_order(set)
                    } else {
                        Few::at_most_one(set)
                    },
                });
                if self.resolve(seat, card, set, events) {
                    return;
                }
            }
            _ => {
                self.phase = Phase::StockChoice {
                    card,
                    choice: CaptureChoice::new(self.capture_options(card)),
                };
                return;
            }
        }
        self.end_turn(events);
    }

    fn end_turn(&mut self, events: &mut Vec<Event>) {
        self.turns_left = self.turns_left.saturating_sub(1);
        // No division: the turn is below the player count.
        self.turn = if self.turn + 1 >= self.table.players {
            0
        } else {
            self.turn + 1
        };
        if self.turns_left == 0 {
            self.score_deal(events);
            if self.deal >= self.table.options.deal_count(self.table.players) {
                self.finish(events);
            } else {
                self.dealer = self.next_dealer();
                self.start_deal(events);
            }
        }
    }

    fn next_dealer(&self) -> Seat {
        let n = self.table.players;
        if self.table.options.ruleset != Ruleset::MainMerah {
            return (self.dealer + 1) % n;
        }
        // Read in place (no copy of the points); no last deal counts as all zero.
        let point = |s: Seat| match &self.last_deal {
            Some(d) => d.points.get(s).copied(),
            None => (s < n).then_some(0),
        };
        let mut best = (self.dealer + 1) % n;
        for k in 1..=n {
            let s = (self.dealer + k) % n;
            if point(s) < point(best) {
                best = s;
            }
        }
        best
    }

    fn score_deal(&mut self, events: &mut Vec<Event>) {
        // One scoring shared by the state and the event. Once the last deal's event is gone (a
        // playout clears its events), its lists are reused in place.
        let options = &self.table.options;
        let score = match self.last_deal.take() {
            Some(mut last) => {
                match Arc::get_mut(&mut last) {
                    Some(lists) => {
                        scoring::deal_score_into(options, &self.piles, &self.red_fives, lists)
                    }
                    None => {
                        last = Arc::new(scoring::deal_score(options, &self.piles, &self.red_fives))
                    }
                }
                last
            }
            None => Arc::new(scoring::deal_score(options, &self.piles, &self.red_fives)),
        };
        for (t, p) in self.totals.iter_mut().zip(&score.points) {
            *t += p;
        }
        push_in_place(events, || Event::DealScored {
            deal: self.deal,
            score: Arc::clone(&score),
            totals: self.totals.as_slice().into(),
        });
        self.last_deal = Some(score);
    }

    fn finish(&mut self, events: &mut Vec<Event>) {
        self.phase = Phase::Over;
        push_in_place(events, || Event::GameOver {
            ranking: self.ranking(),
        });
    }

    /// Ranking, best first (Taiwan race: the winner first, R16).
    pub fn ranking(&self) -> Ranking {
        let totals = &self.totals;
        let winner = self.race_winner;
        // One integer key: the racer's is i64::MIN, below every other seat's (a negated total,
        // saturated, is at least i64::MIN + 1); then by points.
        crate::game::Ranking::by_key(0..self.table.players, |s| {
            if winner == Some(s) {
                i64::MIN
            } else {
                totals.get(s).copied().unwrap_or(0).saturating_neg()
            }
        })
    }

    /// Every card in the game.
    pub fn all_cards(&self) -> Vec<Card> {
        let mut out: Vec<Card> = Vec::with_capacity(52);
        for h in &self.hands {
            out.extend(h.iter());
        }
        out.extend(self.layout.cards().iter().copied());
        out.extend(self.stock.iter().copied());
        for p in &self.piles {
            out.extend(p.iter());
        }
        if let Phase::StockChoice { card, .. } = &self.phase {
            out.push(*card);
        }
        out
    }
}

/// Player count allowed by a rule set (spec §7 `players`) and the Taiwan deal count.
pub fn check_ruleset_players(options: &Options, n: usize) -> Result<(), String> {
    match options.ruleset {
        Ruleset::Taiwan if n != 4 => Err(format!("the Taiwan rules are for 4 players, not {n}")),
        Ruleset::MainMerah if !(2..=3).contains(&n) => {
            Err(format!("Main Merah is for 2 or 3 players, not {n}"))
        }
        Ruleset::Taiwan if options.deal_count(n) != 1 => {
            Err("the Taiwan game is one deal: `deals` must be 1".into())
        }
        _ if options.deal_count(n) == 0 => Err("`deals` must be at least 1".into()),
        _ => Ok(()),
    }
}

/// Main Merah redeal check on the initial layout (spec §7, R9): the reason, if it must be redealt.
/// Three or more cards of a self-pairing rank, first in rank order; else five or more cards of one
/// class A/9, 2/8, 3/7, 4/6, first by low value. Counted on the layout's set, by masks.
pub fn main_merah_redeal(layout: &[Card]) -> Option<RedealReason> {
    let set = CardSet::from_cards(layout.iter().copied());
    for rank in scoring::SELF_PAIRING {
        if set.of_rank(rank).len() >= 3 {
            return Some(RedealReason::Three(rank));
        }
    }
    (1u32..=4).find_map(|low| {
        let class = STRANDING_CLASSES
            .get(low as usize)
            .copied()
            .unwrap_or_default();
        let count = CardSet(set.0 & class.0).len();
        (count >= 5).then_some(RedealReason::Stranded { count, low })
    })
}

/// The cards of each class A/9, 2/8, 3/7, 4/6 by its low value (1 to 4; index 0 unused): a
/// numeral's class is its own capture value or its complement to ten, whichever is lower; 5
/// pairs with itself (a self-pairing rank) and T-K have no value. Counted on the layout's set,
/// a mask per class: card by card, with a branch on each card's class, this was a twentieth of
/// a Main Merah playout.
static STRANDING_CLASSES: LazyLock<[CardSet; 5]> = LazyLock::new(|| {
    let mut classes = [CardSet::EMPTY; 5];
    for card in PackSpec::standard().cards() {
        if let Some(value) = scoring::capture_value(card).filter(|v| *v != 5)
            && let Some(class) = classes.get_mut(value.min(10 - value) as usize)
        {
            class.insert(card);
        }
    }
    classes
});

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
                let Some(hand) = self.hands.get(seat) else {
                    return;
                };
                // `capture_options` without its lists: this runs for every move of every game.
                // A card's targets are the layout cards of its partner rank, one mask test;
                // only two or more of them need the layout's order.
                let layout = self.layout.set();
                // The rank of an initial trio still whole on the layout, whose fourth card takes
                // all three (R7): three of the rank's four bits, told without counting them.
                let trio = self
                    .trio
                    .filter(|rank| scoring::three_of_rank(layout, *rank));
                for card in hand.iter() {
                    // The trio first: nearly always none, and then the rank is not looked up.
                    if let Some(trio) = trio
                        && let Some(rank) = card.rank()
                        && rank == trio
                    {
                        let three = layout.of_rank(rank);
                        push_in_place(out, || Action::Play {
                            cards: Cards::one(card),
                            capture: Cards::in_order(self.layout.cards(), three),
                        });
                        continue;
                    }
                    let targets = CardSet(scoring::pair_mask(card).0 & layout.0);
                    // R15: one play per target, in card order (no look at the layout's order:
                    // the targets are one rank's, told apart by suit), or the trail. Two plays are
                    // written for every card and the second kept only for a second target: no
                    // branch on how many a card has (random over a hand, and a missed guess cost
                    // more than the card's other work). Three or four targets are rare.
                    let second = targets.0 & targets.0.wrapping_sub(1);
                    let kept = out.len() + 1 + usize::from(second != 0);
                    push_in_place(out, || Action::Play {
                        cards: Cards::one(card),
                        capture: Cards::at_most_one(targets),
                    });
                    push_in_place(out, || Action::Play {
                        cards: Cards::one(card),
                        capture: Cards::at_most_one(CardSet(second)),
                    });
                    out.truncate(kept);
                    let more = second & second.wrapping_sub(1);
                    if more != 0 {
                        for target in CardSet(more).iter() {
                            push_in_place(out, || Action::Play {
                                cards: Cards::one(card),
                                capture: Cards::one(target),
                            });
                        }
                    }
                }
            }
            Phase::StockChoice { choice, .. } => {
                // R15 for the stock step: the flipped card's targets, in card order as a hand
                // card's are.
                for card in choice.addable_set().iter() {
                    push_in_place(out, || Action::Capture {
                        cards: Cards::one(card),
                    });
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
        match action {
            Action::Play { cards, capture } => self.play(seat, cards, capture, events),
            Action::Capture { cards } => self.choose(seat, cards, events),
        }
    }

    /// A listed action skips the checks: a listed play names one card of the hand and one of
    /// its capture options, in layout order (R15); a listed choice names one of the flipped
    /// card's targets.
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
        match action {
            // Listed captures are in layout order already (R15): the event takes them as they are.
            Action::Play { cards, capture }
                if seat == self.turn && matches!(self.phase, Phase::Play) =>
            {
                match cards.as_slice() {
                    [card] => {
                        self.play_checked(seat, *card, capture.set(), *capture, events);
                        Ok(())
                    }
                    _ => self.apply(seat, action, events),
                }
            }
            Action::Capture { cards } if seat == self.turn => match (cards.as_slice(), &self.phase)
            {
                ([card], Phase::StockChoice { card: flipped, .. }) => {
                    let flipped = *flipped;
                    self.capture_checked(seat, flipped, CardSet::from_cards([*card]), events);
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
            scores: self.totals.iter().map(|t| *t as f64).collect(),
            teams: None,
            details: serde_json::json!({
                "last_deal": self.last_deal.as_deref(),
                "target_reached_by": self.race_winner,
            }),
        })
    }

    /// Checks a state from outside (see `GameDef::validate`).
    fn validate(&self) -> Result<(), String> {
        let n = self.table.players;
        if !(2..=4).contains(&n) {
            return Err(format!("{n} players is not 2 to 4"));
        }
        check_ruleset_players(&self.table.options, n)?;
        for (name, len) in [
            ("hands", self.hands.len()),
            ("piles", self.piles.len()),
            ("red_fives", self.red_fives.len()),
            ("totals", self.totals.len()),
        ] {
            if len != n {
                return Err(format!("{name} has {len} entries for {n} players"));
            }
        }
        if self.dealer >= n || self.turn >= n {
            return Err("dealer or turn out of range".into());
        }
        if self.race_winner.is_some_and(|s| s >= n) || self.peek.is_some_and(|(s, _)| s >= n) {
            return Err("seat out of range".into());
        }
        if self.entries_used > self.stacked.len() + 1_000_000 || self.deal == 0 {
            return Err("deal counters out of range".into());
        }
        let mut seen = CardSet::EMPTY;
        let all = self.all_cards();
        for c in &all {
            if c.is_joker() || !seen.insert(*c) {
                return Err(format!("card {c} appears twice or is not in the pack"));
            }
        }
        if all.len() != 52 {
            return Err(format!("{} cards instead of 52", all.len()));
        }
        let (h, _) = scoring::sizes(self.table.options.ruleset, n);
        let in_hands: usize = self.hands.iter().map(|h| h.len()).sum();
        match &self.phase {
            Phase::Over => {}
            Phase::Play => {
                if self.turns_left == 0 || self.turns_left > n * h {
                    return Err("turns_left out of range".into());
                }
                if in_hands != self.turns_left || self.stock.len() != self.turns_left {
                    return Err("hands and stock do not match the turns left".into());
                }
                if self.hands[self.turn].is_empty() {
                    return Err("the player to act has no card".into());
                }
            }
            Phase::StockChoice { choice, card } => {
                if self.turns_left == 0
                    || in_hands + 1 != self.turns_left
                    || self.stock.len() + 1 != self.turns_left
                {
                    return Err("hands and stock do not match the turns left".into());
                }
                let layout = self.layout.set();
                if choice.options.len() < 2
                    || choice
                        .options
                        .iter()
                        .any(|o| o.0 & !layout.0 != 0 || o.is_empty())
                    || choice.resolved().is_some()
                    || layout.contains(*card)
                {
                    return Err("the pending stock choice is incoherent".into());
                }
            }
        }
        if let Some(rank) = self.trio
            && !scoring::self_pairing(rank)
        {
            return Err("trio of a rank that has none".into());
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::PlayoutRng;

    /// The redeal rule read as the spec states it (§7, R9), rank by rank and class by class: the
    /// oracle of the one-pass [`main_merah_redeal`].
    fn spec_redeal(layout: &[Card]) -> Option<String> {
        let set = CardSet::from_cards(layout.iter().copied());
        for rank in Rank::ALL {
            if scoring::self_pairing(rank) && set.of_rank(rank).len() >= 3 {
                return Some(format!("three or more {rank}s in the layout"));
            }
        }
        for low in 1u32..=4 {
            let count = layout
                .iter()
                .filter(
                    |c| matches!(scoring::capture_value(**c), Some(v) if v == low || v == 10 - low),
                )
                .count();
            if count >= 5 {
                return Some(format!(
                    "{count} cards of the {}/{} class in the layout: a card would be stranded",
                    low,
                    10 - low
                ));
            }
        }
        None
    }

    #[test]
    fn main_merah_redeal_is_the_spec_rule() {
        let mut pack = PackSpec::standard().cards();
        let mut rng = PlayoutRng::new(11);
        let mut redeals = 0;
        for round in 0..4000 {
            for i in (1..pack.len()).rev() {
                pack.swap(i, rng.below(i + 1));
            }
            let layout = &pack[..[4, 10, 12, 20][round % 4]];
            let got = main_merah_redeal(layout).map(|r| r.to_string());
            assert_eq!(got, spec_redeal(layout), "{layout:?}");
            redeals += usize::from(got.is_some());
        }
        assert!(redeals > 100, "{redeals}");
    }

    #[test]
    fn redeal_reasons_are_written_as_before() {
        let reason = RedealReason::Stranded { count: 5, low: 3 };
        assert_eq!(
            serde_json::to_value(reason).unwrap(),
            serde_json::json!("5 cards of the 3/7 class in the layout: a card would be stranded")
        );
        assert_eq!(
            RedealReason::Three(Rank::Queen).to_string(),
            "three or more Qs in the layout"
        );
    }
}
