//! Signed calls to bots: one pooled HTTP client behind the checked resolver, a deadline per call,
//! a capped response body, and every failure turned into a [`Fault`] with its kind and reason.

use crate::builtin;
use crate::safety::{AddressPolicy, CheckedResolver};
use crate::wire::{BotInfo, MoveResponse, OutgoingMove};
use dashmap::DashMap;
use hmac::{Hmac, KeyInit, Mac};
use reqwest::header::{HeaderName, HeaderValue};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::Sha256;
use std::sync::Arc;
use std::time::{Duration, Instant};
use utoipa::ToSchema;

/// Largest response body the arena reads from a bot.
pub const BODY_LIMIT: usize = 64 * 1024;

/// URL prefix of the built-in bots, which the arena calls in-process with the same protocol types.
pub const BUILTIN_SCHEME: &str = "builtin:";

/// The first wait before a move request is sent again to a bot that refused or reset the
/// connection (it restarts); doubled after each try up to [`RETRY_MAX`], within the move's time.
const RETRY_FIRST: Duration = Duration::from_millis(20);
/// The least time left for which a refused move request is tried again.
const MIN_TRY: Duration = Duration::from_millis(5);
/// The longest wait between two tries of a move request.
const RETRY_MAX: Duration = Duration::from_millis(250);
/// The first wait between two tries of a probe before a match starts; doubled up to 1 s.
const PROBE_RETRY_FIRST: Duration = Duration::from_millis(100);

/// What went wrong with one call to a bot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    /// No complete answer before the deadline.
    Timeout,
    /// The connection failed or was closed, or the address was refused.
    Transport,
    /// The bot answered with a non-2xx status.
    BadStatus,
    /// The body was not the expected JSON (or was too large).
    BadJson,
    /// The action was not one of the legal actions.
    IllegalAction,
    /// The seat was already disqualified; the arena played for it without asking.
    Disqualified,
    /// The seat's time bank ran out (on this move, or earlier in the match): the arena played
    /// its first legal action.
    Flagged,
}

impl FaultKind {
    /// The wire name (`timeout`, `bad_status`, ...), as in JSON and metrics labels.
    pub fn label(self) -> &'static str {
        match self {
            FaultKind::Timeout => "timeout",
            FaultKind::Transport => "transport",
            FaultKind::BadStatus => "bad_status",
            FaultKind::BadJson => "bad_json",
            FaultKind::IllegalAction => "illegal_action",
            FaultKind::Disqualified => "disqualified",
            FaultKind::Flagged => "flagged",
        }
    }

    /// Counts towards the faults that disqualify a seat: not the arena's own fallback moves for
    /// a seat already disqualified or flagged.
    pub fn counts(self) -> bool {
        !matches!(self, FaultKind::Disqualified | FaultKind::Flagged)
    }
}

/// A recorded fault: its kind, the reason in words, what the bot answered and what was expected.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Fault {
    /// The kind of fault.
    pub kind: FaultKind,
    /// What happened.
    pub detail: String,
    /// What the bot answered, when it answered (`bad_status`, `bad_json`, `illegal_action`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<BotAnswer>,
    /// What the arena expected instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
}

impl Fault {
    /// A fault of `kind`.
    pub fn new(kind: FaultKind, detail: impl Into<String>) -> Self {
        Fault {
            kind,
            detail: detail.into(),
            answer: None,
            expected: None,
        }
    }

    /// The same fault, quoting what the bot answered.
    pub fn with_answer(mut self, answer: BotAnswer) -> Self {
        self.answer = Some(answer);
        self
    }

    /// The same fault, saying what was expected.
    pub fn expecting(mut self, expected: impl Into<String>) -> Self {
        self.expected = Some(expected.into());
        self
    }
}

/// How much of a bot's answer a fault keeps, in bytes.
pub const ANSWER_EXCERPT: usize = 512;

/// The start of what a bot answered, kept with a fault.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BotAnswer {
    /// The HTTP status (absent for an action quoted as the arena read it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// The first 512 bytes of the body, as text (bytes that are not UTF-8 become U+FFFD).
    pub body: String,
    /// The body was longer and was cut.
    pub truncated: bool,
}

