//! Unions. A union is laid out like a structure ([`super::layout`]): each
//! member has slots of its own, in the memory of its type, so a member is
//! read like a structure's. What makes it a union is that its members
//! share their bytes: after every store into one member, the scalars of
//! the other members that overlap the bytes stored are brought in step
//! here, with the bytes gcc's x86 layout gives them (little-endian, the
//! data model's sizes and offsets, [`layout::bytes`]). So `u.i = 0x1234;
//! u.c[0]` reads `0x34`, `u.c[1] = 0; u.i` reads `0x34`, and a union of
//! an `int` and an `unsigned` converts as C says. What is shared is
//! counted in bits, so that a bit-field ([`super::bitfields`]) shares
//! only its own bits with the other members.
//!
//! A pointer's bytes are no integer here (a pointer is an object and an
//! offset, [`wiser_ir::pointer`]): an integer that overlaps a pointer
//! stored through another member holds any value (memory's arbitrary
//! contents, [`unknown`]); a pointer that overlaps integers stored is
//! `NULL` for zero bytes and otherwise an address in no object; a pointer
//! stored over a pointer at the same bytes is copied.
//!
//! Stores are kept in step here where the program names the union (`u.m =
//! …`, `p->s.a[i] = …`, `u = v`, an initialiser). A store through a
//! pointer into a union's member (`int *p = &u.i; *p = 1`) names no
//! union: [`super::union_ptrs`] keeps those in step, with the same
//! [`in_step`], in a program that takes such a pointer; a use that only
//! reads through the pointer ([`read_only_pointer`]: `printf`'s `%s`,
//! `strlen`'s parameter) needs none of that.

use super::{heap, layout, ptr, structs, CSpan, Fun, Res, Unit};
use crate::types::{CType, Len, Rank};
use lang_c::ast::{BinaryOperator as B, Expression as E, MemberOperator, UnaryOperator as U};
use lang_c::span::Node;
use wiser_ir::{Diagnostic, Expr, ScalarTy};
use wiser_num::{BinOp, Int, IntTy};

/// How many scalars a union's member may have for its stores to be kept
/// in step.
pub(super) const MAX_SCALARS: usize = 4096;

/// How many updates one store may emit (a store at a computed subscript
/// of an array member updates every scalar the array overlaps).
const MAX_UPDATES: usize = 256;

/// Is structure `sid` a union?
pub fn is_union(u: &Unit, sid: u32) -> bool {
    u.heap
        .structs
        .borrow()
        .get(sid as usize)
        .is_some_and(|s| s.union)
}

/// Does the program define a union of several members at all? (Lowering
/// without one skips every look for stores into unions.)
fn any(u: &Unit) -> bool {
    u.heap.unions.get()
}

/// One scalar of a value laid out in slots, from the value's start.
#[derive(Clone, Debug)]
pub(super) struct Scalar {
    /// Its slot.
    pub slot: u64,
    /// Its first bit in gcc's layout (bit `k` of byte `b` is `8b + k`:
    /// little-endian).
    pub bit: u64,
    /// Its width in bits (a bit-field's; 8 times its size for another).
    pub bits: u64,
    /// Its type (an integer, a pointer or a mutex).
    pub ty: CType,
}

impl Scalar {
    fn overlaps(&self, o: &Scalar) -> bool {
        self.bit < o.bit + o.bits && o.bit < self.bit + self.bits
    }
}

/// The scalars of a value of type `ty`, in slot order; `None` past
/// [`MAX_SCALARS`] or for a type without a byte layout.
pub(super) fn scalars(u: &Unit, ty: &CType) -> Option<Vec<Scalar>> {
    let mut out = Vec::new();
    scalars_at(u, ty, (0, 0, None), 0, &mut out)?;
    Some(out)
}

