//! SV-COMP's properties on C programs: `no-overflow`, `valid-memsafety`
//! with its three parts (an invalid dereference, an invalid free, a memory
//! leak), a task that lists several properties, and the `safe` verdicts
//! that wiser withholds where its model does not check a part.

mod support;

use serde_json::Value;
use support::c::{check, check_json, folder, PREAMBLE};
use support::write;

const MEMSAFETY: &[&str] = &["--property", "valid-memsafety"];

/// The kind and subproperty of a report's first bug.
fn first_bug(json: &Value) -> (String, String) {
    let b = &json["bugs"][0];
    (
        b["kind"].as_str().unwrap_or("-").to_string(),
        b["subproperty"].as_str().unwrap_or("-").to_string(),
    )
}

#[test]
fn a_leak_when_main_returns_is_valid_memtrack() {
    let dir = folder("leak");
    let prog = write(
        &dir,
        "leak.c",
        "#include <stdlib.h>
struct node { int v; struct node *next; };
int main(void) {
    struct node *a = malloc(sizeof(struct node));
    struct node *b = malloc(sizeof(struct node));
    a->next = b;
    free(a);
    return 0;
}
",
    );
    let (code, json) = check_json(&prog, MEMSAFETY);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["property"], "valid-memsafety");
    assert_eq!(
        first_bug(&json),
        ("memory_leak".into(), "valid-memtrack".into())
    );
    // By default (`all`) a leak is no bug: found after the program ended,
    // it keeps no path from ending, and the program is safe.
    let (code, out, err) = check(&prog, &[]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("verdict: safe"), "{out}");
    // Freeing the other one too: memory safe, every path explored.
    let fixed = write(
        &dir,
        "fixed.c",
        "#include <stdlib.h>
struct node { int v; struct node *next; };
int main(void) {
    struct node *a = malloc(sizeof(struct node));
    struct node *b = malloc(sizeof(struct node));
    a->next = b;
    free(a->next);
    free(a);
    return 0;
}
",
    );
    let (code, out, err) = check(&fixed, MEMSAFETY);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("verdict: safe"), "{out}");
}

#[test]
fn freeing_a_variable_is_an_invalid_free() {
    let dir = folder("invalid-free");
    let prog = write(
        &dir,
        "prog.c",
        "#include <stdlib.h>
int main(void) {
    int x = 1;
    int *p = &x;
    free(p);
    return 0;
}
",
    );
    let (code, json) = check_json(&prog, MEMSAFETY);
    assert_eq!(code, 1, "{json}");
    assert_eq!(
        first_bug(&json),
        ("invalid_free".into(), "valid-free".into())
    );
    assert_eq!(json["bugs"][0]["line"], 5);
}

#[test]
fn a_pointer_to_a_returned_functions_local_dangles() {
    let dir = folder("dangling");
    let prog = write(
        &dir,
        "prog.c",
        "int *g(void) {
    int x = 5;
    int *p = &x;
    return p;
}
int main(void) {
    int *q = g();
    return *q;
}
",
    );
    let (code, json) = check_json(&prog, MEMSAFETY);
    assert_eq!(code, 1, "{json}");
    assert_eq!(
        first_bug(&json),
        ("use_after_free".into(), "valid-deref".into())
    );
    assert_eq!(json["bugs"][0]["line"], 8);
    // A callee's local read before it returns is fine, and so is the
    // value it returns from one.
    let fine = write(
        &dir,
        "fine.c",
        "int g(void) {
    int x = 5;
    int *p = &x;
    *p = 6;
    return x;
}
int main(void) {
    return g() - 6;
}
",
    );
    let (code, out, err) = check(&fine, MEMSAFETY);
    assert_eq!(code, 0, "{out}\n{err}");
}

