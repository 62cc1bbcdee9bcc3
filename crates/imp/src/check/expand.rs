//! Phase 2 of [`super::check()`]: macro expansion.

use super::{Def, MAX_EXPANDED_NODES, MAX_EXPANDED_STATEMENTS, MAX_EXPANSION_RECURSION};
use crate::ast::{Cond, Expr, Ident, Init, Program, Stmt};
use crate::{Diagnostic, Span, MAX_NESTING};
use std::collections::HashMap;
use std::sync::Arc;

/// An argument of the macro call being expanded, already expanded in the
/// caller's context.
struct Arg {
    expr: Expr,
    height: usize,
    size: usize,
}

/// Where the expander is.
#[derive(Default)]
struct Cx {
    /// The parameters of the macro being expanded, mapped to arguments.
    subst: HashMap<Arc<str>, Arg>,
    /// The outermost macro call (in a procedure body or the main program)
    /// this is the expansion of; `None` outside macros.
    root: Option<Span>,
}

pub(super) struct Expander<'p> {
    pub(super) program: &'p Program,
    pub(super) lookup: &'p HashMap<Arc<str>, Def>,
    pub(super) stmts_left: usize,
    pub(super) nodes_left: usize,
}

type R<T> = Result<T, Diagnostic>;

impl Expander<'_> {
    /// Expands a procedure body or the main program.
    pub(super) fn unit(&mut self, body: &Stmt) -> R<Stmt> {
        Ok(self.block(body, &Cx::default(), 1)?.0)
    }

    fn too_deep(&self, cx: &Cx, at: Span) -> Diagnostic {
        let d = match cx.root {
            Some(call) => Diagnostic::new(
                call,
                format!(
                    "expanding this macro call nests the program too deeply (more than \
                     {MAX_NESTING} levels)"
                ),
            ),
            None => Diagnostic::new(
                at,
                format!(
                    "after macro expansion, this is nested too deeply (more than {MAX_NESTING} \
                     levels)"
                ),
            ),
        };
        d.with_help("macros are expanded in place; simplify them or use procedures instead")
    }

    fn too_large(&self, cx: &Cx, what: &str) -> Diagnostic {
        Diagnostic::new(
            cx.root.unwrap_or_default(),
            format!("macro expansion makes the program too large (more than {what})"),
        )
        .with_help("macros are expanded in place; use procedures for code that is used often")
    }

    fn recursion(&self, rec: usize, cx: &Cx, at: Span) -> R<()> {
        if rec > MAX_EXPANSION_RECURSION {
            return Err(self.too_deep(cx, at));
        }
        Ok(())
    }

    fn height(&self, h: usize, cx: &Cx, at: Span) -> R<usize> {
        if h > MAX_NESTING {
            return Err(self.too_deep(cx, at));
        }
        Ok(h)
    }

    /// Counts `n` expression nodes built by macro expansion.
    fn nodes(&mut self, cx: &Cx, n: usize) -> R<()> {
        if cx.root.is_some() {
            if n > self.nodes_left {
                return Err(self.too_large(cx, &format!("{MAX_EXPANDED_NODES} expression nodes")));
            }
            self.nodes_left -= n;
        }
        Ok(())
    }

    /// Expands `s` into one statement (a sequence if needed), with its
    /// height. `rec` is the depth of `s` in the output, plus one for every
    /// macro call on the way.
    fn block(&mut self, s: &Stmt, cx: &Cx, rec: usize) -> R<(Stmt, usize)> {
        let mut out = Vec::new();
        let mut height = 0;
        self.stmts(s, cx, rec, &mut out, &mut height)?;
        match out.len() {
            0 => Ok((Stmt::Skip(s.span()), 1)),
            1 => Ok((out.pop().unwrap_or(Stmt::Skip(s.span())), height)),
            _ => {
                let h = self.height(height + 1, cx, s.span())?;
                Ok((Stmt::Seq(out), h))
            }
        }
    }

    /// Appends the expansion of `s` to `out`, splicing sequences so that no
    /// sequence ends up directly inside another; `height` becomes the
    /// maximum height of what was appended.
    fn stmts(
        &mut self,
        s: &Stmt,
        cx: &Cx,
        rec: usize,
        out: &mut Vec<Stmt>,
        height: &mut usize,
    ) -> R<()> {
        self.recursion(rec, cx, s.span())?;
        match s {
            Stmt::Seq(items) => {
                for item in items {
                    self.stmts(item, cx, rec + 1, out, height)?;
                }
                Ok(())
            }
            Stmt::Call {
                target: None,
                callee,
                args,
                span,
            } => {
                let Some(&Def::Macro(m)) = self.lookup.get(&callee.name) else {
                    let (node, h) = self.stmt_node(s, cx, rec)?;
                    return self.push(cx, node, h, out, height);
                };
                let def = &self.program.macros[m];
                let mut subst = HashMap::new();
                for (param, arg) in def.params.iter().zip(args) {
                    let (expr, h) = self.expr(arg, cx, rec + 1)?;
                    let size = expr_size(&expr);
                    subst.entry(param.name.clone()).or_insert(Arg {
                        expr,
                        height: h,
                        size,
                    });
                }
                let inner = Cx {
                    subst,
                    root: Some(cx.root.unwrap_or(*span)),
                };
                self.stmts(&def.body, &inner, rec + 1, out, height)
            }
            _ => {
                let (node, h) = self.stmt_node(s, cx, rec)?;
                self.push(cx, node, h, out, height)
            }
        }
    }

    fn push(
        &mut self,
        cx: &Cx,
        node: Stmt,
        h: usize,
        out: &mut Vec<Stmt>,
        height: &mut usize,
    ) -> R<()> {
        if cx.root.is_some() {
            if self.stmts_left == 0 {
                return Err(self.too_large(cx, &format!("{MAX_EXPANDED_STATEMENTS} statements")));
            }
            self.stmts_left -= 1;
        }
        out.push(node);
        *height = (*height).max(h);
        Ok(())
    }

    /// A parameter's argument when it is assigned (always a variable after
    /// phase 1), else the name itself.
    fn target(&self, t: &Ident, cx: &Cx) -> R<Ident> {
        match cx.subst.get(&t.name) {
            None => Ok(t.clone()),
            Some(Arg {
                expr: Expr::Var(v), ..
            }) => Ok(v.clone()),
            Some(arg) => Err(Diagnostic::new(
                arg.expr.span(),
                format!(
                    "parameter `{}` is assigned in its macro's body, so its argument must be a \
                     variable",
                    t.name
                ),
            )),
        }
    }

    /// Expands one statement that is neither a sequence nor a macro call.
    fn stmt_node(&mut self, s: &Stmt, cx: &Cx, rec: usize) -> R<(Stmt, usize)> {
        let span = s.span();
        let (node, child) = match s {
            Stmt::Skip(_) | Stmt::Fail(_) => (s.clone(), 0),
            Stmt::Assign { target, value, .. } => {
                let target = self.target(target, cx)?;
                let (value, h) = self.expr(value, cx, rec + 1)?;
                (
                    Stmt::Assign {
                        target,
                        value,
                        span,
                    },
                    h,
                )
            }
            Stmt::Havoc { target, .. } => (
                Stmt::Havoc {
                    target: self.target(target, cx)?,
                    span,
                },
                0,
            ),
            Stmt::ArrayAssign {
                array,
                index,
                value,
                ..
            } => {
                let (index, ih) = self.expr(index, cx, rec + 1)?;
                let (value, vh) = self.expr(value, cx, rec + 1)?;
                (
                    Stmt::ArrayAssign {
                        array: array.clone(),
                        index,
                        value,
                        span,
                    },
                    ih.max(vh),
                )
            }
            Stmt::Seq(_) => return self.block(s, cx, rec),
            Stmt::If {
                cond,
                then_branch,
                else_branch,
                ..
            } => {
                let (cond, ch) = self.cond(cond, cx, rec + 1)?;
                let (then_branch, th) = self.block(then_branch, cx, rec + 1)?;
                let (else_branch, eh) = self.block(else_branch, cx, rec + 1)?;
                (
                    Stmt::If {
                        cond,
                        then_branch: Box::new(then_branch),
                        else_branch: Box::new(else_branch),
                        span,
                    },
                    ch.max(th).max(eh),
                )
            }
            Stmt::While { cond, body, .. } => {
                let (cond, ch) = self.cond(cond, cx, rec + 1)?;
                let (body, bh) = self.block(body, cx, rec + 1)?;
                (
                    Stmt::While {
                        cond,
                        body: Box::new(body),
                        span,
                    },
                    ch.max(bh),
                )
            }
            Stmt::Assert { cond, .. } => {
                let (cond, h) = self.cond(cond, cx, rec + 1)?;
                (Stmt::Assert { cond, span }, h)
            }
            Stmt::Assume { cond, .. } => {
                let (cond, h) = self.cond(cond, cx, rec + 1)?;
                (Stmt::Assume { cond, span }, h)
            }
            Stmt::Call {
                target,
                callee,
                args,
                ..
            } => {
                let target = match target {
                    Some(t) => Some(self.target(t, cx)?),
                    None => None,
                };
                let mut new_args = Vec::with_capacity(args.len());
                let mut h = 0;
                for a in args {
                    let (a, ah) = self.expr(a, cx, rec + 1)?;
                    h = h.max(ah);
                    new_args.push(a);
                }
                (
                    Stmt::Call {
                        target,
                        callee: callee.clone(),
                        args: new_args,
                        span,
                    },
                    h,
                )
            }
            Stmt::Return { value, .. } => {
                let (value, h) = self.expr(value, cx, rec + 1)?;
                (Stmt::Return { value, span }, h)
            }
            Stmt::Decl {
                target, ty, init, ..
            } => {
                let target = self.target(target, cx)?;
                let (init, h) = match init {
                    Some(Init::Value(value)) => {
                        let (value, h) = self.expr(value, cx, rec + 1)?;
                        (Some(Init::Value(value)), h)
                    }
                    Some(Init::Havoc) => (Some(Init::Havoc), 0),
                    None => (None, 0),
                };
                let ty = *ty;
                (
                    Stmt::Decl {
                        target,
                        ty,
                        init,
                        span,
                    },
                    h,
                )
            }
            Stmt::ArrayDecl { .. } => (s.clone(), 0),
            Stmt::RefDecl {
                target,
                class,
                init,
                ..
            } => {
                let target = self.target(target, cx)?;
                let (init, h) = match init {
                    Some(value) => {
                        let (value, h) = self.expr(value, cx, rec + 1)?;
                        (Some(value), h)
                    }
                    None => (None, 0),
                };
                let class = class.clone();
                let s = Stmt::RefDecl {
                    target,
                    class,
                    init,
                    span,
                };
                (s, h)
            }
            Stmt::New { target, class, .. } => {
                let target = self.target(target, cx)?;
                let class = class.clone();
                (
                    Stmt::New {
                        target,
                        class,
                        span,
                    },
                    0,
                )
            }
            Stmt::FieldAssign {
                obj, field, value, ..
            } => {
                let (obj, oh) = self.expr(obj, cx, rec + 1)?;
                let (value, vh) = self.expr(value, cx, rec + 1)?;
                let field = field.clone();
                let s = Stmt::FieldAssign {
                    obj,
                    field,
                    value,
                    span,
                };
                (s, oh.max(vh))
            }
            Stmt::MethodCall {
                target,
                receiver,
                method,
                args,
                ..
            } => {
                let target = match target {
                    Some(t) => Some(self.target(t, cx)?),
                    None => None,
                };
                let (receiver, rh) = self.expr(receiver, cx, rec + 1)?;
                let (args, ah) = self.exprs(args, cx, rec)?;
                let method = method.clone();
                let s = Stmt::MethodCall {
                    target,
                    receiver,
                    method,
                    args,
                    span,
                };
                (s, rh.max(ah))
            }
            Stmt::Spawn {
                target,
                receiver,
                callee,
                args,
                ..
            } => {
                let target = match target {
                    Some(t) => Some(self.target(t, cx)?),
                    None => None,
                };
                let (receiver, rh) = match receiver {
                    Some(r) => {
                        let (r, h) = self.expr(r, cx, rec + 1)?;
                        (Some(r), h)
                    }
                    None => (None, 0),
                };
                let (args, ah) = self.exprs(args, cx, rec)?;
                let callee = callee.clone();
                let s = Stmt::Spawn {
                    target,
                    receiver,
                    callee,
                    args,
                    span,
                };
                (s, rh.max(ah))
            }
            Stmt::Join { thread, .. } => {
                let (thread, h) = self.expr(thread, cx, rec + 1)?;
                (Stmt::Join { thread, span }, h)
            }
            Stmt::Lock { obj, acquire, .. } => {
                let (obj, h) = self.expr(obj, cx, rec + 1)?;
                let acquire = *acquire;
                (Stmt::Lock { obj, acquire, span }, h)
            }
            Stmt::Atomic { body, .. } => {
                let (body, h) = self.block(body, cx, rec + 1)?;
                let body = Box::new(body);
                (Stmt::Atomic { body, span }, h)
            }
        };
        let h = self.height(child + 1, cx, span)?;
        Ok((node, h))
    }

    /// Expands each of `args`, with the greatest height.
    fn exprs(&mut self, args: &[Expr], cx: &Cx, rec: usize) -> R<(Vec<Expr>, usize)> {
        let mut out = Vec::with_capacity(args.len());
        let mut h = 0;
        for a in args {
            let (a, ah) = self.expr(a, cx, rec + 1)?;
            h = h.max(ah);
            out.push(a);
        }
        Ok((out, h))
    }

    fn cond(&mut self, c: &Cond, cx: &Cx, rec: usize) -> R<(Cond, usize)> {
        self.recursion(rec, cx, c.span())?;
        self.nodes(cx, 1)?;
        let (node, child) = match c {
            Cond::Bool { .. } => (c.clone(), 0),
            Cond::Not { operand, span } => {
                let (operand, h) = self.cond(operand, cx, rec + 1)?;
                (
                    Cond::Not {
                        operand: Box::new(operand),
                        span: *span,
                    },
                    h,
                )
            }
            Cond::And { lhs, rhs, span } => {
                let (lhs, lh) = self.cond(lhs, cx, rec + 1)?;
                let (rhs, rh) = self.cond(rhs, cx, rec + 1)?;
                (
                    Cond::And {
                        lhs: Box::new(lhs),
                        rhs: Box::new(rhs),
                        span: *span,
                    },
                    lh.max(rh),
                )
            }
            Cond::Or { lhs, rhs, span } => {
                let (lhs, lh) = self.cond(lhs, cx, rec + 1)?;
                let (rhs, rh) = self.cond(rhs, cx, rec + 1)?;
                (
                    Cond::Or {
                        lhs: Box::new(lhs),
                        rhs: Box::new(rhs),
                        span: *span,
                    },
                    lh.max(rh),
                )
            }
            Cond::Cmp { op, lhs, rhs, span } => {
                let (lhs, lh) = self.expr(lhs, cx, rec + 1)?;
                let (rhs, rh) = self.expr(rhs, cx, rec + 1)?;
                (
                    Cond::Cmp {
                        op: *op,
                        lhs,
                        rhs,
                        span: *span,
                    },
                    lh.max(rh),
                )
            }
        };
        let h = self.height(child + 1, cx, c.span())?;
        Ok((node, h))
    }

    fn expr(&mut self, e: &Expr, cx: &Cx, rec: usize) -> R<(Expr, usize)> {
        self.recursion(rec, cx, e.span())?;
        if let Expr::Var(v) = e {
            if let Some(arg) = cx.subst.get(&v.name) {
                self.nodes(cx, arg.size)?;
                return Ok((arg.expr.clone(), arg.height));
            }
        }
        self.nodes(cx, 1)?;
        let (node, child) = match e {
            Expr::Num { .. } | Expr::Var(_) | Expr::Null(_) => (e.clone(), 0),
            Expr::Field { obj, field, span } => {
                let (obj, h) = self.expr(obj, cx, rec + 1)?;
                (
                    Expr::Field {
                        obj: Box::new(obj),
                        field: field.clone(),
                        span: *span,
                    },
                    h,
                )
            }
            Expr::Index { array, index, span } => {
                let (index, h) = self.expr(index, cx, rec + 1)?;
                (
                    Expr::Index {
                        array: array.clone(),
                        index: Box::new(index),
                        span: *span,
                    },
                    h,
                )
            }
            Expr::Unary { op, operand, span } => {
                let (operand, h) = self.expr(operand, cx, rec + 1)?;
                (
                    Expr::Unary {
                        op: *op,
                        operand: Box::new(operand),
                        span: *span,
                    },
                    h,
                )
            }
            Expr::Cast { ty, operand, span } => {
                let (operand, h) = self.expr(operand, cx, rec + 1)?;
                (
                    Expr::Cast {
                        ty: *ty,
                        operand: Box::new(operand),
                        span: *span,
                    },
                    h,
                )
            }
            Expr::Binary {
                op,
                lhs,
                rhs,
                span,
                op_span,
            } => {
                let (lhs, lh) = self.expr(lhs, cx, rec + 1)?;
                let (rhs, rh) = self.expr(rhs, cx, rec + 1)?;
                (
                    Expr::Binary {
                        op: *op,
                        lhs: Box::new(lhs),
                        rhs: Box::new(rhs),
                        span: *span,
                        op_span: *op_span,
                    },
                    lh.max(rh),
                )
            }
        };
        let h = self.height(child + 1, cx, e.span())?;
        Ok((node, h))
    }
}

/// Number of nodes in an expression.
fn expr_size(e: &Expr) -> usize {
    match e {
        Expr::Num { .. } | Expr::Var(_) | Expr::Null(_) => 1,
        Expr::Index { index, .. } => 1 + expr_size(index),
        Expr::Field { obj, .. } => 1 + expr_size(obj),
        Expr::Unary { operand, .. } | Expr::Cast { operand, .. } => 1 + expr_size(operand),
        Expr::Binary { lhs, rhs, .. } => 1 + expr_size(lhs) + expr_size(rhs),
    }
}
