//! Branch coverage: which sides of the program's conditional branches the
//! runs of a fuzzing session took, and which run alone took each side
//! (for the fuzzer's score).
//!
//! A side is `(branch, holds)` for each `Branch` instruction of the IR
//! (an `if`, a loop guard, a lowered `&&`, `||` or `?:`); a side is
//! covered by a run that moved from the branch to that side's successor,
//! whether the condition was symbolic or a constant.

use rustc_hash::FxHashMap;
use std::sync::Arc;
use wiser_ir::{Instr, Ir, Pc, Span};

/// The coverage of one routine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoutineCoverage {
    /// The routine (a C function lowered once per binding of its array
    /// parameters is counted once, by name).
    pub routine: Arc<str>,
    /// Sides covered.
    pub covered: usize,
    /// Sides in all (two per conditional branch).
    pub total: usize,
}

/// A side no run took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Uncovered {
    /// The routine.
    pub routine: Arc<str>,
    /// The branch's condition in the source.
    pub span: Span,
    /// The side: `true` where the condition holds.
    pub side: bool,
}

/// The branch sides of a program and the runs that covered them.
#[derive(Clone, Debug)]
pub struct SessionCoverage {
    /// Each conditional branch: its pc, routine and source.
    branches: Vec<(Pc, Arc<str>, Span)>,
    index: FxHashMap<Pc, usize>,
    /// Per branch and side: how many runs covered it, and the run that
    /// did if only one did.
    count: Vec<[u32; 2]>,
    owner: Vec<[Option<usize>; 2]>,
    /// Per run: the sides it covers that no other run covers.
    unique: Vec<u32>,
}

impl SessionCoverage {
    /// The branches of `ir`, none covered.
    pub fn new(ir: &Ir) -> SessionCoverage {
        let mut routines: Vec<(Pc, Arc<str>)> = std::iter::once(&ir.main)
            .chain(&ir.procs)
            .map(|r| (r.entry, r.name.clone()))
            .collect();
        routines.sort_by_key(|r| r.0);
        let mut branches = Vec::new();
        for (pc, loc) in ir.code.iter().enumerate() {
            if let Instr::Branch { .. } = loc.instr {
                let pc = pc as Pc;
                // Each routine's code is contiguous, from its entry on.
                let at = routines.partition_point(|r| r.0 <= pc);
                let name = routines
                    .get(at.wrapping_sub(1))
                    .map_or_else(|| ir.main.name.clone(), |r| r.1.clone());
                branches.push((pc, name, loc.span));
            }
        }
        let index = branches.iter().enumerate().map(|(i, b)| (b.0, i)).collect();
        let n = branches.len();
        SessionCoverage {
            branches,
            index,
            count: vec![[0; 2]; n],
            owner: vec![[None; 2]; n],
            unique: Vec::new(),
        }
    }

    /// Records run `run` (numbered from 0, in order) covering `sides`
    /// (repeats allowed); returns how many sides no earlier run covered.
    pub fn add(&mut self, run: usize, sides: &[(Pc, bool)]) -> usize {
        if self.unique.len() <= run {
            self.unique.resize(run + 1, 0);
        }
        let mut new = 0;
        let mut mine: Vec<(usize, usize)> = sides
            .iter()
            .filter_map(|&(pc, side)| Some((*self.index.get(&pc)?, usize::from(side))))
            .collect();
        mine.sort_unstable();
        mine.dedup();
        for (b, s) in mine {
            let count = &mut self.count[b][s];
            *count += 1;
            match *count {
                1 => {
                    new += 1;
                    self.owner[b][s] = Some(run);
                    self.unique[run] += 1;
                }
                2 => {
                    // The side's only run loses it.
                    if let Some(o) = self.owner[b][s].take() {
                        self.unique[o] -= 1;
                    }
                }
                _ => {}
            }
        }
        new
    }

    /// The sides run `run` covers and no other run does.
    pub fn unique(&self, run: usize) -> u32 {
        self.unique.get(run).copied().unwrap_or(0)
    }

    /// Sides covered, of all.
    pub fn totals(&self) -> (usize, usize) {
        let covered = self.count.iter().flatten().filter(|&&c| c > 0).count();
        (covered, 2 * self.branches.len())
    }

    /// Coverage per routine, in order of first branch.
    pub fn per_routine(&self) -> Vec<RoutineCoverage> {
        let mut out: Vec<RoutineCoverage> = Vec::new();
        for (b, (_, name, _)) in self.branches.iter().enumerate() {
            let covered = self.count[b].iter().filter(|&&c| c > 0).count();
            match out.iter_mut().find(|r| r.routine == *name) {
                Some(r) => {
                    r.covered += covered;
                    r.total += 2;
                }
                None => out.push(RoutineCoverage {
                    routine: name.clone(),
                    covered,
                    total: 2,
                }),
            }
        }
        out
    }

    /// The sides no run took, in program order.
    pub fn uncovered(&self) -> Vec<Uncovered> {
        let mut out = Vec::new();
        for (b, (_, name, span)) in self.branches.iter().enumerate() {
            for side in [true, false] {
                if self.count[b][usize::from(side)] == 0 {
                    out.push(Uncovered {
                        routine: name.clone(),
                        span: *span,
                        side,
                    });
                }
            }
        }
        out
    }
}