impl BotAnswer {
    /// The first [`ANSWER_EXCERPT`] bytes of `body`, cut on a character boundary.
    pub fn excerpt(status: Option<u16>, body: &[u8]) -> Self {
        let mut end = body.len().min(ANSWER_EXCERPT);
        // Never end on part of a UTF-8 sequence: back to the start of the one cut through.
        while end < body.len() && end > 0 && body[end] & 0xC0 == 0x80 {
            end -= 1;
        }
        BotAnswer {
            status,
            body: String::from_utf8_lossy(&body[..end]).into_owned(),
            truncated: body.len() > end,
        }
    }
}

/// What a move request expected, for a fault of the call itself.
fn expected_move(fault: Fault, timeout: Duration) -> Fault {
    let expected = match fault.kind {
        FaultKind::Timeout => format!(
            "a complete answer within {} ms (the move's deadline, or the seat's time bank if shorter)",
            timeout.as_millis()
        ),
        FaultKind::Transport => "an HTTP answer to POST {url}/move".to_string(),
        FaultKind::BadStatus => {
            "a 2xx status with the body {\"action\": <one of legal_actions>}".to_string()
        }
        FaultKind::BadJson => {
            "a JSON body {\"action\": <one of legal_actions>, \"comment\"?: \"...\"} \
             of at most 64 KiB"
                .to_string()
        }
        _ => return fault,
    };
    fault.expecting(expected)
}

/// The signature header value for a body signed at `timestamp` (unix seconds):
/// `sha256=<hex HMAC-SHA256(secret, timestamp + "." + body)>`.
pub fn sign(secret: &str, timestamp: u64, body: &[u8]) -> String {
    let mut mac = signing_mac(secret, timestamp);
    mac.update(body);
    format!("sha256={}", hex(&mac.finalize().into_bytes()))
}

/// The signatures of one seat's move requests in one match. A move request's body begins with
/// the seat's history ([`crate::wire::move_request_body`]), which only grows during the match:
/// HMAC's state after the timestamp and that part is kept, and the next request of the same
/// second hashes only what was added and the rest of its body. Hashing a whole body (about 18 KB
/// halfway through a 4-player match) was a tenth of the arena's CPU per move.
#[derive(Default)]
pub struct MoveSigner {
    signed: Option<SignedPrefix>,
}

/// HMAC's state after `timestamp`, "." and the first `len` bytes of a body.
struct SignedPrefix {
    timestamp: u64,
    len: usize,
    mac: Hmac<Sha256>,
}

impl MoveSigner {
    /// The signature of `body` at `timestamp` with `secret`, as [`sign`] gives it. The first
    /// `prefix_len` bytes of `body` must extend the prefix of this signer's previous body (the
    /// seat's history, which only grows), and `secret` must be the same.
    pub fn sign(&mut self, secret: &str, timestamp: u64, body: &[u8], prefix_len: usize) -> String {
        let prefix_len = prefix_len.min(body.len());
        let signed = match self.signed.take() {
            Some(signed) if signed.timestamp == timestamp && signed.len <= prefix_len => signed,
            _ => SignedPrefix {
                timestamp,
                len: 0,
                mac: signing_mac(secret, timestamp),
            },
        };
        let mut prefix = signed.mac;
        prefix.update(&body[signed.len..prefix_len]);
        let mut whole = prefix.clone();
        whole.update(&body[prefix_len..]);
        self.signed = Some(SignedPrefix {
            timestamp,
            len: prefix_len,
            mac: prefix,
        });
        format!("sha256={}", hex(&whole.finalize().into_bytes()))
    }
}

/// HMAC with `secret` after the `timestamp + "."` that every signed body follows.
fn signing_mac(secret: &str, timestamp: u64) -> Hmac<Sha256> {
    // HMAC accepts keys of any length, so this cannot fail.
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(secret.as_bytes())
        .unwrap_or_else(|_| unreachable!("HMAC takes keys of any length"));
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac
}

/// Lower-case hex of bytes.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        text.push(char::from(DIGITS[usize::from(byte >> 4)]));
        text.push(char::from(DIGITS[usize::from(byte & 0xf)]));
    }
    text
}

/// Checked URLs (and bots' keys) kept at most by a [`BotClient`] before it starts that cache over.
const CHECKED_URLS_MAX: usize = 4096;

