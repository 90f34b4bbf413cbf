//! Request and response bodies of the arena's HTTP API (`/v1/bots`, `/v1/matches`,
//! `/v1/leaderboards`), with their OpenAPI schemas.

use crate::client::{BotAnswer, Fault, FaultKind};
use crate::result::MatchResult;
use crate::store::{AbortReason, Creator, CreatorKind, MatchStatus, PauseReason, Transport};
use crate::wire::{Clock, HistoryMode};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

mod leaderboards;
pub use leaderboards::{Leaderboard, LeaderboardEntry, LeaderboardKind, LeaderboardQuery};

/// A time stored as unix milliseconds, as every timestamp of the API shows it: RFC 3339 in UTC
/// with milliseconds, e.g. `2026-11-23T18:50:28.123Z`.
pub fn rfc3339(unix_ms: i64) -> String {
    let time = time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(unix_ms) * 1_000_000)
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    let format = time::macros::format_description!(
        "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z"
    );
    time.format(&format)
        .unwrap_or_else(|_| "1970-01-01T00:00:00.000Z".to_string())
}

/// `POST /v1/bots`: register a bot.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "cautious", "url": "https://bots.example.com/cautious", "games": ["twenty_two"]}))]
pub struct RegisterBot {
    /// Display name (1 to 64 characters), unique among bots (409 `bot_name_taken` otherwise);
    /// matches may name the bot by it.
    pub name: String,
    /// Base URL: the arena calls `GET {url}/` and `POST {url}/move`. Required with the `url`
    /// transport; absent with `stream`.
    #[serde(default)]
    pub url: String,
    /// Game ids the bot plays here (each must be in the bot's own `games`).
    pub games: Vec<String>,
    /// How the arena reaches the bot: `url` (default: it calls the bot's URL) or `stream` (the
    /// bot connects out to `GET /v1/bot/stream` with its token and answers with
    /// `POST /v1/bot/matches/{match_id}/move`).
    #[serde(default)]
    pub transport: Transport,
    /// What its move requests carry of the match's history: `full` (every move so far, the
    /// default) or `delta` (`history_from` and the moves since the seat's previous request;
    /// docs/bots.md).
    #[serde(default)]
    pub history: HistoryMode,
    /// Whether anyone may seat the bot in matches, tournaments and tables (default false: only
    /// the ladder, the owner's token and the admin may; anyone else gets 403
    /// `consent_required`).
    #[serde(default)]
    pub open_to_challenges: bool,
}

/// `PATCH /v1/bots/{id}`: change a bot (owner only). The bot is probed again.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateBot {
    /// New display name.
    #[serde(default)]
    pub name: Option<String>,
    /// New base URL.
    #[serde(default)]
    pub url: Option<String>,
    /// New game list.
    #[serde(default)]
    pub games: Option<Vec<String>>,
    /// New history mode (`full` or `delta`); running matches take it up within 2 seconds, with
    /// the whole history first.
    #[serde(default)]
    pub history: Option<HistoryMode>,
    /// The version a stream bot runs (1 to 64 printable characters), shown on the seats of its
    /// later matches; a URL bot reports its own at `GET /`.
    #[serde(default)]
    pub version: Option<String>,
    /// Whether anyone may seat the bot (see `POST /v1/bots`).
    #[serde(default)]
    pub open_to_challenges: Option<bool>,
    /// Admin token only: pause the bot from the ladder (`true`, `pause_reason` `moderated`) or
    /// return it (`false`).
    #[serde(default)]
    pub paused: Option<bool>,
}

/// A bot's rating in one game id at one table size.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GameRating {
    /// Game id.
    pub game: String,
    /// Table size (number of players): each has its own rating and leaderboard.
    pub players: usize,
    /// Estimated skill (Weng-Lin mu).
    pub mu: f64,
    /// Uncertainty (sigma).
    pub sigma: f64,
    /// Conservative value `mu - 3 sigma`, used for ranking.
    pub display: f64,
    /// Ranked matches played.
    pub played: u64,
    /// The last ranked match.
    pub last_match: Option<String>,
}

