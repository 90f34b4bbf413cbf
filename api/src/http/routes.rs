//! Which methods each path takes, and which of its operations take a token: read from the
//! OpenAPI document the routes generate (so it cannot drift from them), plus the pages, assets
//! and docs, which are `GET` only. The edge answers 405 with `Allow` and `OPTIONS` from it, and
//! its CORS policy asks it which requests may carry a token.

use actix_web::http::Method;
use serde_json::Value;

/// One path pattern and its operations.
#[derive(Debug, Clone)]
struct Route {
    segments: Vec<Segment>,
    /// Each method, and whether its operation takes a token (its OpenAPI `security` names a
    /// scheme).
    methods: Vec<(Method, bool)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    Literal(String),
    /// `{name}`: any one non-empty segment.
    Parameter,
    /// `{name:.*}` as the last segment: the rest of the path.
    Rest,
}

/// The service's paths and their methods.
#[derive(Debug, Clone, Default)]
pub struct RouteTable {
    routes: Vec<Route>,
}

/// The methods in the order `Allow` lists them.
const ORDER: [Method; 7] = [
    Method::GET,
    Method::HEAD,
    Method::POST,
    Method::PUT,
    Method::PATCH,
    Method::DELETE,
    Method::OPTIONS,
];

fn segments(pattern: &str) -> Vec<Segment> {
    pattern
        .trim_start_matches('/')
        .split('/')
        .map(|segment| {
            if segment.starts_with('{') && segment.ends_with('}') {
                if segment.contains(":.*") {
                    Segment::Rest
                } else {
                    Segment::Parameter
                }
            } else {
                Segment::Literal(segment.to_string())
            }
        })
        .collect()
}

impl Route {
    fn matches(&self, path: &str) -> bool {
        let mut parts = path.trim_start_matches('/').split('/');
        for segment in &self.segments {
            match (segment, parts.next()) {
                (Segment::Rest, _) => return true,
                (Segment::Parameter, Some(part)) if !part.is_empty() => {}
                (Segment::Literal(literal), Some(part)) if literal == part => {}
                _ => return false,
            }
        }
        parts.next().is_none()
    }
}

impl RouteTable {
    /// The operations of an OpenAPI document (`paths`), and `gets`: patterns served by `GET`
    /// only that the document does not list (pages, assets, docs).
    pub fn new(document: &Value, gets: &[&str]) -> RouteTable {
        let mut routes = Vec::new();
        if let Some(Value::Object(paths)) = document.get("paths") {
            for (pattern, item) in paths {
                let Value::Object(operations) = item else {
                    continue;
                };
                let methods = operations
                    .iter()
                    .filter_map(|(method, operation)| {
                        let method =
                            Method::from_bytes(method.to_ascii_uppercase().as_bytes()).ok()?;
                        let takes_token = operation
                            .get("security")
                            .and_then(Value::as_array)
                            .is_some_and(|requirements| {
                                requirements
                                    .iter()
                                    .any(|r| r.as_object().is_some_and(|r| !r.is_empty()))
                            });
                        Some((method, takes_token))
                    })
                    .collect();
                routes.push(Route {
                    segments: segments(pattern),
                    methods,
                });
            }
        }
        for pattern in gets {
            routes.push(Route {
                segments: segments(pattern),
                methods: vec![(Method::GET, false)],
            });
        }
        RouteTable { routes }
    }

    /// The methods `path` takes (`HEAD` with `GET`, and `OPTIONS` for any known path), in
    /// `Allow` order; empty for a path no route has.
    pub fn allowed(&self, path: &str) -> Vec<Method> {
        let mut found: Vec<Method> = Vec::new();
        for route in self.routes.iter().filter(|r| r.matches(path)) {
            for (method, _) in &route.methods {
                found.push(method.clone());
                if *method == Method::GET {
                    found.push(Method::HEAD);
                }
            }
        }
        if found.is_empty() {
            return found;
        }
        found.push(Method::OPTIONS);
        ORDER.into_iter().filter(|m| found.contains(m)).collect()
    }

    /// True if the operation `method` at `path` takes a token (an owner, bot or admin token).
    pub fn takes_token(&self, path: &str, method: &Method) -> bool {
        let method = if *method == Method::HEAD {
            &Method::GET
        } else {
            method
        };
        self.routes
            .iter()
            .filter(|r| r.matches(path))
            .flat_map(|r| &r.methods)
            .any(|(m, token)| m == method && *token)
    }
}

/// The `Allow` header's value.
pub fn allow_header(methods: &[Method]) -> String {
    methods
        .iter()
        .map(Method::as_str)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn table() -> RouteTable {
        RouteTable::new(
            &json!({"paths": {
                "/v1/bots": {"get": {}, "post": {"security": [{}, {"owner_token": []}]}},
                "/v1/bots/{id}": {"get": {}, "delete": {"security": [{"owner_token": []}]}},
                "/v1/games/{game}/apply": {"post": {"security": []}},
            }}),
            &["/", "/docs/{_:.*}", "/bots/{name}/"],
        )
    }

    #[test]
    fn paths_list_their_methods_in_order() {
        let table = table();
        assert_eq!(
            allow_header(&table.allowed("/v1/bots")),
            "GET, HEAD, POST, OPTIONS"
        );
        assert_eq!(
            allow_header(&table.allowed("/v1/bots/b_1")),
            "GET, HEAD, DELETE, OPTIONS"
        );
        assert_eq!(
            allow_header(&table.allowed("/v1/games/basra/apply")),
            "POST, OPTIONS"
        );
        assert_eq!(allow_header(&table.allowed("/")), "GET, HEAD, OPTIONS");
        assert_eq!(
            allow_header(&table.allowed("/docs/swagger-ui.css")),
            "GET, HEAD, OPTIONS"
        );
        assert_eq!(
            allow_header(&table.allowed("/bots/random/")),
            "GET, HEAD, OPTIONS"
        );
        assert!(table.allowed("/v1/bots/b_1/nothing").is_empty());
        assert!(table.allowed("/v1/bots/").is_empty());
        assert!(table.allowed("/nowhere").is_empty());
    }

    #[test]
    fn an_operation_takes_a_token_when_its_security_names_a_scheme() {
        let table = table();
        assert!(table.takes_token("/v1/bots", &Method::POST));
        assert!(!table.takes_token("/v1/bots", &Method::GET));
        assert!(!table.takes_token("/v1/bots", &Method::HEAD));
        assert!(table.takes_token("/v1/bots/b_1", &Method::DELETE));
        assert!(!table.takes_token("/v1/games/basra/apply", &Method::POST));
    }
}
