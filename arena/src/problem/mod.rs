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
use actix_web::http::header::{CONTENT_TYPE, HeaderValue, WWW_AUTHENTICATE};
use actix_web::mime;
use actix_web::{HttpMessage as _, HttpRequest, HttpResponse, ResponseError};
use engine::{ActionError, ReplayError, SetupError, StateError};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub mod responses;

/// The media type of every error body.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// Declares [`ErrorCode`] from one table, a line per code: `Variant = STATUS, "wire_code",
/// "Title";` (the variant's doc above it). The enum, [`ErrorCode::ALL`], the wire string, the
/// status and the title all come from that line.
macro_rules! error_codes {
    ($($(#[doc = $doc:literal])* $variant:ident = $status:ident, $wire:literal, $title:literal;)*) => {
        /// Every stable error code the service returns, rules API and arena alike. Clients branch
        /// on `code`, never on the English `detail`. The list is closed: a new code is a new line
        /// of the table below, with its status and title.
        // The wire string is serde's snake_case of the variant (utoipa does not read a
        // `rename` a macro writes); a unit test holds it equal to the table's.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
        #[serde(rename_all = "snake_case")]
        pub enum ErrorCode {
            $($(#[doc = $doc])* $variant,)*
        }

        impl ErrorCode {
            /// Every code, in the order of the table (docs and tests iterate it).
            pub const ALL: [ErrorCode; [$($wire),*].len()] = [$(ErrorCode::$variant),*];

            /// The snake_case code, as on the wire.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $wire,)*
                }
            }

            /// The HTTP status of this code: the only place a status is chosen.
            pub fn status(self) -> StatusCode {
                match self {
                    $(ErrorCode::$variant => StatusCode::$status,)*
                }
            }

            /// A short human title, the same for every occurrence of the code.
            pub fn title(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $title,)*
                }
            }
        }
    };
}

