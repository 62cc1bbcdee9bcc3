//! Float operations on terms: [`Term::fp`] and what every layer needs to
//! know about a [`Kind::Fp`] node (its sorts, its value on constants, its
//! printed name, its operators' codes on the wire).
//!
//! A float stays a **bit-vector** in terms: a float-typed term has sort
//! `Bv(32)` or `Bv(64)` and its value is the IEEE 754 pattern (see
//! [`wiser_num::FloatTy`]), so models, arrays and witnesses hold floats as
//! unsigned patterns and nothing but the operation itself reads one as a
//! number. An integer operand or result of a fixed-width type is a
//! bit-vector of its width (the [`IntTy`] says how to read it), one of the
//! unbounded type an `Int`; a boolean result is a `Bool`. The meaning of
//! each node is [`FloatOp::apply`], the one definition that the concrete
//! interpreter, folding here and the model evaluator share; the Z3
//! translation (`z3_backend_float.rs`) converts patterns to Z3's
//! floating-point sort around each operation only.

use crate::term::{Kind, Sort, Term};
use wiser_num::{CmpOp, FBinOp, FClass, FUnOp, FloatOp, FloatOperand, FloatResult, Int, IntTy};

/// Every [`FBinOp`], in declaration order (their codes on the wire).
pub(crate) const FBIN_OPS: [FBinOp; 6] = [
    FBinOp::Add,
    FBinOp::Sub,
    FBinOp::Mul,
    FBinOp::Div,
    FBinOp::Min,
    FBinOp::Max,
];

/// Every [`FUnOp`], in declaration order.
pub(crate) const FUN_OPS: [FUnOp; 8] = [
    FUnOp::Neg,
    FUnOp::Abs,
    FUnOp::Sqrt,
    FUnOp::Floor,
    FUnOp::Ceil,
    FUnOp::Trunc,
    FUnOp::Round,
    FUnOp::RoundEven,
];

/// Every [`FClass`], in declaration order.
pub(crate) const FCLASSES: [FClass; 6] = [
    FClass::Nan,
    FClass::Infinite,
    FClass::Zero,
    FClass::Normal,
    FClass::Subnormal,
    FClass::Negative,
];

/// The sort of a term holding an integer of type `ty`.
pub(crate) fn int_sort(ty: IntTy) -> Sort {
    match ty.width() {
        None => Sort::Int,
        Some(w) => Sort::Bv(w as u8),
    }
}

/// The sort of an operand.
pub(crate) fn operand_sort(o: FloatOperand) -> Sort {
    match o {
        FloatOperand::Float(t) => Sort::Bv(t.bits() as u8),
        FloatOperand::Int(i) => int_sort(i),
    }
}

/// The sort of an operation's result.
pub(crate) fn result_sort(op: FloatOp) -> Sort {
    match op.result() {
        FloatResult::Float(t) => Sort::Bv(t.bits() as u8),
        FloatResult::Int(i) => int_sort(i),
        FloatResult::Bool => Sort::Bool,
    }
}

/// What [`FloatOp::apply`] gives, as our terms hold it: a pattern (an
/// unsigned `Int`) for a float or a fixed-width integer, the value for an
/// unbounded integer, a boolean.
pub(crate) enum FpValue {
    /// A pattern, or an unbounded integer.
    Int(Int),
    /// A boolean.
    Bool(bool),
}

/// The operation on operand values as terms hold them (patterns for
/// bit-vectors, read as their [`IntTy`] by [`FloatOp::apply`]).
pub(crate) fn apply(op: FloatOp, args: &[Int]) -> FpValue {
    let v = op.apply(args);
    match op.result() {
        FloatResult::Bool => FpValue::Bool(!v.is_zero()),
        FloatResult::Float(t) => FpValue::Int(Int::from_u64(v.low_bits(t.bits()))),
        FloatResult::Int(i) => match i.width() {
            None => FpValue::Int(v),
            Some(w) => FpValue::Int(Int::from_u64(v.low_bits(w))),
        },
    }
}

/// The name [`crate::display`] prints a node under, as a call:
/// `fp.add32(a, b)`, `fp.lt64(a, b)`, `fp.isnan32(a)`, `fp.i32_to_f32(n)`,
/// `fp.f64_to_u8(x)`, `fp.f64_to_u8_ovf(x)` (does the conversion
/// overflow?), `fp.f64_to_f32(x)`.
pub(crate) fn name(op: FloatOp) -> String {
    let bin = |op: FBinOp| match op {
        FBinOp::Add => "add",
        FBinOp::Sub => "sub",
        FBinOp::Mul => "mul",
        FBinOp::Div => "div",
        FBinOp::Min => "min",
        FBinOp::Max => "max",
    };
    let un = |op: FUnOp| match op {
        FUnOp::Neg => "neg",
        FUnOp::Abs => "abs",
        other => other.symbol(),
    };
    let cmp = |op: CmpOp| match op {
        CmpOp::Eq => "eq",
        CmpOp::Ne => "ne",
        CmpOp::Lt => "lt",
        CmpOp::Le => "le",
        CmpOp::Gt => "gt",
        CmpOp::Ge => "ge",
    };
    match op {
        FloatOp::Binary(o, t) => format!("fp.{}{}", bin(o), t.bits()),
        FloatOp::Unary(o, t) => format!("fp.{}{}", un(o), t.bits()),
        FloatOp::Fma(t) => format!("fp.fma{}", t.bits()),
        FloatOp::Cmp(o, t) => format!("fp.{}{}", cmp(o), t.bits()),
        FloatOp::Class(c, t) => format!("fp.{}{}", c.symbol(), t.bits()),
        FloatOp::FromInt(i, t) => format!("fp.{}_to_{t}", i.name()),
        FloatOp::ToInt(t, i) => format!("fp.{t}_to_{}", i.name()),
        FloatOp::ToIntOverflows(t, i) => format!("fp.{t}_to_{}_ovf", i.name()),
        FloatOp::Convert(a, b) => format!("fp.{a}_to_{b}"),
    }
}

impl Term {
    /// The float operation `op` on `args` (bit-vector patterns for floats;
    /// see the module documentation for the sorts), folded to a constant
    /// by [`FloatOp::apply`] when every argument is one. Panics on a sort
    /// error or a wrong number of arguments.
    pub fn fp(op: FloatOp, args: &[Term]) -> Term {
        let operands = op.operands();
        assert_eq!(
            args.len(),
            operands.len(),
            "{op} takes {} operands",
            operands.len()
        );
        for (a, o) in args.iter().zip(&operands) {
            let want = operand_sort(*o);
            assert_eq!(
                a.sort(),
                want,
                "sort error: {a} is an operand of {op}, of sort {want:?}"
            );
        }
        let consts: Option<Vec<Int>> = args
            .iter()
            .map(|a| match a.kind() {
                Kind::Bv { bits, .. } => Some(Int::from_u64(*bits)),
                Kind::Int(n) => Some(n.clone()),
                _ => None,
            })
            .collect();
        let Some(consts) = consts else {
            return Term::new(Kind::Fp(op, args.into()));
        };
        match (apply(op, &consts), result_sort(op)) {
            (FpValue::Bool(b), _) => Term::bool(b),
            (FpValue::Int(v), Sort::Bv(w)) => Term::bv(w, v.low_bits(u32::from(w))),
            (FpValue::Int(v), _) => Term::int(v),
        }
    }
}
