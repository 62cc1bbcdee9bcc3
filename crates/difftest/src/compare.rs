//! The comparison: every input of a program's specification is run on the
//! concrete interpreter (`wiser_testkit::enumerate`), and
//! `wiser_engine::symex` (every bug), run with the specification's semantic
//! options, must agree.
//!
//! * the verdict is `bug` exactly when some input fails, `safe` otherwise;
//! * when the search was exhaustive, the reported bug locations (kind,
//!   place, call stack) are exactly those some input reaches;
//! * every witness replays, on the concrete interpreter run here with the
//!   same options, to the error it is reported for, and stays inside the
//!   specification;
//! * a verdict `unknown` (or any incomplete search) is counted apart: the
//!   generated programs are bounded, so it should not happen.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::time::{Duration, Instant};
use wiser_engine::{symex, Bug, Config, Incomplete, MergeMode, Report, Strategy, Verdict};
use wiser_semantics::concrete::{self, Outcome};
use wiser_semantics::{ErrorKind, Input};
use wiser_testkit::{enumerate, loc, show_input, show_loc, Budget, Invalid, Loc, Spec};

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
    /// Interpreter states the enumeration of a thread program's schedules
    /// may take; a program that needs more is not compared (it counts as
    /// unknown).
    pub max_schedule_states: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_runs: 200_000,
            max_steps: 200_000,
            max_states: 500_000,
            timeout: Duration::from_secs(30),
            solver_timeout: Duration::from_secs(5),
            max_schedule_states: 4_000_000,
        }
    }
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

impl Class {
    /// The class of a program of which `failing` of `runs` runs fail.
    pub fn of(runs: u64, failing: u64) -> Class {
        if failing == 0 {
            Class::Safe
        } else if failing * 100 < runs {
            Class::Rare
        } else {
            Class::Common
        }
    }
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
    /// C mode: a run of the IMP program and the same run of its C
    /// rendering end differently (a front end or the rendering is wrong).
    Meaning,
    /// C mode: the C front end rejects the C rendering.
    CFrontEnd,
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
            DisKind::Meaning => "meaning",
            DisKind::CFrontEnd => "c-front-end",
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

/// The result of comparing one program.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// Concrete runs.
    pub runs: u64,
    /// Runs that ended in an error.
    pub failing: u64,
    /// Safe, rare or common bug.
    pub class: Class,
    /// The kinds of error some input reaches.
    pub reached: BTreeSet<ErrorKind>,
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
    /// The enumeration was over its budget, so nothing was compared (a
    /// thread program with too many schedules; counted as unknown).
    pub skipped: bool,
    /// Float mode: what sampling could not decide (`None` elsewhere: the
    /// other modes enumerate every input).
    pub sampling: Option<crate::compare_float::Sampling>,
}

impl Comparison {
    /// Was the engine's answer `unknown` or its search incomplete?
    pub fn unknown(&self) -> bool {
        self.skipped || self.verdict == Verdict::Unknown || !self.incomplete.is_empty()
    }

    /// The kinds of the disagreements.
    pub fn kinds(&self) -> BTreeSet<DisKind> {
        self.disagreements.iter().map(|d| d.kind).collect()
    }
}

/// The concrete side: how many runs fail, and each failing location with
/// the first input that reaches it.
struct Enumeration {
    runs: u64,
    failing: u64,
    locations: BTreeMap<Loc, Input>,
}

/// The engine's internal errors, each a disagreement.
pub(crate) fn internal_errors(report: &Report) -> Vec<Disagreement> {
    report
        .internal_errors
        .iter()
        .map(|msg| Disagreement {
            kind: DisKind::Internal,
            detail: msg.clone(),
        })
        .collect()
}

/// Replays a reported bug's witness on `ir`: its run, and a disagreement
/// unless the run stops on the same error at the same place.
pub(crate) fn replay_witness(
    ir: &wiser_ir::Ir,
    bug: &Bug,
    max_steps: u64,
    options: wiser_semantics::Options,
    what: &str,
) -> (concrete::Run, Option<Disagreement>) {
    let at = loc(bug.kind, bug.span, &bug.stack);
    let run = concrete::run_with(ir, &bug.input, max_steps, options);
    let dis = match &run.outcome {
        Outcome::Error { kind, span, stack } if loc(*kind, *span, stack) == at => None,
        other => Some(Disagreement {
            kind: DisKind::Witness,
            detail: format!(
                "the {what} {} for {} replays as {other:?}",
                show_input(&bug.input),
                show_loc(&at)
            ),
        }),
    };
    (run, dis)
}

