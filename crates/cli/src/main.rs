//! `wiser`: a symbolic bug finder for IMP and C. This crate is only the
//! command line: argument parsing, loading (the front end by extension,
//! SV-COMP task files), output formats, harnesses and exit codes.

mod args;
mod coverage;
mod engines;
mod inputs;
mod load;
mod progress;
mod render;
mod render_engines;
mod sites;
mod task;
mod tree;
mod verify;

use args::{Cli, Command, Format, SOLVER_SERVER};
use clap::Parser;
use std::io::Write;
use std::process::ExitCode;
use wiser_semantics::concrete::{self, Outcome};
use wiser_semantics::Options;

// Exploration allocates and frees many small shared nodes, often on
// another thread than the one that allocated them (work stealing);
// mimalloc handles that pattern markedly better than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Exit codes (documented in the README).
pub(crate) mod exit {
    pub const OK: u8 = 0;
    pub const BUG: u8 = 1;
    pub const USAGE: u8 = 2;
    pub const UNKNOWN: u8 = 3;
    pub const ASSUME_FAILED: u8 = 3;
    pub const OUT_OF_STEPS: u8 = 4;
}

fn main() -> ExitCode {
    if std::env::args_os()
        .nth(1)
        .is_some_and(|a| a == SOLVER_SERVER)
    {
        // A child of a `check` run: answer solver queries until the parent
        // closes the pipe (or kills us).
        return match wiser_smt::serve_stdio() {
            Ok(()) => ExitCode::SUCCESS,
            Err(_) => ExitCode::FAILURE,
        };
    }
    let cli = Cli::parse();
    let (code, leave_now) = match run(cli) {
        Ok(r) => r,
        Err(message) => {
            eprint!("{message}");
            if !message.ends_with('\n') {
                eprintln!();
            }
            (exit::USAGE, false)
        }
    };
    if leave_now {
        // A worker is still inside one slow step that the run's limits cut
        // short; the report is out, so end the process without waiting for
        // it (or running exit handlers under its feet).
        let _ = std::io::stdout().flush();
        let _ = std::io::stderr().flush();
        // SAFETY: `_exit` ends the process at once; nothing is left to run.
        unsafe { libc::_exit(i32::from(code)) }
    }
    ExitCode::from(code)
}

/// Runs a command; returns the exit code and whether to leave without
/// waiting for stray workers. `Err` is a usage or input error, already
/// worded for people.
fn run(cli: Cli) -> Result<(u8, bool), String> {
    match cli.command {
        Command::Check(args) => {
            let target = args.target();
            let (program, asked, property) = match verify::prepare(&target)? {
                verify::Prepared::Ready(p) => *p,
                verify::Prepared::Answered(code) => return Ok((code, false)),
            };
            let config = args.config().with_property(property);
            if args.jobs.is_some_and(|j| j as usize > config.jobs) {
                eprintln!(
                    "note: using {} workers, the most a run uses (--jobs {} asked for more)",
                    config.jobs,
                    args.jobs.unwrap_or_default()
                );
            }
            if let Some(path) = &args.tree {
                tree::check_path(path)?;
            }
            let mut report = progress::check(program.ir.clone(), &config, args.quiet);
            // The report shows the coverage only when asked (not for --lcov).
            let covered = if args.coverage {
                report.coverage.clone()
            } else {
                report.coverage.take()
            };
            let done = verify::finish(&target, &program, &report, &config, asked, None)?;
            if let (Some(path), Some(c)) = (&args.lcov, &covered) {
                coverage::write_lcov(&program, &coverage::Summary::new(&program, c), path)?;
            }
            if let Some(path) = &args.tree {
                tree::write(&program, &report, path)?;
            }
            Ok(done)
        }
        Command::Bmc(args) => {
            let target = args.target();
            let (program, asked, property) = match verify::prepare(&target)? {
                verify::Prepared::Ready(p) => *p,
                verify::Prepared::Answered(code) => return Ok((code, false)),
            };
            let config = args.config().with_property(property);
            let bounds = args.bounds(&program)?;
            let found = progress::bmc(program.ir.clone(), &config, &bounds, args.quiet);
            let info = verify::BmcInfo {
                bound: found.bound,
                unwinding_assertions: bounds.unwinding_assertions,
            };
            verify::finish(&target, &program, &found.report, &config, asked, Some(info))
        }
        Command::Concolic(args) => Ok((engines::concolic(&args)?, false)),
        Command::Fuzz(args) => engines::fuzz(&args),
        Command::Run(args) => {
            let program = load::load_any(&args.file, &args.lang.options(None))?;
            let input = inputs::parse(&program.ir, &args.input, args.reads.as_deref())?;
            for name in inputs::defaulted(&program.ir, &input) {
                eprintln!("note: input `{name}` not given; it is 0");
            }
            let options = Options {
                wrap_signed: args.wrap_signed,
            };
            let run = concrete::run_with(&program.ir, &input, args.max_steps, options);
            if run.missing_reads > 0 {
                let what = if program.c.is_some() {
                    "nondeterministic read(s) (`__VERIFIER_nondet_*()` or an uninitialised local)"
                } else {
                    "read(s) of `x = *`"
                };
                eprintln!(
                    "note: {} {what} had no value in --reads; they read 0",
                    run.missing_reads
                );
            }
            for (what, given, wrapped) in &run.wrapped_inputs {
                eprintln!(
                    "note: {what}: {given} is not a value of its type; it was read as {wrapped}"
                );
            }
            match args.format {
                Format::Text => print!("{}", render::run_text(&program, &run, args.max_steps)),
                Format::Json => println!("{}", render::run_json(&program, &run)),
            }
            Ok((
                match run.outcome {
                    Outcome::Halted => exit::OK,
                    Outcome::Error { .. } => exit::BUG,
                    Outcome::AssumeFailed { .. } => exit::ASSUME_FAILED,
                    Outcome::OutOfSteps => exit::OUT_OF_STEPS,
                },
                false,
            ))
        }
    }
}

/// Prints `text` on stdout; a closed pipe (`wiser ... | head`) is not an
/// error worth a panic: the reader has what it wanted.
pub(crate) fn emit(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}
