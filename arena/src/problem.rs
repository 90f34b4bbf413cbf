//! The one error type of the whole service (rules API and arena) and its one closed list of
//! codes, rendered once at the HTTP edge as RFC 9457 `application/problem+json`.
//!
//! Handlers and the arena's service layer return a [`ServiceError`]: a stable [`ErrorCode`] and a
//! sentence. Only [`ServiceError`]'s `ResponseError` impl turns it into an HTTP status and a body,
//! so the status of a code is decided in one place ([`ErrorCode::status`]). The engine's typed
//! errors convert with `From`; the extractor error handlers ([`json_error`], [`path_error`],
//! [`query_error`]) and the route fallback ([`not_found`]) make even malformed requests answer a
//! problem document.

use actix_web::body::BoxBody;
use actix_web::error::{JsonPayloadError, PathError, QueryPayloadError};
use actix_web::http::StatusCode;
use actix_web::http::header::{CONTENT_TYPE, HeaderValue};
use actix_web::mime;
use actix_web::{HttpMessage as _, HttpRequest, HttpResponse, ResponseError};
use engine::{ActionError, ReplayError, SetupError, StateError};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The media type of every error body.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// Every stable error code the service returns, rules API and arena alike. Clients branch on
/// `code`, never on the English `detail`. The list is closed: a new code is a new variant here,
/// with its status and title.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// 400: malformed JSON, a wrong type or a missing field (rules API bodies, paths, queries).
    BadRequest,
    /// 400: an arena request body that is not valid JSON for the endpoint.
    MalformedJson,
    /// 400: an arena request that is well-formed but makes no sense (a bad name, a deadline out
    /// of range, no bots).
    InvalidRequest,
    /// 400: the state is malformed, of another game, of another version, or inconsistent.
    InvalidState,
    /// 400: a sealed token was modified, truncated, or sealed with another key.
    StateTampered,
    /// 400: this server only accepts sealed states (`--require-sealed`).
    SealedStateRequired,
    /// 400: the seat does not exist in this game.
    InvalidSeat,
    /// 401: missing or wrong owner token.
    Unauthorized,
    /// 404: no game with this id in the catalog.
    UnknownGame,
    /// 404: no bot with this id.
    UnknownBot,
    /// 404: no match with this id.
    UnknownMatch,
    /// 404: no such tournament.
    UnknownTournament,
    /// 403: a seat's view of a match that is still running (only the spectator's view is shown).
    MatchRunning,
    /// 403: a tournament match whose deal another table still plays: every table of a deal
    /// holds the same cards, so its moves, result and replay open once all of them are over.
    DealInPlay,
    /// 409: another live bot already has this name (names are unique so matches can name bots).
    BotNameTaken,
    /// 429: too many requests of this kind from this client or token.
    RateLimited,
    /// 404: no such route.
    NotFound,
    /// 413: the request body is larger than the configured limit.
    PayloadTooLarge,
    /// 415: a JSON endpoint was sent a body whose `Content-Type` is not JSON.
    UnsupportedMediaType,
    /// 422: an option is unknown, of the wrong type, out of range or fixed by the game id.
    InvalidOptions,
    /// 422: the player count is outside the game's range.
    InvalidPlayers,
    /// 422: a stacked deal names an unknown, duplicate or unavailable card.
    InvalidDeals,
    /// 422: the seed is above 2^53 - 1 (JSON readers such as JavaScript's would round it).
    InvalidSeed,
    /// 422: the action breaks a rule (see `reason` and `detail`).
    IllegalAction,
    /// 422: the seat may not act now.
    NotYourTurn,
    /// 422: the game has ended.
    GameOver,
    /// 422: the bot URL is refused by the address policy (scheme, credentials, or an address in
    /// a denied range); `detail` says why.
    BotUrlRefused,
    /// 422: the bot's `GET /` failed (connection, timeout, status).
    BotUnreachable,
    /// 422: the bot answered `GET /` with something other than the protocol's identity.
    BotNonconforming,
    /// 422: the bot does not play (or is not registered for) the game.
    BotGameMismatch,
    /// 422: a ranked match was given options, a seed or deals.
    RankedOverrides,
    /// 422: a ranked match names one bot in two seats.
    DuplicateBots,
    /// 422: a built-in bot was asked for a move it cannot read (unknown game, no legal action).
    InvalidMoveRequest,
    /// 422: no deal consistent with the state's record was found for `/determinize` (a forged
    /// record that contradicts itself).
    NoConsistentDeal,
    /// The match's moves were deleted by retention (`--retain-unranked-days`): its result stays.
    MovesPruned,
    /// 500: a bug on our side; details are only in the server log.
    Internal,
}

