//! The object-safe, JSON-level face of every game: [`Game`] (one per published game id) and
//! [`Match`] (one game in progress). The API server and the arena use only these.
//!
//! [`PresetGame`] adapts any [`GameDef`] and one of its presets; it owns the generic checks (option
//! merging, player range, the order game over / not your turn / illegal, state envelopes and their
//! validation, replays and random playouts), so games never repeat them.

use crate::error::{ActionError, ReplayError, SetupError, StateError};
use crate::game::Viewer;
use crate::game::{
    ActionOf, EventOf, Family, GameDef, GameResult, GameState, OptionsOf, Seat, Setup, ViewOf,
};
use crate::options::{
    OptionSpec, PlayerRange, PlayersWhen, Preset, check_constraints, merge_options, players_for,
};
use crate::rng::PlayoutRng;
use crate::search::{ActionValue, Rollout, RolloutPlan, RolloutStop};
use serde::Serialize;
use serde_json::{Map, Value};
use std::marker::PhantomData;
use std::sync::{Arc, OnceLock};

/// Version of the transparent state envelope (2: every state holds the shared `table` header).
pub const STATE_VERSION: u64 = 2;

/// The catalog entry of one game id.
#[derive(Debug, Clone, Serialize)]
pub struct GameInfo {
    /// Game id, e.g. `twenty_two_short`.
    pub id: String,
    /// The family this id belongs to, e.g. `twenty_two`.
    pub family: String,
    /// Display name.
    pub name: String,
    /// Short description.
    pub description: String,
    /// Rules summary of the family.
    pub rules_summary: String,
    /// Player range (with the id's default options; see `players_when`).
    pub players: PlayerRange,
    /// Player ranges that follow the options, first match deciding (e.g. `watten` with
    /// `{"variant": ["bohemian"]}` seats 2 to 6); `players` applies when none matches.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub players_when: Vec<PlayersWhen>,
    /// Other ids of the same family for player counts this id does not seat (e.g. `basra` names
    /// `basra_partners` for 4 players).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub for_other_players: Vec<Sibling>,
    /// Every option with its default for this id; fixed ones are listed in `fixed_options` too.
    pub options: Vec<OptionSpec>,
    /// Options this id fixes.
    pub fixed_options: Map<String, Value>,
    /// The family's display name (an id's `name` names the variant).
    pub family_name: String,
    /// The family's one-line description.
    pub family_description: String,
    /// How a table draws this game's views.
    pub table: crate::table::TableLayout,
}

/// Another game id of the same family and its player range.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Sibling {
    /// The game id.
    pub id: String,
    /// Its player range.
    pub players: PlayerRange,
}

/// What a client sends to start a game.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NewGame {
    /// Number of players.
    pub players: usize,
    /// Options to change (others take the id's defaults).
    pub options: Map<String, Value>,
    /// Seed of the game's chance.
    pub seed: u64,
    /// Stacked deals (card codes per deal).
    pub deals: Vec<Vec<String>>,
}

/// The outcome of one applied action.
#[derive(Debug, Clone, PartialEq)]
pub struct Applied {
    /// Public events produced (JSON objects with a `type`).
    pub events: Vec<Value>,
}

/// A whole game replayed from its setup and actions.
#[derive(Debug)]
pub struct Replay {
    /// The state after the last accepted action.
    pub game: Box<dyn Match>,
    /// Public events, in order: first those of the setup (without `action_index`), then each
    /// action's, tagged with the index of the action that produced it.
    pub events: Vec<Value>,
    /// The first refused action, if any (the replay stops there).
    pub refused: Option<ReplayError>,
}

