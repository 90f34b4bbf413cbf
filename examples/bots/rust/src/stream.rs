//! Stream mode (`--connect URL --token T`), for a bot the arena cannot reach (a laptop behind NAT
//! or a firewall): the bot, registered with `"transport": "stream"`, connects out. It reads
//! `GET /v1/bot/stream` (bearer token; one JSON object per line, an empty line now and then as a
//! keep-alive) and answers each `move` line with `POST /v1/bot/matches/{match_id}/move`
//! `{"request_id", "action"}`. No port and no signatures: the token is the credential.
//!
//! After a drop it connects again with a growing pause, replacing the dropped connection
//! (`?replace=true`: the arena may not have seen it end); the arena then sends the pending moves
//! of the bot's running matches at once, each with the time it has left. A first connection
//! does not replace: if another process of the bot is connected, the arena answers 409
//! `already_connected` and the bot stops.

use crate::protocol::{EndNotice, MoveRequest, StartNotice};
use crate::search::{Search, decide};
use serde_json::Value;
use std::time::Duration;

/// The first pause before connecting again; it doubles up to [`RECONNECT_MAX`].
const RECONNECT_FIRST: Duration = Duration::from_secs(1);
/// The longest pause between two connection attempts.
const RECONNECT_MAX: Duration = Duration::from_secs(30);

/// Why the stream stopped for good.
#[derive(Debug)]
pub enum StreamError {
    /// The arena refused the token (HTTP 401 or 403): connecting again cannot help.
    TokenRefused(String),
    /// Another process of the bot is connected (HTTP 409 `already_connected`).
    AlreadyConnected(String),
}

impl std::fmt::Display for StreamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::TokenRefused(detail) => write!(f, "the arena refused the token: {detail}"),
            Self::AlreadyConnected(detail) => write!(
                f,
                "another process of this bot is connected (stop it first): {detail}"
            ),
        }
    }
}

impl std::error::Error for StreamError {}

/// A line of the stream with the match id under the name the typed messages read (`match`).
fn with_match_field(mut line: Value) -> Value {
    if let Some(object) = line.as_object_mut()
        && !object.contains_key("match")
        && let Some(id) = object.get("match_id").cloned()
    {
        object.insert("match".into(), id);
    }
    line
}

/// The connection to one arena.
pub struct Stream {
    http: reqwest::Client,
    base: String,
    authorization: String,
}

impl Stream {
    /// A client for the arena at `arena` (e.g. `https://arena.example`) with the bot's `token`.
    pub fn new(arena: &str, token: &str) -> Result<Self, reqwest::Error> {
        // reqwest is built without a default TLS provider (see Cargo.toml): install ring's.
        let _ = rustls::crypto::ring::default_provider().install_default();
        Ok(Self {
            // No overall timeout: the stream stays open for as long as the bot runs.
            http: reqwest::Client::builder()
                .connect_timeout(Duration::from_secs(10))
                .build()?,
            base: arena.trim_end_matches('/').to_owned(),
            authorization: format!("Bearer {token}"),
        })
    }

    /// Reads the stream and answers its moves with `choose` (by rollouts with `search`),
    /// connecting again after every drop. Returns only when the arena refuses the token.
    pub async fn run(
        &self,
        choose: impl Fn(&MoveRequest) -> Option<usize>,
        search: Option<&Search>,
    ) -> StreamError {
        let mut pause = RECONNECT_FIRST;
        let mut replace = false;
        loop {
            let read = self.read(&choose, search, replace).await;
            // Every later connection replaces the one that dropped.
            replace = true;
            match read {
                Ok(()) => eprintln!("the arena closed the stream"),
                Err(Failure::Fatal(error)) => return error,
                Err(Failure::Dropped(detail)) => eprintln!("stream: {detail}"),
            }
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(RECONNECT_MAX);
        }
    }

