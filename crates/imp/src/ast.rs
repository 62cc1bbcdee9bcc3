//! The syntax tree. Every node carries the [`Span`] of the source text it
//! came from, so that every later error can say where it happened.
//!
//! Operators, integer and float types are `wiser-num`'s ([`BinOp`],
//! [`UnOp`], [`CmpOp`], [`IntTy`], [`FloatTy`]), re-exported here, so that
//! the tree, the typing rules and the IR name them the same way. [`Ty`] is
//! a type a program can name: one or the other.

use crate::Span;
use std::fmt;
use std::sync::Arc;
pub use wiser_num::{BinOp, CmpOp, FloatTy, Int, IntTy, UnOp};

/// A scalar type of IMP: an integer type (`int`, `i8` ... `u64`) or a
/// float type (`f32`, `f64`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// An integer type.
    Int(IntTy),
    /// An IEEE 754 binary float type.
    Float(FloatTy),
}

impl Ty {
    /// The unbounded `int`, the type of whatever is not declared.
    pub const INT: Ty = Ty::Int(IntTy::INT);

    /// Every type a program can name, integers first.
    pub fn named() -> impl Iterator<Item = Ty> {
        IntTy::NAMED
            .into_iter()
            .map(Ty::Int)
            .chain(FloatTy::ALL.into_iter().map(Ty::Float))
    }

    /// The type named `name` (`int`, `u8`, `f64`, ...).
    pub fn from_name(name: &str) -> Option<Ty> {
        IntTy::from_name(name)
            .map(Ty::Int)
            .or_else(|| FloatTy::from_name(name).map(Ty::Float))
    }

    /// The integer type, if this is one.
    pub fn int(self) -> Option<IntTy> {
        match self {
            Ty::Int(t) => Some(t),
            Ty::Float(_) => None,
        }
    }

    /// The float type, if this is one.
    pub fn float(self) -> Option<FloatTy> {
        match self {
            Ty::Float(t) => Some(t),
            Ty::Int(_) => None,
        }
    }

    /// Is this the unbounded `int`?
    pub fn is_unbounded(self) -> bool {
        self == Ty::INT
    }

    /// Does every value of this type convert to `to` without a cast?
    /// Between integer types, when it is lossless
    /// ([`IntTy::is_lossless_to`]); a float only to its own type (`f32` to
    /// `f64` and integers to floats need a cast).
    pub fn is_lossless_to(self, to: Ty) -> bool {
        match (self, to) {
            (Ty::Int(a), Ty::Int(b)) => a.is_lossless_to(b),
            (a, b) => a == b,
        }
    }
}

impl From<IntTy> for Ty {
    fn from(t: IntTy) -> Ty {
        Ty::Int(t)
    }
}

impl From<FloatTy> for Ty {
    fn from(t: FloatTy) -> Ty {
        Ty::Float(t)
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Int(t) => write!(f, "{t}"),
            Ty::Float(t) => write!(f, "{t}"),
        }
    }
}

/// The name of the object a method runs on, a parameter of every method
/// (a keyword, so no variable can have it).
pub const THIS: &str = "this";

/// A name as written in the source, with its location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    /// The name itself.
    pub name: Arc<str>,
    /// Where it was written.
    pub span: Span,
}

/// How tightly a binary operator binds, loosest first: 1 `|`, 2 `^`,
/// 3 `&`, 4 `<< >>`, 5 `+ -`, 6 `* / %`. All are left-associative.
/// Unary operators bind at [`UNARY_PRECEDENCE`], atoms (names, literals,
/// subscripts, casts, parentheses) tighter still.
pub fn precedence(op: BinOp) -> u8 {
    match op {
        BinOp::BitOr => 1,
        BinOp::BitXor => 2,
        BinOp::BitAnd => 3,
        BinOp::Shl | BinOp::Shr => 4,
        BinOp::Add | BinOp::Sub => 5,
        BinOp::Mul | BinOp::Div | BinOp::Rem => 6,
    }
}

