//! `wiser`: a symbolic bug finder for IMP and C. This crate is only the
//! command line: argument parsing, loading (the front end by extension,
//! SV-COMP task files), output formats, harnesses and exit codes.

mod args;
mod engines;
mod inputs;
mod load;
mod machine;
mod progress;
mod render;
mod render_engines;
mod run_cmd;
mod sarif;
mod task;
mod testfile;
mod trace_render;
mod verify;

use args::{Cli, Command, SOLVER_SERVER};
use clap::Parser;
use std::io::Write;
use std::process::ExitCode;

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
    let (format, file) = (
        machine::format_of(&cli.command),
        machine::file_of(&cli.command).to_path_buf(),
    );
    let (code, leave_now) = match run(cli) {
        Ok(r) => r,
        Err(message) => {
            eprint!("{message}");
            if !message.ends_with('\n') {
                eprintln!();
            }
            // Under --format json or sarif a program reads stdout: the
            // error goes there too, in that format.
            machine::print_error(format, &file, &message);
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
            if let Some(dir) = &args.replay {
                let code = testfile::replay::replay_dir(
                    dir,
                    &args.replay_overrides(),
                    args.target.format,
                )?;
                return Ok((code, false));
            }
            let target = args.target()?;
            if let Some(dir) = &args.tests {
                testfile::check_dir(dir)?;
            }
            let (program, asked, property) = match verify::prepare(&target)? {
                verify::Prepared::Ready(p) => *p,
                verify::Prepared::Answered(code) => return Ok((code, false)),
            };
            let config = testfile::configure(&args, args.config().with_property(property));
            if args.jobs.is_some_and(|j| j as usize > config.jobs) {
                eprintln!(
                    "note: using {} workers, the most a run uses (--jobs {} asked for more)",
                    config.jobs,
                    args.jobs.unwrap_or_default()
                );
            }
            let report = progress::check(program.ir.clone(), &config, args.quiet);
            let done = verify::finish(&target, &program, &report, &config, asked, None)?;
            if let Some(dir) = &args.tests {
                testfile::write_for_check(dir, &args, &program, &report, asked.property)?;
            }
            Ok(done)
        }
        Command::Bmc(args) => {
            let target = args.target()?;
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
            if let Some(test) = &args.test {
                let code = testfile::replay::run_test(test, &args.replay_overrides(), args.format)?;
                return Ok((code, false));
            }
            Ok((run_cmd::run(&args)?, false))
        }
    }
}

/// Prints `text` on stdout; a closed pipe (`wiser ... | head`) is not an
/// error worth a panic: the reader has what it wanted.
pub(crate) fn emit(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}
