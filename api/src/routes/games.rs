//! The rules API: catalog, new, legal, apply, view, replay. Generic over the engine's registry:
//! handlers parse, call the engine, and map; no game-specific code.

use crate::codec::StateCodec;
use crate::dto::{
    ApplyRequest, GameEntry, LegalRequest, NewGameRequest, ReplayRequest, ReplayResponse,
    SeatActions, Step, ViewRequest, ViewResponse,
};
use crate::error::{ErrorCode, Problem, ServiceError, guard};
use crate::step::{make_step, step_with_state};
use actix_web::dev::Payload;
use actix_web::http::StatusCode;
use actix_web::{FromRequest, HttpRequest, HttpResponse, get, post, web};
use arena::http::NoQuery;
use arena::problem::responses::{JsonBodyErrors, StateRequestErrors, UnknownGame};
use arena::problem::{invalid_body, is_json, unreadable_body, unsupported_media_type};
use engine::{Game, LoadedField, Match, NewGame, Viewer};
use serde_json::Value;
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::OnceLock;

/// The game with this id, or 404 `unknown_game`.
pub fn find_game(id: &str) -> Result<&'static dyn Game, ServiceError> {
    engine::registry::find(id).ok_or_else(|| ServiceError::unknown_game(id))
}

pub(crate) fn check_seat(game: &dyn Match, seat: usize) -> Result<(), ServiceError> {
    let players = game.players();
    if seat >= players {
        return Err(ServiceError::new(
            ErrorCode::InvalidSeat,
            format!(
                "seat {seat} does not exist: this game has {players} seats, numbered 0 to {}",
                players.saturating_sub(1)
            ),
        ));
    }
    Ok(())
}

/// Answers a step as JSON, writing the state straight from the typed game (the hot path of
/// `new` and `apply`): the step without its state is serialized, then `"state"` is appended.
pub fn step_response(
    codec: &StateCodec,
    game: &dyn Match,
    events: Vec<Value>,
) -> Result<HttpResponse, ServiceError> {
    let state = codec.encode_json(game)?;
    let step = step_with_state(game, events, Value::Null);
    let mut body = serde_json::to_vec(&step)
        .map_err(|e| ServiceError::new(ErrorCode::Internal, format!("cannot encode step: {e}")))?;
    if body.pop() != Some(b'}') {
        return Err(ServiceError::new(
            ErrorCode::Internal,
            "a step is a JSON object",
        ));
    }
    body.reserve(state.len() + 10);
    body.extend_from_slice(b",\"state\":");
    body.extend_from_slice(state.as_bytes());
    body.push(b'}');
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .body(body))
}

/// List every game.
///
/// The catalog, a JSON array: for each game id its name, player range, options (type, allowed values, default,
/// description), a short description and the rules summary. `schemas` points at the component
/// schemas describing the exact JSON of the game's options, actions, events and views, and
/// `openapi` at the game's own OpenAPI document, typed with them (for client generators).
#[utoipa::path(
    operation_id = "list_games",
    tag = "rules",
    params(NoQuery),
    responses(
        (status = 200, description = "Every game id, in registry order", body = Vec<GameEntry>),
        (status = 400, description = "`invalid_request`: a query parameter (this route takes none)", body = Problem, content_type = "application/problem+json"),
    ),
)]
#[get("/v1/games")]
pub async fn list(request: HttpRequest) -> Result<HttpResponse, ServiceError> {
    let NoQuery {} = arena::http::query(&request)?;
    static CATALOG: OnceLock<Catalogued> = OnceLock::new();
    let catalog = CATALOG.get_or_init(|| {
        let entries: Vec<GameEntry> = engine::registry::games()
            .iter()
            .map(|g| GameEntry::from_info(g.info()))
            .collect();
        Catalogued::of(&entries)
    });
    Ok(catalog.answer())
}

