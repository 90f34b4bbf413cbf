//! Wire types of the rules API (request and response bodies), with their OpenAPI schemas.
//!
//! Game-specific payloads (options, actions, views, events) are plain JSON here; their exact shape
//! per family is the schemas `<family>.NewOptions`, `<family>.Action`, `<family>.Event` and
//! `<family>.View` (generated from the engine's types, see [`engine::schema`]), with which each game
//! id's own OpenAPI document (`/v1/games/<id>/openapi.json`, [`crate::contract`]) types every
//! request and response.

use engine::{GameInfo, GameResult};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use utoipa::ToSchema;

/// A game state as the client holds it: the JSON object returned by the server (transparent mode,
/// the default) or an opaque sealed token (sealed mode). Send it back exactly as received.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
#[allow(dead_code)] // reason: schema only; states are handled as `serde_json::Value`
pub enum WireState {
    /// Transparent mode: the state as a JSON object.
    Transparent(TransparentState),
    /// Sealed mode: the state as an opaque token.
    Sealed(SealedState),
}

/// Transparent mode (the default): the state envelope as a JSON object,
/// `{"version": 2, "game": "...", "data": {...}}`, re-validated on every request.
#[derive(Debug, Serialize, ToSchema)]
#[allow(dead_code)] // reason: schema only
pub struct TransparentState {
    /// The version of the state format (2).
    #[schema(minimum = 0)]
    pub version: u64,
    /// The game id.
    pub game: String,
    /// The game's own state (its shape is the game's business; send it back unchanged).
    pub data: Map<String, Value>,
}

/// Sealed mode: a format prefix (`v2.` issued; `v1.` tokens of older servers still accepted)
/// followed by base64url (no padding) of a nonce, the ciphertext and its tag; authenticated and
/// encrypted, so it can be neither read nor altered without the server's key.
#[derive(Debug, Serialize, ToSchema)]
#[schema(pattern = "^v[12]\\.[A-Za-z0-9_-]+$")]
#[allow(dead_code)] // reason: schema only
pub struct SealedState(pub String);

/// One event of a replay's `log`: a public event of the game (its `type` and the fields of that
/// type, see `<family>.Event`), tagged with the index of the action that produced it.
#[derive(Debug, Serialize, ToSchema)]
#[allow(dead_code)] // reason: schema only; log events are handled as `serde_json::Value`
pub struct LogEvent {
    /// The event's type (see `<family>.Event`).
    #[serde(rename = "type")]
    pub kind: String,
    /// The zero-based index of the replayed action that produced the event; absent for the
    /// events of the setup (the deal before the first action).
    #[schema(minimum = 0)]
    pub action_index: Option<u64>,
}

/// Player range of a game.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Players {
    /// Fewest players.
    pub min: usize,
    /// Most players.
    pub max: usize,
}

/// One option of a game: id, type, allowed values, default, description.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"id": "target", "type": "integer", "min": 1, "max": 99, "default": 5, "description": "Points needed to win."}))]
pub struct OptionInfo {
    /// The key in the `options` object.
    pub id: String,
    /// `boolean`, `integer`, `integer_choice`, `enum`, `enum_or_integer`, `single_key_object` or
    /// `object`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Allowed values: strings (`enum`, `enum_or_integer`) or integers (`integer_choice`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<Value>>,
    /// Smallest integer (`integer`, `enum_or_integer`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<i64>,
    /// Largest integer (`integer`, `enum_or_integer`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<i64>,
    /// The default value for this game id.
    pub default: Value,
    /// What the option changes.
    pub description: String,
    /// Restrictions under other options (or the player count): under each `when` (option id, or
    /// `players`, to the values it holds for), only `values` are allowed (none: the option may not
    /// be given at all).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(value_type = Vec<Object>)]
    pub constraints: Vec<Value>,
}

/// Links to the component schemas that describe a game's JSON exactly, within the game's own
/// document (the entry's `openapi` link; named after the family: the ids of one family share them).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct GameSchemas {
    /// Component schema of the `options` object of a request, e.g.
    /// `#/components/schemas/twenty_two.NewOptions`.
    pub options: String,
    /// Component schema of one action, e.g. `#/components/schemas/twenty_two.Action`.
    pub action: String,
    /// Component schema of one event.
    pub event: String,
    /// Component schema of a view (a seat's or the spectator's).
    pub view: String,
}

