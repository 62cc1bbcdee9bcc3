//! Stores through pointers into a union's members (`int *p = &u.i; *p =
//! -1;`, `strcpy(v.as.str, "hi")`, a callee storing through its `char *`
//! parameter). `unions.rs` keeps a union in step on the stores that name
//! it; such a store names no union, so a program that takes a pointer
//! into a union's member is lowered twice ([`super::lower`]): the first
//! pass finds the unions pointed into ([`State::taken`]), the second keeps
//! them in step through pointers.
//!
//! * Where a pointer into a member of union `U` is taken (`&u.i`, `u.c`
//!   as a pointer, `(int *)&u`, `&u` as a `void *`), the descriptor of
//!   each slot of that union's object is written: `$union slot[p]` is
//!   [`descriptor`]`(U, s)` for the union's slot `s`, nonzero. Every other
//!   cell's is 0 (the array's default): a pointer into a union's member
//!   can only come from such an expression (or arithmetic on its result),
//!   so the union's slots are described before any store through it.
//!   (Describing them where the object is made instead would touch every
//!   way an object comes to be — locals, globals, `malloc`, arrays,
//!   copies of parameters and results — and cost every object holding
//!   such a union, pointed into or not.)
//! * After each store through a pointer (`*p = v`, `p[i] = v`, `p->m =
//!   v`, `*ps = t`, which [`super::unions::after_store`] sends here, and
//!   `memset`'s and `memcpy`'s) of a value held where a member of a union
//!   pointed into is, the stored cell's descriptor is read; for each slot
//!   of those unions held in the same memory, `if (d == descriptor(U,
//!   s))` brings union `U` (at `p - s`) in step with
//!   [`super::unions::in_step`], the one routine the stores that name the
//!   union use. The check is code the front end writes: the engines know
//!   nothing of unions.
//!
//! A program that takes no such pointer is lowered once, exactly as
//! before. A union nested in another union is kept in step only where
//! it is innermost (as `unions.rs` does), so a pointer into a member of
//! one is refused where it is written.

use super::unions::{self, Scalar};
use super::{heap, layout, CSpan, Fun, Res, Unit};
use crate::types::{CType, Len};
use lang_c::ast::Expression as E;
use lang_c::span::Node;
use std::collections::BTreeSet;
use wiser_ir::{ArrayId, Diagnostic, Expr, ScalarTy};
use wiser_num::{BinOp, CmpOp, Int, IntTy};

/// What lowering knows of pointers into unions' members.
#[derive(Default)]
pub struct State {
    /// The unions to keep in step through pointers (the second pass:
    /// what the first found), or `None` (the first pass).
    pub sync: Option<BTreeSet<u32>>,
    /// The unions a pointer into whose member this pass has taken.
    pub taken: BTreeSet<u32>,
    /// `$union slot`, once made: each cell's descriptor.
    slots: Option<ArrayId>,
}

/// The descriptor of slot `s` of union `sid`: nonzero, and another for
/// each pair.
fn descriptor(sid: u32, s: u64) -> Expr {
    Expr::int(IntTy::INT, Int::from_u64(((u64::from(sid) + 1) << 32) + s))
}

/// The array of descriptors, indexed by pointers.
fn slots_array(f: &mut Fun) -> ArrayId {
    if let Some(a) = f.u.heap.union_ptrs.slots {
        return a;
    }
    let a = f.rb.program().array(
        "$union slot",
        heap::field_ty(ScalarTy::INT),
        Some(Int::from(0)),
    );
    f.u.heap.union_ptrs.slots = Some(a);
    a
}

/// Does the type `ty` hold a union of several members (in a member, an
/// element, or itself)?
fn holds_union(u: &Unit, ty: &CType, depth: u32) -> bool {
    if depth > 64 {
        return true;
    }
    match ty {
        CType::Struct(i) => {
            (unions::is_union(u, *i) && unions::several_members(u, *i))
                || layout::members(u, *i)
                    .iter()
                    .any(|(_, _, t)| holds_union(u, t, depth + 1))
        }
        CType::Array(elem, _) => holds_union(u, elem, depth + 1),
        _ => false,
    }
}

/// Does a value of type `ty` hold a whole union `sid` starting at its
/// slot `at` (itself, a member, an element)?
fn holds_at(u: &Unit, ty: &CType, at: u64, sid: u32, depth: u32) -> bool {
    if depth > 64 {
        return false;
    }
    match ty {
        CType::Struct(i) if *i == sid && at == 0 => true,
        CType::Struct(i) => layout::members(u, *i).iter().any(|(_, off, t)| {
            at >= *off && at < off + layout::slots(u, t) && holds_at(u, t, at - off, sid, depth + 1)
        }),
        CType::Array(elem, Len::Const(n)) => {
            let size = layout::slots(u, elem);
            at < size.saturating_mul(*n) && holds_at(u, elem, at % size, sid, depth + 1)
        }
        _ => false,
    }
}

