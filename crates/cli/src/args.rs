//! Command-line arguments.

use crate::error::CliError;
use crate::load::{LoadOptions, Registry};
use crate::semantic_args::SemanticArgs;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::{Path, PathBuf};
use std::time::Duration;
use wiser_engine::{Backend, Config, MergeMode, Record, Strategy, DEFAULT_SEED, MAX_JOBS};
use wiser_frontend::DataModel;

mod engines;
pub use engines::{BmcArgs, ProveArgs, VerifyArgs};

/// wiser: a symbolic bug finder for IMP and C. It explores every path of a
/// program, reports each reachable error with an input that triggers it
/// (replayed before it is reported), and says `safe` only after an
/// exhaustive search. It also reads SV-COMP task files (.yml).
#[derive(Parser, Debug)]
#[command(name = "wiser", version, about, long_about = None, args_override_self = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// When to colour `error:`, `warning:`, `bug:` and verdicts: `auto` on a terminal unless NO_COLOR is set.
    #[arg(
        long,
        value_enum,
        global = true,
        default_value = "auto",
        value_name = "WHEN"
    )]
    pub color: crate::out::ColorArg,
    /// Say more: the configuration used and the engine's and solver's statistics (on stderr).
    #[arg(long, short = 'v', global = true)]
    pub verbose: bool,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Search for bugs symbolically. Exit: 0 safe, 1 bug, 3 unknown, 2 usage or input error.
    Check(CheckArgs),
    /// Bounded model checking: every path up to a bound on loop iterations and recursion, in one solver query per bound. Exit: 0 safe, 1 bug, 3 unknown (e.g. no bug up to the bound), 2 usage or input error.
    Bmc(BmcArgs),
    /// Prove a program free of errors: inductive loop invariants found by Z3's Horn-clause engine (Spacer), each checked independently before the verdict is safe. Exit: 0 proved, 3 no proof, 2 usage or input error.
    Prove(ProveArgs),
    /// Verify a program with the engines side by side: symbolic execution and bounded model checking (deepened, with unwinding assertions) for bugs and bounded programs, the prover (Spacer) and k-induction for loops; the first definitive answer is taken, the others stopped. Without --max-memory, the process stops at 4096 MiB, as `check` does. Exit: 0 safe, 1 bug, 3 unknown, 2 usage or input error.
    Verify(VerifyArgs),
    /// Run a program on concrete inputs. Exit: 0 normal end, 1 runtime error, 3 an assume failed, 4 step limit, 2 usage or input error.
    Run(RunArgs),
    /// Run a program on one input concolically: print each symbolic decision of its path with the side taken and an input that takes the other side. Exit: as `run`.
    Concolic(ConcolicArgs),
    /// Serve the distributed runs of `wiser check --broker URL`: lease work items (path prefixes) from the Redis server at URL, explore them, hand prefixes back to hungry workers, post the results. Runs until stopped (Ctrl-C, SIGTERM) or idle for --exit-when-idle. See docs/DISTRIBUTED.md.
    Worker(WorkerArgs),
    /// Whitebox fuzzing (SAGE) from a seed input: flip the decisions of each run's path, run every new input, report bugs and branch coverage. Never says `safe`. Exit: 1 bug, 3 no bug found, 2 usage or input error.
    Fuzz(FuzzArgs),
    /// Print a shell completion script for wiser (e.g. `wiser completions bash > /etc/bash_completion.d/wiser`).
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print wiser's man page in roff (e.g. `wiser man > wiser.1 && man ./wiser.1`).
    Man,
}

