//! Golden tests of `f32` and `f64`: literals, the typing rules of floats,
//! and their lowering to the IR's float operations. Each case compiles a
//! program and compares the IR listing or the rendered diagnostic. Run
//! with `UPDATE_EXPECT=1` to regenerate the expectations after an intended
//! change, then review the diff.

use expect_test::{expect, Expect};
use wiser_imp::ast::{Expr, Stmt, Ty};
use wiser_imp::SourceMap;
use wiser_num::FloatTy;

/// Compiles `src`; renders the IR or the diagnostic.
fn check(src: &str, expect: Expect) {
    let out = match wiser_imp::compile(src) {
        Ok(ir) => ir.to_string(),
        Err(d) => SourceMap::new("test.imp", src).render(&d),
    };
    expect.assert_eq(&out);
}

/// The value of the first assignment or declaration of `src`.
fn first_value(src: &str) -> Expr {
    let p = wiser_imp::parse_program(src).unwrap();
    let first = match p.main {
        Stmt::Seq(items) => items.into_iter().next().unwrap(),
        s => s,
    };
    first.assigned_value().unwrap().1.clone()
}

// ----- literals --------------------------------------------------------------

#[test]
fn float_literals_are_lexed_with_a_point_or_an_exponent() {
    for (src, text) in [
        ("x = 1.5", "1.5"),
        ("x = 0.1", "0.1"),
        ("x = 1e-3", "1e-3"),
        ("x = 2E10", "2E10"),
        ("x = 1.25e+2", "1.25e+2"),
        ("x = -0.0", "-0.0"),
        ("x = -1e3", "-1e3"),
    ] {
        match first_value(src) {
            Expr::Float { text: t, .. } => assert_eq!(&*t, text, "{src}"),
            other => panic!("{src}: {other:?}"),
        }
    }
    // Integers stay integers.
    assert!(matches!(first_value("x = 15"), Expr::Num { .. }));
}

#[test]
fn float_literals_print_back_as_written() {
    let src = "var x: f32 = -1.5e-3;\nx = x * 2.0 - -(0.5);\nassert x < 1e10\n";
    let p = wiser_imp::parse_program(src).unwrap();
    let printed = p.to_string();
    assert_eq!(
        printed,
        "var x: f32 = -1.5e-3;\nx = x * 2.0 - -(0.5);\nassert x < 1e10\n"
    );
    assert_eq!(wiser_imp::parse_program(&printed).unwrap(), p);
}

