//! Rendering a [`Program`] to IMP source, through `wiser_imp`'s syntax tree
//! and printer (so the printer is exercised too).
//!
//! The main program starts with the declarations of its fixed-width
//! scalars and arrays, then one `assume` per input of the specification
//! that restricts it to its domain, then the initialisation of the arrays,
//! then the statements. A read `x = *` is followed by an `assume` that
//! restricts `x` to the domain of reads of its type.

use crate::domain::{to_int, Domain};
use crate::program::{lookup, Bound, Co, Ex, Program, St, ARRAY_REACH};
use crate::spec::Spec;
use crate::Name;
use std::sync::Arc;
use wiser_imp::ast::{self, BinOp, CmpOp, IntTy};
use wiser_imp::Span;
use wiser_ir::ScalarTy;

pub(crate) fn ident(name: &str) -> ast::Ident {
    ast::Ident {
        name: Arc::from(name),
        span: Span::default(),
    }
}

pub(crate) fn num(v: i128) -> ast::Expr {
    ast::Expr::Num {
        value: to_int(v),
        span: Span::default(),
    }
}

pub(crate) fn bin(op: BinOp, a: ast::Expr, b: ast::Expr) -> ast::Expr {
    ast::Expr::Binary {
        op,
        lhs: Box::new(a),
        rhs: Box::new(b),
        span: Span::default(),
        op_span: Span::default(),
    }
}

pub(crate) fn cmp(op: CmpOp, a: ast::Expr, b: ast::Expr) -> ast::Cond {
    ast::Cond::Cmp {
        op,
        lhs: a,
        rhs: b,
        span: Span::default(),
    }
}

pub(crate) fn and(a: ast::Cond, b: ast::Cond) -> ast::Cond {
    ast::Cond::And {
        lhs: Box::new(a),
        rhs: Box::new(b),
        span: Span::default(),
    }
}

pub(crate) fn or(a: ast::Cond, b: ast::Cond) -> ast::Cond {
    ast::Cond::Or {
        lhs: Box::new(a),
        rhs: Box::new(b),
        span: Span::default(),
    }
}

pub(crate) fn assign(name: &str, e: ast::Expr) -> ast::Stmt {
    ast::Stmt::Assign {
        target: ident(name),
        value: e,
        span: Span::default(),
    }
}

pub(crate) fn assume(c: ast::Cond) -> ast::Stmt {
    ast::Stmt::Assume {
        cond: c,
        span: Span::default(),
    }
}

/// `e` is in `d`: `e >= lo and e <= hi` for each interval (`e == v` for
/// one value), joined by `or`; `false` for the empty set.
pub fn in_domain(e: ast::Expr, d: &Domain) -> ast::Cond {
    let mut out: Option<ast::Cond> = None;
    for &(lo, hi) in d.intervals() {
        let c = if lo == hi {
            cmp(CmpOp::Eq, e.clone(), num(lo))
        } else {
            and(
                cmp(CmpOp::Ge, e.clone(), num(lo)),
                cmp(CmpOp::Le, e.clone(), num(hi)),
            )
        };
        out = Some(match out {
            None => c,
            Some(prev) => or(prev, c),
        });
    }
    out.unwrap_or(ast::Cond::Bool {
        value: false,
        span: Span::default(),
    })
}

fn elem(array: &str, index: ast::Expr) -> ast::Expr {
    ast::Expr::Index {
        array: ident(array),
        index: Box::new(index),
        span: Span::default(),
    }
}

pub(crate) fn seq(mut v: Vec<ast::Stmt>) -> ast::Stmt {
    match v.len() {
        0 => ast::Stmt::Skip(Span::default()),
        1 => v.pop().expect("one statement"),
        _ => ast::Stmt::Seq(v),
    }
}

fn decl(name: &str, ty: IntTy) -> ast::Stmt {
    ast::Stmt::Decl {
        target: ident(name),
        ty: ty.into(),
        init: None,
        span: Span::default(),
    }
}

/// The index expression for `i`: itself if it is a constant in reach,
/// `i % (ARRAY_REACH + 1)` otherwise.
pub fn index(i: &Ex) -> ast::Expr {
    match i {
        Ex::Num(k) if (-i128::from(ARRAY_REACH)..=i128::from(ARRAY_REACH)).contains(k) => num(*k),
        _ => bin(BinOp::Rem, expr(i), num(i128::from(ARRAY_REACH) + 1)),
    }
}