/// One published game id, JSON-level and object-safe.
pub trait Game: Send + Sync {
    /// Catalog entry.
    fn info(&self) -> &GameInfo;
    /// Starts a game.
    fn start(&self, request: &NewGame) -> Result<Box<dyn Match>, SetupError> {
        self.start_with_events(request).map(|(game, _)| game)
    }
    /// Starts a game and reports the public events of its setup (the deal as every seat may see
    /// it, a card turned up...), JSON objects with a `type` like the events of `apply`.
    fn start_with_events(
        &self,
        request: &NewGame,
    ) -> Result<(Box<dyn Match>, Vec<Value>), SetupError>;
    /// Loads and validates a transparent state (`{"version", "game", "data"}`).
    fn load(&self, state: &Value) -> Result<Box<dyn Match>, StateError>;
    /// Loads and validates a transparent state given as JSON text, with the same checks as
    /// [`Game::load`] but without an intermediate `Value` (the API's hot path). Text, not bytes:
    /// parsing a `&str` skips serde_json's UTF-8 check of every string token (about a hundred
    /// card codes in a state), validated once by whoever made the `&str`.
    fn load_json(&self, text: &str) -> Result<Box<dyn Match>, StateError> {
        let state: Value =
            serde_json::from_str(text).map_err(|e| StateError::Malformed(e.to_string()))?;
        self.load(&state)
    }
    /// Reads a JSON object that carries a state in its field `field` in one pass: the state
    /// straight into the typed state (a transparent envelope) or kept as a string (a sealed
    /// token, which the caller opens), every other field as a JSON value. `None` whenever
    /// anything is unusual (malformed JSON, a duplicate field, a state that fails its checks):
    /// the caller then takes its general path, which words the precise error. The API's `apply`
    /// uses it so that a request's state is not scanned once to find its extent and again to
    /// parse it.
    fn load_json_field(&self, text: &str, field: &str)
    -> Option<(LoadedField, Map<String, Value>)>;
    /// Loads and validates a state saved by [`Match::save_msgpack`], with the checks of
    /// [`Game::load`].
    fn load_msgpack(&self, bytes: &[u8]) -> Result<Box<dyn Match>, StateError>;
    /// Replays `actions` from a setup; stops at the first refused action.
    fn replay(&self, request: &NewGame, actions: &[(Seat, Value)]) -> Result<Replay, SetupError>;
    /// Plays one uniformly random game to its end and returns the number of actions applied.
    fn random_playout(&self, players: usize, seed: u64) -> Result<u64, SetupError> {
        self.random_playouts(players, seed, 1)
    }
    /// Plays `games` uniformly random games, seeds `first_seed`, `first_seed + 1`, ..., each as
    /// [`Game::random_playout`] would, and returns the number of actions applied in all. The
    /// games share one set of working lists: a loop of short games spends nothing re-growing them.
    fn random_playouts(
        &self,
        players: usize,
        first_seed: u64,
        games: u64,
    ) -> Result<u64, SetupError>;
    /// The built-in heuristic bot's choice: an index into `legal`, from a seat's view only.
    fn heuristic(&self, view: &Value, legal: &[Value]) -> Result<usize, String>;
    /// Plays one game of `request` to its end on typed calls: the seat whose turn it is chooses
    /// with the built-in heuristic (from its own view) if it is in `heuristic_seats`, else
    /// uniformly at random from a [`PlayoutRng`] seeded `choice_seed`. Returns the result; an
    /// error if the setup is refused or play stops before the end (a rules bug). The strength
    /// test plays thousands of these.
    fn heuristic_against_random(
        &self,
        request: &NewGame,
        heuristic_seats: &[Seat],
        choice_seed: u64,
    ) -> Result<GameResult, String>;
    /// The JSON Schemas of the family's options, actions, events and views (shared by every id
    /// of the family): a document `{"$schema", "$defs"}`, see [`crate::schema`].
    fn schemas(&self) -> Value;
}

/// The state field of a JSON object read by [`Game::load_json_field`].
pub enum LoadedField {
    /// A transparent state, loaded and checked.
    State(Box<dyn Match>),
    /// A string: a sealed token, for the caller to open.
    Token(String),
}

impl std::fmt::Debug for dyn Match {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Match({})", self.game_id())
    }
}

