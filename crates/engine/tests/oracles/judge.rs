//! The oracles themselves: one generated program, every input of its
//! specification run concretely, compared with the explorer's terminal
//! states and with `check --all` ([`run_oracles`]); or a program whose
//! inputs cannot be enumerated (floats), judged on sampled inputs
//! ([`judge`] with `sampled`: the oracles that need every input become
//! inclusions).

use proptest::test_runner::TestCaseError;
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use wiser_engine::{
    read_symbol, symex, witness, Config, Event, Explorer, FinalState, Incomplete, MergeMode,
    Strategy as Search, Verdict,
};
use wiser_ir::{ArrayTy, Ir, ScalarTy};
use wiser_num::Int;
use wiser_semantics::concrete::{self, Array, Outcome};
use wiser_semantics::{Input, Options};
use wiser_smt::{ArrayValue, Model, Value, Z3Solver};
use wiser_testkit::{enumerate, loc, show_input, show_loc, Budget, Loc, Program};

/// Steps of one concrete run.
const MAX_STEPS: u64 = 100_000;
/// Runs of one enumeration (the generator's `tiny` sizes stay far below).
const MAX_RUNS: u64 = 50_000;
/// States of one exploration.
const MAX_STATES: u64 = 400_000;
/// Time of one solver query: a hard nonlinear query gives up (the case is
/// skipped) instead of holding the test for minutes.
pub const SOLVER_TIMEOUT: Duration = Duration::from_secs(2);

/// A generated program and its source; `Debug` shows the source, so a
/// failing case prints the program.
#[derive(Clone)]
pub struct Case {
    /// The program.
    pub prog: Program,
    /// Its source.
    pub src: String,
    /// A candidate of shrinking, not a generated program: if it cannot be
    /// compiled or enumerated, it is merely not a smaller failure.
    pub shrunk: bool,
    /// How the explorer and `check` merge states.
    pub merge: MergeMode,
}

impl Case {
    pub fn new(prog: Program, shrunk: bool) -> Case {
        let src = prog.source();
        Case {
            prog,
            src,
            shrunk,
            merge: MergeMode::None,
        }
    }

    /// The same case, explored with state merging `merge`.
    pub fn with_merge(mut self, merge: MergeMode) -> Case {
        self.merge = merge;
        self
    }
}

impl std::fmt::Debug for Case {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "\n----- program -----\n{}-------------------", self.src)
    }
}

/// What happened to the cases of one property.
#[derive(Default)]
pub struct Tally {
    /// Cases decided (every oracle checked).
    pub decided: AtomicU64,
    /// Cases skipped because the solver answered unknown (or a search ran
    /// out of time on it).
    pub skipped: AtomicU64,
    /// Of the decided cases, those where some input fails.
    pub with_bugs: AtomicU64,
}

/// One enumerated (or sampled) input and how its run ended.
pub struct Concrete {
    input: Input,
    outcome: Outcome,
    store: Vec<(Arc<str>, Int)>,
    arrays: Vec<(Arc<str>, Array)>,
}

impl Concrete {
    /// The run of `ir` on `input`.
    pub fn run(ir: &Ir, input: &Input, options: Options) -> Concrete {
        let run = concrete::run_with(ir, input, MAX_STEPS, options);
        Concrete {
            input: input.clone(),
            outcome: run.outcome.clone(),
            store: run.final_store(ir),
            arrays: run.final_arrays(ir),
        }
    }
}

/// What [`judge`] judges.
pub struct Subject<'a> {
    /// The program.
    pub ir: &'a Ir,
    /// Its source (printed by `WISER_ORACLES_VERBOSE`).
    pub src: &'a str,
    /// The runs of its inputs: every input, or (`sampled`) some.
    pub runs: &'a [Concrete],
    /// Are the runs a sample (not every input)?
    pub sampled: bool,
    /// Semantic options.
    pub options: Options,
    /// How the explorer and `check` merge states.
    pub merge: MergeMode,
    /// A candidate of shrinking (not counted in the tally).
    pub shrunk: bool,
}

fn fail(msg: impl Into<String>) -> TestCaseError {
    TestCaseError::fail(msg.into())
}

