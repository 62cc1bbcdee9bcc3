//! Frontiers: where states wait to be expanded. Every driver takes its
//! order from a [`Searcher`]; the frontier keeps the states themselves in
//! an arena and hands the searcher their ids, with an [`Info`] read from
//! each state ([`Searchable`]).
//!
//! * [`Arena`]: one searcher and its states, for one thread (WiSE's
//!   explorer).
//! * [`Pool`]: one arena per worker, each behind its own mutex (taken
//!   uncontended by its owner on every push and pop), from which idle
//!   workers steal batches chosen by the victim's searcher.

use crate::searcher::{Info, Parent, Search, Searcher, Serial};
use slab::Slab;
use std::sync::Mutex;
use wiser_ir::Pc;
use wiser_semantics::{Algebra, Frozen, State};

/// Where one worker's states wait: an [`Arena`] ordered by a searcher, or
/// a [`crate::merge::MergeFrontier`] that also merges states.
pub trait Frontier<T>: Send {
    /// Adds a state. A `successor` comes from expanding the state popped
    /// last: an arena records that as its parent, and a frontier that
    /// merges may merge it into a waiting state instead, and then says
    /// `true` (one state fewer exists). Other states (initial ones, stolen
    /// ones) are pushed with `successor` false.
    fn push(&mut self, state: T, successor: bool) -> bool;
    /// Removes the state to expand next.
    fn pop(&mut self) -> Option<T>;
    /// Removes a state for another worker.
    fn steal(&mut self) -> Option<T>;
    /// The run has used much of its memory: keep the frontier from
    /// growing where the order allows ([`Searcher::press`]). By default
    /// nothing changes.
    fn press(&mut self) {}
    /// Removes up to `max` states for another process: those with the
    /// fewest decisions on their paths, nearest the root of the tree,
    /// whose subtrees are likely the largest (in a comb, the spine). By
    /// default the states [`Frontier::steal`] gives.
    fn take_shallowest(&mut self, max: usize) -> Vec<T> {
        (0..max).map_while(|_| self.steal()).collect()
    }
    /// The number of waiting states.
    fn len(&self) -> usize;
    /// Is it empty?
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// How many merges it made.
    fn merges(&self) -> u64 {
        0
    }
    /// The states merged into others so far, as they were before the
    /// merge, if the frontier keeps them (for recording paths), and how
    /// many more it did not keep; taken.
    fn take_merged(&mut self) -> (Vec<T>, u64) {
        (Vec::new(), 0)
    }
}

impl<T: Searchable + Send> Frontier<T> for Arena<T>
where
    T::Waiting: Send,
{
    fn push(&mut self, state: T, successor: bool) -> bool {
        if successor {
            Arena::push(self, state);
        } else {
            Arena::adopt(self, state);
        }
        false
    }
    fn pop(&mut self) -> Option<T> {
        Arena::pop(self)
    }
    fn steal(&mut self) -> Option<T> {
        Arena::steal(self)
    }
    fn press(&mut self) {
        self.searcher.press();
    }
    fn take_shallowest(&mut self, max: usize) -> Vec<T> {
        Arena::take_shallowest(self, max)
    }
    fn len(&self) -> usize {
        Arena::len(self)
    }
}

/// What a frontier reads from a state to describe it to its searcher, and
/// the smaller form the state waits in.
pub trait Searchable: Sized {
    /// The state while it waits in an [`Arena`].
    type Waiting;
    /// The state in the form it waits in.
    fn wait(self) -> Self::Waiting;
    /// The state again, as it was when it began to wait.
    fn resume(waiting: Self::Waiting) -> Self;
    /// How many decisions the path of a waiting state took.
    fn waiting_decisions(waiting: &Self::Waiting) -> usize;
    /// The instruction the state executes next.
    fn pc(&self) -> Pc;
    /// Is it stuck on an error?
    fn stuck(&self) -> bool;
    /// How many decisions its path took (where they are recorded).
    fn decisions(&self) -> usize;
}

