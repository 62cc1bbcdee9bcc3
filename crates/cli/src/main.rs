//! `wiser`: a symbolic bug finder for IMP and C. This crate is only the
//! command line: argument parsing, loading (the front end by extension,
//! SV-COMP task files), output formats, harnesses and exit codes.

mod args;
mod engines;
mod inputs;
mod load;
mod progress;
mod render;
mod render_engines;
mod task;

use args::{Cli, Command, Format, SOLVER_SERVER};
use clap::Parser;
use load::{Program, ReadSite};
use render::Asked;
use std::io::Write;
use std::process::ExitCode;
use task::PropertySpec;
use wiser_engine::{Bug, Property, Report, Verdict};
use wiser_semantics::concrete::{self, Outcome};
use wiser_semantics::Options;

// Exploration allocates and frees many small shared nodes, often on
// another thread than the one that allocated them (work stealing);
// mimalloc handles that pattern markedly better than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Exit codes (documented in the README).
mod exit {
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
            let loaded = load::load_any(&args.file, &args.lang.options(args.assume.as_deref()));
            let program = match loaded {
                Ok(p) => p,
                // SV-COMP mode: a task outside the subset is answered
                // `unknown` (with the reason), not refused.
                Err(message)
                    if load::is_task(&args.file) && message.contains(wiser_c::UNSUPPORTED) =>
                {
                    eprint!("{message}");
                    match args.format {
                        Format::Text => println!(
                            "verdict: unknown (the task's program is outside the C subset)"
                        ),
                        Format::Json => println!("{}", render::unsupported_json(&message)),
                    }
                    return Ok((exit::UNKNOWN, false));
                }
                Err(message) => return Err(message),
            };
            if args.harness.is_some() && program.c.is_none() {
                return Err(format!(
                    "wiser: --harness writes a C file for gcc; `{}` is not a C program\n",
                    program.file.display()
                ));
            }
            let property = match (&args.property, &program.task) {
                (Some(p), _) => task::property_arg(p)?,
                (None, Some(t)) if t.unreach_call => PropertySpec::UnreachCall,
                (None, Some(t)) => return Err(task::no_supported_property(t)),
                (None, None) => PropertySpec::All,
            };
            let expected = program
                .task
                .as_ref()
                .filter(|t| t.unreach_call && property == PropertySpec::UnreachCall)
                .and_then(|t| t.expected_verdict);
            let asked = Asked { property, expected };
            let config = args.config().with_property(match property {
                PropertySpec::All => Property::all(),
                PropertySpec::UnreachCall => Property::unreach_call(),
            });
            if args.jobs.is_some_and(|j| j as usize > config.jobs) {
                eprintln!(
                    "note: using {} workers, the most a run uses (--jobs {} asked for more)",
                    config.jobs,
                    args.jobs.unwrap_or_default()
                );
            }
            let report = progress::check(program.ir.clone(), &config, args.quiet);
            match args.format {
                Format::Text => print!("{}", render::check_text(&program, &report, &config, asked)),
                Format::Json => println!("{}", render::check_json(&program, &report, asked)),
            }
            for e in &report.internal_errors {
                eprintln!("wiser: {e}");
            }
            if let Some(out) = &args.harness {
                write_harness(&program, &report, out)?;
            }
            let code = match report.verdict {
                Verdict::Bug => exit::BUG,
                Verdict::Safe => exit::OK,
                Verdict::Unknown => exit::UNKNOWN,
            };
            Ok((code, report.stats.abandoned_workers > 0))
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

/// Writes the harness of the report's bug (a reached error location or a
/// failed assertion first: those are what a compiled harness detects).
fn write_harness(program: &Program, report: &Report, out: &std::path::Path) -> Result<(), String> {
    let Some(compiled) = &program.c else {
        return Ok(());
    };
    let detectable = |b: &&Bug| {
        matches!(
            b.kind,
            wiser_semantics::ErrorKind::Fail | wiser_semantics::ErrorKind::Assertion
        )
    };
    let Some(bug) = report.bugs.iter().find(detectable).or(report.bugs.first()) else {
        eprintln!(
            "note: no bug found, so no harness was written to `{}`",
            out.display()
        );
        return Ok(());
    };
    let reads: Vec<wiser_c::harness::Read<'_>> = bug
        .input
        .reads
        .iter()
        .zip(&bug.read_pcs)
        .map(|(v, &pc)| match program.read_site(pc) {
            ReadSite::Call(f) => (v.clone(), Some(f)),
            _ => (v.clone(), None),
        })
        .collect();
    let file = program.file.display().to_string();
    let text = wiser_c::harness::harness(compiled, &file, &reads, program.data_model);
    std::fs::write(out, text).map_err(|e| {
        format!(
            "wiser: cannot write the harness to `{}`: {e}\n  = help: check that its folder exists and is writable\n",
            out.display()
        )
    })?;
    let note = if detectable(&bug) {
        format!(
            "it exits with code {} at the error",
            wiser_c::harness::EXIT_ERROR_REACHED
        )
    } else {
        format!(
            "the bug is a {}, which a compiled program does not detect",
            bug.kind.describe()
        )
    };
    eprintln!(
        "note: harness written to `{}`: `gcc {} {file} {} -o replay && ./replay` replays the witness; {note}",
        out.display(),
        program.data_model.gcc_flag(),
        out.display(),
    );
    Ok(())
}
