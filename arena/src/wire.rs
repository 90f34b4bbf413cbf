//! The bot protocol: what the arena sends to a bot and what a bot answers. These types are the
//! source of `openapi/bot-protocol.json` ([`bot_protocol_openapi`]) and are used both by the
//! arena's client and by the built-in bots, so both sides speak exactly the same protocol.
//!
//! Every request to a bot carries `X-Cardroom-Timestamp` (unix seconds) and
//! `X-Cardroom-Signature: sha256=<hex HMAC-SHA256(signing_secret, timestamp + "." + raw body)>`.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use utoipa::{OpenApi, ToSchema};

/// Header carrying the unix time (seconds) at which the arena signed the request.
pub const TIMESTAMP_HEADER: &str = "X-Cardroom-Timestamp";
/// Header carrying `sha256=<hex HMAC-SHA256(signing_secret, timestamp + "." + body)>`.
pub const SIGNATURE_HEADER: &str = "X-Cardroom-Signature";
/// Header carrying the same signature with the secret a rotation replaced, for the 10 minutes
/// that secret stays valid (`POST /v1/bots/{id}/secret`): a bot accepts a request whose
/// `X-Cardroom-Signature` or `X-Cardroom-Signature-Previous` verifies with its own secret.
pub const PREVIOUS_SIGNATURE_HEADER: &str = "X-Cardroom-Signature-Previous";

/// A bot's answer to `GET {url}/`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"name": "cautious", "author": "ada", "version": "1.0.0", "games": ["twenty_two"]}))]
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

impl BotInfo {
    /// The report as shown: name, author and version made printable text of at most 64
    /// characters ([`crate::text::shown`]; a bidi override or markup in a report never reaches a
    /// page).
    pub fn shown(self) -> Self {
        Self {
            name: crate::text::shown(&self.name),
            author: crate::text::shown(&self.author),
            version: crate::text::shown(&self.version),
            games: self.games,
        }
    }
}

/// A time bank per seat (Fischer clock, as Lichess and Kaggle run them): each seat starts with
/// `initial_ms`; the time a bot takes to answer a move is taken from its bank, and `increment_ms`
/// is added after every move it answers in time. A seat whose bank runs out is *flagged*: the
/// arena plays its first legal action for the rest of the match without asking it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"initial_ms": 60000, "increment_ms": 500}))]
pub struct Clock {
    /// Each seat's bank at the start of the match, in milliseconds.
    #[schema(minimum = 100, maximum = 3_600_000)]
    pub initial_ms: u64,
    /// Milliseconds added to a seat's bank after each move it answered in time.
    #[schema(maximum = 60_000)]
    pub increment_ms: u64,
}

/// The per-move deadlines a match may have, in milliseconds.
pub const DEADLINE_MS: std::ops::RangeInclusive<u64> = 10..=60_000;

impl Clock {
    /// Whether the banks are in the documented ranges (the schema's `minimum`/`maximum`).
    pub fn check(&self) -> Result<(), String> {
        if !(100..=3_600_000).contains(&self.initial_ms) || self.increment_ms > 60_000 {
            return Err("`clock.initial_ms` must be between 100 and 3600000 and `clock.increment_ms` at most 60000".into());
        }
        Ok(())
    }
}

/// A previous move in the match, as sent in `history`: who acted, the public events it produced,
/// and the action itself only when the receiving seat made it (another seat's action may hide a
/// card, such as a 22 discard; the public events say what everyone saw).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct HistoryEntry {
    /// The seat that acted.
    pub seat: usize,
    /// The action it played: present for the receiving seat's own moves only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub action: Option<Value>,
    /// The public events the move produced.
    #[schema(value_type = Vec<Object>)]
    pub events: Vec<Value>,
}

/// What a bot's move requests carry of the match's history, chosen at registration
/// (`"history"` in `POST /v1/bots` and `PATCH /v1/bots/{id}`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum HistoryMode {
    /// Every move so far, in every request.
    #[default]
    Full,
    /// `history_from` and the moves since the seat's previous request in the match (the whole
    /// history, from 0, on the first request of a run: the match's start, or a restart).
    Delta,
}

