//! Safe retries of creates: a request carrying an `Idempotency-Key` runs once per client, route
//! and key for 24 hours. A retry with the same key and the same body (a lost answer, a timeout)
//! gets the first answer again, byte for byte, and creates nothing; the same key with another
//! body is 422 `idempotency_key_reused`. A retry that comes while the first request still runs
//! waits for its answer. A request that fails frees its key, so a retry runs again.
//!
//! The store never holds anything readable without the client's key: rows are found by a hash
//! of the client, the route and the key, and the answer (a new bot's owner token, a table's seat
//! links) is sealed under a key derived from the server's key and those three.

use super::Arena;
use crate::client::hex;
use crate::problem::{ErrorCode, ServiceError};
use crate::seal::{Sealer, TokenFormat};
use crate::store::{Reservation, now_ms};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::future::Future;
use std::time::{Duration, Instant};

/// How long a key answers retries.
pub const KEY_LIFETIME: Duration = Duration::from_secs(24 * 60 * 60);
/// How long a running request holds its key: past it (its process died before answering), a
/// retry takes the key over and runs.
const KEY_LOCK: Duration = Duration::from_secs(60);
/// How often a retry looks whether the first request has answered.
const WAIT_STEP: Duration = Duration::from_millis(100);
/// The associated data of a stored answer.
const ANSWER_AAD: &[u8] = b"cardroom/idempotent-answer/v1";

/// The answer of a create: what a retry with the same key gets again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Created {
    /// 201 or 202.
    pub status: u16,
    /// The path of what was made (`Location`).
    pub location: String,
    /// The JSON body.
    pub body: String,
}

/// Whose key it is and where it was sent.
#[derive(Debug, Clone, Copy)]
pub struct IdempotencyKey<'a> {
    /// The `Idempotency-Key` header.
    pub key: &'a str,
    /// The client: its token's hash, or its address.
    pub client: &'a str,
    /// The route (`POST /v1/matches`).
    pub route: &'a str,
}

impl IdempotencyKey<'_> {
    /// What the store finds the key by: a hash of the client, the route and the key.
    pub fn hash(&self) -> String {
        hex(&Sha256::digest(
            format!("cardroom idempotency key\0{}", self.scope()).as_bytes(),
        ))
    }

    fn scope(&self) -> String {
        format!("{}\0{}\0{}", self.client, self.route, self.key)
    }
}

/// An answer, and whether it repeats an earlier one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The answer.
    pub created: Created,
    /// True when it is the stored answer of an earlier request with the key.
    pub replayed: bool,
}

/// The key's rules: 1 to 255 visible ASCII characters (a UUID is the usual choice).
fn check_key(key: &str) -> Result<(), ServiceError> {
    let fine = (1..=255).contains(&key.len()) && key.bytes().all(|b| b.is_ascii_graphic());
    if fine {
        Ok(())
    } else {
        Err(ServiceError::invalid(
            "`Idempotency-Key` must be 1 to 255 visible ASCII characters (a UUID, say)",
        ))
    }
}

/// The hash of a request body that retries must repeat: of its JSON in canonical form (keys in
/// order, no spaces), so a client that serializes the same object again is not refused.
pub fn body_hash(body: &[u8]) -> String {
    let canonical = serde_json::from_slice::<serde_json::Value>(body)
        .ok()
        .and_then(|value| serde_json::to_vec(&sort_keys(value)).ok());
    hex(&Sha256::digest(canonical.as_deref().unwrap_or(body)))
}

fn sort_keys(value: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k, sort_keys(v)))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.into_iter().map(sort_keys).collect()),
        other => other,
    }
}

fn key_used_with_another_body() -> ServiceError {
    ServiceError::new(
        ErrorCode::IdempotencyKeyReused,
        "this `Idempotency-Key` was used in the last 24 hours with another body: send a new key for a new request",
    )
}

