//! Unit tests of the bit-vector constructors: folding and each rewrite.

use super::*;
use crate::term::Sort;
use BvOp::*;
use BvPred::*;

fn x() -> Term {
    Term::var("x", Sort::Bv(8))
}
fn y() -> Term {
    Term::var("y", Sort::Bv(8))
}
fn c(bits: u64) -> Term {
    Term::bv(8, bits)
}
fn bin(op: BvOp, a: &Term, b: &Term) -> Term {
    Term::bv_bin(op, a, b)
}

#[test]
fn constants_fold_through_wiser_num() {
    let samples = [0u64, 1, 2, 7, 8, 9, 0x7f, 0x80, 0xfe, 0xff];
    for op in BvOp::ALL {
        for a in samples {
            for b in samples {
                assert_eq!(
                    bin(op, &c(a), &c(b)),
                    c(op.apply(8, a, b)),
                    "{op:?} {a} {b}"
                );
            }
        }
    }
    for p in [Ult, Ule, Slt, Sle] {
        for a in samples {
            for b in samples {
                let t = Term::bv_cmp(p, &c(a), &c(b));
                assert_eq!(t.as_bool(), Some(p.apply(8, a, b)), "{p:?} {a} {b}");
            }
        }
    }
    for a in samples {
        assert_eq!(Term::bv_neg(&c(a)), c(bv::neg(8, a)));
        assert_eq!(Term::bv_not(&c(a)), c(bv::not(8, a)));
        assert_eq!(
            Term::bv_resize(&c(a), 16, true),
            Term::bv(16, bv::sext(8, 16, a))
        );
        assert_eq!(Term::bv_resize(&c(a), 16, false), Term::bv(16, a));
        assert_eq!(Term::bv_resize(&c(a), 4, true), Term::bv(4, a & 15));
        let s = Term::bv_to_int(&c(a), true);
        assert_eq!(s.as_int(), Some(&Int::from(bv::to_signed(8, a))));
        assert_eq!(Term::int_to_bv(&s, 8), c(a));
        assert_eq!(Term::int_to_bv(&Term::int(a as i64 + 512), 8), c(a));
        assert_eq!(Term::neg_overflows(&c(a)).as_bool(), Some(a == 0x80));
        for b in samples {
            for op in [OvfOp::Add, OvfOp::Sub, OvfOp::Mul] {
                let t = Term::signed_overflow(op, &c(a), &c(b));
                assert_eq!(t.as_bool(), Some(op.overflows(8, a, b)));
            }
            let d = Term::sdiv_overflows(&c(a), &c(b)).as_bool();
            assert_eq!(d, Some(bv::sdiv_overflows(8, a, b)));
            let s = Term::shl_overflows(&c(a), &c(b)).as_bool();
            assert_eq!(s, Some(bv::sshl_overflows(8, a, b)));
        }
    }
    assert_eq!(Term::bv(8, 0x1ff), c(0xff));
}

