//! The committed OpenAPI document is what the code generates.

use crate::support::workspace_root;
use serde_json::Value;

#[test]
fn the_committed_openapi_document_is_up_to_date() {
    let path = workspace_root().join(api::openapi::COMMITTED_PATH);
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    let generated = api::openapi::document_string();
    assert!(
        committed == generated,
        "{} is out of date with the code; regenerate it with `{}` and commit it",
        path.display(),
        api::openapi::REGENERATE
    );
}

#[test]
fn every_operation_has_a_summary_a_description_and_examples() {
    let doc = api::openapi::document();
    let paths = doc["paths"].as_object().expect("paths");
    for (path, item) in paths {
        for (method, op) in item.as_object().unwrap() {
            let name = format!("{method} {path}");
            assert!(op["summary"].is_string(), "{name} has a summary");
            assert!(op["description"].is_string(), "{name} has a description");
            if path.starts_with("/v1/games/{game}") {
                assert!(op["responses"]["404"].is_object(), "{name} documents 404");
                if path.ends_with("/openapi.json") {
                    // Its answer is a whole document: the committed openapi/games/<id>.json.
                    continue;
                }
                assert!(
                    op["responses"]["200"]["content"]["application/json"]["example"].is_object(),
                    "{name} has a response example"
                );
                if method == "post" {
                    assert!(
                        op["requestBody"]["content"]["application/json"]["example"].is_object(),
                        "{name} has a request example"
                    );
                    assert!(op["responses"]["400"].is_object(), "{name} documents 400");
                }
            }
        }
    }
    // The service document names no family schema (they would be hundreds); each game's own
    // document carries its family's generated schemas, with real examples on the roots.
    let schemas = doc["components"]["schemas"].as_object().expect("schemas");
    let family_schemas: Vec<&String> = schemas.keys().filter(|k| k.contains('.')).collect();
    assert!(family_schemas.is_empty(), "{family_schemas:?}");
    let mut families = Vec::new();
    for game in engine::registry::games() {
        let family = &game.info().family;
        if families.contains(family) {
            continue;
        }
        families.push(family.clone());
        let game_doc = api::contract::game_document(game.as_ref());
        for kind in ["NewOptions", "Action", "Event", "View"] {
            let name = format!("{family}.{kind}");
            let schema = &game_doc["components"]["schemas"][&name];
            assert!(schema["examples"].is_array(), "{name} has examples");
        }
    }
}

/// One problem type for the whole service: every 4xx/5xx response of every operation, rules API
/// and arena alike, is documented as `application/problem+json` with the one `Problem` schema,
/// and every operation with a JSON body documents the 415 of issue 11 item 4.
#[test]
fn every_error_response_is_problem_json_and_every_json_body_documents_415() {
    let doc = api::openapi::document();
    let codes = doc["components"]["schemas"]["ErrorCode"]["enum"]
        .as_array()
        .expect("ErrorCode is a closed enum");
    for code in [
        "unsupported_media_type",
        "bot_url_refused",
        "unknown_game",
        "malformed_json",
    ] {
        assert!(codes.iter().any(|c| c == code), "ErrorCode lists {code}");
    }
    assert!(
        doc["components"]["schemas"].get("ArenaProblem").is_none(),
        "the arena has no problem type of its own"
    );
    let paths = doc["paths"].as_object().expect("paths");
    for (path, item) in paths {
        for (method, op) in item.as_object().expect("operations") {
            let name = format!("{method} {path}");
            for (status, response) in op["responses"].as_object().expect("responses") {
                if status.starts_with('4') || status.starts_with('5') {
                    let content = response["content"].as_object().expect("error content");
                    assert_eq!(
                        content.keys().collect::<Vec<_>>(),
                        vec!["application/problem+json"],
                        "{name} {status}"
                    );
                    assert_eq!(
                        content["application/problem+json"]["schema"]["$ref"],
                        "#/components/schemas/Problem",
                        "{name} {status}"
                    );
                }
            }
            if op["requestBody"]["content"]["application/json"].is_object() {
                assert!(op["responses"]["415"].is_object(), "{name} documents 415");
                assert!(op["responses"]["413"].is_object(), "{name} documents 413");
            }
        }
    }
}

