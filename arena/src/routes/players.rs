//! `/v1/players`: people as players.

use super::created;
use crate::http::{self, NoQuery, location};
use crate::limits::Limited;
use crate::players::{CreatePlayer, PlayerCreated, PlayerView};
use crate::problem::responses::{IdempotencyHeader, JsonBodyErrors, RateLimitedResponse};
use crate::problem::{Problem, ServiceError};
use crate::service::Arena;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, get, post, web};

/// Become a player.
///
/// A name (unique among players) and a token, shown once: no password, no e-mail. The table
/// pages keep the token in the browser. A table seat may hold a player (`{"player": id}`),
/// joined with the seat's link plus `Authorization: Bearer <token>`; a table created with
/// `"rated": true` rates its players per game id and table size
/// (`GET /v1/leaderboards/{game}?kind=people`).
#[utoipa::path(
    operation_id = "create_player",
    tag = "arena",
    request_body = CreatePlayer,
    params(IdempotencyHeader),
    responses(
        (status = 201, description = "Created: keep the `token`, it is shown once (an `Idempotency-Key` gets it again on a retry); `Location` is the player", body = PlayerCreated),
        (status = 400, description = "`malformed_json`, or `invalid_request`: a name of the wrong length (1 to 64 characters) or shaped like an id", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "`invalid_token`: a bearer token that is no token of this server", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`player_name_taken`: a player has this name", body = Problem, content_type = "application/problem+json"),
        JsonBodyErrors,
        (status = 422, description = "`idempotency_key_reused`, or `invalid_name`: a name not in NFC, or with an unprintable, bidi control or zero-width character, or `<`/`>` (docs/api.md, \"Names\")", body = Problem, content_type = "application/problem+json"),
        RateLimitedResponse,
    )
)]
#[post("/v1/players")]
pub async fn create(
    arena: web::Data<Arena>,
    request: HttpRequest,
    body: web::Bytes,
) -> HttpResponse {
    let arena_ref = &arena;
    super::create(
        arena_ref,
        &request,
        &body,
        "POST /v1/players",
        Limited::Registration,
        |player: CreatePlayer| async move {
            let made = arena_ref.create_player(player).await?;
            created(
                StatusCode::CREATED,
                location("/v1/players", &made.id),
                &made,
            )
        },
    )
    .await
}

/// Show a player.
///
/// The name, the ratings from rated tables (per game id and table size) and the recent tables.
/// Never the token.
#[utoipa::path(
    operation_id = "show_player",
    tag = "arena",
    params(("id" = String, Path, description = "Player id"), NoQuery),
    responses(
        (status = 200, description = "The player", body = PlayerView),
        (status = 400, description = "`invalid_request`: a query parameter (this route takes none)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`unknown_player`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/players/{id}")]
pub async fn show(
    arena: web::Data<Arena>,
    id: web::Path<String>,
    request: HttpRequest,
) -> Result<web::Json<PlayerView>, ServiceError> {
    let NoQuery {} = http::query(&request)?;
    Ok(web::Json(arena.get_player(&id).await?))
}
