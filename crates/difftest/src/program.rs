//! The generator's programs: a small syntax tree that is easy to generate
//! and to shrink, the input specification that bounds every input, and the
//! rendering to IMP source (through `wiser_syntax`'s tree and printer).
//!
//! A rendered program starts with its specification as comment lines
//!
//! ```text
//! # @input x -50 50
//! # @cell a 2 -2 2
//! # @reads -1 1
//! ```
//!
//! followed by `assume`s that restrict every input to its range, so that
//! enumerating the ranges on the concrete interpreter decides whether a bug
//! is reachable. Files written by hand use the same header.

use std::fmt::{self, Write};
use std::sync::Arc;
use wiser_num::Int;
use wiser_syntax::ast::{self, ArithOp, CmpOp};
use wiser_syntax::Span;

/// A name.
pub type Name = Arc<str>;

/// Array indices are kept in `-ARRAY_REACH..=ARRAY_REACH`: a constant index
/// in that range is written as is, any other index `e` as
/// `e % (ARRAY_REACH + 1)`, and every element in the range is initialised
/// (or is an input cell of the specification).
pub const ARRAY_REACH: i64 = 3;

/// An arithmetic expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ex {
    /// A literal.
    Num(i64),
    /// A scalar.
    Var(Name),
    /// An array element; see [`ARRAY_REACH`] for the index.
    Elem(Name, Box<Ex>),
    /// `-e`.
    Neg(Box<Ex>),
    /// `l op r`.
    Bin(ArithOp, Box<Ex>, Box<Ex>),
}

/// A condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Co {
    /// `true` or `false`.
    Bool(bool),
    /// A comparison.
    Cmp(CmpOp, Ex, Ex),
    /// `not c`.
    Not(Box<Co>),
    /// `l and r`.
    And(Box<Co>, Box<Co>),
    /// `l or r`.
    Or(Box<Co>, Box<Co>),
}

/// How many times a loop may run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// A constant.
    Const(i64),
    /// A variable that the loop does not assign (an input of the program,
    /// which is never assigned, or a parameter).
    Var(Name),
}

/// A statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum St {
    /// `x = e`.
    Assign(Name, Ex),
    /// `x = *; assume x >= lo and x <= hi` with the specification's range.
    Havoc(Name),
    /// `a[i] = e`.
    Store(Name, Ex, Ex),
    /// `if c then .. else .. fi`.
    If(Co, Vec<St>, Vec<St>),
    /// `i = 0; while i < bound [and c] do body; i = i + 1 od`.
    Loop {
        /// The counter (assigned only by the loop).
        counter: Name,
        /// The bound.
        bound: Bound,
        /// An extra condition.
        cond: Option<Co>,
        /// The body.
        body: Vec<St>,
    },
    /// `assert c`.
    Assert(Co),
    /// `assume c`.
    Assume(Co),
    /// `fail`.
    Fail,
    /// `[x =] f(args)`.
    Call(Option<Name>, Name, Vec<Ex>),
    /// `return e`.
    Return(Ex),
}

/// A procedure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proc {
    /// Its name.
    pub name: Name,
    /// Its parameters.
    pub params: Vec<Name>,
    /// Its body.
    pub body: Vec<St>,
}

/// The inputs of a program and their ranges (inclusive).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Spec {
    /// Input scalars.
    pub inputs: Vec<(Name, i64, i64)>,
    /// Input array elements: array, index, range.
    pub cells: Vec<(Name, i64, i64, i64)>,
    /// The range of every `x = *` read.
    pub reads: (i64, i64),
}

impl Spec {
    /// The number of points in the scalar and cell ranges.
    pub fn points(&self) -> u64 {
        let scalars = self
            .inputs
            .iter()
            .map(|&(_, lo, hi)| (hi - lo + 1).max(0) as u64);
        let cells = self
            .cells
            .iter()
            .map(|&(_, _, lo, hi)| (hi - lo + 1).max(0) as u64);
        scalars.chain(cells).product()
    }

    /// The header lines.
    pub fn header(&self) -> String {
        let mut s = String::new();
        for (name, lo, hi) in &self.inputs {
            let _ = writeln!(s, "# @input {name} {lo} {hi}");
        }
        for (a, i, lo, hi) in &self.cells {
            let _ = writeln!(s, "# @cell {a} {i} {lo} {hi}");
        }
        let _ = writeln!(s, "# @reads {} {}", self.reads.0, self.reads.1);
        s
    }

    /// Reads the header lines of a source text (other lines are ignored).
    pub fn parse(text: &str) -> Result<Spec, String> {
        let mut spec = Spec {
            reads: (0, 0),
            ..Spec::default()
        };
        for (n, line) in text.lines().enumerate() {
            let Some(rest) = line.trim().strip_prefix("# @") else {
                continue;
            };
            let words: Vec<&str> = rest.split_whitespace().collect();
            let int = |s: &str| {
                s.parse::<i64>()
                    .map_err(|_| format!("line {}: `{s}` is not an integer", n + 1))
            };
            match words.as_slice() {
                ["input", name, lo, hi] => spec.inputs.push((Arc::from(*name), int(lo)?, int(hi)?)),
                ["cell", a, i, lo, hi] => {
                    spec.cells
                        .push((Arc::from(*a), int(i)?, int(lo)?, int(hi)?))
                }
                ["reads", lo, hi] => spec.reads = (int(lo)?, int(hi)?),
                _ => return Err(format!("line {}: bad specification line `{line}`", n + 1)),
            }
        }
        Ok(spec)
    }
}

