//! Parallel exploration: `jobs` workers, each with its own Z3 context,
//! machine and symbolic domain, sharing the frontier by work stealing.
//!
//! Each worker keeps a local deque (FIFO for breadth-first, LIFO for
//! depth-first) and steals batches from the others when it runs dry.
//! Termination: `pending` counts the states that exist (queued anywhere or
//! being stepped). A worker adds its successors' count *before* they become
//! visible to thieves and removes the stepped state in the same atomic
//! operation, so `pending` never reaches 0 while a state exists.
//!
//! On an exhaustive run every reachable state is stepped whatever the
//! interleaving, so the verdict and (with `--all`) the set of bug
//! locations do not depend on the number of workers. Which bug is found
//! first, and how far a run cut by a bound gets, do.

use crate::path::PathCond;
use crate::run::{Config, Incomplete, Stats};
use crate::searcher::Strategy;
use crate::symbolic::{BranchStats, Symbolic};
use crate::witness::{self, Bug, Replay};
use crossbeam_deque::{Steal, Stealer, Worker};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use wiser_semantics::{Ir, Machine, State};
use wiser_smt::{CexCache, QueryCache, Solver, SolverStats, Z3Solver};

type SymState = State<Symbolic<Box<dyn Solver>>>;

/// Live counters of a run, readable from another thread (for a progress
/// display), and the switch that interrupts it.
#[derive(Debug, Default)]
pub struct Monitor {
    /// States that exist: queued in some deque or being stepped.
    pub pending: AtomicU64,
    /// States taken so far (flushed in batches of 64 per worker).
    pub states: AtomicU64,
    /// Bugs confirmed so far.
    pub bugs: AtomicU64,
    /// Queries that reached Z3 so far (flushed with `states`).
    pub solver_queries: AtomicU64,
    /// Set from outside (e.g. on Ctrl-C) to end the run early; the report
    /// then keeps what was found and says `interrupted`.
    pub interrupt: AtomicBool,
}

impl Monitor {
    /// A monitor with all counters at zero.
    pub fn new() -> Monitor {
        Monitor::default()
    }
}

/// What all workers share.
pub(crate) struct Shared<'a> {
    pub config: &'a Config,
    pub start: Instant,
    pub monitor: &'a Monitor,
    /// Set to make every worker stop.
    pub stop: AtomicBool,
    /// The largest `pending` seen at a flush.
    max_pending: AtomicU64,
    /// Set when the state count nears `max_states`: from then on workers
    /// count every state at once.
    near_limit: AtomicBool,
    /// What the run found.
    pub found: Mutex<Found>,
}

/// Results collected from the workers.
#[derive(Default)]
pub(crate) struct Found {
    pub bugs: Vec<Bug>,
    pub incomplete: Vec<Incomplete>,
    pub internal_errors: Vec<String>,
}

/// Per-worker counters, summed at the end.
#[derive(Default)]
pub(crate) struct WorkerStats {
    pub branches: BranchStats,
    pub solver: SolverStats,
}

impl<'a> Shared<'a> {
    pub fn new(config: &'a Config, monitor: &'a Monitor) -> Self {
        monitor.pending.store(1, Ordering::SeqCst);
        monitor.states.store(0, Ordering::SeqCst);
        Shared {
            config,
            start: Instant::now(),
            monitor,
            stop: AtomicBool::new(false),
            max_pending: AtomicU64::new(1),
            near_limit: AtomicBool::new(config.max_states < 4 * BATCH * 64),
            found: Mutex::new(Found::default()),
        }
    }

    fn halt(&self, why: Incomplete) {
        self.found
            .lock()
            .expect("no worker panics")
            .incomplete
            .push(why);
        self.stop.store(true, Ordering::SeqCst);
    }
}

