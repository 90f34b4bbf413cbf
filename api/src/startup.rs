//! Builds and binds the HTTP server. The server, the OpenAPI generator and the tests all go
//! through [`crate::routes::configure_all`] (routes) and [`build`] (server), so what is tested is
//! what runs. This module uses [`crate::openapi`] (to serve the document); never the reverse.

use crate::codec::StateCodec;
use crate::http::security::MetricsToken;
use crate::http::{CorsOrigins, Edge, EdgeConfig, RouteTable};
use crate::metrics::Metrics;
use crate::routes::configure_all;
use crate::routes::contract::GameDocuments;
use actix_web::ResponseError as _;
use actix_web::dev::ServiceResponse;
use actix_web::dev::{Server, Service as _};
use actix_web::http::StatusCode;
use actix_web::http::header::{CONTENT_TYPE, HeaderName, HeaderValue, LOCATION};
use actix_web::middleware::{ErrorHandlerResponse, ErrorHandlers};
use actix_web::{App, HttpResponse, HttpServer, web};
use arena::problem::{ErrorCode, PROBLEM_JSON, ServiceError, json_config, path_error, query_error};
use std::collections::HashMap;
use std::net::{SocketAddr, TcpListener};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};
use tracing::Instrument as _;
use utoipa_actix_web::AppExt;

/// Header carrying the request id (also on every log line of the request).
pub const REQUEST_ID_HEADER: &str = "x-request-id";

/// Everything `serve` needs. Build it with [`ServeConfig::default`] and change fields.
#[derive(Debug, Clone)]
pub struct ServeConfig {
    /// Interface to bind (default 127.0.0.1).
    pub host: String,
    /// Port to bind; 0 picks a free port (tests).
    pub port: u16,
    /// Transparent or sealed states.
    pub codec: StateCodec,
    /// Largest accepted JSON body, in bytes.
    pub max_body_bytes: usize,
    /// Time a client has to send its request head.
    pub request_timeout: Duration,
    /// Idle keep-alive time of a connection.
    pub keep_alive: Duration,
    /// Grace period for in-flight requests on SIGTERM/SIGINT.
    pub shutdown_timeout: Duration,
    /// Worker threads (None: one per core).
    pub workers: Option<usize>,
    /// Stop on SIGTERM/SIGINT (off in tests that run many servers in one process).
    pub handle_signals: bool,
    /// The bot arena behind `/v1/bots`, `/v1/matches`, `/v1/leaderboards` and `/bots/{name}/`
    /// (opened by `serve`; without it those routes answer 500).
    pub arena: Option<arena::Arena>,
    /// The origins a browser may call the routes that take a token from (`--cors-origins`);
    /// every other route answers any origin.
    pub cors_origins: CorsOrigins,
    // Issue 48 (48f): hardening.
    /// The bearer token `/metrics` requires (`--metrics-token`); None: `/metrics` is open.
    pub metrics_token: Option<String>,
    // Issue 48, part 48s (bounded search and connections).
    /// The search pool and its per-client share (`--search-threads`, `--search-per-client`).
    pub search: crate::search::SearchLimits,
    /// Time a request's body has to arrive whole (`--body-timeout-ms`): then 408.
    pub body_timeout: Duration,
}

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            host: "127.0.0.1".into(),
            port: 8080,
            codec: StateCodec::transparent(),
            max_body_bytes: 256 * 1024,
            request_timeout: Duration::from_secs(5),
            keep_alive: Duration::from_secs(30),
            shutdown_timeout: Duration::from_secs(10),
            workers: None,
            handle_signals: true,
            arena: None,
            cors_origins: CorsOrigins::Any,
            metrics_token: None,
            search: crate::search::SearchLimits::default(),
            body_timeout: Duration::from_millis(crate::http::body_timeout::BODY_TIMEOUT_MS),
        }
    }
}

/// The caller's `x-request-id`, kept when it is a plausible id (1 to 128 characters among
/// letters, digits and `-_.:`) so a proxy's id follows the request into our logs; anything else
/// is replaced by a fresh id rather than echoed into logs and headers.
fn incoming_request_id(request: &actix_web::dev::ServiceRequest) -> Option<String> {
    let value = request.headers().get(REQUEST_ID_HEADER)?.to_str().ok()?;
    let plausible = (1..=128).contains(&value.len())
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':'));
    plausible.then(|| value.to_string())
}

