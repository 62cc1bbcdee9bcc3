//! The invariants of ARCHITECTURE.md that a test can check, read off the
//! workspace's manifests and sources:
//!
//! * front ends never depend on engines or on the solver;
//! * only `wiser-smt` links Z3, and inside it only the Z3 back end
//!   (`z3_backend*.rs`);
//! * the CLI never names a front end outside its binary's registry
//!   (`main.rs`): it asks the `wiser_frontend::Frontend` it holds;
//! * the CLI runs programs through the engine and the semantics' public
//!   entry points, never through the machine's internals;
//! * the CLI has no process-wide mutable state;
//! * no module cycle among the files of `crates/cli` or `crates/engine`;
//! * no source file over 800 lines;
//! * ARCHITECTURE.md's code map names every source file.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The workspace root.
fn root() -> PathBuf {
    let cli = Path::new(env!("CARGO_MANIFEST_DIR"));
    cli.parent().and_then(Path::parent).unwrap().to_path_buf()
}

/// A file's path from the workspace root, for messages.
fn shown(file: &Path) -> String {
    file.strip_prefix(root())
        .unwrap_or(file)
        .display()
        .to_string()
}

/// Every `.rs` file below `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n != "target") {
                    todo.push(p);
                }
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The names of the crates under `[dependencies]` (not dev- or build-) of
/// a manifest.
fn dependencies(manifest: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(manifest).unwrap();
    let mut section = String::new();
    let mut deps = BTreeSet::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            section = line.to_string();
        } else if section == "[dependencies]" && !line.starts_with('#') {
            if let Some((name, _)) = line.split_once('=') {
                let name = name.trim().trim_end_matches(".workspace").trim();
                if !name.is_empty() {
                    deps.insert(name.to_string());
                }
            }
        }
    }
    deps
}

/// The workspace's crates: directory name -> manifest's package name.
fn crates() -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for e in std::fs::read_dir(root().join("crates")).unwrap().flatten() {
        let manifest = e.path().join("Cargo.toml");
        let Ok(text) = std::fs::read_to_string(&manifest) else {
            continue;
        };
        let name = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("name = "))
            .map(|n| n.trim_matches('"').to_string())
            .unwrap();
        out.insert(e.file_name().to_string_lossy().into_owned(), name);
    }
    out
}

