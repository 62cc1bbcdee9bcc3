//! Output of `concolic` and `fuzz`: text for people, JSON for programs,
//! SARIF for tools, through the one [`Rendered`] dispatch.

use crate::formats::Rendered;
use crate::load::Program;
use crate::render::{array_text, bug_json, bug_text, input_json};
use serde_json::{json, Value};
use std::fmt::Write;
use std::path::Path;
use wiser_engine::concolic::{Flip, FuzzStats, RunDecision, RunOutcome};
use wiser_engine::{ConcolicExtra, Config, Extra, Incomplete, Report};
use wiser_semantics::{Bound, Input};

/// An input on one line: `x = 3, y = 2; reads 1, 2; input: [0] = 98, others 0`
/// (a float variable as a decimal: `x = 0.1`).
fn input_line(ir: &wiser_ir::Ir, input: &Input) -> String {
    let mut parts = Vec::new();
    if !input.vars.is_empty() {
        let vars: Vec<String> = (input.vars.iter())
            .map(|(n, v)| format!("{n} = {}", crate::render::input_value_text(ir, n, v)))
            .collect();
        parts.push(vars.join(", "));
    }
    if !input.reads.is_empty() {
        parts.push(reads_line(&input.reads));
    }
    for (name, a) in &input.arrays {
        parts.push(format!("{name}: {}", array_text(a)));
    }
    if parts.is_empty() {
        "(every input 0)".into()
    } else {
        parts.join("; ")
    }
}

/// `reads 1, 2`, without the trailing zeros: a read with no value given
/// reads 0 (`wiser run --reads`), so `reads 1, 2` replays what
/// `reads 1, 2, 0, 0` does, and a long run's line (a run cut by its time
/// limit may have read millions of zeros) stays short.
fn reads_line(reads: &[wiser_num::Int]) -> String {
    let given = reads
        .iter()
        .rposition(|v| *v != wiser_num::Int::ZERO)
        .map_or(0, |last| last + 1);
    let values: Vec<String> = reads[..given].iter().map(|v| v.to_string()).collect();
    let zeros = reads.len() - given;
    match (given, zeros) {
        (_, 0) => format!("reads {}", values.join(", ")),
        (0, 1) => "reads 0".into(),
        (0, _) => format!("reads 0 (all {} of them)", reads.len()),
        _ => format!(
            "reads {}, then 0 ({} reads in all)",
            values.join(", "),
            reads.len()
        ),
    }
}

fn side(taken: bool) -> &'static str {
    if taken {
        "true"
    } else {
        "false"
    }
}

/// What the text calls a decision's condition: a check's is its fault
/// condition.
fn cond_label(d: &RunDecision) -> &'static str {
    match d.kind {
        wiser_engine::concolic::DecisionKind::Check(_) => "faults if",
        _ => "condition",
    }
}

/// The most decisions of a concolic run a report prints (the first ones):
/// a run cut by a time or memory limit can have millions, and its report
/// must stay within the run's limits too.
pub const MAX_DECISIONS_SHOWN: usize = 10_000;

/// Prints the report of `wiser concolic` or `wiser fuzz` in `format`
/// (`max_runs`: a fuzzing session's `--max-runs`, for the text of one that
/// reached it).
pub fn print(
    stdout: &crate::out::Stdout,
    format: crate::args::Format,
    file: &Path,
    program: &Program,
    report: &Report,
    config: &Config,
    max_runs: u64,
) {
    let output = EngineOutput {
        file,
        program,
        report,
        config,
        max_runs,
    };
    crate::formats::print(stdout, format, file, &output);
}

/// The report of `wiser concolic` or `wiser fuzz`, in every format: which
/// engine's, its typed extra says.
struct EngineOutput<'a> {
    file: &'a Path,
    program: &'a Program,
    /// Its extra is [`wiser_engine::Extra::Concolic`] or
    /// [`wiser_engine::Extra::Fuzz`].
    report: &'a Report,
    /// Its semantic options, for SARIF.
    config: &'a Config,
    max_runs: u64,
}