/// A request's client address in its log lines (written only when a line is).
struct Peer(Option<std::net::IpAddr>);

impl std::fmt::Display for Peer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(ip) => ip.fmt(f),
            None => f.write_str("-"),
        }
    }
}

/// A bound, not yet running server: await or spawn `server`.
pub struct Running {
    /// The bound address (the real port when port 0 was asked).
    pub addr: SocketAddr,
    /// The server future; `server.handle()` stops it.
    pub server: Server,
}

async fn docs_redirect() -> HttpResponse {
    HttpResponse::PermanentRedirect()
        .insert_header((LOCATION, "/docs/"))
        .finish()
}

/// A body over the limit is a `payload_too_large` problem on every route: actix answers the raw
/// body extractor's overflow in plain text, which this replaces.
fn payload_too_large<B>(
    res: ServiceResponse<B>,
    limit: usize,
) -> actix_web::Result<ErrorHandlerResponse<B>> {
    let is_problem = res
        .headers()
        .get(CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes() == PROBLEM_JSON.as_bytes());
    if is_problem {
        return Ok(ErrorHandlerResponse::Response(res.map_into_left_body()));
    }
    let (request, _) = res.into_parts();
    let response = ServiceError::new(
        ErrorCode::PayloadTooLarge,
        format!("the request body is larger than the limit of {limit} bytes"),
    )
    .error_response();
    Ok(ErrorHandlerResponse::Response(
        ServiceResponse::new(request, response).map_into_right_body(),
    ))
}

/// The docs page and its files (Swagger UI, vendored): each read once and served with its
/// `ETag`, the index titled after the service instead of "Swagger UI".
async fn docs_file(request: actix_web::HttpRequest) -> HttpResponse {
    type Files = Mutex<HashMap<String, Option<(web::Bytes, String, &'static str)>>>;
    static FILES: OnceLock<Files> = OnceLock::new();
    let path = request
        .path()
        .strip_prefix("/docs/")
        .filter(|p| !p.is_empty())
        .unwrap_or("index.html")
        .to_string();
    let files = FILES.get_or_init(Default::default);
    let cached = files.lock().ok().and_then(|f| f.get(&path).cloned());
    let file = match cached {
        Some(file) => file,
        None => {
            let file = swagger_file(&path);
            if let Ok(mut files) = files.lock() {
                files.insert(path, file.clone());
            }
            file
        }
    };
    match file {
        Some((bytes, etag, content_type)) => {
            arena::http::validated(content_type, bytes, &etag, arena::http::RELEASE)
        }
        None => HttpResponse::NotFound().finish(),
    }
}

/// A file of the vendored Swagger UI: its bytes, `ETag` and type.
fn swagger_file(path: &str) -> Option<(web::Bytes, String, &'static str)> {
    // No online validator: its badge is an image from swagger.io (the page is offline, its CSP
    // loads images from this server only, and the document's URL stays here). The base layout:
    // the standalone one's top bar (a URL box, and a logo whose SVG holds an inline `<style>`
    // the page's CSP blocks) has nothing to offer a page that documents one API.
    let config = Arc::new(
        utoipa_swagger_ui::Config::from("/openapi.json")
            .validator_url("none")
            .use_base_layout(),
    );
    let file = utoipa_swagger_ui::serve(path, config).ok()??;
    let bytes = if path == "index.html" {
        web::Bytes::from(String::from_utf8_lossy(&file.bytes).replace(
            "<title>Swagger UI</title>",
            "<title>cardroom API docs</title>",
        ))
    } else {
        web::Bytes::from(file.bytes.into_owned())
    };
    let content_type = match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "application/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("png") => "image/png",
        Some("map") => "application/json",
        _ => "application/octet-stream",
    };
    let etag = arena::http::etag(&bytes);
    Some((bytes, etag, content_type))
}

/// The whole-service OpenAPI document as served at `/openapi.json`: built once.
#[derive(Clone)]
struct ServedDocument {
    bytes: web::Bytes,
    etag: String,
}

/// `GET /openapi.json`.
async fn openapi_json(document: web::Data<ServedDocument>) -> HttpResponse {
    arena::http::validated(
        "application/json",
        document.bytes.clone(),
        &document.etag,
        arena::http::RELEASE,
    )
}

