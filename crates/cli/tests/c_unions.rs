//! Unions: members that share their bytes, kept in step on every store
//! through the union (`unions.rs`) and through pointers into its members
//! (`union_ptrs.rs`), judged against gcc under both data models;
//! pointers' bytes; what is refused.

mod support;

use support::c::{assert_facts, assert_gcc_confirms, check, check_json, folder, Facts};
use support::write;

/// Facts about unions, each an `assert` that gcc's build passes.
const FACTS: &str = r#"union word { unsigned int u; int i; unsigned char b[4]; unsigned short h[2]; };
struct tagged { int kind; union { long long l; char c[8]; } v; int after; };
union shapes { struct { short x, y; } pt; int whole; };
union word flip(union word w) { w.h[0] = 0xbeef; return w; }
int main(void) {
  union word w;
  w.i = -1;
  assert(w.u == 0xffffffffu);
  assert(w.b[2] == 255);
  w.b[3] = 0x7f;
  assert(w.i == 0x7fffffff);
  w.h[1] = 0x0102;
  assert(w.b[2] == 2 && w.b[3] == 1);
  w.b[0]++;
  assert(w.u == 0x0102ff00u);
  w.u -= 1;
  assert(w.b[0] == 0xff && w.b[1] == 0xfe);
  union word z = flip(w);
  assert(z.b[0] == 0xef && z.b[1] == 0xbe && z.h[1] == 0x0102);
  assert(w.h[0] == 0xfeff);
  struct tagged t = {1, {.c = {1, 2, 3, 4, 5, 6, 7, 8}}, 9};
  assert(t.v.l == 0x0807060504030201LL);
  t.v.l = 0x1122334455667788LL;
  assert((unsigned char)t.v.c[0] == 0x88 && t.v.c[7] == 0x11 && t.after == 9);
  struct tagged *p = &t;
  p->v.c[1] = 0;
  assert(p->v.l == 0x1122334455660088LL);
  union shapes s;
  s.pt.x = 1; s.pt.y = 2;
  assert(s.whole == 0x00020001);
  s.whole = 0x7fff8000;
  assert(s.pt.x == -32768 && s.pt.y == 32767);
  union shapes *q = malloc(sizeof *q);
  if (!q) return 0;
  q->whole = __VERIFIER_nondet_int();
  if (q->pt.x == 3) assert((q->whole & 0xffff) == 3);
  union shapes r = *q;
  assert(r.pt.y == q->pt.y);
  free(q);
  int k = __VERIFIER_nondet_int();
  if (k >= 0 && k < 4) { w.u = 0; w.b[k] = 1; assert(w.u == 1u << (8 * k)); }
  assert(sizeof(union word) == 4 && sizeof(union shapes) == 4);
  return 0;
}
"#;

#[test]
fn type_punning_through_a_union_gives_gccs_bytes() {
    let text = format!(
        "#include <assert.h>\n#include <stdlib.h>\nextern int __VERIFIER_nondet_int(void);\n{FACTS}"
    );
    assert_facts(
        &folder("union-facts"),
        &text,
        Facts::Safe,
        2,
        &[
            ("w.b[2] == 255", "w.b[2] == 254"),
            ("w.i == 0x7fffffff", "w.i == 0x7ffffffe"),
            ("z.b[0] == 0xef", "z.b[0] == 0xee"),
            ("s.pt.x == -32768", "s.pt.x == 32768"),
            ("w.u == 1u << (8 * k)", "w.u == 1u << (8 * k) && k != 2"),
        ],
    );
}

