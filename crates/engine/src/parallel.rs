//! The workers of a run: `jobs` threads, each with its own expander and
//! solver chain, sharing one [`Pool`] of waiting states.
//!
//! Termination: `pending` counts the states that exist (waiting anywhere,
//! held by a thief, or being expanded), plus what each worker reserved
//! ahead ([`Credit`]). A worker takes its successors' count from its
//! reserve before they become visible to thieves, and gives the expanded
//! state back to it; it returns its whole reserve before it looks whether
//! `pending` is 0. So `pending` never reaches 0 while a state exists, and
//! the shared counter, one cache line every worker writes, is written once
//! per [`CREDIT`] states rather than at every fork and every end.
//!
//! On an exhaustive run every reachable state is expanded whatever the
//! interleaving, so the verdict and (with `--all`) the set of bug
//! locations do not depend on the number of workers; nor does the path
//! reported for each (the least one, see [`crate::known`]), nor its
//! witness ([`crate::minimise`]). A breadth-first run that stops at its
//! first bug finishes the bug's level first ([`finishes_level`]) and
//! reports the least bug of it. Which bug another strategy finds first,
//! and how far a run cut by a bound gets, depend on the interleaving.
//!
//! Workers own everything they use (`Arc`s), so the supervisor
//! ([`crate::symex`]) can end a run on time even while a worker is inside
//! one slow step: it stops waiting and lets the worker finish alone.

use crate::config::Config;
use crate::expand::{Expander, Expansion};
use crate::frontier::{Frontier, Pool};
use crate::known::KnownBugs;
use crate::merge::{MergeFrontier, MergeMode};
use crate::record::{Budget, Coverage, Recorded};
use crate::report::Incomplete;
use crate::run::{lock, Monitor, Solvers};
use crate::searcher::{Search, Strategy};
use crate::symbolic::{BranchStats, Feasible};
use crate::witness::{Bug, SymState};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use wiser_ir::{Cfg, ErrorKind, Ir, Span};
use wiser_smt::{Solver, SolverStats};

/// Results collected from the workers.
#[derive(Default)]
pub(crate) struct Found {
    pub bugs: Vec<Bug>,
    pub incomplete: Vec<Incomplete>,
    pub internal_errors: Vec<String>,
    /// Reachable errors outside the property, by kind and location, with
    /// the length of the shortest path found to each.
    pub outside_property: BTreeMap<(ErrorKind, Span), u64>,
    /// Reached places where the model stops deciding
    /// ([`wiser_ir::Ir::undecided`]), likewise.
    pub unchecked_places: BTreeMap<(ErrorKind, Span), u64>,
    /// Did a run that finishes the level of its first bug drop states
    /// beyond it?
    pub cut_level: bool,
}

/// Counters of the workers that finished, and what they recorded.
#[derive(Default)]
pub(crate) struct Totals {
    pub branches: BranchStats,
    pub solver: SolverStats,
    /// Ended paths (when recorded).
    pub recorded: Recorded,
    /// The union of the workers' coverage (when recorded).
    pub coverage: Option<Coverage>,
    /// States a worker held when the run stopped (successors of the state
    /// it was expanding, or the state past the limit): cut paths.
    pub held: Vec<SymState>,
}

/// What the supervisor and the workers share.
pub(crate) struct Shared {
    pub ir: Arc<Ir>,
    pub config: Config,
    pub monitor: Arc<Monitor>,
    /// Set to make every worker stop.
    pub stop: AtomicBool,
    pub pool: Pool<SymState>,
    pub found: Mutex<Found>,
    pub totals: Mutex<Totals>,
    pub solvers: Solvers,
    /// Bugs confirmed so far (with `--all`, their error sides are no longer
    /// decided).
    pub known: Arc<KnownBugs>,
    /// The largest `pending` seen at a flush.
    pub max_pending: AtomicU64,
    /// What recorded paths may still take, shared by every worker.
    pub budget: Arc<Budget>,
    /// States expanded so far (shared, so that each state is expanded by
    /// one worker once).
    pub visited: Arc<crate::Visited>,
    /// In a run that stops at its first bug breadth-first: the length of
    /// the shortest bug's path so far. States beyond it are dropped, the
    /// rest of the level is finished (see [`finishes_level`]).
    pub cutoff: AtomicU64,
    /// Set when the state count nears `max_states`: from then on workers
    /// count every state at once.
    near_limit: AtomicBool,
    /// Where waiting states may go, in a distributed run.
    pub share: Option<Arc<dyn crate::prefix::Share>>,
    /// Workers still running, and the signal the last one gives.
    pub running: Mutex<usize>,
    pub finished: Condvar,
}

