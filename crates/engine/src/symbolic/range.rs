//! Refutation by the box: is a condition false at every point of the
//! path's box? Then that side of a decision is infeasible, whatever the
//! other constraints say (the box is part of the path condition).
//!
//! Integer conditions are linear forms `t <= 0`, `t == 0`; their ranges
//! follow from the ranges of their atoms. Bit-vector comparisons are first
//! *lifted* to integers: a sum, difference or product of bit-vectors whose
//! range (by the same interval arithmetic) cannot leave the type is the
//! integer sum, difference or product, so `s <u zext(v)` with
//! `s = zext(v1) + ... + zext(vk)` in 32 bits becomes
//! `v1 + ... + vk < vk` over the integers, which the linear normal form
//! turns into `v1 + ... + v(k-1) + 1 <= 0`: false on the box, with no
//! solver call and no bit-blasting. Whatever cannot be lifted stays an
//! opaque atom with the full range of its type, which is always sound.

use crate::path::{Interval, PathCond};
use wiser_num::{bv, Int};
use wiser_smt::{BvOp, BvPred, Kind, OvfOp, Sort, Term};

/// Terms deeper than this are not examined (the walk recurses).
const MAX_DEPTH: u32 = 2_000;

/// Is `c` false at every point of `path`'s box?
pub(crate) fn refuted_by_box(path: &PathCond, c: &Term) -> bool {
    c.depth() <= MAX_DEPTH && refuted(path, c)
}

fn refuted(path: &PathCond, c: &Term) -> bool {
    match c.kind() {
        Kind::Bool(b) => !b,
        Kind::And(xs) => xs.iter().any(|x| refuted(path, x)),
        Kind::Or(xs) => xs.iter().all(|x| refuted(path, x)),
        Kind::Le(lin) => range(path, lin).lo.is_some_and(|lo| lo > Int::ZERO),
        Kind::Eq(lin) => !range(path, lin).contains(&Int::ZERO),
        Kind::Not(inner) => match inner.kind() {
            Kind::Eq(lin) => range(path, lin) == Interval::range(Int::ZERO, Int::ZERO),
            Kind::BvEq(a, b) => {
                let (la, _) = lift(path, a, false);
                let (lb, _) = lift(path, b, false);
                refuted(path, &Term::ne(&la, &lb))
            }
            _ => false,
        },
        Kind::BvEq(a, b) => {
            let (la, _) = lift(path, a, false);
            let (lb, _) = lift(path, b, false);
            refuted(path, &Term::eq(&la, &lb))
        }
        // Signed overflow, where the exact result's range fits the type.
        Kind::SOvf(op, a, b) => {
            let (min, max) = reading(width(a), true);
            let (_, ra) = lift(path, a, true);
            let (_, rb) = lift(path, b, true);
            let exact = match op {
                OvfOp::Add => add(&ra, &rb),
                OvfOp::Sub => add(&ra, &neg(&rb)),
                OvfOp::Mul => mul(&ra, &rb),
            };
            within(&exact, &min, &max)
        }
        Kind::BvCmp(pred, a, b) => {
            let signed = matches!(pred, BvPred::Slt | BvPred::Sle);
            let (la, _) = lift(path, a, signed);
            let (lb, _) = lift(path, b, signed);
            let cmp = match pred {
                BvPred::Ult | BvPred::Slt => Term::lt(&la, &lb),
                BvPred::Ule | BvPred::Sle => Term::le(&la, &lb),
            };
            refuted(path, &cmp)
        }
        _ => false,
    }
}

/// The least and greatest value a bit-vector of width `w` has when read
/// signed or unsigned.
fn reading(w: u32, signed: bool) -> (Int, Int) {
    if signed {
        let half = Int::from_u64(1u64 << (w - 1));
        (half.neg(), half.sub(&Int::ONE))
    } else {
        (Int::ZERO, Int::from_u64(bv::mask(w)))
    }
}

fn width(t: &Term) -> u32 {
    match t.sort() {
        Sort::Bv(w) => u32::from(w),
        _ => 64,
    }
}

fn within(r: &Interval, lo: &Int, hi: &Int) -> bool {
    r.lo.as_ref().is_some_and(|l| l >= lo) && r.hi.as_ref().is_some_and(|h| h <= hi)
}

