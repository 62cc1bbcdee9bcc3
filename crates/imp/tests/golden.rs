//! Golden tests: each case parses and checks a program and compares either
//! a compact rendering of the checked program or the rendered diagnostic.
//! Run with `UPDATE_EXPECT=1` to regenerate the expectations after an
//! intended change, then review the diff.
//!
//! The rendering prints expressions and conditions fully parenthesised
//! (`{:#}`), so it shows exactly how the source was parsed.
//!
//! This file: how programs parse (precedence, layout, macros, PyWiSE's
//! programs, main's inputs); `golden_errors.rs`: the diagnostics.

mod support;

use expect_test::expect;
use support::check;

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
