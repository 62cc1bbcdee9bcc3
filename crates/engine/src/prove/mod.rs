//! Proving: inductive invariants found by a Horn-clause solver and
//! checked independently before `safe` is said.
//!
//! The program becomes constrained Horn clauses, one relation per cut
//! point (the entry, each loop head in its call context), and a relation
//! of the calls and one of the summary of each recursive procedure
//! ([`summaries`]), by the one `Machine::step` ([`clauses`]); Z3's Spacer
//! solves them
//! ([`wiser_smt::Z3Solver::solve_horn`]); the solution — an invariant per
//! cut point — is then checked clause by clause on a fresh solver chain
//! of the run layer (another process, sharing nothing with Spacer):
//! initiation, consecution, and that no error is reachable from a state
//! satisfying it ([`wiser_smt::HornProblem::check`]). Only a solution that
//! passes is reported, with its invariants. Spacer's counterexamples are
//! not bugs here: a bug is always a replayed input, which the bug-finding
//! engines give. What Spacer does not close, k-induction over the same
//! clauses may ([`kinduction`]), with its own independent check.

mod cells;
mod clauses;
mod fixed;
mod houdini;
mod kinduction;
mod options;
mod relax;
mod summaries;

pub use options::{Method, ProveOptions, DEFAULT_MAX_K};

use crate::config::Config;
use crate::report::{
    Extra, Incomplete, Invariant, ProofMethod, ProveExtra, Report, Stats, Verdict,
};
use crate::run::{peak_resident_bytes, supervise_one, Limits, Monitor, Solvers, StopSwitch};
use clauses::{encode, NotEncoded};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;
use wiser_ir::Ir;
use wiser_smt::{HornAnswer, HornProblem, Solver, Term, Z3Solver};

/// Tries to prove `ir` free of the errors of `config`'s property, within
/// its limits, by every method ([`ProveOptions::default`]); stops with
/// `unknown` when a limit or the interrupt switch of `monitor` says so.
/// The report's extra is [`Extra::Prove`].
pub fn prove(ir: Arc<Ir>, config: &Config, monitor: Arc<Monitor>) -> Report {
    prove_with(ir, config, &ProveOptions::default(), monitor)
}

/// [`prove`] by the methods of `options`.
pub fn prove_with(
    ir: Arc<Ir>,
    config: &Config,
    options: &ProveOptions,
    monitor: Arc<Monitor>,
) -> Report {
    let start = Instant::now();
    // Invariants are about loops as written, not their closed forms.
    let ir = if ir.accelerated.is_empty() {
        ir
    } else {
        Arc::new(wiser_ir::accelerate::as_written(&ir))
    };
    let limits = Limits::new(config, start, monitor.clone());
    let solvers = Arc::new(Solvers::new(config, limits.deadline));
    let stop = Arc::new(StopSwitch::default());
    let unchecked = config.property.has_unchecked(&ir);
    let deadline = limits.deadline;
    let work = {
        let (config, solvers, stop) = (config.clone(), solvers.clone(), stop.clone());
        let (monitor, options) = (monitor.clone(), options.clone());
        // A panic of the prover is an internal error in the report, not
        // a worker that vanished (which would read as a time-out).
        move || {
            let run = || attempt(&ir, &config, &options, deadline, &monitor, &solvers, &stop);
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)).unwrap_or_else(|panic| {
                let what = panic
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| panic.downcast_ref::<&str>().copied())
                    .unwrap_or("a panic");
                let msg = format!("internal error: the prover failed: {what}");
                let extra = ProveExtra {
                    reason: Some(msg.clone()),
                    ..ProveExtra::default()
                };
                let why = vec![Incomplete::InternalError];
                (Verdict::Unknown, why, vec![msg], Stats::default(), extra)
            })
        }
    };
    let (mut verdict, mut incomplete, internal, mut stats, extra) =
        match supervise_one(&limits, &solvers, &stop, work) {
            Some(done) => done,
            None => {
                let why = stop.reason().unwrap_or(Incomplete::Timeout);
                let stats = Stats {
                    abandoned_workers: 1,
                    ..Stats::default()
                };
                let extra = ProveExtra {
                    reason: Some("the prover was still at work at the end".into()),
                    ..ProveExtra::default()
                };
                (Verdict::Unknown, vec![why], Vec::new(), stats, extra)
            }
        };
    if unchecked {
        verdict = Verdict::Unknown;
        incomplete.push(Incomplete::Unchecked);
    }
    stats.elapsed = start.elapsed();
    stats.peak_memory = peak_resident_bytes().unwrap_or(0);
    Report {
        incomplete,
        internal_errors: internal,
        stats,
        ..Report::empty(verdict, Extra::Prove(Box::new(extra)))
    }
}

