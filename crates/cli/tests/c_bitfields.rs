//! Bit-fields (`lower/bitfields.rs`): values modulo 2^width, signed ones
//! sign-extended, promotions, initialisers, copies, gcc's layout, judged
//! against gcc; a bug behind a bit-field found symbolically and replayed
//! by gcc; unions whose members share bits; what C refuses (`&s.bf`,
//! widths) and what wiser refuses.

mod support;

use support::c::{assert_facts, assert_gcc_confirms, check_json, folder, gcc_links, gcc_run, run};
use support::write;

/// Facts about bit-fields, each an `assert` that gcc's build passes
/// under both data models.
const FACTS: &str = r#"struct flags { signed a : 5; unsigned b : 3; int : 0; int c : 7; unsigned d : 32; int : 4; char e; _Bool f : 1; };
struct outer { char x; struct flags s; short y : 9; };
struct flags g = {1, -3, 7};
struct outer table[2] = {{1, {15, 9, -70, 0xffffffffu, 'e', 1}, -300}, {.s = {.c = 63, .a = -17}, .y = 255}};
struct flags bump(struct flags s) { s.a++; s.b += 7; return s; }
int main(void) {
  struct flags s = {1, -3, 7};
  struct flags *p = &s;
  assert(s.a == 1 && s.b == 5 && s.c == 7 && s.d == 0 && s.e == 0);
  assert(g.a == 1 && g.b == 5 && g.c == 7);
  s.a = 31;
  assert(s.a == -1);
  s.b = 9;
  assert(s.b == 1);
  p->c = -65;
  assert(p->c == 63);
  assert(s.b - 5 < 0);
  p->d = 5;
  assert(p->d - 6 > 0);
  int v = (s.a = 17);
  assert(v == -15);
  s.a += 20;
  assert(s.a == 5);
  s.b *= 3;
  assert(s.b == 3);
  p->c--;
  assert(s.c == 62);
  int w = s.b++;
  assert(w == 3 && s.b == 4);
  ++p->b; ++p->b; ++p->b; ++p->b;
  assert(s.b == 0);
  s.f = 5;
  assert(s.f == 1);
  struct flags t = bump(s);
  assert(t.a == 6 && t.b == 7 && t.c == 62 && t.d == 5 && s.a == 5);
  assert(table[0].s.a == 15 && table[0].s.b == 1 && table[0].s.c == 58);
  assert(table[0].s.d == 0xffffffffu && table[0].s.e == 'e' && table[0].y == 212);
  assert(table[1].s.a == 15 && table[1].s.c == 63 && table[1].y == 255);
  assert(table[1].x == 0 && table[1].s.b == 0);
  struct outer o = table[0];
  o.s.c = o.s.c + 6;
  assert(o.s.c == -64 && table[0].s.c == 58);
  int k = __VERIFIER_nondet_int();
  s.a = k;
  assert(s.a >= -16 && s.a <= 15 && ((unsigned)s.a - (unsigned)k) % 32u == 0);
  s.b = k;
  assert(s.b == (k & 7));
  assert(sizeof(struct flags) == 16 && sizeof(struct outer) == 24 && sizeof table == 48);
  return 0;
}
"#;

#[test]
fn bit_fields_compute_as_gcc_does() {
    let text = format!("#include <assert.h>\nextern int __VERIFIER_nondet_int(void);\n{FACTS}");
    assert_facts(
        &folder("bitfield-facts"),
        &text,
        support::c::Facts::Safe,
        -77,
        &[
            ("s.a == -1", "s.a == 31"),
            ("s.b == 1);", "s.b == 9);"),
            ("v == -15", "v == 17"),
            ("w == 3 && s.b == 4", "w == 3 && s.b == 5"),
            ("s.b == (k & 7)", "s.b == (k & 7) && k != 12345"),
        ],
    );
}

