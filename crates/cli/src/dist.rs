//! `wiser check --broker URL`, the coordinator of a distributed run
//! ([`wiser_dist`]), and the spec it ships to the workers
//! (`worker_cmd.rs`).
//!
//! The coordinator ships the program to the workers through the broker:
//! the run's spec holds the `check` arguments as given and the text of
//! every file they name (the program, a task's input file, a property
//! file). A worker writes the texts under a folder of its own, at their
//! absolute paths re-rooted there (so a task's relative `input_files`
//! still resolve), loads them with the same front end and the same
//! arguments, and so lowers the same IR: the same instructions, the same
//! spans, the same decisions. Headers the program includes from the
//! system come from the worker's machine, as they would for `gcc`.

use crate::args::Target;
use crate::error::CliError;
use crate::load::Program;
use crate::out;
use crate::progress::{self, Interrupts};
use serde::{Deserialize, Serialize};
use std::path::Path;
use wiser_engine::{Config, Report};

/// What a worker needs to load the program of a run.
#[derive(Serialize, Deserialize)]
pub struct Spec {
    /// The `check` command line after `wiser`, less `--broker`.
    pub argv: Vec<String>,
    /// The file checked (absolute).
    pub file: String,
    /// The `--property` file, if one was given (absolute).
    pub property_file: Option<String>,
    /// Every file named, with its text.
    pub files: Vec<(String, String)>,
}

/// Runs the check of `program` on the workers of the broker at `url`.
pub fn coordinate(
    url: &str,
    target: &Target<'_>,
    program: &Program,
    config: &Config,
    quiet: bool,
    signals: &Interrupts,
) -> Result<Report, CliError> {
    if config.merge != wiser_engine::MergeMode::None {
        return Err(
            CliError::usage("--merge and --broker cannot be combined").help(
                "a merged state has no one path prefix to hand to another worker: drop --merge",
            ),
        );
    }
    let spec = spec(target, program)?;
    let options = wiser_dist::CoordinatorOptions {
        broker: url.to_string(),
    };
    let ran = progress::distributed(quiet, signals, |monitor| {
        wiser_dist::coordinate(&options, &spec, program.ir.clone(), config, monitor)
    });
    let (report, distribution) = ran.map_err(|e| {
        CliError::input(e.to_string()).help(format!(
            "start the broker and some workers first: `redis-server --port 6379 &` and `wiser worker --broker {url} &`"
        ))
    })?;
    if !quiet {
        let workers: Vec<String> = distribution
            .workers
            .iter()
            .map(|(name, states)| format!("{name} {states}"))
            .collect();
        out::errln!(
            "note: run {} explored {} items on {} workers (states: {}){}",
            distribution.run,
            distribution.items,
            distribution.workers.len(),
            workers.join(", "),
            match distribution.duplicates {
                0 => String::new(),
                n => format!("; {n} items explored twice after a worker was lost"),
            }
        );
    }
    Ok(report)
}

/// The spec of a run: the command line and the texts of its files.
fn spec(target: &Target<'_>, program: &Program) -> Result<String, CliError> {
    if target.file == Path::new("-") {
        return Err(CliError::usage(
            "--broker ships the program to the workers from a file, not from standard input",
        )
        .help("save the program to a file and check that"));
    }
    let mut argv = Vec::new();
    let mut skip = false;
    for arg in std::env::args().skip(1) {
        if std::mem::take(&mut skip) {
            continue;
        }
        if arg == "--broker" {
            skip = true;
        } else if !arg.starts_with("--broker=") {
            argv.push(arg);
        }
    }
    let mut files = Vec::new();
    let mut ship = |path: &Path| -> Result<String, CliError> {
        let abs = std::path::absolute(path)
            .map_err(|e| CliError::file(format!("cannot resolve {}: {e}", path.display())))?;
        let text = std::fs::read_to_string(&abs)
            .map_err(|e| CliError::file(format!("cannot read {}: {e}", abs.display())))?;
        let abs = abs.to_string_lossy().into_owned();
        files.push((abs.clone(), text));
        Ok(abs)
    };
    let file = ship(target.file)?;
    if let Some(task) = &program.task {
        ship(&task.input)?;
    }
    let property_file = match target.property {
        Some(p) if Path::new(p).is_file() => Some(ship(Path::new(p))?),
        _ => None,
    };
    let spec = Spec {
        argv,
        file,
        property_file,
        files,
    };
    Ok(serde_json::to_string(&spec).expect("a spec serialises"))
}
