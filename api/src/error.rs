//! One error type for the whole API, rendered as RFC 9457 `application/problem+json` with a stable
//! `code`, plus the extractor error handlers so even malformed input gets a problem document.

use actix_web::body::BoxBody;
use actix_web::error::{JsonPayloadError, PathError, QueryPayloadError};
use actix_web::http::StatusCode;
use actix_web::http::header::{CONTENT_TYPE, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, ResponseError};
use engine::{ActionError, ReplayError, SetupError, StateError};
use serde::Serialize;
use utoipa::ToSchema;

/// Every stable error code the API returns. Clients branch on `code`, never on the English `detail`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// 404: no game with this id in the catalog.
    UnknownGame,
    /// 422: an option is unknown, of the wrong type, out of range or fixed by the game id.
    InvalidOptions,
    /// 422: the player count is outside the game's range.
    InvalidPlayers,
    /// 422: a stacked deal names an unknown, duplicate or unavailable card.
    InvalidDeals,
    /// 400: the state is malformed, of another game, of another version, or inconsistent.
    InvalidState,
    /// 400: a sealed token was modified, truncated, or sealed with another key.
    StateTampered,
    /// 400: this server only accepts sealed states (`--require-sealed`).
    SealedStateRequired,
    /// 400: the seat does not exist in this game.
    InvalidSeat,
    /// 422: the action breaks a rule (see `reason` and `detail`).
    IllegalAction,
    /// 422: the seat may not act now.
    NotYourTurn,
    /// 422: the game has ended.
    GameOver,
    /// 400: malformed JSON, a wrong type or a missing field.
    BadRequest,
    /// 413: the request body is larger than the configured limit.
    PayloadTooLarge,
    /// 404: no such route.
    NotFound,
    /// 500: a bug on our side; details are only in the server log.
    Internal,
}

impl ErrorCode {
    /// The snake_case code, as on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::UnknownGame => "unknown_game",
            ErrorCode::InvalidOptions => "invalid_options",
            ErrorCode::InvalidPlayers => "invalid_players",
            ErrorCode::InvalidDeals => "invalid_deals",
            ErrorCode::InvalidState => "invalid_state",
            ErrorCode::StateTampered => "state_tampered",
            ErrorCode::SealedStateRequired => "sealed_state_required",
            ErrorCode::InvalidSeat => "invalid_seat",
            ErrorCode::IllegalAction => "illegal_action",
            ErrorCode::NotYourTurn => "not_your_turn",
            ErrorCode::GameOver => "game_over",
            ErrorCode::BadRequest => "bad_request",
            ErrorCode::PayloadTooLarge => "payload_too_large",
            ErrorCode::NotFound => "not_found",
            ErrorCode::Internal => "internal",
        }
    }

    /// The HTTP status of this code.
    pub fn status(self) -> StatusCode {
        match self {
            ErrorCode::UnknownGame | ErrorCode::NotFound => StatusCode::NOT_FOUND,
            ErrorCode::InvalidOptions
            | ErrorCode::InvalidPlayers
            | ErrorCode::InvalidDeals
            | ErrorCode::IllegalAction
            | ErrorCode::NotYourTurn
            | ErrorCode::GameOver => StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::InvalidState
            | ErrorCode::StateTampered
            | ErrorCode::SealedStateRequired
            | ErrorCode::InvalidSeat
            | ErrorCode::BadRequest => StatusCode::BAD_REQUEST,
            ErrorCode::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ErrorCode::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// A short human title, the same for every occurrence of the code.
    pub fn title(self) -> &'static str {
        match self {
            ErrorCode::UnknownGame => "Unknown game",
            ErrorCode::InvalidOptions => "Invalid options",
            ErrorCode::InvalidPlayers => "Invalid player count",
            ErrorCode::InvalidDeals => "Invalid stacked deals",
            ErrorCode::InvalidState => "Invalid state",
            ErrorCode::StateTampered => "Sealed state tampered with",
            ErrorCode::SealedStateRequired => "Sealed state required",
            ErrorCode::InvalidSeat => "Invalid seat",
            ErrorCode::IllegalAction => "Illegal action",
            ErrorCode::NotYourTurn => "Not your turn",
            ErrorCode::GameOver => "Game over",
            ErrorCode::BadRequest => "Bad request",
            ErrorCode::PayloadTooLarge => "Payload too large",
            ErrorCode::NotFound => "Not found",
            ErrorCode::Internal => "Internal error",
        }
    }
}

/// An RFC 9457 problem document: the body of every error response (`application/problem+json`).
#[derive(Debug, Clone, Serialize, ToSchema)]
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
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// For replays: zero-based index of the first refused action.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// For replays: the seat of the first refused action.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<usize>,
}

