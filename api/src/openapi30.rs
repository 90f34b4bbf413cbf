//! The OpenAPI 3.0.3 copy of a 3.1 document, for client generators that read 3.0 only
//! (progenitor, older openapi-generator releases). The 3.1 documents stay the source of truth;
//! each copy is derived from one by [`to_openapi_30`] and committed under `openapi/3.0/`
//! (drift-checked like the 3.1 documents; regenerate with [`REGENERATE`]).
//!
//! What changes (JSON Schema 2020-12 to the 3.0 schema dialect):
//! - `type: [T, "null"]` becomes `type: T, nullable: true`; a `oneOf`/`anyOf` with a
//!   `{type: "null"}` branch loses the branch and becomes nullable (one branch left: `allOf` of it);
//! - `const: X` becomes `enum: [X]`; a schema's `examples: [..]` becomes `example` (the first);
//! - `prefixItems` (tuples) becomes `items` (the one item schema, or a `oneOf` of them) with the
//!   tuple's length as `minItems`/`maxItems`;
//! - keywords 3.0 lacks are dropped (`propertyNames`, `unevaluatedProperties`, `$schema`...),
//!   numeric `exclusiveMinimum`/`exclusiveMaximum` become the boolean form;
//! - a `$ref` with siblings keeps only the reference (3.0 ignores siblings), except a reference
//!   with its own properties, which becomes `allOf` of the reference and the rest;
//! - `info.license.identifier` (3.1 only) becomes the license's `url` at spdx.org;
//! - every error response (4xx, 5xx) also lists `application/json` beside
//!   `application/problem+json`, same schema: generators that type only `application/json`
//!   bodies (progenitor) then type the problem as the error. The server sends
//!   `application/problem+json`; a JSON reader reads either.

use serde_json::{Map, Value, json};

/// Folder of the committed 3.0 copies, relative to the workspace root: `cardroom.json`,
/// `bot-protocol.json` and `games/<id>.json`, one per 3.1 document under `openapi/`.
pub const COMMITTED_DIR: &str = "openapi/3.0";
/// The command that regenerates the committed 3.0 copies.
pub const REGENERATE: &str = "cargo run -p api -- openapi --write-3-0 openapi/3.0";

/// The 3.0.3 copy of a 3.1 document.
pub fn to_openapi_30(doc: &Value) -> Value {
    let mut doc = doc.clone();
    let Value::Object(root) = &mut doc else {
        return doc;
    };
    root.insert("openapi".into(), Value::from("3.0.3"));
    root.remove("jsonSchemaDialect");
    root.remove("webhooks");
    if let Some(Value::Object(license)) = root.get_mut("info").and_then(|i| i.get_mut("license"))
        && let Some(Value::String(identifier)) = license.remove("identifier")
    {
        license
            .entry("url")
            .or_insert_with(|| Value::from(spdx_url(&identifier)));
    }
    if let Some(Value::Object(schemas)) = root
        .get_mut("components")
        .and_then(|c| c.get_mut("schemas"))
    {
        for schema in schemas.values_mut() {
            convert_schema(schema);
        }
    }
    if let Some(Value::Object(paths)) = root.get_mut("paths") {
        for item in paths.values_mut() {
            let Value::Object(item) = item else { continue };
            for (key, operation) in item.iter_mut() {
                if key == "parameters" {
                    convert_parameters(operation);
                } else {
                    convert_operation(operation);
                }
            }
        }
    }
    // `nullable` needs a `type` beside it in 3.0: a nullable reference takes its target's type.
    let types: Map<String, Value> = root
        .get("components")
        .and_then(|c| c.get("schemas"))
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(name, schema)| Some((name.clone(), schema.get("type")?.clone())))
        .collect();
    type_nullable_references(root, &types);
    doc
}

