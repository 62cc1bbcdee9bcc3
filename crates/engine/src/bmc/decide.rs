//! The queries of bounded model checking, the witnesses they give, and
//! the deepening of the bound.

use super::explore::{unroll, ErrorPath, Unrolled};
use super::Bmc;
use crate::config::Config;
use crate::report::{Extra, Incomplete, Report, Stats, Verdict};
use crate::run::{peak_resident_bytes, supervise_one, Limits, Monitor, Solvers, StopSwitch};
use crate::witness::{input_from_model, replay, small_model, Bug, Expected, Replay};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;
use wiser_ir::{Cfg, ErrorKind, Ir, Span};
use wiser_smt::{Answer, Model, Solver, Term};

/// How one bound ended, before the counters are added.
#[derive(Default)]
struct Outcome {
    bugs: Vec<Bug>,
    incomplete: Vec<Incomplete>,
    internal_errors: Vec<String>,
    outside_property: Vec<(ErrorKind, Span)>,
    unchecked_places: Vec<(ErrorKind, Span)>,
}

impl Outcome {
    fn unknown(why: Incomplete) -> Outcome {
        Outcome {
            incomplete: vec![why],
            ..Outcome::default()
        }
    }

    fn verdict(&self) -> Verdict {
        Verdict::of(!self.bugs.is_empty(), &self.incomplete)
    }
}

/// Runs bounded model checking on `ir` with the limits, property and
/// solver of `config`, stopping with what was found when a limit or the
/// interrupt switch of `monitor` says so. The work runs on a worker under
/// the run layer's supervisor: one step that builds a huge term (a large
/// `--max-objects`) cannot hold the run past its limits. The report's
/// extra is [`Extra::Bmc`], with the last bound tried.
pub fn bmc(ir: Arc<Ir>, config: &Config, bmc: &Bmc, monitor: Arc<Monitor>) -> Report {
    let start = Instant::now();
    let limits = Limits::new(config, start, monitor.clone());
    let solvers = Arc::new(Solvers::new(config, limits.deadline));
    let stop = Arc::new(StopSwitch::default());
    let unchecked = config.property.has_unchecked(&ir);
    let work = {
        let (config, bmc, solvers, stop) =
            (config.clone(), bmc.clone(), solvers.clone(), stop.clone());
        let monitor = monitor.clone();
        move || deepen(&ir, &config, &bmc, &monitor, &solvers, &stop)
    };
    let (mut outcome, mut stats, k) = match supervise_one(&limits, &solvers, &stop, work) {
        Some(done) => done,
        // The worker was still in one step GRACE after the end.
        None => {
            let why = stop.reason().unwrap_or(Incomplete::Timeout);
            let stats = Stats {
                states: monitor.states.load(Ordering::Relaxed),
                abandoned_workers: 1,
                ..Stats::default()
            };
            (Outcome::unknown(why), stats, bmc.unwind)
        }
    };
    if unchecked {
        outcome.incomplete.push(Incomplete::Unchecked);
    }
    monitor
        .bugs
        .store(outcome.bugs.len() as u64, Ordering::Relaxed);
    stats.elapsed = start.elapsed();
    stats.peak_memory = peak_resident_bytes().unwrap_or(0);
    Report {
        verdict: outcome.verdict(),
        bugs: outcome.bugs,
        incomplete: outcome.incomplete,
        internal_errors: outcome.internal_errors,
        outside_property: outcome.outside_property,
        unchecked_places: outcome.unchecked_places,
        stats,
        paths: Vec::new(),
        paths_dropped: 0,
        coverage: None,
        extra: Extra::Bmc { bound: k },
    }
}

