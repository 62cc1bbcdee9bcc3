//! Typed expressions under construction, and the one place where the
//! runtime checks of operators are made.
//!
//! A front end builds an [`Expr`] bottom-up with these combinators. Each
//! one appends postfix code, computes the result type, and, for operators
//! that can fail at run time, appends a [`Check`] whose fault condition is
//! built from the operands' code. Short-circuit operators and conditional
//! expressions put the checks of the operand they may skip under a guard.
//! No front end writes a check itself: the table is [`checks_of`].
//!
//! Type errors (a front-end bug, not a user error) do not panic: the
//! expression is marked invalid, and [`crate::Builder::finish`] reports it.

use crate::ir::{ArrayId, Check, Code, ErrorKind, Op, Place};
use crate::source::Span;
use crate::types::{ArrayTy, ScalarTy};
use wiser_num::{BinOp, CmpOp, FloatOp, FloatOperand, FloatResult, FloatTy, Int, IntTy, UnOp};

/// An operator whose evaluation may be a runtime error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checked {
    /// A binary operator.
    Binary(BinOp),
    /// Unary minus.
    Neg,
}

/// The runtime errors `op` on values of type `ty` can raise, in the order
/// they are checked:
///
/// | operator | type | checks |
/// |---|---|---|
/// | `/` `%` | any | division by zero; on signed fixed widths then `MIN / -1` |
/// | `+` `-` `*` | signed fixed width | signed overflow |
/// | unary `-` | signed fixed width | signed overflow (of `MIN`) |
/// | `<<` | fixed width | shift amount out of range; on signed types then overflow (a negative operand, or a result that does not fit), as C specifies |
/// | `>>` | fixed width | shift amount out of range |
///
/// Unsigned arithmetic wraps and unbounded arithmetic is exact; neither
/// overflows.
pub fn checks_of(op: Checked, ty: IntTy) -> Vec<ErrorKind> {
    let signed_fixed = ty.is_signed() && !ty.is_unbounded();
    match op {
        Checked::Binary(BinOp::Div | BinOp::Rem) if signed_fixed => {
            vec![ErrorKind::DivisionByZero, ErrorKind::DivisionOverflow]
        }
        Checked::Binary(BinOp::Div | BinOp::Rem) => vec![ErrorKind::DivisionByZero],
        Checked::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul) | Checked::Neg if signed_fixed => {
            vec![ErrorKind::SignedOverflow]
        }
        Checked::Binary(BinOp::Shl) if signed_fixed => {
            vec![ErrorKind::InvalidShift, ErrorKind::SignedOverflow]
        }
        Checked::Binary(BinOp::Shl | BinOp::Shr) => vec![ErrorKind::InvalidShift],
        _ => vec![],
    }
}

/// The most operations an expression may hold, its checks included.
/// Checks copy the code of their operands, so a deep expression of
/// checked operators costs its height times its size: bounded here, an
/// absurd expression is an error instead of an exhausted memory.
pub const MAX_EXPR_OPS: usize = 4_000_000;

/// A typed expression: postfix code, its type, and the checks its
/// evaluation needs (in evaluation order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    code: Vec<Op>,
    ty: ScalarTy,
    checks: Vec<Check>,
    /// Why the expression is ill-typed, if it is.
    error: Option<String>,
}

impl Expr {
    /// The same value without its checks: for a condition about a value
    /// whose own checks run where the value itself is used (the checks of
    /// an access through a pointer read the pointer again).
    pub(crate) fn bare(&self) -> Expr {
        Expr {
            code: self.code.clone(),
            ty: self.ty,
            checks: Vec::new(),
            error: self.error.clone(),
        }
    }

    fn leaf(op: Op, ty: ScalarTy) -> Expr {
        Expr {
            code: vec![op],
            ty,
            checks: Vec::new(),
            error: None,
        }
    }

    fn invalid(mut self, why: String) -> Expr {
        if self.error.is_none() {
            self.error = Some(why);
        }
        self
    }

