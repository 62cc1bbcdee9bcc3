//! Conditions that are bounds: comparisons of one variable with a
//! constant, read as the exact set of values they allow.
//!
//! Integer variables: the normalised `±x + c <= 0`, `±x + c == 0` and its
//! negation. Bit-vector variables (their values are unsigned patterns):
//! unsigned and signed comparisons and (dis)equalities of the variable, or
//! of its zero or sign extension, with a constant. A signed bound on a
//! pattern is two intervals of patterns, which is why sets are unions.

use super::set::{Interval, ValueSet};
use wiser_num::{bv, Int};
use wiser_smt::{BvPred, Kind, Sort, Term};

/// If `c` is a bound, the variable and the exact set of its values that
/// satisfy `c`.
pub fn as_bound(c: &Term) -> Option<(Term, ValueSet)> {
    match c.kind() {
        Kind::Le(_) | Kind::Eq(_) => int_bound(c),
        Kind::BvCmp(..) | Kind::BvEq(..) => bv_bound(c),
        Kind::Not(inner) => {
            let (x, set) = match inner.kind() {
                Kind::Eq(_) => int_bound(inner)?,
                Kind::BvEq(..) => bv_bound(inner)?,
                _ => return None,
            };
            let complement = set.complement().meet(&universe(&x));
            Some((x, complement))
        }
        _ => None,
    }
}

/// The values a variable of `x`'s sort can take at all.
pub fn universe(x: &Term) -> ValueSet {
    match x.sort() {
        Sort::Bv(w) => ValueSet::interval(Interval::range(
            Int::ZERO,
            Int::from_u64(bv::mask(u32::from(w))),
        )),
        _ => ValueSet::all(),
    }
}

fn int_bound(c: &Term) -> Option<(Term, ValueSet)> {
    let (lin, is_eq) = match c.kind() {
        Kind::Le(l) => (l, false),
        Kind::Eq(l) => (l, true),
        _ => return None,
    };
    // After normalisation a one-variable comparison has coefficient ±1.
    let (x, k, c0) = match lin.kind() {
        Kind::Var(_, Sort::Int) => (lin.clone(), Int::ONE, Int::ZERO),
        Kind::Linear(ms, c0) if ms.len() == 1 => {
            let (x, k) = &ms[0];
            if !matches!(x.kind(), Kind::Var(_, Sort::Int)) || k.abs() != Int::ONE {
                return None;
            }
            (x.clone(), k.clone(), c0.clone())
        }
        _ => return None,
    };
    let bound = c0.neg().mul(&k); // k·x + c0 ⋈ 0 with k = ±1 gives x ⋈' -c0·k
    let set = if is_eq {
        ValueSet::point(bound)
    } else if k == Int::ONE {
        ValueSet::interval(Interval::new(None, Some(bound)))
    } else {
        ValueSet::interval(Interval::new(Some(bound), None))
    };
    Some((x, set))
}

/// How a comparison reads a bit-vector operand.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reading {
    Unsigned,
    Signed,
}

fn bv_bound(c: &Term) -> Option<(Term, ValueSet)> {
    let (operand, w, values, reading) = match c.kind() {
        Kind::BvEq(a, b) => {
            let (operand, k) = operand_and_constant(a, b)?;
            let w = width(operand)?;
            (
                operand,
                w,
                ValueSet::point(Int::from_u64(k)),
                Reading::Unsigned,
            )
        }
        Kind::BvCmp(pred, a, b) => {
            let (operand, k, constant_left) = match (constant(a), constant(b)) {
                (None, Some(k)) => (a, k, false),
                (Some(k), None) => (b, k, true),
                _ => return None,
            };
            let w = width(operand)?;
            let signed = matches!(pred, BvPred::Slt | BvPred::Sle);
            let strict = matches!(pred, BvPred::Ult | BvPred::Slt);
            let (min, max, k) = if signed {
                let half = Int::from_u64(1u64 << (w - 1));
                (
                    half.neg(),
                    half.sub(&Int::ONE),
                    Int::from(bv::to_signed(w, k)),
                )
            } else {
                (Int::ZERO, Int::from_u64(bv::mask(w)), Int::from_u64(k))
            };
            let one = if strict { Int::ONE } else { Int::ZERO };
            // operand < k: [min, k-1]; k < operand: [k+1, max] (and the
            // non-strict forms without the ±1).
            let interval = if constant_left {
                Interval::range(k.add(&one), max)
            } else {
                Interval::range(min, k.sub(&one))
            };
            let reading = if signed {
                Reading::Signed
            } else {
                Reading::Unsigned
            };
            (operand, w, ValueSet::interval(interval), reading)
        }
        _ => return None,
    };
    to_patterns(operand, w, &values, reading)
}