/// The scalars of member `name` (of type `ty`) of union `sid`, from the
/// union's start: a bit-field's one scalar as wide as the bit-field.
pub(super) fn member_scalars(u: &Unit, sid: u32, name: &str, ty: &CType) -> Option<Vec<Scalar>> {
    let mut out = Vec::new();
    let width = layout::member_width(u, sid, name);
    scalars_at(u, ty, (0, 0, width), 0, &mut out)?;
    Some(out)
}

/// The scalars of a `ty` at `(slot, bit)`, as wide as `width` when it is
/// a bit-field.
fn scalars_at(
    u: &Unit,
    ty: &CType,
    (slot, bit, width): (u64, u64, Option<u32>),
    depth: u32,
    out: &mut Vec<Scalar>,
) -> Option<()> {
    if depth > 64 || out.len() > MAX_SCALARS {
        return None;
    }
    match ty {
        CType::Int(_) | CType::Pointer(_) | CType::Mutex => out.push(Scalar {
            slot,
            bit,
            bits: width.map_or(layout::bytes(u, ty)?.0 * 8, u64::from),
            ty: ty.clone(),
        }),
        CType::Struct(i) => {
            for (name, mslot, mty) in layout::members(u, *i) {
                let (mbit, _, _, w) = layout::member_bits(u, *i, &name)?;
                scalars_at(u, &mty, (slot + mslot, bit + mbit, w), depth + 1, out)?;
            }
        }
        CType::Array(elem, Len::Const(n)) => {
            let (eslots, ebits) = (layout::slots(u, elem), layout::bytes(u, elem)?.0 * 8);
            for k in 0..*n {
                let at = (slot + k * eslots, bit + k * ebits, None);
                scalars_at(u, elem, at, depth + 1, out)?;
            }
        }
        _ => return None,
    }
    Some(())
}

/// A store into a union's member, as an lvalue names it: the union (an
/// expression of union type, or a pointer to one with `->`), the member,
/// and the members and subscripts from the member to what is stored.
pub(super) struct Found<'e> {
    base: &'e Node<E>,
    arrow: bool,
    /// The anonymous members from `base` to the union (C11's `struct {
    /// union { ... }; }`).
    through: Vec<String>,
    /// The union.
    pub sid: u32,
    member: String,
    rest: Vec<Step<'e>>,
}

/// A step from a union's member to the stored part of it.
enum Step<'e> {
    Member(String),
    /// A subscript of an array member (`None`: `*a`, element 0).
    Index(Option<&'e Node<E>>),
}

/// The union store `e` (an lvalue) names, if it names one.
pub(super) fn locate<'e>(f: &Fun, e: &'e Node<E>) -> Option<Found<'e>> {
    let array = |e: &Node<E>| matches!(ptr::type_of_value(f, e), Some(CType::Array(..)));
    match &e.node {
        E::Member(m) => {
            let arrow = m.node.operator.node == MemberOperator::Indirect;
            let container = match ptr::type_of_value(f, &m.node.expression) {
                Some(CType::Pointer(t)) if arrow => *t,
                Some(t) if !arrow => t,
                _ => return None,
            };
            let name = m.node.identifier.node.name.clone();
            let CType::Struct(outer) = container else {
                return None;
            };
            // The member as a path of members, through anonymous ones:
            // the first union on it is the union stored into.
            let mut path = layout::anonymous_path(f.u, outer, &name)?;
            path.push(name);
            let mut at = outer;
            for (k, step) in path.iter().enumerate() {
                if is_union(f.u, at) {
                    return Some(Found {
                        base: &m.node.expression,
                        arrow,
                        through: path[..k].to_vec(),
                        sid: at,
                        member: step.clone(),
                        rest: path[k + 1..].iter().cloned().map(Step::Member).collect(),
                    });
                }
                match layout::member(f.u, at, step) {
                    Some((_, CType::Struct(j))) => at = j,
                    _ => break,
                }
            }
            if arrow {
                return None;
            }
            let mut found = locate(f, &m.node.expression)?;
            found.rest.extend(path.into_iter().map(Step::Member));
            Some(found)
        }
        E::BinaryOperator(b) if b.node.operator.node == B::Index && array(&b.node.lhs) => {
            let mut found = locate(f, &b.node.lhs)?;
            found.rest.push(Step::Index(Some(&b.node.rhs)));
            Some(found)
        }
        E::UnaryOperator(o) if o.node.operator.node == U::Indirection && array(&o.node.operand) => {
            let mut found = locate(f, &o.node.operand)?;
            found.rest.push(Step::Index(None));
            Some(found)
        }
        _ => None,
    }
}

