//! The bugs a run has confirmed, as a set the symbolic policy consults:
//! a run that reports each bug once (kind, location, call stack) need not
//! decide, confirm or replay the same error again on another path.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::RwLock;
use wiser_ir::{ErrorKind, Span};
use wiser_semantics::CallSite;

/// The call stacks with which a bug was reached, per kind and location.
type BugsByPlace = HashMap<(ErrorKind, Span), HashSet<Vec<CallSite>>>;

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

    /// Adds a confirmed bug.
    pub fn insert(&self, kind: ErrorKind, span: Span, stack: Vec<CallSite>) {
        let mut bugs = self.bugs.write().unwrap_or_else(|e| e.into_inner());
        bugs.entry((kind, span)).or_default().insert(stack);
        self.any.store(true, Ordering::Release);
    }

    /// Is this bug known? The stack is computed only when a bug of this
    /// kind is known at this place.
    pub fn contains(&self, kind: ErrorKind, span: Span, stack: &dyn Fn() -> Vec<CallSite>) -> bool {
        if !self.any.load(Ordering::Acquire) {
            return false;
        }
        let bugs = self.bugs.read().unwrap_or_else(|e| e.into_inner());
        bugs.get(&(kind, span))
            .is_some_and(|stacks| stacks.contains(&stack()))
    }
}
