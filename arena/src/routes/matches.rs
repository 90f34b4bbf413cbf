//! `/v1/matches`: create, list and show matches.

use super::{created, list_query};
use crate::dto::{
    CreateMatch, ListFormat, MatchCancelled, MatchCreated, MatchList, MatchParts, MatchQuery,
    MatchShowQuery, MatchSummary, MatchView,
};
use crate::http::{self, Freshness, location, prefers_ndjson};
use crate::limits::Meter;
use crate::problem::responses::{
    CancelRefused, IdempotencyHeader, InvalidToken, JsonBodyErrors, RateLimitedResponse,
    UnknownMatch,
};
use crate::problem::{Problem, ServiceError};
use crate::service::{Arena, Caller};
use crate::store::MatchStatus;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, delete, get, post, web};
use futures_util::TryStreamExt;

/// Play a match between bots.
///
/// The match is queued and runs in the background (bounded concurrency); poll
/// `GET /v1/matches/{id}`. Seats name bots by id or name; a `clock` gives each seat a time bank.
/// Matches are unranked unless `"ranked": true`, which needs the admin token: ranked matches
/// come from the ladder. Each match counts against its client's rate limit and cap of queued
/// matches (429 `rate_limited`, `queue_full`). A registered bot is seated only with its owner's token, the admin
/// token, or when its owner opened it to challenges (`open_to_challenges`); built-in bots are
/// open.
#[utoipa::path(
    operation_id = "create_match",
    tag = "arena",
    request_body = CreateMatch,
    params(IdempotencyHeader),
    security((), ("owner_token" = []), ("admin_token" = [])),
    responses(
        (status = 202, description = "Queued: `Location` is the match", body = MatchCreated),
        (status = 400, description = "Malformed JSON, no bots, or a deadline out of range", body = Problem, content_type = "application/problem+json"),
        InvalidToken,
        (status = 403, description = "`ranked_by_ladder_only`: `\"ranked\": true` without the admin token; `consent_required`: a bot (named in `detail`) not open to challenges, without its owner's token or the admin token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "Unknown game or bot", body = Problem, content_type = "application/problem+json"),
        JsonBodyErrors,
        (status = 422, description = "Invalid setup (players, options, deals), overrides in a ranked match, a bot not registered for the game, or `idempotency_key_reused`", body = Problem, content_type = "application/problem+json"),
        RateLimitedResponse,
    )
)]
#[post("/v1/matches")]
pub async fn create(
    arena: web::Data<Arena>,
    request: HttpRequest,
    body: web::Bytes,
) -> HttpResponse {
    let (arena, http_request) = (&arena, &request);
    let meter = &Meter::of(arena.limits(), http_request);
    super::create_metered(
        arena,
        http_request,
        &body,
        "POST /v1/matches",
        meter,
        |create: CreateMatch| async move {
            let made = arena
                .create_match_as(create, Caller::of(http_request), meter)
                .await?;
            created(
                StatusCode::ACCEPTED,
                location("/v1/matches", &made.id),
                &made,
            )
        },
    )
    .await
}

/// List matches.
///
/// Newest first, optionally only one game's, one bot's (by id or name) or one status's, a page
/// at a time (pass `next_cursor` as `cursor`). With `format=ndjson` (or `Accept:
/// application/x-ndjson`), every match the filters select, streamed as `application/x-ndjson`:
/// one match per line, as the JSON list shows it. `include=moves,result` adds each match's
/// moves, what its replay needs and its whole result.
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
        (status = 400, description = "`invalid_request`: an invalid query, such as an unknown parameter, a `limit` outside 1..=500, a `cursor` not given by this list, or `limit`/`cursor` with `format=ndjson`", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`unknown_game` or `unknown_bot`: a filter naming no game, or no bot by id or name", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/matches")]
pub async fn list(
    arena: web::Data<Arena>,
    request: HttpRequest,
) -> Result<HttpResponse, ServiceError> {
    let query: MatchQuery = list_query(&request, |q: &MatchQuery| q.limit)?;
    let ndjson = match query.format {
        Some(format) => format == ListFormat::Ndjson,
        None => prefers_ndjson(&request),
    };
    if ndjson {
        if query.limit.is_some() || query.cursor.is_some() {
            return Err(ServiceError::invalid(
                "invalid query: `format=ndjson` streams every match the filters select: it takes no `limit` or `cursor`",
            ));
        }
        let lines = arena
            .match_lines(query)
            .await?
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
/// `POST /v1/games/{game}/replay` needs to replay it move by move (its actions are the moves').
/// `include` picks the parts among `moves`, `events` and `replay`. A strong `ETag`: a match
/// that has ended may be cached for five minutes, a live one is revalidated (304 while nothing
/// moved).
#[utoipa::path(
    operation_id = "show_match",
    tag = "arena",
    params(("id" = String, Path, description = "Match id"), MatchShowQuery),
    responses(
        (status = 200, description = "The match", body = MatchView),
        (status = 400, description = "`invalid_request`: an unknown query parameter or `include` part", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "`deal_in_play`: a tournament table whose deal another table still plays", body = Problem, content_type = "application/problem+json"),
        UnknownMatch,
    )
)]
#[get("/v1/matches/{id}")]
pub async fn show(
    arena: web::Data<Arena>,
    id: web::Path<String>,
    request: HttpRequest,
) -> Result<HttpResponse, ServiceError> {
    let query: MatchShowQuery = http::query(&request)?;
    let parts = MatchParts::parse(
        query.include.as_deref(),
        &["moves", "events", "replay"],
        MatchParts::SHOWN,
    )?;
    let view = arena.show_match(&id, parts).await?;
    http::json_validated(&view, freshness(view.status))
}

/// How long a match's answers stay true: a match that has ended changes no more (a cache may
/// keep it a while: a renamed bot or retention shows after a revalidation); a live one changes
/// with every move.
pub fn freshness(status: MatchStatus) -> Freshness {
    match status {
        MatchStatus::Finished | MatchStatus::Aborted => http::RELEASE,
        _ => Freshness::Revalidate,
    }
}

/// Cancel a match.
///
/// A queued or running match becomes `aborted` with `abort_reason` `cancelled`, and moves no
/// rating; a running one stops at its next move. Needs the server's admin token, or the owner
/// token of a bot seated in it until that bot has made its first move (then 409
/// `match_underway`): a bot must not abort the matches it is losing. The client that created it
/// (the same token, or without one the same address) cancels it while it is still waiting
/// (`queued`, or a table waiting for people).
#[utoipa::path(
    operation_id = "cancel_match",
    tag = "arena",
    params(("id" = String, Path, description = "Match id")),
    security((), ("owner_token" = []), ("admin_token" = [])),
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
    Ok(web::Json(
        arena.cancel_match(&id, Caller::of(&request)).await?,
    ))
}