/// A catalog answer, fixed for the process: its bytes and their `ETag`.
struct Catalogued {
    bytes: web::Bytes,
    etag: String,
}

impl Catalogued {
    fn of(value: &impl serde::Serialize) -> Catalogued {
        let bytes = web::Bytes::from(serde_json::to_vec(value).unwrap_or_default());
        Catalogued {
            etag: arena::http::etag(&bytes),
            bytes,
        }
    }

    fn answer(&self) -> HttpResponse {
        arena::http::validated(
            "application/json",
            self.bytes.clone(),
            &self.etag,
            arena::http::RELEASE,
        )
    }
}

/// Describe one game.
///
/// The catalog entry of one game id.
#[utoipa::path(
    operation_id = "describe_game",
    tag = "rules",
    params(("game" = String, Path, description = "Game id, e.g. `twenty_two`"), NoQuery),
    responses(
        (status = 200, description = "The catalog entry", body = GameEntry),
        (status = 400, description = "`invalid_request`: a query parameter (this route takes none)", body = Problem, content_type = "application/problem+json"),
        UnknownGame,
    ),
)]
#[get("/v1/games/{game}")]
pub async fn describe(
    game: web::Path<String>,
    request: HttpRequest,
) -> Result<HttpResponse, ServiceError> {
    let game = find_game(&game)?;
    let NoQuery {} = arena::http::query(&request)?;
    static ENTRIES: OnceLock<HashMap<String, Catalogued>> = OnceLock::new();
    let entries = ENTRIES.get_or_init(|| {
        engine::registry::games()
            .iter()
            .map(|g| {
                let info = g.info();
                (info.id.clone(), Catalogued::of(&GameEntry::from_info(info)))
            })
            .collect()
    });
    entries
        .get(&game.info().id)
        .map(Catalogued::answer)
        .ok_or_else(|| ServiceError::unknown_game(&game.info().id))
}

/// Start a game.
///
/// Sets up a game (dealing if the game starts with a deal) and returns the first step, whose
/// `events` say what happened while setting up (the deal as every seat may see it, a card turned
/// up, a cut), redacted like views. Options not given take the game's defaults; their exact JSON is
/// in the game's own document (`/v1/games/{game}/openapi.json`). Without a `seed` the server picks
/// one and records it in the state, so the game still replays.
#[utoipa::path(
    operation_id = "new_game",
    tag = "rules",
    params(("game" = String, Path, description = "Game id, e.g. `twenty_two`")),
    request_body = NewGameRequest,
    responses(
        (status = 200, description = "The first step", body = Step),
        (status = 400, description = "`malformed_json`: malformed JSON, wrong types, missing or unknown fields", body = Problem, content_type = "application/problem+json"),
        UnknownGame,
        JsonBodyErrors,
        (status = 422, description = "`invalid_players`, `invalid_options` or `invalid_deals`, with the reason in `detail`", body = Problem, content_type = "application/problem+json"),
    ),
)]
#[post("/v1/games/{game}/new")]
pub async fn start(
    game: web::Path<String>,
    request: web::Json<NewGameRequest>,
    codec: web::Data<StateCodec>,
) -> Result<HttpResponse, ServiceError> {
    let game = find_game(&game)?;
    let request = request.into_inner();
    let setup = NewGame {
        players: request.players,
        options: request.options,
        // 53 bits: exact in every JSON implementation, JavaScript included.
        seed: request
            .seed
            .unwrap_or_else(|| rand::random::<u64>() & engine::rng::MAX_SEED),
        deals: request.deals,
    };
    guard(|| {
        let (started, events) = game.start_with_events(&setup)?;
        step_response(&codec, started.as_ref(), events)
    })
}

