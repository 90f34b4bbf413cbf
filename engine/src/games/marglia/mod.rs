//! # Marglia (Mariglia) and Maniglia
//!
//! Marglia: 4 players in two partnerships ({0,2} against {1,3}), 40 cards (no 8 9 10), played
//! counter-clockwise (mapped to seat+1). The dealer's bottom card is set aside, turned up after the
//! deal to fix trumps and taken into his hand; its points go to the dealer's team. Cards rank
//! 7 A K J Q 6 5 4 3 2 and count 5 4 3 2 1 (7 A K J Q); a trick holding a frillo (2-6) earns a
//! point. Void players must trump (and overtrump) unless the partner is winning, they hold no trump,
//! or cannot beat the trump in the trick. A team scores only its deal total above 35.
//!
//! Maniglia (EXPERIMENTAL, spec Part II): 3-5 players (partnerships with 4 by default); trumps go
//! to the winner of a points auction, who must make the bid. The auction, contract scoring and solo
//! play are the spec's PROPOSED defaults (R10, R11, R17): no source describes them.
//!
//! Rules: `docs/rules/marglia.md` (rulings R1..R17, examples E1..E10, M1..M3).
//!
//! Some notes on this implementation:
//! - One core (this module's `State`) serves both games; [`Marglia`] and [`Maniglia`] are two
//!   families (ids `marglia`, `maniglia`) whose presets fix the spec's `variant` option.
//! - Scores are kept per side: two teams in partnerships, one per seat in individual Maniglia.
//! - Tricks use `common::trick::winner_by_strength` with Marglia's own rank order.

pub mod action;
pub mod bot;
pub mod rules;
pub mod scoring;
pub mod state;
pub mod table;
pub mod view;

pub use action::{Action, Event};
pub use rules::Options;
pub use state::State;
pub use view::View;

use crate::error::SetupError;
use crate::game::{Family, GameDef, GameResult, Seat, Setup};
use crate::options::PlayerRange;
use state::Phase;

/// The Marglia family (id `marglia`).
pub struct Marglia;

/// The Maniglia family (id `maniglia`, experimental), same core with `variant: "maniglia"`.
pub struct Maniglia;

const MARGLIA_SUMMARY: &str = "Four players, partners opposite, 40 cards (no 8, 9, 10), ten each. The dealer's bottom card is turned up after the deal: its suit is trumps, it joins the dealer's hand, and its points go at once to the dealer's team (if that team then has 35 or more, the dealer may stop the deal unplayed). Cards rank 7 A K J Q 6 5 4 3 2 and count 7=5, A=4, K=3, J=2, Q=1; each trick holding a 2-6 (frillo) earns 1 more. Follow suit with any card; if void you must trump, and beat a trump already played, unless your partner is winning, you hold no trump, or you cannot beat it. A team scores only what it makes above 35 in a deal; after four deals the higher total wins.";

const MANIGLIA_SUMMARY: &str = "EXPERIMENTAL (the auction and contract scoring are proposals, not sourced rules). 3 to 5 players (partners opposite with 4), 40 cards (39 with 3: one 2 removed), all dealt; the dealer's last card is shown to everybody. Players bid for the right to name trumps (bids from 36 to 70, passing is final); the winner names trumps, then plays as in Marglia (7 A K J Q 6 5 4 3 2, same card points and frillo point, same trumping duties). The turned card's points go to the dealer's side unless it already has 29. Made contracts score the bidder's side its total minus 35; failed ones lose bid minus 35. One deal per player.";

fn result(state: &State) -> Option<GameResult> {
    if state.phase != Phase::Over {
        return None;
    }
    let n = state.table.players;
    let side_score = |seat: Seat| state.cumulative.get(state.side(seat)).copied().unwrap_or(0);
    let partnership = state::partnership(&state.table.options, n);
    Some(GameResult {
        ranking: GameResult::ranking_by_key(0..n, |s| std::cmp::Reverse(side_score(s))),
        scores: (0..n).map(|s| side_score(s) as f64).collect(),
        teams: partnership.then(|| vec![vec![0, 2], vec![1, 3]]),
        details: serde_json::json!({
            "deals": state.deal_number,
            "cumulative": state.cumulative,
        }),
    })
}

macro_rules! marglia_game {
    ($ty:ident, $id:literal, $name:literal, $description:literal, $summary:expr, $min:literal, $max:literal, $specs:path, $presets:path) => {
        impl GameDef for $ty {
            type State = State;

            fn family() -> Family {
                Family {
                    id: $id,
                    name: $name,
                    description: $description,
                    rules_summary: $summary,
                    players: PlayerRange {
                        min: $min,
                        max: $max,
                    },
                    options: $specs(),
                    presets: $presets(),
                    players_when: Vec::new(),
                    table: table::table_layout(),
                }
            }

            fn setup(setup: &Setup<Options>, events: &mut Vec<Event>) -> Result<State, SetupError> {
                State::new(setup, events)
            }

            fn heuristic(view: &View, legal: &[Action]) -> usize {
                bot::heuristic(view, legal)
            }

            fn search_actions(state: &State, _seat: Seat, legal: &mut Vec<Action>) {
                bot::search_actions(state, legal)
            }
        }
    };
}

marglia_game!(
    Marglia,
    "marglia",
    "Marglia",
    "Genoese partnership point-trick game with a turned-up trump and a 35-point threshold.",
    MARGLIA_SUMMARY,
    4,
    4,
    rules::marglia_specs,
    rules::marglia_presets
);

marglia_game!(
    Maniglia,
    "maniglia",
    "Maniglia (experimental)",
    "EXPERIMENTAL: Marglia with a points auction for trumps, for 3 to 5 players; the auction and contract rules are proposals, not sourced.",
    MANIGLIA_SUMMARY,
    3,
    5,
    rules::maniglia_specs,
    rules::maniglia_presets
);