/// Is union `sid` nested in another union, or another in it?
fn nested(u: &Unit, sid: u32) -> bool {
    let n = u.heap.structs.borrow().len() as u32;
    let inner = layout::members(u, sid)
        .iter()
        .any(|(_, _, t)| holds_union(u, t, 0));
    inner
        || (0..n).any(|o| {
            o != sid
                && unions::is_union(u, o)
                && unions::several_members(u, o)
                && layout::members(u, o)
                    .iter()
                    .any(|(_, _, t)| contains(u, t, sid, 0))
        })
}

/// Does the type `ty` hold structure `sid`?
fn contains(u: &Unit, ty: &CType, sid: u32, depth: u32) -> bool {
    if depth > 64 {
        return true;
    }
    match ty {
        CType::Struct(i) => {
            *i == sid
                || layout::members(u, *i)
                    .iter()
                    .any(|(_, _, t)| contains(u, t, sid, depth + 1))
        }
        CType::Array(elem, Len::Const(_)) => contains(u, elem, sid, depth + 1),
        _ => false,
    }
}

/// Where a pointer into a member of a union is taken (`e` is the member,
/// or an element of it: `&u.i`, `u.c` as a pointer, `&p->c[2]`): notes
/// the union, and in the second pass describes its slots. `Ok` for any
/// other `e`.
pub fn taken(f: &mut Fun, e: &Node<E>) -> Res<()> {
    if !unions::inside(f, e) {
        return Ok(());
    }
    let Some(found) = unions::locate(f, e) else {
        return Ok(());
    };
    if !note(f, found.sid, e.span)? {
        return Ok(());
    }
    let union = unions::union_of(f, &found, e.span)?;
    let base = f.rb.temp(ScalarTy::INT);
    f.rb.assign(base, union, f.span(e.span));
    describe(f, base, found.sid, e.span)
}

/// The union of several members structure `sid` is, or starts with
/// (its first member, or that member's first member, ...: at the same
/// pointer).
pub fn first_union(u: &Unit, sid: u32) -> Option<u32> {
    let mut at = sid;
    for _ in 0..64 {
        if unions::is_union(u, at) {
            return unions::several_members(u, at).then_some(at);
        }
        match layout::members(u, at).first() {
            Some((_, 0, CType::Struct(i))) => at = *i,
            _ => return None,
        }
    }
    None
}

/// `p`, a pointer to union `sid`, converted to a pointer to `to`: a
/// pointer to the first member whose first scalar is held as a `to` is
/// (all members start at the union's first byte), or to a member of type
/// `to`; the union's own pointer for `void *` (and a structure never
/// defined). `None` when `sid` is no union of several members, or no
/// member fits.
pub fn converted(f: &mut Fun, p: Expr, sid: u32, to: &CType, at: CSpan) -> Res<Option<Expr>> {
    if !unions::is_union(f.u, sid) || !unions::several_members(f.u, sid) {
        return Ok(None);
    }
    let opaque = |f: &Fun, t: &CType| match t {
        CType::Void => true,
        CType::Struct(i) => {
            f.u.heap
                .structs
                .borrow()
                .get(*i as usize)
                .is_some_and(|s| s.fields.is_none())
        }
        _ => false,
    };
    let slot = if opaque(f, to) {
        Some(0)
    } else {
        let held = heap::value_ty(f.u, to);
        // (A bit-field has no address: no pointer is to one.)
        layout::members(f.u, sid)
            .into_iter()
            .filter(|(name, _, _)| layout::member_width(f.u, sid, name).is_none())
            .find(|(_, _, mty)| {
                mty == to
                    || (held.is_some()
                        && !matches!(to, CType::Struct(_))
                        && unions::scalars(f.u, mty)
                            .and_then(|ys| ys.first().map(|y| heap::value_ty(f.u, &y.ty)))
                            == Some(held))
            })
            .map(|(_, mslot, _)| mslot)
    };
    let Some(slot) = slot else {
        return Ok(None);
    };
    let span = f.span(at);
    if !note(f, sid, at)? {
        return Ok(Some(layout::plus(p, slot, span)));
    }
    let base = f.rb.temp(ScalarTy::INT);
    f.rb.assign(base, p, span);
    describe(f, base, sid, at)?;
    Ok(Some(layout::plus(f.rb.load(base), slot, span)))
}

