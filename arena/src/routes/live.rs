//! `/v1/matches/{id}/events` (the live stream, Server-Sent Events) and `/v1/matches/{id}/frames`
//! (the match position by position, for replay viewers).

use crate::live::{
    self, FramesError, FramesQuery, LiveEnd, LiveEvent, LiveMove, MatchFrames, StreamEvent,
    StreamEventName,
};
use crate::problem::responses::UnknownMatch;
use crate::problem::{ErrorCode, Problem, ServiceError};
use crate::service::Arena;
use crate::store::{MatchRecord, MatchStatus};
use actix_web::web::Bytes;
use actix_web::{HttpResponse, get, web};
use engine::Viewer;
use std::convert::Infallible;
use std::time::Duration;
use tokio::sync::{broadcast, mpsc};

/// How often an idle stream sends a comment, so proxies and browsers keep it open.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

fn unknown_match(id: &str) -> ServiceError {
    ServiceError::new(ErrorCode::UnknownMatch, format!("there is no match `{id}`"))
}

fn frames_problem(error: FramesError) -> ServiceError {
    match error {
        FramesError::UnknownGame(game) => ServiceError::new(
            ErrorCode::UnknownGame,
            format!("the game `{game}` is no longer served"),
        ),
        // A stored match that does not replay through the engine is our bug, not the caller's.
        FramesError::Replay(detail) => {
            ServiceError::internal(&anyhow::anyhow!("stored match does not replay: {detail}"))
        }
    }
}

fn ended(record: &MatchRecord) -> bool {
    matches!(record.status, MatchStatus::Finished | MatchStatus::Aborted)
}

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
        (status = 400, description = "An invalid query (`invalid_request`) or no such seat (`invalid_seat`)", body = Problem, content_type = "application/problem+json"),
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
) -> Result<web::Json<MatchFrames>, ServiceError> {
    let query = web::Query::<FramesQuery>::from_query(request.query_string())
        .map_err(|e| ServiceError::invalid(format!("invalid query: {e}")))?;
    let record = arena
        .store()
        .get_match(&id)
        .await?
        .ok_or_else(|| unknown_match(&id))?;
    arena.check_not_embargoed(&id).await?;
    let players = record.bots.len();
    let viewer = match query.seat {
        None => Viewer::Spectator,
        Some(seat) if seat >= players => {
            return Err(ServiceError::new(
                ErrorCode::InvalidSeat,
                format!("seat {seat} does not exist: the match has {players} seats"),
            ));
        }
        Some(_) if !ended(&record) => {
            return Err(ServiceError::new(
                ErrorCode::MatchRunning,
                "while a match runs only the spectator's view is shown; a seat's view opens once it is over",
            ));
        }
        Some(seat) => Viewer::Seat(seat),
    };
    if record.moves_pruned {
        return Err(ServiceError::new(
            ErrorCode::MovesPruned,
            format!(
                "the moves of match `{id}` were deleted by retention (unranked matches keep their moves for --retain-unranked-days); its result stays at /v1/matches/{id}"
            ),
        ));
    }
    let moves = arena.store().moves(&id).await?;
    let frames = live::frames(&record, &moves, viewer, ended(&record)).map_err(frames_problem)?;
    Ok(web::Json(MatchFrames {
        id: record.id.clone(),
        game: record.game.clone(),
        status: record.status,
        seat: query.seat,
        players,
        frames,
        result: record.result.clone(),
    }))
}

