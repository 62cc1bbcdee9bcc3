//! Command-line arguments.

use crate::load::{Lang, LoadOptions};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::time::Duration;
use wiser_c::DataModel;
use wiser_engine::{Backend, Config, Strategy, DEFAULT_SEED, MAX_JOBS};
use wiser_semantics::Options;

/// wiser: a symbolic bug finder for IMP and C. It explores every path of a
/// program, reports each reachable error with an input that triggers it
/// (replayed before it is reported), and says `safe` only after an
/// exhaustive search. It also reads SV-COMP task files (.yml).
#[derive(Parser, Debug)]
#[command(name = "wiser", version, about, long_about = None, args_override_self = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Search for bugs symbolically. Exit: 0 safe, 1 bug, 3 unknown, 2 usage or input error.
    Check(CheckArgs),
    /// Run a program on concrete inputs. Exit: 0 normal end, 1 runtime error, 3 an assume failed, 4 step limit, 2 usage or input error.
    Run(RunArgs),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// For people.
    Text,
    /// One JSON object on stdout.
    Json,
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
pub enum LangArg {
    /// IMP.
    Imp,
    /// C (preprocessed by the system's cpp unless the file ends in .i).
    C,
}

impl LangArg {
    pub fn lang(self) -> Lang {
        match self {
            LangArg::Imp => Lang::Imp,
            LangArg::C => Lang::C,
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
    #[arg(long, value_enum)]
    pub lang: Option<LangArg>,
    /// C's integer sizes [default: the task's, else ilp32].
    #[arg(long, value_enum, value_name = "MODEL")]
    pub data_model: Option<DataModelArg>,
}

impl LangArgs {
    pub fn options<'a>(&self, assume: Option<&'a str>) -> LoadOptions<'a> {
        LoadOptions {
            lang: self.lang.map(LangArg::lang),
            data_model: self.data_model.map(DataModelArg::data_model),
            assume,
        }
    }
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The program: IMP, C (.c, .i), or an SV-COMP task file (.yml) whose input file is checked with its property and data model.
    pub file: PathBuf,
    #[command(flatten)]
    pub lang: LangArgs,
    /// What is a bug: `all` (every runtime error), `unreach-call` (only a call of reach_error()/__VERIFIER_error(), or IMP's `fail`; other errors make a path unknown), or an SV-COMP .prp file [default: all, or the task's].
    #[arg(long, value_name = "all|unreach-call|FILE.prp")]
    pub property: Option<String>,
    /// C only: when a bug is found, write a C file that replays its witness when compiled with the program (`gcc -m32 FILE.c OUT.c`: exit code 101 when the error is reached).
    #[arg(long, value_name = "OUT.c")]
    pub harness: Option<PathBuf>,
    /// IMP only: only consider inputs satisfying this condition, e.g. 'x >= 1 and x <= 12'.
    #[arg(long, value_name = "BEXPR")]
    pub assume: Option<String>,
    /// Search strategy.
    #[arg(long, value_enum, default_value = "bfs")]
    pub strategy: StrategyArg,
    /// Seed of the random choices of random-path search (same seed, same order with one worker).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Stop after exploring this many states (verdict unknown if states remain).
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    pub max_states: u64,
    /// Stop after this many seconds of wall time (0: no limit).
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
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
    /// Stop exploring when the process uses this many MiB of memory (verdict unknown).
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
    /// Signed fixed-width arithmetic wraps instead of being a `signed_overflow` error.
    #[arg(long)]
    pub wrap_signed: bool,
    /// Run Z3 inside this process instead of in a child process per worker
    /// (faster to start; a query that ignores its time limit then holds its
    /// worker until the run's time limit).
    #[arg(long, hide = true)]
    pub in_process_solver: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
}

impl CheckArgs {
    /// The number of workers: as asked, at most 64; by default the number
    /// of cores.
    pub fn jobs(&self) -> usize {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        match self.jobs {
            Some(n) => usize::try_from(n).unwrap_or(usize::MAX).min(MAX_JOBS),
            None => cores.min(MAX_JOBS),
        }
    }

    /// The engine configuration these arguments describe.
    pub fn config(&self) -> Config {
        let timeout = (self.timeout > 0.0 && self.timeout.is_finite())
            .then(|| Duration::from_secs_f64(self.timeout.min(1e9)));
        let solver_timeout =
            (self.solver_timeout > 0).then(|| Duration::from_millis(self.solver_timeout));
        Config::default()
            .with_strategy(self.strategy.strategy())
            .with_seed(self.seed)
            .with_max_states(self.max_states)
            .with_timeout(timeout)
            .with_solver_timeout(solver_timeout)
            .with_all_bugs(self.all)
            .with_jobs(self.jobs())
            .with_max_memory(self.max_memory.map(|mb| mb.saturating_mul(1 << 20)))
            .with_validation(self.validate)
            .with_options(Options {
                wrap_signed: self.wrap_signed,
            })
            .with_backend(backend(self.in_process_solver))
    }
}

#[derive(Args, Debug)]
pub struct RunArgs {
    /// The program: IMP, C (.c, .i), or an SV-COMP task file (.yml) whose input file is run.
    pub file: PathBuf,
    #[command(flatten)]
    pub lang: LangArgs,
    /// An input value: NAME=INT for a variable, NAME[INDEX]=INT for an array element. Repeatable; inputs not given are 0.
    #[arg(long, short = 'i', value_name = "NAME=INT")]
    pub input: Vec<String>,
    /// Values of the successive reads, comma-separated: IMP's `x = *`; in C the `__VERIFIER_nondet_*` calls (and uninitialised locals) in the order the run makes them.
    #[arg(long, value_name = "INT,INT,...", allow_hyphen_values = true)]
    pub reads: Option<String>,
    /// Stop after this many steps (exit 4).
    #[arg(long, value_name = "N", default_value_t = 1_000_000_000)]
    pub max_steps: u64,
    /// Signed fixed-width arithmetic wraps instead of being a `signed_overflow` error.
    #[arg(long)]
    pub wrap_signed: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
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
