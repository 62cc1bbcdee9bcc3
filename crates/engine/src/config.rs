//! How to run a check (egg-style builder: `Config::default().with_...`).

use crate::merge::MergeMode;
use crate::record::Record;
use crate::searcher::{Strategy, DEFAULT_SEED};
use std::path::PathBuf;
use std::time::Duration;
use wiser_ir::ErrorKind;
use wiser_semantics::Options;

/// The property a run checks: the kinds of error that are bugs. An error
/// of another kind ends its path without being a bug (SV-COMP's
/// `unreach-call` is [`Property::unreach_call`]: only reaching the error
/// function is a bug, and undefined behaviour before it leaves the answer
/// open); the report lists where such errors were reachable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Property {
    /// One bit per kind, by its position in [`ErrorKind::ALL`].
    bits: u16,
}

impl Property {
    /// Every kind of error a run commits is a bug (the default): all but
    /// the terminal kinds ([`ErrorKind::is_terminal`], a memory leak, found
    /// after the program ended), which a property names explicitly.
    pub fn all() -> Property {
        let kinds: Vec<ErrorKind> = ErrorKind::ALL
            .into_iter()
            .filter(|k| !k.is_terminal())
            .collect();
        Property::only(&kinds)
    }

    /// Only these kinds are bugs.
    pub fn only(kinds: &[ErrorKind]) -> Property {
        let mut p = Property { bits: 0 };
        for &k in kinds {
            p.bits |= Property::bit(k);
        }
        p
    }

    /// SV-COMP's `unreach-call`: only an error location (`reach_error()`,
    /// IMP's `fail`) is a bug.
    pub fn unreach_call() -> Property {
        Property::only(&[ErrorKind::Fail])
    }

    fn bit(kind: ErrorKind) -> u16 {
        let i = ErrorKind::ALL
            .iter()
            .position(|&k| k == kind)
            .expect("ErrorKind::ALL lists every kind");
        1 << i
    }

    /// Is an error of this kind a bug?
    pub fn contains(self, kind: ErrorKind) -> bool {
        self.bits & Property::bit(kind) != 0
    }

    /// Is every kind a bug?
    pub fn is_all(self) -> bool {
        self == Property::all()
    }

    /// Does the program hold errors of this property's kinds that its IR
    /// does not check ([`wiser_ir::Ir::unchecked`])? Then no run of it
    /// says `safe` ([`crate::Incomplete::Unchecked`]).
    pub fn has_unchecked(self, ir: &wiser_ir::Ir) -> bool {
        ir.unchecked.iter().any(|(k, _)| self.contains(*k))
    }

    /// The kinds that are bugs, in [`ErrorKind::ALL`]'s order.
    pub fn kinds(self) -> Vec<ErrorKind> {
        ErrorKind::ALL
            .into_iter()
            .filter(|&k| self.contains(k))
            .collect()
    }
}

impl Default for Property {
    fn default() -> Self {
        Property::all()
    }
}

/// Where Z3 runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Backend {
    /// In this process, one context per worker thread, time limits by a
    /// watchdog that interrupts Z3. For tests and library use: a query
    /// that ignores interrupts holds its worker until it ends.
    #[default]
    InProcess,
    /// In a child process per worker (`program args...` serving the
    /// solver protocol of `wiser_smt::server`), killed when a query runs
    /// out of time or memory or the run ends: nothing Z3 does can hang or
    /// crash the run. The command line uses this.
    Process {
        /// The executable.
        program: PathBuf,
        /// Its arguments.
        args: Vec<String>,
    },
}

/// How to run a check.
#[derive(Clone, Debug)]
pub struct Config {
    /// The search strategy.
    pub strategy: Strategy,
    /// The seed of the strategy's random choices (random-path): the same
    /// seed gives the same order (with one worker).
    pub seed: u64,
    /// Stop after taking this many states from the frontier.
    pub max_states: u64,
    /// Stop after this much wall time.
    pub timeout: Option<Duration>,
    /// Bound on each solver query.
    pub solver_timeout: Option<Duration>,
    /// Keep searching after the first bug (each location is reported once).
    pub all_bugs: bool,
    /// Worker threads, each with its own solver (at most [`MAX_JOBS`]).
    pub jobs: usize,
    /// Stop exploring when the process (and its solver processes) reach
    /// this many bytes of resident memory.
    pub max_memory: Option<u64>,
    /// Cross-check every solver-layer decision against bare Z3 (slow).
    pub validate: bool,
    /// Do states keep their decision trails? Off by default: nothing in a
    /// report uses them yet, and they cost time and memory on deep paths.
    pub trails: bool,
    /// The kinds of error that are bugs (default: every kind).
    pub property: Property,
    /// Semantic options, shared by the search and witness replay.
    pub options: Options,
    /// Where Z3 runs.
    pub backend: Backend,
    /// When states are merged.
    pub merge: MergeMode,
    /// What to keep besides bugs: ended paths, coverage (default: nothing).
    pub record: Record,
}

/// The most workers a run uses: more than the cores gains nothing, and
/// each worker has its own solver (a process with the process backend).
pub const MAX_JOBS: usize = 64;

impl Default for Config {
    /// Breadth-first, one worker, at most 1,000,000 states and 60 s, 10 s
    /// per query, stop at the first bug: finite, so every run ends.
    fn default() -> Self {
        Config {
            strategy: Strategy::Bfs,
            seed: DEFAULT_SEED,
            max_states: 1_000_000,
            timeout: Some(Duration::from_secs(60)),
            solver_timeout: Some(Duration::from_secs(10)),
            all_bugs: false,
            jobs: 1,
            max_memory: None,
            validate: false,
            trails: false,
            property: Property::all(),
            options: Options::default(),
            backend: Backend::InProcess,
            merge: MergeMode::None,
            record: Record::default(),
        }
    }
}

impl Config {
    /// Sets the search strategy.
    pub fn with_strategy(mut self, s: Strategy) -> Self {
        self.strategy = s;
        self
    }
    /// Sets the seed of random choices.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
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
    /// Sets the number of worker threads (1 to [`MAX_JOBS`]).
    pub fn with_jobs(mut self, jobs: usize) -> Self {
        self.jobs = jobs.clamp(1, MAX_JOBS);
        self
    }
    /// Bounds the resident memory, in bytes (`None`: no bound).
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
    /// Sets the kinds of error that are bugs.
    pub fn with_property(mut self, property: Property) -> Self {
        self.property = property;
        self
    }
    /// Sets the semantic options.
    pub fn with_options(mut self, options: Options) -> Self {
        self.options = options;
        self
    }

    /// Sets whether states keep their decision trails.
    pub fn with_trails(mut self, trails: bool) -> Self {
        self.trails = trails;
        self
    }

    /// Sets when states are merged.
    pub fn with_merge(mut self, merge: MergeMode) -> Self {
        self.merge = merge;
        self
    }

    /// Sets what to keep besides bugs (ended paths, coverage).
    pub fn with_record(mut self, record: Record) -> Self {
        self.record = record;
        self
    }

    /// Sets where Z3 runs.
    pub fn with_backend(mut self, backend: Backend) -> Self {
        self.backend = backend;
        self
    }
}