#[test]
fn identities() {
    let (x, y) = (x(), y());
    assert_eq!(bin(Add, &x, &c(0)), x);
    assert_eq!(bin(Sub, &x, &c(0)), x);
    assert_eq!(bin(Mul, &x, &c(1)), x);
    assert_eq!(bin(Mul, &c(0), &x), c(0));
    assert_eq!(bin(Mul, &x, &c(0xff)), Term::bv_neg(&x));
    assert_eq!(bin(And, &x, &c(0)), c(0));
    assert_eq!(bin(And, &c(0xff), &x), x);
    assert_eq!(bin(Or, &x, &c(0)), x);
    assert_eq!(bin(Or, &x, &c(0xff)), c(0xff));
    assert_eq!(bin(Xor, &x, &c(0)), x);
    assert_eq!(bin(Xor, &x, &c(0xff)), Term::bv_not(&x));
    assert_eq!(bin(Sub, &x, &x), c(0));
    assert_eq!(bin(Xor, &x, &x), c(0));
    assert_eq!(bin(And, &x, &x), x);
    assert_eq!(bin(Or, &x, &x), x);
    assert_eq!(bin(Sub, &c(0), &x), Term::bv_neg(&x));
    for op in [Shl, Lshr, Ashr] {
        assert_eq!(bin(op, &x, &c(0)), x);
        assert_eq!(bin(op, &c(0), &y), c(0));
    }
    assert_eq!(bin(Shl, &x, &c(8)), c(0));
    assert_eq!(bin(Lshr, &x, &c(200)), c(0));
    assert_eq!(bin(Ashr, &x, &c(200)), bin(Ashr, &x, &c(7)));
    assert_eq!(bin(Ashr, &c(0xff), &y), c(0xff));
    assert_eq!(bin(Udiv, &x, &c(1)), x);
    assert_eq!(bin(Udiv, &x, &c(0)), c(0xff));
    assert_eq!(bin(Urem, &x, &c(0)), x);
    assert_eq!(bin(Urem, &x, &c(1)), c(0));
    assert_eq!(bin(Sdiv, &x, &c(1)), x);
    assert_eq!(bin(Sdiv, &x, &c(0xff)), Term::bv_neg(&x));
    assert_eq!(bin(Srem, &x, &c(0xff)), c(0));
    assert_eq!(bin(Srem, &x, &c(0)), x);
    assert_eq!(Term::bv_neg(&Term::bv_neg(&x)), x);
    assert_eq!(Term::bv_not(&Term::bv_not(&x)), x);
    // Division of 0 by a variable is not 0: by zero it is all ones.
    assert!(matches!(bin(Udiv, &c(0), &x).kind(), Kind::BvBin(Udiv, ..)));
}

#[test]
fn offsets_and_operand_order() {
    let (x, y) = (x(), y());
    // x - 3 is x + 253; (x + 250) + 9 is x + 3; (x + 1) - 1 is x.
    assert_eq!(bin(Sub, &x, &c(3)), bin(Add, &x, &c(253)));
    assert_eq!(bin(Add, &bin(Add, &x, &c(250)), &c(9)), bin(Add, &x, &c(3)));
    assert_eq!(bin(Sub, &bin(Add, &x, &c(1)), &c(1)), x);
    for op in [Add, Mul, And, Or, Xor] {
        assert_eq!(bin(op, &x, &y), bin(op, &y, &x), "{op:?}");
        let t = bin(op, &c(5), &x);
        assert_eq!(t, bin(op, &x, &c(5)));
        assert!(matches!(t.kind(), Kind::BvBin(_, a, b) if *a == x && b.is_const()));
    }
    // Not commutative: operands stay.
    assert_ne!(bin(Sub, &x, &y), bin(Sub, &y, &x));
    assert_ne!(bin(Shl, &x, &y), bin(Shl, &y, &x));
    assert_eq!(Term::bv_eq(&x, &y), Term::bv_eq(&y, &x));
    assert!(matches!(Term::bv_eq(&c(3), &x).kind(), Kind::BvEq(a, _) if *a == x));
}