/// Issue 13 item 3: generated clients get one function per operation, and `{game}` is the
/// catalog, so a client cannot name a game that does not exist.
#[test]
fn operation_ids_are_unique_and_the_game_parameter_is_the_catalog() {
    let doc = api::openapi::document();
    assert_eq!(doc["info"]["title"], "cardroom");
    let catalog: Vec<Value> = engine::registry::games()
        .iter()
        .map(|g| Value::from(g.info().id.clone()))
        .collect();
    let mut ids = std::collections::BTreeSet::new();
    let mut game_parameters = 0;
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("operations") {
            let id = op["operationId"].as_str().expect("an operationId");
            assert!(ids.insert(id.to_string()), "{method} {path}: `{id}` twice");
            for parameter in op["parameters"].as_array().into_iter().flatten() {
                if parameter["name"] == "game" && parameter["in"] == "path" {
                    game_parameters += 1;
                    assert_eq!(
                        parameter["schema"]["enum"],
                        Value::Array(catalog.clone()),
                        "{method} {path}"
                    );
                }
            }
        }
    }
    assert!(game_parameters >= 8, "{game_parameters}");
}

/// Issue 43: the OpenAPI 3.0.3 copies under `openapi/3.0/` are what the code generates.
#[test]
fn the_committed_openapi_3_0_copies_are_up_to_date() {
    let dir = workspace_root().join(api::openapi30::COMMITTED_DIR);
    let stale = api::openapi30::stale_documents(&dir);
    assert!(
        stale.is_empty(),
        "out of date: {stale:?}; regenerate them with `{}` and commit them",
        api::openapi30::REGENERATE
    );
}

/// Every document the service publishes, 3.1 (generated) and its 3.0 copy.
fn every_document() -> Vec<(String, Value)> {
    let mut out = vec![
        ("cardroom.json".to_string(), api::openapi::document()),
        (
            "bot-protocol.json".to_string(),
            serde_json::to_value(arena::wire::bot_protocol_openapi()).expect("json"),
        ),
    ];
    for (id, text) in api::contract::all_documents() {
        out.push((
            format!("games/{id}.json"),
            serde_json::from_str(&text).expect("json"),
        ));
    }
    let copies: Vec<(String, Value)> = out
        .iter()
        .map(|(name, doc)| (format!("3.0/{name}"), api::openapi30::to_openapi_30(doc)))
        .collect();
    out.extend(copies);
    out
}

fn schemas(doc: &Value) -> &serde_json::Map<String, Value> {
    doc["components"]["schemas"].as_object().expect("schemas")
}

fn target<'a>(doc: &'a Value, reference: &Value) -> &'a Value {
    let name = reference
        .as_str()
        .and_then(|r| r.strip_prefix("#/components/schemas/"))
        .expect("a component reference");
    &doc["components"]["schemas"][name]
}

/// The `type` tag of a variant schema: its `const` (3.1) or its one-value `enum` (3.0).
fn tag_of(variant: &Value) -> Option<&str> {
    let tag = &variant["properties"]["type"];
    tag["const"]
        .as_str()
        .or_else(|| match tag["enum"].as_array().map(Vec::as_slice) {
            Some([one]) => one.as_str(),
            _ => None,
        })
}

/// Issue 43: every union of `type`-tagged objects (each family's `Action` and `Event`) declares
/// `discriminator {propertyName: "type", mapping}`, and the mapping is exactly its variants.
#[test]
fn every_action_and_event_union_declares_its_discriminator() {
    let mut unions = 0;
    for (name, doc) in every_document() {
        for (schema_name, schema) in schemas(&doc) {
            let Some(variants) = schema["oneOf"].as_array() else {
                continue;
            };
            let tagged = variants
                .iter()
                .all(|v| v["$ref"].is_string() && tag_of(target(&doc, &v["$ref"])).is_some());
            let family_union = schema_name.ends_with(".Action") || schema_name.ends_with(".Event");
            if !tagged {
                assert!(
                    !family_union,
                    "{name}: {schema_name} has an untagged variant"
                );
                continue;
            }
            unions += 1;
            let discriminator = &schema["discriminator"];
            assert_eq!(
                discriminator["propertyName"], "type",
                "{name}: {schema_name}"
            );
            let mapping = discriminator["mapping"].as_object().expect("a mapping");
            assert_eq!(mapping.len(), variants.len(), "{name}: {schema_name}");
            for variant in variants {
                let tag = tag_of(target(&doc, &variant["$ref"])).expect("tag");
                assert_eq!(mapping[tag], variant["$ref"], "{name}: {schema_name} {tag}");
            }
        }
    }
    assert!(unions >= 2 * 45 * 2, "{unions} unions");
}

