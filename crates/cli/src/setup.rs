//! Honest set-up: what is checked about `--assume` before a run.
//!
//! The names of the condition are checked by the IMP front end (each must
//! be an input). What needs the solver is checked here, once, on the
//! program cut right after the assumption: its `assume` instruction then
//! leads to a `fail` of its own. One exhaustive search of that tiny
//! program (the condition's operations and one branch) tells
//!
//! * whether some input satisfies the condition: the `fail` is reached.
//!   If none does, every path of the real run ends at the assumption and
//!   its `safe` says nothing about the program: a warning says so;
//! * whether the condition itself can fail (`10 / x > 100` divides by
//!   zero when `x = 0`): that is an error of the assumption, reported in
//!   its own text before the run, never a bug of the program with a
//!   witness that `wiser run` would not reproduce.

use crate::load::Program;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use wiser_engine::{Config, Property, Verdict};
use wiser_ir::{Diagnostic, Instr, Located};
use wiser_semantics::ErrorKind;

/// Warnings about the set-up, for the report (`warnings` in JSON).
static WARNINGS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Records a warning and prints it on stderr.
pub fn warn(text: String) {
    crate::out::errln!("warning: {text}");
    WARNINGS
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .push(text);
}

/// The warnings given since the last call (each file of a run has its own).
pub fn warnings() -> Vec<String> {
    std::mem::take(&mut *WARNINGS.lock().unwrap_or_else(|p| p.into_inner()))
}

/// The text name of the `--assume` condition in [`Program::sources`].
const ASSUME: &str = "--assume";

/// Checks the program's `--assume` condition, if it has one: `Err` (an
/// error message) when the condition can fail, a warning when no input
/// satisfies it. The search is bounded by the run's limits and at most
/// ten seconds; an undecided answer says nothing.
pub fn check_assumption(program: &Program, config: &Config) -> Result<(), String> {
    let in_assume = |l: &Located| program.sources.get(l.span.file).name() == ASSUME;
    let Some(at) = program
        .ir
        .code
        .iter()
        .position(|l| in_assume(l) && matches!(l.instr, Instr::Assume { .. }))
    else {
        return Ok(());
    };
    let mut cut = (*program.ir).clone();
    let marker = cut.code.len() as wiser_ir::Pc;
    let span = cut.code[at].span;
    cut.code.push(Located {
        instr: Instr::Fail,
        span,
        checks: Box::new([]),
    });
    if let Instr::Assume { next, .. } = &mut cut.code[at].instr {
        *next = marker;
    }
    let limit = Duration::from_secs(10);
    let config = config
        .clone()
        .with_property(Property::all())
        .with_all_bugs(true)
        .with_jobs(1)
        .with_timeout(Some(config.timeout.map_or(limit, |t| t.min(limit))));
    let report =
        wiser_engine::check_monitored(Arc::new(cut), &config, Arc::new(Default::default()));
    if let Some(bug) = report
        .bugs
        .iter()
        .find(|b| b.kind != ErrorKind::Fail || b.span != span)
        .filter(|b| program.sources.get(b.span.file).name() == ASSUME)
    {
        let input = crate::render::vars_text(&bug.input);
        let diag = Diagnostic::new(
            bug.span,
            format!("the assumption itself can fail: {}", bug.kind.describe()),
        )
        .with_help(format!(
            "it fails for the input {input}; guard the operation: `and` evaluates its right side only where its left side holds (e.g. `x != 0 and 10 / x > 1`)"
        ));
        return Err(program.sources.render(&diag));
    }
    if report.verdict == Verdict::Safe && report.bugs.is_empty() {
        let text = program.sources.get(span.file).text();
        warn(format!(
            "no input satisfies --assume `{text}`: every path ends at the assumption, so a `safe` verdict says nothing about the program"
        ));
    }
    Ok(())
}

/// After an `unknown` verdict on a file run without `--assume`: the
/// arguments it suggests for itself (IMP's `# args:` header line) (the examples bound their
/// inputs there), as a note naming the command to run.
pub fn suggest_header_args(program: &Program, report: &wiser_engine::Report, assumed: bool) {
    if assumed || report.verdict != Verdict::Unknown {
        return;
    }
    let text = program.sources.get(wiser_ir::FileId(0)).text();
    let Some(args) = program.language.suggested_args(text) else {
        return;
    };
    crate::out::errln!(
        "note: `{}` suggests its own arguments: wiser check {} {}",
        program.file.display(),
        program.file.display(),
        args
    );
}