/// Runs `jobs` workers to completion and sums their counters.
pub(crate) fn explore(ir: &Ir, shared: &Shared<'_>, jobs: usize) -> (Stats, usize) {
    let strategy = shared.config.strategy;
    let workers: Vec<Worker<SymState>> = (0..jobs)
        .map(|_| match strategy {
            Strategy::Bfs => Worker::new_fifo(),
            Strategy::Dfs => Worker::new_lifo(),
        })
        .collect();
    let stealers: Vec<Stealer<SymState>> = workers.iter().map(|w| w.stealer()).collect();
    let per_worker: Vec<WorkerStats> = std::thread::scope(|scope| {
        let handles: Vec<_> = workers
            .into_iter()
            .enumerate()
            .map(|(i, local)| {
                let stealers = &stealers;
                scope.spawn(move || work(i, local, stealers, shared, ir))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a worker panicked"))
            .collect()
    });
    let mut stats = Stats::default();
    for w in per_worker {
        stats.branches.add(&w.branches);
        stats.solver.add(&w.solver);
    }
    // A worker that drew a ticket past the limit did not step its state.
    stats.states = shared
        .monitor
        .states
        .load(Ordering::SeqCst)
        .min(shared.config.max_states);
    let left = shared.monitor.pending.load(Ordering::SeqCst) as usize;
    stats.max_frontier = shared.max_pending.load(Ordering::Relaxed) as usize;
    (stats, left)
}

/// Flush the local state count to the shared one this often.
const BATCH: u64 = 64;

fn work(
    me: usize,
    local: Worker<SymState>,
    stealers: &[Stealer<SymState>],
    shared: &Shared<'_>,
    ir: &Ir,
) -> WorkerStats {
    let config = shared.config;
    let mut chain = solver_chain(config);
    chain.set_deadline(config.timeout.map(|t| shared.start + t));
    let mut dom = Symbolic::new(chain);
    if config.validate {
        dom = dom.with_validation(config.solver_timeout);
    }
    let mut machine = Machine::new(ir);
    if me == 0 {
        local.push(State::initial(ir, &mut dom, PathCond::new()));
    }
    let mut out: Vec<SymState> = Vec::with_capacity(4);
    let mut unflushed = 0u64;
    let mut queries_flushed = 0u64;
    let mut batches = 0u64;
    let mut idle_spins = 0u32;
    let jobs = stealers.len() as u64;
    while !shared.stop.load(Ordering::Relaxed) {
        let Some(state) = local.pop().or_else(|| steal(me, &local, stealers)) else {
            if shared.monitor.pending.load(Ordering::SeqCst) == 0 {
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
        // Time and interrupts are checked on every state (a few tens of
        // nanoseconds), so a run with slow solver queries still stops on
        // time: the overshoot is at most one query (--solver-timeout).
        if shared.monitor.interrupt.load(Ordering::Relaxed) {
            shared.halt(Incomplete::Interrupted);
            break;
        }
        if config.timeout.is_some_and(|t| shared.start.elapsed() >= t) {
            shared.halt(Incomplete::Timeout);
            break;
        }
        unflushed += 1;
        // Near the state limit every state is counted at once, so the
        // limit is exact: no worker steps a state past it.
        if unflushed == BATCH || shared.near_limit.load(Ordering::Relaxed) {
            let taken = shared
                .monitor
                .states
                .fetch_add(unflushed, Ordering::Relaxed)
                + unflushed;
            unflushed = 0;
            let queries = z3_queries(dom.solver());
            shared
                .monitor
                .solver_queries
                .fetch_add(queries - queries_flushed, Ordering::Relaxed);
            queries_flushed = queries;
            batches += 1;
            if taken + 2 * BATCH * jobs >= config.max_states {
                shared.near_limit.store(true, Ordering::Relaxed);
            }
            let pending = shared.monitor.pending.load(Ordering::Relaxed);
            shared.max_pending.fetch_max(pending, Ordering::Relaxed);
            if !check_limits(shared, taken, batches.is_multiple_of(64)) {
                break;
            }
        }
        if state.error().is_some() {
            // A path is no longer than the number of states taken so far,
            // which the shared count underestimates by the unflushed ones.
            let taken = shared.monitor.states.load(Ordering::Relaxed) + BATCH * jobs;
            record_bug(shared, ir, &state, dom.solver(), taken + 16);
            shared.monitor.pending.fetch_sub(1, Ordering::SeqCst);
            continue;
        }
        machine.step(&mut dom, state, &mut out);
        if out.is_empty() {
            shared.monitor.pending.fetch_sub(1, Ordering::SeqCst);
        } else {
            // Count the successors (minus the stepped state) before any
            // thief can see them. A plain step (one successor) changes
            // nothing, and skipping it keeps the shared counter out of the
            // hot path.
            let added = out.len() as u64 - 1;
            if added > 0 {
                shared.monitor.pending.fetch_add(added, Ordering::SeqCst);
            }
            for s in out.drain(..) {
                local.push(s);
            }
        }
    }
    shared
        .monitor
        .states
        .fetch_add(unflushed, Ordering::Relaxed);
    if !dom.mismatches.is_empty() {
        let mut found = shared.found.lock().expect("no worker panics");
        found.internal_errors.append(&mut dom.mismatches);
        found.incomplete.push(Incomplete::InternalError);
    }
    let mut solver = SolverStats::default();
    dom.solver().stats(&mut solver);
    WorkerStats {
        branches: dom.stats.clone(),
        solver,
    }
}

fn z3_queries(solver: &dyn Solver) -> u64 {
    let mut s = SolverStats::default();
    solver.stats(&mut s);
    s.z3_queries
}

/// The solver chain of one worker, assembled from the configuration:
/// query cache, then counterexample cache, then incremental Z3.
pub(crate) fn solver_chain(config: &Config) -> Box<dyn Solver> {
    let z3 = Z3Solver::new(config.solver_timeout);
    Box::new(QueryCache::new(CexCache::new(z3, 16), 100_000))
}

fn steal(me: usize, local: &Worker<SymState>, stealers: &[Stealer<SymState>]) -> Option<SymState> {
    let n = stealers.len();
    loop {
        let mut retry = false;
        for k in 1..n {
            match stealers[(me + k) % n].steal_batch_and_pop(local) {
                Steal::Success(s) => return Some(s),
                Steal::Retry => retry = true,
                Steal::Empty => {}
            }
        }
        if !retry {
            return None;
        }
    }
}

/// Applies the state limit and (when `memory` is set, since reading it
/// costs a system call) the memory limit; false means stop.
pub(crate) fn check_limits(shared: &Shared<'_>, taken: u64, memory: bool) -> bool {
    let config = shared.config;
    // `taken` includes the state in hand: stepping it would exceed the limit.
    if taken > config.max_states {
        shared.halt(Incomplete::MaxStates);
        return false;
    }
    if let (true, Some(limit)) = (memory, config.max_memory) {
        if crate::memory::resident_bytes().is_some_and(|rss| rss >= limit) {
            shared.halt(Incomplete::MaxMemory);
            return false;
        }
    }
    true
}

fn record_bug(
    shared: &Shared<'_>,
    ir: &Ir,
    state: &SymState,
    solver: &mut Box<dyn Solver>,
    max_steps: u64,
) {
    let outcome = witness::confirm(ir, state, solver, max_steps);
    let mut found = shared.found.lock().expect("no worker panics");
    match outcome {
        Replay::Confirmed(bug) => {
            let new = !found
                .bugs
                .iter()
                .any(|b| (b.kind, b.span, &b.stack) == (bug.kind, bug.span, &bug.stack));
            if new {
                found.bugs.push(*bug);
                shared.monitor.bugs.fetch_add(1, Ordering::Relaxed);
            }
            if !shared.config.all_bugs {
                // The bug's own state is still counted as pending.
                if shared.monitor.pending.load(Ordering::SeqCst) > 1 {
                    found.incomplete.push(Incomplete::StoppedAtFirstBug);
                }
                shared.stop.store(true, Ordering::SeqCst);
            }
        }
        Replay::Infeasible => {}
        Replay::Undecided => found.incomplete.push(Incomplete::SolverUnknown),
        Replay::Mismatch(msg) => {
            found.internal_errors.push(msg);
            found.incomplete.push(Incomplete::InternalError);
        }
    }
}
