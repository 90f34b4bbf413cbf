//! End-to-end tests: the real server on 127.0.0.1, a free port, and HTTP.
//!
//! `cargo test -p e2e`. The Python client test needs `python3` (with `venv`) and PyPI access the
//! first time (it installs openapi-python-client into `target/py-venv`).

mod support;

mod arena;
mod catalog;
mod cli;
mod contract;
mod errors;
mod openapi_drift;
mod play;
mod python_client;
mod sealed;
mod typed_clients;