impl Rendered for EngineOutput<'_> {
    fn text(&self) -> String {
        match self.report.extra {
            Extra::Fuzz(_) => fuzz_text(self.program, self.report, self.max_runs, self.config),
            _ => concolic_text(self.program, self.report),
        }
    }

    fn json(&self) -> Value {
        match self.report.extra {
            Extra::Fuzz(_) => fuzz_json(self.program, self.report),
            _ => concolic_json(self.program, self.report),
        }
    }

    fn sarif(&self) -> Option<Value> {
        Some(crate::sarif::bugs_sarif(
            self.file,
            self.program,
            self.report,
            self.config.options,
        ))
    }
}

/// The run and flips of a concolic report.
fn concolic_extra(report: &Report) -> &ConcolicExtra {
    report
        .concolic()
        .expect("`wiser concolic` reports a concolic run")
}

/// The counters of a fuzzing report.
fn fuzz_stats(report: &Report) -> &FuzzStats {
    report
        .fuzz()
        .expect("`wiser fuzz` reports a fuzzing session")
}

/// The limit of the run layer that cut a concolic run or its flips
/// short, if one did.
fn stopped(report: &Report) -> Option<Incomplete> {
    report.incomplete.first().copied()
}

/// Why a decision was not flipped: the limit that stopped the run.
fn not_asked(report: &Report) -> &'static str {
    stopped(report).map_or("interrupted", |i| i.name())
}

/// The text of a concolic run.
fn concolic_text(program: &Program, report: &Report) -> String {
    let mut out = String::new();
    let extra = concolic_extra(report);
    let run = &extra.run;
    let _ = writeln!(out, "input: {}", input_line(&program.ir, &run.input));
    let n = run.decisions.len();
    let _ = writeln!(
        out,
        "path: {n} symbolic decision{}",
        if n == 1 { "" } else { "s" }
    );
    let shown = run.decisions.len().min(MAX_DECISIONS_SHOWN);
    for (j, d) in run.decisions[..shown].iter().enumerate() {
        let _ = writeln!(
            out,
            "{:>3}. {} at {}",
            j + 1,
            d.kind.name(),
            program.location(d.span)
        );
        let lc = program.line_col(d.span);
        let _ = writeln!(out, "     {:>4} | {}", lc.line, program.line_text(d.span));
        let cond =
            crate::render::condition_text(program, &run.read_pcs, std::slice::from_ref(&d.cond));
        let _ = writeln!(out, "     {}: {cond}", cond_label(d));
        let _ = writeln!(out, "     taken: {}", side(d.taken));
        let other = side(!d.taken);
        let Some(flip) = extra.flips.get(j) else {
            let _ = writeln!(
                out,
                "     other side ({other}): not asked ({})",
                not_asked(report)
            );
            continue;
        };
        match flip {
            Flip::Input { input, concretised } => {
                let _ = writeln!(
                    out,
                    "     other side ({other}): feasible{}, e.g. {}",
                    if *concretised {
                        " (with the other inputs pinned)"
                    } else {
                        ""
                    },
                    input_line(&program.ir, input)
                );
            }
            Flip::Infeasible => {
                let _ = writeln!(out, "     other side ({other}): infeasible after this path");
            }
            Flip::Unknown(why) => {
                let _ = writeln!(out, "     other side ({other}): undecided ({why})");
            }
        }
    }
    if shown < n {
        let _ = writeln!(
            out,
            "     ... {} more decisions not shown (at most {MAX_DECISIONS_SHOWN} are)",
            n - shown
        );
    }
    let steps = run.steps;
    match &run.outcome {
        RunOutcome::Halted => {
            let _ = writeln!(out, "outcome: normal end ({steps} steps)");
        }
        RunOutcome::Bug(bug) => {
            let _ = writeln!(out, "outcome: error (replayed on the concrete interpreter)");
            bug_text(&mut out, program, bug);
        }
        RunOutcome::Mismatch(m) => {
            let _ = writeln!(out, "outcome: internal error: {m}");
        }
        RunOutcome::AssumeFailed { span } => {
            let _ = writeln!(
                out,
                "outcome: assume failed at {}: this input is outside the program's domain",
                program.location(*span)
            );
        }
        RunOutcome::Cut(bound) => {
            let _ = writeln!(
                out,
                "outcome: cut after {steps} steps by a bound of the search ({}): this input is beyond it (raise {})",
                bound.name(),
                bound_option(*bound)
            );
        }
        RunOutcome::OutOfSteps => {
            let _ = writeln!(
                out,
                "outcome: stopped after {steps} steps (raise --max-steps)"
            );
        }
        RunOutcome::Stopped => {
            let why = not_asked(report);
            let _ = writeln!(out, "outcome: stopped after {steps} steps ({why})");
        }
    }
    if let Some(why) = stopped(report) {
        let _ = writeln!(
            out,
            "stopped: {} (the run or its flips were cut short)",
            why.name()
        );
    }
    out
}