/// Structures whose layout `sizeof` and `offsetof` show, printed by the
/// program: wiser's output must be gcc's.
const LAYOUT: &str = r#"#include <stdio.h>
#include <stddef.h>
struct A { char a; int : 0; char b; };
struct B { char a; int : 3; };
struct C { char a; int x : 3; };
struct D { char a; long long x : 20; char c; };
struct E { int a : 31; int b : 2; };
struct F { char a : 4; short b : 9; char c; };
struct G { char a; long long : 0; char b; };
struct H { short a : 3; int b : 30; };
struct I { char a; unsigned long long x : 64; };
struct J { int a : 3; char : 0; char b; };
struct K { char a[3]; int b : 9; };
struct L { _Bool a : 1; char b; unsigned c : 31; };
struct M { struct A a; int x : 1; struct L l[2]; };
union U { int a : 3; char b; };
/* An unnamed bit-field does not align its structure: `a` is at 1. */
struct N { char c; struct A a; };
#pragma pack(push)
#pragma pack(1)
struct P { char a; int b; short c : 5; int d : 30; unsigned : 0; char e; };
struct Q { signed f0 : 19; signed f1 : 28; unsigned long long f7; signed f8 : 30; };
#pragma pack(pop)
#pragma pack(2)
struct R { char a; int b; int c : 20; int d : 20; unsigned : 0; char e; };
#pragma pack()
struct T { char a; int b; struct P p; };
int main(void) {
  printf("%d %d %d %d %d %d %d\n", (int)sizeof(struct A), (int)sizeof(struct B),
         (int)sizeof(struct C), (int)sizeof(struct D), (int)sizeof(struct E),
         (int)sizeof(struct F), (int)sizeof(struct G));
  printf("%d %d %d %d %d %d %d %d\n", (int)sizeof(struct H), (int)sizeof(struct I),
         (int)sizeof(struct J), (int)sizeof(struct K), (int)sizeof(struct L),
         (int)sizeof(struct M), (int)sizeof(union U), (int)offsetof(struct N, a));
  printf("%d %d %d %d\n", (int)offsetof(struct A, b), (int)offsetof(struct J, b),
         (int)offsetof(struct F, c), (int)offsetof(struct M, l));
  printf("%d %d %d %d\n", (int)sizeof(struct P), (int)sizeof(struct Q), (int)sizeof(struct R),
         (int)sizeof(struct T));
  printf("%d %d %d %d %d\n", (int)offsetof(struct P, b), (int)offsetof(struct P, e),
         (int)offsetof(struct Q, f7), (int)offsetof(struct R, e), (int)offsetof(struct T, p));
  return 0;
}
"#;

/// `wiser run` prints what gcc's builds print, under each data model
/// gcc links.
fn prints_as_gcc(dir: &std::path::Path, prog: &std::path::Path) {
    for (flag, model) in [("-m32", "ilp32"), ("-m64", "lp64")] {
        if !gcc_links(flag, dir) {
            continue;
        }
        let (code, expected, err) = gcc_run(dir, flag, prog);
        assert_eq!(code, 0, "{err}");
        let (code, out, err) = run(prog, &["--data-model", model]);
        assert_eq!(code, 0, "{model}: {err}");
        assert_eq!(out, expected, "{model}");
    }
}

#[test]
fn layouts_are_gccs() {
    let dir = folder("bitfield-layout");
    let prog = write(&dir, "layout.c", LAYOUT);
    prints_as_gcc(&dir, &prog);
    // Whatever gcc says, this is i386's layout (seen with gcc -m32).
    let (_, out, _) = run(&prog, &[]);
    assert!(
        out.starts_with("5 2 4 8 8 4 5\n8 12 4 8 8 24 4 1\n4 1 2 8\n13 18 14 24\n1 12 6 12 8\n"),
        "{out}"
    );
}

