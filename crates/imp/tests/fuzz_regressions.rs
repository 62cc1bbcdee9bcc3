//! Regression tests for inputs found by the fuzz targets in `fuzz/`
//! (`cargo fuzz run parse`). Each test names the property that failed.

use wiser_imp::ast::{Expr, Stmt, UnOp};
use wiser_imp::{parse_cond, parse_program};

/// Prints `src`'s program, parses the print, and checks that printing is
/// then a fixed point; returns the print.
fn round_trip(src: &str) -> String {
    let p = parse_program(src).unwrap();
    let text = p.to_string();
    let q = parse_program(&text).unwrap_or_else(|d| panic!("{}\n{text}", d.message));
    assert_eq!(q.to_string(), text, "from {src:?}");
    let full = format!("{p:#}");
    let r = parse_program(&full).unwrap_or_else(|d| panic!("{}\n{full}", d.message));
    assert_eq!(format!("{r:#}"), full, "from {src:?}");
    text
}

fn assigned_values(p: &wiser_imp::ast::Program) -> Vec<&Expr> {
    let Stmt::Seq(items) = &p.main else {
        panic!("a sequence")
    };
    items
        .iter()
        .map(|s| match s {
            Stmt::Assign { value, .. } => value,
            other => panic!("an assignment, not {other:?}"),
        })
        .collect()
}

/// `-(5)` and `- - 0` are a minus on a non-negative literal. It was printed
/// as `-5` / `-0`, which reads back as a literal: the tree changed (and
/// printing again lost one minus sign of `- - - 0` per round).
#[test]
fn negated_non_negative_literals_keep_their_parentheses() {
    let text = round_trip("x = -(5); y = - - 0; z = - - - 0; w = -(0) * 2; v = - -5");
    assert!(text.contains("x = -(5)"), "{text}");
    assert!(text.contains("y = -(0)"), "{text}");
    assert!(text.contains("z = - -(0)"), "{text}");
    assert!(text.contains("v = - -5"), "{text}");
    let reparsed = parse_program(&text).unwrap();
    let values = assigned_values(&reparsed);
    assert!(
        matches!(values[0], Expr::Unary { op: UnOp::Neg, operand, .. }
        if matches!(**operand, Expr::Num { ref value, .. } if value.to_i64() == Some(5)))
    );
    assert!(
        matches!(values[1], Expr::Unary { op: UnOp::Neg, operand, .. }
        if matches!(**operand, Expr::Num { ref value, .. } if value.is_zero()))
    );
    assert!(
        matches!(values[2], Expr::Unary { op: UnOp::Neg, operand, .. }
        if matches!(**operand, Expr::Unary { op: UnOp::Neg, .. }))
    );
}

/// The input the parse target found (crash-d80e822f...): a condition with
/// runs of minus signs before a zero literal, whose print lost a minus at
/// each round trip.
#[test]
fn fuzz_parse_minus_runs_before_zero_print_stably() {
    let zeros = "0".repeat(80);
    let src = format!("# J\no < hi---------{zeros}--{zeros}2086579957------assertl");
    let c = parse_cond(&src).unwrap();
    let text = c.to_string();
    let again = parse_cond(&text).unwrap().to_string();
    assert_eq!(again, text);
}
