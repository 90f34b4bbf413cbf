//! `/v1/matches`: create, list and show matches.

use super::{list_query, parse_body};
use crate::bots::bearer;
use crate::dto::{
    CreateMatch, ListFormat, MatchCancelled, MatchCreated, MatchList, MatchQuery, MatchSummary,
    MatchView,
};
use crate::limits::Limited;
use crate::problem::responses::{CancelRefused, JsonBodyErrors, RateLimitedResponse, UnknownMatch};
use crate::problem::{Problem, ServiceError};
use crate::service::{Arena, Caller};
use actix_web::{HttpRequest, HttpResponse, delete, get, post, web};
use futures_util::TryStreamExt;

/// Play a match between bots.
///
/// The match is queued and runs in the background (bounded concurrency); poll
/// `GET /v1/matches/{id}`. Seats name bots by id or name; a `clock` gives each seat a time bank.
/// Matches are unranked unless `"ranked": true`, which needs the admin token: ranked matches
/// come from the ladder. A registered bot is seated only with its owner's token, the admin
/// token, or when its owner opened it to challenges (`open_to_challenges`); built-in bots are
/// open.
#[utoipa::path(
    operation_id = "create_match",
    tag = "arena",
    request_body = CreateMatch,
    security((), ("owner_token" = []), ("admin_token" = [])),
    responses(
        (status = 202, description = "Queued", body = MatchCreated),
        (status = 400, description = "Malformed JSON, no bots, or a deadline out of range", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "`ranked_by_ladder_only`: `\"ranked\": true` without the admin token; `consent_required`: a bot (named in `detail`) not open to challenges, without its owner's token or the admin token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "Unknown game or bot", body = Problem, content_type = "application/problem+json"),
        JsonBodyErrors,
        (status = 422, description = "Invalid setup (players, options, deals), overrides in a ranked match, or a bot not registered for the game", body = Problem, content_type = "application/problem+json"),
        RateLimitedResponse,
    )
)]
#[post("/v1/matches")]
pub async fn create(
    arena: web::Data<Arena>,
    http_request: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, actix_web::Error> {
    arena
        .limits()
        .check(Limited::MatchCreation, &http_request)?;
    let request: CreateMatch = parse_body(&http_request, &body)?;
    let created = arena
        .create_match_as(request, Caller::of(&http_request))
        .await?;
    Ok(HttpResponse::Accepted().json(created))
}

/// List matches.
///
/// Newest first, optionally only one game's or one bot's, a page at a time (pass `next_cursor`
/// as `cursor`). With `format=ndjson`, every match the filters select, streamed as
/// `application/x-ndjson`: one match per line, as the JSON list shows it.
#[utoipa::path(
    operation_id = "list_matches",
    tag = "arena",
    params(MatchQuery),
    responses(
        (status = 200, description = "Matches: one page (JSON), or with `format=ndjson` every match, one JSON object per line",
         content(
            (MatchList = "application/json"),
            (MatchSummary = "application/x-ndjson"),
         )),
        (status = 400, description = "`invalid_request`: an invalid query, such as a `limit` outside 1..=500 or a `cursor` not given by this list", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/matches")]
pub async fn list(
    arena: web::Data<Arena>,
    request: HttpRequest,
) -> Result<HttpResponse, ServiceError> {
    let query: MatchQuery = list_query(&request, |q: &MatchQuery| q.limit)?;
    if query.format == Some(ListFormat::Ndjson) {
        let lines = arena
            .match_lines(query)?
            .map_ok(web::Bytes::from)
            .map_err(actix_web::Error::from);
        return Ok(HttpResponse::Ok()
            .content_type("application/x-ndjson")
            .streaming(lines));
    }
    Ok(HttpResponse::Ok().json(arena.list_matches(query).await?))
}

/// Show a match.
///
/// Status, seats, moves with latency and faults, public events, the result, and what
/// `POST /v1/games/{game}/replay` needs to replay it move by move.
#[utoipa::path(
    operation_id = "show_match",
    tag = "arena",
    params(("id" = String, Path, description = "Match id")),
    responses(
        (status = 200, description = "The match", body = MatchView),
        (status = 403, description = "`deal_in_play`: a tournament table whose deal another table still plays", body = Problem, content_type = "application/problem+json"),
        UnknownMatch,
    )
)]
#[get("/v1/matches/{id}")]
pub async fn show(
    arena: web::Data<Arena>,
    id: web::Path<String>,
) -> Result<web::Json<MatchView>, ServiceError> {
    Ok(web::Json(arena.get_match(&id).await?))
}

/// Cancel a match.
///
/// A queued or running match becomes `aborted` with `abort_reason` `cancelled`, and moves no
/// rating; a running one stops at its next move. Needs the server's admin token, or the owner
/// token of a bot seated in it until that bot has made its first move (then 409
/// `match_underway`): a bot must not abort the matches it is losing.
#[utoipa::path(
    operation_id = "cancel_match",
    tag = "arena",
    params(("id" = String, Path, description = "Match id")),
    security(("owner_token" = []), ("admin_token" = [])),
    responses(
        (status = 200, description = "Cancelled", body = MatchCancelled),
        CancelRefused,
        UnknownMatch,
    )
)]
#[delete("/v1/matches/{id}")]
pub async fn cancel(
    arena: web::Data<Arena>,
    id: web::Path<String>,
    request: HttpRequest,
) -> Result<web::Json<MatchCancelled>, ServiceError> {
    Ok(web::Json(arena.cancel_match(&id, bearer(&request)).await?))
}
