//! The one expansion step every driver uses: take a state, and either
//! confirm the bug it is stuck on (find a witness, replay it), report an
//! error outside the property (not a bug: its path just ends), report that
//! its path ended normally, or step it and hand its successors on.
//!
//! WiSE's [`crate::Explorer`] iterator and the parallel workers of
//! [`crate::check`] differ only in where states wait and how results are
//! collected; what happens to one state is written here once.

use crate::config::Property;
use crate::path::PathCond;
use crate::symbolic::{Feasible, Symbolic};
use crate::witness::{self, Bug, Replay, SymState};
use wiser_ir::{ErrorKind, Ir, Span};
use wiser_semantics::{Machine, Options, State};
use wiser_smt::Solver;

/// What expanding one state produced.
pub enum Expansion {
    /// The state was stepped; its successors (possibly none: an `assume`
    /// that cannot hold) were handed on.
    Stepped,
    /// The program ended normally on this path.
    Final(Box<SymState>),
    /// A reachable error, with an input that was replayed and reaches it.
    Bug(Box<Bug>),
    /// An error state whose path is infeasible after all (possible only
    /// after a solver `unknown`).
    Infeasible,
    /// An error state whose reachability could not be decided (the solver
    /// answered unknown).
    Undecided,
    /// An engine fault: a witness did not replay. Reported, never hidden.
    Internal(String),
    /// An error already confirmed on another path (with the same kind,
    /// place and call stack), not confirmed again.
    Known,
    /// A reachable error of a kind outside the property: not a bug, and
    /// not confirmed; its path ends here, and the run cannot be `safe`.
    OutsideProperty(ErrorKind, Span),
}

/// A machine, the symbolic algebra and a symbolic policy: all one worker
/// needs to expand states of one program.
pub struct Expander<'ir, S: Solver> {
    machine: Machine<'ir, Symbolic>,
    alg: Symbolic,
    policy: Feasible<S>,
    property: Property,
}

impl<'ir, S: Solver> Expander<'ir, S> {
    /// An expander of `ir` deciding with `policy`, under `options`.
    pub fn new(ir: &'ir Ir, policy: Feasible<S>, options: Options) -> Self {
        Expander {
            machine: Machine::with_options(ir, options),
            alg: Symbolic::new(),
            policy,
            property: Property::all(),
        }
    }

    /// Only errors of the kinds in `property` are bugs.
    pub fn with_property(mut self, property: Property) -> Self {
        self.property = property;
        self
    }

    /// The program's initial state.
    pub fn initial(&mut self) -> SymState {
        State::initial(self.machine.ir(), &mut self.alg, PathCond::new())
    }

    /// The policy (for its counters and solver).
    pub fn policy(&mut self) -> &mut Feasible<S> {
        &mut self.policy
    }

    /// Expands `state`, pushing its successors onto `out`.
    pub fn expand(&mut self, state: SymState, out: &mut Vec<SymState>) -> Expansion {
        let ir = self.machine.ir();
        if let Some((kind, span)) = state.error() {
            if !self.property.contains(kind) {
                // Not a bug, so no witness: the policy found the error side
                // feasible, unless a solver `unknown` on the way leaves
                // that open.
                return if state.path.unknown {
                    Expansion::Undecided
                } else {
                    Expansion::OutsideProperty(kind, span)
                };
            }
            let path = || state.path.terms();
            if self.policy.is_known(
                kind,
                span,
                &|| state.call_stack(ir),
                state.steps,
                Some(&path),
            ) {
                return Expansion::Known;
            }
            // A path replays in exactly as many steps as led to it.
            let max_steps = state.steps + 1;
            let options = self.machine.options();
            return match witness::confirm(ir, &state, self.policy.solver(), max_steps, options) {
                Replay::Confirmed(mut bug) => {
                    // The symbolic path's length, which the search orders
                    // by (the replay's may count differently).
                    bug.steps = state.steps;
                    Expansion::Bug(bug)
                }
                Replay::Infeasible => Expansion::Infeasible,
                Replay::Undecided => Expansion::Undecided,
                Replay::Mismatch(msg) => Expansion::Internal(msg),
            };
        }
        if state.is_final(ir) {
            return Expansion::Final(Box::new(state));
        }
        self.machine
            .step(&mut self.alg, &mut self.policy, state, out);
        Expansion::Stepped
    }
}