#[test]
fn malformed_float_literals() {
    // A point needs digits on both sides; an exponent needs digits.
    check(
        "x = 1e",
        expect![[r#"
            error: invalid name `1e`
             --> test.imp:1:5
              |
            1 | x = 1e
              |     ^^
              = help: names start with a letter or `_`
        "#]],
    );
    check(
        "x = 1.5e+",
        expect![[r#"
            error: invalid name `1.5e`
             --> test.imp:1:5
              |
            1 | x = 1.5e+
              |     ^^^^
              = help: names start with a letter or `_`
        "#]],
    );
    check(
        "x = 1.5x",
        expect![[r#"
            error: invalid name `1.5x`
             --> test.imp:1:5
              |
            1 | x = 1.5x
              |     ^^^^
              = help: names start with a letter or `_`
        "#]],
    );
    check(
        "x = 2.",
        expect![[r#"
            error: expected ';' or end of input, found '.'
             --> test.imp:1:6
              |
            1 | x = 2.
              |      ^
        "#]],
    );
}

#[test]
fn type_names_include_the_floats() {
    assert_eq!(Ty::from_name("f32"), Some(Ty::Float(FloatTy::F32)));
    assert_eq!(Ty::from_name("f64"), Some(Ty::Float(FloatTy::F64)));
    let names: Vec<String> = Ty::named().map(|t| t.to_string()).collect();
    assert_eq!(names.last().map(String::as_str), Some("f64"));
}

// ----- lowering ----------------------------------------------------------------

#[test]
fn a_literal_rounds_once_to_its_context_type() {
    // 0.1 rounded to binary32 directly (0x3dcccccd), not through binary64;
    // an integer literal where a float is expected is converted exactly.
    check(
        "var x: f32 = 0.1; var y: f64 = 0.1; var z: f64 = 3; var w: f32 = f32(0.1)",
        expect![[r#"
            routine main(0) [0:x:f32, 1:y:f64, 2:z:f64, 3:w:f32] entry 0
                0: x = 0.1:f32 -> 1
                1: y = 0.1:f64 -> 2
                2: z = 3.0:f64 -> 3
                3: w = 0.1:f32 -> 4
                4: halt
        "#]],
    );
}

#[test]
fn literals_inside_a_cast() {
    // A lone literal takes the float type of the cast; an expression of
    // literals is typed without it, as in C: `f64(7 / 2)` is 3.0, and
    // `f32(0.1 + 0.2)` adds in f64, then rounds to f32.
    check(
        "var a: f32 = f32(16777217); var b: f64 = f64(7 / 2); var c: f32 = f32(0.1 + 0.2); \
         var d: i32 = i32(2.7); var e: i32 = i32(-2.7)",
        expect![[r#"
            routine main(0) [0:a:f32, 1:b:f64, 2:c:f32, 3:d:i32, 4:e:i32] entry 0
                0: a = 16777216.0:f32 -> 1
                1: b = (f64)int((7 /:int 2)) -> 2
                2: c = (f32)f64((0.1:f64 +:f64 0.2:f64)) -> 3
                3: d = (i32)f64(2.7:f64) -> 4
                   check float_conversion if overflows(i32)f64(2.7:f64)
                4: e = (i32)f64(-2.7:f64) -> 5
                   check float_conversion if overflows(i32)f64(-2.7:f64)
                5: halt
        "#]],
    );
}

#[test]
fn a_literal_with_no_context_is_an_f64() {
    check(
        "x: f64 = *; assert 0.1 + 0.2 != 0.3; assert 1 < 1.5",
        expect![[r#"
        routine main(0) [0:x:f64] entry 0
            0: x = *:f64 -> 1
            1: assert ((0.1:f64 +:f64 0.2:f64) !=:f64 0.3:f64) -> 2
            2: assert (1.0:f64 <:f64 1.5:f64) -> 3
            3: halt
    "#]],
    );
}

#[test]
fn float_arithmetic_comparisons_and_conversions() {
    check(
        "var x: f32 = *;
var n: i32 = *;
var d: f64 = f64(x) / 3.0;
var e: f32 = -x * 2 + f32(n);
var k: i64 = i64(d);
var m: u8 = u8(e);
var j: int = int(x);
var g: f64 = f64(j);
assert d >= 0.0 and e != e",
        expect![[r#"
            routine main(0) [0:x:f32, 1:n:i32, 2:d:f64, 3:e:f32, 4:k:i64, 5:m:u8, 6:j:int, 7:g:f64] entry 0
                0: x = *:f32 -> 1
                1: n = *:i32 -> 2
                2: d = ((f64)f32(x) /:f64 3.0:f64) -> 3
                3: e = ((-.f32(x) *:f32 2.0:f32) +:f32 (f32)i32(n)) -> 4
                4: k = (i64)f64(d) -> 5
                   check float_conversion if overflows(i64)f64(d)
                5: m = (u8)f32(e) -> 6
                   check float_conversion if overflows(u8)f32(e)
                6: j = (int)f32(x) -> 7
                   check float_conversion if overflows(int)f32(x)
                7: g = (f64)int(j) -> 8
                8: assert ((d >=:f64 0.0:f64) and (e !=:f32 e)) -> 9
                9: halt
        "#]],
    );
}

#[test]
fn float_parameters_results_arrays_and_inputs() {
    check(
        "proc half(x: f64) : f64 begin return x / 2 end
proc zero() : f32 begin skip end
var a: f32[];
var v: f64;
a[0] = 1.5;
var r: f32 = *;
r = *;
h = 0;
var h: f64;
h = half(v);
var z: f32;
z = zero();
assert a[0] + r > z",
        expect![[r#"
            array a0 a: [int] f32 = input
            routine main(0) [0:v:f64, 1:r:f32, 2:h:f64, 3:z:f32] entry 0
              inputs v
                0: a[0] = 1.5:f32 -> 1
                1: r = *:f32 -> 2
                2: r = *:f32 -> 3
                3: h = 0.0:f64 -> 4
                4: h = half(v) -> 5
                5: z = zero() -> 6
                6: assert ((a[0] +:f32 r) >:f32 z) -> 7
                7: halt
            routine half(1) -> f64 [0:x:f64] entry 8
                8: return (x /:f64 2.0:f64)
            routine zero(0) -> f32 [] entry 9
                9: return 0.0:f32
        "#]],
    );
}

// ----- type errors ---------------------------------------------------------------

#[test]
fn mixing_float_types_is_an_error() {
    check(
        "var a: f32 = *; var b: f64 = *; c: f64 = a + b",
        expect![[r#"
            error: mismatched types `f32` and `f64` in `+`
             --> test.imp:1:44
              |
            1 | var a: f32 = *; var b: f64 = *; c: f64 = a + b
              |                                            ^
              = help: convert one operand with a cast, e.g. `f64(a)`
        "#]],
    );
    check(
        "var a: f32 = *; var b: f64 = *; assert a < b",
        expect![[r#"
            error: mismatched types `f32` and `f64` in `<`
             --> test.imp:1:40
              |
            1 | var a: f32 = *; var b: f64 = *; assert a < b
              |                                        ^^^^^
              = help: convert one operand with a cast, e.g. `f64(a)`
        "#]],
    );
}

#[test]
fn remainder_and_bitwise_operators_on_floats_are_errors() {
    check(
        "var a: f64 = *; b: f64 = a % 2.0",
        expect![[r#"
        error: `%` cannot be applied to floats (`f64`)
         --> test.imp:1:28
          |
        1 | var a: f64 = *; b: f64 = a % 2.0
          |                            ^
          = help: floats have `+ - * /`, unary `-` and comparisons; `%` needs integers, e.g. `i64(a)`
    "#]],
    );
    check(
        "var a: f64 = *; b: f64 = 2 % a",
        expect![[r#"
        error: `%` cannot be applied to floats (`f64`)
         --> test.imp:1:28
          |
        1 | var a: f64 = *; b: f64 = 2 % a
          |                            ^
          = help: floats have `+ - * /`, unary `-` and comparisons; `%` needs integers, e.g. `i64(a)`
    "#]],
    );
    check(
        "var a: f32 = *; b: f32 = a & a",
        expect![[r#"
        error: `&` cannot be applied to floats (`f32`)
         --> test.imp:1:28
          |
        1 | var a: f32 = *; b: f32 = a & a
          |                            ^
          = help: floats have `+ - * /`, unary `-` and comparisons; `&` needs integers, e.g. `i64(a)`
    "#]],
    );
    check(
        "var a: f32 = *; b: f32 = ~a",
        expect![[r#"
        error: `~` cannot be applied to floats (`f32`)
         --> test.imp:1:26
          |
        1 | var a: f32 = *; b: f32 = ~a
          |                          ^^
          = help: floats have `+ - * /`, unary `-` and comparisons; `~` needs integers, e.g. `i64(a)`
    "#]],
    );
    check(
        "var a: f32 = *; b: f32 = a << 1",
        expect![[r#"
        error: `<<` cannot be applied to floats (`f32`)
         --> test.imp:1:28
          |
        1 | var a: f32 = *; b: f32 = a << 1
          |                            ^^
          = help: floats have `+ - * /`, unary `-` and comparisons; `<<` needs integers, e.g. `i64(a)`
    "#]],
    );
    check(
        "b: f64 = 1.5 % 2",
        expect![[r#"
        error: `%` cannot be applied to floats (`f64`)
         --> test.imp:1:14
          |
        1 | b: f64 = 1.5 % 2
          |              ^
          = help: floats have `+ - * /`, unary `-` and comparisons; `%` needs integers, e.g. `i64(1.5)`
    "#]],
    );
}

#[test]
fn conversions_need_casts() {
    check(
        "var a: f32 = *; var b: i8 = a",
        expect![[r#"
        error: cannot assign an `f32` to `i8` without a cast
         --> test.imp:1:29
          |
        1 | var a: f32 = *; var b: i8 = a
          |                             ^
          = help: convert it with a cast, e.g. `i8(a)`
    "#]],
    );
    check(
        "var a: f32 = *; var b: f64 = a",
        expect![[r#"
        error: cannot assign an `f32` to `f64` without a cast
         --> test.imp:1:30
          |
        1 | var a: f32 = *; var b: f64 = a
          |                              ^
          = help: convert it with a cast, e.g. `f64(a)`
    "#]],
    );
    check(
        "var n: i32 = *; var b: f64 = n",
        expect![[r#"
        error: cannot assign an `i32` to `f64` without a cast
         --> test.imp:1:30
          |
        1 | var n: i32 = *; var b: f64 = n
          |                              ^
          = help: convert it with a cast, e.g. `f64(n)`
    "#]],
    );
    check(
        "var n: i32 = *; var b: f64 = n + 0.5",
        expect![[r#"
        error: expected an integer of type `i32`, found the float literal `0.5`
         --> test.imp:1:34
          |
        1 | var n: i32 = *; var b: f64 = n + 0.5
          |                                  ^^^
          = help: write an integer, or convert with a cast (truncating toward zero): `i32(0.5)`
    "#]],
    );
    check(
        "var b: i32 = 1.5",
        expect![[r#"
        error: expected an integer of type `i32`, found the float literal `1.5`
         --> test.imp:1:14
          |
        1 | var b: i32 = 1.5
          |              ^^^
          = help: write an integer, or convert with a cast (truncating toward zero): `i32(1.5)`
    "#]],
    );
    check(
        "var b: f32 = 1e39",
        expect![[r#"
        error: `1e39` does not fit `f32`
         --> test.imp:1:14
          |
        1 | var b: f32 = 1e39
          |              ^^^^
          = help: it rounds to infinity; `f32`'s largest finite value is about 3.4e38
    "#]],
    );
    check(
        "var a: f64 = *; var t: int[]; t[a] = 1",
        expect![[r#"
        error: a subscript must be an integer, not an `f64`
         --> test.imp:1:33
          |
        1 | var a: f64 = *; var t: int[]; t[a] = 1
          |                                 ^
          = help: convert it with a cast, e.g. `int(a)` (truncating toward zero)
    "#]],
    );
}

#[test]
fn floats_are_not_fields_or_globals() {
    check(
        "class P begin x: f64 end skip",
        expect![[r#"
        error: field `x` cannot have the float type `f64`
         --> test.imp:1:18
          |
        1 | class P begin x: f64 end skip
          |                  ^^^
          = help: fields and globals hold integers and references; keep the float in a variable, a parameter or an array (`var a: f64[]`)
    "#]],
    );
    check(
        "global g: f64 = 1.5\nskip",
        expect![[r#"
        error: global `g` cannot have the float type `f64`
         --> test.imp:1:11
          |
        1 | global g: f64 = 1.5
          |           ^^^
          = help: fields and globals hold integers and references; keep the float in a variable, a parameter or an array (`var a: f64[]`)
    "#]],
    );
    check(
        "global g: f32 = 0\nskip",
        expect![[r#"
        error: global `g` cannot have the float type `f32`
         --> test.imp:1:11
          |
        1 | global g: f32 = 0
          |           ^^^
          = help: fields and globals hold integers and references; keep the float in a variable, a parameter or an array (`var a: f64[]`)
    "#]],
    );
}

#[test]
fn a_procedure_named_like_a_float_type_is_still_called() {
    // Type names are not keywords: a program that defines `f32` calls it.
    check(
        "proc f32(a) begin return a + 1 end\nx = f32(3)",
        expect![[r#"
            routine main(0) [0:x:int] entry 0
                0: x = f32(3) -> 1
                1: halt
            routine f32(1) -> int [0:a:int] entry 2
                2: return (a +:int 1)
        "#]],
    );
}
