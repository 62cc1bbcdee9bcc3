//! The flags of the engine commands `bmc`, `prove` and `verify`, and the
//! limits they share ([`EngineRunArgs`]).

use super::{
    engine_config, jobs, memory_limit, seconds, solver_limit, time_limit, TargetArgs,
    DEFAULT_MAX_MEMORY_MB,
};
use crate::error::CliError;
use crate::load::Program;
use crate::semantic_args::SemanticArgs;
use clap::{Args, ValueEnum};
use wiser_engine::{Bmc, Config, Method, ProveOptions, DEFAULT_MAX_K};
use wiser_ir::{Cfg, Pc};
#[derive(Args, Debug)]
pub struct BmcArgs {
    #[command(flatten)]
    pub target: TargetArgs,
    /// The bound: how often each loop's back edge may be taken per entry into the loop, and how deep a procedure may recurse; a path that would go further is cut.
    #[arg(long, value_name = "K", default_value_t = 8)]
    pub unwind: u32,
    /// The bound of the loop whose head is on line LINE (repeatable); it stays fixed while --unwind-max deepens the others.
    #[arg(long, value_name = "LINE:K")]
    pub unwind_loop: Vec<String>,
    /// Deepen the bound one by one from --unwind to K until there is a verdict.
    #[arg(long, value_name = "K")]
    pub unwind_max: Option<u32>,
    /// Also ask whether any path can go beyond the bound: if none can and no error is reachable, the verdict is safe (otherwise "no bug up to the bound" is unknown).
    #[arg(long)]
    pub unwinding_assertions: bool,
    /// Report every bug (one per location) instead of the first.
    #[arg(long)]
    pub all: bool,
    #[command(flatten)]
    pub run: EngineRunArgs,
}

#[derive(Args, Debug)]
pub struct ProveArgs {
    #[command(flatten)]
    pub target: TargetArgs,
    /// How to prove, after the cheap guessed invariants (Houdini) every method starts with.
    #[arg(long, value_enum, default_value = "auto")]
    pub method: MethodArg,
    /// k-induction deepens k from 1 to K.
    #[arg(long, value_name = "K", default_value_t = DEFAULT_MAX_K, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=4096))]
    pub max_k: usize,
    #[command(flatten)]
    pub run: EngineRunArgs,
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub target: TargetArgs,
    /// The engines to run side by side, comma-separated (one alone is run alone) [default: check,bmc,prove, and k-induction with 4 workers or more; with fewer, the prover runs k-induction after Spacer].
    #[arg(long, value_enum, value_delimiter = ',', value_name = "ENGINE,...")]
    pub engine: Vec<EngineArg>,
    /// Worker threads shared by the engines: one each for bmc, prove and k-induction, the rest for check (1 to 64) [default: the number of cores].
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub jobs: Option<u64>,
    #[command(flatten)]
    pub run: EngineRunArgs,
}

/// The methods of `wiser prove`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MethodArg {
    /// Spacer's inductive invariants, then k-induction with the time left.
    Auto,
    /// Spacer's inductive invariants only.
    Spacer,
    /// k-induction only, strengthened by the guessed invariants.
    KInduction,
}

/// An engine of `wiser verify`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EngineArg {
    /// Symbolic execution, as `wiser check`.
    Check,
    /// Bounded model checking from bound 1, deepened, with unwinding assertions.
    Bmc,
    /// Inductive invariants, as `wiser prove` (`--method spacer` beside a k-induction member).
    Prove,
    /// k-induction, as `wiser prove --method k-induction`.
    KInduction,
}

impl VerifyArgs {
    /// The engine configuration (limits, workers, property, solver): as
    /// `check`'s, symbolic execution is bounded by the time and memory
    /// (by default `check`'s), not by a number of states.
    pub fn config(&self) -> Config {
        self.run
            .config()
            .with_jobs(jobs(self.jobs))
            .with_max_states(u64::MAX)
            .with_max_memory(memory_limit(
                self.run.max_memory,
                Some(DEFAULT_MAX_MEMORY_MB),
            ))
    }