/// gcc's `__attribute__((packed))` in both places it takes on a type,
/// with bit-fields, nested, in arrays and seen as bytes through a union.
const PACKED: &str = r#"#include <stdio.h>
#include <stddef.h>
struct __attribute__((packed)) P { char a; int b; short c; };
struct Q { char a; long long b; unsigned f : 3; int g : 30; char e; } __attribute__ ((__packed__));
typedef struct { char a; struct P p; int x; } __attribute__((packed)) R;
struct __attribute__((packed)) S { short s; char t; };
struct U { char c; struct P p; };
union V { struct P p; unsigned char by[7]; };
int main(void) {
  printf("%d %d %d %d %d\n", (int)sizeof(struct P), (int)sizeof(struct Q), (int)sizeof(R),
         (int)sizeof(struct S), (int)sizeof(struct U));
  printf("%d %d %d %d %d\n", (int)offsetof(struct P, b), (int)offsetof(struct Q, b),
         (int)offsetof(struct Q, e), (int)offsetof(R, x), (int)offsetof(struct U, p));
  struct P arr[3] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
  struct Q q = {1, -2, 5, -7, 'z'};
  q.g += 3;
  union V v;
  v.p.a = 1; v.p.b = 0x11223344; v.p.c = -2;
  printf("%d %d %d %lld %u %d %c\n", arr[1].a, arr[2].b, arr[0].c, q.b, q.f, q.g, q.e);
  printf("%x %x %x %x %x\n", v.by[0], v.by[1], v.by[4], v.by[5], v.by[6]);
  return 0;
}
"#;

#[test]
fn packed_attributes_lay_out_as_gccs() {
    let dir = folder("packed-layout");
    let prog = write(&dir, "packed.c", PACKED);
    prints_as_gcc(&dir, &prog);
    let (_, out, _) = run(&prog, &[]);
    assert!(out.starts_with("7 15 12 3 8\n1 1 14 8 1\n"), "{out}");
    // Attributes wiser does not lay out: a structure with one has no
    // byte layout, so `sizeof` of it is refused (gcc says 16, 16, 6 and
    // 16);
    // a program that needs no layout of it runs.
    for (def, attribute, first) in [
        (
            "struct T { char c; int i __attribute__((aligned(8))); };",
            "`struct T` has `__attribute__((aligned))` on a member",
            "c",
        ),
        (
            "struct T { int x; } __attribute__((aligned(16)));",
            "`struct T` has `__attribute__((aligned))`,",
            "x",
        ),
        (
            "struct T { char c; int i; } __attribute__((packed, aligned(2)));",
            "`struct T` has `__attribute__((aligned))`,",
            "c",
        ),
        (
            "typedef int A8 __attribute__((aligned(8))); struct T { char c; A8 a; };",
            "a type with `__attribute__((aligned))`,",
            "c",
        ),
    ] {
        let sized = format!("{def}\nint main(void) {{ return (int)sizeof(struct T); }}\n");
        let sized = write(&dir, "sized.c", &sized);
        let (code, _, err) = run(&sized, &[]);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains(attribute) && err.contains("sized.c:2:30"),
            "{err}"
        );
        let used =
            format!("{def}\nint main(void) {{ struct T t = {{1}}; return t.{first} - 1; }}\n");
        let (code, _, err) = run(&write(&dir, "used.c", &used), &[]);
        assert_eq!(code, 0, "{err}");
    }
}

