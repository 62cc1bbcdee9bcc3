//! Bit-vector, boolean and array queries through Z3: models read back
//! for every sort, conversions, and the overflow predicates against their
//! definition.

use wiser_num::Int;
use wiser_smt::{Answer, BvOp, BvPred, OvfOp, Scalar, Solver, Sort, Term, Z3Solver};

fn int(n: i64) -> Term {
    Term::int(n)
}

fn bv32(name: &str) -> Term {
    Term::var(name, Sort::Bv(32))
}

#[test]
fn bit_vector_models() {
    let mut s = Z3Solver::new(None);
    let x = bv32("x");
    // 3x == 7 (mod 2^32): x is 7 times the inverse of 3.
    let c = [Term::bv_eq(
        &Term::bv_bin(BvOp::Mul, &x, &Term::bv(32, 3)),
        &Term::bv(32, 7),
    )];
    match s.solve(&c) {
        Answer::Sat(m) => {
            let v = m.int("x").low_bits(32);
            assert_eq!(v.wrapping_mul(3) & 0xffff_ffff, 7);
        }
        other => panic!("{other:?}"),
    }
    // Signed and unsigned orders differ: x <s 0 and x >u 5.
    let c = [
        Term::bv_cmp(BvPred::Slt, &x, &Term::bv(32, 0)),
        Term::bv_cmp(BvPred::Ult, &Term::bv(32, 5), &x),
    ];
    assert!(matches!(s.solve(&c), Answer::Sat(m) if m.int("x") >= Int::from(1i64 << 31)));
    // x <u 5 and x >s 5 is unsat.
    let c = [
        Term::bv_cmp(BvPred::Ult, &x, &Term::bv(32, 5)),
        Term::bv_cmp(BvPred::Slt, &Term::bv(32, 5), &x),
    ];
    assert_eq!(s.solve(&c), Answer::Unsat);
}

