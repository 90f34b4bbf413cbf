//! # cardroom api
//!
//! The stateless rules API over HTTP, generic over the engine's registry: catalog, new, legal,
//! apply, view and replay, with transparent or sealed states, problem+json errors, a generated
//! OpenAPI 3.1 document and an offline docs page.
//!
//! - [`startup`]: build and bind the server.
//! - [`routes`]: the handlers; [`routes::configure_all`] lists every route.
//! - [`dto`]: wire types; [`step`]: the step a client receives after a move.
//! - [`error`]: the service's one error type (re-exported from `arena::problem`) and the panic guard.
//! - [`codec`]: transparent and sealed states.
//! - [`openapi`]: the OpenAPI document.
//! - [`contract`]: each game id's own OpenAPI document, typed with its family's schemas.
//! - [`openapi30`]: the OpenAPI 3.0.3 copy of every document, for generators that read 3.0 only.
//! - [`cli`]: the `cardroom` command line.
#![warn(missing_docs)]

/// The version of this build (`cardroom --version`, `/healthz`, `cardroom_build_info`).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

pub mod backup;
pub mod cli;
pub mod codec;
pub mod contract;
pub mod dto;
pub mod error;
pub mod http;
pub mod metrics;
pub mod openapi;
pub mod openapi30;
mod openapi_http;
pub mod routes;
pub mod search;
pub mod startup;
pub mod step;
pub mod telemetry;
pub mod web;