#[test]
fn memory_safety_is_not_claimed_where_wiser_does_not_check_it() {
    let dir = folder("unchecked");
    // A global that keeps an object reachable: no leak, `safe`; one that
    // lets go of it: a leak (reachability from the globals, `leaks.rs`).
    let global = write(
        &dir,
        "global.c",
        "#include <stdlib.h>
struct node { int v; struct node *next; };
int *keep;
static struct { struct node *first; } box;
int main(void) {
    keep = malloc(sizeof(int));
    struct node *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    a->next = b;
    b->next = 0;
    box.first = a;
    static struct node *spare;
    spare = malloc(sizeof *spare);
    spare->next = LOSE;
    return 0;
}
",
    );
    let fine = write(
        &dir,
        "fine.c",
        &std::fs::read_to_string(&global)
            .unwrap()
            .replace("LOSE", "0"),
    );
    let (code, json) = check_json(&fine, MEMSAFETY);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["unchecked"], Value::Array(vec![]));
    // The chain from `box` cut: `b` is unreachable (gcc's
    // LeakSanitizer says so too).
    let lost = write(
        &dir,
        "lost.c",
        &std::fs::read_to_string(&global)
            .unwrap()
            .replace("LOSE", "0;\n    a->next = 0"),
    );
    let (code, json) = check_json(&lost, MEMSAFETY);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"][0]["kind"], "memory_leak");
    assert_eq!(json["bugs"][0]["subproperty"], "valid-memtrack");
    // Objects of bytes (`malloc(n)`, as SV-COMP's `zalloc_or_die`) take
    // the type of the first pointer with pointers they are used as: a
    // chain of them cut is a leak, kept it is not.
    let zalloc = "#include <stdlib.h>
#include <string.h>
struct node { struct node *next; int v; };
struct node *keep;
static void *zalloc(unsigned n) { void *p = malloc(n); memset(p, 0, n); return p; }
int main(void) {
    keep = zalloc(sizeof *keep);
    struct node *n = zalloc(sizeof *n);
    n->next = zalloc(sizeof *n);
    keep->next = n;
    CUT
    return 0;
}
";
    let kept = write(&dir, "kept.c", &zalloc.replace("CUT", ""));
    let (_, json) = check_json(&kept, MEMSAFETY);
    // (Not `safe`: the bounds of an object of bytes used as a structure
    // are checked in bytes, which the report lists.)
    assert_eq!(json["bugs"], Value::Array(vec![]), "{json}");
    let unchecked = json["unchecked"].as_array().unwrap();
    assert!(
        unchecked.iter().all(|u| u["kind"] != "memory_leak"),
        "{json}"
    );
    let cut = write(&dir, "cut.c", &zalloc.replace("CUT", "n->next = 0;"));
    let (code, json) = check_json(&cut, MEMSAFETY);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"][0]["kind"], "memory_leak");
    // A program that also copies bytes (`memcpy` can put a pointer where
    // an object's type does not say): whether a global reaches an object
    // is not decided, and there is no `safe`.
    let bytes = write(
        &dir,
        "bytes.c",
        &zalloc.replace("CUT", "struct node *m = n; memcpy(&m, &n, sizeof m);"),
    );
    let (code, json) = check_json(&bytes, MEMSAFETY);
    assert_eq!(code, 3, "{json}");
    assert_eq!(json["verdict"], "unknown");
    assert!(json["incomplete"]
        .as_array()
        .unwrap()
        .contains(&Value::from("unchecked")));
    assert_eq!(json["unchecked"][0]["kind"], "memory_leak");
    let (_, out, _) = check(&bytes, MEMSAFETY);
    assert!(
        out.contains("unchecked memory_leak: the program copies bytes"),
        "{out}"
    );
    // Under unreach-call the same program is safe: nothing unchecked is
    // in that property.
    let (code, json) = check_json(&bytes, &["--property", "unreach-call"]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["unchecked"], Value::Array(vec![]));

    // Comparing pointers after a free: malloc may reuse the address
    // (SV-COMP's cmp-freed-ptr expects a double free here), a choice of
    // the environment that the witness names.
    let reuse = write(
        &dir,
        "reuse.c",
        "#include <stdlib.h>
int main(void) {
    int *y = malloc(sizeof(int));
    free(y);
    int *x = malloc(sizeof(int));
    if (x == y) free(x);
    free(x);
    return 0;
}
",
    );
    let (code, json) = check_json(&reuse, MEMSAFETY);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"][0]["kind"], "double_free");
    assert!(json["bugs"][0]["message"]
        .as_str()
        .unwrap()
        .contains("a freed object's address is reused at 6:9 = 1"));
    assert_eq!(json["unchecked"], Value::Array(vec![]));
}

