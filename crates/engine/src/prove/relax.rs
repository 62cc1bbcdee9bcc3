//! Machine integers as unbounded integers, for finding invariants.
//!
//! Spacer finds invariants over linear integer arithmetic far more
//! readily than over bit-vectors. A Horn problem over bit-vectors is
//! therefore also translated to one over integers — each bit-vector
//! variable by its two's-complement value; `+ - *` as
//! the integer operations (exact wherever the path's overflow checks
//! exclude wrapping, which they do for C's signed arithmetic), signed
//! comparisons as integer ones, unsigned ones and zero extension with the
//! sign's offset made explicit — and the invariants Spacer finds there are
//! translated back to bit-vector formulas over the original variables
//! (each integer variable as its sign-extension to 64 bits, the
//! arithmetic at 64 bits).
//!
//! Neither translation needs to be exact for the answer to be sound: the
//! invariants are checked on the original, bit-precise clauses, and only
//! pass if they are invariants of the program as C runs it. An operator
//! without a counterpart here (bitwise operations, truncation, floats)
//! leaves the problem to the bit-vector encoding.

use rustc_hash::FxHashMap;
use wiser_num::Int;
use wiser_smt::{
    Application, BvOp, BvPred, Clause, HornProblem, Kind, Relation, Scalar, Sort, Term,
};

