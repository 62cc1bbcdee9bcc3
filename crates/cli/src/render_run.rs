//! The result of a concrete run (`wiser run`, a test file's replay) for
//! people and as JSON: how it ended, and the program's values, each as
//! its type has it (floats as decimals).

use crate::load::Program;
use serde_json::{json, Value};
use std::fmt::Write;
use wiser_semantics::concrete::{self, Outcome};

fn store_lines(program: &Program, run: &concrete::Run) -> Vec<(String, String)> {
    scope_lines(program, run, &program.ir.main, run.final_store(&program.ir))
}

/// The values where a run stopped early (a runtime error, an interrupt):
/// the running routine's variables, then the globals and arrays.
fn stopped_lines(program: &Program, run: &concrete::Run) -> (String, Vec<(String, String)>) {
    let (routine, values) = run.current_store(&program.ir);
    let code = program
        .ir
        .procs
        .iter()
        .find(|p| p.name == routine)
        .unwrap_or(&program.ir.main);
    (routine.to_string(), scope_lines(program, run, code, values))
}

/// The lines of `values` (the variables of `routine`, then the globals
/// and arrays), each value as its type has it (floats as decimals).
fn scope_lines(
    program: &Program,
    run: &concrete::Run,
    routine: &wiser_ir::Routine,
    values: Vec<(std::sync::Arc<str>, wiser_num::Int)>,
) -> Vec<(String, String)> {
    let ir = &program.ir;
    // Each value's type, by position: `values` are the routine's slots
    // that are not temporaries, in order (names can repeat: a shadowed
    // C local), and the globals are the IR's, in order. A cell's value,
    // whose type the IR does not record, shows as its integer.
    let local_tys = routine
        .slots
        .iter()
        .filter(|s| !s.is_temporary())
        .map(|s| s.refers.is_none().then_some(s.ty));
    let global_tys = ir
        .globals
        .iter()
        .map(|g| g.refers.is_none().then_some(g.ty));
    let shown = |ty: Option<wiser_ir::ScalarTy>, v: &wiser_num::Int| match ty {
        Some(t) => t.show(v),
        None => v.to_string(),
    };
    // Locks (`C.$lock`), C's string literals (`$string0`) and the other
    // variables and arrays the front ends made are theirs.
    let hidden = |name: &str| name.contains('$');
    let locals = values
        .into_iter()
        .zip(local_tys)
        .map(|((n, v), ty)| (shown(ty, &v), n));
    let globals = run
        .final_globals(ir)
        .into_iter()
        .zip(global_tys)
        .map(|((n, v), ty)| (shown(ty, &v), n));
    let mut lines: Vec<(String, String)> = locals
        .chain(globals)
        .filter(|(_, n)| !hidden(n))
        .map(|(v, n)| (n.to_string(), v))
        .collect();
    for (decl, (name, a)) in ir.arrays.iter().zip(run.final_arrays(ir)) {
        if hidden(&name) {
            continue;
        }
        let elem = Some(decl.ty.elem);
        let entries: Vec<String> = a
            .elems
            .iter()
            .map(|(i, v)| format!("[{i}] = {}", shown(elem, v)))
            .collect();
        let text = if entries.is_empty() {
            format!("all {}", shown(elem, &a.default))
        } else {
            format!("{}, others {}", entries.join(", "), shown(elem, &a.default))
        };
        lines.push((name.to_string(), text));
    }
    lines
}

/// The text result of a concrete run.
pub fn run_text(program: &Program, run: &concrete::Run, max_steps: u64) -> String {
    let mut out = String::new();
    match &run.outcome {
        Outcome::Halted => {
            for (n, v) in store_lines(program, run) {
                let _ = writeln!(out, "{n} = {v}");
            }
        }
        Outcome::Error { kind, span, stack } => {
            let lc = program.line_col(*span);
            let _ = writeln!(
                out,
                "error: {} at {}",
                program.describe(*kind),
                program.location(*span)
            );
            let _ = writeln!(out, "  {:>4} | {}", lc.line, program.line_text(*span));
            if let Some(s) = crate::render::stack_text(program, stack) {
                let _ = writeln!(out, "  call stack: {s}");
            }
            let (routine, lines) = stopped_lines(program, run);
            let _ = writeln!(out, "  values at the error (in {routine}):");
            for (n, v) in lines {
                let _ = writeln!(out, "    {n} = {v}");
            }
        }
        Outcome::Interrupted => {
            let (routine, lines) = stopped_lines(program, run);
            let _ = writeln!(
                out,
                "interrupted after {} steps (Ctrl-C or SIGTERM); values so far (in {routine}):",
                run.steps
            );
            for (n, v) in lines {
                let _ = writeln!(out, "    {n} = {v}");
            }
        }
        Outcome::AssumeFailed { span } => {
            let _ = writeln!(
                out,
                "assume failed at {}: this input is outside the program's domain",
                program.location(*span)
            );
        }
        Outcome::OutOfSteps => {
            let _ = writeln!(out, "stopped after {max_steps} steps (raise --max-steps)");
        }
    }
    out
}

/// The JSON result of a concrete run.
pub fn run_json(program: &Program, run: &concrete::Run) -> Value {
    let (outcome, at) = match &run.outcome {
        Outcome::Halted => ("halted".to_string(), None),
        Outcome::Error { kind, span, .. } => (kind.name().to_string(), Some(*span)),
        Outcome::AssumeFailed { span } => ("assume_failed".into(), Some(*span)),
        Outcome::OutOfSteps => ("out_of_steps".into(), None),
        Outcome::Interrupted => ("interrupted".into(), None),
    };
    let at = at.map(|s| program.line_col(s));
    let store: serde_json::Map<String, Value> = run
        .final_store(&program.ir)
        .into_iter()
        .map(|(n, v)| (n.to_string(), json!(v)))
        .collect();
    json!({
        "outcome": outcome,
        "line": at.map(|a| a.line),
        "column": at.map(|a| a.column),
        "store": store,
        "steps": run.steps,
        "output": String::from_utf8_lossy(&run.output.stdout),
        "output_stderr": String::from_utf8_lossy(&run.output.stderr),
        "output_truncated": run.output.truncated,
    })
}
