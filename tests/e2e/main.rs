//! End-to-end tests: the real server on 127.0.0.1, a free port, and HTTP.
//!
//! `cargo test -p e2e`. The Python client test needs `python3` (with `venv`) and PyPI access the
//! first time (it installs openapi-python-client into `target/py-venv`). The starter-bot tests
//! need `node` (20+) and `python3`, and build the Rust starter with the cargo running them.

mod support;

mod arena;
mod catalog;
mod cli;
mod contract;
mod determinize;
mod errors;
mod generators;
mod openapi_drift;
mod operations;
mod play;
mod python_client;
mod schemathesis;
mod sealed;
mod starters;
mod typed_clients;
mod web;