/// The model that describes a concrete input: its scalars (a signed value
/// does for a bit-vector: models read them modulo 2^w), its reads, and its
/// arrays (the given cells over zeros).
fn model_of(ir: &Ir, input: &Input) -> Model {
    let mut m = Model::new();
    for (name, v) in &input.vars {
        m.set_int(name.clone(), v.clone());
    }
    for (k, v) in input.reads.iter().enumerate() {
        m.set_int(Arc::from(read_symbol(k as u32)), v.clone());
    }
    for a in &ir.arrays {
        let mut value = ArrayValue::default();
        if let Some((_, given)) = input.arrays.iter().find(|(n, _)| *n == a.name) {
            value.default = given.default.clone();
            for (i, v) in &given.entries {
                value.entries.insert_mut(i.clone(), v.clone());
            }
        }
        m.set_array(a.name.clone(), value);
    }
    m
}

/// A term's value as the value of type `ty` it stands for (bit-vectors
/// are unsigned patterns, booleans 0 and 1).
fn typed(ty: ScalarTy, v: Value) -> Option<Int> {
    match v {
        Value::Int(n) => Some(ty.wrap(&n)),
        Value::Bool(b) => Some(Int::from(i64::from(b))),
        Value::Array(_) => None,
    }
}

fn same_array(concrete: &Array, model: &ArrayValue, ty: ArrayTy) -> bool {
    let index = ScalarTy::Int(ty.index);
    let elem = |v: &Int| ty.elem.wrap(v);
    let model_at = |i: &Int| {
        model
            .entries
            .iter()
            .find(|(k, _)| index.wrap(k) == *i)
            .map_or(&model.default, |(_, v)| v)
            .clone()
    };
    let concrete_at = |i: &Int| concrete.elems.get(i).unwrap_or(&concrete.default).clone();
    elem(&concrete.default) == elem(&model.default)
        && concrete
            .elems
            .keys()
            .cloned()
            .chain(model.entries.keys().map(|k| index.wrap(k)))
            .all(|i| elem(&concrete_at(&i)) == elem(&model_at(&i)))
}

/// Does the final state's store, evaluated under `m`, equal the concrete
/// final store and arrays? `Err` says where it differs.
fn store_matches(
    ir: &Ir,
    fs: &FinalState,
    m: &Model,
    store: &[(Arc<str>, Int)],
    arrays: &[(Arc<str>, Array)],
) -> Result<(), String> {
    if fs.store.len() != store.len() || fs.arrays.len() != arrays.len() {
        return Err("store shapes differ".into());
    }
    let types = ir
        .main
        .slots
        .iter()
        .filter(|s| !s.is_temporary())
        .map(|s| s.ty);
    for (((name, term), (cname, cv)), ty) in fs.store.iter().zip(store).zip(types) {
        assert_eq!(name, cname);
        let v = m.eval(term);
        if typed(ty, v.clone()).as_ref() != Some(cv) {
            return Err(format!(
                "`{name}`: symbolic {term:?} evaluates to {v:?}, concrete {cv}"
            ));
        }
    }
    for (((name, term), (cname, ca)), decl) in fs.arrays.iter().zip(arrays).zip(&ir.arrays) {
        assert_eq!(name, cname);
        match m.eval(term) {
            Value::Array(av) if same_array(ca, &av, decl.ty) => {}
            other => {
                return Err(format!(
                    "array `{name}`: symbolic evaluates to {other:?}, concrete {ca:?}"
                ))
            }
        }
    }
    Ok(())
}

fn replays(ir: &Ir, input: &Input, at: &Loc, options: Options) -> Result<(), String> {
    let run = concrete::run_with(ir, input, MAX_STEPS, options);
    match run.outcome {
        Outcome::Error { kind, span, stack } if loc(kind, span, &stack) == *at => Ok(()),
        other => Err(format!(
            "witness {} for {} replays as {other:?}",
            show_input(input),
            show_loc(at)
        )),
    }
}