/// A whole generated program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Its inputs.
    pub spec: Spec,
    /// Initial array contents (`array, index, value`), written after the
    /// `assume`s of the specification. They are never shrunk away while
    /// the array is used: an uninitialised element would be an input the
    /// specification does not bound.
    pub array_init: Vec<(Name, i64, i64)>,
    /// Procedures.
    pub procs: Vec<Proc>,
    /// The main statements.
    pub main: Vec<St>,
}

fn ident(name: &str) -> ast::Ident {
    ast::Ident {
        name: Arc::from(name),
        span: Span::default(),
    }
}

fn num(v: i64) -> ast::Expr {
    ast::Expr::Num {
        value: Int::from(v),
        span: Span::default(),
    }
}

fn bin(op: ArithOp, a: ast::Expr, b: ast::Expr) -> ast::Expr {
    ast::Expr::Binary {
        op,
        lhs: Box::new(a),
        rhs: Box::new(b),
        span: Span::default(),
        op_span: Span::default(),
    }
}

fn cmp(op: CmpOp, a: ast::Expr, b: ast::Expr) -> ast::Cond {
    ast::Cond::Cmp {
        op,
        lhs: a,
        rhs: b,
        span: Span::default(),
    }
}

fn and(a: ast::Cond, b: ast::Cond) -> ast::Cond {
    ast::Cond::And {
        lhs: Box::new(a),
        rhs: Box::new(b),
        span: Span::default(),
    }
}

fn assign(name: &str, e: ast::Expr) -> ast::Stmt {
    ast::Stmt::Assign {
        target: ident(name),
        value: e,
        span: Span::default(),
    }
}

fn assume(c: ast::Cond) -> ast::Stmt {
    ast::Stmt::Assume {
        cond: c,
        span: Span::default(),
    }
}

fn in_range(e: ast::Expr, lo: i64, hi: i64) -> ast::Cond {
    and(
        cmp(CmpOp::Ge, e.clone(), num(lo)),
        cmp(CmpOp::Le, e, num(hi)),
    )
}

fn elem(array: &str, index: ast::Expr) -> ast::Expr {
    ast::Expr::Index {
        array: ident(array),
        index: Box::new(index),
        span: Span::default(),
    }
}

fn seq(mut v: Vec<ast::Stmt>) -> ast::Stmt {
    match v.len() {
        0 => ast::Stmt::Skip(Span::default()),
        1 => v.pop().expect("one statement"),
        _ => ast::Stmt::Seq(v),
    }
}

/// The index expression for `i`.
fn index(i: &Ex) -> ast::Expr {
    match i {
        Ex::Num(k) if (-ARRAY_REACH..=ARRAY_REACH).contains(k) => num(*k),
        _ => bin(ArithOp::Rem, expr(i), num(ARRAY_REACH + 1)),
    }
}

/// The syntax tree of an expression.
pub fn expr(e: &Ex) -> ast::Expr {
    match e {
        Ex::Num(v) => num(*v),
        Ex::Var(v) => ast::Expr::Var(ident(v)),
        Ex::Elem(a, i) => elem(a, index(i)),
        Ex::Neg(a) => ast::Expr::Neg {
            operand: Box::new(expr(a)),
            span: Span::default(),
        },
        Ex::Bin(op, a, b) => bin(*op, expr(a), expr(b)),
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
        Co::Or(a, b) => ast::Cond::Or {
            lhs: Box::new(cond(a)),
            rhs: Box::new(cond(b)),
            span: Span::default(),
        },
    }
}

fn block(ss: &[St], reads: (i64, i64)) -> ast::Stmt {
    let mut v = Vec::new();
    for s in ss {
        stmt(s, reads, &mut v);
    }
    seq(v)
}

