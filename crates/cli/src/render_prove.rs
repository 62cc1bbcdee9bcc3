//! What `wiser prove` adds to a report: the invariants of a proof (each
//! checked independently before the report says `safe`), or why there is
//! no proof.

use crate::load::Program;
use serde_json::{json, Value};
use std::fmt::Write;
use wiser_engine::readable::{path_text, Names};
use wiser_engine::{Extra, ProofMethod, ProveExtra, Report};

/// The prover's part of a report, if the report is the prover's.
pub(crate) fn proof(report: &Report) -> Option<&ProveExtra> {
    match &report.extra {
        Extra::Prove(p) => Some(p),
        _ => None,
    }
}

/// An invariant in the program's variables, simplified for people.
pub(crate) fn invariant_text(inv: &wiser_engine::Invariant) -> String {
    let text = path_text(std::slice::from_ref(&inv.formula), &Names::PLAIN);
    match &inv.for_every {
        Some(k) => format!("for every {k}: {text}"),
        None => text,
    }
}

/// The method of a proof, the invariants, one per loop head, as
/// `invariant at FILE:L:C: …` (with the line), or why there is no proof.
pub(crate) fn prove_text(out: &mut String, program: &Program, p: &ProveExtra) {
    if let Some(method) = p.method {
        let _ = writeln!(out, "proof method: {}", method.name());
    }
    for inv in &p.invariants {
        let lc = program.line_col(inv.span);
        let _ = writeln!(
            out,
            "invariant at {} (in {}): {}",
            program.location(inv.span),
            inv.routine,
            invariant_text(inv)
        );
        let _ = writeln!(out, "  {:>4} | {}", lc.line, program.line_text(inv.span));
    }
    if let Some(reason) = &p.reason {
        let _ = writeln!(out, "no proof: {reason}");
    }
}

/// The words of a `safe` verdict's line.
pub(crate) fn safe_words(p: &ProveExtra) -> String {
    let n = p.invariants.len();
    let s = if n == 1 { "" } else { "s" };
    match (p.method, p.k) {
        // The invariants are the facts that strengthen the step case:
        // true, but maybe not enough alone.
        (Some(ProofMethod::KInduction), Some(k)) => format!(
            "proved by k-induction at k = {k}, strengthened by {n} loop invariant{s}, \
             checked independently"
        ),
        _ => format!("proved: {n} loop invariant{s}, checked independently"),
    }
}

/// The prover's JSON fields: `invariants` (location and formula) and
/// `proof` (the encoding's size, the solver's and the check's time, the
/// method and k of a proof, and the reason for an `unknown`).
pub(crate) fn prove_json(program: &Program, p: &ProveExtra) -> (Value, Value) {
    let invariants: Vec<Value> = p
        .invariants
        .iter()
        .map(|inv| {
            let lc = program.line_col(inv.span);
            json!({
                "file": program.sources.get(inv.span.file).name(),
                "line": lc.line,
                "column": lc.column,
                "routine": &*inv.routine,
                "invariant": invariant_text(inv),
            })
        })
        .collect();
    let proof = json!({
        "relations": p.relations,
        "clauses": p.clauses,
        "solve_ms": p.solve_time.as_millis() as u64,
        "check_ms": p.check_time.as_millis() as u64,
        "reason": p.reason,
        "method": p.method.map(ProofMethod::name),
        "k": p.k,
    });
    (Value::Array(invariants), proof)
}