/// A state that moves to another worker (stolen) takes copies of its own of
/// the parts it shares with every state of its worker. Forking a state
/// clones its reference-counted parts, and a part every state of the run
/// shares (the initial globals, arrays, model, an input's slots) has one
/// count that every core writes at every fork and every end: on 16 cores
/// that cache line held a run of cheap states to 4x one core's. A copy per
/// steal (a few dozen steals a second) keeps each worker's counts on its
/// own lines.
pub trait Unshare {
    /// Copies the parts this state shares with others it will not meet.
    fn unshare(&mut self);
}

/// How many term nodes [`Unshare`] copies at most per state (the values
/// of its frame and globals); larger values stay shared.
const UNSHARE_NODES: usize = 4096;

impl Unshare for crate::witness::SymState {
    fn unshare(&mut self) {
        let mut budget = UNSHARE_NODES;
        let mut copy = |t: &wiser_smt::Term| t.copied(&mut budget);
        self.frame.locals.unshare(&mut copy);
        self.globals = std::sync::Arc::new(self.globals.iter().map(&mut copy).collect());
        self.arrays = std::sync::Arc::new(self.arrays.to_vec());
        self.callers.unshare_top();
        self.trail.unshare_top();
        self.path.unshare();
    }
}

impl<A: Algebra, P> Searchable for State<A, P> {
    type Waiting = Frozen<A, P>;
    fn wait(self) -> Frozen<A, P> {
        self.freeze()
    }
    fn resume(waiting: Frozen<A, P>) -> Self {
        waiting.thaw()
    }
    fn waiting_decisions(waiting: &Frozen<A, P>) -> usize {
        waiting.decisions()
    }
    fn pc(&self) -> Pc {
        self.pc
    }
    fn stuck(&self) -> bool {
        self.error().is_some()
    }
    fn decisions(&self) -> usize {
        self.trail.len()
    }
}

/// The largest frontier [`Arena::take_shallowest`] scans for its
/// shallowest states.
const SCAN_LIMIT: usize = 4096;

/// States waiting in the order of a searcher, each in the form it waits
/// in ([`Searchable::Waiting`]).
///
/// A state pushed after a pop is taken as a successor of the popped state
/// (its [`Info::parent`]): drivers pop a state, expand it and push what the
/// step produced. States that come from elsewhere (stolen from another
/// worker) go in with [`Arena::adopt`].
#[repr(align(128))] // A worker's own cache lines: see `frontier::Pool`.
pub struct Arena<T: Searchable> {
    states: Slab<(T::Waiting, Serial)>,
    searcher: Box<dyn Searcher>,
    next_serial: Serial,
    /// The state popped last.
    last: Option<Parent>,
}

impl<T: Searchable> Arena<T> {
    /// An empty frontier ordered by `searcher` (see [`Search::searcher`]).
    pub fn new(searcher: Box<dyn Searcher>) -> Self {
        Arena {
            states: Slab::new(),
            searcher,
            next_serial: 0,
            last: None,
        }
    }

    fn insert(&mut self, state: T, parent: Option<Parent>) {
        let serial = self.next_serial;
        self.next_serial += 1;
        let info = Info {
            serial,
            pc: state.pc(),
            stuck: state.stuck(),
            parent,
        };
        let id = self.states.insert((state.wait(), serial));
        self.searcher.push(id, info);
    }

    /// Adds a successor of the state popped last (or, before any pop, an
    /// initial state).
    pub fn push(&mut self, state: T) {
        self.insert(state, self.last);
    }

    /// Adds a state that is no successor of the state popped last.
    pub fn adopt(&mut self, state: T) {
        self.insert(state, None);
    }

    /// Removes the state to expand next.
    pub fn pop(&mut self) -> Option<T> {
        self.last = None;
        let id = self.searcher.pop()?;
        let (waiting, serial) = self.states.remove(id);
        let state = T::resume(waiting);
        self.last = Some(Parent {
            serial,
            pc: state.pc(),
        });
        Some(state)
    }

