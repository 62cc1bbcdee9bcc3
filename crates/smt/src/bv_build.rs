//! Bit-vector term constructors. Like the integer ones in
//! [`crate::build`], each folds constants and normalises, but only with
//! rewrites that hold modulo 2^w: nothing here is linear arithmetic, and
//! no comparison is moved across an addition (which may wrap).
//!
//! Every constant is folded through [`wiser_num::bv`] (through
//! [`BvOp::apply`], [`BvPred::apply`], [`OvfOp::overflows`]), the one
//! definition of each operator that the interpreter and the model
//! evaluator share.

use crate::term::{BvOp, BvPred, Kind, OvfOp, Sort, Term};
use wiser_num::{bv, Int};

/// `p + b <u b` is false and `b <=u p + b` true when the addition cannot
/// carry, which the operands' shapes alone can show (a running sum of
/// zero-extended bytes, as in seed 004's second bounded-model-checking
/// example, where no other layer sees it and the solver struggles).
/// `None` when the rule does not apply.
fn sum_against_summand(pred: BvPred, a: &Term, b: &Term, w: u32) -> Option<bool> {
    let (sum, summand, holds) = match pred {
        BvPred::Ult => (a, b, false),
        BvPred::Ule => (b, a, true),
        _ => return None,
    };
    let Kind::BvBin(BvOp::Add, p, q) = sum.kind() else {
        return None;
    };
    let other = if p == summand {
        q
    } else if q == summand {
        p
    } else {
        return None;
    };
    let room = u128::from(bv::mask(w));
    (unsigned_max(other, room) + unsigned_max(summand, room) <= room).then_some(holds)
}

/// An upper bound on the unsigned value of `t` from its shape (sums,
/// zero extensions, constants), at most `room` (all ones): a sum of
/// leaves whose bounds add up to no more than `room` cannot wrap, so its
/// value is at most that total. Iterative, with a budget of nodes.
fn unsigned_max(t: &Term, room: u128) -> u128 {
    let mut total: u128 = 0;
    let mut todo = vec![t];
    let mut budget = 4096u32;
    while let Some(x) = todo.pop() {
        budget = budget.saturating_sub(1);
        if budget == 0 {
            return room;
        }
        total += match x.kind() {
            Kind::BvBin(BvOp::Add, p, q) => {
                todo.push(p);
                todo.push(q);
                0
            }
            Kind::Bv { bits, .. } => u128::from(*bits),
            Kind::Extend {
                signed: false, t, ..
            } => u128::from(bv::mask(width_of(t))),
            _ => return room,
        };
        if total > room {
            return room;
        }
    }
    total
}

/// The width of a bit-vector term (panics on other sorts: a sort error is
/// a bug in the caller).
fn width_of(t: &Term) -> u32 {
    match t.sort() {
        Sort::Bv(w) => u32::from(w),
        s => panic!("sort error: {t} has sort {s:?}, not a bit-vector"),
    }
}

/// The common width of two operands.
fn same_width(a: &Term, b: &Term) -> u32 {
    let w = width_of(a);
    assert_eq!(w, width_of(b), "sort error: {a} and {b} differ in width");
    w
}

fn check_width(width: u8) -> u32 {
    assert!((1..=64).contains(&width), "bit-vector width {width}");
    u32::from(width)
}

/// The pattern of the signed minimum of width `w`.
fn smin(w: u32) -> u64 {
    1u64 << (w - 1)
}

/// The pattern of the signed maximum of width `w`.
fn smax(w: u32) -> u64 {
    bv::mask(w) >> 1
}

/// The constant of width `w` (which was checked when the operands were).
fn constant(w: u32, bits: u64) -> Term {
    Term::bv(w as u8, bits)
}

/// The comparison that, with its operands swapped, is the negation of
/// `p`: `not (a < b)` is `b <= a`.
pub(crate) fn negate(p: BvPred) -> BvPred {
    match p {
        BvPred::Ult => BvPred::Ule,
        BvPred::Ule => BvPred::Ult,
        BvPred::Slt => BvPred::Sle,
        BvPred::Sle => BvPred::Slt,
    }
}

/// Commutative operands in canonical order: a constant on the right,
/// otherwise by the term order.
fn ordered<'a>(a: &'a Term, b: &'a Term) -> (&'a Term, &'a Term) {
    if a.is_const() || (!b.is_const() && b < a) {
        (b, a)
    } else {
        (a, b)
    }
}