impl ErrorCode {
    /// Every code, in the order of the list above (docs and tests iterate it).
    pub const ALL: [ErrorCode; 36] = [
        ErrorCode::BadRequest,
        ErrorCode::MalformedJson,
        ErrorCode::InvalidRequest,
        ErrorCode::InvalidState,
        ErrorCode::StateTampered,
        ErrorCode::SealedStateRequired,
        ErrorCode::InvalidSeat,
        ErrorCode::Unauthorized,
        ErrorCode::UnknownGame,
        ErrorCode::UnknownBot,
        ErrorCode::UnknownMatch,
        ErrorCode::UnknownTournament,
        ErrorCode::MatchRunning,
        ErrorCode::DealInPlay,
        ErrorCode::BotNameTaken,
        ErrorCode::RateLimited,
        ErrorCode::NotFound,
        ErrorCode::PayloadTooLarge,
        ErrorCode::UnsupportedMediaType,
        ErrorCode::InvalidOptions,
        ErrorCode::InvalidPlayers,
        ErrorCode::InvalidDeals,
        ErrorCode::InvalidSeed,
        ErrorCode::IllegalAction,
        ErrorCode::NotYourTurn,
        ErrorCode::GameOver,
        ErrorCode::BotUrlRefused,
        ErrorCode::BotUnreachable,
        ErrorCode::BotNonconforming,
        ErrorCode::BotGameMismatch,
        ErrorCode::RankedOverrides,
        ErrorCode::DuplicateBots,
        ErrorCode::InvalidMoveRequest,
        ErrorCode::NoConsistentDeal,
        ErrorCode::MovesPruned,
        ErrorCode::Internal,
    ];

