//! A run's end when its process stops (see `crate::service::drain`): at a move boundary, its
//! lease given up for another worker, or the restarted process, to resume the match.

use super::{Outcome, Runner, Table};

impl Runner {
    /// Stops the run at a move boundary because the process is stopping: the move request in
    /// flight, if any, is void (a stream bot's answer to it is refused as stale), and the lease
    /// is given up so a worker resumes the match from its logged moves at once (another
    /// process on PostgreSQL, this one after its restart on SQLite). Nothing is charged: the
    /// banks are rebuilt from the logged moves.
    pub(super) async fn suspend(&self, table: &Table) -> anyhow::Result<Outcome> {
        let id = &table.record.id;
        self.store.clear_pending(id).await?;
        self.store.release_leases(&self.worker, Some(id)).await?;
        self.metrics.match_suspended(&table.record.game);
        tracing::info!(
            match_id = id,
            game = table.record.game,
            moves = table.history.len(),
            "match suspended: the process is stopping; it resumes from its logged moves"
        );
        Ok(Outcome::Suspended)
    }
}

/// Returns once `suspension` says the runs must stop (never if its sender is gone).
pub async fn suspended(mut suspension: tokio::sync::watch::Receiver<bool>) {
    if suspension.wait_for(|suspend| *suspend).await.is_err() {
        std::future::pending::<()>().await;
    }
}
