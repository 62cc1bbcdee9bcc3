//! Delta debugging over the generator's tree: remove procedures and
//! statements, narrow input domains, drop declarations (a variable becomes
//! an `int`) and wrapping, replace compound statements by their parts,
//! conditions by constants or their operands, expressions by constants,
//! their operands or what they cast, as long as a predicate holds (say,
//! "the disagreement persists").
//!
//! The specification's `assume`s and the initialisation of arrays that
//! are still used are never removed, so enumeration stays exhaustive for
//! every candidate. A candidate may be ill-typed (a literal no longer
//! fits, a bitwise operator on an `int`), read an input the specification
//! does not bound, or run forever: the predicate must reject those (the
//! comparison reports them as invalid).

use crate::program::{prune, Bound, Co, Ex, Program, St};
use std::time::{Duration, Instant};

/// Walks a program in a fixed order and applies the `target`-th possible
/// one-step simplification.
struct Mutator {
    target: usize,
    count: usize,
    applied: bool,
}

impl Mutator {
    /// Is the next possible simplification the chosen one?
    fn hit(&mut self) -> bool {
        if self.applied {
            return false;
        }
        let h = self.count == self.target;
        self.count += 1;
        if h {
            self.applied = true;
        }
        h
    }

    /// The operand that replaces its parent node, if the chosen
    /// simplification is one of these (one possibility per operand).
    fn hoist<T: Clone>(&mut self, operands: &[&T]) -> Option<T> {
        operands.iter().find(|_| self.hit()).map(|o| (*o).clone())
    }

    fn block(&mut self, b: &mut Vec<St>) {
        let mut i = 0;
        while i < b.len() {
            if self.applied {
                return;
            }
            if self.hit() {
                b.remove(i);
                return;
            }
            let replacement: Option<Vec<St>> = match &b[i] {
                St::If(_, then, other) => {
                    if self.hit() {
                        Some(then.clone())
                    } else if self.hit() {
                        Some(other.clone())
                    } else {
                        None
                    }
                }
                St::Loop { body, .. } => {
                    if self.hit() {
                        Some(body.clone())
                    } else {
                        None
                    }
                }
                St::Call(Some(t), ..) => {
                    if self.hit() {
                        Some(vec![St::Assign(t.clone(), Ex::Num(0))])
                    } else {
                        None
                    }
                }
                _ => None,
            };
            if let Some(r) = replacement {
                b.splice(i..=i, r);
                return;
            }
            self.stmt(&mut b[i]);
            i += 1;
        }
    }

    fn stmt(&mut self, s: &mut St) {
        match s {
            St::Assign(_, e) | St::Return(e) => self.expr(e),
            St::Havoc(_) | St::Fail => {}
            St::Store(_, i, e) => {
                self.expr(i);
                self.expr(e);
            }
            St::If(c, a, b) => {
                self.cond(c);
                self.block(a);
                self.block(b);
            }
            St::Loop {
                bound, cond, body, ..
            } => {
                if !matches!(bound, Bound::Const(0 | 1)) && self.hit() {
                    *bound = Bound::Const(1);
                    return;
                }
                if cond.is_some() && self.hit() {
                    *cond = None;
                    return;
                }
                if let Some(c) = cond {
                    self.cond(c);
                }
                self.block(body);
            }
            St::Assert(c) | St::Assume(c) => self.cond(c),
            St::Call(_, _, args) => {
                for a in args {
                    self.expr(a);
                }
            }
        }
    }

    fn cond(&mut self, c: &mut Co) {
        if !matches!(c, Co::Bool(true)) && self.hit() {
            *c = Co::Bool(true);
            return;
        }
        if !matches!(c, Co::Bool(false)) && self.hit() {
            *c = Co::Bool(false);
            return;
        }
        match c {
            Co::Bool(_) => {}
            Co::Cmp(_, a, b) => {
                self.expr(a);
                self.expr(b);
            }
            Co::Not(a) => {
                if let Some(x) = self.hoist(&[&**a]) {
                    *c = x;
                    return;
                }
                self.cond(a);
            }
            Co::And(a, b) | Co::Or(a, b) => {
                if let Some(x) = self.hoist(&[&**a, &**b]) {
                    *c = x;
                    return;
                }
                self.cond(a);
                self.cond(b);
            }
        }
    }

