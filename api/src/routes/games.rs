//! The rules API: catalog, new, legal, apply, view, replay. Generic over the engine's registry:
//! handlers parse, call the engine, and map; no game-specific code.

use crate::codec::StateCodec;
use crate::dto::{
    ActionRollouts, ApplyRequest, DeterminizeRequest, DeterminizeResponse, GameEntry, LegalRequest,
    NewGameRequest, ReplayRequest, ReplayResponse, RolloutPolicy, RolloutsRequest,
    RolloutsResponse, SeatActions, Step, ViewRequest, ViewResponse,
};
use crate::error::{ErrorCode, Problem, ServiceError, guard};
use crate::step::{make_step, step_with_state};
use actix_web::dev::Payload;
use actix_web::http::StatusCode;
use actix_web::{FromRequest, HttpRequest, HttpResponse, get, post, web};
use arena::http::NoQuery;
use arena::problem::responses::{JsonBodyErrors, StateRequestErrors, UnknownGame};
use arena::problem::{invalid_body, is_json, unreadable_body, unsupported_media_type};
use engine::search::{Rollout, RolloutPlan, RolloutStart, RolloutStop};
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

fn check_seat(game: &dyn Match, seat: usize) -> Result<(), ServiceError> {
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

/// Sample full states a seat cannot tell apart from this one.
///
/// The position is `state` and `seat`, or the `info` token of an arena move request (the
/// position sealed for its seat). Answers `count` full states (sealed when the server seals) drawn uniformly among the deals
/// consistent with everything `seat` has seen and what the rules let it infer: its own pieces,
/// every public event, voids shown by a failure to follow suit, cards it passed or was shown
/// (docs/api.md lists what each family infers). Each shows `seat` exactly the view this state
/// shows it, and play continues from it with `apply`: the building block of search over hidden
/// information (IS-MCTS, PIMC) from any language. The chance still to come (the next deals) is
/// redrawn too. A state with nothing hidden from the seat answers copies of itself.
#[utoipa::path(
    operation_id = "determinize_state",
    tag = "rules",
    params(("game" = String, Path, description = "Game id, e.g. `twenty_two`")),
    request_body = DeterminizeRequest,
    responses(
        (status = 200, description = "The sampled states", body = DeterminizeResponse),
        (status = 400, description = "`malformed_json`, `invalid_request` (a `count` outside 1..=256, neither or both of `state` and `info`, `state` without `seat`, or a `seat` other than the `info` token's), `invalid_state`, `state_tampered`, `invalid_info` (an `info` token changed, cut, sealed by another arena, or of another game), `sealed_state_required` or `invalid_seat`", body = Problem, content_type = "application/problem+json"),
        UnknownGame,
        JsonBodyErrors,
        (status = 422, description = "`invalid_seed`, or `no_consistent_deal`: the state's record admits no deal", body = Problem, content_type = "application/problem+json"),
    ),
)]
#[post("/v1/games/{game}/determinize")]
pub async fn determinize(
    game: web::Path<String>,
    request: web::Json<DeterminizeRequest>,
    codec: web::Data<StateCodec>,
) -> Result<web::Json<DeterminizeResponse>, ServiceError> {
    let game = find_game(&game)?;
    let opened = Position::open_info(
        game,
        &codec,
        request.state.is_some(),
        request.info.as_deref(),
    )
    .await?;
    guard(|| {
        if !(1..=MAX_DETERMINIZE).contains(&request.count) {
            return Err(ServiceError::invalid(format!(
                "count must be 1 to {MAX_DETERMINIZE}, not {}",
                request.count
            )));
        }
        let seed = request_seed(request.seed)?;
        let position = Position::of(
            game,
            &codec,
            request.state.as_deref(),
            request.seat,
            request.info.as_deref(),
            opened,
        )?;
        let mut rng = position.sampling_rng(&codec, seed);
        let (state, seat) = (position.state, position.seat);
        let states = (0..request.count)
            .map(|_| {
                let sample = state
                    .determinize(seat, &mut rng)
                    .ok_or_else(|| no_consistent_deal(seat))?;
                codec.encode(sample.as_ref())
            })
            .collect::<Result<Vec<Value>, ServiceError>>()?;
        Ok(DeterminizeResponse { seat, seed, states })
    })
    .map(web::Json)
}

/// The position a `determinize` or `rollouts` request names: `state` and `seat`, or an arena
/// move request's `info` (the seat from the token).
struct Position {
    state: Box<dyn Match>,
    seat: usize,
    /// Whether the holder may see the whole state: a transparent one. A sealed state or an
    /// `info` token stands for what `seat` may know only.
    transparent: bool,
    /// The sealed state or `info` token as sent: sampling from it is seeded through the key
    /// ([`StateCodec::sampling_seed`]), so no client seed can undo a sample back to the deal.
    hidden_token: Option<String>,
}