impl Term {
    /// The bit-vector constant of width `width` (1 to 64) with the low
    /// `width` bits of `bits`.
    pub fn bv(width: u8, bits: u64) -> Term {
        let w = check_width(width);
        Term::new(Kind::Bv {
            width,
            bits: bits & bv::mask(w),
        })
    }

    /// `a op b` on bit-vectors of one width.
    pub fn bv_bin(op: BvOp, a: &Term, b: &Term) -> Term {
        let w = same_width(a, b);
        if let (Some((_, x)), Some((_, y))) = (a.as_bv(), b.as_bv()) {
            return constant(w, op.apply(w, x, y));
        }
        let (a, b) = if op.is_commutative() {
            ordered(a, b)
        } else {
            (a, b)
        };
        simplify_bin(op, w, a, b)
            .unwrap_or_else(|| Term::new(Kind::BvBin(op, a.clone(), b.clone())))
    }

    /// `-a` (two's complement, wrapping).
    pub fn bv_neg(a: &Term) -> Term {
        let w = width_of(a);
        match a.kind() {
            Kind::Bv { bits, .. } => constant(w, bv::neg(w, *bits)),
            Kind::BvNeg(x) => x.clone(),
            _ => Term::new(Kind::BvNeg(a.clone())),
        }
    }

    /// `~a` (bitwise complement).
    pub fn bv_not(a: &Term) -> Term {
        let w = width_of(a);
        match a.kind() {
            Kind::Bv { bits, .. } => constant(w, bv::not(w, *bits)),
            Kind::BvNot(x) => x.clone(),
            _ => Term::new(Kind::BvNot(a.clone())),
        }
    }

    /// The comparison `a pred b` of bit-vectors of one width. A strict
    /// comparison with a constant becomes a non-strict one (`x <u 5` is
    /// `x <=u 4`), and comparisons with the extremes of the order become
    /// constants or equalities.
    pub fn bv_cmp(pred: BvPred, a: &Term, b: &Term) -> Term {
        let w = same_width(a, b);
        let (x, y) = (a.as_bv().map(|c| c.1), b.as_bv().map(|c| c.1));
        if let (Some(x), Some(y)) = (x, y) {
            return Term::bool(pred.apply(w, x, y));
        }
        if a == b {
            return Term::bool(!pred.is_strict());
        }
        let (min, max) = if pred.is_signed() {
            (smin(w), smax(w))
        } else {
            (0, bv::mask(w))
        };
        let non_strict = match pred {
            BvPred::Ult | BvPred::Ule => BvPred::Ule,
            BvPred::Slt | BvPred::Sle => BvPred::Sle,
        };
        if let Some(holds) = sum_against_summand(pred, a, b, w) {
            return Term::bool(holds);
        }
        if pred.is_strict() {
            // Nothing is below the minimum or above the maximum; below
            // anything else means at most its predecessor.
            return match (x, y) {
                (_, Some(c)) if c == min => Term::bool(false),
                (Some(c), _) if c == max => Term::bool(false),
                (_, Some(c)) => Term::bv_cmp(non_strict, a, &constant(w, bv::sub(w, c, 1))),
                (Some(c), _) => Term::bv_cmp(non_strict, &constant(w, bv::add(w, c, 1)), b),
                _ => Term::new(Kind::BvCmp(pred, a.clone(), b.clone())),
            };
        }
        match (x, y) {
            (Some(c), _) if c == min => Term::bool(true),
            (_, Some(c)) if c == max => Term::bool(true),
            (_, Some(c)) if c == min => Term::bv_eq(a, b),
            (Some(c), _) if c == max => Term::bv_eq(a, b),
            // Above the minimum is not the minimum (`1 <=u x` is `x != 0`),
            // and likewise below the maximum.
            (Some(c), _) if c == min.wrapping_add(1) => {
                Term::not(&Term::bv_eq(b, &constant(w, min)))
            }
            (_, Some(c)) if c == max.wrapping_sub(1) => {
                Term::not(&Term::bv_eq(a, &constant(w, max)))
            }
            _ => Term::new(Kind::BvCmp(pred, a.clone(), b.clone())),
        }
    }