#[test]
fn a_symbolic_word_is_read_through_its_bytes() {
    let dir = folder("union-symbolic");
    let prog = write(
        &dir,
        "bytes.c",
        "#include <assert.h>
extern int __VERIFIER_nondet_int(void);
union U { int i; unsigned char c[4]; };
int main(void) {
    union U u;
    u.i = __VERIFIER_nondet_int();
    if (u.c[0] == 0x42 && u.c[2] == 0x10 && u.c[1] == 0x42 && u.c[3] == 0)
        assert(0);
    return 0;
}
",
    );
    let (code, json) = check_json(&prog, &[]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"][0]["kind"], "assertion");
    let reads: Vec<i64> = json["bugs"][0]["reads"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(serde_json::Value::as_i64)
        .collect();
    assert!(reads.contains(&0x0010_4242), "{json}");
    assert_gcc_confirms(&dir, &prog);
}

/// A variable whose address is seen as a pointer to another width
/// (`punned.rs`): its bytes as gcc lays them out, for locals, globals and
/// parameters, stores on either side (the variable, or through the
/// converted pointer) seen on the other, and Quake's inverse square root.
const PUNNED: &str = r#"#include <assert.h>
extern int __VERIFIER_nondet_int(void);
double gd = 1.5;
int gi;
static unsigned hi_word(double d) { return ((unsigned *)&d)[1]; }
float q_rsqrt(float number) {
  long long i; float x2, y;
  x2 = number * 0.5F; y = number;
  i = *(int *)&y;
  i = 0x5f3759df - (i >> 1);
  *(int *)&y = (int)i;
  return y * (1.5F - (x2 * y * y));
}
int main(void) {
  double d = -2.0;
  assert(*(unsigned *)&d == 0 && ((unsigned *)&d)[1] == 0xc0000000u && hi_word(3.0) == 0x40080000u);
  ((unsigned *)&d)[1] = 0x40080000u;
  assert(d == 3.0);
  d += 1.0;
  assert(((unsigned *)&d)[1] == 0x40100000u);
  int x = 0x11223344;
  unsigned char *b = (unsigned char *)&x;
  assert(b[0] == 0x44 && b[3] == 0x11);
  b[2] = 0xff;
  x++;
  assert(x == 0x11ff3345 && ((unsigned char *)&x)[0] == 0x45);
  short *s = (short *)&x;
  s[1] = -1;
  assert(x == -52411);
  float f = 1.0f;
  assert(*(unsigned *)&f == 0x3f800000u);
  ((unsigned char *)&f)[3] = 0x40;
  assert(f == 4.0f);
  assert(((unsigned *)&gd)[1] == 0x3ff80000u);
  ((unsigned short *)&gi)[1] = 7;
  assert(gi == 458752);
  float r = q_rsqrt(4.0f);
  assert(r > 0.499f && r < 0.5f);
  long long ll = __VERIFIER_nondet_int();
  ((unsigned *)&ll)[1] = 0;
  assert(ll >= 0 && ((unsigned *)&ll)[0] == (unsigned)ll);
  return 0;
}
"#;

#[test]
fn a_variable_seen_through_a_pointer_of_another_width_is_its_bytes() {
    let dir = folder("punned");
    assert_facts(
        &dir,
        PUNNED,
        Facts::Safe,
        -5,
        &[
            (
                "((unsigned *)&d)[1] == 0xc0000000u",
                "((unsigned *)&d)[1] == 0xc0080000u",
            ),
            ("assert(d == 3.0);", "assert(d == 2.0);"),
            ("x == 0x11ff3345", "x == 0x11ff3344"),
            ("assert(x == -52411);", "assert(x == -52412);"),
            ("assert(f == 4.0f);", "assert(f == 2.0f);"),
            ("assert(gi == 458752);", "assert(gi == 7);"),
            ("ll >= 0 &&", "ll < 0 &&"),
        ],
    );
    // A bug behind a word of a double, found and replayed by gcc.
    let prog = write(
        &dir,
        "word.c",
        "extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);
int main(void) {
    double d = 0.0;
    ((unsigned *)&d)[1] = __VERIFIER_nondet_uint();
    if (d == 2.5)
        reach_error();
    return 0;
}
",
    );
    let (code, json) = check_json(&prog, &[]);
    assert_eq!(code, 1, "{json}");
    assert!(
        support::c::first_reads(&json).contains(&0x4004_0000),
        "{json}"
    );
    assert_gcc_confirms(&dir, &prog);
    // A wider view would read past the variable: refused as before.
    let wide = write(
        &dir,
        "wide.c",
        "int main(void) { int i = 1; double x = *(double *)&i; return x > 0; }\n",
    );
    let (code, out, err) = check(&wide, &[]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("a `int *` is used as a `double *`"), "{err}");
}

#[test]
fn a_union_stored_whole_through_a_pointer_keeps_its_members() {
    // Csmith's seed 325: a union of an integer and a pointer stored whole
    // through a pointer, where a pointer into its member was taken, lost
    // the integer (each slot stored was brought in step with the others,
    // the pointer's bytes making the integer any value).
    assert_facts(
        &folder("union-whole"),
        "#include <assert.h>
#include <stdint.h>
union U { int64_t i; int8_t *p; };
struct S { int k; union U u; };
int main(void) {
  union U a = {-6}, b, *pb = &b;
  int64_t *bi = &b.i;
  *pb = a;
  assert(b.i == -6 && *bi == -6);
  struct S s = {1, {-7}}, t, *pt = &t;
  int64_t *ti = &t.u.i;
  *pt = s;
  assert(t.u.i == -7 && *ti == -7);
  union U arr[2] = {{1}, {2}}, brr[2], *pa = brr;
  int64_t *bri = &brr[1].i;
  pa[1] = arr[1];
  assert(brr[1].i == 2 && *bri == 2);
  int8_t c = 3;
  union U w;
  w.p = &c;
  *pb = w;
  assert(*b.p == 3);
  *bi = 5;
  assert(b.i == 5);
  return 0;
}
",
        Facts::Safe,
        0,
        &[
            ("b.i == -6 &&", "b.i == 6 &&"),
            ("t.u.i == -7 &&", "t.u.i == 7 &&"),
            ("brr[1].i == 2 &&", "brr[1].i == 1 &&"),
            ("assert(b.i == 5);", "assert(b.i == 4);"),
        ],
    );
}

#[test]
fn pointers_in_a_union_are_copied_at_the_same_bytes() {
    // SV-COMP's test-0158: a pointer member and a structure whose third
    // member lies beyond it; the pointer survives the store into the
    // structure and is freed.
    let dir = folder("union-pointers");
    let text = "#include <stdlib.h>
union data {
    void *p0;
    struct { char c[2]; void *p1; void *p2; } str;
};
int main(void) {
    union data d;
    d.p0 = malloc(37U);
    d.str.p2 = &d;
    FREE
    return 0;
}
";
    let safe = write(&dir, "safe.c", &text.replace("FREE", "free(d.p0);"));
    let memsafety = ["--property", "valid-memsafety"];
    let (code, out, err) = check(&safe, &memsafety);
    assert_eq!(code, 0, "{out}\n{err}");
    let leak = write(&dir, "leak.c", &text.replace("FREE", ""));
    let (code, json) = check_json(&leak, &memsafety);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"][0]["kind"], "memory_leak");
    // Two pointer members at the same bytes are one pointer.
    let same = write(
        &dir,
        "same.c",
        "#include <stdlib.h>
union two { int *a; char *b; };
int main(void) {
    union two t;
    t.a = malloc(sizeof(int));
    free(t.b);
    return 0;
}
",
    );
    let (code, out, err) = check(&same, &memsafety);
    assert_eq!(code, 0, "{out}\n{err}");
}

/// Facts about stores through pointers into unions' members
/// (`union_ptrs.rs`), each an `assert` that gcc's build passes.
const THROUGH_POINTERS: &str = r#"#include <assert.h>
#include <string.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
union word { int i; unsigned char b[4]; char c[4]; unsigned short h[2]; };
struct value { int kind; union { long long n; char str[8]; } as; };
union cell { int i; struct { short lo, hi; } half; };
struct node { int tag; union cell u; };
struct row { struct node nodes[3]; };
struct led { union word w; int after; };
void set(int *p, int v) { *p = v; }
void poke(char *c, int k) { c[k] = 1; }
void halves(struct node *n) { n->u.half.hi = 0x0102; }
void put(void *vp) { int *ip = vp; *ip = 0x0a0b0c0d; }
int main(void) {
  union word u;
  int *p = &u.i;
  *p = -1;
  assert(u.b[2] == 255);
  u.i = 0;
  char *c = u.c;
  c[1] = 1;
  assert(u.i == 0x100);
  struct value v;
  v.kind = 2;
  v.as.n = -1;
  strcpy(v.as.str, "hi");
  assert((v.as.n & 0xffffff) == 0x6968);
  set(&u.i, 0x01020304);
  assert(u.b[0] == 4 && u.h[1] == 0x0102);
  poke(u.c, 0);
  assert(u.i == 0x01020301);
  memset(u.c, 0xff, 2);
  assert(u.h[0] == 0xffff && u.i == 0x0102ffff);
  *(unsigned short *)&u = 0xabcd;
  assert(u.i == 0x0102abcd);
  int *whole = (int *)&u;
  *whole = 7;
  assert(u.b[0] == 7 && u.h[1] == 0);
  put(&u);
  assert(u.b[0] == 0x0d && u.b[3] == 0x0a);
  struct led l = {{0}, 9};
  int *lp = (int *)&l;
  *lp = 0x100;
  assert(l.w.b[1] == 1 && l.after == 9);
  struct row r[2];
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k > 2) k = 1;
  int *q = &r[1].nodes[k].u.i;
  *q = 0x7fff0005;
  assert(r[1].nodes[k].u.half.lo == 5 && r[1].nodes[k].u.half.hi == 0x7fff);
  short *s = &r[1].nodes[k].u.half.lo;
  *s = -1;
  assert(r[1].nodes[k].u.i == 0x7fffffff);
  halves(&r[1].nodes[k]);
  assert(r[1].nodes[k].u.i == 0x0102ffff);
  union word *pw = malloc(sizeof *pw);
  if (!pw) return 0;
  unsigned short *hp = pw->h;
  hp[0] = 0x1234; hp[1] = 0;
  assert(pw->i == 0x1234);
  hp[1]++;
  assert(pw->i == 0x11234);
  free(pw);
  return 0;
}
"#;

#[test]
fn stores_through_pointers_into_a_unions_members_keep_it_in_step() {
    assert_facts(
        &folder("union-through-pointers"),
        THROUGH_POINTERS,
        Facts::Safe,
        2,
        &[
            ("u.b[2] == 255", "u.b[2] == 254"),
            ("u.i == 0x100", "u.i == 0x101"),
            ("0xffffff) == 0x6968", "0xffffff) == 0x6969"),
            ("u.h[1] == 0x0102", "u.h[1] == 0x0103"),
            ("u.i == 0x01020301", "u.i == 0x01020304"),
            ("u.i == 0x0102ffff", "u.i == 0x0101ffff"),
            ("u.half.hi == 0x7fff", "u.half.hi == 0x7ffe"),
            ("u.i == 0x7fffffff", "u.i == 0x7ffffffe"),
            ("nodes[k].u.i == 0x0102ffff", "nodes[k].u.i == 0x0101ffff"),
            ("pw->i == 0x11234", "pw->i == 0x1234"),
            ("u.i == 0x0102abcd", "u.i == 0x0102abce"),
            ("u.b[0] == 7", "u.b[0] == 6"),
            ("u.b[3] == 0x0a", "u.b[3] == 0x0b"),
            ("l.w.b[1] == 1", "l.w.b[1] == 0"),
        ],
    );
}

#[test]
fn a_pointer_into_a_union_that_cannot_be_kept_in_step_is_refused_where_it_is_written() {
    let dir = folder("union-refused");
    for (name, text, at, what) in [
        (
            "nested.c",
            "union in { int i; char c[4]; };\nunion out { union in n; long long l; };\nint main(void) { union out u; int *p = &u.n.i; *p = 1; return u.n.c[0]; }\n",
            "nested.c:3:41",
            "a pointer into a member of a union nested in another union",
        ),
        (
            "effects.c",
            "union U { int i; char c[4]; };\nint main(void) { union U a[2]; int k = 0; int *p = &a[k++].i; *p = 1; return a[0].c[0]; }\n",
            "effects.c:2:53",
            "through an expression with side effects",
        ),
    ] {
        let prog = write(&dir, name, text);
        let (code, _, err) = check(&prog, &[]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(what), "{err}");
        assert!(err.contains(at), "{err}");
    }
}

/// Anonymous members (C11): a union and structures without a name inside
/// a structure, their members the structure's.
const ANONYMOUS: &str = r#"#include <assert.h>
struct msg {
  int kind;
  union { int num; unsigned char bytes[4]; struct { short lo, hi; }; };
  struct { int x, y; };
};
int main(void) {
  struct msg m = {1};
  m.num = 0x01020304;
  assert(m.bytes[0] == 4 && m.lo == 0x0304 && m.hi == 0x0102);
  m.hi = 0;
  assert(m.num == 0x0304);
  m.x = 5; m.y = m.x + 1;
  assert(m.y == 6 && m.kind == 1);
  struct msg *p = &m;
  p->bytes[3] = 0x7f;
  assert(p->num == 0x7f000304 && p->hi == 0x7f00);
  assert(sizeof(struct msg) == 16);
  return 0;
}
"#;

#[test]
fn anonymous_unions_and_structures_are_their_containers_members() {
    assert_facts(
        &folder("union-anonymous"),
        ANONYMOUS,
        Facts::Safe,
        0,
        &[
            ("p->hi == 0x7f00", "p->hi == 0x7f01"),
            ("m.y == 6", "m.y == 7"),
            ("m.bytes[0] == 4", "m.bytes[0] == 3"),
        ],
    );
}

#[test]
fn a_unions_string_is_read_by_the_c_library_and_printf() {
    // Reading through a pointer into a member stores nothing past the
    // union: `strlen`, `strcmp` and `printf`'s `%s` take one.
    let dir = folder("union-read-only");
    let prog = write(
        &dir,
        "names.c",
        "#include <stdio.h>
#include <string.h>
#include <assert.h>
union name { char text[8]; unsigned long long bits; };
int main(void) {
    union name n;
    n.bits = 0;
    n.text[0] = 'o';
    n.text[1] = 'k';
    assert(strlen(n.text) == 2 && strcmp(n.text, \"ok\") == 0);
    printf(\"[%s]\\n\", n.text);
    char copy[8];
    strcpy(copy, n.text);
    assert(copy[1] == 'k' && n.bits == 0x6b6f);
    return 0;
}
",
    );
    let (code, out, err) = check(&prog, &[]);
    assert_eq!(code, 0, "{out}\n{err}");
    let (code, out, _) = support::c::run(&prog, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("[ok]\n"), "{out}");
}

#[test]
fn a_pointers_bytes_and_integers_bytes_across_a_union() {
    let dir = folder("union-pointer-bytes");
    // Integers' bytes as a pointer: not `NULL`, an address in no object.
    let deref = write(
        &dir,
        "deref.c",
        "union u { int *p; unsigned n; };
int main(void) {
    union u v;
    v.n = 16;
    return *v.p;
}
",
    );
    let (code, json) = check_json(&deref, &[]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"][0]["kind"], "null_dereference");
    // Zero bytes are `NULL`, and a pointer stored makes the integer any
    // value, without a read of the witness: only the nondet call is one
    // (the value is memory's, in the report's `arrays`).
    let any = write(
        &dir,
        "any.c",
        "extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
union u { int *p; unsigned n; };
int main(void) {
    union u v = {0};
    int x = 1;
    v.n = 0;
    if (v.p != 0) reach_error();
    v.p = &x;
    int k = __VERIFIER_nondet_int();
    if (k == 5 && v.n == 7) reach_error();
    return 0;
}
",
    );
    let (code, json) = check_json(&any, &[]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"][0]["line"], 11, "{json}");
    assert_eq!(json["bugs"][0]["reads"], serde_json::json!([5]), "{json}");
    assert!(
        json["bugs"][0]["arrays"]["$cell_i32.v"].is_object(),
        "{json}"
    );
}

#[test]
fn a_large_union_is_kept_in_step_store_by_store() {
    let dir = folder("union-large");
    let prog = write(
        &dir,
        "large.c",
        "#include <assert.h>
extern int __VERIFIER_nondet_int(void);
union buffer { int words[300]; unsigned char bytes[1200]; };
union buffer b;
int main(void) {
    b.words[299] = 0x01020304;
    assert(b.bytes[1196] == 4 && b.bytes[1199] == 1);
    b.bytes[0] = 0xff;
    assert(b.words[0] == 255);
    int i = __VERIFIER_nondet_int();
    if (i >= 0 && i < 1200) b.bytes[i] = 1;
    return 0;
}
",
    );
    // Constant subscripts update what they share bytes with; a computed
    // one into the long array would update all 300 words at each store.
    let (code, _, err) = check(&prog, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("more than 256 scalars of its other members"),
        "{err}"
    );
    assert!(err.contains("large.c:11:29"), "{err}");
    let fixed = write(
        &dir,
        "fixed.c",
        &std::fs::read_to_string(&prog)
            .unwrap()
            .replace("b.bytes[i] = 1;", "b.bytes[5] = 1;"),
    );
    let (code, out, err) = check(&fixed, &[]);
    assert_eq!(code, 0, "{out}\n{err}");
}
