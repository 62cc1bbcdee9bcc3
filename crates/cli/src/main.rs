//! `wiser`: a symbolic bug finder for IMP. This crate is only the command
//! line: argument parsing, loading, output formats and exit codes.

mod args;
mod inputs;
mod load;
mod progress;
mod render;

use args::{Cli, Command, Format};
use clap::Parser;
use std::process::ExitCode;
use wiser_engine::Verdict;
use wiser_semantics::concrete::{self, Outcome};

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
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(message) => {
            eprint!("{message}");
            if !message.ends_with('\n') {
                eprintln!();
            }
            ExitCode::from(exit::USAGE)
        }
    }
}

/// Runs a command; `Err` is a usage or input error, already worded for
/// people.
fn run(cli: Cli) -> Result<u8, String> {
    match cli.command {
        Command::Check(args) => {
            let program = load::load(&args.file, args.assume.as_deref())?;
            let config = args.config();
            let report = progress::check(&program.ir, &config, args.quiet);
            match args.format {
                Format::Text => print!("{}", render::check_text(&program, &report, &config)),
                Format::Json => println!("{}", render::check_json(&program, &report)),
            }
            for e in &report.internal_errors {
                eprintln!("wiser: {e}");
            }
            Ok(match report.verdict {
                Verdict::Bug => exit::BUG,
                Verdict::Safe => exit::OK,
                Verdict::Unknown => exit::UNKNOWN,
            })
        }
        Command::Run(args) => {
            let program = load::load(&args.file, None)?;
            let input = inputs::parse(&program.ir, &args.input, args.reads.as_deref())?;
            for name in inputs::defaulted(&program.ir, &input) {
                eprintln!("note: input `{name}` not given; it is 0");
            }
            let run = concrete::run(&program.ir, &input, args.max_steps);
            if run.missing_reads > 0 {
                eprintln!(
                    "note: {} read(s) of `x = *` had no value in --reads; they read 0",
                    run.missing_reads
                );
            }
            match args.format {
                Format::Text => print!("{}", render::run_text(&program, &run, args.max_steps)),
                Format::Json => println!("{}", render::run_json(&program, &run)),
            }
            Ok(match run.outcome {
                Outcome::Halted => exit::OK,
                Outcome::Error { .. } => exit::BUG,
                Outcome::AssumeFailed { .. } => exit::ASSUME_FAILED,
                Outcome::OutOfSteps => exit::OUT_OF_STEPS,
            })
        }
    }
}