#[test]
fn a_bug_behind_a_bit_field_is_found_and_replayed_by_gcc() {
    let dir = folder("bitfield-symbolic");
    let prog = write(
        &dir,
        "bug.c",
        "#include <assert.h>
extern int __VERIFIER_nondet_int(void);
struct packet { unsigned kind : 3; signed level : 4; unsigned : 0; unsigned len : 12; };
int main(void) {
    struct packet p;
    p.kind = __VERIFIER_nondet_int();
    p.level = __VERIFIER_nondet_int();
    p.len = __VERIFIER_nondet_int();
    if (p.kind == 6 && p.level == -8 && p.len > 4000)
        assert(0);
    return 0;
}
",
    );
    let (code, json) = check_json(&prog, &[]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"][0]["kind"], "assertion");
    assert_gcc_confirms(&dir, &prog);
    // With the widths respected, no value reaches a kind of 9.
    let safe = write(
        &dir,
        "safe.c",
        "#include <assert.h>
extern int __VERIFIER_nondet_int(void);
struct packet { unsigned kind : 3; signed level : 4; };
int main(void) {
    struct packet p;
    p.kind = __VERIFIER_nondet_int();
    p.level = __VERIFIER_nondet_int();
    assert(p.kind <= 7 && p.level >= -8 && p.level <= 7);
    return 0;
}
",
    );
    let (code, json) = check_json(&safe, &[]);
    assert_eq!(code, 0, "{json}");
}

#[test]
fn what_c_and_wiser_refuse_is_said() {
    let dir = folder("bitfield-errors");
    let cases = [
        (
            "address.c",
            "struct S { int a : 3; int b; };\nint main(void) { struct S s; int *p = &s.a; return *p; }\n",
            "cannot take the address of the bit-field `a`",
            "address.c:2:40",
        ),
        (
            "wide.c",
            "struct S { int a : 33; };\nint main(void) { struct S s; s.a = 1; return s.a; }\n",
            "the width of the bit-field `a` is 33, outside 0 to 32",
            "wide.c:1:20",
        ),
        (
            "wider.c",
            "struct S { unsigned long long a : 40; };\nint main(void) { struct S s; s.a = 1; return 0; }\n",
            "unsupported in C programs: bit-fields wider than `int` and narrower than their type",
            "wider.c:1:35",
        ),
        (
            "enum.c",
            "enum E { A, B, C, D };\nstruct S { enum E e : 2; };\nint main(void) { struct S s; s.e = D; return s.e == D; }\n",
            "unsupported in C programs: bit-fields of enumerated types",
            "enum.c:2:12",
        ),
        (
            "typedef.c",
            "typedef enum { A, B, C, D } E;\ntypedef E F;\nstruct S { F e : 2; };\nint main(void) { struct S s; s.e = D; return s.e == D; }\n",
            "unsupported in C programs: bit-fields of enumerated types",
            "typedef.c:3:12",
        ),
        (
            "zero.c",
            "struct S { int a : 0; };\nint main(void) { struct S s; return 0; }\n",
            "the bit-field `a` has width 0",
            "zero.c:1:20",
        ),
        (
            // (`sizeof (k ? s.a : s.b)` is an `int`'s: a value, no
            // bit-field.)
            "sizeof.c",
            "struct S { int a : 3; int b; };\nint main(void) { struct S s = {1, 2}, *p = &s; int k = 0;\n  return (int)sizeof(k ? s.a : s.b) + (int)sizeof(p->a); }\n",
            "`sizeof` applied to the bit-field `a`",
            "sizeof.c:3:44",
        ),
    ];
    for (name, text, what, at) in cases {
        let prog = write(&dir, name, text);
        let (code, _, err) = run(&prog, &[]);
        assert_eq!(code, 2, "{name}: {err}");
        assert!(err.contains(what), "{name}: {err}");
        assert!(err.contains(at), "{name}: {err}");
    }
}

/// Facts about unions with bit-fields (Csmith writes them): a store
/// through one member sets the bits it shares with the others.
const UNION_FACTS: &str = r#"#include <assert.h>
#include <stdint.h>
extern int __VERIFIER_nondet_int(void);
union U0 { signed f0 : 20; uint64_t f1; };
union U2 { struct { unsigned a : 3; signed b : 7; unsigned c : 22; } s; uint32_t w; uint8_t by[4]; };
union U3 { unsigned x : 12; int16_t h; };
#pragma pack(push)
#pragma pack(1)
struct S0 { signed f0 : 5; uint8_t f1; unsigned f2 : 14; int16_t f3; };
#pragma pack(pop)
union U4 { struct S0 s; uint64_t w; uint8_t b[8]; };
union U0 g = {-5};
int main(void) {
  union U0 u;
  u.f1 = 0x123456789abcdefULL;
  assert(u.f0 == -274961);
  u.f0 = -1;
  assert(u.f1 == 0x123456789afffffULL);
  u.f0 = 0x7ffff + 3;
  assert(u.f1 == 0x123456789a80002ULL && u.f0 == -524286);
  union U2 v;
  v.w = 0xdeadbeef;
  assert(v.s.a == 7 && v.s.b == -35 && v.s.c == 3648367);
  v.s.b = -2;
  v.s.a++;
  assert(v.w == 0xdeadbff0 && v.by[0] == 0xf0 && v.by[1] == 0xbf);
  v.by[3] = 0x80;
  assert(v.s.c == 2108271);
  union U3 t = {0xfff};
  assert(t.h == 4095);
  t.h = -32768;
  assert(t.x == 0);
  assert(g.f0 == -5 && g.f1 == 0xffffbu);
  union U4 p;
  p.w = 0x0123456789abcdefULL;
  assert(p.s.f0 == 15 && p.s.f1 == 205 && p.s.f2 == 2475 && p.s.f3 == 17767);
  p.s.f2 = 0x3fff;
  p.s.f3 = -2;
  assert(p.w == 0x123fffebfffcdefULL && sizeof(struct S0) == 6);
  union U2 w2 = v;
  assert(w2.s.b == -2 && w2.w == v.w);
  int k = __VERIFIER_nondet_int();
  v.w = k;
  assert(v.s.a == (k & 7) && v.s.c == ((unsigned)k >> 10));
  assert(sizeof(union U0) == 8 && sizeof(union U2) == 4 && sizeof(union U3) == 4);
  return 0;
}
"#;

#[test]
fn union_members_share_a_bit_fields_bits() {
    assert_facts(
        &folder("bitfield-union-facts"),
        UNION_FACTS,
        support::c::Facts::Safe,
        0x12345678,
        &[
            ("u.f0 == -274961", "u.f0 == 774287"),
            ("v.s.b == -35", "v.s.b == 93"),
            ("v.s.c == 2108271", "v.s.c == 2108270"),
            ("p.s.f2 == 2475", "p.s.f2 == 2476"),
            (
                "v.s.a == (k & 7) && v.s.c",
                "v.s.a == (k & 7) && k != 4242 && v.s.c",
            ),
        ],
    );
}

/// Bit-fields of every integer type gcc accepts, and the types their
/// values have (`sizeof` and `?:` see them).
const MIXED: &str = r#"#include <assert.h>
extern int __VERIFIER_nondet_int(void);
struct mixed { char c : 3; short h : 9; long long q : 64; unsigned long long r : 20; long l : 7; unsigned char uc : 2; unsigned u : 5; };
int main(void) {
  struct mixed m = {3, -257, -5, 0xfffff, 64, 7, 3};
  assert(m.c == 3 && m.h == 255 && m.q == -5 && m.r == 0xfffff && m.l == -64 && m.uc == 3);
  m.c++;
  assert(m.c == -4);
  assert(sizeof(m.r + 0) == 4 && m.r + 1 == 0x100000 && m.uc - 4 < 0);
  m.q = m.q * 3;
  assert(m.q == -15 && sizeof(m.q + 0) == 8 && sizeof(m.c + 0) == 4);
  int k = __VERIFIER_nondet_int();
  assert(((k ? m.u : -1) < 0) == !k);
  return 0;
}
"#;

#[test]
fn bit_fields_of_every_integer_type_have_gccs_types() {
    assert_facts(
        &folder("bitfield-mixed"),
        MIXED,
        support::c::Facts::Safe,
        1,
        &[("m.c == -4", "m.c == 4"), ("m.uc - 4 < 0", "m.uc - 4 > 0")],
    );
}
