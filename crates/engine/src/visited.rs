//! States already explored, so that equal states are expanded once.
//!
//! **Programs with threads.** Two interleavings of steps that commute
//! reach the same state: the scheduler's partial-order reduction skips
//! most of them, and this set skips the rest (and every interleaving of
//! `--por off`), so each state of a concurrent program is expanded once,
//! and spin loops that come back to a state they were in end
//! (explicit-state model checking). A state is known by a 128-bit
//! fingerprint of everything its future depends on: the threads'
//! positions, frames and status, globals, arrays and fields, locks, the
//! heap counters, the number of reads, the sleep set, the preemptions
//! (when they are bounded) and the path condition (as a set of
//! conjuncts).
//!
//! **Sequential programs.** A reactive loop (`while (1) { input = *;
//! step(input); }`, as in SV-COMP's ECA and locks tasks) reads a fresh
//! input on every iteration and so never ends; each path differs from the
//! others in its path condition, but often the state it comes back to
//! does not. At a loop head, a state is matched on its live locals (of
//! every frame), globals, arrays and heap counters, and on the slice of
//! its path condition that shares symbols with them, directly or through
//! other conjuncts (KLEE's constraint independence, `PathCond::slice`).
//! The rest of the path condition speaks only of inputs that no value
//! holds any more; it is satisfiable (the path is feasible), and every
//! future constraint is over the state's symbols and fresh reads, so the
//! whole condition is satisfiable alongside a future constraint exactly
//! when the slice is. Two states equal in this sense have the same
//! futures, and the second is not expanded: its bugs are the first's
//! (found on a path of their own, which replays as every bug does), and a
//! search that ends having skipped only such states is still exhaustive.
//! When every value is a constant the slice is empty. Dead slots are left
//! out, so the previous iteration's input, about to be overwritten, does
//! not make states differ; and so are faint ones ([`wiser_ir::liveness`]:
//! a counter that only feeds itself, with no check that could fail). Only the
//! heads of loops that read an input (or call a routine) are compared: a
//! loop that reads nothing and comes back to a state never ends anyway.
//! A loop whose states never repeat (a counter) gains nothing, so a head
//! gives up after [`GIVE_UP_AFTER`] states, or [`GIVE_UP_WORK`] units of
//! work (values hashed, term nodes walked, constraints sliced), with no
//! match; at most
//! [`MAX_KEYS`] fingerprints are kept (then only looked up), and states
//! whose values or path conditions are large are not compared.
//!
//! Two states with equal fingerprints are taken to be the same; a
//! collision (probability about n² / 2¹²⁹ for n states) could only lose a
//! state.

use crate::symbolic::SymArray;
use crate::witness::SymState;
use std::collections::{HashMap, HashSet};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use wiser_ir::cfg::predecessors;
use wiser_ir::liveness::Liveness;
use wiser_ir::{Cfg, Instr, Ir, Pc};
use wiser_semantics::Frame;
use wiser_smt::Term;

/// Fingerprints a sequential run keeps at most (16 bytes each, plus the
/// set's overhead: about 40 MB); beyond them, states are only looked up.
pub const MAX_KEYS: usize = 1 << 20;

/// A loop head whose first this many states matched none is no longer
/// matched. Breadth-first, the first iteration of a loop that branches on
/// 14 inputs held from before it (SV-COMP's `test_locks_13`) brings 2^14
/// distinct states before the second brings the first match.
pub const GIVE_UP_AFTER: u32 = 1 << 16;

/// A loop head whose fingerprints cost this much work (globals and array
/// cells hashed, term nodes walked, constraints times symbols sliced)
/// without a match is no longer matched: a loop filling an array of
/// thousands of cells stops paying for it within a few hundredths of a
/// second.
pub const GIVE_UP_WORK: u64 = 1 << 22;

/// Arrays holding more cells than this in all are not compared (hashing
/// them at every iteration would cost more than it saves).
const MAX_CELLS: usize = 1 << 16;

/// The fingerprints of the states expanded so far, shared by the workers
/// of one run.
pub struct Visited {
    seen: Mutex<Seen>,
    /// States found equal to one recorded before (not expanded).
    revisited: AtomicU64,
    /// For a sequential program, where and how states are matched;
    /// `None` for a program with threads.
    loops: Option<Box<Loops>>,
}

