//! Control-flow facts about a program's instructions, computed once.
//!
//! Engines that do more than follow successors need to know the shape of
//! the control-flow graph: state merging waits for states at join points
//! and steps states in topological order so that the states of both sides
//! of an `if` arrive before they are merged; bounded model checking counts
//! iterations of each loop by its back edges; coverage-guided search
//! measures how far a state is from a branch side not yet taken.
//!
//! Each routine's graph is its instructions with their explicit
//! successors (a call's successor is the instruction after it: the callee
//! is a graph of its own). A depth-first search from the routine's entry
//! ranks every reachable instruction in reverse postorder and marks as
//! back edges the edges to an instruction still on the search's stack;
//! removing them leaves an acyclic graph in which every edge goes from a
//! lower rank to a higher one, even for the irreducible loops `goto` can
//! build, so every cycle contains a back edge.

use crate::ir::{Instr, Ir, Pc};

/// Ranks, join points and loop heads of every routine of a program.
#[derive(Clone, Debug)]
pub struct Cfg {
    /// Reverse-postorder rank within the routine; `u32::MAX` if
    /// unreachable from the routine's entry.
    rank: Vec<u32>,
    /// Number of edges into each instruction (from its own routine).
    preds: Vec<u32>,
    /// Is the instruction the target of a back edge?
    loop_head: Vec<bool>,
}

/// Does the instruction touch state that other threads can see: a
/// global, an array or field, a lock, a thread, the input stream, or the
/// end of the program? Instructions that touch only the running frame
/// commute with every step of every other thread, so a scheduler need not
/// switch threads before them.
pub fn is_visible(loc: &crate::ir::Located) -> bool {
    use crate::ir::{Op, Place};
    let shared_code = |code: &crate::ir::Code| {
        code.iter()
            .any(|op| matches!(op, Op::Load(Place::Global(_)) | Op::Select(_)))
    };
    let checks = loc
        .checks
        .iter()
        .any(|c| shared_code(&c.cond) || c.guard.as_ref().is_some_and(&shared_code));
    checks
        || match &loc.instr {
            Instr::Assign { dst, value, .. } => {
                matches!(dst, Place::Global(_)) || shared_code(value)
            }
            Instr::Branch { cond, .. }
            | Instr::Assert { cond, .. }
            | Instr::Assume { cond, .. } => shared_code(cond),
            Instr::Call { args, dst, .. } => {
                args.iter().any(shared_code) || matches!(dst, Some(Place::Global(_)))
            }
            Instr::Return { value } => value.as_ref().is_some_and(shared_code),
            // Output changes nothing another thread can see.
            Instr::Skip { .. } | Instr::Fail | Instr::Output { .. } => false,
            Instr::Havoc { .. }
            | Instr::Store { .. }
            | Instr::Halt
            | Instr::New { .. }
            | Instr::Spawn { .. }
            | Instr::Join { .. }
            | Instr::Lock { .. }
            | Instr::Unlock { .. }
            | Instr::Atomic { .. } => true,
        }
}

/// Per instruction: is it on a cycle of the control flow (can it run again
/// without leaving its routine's activation)? Strongly connected
/// components by Kosaraju's two passes, without recursion.
pub fn on_cycles(ir: &Ir) -> Vec<bool> {
    let n = ir.code.len();
    let succ: Vec<Vec<Pc>> = ir
        .code
        .iter()
        .map(|l| successors(&l.instr).collect())
        .collect();
    let pred = predecessors(ir);
    // First pass: finishing order of a depth-first search on successors.
    let mut seen = vec![false; n];
    let mut order = Vec::with_capacity(n);
    for root in 0..n {
        if seen[root] {
            continue;
        }
        seen[root] = true;
        let mut stack = vec![(root, 0usize)];
        while let Some((v, i)) = stack.pop() {
            if let Some(&w) = succ[v].get(i) {
                stack.push((v, i + 1));
                let w = w as usize;
                if w < n && !seen[w] {
                    seen[w] = true;
                    stack.push((w, 0));
                }
            } else {
                order.push(v);
            }
        }
    }
    // Second pass: components on predecessors, in reverse finishing order.
    let mut comp = vec![usize::MAX; n];
    let mut size = Vec::new();
    for &root in order.iter().rev() {
        if comp[root] != usize::MAX {
            continue;
        }
        let c = size.len();
        size.push(0usize);
        comp[root] = c;
        let mut stack = vec![root];
        while let Some(v) = stack.pop() {
            size[c] += 1;
            for &w in &pred[v] {
                let w = w as usize;
                if comp[w] == usize::MAX {
                    comp[w] = c;
                    stack.push(w);
                }
            }
        }
    }
    (0..n)
        .map(|v| size[comp[v]] > 1 || succ[v].iter().any(|&s| s as usize == v))
        .collect()
}

/// Per instruction: the instructions whose successor it is (see
/// [`successors`]), for the backward walks of the analyses.
pub fn predecessors(ir: &Ir) -> Vec<Vec<Pc>> {
    let n = ir.code.len();
    let mut preds: Vec<Vec<Pc>> = vec![Vec::new(); n];
    for (pc, loc) in ir.code.iter().enumerate() {
        for s in successors(&loc.instr) {
            if (s as usize) < n {
                preds[s as usize].push(pc as Pc);
            }
        }
    }
    preds
}