/// A catalog entry.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct GameEntry {
    /// The game id used in paths.
    pub id: String,
    /// The family the id belongs to (ids of one family share rules and differ in options).
    pub family: String,
    /// Display name.
    pub name: String,
    /// Short description.
    pub description: String,
    /// Rules summary.
    pub rules_summary: String,
    /// Player range (with this id's default options).
    pub players: Players,
    /// Player ranges that follow the options, the first matching `when` deciding (e.g. `watten`
    /// with `{"variant": ["bohemian"]}` seats 2 to 6).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(value_type = Vec<Object>)]
    pub players_when: Vec<Value>,
    /// Ids of the same family for player counts this id does not seat, with their ranges.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(value_type = Vec<Object>)]
    pub for_other_players: Vec<Value>,
    /// Every option with its default.
    pub options: Vec<OptionInfo>,
    /// Options this id fixes (a request may repeat them, not change them).
    #[schema(value_type = Object)]
    pub fixed_options: Map<String, Value>,
    /// Where the exact JSON of this game's options, actions, events and views is described.
    pub schemas: GameSchemas,
    /// This game id's own OpenAPI 3.1 document, e.g. `/v1/games/twenty_two/openapi.json`: every
    /// operation typed with the game's options, actions, events and views (for client generators).
    pub openapi: String,
    /// The family's display name (`name` names this id's variant).
    pub family_name: String,
    /// The family's one-line description.
    pub family_description: String,
    /// How a table draws this game's views, declared once per family: which view fields (JSON
    /// Pointers) are the hand, the hidden hand sizes, the seat to act, the trick, the piles in the
    /// centre and before each seat, badges (trump, contract, stake), scores and sides; the
    /// family's suit and rank names; the sentences its events and actions read as. The web pages
    /// draw every family from it.
    #[schema(value_type = Object)]
    pub table: engine::table::TableLayout,
}

impl GameEntry {
    /// The entry of an engine game.
    pub fn from_info(info: &GameInfo) -> GameEntry {
        let options = info
            .options
            .iter()
            .map(|spec| {
                let json = serde_json::to_value(spec).unwrap_or(Value::Null);
                let get = |k: &str| json.get(k).cloned();
                OptionInfo {
                    id: spec.id.clone(),
                    kind: get("type")
                        .and_then(|v| v.as_str().map(str::to_string))
                        .unwrap_or_default(),
                    values: get("values").and_then(|v| serde_json::from_value(v).ok()),
                    constraints: get("constraints")
                        .and_then(|v| serde_json::from_value(v).ok())
                        .unwrap_or_default(),
                    min: get("min").and_then(|v| v.as_i64()),
                    max: get("max").and_then(|v| v.as_i64()),
                    default: spec.default.clone(),
                    description: spec.description.clone(),
                }
            })
            .collect();
        let component = |kind: &str| format!("#/components/schemas/{}.{kind}", info.family);
        GameEntry {
            id: info.id.clone(),
            family: info.family.clone(),
            name: info.name.clone(),
            description: info.description.clone(),
            rules_summary: info.rules_summary.clone(),
            players: Players {
                min: info.players.min,
                max: info.players.max,
            },
            players_when: info
                .players_when
                .iter()
                .filter_map(|p| serde_json::to_value(p).ok())
                .collect(),
            for_other_players: info
                .for_other_players
                .iter()
                .filter_map(|p| serde_json::to_value(p).ok())
                .collect(),
            options,
            fixed_options: info.fixed_options.clone(),
            schemas: GameSchemas {
                options: component("NewOptions"),
                action: component("Action"),
                event: component("Event"),
                view: component("View"),
            },
            openapi: document_path(&info.id),
            family_name: info.family_name.clone(),
            family_description: info.family_description.clone(),
            table: info.table.clone(),
        }
    }
}

