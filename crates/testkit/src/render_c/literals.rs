//! Types and literals of the C rendering: C type names, the nondet
//! function of each type, literals that C reads at the right type, and
//! the folding of literal expressions that IMP computes at `int`.

use super::Unsupported;
use crate::domain::type_bounds;
use crate::program::Ex;
use wiser_num::{BinOp, IntTy, UnOp};

/// The C name of a fixed-width type.
pub fn c_type(ty: IntTy) -> Result<&'static str, Unsupported> {
    Ok(match (ty.width(), ty.is_signed()) {
        (Some(8), true) => "signed char",
        (Some(8), false) => "unsigned char",
        (Some(16), true) => "short",
        (Some(16), false) => "unsigned short",
        (Some(32), true) => "int",
        (Some(32), false) => "unsigned int",
        (Some(64), true) => "long long",
        (Some(64), false) => "unsigned long long",
        _ => return Err(Unsupported(format!("the type `{ty}`"))),
    })
}

/// The SV-COMP function that reads a value of `ty`, and its C result type.
pub(super) fn nondet(ty: IntTy) -> Result<(&'static str, &'static str), Unsupported> {
    Ok(match (ty.width(), ty.is_signed()) {
        (Some(8), true) => ("__VERIFIER_nondet_char", "char"),
        (Some(8), false) => ("__VERIFIER_nondet_uchar", "unsigned char"),
        (Some(16), true) => ("__VERIFIER_nondet_short", "short"),
        (Some(16), false) => ("__VERIFIER_nondet_ushort", "unsigned short"),
        (Some(32), true) => ("__VERIFIER_nondet_int", "int"),
        (Some(32), false) => ("__VERIFIER_nondet_uint", "unsigned int"),
        (Some(64), true) => ("__VERIFIER_nondet_longlong", "long long"),
        (Some(64), false) => ("__VERIFIER_nondet_ulonglong", "unsigned long long"),
        _ => return Err(Unsupported(format!("a read of `{ty}`"))),
    })
}

/// `v` as a C constant of type `long long` or `unsigned long long`.
pub(super) fn ll(v: i128) -> Result<String, Unsupported> {
    if v == i128::from(i64::MIN) {
        Ok("(-9223372036854775807LL - 1)".into())
    } else if v < i128::from(i64::MIN) || v > i128::from(u64::MAX) {
        Err(Unsupported(format!("the constant {v}")))
    } else if v > i128::from(i64::MAX) {
        Ok(format!("{v}ULL"))
    } else if v < 0 {
        Ok(format!("({v}LL)"))
    } else {
        Ok(format!("{v}LL"))
    }
}

/// `v` (which fits `ty`) as a C constant of type `ty`.
pub(super) fn lit(v: i128, ty: IntTy) -> Result<String, Unsupported> {
    let ct = c_type(ty)?;
    if ty == IntTy::I32 {
        return Ok(if v < 0 {
            if v == i128::from(i32::MIN) {
                "(-2147483647 - 1)".into()
            } else {
                format!("({v})")
            }
        } else {
            v.to_string()
        });
    }
    Ok(format!("(({ct}){})", ll(v)?))
}

/// `v` wrapped into `ty`.
pub(super) fn wrap(v: i128, ty: IntTy) -> i128 {
    match type_bounds(ty) {
        None => v,
        Some((lo, hi)) => lo + (v - lo).rem_euclid(hi - lo + 1),
    }
}

/// Why the exact evaluation of a literal expression stopped.
pub(super) enum Stop {
    /// A division or remainder by zero (a runtime error of the program).
    DivZero,
    /// A value outside `long long` (or `i128`).
    TooBig,
}

/// The unbounded value of a literal expression (IMP's `int`), left to
/// right; `fits_ll` also requires every value to fit `long long`.
pub(super) fn eval(e: &Ex, fits_ll: bool) -> Result<i128, Stop> {
    let check = |v: Option<i128>| -> Result<i128, Stop> {
        let v = v.ok_or(Stop::TooBig)?;
        if fits_ll && (v < i128::from(i64::MIN) || v > i128::from(i64::MAX)) {
            return Err(Stop::TooBig);
        }
        Ok(v)
    };
    match e {
        Ex::Num(v) => check(Some(*v)),
        Ex::Un(UnOp::Neg, a) => check(eval(a, fits_ll)?.checked_neg()),
        Ex::Bin(op, a, b) => {
            let x = eval(a, fits_ll)?;
            let y = eval(b, fits_ll)?;
            match op {
                BinOp::Add => check(x.checked_add(y)),
                BinOp::Sub => check(x.checked_sub(y)),
                BinOp::Mul => check(x.checked_mul(y)),
                BinOp::Div | BinOp::Rem if y == 0 => Err(Stop::DivZero),
                BinOp::Div => check(x.checked_div(y)),
                BinOp::Rem => check(x.checked_rem(y)),
                // Bitwise operators on `int` are ill-typed.
                _ => Err(Stop::TooBig),
            }
        }
        // Typed parts are not literal expressions.
        _ => Err(Stop::TooBig),
    }
}

/// What a literal expression computed at `int` becomes in C.
pub(super) enum Open {
    /// Its value (no error).
    Value(i128),
    /// It divides by zero: the same operations in `long long`.
    Fails(String),
}

/// A literal expression in `long long` (every value fits: checked by
/// [`eval`] with `fits_ll`).
pub(super) fn open_ll(e: &Ex) -> Result<String, Unsupported> {
    Ok(match e {
        Ex::Num(v) => ll(*v)?,
        Ex::Un(UnOp::Neg, a) => format!("(-{})", open_ll(a)?),
        Ex::Bin(op, a, b) => format!("({} {} {})", open_ll(a)?, op.symbol(), open_ll(b)?),
        _ => return Err(Unsupported(format!("the literal expression {e:?}"))),
    })
}

pub(super) fn open(e: &Ex) -> Result<Open, Unsupported> {
    match eval(e, false) {
        Ok(v) => Ok(Open::Value(v)),
        Err(Stop::TooBig) => Err(Unsupported(format!(
            "the literal expression {e:?} outside i128"
        ))),
        Err(Stop::DivZero) => match eval(e, true) {
            Err(Stop::DivZero) => Ok(Open::Fails(open_ll(e)?)),
            _ => Err(Unsupported(format!(
                "the failing literal expression {e:?} outside long long"
            ))),
        },
    }
}