    /// Removes the `max` states with the fewest decisions (see
    /// [`Frontier::take_shallowest`]). Removing a given state from a
    /// breadth- or depth-first searcher is linear, so a frontier of more
    /// than [`SCAN_LIMIT`] states gives the states it would give thieves
    /// instead: its oldest, which depth-first are the shallowest too.
    pub fn take_shallowest(&mut self, max: usize) -> Vec<T> {
        if self.len() > SCAN_LIMIT {
            return (0..max).map_while(|_| self.steal()).collect();
        }
        let mut ids: Vec<(usize, usize)> = self
            .states
            .iter()
            .map(|(id, (s, _))| (T::waiting_decisions(s), id))
            .collect();
        let max = max.min(ids.len());
        if max < ids.len() {
            ids.select_nth_unstable(max);
        }
        ids.truncate(max);
        ids.into_iter()
            .map(|(_, id)| {
                self.searcher.remove(id);
                T::resume(self.states.remove(id).0)
            })
            .collect()
    }

    /// Removes a state for another worker.
    pub fn steal(&mut self) -> Option<T> {
        let id = self.searcher.steal()?;
        Some(T::resume(self.states.remove(id).0))
    }

    /// The number of waiting states.
    pub fn len(&self) -> usize {
        self.searcher.len()
    }

    /// Is it empty?
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The strategy's name.
    pub fn strategy(&self) -> &'static str {
        self.searcher.name()
    }
}

/// At most this many states move in one steal.
const MAX_STEAL: usize = 64;

/// One frontier per worker, with stealing.
pub struct Pool<T> {
    arenas: Vec<Padded<Mutex<Box<dyn Frontier<T>>>>>,
}

/// A value on cache lines of its own (128 bytes: two lines, as adjacent
/// lines are fetched in pairs). A worker locks its arena for every push and
/// pop; unpadded, three arenas' locks shared a line, and every lock was a
/// write that the neighbours' cores had to wait for. The arena and its
/// searcher, allocated one after the other for every worker before the
/// run, are aligned so too: their counters change at every push and pop.
#[repr(align(128))]
struct Padded<T>(T);

impl<T: Searchable + Unshare + Send + 'static> Pool<T>
where
    T::Waiting: Send,
{
    /// A pool of `workers` empty arenas ordered by `search`'s searchers.
    pub fn new(workers: usize, search: &Search) -> Self {
        Pool::with_frontiers(
            (0..workers.max(1))
                .map(|w| Box::new(Arena::new(search.searcher(w))) as Box<dyn Frontier<T>>)
                .collect(),
        )
    }
}

impl<T: Unshare> Pool<T> {
    /// A pool of the given frontiers, one per worker (at least one).
    pub fn with_frontiers(frontiers: Vec<Box<dyn Frontier<T>>>) -> Self {
        assert!(!frontiers.is_empty(), "a pool has at least one frontier");
        Pool {
            arenas: frontiers
                .into_iter()
                .map(|f| Padded(Mutex::new(f)))
                .collect(),
        }
    }

    /// How many merges the frontiers made.
    pub fn merges(&self) -> u64 {
        (0..self.arenas.len()).map(|i| self.arena(i).merges()).sum()
    }

    fn arena(&self, i: usize) -> std::sync::MutexGuard<'_, Box<dyn Frontier<T>>> {
        // A worker that panicked left its arena consistent (every
        // operation is a single push or pop): keep using it.
        self.arenas[i].0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds states to worker `me`'s frontier; returns how many were merged
    /// into waiting states.
    pub fn push_all(&self, me: usize, states: impl IntoIterator<Item = T>) -> u64 {
        let mut a = self.arena(me);
        let mut merged = 0;
        for s in states {
            merged += u64::from(a.push(s, true));
        }
        merged
    }

    /// The next state for worker `me`: from its own arena, else a batch
    /// stolen from another (half of what it holds, at most 64).
    pub fn pop(&self, me: usize) -> Option<T> {
        if let Some(s) = self.arena(me).pop() {
            return Some(s);
        }
        let n = self.arenas.len();
        for k in 1..n {
            let victim = (me + k) % n;
            let stolen: Vec<T> = {
                let mut v = self.arena(victim);
                let take = v.len().div_ceil(2).min(MAX_STEAL);
                (0..take).filter_map(|_| v.steal()).collect()
            };
            if stolen.is_empty() {
                continue;
            }
            let mut own = self.arena(me);
            // Stolen states are no successors of what this worker took
            // last, and are not merged here: the pool's callers count
            // merges only where they push.
            for mut s in stolen {
                s.unshare();
                own.push(s, false);
            }
            return own.pop();
        }
        None
    }

