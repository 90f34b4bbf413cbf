//! Live matches: the hub the runner publishes each move to (over the event bus, so a reader on
//! any process sees a match any worker plays), and the frames of a match (the view after each
//! move, for the replay viewer and the live stream).
//!
//! Only spectator-safe data goes through the hub: a move's public events (the same the store keeps
//! and `GET /v1/matches/{id}` shows while the match runs), the fault's kind (not its detail, which
//! may quote the refused action and so a hidden card), and the spectator view after the move. A
//! subscriber first reads the stored log, then the hub: the runner appends a move to the store
//! before publishing it, so subscribing before reading loses nothing; duplicates are skipped by
//! move index.

use crate::bus::{Bus, Subscription, topic};
use crate::client::FaultKind;
use crate::replay::new_game;
use crate::result::MatchResult;
use crate::store::{MatchRecord, MatchStatus, MoveRecord};
use engine::Viewer;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::Arc;
use tokio::sync::broadcast;
use utoipa::{IntoParams, ToSchema};

/// One move as a spectator sees it: the `move` event of the live stream.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LiveMove {
    /// 0-based index of the move in the match.
    pub index: usize,
    /// The seat that acted.
    pub seat: usize,
    /// The public events of the move (each with its `action_index`).
    #[schema(value_type = Vec<Object>)]
    pub events: Vec<Value>,
    /// The spectator's view after the move.
    #[schema(value_type = Object)]
    pub view: Value,
    /// Seats to act next (empty once over).
    pub to_act: Vec<usize>,
    /// Time the bot took, in milliseconds.
    pub latency_ms: u64,
    /// The kind of fault, if the bot's answer was not used (the detail stays in the match).
    pub fault: Option<FaultKind>,
}

/// One Server-Sent Event of the live stream (`GET /v1/matches/{id}/events`), as an
/// `EventSource` client parses it: its name and its data line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct StreamEvent {
    /// A `move` event's id: the move's index (`Last-Event-ID` resumes after it); other events
    /// have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// `move`, `result`, `end`, `stream_error` (the stream failed; the data says why) or
    /// `server_restarting` (the server is stopping: reconnect to resume).
    pub event: StreamEventName,
    /// JSON text: a [`LiveMove`] for `move`, a [`LiveEnd`] for `result`, `{"status"}` for
    /// `end`, a string for `stream_error`, a [`LiveRestarting`] for `server_restarting`.
    pub data: String,
}

/// The names of the live stream's events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum StreamEventName {
    /// A move: data is a [`LiveMove`].
    Move,
    /// The match is over: data is a [`LiveEnd`].
    Result,
    /// The last event; the stream closes.
    End,
    /// The stream failed; data is the reason.
    StreamError,
    /// The server process is stopping (a deploy): the last event; data is a [`LiveRestarting`].
    /// The match goes on: reconnect (an `EventSource` does by itself) to resume after the last
    /// `move` event's id.
    ServerRestarting,
}

/// The data of the live stream's `server_restarting` event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LiveRestarting {
    /// What happens, in words.
    pub detail: String,
}

impl StreamEventName {
    /// The name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            StreamEventName::Move => "move",
            StreamEventName::Result => "result",
            StreamEventName::End => "end",
            StreamEventName::StreamError => "stream_error",
            StreamEventName::ServerRestarting => "server_restarting",
        }
    }
}

/// The end of a match: the `result` event of the live stream.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LiveEnd {
    /// `finished` or `aborted`.
    pub status: MatchStatus,
    /// The result, as in `GET /v1/matches/{id}`.
    #[schema(value_type = Option<Object>)]
    pub result: Option<MatchResult>,
    /// Why the match was aborted.
    pub error: Option<String>,
}

/// What the hub carries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LiveEvent {
    /// A move was played.
    Move(Box<LiveMove>),
    /// The match is over.
    End(Box<LiveEnd>),
}

/// What the feed of one watcher carries ([`crate::Arena::watch`]), in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Watched {
    /// A move: the stored log first, then each move as it is played.
    Move(Box<LiveMove>),
    /// The match is over: the last item.
    End(Box<LiveEnd>),
    /// The feed failed, for this reason: the last item.
    Failed(String),
    /// The process serving the feed is stopping (a deploy): the last item. The match goes on
    /// (elsewhere, or after the restart); the watcher reconnects.
    Restarting,
}

