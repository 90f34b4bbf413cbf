//! State and flow of Tjak-mat-tchi-ki: first-player draw, deal, the acquire / lay / discard turn,
//! wins and the responsibility payment, next hand.

use super::action::{Action, Event};
use super::combination::{
    SET_SIZE, TILE_OF_RANK, TileMask, bit, is_koan_a, mask, partner, partners, rank, tile_set,
};
use super::rules::{FirstPlayer, NoWinnerNext, Options, TakeFrom};
use super::view;
use super::view::View;
use crate::deal::deal_sequence_inline;
use crate::error::{ActionError, SetupError};
use crate::game::{Actors, GameResult, GameState, Table, Viewer};
use crate::game::{Seat, Setup};
use crate::rng::GameRng;
use crate::tiles::{Tile, TileList, parse_tile_deals};
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;
use std::sync::LazyLock;

/// Tiles each non-first player is dealt (the first player gets one more).
pub const HAND: usize = 5;

/// The set in canonical order, built once: a hand is short and every hand (and every round of
/// the first-player draw) starts from it.
static SET: LazyLock<Vec<Tile>> = LazyLock::new(|| tile_set().tiles());

/// The phase of the current turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The seat to act takes a discard or draws.
    Acquire,
    /// The seat to act discards.
    Discard,
    /// The game is over.
    Over,
}

/// A face-up discard lying on the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Discard {
    /// The tile.
    pub tile: Tile,
    /// Who discarded it.
    pub seat: Seat,
}

/// How a hand was won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WinBy {
    /// The first player's dealt tiles made three pairs.
    Dealt,
    /// The third pair was completed by a drawn tile.
    Draw,
    /// The third pair was completed by taking a discard.
    Take,
}

/// The public record of one finished hand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct HandRecord {
    /// Hand number, from 1.
    pub hand: u32,
    /// First player.
    pub first_player: Seat,
    /// Winner, if any.
    pub winner: Option<Seat>,
    /// How the hand was won.
    pub by: Option<WinBy>,
    /// The discarder of the winning tile (win by take).
    pub responsible: Option<Seat>,
    /// Chips won (+) or paid (−) per seat.
    pub payoffs: Vec<i64>,
}

/// One round of the first-player draw: the tile each drawing seat got.
pub type DrawRound = Vec<(Seat, Tile)>;

/// The full state of a game.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct State {
    /// The shared header: players, options, the RNG and its seed.
    pub table: Table<Options>,
    /// Stacked deals.
    #[serde(rename = "deals")]
    pub stacked: Vec<Vec<Tile>>,
    /// Deals consumed (the next entry's index).
    pub deals_used: usize,
    /// Hands finished.
    #[serde(rename = "hands_done")]
    pub deals_played: u32,
    /// First player of this hand.
    pub first_player: Seat,
    /// Concealed tiles per seat (sorted).
    pub concealed: Vec<Vec<Tile>>,
    /// Laid pairs per seat.
    pub laid: Vec<Vec<[Tile; 2]>>,
    /// The face-down reserve, the top (next drawn) first.
    pub reserve: Vec<Tile>,
    /// Face-up discards on the table, oldest first (taken ones removed).
    pub discards: Vec<Discard>,
    /// Seats that have had their first turn (dealt pairs laid).
    pub started: Vec<bool>,
    /// Phase.
    pub phase: Phase,
    /// Seat to act.
    pub turn: Seat,
    /// Chips per seat.
    pub chips: Vec<i64>,
    /// The first-player draw of hand 1 (rounds; public).
    pub draws: Vec<DrawRound>,
    /// Finished hands.
    pub history: Vec<HandRecord>,
}

/// The outcome of one round of the first-player draw (§2, R7): the first player, or the tied
/// seats who draw again.
pub fn decide_draw(round: &[(Seat, Tile)]) -> Result<Seat, Vec<Seat>> {
    if let Some(&(seat, _)) = round.iter().find(|(_, t)| is_koan_a(*t)) {
        return Ok(seat);
    }
    let best = round.iter().map(|(_, t)| t.pips()).max().unwrap_or(0);
    let tied: Vec<Seat> = round
        .iter()
        .filter(|(_, t)| t.pips() == best)
        .map(|(s, _)| *s)
        .collect();
    match tied.as_slice() {
        [one] => Ok(*one),
        _ => Err(tied),
    }
}

