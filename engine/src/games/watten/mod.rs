//! # Watten
//!
//! The Watten family of the Alpine region, one shared core with seven rulesets selected by the
//! option `variant`: Bavarian (default; game id `watten`), Austrian (`watten_austrian`),
//! Carinthian (`watten_carinthian`), Tyrolean (`watten_tyrolean`), Kritische
//! (`watten_kritische`), Blind (`watten_blind`) and Bohemian (`watten_bohemian`).
//! Spec: `shared/rules/watten.md`; project doc: `docs/rules/watten.md`.
//!
//! 2–4 players (4 in fixed partnerships {0,2} v {1,3}; 3 players: E alone against a pair that
//! changes every deal), 32 or 33 cards (with the Weli 6D), 5 cards each. E names the Schlag (trump
//! rank), the dealer the trump suit; the first side to take 3 tricks scores the deal's value (2,
//! more if raised). Bohemian Watten: 2–6 players each for himself, trump from the bottom card,
//! exchange, follow-and-beat, scores count down from 20.
//!
//! ## Some notes on this implementation
//! - Raises ("Gehen") are actions out of turn: under `raise_timing=any_time` (the spec default)
//!   `to_act` lists the seat to play first and then every seat that may raise, or both responders
//!   of a pending raise (§3.4.6). Every published id defaults to `on_turn` (R71; one actor at a
//!   time, as ranked play needs); API users may request `any_time`.
//! - Variant-dependent defaults (`target`, `new_cards`, `guate`, `weli_mode`) and the refusal of
//!   options given for a variant or player count they do not apply to (R64) are done by
//!   [`rules::resolve`], through the additive `GameDef::resolve_options` hook.
//! - After a deal ends, the next one is dealt inside the same `apply`; the finished deal's
//!   Schlag, trump and Blind designations are published in the `deal_end` event and its summary
//!   (without cards) in `last_deal`. A view never lists cards of a finished deal, so it cannot show
//!   a code that is hidden in the next deal.
//! - 3 players: the final `result.teams` is `None` (the solo/pair split changes every deal, §5.2);
//!   the ranking is individual.

pub mod action;
pub mod rules;
pub mod scoring;
pub mod state;
pub mod view;

use crate::cards::{Card, CardSet, Rank, Suit};
use crate::deal::parse_card_deals;
use crate::error::{ActionError, SetupError};
use crate::game::{Actors, Family, GameDef, GameResult, Seat, Setup, Viewer};
use crate::options::PlayerRange;
pub use action::Action;
pub use rules::{Options, Variant};
use scoring::Roles;
use serde_json::{Map, Value, json};
pub use state::{Event, Phase, State};
pub use view::View;

/// The Watten family.
pub struct Watten;

const RULES_SUMMARY: &str = "Each deal every player holds 5 cards; the side that first takes 3 tricks scores the deal's value (2, or more after raises). \
Eldest names the Schlag (a trump rank) and the dealer the trump suit; the card with both (Hauptschlag / Rechte) ranks just below the permanent criticals \
(Bavarian Maxi KH, Belli 7D, Spitz 7C), then the other Schlag cards, then the trump suit. There is no duty to follow suit except narrow trump-lead duties. \
During play either side may raise ('gehen'); the other side must accept, fold (the raiser scores the value before the raise) or raise back. \
First side to the target (11, or 15 in the Tyrolean family) wins. Variants: Austrian, Carinthian, Tyrolean (Weli, new cards), Kritische, Blind (secret trump), Bohemian (each for himself, scores count down).";

impl GameDef for Watten {
    type Options = Options;
    type State = State;
    type Action = Action;
    type Event = Event;
    type View = View;

    fn family() -> Family {
        Family {
            id: "watten",
            name: "Watten",
            description: "The Alpine trick-taking game with separately named trump rank and suit, criticals and raising; Bavarian, Austrian, Carinthian, Tyrolean, Kritische, Blind and Bohemian rules.",
            rules_summary: RULES_SUMMARY,
            players: PlayerRange { min: 2, max: 6 },
            options: rules::option_specs(),
            presets: rules::presets(),
            players_when: rules::players_when(),
        }
    }

    fn resolve_options(
        _players: usize,
        requested: &Map<String, Value>,
        merged: &mut Map<String, Value>,
    ) -> Result<(), SetupError> {
        rules::resolve(requested, merged)
    }