/// Unrolls and decides from bound `bmc.unwind` on, deepening while the
/// bound is what leaves the answer open; the outcome, the counters and
/// the last bound tried.
fn deepen(
    ir: &Arc<Ir>,
    config: &Config,
    bmc: &Bmc,
    monitor: &Monitor,
    solvers: &Solvers,
    stop: &StopSwitch,
) -> (Outcome, Stats, u32) {
    let stop = || stop.reason();
    let cfg = Arc::new(Cfg::new(ir));
    let mut solver = solvers.bare();
    let mut stats = Stats::default();
    let mut k = bmc.unwind;
    let outcome = loop {
        let unrolled = unroll(ir, &cfg, bmc, k, config.options, &stop);
        stats.states += unrolled.states;
        stats.merges += unrolled.merges;
        monitor.states.store(stats.states, Ordering::Relaxed);
        if let Some(why) = unrolled.stopped {
            break Outcome::unknown(why);
        }
        let mut q = Queries {
            ir,
            config,
            solver: &mut *solver,
            unrolled: &unrolled,
        };
        match q.decide(bmc.unwinding_assertions) {
            // A query without an answer: the run's end if it came, else
            // the solver's.
            Err(unknown) => break Outcome::unknown(stop().unwrap_or(unknown)),
            Ok(o)
                if o.incomplete == [Incomplete::UnwindBound]
                    && bmc.unwind_max.is_some_and(|m| k < m) =>
            {
                k += 1
            }
            Ok(o) => break o,
        }
    };
    solver.stats(&mut stats.solver);
    (outcome, stats, k)
}

/// The queries about one unrolling.
struct Queries<'a> {
    ir: &'a Ir,
    config: &'a Config,
    solver: &'a mut dyn Solver,
    unrolled: &'a Unrolled,
}

