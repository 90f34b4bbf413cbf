//! Declared options of a game family ([`OptionSpec`]) and presets ([`Preset`]), with the generic
//! checking and merging of option objects that every game shares.

use crate::error::SetupError;
use crate::game::Seat;
use crate::rng::GameRng;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// `first_dealer`, one type for every family that has it: `"random"` (one uniform draw, chance
/// event `first_dealer`) or a fixed seat number. Wire values: the string `"random"` or an integer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "FirstDealerWire", into = "FirstDealerWire")]
pub enum FirstDealer {
    /// Drawn with the game's RNG.
    Random,
    /// This seat deals first.
    Seat(Seat),
}

#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(untagged)]
enum FirstDealerWire {
    Word(RandomWord),
    Seat(Seat),
}

#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum RandomWord {
    Random,
}

impl From<FirstDealerWire> for FirstDealer {
    fn from(wire: FirstDealerWire) -> Self {
        match wire {
            FirstDealerWire::Word(RandomWord::Random) => FirstDealer::Random,
            FirstDealerWire::Seat(seat) => FirstDealer::Seat(seat),
        }
    }
}

impl From<FirstDealer> for FirstDealerWire {
    fn from(value: FirstDealer) -> Self {
        match value {
            FirstDealer::Random => FirstDealerWire::Word(RandomWord::Random),
            FirstDealer::Seat(seat) => FirstDealerWire::Seat(seat),
        }
    }
}

impl schemars::JsonSchema for FirstDealer {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "FirstDealer".into()
    }
    fn schema_id() -> std::borrow::Cow<'static, str> {
        concat!(module_path!(), "::FirstDealer").into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        // The wire form (`FirstDealerWire`).
        crate::schema::word_or_count(
            "random",
            "`\"random\"` (drawn at random) or the seat that deals first.",
        )
    }
}

impl FirstDealer {
    /// Refuses a fixed seat outside a `players`-seat game: at setup (as invalid options) and when a
    /// state is loaded (as an inconsistent state), with the same words.
    pub fn check(self, players: usize) -> Result<(), String> {
        match self {
            FirstDealer::Seat(seat) if seat >= players => Err(format!(
                "option `first_dealer` must be a seat from 0 to {}, not {seat}",
                players.saturating_sub(1)
            )),
            _ => Ok(()),
        }
    }

    /// The first dealer of every family: the fixed seat, or one uniform draw from the game's RNG
    /// (chance event `first_dealer`). The setup has refused a seat outside the game
    /// ([`FirstDealer::check`]) before.
    pub fn pick(self, rng: &mut GameRng, players: usize) -> Seat {
        match self {
            FirstDealer::Seat(seat) => seat,
            FirstDealer::Random => rng.pick(players),
        }
    }
}

/// Typed options at the defaults `specs` declare: `Default` of a family's options where the specs
/// are the one place its defaults are written. Panics if they do not parse, which the
/// conformance tests catch for every game id.
pub fn spec_defaults<O: serde::de::DeserializeOwned>(specs: &[OptionSpec]) -> O {
    let defaults: Map<String, Value> = specs
        .iter()
        .map(|spec| (spec.id.clone(), spec.default.clone()))
        .collect();
    serde_json::from_value(Value::Object(defaults))
        .unwrap_or_else(|e| panic!("the declared option defaults do not parse: {e}"))
}

