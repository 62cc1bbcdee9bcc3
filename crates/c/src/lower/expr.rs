//! Expressions. Side effects (calls, assignments, `++`, nondeterministic
//! reads) are emitted as instructions in evaluation order; what remains is
//! a pure [`Expr`] whose runtime checks the IR's combinators add. `&&`,
//! `||` and `?:` whose skipped operand has side effects become branches.

pub use super::lvalue::{array_ref, load, lvalue, store, LVal};
use super::lvalue::{assign, compound, step};
pub use super::static_type::static_type;
use super::{call, consts, float, ptr, CSpan, Fun, Res, Var};
use crate::types::{CInt, CType, Rank};
use lang_c::ast::{self, BinaryOperator as B, Expression as E, UnaryOperator as U};
use lang_c::span::Node;
use wiser_ir::{Diagnostic, Expr, ScalarTy};
use wiser_num::{BinOp, IntTy, UnOp};

/// An arithmetic value and its C type.
pub type Val = (Expr, CInt);

/// Converts a value to another C arithmetic type (to `_Bool`: `!= 0`).
/// A float that does not fit the integer type it is converted to is an
/// error, reported at the expression lowered last.
pub fn convert(f: &Fun, v: Val, to: CInt) -> Expr {
    if v.1.float().is_some() || to.float().is_some() {
        return float::convert(v, to, f.u.dm, f.span(f.last));
    }
    let (e, from) = v;
    let dm = f.u.dm;
    if to.rank == Rank::Bool && from.rank != Rank::Bool {
        return e.int_to_bool().bool_to_int(to.ir(dm));
    }
    e.cast(to.ir(dm))
}

/// The integer promotion of a value.
pub(super) fn promote(f: &Fun, v: Val) -> Val {
    let p = v.1.promote();
    (convert(f, v, p), p)
}

/// A boolean as a C `int` (0 or 1).
fn bool_val(e: Expr) -> Val {
    (e.bool_to_int(IntTy::I32), CInt::INT)
}

/// Does evaluating `e` do anything but compute a value (a call, an
/// assignment, `++`/`--`)? Such operands of `&&`, `||` and `?:` need
/// branches.
pub fn has_effects(e: &E) -> bool {
    match e {
        E::Call(_) | E::Statement(_) => true,
        E::UnaryOperator(u) => {
            matches!(
                u.node.operator.node,
                U::PostIncrement | U::PostDecrement | U::PreIncrement | U::PreDecrement
            ) || has_effects(&u.node.operand.node)
        }
        E::BinaryOperator(b) => {
            !matches!(
                b.node.operator.node,
                B::Index
                    | B::Multiply
                    | B::Divide
                    | B::Modulo
                    | B::Plus
                    | B::Minus
                    | B::ShiftLeft
                    | B::ShiftRight
                    | B::Less
                    | B::Greater
                    | B::LessOrEqual
                    | B::GreaterOrEqual
                    | B::Equals
                    | B::NotEquals
                    | B::BitwiseAnd
                    | B::BitwiseXor
                    | B::BitwiseOr
                    | B::LogicalAnd
                    | B::LogicalOr
            ) || has_effects(&b.node.lhs.node)
                || has_effects(&b.node.rhs.node)
        }
        E::Cast(c) => has_effects(&c.node.expression.node),
        E::Conditional(c) => {
            has_effects(&c.node.condition.node)
                || has_effects(&c.node.then_expression.node)
                || has_effects(&c.node.else_expression.node)
        }
        // The discarded operands of a comma are evaluated for their
        // effects and their runtime checks: as the operand of `&&`, `||`
        // or `?:` that is skipped, it needs a branch like a call does.
        E::Comma(es) => es.len() > 1 || es.iter().any(|e| has_effects(&e.node)),
        E::SizeOfTy(_) | E::SizeOfVal(_) | E::OffsetOf(_) | E::Constant(_) | E::Identifier(_) => {
            false
        }
        _ => true,
    }
}

/// The value of an integer expression.
pub fn rvalue(f: &mut Fun, e: &Node<E>) -> Res<Val> {
    f.enter(e.span)?;
    let r = rvalue_at(f, e);
    f.depth -= 1;
    r
}

