//! `--witness FILE.yml`: SV-COMP witnesses (format 2.0). Every witness a
//! test writes validates against `docs/schemas/svcomp-witness-2.0.schema.json`;
//! a violation witness follows its bug's replayed input (the nondet values
//! of the report, the target at the bug); a proof's witness holds its loop
//! invariant at the loop; an IMP program is refused; `unknown` writes
//! nothing.

mod support;

use serde_json::Value;
use std::path::{Path, PathBuf};
use support::{assert_valid, examples, json_of, on_example, schema, scratch, wiser};

const SCHEMA: &str = "svcomp-witness-2.0.schema.json";

/// The witness at `path`, read as YAML into JSON values.
fn read_witness(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("no witness at {}: {e}", path.display()));
    serde_norway::from_str(&text).unwrap_or_else(|e| panic!("not YAML ({e}):\n{text}"))
}

/// The waypoints of a violation witness's entry, in order.
fn waypoints(witness: &Value) -> Vec<Value> {
    witness[0]["content"]
        .as_array()
        .expect("content")
        .iter()
        .flat_map(|s| s["segment"].as_array().expect("a segment").clone())
        .map(|w| w["waypoint"].clone())
        .collect()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn witness_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.yml"))
}

#[test]
fn every_c_bug_example_writes_a_valid_violation_witness_ending_at_its_bug() {
    let validator = schema(SCHEMA);
    let dir = scratch("witness", "examples");
    let mut checked = 0;
    for ex in examples() {
        let Some((_, line, column)) = &ex.bug else {
            continue;
        };
        if !support::is_c(&ex.path) {
            continue;
        }
        let name = ex.path.file_stem().unwrap().to_string_lossy().to_string();
        let path = witness_path(&dir, &name);
        let path_text = path.to_string_lossy().to_string();
        let out = on_example("check", &ex, &["--witness", &path_text]);
        assert_eq!(out.status.code(), Some(1), "{name}: {}", stderr(&out));
        let witness = read_witness(&path);
        assert_valid(&validator, &witness, &name);
        assert_eq!(witness[0]["entry_type"], "violation_sequence", "{name}");
        let task = &witness[0]["metadata"]["task"];
        assert_eq!(task["input_files"][0], ex.path.to_string_lossy().as_ref());
        let target = waypoints(&witness).pop().expect("a waypoint");
        assert_eq!(target["type"], "target", "{name}");
        assert_eq!(target["location"]["line"], *line, "{name}");
        assert_eq!(target["location"]["column"], *column, "{name}");
        checked += 1;
    }
    assert!(checked >= 20, "C bug examples checked: {checked}");
}

#[test]
fn a_violation_witness_gives_the_nondet_values_of_the_bugs_input() {
    let dir = scratch("witness", "values");
    let path = witness_path(&dir, "sage_top");
    let path_text = path.to_string_lossy().to_string();
    let out = wiser(&[
        "check",
        "examples/c/sage_top.c",
        "--format",
        "json",
        "--witness",
        &path_text,
    ]);
    let report = json_of(&out);
    let bug = &report["bugs"][0];
    let witness = read_witness(&path);
    assert_valid(&schema(SCHEMA), &witness, "sage_top");
    let points = waypoints(&witness);
    let results: Vec<String> = points
        .iter()
        .filter(|w| w["type"] == "function_return")
        .map(|w| w["constraint"]["value"].as_str().unwrap().to_string())
        .collect();
    let reads: Vec<String> = bug["nondet"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| format!("\\result == {}", r["value"]))
        .collect();
    assert_eq!(results, reads, "one function_return per read, in order");
    assert_eq!(results.len(), 4);
    for w in points.iter().filter(|w| w["type"] == "function_return") {
        assert_eq!(w["constraint"]["format"], "acsl_expression");
        // The call's closing parenthesis: `__VERIFIER_nondet_char()` on line 25.
        assert_eq!(w["location"]["line"], 25);
        assert_eq!(w["location"]["column"], 39);
        assert_eq!(w["location"]["function"], "main");
    }
    // The `if`s of `top()` and the loop's test, each with the side taken.
    let branching: Vec<&Value> = points.iter().filter(|w| w["type"] == "branching").collect();
    assert!(branching.iter().any(|w| w["location"]["function"] == "top"));
    assert!(branching
        .iter()
        .all(|w| ["true", "false"].contains(&w["constraint"]["value"].as_str().unwrap())));
    let target = points.last().unwrap();
    assert_eq!(target["type"], "target");
    assert_eq!(
        (&target["location"]["line"], &target["location"]["function"]),
        (&bug["line"], &Value::from("top"))
    );
    // The property of a bug under `all`: SV-COMP's reachability property.
    let spec = witness[0]["metadata"]["task"]["specification"]
        .as_str()
        .unwrap();
    assert_eq!(spec, "CHECK( init(main()), LTL(G ! call(reach_error())) )");
}

