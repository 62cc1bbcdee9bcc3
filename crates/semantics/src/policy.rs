//! How branches are decided: the second half of what a domain provides.
//!
//! [`crate::Machine::step`] asks a [`Policy`] at every decision point —
//! a branch, an assertion, an assumption, a runtime check — which sides
//! are possible, naming the [`Site`]. The policy alone knows what a path
//! is (nothing for the concrete interpreter, a path condition for
//! symbolic execution, a guard for bounded model checking), so new engines
//! are new policies and drivers, never a change to `step`:
//! * the concrete policy takes the side the value says;
//! * symbolic execution takes every side a solver finds feasible;
//! * bounded model checking takes both sides without asking, under guards;
//! * concolic execution takes the side a given input takes and records
//!   the other.

use crate::algebra::Algebra;
use crate::state::CallSite;
use wiser_ir::{ErrorKind, Site, Span};

/// The sides of a decision that a policy lets a path take, each with the
/// path information that goes with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fork<P> {
    /// The path on which the condition holds, if it may.
    pub then: Option<P>,
    /// The path on which it does not hold, if it may.
    pub otherwise: Option<P>,
}

impl<P> Fork<P> {
    /// Only the side `holds` is taken, with path `path`.
    pub fn one(holds: bool, path: P) -> Fork<P> {
        if holds {
            Fork {
                then: Some(path),
                otherwise: None,
            }
        } else {
            Fork {
                then: None,
                otherwise: Some(path),
            }
        }
    }
}

/// A branch policy over the values of algebra `A`.
pub trait Policy<A: Algebra> {
    /// What a policy keeps per path (a path condition, a guard, nothing).
    type Path: Clone;

    /// The sides a path at `path` may take at decision `site`, where the
    /// condition is `cond`. The machine asks only about conditions the
    /// algebra cannot decide itself ([`Algebra::as_bool`] is `None`): a
    /// constant condition takes its one side without a question (see
    /// [`Policy::folded`]).
    fn branch(&mut self, path: &Self::Path, site: Site, cond: &A::Value) -> Fork<Self::Path>;

    /// A decision at `site` whose condition was the constant `holds`,
    /// taken without a question (for counters and coverage; for a check,
    /// `holds` means the check faults).
    fn folded(&mut self, site: Site, holds: bool) {
        let _ = (site, holds);
    }

    /// The path on which `cond` holds, if it may: the `then` side alone,
    /// for `assume`, which drops the other side. Asked only about
    /// conditions that are not constants.
    fn assume(&mut self, path: &Self::Path, site: Site, cond: &A::Value) -> Option<Self::Path> {
        self.branch(path, site, cond).then
    }

    /// Does this path still look for the error `kind` at `span` with the
    /// call stack `stack` gives (innermost first), reached in `steps`
    /// steps? A driver that reports each bug once, and has confirmed this
    /// one on a path no longer than `steps`, says no: the machine then
    /// decides only the side on which the error does not happen, and saves
    /// the work of deciding (and replaying) an error already known. (A
    /// shorter path still looks: the driver reports the shortest.) The
    /// stack is computed only if asked for.
    fn seeks_error(
        &mut self,
        kind: ErrorKind,
        span: Span,
        steps: u64,
        stack: &dyn Fn() -> Vec<CallSite>,
    ) -> bool {
        let _ = (kind, span, steps, stack);
        true
    }

    /// Which of the threads `candidates` (ids, ascending; never empty)
    /// that may take the next step to explore, in order, at scheduling
    /// point `point` of a path; `default` is the thread a run without a
    /// schedule takes. Exploring policies take every candidate; the
    /// interpreter takes the one its schedule names.
    fn schedule(&mut self, point: u32, candidates: &[u32], default: u32) -> Vec<u32> {
        let _ = (point, default);
        candidates.to_vec()
    }

    /// Should states keep an ordered trail of their decisions? (Symbolic
    /// policies do; the concrete interpreter does only when asked, since
    /// recording costs an allocation per decision.)
    fn records_trail(&self) -> bool {
        false
    }
}
