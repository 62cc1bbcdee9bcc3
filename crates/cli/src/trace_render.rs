//! Traces (`--trace`) for people and programs: one line per step in text,
//! typed objects in JSON, and the steps SARIF's `codeFlows` are made of.
//!
//! The steps come from [`wiser_semantics::trace`], recorded while the
//! concrete interpreter runs the input (a bug's witness, or `wiser run`'s
//! input). Conditions are shown in the program's own syntax: the source
//! text of the branching statement, cut down to its condition.

use crate::load::Program;
use serde_json::{json, Value};
use wiser_engine::Bug;
use wiser_frontend::{ReadSite, WitnessStyle};
use wiser_ir::{FileId, Instr, Pc, Span};
use wiser_semantics::concrete::{self, Watch};
use wiser_semantics::{Input, Options, Trace, TraceOptions, TraceStep};

/// The longest condition shown; longer ones end in `…`.
const MAX_CONDITION: usize = 100;

/// How a program's traces are recorded: C's start-up code (the IR main
/// routine that runs global initialisers and calls C's `main`) is hidden,
/// as it is in call stacks.
pub fn options(program: &Program) -> TraceOptions {
    TraceOptions {
        hide_main: program.language.main_is_startup(),
        ..TraceOptions::default()
    }
}

/// The trace of a confirmed witness: its input replayed with the
/// recorder. A witness was replayed to its error before it was reported,
/// so the run ends there; the step limit is only a guard.
pub fn witness_trace(program: &Program, input: &Input, semantics: Options) -> Trace {
    let watch = Watch {
        trace: Some(options(program)),
        ..Watch::default()
    };
    concrete::run_watched(&program.ir, input, u64::MAX, semantics, watch)
        .trace
        .unwrap_or_default()
}

/// Collapses runs of white space (line breaks included) to one space and
/// shortens what is too long.
fn one_line(text: &str) -> String {
    let mut s = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if s.chars().count() > MAX_CONDITION {
        s = s.chars().take(MAX_CONDITION - 1).collect::<String>() + "…";
    }
    s
}

/// How a decision reads: `if x > 10`, `while i < n`, `assert y >= 0`, or
/// the statement's text for anything else (a `case` label, `&&`).
pub fn decision_text(program: &Program, span: Span) -> String {
    let stmt = crate::sites::snippet(program, span).trim_start();
    match crate::sites::statement_condition(stmt, program.language) {
        Some((keyword, cond)) => format!("{keyword} {cond}"),
        None => {
            let s = one_line(stmt);
            // A C statement's text may end in its `;`.
            s.strip_suffix(';').map(str::to_string).unwrap_or(s)
        }
    }
}

/// A variable's name as the program wrote it: the C front end qualifies
/// the names of locals that live outside a frame (arrays, statics) with
/// their function's, `main::input`.
fn user_name(name: &str) -> &str {
    name.rsplit("::").next().unwrap_or(name)
}

/// The function whose call made the read at `span` (C's
/// `__VERIFIER_nondet_int`), if a call made it.
fn read_function(program: &Program, span: Span) -> Option<String> {
    match read_site_at(program, span)? {
        ReadSite::Call { function, .. } => Some(function),
        _ => None,
    }
}

/// What made a trace's read at `span` (the `Havoc` with that span).
pub(crate) fn read_site_at(program: &Program, span: Span) -> Option<ReadSite> {
    let pc = program
        .ir
        .code
        .iter()
        .position(|l| l.span == span && matches!(l.instr, Instr::Havoc { .. }))?;
    Some(program.read_site(pc as Pc))
}

/// What a read is: `x = *`, `__VERIFIER_nondet_int()`, `x (uninitialised)`.
fn read_text(program: &Program, span: Span, target: Option<&str>) -> String {
    if program.language.witness_style() == WitnessStyle::Reads {
        if let Some(function) = read_function(program, span) {
            return format!("{function}()");
        }
        return format!("{} (uninitialised)", target.unwrap_or("a local"));
    }
    match target {
        Some(t) => format!("{t} = *"),
        None => "*".into(),
    }
}

/// `line:col` of a step, or `file:line:col` when it is not in the
/// program's own file (the `--assume` text, a header).
pub fn place(program: &Program, span: Span) -> String {
    if span.file == FileId(0) {
        program.line_col(span).to_string()
    } else {
        program.location(span)
    }
}

