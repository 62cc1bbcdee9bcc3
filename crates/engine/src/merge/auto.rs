//! When a merge pays (`--merge auto`).
//!
//! Kuznetsov et al. (PLDI 2012) estimate how many solver queries a merge
//! adds: a variable whose value differs between the two states becomes an
//! `ite`, and every later branch on it that would have folded to a
//! constant in one state now forks and asks the solver. Their estimate
//! counts later queries per variable; ours is the simple static form of
//! it: a merge does not pay when some variable differs, is a constant in
//! at least one state, and is read by a later branch of the routine (an
//! `if` or loop test: `Branch`) or passed to a call (whose branches may
//! read it). Assertions and checks do not count: each is one query either
//! way, so merging before them is what saves the paths.

use super::state::MState;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use wiser_ir::{cfg, Instr, Ir, Op, Pc, Place};
use wiser_smt::Term;

/// The variables later branches read, per instruction (computed on
/// demand, once per instruction).
pub struct Hotness {
    hot: HashMap<Pc, Arc<HashSet<Place>>>,
}

impl Hotness {
    /// No instruction analysed yet.
    pub fn new() -> Hotness {
        Hotness {
            hot: HashMap::new(),
        }
    }

    /// The places read by a branch condition or a call argument reachable
    /// from `pc` within its routine.
    fn hot_at(&mut self, ir: &Ir, pc: Pc) -> Arc<HashSet<Place>> {
        if let Some(h) = self.hot.get(&pc) {
            return h.clone();
        }
        let mut places = HashSet::new();
        let mut seen = HashSet::from([pc]);
        let mut todo = vec![pc];
        while let Some(p) = todo.pop() {
            let instr = &ir.at(p).instr;
            let read: &[&[Op]] = match instr {
                Instr::Branch { cond, .. } => &[cond],
                Instr::Call { args, .. } => {
                    for a in args.iter() {
                        add_loads(a, &mut places);
                    }
                    &[]
                }
                _ => &[],
            };
            for code in read {
                add_loads(code, &mut places);
            }
            for s in cfg::successors(instr) {
                if seen.insert(s) {
                    todo.push(s);
                }
            }
        }
        let h = Arc::new(places);
        self.hot.insert(pc, h.clone());
        h
    }

    /// Does merging `a` and `b` (at the same place) pay?
    pub fn pays<P>(&mut self, ir: &Ir, a: &MState<P>, b: &MState<P>) -> bool {
        let hot = self.hot_at(ir, a.pc);
        let cold = |place: Place, x: &Term, y: &Term| {
            x == y || !(x.is_const() || y.is_const()) || !hot.contains(&place)
        };
        let locals = a.frame.locals.iter().zip(b.frame.locals.iter());
        let globals = a.globals.iter().zip(b.globals.iter());
        locals
            .enumerate()
            .all(|(i, (x, y))| cold(Place::Local(i as u32), x, y))
            && globals
                .enumerate()
                .all(|(g, (x, y))| cold(Place::Global(g as u32), x, y))
    }
}

fn add_loads(code: &[Op], places: &mut HashSet<Place>) {
    for op in code {
        if let Op::Load(p) = op {
            places.insert(*p);
        }
    }
}