/// `exit` and `abort` end the program with every frame's locals alive,
/// which wiser does not walk: where no object `malloc` made is live then,
/// no leak is possible and `safe` stands; where one is, the path is
/// `unchecked` under `valid-memtrack` (never a bug), and only there.
#[test]
fn exit_and_abort_leave_memtrack_undecided_only_where_objects_are_live() {
    let dir = folder("exit-leaks");
    // The idiom: `abort` when `malloc` fails. It never fails by default,
    // and when it may, nothing is live at the `abort`.
    let idiom = write(
        &dir,
        "idiom.c",
        "#include <stdlib.h>
int main(void) {
    int *p = malloc(sizeof *p);
    if (!p) abort();
    *p = 1;
    free(p);
    return 0;
}
",
    );
    for extra in [&[][..], &["--malloc-may-fail"][..]] {
        let (code, json) = check_json(&idiom, &[MEMSAFETY, extra].concat());
        assert_eq!(
            (code, &json["verdict"]),
            (0, &Value::from("safe")),
            "{json}"
        );
        assert_eq!(json["unchecked"], Value::Array(vec![]), "{json}");
    }
    // `exit` while `p` is live: not decided, and said where (only there:
    // nothing is live at the first `exit`).
    let live = PREAMBLE.to_string()
        + "#include <stdlib.h>
int main(void) {
    int n = __VERIFIER_nondet_int();
    if (n == 5) exit(3);
    int *p = malloc(sizeof *p);
    if (n > 10) exit(1);
    *p = n;
    FREE
    return 0;
}
";
    let exits = write(&dir, "exits.c", &live.replace("FREE", "free(p);"));
    let line = PREAMBLE.lines().count() as u64 + 6;
    let (code, json) = check_json(&exits, MEMSAFETY);
    assert_eq!(code, 3, "{json}");
    assert_eq!(json["bugs"], Value::Array(vec![]), "{json}");
    assert_eq!(json["incomplete"], serde_json::json!(["unchecked_place"]));
    assert_eq!(json["unchecked"].as_array().unwrap().len(), 1, "{json}");
    assert_eq!(json["unchecked"][0]["kind"], "memory_leak", "{json}");
    assert_eq!(json["unchecked"][0]["line"], line, "{json}");
    let schema = support::schema("wiser-report.schema.json");
    support::assert_valid(&schema, &json, "exits.c");
    let (_, out, _) = check(&exits, MEMSAFETY);
    assert!(
        out.contains(&format!(
            "unchecked memory_leak at {}:{line}:17: the program can end by `exit`",
            exits.display()
        )),
        "{out}"
    );
    // The other engines agree: no bug, no `safe`.
    for engine in ["bmc", "verify"] {
        let out = support::wiser(&[
            engine,
            exits.to_str().unwrap(),
            "--property",
            "valid-memsafety",
            "--format",
            "json",
        ]);
        let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        assert_eq!(out.status.code(), Some(3), "{engine}: {json}");
        assert_eq!(json["bugs"], Value::Array(vec![]), "{engine}: {json}");
    }
    // Every error is a bug to the fuzzer; this one is no error.
    let out = support::wiser(&["fuzz", exits.to_str().unwrap(), "--timeout", "5"]);
    assert_eq!(out.status.code(), Some(3), "{}", support::describe(&out));
    // Nothing of the kind is in the other properties: `safe`.
    for property in ["unreach-call", "all"] {
        let (code, json) = check_json(&exits, &["--property", property]);
        assert_eq!(code, 0, "{property}: {json}");
        assert_eq!(json["unchecked"], Value::Array(vec![]), "{json}");
    }
    // A leak on the path that returns is still found.
    let leaks = write(&dir, "leaks.c", &live.replace("FREE", ""));
    let (code, json) = check_json(&leaks, MEMSAFETY);
    assert_eq!(code, 1, "{json}");
    assert_eq!(
        first_bug(&json),
        ("memory_leak".into(), "valid-memtrack".into())
    );
    // Freed before the `exit`: nothing live, `safe`.
    let freed = write(
        &dir,
        "freed.c",
        &live
            .replace("exit(1)", "{ free(p); exit(1); }")
            .replace("FREE", "free(p);"),
    );
    let (code, json) = check_json(&freed, MEMSAFETY);
    assert_eq!(code, 0, "{json}");
}

