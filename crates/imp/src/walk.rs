//! Walks over syntax trees shared by the checks and the typing rules.

use crate::ast::{CmpOp, Cond, Expr, Ident, Init, Stmt};
use crate::Span;

/// Calls `f` on `s` and every statement nested in it, in source order.
pub(crate) fn each_stmt<'a>(s: &'a Stmt, f: &mut dyn FnMut(&'a Stmt)) {
    f(s);
    match s {
        Stmt::Seq(items) => {
            for item in items {
                each_stmt(item, f);
            }
        }
        Stmt::If {
            then_branch,
            else_branch,
            ..
        } => {
            each_stmt(then_branch, f);
            each_stmt(else_branch, f);
        }
        Stmt::While { body, .. } | Stmt::Atomic { body, .. } => each_stmt(body, f),
        _ => {}
    }
}

/// Calls `f(name, is_array)` on every variable name in `s` (not callees),
/// in source order.
pub(crate) fn stmt_names<'a>(s: &'a Stmt, f: &mut dyn FnMut(&'a Ident, bool)) {
    // `each_stmt` visits a statement before the statements nested in it,
    // as its own names (a condition's) come before theirs in the source.
    each_stmt(s, &mut |s| own_names(s, f));
}

/// [`stmt_names`] of the parts of `s` that are not statements.
fn own_names<'a>(s: &'a Stmt, f: &mut dyn FnMut(&'a Ident, bool)) {
    if let Some(call) = s.as_call() {
        if let Some(t) = call.target {
            f(t, false);
        }
        for e in call.receiver.into_iter().chain(call.args) {
            expr_names(e, f);
        }
        return;
    }
    match s {
        // Calls were read above.
        Stmt::Call { .. } | Stmt::MethodCall { .. } | Stmt::Spawn { .. } => {}
        Stmt::Skip(_) | Stmt::Fail(_) | Stmt::Seq(_) | Stmt::Atomic { .. } => {}
        Stmt::Assign { target, value, .. } => {
            f(target, false);
            expr_names(value, f);
        }
        Stmt::Havoc { target, .. } => f(target, false),
        Stmt::ArrayAssign {
            array,
            index,
            value,
            ..
        } => {
            f(array, true);
            expr_names(index, f);
            expr_names(value, f);
        }
        Stmt::If { cond, .. } | Stmt::While { cond, .. } => cond_names(cond, f),
        Stmt::Assert { cond, .. } | Stmt::Assume { cond, .. } => cond_names(cond, f),
        Stmt::Return { value, .. } => expr_names(value, f),
        Stmt::Decl { target, init, .. } => {
            f(target, false);
            if let Some(Init::Value(value)) = init {
                expr_names(value, f);
            }
        }
        Stmt::ArrayDecl { array, .. } => f(array, true),
        Stmt::RefDecl { target, init, .. } => {
            f(target, false);
            if let Some(value) = init {
                expr_names(value, f);
            }
        }
        Stmt::New { target, .. } => f(target, false),
        Stmt::FieldAssign { obj, value, .. } => {
            expr_names(obj, f);
            expr_names(value, f);
        }
        Stmt::Join { thread: e, .. } | Stmt::Lock { obj: e, .. } => expr_names(e, f),
    }
}

pub(crate) fn cond_names<'a>(c: &'a Cond, f: &mut dyn FnMut(&'a Ident, bool)) {
    each_cmp(c, &mut |_, lhs, rhs, _| {
        expr_names(lhs, f);
        expr_names(rhs, f);
    });
}

/// Calls `f(op, lhs, rhs, span)` on every comparison in `c`, in source
/// order.
pub(crate) fn each_cmp<'a>(c: &'a Cond, f: &mut dyn FnMut(CmpOp, &'a Expr, &'a Expr, Span)) {
    match c {
        Cond::Bool { .. } => {}
        Cond::Not { operand, .. } => each_cmp(operand, f),
        Cond::And { lhs, rhs, .. } | Cond::Or { lhs, rhs, .. } => {
            each_cmp(lhs, f);
            each_cmp(rhs, f);
        }
        Cond::Cmp { op, lhs, rhs, span } => f(*op, lhs, rhs, *span),
    }
}

pub(crate) fn expr_names<'a>(e: &'a Expr, f: &mut dyn FnMut(&'a Ident, bool)) {
    match e {
        Expr::Num { .. } | Expr::Float { .. } | Expr::Null(_) => {}
        Expr::Var(id) => f(id, false),
        Expr::Field { obj, .. } => expr_names(obj, f),
        Expr::Index { array, index, .. } => {
            f(array, true);
            expr_names(index, f);
        }
        Expr::Unary { operand, .. } | Expr::Cast { operand, .. } => expr_names(operand, f),
        Expr::Binary { lhs, rhs, .. } => {
            expr_names(lhs, f);
            expr_names(rhs, f);
        }
    }
}