#[derive(Default)]
struct Seen {
    keys: HashSet<u128>,
    /// For a sequential program: how many states were compared at each
    /// loop head, how many matched, and the work it took.
    heads: HashMap<Pc, Head>,
}

#[derive(Default, Clone, Copy)]
struct Head {
    tries: u32,
    hits: u32,
    work: u64,
}

impl Head {
    fn gave_up(self) -> bool {
        self.hits == 0 && (self.tries >= GIVE_UP_AFTER || self.work >= GIVE_UP_WORK)
    }
}

struct Loops {
    /// By pc: are states compared here? At first, the heads of loops
    /// that read an input ([`reading_loop_heads`]); a head that gives up
    /// is cleared (read without the lock).
    heads: Vec<AtomicBool>,
    live: Liveness,
}

impl Visited {
    /// An empty set for `ir`'s states.
    pub fn new(ir: &Ir) -> Visited {
        Visited {
            seen: Mutex::new(Seen::default()),
            revisited: AtomicU64::new(0),
            loops: (!ir.threaded).then(|| {
                Box::new(Loops {
                    heads: reading_loop_heads(ir)
                        .into_iter()
                        .map(AtomicBool::new)
                        .collect(),
                    live: Liveness::strong(ir),
                })
            }),
        }
    }

    fn seen(&self) -> std::sync::MutexGuard<'_, Seen> {
        self.seen.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Records `state`; false when an equal state was recorded before
    /// (see the module documentation for what a sequential program's
    /// states are compared on, and where).
    pub fn insert(&self, state: &SymState, bounded_switches: bool) -> bool {
        let new = self.insert_unless_seen(state, bounded_switches);
        if !new {
            self.revisited.fetch_add(1, Ordering::Relaxed);
        }
        new
    }

    /// How many states were found equal to one recorded before.
    pub fn revisited(&self) -> u64 {
        self.revisited.load(Ordering::Relaxed)
    }

    fn insert_unless_seen(&self, state: &SymState, bounded_switches: bool) -> bool {
        let Some(loops) = &self.loops else {
            let key = fingerprint(state, bounded_switches);
            return self.seen().keys.insert(key);
        };
        let compared = &loops.heads[state.pc as usize];
        if state.threads.is_some() || !compared.load(Ordering::Relaxed) {
            return true;
        }
        let (key, work) = head_fingerprint(state, &loops.live);
        let mut seen = self.seen();
        // A state too large to compare counts as a miss (and its work).
        let new = match key {
            None => true,
            Some(key) if seen.keys.len() < MAX_KEYS => seen.keys.insert(key),
            Some(key) => !seen.keys.contains(&key),
        };
        let head = seen.heads.entry(state.pc).or_default();
        head.tries = head.tries.saturating_add(1);
        head.work = head.work.saturating_add(work);
        head.hits = head.hits.saturating_add(u32::from(!new));
        if head.gave_up() {
            compared.store(false, Ordering::Relaxed);
        }
        new
    }

    /// How many states were recorded.
    pub fn len(&self) -> usize {
        self.seen().keys.len()
    }