/// The `GET` paths outside the OpenAPI document: the documents, the docs page, the built-in
/// bots' base URLs, and the pages and assets.
fn unlisted_gets() -> Vec<&'static str> {
    let mut paths = vec!["/openapi.json", "/docs", "/docs/{_:.*}", "/bots/{name}/"];
    paths.extend(crate::web::page_paths());
    paths
}

/// Binds the listener and builds the server (API, docs, metrics, middleware).
pub fn build(config: ServeConfig) -> std::io::Result<Running> {
    let listener = TcpListener::bind((config.host.as_str(), config.port))?;
    let addr = listener.local_addr()?;
    let openapi = crate::openapi::document();
    let bytes = web::Bytes::from(serde_json::to_vec(&openapi).unwrap_or_default());
    let document = web::Data::new(ServedDocument {
        etag: arena::http::etag(&bytes),
        bytes,
    });
    let edge = Arc::new(EdgeConfig {
        routes: RouteTable::new(&openapi, &unlisted_gets()),
        cors: config.cors_origins.clone(),
    });
    // With an arena, `/determinize` and `/rollouts` open the `info` of its move requests.
    let codec = web::Data::new(match &config.arena {
        Some(arena) => config.codec.clone().with_info(arena.clone()),
        None => config.codec.clone(),
    });
    let metrics = web::Data::new(Metrics::default());
    let metrics_token = web::Data::new(MetricsToken(config.metrics_token.clone()));
    let search = web::Data::new(crate::search::SearchPool::new(config.search)?);
    let body_timeout = config.body_timeout;
    let limit = config.max_body_bytes;
    let arena = config.arena.clone().map(web::Data::new);
    let mut server = HttpServer::new(move || {
        let recorder = metrics.clone();
        let mut app = App::new().into_utoipa_app();
        if let Some(arena) = &arena {
            app = app.app_data(arena.clone());
        }
        let (app, _) = app
            .app_data(codec.clone())
            .app_data(search.clone())
            .app_data(metrics.clone())
            .app_data(metrics_token.clone())
            .app_data(web::Data::new(GameDocuments(crate::contract::cached_document)))
            // JSON bodies only (415 otherwise: a cross-origin form cannot post text/plain JSON).
            .app_data(json_config(limit))
            // Raw bodies (the arena parses its own) have the same limit as JSON ones.
            .app_data(web::PayloadConfig::new(limit))
            .app_data(web::PathConfig::default().error_handler(path_error))
            .app_data(web::QueryConfig::default().error_handler(query_error))
            .configure(configure_all)
            .split_for_parts();
        app.route("/openapi.json", web::get().to(openapi_json))
            .app_data(document.clone())
            .app_data(web::Data::new(edge.clone()))
            .route("/docs/{_:.*}", web::get().to(docs_file))
            .route("/docs", web::get().to(docs_redirect))
            .configure(crate::web::configure)
            .default_service(web::to(crate::http::fallback))
            .wrap(
                ErrorHandlers::new()
                    .handler(StatusCode::PAYLOAD_TOO_LARGE, move |res| {
                        payload_too_large(res, limit)
                    }),
            )
            // A body that does not arrive in time is cut (408), whichever extractor reads it.
            .wrap(crate::http::body_timeout::BodyTimeout(body_timeout))
            // Inside the request-id layer: its 304s, 405s and CORS answers carry the id too.
            .wrap(Edge(edge.clone()))
            .wrap_fn(move |req, srv| {
            // One span per request: its id (the client's `x-request-id`, or a fresh one) is on
            // every log line of the request and echoed in the `x-request-id` header; the span
            // costs nothing when INFO is filtered out.
            let started = Instant::now();
            let id = incoming_request_id(&req)
                .unwrap_or_else(|| format!("{:032x}", rand::random::<u128>()));
            // Cloning a standard method copies no string.
            let method = req.method().clone();
            // The TCP peer (behind a proxy, the proxy: as the rate limits see it).
            let client = Peer(req.peer_addr().map(|peer| peer.ip()));
            let span = tracing::info_span!("request", request_id = %id, method = %method, path = %req.path(), client = %client);
            let recorder = recorder.clone();
            let fut = {
                let _entered = span.enter();
                srv.call(req)
            };
            async move {
                let mut res = fut.await?;
                let status = res.status().as_u16();
                let elapsed = started.elapsed();
                let route = res.request().match_pattern();
                let route = route.as_deref().unwrap_or("(unmatched)");
                recorder.record(method.as_str(), route, status, elapsed);
                if let Some(code) = res.response().extensions().get::<ErrorCode>() {
                    recorder.record_problem(*code);
                }
                let latency_us = elapsed.as_micros() as u64;
                // A move answered (a stream bot's, a person's) is one line per move: DEBUG.
                if route.ends_with("/move") {
                    tracing::debug!(status, route, latency_us, "request finished");
                } else {
                    tracing::info!(status, route, latency_us, "request finished");
                }
                if let Ok(value) = HeaderValue::from_str(&id) {
                    res.headers_mut()
                        .insert(HeaderName::from_static(REQUEST_ID_HEADER), value);
                }
                crate::http::security::add_headers(res.headers_mut());
                Ok(res)
            }
            .instrument(span)
        })
    })
    .client_request_timeout(config.request_timeout)
    .keep_alive(config.keep_alive)
    // A client that closes its side is gone: its connection ends at once. A stream bot's
    // stream (an endless response) would otherwise go on until a write failed, and the bot's
    // seats would not start their reconnect grace (arena `runner::presence`).
    .h1_allow_half_closed(false)
    .shutdown_timeout(config.shutdown_timeout.as_secs())
    .listen(listener)?;
    if let Some(workers) = config.workers {
        server = server.workers(workers);
    }
    if !config.handle_signals {
        server = server.disable_signals();
    }
    Ok(Running {
        addr,
        server: server.run(),
    })
}