/// The hub of live matches: each match's events on its bus topic.
#[derive(Debug, Clone)]
pub struct LiveHub {
    bus: Arc<dyn Bus>,
}

/// One watcher's subscription to a match's events.
#[derive(Debug)]
pub struct LiveSubscription(Subscription);

impl LiveSubscription {
    /// The next event; `Lagged` if the watcher fell behind.
    pub async fn recv(&mut self) -> Result<LiveEvent, broadcast::error::RecvError> {
        loop {
            let message = self.0.recv().await?;
            match serde_json::from_str(&message) {
                Ok(event) => return Ok(event),
                // Another version of the arena on the same database: skip what it says.
                Err(error) => tracing::warn!(%error, "a live event that does not parse"),
            }
        }
    }
}

impl LiveHub {
    /// The hub on `bus`.
    pub fn new(bus: Arc<dyn Bus>) -> Self {
        LiveHub { bus }
    }

    /// The match's future events.
    pub fn subscribe(&self, match_id: &str) -> LiveSubscription {
        LiveSubscription(self.bus.subscribe(&topic::live(match_id)))
    }

    /// True if somebody may watch the match (so the runner builds the spectator view only then).
    pub fn is_watched(&self, match_id: &str) -> bool {
        self.bus.may_be_heard(&topic::live(match_id))
    }

    /// Sends an event to the match's watchers, if any (best effort: a watcher that misses one
    /// reconnects and reads the stored log).
    pub async fn publish(&self, match_id: &str, event: LiveEvent) {
        let published = match serde_json::to_string(&event) {
            Ok(message) => self.bus.publish(&topic::live(match_id), message).await,
            Err(error) => Err(error.into()),
        };
        if let Err(error) = published {
            tracing::warn!(
                match_id,
                error = format!("{error:#}"),
                "a live event was not published"
            );
        }
    }

    /// Publishes the end.
    pub async fn close(&self, match_id: &str, end: LiveEnd) {
        self.publish(match_id, LiveEvent::End(Box::new(end))).await;
    }
}

/// Which seat's frames: `GET /v1/matches/{id}/frames?seat=N`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct FramesQuery {
    /// The seat to see the match from; absent: the spectator. Any seat once the match is over;
    /// only the spectator while it runs.
    pub seat: Option<usize>,
}

/// One position of a match.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Frame {
    /// Index of the move that led here; `null` for the position before the first move.
    pub index: Option<usize>,
    /// The seat that made that move.
    pub seat: Option<usize>,
    /// The action, once the match is over (`null` while it runs: an action may hide a card).
    #[schema(value_type = Option<Object>)]
    pub action: Option<Value>,
    /// The move's public events.
    #[schema(value_type = Vec<Object>)]
    pub events: Vec<Value>,
    /// The view after the move, from the chosen seat.
    #[schema(value_type = Object)]
    pub view: Value,
    /// Seats to act next.
    pub to_act: Vec<usize>,
}

/// `GET /v1/matches/{id}/frames`: the match position by position, from one seat.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MatchFrames {
    /// Match id.
    pub id: String,
    /// Game id.
    pub game: String,
    /// Status.
    pub status: MatchStatus,
    /// The seat the views are for; `null`: the spectator.
    pub seat: Option<usize>,
    /// Number of players.
    pub players: usize,
    /// The match's options, as every view shows them under `options`: given once here, and
    /// left out of each frame's `view` (they never change in a match).
    #[schema(value_type = Object)]
    pub options: Value,
    /// The start position, then one frame per move.
    pub frames: Vec<Frame>,
    /// The result, once finished.
    #[schema(value_type = Option<Object>)]
    pub result: Option<MatchResult>,
}

/// Why frames cannot be made.
#[derive(Debug, Clone, PartialEq)]
pub enum FramesError {
    /// The game id is no longer served.
    UnknownGame(String),
    /// The stored setup or moves no longer replay.
    Replay(String),
}