    fn setup(setup: &Setup<Options>) -> Result<State, SetupError> {
        rules::check_players(&setup.options, setup.players)?;
        let stacked = parse_card_deals(&setup.deals, &setup.options.pack())?;
        let mut events = Vec::new();
        Ok(State::new(
            setup.options.clone(),
            setup.players,
            setup.seed,
            stacked,
            &mut events,
        ))
    }

    fn to_act(state: &State) -> Actors {
        state.to_act()
    }

    fn legal_actions(state: &State, seat: Seat, out: &mut Vec<Action>) {
        state.legal_actions(seat, out);
    }

    fn apply(
        state: &mut State,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        state.apply(seat, action, events)
    }

    fn view(state: &State, viewer: Viewer) -> View {
        view::view(state, viewer)
    }

    fn result(state: &State) -> Option<GameResult> {
        if state.phase != Phase::Over {
            return None;
        }
        let n = state.players;
        let scores: Vec<f64> = state.scores.iter().map(|s| f64::from(*s)).collect();
        let details = json!({ "deals": state.deal_no + 1 });
        if state.options.variant == Variant::Bohemian {
            // §5.3: lowest score first.
            let ranking = GameResult::ranking_by_key(0..n, |s| state.scores[s]);
            return Some(GameResult {
                ranking,
                scores,
                teams: None,
                details,
            });
        }
        let target = state.options.target;
        let (ranking, teams) = if n == 4 {
            let a_won = state.scores[0] >= target;
            let (w, l) = if a_won {
                (vec![0, 2], vec![1, 3])
            } else {
                (vec![1, 3], vec![0, 2])
            };
            (vec![w, l], Some(vec![vec![0, 2], vec![1, 3]]))
        } else {
            // §5.2: everyone at the target shares rank 1; the rest by score.
            let ranking = GameResult::ranking_by_key(0..n, |s| {
                if state.scores[s] >= target {
                    i32::MIN
                } else {
                    -state.scores[s]
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

    fn players(state: &State) -> usize {
        state.players
    }

    fn options(state: &State) -> &Options {
        &state.options
    }

    fn seed(state: &State) -> u64 {
        state.rng.seed
    }

    fn validate(state: &State) -> Result<(), String> {
        validate(state)
    }

    fn pieces(state: &State) -> Vec<String> {
        state.all_cards().iter().map(|c| c.code()).collect()
    }

    fn heuristic(view: &View, legal: &[Action]) -> usize {
        heuristic(view, legal)
    }

    fn hidden_from(state: &State, viewer: Viewer) -> Vec<String> {
        let visible = view::visible_cards(state, viewer);
        state
            .options
            .pack()
            .cards()
            .into_iter()
            .filter(|c| !visible.contains(*c))
            .map(|c| c.code())
            .collect()
    }
}

fn validate(state: &State) -> Result<(), String> {
    let n = state.players;
    rules::check_players(&state.options, n).map_err(|e| e.to_string())?;
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
    let mut pack = state.options.pack().cards();
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
    let pack_set = CardSet::from_cards(state.options.pack().cards());
    let crit = state.options.criticals();
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
    let bohemian = state.options.variant == Variant::Bohemian;
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
            if state.options.variant == Variant::Blind
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

fn side_of(view: &View, seat: Seat) -> Option<usize> {
    view.sides.iter().position(|s| s.contains(&seat))
}

fn roles_of(view: &View) -> Option<Roles> {
    let t = view.trump?;
    if view.options.variant == Variant::Bohemian {
        return Some(Roles::new(&view.options, None, t));
    }
    Some(Roles::new(&view.options, Some(view.schlag?), t))
}

/// Strength of a card for choosing, from what the viewer knows.
fn strength(roles: &Option<Roles>, c: Card, led: Option<Card>) -> (u8, u8) {
    let rank = c.rank().map_or(0, Rank::value);
    match (roles, led) {
        (Some(r), Some(led)) => r.key(c, led, false).unwrap_or((0, rank / 4)),
        (Some(r), None) => r.key(c, c, true).unwrap_or((0, rank)),
        (None, _) => (1, rank),
    }
}

/// A simple policy (see the rules tests for its margin over random play).
fn heuristic(view: &View, legal: &[Action]) -> usize {
    let hand: Vec<Card> = view.hand.clone().unwrap_or_default();
    let roles = roles_of(view);
    let pos = |pred: &dyn Fn(&Action) -> bool| legal.iter().position(pred);
    // Proposals: decline; raises pending: accept if we hold something.
    if let Some(i) = pos(&|a| *a == Action::Decline {}) {
        return i;
    }
    if legal.contains(&Action::Fold {}) {
        let strong = hand
            .iter()
            .filter(|c| strength(&roles, **c, None).0 >= 2)
            .count();
        let me = view.seat.and_then(|s| side_of(view, s)).unwrap_or(0);
        let mine = view.won.get(me).copied().unwrap_or(0);
        let theirs = view.won.iter().copied().max().unwrap_or(0);
        let want = strong >= 1 || mine >= theirs;
        let target = if want {
            Action::Accept {}
        } else {
            Action::Fold {}
        };
        return pos(&|a| *a == target).unwrap_or(0);
    }
    // Naming.
    let best_by = |score: &dyn Fn(&Action) -> i32| {
        legal
            .iter()
            .enumerate()
            .max_by_key(|(i, a)| (score(a), -(*i as i32)))
            .map_or(0, |(i, _)| i)
    };
    if legal.iter().any(|a| matches!(a, Action::Declare { .. })) {
        let rank_count = |r: Rank| hand.iter().filter(|c| c.rank() == Some(r)).count() as i32;
        let suit_count = |s: Suit| hand.iter().filter(|c| c.suit() == Some(s)).count() as i32;
        let is_e = view.seat == Some(view.eldest);
        return best_by(&|a| match a {
            Action::Declare {
                schlag: Some(r), ..
            } => rank_count(*r) * 20 + r.value() as i32,
            Action::Declare { trump: Some(s), .. } => {
                let with_schlag = view
                    .schlag
                    .is_some_and(|r| hand.contains(&Card::new(r, *s)));
                suit_count(*s) * 10 + i32::from(with_schlag) * 15
            }
            Action::Declare { card: Some(c), .. } => {
                if is_e {
                    c.rank().map_or(0, rank_count) * 20 + c.rank().map_or(0, |r| r.value() as i32)
                } else {
                    c.suit().map_or(0, suit_count) * 20 + c.rank().map_or(0, |r| r.value() as i32)
                }
            }
            _ => i32::MIN,
        });
    }
    // Bohemian exchange: lay away the weakest plain low card.
    if legal.contains(&Action::Draw {}) {
        let weakest = legal
            .iter()
            .enumerate()
            .filter_map(|(i, a)| match a {
                Action::Discard { card } => Some((strength(&roles, *card, None), i)),
                _ => None,
            })
            .min();
        return match weakest {
            Some(((tier, rank), i)) if tier < 2 && rank < Rank::Queen.value() => i,
            _ => pos(&|a| *a == Action::Draw {}).unwrap_or(0),
        };
    }
    // Play: lead the strongest; follow with the cheapest winner, or the cheapest card.
    let plays: Vec<(usize, Card)> = legal
        .iter()
        .enumerate()
        .filter_map(|(i, a)| match a {
            Action::Play { cards } => cards.first().map(|c| (i, *c)),
            _ => None,
        })
        .collect();
    if plays.is_empty() {
        return 0;
    }
    let current = &view.current.plays;
    let Some(&(_, led)) = current.first() else {
        return plays
            .iter()
            .max_by_key(|(_, c)| strength(&roles, *c, None))
            .map_or(0, |(i, _)| *i);
    };
    let (winner_seat, best) = match &roles {
        Some(r) => {
            let w = r.winner(current);
            let best = current
                .get(w)
                .and_then(|(_, c)| r.key(*c, led, w == 0))
                .unwrap_or((0, 0));
            (current.get(w).map(|(s, _)| *s), best)
        }
        None => (None, (1, led.rank().map_or(0, Rank::value))),
    };
    let me = view.seat.and_then(|s| side_of(view, s));
    let partner_winning = me.is_some()
        && winner_seat.and_then(|w| side_of(view, w)) == me
        && view.options.variant != Variant::Bohemian;
    let cheapest = |cands: &mut dyn Iterator<Item = &(usize, Card)>| {
        cands
            .min_by_key(|(_, c)| strength(&roles, *c, Some(led)))
            .map(|(i, _)| *i)
    };
    if !partner_winning {
        let mut beating = plays
            .iter()
            .filter(|(_, c)| strength(&roles, *c, Some(led)) > best);
        if let Some(i) = cheapest(&mut beating) {
            return i;
        }
    }
    cheapest(&mut plays.iter()).unwrap_or(0)
}
