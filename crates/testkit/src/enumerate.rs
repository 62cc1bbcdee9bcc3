//! Running every input of a specification on the concrete interpreter.
//!
//! The inputs are the points of the product of the scalar and cell
//! domains; for each, every sequence of read values the run asks for (a
//! run that reads past the values it was given is run again once per value
//! of that read's domain, which depends on the read's type). Every run
//! uses the specification's semantic options.

use crate::domain::to_int;
use crate::spec::Spec;
use std::fmt;
use std::sync::Arc;
use wiser_ir::{Ir, Span};
use wiser_num::Int;
use wiser_semantics::concrete::{self, Outcome, Run};
use wiser_semantics::{ArrayInput, CallSite, ErrorKind, Input};

/// Why a program cannot be enumerated (a generator or specification
/// problem, never an engine problem).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Invalid {
    /// It does not compile.
    Compile(String),
    /// A header line is malformed.
    Spec(String),
    /// An input of the program is not in the specification.
    UnboundedInput(String),
    /// A concrete run ran out of steps.
    OutOfSteps(String),
    /// More runs than the limit.
    TooManyRuns,
    /// The program has no C rendering (C mode of the differential tester).
    NoC(String),
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Invalid::Compile(m) => write!(f, "does not compile: {m}"),
            Invalid::Spec(m) => write!(f, "bad specification: {m}"),
            Invalid::UnboundedInput(v) => write!(f, "input `{v}` is not in the specification"),
            Invalid::OutOfSteps(i) => write!(f, "input {i} runs out of steps"),
            Invalid::TooManyRuns => f.write_str("too many inputs to enumerate"),
            Invalid::NoC(why) => write!(f, "no C rendering: {why}"),
        }
    }
}

/// Compiles `src` and checks that the specification bounds each of its
/// inputs.
pub fn compile(src: &str, spec: &Spec) -> Result<Ir, Invalid> {
    let ir = wiser_imp::compile(src).map_err(|d| {
        let at = wiser_imp::SourceMap::new("generated.imp", src).render(&d);
        Invalid::Compile(at)
    })?;
    for input in &ir.inputs {
        if spec.input(&input.name).is_none() {
            return Err(Invalid::UnboundedInput(input.name.to_string()));
        }
    }
    Ok(ir)
}

/// Where an error happens: kind, place, call stack (innermost first).
pub type Loc = (ErrorKind, Span, Vec<(Arc<str>, Span)>);

/// The location of an error.
pub fn loc(kind: ErrorKind, span: Span, stack: &[CallSite]) -> Loc {
    let stack = stack
        .iter()
        .map(|c| (c.routine.clone(), c.call_site))
        .collect();
    (kind, span, stack)
}

/// Shows a location as `kind@lo..hi` plus the call sites.
pub fn show_loc(l: &Loc) -> String {
    let mut s = format!("{}@{}..{}", l.0.name(), l.1.lo, l.1.hi);
    for (routine, site) in &l.2 {
        if site.hi > 0 {
            s.push_str(&format!(" in {routine} called at {}..{}", site.lo, site.hi));
        }
    }
    s
}

/// Shows an input as `{x=1 a[0]=2 reads=[0,1]}`.
pub fn show_input(i: &Input) -> String {
    let mut parts: Vec<String> = i.vars.iter().map(|(n, v)| format!("{n}={v}")).collect();
    for (a, arr) in &i.arrays {
        for (k, v) in &arr.entries {
            parts.push(format!("{a}[{k}]={v}"));
        }
        if !arr.default.is_zero() {
            parts.push(format!("{a}[*]={}", arr.default));
        }
    }
    if !i.reads.is_empty() {
        let reads: Vec<String> = i.reads.iter().map(|r| r.to_string()).collect();
        parts.push(format!("reads=[{}]", reads.join(",")));
    }
    format!("{{{}}}", parts.join(" "))
}

/// Budgets of one enumeration.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Most runs (points times read sequences).
    pub max_runs: u64,
    /// Steps of one run.
    pub max_steps: u64,
}

/// Runs every input of `spec` on `ir` and calls `visit` with each complete
/// run (one that did not ask for more reads than it was given). Returns
/// the number of runs. A run out of steps, or more runs than the budget,
/// is an error.
pub fn enumerate(
    ir: &Ir,
    spec: &Spec,
    budget: Budget,
    mut visit: impl FnMut(&Input, &Run),
) -> Result<u64, Invalid> {
    let inputs: Vec<_> = spec
        .inputs
        .iter()
        .filter(|(n, _)| ir.inputs.iter().any(|i| i.name == *n))
        .collect();
    let cells: Vec<_> = spec
        .cells
        .iter()
        .filter(|(a, ..)| ir.arrays.iter().any(|d| d.name == *a))
        .collect();
    // Each dimension is a domain; the odometer walks their product.
    let dims: Vec<Vec<i128>> = inputs
        .iter()
        .map(|(_, d)| d)
        .chain(cells.iter().map(|(_, _, d)| d))
        .map(|d| d.values().collect())
        .collect();
    if dims.iter().any(|d| d.is_empty()) {
        return Ok(0);
    }
    let options = spec.options();
    let mut point = vec![0usize; dims.len()];
    let mut runs = 0u64;
    loop {
        let value = |k: usize| to_int(dims[k][point[k]]);
        let vars: Vec<(Arc<str>, Int)> = inputs
            .iter()
            .enumerate()
            .map(|(k, (n, _))| (n.clone(), value(k)))
            .collect();
        let mut arrays: Vec<(Arc<str>, ArrayInput)> = Vec::new();
        for (k, (a, i, _)) in cells.iter().enumerate() {
            let entry = (Int::from(*i), value(inputs.len() + k));
            match arrays.iter_mut().find(|(n, _)| n == a) {
                Some((_, arr)) => arr.entries.push(entry),
                None => arrays.push((
                    a.clone(),
                    ArrayInput {
                        default: Int::ZERO,
                        entries: vec![entry],
                    },
                )),
            }
        }
        let mut pending: Vec<Vec<Int>> = vec![Vec::new()];
        while let Some(reads) = pending.pop() {
            runs += 1;
            if runs > budget.max_runs {
                return Err(Invalid::TooManyRuns);
            }
            let input = Input {
                vars: vars.clone(),
                reads,
                arrays: arrays.clone(),
                schedule: Vec::new(),
            };
            let run = concrete::run_with(ir, &input, budget.max_steps, options);
            if run.missing_reads > 0 {
                // The run wanted one more read: try each value of its type.
                runs -= 1;
                let ty = run.read_types[input.reads.len()];
                let values: Vec<i128> = spec.read_domain(ty).values().collect();
                for v in values.into_iter().rev() {
                    let mut r = input.reads.clone();
                    r.push(to_int(v));
                    pending.push(r);
                }
                continue;
            }
            if run.outcome == Outcome::OutOfSteps {
                return Err(Invalid::OutOfSteps(show_input(&input)));
            }
            visit(&input, &run);
        }
        // The next point.
        let mut k = 0;
        loop {
            if k == point.len() {
                return Ok(runs);
            }
            if point[k] + 1 < dims[k].len() {
                point[k] += 1;
                break;
            }
            point[k] = 0;
            k += 1;
        }
    }
}
