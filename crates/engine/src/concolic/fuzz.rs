//! Whitebox fuzzing (SAGE: Godefroid, Levin and Molnar, NDSS 2008; seed
//! 004's GenerateInputs and ExpandExecution).
//!
//! The seed input is run (Run&Check: a concolic run; an error is a bug
//! once it replays) and put on the work list with bound 0. Then, until
//! the list is empty or a limit is hit, the best input is taken and
//! expanded: each decision `j` of its path from its bound on is flipped
//! ([`super::flip`]); each child input is run, scored and added with
//! bound `j + 1`. A child's path agrees with its parent's before `j` and
//! differs at `j`, so flipping `j` again (or anything before it) would
//! only come back to paths already generated: the bound is what makes
//! every generated path new. Decisions of `assume`s that held are not
//! flipped (the other side leaves the program's domain).
//!
//! The score of an input is its *unique coverage*, taken when it is
//! picked: the branch sides its run covered that no other run has
//! covered so far (a side covered later by another run stops counting).
//! Ties go to the newest generation, then to the oldest input (the
//! smallest run number). Newest generation first sends the search deep
//! along the inputs that just found something, which is what reaches
//! SAGE's `top` bug in 9 runs from "good".
//!
//! Fuzzing is not complete: it never says `safe`, only that every path it
//! generated was run.

use super::workers::{Answer, Crew, Gone, Task};
use crate::config::Config;
use crate::report::branch_coverage::SessionCoverage;
use crate::report::{
    ConcolicRun, DecisionKind, Extra, FuzzStats, Incomplete, Report, RunOutcome, Verdict,
};
use crate::run::{Limits, Monitor, Poll, Solvers, Watch};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;
use wiser_ir::{ErrorKind, Ir, Span};
use wiser_semantics::{CallSite, Input};

/// Limits of a fuzzing session besides the [`Config`]'s time limit.
#[derive(Clone, Copy, Debug)]
pub struct FuzzLimits {
    /// Runs at most (the seed's run is run 1).
    pub max_runs: u64,
    /// Steps per run at most.
    pub max_steps: u64,
}

impl Default for FuzzLimits {
    fn default() -> Self {
        FuzzLimits {
            max_runs: 10_000,
            max_steps: 1_000_000,
        }
    }
}

/// An input on the work list.
struct Item {
    run: Arc<ConcolicRun>,
    /// Its run number (from 1).
    number: u64,
    generation: u32,
    bound: usize,
}

/// Fuzzes `ir` from `seed` under `config` (its time and memory limits,
/// jobs, solver and backend, semantic options, `all_bugs`) and `limits`,
/// publishing the run count in `monitor.states` and stopping with what
/// was found when `monitor.interrupt` is set. The report's extra is
/// [`Extra::Fuzz`].
pub fn fuzz(
    ir: Arc<Ir>,
    seed: Input,
    config: &Config,
    limits: FuzzLimits,
    monitor: Arc<Monitor>,
) -> Report {
    let start = Instant::now();
    let run_limits = Limits::new(config, start, monitor.clone());
    let mut session = Session {
        report: Report::empty(Verdict::Unknown, Extra::Symex),
        stats: FuzzStats {
            runs: 0,
            found_by: Vec::new(),
            coverage: SessionCoverage::new(&ir),
            flips: 0,
            infeasible: 0,
            concretised: 0,
            dropped: 0,
            assume_failed: 0,
            out_of_steps: 0,
            cut: 0,
        },
        work: Vec::new(),
        all_bugs: config.all_bugs,
        monitor: monitor.clone(),
        limits: run_limits,
        ended: None,
        stacks: Vec::new(),
    };
    let solvers = Arc::new(Solvers::new(config, session.limits.deadline));
    let crew = Crew::start(
        ir,
        config.jobs,
        solvers,
        config.options,
        limits.max_steps,
        limits.max_runs,
    );
    let Some(crew) = crew else {
        session
            .report
            .internal_errors
            .push("internal error: no worker thread could be started".into());
        return session.finish(start);
    };
    crew.submit(0, Task::Run(seed));
    let seed_run = session.collect(&crew, 1);
    for (_, answer) in seed_run {
        session.take(answer, 0, 0);
    }
    while session.ended.is_none() && !session.work.is_empty() {
        if session.stats.runs >= limits.max_runs {
            session.ended = Some(Incomplete::MaxRuns);
            break;
        }
        let Some(item) = session.pick() else {
            break;
        };
        let mut tasks = 0;
        for (j, d) in item.run.decisions.iter().enumerate().skip(item.bound) {
            // The other side of an assumption that held is outside the
            // program's domain.
            if d.kind == DecisionKind::Assume && d.taken {
                continue;
            }
            let task = Task::Flip {
                parent: item.run.clone(),
                j,
            };
            crew.submit(j, task);
            tasks += 1;
        }
        let mut answers = session.collect(&crew, tasks);
        // Run numbers follow the order of the flipped decisions, whatever
        // order the workers finished in.
        answers.sort_by_key(|a| a.0);
        for (j, answer) in answers {
            session.take(answer, item.generation + 1, j + 1);
        }
    }
    session.stats.flips = crew.queries();
    drop(crew);
    session.finish(start)
}

