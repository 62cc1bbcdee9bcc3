//! `--trace` on `check` and `run`, and what `run` shows when it stops
//! early: the values at a runtime error, and the values so far when it is
//! interrupted (a real SIGTERM to the child process).

mod support;

use std::process::Stdio;
use std::time::{Duration, Instant};
use support::{command, root, wiser};

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The trace lines of a text report, without the header and indentation.
fn trace_lines(text: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| !l.trim_start().starts_with("trace ("))
        .skip(1)
        .take_while(|l| l.starts_with("    "))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn check_trace_shows_the_witness_run_of_an_imp_bug() {
    let out = wiser(&[
        "check",
        "examples/factorial_bug.imp",
        "--assume",
        "n >= 0 and n <= 10",
        "--jobs",
        "1",
        "--trace",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let lines = trace_lines(&text);
    // The witness n = 2: f counts down to 2, g stays 1.
    assert!(text.contains("input: n = 2"), "{text}");
    assert_eq!(
        lines,
        [
            "--assume:1:1 assume n >= 0 and n <= 10: true",
            "6:1 f = 1",
            "7:1 i = 2",
            "8:1 while i > 1: true",
            "9:3 f = 2",
            "10:3 i = 1",
            "8:1 while i > 1: false",
            "12:1 g = 1",
            "13:1 j = 1",
            "14:1 while j < n: true",
            "15:3 g = 1",
            "16:3 j = 2",
            "14:1 while j < n: false",
            "18:1 error: assertion failed",
        ],
        "{text}"
    );
}

#[test]
fn check_trace_of_a_c_bug_shows_reads_calls_and_returns_without_start_up_code() {
    let out = wiser(&["check", "examples/c/foo.c", "--jobs", "1", "--trace"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let lines = trace_lines(&text);
    assert!(
        lines[0].starts_with("21:11 __VERIFIER_nondet_int() -> "),
        "{text}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("23:10 call foo(")),
        "{text}"
    );
    assert!(
        lines.last().unwrap() == "13:9 error: signed overflow",
        "{text}"
    );
    // No temporaries, no start-up frame.
    assert!(!text.contains('$'), "{text}");
    assert!(!text.contains("call main"), "{text}");
}

#[test]
fn run_prints_the_values_at_a_runtime_error_and_its_trace() {
    let out = wiser(&[
        "run",
        "examples/factorial_bug.imp",
        "--input",
        "n=3",
        "--trace",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(text.contains("values at the error (in main):\n    f = 6\n    i = 1\n    n = 3\n    g = 2\n    j = 3\n"), "{text}");
    let lines = trace_lines(&text);
    assert_eq!(lines.len(), 19, "{text}");
    assert_eq!(lines.last().unwrap(), "18:1 error: assertion failed");
    // In a procedure: its own variables.
    let out = wiser(&["run", "examples/c/power.c", "--reads", "1073741824"]);
    let text = stdout(&out);
    assert!(
        text.contains("values at the error (in power):\n    x = "),
        "{text}"
    );
}

#[test]
fn a_long_run_trace_keeps_its_first_and_last_steps() {
    let dir = std::env::temp_dir().join(format!("wiser-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("count.imp");
    std::fs::write(
        &file,
        "i = 0;\nwhile i < 100000 do\n  i = i + 1\nod;\nassert i < 100000\n",
    )
    .unwrap();
    let out = wiser(&["run", file.to_str().unwrap(), "--trace"]);
    let text = stdout(&out);
    assert!(
        text.contains("trace (200003 steps, 199003 not shown):"),
        "{text}"
    );
    assert!(text.contains("... 199003 steps ..."), "{text}");
    assert!(text.ends_with("5:1  error: assertion failed\n"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn sigterm_stops_run_with_the_values_so_far() {
    let dir = std::env::temp_dir().join(format!("wiser-sigterm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("forever.imp");
    std::fs::write(&file, "i = 0;\nwhile true do\n  i = i + 1\nod\n").unwrap();
    let child = command()
        .args(["run", file.to_str().unwrap()])
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn wiser run");
    // Let it get going (and install its handler), then terminate it.
    std::thread::sleep(Duration::from_millis(500));
    support::signal_when_ready(child.id(), "-TERM");
    let start = Instant::now();
    let out = child.wait_with_output().expect("wait");
    assert!(start.elapsed() < Duration::from_secs(5), "it stops at once");
    assert_eq!(out.status.code(), Some(130), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(text.starts_with("interrupted after "), "{text}");
    assert!(
        text.contains("(Ctrl-C or SIGTERM); values so far (in main):\n    i = "),
        "{text}"
    );
    let i: u64 = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("i = "))
        .and_then(|v| v.parse().ok())
        .expect("a value of i");
    assert!(i > 0, "{text}");
    std::fs::remove_dir_all(&dir).ok();
}