impl HistoryMode {
    /// The stored and wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            HistoryMode::Full => "full",
            HistoryMode::Delta => "delta",
        }
    }

    /// The mode of a stored name (`full` for anything else).
    pub fn parse(name: &str) -> HistoryMode {
        match name {
            "delta" => HistoryMode::Delta,
            _ => HistoryMode::Full,
        }
    }
}

/// `POST {url}/move`: the arena asks the bot for its action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "match": "m_3f2a9c1d0b7e4a15",
    "game": "twenty_two",
    "seat": 1,
    "view": {"hand": ["7H", "QS"], "trick": [{"seat": 0, "cards": ["9H"]}]},
    "legal_actions": [{"type": "play", "cards": ["7H"]}, {"type": "play", "cards": ["QS"]}],
    "deadline_ms": 1000,
    "time_left_ms": 58210,
    "history": [{"seat": 0, "events": [{"type": "play", "seat": 0, "cards": ["9H"]}]}],
    "info": "i2.m_3f2a9c1d0b7e4a15.1.42.q3VxZk9sT2dCbWxaR3RwUQ"
}))]
pub struct MoveRequest {
    /// The match id.
    #[serde(rename = "match")]
    pub match_id: String,
    /// The game id.
    pub game: String,
    /// The seat the bot plays in this match (0-based).
    pub seat: usize,
    /// The seat's view: what this seat may know, and nothing else.
    #[schema(value_type = Object)]
    pub view: Value,
    /// Every legal action, in the engine's canonical order; answer one of them.
    #[schema(value_type = Vec<Object>)]
    pub legal_actions: Vec<Value>,
    /// Time the bot has to answer this request, in milliseconds, counted by the arena: the
    /// match's per-move deadline, or the seat's time bank if that is shorter.
    #[schema(maximum = 60_000)]
    pub deadline_ms: u64,
    /// The seat's time bank before this move, in milliseconds (matches with a `clock` only):
    /// the time this move takes is taken from it, and a seat whose bank runs out is flagged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(maximum = 9_007_199_254_740_991_u64)]
    pub time_left_ms: Option<u64>,
    /// Every move so far, oldest first, as this seat may know it; for a bot registered with
    /// `"history": "delta"`, only the moves from index `history_from` on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history: Option<Vec<HistoryEntry>>,
    /// Bots registered with `"history": "delta"` only: the index in the match's history of
    /// `history`'s first entry. The full history is the one the bot holds cut to `history_from`
    /// entries, then `history` appended: the moves since the seat's previous request, or the
    /// whole history (`history_from` 0) on the first request of a run (the match's start, or
    /// the arena's restart). A request the bot did not answer is sent again from the same point.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history_from: Option<usize>,
    /// The position, for this seat of this match: an opaque token (`i2.<match>.<seat>.<moves
    /// played>.<tag>`, about 50 bytes) that nobody can forge or change, which
    /// `POST /v1/games/{game}/determinize` and `/rollouts` accept in place of a state
    /// (`{"info": ...}`): the arena rebuilds the position from the match's stored moves, and
    /// they answer from what this seat may know, and nothing more.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub info: Option<String>,
    /// The full state (transparent, as `/v1/games/{game}/new` and `/apply` return it): read only
    /// by the built-in `ismcts` bot, which searches over its determinizations. The arena never
    /// sends it to a bot (it would show the hidden cards).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub state: Option<Value>,
}

/// The bot's answer to `POST {url}/move`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"action": {"type": "play", "cards": ["7H"]}, "comment": "shedding the low heart"}))]
pub struct MoveResponse {
    /// One of the legal actions sent, exactly as sent.
    #[schema(value_type = Object)]
    pub action: Value,
    /// An optional comment, kept in the match log.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

/// One seat of a match, as told to bots.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SeatInfo {
    /// Seat number.
    pub seat: usize,
    /// Bot id.
    pub bot: String,
    /// Bot name.
    pub name: String,
}