type Attempt = (Verdict, Vec<Incomplete>, Vec<String>, Stats, ProveExtra);

/// Encodes, solves and checks.
fn attempt(
    ir: &Arc<Ir>,
    config: &Config,
    options: &ProveOptions,
    deadline: Option<Instant>,
    monitor: &Monitor,
    solvers: &Solvers,
    stop: &StopSwitch,
) -> Attempt {
    let mut stats = Stats::default();
    let mut extra = ProveExtra::default();
    let unknown = |why: Incomplete, reason: String, stats: Stats, mut extra: ProveExtra| {
        extra.reason = Some(reason);
        (Verdict::Unknown, vec![why], Vec::new(), stats, extra)
    };
    let encoded = match encode(ir, config.property, config.options, &|| stop.reason()) {
        Ok(e) => e,
        Err(NotEncoded::Stopped(why)) => {
            return unknown(why, "stopped while encoding".into(), stats, extra)
        }
        Err(NotEncoded::Unsupported(what)) => {
            let reason = format!("the prover does not encode {what} yet");
            return unknown(Incomplete::NotEncoded, reason, stats, extra);
        }
    };
    stats.states = encoded.states;
    monitor.states.store(stats.states, Ordering::Relaxed);
    extra.relations = encoded.problem.relations.len();
    extra.clauses = encoded.problem.clauses.len();
    let problem = &encoded.problem;
    // Cheap inductive facts first: they may prove the program alone, and
    // strengthen the clauses Spacer gets.
    let guessing = Instant::now();
    let facts = match facts_of(problem, Vec::new(), deadline, solvers, stop, &mut stats) {
        Ok(f) => f,
        Err(why) => {
            return unknown(
                why,
                "stopped while guessing invariants".into(),
                stats,
                extra,
            )
        }
    };
    extra.guess_time = guessing.elapsed();
    if let Some(facts) = facts_prove(problem, &facts, solvers, deadline, &mut stats, &mut extra) {
        extra.method = Some(ProofMethod::Houdini);
        return proved(ir, &encoded, &facts, None, stats, extra);
    }
    // Spacer leaves k-induction a share of the time in `auto`.
    let spacer_until = match options.method {
        Method::Auto => share_of(deadline, SPACER_SHARE),
        _ => deadline,
    };
    let mut refused = None;
    // Spacer found a path to an error bit-precisely: k-induction's base
    // case would too.
    let mut refuted = false;
    let mut last = String::new();
    if options.method != Method::KInduction {
        // Arrays as one tracked cell first, for invariants over every
        // cell; what it leaves, over the arrays themselves.
        if let Some((tried, indices)) = over_cells(
            problem,
            spacer_until,
            deadline,
            solvers,
            stop,
            &mut stats,
            &mut extra,
        ) {
            match tried {
                Tried::Proved(solution) => {
                    return proved(ir, &encoded, &solution, Some(&indices), stats, extra)
                }
                Tried::Refused(r) => refused = Some(r),
                // A path to an error over cells may be the abstraction's.
                Tried::Not { last: l, .. } => last = format!("over cells: {l}; "),
            }
        }
        if refused.is_none() && stop.reason().is_none() {
            match spacer_tries(
                problem,
                &facts,
                spacer_until,
                deadline,
                solvers,
                &mut stats,
                &mut extra,
                false,
            ) {
                Tried::Proved(solution) => {
                    return proved(ir, &encoded, &solution, None, stats, extra)
                }
                Tried::Refused(r) => refused = Some(r),
                Tried::Not {
                    refuted: r,
                    last: l,
                } => {
                    refuted = r;
                    last = if last.is_empty() {
                        l
                    } else {
                        format!("{last}; {l}")
                    };
                }
            }
        }
    }
    let mut why = Incomplete::NoInvariant;
    if refused.is_none() && !refuted && options.method != Method::Spacer && stop.reason().is_none()
    {
        let started = Instant::now();
        let outcome = kinduction::k_induction(
            problem,
            &facts,
            options.max_k,
            solvers,
            stop,
            &mut stats.solver,
        );
        extra.solve_time += started.elapsed();
        match outcome {
            kinduction::Outcome::Proved { k } => {
                extra.method = Some(ProofMethod::KInduction);
                extra.k = Some(k);
                return proved(ir, &encoded, &facts, None, stats, extra);
            }
            kinduction::Outcome::Unknown(because, reason) => {
                // Clauses k-induction cannot unroll were still Spacer's:
                // the program is encoded, only no invariant was found.
                if because != Incomplete::NotEncoded || options.method == Method::KInduction {
                    why = because;
                }
                last = if last.is_empty() {
                    reason
                } else {
                    format!("{last}; {reason}")
                };
            }
            kinduction::Outcome::Refused(r) => refused = Some(r),
        }
    }
    if let Some(stopped) = stop.reason() {
        return unknown(stopped, last, stats, extra);
    }
    let Some(refusal) = refused else {
        return unknown(why, last, stats, extra);
    };
    match refusal {
        wiser_smt::Refusal::Undecided { clause, reason } => {
            let reason =
                format!("the check of the invariants could not decide clause {clause}: {reason}");
            unknown(Incomplete::SolverUnknown, reason, stats, extra)
        }
        wiser_smt::Refusal::UndecidedUnrolling { what, reason } => {
            let reason = format!("the check of k-induction could not decide {what}: {reason}");
            unknown(Incomplete::SolverUnknown, reason, stats, extra)
        }
        refusal => {
            let msg = format!(
                "internal error: the proof was refused by the independent check: {refusal}"
            );
            extra.reason = Some(msg.clone());
            (
                Verdict::Unknown,
                vec![Incomplete::InternalError],
                vec![msg],
                stats,
                extra,
            )
        }
    }
}