/// Is `e` (an lvalue or an array used as a pointer) part of a union's
/// member?
pub fn inside(f: &Fun, e: &Node<E>) -> bool {
    any(f.u) && locate(f, e).is_some_and(|found| several_members(f.u, found.sid))
}

pub(super) fn several_members(u: &Unit, sid: u32) -> bool {
    layout::members(u, sid).len() > 1
}

/// A pointer into a union's member for a use that only reads through it
/// (a `%s` argument, a C library parameter that is read): the array
/// member `u.c` as a pointer, or `&u.m`; `None` for any other expression.
/// Nothing stores through it, so nothing gets past the union's keeping
/// in step.
pub fn read_only_pointer(f: &mut Fun, e: &Node<E>) -> Res<Option<(Expr, CType)>> {
    let member = match &e.node {
        E::Member(m) if inside(f, e) => m,
        E::UnaryOperator(o) if o.node.operator.node == U::Address && inside(f, &o.node.operand) => {
            let E::Member(m) = &o.node.operand.node else {
                return Ok(None);
            };
            let (p, _, ty) = structs::member_slot(f, &m.node, o.node.operand.span)?;
            return Ok(Some((p, ty)));
        }
        _ => return Ok(None),
    };
    let (p, _, ty) = structs::member_slot(f, &member.node, e.span)?;
    Ok(match ty {
        CType::Array(elem, _) => Some((p, *elem)),
        _ => None,
    })
}

/// The error for a union reached through an expression with side
/// effects (`a[i++].u.x = 1`, `&a[i++].u.x`): the union is evaluated
/// again to keep it in step.
fn effects_error(f: &Fun, at: CSpan) -> Diagnostic {
    f.u.unsupported(
        at,
        "a union's member stored into, or pointed into, through an expression with side effects",
    )
    .with_help("evaluate the subscript or pointer into a variable first (`k = i++; a[k].u.x = 1;`)")
}

/// After a store to the lvalue `lhs`: when it stored into a member of a
/// union, brings the union's other members in step with the bytes stored.
/// `stored` is the pointer to what was stored and its type, when it is
/// in memory: a store through a pointer may land in a union's member
/// ([`super::union_ptrs::after_store`]).
pub fn after_store(
    f: &mut Fun,
    lhs: &Node<E>,
    stored: Option<(Expr, CType)>,
    at: CSpan,
) -> Res<()> {
    if !any(f.u) {
        return Ok(());
    }
    // A variable whose address is seen at another width ([`super::punned`]).
    if let (E::Identifier(id), Some((_, ty))) = (&lhs.node, &stored) {
        if let Some(super::Var::Cell(place, _)) = f.lookup(&id.node.name) {
            return super::punned::stored(f, place, ty, at);
        }
    }
    let Some(found) = locate(f, lhs).filter(|found| several_members(f.u, found.sid)) else {
        return match stored {
            Some((p, ty)) if through_pointer(f, lhs) => {
                super::union_ptrs::after_store(f, p, &ty, at)
            }
            _ => Ok(()),
        };
    };
    let span = f.span(at);
    let union = union_of(f, &found, at)?;
    let (mut slot, mut ty) = layout::member(f.u, found.sid, &found.member)
        .ok_or_else(|| Diagnostic::new(span, "no such member"))?;
    let (mut bit, mut width) = (0u64, layout::member_width(f.u, found.sid, &found.member));
    // Follow the constant steps; a computed subscript keeps the whole
    // array as what was stored.
    for step in &found.rest {
        match (step, &ty) {
            (Step::Member(name), CType::Struct(i)) => {
                let Some((b, s, t, w)) = layout::member_bits(f.u, *i, name) else {
                    return Err(Diagnostic::new(span, "no such member"));
                };
                (slot, bit, ty, width) = (slot + s, bit + b, t, w);
            }
            (Step::Index(i), CType::Array(elem, Len::Const(n))) => {
                let k = match i {
                    None => Some(0),
                    Some(i) => super::consts::eval(f.u, &|n: &str| f.lookup(n), i)
                        .ok()
                        .and_then(|(v, _)| v.to_i64())
                        .and_then(|v| u64::try_from(v).ok()),
                };
                let Some(k) = k.filter(|k| k < n) else { break };
                let eb = layout::bytes(f.u, elem).map_or(0, |b| b.0 * 8);
                (slot, bit, ty) = (
                    slot + k * layout::slots(f.u, elem),
                    bit + k * eb,
                    (**elem).clone(),
                );
            }
            _ => break,
        }
    }
    let stored = scalars_from(f, &ty, (slot, bit, width), at)?;
    let member = found.member.clone();
    in_step(f, union, found.sid, &member, &stored, at)
}

