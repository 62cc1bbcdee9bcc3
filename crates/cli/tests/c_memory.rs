//! C's memory model: a pointer is an object and an offset
//! (`wiser_ir::pointer`), so arrays on the heap, pointer arithmetic,
//! subscripts of pointers, pointer differences and orderings work, and
//! every access is checked against its object's bounds.

mod support;

use serde_json::Value;
use support::c::{check, check_json, folder, gcc_links, gcc_replay, PREAMBLE};
use support::write;

const MEMSAFETY: &[&str] = &["--property", "valid-memsafety"];

#[test]
fn a_heap_array_walked_by_pointers_finds_its_bug_and_gcc_replays_it() {
    let dir = folder("heap-array");
    let prog = write(
        &dir,
        "prog.c",
        &format!(
            "{PREAMBLE}#include <stdlib.h>
int main(void) {{
    int n = __VERIFIER_nondet_int();
    if (n <= 0 || n > 6) return 0;
    int *a = malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) a[i] = i;
    int s = 0;
    for (int *q = a; q < a + n; q++) s += *q;
    int *last = &a[0] + (n - 1);
    if (last - a == 4 && s == 10) reach_error();
    free(a);
    return 0;
}}
"
        ),
    );
    let (code, json) = check_json(&prog, &[]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"][0]["kind"], "fail");
    assert_eq!(json["bugs"][0]["reads"], Value::from(vec![5]));
    if gcc_links("-m32", &dir) {
        let harness = dir.join("harness.c");
        let (code, out, err) = check(&prog, &["--harness", harness.to_str().unwrap()]);
        assert_eq!(code, 1, "{out}\n{err}");
        let (code, err) = gcc_replay(&dir, "-m32", &prog, &harness);
        assert_eq!(code, 101, "{err}");
    }
    // Without the bug's condition the program is safe, memory safety
    // included (every element written before it is read, freed once).
    let fixed = write(
        &dir,
        "fixed.c",
        &std::fs::read_to_string(&prog)
            .unwrap()
            .replace("s == 10", "s == 11"),
    );
    let (code, out, err) = check(&fixed, MEMSAFETY);
    assert_eq!(code, 0, "{out}\n{err}");
}

#[test]
fn an_access_past_the_end_is_out_of_bounds_at_its_place() {
    let dir = folder("past-end");
    let prog = write(
        &dir,
        "prog.c",
        &format!(
            "{PREAMBLE}#include <stdlib.h>
int main(void) {{
    int n = __VERIFIER_nondet_int();
    if (n <= 0 || n > 4) return 0;
    int *a = malloc(n * sizeof(int));
    for (int i = 0; i <= n; i++)
        a[i] = 0;
    free(a);
    return 0;
}}
"
        ),
    );
    let (code, json) = check_json(&prog, MEMSAFETY);
    assert_eq!(code, 1, "{json}");
    let bug = &json["bugs"][0];
    assert_eq!(bug["kind"], "out_of_bounds");
    assert_eq!(bug["subproperty"], "valid-deref");
    assert_eq!(bug["line"], 12);
    // One before the start is out of bounds too, and so is a pointer
    // into a freed array.
    for (body, kind) in [
        ("int *p = a + 1; p -= 2; *p = 1;", "out_of_bounds"),
        ("free(a); a[0] = 1; return 0;", "use_after_free"),
    ] {
        let other = write(
            &dir,
            "other.c",
            &format!(
                "#include <stdlib.h>
int main(void) {{
    int *a = malloc(3 * sizeof(int));
    {body}
    free(a);
    return 0;
}}
"
            ),
        );
        let (code, json) = check_json(&other, MEMSAFETY);
        assert_eq!(code, 1, "{body}: {json}");
        assert_eq!(json["bugs"][0]["kind"], kind, "{body}");
    }
}

