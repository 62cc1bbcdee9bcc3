//! Tests as files: `check --tests DIR` writes them (JSON, and Test-Comp
//! XML for C), `run --test FILE` and `check --replay DIR` replay them.
//! Every JSON test written is validated against
//! docs/schemas/wiser-test.schema.json, every XML file against the
//! Test-Comp DTDs (xmllint) and by its structure.

mod support;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use support::{captured as run, root};

#[path = "testcomp/xml.rs"]
mod xml;

fn wiser() -> Command {
    let mut c = support::command();
    // Relative program paths in test files are relative to this folder.
    c.current_dir(root());
    c
}

/// A fresh folder for one test (not created: `--tests` creates it).
fn folder(test: &str) -> PathBuf {
    support::scratch_path("test-files", test)
}

fn check(args: &[&str]) -> (i32, String, String) {
    run(wiser().arg("check").args(["--quiet", "-j", "1"]).args(args))
}

/// The files of a folder, by name.
fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn json_tests(dir: &Path) -> Vec<String> {
    files(dir)
        .into_iter()
        .filter(|n| n.ends_with(".json"))
        .collect()
}

/// Validates a test file against the documented schema.
fn assert_valid(path: &Path) -> Value {
    let validator = support::schema("wiser-test.schema.json");
    let test: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    support::assert_valid(&validator, &test, &path.display().to_string());
    test
}

#[test]
fn a_bug_found_under_assume_is_written_and_replays() {
    // The README's example: the planted bug of isqrt_bug.imp.
    let dir = folder("isqrt-bug");
    let t = dir.to_str().unwrap();
    let (code, out, err) = check(&[
        "examples/isqrt_bug.imp",
        "--assume",
        "x >= 1 and x <= 12",
        "--tests",
        t,
    ]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert_eq!(files(&dir), ["bug-001-assertion-21-1.json"], "{err}");
    let test_file = dir.join("bug-001-assertion-21-1.json");
    let test = assert_valid(&test_file);
    assert_eq!(test["program"]["file"], "examples/isqrt_bug.imp");
    assert_eq!(test["options"]["assume"], "x >= 1 and x <= 12");
    assert_eq!(test["input"]["vars"]["x"], 1);
    assert_eq!(test["expected"]["outcome"], "error");
    assert_eq!(test["expected"]["kind"], "assertion");
    assert_eq!(
        (
            test["expected"]["line"].clone(),
            test["expected"]["column"].clone()
        ),
        (21.into(), 1.into())
    );
    assert!(err.contains("wiser run --test"), "{err}");

    let (code, out, err) = run(wiser().arg("run").arg("--test").arg(&test_file));
    assert_eq!(code, 0, "the bug reproduces, as expected: {out}\n{err}");
    assert!(
        out.contains("error: assertion failed at examples/isqrt_bug.imp:21:1"),
        "{out}"
    );
    assert!(
        out.contains("pass (expected assertion failed at 21:1)"),
        "{out}"
    );

    // The same with the JSON output.
    let (code, out, _) = run(wiser()
        .arg("run")
        .arg("--test")
        .arg(&test_file)
        .args(["--format", "json"]));
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["outcome"], "assertion");
    assert_eq!(v["test"]["status"], "pass");
    assert_eq!(v["test"]["actual"], test["expected"]);
}

#[test]
fn a_tampered_test_is_a_mismatch() {
    let dir = folder("tampered");
    let t = dir.to_str().unwrap();
    let (code, ..) = check(&[
        "examples/isqrt_bug.imp",
        "--assume",
        "x >= 1 and x <= 12",
        "--tests",
        t,
    ]);
    assert_eq!(code, 1);
    let path = dir.join("bug-001-assertion-21-1.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let tampered = text.replacen("\"line\": 21", "\"line\": 20", 1);
    assert_ne!(text, tampered);
    std::fs::write(&path, tampered).unwrap();
    assert_valid(&path);

    let (code, out, err) = run(wiser().arg("run").arg("--test").arg(&path));
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.contains("MISMATCH"), "{out}");
    assert!(out.contains("expected: assertion failed at 20:1"), "{out}");
    assert!(out.contains("actual:   assertion failed at 21:1"), "{out}");

    let (code, out, err) = check(&["--replay", t]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(
        out.contains("MISMATCH  bug-001-assertion-21-1.json: expected assertion failed at 20:1, got assertion failed at 21:1"),
        "{out}"
    );
    assert!(
        out.contains("replay: 1 test: 0 passed, 1 mismatched, 0 could not be run"),
        "{out}"
    );

    // Another input is a mismatch too: x = 2 passes the assertion.
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replacen("\"line\": 20", "\"line\": 21", 1);
    std::fs::write(&path, text.replacen("\"x\": 1", "\"x\": 2", 1)).unwrap();
    let (code, out, _) = run(wiser().arg("run").arg("--test").arg(&path));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("actual:   normal end"), "{out}");
}

