//! What bounded model checking and the prover's encoding keep per path:
//! a guard (the conjunction of the conditions the path took, none of them
//! checked) and how often the path has unwound each loop of its frames;
//! and their policy, [`Guarded`], which takes every side of every
//! decision. Below the engines, so that both can use it.

use crate::merge::JoinPath;
use crate::symbolic::Symbolic;
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use wiser_ir::{Pc, Site};
use wiser_semantics::{Fork, Policy, Stack};
use wiser_smt::Term;

/// A path of bounded model checking.
#[derive(Clone, Debug, Default)]
pub struct Guard {
    /// The conditions the path took, newest on top.
    conds: Stack<Term>,
    /// `(frame depth, loop head, back edges taken)` of the loops of the
    /// path's frames, sorted.
    unwound: Arc<Vec<(usize, Pc, u32)>>,
}

impl Guard {
    /// The guard of the initial state: `true`.
    pub fn new() -> Guard {
        Guard::default()
    }

    /// The guard as one formula.
    pub fn formula(&self) -> Term {
        Term::and_all(self.conds.iter().cloned())
    }

    /// The conditions, oldest first (a bug's path condition).
    pub fn conditions(&self) -> Vec<Term> {
        let mut v: Vec<Term> = self.conds.iter().cloned().collect();
        v.reverse();
        v
    }

    fn with(&self, c: &Term) -> Guard {
        Guard {
            conds: self.conds.push(c.clone()),
            unwound: self.unwound.clone(),
        }
    }

    /// Counts one more back edge to loop `head` in the frame at `depth`;
    /// returns how many the path has now taken there.
    pub fn unwind(&mut self, depth: usize, head: Pc) -> u32 {
        let v = Arc::make_mut(&mut self.unwound);
        match v.binary_search_by_key(&(depth, head), |&(d, h, _)| (d, h)) {
            Ok(i) => {
                v[i].2 += 1;
                v[i].2
            }
            Err(i) => {
                v.insert(i, (depth, head, 1));
                1
            }
        }
    }

    /// Forgets the loops of frames deeper than `depth` (they returned).
    pub fn leave_frames_above(&mut self, depth: usize) {
        if self.unwound.iter().any(|&(d, ..)| d > depth) {
            Arc::make_mut(&mut self.unwound).retain(|&(d, ..)| d <= depth);
        }
    }
}

impl JoinPath for Guard {
    /// Only paths that unwound every loop as often merge, so the bound
    /// counts the same iterations on every path of a merged state.
    fn joinable(&self, other: &Self) -> bool {
        self.unwound == other.unwound
    }

    fn hash_joinable<H: Hasher>(&self, h: &mut H) {
        self.unwound.hash(h);
    }

    fn join(&self, other: &Self) -> (Self, Term) {
        let (common, only_a, only_b) = self.conds.diverge(&other.conds);
        let first = Term::and_all(only_a.into_iter().cloned());
        let either = Term::or(&first, &Term::and_all(only_b.into_iter().cloned()));
        // The two sides of an `if` join back to the common guard.
        let conds = match either.as_bool() {
            Some(true) => common,
            _ => common.push(either),
        };
        let merged = Guard {
            conds,
            unwound: self.unwound.clone(),
        };
        (merged, first)
    }
}

/// Bounded model checking's policy: every side of every decision is
/// taken, under its condition, without asking a solver (CBMC's
/// "memoryless symbolic execution": the formula decides at the end).
#[derive(Clone, Copy, Debug, Default)]
pub struct Guarded;

impl Policy<Symbolic> for Guarded {
    type Path = Guard;

    fn branch(&mut self, path: &Guard, _site: Site, cond: &Term) -> Fork<Guard> {
        Fork {
            then: Some(path.with(cond)),
            otherwise: Some(path.with(&Term::not(cond))),
        }
    }

    fn assume(&mut self, path: &Guard, _site: Site, cond: &Term) -> Option<Guard> {
        Some(path.with(cond))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_sides_of_an_if_join_back_to_the_common_guard() {
        let x = Term::int_var("x");
        let c = Term::lt(&x, &Term::int(3));
        let base = Guard::new().with(&Term::lt(&Term::int(0), &x));
        let site = Site { pc: 0, check: None };
        let fork = Guarded.branch(&base, site, &c);
        let (a, b) = (fork.then.unwrap(), fork.otherwise.unwrap());
        let (merged, first) = a.join(&b);
        assert_eq!(first, c);
        assert!(merged.conds.ptr_eq(&base.conds));
    }

    #[test]
    fn unwinding_counts_per_frame_and_loop() {
        let mut g = Guard::new();
        assert_eq!(g.unwind(0, 7), 1);
        assert_eq!(g.unwind(0, 7), 2);
        assert_eq!(g.unwind(1, 7), 1);
        g.leave_frames_above(0);
        assert_eq!(g.unwind(1, 7), 1);
        assert!(!g.joinable(&Guard::new()));
    }
}
