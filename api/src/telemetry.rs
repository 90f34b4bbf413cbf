//! Structured logs with `tracing`: one line per event, each request's lines carrying its
//! `request_id` (from the per-request span opened in [`crate::startup`]), and one line when a
//! request completes (status, route, latency).

use std::io::IsTerminal as _;
use tracing_subscriber::EnvFilter;

/// Installs the global subscriber. `filter` is an `EnvFilter` directive (e.g. `info`,
/// `api=debug,warn`); `json` selects JSON lines instead of text.
pub fn init(filter: &str, json: bool) {
    let filter = EnvFilter::try_new(filter).unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr);
    let result = if json {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
    // A second init (tests) keeps the first subscriber.
    drop(result);
}
