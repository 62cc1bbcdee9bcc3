//! Structures: where a structure-valued expression is, its members, and
//! structures by value — assignment (`s = t`, `*p = t`, `a[i] = t`),
//! initialisation from another structure, parameters and results. A
//! structure is a row of slots in an object ([`super::layout`]): a member
//! is at the structure's pointer plus its offset, and a copy copies every
//! slot. A parameter gets a fresh object of its own (a copy of the
//! argument's, whose pointer the call passes), and a result is returned as
//! a pointer to a fresh copy, which the caller copies where it goes.

use super::call;
use super::ptr::{self, Value};
use super::{heap, layout, CSpan, Fun, Res, Var};
use crate::types::CType;
use lang_c::ast::{self, Expression as E, MemberOperator, UnaryOperator as U};
use lang_c::span::Node;
use wiser_ir::{Diagnostic, Expr, Place, ScalarTy};

/// The structure an expression of structure type is of, if it is one.
pub fn struct_of(f: &Fun, e: &Node<E>) -> Option<u32> {
    match ptr::type_of_value(f, e) {
        Some(CType::Struct(i)) => Some(i),
        _ => None,
    }
}

/// Where a structure-valued expression is: the pointer to its first
/// slot, whether it was reached through a pointer (an access to it must
/// then be checked), and its structure.
fn place_of(f: &mut Fun, e: &Node<E>) -> Res<(Expr, bool, u32)> {
    let span = f.span(e.span);
    let (p, through, t) = match &e.node {
        E::Identifier(id) => match f.lookup(&id.node.name) {
            Some(Var::Struct(p, i)) => (f.rb.load(p), false, CType::Struct(i)),
            _ => {
                return Err(Diagnostic::new(
                    span,
                    format!("`{}` is not a structure", id.node.name),
                ))
            }
        },
        E::UnaryOperator(u) if u.node.operator.node == U::Indirection => {
            let (p, t) = ptr::pointer(f, &u.node.operand)?;
            (p, true, t)
        }
        E::BinaryOperator(b)
            if b.node.operator.node == ast::BinaryOperator::Index
                && (ptr::is_pointer(f, &b.node.lhs) || ptr::is_pointer(f, &b.node.rhs)) =>
        {
            let (p, t) = ptr::element(f, b, span)?;
            (p, true, t)
        }
        E::Member(m) => {
            let (p, through, t) = member_slot(f, &m.node, e.span)?;
            (p, through, t)
        }
        E::Call(c) => match call::call(f, &c.node, e.span)? {
            Some(Value::Ptr(v, t)) => (v, false, t),
            _ => return Err(not_a_structure(f, e.span)),
        },
        // `(x, s)`: the last operand, after the others' effects.
        E::Comma(es) => {
            let (last, init) = es
                .split_last()
                .ok_or_else(|| Diagnostic::new(span, "empty comma expression"))?;
            for x in init {
                super::expr::effect(f, x)?;
            }
            return place_of(f, last);
        }
        // `(s = t)`: the assignment, then `s`.
        E::BinaryOperator(b) if b.node.operator.node == ast::BinaryOperator::Assign => {
            assign(f, &b.node.lhs, &b.node.rhs, e.span)?;
            return place_of(f, &b.node.lhs);
        }
        // `c ? s : t`: the one the condition picks (copied from right
        // after, as the value is).
        E::Conditional(c) => {
            let k = super::expr::cond(f, &c.node.condition)?;
            let res = f.rb.temp(ScalarTy::INT);
            let mut sid = None;
            let (lt, le, end) = (f.rb.label(), f.rb.label(), f.rb.label());
            f.rb.branch(k, lt, le, span);
            for (label, arm) in [(lt, &c.node.then_expression), (le, &c.node.else_expression)] {
                f.rb.bind(label);
                let (p, checked, i) = place_of(f, arm)?;
                if sid.is_some_and(|s| s != i) {
                    return Err(not_a_structure(f, arm.span));
                }
                sid = Some(i);
                let p = if checked {
                    heap::checked(f, p, span)
                } else {
                    p
                };
                f.rb.assign(res, p, span);
                f.rb.jump(end);
            }
            f.rb.bind(end);
            return Ok((f.rb.load(res), false, sid.unwrap_or_default()));
        }
        _ => return Err(f.u.unsupported(e.span, "this structure expression")),
    };
    match t {
        CType::Struct(i) => Ok((p, through, i)),
        _ => Err(not_a_structure(f, e.span)),
    }
}

