//! C as people write it: what a witness names (uninitialised memory,
//! locals assigned before use, `printf`'s results), `<stdio.h>`, pointers
//! returned and assigned, structures with initialiser lists, and tasks the
//! parser cannot read.

mod support;

use serde_json::Value;
use std::process::Command;
use support::c::{check, check_json, folder, gcc_links, gcc_replay, PREAMBLE};
use support::{captured, command, write};

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
    // A local structure's first member is the member, not the variable
    // whose object holds it.
    let local = write(
        &dir,
        "local.c",
        "extern void reach_error(void);
struct S { int a; int b; };
int main(void) {
    struct S v;
    if (v.a == 4) reach_error();
    return 0;
}
",
    );
    let (code, out, err) = check(&local, &[]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(
        out.contains("member `a` of the object allocated at 4:14 (uninitialised) = 4"),
        "{out}"
    );
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
fn a_task_the_parser_cannot_read_is_answered_unknown() {
    // C89's implicit `int` on a function other than `main` (`f ()`): gcc
    // compiles the task, lang-c does not parse it. A task's program is
    // valid C, so this is a limit of the front end: `unknown`, not an
    // error (which SV-COMP scores as a crash).
    let dir = folder("task-syntax");
    write(
        &dir,
        "prog.c",
        "f ()\n{\n  return 0;\n}\nint main(void) { return f(); }\n",
    );
    // An implicit-`int` `main ()` itself reads as `int main ()`.
    let old_main = write(&dir, "old_main.c", "main ()\n{\n  return 0;\n}\n");
    let (code, out, err) = check(&old_main, &[]);
    assert_eq!(code, 0, "{out}\n{err}");
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
