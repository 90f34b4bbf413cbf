//! Draining a process before it stops (a deploy, SIGTERM): a deploy must cost no match.
//!
//! [`Arena::drain`] stops this process's match workers from claiming (queued matches wait for
//! another process, or for this one's restart), makes `/readyz` answer 503 so a load balancer
//! sends no new traffic, and lets the matches it plays finish for up to `--drain-secs`, its HTTP
//! listener still open for the stream bots' answers and the watchers. The runs still going then
//! stop at a move boundary ([`crate::runner::Runner::play_claimed`]): their logged moves are
//! kept, the move request in flight is void (its bot is asked again, with its whole time, by the
//! run that resumes the match) and the lease is released, so another worker on PostgreSQL
//! resumes the match at once, or this process after its restart on SQLite. No fault is charged:
//! only logged moves count, and the time between is nobody's.
//!
//! [`Arena::end_streams`] then ends the streams this process holds: a stream bot's last line is
//! `server_restarting` (it connects again, to another process or after the restart; its seats
//! wait for it within the reconnect grace), a watcher's last event is `server_restarting` (an
//! `EventSource` reconnects by itself and resumes after its `Last-Event-ID`).

use super::Arena;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// How long the runs told to stop get to reach their move boundary: a run stops at once unless
/// it is writing a move, or probing the bots of a match not started yet.
const SUSPEND_WAIT: Duration = Duration::from_secs(15);

/// A process's drain: its states, each a watch channel the tasks concerned await.
#[derive(Debug)]
pub struct Drain {
    /// Told to stop: the workers claim nothing more and `/readyz` answers 503.
    draining: watch::Sender<bool>,
    /// The match runs of this process's workers, claims in progress included.
    runs: watch::Sender<usize>,
    /// The runs still going must stop at their next move boundary.
    suspend: watch::Sender<bool>,
    /// The streams this process holds end, with a `server_restarting` line or event.
    restarting: watch::Sender<bool>,
}

impl Default for Drain {
    fn default() -> Self {
        Drain {
            draining: watch::Sender::new(false),
            runs: watch::Sender::new(0),
            suspend: watch::Sender::new(false),
            restarting: watch::Sender::new(false),
        }
    }
}

impl Drain {
    /// True once the process was told to stop.
    pub fn is_draining(&self) -> bool {
        *self.draining.borrow()
    }

    /// What a run watches to know it must stop at its next move boundary.
    pub fn suspension(&self) -> watch::Receiver<bool> {
        self.suspend.subscribe()
    }

    /// Counts a run (or a claim that may become one) until the guard is dropped.
    pub fn run_started(self: &Arc<Self>) -> RunCount {
        self.runs.send_modify(|runs| *runs += 1);
        RunCount(self.clone())
    }

    /// Returns once the streams must end (never before [`Arena::end_streams`]).
    pub async fn restarting(&self) {
        let mut restarting = self.restarting.subscribe();
        // The sender lives as long as the arena: an error cannot come while a stream runs.
        if restarting.wait_for(|restarting| *restarting).await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

/// One run of a match worker, counted while it lives (see [`Drain::run_started`]).
#[derive(Debug)]
pub struct RunCount(Arc<Drain>);

impl Drop for RunCount {
    fn drop(&mut self) {
        self.0
            .runs
            .send_modify(|runs| *runs = runs.saturating_sub(1));
    }
}

/// What a drain did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Drained {
    /// The matches this process played when it was told to stop (a worker caught claiming one
    /// counts too: its claim may become a run).
    pub running: usize,
    /// Those still running when the drain time was up: stopped at a move boundary, to be
    /// resumed elsewhere or after the restart.
    pub suspended: usize,
    /// How long the drain took.
    pub took: Duration,
}

impl Arena {
    /// True once this process was told to stop ([`Arena::drain`]).
    pub fn is_draining(&self) -> bool {
        self.inner.drain.is_draining()
    }

    /// Drains this process for `--drain-secs` (see the module's documentation).
    pub async fn drain(&self) -> Drained {
        self.drain_within(self.inner.config.drain).await
    }

