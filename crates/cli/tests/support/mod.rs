//! What the CLI tests share (each test file has `mod support;`): the
//! examples with their header lines (`# expect:` / `// expect:`,
//! `# args:` / `// args:`, `# reads:`), running `wiser` and reading what
//! it printed, scratch folders and files, external tools, and validating
//! a document against a schema of `docs/schemas/`.

#![allow(dead_code)]

pub mod broker;
pub mod c;

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
    /// What `wiser prove` says about it (its `prove:` line), if given.
    pub prove: Option<String>,
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
    let header = parse_header(text, prefix).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (verdict, bug) = match header.expected {
        Expected::Safe => ("safe", None),
        Expected::Unknown => ("unknown", None),
        Expected::Bug { kind, line, column } => ("bug", Some((kind, line, column))),
    };
    Example {
        path: path.to_path_buf(),
        verdict: verdict.to_string(),
        bug,
        args: header.args,
        prove: header.prove,
    }
}

/// What an example's `expect:` line says.
#[derive(Debug, PartialEq)]
pub enum Expected {
    Safe,
    Unknown,
    Bug {
        kind: String,
        line: u64,
        column: u64,
    },
}

/// An example's header.
#[derive(Debug)]
pub struct Header {
    pub expected: Expected,
    pub args: Vec<String>,
    /// The reads bugs[0] must have, exactly, if given.
    pub reads: Option<Vec<String>>,
    /// `wiser prove`'s verdict (`safe` or `unknown`), if given.
    pub prove: Option<String>,
}

/// The comment prefix of an example's header: `//` for C, `#` for IMP.
pub fn comment_prefix(path: &Path) -> &'static str {
    if is_c(path) {
        "//"
    } else {
        "#"
    }
}

/// Is `path` a C program (`.c`, or `.i` for preprocessed C)?
pub fn is_c(path: &Path) -> bool {
    path.extension().is_some_and(|x| x == "c" || x == "i")
}

/// Reads the `expect:`, `args:`, `reads:` and `prove:` lines of the leading comment
/// block, whose lines start with `prefix`.
pub fn parse_header(text: &str, prefix: &str) -> Result<Header, String> {
    let mut expected = None;
    let mut args = None;
    let mut reads = None;
    let mut prove = None;
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let Some(comment) = line.strip_prefix(prefix) else {
            break;
        };
        let comment = comment.trim();
        if let Some(rest) = comment.strip_prefix("expect:") {
            if expected.is_some() {
                return Err(format!("two `{prefix} expect:` lines"));
            }
            expected = Some(parse_expect(rest.trim())?);
        } else if let Some(rest) = comment.strip_prefix("args:") {
            if args.is_some() {
                return Err(format!("two `{prefix} args:` lines"));
            }
            args = Some(shell_words(rest)?);
        } else if let Some(rest) = comment.strip_prefix("prove:") {
            let verdict = rest.trim();
            if !["safe", "unknown"].contains(&verdict) {
                return Err(format!(
                    "`{prefix} prove: {verdict}`: expected safe or unknown"
                ));
            }
            if prove.replace(verdict.to_string()).is_some() {
                return Err(format!("two `{prefix} prove:` lines"));
            }
        } else if let Some(rest) = comment.strip_prefix("reads:") {
            if reads.is_some() {
                return Err(format!("two `{prefix} reads:` lines"));
            }
            let values: Vec<String> = rest
                .split(',')
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
                .collect();
            if let Some(bad) = values.iter().find(|v| !is_int(v)) {
                return Err(format!("`{bad}` is not an integer in `{prefix} reads:`"));
            }
            reads = Some(values);
        }
    }
    let expected = expected.ok_or(format!("no `{prefix} expect:` line in the header"))?;
    if reads.is_some() && !matches!(expected, Expected::Bug { .. }) {
        return Err(format!(
            "`{prefix} reads:` without `{prefix} expect: bug ...`"
        ));
    }
    Ok(Header {
        expected,
        args: args.unwrap_or_default(),
        reads,
        prove,
    })
}

fn parse_expect(s: &str) -> Result<Expected, String> {
    let words: Vec<&str> = s.split_whitespace().collect();
    match words.as_slice() {
        ["safe"] => Ok(Expected::Safe),
        ["unknown"] => Ok(Expected::Unknown),
        ["bug", kind, at] => {
            if !wiser_ir::ErrorKind::ALL.iter().any(|k| k.name() == *kind) {
                return Err(format!("unknown bug kind `{kind}` in `# expect: {s}`"));
            }
            let (line, column) = at
                .split_once(':')
                .and_then(|(l, c)| Some((l.parse().ok()?, c.parse().ok()?)))
                .ok_or_else(|| format!("`{at}` is not LINE:COLUMN in `# expect: {s}`"))?;
            Ok(Expected::Bug {
                kind: kind.to_string(),
                line,
                column,
            })
        }
        _ => Err(format!(
            "`# expect: {s}` is not `safe`, `unknown` or `bug KIND LINE:COLUMN`"
        )),
    }
}

