//! Asking Bitwuzla and cvc5, side by side, a query with float
//! operations, before Z3 (see `bitwuzla_backend.rs` and `cvc5_backend.rs`
//! for why). The float encoding is defined once, as the Z3 translation:
//! both read its standard SMT-LIB rendering (what `WISER_Z3_DUMP`
//! writes), with `get-value` for the query's variables. Whatever neither
//! decides goes on to Z3 with the time left, and a model is believed only
//! once our own evaluator agrees that it satisfies every constraint.

use super::{new_z3_solver, z3_var, Z3Solver};
use crate::bitwuzla_backend::Bitwuzla;
use crate::cvc5_backend::Cvc5;
use crate::model::Model;
use crate::smtlib_process::{ExternalError, SValue, Verdict};
use crate::solver::Answer;
use crate::term::{Kind, Sort, Term};
use rustc_hash::FxHashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;

impl Z3Solver {
    /// The answer of Bitwuzla or cvc5, racing, to `constraints` when one
    /// of them decides them by `deadline` (or the deadline passes); `None`
    /// when the query is not for them or neither decided it, and Z3 must.
    pub(super) fn ask_external(
        &mut self,
        constraints: &[Term],
        deadline: Option<Instant>,
    ) -> Option<Answer> {
        if self.bitwuzla.is_none() && self.cvc5.is_none() {
            return None;
        }
        let Query { vars, integers } = external_vars(constraints)?;
        let mut solvers = Vec::new();
        // Whether Python has Bitwuzla is asked only now, at a float query
        // (starting Python costs more than most queries).
        let bitwuzla = self
            .bitwuzla
            .clone()
            .filter(|b| !integers && b.executable().is_some());
        if let Some(b) = bitwuzla {
            solvers.push(External::Bitwuzla(b));
        }
        if let Some(c) = self.cvc5.clone() {
            solvers.push(External::Cvc5(c));
        }
        if solvers.is_empty() {
            return None;
        }
        let script = self.script(constraints, &vars);
        let (taken, answers) = race(&solvers, &script, &vars, constraints, deadline);
        for (k, (solver, answer)) in solvers.iter().zip(&answers).enumerate() {
            let [queries, sat, unsat, fallbacks] = match solver {
                External::Bitwuzla(_) => [
                    &mut self.stats.bitwuzla_queries,
                    &mut self.stats.bitwuzla_sat,
                    &mut self.stats.bitwuzla_unsat,
                    &mut self.stats.bitwuzla_fallbacks,
                ],
                External::Cvc5(_) => [
                    &mut self.stats.cvc5_queries,
                    &mut self.stats.cvc5_sat,
                    &mut self.stats.cvc5_unsat,
                    &mut self.stats.cvc5_fallbacks,
                ],
            };
            *queries += 1;
            match answer {
                Outcome::Decided(Answer::Sat(_)) if taken == Some(k) => *sat += 1,
                Outcome::Decided(Answer::Unsat) if taken == Some(k) => *unsat += 1,
                Outcome::Failed => *fallbacks += 1,
                _ => {}
            }
        }
        let answer = match taken {
            Some(k) => match &answers[k] {
                Outcome::Decided(a) => Some(a.clone()),
                _ => None,
            },
            // Neither decided: `unknown` once the deadline has passed,
            // else Z3's turn.
            None => answers.iter().find_map(|a| match a {
                Outcome::OutOfTime(why) => Some(Answer::Unknown(why.clone())),
                _ => None,
            }),
        };
        if answer.is_some() {
            self.stats.external_settled += 1;
        }
        answer
    }

    /// The SMT-LIB script of `constraints`: Z3's rendering of their
    /// translation, then `(check-sat)` and `get-value` of `vars`.
    fn script(&mut self, constraints: &[Term], vars: &[(Arc<str>, Sort)]) -> String {
        let fresh = new_z3_solver();
        for c in constraints {
            fresh.assert(self.assertion(c));
        }
        let names: Vec<String> = vars
            .iter()
            .map(|(n, s)| z3_var(n, *s).to_string())
            .collect();
        let mut script = String::from("(set-logic ALL)\n(set-option :produce-models true)\n");
        // Z3's rendering ends with its own `(check-sat)`.
        let text = fresh.to_smt2();
        let text = text.trim_end();
        script.push_str(text.strip_suffix("(check-sat)").unwrap_or(text));
        script.push_str("\n(check-sat)\n");
        if !names.is_empty() {
            script.push_str(&format!("(get-value ({}))\n", names.join(" ")));
        }
        script
    }
}

/// A solver in front of Z3.
enum External {
    Bitwuzla(Bitwuzla),
    Cvc5(Cvc5),
}

impl External {
    fn check(
        &self,
        script: &str,
        values: usize,
        deadline: Option<Instant>,
        stop: &AtomicBool,
    ) -> Result<Verdict, ExternalError> {
        match self {
            External::Bitwuzla(b) => b.check(script, values, deadline, stop),
            External::Cvc5(c) => c.check(script, values, deadline, stop),
        }
    }
}