impl From<&crate::store::RatingRecord> for GameRating {
    fn from(r: &crate::store::RatingRecord) -> Self {
        GameRating {
            game: r.game.clone(),
            players: r.players,
            mu: r.rating.mu,
            sigma: r.rating.sigma,
            display: r.rating.display(),
            played: r.played,
            last_match: r.last_match.clone(),
        }
    }
}

/// Public information about a bot.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct BotView {
    /// Bot id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Author, as the bot reports it.
    pub author: String,
    /// Version, as the bot reports it.
    pub version: String,
    /// Game ids it plays here.
    pub games: Vec<String>,
    /// A bot served by the arena itself.
    pub builtin: bool,
    /// How the arena reaches it: `url` (it calls the bot) or `stream` (the bot connects out).
    pub transport: Transport,
    /// What its move requests carry of the match's history (`full` or `delta`).
    pub history: HistoryMode,
    /// Anyone may seat it (built-in bots always); otherwise only the ladder, its owner's token
    /// and the admin.
    pub open_to_challenges: bool,
    /// A stream bot: whether it is connected now (absent for a bot the arena calls).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connected: Option<bool>,
    /// Paused from the ladder after repeated failures, until it answers its probe and then plays
    /// an unranked trial match against a built-in bot without a fault (or by the admin, until
    /// the admin returns it).
    pub paused: bool,
    /// Why it is paused: `unreachable` (its probes failed for the pause window), `disqualified`
    /// (disqualified in its matches for the pause window), `trial_faulted` (it faulted in its
    /// trial match) or `moderated` (the admin paused it); absent while it is not paused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pause_reason: Option<PauseReason>,
    /// The trial match a paused bot is playing to return to the ladder, while it plays it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trial_match: Option<String>,
    /// Registration time (RFC 3339).
    #[schema(format = DateTime, example = "2026-11-23T18:50:28.123Z")]
    pub created_at: String,
    /// Ratings per game.
    pub ratings: Vec<GameRating>,
    /// The most recent matches (only on `GET /v1/bots/{id}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recent_matches: Option<Vec<MatchSummary>>,
}

/// The answer to a registration: the bot, and its secrets, shown this once.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RegisteredBot {
    /// Bot id.
    pub id: String,
    /// The registered bot.
    pub bot: BotView,
    /// The base URL (absent for a stream bot).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Owner token: send it as `Authorization: Bearer <token>` to update or delete the bot; a
    /// stream bot also connects and answers with it.
    /// Only its hash is stored; it is shown this once.
    pub token: String,
    /// Key of the `X-Cardroom-Signature` HMAC on every request the arena sends to the bot.
    pub signing_secret: String,
}

/// `GET /v1/bots`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct BotList {
    /// Registered bots, in the order they registered (the built-in bots first).
    pub bots: Vec<BotView>,
    /// The `cursor` of the next page; `null` on the last page.
    pub next_cursor: Option<String>,
}

/// Paging and filters of `GET /v1/bots`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct BotQuery {
    /// At most this many (default 100; 1 to 500, anything else is refused with `invalid_request`).
    #[param(minimum = 1, maximum = 500)]
    pub limit: Option<u32>,
    /// The page after another: that page's `next_cursor`.
    pub cursor: Option<String>,
    /// `true`: only the stream bots connected now; `false`: only those not connected (the
    /// filter applies to each page: a page may hold fewer than `limit`, and `next_cursor` goes on).
    pub connected: Option<bool>,
}

/// The query of `GET /v1/bot/stream`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StreamQuery {
    /// `true`: replace the bot's open connection (which ends) instead of being refused with
    /// 409 `already_connected`, as after the bot's own connection dropped.
    pub replace: Option<bool>,
}

/// The answer to `POST /v1/bots/{id}/token`: the bot's new owner token, shown this once.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TokenRotated {
    /// Bot id.
    pub id: String,
    /// The new owner token: the previous one no longer works, and the bot's stream connection
    /// (made with it) was closed.
    pub token: String,
}

/// Who created a match (an anonymous client's address is never shown).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CreatedBy {
    /// `ladder`, `admin`, `owner` (a bot owner's token) or `client` (no token).
    pub kind: CreatorKind,
    /// With `owner`: the bot whose owner token created it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
}

