//! The command line on C programs and SV-COMP tasks: the front end by
//! extension, properties, data models, witnesses as nondet calls, task
//! files, and harnesses that gcc compiles and runs into the error.

mod support;

use serde_json::Value;
use std::path::{Path, PathBuf};
use support::{captured, command, write};

use support::c::{check, check_json, folder, gcc_links, gcc_replay, PREAMBLE};

/// CBMC's unsigned-char loop (seed 004) with a planted error: only n = 131
/// reaches it (2n wraps to 6 and n > 100).
const BMC_UCHAR: &str = r#"
int main(void) {
    unsigned char n = __VERIFIER_nondet_uchar();
    unsigned char s = 0;
    for (unsigned char i = 0; i < n; i++)
        s += 2;
    if (s == 6 && n > 100)
        reach_error();
    return 0;
}
"#;

fn bmc_uchar(dir: &Path) -> PathBuf {
    write(dir, "prog.c", &format!("{PREAMBLE}{BMC_UCHAR}"))
}

#[test]
fn a_c_bug_is_shown_as_its_nondet_calls() {
    let dir = folder("text");
    let prog = bmc_uchar(&dir);
    let (code, out, err) = check(&prog, &[]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.contains("bug: error function called at"), "{out}");
    assert!(
        out.contains("input: __VERIFIER_nondet_uchar() = 131"),
        "{out}"
    );
    assert!(
        out.contains("prog.c:13:"),
        "the reach_error() call's line: {out}"
    );
}

#[test]
fn the_json_report_names_each_nondet_call() {
    let dir = folder("json");
    let prog = bmc_uchar(&dir);
    let (code, json) = check_json(&prog, &[]);
    assert_eq!(code, 1);
    assert_eq!(json["language"], "c");
    assert_eq!(json["property"], "all");
    assert_eq!(json["expected_verdict"], Value::Null);
    let nondet = &json["bugs"][0]["nondet"];
    assert_eq!(nondet[0]["function"], "__VERIFIER_nondet_uchar");
    assert_eq!(nondet[0]["value"], 131);
    assert_eq!(nondet[0]["line"], 8);
    assert_eq!(json["outside_property"], serde_json::json!([]));
}

