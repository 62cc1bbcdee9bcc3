//! Search strategies: which state of the frontier to step next.
//!
//! As in KLEE, the explorer keeps the states (in an arena) and a searcher
//! keeps only their ids, behind a narrow trait: ids in (with a small
//! [`Info`] about each state), ids out. The strategies:
//!
//! | strategy | complete | order |
//! |---|---|---|
//! | `bfs` | yes | oldest first (WiSE's) |
//! | `dfs` | no | newest first |
//! | `random-path` | no | a random walk down the tree of pending states (KLEE's) |
//! | `coverage` | no | nearest to a branch side not yet taken, then oldest |
//! | `random-path+bfs`, `coverage+bfs` | yes | every other pop takes the oldest state |
//!
//! *Complete* is WiSE's Lemma 3.1 (seed 000, §3.3): every pending state is
//! taken after finitely many pops, so every reachable state is eventually
//! expanded and every reachable bug found. Breadth-first takes a state
//! after the states older than it, a finite number; the interleavings
//! ([`Interleaved`]) take the oldest state every second pop, so a state is
//! taken within twice as many pops. Depth-first can follow one infinite
//! path forever; random-path gives a state a chance of at most 2^-depth
//! per pop and no bound on the pops before it is taken (and a
//! pseudo-random sequence promises nothing); coverage-guided search can
//! keep stepping states near a branch side that is never taken (an
//! infeasible side inside an unbounded loop) while older states wait.

mod coverage;
mod interleave;
mod random_path;
#[cfg(test)]
mod tests;

pub use coverage::{BranchCoverage, CoverageGuided};
pub use interleave::{Interleaved, BFS_EVERY};
pub use random_path::RandomPath;

use std::collections::VecDeque;
use std::sync::Arc;
use wiser_ir::{Ir, Pc};

/// The id of a state in the explorer's arena. Ids are reused once their
/// state is removed; [`Serial`]s are not.
pub type StateId = usize;

/// A state's number in the order its frontier received it: unique within
/// the frontier and never reused, so it also says which of two states is
/// older.
pub type Serial = u64;

/// What a searcher learns about a state when it is pushed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Info {
    /// The state's serial number (its age).
    pub serial: Serial,
    /// The instruction the state executes next.
    pub pc: Pc,
    /// Is the state stuck on an error (waiting only to be confirmed)?
    pub stuck: bool,
    /// The state it was stepped from, if it is a successor of the state
    /// its frontier handed out last (a stolen or initial state has none).
    pub parent: Option<Parent>,
}

/// The state a pushed state was stepped from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parent {
    /// Its serial number.
    pub serial: Serial,
    /// Its instruction: with the child's, the edge the step took.
    pub pc: Pc,
}

/// A search strategy over state ids.
pub trait Searcher: Send {
    /// Adds a state to the frontier.
    fn push(&mut self, id: StateId, info: Info);
    /// Removes and returns the state to step next.
    fn pop(&mut self) -> Option<StateId>;
    /// Removes a pending state (KLEE's "removed states"): the combinators
    /// use it when another searcher took the state. Breadth- and
    /// depth-first take linear time.
    fn remove(&mut self, id: StateId);
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
    /// The run has used much of its memory: from now on, keep the
    /// frontier from growing where the strategy can (breadth-first
    /// dives; see [`BreadthFirst`]), without giving up completeness. By
    /// default nothing changes: the other strategies hold fewer states
    /// than breadth-first.
    fn press(&mut self) {}
}

fn remove_from(queue: &mut VecDeque<StateId>, id: StateId) {
    if let Some(i) = queue.iter().position(|&x| x == id) {
        queue.remove(i);
    }
}

/// Under memory pressure, one pop in this many is a fair one (see
/// [`BreadthFirst`]); the others dive.
pub const FAIR_EVERY: u32 = 16;

/// First in, first out: WiSE's complete breadth-first search.
///
/// Breadth-first holds a whole level of the tree, so it is what exhausts
/// the memory. Pressed ([`Searcher::press`]: the run has used half its
/// memory), it dives instead: it takes the newest state of a *dive*, a
/// depth-first stack of the successors of the states it dove into, and
/// starts a new dive from the newest state of its queue when the dive
/// runs dry. One pop in [`FAIR_EVERY`] is fair: it takes the oldest state
/// of the queue and of the dive in turn, and that state's successors join
/// the queue. So the frontier grows at most a sixteenth as fast as
/// breadth-first (plus the dive's siblings, bounded by its depth), and
/// the search stays complete: a state with `m` states ahead of it in its
/// queue (or below it in the dive, where newer states only go on top) is
/// taken within `2 * FAIR_EVERY * (m + 1)` pops.
#[derive(Default)]
#[repr(align(128))] // A worker's own cache lines: see `frontier::Pool`.
pub struct BreadthFirst {
    queue: VecDeque<StateId>,
    /// Pressed only: the dive, newest last.
    dive: VecDeque<StateId>,
    pressed: bool,
    /// Pops since the last fair one, and which of the two the next fair
    /// pop takes from.
    turn: u32,
    fair_from_dive: bool,
    /// Did the last pop dive (so its successors join the dive)?
    diving: bool,
}

impl BreadthFirst {
    /// The fair pop: the oldest state of the queue or of the dive, in
    /// turn (the other one if one is empty).
    fn fair(&mut self) -> Option<StateId> {
        self.fair_from_dive = !self.fair_from_dive;
        let (first, second) = if self.fair_from_dive {
            (&mut self.dive, &mut self.queue)
        } else {
            (&mut self.queue, &mut self.dive)
        };
        first.pop_front().or_else(|| second.pop_front())
    }
}

