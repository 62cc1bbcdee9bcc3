//! One whole `check` run: configuration, stop reasons and the report.

use crate::memory::{peak_resident_bytes, resident_bytes};
use crate::parallel::{self, Found, Monitor, Shared};
use crate::searcher::Strategy;
use crate::symbolic::BranchStats;
use crate::witness::Bug;
use std::time::Duration;
use wiser_semantics::Ir;
use wiser_smt::SolverStats;

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
    /// Worker threads, each with its own Z3 context.
    pub jobs: usize,
    /// Stop exploring when the process's resident memory reaches this many
    /// bytes.
    pub max_memory: Option<u64>,
    /// Cross-check every solver-layer decision against bare Z3 (slow).
    pub validate: bool,
}

impl Default for Config {
    /// Breadth-first, one worker, at most 1,000,000 states and 60 s, 10 s
    /// per query, stop at the first bug: finite, so every run ends.
    fn default() -> Self {
        Config {
            strategy: Strategy::Bfs,
            max_states: 1_000_000,
            timeout: Some(Duration::from_secs(60)),
            solver_timeout: Some(Duration::from_secs(10)),
            all_bugs: false,
            jobs: 1,
            max_memory: None,
            validate: false,
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
    /// Sets the number of worker threads.
    pub fn with_jobs(mut self, jobs: usize) -> Self {
        self.jobs = jobs.max(1);
        self
    }
    /// Bounds the process's resident memory, in bytes (`None`: no bound).
    pub fn with_max_memory(mut self, bytes: Option<u64>) -> Self {
        self.max_memory = bytes;
        self
    }
    /// Cross-checks the solver layers against bare Z3.
    pub fn with_validation(mut self, validate: bool) -> Self {
        self.validate = validate;
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
    /// The memory bound was reached.
    MaxMemory,
    /// The run was interrupted (Ctrl-C).
    Interrupted,
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
            Incomplete::MaxMemory => "max_memory",
            Incomplete::Interrupted => "interrupted",
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
    /// What the solver chain did.
    pub solver: SolverStats,
    /// Wall time of the run.
    pub elapsed: Duration,
    /// Peak resident memory of the process, in bytes (0 if unknown).
    pub peak_memory: u64,
    /// Memory growth during the run divided by the largest frontier: an
    /// estimate of what one waiting state costs, shared structure included.
    /// `None` below a thousand waiting states, where fixed costs (Z3's own
    /// memory) swamp it.
    pub bytes_per_state: Option<u64>,
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
    check_monitored(ir, config, &Monitor::new())
}

/// Runs the bug finder on `ir`, publishing live counters in `monitor` and
/// stopping early (with what was found) when its `interrupt` is set.
pub fn check_monitored(ir: &Ir, config: &Config, monitor: &Monitor) -> Report {
    let baseline = resident_bytes().unwrap_or(0);
    let shared = Shared::new(config, monitor);
    let (mut stats, _) = parallel::explore(ir, &shared, config.jobs.max(1));
    stats.elapsed = shared.start.elapsed();
    stats.peak_memory = peak_resident_bytes().unwrap_or(0);
    stats.bytes_per_state = (stats.max_frontier >= 1000)
        .then(|| stats.peak_memory.saturating_sub(baseline) / stats.max_frontier as u64);
    let Found {
        mut bugs,
        mut incomplete,
        internal_errors,
    } = shared.found.into_inner().expect("no worker panics");
    if stats.branches.unknown > 0 {
        incomplete.push(Incomplete::SolverUnknown);
    }
    incomplete.sort();
    incomplete.dedup();
    // Workers find bugs in no fixed order; report them by location.
    bugs.sort_by_key(|b| (b.span, b.kind));
    let verdict = if !bugs.is_empty() {
        Verdict::Bug
    } else if incomplete.is_empty() {
        Verdict::Safe
    } else {
        Verdict::Unknown
    };
    Report {
        verdict,
        bugs,
        incomplete,
        internal_errors,
        stats,
    }
}
