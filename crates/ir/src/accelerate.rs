//! Loop acceleration: a counting loop runs its iterations in one step.
//!
//! A loop whose head is `if (v OP K)` and whose body is nothing but
//! constant increments (`v = v + 2; w = w - 1;`, each variable once, at
//! most 32 bits wide) is a translation: after `k` iterations each
//! variable has moved by `k` times its step. SV-COMP's loop-acceleration
//! tasks, and bugs behind concrete loops of 2^28 iterations, are of this
//! form; stepping them one by one takes minutes on every engine.
//!
//! The pass keeps the loop and puts, on the edge from the head into the
//! body, code that computes how many iterations `k` can be taken at once
//! and takes them:
//! - until the guard first fails (`k` from the guard's bound and the
//!   step, as if no variable wrapped);
//! - but no further than the guard variable's first wrap when it is
//!   unsigned (the guard is re-evaluated at the head on the wrapped
//!   value, so a loop that ends by wrapping, `while (x >= 10) x += 2`,
//!   ends right);
//! - and no further than the iteration before a signed variable would
//!   overflow: when that is the very next one (`k` = 0), the body runs as
//!   written and commits its `signed_overflow` where the program does.
//!
//! Then control returns to the head, which decides again. The new code is
//! ordinary IR, run by the one step like any other, so every engine gets
//! the same closed form (a symbolic bound `n` gives one path, not one per
//! iteration), and a witness replays on the concrete interpreter of the
//! same program. Each update carries the span of the body statement it
//! stands for, so coverage and traces show the statement as run.
//! Programs with threads are left alone: another thread may watch the
//! iterations.

use crate::ir::{Accelerated, Code, Instr, Ir, Located, Op, Pc, Place, Routine};
use crate::types::ScalarTy;
use wiser_num::{BinOp, CmpOp, Int, IntTy};

/// The widest variable the closed form handles: its arithmetic is done in
/// `i64`, where every bound below fits.
const MAX_BITS: u32 = 32;

/// More iterations than any bound the closed form computes (at most about
/// 2^33): "the guard does not stop the loop before a wrap".
const NEVER: i64 = 1 << 40;

/// The longest loop body considered.
const MAX_BODY: usize = 64;

/// A variable the body moves by a constant each iteration.
#[derive(Clone, Copy, Debug)]
struct Step {
    place: Place,
    ty: IntTy,
    /// Its change per iteration, as a mathematical integer.
    by: i64,
    /// The pc of the body's assignment (its span is the update's).
    at: Pc,
}

/// A counting loop: its head, the edge into its body, the guard.
#[derive(Clone, Debug)]
struct Counting {
    head: Pc,
    /// The head's successor into the body (`then_to` or `else_to`).
    body: Pc,
    body_is_then: bool,
    steps: Vec<Step>,
    /// Which step is the guard's variable.
    guard: usize,
    /// The guard, normalised to `v op bound` while the loop goes on.
    op: CmpOp,
    bound: Code,
}

