//! Golden tests of the `wiser` binary.
//!
//! * Every program in the workspace's `examples/` (IMP) and `examples/c/`
//!   (C) declares what a correct tool says about it in its header, in `#`
//!   comments for IMP and `//` comments for C:
//!
//!   ```text
//!   # expect: bug assertion 12:3      (verdict, kind and line:column of bugs[0];
//!                                      for a bug in wiser's C library, of its call)
//!   # expect: safe
//!   # expect: unknown
//!   # args: --assume 'x >= 1' --max-states 1000   (optional, shell-quoted)
//!   # reads: 98,97,100,33             (optional: bugs[0]'s reads, exactly)
//!   ```
//!
//!   [`check_example`] runs `wiser check --format json` on it, compares, and
//!   replays the reported witness independently with `wiser run` (for C,
//!   a witness is the values of the reads, in order). A C bug of kind
//!   `assertion` or `fail` is also checked by gcc: `wiser check --harness`
//!   writes a harness, `gcc -m32 -msse2 -mfpmath=sse` compiles it with the
//!   program, and the program must exit 101 (the harness's code for "error
//!   reached"); a memory error must stop under AddressSanitizer, a
//!   `float_conversion` under UndefinedBehaviorSanitizer's
//!   `float-cast-overflow`, at the line wiser reports.
//! * Every program in `tests/errors/` is malformed: [`check_error`] runs
//!   `wiser check` on it and compares its stderr with the `.stderr` file
//!   next to it (`UPDATE_EXPECT=1 cargo test -p wiser --test examples`
//!   rewrites them).

mod support;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use support::{comment_prefix, describe, files, is_c, is_int, parse_header, shell_words, Expected};

/// The example that shows breadth-first search beating depth-first.
const BFS_BEATS_DFS: &str = "nested_loops.imp";

fn examples_dir() -> PathBuf {
    support::root().join("examples")
}

fn errors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/errors")
}

fn wiser(args: &[String], dir: Option<&Path>) -> Output {
    let mut cmd = support::command();
    cmd.args(args);
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    cmd.output().expect("cannot run the wiser binary")
}

// ---------------------------------------------------------------------------
// Examples

/// An integer of the JSON output (numbers, or strings for big ones).
fn int_text(v: &Value) -> Result<String, String> {
    match v {
        Value::Number(n) => Ok(n.to_string()),
        Value::String(s) if is_int(s) => Ok(s.clone()),
        other => Err(format!("`{other}` is not an integer")),
    }
}

/// The `--assume` condition among `args`, if any.
fn assume_arg(args: &[String]) -> Option<&str> {
    args.iter().enumerate().find_map(|(i, a)| {
        if a == "--assume" {
            args.get(i + 1).map(String::as_str)
        } else {
            a.strip_prefix("--assume=")
        }
    })
}

