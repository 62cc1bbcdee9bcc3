//! One whole `check` run: configuration, stop reasons and the report.

use crate::explorer::{Event, Explorer};
use crate::searcher::Strategy;
use crate::symbolic::BranchStats;
use crate::witness::Bug;
use std::collections::HashSet;
use std::time::{Duration, Instant};
use wiser_semantics::Ir;
use wiser_smt::Z3Solver;

/// How to run a check (egg-style builder: `Config::default().with_...`).
#[derive(Clone, Debug)]
pub struct Config {
    /// The search strategy.
    pub strategy: Strategy,
    /// Stop after taking this many states from the frontier.
    pub max_states: u64,
    /// Stop after this much wall time.
    pub timeout: Option<Duration>,
    /// Bound on each solver query.
    pub solver_timeout: Option<Duration>,
    /// Keep searching after the first bug (each location is reported once).
    pub all_bugs: bool,
}

impl Default for Config {
    /// Breadth-first, at most 1,000,000 states and 60 s, 10 s per query,
    /// stop at the first bug: finite, so every run ends.
    fn default() -> Self {
        Config {
            strategy: Strategy::Bfs,
            max_states: 1_000_000,
            timeout: Some(Duration::from_secs(60)),
            solver_timeout: Some(Duration::from_secs(10)),
            all_bugs: false,
        }
    }
}

impl Config {
    /// Sets the search strategy.
    pub fn with_strategy(mut self, s: Strategy) -> Self {
        self.strategy = s;
        self
    }
    /// Sets the state limit.
    pub fn with_max_states(mut self, n: u64) -> Self {
        self.max_states = n;
        self
    }
    /// Sets the wall-time limit (`None`: no limit).
    pub fn with_timeout(mut self, t: Option<Duration>) -> Self {
        self.timeout = t;
        self
    }
    /// Sets the per-query solver limit (`None`: no limit).
    pub fn with_solver_timeout(mut self, t: Option<Duration>) -> Self {
        self.solver_timeout = t;
        self
    }
    /// Reports all bugs (one per location) instead of the first.
    pub fn with_all_bugs(mut self, all: bool) -> Self {
        self.all_bugs = all;
        self
    }
}

/// The answer of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// At least one bug, with a replayed witness.
    Bug,
    /// No bug on any path: the search was exhaustive.
    Safe,
    /// No bug found, but the search was not exhaustive (see `incomplete`).
    Unknown,
}

/// Why a run's search was not exhaustive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Incomplete {
    /// The state limit was reached.
    MaxStates,
    /// The time limit was reached.
    Timeout,
    /// The solver answered unknown on some query.
    SolverUnknown,
    /// The run stopped at the first bug with states left to explore.
    StoppedAtFirstBug,
    /// A witness failed to replay (an engine fault).
    InternalError,
}

impl Incomplete {
    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Incomplete::MaxStates => "max_states",
            Incomplete::Timeout => "timeout",
            Incomplete::SolverUnknown => "solver_unknown",
            Incomplete::StoppedAtFirstBug => "stopped_at_first_bug",
            Incomplete::InternalError => "internal_error",
        }
    }
}

/// Counters of a run.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// States taken from the frontier.
    pub states: u64,
    /// Largest frontier.
    pub max_frontier: usize,
    /// How branches were decided.
    pub branches: BranchStats,
    /// Queries that reached Z3.
    pub solver_queries: u64,
    /// Time spent in Z3.
    pub solver_time: Duration,
    /// Wall time of the run.
    pub elapsed: Duration,
}

/// The result of a run.
#[derive(Clone, Debug)]
pub struct Report {
    /// The answer.
    pub verdict: Verdict,
    /// Confirmed bugs, in the order found.
    pub bugs: Vec<Bug>,
    /// Why the search was not exhaustive (empty iff it was).
    pub incomplete: Vec<Incomplete>,
    /// Engine faults (witnesses that did not replay).
    pub internal_errors: Vec<String>,
    /// Counters.
    pub stats: Stats,
}

/// Runs the bug finder on `ir`.
pub fn check(ir: &Ir, config: &Config) -> Report {
    let start = Instant::now();
    let solver = Z3Solver::new(config.solver_timeout);
    let mut explorer = Explorer::new(ir, solver, config.strategy);
    let mut bugs: Vec<Bug> = Vec::new();
    let mut seen = HashSet::new();
    let mut incomplete = Vec::new();
    let mut internal_errors = Vec::new();
    loop {
        if explorer.stats.states >= config.max_states && explorer.frontier() > 0 {
            incomplete.push(Incomplete::MaxStates);
            break;
        }
        if explorer.stats.states % 256 == 0 {
            if let Some(t) = config.timeout {
                if start.elapsed() >= t {
                    incomplete.push(Incomplete::Timeout);
                    break;
                }
            }
        }
        match explorer.next() {
            None | Some(Event::Finished) => break,
            Some(Event::Pending | Event::Final(_)) => {}
            Some(Event::Undecided) => incomplete.push(Incomplete::SolverUnknown),
            Some(Event::InternalError(msg)) => {
                internal_errors.push(msg);
                incomplete.push(Incomplete::InternalError);
            }
            Some(Event::BugFound(bug)) => {
                if seen.insert((bug.kind, bug.span, bug.stack.clone())) {
                    bugs.push(*bug);
                }
                if !config.all_bugs {
                    if explorer.frontier() > 0 {
                        incomplete.push(Incomplete::StoppedAtFirstBug);
                    }
                    break;
                }
            }
        }
    }
    if explorer.saw_unknown() {
        incomplete.push(Incomplete::SolverUnknown);
    }
    incomplete.sort();
    incomplete.dedup();
    let verdict = if !bugs.is_empty() {
        Verdict::Bug
    } else if incomplete.is_empty() {
        Verdict::Safe
    } else {
        Verdict::Unknown
    };
    let z3 = explorer.domain().solver().stats.clone();
    let stats = Stats {
        states: explorer.stats.states,
        max_frontier: explorer.stats.max_frontier,
        branches: explorer.domain().stats.clone(),
        solver_queries: z3.queries,
        solver_time: z3.time,
        elapsed: start.elapsed(),
    };
    Report {
        verdict,
        bugs,
        incomplete,
        internal_errors,
        stats,
    }
}