/// The binding strength of unary `-` and `~` (and of negative literals),
/// above every binary operator.
pub const UNARY_PRECEDENCE: u8 = 7;

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
    /// A float literal (`1.5`, `-0.1`, `1e-3`) as written, its minus
    /// included: it is rounded once, to the type its context gives it
    /// ([`FloatTy::parse`]).
    Float {
        /// The decimal text.
        text: Arc<str>,
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
    /// `-e` or `~e`. (A minus directly before a literal is part of the
    /// literal: `-5` is [`Expr::Num`].) The operator is the first
    /// character of `span`.
    Unary {
        /// The operator.
        op: UnOp,
        /// The operand.
        operand: Box<Expr>,
        /// The whole expression.
        span: Span,
    },
    /// A binary operation.
    Binary {
        /// The operator.
        op: BinOp,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
        /// The whole expression; runtime errors of the operation point at
        /// `op_span`.
        span: Span,
        /// The operator token.
        op_span: Span,
    },
    /// `null`: the reference to no object.
    Null(Span),
    /// A field `obj.field` of the object `obj` refers to (`obj` is a
    /// name, `this` or another field access). `this` itself is
    /// [`Expr::Var`] with the name `this`, which no variable can have.
    Field {
        /// The reference.
        obj: Box<Expr>,
        /// The field's name.
        field: Ident,
        /// The whole expression.
        span: Span,
    },
    /// A conversion `T(e)` to another type: between integers wrapping, as
    /// C's; to and from floats rounding to nearest or truncating.
    Cast {
        /// The type converted to.
        ty: Ty,
        /// The converted expression.
        operand: Box<Expr>,
        /// The whole expression, from the type name to the `)`.
        span: Span,
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

/// How a declaration initialises its variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Init {
    /// `= e`
    Value(Expr),
    /// `= *`: a fresh input value, as `x = *`.
    Havoc,
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
    /// macro or a procedure; after [`crate::analyse()`] only procedure calls
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
    /// `var x: T`, `var x: T = e` or `var x: T = *` (also written
    /// `x: T = e` and `x: T = *`): gives `x` the type `T` in its whole
    /// routine, and assigns it if there is an initialiser.
    Decl {
        /// The declared variable.
        target: Ident,
        /// Its type.
        ty: Ty,
        /// Its initialiser, if any.
        init: Option<Init>,
        /// The whole statement.
        span: Span,
    },
    /// `var a: T[]`: the elements of the (global) array `a` have type `T`.
    ArrayDecl {
        /// The declared array.
        array: Ident,
        /// The type of its elements.
        elem: Ty,
        /// The whole statement.
        span: Span,
    },
    /// `var x: C` or `var x: C = e`: `x` is a reference to objects of
    /// class `C` in its whole routine.
    RefDecl {
        /// The declared variable.
        target: Ident,
        /// Its class.
        class: Ident,
        /// Its initial value, if any (a reference).
        init: Option<Expr>,
        /// The whole statement.
        span: Span,
    },
    /// `x = new C`: a fresh object, every field 0 (`null`).
    New {
        /// Where the reference goes.
        target: Ident,
        /// The class.
        class: Ident,
        /// The whole statement.
        span: Span,
    },
    /// `obj.field = value`.
    FieldAssign {
        /// The object (a reference expression).
        obj: Expr,
        /// The field.
        field: Ident,
        /// The stored value.
        value: Expr,
        /// The whole statement.
        span: Span,
    },
    /// `recv.m(args)` or `x = recv.m(args)`: a call of method `m` of the
    /// class of `recv`, with `this` bound to `recv`.
    MethodCall {
        /// Where the result goes, if anywhere.
        target: Option<Ident>,
        /// The receiver (a reference expression).
        receiver: Expr,
        /// The method.
        method: Ident,
        /// The arguments.
        args: Vec<Expr>,
        /// The whole statement.
        span: Span,
    },
    /// `spawn p(args)`, `spawn recv.m(args)`, or with `t = ` in front:
    /// starts a thread running the call; `t` receives its id.
    Spawn {
        /// Where the thread id goes, if anywhere.
        target: Option<Ident>,
        /// The receiver, for a method.
        receiver: Option<Expr>,
        /// The procedure or method.
        callee: Ident,
        /// The arguments.
        args: Vec<Expr>,
        /// The whole statement.
        span: Span,
    },
    /// `join e`: waits until the thread whose id is `e` has finished.
    Join {
        /// The thread id.
        thread: Expr,
        /// The whole statement.
        span: Span,
    },
    /// `lock e` (`acquire`) or `unlock e`, on the object `e` refers to.
    Lock {
        /// The object.
        obj: Expr,
        /// `lock` rather than `unlock`?
        acquire: bool,
        /// The whole statement.
        span: Span,
    },
    /// `atomic begin s end`: no other thread runs while `s` does (unless
    /// it blocks).
    Atomic {
        /// The body.
        body: Box<Stmt>,
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

/// A parameter of a procedure, `p`, `p: T` or `p: C` (a reference).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// Its name.
    pub name: Ident,
    /// Its type (`int` when not written, and for a reference).
    pub ty: Ty,
    /// The class it refers to, for a reference.
    pub class: Option<Ident>,
}

/// `proc name(p1: T1, ..., pk: Tk) : T begin s end`: a procedure with call
/// by value. Omitted types are `int`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcDef {
    /// The procedure's name.
    pub name: Ident,
    /// Its parameters.
    pub params: Vec<Param>,
    /// The type of the value it returns.
    pub ret: Ty,
    /// The class of the reference it returns, if it returns one.
    pub ret_class: Option<Ident>,
    /// Its body.
    pub body: Stmt,
    /// The whole definition.
    pub span: Span,
}

/// A field of a class, `name: T` or `name: C`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldDef {
    /// Its name.
    pub name: Ident,
    /// Its type (`int` for a reference).
    pub ty: IntTy,
    /// The class it refers to, for a reference.
    pub class: Option<Ident>,
}