#[test]
fn booleans_and_arrays_of_any_sort() {
    let mut s = Z3Solver::new(None);
    let (p, q) = (Term::bool_var("p"), Term::bool_var("q"));
    let a = Term::var("a", Sort::Array(Scalar::Bv(32), Scalar::Bv(8)));
    let f = Term::var("f", Sort::Array(Scalar::Int, Scalar::Bool));
    let (i, n) = (bv32("i"), Term::int_var("n"));
    let byte = Term::select(&a, &i);
    let c = [
        Term::or(&p, &q),
        Term::not(&p),
        Term::bv_eq(&Term::ite(&q, &byte, &Term::bv(8, 1)), &Term::bv(8, 0xfe)),
        Term::select(&f, &n),
        Term::not(&Term::select(&f, &Term::add(&n, &int(1)))),
        Term::bv_cmp(BvPred::Ult, &Term::bv(32, 1000), &i),
    ];
    match s.solve(&c) {
        Answer::Sat(m) => {
            assert!(m.boolean("q") && !m.boolean("p"));
            assert!(c.iter().all(|t| m.holds(t)));
            let index = m.int("i");
            assert_eq!(m.array("a").unwrap().get(&index), Int::from(0xfe));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn conversions_and_overflow() {
    let mut s = Z3Solver::new(None);
    let x = Term::var("x", Sort::Bv(8));
    // sint(x) == -3 and uint(x) == 253 together.
    let c = [
        Term::eq(&Term::bv_to_int(&x, true), &int(-3)),
        Term::eq(&Term::bv_to_int(&x, false), &int(253)),
    ];
    assert!(matches!(s.solve(&c), Answer::Sat(m) if m.int("x") == Int::from(253)));
    // bv8(n) == 1 with n < 0: n = -255, -511, ...
    let n = Term::int_var("n");
    let c = [
        Term::bv_eq(&Term::int_to_bv(&n, 8), &Term::bv(8, 1)),
        Term::lt(&n, &int(0)),
    ];
    assert!(
        matches!(s.solve(&c), Answer::Sat(m) if m.int("n").rem_trunc(&Int::from(256)) == Int::from(-255))
    );
    // x + 100 overflows i8 exactly when x >= 28: x > 27 is implied.
    let c = [
        Term::signed_overflow(OvfOp::Add, &x, &Term::bv(8, 100)),
        Term::bv_cmp(BvPred::Sle, &x, &Term::bv(8, 27)),
    ];
    assert_eq!(s.solve(&c), Answer::Unsat);
    let c = [
        Term::shl_overflows(&x, &Term::bv(8, 3)),
        Term::bv_cmp(BvPred::Sle, &Term::bv(8, 0), &x),
    ];
    assert!(
        matches!(s.solve(&c), Answer::Sat(m) if m.int("x") >= Int::from(16) && m.int("x") < Int::from(128))
    );
}

/// Each overflow predicate against its definition (the exact result
/// at twice the width does not survive truncation), for all 8-bit
/// operands at once, and with operands fixed (which is where Z3 4.8.12's
/// own signed multiplication predicates go wrong).
#[test]
fn overflow_predicates_match_their_definition() {
    let mut s = Z3Solver::new(None);
    let (x, y) = (Term::var("x", Sort::Bv(8)), Term::var("y", Sort::Bv(8)));
    for (op, bop) in [
        (OvfOp::Add, BvOp::Add),
        (OvfOp::Sub, BvOp::Sub),
        (OvfOp::Mul, BvOp::Mul),
    ] {
        let wide = |t: &Term| Term::bv_resize(t, 16, true);
        let exact = Term::bv_bin(bop, &wide(&x), &wide(&y));
        let reference = Term::ne(&wide(&Term::bv_resize(&exact, 8, false)), &exact);
        let ovf = Term::signed_overflow(op, &x, &y);
        let differ = Term::or(
            &Term::and(&ovf, &Term::not(&reference)),
            &Term::and(&Term::not(&ovf), &reference),
        );
        assert_eq!(s.solve(&[differ]), Answer::Unsat, "{op:?}");
    }
    for w in [8u8, 64] {
        let (x, y) = (Term::var("a", Sort::Bv(w)), Term::var("b", Sort::Bv(w)));
        let ones = wiser_num::bv::mask(u32::from(w));
        for (a, b) in [(ones, 2), (ones, ones >> 1), (ones, ones), (2, ones >> 2)] {
            let q = [
                Term::bv_eq(&x, &Term::bv(w, a)),
                Term::bv_eq(&y, &Term::bv(w, b)),
                Term::signed_overflow(OvfOp::Mul, &x, &y),
            ];
            assert_eq!(s.solve(&q), Answer::Unsat, "{w} bits: {a:#x} * {b:#x}");
        }
    }
}

#[test]
fn constant_arrays_read_their_value_until_written() {
    use wiser_smt::{Answer, Model, Scalar, Solver, Sort, Term, Value, Z3Solver};
    let sort = Sort::Array(Scalar::Bv(32), Scalar::Bv(8));
    let zeros = Term::const_array(sort, &Term::bv(8, 0));
    let i = Term::var("i", Sort::Bv(32));
    assert_eq!(Term::select(&zeros, &i), Term::bv(8, 0));
    let a = Term::store(&zeros, &Term::bv(32, 3), &Term::bv(8, 7));
    let read = Term::select(&a, &i);
    let mut m = Model::new();
    m.set_int("i".into(), 3.into());
    assert_eq!(m.eval(&read), Value::Int(7.into()));
    let mut z3 = Z3Solver::new(None);
    match z3.solve(&[Term::bv_eq(&read, &Term::bv(8, 7))]) {
        Answer::Sat(m) => assert_eq!(m.int("i"), 3.into()),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        z3.solve(&[Term::bv_eq(&read, &Term::bv(8, 9))]),
        Answer::Unsat
    );
}
