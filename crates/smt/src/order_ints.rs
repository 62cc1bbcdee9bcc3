//! Long chains of bit-vector comparisons decided over the integers.
//!
//! A sorting loop compares each element with the next: its paths hold
//! conditions such as `a1 <=s a0, a2 <=s a1, …, a999 <=s a998`. Bit-blasted,
//! such a chain is hard for a SAT solver, which learns transitivity clause
//! by clause, while over the integers it is a difference-logic problem for
//! the simplex. `cargo run --release -p wiser-smt --example order_chain`
//! measures both: on this project's 2-core machine Z3 4.8.12 did not decide
//! 3,000 links as bit-vectors within 10 s, and decided them in 0.7 s as
//! integers.
//!
//! [`OrderAsIntegers`] rewrites a query whose atoms are all comparisons and
//! equalities of bit-vector variables and constants, each variable read
//! one way only (signed or unsigned), into the same query over integer
//! variables bounded by the reading's range. The two are equisatisfiable:
//! a reading is a bijection between the patterns of a width and its
//! range, and it preserves each comparison and equality. A model of the
//! integers is read back as patterns (a negative value is its two's
//! complement), and checked against the original query before it is
//! returned. Anything else goes to the inner solver unchanged, as do short
//! chains, which bit-blast quickly.

use crate::model::Model;
use crate::solver::{Answer, Solver, SolverStats};
use crate::term::{Kind, Sort, Term};
use rustc_hash::FxHashMap;
use std::sync::Arc;
use wiser_num::Int;

/// Queries with fewer comparisons between two variables than this go to
/// the inner solver as they are.
pub const MIN_CHAIN: usize = 32;

/// Decides chains of bit-vector comparisons over the integers (see the
/// module documentation) and passes every other query to `inner`.
pub struct OrderAsIntegers<S> {
    inner: S,
}

impl<S: Solver> OrderAsIntegers<S> {
    /// The layer in front of `inner`.
    pub fn new(inner: S) -> Self {
        OrderAsIntegers { inner }
    }
}

impl<S: Solver> Solver for OrderAsIntegers<S> {
    fn solve(&mut self, constraints: &[Term]) -> Answer {
        let Some(order) = Order::of(constraints) else {
            return self.inner.solve(constraints);
        };
        match self.inner.solve(&order.query) {
            Answer::Sat(m) => {
                let back = order.model(&m);
                if constraints.iter().all(|c| back.holds(c)) {
                    Answer::Sat(back)
                } else {
                    // Never expected; the original query is then asked.
                    self.inner.solve(constraints)
                }
            }
            other => other,
        }
    }

    fn stats(&self, out: &mut SolverStats) {
        self.inner.stats(out);
    }

    fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.inner.set_deadline(deadline);
    }

    fn deadline(&self) -> Option<std::time::Instant> {
        self.inner.deadline()
    }
}

/// How a variable is read by the comparisons that mention it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Reading {
    Signed,
    Unsigned,
}

impl Reading {
    /// How the comparison `p` reads its operands.
    fn of(p: crate::term::BvPred) -> Reading {
        if p.is_signed() {
            Reading::Signed
        } else {
            Reading::Unsigned
        }
    }
}

/// A bit-vector variable and its integer stand-in.
struct Var {
    width: u8,
    reading: Option<Reading>,
    int: Term,
}

/// A query rewritten over the integers.
struct Order {
    query: Vec<Term>,
    /// Each bit-vector variable's name, its integer variable's, and its
    /// width.
    names: Vec<(Arc<str>, Arc<str>, u8)>,
}

