//! Seats whose answers come from outside the worker (see [`crate::store::Transport`]): the
//! answers any process takes and hands to the worker over the bus, the pending moves a
//! reconnecting bot (or a person's page) reads, and the stream bots' connections: one per bot
//! (a second is refused unless it asks to replace the first), announced on the bot's presence
//! topic when it opens and when it ends, so a runner waiting for the bot freezes its time while
//! it is away (the reconnect grace, [`crate::runner::presence`]).

use super::Arena;
use crate::bots::hash_token;
use crate::bus::{Subscription, topic};
use crate::metrics::StreamKind;
use crate::problem::{ErrorCode, ServiceError};
use crate::runner::outside::OutsideAnswer;
use crate::store::{BotRecord, PendingMove, Transport};
use serde_json::Value;
use std::collections::HashSet;
use std::time::Duration;
use tokio::sync::mpsc;

/// How often a stream gets an empty line (and its connection is renewed).
pub const STREAM_KEEP_ALIVE: Duration = Duration::from_secs(10);
/// How long a connection counts as live after its last renewal: a process that dies stops
/// renewing, and its bots count as gone once this passes.
const CONNECTION_TTL: Duration = Duration::from_secs(25);
/// Lines a stream may hold before the bus's messages wait for a slow connection.
const STREAM_CAPACITY: usize = 64;
/// How long a stream bot's token, once read, is trusted without reading the database again: an
/// answer per move would otherwise cost one more query. A bot deleted through another process
/// may answer for this long still (this process forgets its tokens at once).
pub const STREAM_TOKEN_TTL: Duration = Duration::from_secs(5);
/// Tokens kept at most.
const STREAM_TOKENS_KEPT: usize = 4096;

/// Stream bots by owner-token hash, read lately: (when, bot id).
pub type StreamTokens = std::sync::Arc<dashmap::DashMap<String, (std::time::Instant, String)>>;

/// Forgets the trusted tokens of every bot named on the [`topic::REVOKED`] topic (its token
/// was replaced or it was deleted, through any process), for as long as the bus runs.
pub(super) async fn forget_revoked(mut revoked: Subscription, tokens: StreamTokens) {
    loop {
        match revoked.recv().await {
            Ok(bot_id) => tokens.retain(|_, (_, bot)| bot.as_str() != &*bot_id),
            // Some were missed: forget every token (they are read again when next used).
            Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => tokens.clear(),
            Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
        }
    }
}

/// A presence notice (on [`topic::presence`]).
fn presence_notice(kind: &str, connection_id: &str) -> String {
    serde_json::json!({"type": kind, "connection_id": connection_id}).to_string()
}

/// What a stream connection sends: one JSON line each.
#[derive(Debug)]
pub enum StreamItem {
    /// A line (without its newline).
    Line(String),
    /// The keep-alive: an empty line.
    KeepAlive,
}

impl Arena {
    /// Answers the pending move of `seat` in `match_id`: `request_id` must be the pending one
    /// (None: whatever is pending), else 409 `stale_request`. The answer goes to the worker that
    /// plays the match, whichever process this is. An action that is not one of the request's
    /// legal actions is still handed over (the worker charges the fault, as for a URL bot) and is
    /// answered 422 `illegal_action`.
    pub async fn submit_move(
        &self,
        match_id: &str,
        seat: usize,
        request_id: Option<&str>,
        action: Value,
        comment: Option<String>,
    ) -> Result<(), ServiceError> {
        let Some(pending) = self
            .inner
            .store
            .take_pending(match_id, seat, request_id)
            .await?
        else {
            if self.inner.store.get_match(match_id).await?.is_none() {
                return Err(ServiceError::new(
                    ErrorCode::UnknownMatch,
                    format!("there is no match `{match_id}`"),
                ));
            }
            return Err(ServiceError::new(
                ErrorCode::StaleRequest,
                match request_id {
                    Some(id) => format!(
                        "request `{id}` is not pending for seat {seat} of match `{match_id}` (answered, timed out, or replaced by a newer one)"
                    ),
                    None => format!("seat {seat} of match `{match_id}` has no pending move"),
                },
            ));
        };
        self.hand_over(match_id, pending, action, comment).await
    }

