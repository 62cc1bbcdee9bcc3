//! Golden tests of the IMP front end's diagnostics: lexical, syntax and
//! static-check errors, each case rendered as rustc-style text. Run with
//! `UPDATE_EXPECT=1` to regenerate the expectations after an intended
//! change, then review the diff. (`golden.rs` has the programs that parse.)

mod support;

use expect_test::expect;
use support::check;

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
