//! The command line on C programs and SV-COMP tasks: the front end by
//! extension, properties, data models, witnesses as nondet calls, task
//! files, and harnesses that gcc compiles and runs into the error.

mod support;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use support::{captured, command, write};

/// A fresh folder for one test.
fn folder(test: &str) -> PathBuf {
    support::scratch("c-cli", test)
}

fn check(file: &Path, args: &[&str]) -> (i32, String, String) {
    captured(
        command()
            .arg("check")
            .arg(file)
            .args(["--quiet", "-j", "1"])
            .args(args),
    )
}

fn check_json(file: &Path, args: &[&str]) -> (i32, Value) {
    support::check_json(file, &[&["-j", "1"], args].concat())
}

/// SV-COMP's usual preamble: reach_error fails through __assert_fail.
const PREAMBLE: &str = r#"extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "prog.c", 3, "reach_error"); }
extern unsigned char __VERIFIER_nondet_uchar(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);
"#;

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

/// Can gcc build and link a program under `flag`? (`-m32` needs
/// gcc-multilib.)
fn gcc_links(flag: &str, dir: &Path) -> bool {
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
fn gcc_replay(dir: &Path, flag: &str, prog: &Path, harness: &Path) -> (i32, String) {
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

    // A task without unreach-call is refused, saying why.
    let other = write(
        &dir,
        "tasks/other.yml",
        "input_files: 'prog.c'\nproperties:\n  - property_file: ../properties/no-overflow.prp\n    expected_verdict: true\n",
    );
    let (code, _, err) = check(&other, &[]);
    assert_eq!(code, 2);
    assert!(err.contains("no property wiser checks"), "{err}");
    assert!(err.contains("no-overflow.prp"), "{err}");
    // So is another property given on the command line.
    let (code, _, err) = check(
        &dir.join("tasks/prog.c"),
        &[
            "--property",
            dir.join("properties/no-overflow.prp").to_str().unwrap(),
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
fn an_uninitialised_local_is_shown_by_name() {
    let dir = folder("uninit");
    let prog = write(
        &dir,
        "uninit.c",
        &format!(
            "{PREAMBLE}
int main(void) {{
    int x;
    if (x == 7) reach_error();
    return 0;
}}
"
        ),
    );
    let (code, out, err) = check(&prog, &[]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.contains("x (uninitialised) = 7"), "{out}");
    let (_, json) = check_json(&prog, &[]);
    assert_eq!(json["bugs"][0]["nondet"][0]["variable"], "x");
    assert_eq!(json["bugs"][0]["nondet"][0]["function"], Value::Null);
}

#[test]
fn a_local_assigned_before_any_read_is_no_input() {
    // `examples/c/assigned_before_read.c`: `int i; for (i = 0; ...)`.
    let prog = support::root().join("examples/c/assigned_before_read.c");
    let (code, out, err) = check(&prog, &[]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(!out.contains("uninitialised"), "{out}");
    let (_, json) = check_json(&prog, &[]);
    let nondet = json["bugs"][0]["nondet"].as_array().unwrap();
    assert_eq!(nondet.len(), 3, "{nondet:?}");
    assert!(
        nondet
            .iter()
            .all(|n| n["function"] == "__VERIFIER_nondet_uchar" && n["variable"].is_null()),
        "{nondet:?}"
    );
    // The reads replay as they are printed.
    let reads: Vec<String> = nondet.iter().map(|n| n["value"].to_string()).collect();
    let (code, out, err) = captured(
        command()
            .arg("run")
            .arg(&prog)
            .args(["--reads", &reads.join(",")]),
    );
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.contains("error function called"), "{out}");
}

#[test]
fn an_initialised_local_whose_address_is_taken_is_no_input() {
    let dir = folder("addressed");
    let prog = write(
        &dir,
        "addressed.c",
        &format!(
            "{PREAMBLE}
void set(int *p, int v) {{ *p = v; }}
int main(void) {{
    int x = 5;
    int n = __VERIFIER_nondet_int();
    set(&x, n);
    if (x == 42) reach_error();
    return 0;
}}
"
        ),
    );
    let (code, out, err) = check(&prog, &[]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(
        out.contains("input: __VERIFIER_nondet_int() = 42\n"),
        "{out}"
    );
    let (code, out, err) = captured(command().arg("run").arg(&prog).args(["--reads", "42"]));
    assert_eq!(code, 1, "{out}\n{err}");
}

#[test]
fn a_program_with_stdio_and_printf() {
    // `<stdio.h>` parses (GCC's `__builtin_va_list` is declared with, never
    // used); `printf` is defined nowhere in the program, and its result is
    // read by no path: no input, and the harness leaves it to the C
    // library (defining it would conflict with `<stdio.h>`).
    let dir = folder("stdio");
    let prog = write(
        &dir,
        "hello.c",
        "#include <stdio.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
    int x = __VERIFIER_nondet_int();
    printf(\"x is %d\\n\", x);
    if (x > 10 && x < 12) reach_error();
    return 0;
}
",
    );
    let harness = dir.join("h.c");
    let (code, out, err) = check(&prog, &["--harness", harness.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(
        out.contains("input: __VERIFIER_nondet_int() = 11\n"),
        "{out}"
    );
    let text = std::fs::read_to_string(&harness).unwrap();
    assert!(!text.contains(" printf("), "{text}");
    assert!(text.contains(" __VERIFIER_nondet_int("), "{text}");
    if gcc_links("-m32", &dir) {
        let (code, err) = gcc_replay(&dir, "-m32", &prog, &harness);
        assert_eq!(code, 101, "{err}");
    }
    // A program that declares `printf` itself: the harness leaves it to
    // the C library too (defining it conflicted with the harness's own
    // `<stdio.h>`: "conflicting types").
    let prog = write(
        &dir,
        "declares.c",
        "int printf(const char *format, ...);
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
    int x = __VERIFIER_nondet_int();
    printf(\"%d\\n\", x);
    if (x == 9) reach_error();
    return 0;
}
",
    );
    let (code, out, err) = check(&prog, &["--harness", harness.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}\n{err}");
    let text = std::fs::read_to_string(&harness).unwrap();
    assert!(!text.contains(" printf("), "{text}");
    if gcc_links("-m32", &dir) {
        let (code, err) = gcc_replay(&dir, "-m32", &prog, &harness);
        assert_eq!(code, 101, "{err}");
    }
    // A function the program declares itself and defines nowhere, its
    // result unread: no input, but the harness still defines it (else
    // the program would not link).
    let prog = write(
        &dir,
        "own.c",
        "extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int external(void);
int main(void) {
    int x = __VERIFIER_nondet_int();
    external();
    if (x == 5) reach_error();
    return 0;
}
",
    );
    let (code, out, err) = check(&prog, &["--harness", harness.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(
        out.contains("input: __VERIFIER_nondet_int() = 5\n"),
        "{out}"
    );
    let text = std::fs::read_to_string(&harness).unwrap();
    assert!(text.contains(" external("), "{text}");
    if gcc_links("-m32", &dir) {
        let (code, err) = gcc_replay(&dir, "-m32", &prog, &harness);
        assert_eq!(code, 101, "{err}");
    }
}

#[test]
fn a_function_returns_as_many_pointer_levels_as_it_has_stars() {
    // `int **f(void)` returned an `int *` (one level whatever the `*`s),
    // and `h(f())` was refused as "a `int *` is used as a `int * *`".
    let dir = folder("pointer-levels");
    for (expected, code) in [("2", 0), ("1", 1)] {
        let prog = write(
            &dir,
            &format!("levels{expected}.c"),
            &format!(
                "{PREAMBLE}
int g = 1;
int *gp = &g;
int **f(void) {{ return &gp; }}
void h(int **pp) {{ **pp = 2; }}
int main(void) {{
    h(f());
    if (g != {expected}) reach_error();
    return 0;
}}
"
            ),
        );
        let (got, out, err) = check(&prog, &[]);
        assert_eq!(got, code, "g != {expected}: {out}\n{err}");
    }
}

#[test]
fn a_pointer_assignment_is_a_value() {
    // `q = (p = &g)` was refused as "pointer arithmetic".
    let dir = folder("pointer-assignment");
    for (expected, code) in [("3", 0), ("4", 1)] {
        let prog = write(
            &dir,
            &format!("chain{expected}.c"),
            &format!(
                "{PREAMBLE}
int g;
int *p;
int main(void) {{
    int *q;
    q = (p = &g);
    *q = 3;
    if (*p != {expected}) reach_error();
    return 0;
}}
"
            ),
        );
        let (got, out, err) = check(&prog, &[]);
        assert_eq!(got, code, "*p != {expected}: {out}\n{err}");
    }
}

#[test]
fn run_shows_a_variable_whose_address_is_taken_by_its_value() {
    // `g` lives in a cell; `run` printed the cell's reference (`g = -1`).
    let dir = folder("run-cell");
    let prog = write(
        &dir,
        "cell.c",
        "int g = 1;\nint main(void) {\n    int *p = &g;\n    *p = 7;\n    return 0;\n}\n",
    );
    let (code, out, err) = captured(command().arg("run").arg(&prog));
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.lines().any(|l| l == "g = 7"), "{out}");
}

#[test]
fn uninitialised_memory_is_named_by_what_holds_it() {
    // A variable whose address is taken by its name, allocated memory by
    // its allocation (they were all "the local at L:C").
    let dir = folder("uninit-memory");
    let prog = write(
        &dir,
        "memory.c",
        "#include <stdlib.h>
extern void reach_error(void);
struct S { int a; int b; };
void touch(int *q) { }
int main(void) {
    int x;
    touch(&x);
    int *p = malloc(sizeof(int));
    struct S *s = malloc(sizeof(struct S));
    if (x == 1 && *p == 2 && s->b == 3) reach_error();
    return 0;
}
",
    );
    let (code, out, err) = check(&prog, &[]);
    assert_eq!(code, 1, "{out}\n{err}");
    for name in [
        "x (uninitialised) = 1",
        "the object allocated at 8:14 (uninitialised) = 2",
        "member `b` of the object allocated at 9:19 (uninitialised) = 3",
    ] {
        assert!(out.contains(name), "no `{name}` in {out}");
    }
    assert!(!out.contains("the local at"), "{out}");
}

#[test]
fn structures_take_initialiser_lists_and_designators() {
    // `{1, 2}` and `{ .y = 4, .p = &v }`: members the list does not name
    // are 0, as gcc makes them. A wrong expectation is a bug that gcc's
    // build of the program reaches too.
    let dir = folder("struct-init");
    for (condition, code) in [("a.y != 0 || a.p != 0", 0), ("a.y != 1", 1)] {
        let prog = write(
            &dir,
            &format!("init{code}.c"),
            &format!(
                "{PREAMBLE}
struct P {{ int x; int y; int *p; }};
int v = 7;
struct P g = {{ .y = 4, .p = &v }};
int main(void) {{
    struct P a = {{ 1 }};
    struct P b = {{ 2, 3 }};
    if (g.x != 0 || g.y != 4 || *g.p != 7 || b.x + b.y != 5 || {condition}) reach_error();
    return 0;
}}
"
            ),
        );
        let harness = dir.join(format!("h{code}.c"));
        let (got, out, err) = check(&prog, &["--harness", harness.to_str().unwrap()]);
        assert_eq!(got, code, "{condition}: {out}\n{err}");
        if code == 1 && gcc_links("-m32", &dir) {
            let (exit, err) = gcc_replay(&dir, "-m32", &prog, &harness);
            assert_eq!(exit, 101, "{err}");
        }
        if code == 0 && gcc_links("-m32", &dir) {
            // The program reads no input: gcc's build runs it as wiser did.
            let exe = dir.join("safe");
            let (built, _, err) = captured(
                Command::new("gcc")
                    .args(["-m32", "-w"])
                    .arg(&prog)
                    .arg("-o")
                    .arg(&exe),
            );
            assert_eq!(built, 0, "{err}");
            let (exit, _, err) = captured(&mut Command::new(&exe));
            assert_eq!(exit, 0, "gcc's build reached the error: {err}");
        }
    }
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
    let (code, _, err) = check(&prog, &["--property", "no-overflow"]);
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
fn a_task_outside_the_subset_is_answered_unknown() {
    let dir = folder("task-unsupported");
    write(
        &dir,
        "prog.c",
        "int main(void) { double d = 1.5; return (int) d; }\n",
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
        why.contains("unsupported in C programs: floating-point types")
            && why.ends_with("prog.c:1:18)"),
        "{why}"
    );
    // The file on its own is refused: it is an input error there.
    let (code, _, err) = check(&dir.join("prog.c"), &[]);
    assert_eq!(code, 2);
    assert!(err.contains("unsupported in C programs"), "{err}");
}

#[test]
fn a_task_the_parser_cannot_read_is_answered_unknown() {
    // C89's implicit `int` (`main ()`): gcc compiles the task, lang-c does
    // not parse it. A task's program is valid C, so this is a limit of the
    // front end: `unknown`, not an error (which SV-COMP scores as a crash).
    let dir = folder("task-syntax");
    write(&dir, "prog.c", "main ()\n{\n  return 0;\n}\n");
    let yml = write(
        &dir,
        "prog.yml",
        "input_files: 'prog.c'\nproperties:\n  - property_file: unreach-call.prp\n    expected_verdict: true\n",
    );
    let (code, json) = check_json(&yml, &[]);
    assert_eq!(code, 3, "{json}");
    assert_eq!(json["verdict"], "unknown");
    assert_eq!(json["incomplete"][0], "unsupported");
    let why = json["unsupported"].as_str().unwrap_or_default();
    assert!(why.starts_with("syntax error"), "{why}");
    // The file on its own: an error, with its place.
    let (code, _, err) = check(&dir.join("prog.c"), &[]);
    assert_eq!(code, 2);
    assert!(err.contains("syntax error"), "{err}");
}