impl Queries<'_> {
    /// Bugs first, then errors outside the property, then the bound.
    fn decide(&mut self, unwinding_assertions: bool) -> Result<Outcome, Incomplete> {
        let property = self.config.property;
        let unrolled = self.unrolled;
        let errors = &unrolled.errors;
        let mut bugs = Vec::new();
        let mut internal = Vec::new();
        let all = self.config.all_bugs;
        let ir = self.ir;
        let undecided = |e: &ErrorPath| ir.undecided_at(e.kind, e.span).is_some();
        self.each_reachable(
            errors
                .iter()
                .filter(|e| property.contains(e.kind) && !undecided(e)),
            |q, model, open| match q.witness(model, open) {
                Ok(bug) => {
                    let at = (bug.kind, bug.span);
                    bugs.push(bug);
                    all.then_some(at)
                }
                Err(msg) => {
                    internal.push(msg);
                    None
                }
            },
        )?;
        bugs.sort_by_key(|b| (b.span, b.kind));
        if !bugs.is_empty() || !internal.is_empty() {
            let incomplete = if internal.is_empty() {
                vec![]
            } else {
                vec![Incomplete::InternalError]
            };
            return Ok(Outcome {
                bugs,
                incomplete,
                internal_errors: internal,
                ..Outcome::default()
            });
        }
        let outside = self.reachable_places(
            errors
                .iter()
                .filter(|e| !property.contains(e.kind) && !e.kind.is_terminal()),
        )?;
        if !outside.is_empty() {
            return Ok(Outcome {
                outside_property: outside,
                ..Outcome::unknown(Incomplete::OutsideProperty)
            });
        }
        // A reachable place where the model stops deciding
        // (`Ir::undecided`) keeps the property from `safe`.
        let places = self.reachable_places(
            errors
                .iter()
                .filter(|e| property.contains(e.kind) && undecided(e)),
        )?;
        if !places.is_empty() {
            return Ok(Outcome {
                unchecked_places: places,
                ..Outcome::unknown(Incomplete::UncheckedPlace)
            });
        }
        // A reachable path cut by a bound of the search (the input heap's
        // above all: its restriction is lossless only for paths within
        // it) means larger inputs or schedules were not explored.
        let mut incomplete = Vec::new();
        let mut bounds: Vec<Incomplete> = unrolled.bounded.iter().map(|(why, _)| *why).collect();
        bounds.sort();
        bounds.dedup();
        for why in bounds {
            let guards = unrolled.bounded.iter().filter(|(w, _)| *w == why);
            if self.any(guards.map(|(_, g)| g.formula()))?.is_some() {
                incomplete.push(why);
            }
        }
        let cut = &unrolled.cut;
        let bound_enough = cut.is_empty()
            || (unwinding_assertions && self.any(cut.iter().map(|g| g.formula()))?.is_none());
        if !bound_enough {
            incomplete.push(Incomplete::UnwindBound);
        }
        Ok(Outcome {
            incomplete,
            ..Outcome::default()
        })
    }

    /// The places (kind and location) of `paths` that are reachable,
    /// sorted by location.
    fn reachable_places<'e>(
        &mut self,
        paths: impl Iterator<Item = &'e ErrorPath>,
    ) -> Result<Vec<(ErrorKind, Span)>, Incomplete> {
        let mut places = Vec::new();
        self.each_reachable(paths, |_, model, open| {
            // The model satisfies the disjunction, so some guard holds.
            let e = holding(model, open)?;
            places.push((e.kind, e.span));
            Some((e.kind, e.span))
        })?;
        places.sort_by_key(|&(kind, span)| (span, kind));
        Ok(places)
    }

    /// A model of the disjunction of `formulas`; `Ok(None)` if unsat.
    fn any(&mut self, formulas: impl Iterator<Item = Term>) -> Result<Option<Model>, Incomplete> {
        match self.solver.solve(&[Term::or_all(formulas)]) {
            Answer::Sat(m) => Ok(Some(m)),
            Answer::Unsat => Ok(None),
            Answer::Unknown(_) => Err(Incomplete::SolverUnknown),
        }
    }

    /// Asks whether any of `paths` is reachable and hands a model to
    /// `found`, which names a location to leave out of the next query
    /// (`None`: stop); until no path is left or none is reachable.
    fn each_reachable<'e>(
        &mut self,
        paths: impl Iterator<Item = &'e ErrorPath>,
        mut found: impl FnMut(&mut Self, &Model, &[&'e ErrorPath]) -> Option<(ErrorKind, Span)>,
    ) -> Result<(), Incomplete> {
        let mut open: Vec<&ErrorPath> = paths.collect();
        while !open.is_empty() {
            let Some(model) = self.any(open.iter().map(|e| e.formula.clone()))? else {
                break;
            };
            let Some(at) = found(self, &model, &open) else {
                break;
            };
            open.retain(|e| (e.kind, e.span) != at);
        }
        Ok(())
    }

    /// The input `model` describes, replayed to the error path it reaches.
    fn witness(&mut self, model: &Model, open: &[&ErrorPath]) -> Result<Bug, String> {
        let Some(e) = holding(model, open) else {
            return Err(
                "internal error: the bounded model checker's model satisfies no error guard".into(),
            );
        };
        let max_steps = self.unrolled.max_steps + 1;
        // The same small, canonical witness as `check` gives, under this
        // error path's formula.
        let model = small_model(
            self.ir,
            &mut *self.solver,
            std::slice::from_ref(&e.formula),
            model.clone(),
            (e.reads, &e.schedule),
            max_steps,
            self.config.options,
        );
        let mut input = input_from_model(self.ir, &model, e.reads);
        input.schedule = e.schedule.clone();
        let expected = Expected {
            kind: e.kind,
            span: e.span,
            stack: e.stack.clone(),
            path_condition: e.guard.conditions(),
        };
        match replay(self.ir, input, expected, max_steps, self.config.options) {
            Replay::Confirmed(bug) => Ok(*bug),
            Replay::Mismatch(msg) => Err(msg),
            // `replay` answers only the two above.
            Replay::Infeasible | Replay::Undecided => Err(
                "internal error: the bounded model checker's witness could not be replayed".into(),
            ),
        }
    }
}

/// The first of `paths` whose guard holds under `model`.
fn holding<'e>(model: &Model, paths: &[&'e ErrorPath]) -> Option<&'e ErrorPath> {
    paths.iter().copied().find(|e| model.holds(&e.formula))
}
