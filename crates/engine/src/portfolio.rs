//! The portfolio: several engines on one program side by side, the first
//! definitive answer taken, the others stopped.
//!
//! Each member runs on a thread of its own with a [`Monitor`] of its own,
//! under the same limits; a relay on the calling thread passes the run's
//! interrupt switch on to every member, sums their counters into the
//! run's monitor (for the progress line), and, as soon as one member
//! answers `bug` or `safe`, stops the others. The answer does not depend
//! on which member is fastest: every engine's `bug` is a replayed input
//! and every `safe` an exhaustive search or a checked certificate, so two
//! definitive answers can only disagree through an engine fault — which
//! the portfolio reports as an internal error, never as a verdict. A
//! member still inside one slow step [`GRACE`] after it was told to stop
//! (its engine's own supervisor already abandons such workers) is left
//! behind, so a portfolio ends as promptly as each of its members. The
//! memory bound is the relay's to watch, over the process and every
//! member's solver processes (no member's own limits see the others');
//! under a bound, members start one at a time while there is room.

use crate::bmc::{bmc, Bmc};
use crate::config::Config;
use crate::prove::{prove_with, Method, ProveOptions};
use crate::report::{Extra, Incomplete, Report, Verdict};
use crate::run::{descendants_resident_bytes, spawn_worker, Limits, Monitor, GRACE};
use crate::symex::symex_monitored;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};
use wiser_ir::Ir;

/// One engine of a portfolio.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Member {
    /// Symbolic execution (`check`), on the workers the others leave.
    Symex,
    /// Bounded model checking with these bounds.
    Bmc(Bmc),
    /// The prover's inductive invariants (Houdini, then Spacer), checked
    /// before `safe`.
    Prove,
    /// k-induction over the prover's clauses, strengthened by Houdini's
    /// facts, its certificate checked before `safe`.
    KInduction,
}

impl Member {
    /// The engine's name in reports (as [`Extra::engine`] names it).
    pub fn name(&self) -> &'static str {
        match self {
            Member::Symex => "check",
            Member::Bmc(_) => "bmc",
            Member::Prove => "prove",
            Member::KInduction => "k-induction",
        }
    }

    /// Bounded model checking as a portfolio runs it: from bound 1,
    /// deepened one by one without end, with unwinding assertions, so it
    /// answers `safe` when no path goes past the bound and `bug` at the
    /// first bound that reaches one.
    pub fn deepening_bmc() -> Member {
        Member::Bmc(Bmc {
            unwind: 1,
            unwind_loops: Vec::new(),
            unwind_max: Some(u32::MAX),
            unwinding_assertions: true,
        })
    }

    /// The members of the default portfolio on `jobs` workers: symbolic
    /// execution for bugs, deepening BMC for short bugs and bounded
    /// programs, the prover for loops whose bound is an input — with
    /// k-induction as a member of its own where there are workers for
    /// four, else inside the prover's member after Spacer (both start
    /// with the same Houdini facts, which two members would find twice).
    pub fn defaults(jobs: usize) -> Vec<Member> {
        let mut members = vec![Member::Symex, Member::deepening_bmc(), Member::Prove];
        if jobs >= 4 {
            members.push(Member::KInduction);
        }
        members
    }

    /// The workers a member uses of `jobs` shared by `members` members:
    /// one each, and symbolic execution the rest.
    fn jobs(&self, jobs: usize, members: usize) -> usize {
        match self {
            Member::Symex => jobs.saturating_sub(members - 1).max(1),
            Member::Bmc(_) | Member::Prove | Member::KInduction => 1,
        }
    }

    /// Runs the member; `kinduction_apart`: k-induction is a member of
    /// its own, so the prover's member runs Spacer alone.
    fn run(
        &self,
        ir: Arc<Ir>,
        config: &Config,
        monitor: Arc<Monitor>,
        kinduction_apart: bool,
    ) -> Report {
        match self {
            Member::Symex => symex_monitored(ir, config, monitor),
            Member::Bmc(b) => bmc(ir, config, b, monitor),
            Member::Prove => {
                let method = if kinduction_apart {
                    Method::Spacer
                } else {
                    Method::Auto
                };
                prove_with(ir, config, &Member::method(method), monitor)
            }
            Member::KInduction => {
                prove_with(ir, config, &Member::method(Method::KInduction), monitor)
            }
        }
    }

    /// The prover's settings for `method`, with the whole time.
    fn method(method: Method) -> ProveOptions {
        ProveOptions {
            method,
            ..ProveOptions::default()
        }
    }
}