    /// The snake_case code, as on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadRequest => "bad_request",
            ErrorCode::MalformedJson => "malformed_json",
            ErrorCode::InvalidRequest => "invalid_request",
            ErrorCode::InvalidState => "invalid_state",
            ErrorCode::StateTampered => "state_tampered",
            ErrorCode::SealedStateRequired => "sealed_state_required",
            ErrorCode::InvalidSeat => "invalid_seat",
            ErrorCode::Unauthorized => "unauthorized",
            ErrorCode::UnknownGame => "unknown_game",
            ErrorCode::UnknownBot => "unknown_bot",
            ErrorCode::UnknownMatch => "unknown_match",
            ErrorCode::UnknownTournament => "unknown_tournament",
            ErrorCode::MatchRunning => "match_running",
            ErrorCode::DealInPlay => "deal_in_play",
            ErrorCode::BotNameTaken => "bot_name_taken",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::NotFound => "not_found",
            ErrorCode::PayloadTooLarge => "payload_too_large",
            ErrorCode::UnsupportedMediaType => "unsupported_media_type",
            ErrorCode::InvalidOptions => "invalid_options",
            ErrorCode::InvalidPlayers => "invalid_players",
            ErrorCode::InvalidDeals => "invalid_deals",
            ErrorCode::InvalidSeed => "invalid_seed",
            ErrorCode::IllegalAction => "illegal_action",
            ErrorCode::NotYourTurn => "not_your_turn",
            ErrorCode::GameOver => "game_over",
            ErrorCode::BotUrlRefused => "bot_url_refused",
            ErrorCode::BotUnreachable => "bot_unreachable",
            ErrorCode::BotNonconforming => "bot_nonconforming",
            ErrorCode::BotGameMismatch => "bot_game_mismatch",
            ErrorCode::RankedOverrides => "ranked_overrides",
            ErrorCode::DuplicateBots => "duplicate_bots",
            ErrorCode::InvalidMoveRequest => "invalid_move_request",
            ErrorCode::NoConsistentDeal => "no_consistent_deal",
            ErrorCode::MovesPruned => "moves_pruned",
            ErrorCode::Internal => "internal",
        }
    }

    /// The HTTP status of this code: the only place a status is chosen.
    pub fn status(self) -> StatusCode {
        match self {
            ErrorCode::BadRequest
            | ErrorCode::MalformedJson
            | ErrorCode::InvalidRequest
            | ErrorCode::InvalidState
            | ErrorCode::StateTampered
            | ErrorCode::SealedStateRequired
            | ErrorCode::InvalidSeat => StatusCode::BAD_REQUEST,
            ErrorCode::Unauthorized => StatusCode::UNAUTHORIZED,
            ErrorCode::MatchRunning | ErrorCode::DealInPlay => StatusCode::FORBIDDEN,
            ErrorCode::BotNameTaken => StatusCode::CONFLICT,
            ErrorCode::RateLimited => StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::UnknownGame
            | ErrorCode::UnknownBot
            | ErrorCode::UnknownMatch
            | ErrorCode::UnknownTournament
            | ErrorCode::NotFound => StatusCode::NOT_FOUND,
            ErrorCode::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ErrorCode::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ErrorCode::InvalidOptions
            | ErrorCode::InvalidPlayers
            | ErrorCode::InvalidDeals
            | ErrorCode::InvalidSeed
            | ErrorCode::IllegalAction
            | ErrorCode::NotYourTurn
            | ErrorCode::GameOver
            | ErrorCode::BotUrlRefused
            | ErrorCode::BotUnreachable
            | ErrorCode::BotNonconforming
            | ErrorCode::BotGameMismatch
            | ErrorCode::RankedOverrides
            | ErrorCode::DuplicateBots
            | ErrorCode::InvalidMoveRequest
            | ErrorCode::NoConsistentDeal => StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::MovesPruned => StatusCode::GONE,
            ErrorCode::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// A short human title, the same for every occurrence of the code.
    pub fn title(self) -> &'static str {
        match self {
            ErrorCode::BadRequest => "Bad request",
            ErrorCode::MalformedJson => "Malformed JSON",
            ErrorCode::InvalidRequest => "Invalid request",
            ErrorCode::InvalidState => "Invalid state",
            ErrorCode::StateTampered => "Sealed state tampered with",
            ErrorCode::SealedStateRequired => "Sealed state required",
            ErrorCode::InvalidSeat => "Invalid seat",
            ErrorCode::Unauthorized => "Unauthorized",
            ErrorCode::UnknownGame => "Unknown game",
            ErrorCode::UnknownBot => "Unknown bot",
            ErrorCode::UnknownMatch => "Unknown match",
            ErrorCode::UnknownTournament => "Unknown tournament",
            ErrorCode::MatchRunning => "The match is running",
            ErrorCode::DealInPlay => "The deal is still in play at another table",
            ErrorCode::BotNameTaken => "Bot name taken",
            ErrorCode::RateLimited => "Too many requests",
            ErrorCode::NotFound => "Not found",
            ErrorCode::PayloadTooLarge => "Payload too large",
            ErrorCode::UnsupportedMediaType => "Unsupported media type",
            ErrorCode::InvalidOptions => "Invalid options",
            ErrorCode::InvalidPlayers => "Invalid player count",
            ErrorCode::InvalidDeals => "Invalid stacked deals",
            ErrorCode::InvalidSeed => "Seed out of range",
            ErrorCode::IllegalAction => "Illegal action",
            ErrorCode::NotYourTurn => "Not your turn",
            ErrorCode::GameOver => "Game over",
            ErrorCode::BotUrlRefused => "Bot URL refused",
            ErrorCode::BotUnreachable => "Bot unreachable",
            ErrorCode::BotNonconforming => "Bot does not speak the protocol",
            ErrorCode::BotGameMismatch => "Bot does not play this game",
            ErrorCode::RankedOverrides => "Ranked matches take no overrides",
            ErrorCode::DuplicateBots => "Duplicate bots",
            ErrorCode::InvalidMoveRequest => "Invalid move request",
            ErrorCode::NoConsistentDeal => "No consistent deal",
            ErrorCode::MovesPruned => "The match's moves were deleted",
            ErrorCode::Internal => "Internal error",
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An RFC 9457 problem document: the body of every error response (`application/problem+json`).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "type": "urn:cardroom:problem:illegal_action",
    "title": "Illegal action",
    "status": 422,
    "detail": "you must play a card of the led suit (hearts): you hold 7H",
    "code": "illegal_action",
    "reason": "must_follow_suit"
}))]
pub struct Problem {
    /// A URI naming the kind of problem: `urn:cardroom:problem:<code>`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Short summary of the kind of problem.
    pub title: String,
    /// The HTTP status code.
    pub status: u16,
    /// What went wrong this time, in words a player understands.
    pub detail: String,
    /// Stable machine-readable code.
    pub code: ErrorCode,
    /// For refused actions: the engine's finer sub-reason (e.g. `card_not_in_hand`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// For replays: zero-based index of the first refused action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// For replays: the seat of the first refused action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<usize>,
}

