//! Pointer-valued expressions: `NULL`, pointer variables, `&x`, members
//! and cells that hold pointers, `malloc`, calls of functions that return
//! pointers, pointer arithmetic (`p + i`, `p[i]`, `&p[i]`, `p++`, `p - q`)
//! and comparisons. A pointer is an object and an offset in one IR `int`
//! ([`wiser_ir::pointer`]); its C pointee type travels beside it, and
//! offsets count its elements. Arithmetic on `void *` is an error, never a
//! guess.

use super::expr::{self, LVal};
use super::ptr_type::{designates_function, element_type, type_of};
pub use super::ptr_type::{is_pointer, type_of_value};
use super::{call, consts, fnptr, heap, layout, structs, unions, CSpan, Fun, Res, Var};
use crate::types::CType;
use lang_c::ast::{self, Expression as E, UnaryOperator as U};
use lang_c::span::Node;
use wiser_ir::{ArrayId, Diagnostic, Expr, Place, ScalarTy};

/// A value of either kind.
pub enum Value {
    /// An integer and its C type.
    Int(expr::Val),
    /// A reference and the pointee type.
    Ptr(Expr, CType),
}

/// Where a pointer is stored.
#[derive(Clone)]
pub enum PLVal {
    /// A variable.
    Place(Place),
    /// A member or a cell: its array and the (checked) object.
    Heap(ArrayId, Expr),
}

/// Is `e` a null pointer constant (`0`, `(void *)0`, `NULL`)?
pub fn is_null(f: &Fun, e: &Node<E>) -> bool {
    let mut e = e;
    while let E::Cast(c) = &e.node {
        e = &c.node.expression;
    }
    matches!(consts::eval(f.u, &|n: &str| f.lookup(n), e), Ok((v, _)) if v.is_zero())
}

/// The null reference.
pub fn null() -> Expr {
    Expr::int(wiser_num::IntTy::INT, 0)
}

/// Is `ty` a structure declared and never defined (`struct L5;` of a
/// header, or a tag used only through pointers)? Its objects are made as
/// something else (bytes `malloc` made), so a pointer to it converts like
/// a `void *`.
fn incomplete(f: &Fun, ty: &CType) -> bool {
    let CType::Struct(i) = ty else { return false };
    f.u.heap
        .structs
        .borrow()
        .get(*i as usize)
        .is_some_and(|s| s.fields.is_none())
}

/// Pointee types that a pointer to `from` may be stored in a pointer to
/// `to` without a cast: the same, or either is `void` (or a structure
/// never defined), or as the arms below say.
fn compatible(f: &Fun, from: &CType, to: &CType) -> bool {
    if matches!(from, CType::Func(_)) || matches!(to, CType::Func(_)) {
        // A function pointer is a function's number: never an object's
        // pointer, not even through `void *`.
        return from == to;
    }
    from == to
        || *from == CType::Void
        || *to == CType::Void
        || incomplete(f, from)
        || incomplete(f, to)
        || match (from, to) {
            // `int *` and `unsigned *`, `char *` and `unsigned char *`:
            // memory holds integers by width ([`heap::value_ty`]).
            (CType::Int(a), CType::Int(b)) => a.bits(f.u.dm) == b.bits(f.u.dm),
            // Pointers of any two types: memory holds every pointer alike.
            (CType::Pointer(_), CType::Pointer(_)) => true,
            // A pointer to a structure and a pointer to its first member
            // (C11 6.7.2.1:15): the member's slot is the structure's first.
            (CType::Struct(i), other) | (other, CType::Struct(i)) => {
                !matches!(other, CType::Struct(_)) && first_member(f, *i, other)
            }
            _ => false,
        }
}

/// Is the first slot of structure `sid` one a `ty` is held in (an
/// integer of its width, or a pointer)?
fn first_member(f: &Fun, sid: u32, ty: &CType) -> bool {
    if unions::is_union(f.u, sid) {
        // Its members are not all at its first slot: `pointer_to`
        // converts a union's pointer ([`super::union_ptrs::converted`]).
        return false;
    }
    let first = layout::runs(f.u, &CType::Struct(sid))
        .into_iter()
        .find(|r| r.offset == 0);
    match (first, heap::value_ty(f.u, ty)) {
        (Some(run), Some(t)) => heap::value_ty(f.u, &run.ty) == Some(t),
        _ => false,
    }
}

