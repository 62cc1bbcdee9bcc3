//! Function pointers in C: a pointer holds a function's number, and a
//! call through one takes each function of its type that the program
//! uses as a value as a branch, so every target's bug is found, with its
//! input, by the symbolic engine and BMC alike, and replays with
//! `wiser run` and with gcc.

mod support;

use serde_json::Value;
use std::path::Path;
use support::c::{check, check_json, folder, gcc_links, gcc_replay, PREAMBLE};
use support::{captured, command, write};

/// The bugs of a JSON report: (kind, line) and reads of each, by line.
fn bugs(json: &Value) -> Vec<(String, u64, Vec<i64>)> {
    let mut out: Vec<(String, u64, Vec<i64>)> = json["bugs"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|b| {
            let reads = b["reads"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .iter()
                .map(|r| r.as_i64().expect("a small read"))
                .collect();
            (
                b["kind"].as_str().unwrap_or("").to_string(),
                b["line"].as_u64().unwrap_or(0),
                reads,
            )
        })
        .collect();
    out.sort_by_key(|(_, line, _)| *line);
    out
}

/// `wiser run FILE --reads READS`: exit code, and stdout and stderr.
fn run_reads(prog: &Path, reads: &[i64]) -> (i32, String) {
    let reads: Vec<String> = reads.iter().map(i64::to_string).collect();
    let (code, out, err) = captured(
        command()
            .arg("run")
            .arg(prog)
            .args(["--reads", &reads.join(",")]),
    );
    (code, format!("{out}{err}"))
}

/// Three targets of one type, each with a bug of its own that only its
/// input reaches.
const DISPATCH: &str = "int inc(int x) { if (x == 10) reach_error(); return x & 1; }
int dec(int x) { if (x == 20) reach_error(); return x | 1; }
int sq(int x) { if (x == 30) reach_error(); return x % 7; }
int main(void) {
    int k = __VERIFIER_nondet_int();
    int x = __VERIFIER_nondet_int();
    int (*f)(int) = k == 0 ? inc : k == 1 ? dec : &sq;
    return (*f)(x) > 0;
}
";

#[test]
fn a_call_through_a_pointer_finds_each_targets_bug_with_its_input() {
    let dir = folder("fnptr-dispatch");
    let prog = write(&dir, "prog.c", &format!("{PREAMBLE}{DISPATCH}"));
    let (code, json) = check_json(&prog, &["--all"]);
    assert_eq!(code, 1, "{json}");
    let found = bugs(&json);
    let lines: Vec<(&str, u64)> = found.iter().map(|(k, l, _)| (k.as_str(), *l)).collect();
    // PREAMBLE takes 5 lines: the targets are lines 6, 7 and 8.
    assert_eq!(lines, [("fail", 6), ("fail", 7), ("fail", 8)], "{json}");
    // Each witness selects its target (k) and reaches its bug (x).
    for ((_, _, reads), (k_ok, x)) in found.iter().zip([
        (&(|k: i64| k == 0) as &dyn Fn(i64) -> bool, 10),
        (&|k: i64| k == 1, 20),
        (&|k: i64| k != 0 && k != 1, 30),
    ]) {
        assert_eq!(reads.len(), 2, "{json}");
        assert!(k_ok(reads[0]) && reads[1] == x, "{reads:?}\n{json}");
        // The witness replays on the interpreter.
        let (code, err) = run_reads(&prog, reads);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("reach_error"), "{err}");
    }
    // BMC finds a bug through the same dispatch.
    let (code, out, err) = captured(command().arg("bmc").arg(&prog).arg("--quiet"));
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.contains("bug"), "{out}");
}

#[test]
fn a_bug_through_a_pointer_replays_with_gcc() {
    let dir = folder("fnptr-gcc");
    let prog = write(&dir, "prog.c", &format!("{PREAMBLE}{DISPATCH}"));
    if !gcc_links("-m32", &dir) {
        return;
    }
    let harness = dir.join("harness.c");
    let (code, out, err) = check(&prog, &["--harness", harness.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}\n{err}");
    let (code, err) = gcc_replay(&dir, "-m32", &prog, &harness);
    assert_eq!(code, 101, "{err}");
}

#[test]
fn a_call_through_null_is_a_null_dereference() {
    let dir = folder("fnptr-null");
    let prog = write(
        &dir,
        "prog.c",
        &format!(
            "{PREAMBLE}#include <stdlib.h>
int twice(int x) {{ return 2 * x; }}
int main(void) {{
    int (*f)(int) = NULL;
    if (__VERIFIER_nondet_int() == 3) f = twice;
    return f(4);
}}
"
        ),
    );
    let (code, json) = check_json(&prog, &[]);
    assert_eq!(code, 1, "{json}");
    let found = bugs(&json);
    assert_eq!(found.len(), 1, "{json}");
    let (kind, line, reads) = &found[0];
    assert_eq!((kind.as_str(), *line), ("null_dereference", 11), "{json}");
    assert_ne!(reads[0], 3, "{json}");
    let (code, err) = run_reads(&prog, reads);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("null dereference"), "{err}");
    let (code, out, err) = captured(command().arg("bmc").arg(&prog));
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.contains("null dereference"), "{out}");
    // Tested before the call, the pointer is safe to call.
    let fixed = write(
        &dir,
        "fixed.c",
        &std::fs::read_to_string(&prog).unwrap().replace(
            "return f(4);",
            "if (f != NULL && f == &twice) return (*f)(4);\n    return !f;",
        ),
    );
    let (code, out, err) = check(&fixed, &[]);
    assert_eq!(code, 0, "{out}\n{err}");
}