/// Where a game id's own OpenAPI document is served.
pub fn document_path(id: &str) -> String {
    format!("/v1/games/{id}/openapi.json")
}

/// Start a game.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"players": 2, "options": {}, "seed": 42}))]
pub struct NewGameRequest {
    /// Number of players (see the game's `players` range).
    pub players: usize,
    /// Options to change; the others take the game's defaults (see `<family>.NewOptions`).
    #[serde(default)]
    #[schema(value_type = Object)]
    pub options: Map<String, Value>,
    /// Seed of the game's chance. Omitted: the server picks one (below 2^53, so JavaScript
    /// clients keep it exact) and records it in the state, so the game still replays.
    #[serde(default)]
    #[schema(maximum = 9_007_199_254_740_991_u64)]
    pub seed: Option<u64>,
    /// Stacked deals for tests and puzzles: entry d fixes the first cards of deal d, as card
    /// codes (`TH`, `AS`, ...).
    #[serde(default)]
    pub deals: Vec<Vec<String>>,
}

/// Ask for one seat's legal actions.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LegalRequest {
    /// The state, exactly as returned by the server.
    #[schema(value_type = WireState)]
    pub state: Box<RawValue>,
    /// The seat (0-based).
    pub seat: usize,
}

/// One seat's legal actions.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"seat": 0, "actions": [{"type": "play", "card": "7H"}]}))]
pub struct SeatActions {
    /// The seat.
    pub seat: usize,
    /// Its legal actions in canonical order (empty if it may not act); see `<family>.Action`.
    pub actions: Vec<Value>,
}

/// Apply one action.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ApplyRequest {
    /// The state, exactly as returned by the server.
    #[schema(value_type = WireState)]
    pub state: Box<RawValue>,
    /// The acting seat.
    pub seat: usize,
    /// The action, one of the seat's legal actions (see `<family>.Action`).
    pub action: Value,
}

/// Ask for a view.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ViewRequest {
    /// The state, exactly as returned by the server.
    #[schema(value_type = WireState)]
    pub state: Box<RawValue>,
    /// The seat whose view to return; omitted or null: the spectator view (public information only).
    #[serde(default)]
    pub seat: Option<usize>,
}

/// What one seat (or a spectator) may see.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ViewResponse {
    /// The seat, or null for the spectator view.
    pub seat: Option<usize>,
    /// The view (see `<family>.View`); always in the clear.
    pub view: Value,
}

/// Ask for determinizations: full states consistent with what one seat has seen.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"state": {"game": "sloppy_seconds", "version": 2, "data": {}}, "seat": 0, "count": 4, "seed": 7}))]
pub struct DeterminizeRequest {
    /// The state, exactly as returned by the server (give `state` and `seat`, or `info`).
    #[serde(default)]
    #[schema(value_type = Option<WireState>)]
    pub state: Option<Box<RawValue>>,
    /// The seat whose knowledge the samples must agree with (0-based). With `info`: the token's
    /// seat, which may be omitted (another seat is `invalid_request`).
    #[serde(default)]
    pub seat: Option<usize>,
    /// In place of `state` and `seat`: the `info` token of an arena move request (the position
    /// sealed for the seat asked), exactly as the arena sent it.
    #[serde(default)]
    pub info: Option<String>,
    /// How many states to draw, 1 to 256.
    pub count: usize,
    /// The sampling seed (at most 2^53 - 1); omitted: the server draws one and returns it, so
    /// the same request with it answers the same states.
    #[serde(default)]
    pub seed: Option<u64>,
    /// Milliseconds (1 to 2000) from the request's arrival in which to draw what fits: the
    /// answer holds up to `count` states (at least one) and is never refused for its size.
    /// Omitted: all `count` states, refused at once (`search_over_budget`) when they would take
    /// more than 2 s.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 2000)]
    pub budget_ms: Option<u64>,
}

/// Determinizations of a state for one seat.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DeterminizeResponse {
    /// The seat.
    pub seat: usize,
    /// The sampling seed used.
    pub seed: u64,
    /// `count` full states, sealed when the server seals, each showing `seat` exactly the view
    /// the given state shows it; play continues from any of them with `/apply`.
    #[schema(value_type = Vec<WireState>)]
    pub states: Vec<Value>,
    /// The states drawn: `count`, or fewer when `budget_ms` ran out first.
    pub count_done: usize,
    /// Whether all `count` states were drawn.
    pub complete: bool,
}

