//! The Z3 translation of float operations ([`crate::Kind::Fp`]): each
//! operand's bit pattern becomes a value of Z3's floating-point sort
//! (`to_fp` of the IEEE bits), the operation is done in SMT-LIB's FP
//! theory, and the result goes back to a pattern, so that floats stay
//! bit-vectors everywhere else (models, arrays, the protocol).
//!
//! The translation must equal [`wiser_num::FloatOp::apply`] on every
//! input, so each case SMT-LIB leaves unspecified is forced here with an
//! `ite`: a NaN result becomes the canonical pattern (a NaN has many
//! patterns), `fmin`/`fmax` of two zeros give the second
//! as `apply` does, and a conversion to an integer that does not fit (NaN,
//! infinite or out of range, where `fp.to_sbv`/`fp.to_ubv` are
//! unspecified) gives 0. Rounding is to nearest, ties to even, except for
//! the rounding functions (`floor` is `roundToIntegral` toward negative,
//! `round` ties away from zero) and the conversions to integers (toward
//! zero).

use wiser_num::{CmpOp, FBinOp, FClass, FUnOp, FloatOp, FloatTy, IntTy};
use z3::ast::{Ast, Bool, Dynamic, Float, Int as ZInt, Real, RoundingMode, BV};
use z3_sys::Z3_ast;

/// Z3's floating-point sort of `t`.
fn sort(t: FloatTy) -> z3::Sort {
    z3::Sort::float(t.exponent_bits(), t.significand_bits())
}

/// Wraps an AST made through `z3_sys` (`None` when Z3 reported an error:
/// the arguments here are well-sorted, so that is a bug).
fn wrap(ctx: &z3::Context, ast: Option<Z3_ast>, what: &str) -> Float {
    let ast = ast.unwrap_or_else(|| panic!("Z3 could not make {what}"));
    // SAFETY: `ast` is a valid AST just made in `ctx`; `wrap` takes a
    // reference to it.
    unsafe { Float::wrap(ctx, ast) }
}

/// The float whose IEEE 754 pattern is `bits` (`to_fp` of a bit-vector).
fn from_bits(t: FloatTy, bits: &BV) -> Float {
    let ctx = bits.get_ctx();
    let s = sort(t);
    // SAFETY: every pointer comes from a live object of this context.
    let ast = unsafe {
        z3_sys::Z3_mk_fpa_to_fp_bv(ctx.get_z3_context(), bits.get_z3_ast(), s.get_z3_sort())
    };
    wrap(ctx, ast, "to_fp of a pattern")
}

/// The exact float constant `x` of type `t`.
fn constant(t: FloatTy, x: f64) -> Float {
    let w = t.bits();
    from_bits(t, &BV::from_u64(t.from_f64(x).low_bits(w), w))
}

/// `r`'s pattern (a NaN's is the canonical one), and its definition.
///
/// Not Z3's `fp.to_ieee_bv`, which is not SMT-LIB (a NaN has many
/// patterns) and which cvc5 therefore lacks: the script cvc5 reads is
/// this translation's SMT-LIB rendering. Instead a fresh constant `b`
/// with `to_fp(b) = r`: SMT-LIB's `=` on floats is identity, so the
/// definition fixes `b` for every `r` but a NaN, where the `ite` gives the
/// canonical pattern anyway. The definition holds for some `b` whatever
/// the other constants are, so it may be asserted unconditionally.
fn to_bits(t: FloatTy, r: &Float) -> (BV, Bool) {
    let w = t.bits();
    let nan = BV::from_u64(t.nan().low_bits(w), w);
    let b = BV::fresh_const("fp_bits", w);
    let definition = from_bits(t, &b).eq(r);
    (r.is_nan().ite(&nan, &b), definition)
}