/// Issue 43: `WireState` is a union of two named schemas (no anonymous object/string pair), and
/// no two component enums give one value the same generated constant name.
#[test]
fn wire_state_is_named_and_enum_constants_do_not_collide() {
    for (name, doc) in every_document() {
        let schemas = schemas(&doc);
        if let Some(wire) = schemas.get("WireState") {
            let branches = wire["oneOf"].as_array().expect("WireState is a oneOf");
            let refs: Vec<&str> = branches
                .iter()
                .map(|b| b["$ref"].as_str().expect("each branch a $ref"))
                .collect();
            assert_eq!(
                refs,
                [
                    "#/components/schemas/TransparentState",
                    "#/components/schemas/SealedState"
                ],
                "{name}"
            );
            assert_eq!(schemas["TransparentState"]["type"], "object", "{name}");
            assert_eq!(schemas["SealedState"]["type"], "string", "{name}");
        }
        let mut constants = std::collections::BTreeMap::new();
        for (schema_name, schema) in schemas {
            let Some(values) = schema["enum"].as_array() else {
                continue;
            };
            let names: Vec<String> = match schema["x-enum-varnames"].as_array() {
                Some(names) => names
                    .iter()
                    .map(|n| n.as_str().expect("a name").to_string())
                    .collect(),
                None => values
                    .iter()
                    .filter_map(Value::as_str)
                    .map(|v| v.to_uppercase())
                    .collect(),
            };
            for constant in names {
                if let Some(other) = constants.insert(constant.clone(), schema_name.clone()) {
                    panic!("{name}: {constant} is a value of {other} and {schema_name}");
                }
            }
        }
    }
    let doc = api::openapi::document();
    assert!(
        schemas(&doc)["FaultKind"]["x-enum-varnames"]
            .as_array()
            .expect("FaultKind names its values")
            .contains(&Value::from("FAULT_KIND_ILLEGAL_ACTION"))
    );
}

/// Issue 43: what generators need at the top of every document, and nothing they would warn of.
#[test]
fn every_document_has_a_license_identifier_a_server_and_no_unused_component() {
    for (name, doc) in every_document() {
        let license = &doc["info"]["license"];
        if name.starts_with("3.0/") {
            assert!(
                license["identifier"].is_null(),
                "{name}: 3.0 has no identifier"
            );
            assert!(license["url"].is_string(), "{name}: {license}");
        } else if name != "bot-protocol.json" {
            assert_eq!(license["identifier"], api::openapi::LICENSE, "{name}");
        }
        if name.ends_with("bot-protocol.json") {
            // The bot's own base URL, whatever it is.
            assert!(doc["servers"].is_array(), "{name}");
        } else {
            assert_eq!(doc["servers"][0]["url"], "/", "{name}");
        }
        let text = doc.to_string();
        for component in schemas(&doc).keys() {
            let reference = format!("\"#/components/schemas/{component}\"");
            assert!(
                text.contains(&reference),
                "{name}: {component} is never used"
            );
        }
        for (path, item) in doc["paths"].as_object().expect("paths") {
            assert!(!path.ends_with('/') || path == "/", "{name}: {path}");
            for (method, operation) in item.as_object().expect("operations") {
                let responses = operation["responses"].as_object().expect("responses");
                // Operations without input (no parameter, no body) cannot be a client error.
                let takes_input =
                    operation["parameters"].is_array() || operation["requestBody"].is_object();
                if takes_input || name.ends_with("bot-protocol.json") {
                    assert!(
                        responses.keys().any(|s| s.starts_with('4')),
                        "{name}: {method} {path} documents no 4xx"
                    );
                }
            }
        }
    }
}

/// Issue 43: a nullable integer option keeps the range the catalog gives it.
#[test]
fn nullable_integer_options_keep_their_range() {
    for id in ["marglia", "marglia_pagat", "maniglia"] {
        let game = engine::registry::find(id).expect("game");
        let doc = api::contract::game_document(game);
        let family = &game.info().family;
        let options = &doc["components"]["schemas"][format!("{family}.NewOptions")]["properties"];
        for option in &game.info().options {
            let schema = &options[&option.id];
            if let engine::options::OptionKind::Integer { min, max } = option.kind {
                assert_eq!(schema["minimum"], min, "{id} {}: {schema}", option.id);
                assert_eq!(schema["maximum"], max, "{id} {}: {schema}", option.id);
            }
        }
    }
}