/// The syntax tree of an expression.
pub fn expr(e: &Ex) -> ast::Expr {
    match e {
        Ex::Num(v) => num(*v),
        Ex::Var(v) => ast::Expr::Var(ident(v)),
        Ex::Elem(a, i) => elem(a, index(i)),
        Ex::Un(op, a) => ast::Expr::Unary {
            op: *op,
            operand: Box::new(expr(a)),
            span: Span::default(),
        },
        Ex::Bin(op, a, b) => bin(*op, expr(a), expr(b)),
        Ex::Cast(ty, a) => ast::Expr::Cast {
            ty: (*ty).into(),
            operand: Box::new(expr(a)),
            span: Span::default(),
        },
    }
}

/// The syntax tree of a condition.
pub fn cond(c: &Co) -> ast::Cond {
    match c {
        Co::Bool(b) => ast::Cond::Bool {
            value: *b,
            span: Span::default(),
        },
        Co::Cmp(op, a, b) => cmp(*op, expr(a), expr(b)),
        Co::Not(a) => ast::Cond::Not {
            operand: Box::new(cond(a)),
            span: Span::default(),
        },
        Co::And(a, b) => and(cond(a), cond(b)),
        Co::Or(a, b) => or(cond(a), cond(b)),
    }
}

/// What statements need to know about their routine.
struct Ctx<'a> {
    spec: &'a Spec,
    /// The routine's fixed-width scalars.
    types: &'a [(Name, IntTy)],
}

fn block(ss: &[St], cx: &Ctx) -> ast::Stmt {
    let mut v = Vec::new();
    for s in ss {
        stmt(s, cx, &mut v);
    }
    seq(v)
}

fn stmt(s: &St, cx: &Ctx, out: &mut Vec<ast::Stmt>) {
    let sp = Span::default();
    match s {
        St::Assign(v, e) => out.push(assign(v, expr(e))),
        St::Havoc(v) => {
            out.push(ast::Stmt::Havoc {
                target: ident(v),
                span: sp,
            });
            let ty = ScalarTy::Int(lookup(cx.types, v));
            let d = cx.spec.read_domain(ty);
            out.push(assume(in_domain(ast::Expr::Var(ident(v)), &d)));
        }
        St::Store(a, i, e) => out.push(ast::Stmt::ArrayAssign {
            array: ident(a),
            index: index(i),
            value: expr(e),
            span: sp,
        }),
        St::If(c, a, b) => out.push(ast::Stmt::If {
            cond: cond(c),
            then_branch: Box::new(block(a, cx)),
            else_branch: Box::new(block(b, cx)),
            span: sp,
        }),
        St::Loop {
            counter,
            bound,
            cond: c,
            body,
        } => {
            out.push(assign(counter, num(0)));
            let limit = match bound {
                Bound::Const(k) => num(i128::from(*k)),
                Bound::Var(v) => ast::Expr::Var(ident(v)),
            };
            let mut test = cmp(CmpOp::Lt, ast::Expr::Var(ident(counter)), limit);
            if let Some(c) = c {
                test = and(test, cond(c));
            }
            let mut v = Vec::new();
            for s in body {
                stmt(s, cx, &mut v);
            }
            v.push(assign(
                counter,
                bin(BinOp::Add, ast::Expr::Var(ident(counter)), num(1)),
            ));
            out.push(ast::Stmt::While {
                cond: test,
                body: Box::new(seq(v)),
                span: sp,
            });
        }
        St::Assert(c) => out.push(ast::Stmt::Assert {
            cond: cond(c),
            span: sp,
        }),
        St::Assume(c) => out.push(assume(cond(c))),
        St::Fail => out.push(ast::Stmt::Fail(sp)),
        St::Call(target, f, args) => out.push(ast::Stmt::Call {
            target: target.as_deref().map(ident),
            callee: ident(f),
            args: args.iter().map(expr).collect(),
            span: sp,
        }),
        St::Return(e) => out.push(ast::Stmt::Return {
            value: expr(e),
            span: sp,
        }),
    }
}

impl Program {
    /// The syntax tree (without the specification header).
    pub fn to_ast(&self) -> ast::Program {
        let spec = &self.spec;
        let mut main = Vec::new();
        for (v, ty) in &self.types {
            main.push(decl(v, *ty));
        }
        for (a, ty) in &self.array_types {
            main.push(ast::Stmt::ArrayDecl {
                array: ident(a),
                elem: (*ty).into(),
                span: Span::default(),
            });
        }
        for (v, d) in &spec.inputs {
            main.push(assume(in_domain(ast::Expr::Var(ident(v)), d)));
        }
        for (a, i, d) in &spec.cells {
            main.push(assume(in_domain(elem(a, num(i128::from(*i))), d)));
        }
        for (a, i, v) in &self.array_init {
            main.push(ast::Stmt::ArrayAssign {
                array: ident(a),
                index: num(i128::from(*i)),
                value: num(*v),
                span: Span::default(),
            });
        }
        let cx = Ctx {
            spec,
            types: &self.types,
        };
        for s in &self.main {
            stmt(s, &cx, &mut main);
        }
        let procs = self
            .procs
            .iter()
            .map(|p| {
                let mut types = p.params.clone();
                types.extend(p.locals.iter().cloned());
                let cx = Ctx {
                    spec,
                    types: &types,
                };
                let mut body: Vec<ast::Stmt> = p.locals.iter().map(|(n, t)| decl(n, *t)).collect();
                for s in &p.body {
                    stmt(s, &cx, &mut body);
                }
                ast::ProcDef {
                    name: ident(&p.name),
                    params: p
                        .params
                        .iter()
                        .map(|(n, ty)| ast::Param {
                            name: ident(n),
                            ty: (*ty).into(),
                            class: None,
                        })
                        .collect(),
                    ret: p.ret.into(),
                    ret_class: None,
                    body: seq(body),
                    span: Span::default(),
                }
            })
            .collect();
        ast::Program {
            macros: Vec::new(),
            procs,
            classes: Vec::new(),
            globals: Vec::new(),
            main: seq(main),
        }
    }

