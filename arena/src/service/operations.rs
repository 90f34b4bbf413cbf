//! What an operator asks a process (`/readyz`, `/metrics`): whether it can serve (its database
//! answers and has every migration of this binary), and the figures read from the database at
//! each scrape (the queue by class, the connection pool).

use super::Arena;
use std::time::Duration;

/// How long a readiness check or a scrape waits for the database: a probe answers within it
/// whatever the database does.
pub const CHECK_TIMEOUT: Duration = Duration::from_secs(2);

/// What `/readyz` reports of the arena.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArenaReadiness {
    /// The database answered within [`CHECK_TIMEOUT`].
    pub database: bool,
    /// This binary's migrations the database lacks (or whose run failed).
    pub pending_migrations: Vec<i64>,
    /// Why the database check failed, in words (for the operator).
    pub error: Option<String>,
}

impl ArenaReadiness {
    /// Ready: the database answers and is migrated.
    pub fn ready(&self) -> bool {
        self.database && self.pending_migrations.is_empty()
    }
}

impl Arena {
    /// Whether this process can serve: its database answers (within [`CHECK_TIMEOUT`]) and has
    /// every migration this binary knows.
    pub async fn readiness(&self) -> ArenaReadiness {
        match tokio::time::timeout(CHECK_TIMEOUT, self.store().readiness()).await {
            Ok(Ok(readiness)) => ArenaReadiness {
                database: true,
                pending_migrations: readiness.pending_migrations,
                error: None,
            },
            Ok(Err(error)) => ArenaReadiness {
                database: false,
                pending_migrations: Vec::new(),
                error: Some(format!("{error:#}")),
            },
            Err(_) => ArenaReadiness {
                database: false,
                pending_migrations: Vec::new(),
                error: Some(format!(
                    "the database did not answer within {} s",
                    CHECK_TIMEOUT.as_secs()
                )),
            },
        }
    }

    /// Reads the figures `/metrics` shows from the database (the queue by class) and the pool:
    /// called at each scrape; a database that does not answer within [`CHECK_TIMEOUT`] leaves
    /// the queue's last figures.
    pub async fn observe(&self) {
        self.metrics().observe_pool(self.store().pool_stats());
        match tokio::time::timeout(CHECK_TIMEOUT, self.store().queue_depths()).await {
            Ok(Ok(depths)) => self.metrics().observe_queue(&depths),
            Ok(Err(error)) => {
                tracing::debug!(error = format!("{error:#}"), "reading the queue failed")
            }
            Err(_) => tracing::debug!("reading the queue timed out"),
        }
    }
}
