//! Small, canonical witnesses.
//!
//! A solver's model of a path condition is arbitrary (`a[0] = 7719,
//! a[1] = 7718`) and depends on the solver's history (its caches, its
//! incremental state, which worker asked). [`minimise`] turns a model of
//! a path condition into the *canonical* one: for each input in a fixed
//! order (the program's inputs, then its reads, then the cells of its
//! arrays), the value nearest 0 that the path condition allows together
//! with the values already chosen, the non-negative one on a tie; every
//! input that does not occur is 0, and every array cell that the path
//! condition does not read is 0.
//!
//! Only the solver's *answers* (sat or unsat) decide the result, never
//! its models: the model at hand merely answers some questions without a
//! query. So the same path condition gives the same witness whatever
//! solver, worker or history found it, as long as no query answers
//! unknown: a query cut by the time budget ends the minimisation, and
//! the witness is then the last model found (still a model of the path
//! condition, smaller than the first one, but no longer canonical).
//!
//! Per value: one query for 0, then an exponential search for a bound
//! on `|x|` and a bisection below it (`2·log2 |x|` queries at most), then
//! at most one for the sign; at most [`MAX_QUERIES_PER_VALUE`] queries
//! per value and [`TIME_BUDGET`] per witness.

use crate::path::{as_bound, universe};
use rustc_hash::{FxHashMap, FxHashSet};
use std::time::{Duration, Instant};
use wiser_num::{Int, IntTy};
use wiser_smt::{Answer, ArrayValue, BvPred, Kind, Model, Scalar, Solver, Sort, Term};

/// At most this many solver queries for one value.
pub const MAX_QUERIES_PER_VALUE: u32 = 140;

/// At most this much time for one witness.
pub const TIME_BUDGET: Duration = Duration::from_millis(500);

/// What the minimiser needs to know about the inputs: their order, and
/// which fixed-width ones are unsigned (their values near 0 are the
/// small patterns, not the small two's complement numbers).
pub struct Inputs<'a> {
    /// Input names (scalars and arrays) in the order to minimise them;
    /// variables not listed come after, by name.
    pub order: &'a [String],
    /// Is the fixed-width scalar (or array element) of this name unsigned?
    pub unsigned: &'a dyn Fn(&str) -> bool,
}

/// One value to minimise: a scalar variable or an array cell.
struct Cell {
    term: Term,
    scalar: Scalar,
    unsigned: bool,
}

impl Cell {
    /// Its value under `m`, as a number (two's complement read as signed
    /// unless the cell is unsigned).
    fn value(&self, m: &Model) -> Int {
        let v = m.eval(&self.term);
        let n = match v {
            wiser_smt::Value::Int(n) => n,
            wiser_smt::Value::Bool(b) => Int::from(i64::from(b)),
            wiser_smt::Value::Array(_) => Int::ZERO,
        };
        match self.scalar {
            Scalar::Bv(w) => IntTy::fixed(u32::from(w), !self.unsigned)
                .map_or(n.clone(), |t| t.from_bits(n.low_bits(u32::from(w)))),
            _ => n,
        }
    }

    fn constant(&self, v: &Int) -> Term {
        match self.scalar {
            Scalar::Int => Term::int(v.clone()),
            Scalar::Bool => Term::bool(!v.is_zero()),
            Scalar::Bv(w) => Term::bv(w, v.low_bits(u32::from(w))),
        }
    }

    /// `cell == v`.
    fn equals(&self, v: &Int) -> Term {
        let c = self.constant(v);
        match self.scalar {
            Scalar::Bv(_) => Term::bv_eq(&self.term, &c),
            // A boolean cell (a C object's `$freed` flag) is itself or
            // its negation.
            Scalar::Bool if v.is_zero() => Term::not(&self.term),
            Scalar::Bool => self.term.clone(),
            Scalar::Int => Term::eq(&self.term, &c),
        }
    }

