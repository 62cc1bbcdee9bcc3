//! Path conditions.
//!
//! A path condition is the conjunction of
//! * a *box*: for each variable that comparisons with constants have
//!   constrained, the exact set of values they allow (a union of
//!   intervals: bounds, excluded points, signed bounds on bit-vectors), so
//!   loop tests over a symbolic bound and disequalities never reach a
//!   solver; and
//! * other constraints, kept on a persistent stack with their variables.
//!
//! Every conjunct remembers when it was added (its sequence number), and a
//! variable's set remembers when it last changed: solver queries list
//! their constraints in that order, so the queries of neighbouring paths
//! share their longest prefix and the incremental solver keeps its work.
//!
//! Invariant: when `model` is `Some`, the *effective model* satisfies the
//! whole path condition. The effective model is `model` with each boxed
//! variable's value moved to the nearest member of its set, so a branch
//! that only narrows a set never has to copy the model. Each branch keeps
//! the invariant, so one side of every branch is decided by evaluating the
//! condition under the effective model, and a bug's witness is the
//! effective model of its path, with no further solver call.

mod bounds;
mod boxmap;
mod join;
mod set;

pub use bounds::{as_bound, set_terms, universe};
pub use join::Joined;
pub use set::{Interval, ValueSet, MAX_PARTS};

use boxmap::BoxMap;
use rpds::HashTrieSetSync;
use std::sync::Arc;
use wiser_num::Int;
use wiser_semantics::Stack;
use wiser_smt::{Kind, Model, Sort, Term};

/// The most members a variable's set may have for a constraint on it
/// alone to be tried on each of them and become a bound.
pub const SMALL_SET: i64 = 64;

/// Is `v` a variable of a sort whose values the box and enumeration
/// handle (integers and bit-vectors)?
pub(crate) fn is_numeric_var(v: &Term) -> bool {
    matches!(v.kind(), Kind::Var(_, Sort::Int | Sort::Bv(_)))
}

/// The hasher of the path's maps: `Term`s carry their hash, so it only
/// mixes it in, and a map holds no random state.
type Fx = std::hash::BuildHasherDefault<rustc_hash::FxHasher>;

/// The set of one boxed variable and when it last changed.
#[derive(Clone, Debug)]
pub struct Boxed {
    /// The values the variable may take.
    pub set: ValueSet,
    /// The sequence number of the conjunct that last narrowed it.
    pub seq: u32,
}

/// A constraint that is not a bound, with its free variables.
#[derive(Clone, Debug)]
pub struct Constraint {
    /// The boolean term.
    pub term: Term,
    /// Its free variables (integer, bit-vector, boolean and array).
    pub vars: Arc<[Term]>,
    /// When it was added.
    pub seq: u32,
}

/// The path condition of one symbolic state.
#[derive(Clone, Debug)]
pub struct PathCond {
    boxed: BoxMap,
    constraints: Stack<Constraint>,
    /// Variables that some constraint mentions (behind a pointer: most
    /// waiting states share it with their parent).
    constrained: Arc<HashTrieSetSync<Term, Fx>>,
    /// The raw model, whose clamping into the box satisfies the whole path
    /// condition; `None` when a solver answered unknown on the way here.
    pub model: Option<Arc<Model>>,
    /// Was some branch on this path kept only because a solver answered
    /// unknown? Then the path may be infeasible.
    pub unknown: bool,
    seq: u32,
}

impl Default for PathCond {
    fn default() -> Self {
        PathCond::new()
    }
}

impl PathCond {
    /// The trivial path condition `true`, whose model is all zeros.
    pub fn new() -> PathCond {
        PathCond {
            boxed: BoxMap::default(),
            constraints: Stack::new(),
            constrained: Arc::new(HashTrieSetSync::new_with_hasher_with_ptr_kind(Fx::default())),
            model: Some(Arc::new(Model::new())),
            unknown: false,
            seq: 0,
        }
    }

    /// Gives the parts that forks clone a copy of their own: the box's list
    /// and trie, the newest constraint, the set of constrained symbols and
    /// the model (those two often still the initial ones, which every
    /// state of a run shares). See `Unshare` in `frontier.rs`.
    pub(crate) fn unshare(&mut self) {
        self.boxed.unshare();
        self.constraints.unshare_top();
        self.constrained = Arc::new((*self.constrained).clone());
        if let Some(m) = &self.model {
            self.model = Some(Arc::new((**m).clone()));
        }
    }