/// The error of every handler: a code, a detail for the client, and optional extension fields.
#[derive(Debug, Clone)]
pub struct ApiError {
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

impl ApiError {
    /// An error with a code and a detail.
    pub fn new(code: ErrorCode, detail: impl Into<String>) -> ApiError {
        ApiError {
            code,
            detail: detail.into(),
            reason: None,
            index: None,
            seat: None,
        }
    }

    /// 404 `unknown_game`.
    pub fn unknown_game(id: &str) -> ApiError {
        ApiError::new(
            ErrorCode::UnknownGame,
            format!("there is no game `{id}`; GET /v1/games lists the game ids"),
        )
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

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.detail)
    }
}

impl std::error::Error for ApiError {}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.code.status()
    }

    fn error_response(&self) -> HttpResponse<BoxBody> {
        if self.code == ErrorCode::Internal {
            tracing::error!(detail = %self.detail, "internal error");
        } else {
            tracing::debug!(code = self.code.as_str(), detail = %self.detail, "request refused");
        }
        let body = serde_json::to_vec(&self.problem()).unwrap_or_default();
        let mut response = HttpResponse::build(self.status_code()).body(body);
        response.headers_mut().insert(
            CONTENT_TYPE,
            HeaderValue::from_static("application/problem+json"),
        );
        response
    }
}

impl From<SetupError> for ApiError {
    fn from(error: SetupError) -> ApiError {
        let code = match &error {
            SetupError::PlayerCount { .. } => ErrorCode::InvalidPlayers,
            SetupError::InvalidDeals(_) => ErrorCode::InvalidDeals,
            _ => ErrorCode::InvalidOptions,
        };
        ApiError::new(code, error.to_string())
    }
}

impl From<ActionError> for ApiError {
    fn from(error: ActionError) -> ApiError {
        let code = match &error {
            ActionError::GameOver => ErrorCode::GameOver,
            ActionError::NotYourTurn { .. } => ErrorCode::NotYourTurn,
            _ => ErrorCode::IllegalAction,
        };
        let mut api = ApiError::new(code, error.to_string());
        api.reason = Some(error.reason().to_string());
        api
    }
}

impl From<StateError> for ApiError {
    fn from(error: StateError) -> ApiError {
        ApiError::new(ErrorCode::InvalidState, error.to_string())
    }
}

impl From<ReplayError> for ApiError {
    fn from(error: ReplayError) -> ApiError {
        let mut api = ApiError::from(error.error.clone());
        api.detail = error.to_string();
        api.index = Some(error.index);
        api.seat = Some(error.seat);
        api
    }
}

/// Maps the JSON extractor's errors (malformed JSON, wrong types, missing fields, too big).
pub fn json_error(error: JsonPayloadError, _request: &HttpRequest) -> actix_web::Error {
    let api = match &error {
        JsonPayloadError::Overflow { limit }
        | JsonPayloadError::OverflowKnownLength { limit, .. } => ApiError::new(
            ErrorCode::PayloadTooLarge,
            format!("the request body is larger than the limit of {limit} bytes"),
        ),
        JsonPayloadError::Deserialize(e) => ApiError::new(
            ErrorCode::BadRequest,
            format!("the request body is not valid: {e}"),
        ),
        JsonPayloadError::ContentType => ApiError::new(
            ErrorCode::BadRequest,
            "the request body must be JSON (Content-Type: application/json)",
        ),
        other => ApiError::new(
            ErrorCode::BadRequest,
            format!("the request body could not be read: {other}"),
        ),
    };
    api.into()
}

/// Maps path extractor errors.
pub fn path_error(error: PathError, _request: &HttpRequest) -> actix_web::Error {
    ApiError::new(ErrorCode::BadRequest, format!("invalid path: {error}")).into()
}

/// Maps query extractor errors.
pub fn query_error(error: QueryPayloadError, _request: &HttpRequest) -> actix_web::Error {
    ApiError::new(
        ErrorCode::BadRequest,
        format!("invalid query string: {error}"),
    )
    .into()
}

/// The fallback for unmatched routes: a 404 problem.
pub async fn not_found(request: HttpRequest) -> Result<HttpResponse, ApiError> {
    Err(ApiError::new(
        ErrorCode::NotFound,
        format!(
            "no route for {} {}; see /docs for the API",
            request.method(),
            request.path()
        ),
    ))
}

/// Runs engine code on client-supplied data, turning a panic into 400 `invalid_state`.
///
/// The engine validates states before use and must never panic; this is the second line of defence.
pub fn guard<T>(f: impl FnOnce() -> Result<T, ApiError>) -> Result<T, ApiError> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(panic) => {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            tracing::error!(panic = %message, "the engine panicked on a client-supplied state");
            Err(ApiError::new(
                ErrorCode::InvalidState,
                "the state could not be used: it is inconsistent",
            ))
        }
    }
}