    /// An integer constant of type `ty`, wrapped into the type.
    pub fn int(ty: IntTy, value: impl Into<Int>) -> Expr {
        let value = ty.wrap(&value.into());
        Expr::leaf(Op::Int(ty, value), ScalarTy::Int(ty))
    }

    /// A boolean constant.
    pub fn bool(b: bool) -> Expr {
        Expr::leaf(Op::Bool(b), ScalarTy::Bool)
    }

    /// A float constant: the pattern `bits` of type `ty` (see
    /// [`FloatTy::from_f64`]).
    pub fn float(ty: FloatTy, bits: Int) -> Expr {
        let bits = ty.bits_ty().wrap(&bits);
        Expr::leaf(Op::FloatConst(ty, bits), ScalarTy::Float(ty))
    }

    /// The float of type `ty` whose pattern is the integer `bits` (of any
    /// fixed-width type of `ty`'s width: converted to the unsigned one,
    /// keeping the bits).
    pub fn as_float(bits: Expr, ty: FloatTy) -> Expr {
        let mut e = bits.cast(ty.bits_ty());
        e.code.push(Op::AsFloat(ty));
        e.ty = ScalarTy::Float(ty);
        e
    }

    /// The pattern of a float, as the unsigned integer of its width.
    pub fn as_bits(self) -> Expr {
        let ScalarTy::Float(t) = self.ty else {
            return self.invalid("the pattern of a value that is not a float".into());
        };
        let mut e = self;
        e.code.push(Op::AsBits(t));
        e.ty = ScalarTy::Int(t.bits_ty());
        e
    }

    /// The zero of a type: `false`, `0`, `+0.0`.
    pub fn zero(ty: ScalarTy) -> Expr {
        match ty {
            ScalarTy::Bool => Expr::bool(false),
            ScalarTy::Int(i) => Expr::int(i, 0),
            ScalarTy::Float(f) => Expr::float(f, Int::ZERO),
        }
    }

    /// The float operation `op` on `args` (its operands in order), with
    /// the check a conversion to an integer needs
    /// ([`ErrorKind::FloatConversion`] when the value does not fit) at
    /// `span`.
    pub fn float_op(op: FloatOp, args: Vec<Expr>, span: Span) -> Expr {
        let mut args = args.into_iter();
        let Some(mut e) = args.next() else {
            return Expr::bool(false).invalid(format!("`{op}` needs operands"));
        };
        let mut tys = vec![e.ty];
        for a in args {
            tys.push(a.ty);
            let (code, checks, error) = a.into_parts();
            e.code.extend(code.iter().cloned());
            e.checks.extend(checks);
            if e.error.is_none() {
                e.error = error;
            }
        }
        let want: Vec<ScalarTy> = op
            .operands()
            .into_iter()
            .map(|o| match o {
                FloatOperand::Float(t) => ScalarTy::Float(t),
                FloatOperand::Int(t) => ScalarTy::Int(t),
            })
            .collect();
        if tys != want {
            return e.invalid(format!("`{op}` on operands of types {tys:?}"));
        }
        if let FloatOp::ToInt(from, to) = op {
            let mut cond = e.code.clone();
            cond.push(Op::Float(FloatOp::ToIntOverflows(from, to)));
            e.check(ErrorKind::FloatConversion, cond, span);
        }
        e.code.push(Op::Float(op));
        e.ty = match op.result() {
            FloatResult::Float(t) => ScalarTy::Float(t),
            FloatResult::Int(t) => ScalarTy::Int(t),
            FloatResult::Bool => ScalarTy::Bool,
        };
        e
    }

    /// The value of a place of type `ty`.
    pub fn load(place: Place, ty: ScalarTy) -> Expr {
        Expr::leaf(Op::Load(place), ty)
    }