/// `POST {url}/start`: a match the bot plays in begins (notification; the answer is ignored).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct StartNotice {
    /// The match id.
    #[serde(rename = "match")]
    pub match_id: String,
    /// The game id.
    pub game: String,
    /// The bot's seat.
    pub seat: usize,
    /// Every seat and its bot.
    pub seats: Vec<SeatInfo>,
    /// The effective options.
    pub options: Map<String, Value>,
    /// Per-move deadline in milliseconds.
    #[schema(minimum = 10, maximum = 60_000)]
    pub deadline_ms: u64,
    /// Each seat's time bank, if the match has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clock>,
}

/// `POST {url}/end`: a match the bot played has ended (notification; the answer is ignored).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct EndNotice {
    /// The match id.
    #[serde(rename = "match")]
    pub match_id: String,
    /// The game id.
    pub game: String,
    /// The bot's seat.
    pub seat: usize,
    /// The match result: `ranking` (groups of seats, best first), `scores`, `disqualified`,
    /// `flagged` (seats whose time bank ran out), `faults`.
    pub result: Map<String, Value>,
}

/// `match_start` on a stream bot's connection: the fields of [`StartNotice`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct StreamMatchStart {
    /// The match id (also in `match`).
    pub match_id: String,
    /// The notice.
    #[serde(flatten)]
    pub notice: StartNotice,
}

/// `move` on a stream bot's connection: the fields of [`MoveRequest`], and what the answer
/// names. Answer with `POST /v1/bot/matches/{match_id}/move` before `deadline_ms` (counted from
/// the moment the line was written).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct StreamMove {
    /// The match id (also in `match`).
    pub match_id: String,
    /// This request's id: the answer names it (an answer to an older one is 409 `stale_request`).
    pub request_id: String,
    /// The move request. On the stream its `history_from` is always there: the moves since the
    /// seat's previous request in the match, and the whole history (`history_from` 0) on the
    /// first request of a run and on the pending move a (re)connection receives.
    #[serde(flatten)]
    pub request: MoveRequest,
}

/// `match_end` on a stream bot's connection: the fields of [`EndNotice`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct StreamMatchEnd {
    /// The match id (also in `match`).
    pub match_id: String,
    /// The notice.
    #[serde(flatten)]
    pub notice: EndNotice,
}

/// One line of `GET /v1/bot/stream` (`application/x-ndjson`); an empty line is a keep-alive.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum StreamLine {
    /// A match the bot plays begins.
    MatchStart(StreamMatchStart),
    /// One of the bot's seats must act.
    Move(StreamMove),
    /// A match the bot played has ended.
    MatchEnd(StreamMatchEnd),
    /// The arena process holding this connection is stopping (a deploy): the last line before
    /// the connection closes. Connect again (the next process, or another one behind the same
    /// address); the bot's seats wait for it within the reconnect grace, no fault charged.
    ServerRestarting(StreamServerRestarting),
}

/// `server_restarting` on a stream bot's connection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"type": "server_restarting", "detail": "this arena process is stopping (a deploy); connect again: your matches wait for you", "reconnect_grace_ms": 10000}))]
pub struct StreamServerRestarting {
    /// What happens, in words.
    pub detail: String,
    /// How long each of the bot's seats waits for it to connect again, per match, in
    /// milliseconds (`--reconnect-grace-ms`): its moves' time stands still meanwhile.
    pub reconnect_grace_ms: u64,
}