/// The operand that is not a constant, and the constant, of an equality.
fn operand_and_constant<'t>(a: &'t Term, b: &'t Term) -> Option<(&'t Term, u64)> {
    match (constant(a), constant(b)) {
        (None, Some(k)) => Some((a, k)),
        (Some(k), None) => Some((b, k)),
        _ => None,
    }
}

fn constant(t: &Term) -> Option<u64> {
    match t.kind() {
        Kind::Bv { bits, .. } => Some(*bits),
        _ => None,
    }
}

fn width(t: &Term) -> Option<u32> {
    match t.sort() {
        Sort::Bv(w) => Some(u32::from(w)),
        _ => None,
    }
}

/// Maps a set of values of an operand (read unsigned or signed, `w` bits)
/// to the set of patterns of the variable it is made of: the variable
/// itself, or its zero or sign extension.
fn to_patterns(
    operand: &Term,
    w: u32,
    values: &ValueSet,
    reading: Reading,
) -> Option<(Term, ValueSet)> {
    let (x, ext) = match operand.kind() {
        Kind::Var(_, Sort::Bv(_)) => (operand.clone(), None),
        Kind::Extend { signed, t, .. } if matches!(t.kind(), Kind::Var(_, Sort::Bv(_))) => {
            (t.clone(), Some(*signed))
        }
        _ => return None,
    };
    let wx = width(&x)?;
    let full = |w: u32| Int::from_u64(bv::mask(w));
    let two_to = |w: u32| Int::from_u64(bv::mask(w)).add(&Int::ONE);
    let shift = |s: &ValueSet, by: &Int| {
        ValueSet::from_parts(s.parts().iter().map(|p| {
            Interval::new(
                p.lo.as_ref().map(|v| v.add(by)),
                p.hi.as_ref().map(|v| v.add(by)),
            )
        }))
    };
    let clip =
        |s: &ValueSet, lo: Int, hi: Int| s.meet(&ValueSet::interval(Interval::range(lo, hi)));
    let patterns = match (ext, reading) {
        // The variable read unsigned: values are patterns.
        (None, Reading::Unsigned) => clip(values, Int::ZERO, full(w)),
        // Read signed: negative values are the upper half of the patterns.
        (None, Reading::Signed) | (Some(true), Reading::Signed) => {
            let half = Int::from_u64(1u64 << (wx - 1));
            let neg = clip(values, half.neg(), Int::from(-1));
            let pos = clip(values, Int::ZERO, half.sub(&Int::ONE));
            let mut parts = shift(&neg, &two_to(wx)).parts().to_vec();
            parts.extend(pos.parts().iter().cloned());
            ValueSet::from_parts(parts)
        }
        // A zero extension is non-negative either way: values are patterns.
        (Some(false), _) => clip(values, Int::ZERO, full(wx)),
        // A sign extension read unsigned: patterns of non-negative values
        // are themselves, negative ones sit at the top of the wider range.
        (Some(true), Reading::Unsigned) => {
            let half = Int::from_u64(1u64 << (wx - 1));
            let low = clip(values, Int::ZERO, half.sub(&Int::ONE));
            let top_start = two_to(w).sub(&half);
            let high = clip(values, top_start.clone(), full(w));
            let back = two_to(wx).sub(&two_to(w));
            let mut parts = low.parts().to_vec();
            parts.extend(shift(&high, &back).parts().iter().cloned());
            ValueSet::from_parts(parts)
        }
    };
    Some((x, patterns))
}

/// The conjunction of terms saying `x ∈ set` (nothing when the set is the
/// whole universe of `x`).
pub fn set_terms(x: &Term, set: &ValueSet) -> Vec<Term> {
    if *set == universe(x) {
        return Vec::new();
    }
    let parts: Vec<Term> = set.parts().iter().map(|p| part_term(x, p)).collect();
    if parts.len() == 1 {
        return match parts[0].kind() {
            Kind::And(xs) => xs.to_vec(),
            _ => parts,
        };
    }
    vec![Term::or_all(parts)]
}