/// Accelerates every counting loop of `ir` (see the module's comment).
/// Returns how many loops it accelerated.
pub fn counting_loops(ir: &mut Ir) -> usize {
    if ir.threaded {
        return 0;
    }
    // Each routine's code is contiguous, from its entry on: its new code
    // goes right after it, so that it stays so.
    let mut routines: Vec<Option<usize>> = std::iter::once(None)
        .chain((0..ir.procs.len()).map(Some))
        .collect();
    routines.sort_by_key(|r| routine(ir, *r).entry);
    let starts: Vec<Pc> = routines.iter().map(|r| routine(ir, *r).entry).collect();
    let mut found: Vec<Vec<Counting>> = vec![Vec::new(); routines.len()];
    for (i, r) in routines.iter().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(ir.code.len() as Pc);
        for pc in starts[i]..end {
            if let Some(c) = counting(ir, routine(ir, *r), pc, starts[i]..end) {
                found[i].push(c);
            }
        }
    }
    let total: usize = found.iter().map(Vec::len).sum();
    if total == 0 {
        return 0;
    }
    let old = std::mem::take(&mut ir.code);
    let old_visible = std::mem::take(&mut ir.visible);
    let mut map: Vec<Pc> = vec![0; old.len()];
    let mut code: Vec<Located> = Vec::with_capacity(old.len() + total * 8);
    let mut visible = Vec::with_capacity(old.len() + total * 8);
    // Code before the first routine (none today) keeps its place.
    let first = starts.first().copied().unwrap_or(0) as usize;
    for pc in 0..first {
        map[pc] = code.len() as Pc;
        code.push(old[pc].clone());
        visible.push(old_visible.get(pc).copied().unwrap_or(false));
    }
    let mut redirect: Vec<(Pc, bool, Pc)> = Vec::new();
    for (i, r) in routines.iter().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(old.len() as Pc) as usize;
        for pc in starts[i] as usize..end {
            map[pc] = code.len() as Pc;
            code.push(old[pc].clone());
            visible.push(old_visible.get(pc).copied().unwrap_or(false));
        }
        let k = Place::Local(routine(ir, *r).slots.len() as u32);
        if !found[i].is_empty() {
            routine_mut(ir, *r).slots.push(crate::ir::Slot {
                name: "$accelerated iterations".into(),
                ty: ScalarTy::Int(IntTy::I64),
                refers: None,
            });
        }
        for c in &found[i] {
            let start = code.len() as Pc;
            emit(&old, c, k, &map, &mut code);
            visible.resize(code.len(), false);
            redirect.push((map[c.head as usize], c.body_is_then, start));
        }
    }
    // Old successors to their new places; the new code's are new already.
    for &pc in &map {
        retarget(&mut code[pc as usize].instr, &map);
    }
    for (head, then, start) in redirect {
        if let Instr::Branch {
            then_to, else_to, ..
        } = &mut code[head as usize].instr
        {
            let edge = if then { then_to } else { else_to };
            ir.accelerated.push(Accelerated {
                head,
                code: start,
                body: *edge,
            });
            *edge = start;
        }
    }
    ir.main.entry = map[ir.main.entry as usize];
    for p in &mut ir.procs {
        p.entry = map[p.entry as usize];
    }
    ir.code = code;
    ir.visible = visible;
    debug_assert_eq!(crate::validate::validate(ir), Ok(()));
    total
}

/// `ir` with its loops as written: each accelerated head's edge leads
/// into its body again, and the accelerating code is unreachable (it
/// keeps its place, so every pc means what it means in `ir`). For the
/// prover, whose invariants are about the loop as written: a closed form
/// with divisions only makes them harder to find.
pub fn as_written(ir: &Ir) -> Ir {
    let mut plain = ir.clone();
    for a in std::mem::take(&mut plain.accelerated) {
        if let Instr::Branch {
            then_to, else_to, ..
        } = &mut plain.code[a.head as usize].instr
        {
            for edge in [then_to, else_to] {
                if *edge == a.code {
                    *edge = a.body;
                }
            }
        }
    }
    plain
}

fn routine(ir: &Ir, r: Option<usize>) -> &Routine {
    match r {
        None => &ir.main,
        Some(p) => &ir.procs[p],
    }
}

fn routine_mut(ir: &mut Ir, r: Option<usize>) -> &mut Routine {
    match r {
        None => &mut ir.main,
        Some(p) => &mut ir.procs[p],
    }
}

/// Points every successor of an old instruction at its new place.
fn retarget(instr: &mut Instr, map: &[Pc]) {
    if let Instr::Branch {
        then_to, else_to, ..
    } = instr
    {
        *then_to = map[*then_to as usize];
        *else_to = map[*else_to as usize];
    } else if let Some(next) = instr.next_mut() {
        *next = map[*next as usize];
    }
}