/// One game in progress, JSON-level.
pub trait Match: Send + Sync {
    /// The game id.
    fn game_id(&self) -> &str;
    /// Number of seats.
    fn players(&self) -> usize;
    /// The seed.
    fn seed(&self) -> u64;
    /// The effective options, as JSON.
    fn options(&self) -> Value;
    /// Seats that may act now, the seat whose turn it is first.
    fn to_act(&self) -> Vec<Seat>;
    /// True once the game has ended.
    fn is_over(&self) -> bool;
    /// Legal actions of `seat` in canonical order (empty if it may not act).
    fn legal_actions(&self, seat: Seat) -> Vec<Value>;
    /// The same list as [`Match::legal_actions`], serialized to a JSON array directly from the
    /// typed actions (no `Value` per action; key order may differ). The arena's per-move hot
    /// path uses it.
    fn legal_actions_json(&self, seat: Seat) -> String {
        serde_json::to_string(&self.legal_actions(seat)).unwrap_or_else(|_| "[]".into())
    }
    /// Applies an action: checks game over, then turn, then legality; the state is unchanged on error.
    fn apply(&mut self, seat: Seat, action: &Value) -> Result<Applied, ActionError>;
    /// The view of a seat or a spectator.
    fn view(&self, viewer: Viewer) -> Value;
    /// The same view as [`Match::view`], serialized to JSON text directly from the typed view
    /// (no intermediate `Value`; key order may differ). The arena's per-move hot path uses it.
    fn view_json(&self, viewer: Viewer) -> String {
        serde_json::to_string(&self.view(viewer)).unwrap_or_default()
    }
    /// The final result, once over.
    fn result(&self) -> Option<GameResult>;
    /// The transparent state envelope.
    fn save(&self) -> Value;
    /// The same envelope as [`Match::save`], serialized to JSON text directly from the typed
    /// state (no intermediate `Value`; key order may differ). The API's hot path uses it.
    fn save_json(&self) -> String {
        serde_json::to_string(&self.save()).unwrap_or_default()
    }
    /// The same envelope in MessagePack, appended to `out`: the plaintext of the API's sealed
    /// tokens, which no client reads (smaller than the JSON text and read back without parsing
    /// text, by [`Game::load_msgpack`]).
    fn save_msgpack(&self, out: &mut Vec<u8>) -> Result<(), String>;
    /// A copy.
    fn clone_match(&self) -> Box<dyn Match>;
    /// Every piece in the game (conformance audit).
    fn pieces(&self) -> Vec<String>;
    /// Codes the viewer must not see (conformance audit).
    fn hidden_from(&self, viewer: Viewer) -> Vec<String>;
    /// A full state drawn among those consistent with what `seat` has seen (see
    /// [`crate::game::GameState::determinize`]); `None` when the state contradicts itself.
    fn determinize(&self, seat: Seat, rng: &mut PlayoutRng) -> Option<Box<dyn Match>>;
    /// IS-MCTS for `seat` ([`crate::search::ismcts`]): the index of the chosen action in
    /// `legal_actions(seat)`, `None` if it has none. `rollout` says how it plays the rest of a
    /// sampled game; `keep_going` bounds the iterations.
    fn ismcts(
        &self,
        seat: Seat,
        rng: &mut PlayoutRng,
        rollout: Rollout,
        keep_going: &mut dyn FnMut(u32) -> bool,
    ) -> Option<usize>;
    /// Flat Monte Carlo for `seat` ([`crate::search::rollouts`]): `plan.count` playouts after
    /// each of `plan.actions` (indices into `legal_actions(seat)`), the rest played by `policy`
    /// ([`Rollout::Uniform`], or [`Rollout::Heuristic`] for the family's heuristic bot on each
    /// actor's view); `keep_going` bounds the work.
    fn rollouts(
        &self,
        seat: Seat,
        plan: RolloutPlan<'_>,
        policy: Rollout,
        rng: &mut PlayoutRng,
        keep_going: &mut dyn FnMut(u64) -> bool,
    ) -> Result<Vec<ActionValue>, RolloutStop>;
}

/// A published game id backed by a typed family and one of its presets.
pub struct PresetGame<G: GameDef> {
    info: GameInfo,
    preset: Preset,
    id: Arc<str>,
    /// The family, built once and shared by its presets: every setup merges its option specs.
    family: Arc<Family>,
    /// Typed setups with default options for every player count the id seats, built on the first
    /// random playout: they differ only in the seed, and merging options costs as much as a
    /// short game.
    playout_setups: OnceLock<Vec<Setup<OptionsOf<G>>>>,
    _family: PhantomData<fn() -> G>,
}

impl<G: GameDef> PresetGame<G> {
    /// Every preset of the family as its own game.
    pub fn all() -> Vec<Box<dyn Game>> {
        let family = Arc::new(G::family());
        family
            .presets
            .iter()
            .map(|preset| {
                Box::new(PresetGame::<G>::new(family.clone(), preset.clone())) as Box<dyn Game>
            })
            .collect()
    }

    /// The game of the family's preset `id`, for typed callers (benchmarks, tests) that want its
    /// setups (`typed_setup`: the same merging and checks as the registry's) without the erasure.
    pub fn preset(id: &str) -> Option<Self> {
        let family = Arc::new(G::family());
        let preset = family.presets.iter().find(|p| p.id == id)?.clone();
        Some(Self::new(family, preset))
    }

    fn new(family: Arc<Family>, preset: Preset) -> Self {
        let options = family
            .options
            .iter()
            .map(|spec| {
                let mut spec = spec.clone();
                if let Some(value) = preset.fixed.get(&spec.id).or(preset.defaults.get(&spec.id)) {
                    spec.default = value.clone();
                }
                spec
            })
            .collect();
        let players = preset.players.unwrap_or(family.players);
        // Only the ranges this id can reach: none whose condition its fixed options exclude.
        let players_when = family
            .players_when
            .iter()
            .filter(|rule| {
                rule.when.iter().all(|(id, allowed)| {
                    preset.fixed.get(id).is_none_or(|fixed| {
                        allowed.as_array().is_some_and(|list| list.contains(fixed))
                    })
                })
            })
            .cloned()
            .collect();
        let for_other_players = family
            .presets
            .iter()
            .filter(|other| other.id != preset.id)
            .map(|other| Sibling {
                id: other.id.to_string(),
                players: other.players.unwrap_or(family.players),
            })
            .filter(|other| other.players.min < players.min || other.players.max > players.max)
            .collect();
        let info = GameInfo {
            id: preset.id.to_string(),
            family: family.id.to_string(),
            name: preset.name.to_string(),
            description: preset.description.to_string(),
            rules_summary: family.rules_summary.to_string(),
            players,
            players_when,
            for_other_players,
            options,
            fixed_options: preset.fixed.clone(),
            family_name: family.name.to_string(),
            family_description: family.description.to_string(),
            table: family.table.clone(),
        };
        PresetGame {
            info,
            id: Arc::from(preset.id),
            preset,
            family,
            playout_setups: OnceLock::new(),
            _family: PhantomData,
        }
    }