/// The pointer to the union `found` names, evaluated again (it has no
/// effects, so it is the same object).
pub(super) fn union_of(f: &mut Fun, found: &Found, at: CSpan) -> Res<Expr> {
    let effects = !pure(f, found.base)
        || found
            .rest
            .iter()
            .any(|s| matches!(s, Step::Index(Some(i)) if !pure(f, i)));
    if effects {
        return Err(effects_error(f, at));
    }
    let span = f.span(at);
    let mut union = if found.arrow {
        ptr::pointer(f, found.base)?.0
    } else {
        structs::object(f, found.base)?.0
    };
    let mut container = match ptr::type_of_value(f, found.base) {
        Some(CType::Pointer(t)) if found.arrow => *t,
        Some(t) => t,
        None => CType::Void,
    };
    for anon in &found.through {
        let CType::Struct(i) = container else { break };
        let Some((slot, t)) = layout::member(f.u, i, anon) else {
            break;
        };
        union = layout::plus(union, slot, span);
        container = t;
    }
    Ok(union)
}

/// Does the lvalue `e` lie where a pointer leads (`*p`, `p[i]`, `p->m`,
/// and members and elements of those), so that it may be inside a union
/// no expression names? A variable and its members and elements do not
/// (a union among them is one [`locate`] finds).
fn through_pointer(f: &Fun, e: &Node<E>) -> bool {
    match &e.node {
        E::Identifier(_) => false,
        E::Member(m) if m.node.operator.node == MemberOperator::Direct => {
            through_pointer(f, &m.node.expression)
        }
        E::BinaryOperator(b)
            if b.node.operator.node == B::Index
                && matches!(ptr::type_of_value(f, &b.node.lhs), Some(CType::Array(..))) =>
        {
            through_pointer(f, &b.node.lhs)
        }
        _ => true,
    }
}

/// The scalars of a value of type `ty` at `slot` and `bit` of a union
/// (a bit-field's of `width` bits).
fn scalars_from(
    f: &Fun,
    ty: &CType,
    at_bits: (u64, u64, Option<u32>),
    at: CSpan,
) -> Res<Vec<Scalar>> {
    let mut out = Vec::new();
    if scalars_at(f.u, ty, at_bits, 0, &mut out).is_none() {
        return Err(too_large(f, at));
    }
    Ok(out)
}

/// Does evaluating `e` again give the same value (no effects, members
/// and `*` read nothing the store changed)?
fn pure(f: &Fun, e: &Node<E>) -> bool {
    match &e.node {
        E::Member(m) => pure(f, &m.node.expression),
        E::UnaryOperator(o) if matches!(o.node.operator.node, U::Indirection | U::Address) => {
            pure(f, &o.node.operand)
        }
        E::BinaryOperator(b) if b.node.operator.node == B::Index => {
            pure(f, &b.node.lhs) && pure(f, &b.node.rhs)
        }
        _ => !f.effects(e),
    }
}

