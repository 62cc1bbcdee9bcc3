//! The limits of a run and the live counters that report on it.

use super::memory::resident_bytes;
use crate::config::Config;
use crate::report::Incomplete;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Live counters of a run, readable from another thread (for a progress
/// display), and the switch that interrupts it.
#[derive(Debug, Default)]
pub struct Monitor {
    /// States that exist: waiting or being expanded, plus what the
    /// workers reserved ahead (at most 128 each; see `parallel.rs`).
    pub pending: AtomicU64,
    /// States taken so far (flushed in batches of 64 per worker); runs
    /// made, for fuzzing.
    pub states: AtomicU64,
    /// Bugs confirmed so far.
    pub bugs: AtomicU64,
    /// Queries that reached Z3 so far (flushed with `states`).
    pub solver_queries: AtomicU64,
    /// Set from outside (on Ctrl-C or a termination signal) to end the
    /// run early; the report then keeps what was found and says
    /// `interrupted`.
    pub interrupt: AtomicBool,
    /// Set by the supervisor once the run has used
    /// [`MEMORY_PRESSURE_PERCENT`] of `--max-memory`: a search then keeps
    /// its frontier from growing ([`crate::searcher::Searcher::press`]).
    pub memory_pressure: AtomicBool,
}

impl Monitor {
    /// A monitor with all counters at zero.
    pub fn new() -> Monitor {
        Monitor::default()
    }
}

/// The part of `--max-memory` a run lets itself reach before it stops (in
/// percent): the supervisor looks every 10 ms, and what the
/// process allocates between two looks, and while the workers wind down,
/// must still fit under the bound.
const MEMORY_HEADROOM_PERCENT: u64 = 85;

/// The part of `--max-memory` (in percent) past which a search keeps its
/// frontier from growing: half, so that what it does from then on (a
/// depth-first dive, whose states are few but whose paths are long, and
/// the slower growth of its fair pops) has room before the run stops at
/// `MEMORY_HEADROOM_PERCENT` (85).
pub const MEMORY_PRESSURE_PERCENT: u64 = 50;

/// What a run may use: the time, the memory, and the interrupt switch.
#[derive(Clone, Debug)]
pub struct Limits {
    /// When the run must end.
    pub deadline: Option<Instant>,
    /// The bound on the resident memory of the process and its solver
    /// processes, in bytes.
    pub max_memory: Option<u64>,
    /// The interrupt switch (and the counters).
    pub monitor: Arc<Monitor>,
}

impl Limits {
    /// The limits `config` sets for a run that started at `start`.
    pub fn new(config: &Config, start: Instant, monitor: Arc<Monitor>) -> Limits {
        Limits {
            deadline: config.timeout.and_then(|t| start.checked_add(t)),
            max_memory: config.max_memory,
            monitor,
        }
    }

    /// Which limit, if any, says the run must end now: the interrupt
    /// switch, the deadline, or (when `memory` is true: reading it costs a
    /// system call) the memory bound, counting `other_bytes()` (its
    /// solver processes') with this process's resident memory. Reading
    /// the memory also sets the monitor's `memory_pressure` past
    /// [`MEMORY_PRESSURE_PERCENT`] of the bound.
    pub fn reached(&self, memory: bool, other_bytes: impl FnOnce() -> u64) -> Option<Incomplete> {
        if self.monitor.interrupt.load(Ordering::Relaxed) {
            Some(Incomplete::Interrupted)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Incomplete::Timeout)
        } else if memory && self.over_memory(other_bytes) {
            Some(Incomplete::MaxMemory)
        } else {
            None
        }
    }

    /// Is the memory of the process and `other_bytes()` at the bound
    /// itself (not only at the part of it a run lets itself reach)?
    pub fn over_bound(&self, other_bytes: impl FnOnce() -> u64) -> bool {
        self.max_memory
            .is_some_and(|max| resident_bytes().unwrap_or(0) + other_bytes() >= max)
    }

    fn over_memory(&self, other_bytes: impl FnOnce() -> u64) -> bool {
        let Some(max) = self.max_memory else {
            return false;
        };
        let used = resident_bytes().unwrap_or(0) + other_bytes();
        if used >= max / 100 * MEMORY_PRESSURE_PERCENT {
            self.monitor.memory_pressure.store(true, Ordering::Relaxed);
        }
        used >= max / 100 * MEMORY_HEADROOM_PERCENT
    }
}
