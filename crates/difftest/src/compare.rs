//! The comparison: every input of a program's specification is run on the
//! concrete interpreter, and `wiser_engine::check --all` must agree.
//!
//! * the verdict is `bug` exactly when some input fails, `safe` otherwise;
//! * when the search was exhaustive, the reported bug locations (kind,
//!   place, call stack) are exactly those some input reaches;
//! * every witness replays, on the concrete interpreter run here, to the
//!   error it is reported for, and stays inside the specification;
//! * a verdict `unknown` (or any incomplete search) is counted apart: the
//!   generated programs are bounded, so it should not happen.

use crate::program::Spec;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};
use wiser_engine::{check, Config, Incomplete, Strategy, Verdict};
use wiser_num::Int;
use wiser_semantics::concrete::{self, Outcome};
use wiser_semantics::{ArrayInput, CallSite, ErrorKind, Input, Ir};
use wiser_syntax::Span;

/// Budgets of one comparison.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Most concrete runs (inputs times read sequences) to enumerate.
    pub max_runs: u64,
    /// Steps of one concrete run.
    pub max_steps: u64,
    /// States of the symbolic search.
    pub max_states: u64,
    /// Wall time of the symbolic search.
    pub timeout: Duration,
    /// Time of one solver query.
    pub solver_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_runs: 200_000,
            max_steps: 200_000,
            max_states: 500_000,
            timeout: Duration::from_secs(30),
            solver_timeout: Duration::from_secs(5),
        }
    }
}

/// Where an error happens: kind, place, call stack (innermost first).
pub type Loc = (ErrorKind, Span, Vec<(Arc<str>, Span)>);

fn loc(kind: ErrorKind, span: Span, stack: &[CallSite]) -> Loc {
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

/// How often a program's bug is reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// No input fails.
    Safe,
    /// Some input fails, but fewer than 1% of the runs.
    Rare,
    /// At least 1% of the runs fail.
    Common,
}

/// What kind of disagreement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DisKind {
    /// `bug` without a failing input, or `safe` with one.
    Verdict,
    /// An exhaustive search missed a location some input fails at.
    MissedBug,
    /// A reported location no enumerated input reaches.
    SpuriousBug,
    /// A witness that does not replay to its error.
    Witness,
    /// The engine reported an internal error.
    Internal,
}

impl DisKind {
    /// A short name.
    pub fn name(self) -> &'static str {
        match self {
            DisKind::Verdict => "verdict",
            DisKind::MissedBug => "missed-bug",
            DisKind::SpuriousBug => "spurious-bug",
            DisKind::Witness => "witness",
            DisKind::Internal => "internal-error",
        }
    }
}

/// One disagreement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// Its kind.
    pub kind: DisKind,
    /// What differs.
    pub detail: String,
}

impl fmt::Display for Disagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.detail)
    }
}

/// Why a program could not be compared (a generator or specification
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
    /// More runs than [`Limits::max_runs`].
    TooManyRuns,
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Invalid::Compile(m) => write!(f, "does not compile: {m}"),
            Invalid::Spec(m) => write!(f, "bad specification: {m}"),
            Invalid::UnboundedInput(v) => write!(f, "input `{v}` is not in the specification"),
            Invalid::OutOfSteps(i) => write!(f, "input {i} runs out of steps"),
            Invalid::TooManyRuns => f.write_str("too many inputs to enumerate"),
        }
    }
}

/// The result of comparing one program.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// Concrete runs.
    pub runs: u64,
    /// Runs that ended in an error.
    pub failing: u64,
    /// Safe, rare or common bug.
    pub class: Class,
    /// The engine's verdict.
    pub verdict: Verdict,
    /// Why the engine's search was not exhaustive (empty if it was).
    pub incomplete: Vec<Incomplete>,
    /// The disagreements (empty when the two agree).
    pub disagreements: Vec<Disagreement>,
    /// States the engine took.
    pub states: u64,
    /// Time spent enumerating.
    pub enum_time: Duration,
    /// Time spent in `check`.
    pub engine_time: Duration,
}