/// Flush the local state count to the shared one this often.
const BATCH: u64 = 64;

/// How much of `pending` a worker reserves at once (see [`Credit`]).
const CREDIT: u64 = 64;

/// A worker's reserve of `pending`: counts it added to the shared counter
/// ahead of states it has yet to make, or kept back from states that
/// ended. The shared counter is then the states that exist plus every
/// worker's reserve, an upper bound that is exact once every worker has
/// returned its reserve ([`Credit::release`]).
#[derive(Default)]
struct Credit {
    held: u64,
}

impl Credit {
    /// Counts `n` new states (before any other worker can see them).
    fn take(&mut self, n: u64, pending: &AtomicU64) {
        if self.held < n {
            let more = n - self.held + CREDIT;
            pending.fetch_add(more, Ordering::SeqCst);
            self.held += more;
        }
        self.held -= n;
    }

    /// Counts `n` states that no longer exist.
    fn give(&mut self, n: u64, pending: &AtomicU64) {
        self.held += n;
        if self.held > 2 * CREDIT {
            pending.fetch_sub(self.held - CREDIT, Ordering::SeqCst);
            self.held = CREDIT;
        }
    }

    /// Returns the whole reserve (before looking whether `pending` is 0).
    fn release(&mut self, pending: &AtomicU64) {
        if self.held > 0 {
            pending.fetch_sub(self.held, Ordering::SeqCst);
            self.held = 0;
        }
    }
}

impl Shared {
    pub fn new(ir: Arc<Ir>, config: &Config, start: Instant, monitor: Arc<Monitor>) -> Shared {
        let deadline = config.timeout.map(|t| start + t);
        monitor.pending.store(0, Ordering::SeqCst);
        monitor.states.store(0, Ordering::SeqCst);
        let visited = Arc::new(crate::Visited::new(&ir));
        Shared {
            pool: pool(&ir, config),
            ir,
            config: config.clone(),
            stop: AtomicBool::new(false),
            found: Mutex::new(Found::default()),
            totals: Mutex::new(Totals::default()),
            solvers: Solvers::new(config, deadline),
            known: Arc::new(KnownBugs::new()),
            max_pending: AtomicU64::new(1),
            budget: Arc::new(Budget::new(config.record)),
            visited,
            cutoff: AtomicU64::new(u64::MAX),
            near_limit: AtomicBool::new(config.max_states < 4 * BATCH * 64),
            share: None,
            running: Mutex::new(0),
            finished: Condvar::new(),
            monitor,
        }
    }

    /// Ends the run for `why`.
    pub fn halt(&self, why: Incomplete) {
        lock(&self.found).incomplete.push(why);
        self.stop.store(true, Ordering::SeqCst);
    }

    pub fn found(&self) -> MutexGuard<'_, Found> {
        lock(&self.found)
    }

    pub fn totals(&self) -> MutexGuard<'_, Totals> {
        lock(&self.totals)
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// Every this many pops, a merging frontier takes its oldest state (so
/// every state is taken eventually: the search stays complete).
const FAIR_POPS: u64 = 8;

/// The frontiers of a run: one per worker, merging states if asked.
fn pool(ir: &Arc<Ir>, config: &Config) -> Pool<SymState> {
    if config.merge == MergeMode::None {
        return Pool::new(config.jobs, &Search::new(config.strategy, config.seed, ir));
    }
    let cfg = Arc::new(Cfg::new(ir));
    Pool::with_frontiers(
        (0..config.jobs.max(1))
            .map(|_| {
                Box::new(
                    MergeFrontier::new(ir.clone(), cfg.clone(), config.merge, FAIR_POPS)
                        .keeping_merged(if config.record.paths {
                            config.record.cap()
                        } else {
                            0
                        }),
                ) as Box<dyn Frontier<SymState>>
            })
            .collect(),
    )
}

/// Counts one finished worker and wakes the supervisor when it was the
/// last; runs even if the worker panics.
pub(crate) struct Finisher(pub Arc<Shared>);

