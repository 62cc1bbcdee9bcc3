//! Phase 2 of [`super::analyse()`]: macro expansion.

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
        // The greatest height of the parts expanded so far.
        let mut h = 0;
        let node = match s {
            Stmt::Skip(_) | Stmt::Fail(_) | Stmt::ArrayDecl { .. } => s.clone(),
            Stmt::Seq(_) => return self.block(s, cx, rec),
            Stmt::Assign { target, value, .. } => Stmt::Assign {
                target: self.target(target, cx)?,
                value: self.sub_expr(value, cx, rec, &mut h)?,
                span,
            },
            Stmt::Havoc { target, .. } => Stmt::Havoc {
                target: self.target(target, cx)?,
                span,
            },
            Stmt::ArrayAssign {
                array,
                index,
                value,
                ..
            } => Stmt::ArrayAssign {
                array: array.clone(),
                index: self.sub_expr(index, cx, rec, &mut h)?,
                value: self.sub_expr(value, cx, rec, &mut h)?,
                span,
            },
            Stmt::If {
                cond,
                then_branch,
                else_branch,
                ..
            } => Stmt::If {
                cond: self.sub_cond(cond, cx, rec, &mut h)?,
                then_branch: self.sub_block(then_branch, cx, rec, &mut h)?,
                else_branch: self.sub_block(else_branch, cx, rec, &mut h)?,
                span,
            },
            Stmt::While { cond, body, .. } => Stmt::While {
                cond: self.sub_cond(cond, cx, rec, &mut h)?,
                body: self.sub_block(body, cx, rec, &mut h)?,
                span,
            },
            Stmt::Assert { cond, .. } => Stmt::Assert {
                cond: self.sub_cond(cond, cx, rec, &mut h)?,
                span,
            },
            Stmt::Assume { cond, .. } => Stmt::Assume {
                cond: self.sub_cond(cond, cx, rec, &mut h)?,
                span,
            },
            Stmt::Call {
                target,
                callee,
                args,
                ..
            } => Stmt::Call {
                target: self.target_opt(target, cx)?,
                callee: callee.clone(),
                args: self.sub_exprs(args, cx, rec, &mut h)?,
                span,
            },
            Stmt::Return { value, .. } => Stmt::Return {
                value: self.sub_expr(value, cx, rec, &mut h)?,
                span,
            },
            Stmt::Decl {
                target, ty, init, ..
            } => Stmt::Decl {
                target: self.target(target, cx)?,
                ty: *ty,
                init: match init {
                    Some(Init::Value(value)) => {
                        Some(Init::Value(self.sub_expr(value, cx, rec, &mut h)?))
                    }
                    Some(Init::Havoc) => Some(Init::Havoc),
                    None => None,
                },
                span,
            },
            Stmt::RefDecl {
                target,
                class,
                init,
                ..
            } => Stmt::RefDecl {
                target: self.target(target, cx)?,
                class: class.clone(),
                init: match init {
                    Some(value) => Some(self.sub_expr(value, cx, rec, &mut h)?),
                    None => None,
                },
                span,
            },
            Stmt::New { target, class, .. } => Stmt::New {
                target: self.target(target, cx)?,
                class: class.clone(),
                span,
            },
            Stmt::FieldAssign {
                obj, field, value, ..
            } => Stmt::FieldAssign {
                obj: self.sub_expr(obj, cx, rec, &mut h)?,
                field: field.clone(),
                value: self.sub_expr(value, cx, rec, &mut h)?,
                span,
            },
            Stmt::MethodCall {
                target,
                receiver,
                method,
                args,
                ..
            } => Stmt::MethodCall {
                target: self.target_opt(target, cx)?,
                receiver: self.sub_expr(receiver, cx, rec, &mut h)?,
                method: method.clone(),
                args: self.sub_exprs(args, cx, rec, &mut h)?,
                span,
            },
            Stmt::Spawn {
                target,
                receiver,
                callee,
                args,
                ..
            } => Stmt::Spawn {
                target: self.target_opt(target, cx)?,
                receiver: match receiver {
                    Some(r) => Some(self.sub_expr(r, cx, rec, &mut h)?),
                    None => None,
                },
                callee: callee.clone(),
                args: self.sub_exprs(args, cx, rec, &mut h)?,
                span,
            },
            Stmt::Join { thread, .. } => Stmt::Join {
                thread: self.sub_expr(thread, cx, rec, &mut h)?,
                span,
            },
            Stmt::Lock { obj, acquire, .. } => Stmt::Lock {
                obj: self.sub_expr(obj, cx, rec, &mut h)?,
                acquire: *acquire,
                span,
            },
            Stmt::Atomic { body, .. } => Stmt::Atomic {
                body: self.sub_block(body, cx, rec, &mut h)?,
                span,
            },
        };
        let h = self.height(h + 1, cx, span)?;
        Ok((node, h))
    }

    /// [`Self::target`] of an optional target.
    fn target_opt(&self, t: &Option<Ident>, cx: &Cx) -> R<Option<Ident>> {
        t.as_ref().map(|t| self.target(t, cx)).transpose()
    }

    /// Expands `e`, a part of a node at depth `rec`, raising `h` to its
    /// height.
    fn sub_expr(&mut self, e: &Expr, cx: &Cx, rec: usize, h: &mut usize) -> R<Expr> {
        let (e, eh) = self.expr(e, cx, rec + 1)?;
        *h = (*h).max(eh);
        Ok(e)
    }

    /// [`Self::sub_expr`] of each of `args`.
    fn sub_exprs(&mut self, args: &[Expr], cx: &Cx, rec: usize, h: &mut usize) -> R<Vec<Expr>> {
        args.iter().map(|a| self.sub_expr(a, cx, rec, h)).collect()
    }

    /// [`Self::sub_expr`] for a condition.
    fn sub_cond(&mut self, c: &Cond, cx: &Cx, rec: usize, h: &mut usize) -> R<Cond> {
        let (c, ch) = self.cond(c, cx, rec + 1)?;
        *h = (*h).max(ch);
        Ok(c)
    }

    /// [`Self::sub_expr`] for a nested block.
    fn sub_block(&mut self, s: &Stmt, cx: &Cx, rec: usize, h: &mut usize) -> R<Box<Stmt>> {
        let (s, sh) = self.block(s, cx, rec + 1)?;
        *h = (*h).max(sh);
        Ok(Box::new(s))
    }

    fn cond(&mut self, c: &Cond, cx: &Cx, rec: usize) -> R<(Cond, usize)> {
        self.recursion(rec, cx, c.span())?;
        self.nodes(cx, 1)?;
        let mut h = 0;
        let node = match c {
            Cond::Bool { .. } => c.clone(),
            Cond::Not { operand, span } => Cond::Not {
                operand: Box::new(self.sub_cond(operand, cx, rec, &mut h)?),
                span: *span,
            },
            Cond::And { lhs, rhs, span } | Cond::Or { lhs, rhs, span } => {
                let lhs = Box::new(self.sub_cond(lhs, cx, rec, &mut h)?);
                let rhs = Box::new(self.sub_cond(rhs, cx, rec, &mut h)?);
                let span = *span;
                if matches!(c, Cond::And { .. }) {
                    Cond::And { lhs, rhs, span }
                } else {
                    Cond::Or { lhs, rhs, span }
                }
            }
            Cond::Cmp { op, lhs, rhs, span } => Cond::Cmp {
                op: *op,
                lhs: self.sub_expr(lhs, cx, rec, &mut h)?,
                rhs: self.sub_expr(rhs, cx, rec, &mut h)?,
                span: *span,
            },
        };
        let h = self.height(h + 1, cx, c.span())?;
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
        let mut h = 0;
        let mut sub = |this: &mut Self, e: &Expr| this.sub_expr(e, cx, rec, &mut h).map(Box::new);
        let node = match e {
            Expr::Num { .. } | Expr::Float { .. } | Expr::Var(_) | Expr::Null(_) => e.clone(),
            Expr::Field { obj, field, span } => Expr::Field {
                obj: sub(self, obj)?,
                field: field.clone(),
                span: *span,
            },
            Expr::Index { array, index, span } => Expr::Index {
                array: array.clone(),
                index: sub(self, index)?,
                span: *span,
            },
            Expr::Unary { op, operand, span } => Expr::Unary {
                op: *op,
                operand: sub(self, operand)?,
                span: *span,
            },
            Expr::Cast { ty, operand, span } => Expr::Cast {
                ty: *ty,
                operand: sub(self, operand)?,
                span: *span,
            },
            Expr::Binary {
                op,
                lhs,
                rhs,
                span,
                op_span,
            } => Expr::Binary {
                op: *op,
                lhs: sub(self, lhs)?,
                rhs: sub(self, rhs)?,
                span: *span,
                op_span: *op_span,
            },
        };
        let h = self.height(h + 1, cx, e.span())?;
        Ok((node, h))
    }
}

/// Number of nodes in an expression.
fn expr_size(e: &Expr) -> usize {
    match e {
        Expr::Num { .. } | Expr::Float { .. } | Expr::Var(_) | Expr::Null(_) => 1,
        Expr::Index { index, .. } => 1 + expr_size(index),
        Expr::Field { obj, .. } => 1 + expr_size(obj),
        Expr::Unary { operand, .. } | Expr::Cast { operand, .. } => 1 + expr_size(operand),
        Expr::Binary { lhs, rhs, .. } => 1 + expr_size(lhs) + expr_size(rhs),
    }
}
