//! One game id's own OpenAPI 3.1 document (`GET /v1/games/<id>/openapi.json`): the describe, new,
//! legal, apply, view and replay operations of that id alone, at concrete paths
//! (`/v1/games/watten/apply`), with every request and response typed by the family's schemas
//! generated from the engine's types (`watten.NewOptions`, `watten.Action`, `watten.Event`,
//! `watten.View`, see [`engine::schema`]). A client generator given this document produces typed
//! models for every action, event and view of the game.
//!
//! Built from the whole-service document ([`crate::openapi`]) so the two never disagree. The
//! committed copies under `openapi/games/` are checked for drift by the e2e tests; regenerate them
//! with [`REGENERATE`].

use crate::openapi::{add_examples, base_document, family_components, name_enum_values, sample};
use engine::Game;
use serde_json::{Map, Value, json};
use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, OnceLock};

/// Folder of the committed per-game documents, relative to the workspace root.
pub const COMMITTED_DIR: &str = "openapi/games";
/// The command that regenerates the committed per-game documents.
pub const REGENERATE: &str = "cargo run -p api -- openapi --write-games openapi/games";

/// The operations of the rules API a game document carries (`/v1/games/{game}/<op>`), with their
/// operationIds there (fixed here, so generated clients keep their names: `new_game`, ...).
const OPERATIONS: [(&str, &str); 6] = [
    ("new", "new_game"),
    ("legal", "legal_actions"),
    ("apply", "apply_action"),
    ("view", "view_game"),
    ("replay", "replay_game"),
    ("determinize", "determinize_state"),
];

/// Where a game id's document is committed, relative to the workspace root.
pub fn committed_path(id: &str) -> String {
    format!("{COMMITTED_DIR}/{id}.json")
}

fn component(name: &str) -> String {
    format!("#/components/schemas/{name}")
}

/// Replaces the schema of `property` in the component `schema` by the typed one, keeping the
/// property's description.
fn retype(schemas: &mut Map<String, Value>, schema: &str, property: &str, typed: Value) {
    let Some(Value::Object(component)) = schemas.get_mut(schema) else {
        return;
    };
    // The service-wide example shows another game's JSON: the operations carry this game's.
    component.remove("example");
    let Some(Value::Object(slot)) = component
        .get_mut("properties")
        .and_then(|p| p.get_mut(property))
    else {
        return;
    };
    let description = slot.get("description").cloned();
    let mut typed = typed;
    if let (Value::Object(map), Some(description)) = (&mut typed, description) {
        map.insert("description".into(), description);
    }
    *slot = match typed {
        Value::Object(map) => map,
        _ => Map::new(),
    };
}

