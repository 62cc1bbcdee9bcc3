//! A test's outcome in the test format's terms: from a concrete run or an
//! error, and for people; and the program hash a test records.

use super::json::{self, Frame, Outcome};
use crate::load::Program;
use crate::render;
use wiser_ir::Span;
use wiser_semantics::concrete;
use wiser_semantics::{CallSite, ErrorKind};

/// The outcome of an error at `span` with call stack `stack`, in the
/// test format's terms (the stack as reports give it: the frames the
/// program wrote, innermost first).
pub fn error_outcome(
    program: &Program,
    kind: ErrorKind,
    span: Span,
    stack: &[CallSite],
) -> Outcome {
    let lc = program.line_col(span);
    let frames = render::user_stack(program, stack);
    let call_stack = frames
        .iter()
        .enumerate()
        .map(|(i, c)| {
            // The outermost frame was not called by the program.
            let called = !c.call_site.is_dummy() && i + 1 < frames.len();
            let at = called.then(|| program.line_col(c.call_site));
            Frame {
                routine: c.routine.to_string(),
                line: at.map(|a| a.line),
                column: at.map(|a| a.column),
            }
        })
        .collect();
    Outcome::Error {
        kind: kind.name().to_string(),
        line: lc.line,
        column: lc.column,
        call_stack,
    }
}

/// The outcome of a concrete run.
pub fn run_outcome(program: &Program, outcome: &concrete::Outcome) -> Outcome {
    match outcome {
        concrete::Outcome::Halted => Outcome::Halted,
        concrete::Outcome::Error { kind, span, stack } => {
            error_outcome(program, *kind, *span, stack)
        }
        concrete::Outcome::AssumeFailed { span } => {
            let lc = program.line_col(*span);
            Outcome::AssumeFailed {
                line: lc.line,
                column: lc.column,
            }
        }
        // Replays run without a stop switch: an interrupted run cannot
        // happen here, and would mean the same as running out of steps.
        concrete::Outcome::OutOfSteps | concrete::Outcome::Interrupted => Outcome::OutOfSteps,
    }
}

/// An outcome for people: `assertion failed at 21:1 (in f called at 7:3)`.
pub fn describe(o: &Outcome) -> String {
    match o {
        Outcome::Error {
            kind,
            line,
            column,
            call_stack,
        } => {
            let what = ErrorKind::ALL
                .iter()
                .find(|k| k.name() == kind)
                .map_or(kind.as_str(), |k| k.describe());
            let stack: Vec<String> = call_stack
                .iter()
                .map(|f| match (f.line, f.column) {
                    (Some(l), Some(c)) => format!("{} (called at {l}:{c})", f.routine),
                    _ => f.routine.clone(),
                })
                .collect();
            if stack.len() > 1 {
                format!(
                    "{what} at {line}:{column}, call stack {}",
                    stack.join(" <- ")
                )
            } else {
                format!("{what} at {line}:{column}")
            }
        }
        Outcome::Halted => "normal end".into(),
        Outcome::AssumeFailed { line, column } => format!("assume failed at {line}:{column}"),
        Outcome::OutOfSteps => "step limit reached".into(),
    }
}

/// SHA-256 of the program's source file (empty if it cannot be read,
/// which cannot happen after it was loaded, short of a race).
pub fn program_hash(program: &Program) -> String {
    std::fs::read(&program.file)
        .map(|b| json::sha256_hex(&b))
        .unwrap_or_default()
}
