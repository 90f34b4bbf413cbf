//! How states travel: transparent JSON objects, or sealed tokens (XChaCha20-Poly1305).
//!
//! A sealed token is `v1.` followed by the unpadded base64url encoding of
//! `nonce (24 random bytes) || ciphertext || tag (16 bytes)`, where the plaintext is the
//! transparent state envelope as JSON and the associated data is the fixed string
//! [`SEAL_AAD`]. A fresh random nonce is drawn for every token, so two tokens of the same state
//! differ. Without the key a client can neither read a token (the hidden cards and the seed are
//! inside) nor forge or alter one: any change fails authentication and is answered with
//! `state_tampered`.
//!
//! The AEAD is ring's ChaCha20-Poly1305 (assembly using the CPU's vector units), extended to
//! XChaCha20-Poly1305 with the `chacha20` crate's HChaCha20 ([`Sealer`]): the tokens are those of
//! RustCrypto's `XChaCha20Poly1305` byte for byte (a test seals and opens with both), at a
//! fraction of its cost (RustCrypto's Poly1305 was 6.9% of a sealed server's CPU; ring took a
//! sealed apply from 198.0 k to 182.1 k instructions).

use crate::error::{ErrorCode, ServiceError};
use base64_simd::URL_SAFE_NO_PAD;
use engine::{Game, Match};
use ring::aead::{Aad, CHACHA20_POLY1305, LessSafeKey, Nonce, Tag, UnboundKey};
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

/// XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha-03): HChaCha20 of the key and the nonce's first 16
/// bytes is a subkey, under which ChaCha20-Poly1305 (RFC 8439, ring's) seals with the nonce's last
/// 8 bytes after 4 zero bytes.
#[derive(Clone)]
struct Sealer {
    key: [u8; 32],
}

impl Sealer {
    /// The ChaCha20-Poly1305 key and nonce of one XChaCha20-Poly1305 nonce.
    fn subkey(&self, nonce: &[u8; NONCE_LEN]) -> Option<(LessSafeKey, Nonce)> {
        let mut head = [0u8; 16];
        head.copy_from_slice(&nonce[..16]);
        let subkey = chacha20::hchacha::<chacha20::R20>(&self.key.into(), &head.into());
        let key = UnboundKey::new(&CHACHA20_POLY1305, subkey.as_slice()).ok()?;
        let mut tail = [0u8; 12];
        tail[4..].copy_from_slice(&nonce[16..]);
        Some((LessSafeKey::new(key), Nonce::assume_unique_for_key(tail)))
    }

    /// Encrypts `text` in place; returns the tag.
    fn seal(&self, nonce: &[u8; NONCE_LEN], text: &mut [u8]) -> Option<Tag> {
        let (key, nonce) = self.subkey(nonce)?;
        key.seal_in_place_separate_tag(nonce, Aad::from(SEAL_AAD), text)
            .ok()
    }

    /// Authenticates and decrypts `text` in place.
    fn open(&self, nonce: &[u8; NONCE_LEN], text: &mut [u8], tag: &[u8]) -> Option<()> {
        let (key, nonce) = self.subkey(nonce)?;
        let tag = Tag::try_from(tag).ok()?;
        key.open_in_place_separate_tag(nonce, Aad::from(SEAL_AAD), tag, text, 0..)
            .ok()
            .map(|_| ())
    }
}

