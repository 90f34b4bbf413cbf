//! # 22 (Twenty-Two), with the gambling Cucumber option set
//!
//! A shedding trick game for 2-12 players (one 52-card pack up to 6 players, more packs beyond).
//! Each deal: players exchange once with the stock, then play tricks in which a follower either
//! *covers* the best play so far (componentwise on ascending ranks) or throws his lowest cards.
//! When every hand is down to one card, the holders of the highest last card take it as penalty
//! points; 22 or more and a player is out. Default: the last player in wins.
//!
//! The contract is the spec `shared/rules/twenty_two.md` (rulings R1-R31, examples E1-E15);
//! the project doc is `docs/rules/twenty_two.md`. Game ids: `twenty_two`, `twenty_two_short`,
//! `gambling_cucumber`.
//!
//! ## Some notes on this implementation
//! - Hands are multisets of card codes held as per-code counts ([`state::Hand`]): copies of
//!   several packs are interchangeable (§2.1) and suits only name cards.
//! - Plays carry an inline card list ([`action::Cards`], at most 12 cards): no allocation per
//!   move. Legal lists name every distinct multiset of codes once (R27), in ascending code order;
//!   covering follows are enumerated by a pruned walk over the hand's codes (position p of the
//!   ascending play must be >= position p of the target, R11), then the lowest-cards throws
//!   (R13) unless they cover.
//! - The exchange is offered in steps (R28): `discard` one card at a time, then `draw`.
//! - Automatic steps inside `apply`: skipped exchange turns, the last trick, penalties,
//!   eliminations of ineligible players, dealer draws and the next deal.
//! - Chance: `first_dealer`, then per deal one `shuffle` (with the stacked `deals` entry, R29),
//!   `loser_draw` / `dealer_draw` as §2.4 lists them. Several losers are drawn among in
//!   ascending seat order.
//! - Scores are the final penalty totals: lower is better.
//! - Speed (benches/playouts.rs, typed random playouts, legal generation included): about 9-10
//!   million applied actions per CPU-second for 2-6 players. Per-deal work (the shuffle through
//!   `deal_sequence`/ChaCha8) is the largest single cost, then play checks and set enumeration.

pub mod action;
pub mod rules;
pub mod scoring;
pub mod state;
pub mod view;

use crate::cards::{Card, PackSpec};
use crate::deal::parse_card_deals;
use crate::error::{ActionError, SetupError};
use crate::game::{Actors, Family, GameDef, GameResult, Seat, Setup, Viewer};
use crate::options::PlayerRange;
use crate::rng::GameRng;
use action::{Action, rank_of};
use rules::{FirstDealer, Options};
use state::{Hand, Phase, State};
use view::View;

/// The 22 family.
pub struct TwentyTwo;

const SUMMARY: &str = "Each deal every player gets 7 cards (later: the value of the last losing card, \
fewer when the pack runs short), may exchange cards once with the stock, then tricks are played: \
the leader plays a card or a set of equal cards (keeping at least one), each follower plays as many \
cards, either covering the best play so far card by card or throwing his lowest cards. The last \
player of the highest card wins the trick and leads. When one card is left each, the highest last \
card loses and its holder scores it (A 11, K/Q/J 10, pips face value) and keeps it out of the pack. \
At 22 points a player is out; the last player in wins.";

impl GameDef for TwentyTwo {
    type Options = Options;
    type State = State;
    type Action = Action;
    type Event = state::Event;
    type View = View;

    fn family() -> Family {
        Family {
            id: "twenty_two",
            name: "22 (Twenty-Two)",
            description: "Shedding trick game of the Cucumber family: avoid holding the highest last card.",
            rules_summary: SUMMARY,
            players: PlayerRange { min: 2, max: 12 },
            options: rules::option_specs(),
            presets: rules::presets(),
            players_when: Vec::new(),
        }
    }