/// List a seat's legal actions.
///
/// Every action the seat may take now, in canonical order (empty if it may not act). The exact
/// JSON of an action is in the game's own document (`/v1/games/{game}/openapi.json`).
#[utoipa::path(
    operation_id = "legal_actions",
    tag = "rules",
    params(("game" = String, Path, description = "Game id, e.g. `twenty_two`")),
    request_body = LegalRequest,
    responses(
        (status = 200, description = "The seat's legal actions", body = SeatActions),
        StateRequestErrors,
        JsonBodyErrors,
    ),
)]
#[post("/v1/games/{game}/legal")]
pub async fn legal(
    game: web::Path<String>,
    request: web::Json<LegalRequest>,
    codec: web::Data<StateCodec>,
) -> Result<web::Json<SeatActions>, ServiceError> {
    let game = find_game(&game)?;
    guard(|| {
        let state = codec.decode_raw(game, &request.state)?;
        check_seat(state.as_ref(), request.seat)?;
        Ok(SeatActions {
            seat: request.seat,
            actions: state.legal_actions(request.seat),
        })
    })
    .map(web::Json)
}

/// Apply an action.
///
/// Applies one action of one seat and returns the next step, with the legal actions of every seat
/// that may act next (one round trip per move). A refused action is a 422 problem whose `code` is
/// `game_over`, `not_your_turn` or `illegal_action` (checked in that order), whose `reason` is the
/// engine's finer sub-reason and whose `detail` says why in words a player understands.
#[utoipa::path(
    operation_id = "apply_action",
    tag = "rules",
    params(("game" = String, Path, description = "Game id, e.g. `twenty_two`")),
    request_body = ApplyRequest,
    responses(
        (status = 200, description = "The action was applied", body = Step),
        StateRequestErrors,
        JsonBodyErrors,
        (status = 422, description = "`illegal_action`, `not_your_turn` or `game_over`", body = Problem, content_type = "application/problem+json"),
    ),
)]
#[post("/v1/games/{game}/apply")]
pub async fn apply(
    game: web::Path<String>,
    body: JsonBody,
    codec: web::Data<StateCodec>,
) -> Result<HttpResponse, ServiceError> {
    let found = find_game(&game);
    guard(|| {
        // The request as clients send it is read in one pass, its state straight into the
        // game's typed state; anything else takes the general path below, which answers exactly
        // as the JSON extractor and `decode_raw` do (the body's errors before an unknown game).
        let one_pass = found.as_ref().ok().and_then(|game| {
            let text = std::str::from_utf8(&body.0).ok()?;
            let (state, mut rest) = game.load_json_field(text, "state")?;
            let seat = rest
                .get("seat")?
                .as_u64()
                .and_then(|s| usize::try_from(s).ok())?;
            let action = rest.remove("action")?;
            (rest.len() == 1).then_some((*game, state, seat, action))
        });
        let (mut state, seat, action) = match one_pass {
            Some((_, LoadedField::State(state), seat, action)) => {
                (codec.accept_transparent(state)?, seat, action)
            }
            Some((game, LoadedField::Token(token), seat, action)) => {
                (codec.decode_token(game, &token)?, seat, action)
            }
            None => {
                let request: ApplyRequest =
                    serde_json::from_slice(&body.0).map_err(|e| invalid_body(&e))?;
                let state = codec.decode_raw(found?, &request.state)?;
                (state, request.seat, request.action)
            }
        };
        check_seat(state.as_ref(), seat)?;
        let applied = state.apply(seat, &action)?;
        step_response(&codec, state.as_ref(), applied.events)
    })
}

/// A JSON request body, unparsed, with the JSON extractor's checks (a JSON content type, else
/// 415; the size limit, else 413): for `apply`, which parses its body itself.
pub struct JsonBody(web::Bytes);