    /// `v` moved into the set of the variable `x`.
    fn clamp(&self, x: &Term, v: Int) -> Int {
        self.boxed.clamp(x, v)
    }

    /// The value of the integer or bit-vector variable `x` in the
    /// effective model.
    pub fn value(&self, x: &Term) -> Option<Int> {
        let m = self.model.as_ref()?;
        Some(self.clamp(x, m.int(x.as_var()?)))
    }

    /// Does `c` hold in the effective model? `None` without a model.
    pub fn holds(&self, c: &Term) -> Option<bool> {
        let m = self.model.as_ref()?;
        Some(m.holds_with(c, &|x, v| self.clamp(x, v)))
    }

    /// The effective model: a model of the whole path condition.
    pub fn effective_model(&self) -> Option<Model> {
        let mut m = Model::clone(self.model.as_ref()?);
        for x in self.boxed.keys() {
            if let Some(name) = x.as_var() {
                let v = self.clamp(x, m.int(name));
                m.set_int(name.clone(), v);
            }
        }
        Some(m)
    }

    /// The set of `x` (its whole universe if unconstrained by bounds).
    pub fn set(&self, x: &Term) -> ValueSet {
        match self.boxed.get(x) {
            Some(b) => b.set,
            None => universe(x),
        }
    }

    /// Does the set of `x` contain `v`? (`self.set(x).contains(v)`
    /// without making the set: deciding a bound asks it on every branch.)
    pub fn admits(&self, x: &Term, v: &Int) -> bool {
        self.boxed
            .admits(x, v)
            .unwrap_or_else(|| universe(x).contains(v))
    }

    /// Is the set of `x` empty? (`self.set(x).is_empty()` without making
    /// the set.)
    pub fn is_empty_set(&self, x: &Term) -> bool {
        self.boxed.is_empty_at(x).unwrap_or(false)
    }

    /// Is `x` in the box?
    pub fn is_boxed(&self, x: &Term) -> bool {
        self.boxed.contains_key(x)
    }

    /// The boxed variables and their sets.
    pub fn boxed(&self) -> impl Iterator<Item = (&Term, Boxed)> {
        self.boxed.iter()
    }

    /// Adds a conjunct (splitting conjunctions, absorbing bounds). The
    /// model is left as it is: callers keep the invariant.
    pub fn add(&mut self, c: &Term) {
        match c.kind() {
            Kind::And(xs) => xs.iter().for_each(|x| self.add(x)),
            Kind::Bool(true) => {}
            _ => {
                self.seq += 1;
                if let Some((x, set)) = as_bound(c) {
                    let met = self.set(&x).meet(&set);
                    if met.parts().len() <= MAX_PARTS {
                        let seq = self.seq;
                        self.boxed.insert_mut(x, Boxed { set: met, seq });
                        return;
                    }
                }
                let vars: Arc<[Term]> = c.vars().into();
                if let Some(met) = self.tried_on_each_value(c, &vars) {
                    let seq = self.seq;
                    self.boxed
                        .insert_mut(vars[0].clone(), Boxed { set: met, seq });
                    return;
                }
                for v in vars.iter() {
                    if !self.constrained.contains(v) {
                        Arc::make_mut(&mut self.constrained).insert_mut(v.clone());
                    }
                }
                self.constraints = self.constraints.push(Constraint {
                    term: c.clone(),
                    vars,
                    seq: self.seq,
                });
            }
        }
    }

    /// The set of values of the one variable of `c` (`vars`) that make
    /// `c` hold, when the variable's set has at most [`SMALL_SET`] members
    /// and the result at most [`MAX_PARTS`] intervals: `c` is then a bound
    /// after all, found by trying each member. Kept as a constraint, `i <
    /// 1000000*k` with `k` in `0..=10`, added once per iteration of a loop
    /// that counts by `k`, would make every later decision on `k` read
    /// them all.
    fn tried_on_each_value(&self, c: &Term, vars: &[Term]) -> Option<ValueSet> {
        let [x] = vars else { return None };
        if !is_numeric_var(x) {
            return None;
        }
        let set = self.set(x);
        if set.size()? > Int::from(SMALL_SET) {
            return None;
        }
        let zeros = Model::new();
        let holds = set
            .members()?
            .filter(|v| zeros.holds_with(c, &|_, _| v.clone()))
            .map(|v| Interval::range(v.clone(), v));
        let met = ValueSet::from_parts(holds);
        (met.parts().len() <= MAX_PARTS).then_some(met)
    }