/// How one solver of a race ended.
enum Outcome {
    /// `sat` with a model our evaluator finds true, or `unsat`.
    Decided(Answer),
    /// The deadline passed first.
    OutOfTime(String),
    /// Stopped: another answered first.
    Stopped,
    /// An error, `unknown`, or a model our evaluator finds false.
    Failed,
}

/// Runs `solvers` side by side on `script` (neither is faster on every
/// float query: Bitwuzla decides in seconds satisfiable queries that take
/// cvc5 a minute, and the other way round), stopping the others when one
/// decides. Returns which one's answer is taken, and how each ended.
fn race(
    solvers: &[External],
    script: &str,
    vars: &[(Arc<str>, Sort)],
    constraints: &[Term],
    deadline: Option<Instant>,
) -> (Option<usize>, Vec<Outcome>) {
    let stop = AtomicBool::new(false);
    let settle = |k: usize| {
        let verdict = solvers[k].check(script, vars.len(), deadline, &stop);
        let outcome = match verdict {
            Ok(Verdict::Unsat) => Outcome::Decided(Answer::Unsat),
            Ok(Verdict::Sat(values)) => {
                match model_of(vars, &values).filter(|m| constraints.iter().all(|c| m.holds(c))) {
                    Some(m) => Outcome::Decided(Answer::Sat(m)),
                    None => Outcome::Failed,
                }
            }
            Ok(Verdict::Unknown) => Outcome::Failed,
            Err(ExternalError::Stopped) => Outcome::Stopped,
            Err(e) if deadline.is_some_and(|d| Instant::now() >= d) => {
                Outcome::OutOfTime(e.to_string())
            }
            Err(_) => Outcome::Failed,
        };
        if matches!(outcome, Outcome::Decided(_)) {
            stop.store(true, Ordering::SeqCst);
        }
        outcome
    };
    if solvers.len() == 1 {
        let outcome = settle(0);
        let taken = matches!(outcome, Outcome::Decided(_)).then_some(0);
        return (taken, vec![outcome]);
    }
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        for k in 0..solvers.len() {
            let (tx, settle) = (tx.clone(), &settle);
            scope.spawn(move || {
                let _ = tx.send((k, settle(k)));
            });
        }
    });
    drop(tx);
    let mut outcomes: Vec<Option<Outcome>> = solvers.iter().map(|_| None).collect();
    let mut taken = None;
    // In the order they ended: the first decision is taken.
    for (k, outcome) in rx.iter() {
        if taken.is_none() && matches!(outcome, Outcome::Decided(_)) {
            taken = Some(k);
        }
        outcomes[k] = Some(outcome);
    }
    let outcomes = outcomes
        .into_iter()
        .map(|o| o.unwrap_or(Outcome::Failed))
        .collect();
    (taken, outcomes)
}

/// The variables of `constraints`, if they are a query for Bitwuzla and
/// cvc5: one with a float operation and no array (arrays stay with Z3,
/// whose models of them `extract` reads).
fn external_vars(constraints: &[Term]) -> Option<Query> {
    let mut vars = Vec::new();
    let mut names = FxHashSet::default();
    let mut float = false;
    let mut integers = false;
    let mut seen = FxHashSet::default();
    let mut stack: Vec<&Term> = constraints.iter().collect();
    while let Some(t) = stack.pop() {
        if !seen.insert(t.addr()) {
            continue;
        }
        match t.kind() {
            Kind::Var(_, Sort::Array(..)) => return None,
            Kind::Var(name, sort) if names.insert(name.clone()) => {
                vars.push((name.clone(), *sort));
            }
            Kind::Fp(..) => float = true,
            _ => {}
        }
        integers |= t.sort() == Sort::Int;
        stack.extend(t.children());
    }
    float.then_some(Query { vars, integers })
}

/// A query for the solvers in front of Z3.
struct Query {
    /// Its variables.
    vars: Vec<(Arc<str>, Sort)>,
    /// Does it hold an unbounded integer (a conversion between a float
    /// and a mathematical integer)? Those go through reals, which Bitwuzla
    /// lacks.
    integers: bool,
}

/// Our model of a solver's `values` for `vars` (in the same order); `None`
/// when a value is not of its variable's sort.
fn model_of(vars: &[(Arc<str>, Sort)], values: &[SValue]) -> Option<Model> {
    let mut model = Model::new();
    for ((name, sort), value) in vars.iter().zip(values) {
        match (sort, value) {
            (Sort::Bool, SValue::Bool(b)) => model.set_bool(name.clone(), *b),
            (Sort::Int, SValue::Int(n)) => model.set_int(name.clone(), n.clone()),
            (Sort::Bv(w), SValue::Bv(vw, n)) if u32::from(*w) == *vw => {
                model.set_int(name.clone(), n.clone())
            }
            _ => return None,
        }
    }
    (vars.len() == values.len()).then_some(model)
}