fn rvalue_at(f: &mut Fun, e: &Node<E>) -> Res<Val> {
    let span = f.span(e.span);
    match &e.node {
        E::Constant(c) => match &c.node {
            ast::Constant::Integer(i) => {
                let (v, t) = consts::integer_literal(i, f.u.dm).ok_or_else(|| {
                    Diagnostic::new(span, "integer constant is too large for any integer type")
                })?;
                Ok((Expr::int(t.ir(f.u.dm), v), t))
            }
            ast::Constant::Character(s) => {
                let v = super::strings::char_literal(s)
                    .ok_or_else(|| f.u.unsupported(e.span, "this character constant"))?;
                Ok((Expr::int(IntTy::I32, v), CInt::INT))
            }
            ast::Constant::Float(x) => float::literal(f, x, e.span),
        },
        E::Identifier(id) => match f.lookup(&id.node.name) {
            Some(Var::Scalar(p, t)) => Ok(load(f, &LVal::Place(p, t), span)),
            Some(Var::Const(v)) => Ok((Expr::int(IntTy::I32, v), CInt::INT)),
            Some(Var::Array(_)) => Err(f
                .u
                .unsupported(e.span, "an array used as a value (pointers)")),
            Some(Var::Cell(..)) => {
                let lv = lvalue(f, e)?;
                Ok(load(f, &lv, span))
            }
            Some(Var::Ptr(..) | Var::Block(..)) => Err(pointer_as_int(f, e.span)),
            Some(Var::Struct(..) | Var::Mutex(_)) => Err(Diagnostic::new(
                span,
                format!("`{}` is not an integer", id.node.name),
            )),
            None if f.u.funcs.contains_key(&id.node.name) => Err(pointer_as_int(f, e.span)),
            None => Err(undeclared(f, &id.node.name, e.span)),
        },
        E::BinaryOperator(b) => binary(f, e, &b.node),
        E::UnaryOperator(un) => unary(f, e, &un.node),
        E::Cast(c) => {
            let ty = super::declarator::type_name(f.u, &c.node.type_name.node)?;
            if ty != CType::Void && ptr::is_pointer(f, &c.node.expression) {
                return Err(f
                    .u
                    .unsupported(c.node.type_name.span, "casts of pointers to integers"));
            }
            match ty {
                CType::Int(to) => {
                    let v = rvalue(f, &c.node.expression)?;
                    Ok((convert(f, v, to), to))
                }
                CType::Void => {
                    effect(f, &c.node.expression)?;
                    Ok((Expr::int(IntTy::I32, 0), CInt::INT))
                }
                _ => Err(f
                    .u
                    .unsupported(c.node.type_name.span, "casts to pointer or array types")),
            }
        }
        E::Conditional(c) => conditional(f, &c.node, span),
        E::Comma(es) => {
            let (last, init) = es
                .split_last()
                .ok_or_else(|| Diagnostic::new(span, "empty comma expression"))?;
            for x in init {
                effect(f, x)?;
            }
            rvalue(f, last)
        }
        E::Call(c) => match call::call(f, &c.node, e.span)? {
            Some(ptr::Value::Int(v)) => Ok(v),
            Some(ptr::Value::Ptr(..)) => Err(pointer_as_int(f, e.span)),
            None => Err(Diagnostic::new(
                span,
                "a `void` function's result is used as a value",
            )),
        },
        E::SizeOfTy(_) | E::SizeOfVal(_) | E::OffsetOf(_) => {
            let (v, t) = consts::eval(f.u, &|n: &str| f.lookup(n), e)?;
            Ok((Expr::int(t.ir(f.u.dm), v), t))
        }
        E::Statement(s) => statement_expr(f, s),
        E::StringLiteral(_) => Err(f.u.unsupported(e.span, "string literals")),
        E::Member(_) => {
            let lv = ptr::int_lvalue(f, e)?;
            Ok(load(f, &lv, span))
        }
        _ => Err(f.u.unsupported(e.span, "this expression")),
    }
}

/// The error for a pointer where an integer is expected.
pub(super) fn pointer_as_int(f: &Fun, at: CSpan) -> Diagnostic {
    Diagnostic::new(f.span(at), "a pointer is used as an integer").with_help(
        "pointers can be assigned, compared with `==` and `!=`, tested, and dereferenced; other uses are not supported",
    )
}

pub(super) fn undeclared(f: &Fun, name: &str, at: CSpan) -> Diagnostic {
    Diagnostic::new(f.span(at), format!("`{name}` is not declared"))
        .with_help("declare the variable before its use")
}

/// A GNU statement expression `({ ...; e; })`: its last statement's value.
fn statement_expr(f: &mut Fun, s: &Node<ast::Statement>) -> Res<Val> {
    let ast::Statement::Compound(items) = &s.node else {
        return Err(f.u.unsupported(s.span, "this statement expression"));
    };
    f.scopes.push(Default::default());
    let result = (|| {
        let Some((last, init)) = items.split_last() else {
            return Err(f
                .u
                .unsupported(s.span, "an empty statement expression used as a value"));
        };
        for item in init {
            super::stmt::block_item(f, item)?;
        }
        match &last.node {
            ast::BlockItem::Statement(Node {
                node: ast::Statement::Expression(Some(e)),
                ..
            }) => rvalue(f, e),
            _ => Err(f.u.unsupported(
                last.span,
                "a statement expression whose last statement is not an expression",
            )),
        }
    })();
    f.scopes.pop();
    result
}