/// The counting loop whose head is `pc`, if it is one.
fn counting(ir: &Ir, r: &Routine, pc: Pc, range: std::ops::Range<Pc>) -> Option<Counting> {
    let head = &ir.code[pc as usize];
    let Instr::Branch {
        cond,
        then_to,
        else_to,
    } = &head.instr
    else {
        return None;
    };
    if !head.checks.is_empty() {
        return None;
    }
    let (mut negate, cmp) = strip_not(cond);
    for (body, body_is_then) in [(*then_to, true), (*else_to, false)] {
        if !range.contains(&body) {
            continue;
        }
        let Some(steps) = body_steps(ir, r, pc, body) else {
            continue;
        };
        if !body_is_then {
            negate = !negate;
        }
        let (guard, op, bound) = guard_of(cmp, negate, &steps)?;
        return Some(Counting {
            head: pc,
            body,
            body_is_then,
            steps,
            guard,
            op,
            bound,
        });
    }
    None
}

/// `cond` without its trailing `Not`s, and whether there was an odd
/// number of them.
fn strip_not(cond: &[Op]) -> (bool, &[Op]) {
    let mut code = cond;
    let mut negate = false;
    while let [rest @ .., Op::Not] = code {
        code = rest;
        negate = !negate;
    }
    (negate, code)
}

/// The body from `from` back to `head`: constant steps only.
fn body_steps(ir: &Ir, r: &Routine, head: Pc, from: Pc) -> Option<Vec<Step>> {
    let mut steps: Vec<Step> = Vec::new();
    let mut pc = from;
    for _ in 0..MAX_BODY {
        if pc == head {
            return (!steps.is_empty()).then_some(steps);
        }
        let loc = ir.code.get(pc as usize)?;
        match &loc.instr {
            Instr::Skip { next } if loc.checks.is_empty() => pc = *next,
            Instr::Assign { dst, value, next } => {
                let ScalarTy::Int(ty) = place_ty(ir, r, *dst)? else {
                    return None;
                };
                if ty.width().is_none_or(|w| w > MAX_BITS) {
                    return None;
                }
                let (op, c) = increment(*dst, ty, value)?;
                if !checks_are_overflow_of(loc, *dst, ty, op, &c)
                    || steps.iter().any(|s| s.place == *dst)
                {
                    return None;
                }
                let c = c.to_i64()?;
                let by = if op == BinOp::Add {
                    c
                } else {
                    c.checked_neg()?
                };
                // `w = w + 0` changes nothing (and never overflows).
                if by != 0 {
                    steps.push(Step {
                        place: *dst,
                        ty,
                        by,
                        at: pc,
                    });
                }
                pc = *next;
            }
            _ => return None,
        }
    }
    None
}

fn place_ty(ir: &Ir, r: &Routine, place: Place) -> Option<ScalarTy> {
    match place {
        Place::Local(i) => r.slots.get(i as usize).map(|s| s.ty),
        Place::Global(g) => ir.globals.get(g as usize).map(|g| g.ty),
    }
}

/// `dst + c`, `c + dst` or `dst - c` in `dst`'s type: the operator and `c`.
fn increment(dst: Place, ty: IntTy, value: &[Op]) -> Option<(BinOp, Int)> {
    match value {
        [Op::Load(p), Op::Int(t, c), Op::Binary(op @ (BinOp::Add | BinOp::Sub), u)]
            if *p == dst && *t == ty && *u == ty =>
        {
            Some((*op, c.clone()))
        }
        [Op::Int(t, c), Op::Load(p), Op::Binary(BinOp::Add, u)]
            if *p == dst && *t == ty && *u == ty =>
        {
            Some((BinOp::Add, c.clone()))
        }
        _ => None,
    }
}

