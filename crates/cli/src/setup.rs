//! Honest set-up: what is checked about `--assume` before a run.
//!
//! The names of the condition are checked by the IMP front end (each must
//! be an input). What needs the solver is checked here, once, on the
//! program cut right after the assumption, which the front end builds and
//! validates as any program ([`wiser_frontend::LoadedProgram::assumption_cut`]):
//! its `assume` leads to a `fail` of its own. One exhaustive search of that tiny
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
use std::sync::Arc;
use std::time::Duration;
use wiser_engine::{Config, Property, Verdict};
use wiser_ir::{Diagnostic, Instr, Located};
use wiser_semantics::ErrorKind;

/// The text name of the `--assume` condition in [`Program::sources`].
const ASSUME: &str = "--assume";

/// Checks the program's `--assume` condition, if it has one: `Err` (an
/// error message) when the condition can fail, a warning when no input
/// satisfies it (printed on stderr, and returned for the report's
/// `warnings`). The search is bounded by the run's limits and at most ten
/// seconds; an undecided answer says nothing.
pub fn check_assumption(program: &Program, config: &Config) -> Result<Vec<String>, String> {
    let Some(cut) = program.details.assumption_cut() else {
        return Ok(Vec::new());
    };
    let in_assume = |l: &&Located| program.sources.get(l.span.file).name() == ASSUME;
    let Some(span) = cut
        .code
        .iter()
        .find(|l| in_assume(l) && matches!(l.instr, Instr::Assume { .. }))
        .map(|l| l.span)
    else {
        return Ok(Vec::new());
    };
    let limit = Duration::from_secs(10);
    let config = config
        .clone()
        .with_property(Property::all())
        .with_all_bugs(true)
        .with_jobs(1)
        .with_timeout(Some(config.timeout.map_or(limit, |t| t.min(limit))));
    let report = wiser_engine::check_monitored(cut.clone(), &config, Arc::new(Default::default()));
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
        let warning = format!(
            "no input satisfies --assume `{text}`: every path ends at the assumption, so a `safe` verdict says nothing about the program"
        );
        crate::out::errln!("warning: {warning}");
        return Ok(vec![warning]);
    }
    Ok(Vec::new())
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
