//! What the CLI tests share: the examples with their header lines
//! (`# expect:` / `// expect:`, `# args:` / `// args:`), running `wiser`,
//! scratch folders, and validating a document against a schema of
//! `docs/schemas/`.

#![allow(dead_code)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const WISER: &str = env!("CARGO_BIN_EXE_wiser");

/// The workspace's root.
pub fn root() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    dir.canonicalize().unwrap_or(dir)
}

/// An example program and what its header says.
pub struct Example {
    /// Relative to the workspace root, e.g. `examples/c/foo.c`.
    pub path: PathBuf,
    /// The first word of its `expect:` line: `bug`, `safe`, `unknown`.
    pub verdict: String,
    /// For a bug: its kind and `line:column`.
    pub bug: Option<(String, u64, u64)>,
    /// Its `args:` line, split as a shell would.
    pub args: Vec<String>,
}

/// Every example, IMP and C, with its header.
pub fn examples() -> Vec<Example> {
    let mut out = Vec::new();
    for (dir, ext, prefix) in [("examples", "imp", "#"), ("examples/c", "c", "//")] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
            .expect("examples folder")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == ext))
            .collect();
        paths.sort();
        for p in paths {
            let text = std::fs::read_to_string(&p).expect("example text");
            let rel = p
                .strip_prefix(root())
                .expect("inside the root")
                .to_path_buf();
            out.push(header(&rel, &text, prefix));
        }
    }
    assert!(out.len() > 40, "examples found: {}", out.len());
    out
}

fn header(path: &Path, text: &str, prefix: &str) -> Example {
    let mut ex = Example {
        path: path.to_path_buf(),
        verdict: String::new(),
        bug: None,
        args: Vec::new(),
    };
    for line in text.lines().map(str::trim) {
        let Some(comment) = line.strip_prefix(prefix) else {
            break;
        };
        let comment = comment.trim();
        if let Some(rest) = comment.strip_prefix("expect:") {
            let words: Vec<&str> = rest.split_whitespace().collect();
            ex.verdict = words.first().copied().unwrap_or_default().to_string();
            if let [_, kind, at, ..] = words.as_slice() {
                let (l, c) = at.split_once(':').expect("line:column");
                ex.bug = Some((kind.to_string(), l.parse().unwrap(), c.parse().unwrap()));
            }
        } else if let Some(rest) = comment.strip_prefix("args:") {
            ex.args = shlex::split(rest).expect("shell-quoted args");
        }
    }
    assert!(!ex.verdict.is_empty(), "{}: no expect line", path.display());
    ex
}

/// Runs `wiser` in the workspace root.
pub fn wiser(args: &[&str]) -> Output {
    Command::new(WISER)
        .args(args)
        .current_dir(root())
        .output()
        .expect("cannot run wiser")
}

/// Runs `wiser COMMAND FILE ARGS... EXTRA...` on an example.
pub fn on_example(command: &str, ex: &Example, extra: &[&str]) -> Output {
    let file = ex.path.to_string_lossy().to_string();
    let mut args: Vec<&str> = vec![command, &file];
    args.extend(ex.args.iter().map(String::as_str));
    args.extend(extra);
    wiser(&args)
}

/// stdout as one JSON document.
pub fn json_of(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not one JSON document ({e}): exit {:?}\n{}\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// A validator for `docs/schemas/NAME`.
pub fn schema(name: &str) -> jsonschema::Validator {
    let path = root().join("docs/schemas").join(name);
    let text = std::fs::read_to_string(&path).expect("schema file");
    let doc: Value = serde_json::from_str(&text).expect("schema is JSON");
    jsonschema::validator_for(&doc).unwrap_or_else(|e| panic!("{name} is not a schema: {e}"))
}

/// Panics with every error when `doc` does not validate.
pub fn assert_valid(validator: &jsonschema::Validator, doc: &Value, what: &str) {
    let errors: Vec<String> = validator
        .iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{what} does not validate:\n{}\n{doc:#}",
        errors.join("\n")
    );
}

/// The path of `examples/NAME`.
pub fn example(name: &str) -> PathBuf {
    root().join("examples").join(name)
}

/// Runs `wiser ARGS` (in the current directory): exit code, stdout, stderr.
pub fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(WISER)
        .args(args)
        .output()
        .expect("cannot run the wiser binary");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// An empty scratch folder of the test's own, `PREFIX-NAME` under
/// cargo's temporary folder.
pub fn scratch(prefix: &str, name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{prefix}-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// Writes `text` to `dir/name`; returns its path.
pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("a scratch file");
    path
}
