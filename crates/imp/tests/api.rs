//! The public API beyond what the golden tests show: `parse_cond`, spans,
//! and printing.

use wiser_imp::ast::{BinOp, Cond, Expr, Stmt, UnOp};
use wiser_imp::{
    analyse, compile_files, parse_cond, parse_program, with_deep_stack, FileId, SourceMap, Sources,
    Span,
};

#[test]
fn parse_cond_reads_exactly_one_condition() {
    let c = parse_cond("  x > 0 and (y + 1) * 2 != x # trailing comment\n").unwrap();
    assert_eq!(c.to_string(), "x > 0 and (y + 1) * 2 != x");
    assert_eq!(format!("{c:#}"), "(x > 0) and (((y + 1) * 2) != x)");

    let err = parse_cond("x > 0 skip").unwrap_err();
    assert_eq!(
        err.message,
        "expected end of input after the condition, found 'skip'"
    );
    assert_eq!(err.span, Span::new(6, 10));

    let err = parse_cond("").unwrap_err();
    assert_eq!(err.message, "expected a condition, found end of input");
    let err = parse_cond("x + 1").unwrap_err();
    assert!(
        err.message.starts_with("expected a comparison operator"),
        "{err:?}"
    );
    let err = parse_cond("x = 1").unwrap_err();
    assert_eq!(err.help.as_deref(), Some("comparison is written `==`"));
}

#[test]
fn spans_are_byte_offsets() {
    let src = "# é\nx = a - b;\nif x < 1 then skip else y = -x fi";
    let p = parse_program(src).unwrap();
    let Stmt::Seq(items) = &p.main else {
        panic!("{:?}", p.main)
    };
    let Stmt::Assign { value, span, .. } = &items[0] else {
        panic!()
    };
    assert_eq!(&src[span.lo as usize..span.hi as usize], "x = a - b");
    let Expr::Binary {
        op: BinOp::Sub,
        op_span,
        span,
        ..
    } = value
    else {
        panic!()
    };
    assert_eq!(&src[op_span.lo as usize..op_span.hi as usize], "-");
    assert_eq!(&src[span.lo as usize..span.hi as usize], "a - b");
    let Stmt::If { cond, span, .. } = &items[1] else {
        panic!()
    };
    assert_eq!(
        &src[span.lo as usize..span.hi as usize],
        "if x < 1 then skip else y = -x fi"
    );
    assert!(matches!(cond, Cond::Cmp { .. }));
    assert_eq!(p.main.span(), Span::new(5, src.len() as u32));
    let map = SourceMap::new("t.imp", src);
    assert_eq!(map.line_col(items[1].span().lo).to_string(), "3:1");
}

#[test]
fn negative_literals_are_literals() {
    let p = parse_program("x = -5; y = - 5; z = -(5); w = - -5").unwrap();
    let Stmt::Seq(items) = &p.main else { panic!() };
    let values: Vec<&Expr> = items
        .iter()
        .map(|s| match s {
            Stmt::Assign { value, .. } => value,
            _ => panic!(),
        })
        .collect();
    assert!(matches!(values[0], Expr::Num { value, .. } if value.to_i64() == Some(-5)));
    assert!(matches!(values[1], Expr::Num { value, .. } if value.to_i64() == Some(-5)));
    assert!(matches!(values[2], Expr::Unary { op: UnOp::Neg, .. }));
    assert!(
        matches!(values[3], Expr::Unary { op: UnOp::Neg, operand, .. }
        if matches!(**operand, Expr::Num { ref value, .. } if value.to_i64() == Some(-5)))
    );
}

#[test]
fn printing_a_program_parses_back() {
    let src = "macro inc(v) begin v = v + 1 end\n\
               proc f(a, b) begin if a < b then return b - a else return a - (b - 1) fi end\n\
               x = *; t = f(x, 2) ; arr[x] = t; inc(x); while not x >= 10 or false do x = x * -1 od";
    let p = parse_program(src).unwrap();
    let text = p.to_string();
    expect_test::expect![[r#"
        macro inc(v) begin
          v = v + 1
        end
        proc f(a, b) begin
          if a < b then
            return b - a
          else
            return a - (b - 1)
          fi
        end
        x = *;
        t = f(x, 2);
        arr[x] = t;
        inc(x);
        while not x >= 10 or false do
          x = x * -1
        od
    "#]]
    .assert_eq(&text);
    assert_eq!(parse_program(&text).unwrap().to_string(), text);
    analyse(p).unwrap();
    // Calls are statements, not expressions.
    let err = parse_program("a[x] = f(x, 2)").unwrap_err();
    assert_eq!(
        err.message,
        "a procedure call cannot be part of an expression"
    );
    assert_eq!(err.span, Span::new(7, 8));
}

#[test]
fn with_deep_stack_returns_and_propagates_panics() {
    assert_eq!(with_deep_stack(|| 6 * 7), 42);
    let r = std::panic::catch_unwind(|| with_deep_stack(|| panic!("boom")));
    assert!(r.is_err());
}

#[test]
fn compile_files_checks_the_assumption_first_in_its_own_text() {
    let mut sources = Sources::new();
    let program = sources.add(SourceMap::new("p.imp", "var x: u8;\nassert 100 / x != 7"));
    let assume = sources.add(SourceMap::new("--assume", "x != 0 and 200 / x > 1"));
    let ir = compile_files(&sources, program, Some(assume)).unwrap();
    expect_test::expect![[r#"
        routine main(0) [0:x:u8] entry 0
          inputs x
            0: assume ((x !=:u8 0:u8) and ((200:u8 /:u8 x) >:u8 1:u8)) -> 1
               check division_by_zero if (x ==:u8 0:u8) when (x !=:u8 0:u8)
            1: assert ((100:u8 /:u8 x) !=:u8 7:u8) -> 2
               check division_by_zero if (x ==:u8 0:u8)
            2: halt
    "#]]
    .assert_eq(&ir.to_string());
    // Each location is in the text it came from.
    assert_eq!(ir.code[0].span.file, assume);
    assert_eq!(ir.code[0].checks[0].span, Span::in_file(assume, 15, 16));
    assert_eq!(ir.code[1].checks[0].span, Span::in_file(program, 22, 23));
    assert_eq!(ir.main.span.file, program);

    // An error in the condition is shown in its text.
    let bad = sources.add(SourceMap::new("--assume", "x < 300"));
    let d = compile_files(&sources, program, Some(bad)).unwrap_err();
    expect_test::expect![[r#"
        error: `300` does not fit `u8`
         --> --assume:1:5
          |
        1 | x < 300
          |     ^^^
          = help: `u8` holds 0 to 255; to wrap the value, cast it: `u8(300)`
    "#]]
    .assert_eq(&sources.render(&d));
    // Without the condition, the program alone.
    let ir = compile_files(&sources, program, None).unwrap();
    assert_eq!(ir.code.len(), 2);
    assert_eq!(FileId(0), program);
}
