//! The rules live in the repository: every ruling id (`R17`) and worked-example id (`E5`) that a
//! family's code or tests cite is stated in `docs/rules/<family>.md` under that id (a heading
//! `### R17 — ...` or a bold label `**E5 ...**`), and no file cites a rules text outside the
//! repository.
//!
//! Scanned for each family: `engine/src/games/<family>/**`, `engine/tests/rules_<family>.rs`
//! (comments, strings and test names such as `b8_r17_queens_and_kings`), and every line of any
//! other source or doc file that names the family beside a ruling id.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// Each family with the letters its worked examples are numbered with.
const FAMILIES: [(&str, &[char]); 10] = [
    ("basra", &['B']),
    ("bird_dog", &['B']),
    ("chinese_ten", &['X']),
    ("marglia", &['E', 'M']),
    ("sloppy_seconds", &['S']),
    ("taihe_abao", &['T']),
    ("tjak_mat_tchi_ki", &['K']),
    ("trump_crew", &['T']),
    ("twenty_two", &['E']),
    ("watten", &['B', 'K', 'T']),
];

/// Text files that may cite rules (sources, tests, docs, scripts).
const TEXT: [&str; 9] = ["rs", "md", "js", "ts", "py", "toml", "sh", "html", "css"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace root")
        .to_path_buf()
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !name.starts_with('.') && name != "target" && name != "node_modules" {
                files_under(&path, out);
            }
        } else if path
            .extension()
            .is_some_and(|e| TEXT.contains(&e.to_string_lossy().as_ref()))
        {
            out.push(path);
        }
    }
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Ids `<letter><number>` in `line` for the given letters, whole words only; a range such as
/// `R1-R17`, `R1–R17` or `R1..R16` counts every id in it.
fn ids_in(line: &str, letters: &[char]) -> Vec<String> {
    let chars: Vec<char> = line.chars().collect();
    let mut found: Vec<(char, u32, usize)> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let starts = letters.contains(&c) && (i == 0 || !is_word(chars[i - 1]));
        if starts {
            let mut j = i + 1;
            while j < chars.len() && chars[j].is_ascii_digit() {
                j += 1;
            }
            if j > i + 1 && (j == chars.len() || !is_word(chars[j])) {
                let n: u32 = chars[i + 1..j].iter().collect::<String>().parse().unwrap();
                found.push((c, n, i));
                i = j;
                continue;
            }
        }
        i += 1;
    }
    let mut ids = Vec::new();
    for (k, &(letter, n, _)) in found.iter().enumerate() {
        ids.push(format!("{letter}{n}"));
        if let Some(&(next, m, at)) = found.get(k + 1) {
            let end = found[k].2 + 1 + n.to_string().len();
            let between: String = chars[end..at].iter().collect();
            let range = ["-", "–", "..", "..="].contains(&between.trim());
            if range && next == letter && m > n + 1 {
                ids.extend((n + 1..m).map(|x| format!("{letter}{x}")));
            }
        }
    }
    ids
}

/// Ids named by a test function's name: `fn b8_r17_queens_and_kings` cites B8 and R17.
fn ids_in_fn_name(line: &str, letters: &[char]) -> Vec<String> {
    let Some(rest) = line.trim_start().strip_prefix("fn ") else {
        return Vec::new();
    };
    let name: String = rest.chars().take_while(|&c| is_word(c)).collect();
    name.split('_')
        .filter_map(|part| {
            let mut chars = part.chars();
            let letter = chars.next()?.to_ascii_uppercase();
            let digits = chars.as_str();
            let numbered = !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit());
            (numbered && letters.contains(&letter)).then(|| format!("{letter}{digits}"))
        })
        .collect()
}

