//! `wiser worker`: serves the distributed runs of `wiser check --broker`
//! ([`wiser_dist::serve`]), loading each run's program from its spec
//! (`dist.rs`).
//!
//! A worker writes the spec's texts under a folder of its own, at their
//! absolute paths re-rooted there (so a task's relative `input_files` still
//! resolve), and loads them with the same front end and the same
//! arguments as the coordinator: the same IR, the same spans, the same
//! decisions.

use crate::args::{self, CheckArgs, Command, WorkerArgs};
use crate::dist::Spec;
use crate::error::CliError;
use crate::load::Registry;
use crate::progress::Interrupts;
use crate::verify::{self, Prepared};
use crate::{exit, out};
use clap::FromArgMatches;
use std::path::PathBuf;
use std::time::Duration;

/// Loads a run's program from its spec, as `check` would.
fn load(text: &str, registry: Registry) -> Result<wiser_dist::Loaded, String> {
    let spec: Spec = serde_json::from_str(text).map_err(|e| format!("unreadable spec: {e}"))?;
    // A folder of this process's own for this load (loads do not overlap).
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let root = std::env::temp_dir().join(format!("wiser-worker-{}-{nanos}", std::process::id()));
    let reroot = |abs: &str| -> PathBuf { root.join(abs.trim_start_matches('/')) };
    let loaded = (|| {
        for (abs, body) in &spec.files {
            let dest = reroot(abs);
            if let Some(parent) = dest.parent() {
                std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
            }
            std::fs::write(&dest, body).map_err(|e| e.to_string())?;
        }
        let argv = std::iter::once("wiser".to_string()).chain(spec.argv.iter().cloned());
        let matches = crate::command(registry)
            .try_get_matches_from(argv)
            .map_err(|e| e.to_string())?;
        let cli = args::Cli::from_arg_matches(&matches).map_err(|e| e.to_string())?;
        let Command::Check(mut args) = cli.command else {
            return Err("the spec is not a `check` command".to_string());
        };
        let property = spec.property_file.as_deref().map(reroot);
        prepare(&mut args, registry, reroot(&spec.file), property)
    })();
    let _ = std::fs::remove_dir_all(&root);
    loaded
}

/// The program and configuration `args` describe, for `file`.
fn prepare(
    args: &mut CheckArgs,
    registry: Registry,
    file: PathBuf,
    property: Option<PathBuf>,
) -> Result<wiser_dist::Loaded, String> {
    args.target.lang.frontends = registry;
    args.target.file = Some(file);
    args.target.more_files.clear();
    args.broker = None;
    let property = property.map(|p| p.to_string_lossy().into_owned());
    if property.is_some() {
        args.target.property = property;
    }
    let target = args.target.target().map_err(|e| e.one_line())?;
    match verify::prepare(&out::Stdout::default(), &target).map_err(|e| e.one_line())? {
        Prepared::Ready(ready) => {
            let (program, _, property) = *ready;
            Ok((program.ir.clone(), args.config().with_property(property)))
        }
        Prepared::Answered(_) => Err("the program is outside what the engine runs".to_string()),
    }
}

/// `wiser worker`: serves until stopped.
pub fn worker(args: &WorkerArgs, registry: Registry, signals: &Interrupts) -> Result<u8, CliError> {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "worker".to_string());
    let options = wiser_dist::WorkerOptions {
        broker: args.broker.clone(),
        name: args
            .name
            .clone()
            .unwrap_or_else(|| format!("{host}-{}", std::process::id())),
        lease: Duration::from_secs_f64(args.lease.max(0.5)),
        idle_exit: (args.exit_when_idle > 0.0)
            .then(|| Duration::from_secs_f64(args.exit_when_idle)),
    };
    let load = |spec: &str| load(spec, registry);
    let served = signals.run(|monitor| wiser_dist::serve(&options, &load, monitor));
    let summary = served.map_err(|e| {
        CliError::input(e.to_string())
            .help("start a Redis server (7 or later) there, or give its URL with --broker")
    })?;
    if !args.quiet {
        out::errln!(
            "worker {}: {} items, {} states, {} prefixes handed back",
            options.name,
            summary.items,
            summary.states,
            summary.donated
        );
    }
    Ok(exit::OK)
}