/// The cell clauses of `problem` ([`cells`]), if it has arrays they
/// cover, and what proving them gave, with each relation's index: Houdini
/// over the linear form (its facts hold over the non-linear one too,
/// whose premises only add instances), then Spacer on the linear form
/// with half the cells' share of the time left and on the non-linear
/// form, where it generalises equalities, with the rest.
fn over_cells(
    problem: &HornProblem,
    spacer_until: Option<Instant>,
    deadline: Option<Instant>,
    solvers: &Solvers,
    stop: &StopSwitch,
    stats: &mut Stats,
    extra: &mut ProveExtra,
) -> Option<(Tried, Vec<Option<Term>>)> {
    let (linear, indices) = cells::morph(problem, cells::Instances::Values)?;
    let until = share_of(spacer_until, CELLS_SHARE);
    let guesses = cells::candidates(&linear, &indices);
    let Ok(facts) = facts_of(&linear, guesses, until, solvers, stop, stats) else {
        let last = "stopped while guessing invariants".into();
        return Some((
            Tried::Not {
                refuted: false,
                last,
            },
            indices,
        ));
    };
    let nonlinear = cells::morph(problem, cells::Instances::Premises).map(|(p, _)| p);
    let forms = [
        (Some(linear), share_of(until, 0.5), false),
        (nonlinear, until, true),
    ];
    let mut tried = Tried::Not {
        refuted: false,
        last: String::new(),
    };
    for (morphed, until, equalities) in forms {
        let Some(morphed) = morphed else { continue };
        if stop.reason().is_some() {
            break;
        }
        if let Some(proof) = facts_prove(&morphed, &facts, solvers, deadline, stats, extra) {
            extra.method = Some(ProofMethod::Houdini);
            return Some((Tried::Proved(proof), indices));
        }
        tried = spacer_tries(
            &morphed, &facts, until, deadline, solvers, stats, extra, equalities,
        );
        if !matches!(tried, Tried::Not { .. }) {
            break;
        }
    }
    Some((tried, indices))
}

/// Houdini's inductive facts of `p`, from its candidates and `extra`'s
/// (per relation; `Err`: the run was stopped, or `until` passed).
fn facts_of(
    p: &HornProblem,
    extra: Vec<Vec<Term>>,
    until: Option<Instant>,
    solvers: &Solvers,
    stop: &StopSwitch,
    stats: &mut Stats,
) -> Result<Vec<Term>, Incomplete> {
    let mut solver = solvers.bare();
    let stopped = || {
        stop.reason().or_else(|| {
            until
                .is_some_and(|u| Instant::now() >= u)
                .then_some(Incomplete::Timeout)
        })
    };
    let found = houdini::houdini(p, extra, &mut *solver, &stopped);
    solver.stats(&mut stats.solver);
    found
}

