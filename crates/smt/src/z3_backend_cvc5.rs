//! Asking cvc5 a query with float operations, before Z3 (see
//! `cvc5_backend.rs` for why). The float encoding is defined once, as the
//! Z3 translation: cvc5 reads its standard SMT-LIB rendering (what
//! `WISER_Z3_DUMP` writes), with `get-value` for the query's variables.
//! Whatever cvc5 does not decide goes on to Z3 with the time left, and a
//! model is believed only once our own evaluator agrees that it
//! satisfies every constraint.

use super::{new_z3_solver, z3_var, Z3Solver};
use crate::cvc5_backend::{SValue, Verdict};
use crate::model::Model;
use crate::solver::Answer;
use crate::term::{Kind, Sort, Term};
use rustc_hash::FxHashSet;
use std::sync::Arc;
use std::time::Instant;

impl Z3Solver {
    /// cvc5's answer to `constraints` when it decides them by `deadline`
    /// (or the deadline passes); `None` when the query is not for cvc5 or
    /// cvc5 did not decide it, and Z3 must.
    pub(super) fn ask_cvc5(
        &mut self,
        constraints: &[Term],
        deadline: Option<Instant>,
    ) -> Option<Answer> {
        let cvc5 = self.cvc5.clone()?;
        let vars = cvc5_vars(constraints)?;
        self.stats.cvc5_queries += 1;
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
        let answer = match cvc5.check(&script, names.len(), deadline) {
            Ok(Verdict::Unsat) => Some(Answer::Unsat),
            Ok(Verdict::Sat(values)) => model_of(&vars, &values)
                .filter(|m| constraints.iter().all(|c| m.holds(c)))
                .map(Answer::Sat),
            Ok(Verdict::Unknown) => None,
            Err(e) => {
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    return Some(Answer::Unknown(e.to_string()));
                }
                None
            }
        };
        match &answer {
            Some(Answer::Sat(_)) => self.stats.cvc5_sat += 1,
            Some(Answer::Unsat) => self.stats.cvc5_unsat += 1,
            _ => self.stats.cvc5_fallbacks += 1,
        }
        answer
    }
}

/// The variables of `constraints`, if they are a query for cvc5: one with
/// a float operation and no array (arrays stay with Z3, whose models of
/// them `extract` reads).
fn cvc5_vars(constraints: &[Term]) -> Option<Vec<(Arc<str>, Sort)>> {
    let mut vars = Vec::new();
    let mut names = FxHashSet::default();
    let mut float = false;
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
        stack.extend(t.children());
    }
    float.then_some(vars)
}

/// Our model of cvc5's `values` for `vars` (in the same order); `None`
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
