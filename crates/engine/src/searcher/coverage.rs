//! Coverage-guided search: step first the state nearest to a branch side
//! that no state has taken yet (KLEE's `nurs:covnew` idea, with distances
//! in instructions instead of a random weighting); among equally near
//! states, the oldest.
//!
//! Coverage is learned from the pushes themselves: a state pushed as the
//! successor of a state at a branch tells which side the step took (the
//! frontier passes the parent's pc in [`Info::parent`]), so no driver has
//! to report anything. The searchers of one run share one
//! [`BranchCoverage`] (atomics), so workers learn from each other.
//!
//! Distances. A state's distance is the number of instructions from its pc
//! to the nearest branch with a side not yet taken, over each routine's
//! edges plus the edge from a call to its callee's entry (a state inside a
//! callee sees only what is left of the callee: returns have no edge, as
//! their targets depend on the call stack). A state stuck on an error is
//! at distance 0: confirming it is the goal of the search. One backward
//! breadth-first pass from every branch with an uncovered side computes
//! the table, again only when coverage changed since the last pass: at
//! most twice per branch over a run.
//!
//! Ranking. Coverage only grows, so distances only grow: a pending state's
//! rank, computed when it was pushed, can only be too small. States wait
//! in one ordered map keyed by (rank, serial); a pop takes the first
//! entry and, if its rank is out of date, puts it back under its current
//! rank and tries again (lazy re-ranking: each state moves at most once
//! per change of its distance), so no pop scans the frontier.

use super::{Info, Searcher, Serial, StateId};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;
use wiser_ir::cfg::successors;
use wiser_ir::{Instr, Ir, Pc};

const FAR: u32 = u32::MAX;
const NO_BRANCH: [Pc; 2] = [Pc::MAX, Pc::MAX];

/// Which sides of which branches states have taken, and the program's
/// edges, reversed, to measure distances to the others.
pub struct BranchCoverage {
    /// The then and else targets of each branch instruction.
    sides: Vec<[Pc; 2]>,
    /// Predecessors of each instruction: `preds[start[pc]..start[pc + 1]]`.
    start: Vec<u32>,
    preds: Vec<Pc>,
    /// Per instruction: bit 0 then taken, bit 1 else taken.
    covered: Vec<AtomicU8>,
    /// Branch sides taken so far; changes whenever coverage does.
    count: AtomicU64,
    total: usize,
}