impl Order {
    /// The rewriting of `constraints`, if they are a long enough chain of
    /// comparisons.
    fn of(constraints: &[Term]) -> Option<Order> {
        let mut vars: FxHashMap<Arc<str>, Var> = FxHashMap::default();
        let mut between_vars = 0usize;
        let mut todo: Vec<&Term> = constraints.iter().collect();
        while let Some(t) = todo.pop() {
            match t.kind() {
                Kind::Bool(_) => {}
                Kind::And(xs) | Kind::Or(xs) => todo.extend(xs.iter()),
                Kind::Not(x) => todo.push(x),
                Kind::BvCmp(p, a, b) => {
                    let reading = Reading::of(*p);
                    between_vars += usize::from(a.as_var().is_some() && b.as_var().is_some());
                    for x in [a, b] {
                        operand(&mut vars, x, Some(reading))?;
                    }
                }
                Kind::BvEq(a, b) => {
                    between_vars += usize::from(a.as_var().is_some() && b.as_var().is_some());
                    for x in [a, b] {
                        operand(&mut vars, x, None)?;
                    }
                }
                _ => return None,
            }
        }
        if between_vars < MIN_CHAIN {
            return None;
        }
        // An equality between variables read differently compares values
        // the integers would not.
        let mut query = constraints
            .iter()
            .map(|c| rewrite(c, &vars))
            .collect::<Option<Vec<Term>>>()?;
        let mut names = Vec::with_capacity(vars.len());
        for (name, v) in &vars {
            let (lo, hi) = range(v.width, v.reading.unwrap_or(Reading::Unsigned));
            query.push(Term::le(&Term::int(lo), &v.int));
            query.push(Term::le(&v.int, &Term::int(hi)));
            names.push((name.clone(), v.int.as_var()?.clone(), v.width));
        }
        Some(Order { query, names })
    }

    /// The bit-vector model read back from a model of the integer query:
    /// each value as its pattern (a negative one in two's complement), as
    /// every model holds bit-vectors.
    fn model(&self, m: &Model) -> Model {
        let mut back = Model::new();
        for (bv, int, w) in &self.names {
            let pattern = m.int(int).low_bits(64) & wiser_num::bv::mask(u32::from(*w));
            back.set_int(bv.clone(), Int::from_u64(pattern));
        }
        back
    }
}

/// Records `x`, a bit-vector variable or constant, read as `reading`;
/// `None` when it is neither or is read both ways.
fn operand(vars: &mut FxHashMap<Arc<str>, Var>, x: &Term, reading: Option<Reading>) -> Option<()> {
    if x.as_bv().is_some() {
        return Some(());
    }
    let Kind::Var(name, Sort::Bv(w)) = x.kind() else {
        return None;
    };
    let v = vars.entry(name.clone()).or_insert_with(|| Var {
        width: *w,
        reading: None,
        int: Term::int_var(format!("{name}@int")),
    });
    match (v.reading, reading) {
        (Some(a), Some(b)) if a != b => None,
        (None, Some(b)) => {
            v.reading = Some(b);
            Some(())
        }
        _ => Some(()),
    }
}

/// The values of a reading of width `w`.
fn range(w: u8, reading: Reading) -> (Int, Int) {
    let w = u32::from(w);
    match reading {
        Reading::Unsigned => (Int::ZERO, Int::from_u64(wiser_num::bv::mask(w))),
        Reading::Signed => {
            let half = Int::from_u64(1u64 << (w - 1));
            (half.neg(), half.sub(&Int::ONE))
        }
    }
}

/// `t` over the integer variables (every atom is a comparison or an
/// equality [`Order::of`] accepted).
fn rewrite(t: &Term, vars: &FxHashMap<Arc<str>, Var>) -> Option<Term> {
    Some(match t.kind() {
        Kind::Bool(_) => t.clone(),
        Kind::And(xs) => Term::and_all(
            xs.iter()
                .map(|x| rewrite(x, vars))
                .collect::<Option<Vec<_>>>()?,
        ),
        Kind::Or(xs) => Term::or_all(
            xs.iter()
                .map(|x| rewrite(x, vars))
                .collect::<Option<Vec<_>>>()?,
        ),
        Kind::Not(x) => Term::not(&rewrite(x, vars)?),
        Kind::BvCmp(p, a, b) => {
            let reading = Reading::of(*p);
            let (a, b) = (value(a, reading, vars)?, value(b, reading, vars)?);
            if p.is_strict() {
                Term::lt(&a, &b)
            } else {
                Term::le(&a, &b)
            }
        }
        Kind::BvEq(a, b) => {
            // Both sides under one reading: a variable's own, else the
            // other side's.
            let of = |x: &Term| {
                x.as_var()
                    .and_then(|n| vars.get(n))
                    .map(|v| v.reading.unwrap_or(Reading::Unsigned))
            };
            let reading = match (of(a), of(b)) {
                (Some(r), Some(s)) if r != s => return None,
                (Some(r), _) | (None, Some(r)) => r,
                (None, None) => Reading::Unsigned,
            };
            Term::eq(&value(a, reading, vars)?, &value(b, reading, vars)?)
        }
        _ => return None,
    })
}

