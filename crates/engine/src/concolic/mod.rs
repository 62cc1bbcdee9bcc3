//! Concolic execution and whitebox fuzzing (seed 004: SAGE).
//!
//! Both run the one `Machine::step` over the symbolic algebra with the
//! [`FollowInput`] policy, which takes at every decision the side a
//! concrete input takes (by evaluating the condition's term under the
//! input as a model) and makes the machine record the trail of symbolic
//! decisions. Nothing here re-encodes an operator, a check or a guard.
//!
//! * [`policy`]: the policy;
//! * [`run()`]: one concolic run — decisions, branch sides covered, how it
//!   ended (an error is a bug only after it replays on the concrete
//!   interpreter);
//! * [`flip()`]: an input taking the other side of one decision (with
//!   SAGE's Combine and concretisation after a solver `unknown`);
//! * [`concolic()`]: one run and, for each decision, whether its other
//!   side is feasible and an input that takes it (`wiser concolic`);
//! * [`fuzz()`]: SAGE's GenerateInputs / ExpandExecution (`wiser fuzz`),
//!   with [`Coverage`] of branch sides.

mod coverage;
mod flip;
mod fuzz;
pub mod policy;
mod run;
mod workers;

pub use coverage::{Coverage, RoutineCoverage, Uncovered};
pub use flip::{flip, Flip};
pub use fuzz::{fuzz, FuzzBug, FuzzLimits, FuzzReport};
pub use policy::FollowInput;
pub use run::{decision_kind, run, ConcolicRun, Decision, DecisionKind, RunOutcome};

use crate::config::Config;
use crate::run::Solvers;
use std::time::Instant;
use wiser_ir::Ir;
use wiser_semantics::Input;

/// A concolic run and, for each of its decisions, what flipping it gave.
#[derive(Clone, Debug)]
pub struct ConcolicReport {
    /// The run.
    pub run: ConcolicRun,
    /// One per decision of `run`, in order.
    pub flips: Vec<Flip>,
}

/// Runs `ir` on `input` concolically (at most `max_steps` steps) and flips
/// each decision of the path, with the solver chain `config` describes
/// (its backend, query limit, semantic options and time limit).
pub fn concolic(ir: &Ir, input: &Input, config: &Config, max_steps: u64) -> ConcolicReport {
    let deadline = config.timeout.map(|t| Instant::now() + t);
    let solvers = Solvers::new(config, deadline);
    let mut solver = solvers.chain();
    let ran = run(ir, input, config.options, max_steps, None);
    let flips = (0..ran.decisions.len())
        .map(|j| flip(ir, &ran, j, &mut *solver))
        .collect();
    ConcolicReport { run: ran, flips }
}

#[cfg(test)]
mod tests;