/// Evaluates `e` for its effects only (an expression statement).
pub fn effect(f: &mut Fun, e: &Node<E>) -> Res<()> {
    f.enter(e.span)?;
    let r = effect_at(f, e);
    f.depth -= 1;
    r
}

fn effect_at(f: &mut Fun, e: &Node<E>) -> Res<()> {
    match &e.node {
        E::BinaryOperator(b)
            if b.node.operator.node == B::Assign && ptr::is_pointer(f, &b.node.lhs) =>
        {
            ptr::pointer(f, e)?;
            Ok(())
        }
        E::BinaryOperator(b)
            if b.node.operator.node == B::Assign
                && super::structs::struct_of(f, &b.node.lhs).is_some() =>
        {
            super::structs::assign(f, &b.node.lhs, &b.node.rhs, e.span)
        }
        E::BinaryOperator(b) if b.node.operator.node == B::Assign => {
            assign(f, &b.node.lhs, &b.node.rhs, e.span)?;
            Ok(())
        }
        E::BinaryOperator(b)
            if consts::arith_op(&b.node.operator.node).is_some()
                && is_compound(&b.node.operator.node)
                && !ptr::is_pointer(f, &b.node.lhs) =>
        {
            compound(f, &b.node, e.span, false)?;
            Ok(())
        }
        E::UnaryOperator(u)
            if matches!(
                u.node.operator.node,
                U::PostIncrement | U::PostDecrement | U::PreIncrement | U::PreDecrement
            ) && !ptr::is_pointer(f, &u.node.operand) =>
        {
            let delta = matches!(u.node.operator.node, U::PostIncrement | U::PreIncrement);
            step(f, &u.node.operand, delta, false, e.span)?;
            Ok(())
        }
        E::Call(c) => {
            call::call(f, &c.node, e.span)?;
            Ok(())
        }
        E::Comma(es) => {
            for x in es.iter() {
                effect(f, x)?;
            }
            Ok(())
        }
        E::Cast(c) => effect(f, &c.node.expression),
        // Nothing to evaluate (`(void) sizeof (c)` in glibc's `assert`).
        E::SizeOfTy(_) | E::SizeOfVal(_) | E::OffsetOf(_) | E::Constant(_) | E::Identifier(_) => {
            Ok(())
        }
        E::Statement(s) => {
            f.scopes.push(Default::default());
            let r = super::stmt::statement(f, s);
            f.scopes.pop();
            r
        }
        E::Conditional(c)
            if f.effects(&c.node.then_expression) || f.effects(&c.node.else_expression) =>
        {
            let span = f.span(e.span);
            let cond = cond(f, &c.node.condition)?;
            f.if_else(
                cond,
                span,
                |f| effect(f, &c.node.then_expression),
                |f| effect(f, &c.node.else_expression),
            )
        }
        _ if super::structs::struct_of(f, e).is_some() => {
            // A structure designated for nothing (`(*p, x)`): the checks of
            // reaching it still run.
            let span = f.span(e.span);
            let (p, _) = super::structs::object(f, e)?;
            let t = f.rb.temp(ScalarTy::INT);
            f.rb.assign(t, p, span);
            Ok(())
        }
        _ if ptr::is_pointer(f, e) => {
            // A pointer computed for nothing: its checks still run.
            let span = f.span(e.span);
            let (v, _) = ptr::pointer(f, e)?;
            let t = f.rb.temp(ScalarTy::INT);
            f.rb.assign(t, v, span);
            Ok(())
        }
        _ if !has_effects(&e.node) => {
            // A value computed for nothing: its checks still run (C would
            // evaluate it; `x / 0;` is still undefined).
            let v = rvalue(f, e)?;
            let span = f.span(e.span);
            let t = f.rb.temp(v.1.scalar(f.u.dm));
            f.rb.assign(t, v.0, span);
            Ok(())
        }
        _ => {
            rvalue(f, e)?;
            Ok(())
        }
    }
}

pub fn is_compound(op: &B) -> bool {
    matches!(
        op,
        B::AssignMultiply
            | B::AssignDivide
            | B::AssignModulo
            | B::AssignPlus
            | B::AssignMinus
            | B::AssignShiftLeft
            | B::AssignShiftRight
            | B::AssignBitwiseAnd
            | B::AssignBitwiseXor
            | B::AssignBitwiseOr
    )
}

