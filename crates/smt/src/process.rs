//! Z3 in child processes, which the parent can kill at any moment.
//!
//! Z3 4.8.12 does not always cooperate with time limits: some queries
//! ignore `Z3_interrupt` for seconds while allocating gigabytes, and Z3 has
//! been seen to crash. A [`ProcessSolver`] therefore runs its Z3 in a child
//! process that serves [`crate::protocol`] ([`crate::serve`]), waits for
//! each answer no longer than the query's limit plus a small margin, and
//! kills the child when that passes; a crash is an `unknown` answer, never
//! the parent's end. The child's own watchdog normally answers `unknown`
//! first, so the child and its incremental state usually survive.
//!
//! All children of a run are entered in one [`SolverProcesses`] registry,
//! which can kill them all at once (Ctrl-C, the run's deadline) and
//! measures their memory (for `--max-memory`).

use crate::child::{ChildProcess, Stop};
use crate::protocol::{self, Response};
use crate::solver::{Answer, Solver, SolverStats};
use crate::term::Term;
use rustc_hash::{FxHashMap, FxHashSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long past a query's limit the parent waits before it kills the
/// child: the child's watchdog should answer `unknown` at the limit, and
/// this covers a Z3 that ignores its interrupts.
const MARGIN: Duration = Duration::from_millis(100);

/// How long a new child may take to say it is ready.
const STARTUP: Duration = Duration::from_secs(5);

/// A child that holds more term nodes than this is replaced: the parent's
/// table of sent nodes (which keeps those terms alive) and the child's
/// would otherwise grow for the whole run. The same bound as `Z3Solver`'s
/// translation cache, which holds terms the same way.
const MAX_NODES: usize = 1 << 20;

/// The answer of every query once [`SolverProcesses::kill_all`] was called.
pub(crate) const RUN_OVER: &str = "the run is over";

/// How to start a solver process: an executable that serves the protocol
/// on its standard input and output ([`crate::serve`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The executable (`wiser` re-executes itself).
    pub program: PathBuf,
    /// Its arguments (for `wiser`: `__solver-server`).
    pub args: Vec<String>,
    /// A bound on the child's address space (`RLIMIT_AS`), in bytes: Z3
    /// then gives up, or the child dies, rather than exceed it.
    pub memory_limit: Option<u64>,
}

/// The live solver processes of a run, shared by all its workers (a cheap
/// clone).
#[derive(Clone, Default)]
pub struct SolverProcesses {
    shared: Arc<Registry>,
}

#[derive(Default)]
struct Registry {
    /// Set by `kill_all`; read without the lock on every query.
    over: AtomicBool,
    /// The pids of the children that may be signalled: entered after
    /// spawning, removed before reaping.
    live: Mutex<FxHashSet<u32>>,
}

impl SolverProcesses {
    /// An empty registry.
    pub fn new() -> SolverProcesses {
        SolverProcesses::default()
    }

    /// Kills every child at once (SIGKILL). Afterwards no child is
    /// started, and every query answers `Unknown("the run is over")` at
    /// once; a query waiting for its child returns as soon as the child's
    /// pipe closes. The owners reap their children.
    pub fn kill_all(&self) {
        let live = self.live();
        // Under the lock, so that no child is entered after this.
        self.shared.over.store(true, Ordering::SeqCst);
        for &pid in live.iter() {
            // SAFETY: `pid` is a child of this process that has not been
            // reaped (it leaves the registry, under this lock, before it
            // is), so it names that child and no other process.
            unsafe {
                libc::kill(pid as libc::pid_t, libc::SIGKILL);
            }
        }
    }

    /// The sum of the children's resident memory, in bytes.
    pub fn resident_bytes(&self) -> u64 {
        self.live()
            .iter()
            .map(|&pid| crate::child::resident_bytes(pid))
            .sum()
    }

    /// Has `kill_all` been called?
    pub(crate) fn is_over(&self) -> bool {
        self.shared.over.load(Ordering::SeqCst)
    }

    /// Enters a new child; false (and not entered) if the run is over.
    pub(crate) fn register(&self, pid: u32) -> bool {
        let mut live = self.live();
        if self.is_over() {
            return false;
        }
        live.insert(pid);
        true
    }