#[test]
fn a_proof_writes_its_loop_invariant_as_a_c_expression_at_the_loop() {
    let dir = scratch("witness", "prove");
    let path = witness_path(&dir, "sum_invariant");
    let path_text = path.to_string_lossy().to_string();
    let out = wiser(&[
        "prove",
        "examples/c/sum_invariant.c",
        "--witness",
        &path_text,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let witness = read_witness(&path);
    assert_valid(&schema(SCHEMA), &witness, "sum_invariant");
    assert_eq!(witness[0]["entry_type"], "invariant_set");
    let content = witness[0]["content"].as_array().unwrap();
    assert_eq!(content.len(), 1, "{witness:#}");
    let inv = &content[0]["invariant"];
    assert_eq!(inv["type"], "loop_invariant");
    assert_eq!(inv["format"], "c_expression");
    // `while (i < n)` is on line 17, column 3.
    assert_eq!(inv["location"]["line"], 17);
    assert_eq!(inv["location"]["column"], 3);
    assert_eq!(inv["location"]["function"], "main");
    let value = inv["value"].as_str().unwrap();
    assert!(value.contains("i <= n"), "{value}");
    assert!(value.contains("n <= 1001"), "{value}");
    assert!(!value.contains("<=s"), "C, not the term printer: {value}");
    let meta = &witness[0]["metadata"];
    assert_eq!(meta["format_version"], "2.0");
    assert_eq!(meta["producer"]["name"], "wiser");
    assert_eq!(meta["task"]["data_model"], "ILP32");
    let hash = meta["task"]["input_file_hashes"]["examples/c/sum_invariant.c"]
        .as_str()
        .unwrap();
    assert_eq!(hash.len(), 64);
}

#[test]
fn an_exhaustive_safe_verdict_writes_a_valid_correctness_witness() {
    let dir = scratch("witness", "safe");
    let path = witness_path(&dir, "bmc_uint_sum");
    let path_text = path.to_string_lossy().to_string();
    let out = wiser(&[
        "check",
        "examples/c/bmc_uint_sum.c",
        "--witness",
        &path_text,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let witness = read_witness(&path);
    assert_valid(&schema(SCHEMA), &witness, "bmc_uint_sum");
    assert_eq!(witness[0]["entry_type"], "invariant_set");
    // `check` states no invariant: the loop gets the true invariant `1`.
    let inv = &witness[0]["content"][0]["invariant"];
    assert_eq!(inv["value"], "1");
    assert_eq!(inv["type"], "loop_invariant");
}

#[test]
fn the_portfolio_writes_the_witness_of_its_answer() {
    let dir = scratch("witness", "verify");
    let path = witness_path(&dir, "verify");
    let path_text = path.to_string_lossy().to_string();
    let out = wiser(&[
        "verify",
        "examples/c/sum_invariant.c",
        "--witness",
        &path_text,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let witness = read_witness(&path);
    assert_valid(&schema(SCHEMA), &witness, "verify");
    assert_eq!(witness[0]["entry_type"], "invariant_set");
    assert_eq!(
        witness[0]["content"][0]["invariant"]["location"]["line"],
        17
    );
}

#[test]
fn a_safe_program_without_loops_gets_no_witness_and_a_note_why() {
    let dir = scratch("witness", "no-loops");
    let path = witness_path(&dir, "factorial");
    let path_text = path.to_string_lossy().to_string();
    let out = wiser(&["check", "examples/c/factorial.c", "--witness", &path_text]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!path.exists());
    assert!(
        stderr(&out).contains("has no loop to state an invariant at"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn fuzz_and_concolic_write_the_violation_witness_of_a_bug() {
    let validator = schema(SCHEMA);
    let dir = scratch("witness", "engines");
    for (command, extra) in [
        ("fuzz", &["-q", "--max-runs", "200"][..]),
        ("concolic", &["--reads", "0,0,0"][..]),
    ] {
        let path = witness_path(&dir, command);
        let path_text = path.to_string_lossy().to_string();
        let mut args = vec![command, "examples/c/div_by_zero.c", "--witness", &path_text];
        args.extend(extra);
        let out = wiser(&args);
        assert_eq!(out.status.code(), Some(1), "{command}: {}", stderr(&out));
        let witness = read_witness(&path);
        assert_valid(&validator, &witness, command);
        let target = waypoints(&witness).pop().unwrap();
        assert_eq!(target["location"]["line"], 20, "{command}");
    }
}

#[test]
fn an_imp_program_is_refused_before_the_run() {
    let dir = scratch("witness", "imp");
    let path = witness_path(&dir, "imp");
    let path_text = path.to_string_lossy().to_string();
    let out = wiser(&["check", "examples/div_by_zero.imp", "--witness", &path_text]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("error: --witness writes an SV-COMP witness, which describes a C program"),
        "{err}"
    );
    assert!(err.contains("help:"), "{err}");
    assert!(!path.exists());
}

#[test]
fn an_unknown_verdict_writes_nothing_and_says_so() {
    let dir = scratch("witness", "unknown");
    let path = witness_path(&dir, "unknown");
    let path_text = path.to_string_lossy().to_string();
    let out = wiser(&[
        "check",
        "examples/c/kinduction_odd.c",
        "--max-states",
        "200",
        "--witness",
        &path_text,
    ]);
    assert_eq!(out.status.code(), Some(3));
    assert!(!path.exists());
    assert!(
        stderr(&out).contains("note: the verdict is unknown, so no SV-COMP witness was written"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn one_witness_file_is_for_one_program() {
    let out = wiser(&[
        "bmc",
        "examples/c/div_by_zero.c",
        "examples/c/sum.c",
        "--witness",
        "w.yml",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("`--witness` writes the witness of one program"));
}
