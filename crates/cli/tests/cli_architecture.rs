//! The command line's shape, checked: its files import each other without
//! a cycle (args → commands → load and the engines' run → renderers), none
//! is over 800 lines, it never names a front end outside the binary
//! (`main.rs`), and the front ends never depend on an engine.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Every source file of `crates/cli/src` by module path (`tree/model`,
/// `verify`; `mod.rs` is its folder's module), with its text up to its
/// unit tests, comments removed.
fn sources() -> BTreeMap<String, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = BTreeMap::new();
    let mut dirs = vec![root.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let rel = path.strip_prefix(&root).unwrap().with_extension("");
            let mut name = rel.to_string_lossy().replace('\\', "/");
            if let Some(dir) = name.strip_suffix("/mod") {
                name = dir.to_string();
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            let code: Vec<&str> = code
                .lines()
                .map(|l| l.split("//").next().unwrap_or(""))
                .collect();
            out.insert(name, code.join("\n"));
        }
    }
    out
}

/// The identifier paths that follow `prefix` in `code` (`crate::a::b`,
/// and each path of a `crate::{a, b::c}` group).
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':';
    for (at, _) in code.match_indices(prefix) {
        if code[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let rest = &code[at + prefix.len()..];
        let group = rest
            .strip_prefix('{')
            .map(|g| &g[..g.find('}').unwrap_or(g.len())]);
        let items: Vec<&str> = match group {
            Some(g) => g.split(',').collect(),
            None => vec![&rest[..rest.find(|c| !word(c)).unwrap_or(rest.len())]],
        };
        for item in items {
            let path: Vec<String> = item
                .split("::")
                .map(|s| {
                    s.trim()
                        .trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                })
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect();
            if !path.is_empty() {
                out.push(path);
            }
        }
    }
    out
}

/// Which files each file imports.
fn imports(files: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    // The longest module path of `path` that is a file.
    let file_of = |path: &[String]| {
        (1..=path.len())
            .rev()
            .map(|n| path[..n].join("/"))
            .find(|m| files.contains_key(m))
    };
    let mut edges = BTreeMap::new();
    for (name, code) in files {
        let mut to = BTreeSet::new();
        let parent: Vec<String> = name.split('/').map(str::to_string).collect();
        let parent = &parent[..parent.len() - 1];
        for path in paths_after(code, "crate::") {
            // An item of the crate root (`crate::emit`) is lib.rs's.
            to.insert(file_of(&path).unwrap_or_else(|| "lib".into()));
        }
        for path in paths_after(code, "super::") {
            let full: Vec<String> = parent.iter().cloned().chain(path).collect();
            to.insert(file_of(&full).unwrap_or_else(|| "lib".into()));
        }
        // A module's own children, named from it (`json::x` in testfile).
        let own = if name == "lib" {
            String::new()
        } else {
            format!("{name}/")
        };
        for child in files.keys().filter(|k| {
            k.strip_prefix(&own).is_some_and(|c| !c.contains('/')) && *k != name && *k != "main"
        }) {
            let short = child.rsplit('/').next().unwrap_or(child);
            if !paths_after(code, &format!("{short}::")).is_empty() {
                to.insert(child.clone());
            }
        }
        to.remove(name);
        edges.insert(name.clone(), to);
    }
    edges
}

#[test]
fn the_cli_files_import_each_other_without_a_cycle() {
    let files = sources();
    let edges = imports(&files);
    // Kahn's algorithm: what is left after removing every file nothing
    // left imports lies on a cycle.
    let mut left: BTreeMap<&str, BTreeSet<&str>> = edges
        .iter()
        .map(|(k, v)| (k.as_str(), v.iter().map(String::as_str).collect()))
        .collect();
    while let Some(done) = left.iter().find(|(_, v)| v.is_empty()).map(|(k, _)| *k) {
        left.remove(done);
        for v in left.values_mut() {
            v.remove(done);
        }
    }
    assert!(left.is_empty(), "files on an import cycle: {left:?}");
    // The checker sees imports at all: verify imports load and args.
    assert!(edges["verify"].contains("load") && edges["verify"].contains("args"));
    assert!(edges["testfile/replay"].contains("testfile/outcome"));
}

#[test]
fn no_cli_file_is_over_800_lines_or_names_a_front_end() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for (name, code) in sources() {
        let file = if root.join(&name).is_dir() {
            root.join(&name).join("mod.rs")
        } else {
            root.join(format!("{name}.rs"))
        };
        let lines = std::fs::read_to_string(&file).unwrap().lines().count();
        assert!(lines <= 800, "{} has {lines} lines", file.display());
        if name != "main" {
            for front_end in ["wiser_c::", "wiser_imp::", "is_c", "Lang::"] {
                assert!(!code.contains(front_end), "{name} names `{front_end}`");
            }
        }
    }
}

#[test]
fn front_ends_depend_on_no_engine() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for front_end in ["imp", "c", "frontend"] {
        let manifest = std::fs::read_to_string(crates.join(front_end).join("Cargo.toml")).unwrap();
        let dependencies = manifest
            .split("[dependencies]")
            .nth(1)
            .and_then(|d| d.split("\n[").next())
            .unwrap_or("");
        for engine in ["wiser-engine", "wiser-semantics", "wiser-smt", "z3"] {
            assert!(
                !dependencies.contains(engine),
                "{front_end} depends on {engine}"
            );
        }
    }
}
