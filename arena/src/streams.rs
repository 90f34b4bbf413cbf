//! Bounded connections (issue 48, part 48s): how many long-lived streams a client, and the
//! process, may hold open. A stream is a match's event stream (`GET /v1/matches/{id}/events`,
//! Server-Sent Events) or a stream bot's connection (`GET /v1/bot/stream`). Each costs a
//! connection, a task and a feed; none holds a database connection while it waits (they read
//! the store when they open, then wait on the bus).
//!
//! A client (its [`crate::store::Creator`] key: a bot's owner token, or the TCP peer address
//! of an anonymous watcher) holds at most `--max-streams-per-client` at once (429
//! `too_many_streams` beyond), and the process at most `--max-streams` (503 `server_busy`),
//! both with `Retry-After`. The count is taken before anything is read, and given back when the
//! stream's response ends (the client went, the match ended, the process stops).

use crate::problem::{ErrorCode, ServiceError};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Streams one client may hold open by default (`--max-streams-per-client`).
pub const MAX_STREAMS_PER_CLIENT: usize = 32;

/// Streams the process holds open at most by default (`--max-streams`): each is a socket, so
/// the process's open-file limit must be above it (systemd's default soft limit is 1024; raise
/// `LimitNOFILE` with this flag).
pub const MAX_STREAMS: usize = 4096;

/// The limits (`--max-streams-per-client`, `--max-streams`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamLimits {
    /// Streams one client may hold open.
    pub per_client: usize,
    /// Streams the process holds open at most.
    pub total: usize,
}

impl Default for StreamLimits {
    fn default() -> Self {
        StreamLimits {
            per_client: MAX_STREAMS_PER_CLIENT,
            total: MAX_STREAMS,
        }
    }
}

/// The flags of the limits (flattened into `cardroom serve`).
#[derive(Debug, Clone, clap::Args)]
pub struct StreamArgs {
    /// Streams (match event streams and stream bots' connections) one client may hold open at
    /// once: a bot's owner token, or the TCP peer address of a client without one; beyond, 429
    /// `too_many_streams`.
    #[arg(long, env = "CARDROOM_MAX_STREAMS_PER_CLIENT", default_value_t = MAX_STREAMS_PER_CLIENT,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1_000_000))]
    pub max_streams_per_client: usize,
    /// Streams this process holds open at most, all clients together; beyond, 503
    /// `server_busy`. Keep the open-file limit (`ulimit -n`, `LimitNOFILE`) above it.
    #[arg(long, env = "CARDROOM_MAX_STREAMS", default_value_t = MAX_STREAMS,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1_000_000))]
    pub max_streams: usize,
}

impl StreamArgs {
    /// The limits these flags give.
    pub fn limits(&self) -> StreamLimits {
        StreamLimits {
            per_client: self.max_streams_per_client,
            total: self.max_streams,
        }
    }
}

/// The streams open now, per client and in all.
#[derive(Debug, Default)]
pub struct StreamGate {
    limits: StreamLimits,
    open: Arc<Mutex<OpenStreams>>,
}

#[derive(Debug, Default)]
struct OpenStreams {
    per_client: HashMap<String, usize>,
    total: usize,
}

/// One open stream, counted until dropped (hold it as long as the response streams).
#[derive(Debug)]
pub struct StreamSlot {
    open: Arc<Mutex<OpenStreams>>,
    client: String,
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        if let Ok(mut open) = self.open.lock() {
            open.total = open.total.saturating_sub(1);
            if let Some(count) = open.per_client.get_mut(&self.client) {
                *count = count.saturating_sub(1);
                if *count == 0 {
                    open.per_client.remove(&self.client);
                }
            }
        }
    }
}

impl StreamGate {
    /// A gate with these limits.
    pub fn new(limits: StreamLimits) -> StreamGate {
        StreamGate {
            limits,
            open: Arc::default(),
        }
    }

    /// Counts one more stream of `client`, or refuses it: 429 `too_many_streams` when the client
    /// holds its share, 503 `server_busy` when the process holds `total`.
    pub fn open(&self, client: &str) -> Result<StreamSlot, ServiceError> {
        let limits = self.limits;
        let mut open = self
            .open
            .lock()
            .map_err(|_| ServiceError::new(ErrorCode::Internal, "the stream count failed"))?;
        let held = open.per_client.get(client).copied().unwrap_or(0);
        if held >= limits.per_client {
            return Err(ServiceError::new(
                ErrorCode::TooManyStreams,
                format!(
                    "at most {} streams (match event streams and bot streams) per client at once: close one first",
                    limits.per_client
                ),
            ));
        }
        if open.total >= limits.total {
            return Err(ServiceError::new(
                ErrorCode::ServerBusy,
                format!(
                    "the server holds {} streams, its most: try again shortly",
                    limits.total
                ),
            ));
        }
        open.total += 1;
        *open.per_client.entry(client.to_string()).or_insert(0) += 1;
        Ok(StreamSlot {
            open: self.open.clone(),
            client: client.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_holds_its_share_and_the_process_its_total() {
        let gate = StreamGate::new(StreamLimits {
            per_client: 2,
            total: 3,
        });
        let a1 = gate.open("addr:a").expect("a1");
        let _a2 = gate.open("addr:a").expect("a2");
        let refused = gate.open("addr:a").expect_err("a3");
        assert_eq!(refused.code, ErrorCode::TooManyStreams);
        let _b1 = gate.open("addr:b").expect("b1");
        let full = gate.open("addr:c").expect_err("c1");
        assert_eq!(full.code, ErrorCode::ServerBusy);
        drop(a1);
        gate.open("addr:c").expect("c1 once a stream closed");
    }
}