/// Checks one example against its header; `Err` says everything that is
/// wrong.
fn check_example(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let header = parse_header(&text, comment_prefix(path))?;
    let file = path.display().to_string();
    let mut args = vec![
        "check".to_string(),
        file.clone(),
        "--format".into(),
        "json".into(),
    ];
    args.extend(header.args.iter().cloned());
    // A C program's assertion failures and reach_error calls can be
    // replayed by gcc: ask for the harness of the bug reported.
    let harness = match &header.expected {
        // gcc cannot follow a schedule: programs with threads have no
        // harness (theirs says so and does not compile).
        Expected::Bug { kind, .. }
            if is_c(path)
                && (kind == "assertion"
                    || kind == "fail"
                    || sanitized(kind)
                    || kind == "float_conversion")
                && !std::fs::read_to_string(path).is_ok_and(|t| t.contains("pthread_create")) =>
        {
            let h = scratch_file("harness", "c");
            args.push("--harness".into());
            args.push(h.display().to_string());
            Some(h)
        }
        _ => None,
    };
    let out = wiser(&args, None);
    let report: Value = serde_json::from_slice(&out.stdout).map_err(|e| {
        format!(
            "`wiser {}`: stdout is not JSON ({e})\n{}",
            args.join(" "),
            describe(&out)
        )
    })?;
    let (verdict, code) = match header.expected {
        Expected::Safe => ("safe", 0),
        Expected::Bug { .. } => ("bug", 1),
        Expected::Unknown => ("unknown", 3),
    };
    let context = || format!("`wiser {}`\n{}", args.join(" "), describe(&out));
    if report["verdict"] != verdict || out.status.code() != Some(code) {
        return Err(format!(
            "expected verdict {verdict} (exit {code}), got {} (exit {:?})\n{}",
            report["verdict"],
            out.status.code(),
            context()
        ));
    }
    if report["internal_errors"]
        .as_array()
        .is_some_and(|e| !e.is_empty())
    {
        return Err(format!("internal errors\n{}", context()));
    }
    let bugs = report["bugs"].as_array().cloned().unwrap_or_default();
    let incomplete = report["incomplete"].as_array().cloned().unwrap_or_default();
    let Expected::Bug { kind, line, column } = &header.expected else {
        if !bugs.is_empty() {
            return Err(format!(
                "bugs reported with verdict {verdict}\n{}",
                context()
            ));
        }
        if (verdict == "safe") != incomplete.is_empty() {
            return Err(format!(
                "verdict {verdict} with incomplete = {}\n{}",
                report["incomplete"],
                context()
            ));
        }
        return Ok(());
    };
    let bug = bugs
        .first()
        .ok_or_else(|| format!("verdict bug but no bugs\n{}", context()))?;
    // A bug inside wiser's C library (a `sprintf` past its buffer) is
    // placed at the program's call of the library, the innermost frame.
    let at = if bug["file"]
        .as_str()
        .is_some_and(|f| f.starts_with("<wiser libc>"))
    {
        &bug["call_stack"][0]
    } else {
        bug
    };
    let got = (
        bug["kind"].as_str(),
        at["line"].as_u64(),
        at["column"].as_u64(),
    );
    if got != (Some(kind.as_str()), Some(*line), Some(*column)) {
        return Err(format!(
            "expected bug {kind} at {line}:{column}, got {} at {}:{}\n{}",
            bug["kind"],
            at["line"],
            at["column"],
            context()
        ));
    }
    if let Some(want) = &header.reads {
        let got: Vec<String> = bug["reads"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .map(int_text)
            .collect::<Result<_, _>>()?;
        if &got != want {
            return Err(format!(
                "expected the witness reads {}, got {}\n{}",
                want.join(","),
                got.join(","),
                context()
            ));
        }
    }
    replay(path, bug, assume_arg(&header.args))
        .map_err(|e| format!("{e}\nthe check was {}", context()))?;
    if let Some(h) = harness {
        let sanitizer = match &header.expected {
            Expected::Bug { kind, line, .. } if sanitized(kind) => Some((*line, ADDRESS)),
            Expected::Bug { kind, line, .. } if kind == "float_conversion" => {
                Some((*line, FLOAT_CAST))
            }
            _ => None,
        };
        let result = gcc_confirms(path, &h, &header.args, sanitizer);
        let _ = std::fs::remove_file(&h);
        result.map_err(|e| format!("{e}\nthe check was {}", context()))?;
    }
    Ok(())
}

/// A fresh file name in the test's scratch directory.
fn scratch_file(stem: &str, ext: &str) -> PathBuf {
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{stem}-{}-{n}.{ext}", std::process::id()))
}

/// The data model among `args` (`--data-model lp64`), as gcc's flag.
fn gcc_model_flag(args: &[String]) -> &'static str {
    let lp64 = args.iter().enumerate().any(|(i, a)| {
        let value = if a == "--data-model" {
            args.get(i + 1).map(String::as_str)
        } else {
            a.strip_prefix("--data-model=")
        };
        value.is_some_and(|v| v.eq_ignore_ascii_case("lp64"))
    });
    if lp64 {
        "-m64"
    } else {
        "-m32"
    }
}

/// A gcc sanitizer: its flags and what its report says.
struct Sanitizer {
    flags: &'static [&'static str],
    reports: &'static [&'static str],
}

