//! JSON Schemas (draft 2020-12) of every family's options, actions, events and views, generated
//! from the engine's own types with `schemars`: the one source of the typed API contract.
//!
//! Naming: every schema of family `F` is called `F.<Type>` (`watten.Action`, `watten.Phase`), the
//! four roots take fixed names (`F.Options`, `F.Action`, `F.Event`, `F.View`), each variant of an
//! action or event union is its own schema `F.Action.<type>` / `F.Event.<type>` (so generated
//! clients get readable names such as `WattenActionPlay`), and the piece codes shared by every
//! family keep their plain names (`Card`, `Rank`, `Suit`, `Tile`). `F.NewOptions` is the
//! `options` object of a request: the same properties as `F.Options`, all optional (their
//! defaults differ between the ids of a family: the catalog entry of each id lists them).
//!
//! Schemas describe what the engine writes (serde's serialize side): every field a view or event
//! always carries is required, so clients need no guessing.

use crate::game::GameDef;
use crate::options::OptionKind;
use schemars::generate::SchemaSettings;
use schemars::{Schema, json_schema};
use serde_json::{Map, Value, json};

/// Schemas every family shares, kept under their plain names.
pub const SHARED: [&str; 4] = ["Card", "Rank", "Suit", "Tile"];

/// Where definitions live in the document [`family_schemas`] returns.
pub const DEFS: &str = "#/$defs/";

/// The schema of a value that is either one fixed word or a non-negative integer, as several
/// options are written (`"random"` or a seat, `"auto"` or a count).
pub fn word_or_count(word: &str, description: &str) -> Schema {
    json_schema!({
        "description": description,
        "oneOf": [
            {"type": "string", "const": word},
            {"type": "integer", "minimum": 0},
        ],
    })
}

/// Every schema of a family, as a JSON Schema document `{"$schema", "$defs"}` whose definitions
/// are named as the module documentation says and refer to each other with `#/$defs/<name>`.
/// `family` is `G`'s own (built once per process by the registry).
pub fn family_schemas<G: GameDef>(family: &crate::game::Family) -> Value {
    let prefix = family.id;
    let mut generator = SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator();
    let roots = [
        (
            "Options",
            generator.subschema_for::<crate::game::OptionsOf<G>>(),
        ),
        (
            "Action",
            generator.subschema_for::<crate::game::ActionOf<G>>(),
        ),
        (
            "Event",
            generator.subschema_for::<crate::game::EventOf<G>>(),
        ),
        ("View", generator.subschema_for::<crate::game::ViewOf<G>>()),
    ];
    let definitions = generator.take_definitions(true);

    // Old name -> new name: roots by their role, shared codes as they are, the rest prefixed.
    let mut names: Map<String, Value> = definitions
        .keys()
        .map(|name| {
            let new = if SHARED.contains(&name.as_str()) {
                name.clone()
            } else {
                format!("{prefix}.{name}")
            };
            (name.clone(), Value::String(new))
        })
        .collect();
    for (role, reference) in &roots {
        if let Some(old) = reference
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix(DEFS))
        {
            names.insert(old.to_string(), Value::String(format!("{prefix}.{role}")));
        }
    }
    let mut defs = Map::new();
    for (old, mut schema) in definitions {
        rename_refs(&mut schema, &names);
        let new = names
            .get(&old)
            .and_then(Value::as_str)
            .unwrap_or(&old)
            .to_string();
        defs.insert(new, schema);
    }

    defs.values_mut().for_each(closed_sets_as_enums);
    for role in ["Action", "Event"] {
        split_variants(&mut defs, &format!("{prefix}.{role}"));
    }
    complete_options(&mut defs, prefix, &family.options);
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": defs,
    })
}