    /// Was nothing recorded?
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// By pc: is it the head of a loop whose body reads an input or calls a
/// routine (which may)? Only such a loop can come back to a state it was
/// in and still go on differently; a loop that reads nothing and comes
/// back to a state never ends, and one that does not (a counter) would
/// pay for comparisons that never match. The body of the loop at `h` is
/// every instruction that reaches a back edge into `h` without passing
/// through `h` (its natural loop).
fn reading_loop_heads(ir: &Ir) -> Vec<bool> {
    let cfg = Cfg::new(ir);
    let n = ir.code.len();
    let preds = predecessors(ir);
    let reads = |pc: Pc| {
        matches!(
            ir.at(pc).instr,
            Instr::Havoc { .. } | Instr::Call { .. } | Instr::Spawn { .. }
        )
    };
    let mut heads = vec![false; n];
    let mut mark = vec![u32::MAX; n];
    for h in 0..n as Pc {
        if !cfg.is_loop_head(h) {
            continue;
        }
        // Backwards from the sources of the back edges into `h`.
        let mut todo: Vec<Pc> = preds[h as usize]
            .iter()
            .copied()
            .filter(|&p| cfg.is_back_edge(p, h))
            .collect();
        let mut found = reads(h);
        while let Some(pc) = todo.pop() {
            if found {
                break;
            }
            if pc == h || mark[pc as usize] == h {
                continue;
            }
            mark[pc as usize] = h;
            found = reads(pc);
            todo.extend(preds[pc as usize].iter().copied());
        }
        heads[h as usize] = found;
    }
    heads
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

/// The fingerprint of a sequential program's `state` at a loop head (see
/// the module documentation): its live locals, globals, arrays and heap
/// counters, and the part of its path condition that speaks of the
/// symbols they hold (`None` when that is too large to be worth it); and
/// the work it took.
fn head_fingerprint(state: &SymState, live: &Liveness) -> (Option<u128>, u64) {
    let mut symbols = Symbols::default();
    let key = head_key(state, live, &mut symbols);
    (key, symbols.work)
}

fn head_key(state: &SymState, live: &Liveness, symbols: &mut Symbols) -> Option<u128> {
    let mut h = Hash2::new();
    h.add(&(state.pc, state.heap, state.path.unknown));
    // Each frame resumes where the frame above it returns to.
    let mut at = state.pc;
    for f in std::iter::once(&state.frame).chain(state.callers.iter()) {
        h.add(&(f.proc, f.ret, f.dst));
        for (slot, v) in f.locals.iter().enumerate() {
            if live.is_live(at, slot as u32) {
                symbols.add(v)?;
                h.add(&(slot, v));
            }
        }
        at = f.ret;
    }
    symbols.work += state.globals.len() as u64;
    for v in state.globals.iter() {
        symbols.add(v)?;
    }
    h.add(&state.globals[..]);
    for (object_field, object) in state.heap_reads.iter() {
        symbols.add(object)?;
        h.add(&(object_field, object));
    }
    let cells: usize = state.arrays.iter().map(SymArray::cells).sum();
    symbols.work += (state.arrays.len() + cells) as u64;
    if cells > MAX_CELLS {
        return None;
    }
    for a in state.arrays.iter() {
        for t in a.parts() {
            symbols.add(t)?;
        }
        // One pass of a fast hasher over the cells (a term's hash is a
        // 64-bit value computed when it was made, so a second hasher adds
        // little here, and the cells are most of the work).
        let mut fx = rustc_hash::FxHasher::default();
        a.hash_into(&mut fx);
        h.add(&fx.finish());
    }
    if !symbols.vars.is_empty() {
        // The conjuncts that share symbols with the state, directly or
        // through others (the rest speak only of inputs no value holds,
        // and are satisfiable alongside any future), as a set.
        let constraints = state.path.constraints().take(MAX_CONSTRAINTS + 1).count();
        symbols.work += (constraints * symbols.vars.len()) as u64;
        if constraints > MAX_CONSTRAINTS {
            return None;
        }
        let (slice, _) = state.path.slice(&symbols.vars);
        // Each term of the slice was made for it (a box's set as terms):
        // a set that grows with every iteration makes this the costliest
        // part.
        symbols.work += 16 * slice.len() as u64;
        // As a set: a conjunct added again on a later iteration (the
        // same constraint on a symbol still held) changes nothing.
        let mut each: Vec<u128> = slice
            .iter()
            .map(|t| {
                let mut one = Hash2::new();
                one.add(t);
                one.finish()
            })
            .collect();
        each.sort_unstable();
        each.dedup();
        h.add(&each);
    }
    Some(h.finish())
}

/// Path conditions with more non-bound constraints than this are not
/// sliced (the slice is quadratic in them).
const MAX_CONSTRAINTS: usize = 256;

/// The symbols held by a state's values, up to a bound on the work.
#[derive(Default)]
struct Symbols {
    vars: Vec<Term>,
    /// The sizes of the terms walked so far.
    size: u32,
    /// The work done so far (for [`GIVE_UP_WORK`]).
    work: u64,
}

impl Symbols {
    /// Adds `t`'s symbols; `None` past the bound on the terms' sizes or
    /// on the number of symbols.
    fn add(&mut self, t: &Term) -> Option<()> {
        if t.is_const() {
            return Some(());
        }
        self.size = self.size.saturating_add(t.tree_size());
        self.work += u64::from(t.tree_size().min(4096));
        if self.size > 4096 {
            return None;
        }
        for v in t.vars() {
            if !self.vars.contains(&v) {
                self.vars.push(v);
            }
        }
        (self.vars.len() <= 64).then_some(())
    }
}
