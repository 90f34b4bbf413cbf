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
//! [`MoveRequest`]/[`MoveResponse`] types, so they work under `--public` too.

use crate::problem::responses::{JsonBodyErrors, UnknownBuiltinBot};
use crate::problem::{ErrorCode, Problem, ServiceError};
use crate::wire::{BotInfo, EndNotice, MoveRequest, MoveResponse, StartNotice};
use actix_web::{HttpRequest, HttpResponse, get, post, web};
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

fn unknown(name: &str) -> ServiceError {
    ServiceError::new(
        ErrorCode::UnknownBot,
        format!("there is no built-in bot `{name}`"),
    )
}

/// Describe a built-in bot (bot protocol `GET /`; also answered at `/bots/{name}/`).
///
/// The arena's own bots speak the public bot protocol; see `openapi/bot-protocol.json`.
#[utoipa::path(
    operation_id = "builtin_bot_info",
    tag = "built-in bots",
    params(("name" = String, Path, description = "`random`, `heuristic` or `ismcts`")),
    responses(
        (status = 200, description = "The bot's identity", body = BotInfo),
        UnknownBuiltinBot,
    )
)]
#[get("/bots/{name}")]
pub async fn bot_info(name: web::Path<String>) -> Result<web::Json<BotInfo>, ServiceError> {
    info(&name).map(web::Json).ok_or_else(|| unknown(&name))
}

/// The same answer at the bot's base URL with its trailing slash (`/bots/random/`, the URL the
/// arena registers and probes: the protocol's `GET /` under that base). Served, not documented:
/// the document names each operation once, without a trailing slash.
pub async fn bot_info_at_base(name: web::Path<String>) -> Result<web::Json<BotInfo>, ServiceError> {
    info(&name).map(web::Json).ok_or_else(|| unknown(&name))
}

/// Ask a built-in bot for a move (bot protocol `POST /move`).
///
/// `random` picks uniformly (deterministically per request); `heuristic` runs the game's own
/// simple policy on the seat's view; `ismcts` searches (IS-MCTS) over determinizations of the
/// request's `state` for the server's `--ismcts-ms` (200 by default) or half the deadline,
/// whichever is shorter (it refuses a request without `state`). Useful to test a client or to get
/// a hint.
#[utoipa::path(
    operation_id = "builtin_bot_move",
    tag = "built-in bots",
    params(("name" = String, Path, description = "`random`, `heuristic` or `ismcts`")),
    request_body = MoveRequest,
    responses(
        (status = 200, description = "The chosen action", body = MoveResponse),
        (status = 400, description = "`bad_request`: the body is not a move request; `invalid_request`: a number out of its documented range", body = Problem, content_type = "application/problem+json"),
        UnknownBuiltinBot,
        JsonBodyErrors,
        (status = 422, description = "Unknown game, no legal action, or a view the game cannot read", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/bots/{name}/move")]
pub async fn bot_move(
    name: web::Path<String>,
    request: web::Json<BuiltinMove>,
    arena: Option<web::Data<crate::Arena>>,
) -> Result<web::Json<MoveResponse>, ServiceError> {
    if !is_builtin(&name) {
        return Err(unknown(&name));
    }
    let request = request.into_inner().into_request();
    request.check().map_err(ServiceError::invalid)?;
    let ismcts_ms = arena.map_or(ISMCTS_BUDGET_MS, |arena| arena.config().ismcts_ms);
    choose(&name, &request, ismcts_ms)
        .map(web::Json)
        .map_err(|detail| ServiceError::new(ErrorCode::InvalidMoveRequest, detail))
}

/// A move request as a built-in bot reads it: a [`MoveRequest`] whose history is checked for its
/// shape but not kept (the built-in bots never read it, and a late move's history is most of the
/// body), so answering costs no more at move 200 than at move 1.
#[derive(Debug, serde::Deserialize)]
pub struct BuiltinMove {
    #[serde(rename = "match")]
    match_id: String,
    game: String,
    seat: usize,
    // Objects, as the schema says (a view or an action of another type is refused).
    view: serde_json::Map<String, Value>,
    legal_actions: Vec<serde_json::Map<String, Value>>,
    deadline_ms: u64,
    #[serde(default)]
    time_left_ms: Option<u64>,
    #[serde(default)]
    history: Option<Vec<SkippedEntry>>,
    #[serde(default)]
    state: Option<Value>,
}

impl BuiltinMove {
    fn into_request(self) -> MoveRequest {
        let _ = self.history;
        MoveRequest {
            match_id: self.match_id,
            game: self.game,
            seat: self.seat,
            view: Value::Object(self.view),
            legal_actions: self.legal_actions.into_iter().map(Value::Object).collect(),
            deadline_ms: self.deadline_ms,
            time_left_ms: self.time_left_ms,
            history: None,
            state: self.state,
        }
    }
}

/// A [`crate::wire::HistoryEntry`], shape checked, content dropped.
#[derive(Debug, serde::Deserialize)]
struct SkippedEntry {
    #[serde(rename = "seat")]
    _seat: usize,
    #[serde(default, rename = "action")]
    _action: Option<SkippedObject>,
    #[serde(rename = "events")]
    _events: Vec<SkippedObject>,
}

/// A JSON object, read and dropped without allocating.
#[derive(Debug)]
struct SkippedObject;

impl<'de> serde::Deserialize<'de> for SkippedObject {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = SkippedObject;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<SkippedObject, A::Error> {
                while map
                    .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
                    .is_some()
                {}
                Ok(SkippedObject)
            }
        }
        deserializer.deserialize_map(Visitor)
    }
}

