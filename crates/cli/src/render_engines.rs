//! Output of `concolic` and `fuzz`: text for people, JSON for programs.

use crate::load::Program;
use crate::render::{array_text, bug_json, bug_text, input_json};
use serde_json::{json, Value};
use std::fmt::Write;
use wiser_engine::concolic::{ConcolicReport, Decision, Flip, FuzzEnd, FuzzReport, RunOutcome};
use wiser_semantics::Input;

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
    for (j, (d, flip)) in run.decisions.iter().zip(&report.flips).enumerate() {
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
        RunOutcome::OutOfSteps | RunOutcome::Stopped => {
            let _ = writeln!(
                out,
                "outcome: stopped after {steps} steps (raise --max-steps)"
            );
        }
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
    let decisions: Vec<Value> = run
        .decisions
        .iter()
        .zip(&report.flips)
        .map(|(d, flip)| {
            let lc = program.line_col(d.span);
            let other = match flip {
                Flip::Input { input, concretised } => json!({
                    "status": "feasible",
                    "concretised": concretised,
                    "input": input_value(input),
                }),
                Flip::Infeasible => json!({"status": "infeasible"}),
                Flip::Unknown(why) => json!({"status": "unknown", "reason": why}),
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
        RunOutcome::OutOfSteps | RunOutcome::Stopped => ("out_of_steps", None, Value::Null),
    };
    let at = span.map(|s| program.line_col(s));
    json!({
        "language": program.language.name(),
        "input": input_value(&run.input),
        "decisions": decisions,
        "outcome": outcome,
        "line": at.map(|a| a.line),
        "column": at.map(|a| a.column),
        "bug": bug,
        "steps": run.steps,
    })
}

fn end_text(end: FuzzEnd, report: &FuzzReport, max_runs: u64) -> String {
    match end {
        FuzzEnd::Exhausted => {
            "every generated path was run (the work list is empty); fuzzing is not exhaustive, so this does not mean safe".into()
        }
        FuzzEnd::FirstBug => "stopped at the first bug (use --all to go on)".into(),
        FuzzEnd::MaxRuns => format!("run limit reached ({max_runs} runs; raise --max-runs)"),
        FuzzEnd::Timeout => "time limit reached (raise --timeout)".into(),
        FuzzEnd::Interrupted if !report.internal_errors.is_empty() => {
            "stopped by an internal error (see stderr)".into()
        }
        FuzzEnd::Interrupted => {
            "interrupted (Ctrl-C or SIGTERM); bugs found so far are listed".into()
        }
    }
}

/// The text report of a fuzzing session.
pub fn fuzz_text(program: &Program, report: &FuzzReport, max_runs: u64) -> String {
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
    let _ = writeln!(out, "  ended: {}", end_text(report.end, report, max_runs));
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
        "internal_errors": report.internal_errors,
        "elapsed_ms": report.elapsed.as_millis() as u64,
    })
}
