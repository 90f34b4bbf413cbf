//! What every route's answer needs of HTTP beyond its body, written once: validators (a strong
//! `ETag` from the content, `Cache-Control`), the mark that keeps a stream uncompressed, strict
//! query strings ([`query`]) and content negotiation of lists ([`prefers_ndjson`]).
//!
//! The server's edge (the API's `http` middleware) answers `If-None-Match` with 304 from the
//! `ETag` a handler set, compresses, and adds CORS headers: handlers only say what their answer
//! is and how long it stays true.

mod query;

pub use query::{NoQuery, query};

use crate::problem::ServiceError;
use actix_web::http::header::{ACCEPT, CACHE_CONTROL, CONTENT_TYPE, ETAG, HeaderValue};
use actix_web::{HttpRequest, HttpResponse};
use serde::Serialize;
use sha2::{Digest, Sha256};

/// A strong entity tag of `bytes`: the first 128 bits of their SHA-256, quoted. Two answers
/// with the same tag have the same bytes.
pub fn etag(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    format!("\"{}\"", crate::client::hex(&digest[..16]))
}

/// How long an answer stays true, as its `Cache-Control` says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Freshness {
    /// Fixed for this release of the server (the catalog, the documents): any cache may keep
    /// it for `max_age` seconds, then revalidates with its `ETag`.
    Public {
        /// Seconds.
        max_age: u32,
    },
    /// Never changes at this URL (an asset named by its content's hash): a year.
    Immutable,
    /// May change at any time (a running match): a cache must revalidate every time (304 while
    /// the `ETag` holds).
    Revalidate,
}

impl Freshness {
    /// The `Cache-Control` value.
    pub fn cache_control(self) -> HeaderValue {
        match self {
            Freshness::Public { max_age } => {
                HeaderValue::from_str(&format!("public, max-age={max_age}"))
                    .unwrap_or(HeaderValue::from_static("no-cache"))
            }
            Freshness::Immutable => HeaderValue::from_static("public, max-age=31536000, immutable"),
            Freshness::Revalidate => HeaderValue::from_static("no-cache"),
        }
    }
}

/// The release-long freshness of the catalog, the game documents and the API documents: five
/// minutes, so a new release is seen soon (a revalidation costs a 304).
pub const RELEASE: Freshness = Freshness::Public { max_age: 300 };

/// A 200 answer of `bytes` (of `content_type`) with its strong `ETag` and `freshness`.
pub fn validated(
    content_type: &'static str,
    bytes: impl Into<actix_web::web::Bytes>,
    etag: &str,
    freshness: Freshness,
) -> HttpResponse {
    let mut response = HttpResponse::Ok().body(bytes.into());
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(CACHE_CONTROL, freshness.cache_control());
    if let Ok(value) = HeaderValue::from_str(etag) {
        headers.insert(ETAG, value);
    }
    response
}

/// `value` as a JSON answer with the `ETag` of its bytes and `freshness`.
pub fn json_validated(
    value: &impl Serialize,
    freshness: Freshness,
) -> Result<HttpResponse, ServiceError> {
    let bytes = serde_json::to_vec(value).map_err(anyhow::Error::from)?;
    let tag = etag(&bytes);
    Ok(validated("application/json", bytes, &tag, freshness))
}

/// Marks an answer the edge must send as it is produced, never compressed: a live stream
/// (Server-Sent Events, a stream bot's lines), whose events must reach the client as they
/// happen and which would gain little.
#[derive(Debug, Clone, Copy)]
pub struct Unencoded;

/// Marks `response` [`Unencoded`].
pub fn unencoded(mut response: HttpResponse) -> HttpResponse {
    response.extensions_mut().insert(Unencoded);
    response
}

/// True if `request`'s `Accept` header prefers `application/x-ndjson` to JSON (the first of
/// the types of highest quality).
pub fn prefers_ndjson(request: &HttpRequest) -> bool {
    let Some(accept) = request.headers().get(ACCEPT).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let mut best: Option<(f32, &str)> = None;
    for item in accept.split(',') {
        let mut parts = item.split(';');
        let media = parts.next().unwrap_or("").trim();
        let quality = parts
            .filter_map(|p| p.trim().strip_prefix("q="))
            .find_map(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        if quality > 0.0 && best.is_none_or(|(q, _)| quality > q) {
            best = Some((quality, media));
        }
    }
    best.is_some_and(|(_, media)| media.eq_ignore_ascii_case("application/x-ndjson"))
}

/// The `Location` of a resource made by a `POST`: its path.
pub fn location(collection: &str, id: &str) -> String {
    format!("{collection}/{id}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    #[test]
    fn an_etag_is_strong_quoted_and_follows_the_bytes() {
        let tag = etag(b"{}");
        assert!(
            tag.starts_with('"') && tag.ends_with('"') && tag.len() == 34,
            "{tag}"
        );
        assert_eq!(tag, etag(b"{}"));
        assert_ne!(tag, etag(b"{ }"));
    }

    #[test]
    fn ndjson_is_chosen_only_when_the_client_prefers_it() {
        let prefers = |accept: &str| {
            prefers_ndjson(
                &TestRequest::default()
                    .insert_header((ACCEPT, accept))
                    .to_http_request(),
            )
        };
        assert!(prefers("application/x-ndjson"));
        assert!(prefers("application/x-ndjson, application/json;q=0.5"));
        assert!(prefers("application/json;q=0.2, application/x-ndjson"));
        assert!(!prefers("application/json, application/x-ndjson"));
        assert!(!prefers("application/x-ndjson;q=0, application/json"));
        assert!(!prefers("*/*"));
        assert!(!prefers_ndjson(&TestRequest::default().to_http_request()));
    }
}