/// AddressSanitizer (and LeakSanitizer, which it runs) for memory errors.
const ADDRESS: Sanitizer = Sanitizer {
    flags: &["-fsanitize=address", "-g"],
    reports: &["ERROR: AddressSanitizer", "ERROR: LeakSanitizer"],
};

/// UndefinedBehaviorSanitizer's check of float-to-integer conversions.
const FLOAT_CAST: Sanitizer = Sanitizer {
    flags: &[
        "-fsanitize=float-cast-overflow",
        "-fno-sanitize-recover",
        "-g",
    ],
    reports: &["outside the range of representable values"],
};

/// Memory errors, which gcc's AddressSanitizer (and LeakSanitizer)
/// report.
fn sanitized(kind: &str) -> bool {
    matches!(
        kind,
        "out_of_bounds"
            | "use_after_free"
            | "double_free"
            | "invalid_free"
            | "null_dereference"
            | "memory_leak"
    )
}

/// The real compiler as a second opinion: the program compiled by gcc with
/// the harness wiser wrote must exit 101 ("error reached") within 10 s;
/// for a memory error (`sanitizer`: the line wiser reports it at), built
/// with `-fsanitize=address`, it must stop with AddressSanitizer's (or
/// LeakSanitizer's) report, at that line of the program for an access.
/// Without a `gcc` on the PATH (or its sanitizer's library) the check is
/// skipped (with a note).
fn gcc_confirms(
    program: &Path,
    harness: &Path,
    args: &[String],
    sanitizer: Option<(u64, Sanitizer)>,
) -> Result<(), String> {
    if !harness.is_file() {
        return Err(format!(
            "`--harness {}` wrote no harness for the bug",
            harness.display()
        ));
    }
    let exe = harness.with_extension("exe");
    let flag = gcc_model_flag(args);
    let sanitize: &[&str] = sanitizer.as_ref().map_or(&[], |(_, s)| s.flags);
    // Floats as wiser computes them: IEEE binary32/64 with SSE, not x87.
    let fp: &[&str] = if flag == "-m32" {
        &["-msse2", "-mfpmath=sse"]
    } else {
        &[]
    };
    let compile = Command::new("gcc")
        .arg(flag)
        .args(fp)
        .arg("-w")
        .args(sanitize)
        .arg(program)
        .arg(harness)
        .arg("-o")
        .arg(&exe)
        .arg("-lm")
        .output();
    let compile = match compile {
        Ok(out) => out,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            eprintln!(
                "note: no gcc on the PATH; harness of {} not checked",
                program.display()
            );
            return Ok(());
        }
        Err(e) => return Err(format!("cannot run gcc: {e}")),
    };
    let harness_text = || std::fs::read_to_string(harness).unwrap_or_default();
    if !compile.status.success() && sanitizer.is_some() {
        eprintln!(
            "note: gcc cannot build {} with -fsanitize=address here; not checked",
            program.display()
        );
        return Ok(());
    }
    if !compile.status.success() {
        return Err(format!(
            "`gcc {flag} -w {} {}` failed\n{}--- harness\n{}",
            program.display(),
            harness.display(),
            describe(&compile),
            harness_text()
        ));
    }
    let mut child = Command::new(&exe)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while child.try_wait().map_err(|e| e.to_string())?.is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    let _ = std::fs::remove_file(&exe);
    if let Some((line, sanitizer)) = sanitizer {
        let err = String::from_utf8_lossy(&out.stderr);
        let file = program.file_name().unwrap_or_default().to_string_lossy();
        let at = format!("{file}:{line}");
        let reported = sanitizer.reports.iter().any(|r| err.contains(r));
        let leak = err.contains("ERROR: LeakSanitizer");
        if !reported || (!leak && !err.contains(&at)) {
            return Err(format!(
                "the program built with {} and its harness should stop with a sanitizer's report at {at}\n{}--- harness\n{}",
                sanitizer.flags[0],
                describe(&out),
                harness_text()
            ));
        }
        return Ok(());
    }
    if out.status.code() != Some(101) {
        return Err(format!(
            "the program compiled with its harness should exit 101 (error reached)\n{}--- harness\n{}",
            describe(&out),
            harness_text()
        ));
    }
    Ok(())
}

