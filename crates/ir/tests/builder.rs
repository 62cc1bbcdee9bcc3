//! The builder on the shapes front ends lower: loops with `break` and
//! `continue`, forward `goto`, a jump cycle, calls, checks under guards,
//! and the front-end bugs it must catch instead of panicking.

use expect_test::{expect, Expect};
use wiser_ir::{ArrayTy, Builder, ErrorKind, Expr, Instr, ScalarTy, Span};
use wiser_num::{BinOp, CmpOp, IntTy};

fn s() -> Span {
    Span::new(0, 1)
}

fn check(ir: &wiser_ir::Ir, expect: Expect) {
    expect.assert_eq(&ir.to_string());
}

#[test]
fn a_loop_with_break_and_continue() {
    // i = 0; while (true) { i = i + 1; if (i == 3) continue; if (i > 5) break; } assert i == 6
    let mut b = Builder::new();
    let mut m = b.begin_main(s());
    let t = IntTy::I32;
    let i = m.local("i", ScalarTy::Int(t));
    m.assign(i, Expr::int(t, 0), s());
    let (head, body, exit) = (m.label(), m.label(), m.label());
    m.bind(head);
    m.branch(Expr::bool(true), body, exit, s());
    m.bind(body);
    let inc = Expr::binary(BinOp::Add, m.load(i), Expr::int(t, 1), s());
    m.assign(i, inc, s());
    let (cont, next) = (m.label(), m.label());
    m.branch(
        Expr::cmp(CmpOp::Eq, m.load(i), Expr::int(t, 3)),
        cont,
        next,
        s(),
    );
    m.bind(cont);
    m.jump(head);
    m.bind(next);
    let brk = m.label();
    m.branch(
        Expr::cmp(CmpOp::Gt, m.load(i), Expr::int(t, 5)),
        brk,
        head,
        s(),
    );
    m.bind(brk);
    m.jump(exit);
    m.bind(exit);
    m.assert(Expr::cmp(CmpOp::Eq, m.load(i), Expr::int(t, 6)), s());
    m.finish();
    let ir = b.finish().unwrap();
    check(
        &ir,
        expect![[r#"
            routine main(0) [0:i:i32] entry 0
                0: i = 0:i32 -> 1
                1: if true -> 2 else 5
                2: i = (i +:i32 1:i32) -> 3
                   check signed_overflow if overflows(i +:i32 1:i32)
                3: if (i ==:i32 3:i32) -> 1 else 4
                4: if (i >:i32 5:i32) -> 5 else 1
                5: assert (i ==:i32 6:i32) -> 6
                6: halt
        "#]],
    );
}

#[test]
fn forward_goto_and_a_jump_cycle() {
    // goto end; x = 1; end: loop: goto loop;
    let mut b = Builder::new();
    let mut m = b.begin_main(s());
    let x = m.local("x", ScalarTy::INT);
    let (end, lp) = (m.label(), m.label());
    m.jump(end);
    assert!(!m.is_reachable());
    m.assign(x, Expr::int(IntTy::INT, 1), s());
    m.bind(end);
    m.bind(lp);
    m.jump(lp);
    m.finish();
    let ir = b.finish().unwrap();
    let entry = &ir.code[ir.main.entry as usize].instr;
    assert!(
        matches!(entry, Instr::Skip { next } if *next == ir.main.entry),
        "{ir}"
    );
}

#[test]
fn procedures_return_their_default_when_they_fall_off_the_end() {
    let mut b = Builder::new();
    let t = ScalarTy::Int(IntTy::U8);
    let f = b.declare_proc("f", vec![("p".into(), t)], Some(t), s());
    let mut body = b.begin_proc(f);
    let p = body.param(0);
    let (pos, done) = (body.label(), body.label());
    body.branch(
        Expr::cmp(CmpOp::Gt, body.load(p), Expr::int(IntTy::U8, 0)),
        pos,
        done,
        s(),
    );
    body.bind(pos);
    body.ret(Some(body.load(p)), s());
    body.bind(done);
    body.finish();
    let mut m = b.begin_main(s());
    let r = m.local("r", t);
    m.call(f, vec![Expr::int(IntTy::U8, 7)], Some(r), s());
    m.finish();
    let ir = b.finish().unwrap();
    check(
        &ir,
        expect![[r#"
            routine main(0) [0:r:u8] entry 3
                3: r = f(7:u8) -> 4
                4: halt
            routine f(1) -> u8 [0:p:u8] entry 0
                0: if (p >:u8 0:u8) -> 1 else 2
                1: return p
                2: return 0:u8
        "#]],
    );
}

#[test]
fn checks_under_short_circuit_and_arrays() {
    let mut b = Builder::new();
    let a = b.array("a", ArrayTy::INT, None);
    let mut m = b.begin_main(s());
    let (x, y) = (m.local("x", ScalarTy::INT), m.local("y", ScalarTy::INT));
    m.input(x);
    m.input(y);
    let nonzero = Expr::cmp(CmpOp::Ne, m.load(y), Expr::int(IntTy::INT, 0));
    let q = Expr::binary(BinOp::Div, m.load(x), m.load(y), Span::new(5, 6));
    let elem = Expr::select(a, ArrayTy::INT, q);
    let c = Expr::and(
        nonzero,
        Expr::cmp(CmpOp::Lt, elem, Expr::int(IntTy::INT, 3)),
    );
    m.assert(c, s());
    m.finish();
    let ir = b.finish().unwrap();
    check(
        &ir,
        expect![[r#"
            array a0 a: [int] int = input
            routine main(0) [0:x:int, 1:y:int] entry 0
              inputs x, y
                0: assert ((y !=:int 0) and (a[(x /:int y)] <:int 3)) -> 1
                   check division_by_zero if (y ==:int 0) when (y !=:int 0)
                1: halt
        "#]],
    );
    assert_eq!(ir.code[0].checks[0].kind, ErrorKind::DivisionByZero);
    assert_eq!(ir.code[0].checks[0].span, Span::new(5, 6));
}

#[test]
fn front_end_bugs_are_errors_not_panics() {
    // Assigning a u8 to an i8 slot.
    let mut b = Builder::new();
    let mut m = b.begin_main(s());
    let x = m.local("x", ScalarTy::Int(IntTy::I8));
    m.assign(x, Expr::int(IntTy::U8, 1), s());
    m.finish();
    let e = b.finish().unwrap_err();
    assert!(e.to_string().contains("expected `i8`"), "{e}");

    // A label used but never bound.
    let mut b = Builder::new();
    let mut m = b.begin_main(s());
    let nowhere = m.label();
    m.jump(nowhere);
    m.finish();
    assert!(b.finish().unwrap_err().to_string().contains("never bound"));

    // Bitwise operators on unbounded integers.
    let mut b = Builder::new();
    let mut m = b.begin_main(s());
    let x = m.local("x", ScalarTy::INT);
    let e = Expr::binary(BinOp::BitAnd, m.load(x), m.load(x), s());
    m.assign(x, e, s());
    m.finish();
    assert!(b.finish().unwrap_err().to_string().contains("fixed-width"));

    // No main program.
    assert!(Builder::new().finish().is_err());
}

#[test]
fn an_expression_whose_checks_would_not_fit_in_memory_is_an_error() {
    // Each signed `+` is checked with a copy of its operands' code: a chain
    // of n additions needs about n²/2 operations.
    let mut b = Builder::new();
    let mut m = b.begin_main(s());
    let x = m.local("x", ScalarTy::Int(IntTy::I32));
    let mut e = m.load(x);
    for _ in 0..4000 {
        e = Expr::binary(BinOp::Add, e, m.load(x), s());
    }
    m.assign(x, e, Span::new(7, 9));
    m.finish();
    match b.finish() {
        Err(wiser_ir::IrError::TooLarge { span, message }) => {
            assert_eq!(span, Span::new(7, 9));
            assert!(message.contains("too large"), "{message}");
        }
        other => panic!("{other:?}"),
    }
}