#[test]
fn the_harness_makes_gcc_reach_the_error() {
    let dir = folder("harness");
    if !gcc_links("-m32", &dir) {
        eprintln!(
            "note: `gcc -m32` cannot link a trivial program here (gcc-multilib missing?): skipped"
        );
        return;
    }
    let prog = bmc_uchar(&dir);
    let harness = dir.join("h.c");
    let (code, out, err) = check(&prog, &["--harness", harness.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(err.contains("harness written to"), "{err}");
    let text = std::fs::read_to_string(&harness).unwrap();
    assert!(text.contains("gcc -m32"), "{text}");
    assert!(!text.contains("assert.h"));
    let (code, err) = gcc_replay(&dir, "-m32", &prog, &harness);
    assert_eq!(code, 101, "{err}");
    assert!(
        err.contains("wiser-harness: error reached in reach_error"),
        "{err}"
    );
}

#[test]
fn a_harness_under_lp64_for_a_program_without_reach_error() {
    // An older task: __VERIFIER_error is declared, never defined, and the
    // program defines no reach_error; two nondet functions interleave.
    let dir = folder("lp64");
    if !gcc_links("-m64", &dir) {
        eprintln!("note: `gcc -m64` cannot link a trivial program here: skipped");
        return;
    }
    let prog = write(
        &dir,
        "old.c",
        r#"extern void __VERIFIER_error(void);
extern long __VERIFIER_nondet_long(void);
extern char __VERIFIER_nondet_char(void);
int main(void) {
    long a = __VERIFIER_nondet_long();
    char c = __VERIFIER_nondet_char();
    long b = __VERIFIER_nondet_long();
    if (sizeof(long) == 8 && a > 5000000000L && c == -3 && b == a - 1)
        __VERIFIER_error();
    return 0;
}
"#,
    );
    let harness = dir.join("h.c");
    let (code, json) = check_json(
        &prog,
        &[
            "--data-model",
            "lp64",
            "--harness",
            harness.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 1, "{json}");
    let fns: Vec<&str> = json["bugs"][0]["nondet"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["function"].as_str().unwrap())
        .collect();
    assert_eq!(
        fns,
        [
            "__VERIFIER_nondet_long",
            "__VERIFIER_nondet_char",
            "__VERIFIER_nondet_long"
        ]
    );
    let (code, err) = gcc_replay(&dir, "-m64", &prog, &harness);
    assert_eq!(code, 101, "{err}");
    // Under ILP32 `long` has 32 bits: the error is unreachable.
    let (code, json) = check_json(&prog, &[]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["verdict"], "safe");
}

#[test]
fn unreach_call_leaves_undefined_behaviour_unknown() {
    let dir = folder("ub");
    let prog = write(
        &dir,
        "ub.c",
        &format!(
            "{PREAMBLE}
int main(void) {{
    int x = __VERIFIER_nondet_int();
    int y = x + 1;
    if (y < x) reach_error();
    return 0;
}}
"
        ),
    );
    // Every error kind is a bug by default: the overflow is one.
    let (code, json) = check_json(&prog, &[]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"][0]["kind"], "signed_overflow");
    // Under unreach-call the overflow makes its path unknown: reach_error
    // is reachable only through it, so the answer is unknown, never false.
    for property in ["unreach-call", "PRP"] {
        let prp = write(
            &dir,
            "unreach-call.prp",
            "CHECK( init(main()), LTL(G ! call(reach_error())) )\n",
        );
        let arg = if property == "PRP" {
            prp.to_str().unwrap().to_string()
        } else {
            property.to_string()
        };
        let (code, json) = check_json(&prog, &["--property", &arg]);
        assert_eq!(code, 3, "{json}");
        assert_eq!(json["verdict"], "unknown");
        assert_eq!(json["property"], "unreach-call");
        assert_eq!(json["outside_property"][0]["kind"], "signed_overflow");
        assert_eq!(json["outside_property"][0]["line"], 9);
        assert!(json["incomplete"]
            .as_array()
            .unwrap()
            .contains(&Value::from("outside_property")));
    }
    let (code, out, _) = check(&prog, &["--property", "unreach-call"]);
    assert_eq!(code, 3);
    assert!(
        out.contains("outside the property (unreach-call): signed overflow at"),
        "{out}"
    );
}

#[test]
fn a_task_file_gives_the_input_property_and_data_model() {
    let dir = folder("task");
    std::fs::create_dir_all(dir.join("properties")).unwrap();
    write(
        &dir,
        "properties/unreach-call.prp",
        "CHECK( init(main()), LTL(G ! call(reach_error())) )\n",
    );
    write(
        &dir,
        "properties/no-overflow.prp",
        "CHECK( init(main()), LTL(G ! overflow) )\n",
    );
    write(
        &dir,
        "properties/termination.prp",
        "CHECK( init(main()), LTL(F end) )\n",
    );
    std::fs::create_dir_all(dir.join("tasks")).unwrap();
    write(&dir, "tasks/prog.c", &format!("{PREAMBLE}{BMC_UCHAR}"));
    let yml = write(
        &dir,
        "tasks/prog.yml",
        "format_version: '2.0'\ninput_files: 'prog.c'\nproperties:\n  - property_file: ../properties/no-overflow.prp\n    expected_verdict: true\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: false\noptions:\n  language: C\n  data_model: ILP32\n",
    );
    let (code, json) = check_json(&yml, &[]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["property"], "unreach-call");
    assert_eq!(json["expected_verdict"], false);
    assert_eq!(json["bugs"][0]["kind"], "fail");
    let (_, out, _) = check(&yml, &[]);
    assert!(out.contains("task: expected verdict false"), "{out}");

    // A task without unreach-call is checked for the property it lists.
    let other = write(
        &dir,
        "tasks/other.yml",
        "input_files: 'prog.c'\nproperties:\n  - property_file: ../properties/no-overflow.prp\n    expected_verdict: true\n",
    );
    let (_, json) = check_json(&other, &[]);
    assert_eq!(json["property"], "no-overflow", "{json}");
    assert_eq!(json["expected_verdict"], true, "{json}");
    // A task without any property wiser checks is refused, saying why.
    let none = write(
        &dir,
        "tasks/none.yml",
        "input_files: 'prog.c'\nproperties:\n  - property_file: ../properties/termination.prp\n    expected_verdict: true\n",
    );
    let (code, _, err) = check(&none, &[]);
    assert_eq!(code, 2);
    assert!(err.contains("no property wiser checks"), "{err}");
    assert!(err.contains("termination.prp"), "{err}");
    // So is another property given on the command line.
    let (code, _, err) = check(
        &dir.join("tasks/prog.c"),
        &[
            "--property",
            dir.join("properties/termination.prp").to_str().unwrap(),
        ],
    );
    assert_eq!(code, 2);
    assert!(err.contains("unsupported property"), "{err}");
    // `run` takes a task file too.
    let (code, out, err) = captured(command().arg("run").arg(&yml).args(["--reads", "131"]));
    assert_eq!(code, 1, "{out}\n{err}");
}

#[test]
fn run_feeds_the_nondet_calls_in_order() {
    let dir = folder("run");
    let prog = write(
        &dir,
        "three.c",
        &format!(
            "{PREAMBLE}
int main(void) {{
    int a = __VERIFIER_nondet_int();
    unsigned char b = __VERIFIER_nondet_uchar();
    int c = __VERIFIER_nondet_int();
    if (a == 1 && b == 2 && c == 3) reach_error();
    return 0;
}}
"
        ),
    );
    let (code, out, err) = captured(command().arg("run").arg(&prog).args(["--reads", "1,2,3"]));
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.contains("error: error function called at"), "{out}");
    let (code, out, err) = captured(command().arg("run").arg(&prog).args(["--reads", "1,2"]));
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(err.contains("had no value in --reads"), "{err}");
}

#[test]
fn the_language_follows_the_extension_unless_told() {
    let dir = folder("lang");
    // The same IMP text in a .c file is not C...
    let imp = "x = *; if x == 3 then fail else skip fi\n";
    let as_c = write(&dir, "imp.c", imp);
    let (code, _, err) = check(&as_c, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("imp.c:1:"), "an error with its place: {err}");
    // ... but --lang imp reads it as IMP.
    let (code, out, _) = check(&as_c, &["--lang", "imp"]);
    assert_eq!(code, 1, "{out}");
    // And a C file with another extension is C under --lang c.
    let c = write(&dir, "prog.txt", &format!("{PREAMBLE}{BMC_UCHAR}"));
    let (code, out, err) = check(&c, &["--lang", "c"]);
    assert_eq!(code, 1, "{out}\n{err}");
}

#[test]
fn usage_errors_say_what_and_what_to_do() {
    let dir = folder("usage");
    let prog = bmc_uchar(&dir);
    let (code, _, err) = check(&prog, &["--assume", "x > 1"]);
    assert_eq!(code, 2);
    assert!(err.contains("--assume is for IMP programs"), "{err}");
    assert!(err.contains("help:"), "{err}");
    let imp = write(&dir, "p.imp", "x = *; fail\n");
    let (code, _, err) = check(&imp, &["--harness", "h.c"]);
    assert_eq!(code, 2);
    assert!(err.contains("is not a C program"), "{err}");
    let (code, _, err) = check(&dir.join("missing.c"), &[]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read"), "{err}");
    let (code, _, err) = check(&prog, &["--property", "termination"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown property"), "{err}");
    let (code, _, err) = check(&prog, &["--harness", "/nonexistent-dir/h.c"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot write the harness"), "{err}");
}

#[test]
fn warnings_go_to_stderr_in_rustc_style() {
    let dir = folder("warn");
    let prog = write(
        &dir,
        "implicit.c",
        &format!(
            "{PREAMBLE}
int main(void) {{
    int v = undefined_somewhere();
    if (v == 42) reach_error();
    return 0;
}}
"
        ),
    );
    let (code, out, err) = check(&prog, &[]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(err.contains("implicit.c:8:"), "{err}");
    assert!(err.contains("warning:"), "{err}");
    assert!(out.contains("undefined_somewhere() = 42"), "{out}");
}

#[test]
fn a_harness_reports_a_reach_error_the_program_defines_as_doing_nothing() {
    // Older SV-COMP tasks: `void reach_error(){}` followed by abort().
    let dir = folder("empty-reach-error");
    if !gcc_links("-m32", &dir) {
        eprintln!("note: `gcc -m32` cannot link a trivial program here: skipped");
        return;
    }
    let prog = write(
        &dir,
        "empty.c",
        r#"extern void abort(void);
void reach_error(){}
extern unsigned int __VERIFIER_nondet_uint(void);
void __VERIFIER_assert(int cond) {
  if (!(cond)) {
    ERROR: {reach_error();abort();}
  }
  return;
}
int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  __VERIFIER_assert(n != 77777);
  return 0;
}
"#,
    );
    let harness = dir.join("h.c");
    let (code, out, err) = check(&prog, &["--harness", harness.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}\n{err}");
    let (code, err) = gcc_replay(&dir, "-m32", &prog, &harness);
    assert_eq!(code, 101, "{err}");
    assert!(err.contains("error reached in reach_error"), "{err}");
}

#[test]
fn a_nondet_function_the_program_defines_gets_the_witness_s_values() {
    // Older SV-COMP tasks define the nondet functions themselves, returning
    // an uninitialised local: a harness cannot set such a local, so it
    // takes the definitions over, and gcc's build reaches the error.
    let dir = folder("own-nondet");
    let prog = write(
        &dir,
        "own.c",
        r#"extern void abort(void);
void reach_error(){}
double __VERIFIER_nondet_double(void) { double val; return val; }
int __VERIFIER_nondet_int(void) { int val; return val; }
void __VERIFIER_assert(int cond) {
  if (!(cond)) {
    ERROR: {reach_error();abort();}
  }
  return;
}
int main(void) {
  double d = __VERIFIER_nondet_double();
  int n = __VERIFIER_nondet_int();
  if (d > 2.5 && d < 3.0)
    __VERIFIER_assert(n != 77777);
  return 0;
}
"#,
    );
    let (code, out, err) = check(&prog, &[]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(
        err.contains("`__VERIFIER_nondet_double` is defined by the program"),
        "{err}"
    );
    assert!(out.contains("__VERIFIER_nondet_int() = 77777"), "{out}");
    if !gcc_links("-m32", &dir) {
        eprintln!("note: `gcc -m32` cannot link a trivial program here: skipped");
        return;
    }
    let harness = dir.join("h.c");
    let (code, out, err) = check(&prog, &["--harness", harness.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}\n{err}");
    let text = std::fs::read_to_string(&harness).unwrap();
    assert!(!text.contains("uninitialised local"), "{text}");
    let (code, err) = gcc_replay(&dir, "-m32", &prog, &harness);
    assert_eq!(code, 101, "{err}\n{text}");
    assert!(err.contains("error reached in reach_error"), "{err}");
}

#[test]
fn a_task_outside_the_subset_is_answered_unknown() {
    let dir = folder("task-unsupported");
    write(
        &dir,
        "prog.c",
        "int main(void) { _Complex double z; return 0; }\n",
    );
    let yml = write(
        &dir,
        "prog.yml",
        "input_files: 'prog.c'\nproperties:\n  - property_file: unreach-call.prp\n    expected_verdict: true\n",
    );
    write(
        &dir,
        "unreach-call.prp",
        "CHECK( init(main()), LTL(G ! call(reach_error())) )\n",
    );
    let (code, json) = check_json(&yml, &[]);
    assert_eq!(code, 3, "{json}");
    assert_eq!(json["verdict"], "unknown");
    assert_eq!(json["incomplete"][0], "unsupported");
    let why = json["unsupported"].as_str().unwrap_or_default();
    assert!(
        why.contains("unsupported in C programs: complex and `_FloatN` types")
            && why.ends_with("prog.c:1:18)"),
        "{why}"
    );
    // The file on its own is refused: it is an input error there.
    let (code, _, err) = check(&dir.join("prog.c"), &[]);
    assert_eq!(code, 2);
    assert!(err.contains("unsupported in C programs"), "{err}");
}