#[test]
fn replay_reports_each_test_and_a_summary() {
    let dir = folder("replay-all");
    let t = dir.to_str().unwrap();
    let (code, out, err) = check(&[
        "examples/isqrt_bug.imp",
        "--assume",
        "x >= 1 and x <= 12",
        "--tests",
        t,
    ]);
    assert_eq!(code, 1, "{out}{err}");
    let (code, out, err) = check(&["--replay", t]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("pass      bug-001-assertion-21-1.json: assertion failed at 21:1"),
        "{out}"
    );
    assert!(
        out.contains("replay: 1 test: 1 passed, 0 mismatched, 0 could not be run"),
        "{out}"
    );

    // FILE replaces the program each test names.
    let (code, out, _) = check(&["examples/isqrt.imp", "--replay", t]);
    assert_eq!(code, 1, "the fixed program passes the assertion: {out}");
    assert!(out.contains("got normal end"), "{out}");

    // A file that is not a test cannot be run: exit 2, and it is named.
    std::fs::write(dir.join("notes.json"), "{\"hello\": 1}").unwrap();
    let (code, out, _) = check(&["--replay", t, "--format", "json"]);
    assert_eq!(code, 2, "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["passed"], 1);
    assert_eq!(v["errors"], 1);
    let notes = v["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["file"] == "notes.json")
        .unwrap();
    assert_eq!(notes["status"], "error");
    assert!(
        notes["message"]
            .as_str()
            .unwrap()
            .contains("not a wiser test"),
        "{notes}"
    );

    // A folder without tests is a usage error.
    let empty = folder("replay-empty");
    std::fs::create_dir_all(&empty).unwrap();
    let (code, _, err) = check(&["--replay", empty.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("holds no test files"), "{err}");
}

#[test]
fn tests_are_written_only_where_they_replace_an_earlier_suite() {
    let dir = folder("overwrite");
    let t = dir.to_str().unwrap();
    std::fs::create_dir_all(&dir).unwrap();
    // An earlier suite's file (a test that no longer exists) is replaced.
    std::fs::write(dir.join("bug-007-fail-3-1.json"), "{}").unwrap();
    let (code, _, err) = check(&[
        "examples/isqrt_bug.imp",
        "--assume",
        "x >= 1 and x <= 12",
        "--tests",
        t,
    ]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(files(&dir), ["bug-001-assertion-21-1.json"]);

    // A file wiser did not write: refused before the search, nothing written.
    std::fs::write(dir.join("mine.txt"), "keep me").unwrap();
    let (code, out, err) = check(&[
        "examples/isqrt_bug.imp",
        "--assume",
        "x >= 1 and x <= 12",
        "--tests",
        t,
    ]);
    assert_eq!(code, 2, "{out}\n{err}");
    assert!(out.is_empty(), "no search ran: {out}");
    assert!(
        err.contains("holds files that wiser did not write (`mine.txt`)"),
        "{err}"
    );
    assert_eq!(files(&dir), ["bug-001-assertion-21-1.json", "mine.txt"]);

    // --tests naming a file.
    let (code, _, err) = check(&["examples/isqrt_bug.imp", "--tests", "examples/isqrt.imp"]);
    assert_eq!(code, 2);
    assert!(err.contains("is a file, not a folder"), "{err}");
}

#[test]
fn a_test_of_a_changed_program_warns() {
    let dir = folder("changed");
    std::fs::create_dir_all(&dir).unwrap();
    let prog = dir.join("prog.imp");
    std::fs::write(&prog, "y = 10 / x\n").unwrap();
    let tests = dir.join("t");
    let (code, out, err) = run(wiser()
        .arg("check")
        .arg(&prog)
        .args(["-q", "-j", "1", "--tests"])
        .arg(&tests));
    assert_eq!(code, 1, "{out}{err}");
    let names = json_tests(&tests);
    assert_eq!(names, ["bug-001-division-by-zero-1-8.json"], "{out}");
    let test = tests.join(&names[0]);
    assert_valid(&test);
    let (code, _, err) = run(wiser().arg("run").arg("--test").arg(&test));
    assert_eq!(code, 0);
    assert!(!err.contains("warning"), "{err}");

    std::fs::write(&prog, "# a comment\ny = 10 / x\n").unwrap();
    let (code, out, err) = run(wiser().arg("run").arg("--test").arg(&test));
    assert_eq!(code, 1, "the error moved a line down: {out}");
    assert!(
        err.contains("has changed since the test was written"),
        "{err}"
    );
    assert!(out.contains("expected: division by zero at 1:8"), "{out}");
    assert!(out.contains("actual:   division by zero at 2:8"), "{out}");
}

#[test]
fn bad_test_files_are_usage_errors() {
    let dir = folder("bad");
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        ("not-json.json", "{", "is not JSON"),
        ("other.json", r#"{"format": "ktest"}"#, "not a wiser test"),
        (
            "v2.json",
            r#"{"format": "wiser-test", "version": 2}"#,
            "version 2 of the test format",
        ),
        (
            "missing.json",
            r#"{"format": "wiser-test", "version": 1}"#,
            "missing field `program`",
        ),
    ];
    for (name, text, message) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let (code, out, err) = run(wiser().arg("run").arg("--test").arg(&path));
        assert_eq!(code, 2, "{name}: {out}");
        assert!(err.contains(message), "{name}: {err}");
    }
    let (code, _, err) = run(wiser()
        .arg("run")
        .arg("--test")
        .arg(dir.join("absent.json")));
    assert_eq!(code, 2);
    assert!(err.contains("cannot read the test"), "{err}");

    // An input the program does not have is refused as `--input` would be.
    let t = folder("bad-input");
    let (code, ..) = check(&[
        "examples/isqrt_bug.imp",
        "--assume",
        "x >= 1 and x <= 12",
        "--tests",
        t.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    let path = t.join("bug-001-assertion-21-1.json");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replacen("\"x\": 1", "\"y\": 1", 1);
    std::fs::write(&path, text).unwrap();
    let (code, _, err) = run(wiser().arg("run").arg("--test").arg(&path));
    assert_eq!(code, 2);
    assert!(err.contains("`y` is not an input variable"), "{err}");
    assert!(err.contains("in the input of the test"), "{err}");

    // No FILE and no --test / --replay.
    let (code, _, err) = run(wiser().arg("check"));
    assert_eq!(code, 2);
    assert!(err.contains("no FILE given"), "{err}");
    let (code, ..) = run(wiser().arg("run"));
    assert_eq!(code, 2);
}

// ---- C programs: Test-Comp's format ----

/// Checks a Test-Comp suite folder: metadata.xml and one testcase-N.xml
/// per JSON test, each following its DTD; returns the inputs of each test
/// case in order, with whether it covers the error.
fn check_testcomp(
    dir: &Path,
    program: &str,
    architecture: &str,
    spec: &str,
) -> Vec<(Vec<String>, bool)> {
    let meta_path = dir.join("metadata.xml");
    xml::xmllint(&meta_path, "test-metadata.dtd");
    let (doctype, meta) = xml::parse_xml(&std::fs::read_to_string(&meta_path).unwrap());
    assert!(
        doctype.contains(
            "test-metadata PUBLIC \"+//IDN sosy-lab.org//DTD test-format test-metadata 1.1//EN\""
        ),
        "{doctype}"
    );
    assert_eq!(meta.name, "test-metadata");
    let names: Vec<&str> = meta.children.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "sourcecodelang",
            "producer",
            "specification",
            "programfile",
            "programhash",
            "entryfunction",
            "architecture",
            "creationtime"
        ]
    );
    let text = |name: &str| {
        meta.children
            .iter()
            .find(|c| c.name == name)
            .unwrap()
            .text
            .clone()
    };
    assert_eq!(text("sourcecodelang"), "C");
    assert!(text("producer").starts_with("wiser "));
    assert_eq!(text("specification"), spec);
    assert_eq!(text("programfile"), program);
    let source = std::fs::read(root().join(program)).unwrap();
    let sha = xml::sha2_hex(&source);
    assert_eq!(text("programhash"), sha);
    assert_eq!(text("entryfunction"), "main");
    assert_eq!(text("architecture"), architecture);
    let time = text("creationtime");
    assert!(humantime::parse_rfc3339(&time).is_ok(), "{time}");

    let n = json_tests(dir).len();
    let mut cases = Vec::new();
    for i in 1..=n {
        let path = dir.join(format!("testcase-{i}.xml"));
        xml::xmllint(&path, "testcase.dtd");
        let (doctype, tc) = xml::parse_xml(&std::fs::read_to_string(&path).unwrap());
        assert!(
            doctype.contains(
                "testcase PUBLIC \"+//IDN sosy-lab.org//DTD test-format testcase 1.1//EN\""
            ),
            "{doctype}"
        );
        assert_eq!(tc.name, "testcase");
        let covers = tc
            .attrs
            .iter()
            .any(|(k, v)| k == "coversError" && v == "true");
        assert!(tc.attrs.iter().all(|(k, _)| k == "coversError"));
        let inputs: Vec<String> = tc
            .children
            .iter()
            .map(|c| {
                assert_eq!(c.name, "input");
                assert!(c.children.is_empty());
                assert!(c.attrs.iter().all(|(k, _)| k == "type" || k == "variable"));
                c.text.clone()
            })
            .collect();
        cases.push((inputs, covers));
    }
    assert_eq!(files(dir).len(), 2 * n + 1, "{:?}", files(dir));
    cases
}

#[test]
fn a_c_bug_is_also_a_testcomp_test_case_whose_inputs_reproduce_it() {
    let dir = folder("c-uchar");
    let t = dir.to_str().unwrap();
    let (code, out, err) = check(&["examples/c/bmc_uchar_sum.c", "--tests", t]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert_eq!(json_tests(&dir), ["bug-001-assertion-23-3.json"]);
    let test = assert_valid(&dir.join("bug-001-assertion-23-3.json"));
    assert_eq!(test["program"]["language"], "c");
    assert_eq!(test["options"]["data_model"], "ilp32");
    let cases = check_testcomp(&dir, "examples/c/bmc_uchar_sum.c", "32bit", "wiser --property all: reach a runtime error (assertion, reach_error, division by zero, overflow, invalid shift, index out of bounds)");
    let (inputs, covers) = &cases[0];
    assert!(!covers, "an assertion, not reach_error()");
    let reads: Vec<String> = test["input"]["reads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.to_string())
        .collect();
    assert_eq!(inputs, &reads);
    // The XML's inputs, fed to `run --reads`, reach the same assertion.
    let (code, out, _) = run(wiser().args([
        "run",
        "examples/c/bmc_uchar_sum.c",
        "--reads",
        &inputs.join(","),
    ]));
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("error: assertion failed at examples/c/bmc_uchar_sum.c:23:3"),
        "{out}"
    );
    // The JSON test replays as well.
    let (code, out, _) = check(&["--replay", t]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn a_reach_error_test_covers_the_error_and_keeps_its_call_stack() {
    let dir = folder("c-sage");
    let t = dir.to_str().unwrap();
    let harness =
        std::env::temp_dir().join(format!("wiser-test-files-{}-sage-h.c", std::process::id()));
    let (code, out, err) = check(&[
        "examples/c/sage_top_bad.c",
        "--property",
        "unreach-call",
        "--data-model",
        "lp64",
        "--tests",
        t,
        "--harness",
        harness.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert_eq!(json_tests(&dir), ["bug-001-fail-17-5.json"]);
    let test = assert_valid(&dir.join("bug-001-fail-17-5.json"));
    assert_eq!(test["options"]["data_model"], "lp64");
    assert_eq!(test["options"]["property"], "unreach-call");
    let stack = &test["expected"]["call_stack"];
    assert_eq!(stack[0]["routine"], "top");
    assert_eq!(stack[1]["routine"], "main");
    assert!(
        stack[0]["line"].is_u64() && stack[1]["line"].is_null(),
        "{stack}"
    );
    let cases = check_testcomp(
        &dir,
        "examples/c/sage_top_bad.c",
        "64bit",
        "COVER( init(main()), FQL(COVER EDGES(@CALL(reach_error))) )",
    );
    assert_eq!(
        cases,
        [(
            vec!["98".to_string(), "97".into(), "100".into(), "33".into()],
            true
        )]
    );
    let xml = std::fs::read_to_string(dir.join("testcase-1.xml")).unwrap();
    assert!(
        xml.contains("<input type=\"signed char\">98</input>"),
        "{xml}"
    );
    let (code, out, _) = run(wiser()
        .arg("run")
        .arg("--test")
        .arg(dir.join("bug-001-fail-17-5.json")));
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("call stack: top (called at"), "{out}");
    // The harness written beside the suite makes gcc's build reach the
    // same error (exit 101): only the reads "bad!" do.
    let exe = harness.with_extension("exe");
    let (code, _, err) = run(Command::new("gcc")
        .args(["-m64", "-w"])
        .arg(root().join("examples/c/sage_top_bad.c"))
        .arg(&harness)
        .arg("-o")
        .arg(&exe));
    assert_eq!(code, 0, "gcc: {err}");
    let (code, _, err) = run(&mut Command::new(&exe));
    assert_eq!(code, 101, "{err}");
}

// ---- --all-paths: one test per path ----

/// The integer square root of `x`.
fn isqrt(x: i64) -> i64 {
    (0..).take_while(|r| r * r <= x).last().unwrap()
}

#[test]
fn all_paths_writes_one_test_per_path_and_the_suite_replays() {
    // isqrt.imp (its `# args:` line: --assume 'x <= 400', and the program
    // assumes x >= 0) has one path per number of iterations of its first
    // loop, r = 0 to 20 (r*r <= x < (r+1)*(r+1)); the second loop's count
    // is then fixed by r, and no assertion fails: 21 paths, all halting.
    let dir = folder("all-paths-isqrt");
    let t = dir.to_str().unwrap();
    let (code, out, err) = check(&[
        "examples/isqrt.imp",
        "--assume",
        "x <= 400",
        "--tests",
        t,
        "--all-paths",
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    let names = json_tests(&dir);
    let expected: Vec<String> = (1..=21)
        .map(|i| format!("path-{i:04}-halted.json"))
        .collect();
    assert_eq!(names, expected);
    assert!(err.contains("wrote 21 tests"), "{err}");
    let mut roots = Vec::new();
    for name in &names {
        let test = assert_valid(&dir.join(name));
        assert_eq!(test["origin"]["kind"], "path");
        assert_eq!(test["expected"]["outcome"], "halted");
        roots.push(isqrt(test["input"]["vars"]["x"].as_i64().unwrap()));
    }
    roots.sort();
    assert_eq!(roots, (0..=20).collect::<Vec<_>>(), "one input per path");

    let (code, out, err) = check(&["--replay", t]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("replay: 21 tests: 21 passed, 0 mismatched, 0 could not be run"),
        "{out}"
    );

    // With two workers: the same files, in the same order (by path), with
    // the same path conditions.
    let dir2 = folder("all-paths-isqrt-j2");
    let (code, _, err) = run(wiser()
        .args([
            "check",
            "-q",
            "-j",
            "2",
            "examples/isqrt.imp",
            "--assume",
            "x <= 400",
            "--all-paths",
            "--tests",
        ])
        .arg(&dir2));
    assert_eq!(code, 0, "{err}");
    assert_eq!(json_tests(&dir2), names);
    for name in &names {
        let a: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap();
        let b: Value =
            serde_json::from_str(&std::fs::read_to_string(dir2.join(name)).unwrap()).unwrap();
        assert_eq!(
            a["origin"]["path_condition"], b["origin"]["path_condition"],
            "{name}"
        );
    }
}

#[test]
fn all_paths_of_a_buggy_program_has_bug_and_normal_tests() {
    // isqrt_bug.imp for 1 <= x <= 12: one path per count of the first
    // loop (r = 0 .. 3 with `s < x`), the paths that end on a perfect
    // square (x = 1, 4, 9) fail the last assertion: 6 paths, 3 of them bugs.
    let dir = folder("all-paths-isqrt-bug");
    let t = dir.to_str().unwrap();
    let (code, out, err) = check(&[
        "examples/isqrt_bug.imp",
        "--assume",
        "x >= 1 and x <= 12",
        "--tests",
        t,
        "--all-paths",
    ]);
    assert_eq!(code, 1, "{out}\n{err}");
    let names = json_tests(&dir);
    assert_eq!(names.len(), 6, "{names:?}");
    let mut bugs = Vec::new();
    for name in &names {
        let test = assert_valid(&dir.join(name));
        let x = test["input"]["vars"]["x"].as_i64().unwrap();
        if test["expected"]["outcome"] == "error" {
            assert!(name.ends_with("-assertion-21-1.json"), "{name}");
            bugs.push(x);
        } else {
            assert!(name.ends_with("-halted.json"), "{name}");
            assert_ne!(isqrt(x) * isqrt(x), x, "a perfect square fails: {name}");
        }
    }
    bugs.sort();
    assert_eq!(bugs, [1, 4, 9]);
    let (code, out, _) = check(&["--replay", t]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("6 passed"), "{out}");
}

#[test]
fn all_paths_of_a_c_program_is_a_testcomp_branch_coverage_suite() {
    // SAGE's top() (seed 004): its tree has 16 leaves, one per subset of
    // the four matching characters; only "bad!" reaches reach_error().
    let dir = folder("all-paths-sage");
    let t = dir.to_str().unwrap();
    let (code, out, err) = check(&[
        "examples/c/sage_top_bad.c",
        "--property",
        "unreach-call",
        "--tests",
        t,
        "--all-paths",
    ]);
    assert_eq!(code, 1, "{out}\n{err}");
    let names = json_tests(&dir);
    assert_eq!(names.len(), 16, "{names:?}");
    assert_eq!(
        names
            .iter()
            .filter(|n| n.ends_with("-fail-17-5.json"))
            .count(),
        1,
        "{names:?}"
    );
    for name in &names {
        assert_valid(&dir.join(name));
    }
    let cases = check_testcomp(
        &dir,
        "examples/c/sage_top_bad.c",
        "32bit",
        "COVER( init(main()), FQL(COVER EDGES(@DECISIONEDGE)) )",
    );
    assert_eq!(cases.len(), 16);
    let mut distinct: Vec<&Vec<String>> = cases.iter().map(|(i, _)| i).collect();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 16, "16 different inputs");
    let covering: Vec<&(Vec<String>, bool)> = cases.iter().filter(|(_, c)| *c).collect();
    assert_eq!(covering.len(), 1);
    assert_eq!(covering[0].0, ["98", "97", "100", "33"]);
    // Each test case's inputs, fed to `run --reads`, end as its JSON twin
    // expects: reach_error() for the covering one, a normal end otherwise.
    for (inputs, covers) in &cases {
        let (code, out, _) = run(wiser().args([
            "run",
            "examples/c/sage_top_bad.c",
            "--reads",
            &inputs.join(","),
        ]));
        assert_eq!(code, if *covers { 1 } else { 0 }, "{inputs:?}: {out}");
    }
    let (code, out, _) = check(&["--replay", t]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("16 passed"), "{out}");
}

#[test]
fn all_paths_needs_tests() {
    let (code, _, err) = check(&["examples/isqrt.imp", "--all-paths"]);
    assert_eq!(code, 2);
    assert!(err.contains("--tests"), "{err}");
}

#[test]
fn replay_takes_the_assumption_from_each_test() {
    // The test holds the --assume of its check; another on the command
    // line would be silently ignored, so it is refused.
    let (code, _, err) = check(&["--replay", "t", "--assume", "x > 0"]);
    assert_eq!(code, 2);
    assert!(err.contains("--assume"), "{err}");
}

#[test]
fn testcomp_test_cases_hold_the_nondet_calls_values_only() {
    // An uninitialised local read before the nondet call: its value is a
    // read of the JSON test, but Test-Comp's tester gives values to
    // `__VERIFIER_nondet_*` calls only, in order.
    let dir = folder("testcomp-calls-only");
    std::fs::create_dir_all(&dir).unwrap();
    let prog = dir.join("prog.c");
    std::fs::write(
        &prog,
        "extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
    int u;
    int k = __VERIFIER_nondet_int();
    if (u == 3 && k == 7) reach_error();
    return 0;
}
",
    )
    .unwrap();
    let t = dir.join("t");
    let (code, out, err) = check(&[prog.to_str().unwrap(), "--tests", t.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(err.contains("`testcase-1.xml` leaves them out"), "{err}");
    let xml = std::fs::read_to_string(t.join("testcase-1.xml")).unwrap();
    assert_eq!(xml.matches("<input").count(), 1, "{xml}");
    assert!(xml.contains("<input type=\"int\">7</input>"), "{xml}");
    // The JSON test holds both: `u`'s value, then the call's.
    let test = assert_valid(&t.join(&json_tests(&t)[0]));
    assert_eq!(test["input"]["reads"], serde_json::json!([3, 7]), "{test}");
}
