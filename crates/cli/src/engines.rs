//! The `concolic` and `fuzz` commands: loading and inputs as for `run`,
//! the engines of `wiser_engine::concolic`, output, exit codes.

use crate::args::{ConcolicArgs, FuzzArgs};
use crate::error::CliError;
use crate::out::Stdout;
use crate::progress::{self, Interrupts};
use crate::{exit, inputs, load, render_engines};
use wiser_engine::concolic::{FuzzLimits, RunOutcome};

/// `wiser concolic`: returns the exit code (as `run`'s; 3 when a limit
/// cut the run short) and whether to leave without waiting for a worker
/// stuck in a slow step.
pub fn concolic(
    args: &ConcolicArgs,
    signals: &Interrupts,
    stdout: &Stdout,
) -> Result<(u8, bool), CliError> {
    let program = load::load_any(&args.file, &args.lang.options(None))?;
    if let Some(path) = &args.witness {
        crate::witness_yaml::check_language(&program, path)?;
    }
    let input = inputs::parse(
        &program.ir,
        &args.input,
        args.reads.as_deref(),
        inputs::INPUT,
    )?;
    for name in inputs::defaulted(&program.ir, &input) {
        crate::out::errln!("note: input `{name}` not given; it is 0");
    }
    let config = args.config();
    let report = progress::concolic(
        program.ir.clone(),
        &input,
        &config,
        args.solver.max_steps,
        signals,
    );
    render_engines::print(
        stdout,
        args.format,
        &args.file,
        &program,
        &report,
        &config,
        0,
    );
    write_witness(args.witness.as_deref(), &program, &report, &config)?;
    let abandoned = report.stats.abandoned_workers > 0;
    let Some(extra) = report.concolic() else {
        return Ok((exit::UNKNOWN, abandoned));
    };
    if !report.incomplete.is_empty() && !matches!(extra.run.outcome, RunOutcome::Bug(_)) {
        return Ok((exit::UNKNOWN, abandoned));
    }
    let code = match &extra.run.outcome {
        RunOutcome::Halted => exit::OK,
        RunOutcome::Bug(_) => exit::BUG,
        RunOutcome::Mismatch(m) => {
            crate::out::errln!("error: {m}");
            exit::UNKNOWN
        }
        RunOutcome::AssumeFailed { .. } => exit::ASSUME_FAILED,
        RunOutcome::Cut(_) => exit::UNKNOWN,
        RunOutcome::OutOfSteps | RunOutcome::Stopped => exit::OUT_OF_STEPS,
    };
    Ok((code, abandoned))
}

/// `wiser fuzz`: returns the exit code (1 bug, 3 none found) and whether
/// to leave without waiting for a worker stuck in a slow step.
pub fn fuzz(
    args: &FuzzArgs,
    signals: &Interrupts,
    stdout: &Stdout,
) -> Result<(u8, bool), CliError> {
    let program = load::load_any(&args.file, &args.lang.options(None))?;
    if let Some(path) = &args.witness {
        crate::witness_yaml::check_language(&program, path)?;
    }
    let flags = inputs::Flags {
        input: "--seed-input",
        reads: "--seed-reads",
    };
    let seed = inputs::parse(
        &program.ir,
        &args.seed_input,
        args.seed_reads.as_deref(),
        flags,
    )?;
    let config = args.config();
    let limits = FuzzLimits {
        max_runs: args.max_runs,
        max_steps: args.solver.max_steps,
    };
    let report = progress::fuzz(
        program.ir.clone(),
        seed,
        &config,
        limits,
        args.quiet,
        signals,
    );
    let max_runs = args.max_runs;
    render_engines::print(
        stdout,
        args.format,
        &args.file,
        &program,
        &report,
        &config,
        max_runs,
    );
    for e in &report.internal_errors {
        crate::out::errln!("error: {e}");
    }
    write_witness(args.witness.as_deref(), &program, &report, &config)?;
    let code = if report.bugs.is_empty() {
        exit::UNKNOWN
    } else {
        exit::BUG
    };
    Ok((code, report.stats.abandoned_workers > 0))
}

/// `--witness`: the violation witness of the first bug the run found
/// (these engines never say `safe`; every error is a bug to them).
fn write_witness(
    path: Option<&std::path::Path>,
    program: &load::Program,
    report: &wiser_engine::Report,
    config: &wiser_engine::Config,
) -> Result<(), CliError> {
    let Some(path) = path else {
        return Ok(());
    };
    let request = crate::witness_yaml::WitnessRequest {
        path,
        property: crate::task::PropertySpec::All,
        property_arg: None,
        bugs_only: true,
        semantics: config.options,
    };
    crate::witness_yaml::write_witness(program, report, &request)
}
