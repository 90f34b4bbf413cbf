//! The arena's HTTP routes, registered by [`crate::configure`]: bots, matches, leaderboards and
//! the built-in bots. Handlers read `web::Data<Arena>`, parse bodies themselves so every error is
//! problem+json, and stay thin: parse, call [`crate::Arena`], map.

pub mod bots;
pub mod leaderboards;
pub mod live;
pub mod matches;

use crate::problem::ArenaError;
use actix_web::HttpRequest;
use serde::de::DeserializeOwned;

/// Parses a JSON body into `T`, or a 400 `malformed_json` problem.
pub fn parse_body<T: DeserializeOwned>(body: &[u8]) -> Result<T, ArenaError> {
    serde_json::from_slice(body).map_err(|e| {
        ArenaError::new(
            actix_web::http::StatusCode::BAD_REQUEST,
            "malformed_json",
            "Malformed JSON",
            format!("the request body is not valid for this endpoint: {e}"),
        )
    })
}

/// The bearer token of a request, if any.
pub fn bearer(request: &HttpRequest) -> Option<&str> {
    request
        .headers()
        .get(actix_web::http::header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}
