//! The OpenAPI 3.1 document of the whole service: generated from the handlers' annotations
//! (utoipa), then completed from the engine's registry (the `{game}` enum) and with real
//! request/response examples produced by playing seeded games, so the document is byte-stable. Each
//! game id's own document, typed with its family's schemas (`<family>.NewOptions`,
//! `<family>.Action`, `<family>.Event`, `<family>.View`, generated from the engine's types, see
//! [`engine::schema`] and [`family_components`]), is built in [`crate::contract`].
//!
//! Regenerate the committed copy with `cargo run -p api -- openapi --write openapi/cardroom.json`.

use crate::codec::StateCodec;
use crate::step::make_step;
use engine::{Game, Match, NewGame, Viewer};
use serde_json::{Map, Value, json};
use utoipa::OpenApi;
use utoipa_actix_web::AppExt;

/// Path of the committed document, relative to the workspace root.
pub const COMMITTED_PATH: &str = "openapi/cardroom.json";
/// The command that regenerates the committed document.
pub const REGENERATE: &str = "cargo run -p api -- openapi --write openapi/cardroom.json";
/// Seed of every game played to build examples.
const EXAMPLE_SEED: u64 = 42;

/// The static part of the document: info, tags and shared schemas.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "cardroom",
        description = "A stateless rules service for traditional card games. Every request carries the \
state it needs (a transparent JSON object, or a sealed token in sealed mode); the server keeps nothing. \
Start a game with `new`, then loop: read `to_act` and `legal_actions` from the step, `apply` one action, \
repeat until `over`. The arena runs ranked matches between bots registered by URL. Every error is \
`application/problem+json` with a stable `code`.",
        license(name = "MIT OR Apache-2.0"),
    ),
    tags(
        (name = "rules", description = "The stateless rules API: catalog, new, legal, apply, view, replay, determinize."),
        (name = "service", description = "Health and metrics."),
    ),
    components(schemas(
        crate::error::ErrorCode,
        crate::error::Problem,
        crate::dto::WireState,
        crate::dto::TransparentState,
        crate::dto::SealedState,
    )),
)]
pub struct ApiDoc;

/// A mid-game move: the match before, the seat, the action, the match after and its events.
pub(crate) struct Move {
    before: Box<dyn Match>,
    seat: usize,
    action: Value,
    after: Box<dyn Match>,
    events: Vec<Value>,
}

/// A seeded game played to its end, with the moments the examples show.
pub(crate) struct Sample {
    game: &'static dyn Game,
    setup: NewGame,
    start: Box<dyn Match>,
    /// The public events of the setup (the deal...).
    start_events: Vec<Value>,
    /// State, seat and action of a mid-game move, and the match after it.
    mid: Option<Move>,
    /// One example action per action `type`, in order of first appearance.
    actions: Vec<Value>,
    /// One example event per event `type`.
    events: Vec<Value>,
    /// Every action taken, for the replay example.
    history: Vec<(usize, Value)>,
}

fn kind_of(value: &Value) -> String {
    value
        .get("type")
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| value.to_string())
}

fn push_kind(list: &mut Vec<Value>, value: &Value) {
    if list.len() < 12 && !list.iter().any(|v| kind_of(v) == kind_of(value)) {
        list.push(value.clone());
    }
}