    /// The typed setup for a request: player range, merged and typed options.
    pub fn typed_setup(&self, request: &NewGame) -> Result<Setup<OptionsOf<G>>, SetupError> {
        if request.seed > crate::rng::MAX_SEED {
            return Err(SetupError::InvalidSeed(request.seed));
        }
        let family_specs = &self.family.options;
        let merged = merge_options(family_specs, &self.preset, &request.options);
        // The range follows the options when they are valid (a variant may seat more).
        let range = merged.as_ref().map_or(self.info.players, |merged| {
            players_for(&self.info.players_when, merged, self.info.players)
        });
        let players = request.players;
        if !(range.min..=range.max).contains(&players) {
            return Err(SetupError::PlayerCount {
                game: self.info.id.clone(),
                min: range.min,
                max: range.max,
                got: players,
                alternatives: self
                    .info
                    .for_other_players
                    .iter()
                    .filter(|other| (other.players.min..=other.players.max).contains(&players))
                    .map(|other| other.id.clone())
                    .collect(),
            });
        }
        let mut merged = merged?;
        G::resolve_options(&request.options, &mut merged)?;
        check_constraints(family_specs, &request.options, &merged, players)?;
        let options: OptionsOf<G> = serde_json::from_value(Value::Object(merged))
            .map_err(|e| SetupError::InvalidOptions(format!("invalid options: {e}")))?;
        Ok(Setup {
            players: request.players,
            options,
            seed: request.seed,
            deals: request.deals.clone(),
        })
    }

    fn typed_start(&self, request: &NewGame) -> Result<(TypedMatch<G>, Vec<Value>), SetupError> {
        let setup = self.typed_setup(request)?;
        let mut events = Vec::new();
        let state = G::setup(&setup, &mut events)?;
        Ok((
            TypedMatch {
                id: self.id.clone(),
                state,
            },
            events.iter().map(to_json).collect(),
        ))
    }

    /// The data of a typed envelope of this version and this game id; `None` sends the caller to
    /// the general path ([`Game::load`]), which words why.
    fn own_data(&self, envelope: Envelope<G::State>) -> Option<G::State> {
        (envelope.version == STATE_VERSION && envelope.game == self.info.id)
            .then_some(envelope.data)
    }

    /// The checks every loaded state passes: player range, fixed options, the game's `validate`.
    fn checked(&self, typed: G::State) -> Result<Box<dyn Match>, StateError> {
        let players = typed.players();
        // The options' JSON form serves only these two checks: most ids fix no option and seat
        // the same range whatever the options, and every `apply` of the API loads a state.
        let PlayerRange { min, max } =
            if self.preset.fixed.is_empty() && self.info.players_when.is_empty() {
                self.info.players
            } else {
                let options = self.check_fixed(typed.options())?;
                players_for(&self.info.players_when, &options, self.info.players)
            };
        if !(min..=max).contains(&players) {
            return Err(StateError::Inconsistent(format!(
                "{players} players is outside {min}..={max}"
            )));
        }
        // Only seeds `new` accepts are reachable (see `typed_setup`).
        if typed.seed() > crate::rng::MAX_SEED {
            return Err(StateError::Inconsistent(format!(
                "seed {} is above 2^53 - 1",
                typed.seed()
            )));
        }
        typed.validate().map_err(StateError::Inconsistent)?;
        Ok(Box::new(TypedMatch::<G> {
            id: self.id.clone(),
            state: typed,
        }))
    }

    /// Checks the options this id fixes; returns the options as a JSON object.
    fn check_fixed(&self, options: &OptionsOf<G>) -> Result<Map<String, Value>, StateError> {
        let Value::Object(options) =
            serde_json::to_value(options).map_err(|e| StateError::Malformed(e.to_string()))?
        else {
            return Err(StateError::Malformed(
                "the options are not an object".into(),
            ));
        };
        for (id, fixed) in &self.preset.fixed {
            if options.get(id) != Some(fixed) {
                return Err(StateError::Inconsistent(format!(
                    "option `{id}` must be {fixed} in `{}`",
                    self.info.id
                )));
            }
        }
        Ok(options)
    }
}

