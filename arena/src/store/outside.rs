//! What the seats answered from outside the worker need stored (stream bots; see
//! [`super::Transport`]): their pending moves (on SQLite in this process's memory, on
//! PostgreSQL in `pending_moves`, which every process reads) and who is connected.

use super::PendingMove;
use std::collections::HashSet;
use std::time::Duration;

/// The pending moves and the stream connections. A supertrait of [`super::Store`], implemented
/// by [`super::SqlStore`] in `sql/outside.rs`.
#[async_trait::async_trait]
pub trait OutsideStore: Send + Sync {
    /// Stores a pending move, replacing the seat's previous one (a resumed match asks again).
    async fn put_pending(&self, pending: &PendingMove) -> anyhow::Result<()>;
    /// Takes (deletes and returns) the seat's pending move if its request id is `request_id`
    /// (None: whatever is pending): an answer is taken once, by whoever comes first (the
    /// answer's process, or the runner when the deadline passes).
    async fn take_pending(
        &self,
        match_id: &str,
        seat: usize,
        request_id: Option<&str>,
    ) -> anyhow::Result<Option<PendingMove>>;
    /// Takes (deletes and returns) the pending move of `request_id` in `match_id` if it is
    /// `bot_id`'s (a stream bot's answer names its request, not its seat).
    async fn take_bot_pending(
        &self,
        match_id: &str,
        bot_id: &str,
        request_id: &str,
    ) -> anyhow::Result<Option<PendingMove>>;
    /// The pending moves of a match (`match_id`) or of a bot (`bot_id`), oldest first.
    async fn pending_moves(
        &self,
        match_id: Option<&str>,
        bot_id: Option<&str>,
    ) -> anyhow::Result<Vec<PendingMove>>;
    /// Sets the time of the seat's pending move `request_id`: running to `deadline_at` (unix ms),
    /// or frozen with `frozen_left_ms` left (its stream bot is away within its grace). False if
    /// it is no longer pending.
    async fn set_pending_clock(
        &self,
        match_id: &str,
        seat: usize,
        request_id: &str,
        deadline_at: i64,
        frozen_left_ms: Option<i64>,
    ) -> anyhow::Result<bool>;
    /// Forgets a match's pending moves (it ended).
    async fn clear_pending(&self, match_id: &str) -> anyhow::Result<()>;
    /// Records that `bot_id` is connected through `connection_id` for `ttl` from now
    /// (database clock). Another live connection of the bot is replaced only with `replace`:
    /// without it, returns false and changes nothing.
    async fn set_connection(
        &self,
        bot_id: &str,
        connection_id: &str,
        ttl: Duration,
        replace: bool,
    ) -> anyhow::Result<bool>;
    /// Renews the connection while it is still the bot's current one; false if another
    /// connection replaced it.
    async fn renew_connection(
        &self,
        bot_id: &str,
        connection_id: &str,
        ttl: Duration,
    ) -> anyhow::Result<bool>;
    /// Ends the connection if it is still the bot's current one; true if it was.
    async fn end_connection(&self, bot_id: &str, connection_id: &str) -> anyhow::Result<bool>;
    /// The bots connected now (their connection's time has not run out).
    async fn connected_bots(&self) -> anyhow::Result<HashSet<String>>;
}