    /// Removes a child that is about to be reaped.
    pub(crate) fn deregister(&self, pid: u32) {
        self.live().remove(&pid);
    }

    fn live(&self) -> std::sync::MutexGuard<'_, FxHashSet<u32>> {
        // A panic elsewhere while holding the lock leaves the set intact.
        self.shared.live.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A [`Solver`] that runs Z3 in a child process (one per solver, started
/// on the first query and again after it ended), which it kills when a
/// query runs past its limit. Decides exactly what [`crate::Z3Solver`]
/// decides, with the same incremental stack kept in the child.
///
/// Two assumptions about the parent: SIGPIPE is ignored (Rust programs
/// ignore it by default), so that writing to a dead child is an error and
/// not the parent's death; and a solver is used by the thread that
/// queries it first (as each worker uses its own chain), since
/// `PR_SET_PDEATHSIG` kills a child when the thread that started it ends
/// (a child killed that way is found dead and replaced before the next
/// query).
pub struct ProcessSolver {
    command: Command,
    timeout: Option<Duration>,
    deadline: Option<Instant>,
    processes: SolverProcesses,
    child: Option<ChildProcess>,
    /// The nodes the current child has, with their ids.
    sent: FxHashMap<Term, u32>,
    /// The frames of the current query.
    out: Vec<u8>,
    /// Children started so far.
    started: u64,
    /// Queries the current child has answered.
    answered: u64,
    /// Did the last query end because the child ended?
    crashed: bool,
    /// The children's work (from their answers) and our own counts.
    stats: SolverStats,
}

impl ProcessSolver {
    /// A solver whose children run `command`, entered in `processes`;
    /// `timeout` bounds each query.
    pub fn new(
        command: Command,
        timeout: Option<Duration>,
        processes: &SolverProcesses,
    ) -> ProcessSolver {
        ProcessSolver {
            command,
            timeout,
            deadline: None,
            processes: processes.clone(),
            child: None,
            sent: FxHashMap::default(),
            out: Vec::new(),
            started: 0,
            answered: 0,
            crashed: false,
            stats: SolverStats::default(),
        }
    }

    /// Kills and reaps the child, if any, and forgets what it was sent.
    fn stop_child(&mut self) -> String {
        let status = self.child.take().and_then(|mut c| c.stop());
        self.sent.clear();
        self.answered = 0;
        match status {
            Some(s) => s.to_string(),
            None => "status unknown".into(),
        }
    }

    /// Starts a child and waits until it is ready (not charged to the
    /// query's time limit, but never past the run's deadline).
    fn start_child(&mut self) -> Result<(), String> {
        self.stop_child();
        let mut child = ChildProcess::spawn(&self.command, &self.processes)?;
        self.started += 1;
        if self.started > 1 {
            self.stats.solver_restarts += 1;
        }
        let until = min_time(
            Instant::now().checked_add(STARTUP),
            self.deadline.and_then(|d| d.checked_add(MARGIN)),
        );
        let ready = child
            .read_frame(until)
            .and_then(|frame| protocol::read_response(&frame).map_err(Stop::Protocol));
        match ready {
            Ok(Response::Ready(protocol::VERSION)) => {
                self.child = Some(child);
                Ok(())
            }
            Ok(Response::Ready(v)) => Err(format!(
                "the solver process speaks protocol version {v}, not {}",
                protocol::VERSION
            )),
            Ok(other) => Err(format!("the solver process did not start: {other:?}")),
            Err(_) if self.processes.is_over() => Err(RUN_OVER.into()),
            Err(Stop::TimedOut) => Err("the solver process did not start in time".into()),
            Err(Stop::Closed) => Err(format!(
                "the solver process ended as it started ({})",
                child
                    .stop()
                    .map_or("status unknown".into(), |s| s.to_string())
            )),
            Err(Stop::Io(e)) => Err(format!("the solver process did not start: {e}")),
            Err(Stop::Protocol(e)) => Err(format!("the solver process did not start: {e}")),
        }
    }

    /// Asks the child; the stats are the child's work, when it answered.
    fn ask(&mut self, constraints: &[Term]) -> (Answer, Option<SolverStats>) {
        let unknown = |why: String| (Answer::Unknown(why), None);
        if self.processes.is_over() {
            self.stop_child();
            return unknown(RUN_OVER.into());
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return unknown("the run's deadline has passed".into());
        }
        if self.sent.len() > MAX_NODES
            || self.child.as_ref().is_some_and(|c| !c.is_idle_and_alive())
        {
            self.stop_child();
        }
        if self.child.is_none() {
            if let Err(why) = self.start_child() {
                return unknown(why);
            }
        }
        let start = Instant::now();
        // A time too far off for the clock is no limit.
        let limit = min_time(
            self.timeout.and_then(|t| start.checked_add(t)),
            self.deadline,
        );
        let budget = limit.map(|l| l.saturating_duration_since(start));
        self.out.clear();
        let processes = &self.processes;
        let over = || processes.is_over() || limit.is_some_and(|l| Instant::now() >= l);
        if let Err(e) =
            protocol::put_query(&mut self.out, constraints, &mut self.sent, budget, &over)
        {
            // `sent` may now list nodes the child never got.
            self.stop_child();
            return unknown(e.to_string());
        }
        let until = limit.and_then(|l| l.checked_add(MARGIN));
        let Some(child) = self.child.as_mut() else {
            return unknown("no solver process".into());
        };
        let response = child
            .write_all(&self.out, until)
            .and_then(|()| child.read_frame(until))
            .and_then(|frame| protocol::read_response(&frame).map_err(Stop::Protocol));
        let why = match response {
            Ok(Response::Answer(answer, stats)) => {
                // The child checked its model; this guards the transfer.
                if let Answer::Sat(m) = &answer {
                    if !constraints.iter().all(|c| m.holds(c)) {
                        self.stop_child();
                        let mut stats = *stats;
                        stats.z3_sat = stats.z3_sat.saturating_sub(1);
                        stats.z3_unknown += 1;
                        let why = "the solver process's model does not satisfy the query";
                        return (Answer::Unknown(why.into()), Some(stats));
                    }
                }
                self.answered += 1;
                return (answer, Some(*stats));
            }
            Ok(Response::Error(e)) => format!("the solver process failed: {e}"),
            Ok(other) => format!("the solver process answered {other:?}"),
            Err(Stop::TimedOut) => {
                self.stop_child();
                return unknown(format!(
                    "the solver process was stopped after {:.3}s",
                    start.elapsed().as_secs_f64()
                ));
            }
            Err(_) if self.processes.is_over() => RUN_OVER.into(),
            Err(Stop::Closed) => {
                let status = self.stop_child();
                self.crashed = true;
                return unknown(format!("the solver process ended ({status})"));
            }
            Err(Stop::Io(e)) => format!("the solver process's pipe failed: {e}"),
            Err(Stop::Protocol(e)) => e.to_string(),
        };
        self.stop_child();
        unknown(why)
    }
}

fn min_time(a: Option<Instant>, b: Option<Instant>) -> Option<Instant> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

impl Solver for ProcessSolver {
    fn solve(&mut self, constraints: &[Term]) -> Answer {
        let mut start = Instant::now();
        let seasoned = self.child.is_some() && self.answered > 0;
        self.crashed = false;
        let (mut answer, mut child_stats) = self.ask(constraints);
        // A child that ends on a query after answering others may have
        // been broken by an earlier one (Z3 that ran out of memory exits
        // on its next call): the query gets one more try on a new child.
        // A new child that ends on it is the query's own doing.
        if self.crashed && seasoned {
            self.stats.z3_time += start.elapsed();
            start = Instant::now();
            (answer, child_stats) = self.ask(constraints);
        }
        match child_stats {
            Some(s) => self.stats.add(&s),
            // Not answered by a child: counted here, so that every query
            // is one of sat, unsat and unknown; the time is the wait.
            None => {
                self.stats.z3_queries += 1;
                self.stats.z3_unknown += 1;
                self.stats.z3_time += start.elapsed();
            }
        }
        answer
    }

    fn stats(&self, out: &mut SolverStats) {
        out.add(&self.stats);
    }

    fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    fn deadline(&self) -> Option<Instant> {
        self.deadline
    }
}