    /// Hands a taken pending move's answer to the worker that plays the match; 422
    /// `illegal_action` (still handed over: the worker charges the fault) when the action is not
    /// one of the request's legal actions.
    async fn hand_over(
        &self,
        match_id: &str,
        pending: PendingMove,
        action: Value,
        comment: Option<String>,
    ) -> Result<(), ServiceError> {
        /// The one field of the stored line an answer is checked against (the rest, up to the
        /// whole history, is skipped unparsed).
        #[derive(serde::Deserialize)]
        struct Legal {
            legal_actions: Vec<Value>,
        }
        let legal = serde_json::from_str::<Legal>(&pending.request).ok();
        let illegal = match legal {
            Some(legal) if legal.legal_actions.contains(&action) => None,
            _ => Some("it is not one of the move request's legal_actions".to_string()),
        };
        let answer = OutsideAnswer {
            seat: pending.seat,
            request_id: pending.request_id,
            action,
            comment,
            illegal: illegal.clone(),
        };
        let message = serde_json::to_string(&answer).map_err(anyhow::Error::from)?;
        self.inner
            .bus
            .publish(&topic::answers(match_id), message)
            .await?;
        match illegal {
            Some(reason) => Err(ServiceError::new(
                ErrorCode::IllegalAction,
                format!(
                    "{} is refused: {reason}; it counts as a fault and the seat's first legal action is played",
                    crate::runner::compact(&answer.action)
                ),
            )),
            None => Ok(()),
        }
    }

    /// The pending moves of a match, oldest first.
    pub async fn match_pending_moves(
        &self,
        match_id: &str,
    ) -> Result<Vec<PendingMove>, ServiceError> {
        Ok(self.inner.store.pending_moves(Some(match_id), None).await?)
    }

    /// The pending moves of a bot across its matches, oldest first.
    pub async fn bot_pending_moves(&self, bot_id: &str) -> Result<Vec<PendingMove>, ServiceError> {
        Ok(self.inner.store.pending_moves(None, Some(bot_id)).await?)
    }

    /// The id of the stream bot whose owner token this is (401 `unauthorized` otherwise), read
    /// from the database at most every [`STREAM_TOKEN_TTL`].
    async fn stream_bot_id(&self, token: Option<&str>) -> Result<String, ServiceError> {
        let Some(token) = token else {
            return Err(ServiceError::unauthorized());
        };
        let hash = hash_token(token);
        if let Some(known) = self.inner.stream_tokens.get(&hash)
            && known.0.elapsed() < STREAM_TOKEN_TTL
        {
            return Ok(known.1.clone());
        }
        let bot = self.stream_bot(Some(token)).await?;
        let tokens = &self.inner.stream_tokens;
        if tokens.len() >= STREAM_TOKENS_KEPT {
            tokens.retain(|_, (at, _)| at.elapsed() < STREAM_TOKEN_TTL);
            if tokens.len() >= STREAM_TOKENS_KEPT {
                tokens.clear();
            }
        }
        tokens.insert(hash, (std::time::Instant::now(), bot.id.clone()));
        Ok(bot.id)
    }

    /// After a bot's owner token stopped (replaced, or the bot deleted): every process forgets
    /// the token, and the bot's stream connection ends.
    pub(super) async fn revoke_token(&self, bot_id: &str) -> Result<(), ServiceError> {
        let bot = bot_id.to_string();
        self.inner
            .stream_tokens
            .retain(|_, (_, trusted)| *trusted != bot);
        self.inner
            .bus
            .publish(topic::REVOKED, bot_id.to_string())
            .await?;
        self.inner
            .bus
            .publish(
                &topic::presence(bot_id),
                serde_json::json!({"type": "revoked"}).to_string(),
            )
            .await?;
        Ok(())
    }

    /// The stream bot whose owner token this is (401 `unauthorized` without a token,
    /// `invalid_token` for a token of no live bot).
    async fn stream_bot(&self, token: Option<&str>) -> Result<BotRecord, ServiceError> {
        let Some(token) = token else {
            return Err(ServiceError::unauthorized());
        };
        let bot = self
            .inner
            .store
            .bot_by_token(&hash_token(token))
            .await?
            .ok_or_else(ServiceError::invalid_token)?;
        if bot.transport != Transport::Stream {
            return Err(ServiceError::new(
                ErrorCode::Forbidden,
                "this bot was registered with a URL: the arena calls it (only bots registered with \"transport\": \"stream\" connect out)",
            ));
        }
        Ok(bot)
    }