pub(crate) fn sample(game: &'static dyn Game) -> Option<Sample> {
    let info = game.info();
    let players = 2.clamp(info.players.min, info.players.max);
    let setup = NewGame {
        players,
        seed: EXAMPLE_SEED,
        ..NewGame::default()
    };
    let (start, start_events) = game.start_with_events(&setup).ok()?;
    let mut current = start.clone_match();
    let mut actions = Vec::new();
    let mut events = Vec::new();
    for event in &start_events {
        push_kind(&mut events, event);
    }
    let mut history = Vec::new();
    let mut mid = None;
    for step in 0..5000usize {
        let to_act = current.to_act();
        let Some(&seat) = to_act.first() else { break };
        let legal = current.legal_actions(seat);
        if legal.is_empty() {
            break;
        }
        for action in &legal {
            push_kind(&mut actions, action);
        }
        let action = legal[(step * 7 + 3) % legal.len()].clone();
        let before = current.clone_match();
        let applied = current.apply(seat, &action).ok()?;
        for event in &applied.events {
            push_kind(&mut events, event);
        }
        history.push((seat, action.clone()));
        if step == 5 || (mid.is_none() && current.is_over()) {
            mid = Some(Move {
                before,
                seat,
                action,
                after: current.clone_match(),
                events: applied.events,
            });
        }
    }
    Some(Sample {
        game,
        setup,
        start,
        start_events,
        mid,
        actions,
        events,
        history,
    })
}

/// The generated schemas of a game's family (`#/components/schemas/<family>.*`), with real
/// examples from `sample` on the roots (`<family>.Action`, `.Event`, `.View`, `.NewOptions`).
pub(crate) fn family_components(game: &dyn Game, sample: Option<&Sample>) -> Map<String, Value> {
    let info = game.info();
    let family = &info.family;
    let text = game.schemas()["$defs"].to_string().replace(
        &format!("\"{}", engine::schema::DEFS),
        "\"#/components/schemas/",
    );
    let mut components: Map<String, Value> = serde_json::from_str(&text).unwrap_or_default();
    for schema in components.values_mut() {
        reference_in_all_of(schema);
    }
    declare_action_index(&mut components, &format!("{family}.Event"));
    add_discriminators(&mut components);
    let mut examples = |kind: &str, list: Vec<Value>| {
        if let Some(Value::Object(schema)) = components.get_mut(&format!("{family}.{kind}")) {
            schema.insert("examples".into(), Value::Array(list));
        }
    };
    let defaults: Map<String, Value> = info
        .options
        .iter()
        .map(|spec| (spec.id.clone(), spec.default.clone()))
        .collect();
    examples("NewOptions", vec![Value::Object(defaults)]);
    let Some(sample) = sample else {
        tracing::warn!(game = %info.id, "no example game could be played; schemas without examples");
        return components;
    };
    examples("Options", vec![sample.start.options()]);
    examples("Action", sample.actions.clone());
    examples("Event", sample.events.clone());
    examples(
        "View",
        vec![
            sample.start.view(Viewer::Seat(0)),
            sample.start.view(Viewer::Spectator),
        ],
    );
    components
}

/// The SPDX license expression of the service (`info.license.identifier`).
pub const LICENSE: &str = "MIT OR Apache-2.0";

/// What every document carries beyond the handlers' annotations, for client generators:
/// `info.license.identifier` (SPDX), `servers` (the host that serves the document; docs/api.md
/// tells how to point a client elsewhere), `security` (none unless an operation names its own),
/// discriminators on `type`-tagged unions and collision-free names for enum values.
pub(crate) fn complete_for_generators(doc: &mut Value) {
    if let Some(Value::Object(info)) = doc.get_mut("info") {
        info.insert(
            "license".into(),
            json!({"name": LICENSE, "identifier": LICENSE}),
        );
    }
    if let Value::Object(root) = doc {
        root.insert(
            "servers".into(),
            json!([{
                "url": "/",
                "description": "The server that serves this document. A client generated from a \
saved copy is given the server's address as its base URL (docs/api.md, \"Pointing a client at a server\")."
            }]),
        );
        // Public unless an operation says otherwise (the arena's owner-token operations do).
        root.insert("security".into(), json!([]));
    }
    crate::openapi_http::declare_http(doc);
    if let Some(Value::Object(schemas)) = doc.pointer_mut("/components/schemas") {
        // A log event carries the fields of its type beside `type` and `action_index` (typed by
        // `<family>.Event` in each game's document).
        if let Some(Value::Object(log_event)) = schemas.get_mut("LogEvent") {
            log_event.insert("additionalProperties".into(), Value::Bool(true));
        }
        crate::openapi_http::name_inline_variants(schemas);
        add_discriminators(schemas);
        name_enum_values(schemas);
    }
}