impl BranchCoverage {
    /// Nothing covered yet in `ir`.
    pub fn new(ir: &Ir) -> BranchCoverage {
        let n = ir.code.len();
        let mut sides = vec![NO_BRANCH; n];
        let mut edges: Vec<(Pc, Pc)> = Vec::new();
        for (pc, loc) in ir.code.iter().enumerate() {
            let pc = pc as Pc;
            for s in successors(&loc.instr) {
                edges.push((pc, s));
            }
            match &loc.instr {
                Instr::Branch {
                    then_to, else_to, ..
                } => sides[pc as usize] = [*then_to, *else_to],
                Instr::Call { proc, .. } => edges.push((pc, ir.procs[proc.0 as usize].entry)),
                _ => {}
            }
        }
        // Compressed rows of predecessors, by counting sort on targets.
        let mut start = vec![0u32; n + 1];
        for &(_, to) in &edges {
            start[to as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut preds = vec![0; edges.len()];
        for &(from, to) in &edges {
            preds[fill[to as usize] as usize] = from;
            fill[to as usize] += 1;
        }
        let total = 2 * sides.iter().filter(|s| **s != NO_BRANCH).count();
        BranchCoverage {
            sides,
            start,
            preds,
            covered: (0..n).map(|_| AtomicU8::new(0)).collect(),
            count: AtomicU64::new(0),
            total,
        }
    }

    /// Records the step `from -> to` of a state that did not fail: if
    /// `from` is a branch, the side leading to `to` is covered.
    pub fn learn(&self, from: Pc, to: Pc) {
        let Some(&[then_to, else_to]) = self.sides.get(from as usize) else {
            return;
        };
        let bits = u8::from(to == then_to) | (u8::from(to == else_to) << 1);
        if bits == 0 {
            return;
        }
        let cell = &self.covered[from as usize];
        let old = cell.fetch_or(bits, Ordering::Relaxed);
        let new = bits & !old;
        if new != 0 {
            self.count
                .fetch_add(u64::from(new.count_ones()), Ordering::Release);
        }
    }

    /// Has the side `then` (true) or else (false) of the branch at `pc`
    /// been taken?
    pub fn is_covered(&self, pc: Pc, then: bool) -> bool {
        let bit = if then { 1 } else { 2 };
        self.covered[pc as usize].load(Ordering::Relaxed) & bit != 0
    }

    /// Branch sides taken so far.
    pub fn covered(&self) -> usize {
        self.count.load(Ordering::Acquire) as usize
    }

    /// Branch sides in the program (two per branch instruction).
    pub fn sides(&self) -> usize {
        self.total
    }

    /// Fills `dist` with each instruction's distance to the nearest branch
    /// with an uncovered side (`FAR` if none is reachable).
    fn distances(&self, dist: &mut Vec<u32>) {
        dist.clear();
        dist.resize(self.sides.len(), FAR);
        let mut queue = std::collections::VecDeque::new();
        for (pc, s) in self.sides.iter().enumerate() {
            if *s != NO_BRANCH && self.covered[pc].load(Ordering::Relaxed) != 3 {
                dist[pc] = 0;
                queue.push_back(pc as Pc);
            }
        }
        while let Some(pc) = queue.pop_front() {
            let d = dist[pc as usize] + 1;
            let (a, b) = (self.start[pc as usize], self.start[pc as usize + 1]);
            for &p in &self.preds[a as usize..b as usize] {
                if dist[p as usize] == FAR {
                    dist[p as usize] = d;
                    queue.push_back(p);
                }
            }
        }
    }
}

/// Coverage-guided search (incomplete).
#[repr(align(128))] // A worker's own cache lines: see `frontier::Pool`.
pub struct CoverageGuided {
    map: Arc<BranchCoverage>,
    /// Distances, as of coverage `seen`.
    dist: Vec<u32>,
    seen: Option<usize>,
    /// Pending states by (rank, serial): nearest, then oldest, first.
    queue: BTreeMap<(u32, Serial), Waiting>,
    /// Each pending state's key, by id.
    key_of: Vec<Option<(u32, Serial)>>,
}

#[derive(Clone, Copy)]
struct Waiting {
    id: StateId,
    pc: Pc,
    stuck: bool,
}

impl CoverageGuided {
    /// An empty frontier learning into (and ranking by) `map`.
    pub fn new(map: Arc<BranchCoverage>) -> CoverageGuided {
        CoverageGuided {
            map,
            dist: Vec::new(),
            seen: None,
            queue: BTreeMap::new(),
            key_of: Vec::new(),
        }
    }

    /// Recomputes the distances if coverage changed since.
    fn refresh(&mut self) {
        let now = self.map.covered();
        if self.seen != Some(now) {
            self.map.distances(&mut self.dist);
            self.seen = Some(now);
        }
    }

    fn rank(&self, w: Waiting) -> u32 {
        if w.stuck {
            0
        } else {
            self.dist[w.pc as usize]
        }
    }

    fn enqueue(&mut self, key: (u32, Serial), w: Waiting) {
        self.queue.insert(key, w);
        if self.key_of.len() <= w.id {
            self.key_of.resize(w.id + 1, None);
        }
        self.key_of[w.id] = Some(key);
    }
}

impl Searcher for CoverageGuided {
    fn push(&mut self, id: StateId, info: Info) {
        if let (Some(parent), false) = (info.parent, info.stuck) {
            self.map.learn(parent.pc, info.pc);
        }
        self.refresh();
        let w = Waiting {
            id,
            pc: info.pc,
            stuck: info.stuck,
        };
        self.enqueue((self.rank(w), info.serial), w);
    }

    fn pop(&mut self) -> Option<StateId> {
        self.refresh();
        loop {
            let ((rank, serial), w) = self.queue.pop_first()?;
            let now = self.rank(w);
            if now <= rank {
                self.key_of[w.id] = None;
                return Some(w.id);
            }
            // Out of date: wait under the current distance.
            self.enqueue((now, serial), w);
        }
    }

    fn remove(&mut self, id: StateId) {
        if let Some(key) = self.key_of.get_mut(id).and_then(Option::take) {
            self.queue.remove(&key);
        }
    }

    /// The farthest, newest state.
    fn steal(&mut self) -> Option<StateId> {
        let (_, w) = self.queue.pop_last()?;
        self.key_of[w.id] = None;
        Some(w.id)
    }

    fn len(&self) -> usize {
        self.queue.len()
    }

    fn name(&self) -> &'static str {
        "coverage"
    }
}