/// How the rest of each playout is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RolloutPolicy {
    /// Every seat plays a uniformly random legal action.
    Random,
    /// Every seat plays the built-in `heuristic` bot's choice from its own view.
    Heuristic,
}

/// Ask for rollouts: playouts to the end of the game after each of a seat's actions.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"state": {"game": "sloppy_seconds", "version": 2, "data": {}}, "seat": 0, "count": 100, "policy": "random", "seed": 7}))]
pub struct RolloutsRequest {
    /// The state, exactly as returned by the server (give `state` and `seat`, or `info`). A
    /// sealed state is played out from determinizations for `seat` (what it may know, see
    /// `/determinize`); a transparent one from itself, with the chance still to come redrawn for
    /// every round.
    #[serde(default)]
    #[schema(value_type = Option<WireState>)]
    pub state: Option<Box<RawValue>>,
    /// The seat whose actions are weighed (0-based); it must be one that may act now. With
    /// `info`: the token's seat, which may be omitted (another seat is `invalid_request`).
    #[serde(default)]
    pub seat: Option<usize>,
    /// In place of `state` and `seat`: the `info` token of an arena move request, exactly as
    /// the arena sent it; played out from determinizations for its seat, as a sealed state.
    #[serde(default)]
    pub info: Option<String>,
    /// Playouts per action, 1 to 10000.
    pub count: u32,
    /// How every seat plays the rest of each playout.
    pub policy: RolloutPolicy,
    /// The seed of the playouts' choices and redrawn chance (at most 2^53 - 1); omitted: the
    /// server draws one and returns it, so the same request with it answers the same figures.
    #[serde(default)]
    pub seed: Option<u64>,
    /// The actions to weigh, each one of the seat's legal actions; omitted: every legal action,
    /// in canonical order.
    #[serde(default)]
    pub actions: Option<Vec<Value>>,
    /// Milliseconds (1 to 2000) from the request's arrival in which to play what fits: the
    /// answer holds the rounds that fitted (at least one; `count_done` per action, `complete`
    /// false when short of `count`) and is never refused for its size. Omitted: all `count`
    /// rounds, refused at once (`search_over_budget`) when they would take more than 2 s.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 2000)]
    pub budget_ms: Option<u64>,
}

/// What the playouts after one action found.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ActionRollouts {
    /// The action.
    pub action: Value,
    /// Playouts run after it (each to the end of the game).
    pub playouts: u32,
    /// The same count as `playouts`: the playouts that fitted (`count`, or fewer when
    /// `budget_ms` ran out first).
    pub count_done: u32,
    /// Every seat's mean final score (`result.scores`), by seat.
    pub mean: Vec<f64>,
    /// The standard error of each mean, by seat.
    pub standard_error: Vec<f64>,
    /// Every seat's mean standing at the end, by seat, from 0 to 1: 1 for sole first, 0 for
    /// sole last, seats sharing a place sharing its value (where every seat shares one place, a
    /// cooperative crew, its score squashed into 0..1 instead). Larger is better in every game,
    /// whichever way its scores count: a search picks the action with the largest value for
    /// its seat.
    pub mean_standing: Vec<f64>,
    /// The standard error of each seat's `mean_standing` (0 with fewer than two playouts): two
    /// actions whose standings differ by less than about twice it are not told apart.
    pub mean_standing_error: Vec<f64>,
}

/// Rollouts after a seat's actions.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RolloutsResponse {
    /// The seat.
    pub seat: usize,
    /// The seed used.
    pub seed: u64,
    /// The policy played.
    pub policy: RolloutPolicy,
    /// True when the playouts started from determinizations (a sealed state).
    pub determinized: bool,
    /// The rounds asked (`count`).
    pub count: u32,
    /// Whether every round asked was played (false: `budget_ms`, or the 2 s cap of a request
    /// estimated below it, ran out first; `count_done` says how many were).
    pub complete: bool,
    /// The `budget_ms` asked, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budget_ms: Option<u64>,
    /// The time the whole count was estimated to take, in milliseconds (from the game's
    /// playout cost, measured once per game id and policy).
    pub estimated_ms: u64,
    /// One entry per action weighed, in the order asked (or canonical order).
    pub results: Vec<ActionRollouts>,
}

