//! The typing of expressions: which type each operation has, where the
//! implicit (lossless) conversions go, and which type each literal takes.
//! [`crate::types`] runs it to check a program; [`crate::lower()`] runs it
//! again to build the IR from its result, so the rules live in one place.
//!
//! Typing is bottom-up with one twist: a literal has no type of its own.
//! An expression made only of literals and operators on them is *open*
//! (its [`TExpr::ty`] is `None`) until its context closes it with a type
//! ([`Scope::close`]): the other operand of a binary operator or
//! comparison, or the target of an assignment, argument, return or store.
//! Closing walks only the open nodes, each once, so typing is linear.

use crate::ast::{BinOp, Expr, FloatTy, IntTy, Ty, UnOp};
use crate::classes::Classes;
use crate::{Diagnostic, Span};
use std::collections::HashMap;
use std::sync::Arc;
use wiser_num::Int;

type R<T> = Result<T, Diagnostic>;

/// The two operands of a binary operator, typed.
type Operands<'a> = (TExpr<'a>, TExpr<'a>);

/// A typed expression: the syntax it came from, its type (`None` while
/// open), and the operation.
#[derive(Debug)]
pub(crate) struct TExpr<'a> {
    pub(crate) ty: Option<Ty>,
    /// Whether it is a reference (whose `ty` is then `int`).
    pub(crate) refers: Refers,
    pub(crate) kind: TKind<'a>,
    /// The source expression, for spans and messages.
    pub(crate) src: &'a Expr,
}

/// What an expression refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refers {
    /// Nothing: it is an integer.
    No,
    /// Objects of this class.
    Class(usize),
    /// `null`, which every reference may be.
    Null,
}

/// The type of a variable, parameter, field or result: an integer or
/// float type, or a reference to a class (whose type is `int`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct VTy {
    pub(crate) ty: Ty,
    pub(crate) class: Option<usize>,
}

impl VTy {
    pub(crate) fn of(ty: Ty) -> VTy {
        VTy { ty, class: None }
    }
}