    /// The element `array[index]` of an array of type `ty`; the index is
    /// converted to the array's index type when it is another integer type.
    pub fn select(array: ArrayId, ty: ArrayTy, index: Expr) -> Expr {
        let mut e = match index.ty {
            ScalarTy::Int(t) if t != ty.index => index.cast(ty.index),
            ScalarTy::Int(_) => index,
            ScalarTy::Bool | ScalarTy::Float(_) => {
                index.invalid("an array subscript must be an integer".into())
            }
        };
        e.code.push(Op::Select(array));
        e.ty = ty.elem;
        e
    }

    /// The reference `obj` (an `int`), with the
    /// [`ErrorKind::NullDereference`] check `obj == 0` appended: what a
    /// field access, method call or lock on `obj` evaluates first (seed
    /// 001 §4's `e != nil`).
    pub fn deref(obj: Expr, span: Span) -> Expr {
        if obj.ty != ScalarTy::INT {
            return obj.invalid("a reference must be an `int`".into());
        }
        let mut cond = obj.code.clone();
        cond.push(Op::Int(IntTy::INT, Int::ZERO));
        cond.push(Op::Cmp(CmpOp::Eq, IntTy::INT));
        let mut e = obj;
        e.checks.push(Check {
            guard: None,
            cond: cond.into_boxed_slice(),
            kind: ErrorKind::NullDereference,
            span,
        });
        e
    }

    /// The element `array[index]` of an array of `len` elements: like
    /// [`Expr::select`], with an [`ErrorKind::OutOfBounds`] check that
    /// `0 <= index < len` (both converted to the array's index type; `len`
    /// is evaluated with the subscript, so a variable-length array's
    /// length is read where the element is).
    pub fn subscript(array: ArrayId, ty: ArrayTy, index: Expr, len: Expr, span: Span) -> Expr {
        let index = Expr::bounded_index(ty, index, len, span);
        Expr::select(array, ty, index)
    }

    /// `index` converted to the array's index type, with the
    /// [`ErrorKind::OutOfBounds`] check `index < 0 || index >= len`
    /// appended to its checks. Used for reads ([`Expr::subscript`]) and
    /// writes ([`crate::RoutineBuilder::store_in_bounds`]) alike.
    pub fn bounded_index(ty: ArrayTy, index: Expr, len: Expr, span: Span) -> Expr {
        let it = ty.index;
        let index = match index.ty {
            ScalarTy::Int(t) if t != it => index.cast(it),
            ScalarTy::Int(_) => index,
            ScalarTy::Bool | ScalarTy::Float(_) => {
                return index.invalid("an array subscript must be an integer".into())
            }
        };
        let len = match len.ty {
            ScalarTy::Int(t) if t != it => len.cast(it),
            ScalarTy::Int(_) => len,
            ScalarTy::Bool | ScalarTy::Float(_) => {
                return index.invalid("an array length must be an integer".into())
            }
        };
        // A constant subscript within a constant length needs no check.
        if let (Some(i), Some(n)) = (index.as_const(), len.as_const()) {
            if !i.is_negative() && i < n {
                return index;
            }
        }
        let (len_code, len_checks, len_error) = len.into_parts();
        let mut e = index;
        e.checks.extend(len_checks);
        if e.error.is_none() {
            e.error = len_error;
        }
        let mut cond = e.code.clone();
        cond.push(Op::Int(it, Int::from(0)));
        cond.push(Op::Cmp(CmpOp::Lt, it));
        cond.extend(e.code.iter().cloned());
        cond.extend(len_code.iter().cloned());
        cond.push(Op::Cmp(CmpOp::Ge, it));
        cond.push(Op::Or);
        e.check(ErrorKind::OutOfBounds, cond, span);
        e
    }

    /// The type of the expression.
    pub fn ty(&self) -> ScalarTy {
        self.ty
    }

    /// The integer type of the expression, if it has one.
    pub fn int_ty(&self) -> Option<IntTy> {
        self.ty.int()
    }