#[test]
fn no_overflow_reports_only_signed_overflow() {
    let dir = folder("no-overflow");
    let prog = write(
        &dir,
        "prog.c",
        &format!(
            "{PREAMBLE}
int main(void) {{
    int x = __VERIFIER_nondet_int();
    if (x == 3) reach_error();
    if (x > 10) return x * 1000;
    return 0;
}}
"
        ),
    );
    let (code, json) = check_json(&prog, &["--property", "no-overflow"]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["property"], "no-overflow");
    assert_eq!(json["bugs"].as_array().unwrap().len(), 1, "{json}");
    assert_eq!(json["bugs"][0]["kind"], "signed_overflow");
    // Without the overflow, the reach_error call is outside the
    // property: unknown, not safe.
    let bounded = write(
        &dir,
        "bounded.c",
        &format!(
            "{PREAMBLE}
int main(void) {{
    int x = __VERIFIER_nondet_int();
    if (x == 3) reach_error();
    return 0;
}}
"
        ),
    );
    let (code, json) = check_json(&bounded, &["--property", "no-overflow"]);
    assert_eq!(code, 3, "{json}");
    assert_eq!(json["outside_property"][0]["kind"], "fail");
}

#[test]
fn a_variable_length_array_is_no_larger_than_the_largest_object() {
    let dir = folder("vla-size");
    // Under ILP32 no object exceeds 2^31 - 1 bytes, so `int a[n]` has
    // `n <= 2^29 - 1` and `n * 4` fits; without the array, `n` may be
    // 2^29 and the product overflows.
    for (decl, code) in [("int a[n]; a[0] = 0;", 0), ("", 1)] {
        let prog = write(
            &dir,
            &format!("prog{code}.c"),
            &format!(
                "{PREAMBLE}
int main(void) {{
    int n = __VERIFIER_nondet_int();
    if (n <= 0) return 0;
    {decl}
    return n * 4;
}}
"
            ),
        );
        let (got, json) = check_json(&prog, &["--property", "no-overflow"]);
        assert_eq!(got, code, "{decl}: {json}");
        if code == 1 {
            assert_eq!(json["bugs"][0]["kind"], "signed_overflow", "{json}");
        } else {
            assert_eq!(json["verdict"], "safe", "{json}");
        }
    }
}

#[test]
fn a_task_with_several_properties_is_checked_for_the_one_asked() {
    let dir = folder("task-properties");
    write(
        &dir,
        "prog.c",
        &format!(
            "{PREAMBLE}
int main(void) {{
    int x = __VERIFIER_nondet_int();
    if (x > 0 && x < 5) return x + 1;
    return 0;
}}
"
        ),
    );
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
    let task = write(
        &dir,
        "task.yml",
        "format_version: '2.0'
input_files: 'prog.c'
properties:
  - property_file: properties/no-overflow.prp
    expected_verdict: true
  - property_file: properties/unreach-call.prp
    expected_verdict: true
options:
  language: C
  data_model: ILP32
",
    );
    // By default, unreach-call.
    let (code, json) = check_json(&task, &[]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["property"], "unreach-call");
    let (code, json) = check_json(&task, &["--property", "no-overflow"]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["property"], "no-overflow");
    assert_eq!(json["expected_verdict"], true);
    let (_, out, _) = check(&task, &["--property", "no-overflow"]);
    assert!(
        out.contains("task: expected verdict true (no signed overflow)"),
        "{out}"
    );
}