fn rename_refs(value: &mut Value, names: &Map<String, Value>) {
    match value {
        Value::Object(map) => {
            for (key, item) in map.iter_mut() {
                if key == "$ref"
                    && let Some(old) = item.as_str().and_then(|r| r.strip_prefix(DEFS))
                    && let Some(new) = names.get(old).and_then(Value::as_str)
                {
                    *item = Value::String(format!("{DEFS}{new}"));
                } else {
                    rename_refs(item, names);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| rename_refs(item, names)),
        _ => {}
    }
}

/// Rewrites every `oneOf` of string constants (what schemars makes of a unit-variant enum whose
/// variants are documented) as one string `enum`, the variants' descriptions folded into the
/// schema's: client generators turn an `enum` into a real enum type.
fn closed_sets_as_enums(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            let words: Option<Vec<(Value, Option<String>)>> =
                map.get("oneOf")
                    .and_then(Value::as_array)
                    .and_then(|variants| {
                        variants
                            .iter()
                            .map(|variant| {
                                let word = variant.get("const").filter(|c| c.is_string())?;
                                let extra = variant.as_object()?.keys().any(|k| {
                                    !matches!(k.as_str(), "const" | "type" | "description")
                                });
                                (!extra).then(|| {
                                    (
                                        word.clone(),
                                        variant
                                            .get("description")
                                            .and_then(Value::as_str)
                                            .map(str::to_string),
                                    )
                                })
                            })
                            .collect()
                    });
            if let Some(words) = words {
                map.remove("oneOf");
                let described: Vec<String> = words
                    .iter()
                    .filter_map(|(word, text)| {
                        text.as_ref()
                            .map(|text| format!("`{}`: {text}", word.as_str().unwrap_or_default()))
                    })
                    .collect();
                if !described.is_empty() {
                    let lead = map
                        .get("description")
                        .and_then(Value::as_str)
                        .map(|d| format!("{d} "))
                        .unwrap_or_default();
                    map.insert(
                        "description".into(),
                        Value::from(format!("{lead}{}", described.join(" "))),
                    );
                }
                map.insert("type".into(), Value::from("string"));
                map.insert(
                    "enum".into(),
                    Value::Array(words.into_iter().map(|(word, _)| word).collect()),
                );
            }
            map.values_mut().for_each(closed_sets_as_enums);
        }
        Value::Array(items) => items.iter_mut().for_each(closed_sets_as_enums),
        _ => {}
    }
}

/// The `type` tag of one variant of an internally tagged union.
fn variant_tag(variant: &Value) -> Option<String> {
    let tag = variant.pointer("/properties/type")?;
    tag.get("const")
        .and_then(Value::as_str)
        .or_else(|| match tag.get("enum").and_then(Value::as_array) {
            Some(values) if values.len() == 1 => values[0].as_str(),
            _ => None,
        })
        .map(str::to_string)
}

/// Moves each variant of the union `name` into its own definition `<name>.<type>` and adds the
/// discriminator mapping.
fn split_variants(defs: &mut Map<String, Value>, name: &str) {
    let Some(Value::Object(union)) = defs.get_mut(name) else {
        return;
    };
    let Some(Value::Array(variants)) = union.get_mut("oneOf") else {
        return;
    };
    let mut moved = Vec::new();
    for variant in variants.iter_mut() {
        let Some(tag) = variant_tag(variant) else {
            continue;
        };
        let component = format!("{name}.{tag}");
        let reference = json!({"$ref": format!("{DEFS}{component}")});
        let mut schema = std::mem::replace(variant, reference);
        if let Value::Object(map) = &mut schema {
            map.entry("title")
                .or_insert_with(|| Value::from(component.clone()));
        }
        moved.push((component, schema));
    }
    for (component, schema) in moved {
        defs.insert(component, schema);
    }
}

/// Adds what the family's option declarations know (descriptions, ranges the engine checks) to
/// `F.Options`, and derives `F.NewOptions` from it.
fn complete_options(
    defs: &mut Map<String, Value>,
    prefix: &str,
    specs: &[crate::options::OptionSpec],
) {
    let name = format!("{prefix}.Options");
    let Some(Value::Object(options)) = defs.get_mut(&name) else {
        return;
    };
    if let Some(Value::Object(properties)) = options.get_mut("properties") {
        for spec in specs {
            let Some(Value::Object(property)) = properties.get_mut(&spec.id) else {
                continue;
            };
            property.insert("description".into(), Value::from(spec.description.clone()));
            // A nullable integer (`["integer", "null"]`, null disabling the rule) keeps its range.
            let integer = match property.get("type") {
                Some(Value::String(kind)) => kind == "integer",
                Some(Value::Array(kinds)) => kinds.iter().any(|k| k == "integer"),
                _ => false,
            };
            if let OptionKind::Integer { min, max } = spec.kind
                && !property.contains_key("enum")
                && integer
            {
                property.insert("minimum".into(), Value::from(min));
                property.insert("maximum".into(), Value::from(max));
            }
        }
    }
    let mut request = options.clone();
    request.remove("required");
    request.insert(
        "description".into(),
        Value::from(
            "The `options` object of `new` and `replay`: every key is optional, omitted keys take \
the game id's defaults (see the catalog entry), and a key an id fixes may be repeated, not changed.",
        ),
    );
    request.insert("title".into(), Value::from(format!("{prefix}.NewOptions")));
    defs.insert(format!("{prefix}.NewOptions"), Value::Object(request));
}