impl Drop for Finisher {
    fn drop(&mut self) {
        let mut running = lock(&self.0.running);
        *running = running.saturating_sub(1);
        self.0.finished.notify_all();
    }
}

/// Worker `me` of a run.
pub(crate) fn work(me: usize, shared: &Shared) {
    let config = &shared.config;
    let mut policy = Feasible::new(shared.solvers.chain()).with_trails(config.trails);
    // Recorded paths are followed to every error, known or not.
    if config.all_bugs && !config.record.paths {
        policy = policy.with_known(shared.known.clone());
    }
    if config.validate {
        policy = policy.with_validation(shared.solvers.bare());
    }
    let ir = shared.ir.clone();
    let mut expander = Expander::sharing(&ir, policy, config.options, shared.visited.clone())
        .with_property(config.property);
    if config.record.any() {
        expander = expander.with_shared_record(config.record, shared.budget.clone());
    }
    let mut held: Vec<SymState> = Vec::new();
    let monitor = &shared.monitor;
    let mut out: Vec<SymState> = Vec::with_capacity(4);
    let mut unflushed = 0u64;
    let mut queries_flushed = 0u64;
    let mut idle_spins = 0u32;
    // Why paths were cut or left undecided, as this worker reported it:
    // each reason once, not a shared lock and a longer list per path.
    let mut reported: Vec<Incomplete> = Vec::new();
    let mut report = |why: Incomplete| {
        if !reported.contains(&why) {
            reported.push(why);
            shared.found().incomplete.push(why);
        }
    };
    let mut credit = Credit::default();
    let jobs = config.jobs as u64;
    let level = finishes_level(config);
    let mut pressed = false;
    while !shared.stopped() {
        if !pressed && monitor.memory_pressure.load(Ordering::Relaxed) {
            shared.pool.press(me);
            pressed = true;
        }
        let Some(state) = shared.pool.pop(me) else {
            credit.release(&monitor.pending);
            if monitor.pending.load(Ordering::SeqCst) == 0 {
                break;
            }
            idle_spins += 1;
            if idle_spins < 64 {
                std::thread::yield_now();
            } else {
                std::thread::sleep(Duration::from_micros(50));
            }
            continue;
        };
        idle_spins = 0;
        if level && beyond_cutoff(&state, shared.cutoff.load(Ordering::SeqCst)) {
            shared.found().cut_level = true;
            expander.record_cut(&state, Incomplete::StoppedAtFirstBug);
            credit.give(1, &monitor.pending);
            continue;
        }
        // Interrupts, time and memory are the supervisor's: it sets `stop`,
        // which the loop reads before every state.
        unflushed += 1;
        // Near the state limit every state is counted at once, so the
        // limit is exact: no worker expands a state past it.
        if unflushed == BATCH || shared.near_limit.load(Ordering::Relaxed) {
            let taken = monitor.states.fetch_add(unflushed, Ordering::Relaxed) + unflushed;
            unflushed = 0;
            let queries = z3_queries(expander.policy().solver());
            monitor
                .solver_queries
                .fetch_add(queries - queries_flushed, Ordering::Relaxed);
            queries_flushed = queries;
            if taken + 2 * BATCH * jobs >= config.max_states {
                shared.near_limit.store(true, Ordering::Relaxed);
            }
            // Exact with one worker; with more, others' reserves may
            // count too. A write only when it grows: the line is shared.
            let pending = monitor
                .pending
                .load(Ordering::Relaxed)
                .saturating_sub(credit.held);
            if pending > shared.max_pending.load(Ordering::Relaxed) {
                shared.max_pending.fetch_max(pending, Ordering::Relaxed);
            }
            // `taken` includes the state in hand: expanding it would
            // exceed the limit.
            if taken > config.max_states {
                shared.halt(Incomplete::MaxStates);
                if config.record.paths {
                    held.push(state);
                }
                break;
            }
            if let Some(share) = &shared.share {
                give_away(me, shared, share.as_ref());
            }
        }
        let unknown_before = expander.policy().stats.unknown;
        let steps = state.steps;
        let expansion = match expander.expand(state, &mut out) {
            // A confirmed bug is kept whatever happens next.
            Expansion::Bug(bug) => {
                record_bug(shared, *bug, credit.held, shared.stopped());
                credit.give(1, &monitor.pending);
                continue;
            }
            other => other,
        };
        if shared.stopped() {
            // The run ended while this state was expanded (a killed solver
            // answers unknown): nothing of it counts, not even the unknown
            // answers of queries the end of the run cut short.
            let policy = expander.policy();
            policy.stats.unknown = unknown_before.min(policy.stats.unknown);
            if config.record.paths {
                held.append(&mut out);
            }
            break;
        }
        match expansion {
            Expansion::Stepped if !out.is_empty() => {
                // Count the successors (minus the expanded state) before
                // any thief can see them. A plain step changes nothing, and
                // skipping it keeps the shared counter out of the hot path.
                let added = out.len() as u64 - 1;
                if added > 0 {
                    credit.take(added, &monitor.pending);
                }
                let merged = shared.pool.push_all(me, out.drain(..));
                if merged > 0 {
                    credit.give(merged, &monitor.pending);
                }
                continue;
            }
            Expansion::Stepped
            | Expansion::Final(_)
            | Expansion::Infeasible
            | Expansion::Known
            | Expansion::Revisited
            | Expansion::Bug(_) => {}
            Expansion::Undecided => report(Incomplete::SolverUnknown),
            Expansion::Bounded(why) => report(why),
            Expansion::OutsideProperty(kind, span) => {
                least(&mut shared.found().outside_property, (kind, span), steps);
            }
            Expansion::UncheckedPlace(kind, span) => {
                least(&mut shared.found().unchecked_places, (kind, span), steps);
            }
            Expansion::Internal(msg) => {
                let mut found = shared.found();
                found.internal_errors.push(msg);
                found.incomplete.push(Incomplete::InternalError);
            }
        }
        credit.give(1, &monitor.pending);
    }
    credit.release(&monitor.pending);
    monitor.states.fetch_add(unflushed, Ordering::Relaxed);
    let policy = expander.policy();
    if !policy.mismatches.is_empty() {
        let mut found = shared.found();
        found.internal_errors.append(&mut policy.mismatches);
        found.incomplete.push(Incomplete::InternalError);
    }
    let coverage = policy.coverage.take();
    let mut totals = shared.totals();
    totals.branches.add(&policy.stats);
    policy.solver().stats(&mut totals.solver);
    if let Some(c) = coverage {
        match &mut totals.coverage {
            Some(all) => all.add(&c),
            None => totals.coverage = Some(*c),
        }
    }
    totals.held.append(&mut held);
    let mut recorded = expander.take_recorded();
    totals.recorded.paths.append(&mut recorded.paths);
    totals.recorded.dropped += recorded.dropped;
    if !recorded.mismatches.is_empty() {
        totals.recorded.mismatches.append(&mut recorded.mismatches);
    }
}

