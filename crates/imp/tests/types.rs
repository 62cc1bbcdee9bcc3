//! Golden tests of machine integers: each case compiles a program and
//! compares either the IR listing (the `Display` of `wiser_ir::Ir`) or the
//! rendered diagnostic. Run with `UPDATE_EXPECT=1` to regenerate the
//! expectations after an intended change, then review the diff.

use expect_test::{expect, Expect};
use wiser_imp::SourceMap;

/// Compiles `src`; renders the IR or the diagnostic.
fn check(src: &str, expect: Expect) {
    let out = match wiser_imp::compile(src) {
        Ok(ir) => ir.to_string(),
        Err(d) => SourceMap::new("test.imp", src).render(&d),
    };
    expect.assert_eq(&out);
}

// ----- lowering ----------------------------------------------------------------

#[test]
fn seed_004_bounded_loop() {
    // `i < n` compares a `u32` with a `u8`: `n` is converted.
    check(
        "n: u8 = *;
assume n != 0;
var v: u8 = 0;
var s: u8 = 0;
var i: u32 = 0;
while i < n do
  v = *;
  s = s + v;
  i = i + 1
od;
assert s >= v",
        expect![[r#"
            routine main(0) [0:n:u8, 1:v:u8, 2:s:u8, 3:i:u32] entry 0
                0: n = *:u8 -> 1
                1: assume (n !=:u8 0:u8) -> 2
                2: v = 0:u8 -> 3
                3: s = 0:u8 -> 4
                4: i = 0:u32 -> 5
                5: if (i <:u32 u32(n)) -> 6 else 9
                6: v = *:u8 -> 7
                7: s = (s +:u8 v) -> 8
                8: i = (i +:u32 1:u32) -> 5
                9: assert (s >=:u8 v) -> 10
               10: halt
        "#]],
    );
}

#[test]
fn unannotated_programs_keep_unbounded_integers() {
    check(
        "y = x / 2; if y * 2 == x then z = -y else z = y % 3 fi; assert z != 7",
        expect![[r#"
            routine main(0) [0:y:int, 1:x:int, 2:z:int] entry 0
              inputs x
                0: y = (x /:int 2) -> 1
                1: if ((y *:int 2) ==:int x) -> 2 else 3
                2: z = (-:int y) -> 4
                3: z = (y %:int 3) -> 4
                4: assert (z !=:int 7) -> 5
                5: halt
        "#]],
    );
}

#[test]
fn literals_take_the_type_of_their_context() {
    check(
        "x: u8 = *; y: i16 = -300; assert x + 1 > x; assert 1 < 2; z = 1 + 2; w: u16 = x",
        expect![[r#"
            routine main(0) [0:x:u8, 1:y:i16, 2:z:int, 3:w:u16] entry 0
                0: x = *:u8 -> 1
                1: y = -300:i16 -> 2
                2: assert ((x +:u8 1:u8) >:u8 x) -> 3
                3: assert (1 <:int 2) -> 4
                4: z = (1 +:int 2) -> 5
                5: w = u16(x) -> 6
                6: halt
        "#]],
    );
}

#[test]
fn signed_arithmetic_and_division_get_their_checks() {
    check(
        "x: i32 = *; y: i32 = *; assume y != 0; z: i32 = x / y + -x; w: u32 = u32(x) % 7",
        expect![[r#"
            routine main(0) [0:x:i32, 1:y:i32, 2:z:i32, 3:w:u32] entry 0
                0: x = *:i32 -> 1
                1: y = *:i32 -> 2
                2: assume (y !=:i32 0:i32) -> 3
                3: z = ((x /:i32 y) +:i32 (-:i32 x)) -> 4
                   check division_by_zero if (y ==:i32 0:i32)
                   check division_overflow if overflows(x /:i32 y)
                   check signed_overflow if overflows(-:i32 x)
                   check signed_overflow if overflows((x /:i32 y) +:i32 (-:i32 x))
                4: w = (u32(x) %:u32 7:u32) -> 5
                5: halt
        "#]],
    );
}

#[test]
fn short_circuit_operands_are_checked_under_a_guard() {
    check(
        "x: u8 = *; y: u8 = *; assert y == 0 or x / y < 10",
        expect![[r#"
            routine main(0) [0:x:u8, 1:y:u8] entry 0
                0: x = *:u8 -> 1
                1: y = *:u8 -> 2
                2: assert ((y ==:u8 0:u8) or ((x /:u8 y) <:u8 10:u8)) -> 3
                   check division_by_zero if (y ==:u8 0:u8) when not (y ==:u8 0:u8)
                3: halt
        "#]],
    );
}

#[test]
fn casts_bitwise_operators_and_shifts() {
    check(
        "x: u32 = *; k: u8 = *; y: u8 = u8(x >> 24) ^ ~u8(x) & 15 | 1; \
         s: i8 = i8(y) << k; t = int(s) + 1; c: u8 = u8(300)",
        expect![[r#"
            routine main(0) [0:x:u32, 1:k:u8, 2:y:u8, 3:s:i8, 4:t:int, 5:c:u8] entry 0
                0: x = *:u32 -> 1
                1: k = *:u8 -> 2
                2: y = ((u8((x >>:u32 u32(24))) ^:u8 ((~:u8 u8(x)) &:u8 15:u8)) |:u8 1:u8) -> 3
                3: s = (i8(y) <<:i8 i8(k)) -> 4
                   check invalid_shift if (k >=:u8 8:u8)
                   check signed_overflow if overflows(i8(y) <<:i8 i8(k))
                4: t = (int(s) +:int 1) -> 5
                5: c = 44:u8 -> 6
                6: halt
        "#]],
    );
}

#[test]
fn arrays_with_typed_elements_and_subscripts() {
    check(
        "var a: u8[]; i: u16 = *; a[i] = a[i + 1] + 1; b[a[0]] = -1; assert a[i] != 0",
        expect![[r#"
            array a0 a: [int] u8 = input
            array a1 b: [int] int = input
            routine main(0) [0:i:u16] entry 0
                0: i = *:u16 -> 1
                1: a[int(i)] = (a[int((i +:u16 1:u16))] +:u8 1:u8) -> 2
                2: b[int(a[0])] = -1 -> 3
                3: assert (a[int(i)] !=:u8 0:u8) -> 4
                4: halt
        "#]],
    );
}

#[test]
fn typed_procedures_and_converted_results() {
    check(
        "proc fact(n: u8) : u64 begin
           if n == 0 then return 1 else r: u64 = 0; r = fact(n - 1); return r * n fi
         end
         proc low(v: u16, w) : u8 begin if w > 0 then return u8(v) else skip fi end
         x: u8 = *; y: u64 = 0; y = fact(x); z: u32 = 0; z = low(x, 1); low(7, 0)",
        expect![[r#"
            routine main(0) [0:x:u8, 1:y:u64, 2:z:u32, 3:$t1:u8] entry 0
                0: x = *:u8 -> 1
                1: y = 0:u64 -> 2
                2: y = fact(x) -> 3
                3: z = 0:u32 -> 4
                4: $t1 = low(u16(x), 1) -> 5
                5: z = u32($t1) -> 6
                6: low(7:u16, 0) -> 7
                7: halt
            routine fact(1) -> u64 [0:n:u8, 1:r:u64] entry 8
                8: if (n ==:u8 0:u8) -> 9 else 10
                9: return 1:u64
               10: r = 0:u64 -> 11
               11: r = fact((n -:u8 1:u8)) -> 12
               12: return (r *:u64 u64(n))
            routine low(2) -> u8 [0:v:u16, 1:w:int] entry 13
               13: if (w >:int 0) -> 14 else 15
               14: return u8(v)
               15: return 0:u8
        "#]],
    );
}

#[test]
fn declarations_in_macros_declare_the_callers_variables() {
    check(
        "macro bump(v) begin var v: u8 = v + 1 end
         var a: u8 = 255; bump(a); b = 0; bump(b); assert a != b",
        expect![[r#"
            routine main(0) [0:a:u8, 1:b:u8] entry 0
                0: a = 255:u8 -> 1
                1: a = (a +:u8 1:u8) -> 2
                2: b = 0:u8 -> 3
                3: b = (b +:u8 1:u8) -> 4
                4: assert (a !=:u8 b) -> 5
                5: halt
        "#]],
    );
}

// ----- static errors ----------------------------------------------------------

#[test]
fn unknown_types() {
    check(
        "x: u7 = 1",
        expect![[r#"
            error: unknown type `u7`
             --> test.imp:1:4
              |
            1 | x: u7 = 1
              |    ^^
              = help: the types are `int`, `i8`, `i16`, `i32`, `i64`, `u8`, `u16`, `u32`, `u64`, `f32` and `f64`; `int` is unbounded, `f32` and `f64` are IEEE floats
        "#]],
    );
    check(
        "proc f(a: bool) begin return a end\nskip",
        expect![[r#"
            error: unknown type `bool`
             --> test.imp:1:11
              |
            1 | proc f(a: bool) begin return a end
              |           ^^^^
              = help: the types are `int`, `i8`, `i16`, `i32`, `i64`, `u8`, `u16`, `u32`, `u64`, `f32` and `f64`; `int` is unbounded, `f32` and `f64` are IEEE floats
        "#]],
    );
    check(
        "var a: u8[; skip",
        expect![[r#"
            error: expected ']' after '[' in an array declaration, found ';'
             --> test.imp:1:11
              |
            1 | var a: u8[; skip
              |           ^
        "#]],
    );
}

#[test]
fn declaration_syntax_errors() {
    check(
        "var x = 1",
        expect![[r#"
            error: expected ':' and a type after `var x`, found '='
             --> test.imp:1:7
              |
            1 | var x = 1
              |       ^
              = help: a declaration gives the variable a type, e.g. `var x: int = 0`
        "#]],
    );
    check(
        "x: u8",
        expect![[r#"
            error: expected '=' after `x: u8`, found end of input
             --> test.imp:1:6
              |
            1 | x: u8
              |      ^
              = help: to declare `x` without a value, write `var x: u8`
        "#]],
    );
    check(
        "a: u8[]",
        expect![[r#"
            error: expected '=' after `a: u8`, found '['
             --> test.imp:1:6
              |
            1 | a: u8[]
              |      ^
              = help: an array is declared with `var`: `var a: u8[]`
        "#]],
    );
    check(
        "var a: u8[] = 0",
        expect![[r#"
            error: an array declaration has no value
             --> test.imp:1:13
              |
            1 | var a: u8[] = 0
              |             ^
              = help: arrays start with arbitrary contents; assign elements one by one
        "#]],
    );
    check(
        "proc f() begin return 1 end\nx: u8 = f()",
        expect![[r#"
            error: a declaration cannot call a procedure
             --> test.imp:2:9
              |
            2 | x: u8 = f()
              |         ^
              = help: declare the variable first, then call: `var x: u8; x = f(...)`
        "#]],
    );
    check(
        "macro m(a: u8) begin skip end\nskip",
        expect![[r#"
            error: macro parameters have no type
             --> test.imp:1:10
              |
            1 | macro m(a: u8) begin skip end
              |          ^
              = help: a macro substitutes its arguments as written; declare the variables they name, or use a `proc`
        "#]],
    );
}

#[test]
fn conflicting_declarations() {
    check(
        "var x: u8 = 1;\nif x > 0 then var x: u16 = 2 else skip fi",
        expect![[r#"
            error: `x` is already declared as `u8`
             --> test.imp:2:19
              |
            2 | if x > 0 then var x: u16 = 2 else skip fi
              |                   ^
              = help: a variable has one type in its whole routine (the main program or a procedure); remove one of the declarations or rename one of the variables
        "#]],
    );
    check(
        "var a: u8[];\nvar a: i8[]; a[0] = 1",
        expect![[r#"
            error: array `a` is already declared with elements of type `u8`
             --> test.imp:2:5
              |
            2 | var a: i8[]; a[0] = 1
              |     ^
              = help: an array has one element type in the whole program; remove one of the declarations or rename one of the arrays
        "#]],
    );
    check(
        "macro zero(v) begin var v: u8 = 0 end\nvar x: i8 = 1; zero(x)",
        expect![[r#"
            error: `x` is already declared as `i8`
             --> test.imp:2:21
              |
            2 | var x: i8 = 1; zero(x)
              |                     ^
              = help: a variable has one type in its whole routine (the main program or a procedure); remove one of the declarations or rename one of the variables
        "#]],
    );
}

#[test]
fn declaring_a_parameter() {
    check(
        "proc f(p: u8) begin var p: u8 = 1; return p end\ny = f(1)",
        expect![[r#"
            error: `p` is a parameter of `f` and cannot be declared
             --> test.imp:1:25
              |
            1 | proc f(p: u8) begin var p: u8 = 1; return p end
              |                         ^
              = help: a parameter's type is given in the signature, e.g. `proc f(p: u8)`; to assign it, write `p = ...`
        "#]],
    );
}

#[test]
fn mismatched_operand_types() {
    check(
        "var a: i32 = *; var b: u32 = *; c = a + b",
        expect![[r#"
            error: mismatched types `i32` and `u32` in `+`
             --> test.imp:1:39
              |
            1 | var a: i32 = *; var b: u32 = *; c = a + b
              |                                       ^
              = help: convert one operand with a cast, e.g. `u32(a)`
        "#]],
    );
    check(
        "var a: i8 = *; var b: u8 = *; assert a < b",
        expect![[r#"
            error: mismatched types `i8` and `u8` in `<`
             --> test.imp:1:38
              |
            1 | var a: i8 = *; var b: u8 = *; assert a < b
              |                                      ^^^^^
              = help: convert one operand with a cast, e.g. `u8(a)`
        "#]],
    );
}

#[test]
fn lossy_conversions_need_a_cast() {
    check(
        "var a: i32 = *; var b: u8 = 0; b = a",
        expect![[r#"
            error: cannot assign an `i32` to `u8` without a cast
             --> test.imp:1:36
              |
            1 | var a: i32 = *; var b: u8 = 0; b = a
              |                                    ^
              = help: convert it with a cast, e.g. `u8(a)`
        "#]],
    );
    check(
        "x = *; y: u64 = x",
        expect![[r#"
            error: cannot assign an `int` to `u64` without a cast
             --> test.imp:1:17
              |
            1 | x = *; y: u64 = x
              |                 ^
              = help: convert it with a cast, e.g. `u64(x)`
        "#]],
    );
    check(
        "proc f(p: u8) begin return p end\nx: u16 = *; y = f(x)",
        expect![[r#"
            error: cannot pass a `u16` as parameter `p: u8` of `f` without a cast
             --> test.imp:2:19
              |
            2 | x: u16 = *; y = f(x)
              |                   ^
              = help: convert it with a cast, e.g. `u8(x)`
        "#]],
    );
    check(
        "proc f(p: u16) : u8 begin return p end\ny = f(1)",
        expect![[r#"
            error: cannot return a `u16` as a `u8` without a cast
             --> test.imp:1:34
              |
            1 | proc f(p: u16) : u8 begin return p end
              |                                  ^
              = help: convert it with a cast, e.g. `u8(p)`
        "#]],
    );
    check(
        "var a: i8[]; x: u8 = *; a[0] = x",
        expect![[r#"
            error: cannot store a `u8` in an array of `i8` without a cast
             --> test.imp:1:32
              |
            1 | var a: i8[]; x: u8 = *; a[0] = x
              |                                ^
              = help: convert it with a cast, e.g. `i8(x)`
        "#]],
    );
    check(
        "proc f() : u16 begin return 1 end\nvar x: u8 = 0; x = f()",
        expect![[r#"
            error: cannot assign a `u16` to `u8` without a cast
             --> test.imp:2:16
              |
            2 | var x: u8 = 0; x = f()
              |                ^^^^^^^
              = help: `f` returns a `u16`: store the result in a variable of that type first, then convert it, e.g. `x = u8(t)`
        "#]],
    );
}

#[test]
fn bitwise_operators_on_int() {
    check(
        "x = *; y = x & 1",
        expect![[r#"
            error: bitwise operators need fixed-width operands; `x` is `int`
             --> test.imp:1:12
              |
            1 | x = *; y = x & 1
              |            ^
              = help: declare `x` with a fixed-width type, e.g. `var x: u32`, or convert it with a cast, e.g. `u32(x)`
        "#]],
    );
    check(
        "x: u8 = *; y = *; z = x | y",
        expect![[r#"
            error: bitwise operators need fixed-width operands; `y` is `int`
             --> test.imp:1:27
              |
            1 | x: u8 = *; y = *; z = x | y
              |                           ^
              = help: declare `y` with a fixed-width type, e.g. `var y: u32`, or convert it with a cast, e.g. `u32(y)`
        "#]],
    );
    check(
        "x = *; y = ~x",
        expect![[r#"
            error: bitwise operators need fixed-width operands; `x` is `int`
             --> test.imp:1:13
              |
            1 | x = *; y = ~x
              |             ^
              = help: declare `x` with a fixed-width type, e.g. `var x: u32`, or convert it with a cast, e.g. `u32(x)`
        "#]],
    );
    check(
        "x = *; y = x << 2",
        expect![[r#"
            error: bitwise operators need fixed-width operands; `x` is `int`
             --> test.imp:1:12
              |
            1 | x = *; y = x << 2
              |            ^
              = help: declare `x` with a fixed-width type, e.g. `var x: u32`, or convert it with a cast, e.g. `u32(x)`
        "#]],
    );
    check(
        "z = 1 << 3",
        expect![[r#"
            error: bitwise operators need fixed-width operands; `1` is `int`
             --> test.imp:1:5
              |
            1 | z = 1 << 3
              |     ^
              = help: convert it with a cast, e.g. `u32(1)`
        "#]],
    );
}

#[test]
fn literals_out_of_range() {
    check(
        "x: u8 = 256",
        expect![[r#"
            error: `256` does not fit `u8`
             --> test.imp:1:9
              |
            1 | x: u8 = 256
              |         ^^^
              = help: `u8` holds 0 to 255; to wrap the value, cast it: `u8(256)`
        "#]],
    );
    check(
        "x: i8 = -129",
        expect![[r#"
            error: `-129` does not fit `i8`
             --> test.imp:1:9
              |
            1 | x: i8 = -129
              |         ^^^^
              = help: `i8` holds -128 to 127; to wrap the value, cast it: `i8(-129)`
        "#]],
    );
    check(
        "x: u8 = -1",
        expect![[r#"
            error: `-1` does not fit `u8`
             --> test.imp:1:9
              |
            1 | x: u8 = -1
              |         ^^
              = help: `u8` holds 0 to 255; to wrap the value, cast it: `u8(-1)`
        "#]],
    );
    check(
        "x: u8 = *; assert x < 300",
        expect![[r#"
            error: `300` does not fit `u8`
             --> test.imp:1:23
              |
            1 | x: u8 = *; assert x < 300
              |                       ^^^
              = help: `u8` holds 0 to 255; to wrap the value, cast it: `u8(300)`
        "#]],
    );
}

#[test]
fn shifting_a_literal_without_a_type() {
    check(
        "assert 1 << 2 == 4",
        expect![[r#"
            error: cannot infer a fixed-width type for `1`
             --> test.imp:1:8
              |
            1 | assert 1 << 2 == 4
              |        ^
              = help: bitwise operators need fixed-width operands, and nothing here gives this literal a type; write a cast, e.g. `u32(1)`
        "#]],
    );
    check(
        "x: u8 = u8(1 << 7)",
        expect![[r#"
            error: cannot infer a fixed-width type for `1`
             --> test.imp:1:12
              |
            1 | x: u8 = u8(1 << 7)
              |            ^
              = help: bitwise operators need fixed-width operands, and nothing here gives this literal a type; write a cast, e.g. `u32(1)`
        "#]],
    );
}
