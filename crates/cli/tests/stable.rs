//! The output of `wiser check` does not depend on `--jobs` or on timing:
//! every bug example (with the arguments of its `# args:` header) prints
//! the same report with one worker and, run after run, with two, except
//! the counters in the verdict line's parentheses (states, queries and
//! milliseconds vary with the interleaving).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const WISER: &str = env!("CARGO_BIN_EXE_wiser");

/// Runs with two workers this many times per example...
const RUNS: usize = 10;
/// ...or this many when one run takes longer than [`SLOW`] (the debug
/// binary is slow on a few examples; the test must stay quick).
const SLOW_RUNS: usize = 3;
const SLOW: Duration = Duration::from_millis(400);

fn examples() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut out = Vec::new();
    for (dir, ext) in [(root.clone(), "imp"), (root.join("c"), "c")] {
        let entries = std::fs::read_dir(&dir).expect("the examples directory");
        let mut files: Vec<PathBuf> = entries
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == ext))
            .collect();
        files.sort();
        out.extend(files);
    }
    out
}

/// The header line `PREFIX key:`'s rest, if any.
fn header(text: &str, prefix: &str, key: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .take_while(|l| l.starts_with(prefix))
        .find_map(|l| {
            let rest = l.strip_prefix(prefix)?.trim();
            rest.strip_prefix(key).map(|r| r.trim().to_string())
        })
}

/// Splits `--assume 'x >= 1 and x <= 12' --all` as a shell would (single
/// quotes only: all the headers use).
fn words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word: Option<String> = None;
    let mut quoted = false;
    for ch in s.chars() {
        match ch {
            '\'' => {
                quoted = !quoted;
                word.get_or_insert_with(String::new);
            }
            c if c.is_whitespace() && !quoted => out.extend(word.take()),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    assert!(!quoted, "unbalanced quote in `{s}`");
    out.extend(word);
    out
}

/// The report of one run, without the verdict line's counters.
fn report(file: &Path, args: &[String], jobs: &str) -> String {
    let out = Command::new(WISER)
        .arg("check")
        .arg(file)
        .args(args)
        .args(["--jobs", jobs])
        .output()
        .expect("cannot run wiser");
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<String> = text
        .lines()
        .map(|l| match (l.starts_with("verdict: "), l.find(';')) {
            (true, Some(i)) => format!("{})", &l[..i]),
            _ => l.to_string(),
        })
        .collect();
    format!("exit {:?}\n{}", out.status.code(), lines.join("\n"))
}

#[test]
fn bug_reports_do_not_depend_on_jobs() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for file in examples() {
        let text = std::fs::read_to_string(&file).expect("an example");
        let prefix = if file.extension().is_some_and(|x| x == "c") {
            "//"
        } else {
            "#"
        };
        if !header(&text, prefix, "expect:").is_some_and(|e| e.starts_with("bug")) {
            continue;
        }
        let mut args = words(&header(&text, prefix, "args:").unwrap_or_default());
        // The header's own `--jobs` (if any) is what this test varies.
        if let Some(i) = args.iter().position(|a| a == "--jobs") {
            args.drain(i..(i + 2).min(args.len()));
        }
        let start = Instant::now();
        let one = report(&file, &args, "1");
        let runs = if start.elapsed() > SLOW {
            SLOW_RUNS
        } else {
            RUNS
        };
        assert!(
            one.starts_with("exit Some(1)"),
            "{}:\n{one}",
            file.display()
        );
        for run in 0..runs {
            let two = report(&file, &args, "2");
            if two != one {
                failures.push(format!(
                    "{} (run {run} with --jobs 2):\n--- jobs 1\n{one}\n--- jobs 2\n{two}",
                    file.display()
                ));
                break;
            }
        }
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} bug examples found");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn header_words() {
    assert_eq!(
        words("--assume 'x >= 1 and x <= 12' --all"),
        ["--assume", "x >= 1 and x <= 12", "--all"]
    );
    assert_eq!(words(""), Vec::<String>::new());
}
