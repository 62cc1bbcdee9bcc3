//! The one supervisor of every engine.
//!
//! A driver waits for its workers (or computes) in slices of at most
//! [`TICK`] and calls [`Watch::poll`] between them: the interrupt switch
//! and the clock are read at every call, the memory every [`TICK`]. When
//! the run must end (a limit, or the engine itself: first bug, state
//! limit), every solver process is stopped at once, so no worker stays in
//! a query, and the driver waits at most [`GRACE`] more. A worker still
//! inside one slow step after that (a huge integer, a long replay) is
//! left to finish alone: it owns what it uses, and it stops at its next
//! poll. So a run with a time limit `T` returns within `T` plus about a
//! quarter of a second, and an interrupt ends it as quickly, with what
//! was found so far.

use super::limits::Limits;
use super::solvers::Solvers;
use crate::report::Incomplete;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often the supervisor looks at the memory, and the longest a driver
/// waits between two looks at the limits.
pub(crate) const TICK: Duration = Duration::from_millis(10);

/// How long the supervisor waits for workers once the run must end.
pub const GRACE: Duration = Duration::from_millis(250);

/// What the driver does after a [`Watch::poll`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Poll {
    /// Keep waiting for the workers.
    Wait,
    /// The run ended [`GRACE`] ago: stop waiting; the workers still busy
    /// are abandoned.
    Abandon,
}

/// The supervisor's state for one run.
pub(crate) struct Watch<'a> {
    limits: &'a Limits,
    solvers: &'a Solvers,
    next_memory: Instant,
    stopping_since: Option<Instant>,
}

impl<'a> Watch<'a> {
    /// Watches a run under `limits` whose solvers are `solvers`.
    pub fn new(limits: &'a Limits, solvers: &'a Solvers) -> Watch<'a> {
        Watch {
            limits,
            solvers,
            next_memory: Instant::now(),
            stopping_since: None,
        }
    }

    /// Looks at the run: calls `halt` with the limit that ends it, if one
    /// does; once `stopped()` says it ended (for that limit or the
    /// engine's own reason), stops every solver process, and [`GRACE`]
    /// later says to abandon the workers still busy.
    pub fn poll(&mut self, halt: impl FnOnce(Incomplete), stopped: impl FnOnce() -> bool) -> Poll {
        let now = Instant::now();
        match self.stopping_since {
            None => {
                let memory = now >= self.next_memory;
                if memory {
                    self.next_memory = now + TICK;
                }
                let solvers = self.solvers;
                if let Some(why) = self.limits.reached(memory, || solvers.resident_bytes()) {
                    halt(why);
                }
                if stopped() {
                    self.stopping_since = Some(now);
                    self.solvers.stop_all();
                }
                Poll::Wait
            }
            Some(t) if now - t >= GRACE => Poll::Abandon,
            Some(_) => Poll::Wait,
        }
    }
}

/// The stop reasons a [`Watcher`] can give, as one byte (0: none).
const REASONS: [Incomplete; 3] = [
    Incomplete::Interrupted,
    Incomplete::Timeout,
    Incomplete::MaxMemory,
];

/// A [`Watch`] on a thread of its own, for an engine that computes on the
/// calling thread (`bmc`, `concolic`): it stops the solver processes when
/// the run must end, and the engine reads [`Watcher::stopped`] (one
/// atomic load) in its loops.
pub(crate) struct Watcher {
    reason: Arc<AtomicU8>,
    done: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watcher {
    /// Starts watching a run under `limits` whose solvers are `solvers`.
    pub fn start(limits: Limits, solvers: Arc<Solvers>) -> Watcher {
        let reason = Arc::new(AtomicU8::new(0));
        let done = Arc::new(AtomicBool::new(false));
        let (r, d) = (reason.clone(), done.clone());
        let thread = std::thread::Builder::new()
            .name("wiser-watch".into())
            .spawn(move || {
                let mut watch = Watch::new(&limits, &solvers);
                while !d.load(Ordering::Relaxed) {
                    let halt = |why: Incomplete| {
                        let code = REASONS.iter().position(|&x| x == why).map_or(0, |i| i + 1);
                        let _ =
                            r.compare_exchange(0, code as u8, Ordering::SeqCst, Ordering::SeqCst);
                    };
                    if watch.poll(halt, || r.load(Ordering::SeqCst) != 0) == Poll::Wait
                        && r.load(Ordering::SeqCst) != 0
                    {
                        // The solvers are stopped: nothing more to watch.
                        return;
                    }
                    std::thread::sleep(TICK);
                }
            });
        // Without a thread (the system refused one) only the solvers'
        // own deadline still holds: the run goes on unwatched.
        Watcher {
            reason,
            done,
            thread: thread.ok(),
        }
    }

    /// The limit that ended the run, if one did.
    pub fn stopped(&self) -> Option<Incomplete> {
        match self.reason.load(Ordering::Relaxed) {
            0 => None,
            i => REASONS.get(usize::from(i) - 1).copied(),
        }
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