/// Binds the admin listener (`--admin-listen`): `/livez`, `/readyz`, `/healthz` and `/metrics`
/// of a process that serves no API (a worker), on one thread. It handles no signal: the
/// process stops it.
pub fn build_admin(
    address: &str,
    arena: arena::Arena,
    metrics_token: Option<String>,
) -> std::io::Result<Running> {
    let listener = TcpListener::bind(address)?;
    let addr = listener.local_addr()?;
    let metrics = web::Data::new(Metrics::default());
    let metrics_token = web::Data::new(MetricsToken(metrics_token));
    let arena = web::Data::new(arena);
    let server = HttpServer::new(move || {
        App::new()
            .app_data(metrics.clone())
            .app_data(metrics_token.clone())
            .app_data(arena.clone())
            .wrap_fn(|request, service| {
                let response = service.call(request);
                async move {
                    let mut response = response.await?;
                    crate::http::security::add_headers(response.headers_mut());
                    Ok(response)
                }
            })
            .service(crate::routes::health::livez)
            .service(crate::routes::health::readyz)
            .service(crate::routes::health::healthz)
            .service(crate::routes::health::metrics)
            .default_service(web::to(crate::http::fallback))
    })
    .workers(1)
    .disable_signals()
    .listen(listener)?
    .run();
    Ok(Running { addr, server })
}

/// Waits for SIGTERM or SIGINT (Ctrl-C): the process was told to stop.
pub async fn stop_signal() -> std::io::Result<()> {
    let mut terminate =
        actix_web::rt::signal::unix::signal(actix_web::rt::signal::unix::SignalKind::terminate())?;
    tokio::select! {
        signalled = actix_web::rt::signal::ctrl_c() => signalled?,
        _ = terminate.recv() => {}
    }
    Ok(())
}

/// Stops a process without costing a match (after [`stop_signal`]): drains the arena for
/// `--drain-secs` (no new claim, `/readyz` 503, the listeners still open for the bots' answers,
/// the streams and the watchers, what is left stopped at a move boundary; see
/// `arena::service::drain`), ends the streams (`server_restarting`), stops the HTTP `servers`
/// (requests in flight get `--shutdown-timeout-secs`), then releases the leases left so other
/// workers resume at once.
pub async fn drain_and_stop(arena: &arena::Arena, servers: &[actix_web::dev::ServerHandle]) {
    arena.drain().await;
    arena.end_streams();
    for server in servers {
        server.stop(true).await;
    }
    match arena.release().await {
        Ok(released) => tracing::info!(released, "cardroom stopped"),
        Err(error) => tracing::warn!(
            error = format!("{error:#}"),
            "cardroom stopped; its match leases will run out instead"
        ),
    }
}
