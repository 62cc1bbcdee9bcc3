//! Golden tests: each case parses and checks a program and compares either
//! a compact rendering of the checked program or the rendered diagnostic.
//! Run with `UPDATE_EXPECT=1` to regenerate the expectations after an
//! intended change, then review the diff.
//!
//! The rendering prints expressions and conditions fully parenthesised
//! (`{:#}`), so it shows exactly how the source was parsed.

use expect_test::{expect, Expect};
use std::fmt::Write;
use wiser_imp::{parse_program, SourceMap};

/// Parses and checks `src`; renders the result or the diagnostic.
fn check(src: &str, expect: Expect) {
    let out = match parse_program(src).and_then(wiser_imp::check) {
        Err(d) => SourceMap::new("test.imp", src).render(&d),
        Ok(p) => {
            let mut out = String::new();
            let list = |v: &[std::sync::Arc<str>]| v.join(", ");
            for (proc, locals) in p.procs.iter().zip(&p.proc_locals) {
                let params: Vec<_> = proc.params.iter().map(|p| p.name.name.clone()).collect();
                writeln!(
                    out,
                    "proc {}({}) locals [{}]",
                    proc.name.name,
                    list(&params),
                    list(locals)
                )
                .unwrap();
                for line in format!("{:#}", proc.body).lines() {
                    writeln!(out, "  {line}").unwrap();
                }
            }
            writeln!(out, "{:#}", p.main).unwrap();
            writeln!(out, "arrays [{}]", list(&p.arrays)).unwrap();
            writeln!(out, "inputs [{}]", list(&p.main_inputs)).unwrap();
            writeln!(out, "vars [{}]", list(&p.main_vars)).unwrap();
            out
        }
    };
    expect.assert_eq(&out);
}

// ----- precedence and associativity -----------------------------------------

