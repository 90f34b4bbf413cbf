//! How states travel: transparent JSON objects, or sealed tokens.
//!
//! A sealed token is a format prefix followed by the unpadded base64url encoding of
//! `nonce (24 random bytes) || ciphertext || tag (16 bytes)`, where the plaintext is the state
//! envelope and the associated data is the format's fixed string. A fresh random nonce is drawn
//! for every token, so two tokens of the same state differ. Without the key a client can neither
//! read a token (the hidden cards and the seed are inside) nor forge or alter one: any change
//! fails authentication and is answered with `state_tampered`.
//!
//! Two formats, both opened, the second issued ([`TokenFormat`]):
//! - `v1.`: XChaCha20-Poly1305 over the envelope's JSON text: ring's ChaCha20-Poly1305 under the
//!   `chacha20` crate's HChaCha20 (RustCrypto's `XChaCha20Poly1305` tokens byte for byte; a test
//!   seals and opens with both). Clients hold such tokens, so they keep opening.
//! - `v2.`: XAES-256-GCM (C2SP) over the envelope in MessagePack ([`Match::save_msgpack`]): ring's
//!   AES-256-GCM (AES-NI and carry-less multiply) under a per-nonce key derived with two AES-256
//!   blocks (the `aes` crate). Both halves are cheaper than v1's: the AEAD by several times, and
//!   MessagePack is 0.7 of the JSON's bytes and read without parsing text, so a sealed apply
//!   costs no more than a transparent one.
//!
//! Why XAES-256-GCM and not plain AES-256-GCM: its 96-bit nonce drawn at random is safe for about
//! 2^32 tokens per key (a nonce repeated under GCM reveals the authentication key), a few days of
//! a busy server's applies. XAES-256-GCM keeps v1's 192-bit random nonce: every token has its own
//! derived key, and a repeated nonce is as unlikely as it was with XChaCha20 (2^-80 after 2^56
//! tokens). Why not AES-GCM-SIV: its misuse resistance only matters if nonces repeat, which 192
//! random bits rule out, and ring (the assembly this path relies on) has no GCM-SIV.

use crate::error::{ErrorCode, ServiceError};
use aes::Aes256;
use aes::cipher::{BlockCipherEncrypt, KeyInit};
use base64_simd::URL_SAFE_NO_PAD;
use engine::{Game, Match};
use ring::aead::{AES_256_GCM, Aad, CHACHA20_POLY1305, LessSafeKey, Nonce, Tag, UnboundKey};
use serde_json::Value;
use serde_json::value::RawValue;
use std::path::Path;

/// Prefix of the sealed tokens this server issues (format version 2).
pub const SEAL_PREFIX: &str = TokenFormat::V2.prefix();
const NONCE_LEN: usize = 24;
const TAG_LEN: usize = 16;

/// The formats of sealed tokens: each its own prefix, AEAD and associated data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenFormat {
    /// `v1.`: XChaCha20-Poly1305, associated data `cardroom/state/v1`. Opened, no longer issued.
    V1,
    /// `v2.`: XAES-256-GCM, associated data `cardroom/state/v2`. Issued.
    V2,
}

impl TokenFormat {
    /// The prefix of its tokens.
    pub const fn prefix(self) -> &'static str {
        match self {
            TokenFormat::V1 => "v1.",
            TokenFormat::V2 => "v2.",
        }
    }

    /// The associated data bound into its tokens (a token of one format never opens as another).
    pub const fn aad(self) -> &'static [u8] {
        match self {
            TokenFormat::V1 => b"cardroom/state/v1",
            TokenFormat::V2 => b"cardroom/state/v2",
        }
    }

    /// The format of a token and the base64url after its prefix.
    fn split(token: &str) -> Option<(TokenFormat, &str)> {
        [TokenFormat::V2, TokenFormat::V1]
            .into_iter()
            .find_map(|format| Some((format, token.strip_prefix(format.prefix())?)))
    }
}

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

