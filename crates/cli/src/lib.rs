//! `wiser`: a symbolic bug finder for IMP and C. This crate is only the
//! command line: argument parsing, loading (the front end from a registry,
//! by `--lang` or extension; SV-COMP task files), output formats,
//! harnesses and exit codes.
//!
//! The binary (`main.rs`) calls [`main_with`] with IMP and C; another
//! program (a test with a toy language, say) may call it with its own
//! registry of [`wiser_frontend::Frontend`]s. The command line never asks
//! which language it holds.
#![warn(missing_docs)]

mod args;
mod c_expr;
mod coverage;
mod dist;
mod engines;
mod error;
mod exit;
mod formats;
mod heap_render;
mod inputs;
mod json;
mod load;
mod out;
mod progress;
mod reads_render;
mod render;
mod render_engines;
mod render_portfolio;
mod render_prove;
mod render_run;
mod run_cmd;
mod sarif;
mod semantic_args;
mod sites;
mod task;
mod testfile;
mod trace_render;
mod tree;
mod verify;
mod witness_yaml;
mod worker_cmd;

use args::{Cli, Command, SOLVER_SERVER};
use clap::{CommandFactory, FromArgMatches};
use error::CliError;
pub use load::Frontends;
use load::Registry;
use std::io::Write;
use std::process::ExitCode;

/// `wiser` on the process's arguments, reading the languages of
/// `frontends` (in order: the first reads files whose extension no front
/// end lists). Returns the exit code.
pub fn main_with(frontends: Frontends) -> ExitCode {
    ExitCode::from(main_with_args(frontends, std::env::args_os()))
}

/// `wiser` on `args` (the executable's name first, as in
/// [`std::env::args_os`]), reading the languages of `frontends`. Returns
/// the exit code (documented in the README).
pub fn main_with_args(
    frontends: Frontends,
    args: impl IntoIterator<Item = std::ffi::OsString>,
) -> u8 {
    let args: Vec<std::ffi::OsString> = args.into_iter().collect();
    if args.get(1).is_some_and(|a| a == SOLVER_SERVER) {
        // A child of a `check` run: answer solver queries until the parent
        // closes the pipe (or kills us).
        return match wiser_smt::serve_stdio() {
            Ok(()) => exit::OK,
            Err(_) => 1,
        };
    }
    // First thing: a signal while the program loads still ends with a
    // report (see `Interrupts`).
    let signals = progress::Interrupts::install();
    let registry = Registry(frontends);
    let cli = parse_args(registry, args);
    out::set_color(cli.color);
    let (format, file) = (
        args::format_of(&cli.command),
        args::file_of(&cli.command).to_path_buf(),
    );
    let stdout = out::Stdout::default();
    let (mut code, leave_now) = match run(cli, registry, &signals, &stdout) {
        Ok(r) => r,
        Err(error) => {
            let message = error.text();
            out::err(&message);
            if !message.ends_with('\n') {
                out::err("\n");
            }
            // Under --format json or sarif a program reads stdout: the
            // error goes there too, in that format, unless a report is
            // already there (a harness that cannot be written comes
            // after the report).
            if !stdout.reported() {
                formats::print_error(&stdout, format, &file, &error);
            }
            (exit::USAGE, false)
        }
    };
    if let Some(e) = stdout.failure() {
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
    code
}

/// The command line, with `--version` naming the Z3 it was built with.
fn parse_args(registry: Registry, args: Vec<std::ffi::OsString>) -> Cli {
    let matches = command(registry).get_matches_from(args);
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

/// wiser's clap command, with its version (and Z3's) and the registry's
/// languages as the values of `--lang`.
fn command(registry: Registry) -> clap::Command {
    let version = format!(
        "{} (Z3 {})",
        env!("CARGO_PKG_VERSION"),
        wiser_smt::z3_version()
    );
    let languages: Vec<clap::builder::PossibleValue> = registry
        .0
        .iter()
        .map(|l| clap::builder::PossibleValue::new(l.name()).help(l.description()))
        .collect();
    let mut cli = Cli::command().version(version);
    let names: Vec<String> = cli
        .get_subcommands()
        .filter(|c| c.get_arguments().any(|a| a.get_id() == "lang"))
        .map(|c| c.get_name().to_string())
        .collect();
    for name in names {
        let languages = languages.clone();
        cli = cli.mut_subcommand(name, |c| {
            c.mut_arg("lang", |a| {
                a.value_parser(clap::builder::PossibleValuesParser::new(languages))
            })
        });
    }
    cli
}

/// Runs a command; returns the exit code and whether to leave without
/// waiting for stray workers. `Err` is a usage or input error, which
/// `main_with_args` prints (on stderr, and as a JSON or SARIF document).
fn run(
    cli: Cli,
    registry: Registry,
    signals: &progress::Interrupts,
    stdout: &out::Stdout,
) -> Result<(u8, bool), CliError> {
    let verbose = cli.verbose;
    // For an engine's run, a signal while the program loads makes the run
    // start stopped: its report (`interrupted`) is still printed.
    signals.expect_runs(cli.command.runs_an_engine());
    match cli.command {
        Command::Check(mut args) => {
            args.target.lang.frontends = registry;
            verify::check(&args, verbose, signals, stdout)
        }
        Command::Bmc(mut args) => {
            args.target.lang.frontends = registry;
            verify::bmc(&args, verbose, signals, stdout)
        }
        Command::Prove(mut args) => {
            args.target.lang.frontends = registry;
            verify::prove(&args, verbose, signals, stdout)
        }
        Command::Verify(mut args) => {
            args.target.lang.frontends = registry;
            verify::verify(&args, verbose, signals, stdout)
        }
        Command::Concolic(mut args) => {
            args.lang.frontends = registry;
            engines::concolic(&args, signals, stdout)
        }
        Command::Fuzz(mut args) => {
            args.lang.frontends = registry;
            engines::fuzz(&args, signals, stdout)
        }
        Command::Run(mut args) => {
            args.lang.frontends = registry;
            if let Some(test) = &args.test {
                let overrides = args.replay_overrides();
                let code = testfile::replay::run_test(stdout, test, &overrides, args.format)?;
                return Ok((code, false));
            }
            Ok((run_cmd::run(&args, signals, stdout)?, false))
        }
        Command::Worker(args) => Ok((worker_cmd::worker(&args, registry, signals)?, false)),
        Command::Completions { shell } => {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut command(registry), "wiser", &mut script);
            stdout.write(&String::from_utf8_lossy(&script));
            Ok((exit::OK, false))
        }
        Command::Man => {
            let mut page = Vec::new();
            clap_mangen::Man::new(command(registry))
                .render(&mut page)
                .map_err(|e| CliError::file(format!("cannot render the man page: {e}")))?;
            stdout.write(&String::from_utf8_lossy(&page));
            Ok((exit::OK, false))
        }
    }
}