/// Replays a stored match and returns its frames as `viewer` sees them. Actions are included
/// only when `ended` (while a match runs, an action may name a hidden card).
pub fn frames(
    record: &MatchRecord,
    moves: &[MoveRecord],
    viewer: Viewer,
    ended: bool,
) -> Result<Vec<Frame>, FramesError> {
    let game = engine::registry::find(&record.game)
        .ok_or_else(|| FramesError::UnknownGame(record.game.clone()))?;
    let (mut state, setup_events) = game
        .start_with_events(&new_game(record))
        .map_err(|e| FramesError::Replay(e.to_string()))?;
    let mut out = Vec::with_capacity(moves.len() + 1);
    out.push(Frame {
        index: None,
        seat: None,
        action: None,
        // The start position carries the setup's public events (the deal, a card turned up).
        events: setup_events,
        view: state.view(viewer),
        to_act: state.to_act(),
    });
    for logged in moves {
        // The store keeps actions only: the events come back from the replay.
        let applied = state
            .apply(logged.seat, &logged.action)
            .map_err(|e| FramesError::Replay(format!("move {}: {e}", logged.index)))?;
        out.push(Frame {
            index: Some(logged.index),
            seat: Some(logged.seat),
            action: ended.then(|| logged.action.clone()),
            events: crate::replay::tagged(applied.events, logged.index),
            view: state.view(viewer),
            to_act: state.to_act(),
        });
    }
    Ok(out)
}

/// Takes the `options` out of every frame's view (a view shows the match's options, the same
/// in every frame: a tenth of a long match's frames) and returns them, to be given once. A view
/// whose options differ from the first's keeps its own.
pub fn lift_options(frames: &mut [Frame]) -> Value {
    let Some(options) = frames.first().and_then(|f| f.view.get("options")).cloned() else {
        return Value::Null;
    };
    for frame in frames.iter_mut() {
        if let Value::Object(view) = &mut frame.view
            && view.get("options") == Some(&options)
        {
            view.remove("options");
        }
    }
    options
}

/// The live-stream form of a stored move and the spectator frame after it.
pub fn live_move(logged: &MoveRecord, frame: &Frame) -> LiveMove {
    LiveMove {
        index: logged.index,
        seat: logged.seat,
        events: frame.events.clone(),
        view: frame.view.clone(),
        to_act: frame.to_act.clone(),
        latency_ms: logged.latency_ms,
        fault: logged.fault.as_ref().map(|f| f.kind),
    }
}

/// The end of a stored match, if it has ended.
pub fn live_end(record: &MatchRecord) -> Option<LiveEnd> {
    matches!(record.status, MatchStatus::Finished | MatchStatus::Aborted).then(|| LiveEnd {
        status: record.status,
        result: record.result.clone(),
        error: record.error.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn end() -> LiveEnd {
        LiveEnd {
            status: MatchStatus::Finished,
            result: None,
            error: None,
        }
    }

    #[tokio::test]
    async fn a_watcher_gets_what_is_published_then_the_end() {
        let hub = LiveHub::new(Arc::new(crate::bus::InProcessBus::default()));
        assert!(!hub.is_watched("m_1"));
        // Nobody watches: publishing is a no-op, not an error.
        hub.publish("m_1", LiveEvent::End(Box::new(end()))).await;
        let mut receiver = hub.subscribe("m_1");
        assert!(hub.is_watched("m_1"));
        assert!(!hub.is_watched("m_2"));
        let moved = LiveMove {
            index: 0,
            seat: 1,
            events: vec![],
            view: serde_json::json!({}),
            to_act: vec![0],
            latency_ms: 3,
            fault: None,
        };
        hub.publish("m_1", LiveEvent::Move(Box::new(moved.clone())))
            .await;
        hub.close("m_1", end()).await;
        assert_eq!(
            receiver.recv().await.ok(),
            Some(LiveEvent::Move(Box::new(moved)))
        );
        assert_eq!(
            receiver.recv().await.ok(),
            Some(LiveEvent::End(Box::new(end())))
        );
        drop(receiver);
        assert!(!hub.is_watched("m_1"), "forgotten once nobody watches");
    }
}