/// The error of every handler and of the arena's service layer: a code, a detail for the client
/// and optional extension fields. It carries no HTTP status: [`ErrorCode::status`] decides it
/// when the error is rendered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {detail}")]
pub struct ServiceError {
    /// The stable code (decides the status).
    pub code: ErrorCode,
    /// The message for the client.
    pub detail: String,
    /// Finer reason of a refused action.
    pub reason: Option<String>,
    /// Index of a refused replay action.
    pub index: Option<usize>,
    /// Seat of a refused replay action.
    pub seat: Option<usize>,
}

impl ServiceError {
    /// An error with a code and a detail.
    pub fn new(code: ErrorCode, detail: impl Into<String>) -> ServiceError {
        ServiceError {
            code,
            detail: detail.into(),
            reason: None,
            index: None,
            seat: None,
        }
    }

    /// `unknown_game`.
    pub fn unknown_game(id: &str) -> ServiceError {
        ServiceError::new(
            ErrorCode::UnknownGame,
            format!("there is no game `{id}`; GET /v1/games lists the game ids"),
        )
    }

    /// `unknown_bot`.
    pub fn unknown_bot(id: &str) -> ServiceError {
        ServiceError::new(ErrorCode::UnknownBot, format!("there is no bot `{id}`"))
    }

    /// `invalid_request`: a request that is well-formed JSON but makes no sense.
    pub fn invalid(detail: impl Into<String>) -> ServiceError {
        ServiceError::new(ErrorCode::InvalidRequest, detail)
    }

    /// `unauthorized`: missing or wrong owner token.
    pub fn unauthorized() -> ServiceError {
        ServiceError::new(
            ErrorCode::Unauthorized,
            "send the bot's owner token as `Authorization: Bearer <token>`",
        )
    }

    /// `bot_name_taken`: another live bot has this name (names are unique so matches can name
    /// bots).
    pub fn name_taken(name: &str) -> ServiceError {
        ServiceError::new(
            ErrorCode::BotNameTaken,
            format!("another bot is already named `{name}`: choose another name"),
        )
    }