/// One action of a replay.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatAction {
    /// The acting seat.
    pub seat: usize,
    /// The action.
    pub action: Value,
}

/// Replay a whole game from its setup and actions.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplayRequest {
    /// Number of players.
    pub players: usize,
    /// Options, as given to `new`.
    #[serde(default)]
    #[schema(value_type = Object)]
    pub options: Map<String, Value>,
    /// The seed (as recorded in the state).
    #[schema(maximum = 9_007_199_254_740_991_u64)]
    pub seed: u64,
    /// Stacked deals, as given to `new`.
    #[serde(default)]
    pub deals: Vec<Vec<String>>,
    /// The actions, in order.
    pub actions: Vec<SeatAction>,
}

/// The final result of a game.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"ranking": [[1], [0]], "scores": [0.0, 1.0]}))]
pub struct ResultDto {
    /// Groups of seats, best first; seats in one group share that place.
    pub ranking: Vec<Vec<usize>>,
    /// One score per seat, in the game's own unit.
    pub scores: Vec<f64>,
    /// Partnerships, for team games.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub teams: Option<Vec<Vec<usize>>>,
    /// Game-specific facts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<Value>,
}

impl From<GameResult> for ResultDto {
    fn from(result: GameResult) -> Self {
        ResultDto {
            ranking: result.ranking,
            scores: result.scores,
            teams: result.teams,
            details: (!result.details.is_null()).then_some(result.details),
        }
    }
}

/// Where a game stands after a request: the state to send back next time, who acts, the result,
/// the events of this step and the legal actions of every seat that may act.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Step {
    /// The game id.
    pub game: String,
    /// The new state: send it back with the next request.
    #[schema(value_type = WireState, required = true)]
    #[serde(skip_serializing_if = "Value::is_null")]
    pub state: Value,
    /// Seats that may act now, the seat whose turn it is first.
    pub to_act: Vec<usize>,
    /// True once the game has ended.
    pub over: bool,
    /// The result, once over.
    pub result: Option<ResultDto>,
    /// Public events of this step (each a JSON object with a `type`): those of the action just
    /// applied, or for `new` those of the setup.
    pub events: Vec<Value>,
    /// Legal actions of every seat in `to_act`.
    pub legal_actions: Vec<SeatActions>,
}

/// The end of a replay: the final step and every public event of the game.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ReplayResponse {
    /// The step after the last action (its `events` are those of the last action).
    pub step: Step,
    /// Every public event of the game in order, each tagged with `action_index` (but those of the
    /// setup).
    #[schema(value_type = Vec<LogEvent>)]
    pub log: Vec<Value>,
}

/// Liveness, with what the server is.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"status": "ok", "version": "0.1.0", "games": 12, "sealed": false}))]
pub struct Health {
    /// Always `ok`.
    pub status: String,
    /// The server's version (the `cardroom` build).
    pub version: String,
    /// Number of game ids served.
    pub games: usize,
    /// True if states are sealed.
    pub sealed: bool,
}

/// The process is up.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"status": "ok"}))]
pub struct Live {
    /// Always `ok`.
    pub status: String,
}

/// Whether the process can serve: its database answers and has every migration of this build.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"status": "ready", "database": "ok", "migrations": "current", "pending_migrations": []}))]
pub struct Readiness {
    /// `ready` (a process that is not answers 503 `not_ready`, problem+json).
    pub status: String,
    /// `ok` (answered within 2 s), `unavailable`, or `none` (a rules-only server: no database).
    pub database: String,
    /// `current`, `pending` (the database lacks a migration of this build), or `unknown` (the
    /// database did not answer).
    pub migrations: String,
    /// The versions of this build's migrations the database lacks.
    pub pending_migrations: Vec<i64>,
}