    /// Why the expression is ill-typed, if it is.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// The constant value, if the expression is just a constant.
    pub fn as_const(&self) -> Option<&Int> {
        match self.code.as_slice() {
            [Op::Int(_, v)] => Some(v),
            _ => None,
        }
    }

    /// The parts: code, checks and the type error, if any.
    pub(crate) fn into_parts(self) -> (Code, Vec<Check>, Option<String>) {
        (self.code.into_boxed_slice(), self.checks, self.error)
    }

    /// Appends `other` (code and checks) and returns its code range.
    fn append(&mut self, other: Expr) -> std::ops::Range<usize> {
        let start = self.code.len();
        self.code.extend(other.code);
        self.checks.extend(other.checks);
        if self.error.is_none() {
            self.error = other.error;
        }
        start..self.code.len()
    }

    /// The operations it holds, checks included.
    fn size(&self) -> usize {
        self.code.len()
            + self
                .checks
                .iter()
                .map(|c| c.cond.len() + c.guard.as_ref().map_or(0, |g| g.len()))
                .sum::<usize>()
    }

    fn check(&mut self, kind: ErrorKind, cond: Vec<Op>, span: Span) {
        if self.error.is_some() {
            return;
        }
        if self.size() + cond.len() > MAX_EXPR_OPS {
            self.checks.clear();
            self.error = Some(format!(
                "{TOO_LARGE}: with its runtime checks it needs more than {MAX_EXPR_OPS} operations"
            ));
            return;
        }
        self.checks.push(Check {
            guard: None,
            cond: cond.into_boxed_slice(),
            kind,
            span,
        });
    }

    /// This expression with one more check: it faults with `kind` at
    /// `span` when the boolean `cond` holds (after `cond`'s own checks).
    /// For a condition of the program's state that no operator checks: a
    /// memory leak when `main` returns.
    pub fn fault_if(self, cond: Expr, kind: ErrorKind, span: Span) -> Expr {
        if cond.ty != ScalarTy::Bool {
            return self.invalid("a fault condition must be a boolean".into());
        }
        let mut e = self;
        let code = cond.code.to_vec();
        e.checks.extend(cond.checks);
        if e.error.is_none() {
            e.error = cond.error;
        }
        e.check(kind, code, span);
        e
    }

    /// `op a` (`-a` or `~a`), with its checks.
    pub fn unary(op: UnOp, a: Expr, span: Span) -> Expr {
        let Some(ty) = a.int_ty() else {
            return a.invalid(format!("`{}` needs an integer operand", op.symbol()));
        };
        if op == UnOp::BitNot && ty.is_unbounded() {
            return a.invalid("`~` needs a fixed-width operand".into());
        }
        let mut e = a;
        if op == UnOp::Neg && checks_of(Checked::Neg, ty).contains(&ErrorKind::SignedOverflow) {
            let mut cond = e.code.clone();
            cond.push(Op::NegOverflows(ty));
            e.check(ErrorKind::SignedOverflow, cond, span);
        }
        e.code.push(Op::Unary(op, ty));
        e
    }