/// How one member's run ended.
#[derive(Clone, Debug)]
pub struct MemberOutcome {
    /// The engine's name.
    pub engine: &'static str,
    /// Its verdict (`unknown` for a member stopped because another
    /// answered, or left behind).
    pub verdict: Verdict,
    /// Why its answer was not definitive.
    pub incomplete: Vec<Incomplete>,
    /// How long it ran (until the portfolio stopped waiting for it).
    pub elapsed: Duration,
    /// Was it stopped because another member answered first?
    pub stopped: bool,
    /// Was it still inside one step when the portfolio stopped waiting
    /// for it (its report is lost)?
    pub abandoned: bool,
    /// Was it never started: under a memory bound, the others left no
    /// room for its solver processes before the run ended or another
    /// member answered?
    pub not_started: bool,
}

/// What a portfolio run gives: the report that answers, and how each
/// member ended.
#[derive(Clone, Debug)]
pub struct PortfolioRun {
    /// The report of the member that answered, or, without a definitive
    /// answer, the first member's report with every member's reasons.
    pub report: Report,
    /// The member that answered (`None` for `unknown`).
    pub answered_by: Option<&'static str>,
    /// Every member, in the order given.
    pub members: Vec<MemberOutcome>,
}

/// Runs `members` on `ir` side by side under `config`'s limits, sharing
/// its `jobs`, until one answers `bug` or `safe` (then the others are
/// stopped) or all have ended; `monitor` sums their counters and its
/// interrupt switch stops them all.
///
/// # Panics
/// If `members` is empty.
pub fn portfolio(
    ir: Arc<Ir>,
    config: &Config,
    members: &[Member],
    monitor: Arc<Monitor>,
) -> PortfolioRun {
    assert!(!members.is_empty(), "a portfolio of no engine");
    let start = Instant::now();
    let (tx, rx) = mpsc::channel::<(usize, Report)>();
    let monitors: Vec<Arc<Monitor>> = members.iter().map(|_| Arc::new(Monitor::new())).collect();
    let relay = Relay {
        monitor: &monitor,
        monitors: &monitors,
        limits: Limits::new(config, start, monitor.clone()),
        starter: Starter {
            ir,
            config,
            members,
            tx,
        },
    };
    let (reports, ended) = relay.collect(&rx);
    finish(members, reports, ended, start)
}

/// Starts the members, each on a thread of its own.
struct Starter<'a> {
    ir: Arc<Ir>,
    config: &'a Config,
    members: &'a [Member],
    tx: mpsc::Sender<(usize, Report)>,
}

impl Starter<'_> {
    /// Starts member `i`, whose report comes on the channel.
    fn start(&self, i: usize, child: Arc<Monitor>) {
        let member = &self.members[i];
        let config = self
            .config
            .clone()
            .with_jobs(member.jobs(self.config.jobs, self.members.len()));
        let (ir, runner, to_relay) = (self.ir.clone(), member.clone(), self.tx.clone());
        let apart = self.members.contains(&Member::KInduction);
        let spawned = spawn_worker(format!("portfolio-{}", member.name()), move || {
            let run = || runner.run(ir, &config, child, apart);
            let report = std::panic::catch_unwind(std::panic::AssertUnwindSafe(run))
                .unwrap_or_else(|panic| failed(&runner, panic.as_ref()));
            // The portfolio may have stopped waiting: nobody to tell.
            let _ = to_relay.send((i, report));
        });
        if let Err(e) = spawned {
            let msg = format!(
                "internal error: cannot start the {} engine: {e}",
                member.name()
            );
            let _ = self.tx.send((i, internal(member, msg)));
        }
    }
}

/// The relay between the run's monitor and the members'.
struct Relay<'a> {
    monitor: &'a Monitor,
    monitors: &'a [Arc<Monitor>],
    /// The run's limits: the memory bound counts every member's solver
    /// processes, which no member's own limits see.
    limits: Limits,
    starter: Starter<'a>,
}

/// How often the relay reads the memory of the process and its solvers.
const MEMORY_EVERY: Duration = Duration::from_millis(20);

