//! End-to-end tests: the real server on 127.0.0.1, a free port, and HTTP; and several `cardroom`
//! processes on one database (`arena_workers`).
//!
//! `cargo test -p e2e` needs no network once the workspace's crates are fetched: the tests whose
//! tools come from PyPI, npm or crates.io (`toolchains::*`) are skipped, with a printed line, while
//! their tools are missing; `CARDROOM_TOOLCHAINS=1` installs them (see `toolchains`). The
//! starter-bot tests need `node` (20+) and `python3`, and build the Rust starter with the cargo
//! running them; `arena_workers` builds the `cardroom` binary the same way and needs PostgreSQL
//! (`DATABASE_URL`) for its multi-worker tests.

mod support;

mod abuse;
mod architecture;
mod arena;
mod arena_workers;
mod backup;
mod catalog;
mod cli;
mod cluster;
mod contract;
mod determinize;
mod drain;
mod errors;
mod http_edge;
mod http_requests;
mod lobby;
mod openapi_drift;
mod operations;
mod operator;
mod play;
mod players;
mod rollouts;
mod sealed;
mod seat_info;
mod starters;
mod stream_bus;
mod tables;
mod toolchains;
mod watchable;
mod web;
