//! `/v1/bots`: register, list, show, update and delete bots.

use super::{created, list_query, parse_body};
use crate::bots::bearer;
use crate::dto::{BotList, BotQuery, BotView, RegisterBot, RegisteredBot, TokenRotated, UpdateBot};
use crate::http::{self, NoQuery, location};
use crate::limits::Limited;
use crate::problem::responses::{
    IdempotencyHeader, InvalidToken, JsonBodyErrors, OwnerTokenRequired, RateLimitedResponse,
    UnknownGame,
};
use crate::problem::{Problem, ServiceError};
use crate::service::Arena;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, delete, get, patch, post, web};

/// Register a bot.
///
/// The arena first probes `GET {url}/`; an unreachable or non-conforming bot is refused. The
/// answer carries the owner `token` and the `signing_secret`, shown this once: send an
/// `Idempotency-Key`, so that a retry after a lost answer gets them again.
#[utoipa::path(
    operation_id = "register_bot",
    tag = "arena",
    request_body = RegisterBot,
    params(IdempotencyHeader),
    security((), ("owner_token" = []), ("admin_token" = [])),
    responses(
        (status = 201, description = "Registered: `Location` is the bot", body = RegisteredBot),
        (status = 400, description = "Malformed JSON, or `invalid_request`: a name of the wrong length or shaped like a bot id", body = Problem, content_type = "application/problem+json"),
        InvalidToken,
        UnknownGame,
        (status = 409, description = "Another bot has this name (`bot_name_taken`)", body = Problem, content_type = "application/problem+json"),
        JsonBodyErrors,
        (status = 422, description = "URL refused, bot unreachable or non-conforming, a game the bot does not list, `idempotency_key_reused`, or `invalid_name`: a name not in NFC, or with an unprintable, bidi control or zero-width character, or `<`/`>` (docs/api.md, \"Names\")", body = Problem, content_type = "application/problem+json"),
        RateLimitedResponse,
    )
)]
#[post("/v1/bots")]
pub async fn register(
    arena: web::Data<Arena>,
    request: HttpRequest,
    body: web::Bytes,
) -> HttpResponse {
    let arena = &arena;
    super::create(
        arena,
        &request,
        &body,
        "POST /v1/bots",
        Limited::Registration,
        |registration: RegisterBot| async move {
            let registered = arena.register_bot(registration).await?;
            created(
                StatusCode::CREATED,
                location("/v1/bots", &registered.id),
                &registered,
            )
        },
    )
    .await
}

/// List bots.
///
/// Registered bots in the order they registered (the built-in bots first), with their ratings
/// per game and table size (owner secrets and URLs are never shown), a page at a time: pass
/// `next_cursor` as `cursor`. A stream bot shows whether it is `connected`, and
/// `?connected=true` lists only the stream bots connected now.
#[utoipa::path(
    operation_id = "list_bots",
    tag = "arena",
    params(BotQuery),
    responses(
        (status = 200, description = "A page of bots", body = BotList),
        (status = 400, description = "`invalid_request`: an invalid query, such as an unknown parameter, a `limit` outside 1..=500 or a `cursor` not given by this list", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/bots")]
pub async fn list(
    arena: web::Data<Arena>,
    request: HttpRequest,
) -> Result<web::Json<BotList>, ServiceError> {
    let query: BotQuery = list_query(&request, |q: &BotQuery| q.limit)?;
    Ok(web::Json(arena.list_bots(query).await?))
}

/// Show a bot.
///
/// Public information, ratings per game and the 20 most recent matches.
#[utoipa::path(
    operation_id = "show_bot",
    tag = "arena",
    params(("id" = String, Path, description = "Bot id"), NoQuery),
    responses(
        (status = 200, description = "The bot", body = BotView),
        (status = 400, description = "`invalid_request`: a query parameter (this route takes none)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "Unknown bot", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/bots/{id}")]
pub async fn show(
    arena: web::Data<Arena>,
    id: web::Path<String>,
    request: HttpRequest,
) -> Result<web::Json<BotView>, ServiceError> {
    let NoQuery {} = http::query(&request)?;
    Ok(web::Json(arena.bot(&id).await?))
}

/// Update a bot.
///
/// With the owner token (`Authorization: Bearer <token>`): any field but `paused`; the bot is
/// probed again, and a paused bot that answers plays its trial match at the ladder's next
/// round. With the admin token: `name` and `paused` (`true` pauses the bot from the ladder,
/// `pause_reason` `moderated`, until the admin sends `false`), without a probe.
#[utoipa::path(
    operation_id = "update_bot",
    tag = "arena",
    params(("id" = String, Path, description = "Bot id")),
    request_body = UpdateBot,
    security(("owner_token" = []), ("admin_token" = [])),
    responses(
        (status = 200, description = "The updated bot", body = BotView),
        (status = 400, description = "Malformed JSON, an invalid name or version, a `version` for a bot the arena calls, or a field the admin does not change", body = Problem, content_type = "application/problem+json"),
        OwnerTokenRequired,
        (status = 403, description = "`forbidden`: `paused` without the admin token, or a built-in bot", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "Unknown bot or game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Another bot has this name (`bot_name_taken`)", body = Problem, content_type = "application/problem+json"),
        JsonBodyErrors,
        (status = 422, description = "URL refused, bot unreachable or non-conforming, or `invalid_name`: a name or a `version` not in NFC, or with an unprintable, bidi control or zero-width character, or `<`/`>` (docs/api.md, \"Names\")", body = Problem, content_type = "application/problem+json"),
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
/// Needs the owner token, or the admin token (any registered bot). The bot leaves the ladder and
/// the leaderboards; its past matches stay; its token stops at once.
#[utoipa::path(
    operation_id = "delete_bot",
    tag = "arena",
    params(("id" = String, Path, description = "Bot id")),
    security(("owner_token" = []), ("admin_token" = [])),
    responses(
        (status = 204, description = "Deleted"),
        OwnerTokenRequired,
        (status = 403, description = "`forbidden`: a built-in bot", body = Problem, content_type = "application/problem+json"),
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

/// Replace a bot's owner token.
///
/// Needs the owner token: the answer holds the new one, shown this once. The previous token
/// stops at once (in every process of the arena), and a stream connection made with it ends.
#[utoipa::path(
    operation_id = "rotate_token",
    tag = "arena",
    params(("id" = String, Path, description = "Bot id")),
    security(("owner_token" = [])),
    responses(
        (status = 200, description = "The new owner token", body = TokenRotated),
        OwnerTokenRequired,
        (status = 404, description = "Unknown bot", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/bots/{id}/token")]
pub async fn rotate_token(
    arena: web::Data<Arena>,
    id: web::Path<String>,
    request: HttpRequest,
) -> Result<web::Json<TokenRotated>, ServiceError> {
    Ok(web::Json(arena.rotate_token(&id, bearer(&request)).await?))
}