impl State {
    /// Sets up the game: first-player draw (unless fixed) and hand 1.
    pub fn new(setup: &Setup<Options>, events: &mut Vec<Event>) -> Result<State, SetupError> {
        let n = setup.players;
        if !(2..=4).contains(&n) {
            return Err(SetupError::InvalidOptions(format!(
                "Tjak-mat-tchi-ki is played by 2, 3 or 4 players, not {n}"
            )));
        }
        if let FirstPlayer::Seat(s) = setup.options.first_player
            && s >= n
        {
            return Err(SetupError::InvalidOptions(format!(
                "option `first_player` must be \"draw\" or a seat from 0 to {}, not {s}",
                n - 1
            )));
        }
        let deals = parse_tile_deals(&setup.deals, &tile_set())?;
        let mut state = State {
            table: Table {
                players: n,
                options: setup.options.clone(),
                rng: GameRng::new(setup.seed),
            },
            stacked: deals,
            deals_used: 0,
            deals_played: 0,
            first_player: 0,
            concealed: vec![Vec::new(); n],
            laid: vec![Vec::new(); n],
            reserve: Vec::new(),
            discards: Vec::new(),
            started: vec![false; n],
            phase: Phase::Acquire,
            turn: 0,
            chips: vec![setup.options.start_chips; n],
            draws: Vec::new(),
            history: Vec::new(),
        };
        state.first_player = match setup.options.first_player {
            FirstPlayer::Seat(s) => s,
            FirstPlayer::Draw(_) => state.draw_first_player(),
        };
        state.start_hand(events);
        Ok(state)
    }

    /// The first-player draw (§2, R7, R11): shuffled tiles handed out in seat order, redraws among
    /// the tied from a fresh shuffle.
    fn draw_first_player(&mut self) -> Seat {
        let mut drawing: Vec<Seat> = (0..self.table.players).collect();
        // Each round leaves fewer tied seats with probability > 0; the cap only bounds the loop.
        for _ in 0..1000 {
            let mut tiles: SmallVec<[Tile; 64]> = SmallVec::from_slice(&SET);
            self.table.rng.shuffle(&mut tiles);
            let round: DrawRound = drawing.iter().copied().zip(tiles).collect();
            let outcome = decide_draw(&round);
            self.draws.push(round);
            match outcome {
                Ok(seat) => return seat,
                Err(tied) => drawing = tied,
            }
        }
        drawing.first().copied().unwrap_or(0)
    }

    /// The seat after `seat` (a seat of the game), without a division: it runs on every discard.
    fn next(&self, seat: Seat) -> Seat {
        if seat + 1 >= self.table.players {
            0
        } else {
            seat + 1
        }
    }

