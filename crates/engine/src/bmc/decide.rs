//! The queries of bounded model checking, the witnesses they give, and
//! the deepening of the bound.

use super::explore::{unroll, ErrorPath, Unrolled};
use super::Bmc;
use crate::chain::Solvers;
use crate::config::Config;
use crate::memory::{peak_resident_bytes, resident_bytes};
use crate::parallel::Monitor;
use crate::report::{Incomplete, Report, Stats, Verdict};
use crate::witness::{input_from_model, Bug};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use wiser_ir::{Cfg, ErrorKind, Ir, Span};
use wiser_semantics::concrete::{self, Outcome};
use wiser_smt::{Answer, Model, Solver, Term};

/// What a bounded-model-checking run found, and at which bound.
#[derive(Clone, Debug)]
pub struct BmcReport {
    /// The verdict, bugs and counters, as `check` reports them; an
    /// `unknown` for want of a larger bound says [`Incomplete::UnwindBound`].
    pub report: Report,
    /// The last bound tried.
    pub bound: u32,
}

/// Runs bounded model checking on `ir` with the limits, property and
/// solver of `config`, publishing the interrupt switch in `monitor`.
pub fn bmc(ir: Arc<Ir>, config: &Config, bmc: &Bmc, monitor: Arc<Monitor>) -> BmcReport {
    let start = Instant::now();
    let deadline = config.timeout.map(|t| start + t);
    let solvers = Arc::new(Solvers::new(config, deadline));
    let done = Arc::new(AtomicBool::new(false));
    let watcher = watch(solvers.clone(), monitor.clone(), done.clone());
    let stop = || -> Option<Incomplete> {
        if monitor.interrupt.load(Ordering::Relaxed) {
            Some(Incomplete::Interrupted)
        } else if deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Incomplete::Timeout)
        } else if config
            .max_memory
            .is_some_and(|m| resident_bytes().unwrap_or(0) >= m)
        {
            Some(Incomplete::MaxMemory)
        } else {
            None
        }
    };
    let cfg = Arc::new(Cfg::new(&ir));
    let mut solver = solvers.bare();
    let mut stats = Stats::default();
    let mut k = bmc.unwind;
    let (verdict, bugs, incomplete, internal_errors, outside) = loop {
        let unrolled = unroll(&ir, &cfg, bmc, k, config.options, &stop);
        stats.states += unrolled.states;
        stats.merges += unrolled.merges;
        monitor.states.store(stats.states, Ordering::Relaxed);
        if let Some(why) = unrolled.stopped {
            break (Verdict::Unknown, vec![], vec![why], vec![], vec![]);
        }
        let mut q = Queries {
            ir: &ir,
            config,
            solver: &mut *solver,
            unrolled: &unrolled,
        };
        let (bugs, mut internal) = match q.bugs() {
            Ok(found) => found,
            Err(why) => {
                break (
                    Verdict::Unknown,
                    vec![],
                    vec![stopped(why, &stop)],
                    vec![],
                    vec![],
                )
            }
        };
        if !bugs.is_empty() {
            monitor.bugs.store(bugs.len() as u64, Ordering::Relaxed);
            let mut incomplete = vec![];
            if !internal.is_empty() {
                incomplete.push(Incomplete::InternalError);
            }
            break (
                Verdict::Bug,
                bugs,
                incomplete,
                std::mem::take(&mut internal),
                vec![],
            );
        }
        if !internal.is_empty() {
            break (
                Verdict::Unknown,
                vec![],
                vec![Incomplete::InternalError],
                internal,
                vec![],
            );
        }
        let outside = match q.outside_property() {
            Ok(o) => o,
            Err(why) => {
                break (
                    Verdict::Unknown,
                    vec![],
                    vec![stopped(why, &stop)],
                    vec![],
                    vec![],
                )
            }
        };
        if !outside.is_empty() {
            break (
                Verdict::Unknown,
                vec![],
                vec![Incomplete::OutsideProperty],
                vec![],
                outside,
            );
        }
        let bound_enough = if unrolled.cut.is_empty() {
            Ok(true)
        } else if bmc.unwinding_assertions {
            q.bound_unreachable()
        } else {
            Ok(false)
        };
        match bound_enough {
            Ok(true) => break (Verdict::Safe, vec![], vec![], vec![], vec![]),
            Err(why) => {
                break (
                    Verdict::Unknown,
                    vec![],
                    vec![stopped(why, &stop)],
                    vec![],
                    vec![],
                )
            }
            Ok(false) if bmc.unwind_max.is_some_and(|m| k < m) => k += 1,
            Ok(false) => {
                break (
                    Verdict::Unknown,
                    vec![],
                    vec![Incomplete::UnwindBound],
                    vec![],
                    vec![],
                )
            }
        }
    };
    done.store(true, Ordering::Relaxed);
    let _ = watcher.join();
    solver.stats(&mut stats.solver);
    stats.elapsed = start.elapsed();
    stats.peak_memory = peak_resident_bytes().unwrap_or(0);
    BmcReport {
        report: Report {
            verdict,
            bugs,
            incomplete,
            internal_errors,
            outside_property: outside,
            stats,
        },
        bound: k,
    }
}

