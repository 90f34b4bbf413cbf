//! `/v1/bots/{id}/faults`, `/v1/bots/{id}/ratings` and `/v1/bots/{id}/secret`: what a bot's
//! author acts on.

use super::list_query;
use crate::bots::bearer;
use crate::dto::{FaultList, FaultQuery, RatingHistory, RatingQuery, SecretRotated};
use crate::problem::responses::OwnerTokenRequired;
use crate::problem::{Problem, ServiceError};
use crate::service::Arena;
use actix_web::{HttpRequest, get, post, web};

/// Rotate a bot's signing secret.
///
/// Needs the owner token (`Authorization: Bearer <token>`). Answers a new signing secret, shown
/// this once. The replaced secret stays valid for 10 minutes: meanwhile every request to the bot
/// carries `X-Cardroom-Signature` made with the new secret and `X-Cardroom-Signature-Previous`
/// made with the replaced one, so the bot can be restarted with the new secret without a fault.
#[utoipa::path(
    operation_id = "rotate_bot_secret",
    tag = "arena",
    params(("id" = String, Path, description = "Bot id")),
    security(("owner_token" = [])),
    responses(
        (status = 200, description = "The new signing secret", body = SecretRotated),
        OwnerTokenRequired,
        (status = 404, description = "`unknown_bot`: no such bot", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/bots/{id}/secret")]
pub async fn rotate_secret(
    arena: web::Data<Arena>,
    id: web::Path<String>,
    request: HttpRequest,
) -> Result<web::Json<SecretRotated>, ServiceError> {
    Ok(web::Json(arena.rotate_secret(&id, bearer(&request)).await?))
}

/// List a bot's faults.
///
/// Every fault the bot made in any match, newest first: the match and move, its seat, the kind,
/// what happened, the start of what the bot answered (status and the first 512 bytes of the
/// body) and what was expected. Moves the arena played without asking the bot (a disqualified
/// seat, a seat whose time bank ran out on an earlier move) are not listed. A fault of a match
/// still live shows its kind only. Paged: pass `next_cursor` as `cursor`.
#[utoipa::path(
    operation_id = "list_bot_faults",
    tag = "arena",
    params(("id" = String, Path, description = "Bot id"), FaultQuery),
    responses(
        (status = 200, description = "Faults, newest first", body = FaultList),
        (status = 400, description = "`invalid_request`: an invalid query, such as a `limit` outside 1..=500 or a `cursor` not given by this list", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`unknown_bot`: no such bot", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/bots/{id}/faults")]
pub async fn faults(
    arena: web::Data<Arena>,
    id: web::Path<String>,
    request: HttpRequest,
) -> Result<web::Json<FaultList>, ServiceError> {
    let query: FaultQuery = list_query(&request, |q: &FaultQuery| q.limit)?;
    Ok(web::Json(arena.bot_faults(&id, query).await?))
}

/// A bot's rating history in one game.
///
/// The bot's rating after every ranked match of the game, newest first, with the version the bot
/// reported when the rating was written. Paged: pass `next_cursor` as `cursor` for older ones.
#[utoipa::path(
    operation_id = "bot_rating_history",
    tag = "arena",
    params(("id" = String, Path, description = "Bot id"), RatingQuery),
    responses(
        (status = 200, description = "Ratings, newest first", body = RatingHistory),
        (status = 400, description = "`invalid_request`: an invalid query, such as no `game`, a `limit` outside 1..=500 or a `cursor` not given by this list", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`unknown_bot` or `unknown_game`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/bots/{id}/ratings")]
pub async fn ratings(
    arena: web::Data<Arena>,
    id: web::Path<String>,
    request: HttpRequest,
) -> Result<web::Json<RatingHistory>, ServiceError> {
    let query: RatingQuery = list_query(&request, |q: &RatingQuery| q.limit)?;
    Ok(web::Json(arena.rating_history(&id, query).await?))
}