impl From<&Creator> for CreatedBy {
    fn from(creator: &Creator) -> Self {
        CreatedBy {
            kind: creator.kind,
            bot: creator.bot.clone(),
        }
    }
}

/// `POST /v1/matches`: play a match.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"game": "twenty_two", "bots": ["random", "b_0a4f8c2e6b1d3975"], "seed": 42, "ranked": false, "clock": {"initial_ms": 30000, "increment_ms": 100}, "pace_ms": 800}))]
pub struct CreateMatch {
    /// Game id.
    pub game: String,
    /// Bots in seat order, each by id or by name (the number of bots is the number of
    /// players).
    pub bots: Vec<String>,
    /// Option overrides (unranked matches only).
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub options: Option<serde_json::Map<String, Value>>,
    /// Seed (random if absent).
    #[serde(default)]
    #[schema(maximum = 9_007_199_254_740_991_u64)]
    pub seed: Option<u64>,
    /// Stacked deals (unranked matches only).
    #[serde(default)]
    pub deals: Option<Vec<Vec<String>>>,
    /// Whether the result moves ratings (default false). Ranked matches come from the ladder:
    /// `true` needs the server's admin token (`Authorization: Bearer <admin token>`), else 403
    /// `ranked_by_ladder_only`. Ranked matches play the game id's own options and need distinct
    /// bots.
    #[serde(default)]
    pub ranked: Option<bool>,
    /// Per-move deadline in milliseconds (10 to 60000; default the arena's).
    #[serde(default)]
    #[schema(minimum = 10, maximum = 60_000)]
    pub deadline_ms: Option<u64>,
    /// A time bank per seat beside the per-move deadline (`initial_ms` 100 to 3600000,
    /// `increment_ms` at most 60000); none if absent. Ranked matches always play the game id's
    /// own clock (docs/bots.md) and refuse this field.
    #[serde(default)]
    pub clock: Option<Clock>,
    /// Hold each move at least this many milliseconds after the previous one was published, so
    /// spectators can follow the match (0 to 5000; default 0, no hold). The hold is not taken
    /// from any bot's deadline or clock: a bot is asked once the previous move is published.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 5000)]
    pub pace_ms: Option<u64>,
}

/// The answer to `POST /v1/matches`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MatchCreated {
    /// Match id.
    pub id: String,
    /// `queued`.
    pub status: MatchStatus,
}

/// One seat of a match.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SeatView {
    /// Seat number.
    pub seat: usize,
    /// Bot id.
    pub bot: String,
    /// Bot name (a person's seat: the name the person sits under).
    pub name: String,
    /// A person's seat held by a player: the player's id (their page: `/player/{id}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// The name the bot gave itself at `GET /` when the match started (absent before it started,
    /// and in matches from before versions were kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reported_name: Option<String>,
    /// The version the bot reported at `GET /` when the match started: the code this seat ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
}

/// The answer to `DELETE /v1/matches/{id}`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MatchCancelled {
    /// Match id.
    pub id: String,
    /// `aborted`.
    pub status: MatchStatus,
    /// `cancelled`.
    pub abort_reason: AbortReason,
}

/// The answer to `DELETE /v1/tournaments/{id}`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentCancelled {
    /// Tournament id.
    pub id: String,
    /// Tables that were queued or running, now aborted (`cancelled`).
    pub cancelled: usize,
    /// With a bot owner's token: the bot withdrawn (from the tables not yet started).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withdrawn: Option<String>,
}

/// One move of a match.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MoveView {
    /// The seat that acted.
    pub seat: usize,
    /// The action applied (the bot's, or the seat's first legal action after a fault); `null`
    /// while the match is live, since an action may hide a card (the public events say what
    /// everyone saw).
    #[schema(value_type = Option<Object>)]
    pub action: Option<Value>,
    /// Time the bot took, in milliseconds.
    pub latency_ms: u64,
    /// Why the bot's answer was not used, if it was not.
    pub fault: Option<Fault>,
    /// The bot's comment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

