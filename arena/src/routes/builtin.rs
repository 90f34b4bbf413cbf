//! `/bots/{name}/...`: the built-in bots ([`crate::builtin`]) over HTTP, with the public bot
//! protocol.

use super::parse_body;
use crate::builtin::{ISMCTS_BUDGET_MS, choose, info, is_builtin};
use crate::problem::responses::{JsonBodyErrors, UnknownBuiltinBot};
use crate::problem::{ErrorCode, Problem, ServiceError};
use crate::service::Arena;
use crate::wire::{BotInfo, EndNotice, MoveRequest, MoveResponse, StartNotice};
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use serde_json::Value;

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
        (status = 400, description = "`malformed_json`: the body is not a move request; `invalid_request`: a number out of its documented range", body = Problem, content_type = "application/problem+json"),
        UnknownBuiltinBot,
        JsonBodyErrors,
        (status = 422, description = "Unknown game, no legal action, or a view the game cannot read", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/bots/{name}/move")]
pub async fn bot_move(
    name: web::Path<String>,
    request: web::Json<BuiltinMove>,
    arena: Option<web::Data<Arena>>,
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
            history_from: None,
            info: None,
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
    let notice: T = parse_body(request, body)?;
    check(&notice).map_err(ServiceError::invalid)?;
    Ok(HttpResponse::NoContent().finish())
}
