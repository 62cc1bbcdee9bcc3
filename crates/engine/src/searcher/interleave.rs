//! A strategy and breadth-first search in turn (KLEE's interleaved
//! searcher, with breadth-first as the second): every [`BFS_EVERY`]-th pop
//! takes the oldest pending state, the others are the strategy's. This
//! restores WiSE's completeness whatever the strategy does: a state with
//! `m` older states pending when it was pushed is taken within
//! `BFS_EVERY * (m + 1)` pops, since each turn of breadth-first takes the
//! oldest state and no state pushed later is older.
//!
//! Both orders hold every pending state. The strategy is told when
//! breadth-first takes one of its states ([`Searcher::remove`]); the
//! breadth-first queue is not told when the strategy takes one: the
//! state's serial goes into a set of departed states and is skipped (and
//! forgotten) when it reaches the front. Serials, not ids, because the
//! arena reuses ids. The queue is compacted when departed entries
//! outnumber the live ones, so it stays within twice the frontier.

use super::{Info, Searcher, Serial, StateId};
use rustc_hash::FxHashSet;
use std::collections::VecDeque;

/// One pop in this many takes the oldest state.
pub const BFS_EVERY: u32 = 2;

/// A strategy interleaved with breadth-first search (complete).
#[repr(align(128))] // A worker's own cache lines: see `frontier::Pool`.
pub struct Interleaved {
    main: Box<dyn Searcher>,
    name: &'static str,
    fifo: VecDeque<(Serial, StateId)>,
    /// States in `fifo` that `main` took already.
    departed: FxHashSet<Serial>,
    /// The serial of each pending state, by id.
    serial_of: Vec<Serial>,
    turn: u32,
}

impl Interleaved {
    /// `main` in turn with breadth-first search, called `name`.
    pub fn new(main: Box<dyn Searcher>, name: &'static str) -> Interleaved {
        Interleaved {
            main,
            name,
            fifo: VecDeque::new(),
            departed: FxHashSet::default(),
            serial_of: Vec::new(),
            turn: 0,
        }
    }

    fn oldest(&mut self) -> Option<StateId> {
        while let Some((serial, id)) = self.fifo.pop_front() {
            if !self.departed.remove(&serial) {
                return Some(id);
            }
        }
        None
    }

    /// `main` took (or gave away) `id`.
    fn depart(&mut self, id: StateId) {
        self.departed.insert(self.serial_of[id]);
        if self.departed.len() > 64 && self.departed.len() > self.fifo.len() / 2 {
            let departed = std::mem::take(&mut self.departed);
            self.fifo.retain(|(s, _)| !departed.contains(s));
        }
    }
}

impl Searcher for Interleaved {
    fn push(&mut self, id: StateId, info: Info) {
        self.main.push(id, info);
        self.fifo.push_back((info.serial, id));
        if self.serial_of.len() <= id {
            self.serial_of.resize(id + 1, 0);
        }
        self.serial_of[id] = info.serial;
    }

    fn pop(&mut self) -> Option<StateId> {
        self.turn += 1;
        if self.turn >= BFS_EVERY {
            self.turn = 0;
            let id = self.oldest()?;
            self.main.remove(id);
            return Some(id);
        }
        let id = self.main.pop()?;
        self.depart(id);
        Some(id)
    }

    fn remove(&mut self, id: StateId) {
        if self.serial_of.get(id).is_some() {
            let before = self.main.len();
            self.main.remove(id);
            if self.main.len() < before {
                self.depart(id);
            }
        }
    }

    /// What the strategy would reach last.
    fn steal(&mut self) -> Option<StateId> {
        let id = self.main.steal()?;
        self.depart(id);
        Some(id)
    }

    fn len(&self) -> usize {
        self.main.len()
    }

    fn name(&self) -> &'static str {
        self.name
    }
}
