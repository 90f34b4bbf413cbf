//! # Taihe A Bao (泰和A包)
//!
//! A Chinese climbing (shedding) game, one declarer against all the others, for 4 players (3 or 5
//! in variants) with 40 cards (no 2, 3, 8; 3 players also without AS). Each hand: two bidding
//! rounds (round 1: declare alone, stake players+1; round 2: call a card, receive it face up and give
//! one back face down, the last caller declares with a stake of the number of callers), then the
//! climbing play: singles, pairs, runs of 3+ adjacent ranks (7 and 9 are not adjacent, no Aces),
//! double runs, and triples and quads as bombs. The declarer wins the stake from every opponent
//! if first out, and pays each of them otherwise.
//!
//! Rules: `docs/rules/taihe_abao.md` (rulings R1..R17, examples T1..T12).
//!
//! Implementation notes:
//! - Player count is the seat count (3..=5); the spec's `players` option is not an `options` entry.
//! - Plays are rank multisets named by canonical cards (R13): per rank the suits S, H, D, C first.
//! - The R8 "top quad" (AAA with 3 players, KKK with 5 players without Aces) is a quad whose top
//!   rank index is 10, above every real quad.
//! - A game is `hands` hands, thrown-in hands included (R15); cumulative stakes rank the players.
//!   `teams` is set only for a one-hand game with a declarer (the sides change every hand).

pub mod action;
pub mod bot;
pub mod combination;
pub mod rules;
pub mod state;
pub mod table;
pub mod view;

use crate::error::SetupError;
use crate::game::{Family, GameDef, Setup};
use crate::options::PlayerRange;
pub use action::Action;
use action::Event;
use rules::Options;
use state::State;
use view::View;

/// The Taihe A Bao family.
pub struct TaiheAbao;

impl GameDef for TaiheAbao {
    type State = State;

    fn family() -> Family {
        Family {
            id: "taihe_abao",
            name: "Taihe A Bao",
            description: "Chinese climbing game: one declarer against all the others; be first to shed your cards.",
            rules_summary: "40 cards (no 2, 3, 8), 10 each with 4 players. Round 1: each player may declare (stake players+1). If nobody does, round 2: each player may call a card not held (no Ace or 4): its holder hands it over face up and gets one card back face down; the last caller declares with a stake equal to the number of callers. No call: redeal. The declarer leads; each player beats the last combination with a higher one of the same kind and size (single, pair, run of 3+ adjacent ranks where 7 and 9 are not adjacent and Aces never run, double run), or plays a bomb (a triple beats anything but a higher triple or a quad; a quad beats anything but a higher quad), or passes. After everyone else passes the last player leads again. The declarer wins the stake from each opponent by going out first, and pays each of them otherwise.",
            players: PlayerRange { min: 3, max: 5 },
            options: rules::option_specs(),
            presets: rules::presets(),
            players_when: Vec::new(),
            table: table::table_layout(),
        }
    }

    fn setup(setup: &Setup<Options>, events: &mut Vec<Event>) -> Result<State, SetupError> {
        State::new(setup, events)
    }

    fn heuristic(view: &View, legal: &[Action]) -> usize {
        bot::heuristic(view, legal).unwrap_or(0)
    }
}