/// The integer value of the bit-vector `t` read signed or unsigned, as an
/// integer term, with a range that contains it.
fn lift(path: &PathCond, t: &Term, signed: bool) -> (Term, Interval) {
    let w = width(t);
    let (min, max) = reading(w, signed);
    let atom = || {
        let a = Term::bv_to_int(t, signed);
        let r = atom_range(path, &a);
        (a, r)
    };
    match t.kind() {
        Kind::Bv { bits, .. } => {
            let v = if signed {
                Int::from(bv::to_signed(w, *bits))
            } else {
                Int::from_u64(*bits)
            };
            (Term::int(v.clone()), Interval::range(v.clone(), v))
        }
        Kind::Extend {
            signed: s,
            t: inner,
            ..
        } => match (signed, *s) {
            (true, true) | (false, false) => lift(path, inner, signed),
            // A zero extension read signed is the unsigned value.
            (true, false) => lift(path, inner, false),
            // A sign extension read unsigned is the signed value when that
            // cannot be negative.
            (false, true) => {
                let (l, r) = lift(path, inner, true);
                if r.lo.as_ref().is_some_and(|lo| !lo.is_negative()) {
                    (l, r)
                } else {
                    atom()
                }
            }
        },
        Kind::BvBin(op @ (BvOp::Add | BvOp::Sub | BvOp::Mul), a, b) => {
            let (la, ra) = lift(path, a, signed);
            let (lb, rb) = lift(path, b, signed);
            let (term, r) = match op {
                BvOp::Add => (Term::add(&la, &lb), add(&ra, &rb)),
                BvOp::Sub => (Term::sub(&la, &lb), add(&ra, &neg(&rb))),
                _ => (Term::mul(&la, &lb), mul(&ra, &rb)),
            };
            if within(&r, &min, &max) {
                (term, r)
            } else {
                atom()
            }
        }
        _ => atom(),
    }
}

/// The range of an integer term under the box.
fn range(path: &PathCond, t: &Term) -> Interval {
    match t.kind() {
        Kind::Int(n) => Interval::range(n.clone(), n.clone()),
        Kind::Linear(ms, c) => ms
            .iter()
            .fold(Interval::range(c.clone(), c.clone()), |r, (x, k)| {
                add(&r, &scale(&range(path, x), k))
            }),
        Kind::Mul(a, b) => mul(&range(path, a), &range(path, b)),
        _ => atom_range(path, t),
    }
}

/// The range of an atom: a variable's set, or a bit-vector read as an
/// integer.
fn atom_range(path: &PathCond, t: &Term) -> Interval {
    match t.kind() {
        Kind::Var(_, Sort::Int) => path.set(t).hull(),
        Kind::BvToInt { signed, t: x } => {
            let w = width(x);
            let (min, max) = reading(w, *signed);
            if let Kind::Ite(_, a, b) = x.kind() {
                // Either side's value (a table read at a symbolic index
                // is a choice among its cells, `SymArray::select`).
                let (_, ra) = lift(path, a, *signed);
                let (_, rb) = lift(path, b, *signed);
                let lo = ra.lo.zip(rb.lo).map(|(a, b)| a.min(b));
                let hi = ra.hi.zip(rb.hi).map(|(a, b)| a.max(b));
                return Interval::new(lo, hi);
            }
            if !matches!(x.kind(), Kind::Var(..)) {
                return Interval::range(min, max);
            }
            let set = path.set(x);
            if !*signed {
                return set.hull();
            }
            // Patterns at or above 2^(w-1) are negative values.
            let half = Int::from_u64(1u64 << (w - 1));
            let two = half.add(&half);
            let mut lo: Option<Int> = None;
            let mut hi: Option<Int> = None;
            for p in set.parts() {
                let (Some(a), Some(b)) = (&p.lo, &p.hi) else {
                    return Interval::range(min, max);
                };
                let pieces = [
                    (a.clone(), b.clone().min(half.sub(&Int::ONE))),
                    (a.clone().max(half.clone()).sub(&two), b.sub(&two)),
                ];
                for (x, y) in pieces.into_iter().filter(|(x, y)| x <= y) {
                    lo = Some(lo.map_or(x.clone(), |l| l.min(x)));
                    hi = Some(hi.map_or(y.clone(), |h| h.max(y)));
                }
            }
            Interval::new(lo, hi)
        }
        _ => Interval::default(),
    }
}

fn add(a: &Interval, b: &Interval) -> Interval {
    let end = |x: &Option<Int>, y: &Option<Int>| match (x, y) {
        (Some(x), Some(y)) => Some(x.add(y)),
        _ => None,
    };
    Interval::new(end(&a.lo, &b.lo), end(&a.hi, &b.hi))
}