/// The type and allowed values of one option.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum OptionKind {
    /// `true` or `false`.
    Boolean,
    /// An integer in `min..=max`.
    Integer {
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// One of a fixed list of integers (e.g. a target of 11, 15 or 18).
    IntegerChoice {
        /// The allowed integers.
        values: Vec<i64>,
    },
    /// One of a fixed list of strings.
    Enum {
        /// The allowed strings.
        values: Vec<String>,
    },
    /// One of a list of strings, or an integer in `min..=max` (e.g. `"random"` or a seat number).
    EnumOrInteger {
        /// The allowed strings.
        values: Vec<String>,
        /// Smallest integer.
        min: i64,
        /// Largest integer.
        max: i64,
    },
    /// An object with exactly one key, one of `keys`, whose value is an integer in `min..=max`
    /// (e.g. `{"deals": 4}` or `{"target": 31}`).
    SingleKeyObject {
        /// The allowed keys.
        keys: Vec<String>,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// A JSON object of one of the described forms (e.g. `{"target": T}`); the game checks the
    /// contents when it sets up.
    Object {
        /// The accepted forms, as written in the spec.
        forms: Vec<String>,
    },
}

/// One option of a game: id, type, default and a description.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OptionSpec {
    /// The option id, as used in the `options` object.
    pub id: String,
    /// Type and allowed values.
    #[serde(flatten)]
    pub kind: OptionKind,
    /// The default value.
    pub default: Value,
    /// What the option changes, with its source.
    pub description: String,
    /// True if `null` is allowed besides the declared type (it means what the description says,
    /// e.g. "no limit"). Set with [`OptionSpec::or_null`].
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub nullable: bool,
    /// Restrictions under other options' values (or the player count), machine-readable: under
    /// each rule's `when`, a requested value must be one of the rule's `values` (none: the option
    /// may not be given at all). Checked generically when a game is set up.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constraints: Vec<OptionRule>,
}

/// A condition on the other options of a request: option id (or `players`, the player count)
/// to the list of values under which it holds; every entry must hold.
pub type When = Map<String, Value>;

/// One restriction of an option: under `when`, only `values` are allowed (none: not at all).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OptionRule {
    /// The condition, e.g. `{"variant": ["bohemian"]}` or `{"players": [3]}`.
    pub when: When,
    /// The values allowed under the condition; empty when the option does not apply then.
    pub values: Vec<Value>,
}

/// True if `when` holds for these merged options and player count (a key naming neither an
/// option nor `players` never holds).
pub fn when_holds(when: &When, merged: &Map<String, Value>, players: usize) -> bool {
    when.iter().all(|(key, allowed)| {
        let current = if key == "players" {
            Some(Value::from(players))
        } else {
            merged.get(key).cloned()
        };
        let allowed = allowed.as_array().map(Vec::as_slice).unwrap_or_default();
        current.is_some_and(|v| allowed.contains(&v))
    })
}

fn describe_when(when: &When) -> String {
    when.iter()
        .map(|(key, values)| format!("{key} in {values}"))
        .collect::<Vec<_>>()
        .join(" and ")
}

/// Checks every requested option against its spec's [`OptionRule`]s, given the merged options.
pub fn check_constraints(
    specs: &[OptionSpec],
    requested: &Map<String, Value>,
    merged: &Map<String, Value>,
    players: usize,
) -> Result<(), SetupError> {
    for (id, value) in requested {
        let Some(spec) = specs.iter().find(|s| &s.id == id) else {
            continue;
        };
        for rule in &spec.constraints {
            if !when_holds(&rule.when, merged, players) || rule.values.contains(value) {
                continue;
            }
            let when = describe_when(&rule.when);
            return Err(SetupError::InvalidOptions(if rule.values.is_empty() {
                format!("option `{id}` does not apply when {when}")
            } else {
                format!(
                    "option `{id}` must be one of {} when {when}, not {value}",
                    Value::from(rule.values.clone())
                )
            }));
        }
    }
    Ok(())
}

/// The player range under some options: the first matching `when` decides, else `default`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayersWhen {
    /// The condition on the options (see [`When`]).
    pub when: When,
    /// The player range then.
    pub players: PlayerRange,
}

/// The range that applies to merged options: the first rule whose `when` holds, else `default`.
pub fn players_for(
    rules: &[PlayersWhen],
    merged: &Map<String, Value>,
    default: PlayerRange,
) -> PlayerRange {
    rules
        .iter()
        .find(|r| when_holds(&r.when, merged, 0))
        .map_or(default, |r| r.players)
}

impl OptionSpec {
    /// A boolean option.
    pub fn boolean(id: &str, default: bool, description: &str) -> OptionSpec {
        OptionSpec {
            id: id.into(),
            kind: OptionKind::Boolean,
            default: Value::Bool(default),
            description: description.into(),
            nullable: false,
            constraints: Vec::new(),
        }
    }

