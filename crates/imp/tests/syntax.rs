//! Golden tests of the syntax of machine integers: each case parses a
//! program and shows it printed fully parenthesised (`{:#}`), which shows
//! exactly how it was parsed, then printed plainly, which must parse back
//! to the same print; or the diagnostic. Run with `UPDATE_EXPECT=1` to
//! regenerate the expectations after an intended change.

use expect_test::{expect, Expect};
use wiser_imp::{parse_program, SourceMap};

/// Parses `src`; renders both prints (checking that the plain one parses
/// back to itself) or the diagnostic.
fn check(src: &str, expect: Expect) {
    let out = match parse_program(src) {
        Err(d) => SourceMap::new("test.imp", src).render(&d),
        Ok(p) => {
            let plain = p.to_string();
            let again = parse_program(&plain).map(|q| q.to_string());
            assert_eq!(again.as_ref(), Ok(&plain), "the print does not parse back");
            format!("{p:#}---\n{plain}")
        }
    };
    expect.assert_eq(&out);
}

#[test]
fn precedence_of_bitwise_operators() {
    check(
        "x = a | b ^ c & d << e + f * -g; y = a >> 1 << 2; z = a & b & c | d",
        expect![[r#"
            x = a | (b ^ (c & (d << (e + (f * (-g))))));
            y = (a >> 1) << 2;
            z = ((a & b) & c) | d
            ---
            x = a | b ^ c & d << e + f * -g;
            y = a >> 1 << 2;
            z = a & b & c | d
        "#]],
    );
    check(
        "x = ~-a + - ~a * ~5 - -~5; y = ~(a | b) ^ ~ ~c",
        expect![[r#"
            x = ((~(-a)) + ((-(~a)) * (~5))) - (-(~5));
            y = (~(a | b)) ^ (~(~c))
            ---
            x = ~ -a + - ~a * ~5 - - ~5;
            y = ~(a | b) ^ ~ ~c
        "#]],
    );
    // Comparisons and `and`/`or` are looser than every arithmetic operator
    // (unlike C, where `a & 1 == 0` is `a & (1 == 0)`).
    check(
        "assert a & 1 == 0 or b | c < d and (x << 1) >> 2 != ~y",
        expect![[r#"
            assert ((a & 1) == 0) or (((b | c) < d) and (((x << 1) >> 2) != (~y)))
            ---
            assert a & 1 == 0 or b | c < d and x << 1 >> 2 != ~y
        "#]],
    );
}

#[test]
fn casts_are_atoms() {
    check(
        "x = u8(a) + i16(b * 2) << 1; y = int(-5) * u64(~c); z = -i8(w)",
        expect![[r#"
            x = (u8(a) + i16(b * 2)) << 1;
            y = int(-5) * u64(~c);
            z = -i8(w)
            ---
            x = u8(a) + i16(b * 2) << 1;
            y = int(-5) * u64(~c);
            z = -i8(w)
        "#]],
    );
}

#[test]
fn declarations() {
    check(
        "var x: i64; var y: u16 = *; var z: u8 = 1 + x; w: i32 = *; v: int = 3; var a: u16[]",
        expect![[r#"
            var x: i64;
            var y: u16 = *;
            var z: u8 = 1 + x;
            var w: i32 = *;
            var v: int = 3;
            var a: u16[]
            ---
            var x: i64;
            var y: u16 = *;
            var z: u8 = 1 + x;
            var w: i32 = *;
            var v: int = 3;
            var a: u16[]
        "#]],
    );
    check(
        "proc f(a: u8, b) : u16 begin var t: u16 = a; return t end\n\
         proc g(c) begin return c end\n\
         proc h : i8 begin return 1 end\n\
         x = f(1, 2)",
        expect![[r#"
            proc f(a: u8, b) : u16 begin
              var t: u16 = a;
              return t
            end
            proc g(c) begin
              return c
            end
            proc h() : i8 begin
              return 1
            end
            x = f(1, 2)
            ---
            proc f(a: u8, b) : u16 begin
              var t: u16 = a;
              return t
            end
            proc g(c) begin
              return c
            end
            proc h() : i8 begin
              return 1
            end
            x = f(1, 2)
        "#]],
    );
}

#[test]
fn var_and_type_names_are_not_reserved() {
    // `var` starts a declaration only before a name and `:`.
    check(
        "var = 1; var = var + 1; var var: u8 = var; var[1] = 2; var: i8 = *",
        expect![[r#"
            var = 1;
            var = var + 1;
            var var: u8 = var;
            var[1] = 2;
            var var: i8 = *
            ---
            var = 1;
            var = var + 1;
            var var: u8 = var;
            var[1] = 2;
            var var: i8 = *
        "#]],
    );
    // Type names are names outside type positions and casts.
    check(
        "u8 = 1; int = u8 + 1; x = u8; i32[u8] = int",
        expect![[r#"
        u8 = 1;
        int = u8 + 1;
        x = u8;
        i32[u8] = int
        ---
        u8 = 1;
        int = u8 + 1;
        x = u8;
        i32[u8] = int
    "#]],
    );
    // A procedure named like a type is still called as before; a cast to
    // that type as a whole value keeps its parentheses when printed.
    check(
        "proc int(v) begin return v end\ny = int(3); z = (int(4)); w = 1 + int(5)",
        expect![[r#"
            proc int(v) begin
              return v
            end
            y = int(3);
            z = (int(4));
            w = 1 + int(5)
            ---
            proc int(v) begin
              return v
            end
            y = int(3);
            z = (int(4));
            w = 1 + int(5)
        "#]],
    );
}

#[test]
fn syntax_errors() {
    check(
        "x = u8(1, 2)",
        expect![[r#"
            error: expected ')' to close the '(' at 1:7, found ','
             --> test.imp:1:9
              |
            1 | x = u8(1, 2)
              |         ^
        "#]],
    );
    check(
        "x = a && b",
        expect![[r#"
            error: unexpected `&&`
             --> test.imp:1:7
              |
            1 | x = a && b
              |       ^^
              = help: use `and`
        "#]],
    );
    check(
        "x: = 1",
        expect![[r#"
            error: expected a type, found '='
             --> test.imp:1:4
              |
            1 | x: = 1
              |    ^
              = help: the types are `int`, `i8`, `i16`, `i32`, `i64`, `u8`, `u16`, `u32`, `u64`, `f32` and `f64`; `int` is unbounded, `f32` and `f64` are IEEE floats; the name of a class is the type of its references
        "#]],
    );
    check(
        "proc f(a) : begin skip end\nskip",
        expect![[r#"
            error: expected a type, found 'begin'
             --> test.imp:1:13
              |
            1 | proc f(a) : begin skip end
              |             ^^^^^
              = help: the types are `int`, `i8`, `i16`, `i32`, `i64`, `u8`, `u16`, `u32`, `u64`, `f32` and `f64`; `int` is unbounded, `f32` and `f64` are IEEE floats; the name of a class is the type of its references
        "#]],
    );
}
