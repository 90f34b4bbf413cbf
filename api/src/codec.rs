//! How states travel: transparent JSON objects, or sealed tokens (XChaCha20-Poly1305).
//!
//! A sealed token is `v1.` followed by the unpadded base64url encoding of
//! `nonce (24 random bytes) || ciphertext || tag (16 bytes)`, where the plaintext is the
//! transparent state envelope as JSON and the associated data is the fixed string
//! [`SEAL_AAD`]. A fresh random nonce is drawn for every token, so two tokens of the same state
//! differ. Without the key a client can neither read a token (the hidden cards and the seed are
//! inside) nor forge or alter one: any change fails authentication and is answered with
//! `state_tampered`.

use crate::error::{ErrorCode, ServiceError};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use engine::{Game, Match};
use serde_json::Value;
use serde_json::value::RawValue;
use std::path::Path;

/// Prefix of sealed tokens (format version 1).
pub const SEAL_PREFIX: &str = "v1.";
/// Associated data bound into every token.
pub const SEAL_AAD: &[u8] = b"cardroom/state/v1";
const NONCE_LEN: usize = 24;
const TAG_LEN: usize = 16;

/// A 32-byte sealing key.
#[derive(Clone)]
pub struct SealKey([u8; 32]);

impl std::fmt::Debug for SealKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SealKey(..)")
    }
}

/// Why a key could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// The file could not be read.
    #[error("cannot read the seal key file {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The bytes are neither 64 hex digits nor 32 raw bytes.
    #[error("a seal key must be 64 hex digits or exactly 32 raw bytes (found {0} bytes)")]
    Format(usize),
}

impl SealKey {
    /// A key from its 32 bytes.
    pub fn from_bytes(bytes: [u8; 32]) -> SealKey {
        SealKey(bytes)
    }

    /// Parses 64 hex digits (surrounding whitespace ignored) or exactly 32 raw bytes.
    pub fn parse(bytes: &[u8]) -> Result<SealKey, KeyError> {
        let trimmed = bytes.trim_ascii();
        if trimmed.len() == 64 && trimmed.iter().all(u8::is_ascii_hexdigit) {
            let mut key = [0u8; 32];
            for (i, pair) in trimmed.chunks(2).enumerate() {
                let text = std::str::from_utf8(pair).map_err(|_| KeyError::Format(bytes.len()))?;
                key[i] = u8::from_str_radix(text, 16).map_err(|_| KeyError::Format(bytes.len()))?;
            }
            return Ok(SealKey(key));
        }
        let raw: [u8; 32] = bytes
            .try_into()
            .map_err(|_| KeyError::Format(bytes.len()))?;
        Ok(SealKey(raw))
    }

    /// Reads a key file (64 hex digits, or 32 raw bytes).
    pub fn from_file(path: &Path) -> Result<SealKey, KeyError> {
        let bytes = std::fs::read(path).map_err(|source| KeyError::Io {
            path: path.display().to_string(),
            source,
        })?;
        SealKey::parse(&bytes)
    }
}

/// Turns wire states into engine matches and back, in transparent or sealed mode.
#[derive(Clone)]
pub struct StateCodec {
    cipher: Option<XChaCha20Poly1305>,
    require_sealed: bool,
}

impl std::fmt::Debug for StateCodec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StateCodec")
            .field("sealed", &self.cipher.is_some())
            .field("require_sealed", &self.require_sealed)
            .finish()
    }
}

impl Default for StateCodec {
    fn default() -> Self {
        StateCodec::transparent()
    }
}

impl StateCodec {
    /// Transparent mode: states are JSON objects, re-validated on every request.
    pub fn transparent() -> StateCodec {
        StateCodec {
            cipher: None,
            require_sealed: false,
        }
    }

    /// Sealed mode: states are returned as sealed tokens; `require_sealed` refuses transparent
    /// states on input.
    pub fn sealed(key: &SealKey, require_sealed: bool) -> StateCodec {
        StateCodec {
            cipher: Some(XChaCha20Poly1305::new(&key.0.into())),
            require_sealed,
        }
    }

    /// True if this codec seals the states it returns.
    pub fn is_sealed(&self) -> bool {
        self.cipher.is_some()
    }