    fn setup(setup: &Setup<Options>) -> Result<State, SetupError> {
        let n = setup.players;
        if !(2..=12).contains(&n) {
            return Err(SetupError::PlayerCount {
                game: "twenty_two".into(),
                min: 2,
                max: 12,
                got: n,
                alternatives: Vec::new(),
            });
        }
        let options = setup.options.clone();
        let packs = options.pack_count(n);
        if !(1..=3).contains(&packs) {
            return Err(SetupError::InvalidOptions(
                "option `packs` must be \"auto\" or an integer from 1 to 3".into(),
            ));
        }
        if !(10..=99).contains(&options.elimination_threshold) {
            return Err(SetupError::InvalidOptions(
                "option `elimination_threshold` must be an integer from 10 to 99".into(),
            ));
        }
        if let FirstDealer::Seat(seat) = options.first_dealer
            && seat >= n
        {
            return Err(SetupError::InvalidOptions(format!(
                "option `first_dealer` is seat {seat}, but a {n}-player game has seats 0 to {}",
                n - 1
            )));
        }
        let stacked = parse_card_deals(&setup.deals, &PackSpec::standard().copies(packs))?;
        let mut rng = GameRng::new(setup.seed);
        // R3: the first dealer is one uniform draw (event "first_dealer").
        let dealer = match options.first_dealer {
            FirstDealer::Seat(seat) => seat,
            FirstDealer::Random => rng.pick(n),
        };
        let stake = u32::from(options.has_stakes());
        let mut state = State {
            options,
            players: n,
            packs,
            seed: setup.seed,
            rng,
            stacked,
            deal: 0,
            dealer,
            leader: dealer,
            cards_each: 0,
            started_with: n,
            next_size: 7,
            totals: vec![0; n],
            eliminated_in: vec![None; n],
            bought_back: vec![false; n],
            stakes: vec![stake; n],
            markers: vec![Vec::new(); n],
            withheld: Vec::new(),
            hands: vec![Hand::default(); n],
            stock: Vec::new(),
            discards: Vec::new(),
            drawn: Vec::new(),
            plays: Vec::new(),
            winners: Vec::new(),
            target: 0,
            laid_aside: Vec::new(),
            revealed: Vec::new(),
            losers: Vec::new(),
            buy_back_queue: Vec::new(),
            fatal: Vec::new(),
            phase: Phase::Over,
        };
        state.start_deal(&mut Vec::new());
        Ok(state)
    }

    fn to_act(state: &State) -> Actors {
        match state.actor() {
            Some(seat) => Actors::One(seat),
            None => Actors::None,
        }
    }

    fn legal_actions(state: &State, seat: Seat, out: &mut Vec<Action>) {
        state.legal_actions(seat, out);
    }

    fn apply(
        state: &mut State,
        seat: Seat,
        action: &Action,
        events: &mut Vec<state::Event>,
    ) -> Result<(), ActionError> {
        state.apply(seat, action, events)
    }

    fn view(state: &State, viewer: Viewer) -> View {
        View::of(state, viewer)
    }

    fn result(state: &State) -> Option<GameResult> {
        scoring::result(state)
    }

    fn players(state: &State) -> usize {
        state.players
    }

    fn options(state: &State) -> &Options {
        &state.options
    }

    fn seed(state: &State) -> u64 {
        state.seed
    }

    fn validate(state: &State) -> Result<(), String> {
        validate(state)
    }

    fn pieces(state: &State) -> Vec<String> {
        live_cards(state).iter().map(|c| c.to_string()).collect()
    }

    fn heuristic(view: &View, legal: &[Action]) -> usize {
        heuristic(view, legal)
    }

    fn hidden_from(state: &State, viewer: Viewer) -> Vec<String> {
        view::hidden_from(state, viewer)
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
    let n = state.players;
    if !(2..=12).contains(&n) {
        return Err(format!("{n} players is outside 2..=12"));
    }
    if state.packs != state.options.pack_count(n) || !(1..=3).contains(&state.packs) {
        return Err(format!("{} packs do not match the options", state.packs));
    }
    if !(10..=99).contains(&state.options.elimination_threshold) {
        return Err("elimination_threshold must be 10..99".into());
    }
    if let FirstDealer::Seat(seat) = state.options.first_dealer
        && seat >= n
    {
        return Err(format!("first_dealer {seat} is not a seat"));
    }
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
    if state.seed != state.rng.seed {
        return Err("the rng seed differs from the game's seed".into());
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
            if state.options.play_style == rules::PlayStyle::Agurk {
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

/// The built-in bot: get rid of high cards, keep low ones (the last card decides).
/// Exchange: discard tens and higher, highest first. Leads: the highest card (all copies of it the
/// rule allows). Follows: the play with the highest ranks. Buy-back: accept.
fn heuristic(view: &View, legal: &[Action]) -> usize {
    let rank = |c: &Card| rank_of(c.index()) as u32;
    let mut best = (0usize, 0u64);
    let leading = view.target.is_none();
    for (i, action) in legal.iter().enumerate() {
        let score: u64 = match action {
            Action::Accept {} => 2,
            Action::Fold {} => 1,
            Action::Draw {} => 100,
            Action::Discard { card } if rank(card) >= 8 => 200 + rank(card) as u64,
            Action::Discard { .. } => 0,
            Action::Play { cards } => {
                let list = cards.as_slice();
                let top = list.iter().map(rank).max().unwrap_or(0) as u64;
                let sum: u64 = list.iter().map(|c| rank(c) as u64).sum();
                if leading {
                    top * 100 + list.len() as u64
                } else {
                    sum * 100 + top
                }
            }
        };
        if i == 0 || score > best.1 {
            best = (i, score);
        }
    }
    best.0
}
