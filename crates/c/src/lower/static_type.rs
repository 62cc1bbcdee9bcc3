//! The type of an expression without evaluating it (`sizeof e`, the
//! common type of `c ? a : b` when its operands must be branches), by
//! the same rules as [`super::expr`] through [`crate::types`].

use super::expr::is_compound;
use super::{call, consts, fnptr, Dim, Res, Unit, Var};
use crate::types::{CInt, CType, Len};
use lang_c::ast::{self, BinaryOperator as B, Expression as E, UnaryOperator as U};
use lang_c::span::Node;
use wiser_ir::Diagnostic;

/// The type of an expression without evaluating it (`sizeof`, `?:`).
pub fn static_type(u: &Unit, scope: &dyn Fn(&str) -> Option<Var>, e: &Node<E>) -> Res<CType> {
    let dm = u.dm;
    let int = |t: CInt| Ok(CType::Int(t));
    match &e.node {
        E::Constant(_) | E::SizeOfTy(_) | E::SizeOfVal(_) | E::OffsetOf(_) => {
            consts::eval(u, scope, e).map(|(_, t)| CType::Int(t))
        }
        E::Identifier(id) => match scope(&id.node.name) {
            Some(Var::Scalar(_, t)) => int(t),
            Some(Var::Const(_)) => int(CInt::INT),
            Some(Var::Ptr(_, t)) => Ok(CType::Pointer(Box::new(t))),
            Some(Var::Block(_, t, len)) => Ok(CType::Array(Box::new(t), len)),
            Some(Var::Cell(_, t)) => Ok(t),
            Some(Var::Struct(_, i)) => Ok(CType::Struct(i)),
            Some(Var::Mutex(_)) => Ok(CType::Mutex),
            Some(Var::Array(o)) => {
                let mut t = CType::Int(o.elem);
                for d in o.dims.iter().rev() {
                    let len = match d {
                        Dim::Const(n) => Len::Const(*n),
                        Dim::Var(p) => Len::Var(*p),
                    };
                    t = CType::Array(Box::new(t), len);
                }
                Ok(t)
            }
            None => fnptr::designator_type(u, scope, e).ok_or_else(|| {
                Diagnostic::new(
                    u.span(e.span),
                    format!("`{}` is not declared", id.node.name),
                )
            }),
        },
        E::Cast(c) => super::declarator::type_name(u, &c.node.type_name.node),
        E::Call(c) => match &c.node.callee.node {
            E::Identifier(id) if scope(&id.node.name).is_none() => {
                Ok(match u.funcs.get(&id.node.name) {
                    Some(fi) if fi.def.is_some() => fi.ret.clone(),
                    _ if matches!(id.node.name.as_str(), "malloc" | "calloc") => {
                        CType::Pointer(Box::new(CType::Void))
                    }
                    Some(fi) => fi.ret.clone(),
                    None => call::special_type(&id.node.name)
                        .map(CType::Int)
                        .unwrap_or(CType::INT),
                })
            }
            // `(*f)(x)` of a function `f`, or a call through a pointer.
            E::UnaryOperator(un) if fnptr::function_name(u, scope, &un.node.operand).is_some() => {
                let name = fnptr::function_name(u, scope, &un.node.operand).unwrap_or_default();
                Ok(u.funcs[name].ret.clone())
            }
            _ => match static_type(u, scope, &c.node.callee)? {
                CType::Pointer(p) => match *p {
                    CType::Func(sig) => Ok(sig.ret),
                    _ => Err(u.unsupported(e.span, "this call")),
                },
                _ => Err(u.unsupported(e.span, "this call")),
            },
        },
        E::BinaryOperator(b) => {
            let op = &b.node.operator.node;
            if *op == B::Index {
                return match static_type(u, scope, &b.node.lhs)? {
                    CType::Array(elem, _) | CType::Pointer(elem) => Ok(*elem),
                    _ => Err(u.unsupported(e.span, "this subscript")),
                };
            }
            if consts::cmp_op(op).is_some() || matches!(op, B::LogicalAnd | B::LogicalOr) {
                return int(CInt::INT);
            }
            let l = static_type(u, scope, &b.node.lhs)?;
            if *op == B::Assign || is_compound(op) {
                return Ok(l);
            }
            let r = static_type(u, scope, &b.node.rhs)?;
            match (l.int(), r.int()) {
                (Some(l), _) if matches!(op, B::ShiftLeft | B::ShiftRight) => int(l.promote()),
                (Some(l), Some(r)) => int(CInt::common(l, r, dm)),
                _ => Err(u.unsupported(e.span, "arithmetic on arrays or pointers")),
            }
        }
        E::UnaryOperator(un) => {
            let t = static_type(u, scope, &un.node.operand)?;
            match un.node.operator.node {
                U::Negate => int(CInt::INT),
                U::Plus | U::Minus | U::Complement => t
                    .int()
                    .map(|t| CType::Int(t.promote()))
                    .ok_or_else(|| u.unsupported(e.span, "this operand")),
                U::Indirection => match t {
                    // `*p` of a function pointer: the function, a pointer
                    // again as a value.
                    t if fnptr::is_function_pointer(&t) => Ok(t),
                    CType::Array(elem, _) | CType::Pointer(elem) => Ok(*elem),
                    _ => Err(u.unsupported(e.span, "`*` on something that is not an array")),
                },
                U::Address if designates_function(u, scope, &un.node.operand) => Ok(t),
                U::Address => Ok(CType::Pointer(Box::new(t))),
                _ => Ok(t),
            }
        }
        E::Conditional(c) => {
            let a = static_type(u, scope, &c.node.then_expression)?;
            let b = static_type(u, scope, &c.node.else_expression)?;
            match (a.int(), b.int()) {
                (Some(a), Some(b)) => int(CInt::common(a, b, dm)),
                _ if a == CType::Void => Ok(CType::Void),
                _ if a.is_pointer() => Ok(a),
                _ if b.is_pointer() => Ok(b),
                _ => Err(u.unsupported(e.span, "this conditional expression")),
            }
        }
        E::Comma(es) => match es.last() {
            Some(x) => static_type(u, scope, x),
            None => int(CInt::INT),
        },
        E::Member(m) => {
            let base = static_type(u, scope, &m.node.expression)?;
            let sid = match (&m.node.operator.node, base) {
                (ast::MemberOperator::Indirect, CType::Pointer(t)) => *t,
                (ast::MemberOperator::Direct, t) => t,
                _ => return Err(u.unsupported(e.span, "this member access")),
            };
            let CType::Struct(i) = sid else {
                return Err(u.unsupported(e.span, "a member of something that is not a structure"));
            };
            let name = &m.node.identifier.node.name;
            let field = super::layout::member(u, i, name).map(|(_, t)| {
                // A bit-field's value has its promoted type (`int` when
                // narrower than `int`).
                match (t, super::layout::member_width(u, i, name)) {
                    (CType::Int(c), Some(w)) => CType::Int(super::bitfields::value_ty(c, w, u.dm)),
                    (t, _) => t,
                }
            });
            field.ok_or_else(|| {
                Diagnostic::new(
                    u.span(m.node.identifier.span),
                    format!("no member `{}` here", m.node.identifier.node.name),
                )
            })
        }
        _ => Err(u.unsupported(e.span, "`sizeof` of this expression")),
    }
}

/// Does `e` designate a function: a function's name, or `*p` of a
/// function pointer?
fn designates_function(u: &Unit, scope: &dyn Fn(&str) -> Option<Var>, e: &Node<E>) -> bool {
    match &e.node {
        E::UnaryOperator(un) if un.node.operator.node == U::Indirection => {
            static_type(u, scope, &un.node.operand).is_ok_and(|t| fnptr::is_function_pointer(&t))
        }
        _ => fnptr::function_name(u, scope, e).is_some(),
    }
}