/// Checks every oracle on `case`. A case the solver cannot decide is
/// skipped (counted in `tally`); a generated program that cannot be
/// compiled or enumerated is a generator bug.
pub fn run_oracles(case: &Case, tally: &Tally) -> Result<(), TestCaseError> {
    let t0 = std::time::Instant::now();
    let spec = &case.prog.spec;
    let options = spec.options();
    let ir = match wiser_testkit::compile(&case.src, spec) {
        Ok(ir) => ir,
        Err(_) if case.shrunk => return Ok(()),
        Err(e) => return Err(fail(format!("generator bug: {e}"))),
    };

    // Concrete enumeration.
    let mut runs: Vec<Concrete> = Vec::new();
    let budget = Budget {
        max_runs: MAX_RUNS,
        max_steps: MAX_STEPS,
    };
    let enumerated = enumerate(&ir, spec, budget, |input, run| {
        runs.push(Concrete {
            input: input.clone(),
            outcome: run.outcome.clone(),
            store: run.final_store(&ir),
            arrays: run.final_arrays(&ir),
        })
    });
    match enumerated {
        Ok(_) => {}
        Err(_) if case.shrunk => return Ok(()),
        Err(e) => return Err(fail(format!("generator bug: {e}"))),
    }
    let subject = Subject {
        ir: &ir,
        src: &case.src,
        runs: &runs,
        sampled: false,
        options,
        merge: case.merge,
        shrunk: case.shrunk,
    };
    judge(&subject, tally, t0)
}