fn part_term(x: &Term, p: &Interval) -> Term {
    match x.sort() {
        Sort::Bv(w) => {
            let (min, max) = (Int::ZERO, Int::from_u64(bv::mask(u32::from(w))));
            let c = |v: &Int| Term::bv(w, v.low_bits(u32::from(w)));
            match (&p.lo, &p.hi) {
                (Some(lo), Some(hi)) if lo == hi => Term::bv_eq(x, &c(lo)),
                (lo, hi) => {
                    let mut parts = Vec::new();
                    if let Some(lo) = lo.as_ref().filter(|l| **l > min) {
                        parts.push(Term::bv_cmp(BvPred::Ule, &c(lo), x));
                    }
                    if let Some(hi) = hi.as_ref().filter(|h| **h < max) {
                        parts.push(Term::bv_cmp(BvPred::Ule, x, &c(hi)));
                    }
                    Term::and_all(parts)
                }
            }
        }
        _ => match (&p.lo, &p.hi) {
            (Some(lo), Some(hi)) if lo == hi => Term::eq(x, &Term::int(lo.clone())),
            (lo, hi) => Term::and_all(
                lo.iter()
                    .map(|lo| Term::le(&Term::int(lo.clone()), x))
                    .chain(hi.iter().map(|hi| Term::le(x, &Term::int(hi.clone())))),
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_bounds() {
        let n = Term::int_var("n");
        let (x, s) = as_bound(&Term::lt(&Term::int(5), &n)).unwrap();
        assert_eq!(x, n);
        assert_eq!(s, ValueSet::interval(Interval::new(Some(6.into()), None)));
        let (_, s) = as_bound(&Term::ne(&n, &Term::int(4))).unwrap();
        assert_eq!(s, ValueSet::all_but(&Int::from(4)));
        assert!(as_bound(&Term::lt(&n, &Term::int_var("m"))).is_none());
    }

    #[test]
    fn bit_vector_bounds() {
        let x = Term::var("x", Sort::Bv(8));
        // x <s 0 reads the upper half of the patterns.
        let (_, s) = as_bound(&Term::bv_cmp(BvPred::Slt, &x, &Term::bv(8, 0))).unwrap();
        assert_eq!(
            s,
            ValueSet::interval(Interval::range(128.into(), 255.into()))
        );
        // x <s 5: patterns 0..=4 and 128..=255.
        let (_, s) = as_bound(&Term::bv_cmp(BvPred::Slt, &x, &Term::bv(8, 5))).unwrap();
        assert_eq!(s.parts().len(), 2);
        assert_eq!(s.size(), Some(Int::from(133)));
        // 3 <u zext32(x): 4..=255.
        let z = Term::bv_resize(&x, 32, false);
        let (v, s) = as_bound(&Term::bv_cmp(BvPred::Ult, &Term::bv(32, 3), &z)).unwrap();
        assert_eq!(v, x);
        assert_eq!(s, ValueSet::interval(Interval::range(4.into(), 255.into())));
        // sext32(x) <u 10 holds for patterns 0..=9 only.
        let e = Term::bv_resize(&x, 32, true);
        let (_, s) = as_bound(&Term::bv_cmp(BvPred::Ult, &e, &Term::bv(32, 10))).unwrap();
        assert_eq!(s, ValueSet::interval(Interval::range(0.into(), 9.into())));
        // sext32(x) >u 0xFFFF_FFF0: x in -15..=-1, patterns 241..=255.
        let (_, s) = as_bound(&Term::bv_cmp(BvPred::Ult, &Term::bv(32, 0xFFFF_FFF0), &e)).unwrap();
        assert_eq!(
            s,
            ValueSet::interval(Interval::range(241.into(), 255.into()))
        );
        // x != 0 over patterns.
        let (_, s) = as_bound(&Term::not(&Term::bv_eq(&x, &Term::bv(8, 0)))).unwrap();
        assert_eq!(s, ValueSet::interval(Interval::range(1.into(), 255.into())));
    }
}
