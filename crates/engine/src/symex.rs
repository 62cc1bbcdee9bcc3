//! Symbolic execution (`wiser check`), one whole run: the calling thread starts the workers
//! ([`crate::parallel`]) and then only supervises them with the run
//! layer's [`Watch`] (interrupt, deadline, memory; [`crate::run::GRACE`]
//! for workers still inside one slow step), so that a run with a time
//! limit `T` returns within `T` plus about a quarter of a second, and an
//! interrupt ends it as quickly, with the bugs found so far.

use crate::config::Config;
use crate::parallel::{work, Finisher, Shared};
use crate::record::{sort_paths, PathEnd, PathEndKind, Recorded};
use crate::report::{Incomplete, Report, Stats, Verdict};
use crate::run::{
    lock, peak_resident_bytes, resident_bytes, spawn_worker, Limits, Monitor, Poll, Watch,
};
use crate::symbolic::Symbolic;
use crate::witness::Bug;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;
use wiser_ir::Ir;
use wiser_semantics::State;

/// Runs the bug finder on `ir`.
pub fn symex(ir: &Ir, config: &Config) -> Report {
    symex_monitored(Arc::new(ir.clone()), config, Arc::new(Monitor::new()))
}

/// Runs the bug finder on `ir`, publishing live counters in `monitor` and
/// stopping early (with what was found) when its `interrupt` is set.
pub fn symex_monitored(ir: Arc<Ir>, config: &Config, monitor: Arc<Monitor>) -> Report {
    run(ir, config, monitor, None, None)
}

/// Explores the subtrees of `ir`'s paths below `seeds` (path prefixes a
/// distributed run handed out; see [`crate::prefix`]), handing waiting
/// states to `share` when it wants them: one work item of a distributed
/// run. The report covers the subtree less what was handed on; its bugs
/// carry their prefixes ([`Bug::prefix`]). A program with threads is not
/// split (its states are not named by their decisions alone): its whole
/// tree is explored here. Nor are states merged: a merged state has no
/// one prefix.
pub fn symex_shared(
    ir: Arc<Ir>,
    config: &Config,
    monitor: Arc<Monitor>,
    seeds: &[crate::Prefix],
    share: Arc<dyn crate::prefix::Share>,
) -> Report {
    let config = config
        .clone()
        .with_trails(true)
        .with_merge(crate::MergeMode::None);
    let share = (!ir.threaded).then_some(share);
    run(ir, &config, monitor, Some(seeds), share)
}

fn run(
    ir: Arc<Ir>,
    config: &Config,
    monitor: Arc<Monitor>,
    seeds: Option<&[crate::Prefix]>,
    share: Option<Arc<dyn crate::prefix::Share>>,
) -> Report {
    // A program with threads is explored by one worker: the set of
    // expanded states (`visited.rs`) keeps the first path to reach each
    // state, so with several workers which witness (and schedule) is
    // reported would depend on their timing.
    let one_worker;
    let config = if ir.threaded && config.jobs > 1 {
        one_worker = config.clone().with_jobs(1);
        &one_worker
    } else {
        config
    };
    let start = Instant::now();
    let baseline = resident_bytes().unwrap_or(0);
    let mut shared = Shared::new(ir.clone(), config, start, monitor.clone());
    shared.share = share;
    let shared = Arc::new(shared);
    let initial = match seeds {
        None => vec![State::initial(
            &ir,
            &mut Symbolic::new(),
            crate::path::PathCond::new(),
        )],
        Some(prefixes) => replay_seeds(&shared, prefixes),
    };
    monitor
        .pending
        .store(initial.len() as u64, Ordering::SeqCst);
    shared.pool.push_all(0, initial);

    let jobs = config.jobs.max(1);
    *lock(&shared.running) = jobs;
    let mut spawned = 0;
    for me in 0..jobs {
        let worker = shared.clone();
        let started = spawn_worker(format!("wiser-worker-{me}"), move || {
            let finisher = Finisher(worker);
            work(me, &finisher.0);
        });
        match started {
            Ok(_) => spawned += 1,
            // The system refused a thread: run with the workers it gave.
            Err(_) => drop(Finisher(shared.clone())),
        }
    }
    if spawned == 0 {
        // Not even one thread: work here, unsupervised.
        let finisher = Finisher(shared.clone());
        work(0, &finisher.0);
    }

    let limits = Limits::new(config, start, monitor);
    let abandoned = supervise(&shared, &limits);
    let mut report = assemble(&shared, config, abandoned);
    report.stats.elapsed = start.elapsed();
    report.stats.peak_memory = peak_resident_bytes().unwrap_or(0);
    report.stats.bytes_per_state = (report.stats.max_frontier >= 1000).then(|| {
        report.stats.peak_memory.saturating_sub(baseline) / report.stats.max_frontier as u64
    });
    // Dropping millions of waiting states takes time the caller should not
    // wait for: leave it to a thread of its own.
    if !shared.pool.is_empty() {
        let _ = std::thread::Builder::new()
            .name("wiser-cleanup".into())
            .spawn(move || drop(shared));
    }
    report
}