/// Checks every oracle on the runs of `s`; with `s.sampled`, the oracles
/// that need every input are inclusions: the failing places of the runs
/// are among the explorer's and `check`'s, a `safe` verdict has no
/// failing run, and reported bugs that no run reaches must still replay.
pub fn judge(s: &Subject, tally: &Tally, t0: std::time::Instant) -> Result<(), TestCaseError> {
    let (ir, runs, options) = (s.ir, s.runs, s.options);
    let case = s;
    let failing: BTreeSet<Loc> = runs
        .iter()
        .filter_map(|r| match &r.outcome {
            Outcome::Error { kind, span, stack } => Some(loc(*kind, *span, stack)),
            _ => None,
        })
        .collect();
    let skip = || {
        if std::env::var_os("WISER_ORACLES_VERBOSE").is_some() {
            eprintln!("{}# SKIPPED after {:?}\n", case.src, t0.elapsed());
        }
        if !case.shrunk {
            tally.skipped.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    };

    let t_enum = t0.elapsed();
    // The explorer, with final states.
    let solver = Z3Solver::new(Some(SOLVER_TIMEOUT));
    let mut explorer = Explorer::with_options(ir, solver, Search::Bfs, options)
        .with_final_states(true)
        .with_merge(case.merge);
    let mut finals: Vec<FinalState> = Vec::new();
    let mut explored: BTreeSet<Loc> = BTreeSet::new();
    let mut states = 0u64;
    while let Some(ev) = explorer.next() {
        states += 1;
        if states > MAX_STATES {
            return Err(fail(format!(
                "the explorer did not finish in {MAX_STATES} states"
            )));
        }
        match ev {
            Event::Finished => break,
            Event::Pending => {}
            Event::Final(fs) => finals.push(*fs),
            Event::BugFound(bug) => {
                let at = loc(bug.kind, bug.span, &bug.stack);
                replays(ir, &bug.input, &at, options).map_err(fail)?;
                explored.insert(at);
            }
            // Generated programs have no objects or threads: no bound.
            Event::Undecided | Event::Bounded(_) => return skip(),
            Event::InternalError(msg) => return Err(fail(msg)),
            // The explorer checks every kind: there is nothing outside.
            Event::OutsideProperty(kind, _) => {
                return Err(fail(format!("{kind} outside the default property")))
            }
        }
        if explorer.policy().stats.unknown > 0 {
            // A state kept after the solver could not decide: bugs may
            // hide behind it, and more such queries would follow.
            return skip();
        }
    }

    let t_explore = t0.elapsed();
    // Exhaustiveness: each halted run is covered by exactly one final
    // state with the same store; no other run is covered by any.
    for r in runs {
        let m = model_of(ir, &r.input);
        let covering: Vec<&FinalState> = finals
            .iter()
            .filter(|fs| fs.path_condition.iter().all(|t| m.holds(t)))
            .collect();
        let input = show_input(&r.input);
        match &r.outcome {
            Outcome::Halted => {
                if covering.len() != 1 {
                    return Err(fail(format!(
                        "halted input {input} is covered by {} final states",
                        covering.len()
                    )));
                }
                store_matches(ir, covering[0], &m, &r.store, &r.arrays)
                    .map_err(|e| fail(format!("input {input}: {e}")))?;
            }
            other => {
                if let Some(fs) = covering.first() {
                    return Err(fail(format!(
                        "input {input} ends as {other:?} but a final state covers it: {:?}",
                        fs.path_condition
                    )));
                }
            }
        }
    }
    let explored_ok = if case.sampled {
        failing.is_subset(&explored)
    } else {
        explored == failing
    };
    if !explored_ok {
        return Err(fail(format!(
            "explorer bugs {:?} vs failing inputs {:?}",
            explored.iter().map(show_loc).collect::<Vec<_>>(),
            failing.iter().map(show_loc).collect::<Vec<_>>()
        )));
    }

    // Precision: every final state's model replays to its store.
    for fs in &finals {
        let Some(m) = &fs.model else { continue };
        if let Some(t) = fs.path_condition.iter().find(|t| !m.holds(t)) {
            return Err(fail(format!("a final state's model violates {t:?}")));
        }
        let input = witness::input_from_model(ir, m, fs.reads);
        let run = concrete::run_with(ir, &input, MAX_STEPS, options);
        if run.outcome != Outcome::Halted || run.missing_reads > 0 {
            return Err(fail(format!(
                "a final state's model {} replays as {:?} ({} reads missing)",
                show_input(&input),
                run.outcome,
                run.missing_reads
            )));
        }
        store_matches(ir, fs, m, &run.final_store(ir), &run.final_arrays(ir))
            .map_err(|e| fail(format!("replay of {}: {e}", show_input(&input))))?;
    }

    let t_cover = t0.elapsed();
    // The verdict of `check --all`.
    let config = Config::default()
        .with_all_bugs(true)
        .with_max_states(MAX_STATES)
        .with_timeout(Some(Duration::from_secs(60)))
        .with_solver_timeout(Some(SOLVER_TIMEOUT))
        .with_options(options)
        .with_merge(case.merge);
    let report = symex(ir, &config);
    if !report.internal_errors.is_empty() {
        return Err(fail(format!(
            "internal errors: {:?}",
            report.internal_errors
        )));
    }
    let undecided = [Incomplete::SolverUnknown, Incomplete::Timeout];
    if report.incomplete.iter().any(|i| undecided.contains(i)) {
        return skip();
    }
    if !report.incomplete.is_empty() {
        return Err(fail(format!(
            "the search was not exhaustive: {:?}",
            report.incomplete
        )));
    }
    // `--all` reports each place (kind and location) once, with one of
    // its call stacks and a count of the others.
    let mut reported: BTreeSet<Loc> = BTreeSet::new();
    for bug in &report.bugs {
        let at = loc(bug.kind, bug.span, &bug.stack);
        replays(ir, &bug.input, &at, options).map_err(fail)?;
        let stacks = failing
            .iter()
            .filter(|(k, s, _)| (*k, *s) == (bug.kind, bug.span))
            .count();
        if !case.sampled && failing.contains(&at) && stacks != bug.other_stacks + 1 {
            return Err(fail(format!(
                "{} is reported with {} other call stacks; failing inputs reach it with {stacks}",
                show_loc(&at),
                bug.other_stacks
            )));
        }
        reported.insert(at);
    }
    let places =
        |locs: &BTreeSet<Loc>| -> BTreeSet<_> { locs.iter().map(|(k, s, _)| (*k, *s)).collect() };
    let expected = if failing.is_empty() {
        Verdict::Safe
    } else {
        Verdict::Bug
    };
    let once = reported.len() == places(&reported).len();
    let agrees = if case.sampled {
        (failing.is_empty() || report.verdict == Verdict::Bug)
            && places(&failing).is_subset(&places(&reported))
    } else {
        report.verdict == expected
            && reported.is_subset(&failing)
            && places(&reported) == places(&failing)
    };
    if !once || !agrees {
        return Err(fail(format!(
            "check says {:?} with {:?}; failing inputs reach {:?}",
            report.verdict,
            reported.iter().map(show_loc).collect::<Vec<_>>(),
            failing.iter().map(show_loc).collect::<Vec<_>>()
        )));
    }
    if !case.shrunk {
        tally.decided.fetch_add(1, Ordering::Relaxed);
        if !failing.is_empty() {
            tally.with_bugs.fetch_add(1, Ordering::Relaxed);
        }
    }
    if std::env::var_os("WISER_ORACLES_VERBOSE").is_some() {
        let halted = runs.iter().filter(|r| r.outcome == Outcome::Halted).count();
        eprintln!(
            "{}# runs {} finals {} bug locations {} states {} halted {halted} times {:?} {:?} {:?} {:?}\n",
            case.src,
            runs.len(),
            finals.len(),
            failing.len(),
            report.stats.states,
            t_enum, t_explore, t_cover, t0.elapsed()
        );
    }
    Ok(())
}