    fn expr(&mut self, e: &mut Ex) {
        if !matches!(e, Ex::Num(0)) && self.hit() {
            *e = Ex::Num(0);
            return;
        }
        if !matches!(e, Ex::Num(_)) && self.hit() {
            *e = Ex::Num(1);
            return;
        }
        match e {
            Ex::Num(v) => {
                // Smaller constants: halve toward zero.
                if v.abs() > 1 && self.hit() {
                    *v /= 2;
                }
            }
            Ex::Var(_) => {}
            Ex::Elem(_, i) => self.expr(i),
            Ex::Un(_, a) | Ex::Cast(_, a) => {
                if let Some(x) = self.hoist(&[&**a]) {
                    *e = x;
                    return;
                }
                self.expr(a);
            }
            Ex::Bin(_, a, b) => {
                if let Some(x) = self.hoist(&[&**a, &**b]) {
                    *e = x;
                    return;
                }
                self.expr(a);
                self.expr(b);
            }
        }
    }

    fn program(&mut self, p: &mut Program) {
        // Whole procedures first (a candidate that still calls one is
        // invalid and skipped).
        for k in 0..p.procs.len() {
            if self.hit() {
                p.procs.remove(k);
                return;
            }
        }
        // Narrower input domains make every later candidate cheaper: drop
        // an interval, or keep half of one.
        for k in 0..p.spec.inputs.len() {
            let d = p.spec.inputs[k].1.clone();
            for (j, &(lo, hi)) in d.intervals().iter().enumerate() {
                if d.intervals().len() > 1 && self.hit() {
                    p.spec.inputs[k].1 = d.without(j);
                    return;
                }
                if hi - lo >= 3 {
                    let mid = lo + (hi - lo) / 2;
                    if self.hit() {
                        p.spec.inputs[k].1 = d.with_interval(j, lo, mid);
                        return;
                    }
                    if self.hit() {
                        p.spec.inputs[k].1 = d.with_interval(j, mid + 1, hi);
                        return;
                    }
                }
            }
        }
        if p.spec.wrap_signed && self.hit() {
            p.spec.wrap_signed = false;
            return;
        }
        for k in 0..p.types.len() {
            if self.hit() {
                p.types.remove(k);
                return;
            }
        }
        self.block(&mut p.main);
        for f in &mut p.procs {
            self.block(&mut f.body);
        }
    }
}

/// The `k`-th one-step simplification of `p`, if there are that many.
pub fn mutate(p: &Program, k: usize) -> Option<Program> {
    let mut q = p.clone();
    let mut m = Mutator {
        target: k,
        count: 0,
        applied: false,
    };
    m.program(&mut q);
    if !m.applied {
        return None;
    }
    prune(&mut q);
    Some(q)
}

/// Shrinks `p` while `still_fails` holds, greedily, for at most `budget`
/// of wall time. Returns the smallest program found and the number of
/// candidates tried.
pub fn shrink(
    p: &Program,
    budget: Duration,
    still_fails: impl FnMut(&Program) -> bool,
) -> (Program, usize) {
    greedy(p, budget, mutate, still_fails)
}

/// Greedy shrinking, for any program type: tries `mutate(cur, 0)`,
/// `mutate(cur, 1)`, ... and moves to each candidate for which `keep`
/// holds (the next one tried has the same index in it), until a whole
/// pass keeps none or `budget` of wall time is spent. Returns the smallest
/// program found and the number of candidates tried.
pub fn greedy<P: Clone>(
    p: &P,
    budget: Duration,
    mutate: impl Fn(&P, usize) -> Option<P>,
    mut keep: impl FnMut(&P) -> bool,
) -> (P, usize) {
    let start = Instant::now();
    let mut cur = p.clone();
    let mut tried = 0;
    loop {
        let mut changed = false;
        let mut k = 0;
        while let Some(cand) = mutate(&cur, k) {
            if start.elapsed() > budget {
                return (cur, tried);
            }
            tried += 1;
            if keep(&cand) {
                cur = cand;
                changed = true;
            } else {
                k += 1;
            }
        }
        if !changed {
            return (cur, tried);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{compile, enumerate, generate, Budget, GenConfig};
    use wiser_semantics::concrete::Outcome;

    /// Shrinking a typed program that has a reachable error keeps one,
    /// and makes it smaller.
    #[test]
    fn shrinks_typed_programs() {
        let cfg = GenConfig::small().only(true);
        let budget = Budget {
            max_runs: 20_000,
            max_steps: 100_000,
        };
        let fails = |p: &Program| {
            let Ok(ir) = compile(&p.source(), &p.spec) else {
                return false;
            };
            let mut failing = false;
            let done = enumerate(&ir, &p.spec, budget, |_, run| {
                failing |= matches!(run.outcome, Outcome::Error { .. });
            });
            done.is_ok() && failing
        };
        let p = (0..40)
            .map(|i| generate(3, i, &cfg))
            .find(|p| fails(p))
            .expect("some typed program has a bug");
        let (small, tried) = shrink(&p, Duration::from_secs(20), fails);
        assert!(fails(&small) && tried > 0);
        assert!(
            small.source().len() < p.source().len(),
            "{}",
            small.source()
        );
    }
}
