//! `/v1/tournaments`: duplicate tournaments.

use super::{created, list_query};
use crate::dto::{
    CreateTournament, TournamentCancelled, TournamentCreated, TournamentList, TournamentQuery,
    TournamentView,
};
use crate::http::{self, NoQuery, location};
use crate::limits::Meter;
use crate::problem::responses::{
    CancelRefused, IdempotencyHeader, InvalidToken, JsonBodyErrors, RateLimitedResponse,
};
use crate::problem::{Problem, ServiceError};
use crate::service::{Arena, Caller};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, delete, get, post, web};

/// Play a duplicate tournament.
///
/// Each of `deals` deals is one seed, played once for every rotation of the seats (the same cards
/// in the same seats at every table), so every bot holds every seat's cards and the luck of the
/// deal cancels out. Every table is an ordinary unranked match in the queue (resumed after a
/// restart like any match); poll `GET /v1/tournaments/{id}`. A table's moves and result stay
/// secret until every table of its deal is over (`deal_in_play`), and no bot plays two tables
/// of one deal at the same time: a deal's rotations that share a bot run one after another. A
/// registered bot is seated only with its owner's token, the admin token, or when its owner
/// opened it to challenges. Every table counts against the client's rate limit and cap of
/// queued matches (429 `rate_limited`, `queue_full`: nothing is stored); more tables than the
/// server's `--max-tournament-matches` (default 400) need the admin token (403
/// `admin_required`).
#[utoipa::path(
    operation_id = "create_tournament",
    tag = "arena",
    request_body = CreateTournament,
    params(IdempotencyHeader),
    security((), ("owner_token" = []), ("admin_token" = [])),
    responses(
        (status = 202, description = "Queued: `Location` is the tournament", body = TournamentCreated),
        (status = 400, description = "Malformed JSON, no bots, `deals` outside 1..=1000, or a deadline out of range", body = Problem, content_type = "application/problem+json"),
        InvalidToken,
        (status = 403, description = "`consent_required`: a bot (named in `detail`) not open to challenges, without its owner's token or the admin token; `admin_required`: more tables than `--max-tournament-matches` without the admin token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "Unknown game or bot", body = Problem, content_type = "application/problem+json"),
        JsonBodyErrors,
        (status = 422, description = "Invalid setup (players, options), a seed above 2^53 - 1, a bot not registered for the game, or `idempotency_key_reused`", body = Problem, content_type = "application/problem+json"),
        RateLimitedResponse,
    )
)]
#[post("/v1/tournaments")]
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
        "POST /v1/tournaments",
        meter,
        |tournament: CreateTournament| async move {
            let creator = arena.creator(Caller::of(http_request)).await?;
            let made: TournamentCreated =
                arena.create_tournament(tournament, creator, meter).await?;
            created(
                StatusCode::ACCEPTED,
                location("/v1/tournaments", &made.id),
                &made,
            )
        },
    )
    .await
}

/// List tournaments.
///
/// Newest first.
#[utoipa::path(
    operation_id = "list_tournaments",
    tag = "arena",
    params(TournamentQuery),
    responses(
        (status = 200, description = "Tournaments", body = TournamentList),
        (status = 400, description = "`invalid_request`: an invalid query, such as a `limit` outside 1..=500", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/tournaments")]
pub async fn list(
    arena: web::Data<Arena>,
    request: HttpRequest,
) -> Result<web::Json<TournamentList>, ServiceError> {
    let query: TournamentQuery = list_query(&request, |q: &TournamentQuery| q.limit)?;
    Ok(web::Json(arena.list_tournaments(query).await?))
}

/// Show a tournament.
///
/// Status, every table (deal, rotation, seats, scores once the deal is over everywhere), per bot
/// its mean score per deal with a 95% confidence interval, and head-to-head results. The seed is
/// shown once every table is over.
#[utoipa::path(
    operation_id = "show_tournament",
    tag = "arena",
    params(("id" = String, Path, description = "Tournament id"), NoQuery),
    responses(
        (status = 200, description = "The tournament", body = TournamentView),
        (status = 400, description = "`invalid_request`: a query parameter (this route takes none)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "Unknown tournament", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/tournaments/{id}")]
pub async fn show(
    arena: web::Data<Arena>,
    id: web::Path<String>,
    request: HttpRequest,
) -> Result<web::Json<TournamentView>, ServiceError> {
    let NoQuery {} = http::query(&request)?;
    Ok(web::Json(arena.get_tournament(&id).await?))
}

/// Cancel a tournament, or withdraw a bot from it.
///
/// With the server's admin token: every queued or running table becomes `aborted` with
/// `abort_reason` `cancelled`; finished tables keep their results. With the owner token of one
/// of its bots: that bot is withdrawn from the tables not yet started (409 `match_underway` if
/// only started ones are left); the others play on. The client that created it (the same token,
/// or without one the same address): its tables still queued.
#[utoipa::path(
    operation_id = "cancel_tournament",
    tag = "arena",
    params(("id" = String, Path, description = "Tournament id")),
    security((), ("owner_token" = []), ("admin_token" = [])),
    responses(
        (status = 200, description = "Its open tables were cancelled", body = TournamentCancelled),
        CancelRefused,
        (status = 404, description = "`unknown_tournament`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[delete("/v1/tournaments/{id}")]
pub async fn cancel(
    arena: web::Data<Arena>,
    id: web::Path<String>,
    request: HttpRequest,
) -> Result<web::Json<TournamentCancelled>, ServiceError> {
    Ok(web::Json(
        arena.cancel_tournament(&id, Caller::of(&request)).await?,
    ))
}
