//! Idempotency keys, as stored: the first answer of a create request a client marked with an
//! `Idempotency-Key`, kept 24 hours so that a retry with the same key and body gets it again
//! instead of creating a second resource ([`crate::Arena::idempotent`]).

/// What a request finds when it reserves its key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reservation {
    /// The key is this request's: it runs, then stores its answer (or releases the key).
    Reserved,
    /// A request with this key and body already answered: its answer, as stored (sealed).
    Answered(String),
    /// A request with this key and body is still running.
    InFlight,
    /// The key was used with another body.
    OtherBody,
}

/// The idempotency keys' part of the [`Store`](super::Store). Every method is one statement or
/// one transaction.
#[async_trait::async_trait]
pub trait IdempotencyStore {
    /// Reserves `key_hash` for a request whose body hashes to `request_hash`, until `locked_until`
    /// (unix ms): a new key, or one whose holder's lock ran out without an answer (it died), or
    /// one older than `expired_before` (unix ms; not yet pruned). Otherwise says what holds it.
    async fn reserve_key(
        &self,
        key_hash: &str,
        request_hash: &str,
        locked_until: i64,
        expired_before: i64,
    ) -> anyhow::Result<Reservation>;
    /// Stores the answer of the request that reserved `key_hash`.
    async fn answer_key(&self, key_hash: &str, answer: &str) -> anyhow::Result<()>;
    /// Frees a key reserved by a request that failed: a retry runs again.
    async fn release_key(&self, key_hash: &str) -> anyhow::Result<()>;
    /// Deletes at most `limit` keys made before `created_before` (unix ms); returns how many.
    async fn prune_keys(&self, created_before: i64, limit: u32) -> anyhow::Result<u64>;
}