    /// `a == b` on bit-vectors of one width. An equation between an
    /// invertible operation on `x` and a constant is solved for `x`
    /// (`x + 3 == 5` is `x == 2`), and an extension is compared with a
    /// constant only if the constant is in its range.
    pub fn bv_eq(a: &Term, b: &Term) -> Term {
        let w = same_width(a, b);
        if let (Some((_, x)), Some((_, y))) = (a.as_bv(), b.as_bv()) {
            return Term::bool(x == y);
        }
        if a == b {
            return Term::bool(true);
        }
        let (a, b) = ordered(a, b);
        let Some((_, c)) = b.as_bv() else {
            return Term::new(Kind::BvEq(a.clone(), b.clone()));
        };
        if let Kind::BvBin(op @ (BvOp::Add | BvOp::Xor), x, t) = a.kind() {
            if let Some((_, k)) = t.as_bv() {
                let c = if *op == BvOp::Add {
                    bv::sub(w, c, k)
                } else {
                    bv::xor(c, k)
                };
                return Term::bv_eq(x, &constant(w, c));
            }
        }
        match a.kind() {
            Kind::BvNeg(x) => Term::bv_eq(x, &constant(w, bv::neg(w, c))),
            Kind::BvNot(x) => Term::bv_eq(x, &constant(w, bv::not(w, c))),
            Kind::Extend { signed, t: x, .. } => {
                let wx = width_of(x);
                let low = bv::zext(w, wx, c);
                let back = if *signed {
                    bv::sext(wx, w, low)
                } else {
                    bv::zext(wx, w, low)
                };
                if back == c {
                    Term::bv_eq(x, &constant(wx, low))
                } else {
                    Term::bool(false)
                }
            }
            Kind::Ite(cond, t, e) if t.is_const() && e.is_const() => {
                Term::ite(cond, &Term::bool(t == b), &Term::bool(e == b))
            }
            _ => Term::new(Kind::BvEq(a.clone(), b.clone())),
        }
    }

    /// `t` at width `width` (1 to 64): zero- or sign-extended (by
    /// `signed`) when wider, its low bits when narrower, `t` itself when
    /// the same.
    pub fn bv_resize(t: &Term, width: u8, signed: bool) -> Term {
        let to = check_width(width);
        let from = width_of(t);
        if to == from {
            t.clone()
        } else if to > from {
            extend(t, from, width, signed)
        } else {
            extract(t, from, width)
        }
    }

    /// The value of the pattern `t` as an integer, read as two's
    /// complement when `signed`.
    pub fn bv_to_int(t: &Term, signed: bool) -> Term {
        let w = width_of(t);
        match t.kind() {
            Kind::Bv { bits, .. } if signed => Term::int(bv::to_signed(w, *bits)),
            Kind::Bv { bits, .. } => Term::int(Int::from_u64(*bits)),
            // A zero extension is non-negative: read either way it is the
            // unsigned value of what it extends; a sign extension read as
            // signed is the signed value of what it extends.
            Kind::Extend {
                signed: false,
                t: x,
                ..
            } => Term::bv_to_int(x, false),
            Kind::Extend {
                signed: true, t: x, ..
            } if signed => Term::bv_to_int(x, true),
            _ => Term::new(Kind::BvToInt {
                signed,
                t: t.clone(),
            }),
        }
    }

    /// The integer `t` modulo 2^`width`, as a pattern.
    pub fn int_to_bv(t: &Term, width: u8) -> Term {
        let w = check_width(width);
        assert_eq!(t.sort(), Sort::Int, "sort error: {t} is not an integer");
        match t.kind() {
            Kind::Int(n) => constant(w, n.low_bits(w)),
            // The value of a pattern modulo 2^width is its truncation, or
            // its extension (zero or sign, as it was read).
            Kind::BvToInt { signed, t: x } => Term::bv_resize(x, width, *signed),
            _ => Term::new(Kind::IntToBv {
                width,
                t: t.clone(),
            }),
        }
    }

