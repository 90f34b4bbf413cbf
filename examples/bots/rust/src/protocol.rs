//! The bot protocol (docs/bots.md, openapi/bot-protocol.json) as typed messages, and the check of
//! the arena's request signatures.
//!
//! Every request from the arena carries `X-Cardroom-Timestamp` (unix seconds) and
//! `X-Cardroom-Signature: sha256=<hex HMAC-SHA256(signing_secret, timestamp + "." + raw body)>`;
//! for 10 minutes after a rotation of the secret, also `X-Cardroom-Signature-Previous`, the same
//! signature made with the replaced secret.

use hmac::{Hmac, KeyInit, Mac};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::Sha256;

/// Header carrying the unix time (seconds) at which the arena signed the request.
pub const TIMESTAMP_HEADER: &str = "X-Cardroom-Timestamp";
/// Header carrying `sha256=<hex HMAC-SHA256(signing_secret, timestamp + "." + body)>`.
pub const SIGNATURE_HEADER: &str = "X-Cardroom-Signature";
/// Header carrying the same signature made with the secret a rotation replaced (for 10 minutes).
pub const PREVIOUS_SIGNATURE_HEADER: &str = "X-Cardroom-Signature-Previous";
/// Requests signed further than this from our clock are refused (a replayed request).
pub const MAX_SKEW_SECONDS: u64 = 300;

/// An action: a small JSON object with a `type`, e.g. `{"type": "play", "cards": ["7H"]}`.
pub type Action = Value;

/// The answer to `GET /`.
#[derive(Debug, Clone, Serialize)]
pub struct BotInfo {
    /// The bot's name.
    pub name: String,
    /// Who wrote it.
    pub author: String,
    /// Its version.
    pub version: String,
    /// Game ids it can play.
    pub games: Vec<String>,
}

/// A previous move: who acted, its public events, and the action for our own moves only.
#[derive(Debug, Clone, Deserialize)]
pub struct HistoryEntry {
    /// The seat that acted.
    pub seat: usize,
    /// The action, present for this bot's own moves only.
    #[serde(default)]
    pub action: Option<Action>,
    /// The public events the move produced.
    pub events: Vec<Value>,
}

/// `POST /move`: answer one of `legal_actions` exactly as sent, within `deadline_ms`.
#[derive(Debug, Clone, Deserialize)]
pub struct MoveRequest {
    /// The match id.
    #[serde(rename = "match")]
    pub match_id: String,
    /// The game id.
    pub game: String,
    /// Our seat in this match.
    pub seat: usize,
    /// What our seat may see (for `twenty_two`: docs/rules/twenty_two.md, "View").
    pub view: Value,
    /// Every legal action, in the engine's canonical order.
    pub legal_actions: Vec<Action>,
    /// Milliseconds the arena waits for the whole answer.
    pub deadline_ms: u64,
    /// Every move so far, oldest first, as our seat may know it.
    #[serde(default)]
    pub history: Vec<HistoryEntry>,
    /// Our seat's position as a token the rules API's `/determinize` and `/rollouts` accept in
    /// place of a state (see `src/search.rs`).
    #[serde(default)]
    pub info: Option<String>,
}

