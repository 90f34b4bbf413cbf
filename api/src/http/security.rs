//! Issue 48's hardening of what the service answers: the headers of every answer and of its
//! pages, and the optional bearer token of `/metrics` (`--metrics-token`).
//!
//! - Every answer: `X-Content-Type-Options: nosniff` (a browser never runs a JSON or text answer
//!   as a script or a page).
//! - Every HTML answer (the web pages, the docs page, a 404 page):
//!   `Content-Security-Policy` (scripts, styles, fonts and fetches from this origin only, images
//!   also as `data:` URLs, no plugins, no `<base>`, forms posting here only, and
//!   `frame-ancestors 'none'`), `X-Frame-Options: DENY` (the same for browsers that read no
//!   CSP) and `Referrer-Policy: no-referrer` (a table's or seat's URL never leaks to a link's
//!   site). The pages hold no inline script, `<style>` or `style=` attribute: their script and
//!   stylesheet are served files (`/assets/`), which the policy allows.

use actix_web::HttpRequest;
use actix_web::http::header::{
    AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue, REFERRER_POLICY,
    WWW_AUTHENTICATE, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};

/// The pages' Content-Security-Policy.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
    style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; \
    object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Adds the headers every answer carries, and those of a page when it is HTML.
pub fn add_headers(headers: &mut HeaderMap) {
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    let is_html = headers
        .get(CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("text/html"));
    if is_html {
        headers.insert(
            HeaderName::from_static("content-security-policy"),
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        );
        headers.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
        headers.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    }
}

/// The token `/metrics` requires (`--metrics-token`), app data of every listener that serves
/// metrics; without it (None) `/metrics` is open, as before.
#[derive(Clone, Default)]
pub struct MetricsToken(pub Option<String>);

impl std::fmt::Debug for MetricsToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "MetricsToken(..)"
        } else {
            "MetricsToken(None)"
        })
    }
}

impl MetricsToken {
    /// Whether `request` may read the metrics: no token configured, or its
    /// `Authorization: Bearer` is the token (compared in constant time).
    pub fn allows(&self, request: &HttpRequest) -> bool {
        let Some(expected) = &self.0 else {
            return true;
        };
        let Some(given) = request
            .headers()
            .get(AUTHORIZATION)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.strip_prefix("Bearer "))
            .map(str::trim)
        else {
            return false;
        };
        arena::bots::token_matches(given, &arena::bots::hash_token(expected))
    }

    /// 401 `invalid_token` with `WWW-Authenticate: Bearer`, for a request without the token.
    pub fn refusal() -> actix_web::HttpResponse {
        use actix_web::ResponseError as _;
        let mut response = arena::problem::ServiceError::new(
            arena::problem::ErrorCode::InvalidToken,
            "`/metrics` needs `Authorization: Bearer <token>` with the server's metrics token \
             (`--metrics-token`)",
        )
        .error_response();
        response.headers_mut().insert(
            WWW_AUTHENTICATE,
            HeaderValue::from_static("Bearer realm=\"cardroom metrics\""),
        );
        response
    }
}
