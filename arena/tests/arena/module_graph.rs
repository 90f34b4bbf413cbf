//! No import cycle between the top-level modules of the arena and API crates: a module (a file, or
//! a folder with its children, under `src/`) may use a module that does not use it back, however
//! indirectly. The graph is read from the sources (`crate::x` paths, in `use` or inline, with the
//! crate root's re-exports resolved), so this runs with the other tests, without tools.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeSet<String>>;

/// The source without comments, string and character literals (a path in a doc comment or a
/// message is no dependency).
fn code_only(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let (mut out, mut i) = (String::with_capacity(source.len()), 0);
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    while i < chars.len() {
        let rest = &chars[i..];
        let starts =
            |text: &str| text.chars().zip(rest).filter(|(a, b)| a == *b).count() == text.len();
        if starts("//") {
            i += rest.iter().position(|c| *c == '\n').unwrap_or(rest.len());
        } else if starts("/*") {
            i += rest
                .windows(2)
                .position(|w| w == ['*', '/'])
                .map_or(rest.len(), |p| p + 2);
        } else if chars[i] == 'r'
            && (i == 0 || !ident(chars[i - 1]))
            && rest[1..].iter().find(|c| **c != '#') == Some(&'"')
        {
            // A raw string: r"...", r#"..."# (not a raw identifier, r#type).
            let hashes = rest[1..].iter().take_while(|c| **c == '#').count();
            let close: String = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            let body: String = rest[2 + hashes..].iter().collect();
            i += 2
                + hashes
                + body.find(&close).map_or(body.chars().count(), |p| {
                    body[..p].chars().count() + close.len()
                });
        } else if chars[i] == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if chars[i] == '\'' && rest.get(1) == Some(&'\\') && rest.len() > 3 {
            // An escaped character literal ('\'', '\n', '\u{..}').
            i += 3 + rest[3..].iter().position(|c| *c == '\'').unwrap_or(0) + 1;
        } else if chars[i] == '\'' && rest.get(2) == Some(&'\'') {
            // A character literal ('"'), not a lifetime ('a).
            i += 3;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// The first identifiers after each `crate::` (each item of a `crate::{a, b::c}` group).
fn crate_paths(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let after = &code[at + "crate::".len()..];
        let items = match after.strip_prefix('{') {
            Some(group) => group[..group.find('}').unwrap_or(group.len())]
                .split(',')
                .collect(),
            None => vec![after],
        };
        for item in items {
            let name: String = item
                .trim_start()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            names.push(name);
        }
    }
    names
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Each top-level module's uses of the others.
fn module_graph(src: &Path) -> Graph {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let module_of = |path: &Path| -> String {
        let first = path
            .strip_prefix(src)
            .expect("under src")
            .components()
            .next()
            .expect("a file");
        first
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string()
    };
    let modules: BTreeSet<String> = files
        .iter()
        .map(|f| module_of(f))
        .filter(|m| m != "lib" && m != "main")
        .collect();
    // `pub use module::{Item, ...}` at the crate root: `crate::Item` is a use of that module.
    let mut reexports: BTreeMap<String, String> = BTreeMap::new();
    if let Ok(root) = std::fs::read_to_string(src.join("lib.rs")) {
        for statement in code_only(&root).split(';') {
            let Some(path) = statement.trim().strip_prefix("pub use ") else {
                continue;
            };
            let (module, items) = path.split_once("::").unwrap_or((path, ""));
            for item in items
                .trim_matches(|c: char| c == '{' || c == '}' || c.is_whitespace())
                .split(',')
            {
                reexports.insert(item.trim().to_string(), module.to_string());
            }
        }
    }
    let mut graph: Graph = modules
        .iter()
        .map(|m| (m.clone(), BTreeSet::new()))
        .collect();
    for file in &files {
        let from = module_of(file);
        let Some(uses) = graph.get_mut(&from) else {
            continue;
        };
        let code = code_only(&std::fs::read_to_string(file).expect("a source file"));
        for name in crate_paths(&code) {
            let to = if modules.contains(&name) {
                Some(&name)
            } else {
                reexports.get(&name)
            };
            if let Some(to) = to.filter(|to| **to != from) {
                uses.insert(to.clone());
            }
        }
    }
    graph
}

/// A cycle of the graph, as the modules along it (the first repeated at the end), if any.
fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    fn visit<'a>(
        graph: &'a Graph,
        node: &'a str,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| *n == node) {
            return Some(
                path[at..]
                    .iter()
                    .chain([&node])
                    .map(|n| n.to_string())
                    .collect(),
            );
        }
        if !done.insert(node) {
            return None;
        }
        path.push(node);
        for next in &graph[node] {
            if let Some(cycle) = visit(graph, next, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(graph, node, &mut Vec::new(), &mut done))
}

#[test]
fn the_arena_and_the_api_have_no_import_cycle() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace");
    for krate in ["arena", "api"] {
        let graph = module_graph(&workspace.join(krate).join("src"));
        assert!(
            graph.len() > 5,
            "{krate}: the modules were found: {graph:?}"
        );
        if let Some(cycle) = find_cycle(&graph) {
            panic!("{krate}/src has an import cycle: {}", cycle.join(" -> "));
        }
    }
}

#[test]
fn the_scan_sees_uses_and_cycles_but_not_comments_or_strings() {
    let code = code_only(
        "use crate::{a, b::c}; // crate::d\n/* crate::e */ let s = \"crate::f\"; let t = r#\"crate::g\"#;\nlet q = '\"'; let n = '\\''; let r#type = 1; crate::h::run(); fn k<'x>(v: &'x str) { crate::i(); }",
    );
    assert_eq!(crate_paths(&code), ["a", "b", "h", "i"]);
    let graph: Graph = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec!["a"]),
    ]
    .into_iter()
    .map(|(m, uses)| (m.to_string(), uses.into_iter().map(String::from).collect()))
    .collect();
    assert_eq!(
        find_cycle(&graph),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
    let mut acyclic = graph.clone();
    acyclic.get_mut("c").unwrap().clear();
    assert_eq!(find_cycle(&acyclic), None);
}
