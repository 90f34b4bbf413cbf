//! # cardroom engine
//!
//! The rules authority of cardroom: pure game logic for traditional card and tile games. No I/O, no
//! clock, no global RNG: all chance comes from the seed carried in each state, so
//! `(game, players, options, seed, deals, actions)` replays identically everywhere.
//!
//! - [`common`]: mechanics shared by families: trick taking (`trick`) and fishing captures (`capture`).
//! - [`cards`]: ranks, suits, cards (`TH`, `AS`, `JK`), card sets and packs from a description.
//! - [`inline_cards`]: short card lists as plain data, for actions and events of hot paths.
//! - [`tiles`]: domino tiles (`2-5`, `6-6#1`), tile sets from a description, stacked tile deals.
//! - [`rng`]: the seeded, replayable RNG carried in states.
//! - [`deal`]: stacked deals and deal sequences.
//! - [`options`]: declared options, presets, option merging.
//! - [`game`]: the typed trait [`game::GameDef`] every family implements.
//! - [`erased`]: the JSON-level, object-safe [`erased::Game`] / [`erased::Match`] used by the API and arena.
//! - [`registry`]: the one list of game ids.
//! - [`games`]: one module per family.
//! - [`table`]: how a table draws each family's view (its declared [`table::TableLayout`]).
#![warn(missing_docs)]

pub mod cards;
pub mod common;
pub mod deal;
pub mod erased;
pub mod error;
pub mod game;
pub mod games;
pub mod inline_cards;
pub mod options;
pub mod registry;
pub mod rng;
pub mod schema;
pub mod search;
pub mod table;
pub mod tiles;

pub use erased::{Game, GameInfo, LoadedField, Match, NewGame};
pub use error::{ActionError, ReplayError, SetupError, StateError};
pub use game::{Actors, GameDef, GameResult, Seat, Seats, Viewer};
