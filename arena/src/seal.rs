//! Sealing: the 32-byte key every process of an arena shares, the AEADs of sealed tokens, and
//! the `info` tokens of move requests.
//!
//! A sealed token is a format prefix followed by unpadded base64url of
//! `nonce (24 random bytes) || ciphertext || tag (16 bytes)`. A fresh random nonce is drawn for
//! every token, so two tokens of the same plaintext differ. Without the key nobody can read a
//! token nor forge or alter one: any change fails authentication.
//!
//! Two AEADs, both opened, the second issued ([`TokenFormat`]):
//! - `v1.`: XChaCha20-Poly1305: ring's ChaCha20-Poly1305 under the `chacha20` crate's HChaCha20
//!   (RustCrypto's `XChaCha20Poly1305` byte for byte; a test seals and opens with both).
//! - `v2.`: XAES-256-GCM (C2SP): ring's AES-256-GCM (AES-NI and carry-less multiply) under a
//!   per-nonce key derived with two AES-256 blocks (the `aes` crate).
//!
//! Why XAES-256-GCM and not plain AES-256-GCM: its 96-bit nonce drawn at random is safe for about
//! 2^32 tokens per key (a nonce repeated under GCM reveals the authentication key), a few days of
//! a busy server's applies. XAES-256-GCM keeps a 192-bit random nonce: every token has its own
//! derived key, and a repeated nonce is as unlikely as with XChaCha20 (2^-80 after 2^56 tokens).
//!
//! The rules API's state tokens (`v1.`/`v2.`) live in the api crate's codec; the arena issues
//! [`info`](Sealer::seal_info) tokens (`i2.`): a match, a seat and a move count under an
//! HMAC-SHA256 tag, which the rules API resolves from the match's stored moves for
//! `/determinize` and `/rollouts` without telling the bot anything it may not know.

use crate::problem::{ErrorCode, ServiceError};
use aes::Aes256;
use aes::cipher::{BlockCipherEncrypt, KeyInit};
use base64_simd::URL_SAFE_NO_PAD;
use ring::aead::{AES_256_GCM, Aad, CHACHA20_POLY1305, LessSafeKey, Nonce, Tag, UnboundKey};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Bytes of a token's nonce.
pub const NONCE_LEN: usize = 24;
/// Bytes of a token's authentication tag.
pub const TAG_LEN: usize = 16;

/// The AEADs of sealed tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenFormat {
    /// `v1.`: XChaCha20-Poly1305, associated data `cardroom/state/v1`. Opened, no longer issued.
    V1,
    /// `v2.`: XAES-256-GCM, associated data `cardroom/state/v2`. Issued.
    V2,
}

impl TokenFormat {
    /// The prefix of its state tokens.
    pub const fn prefix(self) -> &'static str {
        match self {
            TokenFormat::V1 => "v1.",
            TokenFormat::V2 => "v2.",
        }
    }

    /// The associated data bound into its state tokens (a token of one format never opens as
    /// another).
    pub const fn aad(self) -> &'static [u8] {
        match self {
            TokenFormat::V1 => b"cardroom/state/v1",
            TokenFormat::V2 => b"cardroom/state/v2",
        }
    }

    /// The format of a state token and the base64url after its prefix.
    pub fn split(token: &str) -> Option<(TokenFormat, &str)> {
        [TokenFormat::V2, TokenFormat::V1]
            .into_iter()
            .find_map(|format| Some((format, token.strip_prefix(format.prefix())?)))
    }
}

/// A 32-byte sealing key.
#[derive(Clone, PartialEq, Eq)]
pub struct SealKey([u8; 32]);

impl std::fmt::Debug for SealKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SealKey(..)")
    }
}

