//! The arena's HTTP routes, registered by [`crate::configure`]: bots, matches, leaderboards and
//! the built-in bots. Handlers read `web::Data<Arena>`, parse bodies themselves so every error is
//! problem+json, and stay thin: parse, call [`crate::Arena`], map.

pub mod bots;
pub mod builtin;
pub mod feedback;
pub mod leaderboards;
pub mod live;
pub mod matches;
pub mod stream;
pub mod tables;
pub mod tournaments;

use crate::problem::{ServiceError, invalid_body, is_json, unsupported_media_type};
use actix_web::HttpRequest;
use serde::de::DeserializeOwned;

/// Parses a JSON body into `T`: 415 `unsupported_media_type` unless the request declares a JSON
/// content type, 400 `malformed_json` if the body is not a valid `T`.
pub fn parse_body<T: DeserializeOwned>(
    request: &HttpRequest,
    body: &[u8],
) -> Result<T, ServiceError> {
    if !is_json(request) {
        return Err(unsupported_media_type(request));
    }
    serde_json::from_slice(body).map_err(|e| invalid_body(&e))
}

/// Parses the query of a list route: 400 `invalid_request` if it does not parse or its `limit`
/// is outside 1..=500.
pub fn list_query<T: DeserializeOwned>(
    request: &HttpRequest,
    limit: impl Fn(&T) -> Option<u32>,
) -> Result<T, ServiceError> {
    let query = actix_web::web::Query::<T>::from_query(request.query_string())
        .map_err(|e| ServiceError::invalid(format!("invalid query: {e}")))?
        .into_inner();
    match limit(&query) {
        Some(limit) if !(1..=500).contains(&limit) => Err(ServiceError::invalid(format!(
            "invalid query: limit {limit} is outside 1..=500"
        ))),
        _ => Ok(query),
    }
}