    /// A stream bot's answer (`POST /v1/bot/matches/{match_id}/move`): taken if `request_id` is
    /// pending for one of the bot's seats in the match (one query); otherwise the refusal says
    /// why: 404 `unknown_match`, 403 `forbidden` (no seat there), 409 `stale_request`.
    pub async fn submit_bot_move(
        &self,
        token: Option<&str>,
        match_id: &str,
        request_id: &str,
        action: Value,
        comment: Option<String>,
    ) -> Result<(), ServiceError> {
        let bot_id = self.stream_bot_id(token).await?;
        if let Some(pending) = self
            .inner
            .store
            .take_bot_pending(match_id, &bot_id, request_id)
            .await?
        {
            return self.hand_over(match_id, pending, action, comment).await;
        }
        let record = self.inner.store.get_match(match_id).await?.ok_or_else(|| {
            ServiceError::new(
                ErrorCode::UnknownMatch,
                format!("there is no match `{match_id}`"),
            )
        })?;
        if !record.bots.contains(&bot_id) {
            return Err(ServiceError::new(
                ErrorCode::Forbidden,
                format!("the bot holds no seat in match `{match_id}`"),
            ));
        }
        Err(ServiceError::new(
            ErrorCode::StaleRequest,
            format!(
                "request `{request_id}` is not pending in match `{match_id}` (answered, timed out, or replaced by a newer one)"
            ),
        ))
    }

    /// Connects a stream bot (`GET /v1/bot/stream`): its pending `move` lines at once (each with
    /// the time it actually has left), then every line the bus brings for it, and an empty line
    /// every [`STREAM_KEEP_ALIVE`]. A bot has one connection: while one is live a second is 409
    /// `already_connected`, unless `replace` (the previous one then ends, on whichever process
    /// it is). The feed ends when the receiver is dropped, a newer connection replaces this one,
    /// or the bot's token is revoked; its end is announced (`disconnected`) unless it was
    /// replaced.
    pub async fn connect_stream(
        &self,
        token: Option<&str>,
        replace: bool,
    ) -> Result<mpsc::Receiver<StreamItem>, ServiceError> {
        let bot = self.stream_bot(token).await?;
        // Counted before anything is stored; given back when the connection's task ends.
        let slot = self
            .streams()
            .open(&crate::store::Creator::owner(&bot.id).key)?;
        let connection_id = crate::bots::new_id("c");
        // Subscribed before anything is read: a move announced meanwhile is heard or stored.
        let subscription = self.inner.bus.subscribe(&topic::bot(&bot.id));
        let presence = self.inner.bus.subscribe(&topic::presence(&bot.id));
        if !self
            .inner
            .store
            .set_connection(&bot.id, &connection_id, CONNECTION_TTL, replace)
            .await?
        {
            return Err(ServiceError::new(
                ErrorCode::AlreadyConnected,
                format!(
                    "bot {} is connected already: a second connection would take its moves from the first; connect with `?replace=true` to replace it (as after your own connection dropped)",
                    bot.id
                ),
            ));
        }
        self.inner
            .bus
            .publish(
                &topic::presence(&bot.id),
                presence_notice("connected", &connection_id),
            )
            .await?;
        let mut pending = self.bot_pending_moves(&bot.id).await?;
        let now = crate::store::now_ms();
        // A move whose time has run out is the runner's to close (a timeout): not sent.
        pending.retain(|pending| pending.left_ms(now) > 0);
        for pending in &mut pending {
            let whole = self.whole_line(pending).await;
            pending.request =
                crate::runner::outside::with_time_left(&whole, pending.left_ms(now) as u64);
        }
        tracing::info!(
            bot = bot.id,
            connection_id,
            pending = pending.len(),
            "stream bot connected"
        );
        let (sender, lines) = mpsc::channel(STREAM_CAPACITY);
        let arena = self.clone();
        tokio::spawn(async move {
            let _slot = slot;
            let _open = arena.metrics().stream_opened(StreamKind::Bot);
            let restarting = tokio::select! {
                fed = arena.feed_stream(&bot.id, &connection_id, (subscription, presence), pending, &sender) => {
                    if let Err(error) = fed {
                        tracing::warn!(bot = bot.id, error = format!("{error:#}"), "stream ended");
                    }
                    false
                }
                () = sender.closed() => false,
                () = arena.drain_state().restarting() => true,
            };
            if restarting {
                // The last line; the connection closes when the sender is dropped.
                let _ = sender.send(StreamItem::Line(arena.restarting_line())).await;
            }
            arena.end_stream(&bot.id, &connection_id).await;
        });
        Ok(lines)
    }

    /// The `server_restarting` line of a stream this process ends as it stops.
    fn restarting_line(&self) -> String {
        let line = crate::wire::StreamLine::ServerRestarting(crate::wire::StreamServerRestarting {
            detail: "this arena process is stopping (a deploy); connect again: your matches wait \
                     for you within the reconnect grace"
                .into(),
            reconnect_grace_ms: self.inner.config.reconnect_grace.as_millis() as u64,
        });
        serde_json::to_string(&line).unwrap_or_default()
    }