/// The sealing key's ciphers: XChaCha20-Poly1305 for `v1.`, XAES-256-GCM for `v2.`. Both extend
/// an RFC AEAD of ring's (96-bit nonce) to a 192-bit nonce by deriving a key per nonce.
#[derive(Clone)]
struct Sealer {
    key: [u8; 32],
    /// AES-256 under the sealing key (XAES-256-GCM's key derivation), its schedule built once.
    aes: Aes256,
    /// XAES-256-GCM's K1: AES-256 of the zero block, doubled in GF(2^128) (CMAC's first subkey).
    k1: [u8; 16],
}

impl Sealer {
    fn new(key: [u8; 32]) -> Sealer {
        let aes = Aes256::new(&key.into());
        let mut l = [0u8; 16].into();
        aes.encrypt_block(&mut l);
        let l = u128::from_be_bytes(l.into());
        let k1 = ((l << 1) ^ if l >> 127 == 1 { 0x87 } else { 0 }).to_be_bytes();
        Sealer { key, aes, k1 }
    }

    /// The per-token key and the RFC nonce of one 192-bit nonce.
    fn subkey(&self, format: TokenFormat, nonce: &[u8; NONCE_LEN]) -> Option<(LessSafeKey, Nonce)> {
        match format {
            // draft-irtf-cfrg-xchacha-03: HChaCha20 of the key and the nonce's first 16 bytes is
            // the key of ChaCha20-Poly1305 (RFC 8439), whose nonce is 4 zero bytes then the
            // nonce's last 8.
            TokenFormat::V1 => {
                let mut head = [0u8; 16];
                head.copy_from_slice(&nonce[..16]);
                let subkey = chacha20::hchacha::<chacha20::R20>(&self.key.into(), &head.into());
                let key = UnboundKey::new(&CHACHA20_POLY1305, subkey.as_slice()).ok()?;
                let mut tail = [0u8; 12];
                tail[4..].copy_from_slice(&nonce[16..]);
                Some((LessSafeKey::new(key), Nonce::assume_unique_for_key(tail)))
            }
            // C2SP XAES-256-GCM: the key of AES-256-GCM is AES-256(M1 ^ K1) || AES-256(M2 ^ K1),
            // Mi = [0, i, 'X', 0] || the nonce's first 12 bytes; its nonce is the last 12.
            TokenFormat::V2 => {
                let mut blocks = [1u8, 2].map(|counter| {
                    let mut block = [0u8; 16];
                    block[..4].copy_from_slice(&[0, counter, b'X', 0]);
                    block[4..].copy_from_slice(&nonce[..12]);
                    for (byte, k) in block.iter_mut().zip(self.k1) {
                        *byte ^= k;
                    }
                    block.into()
                });
                self.aes.encrypt_blocks(&mut blocks);
                let mut subkey = [0u8; 32];
                subkey[..16].copy_from_slice(&blocks[0]);
                subkey[16..].copy_from_slice(&blocks[1]);
                let key = UnboundKey::new(&AES_256_GCM, &subkey).ok()?;
                let tail: [u8; 12] = nonce[12..].try_into().ok()?;
                Some((LessSafeKey::new(key), Nonce::assume_unique_for_key(tail)))
            }
        }
    }

    /// Encrypts `text` in place; returns the tag.
    fn seal(&self, format: TokenFormat, nonce: &[u8; NONCE_LEN], text: &mut [u8]) -> Option<Tag> {
        let (key, nonce) = self.subkey(format, nonce)?;
        key.seal_in_place_separate_tag(nonce, Aad::from(format.aad()), text)
            .ok()
    }

    /// Authenticates and decrypts `text` in place.
    fn open(
        &self,
        format: TokenFormat,
        nonce: &[u8; NONCE_LEN],
        text: &mut [u8],
        tag: &[u8],
    ) -> Option<()> {
        let (key, nonce) = self.subkey(format, nonce)?;
        let tag = Tag::try_from(tag).ok()?;
        key.open_in_place_separate_tag(nonce, Aad::from(format.aad()), tag, text, 0..)
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
            cipher: Some(Sealer::new(key.0)),
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
        match &self.cipher {
            None => Ok(game.save()),
            Some(cipher) => Ok(Value::String(self.seal_into(
                cipher,
                plaintext(game)?,
                "",
            )?)),
        }
    }

