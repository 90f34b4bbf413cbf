//! Every route of the rules API, registered in one place ([`configure`]) that the server, the
//! OpenAPI generator and the tests all use.

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
        .service(health::healthz)
        .service(health::metrics);
}
