//! Which local slots a routine may still read: backward liveness over
//! the IR's control flow. A front end uses it to drop a `Havoc` whose
//! value no path reads (a C local declared without an initialiser and
//! assigned before any use is no input: a witness that listed it would
//! shift the numbering of the reads that are); symbolic execution uses it
//! to leave dead slots out when it compares states (`wiser-engine`'s
//! `visited.rs`).
//!
//! Successors stay within a routine (a call resumes at its `next`), so
//! one pass over all instructions computes every routine's liveness; a
//! callee never touches its caller's slots (a local whose address is
//! taken is not a slot).

use crate::cfg::successors;
use crate::ir::{Code, Instr, Ir, Located, Op, Pc, Place};

/// A set of slots, as bits.
#[derive(Clone, Default, PartialEq, Eq)]
struct Slots(Vec<u64>);

impl Slots {
    fn insert(&mut self, slot: u32) {
        let (word, bit) = ((slot / 64) as usize, slot % 64);
        if self.0.len() <= word {
            self.0.resize(word + 1, 0);
        }
        self.0[word] |= 1 << bit;
    }

    fn remove(&mut self, slot: u32) {
        if let Some(w) = self.0.get_mut((slot / 64) as usize) {
            *w &= !(1 << (slot % 64));
        }
    }

    fn contains(&self, slot: u32) -> bool {
        self.0
            .get((slot / 64) as usize)
            .is_some_and(|w| w & (1 << (slot % 64)) != 0)
    }

    /// Adds `other`; says whether anything was new.
    fn union(&mut self, other: &Slots) -> bool {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        let mut grew = false;
        for (w, o) in self.0.iter_mut().zip(&other.0) {
            grew |= *o & !*w != 0;
            *w |= o;
        }
        grew
    }
}

/// The code an instruction evaluates: its checks' (run first), then its
/// own operands.
fn codes(loc: &Located) -> Vec<&Code> {
    let mut out: Vec<&Code> = Vec::new();
    for c in loc.checks.iter() {
        out.extend(c.guard.as_ref());
        out.push(&c.cond);
    }
    match &loc.instr {
        Instr::Assign { value, .. } => out.push(value),
        Instr::Store { index, value, .. } => out.extend([index, value]),
        Instr::Branch { cond, .. } | Instr::Assert { cond, .. } | Instr::Assume { cond, .. } => {
            out.push(cond)
        }
        Instr::Call { args, .. } | Instr::Spawn { args, .. } => out.extend(args.iter()),
        Instr::Return { value } => out.extend(value.as_ref()),
        Instr::Join { thread, .. } => out.push(thread),
        Instr::Lock { obj, .. } | Instr::Unlock { obj, .. } => out.push(obj),
        Instr::Output { parts, .. } => out.extend(crate::output::codes(parts)),
        Instr::Havoc { .. }
        | Instr::Fail
        | Instr::Halt
        | Instr::New { .. }
        | Instr::Atomic { .. }
        | Instr::Skip { .. } => {}
    }
    out
}

/// The slot an instruction writes after evaluating its code.
fn written(instr: &Instr) -> Option<u32> {
    let place = match instr {
        Instr::Assign { dst, .. } | Instr::Havoc { dst, .. } | Instr::New { dst, .. } => Some(*dst),
        Instr::Call { dst, .. } | Instr::Spawn { dst, .. } => *dst,
        _ => None,
    };
    match place {
        Some(Place::Local(slot)) => Some(slot),
        _ => None,
    }
}

