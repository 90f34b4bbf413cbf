//! Provably fair deals: a match's seed is committed to before its first move and revealed at its
//! end. The commitment is the hex SHA-256 of the UTF-8 text `"<seed in decimal>:<salt>"`, where
//! the salt is 32 random bytes as 64 lowercase hex digits, fresh for every match (so the
//! commitment, published while the match runs, gives away nothing of a 53-bit seed that could be
//! searched). Anyone checks it with `printf '%s' "<seed>:<salt>" | sha256sum`.

use crate::client::hex;
use sha2::{Digest, Sha256};

/// A fresh salt: 32 random bytes as 64 lowercase hex digits.
pub fn new_salt() -> String {
    hex(&rand::random::<[u8; 32]>())
}

/// The commitment to `seed` under `salt`: hex SHA-256 of `"<seed>:<salt>"`.
pub fn seed_commitment(seed: u64, salt: &str) -> String {
    hex(&Sha256::digest(format!("{seed}:{salt}").as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_commitment_is_sha256_of_the_seed_and_salt_as_text() {
        // printf '%s' '42:00ff' | sha256sum
        assert_eq!(
            seed_commitment(42, "00ff"),
            "4e2ed532a924a2512a90d7228d5fb36600979cf57160db4e132acf1af95f9261"
        );
        let salt = new_salt();
        assert_eq!(salt.len(), 64);
        assert_ne!(salt, new_salt());
    }
}
