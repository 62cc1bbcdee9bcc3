//! Structures by value: assignment (`s = t`, `*p = t`, `a[i] = t`),
//! initialisation from another structure, parameters and results. A
//! structure value is its object; a copy stores every member of the
//! source object into the destination's. A parameter gets a fresh object
//! of its own (a copy of the argument's, whose pointer the call passes),
//! and a result is returned as a pointer to a fresh copy, which the caller
//! copies where it goes.

use super::call;
use super::ptr::{self, Value};
use super::{heap, CSpan, Fun, Res, Var};
use crate::types::CType;
use lang_c::ast::{self, Expression as E, UnaryOperator as U};
use lang_c::span::Node;
use wiser_ir::{Diagnostic, Expr, Place, ScalarTy};

/// The structure an expression of structure type is of, if it is one.
pub fn struct_of(f: &Fun, e: &Node<E>) -> Option<u32> {
    match ptr::type_of_value(f, e) {
        Some(CType::Struct(i)) => Some(i),
        _ => None,
    }
}

/// The object a structure-valued expression denotes (the pointer to it,
/// with the checks of an access through a pointer where it is reached
/// through one) and its structure.
pub fn object(f: &mut Fun, e: &Node<E>) -> Res<(Expr, u32)> {
    let span = f.span(e.span);
    match &e.node {
        E::Identifier(id) => match f.lookup(&id.node.name) {
            Some(Var::Struct(p, i)) => Ok((f.rb.load(p), i)),
            _ => Err(Diagnostic::new(
                span,
                format!("`{}` is not a structure", id.node.name),
            )),
        },
        E::UnaryOperator(u) if u.node.operator.node == U::Indirection => {
            let (p, t) = ptr::pointer(f, &u.node.operand)?;
            match t {
                CType::Struct(i) => Ok((heap::checked(f, p, span), i)),
                _ => Err(not_a_structure(f, e.span)),
            }
        }
        E::BinaryOperator(b) if b.node.operator.node == ast::BinaryOperator::Index => {
            let (p, t) = ptr::element(f, b, span)?;
            match t {
                CType::Struct(i) => Ok((heap::checked(f, p, span), i)),
                _ => Err(not_a_structure(f, e.span)),
            }
        }
        E::Call(c) => match call::call(f, &c.node, e.span)? {
            Some(Value::Ptr(v, CType::Struct(i))) => Ok((v, i)),
            _ => Err(not_a_structure(f, e.span)),
        },
        _ => Err(f.u.unsupported(e.span, "this structure expression")),
    }
}

fn not_a_structure(f: &Fun, at: CSpan) -> Diagnostic {
    Diagnostic::new(f.span(at), "this expression is not a structure")
}

/// Copies every member of the structure `sid` at `src` into the object
/// at `dst` (both pointers, evaluated once, `src` first).
pub fn copy(f: &mut Fun, dst: Expr, src: Expr, sid: u32, at: CSpan) -> Res<()> {
    let span = f.span(at);
    let class = heap::class_of(f.u, f.rb.program(), sid, at)?;
    let (s, d) = (f.rb.temp(ScalarTy::INT), f.rb.temp(ScalarTy::INT));
    f.rb.assign(s, src, span);
    f.rb.assign(d, dst, span);
    let mut members: Vec<_> = class.fields.into_iter().collect();
    members.sort_by_key(|(_, (array, _))| array.0);
    for (name, (array, ty)) in members {
        if let CType::Opaque(what, _) = &ty {
            return Err(f.u.unsupported(
                at,
                &format!("copying a structure whose member `{name}` is one of the {what}"),
            ));
        }
        let elem = f.rb.program().array_ty(array).elem;
        let v = ptr::shared_select(f, array, elem, f.rb.load(s), span);
        let to = f.rb.load(d);
        f.rb.store(array, to, v, span);
    }
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
    copy(f, dst, src, si, at)
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
