//! The run layer under every engine: what a run may use and how it is
//! stopped, shared by `check`, `bmc`, `concolic` and `fuzz` (each engine
//! is a sibling above it, and none reaches into another's modules).
//!
//! * [`Limits`]: the deadline, the memory bound (this process plus its
//!   solver processes) and the interrupt switch of a [`Monitor`] (Ctrl-C,
//!   SIGTERM), and the one test of whether a run must end;
//! * [`Watch`]: the one supervisor step — looks at the limits, ends every
//!   solver query at once when the run must end, and says when to stop
//!   waiting for workers still inside one slow step ([`GRACE`]);
//!   [`supervise_one`] runs an engine that is one computation (`bmc`,
//!   `concolic`) on a worker under it, with a [`StopSwitch`] to read;
//! * [`spawn_worker`] and [`lock`]: worker threads (one stack size) and
//!   locks that a panicking worker does not poison;
//! * [`Solvers`]: the solver chain of each worker, built in one place.

mod limits;
mod memory;
mod solvers;
mod watch;

pub use limits::{Limits, Monitor, MEMORY_PRESSURE_PERCENT};
pub use memory::{descendants_resident_bytes, peak_resident_bytes, resident_bytes};
pub(crate) use solvers::Solvers;
pub use watch::GRACE;
pub(crate) use watch::{supervise_one, Poll, StopSwitch, Watch, TICK};

use std::sync::{Mutex, MutexGuard};

/// Each worker's stack: term walks of bounded depth recurse.
const WORKER_STACK: usize = 64 << 20;

/// Starts a worker thread named `name` with the workers' stack size.
pub(crate) fn spawn_worker<F>(name: String, f: F) -> std::io::Result<std::thread::JoinHandle<()>>
where
    F: FnOnce() + Send + 'static,
{
    std::thread::Builder::new()
        .name(name)
        .stack_size(WORKER_STACK)
        .spawn(f)
}

/// Locks `m`, whether or not a worker panicked while holding it: every
/// lock of the engines guards one push or one sum, which a panic does not
/// leave half done.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
