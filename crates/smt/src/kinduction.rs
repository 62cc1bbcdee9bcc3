//! k-induction over Horn clauses, and the independent check of its
//! certificate.
//!
//! Linear Horn clauses are a transition system: a state is a relation
//! (a location: the entry or a loop head) with values for its
//! parameters; a clause with a body is a step from its body's relation
//! to its head's, a fact an initial state, a query a bad state. An
//! [`Unrolling`] writes the formulas of k steps with a copy of every
//! variable per step (`loc@i`, an integer, says where state `i` is):
//! * the **base case** at depth `d`: an initial state, `d` steps, and a
//!   bad state at the end ([`Unrolling::base`]);
//! * the **step case** at `k`: `k` consecutive states anywhere, each
//!   satisfying the strengthening (inductive facts of its location) and
//!   not bad, one more step, and a bad state ([`Unrolling::step`]), the
//!   `k + 1` states pairwise distinct (the *simple-path* constraints of
//!   Sheeran, Singh and Stålmarck: [`Unrolling::simple_path`]; a search
//!   adds them lazily, pair by pair, where a counterexample repeats a
//!   state: [`Unrolling::repeated`]).
//!
//! If the base cases at depths `0..k` and the step case at `k` are all
//! unsatisfiable, no bad state is reachable: a shortest path to one
//! would be longer than `k`, and its last `k + 1` states refute the step
//! case. They are distinct: a state is a location and its relation's
//! values, and what a step may do depends on nothing else (its inputs
//! are fresh), so a path that met one state twice could skip what lies
//! between and be shorter. Without those constraints a program whose
//! loop may leave its state as it is (a branch that changes nothing)
//! refutes every step case by staying put for `k` steps before a bad
//! state no run reaches. "Not bad" is written without quantifiers: a state is not bad
//! for the inputs of its own step (the query's variables at step `i`
//! are the step's); a truly not-bad state (for every input) satisfies
//! that too, so the step case only gets harder, never wrong.
//!
//! [`HornProblem::check_k_inductive`] re-checks a claim: the facts
//! inductive, every base case and the step case unsatisfiable, on any
//! [`Solver`] — a fresh one, sharing nothing with the one that found k.

use crate::horn::{HornProblem, Refusal};
use crate::model::Model;
use crate::solver::{Answer, Solver};
use crate::term::{Sort, Term};
use rustc_hash::FxHashMap;

/// The formulas of k-induction over a problem's clauses, strengthened
/// by inductive facts (one formula per relation over its parameters).
pub struct Unrolling<'a> {
    p: &'a HornProblem,
    facts: &'a [Term],
    /// Every variable of the clauses that is not a body's parameter, by
    /// an index that keeps copies of equal names of different sorts
    /// apart.
    locals: FxHashMap<Term, usize>,
}

/// Whose copies of the clauses' own variables a formula uses: those of
/// the initial states' clauses, or those of the steps from state `i`.
#[derive(Clone, Copy)]
enum Tag {
    Init,
    At(usize),
}

impl<'a> Unrolling<'a> {
    /// The unrolling of `p`'s clauses, each state strengthened by `facts`
    /// (one per relation; shorter means `true` for the rest). `p` must be
    /// unrollable ([`HornProblem::is_unrollable`]): a clause's second body
    /// would be ignored, and arrays cannot be equated.
    pub fn new(p: &'a HornProblem, facts: &'a [Term]) -> Self {
        let mut locals = FxHashMap::default();
        for c in &p.clauses {
            let mut terms = vec![&c.constraint];
            terms.extend(c.head.iter().flat_map(|h| &h.args));
            terms.extend(c.body.iter().flat_map(|b| &b.args));
            for t in terms {
                for v in t.vars() {
                    let n = locals.len();
                    locals.entry(v).or_insert(n);
                }
            }
        }
        Unrolling { p, facts, locals }
    }

    /// The base case at `depth`: an initial state, `depth` steps, and a
    /// bad last state. Satisfiable iff an error is reachable in exactly
    /// `depth` steps. Depth `d + 1`'s list extends depth `d`'s but for
    /// its last formula.
    pub fn base(&self, depth: usize) -> Vec<Term> {
        let mut out = vec![self.init(0)];
        for i in 0..depth {
            out.push(self.trans(i, i + 1));
        }
        out.push(self.bad(depth));
        out
    }

    /// The step case at `k` (at least 1): states numbered backwards from
    /// the bad one (state 0), each of states `1..=k` strengthened, not
    /// bad, and a step to the state numbered one less. With
    /// [`Unrolling::simple_path`] (or any of its pairs), unsatisfiable iff
    /// the property is k-inductive relative to the facts. `k + 1`'s list
    /// extends `k`'s, and the states keep their numbers.
    pub fn step(&self, k: usize) -> Vec<Term> {
        let mut out = vec![self.bad(0), self.strengthen(0)];
        for i in 1..=k {
            out.push(self.trans(i, i - 1));
            out.push(self.strengthen(i));
            out.push(Term::not(&self.bad(i)));
        }
        out
    }