    /// Does any non-bound constraint mention `x`?
    pub fn constrains(&self, x: &Term) -> bool {
        self.constrained.contains(x)
    }

    /// The non-bound constraints, newest first.
    pub fn constraints(&self) -> impl Iterator<Item = &Constraint> {
        self.constraints.iter()
    }

    /// A hash of the path condition as a set of conjuncts (bounds and
    /// constraints), whatever order they were added in.
    pub fn fingerprint(&self) -> u128 {
        use std::hash::{DefaultHasher, Hash, Hasher};
        let one = |salt: u64, f: &dyn Fn(&mut DefaultHasher)| {
            let mut h = DefaultHasher::new();
            salt.hash(&mut h);
            f(&mut h);
            h.finish()
        };
        let mut sum: u128 = 0;
        for (var, b) in self.boxed.iter() {
            let f = |h: &mut DefaultHasher| {
                var.hash(h);
                b.set.hash(h);
            };
            sum = sum.wrapping_add((u128::from(one(1, &f)) << 64) | u128::from(one(2, &f)));
        }
        for c in self.constraints.iter() {
            let f = |h: &mut DefaultHasher| c.term.hash(h);
            sum = sum.wrapping_add((u128::from(one(3, &f)) << 64) | u128::from(one(4, &f)));
        }
        sum
    }

    /// The whole path condition as a list of terms, in the order the
    /// conjuncts were added (a boxed variable's set where it last changed).
    pub fn terms(&self) -> Vec<Term> {
        let vars: Vec<Term> = self.boxed.keys().cloned().collect();
        let all: Vec<&Constraint> = self.constraints.iter().collect();
        self.ordered(&vars, all.into_iter().rev())
    }

    /// The constraints that share variables, directly or through other
    /// constraints, with `seed`, and the sets of those variables: the
    /// slice of the path condition relevant to a query about `seed`
    /// (KLEE's constraint independence), in the order of [`Self::terms`].
    /// Also returns the slice's variables: no other variable occurs in it.
    pub fn slice(&self, seed: &[Term]) -> (Vec<Term>, Vec<Term>) {
        let (chosen, vars) = self.related_constraints(seed);
        let terms = self.ordered(&vars, chosen.into_iter());
        (terms, vars)
    }

    /// The non-bound constraints of the slice of [`Self::slice`] (oldest
    /// first) and its variables; the sets of those variables are
    /// [`Self::set`].
    pub fn related(&self, seed: &[Term]) -> (Vec<Term>, Vec<Term>) {
        let (chosen, vars) = self.related_constraints(seed);
        (chosen.into_iter().map(|c| c.term.clone()).collect(), vars)
    }

    /// The constraints that share variables with `seed`, directly or
    /// through others (oldest first), and their variables in the order they
    /// were reached (the seed's first). Linear in the constraints'
    /// variables: an index from each variable to its constraints, walked
    /// from the seed, the list of variables serving as the queue (a chain
    /// of comparisons that a sorting loop adds, sliced from its oldest end,
    /// took a pass per link before).
    fn related_constraints(&self, seed: &[Term]) -> (Vec<&Constraint>, Vec<Term>) {
        let all: Vec<&Constraint> = self.constraints.iter().collect();
        let mut by_var: rustc_hash::FxHashMap<&Term, Vec<usize>> = Default::default();
        for (i, c) in all.iter().enumerate() {
            for v in c.vars.iter() {
                by_var.entry(v).or_default().push(i);
            }
        }
        let mut taken = vec![false; all.len()];
        let mut reached: rustc_hash::FxHashSet<Term> = Default::default();
        let mut vars: Vec<Term> = Vec::new();
        for v in seed {
            if reached.insert(v.clone()) {
                vars.push(v.clone());
            }
        }
        let mut next = 0;
        while let Some(v) = vars.get(next).cloned() {
            next += 1;
            for &i in by_var.get(&v).map(Vec::as_slice).unwrap_or_default() {
                if !taken[i] {
                    taken[i] = true;
                    for w in all[i].vars.iter() {
                        if reached.insert(w.clone()) {
                            vars.push(w.clone());
                        }
                    }
                }
            }
        }
        let chosen = all
            .iter()
            .zip(&taken)
            .filter(|(_, t)| **t)
            .map(|(c, _)| *c)
            .rev()
            .collect();
        (chosen, vars)
    }