/// Splits a command line as a POSIX shell would (quotes and backslashes;
/// no expansions).
pub fn shell_words(s: &str) -> Result<Vec<String>, String> {
    shlex::split(s).ok_or_else(|| format!("unbalanced quotes or a trailing \\ in `{s}`"))
}

/// Is `s` a decimal integer (with an optional `-`)?
pub fn is_int(s: &str) -> bool {
    let digits = s.strip_prefix('-').unwrap_or(s);
    !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
}

/// The files of `dir` with extension `ext`, sorted.
pub fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    files.sort();
    files
}

/// `wiser` as a command, to add arguments, a folder, pipes to.
pub fn command() -> Command {
    Command::new(WISER)
}

/// Runs `cmd` to its end: exit code (-1 if a signal ended it), stdout,
/// stderr.
pub fn captured(cmd: &mut Command) -> (i32, String, String) {
    let out = cmd.output().expect("cannot run the command");
    (
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr),
    )
}

/// Printed bytes as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A process's exit code and output, for an assertion's message.
pub fn describe(out: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout\n{}--- stderr\n{}",
        out.status.code(),
        text(&out.stdout),
        text(&out.stderr)
    )
}

/// Runs `wiser check FILE --format json --quiet ARGS` (in the current
/// directory): exit code and the report.
pub fn check_json(file: &Path, args: &[&str]) -> (i32, Value) {
    let out = command()
        .arg("check")
        .arg(file)
        .args(["--format", "json", "--quiet"])
        .args(args)
        .output()
        .expect("cannot run wiser");
    (out.status.code().unwrap_or(-1), json_of(&out))
}

/// Should a test that needs `tool` (outside Rust) skip? See
/// `wiser_testkit::external_tool`: never under CI.
pub fn skip_external(tool: &str) -> bool {
    !wiser_testkit::external_tool(tool)
}

/// Runs `wiser` in the workspace root.
pub fn wiser(args: &[&str]) -> Output {
    command()
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
    captured(command().args(args))
}

/// A scratch path of the test's own, `PREFIX-NAME` under cargo's
/// temporary folder, with nothing there (for a folder `wiser` creates).
pub fn scratch_path(prefix: &str, name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{prefix}-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// An empty scratch folder of the test's own, `PREFIX-NAME` under
/// cargo's temporary folder.
pub fn scratch(prefix: &str, name: &str) -> PathBuf {
    let dir = scratch_path(prefix, name);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// Writes `text` to `dir/name`; returns its path.
pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("a scratch file");
    path
}

/// Writes `text` to the file `name` in a scratch folder of its own
/// (`PREFIX-NAME`); returns its path.
pub fn scratch_file(prefix: &str, name: &str, text: &str) -> PathBuf {
    write(&scratch(prefix, name), name, text)
}

/// A signal a stress test sends a run, and when.
#[derive(Clone, Copy, Debug)]
pub enum Signal {
    /// None: the run ends by its limits.
    None,
    /// SIGINT this long after the start.
    Int(std::time::Duration),
    /// SIGTERM this long after the start.
    Term(std::time::Duration),
}

impl Signal {
    /// No signal, SIGINT or SIGTERM, each a third of the time, sent
    /// between `from_ms` and `from_ms + 600` ms after the start.
    pub fn random(rng: &mut wiser_testkit::Xorshift, from_ms: u64) -> Signal {
        let after = |rng: &mut wiser_testkit::Xorshift| {
            std::time::Duration::from_millis(from_ms + rng.below(600))
        };
        match rng.below(3) {
            0 => Signal::None,
            1 => Signal::Int(after(rng)),
            _ => Signal::Term(after(rng)),
        }
    }

    /// `kill`'s argument and the delay, if there is a signal.
    pub fn kill(self) -> Option<(&'static str, std::time::Duration)> {
        match self {
            Signal::None => None,
            Signal::Int(after) => Some(("-INT", after)),
            Signal::Term(after) => Some(("-TERM", after)),
        }
    }
}

/// Sends `signal` (`-INT`, `-TERM`, `-HUP`) to process `pid` once it has
/// installed its handler for it (its `SigCgt` in `/proc/PID/status`, at
/// most 10 s): `wiser` installs the handler first thing in `main`, but on
/// a loaded machine starting the process (loading libz3) can take longer
/// than a test's delay, and a signal before `main` would kill it, which
/// is not what the test is about. A process that ended already is left
/// alone (a failed `kill` is fine then).
pub fn signal_when_ready(pid: u32, signal: &str) {
    let number: u32 = match signal {
        "-HUP" => 1,
        "-INT" => 2,
        "-TERM" => 15,
        other => panic!("no number for the signal {other}"),
    };
    let status = format!("/proc/{pid}/status");
    let start = std::time::Instant::now();
    while start.elapsed() < std::time::Duration::from_secs(10) {
        let Ok(text) = std::fs::read_to_string(&status) else {
            return;
        };
        let caught = text
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
            .is_some_and(|mask| mask & (1 << (number - 1)) != 0);
        if caught {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let _ = Command::new("kill")
        .args([signal, &pid.to_string()])
        .status();
}
