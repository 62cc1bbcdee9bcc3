//! `wiser`: a symbolic bug finder for IMP and C. This crate is only the
//! command line: argument parsing, loading (the front end by extension,
//! SV-COMP task files), output formats, harnesses and exit codes.

mod args;
mod engines;
mod inputs;
mod load;
mod out;
mod progress;
mod render;
mod render_engines;
mod setup;
mod task;
mod verify;

use args::{Cli, Command, Format, SOLVER_SERVER};
use clap::{CommandFactory, FromArgMatches};
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
    let cli = parse_args();
    out::set_color(cli.color);
    let (mut code, leave_now) = match run(cli) {
        Ok(r) => r,
        Err(message) => {
            out::err(&message);
            if !message.ends_with('\n') {
                out::err("\n");
            }
            (exit::USAGE, false)
        }
    };
    if let Some(e) = out::stdout_failure() {
        out::errln!("error: cannot write the output: {e}\n  = help: check that the disk or pipe that standard output goes to can take it");
        code = exit::USAGE;
    }
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

/// The command line, with `--version` naming the Z3 it was built with.
fn parse_args() -> Cli {
    let matches = command().get_matches();
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

/// wiser's clap command, with its version (and Z3's).
fn command() -> clap::Command {
    static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let version = VERSION
        .get_or_init(|| format!("{} (Z3 {})", env!("CARGO_PKG_VERSION"), z3::full_version()));
    Cli::command().version(version.as_str())
}

/// Runs a command; returns the exit code and whether to leave without
/// waiting for stray workers. `Err` is a usage or input error, already
/// worded for people.
fn run(cli: Cli) -> Result<(u8, bool), String> {
    let verbose = cli.verbose;
    match cli.command {
        Command::Check(args) => several(&args.target, |file| {
            let target = verify::Target {
                file,
                ..args.target()
            };
            let (program, asked, property) = match verify::prepare(&target)? {
                verify::Prepared::Ready(p) => *p,
                verify::Prepared::Answered(code) => return Ok((code, false)),
            };
            let config = args.config().with_property(property);
            if args.jobs.is_some_and(|j| j as usize > config.jobs) {
                crate::out::errln!(
                    "note: using {} workers, the most a run uses (--jobs {} asked for more)",
                    config.jobs,
                    args.jobs.unwrap_or_default()
                );
            }
            if verbose {
                out::errln!("note: configuration: {config:?}");
            }
            setup::check_assumption(&program, &config)?;
            let report = progress::check(program.ir.clone(), &config, args.quiet);
            if verbose {
                out::errln!("note: statistics: {:?}", report.stats);
            }
            setup::suggest_header_args(&program, &report, target.assume.is_some());
            verify::finish(&target, &program, &report, &config, asked, None)
        }),
        Command::Bmc(args) => several(&args.target, |file| {
            let target = verify::Target {
                file,
                ..args.target()
            };
            let (program, asked, property) = match verify::prepare(&target)? {
                verify::Prepared::Ready(p) => *p,
                verify::Prepared::Answered(code) => return Ok((code, false)),
            };
            let config = args.config().with_property(property);
            let bounds = args.bounds(&program)?;
            setup::check_assumption(&program, &config)?;
            let found = progress::bmc(program.ir.clone(), &config, &bounds, args.quiet);
            let info = verify::BmcInfo {
                bound: found.bound,
                unwinding_assertions: bounds.unwinding_assertions,
            };
            verify::finish(&target, &program, &found.report, &config, asked, Some(info))
        }),
        Command::Completions { shell } => {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut command(), "wiser", &mut script);
            emit(&String::from_utf8_lossy(&script));
            Ok((exit::OK, false))
        }
        Command::Man => {
            let mut page = Vec::new();
            clap_mangen::Man::new(command())
                .render(&mut page)
                .map_err(|e| format!("error: cannot render the man page: {e}\n"))?;
            emit(&String::from_utf8_lossy(&page));
            Ok((exit::OK, false))
        }
        Command::Concolic(args) => Ok((engines::concolic(&args)?, false)),
        Command::Fuzz(args) => engines::fuzz(&args),
        Command::Run(args) => {
            let program = load::load_any(&args.file, &args.lang.options(None))?;
            let input = inputs::parse(&program.ir, &args.input, args.reads.as_deref())?;
            for name in inputs::defaulted(&program.ir, &input) {
                crate::out::errln!("note: input `{name}` not given; it is 0");
            }
            let options = Options {
                wrap_signed: args.wrap_signed,
            };
            let run = concrete::run_with(&program.ir, &input, args.max_steps, options);
            if let Some(unused) = inputs::unused_reads(&input, run.read_pcs.len()) {
                let said = format!(
                    "{unused} of the {} values of --reads were not read (the run made {} read(s))",
                    input.reads.len(),
                    run.read_pcs.len()
                );
                // A run that ended normally shows the values were too many:
                // a mistake in the input. One cut short by an error may
                // simply not have got to them.
                if matches!(run.outcome, Outcome::Halted) {
                    return Err(format!(
                        "error: {said}\n  = help: give one value per read the run makes\n"
                    ));
                }
                out::errln!("warning: {said}; the run ended first");
            }
            if run.missing_reads > 0 {
                let what = if program.c.is_some() {
                    "nondeterministic read(s) (`__VERIFIER_nondet_*()` or an uninitialised local)"
                } else {
                    "read(s) of `x = *`"
                };
                crate::out::errln!(
                    "note: {} {what} had no value in --reads; they read 0",
                    run.missing_reads
                );
            }
            for (what, given, wrapped) in &run.wrapped_inputs {
                crate::out::errln!(
                    "note: {what}: {given} is not a value of its type; it was read as {wrapped}"
                );
            }
            match args.format {
                Format::Text => emit(&render::run_text(&program, &run, args.max_steps)),
                Format::Json => emit(&format!("{}\n", render::run_json(&program, &run))),
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

/// Checks each file of `target` in turn. With one file, this is `check`
/// itself. With several, each text report follows a `==> FILE <==` line
/// (as `tail` heads its files), a JSON report is one line each (JSON
/// Lines), an error in one file is printed and the others still checked,
/// and the exit code is the worst: an error (2), then a bug (1), then
/// unknown (3), then safe (0).
fn several(
    target: &args::TargetArgs,
    mut check: impl FnMut(&std::path::PathBuf) -> Result<(u8, bool), String>,
) -> Result<(u8, bool), String> {
    if target.more_files.is_empty() {
        return check(&target.file);
    }
    let badness = |code: u8| match code {
        exit::USAGE => 3,
        exit::BUG => 2,
        exit::UNKNOWN => 1,
        _ => 0,
    };
    let (mut worst, mut leave) = (exit::OK, false);
    for (i, file) in target.files().enumerate() {
        if target.format == Format::Text {
            let gap = if i == 0 { "" } else { "\n" };
            emit(&format!("{gap}==> {} <==\n", file.display()));
        }
        let code = match check(file) {
            Ok((code, stuck)) => {
                leave |= stuck;
                code
            }
            Err(message) => {
                out::err(&message);
                exit::USAGE
            }
        };
        if badness(code) > badness(worst) {
            worst = code;
        }
        if leave {
            break;
        }
    }
    Ok((worst, leave))
}

/// Prints `text` on stdout; a closed pipe (`wiser ... | head`) is not an
/// error worth a panic: the reader has what it wanted ([`out::out`]).
pub(crate) fn emit(text: &str) {
    out::out(text);
}