impl Position {
    /// The random numbers that sample from this position for a client's `seed`.
    fn sampling_rng(&self, codec: &StateCodec, seed: u64) -> engine::rng::PlayoutRng {
        engine::rng::PlayoutRng::new(codec.sampling_seed(self.hidden_token.as_deref(), seed))
    }
}

/// The position an `info` token names and whose it is, rebuilt by the arena.
type OpenedInfo = (Box<dyn Match>, arena::seal::InfoClaims);

impl Position {
    /// Rebuilds the position of `info` when it is the request's only position (the arena reads
    /// the match's stored moves): [`Position::of`] then checks the request with it.
    async fn open_info(
        game: &dyn Game,
        codec: &StateCodec,
        has_state: bool,
        info: Option<&str>,
    ) -> Result<Option<OpenedInfo>, ServiceError> {
        match info {
            Some(token) if !has_state => Ok(Some(codec.open_info(game, token).await?)),
            _ => Ok(None),
        }
    }

    fn of(
        game: &dyn Game,
        codec: &StateCodec,
        state: Option<&serde_json::value::RawValue>,
        seat: Option<usize>,
        info: Option<&str>,
        opened: Option<OpenedInfo>,
    ) -> Result<Position, ServiceError> {
        let invalid = |detail: String| ServiceError::new(ErrorCode::InvalidRequest, detail);
        let position = match (state, info) {
            (Some(state), None) => {
                let Some(seat) = seat else {
                    return Err(invalid("`seat` is needed with `state`".into()));
                };
                let token: Option<String> = serde_json::from_str::<String>(state.get()).ok();
                Position {
                    transparent: token.is_none(),
                    state: codec.decode_raw(game, state)?,
                    seat,
                    hidden_token: token,
                }
            }
            (None, Some(info)) => {
                let Some((state, claims)) = opened else {
                    return Err(ServiceError::new(
                        ErrorCode::Internal,
                        "the `info` token was not opened",
                    ));
                };
                if let Some(seat) = seat.filter(|&seat| seat != claims.seat) {
                    return Err(invalid(format!(
                        "this `info` token is seat {}'s (match {}), not seat {seat}'s: omit `seat` or give {}",
                        claims.seat, claims.match_id, claims.seat
                    )));
                }
                Position {
                    state,
                    seat: claims.seat,
                    transparent: false,
                    hidden_token: Some(info.to_string()),
                }
            }
            (Some(_), Some(_)) => {
                return Err(invalid(
                    "give `state` and `seat`, or `info`, not both".into(),
                ));
            }
            (None, None) => return Err(invalid("give `state` and `seat`, or `info`".into())),
        };
        check_seat(position.state.as_ref(), position.seat)?;
        Ok(position)
    }
}

/// The most states one `determinize` request may ask for.
const MAX_DETERMINIZE: usize = 256;

/// Play out a seat's actions.
///
/// The position is `state` and `seat`, or the `info` token of an arena move request (its seat's;
/// played out from determinizations, as a sealed state). Plays `count` games to their end after each of `seat`'s legal actions (or the `actions`
/// listed), every seat then playing `policy` (uniformly random moves, or the built-in
/// `heuristic` bot's on its own view), and answers per action every seat's mean final score and
/// its standard error: flat Monte Carlo at the engine's speed, for bots in any language. A sealed
/// state is played out from states drawn among those `seat` cannot tell apart from it (as
/// `/determinize` draws them), so the figures tell nothing `seat` may not know; a transparent
/// state (its holder sees everything) from itself, the chance still to come redrawn each round.
/// The actions of a round share its starting state and chance, so their differences are
/// measured with less noise than their values. Bounded: `count` at most 10000, and 2 s of CPU per
/// request (`invalid_request` beyond; ask for fewer playouts or fewer actions).
#[utoipa::path(
    operation_id = "rollout_actions",
    tag = "rules",
    params(("game" = String, Path, description = "Game id, e.g. `twenty_two`")),
    request_body = RolloutsRequest,
    responses(
        (status = 200, description = "Per action, every seat's mean final score", body = RolloutsResponse),
        (status = 400, description = "`invalid_request` (a `count` outside 1..=10000, no action to weigh, more than 2 s of CPU, neither or both of `state` and `info`, `state` without `seat`, or a `seat` other than the `info` token's), `invalid_state`, `state_tampered`, `invalid_info` (an `info` token changed, cut, sealed by another arena, or of another game), `sealed_state_required` or `invalid_seat`", body = Problem, content_type = "application/problem+json"),
        UnknownGame,
        JsonBodyErrors,
        (status = 422, description = "`not_your_turn` (the seat may not act now), `illegal_action` (a listed action is not legal), `invalid_seed`, or `no_consistent_deal`", body = Problem, content_type = "application/problem+json"),
    ),
)]
#[post("/v1/games/{game}/rollouts")]
pub async fn rollouts(
    game: web::Path<String>,
    request: web::Json<RolloutsRequest>,
    codec: web::Data<StateCodec>,
) -> Result<web::Json<RolloutsResponse>, ServiceError> {
    let game = find_game(&game)?;
    let request = request.into_inner();
    let opened = Position::open_info(
        game,
        &codec,
        request.state.is_some(),
        request.info.as_deref(),
    )
    .await?;
    // Playouts take up to the CPU budget: off the server's event loop.
    web::block(move || guard(|| run_rollouts(game, &request, &codec, opened)))
        .await
        .map_err(|_| ServiceError::new(ErrorCode::Internal, "the rollouts were interrupted"))?
        .map(web::Json)
}