    /// Deals a hand (R12) and plays the first player's automatic start.
    fn start_hand(&mut self, events: &mut Vec<Event>) {
        let n = self.table.players;
        let f = self.first_player;
        let entry = self.stacked.get(self.deals_used).map(|e| e.as_slice());
        self.deals_used += 1;
        let sequence = deal_sequence_inline(&SET, entry, &mut self.table.rng);
        // Hands, laid pairs and the reserve are emptied in place (their lists are reused).
        self.concealed.resize_with(n, Vec::new);
        self.laid.resize_with(n, Vec::new);
        self.concealed.iter_mut().for_each(Vec::clear);
        self.laid.iter_mut().for_each(Vec::clear);
        self.discards.clear();
        self.started.clear();
        self.started.resize(n, false);
        // Hands are collected as masks and written out in rank order, which is sorted order (no
        // sort per hand); a tile outside the set (none in a valid deal) takes the plain way.
        let mut hands: [TileMask; 4] = [0; 4];
        let dealt = sequence.len().min(HAND * n + 1);
        let (mut by_mask, mut all) = (n <= hands.len(), 0);
        // Seat `(f + i) % n` for tile i, counted round rather than divided for every tile.
        let mut next_seat = f;
        for (i, &tile) in sequence[..dealt].iter().enumerate() {
            let seat = if i < HAND * n { next_seat } else { f };
            next_seat = if next_seat + 1 >= n { 0 } else { next_seat + 1 };
            match hands.get_mut(seat) {
                Some(hand) if bit(tile) & !all != 0 => *hand |= bit(tile),
                _ => by_mask = false,
            }
            all |= bit(tile);
        }
        if by_mask {
            for (hand, &m) in self.concealed.iter_mut().zip(&hands) {
                push_ranks(hand, m);
            }
        } else {
            for (i, &tile) in sequence[..dealt].iter().enumerate() {
                let seat = if i < HAND * n { (f + i) % n } else { f };
                self.concealed[seat].push(tile);
            }
            for hand in &mut self.concealed {
                hand.sort();
            }
        }
        self.reserve.clear();
        self.reserve.extend_from_slice(&sequence[dealt..]);
        events.push(Event::Deal {
            hand: self.deals_played + 1,
            first_player: f,
        });
        // The first player lays dealt pairs and may win at once; otherwise discards.
        self.started[f] = true;
        self.lay_pairs(f, events);
        if self.laid[f].len() == 3 {
            self.win(f, WinBy::Dealt, None, events);
        } else {
            self.phase = Phase::Discard;
            self.turn = f;
        }
    }

    /// Lays every pair in `seat`'s concealed hand (R5).
    fn lay_pairs(&mut self, seat: Seat, events: &mut Vec<Event>) {
        let m = mask(&self.concealed[seat]);
        let paired = m & partners(m);
        if paired == 0 {
            return;
        }
        // Pairs are laid in the order their first tile comes in the hand (partners are unique
        // and mutual, so each paired tile's partner is the other paired tile of its pair).
        let mut laid: TileMask = 0;
        for i in 0..self.concealed[seat].len() {
            let tile = self.concealed[seat][i];
            if paired & bit(tile) & !laid == 0 {
                continue;
            }
            let Some(other) = partner(tile) else {
                continue;
            };
            laid |= bit(tile) | bit(other);
            self.lay(seat, tile, other, events);
        }
        self.concealed[seat].retain(|t| paired & bit(*t) == 0);
    }

    /// Adds an acquired `tile` to `seat`'s hand: the pair it makes with a concealed partner is
    /// laid (R5), otherwise the tile goes to its sorted place. After a seat's first turn its hand
    /// holds no pair (validation checks it), so the new tile is the only one that can pair.
    fn acquire(&mut self, seat: Seat, tile: Tile, events: &mut Vec<Event>) {
        let hand = &mut self.concealed[seat];
        let at = partner(tile).and_then(|p| hand.iter().position(|t| key(*t) == key(p)));
        if let Some(j) = at {
            let other = hand.remove(j);
            self.lay(seat, tile, other, events);
        } else {
            let at = hand.partition_point(|t| key(*t) <= key(tile));
            hand.insert(at, tile);
        }
    }

    /// Lays the pair of `a` and `b` (taken out of the hand already), lower tile first.
    fn lay(&mut self, seat: Seat, a: Tile, b: Tile, events: &mut Vec<Event>) {
        let pair = if key(a) <= key(b) { [a, b] } else { [b, a] };
        self.laid[seat].push(pair);
        events.push(Event::Lay { seat, tiles: pair });
    }

    /// The discards `seat` may take now, in table order.
    pub fn takeable(&self, seat: Seat) -> Vec<Discard> {
        self.takeable_iter(seat).collect()
    }