/// [`pointer_to`] for a use that only reads through the pointer: a
/// pointer into a union's member is one too ([`unions::read_only_pointer`]).
pub fn pointer_to_read(f: &mut Fun, e: &Node<E>, to: &CType) -> Res<Expr> {
    match unions::read_only_pointer(f, e)? {
        Some((p, from)) if compatible(f, &from, to) => Ok(p),
        _ => pointer_to(f, e, to),
    }
}

/// `e` as a pointer to `to`: a null constant, or a pointer of a
/// compatible type.
pub fn pointer_to(f: &mut Fun, e: &Node<E>, to: &CType) -> Res<Expr> {
    // (`NULL` may be `(void *)0`, which converts to a function pointer.)
    if (!is_pointer(f, e) || matches!(to, CType::Func(_))) && is_null(f, e) {
        return Ok(null());
    }
    if !is_pointer(f, e) {
        return Err(Diagnostic::new(
            f.span(e.span),
            format!(
                "an integer is used as a `{}`",
                CType::Pointer(Box::new(to.clone())).describe_in(f)
            ),
        )
        .with_help("only `0` (`NULL`) converts to a pointer; casts between integers and pointers are not supported"));
    }
    if let Some(p) = super::punned::converted(f, e, to)? {
        return Ok(p);
    }
    let (v, from) = pointer(f, e)?;
    let v = super::leaks::typed_by_use(f, v, &from, to, e.span);
    if let CType::Struct(sid) = from {
        // A union's pointer (or a structure's that starts with a union) as
        // a member's (`(int *)&u`) or as `void *`: kept in step through
        // pointers ([`super::union_ptrs`]).
        let first = super::union_ptrs::first_union(f.u, sid);
        if let Some(union) = first.filter(|_| from != *to) {
            if let Some(p) = super::union_ptrs::converted(f, v.clone(), union, to, e.span)? {
                return Ok(p);
            }
        }
    }
    if (from == CType::Void || incomplete(f, &from))
        && *to != CType::Void
        && layout::bytes(f.u, to).is_none_or(|(n, _)| n > 1)
    {
        f.u.heap.from_void = true;
    }
    if !compatible(f, &from, to) {
        return Err(Diagnostic::new(
            f.span(e.span),
            format!(
                "a `{}` is used as a `{}`",
                CType::Pointer(Box::new(from)).describe_in(f),
                CType::Pointer(Box::new(to.clone())).describe_in(f)
            ),
        )
        .with_help("wiser keeps objects of different types apart: pointers to other types are not supported"));
    }
    Ok(v)
}

impl CType {
    /// A description that names structures by their tags.
    pub fn describe_in(&self, f: &Fun) -> String {
        match self {
            CType::Struct(i) => heap::struct_name(f.u, *i),
            CType::Pointer(p) => match &**p {
                CType::Func(sig) => sig.describe_pointer(|t| t.describe_in(f)),
                p => format!("{} *", p.describe_in(f)),
            },
            t => t.describe(),
        }
    }
}

/// The value of a pointer expression and its pointee type.
pub fn pointer(f: &mut Fun, e: &Node<E>) -> Res<(Expr, CType)> {
    f.enter(e.span)?;
    let r = pointer_at(f, e);
    f.depth -= 1;
    r
}

