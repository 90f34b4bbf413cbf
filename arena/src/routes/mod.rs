//! The arena's HTTP routes, registered by [`crate::configure`]: bots, matches, leaderboards and
//! the built-in bots. Handlers read `web::Data<Arena>`, parse bodies themselves so every error is
//! problem+json, and stay thin: parse, call [`crate::Arena`], map.

pub mod bots;
pub mod builtin;
pub mod feedback;
pub mod leaderboards;
pub mod live;
pub mod matches;
pub mod players;
pub mod stream;
pub mod tables;
pub mod tournaments;

use crate::bots::{bearer, hash_token};
use crate::limits::{Limited, Meter, RateLimit};
use crate::problem::{ServiceError, invalid_body, is_json, unsupported_media_type};
use crate::service::Arena;
use crate::service::idempotency::{Answer, Created, IdempotencyKey};
use actix_web::http::StatusCode;
use actix_web::http::header::{CONTENT_TYPE, HeaderName, HeaderValue, LOCATION};
use actix_web::{HttpRequest, HttpResponse, ResponseError as _};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::cell::Cell;
use std::future::Future;

/// The request header that makes a create safe to retry.
pub const IDEMPOTENCY_KEY: &str = "idempotency-key";
/// The answer header that says an answer repeats the first one of its `Idempotency-Key`.
pub const IDEMPOTENT_REPLAYED: &str = "idempotent-replayed";

/// Parses a JSON body into `T`: 415 `unsupported_media_type` unless the request declares a JSON
/// content type, 400 `malformed_json` if the body is not a valid `T`. Every arena body is an
/// object: serde would also read a struct from an array of its fields (`[null, null]`), which
/// the documents do not allow, so anything else is refused first.
pub fn parse_body<T: DeserializeOwned>(
    request: &HttpRequest,
    body: &[u8],
) -> Result<T, ServiceError> {
    if !is_json(request) {
        return Err(unsupported_media_type(request));
    }
    let first = body.iter().find(|byte| !byte.is_ascii_whitespace());
    if first.is_some_and(|byte| *byte != b'{') {
        return Err(ServiceError::new(
            crate::problem::ErrorCode::MalformedJson,
            "the request body is not valid JSON for this endpoint: it must be a JSON object",
        ));
    }
    serde_json::from_slice(body).map_err(|e| invalid_body(&e))
}

/// Parses the query of a list route ([`crate::http::query`]): 400 `invalid_request` for an
/// unknown parameter, one that does not parse, or a `limit` outside 1..=500.
pub fn list_query<T: DeserializeOwned>(
    request: &HttpRequest,
    limit: impl Fn(&T) -> Option<u32>,
) -> Result<T, ServiceError> {
    let query: T = crate::http::query(request)?;
    match limit(&query) {
        Some(limit) if !(1..=500).contains(&limit) => Err(ServiceError::invalid(format!(
            "invalid query: limit {limit} is outside 1..=500"
        ))),
        _ => Ok(query),
    }
}

/// The answer of a create: `status`, `Location: location`, `value` as JSON.
pub fn created(
    status: StatusCode,
    location: String,
    value: &impl Serialize,
) -> Result<Created, ServiceError> {
    Ok(Created {
        status: status.as_u16(),
        location,
        body: serde_json::to_string(value).map_err(anyhow::Error::from)?,
    })
}

/// Answers a create (`POST /v1/bots`, `/v1/matches`, `/v1/tournaments`, `/v1/tables`): a token
/// sent must be valid (401 `invalid_token`); with an `Idempotency-Key` the request runs once per
/// client, route and key ([`Arena::idempotent`]); a request that runs is counted against the
/// rate limit `limited` (a replay is not), and its body parsed as a `T` and handed to `make`.
/// The answer carries `Location`, the `RateLimit-*` headers when it was counted, and
/// `Idempotent-Replayed: true` when it repeats an earlier one.
pub async fn create<T, F, Fut>(
    arena: &Arena,
    request: &HttpRequest,
    body: &[u8],
    route: &'static str,
    limited: Limited,
    make: F,
) -> HttpResponse
where
    T: DeserializeOwned,
    F: FnOnce(T) -> Fut,
    Fut: Future<Output = Result<Created, ServiceError>>,
{
    respond(arena, request, body, route, Some(limited), None, make).await
}

/// [`create`] for the routes that create matches (`/v1/matches`, `/v1/tournaments`,
/// `/v1/tables`, rematches): nothing is charged up front; `make` charges `meter` one unit per
/// match it creates once it knows how many, before it stores them
/// ([`crate::Arena::admit`]). A refusal there (429 `rate_limited`, `queue_full`) answers with
/// its headers.
pub async fn create_metered<T, F, Fut>(
    arena: &Arena,
    request: &HttpRequest,
    body: &[u8],
    route: &'static str,
    meter: &Meter<'_>,
    make: F,
) -> HttpResponse
where
    T: DeserializeOwned,
    F: FnOnce(T) -> Fut,
    Fut: Future<Output = Result<Created, ServiceError>>,
{
    respond(arena, request, body, route, None, Some(meter), make).await
}

/// The answer of a create: charged up front to `limited`, or by `make` to `meter`.
async fn respond<T, F, Fut>(
    arena: &Arena,
    request: &HttpRequest,
    body: &[u8],
    route: &'static str,
    limited: Option<Limited>,
    meter: Option<&Meter<'_>>,
    make: F,
) -> HttpResponse
where
    T: DeserializeOwned,
    F: FnOnce(T) -> Fut,
    Fut: Future<Output = Result<Created, ServiceError>>,
{
    let token = bearer(request);
    if let Err(error) = arena.check_token(token).await {
        return error.error_response();
    }
    let client = match token {
        Some(token) => format!("token:{}", hash_token(token)),
        None => format!(
            "addr:{}",
            request
                .peer_addr()
                .map(|a| a.ip().to_string())
                .unwrap_or_default()
        ),
    };
    let key = match request
        .headers()
        .get(IDEMPOTENCY_KEY)
        .map(HeaderValue::to_str)
    {
        None => None,
        Some(Ok(key)) => Some(IdempotencyKey {
            key,
            client: &client,
            route,
        }),
        Some(Err(_)) => {
            return ServiceError::invalid("`Idempotency-Key` must be visible ASCII")
                .error_response();
        }
    };
    let counted: Cell<Option<RateLimit>> = Cell::new(None);
    let answer = arena
        .idempotent(key, body, || async {
            if let Some(limited) = limited {
                counted.set(Some(arena.limits().check(limited, request)?));
            }
            let parsed: T = parse_body(request, body)?;
            make(parsed).await.map_err(actix_web::Error::from)
        })
        .await;
    let mut response = match answer {
        Ok(Answer { created, replayed }) => {
            let mut response = HttpResponse::build(
                StatusCode::from_u16(created.status).unwrap_or(StatusCode::CREATED),
            )
            .body(created.body);
            let headers = response.headers_mut();
            headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
            if let Ok(location) = HeaderValue::from_str(&created.location) {
                headers.insert(LOCATION, location);
            }
            if replayed {
                headers.insert(
                    HeaderName::from_static(IDEMPOTENT_REPLAYED),
                    HeaderValue::from_static("true"),
                );
            }
            response
        }
        Err(error) => match meter.and_then(Meter::refusal) {
            Some(refusal) => refusal.response(),
            None => error.error_response(),
        },
    };
    if let Some(limit) = counted.get().or_else(|| meter.and_then(Meter::counted)) {
        limit.add_headers(response.headers_mut());
    }
    response
}