/// Rebuilds the states a work item starts from, counting the replay's
/// decisions and solver work with the run's; a prefix that does not
/// replay is an internal error (the run cannot be `safe`).
fn replay_seeds(shared: &Shared, prefixes: &[crate::Prefix]) -> Vec<crate::SymState> {
    let mut expander = crate::prefix::replayer(&shared.ir, &shared.config, shared.solvers.chain());
    let mut states = Vec::with_capacity(prefixes.len());
    for prefix in prefixes {
        match crate::prefix::replay(&mut expander, prefix) {
            Ok(state) => states.push(state),
            Err(msg) => {
                let mut found = shared.found();
                found.internal_errors.push(msg);
                found.incomplete.push(Incomplete::InternalError);
            }
        }
    }
    let policy = expander.policy();
    let mut totals = shared.totals();
    totals.branches.add(&policy.stats);
    policy.solver().stats(&mut totals.solver);
    states
}

/// Watches the run until every worker has finished, or until the grace
/// period after the end of the run; returns how many workers were left
/// running.
fn supervise(shared: &Shared, limits: &Limits) -> usize {
    let mut watch = Watch::new(limits, &shared.solvers);
    loop {
        let running = {
            let guard = lock(&shared.running);
            let (guard, _) = shared
                .finished
                .wait_timeout_while(guard, watch.wait(), |r| *r > 0)
                .unwrap_or_else(|e| e.into_inner());
            *guard
        };
        if running == 0 {
            return 0;
        }
        let poll = watch.poll(
            |why| shared.halt(why),
            || shared.stop.load(Ordering::SeqCst),
        );
        if poll == Poll::Abandon {
            return running;
        }
    }
}

/// The bugs a run reports, whatever order the workers found them in: with
/// `all`, the least ([`Bug::key`]) at each place (kind and location),
/// counting the other call stacks that reach it; otherwise only the least
/// bug. By location.
fn canonical_bugs(mut bugs: Vec<Bug>, all: bool) -> Vec<Bug> {
    bugs.sort_by(|a, b| a.key().cmp(&b.key()));
    if !all {
        bugs.truncate(1);
        return bugs;
    }
    let mut out: Vec<Bug> = Vec::with_capacity(bugs.len());
    for bug in bugs {
        match out
            .iter_mut()
            .find(|b| (b.kind, b.span) == (bug.kind, bug.span))
        {
            Some(first) => first.other_stacks += 1,
            None => out.push(bug),
        }
    }
    out.sort_by_key(|b| (b.span, b.kind));
    out
}

/// The report of a run whose parts were explored apart (the work items
/// of a distributed run, each reported by [`symex_shared`]): its bugs (each
/// confirmed again), the union of the parts' reasons, places outside the
/// property and internal errors, and the summed counters. The same rules
/// as a run in one process: the least bug per place (or the least bug),
/// `safe` only when no part was incomplete.
pub fn combine(
    config: &Config,
    bugs: Vec<Bug>,
    mut incomplete: Vec<Incomplete>,
    internal_errors: Vec<String>,
    places: Places,
    stats: Stats,
) -> Report {
    let Places {
        outside: mut outside_property,
        mut unchecked,
    } = places;
    let bugs = canonical_bugs(bugs, config.all_bugs);
    if !internal_errors.is_empty() {
        incomplete.push(Incomplete::InternalError);
    }
    if !outside_property.is_empty() {
        incomplete.push(Incomplete::OutsideProperty);
    }
    if !unchecked.is_empty() {
        incomplete.push(Incomplete::UncheckedPlace);
    }
    // A part that stopped at its first bug stopped the whole run.
    if !config.all_bugs && !bugs.is_empty() {
        incomplete.retain(|&i| i != Incomplete::Interrupted);
    }
    incomplete.sort();
    incomplete.dedup();
    outside_property.sort_by_key(|&(kind, span)| (span, kind));
    outside_property.dedup();
    unchecked.sort_by_key(|&(kind, span)| (span, kind));
    unchecked.dedup();
    let verdict = Verdict::of(!bugs.is_empty(), &incomplete);
    let mut report = Report::empty(verdict, crate::report::Extra::Symex);
    report.bugs = bugs;
    report.incomplete = incomplete;
    report.internal_errors = internal_errors;
    report.outside_property = outside_property;
    report.unchecked_places = unchecked;
    report.stats = stats;
    report
}

/// The places reached by paths of at most `cutoff` steps, by location.
fn within(
    places: std::collections::BTreeMap<(wiser_ir::ErrorKind, wiser_ir::Span), u64>,
    cutoff: u64,
) -> Vec<(wiser_ir::ErrorKind, wiser_ir::Span)> {
    let mut out: Vec<_> = places
        .into_iter()
        .filter(|&(_, steps)| steps <= cutoff)
        .map(|(place, _)| place)
        .collect();
    out.sort_by_key(|&(kind, span)| (span, kind));
    out
}

