//! The typed contract: every game id's own OpenAPI document (served, committed, linked from the
//! catalog) and the family schemas generated from the engine's types.

use crate::support::{spawn_app, workspace_root};
use serde_json::Value;

#[test]
fn the_committed_per_game_documents_are_up_to_date() {
    let dir = workspace_root().join(api::contract::COMMITTED_DIR);
    let stale = api::contract::stale_documents(&dir);
    assert!(
        stale.is_empty(),
        "out of date with the code: {}; regenerate them with `{}` and commit them",
        stale.join(", "),
        api::contract::REGENERATE
    );
}

#[tokio::test]
async fn every_catalog_entry_links_to_its_own_document_which_is_served_as_committed() {
    let app = spawn_app().await;
    let catalog = app.get("/v1/games").await;
    let entries = catalog.body.as_array().expect("an array");
    assert_eq!(entries.len(), engine::registry::games().len());
    for entry in entries {
        let id = entry["id"].as_str().expect("id");
        assert_eq!(entry["openapi"], format!("/v1/games/{id}/openapi.json"));
        let one = app.get(&format!("/v1/games/{id}")).await;
        assert_eq!(one.body["openapi"], entry["openapi"]);
    }
    for id in ["watten", "basra_partners", "twenty_two"] {
        let reply = app.get(&format!("/v1/games/{id}/openapi.json")).await;
        assert_eq!(reply.status, 200, "{id}");
        assert_eq!(reply.content_type, "application/json");
        let path = workspace_root().join(api::contract::committed_path(id));
        let committed: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("committed"))
                .expect("json");
        assert_eq!(
            reply.body, committed,
            "{id}: served and committed documents differ"
        );
    }
    let reply = app.get("/v1/games/chess/openapi.json").await;
    assert_eq!(reply.status, 404);
    assert_eq!(reply.problem_code(), "unknown_game");
}

/// The schema a `$ref` points at.
fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(reference) => {
            let name = reference.trim_start_matches("#/components/schemas/");
            &doc["components"]["schemas"][name]
        }
        None => schema,
    }
}

fn body_schema<'a>(doc: &'a Value, path: &str, request: bool) -> &'a Value {
    let op = &doc["paths"][path]["post"];
    let content = if request {
        &op["requestBody"]["content"]["application/json"]["schema"]
    } else {
        &op["responses"]["200"]["content"]["application/json"]["schema"]
    };
    resolve(doc, content)
}