    /// `|cell| <= m` (for an unsigned cell, `cell <= m`).
    fn within(&self, m: &Int) -> Term {
        let (lo, hi) = (self.constant(&m.neg()), self.constant(m));
        match self.scalar {
            Scalar::Bv(_) if self.unsigned => Term::bv_cmp(BvPred::Ule, &self.term, &hi),
            Scalar::Bv(_) => Term::and(
                &Term::bv_cmp(BvPred::Sle, &lo, &self.term),
                &Term::bv_cmp(BvPred::Sle, &self.term, &hi),
            ),
            // 0 and 1: within every bound but 0, which only false meets.
            Scalar::Bool if m.is_zero() => Term::not(&self.term),
            Scalar::Bool => Term::bool(true),
            Scalar::Int => Term::and(&Term::le(&lo, &self.term), &Term::le(&self.term, &hi)),
        }
    }
}

/// The search: the constraints, the values chosen so far (as equalities)
/// and a model of both.
struct Search<'s> {
    solver: &'s mut dyn Solver,
    query: Vec<Term>,
    /// The members of `query`, to look one up without a scan.
    stated: FxHashSet<Term>,
    /// For each variable, the positions in `query` of the path's own
    /// constraints that mention it (the equalities pushed later mention
    /// only the cell they fix). A path of 100,000 branches on as many
    /// reads has as many variables and constraints: a scan of every
    /// constraint per variable took minutes, and held up the bug.
    mentioning: FxHashMap<Term, Vec<usize>>,
    model: Model,
    /// Set once a query answered unknown: nothing more is asked.
    gave_up: bool,
}

impl Search<'_> {
    /// Is `extra` satisfiable with the query so far? Updates the model
    /// when it is. `None`: unknown (or the model at hand had to do).
    fn sat(&mut self, extra: Term, queries: &mut u32) -> Option<bool> {
        if self.model.holds(&extra) {
            return Some(true);
        }
        if self.gave_up || *queries >= MAX_QUERIES_PER_VALUE {
            return None;
        }
        *queries += 1;
        self.query.push(extra);
        let answer = self.solver.solve(&self.query);
        self.query.pop();
        match answer {
            Answer::Sat(m) => {
                self.model = m;
                Some(true)
            }
            Answer::Unsat => Some(false),
            Answer::Unknown(_) => {
                self.gave_up = true;
                None
            }
        }
    }

    /// Fixes `cell` at the value nearest 0 it can take (the non-negative
    /// one on a tie); returns it, or `None` if the search was cut.
    fn fix(&mut self, cell: &Cell) -> Option<Int> {
        // The solver's deadline is the budget's (see `minimise`): a value
        // fixed without a query must not run past it either.
        if self.solver.deadline().is_some_and(|d| Instant::now() >= d) {
            return None;
        }
        let mut queries = 0;
        let value = self.smallest(cell, &mut queries);
        if let Some(v) = &value {
            let eq = cell.equals(v);
            self.stated.insert(eq.clone());
            self.query.push(eq);
        }
        value
    }

    fn smallest(&mut self, cell: &Cell, queries: &mut u32) -> Option<Int> {
        if let Some(v) = self.nearest_in_bounds(cell) {
            return Some(v);
        }
        // A value the constraints state outright (`input[1] == 97`).
        let v = cell.value(&self.model);
        if self.stated.contains(&cell.equals(&v)) {
            return Some(v);
        }
        let zero = Int::ZERO;
        if self.sat(cell.equals(&zero), queries)? {
            return Some(zero);
        }
        // Invariant: no value of magnitude <= lo; one of magnitude <= hi
        // (the model's).
        let mut lo = zero;
        let mut hi = cell.value(&self.model).abs();
        let two = Int::from(2);
        let mut step = Int::ONE;
        while step < hi {
            if self.sat(cell.within(&step), queries)? {
                hi = cell.value(&self.model).abs();
                break;
            }
            lo = step.clone();
            step = step.mul(&two);
        }
        while hi.sub(&lo) > Int::ONE {
            let mid = lo.add(&hi.sub(&lo).div_floor(&two));
            if self.sat(cell.within(&mid), queries)? {
                hi = cell.value(&self.model).abs();
            } else {
                lo = mid;
            }
        }
        // `hi` is the least magnitude: `hi` or `-hi`, `hi` first.
        if cell.value(&self.model) == hi || cell.unsigned {
            return Some(hi);
        }
        if self.sat(cell.equals(&hi), queries)? {
            Some(hi)
        } else {
            Some(hi.neg())
        }
    }
}

