//! The event bus: everything live goes through it, whichever process produced it and whichever
//! process holds the reader. A message is JSON text published on a topic; every subscriber of
//! that topic, in every process sharing the database, receives the messages published after it
//! subscribed, in the order one publisher sent them.
//!
//! Topics (see [`topic`]): a match's live events (`/v1/matches/{id}/events`), the lines for a
//! stream bot's connection (`move`, `match_start`, `match_end`), a stream bot's presence (it
//! connected, disconnected, its token was revoked), the answers to a match's pending moves
//! (posted to any process, heard by the worker that plays the match), and revoked tokens.
//!
//! Two implementations: [`InProcessBus`] (SQLite: one process) and [`PgBus`] (PostgreSQL
//! `LISTEN/NOTIFY` on one channel: the payload is the topic and the message, or, over NOTIFY's
//! 8000-byte limit, the id of a row of `bus_messages` every listener reads). A process delivers
//! its own messages through PostgreSQL too, so a topic's subscribers see one order.

use dashmap::DashMap;
use sqlx::postgres::{PgListener, PgPool};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast;

/// A message as subscribers receive it: JSON text, shared between them.
pub type Message = Arc<str>;

/// Messages a slow subscriber may fall behind on one topic before it is told it lagged.
const CHANNEL_CAPACITY: usize = 1024;

/// The bus's topics.
pub mod topic {
    /// A match's live events (spectator-safe moves, then the end).
    pub fn live(match_id: &str) -> String {
        format!("live:{match_id}")
    }

    /// The lines of a bot's stream connection (and the notice that a newer one replaced it).
    pub fn bot(bot_id: &str) -> String {
        format!("bot:{bot_id}")
    }

    /// Answers to a match's pending moves, for the worker that plays it.
    pub fn answers(match_id: &str) -> String {
        format!("answers:{match_id}")
    }

    /// A stream bot's presence: `connected` and `disconnected` notices (each naming its
    /// connection), and `revoked` when its token was replaced or the bot deleted (its
    /// connections end). Runners hear when a seat's bot comes and goes; a connection hears
    /// that a newer one replaced it.
    pub fn presence(bot_id: &str) -> String {
        format!("presence:{bot_id}")
    }

    /// The bot ids whose owner token stopped (replaced, or the bot deleted): every process
    /// forgets the tokens it trusted for them.
    pub const REVOKED: &str = "revoked";
}

/// One event bus for every process on the database.
#[async_trait::async_trait]
pub trait Bus: Send + Sync + std::fmt::Debug {
    /// Delivers `message` to the subscribers of `topic` in every process.
    async fn publish(&self, topic: &str, message: String) -> anyhow::Result<()>;
    /// The messages published on `topic` from now on.
    fn subscribe(&self, topic: &str) -> Subscription;
    /// Whether a message on `topic` may reach a subscriber (so a publisher can skip building
    /// one nobody reads). In process: a subscriber exists; across processes: always.
    fn may_be_heard(&self, topic: &str) -> bool;
}

/// This process's subscribers, one broadcast channel per topic somebody subscribed to.
#[derive(Debug, Clone, Default)]
struct Fanout {
    channels: Arc<DashMap<String, broadcast::Sender<Message>>>,
}

impl Fanout {
    fn subscribe(&self, topic: &str) -> Subscription {
        let receiver = self
            .channels
            .entry(topic.to_string())
            .or_insert_with(|| broadcast::channel(CHANNEL_CAPACITY).0)
            .subscribe();
        Subscription {
            topic: topic.to_string(),
            receiver,
            fanout: self.clone(),
        }
    }

    fn has(&self, topic: &str) -> bool {
        self.channels.contains_key(topic)
    }

    fn deliver(&self, topic: &str, message: Message) {
        if let Some(sender) = self.channels.get(topic) {
            // No receiver left is not an error: subscribers come and go.
            let _ = sender.send(message);
        }
    }
}

/// A subscription to one topic; dropping it unsubscribes.
#[derive(Debug)]
pub struct Subscription {
    topic: String,
    receiver: broadcast::Receiver<Message>,
    fanout: Fanout,
}

impl Subscription {
    /// The next message; `Lagged` if this subscriber fell more than 1024 messages behind.
    pub async fn recv(&mut self) -> Result<Message, broadcast::error::RecvError> {
        self.receiver.recv().await
    }
}

impl Subscription {
    /// The next message if one came, without waiting.
    pub fn try_recv(&mut self) -> Result<Message, broadcast::error::TryRecvError> {
        self.receiver.try_recv()
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        // This receiver still counts until the fields are dropped.
        self.fanout
            .channels
            .remove_if(&self.topic, |_, sender| sender.receiver_count() <= 1);
    }
}

/// The bus of one process (SQLite): messages go straight to this process's subscribers.
#[derive(Debug, Clone, Default)]
pub struct InProcessBus {
    fanout: Fanout,
}

#[async_trait::async_trait]
impl Bus for InProcessBus {
    async fn publish(&self, topic: &str, message: String) -> anyhow::Result<()> {
        self.fanout.deliver(topic, message.into());
        Ok(())
    }

    fn subscribe(&self, topic: &str) -> Subscription {
        self.fanout.subscribe(topic)
    }

    fn may_be_heard(&self, topic: &str) -> bool {
        self.fanout.has(topic)
    }
}

