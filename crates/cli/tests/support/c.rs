//! What the tests of C programs share: a scratch folder per test, `check`
//! with one worker, SV-COMP's preamble, and gcc building and running a
//! program with its harness.

use super::{captured, command, write};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh folder for one test.
pub fn folder(test: &str) -> PathBuf {
    super::scratch("c-cli", test)
}

/// `wiser check FILE --quiet -j 1 ARGS`: exit code, stdout, stderr.
pub fn check(file: &Path, args: &[&str]) -> (i32, String, String) {
    captured(
        command()
            .arg("check")
            .arg(file)
            .args(["--quiet", "-j", "1"])
            .args(args),
    )
}

/// `wiser check FILE --format json -j 1 ARGS`: exit code and report.
pub fn check_json(file: &Path, args: &[&str]) -> (i32, Value) {
    super::check_json(file, &[&["-j", "1"], args].concat())
}

/// SV-COMP's usual preamble: reach_error fails through __assert_fail.
pub const PREAMBLE: &str = r#"extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "prog.c", 3, "reach_error"); }
extern unsigned char __VERIFIER_nondet_uchar(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);
"#;

/// Can gcc build and link a program under `flag`? (`-m32` needs
/// gcc-multilib.)
pub fn gcc_links(flag: &str, dir: &Path) -> bool {
    let src = write(dir, "trivial.c", "int main(void) { return 0; }\n");
    Command::new("gcc")
        .arg(flag)
        .arg(&src)
        .arg("-o")
        .arg(dir.join("trivial"))
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Compiles `prog` with `harness` under `flag` and runs it: its exit code
/// and stderr.
pub fn gcc_replay(dir: &Path, flag: &str, prog: &Path, harness: &Path) -> (i32, String) {
    let exe = dir.join("replay");
    let (code, _, err) = captured(
        Command::new("gcc")
            .arg(flag)
            .arg("-w")
            .arg(prog)
            .arg(harness)
            .arg("-o")
            .arg(&exe),
    );
    assert_eq!(code, 0, "gcc failed:\n{err}");
    let (code, _, err) = captured(&mut Command::new(&exe));
    (code, err)
}

/// Asserts that `wiser check` finds a bug in `prog` and that its harness,
/// compiled with the program by `gcc -m32` (where gcc can build 32-bit
/// programs), reaches the error (exit 101).
pub fn assert_gcc_confirms(dir: &Path, prog: &Path) {
    if !gcc_links("-m32", dir) {
        return;
    }
    let harness = dir.join("harness.c");
    let (code, out, err) = check(prog, &["--harness", harness.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}\n{err}");
    let (code, err) = gcc_replay(dir, "-m32", prog, &harness);
    assert_eq!(code, 101, "{err}");
}

/// Compiles `prog` alone with gcc under `flag` and runs it: its exit
/// code, stdout and stderr.
pub fn gcc_run(dir: &Path, flag: &str, prog: &Path) -> (i32, String, String) {
    let exe = dir.join("native");
    let (code, _, err) = captured(
        Command::new("gcc")
            .arg(flag)
            .arg("-w")
            .arg(prog)
            .arg("-o")
            .arg(&exe),
    );
    assert_eq!(code, 0, "gcc failed:\n{err}");
    captured(&mut Command::new(&exe))
}

/// `wiser run FILE ARGS`: exit code, stdout, stderr.
pub fn run(file: &Path, args: &[&str]) -> (i32, String, String) {
    captured(command().arg("run").arg(file).args(args))
}

/// The reads of the first bug of a JSON report, as numbers.
pub fn first_reads(json: &Value) -> Vec<i64> {
    json["bugs"][0]["reads"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_i64).collect())
        .unwrap_or_default()
}

/// What [`assert_facts`] requires of wiser on the true facts.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Facts {
    /// `safe`: every path explored, no bug.
    Safe,
    /// No bug (the verdict may be `unknown` where the report lists what
    /// it does not check).
    NoBug,
}

/// Asserts a program of facts, `assert`s that gcc's build passes: wiser
/// finds no bug in it under both data models (`Facts::Safe`: proves it),
/// gcc's builds (`-m32`, `-m64`, where gcc links them) run clean — with
/// `__VERIFIER_nondet_int` returning `nondet` there — and each fact of
/// `wrong` replaced by its false twin is a bug gcc's build confirms.
pub fn assert_facts(dir: &Path, text: &str, expect: Facts, nondet: i32, wrong: &[(&str, &str)]) {
    let prog = write(dir, "facts.c", text);
    for (flag, model) in [("-m32", "ilp32"), ("-m64", "lp64")] {
        let (code, json) = check_json(&prog, &["--data-model", model]);
        assert_eq!(json["bugs"], Value::Array(vec![]), "{model}: {json}");
        if expect == Facts::Safe {
            assert_eq!(code, 0, "{model}: {json}");
        }
        if gcc_links(flag, dir) {
            let stub = write(
                dir,
                "nondet.c",
                &format!("int __VERIFIER_nondet_int(void) {{ return {nondet}; }}\n"),
            );
            let exe = dir.join(format!("native{model}"));
            let (code, _, err) = captured(
                Command::new("gcc")
                    .args([flag, "-w"])
                    .arg(&prog)
                    .arg(&stub)
                    .arg("-o")
                    .arg(&exe),
            );
            assert_eq!(code, 0, "gcc failed:\n{err}");
            let (code, _, err) = captured(&mut Command::new(&exe));
            assert_eq!(code, 0, "{model}: gcc's build fails a fact\n{err}");
        }
    }
    for (k, (fact, false_twin)) in wrong.iter().enumerate() {
        assert!(text.contains(fact), "no fact `{fact}`");
        let prog = write(
            dir,
            &format!("wrong{k}.c"),
            &text.replacen(fact, false_twin, 1),
        );
        assert_gcc_confirms(dir, &prog);
    }
}