    /// Does the signed `a op b` overflow the operands' width?
    pub fn signed_overflow(op: OvfOp, a: &Term, b: &Term) -> Term {
        let w = same_width(a, b);
        if let (Some((_, x)), Some((_, y))) = (a.as_bv(), b.as_bv()) {
            return Term::bool(op.overflows(w, x, y));
        }
        let (a, b) = match op {
            OvfOp::Add | OvfOp::Mul => ordered(a, b),
            OvfOp::Sub => (a, b),
        };
        let c = b.as_bv().map(|c| c.1);
        match op {
            OvfOp::Add | OvfOp::Sub if c == Some(0) => Term::bool(false),
            OvfOp::Sub if a == b => Term::bool(false),
            // 0 - x overflows exactly when -x does.
            OvfOp::Sub if a.as_bv().map(|c| c.1) == Some(0) => Term::neg_overflows(b),
            OvfOp::Mul if c == Some(0) || c == Some(1) => Term::bool(false),
            OvfOp::Mul if c == Some(bv::mask(w)) => Term::neg_overflows(a),
            _ => Term::new(Kind::SOvf(op, a.clone(), b.clone())),
        }
    }

    /// Does the signed `-a` overflow (is `a` the minimum)?
    pub fn neg_overflows(a: &Term) -> Term {
        let w = width_of(a);
        match a.as_bv() {
            Some((_, x)) => Term::bool(bv::sneg_overflows(w, x)),
            None => Term::bv_eq(a, &constant(w, smin(w))),
        }
    }

    /// Does the signed `a / b` (or `a % b`) overflow (is `a` the minimum
    /// and `b` minus one)?
    pub fn sdiv_overflows(a: &Term, b: &Term) -> Term {
        let w = same_width(a, b);
        if let (Some((_, x)), Some((_, y))) = (a.as_bv(), b.as_bv()) {
            return Term::bool(bv::sdiv_overflows(w, x, y));
        }
        Term::and(
            &Term::bv_eq(a, &constant(w, smin(w))),
            &Term::bv_eq(b, &constant(w, bv::mask(w))),
        )
    }

    /// C's rule for the signed `a << b` (meant for `0 <= b < width`): is
    /// `a` negative, or does `a · 2^b` not fit? Built as `a <s 0 or
    /// (a << b) >>s b != a`: shifting back loses exactly the bits that did
    /// not fit, and sign-extends a result that reached the sign bit.
    pub fn shl_overflows(a: &Term, b: &Term) -> Term {
        let w = same_width(a, b);
        if let (Some((_, x)), Some((_, y))) = (a.as_bv(), b.as_bv()) {
            return Term::bool(bv::sshl_overflows(w, x, y));
        }
        let back = Term::bv_bin(BvOp::Ashr, &Term::bv_bin(BvOp::Shl, a, b), b);
        Term::or(
            &Term::bv_cmp(BvPred::Slt, a, &constant(w, 0)),
            &Term::not(&Term::bv_eq(&back, a)),
        )
    }
}

/// The identities of `a op b` (not both constant; commutative operands
/// already ordered), or `None` when none applies.
/// A term as a multiple of another: `x * c` is `(x, c)`, `-x` is
/// `(x, 2^w - 1)`, anything else is itself once.
fn scaled(t: &Term) -> (&Term, u64) {
    match t.kind() {
        Kind::BvNeg(x) => (x, bv::mask(width_of(t))),
        Kind::BvBin(BvOp::Mul, x, c) => match c.as_bv() {
            Some((_, c)) => (x, c),
            None => (t, 1),
        },
        _ => (t, 1),
    }
}