/// The integer `v` (a bit-vector read as `from`, or an unbounded
/// integer) rounded to nearest even in `t`.
fn from_int(from: IntTy, t: FloatTy, v: &Dynamic) -> Float {
    let rm = RoundingMode::round_nearest_ties_to_even();
    let ctx = v.get_ctx();
    let s = sort(t);
    let raw = ctx.get_z3_context();
    // SAFETY: every pointer comes from a live object of this context, and
    // the operand has the sort each function asks for.
    let ast = unsafe {
        match from.width() {
            Some(_) => {
                let bv = v.as_bv().expect("a fixed-width integer operand");
                if from.is_signed() {
                    z3_sys::Z3_mk_fpa_to_fp_signed(
                        raw,
                        rm.get_z3_ast(),
                        bv.get_z3_ast(),
                        s.get_z3_sort(),
                    )
                } else {
                    z3_sys::Z3_mk_fpa_to_fp_unsigned(
                        raw,
                        rm.get_z3_ast(),
                        bv.get_z3_ast(),
                        s.get_z3_sort(),
                    )
                }
            }
            None => {
                // Exactly, through a real. (Z3 may answer unknown when the
                // integer is not fixed: its `to_fp` of a real that is not a
                // numeral is incomplete.)
                let n = v.as_int().expect("an unbounded integer operand");
                let real = Real::from_int(&n);
                z3_sys::Z3_mk_fpa_to_fp_real(
                    raw,
                    rm.get_z3_ast(),
                    real.get_z3_ast(),
                    s.get_z3_sort(),
                )
            }
        }
    };
    wrap(ctx, ast, "to_fp of an integer")
}

/// Does `x` truncated toward zero (`y`, already rounded toward zero)
/// fail to fit `to`? Exactly: `y` is an integer, so it fits the bounded
/// type `[lo, hi]` iff `lo <= y < hi + 1`, and `lo` and `hi + 1` (0 or
/// `-2^(w-1)`, and `2^(w-1)` or `2^w`) are powers of two or zero, exact
/// in both float types, where `hi` itself (`2^31 - 1` in `f32`) may not
/// be. A NaN fails both comparisons, an infinity one of them; the
/// unbounded type takes every finite value.
fn to_int_overflows(x: &Float, y: &Float, t: FloatTy, to: IntTy) -> Bool {
    match to.width() {
        None => Bool::or(&[x.is_nan(), x.is_infinite()]),
        Some(w) => {
            let (lo, end) = if to.is_signed() {
                let half = 2f64.powi(w as i32 - 1);
                (-half, half)
            } else {
                (0.0, 2f64.powi(w as i32))
            };
            Bool::and(&[y.ge(constant(t, lo)), y.lt(constant(t, end))]).not()
        }
    }
}

/// C's `fmin`/`fmax` as [`FloatOp::apply`] defines them: a NaN operand
/// ignored, and of two zeros the second, as glibc on x86 (SMT-LIB's
/// `fp.min`/`fp.max` may give either zero).
fn min_max(min: bool, a: &Float, b: &Float) -> Float {
    let both_zero = Bool::and(&[a.is_zero(), b.is_zero()]);
    let general = if min { a.min(b) } else { a.max(b) };
    let general = a.is_nan().ite(b, &b.is_nan().ite(a, &general));
    both_zero.ite(b, &general)
}

