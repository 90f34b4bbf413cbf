//! The reconnect grace of stream seats. A stream bot's connection may drop (a network blip, a
//! restart of the bot, or of the arena process holding its stream, which closes it cleanly):
//! while it is away, a seat waiting for its move does not let its time run. The move's time
//! stands still ([`MoveTime::freeze`]) until the bot connects again, for at most what is left
//! of the match's grace for that seat (`--reconnect-grace-ms`, spent only while a move of the
//! seat waits); then it runs on from where it stood, and a move replayed to the reconnected bot
//! carries the time it actually has left. An outage past the grace costs time as any silence
//! does.
//!
//! [`Presence`] follows the bot from the `connected` / `disconnected` notices of its presence
//! topic ([`crate::bus::topic::presence`]), whichever process holds its stream; [`MoveTime`] is
//! one move's clock. Anything that ends streams on purpose (a process draining before a
//! deploy) only has to end them through [`crate::Arena::end_stream`]: the seats wait for their
//! bots to connect elsewhere.

use crate::bus::{Bus, Subscription, topic};
use serde_json::Value;
use std::time::{Duration, Instant};
use tokio::sync::broadcast::error::{RecvError, TryRecvError};

/// A stream seat's bot as the runner sees it, and what is left of the seat's grace.
#[derive(Debug)]
pub struct Presence {
    notices: Subscription,
    /// The connection the latest `connected` notice named (None: none heard in this run).
    connection: Option<String>,
    /// Its connection dropped and no newer one came (as far as the notices tell).
    away: bool,
    /// What is left of the match's reconnect grace for this seat.
    grace_left: Duration,
    /// A `connected` notice came since [`Presence::take_reconnected`] was last asked: the bot
    /// may have lost the history it had.
    reconnected: bool,
}

impl Presence {
    /// Follows `bot_id`'s presence from now on, with `grace` to spend in this match. The bot
    /// counts as connected until [`Presence::start_from`] or a notice says otherwise.
    pub fn new(bus: &dyn Bus, bot_id: &str, grace: Duration) -> Self {
        Presence {
            notices: bus.subscribe(&topic::presence(bot_id)),
            connection: None,
            away: false,
            grace_left: grace,
            reconnected: false,
        }
    }

    /// Applies the notices that came, without waiting.
    pub fn catch_up(&mut self) {
        loop {
            match self.notices.try_recv() {
                Ok(notice) => self.apply(&notice),
                // Notices were missed: whatever happened, the bot may have reconnected.
                Err(TryRecvError::Lagged(_)) => self.reconnected = true,
                Err(_) => return,
            }
        }
    }

    /// Waits for the next notice and applies it (cancel-safe). Never returns while the bus
    /// is gone: the move's own deadline ends the wait then.
    pub async fn next_notice(&mut self) {
        match self.notices.recv().await {
            Ok(notice) => self.apply(&notice),
            Err(RecvError::Lagged(_)) => self.reconnected = true,
            Err(RecvError::Closed) => std::future::pending().await,
        }
    }

    /// Starts from whether the bot is `connected`, as read after subscribing (a resumed run may
    /// find it away): the notices that came since are applied after, in order.
    pub fn start_from(&mut self, connected: bool) {
        self.away = !connected;
    }

    fn apply(&mut self, notice: &str) {
        let Ok(notice) = serde_json::from_str::<Value>(notice) else {
            return;
        };
        let connection = notice.get("connection_id").and_then(Value::as_str);
        match notice.get("type").and_then(Value::as_str) {
            Some("connected") => {
                self.connection = connection.map(str::to_string);
                self.away = false;
                self.reconnected = true;
            }
            // A connection that a newer one replaced is no news (its end is not announced, but
            // a notice may come late): only the current one's end counts.
            Some("disconnected")
                if self.connection.is_none() || self.connection.as_deref() == connection =>
            {
                self.away = true;
            }
            _ => {}
        }
    }

    /// Whether the bot is away now.
    pub fn away(&self) -> bool {
        self.away
    }

    /// What is left of the seat's grace.
    pub fn grace_left(&self) -> Duration {
        self.grace_left
    }

    /// Takes `waited` from the seat's grace.
    pub fn spend(&mut self, waited: Duration) {
        self.grace_left = self.grace_left.saturating_sub(waited);
    }