/// What `POST /v1/games/{game}/replay` needs to replay the match move by move.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ReplayInput {
    /// Number of players.
    pub players: usize,
    /// Option overrides.
    #[schema(value_type = Object)]
    pub options: Value,
    /// Seed.
    #[schema(maximum = 9_007_199_254_740_991_u64)]
    pub seed: u64,
    /// Stacked deals.
    pub deals: Vec<Vec<String>>,
    /// The actions, in order; left out when the answer carries `moves`, whose `seat` and
    /// `action` they are (`{..replay, actions: moves.map(({seat, action}) => ({seat, action}))}`
    /// is the replay request).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actions: Option<Vec<ReplayAction>>,
}

/// One action of a replay: who played what.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ReplayAction {
    /// The seat that acted.
    pub seat: usize,
    /// The action it played.
    #[schema(value_type = Object)]
    pub action: Value,
}

/// A match in full.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MatchView {
    /// Match id.
    pub id: String,
    /// Status.
    pub status: MatchStatus,
    /// Game id.
    pub game: String,
    /// Option overrides as requested.
    #[schema(value_type = Object)]
    pub options: Value,
    /// Seed; `null` until the match has ended (it would reveal every hand).
    #[schema(maximum = 9_007_199_254_740_991_u64)]
    pub seed: Option<u64>,
    /// The commitment to the seed, published from the start: the hex SHA-256 of the UTF-8 text
    /// `"<seed>:<seed_salt>"` (the seed in decimal). Once the match has ended, anyone checks it
    /// against `seed` and `seed_salt` (`printf '%s' "<seed>:<seed_salt>" | sha256sum`). `null`
    /// for matches played before commitments.
    #[schema(example = "4e2ed532a924a2512a90d7228d5fb36600979cf57160db4e132acf1af95f9261")]
    pub seed_commitment: Option<String>,
    /// The commitment's random salt (64 hex digits, fresh for each match); `null` until the
    /// match has ended, like the seed.
    pub seed_salt: Option<String>,
    /// Stacked deals; `null` until the match has ended.
    pub deals: Option<Vec<Vec<String>>>,
    /// Moves ratings.
    pub ranked: bool,
    /// Scheduled by the ladder.
    pub ladder: bool,
    /// Who created it; absent for matches created before creators were kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_by: Option<CreatedBy>,
    /// Per-move deadline.
    pub deadline_ms: u64,
    /// Faults after which a seat is disqualified.
    pub max_faults: u32,
    /// Each seat's time bank, if the match has one.
    pub clock: Option<Clock>,
    /// Each move is held at least this many milliseconds after the previous one, for
    /// spectators (0: no hold).
    pub pace_ms: u64,
    /// Seats and their bots.
    pub seats: Vec<SeatView>,
    /// Every move (left out when `?include=` does not name `moves`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<MoveView>>,
    /// Public events, each with the `action_index` of the move that produced it (left out when
    /// `?include=` does not name `events`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<Object>>)]
    pub events: Option<Vec<Value>>,
    /// The result, once finished: `ranking` (groups of seats, best first, disqualified seats
    /// last), `scores`, `disqualified`, `flagged` (seats whose time bank ran out), `faults` per
    /// seat, and the game's `teams`/`details`.
    #[schema(value_type = Option<Object>)]
    pub result: Option<MatchResult>,
    /// Why the match was aborted, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Why the match was aborted: `cancelled` (`DELETE`), `bot_unavailable` (a bot did not
    /// answer its probe before the match started) or `failed` (the arena could not go on).
    /// No rating moves in an aborted match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abort_reason: Option<AbortReason>,
    /// The replay request for `POST /v1/games/{game}/replay` without its `actions`, which are
    /// the `seat` and `action` of `moves` (with `?include=replay` alone, it carries them); `null`
    /// until the match has ended, and when its moves were deleted; left out when `?include=`
    /// does not name `replay`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<ReplayInput>)]
    pub replay: Option<Option<ReplayInput>>,
    /// The moves of this unranked match were deleted by retention (`--retain-unranked-days`):
    /// `moves` and `events` are empty, the result stays.
    pub moves_pruned: bool,
    /// Creation time (RFC 3339).
    #[schema(format = DateTime, example = "2026-11-23T18:50:28.123Z")]
    pub created_at: String,
    /// When a worker first picked it up (RFC 3339).
    #[schema(format = DateTime)]
    pub started_at: Option<String>,
    /// When it finished or was aborted (RFC 3339).
    #[schema(format = DateTime)]
    pub finished_at: Option<String>,
}

