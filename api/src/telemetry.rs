//! Structured logs with `tracing`: one line per event, each request's lines carrying its
//! `request_id` and client address (from the per-request span opened in [`crate::startup`]),
//! and one line when a request completes (status, route, latency). Beside the log, sqlx's
//! slow-acquire events (a wait of 50 ms or more for a database connection) are counted for
//! `cardroom_db_pool_slow_acquires_total`, whatever the log filter.

use std::io::IsTerminal as _;
use tracing_subscriber::EnvFilter;
use tracing_subscriber::filter::{LevelFilter, filter_fn};
use tracing_subscriber::layer::{Context, Layer};
use tracing_subscriber::prelude::*;

/// The target of sqlx's pool acquire events: with the pool's settings (no acquire timing log),
/// each is a slow acquire.
const ACQUIRE_TARGET: &str = "sqlx::pool::acquire";

/// Counts sqlx's slow-acquire events.
struct SlowAcquires;

impl<S: tracing::Subscriber> Layer<S> for SlowAcquires {
    fn on_event(&self, _event: &tracing::Event<'_>, _ctx: Context<'_, S>) {
        arena::metrics::count_slow_acquire();
    }
}

/// Installs the global subscriber. `filter` is an `EnvFilter` directive (e.g. `info`,
/// `api=debug,warn`); `json` selects JSON lines instead of text.
pub fn init(filter: &str, json: bool) {
    let filter = EnvFilter::try_new(filter).unwrap_or_else(|_| EnvFilter::new("info"));
    let lines = tracing_subscriber::fmt::layer()
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr);
    let lines = if json {
        lines.json().boxed()
    } else {
        lines.boxed()
    };
    let result = tracing_subscriber::registry()
        .with(lines.with_filter(filter))
        // sqlx logs a slow acquire at DEBUG (the pool's setting): the hint keeps every TRACE
        // callsite (reqwest's, sqlx's) disabled at once instead of asked on every call.
        .with(
            SlowAcquires.with_filter(
                filter_fn(|meta| meta.target() == ACQUIRE_TARGET)
                    .with_max_level_hint(LevelFilter::DEBUG),
            ),
        )
        .try_init();
    // A second init (tests) keeps the first subscriber.
    drop(result);
}
