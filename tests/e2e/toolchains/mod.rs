//! The tests whose tools come from a package registry: the generated Python clients
//! (openapi-python-client, PyPI), schemathesis (PyPI), the browser test (Playwright for Python from
//! PyPI, driving Debian's Chromium), the TypeScript client (openapi-typescript and typescript, npm),
//! Redocly's linter (npm), the progenitor client (crates.io, its own lock file) and Prometheus's
//! own parsers of `/metrics` (prometheus_client, PyPI).
//!
//! So that `cargo test --workspace` needs no network once the workspace's crates are fetched, a
//! test here runs only when its toolchain is already installed (under `target/`) and otherwise
//! prints `SKIPPED: <test>: <what is missing>; ...` and passes. With `CARDROOM_TOOLCHAINS=1`
//! (`.ci/run`'s toolchain step: `CARDROOM_TOOLCHAINS=1 cargo test --workspace --test e2e
//! toolchains::`) it installs what is missing first, and a failed install fails the test.
//! `CARDROOM_GENERATORS=1`, the switch of the generators step before, means the same.

pub mod browser;
pub mod generators;
pub mod prometheus;
pub mod python_client;
pub mod schemathesis;
pub mod typed_clients;

use crate::support::run;
use std::io::Write as _;
use std::path::Path;
use std::process::Command;

/// True when missing toolchains are to be installed.
fn install_allowed() -> bool {
    ["CARDROOM_TOOLCHAINS", "CARDROOM_GENERATORS"]
        .iter()
        .any(|switch| std::env::var(switch).is_ok_and(|value| value == "1"))
}

/// The toolchain `test` needs: what `find` answers when it is installed; else, when installing is
/// allowed, what `find` answers after `install`; else None, after printing that `test` is skipped
/// because `missing` (the test then returns).
pub fn require<T>(
    test: &str,
    missing: &str,
    find: impl Fn() -> Option<T>,
    install: impl FnOnce(),
) -> Option<T> {
    if let Some(found) = find() {
        return Some(found);
    }
    if !install_allowed() {
        // Straight to stderr, past the test harness's capture: shown even when the test passes.
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: {test}: {missing}; run .ci/run or set CARDROOM_TOOLCHAINS=1"
        );
        return None;
    }
    install();
    let found = find().unwrap_or_else(|| panic!("{test}: still {missing} after installing it"));
    Some(found)
}

/// Creates the Python venv `venv` (under target/, so nothing global changes) and installs
/// `packages` into it from PyPI.
pub fn pip_install(venv: &Path, packages: &[&str]) {
    run(
        Command::new("python3").args(["-m", "venv"]).arg(venv),
        &format!(
            "creating {} (needs python3 with venv; Debian: apt-get install -y python3-venv)",
            venv.display()
        ),
    );
    run(
        Command::new(venv.join("bin/pip"))
            .args(["install", "--quiet", "--disable-pip-version-check"])
            .args(packages),
        &format!("pip install {} (needs PyPI)", packages.join(" ")),
    );
}

/// Installs npm `packages` into the private npm project `tools` (created if missing; under
/// target/, so nothing global changes).
pub fn npm_install(tools: &Path, packages: &[&str]) {
    std::fs::create_dir_all(tools).expect("npm tools folder");
    if !tools.join("package.json").exists() {
        std::fs::write(tools.join("package.json"), "{\"private\": true}\n").expect("package.json");
    }
    run(
        Command::new("npm")
            .current_dir(tools)
            .args(["install", "--no-audit", "--no-fund", "--silent"])
            .args(packages),
        &format!(
            "npm install {} (needs node, npm and the npm registry; Debian: apt-get install -y nodejs npm)",
            packages.join(" ")
        ),
    );
}
