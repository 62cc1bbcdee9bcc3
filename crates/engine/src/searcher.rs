//! Search strategies: which state of the frontier to step next.
//!
//! As in KLEE, the explorer keeps the states (in an arena) and a searcher
//! keeps only their ids, behind a narrow trait. Breadth-first is WiSE's
//! strategy and is complete: every reachable state is taken after finitely
//! many steps. Depth-first is not: it can follow one infinite path forever.

use std::collections::VecDeque;

/// The id of a state in the explorer's arena.
pub type StateId = usize;

/// A search strategy over state ids.
pub trait Searcher: Send {
    /// Adds a state to the frontier.
    fn push(&mut self, id: StateId);
    /// Removes and returns the state to step next.
    fn pop(&mut self) -> Option<StateId>;
    /// The number of states in the frontier.
    fn len(&self) -> usize;
    /// Is the frontier empty?
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The strategy's name, as the CLI spells it.
    fn name(&self) -> &'static str;
    /// Removes a state for another worker to take (work stealing): the one
    /// whose subtree this searcher would reach last. By default the one
    /// `pop` would return.
    fn steal(&mut self) -> Option<StateId> {
        self.pop()
    }
}

/// First in, first out: WiSE's complete breadth-first search.
#[derive(Default)]
pub struct BreadthFirst(VecDeque<StateId>);

impl Searcher for BreadthFirst {
    fn push(&mut self, id: StateId) {
        self.0.push_back(id);
    }
    fn pop(&mut self) -> Option<StateId> {
        self.0.pop_front()
    }
    fn len(&self) -> usize {
        self.0.len()
    }
    fn name(&self) -> &'static str {
        "bfs"
    }
}

/// Last in, first out: depth-first search (DART's; incomplete).
#[derive(Default)]
pub struct DepthFirst(VecDeque<StateId>);

impl Searcher for DepthFirst {
    fn push(&mut self, id: StateId) {
        self.0.push_back(id);
    }
    fn pop(&mut self) -> Option<StateId> {
        self.0.pop_back()
    }
    /// The oldest state: the root of the largest pending subtree.
    fn steal(&mut self) -> Option<StateId> {
        self.0.pop_front()
    }
    fn len(&self) -> usize {
        self.0.len()
    }
    fn name(&self) -> &'static str {
        "dfs"
    }
}

/// The strategies the CLI offers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Strategy {
    /// Breadth-first (complete).
    #[default]
    Bfs,
    /// Depth-first (incomplete).
    Dfs,
}

impl Strategy {
    /// A fresh searcher of this strategy.
    pub fn searcher(self) -> Box<dyn Searcher> {
        match self {
            Strategy::Bfs => Box::<BreadthFirst>::default(),
            Strategy::Dfs => Box::<DepthFirst>::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders() {
        let mut b = Strategy::Bfs.searcher();
        let mut d = Strategy::Dfs.searcher();
        for i in 0..3 {
            b.push(i);
            d.push(i);
        }
        assert_eq!((b.pop(), d.pop()), (Some(0), Some(2)));
        assert_eq!((b.len(), d.len()), (2, 2));
        assert_eq!((b.name(), d.name()), ("bfs", "dfs"));
        assert_eq!(d.steal(), Some(0));
    }
}
