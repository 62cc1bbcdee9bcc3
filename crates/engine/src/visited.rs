//! States already explored, for programs with threads.
//!
//! Two interleavings of steps that commute reach the same state: the
//! scheduler's partial-order reduction skips most of them, and this set
//! skips the rest (and every interleaving of `--por off`), so each state
//! of a concurrent program is expanded once, and spin loops that come back
//! to a state they were in end (explicit-state model checking). A state is
//! known by a 128-bit fingerprint of everything its future depends on: the
//! threads' positions, frames and status, globals, arrays and fields,
//! locks, the heap counters, the number of reads, the sleep set, the
//! preemptions (when they are bounded) and the path condition (as a set
//! of conjuncts). Two states with equal fingerprints are taken to be the
//! same; a collision (probability about n² / 2¹²⁹ for n states) could
//! only lose a state.

use crate::symbolic::SymArray;
use crate::witness::SymState;
use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Mutex;
use wiser_semantics::Frame;
use wiser_smt::Term;

/// The fingerprints of the states expanded so far, shared by the workers
/// of one run.
#[derive(Default)]
pub struct Visited {
    seen: Mutex<HashSet<u128>>,
}

impl Visited {
    /// Records `state`; false when an equal state was recorded before.
    pub fn insert(&self, state: &SymState, bounded_switches: bool) -> bool {
        let key = fingerprint(state, bounded_switches);
        self.seen
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key)
    }

    /// How many states were recorded.
    pub fn len(&self) -> usize {
        self.seen.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Was nothing recorded?
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Two independent 64-bit hashes of the same data.
struct Hash2(DefaultHasher, DefaultHasher);

impl Hash2 {
    fn new() -> Hash2 {
        let mut b = DefaultHasher::new();
        0x9e37_79b9_7f4a_7c15u64.hash(&mut b);
        Hash2(DefaultHasher::new(), b)
    }

    fn add<T: Hash + ?Sized>(&mut self, v: &T) {
        v.hash(&mut self.0);
        v.hash(&mut self.1);
    }

    fn finish(&self) -> u128 {
        (u128::from(self.0.finish()) << 64) | u128::from(self.1.finish())
    }
}

fn frame(h: &mut Hash2, f: &Frame<Term>) {
    h.add(&(f.proc, f.ret, f.dst));
    h.add(&f.locals);
}

fn array(h: &mut Hash2, a: &SymArray) {
    a.hash_into(&mut h.0);
    a.hash_into(&mut h.1);
}

/// The fingerprint of `state` (see the module documentation).
pub fn fingerprint(state: &SymState, bounded_switches: bool) -> u128 {
    let mut h = Hash2::new();
    h.add(&(state.pc, state.reads, state.heap));
    for (field, object) in state.heap_reads.iter() {
        h.add(&(field, object));
    }
    frame(&mut h, &state.frame);
    h.add(&state.callers.len());
    for f in state.callers.iter() {
        frame(&mut h, f);
    }
    if let Some(th) = &state.threads {
        h.add(&(th.current, th.atomic, th.sleep, th.all.len()));
        if bounded_switches {
            h.add(&th.preemptions);
        }
        for (t, other) in th.all.iter().enumerate() {
            h.add(&other.done);
            if t as u32 == th.current || other.done {
                continue;
            }
            h.add(&other.pc);
            frame(&mut h, &other.frame);
            h.add(&other.callers.len());
            for f in other.callers.iter() {
                frame(&mut h, f);
            }
        }
    }
    h.add(&state.globals[..]);
    for a in state.arrays.iter() {
        array(&mut h, a);
    }
    h.add(&state.path.unknown);
    h.add(&state.path.fingerprint());
    h.finish()
}