fn pointer_at(f: &mut Fun, e: &Node<E>) -> Res<(Expr, CType)> {
    let span = f.span(e.span);
    if let Some(name) = fnptr::function_name(f.u, &|n: &str| f.lookup(n), e) {
        return fnptr::value(f, name, e.span);
    }
    match &e.node {
        // An array member is the pointer to its first element.
        E::Member(m) if matches!(type_of(f, e, 0), Some(CType::Array(..))) => {
            super::union_ptrs::taken(f, e)?;
            let (p, _, ty) = structs::member_slot(f, &m.node, e.span)?;
            let CType::Array(elem, _) = ty else {
                return Err(Diagnostic::new(span, "this member is not an array"));
            };
            Ok((p, *elem))
        }
        E::Identifier(_) | E::Member(_) => {
            let (lv, t) = plvalue(f, e)?;
            Ok((load(f, &lv, span), t))
        }
        // `*p` of a function pointer: the function, as a pointer.
        E::UnaryOperator(u) if designates_function(f, e) => pointer(f, &u.node.operand),
        E::UnaryOperator(u) if u.node.operator.node == U::Indirection => {
            // `*pa` of a pointer to an array is the array: the pointer to
            // its first element, nothing read.
            if let Some(CType::Pointer(inner)) = type_of(f, &u.node.operand, 0) {
                if let CType::Array(elem, _) = *inner {
                    let (p, _) = pointer(f, &u.node.operand)?;
                    return Ok((p, *elem));
                }
            }
            let (lv, t) = plvalue(f, e)?;
            Ok((load(f, &lv, span), t))
        }
        E::UnaryOperator(u) if u.node.operator.node == U::Address => address(f, &u.node.operand),
        E::StringLiteral(s) => super::strings::literal(f, &s.node, e.span),
        E::Cast(c) => {
            let to = super::declarator::type_name(f.u, &c.node.type_name.node)?;
            let CType::Pointer(to) = to else {
                return Err(f.u.unsupported(e.span, "casts of pointers to integers"));
            };
            if let Some(p) = container_of(f, &to, &c.node.expression, span)? {
                return Ok((p, *to));
            }
            if is_null(f, &c.node.expression) && !is_pointer(f, &c.node.expression) {
                return Ok((null(), *to));
            }
            let v = pointer_to(f, &c.node.expression, &to)?;
            Ok((v, *to))
        }
        E::Call(c) => match call::call(f, &c.node, e.span)? {
            Some(Value::Ptr(v, t)) => Ok((v, t)),
            _ => Err(Diagnostic::new(span, "this call does not return a pointer")),
        },
        E::BinaryOperator(b) if b.node.operator.node == ast::BinaryOperator::Assign => {
            let (lv, t) = plvalue(f, &b.node.lhs)?;
            let v = pointer_to(f, &b.node.rhs, &t)?;
            // The value of the assignment is the value stored.
            let tmp = f.rb.temp(ScalarTy::INT);
            f.rb.assign(tmp, v, span);
            let v = f.rb.load(tmp);
            let (lv, cell) = stable_cell(f, lv, &t, span);
            store(f, &lv, v.clone(), span);
            unions::after_store(f, &b.node.lhs, cell, e.span)?;
            Ok((v, t))
        }
        E::BinaryOperator(b) if b.node.operator.node == ast::BinaryOperator::Index => {
            // An element that is an array (`m[i]` of `int m[3][4]` in a
            // structure) is the pointer to its first element.
            if let Some(CType::Array(..)) = element_type(f, b) {
                let (p, t) = element(f, b, span)?;
                let CType::Array(elem, _) = t else {
                    return Err(Diagnostic::new(span, "this element is not an array"));
                };
                return Ok((p, *elem));
            }
            let (lv, t) = plvalue(f, e)?;
            Ok((load(f, &lv, span), t))
        }
        E::BinaryOperator(b)
            if matches!(
                b.node.operator.node,
                ast::BinaryOperator::Plus | ast::BinaryOperator::Minus
            ) =>
        {
            let minus = b.node.operator.node == ast::BinaryOperator::Minus;
            let op_span = f.span(b.node.operator.span);
            let (p, t, i) = if is_pointer(f, &b.node.lhs) && !is_pointer(f, &b.node.rhs) {
                let (p, t) = pointer(f, &b.node.lhs)?;
                (p, t, index(f, &b.node.rhs)?)
            } else if !minus && is_pointer(f, &b.node.rhs) && !is_pointer(f, &b.node.lhs) {
                let i = index(f, &b.node.lhs)?;
                let (p, t) = pointer(f, &b.node.rhs)?;
                (p, t, i)
            } else {
                return Err(arithmetic(f, b.node.operator.span));
            };
            Ok((moved(f, p, &t, i, minus, op_span, b.node.operator.span)?, t))
        }
        E::BinaryOperator(b)
            if matches!(
                b.node.operator.node,
                ast::BinaryOperator::AssignPlus | ast::BinaryOperator::AssignMinus
            ) =>
        {
            let minus = b.node.operator.node == ast::BinaryOperator::AssignMinus;
            let op_span = f.span(b.node.operator.span);
            let (lv, t) = plvalue(f, &b.node.lhs)?;
            let i = index(f, &b.node.rhs)?;
            let old = load(f, &lv, span);
            let new = moved(f, old, &t, i, minus, op_span, b.node.operator.span)?;
            let tmp = f.rb.temp(ScalarTy::INT);
            f.rb.assign(tmp, new, span);
            let (lv, cell) = stable_cell(f, lv, &t, span);
            store(f, &lv, f.rb.load(tmp), span);
            unions::after_store(f, &b.node.lhs, cell, e.span)?;
            Ok((f.rb.load(tmp), t))
        }
        E::UnaryOperator(u)
            if matches!(
                u.node.operator.node,
                U::PostIncrement | U::PostDecrement | U::PreIncrement | U::PreDecrement
            ) =>
        {
            let op = u.node.operator.node.clone();
            let minus = matches!(op, U::PostDecrement | U::PreDecrement);
            let post = matches!(op, U::PostIncrement | U::PostDecrement);
            let (lv, t) = plvalue(f, &u.node.operand)?;
            let old = f.rb.temp(ScalarTy::INT);
            let value = load(f, &lv, span);
            f.rb.assign(old, value, span);
            let one = Expr::int(wiser_num::IntTy::INT, 1);
            let new = moved(
                f,
                f.rb.load(old),
                &t,
                one,
                minus,
                span,
                u.node.operator.span,
            )?;
            let tmp = f.rb.temp(ScalarTy::INT);
            f.rb.assign(tmp, new, span);
            let (lv, cell) = stable_cell(f, lv, &t, span);
            store(f, &lv, f.rb.load(tmp), span);
            unions::after_store(f, &u.node.operand, cell, e.span)?;
            Ok((f.rb.load(if post { old } else { tmp }), t))
        }
        E::Conditional(c) => {
            let k = expr::cond(f, &c.node.condition)?;
            let t = match super::static_type::static_type(
                f.u,
                &|n: &str| f.lookup(n),
                &c.node.then_expression,
            )? {
                CType::Pointer(t) => *t,
                _ => match super::static_type::static_type(
                    f.u,
                    &|n: &str| f.lookup(n),
                    &c.node.else_expression,
                )? {
                    CType::Pointer(t) => *t,
                    _ => CType::Void,
                },
            };
            let res = f.rb.temp(ScalarTy::INT);
            let (lt, le, end) = (f.rb.label(), f.rb.label(), f.rb.label());
            f.rb.branch(k, lt, le, span);
            f.rb.bind(lt);
            let a = pointer_to(f, &c.node.then_expression, &t)?;
            f.rb.assign(res, a, span);
            f.rb.jump(end);
            f.rb.bind(le);
            let b = pointer_to(f, &c.node.else_expression, &t)?;
            f.rb.assign(res, b, span);
            f.rb.bind(end);
            Ok((f.rb.load(res), t))
        }
        E::Comma(es) => {
            let (last, init) = es
                .split_last()
                .ok_or_else(|| Diagnostic::new(span, "empty comma expression"))?;
            for x in init {
                expr::effect(f, x)?;
            }
            pointer(f, last)
        }
        _ => Err(f.u.unsupported(e.span, "this pointer expression")),
    }
}

