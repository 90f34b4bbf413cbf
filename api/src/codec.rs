//! How states travel: transparent JSON objects, or sealed tokens.
//!
//! A sealed state token is `v2.` (or `v1.`, still opened) followed by base64url of
//! `nonce || ciphertext || tag`, the plaintext the state envelope and the associated data the
//! format's fixed string (the ciphers and the key are arena/src/seal.rs's, which the arena's
//! `info` tokens share). Without the key a client can neither read a token (the hidden cards and
//! the seed are inside) nor forge or alter one: any change fails authentication and is answered
//! with `state_tampered`.
//!
//! - `v1.`: XChaCha20-Poly1305 over the envelope's JSON text. Clients hold such tokens, so they
//!   keep opening.
//! - `v2.`: XAES-256-GCM over the envelope in MessagePack ([`Match::save_msgpack`]): the AEAD is
//!   several times cheaper than v1's, and MessagePack is 0.7 of the JSON's bytes and read without
//!   parsing text, so a sealed apply costs no more than a transparent one.

use crate::error::{ErrorCode, ServiceError};
use arena::Arena;
use arena::seal::{InfoClaims, Sealer};
pub use arena::seal::{KeyError, SealKey, TokenFormat};
use engine::{Game, Match};
use serde_json::Value;
use serde_json::value::RawValue;

/// Prefix of the sealed tokens this server issues (format version 2).
pub const SEAL_PREFIX: &str = TokenFormat::V2.prefix();

/// Turns wire states into engine matches and back, in transparent or sealed mode.
#[derive(Clone)]
pub struct StateCodec {
    cipher: Option<Sealer>,
    require_sealed: bool,
    /// The arena, which rebuilds the positions the `info` tokens of its move requests name
    /// (None: no arena).
    info: Option<Arena>,
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
            info: None,
        }
    }

    /// Sealed mode: states are returned as sealed tokens; `require_sealed` refuses transparent
    /// states on input.
    pub fn sealed(key: &SealKey, require_sealed: bool) -> StateCodec {
        StateCodec {
            cipher: Some(Sealer::new(key)),
            require_sealed,
            info: None,
        }
    }

    /// The same codec, opening the `info` tokens of `arena`'s move requests.
    pub fn with_info(mut self, arena: Arena) -> StateCodec {
        self.info = Some(arena);
        self
    }

    /// Opens an arena move request's `info` token for `game`: the position and whose it is.
    pub async fn open_info(
        &self,
        game: &dyn Game,
        token: &str,
    ) -> Result<(Box<dyn Match>, InfoClaims), ServiceError> {
        let Some(arena) = &self.info else {
            return Err(ServiceError::new(
                ErrorCode::InvalidInfo,
                "this server runs no arena, so it opens no `info` token: send `state` and `seat`",
            ));
        };
        arena.open_info(game, token).await
    }

    /// The seed sampling uses for a hidden position (`token`: a sealed state or an `info`
    /// token, as sent) and a client's `seed` ([`Sealer::sampling_seed`], under the key that
    /// opened it); a transparent position's (`None`) is the client's own.
    pub fn sampling_seed(&self, token: Option<&str>, seed: u64) -> u64 {
        let arena = self.info.as_ref().map(|arena| arena.sealer().as_ref());
        match (token, arena.or(self.cipher.as_ref())) {
            (Some(token), Some(sealer)) => sealer.sampling_seed(token, seed),
            _ => seed,
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

    /// Seals `plaintext` into a token of the issued format, written between two `quote`s.
    fn seal_into(
        &self,
        cipher: &Sealer,
        plaintext: Vec<u8>,
        quote: &str,
    ) -> Result<String, ServiceError> {
        cipher
            .seal_token(SEAL_PREFIX, TokenFormat::V2.aad(), plaintext, quote)
            .ok_or_else(|| ServiceError::new(ErrorCode::Internal, "cannot seal state"))
    }

    /// Opens a sealed token to the transparent envelope it carries.
    pub fn unseal(&self, token: &str) -> Result<Value, ServiceError> {
        let (format, plaintext) = self.open(token)?;
        match format {
            TokenFormat::V1 => serde_json::from_slice(&plaintext).map_err(|_| self.tampered()),
            TokenFormat::V2 => rmp_serde::from_slice(&plaintext).map_err(|_| self.tampered()),
        }
    }

    fn tampered(&self) -> ServiceError {
        ServiceError::new(
            ErrorCode::StateTampered,
            "the sealed state was modified, truncated, or sealed by another server: send the token exactly as it was returned",
        )
    }

    /// Decodes and authenticates a token: its format and plaintext.
    fn open(&self, token: &str) -> Result<(TokenFormat, Vec<u8>), ServiceError> {
        let Some(cipher) = &self.cipher else {
            return Err(ServiceError::new(
                ErrorCode::InvalidState,
                "this server does not use sealed states: send the state as the JSON object it returned",
            ));
        };
        let (format, body) = TokenFormat::split(token).ok_or_else(|| self.tampered())?;
        let plaintext = cipher
            .open_token(format, format.aad(), body)
            .ok_or_else(|| self.tampered())?;
        Ok((format, plaintext))
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
        let (format, plaintext) = self.open(token)?;
        Ok(match format {
            TokenFormat::V1 => {
                game.load_json(std::str::from_utf8(&plaintext).map_err(|_| self.tampered())?)?
            }
            TokenFormat::V2 => game.load_msgpack(&plaintext)?,
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
        // A v1 token made with RustCrypto's XChaCha20-Poly1305 under the codec's key.
        use chacha20poly1305::aead::{AeadInOut, KeyInit};
        use chacha20poly1305::{XChaCha20Poly1305, XNonce};
        let envelope = serde_json::json!({"version": 2, "game": "g", "data": {"x": [1, 2]}});
        let mut text = serde_json::to_vec(&envelope).expect("json");
        let nonce = [9u8; arena::seal::NONCE_LEN];
        let tag = XChaCha20Poly1305::new(&[7u8; 32].into())
            .encrypt_inout_detached(
                &XNonce::from(nonce),
                TokenFormat::V1.aad(),
                text.as_mut_slice().into(),
            )
            .expect("seals");
        let mut body = nonce.to_vec();
        body.extend_from_slice(&text);
        body.extend_from_slice(tag.as_slice());
        let v1 = format!(
            "v1.{}",
            base64_simd::URL_SAFE_NO_PAD.encode_to_string(&body)
        );
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
