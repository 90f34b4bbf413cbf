//! `/v1/bots`: register, list, show, update and delete bots.

use super::parse_body;
use crate::bots::bearer;
use crate::dto::{BotList, BotView, RegisterBot, RegisteredBot, UpdateBot};
use crate::limits::Limited;
use crate::problem::responses::{
    JsonBodyErrors, OwnerTokenRequired, RateLimitedResponse, UnknownGame,
};
use crate::problem::{Problem, ServiceError};
use crate::service::Arena;
use actix_web::{HttpRequest, HttpResponse, delete, get, patch, post, web};

/// Register a bot.
///
/// The arena first probes `GET {url}/`; an unreachable or non-conforming bot is refused. The
/// answer carries the owner `token` and the `signing_secret`, shown this once.
#[utoipa::path(
    operation_id = "register_bot",
    tag = "arena",
    request_body = RegisterBot,
    responses(
        (status = 201, description = "Registered", body = RegisteredBot),
        (status = 400, description = "Malformed JSON or an invalid name", body = Problem, content_type = "application/problem+json"),
        UnknownGame,
        (status = 409, description = "Another bot has this name (`bot_name_taken`)", body = Problem, content_type = "application/problem+json"),
        JsonBodyErrors,
        (status = 422, description = "URL refused, bot unreachable or non-conforming, or a game the bot does not list", body = Problem, content_type = "application/problem+json"),
        RateLimitedResponse,
    )
)]
#[post("/v1/bots")]
pub async fn register(
    arena: web::Data<Arena>,
    request: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, actix_web::Error> {
    arena.limits().check(Limited::Registration, &request)?;
    let request: RegisterBot = parse_body(&request, &body)?;
    let registered = arena.register_bot(request).await?;
    Ok(HttpResponse::Created().json(registered))
}

/// List bots.
///
/// Every registered bot with its ratings per game (owner secrets and URLs are never shown).
#[utoipa::path(operation_id = "list_bots", tag = "arena", responses((status = 200, description = "Every bot", body = BotList)))]
#[get("/v1/bots")]
pub async fn list(arena: web::Data<Arena>) -> Result<web::Json<BotList>, ServiceError> {
    Ok(web::Json(arena.list_bots().await?))
}

/// Show a bot.
///
/// Public information, ratings per game and the 20 most recent matches.
#[utoipa::path(
    operation_id = "show_bot",
    tag = "arena",
    params(("id" = String, Path, description = "Bot id")),
    responses(
        (status = 200, description = "The bot", body = BotView),
        (status = 404, description = "Unknown bot", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/bots/{id}")]
pub async fn show(
    arena: web::Data<Arena>,
    id: web::Path<String>,
) -> Result<web::Json<BotView>, ServiceError> {
    Ok(web::Json(arena.bot(&id).await?))
}

/// Update a bot.
///
/// Needs the owner token (`Authorization: Bearer <token>`). The bot is probed again; a paused bot
/// that answers plays its trial match at the ladder's next round.
#[utoipa::path(
    operation_id = "update_bot",
    tag = "arena",
    params(("id" = String, Path, description = "Bot id")),
    request_body = UpdateBot,
    security(("owner_token" = [])),
    responses(
        (status = 200, description = "The updated bot", body = BotView),
        (status = 400, description = "Malformed JSON or an invalid name", body = Problem, content_type = "application/problem+json"),
        OwnerTokenRequired,
        (status = 404, description = "Unknown bot or game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Another bot has this name (`bot_name_taken`)", body = Problem, content_type = "application/problem+json"),
        JsonBodyErrors,
        (status = 422, description = "URL refused, bot unreachable or non-conforming", body = Problem, content_type = "application/problem+json"),
    )
)]
#[patch("/v1/bots/{id}")]
pub async fn update(
    arena: web::Data<Arena>,
    id: web::Path<String>,
    request: HttpRequest,
    body: web::Bytes,
) -> Result<web::Json<BotView>, ServiceError> {
    let patch: UpdateBot = parse_body(&request, &body)?;
    Ok(web::Json(
        arena.update_bot(&id, bearer(&request), patch).await?,
    ))
}

/// Delete a bot.
///
/// Needs the owner token. The bot leaves the ladder and the leaderboards; its past matches stay.
#[utoipa::path(
    operation_id = "delete_bot",
    tag = "arena",
    params(("id" = String, Path, description = "Bot id")),
    security(("owner_token" = [])),
    responses(
        (status = 204, description = "Deleted"),
        OwnerTokenRequired,
        (status = 404, description = "Unknown bot", body = Problem, content_type = "application/problem+json"),
    )
)]
#[delete("/v1/bots/{id}")]
pub async fn remove(
    arena: web::Data<Arena>,
    id: web::Path<String>,
    request: HttpRequest,
) -> Result<HttpResponse, ServiceError> {
    arena.delete_bot(&id, bearer(&request)).await?;
    Ok(HttpResponse::NoContent().finish())
}