/// `(T *)((char *)p - offsetof(T, m))`, the Linux kernel's `container_of`:
/// the structure whose member `m` `p` points to. The byte offset names the
/// member (the one that starts there), and the pointer moves back by its
/// offset in slots. `None` for another expression.
fn container_of(f: &mut Fun, to: &CType, e: &Node<E>, span: wiser_ir::Span) -> Res<Option<Expr>> {
    let CType::Struct(sid) = to else {
        return Ok(None);
    };
    let E::BinaryOperator(b) = &e.node else {
        return Ok(None);
    };
    let E::Cast(bytes) = &b.node.lhs.node else {
        return Ok(None);
    };
    let char_pointer = matches!(
        super::declarator::type_name(f.u, &bytes.node.type_name.node),
        Ok(CType::Pointer(c)) if matches!(*c, CType::Int(i) if i.rank == crate::types::Rank::Char)
    );
    if b.node.operator.node != ast::BinaryOperator::Minus || !char_pointer {
        return Ok(None);
    }
    let Ok((k, _)) = consts::eval(f.u, &|n: &str| f.lookup(n), &b.node.rhs) else {
        return Ok(None);
    };
    let at = |f: &Fun| f.span(b.node.rhs.span);
    let Some((slot, member)) = k
        .to_i64()
        .and_then(|k| layout::member_at_byte(f.u, *sid, k as u64))
    else {
        return Err(Diagnostic::new(
            at(f),
            format!(
                "no member of `{}` starts at byte {k}",
                heap::struct_name(f.u, *sid)
            ),
        ));
    };
    let (p, pointee) = pointer(f, &bytes.node.expression)?;
    if !compatible(f, &pointee, &member) {
        return Err(Diagnostic::new(
            f.span(bytes.node.expression.span),
            format!(
                "a `{} *` used as the member at byte {k} of `{}`, a `{}`",
                pointee.describe_in(f),
                heap::struct_name(f.u, *sid),
                member.describe_in(f)
            ),
        ));
    }
    let back = Expr::int(wiser_num::IntTy::INT, wiser_num::Int::from_u64(slot));
    Ok(Some(Expr::binary(wiser_num::BinOp::Sub, p, back, span)))
}