/// At most this many states go elsewhere at once.
const GIVE_MAX: usize = 1024;

/// Hands waiting states of worker `me` to `share` when it wants some: half
/// of the worker's, at most [`GIVE_MAX`], those with the fewest decisions
/// (in a depth-first search, the ones nearest the root, whose subtrees are
/// the largest); an error state stays (it is confirmed here, which is one
/// step).
fn give_away(me: usize, shared: &Shared, share: &dyn crate::prefix::Share) {
    if share.wanted() == 0 {
        return;
    }
    let (errors, mut taken): (Vec<SymState>, Vec<SymState>) = shared
        .pool
        .take_for_others(me, GIVE_MAX)
        .into_iter()
        .partition(|s| s.error().is_some());
    shared.pool.put_back(me, errors);
    if taken.is_empty() {
        return;
    }
    let prefixes: Vec<crate::Prefix> = taken.iter().map(crate::Prefix::of).collect();
    let given = share.give(&prefixes).min(taken.len());
    shared.pool.put_back(me, taken.split_off(given));
    shared
        .monitor
        .pending
        .fetch_sub(given as u64, Ordering::SeqCst);
}

fn z3_queries(solver: &dyn Solver) -> u64 {
    let mut s = SolverStats::default();
    solver.stats(&mut s);
    s.z3_queries
}

