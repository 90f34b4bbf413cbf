//! Service routes: liveness and Prometheus metrics.

use crate::codec::StateCodec;
use crate::dto::Health;
use crate::metrics::Metrics;
use actix_web::{HttpResponse, get, web};

/// Liveness check.
///
/// Answers 200 while the server runs.
#[utoipa::path(
    tag = "service",
    responses((status = 200, description = "The server is up", body = Health)),
)]
#[get("/healthz")]
pub async fn healthz(codec: web::Data<StateCodec>) -> web::Json<Health> {
    web::Json(Health {
        status: "ok".into(),
        games: engine::registry::games().len(),
        sealed: codec.is_sealed(),
    })
}

/// Prometheus metrics.
///
/// Request counts by route and status, and latency histograms by route; with the arena, its
/// matches started and finished (by game and outcome), moves, faults by kind and bot call
/// latency. OpenMetrics text format (which Prometheus reads).
#[utoipa::path(
    tag = "service",
    responses((status = 200, description = "OpenMetrics text format", body = String, content_type = "application/openmetrics-text; version=1.0.0")),
)]
#[get("/metrics")]
pub async fn metrics(
    metrics: web::Data<Metrics>,
    arena: Option<web::Data<arena::Arena>>,
) -> HttpResponse {
    let arena_families = arena.map(|a| a.metrics().render()).unwrap_or_default();
    HttpResponse::Ok()
        .content_type("application/openmetrics-text; version=1.0.0; charset=utf-8")
        .body(metrics.render(&arena_families))
}
