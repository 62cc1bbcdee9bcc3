//! Per-query time limits without Z3's own timer.
//!
//! Z3 4.8.12 (Debian's libz3) can deadlock in its timer when a `timeout`
//! fires as a check ends (seen here with 1 ms limits: the worker blocks on
//! a mutex inside Z3 while Z3's timer thread waits forever). So no `timeout`
//! parameter is given to Z3; instead one watchdog thread per solver calls
//! `Z3_interrupt` when a check runs past its deadline. Z3 documents
//! `Z3_interrupt` as callable from another thread; it only affects the
//! check in progress, which then answers unknown.
//!
//! Z3 may ignore an interrupt: one that arrives just before a check
//! installs its handler is lost, and some phases do not poll for it. So the
//! watchdog insists: while a check runs past its deadline, it interrupts
//! again every [`REPEAT`] until the check returns.
//!
//! The deadline is set and cleared under a mutex that the watchdog also
//! holds while it interrupts, and it interrupts only while a deadline is
//! set and past, so an interrupt can never reach a later check.

use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// How often an overdue check is interrupted again.
const REPEAT: Duration = Duration::from_millis(5);

struct Shared {
    state: Mutex<State>,
    wake: Condvar,
}

struct State {
    /// The Z3 context to interrupt (a `Z3_context` pointer).
    context: usize,
    /// When the current check must stop, if one is running.
    deadline: Option<Instant>,
    /// Set when the solver is dropped.
    shutdown: bool,
    /// Is the watchdog waiting with no deadline (so that only a
    /// notification wakes it)?
    idle: bool,
    /// When the watchdog, waiting with a timeout, wakes by itself.
    sleeping_until: Option<Instant>,
}

/// Interrupts the checks of one Z3 context that run past their deadline.
pub(crate) struct Watchdog {
    shared: Arc<Shared>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watchdog {
    /// A watchdog for the Z3 context `context` (a `Z3_context` pointer).
    pub fn new(context: z3_sys::Z3_context) -> Watchdog {
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                context: context.as_ptr() as usize,
                deadline: None,
                shutdown: false,
                idle: true,
                sleeping_until: None,
            }),
            wake: Condvar::new(),
        });
        let watched = shared.clone();
        let thread = std::thread::Builder::new()
            .name("z3-watchdog".into())
            .spawn(move || watch(&watched))
            .ok();
        Watchdog { shared, thread }
    }

    /// Runs `check` with the deadline `deadline` (none: no limit).
    pub fn guard<T>(&self, deadline: Option<Instant>, check: impl FnOnce() -> T) -> T {
        if deadline.is_none() || self.thread.is_none() {
            return check();
        }
        self.set(deadline);
        let result = check();
        self.set(None);
        result
    }

    /// Sets or clears the deadline. The watchdog is woken only when it
    /// would otherwise wake too late: when it waits with no deadline, or
    /// until a time after the new deadline. Otherwise it wakes by itself,
    /// finds the new deadline (or none) and waits again. This keeps the
    /// watchdog off the CPU for queries that end in time: clearing a
    /// deadline never wakes it.
    fn set(&self, deadline: Option<Instant>) {
        let mut state = self.shared.state.lock().unwrap_or_else(|e| e.into_inner());
        state.deadline = deadline;
        if let Some(d) = deadline {
            if state.idle || state.sleeping_until.is_some_and(|s| d < s) {
                self.shared.wake.notify_one();
            }
        }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        {
            let mut state = self.shared.state.lock().unwrap_or_else(|e| e.into_inner());
            state.shutdown = true;
            self.shared.wake.notify_one();
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn watch(shared: &Shared) {
    let mut state = shared.state.lock().unwrap_or_else(|e| e.into_inner());
    while !state.shutdown {
        let Some(d) = state.deadline else {
            state.idle = true;
            state = shared.wake.wait(state).unwrap_or_else(|e| e.into_inner());
            state.idle = false;
            continue;
        };
        let now = Instant::now();
        let wake_at = if now >= d {
            // SAFETY: the context outlives the watchdog (the solver that
            // owns both drops the watchdog first), and a check is running:
            // the deadline is cleared, under this lock, as soon as it
            // returns.
            if let Some(ctx) = std::ptr::NonNull::new(state.context as *mut _) {
                unsafe { z3_sys::Z3_interrupt(ctx) };
            }
            // Again soon, unless the check returns (and the deadline is
            // cleared) meanwhile: Z3 may not have heard this one.
            now + REPEAT
        } else {
            d
        };
        state.sleeping_until = Some(wake_at);
        state = shared
            .wake
            .wait_timeout(state, wake_at.saturating_duration_since(now))
            .unwrap_or_else(|e| e.into_inner())
            .0;
        state.sleeping_until = None;
    }
}