/// Source text without `//` comments (doc comments name other modules in
/// prose, which is no dependency).
fn code_of(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| match l.find("//") {
            Some(i) if !l[..i].contains('"') => &l[..i],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn front_ends_depend_on_no_engine_and_no_solver() {
    let crates = crates();
    let engines = [
        "wiser-engine",
        "wiser-semantics",
        "wiser-smt",
        "z3",
        "z3-sys",
    ];
    let front_ends: Vec<_> = crates
        .iter()
        .filter(|(_, name)| matches!(name.as_str(), "wiser-imp" | "wiser-c" | "wiser-frontend"))
        .collect();
    assert!(front_ends.len() >= 2, "front ends not found: {crates:?}");
    for (dir, name) in front_ends {
        let deps = dependencies(&root().join("crates").join(dir).join("Cargo.toml"));
        for engine in engines {
            assert!(
                !deps.contains(engine),
                "the front end {name} depends on {engine}: front ends lower to the IR and know no engine"
            );
        }
    }
}

#[test]
fn only_the_smt_crate_links_z3() {
    for (dir, name) in crates() {
        let deps = dependencies(&root().join("crates").join(&dir).join("Cargo.toml"));
        if name != "wiser-smt" {
            assert!(
                !deps.contains("z3") && !deps.contains("z3-sys"),
                "{name} depends on z3: only wiser-smt talks to the solver"
            );
        }
        for file in rust_files(&root().join("crates").join(&dir).join("src")) {
            let code = code_of(&file);
            let in_backend = name == "wiser-smt"
                && file
                    .file_name()
                    .is_some_and(|f| f.to_string_lossy().starts_with("z3_backend"));
            assert!(
                in_backend || !(code.contains("z3::") || code.contains("z3_sys::")),
                "{} uses z3 directly: only wiser-smt's z3_backend does",
                shown(&file)
            );
        }
    }
}

#[test]
fn the_cli_names_no_front_end_outside_its_registry() {
    let src = root().join("crates/cli/src");
    for file in rust_files(&src) {
        if file == src.join("main.rs") {
            continue;
        }
        // Unit tests may take a front end as their fixture.
        let code = code_of(&file);
        let code = code.split("#[cfg(test)]").next().unwrap_or_default();
        for front_end in ["wiser_c::", "wiser_imp::", "is_c(", "Lang::"] {
            assert!(
                !code.contains(front_end),
                "{} names `{front_end}`: the CLI asks the front end it holds (wiser_frontend::Frontend)",
                shown(&file)
            );
        }
    }
}

#[test]
fn the_cli_has_no_mutable_globals() {
    // State a command's parts share (is a report out? did stdout fail?)
    // lives in values lent to them (`out::Stdout`, `Interrupts`), so that
    // `main_with_args` can run twice in one process. The binary's statics
    // (the allocator, the registry of front ends) are immutable.
    let src = root().join("crates/cli/src");
    for file in rust_files(&src) {
        let code = code_of(&file);
        for line in code.lines().map(str::trim_start) {
            let is_static = line.starts_with("static ")
                || line.starts_with("pub static ")
                || line.starts_with("pub(crate) static ")
                || line.contains("thread_local!");
            let mutable = [
                "mut ", "Mutex", "RwLock", "Atomic", "Cell", "OnceLock", "Lazy",
            ]
            .iter()
            .any(|m| line.contains(m));
            assert!(
                !(is_static && (mutable || file != src.join("main.rs"))),
                "{}: `{line}`: pass the state as a value instead of a global",
                shown(&file)
            );
        }
    }
}

#[test]
fn the_cli_uses_no_semantics_internals() {
    // The CLI runs programs through the engine's drivers and the
    // semantics' concrete entry points; it never steps a machine, holds a
    // state or implements a policy or an algebra of its own.
    let internals = [
        "Machine",
        "Policy",
        "Algebra",
        "semantics::State",
        "semantics::Frame",
    ];
    for file in rust_files(&root().join("crates/cli/src")) {
        let code = code_of(&file);
        for word in internals {
            let hit = code.match_indices(word).any(|(i, _)| {
                let before = code[..i].chars().next_back();
                let after = code[i + word.len()..].chars().next();
                !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                    && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
            });
            assert!(
                !hit,
                "{} names the semantics' `{word}`: the CLI uses the engine and the concrete interpreter's entry points",
                shown(&file)
            );
        }
    }
}

/// The module path of a file of a crate's `src` (`a/b.rs` and `a/b/mod.rs`
/// are `a::b`; `lib.rs` and `main.rs` the root).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// Identifiers of a path that starts at `text` (`a::b::{c, d::e}` gives
/// `[a, b, c]` and `[a, b, d, e]`), up to the first thing that is not one.
fn paths_at(text: &str) -> Vec<Vec<String>> {
    let mut prefix = Vec::new();
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if let Some(group) = rest.strip_prefix('{') {
            // A group: each comma-separated item at depth 0.
            let mut depth = 0;
            let mut items = Vec::new();
            let mut start = 0;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        items.push(&group[start..i]);
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        items.push(&group[start..i]);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            return items
                .into_iter()
                .flat_map(paths_at)
                .map(|p| prefix.iter().cloned().chain(p).collect())
                .collect();
        }
        let ident: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if ident.is_empty() {
            return vec![prefix];
        }
        rest = &rest[ident.len()..];
        prefix.push(ident);
        match rest.strip_prefix("::") {
            Some(r) => rest = r,
            None => return vec![prefix],
        }
    }
}

/// The files of a crate's `src` that each file refers to by a
/// `crate::` or `super::` path (references to the crate root, which
/// declares the modules, are not counted).
fn module_graph(src: &Path) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let files = rust_files(src);
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(src, f)).collect();
    let mut graph = BTreeMap::new();
    for file in &files {
        let me = module_of(src, file);
        let code = code_of(file);
        let mut targets = BTreeSet::new();
        for (keyword, base) in [
            ("crate::", Vec::new()),
            // `super` of `a/b.rs` is `a`; of `a/b/mod.rs` also `a`.
            ("super::", me[..me.len().saturating_sub(1)].to_vec()),
        ] {
            for (i, _) in code.match_indices(keyword) {
                let before = code[..i].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                    continue;
                }
                for path in paths_at(&code[i + keyword.len()..]) {
                    let full: Vec<String> = base.iter().cloned().chain(path).collect();
                    let module = (0..=full.len())
                        .rev()
                        .map(|k| full[..k].to_vec())
                        .find(|m| modules.contains(m))
                        .unwrap_or_default();
                    if !module.is_empty() && module != me {
                        targets.insert(module);
                    }
                }
            }
        }
        graph.insert(me, targets);
    }
    graph
}

