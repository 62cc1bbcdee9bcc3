//! Structures laid out in slots: arrays inside structures, nested
//! structures, `&s.f`, initialiser lists with nesting, designators and
//! left-out braces, arrays of structures with initialisers, copies of
//! structures that hold arrays, and pointer arithmetic over structures.
//! Every bug is confirmed by gcc's build of the program.

mod support;

use serde_json::Value;
use support::c::{assert_gcc_confirms, check, check_json, folder, PREAMBLE};
use support::write;

/// The line of `file` that holds `needle` (1-based).
fn line_of(file: &std::path::Path, needle: &str) -> usize {
    let text = std::fs::read_to_string(file).unwrap();
    1 + text.lines().position(|l| l.contains(needle)).expect(needle)
}

/// `--property valid-memsafety`.
const MEMSAFETY: &[&str] = &["--property", "valid-memsafety"];

#[test]
fn a_structure_with_an_array_member_is_a_stack() {
    let dir = folder("struct-stack");
    let prog = write(
        &dir,
        "stack.c",
        &format!(
            "{PREAMBLE}
#define N 4
struct stack {{ int data[N]; int top; }};
void push(struct stack *s, int v) {{ s->data[s->top++] = v; }}
int pop(struct stack *s) {{ return s->data[--s->top]; }}
int main(void) {{
    struct stack s;
    s.top = 0;
    int a = __VERIFIER_nondet_int();
    if (a < 0 || a > 100) return 0;
    push(&s, a);
    push(&s, 2 * a);
    int x = pop(&s);
    int y = pop(&s);
    if (x == 14 && y == 7) reach_error();
    return 0;
}}
"
        ),
    );
    let (code, json) = check_json(&prog, &[]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"][0]["kind"], "fail");
    // The member `top` is a read of its own (its uninitialised value,
    // never used: it is assigned first), then the nondet call.
    assert_eq!(json["bugs"][0]["reads"], Value::from(vec![0, 7]));
    assert_gcc_confirms(&dir, &prog);
    // A fifth push writes past the array and past the structure's object:
    // out of bounds, found with the input that gets there.
    let over = write(
        &dir,
        "overflow.c",
        &format!(
            "{PREAMBLE}
struct stack {{ int data[4]; int top; }};
int main(void) {{
    struct stack s = {{ {{0}}, 0 }};
    int n = __VERIFIER_nondet_int();
    if (n < 0 || n > 8) return 0;
    for (int i = 0; i < n; i++) s.data[i] = i;
    return 0;
}}
"
        ),
    );
    let (code, json) = check_json(&over, MEMSAFETY);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"][0]["kind"], "out_of_bounds");
    // data[4] is the member `top`: inside the object, as gcc's
    // AddressSanitizer sees it too; data[5] is past the object.
    assert_eq!(json["bugs"][0]["reads"], Value::from(vec![6]));
}

#[test]
fn the_address_of_a_member_is_a_pointer_into_the_structure() {
    let dir = folder("struct-member-address");
    let prog = write(
        &dir,
        "member.c",
        &format!(
            "{PREAMBLE}
struct point {{ int x; int y; }};
struct box {{ struct point lo; struct point hi; int tag[3]; }};
void set(int *p, int v) {{ *p = v; }}
int sum(int *v, int n) {{ int s = 0; for (int i = 0; i < n; i++) s += v[i]; return s; }}
int main(void) {{
    struct box b = {{ {{1, 2}}, .hi = {{3, 4}}, {{5, 6, 7}} }};
    set(&b.hi.y, __VERIFIER_nondet_int());
    struct point *p = &b.lo;
    p[1].x = 10;
    int *t = b.tag;
    if (sum(t, 3) != 18 || *(t + 2) != 7) reach_error();
    if (&b.tag[2] - &b.tag[0] != 2) reach_error();
    if (b.hi.x == 10 && b.hi.y == 77) reach_error();
    return 0;
}}
"
        ),
    );
    let (code, json) = check_json(&prog, &[]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"].as_array().unwrap().len(), 1, "{json}");
    assert_eq!(
        json["bugs"][0]["line"],
        line_of(&prog, "b.hi.y == 77"),
        "{json}"
    );
    assert_eq!(json["bugs"][0]["reads"], Value::from(vec![77]));
    assert_gcc_confirms(&dir, &prog);
}

#[test]
fn initialiser_lists_nest_leave_out_braces_and_fill_arrays_of_structures() {
    let dir = folder("struct-init-nested");
    // Each condition is false on gcc's build; the program is safe.
    let prog = write(
        &dir,
        "init.c",
        &format!(
            "{PREAMBLE}
struct point {{ int x; int y; }};
struct seg {{ struct point a, b; int w[2]; }};
int main(void) {{
    struct seg s = {{ 1, 2, 3, 4, 5 }};
    struct point ps[] = {{ {{1, 1}}, [2] = {{3, 3}} }};
    struct seg t = {{ .b = {{7, 8}}, .w = {{9}} }};
    int *rows[2] = {{ &s.a.x, &t.b.y }};
    if (s.a.x != 1 || s.a.y != 2 || s.b.x != 3 || s.b.y != 4) reach_error();
    if (s.w[0] != 5 || s.w[1] != 0) reach_error();
    if (ps[0].y != 1 || ps[1].x != 0 || ps[2].y != 3) reach_error();
    if (t.a.x != 0 || t.b.y != 8 || t.w[0] != 9 || t.w[1] != 0) reach_error();
    if (*rows[0] + *rows[1] != 9) reach_error();
    return 0;
}}
"
        ),
    );
    let (code, out, err) = check(&prog, MEMSAFETY);
    assert_eq!(code, 0, "{out}\n{err}");
    // A wrong expectation is a bug, at its line.
    let wrong = write(
        &dir,
        "wrong.c",
        &std::fs::read_to_string(&prog)
            .unwrap()
            .replace("ps[2].y != 3", "ps[2].y != 4"),
    );
    let (code, json) = check_json(&wrong, &[]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(
        json["bugs"][0]["line"],
        line_of(&wrong, "ps[2].y != 4"),
        "{json}"
    );
    assert_gcc_confirms(&dir, &wrong);
}

#[test]
fn a_copy_of_a_structure_copies_its_arrays() {
    let dir = folder("struct-copy-arrays");
    let prog = write(
        &dir,
        "copy.c",
        &format!(
            "{PREAMBLE}
#include <stdlib.h>
struct buf {{ int n; int v[3]; struct {{ int k; }} in; }};
struct buf make(int a) {{ struct buf b = {{ 1, {{ a, a, a }}, {{ a }} }}; return b; }}
int main(void) {{
    int a = __VERIFIER_nondet_int();
    struct buf x = make(a);
    struct buf *heap = malloc(2 * sizeof(struct buf));
    if (!heap) return 0;
    heap[1] = x;
    x.v[1] = 0;
    if (heap[1].v[1] == 3 && heap[1].in.k == 3 && x.v[1] == 0) reach_error();
    free(heap);
    return 0;
}}
"
        ),
    );
    let (code, json) = check_json(&prog, &[]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"][0]["reads"], Value::from(vec![3]));
    assert_gcc_confirms(&dir, &prog);
}

#[test]
fn sizes_and_offsets_of_structures_are_gccs() {
    // gcc computes the sizes and offsets (under -m32 when it can, and
    // -m64); wiser must agree: the program reaches the error exactly when
    // every number it is given is wiser's.
    let dir = folder("struct-sizes");
    let types = "#include <stddef.h>
#include <pthread.h>
struct A { char c; long long x; short s; };
struct B { char c[3]; struct A a; int *p; };
struct C { char a; char b; };
struct D { pthread_mutex_t m; char z; long l; };
union E { char c[5]; int i; short s; };
struct F { char a; union E e; long long z; union { char b; long long w; } g; };
";
    let exprs = [
        "sizeof(struct A)",
        "sizeof(struct B)",
        "sizeof(struct C)",
        "sizeof(struct D)",
        "offsetof(struct A, s)",
        "offsetof(struct B, p)",
        "offsetof(struct D, l)",
        "sizeof(union E)",
        "sizeof(struct F)",
        "offsetof(struct F, z)",
        "offsetof(struct F, g)",
        "offsetof(union E, s)",
    ];
    for (flag, model) in [("-m32", "ilp32"), ("-m64", "lp64")] {
        if !support::c::gcc_links(flag, &dir) {
            continue;
        }
        let printer = write(
            &dir,
            &format!("print{model}.c"),
            &format!(
                "#include <stdio.h>\n{types}int main(void) {{ {} return 0; }}\n",
                exprs
                    .iter()
                    .map(|e| format!("printf(\"%lu\\n\", (unsigned long)({e}));"))
                    .collect::<String>()
            ),
        );
        let exe = dir.join(format!("print{model}"));
        let built = std::process::Command::new("gcc")
            .args([flag, "-pthread", "-o"])
            .arg(&exe)
            .arg(&printer)
            .status()
            .unwrap();
        assert!(built.success());
        let out = std::process::Command::new(&exe).output().unwrap();
        let numbers: Vec<String> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        let cond: Vec<String> = exprs
            .iter()
            .zip(&numbers)
            .map(|(e, n)| format!("{e} == {n}"))
            .collect();
        let prog = write(
            &dir,
            &format!("sizes{model}.c"),
            &format!(
                "{types}extern void reach_error(void);\nint main(void) {{ if ({}) reach_error(); return 0; }}\n",
                cond.join(" && ")
            ),
        );
        let (code, out, err) = check(&prog, &["--data-model", model]);
        assert_eq!(code, 1, "{model}: {numbers:?}\n{out}\n{err}");
    }
}

#[test]
fn container_of_finds_the_structure_around_a_member() {
    // The Linux kernel's list idiom: a list node inside each element, and
    // `container_of` to get from the node back to the element.
    let dir = folder("struct-container-of");
    let prog = write(
        &dir,
        "list.c",
        &format!(
            "{PREAMBLE}
#include <stdlib.h>
struct list_head {{ struct list_head *next; }};
struct item {{ int value; struct list_head link; }};
#define container_of(p) ((struct item *)((char *)(p) - (unsigned long)(&((struct item *)0)->link)))
int main(void) {{
    struct item *a = malloc(sizeof(struct item));
    struct item *b = malloc(sizeof(struct item));
    if (!a || !b) return 0;
    a->value = __VERIFIER_nondet_int();
    if (a->value < 0 || a->value > 100) return 0;
    b->value = 2;
    a->link.next = &b->link;
    b->link.next = 0;
    int sum = 0;
    for (struct list_head *h = &a->link; h; h = h->next)
        sum += container_of(h)->value;
    free(a);
    free(b);
    if (sum == 9) reach_error();
    return 0;
}}
"
        ),
    );
    let (code, json) = check_json(&prog, &[]);
    assert_eq!(code, 1, "{json}");
    let reads = json["bugs"][0]["reads"].as_array().unwrap().clone();
    assert_eq!(reads.last(), Some(&Value::from(7)), "{json}");
    assert_gcc_confirms(&dir, &prog);
}

#[test]
fn a_pointer_to_a_structure_is_a_pointer_to_its_first_member() {
    // C11 6.7.2.1:15, as list code uses it (`*(void **)node = next`).
    let dir = folder("struct-first-member");
    let prog = write(
        &dir,
        "first.c",
        &format!(
            "{PREAMBLE}
struct node {{ struct node *next; int value; }};
int main(void) {{
    struct node a = {{ 0, 1 }}, b = {{ 0, 2 }};
    *(void **)&a = &b;
    int *v = (int *)&b.value;
    struct node *back = (struct node *)&a.next;
    if (a.next == &b && back == &a && *v == 2) reach_error();
    return 0;
}}
"
        ),
    );
    let (code, json) = check_json(&prog, &[]);
    assert_eq!(code, 1, "{json}");
    assert_gcc_confirms(&dir, &prog);
    // A member other than the first is not the structure.
    let wrong = write(
        &dir,
        "wrong.c",
        "struct node { struct node *next; int value; };
int main(void) { struct node a; int *v = (int *)&a; return *v; }
",
    );
    let (code, _, err) = check(&wrong, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is used as"), "{err}");
}

/// Nested designators (`.a.y`, `.b[1].x`) and designators naming the
/// members of an anonymous union.
const DESIGNATORS: &str = r#"#include <assert.h>
struct in { int x, y; };
struct out { int k; struct in a; struct in b[2]; union { int num; unsigned char bytes[4]; }; };
int main(void) {
  struct out o = { .a.y = 5, .b[1].x = 7, .num = 0x0102, .k = 1 };
  assert(o.k == 1 && o.a.x == 0 && o.a.y == 5 && o.b[1].x == 7 && o.b[0].y == 0);
  assert(o.bytes[0] == 2 && o.bytes[1] == 1);
  struct out p = { .bytes = {9, 0, 0, 1} };
  assert(p.num == 0x01000009);
  struct out q = { .bytes[2] = 1 };
  assert(q.num == 0x10000);
  return 0;
}
"#;

#[test]
fn nested_designators_and_members_of_anonymous_unions_initialise() {
    let dir = folder("struct-designators");
    support::c::assert_facts(
        &dir,
        DESIGNATORS,
        support::c::Facts::Safe,
        0,
        &[
            ("o.a.y == 5", "o.a.y == 6"),
            ("o.b[0].y == 0", "o.b[0].y == 7"),
            ("o.bytes[1] == 1", "o.bytes[1] == 0"),
            ("p.num == 0x01000009", "p.num == 9"),
        ],
    );
    // C would go on inside `a` after `.a.x`: refused, not misplaced.
    let after = write(
        &dir,
        "after.c",
        "struct in { int x, y; };\nstruct out { struct in a; int z; };\nint main(void) { struct out o = { .a.x = 1, 2 }; return o.z; }\n",
    );
    let (code, _, err) = check(&after, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("after a nested designator"), "{err}");
}