    /// [`State::takeable`] without collecting (the turn loop only asks "any?" or "this one?").
    fn takeable_iter(&self, seat: Seat) -> impl Iterator<Item = Discard> + '_ {
        let wanted = self.wanted(seat);
        self.live_discards()
            .iter()
            .filter(move |d| wanted & bit(d.tile) != 0 && d.seat != seat)
            .copied()
    }

    /// The tiles that pair with one of `seat`'s concealed tiles (R1, R2).
    fn wanted(&self, seat: Seat) -> TileMask {
        partners(self.concealed.get(seat).map_or(0, |h| mask(h)))
    }

    /// The discards that may be taken by someone (R4, R13): the last one, or all.
    fn live_discards(&self) -> &[Discard] {
        let from = match self.table.options.take_from {
            TakeFrom::LastDiscard => self.discards.len().saturating_sub(1),
            TakeFrom::AnyTableTile => 0,
        };
        &self.discards[from..]
    }

    /// The next player's turn begins: dealt pairs laid on the first turn, and the hand ends
    /// without a winner when the seat can neither take nor draw (R6).
    fn begin_turn(&mut self, seat: Seat, events: &mut Vec<Event>) {
        if !self.started[seat] {
            self.started[seat] = true;
            self.lay_pairs(seat, events);
        }
        if self.reserve.is_empty() && self.takeable_iter(seat).next().is_none() {
            let record = HandRecord {
                hand: self.deals_played + 1,
                first_player: self.first_player,
                winner: None,
                by: None,
                responsible: None,
                payoffs: vec![0; self.table.players],
            };
            self.first_player = match self.table.options.no_winner_next {
                NoWinnerNext::Same => self.first_player,
                NoWinnerNext::NextSeat => self.next(self.first_player),
            };
            self.finish_hand(record, events);
        } else {
            self.phase = Phase::Acquire;
            self.turn = seat;
        }
    }

    fn one_tile(tiles: &[Tile], what: &str) -> Result<Tile, ActionError> {
        match tiles {
            [tile] => Ok(*tile),
            _ => Err(ActionError::illegal(
                "one_tile_expected",
                format!(
                    "{what} names exactly one tile, not [{}]",
                    tiles
                        .iter()
                        .map(|t| t.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
            )),
        }
    }

    fn why_not_take(&self, seat: Seat, tile: Tile) -> ActionError {
        let on_table = self.discards.iter().find(|d| d.tile == tile);
        match on_table {
            None => ActionError::illegal(
                "not_on_table",
                format!("{tile} is not a face-up discard on the table"),
            ),
            Some(d) if d.seat == seat => ActionError::illegal(
                "own_discard",
                format!("{tile} is your own discard: you cannot take it back"),
            ),
            Some(_)
                if self.table.options.take_from == TakeFrom::LastDiscard
                    && self.discards.last().map(|d| d.tile) != Some(tile) =>
            {
                ActionError::illegal(
                    "dead_discard",
                    format!("{tile} is a dead discard: only the last discard may be taken"),
                )
            }
            Some(_) => ActionError::illegal(
                "no_pair",
                format!(
                    "{tile} pairs with {} only, which you do not hold: draw instead",
                    partner(tile).map_or_else(|| "nothing".to_string(), |p| p.to_string())
                ),
            ),
        }
    }

    /// `seat` takes the discard at `at` (takeable: `tile`, live, not its own).
    fn take_discard(&mut self, seat: Seat, at: usize, tile: Tile, events: &mut Vec<Event>) {
        let discard = self.discards.remove(at);
        events.push(Event::Take {
            seat,
            tiles: one(tile),
            from: discard.seat,
        });
        self.acquire(seat, tile, events);
        self.after_acquire(seat, WinBy::Take, Some(discard.seat), events);
    }

    /// `seat` discards `tile`, its concealed tile at `pos`, and the next turn begins.
    fn discard_at(&mut self, seat: Seat, pos: usize, tile: Tile, events: &mut Vec<Event>) {
        self.concealed[seat].remove(pos);
        self.discards.push(Discard { tile, seat });
        events.push(Event::Discard {
            seat,
            tiles: one(tile),
        });
        let next = self.next(seat);
        self.begin_turn(next, events);
    }

    fn after_acquire(
        &mut self,
        seat: Seat,
        by: WinBy,
        from: Option<Seat>,
        events: &mut Vec<Event>,
    ) {
        if self.laid[seat].len() >= 3 {
            self.win(seat, by, from, events);
        } else {
            self.phase = Phase::Discard;
        }
    }

    /// Settles a win (§5).
    fn win(&mut self, seat: Seat, by: WinBy, responsible: Option<Seat>, events: &mut Vec<Event>) {
        let n = self.table.players as i64;
        let c = self.table.options.stake;
        let mut payoffs = vec![0; self.table.players];
        match (by, responsible) {
            (WinBy::Take, Some(r)) => {
                payoffs[r] -= c * (n - 1);
            }
            _ => {
                for (s, p) in payoffs.iter_mut().enumerate() {
                    if s != seat {
                        *p -= c;
                    }
                }
            }
        }
        payoffs[seat] += c * (n - 1);
        let record = HandRecord {
            hand: self.deals_played + 1,
            first_player: self.first_player,
            winner: Some(seat),
            by: Some(by),
            responsible: if by == WinBy::Take { responsible } else { None },
            payoffs,
        };
        self.first_player = seat;
        self.finish_hand(record, events);
    }

    fn finish_hand(&mut self, record: HandRecord, events: &mut Vec<Event>) {
        for (chips, pay) in self.chips.iter_mut().zip(&record.payoffs) {
            *chips += pay;
        }
        self.deals_played += 1;
        self.history.push(record.clone());
        events.push(Event::HandEnd {
            record: Box::new(record),
        });
        if self.deals_played >= self.table.options.hands {
            self.phase = Phase::Over;
            events.push(Event::GameOver {
                chips: self.chips.clone(),
            });
        } else {
            self.start_hand(events);
        }
    }

    /// Every tile in the game.
    pub fn all_tiles(&self) -> Vec<Tile> {
        let mut all: Vec<Tile> = Vec::with_capacity(32);
        for seat in 0..self.table.players {
            all.extend(self.concealed.get(seat).into_iter().flatten());
            all.extend(self.laid.get(seat).into_iter().flatten().flatten());
        }
        all.extend(&self.reserve);
        all.extend(self.discards.iter().map(|d| d.tile));
        all
    }
}

/// A one-tile list. Its inline buffer is copied whole from a table: one built from the tile's
/// three bytes on the stack is read back in wider loads, which stall (a quarter of a playout).
#[inline]
fn one(tile: Tile) -> TileList {
    let buf = rank(tile).map_or([tile; 4], |r| ONE_BUF[r]);
    TileList::from_buf_and_len(buf, 1)
}

/// Per rank: the inline buffer of the tile's one-tile list.
static ONE_BUF: [[Tile; 4]; SET_SIZE] = {
    let mut bufs = [[TILE_OF_RANK[0]; 4]; SET_SIZE];
    let mut r = 0;
    while r < SET_SIZE {
        bufs[r] = [TILE_OF_RANK[r]; 4];
        r += 1;
    }
    bufs
};

/// A tile as one number with the same order and equality as `Tile` (low, high, copy): one
/// comparison instead of three in the hand and table scans.
#[inline]
fn key(t: Tile) -> u32 {
    (t.low() as u32) << 16 | (t.high() as u32) << 8 | t.copy() as u32
}

/// Appends the tiles of `m` in rank order, which is sorted order.
fn push_ranks(hand: &mut Vec<Tile>, mut m: TileMask) {
    while m != 0 {
        hand.push(TILE_OF_RANK[m.trailing_zeros() as usize]);
        m &= m - 1;
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

    /// Legal actions of `seat`: takes in table order, then `draw`; or one discard per tile.
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        if self.phase == Phase::Over || seat != self.turn {
            return;
        }
        match self.phase {
            Phase::Acquire => {
                // A plain loop: `extend` from a filter grows the list piecewise. The rarely true
                // test comes first: the seat test alone is a coin flip for the branch predictor.
                let wanted = self.wanted(seat);
                for d in self.live_discards() {
                    if wanted & bit(d.tile) != 0 && d.seat != seat {
                        out.push(Action::Take { tiles: one(d.tile) });
                    }
                }
                if !self.reserve.is_empty() {
                    out.push(Action::Draw {});
                }
            }
            Phase::Discard => {
                if let Some(hand) = self.concealed.get(seat) {
                    out.extend(hand.iter().map(|t| Action::Discard { tiles: one(*t) }));
                }
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
            (Phase::Acquire, Action::Take { tiles }) => {
                let tile = Self::one_tile(tiles, "a take")?;
                // The tiles on the table are distinct, so the takeable discard of `tile` is the
                // one in the live part with that tile.
                let live = self.live_discards();
                let start = self.discards.len() - live.len();
                let found = if self.wanted(seat) & bit(tile) != 0 {
                    live.iter()
                        .position(|d| key(d.tile) == key(tile) && d.seat != seat)
                } else {
                    None
                };
                let Some(at) = found else {
                    return Err(self.why_not_take(seat, tile));
                };
                self.take_discard(seat, start + at, tile, events);
                Ok(())
            }
            (Phase::Acquire, Action::Draw {}) => {
                if self.reserve.is_empty() {
                    return Err(ActionError::illegal(
                        "reserve_empty",
                        "the reserve is empty: you cannot draw",
                    ));
                }
                let tile = self.reserve.remove(0);
                events.push(Event::Draw { seat });
                self.acquire(seat, tile, events);
                self.after_acquire(seat, WinBy::Draw, None, events);
                Ok(())
            }
            (Phase::Discard, Action::Discard { tiles }) => {
                let tile = Self::one_tile(tiles, "a discard")?;
                let Some(pos) = self.concealed[seat]
                    .iter()
                    .position(|t| key(*t) == key(tile))
                else {
                    return Err(ActionError::illegal(
                        "tile_not_in_hand",
                        format!("{tile} is not among your concealed tiles"),
                    ));
                };
                self.discard_at(seat, pos, tile, events);
                Ok(())
            }
            (Phase::Acquire, Action::Discard { .. }) => Err(ActionError::illegal(
                "must_acquire",
                "first take the last discard (if it pairs with one of your tiles) or draw, then discard",
            )),
            (Phase::Discard, _) => Err(ActionError::illegal(
                "must_discard",
                "you have acquired a tile this turn: now discard one",
            )),
            (Phase::Over, _) => Err(ActionError::GameOver),
        }
    }

    /// A listed take or discard skips the checks its listing made (one tile, takeable or held):
    /// only its place is looked up; every other listed action goes through `apply`.
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
        match (self.phase, action) {
            (Phase::Acquire, Action::Take { tiles }) if tiles.len() == 1 => {
                let tile = tiles[0];
                let start = self.discards.len() - self.live_discards().len();
                let found = self.discards[start..]
                    .iter()
                    .position(|d| key(d.tile) == key(tile) && d.seat != seat);
                match found {
                    Some(at) => {
                        self.take_discard(seat, start + at, tile, events);
                        Ok(())
                    }
                    None => self.apply(seat, action, events),
                }
            }
            (Phase::Discard, Action::Discard { tiles }) if tiles.len() == 1 => {
                let tile = tiles[0];
                let found = self.concealed[seat]
                    .iter()
                    .position(|t| key(*t) == key(tile));
                match found {
                    Some(pos) => {
                        self.discard_at(seat, pos, tile, events);
                        Ok(())
                    }
                    None => self.apply(seat, action, events),
                }
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
        let chips = &self.chips;
        Some(GameResult {
            ranking: GameResult::ranking_by_key(0..self.table.players, |s| -chips[s]),
            scores: chips.iter().map(|&c| c as f64).collect(),
            teams: None,
            details: serde_json::json!({
                "chips": chips,
                "hands": self.history,
            }),
        })
    }

    /// Checks a state from outside.
    fn validate(&self) -> Result<(), String> {
        let n = self.table.players;
        if !(2..=4).contains(&n) {
            return Err(format!("{n} players is outside 2..=4"));
        }
        if self.concealed.len() != n
            || self.laid.len() != n
            || self.started.len() != n
            || self.chips.len() != n
        {
            return Err("concealed, laid, started and chips need one entry per seat".into());
        }
        if self.turn >= n || self.first_player >= n {
            return Err("turn or first player out of range".into());
        }
        if !(1..=1000).contains(&self.table.options.hands)
            || !(1..=1_000_000).contains(&self.table.options.stake)
            || self.table.options.start_chips.abs() > 1_000_000_000
        {
            return Err("hands, stake or start_chips out of range".into());
        }
        // Bounds that keep every later addition and multiplication far from overflowing.
        if self.chips.iter().any(|c| c.abs() > 1_000_000_000_000)
            || self.deals_used > 1_000_000
            || self.table.rng.events > u64::MAX / 2
        {
            return Err("chips or a counter out of range".into());
        }
        if let FirstPlayer::Seat(s) = self.table.options.first_player
            && s >= n
        {
            return Err("option first_player is not a seat".into());
        }
        let mut all = self.all_tiles();
        all.sort();
        let mut set = tile_set().tiles();
        set.sort();
        if all != set {
            return Err("the tiles are not exactly the 32-tile set".into());
        }
        if self.discards.iter().any(|d| d.seat >= n) {
            return Err("a discard's seat is out of range".into());
        }
        for laid in &self.laid {
            if laid.len() > 3 || laid.iter().any(|[a, b]| partner(*a) != Some(*b)) {
                return Err("a laid pair is not a pair".into());
            }
        }
        let over = self.deals_played >= self.table.options.hands;
        if over != (self.phase == Phase::Over) {
            return Err("the phase does not agree with the number of hands played".into());
        }
        // Hand sizes per phase (R12): every seat holds HAND tiles (concealed plus laid pairs)
        // between turns; the seat to discard holds one more; a finished game leaves the last
        // winner with HAND + 1. Anything else would let a move reach an impossible hand.
        let last_winner = self.history.last().and_then(|h| h.winner);
        for seat in 0..n {
            let total = self.concealed[seat].len() + 2 * self.laid[seat].len();
            let want = match self.phase {
                Phase::Discard if seat == self.turn => HAND + 1,
                Phase::Acquire | Phase::Discard => HAND,
                Phase::Over if Some(seat) == last_winner => total.clamp(HAND, HAND + 1),
                Phase::Over => HAND,
            };
            if total != want {
                return Err(format!(
                    "seat {seat} holds {total} tiles in the {:?} phase, not {want}",
                    self.phase
                ));
            }
            if !self.started[seat] && !self.laid[seat].is_empty() {
                return Err(format!("seat {seat} laid pairs before its first turn"));
            }
            let hand = &self.concealed[seat];
            if !hand.is_sorted() {
                return Err(format!("seat {seat}'s concealed tiles are not in order"));
            }
            // R5: a seat lays every pair it holds from its first turn on.
            if self.started[seat]
                && let Some((tile, other)) = hand
                    .iter()
                    .find_map(|t| partner(*t).filter(|p| hand.contains(p)).map(|p| (*t, p)))
            {
                return Err(format!(
                    "seat {seat} holds the pair {tile} {other} but did not lay it (R5)"
                ));
            }
            if self.phase != Phase::Over && self.laid[seat].len() >= 3 {
                return Err(format!("seat {seat} has three pairs but the hand goes on"));
            }
        }
        if self.phase != Phase::Over && !self.started[self.turn] {
            return Err("the seat to act has not had its first turn".into());
        }
        if self.phase == Phase::Discard && self.concealed[self.turn].is_empty() {
            return Err("the seat to discard has no concealed tile".into());
        }
        if self.phase == Phase::Acquire
            && self.reserve.is_empty()
            && self.takeable(self.turn).is_empty()
        {
            return Err("the seat to act can neither take nor draw (R6 ends such a hand)".into());
        }
        Ok(())
    }

    fn pieces(&self) -> Vec<String> {
        self.all_tiles().iter().map(|t| t.to_string()).collect()
    }

    fn hidden_from(&self, viewer: Viewer) -> Vec<String> {
        view::hidden_from(self, viewer)
    }

    fn determinize(&self, seat: Seat, rng: &mut crate::rng::PlayoutRng) -> Option<Self> {
        view::determinize(self, seat, rng)
    }
}