/// The strongly connected components of more than one module (Tarjan's
/// algorithm, iterative).
fn cycles(graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<String>> {
    let nodes: Vec<&Vec<String>> = graph.keys().collect();
    let index_of: BTreeMap<&Vec<String>, usize> =
        nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let succ: Vec<Vec<usize>> = nodes
        .iter()
        .map(|n| {
            graph[*n]
                .iter()
                .filter_map(|m| index_of.get(m).copied())
                .collect()
        })
        .collect();
    let n = nodes.len();
    let (mut index, mut low, mut on) = (vec![usize::MAX; n], vec![0; n], vec![false; n]);
    let (mut stack, mut next, mut out) = (Vec::new(), 0, Vec::new());
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work = vec![(root, 0usize)];
        while let Some((v, i)) = work.pop() {
            if i == 0 {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on[v] = true;
            }
            if let Some(&w) = succ[v].get(i) {
                work.push((v, i + 1));
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on[w] = false;
                    component.push(nodes[w].join("::"));
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    out.push(component);
                }
            }
        }
    }
    out
}

#[test]
fn the_cycle_finder_finds_cycles() {
    let g: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec!["a"]),
    ]
    .into_iter()
    .map(|(k, v)| {
        (
            vec![k.to_string()],
            v.into_iter().map(|m| vec![m.to_string()]).collect(),
        )
    })
    .collect();
    assert_eq!(cycles(&g), vec![vec!["a", "b", "c"]]);
    assert_eq!(
        paths_at("a::{b, c::{d, e}}; x"),
        vec![vec!["a", "b"], vec!["a", "c", "d"], vec!["a", "c", "e"]]
    );
}

#[test]
fn no_module_cycle_in_the_cli_or_the_engine() {
    for krate in ["cli", "engine"] {
        let graph = module_graph(&root().join("crates").join(krate).join("src"));
        assert!(graph.len() > 5, "no modules found in crates/{krate}");
        let found = cycles(&graph);
        assert!(
            found.is_empty(),
            "modules of crates/{krate} that import each other in a circle: {found:?}"
        );
    }
}

#[test]
fn no_source_file_is_over_800_lines() {
    let mut long = Vec::new();
    for file in rust_files(&root().join("crates")) {
        let lines = std::fs::read_to_string(&file).unwrap().lines().count();
        if lines > 800 {
            long.push(format!("{} ({lines} lines)", shown(&file)));
        }
    }
    assert!(
        long.is_empty(),
        "split these files at their seams: {long:?}"
    );
}

#[test]
fn the_code_map_names_every_source_file() {
    let map = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let mut missing = Vec::new();
    for (dir, _) in crates() {
        let src = root().join("crates").join(&dir).join("src");
        for file in rust_files(&src) {
            let rel = file.strip_prefix(&src).unwrap().display().to_string();
            let section = format!("- `crates/{dir}`");
            let listed = map.split(&section).nth(1).is_some_and(|rest| {
                let block = rest.split("\n- `crates/").next().unwrap_or_default();
                block.contains(&format!("`{rel}`"))
            });
            if !listed {
                missing.push(format!("crates/{dir}/src/{rel}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md's \"Every file\" list does not name {missing:?}: add a line for each"
    );
}