    /// `rate_limited`: too many requests of this kind from this client or token (the response
    /// also carries `Retry-After` and `RateLimit-*` headers, see [`crate::limits::RateLimited`]).
    pub fn rate_limited(what: &str, per_minute: u32, retry_after_secs: u64) -> ServiceError {
        ServiceError::new(
            ErrorCode::RateLimited,
            format!(
                "at most {per_minute} {what} per minute per client and per token: retry in {retry_after_secs} s"
            ),
        )
    }

    /// `internal`: the cause goes to the log only.
    pub fn internal(error: &anyhow::Error) -> ServiceError {
        tracing::error!(error = format!("{error:#}"), "internal error");
        ServiceError::new(
            ErrorCode::Internal,
            "the server failed to handle this request; the error is logged",
        )
    }

    /// The HTTP status of this error's code.
    pub fn status(&self) -> StatusCode {
        self.code.status()
    }

    /// The problem document.
    pub fn problem(&self) -> Problem {
        Problem {
            kind: format!("urn:cardroom:problem:{}", self.code.as_str()),
            title: self.code.title().to_string(),
            status: self.code.status().as_u16(),
            detail: self.detail.clone(),
            code: self.code,
            reason: self.reason.clone(),
            index: self.index,
            seat: self.seat,
        }
    }
}

impl ResponseError for ServiceError {
    fn status_code(&self) -> StatusCode {
        self.code.status()
    }

    fn error_response(&self) -> HttpResponse<BoxBody> {
        if self.code == ErrorCode::Internal {
            tracing::error!(detail = %self.detail, "internal error");
        } else {
            tracing::debug!(code = self.code.as_str(), detail = %self.detail, "request refused");
        }
        // A problem always serializes (strings and integers only).
        let body = serde_json::to_vec(&self.problem()).unwrap_or_default();
        let mut response = HttpResponse::build(self.status_code()).body(body);
        response
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON));
        response
    }
}

impl From<anyhow::Error> for ServiceError {
    fn from(error: anyhow::Error) -> ServiceError {
        ServiceError::internal(&error)
    }
}

impl From<SetupError> for ServiceError {
    fn from(error: SetupError) -> ServiceError {
        let code = match &error {
            SetupError::PlayerCount { .. } => ErrorCode::InvalidPlayers,
            SetupError::InvalidDeals(_) => ErrorCode::InvalidDeals,
            SetupError::InvalidSeed(_) => ErrorCode::InvalidSeed,
            SetupError::InvalidOptions(_) => ErrorCode::InvalidOptions,
        };
        ServiceError::new(code, error.to_string())
    }
}

impl From<ActionError> for ServiceError {
    fn from(error: ActionError) -> ServiceError {
        let code = match &error {
            ActionError::GameOver => ErrorCode::GameOver,
            ActionError::NotYourTurn { .. } => ErrorCode::NotYourTurn,
            _ => ErrorCode::IllegalAction,
        };
        let mut service = ServiceError::new(code, error.to_string());
        service.reason = Some(error.reason().to_string());
        service
    }
}

impl From<StateError> for ServiceError {
    fn from(error: StateError) -> ServiceError {
        ServiceError::new(ErrorCode::InvalidState, error.to_string())
    }
}

impl From<ReplayError> for ServiceError {
    fn from(error: ReplayError) -> ServiceError {
        let mut service = ServiceError::from(error.error.clone());
        service.detail = error.to_string();
        service.index = Some(error.index);
        service.seat = Some(error.seat);
        service
    }
}

/// True if the request declares a JSON body: `application/json` or any `+json` type. Every JSON
/// endpoint refuses other types (and none) with 415, so a page on another origin cannot drive the
/// API with a CORS-free `text/plain` form post.
pub fn is_json(request: &HttpRequest) -> bool {
    match request.mime_type() {
        Ok(Some(mime)) => mime.subtype() == mime::JSON || mime.suffix() == Some(mime::JSON),
        _ => false,
    }
}