/// Replays a bug's witness with `wiser run`: it must stop with the same
/// error at the same place, and satisfy the `--assume` condition.
fn replay(path: &Path, bug: &Value, assume: Option<&str>) -> Result<(), String> {
    let mut inputs: Vec<(String, String)> = Vec::new();
    if let Some(vars) = bug["input"].as_object() {
        for (name, value) in vars {
            inputs.push((name.clone(), int_text(value)?));
        }
    }
    let mut args = vec![
        "run".to_string(),
        path.display().to_string(),
        "--format".into(),
        "json".into(),
    ];
    for (name, value) in &inputs {
        args.push(format!("--input={name}={value}"));
    }
    if let Some(arrays) = bug["arrays"].as_object() {
        for (name, array) in arrays {
            let default = int_text(&array["default"])?;
            // `wiser run --input` cannot give the elements not listed.
            if default != "0" {
                return Err(format!(
                    "cannot replay: the witness gives array `{name}` the default {default}, \
                     which `wiser run --input {name}[i]=v` cannot express (it makes the others 0)"
                ));
            }
            for entry in array["entries"].as_array().cloned().unwrap_or_default() {
                let (index, value) = (int_text(&entry[0])?, int_text(&entry[1])?);
                args.push(format!("--input={name}[{index}]={value}"));
            }
        }
    }
    let reads: Vec<String> = bug["reads"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(int_text)
        .collect::<Result<_, _>>()?;
    if !reads.is_empty() {
        args.push(format!("--reads={}", reads.join(",")));
    }
    // A witness of a program with threads includes its schedule.
    let schedule: Vec<String> = bug["schedule"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|s| format!("{}:{}", s["point"], s["thread"]))
        .collect();
    if !schedule.is_empty() {
        args.push(format!("--schedule={}", schedule.join(",")));
    }
    let out = wiser(&args, None);
    let run: Value = serde_json::from_slice(&out.stdout).map_err(|e| {
        format!(
            "replay `wiser {}`: stdout is not JSON ({e})\n{}",
            args.join(" "),
            describe(&out)
        )
    })?;
    let expected = (
        bug["kind"].as_str(),
        bug["line"].as_u64(),
        bug["column"].as_u64(),
    );
    let got = (
        run["outcome"].as_str(),
        run["line"].as_u64(),
        run["column"].as_u64(),
    );
    if out.status.code() != Some(1) || got != expected {
        return Err(format!(
            "replay `wiser {}` should stop with {} at {}:{} (exit 1)\n{}",
            args.join(" "),
            bug["kind"],
            bug["line"],
            bug["column"],
            describe(&out)
        ));
    }
    if let Some(cond) = assume {
        check_assumption(cond, &inputs)?;
    }
    Ok(())
}

/// The witness must lie inside the `--assume` domain: `assume COND` run on
/// its input variables must pass.
fn check_assumption(cond: &str, inputs: &[(String, String)]) -> Result<(), String> {
    let names: Vec<&str> = cond
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    let file = scratch_file("assume", "imp");
    std::fs::write(&file, format!("assume {cond}\n"))
        .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    let mut args = vec!["run".to_string(), file.display().to_string()];
    for (name, value) in inputs.iter().filter(|(n, _)| names.contains(&n.as_str())) {
        args.push(format!("--input={name}={value}"));
    }
    let out = wiser(&args, None);
    let _ = std::fs::remove_file(&file);
    if out.status.code() != Some(0) {
        return Err(format!(
            "the witness does not satisfy --assume '{cond}': `wiser {}`\n{}",
            args.join(" "),
            describe(&out)
        ));
    }
    Ok(())
}

#[test]
fn examples() {
    check_examples(&examples_dir(), "imp");
}

#[test]
fn c_examples() {
    check_examples(&examples_dir().join("c"), "c");
}

/// Runs [`check_example`] on every file of `dir` with extension `ext`.
fn check_examples(dir: &Path, ext: &str) {
    let paths = files(dir, ext);
    assert!(!paths.is_empty(), "no examples in {}", dir.display());
    // Two at a time (each check is itself multi-threaded).
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some(path) = paths.get(i) else { break };
                if let Err(e) = check_example(path) {
                    let name = path.file_name().unwrap_or_default().to_string_lossy();
                    failures.lock().unwrap().push(format!("== {name}: {e}"));
                }
            });
        }
    });
    let mut failures = failures.into_inner().unwrap();
    failures.sort();
    assert!(
        failures.is_empty(),
        "{} of {} examples failed:\n\n{}",
        failures.len(),
        paths.len(),
        failures.join("\n\n")
    );
}