impl<G: GameDef> Game for PresetGame<G> {
    fn info(&self) -> &GameInfo {
        &self.info
    }

    fn start_with_events(
        &self,
        request: &NewGame,
    ) -> Result<(Box<dyn Match>, Vec<Value>), SetupError> {
        let (game, events) = self.typed_start(request)?;
        Ok((Box::new(game), events))
    }

    fn load(&self, state: &Value) -> Result<Box<dyn Match>, StateError> {
        let Value::Object(envelope) = state else {
            return Err(StateError::Malformed(
                "expected a JSON object with `version`, `game` and `data`".into(),
            ));
        };
        let version = envelope
            .get("version")
            .and_then(Value::as_u64)
            .ok_or_else(|| StateError::Malformed("missing or non-integer `version`".into()))?;
        if version != STATE_VERSION {
            return Err(StateError::UnsupportedVersion {
                found: version,
                supported: STATE_VERSION,
            });
        }
        let game = envelope
            .get("game")
            .and_then(Value::as_str)
            .ok_or_else(|| StateError::Malformed("missing `game`".into()))?;
        if game != self.info.id {
            return Err(StateError::WrongGame {
                expected: self.info.id.clone(),
                found: game.to_string(),
            });
        }
        let data = envelope
            .get("data")
            .ok_or_else(|| StateError::Malformed("missing `data`".into()))?;
        // Deserialize from the borrowed tree: no copy of the state.
        let typed: G::State =
            <G::State>::deserialize(data).map_err(|e| StateError::Malformed(e.to_string()))?;
        self.checked(typed)
    }

    fn load_json(&self, text: &str) -> Result<Box<dyn Match>, StateError> {
        match serde_json::from_str::<Envelope<G::State>>(text)
            .ok()
            .and_then(|envelope| self.own_data(envelope))
        {
            Some(data) => self.checked(data),
            // Anything unusual takes the general path, which words the precise error.
            None => {
                let state: Value =
                    serde_json::from_str(text).map_err(|e| StateError::Malformed(e.to_string()))?;
                self.load(&state)
            }
        }
    }

    fn load_json_field(
        &self,
        text: &str,
        field: &str,
    ) -> Option<(LoadedField, Map<String, Value>)> {
        let mut deserializer = serde_json::Deserializer::from_str(text);
        let (state, rest) = serde::de::DeserializeSeed::deserialize(
            EmbeddedState::<G::State> {
                field,
                state: PhantomData,
            },
            &mut deserializer,
        )
        .ok()?;
        deserializer.end().ok()?;
        let loaded = match state? {
            StateField::Token(token) => LoadedField::Token(token),
            StateField::Envelope(envelope) => {
                LoadedField::State(self.checked(self.own_data(envelope)?).ok()?)
            }
        };
        Some((loaded, rest))
    }

    fn load_msgpack(&self, bytes: &[u8]) -> Result<Box<dyn Match>, StateError> {
        let envelope: Envelope<G::State> =
            rmp_serde::from_slice(bytes).map_err(|e| StateError::Malformed(e.to_string()))?;
        if envelope.version != STATE_VERSION {
            return Err(StateError::UnsupportedVersion {
                found: envelope.version,
                supported: STATE_VERSION,
            });
        }
        if envelope.game != self.info.id {
            return Err(StateError::WrongGame {
                expected: self.info.id.clone(),
                found: envelope.game,
            });
        }
        self.checked(envelope.data)
    }

    fn replay(&self, request: &NewGame, actions: &[(Seat, Value)]) -> Result<Replay, SetupError> {
        let (mut game, mut events) = self.typed_start(request)?;
        let mut refused = None;
        for (index, (seat, action)) in actions.iter().enumerate() {
            match game.apply(*seat, action) {
                Ok(applied) => events.extend(applied.events.into_iter().map(|mut event| {
                    if let Value::Object(map) = &mut event {
                        map.insert("action_index".into(), Value::from(index));
                    }
                    event
                })),
                Err(error) => {
                    refused = Some(ReplayError {
                        index,
                        seat: *seat,
                        error,
                    });
                    break;
                }
            }
        }
        Ok(Replay {
            game: Box::new(game),
            events,
            refused,
        })
    }

