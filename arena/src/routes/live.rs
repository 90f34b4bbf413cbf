//! `/v1/matches/{id}/events` (the live stream, Server-Sent Events) and `/v1/matches/{id}/frames`
//! (the match position by position, for replay viewers).

use crate::http::{self, NoQuery};
use crate::live::{
    FramesQuery, LiveRestarting, MatchFrames, StreamEvent, StreamEventName, Watched,
};
use crate::problem::responses::{StreamRefusals, UnknownMatch};
use crate::problem::{Problem, ServiceError};
use crate::service::Arena;
use actix_web::web::Bytes;
use actix_web::{HttpResponse, get, web};
use std::convert::Infallible;
use std::time::Duration;

/// How often an idle stream sends a comment, so proxies and browsers keep it open.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// A match, position by position.
///
/// The start position and the view after every move, with the move's public events. While the
/// match runs only the spectator's view is given and actions are `null`; once it is over, any
/// seat (`?seat=N`) and every action.
#[utoipa::path(
    operation_id = "match_frames",
    tag = "arena",
    params(("id" = String, Path, description = "Match id"), FramesQuery),
    responses(
        (status = 200, description = "The frames", body = MatchFrames),
        (status = 400, description = "An invalid query (`invalid_request`: an unknown parameter, a seat that is not a number) or no such seat (`invalid_seat`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "`match_running`: a seat's view of a running match; `deal_in_play`: a tournament table whose deal another table still plays", body = Problem, content_type = "application/problem+json"),
        UnknownMatch,
        (status = 410, description = "`moves_pruned`: the moves of this unranked match were deleted by retention; its result stays", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/matches/{id}/frames")]
pub async fn frames(
    arena: web::Data<Arena>,
    id: web::Path<String>,
    request: actix_web::HttpRequest,
) -> Result<HttpResponse, ServiceError> {
    let query: FramesQuery = http::query(&request)?;
    let frames = arena.frames(&id, query.seat).await?;
    http::json_validated(&frames, super::matches::freshness(frames.status))
}

/// Watch a match live.
///
/// Server-Sent Events (`text/event-stream`). First every move played so far, then each move as it
/// happens: `event: move` with a [`LiveMove`] (the public events and the spectator's view after
/// the move), its `id:` the move's index. When the match is over: `event: result` with a
/// [`LiveEnd`], then `event: end`, and the stream closes. When the server process stops (a
/// deploy), the last event is `server_restarting`: reconnect to resume. For a match already over, the whole
/// log, the result and the end at once. A client that reconnects with `Last-Event-ID: N` (as
/// `EventSource` does by itself) gets the moves after move N only. Nothing hidden is sent: the
/// same redaction as the spectator's view. A client (its address) holds at most
/// `--max-streams-per-client` streams at once (429 `too_many_streams`), the server at most
/// `--max-streams` (503 `server_busy`), both with `Retry-After`.
#[utoipa::path(
    operation_id = "match_events",
    tag = "arena",
    params(("id" = String, Path, description = "Match id"), LastEventId, NoQuery),
    responses(
        (status = 200, description = "The event stream: `move` events (LiveMove, `id:` its index), one `result` (LiveEnd), then `end`; the schema is one event", content_type = "text/event-stream", body = StreamEvent),
        (status = 400, description = "`invalid_request`: a `Last-Event-ID` that is not a move index, or a query parameter (this route takes none)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "`deal_in_play`: a tournament table whose deal another table still plays", body = Problem, content_type = "application/problem+json"),
        UnknownMatch,
        StreamRefusals,
    )
)]
#[get("/v1/matches/{id}/events")]
pub async fn events(
    arena: web::Data<Arena>,
    id: web::Path<String>,
    request: actix_web::HttpRequest,
) -> Result<HttpResponse, ServiceError> {
    let NoQuery {} = http::query(&request)?;
    let resume_after = match request.headers().get(LAST_EVENT_ID) {
        None => None,
        Some(value) => Some(
            value
                .to_str()
                .ok()
                .and_then(|v| v.trim().parse::<u64>().ok())
                // JSON-safe (2^53 - 1, as the document declares): a larger id names no move.
                .filter(|index| *index <= engine::rng::MAX_SEED)
                .and_then(|index| usize::try_from(index).ok())
                .ok_or_else(|| {
                    ServiceError::invalid(
                        "`Last-Event-ID` must be the `id` of a `move` event: a move index",
                    )
                })?,
        ),
    };
    // Counted (per client: its address) before the store is read; given back with the stream.
    let slot = arena
        .streams()
        .open(&crate::store::Creator::client(request.peer_addr().map(|peer| peer.ip())).key)?;
    let feed = arena.watch_after(&id, resume_after).await?;
    // The result is followed by the last event, `end`: held for the next poll.
    let stream =
        futures_util::stream::unfold((feed, None, slot), |(mut feed, held, slot)| async move {
            if let Some(end) = held {
                return Some((Ok::<_, Infallible>(end), (feed, None, slot)));
            }
            let mut next = None;
            let bytes = match tokio::time::timeout(KEEP_ALIVE, feed.recv()).await {
                Err(_idle) => Bytes::from_static(b": keep-alive\n\n"),
                Ok(None) => return None,
                Ok(Some(Watched::Move(live_move))) => {
                    sse(StreamEventName::Move, Some(live_move.index), &live_move)
                }
                Ok(Some(Watched::End(end))) => {
                    next = Some(sse(
                        StreamEventName::End,
                        None,
                        &serde_json::json!({ "status": end.status }),
                    ));
                    sse(StreamEventName::Result, None, &end)
                }
                Ok(Some(Watched::Failed(reason))) => {
                    sse(StreamEventName::StreamError, None, &reason)
                }
                Ok(Some(Watched::Restarting)) => sse(
                    StreamEventName::ServerRestarting,
                    None,
                    &LiveRestarting {
                        detail:
                            "the server is restarting (a deploy); the match goes on: reconnect to \
                             resume after the last move received"
                                .into(),
                    },
                ),
            };
            Some((Ok(bytes), (feed, next, slot)))
        });
    Ok(http::unencoded(
        HttpResponse::Ok()
            .content_type("text/event-stream")
            .insert_header(("cache-control", "no-cache"))
            .insert_header(("x-accel-buffering", "no"))
            .streaming(stream),
    ))
}

/// The `Last-Event-ID` request header of a reconnecting `EventSource`.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Header)]
pub struct LastEventId {
    /// The `id` of the last `move` event received: the stream resumes after that move.
    #[param(rename = "Last-Event-ID", minimum = 0)]
    #[allow(dead_code)]
    last_event_id: Option<u64>,
}

/// The request header a reconnecting `EventSource` sends.
const LAST_EVENT_ID: &str = "last-event-id";

/// One event: its `id:` (a move's index: what `Last-Event-ID` resumes after), name and data.
fn sse(event: StreamEventName, id: Option<usize>, data: &impl serde::Serialize) -> Bytes {
    let data = serde_json::to_string(data).unwrap_or_else(|_| "null".into());
    let name = event.as_str();
    Bytes::from(match id {
        Some(id) => format!("id: {id}\nevent: {name}\ndata: {data}\n\n"),
        None => format!("event: {name}\ndata: {data}\n\n"),
    })
}