    /// The portfolio's members, each once, in the order asked.
    pub fn members(&self) -> Vec<wiser_engine::Member> {
        use wiser_engine::Member;
        if self.engine.is_empty() {
            return Member::defaults(jobs(self.jobs));
        }
        let mut asked = self.engine.clone();
        asked.dedup();
        let mut members: Vec<Member> = Vec::new();
        for e in asked {
            let m = match e {
                EngineArg::Check => Member::Symex,
                EngineArg::Bmc => Member::deepening_bmc(),
                EngineArg::Prove => Member::Prove,
                EngineArg::KInduction => Member::KInduction,
            };
            if !members.contains(&m) {
                members.push(m);
            }
        }
        members
    }
}

/// The limits, semantics and solver placement of a run of `bmc`,
/// `prove` or `verify`: the flags they take, defined once.
#[derive(Args, Debug)]
pub struct EngineRunArgs {
    /// Stop after this many seconds of wall time (0 or `none`: no limit).
    #[arg(long, value_name = "SECS", default_value_t = 60.0, value_parser = seconds, allow_hyphen_values = true)]
    pub timeout: f64,
    /// Give each solver query at most this many milliseconds (0: no limit; the run's time limit still applies).
    #[arg(long, value_name = "MS", default_value_t = 0)]
    pub solver_timeout: u64,
    /// Stop when the process (with its solver processes) uses this many MiB of memory (verdict unknown; 0: no limit) [default: no limit].
    #[arg(long, value_name = "MB")]
    pub max_memory: Option<u64>,
    /// No progress display on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    #[command(flatten)]
    pub semantics: SemanticArgs,
    /// Run Z3 inside this process instead of in a child process.
    #[arg(long, hide = true)]
    pub in_process_solver: bool,
}

impl EngineRunArgs {
    /// The engine configuration (limits, property, solver).
    fn config(&self) -> Config {
        engine_config(&self.semantics, self.in_process_solver)
            .with_timeout(time_limit(self.timeout))
            .with_solver_timeout(solver_limit(self.solver_timeout))
            .with_max_memory(memory_limit(self.max_memory, None))
    }
}

impl ProveArgs {
    /// The engine configuration (limits, property, solver).
    pub fn config(&self) -> Config {
        self.run.config()
    }

    /// The methods of the proof.
    pub fn options(&self) -> ProveOptions {
        let method = match self.method {
            MethodArg::Auto => Method::Auto,
            MethodArg::Spacer => Method::Spacer,
            MethodArg::KInduction => Method::KInduction,
        };
        ProveOptions {
            method,
            max_k: self.max_k,
        }
    }
}

impl BmcArgs {
    /// The engine configuration (limits, property, solver).
    pub fn config(&self) -> Config {
        self.run.config().with_all_bugs(self.all)
    }

    /// The bounds, with `--unwind-loop` lines resolved to loop heads.
    pub fn bounds(&self, program: &Program) -> Result<Bmc, CliError> {
        if let Some(max) = self.unwind_max {
            if max < self.unwind {
                return Err(CliError::usage(format!(
                    "--unwind-max {max} is below --unwind {}",
                    self.unwind
                ))
                .help("--unwind-max deepens the bound from --unwind up to K"));
            }
        }
        let cfg = Cfg::new(&program.ir);
        let mut unwind_loops = Vec::new();
        for item in &self.unwind_loop {
            let parsed = item.split_once(':').and_then(|(l, k)| {
                Some((l.trim().parse::<u32>().ok()?, k.trim().parse::<u32>().ok()?))
            });
            let Some((line, k)) = parsed else {
                return Err(CliError::usage(format!("--unwind-loop `{item}` is not LINE:K")).help("e.g. --unwind-loop 12:100 bounds the loop whose head is on line 12 to 100 iterations"));
            };
            let heads: Vec<Pc> = (0..program.ir.code.len() as Pc)
                .filter(|&pc| cfg.is_loop_head(pc))
                .filter(|&pc| program.line_col(program.ir.at(pc).span).line == line)
                .collect();
            if heads.is_empty() {
                return Err(CliError::usage(format!(
                    "--unwind-loop {item}: no loop has its head on line {line} of `{}`",
                    program.file.display()
                ))
                .help("give the line of the loop's `while` or `for`"));
            }
            unwind_loops.extend(heads.into_iter().map(|pc| (pc, k)));
        }
        Ok(Bmc {
            unwind: self.unwind,
            unwind_loops,
            unwind_max: self.unwind_max,
            unwinding_assertions: self.unwinding_assertions,
        })
    }
}