    /// Tells worker `me`'s frontier that the run has used much of its
    /// memory ([`Frontier::press`]).
    pub fn press(&self, me: usize) {
        self.arena(me).press();
    }

    /// Takes up to `max` states, at most half, from worker `me`'s frontier
    /// for elsewhere: those nearest the root.
    pub fn take_for_others(&self, me: usize, max: usize) -> Vec<T> {
        let mut a = self.arena(me);
        let take = (a.len() / 2).min(max);
        a.take_shallowest(take)
    }

    /// Puts back states [`Pool::take_for_others`] took that could not go.
    pub fn put_back(&self, me: usize, states: Vec<T>) {
        let mut a = self.arena(me);
        for s in states {
            a.push(s, false);
        }
    }

    /// The number of waiting states (a snapshot).
    pub fn len(&self) -> usize {
        (0..self.arenas.len()).map(|i| self.arena(i).len()).sum()
    }

    /// Is every arena empty (a snapshot)?
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Hands up to `max` waiting states to `f` (for recording the paths a
    /// cut run left); returns how many more were waiting (left in place).
    pub fn drain(&self, max: usize, mut f: impl FnMut(T)) -> usize {
        let mut given = 0;
        let mut left = 0;
        for i in 0..self.arenas.len() {
            let mut a = self.arena(i);
            while given < max {
                let Some(s) = a.pop() else { break };
                f(s);
                given += 1;
            }
            left += a.len();
        }
        left
    }

    /// The states the frontiers merged into others, as they were before
    /// the merge, and how many more they did not keep (see
    /// [`Frontier::take_merged`]).
    pub fn take_merged(&self) -> (Vec<T>, u64) {
        let mut all = Vec::new();
        let mut dropped = 0;
        for i in 0..self.arenas.len() {
            let (kept, more) = self.arena(i).take_merged();
            all.extend(kept);
            dropped += more;
        }
        (all, dropped)
    }

    /// Drops every waiting state.
    pub fn clear(&self) {
        for i in 0..self.arenas.len() {
            let mut a = self.arena(i);
            while a.pop().is_some() {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Unshare;
    use crate::path::PathCond;
    use crate::symbolic::Symbolic;
    use crate::witness::SymState;
    use std::sync::Arc;
    use wiser_semantics::Frozen;

    #[test]
    fn a_stolen_state_is_equal_and_shares_nothing_counted() {
        let ir = wiser_imp::compile("y = x * 2 + z; assert y != 3").unwrap();
        let mut alg = Symbolic::new();
        let stolen = SymState::initial(&ir, &mut alg, PathCond::new());
        let mut thief = stolen.clone();
        thief.unshare();
        assert!(!Arc::ptr_eq(&thief.globals, &stolen.globals));
        assert!(!Arc::ptr_eq(&thief.arrays, &stolen.arrays));
        let (a, b) = (thief.path.model.unwrap(), stolen.path.model.unwrap());
        assert!(!Arc::ptr_eq(&a, &b));
        assert_eq!(a, b);
        assert_eq!(thief.frame.locals.len(), 3);
        for (mine, theirs) in thief.frame.locals.iter().zip(stolen.frame.locals.iter()) {
            assert_eq!(mine, theirs);
            assert!(!mine.ptr_eq(theirs), "{mine} is shared");
        }
    }

    #[test]
    fn a_symbolic_state_waits_in_112_bytes() {
        // What crates/semantics/src/frozen.rs says, for the state every
        // waiting slot of a wide search holds: its slot is 8 bytes more
        // (the serial), against 192 for a `State` by value.
        assert_eq!(std::mem::size_of::<SymState>(), 184);
        type Waiting = Frozen<crate::symbolic::Symbolic, crate::path::PathCond>;
        assert_eq!(std::mem::size_of::<Waiting>(), 112);
    }
}