/// Notes that a pointer into union `sid` is taken at `at`; whether this
/// is the second pass, which describes the union's slots. A union nested
/// in another is refused.
fn note(f: &mut Fun, sid: u32, at: CSpan) -> Res<bool> {
    if nested(f.u, sid) {
        return Err(f
            .u
            .unsupported(
                at,
                "a pointer into a member of a union nested in another union",
            )
            .with_help(
                "wiser keeps a nested union in step only on stores that name it \
                 (`u.in.m = ...`); store through the union instead",
            ));
    }
    f.u.heap.union_ptrs.taken.insert(sid);
    let Some(sync) = &f.u.heap.union_ptrs.sync else {
        return Ok(false);
    };
    if !sync.contains(&sid) {
        return Err(Diagnostic::new(
            f.span(at),
            "internal: a pointer into a union that the first pass did not see",
        ));
    }
    Ok(true)
}

/// Writes the descriptor of each slot of union `sid` at the pointer
/// `base` holds.
fn describe(f: &mut Fun, base: wiser_ir::Place, sid: u32, at: CSpan) -> Res<()> {
    let span = f.span(at);
    let count = layout::slots(f.u, &CType::Struct(sid));
    if count > unions::MAX_SCALARS as u64 {
        return Err(unions::too_large(f, at));
    }
    let array = slots_array(f);
    for s in 0..count {
        let q = layout::plus(f.rb.load(base), s, span);
        f.rb.store(array, q, descriptor(sid, s), span);
    }
    Ok(())
}

/// After a store through the pointer `p` (already evaluated: pass a
/// load or a constant) of a value of type `ty`: in the second pass, each
/// stored scalar that lands in a union pointed into brings the union in
/// step (see the module's documentation).
pub fn after_store(f: &mut Fun, p: Expr, ty: &CType, at: CSpan) -> Res<()> {
    let Some(sync) = f.u.heap.union_ptrs.sync.clone() else {
        return Ok(());
    };
    if sync.is_empty() {
        return Ok(());
    }
    let Some(stored) = unions::scalars(f.u, ty) else {
        return Ok(());
    };
    let span = f.span(at);
    let array = slots_array(f);
    let base = f.rb.temp(ScalarTy::INT);
    f.rb.assign(base, p, span);
    for x in stored {
        let held = heap::value_ty(f.u, &x.ty);
        // The slots of the unions pointed into that this memory holds.
        let mut cands = Vec::new();
        for &sid in &sync {
            for (member, mslot, mty) in layout::members(f.u, sid) {
                let Some(ys) = unions::member_scalars(f.u, sid, &member, &mty) else {
                    return Err(unions::too_large(f, at));
                };
                for y in ys {
                    let y = Scalar {
                        slot: y.slot + mslot,
                        ..y
                    };
                    // A union stored whole (`*p = u`, `*ps = s` holding
                    // it) is in step already: its other members' slots
                    // were stored too, from a value in step.
                    let whole = x
                        .slot
                        .checked_sub(y.slot)
                        .is_some_and(|at| holds_at(f.u, ty, at, sid, 0));
                    if heap::value_ty(f.u, &y.ty) == held && !whole {
                        cands.push((sid, member.clone(), y));
                    }
                }
            }
        }
        if cands.is_empty() {
            continue;
        }
        let q = f.rb.temp(ScalarTy::INT);
        let at_x = layout::plus(f.rb.load(base), x.slot, span);
        f.rb.assign(q, at_x, span);
        let d = f.rb.temp(ScalarTy::INT);
        let desc = Expr::select(array, heap::field_ty(ScalarTy::INT), f.rb.load(q));
        f.rb.assign(d, desc, span);
        let described = Expr::cmp(CmpOp::Ne, f.rb.load(d), Expr::int(IntTy::INT, 0));
        f.if_else(
            described,
            span,
            |f| {
                for (sid, member, y) in &cands {
                    let this = Expr::cmp(CmpOp::Eq, f.rb.load(d), descriptor(*sid, y.slot));
                    let start = Expr::binary(
                        BinOp::Sub,
                        f.rb.load(q),
                        Expr::int(IntTy::INT, Int::from_u64(y.slot)),
                        span,
                    );
                    f.if_else(
                        this,
                        span,
                        |f| unions::in_step(f, start, *sid, member, std::slice::from_ref(y), at),
                        |_| Ok(()),
                    )?;
                }
                Ok(())
            },
            |_| Ok(()),
        )?;
    }
    Ok(())
}
