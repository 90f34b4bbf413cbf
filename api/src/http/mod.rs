//! The service's HTTP edge: what every answer gets whatever its route, in one middleware
//! ([`Edge`]) and the fallback of unmatched requests ([`fallback`]).
//!
//! - `HEAD` on every `GET` route (routed as `GET`; the body is not sent).
//! - `If-None-Match` against the `ETag` a handler set: 304 with the tag.
//! - Compression ([`compress`]): gzip or Brotli by `Accept-Encoding`, for bodies of 1 KiB or
//!   more; `Vary: Accept-Encoding` wherever the representation depends on it.
//! - CORS ([`cors`]): preflights answered here, the headers of every cross-origin answer.
//! - 405 `method_not_allowed` with `Allow`, and `OPTIONS`, from the [`RouteTable`].
//! - A request body with a `Content-Encoding` is 415 `unsupported_media_type` (bodies are taken
//!   as sent: a compressed one would be inflated before the size limit could see it).
//!
//! A plain small answer to a client that asks for none of this (the rules API's hot path) costs
//! three header lookups and no copy of its body.

pub mod body_timeout;
pub mod compress;
pub mod cors;
pub mod routes;
pub mod security;

pub use cors::CorsOrigins;
pub use routes::RouteTable;

use actix_web::body::{BodySize, BoxBody, MessageBody};
use actix_web::dev::{Service, ServiceRequest, ServiceResponse, Transform, forward_ready};
use actix_web::http::header::{
    ACCEPT_ENCODING, ACCESS_CONTROL_REQUEST_METHOD, ALLOW, CACHE_CONTROL, CONTENT_ENCODING,
    CONTENT_LOCATION, ETAG, EXPIRES, HeaderValue, IF_NONE_MATCH, ORIGIN, VARY,
};
use actix_web::http::{Method, StatusCode};
use actix_web::{Error, HttpRequest, HttpResponse, ResponseError as _, web};
use arena::problem::{ErrorCode, ServiceError};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::Arc;

/// What the edge knows of the service: its routes, and the origins of `--cors-origins`.
#[derive(Debug, Clone, Default)]
pub struct EdgeConfig {
    /// Every path and its methods.
    pub routes: RouteTable,
    /// Who may call the routes that take a token from a browser.
    pub cors: CorsOrigins,
}

/// The edge middleware (see the module's documentation).
#[derive(Debug, Clone)]
pub struct Edge(pub Arc<EdgeConfig>);

impl<S, B> Transform<S, ServiceRequest> for Edge
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = Error> + 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<BoxBody>;
    type Error = Error;
    type Transform = EdgeService<S>;
    type InitError = ();
    type Future = std::future::Ready<Result<Self::Transform, Self::InitError>>;

    fn new_transform(&self, service: S) -> Self::Future {
        std::future::ready(Ok(EdgeService {
            service: Rc::new(service),
            config: self.0.clone(),
        }))
    }
}

/// [`Edge`] around one worker's app.
pub struct EdgeService<S> {
    service: Rc<S>,
    config: Arc<EdgeConfig>,
}

impl<S, B> Service<ServiceRequest> for EdgeService<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = Error> + 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<BoxBody>;
    type Error = Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>>>>;

    forward_ready!(service);

    fn call(&self, mut request: ServiceRequest) -> Self::Future {
        if let Some(coding) = request.headers().get(CONTENT_ENCODING)
            && !coding.as_bytes().eq_ignore_ascii_case(b"identity")
        {
            // A compressed body would be inflated before the size limit could see it (a few
            // kilobytes can make gigabytes): bodies are taken as sent (RFC 7694).
            let mut answer = ServiceError::new(
                ErrorCode::UnsupportedMediaType,
                "request bodies are taken as sent: send the body without `Content-Encoding`",
            )
            .error_response();
            answer
                .headers_mut()
                .insert(ACCEPT_ENCODING, HeaderValue::from_static("identity"));
            return Box::pin(std::future::ready(Ok(request.into_response(answer))));
        }
        let origin = request.headers().get(ORIGIN).cloned();
        if request.method() == Method::OPTIONS
            && let Some(origin) = &origin
            && let Some(asked) = request.headers().get(ACCESS_CONTROL_REQUEST_METHOD)
            && let Some(answer) = preflight(&self.config, request.request(), origin, asked)
        {
            return Box::pin(std::future::ready(Ok(request.into_response(answer))));
        }
        let head = request.method() == Method::HEAD;
        if head {
            request.head_mut().method = Method::GET;
        }
        let coding = compress::negotiate(request.headers().get(ACCEPT_ENCODING));
        let if_none_match = request.headers().get(IF_NONE_MATCH).cloned();
        let cors = origin.and_then(|origin| {
            self.config.cors.allow(
                &self.config.routes,
                &origin,
                request.method(),
                request.path(),
            )
        });
        let answer = self.service.call(request);
        Box::pin(async move {
            let response = answer.await?.map_into_boxed_body();
            Ok(finish(response, head, coding, if_none_match, cors).await)
        })
    }
}