    /// An integer option in `min..=max`.
    pub fn integer(id: &str, min: i64, max: i64, default: i64, description: &str) -> OptionSpec {
        OptionSpec {
            id: id.into(),
            kind: OptionKind::Integer { min, max },
            default: Value::from(default),
            description: description.into(),
            nullable: false,
            constraints: Vec::new(),
        }
    }

    /// A string-choice option.
    pub fn choice(id: &str, values: &[&str], default: &str, description: &str) -> OptionSpec {
        OptionSpec {
            id: id.into(),
            kind: OptionKind::Enum {
                values: values.iter().map(|v| v.to_string()).collect(),
            },
            default: Value::from(default),
            description: description.into(),
            nullable: false,
            constraints: Vec::new(),
        }
    }

    /// A string-choice-or-integer option (the default is one of the strings).
    pub fn choice_or_integer(
        id: &str,
        values: &[&str],
        min: i64,
        max: i64,
        default: Value,
        description: &str,
    ) -> OptionSpec {
        OptionSpec {
            id: id.into(),
            kind: OptionKind::EnumOrInteger {
                values: values.iter().map(|v| v.to_string()).collect(),
                min,
                max,
            },
            default,
            description: description.into(),
            nullable: false,
            constraints: Vec::new(),
        }
    }

    /// An option whose value is an object with one key from `keys` and an integer value.
    pub fn single_key_object(
        id: &str,
        keys: &[&str],
        (min, max): (i64, i64),
        default: Value,
        description: &str,
    ) -> OptionSpec {
        OptionSpec {
            id: id.into(),
            kind: OptionKind::SingleKeyObject {
                keys: keys.iter().map(|k| k.to_string()).collect(),
                min,
                max,
            },
            default,
            description: description.into(),
            nullable: false,
            constraints: Vec::new(),
        }
    }

    /// An object-valued option (the game checks the contents at setup).
    pub fn object(id: &str, forms: &[&str], default: Value, description: &str) -> OptionSpec {
        OptionSpec {
            id: id.into(),
            kind: OptionKind::Object {
                forms: forms.iter().map(|v| v.to_string()).collect(),
            },
            default,
            description: description.into(),
            nullable: false,
            constraints: Vec::new(),
        }
    }

    /// An option that is one of a list of integers.
    pub fn integer_choice(id: &str, values: &[i64], default: i64, description: &str) -> OptionSpec {
        OptionSpec {
            id: id.into(),
            kind: OptionKind::IntegerChoice {
                values: values.to_vec(),
            },
            default: Value::from(default),
            description: description.into(),
            nullable: false,
            constraints: Vec::new(),
        }
    }

    /// Adds a restriction: under `when` (a JSON object of option id to allowed values), only
    /// `values` (a JSON array; empty: the option may not be given).
    pub fn constrained(mut self, when: Value, values: Value) -> OptionSpec {
        self.constraints.push(OptionRule {
            when: when.as_object().cloned().unwrap_or_default(),
            values: values.as_array().cloned().unwrap_or_default(),
        });
        self
    }

    /// The option may not be given under `when`.
    pub fn not_when(self, when: Value) -> OptionSpec {
        self.constrained(when, Value::Array(Vec::new()))
    }

    /// Also allows `null` (e.g. "no limit"); the description should say what `null` means.
    pub fn or_null(mut self) -> OptionSpec {
        self.nullable = true;
        self
    }

