//! Objects and threads from the command line: every example that starts
//! threads gets the same verdict and bug places with and without
//! partial-order reduction; a witness's schedule is what makes a race
//! replay; the bounds on threads and on the input heap make the verdict
//! `unknown`, never `safe`.

mod support;

use serde_json::Value;
use support::{examples, json_of, on_example, wiser, Example};

fn threaded(ex: &Example) -> bool {
    let text = std::fs::read_to_string(support::root().join(&ex.path)).expect("example text");
    text.contains("spawn ") || text.contains("pthread_create")
}

/// The verdict and the bugs' (kind, line, column) of a JSON report.
fn outcome(v: &Value) -> (String, Vec<(String, u64, u64)>) {
    let bugs = v["bugs"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|b| {
            (
                b["kind"].as_str().unwrap_or("").to_string(),
                b["line"].as_u64().unwrap_or(0),
                b["column"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    (v["verdict"].as_str().unwrap_or("").to_string(), bugs)
}

#[test]
fn reduction_changes_no_verdict_of_a_thread_example() {
    let mut seen = 0;
    for ex in examples().iter().filter(|e| threaded(e)) {
        let on = json_of(&on_example("check", ex, &["--format", "json", "--all"]));
        let off = json_of(&on_example(
            "check",
            ex,
            &["--format", "json", "--all", "--por", "off"],
        ));
        assert_eq!(
            outcome(&on),
            outcome(&off),
            "{}: --por on and off disagree",
            ex.path.display()
        );
        assert_eq!(
            on["verdict"].as_str(),
            Some(ex.verdict.as_str()),
            "{}",
            ex.path.display()
        );
        let (s_on, s_off) = (
            on["stats"]["states"].as_u64(),
            off["stats"]["states"].as_u64(),
        );
        assert!(s_on <= s_off, "{}: {s_on:?} > {s_off:?}", ex.path.display());
        seen += 1;
    }
    assert!(seen >= 8, "thread examples found: {seen}");
}

#[test]
fn a_race_replays_with_its_schedule_and_not_without() {
    let file = "examples/counter_race.imp";
    let report = json_of(&wiser(&["check", file, "--format", "json"]));
    let bug = &report["bugs"][0];
    let schedule: Vec<String> = bug["schedule"]
        .as_array()
        .expect("a schedule")
        .iter()
        .map(|s| format!("{}:{}", s["point"], s["thread"]))
        .collect();
    assert!(!schedule.is_empty(), "{report}");
    let with = wiser(&["run", file, "--schedule", &schedule.join(",")]);
    assert_eq!(
        with.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&with.stdout)
    );
    let without = wiser(&["run", file]);
    assert_eq!(
        without.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&without.stdout)
    );
    let text = String::from_utf8_lossy(&wiser(&["check", file]).stdout).to_string();
    assert!(text.contains("schedule (--schedule): "), "{text}");
}

#[test]
fn a_bad_schedule_is_an_error_in_rustc_style() {
    let out = wiser(&["run", "examples/counter_race.imp", "--schedule", "3-1"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("error: --schedule item `3-1` is not POINT:THREAD"),
        "{err}"
    );
    assert!(err.contains("= help:"), "{err}");
}

#[test]
fn the_thread_bound_makes_the_verdict_unknown() {
    let out = wiser(&[
        "check",
        "examples/counter_lock.imp",
        "--max-threads",
        "2",
        "--format",
        "json",
    ]);
    let v = json_of(&out);
    assert_eq!(v["verdict"], "unknown", "{v}");
    assert!(
        v["incomplete"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i == "thread_bound"),
        "{v}"
    );
}

#[test]
fn the_heap_bound_makes_the_verdict_unknown_and_the_witness_shows_the_heap() {
    let v = json_of(&wiser(&[
        "check",
        "examples/list_insert.imp",
        "--max-objects",
        "2",
        "--format",
        "json",
    ]));
    assert_eq!(v["verdict"], "unknown", "{v}");
    assert!(
        v["incomplete"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i == "heap_bound"),
        "{v}"
    );
    let out = wiser(&["check", "examples/alias.imp"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("heap: x = #1, y = #1 (aliases x)"), "{text}");
    let v = json_of(&wiser(&["check", "examples/alias.imp", "--format", "json"]));
    assert_eq!(
        v["bugs"][0]["heap"]["roots"]["x"],
        v["bugs"][0]["heap"]["roots"]["y"]
    );
}