fn unix_seconds() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// A bot to call: its URL (or `builtin:<name>`) and its signing secret.
#[derive(Debug, Clone, Default)]
pub struct Target {
    /// Base URL, without a trailing slash.
    pub url: String,
    /// The HMAC key for this bot.
    pub signing_secret: String,
    /// The key a rotation replaced, while it is still valid: requests also carry its signature
    /// (`X-Cardroom-Signature-Previous`), so a bot still running with it keeps working.
    pub previous_secret: Option<PreviousSecret>,
}

/// A signing secret replaced by a rotation, valid until `until`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreviousSecret {
    /// The replaced key.
    pub secret: String,
    /// Until when requests still carry its signature, unix milliseconds.
    pub until: i64,
}

impl Target {
    /// The replaced secret, if it is still valid now.
    fn previous_now(&self) -> Option<&str> {
        let now_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        self.previous_secret
            .as_ref()
            .filter(|previous| previous.until > now_ms)
            .map(|previous| previous.secret.as_str())
    }
}

/// The arena's HTTP client for bots. Cheap to clone (one connection pool).
#[derive(Debug, Clone)]
pub struct BotClient {
    http: reqwest::Client,
    policy: Arc<AddressPolicy>,
    /// Bot URLs already checked against the policy (a pure check of the URL's form), parsed:
    /// parsing a URL with its host costs more than signing a small body, once per move.
    checked_urls: Arc<DashMap<String, reqwest::Url>>,
    /// How long the built-in `ismcts` searches per move, in milliseconds.
    ismcts_ms: u64,
    /// Counts the signing-secret rotations made through this process: its running matches
    /// reread their bots' secrets at once when it moves (see [`BotClient::secrets_rotated`]).
    rotations: Arc<std::sync::atomic::AtomicU64>,
    /// The URL bots' keys as the running matches last read them, shared by every match of the
    /// process (see [`BotClient::fresh_keys`]).
    keys: Arc<DashMap<String, KeysRead>>,
}

/// What a running match rereads of its URL bots' rows: the keys its requests are signed with
/// and how much history they carry.
#[derive(Debug, Clone, PartialEq)]
pub struct BotKeys {
    /// The bot's signing secret.
    pub signing_secret: String,
    /// The secret a rotation replaced, with its end of validity.
    pub previous_secret: Option<PreviousSecret>,
    /// What its move requests carry of the history.
    pub history: crate::wire::HistoryMode,
}

/// A bot's keys, when they were read and the rotation count before the read.
#[derive(Debug)]
struct KeysRead {
    keys: BotKeys,
    read_at: Instant,
    rotations: u64,
}

/// Installs rustls's `ring` crypto provider as the process default, once; later calls (and a
/// provider installed by someone else first) are fine. reqwest is built with
/// `rustls-no-provider` (the aws-lc provider is a large C build), so every process that builds a
/// `reqwest::Client` calls this first: the binary at start, [`BotClient::new`], and the tests.
pub fn install_crypto_provider() {
    // An error only means a default provider is already installed.
    let _ = rustls::crypto::ring::default_provider().install_default();
}

impl BotClient {
    /// A client enforcing `policy` on every connection; redirects are never followed.
    pub fn new(policy: AddressPolicy) -> anyhow::Result<Self> {
        install_crypto_provider();
        let policy = Arc::new(policy);
        let http = reqwest::Client::builder()
            .dns_resolver(CheckedResolver::new(policy.clone()))
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            // One idle connection per concurrent match to the same bot host: no reconnect per move.
            .pool_max_idle_per_host(256)
            .connect_timeout(Duration::from_secs(5))
            .user_agent(concat!("cardroom-arena/", env!("CARGO_PKG_VERSION")))
            .build()?;
        Ok(BotClient {
            http,
            policy,
            checked_urls: Arc::new(DashMap::new()),
            ismcts_ms: builtin::ISMCTS_BUDGET_MS,
            rotations: Arc::default(),
            keys: Arc::new(DashMap::new()),
        })
    }

    /// The same client with the built-in `ismcts` searching `ms` milliseconds per move (at most
    /// half the move's deadline).
    pub fn with_ismcts_ms(mut self, ms: u64) -> Self {
        self.ismcts_ms = ms;
        self
    }

