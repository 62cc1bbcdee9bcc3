//! `wiser`: a symbolic bug finder for IMP and C. This crate is only the
//! command line: argument parsing, loading (the front end by extension,
//! SV-COMP task files), output formats, harnesses and exit codes.

mod args;
mod commands;
mod coverage;
mod engines;
mod heap_render;
mod inputs;
mod load;
mod machine;
mod out;
mod progress;
mod render;
mod render_engines;
mod run_cmd;
mod sarif;
mod semantic_args;
mod setup;
mod sites;
mod task;
mod testfile;
mod trace_render;
mod tree;
mod verify;

use args::{Cli, Command, SOLVER_SERVER};
use clap::{CommandFactory, FromArgMatches};
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
    let cli = parse_args();
    out::set_color(cli.color);
    let (format, file) = (
        machine::format_of(&cli.command),
        machine::file_of(&cli.command).to_path_buf(),
    );
    let (mut code, leave_now) = match run(cli) {
        Ok(r) => r,
        Err(message) => {
            out::err(&message);
            if !message.ends_with('\n') {
                out::err("\n");
            }
            // Under --format json or sarif a program reads stdout: the
            // error goes there too, in that format.
            machine::print_error(format, &file, &message);
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
        Command::Check(args) => commands::check(&args, verbose),
        Command::Bmc(args) => commands::bmc(&args, verbose),
        Command::Concolic(args) => engines::concolic(&args),
        Command::Fuzz(args) => engines::fuzz(&args),
        Command::Run(args) => {
            if let Some(test) = &args.test {
                let code = testfile::replay::run_test(test, &args.replay_overrides(), args.format)?;
                return Ok((code, false));
            }
            Ok((run_cmd::run(&args)?, false))
        }
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
    }
}

/// Prints `text` on stdout; a closed pipe (`wiser ... | head`) is not an
/// error worth a panic: the reader has what it wanted ([`out::out`]).
pub(crate) fn emit(text: &str) {
    out::out(text);
}
