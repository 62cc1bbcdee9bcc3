//! Frontiers: where states wait to be expanded. Every driver takes its
//! order from a [`Searcher`]; the frontier keeps the states themselves in
//! an arena and hands the searcher their ids.
//!
//! * [`Arena`]: one searcher and its states, for one thread (WiSE's
//!   explorer).
//! * [`Pool`]: one arena per worker, each behind its own mutex (taken
//!   uncontended by its owner on every push and pop), from which idle
//!   workers steal batches chosen by the victim's searcher.

use crate::searcher::{Searcher, Strategy};
use slab::Slab;
use std::sync::Mutex;

/// States waiting in the order of a searcher.
pub struct Arena<T> {
    states: Slab<T>,
    searcher: Box<dyn Searcher>,
}

impl<T> Arena<T> {
    /// An empty frontier ordered by `strategy`.
    pub fn new(strategy: Strategy) -> Self {
        Arena {
            states: Slab::new(),
            searcher: strategy.searcher(),
        }
    }

    /// Adds a state.
    pub fn push(&mut self, state: T) {
        let id = self.states.insert(state);
        self.searcher.push(id);
    }

    /// Removes the state to expand next.
    pub fn pop(&mut self) -> Option<T> {
        let id = self.searcher.pop()?;
        Some(self.states.remove(id))
    }

    /// Removes a state for another worker.
    pub fn steal(&mut self) -> Option<T> {
        let id = self.searcher.steal()?;
        Some(self.states.remove(id))
    }

    /// The number of waiting states.
    pub fn len(&self) -> usize {
        self.searcher.len()
    }

    /// Is it empty?
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// At most this many states move in one steal.
const MAX_STEAL: usize = 64;

/// One arena per worker, with stealing.
pub struct Pool<T> {
    arenas: Vec<Mutex<Arena<T>>>,
}

impl<T> Pool<T> {
    /// A pool of `workers` empty arenas ordered by `strategy`.
    pub fn new(workers: usize, strategy: Strategy) -> Self {
        Pool {
            arenas: (0..workers.max(1))
                .map(|_| Mutex::new(Arena::new(strategy)))
                .collect(),
        }
    }

    fn arena(&self, i: usize) -> std::sync::MutexGuard<'_, Arena<T>> {
        // A worker that panicked left its arena consistent (every
        // operation is a single push or pop): keep using it.
        self.arenas[i].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds states to worker `me`'s arena.
    pub fn push_all(&self, me: usize, states: impl IntoIterator<Item = T>) {
        let mut a = self.arena(me);
        for s in states {
            a.push(s);
        }
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
            for s in stolen {
                own.push(s);
            }
            return own.pop();
        }
        None
    }

    /// The number of waiting states (a snapshot).
    pub fn len(&self) -> usize {
        (0..self.arenas.len()).map(|i| self.arena(i).len()).sum()
    }

    /// Is every arena empty (a snapshot)?
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Drops every waiting state.
    pub fn clear(&self) {
        for i in 0..self.arenas.len() {
            let mut a = self.arena(i);
            while a.pop().is_some() {}
        }
    }
}