/// The integer relaxation of `p`, if every operator of it has one.
pub(super) fn relax(p: &HornProblem) -> Option<HornProblem> {
    let mut r = Relaxer::default();
    let relations = p
        .relations
        .iter()
        .map(|rel| {
            Some(Relation {
                name: rel.name.clone(),
                params: rel
                    .params
                    .iter()
                    .map(|v| r.term(v))
                    .collect::<Option<_>>()?,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    let mut clauses = Vec::with_capacity(p.clauses.len());
    for c in &p.clauses {
        let app = |r: &mut Relaxer, a: &Application| {
            Some(Application {
                relation: a.relation,
                args: a.args.iter().map(|t| r.term(t)).collect::<Option<_>>()?,
            })
        };
        let body = c
            .body
            .iter()
            .map(|b| app(&mut r, b))
            .collect::<Option<Vec<_>>>()?;
        let head = match &c.head {
            Some(h) => Some(app(&mut r, h)?),
            None => None,
        };
        // No range constraints: they are what a machine integer is, not
        // what an invariant needs (the check at machine integers sees
        // them), and their constants of 2^31 sent Spacer counting.
        let constraint = r.term(&c.constraint)?;
        clauses.push(Clause {
            body,
            constraint,
            head,
        });
    }
    Some(HornProblem { relations, clauses })
}

/// A solution of the relaxation of `p` as bit-vector formulas over `p`'s
/// parameters (`None` where a formula has no translation).
pub(super) fn restore(
    p: &HornProblem,
    relaxed: &HornProblem,
    solution: &[Term],
) -> Option<Vec<Term>> {
    let mut back = FxHashMap::default();
    for (orig, rel) in p.relations.iter().zip(&relaxed.relations) {
        for (o, i) in orig.params.iter().zip(&rel.params) {
            back.insert(i.clone(), o.clone());
        }
    }
    solution.iter().map(|f| widen(f, &back)).collect()
}

/// `a - b` as an integer, if it is a constant once both are read as
/// unbounded integers (`(s + 2) - s` is 2; wrapping aside, which the
/// invariants' check sees).
pub(super) fn difference(a: &Term, b: &Term) -> Option<i64> {
    let mut r = Relaxer::default();
    let (a, b) = (r.term(a)?, r.term(b)?);
    if a.sort() != Sort::Int || b.sort() != Sort::Int {
        return None;
    }
    let d = Term::sub(&a, &b);
    d.as_int()?.to_i64()
}

/// Bit-vector operands are read as signed values.
#[derive(Default)]
struct Relaxer {
    memo: FxHashMap<Term, Term>,
}

impl Relaxer {
    fn term(&mut self, t: &Term) -> Option<Term> {
        if let Some(done) = self.memo.get(t) {
            return Some(done.clone());
        }
        let mut kids = Vec::new();
        for c in t.children() {
            kids.push(self.term(c)?);
        }
        let out = relax_one(t, &kids)?;
        self.memo.insert(t.clone(), out.clone());
        Some(out)
    }
}

fn int_sort(s: Scalar) -> Scalar {
    match s {
        Scalar::Bv(_) => Scalar::Int,
        other => other,
    }
}

/// `x` (the signed value of a `w`-bit pattern) read as unsigned.
fn unsigned(x: &Term, w: u32) -> Term {
    let neg = Term::lt(x, &Term::int(0));
    let half = Term::int(Int::from_u64(1u64 << (w - 1)));
    Term::ite(&neg, &Term::add(&Term::add(x, &half), &half), x)
}

fn relax_one(t: &Term, k: &[Term]) -> Option<Term> {
    let width = |x: &Term| x.sort().width();
    Some(match t.kind() {
        Kind::Var(name, sort) => match sort {
            Sort::Bv(_) => Term::int_var(name.clone()),
            Sort::Array(i, e) => Term::var(name.clone(), Sort::Array(int_sort(*i), int_sort(*e))),
            _ => t.clone(),
        },
        Kind::Bv { width, bits } => Term::int(Int::from(wiser_num::bv::to_signed(
            u32::from(*width),
            *bits,
        ))),
        Kind::Int(_) | Kind::Bool(_) => t.clone(),
        Kind::BvBin(op, a, _) => {
            let w = width(a)?;
            let (x, y) = (&k[0], &k[1]);
            match op {
                BvOp::Add => Term::add(x, y),
                BvOp::Sub => Term::sub(x, y),
                BvOp::Mul => Term::mul(x, y),
                BvOp::Sdiv => Term::div(x, y),
                BvOp::Srem => Term::rem(x, y),
                BvOp::Udiv => Term::div(&unsigned(x, w), &unsigned(y, w)),
                BvOp::Urem => Term::rem(&unsigned(x, w), &unsigned(y, w)),
                _ => return None,
            }
        }
        Kind::BvNeg(_) => Term::neg(&k[0]),
        Kind::BvCmp(p, a, _) => {
            let w = width(a)?;
            let (x, y) = match p {
                BvPred::Slt | BvPred::Sle => (k[0].clone(), k[1].clone()),
                BvPred::Ult | BvPred::Ule => (unsigned(&k[0], w), unsigned(&k[1], w)),
            };
            if p.is_strict() {
                Term::lt(&x, &y)
            } else {
                Term::le(&x, &y)
            }
        }
        Kind::BvEq(..) => Term::eq(&k[0], &k[1]),
        Kind::Extend {
            signed, t: inner, ..
        } => {
            if *signed {
                k[0].clone()
            } else {
                unsigned(&k[0], width(inner)?)
            }
        }
        Kind::SOvf(op, a, _) => {
            let w = width(a)?;
            let exact = match op {
                wiser_smt::OvfOp::Add => Term::add(&k[0], &k[1]),
                wiser_smt::OvfOp::Sub => Term::sub(&k[0], &k[1]),
                wiser_smt::OvfOp::Mul => Term::mul(&k[0], &k[1]),
            };
            let half = Int::from_u64(1u64 << (w - 1));
            Term::or(
                &Term::lt(&exact, &Term::int(half.clone().neg())),
                &Term::le(&Term::int(half), &exact),
            )
        }
        // Integer and boolean structure: the same node over the
        // translated children.
        Kind::Linear(..)
        | Kind::Mul(..)
        | Kind::Div(..)
        | Kind::Rem(..)
        | Kind::Le(_)
        | Kind::Eq(_)
        | Kind::Not(_)
        | Kind::And(_)
        | Kind::Or(_)
        | Kind::Ite(..)
        | Kind::Select(..)
        | Kind::Store(..) => t.with_children(k),
        Kind::ConstArray(Sort::Array(i, e), _) => {
            Term::const_array(Sort::Array(int_sort(*i), int_sort(*e)), &k[0])
        }
        _ => return None,
    })
}

/// The width at which invariants over integers are evaluated.
const WIDE: u8 = 64;

/// An integer formula over relaxed variables as a bit-vector formula over
/// the originals (`back`), integers at [`WIDE`] bits.
fn widen(f: &Term, back: &FxHashMap<Term, Term>) -> Option<Term> {
    let mut memo: FxHashMap<Term, Term> = FxHashMap::default();
    widen_rec(f, back, &mut memo)
}

fn widen_rec(
    t: &Term,
    back: &FxHashMap<Term, Term>,
    memo: &mut FxHashMap<Term, Term>,
) -> Option<Term> {
    if let Some(d) = memo.get(t) {
        return Some(d.clone());
    }
    let mut k = Vec::new();
    for c in t.children() {
        k.push(widen_rec(c, back, memo)?);
    }
    let wide = |n: &Int| -> Option<Term> {
        let v = n.to_i64()?;
        Some(Term::bv(WIDE, v as u64))
    };
    let add = |a: &Term, b: &Term| Term::bv_bin(BvOp::Add, a, b);
    let zero = Term::bv(WIDE, 0);
    let out = match t.kind() {
        Kind::Var(..) => {
            let orig = back.get(t)?;
            match orig.sort() {
                Sort::Bv(_) => Term::bv_resize(orig, WIDE, true),
                Sort::Int | Sort::Bool => orig.clone(),
                Sort::Array(..) => return None,
            }
        }
        Kind::Int(n) => wide(n)?,
        Kind::Bool(_) => t.clone(),
        Kind::Linear(ms, c) => {
            let mut sum = wide(c)?;
            for ((_, n), x) in ms.iter().zip(&k) {
                sum = add(&sum, &Term::bv_bin(BvOp::Mul, x, &wide(n)?));
            }
            sum
        }
        Kind::Mul(..) => Term::bv_bin(BvOp::Mul, &k[0], &k[1]),
        Kind::Div(..) => Term::bv_bin(BvOp::Sdiv, &k[0], &k[1]),
        Kind::Rem(..) => Term::bv_bin(BvOp::Srem, &k[0], &k[1]),
        Kind::Le(_) => Term::bv_cmp(BvPred::Sle, &k[0], &zero),
        Kind::Eq(_) => Term::bv_eq(&k[0], &zero),
        Kind::Not(_) => Term::not(&k[0]),
        Kind::And(_) => Term::and_all(k.iter().cloned()),
        Kind::Or(_) => Term::or_all(k.iter().cloned()),
        Kind::Ite(..) => Term::ite(&k[0], &k[1], &k[2]),
        _ => return None,
    };
    memo.insert(t.clone(), out.clone());
    Some(out)
}