/// A member access `e->m` or `e.m`: the pointer to the member's first
/// slot (unchecked), whether it was reached through a pointer, and the
/// member's type.
pub fn member_slot(f: &mut Fun, m: &ast::MemberExpression, at: CSpan) -> Res<(Expr, bool, CType)> {
    let span = f.span(at);
    let (base, through, sid) = match m.operator.node {
        MemberOperator::Indirect => {
            if !ptr::is_pointer(f, &m.expression) {
                return Err(Diagnostic::new(
                    f.span(m.expression.span),
                    "`->` on something that is not a pointer",
                ));
            }
            let (v, t) = ptr::pointer(f, &m.expression)?;
            let CType::Struct(i) = t else {
                return Err(not_a_member_of(f, m, &t));
            };
            (v, true, i)
        }
        MemberOperator::Direct => {
            if let Some(t) =
                ptr::type_of_value(f, &m.expression).filter(|t| !matches!(t, CType::Struct(_)))
            {
                return Err(not_a_member_of(f, m, &t));
            }
            place_of(f, &m.expression)?
        }
    };
    let name = &m.identifier.node.name;
    let Some((offset, ty)) = layout::member(f.u, sid, name) else {
        return Err(Diagnostic::new(
            f.span(m.identifier.span),
            format!("`{}` has no member `{name}`", heap::struct_name(f.u, sid)),
        ));
    };
    if let CType::Opaque(what, at) = &ty {
        return Err(f.u.unsupported(
            at.map_or(m.identifier.span, |(a, b)| CSpan::span(a, b)),
            what,
        ));
    }
    Ok((layout::plus(base, offset, span), through, ty))
}

fn not_a_member_of(f: &Fun, m: &ast::MemberExpression, t: &CType) -> Diagnostic {
    Diagnostic::new(
        f.span(m.expression.span),
        format!(
            "a member of a `{}`, which is not a structure",
            t.describe_in(f)
        ),
    )
}

/// A member access for reading or writing the member: the pointer to its
/// first slot, checked where it was reached through a pointer, and the
/// member's type.
pub fn member(f: &mut Fun, m: &ast::MemberExpression, at: CSpan) -> Res<(Expr, CType)> {
    let (p, through, ty) = member_slot(f, m, at)?;
    let span = f.span(at);
    Ok((
        if through {
            heap::checked(f, p, span)
        } else {
            p
        },
        ty,
    ))
}

/// The object a structure-valued expression denotes (the pointer to it,
/// with the checks of an access through a pointer where it is reached
/// through one) and its structure.
pub fn object(f: &mut Fun, e: &Node<E>) -> Res<(Expr, u32)> {
    let span = f.span(e.span);
    let (p, through, i) = place_of(f, e)?;
    Ok((
        if through {
            heap::checked(f, p, span)
        } else {
            p
        },
        i,
    ))
}

fn not_a_structure(f: &Fun, at: CSpan) -> Diagnostic {
    Diagnostic::new(f.span(at), "this expression is not a structure")
}

/// Copies every slot of the structure `sid` at `src` into the object at
/// `dst` (both pointers, evaluated once, `src` first).
pub fn copy(f: &mut Fun, dst: Expr, src: Expr, sid: u32, at: CSpan) -> Res<()> {
    let span = f.span(at);
    if let Some((name, _, CType::Opaque(what, _))) = layout::members(f.u, sid)
        .into_iter()
        .find(|(_, _, t)| matches!(t, CType::Opaque(..)))
    {
        return Err(f.u.unsupported(
            at,
            &format!("copying a structure whose member `{name}` is one of the {what}"),
        ));
    }
    let (s, d) = (f.rb.temp(ScalarTy::INT), f.rb.temp(ScalarTy::INT));
    f.rb.assign(s, src, span);
    f.rb.assign(d, dst, span);
    let (s, d) = (f.rb.load(s), f.rb.load(d));
    layout::copy(f, &CType::Struct(sid), d, s, span);
    Ok(())
}

/// `lhs = rhs` for structures.
pub fn assign(f: &mut Fun, lhs: &Node<E>, rhs: &Node<E>, at: CSpan) -> Res<()> {
    let (src, si) = object(f, rhs)?;
    let (dst, di) = object(f, lhs)?;
    if si != di {
        return Err(Diagnostic::new(
            f.span(at),
            format!(
                "a `{}` is assigned to a `{}`",
                heap::struct_name(f.u, si),
                heap::struct_name(f.u, di)
            ),
        ));
    }
    // In a program that stores through pointers into unions' members,
    // the destination is also where the store landed
    // ([`super::union_ptrs`]): held in a temporary (the source first, as
    // `copy` evaluates them).
    let (dst, src, cell) = if f.u.heap.union_ptrs.sync.is_some() {
        let span = f.span(at);
        let (s, d) = (f.rb.temp(ScalarTy::INT), f.rb.temp(ScalarTy::INT));
        f.rb.assign(s, src, span);
        f.rb.assign(d, dst, span);
        let cell = (f.rb.load(d), CType::Struct(di));
        (f.rb.load(d), f.rb.load(s), Some(cell))
    } else {
        (dst, src, None)
    };
    copy(f, dst, src, si, at)?;
    super::unions::after_store(f, lhs, cell, at)
}

/// A fresh object of structure `sid` in `place` holding a copy of the
/// structure at `src`: a parameter's own object, a result's copy.
pub fn fresh_copy(f: &mut Fun, place: Place, src: Expr, sid: u32, at: CSpan) -> Res<()> {
    let span = f.span(at);
    let s = f.rb.temp(ScalarTy::INT);
    f.rb.assign(s, src, span);
    super::alloc::fresh(f, place, sid, false, span)?;
    let (from, to) = (f.rb.load(s), f.rb.load(place));
    copy(f, to, from, sid, at)
}