fn simplify_bin(op: BvOp, w: u32, a: &Term, b: &Term) -> Option<Term> {
    let ones = bv::mask(w);
    let ca = a.as_bv().map(|c| c.1);
    let cb = b.as_bv().map(|c| c.1);
    let zero = || constant(w, 0);
    Some(match op {
        BvOp::Add => match (cb, a.kind()) {
            (Some(0), _) => a.clone(),
            // (x + c1) + c2  =  x + (c1 + c2)
            (Some(c2), Kind::BvBin(BvOp::Add, x, c1)) if c1.is_const() => {
                let c1 = c1.as_bv()?.1;
                Term::bv_bin(BvOp::Add, x, &constant(w, bv::add(w, c1, c2)))
            }
            // c1*x + c2*x  =  (c1 + c2)*x, an identity of arithmetic
            // modulo 2^w: `i += k` in a loop stays one term, n*k, instead
            // of a chain as long as the loop has run.
            (None, _) => {
                let (x, c1) = scaled(a);
                let (y, c2) = scaled(b);
                if x != y {
                    return None;
                }
                Term::bv_bin(BvOp::Mul, x, &constant(w, bv::add(w, c1, c2)))
            }
            _ => return None,
        },
        BvOp::Sub => match (ca, cb) {
            _ if a == b => zero(),
            // x - c  =  x + (-c): one form for offsets.
            (_, Some(c)) => Term::bv_bin(BvOp::Add, a, &constant(w, bv::neg(w, c))),
            (Some(0), _) => Term::bv_neg(b),
            _ => return None,
        },
        BvOp::Mul => match cb {
            Some(0) => zero(),
            Some(1) => a.clone(),
            Some(c) if c == ones => Term::bv_neg(a),
            _ => return None,
        },
        BvOp::Udiv => match cb {
            Some(1) => a.clone(),
            // SMT-LIB: bvudiv by zero is all ones, whatever the dividend.
            Some(0) => constant(w, bv::udiv(w, 0, 0)),
            _ => return None,
        },
        BvOp::Urem => match cb {
            Some(1) => zero(),
            // SMT-LIB: bvurem by zero is the dividend.
            Some(0) => a.clone(),
            _ => return None,
        },
        BvOp::Sdiv => match cb {
            Some(1) => a.clone(),
            // MIN / -1 wraps to MIN, which is -MIN too.
            Some(c) if c == ones => Term::bv_neg(a),
            _ => return None,
        },
        BvOp::Srem => match cb {
            Some(c) if c == 1 || c == ones => zero(),
            // SMT-LIB: bvsrem by zero is the dividend.
            Some(0) => a.clone(),
            _ => return None,
        },
        BvOp::And => match cb {
            Some(0) => zero(),
            Some(c) if c == ones => a.clone(),
            _ if a == b => a.clone(),
            _ => return None,
        },
        BvOp::Or => match cb {
            Some(0) => a.clone(),
            Some(c) if c == ones => b.clone(),
            _ if a == b => a.clone(),
            _ => return None,
        },
        BvOp::Xor => match cb {
            Some(0) => a.clone(),
            Some(c) if c == ones => Term::bv_not(a),
            _ if a == b => zero(),
            _ => return None,
        },
        BvOp::Shl | BvOp::Lshr => match (ca, cb) {
            (_, Some(0)) => a.clone(),
            (_, Some(c)) if c >= u64::from(w) => zero(),
            (Some(0), _) => zero(),
            _ => return None,
        },
        BvOp::Ashr => match (ca, cb) {
            (_, Some(0)) => a.clone(),
            // Every shift by w - 1 or more leaves only sign bits.
            (_, Some(c)) if c > u64::from(w - 1) => {
                Term::bv_bin(BvOp::Ashr, a, &constant(w, u64::from(w - 1)))
            }
            (Some(0), _) => zero(),
            (Some(c), _) if c == ones => a.clone(),
            _ => return None,
        },
    })
}

/// Zero or sign extension of `t` (of width `from`) to the greater `to`.
fn extend(t: &Term, from: u32, to: u8, signed: bool) -> Term {
    let w = u32::from(to);
    if let Some((_, x)) = t.as_bv() {
        let bits = if signed {
            bv::sext(from, w, x)
        } else {
            bv::zext(from, w, x)
        };
        return constant(w, bits);
    }
    match t.kind() {
        // Extensions of one kind compose; a sign extension of a zero
        // extension (to a greater width: its sign bit is 0) is a zero
        // extension.
        Kind::Extend {
            signed: inner,
            t: x,
            ..
        } if *inner == signed || !*inner => extend(x, width_of(x), to, *inner),
        _ => Term::new(Kind::Extend {
            signed,
            width: to,
            t: t.clone(),
        }),
    }
}

/// The low `to` bits of `t` (of the greater width `from`).
fn extract(t: &Term, from: u32, to: u8) -> Term {
    let w = u32::from(to);
    if let Some((_, x)) = t.as_bv() {
        return constant(w, bv::zext(from, w, x));
    }
    match t.kind() {
        // The low bits of an extension are those of what it extends, or an
        // extension of it to fewer bits.
        Kind::Extend { signed, t: x, .. } => Term::bv_resize(x, to, *signed),
        Kind::Extract { t: x, .. } => extract(x, width_of(x), to),
        _ => Term::new(Kind::Extract {
            width: to,
            t: t.clone(),
        }),
    }
}

// The unit tests of every fold and rewrite, in a file of their own.
#[cfg(test)]
#[path = "bv_build_tests.rs"]
mod tests;