/// `class C begin fields and methods end`. A method is a procedure whose
/// name is its own and whose first parameter, `this`, is implicit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassDef {
    /// The class's name.
    pub name: Ident,
    /// Its fields, in order.
    pub fields: Vec<FieldDef>,
    /// Its methods (without the `this` parameter).
    pub methods: Vec<ProcDef>,
    /// The whole definition.
    pub span: Span,
}

/// `global g: T`, `global g: T = v` or `global g: C`: a variable shared
/// by every routine and thread. Without a value it is an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalDef {
    /// Its name.
    pub name: Ident,
    /// Its type (`int` for a reference).
    pub ty: IntTy,
    /// The class it refers to, for a reference.
    pub class: Option<Ident>,
    /// Its initial value (a literal, or `null`); `None` for an input.
    pub init: Option<Expr>,
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
    /// Class definitions, in source order.
    pub classes: Vec<ClassDef>,
    /// Global variables, in source order.
    pub globals: Vec<GlobalDef>,
    /// The main statement.
    pub main: Stmt,
}

impl Expr {
    /// The source span of the whole expression.
    pub fn span(&self) -> Span {
        match self {
            Expr::Num { span, .. }
            | Expr::Float { span, .. }
            | Expr::Index { span, .. }
            | Expr::Unary { span, .. }
            | Expr::Binary { span, .. }
            | Expr::Cast { span, .. }
            | Expr::Field { span, .. } => *span,
            Expr::Var(id) => id.span,
            Expr::Null(span) => *span,
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

/// The parts of a call statement of any kind (a procedure call, a method
/// call or a spawn): see [`Stmt::as_call`].
#[derive(Clone, Copy, Debug)]
pub struct CallParts<'s> {
    /// Where the result (or the thread id) goes, if anywhere.
    pub target: Option<&'s Ident>,
    /// The receiver, for a method.
    pub receiver: Option<&'s Expr>,
    /// The procedure or method.
    pub callee: &'s Ident,
    /// The arguments.
    pub args: &'s [Expr],
    /// Does it start a thread (`spawn`) rather than call?
    pub spawn: bool,
    /// The whole statement.
    pub span: Span,
}

impl Stmt {
    /// The parts of a call, a method call or a spawn; `None` for other
    /// statements.
    pub fn as_call(&self) -> Option<CallParts<'_>> {
        let (target, receiver, callee, args, spawn, span) = match self {
            Stmt::Call {
                target,
                callee,
                args,
                span,
            } => (target, None, callee, args, false, span),
            Stmt::MethodCall {
                target,
                receiver,
                method,
                args,
                span,
            } => (target, Some(receiver), method, args, false, span),
            Stmt::Spawn {
                target,
                receiver,
                callee,
                args,
                span,
            } => (target, receiver.as_ref(), callee, args, true, span),
            _ => return None,
        };
        Some(CallParts {
            target: target.as_ref(),
            receiver,
            callee,
            args,
            spawn,
            span: *span,
        })
    }

    /// The variable this statement gives a value to, if any: the target of
    /// an assignment, a havoc, a declaration (of a scalar or a reference),
    /// a `new`, or a call or spawn with a target. Array elements and fields
    /// are not variables.
    pub fn assigned_var(&self) -> Option<&Ident> {
        match self {
            Stmt::Assign { target, .. }
            | Stmt::Havoc { target, .. }
            | Stmt::Decl { target, .. }
            | Stmt::RefDecl { target, .. }
            | Stmt::New { target, .. } => Some(target),
            Stmt::Call { target, .. }
            | Stmt::MethodCall { target, .. }
            | Stmt::Spawn { target, .. } => target.as_ref(),
            _ => None,
        }
    }

    /// The variable this statement assigns the value of an expression
    /// to, and that expression: an assignment, or a declaration (of a
    /// scalar or a reference) with an initial value.
    pub fn assigned_value(&self) -> Option<(&Ident, &Expr)> {
        match self {
            Stmt::Assign { target, value, .. }
            | Stmt::Decl {
                target,
                init: Some(Init::Value(value)),
                ..
            }
            | Stmt::RefDecl {
                target,
                init: Some(value),
                ..
            } => Some((target, value)),
            _ => None,
        }
    }

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
            | Stmt::Return { span, .. }
            | Stmt::Decl { span, .. }
            | Stmt::ArrayDecl { span, .. }
            | Stmt::RefDecl { span, .. }
            | Stmt::New { span, .. }
            | Stmt::FieldAssign { span, .. }
            | Stmt::MethodCall { span, .. }
            | Stmt::Spawn { span, .. }
            | Stmt::Join { span, .. }
            | Stmt::Lock { span, .. }
            | Stmt::Atomic { span, .. } => *span,
            Stmt::Seq(items) => match (items.first(), items.last()) {
                (Some(a), Some(b)) => a.span().to(b.span()),
                _ => Span::default(),
            },
        }
    }
}