#[test]
fn breadth_first_finds_what_depth_first_misses() {
    let path = examples_dir().join(BFS_BEATS_DFS);
    let file = path.display().to_string();
    let run = |strategy: &str| {
        let args: Vec<String> = [
            "check",
            &file,
            "--format",
            "json",
            "--strategy",
            strategy,
            "--max-states",
            "5000",
        ]
        .map(String::from)
        .to_vec();
        let out = wiser(&args, None);
        let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "`wiser {}`: not JSON ({e})\n{}",
                args.join(" "),
                describe(&out)
            )
        });
        (out, report)
    };
    let (out, bfs) = run("bfs");
    assert_eq!(
        (out.status.code(), bfs["verdict"].as_str()),
        (Some(1), Some("bug")),
        "breadth-first should find the bug\n{}",
        describe(&out)
    );
    let (out, dfs) = run("dfs");
    assert_eq!(
        (out.status.code(), dfs["verdict"].as_str()),
        (Some(3), Some("unknown")),
        "depth-first should be trapped in an infinite path\n{}",
        describe(&out)
    );
    assert_eq!(dfs["bugs"], serde_json::json!([]));
    assert_eq!(
        dfs["incomplete"],
        serde_json::json!(["max_states"]),
        "{}",
        describe(&out)
    );
}