/// Are `loc`'s checks at most the overflow check of `dst op c` (a signed
/// increment's)? Its overflow is what the closed form stops before.
fn checks_are_overflow_of(loc: &Located, dst: Place, ty: IntTy, op: BinOp, c: &Int) -> bool {
    loc.checks.iter().all(|check| {
        check.guard.is_none()
            && check.kind == crate::ir::ErrorKind::SignedOverflow
            && match &*check.cond {
                [Op::Load(p), Op::Int(t, d), Op::Overflows(o, u)] => {
                    *p == dst && *t == ty && *u == ty && *o == op && d == c
                }
                [Op::Int(t, d), Op::Load(p), Op::Overflows(BinOp::Add, u)] => {
                    op == BinOp::Add && *p == dst && *t == ty && *u == ty && d == c
                }
                _ => false,
            }
    })
}

/// The guard as `v op bound` with `v` a stepped variable and `bound`
/// constant in the loop (a constant, or a variable the body leaves).
fn guard_of(cmp: &[Op], negate: bool, steps: &[Step]) -> Option<(usize, CmpOp, Code)> {
    let [lhs, rhs, Op::Cmp(op, ty)] = cmp else {
        return None;
    };
    let stepped = |o: &Op| match o {
        Op::Load(p) => steps.iter().position(|s| s.place == *p),
        _ => None,
    };
    let fixed = |o: &Op| match o {
        Op::Int(t, _) => t == ty,
        Op::Load(p) => !steps.iter().any(|s| s.place == *p),
        _ => false,
    };
    let (guard, bound, op) = match (stepped(lhs), stepped(rhs)) {
        (Some(g), None) if fixed(rhs) => (g, rhs, *op),
        (None, Some(g)) if fixed(lhs) => (g, lhs, swap(*op)),
        _ => return None,
    };
    if steps[guard].ty != *ty || steps[guard].by == 0 {
        return None;
    }
    let op = if negate { negated(op) } else { op };
    // `v != K` stops only where a step lands on `K`: by 1, the first.
    if op == CmpOp::Ne && steps[guard].by.abs() != 1 {
        return None;
    }
    Some((guard, op, Box::new([bound.clone()])))
}

/// `a op b` as `b op' a`.
fn swap(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Lt => CmpOp::Gt,
        CmpOp::Le => CmpOp::Ge,
        CmpOp::Gt => CmpOp::Lt,
        CmpOp::Ge => CmpOp::Le,
        other => other,
    }
}

/// `not (a op b)` as `a op' b`.
fn negated(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Lt => CmpOp::Ge,
        CmpOp::Le => CmpOp::Gt,
        CmpOp::Gt => CmpOp::Le,
        CmpOp::Ge => CmpOp::Lt,
        CmpOp::Eq => CmpOp::Ne,
        CmpOp::Ne => CmpOp::Eq,
    }
}

const W: IntTy = IntTy::I64;

fn int(v: i64) -> Op {
    Op::Int(W, Int::from(v))
}

/// `place` widened to `i64`.
fn wide(place: Place, ty: IntTy) -> Vec<Op> {
    vec![Op::Load(place), Op::Cast(ty, W)]
}

fn bin(mut a: Vec<Op>, b: Vec<Op>, op: BinOp) -> Vec<Op> {
    a.extend(b);
    a.push(Op::Binary(op, W));
    a
}