/// The places the parts of a distributed run reached ([`combine`]).
#[derive(Debug, Default)]
pub struct Places {
    /// Errors of kinds outside the property ([`Report::outside_property`]).
    pub outside: Vec<(wiser_ir::ErrorKind, wiser_ir::Span)>,
    /// Places where the model stops deciding ([`Report::unchecked_places`]).
    pub unchecked: Vec<(wiser_ir::ErrorKind, wiser_ir::Span)>,
}

fn assemble(shared: &Shared, config: &Config, abandoned: usize) -> Report {
    let monitor = &shared.monitor;
    let mut stats = Stats::default();
    let (recorded, coverage, held) = {
        let mut totals = shared.totals();
        stats.branches = totals.branches.clone();
        stats.solver = totals.solver.clone();
        (
            std::mem::take(&mut totals.recorded),
            totals.coverage.take(),
            std::mem::take(&mut totals.held),
        )
    };
    // A worker that drew a ticket past the limit did not expand its state.
    stats.states = monitor.states.load(Ordering::SeqCst).min(config.max_states);
    stats.max_frontier = shared.max_pending.load(Ordering::Relaxed) as usize;
    stats.abandoned_workers = abandoned;
    stats.memory_pressure = monitor.memory_pressure.load(Ordering::Relaxed);
    stats.merges = shared.pool.merges();
    stats.revisited = shared.visited.revisited();
    let mut found = shared.found();
    let bugs = std::mem::take(&mut found.bugs);
    let mut incomplete = std::mem::take(&mut found.incomplete);
    let mut internal_errors = std::mem::take(&mut found.internal_errors);
    // A run that finished the level of its first bug reports what it
    // found up to that level: deeper finds depend on timing.
    let cutoff = shared.cutoff.load(Ordering::SeqCst);
    let outside_property = within(std::mem::take(&mut found.outside_property), cutoff);
    let unchecked_places = within(std::mem::take(&mut found.unchecked_places), cutoff);
    if found.cut_level {
        incomplete.push(Incomplete::StoppedAtFirstBug);
    }
    drop(found);
    let (paths, paths_dropped) = if config.record.paths {
        let recorded = record_cut(shared, recorded, held, &incomplete, abandoned);
        if !recorded.mismatches.is_empty() {
            internal_errors.extend(recorded.mismatches);
            incomplete.push(Incomplete::InternalError);
        }
        (recorded.paths, recorded.dropped)
    } else {
        (Vec::new(), 0)
    };
    if !outside_property.is_empty() {
        incomplete.push(Incomplete::OutsideProperty);
    }
    if !unchecked_places.is_empty() {
        incomplete.push(Incomplete::UncheckedPlace);
    }
    if stats.branches.unknown > 0 {
        incomplete.push(Incomplete::SolverUnknown);
    }
    if config.property.has_unchecked(&shared.ir) {
        incomplete.push(Incomplete::Unchecked);
    }
    // Workers that were still running when the run ended: what they held
    // was not explored.
    if abandoned > 0 && incomplete.is_empty() {
        incomplete.push(Incomplete::Timeout);
    }
    incomplete.sort();
    incomplete.dedup();
    let bugs = canonical_bugs(bugs, config.all_bugs);
    let verdict = Verdict::of(!bugs.is_empty(), &incomplete);
    Report {
        verdict,
        bugs,
        incomplete,
        internal_errors,
        outside_property,
        unchecked_places,
        stats,
        paths,
        paths_dropped,
        coverage: coverage.filter(|_| config.record.coverage),
        extra: crate::report::Extra::Symex,
    }
}

/// Adds to the paths the workers recorded those the run cut (left
/// waiting, or held by a worker when it stopped) and those merged into
/// others, and sorts them by trail.
fn record_cut(
    shared: &Shared,
    mut recorded: Recorded,
    held: Vec<crate::witness::SymState>,
    incomplete: &[Incomplete],
    abandoned: usize,
) -> Recorded {
    // The limit that stopped the run: the first one a worker or the
    // supervisor reported.
    let stopped_by = incomplete
        .iter()
        .copied()
        .find(|i| {
            matches!(
                i,
                Incomplete::MaxStates
                    | Incomplete::Timeout
                    | Incomplete::MaxMemory
                    | Incomplete::Interrupted
                    | Incomplete::StoppedAtFirstBug
            )
        })
        .unwrap_or(if abandoned > 0 {
            Incomplete::Timeout
        } else {
            Incomplete::Interrupted
        });
    let budget = &shared.budget;
    let mut keep = |state: &crate::witness::SymState, end: PathEndKind| {
        if budget.admit(state.trail.len()) {
            recorded.paths.push(PathEnd::of(state, end, None));
        } else {
            recorded.dropped += 1;
        }
    };
    for s in &held {
        keep(s, PathEndKind::Cut(stopped_by));
    }
    // Too many to keep: the rest are counted without taking them one by
    // one.
    let left = shared
        .pool
        .drain(budget.room(), |s| keep(&s, PathEndKind::Cut(stopped_by)));
    let (merged, merged_dropped) = shared.pool.take_merged();
    for s in &merged {
        keep(s, PathEndKind::Merged);
    }
    recorded.dropped += left as u64 + merged_dropped;
    sort_paths(&mut recorded.paths);
    recorded
}