    /// Checks one value against the declared type, with a message naming the option.
    pub fn check(&self, value: &Value) -> Result<(), SetupError> {
        let id = &self.id;
        if self.nullable && value.is_null() {
            return Ok(());
        }
        let or_null = if self.nullable { " or null" } else { "" };
        let bad = |expected: String| {
            SetupError::InvalidOptions(format!(
                "option `{id}` must be {expected}{or_null}, not {value}"
            ))
        };
        let in_range =
            |min: i64, max: i64| value.as_i64().is_some_and(|v| (min..=max).contains(&v));
        let in_values = |values: &[String]| {
            value
                .as_str()
                .is_some_and(|v| values.iter().any(|x| x == v))
        };
        let quoted = |values: &[String]| {
            values
                .iter()
                .map(|v| format!("\"{v}\""))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match &self.kind {
            OptionKind::Boolean if value.is_boolean() => Ok(()),
            OptionKind::Boolean => Err(bad("true or false".into())),
            OptionKind::Integer { min, max } if in_range(*min, *max) => Ok(()),
            OptionKind::Integer { min, max } => Err(bad(format!("an integer from {min} to {max}"))),
            OptionKind::IntegerChoice { values }
                if value.as_i64().is_some_and(|v| values.contains(&v)) =>
            {
                Ok(())
            }
            OptionKind::IntegerChoice { values } => Err(bad(format!(
                "one of {}",
                values
                    .iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
            OptionKind::Enum { values } if in_values(values) => Ok(()),
            OptionKind::Enum { values } => Err(bad(format!("one of {}", quoted(values)))),
            OptionKind::EnumOrInteger { values, min, max }
                if in_values(values) || in_range(*min, *max) =>
            {
                Ok(())
            }
            OptionKind::EnumOrInteger { values, min, max } => Err(bad(format!(
                "one of {} or an integer from {min} to {max}",
                quoted(values)
            ))),
            OptionKind::SingleKeyObject { keys, min, max } => {
                let fits = match value {
                    Value::Object(map) => {
                        map.len() == 1
                            && map.iter().all(|(k, v)| {
                                keys.contains(k)
                                    && v.as_i64().is_some_and(|v| (*min..=*max).contains(&v))
                            })
                    }
                    _ => false,
                };
                if fits {
                    Ok(())
                } else {
                    let shapes = keys
                        .iter()
                        .map(|k| format!("{{\"{k}\": n}}"))
                        .collect::<Vec<_>>()
                        .join(" or ");
                    Err(bad(format!("{shapes} with n from {min} to {max}")))
                }
            }
            OptionKind::Object { .. } if value.is_object() => Ok(()),
            OptionKind::Object { forms } => Err(bad(format!("an object: {}", forms.join(" or ")))),
        }
    }
}

/// Inclusive range of player counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PlayerRange {
    /// Fewest players.
    pub min: usize,
    /// Most players.
    pub max: usize,
}

/// A published game id that fixes some options of a family (`twenty_two_short`, `watten_blind`, ...).
///
/// Each preset is its own entry in the catalog and has its own leaderboard in the arena.
#[derive(Debug, Clone, PartialEq)]
pub struct Preset {
    /// The game id.
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// One-paragraph description.
    pub description: &'static str,
    /// Player range, if narrower than the family's.
    pub players: Option<PlayerRange>,
    /// Options this preset fixes: a request may repeat them but not change them.
    pub fixed: Map<String, Value>,
    /// Options this preset defaults differently; a request may change them.
    pub defaults: Map<String, Value>,
}

impl Preset {
    /// A preset that changes nothing: the family as its own default id.
    pub fn plain(id: &'static str, name: &'static str, description: &'static str) -> Preset {
        Preset {
            id,
            name,
            description,
            players: None,
            fixed: Map::new(),
            defaults: Map::new(),
        }
    }

    /// Fixes options (a JSON object literal).
    pub fn fixing(mut self, fixed: Value) -> Preset {
        if let Value::Object(map) = fixed {
            self.fixed.extend(map);
        }
        self
    }

    /// Changes defaults (a JSON object literal).
    pub fn defaulting(mut self, defaults: Value) -> Preset {
        if let Value::Object(map) = defaults {
            self.defaults.extend(map);
        }
        self
    }

    /// Narrows the player range.
    pub fn players(mut self, min: usize, max: usize) -> Preset {
        self.players = Some(PlayerRange { min, max });
        self
    }
}

/// Merges a request's options over the family defaults and a preset, checking every value.
///
/// Unknown ids, wrong types, out-of-range values and attempts to change a fixed option are refused
/// with a message that names the option and what is allowed.
pub fn merge_options(
    specs: &[OptionSpec],
    preset: &Preset,
    requested: &Map<String, Value>,
) -> Result<Map<String, Value>, SetupError> {
    let mut merged = Map::new();
    for spec in specs {
        merged.insert(spec.id.clone(), spec.default.clone());
    }
    for (id, value) in preset.defaults.iter().chain(preset.fixed.iter()) {
        merged.insert(id.clone(), value.clone());
    }
    for (id, value) in requested {
        let Some(spec) = specs.iter().find(|s| &s.id == id) else {
            let known: Vec<&str> = specs.iter().map(|s| s.id.as_str()).collect();
            return Err(SetupError::InvalidOptions(format!(
                "unknown option `{id}`; the options of {} are: {}",
                preset.id,
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            )));
        };
        spec.check(value)?;
        if let Some(fixed) = preset.fixed.get(id)
            && fixed != value
        {
            return Err(SetupError::InvalidOptions(format!(
                "option `{id}` is fixed to {fixed} by the preset `{}`; use the family's base game id to change it",
                preset.id
            )));
        }
        merged.insert(id.clone(), value.clone());
    }
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn specs() -> Vec<OptionSpec> {
        vec![
            OptionSpec::boolean("buy_back", false, "b"),
            OptionSpec::integer("threshold", 10, 99, 22, "t"),
            OptionSpec::choice("end", &["last", "first"], "last", "e"),
            OptionSpec::choice_or_integer("first_dealer", &["random"], 0, 11, json!("random"), "f"),
            OptionSpec::integer("stop_at", 0, 99, 35, "s").or_null(),
            OptionSpec::single_key_object(
                "length",
                &["deals", "target"],
                (1, 500),
                json!({"deals": 4}),
                "l",
            ),
            OptionSpec::integer("limit", 1, 9, 5, "l").or_null(),
        ]
    }

    fn map(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap()
    }

    #[test]
    fn defaults_then_preset_then_request() {
        let preset = Preset::plain("p", "P", "").fixing(json!({"end": "first"}));
        let merged = merge_options(
            &specs(),
            &preset,
            &map(json!({"threshold": 30, "first_dealer": 2, "limit": null})),
        )
        .unwrap();
        assert_eq!(
            Value::Object(merged),
            json!({"buy_back": false, "threshold": 30, "end": "first", "first_dealer": 2,
                "stop_at": 35, "length": {"deals": 4}, "limit": null})
        );
        let merged = merge_options(
            &specs(),
            &preset,
            &map(json!({"stop_at": null, "length": {"target": 31}})),
        )
        .unwrap();
        assert_eq!(merged["stop_at"], Value::Null);
        assert_eq!(merged["length"], json!({"target": 31}));
    }

    #[test]
    fn each_kind_of_bad_value_is_named() {
        let preset = Preset::plain("p", "P", "").fixing(json!({"end": "first"}));
        let cases = [
            (json!({"nope": 1}), "unknown option `nope`"),
            (
                json!({"buy_back": "yes"}),
                "option `buy_back` must be true or false",
            ),
            (json!({"threshold": 5}), "from 10 to 99"),
            (json!({"end": "middle"}), "one of \"last\", \"first\""),
            (json!({"end": "last"}), "fixed to \"first\""),
            (
                json!({"first_dealer": "me"}),
                "\"random\" or an integer from 0 to 11",
            ),
            (json!({"stop_at": "x"}), "an integer from 0 to 99 or null"),
            (
                json!({"length": {"deals": 4, "target": 3}}),
                "{\"deals\": n} or {\"target\": n} with n from 1 to 500",
            ),
            (json!({"length": null}), "with n from 1 to 500"),
            (json!({"length": {"hands": 4}}), "with n from 1 to 500"),
            (
                json!({"limit": 0}),
                "`limit` must be an integer from 1 to 9 or null",
            ),
            (
                json!({"threshold": null}),
                "`threshold` must be an integer from 10 to 99, not null",
            ),
        ];
        for (request, expected) in cases {
            let err = merge_options(&specs(), &preset, &map(request.clone())).unwrap_err();
            assert!(err.to_string().contains(expected), "{request}: {err}");
            assert_eq!(err.code(), "invalid_options");
        }
    }
}
