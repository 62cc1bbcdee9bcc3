//! Rendering an [`OProgram`] through `wiser_imp`'s syntax tree.
//!
//! The main program declares its input references (`var x: C`, no
//! initialiser: read before written, so an input) and its local references
//! (`var p: C = null`), restricts its `int` inputs to their domains, sets
//! its `int` locals to 0 and its shared globals to new objects, then runs
//! its statements.

use super::{Features, IEx, OCo, OProgram, OSt, REx, CLASS, FIELD, NEXT};
use crate::render::{and, assign, assume, bin, cmp, ident, in_domain, num, seq};
use wiser_imp::ast::{self, CmpOp, IntTy};
use wiser_imp::Span;

fn var(n: &str) -> ast::Expr {
    ast::Expr::Var(ident(n))
}

fn field(obj: ast::Expr, name: &str) -> ast::Expr {
    ast::Expr::Field {
        obj: Box::new(obj),
        field: ident(name),
        span: Span::default(),
    }
}

fn iex(e: &IEx) -> ast::Expr {
    match e {
        IEx::Num(v) => num(i128::from(*v)),
        IEx::Var(v) => var(v),
        IEx::Bin(op, a, b) => bin(*op, iex(a), iex(b)),
    }
}

fn rex(r: &REx) -> ast::Expr {
    match r {
        REx::Null => ast::Expr::Null(Span::default()),
        REx::Var(v) => var(v),
        REx::Next(v) => field(var(v), NEXT),
    }
}

fn cond(c: &OCo) -> ast::Cond {
    match c {
        OCo::Cmp(op, a, b) => cmp(*op, iex(a), iex(b)),
        OCo::Same(eq, a, b) => cmp(if *eq { CmpOp::Eq } else { CmpOp::Ne }, rex(a), rex(b)),
        OCo::Not(a) => ast::Cond::Not {
            operand: Box::new(cond(a)),
            span: Span::default(),
        },
        OCo::And(a, b) => and(cond(a), cond(b)),
    }
}

/// How statements render in one program.
struct Ctx<'a> {
    p: &'a OProgram,
}

impl Ctx<'_> {
    fn block(&self, ss: &[OSt]) -> ast::Stmt {
        let mut v = Vec::new();
        for s in ss {
            self.stmt(s, &mut v);
        }
        seq(v)
    }

    fn stmt(&self, s: &OSt, out: &mut Vec<ast::Stmt>) {
        let span = Span::default();
        match s {
            OSt::Assign(v, e) | OSt::WriteGlobal(v, e) => out.push(assign(v, iex(e))),
            OSt::ReadField(v, r) => {
                out.push(assign(v, field(rex(r), FIELD)));
                // The input heap's `int` fields are unbounded for the
                // engine: each value read is restricted to the domain the
                // enumeration gives them.
                if self.p.features == Features::Heap {
                    out.push(assume(in_domain(var(v), &self.p.fields)));
                }
            }
            OSt::WriteField(r, e) => out.push(ast::Stmt::FieldAssign {
                obj: rex(r),
                field: ident(FIELD),
                value: iex(e),
                span,
            }),
            OSt::SetNext(r, q) => out.push(ast::Stmt::FieldAssign {
                obj: rex(r),
                field: ident(NEXT),
                value: rex(q),
                span,
            }),
            OSt::SetRef(v, r) => out.push(assign(v, rex(r))),
            OSt::New(v) => out.push(ast::Stmt::New {
                target: ident(v),
                class: ident(CLASS),
                span,
            }),
            OSt::If(c, a, b) => out.push(ast::Stmt::If {
                cond: cond(c),
                then_branch: Box::new(self.block(a)),
                else_branch: Box::new(self.block(b)),
                span,
            }),
            OSt::Assert(c) => out.push(ast::Stmt::Assert {
                cond: cond(c),
                span,
            }),
            OSt::Assume(c) => out.push(assume(cond(c))),
            OSt::ReadGlobal(v, g) => out.push(assign(v, var(g))),
            OSt::Lock(acquire, m) => out.push(ast::Stmt::Lock {
                obj: var(m),
                acquire: *acquire,
                span,
            }),
            OSt::Atomic(b) => out.push(ast::Stmt::Atomic {
                body: Box::new(self.block(b)),
                span,
            }),
            OSt::Spawn(t, p, args) => out.push(ast::Stmt::Spawn {
                target: t.as_deref().map(ident),
                receiver: None,
                callee: ident(p),
                args: args.iter().map(iex).collect(),
                span,
            }),
            OSt::Join(t) => out.push(ast::Stmt::Join {
                thread: var(t),
                span,
            }),
        }
    }
}

fn class() -> ast::ClassDef {
    ast::ClassDef {
        name: ident(CLASS),
        fields: vec![
            ast::FieldDef {
                name: ident(FIELD),
                ty: IntTy::INT,
                class: None,
            },
            ast::FieldDef {
                name: ident(NEXT),
                ty: IntTy::INT,
                class: Some(ident(CLASS)),
            },
        ],
        methods: Vec::new(),
        span: Span::default(),
    }
}

fn global(name: &str, class: Option<&str>) -> ast::GlobalDef {
    ast::GlobalDef {
        name: ident(name),
        ty: IntTy::INT,
        class: class.map(ident),
        init: Some(match class {
            Some(_) => ast::Expr::Null(Span::default()),
            None => num(0),
        }),
        span: Span::default(),
    }
}

impl OProgram {
    /// The syntax tree (without the header).
    pub fn to_ast(&self) -> ast::Program {
        let cx = Ctx { p: self };
        let mut main = Vec::new();
        for r in &self.refs {
            main.push(ast::Stmt::RefDecl {
                target: ident(r),
                class: ident(CLASS),
                init: None,
                span: Span::default(),
            });
        }
        for r in &self.ref_locals {
            main.push(ast::Stmt::RefDecl {
                target: ident(r),
                class: ident(CLASS),
                init: Some(ast::Expr::Null(Span::default())),
                span: Span::default(),
            });
        }
        for (v, d) in &self.inputs {
            main.push(assume(in_domain(var(v), d)));
        }
        for v in &self.locals {
            main.push(assign(v, num(0)));
        }
        for m in &self.shared {
            main.push(ast::Stmt::New {
                target: ident(m),
                class: ident(CLASS),
                span: Span::default(),
            });
        }
        for s in &self.main {
            cx.stmt(s, &mut main);
        }
        let procs = self
            .procs
            .iter()
            .map(|p| {
                let mut body: Vec<ast::Stmt> = p.locals.iter().map(|v| assign(v, num(0))).collect();
                for s in &p.body {
                    cx.stmt(s, &mut body);
                }
                ast::ProcDef {
                    name: ident(&p.name),
                    params: p
                        .params
                        .iter()
                        .map(|n| ast::Param {
                            name: ident(n),
                            ty: ast::Ty::INT,
                            class: None,
                        })
                        .collect(),
                    ret: ast::Ty::INT,
                    ret_class: None,
                    body: seq(body),
                    span: Span::default(),
                }
            })
            .collect();
        let mut globals: Vec<_> = self.globals.iter().map(|g| global(g, None)).collect();
        globals.extend(self.shared.iter().map(|m| global(m, Some(CLASS))));
        ast::Program {
            macros: Vec::new(),
            procs,
            classes: vec![class()],
            globals,
            main: seq(main),
        }
    }
}