/// The edge's part of an answer: 304, compression, `Vary`, CORS, a `HEAD` answer's body.
async fn finish(
    mut response: ServiceResponse<BoxBody>,
    head: bool,
    coding: Option<compress::Coding>,
    if_none_match: Option<HeaderValue>,
    cors: Option<cors::Allowed>,
) -> ServiceResponse<BoxBody> {
    let status = response.status();
    let varies = compress::compressible(
        status,
        response.headers(),
        response.response().body().size(),
    ) && response
        .response()
        .extensions()
        .get::<arena::http::Unencoded>()
        .is_none();
    // A HEAD answer's body is never sent: nothing to encode.
    let coding = coding.filter(|_| varies && !head);
    let etag = response.headers().get(ETAG).cloned();
    if status == StatusCode::OK
        && let (Some(if_none_match), Some(etag)) = (&if_none_match, &etag)
        && compress::none_match_hits(if_none_match, etag)
    {
        response = not_modified(response, coding);
    } else if let Some(coding) = coding {
        let (request, answer) = response.into_parts();
        let (mut answer, body) = answer.into_parts();
        let body = compress::encode(body, answer.headers_mut(), coding).await;
        response = ServiceResponse::new(request, answer.set_body(body));
    }
    if varies {
        compress::add_vary(response.headers_mut());
    }
    if let Some(cors) = cors {
        cors.add_headers(response.headers_mut());
    }
    if head && response.response().body().size() == BodySize::Stream {
        // A stream (a live feed) would never end; a sized body the server skips by itself.
        response = response.map_body(|_, _| BoxBody::new(actix_web::body::None::new()));
    }
    response
}

/// The 304 of a 200 whose `ETag` the client holds: the headers a cache needs to refresh what it
/// has (RFC 9110 15.4.5), no body.
fn not_modified(
    response: ServiceResponse<BoxBody>,
    coding: Option<compress::Coding>,
) -> ServiceResponse<BoxBody> {
    let (request, answer) = response.into_parts();
    let mut not_modified = HttpResponse::NotModified().finish();
    let headers = not_modified.headers_mut();
    for name in [CACHE_CONTROL, CONTENT_LOCATION, EXPIRES, VARY] {
        for value in answer.headers().get_all(&name) {
            headers.append(name.clone(), value.clone());
        }
    }
    if let Some(etag) = answer.headers().get(ETAG) {
        let etag = match coding {
            Some(coding) => compress::coded_etag(etag, coding),
            None => etag.clone(),
        };
        headers.insert(ETAG, etag);
    }
    ServiceResponse::new(request, not_modified)
}

/// The answer to a CORS preflight for a known path; None for a path no route has (the
/// fallback then answers 404).
fn preflight(
    config: &EdgeConfig,
    request: &HttpRequest,
    origin: &HeaderValue,
    asked: &HeaderValue,
) -> Option<HttpResponse> {
    let path = request.path();
    let methods = config.routes.allowed(path);
    if methods.is_empty() {
        return None;
    }
    let asked = asked
        .to_str()
        .ok()
        .and_then(|m| Method::from_bytes(m.trim().as_bytes()).ok())
        .unwrap_or(Method::GET);
    Some(
        match config.cors.allow(&config.routes, origin, &asked, path) {
            Some(allowed) => {
                let mut answer = HttpResponse::NoContent().finish();
                allowed
                    .add_preflight_headers(answer.headers_mut(), &routes::allow_header(&methods));
                answer
            }
            None => ServiceError::new(
                ErrorCode::Forbidden,
                format!(
                    "{asked} {path} takes a token: it answers browsers of the origins this server names (`--cors-origins`) only"
                ),
            )
            .error_response(),
        },
    )
}

/// The answer to a request no route took: 404 `not_found` for a path no route has; for a known
/// path, `OPTIONS` lists its methods (204 with `Allow`) and any other method is 405
/// `method_not_allowed` with `Allow`.
pub async fn fallback(
    request: HttpRequest,
    config: Option<web::Data<Arc<EdgeConfig>>>,
) -> HttpResponse {
    let methods = config
        .map(|c| c.routes.allowed(request.path()))
        .unwrap_or_default();
    if methods.is_empty() {
        return ServiceError::new(
            ErrorCode::NotFound,
            format!(
                "no route for {} {}; see /docs for the API",
                request.method(),
                request.path()
            ),
        )
        .error_response();
    }
    let allow = routes::allow_header(&methods);
    let mut answer = if request.method() == Method::OPTIONS {
        HttpResponse::NoContent().finish()
    } else {
        ServiceError::new(
            ErrorCode::MethodNotAllowed,
            format!(
                "{} is not a method of {}: it takes {allow}",
                request.method(),
                request.path()
            ),
        )
        .error_response()
    };
    if let Ok(allow) = HeaderValue::from_str(&allow) {
        answer.headers_mut().insert(ALLOW, allow);
    }
    answer
}