impl Searcher for BreadthFirst {
    fn push(&mut self, id: StateId, info: Info) {
        if self.diving && info.parent.is_some() {
            self.dive.push_back(id);
        } else {
            self.queue.push_back(id);
        }
    }
    fn pop(&mut self) -> Option<StateId> {
        if !self.pressed {
            return self.queue.pop_front();
        }
        self.turn += 1;
        if self.turn >= FAIR_EVERY {
            self.turn = 0;
            self.diving = false;
            return self.fair();
        }
        self.diving = true;
        self.dive.pop_back().or_else(|| self.queue.pop_back())
    }
    fn remove(&mut self, id: StateId) {
        remove_from(&mut self.queue, id);
        remove_from(&mut self.dive, id);
    }
    fn len(&self) -> usize {
        self.queue.len() + self.dive.len()
    }
    fn name(&self) -> &'static str {
        "bfs"
    }
    /// The oldest state: what breadth-first takes next (pressed, the
    /// queue's oldest, the root of the largest pending subtree).
    fn steal(&mut self) -> Option<StateId> {
        self.queue.pop_front().or_else(|| self.dive.pop_front())
    }
    fn press(&mut self) {
        self.pressed = true;
    }
}

/// Last in, first out: depth-first search (DART's; incomplete).
#[derive(Default)]
#[repr(align(128))] // A worker's own cache lines: see `frontier::Pool`.
pub struct DepthFirst(VecDeque<StateId>);

impl Searcher for DepthFirst {
    fn push(&mut self, id: StateId, _: Info) {
        self.0.push_back(id);
    }
    fn pop(&mut self) -> Option<StateId> {
        self.0.pop_back()
    }
    fn remove(&mut self, id: StateId) {
        remove_from(&mut self.0, id);
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// Breadth-first (complete).
    #[default]
    Bfs,
    /// Depth-first (incomplete).
    Dfs,
    /// KLEE's random-path search (incomplete).
    RandomPath,
    /// Coverage-guided search (incomplete).
    Coverage,
    /// Random-path and breadth-first in turn (complete).
    RandomPathBfs,
    /// Coverage-guided and breadth-first in turn (complete).
    CoverageBfs,
}

impl Strategy {
    /// Every strategy.
    pub const ALL: [Strategy; 6] = [
        Strategy::Bfs,
        Strategy::Dfs,
        Strategy::RandomPath,
        Strategy::Coverage,
        Strategy::RandomPathBfs,
        Strategy::CoverageBfs,
    ];

    /// The name the CLI and the searcher use.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Bfs => "bfs",
            Strategy::Dfs => "dfs",
            Strategy::RandomPath => "random-path",
            Strategy::Coverage => "coverage",
            Strategy::RandomPathBfs => "random-path+bfs",
            Strategy::CoverageBfs => "coverage+bfs",
        }
    }

    /// Does every pending state get taken after finitely many pops (see
    /// the module's documentation)?
    pub fn is_complete(self) -> bool {
        matches!(
            self,
            Strategy::Bfs | Strategy::RandomPathBfs | Strategy::CoverageBfs
        )
    }

    fn needs_coverage(self) -> bool {
        matches!(self, Strategy::Coverage | Strategy::CoverageBfs)
    }
}

/// The seed of random choices when none is given.
pub const DEFAULT_SEED: u64 = 0x5EED;

/// A strategy made ready for one program and one run: it makes the
/// searcher of each worker. Coverage-guided searchers made by one `Search`
/// share what they learn about coverage.
#[derive(Clone)]
pub struct Search {
    strategy: Strategy,
    seed: u64,
    coverage: Option<Arc<BranchCoverage>>,
}

impl Search {
    /// `strategy` on `ir`, with `seed` for random choices.
    pub fn new(strategy: Strategy, seed: u64, ir: &Ir) -> Search {
        Search {
            strategy,
            seed,
            coverage: strategy
                .needs_coverage()
                .then(|| Arc::new(BranchCoverage::new(ir))),
        }
    }

    /// The strategy.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// The branch coverage the searchers learned (coverage strategies only).
    pub fn coverage(&self) -> Option<&BranchCoverage> {
        self.coverage.as_deref()
    }

    /// The searcher of worker `worker` (workers draw different random
    /// sequences from the one seed).
    pub fn searcher(&self, worker: usize) -> Box<dyn Searcher> {
        let seed = self.seed ^ (worker as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let coverage = || CoverageGuided::new(self.coverage.clone().expect("made for coverage"));
        match self.strategy {
            Strategy::Bfs => Box::<BreadthFirst>::default(),
            Strategy::Dfs => Box::<DepthFirst>::default(),
            Strategy::RandomPath => Box::new(RandomPath::new(seed)),
            Strategy::Coverage => Box::new(coverage()),
            Strategy::RandomPathBfs => Box::new(Interleaved::new(
                Box::new(RandomPath::new(seed)),
                "random-path+bfs",
            )),
            Strategy::CoverageBfs => {
                Box::new(Interleaved::new(Box::new(coverage()), "coverage+bfs"))
            }
        }
    }
}

/// SplitMix64 (Steele, Lea and Flood): a tiny, fast generator whose
/// sequence is fixed by its seed on every platform, so random searches are
/// reproducible.
#[derive(Clone, Debug)]
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (> 0), by multiply-and-shift (Lemire).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}
