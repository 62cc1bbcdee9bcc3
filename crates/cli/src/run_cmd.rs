//! `wiser run`: the program on one concrete input, with a progress line on
//! a terminal after a second, Ctrl-C/SIGTERM stopping it with the values
//! reached so far, and `--trace`.

use crate::args::{Format, RunArgs};
use crate::error::CliError;
use crate::formats::Rendered;
use crate::load::Program;
use crate::progress::Interrupts;
use crate::{exit, inputs, load, out, render_run, sarif, trace_render};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::Value;
use std::io::IsTerminal;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use wiser_num::Int;
use wiser_semantics::concrete::{self, Outcome, Watch};
use wiser_semantics::{Options, Trace};

/// The exit code of a run stopped by Ctrl-C or SIGTERM (the shell's code
/// for a run ended by SIGINT).
pub const INTERRUPTED: u8 = 130;

/// How long a run goes before its progress line appears.
const QUIET_START: Duration = Duration::from_secs(1);

/// The reads that give the program its command line: the words after
/// `--`; without them and without --reads, none (`argc` is 1). Empty
/// when --reads gives the command line (as a bug report lists the
/// reads) or the program reads none.
fn command_line(program: &Program, args: &RunArgs, file: &Path) -> Result<Vec<Int>, CliError> {
    use std::os::unix::ffi::OsStrExt;
    let words: Vec<Vec<u8>> = args.args.iter().map(|a| a.as_bytes().to_vec()).collect();
    if words.is_empty() && args.reads.is_some() {
        return Ok(Vec::new());
    }
    match program.command_line(&words) {
        Some(reads) => reads.map_err(|e| CliError::usage(e.message).help(e.help)),
        None if words.is_empty() => Ok(Vec::new()),
        None => Err(CliError::usage(format!(
            "{} reads no command line: the words after `--` have nowhere to go",
            file.display()
        ))
        .help("`-- ARG...` is `argv` for a C program whose `main` is `int main(int argc, char **argv)`")),
    }
}

/// Runs `wiser run`; returns the exit code.
pub fn run(args: &RunArgs, signals: &Interrupts, stdout: &out::Stdout) -> Result<u8, CliError> {
    let file = args.file.as_deref().ok_or_else(|| {
        CliError::usage("no FILE given").help("`wiser run FILE`, or `wiser run --test TEST`")
    })?;
    let program = load::load_any(file, &args.lang.options(None))?;
    let mut input = inputs::parse(
        &program.ir,
        &args.input,
        args.reads.as_deref(),
        inputs::INPUT,
    )?;
    let command_line = command_line(&program, args, file)?;
    input.reads.splice(0..0, command_line.iter().cloned());
    if let Some(list) = &args.schedule {
        input.schedule = inputs::schedule(list)?;
    }
    for name in inputs::defaulted(&program.ir, &input) {
        out::errln!("note: input `{name}` not given; it is 0");
    }
    let options = Options {
        wrap_signed: args.wrap_signed,
        ..Options::default()
    };
    let steps = Arc::new(AtomicU64::new(0));
    let done = Arc::new(AtomicBool::new(false));
    let painter = (!args.quiet && std::io::stderr().is_terminal()).then(|| {
        let (steps, done) = (steps.clone(), done.clone());
        std::thread::spawn(move || paint(&steps, &done))
    });
    // A signal stops the run, which keeps the values so far; a second
    // one ends the process at once (exit code 130), as usual.
    let mut run = signals.run(|monitor| {
        let watch = Watch {
            trace: (args.trace || args.format == Format::Sarif)
                .then(|| trace_render::options(&program)),
            stop: Some(&monitor.interrupt),
            steps: Some(&steps),
        };
        concrete::run_watched(&program.ir, &input, args.max_steps, options, watch)
    });
    done.store(true, Ordering::SeqCst);
    if let Some(p) = painter {
        let _ = p.join();
    }
    if let Some(unused) = inputs::unused_reads(&input, run.read_pcs.len()) {
        // The command line's reads are not counted as --reads's.
        let said = format!(
            "{unused} of the {} values of --reads were not read (the run made {} read(s))",
            input.reads.len() - command_line.len(),
            run.read_pcs.len().saturating_sub(command_line.len())
        );
        // A run that ended normally shows the values were too many: a
        // mistake in the input. One cut short by an error may simply not
        // have got to them.
        if matches!(run.outcome, Outcome::Halted) {
            return Err(CliError::input(said).help("give one value per read the run makes"));
        }
        out::errln!("warning: {said}; the run ended first");
    }
    if run.missing_reads > 0 {
        let what = program.language.reads_name();
        out::errln!(
            "note: {} {what} had no value in --reads; they read 0",
            run.missing_reads
        );
    }
    for (what, given, wrapped) in &run.wrapped_inputs {
        out::errln!("note: {what}: {given} is not a value of its type; it was read as {wrapped}");
    }
    if args.format == Format::Text {
        print_output(stdout, &run.output);
    }
    if run.output.truncated {
        out::errln!(
            "note: the program wrote more than {} MiB; the rest of its output was dropped",
            wiser_semantics::MAX_OUTPUT >> 20
        );
    }
    let trace = run.trace.take();
    let output = RunOutput {
        program: &program,
        run: &run,
        trace: trace.as_ref(),
        show_trace: args.trace,
        max_steps: args.max_steps,
        file,
    };
    crate::formats::print(stdout, args.format, file, &output);
    Ok(match run.outcome {
        Outcome::Halted => exit::OK,
        Outcome::Error { .. } => exit::BUG,
        Outcome::AssumeFailed { .. } => exit::ASSUME_FAILED,
        Outcome::OutOfSteps => exit::OUT_OF_STEPS,
        Outcome::Interrupted => INTERRUPTED,
    })
}

