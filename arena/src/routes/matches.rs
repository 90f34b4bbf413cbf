//! `/v1/matches`: create, list and show matches.

use super::parse_body;
use crate::dto::{CreateMatch, MatchCreated, MatchList, MatchQuery, MatchView};
use crate::problem::{Problem, ServiceError};
use crate::service::Arena;
use actix_web::{HttpRequest, HttpResponse, get, post, web};

/// Play a match between bots.
///
/// The match is queued and runs in the background (bounded concurrency); poll
/// `GET /v1/matches/{id}`.
#[utoipa::path(
    tag = "arena",
    request_body = CreateMatch,
    responses(
        (status = 202, description = "Queued", body = MatchCreated),
        (status = 400, description = "Malformed JSON, no bots, or a deadline out of range", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "Unknown game or bot", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "`unsupported_media_type`: the body is not sent as `Content-Type: application/json`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid setup (players, options, deals), overrides in a ranked match, or a bot not registered for the game", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/matches")]
pub async fn create(
    arena: web::Data<Arena>,
    request: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ServiceError> {
    let request: CreateMatch = parse_body(&request, &body)?;
    let created = arena.create_match(request).await?;
    Ok(HttpResponse::Accepted().json(created))
}

/// List matches.
///
/// Newest first, optionally only one game's or one bot's.
#[utoipa::path(
    tag = "arena",
    params(MatchQuery),
    responses(
        (status = 200, description = "Matches", body = MatchList),
        (status = 400, description = "Invalid query", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/matches")]
pub async fn list(
    arena: web::Data<Arena>,
    request: HttpRequest,
) -> Result<web::Json<MatchList>, ServiceError> {
    let query = web::Query::<MatchQuery>::from_query(request.query_string())
        .map_err(|e| ServiceError::invalid(format!("invalid query: {e}")))?;
    Ok(web::Json(arena.list_matches(query.into_inner()).await?))
}

/// Show a match.
///
/// Status, seats, moves with latency and faults, public events, the result, and what
/// `POST /v1/games/{game}/replay` needs to replay it move by move.
#[utoipa::path(
    tag = "arena",
    params(("id" = String, Path, description = "Match id")),
    responses(
        (status = 200, description = "The match", body = MatchView),
        (status = 404, description = "Unknown match", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/matches/{id}")]
pub async fn show(
    arena: web::Data<Arena>,
    id: web::Path<String>,
) -> Result<web::Json<MatchView>, ServiceError> {
    Ok(web::Json(arena.get_match(&id).await?))
}