impl Command {
    /// Does the command run an engine (whose report says `interrupted`
    /// when a signal stops it)?
    pub fn runs_an_engine(&self) -> bool {
        match self {
            Command::Check(args) => args.replay.is_none(),
            Command::Bmc(_)
            | Command::Prove(_)
            | Command::Verify(_)
            | Command::Concolic(_)
            | Command::Fuzz(_)
            | Command::Worker(_) => true,
            _ => false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// For people.
    Text,
    /// One JSON object on stdout (docs/schemas/wiser-report.schema.json).
    Json,
    /// SARIF 2.1.0 on stdout, for code scanning: a result per bug, its trace as a code flow.
    Sarif,
}

/// The search strategies; `docs/ENGINES.md` says how each orders states.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StrategyArg {
    /// Breadth-first, oldest state first (complete: finds every reachable bug, given time).
    Bfs,
    /// Depth-first (incomplete: can be trapped in an infinite path).
    Dfs,
    /// KLEE's random path down the tree of pending states, drawn from --seed (incomplete: a deep state may wait forever).
    RandomPath,
    /// Nearest to a branch side not yet taken, then oldest (incomplete: can keep circling an infeasible side).
    Coverage,
    /// random-path and breadth-first in turn (complete).
    #[value(name = "random-path+bfs")]
    RandomPathBfs,
    /// coverage and breadth-first in turn (complete).
    #[value(name = "coverage+bfs")]
    CoverageBfs,
}

impl StrategyArg {
    pub fn strategy(self) -> Strategy {
        match self {
            StrategyArg::Bfs => Strategy::Bfs,
            StrategyArg::Dfs => Strategy::Dfs,
            StrategyArg::RandomPath => Strategy::RandomPath,
            StrategyArg::Coverage => Strategy::Coverage,
            StrategyArg::RandomPathBfs => Strategy::RandomPathBfs,
            StrategyArg::CoverageBfs => Strategy::CoverageBfs,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MergeArg {
    /// Never merge: one state per path (WiSE's tree).
    None,
    /// Merge states that meet at the same place with the same call stack (the end of an if, a loop exit): values become if-then-else terms, path conditions are disjoined.
    Joins,
    /// As joins, but not when a differing variable is a constant in one state and later decides a branch (the merge would make that branch fork).
    Auto,
}

impl MergeArg {
    pub fn mode(self) -> MergeMode {
        match self {
            MergeArg::None => MergeMode::None,
            MergeArg::Joins => MergeMode::Joins,
            MergeArg::Auto => MergeMode::Auto,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DataModelArg {
    /// 32-bit int, long and pointers (gcc -m32; SV-COMP's usual model).
    Ilp32,
    /// 32-bit int, 64-bit long and pointers (gcc -m64).
    Lp64,
}

impl DataModelArg {
    pub fn data_model(self) -> DataModel {
        match self {
            DataModelArg::Ilp32 => DataModel::Ilp32,
            DataModelArg::Lp64 => DataModel::Lp64,
        }
    }
}

/// How to read the file (shared by `check` and `run`).
#[derive(Args, Debug)]
pub struct LangArgs {
    /// The language of FILE [default: by extension: .c and .i are C, .yml and .yaml SV-COMP tasks, anything else IMP].
    #[arg(long, value_name = "LANG")]
    pub lang: Option<String>,
    /// C's integer sizes [default: the task's, else ilp32].
    #[arg(long, value_enum, value_name = "MODEL")]
    pub data_model: Option<DataModelArg>,
    /// C: `malloc`, `calloc` and `realloc` may return NULL (each call has both outcomes) [default: they never fail].
    #[arg(long)]
    pub malloc_may_fail: bool,
    /// The front ends to choose from (set by [`crate::run`], not parsed).
    #[arg(skip)]
    pub frontends: Registry,
}

impl LangArgs {
    pub fn options<'a>(&'a self, assume: Option<&'a str>) -> LoadOptions<'a> {
        LoadOptions {
            frontends: self.frontends,
            lang: self.lang.as_deref(),
            data_model: self.data_model.map(DataModelArg::data_model),
            assume,
            malloc_may_fail: self.malloc_may_fail,
        }
    }
}

/// What a verification command was asked to look at.
pub struct Target<'a> {
    pub file: &'a PathBuf,
    pub lang: &'a LangArgs,
    pub assume: Option<&'a str>,
    pub property: Option<&'a str>,
    pub harness: Option<&'a Path>,
    /// Where to write an SV-COMP witness (`--witness`).
    pub witness: Option<&'a Path>,
    pub format: Format,
    /// Show each bug's trace (`--trace`).
    pub trace: bool,
}

/// What `check` and `bmc` look at, and how they answer.
#[derive(Args, Debug)]
pub struct TargetArgs {
    /// The program: IMP, C (.c, .i), or an SV-COMP task file (.yml) whose input file is checked with its property and data model; `-` reads an IMP program from standard input. `check --replay DIR` needs none (each test names its program).
    pub file: Option<PathBuf>,
    /// More programs, checked one after the other with the same options (the exit code is the worst verdict's: 2 error, then 1 bug, 3 unknown, 0 safe).
    #[arg(value_name = "FILE")]
    pub more_files: Vec<PathBuf>,
    #[command(flatten)]
    pub lang: LangArgs,
    /// What is a bug: `all` (every runtime error), `unreach-call` (only a call of reach_error()/__VERIFIER_error(), or IMP's `fail`; other errors make a path unknown), or an SV-COMP .prp file [default: all, or the task's].
    #[arg(long, value_name = "all|unreach-call|FILE.prp")]
    pub property: Option<String>,
    /// C only: when a bug is found, write a C file that replays its witness when compiled with the program (`gcc -m32 FILE.c OUT.c`: exit code 101 when the error is reached).
    #[arg(long, value_name = "OUT.c")]
    pub harness: Option<PathBuf>,
    /// C only: write an SV-COMP witness (format 2.0, YAML): for a bug, a violation witness (the first bug's path and nondet values); for safe, a correctness witness (the proof's loop invariants as C expressions). Nothing for unknown.
    #[arg(long, value_name = "FILE.yml")]
    pub witness: Option<PathBuf>,
    /// IMP only: only consider inputs satisfying this condition, e.g. 'x >= 1 and x <= 12'.
    #[arg(long, value_name = "BEXPR")]
    pub assume: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Show each bug's trace: its witness's run step by step (assignments with their values, branches with the side taken, calls, returns), ending at the error.
    #[arg(long)]
    pub trace: bool,
}

impl TargetArgs {
    /// Every file asked for, in order.
    pub fn files(&self) -> impl Iterator<Item = &PathBuf> {
        self.file.iter().chain(&self.more_files)
    }

    /// The target as the shared verification code takes it; an error if
    /// no FILE was given.
    pub fn target(&self) -> Result<Target<'_>, CliError> {
        let file = self.file.as_ref().ok_or_else(|| CliError::usage("no FILE given").help("give the program to check: `wiser check FILE` (or `wiser check --replay DIR` to replay a test suite)"))?;
        Ok(Target {
            file,
            lang: &self.lang,
            assume: self.assume.as_deref(),
            property: self.property.as_deref(),
            harness: self.harness.as_deref(),
            witness: self.witness.as_deref(),
            format: self.format,
            trace: self.trace,
        })
    }
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub target: TargetArgs,
    /// Search strategy (with --broker, dfs spreads an unbalanced tree best: the states a worker hands to hungry workers, those nearest the root, then hold whole subtrees; docs/DISTRIBUTED.md).
    #[arg(long, value_enum, default_value = "bfs")]
    pub strategy: StrategyArg,
    /// State merging: states are then taken in topological order of their position (every eighth the oldest, so the search stays complete) instead of by --strategy.
    #[arg(long, value_enum, default_value = "none")]
    pub merge: MergeArg,
    /// Seed of the random choices of random-path search (same seed, same order with one worker).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Stop after exploring this many states (verdict unknown if states remain; 0: no limit, the default: the run is bounded by --timeout and --max-memory).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub max_states: u64,
    /// Stop after this many seconds of wall time (0 or `none`: no limit).
    #[arg(long, value_name = "SECS", default_value_t = 60.0, value_parser = seconds, allow_hyphen_values = true)]
    pub timeout: f64,
    /// Give each solver query at most this many milliseconds; a query that
    /// runs out answers unknown (never taken as unsatisfiable).
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub solver_timeout: u64,
    /// Report every bug (one per location) instead of stopping at the first.
    #[arg(long)]
    pub all: bool,
    /// Worker threads, each with its own solver process (1 to 64) [default: the number of cores].
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub jobs: Option<u64>,
    /// Stop exploring when the process (with its solver processes) uses this many MiB of memory (verdict unknown; 0: no limit) [default: 4096].
    #[arg(long, value_name = "MB")]
    pub max_memory: Option<u64>,
    /// Cross-check every answer of the solver layers against bare Z3 (slow);
    /// any disagreement is reported as an internal error. Witnesses are
    /// always replayed on the concrete interpreter.
    #[arg(long)]
    pub validate: bool,
    /// No progress display on stderr (it is shown only on a terminal anyway).
    #[arg(long, short = 'q')]
    pub quiet: bool,
    #[command(flatten)]
    pub semantics: SemanticArgs,
    /// Run Z3 inside this process instead of in a child process per worker
    /// (faster to start; a query that ignores its time limit then holds its
    /// worker until the run's time limit).
    #[arg(long, hide = true)]
    pub in_process_solver: bool,
    /// Write one test file per bug into DIR (created if missing; a folder holding only an earlier suite is replaced), for `wiser run --test`; for C also Test-Comp's XML test suite. See docs/TESTS.md.
    #[arg(long, value_name = "DIR")]
    pub tests: Option<PathBuf>,
    /// With --tests: explore every path and write one test per path that ends (test-suite generation).
    #[arg(long, requires = "tests")]
    pub all_paths: bool,
    /// Replay every test file (*.json) in DIR on the concrete interpreter, against the program each names (or FILE if given); exit 0 all pass, 1 a mismatch, 2 a test could not be run.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["tests", "all_paths", "assume", "harness", "witness", "property"])]
    pub replay: Option<PathBuf>,
    /// Report coverage after the verdict: statements reached, branches with both, one or no side taken, assertions never reached (JSON: a `coverage` object).
    #[arg(long)]
    pub coverage: bool,
    /// Write the coverage as an lcov tracefile (for genhtml and other lcov viewers).
    #[arg(long, value_name = "FILE")]
    pub lcov: Option<PathBuf>,
    /// Draw the symbolic execution tree into FILE: .svg, .html (click a node for its path condition and witness) or .dot (Graphviz). Beyond 300 nodes, subtrees are summarised.
    #[arg(long, value_name = "FILE")]
    pub tree: Option<PathBuf>,
    /// Explore on the workers that serve the Redis server at URL (`wiser worker --broker URL`, on any machines) instead of in this process, which coordinates and confirms every bug again; --jobs is then each worker's threads. See docs/DISTRIBUTED.md.
    #[arg(long, value_name = "URL", env = "WISER_BROKER", conflicts_with_all = ["tree", "all_paths", "coverage", "lcov", "replay"])]
    pub broker: Option<String>,
}

#[derive(Args, Debug)]
pub struct WorkerArgs {
    /// The Redis server (version 7 or later) that coordinators (`wiser check --broker URL`) use, e.g. redis://127.0.0.1:6379.
    #[arg(long, value_name = "URL", env = "WISER_BROKER")]
    pub broker: String,
    /// This worker's name among the run's workers (unique) [default: HOST-PID].
    #[arg(long, value_name = "NAME", env = "WISER_WORKER_NAME")]
    pub name: Option<String>,
    /// Seconds an item stays leased to a worker that stopped renewing it (one that was killed) before another worker takes it over.
    #[arg(long, value_name = "SECS", default_value_t = 5.0, value_parser = seconds, env = "WISER_LEASE")]
    pub lease: f64,
    /// Exit after this many seconds with nothing to do (0: serve until stopped).
    #[arg(long, value_name = "SECS", default_value_t = 0.0, value_parser = seconds, env = "WISER_EXIT_WHEN_IDLE")]
    pub exit_when_idle: f64,
    /// No summary on stderr when the worker exits.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

impl CheckArgs {
    /// What the run keeps besides bugs: paths for --tree and --all-paths
    /// (a test per path), coverage for --coverage and --lcov.
    pub fn record(&self) -> Record {
        Record {
            paths: self.tree.is_some() || self.all_paths,
            coverage: self.coverage || self.lcov.is_some(),
            max_paths: 0,
        }
    }

    /// The engine configuration these arguments describe.
    pub fn config(&self) -> Config {
        engine_config(&self.semantics, self.in_process_solver)
            .with_strategy(self.strategy.strategy())
            .with_seed(self.seed)
            .with_max_states(match self.max_states {
                0 => u64::MAX,
                n => n,
            })
            .with_timeout(time_limit(self.timeout))
            .with_solver_timeout(solver_limit(self.solver_timeout))
            .with_all_bugs(self.all || self.all_paths)
            .with_jobs(jobs(self.jobs))
            .with_max_memory(memory_limit(self.max_memory, Some(DEFAULT_MAX_MEMORY_MB)))
            .with_validation(self.validate)
            .with_merge(self.merge.mode())
            .with_record(self.record())
    }
}

// One meaning for each value of a limit, whichever command it is given
// to: the functions below are the only places that read one, and every
// subcommand's `config` goes through them.

/// The configuration every engine command starts from: the semantic
/// options and where the solver runs.
fn engine_config(semantics: &SemanticArgs, in_process_solver: bool) -> Config {
    Config::default()
        .with_options(semantics.options())
        .with_backend(backend(in_process_solver))
}

/// The number of workers (`--jobs`): as asked, at most 64; by default the
/// number of cores.
fn jobs(asked: Option<u64>) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    match asked {
        Some(n) => usize::try_from(n).unwrap_or(usize::MAX).min(MAX_JOBS),
        None => cores.min(MAX_JOBS),
    }
}

/// Parses a time limit in seconds: a finite number, at least 0; `0` and
/// `none` mean no limit. `inf` and `nan` are refused rather than read as
/// "no limit" by accident.
pub fn seconds(text: &str) -> Result<f64, String> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("none") {
        return Ok(0.0);
    }
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        Ok(v) if v.is_finite() => Err(format!("{text} is negative; for no limit give 0 or `none`")),
        Ok(_) => Err(format!(
            "{text} is not a number of seconds; for no limit give 0 or `none`"
        )),
        Err(_) => Err(format!(
            "{text} is not a number of seconds (e.g. 60 or 0.5)"
        )),
    }
}

/// `check`'s memory limit when `--max-memory` is not given, in MiB.
///
/// With no state limit by default (a fixed number of states is used up in
/// half a second by a concrete loop, yet never reached in a minute by a
/// solver-bound search), memory is what a long breadth-first run exhausts
/// first: about 1 KB per waiting state, so 4 GiB holds some four million.
pub const DEFAULT_MAX_MEMORY_MB: u64 = 4096;

/// The memory limit in bytes: `--max-memory` in MiB, else the command's
/// default; 0 is no limit.
fn memory_limit(mb: Option<u64>, default: Option<u64>) -> Option<u64> {
    match mb.or(default)? {
        0 => None,
        mb => Some(mb.saturating_mul(1 << 20)),
    }
}

/// The run's time limit (`--timeout` in seconds; 0: none).
fn time_limit(seconds: f64) -> Option<Duration> {
    (seconds > 0.0 && seconds.is_finite()).then(|| Duration::from_secs_f64(seconds.min(1e9)))
}

/// Each solver query's time limit (`--solver-timeout` in ms; 0: none).
fn solver_limit(ms: u64) -> Option<Duration> {
    (ms > 0).then(|| Duration::from_millis(ms))
}

#[derive(Args, Debug)]
pub struct RunArgs {
    /// The program: IMP, C (.c, .i), or an SV-COMP task file (.yml) whose input file is run. With --test: the program the test names, unless given.
    #[arg(required_unless_present = "test")]
    pub file: Option<PathBuf>,
    /// Replay a test file written by `check --tests`: run its input and compare the outcome with the expected one (exit 0 as expected, 1 not).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["input", "reads"])]
    pub test: Option<PathBuf>,
    #[command(flatten)]
    pub lang: LangArgs,
    /// An input value: NAME=INT for a variable, NAME[INDEX]=INT for an array element. Repeatable; inputs not given are 0.
    #[arg(long, short = 'i', value_name = "NAME=INT")]
    pub input: Vec<String>,
    /// Values of the successive reads, comma-separated: IMP's `x = *`; in C the `__VERIFIER_nondet_*` calls (and uninitialised locals) in the order the run makes them. For a C `main` that takes `argv`, the first reads are its command line (as a bug report's input lists them), unless it is given after `--`.
    #[arg(long, value_name = "INT,INT,...", allow_hyphen_values = true)]
    pub reads: Option<String>,
    /// C programs whose `main` takes `argv`: the command line after the program's name (`wiser run prog.c -- -n 7`); --reads then gives only the program's own reads. Without it and without --reads, `argc` is 1.
    #[arg(last = true, value_name = "ARG")]
    pub args: Vec<std::ffi::OsString>,
    /// Stop after this many steps (exit 4).
    #[arg(long, value_name = "N", default_value_t = 1_000_000_000)]
    pub max_steps: u64,
    /// Signed fixed-width arithmetic wraps instead of being a `signed_overflow` error.
    #[arg(long)]
    pub wrap_signed: bool,
    /// Programs with threads: the schedule to follow, as `POINT:THREAD,...` (at scheduling point POINT, counted from 0, thread THREAD runs; elsewhere the running thread goes on while it can, else the lowest thread id that can run). A bug report's witness gives it.
    #[arg(long, value_name = "POINT:THREAD,...")]
    pub schedule: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Show the run step by step: assignments with their values, branches with the side taken, calls and returns (the first and last 500 steps of a long run).
    #[arg(long)]
    pub trace: bool,
    /// No progress display on stderr (it is shown only on a terminal, after a second).
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// The hidden first argument that makes `wiser` serve the solver protocol
/// on its standard input and output (a child of a `check` run).
pub const SOLVER_SERVER: &str = "__solver-server";

/// Z3 in a child process running this executable, unless asked otherwise
/// or the executable cannot be found.
fn backend(in_process: bool) -> Backend {
    match std::env::current_exe() {
        Ok(program) if !in_process => Backend::Process {
            program,
            args: vec![SOLVER_SERVER.to_string()],
        },
        _ => Backend::InProcess,
    }
}

/// The solver's limits and place, shared by `concolic` and `fuzz`.
#[derive(Args, Debug)]
pub struct SolverArgs {
    /// Give each solver query at most this many milliseconds; an
    /// undecided flip is retried with the other variables pinned (see
    /// docs/ENGINES.md).
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub solver_timeout: u64,
    /// Stop each run after this many steps.
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    pub max_steps: u64,
    #[command(flatten)]
    pub semantics: SemanticArgs,
    /// Run Z3 inside this process instead of in a child process per worker.
    #[arg(long, hide = true)]
    pub in_process_solver: bool,
}

impl SolverArgs {
    /// The engine configuration: solver, backend and semantic options.
    pub fn config(&self) -> Config {
        engine_config(&self.semantics, self.in_process_solver)
            .with_solver_timeout(solver_limit(self.solver_timeout))
    }
}

#[derive(Args, Debug)]
pub struct ConcolicArgs {
    /// The program: IMP, C (.c, .i), or an SV-COMP task file (.yml) whose input file is run.
    pub file: PathBuf,
    #[command(flatten)]
    pub lang: LangArgs,
    /// An input value: NAME=INT for a variable, NAME[INDEX]=INT for an array element. Repeatable; inputs not given are 0.
    #[arg(long, short = 'i', value_name = "NAME=INT")]
    pub input: Vec<String>,
    /// Values of the successive reads, comma-separated (as for `run`).
    #[arg(long, value_name = "INT,INT,...", allow_hyphen_values = true)]
    pub reads: Option<String>,
    /// C only: when a bug is found, write an SV-COMP violation witness (format 2.0, YAML) of the first bug: its path and nondet values.
    #[arg(long, value_name = "FILE.yml")]
    pub witness: Option<PathBuf>,
    /// Stop after this many seconds of wall time (0 or `none`: no limit).
    #[arg(long, value_name = "SECS", default_value_t = 60.0, value_parser = seconds, allow_hyphen_values = true)]
    pub timeout: f64,
    /// Stop when the process (with its solver processes) uses this many MiB of memory (0: no limit) [default: 4096].
    #[arg(long, value_name = "MB")]
    pub max_memory: Option<u64>,
    #[command(flatten)]
    pub solver: SolverArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
}

impl ConcolicArgs {
    /// The engine configuration these arguments describe.
    pub fn config(&self) -> Config {
        self.solver
            .config()
            .with_timeout(time_limit(self.timeout))
            .with_max_memory(memory_limit(self.max_memory, Some(DEFAULT_MAX_MEMORY_MB)))
    }
}

#[derive(Args, Debug)]
pub struct FuzzArgs {
    /// The program: IMP, C (.c, .i), or an SV-COMP task file (.yml) whose input file is fuzzed.
    pub file: PathBuf,
    #[command(flatten)]
    pub lang: LangArgs,
    /// A value of the seed input: NAME=INT, or NAME[INDEX]=INT for an array element. Repeatable; inputs not given are 0.
    #[arg(long, value_name = "NAME=INT")]
    pub seed_input: Vec<String>,
    /// The seed's read values, comma-separated (as `run --reads`).
    #[arg(long, value_name = "INT,INT,...", allow_hyphen_values = true)]
    pub seed_reads: Option<String>,
    /// Stop after this many runs (the seed's run is run 1).
    #[arg(long, value_name = "N", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_runs: u64,
    /// Stop after this many seconds of wall time (0 or `none`: no limit).
    #[arg(long, value_name = "SECS", default_value_t = 60.0, value_parser = seconds, allow_hyphen_values = true)]
    pub timeout: f64,
    /// Worker threads flipping decisions and running the new inputs, each with its own solver (1 to 64) [default: the number of cores].
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub jobs: Option<u64>,
    /// Stop when the process (with its solver processes) uses this many MiB of memory (0: no limit) [default: 4096].
    #[arg(long, value_name = "MB")]
    pub max_memory: Option<u64>,
    /// Keep fuzzing after the first bug (each location is reported once).
    #[arg(long)]
    pub all: bool,
    /// C only: when a bug is found, write an SV-COMP violation witness (format 2.0, YAML) of the first bug: its path and nondet values.
    #[arg(long, value_name = "FILE.yml")]
    pub witness: Option<PathBuf>,
    /// No progress display on stderr (it is shown only on a terminal anyway).
    #[arg(long, short = 'q')]
    pub quiet: bool,
    #[command(flatten)]
    pub solver: SolverArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
}

impl FuzzArgs {
    /// The engine configuration these arguments describe.
    pub fn config(&self) -> Config {
        self.solver
            .config()
            .with_timeout(time_limit(self.timeout))
            .with_jobs(jobs(self.jobs))
            .with_max_memory(memory_limit(self.max_memory, Some(DEFAULT_MAX_MEMORY_MB)))
            .with_all_bugs(self.all)
    }
}

/// The output format a command was asked for.
pub fn format_of(command: &Command) -> Format {
    match command {
        Command::Check(a) => a.target.format,
        Command::Bmc(a) => a.target.format,
        Command::Prove(a) => a.target.format,
        Command::Verify(a) => a.target.format,
        Command::Run(a) => a.format,
        Command::Concolic(a) => a.format,
        Command::Fuzz(a) => a.format,
        Command::Completions { .. } | Command::Man | Command::Worker(_) => Format::Text,
    }
}

/// A file that may not be given (`run --test`, `check --replay`), or the
/// empty path.
fn or_none(file: &Option<std::path::PathBuf>) -> &Path {
    match file {
        Some(f) => f,
        None => Path::new(""),
    }
}

/// The file a command was given.
pub fn file_of(command: &Command) -> &Path {
    match command {
        Command::Check(a) => or_none(&a.target.file),
        Command::Bmc(a) => or_none(&a.target.file),
        Command::Prove(a) => or_none(&a.target.file),
        Command::Verify(a) => or_none(&a.target.file),
        Command::Run(a) => or_none(&a.file),
        Command::Concolic(a) => &a.file,
        Command::Fuzz(a) => &a.file,
        Command::Completions { .. } | Command::Man | Command::Worker(_) => Path::new(""),
    }
}