    /// True if transparent states are refused.
    pub fn requires_sealed(&self) -> bool {
        self.require_sealed
    }

    /// The wire form of a match's state: the envelope, or a sealed token.
    pub fn encode(&self, game: &dyn Match) -> Result<Value, ServiceError> {
        let envelope = game.save();
        match &self.cipher {
            None => Ok(envelope),
            Some(cipher) => Ok(Value::String(self.seal_with(cipher, &envelope)?)),
        }
    }

    /// The wire form of a match's state as JSON text (the hot path: no intermediate `Value`).
    pub fn encode_json(&self, game: &dyn Match) -> Result<String, ServiceError> {
        let envelope = game.save_json();
        match &self.cipher {
            None => Ok(envelope),
            Some(cipher) => {
                let token = self.seal_bytes(cipher, envelope.as_bytes())?;
                serde_json::to_string(&token).map_err(|e| {
                    ServiceError::new(ErrorCode::Internal, format!("cannot encode state: {e}"))
                })
            }
        }
    }

    fn seal_with(
        &self,
        cipher: &XChaCha20Poly1305,
        envelope: &Value,
    ) -> Result<String, ServiceError> {
        let plaintext = serde_json::to_vec(envelope).map_err(|e| {
            ServiceError::new(ErrorCode::Internal, format!("cannot encode state: {e}"))
        })?;
        self.seal_bytes(cipher, &plaintext)
    }

    fn seal_bytes(
        &self,
        cipher: &XChaCha20Poly1305,
        plaintext: &[u8],
    ) -> Result<String, ServiceError> {
        let nonce_bytes: [u8; NONCE_LEN] = rand::random();
        let nonce = XNonce::from(nonce_bytes);
        let ciphertext = cipher
            .encrypt(
                &nonce,
                Payload {
                    msg: plaintext,
                    aad: SEAL_AAD,
                },
            )
            .map_err(|_| ServiceError::new(ErrorCode::Internal, "cannot seal state"))?;
        let mut token = Vec::with_capacity(NONCE_LEN + ciphertext.len());
        token.extend_from_slice(&nonce_bytes);
        token.extend_from_slice(&ciphertext);
        let mut out = String::with_capacity(SEAL_PREFIX.len() + token.len() * 4 / 3 + 4);
        out.push_str(SEAL_PREFIX);
        URL_SAFE_NO_PAD.encode_string(&token, &mut out);
        Ok(out)
    }

    /// Opens a sealed token to the transparent envelope it carries.
    pub fn unseal(&self, token: &str) -> Result<Value, ServiceError> {
        let plaintext = self.unseal_text(token)?;
        serde_json::from_str(&plaintext).map_err(|_| self.tampered())
    }

    fn tampered(&self) -> ServiceError {
        ServiceError::new(
            ErrorCode::StateTampered,
            "the sealed state was modified, truncated, or sealed by another server: send the token exactly as it was returned",
        )
    }

    /// Opens a sealed token to the JSON text of the envelope it carries (checked as UTF-8 once
    /// here, so the game parses it as text).
    fn unseal_text(&self, token: &str) -> Result<String, ServiceError> {
        let Some(cipher) = &self.cipher else {
            return Err(ServiceError::new(
                ErrorCode::InvalidState,
                "this server does not use sealed states: send the state as the JSON object it returned",
            ));
        };
        let tampered = || self.tampered();
        let body = token.strip_prefix(SEAL_PREFIX).ok_or_else(tampered)?;
        let bytes = URL_SAFE_NO_PAD.decode(body).map_err(|_| tampered())?;
        if bytes.len() < NONCE_LEN + TAG_LEN {
            return Err(tampered());
        }
        let (nonce, ciphertext) = bytes.split_at(NONCE_LEN);
        let nonce_bytes: [u8; NONCE_LEN] = nonce.try_into().map_err(|_| tampered())?;
        let plaintext = cipher
            .decrypt(
                &XNonce::from(nonce_bytes),
                Payload {
                    msg: ciphertext,
                    aad: SEAL_AAD,
                },
            )
            .map_err(|_| tampered())?;
        String::from_utf8(plaintext).map_err(|_| tampered())
    }

