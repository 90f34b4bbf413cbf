//! The error responses that many operations share, documented once for the OpenAPI documents
//! (`responses(...)` of a `#[utoipa::path]` takes these types beside its own tuples). Each body is
//! a [`Problem`] sent as `application/problem+json`.

use super::Problem;
use utoipa::{IntoParams, IntoResponses};

/// The errors of reading any JSON request body.
#[derive(IntoResponses)]
pub enum JsonBodyErrors {
    /// 413.
    #[response(
        status = 413,
        description = "`payload_too_large`: a body over `--max-body-bytes`",
        content_type = "application/problem+json"
    )]
    PayloadTooLarge(Problem),
    /// 415.
    #[response(
        status = 415,
        description = "`unsupported_media_type`: the body is not sent as `Content-Type: application/json`",
        content_type = "application/problem+json"
    )]
    UnsupportedMediaType(Problem),
}

/// The errors of the rules API's endpoints that take a game id and a state: a body that is not
/// the endpoint's JSON, a state that does not load, an unknown game.
#[derive(IntoResponses)]
pub enum StateRequestErrors {
    /// 400.
    #[response(
        status = 400,
        description = "`malformed_json`, `invalid_state`, `state_tampered`, `sealed_state_required` or `invalid_seat`",
        content_type = "application/problem+json"
    )]
    BadState(Problem),
    /// 404.
    #[response(
        status = 404,
        description = "`unknown_game`: no game with this id",
        content_type = "application/problem+json"
    )]
    UnknownGame(Problem),
}

/// 404 `unknown_game`.
#[derive(IntoResponses)]
#[response(
    status = 404,
    description = "`unknown_game`: no game with this id",
    content_type = "application/problem+json"
)]
pub struct UnknownGame(pub Problem);

/// 404 `unknown_bot` on a built-in bot's own endpoints.
#[derive(IntoResponses)]
#[response(
    status = 404,
    description = "`unknown_bot`: no such built-in bot",
    content_type = "application/problem+json"
)]
pub struct UnknownBuiltinBot(pub Problem);

/// 404 `unknown_match`.
#[derive(IntoResponses)]
#[response(
    status = 404,
    description = "`unknown_match`: no match with this id",
    content_type = "application/problem+json"
)]
pub struct UnknownMatch(pub Problem);

/// 401 `unauthorized`.
#[derive(IntoResponses)]
#[response(
    status = 401,
    description = "`unauthorized`: missing or wrong owner token",
    content_type = "application/problem+json"
)]
pub struct OwnerTokenRequired(pub Problem);

/// What `DELETE` of a match or tournament answers besides success: 401 `invalid_token`, 403
/// `forbidden` and 409 `match_finished`.
#[derive(IntoResponses)]
pub enum CancelRefused {
    /// 401 `invalid_token`.
    #[response(
        status = 401,
        description = "`invalid_token`: the bearer token sent is neither the admin token nor a live bot's owner token",
        content_type = "application/problem+json"
    )]
    InvalidToken(Problem),
    /// 403 `forbidden`.
    #[response(
        status = 403,
        description = "`forbidden`: neither the owner token of a seated bot nor the admin token, nor the client that created it",
        content_type = "application/problem+json"
    )]
    Forbidden(Problem),
    /// 409 `match_finished`.
    #[response(
        status = 409,
        description = "`match_finished`: already over (every table, for a tournament); `match_underway`: the owner's bot has made its first move (a tournament: every open table of it has started), only the admin cancels now; for its creator, a worker has started it",
        content_type = "application/problem+json"
    )]
    Finished(Problem),
}