    /// Notes that a bot's signing secret was rotated: the matches this process plays reread
    /// their bots' secrets before their next move.
    pub fn secrets_rotated(&self) {
        self.rotations
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// How many rotations [`BotClient::secrets_rotated`] has noted.
    pub fn rotations(&self) -> u64 {
        self.rotations.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// `bot`'s keys as a match of this process read them less than `max_age` ago, unless a
    /// rotation was made through this process since: sixty-four matches of the same four bots
    /// then read each bot's row once per `max_age`, not each its own every time.
    pub fn fresh_keys(&self, bot: &str, max_age: Duration) -> Option<BotKeys> {
        let read = self.keys.get(bot)?;
        (read.read_at.elapsed() < max_age && read.rotations == self.rotations())
            .then(|| read.keys.clone())
    }

    /// Keeps `bot`'s `keys`, read from the store at `read_at` after `rotations` rotations (the
    /// count taken before the read: a rotation during the read makes the keys stale at once).
    pub fn keep_keys(&self, bot: &str, keys: BotKeys, read_at: Instant, rotations: u64) {
        // A handful of bots per running match; a long-lived arena starts over now and then.
        if self.keys.len() >= CHECKED_URLS_MAX {
            self.keys.clear();
        }
        self.keys.insert(
            bot.to_string(),
            KeysRead {
                keys,
                read_at,
                rotations,
            },
        );
    }

    /// The address policy in force.
    pub fn policy(&self) -> &AddressPolicy {
        &self.policy
    }

    /// `GET {url}/`: the bot's identity.
    pub async fn probe(&self, target: &Target, timeout: Duration) -> Result<BotInfo, Fault> {
        if let Some(name) = target.url.strip_prefix(BUILTIN_SCHEME) {
            return builtin::info(name)
                .ok_or_else(|| Fault::new(FaultKind::Transport, "no such built-in bot"));
        }
        let signed = Signed::whole_body(target, &[]);
        self.call(
            target,
            reqwest::Method::GET,
            "/",
            bytes::Bytes::new(),
            signed,
            timeout,
            false,
        )
        .await
        .map(|(info, _): (BotInfo, _)| info.shown())
    }

    /// `GET {url}/` before a match starts: each try has `timeout` (the move deadline), and a
    /// failed try is repeated with back-off (100 ms doubling to 1 s) until `window` has passed
    /// since the first, so a bot restarting meanwhile still plays.
    pub async fn probe_within(
        &self,
        target: &Target,
        timeout: Duration,
        window: Duration,
    ) -> Result<BotInfo, Fault> {
        let started = Instant::now();
        let mut wait = PROBE_RETRY_FIRST;
        let mut tries = 0u32;
        loop {
            tries += 1;
            match self.probe(target, timeout).await {
                Ok(info) => return Ok(info),
                Err(fault) if started.elapsed() < window => {
                    tracing::debug!(url = %target.url, detail = %fault.detail, "probe before the match failed; trying again");
                    // The last try comes at the window's end.
                    tokio::time::sleep(wait.min(window.saturating_sub(started.elapsed()))).await;
                    wait = (wait * 2).min(Duration::from_secs(1));
                }
                Err(fault) => {
                    return Err(Fault::new(
                        fault.kind,
                        format!(
                            "{} ({tries} tries in {} ms)",
                            fault.detail,
                            started.elapsed().as_millis()
                        ),
                    ));
                }
            }
        }
    }

    /// `POST {url}/move`: the bot's action, and the time it took in milliseconds. `request` comes
    /// without its history, which `history_entries` carries already serialized (all of it, or
    /// in delta mode the entries from `request.history_from` on; see
    /// [`crate::wire::move_request_body`]); built-in bots called in process do not read it.
    /// `signer` signs the seat's requests of this match (see [`MoveSigner`]; a delta request is
    /// signed whole).
    pub async fn ask_move(
        &self,
        target: &Target,
        request: &OutgoingMove<'_>,
        history_entries: &[u8],
        signer: &mut MoveSigner,
        timeout: Duration,
    ) -> (Result<MoveResponse, Fault>, u64) {
        let started = Instant::now();
        if let Some(name) = target.url.strip_prefix(BUILTIN_SCHEME) {
            let parsed = serde_json::from_str::<Value>(request.view).and_then(|view| {
                Ok((
                    view,
                    serde_json::from_str::<Vec<Value>>(request.legal_actions)?,
                ))
            });
            let (view, legal) = match parsed {
                Ok(parsed) => parsed,
                Err(e) => {
                    return (
                        Err(Fault::new(FaultKind::BadJson, e.to_string())),
                        started.elapsed().as_millis() as u64,
                    );
                }
            };
            let answer = if builtin::SEARCHES.contains(&name) {
                // A search takes its budget of CPU: off the async workers.
                let (name, game, match_id) = (
                    name.to_string(),
                    request.game.to_string(),
                    request.match_id.to_string(),
                );
                let (seat, deadline_ms, ismcts_ms) =
                    (request.seat, request.deadline_ms, self.ismcts_ms);
                let state = request.state.map(|s| s.clone_match());
                tokio::task::spawn_blocking(move || {
                    builtin::choose_from(
                        &name,
                        &builtin::Position {
                            game: &game,
                            match_id: &match_id,
                            seat,
                            view: &view,
                            legal_actions: &legal,
                            deadline_ms,
                            ismcts_ms,
                            state: state.as_deref(),
                        },
                    )
                })
                .await
                .unwrap_or_else(|e| Err(format!("the search failed: {e}")))
            } else {
                builtin::choose_from(
                    name,
                    &builtin::Position {
                        game: request.game,
                        match_id: request.match_id,
                        seat: request.seat,
                        view: &view,
                        legal_actions: &legal,
                        deadline_ms: request.deadline_ms,
                        ismcts_ms: self.ismcts_ms,
                        state: request.state,
                    },
                )
            }
            .map_err(|e| Fault::new(FaultKind::BadJson, e));
            return (answer, started.elapsed().as_millis() as u64);
        }
        let body = match crate::wire::move_request_body(request, history_entries) {
            Ok(body) => body,
            Err(e) => return (Err(Fault::new(FaultKind::Transport, e.to_string())), 0),
        };
        let timestamp = unix_seconds();
        let signature = signer.sign(
            &target.signing_secret,
            timestamp,
            &body,
            crate::wire::move_request_prefix_len(request, history_entries),
        );
        let signed = Signed {
            timestamp,
            signature: signature_value(signature),
            // Signed whole: only during the few minutes a rotated secret stays valid.
            previous: target
                .previous_now()
                .map(|previous| signature_value(sign(previous, timestamp, &body))),
        };
        // The bot's time runs from here, as the deadline does (`call_raw`): building and
        // signing the request is the server's time, not the bot's.
        let sent = Instant::now();
        let answer = self
            .call(
                target,
                reqwest::Method::POST,
                "/move",
                bytes::Bytes::from(body),
                signed,
                timeout,
                true,
            )
            .await
            .map(|(answer, _)| answer)
            .map_err(|fault| expected_move(fault, timeout));
        (answer, sent.elapsed().as_millis() as u64)
    }

    /// `POST {url}/{path}` with a notification; failures are logged and ignored.
    pub async fn notify<T: Serialize>(
        &self,
        target: &Target,
        path: &str,
        notice: &T,
        timeout: Duration,
    ) {
        if target.url.starts_with(BUILTIN_SCHEME) {
            return;
        }
        let Ok(body) = serde_json::to_vec(notice) else {
            return;
        };
        let signed = Signed::whole_body(target, &body);
        let result: Result<(serde_json::Value, u16), Fault> = self
            .call_raw(
                target,
                reqwest::Method::POST,
                path,
                bytes::Bytes::from(body),
                signed,
                timeout,
                false,
            )
            .await
            .map(|(_, status)| (serde_json::Value::Null, status));
        if let Err(fault) = result {
            tracing::info!(url = %target.url, path, ?fault.kind, detail = %fault.detail, "bot notification failed (ignored)");
        }
    }

    /// `{method} {url}{path}` with a signed body, its answer parsed as `T` (`retry`: see
    /// [`BotClient::call_raw`]).
    #[allow(clippy::too_many_arguments)]
    async fn call<T: DeserializeOwned>(
        &self,
        target: &Target,
        method: reqwest::Method,
        path: &str,
        body: bytes::Bytes,
        signed: Signed,
        timeout: Duration,
        retry: bool,
    ) -> Result<(T, u16), Fault> {
        let (bytes, status) = self
            .call_raw(target, method, path, body, signed, timeout, retry)
            .await?;
        let value = serde_json::from_slice(&bytes).map_err(|e| {
            Fault::new(
                FaultKind::BadJson,
                format!("the answer is not the expected JSON: {e}"),
            )
            .with_answer(BotAnswer::excerpt(Some(status), &bytes))
        })?;
        Ok((value, status))
    }

    /// `url` parsed and checked against the policy, from the cache when it was checked before.
    fn checked_url(&self, url: &str) -> Result<reqwest::Url, Fault> {
        if let Some(checked) = self.checked_urls.get(url) {
            return Ok(checked.clone());
        }
        let checked = self
            .policy
            .check_url(url)
            .map_err(|e| Fault::new(FaultKind::Transport, e.to_string()))?;
        // A handful of URLs per bot; a long-lived arena whose bots moved many times starts over.
        if self.checked_urls.len() >= CHECKED_URLS_MAX {
            self.checked_urls.clear();
        }
        self.checked_urls.insert(url.to_string(), checked.clone());
        Ok(checked)
    }

    /// One call within `timeout`. With `retry` (move requests), a connection the bot refused or
    /// reset (a bot restarting) is tried again with back-off (20 ms doubling to 250 ms) until
    /// `timeout` runs out: only then is it a `transport` fault.
    #[allow(clippy::too_many_arguments)]
    async fn call_raw(
        &self,
        target: &Target,
        method: reqwest::Method,
        path: &str,
        body: bytes::Bytes,
        signed: Signed,
        timeout: Duration,
        retry: bool,
    ) -> Result<(Vec<u8>, u16), Fault> {
        let url = self.checked_url(&format!("{}{}", target.url.trim_end_matches('/'), path))?;
        let deadline = Instant::now() + timeout;
        let mut wait = RETRY_FIRST;
        let mut refused = 0u32;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let fault = match self
                .exchange(url.clone(), method.clone(), body.clone(), &signed, left)
                .await
            {
                Err(Failure::Refused(fault)) if retry => fault,
                Err(Failure::Refused(fault) | Failure::Other(fault)) => return Err(fault),
                Ok(answer) => return Ok(answer),
            };
            refused += 1;
            let left = deadline.saturating_duration_since(Instant::now());
            tokio::time::sleep(wait.min(left)).await;
            // A try with next to no time left could only time out, and would report the
            // refusals as a timeout: the deadline is reached for a bot that kept refusing.
            if deadline.saturating_duration_since(Instant::now()) < MIN_TRY {
                return Err(Fault::new(
                    FaultKind::Transport,
                    format!(
                        "{} (refused or reset {refused} times, tried again until the deadline of {} ms)",
                        fault.detail,
                        timeout.as_millis()
                    ),
                ));
            }
            wait = (wait * 2).min(RETRY_MAX);
        }
    }

    /// One try of a call, within `timeout`.
    async fn exchange(
        &self,
        url: reqwest::Url,
        method: reqwest::Method,
        body: bytes::Bytes,
        signed: &Signed,
        timeout: Duration,
    ) -> Result<(Vec<u8>, u16), Failure> {
        let mut request = self
            .http
            .request(method, url)
            .header(TIMESTAMP_NAME, HeaderValue::from(signed.timestamp))
            .header(SIGNATURE_NAME, signed.signature.clone());
        if let Some(previous) = &signed.previous {
            request = request.header(PREVIOUS_SIGNATURE_NAME, previous.clone());
        }
        if !body.is_empty() {
            request = request
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .body(body);
        }
        let exchange = async {
            let mut response = request.send().await.map_err(|error| {
                if refused_or_reset(&error) {
                    Failure::Refused(transport(error))
                } else {
                    Failure::Other(transport(error))
                }
            })?;
            let status = response.status();
            if !status.is_success() {
                // The bot's own error body says what went wrong: its start is kept (one byte
                // more tells that it was cut), within the same deadline.
                let mut excerpt = Vec::new();
                while excerpt.len() <= ANSWER_EXCERPT {
                    match response.chunk().await {
                        Ok(Some(chunk)) => excerpt.extend_from_slice(&chunk),
                        _ => break,
                    }
                }
                return Err(Failure::Other(
                    Fault::new(
                        FaultKind::BadStatus,
                        format!("the bot answered HTTP {}", status.as_u16()),
                    )
                    .with_answer(BotAnswer::excerpt(Some(status.as_u16()), &excerpt)),
                ));
            }
            let mut bytes = Vec::new();
            while let Some(chunk) = response
                .chunk()
                .await
                .map_err(|error| Failure::Other(transport(error)))?
            {
                if bytes.len() + chunk.len() > BODY_LIMIT {
                    bytes.extend_from_slice(&chunk);
                    return Err(Failure::Other(
                        Fault::new(
                            FaultKind::BadJson,
                            format!("the answer is larger than {BODY_LIMIT} bytes"),
                        )
                        .with_answer(BotAnswer::excerpt(Some(status.as_u16()), &bytes)),
                    ));
                }
                bytes.extend_from_slice(&chunk);
            }
            Ok((bytes, status.as_u16()))
        };
        match tokio::time::timeout(timeout, exchange).await {
            Ok(result) => result,
            Err(_) => Err(Failure::Other(Fault::new(
                FaultKind::Timeout,
                format!("no answer within {} ms", timeout.as_millis()),
            ))),
        }
    }
}

/// Why one try of a call failed.
enum Failure {
    /// The bot refused or reset the connection before answering: it may be restarting.
    Refused(Fault),
    /// Any other failure.
    Other(Fault),
}

/// A connection refused, reset or aborted, or closed by the bot before its answer began: what a
/// bot restarting looks like from here.
fn refused_or_reset(error: &reqwest::Error) -> bool {
    use std::io::ErrorKind;
    let mut source = std::error::Error::source(error);
    while let Some(inner) = source {
        if let Some(io) = inner.downcast_ref::<std::io::Error>()
            && matches!(
                io.kind(),
                ErrorKind::ConnectionRefused
                    | ErrorKind::ConnectionReset
                    | ErrorKind::ConnectionAborted
                    | ErrorKind::BrokenPipe
            )
        {
            return true;
        }
        if inner
            .downcast_ref::<hyper::Error>()
            .is_some_and(hyper::Error::is_incomplete_message)
        {
            return true;
        }
        source = inner.source();
    }
    false
}

/// A request's signature headers: the unix seconds it was signed at, the signature, and the
/// signature with a rotated secret while it is still valid. The values are made once per call
/// (a retry sends the same ones).
struct Signed {
    timestamp: u64,
    signature: HeaderValue,
    previous: Option<HeaderValue>,
}

// The signature headers' names, made once: given as text, each request would parse them again
// (and allocate them: they are not standard headers). HTTP/1 sends names in lower case either way.
const TIMESTAMP_NAME: HeaderName = HeaderName::from_static("x-cardroom-timestamp");
const SIGNATURE_NAME: HeaderName = HeaderName::from_static("x-cardroom-signature");
const PREVIOUS_SIGNATURE_NAME: HeaderName =
    HeaderName::from_static("x-cardroom-signature-previous");

/// A signature as a header value. Hex and `sha256=` only: always a valid value, taken without a
/// copy.
fn signature_value(signature: String) -> HeaderValue {
    HeaderValue::try_from(signature)
        .unwrap_or_else(|_| unreachable!("a signature is `sha256=` and hex digits"))
}

impl Signed {
    /// `body` signed whole for `target`, now.
    fn whole_body(target: &Target, body: &[u8]) -> Signed {
        let timestamp = unix_seconds();
        Signed {
            timestamp,
            signature: signature_value(sign(&target.signing_secret, timestamp, body)),
            previous: target
                .previous_now()
                .map(|previous| signature_value(sign(previous, timestamp, body))),
        }
    }
}

fn transport(error: reqwest::Error) -> Fault {
    let mut detail = error.to_string();
    let mut source = std::error::Error::source(&error);
    while let Some(inner) = source {
        detail.push_str(": ");
        detail.push_str(&inner.to_string());
        source = inner.source();
    }
    Fault::new(FaultKind::Transport, detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checked_urls_are_cached_and_refusals_are_not() {
        let client = BotClient::new(AddressPolicy::public()).expect("client");
        let url = "http://bots.example.org:8080/bot/move";
        let first = client
            .checked_url(url)
            .expect("a host name (checked when resolved)");
        assert_eq!(client.checked_url(url).expect("cached"), first);
        assert_eq!(first.as_str(), url);
        assert_eq!(client.checked_urls.len(), 1);
        // A URL the policy refuses is refused every time and never cached.
        for _ in 0..2 {
            let fault = client
                .checked_url("http://127.0.0.1:9/move")
                .expect_err("loopback is refused by the public policy");
            assert_eq!(fault.kind, FaultKind::Transport);
        }
        assert_eq!(client.checked_urls.len(), 1);
    }

    #[test]
    fn a_seats_signatures_reuse_its_history_and_equal_whole_body_signatures() {
        use crate::wire::{OutgoingMove, move_request_body, move_request_prefix_len};
        let legal = r#"[{"type":"draw"}]"#;
        fn request<'a>(
            view: &'a str,
            legal: &'a str,
            history_from: Option<usize>,
        ) -> OutgoingMove<'a> {
            OutgoingMove {
                match_id: "m_1",
                game: "twenty_two",
                seat: 0,
                view,
                legal_actions: legal,
                deadline_ms: 1000,
                time_left_ms: None,
                history_from,
                info: Some("i2.m_1.0.0.AAAAAAAAAAAAAAAAAAAAAA"),
                state: None,
            }
        }
        let mut signer = MoveSigner::default();
        let mut history = Vec::new();
        // Moves within one second, then the second changes, then the history is empty again
        // (another match's first move would have its own signer; a shorter prefix starts over);
        // moves 6 and 7 are delta requests (a bot switched to delta mode), 8 full again.
        let moments = [7, 7, 7, 8, 8, 9, 9, 9, 9];
        for (move_number, timestamp) in moments.into_iter().enumerate() {
            if move_number == 5 {
                history.clear();
            } else if move_number > 0 {
                history.extend_from_slice(br#",{"seat":1,"events":[{"type":"draw"}]}"#);
            } else {
                history.extend_from_slice(br#"{"seat":0,"events":[]}"#);
            }
            let view = format!(r#"{{"move":{move_number}}}"#);
            let (from, entries) = match move_number {
                6 | 7 => (Some(move_number), &br#"{"seat":1,"events":[]}"#[..]),
                _ => (None, &history[..]),
            };
            let outgoing = request(&view, legal, from);
            let body = move_request_body(&outgoing, entries).expect("body");
            assert_eq!(
                signer.sign(
                    "secret",
                    timestamp,
                    &body,
                    move_request_prefix_len(&outgoing, entries)
                ),
                sign("secret", timestamp, &body),
                "move {move_number}"
            );
        }
    }

    #[test]
    fn the_signature_header_names_are_the_protocols() {
        use crate::wire::{PREVIOUS_SIGNATURE_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER};
        for (name, documented) in [
            (TIMESTAMP_NAME, TIMESTAMP_HEADER),
            (SIGNATURE_NAME, SIGNATURE_HEADER),
            (PREVIOUS_SIGNATURE_NAME, PREVIOUS_SIGNATURE_HEADER),
        ] {
            assert_eq!(
                name,
                HeaderName::try_from(documented).expect("a header name")
            );
        }
        let signature = sign("secret", 1_700_000_000, b"{}");
        assert_eq!(signature_value(signature.clone()), signature.as_str());
        assert_eq!(HeaderValue::from(1_700_000_000u64), "1700000000");
    }

    #[test]
    fn signature_matches_a_hand_computed_hmac() {
        // HMAC-SHA256("key", "The quick brown fox jumps over the lazy dog") is a published
        // test vector; here the message is "1700000000." + body.
        let body = br#"{"a":1}"#;
        let signed = sign("secret", 1_700_000_000, body);
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(b"secret").expect("key");
        mac.update(b"1700000000.{\"a\":1}");
        assert_eq!(
            signed,
            format!("sha256={}", hex(&mac.finalize().into_bytes()))
        );
        let mut known = <Hmac<Sha256> as KeyInit>::new_from_slice(b"key").expect("key");
        known.update(b"The quick brown fox jumps over the lazy dog");
        assert_eq!(
            hex(&known.finalize().into_bytes()),
            "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8"
        );
    }
}
