//! The `concolic` and `fuzz` commands: loading and inputs as for `run`,
//! the engines of `wiser_engine::concolic`, output, exit codes.

use crate::args::{ConcolicArgs, Format, FuzzArgs};
use crate::out::out as emit;
use crate::{exit, formats, inputs, json, load, progress, render_engines, sarif};
use wiser_engine::concolic::{self, FuzzLimits, RunOutcome};

/// `wiser concolic`: returns the exit code (as `run`'s).
pub fn concolic(args: &ConcolicArgs) -> Result<u8, String> {
    let program = load::load_any(&args.file, &args.lang.options(None))?;
    let input = inputs::parse(&program.ir, &args.input, args.reads.as_deref())?;
    for name in inputs::defaulted(&program.ir, &input) {
        crate::out::errln!("note: input `{name}` not given; it is 0");
    }
    let config = args.solver.config();
    let report = concolic::concolic(&program.ir, &input, &config, args.solver.max_steps);
    match args.format {
        Format::Text => emit(&render_engines::concolic_text(&program, &report)),
        Format::Json => emit(&format!(
            "{}\n",
            json::stamp(render_engines::concolic_json(&program, &report), &args.file)
        )),
        Format::Sarif => {
            let bugs: Vec<&wiser_engine::Bug> = match &report.run.outcome {
                RunOutcome::Bug(b) => vec![b],
                _ => Vec::new(),
            };
            let doc = sarif::bugs_sarif(&args.file, &program, &bugs, config.options, "concolic");
            emit(&format!("{doc}\n"));
        }
    }
    formats::reported();
    Ok(match report.run.outcome {
        RunOutcome::Halted => exit::OK,
        RunOutcome::Bug(_) => exit::BUG,
        RunOutcome::Mismatch(m) => {
            crate::out::errln!("error: {m}");
            exit::UNKNOWN
        }
        RunOutcome::AssumeFailed { .. } => exit::ASSUME_FAILED,
        RunOutcome::OutOfSteps | RunOutcome::Stopped => exit::OUT_OF_STEPS,
    })
}

/// `wiser fuzz`: returns the exit code (1 bug, 3 none found) and whether
/// to leave without waiting for a worker stuck in a slow step.
pub fn fuzz(args: &FuzzArgs) -> Result<(u8, bool), String> {
    let program = load::load_any(&args.file, &args.lang.options(None))?;
    let seed = inputs::parse(&program.ir, &args.seed_input, args.seed_reads.as_deref())
        .map_err(|e| e.replace("--input", "--seed-input"))?;
    let config = args.config();
    let limits = FuzzLimits {
        max_runs: args.max_runs,
        max_steps: args.solver.max_steps,
    };
    let report = progress::fuzz(program.ir.clone(), seed, &config, limits, args.quiet);
    match args.format {
        Format::Text => emit(&render_engines::fuzz_text(&program, &report, args.max_runs)),
        Format::Json => emit(&format!(
            "{}\n",
            json::stamp(render_engines::fuzz_json(&program, &report), &args.file)
        )),
        Format::Sarif => {
            let bugs: Vec<&wiser_engine::Bug> = report.bugs.iter().map(|b| &b.bug).collect();
            let doc = sarif::bugs_sarif(&args.file, &program, &bugs, config.options, "fuzz");
            emit(&format!("{doc}\n"));
        }
    }
    formats::reported();
    for e in &report.internal_errors {
        crate::out::errln!("error: {e}");
    }
    let code = if report.bugs.is_empty() {
        exit::UNKNOWN
    } else {
        exit::BUG
    };
    Ok((code, report.abandoned))
}