/// A condition: an IR boolean (`e != 0` for a plain value).
pub fn cond(f: &mut Fun, e: &Node<E>) -> Res<Expr> {
    f.enter(e.span)?;
    let r = cond_at(f, e);
    f.depth -= 1;
    r
}

fn cond_at(f: &mut Fun, e: &Node<E>) -> Res<Expr> {
    match &e.node {
        E::UnaryOperator(u) if u.node.operator.node == U::Negate => {
            Ok(Expr::logical_not(cond(f, &u.node.operand)?))
        }
        E::BinaryOperator(b) => {
            let op = &b.node.operator.node;
            if let Some(c) = consts::cmp_op(op) {
                if ptr::is_pointer(f, &b.node.lhs) || ptr::is_pointer(f, &b.node.rhs) {
                    return match op {
                        B::Equals | B::NotEquals => {
                            let (l, r) = if ptr::is_pointer(f, &b.node.lhs) {
                                (&b.node.lhs, &b.node.rhs)
                            } else {
                                (&b.node.rhs, &b.node.lhs)
                            };
                            ptr::compare(f, l, r, *op == B::Equals)
                        }
                        _ => ptr::order(f, &b.node.lhs, &b.node.rhs, c),
                    };
                }
                let l = rvalue(f, &b.node.lhs)?;
                let r = rvalue(f, &b.node.rhs)?;
                let t = CInt::common(l.1, r.1, f.u.dm);
                return Ok(Expr::cmp(c, convert(f, l, t), convert(f, r, t)));
            }
            match op {
                B::LogicalAnd | B::LogicalOr => {
                    let is_and = *op == B::LogicalAnd;
                    let l = cond(f, &b.node.lhs)?;
                    if !f.effects(&b.node.rhs) {
                        let r = cond(f, &b.node.rhs)?;
                        return Ok(if is_and {
                            Expr::and(l, r)
                        } else {
                            Expr::or(l, r)
                        });
                    }
                    // t = l; if (t is undecided) t = r
                    let span = f.span(e.span);
                    let t = f.rb.temp(ScalarTy::Bool);
                    f.rb.assign(t, l, span);
                    let (more, end) = (f.rb.label(), f.rb.label());
                    let tv = f.rb.load(t);
                    if is_and {
                        f.rb.branch(tv, more, end, span);
                    } else {
                        f.rb.branch(tv, end, more, span);
                    }
                    f.rb.bind(more);
                    let r = cond(f, &b.node.rhs)?;
                    f.rb.assign(t, r, span);
                    f.rb.bind(end);
                    Ok(f.rb.load(t))
                }
                // `if ((p = q))`, `while (p + 1)`: a pointer as a truth
                // value.
                _ if ptr::is_pointer(f, e) => ptr::truth(f, e),
                _ => Ok(rvalue(f, e)?.0.int_to_bool()),
            }
        }
        _ if ptr::is_pointer(f, e) => ptr::truth(f, e),
        _ => Ok(rvalue(f, e)?.0.int_to_bool()),
    }
}

fn conditional(f: &mut Fun, c: &ast::ConditionalExpression, span: wiser_ir::Span) -> Res<Val> {
    let k = cond(f, &c.condition)?;
    if !f.effects(&c.then_expression) && !f.effects(&c.else_expression) {
        let a = rvalue(f, &c.then_expression)?;
        let b = rvalue(f, &c.else_expression)?;
        let t = CInt::common(a.1, b.1, f.u.dm);
        let (a, b) = (convert(f, a, t), convert(f, b, t));
        return Ok((Expr::ite(k, a, b), t));
    }
    let ta = static_type(f.u, &|n: &str| f.lookup(n), &c.then_expression)?;
    let tb = static_type(f.u, &|n: &str| f.lookup(n), &c.else_expression)?;
    let (Some(ta), Some(tb)) = (ta.int(), tb.int()) else {
        // `c ? f() : g()` of void functions, as a value: only as a statement.
        return Err(f.u.unsupported(
            c.condition.span,
            "a `void` conditional expression used as a value",
        ));
    };
    let t = CInt::common(ta, tb, f.u.dm);
    let res = f.rb.temp(t.scalar(f.u.dm));
    let (lt, le, end) = (f.rb.label(), f.rb.label(), f.rb.label());
    f.rb.branch(k, lt, le, span);
    f.rb.bind(lt);
    let a = rvalue(f, &c.then_expression)?;
    let a = convert(f, a, t);
    f.rb.assign(res, a, span);
    f.rb.jump(end);
    f.rb.bind(le);
    let b = rvalue(f, &c.else_expression)?;
    let b = convert(f, b, t);
    f.rb.assign(res, b, span);
    f.rb.bind(end);
    Ok((f.rb.load(res), t))
}

