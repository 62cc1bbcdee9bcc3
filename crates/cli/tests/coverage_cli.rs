//! `wiser check --coverage` and `--lcov` end to end: the done-when (every
//! branch of `examples/isqrt.imp` covered), what is listed as not covered
//! (in text and JSON), constant-folded decisions, and an lcov file that
//! Debian's `genhtml` accepts.
//!
//! The genhtml test needs `genhtml` (Debian's `lcov`, installed by
//! `.ci/run`); it fails when the tool is missing under CI, and skips
//! with a note elsewhere (see `wiser_testkit::external_tool`).

use expect_test::expect;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;
use support::{example, skip_external, write};

mod support;

fn wiser(args: &[&str]) -> (i32, String, String) {
    support::run(args)
}

fn scratch(name: &str) -> PathBuf {
    support::scratch("coverage", name)
}

/// The report's coverage lines (the verdict line has timings).
fn coverage_lines(out: &str) -> String {
    let mut lines = out.lines().skip_while(|l| !l.starts_with("coverage:"));
    let mut text = String::new();
    for l in lines.by_ref() {
        text.push_str(l);
        text.push('\n');
    }
    text
}

#[test]
fn isqrt_covers_every_branch() {
    let isqrt = example("isqrt.imp");
    // The example's `# args:` line.
    let args = [
        "check",
        isqrt.to_str().unwrap(),
        "--assume",
        "x <= 400",
        "--coverage",
    ];
    let (code, out, err) = wiser(&args);
    assert_eq!(code, 0, "{out}{err}");
    expect![[r#"
        coverage: statements 13/13 reached (100%), branch sides 4/4 taken (100%), assertions 2/2 reached
          branches with both sides taken: 2
            10:1    s <= x
            16:1    k < r
    "#]]
    .assert_eq(&coverage_lines(&out));
    let (_, out, _) = wiser(&[&args[..], &["--format", "json"]].concat());
    let v: Value = serde_json::from_str(&out).expect("JSON");
    let branches = v["coverage"]["branches"].as_array().expect("branches");
    assert_eq!(branches.len(), 2);
    for b in branches {
        assert_eq!(
            (&b["true"], &b["false"]),
            (&Value::Bool(true), &Value::Bool(true))
        );
    }
    assert_eq!(v["coverage"]["branch_sides"]["taken"], 4);
}

const PARTIAL: &str = "\
if x > 0 then y = 1 else y = 2 fi;
if y > 5 then
  assert x == 99;
  z = 1
else
  skip
fi;
while x > 100 and x < 0 do x = x + 1 od;
assert y < 3
";

#[test]
fn what_was_not_covered_is_listed() {
    let dir = scratch("partial");
    let file = write(&dir, "partial.imp", PARTIAL);
    let (code, out, err) = wiser(&["check", file.to_str().unwrap(), "--coverage"]);
    assert_eq!(code, 0, "{out}{err}");
    // `y > 5` folds to false on both paths; the loop's test is infeasible.
    expect![[r#"
        coverage: statements 6/9 reached (67%), branch sides 4/6 taken (67%), assertions 1/2 reached
          branches with both sides taken: 1
            1:1     x > 0
          branches with one side taken: 2
            2:1     y > 5   (only false)
            8:1     x > 100 and x < 0   (only false)
          assertions never reached: 1
            3:3     assert x == 99
          statements never reached: 3
            3:3     assert x == 99
            4:3     z = 1
            8:28    x = x + 1
    "#]]
    .assert_eq(&coverage_lines(&out));
    let (_, out, _) = wiser(&[
        "check",
        file.to_str().unwrap(),
        "--coverage",
        "--format",
        "json",
    ]);
    let v: Value = serde_json::from_str(&out).expect("JSON");
    let c = &v["coverage"];
    assert_eq!(c["statements"]["total"], 9);
    assert_eq!(c["statements"]["reached"], 6);
    assert_eq!(c["statements"]["unreached"][1]["text"], "z = 1");
    assert_eq!(c["branches"][1]["condition"], "y > 5");
    assert_eq!(c["branches"][1]["reached"], true);
    assert_eq!(c["branches"][1]["true"], false);
    assert_eq!(c["assertions"][0]["reached"], false);
    assert_eq!(c["assertions"][1]["held"], true);
    assert_eq!(c["assertions"][1]["failed"], false);
}

#[test]
fn no_coverage_unless_asked() {
    let isqrt = example("isqrt.imp");
    // The example's `# args:` line, so that the run is short.
    let isqrt = isqrt.to_str().unwrap();
    let (_, out, _) = wiser(&["check", isqrt, "--assume", "x <= 400", "--format", "json"]);
    let v: Value = serde_json::from_str(&out).expect("JSON");
    assert!(v.get("coverage").is_none(), "{v}");
    let (_, out, _) = wiser(&["check", isqrt, "--assume", "x <= 400"]);
    assert!(!out.contains("coverage:"), "{out}");
}

#[test]
fn lcov_lists_lines_and_branches_and_genhtml_reads_it() {
    let dir = scratch("lcov");
    let file = write(&dir, "partial.imp", PARTIAL);
    let info = dir.join("partial.info");
    let (code, out, err) = wiser(&[
        "check",
        file.to_str().unwrap(),
        "--lcov",
        info.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    // --lcov alone does not print the coverage.
    assert!(!out.contains("coverage:"), "{out}");
    let text = std::fs::read_to_string(&info).expect("the lcov file");
    let canonical = file.canonicalize().unwrap();
    let text = text.replace(canonical.to_str().unwrap(), "FILE");
    expect![[r#"
        TN:
        SF:FILE
        BRDA:1,0,0,1
        BRDA:1,0,1,1
        BRDA:2,1,0,0
        BRDA:2,1,1,1
        BRDA:8,2,0,0
        BRDA:8,2,1,1
        BRF:6
        BRH:4
        DA:1,1
        DA:2,1
        DA:3,0
        DA:4,0
        DA:8,1
        DA:9,1
        LF:6
        LH:4
        end_of_record
    "#]]
    .assert_eq(&text);
    if skip_external("genhtml") {
        return;
    }
    let html = dir.join("html");
    let out = Command::new("genhtml")
        .arg("--branch-coverage")
        .arg("--output-directory")
        .arg(&html)
        .arg(&info)
        .output()
        .expect("genhtml (Debian's lcov package; .ci/run installs it) must be installed");
    assert!(
        out.status.success(),
        "genhtml refused the file:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // The source page shows the program with its lines and branches.
    let page = html.join("coverage-lcov").join("partial.imp.gcov.html");
    let page = std::fs::read_to_string(&page).expect("genhtml's page of the source");
    assert!(page.contains("assert x == 99"), "{page}");
    let index = std::fs::read_to_string(html.join("index.html")).expect("genhtml's index");
    assert!(
        index.contains("66.7 %"),
        "4 of 6 lines and branches: {index}"
    );
}