    /// Drains this process: no new claim, `/readyz` 503, the running matches finish for up to
    /// `within`; those left stop at a move boundary and give their lease up. The HTTP listener
    /// and the streams stay open ([`Arena::end_streams`] ends the streams).
    pub async fn drain_within(&self, within: Duration) -> Drained {
        let started = Instant::now();
        let drain = &self.inner.drain;
        drain.draining.send_replace(true);
        let mut runs = drain.runs.subscribe();
        let running = *runs.borrow_and_update();
        tracing::info!(
            running,
            drain_secs = within.as_secs_f64(),
            "draining: no new match is claimed; the running matches may finish"
        );
        // (The watch's guard is dropped at once: the runs' counts wait for it.)
        let _ = tokio::time::timeout(within, runs.wait_for(|runs| *runs == 0)).await;
        // Set even when every run ended: a claim made as the drain began stops at its start.
        drain.suspend.send_replace(true);
        let suspended = *runs.borrow_and_update();
        if suspended > 0 {
            tracing::info!(
                suspended,
                "drain time is up: the matches still running stop at their next move boundary"
            );
            if tokio::time::timeout(SUSPEND_WAIT, runs.wait_for(|runs| *runs == 0))
                .await
                .is_err()
            {
                tracing::warn!(
                    left = *runs.borrow(),
                    "some matches did not reach a move boundary in time; their leases are released \
                     with the process's and they resume from their logged moves"
                );
            }
        }
        let drained = Drained {
            running,
            suspended,
            took: started.elapsed(),
        };
        tracing::info!(
            running,
            suspended,
            took_ms = drained.took.as_millis() as u64,
            "drained"
        );
        drained
    }

    /// Ends the streams this process holds and any opened from now on: a stream bot gets a
    /// `server_restarting` line, a watcher a `server_restarting` event, and the stream closes.
    pub fn end_streams(&self) {
        self.inner.drain.restarting.send_replace(true);
    }

    /// The drain's states (the streams watch them).
    pub(crate) fn drain_state(&self) -> &Arc<Drain> {
        &self.inner.drain
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::suspended;
    use crate::{ArenaConfig, Role};

    /// An arena without match workers: the test's runs are the only ones counted.
    async fn open() -> Arena {
        Arena::open(ArenaConfig {
            role: Role::Api,
            ..ArenaConfig::local("sqlite::memory:")
        })
        .await
        .expect("arena")
    }

    #[tokio::test]
    async fn a_drain_lets_runs_end_then_stops_the_rest_and_ends_the_streams() {
        let arena = open().await;
        let drain = arena.drain_state().clone();
        // A run that ends by itself within the drain, and one that only stops when told.
        let quick = drain.run_started();
        let stubborn = drain.run_started();
        let suspension = drain.suspension();
        let stopped = tokio::spawn(async move {
            suspended(suspension).await;
            drop(stubborn);
        });
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(20)).await;
            drop(quick);
        });
        let mut streams = tokio::spawn({
            let drain = drain.clone();
            async move { drain.restarting().await }
        });
        assert!(!arena.is_draining());
        let drained = arena.drain_within(Duration::from_millis(300)).await;
        assert!(arena.is_draining());
        assert_eq!((drained.running, drained.suspended), (2, 1));
        stopped.await.expect("the stubborn run stopped");
        assert_eq!(*drain.runs.borrow(), 0);
        // The streams go on until they are ended.
        assert!(
            tokio::time::timeout(Duration::from_millis(50), &mut streams)
                .await
                .is_err()
        );
        arena.end_streams();
        streams.await.expect("the streams end");
        // A stream opened later ends at once.
        drain.restarting().await;
        // An idle process drains at once.
        let idle = open().await;
        let drained = idle.drain_within(Duration::from_secs(30)).await;
        assert_eq!((drained.running, drained.suspended), (0, 0));
        assert!(drained.took < Duration::from_secs(30));
    }
}