    /// `a op b`, with its checks. Both operands have the same integer type,
    /// except for shifts, whose amount may have any integer type (it is
    /// checked in its own type, then converted).
    pub fn binary(op: BinOp, a: Expr, b: Expr, span: Span) -> Expr {
        let (Some(ty), Some(bty)) = (a.int_ty(), b.int_ty()) else {
            return a.invalid(format!("`{}` needs integer operands", op.symbol()));
        };
        let shift = matches!(op, BinOp::Shl | BinOp::Shr);
        if op.is_bitwise() && ty.is_unbounded() {
            return a.invalid(format!(
                "`{}` needs fixed-width operands, not `int`",
                op.symbol()
            ));
        }
        if !shift && ty != bty {
            return a.invalid(format!(
                "`{}` on different types `{ty}` and `{bty}`",
                op.symbol()
            ));
        }
        // A constant divisor or shift amount decides its own checks.
        let constant = b.as_const().cloned();
        let kinds: Vec<ErrorKind> = checks_of(Checked::Binary(op), ty)
            .into_iter()
            .filter(|k| match (k, &constant) {
                (ErrorKind::DivisionByZero, Some(v)) => v.is_zero(),
                (ErrorKind::DivisionOverflow, Some(v)) => *v == Int::from(-1),
                (ErrorKind::InvalidShift, Some(v)) => {
                    let width = Int::from(i64::from(ty.width().unwrap_or(0)));
                    v.is_negative() || *v >= width
                }
                _ => true,
            })
            .collect();
        let mut e = a;
        let ra = 0..e.code.len();
        let rb = e.append(b);
        let operands = |e: &Expr, extra: &[Op]| {
            let mut c = e.code[ra.clone()].to_vec();
            c.extend_from_slice(&e.code[rb.clone()]);
            c.extend_from_slice(extra);
            c
        };
        for kind in kinds {
            match kind {
                ErrorKind::DivisionByZero => {
                    let mut cond = e.code[rb.clone()].to_vec();
                    cond.push(Op::Int(ty, Int::ZERO));
                    cond.push(Op::Cmp(CmpOp::Eq, ty));
                    e.check(kind, cond, span);
                }
                ErrorKind::DivisionOverflow | ErrorKind::SignedOverflow if !shift => {
                    let cond = operands(&e, &[Op::Overflows(op, ty)]);
                    e.check(kind, cond, span);
                }
                ErrorKind::InvalidShift => {
                    let width = ty.width().expect("shifts are on fixed widths");
                    let mut cond = e.code[rb.clone()].to_vec();
                    cond.push(Op::Int(bty, bty.wrap(&Int::from(i64::from(width)))));
                    cond.push(Op::Cmp(CmpOp::Ge, bty));
                    if bty.is_signed() {
                        cond.extend_from_slice(&e.code[rb.clone()]);
                        cond.push(Op::Int(bty, Int::ZERO));
                        cond.push(Op::Cmp(CmpOp::Lt, bty));
                        cond.push(Op::Or);
                    }
                    // A type too narrow to hold the width cannot reach it.
                    if !bty.contains(&Int::from(i64::from(width))) {
                        cond = e.code[rb.clone()].to_vec();
                        cond.push(Op::Int(bty, Int::ZERO));
                        cond.push(Op::Cmp(CmpOp::Lt, bty));
                    }
                    e.check(kind, cond, span);
                }
                ErrorKind::SignedOverflow => {
                    // `<<` on a signed type, with the amount in range.
                    let mut cond = e.code[ra.clone()].to_vec();
                    cond.extend_from_slice(&e.code[rb.clone()]);
                    if bty != ty {
                        cond.push(Op::Cast(bty, ty));
                    }
                    cond.push(Op::Overflows(BinOp::Shl, ty));
                    e.check(kind, cond, span);
                }
                _ => {}
            }
        }
        if shift && bty != ty {
            e.code.push(Op::Cast(bty, ty));
        }
        e.code.push(Op::Binary(op, ty));
        e
    }

    /// The comparison `a op b` of two integers of the same type, of two
    /// floats of the same type (IEEE's rules: see [`FloatOp::Cmp`]), or
    /// `==` and `!=` of two booleans.
    pub fn cmp(op: CmpOp, a: Expr, b: Expr) -> Expr {
        match (a.ty, b.ty) {
            (ScalarTy::Float(t), ScalarTy::Float(u)) if t == u => {
                let mut e = a;
                e.append(b);
                e.code.push(Op::Float(FloatOp::Cmp(op, t)));
                e.ty = ScalarTy::Bool;
                e
            }
            (ScalarTy::Int(t), ScalarTy::Int(u)) if t == u => {
                let mut e = a;
                e.append(b);
                e.code.push(Op::Cmp(op, t));
                e.ty = ScalarTy::Bool;
                e
            }
            (ScalarTy::Bool, ScalarTy::Bool) if matches!(op, CmpOp::Eq | CmpOp::Ne) => {
                // a == b is (a and b) or (not a and not b): as ite(a, b, not b).
                let mut e = a;
                let rb = e.append(b);
                let b_code = e.code[rb].to_vec();
                e.code.extend(b_code);
                e.code.push(Op::Not);
                e.code.push(Op::Ite(ScalarTy::Bool));
                if op == CmpOp::Ne {
                    e.code.push(Op::Not);
                }
                e
            }
            (t, u) => a.invalid(format!(
                "`{}` on different types `{t}` and `{u}`",
                op.symbol()
            )),
        }
    }

