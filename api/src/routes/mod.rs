//! Every route of the service, registered in one place ([`configure_all`]) that the server
//! ([`crate::startup`]), the OpenAPI generator ([`crate::openapi`]) and the tests all use. Both of
//! those depend on this module; it depends on neither.

pub mod contract;
pub mod games;
pub mod health;
pub mod search;

use utoipa_actix_web::service_config::ServiceConfig;

/// Registers the rules API and the service routes (health, metrics).
///
/// actix tries routes in registration order, and each `{game}` pattern is a regular expression
/// run on the path: the per-move routes (apply, legal, view) come first, so a move is matched at
/// the first try (four failed matches were 3% of an apply's instructions). No two patterns
/// overlap, and the OpenAPI document sorts its paths, so the order changes nothing else.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(games::apply)
        .service(games::legal)
        .service(games::view)
        .service(games::start)
        .service(search::determinize)
        .service(search::rollouts)
        .service(games::replay)
        .service(games::list)
        .service(games::describe)
        .service(contract::game_openapi)
        .service(health::healthz)
        .service(health::livez)
        .service(health::readyz)
        .service(health::metrics);
}

/// Every documented route of the service: the rules API, health, and the arena.
pub fn configure_all(cfg: &mut ServiceConfig) {
    configure(cfg);
    arena::configure(cfg);
}
