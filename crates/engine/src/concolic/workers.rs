//! The fuzzer's workers: `jobs` threads, each with its own solver chain,
//! that flip decisions and run the children (Run&Check) in parallel.
//!
//! The driver ([`super::fuzz`]) hands out one task per decision to flip
//! and collects one answer per task. Workers own what they use (`Arc`s),
//! so the driver can stop waiting for one stuck in a slow step, as
//! `check`'s supervisor does; a stopped run kills every solver process at
//! once, so no worker stays in a query.

use super::flip::flip;
use super::run::run;
use crate::report::{ConcolicRun, Flip, RunOutcome};
use crate::run::{lock, spawn_worker, Solvers};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;
use wiser_ir::Ir;
use wiser_semantics::{Input, Options};

/// What a worker is asked.
pub(crate) enum Task {
    /// Run this input (the seed).
    Run(Input),
    /// Flip decision `j` of `parent` and run the child.
    Flip {
        /// The parent's run.
        parent: Arc<ConcolicRun>,
        /// The decision.
        j: usize,
    },
}

/// What a task gave.
pub(crate) enum Answer {
    /// A run (of the seed, or of a child), and whether the child's input
    /// needed concretisation.
    Ran(Box<ConcolicRun>, bool),
    /// The other side is infeasible.
    Infeasible,
    /// Undecided even after concretisation: the child is dropped.
    Dropped,
    /// A child was found but the run budget is spent.
    NoBudget,
    /// The session was stopped first.
    Stopped,
}

/// What the workers share.
struct Shared {
    ir: Arc<Ir>,
    options: Options,
    max_steps: u64,
    max_runs: u64,
    /// Runs started (each claims one before it starts).
    claimed: AtomicU64,
    /// Set to stop every worker.
    stop: AtomicBool,
    queue: Mutex<VecDeque<(usize, Task)>>,
    ready: Condvar,
    solvers: Arc<Solvers>,
    /// Flip queries asked.
    queries: AtomicU64,
}

/// Every worker has ended.
#[derive(Debug)]
pub(crate) struct Gone;

/// The workers of one session.
pub(crate) struct Crew {
    shared: Arc<Shared>,
    results: Receiver<(usize, Answer)>,
}

impl Crew {
    /// Starts `jobs` workers (at least one: if no thread can be started,
    /// `None`).
    pub fn start(
        ir: Arc<Ir>,
        jobs: usize,
        solvers: Arc<Solvers>,
        options: Options,
        max_steps: u64,
        max_runs: u64,
    ) -> Option<Crew> {
        let shared = Arc::new(Shared {
            ir,
            options,
            max_steps,
            max_runs,
            claimed: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            queue: Mutex::new(VecDeque::new()),
            ready: Condvar::new(),
            solvers,
            queries: AtomicU64::new(0),
        });
        let (send, results) = channel();
        let mut started = 0;
        for me in 0..jobs.max(1) {
            let (shared, send) = (shared.clone(), send.clone());
            let spawned = spawn_worker(format!("wiser-fuzz-{me}"), move || work(&shared, &send));
            started += usize::from(spawned.is_ok());
        }
        (started > 0).then_some(Crew { shared, results })
    }

    /// Queues task `id`.
    pub fn submit(&self, id: usize, task: Task) {
        lock(&self.shared.queue).push_back((id, task));
        self.shared.ready.notify_one();
    }

    /// The next answer, waiting at most `wait`; `Err` when no worker is
    /// left to answer (every one ended, e.g. by a panic).
    pub fn next(&self, wait: Duration) -> Result<Option<(usize, Answer)>, Gone> {
        match self.results.recv_timeout(wait) {
            Ok(a) => Ok(Some(a)),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err(Gone),
        }
    }

    /// Stops every worker: queued tasks are dropped, solver processes
    /// killed (a query in progress answers unknown), runs stop at their
    /// next poll.
    pub fn stop(&self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        lock(&self.shared.queue).clear();
        self.shared.ready.notify_all();
        self.shared.solvers.stop_all();
    }

    /// Has the session been stopped?
    pub fn stopped(&self) -> bool {
        self.shared.stop.load(Ordering::SeqCst)
    }

    /// The workers' solvers.
    pub fn solvers(&self) -> &Solvers {
        &self.shared.solvers
    }

    /// Flip queries asked so far.
    pub fn queries(&self) -> u64 {
        self.shared.queries.load(Ordering::Relaxed)
    }
}

impl Drop for Crew {
    fn drop(&mut self) {
        self.stop();
    }
}

fn work(shared: &Shared, send: &Sender<(usize, Answer)>) {
    let mut solver = shared.solvers.chain();
    loop {
        let next = {
            let mut queue = lock(&shared.queue);
            loop {
                if shared.stop.load(Ordering::SeqCst) {
                    return;
                }
                if let Some(t) = queue.pop_front() {
                    break t;
                }
                queue = shared
                    .ready
                    .wait_timeout(queue, Duration::from_millis(50))
                    .map_or_else(|e| e.into_inner().0, |r| r.0);
            }
        };
        let (id, task) = next;
        let answer = match task {
            Task::Run(input) => execute(shared, &input, false),
            Task::Flip { parent, j } => {
                shared.queries.fetch_add(1, Ordering::Relaxed);
                match flip(&shared.ir, &parent, j, &mut *solver) {
                    _ if shared.stop.load(Ordering::SeqCst) => Answer::Stopped,
                    Flip::Input { input, concretised } => execute(shared, &input, concretised),
                    Flip::Infeasible => Answer::Infeasible,
                    Flip::Unknown(_) => Answer::Dropped,
                }
            }
        };
        if send.send((id, answer)).is_err() {
            return;
        }
    }
}

/// Run&Check of one input, if the budget allows another run.
fn execute(shared: &Shared, input: &Input, concretised: bool) -> Answer {
    if shared.claimed.fetch_add(1, Ordering::SeqCst) >= shared.max_runs {
        return Answer::NoBudget;
    }
    let ran = run(
        &shared.ir,
        input,
        shared.options,
        shared.max_steps,
        Some(&shared.stop),
    );
    match ran.outcome {
        RunOutcome::Stopped => Answer::Stopped,
        _ => Answer::Ran(Box::new(ran), concretised),
    }
}
