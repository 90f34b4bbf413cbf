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