/// The answer to `POST /move`.
#[derive(Debug, Clone, Serialize)]
pub struct MoveResponse {
    /// One of the legal actions, exactly as sent.
    pub action: Action,
    /// Kept in the match log.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

/// A seat of a match and its bot.
#[derive(Debug, Clone, Deserialize)]
pub struct SeatInfo {
    /// Seat number.
    pub seat: usize,
    /// Bot id.
    pub bot: String,
    /// Bot name.
    pub name: String,
}

/// `POST /start`: a match begins.
#[derive(Debug, Clone, Deserialize)]
pub struct StartNotice {
    /// The match id.
    #[serde(rename = "match")]
    pub match_id: String,
    /// The game id.
    pub game: String,
    /// Our seat.
    pub seat: usize,
    /// Every seat and its bot.
    pub seats: Vec<SeatInfo>,
}

/// `POST /end`: a match ended; `result` holds `ranking`, `scores`, `faults`, ...
#[derive(Debug, Clone, Deserialize)]
pub struct EndNotice {
    /// The match id.
    #[serde(rename = "match")]
    pub match_id: String,
    /// Our seat.
    pub seat: usize,
    /// The result.
    pub result: Value,
}

/// True if `signature` is the arena's HMAC of `timestamp + "." + body` under `secret` and the
/// timestamp is within [`MAX_SKEW_SECONDS`] of `now` (unix seconds). Compared in constant time.
pub fn verify(
    secret: &[u8],
    timestamp: Option<&str>,
    signature: Option<&str>,
    body: &[u8],
    now: u64,
) -> bool {
    let Some(timestamp) = timestamp.filter(|t| (1..=15).contains(&t.len())) else {
        return false;
    };
    let Ok(signed_at) = timestamp.parse::<u64>() else {
        return false;
    };
    if signed_at.abs_diff(now) > MAX_SKEW_SECONDS {
        return false;
    }
    let Some(given) = signature
        .and_then(|s| s.strip_prefix("sha256="))
        .and_then(decode_hex)
    else {
        return false;
    };
    let Ok(mut mac) = <Hmac<Sha256> as KeyInit>::new_from_slice(secret) else {
        return false;
    };
    mac.update(timestamp.as_bytes());
    mac.update(b".");
    mac.update(body);
    mac.verify_slice(&given).is_ok()
}

/// True if one of `signatures` verifies (see [`verify`]): after the owner rotates the secret, the
/// arena sends `X-Cardroom-Signature` made with the new secret and, for 10 minutes,
/// `X-Cardroom-Signature-Previous` made with the replaced one, so the bot works with either.
pub fn verify_any(
    secret: &[u8],
    timestamp: Option<&str>,
    signatures: &[Option<&str>],
    body: &[u8],
    now: u64,
) -> bool {
    signatures
        .iter()
        .any(|signature| signature.is_some() && verify(secret, timestamp, *signature, body, now))
}

fn decode_hex(text: &str) -> Option<Vec<u8>> {
    if text.len() % 2 != 0 {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    // HMAC-SHA256("secret", "1700000000.{\"a\":1}"), the same vector as the JavaScript and
    // Python starters.
    const SIGNED: &str = "sha256=49f24e537407743fa4a0242bb63b94b9a47ee99cbbe071ccd8a22550ae411686";
    const BODY: &[u8] = br#"{"a":1}"#;
    const AT: u64 = 1_700_000_000;

    #[test]
    fn a_signature_over_timestamp_dot_body_verifies() {
        assert!(verify(
            b"secret",
            Some("1700000000"),
            Some(SIGNED),
            BODY,
            AT
        ));
    }

    #[test]
    fn a_wrong_secret_body_timestamp_or_a_stale_request_is_refused() {
        let ts = Some("1700000000");
        assert!(!verify(b"other", ts, Some(SIGNED), BODY, AT));
        assert!(!verify(b"secret", ts, Some(SIGNED), br#"{"a":2}"#, AT));
        assert!(!verify(
            b"secret",
            Some("1700000001"),
            Some(SIGNED),
            BODY,
            AT + 1
        ));
        assert!(!verify(b"secret", ts, Some(SIGNED), BODY, AT + 301));
        assert!(!verify(b"secret", ts, None, BODY, AT));
        assert!(!verify(b"secret", ts, Some("sha256=zz"), BODY, AT));
        assert!(!verify(b"secret", None, Some(SIGNED), BODY, AT));
        assert!(!verify(b"secret", Some("-1"), Some(SIGNED), BODY, AT));
    }

    #[test]
    fn after_a_rotation_either_signature_header_verifies() {
        let ts = Some("1700000000");
        let forged = format!("sha256={}", "0".repeat(64));
        assert!(verify_any(b"secret", ts, &[Some(SIGNED), None], BODY, AT));
        // A bot still on the replaced secret: the new signature fails, the previous one verifies.
        assert!(verify_any(
            b"secret",
            ts,
            &[Some(&forged), Some(SIGNED)],
            BODY,
            AT
        ));
        assert!(!verify_any(
            b"secret",
            ts,
            &[Some(&forged), Some(&forged)],
            BODY,
            AT
        ));
        assert!(!verify_any(b"secret", ts, &[None, None], BODY, AT));
    }
}