/// 429 `rate_limited`, with the headers that say when to retry.
#[derive(IntoResponses)]
#[response(
    status = 429,
    description = "`rate_limited`: too many requests of this kind from this client or token \
                   (`serve --registrations-per-minute`, `--matches-per-minute`: one unit per \
                   match created); `queue_full` (routes that create matches): the client's \
                   queued matches would pass `--max-queued-per-client`. Nothing is stored",
    content_type = "application/problem+json",
    headers(
        ("Retry-After" = u64, description = "Seconds until such a request is allowed again"),
        ("RateLimit-Limit" = u64, description = "Requests of this kind allowed per minute"),
        ("RateLimit-Remaining" = u64, description = "Requests of this kind allowed now (0)"),
        ("RateLimit-Reset" = u64, description = "Seconds until the full allowance is back"),
    )
)]
pub struct RateLimitedResponse(pub Problem);

/// 404 `unknown_table`.
#[derive(IntoResponses)]
#[response(
    status = 404,
    description = "`unknown_table`: no table with this id",
    content_type = "application/problem+json"
)]
pub struct UnknownTable(pub Problem);

/// What a request with a seat's key answers when the key does not hold that seat: 403
/// `seat_key_refused` (a key of no seat) or `not_your_seat` (another seat's key).
#[derive(IntoResponses)]
#[response(
    status = 403,
    description = "`seat_key_refused`: the key holds no seat of this table; `not_your_seat`: it holds another seat",
    content_type = "application/problem+json"
)]
pub struct SeatKeyRefused(pub Problem);

/// 401 `invalid_token`: a bearer token sent that is not valid, on a route that also works
/// without one.
#[derive(IntoResponses)]
#[response(
    status = 401,
    description = "`invalid_token`: the bearer token sent is not the admin token, a live bot's owner token or a player's token (send none to act anonymously)",
    content_type = "application/problem+json"
)]
pub struct InvalidToken(pub Problem);

/// The request header of every create: `Idempotency-Key`.
#[derive(IntoParams)]
#[into_params(parameter_in = Header)]
pub struct IdempotencyHeader {
    /// Makes the request safe to retry: within 24 hours, the same key and body from the same
    /// client (its token, or its address) answer the first answer again (same id, same body,
    /// `Idempotent-Replayed: true`) and create nothing more; the same key with another body is
    /// 422 `idempotency_key_reused`. 1 to 255 visible ASCII characters: a fresh UUID per
    /// request.
    #[param(
        rename = "Idempotency-Key",
        min_length = 1,
        max_length = 255,
        pattern = "^[!-~]+$"
    )]
    #[allow(dead_code)]
    idempotency_key: Option<String>,
}

/// What a search (`/rollouts`, `/determinize`) is refused with before it runs: 429 and 503,
/// each with `Retry-After` (48s).
#[derive(IntoResponses)]
pub enum SearchRefusals {
    /// 429 `too_many_searches`.
    #[response(
        status = 429,
        description = "`too_many_searches`: this client has `--search-per-client` searches running or waiting already",
        content_type = "application/problem+json",
        headers(("Retry-After" = u64, description = "Seconds to wait before asking again"))
    )]
    TooManySearches(Problem),
    /// 503 `server_busy`.
    #[response(
        status = 503,
        description = "`server_busy`: the search pool's queue is full",
        content_type = "application/problem+json",
        headers(("Retry-After" = u64, description = "Seconds to wait before asking again"))
    )]
    ServerBusy(Problem),
}

/// What opening a stream (`/v1/matches/{id}/events`, `/v1/bot/stream`) is refused with for
/// its number: 429 and 503, each with `Retry-After` (48s).
#[derive(IntoResponses)]
pub enum StreamRefusals {
    /// 429 `too_many_streams`.
    #[response(
        status = 429,
        description = "`too_many_streams`: this client has `--max-streams-per-client` streams open already (event streams and bot streams together)",
        content_type = "application/problem+json",
        headers(("Retry-After" = u64, description = "Seconds to wait before asking again"))
    )]
    TooManyStreams(Problem),
    /// 503 `server_busy`.
    #[response(
        status = 503,
        description = "`server_busy`: the server has `--max-streams` streams open",
        content_type = "application/problem+json",
        headers(("Retry-After" = u64, description = "Seconds to wait before asking again"))
    )]
    ServerBusy(Problem),
}