/// The 415 `unsupported_media_type` problem.
pub fn unsupported_media_type(request: &HttpRequest) -> ServiceError {
    let found = request
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map_or_else(|| "none".to_string(), |v| format!("`{v}`"));
    ServiceError::new(
        ErrorCode::UnsupportedMediaType,
        format!(
            "the request body must be JSON sent as `Content-Type: application/json` (found {found})"
        ),
    )
}

/// The `JsonConfig` of every JSON endpoint: a body size limit, JSON content types only (415
/// otherwise), and problem+json for every extractor error.
pub fn json_config(limit: usize) -> actix_web::web::JsonConfig {
    actix_web::web::JsonConfig::default()
        .limit(limit)
        .content_type_required(true)
        .error_handler(json_error)
}

/// Maps the JSON extractor's errors (wrong content type, malformed JSON, wrong types, missing
/// fields, too big).
pub fn json_error(error: JsonPayloadError, request: &HttpRequest) -> actix_web::Error {
    let service = match &error {
        JsonPayloadError::Overflow { limit }
        | JsonPayloadError::OverflowKnownLength { limit, .. } => ServiceError::new(
            ErrorCode::PayloadTooLarge,
            format!("the request body is larger than the limit of {limit} bytes"),
        ),
        JsonPayloadError::ContentType => unsupported_media_type(request),
        JsonPayloadError::Deserialize(e) => invalid_body(e),
        other => unreadable_body(other),
    };
    service.into()
}

/// The 400 problem of a request body that is not the JSON its endpoint takes.
pub fn invalid_body(error: &serde_json::Error) -> ServiceError {
    ServiceError::new(
        ErrorCode::BadRequest,
        format!("the request body is not valid: {error}"),
    )
}

/// The 400 problem of a request body that could not be read.
pub fn unreadable_body(error: &dyn std::fmt::Display) -> ServiceError {
    ServiceError::new(
        ErrorCode::BadRequest,
        format!("the request body could not be read: {error}"),
    )
}

/// Maps path extractor errors.
pub fn path_error(error: PathError, _request: &HttpRequest) -> actix_web::Error {
    ServiceError::new(ErrorCode::BadRequest, format!("invalid path: {error}")).into()
}

/// Maps query extractor errors.
pub fn query_error(error: QueryPayloadError, _request: &HttpRequest) -> actix_web::Error {
    ServiceError::new(
        ErrorCode::BadRequest,
        format!("invalid query string: {error}"),
    )
    .into()
}

/// The fallback for unmatched routes: a 404 problem.
pub async fn not_found(request: HttpRequest) -> Result<HttpResponse, ServiceError> {
    Err(ServiceError::new(
        ErrorCode::NotFound,
        format!(
            "no route for {} {}; see /docs for the API",
            request.method(),
            request.path()
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_serializes_as_its_wire_string_and_maps_to_an_error_status() {
        let mut seen = std::collections::HashSet::new();
        for code in ErrorCode::ALL {
            let wire = serde_json::to_value(code).expect("serialize");
            assert_eq!(wire, serde_json::Value::from(code.as_str()));
            assert!(seen.insert(code.as_str()), "{code} listed twice");
            assert!(
                code.status().is_client_error() || code.status().is_server_error(),
                "{code}"
            );
            assert!(!code.title().is_empty());
        }
    }

    #[test]
    fn a_problem_carries_the_code_status_and_title_of_its_code() {
        let problem = ServiceError::new(ErrorCode::BotUrlRefused, "no").problem();
        assert_eq!(problem.status, 422);
        assert_eq!(problem.kind, "urn:cardroom:problem:bot_url_refused");
        assert_eq!(problem.title, "Bot URL refused");
        let json = serde_json::to_value(&problem).expect("serialize");
        assert_eq!(json["code"], "bot_url_refused");
        assert!(json.get("reason").is_none());
    }
}
