//! The disjunction of two path conditions, for state merging.
//!
//! Two states that reach the same point share the start of their paths:
//! the constraints added before they forked sit on one persistent stack,
//! and most box entries are equal. The merged path condition keeps that
//! common part as it is and adds one constraint, `φa or φb`, where `φa`
//! and `φb` are what each path added since (its own constraints and the
//! box entries that differ). So the merge is exact: the merged condition
//! holds for exactly the inputs that take one of the two paths.

use super::{universe, Boxed, PathCond, ValueSet, MAX_PARTS};
use crate::path::set_terms;
use std::sync::Arc;
use wiser_smt::Term;

/// The disjunction of two path conditions.
pub struct Joined {
    /// The merged path condition.
    pub path: PathCond,
    /// What only the first path required (`φa`): a value that differs
    /// between the two states becomes `ite(φa, first, second)`.
    pub first_only: Term,
}

impl PathCond {
    /// `self or other`, keeping their common part as it is. The model is
    /// the first path's (moved into its box), which satisfies the merge.
    pub fn join(&self, other: &PathCond) -> Joined {
        let (common, only_a, only_b) = self.constraints.diverge(&other.constraints);
        let mut only_a: Vec<Term> = only_a.into_iter().map(|c| c.term.clone()).collect();
        let mut only_b: Vec<Term> = only_b.into_iter().map(|c| c.term.clone()).collect();
        let mut merged = PathCond {
            boxed: self.boxed.clone(),
            constraints: common,
            constrained: self.constrained.clone(),
            model: None,
            unknown: self.unknown || other.unknown,
            seq: self.seq.max(other.seq),
        };
        for v in other.constrained.iter() {
            Arc::make_mut(&mut merged.constrained).insert_mut(v.clone());
        }
        for (x, a) in self.boxed.iter() {
            match &other.boxed.get(x) {
                Some(b) if b.set == a.set => {}
                b => {
                    only_a.extend(set_terms(x, &a.set));
                    let b_set = match b {
                        Some(b) => {
                            only_b.extend(set_terms(x, &b.set));
                            b.set.clone()
                        }
                        None => universe(x),
                    };
                    let seq = a.seq.max(b.as_ref().map_or(0, |b| b.seq));
                    match union(&a.set, &b_set) {
                        Some(set) if !set.is_all() => {
                            merged.boxed.insert_mut(x.clone(), Boxed { set, seq });
                        }
                        _ => {
                            merged.boxed.remove_mut(x);
                        }
                    }
                }
            }
        }
        for (x, b) in other.boxed.iter() {
            if !self.boxed.contains_key(x) {
                // Unbounded on the first path: the union is everything.
                only_b.extend(set_terms(x, &b.set));
            }
        }
        let first_only = Term::and_all(only_a);
        let either = Term::or(&first_only, &Term::and_all(only_b));
        merged.add(&either);
        merged.model = self
            .effective_model()
            .or_else(|| other.effective_model())
            .map(Arc::new);
        if merged.model.is_none() {
            merged.unknown = true;
        }
        Joined {
            path: merged,
            first_only,
        }
    }
}

/// The union of two sets, if it stays a box entry (few enough parts).
fn union(a: &ValueSet, b: &ValueSet) -> Option<ValueSet> {
    let set = ValueSet::from_parts(a.parts().iter().chain(b.parts()).cloned());
    (set.parts().len() <= MAX_PARTS).then_some(set)
}

#[cfg(test)]
mod tests {
    use super::*;
    use wiser_num::Int;

    #[test]
    fn a_join_is_the_disjunction_and_keeps_the_common_part() {
        let (x, y) = (Term::int_var("x"), Term::int_var("y"));
        let mut base = PathCond::new();
        base.add(&Term::lt(&Term::mul(&y, &y), &Term::int(50)));
        base.add(&Term::le(&Term::int(0), &y));
        let mut a = base.clone();
        a.add(&Term::lt(&x, &Term::int(10)));
        let mut b = base.clone();
        b.add(&Term::le(&Term::int(10), &x));
        b.add(&Term::lt(&Term::mul(&x, &y), &Term::int(7)));
        let joined = a.join(&b);
        let m = joined.path.effective_model().expect("a's model");
        for t in joined.path.terms() {
            assert!(m.holds(&t), "{t}");
        }
        // x is unconstrained by bounds after the join (both sides of 10).
        assert!(!joined.path.is_boxed(&x));
        assert_eq!(joined.first_only, Term::lt(&x, &Term::int(10)));
        // y's bound and the common constraint survive unchanged.
        assert!(joined.path.is_boxed(&y));
        let terms = joined.path.terms();
        assert!(terms.contains(&Term::lt(&Term::mul(&y, &y), &Term::int(50))));
        assert_eq!(joined.path.value(&y), Some(Int::ZERO));
    }
}