/// An integer operand of pointer arithmetic, as an IR `int` (its value).
fn index(f: &mut Fun, e: &Node<E>) -> Res<Expr> {
    let (v, _) = expr::rvalue(f, e)?;
    Ok(v.cast(wiser_num::IntTy::INT))
}

/// `p + i` (or `p - i`) in elements of `t`: each object holds elements of
/// one type, one index each ([`wiser_ir::pointer`]). `void *` has no
/// elements to count.
fn moved(
    f: &Fun,
    p: Expr,
    t: &CType,
    i: Expr,
    minus: bool,
    span: wiser_ir::Span,
    at: CSpan,
) -> Res<Expr> {
    if matches!(t, CType::Func(_)) {
        return Err(f.u.unsupported(at, "arithmetic on function pointers"));
    }
    if matches!(t, CType::Void | CType::Opaque(..)) {
        return Err(f.u.unsupported(
            at,
            "arithmetic on `void *` (cast to the element type first)",
        ));
    }
    let op = if minus {
        wiser_num::BinOp::Sub
    } else {
        wiser_num::BinOp::Add
    };
    Ok(Expr::binary(op, p, scaled(f, t, i, span), span))
}

/// `i` elements of `t` in slots ([`layout::slots`]).
fn scaled(f: &Fun, t: &CType, i: Expr, span: wiser_ir::Span) -> Expr {
    match layout::slots(f.u, t) {
        1 => i,
        n => Expr::binary(
            wiser_num::BinOp::Mul,
            i,
            Expr::int(wiser_num::IntTy::INT, wiser_num::Int::from_u64(n)),
            span,
        ),
    }
}

/// `p - q`: how many elements apart two pointers into one object are, a
/// `ptrdiff_t` (`int` under ILP32, `long` under LP64).
pub fn difference(f: &mut Fun, l: &Node<E>, r: &Node<E>, at: CSpan) -> Res<expr::Val> {
    let span = f.span(at);
    let (p, t) = pointer(f, l)?;
    let (q, _) = pointer(f, r)?;
    let ptrdiff = match f.u.dm {
        crate::DataModel::Ilp32 => crate::types::CInt::INT,
        crate::DataModel::Lp64 => crate::types::CInt {
            rank: crate::types::Rank::Long,
            signed: true,
        },
    };
    let mut d = Expr::binary(wiser_num::BinOp::Sub, p, q, span);
    let size = layout::slots(f.u, &t);
    if size > 1 {
        let size = Expr::int(wiser_num::IntTy::INT, wiser_num::Int::from_u64(size));
        d = Expr::binary(wiser_num::BinOp::Div, d, size, span);
    }
    Ok((d.cast(ptrdiff.ir(f.u.dm)), ptrdiff))
}