    /// The sets of `vars` and the constraints `cs` (oldest first), merged
    /// in order of their sequence numbers.
    fn ordered<'a>(&self, vars: &[Term], cs: impl Iterator<Item = &'a Constraint>) -> Vec<Term> {
        let mut sets: Vec<(u32, &Term, ValueSet)> = vars
            .iter()
            .filter_map(|v| self.boxed.get(v).map(|b| (b.seq, v, b.set)))
            .collect();
        sets.sort_by_key(|(seq, ..)| *seq);
        let mut out = Vec::new();
        let mut sets = sets.into_iter().peekable();
        for c in cs {
            while let Some((_, v, s)) = sets.next_if(|(seq, ..)| *seq < c.seq) {
                out.extend(set_terms(v, &s));
            }
            out.push(c.term.clone());
        }
        for (_, v, s) in sets {
            out.extend(set_terms(v, &s));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_follow_shared_variables_in_the_order_of_the_path() {
        let (x, y, z) = (Term::int_var("x"), Term::int_var("y"), Term::int_var("z"));
        let mut pc = PathCond::new();
        pc.add(&Term::le(&y, &Term::int(9)));
        pc.add(&Term::lt(&x, &y));
        pc.add(&Term::lt(&z, &Term::mul(&z, &z)));
        pc.add(&Term::le(&y, &Term::int(5)));
        let (s, vars) = pc.slice(std::slice::from_ref(&x));
        // x < y, then y's bound where it last changed (after x < y).
        assert_eq!(s, vec![Term::lt(&x, &y), Term::le(&y, &Term::int(5))]);
        assert_eq!(vars.len(), 2, "{vars:?}");
        assert_eq!(pc.terms().len(), 3);
        assert!(pc.constrains(&z) && pc.constrains(&x) && !pc.constrains(&Term::int_var("w")));
    }

    #[test]
    fn a_constraint_on_a_variable_of_few_values_becomes_its_set() {
        // `x * x <= 10` is no bound, but with `x` in `-5..=5` it is `x` in
        // `-3..=3`: tried on each value, it goes into the box.
        let x = Term::int_var("x");
        let square = Term::le(&Term::mul(&x, &x), &Term::int(10));
        let mut pc = PathCond::new();
        pc.add(&Term::le(&Term::int(-5), &x));
        pc.add(&Term::le(&x, &Term::int(5)));
        pc.add(&square);
        assert!(pc.constraints().next().is_none());
        let three = ValueSet::interval(Interval::range(Int::from(-3), Int::from(3)));
        assert_eq!(pc.set(&x), three);
        // A set of more than `SMALL_SET` values keeps the constraint.
        let mut wide = PathCond::new();
        wide.add(&Term::le(&Term::int(-SMALL_SET), &x));
        wide.add(&Term::le(&x, &Term::int(SMALL_SET)));
        wide.add(&square);
        assert_eq!(wide.constraints().count(), 1);
    }

    #[test]
    fn a_chain_sliced_from_its_oldest_end_is_whole() {
        // a1 <= a0, a2 <= a1, ...: the seed a0 reaches every link, newest
        // last, and nothing of the unrelated constraint.
        let a = |i: usize| Term::var(format!("a{i}"), Sort::Bv(32));
        let mut pc = PathCond::new();
        for i in 1..200 {
            pc.add(&Term::bv_cmp(wiser_smt::BvPred::Sle, &a(i), &a(i - 1)));
        }
        let (u, w) = (Term::int_var("u"), Term::int_var("w"));
        pc.add(&Term::lt(&u, &w));
        let (chain, vars) = pc.related(&[a(0)]);
        assert_eq!(chain.len(), 199);
        assert_eq!(vars.len(), 200);
        assert_eq!(vars[0], a(0));
        assert!(!vars.contains(&u));
        assert_eq!(
            chain[198],
            Term::bv_cmp(wiser_smt::BvPred::Sle, &a(199), &a(198))
        );
    }

    #[test]
    fn disequalities_stay_in_the_box() {
        let x = Term::int_var("x");
        let mut pc = PathCond::new();
        for k in 0..1000 {
            pc.add(&Term::ne(&x, &Term::int(k)));
        }
        assert!(pc.constraints().next().is_none());
        assert_eq!(pc.set(&x).parts().len(), 2);
        assert_eq!(pc.value(&x), Some(Int::from(-1)));
    }
}