#[test]
fn calloc_zeroes_every_element_and_freeing_inside_an_object_is_invalid() {
    let dir = folder("calloc");
    let prog = write(
        &dir,
        "prog.c",
        &format!(
            "{PREAMBLE}#include <stdlib.h>
int main(void) {{
    unsigned n = __VERIFIER_nondet_int();
    if (n == 0 || n > 5) return 0;
    long *a = calloc(n, sizeof(long));
    for (unsigned i = 0; i < n; i++)
        if (a[i] != 0) reach_error();
    free(a);
    return 0;
}}
"
        ),
    );
    let (code, out, err) = check(&prog, &[]);
    assert_eq!(code, 0, "{out}\n{err}");
    let interior = write(
        &dir,
        "interior.c",
        "#include <stdlib.h>
int main(void) {
    char *s = malloc(4 * sizeof(char));
    free(s + 1);
    return 0;
}
",
    );
    let (code, json) = check_json(&interior, MEMSAFETY);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"][0]["kind"], "invalid_free");
}

#[test]
fn arrays_of_structures_and_of_pointers_live_on_the_heap() {
    let dir = folder("structs");
    let prog = write(
        &dir,
        "prog.c",
        &format!(
            "{PREAMBLE}#include <stdlib.h>
struct point {{ int x; int y; }};
int main(void) {{
    struct point *ps = calloc(3, sizeof(struct point));
    ps[1].x = 5;
    (ps + 2)->y = 7;
    struct point *q = &ps[0];
    q++;
    int **rows = malloc(2 * sizeof(int *));
    rows[0] = malloc(sizeof(int));
    *rows[0] = ps[2].y;
    if (q->x + ps[0].y + *rows[0] != 12) reach_error();
    free(rows[0]);
    free(rows);
    free(ps);
    return 0;
}}
"
        ),
    );
    let (code, out, err) = check(&prog, MEMSAFETY);
    assert_eq!(code, 0, "{out}\n{err}");
    let (code, out, err) = check(&prog, &[]);
    assert_eq!(code, 0, "{out}\n{err}");
    // A member's address is a pointer like any other: `*y` is `p.y`.
    let member = write(
        &dir,
        "member.c",
        "extern void reach_error(void);
struct point { int x; int y; };
int main(void) {
    struct point p = {1, 2};
    int *y = &p.y;
    *y = 5;
    if (p.y == 5 && p.x == 1) reach_error();
    return 0;
}
",
    );
    let (code, out, err) = check(&member, &[]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.contains("error function called at"), "{out}");
}

