//! `wiser run`: the program on one concrete input, with a progress line on
//! a terminal after a second, Ctrl-C/SIGTERM stopping it with the values
//! reached so far, and `--trace`.

use crate::args::{Format, RunArgs};
use crate::{emit, exit, inputs, load, machine, out, render, sarif, trace_render};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use wiser_semantics::concrete::{self, Outcome, Watch};
use wiser_semantics::Options;

/// The exit code of a run stopped by Ctrl-C or SIGTERM (the shell's code
/// for a run ended by SIGINT).
pub const INTERRUPTED: u8 = 130;

/// How long a run goes before its progress line appears.
const QUIET_START: Duration = Duration::from_secs(1);

/// Runs `wiser run`; returns the exit code.
pub fn run(args: &RunArgs) -> Result<u8, String> {
    let file = args
        .file
        .as_deref()
        .ok_or("error: no FILE given\n  = help: `wiser run FILE`, or `wiser run --test TEST`\n")?;
    let program = load::load_any(file, &args.lang.options(None))?;
    let mut input = inputs::parse(&program.ir, &args.input, args.reads.as_deref())?;
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
    let stop = Arc::new(AtomicBool::new(false));
    let handler_stop = stop.clone();
    // A second signal ends the process at once, as usual. Failing to
    // install the handler only loses the graceful stop.
    let _ = ctrlc::set_handler(move || {
        if handler_stop.swap(true, Ordering::SeqCst) {
            std::process::exit(i32::from(INTERRUPTED));
        }
    });
    let steps = Arc::new(AtomicU64::new(0));
    let done = Arc::new(AtomicBool::new(false));
    let painter = (!args.quiet && std::io::stderr().is_terminal()).then(|| {
        let (steps, done) = (steps.clone(), done.clone());
        std::thread::spawn(move || paint(&steps, &done))
    });
    let watch = Watch {
        trace: (args.trace || args.format == Format::Sarif)
            .then(|| trace_render::options(&program)),
        stop: Some(&stop),
        steps: Some(&steps),
    };
    let mut run = concrete::run_watched(&program.ir, &input, args.max_steps, options, watch);
    done.store(true, Ordering::SeqCst);
    if let Some(p) = painter {
        let _ = p.join();
    }
    if let Some(unused) = inputs::unused_reads(&input, run.read_pcs.len()) {
        let said = format!(
            "{unused} of the {} values of --reads were not read (the run made {} read(s))",
            input.reads.len(),
            run.read_pcs.len()
        );
        // A run that ended normally shows the values were too many: a
        // mistake in the input. One cut short by an error may simply not
        // have got to them.
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
        out::errln!(
            "note: {} {what} had no value in --reads; they read 0",
            run.missing_reads
        );
    }
    for (what, given, wrapped) in &run.wrapped_inputs {
        out::errln!("note: {what}: {given} is not a value of its type; it was read as {wrapped}");
    }
    let trace = run.trace.take();
    match args.format {
        Format::Text => {
            let mut text = render::run_text(&program, &run, args.max_steps);
            if let (true, Some(t)) = (args.trace, &trace) {
                text.push_str(&trace_render::trace_text(&program, t));
            }
            emit(&text);
        }
        Format::Json => {
            let mut doc = render::run_json(&program, &run);
            if let (true, Some(t)) = (args.trace, &trace) {
                doc["trace"] = trace_render::trace_json(&program, t);
            }
            emit(&format!("{}\n", machine::stamp(doc, file)));
        }
        Format::Sarif => {
            let doc = sarif::run_sarif(file, &program, &run, trace.as_ref());
            emit(&format!("{doc}\n"));
        }
    }
    machine::reported();
    Ok(match run.outcome {
        Outcome::Halted => exit::OK,
        Outcome::Error { .. } => exit::BUG,
        Outcome::AssumeFailed { .. } => exit::ASSUME_FAILED,
        Outcome::OutOfSteps => exit::OUT_OF_STEPS,
        Outcome::Interrupted => INTERRUPTED,
    })
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