impl MatchView {
    /// The moves shown (empty when `?include=` left them out).
    pub fn moves(&self) -> &[MoveView] {
        self.moves.as_deref().unwrap_or_default()
    }

    /// The public events shown (empty when `?include=` left them out).
    pub fn events(&self) -> &[Value] {
        self.events.as_deref().unwrap_or_default()
    }

    /// The whole `POST /v1/games/{game}/replay` request, its actions taken from `moves` when
    /// they are shown beside it; None until the match has ended, once its moves were deleted,
    /// or when `?include=` left `replay` out.
    pub fn replay_request(&self) -> Option<ReplayInput> {
        let mut replay = self.replay.clone().flatten()?;
        if replay.actions.is_none() {
            replay.actions = Some(
                self.moves()
                    .iter()
                    .map(|m| ReplayAction {
                        seat: m.seat,
                        action: m.action.clone().unwrap_or(Value::Null),
                    })
                    .collect(),
            );
        }
        Some(replay)
    }
}

/// A match in a list.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MatchSummary {
    /// Match id.
    pub id: String,
    /// Status.
    pub status: MatchStatus,
    /// Game id.
    pub game: String,
    /// Bot ids in seat order.
    pub bots: Vec<String>,
    /// Moves ratings.
    pub ranked: bool,
    /// Final ranking (groups of seats, best first), once finished.
    pub ranking: Option<Vec<Vec<usize>>>,
    /// Faults per seat, once finished.
    #[serde(default)]
    pub faults: Option<Vec<u32>>,
    /// Creation time (RFC 3339).
    #[schema(format = DateTime, example = "2026-11-23T18:50:28.123Z")]
    pub created_at: String,
    /// When it finished or was aborted (RFC 3339).
    #[schema(format = DateTime)]
    pub finished_at: Option<String>,
    /// With `?include=moves`: every move, as `GET /v1/matches/{id}` shows them (actions once the
    /// match has ended).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<MoveView>>,
    /// With `?include=moves`, once the match has ended: what `POST /v1/games/{game}/replay`
    /// needs beside the moves (players, options, seed, deals).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay: Option<ReplayInput>,
    /// With `?include=result`, once the match has ended: the whole result, as
    /// `GET /v1/matches/{id}` shows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub result: Option<MatchResult>,
}

/// `GET /v1/matches`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MatchList {
    /// Matches, newest first.
    pub matches: Vec<MatchSummary>,
    /// The `cursor` of the next page; `null` on the last page.
    pub next_cursor: Option<String>,
}

/// How `GET /v1/matches` answers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ListFormat {
    /// One page: `{"matches": [...], "next_cursor"}`.
    #[default]
    Json,
    /// Every match the filters select, newest first, streamed as `application/x-ndjson`: one
    /// match (as in `matches`) per line; `limit` and `cursor` are not taken.
    Ndjson,
}

/// Filters of `GET /v1/matches`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct MatchQuery {
    /// Only this game id (404 `unknown_game` for an id the catalog does not have).
    pub game: Option<String>,
    /// Only matches of this bot, by id or by name (404 `unknown_bot` when it is neither).
    pub bot: Option<String>,
    /// Only matches in this status: `waiting`, `queued`, `running`, `finished` or `aborted`.
    #[param(inline)]
    pub status: Option<MatchStatus>,
    /// `true`: only matches where people hold seats (the tables people play, `/v1/tables`);
    /// `false`: only matches of bots alone.
    pub people: Option<bool>,
    /// Parts each match carries beyond the list's fields, comma-separated: `moves` (every
    /// move, and once the match has ended what its replay needs) and `result` (the whole
    /// result). Training data in one request: `format=ndjson&include=moves,result`.
    #[param(
        pattern = r"^(moves|result)(,(moves|result))*$",
        example = "moves,result"
    )]
    pub include: Option<String>,
    /// At most this many (default 50; 1 to 500, anything else is refused with `invalid_request`).
    #[param(minimum = 1, maximum = 500)]
    pub limit: Option<u32>,
    /// The page after another: that page's `next_cursor`.
    pub cursor: Option<String>,
    /// `json` (default): one page. `ndjson`: every match the filters select, streamed one per
    /// line (`application/x-ndjson`).
    #[param(inline)]
    pub format: Option<ListFormat>,
}

