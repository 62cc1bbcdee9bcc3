//! SARIF 2.1.0 (`--format sarif`), the format code-scanning services read:
//! one run whose tool lists a rule per kind of bug, one result per bug
//! with its place, its witness in the message and its trace as a code
//! flow, and the invocation with what kept a verdict from being sure.
//!
//! Written with `serde_json` rather than the `serde-sarif` crate: the
//! document is a dozen kinds of object, and the tests validate every bug
//! example's output against the official 2.1.0 schema (vendored in
//! `docs/schemas/`) and CI runs Microsoft's `sarif-multitool validate` on
//! them, a stronger check than typed builders give, without their
//! procedural-macro dependencies.

use crate::json::{self, Diag};
use crate::load::Program;
use crate::render::{self, Asked};
use crate::trace_render;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use wiser_engine::{Bug, Config, Report, Verdict};
use wiser_ir::{ErrorKind, Span};
use wiser_semantics::concrete::{self, Outcome};
use wiser_semantics::{Options, Trace, TraceStep};

/// The SARIF version and its schema's address.
const VERSION: &str = "2.1.0";
const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
/// The base that relative artifact addresses are resolved against.
const SRCROOT: &str = "%SRCROOT%";

/// The rule of a kind of bug: its id (`wiser/assertion`), its place in
/// `tool.driver.rules`.
fn rule_id(kind: ErrorKind) -> String {
    format!("wiser/{}", kind.name())
}

fn rule_index(kind: ErrorKind) -> usize {
    ErrorKind::ALL.iter().position(|k| *k == kind).unwrap_or(0)
}

/// What each kind of bug is, and what to do about it.
fn rule_text(kind: ErrorKind) -> (&'static str, &'static str, &'static str) {
    match kind {
        ErrorKind::Assertion => (
            "AssertionFailed",
            "An assertion can fail: some input reaches it with its condition false.",
            "Replay the witness with `wiser run` (or the trace with --trace) to see why the condition is false, then fix the program or the assertion.",
        ),
        ErrorKind::Fail => (
            "ErrorReached",
            "An error location (`fail`, `reach_error()`, `__VERIFIER_error()`) is reachable.",
            "Follow the trace to see which branches lead to the error location.",
        ),
        ErrorKind::DivisionByZero => (
            "DivisionByZero",
            "A division or remainder can have a divisor of 0.",
            "Guard the division with a test of its divisor, or constrain the inputs.",
        ),
        ErrorKind::DivisionOverflow => (
            "DivisionOverflow",
            "A signed division or remainder can compute MIN / -1, whose quotient does not fit its type.",
            "Exclude the pair (MIN, -1) before dividing, or divide in a wider type.",
        ),
        ErrorKind::SignedOverflow => (
            "SignedOverflow",
            "A signed operation can produce a result outside its type (undefined behaviour in C).",
            "Compute in a wider or unsigned type, or check the operands before the operation (e.g. `a + (b - a) / 2` for a midpoint).",
        ),
        ErrorKind::NullDereference => (
            "NullDereference",
            "A field access, method call or lock can be on a null reference.",
            "Test the reference against null before using it, or make sure every path assigns it an object.",
        ),
        ErrorKind::UseAfterFree => (
            "UseAfterFree",
            "An object can be used after it was freed.",
            "Follow the trace to the `free`, and keep the object alive (or stop using the pointer) until its last use.",
        ),
        ErrorKind::DoubleFree => (
            "DoubleFree",
            "An object can be freed twice.",
            "Free each object once: set the pointer to NULL after `free`, or follow the trace to the first `free`.",
        ),
        ErrorKind::InvalidFree => (
            "InvalidFree",
            "`free` can be called on memory that `malloc` did not allocate.",
            "Free only pointers `malloc`, `calloc` or `realloc` returned; a variable or a global structure is never freed.",
        ),
        ErrorKind::MemoryLeak => (
            "MemoryLeak",
            "Memory allocated by `malloc` can be unreachable and not freed when `main` returns.",
            "Follow the trace to the allocation and free the memory before its last pointer is lost.",
        ),
        ErrorKind::Deadlock => (
            "Deadlock",
            "Some schedule of the threads reaches a state in which no thread can run and some have not finished.",
            "Follow the trace and its thread switches: take locks in one global order, and make sure every joined thread can finish.",
        ),
        ErrorKind::InvalidShift => (
            "InvalidShift",
            "A shift can be by a negative amount or by at least the width of its type.",
            "Bound the shift amount to 0 .. width - 1 before shifting.",
        ),
        ErrorKind::OutOfBounds => (
            "IndexOutOfBounds",
            "An array subscript can lie outside the array.",
            "Check the subscript against the array's length before the access.",
        ),
        ErrorKind::FloatConversion => (
            "FloatToIntegerOverflow",
            "A floating value converted to an integer type can be NaN, infinite, or, truncated, outside the type (undefined behaviour in C).",
            "Compare the value with the type's limits (and test `isnan`) before converting, or convert to a wider type.",
        ),
    }
}