    /// Whether the bot connected again since the last call.
    pub fn take_reconnected(&mut self) -> bool {
        std::mem::take(&mut self.reconnected)
    }
}

/// One move's clock: it runs while the seat's bot is there and stands still while the bot is
/// away within its grace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveTime {
    timeout: Duration,
    /// The time left at `mark`.
    left: Duration,
    mark: Instant,
    frozen: bool,
}

impl MoveTime {
    /// A move given `timeout`, from `now`, standing still from the start if `frozen`.
    pub fn new(timeout: Duration, now: Instant, frozen: bool) -> Self {
        MoveTime {
            timeout,
            left: timeout,
            mark: now,
            frozen,
        }
    }

    /// The time left at `now`.
    pub fn left(&self, now: Instant) -> Duration {
        if self.frozen {
            self.left
        } else {
            self.left
                .saturating_sub(now.saturating_duration_since(self.mark))
        }
    }

    /// The time the bot has used at `now` (what its answer is charged).
    pub fn used(&self, now: Instant) -> Duration {
        self.timeout.saturating_sub(self.left(now))
    }

    /// Whether the clock stands still.
    pub fn frozen(&self) -> bool {
        self.frozen
    }

    /// When the time runs out, while it runs.
    pub fn deadline(&self) -> Option<Instant> {
        (!self.frozen).then(|| self.mark + self.left)
    }

    /// Since when it stands still, while it does.
    pub fn frozen_since(&self) -> Option<Instant> {
        self.frozen.then_some(self.mark)
    }

    /// Stops the clock at `now`.
    pub fn freeze(&mut self, now: Instant) {
        if !self.frozen {
            self.left = self.left(now);
            self.mark = now;
            self.frozen = true;
        }
    }

    /// Starts the clock again at `now`; returns how long it stood still.
    pub fn resume(&mut self, now: Instant) -> Duration {
        if !self.frozen {
            return Duration::ZERO;
        }
        let stood = now.saturating_duration_since(self.mark);
        self.mark = now;
        self.frozen = false;
        stood
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bus::InProcessBus;

    #[test]
    fn a_move_clock_stands_still_while_frozen_and_resumes_where_it_stood() {
        let start = Instant::now();
        let ms = Duration::from_millis;
        let mut time = MoveTime::new(ms(1000), start, false);
        assert_eq!(time.left(start + ms(300)), ms(700));
        time.freeze(start + ms(300));
        assert_eq!(time.deadline(), None);
        assert_eq!(time.left(start + ms(5000)), ms(700));
        assert_eq!(time.resume(start + ms(2800)), ms(2500));
        assert_eq!(time.deadline(), Some(start + ms(3500)));
        assert_eq!(time.used(start + ms(3000)), ms(500));
        assert_eq!(time.left(start + ms(9000)), Duration::ZERO);
        let frozen = MoveTime::new(ms(1000), start, true);
        assert_eq!(frozen.left(start + ms(400)), ms(1000));
        assert_eq!(frozen.frozen_since(), Some(start));
    }

    #[tokio::test]
    async fn presence_follows_the_current_connection_and_spends_its_grace() {
        let bus = InProcessBus::default();
        let mut presence = Presence::new(&bus, "b_1", Duration::from_secs(10));
        presence.start_from(false);
        assert!(presence.away());
        let notice = |kind: &str, id: &str| {
            serde_json::json!({"type": kind, "connection_id": id}).to_string()
        };
        let topic = topic::presence("b_1");
        bus.publish(&topic, notice("connected", "c_1"))
            .await
            .unwrap();
        bus.publish(&topic, notice("disconnected", "c_1"))
            .await
            .unwrap();
        presence.catch_up();
        assert!(presence.away() && presence.take_reconnected());
        assert!(!presence.take_reconnected());
        // A new connection, then the late end of one it replaced: still there.
        bus.publish(&topic, notice("connected", "c_2"))
            .await
            .unwrap();
        bus.publish(&topic, notice("disconnected", "c_1"))
            .await
            .unwrap();
        presence.catch_up();
        assert!(!presence.away());
        presence.spend(Duration::from_secs(4));
        presence.spend(Duration::from_secs(7));
        assert_eq!(presence.grace_left(), Duration::ZERO);
    }
}
