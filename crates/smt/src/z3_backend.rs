//! The one module that talks to Z3. Terms are translated bottom-up with an
//! explicit stack (deep terms cannot overflow) and a cache, so a constraint
//! shared by many queries is translated once per solver.
//!
//! Solving is incremental: the constraints of the previous query stay
//! asserted (one push level each), and a new query pops only down to the
//! longest common prefix. Consecutive queries from one region of the search
//! share long prefixes of their path conditions, so most of the work is
//! kept. A check that gives up in incremental mode is retried once on a
//! fresh solver (Z3 preprocesses one-shot queries more aggressively).

use crate::model::Model;
use crate::solver::{Answer, Solver, SolverStats};
use crate::term::{Kind, Sort, Term};
use crate::watchdog::Watchdog;
use rustc_hash::FxHashMap;
use std::time::{Duration, Instant};
use wiser_num::Int;
use z3::ast::{Array, Bool, Dynamic, Int as ZInt};

/// Translation caches are dropped past this many entries to bound memory.
const MAX_CACHE: usize = 1 << 20;

/// A Z3 solver in the calling thread's Z3 context. Not `Send`: each worker
/// thread makes its own.
pub struct Z3Solver {
    /// Enforces time limits (see `watchdog.rs`); declared first so that it
    /// is dropped before the solver and its context.
    watchdog: Option<Watchdog>,
    /// Made on the first query: creating a Z3 context costs milliseconds,
    /// and many runs never need one.
    solver: Option<z3::Solver>,
    timeout: Option<Duration>,
    deadline: Option<Instant>,
    cache: FxHashMap<Term, Dynamic>,
    /// The constraints asserted on `solver`, one push level each.
    asserted: Vec<Term>,
    stats: SolverStats,
}

impl Z3Solver {
    /// A solver; `timeout` bounds each query (Z3 then answers unknown).
    pub fn new(timeout: Option<Duration>) -> Z3Solver {
        Z3Solver {
            watchdog: None,
            solver: None,
            timeout,
            deadline: None,
            cache: FxHashMap::default(),
            asserted: Vec::new(),
            stats: SolverStats::default(),
        }
    }

