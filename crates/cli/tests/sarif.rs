//! `--format sarif`: the SARIF of every bug example validates against the
//! official SARIF 2.1.0 schema (`docs/schemas/sarif-2.1.0.json`, from
//! Microsoft's sarif-multitool) and says what the example's header says:
//! the rule of the bug's kind, its place, a code flow ending at the error.

mod support;

use serde_json::Value;
use support::{assert_valid, examples, json_of, on_example, schema, wiser};

fn result_region(r: &Value) -> (u64, u64) {
    let region = &r["locations"][0]["physicalLocation"]["region"];
    (
        region["startLine"].as_u64().unwrap(),
        region["startColumn"].as_u64().unwrap(),
    )
}

#[test]
fn every_bug_example_gives_valid_sarif_with_its_bug_and_trace() {
    let validator = schema("sarif-2.1.0.json");
    let mut checked = 0;
    for ex in examples().iter().filter(|e| e.verdict == "bug") {
        let out = on_example("check", ex, &["--format", "sarif"]);
        let what = ex.path.display().to_string();
        assert_eq!(out.status.code(), Some(1), "{what}: exit code");
        let doc = json_of(&out);
        assert_valid(&validator, &doc, &what);
        let run = &doc["runs"][0];
        assert_eq!(run["tool"]["driver"]["name"], "wiser");
        assert_eq!(run["invocations"][0]["executionSuccessful"], true);
        let (kind, line, column) = ex.bug.clone().expect("a bug example names its bug");
        let r = &run["results"][0];
        assert_eq!(r["ruleId"], format!("wiser/{kind}"), "{what}");
        let index = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(run["tool"]["driver"]["rules"][index]["id"], r["ruleId"]);
        assert_eq!(r["level"], "error");
        assert_eq!(result_region(r), (line, column), "{what}");
        let uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap();
        assert_eq!(
            uri,
            ex.path.to_string_lossy(),
            "{what}: relative to the cwd"
        );
        let text = r["message"]["text"].as_str().unwrap();
        assert!(text.contains(" with "), "{what}: the witness in {text}");
        let flow = r["codeFlows"][0]["threadFlows"][0]["locations"]
            .as_array()
            .expect("a code flow");
        let last = flow.last().expect("a step");
        assert!(
            last["location"]["message"]["text"]
                .as_str()
                .unwrap()
                .starts_with("error: "),
            "{what}: the flow ends at the error: {last}"
        );
        // The flow ends where the error happens: the result's place, or
        // for a bug inside wiser's C library (placed at the program's
        // call) its related location in the library.
        let error_line =
            match r["relatedLocations"][0]["physicalLocation"]["region"]["startLine"].as_u64() {
                Some(l) => {
                    assert_eq!(
                        r["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                        "%3Cwiser%20libc%3E/libc.c",
                        "{what}: the library's URI, percent-encoded"
                    );
                    l
                }
                None => line,
            };
        assert_eq!(
            last["location"]["physicalLocation"]["region"]["startLine"],
            error_line
        );
        checked += 1;
    }
    assert!(checked >= 25, "bug examples checked: {checked}");
    // The schema is no formality: a driver without its name is refused.
    let out = support::wiser(&["check", "examples/div_by_zero.imp", "--format", "sarif"]);
    let mut doc = json_of(&out);
    assert!(validator.is_valid(&doc));
    doc["runs"][0]["tool"]["driver"]
        .as_object_mut()
        .unwrap()
        .remove("name");
    assert!(!validator.is_valid(&doc));
}

#[test]
fn unknown_verdicts_say_why_and_static_errors_fail_the_invocation() {
    let validator = schema("sarif-2.1.0.json");
    let out = wiser(&[
        "check",
        "examples/unbounded_loop.imp",
        "--max-states",
        "200",
        "--format",
        "sarif",
    ]);
    assert_eq!(out.status.code(), Some(3));
    let doc = json_of(&out);
    assert_valid(&validator, &doc, "unknown verdict");
    let inv = &doc["runs"][0]["invocations"][0];
    assert_eq!(inv["executionSuccessful"], true);
    let note = inv["toolExecutionNotifications"][0]["message"]["text"]
        .as_str()
        .unwrap();
    assert!(note.contains("max_states"), "{note}");
    assert_eq!(doc["runs"][0]["results"], Value::Array(vec![]));

    let dir = std::env::temp_dir().join(format!("wiser-sarif-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.imp");
    std::fs::write(&bad, "x = 1;\ny = ;\n").unwrap();
    let out = wiser(&["check", bad.to_str().unwrap(), "--format", "sarif"]);
    assert_eq!(out.status.code(), Some(2));
    let doc = json_of(&out);
    assert_valid(&validator, &doc, "static error");
    let inv = &doc["runs"][0]["invocations"][0];
    assert_eq!(inv["executionSuccessful"], false);
    let n = &inv["toolExecutionNotifications"][0];
    assert_eq!(n["level"], "error");
    assert_eq!(
        n["locations"][0]["physicalLocation"]["region"]["startLine"],
        2
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bmc_run_concolic_and_fuzz_give_valid_sarif() {
    let validator = schema("sarif-2.1.0.json");
    let cases: [&[&str]; 4] = [
        &[
            "bmc",
            "examples/bmc_uchar_sum.imp",
            "--unwind",
            "1",
            "--unwind-max",
            "4",
        ],
        &["run", "examples/c/sage_top.c", "--reads", "98,97,100,0"],
        &["concolic", "examples/isqrt_bug.imp", "--input", "x=1"],
        &[
            "fuzz",
            "examples/c/sage_top.c",
            "--seed-reads",
            "98,97,100,0",
            "-q",
        ],
    ];
    for args in cases {
        let mut args = args.to_vec();
        args.extend(["--format", "sarif"]);
        let out = wiser(&args);
        let doc = json_of(&out);
        assert_valid(&validator, &doc, &args.join(" "));
        let results = doc["runs"][0]["results"].as_array().unwrap();
        assert_eq!(results.len(), 1, "{}: one bug", args.join(" "));
        assert!(results[0]["codeFlows"][0]["threadFlows"][0]["locations"]
            .as_array()
            .is_some_and(|l| !l.is_empty()));
    }
}