/// The most playouts per action one `rollouts` request may ask for.
const MAX_ROLLOUTS: u32 = 10_000;
/// The CPU one `rollouts` request may spend.
const ROLLOUT_CPU_BUDGET: std::time::Duration = std::time::Duration::from_secs(2);

fn run_rollouts(
    game: &dyn Game,
    request: &RolloutsRequest,
    codec: &StateCodec,
    opened: Option<OpenedInfo>,
) -> Result<RolloutsResponse, ServiceError> {
    if !(1..=MAX_ROLLOUTS).contains(&request.count) {
        return Err(ServiceError::new(
            ErrorCode::InvalidRequest,
            format!("count must be 1 to {MAX_ROLLOUTS}, not {}", request.count),
        ));
    }
    let seed = request_seed(request.seed)?;
    let position = Position::of(
        game,
        codec,
        request.state.as_deref(),
        request.seat,
        request.info.as_deref(),
        opened,
    )?;
    let mut rng = position.sampling_rng(codec, seed);
    let (state, seat, determinized) = (position.state, position.seat, !position.transparent);
    if state.is_over() {
        return Err(ServiceError::new(ErrorCode::GameOver, "the game is over"));
    }
    if !state.to_act().contains(&seat) {
        return Err(ServiceError::new(
            ErrorCode::NotYourTurn,
            format!("seat {seat} may not act now"),
        ));
    }
    let legal_actions = state.legal_actions(seat);
    let indices: Vec<usize> = match &request.actions {
        None => (0..legal_actions.len()).collect(),
        Some(actions) => actions
            .iter()
            .map(|action| {
                legal_actions
                    .iter()
                    .position(|a| a == action)
                    .ok_or_else(|| {
                        ServiceError::new(
                            ErrorCode::IllegalAction,
                            format!("{action} is not a legal action of seat {seat}"),
                        )
                    })
            })
            .collect::<Result<_, _>>()?,
    };
    if indices.is_empty() {
        return Err(ServiceError::new(
            ErrorCode::InvalidRequest,
            "no action to weigh: `actions` is empty",
        ));
    }
    let rollout_start = if determinized {
        RolloutStart::Determinized
    } else {
        RolloutStart::Exact
    };
    let policy = match request.policy {
        RolloutPolicy::Random => Rollout::Uniform,
        RolloutPolicy::Heuristic => Rollout::Heuristic { percent: 100 },
    };
    let cpu = cpu_time::ThreadTime::now();
    let plan = RolloutPlan {
        actions: &indices,
        count: request.count,
        start: rollout_start,
    };
    let values = state
        .rollouts(seat, plan, policy, &mut rng, &mut |_| {
            cpu.elapsed() < ROLLOUT_CPU_BUDGET
        })
        .map_err(|stop| match stop {
            RolloutStop::Budget => ServiceError::new(
                ErrorCode::InvalidRequest,
                format!(
                    "{} playouts of {} actions take more than {} s of CPU: ask for fewer",
                    request.count,
                    indices.len(),
                    ROLLOUT_CPU_BUDGET.as_secs()
                ),
            ),
            RolloutStop::NoConsistentDeal => no_consistent_deal(seat),
        })?;
    Ok(RolloutsResponse {
        seat,
        seed,
        policy: request.policy,
        determinized,
        results: indices
            .iter()
            .zip(values)
            .map(|(&index, value)| ActionRollouts {
                action: legal_actions[index].clone(),
                playouts: value.playouts,
                mean: value.mean(),
                standard_error: value.standard_error(),
                mean_standing: value.mean_standing(),
            })
            .collect(),
    })
}

/// A request's sampling seed, checked, or a fresh one.
fn request_seed(seed: Option<u64>) -> Result<u64, ServiceError> {
    match seed {
        Some(seed) if seed > engine::rng::MAX_SEED => Err(ServiceError::new(
            ErrorCode::InvalidSeed,
            format!("seed {seed} is above 2^53 - 1"),
        )),
        Some(seed) => Ok(seed),
        None => Ok(rand::random::<u64>() & engine::rng::MAX_SEED),
    }
}

fn no_consistent_deal(seat: usize) -> ServiceError {
    ServiceError::new(
        ErrorCode::NoConsistentDeal,
        format!("no deal is consistent with this state's record as seat {seat} sees it"),
    )
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