    /// The simple-path constraints of the step case at `k`: states
    /// `0..=k` pairwise distinct.
    pub fn simple_path(&self, k: usize) -> Vec<Term> {
        (1..=k)
            .flat_map(|i| (0..i).map(move |j| self.distinct(i, j)))
            .collect()
    }

    /// The pairs of states `0..=k` that are equal in `model` (of the step
    /// case at `k`): the simple-path constraints it violates.
    pub fn repeated(&self, k: usize, model: &Model) -> Vec<Term> {
        let mut pairs = self.simple_path(k);
        pairs.retain(|d| !model.holds(d));
        pairs
    }

    /// States `i` and `j` differ: in their locations, or in a value of
    /// the relation at the one they share (a relation without parameters
    /// has one state).
    fn distinct(&self, i: usize, j: usize) -> Term {
        let per_relation = (0..self.p.relations.len()).map(|r| {
            let differs = self
                .state(i, r)
                .iter()
                .zip(&self.state(j, r))
                .map(|(a, b)| Term::not(&Term::equals(a, b)))
                .collect::<Vec<_>>();
            Term::or(&Term::not(&Self::at(i, r)), &Term::or_all(differs))
        });
        Term::or(
            &Term::not(&Term::eq(&Self::loc(i), &Self::loc(j))),
            &Term::and_all(per_relation.collect::<Vec<_>>()),
        )
    }

    /// Where state `i` is: an index into the relations.
    fn loc(i: usize) -> Term {
        Term::int_var(format!("loc@{i}"))
    }

    fn at(i: usize, r: usize) -> Term {
        Term::eq(&Self::loc(i), &Term::int(r as i64))
    }

    /// Relation `r`'s parameters in state `i`.
    fn state(&self, i: usize, r: usize) -> Vec<Term> {
        self.p.relations[r]
            .params
            .iter()
            .map(|v| {
                let name = v.as_var().map_or("v", |n| &**n);
                Term::var(format!("{name}#r{r}@{i}"), v.sort())
            })
            .collect()
    }

    /// Clause `c`'s constraint and arguments with its variables renamed:
    /// a body's parameter to state `i`'s copy, any other variable to its
    /// `tag` copy; and the equalities binding the body's other
    /// arguments to state `i`.
    fn renamed(&self, c: usize, i: usize, tag: Tag) -> (Term, Vec<Term>) {
        let clause = &self.p.clauses[c];
        let mut map: FxHashMap<Term, Term> = FxHashMap::default();
        let mut binds = Vec::new();
        if let Some(body) = clause.body.first() {
            let state = self.state(i, body.relation);
            for (a, s) in body.args.iter().zip(&state) {
                if a.as_var().is_some() && a.sort() == s.sort() && !map.contains_key(a) {
                    map.insert(a.clone(), s.clone());
                } else {
                    binds.push((a.clone(), s.clone()));
                }
            }
        }
        let suffix = match tag {
            Tag::Init => "init".to_string(),
            Tag::At(i) => i.to_string(),
        };
        let rename = |t: &Term| {
            t.substitute(&|v| {
                if let Some(s) = map.get(v) {
                    return Some(s.clone());
                }
                let id = self.locals.get(v)?;
                let name = v.as_var().map_or("v", |n| &**n);
                Some(Term::var(format!("{name}#{id}@{suffix}"), v.sort()))
            })
        };
        let mut parts = vec![rename(&clause.constraint)];
        parts.extend(binds.iter().map(|(a, s)| Term::equals(&rename(a), s)));
        let head_args = clause
            .head
            .iter()
            .flat_map(|h| h.args.iter().map(rename))
            .collect();
        (Term::and_all(parts), head_args)
    }

    /// State `to` is the head of a clause taken from state `from`.
    fn trans(&self, from: usize, to: usize) -> Term {
        let steps = self.p.clauses.iter().enumerate().filter_map(|(c, clause)| {
            let (body, head) = (clause.body.first()?, clause.head.as_ref()?);
            let (premise, args) = self.renamed(c, from, Tag::At(from));
            let mut parts = vec![
                Self::at(from, body.relation),
                premise,
                Self::at(to, head.relation),
            ];
            let next = self.state(to, head.relation);
            parts.extend(next.iter().zip(&args).map(|(s, a)| Term::equals(s, a)));
            Some(Term::and_all(parts))
        });
        Term::or_all(steps.collect::<Vec<_>>())
    }

