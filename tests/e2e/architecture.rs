//! ARCHITECTURE.md stays true where a check is cheap: its code maps name every module of
//! `engine/src/`, `arena/src/` and `api/src/` (files and folders at the top of each), every entry
//! they name exists, and every repository path it quotes in backticks exists.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ sits in the repository")
        .to_path_buf()
}

/// The code block that follows the heading line containing `heading`: its lines.
fn code_block<'a>(text: &'a str, heading: &str) -> Vec<&'a str> {
    let start = text
        .lines()
        .position(|l| l.starts_with('#') && l.contains(heading))
        .unwrap_or_else(|| panic!("ARCHITECTURE.md has no heading with {heading:?}"));
    text.lines()
        .skip(start + 1)
        .skip_while(|l| !l.starts_with("```"))
        .skip(1)
        .take_while(|l| !l.starts_with("```"))
        .collect()
}

/// The entries a code map names at its left margin (`lib.rs`, `store/`, `metrics.rs, telemetry.rs`).
fn named_entries(block: &[&str], indent: usize) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for line in block {
        let Some(rest) = line.strip_prefix(&" ".repeat(indent)) else {
            continue;
        };
        if rest.starts_with(' ') {
            continue;
        }
        // The names open the line (`metrics.rs, telemetry.rs`), then comes the description.
        for word in rest.split_whitespace() {
            let name = word.trim_end_matches(',');
            let more = name.len() < word.len();
            if name.ends_with(".rs") {
                names.insert(name.to_string());
            } else if name.ends_with('/') {
                // `games/<family>/` names the folder `games`.
                names.insert(name.split('/').next().unwrap_or(name).to_string());
            } else {
                break;
            }
            if !more {
                break;
            }
        }
    }
    names
}

/// The modules at the top of a `src/` folder: `.rs` files and folders.
fn modules(src: &Path) -> BTreeSet<String> {
    std::fs::read_dir(src)
        .unwrap_or_else(|e| panic!("read {}: {e}", src.display()))
        .map(|entry| entry.expect("entry"))
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().to_string();
            let path = entry.path();
            if path.is_dir() || name.ends_with(".rs") {
                Some(name)
            } else {
                None
            }
        })
        .collect()
}

#[test]
fn the_code_maps_name_every_module_and_nothing_that_is_gone() {
    let root = repository();
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let mut problems = Vec::new();
    for (heading, src, indent) in [
        ("## The engine", "engine/src", 2),
        ("code map (`arena/src/`)", "arena/src", 0),
        ("code map (`api/src/`)", "api/src", 0),
    ] {
        let named = named_entries(&code_block(&text, heading), indent);
        let present = modules(&root.join(src));
        for module in present.difference(&named) {
            problems.push(format!("{src}/{module} is not in ARCHITECTURE.md's map"));
        }
        for entry in named.difference(&present) {
            problems.push(format!(
                "ARCHITECTURE.md maps {src}/{entry}, which does not exist"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_repository_path_it_quotes_exists() {
    let root = repository();
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let tops = [
        "engine/",
        "arena/",
        "api/",
        "tests/",
        "docs/",
        "openapi/",
        "bench/",
        "examples/",
        ".ci/",
    ];
    let mut missing = Vec::new();
    for quoted in text.split('`').skip(1).step_by(2) {
        let path = quoted.trim_end_matches(['.', ',', ')']);
        if !tops.iter().any(|top| path.starts_with(top)) || path.contains(['<', '{', '*', ' ']) {
            continue;
        }
        if !root.join(path).exists() {
            missing.push(path.to_string());
        }
    }
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md quotes paths that do not exist: {missing:?}"
    );
}