/// Every component name a value refers to (`#/components/schemas/<name>`).
fn references(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            for (key, item) in map {
                match (key.as_str(), item) {
                    ("$ref", Value::String(reference)) => {
                        if let Some(name) = reference.strip_prefix("#/components/schemas/") {
                            out.insert(name.to_string());
                        }
                    }
                    _ => references(item, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| references(item, out)),
        _ => {}
    }
}

/// The document of one game id, built from the whole-service `base` document.
fn build(base: &Value, game: &'static dyn Game) -> Value {
    let info = game.info();
    let id = &info.id;
    let family = &info.family;
    let sample = sample(game);
    let mut doc = base.clone();
    if let Some(sample) = &sample {
        add_examples(&mut doc, sample);
    }

    // The game's operations at concrete paths, without the `game` path parameter.
    let mut paths = Map::new();
    let all_paths = doc.get("paths").cloned().unwrap_or(Value::Null);
    let wanted = std::iter::once((
        "/v1/games/{game}".to_string(),
        format!("/v1/games/{id}"),
        "describe_game",
    ))
    .chain(OPERATIONS.iter().map(|(op, operation_id)| {
        (
            format!("/v1/games/{{game}}/{op}"),
            format!("/v1/games/{id}/{op}"),
            *operation_id,
        )
    }));
    for (generic, concrete, operation_id) in wanted {
        let Some(Value::Object(mut item)) = all_paths.get(&generic).cloned() else {
            continue;
        };
        for operation in item.values_mut() {
            if let Some(Value::Array(parameters)) = operation.get_mut("parameters") {
                parameters.retain(|p| p.get("name") != Some(&Value::from("game")));
            }
            if let Value::Object(map) = operation {
                if map
                    .get("parameters")
                    .and_then(Value::as_array)
                    .is_some_and(Vec::is_empty)
                {
                    map.remove("parameters");
                }
                map.insert("tags".into(), json!([id]));
                map.insert("operationId".into(), Value::from(operation_id));
            }
        }
        paths.insert(concrete, Value::Object(item));
    }

    // The typed bodies: the service's wire types with the family's schemas in the game slots.
    let mut schemas: Map<String, Value> = doc
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    schemas.extend(family_components(game, sample.as_ref()));
    name_enum_values(&mut schemas);
    let reference = |kind: &str| json!({"$ref": component(&format!("{family}.{kind}"))});
    let list_of = |kind: &str| json!({"type": "array", "items": reference(kind)});
    retype(
        &mut schemas,
        "NewGameRequest",
        "options",
        reference("NewOptions"),
    );
    retype(
        &mut schemas,
        "ReplayRequest",
        "options",
        reference("NewOptions"),
    );
    retype(&mut schemas, "ApplyRequest", "action", reference("Action"));
    retype(&mut schemas, "SeatAction", "action", reference("Action"));
    retype(&mut schemas, "SeatActions", "actions", list_of("Action"));
    retype(&mut schemas, "Step", "events", list_of("Event"));
    retype(&mut schemas, "ViewResponse", "view", reference("View"));
    retype(&mut schemas, "ReplayResponse", "log", list_of("Event"));
    retype(
        &mut schemas,
        "Step",
        "game",
        json!({"type": "string", "const": id}),
    );

    // Keep exactly the components the operations reach.
    let mut kept = BTreeSet::new();
    let mut pending = BTreeSet::new();
    references(&Value::Object(paths.clone()), &mut pending);
    while let Some(name) = pending.pop_first() {
        if !kept.insert(name.clone()) {
            continue;
        }
        if let Some(schema) = schemas.get(&name) {
            let mut found = BTreeSet::new();
            references(schema, &mut found);
            pending.extend(found.into_iter().filter(|n| !kept.contains(n)));
        }
    }
    schemas.retain(|name, _| kept.contains(name));
    // The headers the operations declare (`components/headers`, written once each).
    let operations_text = Value::Object(paths.clone()).to_string();
    let headers: Map<String, Value> = doc
        .pointer("/components/headers")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter(|(name, _)| operations_text.contains(&format!("\"#/components/headers/{name}\"")))
        .map(|(name, header)| (name.clone(), header.clone()))
        .collect();

    json!({
        "openapi": doc.get("openapi").cloned().unwrap_or(Value::from("3.1.0")),
        "info": {
            // Generators name the client after the title: `cardroom-watten-client`.
            "title": format!("cardroom {id}"),
            "version": doc.pointer("/info/version").cloned().unwrap_or(Value::from("0.1.0")),
            "license": doc.pointer("/info/license").cloned().unwrap_or(Value::Null),
            "description": format!(
                "The rules API of the game `{id}` ({name}) alone, for client generators: every \
    operation is typed with the schemas of the `{family}` family, generated from the engine's own \
    types (`{family}.NewOptions`, `{family}.Action`, `{family}.Event`, `{family}.View`; each action and \
    event type is its own schema, e.g. `{family}.Action.<type>`). Start a game with `new`, then loop: \
    read `to_act` and `legal_actions` from the step, `apply` one action, repeat until `over`. A replay's \
    `log` events also carry `action_index`, the index of the action that produced them. Every error is \
    `application/problem+json` with a stable `code`. The whole service is described in `/openapi.json`.",
                name = info.name,
            ),
        },
        "servers": doc.get("servers").cloned().unwrap_or(Value::Null),
        "security": doc.get("security").cloned().unwrap_or(Value::Null),
        "tags": [{"name": id, "description": info.description}],
        "paths": paths,
        "components": {"schemas": schemas, "headers": headers},
    })
}

/// The document of one game id (built from scratch; the server caches it).
pub fn game_document(game: &'static dyn Game) -> Value {
    build(&base_document(), game)
}

/// Every game id with its document text as committed (pretty-printed, trailing newline).
pub fn all_documents() -> Vec<(String, String)> {
    let base = base_document();
    engine::registry::games()
        .iter()
        .map(|game| {
            (
                game.info().id.clone(),
                to_text(&build(&base, game.as_ref())),
            )
        })
        .collect()
}

/// The files of `dir` that differ from the generated documents: missing or outdated ids, and
/// documents of ids that no longer exist. Empty when everything is up to date.
pub fn stale_documents(dir: &std::path::Path) -> Vec<String> {
    let mut stale = Vec::new();
    let documents = all_documents();
    for (id, text) in &documents {
        let path = dir.join(format!("{id}.json"));
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            stale.push(path.display().to_string());
        }
    }
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().to_string();
            let known = name
                .strip_suffix(".json")
                .is_some_and(|id| documents.iter().any(|(known, _)| known == id));
            if !known {
                stale.push(format!("{} (no such game id)", entry.path().display()));
            }
        }
    }
    stale
}

fn to_text(doc: &Value) -> String {
    let mut text = serde_json::to_string_pretty(doc).unwrap_or_default();
    text.push('\n');
    text
}

/// The document of one game id as served, built once per id.
pub fn cached_document(game: &'static dyn Game) -> Arc<str> {
    static BASE: OnceLock<Value> = OnceLock::new();
    static DOCS: OnceLock<Mutex<HashMap<String, Arc<str>>>> = OnceLock::new();
    let docs = DOCS.get_or_init(Default::default);
    let id = &game.info().id;
    if let Some(text) = docs.lock().ok().and_then(|d| d.get(id).cloned()) {
        return text;
    }
    let text: Arc<str> = Arc::from(to_text(&build(BASE.get_or_init(base_document), game)));
    if let Ok(mut docs) = docs.lock() {
        docs.insert(id.clone(), text.clone());
    }
    text
}
