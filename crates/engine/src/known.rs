//! The bugs a run has confirmed, as a set the symbolic policy consults:
//! a run that reports each bug once (kind, location, call stack) need not
//! decide, confirm or replay the same error again on a path that would
//! not be reported anyway.
//!
//! Which path a run reports for a bug must not depend on which worker
//! found it first, so each bug keeps the least path found so far in a
//! fixed order, shortest first ([`crate::witness::Bug::key`]): a path as
//! short as the known one still looks for the error, and a path of equal
//! length is confirmed if its path condition comes first. On an
//! exhaustive run the reported path is then the least of all, whatever
//! the timing.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::RwLock;
use wiser_ir::{ErrorKind, Span};
use wiser_semantics::CallSite;
use wiser_smt::Term;

/// The least path known to each bug: its length and path condition.
type Least = (u64, Vec<Term>);

/// The call stacks with which a bug was reached, per kind and location,
/// each with its least path.
type BugsByPlace = HashMap<(ErrorKind, Span), HashMap<Vec<CallSite>, Least>>;

/// Confirmed bugs, shared by the workers of a run.
#[derive(Default)]
pub struct KnownBugs {
    /// Is the set non-empty? Read on every decision, so checked first.
    any: AtomicBool,
    bugs: RwLock<BugsByPlace>,
}

impl KnownBugs {
    /// The empty set.
    pub fn new() -> KnownBugs {
        KnownBugs::default()
    }

    /// Adds a confirmed bug, reached in `steps` steps under `path`; keeps
    /// the least path of each bug.
    pub fn insert(
        &self,
        kind: ErrorKind,
        span: Span,
        stack: Vec<CallSite>,
        steps: u64,
        path: Vec<Term>,
    ) {
        let mut bugs = self.bugs.write().unwrap_or_else(|e| e.into_inner());
        let least = bugs.entry((kind, span)).or_default().entry(stack);
        let new = (steps, path);
        least
            .and_modify(|old| {
                if new < *old {
                    *old = new.clone();
                }
            })
            .or_insert(new);
        self.any.store(true, Ordering::Release);
    }

    /// Is this bug known from a path that comes before one of `steps`
    /// steps (shorter; or, when `path` is given, as short with a path
    /// condition that comes first or is the same)? The stack and the path
    /// condition are computed only when a bug of this kind is known at
    /// this place.
    pub fn beaten(
        &self,
        kind: ErrorKind,
        span: Span,
        stack: &dyn Fn() -> Vec<CallSite>,
        steps: u64,
        path: Option<&dyn Fn() -> Vec<Term>>,
    ) -> bool {
        if !self.any.load(Ordering::Acquire) {
            return false;
        }
        let bugs = self.bugs.read().unwrap_or_else(|e| e.into_inner());
        let Some(stacks) = bugs.get(&(kind, span)) else {
            return false;
        };
        let Some((s, p)) = stacks.get(&stack()) else {
            return false;
        };
        match path {
            _ if *s != steps => *s < steps,
            None => false,
            Some(path) => *p <= path(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shorter_or_earlier_path_still_counts() {
        let known = KnownBugs::new();
        let (kind, span) = (ErrorKind::Assertion, Span::new(1, 2));
        let stack = Vec::new;
        assert!(!known.beaten(kind, span, &stack, 5, None));
        let (a, b) = (Term::int_var("a"), Term::int_var("b"));
        let (first, second) = if a < b { (a, b) } else { (b, a) };
        known.insert(kind, span, vec![], 5, vec![second.clone()]);
        assert!(known.beaten(kind, span, &stack, 6, None), "longer");
        assert!(
            !known.beaten(kind, span, &stack, 5, None),
            "as long: decide"
        );
        assert!(!known.beaten(kind, span, &stack, 4, None), "shorter");
        let later = || vec![second.clone()];
        let earlier = || vec![first.clone()];
        assert!(
            known.beaten(kind, span, &stack, 5, Some(&later)),
            "same path"
        );
        assert!(!known.beaten(kind, span, &stack, 5, Some(&earlier)));
        known.insert(kind, span, vec![], 5, vec![first.clone()]);
        assert!(known.beaten(kind, span, &stack, 5, Some(&later)));
        known.insert(kind, span, vec![], 6, vec![]);
        assert!(
            known.beaten(kind, span, &stack, 5, Some(&later)),
            "kept the least"
        );
    }
}