/// Turns wire states into engine matches and back, in transparent or sealed mode.
#[derive(Clone)]
pub struct StateCodec {
    cipher: Option<Sealer>,
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
            cipher: Some(Sealer { key: key.0 }),
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
            // base64url needs no JSON escape: the token is written between quotes as it is.
            Some(cipher) => self.seal_into(cipher, envelope.into_bytes(), "\""),
        }
    }

    fn seal_with(&self, cipher: &Sealer, envelope: &Value) -> Result<String, ServiceError> {
        let plaintext = serde_json::to_vec(envelope).map_err(|e| {
            ServiceError::new(ErrorCode::Internal, format!("cannot encode state: {e}"))
        })?;
        self.seal_into(cipher, plaintext, "")
    }

    /// Seals `plaintext` (encrypted in its own buffer, no copy) into a token, written between two
    /// `quote`s: `v1.` then base64url of `nonce || ciphertext || tag`. The nonce is 24 bytes, a
    /// whole number of base64 groups, so it is encoded on its own and the rest after it.
    fn seal_into(
        &self,
        cipher: &Sealer,
        mut plaintext: Vec<u8>,
        quote: &str,
    ) -> Result<String, ServiceError> {
        let nonce_bytes: [u8; NONCE_LEN] = rand::random();
        let tag = cipher
            .seal(&nonce_bytes, &mut plaintext)
            .ok_or_else(|| ServiceError::new(ErrorCode::Internal, "cannot seal state"))?;
        plaintext.extend_from_slice(tag.as_ref());
        let encoded = (NONCE_LEN + plaintext.len()).div_ceil(3) * 4;
        let mut out = String::with_capacity(2 * quote.len() + SEAL_PREFIX.len() + encoded);
        out.push_str(quote);
        out.push_str(SEAL_PREFIX);
        URL_SAFE_NO_PAD.encode_append(nonce_bytes, &mut out);
        URL_SAFE_NO_PAD.encode_append(&plaintext, &mut out);
        out.push_str(quote);
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
        let mut bytes = self.open(token)?;
        bytes.drain(..NONCE_LEN);
        String::from_utf8(bytes).map_err(|_| self.tampered())
    }

    /// Decodes and authenticates a token: its bytes, the plaintext decrypted in place after the
    /// nonce (the tag cut off).
    fn open(&self, token: &str) -> Result<Vec<u8>, ServiceError> {
        let Some(cipher) = &self.cipher else {
            return Err(ServiceError::new(
                ErrorCode::InvalidState,
                "this server does not use sealed states: send the state as the JSON object it returned",
            ));
        };
        let tampered = || self.tampered();
        let body = token.strip_prefix(SEAL_PREFIX).ok_or_else(tampered)?;
        let mut bytes = URL_SAFE_NO_PAD
            .decode_to_vec(body)
            .map_err(|_| tampered())?;
        if bytes.len() < NONCE_LEN + TAG_LEN {
            return Err(tampered());
        }
        let tag_at = bytes.len() - TAG_LEN;
        let (nonce_and_text, tag) = bytes.split_at_mut(tag_at);
        let (nonce, text) = nonce_and_text.split_at_mut(NONCE_LEN);
        let nonce: [u8; NONCE_LEN] = (&*nonce).try_into().map_err(|_| tampered())?;
        cipher.open(&nonce, text, tag).ok_or_else(tampered)?;
        bytes.truncate(tag_at);
        Ok(bytes)
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
        let bytes = self.open(token)?;
        let text = std::str::from_utf8(&bytes[NONCE_LEN..]).map_err(|_| self.tampered())?;
        Ok(game.load_json(text)?)
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

    /// The hot path's token (written between quotes, sealed in the state's own buffer) is the
    /// JSON string of a token that opens to the same state, and a flipped byte is refused.
    #[test]
    fn the_json_token_of_a_state_decodes_to_the_same_state() {
        let codec = codec();
        let game = engine::registry::find("twenty_two").expect("twenty_two");
        let setup = engine::NewGame {
            players: 4,
            seed: 9,
            ..engine::NewGame::default()
        };
        let (start, _) = game.start_with_events(&setup).expect("start");
        let text = codec.encode_json(start.as_ref()).expect("sealed");
        let token: String = serde_json::from_str(&text).expect("a JSON string");
        assert!(token.starts_with(SEAL_PREFIX), "{token}");
        let opened = codec.decode_token(game, &token).expect("opens");
        assert_eq!(opened.save_json(), start.save_json());
        assert_eq!(codec.unseal(&token).expect("unseal"), start.save());
        let raw = RawValue::from_string(text.clone()).expect("raw");
        assert_eq!(
            codec.decode_raw(game, &raw).expect("raw").save_json(),
            start.save_json()
        );
        let mut bytes = token.into_bytes();
        let last = bytes.len() - 1;
        bytes[last] = if bytes[last] == b'A' { b'B' } else { b'A' };
        let forged = String::from_utf8(bytes).expect("ascii");
        assert_eq!(
            codec.decode_token(game, &forged).unwrap_err().code,
            ErrorCode::StateTampered
        );
    }

    /// The tokens are RustCrypto's `XChaCha20Poly1305` ones byte for byte: each implementation
    /// opens what the other sealed, and a wrong tag or key is refused.
    #[test]
    fn the_sealer_is_xchacha20_poly1305_both_ways() {
        use chacha20poly1305::aead::{AeadInOut, KeyInit};
        use chacha20poly1305::{XChaCha20Poly1305, XNonce};
        let key = [42u8; 32];
        let sealer = Sealer { key };
        let reference = XChaCha20Poly1305::new(&key.into());
        for length in [0usize, 1, 63, 64, 65, 1300] {
            let message: Vec<u8> = (0..length).map(|i| (i * 7 + 3) as u8).collect();
            let nonce: [u8; NONCE_LEN] = std::array::from_fn(|i| (i * 11 + length) as u8);

            let mut ours = message.clone();
            let tag = sealer.seal(&nonce, &mut ours).expect("seals");
            let mut theirs = message.clone();
            let their_tag = reference
                .encrypt_inout_detached(
                    &XNonce::from(nonce),
                    SEAL_AAD,
                    theirs.as_mut_slice().into(),
                )
                .expect("seals");
            assert_eq!(ours, theirs, "ciphertext, {length} bytes");
            assert_eq!(tag.as_ref(), their_tag.as_slice(), "tag, {length} bytes");

            let mut opened = theirs.clone();
            sealer
                .open(&nonce, &mut opened, their_tag.as_slice())
                .expect("opens theirs");
            assert_eq!(opened, message);
            let mut opened = ours.clone();
            reference
                .decrypt_inout_detached(
                    &XNonce::from(nonce),
                    SEAL_AAD,
                    opened.as_mut_slice().into(),
                    &their_tag,
                )
                .expect("theirs opens ours");
            assert_eq!(opened, message);

            let mut wrong = tag.as_ref().to_vec();
            wrong[0] ^= 1;
            assert!(sealer.open(&nonce, &mut ours.clone(), &wrong).is_none());
            let stranger = Sealer { key: [43u8; 32] };
            assert!(
                stranger
                    .open(&nonce, &mut ours.clone(), tag.as_ref())
                    .is_none()
            );
        }
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