/// Ends solver queries at once when the run is interrupted.
fn watch(
    solvers: Arc<Solvers>,
    monitor: Arc<Monitor>,
    done: Arc<AtomicBool>,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        while !done.load(Ordering::Relaxed) {
            if monitor.interrupt.load(Ordering::Relaxed) {
                solvers.stop_all();
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    })
}

/// Why a query had no answer: the run's end if it came, else the solver.
fn stopped(unknown: Incomplete, stop: &dyn Fn() -> Option<Incomplete>) -> Incomplete {
    stop().unwrap_or(unknown)
}

/// The queries about one unrolling.
struct Queries<'a> {
    ir: &'a Ir,
    config: &'a Config,
    solver: &'a mut dyn Solver,
    unrolled: &'a Unrolled,
}

impl Queries<'_> {
    /// A model of the disjunction of `guards`; `Ok(None)` if unsat.
    fn any(&mut self, guards: impl Iterator<Item = Term>) -> Result<Option<Model>, Incomplete> {
        let formula = Term::or_all(guards);
        match self.solver.solve(&[formula]) {
            Answer::Sat(m) => Ok(Some(m)),
            Answer::Unsat => Ok(None),
            Answer::Unknown(_) => Err(Incomplete::SolverUnknown),
        }
    }

    /// The bugs: one query, then (with `all_bugs`) one more per bug found
    /// with its location excluded. Each witness is replayed; one that
    /// does not replay is an internal error.
    fn bugs(&mut self) -> Result<(Vec<Bug>, Vec<String>), Incomplete> {
        let property = self.config.property;
        let mut open: Vec<&ErrorPath> = self
            .unrolled
            .errors
            .iter()
            .filter(|e| property.contains(e.kind))
            .collect();
        let (mut bugs, mut internal) = (Vec::new(), Vec::new());
        while !open.is_empty() {
            let Some(model) = self.any(open.iter().map(|e| e.guard.formula()))? else {
                break;
            };
            match self.witness(&model, &open) {
                Ok(bug) => {
                    open.retain(|e| (e.kind, e.span) != (bug.kind, bug.span));
                    bugs.push(bug);
                }
                Err(msg) => {
                    internal.push(msg);
                    break;
                }
            }
            if !self.config.all_bugs {
                break;
            }
        }
        bugs.sort_by_key(|b| (b.span, b.kind));
        Ok((bugs, internal))
    }

    /// Replays the input `model` describes; it must end at one of `errors`.
    fn witness(&self, model: &Model, errors: &[&ErrorPath]) -> Result<Bug, String> {
        let ir = self.ir;
        let mut input = input_from_model(ir, model, self.unrolled.max_reads);
        let max_steps = self.unrolled.max_steps + 1;
        let run = concrete::run_with(ir, &input, max_steps, self.config.options);
        input.reads.truncate(run.read_types.len());
        for (v, ty) in input.reads.iter_mut().zip(&run.read_types) {
            *v = ty.wrap(v);
        }
        match run.outcome {
            Outcome::Error { kind, span, stack } => {
                let reached: Vec<&&ErrorPath> = errors
                    .iter()
                    .filter(|e| (e.kind, e.span) == (kind, span))
                    .collect();
                let Some(path) = reached
                    .iter()
                    .find(|e| model.holds(&e.guard.formula()))
                    .or(reached.first())
                else {
                    return Err(mismatch(&input, kind, span));
                };
                Ok(Bug {
                    kind,
                    span,
                    stack,
                    path_condition: path.guard.conditions(),
                    read_pcs: run.read_pcs,
                    input,
                })
            }
            other => Err(format!(
                "internal error: the bounded model checker's witness {input:?} replays as {other:?}"
            )),
        }
    }

    /// Reachable errors outside the property, one per kind and location.
    fn outside_property(&mut self) -> Result<Vec<(ErrorKind, Span)>, Incomplete> {
        let property = self.config.property;
        let mut open: Vec<&ErrorPath> = self
            .unrolled
            .errors
            .iter()
            .filter(|e| !property.contains(e.kind))
            .collect();
        let mut found = Vec::new();
        while !open.is_empty() {
            let Some(model) = self.any(open.iter().map(|e| e.guard.formula()))? else {
                break;
            };
            let mut here: Vec<(ErrorKind, Span)> = open
                .iter()
                .filter(|e| model.holds(&e.guard.formula()))
                .map(|e| (e.kind, e.span))
                .collect();
            if here.is_empty() {
                // The model satisfies the disjunction, so some guard holds
                // under it; evaluation disagreeing is not expected, but
                // must not loop.
                here.push((open[0].kind, open[0].span));
            }
            open.retain(|e| !here.contains(&(e.kind, e.span)));
            found.extend(here);
        }
        found.sort_by_key(|&(kind, span)| (span, kind));
        found.dedup();
        Ok(found)
    }

    /// Can no path exceed the bound (the unwinding assertions hold)?
    fn bound_unreachable(&mut self) -> Result<bool, Incomplete> {
        let cut = self.unrolled.cut.iter().map(|g| g.formula());
        Ok(self.any(cut)?.is_none())
    }
}

fn mismatch(input: &wiser_semantics::Input, kind: ErrorKind, span: Span) -> String {
    format!(
        "internal error: the bounded model checker's witness {input:?} replays to a {} at bytes {}..{}, which no unrolled path reaches",
        kind.name(),
        span.lo,
        span.hi
    )
}