    fn random_playouts(
        &self,
        players: usize,
        first_seed: u64,
        games: u64,
    ) -> Result<u64, SetupError> {
        let setups = self.playout_setups.get_or_init(|| {
            let PlayerRange { min, max } = self.info.players;
            (min..=max)
                .filter_map(|players| {
                    self.typed_setup(&NewGame {
                        players,
                        ..NewGame::default()
                    })
                    .ok()
                })
                .collect()
        });
        let mut setup = match setups.iter().find(|s| s.players == players) {
            Some(setup) => setup.clone(),
            // Not seated with the default options: the setup words why.
            None => self.typed_setup(&NewGame {
                players,
                ..NewGame::default()
            })?,
        };
        let mut lists = PlayoutLists::<G>::default();
        let mut applied = 0;
        for game in 0..games {
            let seed = first_seed.wrapping_add(game);
            setup.seed = seed & crate::rng::MAX_SEED;
            applied += lists.play(&setup, seed ^ 0x9E37_79B9_7F4A_7C15);
        }
        Ok(applied)
    }

    fn heuristic(&self, view: &Value, legal: &[Value]) -> Result<usize, String> {
        let view: ViewOf<G> = <ViewOf<G>>::deserialize(view)
            .map_err(|e| format!("not a view of {}: {e}", self.info.id))?;
        let legal: Vec<ActionOf<G>> = legal
            .iter()
            .map(|a| {
                <ActionOf<G>>::deserialize(a)
                    .map_err(|e| format!("not an action of {}: {e}", self.info.id))
            })
            .collect::<Result<_, _>>()?;
        if legal.is_empty() {
            return Err("no legal action to choose from".into());
        }
        Ok(G::heuristic(&view, &legal).min(legal.len() - 1))
    }

    fn heuristic_against_random(
        &self,
        request: &NewGame,
        heuristic_seats: &[Seat],
        choice_seed: u64,
    ) -> Result<GameResult, String> {
        let setup = self.typed_setup(request).map_err(|e| e.to_string())?;
        let mut events = Vec::new();
        let mut state = G::setup(&setup, &mut events).map_err(|e| e.to_string())?;
        let mut rng = PlayoutRng::new(choice_seed);
        let mut legal = Vec::new();
        while let Some(&seat) = state.to_act().as_slice().first() {
            legal.clear();
            state.legal_actions(seat, &mut legal);
            if legal.is_empty() {
                return Err(format!("seat {seat} is to act with no legal action"));
            }
            let index = if heuristic_seats.contains(&seat) {
                G::heuristic(&state.view(Viewer::Seat(seat)), &legal).min(legal.len() - 1)
            } else {
                rng.below(legal.len())
            };
            events.clear();
            state
                .apply(seat, &legal[index], &mut events)
                .map_err(|e| format!("seat {seat}: a listed action was refused: {e}"))?;
        }
        state
            .result()
            .ok_or_else(|| "the game stopped without a result".to_string())
    }

    fn schemas(&self) -> Value {
        crate::schema::family_schemas::<G>(&self.family)
    }
}

use serde::Deserialize;

/// The working lists of random playouts (a move's events, a seat's legal actions), kept from one
/// game to the next by a loop of playouts (`cardroom playouts`, the benchmarks).
pub struct PlayoutLists<G: GameDef> {
    events: Vec<EventOf<G>>,
    actions: Vec<ActionOf<G>>,
}

impl<G: GameDef> Default for PlayoutLists<G> {
    fn default() -> Self {
        PlayoutLists {
            events: Vec::new(),
            actions: Vec::new(),
        }
    }
}

impl<G: GameDef> PlayoutLists<G> {
    /// Plays one uniformly random game on typed calls (a random actor, then a random legal
    /// action) in these lists and returns the number of actions applied.
    pub fn play(&mut self, setup: &Setup<OptionsOf<G>>, choice_seed: u64) -> u64 {
        let PlayoutLists { events, actions } = self;
        events.clear();
        // The stops below other than a finished game would be rules bugs: debug builds (every
        // test run, `playout_smoke` among them) fail on them; release builds (the benchmarks)
        // only stop counting.
        let state = G::setup(setup, events);
        debug_assert!(state.is_ok(), "a playout's setup was refused");
        let Ok(mut state) = state else {
            return 0;
        };
        let mut rng = PlayoutRng::new(choice_seed);
        let mut applied = 0;
        loop {
            let actors = state.to_act();
            let seats = actors.as_slice();
            if seats.is_empty() {
                debug_assert!(
                    state
                        .result()
                        .is_some_and(|r| r.scores.len() == setup.players),
                    "a playout stopped without a result of one score per seat"
                );
                return applied;
            }
            // One actor (nearly every step) needs no draw.
            let seat = match seats {
                [one] => *one,
                _ => seats[rng.below(seats.len())],
            };
            actions.clear();
            state.legal_actions(seat, actions);
            // A listed actor with nothing to do would be a rules bug; stop rather than spin.
            debug_assert!(!actions.is_empty(), "seat {seat} is to act, nothing listed");
            if actions.is_empty() {
                return applied;
            }
            let action = &actions[rng.below(actions.len())];
            events.clear();
            let outcome = state.apply_listed(seat, action, events);
            debug_assert!(outcome.is_ok(), "a listed action was refused: {outcome:?}");
            if outcome.is_err() {
                return applied;
            }
            applied += 1;
        }
    }
}