/// Every `oneOf` component whose variants are references to objects tagged by a constant `type`
/// gets `discriminator {propertyName: "type", mapping}`, so generators pick the variant by its
/// tag instead of trying each shape (two variants of one shape would both match).
pub(crate) fn add_discriminators(schemas: &mut Map<String, Value>) {
    let mut found = Vec::new();
    for (name, schema) in schemas.iter() {
        let Some(Value::Array(variants)) = schema.get("oneOf") else {
            continue;
        };
        let mut mapping = Map::new();
        for variant in variants {
            let tag = variant
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix("#/components/schemas/"))
                .and_then(|target| schemas.get(target))
                .and_then(|target| target.pointer("/properties/type/const"))
                .and_then(Value::as_str);
            match (tag, variant.get("$ref")) {
                (Some(tag), Some(reference)) if !mapping.contains_key(tag) => {
                    mapping.insert(tag.to_string(), reference.clone());
                }
                _ => {
                    mapping.clear();
                    break;
                }
            }
        }
        if !mapping.is_empty() {
            found.push((name.clone(), mapping));
        }
    }
    for (name, mapping) in found {
        if let Some(Value::Object(schema)) = schemas.get_mut(&name) {
            schema.insert(
                "discriminator".into(),
                json!({"propertyName": "type", "mapping": mapping}),
            );
        }
    }
}

/// A schema that is a reference plus its own properties (a variant whose fields are another
/// type's, flattened, beside its `type` tag) names the reference in `allOf` instead: the same
/// meaning, which every reader (3.0 ones and Redocly's overlap check included) sees whole.
fn reference_in_all_of(schema: &mut Value) {
    let Value::Object(map) = schema else {
        return;
    };
    if map.contains_key("properties")
        && !map.contains_key("allOf")
        && let Some(reference) = map.remove("$ref")
    {
        map.insert("allOf".into(), json!([{"$ref": reference}]));
    }
}

