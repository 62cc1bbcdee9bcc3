//! IMP's `f32` and `f64` through the command line: `wiser check` finds
//! witnesses of float bugs (a NaN, a rounding, a conversion out of range)
//! and prints float inputs as decimals, `wiser run --input NAME=DECIMAL`
//! replays them, a float property that holds is proven safe, and type
//! errors stop the program before it runs.

mod support;

use std::path::PathBuf;
use support::{command, text};

/// Writes `src` to a fresh file of the test's scratch directory.
fn program(name: &str, src: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("imp_floats-{}-{name}.imp", std::process::id()));
    std::fs::write(&path, src).expect("cannot write the program");
    path
}

/// `wiser ARGS FILE`: exit code, stdout, stderr.
fn wiser(args: &[&str], file: &PathBuf) -> (i32, String, String) {
    let out = command()
        .args(args)
        .arg(file)
        .output()
        .expect("cannot run wiser");
    (
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr),
    )
}

/// The value of `name` in the `input:` line of a text report.
fn input_value(report: &str, name: &str) -> String {
    let line = report
        .lines()
        .find_map(|l| l.trim().strip_prefix("input: "))
        .unwrap_or_else(|| panic!("no input line in\n{report}"));
    line.split(", ")
        .find_map(|kv| kv.strip_prefix(&format!("{name} = ")))
        .unwrap_or_else(|| panic!("no `{name}` in `{line}`"))
        .to_string()
}

/// Checks `file`, expects a bug of `message`, and replays the printed
/// witness of the input `var` with `wiser run`, which must stop at the same
/// error; the witness's value is returned.
fn check_and_replay(file: &PathBuf, var: &str, message: &str) -> String {
    let (code, out, err) = wiser(&["check", "--jobs", "1"], file);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains(message), "{out}");
    let value = input_value(&out, var);
    let given = format!("{var}={value}");
    let (code, run, err) = wiser(&["run", "--input", &given], file);
    assert_eq!(code, 1, "wiser run --input {given}\n{run}{err}");
    assert!(run.contains(&format!("error: {message}")), "{run}");
    assert!(run.contains(&format!("{var} = {value}")), "{run}");
    value
}

#[test]
fn a_nan_witness_is_found_printed_and_replayed() {
    let file = program("nan", "var x: f64;\nvar y: f64 = x * 2.0;\nassert y == y\n");
    let value = check_and_replay(&file, "x", "assertion failed");
    assert_eq!(value, "nan");
    // Any other value passes: a number compares equal to itself.
    let (code, run, _) = wiser(&["run", "--input", "x=1.5"], &file);
    assert_eq!(code, 0, "{run}");
    assert!(run.contains("y = 3.0"), "{run}");
}

#[test]
fn a_rounding_witness_is_found_and_replayed() {
    // 1e-8 is below half an ulp of every f32 in [1, 2]: the sum rounds
    // back to x.
    let file = program(
        "rounding",
        "var x: f32;\nassume x >= 1 and x <= 2;\nassert x + 1e-8 != x\n",
    );
    let value = check_and_replay(&file, "x", "assertion failed");
    let x: f32 = value.parse().expect("a decimal");
    assert!((1.0..=2.0).contains(&x), "{value}");
}

#[test]
fn summing_a_tenth_ten_times_is_not_one() {
    let file = program(
        "sum",
        "var s: f64 = 0.0;\nvar i: i32 = 0;\n\
         while i < 10 do s = s + 0.1; i = i + 1 od;\nassert s == 1.0\n",
    );
    let (code, run, err) = wiser(&["run"], &file);
    assert_eq!(code, 1, "{run}{err}");
    assert!(run.contains("s = 0.9999999999999999"), "{run}");
}

#[test]
fn doubling_a_float_in_one_to_two_is_proven_safe() {
    let file = program(
        "safe",
        "var x: f32;\nassume x >= 1 and x <= 2;\nassert x * 2 > x\n",
    );
    let (code, out, err) = wiser(&["check"], &file);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("verdict: safe"), "{out}");
}

#[test]
fn a_conversion_out_of_range_is_a_float_conversion_bug() {
    let file = program("convert", "var x: f64;\nvar n: i32 = i32(x)\n");
    let (code, out, err) = wiser(&["check", "--format", "json"], &file);
    assert_eq!(code, 1, "{out}{err}");
    let report: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let bug = &report["bugs"][0];
    assert_eq!(bug["kind"], "float_conversion", "{out}");
    assert_eq!(
        (bug["line"].as_u64(), bug["column"].as_u64()),
        (Some(2), Some(14))
    );
    // The JSON witness gives the bit pattern, which `--input` also takes.
    // (A string, for patterns beyond JSON's safe integers.)
    let pattern = match &bug["input"]["x"] {
        serde_json::Value::String(s) => s.clone(),
        v => v.to_string(),
    };
    let (code, run, _) = wiser(&["run", "--input", &format!("x={pattern}")], &file);
    assert_eq!(code, 1, "{run}");
    // In range, truncated toward zero; just out of range, an error.
    let (code, run, _) = wiser(&["run", "--input", "x=-2147483648.9"], &file);
    assert_eq!(code, 0, "{run}");
    assert!(run.contains("n = -2147483648"), "{run}");
    let (code, run, _) = wiser(&["run", "--input", "x=2147483648.0"], &file);
    assert_eq!(code, 1, "{run}");
    assert!(run.contains("cannot hold its value"), "{run}");
}

#[test]
fn a_float_input_must_be_a_float() {
    let file = program("bad_input", "var x: f32;\nassert x == x\n");
    let (code, _, err) = wiser(&["run", "--input", "x=zero"], &file);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("`zero` in `x=zero` is not a float"), "{err}");
}

#[test]
fn type_errors_stop_the_program() {
    for (src, message) in [
        (
            "var a: f32 = *; var b: f64 = *; c: f64 = a + b",
            "mismatched types `f32` and `f64` in `+`",
        ),
        (
            "var a: f64 = *; b: f64 = a % 2.0",
            "`%` cannot be applied to floats (`f64`)",
        ),
        (
            "var a: f32 = *; var b: i8 = a",
            "cannot assign an `f32` to `i8` without a cast",
        ),
    ] {
        let file = program("type_error", src);
        let (code, out, err) = wiser(&["check"], &file);
        assert_eq!(code, 2, "{src}\n{out}{err}");
        assert!(err.contains(message), "{src}\n{err}");
        assert!(err.contains(":1:"), "{src}\n{err}");
    }
}

#[test]
fn concolic_shows_float_inputs_as_decimals() {
    let file = program(
        "concolic",
        "var x: f64;\nvar y: f64 = x * 2.0;\nassert y == y\n",
    );
    let (code, out, err) = wiser(&["concolic", "--input", "x=0.5"], &file);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("input: x = 0.5"), "{out}");
    // The other side of the assertion: a NaN.
    assert!(out.contains("feasible, e.g. x = nan"), "{out}");
}

#[test]
fn a_conversion_in_range_is_proven_safe() {
    let file = program(
        "in_range",
        "var x: f64;\nassume x >= 0.0 and x < 100.0;\nvar j: i32 = i32(x);\nassert j < 100\n",
    );
    let (code, out, err) = wiser(&["check"], &file);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("verdict: safe"), "{out}");
}