#[test]
fn comparisons() {
    let (x, y) = (x(), y());
    for p in [Ult, Ule, Slt, Sle] {
        assert_eq!(Term::bv_cmp(p, &x, &x).as_bool(), Some(!p.is_strict()));
    }
    assert_eq!(Term::bv_cmp(Ult, &x, &c(0)).as_bool(), Some(false));
    assert_eq!(Term::bv_cmp(Ule, &c(0), &x).as_bool(), Some(true));
    assert_eq!(Term::bv_cmp(Ule, &x, &c(0xff)).as_bool(), Some(true));
    assert_eq!(Term::bv_cmp(Ult, &c(0xff), &x).as_bool(), Some(false));
    assert_eq!(Term::bv_cmp(Slt, &x, &c(0x80)).as_bool(), Some(false));
    assert_eq!(Term::bv_cmp(Sle, &c(0x80), &x).as_bool(), Some(true));
    assert_eq!(Term::bv_cmp(Sle, &x, &c(0x7f)).as_bool(), Some(true));
    assert_eq!(Term::bv_cmp(Slt, &c(0x7f), &x).as_bool(), Some(false));
    assert_eq!(Term::bv_cmp(Ule, &x, &c(0)), Term::bv_eq(&x, &c(0)));
    assert_eq!(Term::bv_cmp(Sle, &x, &c(0x80)), Term::bv_eq(&x, &c(0x80)));
    // Strict comparisons with a constant are non-strict ones.
    assert_eq!(Term::bv_cmp(Ult, &x, &c(5)), Term::bv_cmp(Ule, &x, &c(4)));
    assert_eq!(Term::bv_cmp(Slt, &c(5), &x), Term::bv_cmp(Sle, &c(6), &x));
    assert_eq!(Term::bv_cmp(Ult, &c(0), &x), Term::ne(&x, &c(0)));
    // Negation swaps: not (x < y) is y <= x.
    let n = Term::not(&Term::bv_cmp(Ult, &x, &y));
    assert!(matches!(n.kind(), Kind::BvCmp(Ule, a, b) if *a == y && *b == x));
    assert_eq!(n, Term::bv_cmp(Ule, &y, &x));
    assert_eq!(
        Term::not(&Term::bv_cmp(Sle, &x, &y)),
        Term::bv_cmp(Slt, &y, &x)
    );
    assert_eq!(
        Term::not(&Term::bv_cmp(Ule, &x, &c(9))),
        Term::bv_cmp(Ult, &c(9), &x)
    );
    let ne = Term::not(&Term::bv_eq(&x, &y));
    assert!(matches!(ne.kind(), Kind::Not(e) if matches!(e.kind(), Kind::BvEq(..))));
    let lt = Term::bv_cmp(Slt, &x, &y);
    assert_eq!(Term::and(&lt, &Term::not(&lt)).as_bool(), Some(false));
    assert_eq!(Term::or(&lt, &Term::not(&lt)).as_bool(), Some(true));
}

#[test]
fn equations_with_constants() {
    let x = x();
    let eq = |a: &Term, b: u64| Term::bv_eq(a, &c(b));
    assert_eq!(eq(&bin(Add, &x, &c(3)), 5), eq(&x, 2));
    assert_eq!(eq(&bin(Xor, &x, &c(3)), 5), eq(&x, 6));
    assert_eq!(eq(&Term::bv_neg(&x), 1), eq(&x, 0xff));
    assert_eq!(eq(&Term::bv_not(&x), 0), eq(&x, 0xff));
    let z = Term::bv_resize(&x, 16, false);
    assert_eq!(Term::bv_eq(&z, &Term::bv(16, 300)).as_bool(), Some(false));
    assert_eq!(Term::bv_eq(&z, &Term::bv(16, 200)), eq(&x, 200));
    let s = Term::bv_resize(&x, 32, true);
    assert_eq!(Term::bv_eq(&s, &Term::bv(32, 0xffff_ff80)), eq(&x, 0x80));
    assert_eq!(Term::bv_eq(&s, &Term::bv(32, 0x80)).as_bool(), Some(false));
    let p = Term::bool_var("p");
    let b = Term::ite(&p, &c(1), &c(0));
    assert_eq!(eq(&b, 1), p);
    assert_eq!(eq(&b, 0), Term::not(&p));
    assert_eq!(eq(&b, 2).as_bool(), Some(false));
}