fn binary(f: &mut Fun, whole: &Node<E>, b: &ast::BinaryOperatorExpression) -> Res<Val> {
    let span = f.span(b.operator.span);
    let op = &b.operator.node;
    match op {
        B::Index => {
            let lv = lvalue(f, whole)?;
            Ok(load(f, &lv, span))
        }
        B::Assign => assign(f, &b.lhs, &b.rhs, whole.span),
        _ if is_compound(op) => compound(f, b, whole.span, true),
        B::LogicalAnd | B::LogicalOr => Ok(bool_val(cond(f, whole)?)),
        _ if consts::cmp_op(op).is_some() => Ok(bool_val(cond(f, whole)?)),
        B::ShiftLeft | B::ShiftRight => {
            let l = rvalue(f, &b.lhs)?;
            let r = rvalue(f, &b.rhs)?;
            needs_integer(f, "<<", l.1, b.operator.span)?;
            needs_integer(f, "<<", r.1, b.operator.span)?;
            let l = promote(f, l);
            let r = promote(f, r);
            let bop = if *op == B::ShiftLeft {
                BinOp::Shl
            } else {
                BinOp::Shr
            };
            Ok((Expr::binary(bop, l.0, r.0, span), l.1))
        }
        _ => {
            let bop = consts::arith_op(op)
                .ok_or_else(|| f.u.unsupported(b.operator.span, "this operator"))?;
            if *op == B::Minus && ptr::is_pointer(f, &b.lhs) && ptr::is_pointer(f, &b.rhs) {
                return ptr::difference(f, &b.lhs, &b.rhs, b.operator.span);
            }
            if ptr::is_pointer(f, &b.lhs) || ptr::is_pointer(f, &b.rhs) {
                return Err(ptr::arithmetic(f, b.operator.span));
            }
            let l = rvalue(f, &b.lhs)?;
            let r = rvalue(f, &b.rhs)?;
            arith(f, bop, l, r, b.operator.span)
        }
    }
}

/// `l op r` in the operands' common type (the usual arithmetic
/// conversions), integer or floating.
pub(super) fn arith(f: &Fun, op: BinOp, l: Val, r: Val, at: CSpan) -> Res<Val> {
    let t = CInt::common(l.1, r.1, f.u.dm);
    let (l, r) = (convert(f, l, t), convert(f, r, t));
    if t.float().is_some() {
        return Ok((float::binary(f, op, l, r, t, at)?, t));
    }
    Ok((Expr::binary(op, l, r, f.span(at)), t))
}

/// The error for an integer-only operator on a floating operand.
pub(super) fn needs_integer(f: &Fun, what: &str, t: CInt, at: CSpan) -> Res<()> {
    if t.float().is_none() {
        return Ok(());
    }
    Err(Diagnostic::new(
        f.span(at),
        format!("invalid operand to `{what}`: `{}`", t.c_name()),
    )
    .with_help("this operator takes integers"))
}

fn unary(f: &mut Fun, whole: &Node<E>, u: &ast::UnaryOperatorExpression) -> Res<Val> {
    let span = f.span(u.operator.span);
    match u.operator.node {
        U::Plus => {
            let v = rvalue(f, &u.operand)?;
            Ok(promote(f, v))
        }
        U::Minus | U::Complement => {
            let v = rvalue(f, &u.operand)?;
            let (e, t) = promote(f, v);
            let op = if u.operator.node == U::Minus {
                UnOp::Neg
            } else {
                UnOp::BitNot
            };
            if t.float().is_some() {
                return float::unary(f, op, (e, t), u.operator.span);
            }
            Ok((Expr::unary(op, e, span), t))
        }
        U::Negate => Ok(bool_val(cond(f, whole)?)),
        U::PreIncrement | U::PreDecrement | U::PostIncrement | U::PostDecrement => {
            let op = &u.operator.node;
            let increment = matches!(op, U::PreIncrement | U::PostIncrement);
            let post = matches!(op, U::PostIncrement | U::PostDecrement);
            step(f, &u.operand, increment, post, whole.span).map(|v| v.expect("a value"))
        }
        U::Indirection => {
            let lv = lvalue(f, whole)?;
            Ok(load(f, &lv, span))
        }
        U::Address => Err(pointer_as_int(f, whole.span)),
    }
}
