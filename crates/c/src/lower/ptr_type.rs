//! The type of a pointer-valued expression, found without lowering it:
//! before an operator is lowered, whether its operands are pointers (or
//! arrays, which convert to pointers, or functions) decides what it is.

use super::{fnptr, Fun, Var};
use crate::types::CType;
use lang_c::ast::{self, Expression as E, MemberOperator, UnaryOperator as U};
use lang_c::span::Node;

/// Does `e` have pointer type? Asked of the operands of most operators,
/// so it looks only as deep as pointer-valued expressions go (a sum of
/// sums is never a pointer value in the subset: pointer arithmetic is an
/// error where its operator is lowered), and at most [`MAX_LOOK`] levels.
pub fn is_pointer(f: &Fun, e: &Node<E>) -> bool {
    matches!(type_of(f, e, 0).and_then(decayed), Some(CType::Pointer(_)))
}

/// The type of `e` where it may be a pointer, a structure or a mutex.
pub fn type_of_value(f: &Fun, e: &Node<E>) -> Option<CType> {
    type_of(f, e, 0)
}

/// How deep [`is_pointer`] looks.
const MAX_LOOK: u32 = 64;

/// The type of `e` where it may be a pointer, a structure or a mutex;
/// `None` for everything else.
pub(super) fn type_of(f: &Fun, e: &Node<E>, depth: u32) -> Option<CType> {
    if depth > MAX_LOOK {
        return None;
    }
    if let Some(t) = fnptr::designator_type(f.u, &|n: &str| f.lookup(n), e) {
        return Some(t);
    }
    match &e.node {
        E::Identifier(id) => match f.lookup(&id.node.name)? {
            Var::Ptr(_, t) | Var::Block(_, t, _) => Some(CType::Pointer(Box::new(t))),
            Var::Cell(_, t) => Some(t),
            Var::Struct(_, i) => Some(CType::Struct(i)),
            Var::Mutex(_) => Some(CType::Mutex),
            _ => None,
        },
        E::Cast(c) => super::declarator::type_name(f.u, &c.node.type_name.node).ok(),
        E::StringLiteral(_) => Some(CType::Pointer(Box::new(CType::Int(super::strings::CHAR)))),
        E::Call(_) => super::static_type::static_type(f.u, &|n: &str| f.lookup(n), e).ok(),
        E::UnaryOperator(u) => match u.node.operator.node {
            // `&inc` and `&*p` of functions: the function pointer.
            U::Address if designates_function(f, &u.node.operand) => {
                type_of(f, &u.node.operand, depth + 1)
            }
            U::Address => {
                let inner = type_of(f, &u.node.operand, depth + 1).or_else(|| {
                    super::static_type::static_type(f.u, &|n: &str| f.lookup(n), &u.node.operand)
                        .ok()
                })?;
                Some(CType::Pointer(Box::new(inner)))
            }
            U::Indirection => match type_of(f, &u.node.operand, depth + 1)? {
                // `*p` of a function pointer is the function, which is
                // the pointer again as a value.
                t if fnptr::is_function_pointer(&t) => Some(t),
                CType::Pointer(t) => Some(*t),
                _ => None,
            },
            U::PostIncrement | U::PostDecrement | U::PreIncrement | U::PreDecrement => {
                type_of(f, &u.node.operand, depth + 1).filter(CType::is_pointer)
            }
            _ => None,
        },
        E::Member(m) => {
            let base = type_of(f, &m.node.expression, depth + 1)?;
            let sid = match (&m.node.operator.node, base) {
                (MemberOperator::Indirect, CType::Pointer(t)) => *t,
                (MemberOperator::Direct, t) => t,
                _ => return None,
            };
            let CType::Struct(i) = sid else { return None };
            super::layout::member(f.u, i, &m.node.identifier.node.name).map(|(_, t)| t)
        }
        E::BinaryOperator(b)
            if b.node.operator.node == ast::BinaryOperator::Index
                && matches!(element_type(f, b), Some(CType::Array(..))) =>
        {
            element_type(f, b)
        }
        E::BinaryOperator(b) if b.node.operator.node == ast::BinaryOperator::Assign => {
            type_of(f, &b.node.lhs, depth + 1)
        }
        E::BinaryOperator(b) => {
            use ast::BinaryOperator as B;
            let (l, r) = (
                type_of(f, &b.node.lhs, depth + 1).and_then(decayed),
                type_of(f, &b.node.rhs, depth + 1).and_then(decayed),
            );
            match (&b.node.operator.node, l, r) {
                // `p + i`, `i + p`, `p - i`, `p += i`: a pointer; `p - q`
                // is an integer.
                (B::Plus, Some(t), None) | (B::Plus, None, Some(t)) => Some(t),
                (B::Minus | B::AssignPlus | B::AssignMinus, Some(t), None) => Some(t),
                // `p[i]`: the element, when it may be a pointer or a
                // structure.
                (B::Index, Some(CType::Pointer(t)), None) if t.int().is_none() => Some(*t),
                _ => None,
            }
        }
        E::Conditional(c) => type_of(f, &c.node.then_expression, depth + 1)
            .filter(CType::is_pointer)
            .or_else(|| type_of(f, &c.node.else_expression, depth + 1)),
        E::Comma(es) => type_of(f, es.last()?, depth + 1),
        _ => None,
    }
}

/// A pointer type, or an array type as the pointer to its first element
/// (where C converts an array to one); `None` for other types.
fn decayed(t: CType) -> Option<CType> {
    match t {
        CType::Array(elem, _) => Some(CType::Pointer(elem)),
        CType::Pointer(_) => Some(t),
        _ => None,
    }
}

/// The type of the element `p[i]` (or `i[p]`) denotes, when one operand
/// is a pointer or an array member.
pub(super) fn element_type(f: &Fun, b: &Node<ast::BinaryOperatorExpression>) -> Option<CType> {
    let side = |e| type_of(f, e, 1).and_then(decayed);
    match side(&b.node.lhs).or_else(|| side(&b.node.rhs))? {
        CType::Pointer(t) => Some(*t),
        _ => None,
    }
}

/// Does `e` designate a function (a function's name, `*p` of a function
/// pointer `p`)?
pub(super) fn designates_function(f: &Fun, e: &Node<E>) -> bool {
    match &e.node {
        E::Identifier(_) => fnptr::function_name(f.u, &|n: &str| f.lookup(n), e).is_some(),
        E::UnaryOperator(u) if u.node.operator.node == U::Indirection => {
            type_of(f, &u.node.operand, 0).is_some_and(|t| fnptr::is_function_pointer(&t))
        }
        _ => false,
    }
}