struct Session {
    /// The report so far: its extra is a placeholder until
    /// [`Session::finish`] sets it from `stats`.
    report: Report,
    stats: FuzzStats,
    work: Vec<Item>,
    all_bugs: bool,
    monitor: Arc<Monitor>,
    limits: Limits,
    ended: Option<Incomplete>,
    /// Every (kind, place, call stack) found: a place is reported once,
    /// with the other stacks that reach it counted.
    stacks: Vec<(ErrorKind, Span, Vec<CallSite>)>,
}

impl Session {
    /// Collects `n` answers under the run layer's [`Watch`] (limits
    /// looked at between any two answers); once the session must end,
    /// waits at most [`crate::run::GRACE`] for the rest.
    fn collect(&mut self, crew: &Crew, n: usize) -> Vec<(usize, Answer)> {
        let mut got = Vec::with_capacity(n);
        let mut watch = Watch::new(&self.limits, crew.solvers());
        while got.len() < n {
            match crew.next(watch.wait()) {
                Ok(Some(a)) => got.push(a),
                Ok(None) => {}
                // Workers end when they are stopped: nothing more comes.
                Err(Gone) if crew.stopped() => break,
                // Ctrl-C reaches the solver processes too (one process
                // group): workers may end before the watch sees it.
                Err(Gone) if self.monitor.interrupt.load(Ordering::SeqCst) => {
                    self.ended.get_or_insert(Incomplete::Interrupted);
                    break;
                }
                Err(Gone) => {
                    self.report
                        .internal_errors
                        .push("internal error: every fuzzing worker ended".into());
                    self.ended.get_or_insert(Incomplete::Interrupted);
                    break;
                }
            }
            let ended = &mut self.ended;
            let poll = watch.poll(
                |why| {
                    ended.get_or_insert(why);
                    crew.stop();
                },
                || crew.stopped(),
            );
            if poll == Poll::Abandon {
                // The crew does not say how many are still busy: one at
                // least, which is what the process needs to know.
                self.report.stats.abandoned_workers = 1;
                break;
            }
        }
        got
    }

    /// Records one answer; a new run joins the work list with `bound`.
    fn take(&mut self, answer: Answer, generation: u32, bound: usize) {
        let (run, concretised) = match answer {
            Answer::Ran(run, c) => (run, c),
            Answer::Infeasible => {
                self.stats.infeasible += 1;
                return;
            }
            Answer::Dropped => {
                // A query cut short by the end of the session is no drop.
                if self.ended.is_none() {
                    self.stats.dropped += 1;
                }
                return;
            }
            Answer::NoBudget | Answer::Stopped => return,
        };
        self.stats.runs += 1;
        self.stats.concretised += u64::from(concretised);
        self.monitor
            .states
            .store(self.stats.runs, Ordering::Relaxed);
        let number = self.stats.runs;
        self.stats.coverage.add((number - 1) as usize, &run.covered);
        match &run.outcome {
            RunOutcome::Bug(bug) => {
                let seen = (bug.kind, bug.span, bug.stack.clone());
                let new_stack = !self.stacks.contains(&seen);
                if new_stack {
                    self.stacks.push(seen);
                }
                let place = self
                    .report
                    .bugs
                    .iter_mut()
                    .find(|b| (b.kind, b.span) == (bug.kind, bug.span));
                if let Some(first) = place {
                    first.other_stacks += usize::from(new_stack);
                } else {
                    self.report.bugs.push((**bug).clone());
                    self.stats.found_by.push(number);
                    self.monitor.bugs.fetch_add(1, Ordering::Relaxed);
                }
                if !self.all_bugs {
                    self.ended.get_or_insert(Incomplete::StoppedAtFirstBug);
                }
            }
            RunOutcome::Mismatch(m) => self.report.internal_errors.push(m.clone()),
            RunOutcome::AssumeFailed { .. } => self.stats.assume_failed += 1,
            RunOutcome::OutOfSteps => self.stats.out_of_steps += 1,
            RunOutcome::Cut(_) => self.stats.cut += 1,
            RunOutcome::Halted | RunOutcome::Stopped => {}
        }
        self.work.push(Item {
            run: Arc::from(run),
            number,
            generation,
            bound,
        });
    }

    /// Takes the best input off the work list: highest unique coverage,
    /// then newest generation, then oldest input.
    fn pick(&mut self) -> Option<Item> {
        let coverage = &self.stats.coverage;
        let best = self
            .work
            .iter()
            .enumerate()
            .max_by_key(|(_, it)| {
                (
                    coverage.unique((it.number - 1) as usize),
                    it.generation,
                    std::cmp::Reverse(it.number),
                )
            })
            .map(|(i, _)| i)?;
        Some(self.work.swap_remove(best))
    }

    fn finish(self, start: Instant) -> Report {
        let mut report = self.report;
        report.incomplete = vec![self.ended.unwrap_or(Incomplete::WorkListEmpty)];
        if !report.bugs.is_empty() {
            report.verdict = Verdict::Bug;
        }
        report.stats.elapsed = start.elapsed();
        report.extra = Extra::Fuzz(Box::new(self.stats));
        report
    }
}