/// The ids a family's doc states: a heading `### R17 — ...` or a bold label `**E5 (...)**`; a label
/// may state several (`**B7, B8 (team tally)**`), listed before its title.
fn stated_ids(doc: &str, letters: &[char]) -> BTreeSet<String> {
    let label_ids = |label: &str| -> Vec<String> {
        let head = label.split(['(', '—', ':', '.']).next().unwrap_or("");
        let ids = ids_in(head, letters);
        match ids.first() {
            Some(first) if head.starts_with(first.as_str()) => ids,
            _ => Vec::new(),
        }
    };
    let mut ids = BTreeSet::new();
    for line in doc.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with('#') {
            ids.extend(label_ids(trimmed.trim_start_matches('#').trim_start()));
        }
        for (at, _) in line.match_indices("**") {
            let rest = &line[at + 2..];
            let label = rest.split("**").next().unwrap_or(rest);
            ids.extend(label_ids(label));
        }
    }
    ids
}

fn letters_of(examples: &[char]) -> Vec<char> {
    let mut letters = vec!['R'];
    letters.extend_from_slice(examples);
    letters
}

/// (file, line number, id) for every id cited for `family`.
fn cited(family: &str, examples: &[char], everything: &[PathBuf]) -> Vec<(String, usize, String)> {
    let root = root();
    let own_dir = root.join("engine/src/games").join(family);
    let own_test = root.join(format!("engine/tests/rules_{family}.rs"));
    let docs = root.join("docs/rules");
    let letters = letters_of(examples);
    let mut out = Vec::new();
    for path in everything {
        if path.starts_with(&docs) || path.ends_with("engine/tests/rulings.rs") {
            continue;
        }
        let own = path.starts_with(&own_dir) || *path == own_test;
        let text = fs::read_to_string(path).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            // Elsewhere only rulings next to the family's name count, and not example ids,
            // whose letters mean other things there.
            let ids = if own {
                let mut ids = ids_in(line, &letters);
                ids.extend(ids_in_fn_name(line, &letters));
                ids
            } else if line.contains(family) {
                ids_in(line, &['R'])
            } else {
                continue;
            };
            out.extend(ids.into_iter().map(|id| (relative(path), n + 1, id)));
        }
    }
    out
}

fn all_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    files_under(&root(), &mut files);
    files.sort();
    files
}

#[test]
fn every_cited_ruling_is_stated_in_the_familys_doc() {
    let everything = all_files();
    let mut missing = Vec::new();
    for (family, examples) in FAMILIES {
        let doc_path = root().join(format!("docs/rules/{family}.md"));
        let doc = fs::read_to_string(&doc_path).unwrap_or_default();
        let stated = stated_ids(&doc, &letters_of(examples));
        let cited = cited(family, examples, &everything);
        assert!(
            cited.iter().any(|(_, _, id)| id.starts_with('R')),
            "{family}: no ruling id found in its code and tests (is the scan broken?)"
        );
        for (file, line, id) in cited {
            if !stated.contains(&id) {
                missing.push(format!(
                    "{file}:{line}: cites {id}, which docs/rules/{family}.md does not state"
                ));
            }
        }
    }
    assert!(missing.is_empty(), "\n{}", missing.join("\n"));
}

#[test]
fn no_file_cites_rules_outside_the_repository() {
    // Written in two parts so that this file does not match itself.
    let outside = [concat!("shared", "/rules/"), concat!("../", "shared/")];
    let mut found = Vec::new();
    for path in all_files() {
        let text = fs::read_to_string(&path).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            for word in outside {
                if line.contains(word) {
                    found.push(format!("{}:{}: `{word}`", relative(&path), n + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "cite docs/rules/<family>.md instead:\n{}",
        found.join("\n")
    );
}

#[test]
fn ids_are_read_with_their_ranges_and_test_names() {
    assert_eq!(
        ids_in("R3; see R1-R3 and E2..E4", &['R', 'E']),
        ["R3", "R1", "R2", "R3", "E2", "E3", "E4"]
    );
    assert_eq!(ids_in("TR5, R5a and xR6 are not ids; (R7)", &['R']), ["R7"]);
    assert_eq!(
        ids_in_fn_name("    fn b8_r17_queens() {", &['R', 'B']),
        ["B8", "R17"]
    );
    let doc = "### R17 — Queens, R20\n**E5 (sets).** text R18\n- **R19** x\n**E7, E8 (ties)**\n";
    let stated = stated_ids(doc, &['R', 'E']);
    assert_eq!(
        stated.into_iter().collect::<Vec<_>>(),
        ["E5", "E7", "E8", "R17", "R19"]
    );
}