#[test]
fn extensions_and_truncations() {
    let x = x();
    let z16 = Term::bv_resize(&x, 16, false);
    let s16 = Term::bv_resize(&x, 16, true);
    assert_eq!(Term::bv_resize(&x, 8, true), x);
    assert!(matches!(
        z16.kind(),
        Kind::Extend {
            signed: false,
            width: 16,
            ..
        }
    ));
    assert!(matches!(
        Term::bv_resize(&x, 4, true).kind(),
        Kind::Extract { width: 4, .. }
    ));
    assert_eq!(Term::bv_resize(&z16, 8, false), x);
    assert_eq!(Term::bv_resize(&s16, 8, true), x);
    assert_eq!(Term::bv_resize(&s16, 4, true), Term::bv_resize(&x, 4, true));
    let s64 = Term::bv_resize(&Term::bv_resize(&s16, 32, true), 64, true);
    assert_eq!(s64, Term::bv_resize(&x, 64, true));
    assert_eq!(
        Term::bv_resize(&z16, 32, true),
        Term::bv_resize(&x, 32, false)
    );
    // zext(sext(x)) does not compose.
    let zs = Term::bv_resize(&s16, 32, false);
    assert!(matches!(zs.kind(), Kind::Extend { t, .. } if *t == s16));
    // Truncating to 12 bits an extension to 32 is an extension to 12.
    let s32 = Term::bv_resize(&x, 32, true);
    assert_eq!(
        Term::bv_resize(&s32, 12, false),
        Term::bv_resize(&x, 12, true)
    );
    let t4 = Term::bv_resize(&Term::bv_resize(&s32, 16, false), 4, false);
    assert_eq!(t4, Term::bv_resize(&x, 4, false));
    // Conversions to integers and back.
    assert_eq!(Term::int_to_bv(&Term::bv_to_int(&x, true), 8), x);
    assert_eq!(Term::int_to_bv(&Term::bv_to_int(&x, true), 32), s32);
    assert_eq!(Term::bv_to_int(&z16, true), Term::bv_to_int(&x, false));
    assert_eq!(Term::bv_to_int(&s16, true), Term::bv_to_int(&x, true));
    assert!(matches!(
        Term::bv_to_int(&s16, false).kind(),
        Kind::BvToInt { .. }
    ));
}

#[test]
fn overflow_predicates() {
    let (x, y) = (x(), y());
    assert_eq!(
        Term::signed_overflow(OvfOp::Add, &x, &c(0)).as_bool(),
        Some(false)
    );
    assert_eq!(
        Term::signed_overflow(OvfOp::Sub, &x, &x).as_bool(),
        Some(false)
    );
    assert_eq!(
        Term::signed_overflow(OvfOp::Mul, &c(1), &x).as_bool(),
        Some(false)
    );
    assert_eq!(
        Term::signed_overflow(OvfOp::Mul, &x, &c(0xff)),
        Term::neg_overflows(&x)
    );
    assert_eq!(
        Term::signed_overflow(OvfOp::Sub, &c(0), &x),
        Term::neg_overflows(&x)
    );
    assert_eq!(
        Term::signed_overflow(OvfOp::Add, &x, &y),
        Term::signed_overflow(OvfOp::Add, &y, &x)
    );
    assert_eq!(Term::neg_overflows(&x), Term::bv_eq(&x, &c(0x80)));
    assert_eq!(
        Term::sdiv_overflows(&x, &c(0xff)),
        Term::bv_eq(&x, &c(0x80))
    );
    assert_eq!(Term::sdiv_overflows(&x, &c(2)).as_bool(), Some(false));
    // Shifting by 0 overflows exactly for negative values.
    assert_eq!(Term::shl_overflows(&x, &c(0)), Term::bv_cmp(Slt, &x, &c(0)));
}