/// The parts `GET /v1/matches/{id}` shows.
#[derive(Debug, Clone, Default, Serialize, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct MatchShowQuery {
    /// The parts to show, comma-separated among `moves`, `events` and `replay` (default: all
    /// three). The replay request's `actions` are the `seat` and `action` of `moves`, so they are
    /// given only when `moves` is not.
    #[param(
        pattern = r"^(moves|events|replay)(,(moves|events|replay))*$",
        example = "moves,replay"
    )]
    pub include: Option<String>,
}

/// The optional parts of a match an answer carries (`?include=`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MatchParts {
    /// `moves`.
    pub moves: bool,
    /// `events`.
    pub events: bool,
    /// `replay`.
    pub replay: bool,
    /// `result`.
    pub result: bool,
}

impl MatchParts {
    /// Every part `GET /v1/matches/{id}` shows by default.
    pub const SHOWN: MatchParts = MatchParts {
        moves: true,
        events: true,
        replay: true,
        result: false,
    };

    /// The parts named in `include` (comma-separated) among `allowed`; `default` without one.
    /// 400 `invalid_request` for another name.
    pub fn parse(
        include: Option<&str>,
        allowed: &[&str],
        default: MatchParts,
    ) -> Result<MatchParts, crate::problem::ServiceError> {
        let Some(include) = include else {
            return Ok(default);
        };
        let mut parts = MatchParts::default();
        for name in include.split(',').map(str::trim) {
            match name {
                "moves" if allowed.contains(&name) => parts.moves = true,
                "events" if allowed.contains(&name) => parts.events = true,
                "replay" if allowed.contains(&name) => parts.replay = true,
                "result" if allowed.contains(&name) => parts.result = true,
                _ => {
                    return Err(crate::problem::ServiceError::invalid(format!(
                        "invalid query: `include` takes {} (comma-separated), not `{name}`",
                        allowed
                            .iter()
                            .map(|a| format!("`{a}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )));
                }
            }
        }
        Ok(parts)
    }
}

/// `GET /v1/bots/{id}/faults`: every fault of a bot, newest first.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct FaultList {
    /// Faults, newest first.
    pub faults: Vec<FaultEntry>,
    /// The `cursor` of the next page; `null` on the last page.
    pub next_cursor: Option<String>,
}

/// One fault of a bot: where, what happened, what the bot answered and what was expected.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct FaultEntry {
    /// The match.
    pub match_id: String,
    /// The move's 0-based index in the match (`moves[move]` of `GET /v1/matches/{id}`).
    #[serde(rename = "move")]
    pub index: u64,
    /// The bot's seat.
    pub seat: u64,
    /// The kind of fault.
    pub kind: FaultKind,
    /// What happened; `null` while the match is live (or a tournament table whose deal another
    /// table still plays): it may quote the bot's hidden cards.
    pub detail: Option<String>,
    /// What the bot answered (status and the first 512 bytes of the body), when it answered;
    /// withheld while the match is live, like `detail`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<BotAnswer>,
    /// What the arena expected instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// When the move was played (RFC 3339; for faults recorded before the list existed, the
    /// match's start).
    #[schema(format = DateTime, example = "2026-11-23T18:50:28.123Z")]
    pub at: String,
    /// Who created the match; absent for matches created before creators were kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_by: Option<CreatedBy>,
    /// Whether the fault counts toward the bot's ladder health (a pause): only in matches the
    /// ladder or the bot's owner created.
    pub counts_toward_pause: bool,
}

/// Paging of `GET /v1/bots/{id}/faults`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct FaultQuery {
    /// At most this many (default 50; 1 to 500, anything else is refused with `invalid_request`).
    #[param(minimum = 1, maximum = 500)]
    pub limit: Option<u32>,
    /// The page after another: that page's `next_cursor`.
    pub cursor: Option<String>,
}

/// `GET /v1/bots/{id}/ratings`: a bot's rating after each ranked match of one game, newest
/// first.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RatingHistory {
    /// Game id.
    pub game: String,
    /// The rating after each ranked match, newest first.
    pub ratings: Vec<RatingPointView>,
    /// The `cursor` of the next (older) page; `null` on the last page.
    pub next_cursor: Option<String>,
}

/// A bot's rating after one ranked match.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RatingPointView {
    /// The ranked match.
    pub match_id: String,
    /// When the rating was written, at the end of the match (RFC 3339).
    #[schema(format = DateTime, example = "2026-11-23T18:50:28.123Z")]
    pub at: String,
    /// Estimated skill after the match.
    pub mu: f64,
    /// Uncertainty after the match.
    pub sigma: f64,
    /// Conservative rating `mu - 3 sigma` after the match.
    pub display: f64,
    /// The version the bot reported when the rating was written; `null` for ratings written
    /// before versions were kept.
    pub version: Option<String>,
    /// The match's table size (each size has its own rating).
    pub players: usize,
}

