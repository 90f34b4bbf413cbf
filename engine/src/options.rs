//! Declared options of a game family ([`OptionSpec`]) and presets ([`Preset`]), with the generic
//! checking and merging of option objects that every game shares.

use crate::error::SetupError;
use serde::Serialize;
use serde_json::{Map, Value};

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
    /// An integer in `min..=max`, or `null` (the feature is off).
    IntegerOrNull {
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// An object with exactly one key, one of `keys`, whose value is an integer in `min..=max`
    /// (e.g. `{"deals": 4}` or `{"target": 31}`); `null` too if `nullable`.
    SingleKeyObject {
        /// The allowed keys.
        keys: Vec<String>,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
        /// Whether `null` is allowed (meaning documented by the option).
        nullable: bool,
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
}

impl OptionSpec {
    /// A boolean option.
    pub fn boolean(id: &str, default: bool, description: &str) -> OptionSpec {
        OptionSpec {
            id: id.into(),
            kind: OptionKind::Boolean,
            default: Value::Bool(default),
            description: description.into(),
        }
    }

    /// An integer option in `min..=max`.
    pub fn integer(id: &str, min: i64, max: i64, default: i64, description: &str) -> OptionSpec {
        OptionSpec {
            id: id.into(),
            kind: OptionKind::Integer { min, max },
            default: Value::from(default),
            description: description.into(),
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
        }
    }

    /// An integer option in `min..=max` that may also be `null` (off).
    pub fn integer_or_null(
        id: &str,
        min: i64,
        max: i64,
        default: Option<i64>,
        description: &str,
    ) -> OptionSpec {
        OptionSpec {
            id: id.into(),
            kind: OptionKind::IntegerOrNull { min, max },
            default: default.map_or(Value::Null, Value::from),
            description: description.into(),
        }
    }

    /// An option whose value is an object with one key from `keys` and an integer value.
    pub fn single_key_object(
        id: &str,
        keys: &[&str],
        (min, max): (i64, i64),
        nullable: bool,
        default: Value,
        description: &str,
    ) -> OptionSpec {
        OptionSpec {
            id: id.into(),
            kind: OptionKind::SingleKeyObject {
                keys: keys.iter().map(|k| k.to_string()).collect(),
                min,
                max,
                nullable,
            },
            default,
            description: description.into(),
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
        }
    }

    /// Checks one value against the declared type, with a message naming the option.
    pub fn check(&self, value: &Value) -> Result<(), SetupError> {
        let id = &self.id;
        let bad = |expected: String| {
            SetupError::InvalidOptions(format!("option `{id}` must be {expected}, not {value}"))
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
            OptionKind::IntegerOrNull { min, max } if value.is_null() || in_range(*min, *max) => {
                Ok(())
            }
            OptionKind::IntegerOrNull { min, max } => {
                Err(bad(format!("null or an integer from {min} to {max}")))
            }
            OptionKind::SingleKeyObject {
                keys,
                min,
                max,
                nullable,
            } => {
                let fits = match value {
                    Value::Null => *nullable,
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
                    let null = if *nullable { " (or null)" } else { "" };
                    Err(bad(format!("{shapes} with n from {min} to {max}{null}")))
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
            OptionSpec::integer_or_null("stop_at", 0, 99, Some(35), "s"),
            OptionSpec::single_key_object(
                "length",
                &["deals", "target"],
                (1, 500),
                false,
                json!({"deals": 4}),
                "l",
            ),
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
            &map(json!({"threshold": 30, "first_dealer": 2})),
        )
        .unwrap();
        assert_eq!(
            Value::Object(merged),
            json!({"buy_back": false, "threshold": 30, "end": "first", "first_dealer": 2,
                "stop_at": 35, "length": {"deals": 4}})
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
            (json!({"stop_at": "x"}), "null or an integer from 0 to 99"),
            (
                json!({"length": {"deals": 4, "target": 3}}),
                "{\"deals\": n} or {\"target\": n} with n from 1 to 500",
            ),
            (json!({"length": null}), "with n from 1 to 500"),
            (json!({"length": {"hands": 4}}), "with n from 1 to 500"),
        ];
        for (request, expected) in cases {
            let err = merge_options(&specs(), &preset, &map(request.clone())).unwrap_err();
            assert!(err.to_string().contains(expected), "{request}: {err}");
            assert_eq!(err.code(), "invalid_options");
        }
    }
}
