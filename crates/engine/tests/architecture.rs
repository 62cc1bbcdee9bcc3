//! The engine's modules form no cycle (ARCHITECTURE.md): each module's
//! `crate::...` imports, read from the sources, must make a graph without
//! a cycle, so that the expansion step, the drivers, the configuration and
//! the report can be understood (and replaced) one at a time. And the
//! engines are siblings above the run layer: none imports another's
//! modules, and the run layer imports no engine; the portfolio sits above
//! the engines it runs, and no engine imports it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The module a source file belongs to: `path/set.rs` is in `path`.
fn module_of(rel: &Path) -> String {
    let first = rel.components().next().expect("a relative path");
    let name = first.as_os_str().to_string_lossy();
    name.trim_end_matches(".rs").to_string()
}

/// Every `crate::NAME` outside comments in `text`.
fn imports(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            rest = &rest[i + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

fn sources(dir: &Path, base: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).expect("the source directory") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            sources(&path, base, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(base).expect("under src");
            let text = std::fs::read_to_string(&path).expect("a source file");
            out.push((module_of(rel), text));
        }
    }
}

/// The engine's top-level modules, each with the top-level modules it
/// imports (`crate::NAME`).
fn module_graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, text) in &files {
        if module == "lib" {
            continue;
        }
        let deps = graph.entry(module.clone()).or_default();
        deps.extend(imports(text).into_iter().filter(|d| d != module));
    }
    graph
}

#[test]
fn the_engine_modules_form_no_cycle() {
    let graph = module_graph();
    assert!(graph.len() > 10, "the modules were not found: {graph:?}");
    // Depth-first search for a back edge.
    fn visit(
        n: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = stack.iter().position(|m| m == n) {
            let mut cycle = stack[i..].to_vec();
            cycle.push(n.to_string());
            return Some(cycle);
        }
        if done.contains(n) {
            return None;
        }
        stack.push(n.to_string());
        for m in graph.get(n).into_iter().flatten() {
            if let Some(c) = visit(m, graph, stack, done) {
                return Some(c);
            }
        }
        stack.pop();
        done.insert(n.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for n in graph.keys() {
        let cycle = visit(n, &graph, &mut Vec::new(), &mut done);
        assert!(
            cycle.is_none(),
            "a module cycle: {}",
            cycle.unwrap().join(" -> ")
        );
    }
}

/// The engines, each as the top-level modules that make it.
const ENGINES: &[(&str, &[&str])] = &[
    ("symex", &["symex", "parallel"]),
    ("bmc", &["bmc"]),
    ("concolic", &["concolic"]),
    ("prove", &["prove"]),
];

/// What the modules `modules` import, together.
fn imports_of(graph: &BTreeMap<String, BTreeSet<String>>, modules: &[&str]) -> BTreeSet<String> {
    modules
        .iter()
        .flat_map(|m| graph.get(*m).into_iter().flatten().cloned())
        .collect()
}

#[test]
fn no_engine_imports_another_engine() {
    let graph = module_graph();
    for (engine, modules) in ENGINES {
        let used = imports_of(&graph, modules);
        for (other, theirs) in ENGINES {
            if other == engine {
                continue;
            }
            for m in *theirs {
                assert!(
                    !used.contains(*m),
                    "the engine `{engine}` imports `{m}`, a module of the engine `{other}`"
                );
            }
        }
        assert!(
            used.contains("run"),
            "`{engine}` does not run on the run layer"
        );
    }
}

#[test]
fn the_run_layer_imports_no_engine() {
    let used = imports_of(&module_graph(), &["run"]);
    for (engine, modules) in ENGINES {
        for m in *modules {
            assert!(
                !used.contains(*m),
                "the run layer imports `{m}` of `{engine}`"
            );
        }
    }
}

#[test]
fn the_portfolio_is_above_every_engine_it_runs_and_none_imports_it() {
    let graph = module_graph();
    let used = imports_of(&graph, &["portfolio"]);
    for engine in ["symex", "bmc", "prove"] {
        assert!(
            used.contains(engine),
            "the portfolio does not run `{engine}`"
        );
    }
    for (engine, modules) in ENGINES {
        assert!(
            !imports_of(&graph, modules).contains("portfolio"),
            "the engine `{engine}` imports the portfolio"
        );
    }
    assert!(
        !imports_of(&graph, &["run"]).contains("portfolio"),
        "the run layer imports the portfolio"
    );
}