impl FromRequest for JsonBody {
    type Error = actix_web::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(request: &HttpRequest, payload: &mut Payload) -> Self::Future {
        if !is_json(request) {
            let refused = unsupported_media_type(request);
            return Box::pin(async move { Err(refused.into()) });
        }
        let bytes = web::Bytes::from_request(request, payload);
        Box::pin(async move {
            bytes.await.map(JsonBody).map_err(|error| {
                // 413 is answered as a problem by the server's error handler; other failures
                // to read are worded as the JSON extractor words them.
                if error.as_response_error().status_code() == StatusCode::PAYLOAD_TOO_LARGE {
                    error
                } else {
                    unreadable_body(&error).into()
                }
            })
        })
    }
}

/// Show a seat's or a spectator's view.
///
/// What one seat may know (its own hand, public information), or with `seat` omitted what a
/// spectator may know. Views are always returned in the clear, also in sealed mode. The exact JSON
/// is in the game's own document (`/v1/games/{game}/openapi.json`).
#[utoipa::path(
    operation_id = "view_state",
    tag = "rules",
    params(("game" = String, Path, description = "Game id, e.g. `twenty_two`")),
    request_body = ViewRequest,
    responses(
        (status = 200, description = "The view", body = ViewResponse),
        StateRequestErrors,
        JsonBodyErrors,
    ),
)]
#[post("/v1/games/{game}/view")]
pub async fn view(
    game: web::Path<String>,
    request: web::Json<ViewRequest>,
    codec: web::Data<StateCodec>,
) -> Result<web::Json<ViewResponse>, ServiceError> {
    let game = find_game(&game)?;
    guard(|| {
        let state = codec.decode_raw(game, &request.state)?;
        let viewer = match request.seat {
            Some(seat) => {
                check_seat(state.as_ref(), seat)?;
                Viewer::Seat(seat)
            }
            None => Viewer::Spectator,
        };
        Ok(ViewResponse {
            seat: request.seat,
            view: state.view(viewer),
        })
    })
    .map(web::Json)
}

/// Replay a game.
///
/// Replays a whole game from its setup (players, options, seed, deals) and its actions, and
/// returns the final step and the full public event log. The first refused action makes a 422
/// problem carrying its zero-based `index` and `seat`, with the same `code`/`reason` as `apply`.
#[utoipa::path(
    operation_id = "replay_game",
    tag = "rules",
    params(("game" = String, Path, description = "Game id, e.g. `twenty_two`")),
    request_body = ReplayRequest,
    responses(
        (status = 200, description = "The replayed game", body = ReplayResponse),
        (status = 400, description = "`malformed_json`: malformed JSON, wrong types, missing or unknown fields", body = Problem, content_type = "application/problem+json"),
        UnknownGame,
        JsonBodyErrors,
        (status = 422, description = "A setup error (`invalid_players`, `invalid_options`, `invalid_deals`), or a refused action (`illegal_action`, `not_your_turn`, `game_over`) with its `index`", body = Problem, content_type = "application/problem+json"),
    ),
)]
#[post("/v1/games/{game}/replay")]
pub async fn replay(
    game: web::Path<String>,
    request: web::Json<ReplayRequest>,
    codec: web::Data<StateCodec>,
) -> Result<web::Json<ReplayResponse>, ServiceError> {
    let game = find_game(&game)?;
    let request = request.into_inner();
    let setup = NewGame {
        players: request.players,
        options: request.options,
        seed: request.seed,
        deals: request.deals,
    };
    let actions: Vec<(usize, Value)> = request
        .actions
        .into_iter()
        .map(|a| (a.seat, a.action))
        .collect();
    guard(|| {
        let replayed = game.replay(&setup, &actions)?;
        if let Some(refused) = replayed.refused {
            return Err(refused.into());
        }
        let last = actions.len().checked_sub(1);
        let last_events = replayed
            .events
            .iter()
            .filter(|e| {
                last.is_some()
                    && e.get("action_index").and_then(Value::as_u64) == last.map(|i| i as u64)
            })
            .cloned()
            .collect();
        Ok(ReplayResponse {
            step: make_step(&codec, replayed.game.as_ref(), last_events)?,
            log: replayed.events,
        })
    })
    .map(web::Json)
}