/// `p < q` and the other orderings of two pointers into one object.
pub fn order(f: &mut Fun, l: &Node<E>, r: &Node<E>, op: wiser_num::CmpOp) -> Res<Expr> {
    let (p, t) = pointer(f, l)?;
    let q = pointer_to(f, r, &t)?;
    Ok(Expr::cmp(op, p, q))
}

/// The error for pointer arithmetic.
pub fn arithmetic(f: &Fun, at: CSpan) -> Diagnostic {
    Diagnostic::new(f.span(at), "pointer arithmetic is not supported")
        .with_help("wiser reads pointers to single objects: use an array and an index instead")
}

/// `&e`: the reference of a cell, a structure or a mutex.
pub fn address(f: &mut Fun, e: &Node<E>) -> Res<(Expr, CType)> {
    let span = f.span(e.span);
    super::union_ptrs::taken(f, e)?;
    match &e.node {
        E::Identifier(id) => match f.lookup(&id.node.name) {
            // The places of objects are written once, before any use:
            // reading them is not a read of shared state.
            Some(Var::Cell(p, t)) => Ok((f.rb.load(p), t)),
            Some(Var::Struct(p, i)) => Ok((f.rb.load(p), CType::Struct(i))),
            Some(Var::Mutex(p)) => Ok((f.rb.load(p), CType::Mutex)),
            // `&a` of an array in an object: a pointer to the whole array
            // (the same address as its first element's).
            Some(Var::Block(p, t, len)) => Ok((f.rb.load(p), CType::Array(Box::new(t), len))),
            Some(Var::Array(_)) => Err(f.u.unsupported(e.span, "the address of an array")),
            Some(_) => Err(f.u.unsupported(e.span, "the address of this variable")),
            None => match f.u.funcs.get(&id.node.name) {
                Some(_) => fnptr::value(f, &id.node.name, e.span),
                None => Err(Diagnostic::new(
                    span,
                    format!("`{}` is not declared", id.node.name),
                )),
            },
        },
        E::UnaryOperator(u) if u.node.operator.node == U::Indirection => {
            pointer(f, &u.node.operand)
        }
        E::Member(m) => {
            super::bitfields::no_address(f, m)?;
            let (p, through, ty) = structs::member_slot(f, &m.node, e.span)?;
            match ty {
                // A mutex member holds its mutex's reference.
                CType::Mutex => {
                    let p = if through {
                        heap::checked(f, p, span)
                    } else {
                        p
                    };
                    let (array, _) = heap::cell_array(f, &ty, e.span)?;
                    let v = shared_select(f, array, ScalarTy::INT, p, span);
                    Ok((v, CType::Mutex))
                }
                // `&p->f`, `&s.a` (a pointer to the whole array): no
                // access, nothing is checked.
                ty => Ok((p, ty)),
            }
        }
        // `&p[i]` is `p + i` (no access: nothing is checked).
        E::BinaryOperator(b)
            if b.node.operator.node == ast::BinaryOperator::Index
                && (is_pointer(f, &b.node.lhs) || is_pointer(f, &b.node.rhs)) =>
        {
            element(f, b, span)
        }
        E::BinaryOperator(b) if b.node.operator.node == ast::BinaryOperator::Index => Err(f
            .u
            .unsupported(e.span, "the address of an element of an array variable")),
        _ => Err(f.u.unsupported(e.span, "the address of this expression")),
    }
}