/// The successors of an instruction within its routine (at most two).
pub fn successors(instr: &Instr) -> impl Iterator<Item = Pc> {
    let (a, b) = match instr {
        Instr::Branch {
            then_to, else_to, ..
        } => (Some(*then_to), Some(*else_to)),
        _ => (instr.next(), None),
    };
    a.into_iter().chain(b)
}

impl Cfg {
    /// The facts of every routine of `ir`.
    pub fn new(ir: &Ir) -> Cfg {
        let n = ir.code.len();
        let mut cfg = Cfg {
            rank: vec![u32::MAX; n],
            preds: vec![0; n],
            loop_head: vec![false; n],
        };
        for loc in &ir.code {
            for s in successors(&loc.instr) {
                cfg.preds[s as usize] += 1;
            }
        }
        for routine in std::iter::once(&ir.main).chain(&ir.procs) {
            cfg.rank_routine(ir, routine.entry);
        }
        cfg
    }

    /// Iterative depth-first search from `entry`: postorder numbers, then
    /// reversed into ranks; back edges mark loop heads.
    fn rank_routine(&mut self, ir: &Ir, entry: Pc) {
        const WHITE: u8 = 0;
        const ON_STACK: u8 = 1;
        const DONE: u8 = 2;
        let mut color: std::collections::HashMap<Pc, u8> = std::collections::HashMap::new();
        let mut postorder: Vec<Pc> = Vec::new();
        // (pc, index of the next successor to visit)
        let mut stack: Vec<(Pc, usize)> = vec![(entry, 0)];
        color.insert(entry, ON_STACK);
        while let Some(&mut (pc, ref mut next)) = stack.last_mut() {
            let succ = successors(&ir.at(pc).instr).nth(*next);
            *next += 1;
            match succ {
                Some(s) => match color.get(&s).copied().unwrap_or(WHITE) {
                    WHITE => {
                        color.insert(s, ON_STACK);
                        stack.push((s, 0));
                    }
                    ON_STACK => self.loop_head[s as usize] = true,
                    _ => {}
                },
                None => {
                    color.insert(pc, DONE);
                    postorder.push(pc);
                    stack.pop();
                }
            }
        }
        let count = postorder.len() as u32;
        for (i, pc) in postorder.into_iter().enumerate() {
            self.rank[pc as usize] = count - 1 - i as u32;
        }
    }

    /// The reverse-postorder rank of `pc` in its routine (`u32::MAX` if
    /// unreachable): along every edge but a back edge, ranks increase.
    pub fn rank(&self, pc: Pc) -> u32 {
        self.rank[pc as usize]
    }

    /// Do two or more edges lead to `pc` (the end of an `if`, a loop head,
    /// a loop exit reached by `break`)?
    pub fn is_join(&self, pc: Pc) -> bool {
        self.preds[pc as usize] >= 2
    }

    /// Is `pc` the target of a back edge (the head of a loop)?
    pub fn is_loop_head(&self, pc: Pc) -> bool {
        self.loop_head[pc as usize]
    }

    /// Is the edge `from -> to` (within one routine) a back edge?
    pub fn is_back_edge(&self, from: Pc, to: Pc) -> bool {
        self.loop_head[to as usize] && self.rank(to) <= self.rank(from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Builder, Expr, ScalarTy, Span};
    use wiser_num::{BinOp, CmpOp, IntTy};

    /// `i = 0; while i < n do (if i == 3 then skip else skip fi); i = i + 1 od`
    fn looped() -> Ir {
        let sp = Span::new(0, 1);
        let int = ScalarTy::Int(IntTy::INT);
        let mut b = Builder::new();
        let mut m = b.begin_main(sp);
        let n = m.local("n", int);
        m.input(n);
        let i = m.local("i", int);
        m.assign(i, Expr::int(IntTy::INT, 0), sp);
        let head = m.label();
        let body = m.label();
        let other = m.label();
        let join = m.label();
        let exit = m.label();
        m.bind(head);
        m.branch(Expr::cmp(CmpOp::Lt, m.load(i), m.load(n)), body, exit, sp);
        m.bind(body);
        let three = Expr::cmp(CmpOp::Eq, m.load(i), Expr::int(IntTy::INT, 3));
        let then = m.label();
        m.branch(three, then, other, sp);
        m.bind(then);
        m.jump(join);
        m.bind(other);
        m.jump(join);
        m.bind(join);
        let next = Expr::binary(BinOp::Add, m.load(i), Expr::int(IntTy::INT, 1), sp);
        m.assign(i, next, sp);
        m.jump(head);
        m.bind(exit);
        m.finish();
        b.finish().unwrap()
    }

    #[test]
    fn ranks_increase_along_forward_edges_and_back_edges_mark_loop_heads() {
        let ir = looped();
        let cfg = Cfg::new(&ir);
        let mut heads = 0;
        let mut joins = 0;
        for (pc, loc) in ir.code.iter().enumerate() {
            let pc = pc as Pc;
            heads += usize::from(cfg.is_loop_head(pc));
            joins += usize::from(cfg.is_join(pc));
            for s in successors(&loc.instr) {
                if cfg.is_back_edge(pc, s) {
                    assert!(cfg.is_loop_head(s));
                } else {
                    assert!(cfg.rank(pc) < cfg.rank(s), "{pc} -> {s}");
                }
            }
        }
        assert_eq!(heads, 1, "{}", ir);
        assert!(joins >= 2, "the loop head and the end of the if");
    }
}