/// The game and paging of `GET /v1/bots/{id}/ratings`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RatingQuery {
    /// Game id.
    pub game: String,
    /// Only this table size (number of players); every size if absent.
    pub players: Option<usize>,
    /// At most this many (default 100; 1 to 500, anything else is refused with `invalid_request`).
    #[param(minimum = 1, maximum = 500)]
    pub limit: Option<u32>,
    /// The page after another: that page's `next_cursor`.
    pub cursor: Option<String>,
}

/// The answer to `POST /v1/bots/{id}/secret`: the new signing secret, shown this once.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SecretRotated {
    /// The new key of the `X-Cardroom-Signature` HMAC.
    pub signing_secret: String,
    /// Until when requests also carry `X-Cardroom-Signature-Previous`, made with the replaced
    /// secret (RFC 3339; 10 minutes from now).
    #[schema(format = DateTime, example = "2026-11-23T19:00:28.123Z")]
    pub previous_valid_until: String,
}

/// `POST /v1/tournaments`: a duplicate tournament.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"game": "twenty_two", "bots": ["random", "heuristic", "random", "heuristic"], "deals": 20, "seat_rotations": true}))]
pub struct CreateTournament {
    /// Game id.
    pub game: String,
    /// Bots in seat order of the first rotation, by id or by name, one per seat (a bot may sit
    /// in several seats, e.g. both seats of a partnership).
    pub bots: Vec<String>,
    /// Number of deals (1 to 1000). Each deal is one seed: every rotation of it deals the same
    /// cards to the same seats.
    #[schema(minimum = 1, maximum = 1000)]
    pub deals: u32,
    /// Play each deal once for every rotation of the seats (default true), so every bot holds
    /// every seat's cards; rotations that seat the bots exactly as an earlier one are played
    /// once. False: each deal once, as `bots` seats them.
    #[serde(default)]
    pub seat_rotations: Option<bool>,
    /// Per-move deadline in milliseconds (10 to 60000; default the arena's).
    #[serde(default)]
    #[schema(minimum = 10, maximum = 60_000)]
    pub deadline_ms: Option<u64>,
    /// Option overrides for every match.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub options: Option<serde_json::Map<String, Value>>,
    /// The tournament's seed (random if absent); each deal's seed derives from it. Shown once
    /// every match is over.
    #[serde(default)]
    #[schema(maximum = 9_007_199_254_740_991_u64)]
    pub seed: Option<u64>,
}

/// Whether a tournament still plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TournamentStatus {
    /// Some match is queued or running.
    Running,
    /// Every match is over (finished or aborted).
    Finished,
}