#[test]
fn header_parsing() {
    assert_eq!(
        shell_words(r#"--assume 'x >= 1 and x <= 12' --max-states 100000 "a\"b" c\ d"#).unwrap(),
        [
            "--assume",
            "x >= 1 and x <= 12",
            "--max-states",
            "100000",
            "a\"b",
            "c d"
        ]
    );
    assert_eq!(shell_words("  ").unwrap(), Vec::<String>::new());
    assert_eq!(shell_words("''").unwrap(), [""]);
    assert!(shell_words("'open").is_err());
    let h = parse_header(
        "# a program\n# expect: bug division_by_zero 3:7\n# args: --all\nx = 1 / y\n",
        "#",
    )
    .unwrap();
    assert_eq!(
        h.expected,
        Expected::Bug {
            kind: "division_by_zero".into(),
            line: 3,
            column: 7
        }
    );
    assert_eq!(h.args, ["--all"]);
    assert_eq!(h.reads, None);
    assert!(
        parse_header("x = 1\n# expect: safe\n", "#").is_err(),
        "only the leading comments count"
    );
    assert!(parse_header("# expect: bug overflow 1:1\n", "#").is_err());
    assert!(parse_header("# expect: safe\n# expect: safe\n", "#").is_err());
    // C headers are `//` comments, and may pin the witness's reads.
    let h = parse_header(
        "// top()\n// expect: bug fail 17:5\n// reads: 98, 97,100,-33\nint x;\n// expect: safe\n",
        "//",
    )
    .unwrap();
    assert_eq!(
        h.expected,
        Expected::Bug {
            kind: "fail".into(),
            line: 17,
            column: 5
        }
    );
    assert_eq!(
        h.reads,
        Some(vec!["98".into(), "97".into(), "100".into(), "-33".into()])
    );
    assert!(parse_header("# expect: safe\n", "//").is_err());
    assert!(parse_header("// expect: safe\n// reads: 1\n", "//").is_err());
    assert!(parse_header("// expect: bug fail 1:1\n// reads: x\n", "//").is_err());
    assert_eq!(comment_prefix(Path::new("a/b.c")), "//");
    assert_eq!(comment_prefix(Path::new("a/b.imp")), "#");
    assert_eq!(
        gcc_model_flag(&["--data-model".into(), "lp64".into()]),
        "-m64"
    );
    assert_eq!(gcc_model_flag(&["--data-model=ILP32".into()]), "-m32");
    assert_eq!(gcc_model_flag(&[]), "-m32");
}

#[test]
fn replay_rejects_wrong_witnesses() {
    let path = examples_dir().join("off_by_one.imp");
    let bug = |x: i64| {
        serde_json::json!({
            "kind": "assertion", "line": 7, "column": 1,
            "input": {"x": x}, "reads": [], "arrays": {},
        })
    };
    assert_eq!(replay(&path, &bug(1), None), Ok(()));
    assert_eq!(replay(&path, &bug(1), Some("x >= 0 and x <= 1")), Ok(()));
    let err = replay(&path, &bug(2), None).unwrap_err();
    assert!(err.contains("should stop with"), "{err}");
    let err = replay(&path, &bug(1), Some("x > 1")).unwrap_err();
    assert!(err.contains("does not satisfy --assume"), "{err}");
    let mut nonzero_default = bug(1);
    nonzero_default["arrays"] = serde_json::json!({"a": {"default": 5, "entries": []}});
    let err = replay(&path, &nonzero_default, None).unwrap_err();
    assert!(err.contains("cannot replay"), "{err}");
}

// ---------------------------------------------------------------------------
// User errors

/// Runs `wiser check` on a malformed program (from its own directory, so
/// that messages name it by its file name): exit 2, nothing on stdout, and
/// stderr as in the `.stderr` file next to it.
fn check_error(path: &Path) {
    let name = path
        .file_name()
        .expect("a file")
        .to_string_lossy()
        .to_string();
    let out = wiser(&["check".into(), name.clone()], path.parent());
    assert_eq!(
        out.status.code(),
        Some(2),
        "{name}: a user error exits 2\n{}",
        describe(&out)
    );
    assert!(
        out.stdout.is_empty(),
        "{name}: nothing on stdout\n{}",
        describe(&out)
    );
    expect_test::expect_file![path.with_extension("stderr")]
        .assert_eq(&String::from_utf8_lossy(&out.stderr));
}

#[test]
fn user_errors() {
    let paths = files(&errors_dir(), "imp");
    assert!(
        !paths.is_empty(),
        "no programs in {}",
        errors_dir().display()
    );
    let mut failures = Vec::new();
    for path in &paths {
        if let Err(panic) = std::panic::catch_unwind(|| check_error(path)) {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            failures.push(format!("{}: {message}", path.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        paths.len(),
        failures.join("\n")
    );
}

#[test]
fn every_strategy_is_offered_and_finds_the_bug() {
    let file = examples_dir().join("gcd_bug.imp").display().to_string();
    let strategies = [
        "bfs",
        "dfs",
        "random-path",
        "coverage",
        "random-path+bfs",
        "coverage+bfs",
    ];
    for strategy in strategies {
        for seed in ["1", "2"] {
            let args: Vec<String> = [
                "check",
                &file,
                "--assume",
                "a <= 12 and b <= 12",
                "--format",
                "json",
                "--strategy",
                strategy,
                "--seed",
                seed,
                "--jobs",
                "1",
            ]
            .map(String::from)
            .to_vec();
            let out = wiser(&args, None);
            let report: Value = serde_json::from_slice(&out.stdout)
                .unwrap_or_else(|e| panic!("{strategy}: not JSON ({e})\n{}", describe(&out)));
            assert_eq!(
                (out.status.code(), report["verdict"].as_str()),
                (Some(1), Some("bug")),
                "--strategy {strategy}\n{}",
                describe(&out)
            );
        }
    }
    let help = wiser(&["check".into(), "--help".into()], None);
    let help = String::from_utf8_lossy(&help.stdout);
    for strategy in strategies {
        assert!(help.contains(strategy), "{strategy} in --help:\n{help}");
    }
    assert!(help.contains("--seed"), "{help}");
    let bad = wiser(
        &["check".into(), file, "--strategy".into(), "best".into()],
        None,
    );
    assert_eq!(bad.status.code(), Some(2), "{}", describe(&bad));
}