/// Does a run with `config` stop at its first bug by finishing the
/// breadth-first level it is on? Then the bug it reports is the least
/// ([`Bug::key`]) of the shortest ones, whatever the number of workers
/// and their timing. Other strategies stop at once (they are not
/// level by level: finishing every path as short as the bug's could
/// cost as much as a breadth-first search).
pub(crate) fn finishes_level(config: &Config) -> bool {
    !config.all_bugs && config.strategy == Strategy::Bfs && config.merge == MergeMode::None
}

/// Is `state` beyond the level of the shortest bug (`cutoff` steps)? An
/// error state of that length is still confirmed; any other state of
/// that length only leads to longer paths.
fn beyond_cutoff(state: &SymState, cutoff: u64) -> bool {
    if state.error().is_some() {
        state.steps > cutoff
    } else {
        state.steps >= cutoff
    }
}

/// Records `bug`, found by a worker that holds `credit` of `pending` in
/// reserve. A `late` bug was confirmed while the run ended: stopping the
/// run stops every solver process, which may have cut the search for its
/// canonical witness (`minimise.rs`), so it takes no place a bug made
/// before the end holds, whatever their keys, and without `--all` it is
/// kept only if the run has no other. Else which witness a run reports
/// would depend on its timing: with two workers, one's bug stopped the
/// run while the other's shorter one was being minimised, whose witness
/// (reads of -1 instead of 1) then won.
fn record_bug(shared: &Shared, bug: Bug, credit: u64, late: bool) {
    let mut found = shared.found();
    let all = shared.config.all_bugs;
    if all {
        shared.known.insert(
            bug.kind,
            bug.span,
            bug.stack.clone(),
            bug.steps,
            bug.path_condition.clone(),
        );
    }
    // A pressed search dives (`BreadthFirst`), so its first bug can be
    // far deeper than the level it was on: finishing every shorter path
    // would cost the memory it is short of. It stops at once instead.
    let level =
        finishes_level(&shared.config) && !shared.monitor.memory_pressure.load(Ordering::Relaxed);
    if level {
        shared.cutoff.fetch_min(bug.steps, Ordering::SeqCst);
    }
    let same = found
        .bugs
        .iter()
        .position(|b| (b.kind, b.span, &b.stack) == (bug.kind, bug.span, &bug.stack));
    match same {
        // Keep the least path to each bug: the one every run reports.
        Some(i) => {
            if !late && bug.key() < found.bugs[i].key() {
                found.bugs[i] = bug;
            }
        }
        None if late && !all && !found.bugs.is_empty() => {}
        None => {
            found.bugs.push(bug);
            shared.monitor.bugs.fetch_add(1, Ordering::Relaxed);
        }
    }
    if !all && !level {
        // The bug's own state is still counted as pending, and so is the
        // finder's reserve (an idle worker holds none).
        if shared.monitor.pending.load(Ordering::SeqCst) > 1 + credit {
            found.incomplete.push(Incomplete::StoppedAtFirstBug);
        }
        shared.stop.store(true, Ordering::SeqCst);
    }
}

/// Keeps in `places` the length of the shortest path found to `place`.
fn least(places: &mut BTreeMap<(ErrorKind, Span), u64>, place: (ErrorKind, Span), steps: u64) {
    let known = places.entry(place).or_insert(steps);
    *known = steps.min(*known);
}

#[cfg(test)]
mod tests {
    use super::{Credit, CREDIT};
    use std::sync::atomic::{AtomicU64, Ordering};

    #[test]
    fn the_shared_count_bounds_the_states_and_is_exact_once_released() {
        let pending = AtomicU64::new(1);
        let mut credit = Credit::default();
        let mut states = 1u64;
        let mut writes = 0;
        // Forks and ends, as a worker makes them: the shared count is
        // never below the states, and is written far less often.
        for i in 0..10_000u64 {
            let before = pending.load(Ordering::SeqCst);
            if i % 3 == 0 {
                credit.give(1, &pending);
                states -= 1;
            } else {
                credit.take(1, &pending);
                states += 1;
            }
            writes += u64::from(pending.load(Ordering::SeqCst) != before);
            let shared = pending.load(Ordering::SeqCst);
            assert!(shared >= states);
            assert_eq!(shared, states + credit.held);
            assert!(credit.held <= 2 * CREDIT);
        }
        assert!(writes < 10_000 / CREDIT * 2, "{writes} writes");
        credit.release(&pending);
        assert_eq!(pending.load(Ordering::SeqCst), states);
    }
}