/// `POST /v1/bot/matches/{match_id}/move`: a stream bot's answer to a `move` line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"request_id": "r_5c1e0f9a7b3d2e64", "action": {"type": "play", "cards": ["7H"]}, "comment": "shedding the low heart"}))]
pub struct StreamAnswer {
    /// The `request_id` of the `move` line answered.
    pub request_id: String,
    /// One of the line's `legal_actions`, exactly as sent.
    #[schema(value_type = Object)]
    pub action: Value,
    /// An optional comment, kept in the match log.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

/// A move request as the arena writes it: the fields of [`MoveRequest`] borrowed, the view and
/// the legal actions already serialized from the engine's typed values (no `Value` tree per
/// move), and they and the history spliced in by [`move_request_body`].
#[derive(Debug, Serialize)]
pub struct OutgoingMove<'a> {
    /// See [`MoveRequest::match_id`].
    #[serde(rename = "match")]
    pub match_id: &'a str,
    /// See [`MoveRequest::game`].
    pub game: &'a str,
    /// See [`MoveRequest::seat`].
    pub seat: usize,
    /// See [`MoveRequest::view`]: a JSON object, as the engine serialized it
    /// (`Match::view_json`). Spliced into the body as it is: parsing it again to check it would
    /// cost as much as writing it.
    #[serde(skip)]
    pub view: &'a str,
    /// See [`MoveRequest::legal_actions`]: a JSON array, as the engine serialized it
    /// (`Match::legal_actions_json`), spliced into the body like the view.
    #[serde(skip)]
    pub legal_actions: &'a str,
    /// See [`MoveRequest::deadline_ms`].
    pub deadline_ms: u64,
    /// See [`MoveRequest::time_left_ms`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_left_ms: Option<u64>,
    /// See [`MoveRequest::history_from`]: set in delta mode, where the history given to
    /// [`move_request_body`] holds only the entries from this index on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub history_from: Option<usize>,
    /// See [`MoveRequest::info`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub info: Option<&'a str>,
    /// The match's state, for the built-in bots called in process (never serialized: a URL bot
    /// sees only its view).
    #[serde(skip)]
    pub state: Option<&'a (dyn engine::Match + 'static)>,
}

/// The JSON body of a move request, its view and its history already serialized:
/// `history_entries` is the entries' JSON joined by commas. The arena keeps each seat's history
/// serialized and appends one entry per move, so a request costs no re-serialization of the
/// whole match. The history comes first: the body's first [`move_request_prefix_len`] bytes only
/// grow from one move of a seat to its next, which lets the signature reuse its hash of them
/// ([`crate::client::MoveSigner`]).
pub fn move_request_body(
    request: &OutgoingMove<'_>,
    history_entries: &[u8],
) -> serde_json::Result<Vec<u8>> {
    let mut body = Vec::with_capacity(
        request.view.len() + request.legal_actions.len() + history_entries.len() + 256,
    );
    body.extend_from_slice(HISTORY_OPENING);
    body.extend_from_slice(history_entries);
    body.extend_from_slice(b"],\"view\":");
    if request.history_from.is_some_and(|from| from > 0) {
        // A delta request's view leaves out the match's options: they never change, and the
        // start notice and the run's first request carry them (347 of a twenty_two view's
        // 1,200 bytes).
        write_without_field(&mut body, request.view, "options");
    } else {
        body.extend_from_slice(request.view.as_bytes());
    }
    body.extend_from_slice(b",\"legal_actions\":");
    body.extend_from_slice(request.legal_actions.as_bytes());
    body.push(b',');
    let fields = body.len();
    serde_json::to_writer(&mut body, request)?;
    // The other fields without their object's opening brace.
    body.remove(fields);
    Ok(body)
}

/// The JSON object `object` written to `out` without its top-level `field`, its other fields in
/// their order and untouched (the object as it is if it is not an object of plain keys).
fn write_without_field(out: &mut Vec<u8>, object: &str, field: &str) {
    struct Fields<'a>(Vec<(&'a str, &'a RawValue)>);
    impl<'de> Deserialize<'de> for Fields<'de> {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            struct Visitor;
            impl<'de> serde::de::Visitor<'de> for Visitor {
                type Value = Fields<'de>;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("a JSON object")
                }
                fn visit_map<A: serde::de::MapAccess<'de>>(
                    self,
                    mut map: A,
                ) -> Result<Fields<'de>, A::Error> {
                    let mut fields = Vec::new();
                    while let Some(entry) = map.next_entry()? {
                        fields.push(entry);
                    }
                    Ok(Fields(fields))
                }
            }
            deserializer.deserialize_map(Visitor)
        }
    }
    let Ok(Fields(fields)) = serde_json::from_str::<Fields>(object) else {
        out.extend_from_slice(object.as_bytes());
        return;
    };
    out.push(b'{');
    let mut first = true;
    for (key, value) in fields.into_iter().filter(|(key, _)| *key != field) {
        if !first {
            out.push(b',');
        }
        first = false;
        // A borrowed key has no escapes: written as it came.
        out.push(b'"');
        out.extend_from_slice(key.as_bytes());
        out.extend_from_slice(b"\":");
        out.extend_from_slice(value.get().as_bytes());
    }
    out.push(b'}');
}