/// Declares `action_index` on every variant of the event union `union`: a replay's `log` tags
/// each event with the index of the action that produced it (the events of the setup have none).
fn declare_action_index(schemas: &mut Map<String, Value>, union: &str) {
    let variants: Vec<String> = schemas
        .get(union)
        .and_then(|u| u.get("oneOf"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|v| v.get("$ref").and_then(Value::as_str))
        .filter_map(|r| r.strip_prefix("#/components/schemas/"))
        .map(str::to_string)
        .collect();
    for variant in variants {
        if let Some(Value::Object(properties)) = schemas
            .get_mut(&variant)
            .and_then(|v| v.get_mut("properties"))
        {
            properties.insert(
                "action_index".into(),
                json!({
                    "type": "integer",
                    "minimum": 0,
                    "description": "Only in a replay's `log`: the zero-based index of the action that \
produced the event (absent for the events of the setup, and in a step's `events`)."
                }),
            );
        }
    }
}

/// Gives the values of a component string enum generated names prefixed by the enum's own name
/// (`x-enum-varnames`, read by openapi-generator and others) when one of its values is also a
/// value of another component enum: `illegal_action` is both an `ErrorCode` and a `FaultKind`,
/// and generators that put enum constants in one namespace (Go) would define it twice.
pub(crate) fn name_enum_values(schemas: &mut Map<String, Value>) {
    let values_of = |schema: &Value| -> Vec<String> {
        if schema.get("type") != Some(&Value::from("string")) {
            return Vec::new();
        }
        schema
            .get("enum")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect()
    };
    let mut owners: std::collections::HashMap<String, usize> = Default::default();
    for schema in schemas.values() {
        for value in values_of(schema) {
            *owners.entry(constant_name(&value)).or_default() += 1;
        }
    }
    for (name, schema) in schemas.iter_mut() {
        let values = values_of(schema);
        if values.iter().any(|v| owners[&constant_name(v)] > 1)
            && let Value::Object(map) = schema
        {
            let prefix = constant_name(name);
            let names: Vec<Value> = values
                .iter()
                .map(|v| Value::from(format!("{prefix}_{}", constant_name(v))))
                .collect();
            map.insert("x-enum-varnames".into(), Value::Array(names));
        }
    }
}

/// `ErrorCode` / `illegal_action` / `basra.Deck` as a constant: `ERROR_CODE`, `ILLEGAL_ACTION`,
/// `BASRA_DECK`.
fn constant_name(text: &str) -> String {
    let mut out = String::new();
    let mut previous_lower = false;
    for c in text.chars() {
        if c.is_ascii_uppercase() && previous_lower {
            out.push('_');
        }
        previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_uppercase());
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    out
}

fn set_example(doc: &mut Value, path: &str, pointer: &str, example: Value) {
    let escaped = path.replace('~', "~0").replace('/', "~1");
    if let Some(Value::Object(map)) = doc.pointer_mut(&format!("/paths/{escaped}/{pointer}")) {
        map.insert("example".into(), example);
    }
}

/// Where an operation's request example goes in the document: its JSON request body.
const JSON_BODY: &str = "post/requestBody/content/application~1json";
/// Where an operation's answer example goes: its 200 answer.
const OK_BODY: &str = "post/responses/200/content/application~1json";
/// The problem+json content of a response.
const PROBLEM: &str = "content/application~1problem+json";

/// The path of a rules operation (`new`, `apply`...).
fn rules_path(op: &str) -> String {
    format!("/v1/games/{{game}}/{op}")
}

/// Puts real requests and answers of the sample's game into the document, operation by
/// operation, and names the game in its description.
pub(crate) fn add_examples(doc: &mut Value, sample: &Sample) {
    let id = &sample.game.info().id;
    setup_examples(doc, sample);
    search_examples(doc, sample);
    apply_examples(doc, sample);
    replay_examples(doc, sample);
    catalog_examples(doc, sample);
    if let Some(Value::String(description)) = doc.pointer_mut("/info/description") {
        description.push_str(&format!(
            " The examples below are real requests and responses of `{id}` (seed {EXAMPLE_SEED})."
        ));
    }
}

/// `new`, `legal` and `view` from the sample's first position.
fn setup_examples(doc: &mut Value, sample: &Sample) {
    let codec = StateCodec::transparent();
    let start_state = sample.start.save();
    let first_seat = sample.start.to_act().first().copied().unwrap_or(0);
    set_example(
        doc,
        &rules_path("new"),
        JSON_BODY,
        json!({"players": sample.setup.players, "options": {}, "seed": sample.setup.seed}),
    );
    if let Ok(step) = make_step(&codec, sample.start.as_ref(), sample.start_events.clone()) {
        set_example(
            doc,
            &rules_path("new"),
            OK_BODY,
            serde_json::to_value(step).unwrap_or_default(),
        );
    }
    set_example(
        doc,
        &rules_path("legal"),
        JSON_BODY,
        json!({"state": start_state, "seat": first_seat}),
    );
    set_example(
        doc,
        &rules_path("legal"),
        OK_BODY,
        json!({"seat": first_seat, "actions": sample.start.legal_actions(first_seat)}),
    );
    set_example(
        doc,
        &rules_path("view"),
        JSON_BODY,
        json!({"state": start_state, "seat": 0}),
    );
    set_example(
        doc,
        &rules_path("view"),
        OK_BODY,
        json!({"seat": 0, "view": sample.start.view(Viewer::Seat(0))}),
    );
}

/// `determinize` and `rollouts` from the sample's first position.
fn search_examples(doc: &mut Value, sample: &Sample) {
    let start_state = sample.start.save();
    let first_seat = sample.start.to_act().first().copied().unwrap_or(0);
    set_example(
        doc,
        &rules_path("determinize"),
        JSON_BODY,
        json!({"state": start_state, "seat": 0, "count": 2, "seed": EXAMPLE_SEED}),
    );
    let mut rng = engine::rng::PlayoutRng::new(EXAMPLE_SEED);
    let samples: Vec<Value> = (0..2)
        .filter_map(|_| sample.start.determinize(0, &mut rng))
        .map(|m| m.save())
        .collect();
    set_example(
        doc,
        &rules_path("determinize"),
        OK_BODY,
        json!({"seat": 0, "seed": EXAMPLE_SEED, "states": samples}),
    );
    let seat_actions: Vec<usize> = (0..sample.start.legal_actions(first_seat).len()).collect();
    set_example(
        doc,
        &rules_path("rollouts"),
        JSON_BODY,
        json!({"state": start_state, "seat": first_seat, "count": 20, "policy": "random", "seed": EXAMPLE_SEED}),
    );
    let plan = engine::search::RolloutPlan {
        actions: &seat_actions,
        count: 20,
        start: engine::search::RolloutStart::Exact,
        partial: false,
    };
    if let Ok(values) = sample.start.rollouts(
        first_seat,
        plan,
        engine::search::Rollout::Uniform,
        &mut engine::rng::PlayoutRng::new(EXAMPLE_SEED),
        &mut |_| true,
    ) {
        let legal = sample.start.legal_actions(first_seat);
        let results: Vec<Value> = legal
            .iter()
            .zip(&values)
            .map(|(action, value)| {
                {
                // Four decimals: a figure of 17 digits may not read back as the same f64 in every
                // JSON parser (the served document is compared with this one).
                let short = |figures: Vec<f64>| -> Vec<f64> {
                    figures.into_iter().map(|f| (f * 1e4).round() / 1e4).collect()
                };
                json!({"action": action, "playouts": value.playouts, "mean": short(value.mean()), "standard_error": short(value.standard_error()), "mean_standing": short(value.mean_standing())})
            }
            })
            .collect();
        set_example(
            doc,
            &rules_path("rollouts"),
            OK_BODY,
            json!({"seat": first_seat, "seed": EXAMPLE_SEED, "policy": "random", "determinized": false, "results": results}),
        );
    }
}

/// `apply`: the sample's move from the middle of a game, and the same action from a seat not to
/// act (422).
fn apply_examples(doc: &mut Value, sample: &Sample) {
    let codec = StateCodec::transparent();
    if let Some(Move {
        before,
        seat,
        action,
        after,
        events,
    }) = &sample.mid
    {
        set_example(
            doc,
            &rules_path("apply"),
            JSON_BODY,
            json!({"state": before.save(), "seat": seat, "action": action}),
        );
        if let Ok(step) = make_step(&codec, after.as_ref(), events.clone()) {
            set_example(
                doc,
                &rules_path("apply"),
                OK_BODY,
                serde_json::to_value(step).unwrap_or_default(),
            );
        }
        let players = before.players();
        let other = (0..players).find(|s| !before.to_act().contains(s));
        if let Some(other) = other {
            let mut wrong = before.clone_match();
            if let Err(error) = wrong.apply(other, action) {
                let problem_example = crate::error::ServiceError::from(error).problem();
                set_example(
                    doc,
                    &rules_path("apply"),
                    &format!("post/responses/422/{PROBLEM}"),
                    serde_json::to_value(problem_example).unwrap_or_default(),
                );
            }
        }
    }
}

/// `replay` of the sample's first four actions.
fn replay_examples(doc: &mut Value, sample: &Sample) {
    let codec = StateCodec::transparent();
    let history: Vec<Value> = sample
        .history
        .iter()
        .take(4)
        .map(|(seat, action)| json!({"seat": seat, "action": action}))
        .collect();
    set_example(
        doc,
        &rules_path("replay"),
        JSON_BODY,
        json!({"players": sample.setup.players, "options": {}, "seed": sample.setup.seed, "actions": history}),
    );
    let prefix: Vec<(usize, Value)> = sample.history.iter().take(4).cloned().collect();
    if let Ok(replayed) = sample.game.replay(&sample.setup, &prefix) {
        let last = prefix.len().saturating_sub(1) as u64;
        let last_events = replayed
            .events
            .iter()
            .filter(|e| e.get("action_index").and_then(Value::as_u64) == Some(last))
            .cloned()
            .collect();
        if let Ok(step) = make_step(&codec, replayed.game.as_ref(), last_events) {
            set_example(
                doc,
                &rules_path("replay"),
                OK_BODY,
                json!({"step": step, "log": replayed.events}),
            );
        }
    }
}

/// The catalog's answers for the sample's game, and an unknown game (404).
fn catalog_examples(doc: &mut Value, sample: &Sample) {
    set_example(
        doc,
        "/v1/games",
        "get/responses/200/content/application~1json",
        json!([crate::dto::GameEntry::from_info(sample.game.info())]),
    );
    set_example(
        doc,
        "/v1/games/{game}",
        "get/responses/200/content/application~1json",
        serde_json::to_value(crate::dto::GameEntry::from_info(sample.game.info()))
            .unwrap_or_default(),
    );
    set_example(
        doc,
        "/v1/games/{game}",
        &format!("get/responses/404/{PROBLEM}"),
        serde_json::to_value(crate::error::ServiceError::unknown_game("chess").problem())
            .unwrap_or_default(),
    );
}

/// The document the handlers' annotations describe (rules API and arena), before any game's
/// schemas and examples are added.
pub(crate) fn base_document() -> Value {
    let (_, mut api) = actix_web::App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .configure(crate::routes::configure_all)
        .split_for_parts();
    arena::document(&mut api);
    let mut doc = serde_json::to_value(&api).unwrap_or(Value::Null);
    complete_for_generators(&mut doc);
    doc
}

/// The complete OpenAPI document as JSON (object keys sorted): the whole service. Each family's
/// typed schemas live in the per-game documents ([`crate::contract`]), not here, so the service
/// document stays readable; it links to them instead.
pub fn document() -> Value {
    let mut doc = base_document();
    let games = engine::registry::games();
    let ids: Vec<Value> = games
        .iter()
        .map(|g| Value::from(g.info().id.clone()))
        .collect();
    let builtin: Vec<Value> = arena::builtin::NAMES
        .iter()
        .map(|&n| Value::from(n))
        .collect();
    enumerate_path_parameter(&mut doc, "game", &ids);
    enumerate_path_parameter(&mut doc, "name", &builtin);
    if let Some(Value::String(description)) = doc.pointer_mut("/info/description") {
        description.push_str(&format!(
            " Each game id has its own OpenAPI document, `/v1/games/<id>/openapi.json` (linked from \
its catalog entry), typing new, legal, apply, view and replay with that game's options, actions, events \
and views; generate a typed client from it (docs/api.md). Game ids: {}.",
            games
                .iter()
                .map(|g| format!("`{}`", g.info().id))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if let Some(first) = games.iter().find_map(|g| sample(g.as_ref())) {
        add_examples(&mut doc, &first);
    }
    doc
}

/// Narrows the path parameter `name` of every operation to the closed set `values`.
fn enumerate_path_parameter(doc: &mut Value, name: &str, values: &[Value]) {
    let Some(Value::Object(paths)) = doc.get_mut("paths") else {
        return;
    };
    for item in paths.values_mut() {
        let Value::Object(operations) = item else {
            continue;
        };
        for operation in operations.values_mut() {
            let Some(Value::Array(parameters)) = operation.get_mut("parameters") else {
                continue;
            };
            for parameter in parameters {
                if parameter.get("name") == Some(&Value::from(name))
                    && parameter.get("in") == Some(&Value::from("path"))
                {
                    parameter["schema"] = json!({"type": "string", "enum": values});
                }
            }
        }
    }
}

/// The document as committed: pretty-printed, sorted keys, trailing newline.
pub fn document_string() -> String {
    let mut text = serde_json::to_string_pretty(&document()).unwrap_or_default();
    text.push('\n');
    text
}
