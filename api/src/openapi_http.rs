//! What the HTTP edge and the shared route helpers add to every operation, declared in the
//! documents where the handlers' annotations do not: the `X-Request-Id` of every answer; the
//! 405 of every operation; `ETag`, `Cache-Control`, `If-None-Match` and 304 where answers carry
//! validators; `Location` and `Idempotent-Replayed` on what creates make; `RateLimit-*` on
//! every answer of a rate-limited operation; `WWW-Authenticate` on every 401. Headers are
//! written inline (not as `$ref`s), so each game's document, which copies operations, and the
//! 3.0 copies carry them whole.

use serde_json::{Map, Value, json};

/// The operations whose answers carry a strong `ETag` (and so answer `If-None-Match` with 304).
pub(crate) const VALIDATED_OPERATIONS: &[&str] = &[
    "list_games",
    "describe_game",
    "game_openapi",
    "show_match",
    "match_frames",
];

fn string_header(description: &str) -> Value {
    json!({"description": description, "schema": {"type": "string"}})
}

fn integer_header(description: &str) -> Value {
    json!({"description": description, "schema": {"type": "integer", "minimum": 0}})
}

/// A reference to the component header `name`: each header is described once, in
/// `components/headers` (each game's document copies them).
fn header(name: &str) -> Value {
    json!({"$ref": format!("#/components/headers/{name}")})
}

/// The headers the edge and the route helpers send, by name: `components/headers`.
pub(crate) fn header_components() -> Map<String, Value> {
    let headers = [
        (
            "X-Request-Id",
            string_header(
                "The request's id, on every log line of the request: the client's own `x-request-id` \
when it is 1 to 128 letters, digits or `-_.:`, else one the server made up",
            ),
        ),
        (
            "RateLimit-Limit",
            integer_header("Requests of this kind allowed per minute, per client and per token"),
        ),
        (
            "RateLimit-Remaining",
            integer_header("Requests of this kind allowed now"),
        ),
        (
            "RateLimit-Reset",
            integer_header("Seconds until the full allowance is back"),
        ),
        (
            "RateLimit-Policy",
            string_header("The limit and its window in seconds, e.g. `120;w=60`"),
        ),
        (
            "ETag",
            string_header(
                "A strong validator of this representation (with `-br` or `-gzip` inside the quotes \
when the body is compressed): send it back in `If-None-Match`",
            ),
        ),
        (
            "Cache-Control",
            string_header(
                "`public, max-age=300` for what does not change until the next release (the catalog, \
documents) or any more (a match that has ended); `no-cache` for what may change at any moment (a live \
match): revalidate with `If-None-Match`",
            ),
        ),
        (
            "Location",
            string_header("The path of what was made, e.g. `/v1/matches/m_0a4f8c2e6b1d3975`"),
        ),
        (
            "Idempotent-Replayed",
            string_header(
                "`true` when this is the stored answer of an earlier request with the same \
`Idempotency-Key` and body (nothing new was made)",
            ),
        ),
        (
            "WWW-Authenticate",
            string_header(
                "`Bearer realm=\"cardroom\"`, with `error=\"invalid_token\"` when the token sent is \
not valid",
            ),
        ),
        (
            "Allow",
            string_header("The methods of this path, e.g. `GET, HEAD, OPTIONS`"),
        ),
    ];
    headers
        .into_iter()
        .map(|(name, header)| (name.to_string(), header))
        .collect()
}

fn method_not_allowed() -> Value {
    json!({
        "description": "`method_not_allowed`: not a method of this path (see `Allow`)",
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}},
        "headers": {"Allow": header("Allow"), "X-Request-Id": header("X-Request-Id")},
    })
}

fn not_modified() -> Value {
    json!({
        "description": "Not modified: the `ETag` sent in `If-None-Match` is current (no body)",
        "headers": {
            "ETag": header("ETag"),
            "Cache-Control": header("Cache-Control"),
            "X-Request-Id": header("X-Request-Id"),
        },
    })
}

fn if_none_match() -> Value {
    json!({
        "name": "If-None-Match",
        "in": "header",
        "required": false,
        "description": "The `ETag` of the copy the client holds (or several, comma-separated, or `*`): 304 \
    while it is current",
        "schema": {"type": "string"},
    })
}