fn neg(a: &Interval) -> Interval {
    Interval::new(a.hi.as_ref().map(Int::neg), a.lo.as_ref().map(Int::neg))
}

fn scale(a: &Interval, k: &Int) -> Interval {
    let s = Interval::new(
        a.lo.as_ref().map(|v| v.mul(k)),
        a.hi.as_ref().map(|v| v.mul(k)),
    );
    if k.is_negative() {
        Interval::new(s.hi, s.lo)
    } else {
        s
    }
}

fn mul(a: &Interval, b: &Interval) -> Interval {
    let (Some(al), Some(ah), Some(bl), Some(bh)) = (&a.lo, &a.hi, &b.lo, &b.hi) else {
        return Interval::default();
    };
    let products = [al.mul(bl), al.mul(bh), ah.mul(bl), ah.mul(bh)];
    let lo = products.iter().min().cloned();
    let hi = products.iter().max().cloned();
    Interval::new(lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sum_that_cannot_wrap_is_at_least_its_last_term() {
        // s = zext32(v1) + ... + zext32(v5); s <u zext32(v5) is refuted.
        let vs: Vec<Term> = (1..=5)
            .map(|i| Term::var(format!("v{i}"), Sort::Bv(8)))
            .collect();
        let z = |v: &Term| Term::bv_resize(v, 32, false);
        let mut s = Term::bv(32, 0);
        for v in &vs {
            s = Term::bv_bin(BvOp::Add, &s, &z(v));
        }
        let path = PathCond::new();
        let fails = Term::bv_cmp(BvPred::Ult, &s, &z(&vs[4]));
        assert!(refuted_by_box(&path, &fails));
        // In 8 bits the sum wraps: not refuted.
        let mut s8 = Term::bv(8, 0);
        for v in &vs {
            s8 = Term::bv_bin(BvOp::Add, &s8, v);
        }
        assert!(!refuted_by_box(
            &path,
            &Term::bv_cmp(BvPred::Ult, &s8, &vs[4])
        ));
    }

    #[test]
    fn a_sum_of_table_reads_neither_overflows_nor_passes_its_bound() {
        // total = t(v1) + ... + t(v5) in 32 bits, each t(v) a choice among
        // the cells 1..=4 of a table (an `ite` chain): no overflow, and
        // never above 20; a wider table's choice may pass 20.
        let table = |v: &Term, cells: &[u64]| {
            cells
                .iter()
                .enumerate()
                .fold(Term::bv(32, 0), |rest, (i, c)| {
                    let at = Term::bv_eq(v, &Term::bv(8, i as u64));
                    Term::ite(&at, &Term::bv(32, *c), &rest)
                })
        };
        let vs: Vec<Term> = (1..=5)
            .map(|i| Term::var(format!("v{i}"), Sort::Bv(8)))
            .collect();
        let path = PathCond::new();
        let mut total = Term::bv(32, 0);
        for v in &vs {
            let w = table(v, &[1, 2, 3, 4]);
            let ovf = Term::signed_overflow(OvfOp::Add, &total, &w);
            assert!(refuted_by_box(&path, &ovf), "{ovf}");
            total = Term::bv_bin(BvOp::Add, &total, &w);
        }
        let above = |t: &Term, k: u64| Term::bv_cmp(BvPred::Slt, &Term::bv(32, k), t);
        assert!(refuted_by_box(&path, &above(&total, 20)));
        assert!(!refuted_by_box(&path, &above(&total, 19)));
        let big = table(&vs[0], &[1, 0x7fff_ffff]);
        let ovf = Term::signed_overflow(OvfOp::Add, &big, &Term::bv(32, 1));
        assert!(!refuted_by_box(&path, &ovf));
    }

    #[test]
    fn integer_ranges_come_from_the_box() {
        let (a, b) = (Term::int_var("a"), Term::int_var("b"));
        let mut path = PathCond::new();
        for v in [&a, &b] {
            path.add(&Term::le(&Term::int(1), v));
            path.add(&Term::le(v, &Term::int(6)));
        }
        assert!(refuted_by_box(
            &path,
            &Term::le(&Term::add(&a, &b), &Term::int(1))
        ));
        assert!(!refuted_by_box(
            &path,
            &Term::le(&Term::add(&a, &b), &Term::int(2))
        ));
        assert!(refuted_by_box(
            &path,
            &Term::eq(&Term::mul(&a, &b), &Term::int(0))
        ));
    }
}