/// Why a key could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// The file could not be read or written.
    #[error("cannot read or create the seal key file {path}: {source}")]
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

    /// A fresh random key.
    pub fn generate() -> SealKey {
        SealKey(rand::random())
    }

    /// The key's 32 bytes.
    pub fn bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// The key as 64 hex digits (how key files hold it).
    pub fn to_hex(&self) -> String {
        crate::client::hex(&self.0)
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

    /// The key in `path`, or a new one written there first (64 hex digits, readable by the
    /// owner only): an arena on SQLite keeps its key beside its database and reuses it on every
    /// start, so the `info` tokens bots hold stay valid across restarts.
    pub fn load_or_create(path: &Path) -> Result<SealKey, KeyError> {
        let io = |source| KeyError::Io {
            path: path.display().to_string(),
            source,
        };
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        match options.open(path) {
            Ok(mut file) => {
                let key = SealKey::generate();
                std::io::Write::write_all(&mut file, format!("{}\n", key.to_hex()).as_bytes())
                    .and_then(|()| file.sync_all())
                    .map_err(io)?;
                tracing::info!(path = %path.display(), "created the arena's seal key");
                Ok(key)
            }
            // Made on an earlier start (or by a process racing this one): read it.
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {
                SealKey::from_file(path)
            }
            Err(error) => Err(io(error)),
        }
    }

    /// Where an arena on the SQLite file `database` keeps its key: `<database>.seal-key`.
    pub fn beside(database: &Path) -> PathBuf {
        let mut path = database.as_os_str().to_owned();
        path.push(".seal-key");
        PathBuf::from(path)
    }
}

/// The sealing key's ciphers: XChaCha20-Poly1305 for `v1.`, XAES-256-GCM for `v2.` (and the
/// HMAC-SHA256 tags of `i2.` `info` tokens). Both AEADs extend an RFC AEAD of ring's (96-bit nonce) to a 192-bit nonce by deriving a key per
/// nonce.
#[derive(Clone)]
pub struct Sealer {
    key: [u8; 32],
    /// AES-256 under the sealing key (XAES-256-GCM's key derivation), its schedule built once.
    aes: Aes256,
    /// XAES-256-GCM's K1: AES-256 of the zero block, doubled in GF(2^128) (CMAC's first subkey).
    k1: [u8; 16],
}

impl std::fmt::Debug for Sealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sealer(..)")
    }
}

impl Sealer {
    /// The ciphers of `key`.
    pub fn new(key: &SealKey) -> Sealer {
        let aes = Aes256::new(&key.0.into());
        let mut l = [0u8; 16].into();
        aes.encrypt_block(&mut l);
        let l = u128::from_be_bytes(l.into());
        let k1 = ((l << 1) ^ if l >> 127 == 1 { 0x87 } else { 0 }).to_be_bytes();
        Sealer {
            key: key.0,
            aes,
            k1,
        }
    }

    /// The seed that samples from a hidden position (a sealed state or an `info` token, `token`
    /// as sent) for a client's `seed`: HMAC-SHA256 under the key of `token` and `seed`, cut to 53
    /// bits. Sampling draws its permutations from the seed starting from the real deal's order,
    /// so a client who knew the seed used could undo them and read where the hidden cards lie;
    /// keyed, the same request still gives the same samples while the seed used stays unknown.
    pub fn sampling_seed(&self, token: &str, seed: u64) -> u64 {
        use hmac::{KeyInit as _, Mac as _};
        let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(&self.key)
            .expect("HMAC takes any key length");
        mac.update(b"cardroom sampling seed\0");
        mac.update(token.as_bytes());
        mac.update(&seed.to_le_bytes());
        let digest = mac.finalize().into_bytes();
        let mut first = [0u8; 8];
        first.copy_from_slice(&digest[..8]);
        u64::from_le_bytes(first) & engine::rng::MAX_SEED
    }