#[test]
fn a_game_document_types_every_operation_with_its_family_schemas() {
    // A preset id shares its family's schemas, named after the family's base id.
    let doc = api::contract::game_document(engine::registry::find("watten_austrian").expect("id"));
    assert_eq!(doc["openapi"], "3.1.0");
    let paths: Vec<&str> = doc["paths"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    for op in ["new", "legal", "apply", "view", "replay"] {
        assert!(
            paths.contains(&format!("/v1/games/watten_austrian/{op}").as_str()),
            "{paths:?}"
        );
    }
    let reference = |name: &str| Value::from(format!("#/components/schemas/{name}"));
    let new = body_schema(&doc, "/v1/games/watten_austrian/new", true);
    assert_eq!(
        new["properties"]["options"]["$ref"],
        reference("watten.NewOptions")
    );
    let apply = body_schema(&doc, "/v1/games/watten_austrian/apply", true);
    assert_eq!(
        apply["properties"]["action"]["$ref"],
        reference("watten.Action")
    );
    let step = body_schema(&doc, "/v1/games/watten_austrian/apply", false);
    assert_eq!(
        step["properties"]["events"]["items"]["$ref"],
        reference("watten.Event")
    );
    let seat_actions = resolve(&doc, &step["properties"]["legal_actions"]["items"]);
    assert_eq!(
        seat_actions["properties"]["actions"]["items"]["$ref"],
        reference("watten.Action")
    );
    let view = body_schema(&doc, "/v1/games/watten_austrian/view", false);
    assert_eq!(view["properties"]["view"]["$ref"], reference("watten.View"));
    let replay = body_schema(&doc, "/v1/games/watten_austrian/replay", false);
    assert_eq!(
        replay["properties"]["log"]["items"]["$ref"],
        reference("watten.Event")
    );

    let schemas = &doc["components"]["schemas"];
    // Actions are a union discriminated by `type`, one named schema per action type.
    let play = &schemas["watten.Action.play"];
    assert_eq!(play["properties"]["type"]["const"], "play");
    assert_eq!(
        play["properties"]["cards"]["items"]["$ref"],
        reference("Card")
    );
    let union = schemas["watten.Action"]["oneOf"].as_array().expect("oneOf");
    assert!(union.contains(&serde_json::json!({"$ref": reference("watten.Action.play")})));
    // Card codes carry their pattern; Watten's target lists exactly the values it accepts.
    assert_eq!(schemas["Card"]["pattern"], engine::cards::CARD_CODE_PATTERN);
    assert_eq!(
        schemas["watten.NewOptions"]["properties"]["target"]["enum"],
        serde_json::json!([11, 15, 18])
    );
    // Every schema the document refers to is in it.
    let text = doc.to_string();
    for reference in text.split("\"$ref\":\"#/components/schemas/").skip(1) {
        let name = reference.split('"').next().unwrap_or_default();
        assert!(schemas.get(name).is_some(), "dangling reference to {name}");
    }
}

/// True if `schema` (or any schema inside it) is an object whose shape is left open.
fn free_form(schema: &Value, at: &str, out: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            let object = map.get("type") == Some(&Value::from("object"));
            if object
                && !map.contains_key("properties")
                && !map.contains_key("additionalProperties")
            {
                out.push(at.to_string());
            }
            if map.is_empty() {
                out.push(format!("{at} (empty schema)"));
            }
            for (key, value) in map {
                if key != "examples" && key != "example" && key != "default" && key != "const" {
                    free_form(value, &format!("{at}/{key}"), out);
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                free_form(item, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn no_family_schema_is_a_free_form_object_and_every_union_is_tagged() {
    for game in engine::registry::games() {
        let family = &game.info().family;
        let schemas = game.schemas();
        let defs = schemas["$defs"].as_object().expect("$defs");
        let mut loose = Vec::new();
        for (name, schema) in defs {
            free_form(schema, name, &mut loose);
        }
        assert!(loose.is_empty(), "{family}: free-form schemas at {loose:?}");
        for role in ["Action", "Event"] {
            let union = defs[&format!("{family}.{role}")]["oneOf"]
                .as_array()
                .unwrap_or_else(|| panic!("{family}.{role} is a oneOf"));
            for variant in union {
                let name = variant["$ref"]
                    .as_str()
                    .and_then(|r| r.strip_prefix(engine::schema::DEFS))
                    .unwrap_or_else(|| panic!("{family}.{role}: variant {variant} is not named"));
                let tag = name.rsplit('.').next().unwrap_or_default();
                assert_eq!(defs[name]["properties"]["type"]["const"], tag, "{name}");
            }
        }
        for role in ["Options", "NewOptions", "View"] {
            assert!(
                defs.contains_key(&format!("{family}.{role}")),
                "{family}.{role}"
            );
        }
    }
}

/// Issue 43: every field a replay's log carries is declared by its event's schema (a strict
/// client, pydantic with `extra='forbid'` or a validator with unevaluated properties, accepts
/// it): `action_index` included.
#[tokio::test]
async fn every_field_of_a_replay_log_is_declared_by_its_event_schema() {
    let app = spawn_app().await;
    for id in ["basra", "watten", "twenty_two"] {
        let doc = api::contract::game_document(engine::registry::find(id).expect("game"));
        let family = engine::registry::find(id)
            .expect("game")
            .info()
            .family
            .clone();
        let event = &doc["components"]["schemas"][format!("{family}.Event")];
        let mapping = event["discriminator"]["mapping"]
            .as_object()
            .expect("the event union's mapping");
        let step = app
            .post(
                &format!("/v1/games/{id}/new"),
                &serde_json::json!({"players": 2, "seed": 7}),
            )
            .await;
        assert_eq!(step.status, 200, "{id}: {}", step.body);
        let mut state = step.body;
        let mut actions = Vec::new();
        for _ in 0..12 {
            if state["over"] == true {
                break;
            }
            let seat = state["legal_actions"][0]["seat"].clone();
            let action = state["legal_actions"][0]["actions"][0].clone();
            actions.push(serde_json::json!({"seat": seat, "action": action}));
            let next = app
                .post(
                    &format!("/v1/games/{id}/apply"),
                    &serde_json::json!({"state": state["state"], "seat": seat, "action": action}),
                )
                .await;
            assert_eq!(next.status, 200, "{id}: {}", next.body);
            state = next.body;
        }
        let replay = app
            .post(
                &format!("/v1/games/{id}/replay"),
                &serde_json::json!({"players": 2, "seed": 7, "actions": actions}),
            )
            .await;
        assert_eq!(replay.status, 200, "{id}: {}", replay.body);
        let log = replay.body["log"].as_array().expect("log");
        assert!(log.iter().any(|e| e["action_index"].is_u64()), "{id}");
        for entry in log {
            let tag = entry["type"].as_str().expect("type");
            let reference = mapping.get(tag).unwrap_or_else(|| panic!("{id}: {tag}"));
            let name = reference
                .as_str()
                .and_then(|r| r.strip_prefix("#/components/schemas/"))
                .expect("reference");
            let declared = doc["components"]["schemas"][name]["properties"]
                .as_object()
                .expect("properties");
            for key in entry.as_object().expect("object").keys() {
                assert!(
                    declared.contains_key(key),
                    "{id}: `{key}` of a `{tag}` log event is not declared by {name}"
                );
            }
        }
    }
}
