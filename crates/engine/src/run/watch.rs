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
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often the supervisor looks at the memory, and the longest a driver
/// waits between two looks at the limits.
pub(crate) const TICK: Duration = Duration::from_millis(10);

/// How long the supervisor waits for workers once the run must end.
pub const GRACE: Duration = Duration::from_millis(250);

/// How often the supervisor looks at the memory of a run that is ending
/// under a memory bound: a worker still in one step may go on allocating
/// fast, and is not waited for past the bound.
const STOPPING_TICK: Duration = Duration::from_millis(1);

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

    /// How long the driver may wait before the next [`Watch::poll`].
    pub fn wait(&self) -> Duration {
        if self.stopping_since.is_some() && self.limits.max_memory.is_some() {
            STOPPING_TICK
        } else {
            TICK
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
            // A worker that goes on allocating after the end (one step
            // building a huge term) is not waited for past the bound.
            Some(_) if now >= self.next_memory => {
                self.next_memory = now + STOPPING_TICK;
                let solvers = self.solvers;
                if self.limits.over_bound(|| solvers.resident_bytes()) {
                    Poll::Abandon
                } else {
                    Poll::Wait
                }
            }
            Some(_) => Poll::Wait,
        }
    }
}

/// The stop reasons a [`StopSwitch`] holds, as one byte (0: none).
const REASONS: [Incomplete; 3] = [
    Incomplete::Interrupted,
    Incomplete::Timeout,
    Incomplete::MaxMemory,
];

/// The switch the supervisor sets when a limit ends the run, with the
/// limit: the engine reads it in its loops (one atomic load).
#[derive(Debug, Default)]
pub(crate) struct StopSwitch {
    reason: AtomicU8,
    /// Set with `reason`, for code that polls a plain switch.
    flag: AtomicBool,
}

impl StopSwitch {
    /// Ends the run for `why` (the first reason stays).
    pub fn set(&self, why: Incomplete) {
        let code = REASONS.iter().position(|&x| x == why).map_or(0, |i| i + 1);
        let _ = self
            .reason
            .compare_exchange(0, code as u8, Ordering::SeqCst, Ordering::SeqCst);
        self.flag.store(true, Ordering::SeqCst);
    }

    /// The limit that ended the run, if one did.
    pub fn reason(&self) -> Option<Incomplete> {
        match self.reason.load(Ordering::Relaxed) {
            0 => None,
            i => REASONS.get(usize::from(i) - 1).copied(),
        }
    }

    /// The plain switch.
    pub fn flag(&self) -> &AtomicBool {
        &self.flag
    }
}

/// Runs `work` on a worker thread and supervises it from the calling
/// thread, for an engine whose work is one computation (`bmc`,
/// `concolic`): when a limit ends the run, `stop` is set and the solver
/// processes stopped; `None` if the worker was still busy [`GRACE`] later
/// (it is left to finish alone: it owns what it uses) or panicked.
pub(crate) fn supervise_one<R: Send + 'static>(
    limits: &Limits,
    solvers: &Solvers,
    stop: &StopSwitch,
    work: impl FnOnce() -> R + Send + 'static,
) -> Option<R> {
    let (send, answer) = std::sync::mpsc::channel();
    // The work waits here until a thread takes it: if none can be
    // started, this thread does it, unsupervised.
    let slot = Arc::new(Mutex::new(Some(work)));
    let theirs = slot.clone();
    let started = super::spawn_worker("wiser-worker-0".into(), move || {
        if let Some(work) = super::lock(&theirs).take() {
            let _ = send.send(work());
        }
    });
    if started.is_err() {
        return super::lock(&slot).take().map(|work| work());
    }
    let mut watch = Watch::new(limits, solvers);
    loop {
        match answer.recv_timeout(watch.wait()) {
            Ok(r) => return Some(r),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return None,
        }
        if watch.poll(|why| stop.set(why), || stop.reason().is_some()) == Poll::Abandon {
            return None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::run::Monitor;
    use std::sync::atomic::Ordering;
    use std::time::Duration;

    fn limits(config: &Config) -> (Limits, Solvers) {
        let start = Instant::now();
        let limits = Limits::new(config, start, Arc::new(Monitor::new()));
        (limits, Solvers::new(config, None))
    }

    #[test]
    fn a_worker_stuck_in_one_step_is_abandoned_a_grace_after_the_deadline() {
        let config = Config::default().with_timeout(Some(Duration::from_millis(50)));
        let (limits, solvers) = limits(&config);
        let stop = StopSwitch::default();
        let start = Instant::now();
        // A step that never looks at the switch.
        let done = supervise_one(&limits, &solvers, &stop, || {
            std::thread::sleep(Duration::from_secs(5));
            1
        });
        assert_eq!(done, None);
        assert_eq!(stop.reason(), Some(Incomplete::Timeout));
        let took = start.elapsed();
        assert!(took >= Duration::from_millis(50) + GRACE, "{took:?}");
        assert!(
            took < Duration::from_millis(50) + GRACE + Duration::from_secs(2),
            "{took:?}"
        );
    }

    #[test]
    fn a_worker_that_polls_the_switch_ends_with_its_answer_on_an_interrupt() {
        let config = Config::default().with_timeout(None);
        let (limits, solvers) = limits(&config);
        let monitor = limits.monitor.clone();
        let stop = Arc::new(StopSwitch::default());
        let theirs = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(30));
            monitor.interrupt.store(true, Ordering::SeqCst);
        });
        let done = supervise_one(&limits, &solvers, &stop, move || {
            let mut polls = 0u64;
            while !theirs.flag().load(Ordering::SeqCst) {
                polls += 1;
                std::thread::sleep(Duration::from_millis(1));
            }
            polls
        });
        assert!(done.is_some_and(|polls| polls > 0));
        assert_eq!(stop.reason(), Some(Incomplete::Interrupted));
    }

    #[test]
    fn the_memory_bound_is_looked_at() {
        // One byte: reached at the first look.
        let config = Config::default().with_max_memory(Some(1));
        let (limits, solvers) = limits(&config);
        let mut watch = Watch::new(&limits, &solvers);
        let mut why = None;
        assert_eq!(watch.poll(|w| why = Some(w), || false), Poll::Wait);
        assert_eq!(why, Some(Incomplete::MaxMemory));
    }
}
