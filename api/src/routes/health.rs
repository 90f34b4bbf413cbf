//! Service routes: liveness (`/livez`, `/healthz` with the version), readiness (`/readyz`) and
//! Prometheus metrics (`/metrics`). The API's listener serves them, and so does a worker's
//! admin listener (`--admin-listen`, see [`crate::startup::build_admin`]).

use crate::codec::StateCodec;
use crate::dto::{Health, Live, Readiness};
use crate::metrics::{Format, Metrics};
use actix_web::http::header::{ACCEPT, VARY};
use actix_web::{HttpRequest, HttpResponse, ResponseError as _, get, web};
use arena::problem::{ErrorCode, Problem, ServiceError};

/// Liveness check, with the server's version.
///
/// Answers 200 while the server runs (whatever its database does: see `/readyz`).
#[utoipa::path(
    tag = "service",
    responses((status = 200, description = "The server is up", body = Health)),
)]
#[get("/healthz")]
pub async fn healthz(codec: Option<web::Data<StateCodec>>) -> web::Json<Health> {
    web::Json(Health {
        status: "ok".into(),
        version: crate::VERSION.into(),
        games: engine::registry::games().len(),
        sealed: codec.is_some_and(|codec| codec.is_sealed()),
    })
}

/// Liveness probe.
///
/// Answers 200 while the process runs; it reads nothing (restart the process when it fails).
#[utoipa::path(
    tag = "service",
    responses((status = 200, description = "The process is up", body = Live)),
)]
#[get("/livez")]
pub async fn livez() -> web::Json<Live> {
    web::Json(Live {
        status: "ok".into(),
    })
}

/// Readiness probe.
///
/// 200 while the process can serve: its arena database answers within 2 s and has every
/// migration of this build. 503 otherwise (send no traffic to it; it is not restarted for
/// that), and from the moment it is told to stop (SIGTERM: it drains its matches, `--drain-secs`).
/// A server without the arena has no database and is ready.
#[utoipa::path(
    tag = "service",
    responses(
        (status = 200, description = "Ready", body = Readiness),
        (status = 503, description = "`not_ready`: the database does not answer, lacks a migration of this build, or the process is draining before it stops (`detail` says which)", body = Problem, content_type = "application/problem+json"),
    ),
)]
#[get("/readyz")]
pub async fn readyz(arena: Option<web::Data<arena::Arena>>) -> HttpResponse {
    let Some(arena) = arena else {
        return HttpResponse::Ok().json(Readiness {
            status: "ready".into(),
            database: "none".into(),
            migrations: "current".into(),
            pending_migrations: Vec::new(),
        });
    };
    // A process told to stop drains its matches: no new traffic should come to it.
    if arena.is_draining() {
        return ServiceError::new(
            ErrorCode::NotReady,
            "not ready: this process is draining before it stops (a deploy); its running matches \
             finish or move to another process",
        )
        .error_response();
    }
    let checked = arena.readiness().await;
    if let Some(error) = &checked.error {
        tracing::warn!(error, "not ready: the database does not answer");
    }
    if !checked.database {
        return ServiceError::new(
            ErrorCode::NotReady,
            "not ready: the arena's database does not answer",
        )
        .error_response();
    }
    if !checked.pending_migrations.is_empty() {
        return ServiceError::new(
            ErrorCode::NotReady,
            format!(
                "not ready: the database lacks migrations {:?} of this build",
                checked.pending_migrations
            ),
        )
        .error_response();
    }
    HttpResponse::Ok().json(Readiness {
        status: "ready".into(),
        database: "ok".into(),
        migrations: "current".into(),
        pending_migrations: Vec::new(),
    })
}

/// Prometheus metrics.
///
/// The Prometheus text format 0.0.4 by default; OpenMetrics 1.0 when `Accept` ranks
/// `application/openmetrics-text` first (as Prometheus does). Requests by route and status,
/// latency by route, problem responses by code, `cardroom_build_info`, `process_*`; with the
/// arena: matches started, finished and aborted, moves, faults, lease resumes, stream
/// connections, each registered bot's move latency (built-in bots apart), the queue by class,
/// the database pool and the ladder's leader (docs/deploy.md lists them). A server started with
/// `--metrics-token` answers only `Authorization: Bearer <token>` (401 `invalid_token` otherwise).
#[utoipa::path(
    tag = "service",
    security((), ("metrics_token" = [])),
    responses(
        (status = 200, description = "The metrics, in the format asked", content(
            (String = "text/plain; version=0.0.4"),
            (String = "application/openmetrics-text; version=1.0.0"),
        )),
        (status = 401, description = "`invalid_token`: the server has a metrics token (`--metrics-token`) and the request does not carry it; `WWW-Authenticate: Bearer`", body = arena::problem::Problem, content_type = "application/problem+json"),
    ),
)]
#[get("/metrics")]
pub async fn metrics(
    request: HttpRequest,
    metrics: web::Data<Metrics>,
    arena: Option<web::Data<arena::Arena>>,
    token: Option<web::Data<crate::http::security::MetricsToken>>,
) -> HttpResponse {
    if token.is_some_and(|token| !token.allows(&request)) {
        return crate::http::security::MetricsToken::refusal();
    }
    let format = Format::from_accept(
        request
            .headers()
            .get(ACCEPT)
            .and_then(|value| value.to_str().ok()),
    );
    if let Some(arena) = &arena {
        arena.observe().await;
    }
    let more: Vec<&prometheus_client::registry::Registry> = arena
        .iter()
        .map(|arena| arena.metrics().registry())
        .collect();
    HttpResponse::Ok()
        .content_type(format.content_type())
        .insert_header((VARY, "Accept"))
        .body(metrics.render(format, &more))
}