error_codes! {
    /// A request the server cannot read: a body that could not be received whole, a bad path.
    BadRequest = BAD_REQUEST, "bad_request", "Bad request";
    /// A request body that is not valid JSON for its endpoint (syntax, a wrong type, a missing
    /// or unknown field), on every route of the service.
    MalformedJson = BAD_REQUEST, "malformed_json", "Malformed JSON";
    /// A request that is well-formed but makes no sense (a bad name, a number out of its
    /// documented range, no bots, an unknown query parameter).
    InvalidRequest = BAD_REQUEST, "invalid_request", "Invalid request";
    /// The state is malformed, of another game, of another version, or inconsistent.
    InvalidState = BAD_REQUEST, "invalid_state", "Invalid state";
    /// A sealed token was modified, truncated, or sealed with another key.
    StateTampered = BAD_REQUEST, "state_tampered", "Sealed state tampered with";
    /// An `info` token (of a move request) that was changed, cut, sealed by another arena, or
    /// is of another game than the path's.
    InvalidInfo = BAD_REQUEST, "invalid_info", "Invalid info token";
    /// This server only accepts sealed states (`--require-sealed`).
    SealedStateRequired = BAD_REQUEST, "sealed_state_required", "Sealed state required";
    /// The seat does not exist in this game.
    InvalidSeat = BAD_REQUEST, "invalid_seat", "Invalid seat";
    /// No token where one is needed, or a valid token that does not own this bot.
    Unauthorized = UNAUTHORIZED, "unauthorized", "Unauthorized";
    /// A bearer token that is not the admin token, a live bot's owner token or a player's token, wherever it
    /// is sent (also on routes that work without a token).
    InvalidToken = UNAUTHORIZED, "invalid_token", "Invalid token";
    /// No game with this id in the catalog.
    UnknownGame = NOT_FOUND, "unknown_game", "Unknown game";
    /// No bot with this id.
    UnknownBot = NOT_FOUND, "unknown_bot", "Unknown bot";
    /// No match with this id.
    UnknownMatch = NOT_FOUND, "unknown_match", "Unknown match";
    /// No such tournament.
    UnknownTournament = NOT_FOUND, "unknown_tournament", "Unknown tournament";
    /// A seat's view of a match that is still running (only the spectator's view is shown).
    MatchRunning = FORBIDDEN, "match_running", "The match is running";
    /// The request needs the owner token of a bot seated in the match (or tournament), or the
    /// server's admin token.
    Forbidden = FORBIDDEN, "forbidden", "Forbidden";
    /// `"ranked": true` in `POST /v1/matches` without the admin token: ranked matches come from
    /// the ladder.
    RankedByLadderOnly = FORBIDDEN, "ranked_by_ladder_only", "Ranked matches come from the ladder";
    /// The match (or every table of the tournament) is already over: there is nothing to cancel.
    MatchFinished = CONFLICT, "match_finished", "The match is over";
    /// A seated bot's owner cancels only until the bot's first move (a tournament: withdraws it
    /// only from tables not yet started); the admin may still cancel.
    MatchUnderway = CONFLICT, "match_underway", "The match is underway";
    /// A registered bot is seated only by the ladder, its owner's token, the admin, or anyone
    /// once its owner opened it to challenges (`open_to_challenges`); `detail` names the bot.
    ConsentRequired = FORBIDDEN, "consent_required", "The bot's owner has not consented";
    /// The stream bot is connected already: a second connection is refused unless it asks to
    /// replace the first (`?replace=true`).
    AlreadyConnected = CONFLICT, "already_connected", "The bot is connected already";
    /// A tournament match whose deal another table still plays: every table of a deal holds the
    /// same cards, so its moves, result and replay open once all of them are over.
    DealInPlay = FORBIDDEN, "deal_in_play", "The deal is still in play at another table";
    /// An answer to a move request that is no longer pending (answered, timed out, or replaced
    /// by a newer request): `request_id` is not the seat's pending one.
    StaleRequest = CONFLICT, "stale_request", "Stale move request";
    /// Another live bot already has this name (names are unique so matches can name bots).
    BotNameTaken = CONFLICT, "bot_name_taken", "Bot name taken";
    /// Too many requests of this kind from this client or token.
    RateLimited = TOO_MANY_REQUESTS, "rate_limited", "Too many requests";
    // Issue 48q (costs counted per match): the queue's caps per client.
    /// The client already has `--max-queued-per-client` matches waiting (queued, or tables
    /// waiting for people): nothing of the request was stored (`Retry-After`).
    QueueFull = TOO_MANY_REQUESTS, "queue_full", "Too many queued matches";
    /// Only the server's admin token may do this: a tournament of more tables than
    /// `--max-tournament-matches`.
    AdminRequired = FORBIDDEN, "admin_required", "The admin token is required";
    /// No such route.
    NotFound = NOT_FOUND, "not_found", "Not found";
    /// The route exists, but not with this method (the `Allow` header lists those it takes).
    MethodNotAllowed = METHOD_NOT_ALLOWED, "method_not_allowed", "Method not allowed";
    /// The request body is larger than the configured limit.
    PayloadTooLarge = PAYLOAD_TOO_LARGE, "payload_too_large", "Payload too large";
    /// A JSON endpoint was sent a body whose `Content-Type` is not JSON.
    UnsupportedMediaType = UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type", "Unsupported media type";
    /// An option is unknown, of the wrong type, out of range or fixed by the game id.
    InvalidOptions = UNPROCESSABLE_ENTITY, "invalid_options", "Invalid options";
    /// The player count is outside the game's range.
    InvalidPlayers = UNPROCESSABLE_ENTITY, "invalid_players", "Invalid player count";
    /// A stacked deal names an unknown, duplicate or unavailable card.
    InvalidDeals = UNPROCESSABLE_ENTITY, "invalid_deals", "Invalid stacked deals";
    /// The seed is above 2^53 - 1 (JSON readers such as JavaScript's would round it).
    InvalidSeed = UNPROCESSABLE_ENTITY, "invalid_seed", "Seed out of range";
    /// The action breaks a rule (see `reason` and `detail`).
    IllegalAction = UNPROCESSABLE_ENTITY, "illegal_action", "Illegal action";
    /// The seat may not act now.
    NotYourTurn = UNPROCESSABLE_ENTITY, "not_your_turn", "Not your turn";
    /// The game has ended.
    GameOver = UNPROCESSABLE_ENTITY, "game_over", "Game over";
    /// The bot URL is refused by the address policy (scheme, credentials, or an address in a denied
    /// range); `detail` says why.
    BotUrlRefused = UNPROCESSABLE_ENTITY, "bot_url_refused", "Bot URL refused";
    /// The bot's `GET /` failed (connection, timeout, status).
    BotUnreachable = UNPROCESSABLE_ENTITY, "bot_unreachable", "Bot unreachable";
    /// The bot answered `GET /` with something other than the protocol's identity.
    BotNonconforming = UNPROCESSABLE_ENTITY, "bot_nonconforming", "Bot does not speak the protocol";
    /// A name (a bot's, a person's, a player's) that is not NFC, holds an unprintable, bidi
    /// control or zero-width character, or markup (`<`, `>`); `detail` names the character.
    InvalidName = UNPROCESSABLE_ENTITY, "invalid_name", "Invalid name";
    /// The bot does not play (or is not registered for) the game.
    BotGameMismatch = UNPROCESSABLE_ENTITY, "bot_game_mismatch", "Bot does not play this game";
    /// A ranked match was given options, a seed or deals.
    RankedOverrides = UNPROCESSABLE_ENTITY, "ranked_overrides", "Ranked matches take no overrides";
    /// A ranked match names one bot in two seats.
    DuplicateBots = UNPROCESSABLE_ENTITY, "duplicate_bots", "Duplicate bots";
    /// A built-in bot was asked for a move it cannot read (unknown game, no legal action).
    InvalidMoveRequest = UNPROCESSABLE_ENTITY, "invalid_move_request", "Invalid move request";
    /// No deal consistent with the state's record was found for `/determinize` (a forged record
    /// that contradicts itself).
    NoConsistentDeal = UNPROCESSABLE_ENTITY, "no_consistent_deal", "No consistent deal";
    /// The match's moves were deleted by retention (`--retain-unranked-days`): its result stays.
    MovesPruned = GONE, "moves_pruned", "The match's moves were deleted";
    /// No table with this id.
    UnknownTable = NOT_FOUND, "unknown_table", "Unknown table";
    /// The key holds no seat of this table (a seat's key is in its link).
    SeatKeyRefused = FORBIDDEN, "seat_key_refused", "Seat key refused";
    /// The key holds another seat of this table than the one named.
    NotYourSeat = FORBIDDEN, "not_your_seat", "Not your seat";
    /// The seat is not open, or someone took it first.
    SeatTaken = CONFLICT, "seat_taken", "Seat taken";
    /// Every open seat of the table is taken.
    TableFull = CONFLICT, "table_full", "Table full";
    /// The table's match starts once every person has joined: no move before.
    TableWaiting = CONFLICT, "table_waiting", "The table waits for its players";
    /// No player with this id.
    UnknownPlayer = NOT_FOUND, "unknown_player", "Unknown player";
    /// Another player already has this name (people's names link to their page).
    PlayerNameTaken = CONFLICT, "player_name_taken", "Player name taken";
    /// A seat held for a player is joined with that player's token
    /// (`Authorization: Bearer <token>`): none was sent, or another one.
    PlayerTokenRefused = FORBIDDEN, "player_token_refused", "Player token refused";
    /// The arena's database does not answer (stopped, unreachable, out of connections or
    /// locked): try again shortly (`Retry-After`); nothing was changed.
    DatabaseUnavailable = SERVICE_UNAVAILABLE, "database_unavailable", "Database unavailable";
    /// `/readyz`: this process cannot serve now (its database does not answer, or lacks a
    /// migration of this build; `detail` says which).
    NotReady = SERVICE_UNAVAILABLE, "not_ready", "Not ready";
    /// An `Idempotency-Key` already used, within 24 hours, by this client on this route with
    /// another body: a new request needs a new key.
    IdempotencyKeyReused = UNPROCESSABLE_ENTITY, "idempotency_key_reused", "Idempotency key reused";
    // Issue 48, part 48s (bounded search and connections).
    /// A `/rollouts` or `/determinize` request whose estimated cost is over the 2 s a search
    /// may take (`detail` names the estimate and what fits): ask for fewer, or give `budget_ms`.
    SearchOverBudget = UNPROCESSABLE_ENTITY, "search_over_budget", "Search over budget";
    /// The client has `--search-per-client` searches running or waiting already (`Retry-After`).
    TooManySearches = TOO_MANY_REQUESTS, "too_many_searches", "Too many searches";
    /// The client has `--max-streams-per-client` streams open already (SSE and bot streams;
    /// `Retry-After`).
    TooManyStreams = TOO_MANY_REQUESTS, "too_many_streams", "Too many streams";
    /// The server holds as much of this kind of work as it takes (`--max-streams` streams, or a
    /// full search queue): try again shortly (`Retry-After`).
    ServerBusy = SERVICE_UNAVAILABLE, "server_busy", "Server busy";
    /// The request body did not arrive within `--body-timeout-ms`; the connection is closed.
    RequestTimeout = REQUEST_TIMEOUT, "request_timeout", "Request timeout";
    /// A bug on our side; details are only in the server log.
    Internal = INTERNAL_SERVER_ERROR, "internal", "Internal error";
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

    /// `unauthorized`: no token, or a token that does not own this bot.
    pub fn unauthorized() -> ServiceError {
        ServiceError::new(
            ErrorCode::Unauthorized,
            "send the bot's owner token as `Authorization: Bearer <token>`",
        )
    }

    /// `invalid_token`: the bearer token sent is neither the admin token nor a live bot's owner
    /// token (a typo, a deleted bot, a rotated token).
    pub fn invalid_token() -> ServiceError {
        ServiceError::new(
            ErrorCode::InvalidToken,
            "the `Authorization: Bearer` token is not valid here: not the admin token, the owner token of a live bot or a player's token (send none on routes that work without one)",
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
        let headers = response.headers_mut();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON));
        // RFC 6750: a 401 names the scheme it wants, and why a token sent was refused.
        match self.code {
            ErrorCode::InvalidToken => {
                headers.insert(
                    WWW_AUTHENTICATE,
                    HeaderValue::from_static(r#"Bearer realm="cardroom", error="invalid_token""#),
                );
            }
            code if code.status() == StatusCode::UNAUTHORIZED => {
                headers.insert(
                    WWW_AUTHENTICATE,
                    HeaderValue::from_static(r#"Bearer realm="cardroom""#),
                );
            }
            _ => {}
        }
        if self.code == ErrorCode::DatabaseUnavailable {
            headers.insert(
                actix_web::http::header::RETRY_AFTER,
                HeaderValue::from(DATABASE_RETRY_AFTER_SECS),
            );
        }
        // 48s: a refused search or stream may be asked again shortly.
        if matches!(
            self.code,
            ErrorCode::TooManySearches | ErrorCode::TooManyStreams | ErrorCode::ServerBusy
        ) {
            headers.insert(
                actix_web::http::header::RETRY_AFTER,
                HeaderValue::from(BUSY_RETRY_AFTER_SECS),
            );
        }
        if self.code == ErrorCode::RequestTimeout {
            headers.insert(
                actix_web::http::header::CONNECTION,
                HeaderValue::from_static("close"),
            );
        }
        // The code, for the server's count of problem responses by code (`/metrics`).
        response.extensions_mut().insert(self.code);
        response
    }
}

impl From<anyhow::Error> for ServiceError {
    fn from(error: anyhow::Error) -> ServiceError {
        if database_unavailable(&error) {
            tracing::warn!(error = format!("{error:#}"), "the database does not answer");
            return ServiceError::new(
                ErrorCode::DatabaseUnavailable,
                "the arena's database does not answer; try again shortly",
            );
        }
        ServiceError::internal(&error)
    }
}

/// Seconds a client is told to wait (`Retry-After`) after a 503 `database_unavailable`.
pub const DATABASE_RETRY_AFTER_SECS: u64 = 5;

/// Seconds a client is told to wait (`Retry-After`) after 429 `too_many_searches` or
/// `too_many_streams`, or 503 `server_busy`.
pub const BUSY_RETRY_AFTER_SECS: u64 = 1;

/// Whether `error` says the database cannot be reached or used now, rather than that a query was
/// wrong: no connection within the pool's acquire timeout, a connection that failed (I/O, TLS, a
/// server shutting down or refusing connections), or SQLite busy, locked, out of disk or unable
/// to open its file.
pub fn database_unavailable(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        let Some(error) = cause.downcast_ref::<sqlx::Error>() else {
            return false;
        };
        match error {
            sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::Io(_)
            | sqlx::Error::Tls(_)
            | sqlx::Error::WorkerCrashed => true,
            sqlx::Error::Database(database) => {
                let code = database.code().unwrap_or_default();
                // PostgreSQL: connection exceptions (class 08), shutdown and start-up (57P01-03),
                // too many connections (53300). SQLite's primary result codes (the low byte of its
                // extended ones): BUSY 5, LOCKED 6, IOERR 10, FULL 13, CANTOPEN 14.
                code.starts_with("08")
                    || matches!(code.as_ref(), "57P01" | "57P02" | "57P03" | "53300")
                    || code
                        .parse::<i32>()
                        .is_ok_and(|extended| matches!(extended & 0xff, 5 | 6 | 10 | 13 | 14))
            }
            _ => false,
        }
    })
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

/// The 400 `malformed_json` problem of a request body that is not the JSON its endpoint takes
/// (every route: rules API and arena alike).
pub fn invalid_body(error: &serde_json::Error) -> ServiceError {
    ServiceError::new(
        ErrorCode::MalformedJson,
        format!("the request body is not valid JSON for this endpoint: {error}"),
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

/// Maps query extractor errors: 400 `invalid_request`, as every query problem.
pub fn query_error(error: QueryPayloadError, _request: &HttpRequest) -> actix_web::Error {
    ServiceError::invalid(format!("invalid query: {error}")).into()
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
