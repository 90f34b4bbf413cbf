//! # cardroom arena
//!
//! The bot arena: registered bot URLs, ranked matches, ratings, replays and persistence. It is
//! generic over the engine's registry: any game added to `engine::registry` is playable here with
//! no arena code.
//!
//! - [`Arena`]: the handle ([`Arena::open`] creates/migrates the database, starts the match
//!   workers and the ladder); [`configure`] registers every arena route and the built-in bots.
//! - [`wire`]: the bot protocol (source of `openapi/bot-protocol.json`); [`client`]: signed,
//!   deadline-bound calls to bots and their faults; [`safety`]: which URLs may be called.
//! - [`runner`]: the re-entrant match loop, its core rule in [`runner::decision`]; [`result`]:
//!   a finished match's result; [`ratings`]: pure Weng-Lin functions; [`ladder`]: ranked
//!   scheduling (one leader across processes); [`store`]: persistence (SQLite or PostgreSQL),
//!   matches as a durable queue with leases.
//! - [`builtin`]: the `random` and `heuristic` bots; [`mod@play`]: `cardroom play`.
//! - [`problem`]: the one error type of the whole service ([`ServiceError`], the closed
//!   [`ErrorCode`] list) and its problem+json rendering, used by the rules API too.
#![warn(missing_docs)]

pub mod bots;
pub mod builtin;
pub mod bus;
pub mod client;
pub mod commitment;
pub mod config;
pub mod dto;
pub mod http;
pub mod limits;
pub mod live;
pub mod metrics;
pub mod paging;
pub mod play;
pub mod players;
pub mod problem;
pub mod ratings;
pub mod replay;
pub mod result;
pub mod routes;
pub mod runner;
pub mod safety;
pub mod seal;
pub mod service;
pub mod store;
pub mod streams;
pub mod synthetic;
pub mod tables;
pub mod text;
pub mod tournament;
pub mod wire;

pub use config::{ArenaArgs, ArenaConfig, Role};
pub use play::{ExtraRoutes, PlayArgs, play, play_serving};
pub use problem::{ErrorCode, Problem, ServiceError};
pub use service::{Arena, Caller, ladder, maintenance};

use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
use utoipa_actix_web::service_config::ServiceConfig;

/// Registers every arena route (`/v1/bots`, `/v1/matches`, `/v1/leaderboards`) and the built-in
/// bots (`/bots/{name}`, and `/bots/{name}/` for their base URL). Handlers read `web::Data<Arena>`, which the caller adds to the app.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(routes::bots::register)
        .service(routes::bots::list)
        .service(routes::bots::show)
        .service(routes::bots::update)
        .service(routes::bots::remove)
        .service(routes::bots::rotate_token)
        .service(routes::feedback::rotate_secret)
        .service(routes::feedback::faults)
        .service(routes::feedback::ratings)
        .service(routes::matches::create)
        .service(routes::matches::list)
        .service(routes::matches::show)
        .service(routes::matches::cancel)
        .service(routes::players::create)
        .service(routes::players::show)
        .service(routes::tables::create)
        .service(routes::tables::list)
        .service(routes::tables::show)
        .service(routes::tables::join)
        .service(routes::tables::seat)
        .service(routes::tables::move_at_table)
        .service(routes::tables::rematch)
        .service(routes::tournaments::create)
        .service(routes::tournaments::list)
        .service(routes::tournaments::show)
        .service(routes::tournaments::cancel)
        .service(routes::live::events)
        .service(routes::live::frames)
        .service(routes::stream::stream)
        .service(routes::stream::answer)
        .service(routes::leaderboards::show)
        .service(routes::builtin::bot_info)
        .route(
            "/bots/{name}/",
            actix_web::web::get().to(routes::builtin::bot_info_at_base),
        )
        .service(routes::builtin::bot_move)
        .service(routes::builtin::bot_start)
        .service(routes::builtin::bot_end);
}

/// Adds what the arena's routes refer to beyond paths and schemas: the `owner_token` and
/// `admin_token` bearer security schemes and the `arena` / `built-in bots` tags. Call it on the
/// API's document.
pub fn document(openapi: &mut utoipa::openapi::OpenApi) {
    let components = openapi.components.get_or_insert_with(Default::default);
    components.add_security_scheme(
        "owner_token",
        SecurityScheme::Http(
            Http::builder()
                .scheme(HttpAuthScheme::Bearer)
                .description(Some(
                    "The owner token returned once by `POST /v1/bots` (or `POST /v1/bots/{id}/token`)",
                ))
                .build(),
        ),
    );
    components.add_security_scheme(
        "admin_token",
        SecurityScheme::Http(
            Http::builder()
                .scheme(HttpAuthScheme::Bearer)
                .description(Some(
                    "The server's admin token (`serve --admin-token`, `CARDROOM_ADMIN_TOKEN`)",
                ))
                .build(),
        ),
    );
    components.add_security_scheme(
        "player_token",
        SecurityScheme::Http(
            Http::builder()
                .scheme(HttpAuthScheme::Bearer)
                .description(Some(
                    "A player's token, returned once by `POST /v1/players`",
                ))
                .build(),
        ),
    );
    // Issue 48 (48f): `/metrics` behind `--metrics-token`.
    components.add_security_scheme(
        "metrics_token",
        SecurityScheme::Http(
            Http::builder()
                .scheme(HttpAuthScheme::Bearer)
                .description(Some(
                    "The server's metrics token (`serve --metrics-token`, `CARDROOM_METRICS_TOKEN`), when it has one",
                ))
                .build(),
        ),
    );
    let tags = openapi.tags.get_or_insert_with(Vec::new);
    for (name, description) in [
        ("arena", "Bots, matches, ratings and leaderboards"),
        (
            "built-in bots",
            "The arena's own bots, speaking the bot protocol (openapi/bot-protocol.json)",
        ),
    ] {
        if !tags.iter().any(|t| t.name == name) {
            tags.push(
                utoipa::openapi::tag::TagBuilder::new()
                    .name(name)
                    .description(Some(description))
                    .build(),
            );
        }
    }
}