/// The answer to `POST /v1/tournaments`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentCreated {
    /// Tournament id.
    pub id: String,
    /// `running`.
    pub status: TournamentStatus,
    /// Number of matches queued (deals x distinct rotations).
    pub matches: usize,
}

/// One match of a tournament.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentMatchView {
    /// Match id (`GET /v1/matches/{id}`, open once every table of its deal is over).
    pub id: String,
    /// 0-based deal.
    pub deal: u32,
    /// Rotation: seat `s` holds the bot of seat `(s + rotation) % players` of rotation 0.
    pub rotation: u32,
    /// Status.
    pub status: MatchStatus,
    /// Bot ids in seat order.
    pub bots: Vec<String>,
    /// Scores per seat; `null` until every table of the deal is over.
    pub scores: Option<Vec<f64>>,
}

/// One bot's standing in a tournament.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentStanding {
    /// Bot id.
    pub bot: String,
    /// Bot name.
    pub name: String,
    /// Deals counted: every table of the deal finished (a deal with an aborted table is left
    /// out for every bot).
    pub deals: u32,
    /// Mean score per deal: the bot's score averaged over the tables of a deal it sat at, then
    /// over the deals counted; `null` before the first deal is counted.
    pub mean_score: Option<f64>,
    /// 95% confidence interval of the mean (Student's t over the deals counted); `null` with
    /// fewer than two deals.
    pub ci95: Option<[f64; 2]>,
}

/// Two bots' results at the tables where both sat, from `bot`'s side: a win is a better place
/// in the match's ranking, a tie the same place (partners tie).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct HeadToHead {
    /// Bot id.
    pub bot: String,
    /// The other bot's id.
    pub opponent: String,
    /// Tables where `bot` placed better.
    pub wins: u32,
    /// Tables where `opponent` placed better.
    pub losses: u32,
    /// Tables where both placed the same.
    pub ties: u32,
}

/// A tournament in full.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentView {
    /// Tournament id.
    pub id: String,
    /// Status.
    pub status: TournamentStatus,
    /// Game id.
    pub game: String,
    /// Option overrides.
    #[schema(value_type = Object)]
    pub options: Value,
    /// The seed; `null` until every match is over (it would reveal every hand).
    #[schema(maximum = 9_007_199_254_740_991_u64)]
    pub seed: Option<u64>,
    /// Number of deals.
    pub deals: u32,
    /// Whether each deal is played for every rotation of the seats.
    pub seat_rotations: bool,
    /// Per-move deadline.
    pub deadline_ms: u64,
    /// Seats of the first rotation.
    pub seats: Vec<SeatView>,
    /// Matches, by deal then rotation.
    pub matches: Vec<TournamentMatchView>,
    /// Per bot, best mean score first.
    pub standings: Vec<TournamentStanding>,
    /// Per pair of bots that met (each pair once).
    pub head_to_head: Vec<HeadToHead>,
    /// Creation time (RFC 3339).
    #[schema(format = DateTime, example = "2026-11-23T18:50:28.123Z")]
    pub created_at: String,
}

/// One tournament in a list.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentSummary {
    /// Tournament id.
    pub id: String,
    /// Game id.
    pub game: String,
    /// Bot ids in seat order of the first rotation.
    pub bots: Vec<String>,
    /// Number of deals.
    pub deals: u32,
    /// Whether each deal is played for every rotation of the seats.
    pub seat_rotations: bool,
    /// Creation time (RFC 3339).
    #[schema(format = DateTime, example = "2026-11-23T18:50:28.123Z")]
    pub created_at: String,
}

/// `GET /v1/tournaments`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentList {
    /// Tournaments, newest first.
    pub tournaments: Vec<TournamentSummary>,
    /// The `cursor` of the next page; `null` on the last page.
    pub next_cursor: Option<String>,
}

/// Filters of `GET /v1/tournaments`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TournamentQuery {
    /// At most this many (default 50; 1 to 500, anything else is refused with `invalid_request`).
    #[param(minimum = 1, maximum = 500)]
    pub limit: Option<u32>,
    /// The page after another: that page's `next_cursor`.
    pub cursor: Option<String>,
}