fn stmt(s: &St, reads: (i64, i64), out: &mut Vec<ast::Stmt>) {
    let sp = Span::default();
    match s {
        St::Assign(v, e) => out.push(assign(v, expr(e))),
        St::Havoc(v) => {
            out.push(ast::Stmt::Havoc {
                target: ident(v),
                span: sp,
            });
            out.push(assume(in_range(ast::Expr::Var(ident(v)), reads.0, reads.1)));
        }
        St::Store(a, i, e) => out.push(ast::Stmt::ArrayAssign {
            array: ident(a),
            index: index(i),
            value: expr(e),
            span: sp,
        }),
        St::If(c, a, b) => out.push(ast::Stmt::If {
            cond: cond(c),
            then_branch: Box::new(block(a, reads)),
            else_branch: Box::new(block(b, reads)),
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
                Bound::Const(k) => num(*k),
                Bound::Var(v) => ast::Expr::Var(ident(v)),
            };
            let mut test = cmp(CmpOp::Lt, ast::Expr::Var(ident(counter)), limit);
            if let Some(c) = c {
                test = and(test, cond(c));
            }
            let mut v = Vec::new();
            for s in body {
                stmt(s, reads, &mut v);
            }
            v.push(assign(
                counter,
                bin(ArithOp::Add, ast::Expr::Var(ident(counter)), num(1)),
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
        let reads = self.spec.reads;
        let mut main = Vec::new();
        for (v, lo, hi) in &self.spec.inputs {
            main.push(assume(in_range(ast::Expr::Var(ident(v)), *lo, *hi)));
        }
        for (a, i, lo, hi) in &self.spec.cells {
            main.push(assume(in_range(elem(a, num(*i)), *lo, *hi)));
        }
        for (a, i, v) in &self.array_init {
            main.push(ast::Stmt::ArrayAssign {
                array: ident(a),
                index: num(*i),
                value: num(*v),
                span: Span::default(),
            });
        }
        for s in &self.main {
            stmt(s, reads, &mut main);
        }
        let procs = self
            .procs
            .iter()
            .map(|p| ast::ProcDef {
                name: ident(&p.name),
                params: p.params.iter().map(|n| ident(n)).collect(),
                body: block(&p.body, reads),
                span: Span::default(),
            })
            .collect();
        ast::Program {
            macros: Vec::new(),
            procs,
            main: seq(main),
        }
    }

    /// The source text: the specification header, then the program.
    pub fn source(&self) -> String {
        format!("{}{}", self.spec.header(), self.to_ast())
    }

    /// Does any statement or expression mention `name` (as a scalar or an
    /// array)?
    pub fn mentions(&self, name: &str) -> bool {
        let mut found = false;
        let mut visit = |n: &Name| found |= &**n == name;
        for p in &self.procs {
            walk_block(&p.body, &mut visit);
        }
        walk_block(&self.main, &mut visit);
        found
    }
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source())
    }
}

/// Calls `f` on every name used in `ss` (variables, arrays, callees).
pub fn walk_block(ss: &[St], f: &mut dyn FnMut(&Name)) {
    for s in ss {
        walk_stmt(s, f);
    }
}

fn walk_stmt(s: &St, f: &mut dyn FnMut(&Name)) {
    match s {
        St::Assign(v, e) => {
            f(v);
            walk_expr(e, f);
        }
        St::Havoc(v) => f(v),
        St::Store(a, i, e) => {
            f(a);
            walk_expr(i, f);
            walk_expr(e, f);
        }
        St::If(c, a, b) => {
            walk_cond(c, f);
            walk_block(a, f);
            walk_block(b, f);
        }
        St::Loop {
            counter,
            bound,
            cond,
            body,
        } => {
            f(counter);
            if let Bound::Var(v) = bound {
                f(v);
            }
            if let Some(c) = cond {
                walk_cond(c, f);
            }
            walk_block(body, f);
        }
        St::Assert(c) | St::Assume(c) => walk_cond(c, f),
        St::Fail => {}
        St::Call(t, g, args) => {
            if let Some(t) = t {
                f(t);
            }
            f(g);
            for a in args {
                walk_expr(a, f);
            }
        }
        St::Return(e) => walk_expr(e, f),
    }
}

fn walk_cond(c: &Co, f: &mut dyn FnMut(&Name)) {
    match c {
        Co::Bool(_) => {}
        Co::Cmp(_, a, b) => {
            walk_expr(a, f);
            walk_expr(b, f);
        }
        Co::Not(a) => walk_cond(a, f),
        Co::And(a, b) | Co::Or(a, b) => {
            walk_cond(a, f);
            walk_cond(b, f);
        }
    }
}

fn walk_expr(e: &Ex, f: &mut dyn FnMut(&Name)) {
    match e {
        Ex::Num(_) => {}
        Ex::Var(v) => f(v),
        Ex::Elem(a, i) => {
            f(a);
            walk_expr(i, f);
        }
        Ex::Neg(a) => walk_expr(a, f),
        Ex::Bin(_, a, b) => {
            walk_expr(a, f);
            walk_expr(b, f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_round_trips() {
        let spec = Spec {
            inputs: vec![("x".into(), -50, 50), ("y".into(), -3, 4)],
            cells: vec![("a".into(), 2, -2, 2)],
            reads: (-1, 1),
        };
        assert_eq!(Spec::parse(&spec.header()).unwrap(), spec);
        assert_eq!(spec.points(), 101 * 8 * 5);
    }

    #[test]
    fn renders_and_compiles() {
        let p = Program {
            spec: Spec {
                inputs: vec![("x".into(), -3, 3)],
                cells: vec![("a".into(), 0, -1, 1)],
                reads: (-1, 1),
            },
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
                            ArithOp::Div,
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
        wiser_semantics::compile(&src).unwrap();
    }
}