/// The slots live before each instruction: read on some path from it
/// before being written.
fn live_before(ir: &Ir) -> Vec<Slots> {
    let n = ir.code.len();
    let mut uses = vec![Slots::default(); n];
    let mut preds: Vec<Vec<Pc>> = vec![Vec::new(); n];
    for (pc, loc) in ir.code.iter().enumerate() {
        for code in codes(loc) {
            for op in code.iter() {
                if let Op::Load(Place::Local(slot)) = op {
                    uses[pc].insert(*slot);
                }
            }
        }
        for s in successors(&loc.instr) {
            preds[s as usize].push(pc as Pc);
        }
    }
    let mut live = uses.clone();
    // Popped last instruction first: a backward analysis converges in
    // about one pass over straight-line code visited in reverse (visited
    // forwards, each change crept back one instruction per pass).
    let mut todo: Vec<Pc> = (0..n as Pc).collect();
    let mut queued = vec![true; n];
    while let Some(pc) = todo.pop() {
        queued[pc as usize] = false;
        let loc = &ir.code[pc as usize];
        let mut after = Slots::default();
        for s in successors(&loc.instr) {
            after.union(&live[s as usize]);
        }
        if let Some(slot) = written(&loc.instr) {
            after.remove(slot);
        }
        if live[pc as usize].union(&after) {
            for &p in &preds[pc as usize] {
                if !queued[p as usize] {
                    queued[p as usize] = true;
                    todo.push(p);
                }
            }
        }
    }
    live
}

/// The slots live before each instruction of a program, computed once.
pub struct Liveness {
    live: Vec<Slots>,
}

impl Liveness {
    /// The liveness of every routine of `ir`.
    pub fn new(ir: &Ir) -> Liveness {
        Liveness {
            live: live_before(ir),
        }
    }

    /// May the routine read `slot`'s current value when it is about to
    /// run `pc` (on some path from `pc`, read before written)?
    pub fn is_live(&self, pc: Pc, slot: u32) -> bool {
        self.live.get(pc as usize).is_some_and(|s| s.contains(slot))
    }
}

/// The `Havoc`s of local slots whose value no path reads: on every path
/// from them the slot is written again, or never read, before the
/// routine returns.
pub fn unread_havocs(ir: &Ir) -> Vec<Pc> {
    let live = live_before(ir);
    ir.code
        .iter()
        .enumerate()
        .filter_map(|(pc, loc)| match loc.instr {
            Instr::Havoc {
                dst: Place::Local(slot),
                next,
                ..
            } if !live[next as usize].contains(slot) => Some(pc as Pc),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Builder, Expr, ScalarTy, Span};
    use wiser_num::{CmpOp, IntTy};

    /// `c = *; x = *; [if c > 0 then x = 1 else (x = 2)? fi]; assert x != 7`
    fn program(assign_first: bool, on_both_sides: bool) -> Ir {
        let sp = Span::new(0, 1);
        let int = ScalarTy::Int(IntTy::INT);
        let mut b = Builder::new();
        let mut m = b.begin_main(sp);
        let c = m.local("c", int);
        let x = m.local("x", int);
        m.havoc(c, sp);
        m.havoc(x, sp);
        if assign_first {
            let (then, other, join) = (m.label(), m.label(), m.label());
            let cond = Expr::cmp(CmpOp::Gt, m.load(c), Expr::int(IntTy::INT, 0));
            m.branch(cond, then, other, sp);
            m.bind(then);
            m.assign(x, Expr::int(IntTy::INT, 1), sp);
            m.jump(join);
            m.bind(other);
            if on_both_sides {
                m.assign(x, Expr::int(IntTy::INT, 2), sp);
            }
            m.jump(join);
            m.bind(join);
        }
        let cond = Expr::cmp(CmpOp::Ne, m.load(x), Expr::int(IntTy::INT, 7));
        m.assert(cond, sp);
        m.halt(sp);
        m.finish();
        b.finish().unwrap()
    }

    #[test]
    fn a_havoc_is_unread_only_when_every_path_writes_first() {
        // Read right away: live (and `c` is read by the branch or not at
        // all: without the branch, `c` is never read).
        let straight = program(false, false);
        assert_eq!(unread_havocs(&straight).len(), 1, "only c's");
        // Assigned on one side only: the other side reads x's havoc.
        assert!(unread_havocs(&program(true, false)).is_empty());
        // Assigned on both sides before the read: x's havoc is unread.
        let ir = program(true, true);
        let unread = unread_havocs(&ir);
        assert_eq!(unread.len(), 1);
        assert_eq!(
            ir.code[unread[0] as usize].instr,
            ir.code
                .iter()
                .map(|l| l.instr.clone())
                .filter(|i| matches!(i, Instr::Havoc { .. }))
                .nth(1)
                .unwrap()
        );
    }
}
