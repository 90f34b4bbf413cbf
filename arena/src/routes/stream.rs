//! The stream bots' front door: `GET /v1/bot/stream` (the bot connects out and reads its lines)
//! and `POST /v1/bot/matches/{match_id}/move` (its answers). Both take the bot's owner token.

use super::parse_body;
use crate::bots::bearer;
use crate::bus::topic;
use crate::dto::StreamQuery;
use crate::http;
use crate::problem::responses::{JsonBodyErrors, OwnerTokenRequired, StreamRefusals, UnknownMatch};
use crate::problem::{Problem, ServiceError};
use crate::runner::outside::WrittenNotice;
use crate::service::Arena;
use crate::service::outside::StreamItem;
use crate::wire::{StreamAnswer, StreamLine};
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use std::convert::Infallible;

/// Connect a stream bot.
///
/// For a bot registered with `"transport": "stream"` (`Authorization: Bearer <token>`):
/// `application/x-ndjson`, one JSON object per line (`match_start`, `move`, `match_end`), an
/// empty line every 10 s. The `move` lines of the bot's running matches that wait for an answer
/// come at once, each with the time it has left. A bot has one connection: while one is open a
/// second is 409 `already_connected`, unless it asks `?replace=true` (the previous one then
/// ends). A dropped connection costs nothing if the bot is back within its reconnect grace. The
/// ladder schedules the bot only while it is connected. Streams count against the server's
/// `--max-streams` (503 `server_busy` beyond, with `Retry-After`).
#[utoipa::path(
    operation_id = "bot_stream",
    tag = "arena",
    params(StreamQuery),
    security(("owner_token" = [])),
    responses(
        (status = 200, description = "The bot's lines, one JSON object each (the schema is one line); an empty line is a keep-alive", content_type = "application/x-ndjson", body = StreamLine),
        (status = 400, description = "`invalid_request`: an invalid query", body = Problem, content_type = "application/problem+json"),
        OwnerTokenRequired,
        (status = 403, description = "`forbidden`: the bot was registered with a URL (the arena calls it)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`already_connected`: the bot has an open connection (ask `?replace=true` to replace it)", body = Problem, content_type = "application/problem+json"),
        StreamRefusals,
    )
)]
#[get("/v1/bot/stream")]
pub async fn stream(
    arena: web::Data<Arena>,
    request: HttpRequest,
) -> Result<HttpResponse, ServiceError> {
    let query: StreamQuery = super::list_query(&request, |_: &StreamQuery| None)?;
    let items = arena
        .connect_stream(bearer(&request), query.replace.unwrap_or(false))
        .await?;
    let bus = arena.bus().clone();
    let lines = futures_util::stream::unfold((items, bus), |(mut items, bus)| async move {
        let bytes = match items.recv().await? {
            StreamItem::Line(mut line) => {
                // A move's clock runs from here: the line is written as this poll returns.
                if let Some((match_id, notice)) = WrittenNotice::of_line(&line) {
                    let bus = bus.clone();
                    actix_web::rt::spawn(async move {
                        let _ = bus.publish(&topic::answers(&match_id), notice).await;
                    });
                }
                line.push('\n');
                Bytes::from(line)
            }
            StreamItem::KeepAlive => Bytes::from_static(b"\n"),
        };
        Some((Ok::<_, Infallible>(bytes), (items, bus)))
    });
    Ok(http::unencoded(
        HttpResponse::Ok()
            .content_type("application/x-ndjson")
            .insert_header(("cache-control", "no-cache"))
            .insert_header(("x-accel-buffering", "no"))
            .streaming(lines),
    ))
}

/// Answer a move request.
///
/// A stream bot's answer to a `move` line of its stream (`Authorization: Bearer <token>`), to
/// any process of the arena. 204 when taken; 409 `stale_request` when `request_id` is not the
/// pending one (answered already, timed out, or a newer request); 422 `illegal_action` when the
/// action is not one of the line's `legal_actions`: a fault, as for a URL bot (the seat's first
/// legal action is played).
#[utoipa::path(
    operation_id = "bot_answer",
    tag = "arena",
    params(("match_id" = String, Path, description = "Match id")),
    request_body = StreamAnswer,
    security(("owner_token" = [])),
    responses(
        (status = 204, description = "Taken"),
        (status = 400, description = "Malformed JSON", body = Problem, content_type = "application/problem+json"),
        OwnerTokenRequired,
        (status = 403, description = "`forbidden`: the bot holds no seat in the match, or was registered with a URL", body = Problem, content_type = "application/problem+json"),
        UnknownMatch,
        (status = 409, description = "`stale_request`: not the pending request", body = Problem, content_type = "application/problem+json"),
        JsonBodyErrors,
        (status = 422, description = "`illegal_action`: not one of the request's legal actions (a fault)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/bot/matches/{match_id}/move")]
pub async fn answer(
    arena: web::Data<Arena>,
    match_id: web::Path<String>,
    request: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ServiceError> {
    let answer: StreamAnswer = parse_body(&request, &body)?;
    arena
        .submit_bot_move(
            bearer(&request),
            &match_id,
            &answer.request_id,
            answer.action,
            answer.comment,
        )
        .await?;
    Ok(HttpResponse::NoContent().finish())
}