/// After member `member` of the union `sid` at `union` was written
/// whole (an initialiser), brings the other members in step.
pub fn after_member(f: &mut Fun, union: Expr, sid: u32, member: &str, at: CSpan) -> Res<()> {
    let Some((slot, ty)) = layout::member(f.u, sid, member) else {
        return Ok(());
    };
    let width = layout::member_width(f.u, sid, member);
    let stored = scalars_from(f, &ty, (slot, 0, width), at)?;
    in_step(f, union, sid, member, &stored, at)
}

/// The error for a union whose members' bytes are not all known here:
/// too many scalars, or a member without a layout known here.
pub(super) fn too_large(f: &Fun, at: CSpan) -> Diagnostic {
    f.u.unsupported(
        at,
        &format!(
            "a store into a union whose members have more than {MAX_SCALARS} scalars or a layout not known here"
        ),
    )
}

/// Updates every scalar of the members of union `sid` (at `union`) other
/// than `member` that overlaps a scalar of `stored` (slots and bytes from
/// the union's start).
pub(super) fn in_step(
    f: &mut Fun,
    union: Expr,
    sid: u32,
    member: &str,
    stored: &[Scalar],
    at: CSpan,
) -> Res<()> {
    let span = f.span(at);
    let members = layout::members(f.u, sid);
    let mut updates = 0usize;
    for (name, _, mty) in &members {
        if name == member {
            continue;
        }
        let Some(others) = member_scalars(f.u, sid, name, mty) else {
            return Err(too_large(f, at));
        };
        updates += others
            .iter()
            .map(|y| stored.iter().filter(|x| x.overlaps(y)).count())
            .sum::<usize>();
    }
    if updates > MAX_UPDATES {
        return Err(f.u.unsupported(
            at,
            &format!(
                "a store into a union that shares bytes with more than {MAX_UPDATES} scalars of its other members (a computed subscript of a long array member)"
            ),
        ));
    }
    // The union's pointer, read once.
    let base = f.rb.temp(ScalarTy::INT);
    f.rb.assign(base, union, span);
    for (name, mslot, mty) in members {
        if name == member {
            continue;
        }
        let Some(others) = member_scalars(f.u, sid, &name, &mty) else {
            return Err(too_large(f, at));
        };
        for y in others {
            let y = Scalar {
                slot: y.slot + mslot,
                ..y
            };
            let over: Vec<&Scalar> = stored.iter().filter(|x| x.overlaps(&y)).collect();
            if over.is_empty() {
                continue;
            }
            let yp = layout::plus(f.rb.load(base), y.slot, span);
            let pointer_bytes = over.iter().any(|x| {
                matches!(x.ty, CType::Pointer(_))
                    && !(matches!(y.ty, CType::Pointer(_)) && x.bit == y.bit && x.bits == y.bits)
            });
            if pointer_bytes {
                // A pointer's bytes are no integer here: what shares
                // them holds any value (one input, whatever else overlaps).
                unknown(f, &y, yp, at)?;
                continue;
            }
            for x in over {
                let xp = layout::plus(f.rb.load(base), x.slot, span);
                update(f, x, xp, &y, yp.clone(), at)?;
            }
        }
    }
    Ok(())
}