fn insert_headers(response: &mut Value, names: &[&'static str]) {
    let Value::Object(response) = response else {
        return;
    };
    let Value::Object(map) = response
        .entry("headers")
        .or_insert_with(|| Value::Object(Map::new()))
    else {
        return;
    };
    for name in names {
        map.entry(*name).or_insert_with(|| header(name));
    }
}

/// Declares the edge's headers and answers on every operation of `doc`, and the headers'
/// descriptions in its `components/headers`.
pub(crate) fn declare_http(doc: &mut Value) {
    if let Value::Object(root) = doc {
        let components = root
            .entry("components")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(components) = components {
            components.insert("headers".into(), Value::Object(header_components()));
        }
    }
    let Some(Value::Object(paths)) = doc.get_mut("paths") else {
        return;
    };
    for item in paths.values_mut() {
        let Value::Object(operations) = item else {
            continue;
        };
        for (method, operation) in operations.iter_mut() {
            declare_operation(method, operation);
        }
    }
}

fn declare_operation(method: &str, operation: &mut Value) {
    let id = operation
        .get("operationId")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let creates = operation
        .get("parameters")
        .and_then(Value::as_array)
        .is_some_and(|p| p.iter().any(|p| p["name"] == "Idempotency-Key"));
    let Some(Value::Object(responses)) = operation.get_mut("responses") else {
        return;
    };
    // `RateLimit-*` come with the rate limits (429 `rate_limited`), not with the caps on what a
    // client holds at once (`too_many_searches`, `too_many_streams`: `Retry-After` only).
    let limited = responses.get("429").is_some_and(|refused| {
        refused["description"]
            .as_str()
            .is_some_and(|text| text.contains("rate_limited"))
    });
    for (status, response) in responses.iter_mut() {
        insert_headers(response, &["X-Request-Id"]);
        if limited && (status.starts_with('2') || status == "429") {
            insert_headers(
                response,
                &[
                    "RateLimit-Limit",
                    "RateLimit-Remaining",
                    "RateLimit-Reset",
                    "RateLimit-Policy",
                ],
            );
        }
        if status == "201" || status == "202" {
            insert_headers(response, &["Location"]);
        }
        if creates && status.starts_with('2') {
            insert_headers(response, &["Idempotent-Replayed"]);
        }
        if status == "401" {
            insert_headers(response, &["WWW-Authenticate"]);
        }
    }
    let validated = VALIDATED_OPERATIONS.contains(&id.as_str());
    if validated {
        if let Some(ok) = responses.get_mut("200") {
            insert_headers(ok, &["ETag", "Cache-Control"]);
        }
        responses.insert("304".into(), not_modified());
    }
    responses.insert("405".into(), method_not_allowed());
    if validated
        && method == "get"
        && let Value::Object(operation) = operation
    {
        let Value::Array(parameters) = operation
            .entry("parameters")
            .or_insert_with(|| Value::Array(Vec::new()))
        else {
            return;
        };
        parameters.push(if_none_match());
    }
}

/// Names the variants of a union tagged by `type` whose variants are inline (`allOf` of a
/// reference and the tag, as serde's internally tagged enums of structs come out): each becomes
/// the component `<Union><Tag>` (`StreamLineMatchStart`: the reference, and `type` as a
/// constant), so the union's variants are references that the discriminators' pass (in the
/// whole document's completion) maps by tag. (Dotted names are the families'.)
pub(crate) fn name_inline_variants(schemas: &mut Map<String, Value>) {
    let mut named = Vec::new();
    for (union, schema) in schemas.iter() {
        let Some(Value::Array(variants)) = schema.get("oneOf") else {
            continue;
        };
        let mut parts = Vec::new();
        for variant in variants {
            let Some(Value::Array(all_of)) = variant.get("allOf") else {
                break;
            };
            let reference = all_of.iter().find_map(|part| part.get("$ref")).cloned();
            let tag = all_of.iter().find_map(|part| {
                let values = part.pointer("/properties/type/enum")?.as_array()?;
                match values.as_slice() {
                    [Value::String(tag)] => Some(tag.clone()),
                    _ => None,
                }
            });
            let (Some(reference), Some(tag)) = (reference, tag) else {
                break;
            };
            let description = variant.get("description").cloned();
            parts.push((tag, reference, description));
        }
        if !parts.is_empty() && parts.len() == variants.len() {
            named.push((union.clone(), parts));
        }
    }
    for (union, parts) in named {
        let mut variants = Vec::new();
        for (tag, reference, description) in parts {
            let name = format!("{union}{}", camel(&tag));
            let mut component = json!({
                "allOf": [{"$ref": reference}],
                "properties": {"type": {"type": "string", "const": tag}},
                "required": ["type"],
                "type": "object",
            });
            if let Some(description) = description {
                component["description"] = description;
            }
            schemas.insert(name.clone(), component);
            variants.push(json!({"$ref": format!("#/components/schemas/{name}")}));
        }
        if let Some(Value::Object(schema)) = schemas.get_mut(&union) {
            schema.insert("oneOf".into(), Value::Array(variants));
        }
    }
}

/// `match_start` as `MatchStart`.
fn camel(tag: &str) -> String {
    tag.split(['_', '-'])
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_inline_tagged_union_gets_named_variants() {
        let mut schemas: Map<String, Value> = serde_json::from_value(json!({
            "Line": {"oneOf": [
                {"allOf": [{"$ref": "#/components/schemas/Opening"}, {"properties": {"type": {"enum": ["start"], "type": "string"}}, "required": ["type"], "type": "object"}], "description": "Begins."},
                {"allOf": [{"$ref": "#/components/schemas/Closing"}, {"properties": {"type": {"enum": ["end"], "type": "string"}}, "required": ["type"], "type": "object"}]},
            ]},
            "Opening": {"type": "object"},
            "Closing": {"type": "object"},
        }))
        .expect("schemas");
        name_inline_variants(&mut schemas);
        assert_eq!(
            schemas["Line"]["oneOf"],
            json!([
                {"$ref": "#/components/schemas/LineStart"},
                {"$ref": "#/components/schemas/LineEnd"},
            ])
        );
        assert_eq!(
            schemas["LineEnd"]["allOf"],
            json!([{"$ref": "#/components/schemas/Closing"}])
        );
        assert_eq!(schemas["LineStart"]["properties"]["type"]["const"], "start");
        assert_eq!(schemas["LineStart"]["description"], "Begins.");
    }
}
