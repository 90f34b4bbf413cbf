//! A stored match replayed through the engine. The store keeps each move's action (with its seat,
//! latency, fault and comment), not the events it produced: the engine is deterministic, so
//! replaying the actions from the match's setup gives every event back exactly as it was played
//! (`(game, options, seed, deals, actions)` replays byte for byte).

use crate::store::{MatchRecord, MoveRecord};
use engine::NewGame;
use engine::erased::Match;
use serde_json::Value;

/// The setup of a stored match, as the engine takes it.
pub fn new_game(record: &MatchRecord) -> NewGame {
    NewGame {
        players: record.bots.len(),
        options: record.options.as_object().cloned().unwrap_or_default(),
        seed: record.seed,
        deals: record.deals.clone(),
    }
}

/// A stored match's game after its logged moves.
#[derive(Debug)]
pub struct Replayed {
    /// The game after the last logged move.
    pub game: Box<dyn Match>,
    /// The setup's public events (the deal as every seat may see it, a card turned up...).
    pub setup_events: Vec<Value>,
}

/// Why a stored match does not replay.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReplayError {
    /// The game id is no longer served.
    #[error("the game `{0}` is no longer served")]
    UnknownGame(String),
    /// The match cannot be set up (its options or stacked deals are refused).
    #[error("the match cannot be set up: {0}")]
    Setup(String),
    /// A logged move is refused.
    #[error("the logged moves no longer replay: move {index}: {detail}")]
    Refused {
        /// The move's index.
        index: usize,
        /// The engine's refusal.
        detail: String,
    },
}

/// Replays `record`'s setup and `moves`, filling each move's `events`.
pub fn logged(record: &MatchRecord, moves: &mut [MoveRecord]) -> Result<Replayed, ReplayError> {
    let game = engine::registry::find(&record.game)
        .ok_or_else(|| ReplayError::UnknownGame(record.game.clone()))?;
    let (mut state, setup_events) = game
        .start_with_events(&new_game(record))
        .map_err(|e| ReplayError::Setup(e.to_string()))?;
    for logged in moves.iter_mut() {
        let applied =
            state
                .apply(logged.seat, &logged.action)
                .map_err(|e| ReplayError::Refused {
                    index: logged.index,
                    detail: e.to_string(),
                })?;
        logged.events = tagged(applied.events, logged.index);
    }
    Ok(Replayed {
        game: state,
        setup_events,
    })
}

/// A move's public events as the arena shows them: each tagged with the `action_index` of the
/// move that produced it.
pub fn tagged(events: Vec<Value>, index: usize) -> Vec<Value> {
    events
        .into_iter()
        .map(|mut event| {
            if let Value::Object(map) = &mut event {
                map.insert("action_index".into(), Value::from(index));
            }
            event
        })
        .collect()
}
