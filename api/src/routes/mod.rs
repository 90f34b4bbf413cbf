//! Every route of the service, registered in one place ([`configure_all`]) that the server
//! ([`crate::startup`]), the OpenAPI generator ([`crate::openapi`]) and the tests all use. Both of
//! those depend on this module; it depends on neither.

pub mod contract;
pub mod games;
pub mod health;

use utoipa_actix_web::service_config::ServiceConfig;

/// Registers the rules API and the service routes (health, metrics).
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(games::list)
        .service(games::describe)
        .service(contract::game_openapi)
        .service(games::start)
        .service(games::legal)
        .service(games::apply)
        .service(games::view)
        .service(games::replay)
        .service(games::determinize)
        .service(health::healthz)
        .service(health::metrics);
}

/// Every documented route of the service: the rules API, health, and the arena.
pub fn configure_all(cfg: &mut ServiceConfig) {
    configure(cfg);
    arena::configure(cfg);
}