/// A typed game state behind the erased [`Match`] interface.
pub struct TypedMatch<G: GameDef> {
    id: Arc<str>,
    /// The typed state.
    pub state: G::State,
}

impl<G: GameDef> TypedMatch<G> {
    /// The typed legal actions of `seat`, in canonical order (none if it may not act).
    fn typed_legal_actions(&self, seat: Seat) -> Vec<ActionOf<G>> {
        let mut actions = Vec::new();
        if self.state.to_act().contains(seat) {
            self.state.legal_actions(seat, &mut actions);
        }
        actions
    }
}

impl<G: GameDef> Clone for TypedMatch<G> {
    fn clone(&self) -> Self {
        TypedMatch {
            id: self.id.clone(),
            state: self.state.clone(),
        }
    }
}

fn to_json<T: Serialize>(value: &T) -> Value {
    // Our own types always serialize (string keys, finite numbers): a failure is a bug, shown as null.
    serde_json::to_value(value).unwrap_or(Value::Null)
}

impl<G: GameDef> Match for TypedMatch<G> {
    fn game_id(&self) -> &str {
        &self.id
    }

    fn players(&self) -> usize {
        self.state.players()
    }

    fn seed(&self) -> u64 {
        self.state.seed()
    }

    fn options(&self) -> Value {
        to_json(self.state.options())
    }

    fn to_act(&self) -> Vec<Seat> {
        self.state.to_act().to_vec()
    }

    fn is_over(&self) -> bool {
        self.state.to_act().is_empty()
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Value> {
        self.typed_legal_actions(seat).iter().map(to_json).collect()
    }

    fn legal_actions_json(&self, seat: Seat) -> String {
        serde_json::to_string(&self.typed_legal_actions(seat)).unwrap_or_else(|_| "[]".into())
    }

    fn apply(&mut self, seat: Seat, action: &Value) -> Result<Applied, ActionError> {
        let actors = self.state.to_act();
        if actors.is_empty() {
            return Err(ActionError::GameOver);
        }
        if !actors.contains(seat) {
            return Err(ActionError::NotYourTurn {
                seat,
                to_act: actors.to_vec(),
            });
        }
        let action: ActionOf<G> = <ActionOf<G>>::deserialize(action).map_err(|e| {
            ActionError::illegal(
                "malformed_action",
                format!("not an action of {}: {e}", self.id),
            )
        })?;
        let mut events = Vec::new();
        self.state.apply(seat, &action, &mut events)?;
        Ok(Applied {
            events: events.iter().map(to_json).collect(),
        })
    }

    fn view(&self, viewer: Viewer) -> Value {
        to_json(&self.state.view(viewer))
    }

    fn view_json(&self, viewer: Viewer) -> String {
        serde_json::to_string(&self.state.view(viewer)).unwrap_or_default()
    }

    fn result(&self) -> Option<GameResult> {
        self.state.result()
    }

    fn save(&self) -> Value {
        serde_json::json!({
            "version": STATE_VERSION,
            "game": &*self.id,
            "data": to_json(&self.state),
        })
    }

    fn save_json(&self) -> String {
        serde_json::to_string(&self.envelope()).unwrap_or_default()
    }

    fn save_msgpack(&self, out: &mut Vec<u8>) -> Result<(), String> {
        // Fields by name (maps, not arrays): states skip absent fields and hold tagged and
        // untagged enums, which only a self-describing form reads back.
        rmp_serde::encode::write_named(out, &self.envelope()).map_err(|e| e.to_string())
    }

    fn clone_match(&self) -> Box<dyn Match> {
        Box::new(self.clone())
    }

    fn pieces(&self) -> Vec<String> {
        self.state.pieces()
    }

    fn hidden_from(&self, viewer: Viewer) -> Vec<String> {
        self.state.hidden_from(viewer)
    }

    fn ismcts(
        &self,
        seat: Seat,
        rng: &mut PlayoutRng,
        rollout: Rollout,
        keep_going: &mut dyn FnMut(u32) -> bool,
    ) -> Option<usize> {
        // A family's own choice must be a policy, not a reference back to itself.
        const {
            assert!(
                !matches!(G::SEARCH_ROLLOUT, Rollout::Family),
                "GameDef::SEARCH_ROLLOUT names a policy, not Rollout::Family"
            )
        };
        let rollout = match rollout {
            Rollout::Family => G::SEARCH_ROLLOUT,
            chosen => chosen,
        };
        match rollout {
            // `Family` is resolved above to a policy that is not `Family` (checked at compile time).
            Rollout::Uniform | Rollout::Family => crate::search::ismcts(
                &self.state,
                seat,
                rng,
                keep_going,
                G::search_actions,
                crate::search::uniform,
            ),
            Rollout::Heuristic { percent } => crate::search::ismcts(
                &self.state,
                seat,
                rng,
                keep_going,
                G::search_actions,
                |state, actor, legal, rng| {
                    if rng.below(100) < usize::from(percent) {
                        G::heuristic(&state.view(Viewer::Seat(actor)), legal)
                    } else {
                        rng.below(legal.len())
                    }
                },
            ),
        }
    }

    fn rollouts(
        &self,
        seat: Seat,
        plan: RolloutPlan<'_>,
        policy: Rollout,
        rng: &mut PlayoutRng,
        keep_going: &mut dyn FnMut(u64) -> bool,
    ) -> Result<Vec<ActionValue>, RolloutStop> {
        let policy = match policy {
            Rollout::Family => G::SEARCH_ROLLOUT,
            chosen => chosen,
        };
        let state = &self.state;
        match policy {
            Rollout::Uniform | Rollout::Family => {
                crate::search::rollouts(state, seat, plan, rng, keep_going, crate::search::uniform)
            }
            Rollout::Heuristic { percent } => crate::search::rollouts(
                state,
                seat,
                plan,
                rng,
                keep_going,
                |game, actor, legal, rng| {
                    if rng.below(100) < usize::from(percent) {
                        G::heuristic(&game.view(Viewer::Seat(actor)), legal)
                    } else {
                        rng.below(legal.len())
                    }
                },
            ),
        }
    }

    fn determinize(&self, seat: Seat, rng: &mut PlayoutRng) -> Option<Box<dyn Match>> {
        if seat >= self.state.players() {
            return None;
        }
        let state = self.state.determinize(seat, rng)?;
        Some(Box::new(TypedMatch::<G> {
            id: self.id.clone(),
            state,
        }))
    }
}

/// The envelope of a state being saved.
#[derive(Serialize)]
struct SavedEnvelope<'a, S> {
    version: u64,
    game: &'a str,
    data: &'a S,
}