/// `p[i]` (or `i[p]`): the pointer to the element, unchecked, and the
/// element type.
pub(super) fn element(
    f: &mut Fun,
    b: &Node<ast::BinaryOperatorExpression>,
    span: wiser_ir::Span,
) -> Res<(Expr, CType)> {
    let (base, i) = if is_pointer(f, &b.node.lhs) {
        (&b.node.lhs, &b.node.rhs)
    } else {
        (&b.node.rhs, &b.node.lhs)
    };
    let (p, t) = match &base.node {
        // An array member of a union, subscripted: what is stored there
        // is kept in step by the store (see `unions.rs`).
        E::Member(m) if unions::inside(f, base) => {
            let (p, _, ty) = structs::member_slot(f, &m.node, base.span)?;
            let CType::Array(elem, _) = ty else {
                return Err(Diagnostic::new(span, "this member is not an array"));
            };
            (p, *elem)
        }
        _ => pointer(f, base)?,
    };
    let i = index(f, i)?;
    Ok((moved(f, p, &t, i, false, span, b.node.operator.span)?, t))
}

/// The lvalue an integer-typed member or cell denotes (for
/// [`expr::lvalue`]): `p->n`, `s.n`, `*p`.
pub fn int_lvalue(f: &mut Fun, e: &Node<E>) -> Res<LVal> {
    let span = f.span(e.span);
    match &e.node {
        E::Member(m) => super::bitfields::int_member(f, &m.node, e.span),
        _ => match accessed(f, e, span)? {
            Some((obj, t, what)) => {
                let CType::Int(it) = t else {
                    return Err(Diagnostic::new(
                        span,
                        format!("{what} a `{} *` used as an integer", t.describe_in(f)),
                    ));
                };
                let (array, _) = heap::cell_array(f, &t, e.span)?;
                Ok(LVal::Heap(array, heap::checked(f, obj, span), it))
            }
            None => Err(f.u.unsupported(e.span, "this expression")),
        },
    }
}

/// The pointer an access `p[i]` or `*p` goes through (unchecked), its
/// pointee type, and the access's name for messages; `None` for another
/// expression.
fn accessed(
    f: &mut Fun,
    e: &Node<E>,
    span: wiser_ir::Span,
) -> Res<Option<(Expr, CType, &'static str)>> {
    match &e.node {
        E::BinaryOperator(b) if b.node.operator.node == ast::BinaryOperator::Index => {
            let (p, t) = element(f, b, span)?;
            Ok(Some((p, t, "an element of")))
        }
        E::UnaryOperator(u) if u.node.operator.node == U::Indirection => {
            let (p, t) = pointer(f, &u.node.operand)?;
            Ok(Some((p, t, "`*` of")))
        }
        _ => Ok(None),
    }
}

/// A pointer-typed lvalue and its pointee type: a pointer variable, a
/// pointer member, `*pp`.
pub fn plvalue(f: &mut Fun, e: &Node<E>) -> Res<(PLVal, CType)> {
    let span = f.span(e.span);
    match &e.node {
        E::Identifier(id) => match f.lookup(&id.node.name) {
            Some(Var::Ptr(p, t)) => Ok((PLVal::Place(p), t)),
            // An array's name is the pointer to its first element (C
            // refuses to assign it, so nothing stores there).
            Some(Var::Block(p, t, _)) => Ok((PLVal::Place(p), t)),
            Some(Var::Cell(p, CType::Pointer(t))) => {
                let (array, _) = heap::cell_array(f, &CType::Pointer(t.clone()), e.span)?;
                Ok((PLVal::Heap(array, f.rb.load(p)), *t))
            }
            Some(_) => Err(Diagnostic::new(
                span,
                format!("`{}` is not a pointer", id.node.name),
            )),
            None => Err(Diagnostic::new(
                span,
                format!("`{}` is not declared", id.node.name),
            )),
        },
        E::Member(m) => {
            let (obj, ty) = structs::member(f, &m.node, e.span)?;
            match ty {
                CType::Pointer(t) => {
                    let (array, _) = heap::cell_array(f, &CType::Pointer(t.clone()), e.span)?;
                    Ok((PLVal::Heap(array, obj), *t))
                }
                _ => Err(Diagnostic::new(
                    span,
                    format!("the member is a `{}`, not a pointer", ty.describe_in(f)),
                )),
            }
        }
        _ => match accessed(f, e, span)? {
            Some((obj, t, what)) => {
                let CType::Pointer(inner) = &t else {
                    return Err(Diagnostic::new(
                        span,
                        format!("{what} a `{} *` used as a pointer", t.describe_in(f)),
                    ));
                };
                let (array, _) = heap::cell_array(f, &t, e.span)?;
                Ok((
                    PLVal::Heap(array, heap::checked(f, obj, span)),
                    (**inner).clone(),
                ))
            }
            None => Err(f.u.unsupported(e.span, "this pointer expression")),
        },
    }
}