    /// Ends a stream connection: if it is still the bot's current one, it is forgotten and its
    /// end announced on the bot's presence topic (`disconnected`), so the runners waiting for
    /// the bot start its reconnect grace. A connection a newer one replaced ends silently.
    pub async fn end_stream(&self, bot_id: &str, connection_id: &str) {
        let ended = match self.inner.store.end_connection(bot_id, connection_id).await {
            Ok(ended) => ended,
            Err(error) => {
                tracing::warn!(
                    bot = bot_id,
                    error = format!("{error:#}"),
                    "could not end the connection"
                );
                // Announced anyway: its runners had better wait for it than fault it.
                true
            }
        };
        if ended
            && let Err(error) = self
                .inner
                .bus
                .publish(
                    &topic::presence(bot_id),
                    presence_notice("disconnected", connection_id),
                )
                .await
        {
            tracing::warn!(
                bot = bot_id,
                error = format!("{error:#}"),
                "could not announce the disconnection"
            );
        }
        tracing::info!(bot = bot_id, connection_id, "stream bot disconnected");
    }

    /// A pending `move` line with the seat's whole history (see
    /// [`crate::runner::outside::whole_move_line`]); as stored if it cannot be rebuilt (logged:
    /// the bot still gets its move, and its next request restarts the history anyway).
    async fn whole_line(&self, pending: &PendingMove) -> String {
        #[derive(serde::Deserialize)]
        struct Head {
            history_from: Option<u64>,
        }
        let from = serde_json::from_str::<Head>(&pending.request).map(|head| head.history_from);
        if matches!(from, Ok(None | Some(0))) {
            return pending.request.clone();
        }
        let rebuilt = async {
            let record = self
                .inner
                .store
                .get_match(&pending.match_id)
                .await?
                .ok_or_else(|| anyhow::anyhow!("the match is gone"))?;
            let moves = self.inner.store.moves(&pending.match_id).await?;
            crate::runner::outside::whole_move_line(&record, moves, &pending.request)
        };
        match rebuilt.await {
            Ok(line) => line,
            Err(error) => {
                tracing::warn!(
                    match_id = pending.match_id,
                    seat = pending.seat,
                    error = format!("{error:#}"),
                    "a pending move line could not be made whole; sent as stored"
                );
                pending.request.clone()
            }
        }
    }

    async fn feed_stream(
        &self,
        bot_id: &str,
        connection_id: &str,
        (mut subscription, mut presence): (Subscription, Subscription),
        pending: Vec<PendingMove>,
        sender: &mpsc::Sender<StreamItem>,
    ) -> anyhow::Result<()> {
        let mut sent: HashSet<String> = HashSet::new();
        for pending in pending {
            sent.insert(pending.request_id);
            if sender
                .send(StreamItem::Line(pending.request))
                .await
                .is_err()
            {
                return Ok(());
            }
        }
        let mut keep_alive = tokio::time::interval(STREAM_KEEP_ALIVE);
        keep_alive.tick().await;
        loop {
            tokio::select! {
                notice = presence.recv() => {
                    let notice = match notice {
                        Ok(notice) => notice,
                        Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                        Err(tokio::sync::broadcast::error::RecvError::Closed) => return Ok(()),
                    };
                    let head: Value = serde_json::from_str(&notice).unwrap_or_default();
                    match head.get("type").and_then(Value::as_str) {
                        Some("connected") if head.get("connection_id").and_then(Value::as_str) != Some(connection_id) => {
                            tracing::info!(bot = bot_id, connection_id, "stream replaced by a newer connection");
                            return Ok(());
                        }
                        Some("revoked") => {
                            tracing::info!(bot = bot_id, connection_id, "stream ended: the bot's token was revoked");
                            return Ok(());
                        }
                        _ => {}
                    }
                }
                received = subscription.recv() => {
                    let message = match received {
                        Ok(message) => message,
                        Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                        Err(tokio::sync::broadcast::error::RecvError::Closed) => return Ok(()),
                    };
                    let head: Value = serde_json::from_str(&message).unwrap_or_default();
                    if head.get("type").and_then(Value::as_str) == Some("move") {
                        let request_id = head.get("request_id").and_then(Value::as_str).unwrap_or_default();
                        if !sent.insert(request_id.to_string()) {
                            continue;
                        }
                    }
                    if sender.send(StreamItem::Line(message.to_string())).await.is_err() {
                        return Ok(());
                    }
                }
                _ = keep_alive.tick() => {
                    if !self.inner.store.renew_connection(bot_id, connection_id, CONNECTION_TTL).await? {
                        return Ok(());
                    }
                    if sender.send(StreamItem::KeepAlive).await.is_err() {
                        return Ok(());
                    }
                }
            }
        }
    }
}