    /// When the next check must stop: after the configured timeout, and
    /// not after the run's deadline.
    fn check_deadline(&self) -> Option<Instant> {
        let own = self.timeout.map(|t| Instant::now() + t);
        match (own, self.deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Has the run's deadline passed?
    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    fn solver(&mut self) -> &z3::Solver {
        if self.solver.is_none() {
            let solver = z3::Solver::new();
            let context = z3::Context::thread_local().get_z3_context();
            self.watchdog = Some(Watchdog::new(context));
            self.solver = Some(solver);
        }
        self.solver.as_ref().expect("just made")
    }

    /// Runs `check` under the watchdog with this query's deadline.
    fn guarded<T>(&self, check: impl FnOnce() -> T) -> T {
        match &self.watchdog {
            Some(w) => w.guard(self.check_deadline(), check),
            None => check(),
        }
    }

    fn sync(&mut self, constraints: &[Term]) {
        let keep = self
            .asserted
            .iter()
            .zip(constraints)
            .take_while(|(a, b)| a == b)
            .count();
        let drop = self.asserted.len() - keep;
        if drop > 0 {
            self.solver().pop(drop as u32);
            self.asserted.truncate(keep);
        }
        for c in &constraints[keep..] {
            let b = self
                .translate(c)
                .as_bool()
                .expect("constraints are boolean");
            let solver = self.solver();
            solver.push();
            solver.assert(&b);
            self.asserted.push(c.clone());
        }
    }

    /// Checks `constraints` on a fresh solver.
    fn one_shot(
        &mut self,
        constraints: &[Term],
    ) -> (z3::SatResult, Option<z3::Model>, Option<String>) {
        let fresh = z3::Solver::new();
        for c in constraints {
            let b = self
                .translate(c)
                .as_bool()
                .expect("constraints are boolean");
            fresh.assert(&b);
        }
        let r = self.guarded(|| fresh.check());
        (r, fresh.get_model(), fresh.get_reason_unknown())
    }

    fn translate(&mut self, root: &Term) -> Dynamic {
        if let Some(d) = self.cache.get(root) {
            return d.clone();
        }
        if self.cache.len() > MAX_CACHE {
            self.cache.clear();
        }
        let mut stack: Vec<(Term, bool)> = vec![(root.clone(), false)];
        while let Some((t, expanded)) = stack.pop() {
            if self.cache.contains_key(&t) {
                continue;
            }
            if !expanded {
                stack.push((t.clone(), true));
                for c in t.children() {
                    if !self.cache.contains_key(c) {
                        stack.push((c.clone(), false));
                    }
                }
                continue;
            }
            let d = self.node(&t);
            self.cache.insert(t, d);
        }
        self.cache[root].clone()
    }

    fn int_of(&self, t: &Term) -> ZInt {
        self.cache[t].as_int().expect("integer-sorted term")
    }

    fn bool_of(&self, t: &Term) -> Bool {
        self.cache[t].as_bool().expect("boolean-sorted term")
    }

    fn array_of(&self, t: &Term) -> Array {
        self.cache[t].as_array().expect("array-sorted term")
    }

    fn node(&self, t: &Term) -> Dynamic {
        match t.kind() {
            Kind::Int(n) => Dynamic::from_ast(&z3_int(n)),
            Kind::Bool(b) => Dynamic::from_ast(&Bool::from_bool(*b)),
            Kind::Var(name, Sort::Int) => Dynamic::from_ast(&ZInt::new_const(&**name)),
            Kind::Var(name, Sort::Bool) => Dynamic::from_ast(&Bool::new_const(&**name)),
            Kind::Var(name, Sort::Array) => Dynamic::from_ast(&Array::new_const(
                &**name,
                &z3::Sort::int(),
                &z3::Sort::int(),
            )),
            Kind::Linear(ms, c) => {
                let mut parts = vec![z3_int(c)];
                for (x, k) in ms.iter() {
                    let x = self.int_of(x);
                    parts.push(if *k == Int::ONE {
                        x
                    } else {
                        ZInt::mul(&[z3_int(k), x])
                    });
                }
                Dynamic::from_ast(&ZInt::add(&parts))
            }
            Kind::Mul(a, b) => Dynamic::from_ast(&ZInt::mul(&[self.int_of(a), self.int_of(b)])),
            Kind::Div(a, b) => Dynamic::from_ast(&c_div(&self.int_of(a), &self.int_of(b))),
            Kind::Rem(a, b) => {
                let (a, b) = (self.int_of(a), self.int_of(b));
                let q = c_div(&a, &b);
                let r = ZInt::sub(&[a, ZInt::mul(&[b.clone(), q])]);
                Dynamic::from_ast(&b.eq(ZInt::from_i64(0)).ite(&ZInt::from_i64(0), &r))
            }
            Kind::Ite(c, a, b) => {
                Dynamic::from_ast(&self.bool_of(c).ite(&self.int_of(a), &self.int_of(b)))
            }
            Kind::Select(a, i) => self.array_of(a).select(&self.int_of(i)),
            Kind::Store(a, i, v) => {
                Dynamic::from_ast(&self.array_of(a).store(&self.int_of(i), &self.int_of(v)))
            }
            Kind::Le(x) => Dynamic::from_ast(&self.int_of(x).le(ZInt::from_i64(0))),
            Kind::Eq(x) => Dynamic::from_ast(&self.int_of(x).eq(ZInt::from_i64(0))),
            Kind::Not(x) => Dynamic::from_ast(&self.bool_of(x).not()),
            Kind::And(xs) => {
                let xs: Vec<Bool> = xs.iter().map(|x| self.bool_of(x)).collect();
                Dynamic::from_ast(&Bool::and(&xs))
            }
            Kind::Or(xs) => {
                let xs: Vec<Bool> = xs.iter().map(|x| self.bool_of(x)).collect();
                Dynamic::from_ast(&Bool::or(&xs))
            }
        }
    }

    /// Reads back, from Z3's model, the value of every variable in
    /// `constraints`, and for each array the elements at the indices the
    /// constraints read (other elements are unconstrained: 0 will do).
    fn extract(&mut self, z3m: &z3::Model, constraints: &[Term]) -> Option<Model> {
        let mut model = Model::new();
        let mut seen = rustc_hash::FxHashSet::default();
        let mut stack: Vec<&Term> = constraints.iter().collect();
        while let Some(t) = stack.pop() {
            if !seen.insert(t.addr()) {
                continue;
            }
            match t.kind() {
                Kind::Var(name, Sort::Int) => {
                    let v = z3m.eval(&ZInt::new_const(&**name), true)?;
                    model.set_int(name.clone(), from_z3_int(&v)?);
                }
                Kind::Select(a, i) => {
                    let mut base = a;
                    while let Kind::Store(inner, ..) = base.kind() {
                        base = inner;
                    }
                    if let Kind::Var(name, Sort::Array) = base.kind() {
                        let zi = self.translate(i).as_int()?;
                        let index = from_z3_int(&z3m.eval(&zi, true)?)?;
                        let arr = Array::new_const(&**name, &z3::Sort::int(), &z3::Sort::int());
                        let elem = arr.select(&z3_int(&index)).as_int()?;
                        let value = from_z3_int(&z3m.eval(&elem, true)?)?;
                        let mut entry = model.array(name).cloned().unwrap_or_default();
                        entry.entries.insert_mut(index, value);
                        model.set_array(name.clone(), entry);
                    }
                }
                _ => {}
            }
            stack.extend(t.children());
        }
        Some(model)
    }
}

impl Solver for Z3Solver {
    fn solve(&mut self, constraints: &[Term]) -> Answer {
        let start = Instant::now();
        self.stats.z3_queries += 1;
        self.sync(constraints);
        self.solver();
        let solver = self.solver.as_ref().expect("made by sync");
        let verdict = self.guarded(|| solver.check());
        let mut result = (verdict, solver.get_model(), solver.get_reason_unknown());
        if result.0 == z3::SatResult::Unknown && !self.out_of_time() {
            self.stats.one_shot_retries += 1;
            result = self.one_shot(constraints);
        }
        let answer = match result {
            (z3::SatResult::Unsat, ..) => Answer::Unsat,
            (z3::SatResult::Unknown, _, reason) => {
                Answer::Unknown(reason.unwrap_or_else(|| "unknown".to_string()))
            }
            (z3::SatResult::Sat, None, _) => Answer::Unknown("Z3 gave no model".into()),
            (z3::SatResult::Sat, Some(m), _) => match self.extract(&m, constraints) {
                // Our own evaluator must agree that the model satisfies
                // every constraint: this guards the translation.
                Some(model) if constraints.iter().all(|c| model.holds(c)) => Answer::Sat(model),
                Some(_) => Answer::Unknown("model does not satisfy the constraints".into()),
                None => Answer::Unknown("could not read Z3's model".into()),
            },
        };
        match answer {
            Answer::Sat(_) => self.stats.z3_sat += 1,
            Answer::Unsat => self.stats.z3_unsat += 1,
            Answer::Unknown(_) => self.stats.z3_unknown += 1,
        }
        self.stats.z3_time += start.elapsed();
        answer
    }

    fn stats(&self, out: &mut SolverStats) {
        out.add(&self.stats);
    }

    fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }
}

fn z3_int(n: &Int) -> ZInt {
    match n.to_i64() {
        Some(v) => ZInt::from_i64(v),
        None => n.to_string().parse().expect("a decimal numeral"),
    }
}

fn from_z3_int(v: &ZInt) -> Option<Int> {
    if let Some(x) = v.as_i64() {
        return Some(Int::from(x));
    }
    // Large values print as `123` or `(- 123)`.
    let s = v.to_string();
    let s = s.trim();
    match s.strip_prefix("(-").and_then(|r| r.strip_suffix(')')) {
        Some(digits) => digits.trim().parse::<Int>().ok().map(|n| n.neg()),
        None => s.parse().ok(),
    }
}

/// C division, total at 0, in terms of SMT-LIB's Euclidean `div`:
/// for a ≥ 0 the quotient of |a| and |b| is exact truncation, and the sign
/// is that of a·b.
fn c_div(a: &ZInt, b: &ZInt) -> ZInt {
    let zero = ZInt::from_i64(0);
    let neg_a = a.unary_minus();
    let neg_b = b.unary_minus();
    let a_nonneg = a.ge(&zero);
    let b_pos = b.gt(&zero);
    let q = a_nonneg.ite(
        &b_pos.ite(&a.div(b), &a.div(&neg_b).unary_minus()),
        &b_pos.ite(&neg_a.div(b).unary_minus(), &neg_a.div(&neg_b)),
    );
    b.eq(&zero).ite(&zero, &q)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(n: i64) -> Term {
        Term::int(n)
    }

    #[test]
    fn sat_unsat_and_models() {
        let mut s = Z3Solver::new(None);
        let x = Term::int_var("x");
        let y = Term::int_var("y");
        let c = [
            Term::eq(&Term::mul(&x, &y), &int(91)),
            Term::lt(&int(1), &x),
            Term::lt(&int(1), &y),
        ];
        match s.solve(&c) {
            Answer::Sat(m) => {
                let p = m.int("x").mul(&m.int("y"));
                assert_eq!(p, Int::from(91));
            }
            other => panic!("expected sat, got {other:?}"),
        }
        assert_eq!(
            s.solve(&[Term::lt(&x, &int(0)), Term::lt(&int(0), &x)]),
            Answer::Unsat
        );
    }

    #[test]
    fn division_is_c_division() {
        // For every a, b in a small box, x = a / b and r = a % b must have
        // exactly the value the concrete semantics gives.
        let mut s = Z3Solver::new(None);
        let (x, y) = (Term::int_var("x"), Term::int_var("y"));
        for a in -7..=7i64 {
            for b in -3..=3i64 {
                let q = Int::from(a).div_trunc(&Int::from(b));
                let r = Int::from(a).rem_trunc(&Int::from(b));
                let fix = [Term::eq(&x, &int(a)), Term::eq(&y, &int(b))];
                let wrong_q = Term::ne(&Term::div(&x, &y), &Term::int(q));
                let wrong_r = Term::ne(&Term::rem(&x, &y), &Term::int(r));
                let mut c = fix.to_vec();
                c.push(Term::or(&wrong_q, &wrong_r));
                assert_eq!(s.solve(&c), Answer::Unsat, "{a} / {b}");
            }
        }
    }

    #[test]
    fn big_numbers_round_trip() {
        let mut s = Z3Solver::new(None);
        let x = Term::int_var("x");
        let big: Int = "-123456789012345678901234567890".parse().unwrap();
        match s.solve(&[Term::eq(&x, &Term::int(big.clone()))]) {
            Answer::Sat(m) => assert_eq!(m.int("x"), big),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn array_models_cover_read_indices() {
        let mut s = Z3Solver::new(None);
        let a = Term::array_var("a");
        let i = Term::int_var("i");
        let c = [
            Term::lt(&Term::int(10), &Term::select(&a, &i)),
            Term::eq(&Term::select(&a, &Term::add(&i, &int(1))), &int(-4)),
        ];
        match s.solve(&c) {
            Answer::Sat(m) => assert!(c.iter().all(|t| m.holds(t))),
            other => panic!("{other:?}"),
        }
    }
}
