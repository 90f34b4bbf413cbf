//! The background work of a process that plays matches: the match workers, the renewal of their
//! leases, the ladder and the maintenance.

use super::Arena;
use super::drain::Drain;
use crate::runner::{Outcome, Runner};
use crate::store::{Claim, Lane, Store};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{Notify, Semaphore};

impl Arena {
    /// Starts this process's match workers (which also resume matches whose worker died: on
    /// SQLite at once, on PostgreSQL when their lease runs out), the renewal of their leases, the
    /// ladder (run by one leader among every process on the database) if configured, and the
    /// maintenance.
    pub(super) fn start_background_work(&self) {
        let config = self.config();
        tracing::info!(worker = self.inner.worker, "arena match workers starting");
        // Two sets of slots: the bots' matches (the ladder first, then the clients' matches
        // round robin), and tables with people, which never wait behind the first.
        for (lanes, slots) in [
            (Lane::MATCH_SLOTS, config.concurrency),
            (Lane::TABLE_SLOTS, config.table_slots),
        ] {
            tokio::spawn(work(
                self.runner(),
                Slots {
                    lanes,
                    count: slots,
                    max_running_per_client: config.max_running_per_client,
                },
                self.inner.wake.clone(),
                config.poll_interval,
                self.inner.drain.clone(),
            ));
        }
        tokio::spawn(renew(
            self.inner.store.clone(),
            self.inner.worker.clone(),
            config.lease,
        ));
        if config.ladder {
            tokio::spawn(super::ladder::run(self.clone()));
        }
        tokio::spawn(super::maintenance::run(self.clone()));
    }
}

/// One set of a worker's slots: how many, the lanes of the queue they take from, in order, and
/// the cap of running matches per client.
struct Slots {
    lanes: &'static [Lane],
    count: usize,
    max_running_per_client: u32,
}

/// A worker: claims matches from the database queue while it has a free slot, and plays each,
/// until the process drains (see [`super::drain`]): then it claims nothing more, and counts its
/// runs until they end.
async fn work(runner: Runner, slots: Slots, wake: Arc<Notify>, poll: Duration, drain: Arc<Drain>) {
    let store = runner.store.clone();
    let permits = Arc::new(Semaphore::new(slots.count.max(1)));
    // A run gives its slot back while it waits for a person (see `Runner::slots`).
    let runner = Runner {
        slots: Some(permits.clone()),
        ..runner
    };
    loop {
        let Ok(permit) = permits.clone().acquire_owned().await else {
            return;
        };
        // Counted before the drain is looked at: a drain that begins meanwhile waits for this
        // run, or this worker sees it and claims nothing.
        let counted = drain.run_started();
        if drain.is_draining() {
            tracing::info!("the match worker claims no more matches: the process is draining");
            return;
        }
        let claim = Claim {
            lanes: slots.lanes,
            max_running_per_client: slots.max_running_per_client,
            lease: runner.lease,
        };
        match store.claim_fair(&runner.worker, claim).await {
            Ok(Some(id)) => {
                let runner = runner.clone();
                permit.forget();
                let slot = Slot(permits.clone());
                tokio::spawn(async move {
                    let _counted = counted;
                    match runner.play_claimed(&id, None).await {
                        Ok(Outcome::Finished(false)) => {
                            tracing::warn!(match_id = id, "match was already finished")
                        }
                        Ok(_) => {}
                        Err(error) if error.is::<crate::store::WriterStopped>() => {
                            tracing::info!(
                                match_id = id,
                                "match interrupted: the process is stopping; it resumes from its logged moves"
                            );
                        }
                        Err(error) => {
                            tracing::error!(
                                match_id = id,
                                error = format!("{error:#}"),
                                "match run failed"
                            );
                            // The match stays running: give up its lease so a worker (maybe
                            // this one) resumes it from its logged moves.
                            if let Err(error) =
                                runner.store.release_leases(&runner.worker, Some(&id)).await
                            {
                                tracing::warn!(
                                    match_id = id,
                                    error = format!("{error:#}"),
                                    "could not release the lease"
                                );
                            }
                            tokio::time::sleep(Duration::from_millis(200)).await;
                        }
                    }
                    drop(slot);
                });
            }
            Ok(None) => {
                drop((permit, counted));
                tokio::select! {
                    _ = wake.notified() => {}
                    // A match that ends may let a capped client's next one start.
                    _ = tokio::time::sleep(poll) => {}
                }
            }
            Err(error) => {
                drop((permit, counted));
                tracing::warn!(error = format!("{error:#}"), "claiming a match failed");
                tokio::time::sleep(poll).await;
            }
        }
    }
}

/// A match run's slot among the worker's `concurrency`, given back when the run ends (panics
/// included). Held as a count, not a permit: the run hands it back for the time it waits for a
/// person and takes it again after.
struct Slot(Arc<Semaphore>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.add_permits(1);
    }
}

/// Renews this worker's leases every third of the lease, so they outlive a slow renewal.
async fn renew(store: Arc<dyn Store>, worker: String, lease: Duration) {
    let mut ticker = tokio::time::interval(lease / 3);
    loop {
        ticker.tick().await;
        if let Err(error) = store.renew_leases(&worker, lease).await {
            tracing::warn!(error = format!("{error:#}"), "renewing match leases failed");
        }
    }
}