/// The operations of [`TExpr`]. Both operands of a binary operator have
/// its type, except the amount of a shift, which keeps its own.
#[derive(Debug)]
pub(crate) enum TKind<'a> {
    /// A literal (a minus on a literal folded in, as `-5` is one literal).
    /// At a float type, the integer rounded to nearest.
    Lit(Int),
    /// A float literal's text (its minus included), rounded once to the
    /// node's type, which is a float type.
    FloatLit(&'a str),
    Var(&'a Arc<str>),
    /// An element; the subscript is converted to `int`.
    Index(&'a Arc<str>, Box<TExpr<'a>>),
    Unary(UnOp, Box<TExpr<'a>>),
    Binary(BinOp, Box<TExpr<'a>>, Box<TExpr<'a>>),
    /// A conversion to the node's type: a cast, or an implicit lossless
    /// conversion.
    Convert(Box<TExpr<'a>>),
    /// `null`.
    Null,
    /// Field `.1` (class) `.2` (index) of the object the operand refers to.
    Field(Box<TExpr<'a>>, usize, usize),
}

impl TExpr<'_> {
    /// The span runtime checks of this operation point at: the operator.
    pub(crate) fn op_span(&self) -> Span {
        match self.src {
            Expr::Binary { op_span, .. } => *op_span,
            // Unary operators are one character, at the start.
            other => {
                let s = other.span();
                Span {
                    hi: s.hi.min(s.lo.saturating_add(1)),
                    ..s
                }
            }
        }
    }
}

/// Where a value goes, for the message when it does not fit.
#[derive(Clone, Copy)]
pub(crate) enum Target<'a> {
    /// Assigned to a variable.
    Assign,
    /// Passed as `param` of `proc`.
    Arg { proc: &'a str, param: &'a str },
    /// Returned.
    Return,
    /// Stored in an array.
    Store,
}

/// Why an open expression is closed at a type.
#[derive(Clone, Copy, PartialEq, Eq)]
enum How {
    /// Its context expects the type.
    Expected,
    /// Nothing gives it a type, so it is `int`.
    Default,
}

/// "a `u8`", "an `i32`", "an `int`", "an `f64`": a type with its article.
pub(crate) fn a(ty: Ty) -> String {
    let article = match ty {
        Ty::Int(t) if t.is_signed() => "an",
        Ty::Int(_) => "a",
        Ty::Float(_) => "an",
    };
    format!("{article} `{ty}`")
}

/// `e` as source, shortened for a message.
fn show(e: &Expr) -> String {
    let text = e.to_string();
    if text.len() <= 40 && !text.contains('\n') {
        text
    } else {
        "...".into()
    }
}

/// The types of the names an expression may use.
pub(crate) struct Scope<'a> {
    /// The routine's scalars; a name not in it is `int`.
    pub(crate) vars: &'a HashMap<Arc<str>, Ty>,
    /// The element types of arrays; an array not in it has `int` elements.
    pub(crate) arrays: &'a HashMap<Arc<str>, Ty>,
    /// The routine's references (globals included), and their classes.
    pub(crate) refs: &'a HashMap<Arc<str>, usize>,
    /// The program's classes.
    pub(crate) classes: &'a Classes,
}

impl<'a> Scope<'a> {
    pub(crate) fn var(&self, name: &str) -> Ty {
        self.vars.get(name).copied().unwrap_or(Ty::INT)
    }

    /// The type of a variable, reference or not.
    pub(crate) fn var_ty(&self, name: &str) -> VTy {
        VTy {
            ty: self.var(name),
            class: self.refs.get(name).copied(),
        }
    }

    /// `e` as a value of type `to`, a reference or an integer.
    pub(crate) fn value_of(&self, e: &'a Expr, to: VTy, target: Target) -> R<TExpr<'a>> {
        match to.class {
            None => self.value(e, to.ty, target),
            Some(c) => {
                let t = self.expr(e)?;
                match t.refers {
                    Refers::Null => Ok(t),
                    Refers::Class(d) if d == c => Ok(t),
                    other => Err(self.not_a(c, other, &t, target)),
                }
            }
        }
    }

    /// The name of class `c`.
    pub(crate) fn class_name(&self, c: usize) -> &str {
        self.classes.names.get(c).map_or("?", |n| &**n)
    }

    /// The error for a value that should refer to class `c` but `got`.
    fn not_a(&self, c: usize, got: Refers, t: &TExpr, target: Target) -> Diagnostic {
        let want = self.class_name(c);
        let what = match got {
            Refers::Class(d) => format!("a reference to `{}`", self.class_name(d)),
            _ => "an integer".to_string(),
        };
        let place = match target {
            Target::Assign => "assign".to_string(),
            Target::Arg { proc, param } => format!("pass as parameter `{param}` of `{proc}`"),
            Target::Return => "return".to_string(),
            Target::Store => "store".to_string(),
        };
        let help = match (got, &t.kind) {
            (Refers::No, TKind::Lit(v)) if v.is_zero() => "write `null` for no object".to_string(),
            _ => format!(
                "a reference to `{want}` comes from `new {want}`, `null`, or another reference \
                 to `{want}`"
            ),
        };
        Diagnostic::new(
            t.src.span(),
            format!("expected a reference to `{want}`, found {what} (to {place})"),
        )
        .with_help(help)
    }

    /// Rejects a reference where an integer is needed.
    pub(crate) fn integer(&self, t: &TExpr<'a>) -> R<()> {
        let what = match t.refers {
            Refers::No => return Ok(()),
            Refers::Null => "`null` is a reference".to_string(),
            Refers::Class(c) => format!(
                "`{}` is a reference to `{}`",
                show(t.src),
                self.class_name(c)
            ),
        };
        Err(
            Diagnostic::new(t.src.span(), format!("{what}, not an integer")).with_help(
                "references can only be compared with `==` and `!=`, dereferenced with `.field`, \
             and assigned",
            ),
        )
    }

    /// The class the reference `t` refers to (for `what`, a field access
    /// or a call on it).
    pub(crate) fn reference(&self, t: &TExpr<'a>, what: &str) -> R<usize> {
        match t.refers {
            Refers::Class(c) => Ok(c),
            Refers::Null => Err(Diagnostic::new(t.src.span(), format!("{what} on `null`"))
                .with_help("`null` refers to no object")),
            Refers::No => {
                let help = match t.src {
                    Expr::Var(v) => format!(
                        "declare `{0}` as a reference, e.g. `var {0}: C` for a class `C`",
                        v.name
                    ),
                    _ => "only references to objects have fields and methods".to_string(),
                };
                Err(Diagnostic::new(
                    t.src.span(),
                    format!(
                        "{what} on `{}`, which is an integer, not a reference",
                        show(t.src)
                    ),
                )
                .with_help(help))
            }
        }
    }

    pub(crate) fn elem(&self, array: &str) -> Ty {
        self.arrays.get(array).copied().unwrap_or(Ty::INT)
    }

    /// `e` as a value of type `to` (converted if it converts losslessly).
    pub(crate) fn value(&self, e: &'a Expr, to: Ty, target: Target) -> R<TExpr<'a>> {
        let t = self.expr(e)?;
        self.integer(&t)?;
        self.coerce(t, to, target)
    }

    /// `e` as a subscript (or a thread id): any integer type, converted to
    /// `int`.
    pub(crate) fn index(&self, e: &'a Expr) -> R<TExpr<'a>> {
        let t = self.expr(e)?;
        self.integer(&t)?;
        let t = match t.ty {
            None => self.close_default(t)?,
            Some(_) => t,
        };
        if let Some(Ty::Float(f)) = t.ty {
            return Err(Diagnostic::new(
                t.src.span(),
                format!("a subscript must be an integer, not an `{f}`"),
            )
            .with_help(format!(
                "convert it with a cast, e.g. `int({})` (truncating toward zero)",
                show(t.src)
            )));
        }
        Ok(convert(t, Ty::INT))
    }

    /// The operands of the comparison `lhs op rhs` (the whole is `at`),
    /// at their common type.
    pub(crate) fn cmp(
        &self,
        symbol: &str,
        lhs: &'a Expr,
        rhs: &'a Expr,
        at: Span,
    ) -> R<Operands<'a>> {
        let (a, b) = (self.expr(lhs)?, self.expr(rhs)?);
        if a.refers != Refers::No || b.refers != Refers::No {
            return self.ref_cmp(symbol, a, b, at);
        }
        let (a, b) = self.unify(symbol, a, b, at)?;
        if a.ty.is_some() {
            return Ok((a, b));
        }
        // Both open: `int`, or `f64` if either has a float literal.
        let ty = if has_float_literal(&a) || has_float_literal(&b) {
            Ty::Float(FloatTy::F64)
        } else {
            Ty::INT
        };
        Ok((
            self.close(a, ty, How::Default)?,
            self.close(b, ty, How::Default)?,
        ))
    }

    /// A comparison of references: `==` or `!=`, of the same class (or
    /// `null`).
    fn ref_cmp(&self, symbol: &str, a: TExpr<'a>, b: TExpr<'a>, at: Span) -> R<Operands<'a>> {
        if a.refers == Refers::No || b.refers == Refers::No {
            let int = if a.refers == Refers::No { &a } else { &b };
            let help = match &int.kind {
                TKind::Lit(v) if v.is_zero() => "write `null` for no object",
                _ => "a reference can only be compared with a reference or `null`",
            };
            return Err(Diagnostic::new(
                at,
                format!("cannot compare a reference with an integer in `{symbol}`"),
            )
            .with_help(help));
        }
        if symbol != "==" && symbol != "!=" {
            return Err(Diagnostic::new(
                at,
                format!("references cannot be compared with `{symbol}`"),
            )
            .with_help("references are equal or not: use `==` or `!=`"));
        }
        if let (Refers::Class(c), Refers::Class(d)) = (a.refers, b.refers) {
            if c != d {
                return Err(Diagnostic::new(
                    at,
                    format!(
                        "cannot compare a reference to `{}` with a reference to `{}`",
                        self.class_name(c),
                        self.class_name(d)
                    ),
                )
                .with_help("objects of different classes are never the same object"));
            }
        }
        Ok((a, b))
    }

    /// Checks that the result of `callee`, of type `ret`, can be stored in
    /// `target` (`at` is the call).
    pub(crate) fn call_result(&self, ret: Ty, target: &str, callee: &str, at: Span) -> R<()> {
        let to = self.var(target);
        if ret.is_lossless_to(to) {
            return Ok(());
        }
        Err(Diagnostic::new(
            at,
            format!("cannot assign {} to `{to}` without a cast", a(ret)),
        )
        .with_help(format!(
            "`{callee}` returns {}: store the result in a variable of that type first, then \
             convert it, e.g. `{target} = {to}(t)`",
            a(ret)
        )))
    }

    /// The type of `e`, bottom-up; open if it is made of literals.
    pub(crate) fn expr(&self, e: &'a Expr) -> R<TExpr<'a>> {
        let node = |ty, kind| TExpr {
            ty,
            refers: Refers::No,
            kind,
            src: e,
        };
        Ok(match e {
            Expr::Num { value, .. } => node(None, TKind::Lit(value.clone())),
            Expr::Float { text, .. } => node(None, TKind::FloatLit(text)),
            Expr::Var(id) => {
                let mut t = node(Some(self.var(&id.name)), TKind::Var(&id.name));
                if let Some(&c) = self.refs.get(&id.name) {
                    t.refers = Refers::Class(c);
                }
                t
            }
            Expr::Null(_) => TExpr {
                ty: Some(Ty::INT),
                refers: Refers::Null,
                kind: TKind::Null,
                src: e,
            },
            Expr::Field { obj, field, .. } => {
                let o = self.expr(obj)?;
                let c = self.reference(&o, "field access")?;
                let Some((i, f)) = self.classes.field(c, &field.name) else {
                    return Err(self.classes.no_member(c, field, "field"));
                };
                let refers = f.class.map_or(Refers::No, Refers::Class);
                let ty = Ty::Int(if f.class.is_some() { IntTy::INT } else { f.ty });
                TExpr {
                    ty: Some(ty),
                    refers,
                    kind: TKind::Field(Box::new(o), c, i),
                    src: e,
                }
            }
            Expr::Index { array, index, .. } => {
                let index = self.index(index)?;
                let elem = self.elem(&array.name);
                node(Some(elem), TKind::Index(&array.name, Box::new(index)))
            }
            Expr::Unary { op, operand, .. } => {
                if let (UnOp::Neg, Expr::Num { value, .. }) = (op, &**operand) {
                    // `-(5)` is the literal -5, as `-5` is.
                    return Ok(node(None, TKind::Lit(value.neg())));
                }
                let o = self.expr(operand)?;
                self.integer(&o)?;
                if let Some(t) = o.ty {
                    if *op == UnOp::BitNot && t.is_unbounded() {
                        return Err(bitwise_on_int(operand));
                    }
                    if let (UnOp::BitNot, Ty::Float(f)) = (op, t) {
                        return Err(not_on_float("~", f, e.span(), operand));
                    }
                }
                node(o.ty, TKind::Unary(*op, Box::new(o)))
            }
            Expr::Cast { ty, operand, .. } => {
                // Literals inside a cast are typed as if nothing gave them
                // a type: an `int` (`u8(300)` is 44, `f64(7 / 2)` is 3.0,
                // as in C), or an `f64` with a float literal among them.
                // A lone literal inside a cast to a float type has that
                // type, so that `f32(0.1)` rounds 0.1 once.
                let mut o = self.expr(operand)?;
                self.integer(&o)?;
                if o.ty.is_none() {
                    let lone = matches!(o.kind, TKind::Lit(_) | TKind::FloatLit(_));
                    o = match ty {
                        Ty::Float(_) if lone => self.close(o, *ty, How::Expected)?,
                        _ => self.close_default(o)?,
                    };
                }
                node(Some(*ty), TKind::Convert(Box::new(o)))
            }
            Expr::Binary {
                op,
                lhs,
                rhs,
                op_span,
                ..
            } => {
                let (a, b) = (self.expr(lhs)?, self.expr(rhs)?);
                self.integer(&a)?;
                self.integer(&b)?;
                if matches!(op, BinOp::Shl | BinOp::Shr) {
                    // The amount keeps its own type; the IR checks it in
                    // that type.
                    let b = match b.ty {
                        None => self.close_default(b)?,
                        Some(_) => b,
                    };
                    if a.ty.is_some_and(|t| t.is_unbounded()) {
                        return Err(bitwise_on_int(lhs));
                    }
                    for (t, o) in [(&a, lhs), (&b, rhs)] {
                        if let Some(Ty::Float(f)) = t.ty {
                            return Err(not_on_float(op.symbol(), f, *op_span, o));
                        }
                    }
                    return Ok(node(a.ty, TKind::Binary(*op, Box::new(a), Box::new(b))));
                }
                let lhs_is_int = a.ty == Some(Ty::INT);
                let (a, b) = self.unify(op.symbol(), a, b, *op_span)?;
                if op.is_bitwise() && a.ty.is_some_and(|t| t.is_unbounded()) {
                    return Err(bitwise_on_int(if lhs_is_int { lhs } else { rhs }));
                }
                if let Some(Ty::Float(f)) = a.ty {
                    if op.is_bitwise() || *op == BinOp::Rem {
                        let o = if matches!(a.kind, TKind::FloatLit(_) | TKind::Lit(_)) {
                            rhs
                        } else {
                            lhs
                        };
                        return Err(not_on_float(op.symbol(), f, *op_span, o));
                    }
                }
                node(a.ty, TKind::Binary(*op, Box::new(a), Box::new(b)))
            }
        })
    }

    /// Brings the operands of `symbol` to one type: an open one takes the
    /// other's type, and of two types the narrower is converted to the
    /// wider when that is lossless.
    fn unify(&self, symbol: &str, a: TExpr<'a>, b: TExpr<'a>, at: Span) -> R<Operands<'a>> {
        Ok(match (a.ty, b.ty) {
            (None, None) => (a, b),
            (Some(t), None) => (a, self.close(b, t, How::Expected)?),
            (None, Some(t)) => (self.close(a, t, How::Expected)?, b),
            (Some(s), Some(t)) if s == t => (a, b),
            (Some(s), Some(t)) if s.is_lossless_to(t) => (convert(a, t), b),
            (Some(s), Some(t)) if t.is_lossless_to(s) => (a, convert(b, s)),
            (Some(s), Some(t)) => {
                return Err(Diagnostic::new(
                    at,
                    format!("mismatched types `{s}` and `{t}` in `{symbol}`"),
                )
                .with_help(format!(
                    "convert one operand with a cast, e.g. `{t}({})`",
                    show(a.src)
                )))
            }
        })
    }

    /// `t` as a value of type `to`.
    fn coerce(&self, t: TExpr<'a>, to: Ty, target: Target) -> R<TExpr<'a>> {
        match t.ty {
            None => self.close(t, to, How::Expected),
            Some(from) if from.is_lossless_to(to) => Ok(convert(t, to)),
            Some(from) => {
                let from_a = a(from);
                let message = match target {
                    Target::Assign => format!("cannot assign {from_a} to `{to}` without a cast"),
                    Target::Arg { proc, param } => format!(
                        "cannot pass {from_a} as parameter `{param}: {to}` of `{proc}` without a \
                         cast"
                    ),
                    Target::Return => {
                        format!("cannot return {from_a} as {} without a cast", a(to))
                    }
                    Target::Store => {
                        format!("cannot store {from_a} in an array of `{to}` without a cast")
                    }
                };
                Err(Diagnostic::new(t.src.span(), message).with_help(format!(
                    "convert it with a cast, e.g. `{to}({})`",
                    show(t.src)
                )))
            }
        }
    }

    /// Gives the open expression `t` the type `ty`: its literals must fit
    /// it, and bitwise operators need it fixed-width. A typed `t` is left
    /// as it is.
    fn close(&self, mut t: TExpr<'a>, ty: Ty, how: How) -> R<TExpr<'a>> {
        if t.ty.is_some() {
            return Ok(t);
        }
        t.ty = Some(ty);
        let (at, op_span) = (t.src.span(), t.op_span());
        match (&mut t.kind, ty) {
            (TKind::Lit(v), Ty::Int(i)) => {
                if !i.contains(v) {
                    return Err(does_not_fit(v, i, at));
                }
            }
            // An integer literal at a float type is rounded when lowered.
            (TKind::Lit(_), Ty::Float(_)) => {}
            (TKind::FloatLit(text), Ty::Int(i)) => return Err(float_literal_as_int(text, i, at)),
            (TKind::FloatLit(text), Ty::Float(f)) => {
                let finite = f
                    .parse(text)
                    .is_some_and(|bits| f.to_f64(&bits).is_finite());
                if !finite {
                    return Err(Diagnostic::new(at, format!("`{text}` does not fit `{f}`"))
                        .with_help(format!(
                            "it rounds to infinity; `{f}`'s largest finite value is about {}",
                            if f == FloatTy::F32 {
                                "3.4e38"
                            } else {
                                "1.8e308"
                            }
                        )));
                }
            }
            (TKind::Unary(op, o), _) => {
                if *op == UnOp::BitNot {
                    match ty {
                        Ty::Float(f) => return Err(not_on_float("~", f, at, o.src)),
                        _ if ty.is_unbounded() => return Err(open_bitwise(o.src, how)),
                        _ => {}
                    }
                }
                take_close(self, o, ty, how)?;
            }
            (TKind::Binary(op, a, b), _) => {
                if let (true, Ty::Float(f)) = (op.is_bitwise() || *op == BinOp::Rem, ty) {
                    return Err(not_on_float(op.symbol(), f, op_span, a.src));
                }
                if op.is_bitwise() && ty.is_unbounded() {
                    return Err(open_bitwise(a.src, how));
                }
                take_close(self, a, ty, how)?;
                if !matches!(op, BinOp::Shl | BinOp::Shr) {
                    take_close(self, b, ty, how)?;
                }
            }
            // These always have a type.
            (
                TKind::Var(_)
                | TKind::Index(..)
                | TKind::Convert(_)
                | TKind::Null
                | TKind::Field(..),
                _,
            ) => {}
        }
        Ok(t)
    }

    /// Closes the open `t` at the type nothing else gives it: `int`, or
    /// `f64` if it has a float literal (`1 + 0.5`).
    fn close_default(&self, t: TExpr<'a>) -> R<TExpr<'a>> {
        let ty = if has_float_literal(&t) {
            Ty::Float(FloatTy::F64)
        } else {
            Ty::INT
        };
        self.close(t, ty, How::Default)
    }
}

/// Does the open part of `t` have a float literal?
fn has_float_literal(t: &TExpr) -> bool {
    if t.ty.is_some() {
        return false;
    }
    match &t.kind {
        TKind::FloatLit(_) => true,
        TKind::Unary(_, o) => has_float_literal(o),
        TKind::Binary(_, a, b) => has_float_literal(a) || has_float_literal(b),
        _ => false,
    }
}

/// Closes the boxed operand `o` in place.
fn take_close<'a>(s: &Scope<'a>, o: &mut Box<TExpr<'a>>, ty: Ty, how: How) -> R<()> {
    let placeholder = TExpr {
        ty: Some(ty),
        refers: Refers::No,
        kind: TKind::Lit(Int::ZERO),
        src: o.src,
    };
    let inner = std::mem::replace(&mut **o, placeholder);
    **o = s.close(inner, ty, how)?;
    Ok(())
}

/// `t` converted to `to` (nothing if it already has that type).
fn convert(t: TExpr<'_>, to: Ty) -> TExpr<'_> {
    if t.ty == Some(to) {
        return t;
    }
    let src = t.src;
    TExpr {
        ty: Some(to),
        refers: Refers::No,
        kind: TKind::Convert(Box::new(t)),
        src,
    }
}

/// A float literal where an integer of type `ty` is expected.
fn float_literal_as_int(text: &str, ty: IntTy, at: Span) -> Diagnostic {
    Diagnostic::new(
        at,
        format!("expected an integer of type `{ty}`, found the float literal `{text}`"),
    )
    .with_help(format!(
        "write an integer, or convert with a cast (truncating toward zero): `{ty}({text})`"
    ))
}

/// The operator `symbol` (`%`, `~`, a bitwise or shift operator), which
/// floats do not have, applied to the float `operand` of type `ty`.
fn not_on_float(symbol: &str, ty: FloatTy, at: Span, operand: &Expr) -> Diagnostic {
    Diagnostic::new(
        at,
        format!("`{symbol}` cannot be applied to floats (`{ty}`)"),
    )
    .with_help(format!(
        "floats have `+ - * /`, unary `-` and comparisons; `{symbol}` needs integers, e.g. \
             `i64({})`",
        show(operand)
    ))
}

fn does_not_fit(v: &Int, ty: IntTy, at: Span) -> Diagnostic {
    let range = match (ty.min(), ty.max()) {
        (Some(lo), Some(hi)) => format!("`{ty}` holds {lo} to {hi}"),
        _ => format!("`{ty}` is unbounded"),
    };
    Diagnostic::new(at, format!("`{v}` does not fit `{ty}`"))
        .with_help(format!("{range}; to wrap the value, cast it: `{ty}({v})`"))
}

/// A bitwise operator (`& | ^ ~ << >>`) on an `int` operand.
fn bitwise_on_int(operand: &Expr) -> Diagnostic {
    let text = show(operand);
    let help = match operand {
        Expr::Var(id) => format!(
            "declare `{0}` with a fixed-width type, e.g. `var {0}: u32`, or convert it with a \
             cast, e.g. `u32({0})`",
            id.name
        ),
        _ => format!("convert it with a cast, e.g. `u32({text})`"),
    };
    Diagnostic::new(
        operand.span(),
        format!("bitwise operators need fixed-width operands; `{text}` is `int`"),
    )
    .with_help(help)
}

/// A bitwise operator on literals closed at `int`: by its context, or
/// because nothing gave them a type.
fn open_bitwise(operand: &Expr, how: How) -> Diagnostic {
    if how == How::Expected {
        return bitwise_on_int(operand);
    }
    let text = show(operand);
    Diagnostic::new(
        operand.span(),
        format!("cannot infer a fixed-width type for `{text}`"),
    )
    .with_help(format!(
        "bitwise operators need fixed-width operands, and nothing here gives this literal a \
         type; write a cast, e.g. `u32({text})`"
    ))
}