impl Comparison {
    /// Was the engine's answer `unknown` or its search incomplete?
    pub fn unknown(&self) -> bool {
        self.verdict == Verdict::Unknown || !self.incomplete.is_empty()
    }

    /// The kinds of the disagreements.
    pub fn kinds(&self) -> BTreeSet<DisKind> {
        self.disagreements.iter().map(|d| d.kind).collect()
    }
}

/// The concrete side: every input and how it ended.
struct Enumeration {
    runs: u64,
    failing: u64,
    /// Each failing location with the first input that reaches it.
    locations: BTreeMap<Loc, Input>,
}

fn show_input(i: &Input) -> String {
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

/// Runs every input of `spec` (and every sequence of reads in its range
/// that the runs ask for).
fn enumerate(ir: &Ir, spec: &Spec, limits: &Limits) -> Result<Enumeration, Invalid> {
    let inputs: Vec<&(Arc<str>, i64, i64)> = spec
        .inputs
        .iter()
        .filter(|(n, _, _)| ir.inputs.iter().any(|(_, m)| m == n))
        .collect();
    let cells: Vec<&(Arc<str>, i64, i64, i64)> = spec
        .cells
        .iter()
        .filter(|(a, ..)| ir.arrays.contains(a))
        .collect();
    // Each dimension is a range; the odometer walks their product.
    let ranges: Vec<(i64, i64)> = inputs
        .iter()
        .map(|&&(_, lo, hi)| (lo, hi))
        .chain(cells.iter().map(|&&(_, _, lo, hi)| (lo, hi)))
        .collect();
    if ranges.iter().any(|&(lo, hi)| lo > hi) {
        return Ok(Enumeration {
            runs: 0,
            failing: 0,
            locations: BTreeMap::new(),
        });
    }
    let mut point: Vec<i64> = ranges.iter().map(|r| r.0).collect();
    let mut e = Enumeration {
        runs: 0,
        failing: 0,
        locations: BTreeMap::new(),
    };
    loop {
        let vars = inputs
            .iter()
            .zip(&point)
            .map(|(&(n, _, _), &v)| (n.clone(), Int::from(v)))
            .collect();
        let mut arrays: Vec<(Arc<str>, ArrayInput)> = Vec::new();
        for (&(a, i, _, _), &v) in cells.iter().zip(&point[inputs.len()..]) {
            let entry = (Int::from(*i), Int::from(v));
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
            e.runs += 1;
            if e.runs > limits.max_runs {
                return Err(Invalid::TooManyRuns);
            }
            let input = Input {
                vars: Vec::clone(&vars),
                reads,
                arrays: arrays.clone(),
            };
            let run = concrete::run(ir, &input, limits.max_steps);
            if run.missing_reads > 0 {
                // The run wanted one more read: try each value.
                e.runs -= 1;
                for v in (spec.reads.0..=spec.reads.1).rev() {
                    let mut r = input.reads.clone();
                    r.push(Int::from(v));
                    pending.push(r);
                }
                continue;
            }
            match run.outcome {
                Outcome::Error { kind, span, stack } => {
                    e.failing += 1;
                    e.locations.entry(loc(kind, span, &stack)).or_insert(input);
                }
                Outcome::OutOfSteps => return Err(Invalid::OutOfSteps(show_input(&input))),
                Outcome::Halted | Outcome::AssumeFailed { .. } => {}
            }
        }
        // The next point.
        let mut k = 0;
        loop {
            if k == point.len() {
                return Ok(e);
            }
            if point[k] < ranges[k].1 {
                point[k] += 1;
                break;
            }
            point[k] = ranges[k].0;
            k += 1;
        }
    }
}

/// Is `input` inside the specification (scalars, cells, reads)?
fn inside(input: &Input, spec: &Spec) -> bool {
    let vars_ok = input.vars.iter().all(|(n, v)| {
        spec.inputs
            .iter()
            .find(|(m, _, _)| m == n)
            .is_none_or(|&(_, lo, hi)| *v >= Int::from(lo) && *v <= Int::from(hi))
    });
    let reads_ok = input
        .reads
        .iter()
        .all(|r| *r >= Int::from(spec.reads.0) && *r <= Int::from(spec.reads.1));
    vars_ok && reads_ok
}

/// Compares the engine with enumeration on a program text whose
/// specification is `spec`.
pub fn compare(
    src: &str,
    spec: &Spec,
    strategy: Strategy,
    limits: &Limits,
) -> Result<Comparison, Invalid> {
    let ir = wiser_semantics::compile(src).map_err(|d| Invalid::Compile(d.message.clone()))?;
    for (_, name) in &ir.inputs {
        if !spec.inputs.iter().any(|(n, _, _)| n == name) {
            return Err(Invalid::UnboundedInput(name.to_string()));
        }
    }
    let t0 = Instant::now();
    let en = enumerate(&ir, spec, limits)?;
    let enum_time = t0.elapsed();

    let t1 = Instant::now();
    let config = Config::default()
        .with_strategy(strategy)
        .with_all_bugs(true)
        .with_max_states(limits.max_states)
        .with_timeout(Some(limits.timeout))
        .with_solver_timeout(Some(limits.solver_timeout));
    let report = check(&ir, &config);
    let engine_time = t1.elapsed();

    let mut dis = Vec::new();
    for msg in &report.internal_errors {
        dis.push(Disagreement {
            kind: DisKind::Internal,
            detail: msg.clone(),
        });
    }
    let mut reported = BTreeSet::new();
    for bug in &report.bugs {
        let at = loc(bug.kind, bug.span, &bug.stack);
        let run = concrete::run(&ir, &bug.input, limits.max_steps);
        match &run.outcome {
            Outcome::Error { kind, span, stack } if loc(*kind, *span, stack) == at => {}
            other => dis.push(Disagreement {
                kind: DisKind::Witness,
                detail: format!(
                    "the witness {} for {} replays as {other:?}",
                    show_input(&bug.input),
                    show_loc(&at)
                ),
            }),
        }
        if !inside(&bug.input, spec) {
            dis.push(Disagreement {
                kind: DisKind::Witness,
                detail: format!(
                    "the witness {} for {} is outside the specification",
                    show_input(&bug.input),
                    show_loc(&at)
                ),
            });
        }
        if !en.locations.contains_key(&at) {
            dis.push(Disagreement {
                kind: DisKind::SpuriousBug,
                detail: format!(
                    "reported {} (witness {}), which no enumerated input reaches",
                    show_loc(&at),
                    show_input(&bug.input)
                ),
            });
        }
        reported.insert(at);
    }
    let exhaustive = report.incomplete.is_empty();
    if exhaustive {
        let expected = if en.failing > 0 {
            Verdict::Bug
        } else {
            Verdict::Safe
        };
        if report.verdict != expected {
            let example = en
                .locations
                .iter()
                .next()
                .map(|(l, i)| format!("; e.g. {} fails at {}", show_input(i), show_loc(l)))
                .unwrap_or_default();
            dis.push(Disagreement {
                kind: DisKind::Verdict,
                detail: format!(
                    "verdict {:?}, but {} of {} runs fail{example}",
                    report.verdict, en.failing, en.runs
                ),
            });
        }
        for (l, input) in &en.locations {
            if !reported.contains(l) {
                dis.push(Disagreement {
                    kind: DisKind::MissedBug,
                    detail: format!(
                        "the exhaustive search did not report {}, reached by {}",
                        show_loc(l),
                        show_input(input)
                    ),
                });
            }
        }
    }
    let class = if en.failing == 0 {
        Class::Safe
    } else if en.failing * 100 < en.runs {
        Class::Rare
    } else {
        Class::Common
    };
    Ok(Comparison {
        runs: en.runs,
        failing: en.failing,
        class,
        verdict: report.verdict,
        incomplete: report.incomplete.clone(),
        disagreements: dis,
        states: report.stats.states,
        enum_time,
        engine_time,
    })
}

/// Compares a source text that carries its specification header.
pub fn compare_text(
    text: &str,
    strategy: Strategy,
    limits: &Limits,
) -> Result<Comparison, Invalid> {
    let spec = Spec::parse(text).map_err(Invalid::Spec)?;
    compare(text, &spec, strategy, limits)
}