    /// State `i` is an initial state: the head of a fact.
    fn init(&self, i: usize) -> Term {
        let facts = self.p.clauses.iter().enumerate().filter_map(|(c, clause)| {
            if !clause.body.is_empty() {
                return None;
            }
            let head = clause.head.as_ref()?;
            let (premise, args) = self.renamed(c, i, Tag::Init);
            let mut parts = vec![premise, Self::at(i, head.relation)];
            let next = self.state(i, head.relation);
            parts.extend(next.iter().zip(&args).map(|(s, a)| Term::equals(s, a)));
            Some(Term::and_all(parts))
        });
        Term::or_all(facts.collect::<Vec<_>>())
    }

    /// State `i` is bad: a query's premise holds there (a query without
    /// a body holds anywhere).
    fn bad(&self, i: usize) -> Term {
        let queries = self.p.clauses.iter().enumerate().filter_map(|(c, clause)| {
            if clause.head.is_some() {
                return None;
            }
            let (premise, _) = self.renamed(c, i, Tag::At(i));
            Some(match clause.body.first() {
                Some(body) => Term::and(&Self::at(i, body.relation), &premise),
                None => premise,
            })
        });
        Term::or_all(queries.collect::<Vec<_>>())
    }

    /// State `i` satisfies the facts of its location.
    fn strengthen(&self, i: usize) -> Term {
        let parts = self.facts.iter().enumerate().filter_map(|(r, f)| {
            if f.as_bool() == Some(true) || r >= self.p.relations.len() {
                return None;
            }
            let params = &self.p.relations[r].params;
            let state = self.state(i, r);
            let at: FxHashMap<&Term, &Term> = params.iter().zip(&state).collect();
            let fact = f.substitute(&|v| at.get(v).map(|&t| t.clone()));
            Some(Term::or(&Term::not(&Self::at(i, r)), &fact))
        });
        Term::and_all(parts.collect::<Vec<_>>())
    }
}

impl HornProblem {
    /// Has every clause at most one body relation (a transition system,
    /// which [`Unrolling`] unrolls)?
    pub fn is_linear(&self) -> bool {
        self.clauses.iter().all(|c| c.body.len() <= 1)
    }

    /// Can [`Unrolling`] unroll it: linear, and every parameter a scalar
    /// (a step binds the next state's values by equalities, and the terms
    /// have no equality of arrays)?
    pub fn is_unrollable(&self) -> bool {
        self.is_linear()
            && self.relations.iter().all(|r| {
                r.params
                    .iter()
                    .all(|p| !matches!(p.sort(), Sort::Array(..)))
            })
    }

    /// Checks with `solver` that the clauses' queries are unreachable by
    /// k-induction at `k` (at least 1), strengthened by `facts` (one
    /// formula per relation): `Ok` only if the facts are inductive (every
    /// clause with a head keeps them), no error is reachable within `k -
    /// 1` steps, and the step case at `k` over simple paths (every pair
    /// of its states distinct) is unsatisfiable.
    pub fn check_k_inductive(
        &self,
        k: usize,
        facts: &[Term],
        solver: &mut dyn Solver,
    ) -> Result<(), Refusal> {
        if k == 0 {
            return Err(Refusal::Malformed("k-induction at k = 0".into()));
        }
        self.well_formed(facts)?;
        if !self.is_unrollable() {
            let what = "k-induction over non-linear clauses (a clause with several bodies) \
                        or over arrays";
            return Err(Refusal::Malformed(what.into()));
        }
        // The facts are inductive: the clauses without the queries hold.
        let mut kept = Vec::new();
        let mut only_steps = HornProblem {
            relations: self.relations.clone(),
            clauses: Vec::new(),
        };
        for (i, c) in self.clauses.iter().enumerate() {
            if c.head.is_some() {
                kept.push(i);
                only_steps.clauses.push(c.clone());
            }
        }
        only_steps.check(facts, solver).map_err(|r| match r {
            Refusal::Violated { clause } => Refusal::Violated {
                clause: kept[clause],
            },
            Refusal::Undecided { clause, reason } => Refusal::Undecided {
                clause: kept[clause],
                reason,
            },
            other => other,
        })?;
        let unrolling = Unrolling::new(self, facts);
        let undecided = |what: String, reason: String| Refusal::UndecidedUnrolling { what, reason };
        for depth in 0..k {
            match solver.solve(&unrolling.base(depth)) {
                Answer::Unsat => {}
                Answer::Sat(_) => return Err(Refusal::Reachable { depth }),
                Answer::Unknown(why) => {
                    return Err(undecided(format!("the base case at depth {depth}"), why))
                }
            }
        }
        let mut step = unrolling.step(k);
        step.extend(unrolling.simple_path(k));
        match solver.solve(&step) {
            Answer::Unsat => Ok(()),
            Answer::Sat(_) => Err(Refusal::NotKInductive { k }),
            Answer::Unknown(why) => Err(undecided(format!("the step case at k = {k}"), why)),
        }
    }
}