#[test]
fn arrays_of_structures_and_pointers_as_variables_live_in_objects() {
    let dir = folder("blocks");
    let prog = write(
        &dir,
        "prog.c",
        &format!(
            "{PREAMBLE}
struct cell {{ int v; struct cell *next; }};
struct cell table[4];
void link(struct cell a[], int n) {{
    for (int i = 0; i + 1 < n; i++) a[i].next = &a[i + 1];
}}
int sum(struct cell *c) {{
    int s = 0;
    for (; c; c = c->next) s += c->v;
    return s;
}}
int main(void) {{
    struct cell local[3];
    int x = 0;
    int *ps[2];
    ps[0] = &x;
    ps[1] = ps[0];
    for (int i = 0; i < 3; i++) {{ local[i].v = i + 1; local[i].next = 0; }}
    link(local, 3);
    *ps[1] = sum(local);
    if (table[3].v != 0 || table[3].next != 0) reach_error();
    if (x == 6) reach_error();
    return 0;
}}
"
        ),
    );
    let (code, json) = check_json(&prog, &[]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"][0]["line"], 27, "{json}");
    // An uninitialised array declared in a loop gets a fresh object each
    // time round, whose elements hold any value: an input.
    let fresh = write(
        &dir,
        "fresh.c",
        &format!(
            "{PREAMBLE}
int main(void) {{
    for (int k = 0; k < 2; k++) {{
        int a[3];
        if (k == 1 && a[2] == 7) reach_error();
        a[2] = 7;
    }}
    return 0;
}}
"
        ),
    );
    let (code, out, err) = check(&fresh, &[]);
    assert_eq!(code, 1, "{out}\n{err}");
}

#[test]
fn an_access_behind_a_short_circuit_is_checked_only_where_it_runs() {
    let dir = folder("guarded");
    let prog = write(
        &dir,
        "prog.c",
        &format!(
            "{PREAMBLE}#include <stdlib.h>
struct node {{ int v; struct node *next; }};
int main(void) {{
    struct node *p = 0;
    if (__VERIFIER_nondet_int()) {{
        p = malloc(sizeof(struct node));
        p->next = malloc(sizeof(struct node));
        p->next->v = 3;
        p->next->next = 0;
    }}
    int *a = malloc(2 * sizeof(int));
    a[0] = 1;
    a[1] = 2;
    int i = __VERIFIER_nondet_int();
    if (p && p->next->v == 4) reach_error();
    if (i >= 0 && i < 2 && a[i] == 3) reach_error();
    return 0;
}}
"
        ),
    );
    let (code, out, err) = check(&prog, &[]);
    assert_eq!(code, 0, "{out}\n{err}");
}

#[test]
fn a_pointer_to_a_structure_never_defined_is_passed_around() {
    let dir = folder("incomplete");
    let prog = write(
        &dir,
        "prog.c",
        "struct hidden;
struct box { struct hidden *h; int v; };
struct hidden *keep(struct hidden *h) { return h; }
int main(void) {
    struct box b;
    b.h = keep(0);
    b.v = 1;
    return b.h == 0 ? b.v - 1 : 2;
}
",
    );
    let (code, out, err) = check(&prog, &[]);
    assert_eq!(code, 0, "{out}\n{err}");
}

#[test]
fn a_pointer_assignment_is_a_condition() {
    let dir = folder("assign-cond");
    let prog = write(
        &dir,
        "prog.c",
        &format!(
            "{PREAMBLE}#include <stdlib.h>
struct list {{ struct list *next; }};
struct iter {{ struct list *list; }};
int main(void) {{
    struct iter it;
    struct list *l = 0;
    if (__VERIFIER_nondet_int()) l = malloc(sizeof(struct list));
    if ((it.list = l)) {{
        free(it.list);
        reach_error();
    }}
    return 0;
}}
"
        ),
    );
    let (code, json) = check_json(&prog, &[]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"][0]["kind"], "fail");
    assert_eq!(json["bugs"][0]["reads"], Value::from(vec![1]));
}

#[test]
fn structures_are_copied_by_assignment_parameters_and_results() {
    let dir = folder("by-value");
    let prog = write(
        &dir,
        "prog.c",
        &format!(
            "{PREAMBLE}
struct pt {{ int x; int y; }};
struct pt mk(int x, int y) {{ struct pt p; p.x = x; p.y = y; return p; }}
int sum(struct pt p) {{ p.x += 100; return p.x + p.y; }}
int main(void) {{
    struct pt a = mk(1, __VERIFIER_nondet_int() & 15);
    struct pt b;
    b = a;
    b.x = 5;
    int s = sum(b);
    struct pt arr[2];
    arr[1] = b;
    struct pt *q = &arr[1];
    struct pt c = *q;
    if (a.x == 1 && b.x == 5 && s == 112 && c.y == 7 && arr[1].x == 5) reach_error();
    return 0;
}}
"
        ),
    );
    let (code, json) = check_json(&prog, &[]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"][0]["kind"], "fail");
    let nondet: Vec<&Value> = json["bugs"][0]["nondet"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["function"] == "__VERIFIER_nondet_int")
        .collect();
    assert_eq!(nondet.len(), 1, "{json}");
    assert_eq!(nondet[0]["value"], 7);
    // The callee's copy is its own: the caller's `b.x` stays 5.
    let (code, out, err) = check(
        &write(
            &dir,
            "own.c",
            &std::fs::read_to_string(&prog)
                .unwrap()
                .replace("b.x == 5 && s == 112", "b.x == 105"),
        ),
        &[],
    );
    assert_eq!(code, 0, "{out}\n{err}");
}

#[test]
fn pointers_to_arrays_and_allocations_of_bytes() {
    let dir = folder("ptr-to-array-bytes");
    // `typedef void *pair_t[2]`: a pointer to a whole array, `*lp` the
    // array itself, and any two pointer types share the pointers' memory.
    let prog = write(
        &dir,
        "pairs.c",
        &format!(
            "{PREAMBLE}#include <stdlib.h>
#include <string.h>
typedef void *pair_t[2];
int main(void) {{
    static pair_t list;
    int x = __VERIFIER_nondet_int();
    pair_t *lp = &list;
    (*lp)[1] = &x;
    int **cursor = (int **)&(*lp)[1];
    if (**cursor == 3 && (*lp)[0] == 0) reach_error();
    memset(*lp, 0, sizeof *lp);
    if (list[1] != 0) reach_error();
    return 0;
}}
"
        ),
    );
    let (code, json) = check_json(&prog, &[]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"].as_array().unwrap().len(), 1, "{json}");
    assert_eq!(json["bugs"][0]["reads"], Value::from(vec![3]), "{json}");
    // `malloc(16)` of a type it is not told: bytes. Used as bytes, its
    // bounds are exact; freed or leaked like any object.
    let bytes = write(
        &dir,
        "bytes.c",
        &format!(
            "{PREAMBLE}#include <stdlib.h>
int main(void) {{
    void *lo = malloc(16);
    char *hi = malloc(4);
    if (!hi) return 0;
    int i = __VERIFIER_nondet_int();
    if (i >= 0) hi[i] = 1;
    free(lo);
    free(hi);
    return 0;
}}
"
        ),
    );
    let (code, json) = check_json(&bytes, MEMSAFETY);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"][0]["kind"], "out_of_bounds", "{json}");
    assert_eq!(json["bugs"][0]["reads"], Value::from(vec![4]), "{json}");
    assert!(json["unchecked"].as_array().unwrap().is_empty(), "{json}");
    // Used as `int`s, its bounds count bytes: not every out-of-bounds
    // access is then checked, and the report says so.
    let ints = write(
        &dir,
        "ints.c",
        "#include <stdlib.h>
int main(void) {
    int *p = malloc(8);
    if (p) { p[1] = 2; free(p); }
    return 0;
}
",
    );
    let (code, json) = check_json(&ints, MEMSAFETY);
    assert_ne!(code, 0, "{json}");
    assert_eq!(json["unchecked"][0]["kind"], "out_of_bounds", "{json}");
}

#[test]
fn realloc_moves_the_elements_to_a_new_object() {
    let dir = folder("realloc");
    let prog = write(
        &dir,
        "grow.c",
        &format!(
            "{PREAMBLE}#include <stdlib.h>
int main(void) {{
    int *a = realloc(0, 2 * sizeof(int));
    if (!a) return 0;
    a[0] = 5;
    a[1] = __VERIFIER_nondet_int();
    int *b = realloc(a, 4 * sizeof(int));
    if (!b) return 0;
    b[3] = 1;
    if (b[0] == 5 && b[1] == 9 && b[3] == 1) reach_error();
    int *c = realloc(b, sizeof(int));
    free(c);
    return 0;
}}
"
        ),
    );
    let (code, json) = check_json(&prog, &["--property", "unreach-call"]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"][0]["reads"], Value::from(vec![9]), "{json}");
    support::c::assert_gcc_confirms(&dir, &prog);
    // Memory safe, every object freed once.
    let text = std::fs::read_to_string(&prog)
        .unwrap()
        .replace("reach_error();", "{}");
    let prog = write(&dir, "safe.c", &text);
    let (code, out, err) = check(&prog, MEMSAFETY);
    assert_eq!(code, 0, "{out}\n{err}");
    // The old pointer dangles; the shrunk object ends sooner.
    for (change, kind) in [
        ("b[3] = 1;", "b[3] = 1; a[0] = 2;"),
        ("free(c);", "c[1] = 0; free(c);"),
    ] {
        let bad = write(
            &dir,
            "bad.c",
            &std::fs::read_to_string(&prog)
                .unwrap()
                .replace(change, kind),
        );
        let (code, json) = check_json(&bad, MEMSAFETY);
        assert_eq!(code, 1, "{json}");
        let want = if kind.contains("a[0]") {
            "use_after_free"
        } else {
            "out_of_bounds"
        };
        assert_eq!(json["bugs"][0]["kind"], want, "{json}");
    }
}

#[test]
fn with_malloc_may_fail_a_missing_null_check_is_a_bug() {
    let dir = folder("malloc-may-fail");
    let prog = write(
        &dir,
        "nocheck.c",
        "#include <stdlib.h>
#include <stdio.h>
struct node { int v; struct node *next; };
int main(void) {
    struct node *a = malloc(sizeof(struct node));
    printf(\"allocated\\n\");
    struct node *b = malloc(sizeof(struct node));
    if (!a) return 1;
    a->v = 1;
    b->v = 2;
    free(a);
    free(b);
    return 0;
}
",
    );
    // By default `malloc` never fails: safe.
    let (code, out, err) = check(&prog, MEMSAFETY);
    assert_eq!(code, 0, "{out}\n{err}");
    // With failing allocations, the unchecked `b` is dereferenced.
    let (code, json) = check_json(&prog, &["--malloc-may-fail"]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"][0]["kind"], "null_dereference", "{json}");
    assert_eq!(json["bugs"][0]["line"], 10, "{json}");
    let names: Vec<&str> = json["bugs"][0]["nondet"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["variable"].as_str())
        .collect();
    assert!(names.contains(&"malloc at 7:22 fails"), "{json}");
    // The witness replays with `wiser run` under the same option.
    let reads: Vec<String> = support::c::first_reads(&json)
        .iter()
        .map(i64::to_string)
        .collect();
    let (code, out, err) =
        support::c::run(&prog, &["--malloc-may-fail", "--reads", &reads.join(",")]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.contains("null dereference"), "{out}");
    // gcc's build with the harness (which makes the second `malloc` of the
    // program fail, and none of glibc's own) crashes at that line under
    // AddressSanitizer.
    if gcc_links("-m32", &dir) {
        let harness = dir.join("harness.c");
        let (code, _, err) = check(
            &prog,
            &["--malloc-may-fail", "--harness", harness.to_str().unwrap()],
        );
        assert_eq!(code, 1, "{err}");
        let exe = dir.join("asan");
        let built = std::process::Command::new("gcc")
            .args(["-m32", "-g", "-w", "-fsanitize=address", "-o"])
            .arg(&exe)
            .arg(&prog)
            .arg(&harness)
            .status()
            .unwrap();
        if built.success() {
            let out = std::process::Command::new(&exe).output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                err.contains("SEGV") && err.contains("nocheck.c:10"),
                "{err}"
            );
        }
    }
}

#[test]
fn a_freed_address_may_be_reused_by_a_later_malloc() {
    let dir = folder("address-reuse");
    // SV-COMP's cmp-freed-ptr: `x` may get `y`'s freed address, and then
    // `x` is freed twice.
    let reused = write(
        &dir,
        "reused.c",
        "#include <stdlib.h>
struct T { struct T *next; };
int main(void) {
    struct T *y = malloc(sizeof *y);
    free(y);
    struct T *x = malloc(sizeof *x);
    if (x == y)
        free(x);
    free(x);
    return 0;
}
",
    );
    let harness = dir.join("harness.c");
    let mut args = MEMSAFETY.to_vec();
    args.extend(["--harness", harness.to_str().unwrap()]);
    let (code, json) = check_json(&reused, &args);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"][0]["kind"], "double_free");
    assert_eq!(
        json["bugs"][0]["nondet"][0]["variable"],
        "a freed object's address is reused at 7:9"
    );
    assert_eq!(
        json["unchecked"],
        Value::from(Vec::<Value>::new()),
        "{json}"
    );
    // glibc's malloc gives `y`'s block to `x` at once, and its own check
    // stops the second `free` (AddressSanitizer's quarantine never
    // reuses an address).
    if gcc_links("-m32", &dir) {
        let (code, err) = gcc_replay(&dir, "-m32", &reused, &harness);
        assert_ne!(code, 0, "{err}");
        assert!(err.contains("double free"), "{err}");
    }
    // An object alive when the other was freed never has its address.
    let alive = write(
        &dir,
        "alive.c",
        &format!(
            "{PREAMBLE}#include <stdlib.h>
int main(void) {{
    int *p = malloc(sizeof(int));
    int *q = malloc(sizeof(int));
    free(q);
    if (p == q) reach_error();
    int *r = malloc(sizeof(int));
    if (r != q) {{ free(r); free(p); return 0; }}
    free(p);
    free(r);
    return 0;
}}
"
        ),
    );
    let (code, json) = check_json(&alive, MEMSAFETY);
    assert_eq!(code, 0, "{json}");
    let (code, json) = check_json(&alive, &[]);
    assert_eq!(code, 0, "{json}");
}

/// A generic allocator and byte functions on `void *`s: what the bytes
/// cover is learnt from the object when the program runs.
const GENERIC: &str = r#"#include <stdlib.h>
#include <string.h>
#include <assert.h>
struct node { struct node *next; int v; long long w; };
static void *zalloc(size_t n) { void *p = malloc(n); if (!p) abort(); return memset(p, 0, n); }
static void wipe(void *p, size_t n) { memset(p, 0xff, n); }
long long big[2];
int main(void) {
    struct node *a = zalloc(sizeof *a);
    assert(a->next == 0 && a->v == 0 && a->w == 0);
    int *xs = zalloc(4 * sizeof(int));
    assert(xs[3] == 0);
    struct node b;
    b.v = 3; b.next = a;
    wipe(&b, sizeof b);
    assert(b.v == -1 && b.w == -1);
    struct node c;
    void *vc = &c;
    memcpy(vc, (void *)a, sizeof c);
    assert(c.next == 0 && c.v == 0);
    char *s = zalloc(8);
    memset(s, 'a', 3);
    assert(strlen(s) == 3);
    memset(big, 0xff, sizeof big);
    assert(big[1] == -1);
    free(s); free(xs); free(a);
    return 0;
}
"#;

#[test]
fn byte_functions_on_void_pointers_learn_the_objects_layout() {
    let dir = folder("generic-bytes");
    // No bug, and not `safe`: `malloc(n)` of bytes used as a structure
    // leaves its bounds unchecked (the report says so).
    support::c::assert_facts(
        &dir,
        GENERIC,
        support::c::Facts::NoBug,
        0,
        &[
            ("a->w == 0", "a->w == 1"),
            ("b.w == -1", "b.w == 0"),
            ("c.v == 0", "c.v == 2"),
            ("strlen(s) == 3", "strlen(s) == 8"),
            ("big[1] == -1", "big[1] == 255"),
        ],
    );
    // Past the object: each store is checked.
    let over = write(
        &dir,
        "over.c",
        "#include <stdlib.h>
#include <string.h>
static void clear(void *p, size_t n) { memset(p, 0, n); }
int main(void) { char *p = malloc(4); if (!p) return 0; clear(p, 5); free(p); return 0; }
",
    );
    let (code, json) = check_json(&over, &[]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"][0]["kind"], "out_of_bounds");
}

#[test]
fn a_pointer_to_a_structure_never_defined_converts_like_void() {
    // SV-COMP's test-0237: the object behind `struct hidden *` is bytes
    // `malloc` made, used through a `void **`.
    let dir = folder("incomplete-struct");
    let text = "extern void reach_error(void);
#include <stdlib.h>
struct hidden;
struct node { struct hidden *blob; };
int main(void) {
    struct node n;
    n.blob = malloc(16);
    if (!n.blob) return 0;
    *((void **)n.blob) = &n;
    void *back = *((void **)n.blob);
    if (back COND (void *)&n) reach_error();
    free(n.blob);
    return 0;
}
";
    let safe = write(&dir, "safe.c", &text.replace("COND", "!="));
    let (code, out, err) = check(&safe, &["--property", "unreach-call"]);
    assert_eq!(code, 0, "{out}\n{err}");
    let bug = write(&dir, "bug.c", &text.replace("COND", "=="));
    support::c::assert_gcc_confirms(&dir, &bug);
}