/// The facts, minimised, if they pass the independent check alone.
fn facts_prove(
    p: &HornProblem,
    facts: &[Term],
    solvers: &Solvers,
    deadline: Option<Instant>,
    stats: &mut Stats,
    extra: &mut ProveExtra,
) -> Option<Vec<Term>> {
    let checking = Instant::now();
    let mut checker = solvers.bare();
    let proof = p
        .check(facts, &mut *checker)
        .is_ok()
        .then(|| minimise(p, facts.to_vec(), &mut *checker, deadline));
    checker.stats(&mut stats.solver);
    extra.check_time += checking.elapsed();
    proof
}

/// What Spacer's tries on one problem gave.
enum Tried {
    /// A solution that passed the independent check (minimised).
    Proved(Vec<Term>),
    /// A solution the independent check refused or could not decide.
    Refused(wiser_smt::Refusal),
    /// No solution; `refuted` if Spacer found a path to an error
    /// bit-precisely; `last` says why.
    Not { refuted: bool, last: String },
}

/// Spacer on `problem` strengthened by its `facts`, until `until`: over
/// unbounded integers first (where Spacer is at its best), then
/// bit-precisely; either way the invariants are checked on the
/// bit-precise clauses.
#[allow(clippy::too_many_arguments)]
fn spacer_tries(
    problem: &HornProblem,
    facts: &[Term],
    until: Option<Instant>,
    deadline: Option<Instant>,
    solvers: &Solvers,
    stats: &mut Stats,
    extra: &mut ProveExtra,
    equalities: bool,
) -> Tried {
    let strengthened = strengthen(problem, facts);
    let mut tries: Vec<(Option<HornProblem>, Option<Instant>)> = Vec::new();
    if problem
        .relations
        .iter()
        .any(|r| r.params.iter().any(|p| p.sort().is_bv()))
    {
        if let Some(relaxed) = relax::relax(&strengthened) {
            tries.push((Some(relaxed), share_of(until, 0.6)));
        }
    }
    tries.push((None, until));
    let mut refuted = false;
    let mut last = String::new();
    for (relaxed, until) in tries {
        let solving = Instant::now();
        let mut spacer = Z3Solver::new(None);
        let answer =
            spacer.solve_horn_with(relaxed.as_ref().unwrap_or(&strengthened), until, equalities);
        spacer.stats(&mut stats.solver);
        extra.solve_time += solving.elapsed();
        let solution = match (answer, &relaxed) {
            (HornAnswer::Solved(s), None) => s,
            (HornAnswer::Solved(s), Some(r)) => match relax::restore(&strengthened, r, &s) {
                Some(s) => s,
                None => {
                    last = "the invariants over integers have no bit-vector translation".into();
                    continue;
                }
            },
            (HornAnswer::Refuted, relaxed) => {
                refuted |= relaxed.is_none();
                last = "Spacer found a path to an error (the bug-finding engines replay bugs: \
                        `wiser check`, `wiser bmc`)"
                    .into();
                continue;
            }
            (HornAnswer::Unknown(why), _) => {
                last = format!("Spacer: {}", why.lines().next().unwrap_or("unknown"));
                continue;
            }
        };
        // Spacer's invariants hold given the facts: together they are
        // the certificate.
        let solution: Vec<Term> = solution
            .iter()
            .zip(facts)
            .map(|(s, f)| Term::and(s, f))
            .collect();
        // The independent check: a fresh solver chain of the run layer.
        let checking = Instant::now();
        let mut checker = solvers.bare();
        let checked = problem.check(&solution, &mut *checker);
        let solution = match checked {
            Ok(()) => minimise(problem, solution, &mut *checker, deadline),
            Err(_) => solution,
        };
        checker.stats(&mut stats.solver);
        extra.check_time += checking.elapsed();
        match checked {
            Ok(()) => {
                extra.method = Some(ProofMethod::Spacer);
                return Tried::Proved(solution);
            }
            // Invariants over integers may fail at machine integers: a
            // reason to try bit-precisely, not an error.
            Err(wiser_smt::Refusal::Violated { clause }) if relaxed.is_some() => {
                last = format!(
                    "the invariants over integers fail clause {clause} at machine integers"
                );
            }
            Err(r) => return Tried::Refused(r),
        }
    }
    Tried::Not { refuted, last }
}

/// `p` with each clause's premise strengthened by the facts of its body
/// relations (sound: the facts are inductive, so every reachable state at
/// a relation's cut point, and every summarised call, satisfies them).
fn strengthen(p: &HornProblem, facts: &[Term]) -> HornProblem {
    let mut out = p.clone();
    for c in &mut out.clauses {
        for body in &c.body {
            let f = p.instantiate(facts, body);
            c.constraint = Term::and(&c.constraint, &f);
        }
    }
    out
}

