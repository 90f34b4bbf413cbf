//! The built-in bots, served under `/bots/{name}/` with the public bot protocol:
//! - `random`: uniform over the legal actions (deterministic for a given request, so a seeded match
//!   replays identically);
//! - `heuristic`: each game's own simple policy ([`engine::Game::heuristic`]), from the seat's view
//!   only;
//! - `ismcts`: information-set Monte Carlo tree search ([`engine::search`]) over determinizations
//!   of the state for [`ISMCTS_BUDGET_MS`] per move by default (`cardroom serve --ismcts-ms`; at
//!   most half the move's deadline). It needs the state: the arena hands it over in process; over
//!   HTTP the request carries `state`.
//!
//! The arena calls its own built-in bots in-process (URL `builtin:<name>`) with the same
//! [`MoveRequest`]/[`MoveResponse`] types, so they work under `--public` too; their HTTP routes
//! are in [`crate::routes::builtin`].

use crate::wire::{BotInfo, MoveRequest, MoveResponse};
use engine::Match;
use serde_json::Value;
use std::time::{Duration, Instant};

/// Names of the built-in bots.
pub const NAMES: [&str; 3] = ["random", "heuristic", "ismcts"];

/// The built-in bots that search (run off the async workers).
pub const SEARCHES: [&str; 1] = ["ismcts"];

/// How long `ismcts` searches per move by default, in milliseconds (`--ismcts-ms`; at most half
/// the move's deadline).
pub const ISMCTS_BUDGET_MS: u64 = 200;
/// An upper bound on its iterations per move, whatever the clock says.
const ISMCTS_MAX_ITERATIONS: u32 = 200_000;

/// Whether `name` is a built-in bot.
pub fn is_builtin(name: &str) -> bool {
    NAMES.contains(&name)
}

/// The identity of a built-in bot, if `name` is one.
pub fn info(name: &str) -> Option<BotInfo> {
    if !is_builtin(name) {
        return None;
    }
    Some(BotInfo {
        name: name.to_string(),
        author: "cardroom".to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        games: engine::registry::games()
            .iter()
            .map(|g| g.info().id.clone())
            .collect(),
    })
}

/// The built-in bot `name`'s answer to a move request; `ismcts_ms` bounds a search's time per
/// move (with half the request's deadline).
pub fn choose(name: &str, request: &MoveRequest, ismcts_ms: u64) -> Result<MoveResponse, String> {
    let state = match &request.state {
        Some(state) => Some(
            engine::registry::find(&request.game)
                .ok_or_else(|| format!("unknown game `{}`", request.game))?
                .load(state)
                .map_err(|e| format!("state: {e}"))?,
        ),
        None => None,
    };
    choose_from(
        name,
        &Position {
            game: &request.game,
            match_id: &request.match_id,
            seat: request.seat,
            view: &request.view,
            legal_actions: &request.legal_actions,
            deadline_ms: request.deadline_ms,
            ismcts_ms,
            state: state.as_deref(),
        },
    )
}

/// What a built-in bot decides from: the move request's parts, borrowed, and the state when the
/// caller has it.
pub struct Position<'a> {
    /// The game id.
    pub game: &'a str,
    /// The match id.
    pub match_id: &'a str,
    /// The seat to move.
    pub seat: usize,
    /// Its view.
    pub view: &'a Value,
    /// Its legal actions.
    pub legal_actions: &'a [Value],
    /// The move's deadline.
    pub deadline_ms: u64,
    /// How long `ismcts` may search, in milliseconds (it also keeps to half the deadline).
    pub ismcts_ms: u64,
    /// The full state (`ismcts` only).
    pub state: Option<&'a (dyn Match + 'static)>,
}

/// [`choose`] from the request's parts (the arena's in-process calls borrow them).
pub fn choose_from(name: &str, position: &Position<'_>) -> Result<MoveResponse, String> {
    let Position {
        game,
        match_id,
        seat,
        view,
        legal_actions,
        deadline_ms,
        ismcts_ms,
        state,
    } = *position;
    if legal_actions.is_empty() {
        return Err("no legal action to choose from".into());
    }
    let index = match name {
        "random" => {
            // Deterministic per position: the match, the seat, its view and its choices (not the
            // history, which the arena sends serialized and in-process calls leave out).
            let bytes = serde_json::to_vec(&(match_id, seat, view, legal_actions))
                .map_err(|e| e.to_string())?;
            (fnv1a(&bytes) % legal_actions.len() as u64) as usize
        }
        "heuristic" => {
            let game =
                engine::registry::find(game).ok_or_else(|| format!("unknown game `{game}`"))?;
            game.heuristic(view, legal_actions)?
        }
        "ismcts" => {
            let state = state.ok_or(
                "the ismcts bot searches the game's state: send `state` (transparent) with the request",
            )?;
            if state.legal_actions(seat) != legal_actions {
                return Err(format!(
                    "the state does not give seat {seat} these legal actions"
                ));
            }
            let budget = Duration::from_millis(ismcts_ms.min(deadline_ms / 2).max(1));
            let started = Instant::now();
            let bytes = serde_json::to_vec(&(match_id, seat, legal_actions.len()))
                .map_err(|e| e.to_string())?;
            let mut rng = engine::rng::PlayoutRng::new(fnv1a(&bytes));
            let mut keep_going = |done: u32| {
                done < ISMCTS_MAX_ITERATIONS && (done < 8 || started.elapsed() < budget)
            };
            state
                .ismcts(
                    seat,
                    &mut rng,
                    engine::search::Rollout::default(),
                    &mut keep_going,
                )
                .ok_or("no legal action to choose from")?
        }
        other => return Err(format!("no built-in bot `{other}`")),
    };
    let action = legal_actions.get(index).cloned().unwrap_or(Value::Null);
    Ok(MoveResponse {
        action,
        comment: None,
    })
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in bytes {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    // Mix the high bits down so small moduli use all of the hash.
    hash ^ (hash >> 29)
}