    /// A 32-byte key for one purpose (`label`) and one holder (`input`): HMAC-SHA256 under the
    /// seal key. What is sealed under it opens only for whoever knows `input` too (the stored
    /// answers of idempotent requests, under the client's own key).
    pub fn derive_key(&self, label: &[u8], input: &[u8]) -> SealKey {
        use hmac::{KeyInit as _, Mac as _};
        let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(&self.key)
            .expect("HMAC takes any key length");
        mac.update(label);
        mac.update(b"\0");
        mac.update(input);
        SealKey::from_bytes(mac.finalize().into_bytes().into())
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
    fn seal(
        &self,
        format: TokenFormat,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        text: &mut [u8],
    ) -> Option<Tag> {
        let (key, nonce) = self.subkey(format, nonce)?;
        key.seal_in_place_separate_tag(nonce, Aad::from(aad), text)
            .ok()
    }

    /// Authenticates and decrypts `text` in place.
    fn open(
        &self,
        format: TokenFormat,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        text: &mut [u8],
        tag: &[u8],
    ) -> Option<()> {
        let (key, nonce) = self.subkey(format, nonce)?;
        let tag = Tag::try_from(tag).ok()?;
        key.open_in_place_separate_tag(nonce, Aad::from(aad), tag, text, 0..)
            .ok()
            .map(|_| ())
    }

    /// Seals `plaintext` (encrypted in its own buffer, no copy) with XAES-256-GCM under `aad`
    /// into `quote`, `prefix`, base64url of `nonce || ciphertext || tag`, `quote`. The nonce is
    /// 24 bytes, a whole number of base64 groups, so it is encoded on its own and the rest after.
    pub fn seal_token(
        &self,
        prefix: &str,
        aad: &[u8],
        mut plaintext: Vec<u8>,
        quote: &str,
    ) -> Option<String> {
        let nonce: [u8; NONCE_LEN] = rand::random();
        let tag = self.seal(TokenFormat::V2, &nonce, aad, &mut plaintext)?;
        plaintext.extend_from_slice(tag.as_ref());
        let encoded = (NONCE_LEN + plaintext.len()).div_ceil(3) * 4;
        let mut out = String::with_capacity(2 * quote.len() + prefix.len() + encoded);
        out.push_str(quote);
        out.push_str(prefix);
        URL_SAFE_NO_PAD.encode_append(nonce, &mut out);
        URL_SAFE_NO_PAD.encode_append(&plaintext, &mut out);
        out.push_str(quote);
        Some(out)
    }

    /// Opens the base64url `body` of a token (`nonce || ciphertext || tag`) sealed with
    /// `format` under `aad`: its plaintext, or None if it was changed, cut or sealed otherwise.
    pub fn open_token(&self, format: TokenFormat, aad: &[u8], body: &str) -> Option<Vec<u8>> {
        let mut bytes = URL_SAFE_NO_PAD.decode_to_vec(body).ok()?;
        if bytes.len() < NONCE_LEN + TAG_LEN {
            return None;
        }
        let tag_at = bytes.len() - TAG_LEN;
        let (nonce_and_text, tag) = bytes.split_at_mut(tag_at);
        let (nonce, text) = nonce_and_text.split_at_mut(NONCE_LEN);
        let nonce: [u8; NONCE_LEN] = (&*nonce).try_into().ok()?;
        self.open(format, &nonce, aad, text, tag)?;
        bytes.truncate(tag_at);
        bytes.drain(..NONCE_LEN);
        Some(bytes)
    }

    /// The `info` token of the position before move `claims.moves` of a match, for
    /// `claims.seat`: `i2.<match>.<seat>.<moves>.<tag>`, the tag being HMAC-SHA256 under the seal
    /// key of the game and the claims, cut to 128 bits. The token names the position; the arena
    /// rebuilds it from the match's stored moves ([`crate::Arena::open_info`]). A token of the
    /// whole sealed state was 2 KB in a twenty_two request (more than the rest of it in delta
    /// mode); this one is about 50 bytes, and neither its claims nor its tag can be changed.
    pub fn seal_info(&self, claims: &InfoClaims) -> String {
        let mut token = format!(
            "{INFO_PREFIX}{}.{}.{}.",
            claims.match_id, claims.seat, claims.moves
        );
        use hmac::Mac as _;
        let tag = self.info_mac(claims).finalize().into_bytes();
        URL_SAFE_NO_PAD.encode_append(&tag[..INFO_TAG_LEN], &mut token);
        token
    }

    /// The claims an `info` token states, unchecked: [`Sealer::check_info`] checks them against
    /// its tag once the match's game is known.
    pub fn read_info(token: &str) -> Result<(InfoClaims, &str), ServiceError> {
        let refused = || {
            ServiceError::new(
                ErrorCode::InvalidInfo,
                format!(
                    "this is not an `info` token ({INFO_PREFIX}<match>.<seat>.<moves>.<tag>): send the `info` of a move request exactly as the arena sent it"
                ),
            )
        };
        let rest = token.strip_prefix(INFO_PREFIX).ok_or_else(refused)?;
        let mut parts = rest.split('.');
        let (Some(match_id), Some(seat), Some(moves), Some(tag), None) = (
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
        ) else {
            return Err(refused());
        };
        let number = |text: &str| {
            (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) && text.len() <= 9)
                .then(|| text.parse::<usize>().ok())
                .flatten()
        };
        let (Some(seat), Some(moves)) = (number(seat), number(moves)) else {
            return Err(refused());
        };
        if match_id.is_empty() || match_id.len() > 64 {
            return Err(refused());
        }
        Ok((
            InfoClaims {
                game: String::new(),
                match_id: match_id.to_string(),
                seat,
                moves,
            },
            tag,
        ))
    }