    /// Decodes and validates a wire state for `game` from the raw JSON text of a request's
    /// `state` (the hot path): a sealed token or a transparent object, deserialized once,
    /// straight into the game's typed state.
    pub fn decode_raw(
        &self,
        game: &dyn Game,
        state: &RawValue,
    ) -> Result<Box<dyn Match>, ServiceError> {
        let text = state.get();
        match text.as_bytes().first() {
            Some(b'"') => {
                let token: String = serde_json::from_str(text).map_err(|_| self.tampered())?;
                self.decode_token(game, &token)
            }
            Some(b'{') if self.require_sealed => Err(sealed_required()),
            Some(b'{') => Ok(game.load_json(text)?),
            _ => Err(not_a_state()),
        }
    }

    /// Opens a sealed token and loads the state it carries for `game`.
    pub fn decode_token(
        &self,
        game: &dyn Game,
        token: &str,
    ) -> Result<Box<dyn Match>, ServiceError> {
        let plaintext = self.unseal_text(token)?;
        Ok(game.load_json(&plaintext)?)
    }

    /// Checks a transparent state that was loaded already (the one-pass `apply`): refused when
    /// this server requires sealed states, as [`StateCodec::decode_raw`] refuses it.
    pub fn accept_transparent(
        &self,
        state: Box<dyn Match>,
    ) -> Result<Box<dyn Match>, ServiceError> {
        if self.require_sealed {
            return Err(sealed_required());
        }
        Ok(state)
    }

    /// Decodes and validates a wire state for `game`: a sealed token or a transparent object.
    pub fn decode(&self, game: &dyn Game, state: &Value) -> Result<Box<dyn Match>, ServiceError> {
        match state {
            Value::String(token) => self.decode_token(game, token),
            Value::Object(_) if self.require_sealed => Err(sealed_required()),
            Value::Object(_) => Ok(game.load(state)?),
            _ => Err(not_a_state()),
        }
    }
}

fn sealed_required() -> ServiceError {
    ServiceError::new(
        ErrorCode::SealedStateRequired,
        "this server only accepts sealed states (strings returned by the server), not JSON objects",
    )
}

fn not_a_state() -> ServiceError {
    ServiceError::new(
        ErrorCode::InvalidState,
        "`state` must be the JSON object (transparent mode) or the string (sealed mode) returned by the server",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codec() -> StateCodec {
        StateCodec::sealed(&SealKey::from_bytes([7; 32]), false)
    }

    #[test]
    fn a_key_parses_from_hex_or_raw_bytes() {
        let hex = "00".repeat(31) + "ff\n";
        assert_eq!(SealKey::parse(hex.as_bytes()).unwrap().0[31], 0xff);
        assert_eq!(SealKey::parse(&[3u8; 32]).unwrap().0, [3u8; 32]);
        assert!(SealKey::parse(b"short").is_err());
    }

    #[test]
    fn a_sealed_envelope_opens_and_a_flipped_byte_is_tampering() {
        let codec = codec();
        let Some(cipher) = &codec.cipher else {
            panic!("sealed codec without cipher")
        };
        let envelope = serde_json::json!({"version": 1, "game": "g", "data": {"x": [1, 2]}});
        let token = codec.seal_with(cipher, &envelope).unwrap();
        assert!(token.starts_with(SEAL_PREFIX));
        assert_eq!(codec.unseal(&token).unwrap(), envelope);
        let other = codec.seal_with(cipher, &envelope).unwrap();
        assert_ne!(token, other, "fresh nonce per token");

        let mut bytes = token.into_bytes();
        let i = bytes.len() / 2;
        bytes[i] = if bytes[i] == b'A' { b'B' } else { b'A' };
        let forged = String::from_utf8(bytes).unwrap();
        assert_eq!(
            codec.unseal(&forged).unwrap_err().code,
            ErrorCode::StateTampered
        );
        assert_eq!(
            codec.unseal("v1.").unwrap_err().code,
            ErrorCode::StateTampered
        );
        assert_eq!(
            codec.unseal("nope").unwrap_err().code,
            ErrorCode::StateTampered
        );

        let stranger = StateCodec::sealed(&SealKey::from_bytes([8; 32]), false);
        let token = codec.seal_with(cipher, &envelope).unwrap();
        assert_eq!(
            stranger.unseal(&token).unwrap_err().code,
            ErrorCode::StateTampered
        );
    }
}
