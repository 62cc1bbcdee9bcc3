//! Output of `concolic` and `fuzz`: text for people, JSON for programs.

use crate::load::Program;
use crate::render::{array_text, bug_json, bug_text, input_json};
use serde_json::{json, Value};
use std::fmt::Write;
use wiser_engine::concolic::{ConcolicReport, Decision, Flip, FuzzReport, RunOutcome};
use wiser_engine::{Config, Incomplete};
use wiser_semantics::{Bound, Input};

/// An input on one line: `x = 3, y = 2; reads 1, 2; input: [0] = 98, others 0`.
fn input_line(input: &Input) -> String {
    let mut parts = Vec::new();
    if !input.vars.is_empty() {
        parts.push(crate::render::vars_text(input));
    }
    if !input.reads.is_empty() {
        let reads: Vec<String> = input.reads.iter().map(|v| v.to_string()).collect();
        parts.push(format!("reads {}", reads.join(", ")));
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

fn side(taken: bool) -> &'static str {
    if taken {
        "true"
    } else {
        "false"
    }
}

/// What the text calls a decision's condition: a check's is its fault
/// condition.
fn cond_label(d: &Decision) -> &'static str {
    match d.kind {
        wiser_engine::concolic::DecisionKind::Check(_) => "faults if",
        _ => "condition",
    }
}

/// The most decisions of a concolic run a report prints (the first ones):
/// a run cut by a time or memory limit can have millions, and its report
/// must stay within the run's limits too.
pub const MAX_DECISIONS_SHOWN: usize = 10_000;

/// Why a decision was not flipped: the limit that stopped the run.
fn not_asked(report: &ConcolicReport) -> &'static str {
    report.stopped.map_or("interrupted", |i| i.name())
}

/// The text of a concolic run.
pub fn concolic_text(program: &Program, report: &ConcolicReport) -> String {
    let mut out = String::new();
    let run = &report.run;
    let _ = writeln!(out, "input: {}", input_line(&run.input));
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
        let _ = writeln!(out, "     {}: {}", cond_label(d), d.cond);
        let _ = writeln!(out, "     taken: {}", side(d.taken));
        let other = side(!d.taken);
        let Some(flip) = report.flips.get(j) else {
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
                    input_line(input)
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
            let why = report.stopped.map_or("interrupted", |i| i.name());
            let _ = writeln!(out, "outcome: stopped after {steps} steps ({why})");
        }
    }
    if let Some(why) = report.stopped {
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
pub fn concolic_json(program: &Program, report: &ConcolicReport) -> Value {
    let run = &report.run;
    let shown = run.decisions.len().min(MAX_DECISIONS_SHOWN);
    let decisions: Vec<Value> = run.decisions[..shown]
        .iter()
        .enumerate()
        .map(|(j, d)| {
            let lc = program.line_col(d.span);
            let other = match report.flips.get(j) {
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
                "condition": d.cond.to_string(),
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
    let incomplete: Vec<&str> = report.stopped.iter().map(|i| i.name()).collect();
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

fn end_text(end: Incomplete, report: &FuzzReport, max_runs: u64, config: &Config) -> String {
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
pub fn fuzz_text(program: &Program, report: &FuzzReport, max_runs: u64, config: &Config) -> String {
    let mut out = String::new();
    for b in &report.bugs {
        bug_text(&mut out, program, &b.bug);
        let _ = writeln!(out, "  found by run {}", b.run);
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
        report.runs,
        if report.runs == 1 { "" } else { "s" },
        report.elapsed.as_millis()
    );
    let _ = writeln!(
        out,
        "  ended: {}",
        end_text(report.end, report, max_runs, config)
    );
    let _ = writeln!(
        out,
        "  flips: {} asked, {} infeasible, {} concretised, {} dropped (undecided even with the other inputs pinned)",
        report.flips, report.infeasible, report.concretised, report.dropped
    );
    if report.assume_failed + report.out_of_steps > 0 {
        let _ = writeln!(
            out,
            "  runs outside the domain (failed assume): {}; cut by --max-steps: {}",
            report.assume_failed, report.out_of_steps
        );
    }
    if report.cut > 0 {
        let _ = writeln!(
            out,
            "  runs cut by a bound of the search (--max-objects, --max-threads, --max-switches): {}",
            report.cut
        );
    }
    let (covered, total) = report.coverage.totals();
    let _ = writeln!(out, "coverage: {covered}/{total} branch sides");
    for r in report.coverage.per_routine() {
        let _ = writeln!(out, "  {}: {}/{}", r.routine, r.covered, r.total);
    }
    for u in report.coverage.uncovered() {
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
pub fn fuzz_json(program: &Program, report: &FuzzReport) -> Value {
    let bugs: Vec<Value> = report
        .bugs
        .iter()
        .map(|b| {
            let mut v = bug_json(program, &b.bug);
            v["run"] = json!(b.run);
            v
        })
        .collect();
    let (covered, total) = report.coverage.totals();
    let routines: Vec<Value> = report
        .coverage
        .per_routine()
        .iter()
        .map(|r| json!({"routine": &*r.routine, "covered": r.covered, "total": r.total}))
        .collect();
    let uncovered: Vec<Value> = report
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
        "incomplete": [report.end.name()],
        "bugs": bugs,
        "runs": report.runs,
        "end": report.end.name(),
        "coverage": {
            "covered": covered,
            "total": total,
            "routines": routines,
            "uncovered": uncovered,
        },
        "flips": report.flips,
        "infeasible": report.infeasible,
        "concretised": report.concretised,
        "dropped": report.dropped,
        "assume_failed": report.assume_failed,
        "out_of_steps": report.out_of_steps,
        "cut": report.cut,
        "internal_errors": report.internal_errors,
        "elapsed_ms": report.elapsed.as_millis() as u64,
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