fn values(vs: &[wiser_num::Int]) -> String {
    vs.iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A step as people read it, without its place: `x = 5`, `if x > 10:
/// true`, `call f(3)`, `return 9`, `error: assertion failed`.
pub fn step_text(program: &Program, step: &TraceStep) -> String {
    match step {
        TraceStep::Assign {
            name, value, ty, ..
        } => format!("{} = {}", user_name(name), ty.show(value)),
        TraceStep::Store {
            array,
            index,
            value,
            ty,
            ..
        } => format!("{}[{index}] = {}", user_name(array), ty.show(value)),
        TraceStep::Read {
            span,
            target,
            value,
            ty,
            ..
        } => format!(
            "{} -> {}",
            read_text(program, *span, target.as_deref()),
            ty.show(value)
        ),
        TraceStep::Branch { span, taken } => {
            format!("{}: {taken}", decision_text(program, *span))
        }
        TraceStep::Assert { span } => format!("{}: true", decision_text(program, *span)),
        TraceStep::Assume { span, holds } => {
            let text = decision_text(program, *span);
            // The `--assume` text is a bare condition; the program's own
            // assumptions show their statement (`assume x > 0`,
            // `__VERIFIER_assume(x > 0)`, `abort()`).
            if span.file == FileId(0) {
                format!("{text}: {holds}")
            } else {
                format!("assume {text}: {holds}")
            }
        }
        TraceStep::Call { routine, args, .. } => format!("call {routine}({})", values(args)),
        TraceStep::Return { value, .. } => match value {
            Some((v, ty)) => format!("return {}", ty.show(v)),
            None => "return".into(),
        },
        TraceStep::Thread { thread, .. } => format!("-- thread {thread} runs"),
        TraceStep::Load {
            what, value, ty, ..
        } => format!("{} -> {}", user_name(what), ty.show(value)),
        TraceStep::Error { kind, .. } => format!("error: {}", program.describe(*kind)),
    }
}

/// The trace in text: a header, then one indented line per step, `line:col
/// text`, with a line for the steps left out.
pub fn trace_text(program: &Program, trace: &Trace) -> String {
    let line = |s: &TraceStep| (place(program, s.span()), step_text(program, s));
    let lines: Vec<(String, String)> = trace.steps().map(line).collect();
    let split = trace.head.len();
    let width = lines.iter().map(|(p, _)| p.len()).max().unwrap_or(0);
    let n = trace.len();
    let mut out = format!(
        "  trace ({n} step{}{}):\n",
        if n == 1 { "" } else { "s" },
        if trace.elided > 0 {
            format!(", {} not shown", trace.elided)
        } else {
            String::new()
        }
    );
    for (i, (p, t)) in lines.iter().enumerate() {
        if i == split && trace.elided > 0 {
            out.push_str(&format!(
                "    {:width$}  ... {} steps ...\n",
                "", trace.elided
            ));
        }
        out.push_str(&format!("    {p:width$}  {t}\n"));
    }
    out
}

/// A step as a JSON object: `step` (its kind), `line`, `column`, `text`
/// (as in the text trace) and the kind's own fields.
pub fn step_json(program: &Program, step: &TraceStep) -> Value {
    let lc = program.line_col(step.span());
    let mut v = match step {
        TraceStep::Assign { name, value, .. } => {
            json!({"step": "assign", "variable": &**name, "value": value})
        }
        TraceStep::Store {
            array,
            index,
            value,
            ..
        } => json!({"step": "store", "array": &**array, "index": index, "value": value}),
        TraceStep::Read {
            span,
            index,
            target,
            value,
            ..
        } => {
            let function = read_function(program, *span);
            json!({"step": "read", "index": index, "variable": target.as_deref(), "function": function, "value": value})
        }
        TraceStep::Branch { span, taken } => {
            json!({"step": "branch", "condition": decision_text(program, *span), "taken": taken})
        }
        TraceStep::Assert { span } => {
            json!({"step": "assert", "condition": decision_text(program, *span), "holds": true})
        }
        TraceStep::Assume { span, holds } => {
            json!({"step": "assume", "condition": decision_text(program, *span), "holds": holds})
        }
        TraceStep::Call { routine, args, .. } => {
            json!({"step": "call", "routine": &**routine, "args": args})
        }
        TraceStep::Return { routine, value, .. } => {
            json!({"step": "return", "routine": &**routine, "value": value.as_ref().map(|(v, _)| v)})
        }
        TraceStep::Thread { thread, .. } => json!({"step": "thread", "thread": thread}),
        TraceStep::Load { what, value, .. } => {
            json!({"step": "load", "shared": &**what, "value": value})
        }
        TraceStep::Error { kind, .. } => {
            json!({"step": "error", "kind": kind.name(), "message": kind.describe()})
        }
    };
    v["line"] = json!(lc.line);
    v["column"] = json!(lc.column);
    v["text"] = json!(step_text(program, step));
    v
}

/// The trace as a JSON array of steps; the steps left out are one element
/// `{"step": "elided", "count": N}` where they were.
pub fn trace_json(program: &Program, trace: &Trace) -> Value {
    let mut steps: Vec<Value> = trace.head.iter().map(|s| step_json(program, s)).collect();
    if trace.elided > 0 {
        steps.push(json!({"step": "elided", "count": trace.elided}));
    }
    steps.extend(trace.tail.iter().map(|s| step_json(program, s)));
    Value::Array(steps)
}

/// A bug's trace in text (its witness replayed with the recorder).
pub fn bug_trace_text(program: &Program, bug: &Bug, semantics: Options) -> String {
    trace_text(program, &witness_trace(program, &bug.input, semantics))
}

/// Adds each bug's trace to a report's `bugs` (`"trace": [...]`).
pub fn add_json_traces(report: &mut Value, program: &Program, bugs: &[Bug], semantics: Options) {
    let Some(items) = report.get_mut("bugs").and_then(Value::as_array_mut) else {
        return;
    };
    for (item, bug) in items.iter_mut().zip(bugs) {
        let trace = witness_trace(program, &bug.input, semantics);
        item["trace"] = trace_json(program, &trace);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_conditions_are_shortened() {
        assert_eq!(one_line(&"x".repeat(200)).chars().count(), MAX_CONDITION);
    }
}