/// Watch a match live.
///
/// Server-Sent Events (`text/event-stream`). First every move played so far, then each move as it
/// happens: `event: move` with a [`LiveMove`] (the public events and the spectator's view after
/// the move). When the match is over: `event: result` with a [`LiveEnd`], then `event: end`, and
/// the stream closes. For a match already over, the whole log, the result and the end at once.
/// Nothing hidden is sent: the same redaction as the spectator's view.
#[utoipa::path(
    operation_id = "match_events",
    tag = "arena",
    params(("id" = String, Path, description = "Match id")),
    responses(
        (status = 200, description = "The event stream: `move` events (LiveMove), one `result` (LiveEnd), then `end`; the schema is one event", content_type = "text/event-stream", body = StreamEvent),
        (status = 403, description = "`deal_in_play`: a tournament table whose deal another table still plays", body = Problem, content_type = "application/problem+json"),
        UnknownMatch,
    )
)]
#[get("/v1/matches/{id}/events")]
pub async fn events(
    arena: web::Data<Arena>,
    id: web::Path<String>,
) -> Result<HttpResponse, ServiceError> {
    let id = id.into_inner();
    let hub = arena.live().clone();
    // Subscribe before reading the store: a move is stored before it is published, so whatever
    // the store does not show yet is in the receiver.
    let receiver = hub.subscribe(&id);
    let Some(_) = arena.store().get_match(&id).await? else {
        drop(receiver);
        hub.release(&id);
        return Err(unknown_match(&id));
    };
    if let Err(embargo) = arena.check_not_embargoed(&id).await {
        drop(receiver);
        hub.release(&id);
        return Err(embargo);
    }
    let (sender, stream_rx) = mpsc::channel::<Bytes>(64);
    let arena = arena.get_ref().clone();
    tokio::spawn(async move {
        if let Err(reason) = feed(&arena, &id, receiver, &sender).await {
            let _ = sender
                .send(sse(StreamEventName::StreamError, &reason))
                .await;
        }
        arena.live().release(&id);
    });
    let stream = futures_util::stream::unfold(stream_rx, |mut rx| async move {
        rx.recv()
            .await
            .map(|bytes| (Ok::<_, Infallible>(bytes), rx))
    });
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header(("cache-control", "no-cache"))
        .insert_header(("x-accel-buffering", "no"))
        .streaming(stream))
}

fn sse(event: StreamEventName, data: &impl serde::Serialize) -> Bytes {
    let data = serde_json::to_string(data).unwrap_or_else(|_| "null".into());
    Bytes::from(format!("event: {}\ndata: {data}\n\n", event.as_str()))
}

/// Feeds one watcher: the stored log, then live moves, then the end. Returns when the match is
/// over or the watcher has gone (a failed send); an `Err` is sent as a `stream_error` event.
async fn feed(
    arena: &Arena,
    id: &str,
    mut receiver: broadcast::Receiver<LiveEvent>,
    sender: &mpsc::Sender<Bytes>,
) -> Result<(), String> {
    let record = arena
        .store()
        .get_match(id)
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("there is no match `{id}`"))?;
    let moves = arena.store().moves(id).await.map_err(|e| e.to_string())?;
    let spectator =
        live::frames(&record, &moves, Viewer::Spectator, false).map_err(|e| match e {
            FramesError::UnknownGame(game) => format!("the game `{game}` is no longer served"),
            FramesError::Replay(detail) => detail,
        })?;
    for (logged, frame) in moves.iter().zip(spectator.iter().skip(1)) {
        if sender
            .send(sse(StreamEventName::Move, &live::live_move(logged, frame)))
            .await
            .is_err()
        {
            return Ok(());
        }
    }
    let mut next = moves.len();
    // The store may have seen the end before we subscribed: then nothing more comes on the hub.
    if let Some(end) = live::live_end(&record) {
        return finish(sender, &end).await;
    }
    loop {
        let event = tokio::select! {
            event = receiver.recv() => event,
            () = tokio::time::sleep(KEEP_ALIVE) => {
                if sender.send(Bytes::from_static(b": keep-alive\n\n")).await.is_err() {
                    return Ok(());
                }
                continue;
            }
        };
        match event {
            Ok(LiveEvent::Move(live_move)) => {
                let live_move: LiveMove = *live_move;
                if live_move.index < next {
                    continue;
                }
                next = live_move.index + 1;
                if sender
                    .send(sse(StreamEventName::Move, &live_move))
                    .await
                    .is_err()
                {
                    return Ok(());
                }
            }
            Ok(LiveEvent::End(end)) => return finish(sender, &end).await,
            Err(broadcast::error::RecvError::Lagged(_)) => {
                return Err("the stream fell behind the match; reconnect to resume".into());
            }
            Err(broadcast::error::RecvError::Closed) => {
                // The runner closed the channel: the end is in the store.
                let record = arena
                    .store()
                    .get_match(id)
                    .await
                    .map_err(|e| e.to_string())?
                    .ok_or_else(|| format!("there is no match `{id}`"))?;
                return match live::live_end(&record) {
                    Some(end) => finish(sender, &end).await,
                    None => Err("the match stopped being played; reconnect to resume".into()),
                };
            }
        }
    }
}

async fn finish(sender: &mpsc::Sender<Bytes>, end: &LiveEnd) -> Result<(), String> {
    if sender.send(sse(StreamEventName::Result, end)).await.is_ok() {
        let _ = sender
            .send(sse(
                StreamEventName::End,
                &serde_json::json!({ "status": end.status }),
            ))
            .await;
    }
    Ok(())
}