#[test]
fn booleans_and_ite() {
    let p = Term::bool_var("p");
    let (x, y) = (x(), y());
    assert_eq!(Term::ite(&p, &Term::bool(true), &Term::bool(false)), p);
    assert_eq!(
        Term::ite(&p, &Term::bool(false), &Term::bool(true)),
        Term::not(&p)
    );
    assert_eq!(Term::ite(&Term::not(&p), &x, &y), Term::ite(&p, &y, &x));
    assert_eq!(Term::ite(&p, &x, &x), x);
    let q = Term::bool_var("q");
    assert_eq!(Term::ite(&p, &Term::bool(true), &q), Term::or(&p, &q));
    assert_eq!(Term::ite(&p, &q, &Term::bool(false)), Term::and(&p, &q));
    assert_eq!(
        Term::ite(&p, &q, &Term::bool(true)),
        Term::or(&Term::not(&p), &q)
    );
    assert_eq!(
        Term::ite(&p, &Term::bool(false), &q),
        Term::and(&Term::not(&p), &q)
    );
    assert_eq!(Term::ite(&p, &x, &y).sort(), Sort::Bv(8));
}

#[test]
#[should_panic(expected = "sort error")]
fn integer_rewrites_never_see_bit_vectors() {
    Term::add(&x(), &c(1));
}

#[test]
#[should_panic(expected = "sort error")]
fn widths_must_agree() {
    Term::bv_bin(Add, &x(), &Term::bv(16, 1));
}

#[test]
fn structure_and_deep_terms() {
    let (x, y) = (x(), y());
    let t = Term::bv_cmp(Ult, &bin(Mul, &Term::bv_resize(&x, 8, true), &y), &x);
    let vars = t.vars();
    assert!(
        vars.len() == 2 && vars.contains(&x) && vars.contains(&y),
        "{vars:?}"
    );
    let mut d = x.clone();
    for _ in 0..200_000 {
        d = bin(Xor, &Term::bv_not(&d), &y);
    }
    assert!(d.depth() > 200_000);
    drop(d);
    let a = Term::var("a", Sort::Array(crate::Scalar::Bv(8), crate::Scalar::Bool));
    let s = Term::store(
        &Term::store(&a, &c(1), &Term::bool(true)),
        &c(2),
        &Term::bool(false),
    );
    assert_eq!(Term::select(&s, &c(1)).as_bool(), Some(true));
    assert_eq!(Term::select(&s, &c(3)), Term::select(&a, &c(3)));
    assert_eq!(Term::select(&s, &x).sort(), Sort::Bool);
}

#[test]
fn multiples_of_one_term_add_up_to_one_product() {
    let k = Term::var("k", Sort::Bv(32));
    let mut i = Term::bv(32, 0);
    for _ in 0..5 {
        i = Term::bv_bin(BvOp::Add, &i, &k);
    }
    assert_eq!(i, Term::bv_bin(BvOp::Mul, &k, &Term::bv(32, 5)));
    // Modulo 2^w: 255*x + x is 0*x, which is 0.
    let x = Term::var("x", Sort::Bv(8));
    let big = Term::bv_bin(BvOp::Mul, &x, &Term::bv(8, 255));
    assert_eq!(Term::bv_bin(BvOp::Add, &big, &x), Term::bv(8, 0));
}

#[test]
fn a_sum_that_cannot_carry_is_not_below_its_summand() {
    let byte = |n: &str| Term::bv_resize(&Term::var(n, Sort::Bv(8)), 32, false);
    let (a, b) = (byte("a"), byte("b"));
    let s = Term::bv_bin(BvOp::Add, &a, &b);
    assert_eq!(Term::bv_cmp(BvPred::Ult, &s, &b), Term::bool(false));
    assert_eq!(Term::bv_cmp(BvPred::Ule, &a, &s), Term::bool(true));
    // A 32-bit summand can carry: nothing is decided.
    let x = Term::var("x", Sort::Bv(32));
    let t = Term::bv_bin(BvOp::Add, &x, &b);
    assert!(Term::bv_cmp(BvPred::Ult, &t, &b).as_bool().is_none());
    // Bytes summed in 8 bits can carry too.
    let (c, d) = (Term::var("c", Sort::Bv(8)), Term::var("d", Sort::Bv(8)));
    let u = Term::bv_bin(BvOp::Add, &c, &d);
    assert!(Term::bv_cmp(BvPred::Ult, &u, &d).as_bool().is_none());
}