impl Arena {
    /// Runs `run` once per `key` (if any): see the module's documentation. `body` is the
    /// request's body, which a retry must repeat.
    pub async fn idempotent<E, F, Fut>(
        &self,
        key: Option<IdempotencyKey<'_>>,
        body: &[u8],
        run: F,
    ) -> Result<Answer, E>
    where
        E: From<ServiceError>,
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<Created, E>>,
    {
        let Some(key) = key else {
            return run().await.map(|created| Answer {
                created,
                replayed: false,
            });
        };
        check_key(key.key)?;
        let key_hash = key.hash();
        let sealer = Sealer::new(
            &self
                .inner
                .sealer
                .derive_key(b"cardroom idempotent answer", key.scope().as_bytes()),
        );
        let request_hash = body_hash(body);
        let give_up = Instant::now() + KEY_LOCK + KEY_LOCK;
        loop {
            let now = now_ms();
            let reservation = self
                .inner
                .store
                .reserve_key(
                    &key_hash,
                    &request_hash,
                    now + KEY_LOCK.as_millis() as i64,
                    now - KEY_LIFETIME.as_millis() as i64,
                )
                .await
                .map_err(ServiceError::from)?;
            match reservation {
                Reservation::Reserved => break,
                Reservation::OtherBody => return Err(key_used_with_another_body().into()),
                Reservation::Answered(sealed) => {
                    let created = sealer
                        .open_token(TokenFormat::V2, ANSWER_AAD, &sealed)
                        .and_then(|plain| serde_json::from_slice::<Created>(&plain).ok())
                        .ok_or_else(|| {
                            // Sealed under another server key (rotated since).
                            ServiceError::internal(&anyhow::anyhow!(
                                "a stored idempotent answer does not open"
                            ))
                        })?;
                    return Ok(Answer {
                        created,
                        replayed: true,
                    });
                }
                // The first request still runs: wait for its answer (its lock runs out if its
                // process died, and the key is then taken over).
                Reservation::InFlight if Instant::now() < give_up => {
                    tokio::time::sleep(WAIT_STEP).await;
                }
                Reservation::InFlight => {
                    return Err(ServiceError::internal(&anyhow::anyhow!(
                        "an idempotency key stayed held past its lock"
                    ))
                    .into());
                }
            }
        }
        match run().await {
            Ok(created) => {
                let stored = serde_json::to_vec(&created)
                    .ok()
                    .and_then(|plain| sealer.seal_token("", ANSWER_AAD, plain, ""));
                let saved = match stored {
                    Some(sealed) => self.inner.store.answer_key(&key_hash, &sealed).await,
                    None => Err(anyhow::anyhow!("the answer could not be sealed")),
                };
                if let Err(error) = saved {
                    // The create happened: answer it; a retry may then run again.
                    tracing::warn!(
                        error = format!("{error:#}"),
                        "an idempotent answer was not kept"
                    );
                    let _ = self.inner.store.release_key(&key_hash).await;
                }
                Ok(Answer {
                    created,
                    replayed: false,
                })
            }
            Err(error) => {
                if let Err(release) = self.inner.store.release_key(&key_hash).await {
                    tracing::warn!(
                        error = format!("{release:#}"),
                        "an idempotency key was not freed"
                    );
                }
                Err(error)
            }
        }
    }

    /// Deletes idempotency keys past their day, in batches; returns how many.
    pub(super) async fn prune_idempotency_keys(&self) -> anyhow::Result<u64> {
        const BATCH: u32 = 1000;
        const BATCHES: u32 = 20;
        let before = now_ms() - KEY_LIFETIME.as_millis() as i64;
        let mut pruned = 0;
        for _ in 0..BATCHES {
            let batch = self.inner.store.prune_keys(before, BATCH).await?;
            pruned += batch;
            if batch < u64::from(BATCH) {
                break;
            }
        }
        Ok(pruned)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_hash_ignores_key_order_and_spacing_but_not_values() {
        let a = body_hash(br#"{"game": "basra", "bots": ["random", "random"], "seed": 1}"#);
        let b = body_hash(br#"{"seed":1,"bots":["random","random"],"game":"basra"}"#);
        assert_eq!(a, b);
        assert_ne!(
            a,
            body_hash(br#"{"seed":2,"bots":["random","random"],"game":"basra"}"#)
        );
        assert_ne!(
            a,
            body_hash(br#"{"seed":1,"bots":["random","random"],"game":"basra"}x"#)
        );
    }

    #[test]
    fn a_key_is_one_to_255_visible_characters() {
        assert!(check_key("5f0c8f7e-3b7a-4c1e-9d0e-6a1b2c3d4e5f").is_ok());
        for bad in ["", "with space", "tab\tkey", &"k".repeat(256), "é"] {
            assert!(check_key(bad).is_err(), "{bad:?}");
        }
    }
}