#[test]
fn minus_and_plus_are_left_associative() {
    check(
        "x = a - b + c",
        expect![[r#"
        x = (a - b) + c
        arrays []
        inputs [a, b, c]
        vars [x, a, b, c]
    "#]],
    );
    check(
        "x = a - b - c; y = a - (b - c)",
        expect![[r#"
        x = (a - b) - c;
        y = a - (b - c)
        arrays []
        inputs [a, b, c]
        vars [x, a, b, c, y]
    "#]],
    );
}

#[test]
fn products_bind_tighter_than_sums() {
    check(
        "x = a + b * c - d / e % f",
        expect![[r#"
        x = (a + (b * c)) - ((d / e) % f)
        arrays []
        inputs [a, b, c, d, e, f]
        vars [x, a, b, c, d, e, f]
    "#]],
    );
    check(
        "x = a / b * c % d",
        expect![[r#"
        x = ((a / b) * c) % d
        arrays []
        inputs [a, b, c, d]
        vars [x, a, b, c, d]
    "#]],
    );
}

#[test]
fn unary_minus_binds_tightest() {
    check(
        "x = -a * b; y = - -a; z = -(a + b); w = a - -b",
        expect![[r#"
        x = (-a) * b;
        y = -(-a);
        z = -(a + b);
        w = a - (-b)
        arrays []
        inputs [a, b]
        vars [x, a, b, y, z, w]
    "#]],
    );
}

#[test]
fn literals() {
    check(
        "x = 123456789012345678901234567890 * -98765432109876543210; y = -0; z = 007",
        expect![[r#"
            x = 123456789012345678901234567890 * (-98765432109876543210);
            y = 0;
            z = 7
            arrays []
            inputs []
            vars [x, y, z]
        "#]],
    );
    // A minus before a literal makes a negative literal, also right after
    // a binary operator; `2-3` is still a subtraction (PyWiSE's lexer
    // would read `-3` as one number there and reject the program).
    check(
        "x = 2-3; y = 2--3; z = - 5 * 2",
        expect![[r#"
        x = 2 - 3;
        y = 2 - (-3);
        z = (-5) * 2
        arrays []
        inputs []
        vars [x, y, z]
    "#]],
    );
}

#[test]
fn boolean_precedence() {
    check(
        "assert not a < 1 and b < 2 or c < 3",
        expect![[r#"
        assert ((not (a < 1)) and (b < 2)) or (c < 3)
        arrays []
        inputs [a, b, c]
        vars [a, b, c]
    "#]],
    );
    check(
        "assert a < 1 or b < 2 and c < 3",
        expect![[r#"
        assert (a < 1) or ((b < 2) and (c < 3))
        arrays []
        inputs [a, b, c]
        vars [a, b, c]
    "#]],
    );
    check(
        "assert a < 1 or b < 2 or c < 3 and not not true",
        expect![[r#"
        assert ((a < 1) or (b < 2)) or ((c < 3) and (not (not true)))
        arrays []
        inputs [a, b, c]
        vars [a, b, c]
    "#]],
    );
    check(
        "assume not x < 3",
        expect![[r#"
        assume not (x < 3)
        arrays []
        inputs [x]
        vars [x]
    "#]],
    );
}

#[test]
fn parentheses_in_conditions() {
    check(
        "assert (x + 1) * 2 < y",
        expect![[r#"
        assert ((x + 1) * 2) < y
        arrays []
        inputs [x, y]
        vars [x, y]
    "#]],
    );
    check(
        "assert ((x)) < 3; assert x < (y); assert (x) + 1 < ((2))",
        expect![[r#"
        assert x < 3;
        assert x < y;
        assert (x + 1) < 2
        arrays []
        inputs [x, y]
        vars [x, y]
    "#]],
    );
    check(
        "assert (x < 3 and y > 2) or z == 1",
        expect![[r#"
        assert ((x < 3) and (y > 2)) or (z == 1)
        arrays []
        inputs [x, y, z]
        vars [x, y, z]
    "#]],
    );
    check(
        "assert not (x < 1 or y >= 2) and ((x != 1))",
        expect![[r#"
        assert (not ((x < 1) or (y >= 2))) and (x != 1)
        arrays []
        inputs [x, y]
        vars [x, y]
    "#]],
    );
    check(
        "assert (true) and (false or (-x) <= -(y))",
        expect![[r#"
        assert true and (false or ((-x) <= (-y)))
        arrays []
        inputs [x, y]
        vars [x, y]
    "#]],
    );
}

// ----- statements and layout -------------------------------------------------

#[test]
fn comments_and_optional_semicolons() {
    check(
        "# a comment\nproc f() begin return 1; end\nx = 1; # another\nif x < 2 then\n  y = 1;  # before else\nelse\n  y = 2;\nfi;\nwhile x < 10 do x = x + 1; od;\n",
        expect![[r#"
            proc f() locals []
              return 1
            x = 1;
            if x < 2 then
              y = 1
            else
              y = 2
            fi;
            while x < 10 do
              x = x + 1
            od
            arrays []
            inputs []
            vars [x, y]
        "#]],
    );
}

#[test]
fn arrays_havoc_and_assume() {
    check(
        "n = *; assume n > 0; a[0] = n; a[i + 1] = a[i] * 2; b[a[0]] = 1",
        expect![[r#"
            n = *;
            assume n > 0;
            a[0] = n;
            a[i + 1] = a[i] * 2;
            b[a[0]] = 1
            arrays [a, b]
            inputs [i]
            vars [n, i]
        "#]],
    );
}

#[test]
fn procedures() {
    check(
        "proc add(a, b) begin s = a + b; return s end\n\
         proc zero() begin return 0 end\n\
         x = add(1, 2); add(x, x); y = zero()",
        expect![[r#"
            proc add(a, b) locals [a, b, s]
              s = a + b;
              return s
            proc zero() locals []
              return 0
            x = add(1, 2);
            add(x, x);
            y = zero()
            arrays []
            inputs []
            vars [x, y]
        "#]],
    );
    // Recursion is fine; a proc may be defined after its caller.
    check(
        "proc even(n) begin if n == 0 then return 1 else r = odd(n - 1); return r fi end\n\
         proc odd(n) begin if n == 0 then return 0 else r = even(n - 1); return r fi end\n\
         x = even(10)",
        expect![[r#"
            proc even(n) locals [n, r]
              if n == 0 then
                return 1
              else
                r = odd(n - 1);
                return r
              fi
            proc odd(n) locals [n, r]
              if n == 0 then
                return 0
              else
                r = even(n - 1);
                return r
              fi
            x = even(10)
            arrays []
            inputs []
            vars [x]
        "#]],
    );
}

// ----- macros -------------------------------------------------------------

#[test]
fn pywise_style_macros() {
    // As in PyWiSE: parameters in parentheses or none at all, and a macro
    // without parameters called by its bare name.
    check(
        "macro swap(a, b) begin t = a; a = b; b = t end\n\
         macro reset begin count = 0 end\n\
         x = 1; y = 2; swap(x, y); count = 5; reset; assert x == 2 and count == 0",
        expect![[r#"
            x = 1;
            y = 2;
            t = x;
            x = y;
            y = t;
            count = 5;
            count = 0;
            assert (x == 2) and (count == 0)
            arrays []
            inputs []
            vars [x, y, t, count]
        "#]],
    );
}

#[test]
fn macro_arguments_are_substituted_as_trees() {
    check(
        "macro sub(a, b, r) begin r = a - b end\n\
         sub(x * 2, y - 1, z)",
        expect![[r#"
            z = (x * 2) - (y - 1)
            arrays []
            inputs [x, y]
            vars [z, x, y]
        "#]],
    );
}

#[test]
fn macros_call_macros_in_any_order_and_expand_in_procs() {
    check(
        "proc f(n) begin twice(n); return n end\n\
         macro twice(v) begin inc(v); inc(v) end\n\
         macro inc(v) begin v = v + 1 end\n\
         x = f(1); if x > 0 then twice(x) else skip fi",
        expect![[r#"
            proc f(n) locals [n]
              n = n + 1;
              n = n + 1;
              return n
            x = f(1);
            if x > 0 then
              x = x + 1;
              x = x + 1
            else
              skip
            fi
            arrays []
            inputs []
            vars [x]
        "#]],
    );
}

#[test]
fn macro_assigning_a_parameter_through_another_macro() {
    check(
        "macro set(v, e) begin v = e end\n\
         macro wrap(w) begin set(w, 1) end\n\
         wrap(x + 1)",
        expect![[r#"
            error: parameter `w` of macro `wrap` is assigned in its body, so its argument must be a variable
             --> test.imp:3:6
              |
            3 | wrap(x + 1)
              |      ^^^^^
              = help: pass a variable; to pass a value, copy it into a variable first
        "#]],
    );
}

// ----- programs PyWiSE accepts ----------------------------------------------
//
// Each of these was checked to parse with PyWiSE 0.0.7 (`wise.parser`):
// layout, comments, `not` on comparisons, macros calling earlier macros,
// `_`-prefixed names and negative literals.

#[test]
fn pywise_programs() {
    check(
        r#"# Euclid by subtraction, with a deliberately wrong step
assert not p <= 0;
assert not q <= 0;
while not p == q do
  prev_p = p ;
  prev_q = q ;

  if p <= q then
    q = q - p
  else
    p = p + q  # wrong: should subtract
  fi;

  assert p >= 0 and q >= 0 and p < prev_p or q < prev_q
od
"#,
        expect![[r#"
            assert not (p <= 0);
            assert not (q <= 0);
            while not (p == q) do
              prev_p = p;
              prev_q = q;
              if p <= q then
                q = q - p
              else
                p = p + q
              fi;
              assert (((p >= 0) and (q >= 0)) and (p < prev_p)) or (q < prev_q)
            od
            arrays []
            inputs [p, q]
            vars [p, q, prev_p, prev_q]
        "#]],
    );
    check(
        r#"macro remainder(res, num, den)
begin
    res = num;
    while res >= den do
        res = res - den
    od
end

macro times(out, u, v, _k)
begin
  out = 0;
  _k = 0;
  while _k < v do
    out = out + u;
    _k = _k + 1
  od
end

macro check_even(flag, v, _r)
begin
  remainder(_r, v, 2);
  if _r == 0 then flag = 1 else flag = 0 fi
end

assert k >= 0 and k <= 7;
times(t, k, 2, _k);
check_even(even, t, _r);
assert even == 1
"#,
        expect![[r#"
            assert (k >= 0) and (k <= 7);
            t = 0;
            _k = 0;
            while _k < 2 do
              t = t + k;
              _k = _k + 1
            od;
            _r = t;
            while _r >= 2 do
              _r = _r - 2
            od;
            if _r == 0 then
              even = 1
            else
              even = 0
            fi;
            assert even == 1
            arrays []
            inputs [k]
            vars [k, t, _k, _r, even]
        "#]],
    );
    check(
        r#"macro twice(w) begin w = w + w end
x = -3;
twice(x);
assert x == -6 and not (x > 0)
"#,
        expect![[r#"
            x = -3;
            x = x + x;
            assert (x == (-6)) and (not (x > 0))
            arrays []
            inputs []
            vars [x]
        "#]],
    );
}

// ----- main inputs ----------------------------------------------------------

#[test]
fn main_inputs_are_reads_before_writes() {
    check(
        "if c > 0 then y = 1 else skip fi; z = y",
        expect![[r#"
        if c > 0 then
          y = 1
        else
          skip
        fi;
        z = y
        arrays []
        inputs [c, y]
        vars [c, y, z]
    "#]],
    );
    check(
        "if c > 0 then y = 1 else y = 2 fi; z = y",
        expect![[r#"
        if c > 0 then
          y = 1
        else
          y = 2
        fi;
        z = y
        arrays []
        inputs [c]
        vars [c, y, z]
    "#]],
    );
    check(
        "while i < n do s = s + i; i = i + 1 od",
        expect![[r#"
        while i < n do
          s = s + i;
          i = i + 1
        od
        arrays []
        inputs [i, n, s]
        vars [i, n, s]
    "#]],
    );
    check(
        "x = *; y = x; x = x + 1",
        expect![[r#"
        x = *;
        y = x;
        x = x + 1
        arrays []
        inputs []
        vars [x, y]
    "#]],
    );
    check(
        "if c > 0 then fail else y = 1 fi; z = y; a[z] = w",
        expect![[r#"
        if c > 0 then
          fail
        else
          y = 1
        fi;
        z = y;
        a[z] = w
        arrays [a]
        inputs [c, w]
        vars [c, y, z, w]
    "#]],
    );
}

// ----- lexical and syntax errors ---------------------------------------------

#[test]
fn lexical_errors() {
    check(
        "x = 1 @ 2",
        expect![[r#"
            error: unexpected character '@'
             --> test.imp:1:7
              |
            1 | x = 1 @ 2
              |       ^
        "#]],
    );
    check(
        "x := 1",
        expect![[r#"
            error: unexpected `:=`
             --> test.imp:1:3
              |
            1 | x := 1
              |   ^^
              = help: assignment is written `=`
        "#]],
    );
    check(
        "if !(x < 1) then skip else skip fi",
        expect![[r#"
            error: unexpected character '!'
             --> test.imp:1:4
              |
            1 | if !(x < 1) then skip else skip fi
              |    ^
              = help: use `not`
        "#]],
    );
    check(
        "assert x < 1 && y < 2",
        expect![[r#"
            error: unexpected `&&`
             --> test.imp:1:14
              |
            1 | assert x < 1 && y < 2
              |              ^^
              = help: use `and`
        "#]],
    );
    check(
        "x = 1;\n1x = 2",
        expect![[r#"
            error: invalid name `1x`
             --> test.imp:2:1
              |
            2 | 1x = 2
              | ^^
              = help: names start with a letter or `_`
        "#]],
    );
}

#[test]
fn empty_programs() {
    check(
        "",
        expect![[r#"
            error: expected a statement, found end of input
             --> test.imp:1:1
              |
            1 | 
              | ^
              = help: a program needs at least one statement, e.g. `skip`
        "#]],
    );
    check(
        "# only a comment\n",
        expect![[r#"
            error: expected a statement, found end of input
             --> test.imp:1:17
              |
            1 | # only a comment
              |                 ^
              = help: a program needs at least one statement, e.g. `skip`
        "#]],
    );
    check(
        "proc f() begin skip end",
        expect![[r#"
            error: expected a statement, found end of input
             --> test.imp:1:24
              |
            1 | proc f() begin skip end
              |                        ^
        "#]],
    );
}

#[test]
fn missing_and_mismatched_keywords() {
    check(
        "if x < 1 then skip fi",
        expect![[r#"
            error: expected 'else' in the 'if' at 1:1, found 'fi'
             --> test.imp:1:20
              |
            1 | if x < 1 then skip fi
              |                    ^^
              = help: an `if` needs an `else` branch: write `else skip fi`
        "#]],
    );
    check(
        "while x < 1 do\n  skip\nfi",
        expect![[r#"
            error: expected 'od' to close the 'while' at 1:1, found 'fi'
             --> test.imp:3:1
              |
            3 | fi
              | ^^
        "#]],
    );
    check(
        "if x < 1 then\n  while x < 1 do skip\nelse skip fi",
        expect![[r#"
            error: expected 'od' to close the 'while' at 2:3, found 'else'
             --> test.imp:3:1
              |
            3 | else skip fi
              | ^^^^
        "#]],
    );
    check(
        "proc f() begin\n  skip\n",
        expect![[r#"
            error: expected 'end' to close the 'begin' at 1:10, found end of input
             --> test.imp:2:7
              |
            2 |   skip
              |       ^
        "#]],
    );
    check(
        "if x < 1 skip else skip fi",
        expect![[r#"
            error: expected 'then' after the condition, found 'skip'
             --> test.imp:1:10
              |
            1 | if x < 1 skip else skip fi
              |          ^^^^
        "#]],
    );
    check(
        "skip fi",
        expect![[r#"
            error: expected ';' or end of input, found 'fi'
             --> test.imp:1:6
              |
            1 | skip fi
              |      ^^
              = help: there is no open 'if' here
        "#]],
    );
}

#[test]
fn statement_errors() {
    check(
        "x = 1 y = 2",
        expect![[r#"
            error: expected ';' or end of input, found `y`
             --> test.imp:1:7
              |
            1 | x = 1 y = 2
              |       ^
              = help: separate statements with `;`
        "#]],
    );
    check(
        "x = 1;; y = 2",
        expect![[r#"
            error: expected a statement, found ';'
             --> test.imp:1:7
              |
            1 | x = 1;; y = 2
              |       ^
              = help: remove the extra `;`
        "#]],
    );
    check(
        "x = ;",
        expect![[r#"
            error: expected an expression, found ';'
             --> test.imp:1:5
              |
            1 | x = ;
              |     ^
        "#]],
    );
    check(
        "x == 1",
        expect![[r#"
            error: expected '=' after `x`, found '=='
             --> test.imp:1:3
              |
            1 | x == 1
              |   ^^
              = help: assignment is written `=`
        "#]],
    );
    check(
        "x = (1 + 2",
        expect![[r#"
            error: expected ')' to close the '(' at 1:5, found end of input
             --> test.imp:1:11
              |
            1 | x = (1 + 2
              |           ^
        "#]],
    );
    check(
        "x = f(1) + 2",
        expect![[r#"
            error: a procedure call cannot be part of an expression
             --> test.imp:1:5
              |
            1 | x = f(1) + 2
              |     ^^^^
              = help: call it in a statement of its own, `t = f(...)`, then use `t`
        "#]],
    );
    check(
        "a[1 = 2",
        expect![[r#"
            error: expected ']' to close the '[' at 1:2, found '='
             --> test.imp:1:5
              |
            1 | a[1 = 2
              |     ^
        "#]],
    );
    check(
        "skip; proc f() begin skip end",
        expect![[r#"
            error: expected a statement, found 'proc'
             --> test.imp:1:7
              |
            1 | skip; proc f() begin skip end
              |       ^^^^
              = help: definitions must come before the main program
        "#]],
    );
    check(
        "if x < 1 then else skip fi",
        expect![[r#"
            error: expected a statement, found 'else'
             --> test.imp:1:15
              |
            1 | if x < 1 then else skip fi
              |               ^^^^
              = help: write `skip` for a branch or body that does nothing
        "#]],
    );
    check(
        "x = true",
        expect![[r#"
            error: expected an arithmetic expression, found 'true'
             --> test.imp:1:5
              |
            1 | x = true
              |     ^^^^
              = help: variables hold integers; use `1` and `0` for truth values
        "#]],
    );
}

#[test]
fn condition_errors() {
    check(
        "if x = 1 then skip else skip fi",
        expect![[r#"
            error: expected a comparison operator (==, !=, <, <=, >, >=), found '='
             --> test.imp:1:6
              |
            1 | if x = 1 then skip else skip fi
              |      ^
              = help: comparison is written `==`
        "#]],
    );
    check(
        "if x then skip else skip fi",
        expect![[r#"
            error: expected a comparison operator (==, !=, <, <=, >, >=), found 'then'
             --> test.imp:1:6
              |
            1 | if x then skip else skip fi
              |      ^^^^
              = help: a condition compares two values, e.g. `x != 0`
        "#]],
    );
    check(
        "assert a < b < c",
        expect![[r#"
            error: comparison operators cannot be chained
             --> test.imp:1:14
              |
            1 | assert a < b < c
              |              ^
              = help: write `a < b and b < c` instead of `a < b < c`
        "#]],
    );
    check(
        "assert (x) and y < 1",
        expect![[r#"
            error: expected a comparison operator (==, !=, <, <=, >, >=), found 'and'
             --> test.imp:1:12
              |
            1 | assert (x) and y < 1
              |            ^^^
              = help: a condition compares two values, e.g. `x != 0`
        "#]],
    );
    check(
        "assert (x < 1) + 1 < 2",
        expect![[r#"
            error: expected ';' or end of input, found '+'
             --> test.imp:1:16
              |
            1 | assert (x < 1) + 1 < 2
              |                ^
        "#]],
    );
}

// ----- static check errors ----------------------------------------------------

#[test]
fn duplicate_definitions_and_parameters() {
    check(
        "macro f begin skip end\nproc f() begin return 1 end\nskip",
        expect![[r#"
            error: `f` is defined twice
             --> test.imp:2:6
              |
            2 | proc f() begin return 1 end
              |      ^
              = help: rename one of them; macros and procedures share one namespace
        "#]],
    );
    check(
        "proc f(a, b, a) begin return a end\nskip",
        expect![[r#"
            error: duplicate parameter `a` of procedure `f`
             --> test.imp:1:14
              |
            1 | proc f(a, b, a) begin return a end
              |              ^
              = help: give each parameter a different name
        "#]],
    );
}

#[test]
fn recursive_macros() {
    check(
        "macro m(x) begin m(x) end\nm(1)",
        expect![[r#"
            error: recursive macro: `m` calls itself
             --> test.imp:1:18
              |
            1 | macro m(x) begin m(x) end
              |                  ^
              = help: macros are expanded in place, so they cannot be recursive; use a `proc` instead
        "#]],
    );
    check(
        "macro a begin b end\nmacro b begin c end\nmacro c begin a end\nskip",
        expect![[r#"
            error: recursive macros: `a` calls `b`, which calls `c`, which calls `a`
             --> test.imp:3:15
              |
            3 | macro c begin a end
              |               ^
              = help: macros are expanded in place, so they cannot be recursive; use a `proc` instead
        "#]],
    );
}

#[test]
fn call_errors() {
    check(
        "x = 1; f(x)",
        expect![[r#"
            error: unknown procedure `f`
             --> test.imp:1:8
              |
            1 | x = 1; f(x)
              |        ^
              = help: define it before the main program: `proc f(...) begin ... end`
        "#]],
    );
    check(
        "proc f(a, b) begin return a end\nx = f(1, 2, 3)",
        expect![[r#"
            error: procedure `f` expects 2 arguments, found 3
             --> test.imp:2:1
              |
            2 | x = f(1, 2, 3)
              | ^^^^^^^^^^^^^^
        "#]],
    );
    check(
        "proc f(a) begin return a end\nx = f()",
        expect![[r#"
            error: procedure `f` expects 1 argument, found 0
             --> test.imp:2:1
              |
            2 | x = f()
              | ^^^^^^^
        "#]],
    );
    check(
        "macro m(a, b) begin a = b end\nm(x)",
        expect![[r#"
            error: macro `m` expects 2 arguments, found 1
             --> test.imp:2:1
              |
            2 | m(x)
              | ^^^^
        "#]],
    );
    check(
        "macro m begin skip end\nx = m()",
        expect![[r#"
            error: macro `m` does not return a value
             --> test.imp:2:1
              |
            2 | x = m()
              | ^^^^^^^
              = help: call it as a statement of its own; a macro can assign variables passed as its arguments
        "#]],
    );
}

#[test]
fn macro_parameter_errors() {
    check(
        "macro inc(v) begin v = v + 1 end\ninc(3)",
        expect![[r#"
            error: parameter `v` of macro `inc` is assigned in its body, so its argument must be a variable
             --> test.imp:2:5
              |
            2 | inc(3)
              |     ^
              = help: pass a variable; to pass a value, copy it into a variable first
        "#]],
    );
    check(
        "macro clear(v) begin v = * end\nclear(a[0])",
        expect![[r#"
            error: parameter `v` of macro `clear` is assigned in its body, so its argument must be a variable
             --> test.imp:2:7
              |
            2 | clear(a[0])
              |       ^^^^
              = help: pass a variable; to pass a value, copy it into a variable first
        "#]],
    );
    check(
        "macro get(p) begin x = p[0] end\nget(y)",
        expect![[r#"
            error: parameter `p` of macro `get` is used as an array
             --> test.imp:1:24
              |
            1 | macro get(p) begin x = p[0] end
              |                        ^
              = help: parameters are scalars; arrays are global, so use the array by its own name
        "#]],
    );
}

#[test]
fn arrays_versus_scalars() {
    check(
        "a[0] = 1;\nx = a + 1",
        expect![[r#"
            error: `a` is used as an array elsewhere but as a scalar here
             --> test.imp:2:5
              |
            2 | x = a + 1
              |     ^
              = help: arrays and scalars need different names; an element of the array is written `a[i]`
        "#]],
    );
    check(
        "a = 1;\na[0] = 2",
        expect![[r#"
            error: `a` is used as an array elsewhere but as a scalar here
             --> test.imp:1:1
              |
            1 | a = 1;
              | ^
              = help: arrays and scalars need different names; an element of the array is written `a[i]`
        "#]],
    );
    check(
        "proc f(a) begin return a end\nx = b[0]; b = *; a[1] = 0",
        expect![[r#"
            error: `a` is used as an array elsewhere but as a scalar here
             --> test.imp:1:8
              |
            1 | proc f(a) begin return a end
              |        ^
              = help: arrays and scalars need different names; an element of the array is written `a[i]`
        "#]],
    );
    check(
        "proc f(v) begin return v end\nx = a[0]; y = f(a)\n",
        expect![[r#"
            error: `a` is used as an array elsewhere but as a scalar here
             --> test.imp:2:17
              |
            2 | x = a[0]; y = f(a)
              |                 ^
              = help: arrays and scalars need different names; an element of the array is written `a[i]`
        "#]],
    );
}

#[test]
fn return_outside_procedures() {
    check(
        "x = 1;\nreturn x",
        expect![[r#"
            error: `return` outside a procedure
             --> test.imp:2:1
              |
            2 | return x
              | ^^^^^^^^
              = help: only a procedure can return; the main program simply ends
        "#]],
    );
    check(
        "macro done begin return 0 end\nproc f() begin done end\nx = f(); done",
        expect![[r#"
            error: macro `done` contains `return`, which is only allowed in a procedure
             --> test.imp:3:10
              |
            3 | x = f(); done
              |          ^^^^
              = help: only a procedure can return; the main program simply ends
        "#]],
    );
}

#[test]
fn procedures_cannot_see_main_variables() {
    check(
        "proc f() begin return x end\nx = 1; y = f()",
        expect![[r#"
            error: `x` may be read before it is assigned in procedure `f`
             --> test.imp:1:23
              |
            1 | proc f() begin return x end
              |                       ^
              = help: assign it first; a procedure cannot see the main program's variables
        "#]],
    );
    check(
        "proc f() begin x = x + 1; return x end\nskip",
        expect![[r#"
            error: `x` may be read before it is assigned in procedure `f`
             --> test.imp:1:20
              |
            1 | proc f() begin x = x + 1; return x end
              |                    ^
              = help: assign it first; a procedure cannot see the main program's variables
        "#]],
    );
}

#[test]
fn definite_assignment_in_procedures() {
    // Only one branch assigns.
    check(
        "proc f(c) begin\n  if c > 0 then r = 1 else skip fi;\n  return r\nend\nskip",
        expect![[r#"
            error: `r` may be read before it is assigned in procedure `f`
             --> test.imp:3:10
              |
            3 |   return r
              |          ^
              = help: assign it first; a procedure cannot see the main program's variables
        "#]],
    );
    // Both branches assign, or the other branch fails or returns.
    check(
        "proc f(c) begin\n  if c > 0 then r = 1 else r = 2 fi;\n  if c > 1 then s = 1 else fail fi;\n  if c > 2 then return 0 else t = 1 fi;\n  return r + s + t\nend\nskip",
        expect![[r#"
            proc f(c) locals [c, r, s, t]
              if c > 0 then
                r = 1
              else
                r = 2
              fi;
              if c > 1 then
                s = 1
              else
                fail
              fi;
              if c > 2 then
                return 0
              else
                t = 1
              fi;
              return (r + s) + t
            skip
            arrays []
            inputs []
            vars []
        "#]],
    );
    // What a loop body assigns does not count after the loop.
    check(
        "proc f(n) begin\n  while n > 0 do r = n; n = n - 1 od;\n  return r\nend\nskip",
        expect![[r#"
            error: `r` may be read before it is assigned in procedure `f`
             --> test.imp:3:10
              |
            3 |   return r
              |          ^
              = help: assign it first; a procedure cannot see the main program's variables
        "#]],
    );
    // Inside the body, assignments flow forward; the condition is read at
    // loop entry.
    check(
        "proc f(n) begin\n  while n > 0 do r = n; n = r - 1 od;\n  while r > 0 do r = 0 od;\n  return 0\nend\nskip",
        expect![[r#"
            error: `r` may be read before it is assigned in procedure `f`
             --> test.imp:3:9
              |
            3 |   while r > 0 do r = 0 od;
              |         ^
              = help: assign it first; a procedure cannot see the main program's variables
        "#]],
    );
    // After `return` or `fail`, everything counts as assigned; but a
    // name that is never assigned is not a local at all.
    check(
        "proc f(n) begin\n  if n > 0 then return n else fail fi;\n  x = x + 1; return x\nend\nz = f(1)",
        expect![[r#"
            proc f(n) locals [n, x]
              if n > 0 then
                return n
              else
                fail
              fi;
              x = x + 1;
              return x
            z = f(1)
            arrays []
            inputs []
            vars [z]
        "#]],
    );
    check(
        "proc f(n) begin return n; x = y end\nz = f(1)",
        expect![[r#"
            error: `y` may be read before it is assigned in procedure `f`
             --> test.imp:1:31
              |
            1 | proc f(n) begin return n; x = y end
              |                               ^
              = help: assign it first; a procedure cannot see the main program's variables
        "#]],
    );
    // A read in a macro used by a procedure is a read in the procedure.
    check(
        "macro show begin out = shown end\nproc f() begin shown = 1; show; return out end\nshown = 2; show",
        expect![[r#"
            proc f() locals [shown, out]
              shown = 1;
              out = shown;
              return out
            shown = 2;
            out = shown
            arrays []
            inputs []
            vars [shown, out]
        "#]],
    );
    check(
        "macro show begin out = shown end\nproc f() begin show; return out end\nskip",
        expect![[r#"
            error: `shown` may be read before it is assigned in procedure `f`
             --> test.imp:1:24
              |
            1 | macro show begin out = shown end
              |                        ^^^^^
              = help: assign it first; a procedure cannot see the main program's variables
        "#]],
    );
    // Conditions of assertions are reads.
    check(
        "proc f(n) begin assert m > n; return n end\nskip",
        expect![[r#"
            error: `m` may be read before it is assigned in procedure `f`
             --> test.imp:1:24
              |
            1 | proc f(n) begin assert m > n; return n end
              |                        ^
              = help: assign it first; a procedure cannot see the main program's variables
        "#]],
    );
}

#[test]
fn first_error_in_source_order() {
    check(
        "proc f(a) begin return a end\nproc h(b, b) begin return b end\nx = g(1)",
        expect![[r#"
            error: duplicate parameter `b` of procedure `h`
             --> test.imp:2:11
              |
            2 | proc h(b, b) begin return b end
              |           ^
              = help: give each parameter a different name
        "#]],
    );
    check(
        "proc f(a) begin x = g(a); return x end\nproc h(b, b) begin return b end\nskip",
        expect![[r#"
            error: unknown procedure `g`
             --> test.imp:1:21
              |
            1 | proc f(a) begin x = g(a); return x end
              |                     ^
              = help: define it before the main program: `proc g(...) begin ... end`
        "#]],
    );
}