/// Tell a built-in bot a match begins (bot protocol `POST /start`).
///
/// Built-in bots keep no state between moves: a well-formed notice is acknowledged and ignored.
#[utoipa::path(
    operation_id = "builtin_bot_start",
    tag = "built-in bots",
    params(("name" = String, Path, description = "`random`, `heuristic` or `ismcts`")),
    request_body = StartNotice,
    responses(
        (status = 204, description = "Acknowledged"),
        (status = 400, description = "`malformed_json`: the body is not a start notice; `invalid_request`: a number out of its documented range", body = Problem, content_type = "application/problem+json"),
        UnknownBuiltinBot,
        JsonBodyErrors,
    )
)]
#[post("/bots/{name}/start")]
pub async fn bot_start(
    name: web::Path<String>,
    request: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ServiceError> {
    acknowledge(&name, &request, &body, StartNotice::check)
}

/// Tell a built-in bot a match has ended (bot protocol `POST /end`).
///
/// Built-in bots keep no state between moves: a well-formed notice is acknowledged and ignored.
#[utoipa::path(
    operation_id = "builtin_bot_end",
    tag = "built-in bots",
    params(("name" = String, Path, description = "`random`, `heuristic` or `ismcts`")),
    request_body = EndNotice,
    responses(
        (status = 204, description = "Acknowledged"),
        (status = 400, description = "`malformed_json`: the body is not an end notice", body = Problem, content_type = "application/problem+json"),
        UnknownBuiltinBot,
        JsonBodyErrors,
    )
)]
#[post("/bots/{name}/end")]
pub async fn bot_end(
    name: web::Path<String>,
    request: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ServiceError> {
    acknowledge(&name, &request, &body, |_: &EndNotice| Ok(()))
}

/// A notice is checked like any request (known bot, JSON, the notice's shape), then dropped.
fn acknowledge<T: serde::de::DeserializeOwned>(
    name: &str,
    request: &HttpRequest,
    body: &[u8],
    check: impl FnOnce(&T) -> Result<(), String>,
) -> Result<HttpResponse, ServiceError> {
    if !is_builtin(name) {
        return Err(unknown(name));
    }
    let notice: T = crate::routes::parse_body(request, body)?;
    check(&notice).map_err(ServiceError::invalid)?;
    Ok(HttpResponse::NoContent().finish())
}