#[test]
fn a_function_pointer_member_is_called_through_its_structure() {
    let dir = folder("fnptr-member");
    let prog = write(
        &dir,
        "prog.c",
        &format!(
            "{PREAMBLE}#include <stdlib.h>
typedef int (*handler_t)(int);
struct device {{ int id; handler_t on_read; }};
int quiet(int v) {{ return v; }}
int loud(int v) {{ if (v > 100) reach_error(); return v; }}
int main(void) {{
    struct device *d = calloc(1, sizeof(struct device));
    d->id = __VERIFIER_nondet_int();
    d->on_read = d->id % 2 ? loud : quiet;
    struct device copy = {{ 7, quiet }};
    int r = copy.on_read(d->id) > 0 && d->on_read(__VERIFIER_nondet_int()) > 0;
    free(d);
    return r;
}}
"
        ),
    );
    let (code, json) = check_json(&prog, &[]);
    assert_eq!(code, 1, "{json}");
    let found = bugs(&json);
    let (kind, line, reads) = &found[0];
    assert_eq!((kind.as_str(), *line), ("fail", 10), "{json}");
    // An odd id chooses `loud`, and the second read exceeds 100.
    assert!(reads[0] % 2 != 0 && reads[1] > 100, "{reads:?}");
    let (code, err) = run_reads(&prog, reads);
    assert_eq!(code, 1, "{err}");
}

#[test]
fn an_array_of_function_pointers_is_indexed_and_bounds_checked() {
    let dir = folder("fnptr-array");
    let prog = write(
        &dir,
        "prog.c",
        &format!(
            "{PREAMBLE}int inc(int x) {{ return x & 1; }}
int dec(int x) {{ return x | 1; }}
int boom(int x) {{ if (x == 42) reach_error(); return 0; }}
int (*ops[])(int) = {{ inc, dec, boom }};
int main(void) {{
    int (*local[2])(int) = {{ dec }};
    unsigned i = __VERIFIER_nondet_int();
    if (i < 3 && local[1] == 0) return ops[i](__VERIFIER_nondet_int());
    return ops[i](0);
}}
"
        ),
    );
    let (code, json) = check_json(&prog, &["--all"]);
    assert_eq!(code, 1, "{json}");
    let found = bugs(&json);
    let kinds: Vec<(&str, u64)> = found.iter().map(|(k, l, _)| (k.as_str(), *l)).collect();
    // `boom` through ops[2], and ops[i] with i >= 3 out of bounds.
    assert_eq!(kinds, [("fail", 8), ("out_of_bounds", 14)], "{json}");
    assert_eq!(found[0].2, [2, 42], "{json}");
    assert!(found[1].2[0] >= 3 || found[1].2[0] < 0, "{json}");
}

#[test]
fn function_pointers_pass_as_arguments_and_function_parameters() {
    let dir = folder("fnptr-argument");
    let prog = write(
        &dir,
        "prog.c",
        &format!(
            "{PREAMBLE}int apply(int g(int), int v) {{ return g(v); }}
int twice(int (*g)(int), int v) {{ return apply(g, apply(g, v)); }}
int half(int x) {{ return x / 2; }}
int minus(int x) {{ if (x == -5) reach_error(); return -x; }}
int main(void) {{
    int x = __VERIFIER_nondet_int();
    if (twice(half, x) == 3) return 1;
    return twice(minus, x);
}}
"
        ),
    );
    let (code, json) = check_json(&prog, &[]);
    assert_eq!(code, 1, "{json}");
    let found = bugs(&json);
    assert_eq!((found[0].0.as_str(), found[0].1), ("fail", 9), "{json}");
    // minus(x) == -5 at the second application: x == -5 at the first.
    assert_eq!(found[0].2, [-5], "{json}");
}

#[test]
fn no_failing_target_is_safe() {
    let dir = folder("fnptr-safe");
    let prog = write(
        &dir,
        "prog.c",
        &format!(
            "{PREAMBLE}typedef unsigned char (*pick_t)(unsigned char, unsigned char);
unsigned char lo(unsigned char a, unsigned char b) {{ return a < b ? a : b; }}
unsigned char hi(unsigned char a, unsigned char b) {{ return a < b ? b : a; }}
int main(void) {{
    unsigned char a = __VERIFIER_nondet_uchar(), b = __VERIFIER_nondet_uchar();
    pick_t p = __VERIFIER_nondet_int() ? lo : hi;
    pick_t q = p == lo ? hi : lo;
    if (p(a, b) > a && q(a, b) > a) reach_error();
    if (!p || q == p) reach_error();
    return 0;
}}
"
        ),
    );
    let (code, out, err) = check(&prog, &[]);
    assert_eq!(code, 0, "{out}\n{err}");
    let (code, out, err) = captured(command().arg("bmc").arg(&prog).arg("--quiet"));
    assert_eq!(code, 0, "{out}\n{err}");
}

#[test]
fn a_pointer_to_a_function_defined_nowhere_is_refused() {
    let dir = folder("fnptr-extern");
    let prog = write(
        &dir,
        "prog.c",
        "int ext(int);
int main(void) { int (*f)(int) = ext; return f(1); }
",
    );
    let (code, _, err) = check(&prog, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("prog.c:2:34") && err.contains("defined nowhere"),
        "{err}"
    );
}
