//! Cross-origin requests from browsers. The rules API and every route that takes no token answer
//! any origin (`Access-Control-Allow-Origin: *`): they are public, and no credentials (cookies)
//! are ever allowed, so an origin gains nothing it could not get with `curl`. Routes that take a
//! token (an owner, bot or admin token) answer only the origins of `--cors-origins`
//! (`CARDROOM_CORS_ORIGINS`; default `*`, any): an operator who serves a web client from one
//! origin names it there, and pages on other origins cannot drive those routes from a browser.
//! Preflights (`OPTIONS` with `Access-Control-Request-Method`) are answered by the edge.

use super::routes::RouteTable;
use actix_web::http::Method;
use actix_web::http::header::{HeaderMap, HeaderValue, VARY};

/// The request headers a cross-origin request may send.
pub const ALLOWED_HEADERS: &str =
    "authorization, content-type, idempotency-key, if-none-match, last-event-id, x-request-id";
/// The answer headers a cross-origin page may read (beyond the always-readable ones).
pub const EXPOSED_HEADERS: &str = "etag, location, allow, retry-after, ratelimit-limit, \
ratelimit-remaining, ratelimit-reset, ratelimit-policy, idempotent-replayed, www-authenticate, \
x-request-id";
/// How long a browser may keep a preflight's answer, in seconds.
pub const MAX_AGE: &str = "600";

/// The origins that may call the routes that take a token.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum CorsOrigins {
    /// Any origin (`*`, the default).
    #[default]
    Any,
    /// These origins only (`scheme://host[:port]`, as browsers send `Origin`).
    Listed(Vec<String>),
}

impl std::str::FromStr for CorsOrigins {
    type Err = String;

    /// `*`, or origins separated by commas: `https://cards.example,http://localhost:5173`.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        if text == "*" {
            return Ok(CorsOrigins::Any);
        }
        let mut origins = Vec::new();
        for origin in text.split(',').map(str::trim).filter(|o| !o.is_empty()) {
            let (scheme, rest) = origin
                .split_once("://")
                .ok_or_else(|| format!("`{origin}` is not an origin: scheme://host[:port]"))?;
            let valid = matches!(scheme, "http" | "https")
                && !rest.is_empty()
                && !rest.contains('/')
                && rest.bytes().all(|b| {
                    b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']')
                });
            if !valid {
                return Err(format!(
                    "`{origin}` is not an origin: scheme://host[:port], without a path"
                ));
            }
            origins.push(origin.to_ascii_lowercase());
        }
        if origins.is_empty() {
            return Err("give `*` or at least one origin".into());
        }
        Ok(CorsOrigins::Listed(origins))
    }
}

/// What a cross-origin request is allowed: the `Access-Control-Allow-Origin` value, and
/// whether it depends on the origin (then the answer varies with `Origin`).
#[derive(Debug, Clone)]
pub struct Allowed {
    origin: HeaderValue,
    echoed: bool,
}

impl CorsOrigins {
    /// The answer to a request from `origin` for `method` at `path`; None when the origin may
    /// not make it.
    pub fn allow(
        &self,
        routes: &RouteTable,
        origin: &HeaderValue,
        method: &Method,
        path: &str,
    ) -> Option<Allowed> {
        let any = Allowed {
            origin: HeaderValue::from_static("*"),
            echoed: false,
        };
        match self {
            CorsOrigins::Any => Some(any),
            _ if !routes.takes_token(path, method) => Some(any),
            CorsOrigins::Listed(origins) => {
                let sent = origin.to_str().ok()?.to_ascii_lowercase();
                origins.contains(&sent).then(|| Allowed {
                    origin: origin.clone(),
                    echoed: true,
                })
            }
        }
    }
}

impl Allowed {
    /// Adds the headers of an actual (not preflight) answer.
    pub fn add_headers(&self, headers: &mut HeaderMap) {
        headers.insert(
            actix_web::http::header::ACCESS_CONTROL_ALLOW_ORIGIN,
            self.origin.clone(),
        );
        headers.insert(
            actix_web::http::header::ACCESS_CONTROL_EXPOSE_HEADERS,
            HeaderValue::from_static(EXPOSED_HEADERS),
        );
        if self.echoed {
            headers.append(VARY, HeaderValue::from_static("origin"));
        }
    }

    /// Adds the headers of a preflight's answer: the origin, the path's methods, the headers a
    /// request may send and how long to keep it.
    pub fn add_preflight_headers(&self, headers: &mut HeaderMap, methods: &str) {
        use actix_web::http::header::{
            ACCESS_CONTROL_ALLOW_HEADERS, ACCESS_CONTROL_ALLOW_METHODS,
            ACCESS_CONTROL_ALLOW_ORIGIN, ACCESS_CONTROL_MAX_AGE,
        };
        headers.insert(ACCESS_CONTROL_ALLOW_ORIGIN, self.origin.clone());
        if let Ok(methods) = HeaderValue::from_str(methods) {
            headers.insert(ACCESS_CONTROL_ALLOW_METHODS, methods);
        }
        headers.insert(
            ACCESS_CONTROL_ALLOW_HEADERS,
            HeaderValue::from_static(ALLOWED_HEADERS),
        );
        headers.insert(ACCESS_CONTROL_MAX_AGE, HeaderValue::from_static(MAX_AGE));
        headers.append(
            VARY,
            HeaderValue::from_static("origin, access-control-request-method"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn origins_parse_as_a_star_or_a_list() {
        assert_eq!("*".parse::<CorsOrigins>(), Ok(CorsOrigins::Any));
        assert_eq!(
            "https://Cards.example, http://localhost:5173".parse::<CorsOrigins>(),
            Ok(CorsOrigins::Listed(vec![
                "https://cards.example".into(),
                "http://localhost:5173".into()
            ]))
        );
        for bad in [
            "",
            "cards.example",
            "https://cards.example/app",
            "ftp://x",
            " , ",
        ] {
            assert!(bad.parse::<CorsOrigins>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn token_routes_answer_listed_origins_and_the_rest_any_origin() {
        let routes = RouteTable::new(
            &json!({"paths": {
                "/v1/bots/{id}": {"get": {}, "delete": {"security": [{"owner_token": []}]}},
            }}),
            &[],
        );
        let listed: CorsOrigins = "https://cards.example".parse().expect("origins");
        let ours = HeaderValue::from_static("https://cards.example");
        let theirs = HeaderValue::from_static("https://evil.example");
        let allowed = |origins: &CorsOrigins, origin: &HeaderValue, method: Method| {
            origins
                .allow(&routes, origin, &method, "/v1/bots/b_1")
                .map(|a| a.origin.to_str().unwrap_or_default().to_string())
        };
        assert_eq!(allowed(&listed, &theirs, Method::GET).as_deref(), Some("*"));
        assert_eq!(allowed(&listed, &theirs, Method::DELETE), None);
        assert_eq!(
            allowed(&listed, &ours, Method::DELETE).as_deref(),
            Some("https://cards.example")
        );
        assert_eq!(
            allowed(&CorsOrigins::Any, &theirs, Method::DELETE).as_deref(),
            Some("*")
        );
    }
}
