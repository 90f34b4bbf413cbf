//! Watching matches: a match's frames (who may see what, and when) and the live feed of one match
//! (its stored log, then each move as the runner publishes it, then the end). The routes map these
//! to HTTP and Server-Sent Events.

use super::Arena;
use crate::live::{self, FramesError, LiveEvent, LiveSubscription, MatchFrames, Watched};
use crate::metrics::StreamKind;
use crate::problem::{ErrorCode, ServiceError};
use crate::store::{MatchRecord, MatchStatus};
use engine::Viewer;
use tokio::sync::{broadcast, mpsc};

/// What a watcher's feed may hold before the runner waits for a slow watcher's connection.
const FEED_CAPACITY: usize = 64;

fn unknown_match(id: &str) -> ServiceError {
    ServiceError::new(ErrorCode::UnknownMatch, format!("there is no match `{id}`"))
}

fn ended(record: &MatchRecord) -> bool {
    matches!(record.status, MatchStatus::Finished | MatchStatus::Aborted)
}

impl Arena {
    /// A match position by position, from `seat` (None: the spectator). While it runs only the
    /// spectator's view is given, without actions; once it is over, any seat and every action.
    pub async fn frames(&self, id: &str, seat: Option<usize>) -> Result<MatchFrames, ServiceError> {
        let record = self
            .store()
            .get_match(id)
            .await?
            .ok_or_else(|| unknown_match(id))?;
        self.check_not_embargoed(id).await?;
        let players = record.bots.len();
        let viewer = match seat {
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
        let moves = self.store().moves(id).await?;
        let frames = live::frames(&record, &moves, viewer, ended(&record)).map_err(|error| {
            match error {
                FramesError::UnknownGame(game) => ServiceError::new(
                    ErrorCode::UnknownGame,
                    format!("the game `{game}` is no longer served"),
                ),
                // A stored match that does not replay through the engine is our bug, not the
                // caller's.
                FramesError::Replay(detail) => ServiceError::internal(&anyhow::anyhow!(
                    "stored match does not replay: {detail}"
                )),
            }
        })?;
        let mut frames = frames;
        let options = live::lift_options(&mut frames);
        Ok(MatchFrames {
            id: record.id,
            game: record.game,
            status: record.status,
            seat,
            players,
            options,
            frames,
            result: record.result,
        })
    }

    /// Starts watching a match: every move played so far, then each move as it happens, then the
    /// end; nothing hidden (the spectator's view). The feed closes after the end, and stops
    /// when the receiver is dropped.
    pub async fn watch(&self, id: &str) -> Result<mpsc::Receiver<Watched>, ServiceError> {
        self.watch_after(id, None).await
    }

    /// [`Arena::watch`] from the move after `resume_after` (a reconnecting watcher's last move):
    /// the moves up to it are not sent again.
    pub async fn watch_after(
        &self,
        id: &str,
        resume_after: Option<usize>,
    ) -> Result<mpsc::Receiver<Watched>, ServiceError> {
        let hub = self.live();
        // Subscribe before reading the store: a move is stored before it is published, so
        // whatever the store does not show yet is in the receiver.
        let receiver = hub.subscribe(id);
        let checked = match self.store().get_match(id).await {
            Ok(Some(_)) => self.check_not_embargoed(id).await,
            Ok(None) => Err(unknown_match(id)),
            Err(error) => Err(error.into()),
        };
        checked?;
        let (sender, feed) = mpsc::channel(FEED_CAPACITY);
        let arena = self.clone();
        let id = id.to_string();
        tokio::spawn(async move {
            let _open = arena.metrics().stream_opened(StreamKind::Spectator);
            let fed = tokio::select! {
                fed = arena.feed(&id, resume_after, receiver, &sender) => fed,
                // The watcher has gone while the match waits for its next move.
                () = sender.closed() => Ok(()),
                // This process is stopping: the watcher is told, and reconnects (elsewhere or
                // after the restart) from its last move.
                () = arena.drain_state().restarting() => {
                    let _ = sender.send(Watched::Restarting).await;
                    Ok(())
                }
            };
            if let Err(reason) = fed {
                let _ = sender.send(Watched::Failed(reason)).await;
            }
        });
        Ok(feed)
    }

    /// Feeds one watcher: the stored log, then live moves, then the end. Returns when the match
    /// is over or the watcher has gone (a failed send); an `Err` ends the feed with its reason.
    async fn feed(
        &self,
        id: &str,
        resume_after: Option<usize>,
        mut receiver: LiveSubscription,
        sender: &mpsc::Sender<Watched>,
    ) -> Result<(), String> {
        // The first move this watcher has not seen.
        let first = resume_after.map_or(0, |last| last + 1);
        let record = self.stored_match(id).await?;
        let moves = self.store().moves(id).await.map_err(|e| e.to_string())?;
        let spectator =
            live::frames(&record, &moves, Viewer::Spectator, false).map_err(|e| match e {
                FramesError::UnknownGame(game) => format!("the game `{game}` is no longer served"),
                FramesError::Replay(detail) => detail,
            })?;
        for (logged, frame) in moves.iter().zip(spectator.iter().skip(1)).skip(first) {
            let played = Watched::Move(Box::new(live::live_move(logged, frame)));
            if sender.send(played).await.is_err() {
                return Ok(());
            }
        }
        let mut next = moves.len().max(first);
        // The store may have seen the end before we subscribed: then nothing more comes on the
        // hub.
        if let Some(end) = live::live_end(&record) {
            let _ = sender.send(Watched::End(Box::new(end))).await;
            return Ok(());
        }
        loop {
            match receiver.recv().await {
                Ok(LiveEvent::Move(live_move)) => {
                    if live_move.index < next {
                        continue;
                    }
                    next = live_move.index + 1;
                    if sender.send(Watched::Move(live_move)).await.is_err() {
                        return Ok(());
                    }
                }
                Ok(LiveEvent::End(end)) => {
                    let _ = sender.send(Watched::End(end)).await;
                    return Ok(());
                }
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    return Err("the stream fell behind the match; reconnect to resume".into());
                }
                Err(broadcast::error::RecvError::Closed) => {
                    // The runner closed the channel: the end is in the store.
                    let record = self.stored_match(id).await?;
                    return match live::live_end(&record) {
                        Some(end) => {
                            let _ = sender.send(Watched::End(Box::new(end))).await;
                            Ok(())
                        }
                        None => Err("the match stopped being played; reconnect to resume".into()),
                    };
                }
            }
        }
    }

    /// The stored match, for a feed (whose errors are words for the watcher).
    async fn stored_match(&self, id: &str) -> Result<MatchRecord, String> {
        self.store()
            .get_match(id)
            .await
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("there is no match `{id}`"))
    }
}