impl<G: GameDef> TypedMatch<G> {
    fn envelope(&self) -> SavedEnvelope<'_, G::State> {
        SavedEnvelope {
            version: STATE_VERSION,
            game: &self.id,
            data: &self.state,
        }
    }
}

/// A transparent state's envelope, typed.
#[derive(Deserialize)]
struct Envelope<S> {
    version: u64,
    game: String,
    data: S,
}

/// A state field: a transparent envelope or a sealed token.
enum StateField<S> {
    Envelope(Envelope<S>),
    Token(String),
}

impl<'de, S: Deserialize<'de>> Deserialize<'de> for StateField<S> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct FieldVisitor<S>(PhantomData<S>);
        impl<'de, S: Deserialize<'de>> serde::de::Visitor<'de> for FieldVisitor<S> {
            type Value = StateField<S>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a state envelope or a sealed token")
            }
            fn visit_str<E: serde::de::Error>(self, token: &str) -> Result<Self::Value, E> {
                Ok(StateField::Token(token.to_string()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<Self::Value, A::Error> {
                Envelope::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(StateField::Envelope)
            }
        }
        deserializer.deserialize_any(FieldVisitor(PhantomData))
    }
}

/// Reads an object whose field `field` is a state, the other fields as JSON values
/// ([`Game::load_json_field`]); a repeated field is an error.
struct EmbeddedState<'a, S> {
    field: &'a str,
    state: PhantomData<S>,
}

type Embedded<S> = (Option<StateField<S>>, Map<String, Value>);

impl<'de, S: Deserialize<'de>> serde::de::DeserializeSeed<'de> for EmbeddedState<'_, S> {
    type Value = Embedded<S>;
    fn deserialize<D: serde::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de, S: Deserialize<'de>> serde::de::Visitor<'de> for EmbeddedState<'_, S> {
    type Value = Embedded<S>;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an object with a state")
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let (mut state, mut rest) = (None, Map::new());
        while let Some(key) = map.next_key::<String>()? {
            let repeated = if key == self.field {
                state.replace(map.next_value::<StateField<S>>()?).is_some()
            } else {
                let value = map.next_value::<Value>()?;
                rest.insert(key, value).is_some()
            };
            if repeated {
                return Err(serde::de::Error::custom("a field is repeated"));
            }
        }
        Ok((state, rest))
    }
}