/// Under a memory bound, members start one at a time, this long apart
/// (time for the last one's solver processes to show in the memory)
/// and only while the memory is below [`START_BELOW_PERCENT`] of the
/// bound: each member's solver processes cost tens of MiB before their
/// first query, and a small bound would be crossed by starting them all.
const START_EVERY: Duration = Duration::from_millis(100);

/// See [`START_EVERY`].
const START_BELOW_PERCENT: u64 = 60;

/// When each member's report came, or that it was told to stop.
struct Ended {
    at: Vec<Option<Instant>>,
    stopped: Vec<bool>,
    /// Members never started (the memory bound left no room).
    not_started: Vec<bool>,
    /// The members were stopped at the memory bound.
    out_of_memory: bool,
}

impl Relay<'_> {
    /// Waits for the members' reports, stopping the others at the first
    /// definitive one, and giving up on a member [`GRACE`] (plus a
    /// second for its own supervisor's grace) after it was told to stop.
    fn collect(&self, rx: &mpsc::Receiver<(usize, Report)>) -> (Vec<Option<Report>>, Ended) {
        let n = self.monitors.len();
        let mut reports: Vec<Option<Report>> = (0..n).map(|_| None).collect();
        let mut ended = Ended {
            at: vec![None; n],
            stopped: vec![false; n],
            not_started: vec![false; n],
            out_of_memory: false,
        };
        let mut told: Option<Instant> = None;
        let patience = GRACE + Duration::from_secs(1);
        let mut next_memory = Instant::now();
        let (mut started, mut last_start) = (0, None::<Instant>);
        while reports.iter().any(Option::is_none) {
            self.sum();
            let now = Instant::now();
            let memory = now >= next_memory;
            if memory {
                next_memory = now + MEMORY_EVERY;
            }
            // The members watch the clock and the interrupt themselves;
            // the memory of all of them only the relay can see.
            match self.limits.reached(memory, descendants_resident_bytes) {
                Some(Incomplete::MaxMemory) if told.is_none() => {
                    ended.out_of_memory = true;
                    self.stop_all();
                    told = Some(now);
                }
                Some(Incomplete::Interrupted) => {
                    self.stop_all();
                    told.get_or_insert(now);
                }
                _ => {}
            }
            if started < n {
                let running = (0..started).any(|i| reports[i].is_none());
                if told.is_none() && self.room_to_start(last_start, running) {
                    self.starter.start(started, self.monitors[started].clone());
                    started += 1;
                    last_start = Some(now);
                    continue;
                }
                if told.is_some() || !running {
                    // Stopping, or every started member has ended with
                    // the memory still too high for the next: the rest
                    // never start.
                    let why = match told {
                        Some(_) if !ended.out_of_memory => Incomplete::Interrupted,
                        _ => Incomplete::MaxMemory,
                    };
                    for (i, slot) in reports.iter_mut().enumerate().skip(started) {
                        ended.not_started[i] = true;
                        ended.stopped[i] = told.is_some();
                        ended.at[i] = Some(now);
                        let mut r =
                            Report::empty(Verdict::Unknown, extra_of(&self.starter.members[i]));
                        r.incomplete.push(why);
                        *slot = Some(r);
                    }
                    started = n;
                }
            }
            if told.is_some_and(|t| t.elapsed() > patience) {
                break;
            }
            match rx.recv_timeout(crate::run::TICK) {
                Ok((i, report)) => {
                    ended.at[i] = Some(Instant::now());
                    if told.is_none() && report.verdict != Verdict::Unknown {
                        for (j, m) in self.monitors.iter().enumerate() {
                            if j != i && reports[j].is_none() {
                                m.interrupt.store(true, Ordering::SeqCst);
                                ended.stopped[j] = true;
                            }
                        }
                        told = Some(Instant::now());
                    }
                    reports[i] = Some(report);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                // The relay holds a sender: never disconnected.
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        self.sum();
        (reports, ended)
    }

    /// May the next member start? At once without a memory bound; under
    /// one, below [`START_BELOW_PERCENT`] of the bound and, while a member
    /// runs, [`START_EVERY`] after the last start (so that its memory
    /// shows first). With none running there is nothing to wait for: a
    /// member that ended at once (check stopping at an error outside the
    /// property) must not keep the others from starting.
    fn room_to_start(&self, last_start: Option<Instant>, running: bool) -> bool {
        let Some(max) = self.limits.max_memory else {
            return true;
        };
        let Some(last) = last_start else {
            return true;
        };
        if running && last.elapsed() < START_EVERY {
            return false;
        }
        let used = crate::run::resident_bytes().unwrap_or(0) + descendants_resident_bytes();
        used < max / 100 * START_BELOW_PERCENT
    }

    fn stop_all(&self) {
        for m in self.monitors {
            m.interrupt.store(true, Ordering::SeqCst);
        }
    }

    /// The run's counters: the members' summed (bugs: the most any one
    /// found, since they find the same bugs).
    fn sum(&self) {
        let total = |f: fn(&Monitor) -> &AtomicU64| {
            self.monitors
                .iter()
                .map(|m| f(m).load(Ordering::Relaxed))
                .sum::<u64>()
        };
        let m = self.monitor;
        m.pending.store(total(|m| &m.pending), Ordering::Relaxed);
        m.states.store(total(|m| &m.states), Ordering::Relaxed);
        m.solver_queries
            .store(total(|m| &m.solver_queries), Ordering::Relaxed);
        let bugs = self
            .monitors
            .iter()
            .map(|m| m.bugs.load(Ordering::Relaxed))
            .max()
            .unwrap_or(0);
        m.bugs.store(bugs, Ordering::Relaxed);
    }
}

/// The portfolio's report from the members' (`None`: left behind).
fn finish(
    members: &[Member],
    mut reports: Vec<Option<Report>>,
    ended: Ended,
    start: Instant,
) -> PortfolioRun {
    let outcomes: Vec<MemberOutcome> = members
        .iter()
        .zip(&reports)
        .enumerate()
        .map(|(i, (m, r))| MemberOutcome {
            engine: m.name(),
            verdict: r.as_ref().map_or(Verdict::Unknown, |r| r.verdict),
            incomplete: r
                .as_ref()
                .map_or_else(|| vec![Incomplete::Interrupted], |r| r.incomplete.clone()),
            elapsed: ended.at[i].unwrap_or_else(Instant::now) - start,
            stopped: ended.stopped[i],
            abandoned: r.is_none(),
            not_started: ended.not_started[i],
        })
        .map(|mut o: MemberOutcome| {
            // Members the relay stopped at the memory bound say
            // `interrupted`: the reason is the bound.
            if ended.out_of_memory {
                for i in &mut o.incomplete {
                    if *i == Incomplete::Interrupted {
                        *i = Incomplete::MaxMemory;
                    }
                }
                o.incomplete.dedup();
            }
            o
        })
        .collect();
    // The first definitive answer to arrive.
    let winner = (0..members.len())
        .filter(|&i| outcomes[i].verdict != Verdict::Unknown)
        .min_by_key(|&i| ended.at[i]);
    // Workers still inside a step, the members' own and the members
    // left behind: the process must not wait for them at its exit.
    let abandoned = reports
        .iter()
        .map(|r| r.as_ref().map_or(1, |r| r.stats.abandoned_workers))
        .sum();
    let faults: Vec<String> = reports
        .iter()
        .flatten()
        .flat_map(|r| r.internal_errors.iter().cloned())
        .collect();
    let disagreement = disagreement(&outcomes);
    let mut report = match winner {
        Some(w) => reports[w].take().expect("the winner's report"),
        None => {
            let mut incomplete: Vec<Incomplete> = outcomes
                .iter()
                .flat_map(|o| o.incomplete.iter().copied())
                .collect();
            incomplete.sort();
            incomplete.dedup();
            let mut places: Vec<_> = reports
                .iter()
                .flatten()
                .flat_map(|r| r.unchecked_places.iter().copied())
                .collect();
            places.sort_by_key(|&(kind, span)| (span, kind));
            places.dedup();
            let first = reports.iter_mut().find_map(Option::take);
            let mut report = first.unwrap_or_else(|| Report::empty(Verdict::Unknown, Extra::Symex));
            report.incomplete = incomplete;
            report.unchecked_places = places;
            report.internal_errors.clear();
            report
        }
    };
    for e in faults {
        if !report.internal_errors.contains(&e) {
            report.internal_errors.push(e);
        }
    }
    let mut answered_by = winner.map(|w| outcomes[w].engine);
    if let Some(msg) = disagreement {
        report.verdict = Verdict::Unknown;
        report.incomplete.push(Incomplete::InternalError);
        report.internal_errors.push(msg);
        answered_by = None;
    }
    report.stats.elapsed = start.elapsed();
    report.stats.abandoned_workers = abandoned;
    PortfolioRun {
        report,
        answered_by,
        members: outcomes,
    }
}

/// The internal error of two members that answered differently, if any.
fn disagreement(outcomes: &[MemberOutcome]) -> Option<String> {
    let says = |v: Verdict| outcomes.iter().find(|o| o.verdict == v);
    let (bug, safe) = (says(Verdict::Bug)?, says(Verdict::Safe)?);
    Some(format!(
        "internal error: the engines disagree: `{}` found a bug (replayed) and `{}` says the \
         program is safe; one of them is wrong — please report this program",
        bug.engine, safe.engine
    ))
}

/// The report of a member that could not run.
fn internal(member: &Member, msg: String) -> Report {
    let mut r = Report::empty(Verdict::Unknown, extra_of(member));
    r.incomplete.push(Incomplete::InternalError);
    r.internal_errors.push(msg);
    r
}

/// The report of a member whose engine panicked.
fn failed(member: &Member, panic: &(dyn std::any::Any + Send)) -> Report {
    let what = panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())
        .unwrap_or("a panic");
    internal(
        member,
        format!(
            "internal error: the {} engine failed: {what}",
            member.name()
        ),
    )
}

fn extra_of(member: &Member) -> Extra {
    match member {
        Member::Symex => Extra::Symex,
        Member::Bmc(b) => Extra::Bmc { bound: b.unwind },
        Member::Prove | Member::KInduction => Extra::Prove(Box::default()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ended(n: usize) -> Ended {
        let now = Instant::now();
        Ended {
            at: (0..n)
                .map(|i| Some(now + Duration::from_millis(i as u64)))
                .collect(),
            stopped: vec![false; n],
            not_started: vec![false; n],
            out_of_memory: false,
        }
    }

    #[test]
    fn two_definitive_answers_that_differ_are_an_internal_error() {
        let members = [Member::Symex, Member::Prove];
        let reports = vec![
            Some(Report::empty(Verdict::Bug, Extra::Symex)),
            Some(Report::empty(Verdict::Safe, Extra::Prove(Box::default()))),
        ];
        let run = finish(&members, reports, ended(2), Instant::now());
        assert_eq!(run.report.verdict, Verdict::Unknown);
        assert_eq!(run.answered_by, None);
        assert!(run.report.incomplete.contains(&Incomplete::InternalError));
        assert!(
            run.report.internal_errors[0].contains("`check` found a bug")
                && run.report.internal_errors[0].contains("`prove` says"),
            "{:?}",
            run.report.internal_errors
        );
    }

    #[test]
    fn the_first_definitive_answer_is_taken_and_the_same_answers_agree() {
        let members = [Member::Symex, Member::deepening_bmc(), Member::Prove];
        let reports = vec![
            Some(Report::empty(Verdict::Unknown, Extra::Symex)),
            Some(Report::empty(Verdict::Safe, Extra::Bmc { bound: 3 })),
            Some(Report::empty(Verdict::Safe, Extra::Prove(Box::default()))),
        ];
        let run = finish(&members, reports, ended(3), Instant::now());
        assert_eq!(run.report.verdict, Verdict::Safe);
        assert_eq!(run.answered_by, Some("bmc"));
        assert_eq!(run.report.bmc_bound(), Some(3));
        assert!(run.report.internal_errors.is_empty());
    }

    #[test]
    fn without_an_answer_every_reason_is_kept_and_a_lost_member_is_named() {
        let members = [Member::Symex, Member::Prove];
        let mut timed_out = Report::empty(Verdict::Unknown, Extra::Symex);
        timed_out.incomplete.push(Incomplete::Timeout);
        let reports = vec![Some(timed_out), None];
        let run = finish(&members, reports, ended(2), Instant::now());
        assert_eq!(run.report.verdict, Verdict::Unknown);
        assert_eq!(
            run.report.incomplete,
            [Incomplete::Timeout, Incomplete::Interrupted]
        );
        assert!(run.members[1].abandoned && !run.members[0].abandoned);
        assert_eq!(run.report.stats.abandoned_workers, 1);
    }
}