impl Search<'_> {
    /// A variable that only bounds constrain (comparisons with constants:
    /// `x <= 12`, `x != 3`; no other constraint mentions it) takes the
    /// member of their set nearest 0, with no query: nothing else
    /// depends on it. The model is updated to it.
    fn nearest_in_bounds(&mut self, cell: &Cell) -> Option<Int> {
        let Kind::Var(name, _) = cell.term.kind() else {
            return None;
        };
        let mut set = universe(&cell.term);
        for &k in self.mentioning.get(&cell.term).into_iter().flatten() {
            let (x, s) = as_bound(&self.query[k])?;
            if x != cell.term {
                return None;
            }
            set = set.meet(&s);
        }
        // Each interval's ends and the point nearest 0 are the candidates
        // (for a bit-vector, the set is of patterns, read by the cell).
        let candidates = set.parts().iter().flat_map(|p| {
            let near = p.lo.clone().into_iter().chain(p.hi.clone());
            near.chain(set.clamp(&Int::ZERO)).collect::<Vec<_>>()
        });
        let as_value = |pattern: Int| match cell.scalar {
            Scalar::Bv(w) => IntTy::fixed(u32::from(w), !cell.unsigned)
                .map_or(pattern.clone(), |t| {
                    t.from_bits(pattern.low_bits(u32::from(w)))
                }),
            _ => pattern,
        };
        let best = candidates
            .map(as_value)
            .min_by_key(|v| (v.abs(), v.is_negative()))?;
        match cell.scalar {
            Scalar::Bv(w) => self
                .model
                .set_int(name.clone(), Int::from_u64(best.low_bits(u32::from(w)))),
            Scalar::Int => self.model.set_int(name.clone(), best.clone()),
            Scalar::Bool => return None,
        }
        Some(best)
    }
}

/// The canonical model of `constraints` (see the module documentation),
/// starting from `model`, a model of them. Falls back to a model of them
/// that is merely smaller when the budget runs out.
pub fn minimise(
    solver: &mut dyn Solver,
    constraints: &[Term],
    model: Model,
    inputs: &Inputs<'_>,
) -> Model {
    let mut vars: Vec<Term> = Vec::new();
    let mut mentioning: FxHashMap<Term, Vec<usize>> = FxHashMap::default();
    for (k, c) in constraints.iter().enumerate() {
        for v in c.vars() {
            let at = mentioning.entry(v).or_insert_with_key(|v| {
                vars.push(v.clone());
                Vec::new()
            });
            at.push(k);
        }
    }
    let mut position: FxHashMap<&str, usize> = FxHashMap::default();
    for (i, name) in inputs.order.iter().enumerate() {
        position.entry(name.as_str()).or_insert(i);
    }
    let rank = |t: &Term| {
        let name = t.as_var().map_or("", |n| n);
        let at = position.get(name).copied();
        (at.unwrap_or(usize::MAX), name.to_string())
    };
    vars.sort_by_cached_key(rank);
    let run_deadline = solver.deadline();
    let budget_end = Instant::now().checked_add(TIME_BUDGET);
    let narrowed = match (run_deadline, budget_end) {
        (Some(d), Some(b)) => Some(d.min(b)),
        (d, b) => d.or(b),
    };
    solver.set_deadline(narrowed);
    let mut search = Search {
        solver,
        query: constraints.to_vec(),
        stated: constraints.iter().cloned().collect(),
        mentioning,
        model,
        gave_up: false,
    };
    let canonical = canonical(&mut search, &vars, inputs);
    search.solver.set_deadline(run_deadline);
    match canonical {
        Some(m) if constraints.iter().all(|c| m.holds(c)) => m,
        _ => search.model,
    }
}