fn input_value(input: &Input) -> Value {
    let (vars, reads, arrays) = input_json(input);
    json!({"vars": vars, "reads": reads, "arrays": arrays})
}

/// The JSON of a concolic run.
fn concolic_json(program: &Program, report: &Report) -> Value {
    let extra = concolic_extra(report);
    let run = &extra.run;
    let shown = run.decisions.len().min(MAX_DECISIONS_SHOWN);
    let decisions: Vec<Value> = run.decisions[..shown]
        .iter()
        .enumerate()
        .map(|(j, d)| {
            let lc = program.line_col(d.span);
            let other = match extra.flips.get(j) {
                None => json!({"status": "not_asked", "reason": not_asked(report)}),
                Some(Flip::Input { input, concretised }) => json!({
                    "status": "feasible",
                    "concretised": concretised,
                    "input": input_value(input),
                }),
                Some(Flip::Infeasible) => json!({"status": "infeasible"}),
                Some(Flip::Unknown(why)) => json!({"status": "unknown", "reason": why}),
            };
            json!({
                "kind": d.kind.name(),
                "line": lc.line,
                "column": lc.column,
                "location": program.location(d.span),
                "condition": crate::render::condition_text(program, &run.read_pcs, std::slice::from_ref(&d.cond)),
                "taken": d.taken,
                "other_side": other,
            })
        })
        .collect();
    let (outcome, span, bug) = match &run.outcome {
        RunOutcome::Halted => ("halted", None, Value::Null),
        RunOutcome::Bug(b) => ("error", Some(b.span), bug_json(program, b)),
        RunOutcome::Mismatch(_) => ("internal_error", None, Value::Null),
        RunOutcome::AssumeFailed { span } => ("assume_failed", Some(*span), Value::Null),
        RunOutcome::OutOfSteps => ("out_of_steps", None, Value::Null),
        RunOutcome::Stopped => ("stopped", None, Value::Null),
        RunOutcome::Cut(bound) => (bound.name(), None, Value::Null),
    };
    let at = span.map(|s| program.line_col(s));
    let incomplete: Vec<&str> = report.incomplete.iter().map(|i| i.name()).collect();
    json!({
        "language": program.language.name(),
        "verdict": report.verdict.name(),
        "incomplete": incomplete,
        "input": input_value(&run.input),
        "decisions": decisions,
        "decisions_omitted": run.decisions.len() - shown,
        "outcome": outcome,
        "line": at.map(|a| a.line),
        "column": at.map(|a| a.column),
        "bug": bug,
        "steps": run.steps,
    })
}

/// Why a fuzzing session ended: its report's one stop reason.
fn fuzz_end(report: &Report) -> Incomplete {
    report
        .incomplete
        .first()
        .copied()
        .unwrap_or(Incomplete::WorkListEmpty)
}

fn end_text(end: Incomplete, report: &Report, max_runs: u64, config: &Config) -> String {
    match end {
        Incomplete::MaxRuns => format!("run limit reached ({max_runs} runs; raise --max-runs)"),
        Incomplete::Interrupted if !report.internal_errors.is_empty() => {
            "stopped by an internal error (see stderr)".into()
        }
        // The other reasons read as they do for every engine.
        other => crate::render::incomplete_hint(other, config, &[other]),
    }
}