    /// The wire form of a match's state as JSON text (the hot path: no intermediate `Value`).
    pub fn encode_json(&self, game: &dyn Match) -> Result<String, ServiceError> {
        match &self.cipher {
            None => Ok(game.save_json()),
            // base64url needs no JSON escape: the token is written between quotes as it is.
            Some(cipher) => self.seal_into(cipher, plaintext(game)?, "\""),
        }
    }

    /// Seals `plaintext` (encrypted in its own buffer, no copy) into a token of the issued format,
    /// written between two `quote`s: `v2.` then base64url of `nonce || ciphertext || tag`. The nonce is 24 bytes, a
    /// whole number of base64 groups, so it is encoded on its own and the rest after it.
    fn seal_into(
        &self,
        cipher: &Sealer,
        mut plaintext: Vec<u8>,
        quote: &str,
    ) -> Result<String, ServiceError> {
        let nonce_bytes: [u8; NONCE_LEN] = rand::random();
        let tag = cipher
            .seal(TokenFormat::V2, &nonce_bytes, &mut plaintext)
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
        let (format, bytes) = self.open(token)?;
        let plaintext = &bytes[NONCE_LEN..];
        match format {
            TokenFormat::V1 => serde_json::from_slice(plaintext).map_err(|_| self.tampered()),
            TokenFormat::V2 => rmp_serde::from_slice(plaintext).map_err(|_| self.tampered()),
        }
    }

    fn tampered(&self) -> ServiceError {
        ServiceError::new(
            ErrorCode::StateTampered,
            "the sealed state was modified, truncated, or sealed by another server: send the token exactly as it was returned",
        )
    }