fn rules() -> Vec<Value> {
    ErrorKind::ALL
        .iter()
        .map(|&k| {
            let (name, full, help) = rule_text(k);
            json!({
                "id": rule_id(k),
                "name": name,
                "shortDescription": {"text": k.describe()},
                "fullDescription": {"text": full},
                "help": {"text": help},
                "defaultConfiguration": {"level": "error"},
            })
        })
        .collect()
}

fn driver() -> Value {
    let mut d = json!({
        "name": "wiser",
        "version": env!("CARGO_PKG_VERSION"),
        "semanticVersion": env!("CARGO_PKG_VERSION"),
        "rules": rules(),
    });
    // The package's own address, once its manifest names one (no address
    // is made up here).
    let uri = [env!("CARGO_PKG_HOMEPAGE"), env!("CARGO_PKG_REPOSITORY")]
        .into_iter()
        .find(|u| !u.is_empty());
    if let Some(u) = uri {
        d["informationUri"] = json!(u);
    }
    d
}

/// A path as a URI reference: `/` separated, with the characters a URI
/// cannot hold percent-encoded.
fn uri_path(path: &Path) -> String {
    let text = path.to_string_lossy().replace('\\', "/");
    let mut out = String::new();
    for b in text.bytes() {
        match b {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'.'
            | b'_'
            | b'~'
            | b'/'
            | b'+'
            | b'='
            | b','
            | b'@' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Where a file is, as an `artifactLocation`: relative to the working
/// directory (against `%SRCROOT%`) when it is inside it, else absolute.
fn artifact(name: &str) -> Value {
    let path = PathBuf::from(name);
    let cwd = std::env::current_dir().ok();
    let relative = if path.is_absolute() {
        cwd.as_deref().and_then(|c| path.strip_prefix(c).ok())
    } else {
        Some(path.as_path())
    };
    match relative {
        Some(r) => {
            let r = r.strip_prefix("./").unwrap_or(r);
            json!({"uri": uri_path(r), "uriBaseId": SRCROOT})
        }
        None => json!({"uri": format!("file://{}", uri_path(&path))}),
    }
}

/// The `physicalLocation` of a span: its file and region.
fn physical(program: &Program, span: Span) -> Value {
    let map = program.sources.get(span.file);
    let start = map.line_col(span.lo);
    let end = if span.hi > span.lo {
        map.line_col(span.hi)
    } else {
        start
    };
    let end_column = if end.line == start.line {
        end.column.max(start.column)
    } else {
        end.column
    };
    json!({
        "artifactLocation": artifact(map.name()),
        "region": {
            "startLine": start.line,
            "startColumn": start.column,
            "endLine": end.line.max(start.line),
            "endColumn": end_column,
        },
    })
}

/// A trace as a SARIF code flow: one thread-flow location per step, with
/// the step's text as its message.
fn code_flow(program: &Program, trace: &Trace) -> Value {
    let mut locations = Vec::new();
    let mut depth = 0i64;
    let mut step = |s: &TraceStep| {
        let at = json!({
            "location": {
                "physicalLocation": physical(program, s.span()),
                "message": {"text": trace_render::step_text(program, s)},
            },
            "nestingLevel": depth.max(0),
            "kinds": kinds_of(s),
        });
        match s {
            TraceStep::Call { .. } => depth += 1,
            TraceStep::Return { .. } => depth -= 1,
            _ => {}
        }
        at
    };
    for s in &trace.head {
        locations.push(step(s));
    }
    if trace.elided > 0 {
        locations.push(json!({
            "location": {"message": {"text": format!("... {} steps not shown ...", trace.elided)}},
        }));
    }
    for s in &trace.tail {
        locations.push(step(s));
    }
    json!({
        "message": {"text": format!("the witness's run, {} steps", trace.len())},
        "threadFlows": [{"locations": locations}],
    })
}

/// SARIF's words for a step (`threadFlowLocation.kinds`, from the
/// well-known values of the specification, §3.38.8).
fn kinds_of(s: &TraceStep) -> Vec<&'static str> {
    let side = |b: bool| if b { "true" } else { "false" };
    match s {
        TraceStep::Assign { .. } | TraceStep::Store { .. } => vec!["value"],
        // An input value enters the program.
        TraceStep::Read { .. } => vec!["taint", "value"],
        TraceStep::Branch { taken, .. } => vec!["branch", side(*taken)],
        TraceStep::Assert { .. } => vec!["branch", "true"],
        TraceStep::Assume { holds, .. } => vec!["branch", side(*holds)],
        TraceStep::Call { .. } => vec!["call"],
        TraceStep::Return { .. } => vec!["return"],
        TraceStep::Thread { .. } => vec!["enter"],
        TraceStep::Load { .. } => vec!["value"],
        TraceStep::Error { .. } => vec!["danger"],
    }
}

/// One result: a bug with its witness, its place and its trace.
pub fn result(program: &Program, bug: &Bug, semantics: Options) -> Value {
    let trace = trace_render::witness_trace(program, &bug.input, semantics);
    // A bug inside a file that is not the program's (wiser's C library)
    // is placed at the program's innermost call that leads there, where
    // a code-scanning view can show it; the error's own place is related.
    let program_file = wiser_ir::FileId(0);
    let at = if bug.span.file == program_file {
        bug.span
    } else {
        bug.stack
            .iter()
            .map(|c| c.call_site)
            .find(|s| !s.is_dummy() && s.file == program_file)
            .unwrap_or(bug.span)
    };
    let mut r = json!({
        "ruleId": rule_id(bug.kind),
        "ruleIndex": rule_index(bug.kind),
        "level": "error",
        "message": {"text": render::bug_message(program, bug)},
        "locations": [{"physicalLocation": physical(program, at)}],
        "codeFlows": [code_flow(program, &trace)],
        "properties": {"witness": render::witness_line(program, bug)},
    });
    if at != bug.span {
        r["relatedLocations"] = json!([{
            "id": 0,
            "physicalLocation": physical(program, bug.span),
            "message": {"text": "where the error happens, inside the library"},
        }]);
    }
    let frames: Vec<Value> = bug
        .stack
        .iter()
        .filter(|c| !c.call_site.is_dummy())
        .map(|c| {
            json!({
                "location": {
                    "physicalLocation": physical(program, c.call_site),
                    "message": {"text": format!("call of {}", c.routine)},
                },
            })
        })
        .collect();
    if !frames.is_empty() {
        r["stacks"] = json!([{"message": {"text": "call stack at the error"}, "frames": frames}]);
    }
    r
}

/// The SARIF of `wiser run`: a result for the runtime error it stopped
/// at, if any, with the run's trace as its code flow.
pub fn run_sarif(
    file: &Path,
    program: &Program,
    run: &concrete::Run,
    trace: Option<&Trace>,
) -> Value {
    let mut results = Vec::new();
    let mut notes = Vec::new();
    match &run.outcome {
        Outcome::Error { kind, span, .. } => {
            let mut r = json!({
                "ruleId": rule_id(*kind),
                "ruleIndex": rule_index(*kind),
                "level": "error",
                "message": {"text": format!("{} at {} on the given input", program.describe(*kind), program.location(*span))},
                "locations": [{"physicalLocation": physical(program, *span)}],
            });
            if let Some(t) = trace {
                r["codeFlows"] = json!([code_flow(program, t)]);
            }
            results.push(r);
        }
        Outcome::Interrupted => notes.push(notification(
            "warning",
            &format!("interrupted after {} steps (Ctrl-C or SIGTERM)", run.steps),
        )),
        Outcome::OutOfSteps => notes.push(notification(
            "warning",
            &format!("stopped after {} steps (raise --max-steps)", run.steps),
        )),
        Outcome::AssumeFailed { span } => notes.push(notification(
            "note",
            &format!(
                "assume failed at {}: the input is outside the program's domain",
                program.location(*span)
            ),
        )),
        Outcome::Halted => {}
    }
    let outcome = match &run.outcome {
        Outcome::Halted => "halted",
        Outcome::Error { kind, .. } => kind.name(),
        Outcome::AssumeFailed { .. } => "assume_failed",
        Outcome::OutOfSteps => "out_of_steps",
        Outcome::Interrupted => "interrupted",
    };
    let properties = json!({
        "schema_version": json::SCHEMA_VERSION,
        "engine": "run",
        "outcome": outcome,
        "steps": run.steps,
    });
    document(file, results, notes, properties)
}

/// A notification of the invocation (`warning`, `error`, `note`).
pub fn notification(level: &str, text: &str) -> Value {
    json!({"level": level, "message": {"text": text}})
}

/// A whole SARIF document for a run of `wiser` over `program`: its
/// results, whether the run completed, and notifications (why a verdict
/// is `unknown`, internal errors).
pub fn document(
    file: &Path,
    results: Vec<Value>,
    notifications: Vec<Value>,
    properties: Value,
) -> Value {
    let mut invocation = json!({"executionSuccessful": true});
    if !notifications.is_empty() {
        invocation["toolExecutionNotifications"] = Value::Array(notifications);
    }
    wrap(file, results, invocation, properties)
}

fn wrap(file: &Path, results: Vec<Value>, invocation: Value, properties: Value) -> Value {
    let root = std::env::current_dir()
        .map(|c| format!("file://{}/", uri_path(&c).trim_end_matches('/')))
        .unwrap_or_else(|_| "file:///".into());
    json!({
        "$schema": SCHEMA,
        "version": VERSION,
        "runs": [{
            "tool": {"driver": driver()},
            "originalUriBaseIds": {SRCROOT: {"uri": root}},
            "artifacts": [{"location": artifact(&file.display().to_string())}],
            "invocations": [invocation],
            "results": results,
            "properties": properties,
        }],
    })
}

/// The SARIF of a `check` or `bmc` report: a result per bug; why an
/// `unknown` verdict is not sure, errors outside the property and internal
/// errors as notifications.
pub fn check_sarif(
    file: &Path,
    program: &Program,
    report: &Report,
    config: &Config,
    asked: Asked,
) -> Value {
    let results = report
        .bugs
        .iter()
        .map(|b| result(program, b, config.options))
        .collect();
    let mut notes = Vec::new();
    if report.verdict == Verdict::Unknown {
        let why: Vec<String> = report
            .incomplete
            .iter()
            .map(|&i| {
                format!(
                    "{} ({})",
                    i.name(),
                    render::incomplete_hint(i, config, &report.incomplete)
                )
            })
            .collect();
        let what = match crate::render_prove::proof(report) {
            Some(_) => "verdict unknown: no proof",
            None => "verdict unknown: no bug found, but the search was not exhaustive",
        };
        notes.push(notification(
            "warning",
            &format!("{what}: {}", why.join("; ")),
        ));
    }
    // A proof's invariants, each at its loop head (checked before `safe`).
    let proof = crate::render_prove::proof(report);
    for inv in proof.iter().flat_map(|p| &p.invariants) {
        let mut n = notification(
            "note",
            &format!(
                "loop invariant (in {}), checked independently: {}",
                inv.routine,
                crate::render_prove::invariant_text(inv)
            ),
        );
        n["locations"] = json!([{"physicalLocation": physical(program, inv.span)}]);
        notes.push(n);
    }
    for &(kind, span) in &report.outside_property {
        let mut n = notification(
            "warning",
            &format!(
                "outside the property ({}): {} reachable at {}",
                asked.property.name(),
                program.describe(kind),
                program.location(span)
            ),
        );
        n["locations"] = json!([{"physicalLocation": physical(program, span)}]);
        notes.push(n);
    }
    for e in &report.internal_errors {
        notes.push(notification("error", e));
    }
    let mut properties = json!({
        "schema_version": json::SCHEMA_VERSION,
        "engine": report.extra.engine(),
        "verdict": report.verdict.name(),
        "property": asked.property.name(),
        "incomplete": report.incomplete.iter().map(|i| i.name()).collect::<Vec<_>>(),
    });
    if let Some(p) = proof {
        let (invariants, proof) = crate::render_prove::prove_json(program, p);
        properties["invariants"] = invariants;
        properties["proof"] = proof;
    }
    document(file, results, notes, properties)
}

/// The SARIF of the bugs `concolic` or `fuzz` found (neither says
/// `safe`: no bug is no verdict).
pub fn bugs_sarif(file: &Path, program: &Program, report: &Report, semantics: Options) -> Value {
    let results = report
        .bugs
        .iter()
        .map(|b| result(program, b, semantics))
        .collect();
    let engine = report.extra.engine();
    let properties = json!({"schema_version": json::SCHEMA_VERSION, "engine": engine});
    document(file, results, Vec::new(), properties)
}

/// The SARIF of an SV-COMP task whose program is outside the C subset:
/// the verdict `unknown`, with the front end's reason.
pub fn unsupported_sarif(file: &Path, message: &str) -> Value {
    document(
        file,
        Vec::new(),
        vec![notification(
            "warning",
            &format!("verdict unknown: the task's program is outside the C subset: {message}"),
        )],
        json!({"schema_version": json::SCHEMA_VERSION, "verdict": "unknown", "incomplete": ["unsupported"]}),
    )
}

/// The SARIF of a static error: a run that did not execute successfully,
/// with its diagnostic as an error notification at its place (its kind
/// in the notification's property bag).
pub fn error_sarif(file: &Path, d: &Diag) -> Value {
    let mut text = match &d.help {
        Some(h) => format!("{} (help: {h})", d.message),
        None => d.message.clone(),
    };
    for note in &d.notes {
        text.push_str(&format!(" (note: {note})"));
    }
    let mut note = notification("error", &text);
    note["properties"] = json!({"kind": d.kind});
    if let (Some(f), Some(line), Some(column)) = (&d.file, d.line, d.column) {
        note["locations"] = json!([{
            "physicalLocation": {
                "artifactLocation": artifact(f),
                "region": {"startLine": line, "startColumn": column},
            },
        }]);
    }
    let notes = [note];
    let invocation = json!({
        "executionSuccessful": false,
        "toolExecutionNotifications": notes,
    });
    wrap(
        file,
        Vec::new(),
        invocation,
        json!({"verdict": "error", "schema_version": json::SCHEMA_VERSION}),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_uri_references() {
        assert_eq!(
            uri_path(Path::new("examples/a b#1.imp")),
            "examples/a%20b%231.imp"
        );
        assert_eq!(artifact("./x.c")["uri"], "x.c");
        assert_eq!(artifact("x.c")["uriBaseId"], SRCROOT);
        assert_eq!(
            artifact("/nowhere/near/x.c")["uri"],
            "file:///nowhere/near/x.c"
        );
    }

    #[test]
    fn every_kind_has_its_rule_at_its_index() {
        let rules = rules();
        for k in ErrorKind::ALL {
            assert_eq!(rules[rule_index(k)]["id"], rule_id(k));
        }
    }
}