/// Sets the scalar `y` at `yp` from the bytes the integer, or the
/// pointer at the same bytes, `x` at `xp` shares with it. A pointer `y`
/// made of integers' bytes is `NULL` when they are all 0 and otherwise an
/// address in no object (a dereference of it is a `null_dereference`,
/// where gcc's build crashes).
fn update(f: &mut Fun, x: &Scalar, xp: Expr, y: &Scalar, yp: Expr, at: CSpan) -> Res<()> {
    let span = f.span(at);
    let (Some(xt), Some(yt)) = (heap::value_ty(f.u, &x.ty), heap::value_ty(f.u, &y.ty)) else {
        return Err(f.u.unsupported(at, "a union with a mutex"));
    };
    if matches!(x.ty, CType::Mutex) || matches!(y.ty, CType::Mutex) {
        return Err(f.u.unsupported(at, "a union with a mutex"));
    }
    // wiser computes a `long double` as a `double`: its bytes are not
    // gcc's 80-bit format, so no other member can share them.
    let long_double = |t: &CType| matches!(t, CType::Int(i) if i.rank == Rank::LongDouble);
    if long_double(&x.ty) || long_double(&y.ty) {
        return Err(f.u.unsupported(at, "a `long double` in a union"));
    }
    let (xa, _) = heap::cell_array(f, &x.ty, at)?;
    let (ya, _) = heap::cell_array(f, &y.ty, at)?;
    if matches!(x.ty, CType::Pointer(_)) {
        // The same pointer at the same bytes (`in_step` sends no other).
        let v = ptr::shared_select(f, xa, xt, xp, span);
        f.rb.store(ya, yp, v, span);
        return Ok(());
    }
    let ScalarTy::Int(yh) = yt else {
        return Ok(());
    };
    // The bits both share, from bit `lo` to `hi` (a bit-field's value is
    // its low bits: a read converts it to its width again,
    // [`super::bitfields::read`]).
    let lo = x.bit.max(y.bit);
    let hi = (x.bit + x.bits).min(y.bit + y.bits);
    let bits = |n: u64| Expr::int(IntTy::U64, Int::from_u64(n));
    let mask = if hi - lo >= 64 {
        u64::MAX
    } else {
        (1u64 << (hi - lo)) - 1
    };
    let shift_y = lo - y.bit;
    let xv = ptr::shared_select(f, xa, xt, xp, span).cast(IntTy::U64);
    let part = Expr::binary(BinOp::Shr, xv, bits(lo - x.bit), span);
    let v = if lo == y.bit && hi == y.bit + y.bits {
        // `y` lies inside `x`: its old value is not read.
        part.cast(yh)
    } else {
        let yv = ptr::shared_select(f, ya, yt, yp.clone(), span).cast(IntTy::U64);
        let part = Expr::binary(BinOp::BitAnd, part, bits(mask), span);
        let part = Expr::binary(BinOp::Shl, part, bits(shift_y), span);
        let kept = Expr::binary(BinOp::BitAnd, yv, bits(!(mask << shift_y)), span);
        Expr::binary(BinOp::BitOr, kept, part, span).cast(yh)
    };
    f.rb.store(ya, yp, v, span);
    Ok(())
}

/// Sets the scalar `y` at `yp` to any value: memory's own arbitrary
/// contents, from a cell no object has (of object 1: objects are -1, -2,
/// ...), a fresh one each time. No read of the witness, so a union whose
/// pointer member is set and whose integers are never read lists
/// nothing.
fn unknown(f: &mut Fun, y: &Scalar, yp: Expr, at: CSpan) -> Res<()> {
    let span = f.span(at);
    let Some(yt) = heap::value_ty(f.u, &y.ty) else {
        return Err(f.u.unsupported(at, "a union with a mutex"));
    };
    let (ya, _) = heap::cell_array(f, &y.ty, at)?;
    let junk = heap::mem(f.u, f.rb.program()).junk;
    let cell = Expr::binary(
        BinOp::Add,
        wiser_ir::pointer::base(Expr::int(IntTy::INT, 1), span),
        f.rb.load(junk),
        span,
    );
    let v = ptr::shared_select(f, ya, yt, cell, span);
    f.rb.store(ya, yp, v, span);
    let next = Expr::binary(BinOp::Add, f.rb.load(junk), Expr::int(IntTy::INT, 1), span);
    f.rb.assign(junk, next, span);
    Ok(())
}