    /// One connection: reads lines until the arena closes it or it drops.
    async fn read(
        &self,
        choose: &impl Fn(&MoveRequest) -> Option<usize>,
        search: Option<&Search>,
        replace: bool,
    ) -> Result<(), Failure> {
        let dropped = |error: reqwest::Error| Failure::Dropped(error.to_string());
        let query = if replace { "?replace=true" } else { "" };
        let mut response = self
            .http
            .get(format!("{}/v1/bot/stream{query}", self.base))
            .header("authorization", &self.authorization)
            .header("accept", "application/x-ndjson")
            .send()
            .await
            .map_err(dropped)?;
        let status = response.status();
        if status == 401 || status == 403 {
            let body = response.text().await.unwrap_or_default();
            return Err(Failure::Fatal(StreamError::TokenRefused(format!(
                "HTTP {status} {body}"
            ))));
        }
        if status == 409 {
            let body = response.text().await.unwrap_or_default();
            return Err(Failure::Fatal(StreamError::AlreadyConnected(format!(
                "HTTP {status} {body}"
            ))));
        }
        if !status.is_success() {
            return Err(Failure::Dropped(format!("HTTP {status}")));
        }
        // On stdout, as the URL mode's `listening on` line: scripts wait for it.
        println!("connected to {}", self.base);
        let mut buffered: Vec<u8> = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(dropped)? {
            buffered.extend_from_slice(&chunk);
            while let Some(end) = buffered.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = buffered.drain(..=end).collect();
                // Empty lines are the arena's keep-alive.
                if line.trim_ascii().is_empty() {
                    continue;
                }
                match serde_json::from_slice::<Value>(&line) {
                    Ok(line) => self.handle(with_match_field(line), choose, search).await,
                    Err(error) => eprintln!("stream: a line is not JSON: {error}"),
                }
            }
        }
        Ok(())
    }

    async fn handle(
        &self,
        line: Value,
        choose: &impl Fn(&MoveRequest) -> Option<usize>,
        search: Option<&Search>,
    ) {
        match line.get("type").and_then(Value::as_str) {
            Some("move") => self.answer(line, choose, search).await,
            Some("match_start") => {
                if let Ok(notice) = serde_json::from_value::<StartNotice>(line) {
                    eprintln!(
                        "match {} ({}) started: seat {}",
                        notice.match_id, notice.game, notice.seat
                    );
                }
            }
            Some("match_end") => {
                if let Ok(notice) = serde_json::from_value::<EndNotice>(line) {
                    eprintln!(
                        "match {} ended: ranking {} scores {}",
                        notice.match_id, notice.result["ranking"], notice.result["scores"]
                    );
                }
            }
            _ => {}
        }
    }

    async fn answer(
        &self,
        line: Value,
        choose: &impl Fn(&MoveRequest) -> Option<usize>,
        search: Option<&Search>,
    ) {
        let request_id = line.get("request_id").cloned().unwrap_or(Value::Null);
        let request: MoveRequest = match serde_json::from_value(line) {
            Ok(request) => request,
            Err(error) => return eprintln!("stream: a move line does not parse: {error}"),
        };
        let Some(answer) = decide(&request, choose, search).await else {
            return eprintln!("match {}: no legal action to choose from", request.match_id);
        };
        let mut body = serde_json::json!({
            "request_id": request_id,
            "action": answer.action,
        });
        if let Some(comment) = answer.comment {
            body["comment"] = comment.into();
        }
        let url = format!("{}/v1/bot/matches/{}/move", self.base, request.match_id);
        match self
            .http
            .post(url)
            .header("authorization", &self.authorization)
            .json(&body)
            .send()
            .await
        {
            // 409 stale_request (the arena moved on) and 422 (the action was refused) are the
            // arena's to judge: log them and go on reading.
            Ok(response) if response.status() != 204 => {
                let status = response.status();
                let text = response.text().await.unwrap_or_default();
                eprintln!(
                    "match {}: the move got HTTP {status} {text}",
                    request.match_id
                );
            }
            Ok(_) => {}
            Err(error) => eprintln!("match {}: the move was not sent: {error}", request.match_id),
        }
    }
}

/// How one connection ended.
enum Failure {
    /// For good.
    Fatal(StreamError),
    /// For now: connect again.
    Dropped(String),
}