/// The integer for an operand under `reading`: a constant's value, or the
/// variable's stand-in.
fn value(x: &Term, reading: Reading, vars: &FxHashMap<Arc<str>, Var>) -> Option<Term> {
    if let Some((w, bits)) = x.as_bv() {
        let w32 = u32::from(w);
        let v = match reading {
            Reading::Unsigned => Int::from_u64(bits),
            Reading::Signed => Int::from(wiser_num::bv::to_signed(w32, bits)),
        };
        return Some(Term::int(v));
    }
    Some(vars.get(x.as_var()?)?.int.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::BvPred;

    struct Recorder {
        asked: Vec<Vec<Term>>,
    }

    impl Solver for Recorder {
        fn solve(&mut self, constraints: &[Term]) -> Answer {
            self.asked.push(constraints.to_vec());
            let mut z3 = crate::Z3Solver::new(None);
            z3.solve(constraints)
        }
        fn stats(&self, _: &mut SolverStats) {}
    }

    fn chain(n: usize, pred: BvPred) -> Vec<Term> {
        let v = |i: usize| Term::var(format!("a{i}"), Sort::Bv(32));
        (1..n)
            .map(|i| Term::bv_cmp(pred, &v(i), &v(i - 1)))
            .collect()
    }

    #[test]
    fn a_long_signed_chain_is_decided_over_the_integers() {
        let mut query = chain(1000, BvPred::Sle);
        // The last element below the first, the first at most the second:
        // satisfiable with the first two equal.
        let v = |i: usize| Term::var(format!("a{i}"), Sort::Bv(32));
        query.push(Term::bv_cmp(BvPred::Sle, &v(0), &v(1)));
        query.push(Term::bv_cmp(BvPred::Slt, &v(999), &v(0)));
        query.push(Term::bv_cmp(BvPred::Slt, &v(500), &Term::bv(32, 0)));
        let mut s = OrderAsIntegers::new(Recorder { asked: Vec::new() });
        let Answer::Sat(m) = s.solve(&query) else {
            panic!("satisfiable")
        };
        assert!(query.iter().all(|c| m.holds(c)));
        assert!(s.inner.asked[0]
            .iter()
            .all(|t| t.vars().iter().all(|v| v.sort() == Sort::Int)));
        // A cycle with a strict link is unsatisfiable.
        let mut cycle = chain(100, BvPred::Ule);
        cycle.push(Term::bv_cmp(BvPred::Ult, &v(0), &v(99)));
        assert_eq!(s.solve(&cycle), Answer::Unsat);
    }

    #[test]
    fn short_or_mixed_queries_go_to_the_inner_solver_unchanged() {
        let v = |i: usize| Term::var(format!("a{i}"), Sort::Bv(32));
        let mut s = OrderAsIntegers::new(Recorder { asked: Vec::new() });
        let short = chain(10, BvPred::Slt);
        let _ = s.solve(&short);
        assert_eq!(s.inner.asked.last().unwrap(), &short);
        // a0 read both signed and unsigned.
        let mut mixed = chain(100, BvPred::Slt);
        mixed.push(Term::bv_cmp(BvPred::Ult, &v(0), &Term::bv(32, 5)));
        let _ = s.solve(&mixed);
        assert_eq!(s.inner.asked.last().unwrap(), &mixed);
        // An unsigned wrap: a0 <u a1 with a1 = 0 has no solution, and the
        // ranges say so.
        let mut unsigned = chain(100, BvPred::Ule);
        unsigned.push(Term::bv_eq(&v(0), &Term::bv(32, 0)));
        unsigned.push(Term::bv_cmp(BvPred::Ult, &v(50), &v(99)));
        assert_eq!(s.solve(&unsigned), Answer::Unsat);
        // Signed: a value below zero is allowed, read back as its pattern.
        let mut signed = chain(100, BvPred::Sle);
        signed.push(Term::bv_eq(&v(0), &Term::bv(32, 0)));
        signed.push(Term::bv_cmp(BvPred::Slt, &v(99), &v(50)));
        let Answer::Sat(m) = s.solve(&signed) else {
            panic!("satisfiable")
        };
        assert!(signed.iter().all(|c| m.holds(c)));
        // Read back as an unsigned pattern, as every model holds them.
        let pattern = m.int("a99");
        assert!(pattern >= Int::from_u64(1 << 31) && pattern <= Int::from_u64(u32::MAX.into()));
    }
}