/// How a move request's body opens: its history comes first.
const HISTORY_OPENING: &[u8] = b"{\"history\":[";

/// The length of a move request body's part that a seat's next body extends (see
/// [`move_request_body`]): the whole history in full mode; nothing in delta mode, where the
/// history is cut anew for each request (and small).
pub fn move_request_prefix_len(request: &OutgoingMove<'_>, history_entries: &[u8]) -> usize {
    if request.history_from.is_some() {
        0
    } else {
        HISTORY_OPENING.len() + history_entries.len()
    }
}

impl MoveRequest {
    /// Whether the numbers are in their documented ranges (what the arena itself sends).
    pub fn check(&self) -> Result<(), String> {
        if self.deadline_ms > *DEADLINE_MS.end() {
            return Err(format!("`deadline_ms` is at most {}", DEADLINE_MS.end()));
        }
        if self.time_left_ms.is_some_and(|t| t > engine::rng::MAX_SEED) {
            return Err("`time_left_ms` is at most 2^53 - 1".into());
        }
        Ok(())
    }
}

impl StartNotice {
    /// Whether the numbers are in their documented ranges (what the arena itself sends).
    pub fn check(&self) -> Result<(), String> {
        if !DEADLINE_MS.contains(&self.deadline_ms) {
            return Err(format!(
                "`deadline_ms` must be between {} and {}",
                DEADLINE_MS.start(),
                DEADLINE_MS.end()
            ));
        }
        self.clock.as_ref().map_or(Ok(()), Clock::check)
    }
}

/// The bot protocol as an OpenAPI document: the endpoints a bot serves.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "cardroom bot protocol",
        version = "1",
        description = "What a bot serves so the cardroom arena can play it. Every request carries \
`X-Cardroom-Timestamp` (unix seconds) and `X-Cardroom-Signature: sha256=<hex HMAC-SHA256(signing_secret, \
timestamp + \".\" + raw body)>`; the signing secret is returned once when the bot is registered. For 10 \
minutes after the owner rotates the secret (`POST /v1/bots/{id}/secret`), requests also carry \
`X-Cardroom-Signature-Previous`, the same signature made with the replaced secret: accept a request when either \
header verifies with your secret. A bot must \
answer `/move` within `deadline_ms`; in a match with a `clock` each seat also has a time bank \
(`time_left_ms` in every move request): the time each answer takes is taken from it, `increment_ms` is added \
after each move, and a seat whose bank runs out is flagged (its first legal action is played for the rest of \
the match). A timeout, connection error, non-2xx status, malformed JSON or an illegal \
action is a fault: the arena plays the seat's first legal action instead, and a bot with 3 faults in a match \
is disqualified (ranked last). A bot registered with `\"transport\": \"stream\"` serves nothing: it \
connects out to the arena's `GET /v1/bot/stream` and answers each `move` line with \
`POST /v1/bot/matches/{match_id}/move`, under the same deadlines and faults (both in the arena's own document, \
`openapi/cardroom.json`: `StreamLine`, `StreamAnswer`); an arena process that stops for a deploy ends the stream \
with a `server_restarting` line: connect again, the bot's seats wait within the reconnect grace. See docs/bots.md."
    ),
    paths(info, make_move, start, end),
    components(schemas(
        BotInfo,
        MoveRequest,
        MoveResponse,
        HistoryEntry,
        StartNotice,
        EndNotice,
        SeatInfo,
        Clock
    ))
)]
pub struct BotProtocolDoc;

/// The bot-protocol OpenAPI document (`openapi/bot-protocol.json`).
pub fn bot_protocol_openapi() -> utoipa::openapi::OpenApi {
    let mut doc = BotProtocolDoc::openapi();
    // Paths are relative to the bot's base URL, the one it is registered with.
    doc.servers = Some(vec![
        utoipa::openapi::server::ServerBuilder::new()
            .url("/")
            .description(Some(
                "The bot's base URL, as registered with `POST /v1/bots` (paths are relative to it)",
            ))
            .build(),
    ]);
    // Requests are signed (the `X-Cardroom-*` headers), not authenticated by a scheme.
    doc.security = Some(Vec::new());
    doc
}

