//! Which local slots a routine may still read: backward liveness over
//! the IR's control flow. A front end uses it to drop a `Havoc` whose
//! value no path reads (a C local declared without an initialiser and
//! assigned before any use is no input: a witness that listed it would
//! shift the numbering of the reads that are); symbolic execution uses
//! its strong form ([`Liveness::strong`]) to leave dead and faint slots
//! out when it compares states (`wiser-engine`'s `visited.rs`).
//!
//! Successors stay within a routine (a call resumes at its `next`), so
//! one pass over all instructions computes every routine's liveness; a
//! callee never touches its caller's slots (a local whose address is
//! taken is not a slot).

use crate::cfg::{predecessors, successors};
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

/// The local slots `code` loads.
fn loads(code: &Code, into: &mut Slots) {
    for op in code.iter() {
        if let Op::Load(Place::Local(slot)) = op {
            into.insert(*slot);
        }
    }
}

/// The slots live before each instruction: read on some path from it
/// before being written. With `strong`, a read counts only if it can
/// matter: the value an assignment to a local slot computes is read only
/// when that slot is itself (strongly) live after it, so a counter that
/// only feeds itself (`i = i + 1`, with no check that could fail) is
/// *faint*, not live. Every other read counts: conditions, the operands
/// of checks (a check that fails is an error), stores, calls, returns
/// and output.
fn live_before(ir: &Ir, strong: bool) -> Vec<Slots> {
    let n = ir.code.len();
    let mut uses = vec![Slots::default(); n];
    // With `strong`: a local assignment's slot and the slots its value
    // reads, counted only while the slot is live after it.
    let mut assigned: Vec<Option<(u32, Slots)>> = vec![None; n];
    for (pc, loc) in ir.code.iter().enumerate() {
        match &loc.instr {
            Instr::Assign {
                dst: Place::Local(slot),
                value,
                ..
            } if strong => {
                for c in loc.checks.iter() {
                    if let Some(g) = &c.guard {
                        loads(g, &mut uses[pc]);
                    }
                    loads(&c.cond, &mut uses[pc]);
                }
                let mut read = Slots::default();
                loads(value, &mut read);
                assigned[pc] = Some((*slot, read));
            }
            _ => {
                for code in codes(loc) {
                    loads(code, &mut uses[pc]);
                }
            }
        }
    }
    let preds = predecessors(ir);
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
        let mut grew = false;
        if let Some((slot, read)) = &assigned[pc as usize] {
            if after.contains(*slot) {
                grew |= live[pc as usize].union(read);
            }
        }
        if let Some(slot) = written(&loc.instr) {
            after.remove(slot);
        }
        grew |= live[pc as usize].union(&after);
        if grew {
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

/// The slots strongly live before each instruction of a program (see
/// [`live_before`]), computed once: the slots whose current value can
/// still make a difference to what the routine does.
pub struct Liveness {
    live: Vec<Slots>,
}

impl Liveness {
    /// The strong liveness of every routine of `ir`.
    pub fn strong(ir: &Ir) -> Liveness {
        Liveness {
            live: live_before(ir, true),
        }
    }

    /// Can `slot`'s current value make a difference when the routine is
    /// about to run `pc` (on some path from `pc`, read by a condition, a
    /// check, a store, a call, a return or output, or by an assignment to
    /// a slot that can, before being written)?
    pub fn is_live(&self, pc: Pc, slot: u32) -> bool {
        self.live.get(pc as usize).is_some_and(|s| s.contains(slot))
    }
}

/// The `Havoc`s of local slots whose value no path reads: on every path
/// from them the slot is written again, or never read, before the
/// routine returns.
pub fn unread_havocs(ir: &Ir) -> Vec<Pc> {
    // Plain liveness: a havoc whose value only a faint slot reads is
    // still an input the witness numbers.
    let live = live_before(ir, false);
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

    /// `i = 0; while true do i = i + 1; assert g != 7 od`, with `i` of
    /// type `ty`; returns the program and the loop head.
    fn counter(ty: IntTy) -> (Ir, Pc, u32) {
        let sp = Span::new(0, 1);
        let mut b = Builder::new();
        let g = b.global("g", ScalarTy::Int(IntTy::INT), Some(0.into()));
        let mut m = b.begin_main(sp);
        let i = m.local("i", ScalarTy::Int(ty));
        m.assign(i, Expr::int(ty, 0), sp);
        let head = m.label();
        m.bind(head);
        let next = Expr::binary(wiser_num::BinOp::Add, m.load(i), Expr::int(ty, 1), sp);
        m.assign(i, next, sp);
        let cond = Expr::cmp(CmpOp::Ne, m.load(g), Expr::int(IntTy::INT, 7));
        m.assert(cond, sp);
        m.jump(head);
        m.finish();
        let ir = b.finish().unwrap();
        let head = ir
            .code
            .iter()
            .position(|l| matches!(l.instr, Instr::Assign { value: ref v, .. } if v.len() > 1))
            .unwrap() as Pc;
        let Place::Local(slot) = i else {
            unreachable!()
        };
        (ir, head, slot)
    }

    #[test]
    fn a_counter_that_only_feeds_itself_is_faint_unless_a_check_reads_it() {
        // Unsigned: `i + 1` wraps, no check; `i` is read only to compute
        // itself, so it is faint, though plainly live.
        let (ir, head, i) = counter(IntTy::U32);
        assert!(live_before(&ir, false)[head as usize].contains(i));
        assert!(!Liveness::strong(&ir).is_live(head, i));
        // Signed: the overflow check reads `i`, and can fail.
        let (ir, head, i) = counter(IntTy::I32);
        assert!(!ir.code[head as usize].checks.is_empty());
        assert!(Liveness::strong(&ir).is_live(head, i));
    }
}
