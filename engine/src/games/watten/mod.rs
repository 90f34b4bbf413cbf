//! # Watten
//!
//! The Watten family of the Alpine region, one shared core with seven rulesets selected by the
//! option `variant`: Bavarian (default; game id `watten`), Austrian (`watten_austrian`),
//! Carinthian (`watten_carinthian`), Tyrolean (`watten_tyrolean`), Kritische
//! (`watten_kritische`), Blind (`watten_blind`) and Bohemian (`watten_bohemian`).
//! Rules: `docs/rules/watten.md` (rulings R1..R72).
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
pub mod bot;
pub mod rules;
pub mod scoring;
pub mod state;
pub mod table;
pub mod view;

use crate::deal::parse_card_deals;
use crate::error::SetupError;
use crate::game::{Family, GameDef, Setup};
use crate::options::PlayerRange;
pub use action::{Action, Event};
pub use rules::{Options, Variant};
use serde_json::{Map, Value};
pub use state::{Phase, State};
pub use view::View;

/// The Watten family.
pub struct Watten;

const RULES_SUMMARY: &str = "Each deal every player holds 5 cards; the side that first takes 3 tricks scores the deal's value (2, or more after raises). \
Eldest names the Schlag (a trump rank) and the dealer the trump suit; the card with both (Hauptschlag / Rechte) ranks just below the permanent criticals \
(Bavarian Maxi KH, Belli 7D, Spitz 7C), then the other Schlag cards, then the trump suit. There is no duty to follow suit except narrow trump-lead duties. \
During play either side may raise ('gehen'); the other side must accept, fold (the raiser scores the value before the raise) or raise back. \
First side to the target (11, or 15 in the Tyrolean family) wins. Variants: Austrian, Carinthian, Tyrolean (Weli, new cards), Kritische, Blind (secret trump), Bohemian (each for himself, scores count down).";

impl GameDef for Watten {
    type State = State;

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
            table: table::table_layout(),
        }
    }

    fn resolve_options(
        requested: &Map<String, Value>,
        merged: &mut Map<String, Value>,
    ) -> Result<(), SetupError> {
        rules::resolve(requested, merged)
    }

    fn setup(setup: &Setup<Options>, events: &mut Vec<Event>) -> Result<State, SetupError> {
        rules::check_players(&setup.options, setup.players)?;
        // Nothing stacked (every random game): no pack description to build for the check.
        let stacked = if setup.deals.is_empty() {
            Vec::new()
        } else {
            parse_card_deals(&setup.deals, &setup.options.pack())?
        };
        Ok(State::new(
            setup.options.clone(),
            setup.players,
            setup.seed,
            stacked,
            events,
        ))
    }

    fn heuristic(view: &View, legal: &[Action]) -> usize {
        bot::heuristic(view, legal)
    }
}
