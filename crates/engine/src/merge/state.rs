//! When two symbolic states may merge, and the merge itself.

use crate::path::PathCond;
use crate::symbolic::{SymArray, Symbolic};
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use wiser_semantics::{Frame, Locals, Stack, State, Status};
use wiser_smt::Term;

/// What a policy's path does in a merge.
pub trait JoinPath: Clone {
    /// Can a state with this path merge with one with `other` (beyond
    /// being at the same place)? Bounded model checking, for one, merges
    /// only states that have unwound each loop as often.
    fn joinable(&self, other: &Self) -> bool {
        let _ = other;
        true
    }

    /// Feeds what [`JoinPath::joinable`] compares to a hasher.
    fn hash_joinable<H: Hasher>(&self, h: &mut H) {
        let _ = h;
    }

    /// The disjunction of the two paths, and a formula that holds on the
    /// inputs of the first path and on none of the second's (the guard of
    /// the `ite`s the merged values become).
    fn join(&self, other: &Self) -> (Self, Term);
}

impl JoinPath for PathCond {
    fn join(&self, other: &Self) -> (Self, Term) {
        let joined = PathCond::join(self, other);
        (joined.path, joined.first_only)
    }
}

/// A symbolic state with path information `P`.
pub type MState<P> = State<Symbolic, P>;

fn same_frame_place<V>(a: &Frame<V>, b: &Frame<V>) -> bool {
    a.proc == b.proc && a.ret == b.ret && a.dst == b.dst && a.call_site == b.call_site
}

/// Are two running states at the same place (instruction, call stack,
/// number of reads), with paths that may merge?
pub fn same_place<P: JoinPath>(a: &MState<P>, b: &MState<P>) -> bool {
    a.status == Status::Running
        && b.status == Status::Running
        && a.pc == b.pc
        && a.reads == b.reads
        && a.heap == b.heap
        && a.heap_reads.ptr_eq(&b.heap_reads)
        // Threads are scheduled, not merged: their interleavings differ
        // in more than values.
        && a.threads.is_none()
        && b.threads.is_none()
        && a.callers.len() == b.callers.len()
        && same_frame_place(&a.frame, &b.frame)
        && (a.callers.ptr_eq(&b.callers)
            || a.callers
                .iter()
                .zip(b.callers.iter())
                .all(|(x, y)| same_frame_place(x, y)))
        && a.path.joinable(&b.path)
}

/// A hash of what [`same_place`] compares.
pub fn place_hash<P: JoinPath>(s: &MState<P>) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (s.pc, s.reads, s.callers.len()).hash(&mut h);
    for f in std::iter::once(&s.frame).chain(s.callers.iter()) {
        (f.proc, f.ret, f.dst, f.call_site).hash(&mut h);
    }
    s.path.hash_joinable(&mut h);
    h.finish()
}

/// The position of a state for a topological order, compared
/// lexicographically: for each caller, outermost first, just before its
/// return point (`2 * rank(ret) - 1`: after the call, before anything the
/// caller does after it), then the current instruction (`2 * rank(pc)`).
/// Along every forward edge of every routine the position increases, so a
/// state that has reached the end of an `if` comes after every state
/// still inside it, and a state in a callee before its caller's next one.
pub fn position<P>(cfg: &wiser_ir::Cfg, s: &MState<P>) -> Vec<u64> {
    let mut key: Vec<u64> = s
        .callers
        .iter()
        .map(|f| (2 * u64::from(cfg.rank(f.ret))).saturating_sub(1))
        .collect();
    key.reverse();
    key.push(2 * u64::from(cfg.rank(s.pc)));
    key
}

/// Merges `b` into `a` (which must be at the same place: [`same_place`]).
pub fn merge<P: JoinPath>(a: MState<P>, b: &MState<P>) -> MState<P> {
    let (path, guard) = a.path.join(&b.path);
    let callers = if a.callers.ptr_eq(&b.callers) {
        a.callers.clone()
    } else {
        let outer: Vec<Frame<Term>> = a
            .callers
            .iter()
            .zip(b.callers.iter())
            .map(|(x, y)| merge_frame(x, y, &guard))
            .collect();
        outer
            .into_iter()
            .rev()
            .fold(Stack::new(), |stack, f| stack.push(f))
    };
    State {
        pc: a.pc,
        frame: merge_frame(&a.frame, &b.frame, &guard),
        callers,
        globals: merge_values(&a.globals, &b.globals, &guard),
        arrays: merge_arrays(&a.arrays, &b.arrays, &guard),
        path,
        reads: a.reads,
        // A replay of either path takes at most this many steps.
        steps: a.steps.max(b.steps),
        status: a.status,
        // After a merge the path is no longer one sequence of decisions:
        // the trail keeps those both paths share.
        trail: a.trail.diverge(&b.trail).0,
        heap: a.heap,
        heap_reads: a.heap_reads.clone(),
        threads: None,
    }
}

fn merge_frame(a: &Frame<Term>, b: &Frame<Term>, guard: &Term) -> Frame<Term> {
    Frame {
        locals: merge_locals(&a.locals, &b.locals, guard),
        ..a.clone()
    }
}

fn merge_values(a: &Arc<Vec<Term>>, b: &Arc<Vec<Term>>, guard: &Term) -> Arc<Vec<Term>> {
    if a == b {
        return a.clone();
    }
    merge_each(a, b, |x, y| Term::ite(guard, x, y))
}

fn merge_locals(a: &Locals<Term>, b: &Locals<Term>, guard: &Term) -> Locals<Term> {
    if a == b {
        return a.clone();
    }
    Locals::new(
        a.iter()
            .zip(b.iter())
            .map(|(x, y)| Term::ite(guard, x, y))
            .collect(),
    )
}

fn merge_arrays(
    a: &Arc<Vec<SymArray>>,
    b: &Arc<Vec<SymArray>>,
    guard: &Term,
) -> Arc<Vec<SymArray>> {
    merge_each(a, b, |x, y| SymArray::ite(guard, x, y))
}

/// `a` if it is `b` (shared since the fork), else `merge` of each pair.
fn merge_each<T>(a: &Arc<Vec<T>>, b: &Arc<Vec<T>>, merge: impl Fn(&T, &T) -> T) -> Arc<Vec<T>> {
    if Arc::ptr_eq(a, b) {
        return a.clone();
    }
    Arc::new(a.iter().zip(b.iter()).map(|(x, y)| merge(x, y)).collect())
}
