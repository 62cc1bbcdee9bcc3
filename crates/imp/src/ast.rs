//! The syntax tree. Every node carries the [`Span`] of the source text it
//! came from, so that every later error can say where it happened.

use crate::Span;
use std::sync::Arc;
use wiser_num::Int;

/// A name as written in the source, with its location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    /// The name itself.
    pub name: Arc<str>,
    /// Where it was written.
    pub span: Span,
}

/// Binary arithmetic operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArithOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`, truncating toward zero.
    Div,
    /// `%`, with the sign of the dividend.
    Rem,
}

/// Comparison operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

/// An arithmetic expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    /// An integer literal (unbounded).
    Num {
        /// Its value.
        value: Int,
        /// Where it was written.
        span: Span,
    },
    /// A scalar variable.
    Var(Ident),
    /// An array element `a[index]`.
    Index {
        /// The array.
        array: Ident,
        /// The subscript.
        index: Box<Expr>,
        /// The whole expression.
        span: Span,
    },
    /// Unary minus.
    Neg {
        /// The negated expression.
        operand: Box<Expr>,
        /// The whole expression.
        span: Span,
    },
    /// A binary operation.
    Binary {
        /// The operator.
        op: ArithOp,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
        /// The whole expression; for `/` and `%` errors point at `op_span`.
        span: Span,
        /// The operator token.
        op_span: Span,
    },
}

/// A boolean expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cond {
    /// `true` or `false`.
    Bool {
        /// Its value.
        value: bool,
        /// Where it was written.
        span: Span,
    },
    /// `not c`.
    Not {
        /// The negated condition.
        operand: Box<Cond>,
        /// The whole condition.
        span: Span,
    },
    /// `l and r` (short-circuit: `r` is evaluated only when `l` holds).
    And {
        /// Left operand.
        lhs: Box<Cond>,
        /// Right operand.
        rhs: Box<Cond>,
        /// The whole condition.
        span: Span,
    },
    /// `l or r` (short-circuit: `r` is evaluated only when `l` fails).
    Or {
        /// Left operand.
        lhs: Box<Cond>,
        /// Right operand.
        rhs: Box<Cond>,
        /// The whole condition.
        span: Span,
    },
    /// A comparison of two arithmetic expressions.
    Cmp {
        /// The comparison.
        op: CmpOp,
        /// Left operand.
        lhs: Expr,
        /// Right operand.
        rhs: Expr,
        /// The whole condition.
        span: Span,
    },
}

/// A statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stmt {
    /// `skip`
    Skip(Span),
    /// `fail`: reaching it is a bug.
    Fail(Span),
    /// `x = e`
    Assign {
        /// The assigned variable.
        target: Ident,
        /// The assigned value.
        value: Expr,
        /// The whole statement.
        span: Span,
    },
    /// `x = *`: reads a fresh input value.
    Havoc {
        /// The assigned variable.
        target: Ident,
        /// The whole statement.
        span: Span,
    },
    /// `a[i] = e`
    ArrayAssign {
        /// The array.
        array: Ident,
        /// The subscript.
        index: Expr,
        /// The stored value.
        value: Expr,
        /// The whole statement.
        span: Span,
    },
    /// `s1; s2; ...; sn` (never nested directly inside another `Seq`).
    Seq(Vec<Stmt>),
    /// `if c then s1 else s2 fi`
    If {
        /// The condition.
        cond: Cond,
        /// Taken when `cond` holds.
        then_branch: Box<Stmt>,
        /// Taken otherwise.
        else_branch: Box<Stmt>,
        /// The whole statement.
        span: Span,
    },
    /// `while c do s od`
    While {
        /// The loop condition.
        cond: Cond,
        /// The loop body.
        body: Box<Stmt>,
        /// The whole statement.
        span: Span,
    },
    /// `assert c`: `if c then skip else fail fi`.
    Assert {
        /// The asserted condition.
        cond: Cond,
        /// The whole statement.
        span: Span,
    },
    /// `assume c`: paths where `c` is false are discarded.
    Assume {
        /// The assumed condition.
        cond: Cond,
        /// The whole statement.
        span: Span,
    },
    /// `name(args)` or `x = name(args)`. Before checking, `name` may be a
    /// macro or a procedure; after [`crate::check()`] only procedure calls
    /// remain (macros are expanded).
    Call {
        /// Where the result goes (`x = f(...)`), if anywhere.
        target: Option<Ident>,
        /// The called macro or procedure.
        callee: Ident,
        /// The arguments.
        args: Vec<Expr>,
        /// The whole statement.
        span: Span,
    },
    /// `return e`, only inside a procedure.
    Return {
        /// The returned value.
        value: Expr,
        /// The whole statement.
        span: Span,
    },
}

/// `macro name(p1, ..., pk) begin s end`: expanded by substitution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MacroDef {
    /// The macro's name.
    pub name: Ident,
    /// Its parameters.
    pub params: Vec<Ident>,
    /// Its body.
    pub body: Stmt,
    /// The whole definition.
    pub span: Span,
}

/// `proc name(p1, ..., pk) begin s end`: a procedure with call by value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcDef {
    /// The procedure's name.
    pub name: Ident,
    /// Its parameters.
    pub params: Vec<Ident>,
    /// Its body.
    pub body: Stmt,
    /// The whole definition.
    pub span: Span,
}

/// A whole source file: definitions, then the main statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Macro definitions, in source order.
    pub macros: Vec<MacroDef>,
    /// Procedure definitions, in source order.
    pub procs: Vec<ProcDef>,
    /// The main statement.
    pub main: Stmt,
}

impl Expr {
    /// The source span of the whole expression.
    pub fn span(&self) -> Span {
        match self {
            Expr::Num { span, .. }
            | Expr::Index { span, .. }
            | Expr::Neg { span, .. }
            | Expr::Binary { span, .. } => *span,
            Expr::Var(id) => id.span,
        }
    }
}

impl Cond {
    /// The source span of the whole condition.
    pub fn span(&self) -> Span {
        match self {
            Cond::Bool { span, .. }
            | Cond::Not { span, .. }
            | Cond::And { span, .. }
            | Cond::Or { span, .. }
            | Cond::Cmp { span, .. } => *span,
        }
    }
}

impl Stmt {
    /// The source span of the statement (for a sequence, from its first to
    /// its last statement).
    pub fn span(&self) -> Span {
        match self {
            Stmt::Skip(span) | Stmt::Fail(span) => *span,
            Stmt::Assign { span, .. }
            | Stmt::Havoc { span, .. }
            | Stmt::ArrayAssign { span, .. }
            | Stmt::If { span, .. }
            | Stmt::While { span, .. }
            | Stmt::Assert { span, .. }
            | Stmt::Assume { span, .. }
            | Stmt::Call { span, .. }
            | Stmt::Return { span, .. } => *span,
            Stmt::Seq(items) => match (items.first(), items.last()) {
                (Some(a), Some(b)) => a.span().to(b.span()),
                _ => Span::default(),
            },
        }
    }
}