/// `array[obj]` for a heap read: an instruction of its own in a threaded
/// program (see [`Fun::shared`]).
pub fn shared_select(
    f: &mut Fun,
    array: ArrayId,
    elem: ScalarTy,
    obj: Expr,
    span: wiser_ir::Span,
) -> Expr {
    let v = Expr::select(array, heap::field_ty(elem), obj);
    f.shared(v, span)
}

/// The value of a pointer lvalue.
pub fn load(f: &mut Fun, lv: &PLVal, span: wiser_ir::Span) -> Expr {
    match lv {
        PLVal::Place(p) => {
            let v = f.rb.load(*p);
            if matches!(p, Place::Global(_)) {
                f.shared(v, span)
            } else {
                v
            }
        }
        PLVal::Heap(a, obj) => shared_select(f, *a, ScalarTy::INT, obj.clone(), span),
    }
}

/// A pointer lvalue about to be stored to (pointing to a `t`), and the
/// memory cell it is for [`unions::after_store`]: in a program that
/// stores through pointers into unions' members
/// ([`super::union_ptrs`]), its cell's pointer is held in a temporary, so
/// that the store cannot change it (`p->next->next = q` where `p->next ==
/// p`); otherwise as it was, and no cell.
fn stable_cell(
    f: &mut Fun,
    lv: PLVal,
    t: &CType,
    span: wiser_ir::Span,
) -> (PLVal, Option<(Expr, CType)>) {
    match lv {
        PLVal::Heap(a, obj) if f.u.heap.union_ptrs.sync.is_some() => {
            let tmp = f.rb.temp(ScalarTy::INT);
            f.rb.assign(tmp, obj, span);
            let obj = f.rb.load(tmp);
            let cell = (obj.clone(), CType::Pointer(Box::new(t.clone())));
            (PLVal::Heap(a, obj), Some(cell))
        }
        lv => (lv, None),
    }
}

/// Stores a reference.
pub fn store(f: &mut Fun, lv: &PLVal, v: Expr, span: wiser_ir::Span) {
    match lv {
        PLVal::Place(p) => f.rb.assign(*p, v, span),
        PLVal::Heap(a, obj) => f.rb.store(*a, obj.clone(), v, span),
    }
}

/// `p == q` or `p != q` (`eq`) on pointers or a pointer and `NULL`.
pub fn compare(f: &mut Fun, l: &Node<E>, r: &Node<E>, eq: bool) -> Res<Expr> {
    let lp = is_pointer(f, l);
    let a = if lp {
        pointer(f, l)?
    } else {
        (pointer_to(f, l, &CType::Void)?, CType::Void)
    };
    let b = pointer_to(f, r, &a.1)?;
    // Two pointers, neither `NULL`: once one object is freed, `malloc`
    // may give its address to another. (A function pointer holds no
    // object.)
    if !is_null(f, l) && !is_null(f, r) && !matches!(a.1, CType::Func(_)) {
        let equal = super::alloc::equal_addresses(f, a.0, b, l.span);
        return Ok(if eq { equal } else { Expr::logical_not(equal) });
    }
    let op = if eq {
        wiser_num::CmpOp::Eq
    } else {
        wiser_num::CmpOp::Ne
    };
    Ok(Expr::cmp(op, a.0, b))
}

/// A pointer as a condition: `p != NULL`.
pub fn truth(f: &mut Fun, e: &Node<E>) -> Res<Expr> {
    let (v, _) = pointer(f, e)?;
    Ok(Expr::cmp(wiser_num::CmpOp::Ne, v, null()))
}
