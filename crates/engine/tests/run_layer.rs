//! The engines are siblings above the run layer: none imports another's
//! modules, and the run layer imports no engine.

use std::collections::BTreeSet;
use std::path::Path;

/// The engines, each as the top-level modules that make it.
const ENGINES: &[(&str, &[&str])] = &[
    ("check", &["check", "parallel"]),
    ("bmc", &["bmc"]),
    ("concolic", &["concolic"]),
];

/// The `crate::NAME` paths of the Rust files under `path`, outside
/// comments.
fn imports(path: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let files: Vec<_> = if path.is_dir() {
        std::fs::read_dir(path)
            .expect("a module directory")
            .map(|e| e.expect("an entry").path())
            .collect()
    } else {
        vec![path.to_path_buf()]
    };
    for file in files {
        if file.is_dir() {
            out.extend(imports(&file));
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("a source file");
        for line in text.lines() {
            let mut rest = line.split("//").next().unwrap_or("");
            while let Some(i) = rest.find("crate::") {
                rest = &rest[i + "crate::".len()..];
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                    .collect();
                out.insert(name);
            }
        }
    }
    out
}

fn module(name: &str) -> BTreeSet<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let dir = src.join(name);
    if dir.is_dir() {
        imports(&dir)
    } else {
        imports(&src.join(format!("{name}.rs")))
    }
}

#[test]
fn no_engine_imports_another_engine() {
    for (engine, modules) in ENGINES {
        let used: BTreeSet<String> = modules.iter().flat_map(|m| module(m)).collect();
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
    let used = module("run");
    for (engine, modules) in ENGINES {
        for m in *modules {
            assert!(
                !used.contains(*m),
                "the run layer imports `{m}` of `{engine}`"
            );
        }
    }
}
