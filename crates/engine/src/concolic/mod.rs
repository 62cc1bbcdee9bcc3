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
use crate::report::{Incomplete, Verdict};
use crate::run::{supervise_one, Limits, Monitor, Solvers, StopSwitch};
use std::sync::Arc;
use std::time::Instant;
use wiser_ir::Ir;
use wiser_semantics::Input;

/// A concolic run and, for each of its decisions, what flipping it gave.
#[derive(Clone, Debug)]
pub struct ConcolicReport {
    /// `bug` if the run reached a bug (replayed), else `unknown`: one
    /// path says nothing about the others.
    pub verdict: Verdict,
    /// The limit of the run layer (time, memory, interrupt) that cut the
    /// run or its flips short, if one did.
    pub stopped: Option<Incomplete>,
    /// Was the worker still busy (one long step) when the run had to end?
    /// Then `run` is empty, and the process should not wait for it.
    pub abandoned: bool,
    /// The run.
    pub run: ConcolicRun,
    /// One per decision of `run`, in order; fewer when a limit stopped
    /// the run first (the other decisions were not flipped).
    pub flips: Vec<Flip>,
}

/// Runs `ir` on `input` concolically (at most `max_steps` steps) and flips
/// each decision of the path, with the solver chain `config` describes
/// (its backend, query limit, semantic options), on a worker under the
/// run layer's supervisor and limits (`config`'s time and memory,
/// `monitor`'s interrupt switch).
pub fn concolic(
    ir: Arc<Ir>,
    input: &Input,
    config: &Config,
    max_steps: u64,
    monitor: Arc<Monitor>,
) -> ConcolicReport {
    let limits = Limits::new(config, Instant::now(), monitor);
    let solvers = Arc::new(Solvers::new(config, limits.deadline));
    let stop = Arc::new(StopSwitch::default());
    let work = {
        let (input, options) = (input.clone(), config.options);
        let (solvers, stop) = (solvers.clone(), stop.clone());
        move || {
            let ran = run(&ir, &input, options, max_steps, Some(stop.flag()));
            let mut solver = solvers.chain();
            let mut flips = Vec::with_capacity(ran.decisions.len());
            for j in 0..ran.decisions.len() {
                if stop.reason().is_some() {
                    break;
                }
                flips.push(flip(&ir, &ran, j, &mut *solver));
            }
            (ran, flips)
        }
    };
    let done = supervise_one(&limits, &solvers, &stop, work);
    let abandoned = done.is_none();
    let (ran, flips) = done.unwrap_or_else(|| {
        let ran = ConcolicRun {
            input: input.clone(),
            decisions: Vec::new(),
            covered: Vec::new(),
            outcome: RunOutcome::Stopped,
            steps: 0,
            read_pcs: Vec::new(),
        };
        (ran, Vec::new())
    });
    let verdict = if matches!(ran.outcome, RunOutcome::Bug(_)) {
        Verdict::Bug
    } else {
        Verdict::Unknown
    };
    ConcolicReport {
        verdict,
        stopped: stop.reason(),
        abandoned,
        run: ran,
        flips,
    }
}

#[cfg(test)]
mod tests;
