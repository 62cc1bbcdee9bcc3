//! `wiser concolic`, `wiser fuzz` and `wiser bmc` end to end: the
//! done-when results of seed 004 (foo's two branches and their flips;
//! SAGE's `top` from "good" in at most 10 runs with full coverage; the two
//! bounded-model-checking examples), JSON shapes, usage errors.

mod support;

use serde_json::Value;
use support::{example, run as wiser};

fn json(args: &[&str]) -> (i32, Value) {
    let (code, out, err) = wiser(&[args, &["--format", "json"]].concat());
    let v = serde_json::from_str(&out).unwrap_or_else(|e| panic!("bad JSON ({e}): {out}\n{err}"));
    (code, v)
}

const GOOD: [&str; 8] = [
    "--seed-input",
    "input[0]=103",
    "--seed-input",
    "input[1]=111",
    "--seed-input",
    "input[2]=111",
    "--seed-input",
    "input[3]=100",
];

#[test]
fn concolic_foo_prints_both_branches_with_an_input_for_each_other_side() {
    let foo = example("foo.imp");
    let (code, out, err) = wiser(&["concolic", foo.to_str().unwrap(), "-i", "x=1", "-i", "y=2"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("path: 2 symbolic decisions"), "{out}");
    assert!(
        out.contains("foo.imp:6:1") && out.contains("foo.imp:12:1"),
        "{out}"
    );
    assert_eq!(out.matches("taken: false").count(), 2, "{out}");
    assert_eq!(
        out.matches("other side (true): feasible, e.g.").count(),
        2,
        "{out}"
    );
    assert!(out.contains("outcome: normal end"), "{out}");
}

#[test]
fn concolic_json_shape_on_c_foo() {
    let foo = example("c/foo.c");
    let (code, v) = json(&["concolic", foo.to_str().unwrap(), "--reads", "1,2"]);
    assert_eq!(code, 0);
    assert_eq!(v["language"], "c");
    assert_eq!(v["outcome"], "halted");
    assert_eq!(v["input"]["reads"], serde_json::json!([1, 2]));
    let decisions = v["decisions"].as_array().unwrap();
    let branches: Vec<&Value> = decisions.iter().filter(|d| d["kind"] == "branch").collect();
    assert_eq!(branches.len(), 2);
    for d in &branches {
        assert_eq!(d["taken"], false);
        assert_eq!(d["other_side"]["status"], "feasible");
        assert!(d["other_side"]["input"]["reads"].is_array());
        assert!(d["condition"].is_string() && d["line"].is_u64() && d["column"].is_u64());
    }
    // Conditions name the reads as `check`'s path conditions do.
    assert_eq!(
        branches[0]["condition"],
        "__VERIFIER_nondet_int()#2 <s __VERIFIER_nondet_int()#1"
    );
    // `x + y` cannot overflow after y = y - x on this path.
    assert!(decisions
        .iter()
        .any(|d| d["other_side"]["status"] == "infeasible"));
}

#[test]
fn concolic_reports_a_replayed_error() {
    let foo = example("c/foo.c");
    let (code, v) = json(&[
        "concolic",
        foo.to_str().unwrap(),
        "--reads",
        "-2,2147483647",
    ]);
    assert_eq!(code, 1);
    assert_eq!(v["outcome"], "error");
    assert_eq!(v["bug"]["kind"], "signed_overflow");
    assert_eq!(
        (v["line"].as_u64(), v["column"].as_u64()),
        (Some(13), Some(9))
    );
}

#[test]
fn fuzz_finds_sage_top_within_ten_runs_in_c_and_imp() {
    let c = example("c/sage_top.c");
    let imp = example("sage_top.imp");
    let c_args = [
        "fuzz",
        c.to_str().unwrap(),
        "--seed-reads",
        "103,111,111,100",
        "-q",
    ];
    let imp_args = [&["fuzz", imp.to_str().unwrap(), "-q", "-j", "2"][..], &GOOD].concat();
    for (args, routine) in [(c_args.to_vec(), "top"), (imp_args, "main")] {
        let (code, v) = json(&args);
        assert_eq!(code, 1, "{v}");
        assert_eq!(v["end"], "stopped_at_first_bug");
        assert_eq!(v["verdict"], "bug");
        let bug = &v["bugs"][0];
        assert_eq!(bug["kind"], "fail");
        assert!(bug["run"].as_u64().unwrap() <= 10, "{v}");
        assert!(v["runs"].as_u64().unwrap() <= 10);
        let top = v["coverage"]["routines"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["routine"] == routine)
            .cloned()
            .unwrap();
        assert_eq!(
            (top["covered"].as_u64(), top["total"].as_u64()),
            (Some(10), Some(10))
        );
        assert_eq!(v["coverage"]["uncovered"], serde_json::json!([]));
    }
}

#[test]
fn fuzz_text_says_how_it_ended_and_lists_uncovered_sides() {
    let imp = example("sage_top.imp");
    let args = [
        &["fuzz", imp.to_str().unwrap(), "-q", "--max-runs", "3"][..],
        &GOOD,
    ]
    .concat();
    let (code, out, err) = wiser(&args);
    assert_eq!(code, 3, "{out}{err}");
    assert!(out.contains("fuzz: no bug found in 3 runs"), "{out}");
    assert!(
        out.contains("run limit reached (3 runs; raise --max-runs)"),
        "{out}"
    );
    assert!(out.contains("coverage: 7/10 branch sides"), "{out}");
    assert_eq!(out.matches("uncovered: true side").count(), 3, "{out}");
    let safe = example("foo.imp");
    let (code, out, _) = wiser(&["fuzz", safe.to_str().unwrap(), "-q", "--seed-input", "x=1"]);
    assert_eq!(code, 3);
    assert!(out.contains("every generated path was run"), "{out}");
    assert!(out.contains("does not mean safe"), "{out}");
}

#[test]
fn an_unknown_input_name_is_a_usage_error() {
    let foo = example("foo.imp");
    for cmd in [["concolic", "-i"], ["fuzz", "--seed-input"]] {
        let (code, out, err) = wiser(&[cmd[0], foo.to_str().unwrap(), cmd[1], "z=1"]);
        assert_eq!(code, 2);
        assert!(out.is_empty());
        assert!(
            err.starts_with("error: `z` is not an input variable of this program"),
            "{err}"
        );
        assert!(
            err.contains("= help: its input variables are [x: int, y: int]"),
            "{err}"
        );
    }
}

/// Seed 004's first BMC example: deepening from bound 1 finds the bug at
/// bound 2, with a witness that `wiser run` replays into the assertion.
#[test]
fn bmc_finds_the_wraparound_at_bound_two_and_its_witness_replays() {
    let file = example("bmc_uchar_sum.imp");
    let f = file.to_str().unwrap();
    let (code, v) = json(&["bmc", f, "--unwind", "1", "--unwind-max", "10"]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(
        (v["engine"].as_str(), v["bound"].as_u64()),
        (Some("bmc"), Some(2))
    );
    let reads: Vec<String> = v["bugs"][0]["reads"]
        .as_array()
        .expect("reads")
        .iter()
        .map(|r| r.to_string())
        .collect();
    assert_eq!(reads.len(), 3, "{v}");
    let (code, out, _) = wiser(&["run", f, "--reads", &reads.join(",")]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("assertion failed"), "{out}");
}

/// The second example is safe with unwinding assertions at 256, and "no
/// bug up to the bound" is `unknown` with its reason below.
#[test]
fn bmc_proves_the_second_example_safe_and_says_when_the_bound_is_short() {
    let file = example("c/bmc_uint_sum.c");
    let f = file.to_str().unwrap();
    let (code, v) = json(&["bmc", f, "--unwind", "256", "--unwinding-assertions"]);
    assert_eq!((code, v["verdict"].as_str()), (0, Some("safe")), "{v}");
    let (code, v) = json(&["bmc", f, "--unwind", "100", "--unwinding-assertions"]);
    assert_eq!(code, 3, "{v}");
    assert_eq!(v["incomplete"][0].as_str(), Some("unwind_bound"), "{v}");
}

#[test]
fn bmc_usage_errors_are_clear() {
    let file = example("bmc_uchar_sum.imp");
    let f = file.to_str().unwrap();
    let (code, _, err) = wiser(&["bmc", f, "--unwind-loop", "99:3"]);
    assert_eq!(code, 2);
    assert!(err.contains("no loop has its head on line 99"), "{err}");
    let (code, _, err) = wiser(&["bmc", f, "--unwind-loop", "x"]);
    assert_eq!(code, 2);
    assert!(err.contains("is not LINE:K"), "{err}");
    let (code, _, err) = wiser(&["bmc", f, "--unwind", "5", "--unwind-max", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("below --unwind"), "{err}");
}