/// The most conjuncts an invariant may have for [`minimise`] to try.
const MINIMISE_CONJUNCTS: usize = 400;

/// How long [`minimise`] may take at most.
const MINIMISE_TIME: std::time::Duration = std::time::Duration::from_secs(2);

/// A checked `solution` with the conjuncts it does not need left out, for
/// people to read: runs of conjuncts, halving in length down to one, are
/// dropped in turn where the solution without them still passes the
/// check (so what is returned has passed it: a weaker formula for one
/// relation can only break the clauses whose premise has it). Houdini's solutions hold
/// a few needed facts among many implied ones, which long runs drop in
/// a few checks. Gives up, keeping what it has, after [`MINIMISE_TIME`]
/// or at the deadline.
fn minimise(
    p: &HornProblem,
    checked: Vec<Term>,
    checker: &mut dyn Solver,
    deadline: Option<Instant>,
) -> Vec<Term> {
    let until = Instant::now() + MINIMISE_TIME;
    let until = deadline.map_or(until, |d| d.min(until));
    let mut solution = checked.clone();
    for r in 0..solution.len() {
        let mut parts: Vec<Term> = match solution[r].kind() {
            wiser_smt::Kind::And(xs) if xs.len() <= MINIMISE_CONJUNCTS => xs.to_vec(),
            _ => continue,
        };
        // A weaker formula for `r` keeps every clause into `r` valid: only
        // those out of it are checked again.
        let out_of = HornProblem {
            relations: p.relations.clone(),
            clauses: p
                .clauses
                .iter()
                .filter(|c| c.body.iter().any(|b| b.relation == r))
                .cloned()
                .collect(),
        };
        let mut run = parts.len().div_ceil(2);
        while run >= 1 {
            let mut i = 0;
            while i < parts.len() {
                if Instant::now() >= until {
                    return recheck(p, solution, checked, checker);
                }
                let end = (i + run).min(parts.len());
                let without: Vec<Term> = parts[..i].iter().chain(&parts[end..]).cloned().collect();
                let mut trial = solution.clone();
                trial[r] = Term::and_all(without.iter().cloned());
                if out_of.check(&trial, checker).is_ok() {
                    parts = without;
                    solution = trial;
                } else {
                    i = end;
                }
            }
            run /= 2;
        }
    }
    recheck(p, solution, checked, checker)
}

/// `minimised` if it passes the whole check once more, else `checked`:
/// each step of [`minimise`] checked only the clauses it could break,
/// and the certificate rests on no such argument.
fn recheck(
    p: &HornProblem,
    minimised: Vec<Term>,
    checked: Vec<Term>,
    checker: &mut dyn Solver,
) -> Vec<Term> {
    if minimised == checked || p.check(&minimised, checker).is_ok() {
        minimised
    } else {
        checked
    }
}

/// The share of the time left after Houdini that Spacer gets in `auto`,
/// the rest being k-induction's.
const SPACER_SHARE: f64 = 0.7;

/// The share of Spacer's time that the clauses over one tracked cell
/// ([`cells`]) get first, for a program with arrays.
const CELLS_SHARE: f64 = 0.5;

/// A deadline `share` of the way from now to `deadline`.
fn share_of(deadline: Option<Instant>, share: f64) -> Option<Instant> {
    let now = Instant::now();
    deadline.map(|d| now + d.saturating_duration_since(now).mul_f64(share))
}

/// The report of a checked proof; `indices` (for a solution of the
/// clauses over cells): per relation, the index its formula holds for
/// every value of.
fn proved(
    ir: &Ir,
    encoded: &clauses::Encoded,
    solution: &[Term],
    indices: Option<&[Option<Term>]>,
    stats: Stats,
    mut extra: ProveExtra,
) -> Attempt {
    extra.invariants = encoded
        .cuts
        .iter()
        .zip(solution)
        .enumerate()
        .skip(1)
        .map(|(r, (cut, formula))| Invariant {
            span: ir.at(cut.key.pc).span,
            routine: ir
                .routine(cut.key.frames.last().and_then(|f| f.0))
                .name
                .clone(),
            formula: formula.clone(),
            for_every: indices
                .and_then(|ks| ks[r].clone())
                .filter(|k| cells::speaks_of_cells(formula, k)),
        })
        .collect();
    (Verdict::Safe, Vec::new(), Vec::new(), stats, extra)
}