/// The translation of `op` applied to `args` (translated operands:
/// bit-vector patterns for floats, bit-vectors or integers for integers;
/// with a float operand, its FP value when it is the result of another
/// float operation), of the sort [`crate::Term::fp`] gives the node, and
/// for a float result its FP value. An operand's FP value `r` may stand
/// for `to_fp` of its pattern because they are equal: the pattern is
/// `r`'s IEEE bits, or the canonical NaN when `r` is a NaN. With a float
/// result comes the definition of its pattern (see [`to_bits`]), which
/// must be asserted wherever the node's translation is.
pub(crate) fn translate(
    op: FloatOp,
    args: &[(Dynamic, Option<Float>)],
) -> (Dynamic, Option<Float>, Option<Bool>) {
    let float = |i: usize, t: FloatTy| match &args[i].1 {
        Some(v) => v.clone(),
        None => from_bits(t, &args[i].0.as_bv().expect("a float operand is a pattern")),
    };
    let result = |t: FloatTy, r: Float| {
        let (bits, definition) = to_bits(t, &r);
        (Dynamic::from_ast(&bits), Some(r), Some(definition))
    };
    let value = |d: Dynamic| (d, None, None);
    let rne = RoundingMode::round_nearest_ties_to_even;
    let rtz = RoundingMode::round_towards_zero;
    match op {
        FloatOp::Binary(o, t) => {
            let (a, b) = (float(0, t), float(1, t));
            let r = match o {
                FBinOp::Add => a.add_with_rounding_mode(&b, &rne()),
                FBinOp::Sub => a.sub_with_rounding_mode(&b, &rne()),
                FBinOp::Mul => a.mul_with_rounding_mode(&b, &rne()),
                FBinOp::Div => a.div_with_rounding_mode(&b, &rne()),
                FBinOp::Min => min_max(true, &a, &b),
                FBinOp::Max => min_max(false, &a, &b),
            };
            result(t, r)
        }
        FloatOp::Unary(o, t) => {
            let a = float(0, t);
            let round = |rm: RoundingMode| a.round_to_integral_with_rounding_mode(&rm);
            let r = match o {
                FUnOp::Neg => a.unary_neg(),
                FUnOp::Abs => a.unary_abs(),
                FUnOp::Sqrt => a.sqrt_with_rounding_mode(&rne()),
                FUnOp::Floor => round(RoundingMode::round_towards_negative()),
                FUnOp::Ceil => round(RoundingMode::round_towards_positive()),
                FUnOp::Trunc => round(rtz()),
                FUnOp::Round => round(RoundingMode::round_nearest_ties_to_away()),
                FUnOp::RoundEven => round(rne()),
            };
            result(t, r)
        }
        FloatOp::Fma(t) => {
            let (a, b, c) = (float(0, t), float(1, t), float(2, t));
            let r = a.fma_with_rounding_mode(&b, &c, &rne());
            result(t, r)
        }
        FloatOp::Cmp(o, t) => {
            let (a, b) = (float(0, t), float(1, t));
            value(Dynamic::from_ast(&match o {
                CmpOp::Eq => a.eq_fpa(&b),
                CmpOp::Ne => a.eq_fpa(&b).not(),
                CmpOp::Lt => a.lt(&b),
                CmpOp::Le => a.le(&b),
                CmpOp::Gt => a.gt(&b),
                CmpOp::Ge => a.ge(&b),
            }))
        }
        FloatOp::Class(c, t) => {
            let a = float(0, t);
            value(Dynamic::from_ast(&match c {
                FClass::Nan => a.is_nan(),
                FClass::Infinite => a.is_infinite(),
                FClass::Zero => a.is_zero(),
                FClass::Normal => a.is_normal(),
                FClass::Subnormal => a.is_subnormal(),
                FClass::Negative => Bool::and(&[a.is_negative(), a.is_nan().not()]),
            }))
        }
        FloatOp::FromInt(from, t) => result(t, from_int(from, t, &args[0].0)),
        FloatOp::ToInt(t, to) => {
            let x = float(0, t);
            let y = x.round_to_integral_with_rounding_mode(&rtz());
            let over = to_int_overflows(&x, &y, t, to);
            match to.width() {
                Some(w) => {
                    let v = if to.is_signed() {
                        x.to_sbv_with_rounding_mode(&rtz(), w)
                    } else {
                        x.to_ubv_with_rounding_mode(&rtz(), w)
                    };
                    value(Dynamic::from_ast(&over.ite(&BV::from_u64(0, w), &v)))
                }
                None => {
                    // `y` is an integer: its real's floor is itself.
                    let v = y.to_real().to_int();
                    value(Dynamic::from_ast(&over.ite(&ZInt::from_i64(0), &v)))
                }
            }
        }
        FloatOp::ToIntOverflows(t, to) => {
            let x = float(0, t);
            let y = x.round_to_integral_with_rounding_mode(&rtz());
            value(Dynamic::from_ast(&to_int_overflows(&x, &y, t, to)))
        }
        FloatOp::Convert(from, to) => {
            let r = float(0, from).to_fp_with_rounding_mode(&rne(), &sort(to));
            result(to, r)
        }
    }
}