/// Gives every nullable schema without a `type` the type of the one reference it wraps
/// (`{nullable, allOf: [{$ref}]}`); one whose reference has no single type (a union) stops being
/// nullable, as 3.0 cannot say "null or this union" (its property stays optional).
fn type_nullable_references(value: &mut Map<String, Value>, types: &Map<String, Value>) {
    if value.get("nullable") == Some(&Value::Bool(true)) && !value.contains_key("type") {
        let target = value
            .get("allOf")
            .and_then(Value::as_array)
            .filter(|all| all.len() == 1)
            .and_then(|all| all[0].get("$ref"))
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix("#/components/schemas/"))
            .and_then(|name| types.get(name))
            .filter(|t| t.is_string())
            .cloned();
        match target {
            Some(kind) => {
                value.insert("type".into(), kind);
            }
            None => {
                value.remove("nullable");
            }
        }
    }
    for child in value.values_mut() {
        match child {
            Value::Object(map) => type_nullable_references(map, types),
            Value::Array(items) => {
                for item in items {
                    if let Value::Object(map) = item {
                        type_nullable_references(map, types);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The spdx.org page of a license expression: the one license's page, or the license list for an
/// expression of several.
fn spdx_url(identifier: &str) -> String {
    if identifier.contains(' ') {
        "https://spdx.org/licenses/".to_string()
    } else {
        format!("https://spdx.org/licenses/{identifier}.html")
    }
}

fn convert_parameters(parameters: &mut Value) {
    for parameter in parameters.as_array_mut().into_iter().flatten() {
        if let Some(schema) = parameter.get_mut("schema") {
            convert_schema(schema);
        }
        if let Value::Object(map) = parameter {
            map.remove("examples");
        }
    }
}

fn convert_content(content: &mut Value) {
    for media in content
        .as_object_mut()
        .into_iter()
        .flat_map(|m| m.values_mut())
    {
        if let Some(schema) = media.get_mut("schema") {
            convert_schema(schema);
        }
    }
}

fn convert_operation(operation: &mut Value) {
    if let Some(parameters) = operation.get_mut("parameters") {
        convert_parameters(parameters);
    }
    if let Some(content) = operation.pointer_mut("/requestBody/content") {
        convert_content(content);
    }
    let Some(Value::Object(responses)) = operation.get_mut("responses") else {
        return;
    };
    for (status, response) in responses.iter_mut() {
        if let Some(Value::Object(headers)) = response.get_mut("headers") {
            for header in headers.values_mut() {
                if let Some(schema) = header.get_mut("schema") {
                    convert_schema(schema);
                }
            }
        }
        let Some(content) = response.get_mut("content") else {
            continue;
        };
        convert_content(content);
        if (status.starts_with('4') || status.starts_with('5'))
            && let Value::Object(media) = content
            && let Some(problem) = media.get("application/problem+json").cloned()
        {
            media.entry("application/json").or_insert(problem);
        }
    }
}

/// Converts one schema (and every schema inside it) to the 3.0 dialect, in place.
pub fn convert_schema(schema: &mut Value) {
    let Value::Object(map) = schema else {
        return;
    };
    for key in [
        "$schema",
        "$id",
        "$comment",
        "propertyNames",
        "unevaluatedProperties",
        "unevaluatedItems",
        "contentMediaType",
        "contentEncoding",
        "dependentRequired",
        "dependentSchemas",
    ] {
        map.remove(key);
    }
    // A `null` branch of a union first (its sibling keeps the description it had), then the
    // children.
    for key in ["oneOf", "anyOf"] {
        let Some(Value::Array(branches)) = map.get(key) else {
            continue;
        };
        let is_null = |b: &Value| {
            b.get("type") == Some(&Value::from("null"))
                || (b.get("nullable") == Some(&Value::Bool(true))
                    && b.get("enum") == Some(&json!([null])))
        };
        if !branches.iter().any(is_null) {
            continue;
        }
        let mut rest: Vec<Value> = branches.iter().filter(|b| !is_null(b)).cloned().collect();
        map.insert("nullable".into(), Value::Bool(true));
        if rest.len() == 1 {
            map.remove(key);
            let mut only = rest.remove(0);
            if let Value::Object(branch) = &mut only {
                // The branch's description describes the property: it moves up.
                if let Some(description) = branch.remove("description") {
                    map.entry("description").or_insert(description);
                }
                if let Some(default) = branch.remove("default") {
                    map.entry("default").or_insert(default);
                }
            }
            match only {
                Value::Object(branch) if !branch.contains_key("$ref") => {
                    for (k, v) in branch {
                        map.entry(k).or_insert(v);
                    }
                }
                other => {
                    map.insert("allOf".into(), json!([other]));
                }
            }
        } else {
            map.insert(key.into(), Value::Array(rest));
        }
    }
    for key in ["items", "additionalProperties", "not"] {
        if let Some(child) = map.get_mut(key) {
            convert_schema(child);
        }
    }
    for key in ["properties", "patternProperties", "$defs"] {
        if let Some(Value::Object(children)) = map.get_mut(key) {
            for child in children.values_mut() {
                convert_schema(child);
            }
        }
    }
    for key in ["oneOf", "anyOf", "allOf", "prefixItems"] {
        if let Some(Value::Array(children)) = map.get_mut(key) {
            for child in children {
                convert_schema(child);
            }
        }
    }
    map.remove("patternProperties");
    map.remove("$defs");

    if let Some(Value::Array(types)) = map.get("type").cloned() {
        let others: Vec<&Value> = types.iter().filter(|t| *t != "null").collect();
        if others.len() < types.len() {
            map.insert("nullable".into(), Value::Bool(true));
        }
        match others.as_slice() {
            [one] => {
                map.insert("type".into(), (*one).clone());
            }
            _ => {
                map.remove("type");
            }
        }
    }
    if let Some(value) = map.remove("const") {
        map.insert("enum".into(), json!([value]));
    }
    if let Some(Value::Array(examples)) = map.remove("examples")
        && let Some(first) = examples.into_iter().next()
    {
        map.entry("example").or_insert(first);
    }
    for (exclusive, bound) in [
        ("exclusiveMinimum", "minimum"),
        ("exclusiveMaximum", "maximum"),
    ] {
        if let Some(value) = map.get(exclusive).filter(|v| v.is_number()).cloned() {
            map.insert(bound.into(), value);
            map.insert(exclusive.into(), Value::Bool(true));
        }
    }
    if let Some(Value::Array(items)) = map.remove("prefixItems") {
        let length = items.len();
        let item = match dedup(items).as_slice() {
            [one] => one.clone(),
            several => json!({"oneOf": several}),
        };
        if !matches!(map.get("items"), Some(Value::Object(_))) {
            map.insert("items".into(), item);
        }
        map.entry("minItems").or_insert(Value::from(length));
        map.entry("maxItems").or_insert(Value::from(length));
    }
    if map.get("type") == Some(&Value::from("array")) && !map.contains_key("items") {
        map.insert("items".into(), json!({}));
    }
    if map.contains_key("$ref") && map.len() > 1 {
        let reference = map.remove("$ref").unwrap_or(Value::Null);
        let structural = ["properties", "required", "type", "items", "oneOf", "allOf"]
            .iter()
            .any(|k| map.contains_key(*k));
        if structural {
            let rest = std::mem::take(map);
            let mut outer = Map::new();
            if let Some(description) = rest.get("description") {
                outer.insert("description".into(), description.clone());
            }
            let mut inner = rest;
            inner.remove("description");
            outer.insert("allOf".into(), json!([{"$ref": reference}, inner]));
            *map = outer;
        } else {
            map.clear();
            map.insert("$ref".into(), reference);
        }
    }
}

fn dedup(items: Vec<Value>) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for item in items {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

/// Every committed 3.0 copy: its path under [`COMMITTED_DIR`] (`cardroom.json`,
/// `bot-protocol.json`, `games/<id>.json`) and its text (pretty-printed, trailing newline).
pub fn all_documents() -> Vec<(String, String)> {
    let mut out = vec![
        (
            "cardroom.json".to_string(),
            to_text(&to_openapi_30(&crate::openapi::document())),
        ),
        (
            "bot-protocol.json".to_string(),
            to_text(&to_openapi_30(
                &serde_json::to_value(arena::wire::bot_protocol_openapi()).unwrap_or_default(),
            )),
        ),
    ];
    for (id, text) in crate::contract::all_documents() {
        let doc: Value = serde_json::from_str(&text).unwrap_or_default();
        out.push((format!("games/{id}.json"), to_text(&to_openapi_30(&doc))));
    }
    out
}

/// The files of `dir` that differ from the generated 3.0 copies (missing, outdated, or of a
/// document that no longer exists). Empty when everything is up to date.
pub fn stale_documents(dir: &std::path::Path) -> Vec<String> {
    let documents = all_documents();
    let mut stale = Vec::new();
    for (path, text) in &documents {
        let file = dir.join(path);
        if std::fs::read_to_string(&file).ok().as_deref() != Some(text.as_str()) {
            stale.push(file.display().to_string());
        }
    }
    for sub in ["", "games"] {
        let Ok(entries) = std::fs::read_dir(dir.join(sub)) else {
            continue;
        };
        for entry in entries.flatten() {
            if entry.path().is_dir() {
                continue;
            }
            let name = entry.file_name().to_string_lossy().to_string();
            let relative = if sub.is_empty() {
                name
            } else {
                format!("{sub}/{name}")
            };
            if !documents.iter().any(|(path, _)| *path == relative) {
                stale.push(format!("{} (no such document)", entry.path().display()));
            }
        }
    }
    stale
}

/// Writes every 3.0 copy under `dir` (creating `dir/games`).
pub fn write_all(dir: &std::path::Path) -> std::io::Result<usize> {
    std::fs::create_dir_all(dir.join("games"))?;
    let documents = all_documents();
    for (path, text) in &documents {
        std::fs::write(dir.join(path), text)?;
    }
    Ok(documents.len())
}

fn to_text(doc: &Value) -> String {
    let mut text = serde_json::to_string_pretty(doc).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nullable_types_consts_tuples_and_references_take_their_3_0_form() {
        let mut schema = json!({
            "type": "object",
            "properties": {
                "n": {"type": ["integer", "null"], "minimum": 0, "maximum": 9},
                "kind": {"type": "string", "const": "play"},
                "pair": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "integer"}]},
                "result": {"oneOf": [{"type": "null"}, {"$ref": "#/components/schemas/R", "description": "d"}]},
                "card": {"$ref": "#/components/schemas/Card", "description": "c"},
                "names": {"type": "object", "propertyNames": {"type": "string"}},
            },
            "examples": [{"n": 1}],
        });
        convert_schema(&mut schema);
        let p = &schema["properties"];
        assert_eq!(
            p["n"],
            json!({"type": "integer", "nullable": true, "minimum": 0, "maximum": 9})
        );
        assert_eq!(p["kind"], json!({"type": "string", "enum": ["play"]}));
        assert_eq!(
            p["pair"],
            json!({"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2})
        );
        assert_eq!(
            p["result"],
            json!({"nullable": true, "description": "d", "allOf": [{"$ref": "#/components/schemas/R"}]})
        );
        assert_eq!(p["card"], json!({"$ref": "#/components/schemas/Card"}));
        assert_eq!(p["names"], json!({"type": "object"}));
        assert_eq!(schema["example"], json!({"n": 1}));
        assert!(schema.get("examples").is_none());
    }
}