/// Describe the bot: the arena probes this at registration and when a paused bot is retried.
#[utoipa::path(
    get,
    path = "/",
    tag = "bot",
    params(
        ("X-Cardroom-Timestamp" = String, Header, description = "Unix seconds at signing"),
        ("X-Cardroom-Signature" = String, Header, description = "`sha256=<hex HMAC>` of `timestamp + \".\" + body` (empty body)"),
        ("X-Cardroom-Signature-Previous" = Option<String>, Header, description = "The same signature made with the secret a rotation replaced, sent for 10 minutes after `POST /v1/bots/{id}/secret`"),
    ),
    responses((status = 200, description = "The bot's identity and games", body = BotInfo), (status = 401, description = "The signature does not verify or its timestamp is stale: a bot that checks signatures (docs/bots.md) refuses the request; the arena records a `bad_status` fault"))
)]
#[allow(dead_code)] // Documentation only: the bot implements this endpoint.
fn info() {}

/// Choose an action: answer one of `legal_actions` before `deadline_ms`.
#[utoipa::path(
    post,
    path = "/move",
    tag = "bot",
    params(
        ("X-Cardroom-Timestamp" = String, Header, description = "Unix seconds at signing"),
        ("X-Cardroom-Signature" = String, Header, description = "`sha256=<hex HMAC>` of `timestamp + \".\" + body`"),
        ("X-Cardroom-Signature-Previous" = Option<String>, Header, description = "The same signature made with the secret a rotation replaced, sent for 10 minutes after `POST /v1/bots/{id}/secret`"),
    ),
    request_body = MoveRequest,
    responses((status = 200, description = "The chosen action", body = MoveResponse), (status = 401, description = "The signature does not verify or its timestamp is stale: a bot that checks signatures (docs/bots.md) refuses the request; the arena records a `bad_status` fault"))
)]
#[allow(dead_code)] // Documentation only: the bot implements this endpoint.
fn make_move() {}

/// A match begins (optional; failures are logged and ignored).
#[utoipa::path(
    post,
    path = "/start",
    tag = "bot",
    params(
        ("X-Cardroom-Timestamp" = String, Header, description = "Unix seconds at signing"),
        ("X-Cardroom-Signature" = String, Header, description = "`sha256=<hex HMAC>` of `timestamp + \".\" + body`"),
        ("X-Cardroom-Signature-Previous" = Option<String>, Header, description = "The same signature made with the secret a rotation replaced, sent for 10 minutes after `POST /v1/bots/{id}/secret`"),
    ),
    request_body = StartNotice,
    responses((status = 200, description = "Acknowledged (any 2xx; the body is ignored)"), (status = 401, description = "The signature does not verify or its timestamp is stale: a bot that checks signatures (docs/bots.md) refuses the request; the arena records a `bad_status` fault"))
)]
#[allow(dead_code)] // Documentation only: the bot implements this endpoint.
fn start() {}

/// A match ended (optional; failures are logged and ignored).
#[utoipa::path(
    post,
    path = "/end",
    tag = "bot",
    params(
        ("X-Cardroom-Timestamp" = String, Header, description = "Unix seconds at signing"),
        ("X-Cardroom-Signature" = String, Header, description = "`sha256=<hex HMAC>` of `timestamp + \".\" + body`"),
        ("X-Cardroom-Signature-Previous" = Option<String>, Header, description = "The same signature made with the secret a rotation replaced, sent for 10 minutes after `POST /v1/bots/{id}/secret`"),
    ),
    request_body = EndNotice,
    responses((status = 200, description = "Acknowledged (any 2xx; the body is ignored)"), (status = 401, description = "The signature does not verify or its timestamp is stale: a bot that checks signatures (docs/bots.md) refuses the request; the arena records a `bad_status` fault"))
)]
#[allow(dead_code)] // Documentation only: the bot implements this endpoint.
fn end() {}
