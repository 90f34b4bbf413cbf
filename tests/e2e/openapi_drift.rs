//! The committed OpenAPI document is what the code generates.

use crate::support::workspace_root;

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
    // Every family's generated schemas are components, with real examples on the roots.
    for game in engine::registry::games() {
        for kind in ["NewOptions", "Options", "Action", "Event", "View"] {
            let name = format!("{}.{kind}", game.info().family);
            let schema = &doc["components"]["schemas"][&name];
            assert!(schema["examples"].is_array(), "{name} has examples");
        }
    }
}