    /// The conversion of an integer to another integer type (C's cast:
    /// wrapping). Converting to the same type is the expression itself.
    pub fn cast(self, to: IntTy) -> Expr {
        let Some(from) = self.int_ty() else {
            let what = self.ty;
            return self.invalid(format!("cannot convert a `{what}` to `{to}` with a cast"));
        };
        if from == to {
            return self;
        }
        let mut e = self;
        if let Some(v) = e.as_const().cloned() {
            return Expr {
                code: vec![Op::Int(to, from.cast(to, &v))],
                ty: ScalarTy::Int(to),
                checks: e.checks,
                error: e.error,
            };
        }
        e.code.push(Op::Cast(from, to));
        e.ty = ScalarTy::Int(to);
        e
    }

    /// A boolean as an integer of type `ty`: 1 or 0.
    pub fn bool_to_int(self, ty: IntTy) -> Expr {
        if self.ty != ScalarTy::Bool {
            return self.invalid("expected a boolean".into());
        }
        Expr::ite(self, Expr::int(ty, 1), Expr::int(ty, 0))
    }

    /// An integer or a float as a boolean: `a != 0` (a NaN is true, as
    /// in C).
    pub fn int_to_bool(self) -> Expr {
        match self.ty {
            ScalarTy::Bool => self,
            ty => Expr::cmp(CmpOp::Ne, self, Expr::zero(ty)),
        }
    }

    /// `not a`.
    pub fn logical_not(a: Expr) -> Expr {
        if a.ty != ScalarTy::Bool {
            return a.invalid("`not` needs a boolean".into());
        }
        let mut e = a;
        e.code.push(Op::Not);
        e
    }

    /// `a and b`, short-circuit: the checks of `b` apply only where `a`
    /// holds.
    pub fn and(a: Expr, b: Expr) -> Expr {
        Expr::junction(a, b, true)
    }

    /// `a or b`, short-circuit: the checks of `b` apply only where `a`
    /// does not hold.
    pub fn or(a: Expr, b: Expr) -> Expr {
        Expr::junction(a, b, false)
    }

    fn junction(a: Expr, b: Expr, is_and: bool) -> Expr {
        if a.ty != ScalarTy::Bool || b.ty != ScalarTy::Bool {
            return a.invalid("`and`/`or` need booleans".into());
        }
        let mut guard = a.code.clone();
        if !is_and {
            guard.push(Op::Not);
        }
        let b = b.guarded(&guard);
        let mut e = a;
        e.append(b);
        e.code.push(if is_and { Op::And } else { Op::Or });
        e
    }

    /// `cond ? a : b` on two values of the same type; the checks of `a`
    /// apply only where `cond` holds, those of `b` where it does not.
    pub fn ite(cond: Expr, a: Expr, b: Expr) -> Expr {
        if cond.ty != ScalarTy::Bool {
            return cond.invalid("a condition must be a boolean".into());
        }
        if a.ty != b.ty {
            let (t, u) = (a.ty, b.ty);
            return cond.invalid(format!("the branches have different types `{t}` and `{u}`"));
        }
        let ty = a.ty;
        let mut not_cond = cond.code.clone();
        not_cond.push(Op::Not);
        let a = a.guarded(&cond.code);
        let b = b.guarded(&not_cond);
        let mut e = cond;
        e.append(a);
        e.append(b);
        e.code.push(Op::Ite(ty));
        e.ty = ty;
        e
    }