/// The engine's configuration for a comparison: every bug, within the
/// limits.
pub(crate) fn engine_config(
    strategy: Strategy,
    merge: MergeMode,
    limits: &Limits,
    options: wiser_semantics::Options,
) -> Config {
    Config::default()
        .with_strategy(strategy)
        .with_merge(merge)
        .with_all_bugs(true)
        .with_max_states(limits.max_states)
        .with_timeout(Some(limits.timeout))
        .with_solver_timeout(Some(limits.solver_timeout))
        .with_options(options)
}

/// Compares the engine with enumeration on a program text whose
/// specification is `spec`.
pub fn compare(
    src: &str,
    spec: &Spec,
    strategy: Strategy,
    merge: MergeMode,
    limits: &Limits,
) -> Result<Comparison, Invalid> {
    let ir = wiser_testkit::compile(src, spec)?;
    let options = spec.options();
    let t0 = Instant::now();
    let mut en = Enumeration {
        runs: 0,
        failing: 0,
        locations: BTreeMap::new(),
    };
    let budget = Budget {
        max_runs: limits.max_runs,
        max_steps: limits.max_steps,
    };
    en.runs = enumerate(&ir, spec, budget, |input, run| {
        if let Outcome::Error { kind, span, stack } = &run.outcome {
            en.failing += 1;
            en.locations
                .entry(loc(*kind, *span, stack))
                .or_insert_with(|| input.clone());
        }
    })?;
    let enum_time = t0.elapsed();

    let t1 = Instant::now();
    let config = engine_config(strategy, merge, limits, options);
    let report = symex(&ir, &config);
    let engine_time = t1.elapsed();

    let mut dis = internal_errors(&report);
    let mut reported = BTreeSet::new();
    for bug in &report.bugs {
        let at = loc(bug.kind, bug.span, &bug.stack);
        let (run, replay) = replay_witness(&ir, bug, limits.max_steps, options, "witness");
        dis.extend(replay);
        if !spec.inside(&bug.input, &run.read_types) {
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
        // `--all` reports each place (kind and location) once, with one of
        // its call stacks and a count of the others.
        for (l, input) in &en.locations {
            if !reported.iter().any(|r| same_place(r, l)) {
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
        for bug in &report.bugs {
            let at = loc(bug.kind, bug.span, &bug.stack);
            let stacks = en.locations.keys().filter(|l| same_place(l, &at)).count();
            if en.locations.contains_key(&at) && stacks != bug.other_stacks + 1 {
                dis.push(Disagreement {
                    kind: DisKind::MissedBug,
                    detail: format!(
                        "{} is reported with {} other call stack(s); enumerated inputs reach it with {stacks}",
                        show_loc(&at),
                        bug.other_stacks
                    ),
                });
            }
        }
    }
    let class = Class::of(en.runs, en.failing);
    Ok(Comparison {
        runs: en.runs,
        failing: en.failing,
        class,
        reached: en.locations.keys().map(|l| l.0).collect(),
        verdict: report.verdict,
        incomplete: report.incomplete.clone(),
        disagreements: dis,
        states: report.stats.states,
        enum_time,
        engine_time,
        skipped: false,
        sampling: None,
    })
}

/// Are two locations the same place (kind and span), whatever their call
/// stacks?
pub(crate) fn same_place(a: &Loc, b: &Loc) -> bool {
    (a.0, a.1) == (b.0, b.1)
}

/// Compares a source text that carries its specification header.
pub fn compare_text(
    text: &str,
    strategy: Strategy,
    merge: MergeMode,
    limits: &Limits,
) -> Result<Comparison, Invalid> {
    let spec = Spec::parse(text).map_err(Invalid::Spec)?;
    compare(text, &spec, strategy, merge, limits)
}