/// Fixes every scalar variable, then every array cell the constraints
/// read, and builds the model of those values alone; `None` if the search
/// was cut.
fn canonical(search: &mut Search<'_>, vars: &[Term], inputs: &Inputs<'_>) -> Option<Model> {
    let mut out = Model::new();
    for v in vars {
        let Kind::Var(name, sort) = v.kind() else {
            continue;
        };
        let Ok(scalar) = Scalar::try_from(*sort) else {
            continue;
        };
        let cell = Cell {
            term: v.clone(),
            scalar,
            unsigned: (inputs.unsigned)(name),
        };
        let value = search.fix(&cell)?;
        match scalar {
            Scalar::Bool => out.set_bool(name.clone(), !value.is_zero()),
            Scalar::Int => out.set_int(name.clone(), value),
            Scalar::Bv(w) => out.set_int(name.clone(), Int::from_u64(value.low_bits(u32::from(w)))),
        }
    }
    for v in vars {
        let Kind::Var(name, Sort::Array(index, elem)) = v.kind() else {
            continue;
        };
        let mut value = ArrayValue::default();
        let mut fixed: FxHashSet<Int> = FxHashSet::default();
        // A cell's index may depend on other cells (`a[a[0]]`): look
        // again once those are fixed, a few times.
        for _ in 0..4 {
            let indices = read_indices(&search.query, v, &search.model);
            let new: Vec<Int> = indices.into_iter().filter(|i| !fixed.contains(i)).collect();
            if new.is_empty() {
                break;
            }
            for i in new {
                let at = scalar_constant(*index, &i);
                let cell = Cell {
                    term: Term::select(v, &at),
                    scalar: *elem,
                    unsigned: (inputs.unsigned)(name),
                };
                let x = search.fix(&cell)?;
                let stored = match elem {
                    Scalar::Bv(w) => Int::from_u64(x.low_bits(u32::from(*w))),
                    Scalar::Bool => Int::from(i64::from(!x.is_zero())),
                    Scalar::Int => x,
                };
                if !stored.is_zero() {
                    value.entries.insert_mut(i.clone(), stored);
                }
                fixed.insert(i);
            }
        }
        out.set_array(name.clone(), value);
    }
    Some(out)
}

fn scalar_constant(s: Scalar, v: &Int) -> Term {
    match s {
        Scalar::Int => Term::int(v.clone()),
        Scalar::Bool => Term::bool(!v.is_zero()),
        Scalar::Bv(w) => Term::bv(w, v.low_bits(u32::from(w))),
    }
}

/// The indices (as the model stores them) at which `terms` read the
/// array variable `array` under `model`, sorted.
fn read_indices(terms: &[Term], array: &Term, model: &Model) -> Vec<Int> {
    let mut seen = rustc_hash::FxHashSet::default();
    let mut stack: Vec<&Term> = terms.iter().collect();
    let mut out = Vec::new();
    while let Some(t) = stack.pop() {
        if !seen.insert(t.addr()) {
            continue;
        }
        if let Kind::Select(a, i) = t.kind() {
            if a.mentions(array) {
                if let wiser_smt::Value::Int(k) = model.eval(i) {
                    out.push(k);
                }
            }
        }
        stack.extend(t.children());
    }
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::{minimise, Inputs};
    use wiser_smt::{Model, Sort, Term, Z3Solver};

    /// A path of thousands of reads, each only bounded (`read#k != 0`),
    /// gets its canonical witness (each read 1) within the time budget:
    /// every variable is looked at with the constraints that mention it,
    /// not with all of them. (A scan per variable took minutes on a path
    /// of 100,000 reads, and the run ended before the bug was reported.)
    #[test]
    fn thousands_of_bounded_reads_get_their_canonical_values() {
        let n = 5_000;
        let names: Vec<String> = (1..=n).map(|k| format!("read#{k}")).collect();
        let vars: Vec<Term> = names
            .iter()
            .map(|x| Term::var(x.as_str(), Sort::Int))
            .collect();
        let constraints: Vec<Term> = vars
            .iter()
            .map(|x| Term::not(&Term::eq(x, &Term::int(0))))
            .collect();
        let mut model = Model::new();
        for x in &names {
            model.set_int(x.as_str().into(), (-7).into());
        }
        let inputs = Inputs {
            order: &names,
            unsigned: &|_| false,
        };
        let mut solver = Z3Solver::new(None);
        let m = minimise(&mut solver, &constraints, model, &inputs);
        for x in &names {
            assert_eq!(m.int(x), 1.into(), "{x}");
        }
    }
}