    /// Decodes and authenticates a token: its format and bytes, the plaintext decrypted in place
    /// after the nonce (the tag cut off).
    fn open(&self, token: &str) -> Result<(TokenFormat, Vec<u8>), ServiceError> {
        let Some(cipher) = &self.cipher else {
            return Err(ServiceError::new(
                ErrorCode::InvalidState,
                "this server does not use sealed states: send the state as the JSON object it returned",
            ));
        };
        let tampered = || self.tampered();
        let (format, body) = TokenFormat::split(token).ok_or_else(tampered)?;
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
        cipher
            .open(format, &nonce, text, tag)
            .ok_or_else(tampered)?;
        bytes.truncate(tag_at);
        Ok((format, bytes))
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
        let (format, bytes) = self.open(token)?;
        let plaintext = &bytes[NONCE_LEN..];
        Ok(match format {
            TokenFormat::V1 => {
                game.load_json(std::str::from_utf8(plaintext).map_err(|_| self.tampered())?)?
            }
            TokenFormat::V2 => game.load_msgpack(plaintext)?,
        })
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

/// The plaintext of a `v2.` token: the envelope in MessagePack (0.9 KB where its JSON is 1.3 KB
/// for a 4-player twenty_two state, and read back without parsing text).
fn plaintext(game: &dyn Match) -> Result<Vec<u8>, ServiceError> {
    let mut plaintext = Vec::with_capacity(2048);
    game.save_msgpack(&mut plaintext)
        .map_err(|e| ServiceError::new(ErrorCode::Internal, format!("cannot encode state: {e}")))?;
    Ok(plaintext)
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

    /// A `v2.` token of any envelope (the server seals a game's own).
    fn seal_value(codec: &StateCodec, envelope: &Value) -> Result<String, ServiceError> {
        let Some(cipher) = &codec.cipher else {
            panic!("sealed codec without cipher")
        };
        let plaintext = rmp_serde::to_vec_named(envelope).expect("MessagePack");
        codec.seal_into(cipher, plaintext, "")
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
        let sealer = Sealer::new(key);
        let v1 = TokenFormat::V1;
        let reference = XChaCha20Poly1305::new(&key.into());
        for length in [0usize, 1, 63, 64, 65, 1300] {
            let message: Vec<u8> = (0..length).map(|i| (i * 7 + 3) as u8).collect();
            let nonce: [u8; NONCE_LEN] = std::array::from_fn(|i| (i * 11 + length) as u8);

            let mut ours = message.clone();
            let tag = sealer.seal(v1, &nonce, &mut ours).expect("seals");
            let mut theirs = message.clone();
            let their_tag = reference
                .encrypt_inout_detached(
                    &XNonce::from(nonce),
                    v1.aad(),
                    theirs.as_mut_slice().into(),
                )
                .expect("seals");
            assert_eq!(ours, theirs, "ciphertext, {length} bytes");
            assert_eq!(tag.as_ref(), their_tag.as_slice(), "tag, {length} bytes");

            let mut opened = theirs.clone();
            sealer
                .open(v1, &nonce, &mut opened, their_tag.as_slice())
                .expect("opens theirs");
            assert_eq!(opened, message);
            let mut opened = ours.clone();
            reference
                .decrypt_inout_detached(
                    &XNonce::from(nonce),
                    v1.aad(),
                    opened.as_mut_slice().into(),
                    &their_tag,
                )
                .expect("theirs opens ours");
            assert_eq!(opened, message);

            assert_refused(&sealer, v1, &nonce, &ours, tag.as_ref());
        }
    }

    /// A sealed text does not open with a changed tag, under another key, or as the other format.
    fn assert_refused(
        sealer: &Sealer,
        format: TokenFormat,
        nonce: &[u8; NONCE_LEN],
        sealed: &[u8],
        tag: &[u8],
    ) {
        let mut wrong = tag.to_vec();
        wrong[0] ^= 1;
        assert!(
            sealer
                .open(format, nonce, &mut sealed.to_vec(), &wrong)
                .is_none()
        );
        let stranger = Sealer::new([43u8; 32]);
        assert!(
            stranger
                .open(format, nonce, &mut sealed.to_vec(), tag)
                .is_none()
        );
        let other = match format {
            TokenFormat::V1 => TokenFormat::V2,
            TokenFormat::V2 => TokenFormat::V1,
        };
        assert!(
            sealer
                .open(other, nonce, &mut sealed.to_vec(), tag)
                .is_none()
        );
    }

    /// `v2.` is XAES-256-GCM: the C2SP specification's test vectors, sealed and opened, and a
    /// wrong tag, key or format refused.
    #[test]
    fn the_sealer_is_xaes_256_gcm() {
        let hex = |text: &str| -> Vec<u8> {
            (0..text.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&text[i..i + 2], 16).expect("hex"))
                .collect()
        };
        // key byte, associated data, ciphertext || tag (C2SP XAES-256-GCM.md)
        let vectors: [(u8, &[u8], &str); 2] = [
            (
                1,
                b"",
                "ce546ef63c9cc60765923609b33a9a1974e96e52daf2fcf7075e2271",
            ),
            (
                3,
                b"c2sp.org/XAES-256-GCM",
                "986ec1832593df5443a179437fd083bf3fdb41abd740a21f71eb769d",
            ),
        ];
        let nonce: &[u8; NONCE_LEN] = b"ABCDEFGHIJKLMNOPQRSTUVWX";
        for (key_byte, aad, expected) in vectors {
            let sealer = Sealer::new([key_byte; 32]);
            let (key, rfc_nonce) = sealer.subkey(TokenFormat::V2, nonce).expect("key");
            let mut text = b"XAES-256-GCM".to_vec();
            let tag = key
                .seal_in_place_separate_tag(rfc_nonce, Aad::from(aad), &mut text)
                .expect("seals");
            text.extend_from_slice(tag.as_ref());
            assert_eq!(text, hex(expected), "key {key_byte:#04x}");
        }

        let sealer = Sealer::new([42u8; 32]);
        let v2 = TokenFormat::V2;
        for length in [0usize, 1, 63, 64, 65, 1300] {
            let message: Vec<u8> = (0..length).map(|i| (i * 7 + 3) as u8).collect();
            let nonce: [u8; NONCE_LEN] = std::array::from_fn(|i| (i * 11 + length) as u8);
            let mut sealed = message.clone();
            let tag = sealer.seal(v2, &nonce, &mut sealed).expect("seals");
            let mut opened = sealed.clone();
            sealer
                .open(v2, &nonce, &mut opened, tag.as_ref())
                .expect("opens");
            assert_eq!(opened, message);
            assert_refused(&sealer, v2, &nonce, &sealed, tag.as_ref());
        }
    }

    /// Every game id's states survive a `v2.` token: sealed and opened at every step of a seeded
    /// game, each saves to the same JSON (MessagePack reads back what the families' serde
    /// attributes write: tagged, untagged and flattened enums, skipped fields).
    #[test]
    fn every_game_ids_states_round_trip_through_v2_tokens() {
        let codec = codec();
        for game in engine::registry::games() {
            let info = game.info();
            for players in [info.players.min, info.players.max] {
                let setup = engine::NewGame {
                    players,
                    seed: 11,
                    ..engine::NewGame::default()
                };
                let mut state = game
                    .start(&setup)
                    .expect("the id's own player range starts");
                for step in 0..300 {
                    let token = codec.encode(state.as_ref()).expect("seals");
                    let token = token.as_str().expect("a token");
                    assert!(token.starts_with("v2."), "{token}");
                    let opened = codec
                        .decode_token(game.as_ref(), token)
                        .unwrap_or_else(|e| {
                            panic!("{} {players}p step {step}: {}", info.id, e.detail)
                        });
                    assert_eq!(
                        opened.save_json(),
                        state.save_json(),
                        "{} {players}p step {step}",
                        info.id
                    );
                    if state.is_over() {
                        break;
                    }
                    let seat = state.to_act()[0];
                    let legal = state.legal_actions(seat);
                    state
                        .apply(seat, &legal[step % legal.len()])
                        .expect("a listed action applies");
                }
            }
        }
    }

    /// Tokens of the format no longer issued still open, and a token relabelled with the other
    /// format's prefix is tampering.
    #[test]
    fn v1_tokens_still_open_and_a_changed_prefix_is_tampering() {
        let codec = codec();
        let Some(cipher) = &codec.cipher else {
            panic!("sealed codec without cipher")
        };
        let envelope = serde_json::json!({"version": 2, "game": "g", "data": {"x": [1, 2]}});
        let mut text = serde_json::to_vec(&envelope).expect("json");
        let nonce = [9u8; NONCE_LEN];
        let tag = cipher
            .seal(TokenFormat::V1, &nonce, &mut text)
            .expect("seals");
        text.extend_from_slice(tag.as_ref());
        let mut body = nonce.to_vec();
        body.extend_from_slice(&text);
        let v1 = format!("v1.{}", URL_SAFE_NO_PAD.encode_to_string(&body));
        assert_eq!(codec.unseal(&v1).expect("a v1 token opens"), envelope);
        let relabelled = format!("v2.{}", &v1[3..]);
        assert_eq!(
            codec.unseal(&relabelled).unwrap_err().code,
            ErrorCode::StateTampered
        );

        let v2 = seal_value(&codec, &envelope).expect("seals");
        assert!(v2.starts_with("v2."), "{v2}");
        let relabelled = format!("v1.{}", &v2[3..]);
        assert_eq!(
            codec.unseal(&relabelled).unwrap_err().code,
            ErrorCode::StateTampered
        );
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
        let envelope = serde_json::json!({"version": 1, "game": "g", "data": {"x": [1, 2]}});
        let token = seal_value(&codec, &envelope).unwrap();
        assert!(token.starts_with(SEAL_PREFIX));
        assert_eq!(codec.unseal(&token).unwrap(), envelope);
        let other = seal_value(&codec, &envelope).unwrap();
        assert_ne!(token, other, "fresh nonce per token");

        let mut bytes = token.into_bytes();
        let i = bytes.len() / 2;
        bytes[i] = if bytes[i] == b'A' { b'B' } else { b'A' };
        let forged = String::from_utf8(bytes).unwrap();
        assert_eq!(
            codec.unseal(&forged).unwrap_err().code,
            ErrorCode::StateTampered
        );
        for empty in ["v1.", "v2."] {
            assert_eq!(
                codec.unseal(empty).unwrap_err().code,
                ErrorCode::StateTampered
            );
        }
        assert_eq!(
            codec.unseal("nope").unwrap_err().code,
            ErrorCode::StateTampered
        );

        let stranger = StateCodec::sealed(&SealKey::from_bytes([8; 32]), false);
        let token = seal_value(&codec, &envelope).unwrap();
        assert_eq!(
            stranger.unseal(&token).unwrap_err().code,
            ErrorCode::StateTampered
        );
    }
}