/// Appends the accelerating code of `c` to `code`: `k` is its routine's
/// new slot; old pcs are translated by `map`.
fn emit(old: &[Located], c: &Counting, k: Place, map: &[Pc], code: &mut Vec<Located>) {
    let head = &old[c.head as usize];
    let span = head.span;
    let g = c.steps[c.guard];
    let d = g.by.abs();
    let v = wide(g.place, g.ty);
    let bound: Vec<Op> = match &c.bound[0] {
        Op::Int(_, b) => vec![int(b.to_i64().unwrap_or(0))],
        Op::Load(p) => wide(*p, g.ty),
        other => vec![other.clone()],
    };
    let ceil_div = |a: Vec<Op>| {
        bin(
            bin(a, vec![int(d - 1)], BinOp::Add),
            vec![int(d)],
            BinOp::Div,
        )
    };
    let up = g.by > 0;
    // How far the guard's bound lies ahead, in the steps' direction.
    let gap = if up {
        bin(bound, v, BinOp::Sub)
    } else {
        bin(v, bound, BinOp::Sub)
    };
    // Iterations until the guard fails, as if nothing wrapped.
    let exit: Vec<Op> = match (c.op, up) {
        (CmpOp::Lt, true) | (CmpOp::Gt, false) => ceil_div(gap),
        (CmpOp::Le, true) | (CmpOp::Ge, false) => {
            bin(bin(gap, vec![int(d)], BinOp::Div), vec![int(1)], BinOp::Add)
        }
        (CmpOp::Ne, _) if d == 1 => {
            // Reached without a wrap only when the bound lies ahead.
            let mut ite = vec![int(0)];
            ite.extend(gap.clone());
            ite.push(Op::Cmp(CmpOp::Lt, W));
            ite.extend(gap);
            ite.push(int(NEVER));
            ite.push(Op::Ite(ScalarTy::Int(W)));
            ite
        }
        // After one step `v == K` no longer holds.
        (CmpOp::Eq, _) => vec![int(1)],
        // The steps go away from the bound: only a wrap ends the loop.
        _ => vec![int(NEVER)],
    };
    let at = |instr: Instr, span, code: &mut Vec<Located>| {
        code.push(Located {
            instr,
            span,
            checks: Box::new([]),
        });
    };
    let next = |code: &Vec<Located>| code.len() as Pc + 1;
    at(
        Instr::Assign {
            dst: k,
            value: exit.into(),
            next: next(code),
        },
        span,
        code,
    );
    // No further than a wrap of an unsigned guard variable, or the
    // iteration before a signed variable overflows.
    for s in &c.steps {
        let is_guard = s.place == g.place;
        if !(is_guard || s.ty.is_signed()) {
            continue;
        }
        let (min, max) = (
            s.ty.min().and_then(|m| m.to_i64()).unwrap_or(0),
            s.ty.max().and_then(|m| m.to_i64()).unwrap_or(0),
        );
        let room = if s.by > 0 {
            bin(vec![int(max)], wide(s.place, s.ty), BinOp::Sub)
        } else {
            bin(wide(s.place, s.ty), vec![int(min)], BinOp::Sub)
        };
        let first_out = bin(
            bin(room, vec![int(s.by.abs())], BinOp::Div),
            vec![int(1)],
            BinOp::Add,
        );
        let limit = if s.ty.is_signed() {
            bin(first_out, vec![int(1)], BinOp::Sub)
        } else {
            first_out
        };
        // k = k <= limit ? k : limit
        let mut value = vec![Op::Load(k)];
        value.extend(limit.clone());
        value.push(Op::Cmp(CmpOp::Le, W));
        value.push(Op::Load(k));
        value.extend(limit);
        value.push(Op::Ite(ScalarTy::Int(W)));
        at(
            Instr::Assign {
                dst: k,
                value: value.into(),
                next: next(code),
            },
            span,
            code,
        );
    }
    // k = 0: the body runs as written (its next iteration overflows).
    let apply = code.len() as Pc + 1;
    at(
        Instr::Branch {
            cond: vec![Op::Load(k), int(0), Op::Cmp(CmpOp::Eq, W)].into(),
            then_to: map[c.body as usize],
            else_to: apply,
        },
        span,
        code,
    );
    for (i, s) in c.steps.iter().enumerate() {
        // In i64, wrapping: exact for a signed variable (in range by the
        // bound above), right modulo 2^w for an unsigned one.
        let mut value = bin(
            wide(s.place, s.ty),
            bin(vec![Op::Load(k)], vec![int(s.by)], BinOp::Mul),
            BinOp::Add,
        );
        value.push(Op::Cast(W, s.ty));
        let next = if i + 1 == c.steps.len() {
            map[c.head as usize]
        } else {
            code.len() as Pc + 1
        };
        at(
            Instr::Assign {
                dst: s.place,
                value: value.into(),
                next,
            },
            old[s.at as usize].span,
            code,
        );
    }
}