    /// Puts every check under `guard` (in addition to its own guard).
    fn guarded(mut self, guard: &[Op]) -> Expr {
        if self.size() + guard.len() * self.checks.len() > MAX_EXPR_OPS {
            self.checks.clear();
            return self.invalid(format!(
                "{TOO_LARGE}: with its runtime checks it needs more than {MAX_EXPR_OPS} operations"
            ));
        }
        for check in &mut self.checks {
            let mut g = guard.to_vec();
            if let Some(inner) = &check.guard {
                g.extend(inner.iter().cloned());
                g.push(Op::And);
            }
            check.guard = Some(g.into_boxed_slice());
        }
        self
    }
}

/// The start of the message of an expression over [`MAX_EXPR_OPS`]: a
/// limit the program hit, not a front-end bug.
pub const TOO_LARGE: &str = "expression too large";

#[cfg(test)]
mod tests {
    use super::*;

    fn x(ty: IntTy) -> Expr {
        Expr::load(Place::Local(0), ScalarTy::Int(ty))
    }

    #[test]
    fn checks_follow_the_table() {
        let s = Span::new(3, 4);
        let div = Expr::binary(BinOp::Div, x(IntTy::I32), x(IntTy::I32), s);
        let kinds: Vec<_> = div.checks.iter().map(|c| c.kind).collect();
        assert_eq!(
            kinds,
            [ErrorKind::DivisionByZero, ErrorKind::DivisionOverflow]
        );
        let add = Expr::binary(BinOp::Add, x(IntTy::U8), x(IntTy::U8), s);
        assert!(add.checks.is_empty());
        let add = Expr::binary(BinOp::Add, x(IntTy::INT), x(IntTy::INT), s);
        assert!(add.checks.is_empty());
        let shl = Expr::binary(BinOp::Shl, x(IntTy::I8), x(IntTy::U64), s);
        let kinds: Vec<_> = shl.checks.iter().map(|c| c.kind).collect();
        assert_eq!(kinds, [ErrorKind::InvalidShift, ErrorKind::SignedOverflow]);
        assert_eq!(shl.code.last(), Some(&Op::Binary(BinOp::Shl, IntTy::I8)));
        assert!(shl.code.contains(&Op::Cast(IntTy::U64, IntTy::I8)));
        assert!(shl.error.is_none());
    }

    #[test]
    fn short_circuit_guards_the_right_operand() {
        let s = Span::new(0, 1);
        let nonzero = Expr::cmp(CmpOp::Ne, x(IntTy::INT), Expr::int(IntTy::INT, 0));
        let q = Expr::binary(BinOp::Div, Expr::int(IntTy::INT, 7), x(IntTy::INT), s);
        let c = Expr::and(nonzero, Expr::cmp(CmpOp::Gt, q, Expr::int(IntTy::INT, 1)));
        assert_eq!(c.checks.len(), 1);
        assert_eq!(
            c.checks[0].guard.as_deref(),
            Some(
                &[
                    Op::Load(Place::Local(0)),
                    Op::Int(IntTy::INT, Int::ZERO),
                    Op::Cmp(CmpOp::Ne, IntTy::INT)
                ][..]
            )
        );
    }

    #[test]
    fn type_errors_are_recorded_not_panicked() {
        let e = Expr::binary(BinOp::Add, x(IntTy::U8), x(IntTy::I8), Span::default());
        assert!(e.error().is_some());
        let e = Expr::binary(BinOp::BitAnd, x(IntTy::INT), x(IntTy::INT), Span::default());
        assert!(e.error().unwrap().contains("fixed-width"));
        let e = Expr::logical_not(x(IntTy::INT));
        assert!(e.error().is_some());
    }
}