/// The text report of a fuzzing session.
fn fuzz_text(program: &Program, report: &Report, max_runs: u64, config: &Config) -> String {
    let mut out = String::new();
    let stats = fuzz_stats(report);
    for (bug, run) in report.bugs.iter().zip(&stats.found_by) {
        bug_text(&mut out, program, bug);
        let _ = writeln!(out, "  found by run {run}");
    }
    let n = report.bugs.len();
    let verdict = if n == 0 {
        "no bug found".to_string()
    } else {
        format!("{n} bug{} found", if n == 1 { "" } else { "s" })
    };
    let _ = writeln!(
        out,
        "fuzz: {verdict} in {} run{} ({} ms)",
        stats.runs,
        if stats.runs == 1 { "" } else { "s" },
        report.stats.elapsed.as_millis()
    );
    let _ = writeln!(
        out,
        "  ended: {}",
        end_text(fuzz_end(report), report, max_runs, config)
    );
    let _ = writeln!(
        out,
        "  flips: {} asked, {} infeasible, {} concretised, {} dropped (undecided even with the other inputs pinned)",
        stats.flips, stats.infeasible, stats.concretised, stats.dropped
    );
    if stats.assume_failed + stats.out_of_steps > 0 {
        let _ = writeln!(
            out,
            "  runs outside the domain (failed assume): {}; cut by --max-steps: {}",
            stats.assume_failed, stats.out_of_steps
        );
    }
    if stats.cut > 0 {
        let _ = writeln!(
            out,
            "  runs cut by a bound of the search (--max-objects, --max-threads, --max-switches): {}",
            stats.cut
        );
    }
    let (covered, total) = stats.coverage.totals();
    let _ = writeln!(out, "coverage: {covered}/{total} branch sides");
    for r in stats.coverage.per_routine() {
        let _ = writeln!(out, "  {}: {}/{}", r.routine, r.covered, r.total);
    }
    for u in stats.coverage.uncovered() {
        let lc = program.line_col(u.span);
        let _ = writeln!(
            out,
            "  uncovered: {} side of the branch at {} in {}",
            side(u.side),
            program.location(u.span),
            u.routine
        );
        let _ = writeln!(out, "    {:>4} | {}", lc.line, program.line_text(u.span));
    }
    out
}

/// The JSON report of a fuzzing session.
fn fuzz_json(program: &Program, report: &Report) -> Value {
    let stats = fuzz_stats(report);
    let bugs: Vec<Value> = report
        .bugs
        .iter()
        .zip(&stats.found_by)
        .map(|(bug, run)| {
            let mut v = bug_json(program, bug);
            v["run"] = json!(run);
            v
        })
        .collect();
    let (covered, total) = stats.coverage.totals();
    let routines: Vec<Value> = stats
        .coverage
        .per_routine()
        .iter()
        .map(|r| json!({"routine": &*r.routine, "covered": r.covered, "total": r.total}))
        .collect();
    let uncovered: Vec<Value> = stats
        .coverage
        .uncovered()
        .iter()
        .map(|u| {
            let lc = program.line_col(u.span);
            json!({"routine": &*u.routine, "side": u.side, "line": lc.line, "column": lc.column})
        })
        .collect();
    json!({
        "language": program.language.name(),
        "verdict": report.verdict.name(),
        "incomplete": [fuzz_end(report).name()],
        "bugs": bugs,
        "runs": stats.runs,
        "end": fuzz_end(report).name(),
        "coverage": {
            "covered": covered,
            "total": total,
            "routines": routines,
            "uncovered": uncovered,
        },
        "flips": stats.flips,
        "infeasible": stats.infeasible,
        "concretised": stats.concretised,
        "dropped": stats.dropped,
        "assume_failed": stats.assume_failed,
        "out_of_steps": stats.out_of_steps,
        "cut": stats.cut,
        "internal_errors": report.internal_errors,
        "elapsed_ms": report.stats.elapsed.as_millis() as u64,
    })
}

/// The option that raises `bound`.
fn bound_option(bound: Bound) -> &'static str {
    match bound {
        Bound::Heap => "--max-objects",
        Bound::Threads => "--max-threads",
        Bound::Switches => "--max-switches",
    }
}

#[cfg(test)]
mod tests {
    use super::reads_line;
    use wiser_num::Int;

    #[test]
    fn trailing_zero_reads_are_summed_up() {
        let line = |r: &[i64]| reads_line(&r.iter().map(|&v| Int::from(v)).collect::<Vec<_>>());
        assert_eq!(line(&[1, 2]), "reads 1, 2");
        assert_eq!(line(&[0]), "reads 0");
        assert_eq!(line(&[0, 0, 0]), "reads 0 (all 3 of them)");
        assert_eq!(line(&[0, 5, 0, 0]), "reads 0, 5, then 0 (4 reads in all)");
    }
}
