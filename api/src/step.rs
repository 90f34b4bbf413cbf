//! The step a client receives after `new`, `apply` or `replay`: the state (encoded by the
//! server's codec), who acts next with their legal actions, and the result once over. The
//! handlers answer it; the OpenAPI examples are made with it.

use crate::codec::StateCodec;
use crate::dto::{ResultDto, SeatActions, Step};
use crate::error::ServiceError;
use engine::Match;
use serde_json::Value;

/// Builds the step a client receives after `new`, `apply` or `replay`.
pub fn make_step(
    codec: &StateCodec,
    game: &dyn Match,
    events: Vec<Value>,
) -> Result<Step, ServiceError> {
    Ok(step_with_state(game, events, codec.encode(game)?))
}

/// The step around a state already encoded (`Value::Null` when the caller writes the state into
/// the response itself).
pub fn step_with_state(game: &dyn Match, events: Vec<Value>, state: Value) -> Step {
    let to_act = game.to_act();
    let legal_actions = to_act
        .iter()
        .map(|&seat| SeatActions {
            seat,
            actions: game.legal_actions(seat),
        })
        .collect();
    Step {
        game: game.game_id().to_string(),
        state,
        over: game.is_over(),
        result: game.result().map(ResultDto::from),
        to_act,
        events,
        legal_actions,
    }
}