/// What the program wrote, as it wrote it: its standard output on
/// `wiser`'s, before the report (which starts on a line of its own), and
/// its standard error on `wiser`'s.
fn print_output(stdout: &out::Stdout, output: &wiser_semantics::Output) {
    if !output.stderr.is_empty() {
        out::err_bytes(&output.stderr);
    }
    if !output.stdout.is_empty() {
        stdout.write_bytes(&output.stdout);
        if !output.stdout.ends_with(b"\n") {
            stdout.write_bytes(b"\n");
        }
    }
}

/// A concrete run's report, in every format.
struct RunOutput<'a> {
    program: &'a Program,
    run: &'a concrete::Run,
    trace: Option<&'a Trace>,
    /// `--trace`: show the trace (SARIF shows it anyway).
    show_trace: bool,
    max_steps: u64,
    file: &'a Path,
}

impl Rendered for RunOutput<'_> {
    fn text(&self) -> String {
        let mut text = render_run::run_text(self.program, self.run, self.max_steps);
        if let (true, Some(t)) = (self.show_trace, self.trace) {
            text.push_str(&trace_render::trace_text(self.program, t));
        }
        text
    }

    fn json(&self) -> Value {
        let mut doc = render_run::run_json(self.program, self.run);
        if let (true, Some(t)) = (self.show_trace, self.trace) {
            doc["trace"] = trace_render::trace_json(self.program, t);
        }
        doc
    }

    fn sarif(&self) -> Option<Value> {
        Some(sarif::run_sarif(
            self.file,
            self.program,
            self.run,
            self.trace,
        ))
    }
}

/// The progress line: steps and their rate, from a second into the run.
fn paint(steps: &AtomicU64, done: &AtomicBool) {
    let start = Instant::now();
    while start.elapsed() < QUIET_START {
        if done.load(Ordering::SeqCst) {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {elapsed} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    while !done.load(Ordering::SeqCst) {
        let n = steps.load(Ordering::Relaxed);
        let rate = n as f64 / start.elapsed().as_secs_f64().max(1e-3);
        bar.set_message(format!("{n} steps, {} steps/s", human(rate)));
        bar.tick();
        std::thread::sleep(Duration::from_millis(100));
    }
    bar.finish_and_clear();
}

/// A rate in people's units: `850`, `12.3k`, `4.5M`.
fn human(rate: f64) -> String {
    if rate >= 1e6 {
        format!("{:.1}M", rate / 1e6)
    } else if rate >= 1e3 {
        format!("{:.1}k", rate / 1e3)
    } else {
        format!("{rate:.0}")
    }
}