    /// Whether `tag` is this key's for `claims` (its `game` filled in from the match).
    pub fn check_info(&self, claims: &InfoClaims, tag: &str) -> bool {
        let Ok(tag) = URL_SAFE_NO_PAD.decode_to_vec(tag) else {
            return false;
        };
        use hmac::Mac as _;
        // Checked in constant time; the length first, as a shorter tag would check a prefix.
        tag.len() == INFO_TAG_LEN && self.info_mac(claims).verify_truncated_left(&tag).is_ok()
    }

    fn info_mac(&self, claims: &InfoClaims) -> hmac::Hmac<sha2::Sha256> {
        use hmac::{KeyInit as _, Mac as _};
        let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(&self.key)
            .expect("HMAC takes any key length");
        mac.update(b"cardroom info v2\0");
        for field in [
            claims.game.as_str(),
            claims.match_id.as_str(),
            &claims.seat.to_string(),
            &claims.moves.to_string(),
        ] {
            mac.update(field.as_bytes());
            mac.update(b"\0");
        }
        mac
    }
}

/// Prefix of `info` tokens (`i1.` held the whole sealed state).
pub const INFO_PREFIX: &str = "i2.";
/// The bytes of an `info` token's tag: 128 bits.
const INFO_TAG_LEN: usize = 16;

/// Whose position an `info` token names: readable in the token, bound to it by its tag.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InfoClaims {
    /// The game id (not written in the token: the match's, bound by the tag).
    pub game: String,
    /// The match.
    #[serde(rename = "match")]
    pub match_id: String,
    /// The seat whose information the token stands for.
    pub seat: usize,
    /// The moves played before the position (the match's moves `0..moves`).
    pub moves: usize,
}

/// Prefix of a secret stored sealed in the database (a bot's signing secret, a table's rematch
/// secret). A stored value without it is a plaintext secret written before secrets were sealed.
pub const STORED_SECRET_PREFIX: &str = "s1.";

/// The cipher of the secrets the arena stores (issue 48): XAES-256-GCM (as `v2.` tokens) under a
/// key derived from the seal key for this one purpose, each secret bound to what it belongs to
/// (`bot:<id>`, `table:<id>`) by the associated data, so a sealed value copied into another row
/// does not open. The database and its backups then hold no secret in the clear: whoever reads
/// them also needs the seal key (the file beside a SQLite database, mode 0600, or
/// `--seal-key-file`).
#[derive(Clone, Debug)]
pub struct StoredSecrets {
    sealer: Sealer,
}

impl StoredSecrets {
    /// The cipher of `key`'s stored secrets.
    pub fn new(key: &SealKey) -> StoredSecrets {
        let derived = Sealer::new(key).derive_key(b"cardroom stored secrets v1", b"");
        StoredSecrets {
            sealer: Sealer::new(&derived),
        }
    }

    fn aad(owner: &str) -> Vec<u8> {
        let mut aad = b"cardroom/stored-secret/v1\0".to_vec();
        aad.extend_from_slice(owner.as_bytes());
        aad
    }