/// The PostgreSQL channel every process listens on.
const CHANNEL: &str = "cardroom_bus";
/// The largest payload sent inline (NOTIFY refuses 8000 bytes and more).
const INLINE_LIMIT: usize = 7_900;
/// How long a large message's row is kept for late readers.
const ROW_RETENTION: Duration = Duration::from_secs(60);

/// The bus of processes sharing a PostgreSQL database: `LISTEN/NOTIFY` on [`CHANNEL`]. A
/// payload is `m<topic>\n<message>`, or `r<row id> <topic>` for a message stored in
/// `bus_messages`. Each process reads the notifications on a connection of its own and hands them
/// to its subscribers (a topic nobody here subscribed to is skipped, its row unread).
#[derive(Debug, Clone)]
pub struct PgBus {
    pool: PgPool,
    fanout: Fanout,
}

impl PgBus {
    /// Listens on the database (one connection of `pool`, kept) and starts delivering.
    pub async fn start(pool: PgPool) -> anyhow::Result<Self> {
        let mut listener = PgListener::connect_with(&pool).await?;
        listener.ignore_pool_close_event(true);
        listener.listen(CHANNEL).await?;
        let bus = PgBus {
            pool,
            fanout: Fanout::default(),
        };
        tokio::spawn(bus.clone().deliver(listener));
        tokio::spawn(bus.clone().forget_old_rows());
        Ok(bus)
    }

    /// Hands each notification to this process's subscribers.
    async fn deliver(self, mut listener: PgListener) {
        loop {
            match listener.try_recv().await {
                Ok(Some(notification)) => {
                    if let Err(error) = self.hand_over(notification.payload()).await {
                        tracing::warn!(error = format!("{error:#}"), "bus message dropped");
                    }
                }
                // sqlx reconnects on the next call; what was sent meanwhile is lost (readers
                // of a match's events reconnect and read the stored log).
                Ok(None) => tracing::warn!("the bus's database connection was lost; reconnecting"),
                Err(error) => {
                    tracing::warn!(error = format!("{error:#}"), "the bus cannot listen");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
        }
    }

    async fn hand_over(&self, payload: &str) -> anyhow::Result<()> {
        if let Some(inline) = payload.strip_prefix('m') {
            let (topic, message) = inline
                .split_once('\n')
                .ok_or_else(|| anyhow::anyhow!("a bus payload without a topic"))?;
            self.fanout.deliver(topic, message.into());
        } else if let Some(stored) = payload.strip_prefix('r') {
            let (id, topic) = stored
                .split_once(' ')
                .ok_or_else(|| anyhow::anyhow!("a bus row payload without a topic"))?;
            if !self.fanout.has(topic) {
                return Ok(());
            }
            let message: String =
                sqlx::query_scalar("SELECT message FROM bus_messages WHERE id = $1")
                    .bind(id.parse::<i64>()?)
                    .fetch_one(&self.pool)
                    .await?;
            self.fanout.deliver(topic, message.into());
        }
        Ok(())
    }

    /// Deletes the rows of large messages once every listener has read them.
    async fn forget_old_rows(self) {
        let mut ticker = tokio::time::interval(ROW_RETENTION / 2);
        loop {
            ticker.tick().await;
            let before = crate::store::now_ms() - ROW_RETENTION.as_millis() as i64;
            if let Err(error) = sqlx::query("DELETE FROM bus_messages WHERE created_at < $1")
                .bind(before)
                .execute(&self.pool)
                .await
            {
                tracing::warn!(error = format!("{error:#}"), "deleting old bus rows failed");
            }
        }
    }
}

#[async_trait::async_trait]
impl Bus for PgBus {
    async fn publish(&self, topic: &str, message: String) -> anyhow::Result<()> {
        let payload = if topic.len() + message.len() + 2 <= INLINE_LIMIT {
            format!("m{topic}\n{message}")
        } else {
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO bus_messages (topic, message, created_at) VALUES ($1, $2, $3) \
                 RETURNING id",
            )
            .bind(topic)
            .bind(&message)
            .bind(crate::store::now_ms())
            .fetch_one(&self.pool)
            .await?;
            format!("r{id} {topic}")
        };
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(CHANNEL)
            .bind(payload)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    fn subscribe(&self, topic: &str) -> Subscription {
        self.fanout.subscribe(topic)
    }

    fn may_be_heard(&self, _topic: &str) -> bool {
        // A subscriber may be in another process.
        true
    }
}

/// The bus for a store: across processes on PostgreSQL, in process on SQLite.
pub async fn open(postgres: Option<PgPool>) -> anyhow::Result<Arc<dyn Bus>> {
    Ok(match postgres {
        Some(pool) => Arc::new(PgBus::start(pool).await?),
        None => Arc::new(InProcessBus::default()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_subscriber_gets_what_is_published_after_it_subscribed_and_leaving_forgets_the_topic()
    {
        let bus = InProcessBus::default();
        bus.publish("t", "before".into()).await.expect("publish");
        assert!(!bus.may_be_heard("t"));
        let mut first = bus.subscribe("t");
        let second = bus.subscribe("t");
        assert!(bus.may_be_heard("t"));
        bus.publish("t", "after".into()).await.expect("publish");
        bus.publish("other", "elsewhere".into())
            .await
            .expect("publish");
        assert_eq!(&*first.recv().await.expect("message"), "after");
        drop(second);
        assert!(bus.may_be_heard("t"), "one subscriber is left");
        drop(first);
        assert!(!bus.may_be_heard("t"));
    }
}
