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

mod flip;
mod fuzz;
pub mod policy;
mod run;
mod workers;

pub use crate::report::branch_coverage::{RoutineCoverage, SessionCoverage, Uncovered};
pub use crate::report::extra::RunDecision;
pub use crate::report::{ConcolicRun, DecisionKind, Flip, FuzzStats, RunOutcome};
pub use flip::flip;
pub use fuzz::{fuzz, FuzzLimits};
pub use policy::FollowInput;
pub use run::{decision_kind, run};

use crate::config::Config;
use crate::report::{ConcolicExtra, Extra, Report, Stats, Verdict};
use crate::run::{supervise_one, Limits, Monitor, Solvers, StopSwitch};
use std::sync::Arc;
use std::time::Instant;
use wiser_ir::Ir;
use wiser_semantics::Input;

/// Runs `ir` on `input` concolically (at most `max_steps` steps) and flips
/// each decision of the path, with the solver chain `config` describes
/// (its backend, query limit, semantic options), on a worker under the
/// run layer's supervisor and limits (`config`'s time and memory,
/// `monitor`'s interrupt switch). The verdict is `bug` if the run reached
/// a bug (replayed), else `unknown`: one path says nothing about the
/// others. The report's `incomplete` holds the limit of the run layer
/// that cut the run or its flips short, if one did; its extra is
/// [`Extra::Concolic`].
pub fn concolic(
    ir: Arc<Ir>,
    input: &Input,
    config: &Config,
    max_steps: u64,
    monitor: Arc<Monitor>,
) -> Report {
    let start = Instant::now();
    let limits = Limits::new(config, start, monitor);
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
    let (bugs, internal_errors) = match &ran.outcome {
        RunOutcome::Bug(bug) => (vec![(**bug).clone()], Vec::new()),
        RunOutcome::Mismatch(m) => (Vec::new(), vec![m.clone()]),
        _ => (Vec::new(), Vec::new()),
    };
    let verdict = if bugs.is_empty() {
        Verdict::Unknown
    } else {
        Verdict::Bug
    };
    let extra = Extra::Concolic(Box::new(ConcolicExtra { run: ran, flips }));
    Report {
        bugs,
        incomplete: stop.reason().into_iter().collect(),
        internal_errors,
        stats: Stats {
            elapsed: start.elapsed(),
            abandoned_workers: usize::from(abandoned),
            ..Stats::default()
        },
        ..Report::empty(verdict, extra)
    }
}

#[cfg(test)]
mod tests;