    /// `secret` sealed for `owner`: `s1.` and base64url of `nonce || ciphertext || tag`.
    pub fn seal(&self, owner: &str, secret: &str) -> String {
        self.sealer
            .seal_token(
                STORED_SECRET_PREFIX,
                &Self::aad(owner),
                secret.as_bytes().to_vec(),
                "",
            )
            .expect("XAES-256-GCM seals any text under a 32-byte key")
    }

    /// The secret a stored value holds: a sealed one opened (None if it does not open: another
    /// key, another owner, changed), a plaintext one (stored before secrets were sealed) as is.
    pub fn open(&self, owner: &str, stored: &str) -> Option<String> {
        match stored.strip_prefix(STORED_SECRET_PREFIX) {
            Some(body) => self
                .sealer
                .open_token(TokenFormat::V2, &Self::aad(owner), body)
                .and_then(|bytes| String::from_utf8(bytes).ok()),
            None => Some(stored.to_string()),
        }
    }

    /// Whether a stored value is sealed (else a plaintext secret to seal).
    pub fn is_sealed(stored: &str) -> bool {
        stored.starts_with(STORED_SECRET_PREFIX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `v1.` AEAD is RustCrypto's `XChaCha20Poly1305` byte for byte: each implementation
    /// opens what the other sealed, and a wrong tag, key or format is refused.
    #[test]
    fn the_sealer_is_xchacha20_poly1305_both_ways() {
        use chacha20poly1305::aead::{AeadInOut, KeyInit};
        use chacha20poly1305::{XChaCha20Poly1305, XNonce};
        let key = [42u8; 32];
        let sealer = Sealer::new(&SealKey(key));
        let v1 = TokenFormat::V1;
        let reference = XChaCha20Poly1305::new(&key.into());
        for length in [0usize, 1, 63, 64, 65, 1300] {
            let message: Vec<u8> = (0..length).map(|i| (i * 7 + 3) as u8).collect();
            let nonce: [u8; NONCE_LEN] = std::array::from_fn(|i| (i * 11 + length) as u8);

            let mut ours = message.clone();
            let tag = sealer.seal(v1, &nonce, v1.aad(), &mut ours).expect("seals");
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
                .open(v1, &nonce, v1.aad(), &mut opened, their_tag.as_slice())
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
        let aad = format.aad();
        let mut wrong = tag.to_vec();
        wrong[0] ^= 1;
        assert!(
            sealer
                .open(format, nonce, aad, &mut sealed.to_vec(), &wrong)
                .is_none()
        );
        let stranger = Sealer::new(&SealKey([43u8; 32]));
        assert!(
            stranger
                .open(format, nonce, aad, &mut sealed.to_vec(), tag)
                .is_none()
        );
        let other = match format {
            TokenFormat::V1 => TokenFormat::V2,
            TokenFormat::V2 => TokenFormat::V1,
        };
        assert!(
            sealer
                .open(other, nonce, aad, &mut sealed.to_vec(), tag)
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
            let sealer = Sealer::new(&SealKey([key_byte; 32]));
            let mut text = b"XAES-256-GCM".to_vec();
            let tag = sealer
                .seal(TokenFormat::V2, nonce, aad, &mut text)
                .expect("seals");
            text.extend_from_slice(tag.as_ref());
            assert_eq!(text, hex(expected), "key {key_byte:#04x}");
        }

        let sealer = Sealer::new(&SealKey([42u8; 32]));
        let v2 = TokenFormat::V2;
        for length in [0usize, 1, 63, 64, 65, 1300] {
            let message: Vec<u8> = (0..length).map(|i| (i * 7 + 3) as u8).collect();
            let nonce: [u8; NONCE_LEN] = std::array::from_fn(|i| (i * 11 + length) as u8);
            let mut sealed = message.clone();
            let tag = sealer
                .seal(v2, &nonce, v2.aad(), &mut sealed)
                .expect("seals");
            let mut opened = sealed.clone();
            sealer
                .open(v2, &nonce, v2.aad(), &mut opened, tag.as_ref())
                .expect("opens");
            assert_eq!(opened, message);
            assert_refused(&sealer, v2, &nonce, &sealed, tag.as_ref());
        }
    }

    #[test]
    fn a_key_parses_from_hex_or_raw_bytes() {
        let hex = "00".repeat(31) + "ff\n";
        assert_eq!(SealKey::parse(hex.as_bytes()).unwrap().0[31], 0xff);
        assert_eq!(SealKey::parse(&[3u8; 32]).unwrap().0, [3u8; 32]);
        assert!(SealKey::parse(b"short").is_err());
        let key = SealKey::generate();
        assert_eq!(SealKey::parse(key.to_hex().as_bytes()).unwrap(), key);
    }

    /// An `info` token reads back to its claims and checks under its key and game only; a
    /// changed claim (another match, seat or move count with the same tag), a cut tag, another
    /// key and another game are refused.
    #[test]
    fn info_tokens_are_bound_to_their_game_match_seat_and_move() {
        let sealer = Sealer::new(&SealKey([5; 32]));
        let claims = InfoClaims {
            game: "twenty_two".into(),
            match_id: "m_0123456789abcdef".into(),
            seat: 2,
            moves: 41,
        };
        let token = sealer.seal_info(&claims);
        assert!(token.starts_with("i2.m_0123456789abcdef.2.41."), "{token}");
        assert!(token.len() <= 60, "{token}");
        let (read, tag) = Sealer::read_info(&token).expect("reads");
        assert_eq!(
            read,
            InfoClaims {
                game: String::new(),
                ..claims.clone()
            }
        );
        assert!(sealer.check_info(&claims, tag));

        let tag = tag.to_string();
        for other in [
            InfoClaims {
                seat: 1,
                ..claims.clone()
            },
            InfoClaims {
                moves: 42,
                ..claims.clone()
            },
            InfoClaims {
                match_id: "m_0123456789abcdee".into(),
                ..claims.clone()
            },
            InfoClaims {
                game: "twenty_two_short".into(),
                ..claims.clone()
            },
        ] {
            assert!(!sealer.check_info(&other, &tag), "{other:?}");
        }
        assert!(!sealer.check_info(&claims, &tag[..tag.len() - 2]));
        assert!(!Sealer::new(&SealKey([6; 32])).check_info(&claims, &tag));
        for malformed in [
            "i1.abc.def",
            "i2.m_1.2.41",
            "i2.m_1.two.41.tag",
            "i2.m_1.2.-1.tag",
            "i2..2.41.tag",
            "i2.m_1.2.41.tag.more",
        ] {
            assert_eq!(
                Sealer::read_info(malformed)
                    .map(|_| ())
                    .expect_err(malformed)
                    .code,
                ErrorCode::InvalidInfo
            );
        }
    }

    /// A key file is created readable by its owner only, and read back on the next start.
    #[test]
    fn a_key_file_is_created_once_and_reused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = SealKey::beside(&dir.path().join("arena.db"));
        assert!(path.ends_with("arena.db.seal-key"));
        let created = SealKey::load_or_create(&path).expect("created");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).expect("file").permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        assert_eq!(SealKey::load_or_create(&path).expect("reused"), created);
    }

    /// A stored secret is sealed (its text nowhere in the value), opens for its owner under the
    /// same key only, and a plaintext one stored before sealing still reads.
    #[test]
    fn stored_secrets_are_sealed_and_bound_to_their_owner() {
        let key = SealKey::generate();
        let secrets = StoredSecrets::new(&key);
        let secret = "00112233445566778899aabbccddeeff";
        let sealed = secrets.seal("bot:b_1", secret);
        assert!(StoredSecrets::is_sealed(&sealed));
        assert!(!sealed.contains(secret));
        assert_ne!(
            sealed,
            secrets.seal("bot:b_1", secret),
            "a fresh nonce each time"
        );
        assert_eq!(secrets.open("bot:b_1", &sealed).as_deref(), Some(secret));
        assert_eq!(
            secrets.open("bot:b_2", &sealed),
            None,
            "another row's value"
        );
        let other = StoredSecrets::new(&SealKey::generate());
        assert_eq!(other.open("bot:b_1", &sealed), None, "another key");
        assert_eq!(secrets.open("bot:b_1", secret).as_deref(), Some(secret));
    }
}
