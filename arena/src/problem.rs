//! The arena's errors as RFC 9457 problem+json bodies, in the same shape as the rules API's:
//! `{"type", "title", "status", "detail", "code"}`.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A problem+json error body (schema `ArenaProblem`: same shape as the rules API's `Problem`, with
/// the arena's own codes).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(as = ArenaProblem, example = json!({
    "type": "urn:cardroom:problem:bot_unreachable",
    "title": "Bot unreachable",
    "status": 422,
    "detail": "GET http://bots.example.com/ failed: connection refused",
    "code": "bot_unreachable"
}))]
pub struct Problem {
    /// A URI naming the kind of problem: `urn:cardroom:problem:<code>`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Short human-readable summary of the kind.
    pub title: String,
    /// The HTTP status.
    pub status: u16,
    /// What went wrong this time, in a sentence.
    pub detail: String,
    /// Stable machine-readable code, e.g. `bot_unreachable`, `unknown_bot`.
    pub code: String,
}

/// An arena error that becomes a problem+json response.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{detail}")]
pub struct ArenaError {
    /// HTTP status.
    pub status: StatusCode,
    /// Stable code.
    pub code: &'static str,
    /// Title of the kind.
    pub title: &'static str,
    /// Human-readable detail.
    pub detail: String,
}

impl ArenaError {
    /// A new error.
    pub fn new(
        status: StatusCode,
        code: &'static str,
        title: &'static str,
        detail: impl Into<String>,
    ) -> Self {
        ArenaError {
            status,
            code,
            title,
            detail: detail.into(),
        }
    }

    /// 400 `invalid_request`: a request that is well-formed JSON but makes no sense.
    pub fn invalid(detail: impl Into<String>) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "Invalid request",
            detail,
        )
    }

    /// 404 with a code such as `unknown_bot`.
    pub fn not_found(code: &'static str, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, code, "Not found", detail)
    }

    /// 401 `unauthorized`: missing or wrong owner token.
    pub fn unauthorized() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "Unauthorized",
            "send the bot's owner token as `Authorization: Bearer <token>`",
        )
    }

    /// 409 `bot_name_taken`: another live bot has this name (names are unique so matches can
    /// name bots).
    pub fn name_taken(name: &str) -> Self {
        Self::new(
            StatusCode::CONFLICT,
            "bot_name_taken",
            "Bot name taken",
            format!("another bot is already named `{name}`: choose another name"),
        )
    }

    /// 429 `rate_limited`: too many requests of this kind from this client or token (the
    /// response also carries `Retry-After` and `RateLimit-*` headers, see
    /// [`crate::limits::RateLimited`]).
    pub fn rate_limited(what: &str, per_minute: u32, retry_after_secs: u64) -> Self {
        Self::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            "Too many requests",
            format!(
                "at most {per_minute} {what} per minute per client and per token: retry in {retry_after_secs} s"
            ),
        )
    }

    /// 500 `internal`: details go to the log only.
    pub fn internal(error: &anyhow::Error) -> Self {
        tracing::error!(error = format!("{error:#}"), "arena internal error");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "Internal error",
            "the arena failed to handle this request; the error is logged",
        )
    }

    /// The body.
    pub fn problem(&self) -> Problem {
        Problem {
            kind: format!("urn:cardroom:problem:{}", self.code),
            title: self.title.to_string(),
            status: self.status.as_u16(),
            detail: self.detail.clone(),
            code: self.code.to_string(),
        }
    }
}

impl From<anyhow::Error> for ArenaError {
    fn from(error: anyhow::Error) -> Self {
        ArenaError::internal(&error)
    }
}

impl ResponseError for ArenaError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        HttpResponse::build(self.status)
            .content_type("application/problem+json")
            .json(self.problem())
    }
}