    /// The source text: the specification header, then the program.
    pub fn source(&self) -> String {
        format!("{}{}", self.spec.header(), self.to_ast())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::Proc;
    use wiser_imp::ast::UnOp;

    #[test]
    fn renders_and_compiles() {
        let p = Program {
            spec: Spec {
                inputs: vec![("x".into(), Domain::range(-3, 3))],
                cells: vec![("a".into(), 0, Domain::range(-1, 1))],
                reads: Domain::range(-1, 1),
                ..Spec::default()
            },
            types: vec![],
            array_types: vec![],
            array_init: vec![("a".into(), 1, 5)],
            procs: vec![],
            main: vec![
                St::Havoc("t".into()),
                St::Loop {
                    counter: "i0".into(),
                    bound: Bound::Var("x".into()),
                    cond: None,
                    body: vec![St::Store(
                        "a".into(),
                        Ex::Var("i0".into()),
                        Ex::Bin(
                            BinOp::Div,
                            Box::new(Ex::Var("t".into())),
                            Box::new(Ex::Num(-2)),
                        ),
                    )],
                },
            ],
        };
        let src = p.source();
        assert!(src.starts_with("# @input x -3 3\n"), "{src}");
        assert!(src.contains("a[i0 % 4] = t / -2"), "{src}");
        wiser_imp::compile(&src).unwrap();
    }

    #[test]
    fn renders_types_domains_and_typed_reads() {
        let p = Program {
            spec: Spec {
                inputs: vec![(
                    "x".into(),
                    Domain::from_intervals(vec![(-128, -127), (0, 0), (127, 127)]),
                )],
                typed_reads: vec![(IntTy::U64, Domain::from_values([0, 18446744073709551615]))],
                wrap_signed: true,
                ..Spec::default()
            },
            types: vec![("x".into(), IntTy::I8), ("t".into(), IntTy::U64)],
            array_types: vec![("a".into(), IntTy::U8)],
            array_init: vec![("a".into(), 0, 255)],
            procs: vec![Proc {
                name: "g".into(),
                params: vec![("p".into(), IntTy::U16), ("q".into(), IntTy::INT)],
                ret: IntTy::I32,
                locals: vec![("l".into(), IntTy::U8)],
                body: vec![
                    St::Assign(
                        "l".into(),
                        Ex::Cast(IntTy::U8, Box::new(Ex::Var("q".into()))),
                    ),
                    St::Return(Ex::Var("p".into())),
                ],
            }],
            main: vec![
                St::Havoc("t".into()),
                St::Call(
                    Some("u".into()),
                    "g".into(),
                    vec![
                        Ex::Cast(IntTy::U16, Box::new(Ex::Var("t".into()))),
                        Ex::Var("x".into()),
                    ],
                ),
                St::Store(
                    "a".into(),
                    Ex::Num(0),
                    Ex::Bin(
                        BinOp::Shl,
                        Box::new(Ex::Elem("a".into(), Box::new(Ex::Num(0)))),
                        Box::new(Ex::Un(UnOp::Neg, Box::new(Ex::Var("x".into())))),
                    ),
                ),
            ],
        };
        let src = p.source();
        assert!(
            src.contains("# @input x -128..-127 0..0 127..127\n"),
            "{src}"
        );
        assert!(src.contains("# @wrap-signed\n"), "{src}");
        assert!(src.contains("var x: i8"), "{src}");
        assert!(src.contains("var a: u8[]"), "{src}");
        assert!(
            src.contains("assume t == 0 or t == 18446744073709551615"),
            "{src}"
        );
        wiser_imp::compile(&src).unwrap_or_else(|d| panic!("{}\n{src}", d.message));
        assert_eq!(Spec::parse(&src).unwrap(), p.spec);
    }
}
