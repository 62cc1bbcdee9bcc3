//! Real floating types in expressions: literals, conversions to and
//! from them, arithmetic, and the `math.h` functions wiser knows. Every
//! operation is a [`FloatOp`] of the IR, whose one definition is
//! `wiser_num`'s; this module only decides which one C means.

use super::{CSpan, Fun, Res};
use crate::types::{CInt, Rank};
use lang_c::ast;
use wiser_ir::{Diagnostic, Expr};
use wiser_num::{BinOp, FBinOp, FClass, FUnOp, FloatOp, FloatTy, Int, IntTy, UnOp};

/// An arithmetic value and its C type.
type Val = (Expr, CInt);

/// A floating literal: the nearest value of its type (`f` suffix:
/// `float`, none: `double`, `l`: `long double`, computed as `double`).
pub fn literal(f: &Fun, lit: &ast::Float, at: CSpan) -> Res<Val> {
    let (bits, t) = constant(f.u, lit, at)?;
    Ok((Expr::float(t.float().expect("a floating type"), bits), t))
}

/// A floating literal's pattern and type (see [`literal`]).
pub fn constant(u: &super::Unit, lit: &ast::Float, at: CSpan) -> Res<(Int, CInt)> {
    let t = match lit.suffix.format {
        ast::FloatFormat::Float => CInt::FLOAT,
        ast::FloatFormat::Double => CInt::DOUBLE,
        ast::FloatFormat::LongDouble => CInt::new(Rank::LongDouble, true),
        ast::FloatFormat::TS18661Format(_) => {
            return Err(u.unsupported(at, "`_FloatN` and decimal floating constants"))
        }
    };
    if lit.suffix.imaginary {
        return Err(u.unsupported(at, "imaginary constants"));
    }
    let ft = t.float().expect("a floating type");
    let bits = match lit.base {
        ast::FloatBase::Decimal => ft.parse(&lit.number),
        ast::FloatBase::Hexadecimal => hex(ft, &lit.number),
    }
    .ok_or_else(|| Diagnostic::new(u.span(at), "this floating constant cannot be read"))?;
    Ok((bits, t))
}

/// A hexadecimal floating constant's digits and binary exponent
/// (`1.8p3`, the `0x` already gone), rounded once to `ft`.
fn hex(ft: FloatTy, s: &str) -> Option<Int> {
    let s = s.trim_start_matches("0x").trim_start_matches("0X");
    let (mant, exp) = s.split_once(['p', 'P'])?;
    let mut exp: i64 = exp.parse().ok()?;
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    // The digits as one integer; extra digits beyond 120 bits only add
    // sticky precision, which is kept by or-ing them into the last bit.
    let mut m: u128 = 0;
    let mut sticky = false;
    for (i, c) in int.chars().chain(frac.chars()).enumerate() {
        let d = c.to_digit(16)? as u128;
        if m >> 120 != 0 {
            sticky |= d != 0;
            if i < int.len() {
                exp += 4;
            }
            continue;
        }
        m = m * 16 + d;
        if i >= int.len() {
            exp -= 4;
        }
    }
    if sticky {
        m |= 1;
    }
    // `m * 2^exp`: converting `m` rounds only when it needs more than 53
    // bits (then twice: a constant with that many hex digits is rare);
    // scaling by a power of two is exact while the result is a normal
    // `double`, and the conversion to `ft` rounds once.
    let x = scale(m as f64, exp);
    Some(ft.from_f64(x))
}

/// `x * 2^e` in steps that stay exact while the result is normal.
fn scale(mut x: f64, mut e: i64) -> f64 {
    while e > 1000 {
        x *= 2f64.powi(1000);
        e -= 1000;
    }
    while e < -1000 {
        x *= 2f64.powi(-1000);
        e += 1000;
    }
    x * 2f64.powi(e as i32)
}

/// The conversion of `v` to `to` where either type is floating: rounding
/// to the nearest value, truncation toward zero (checked: a value that
/// does not fit is an error of its own kind), or `!= 0` to `_Bool`.
pub fn convert(v: Val, to: CInt, dm: crate::DataModel, span: wiser_ir::Span) -> Expr {
    let (e, from) = v;
    match (from.float(), to.float()) {
        (Some(a), Some(b)) if a == b => e,
        (Some(a), Some(b)) => Expr::float_op(FloatOp::Convert(a, b), vec![e], span),
        (None, Some(b)) => {
            let e = if from.rank == Rank::Bool {
                e.cast(IntTy::U8)
            } else {
                e
            };
            Expr::float_op(FloatOp::FromInt(from.ir(dm), b), vec![e], span)
        }
        (Some(_), None) if to.rank == Rank::Bool => e.int_to_bool().bool_to_int(to.ir(dm)),
        (Some(a), None) => Expr::float_op(FloatOp::ToInt(a, to.ir(dm)), vec![e], span),
        (None, None) => e.cast(to.ir(dm)),
    }
}

/// `l op r` on operands already converted to their common floating type
/// `t`; `%` and the bitwise operators are errors on floats, as in C.
pub fn binary(f: &Fun, op: BinOp, l: Expr, r: Expr, t: CInt, at: CSpan) -> Res<Expr> {
    let ft = t.float().expect("a floating type");
    let fop = match op {
        BinOp::Add => FBinOp::Add,
        BinOp::Sub => FBinOp::Sub,
        BinOp::Mul => FBinOp::Mul,
        BinOp::Div => FBinOp::Div,
        _ => {
            return Err(Diagnostic::new(
                f.span(at),
                format!("invalid operands to `{}`: `{}`", op.symbol(), t.c_name()),
            )
            .with_help("`%`, shifts and bitwise operators take integers; `fmod` is not modelled"))
        }
    };
    Ok(Expr::float_op(
        FloatOp::Binary(fop, ft),
        vec![l, r],
        f.span(at),
    ))
}

/// `op v` for a floating `v` (`-x`; `~x` is an error).
pub fn unary(f: &Fun, op: UnOp, v: Val, at: CSpan) -> Res<Val> {
    let ft = v.1.float().expect("a floating type");
    match op {
        UnOp::Neg => Ok((
            Expr::float_op(FloatOp::Unary(FUnOp::Neg, ft), vec![v.0], f.span(at)),
            v.1,
        )),
        UnOp::BitNot => Err(Diagnostic::new(
            f.span(at),
            format!("invalid operand to `~`: `{}`", v.1.c_name()),
        )),
    }
}

/// `1` of an arithmetic type (for `++` and `--`).
pub fn one(t: CInt, dm: crate::DataModel) -> Expr {
    match t.float() {
        Some(ft) => Expr::float(ft, ft.from_f64(1.0)),
        None => Expr::int(t.ir(dm), 1),
    }
}

/// What a `math.h` function (or the gcc builtin its macro expands to)
/// computes.
#[derive(Clone, Copy)]
enum MathFn {
    Unary(FUnOp),
    Binary(FBinOp),
    Fma,
    Class(FClass),
    /// `isfinite`: neither NaN nor infinite.
    Finite,
    /// gcc's `__builtin_isinf_sign`: -1 for -inf, 1 for +inf, else 0.
    InfSign,
    /// `__builtin_fpclassify(nan, inf, normal, subnormal, zero, x)`.
    Classify,
    /// `copysign(x, y)`: `|x|` with `y`'s sign.
    CopySign,
    /// `__builtin_inf`, `__builtin_huge_val`: +infinity.
    Infinity,
    /// `__builtin_nan("")`: the NaN.
    Nan,
}

/// The functions of one computation in `double` (`sqrt`), `float`
/// (`sqrtf`) and `long double` (`sqrtl`, computed as `double`).
const TYPED: [(&str, MathFn); 15] = [
    ("fabs", MathFn::Unary(FUnOp::Abs)),
    ("sqrt", MathFn::Unary(FUnOp::Sqrt)),
    ("floor", MathFn::Unary(FUnOp::Floor)),
    ("ceil", MathFn::Unary(FUnOp::Ceil)),
    ("trunc", MathFn::Unary(FUnOp::Trunc)),
    ("round", MathFn::Unary(FUnOp::Round)),
    ("rint", MathFn::Unary(FUnOp::RoundEven)),
    ("nearbyint", MathFn::Unary(FUnOp::RoundEven)),
    ("fmin", MathFn::Binary(FBinOp::Min)),
    ("fmax", MathFn::Binary(FBinOp::Max)),
    ("fma", MathFn::Fma),
    ("copysign", MathFn::CopySign),
    ("inf", MathFn::Infinity),
    ("huge_val", MathFn::Infinity),
    ("nan", MathFn::Nan),
];

/// The classification macros (and the builtins glibc's `math.h` expands
/// them to), which compute in their argument's type.
const GENERIC: [(&str, MathFn); 11] = [
    ("isnan", MathFn::Class(FClass::Nan)),
    ("isinf", MathFn::Class(FClass::Infinite)),
    ("isinf_sign", MathFn::InfSign),
    ("isnormal", MathFn::Class(FClass::Normal)),
    ("isfinite", MathFn::Finite),
    ("finite", MathFn::Finite),
    ("signbit", MathFn::Class(FClass::Negative)),
    ("signbitf", MathFn::Class(FClass::Negative)),
    ("signbitl", MathFn::Class(FClass::Negative)),
    ("fpclassify", MathFn::Classify),
    ("isnanf", MathFn::Class(FClass::Nan)),
];

/// The type a `math.h` name computes in (`None`: its argument's) and
/// what it computes; `None` when wiser does not model the name.
fn math_fn(name: &str) -> Option<(Option<FloatTy>, MathFn)> {
    let name = name.strip_prefix("__builtin_").unwrap_or(name);
    if let Some((_, m)) = GENERIC.iter().find(|(n, _)| *n == name) {
        return Some((None, *m));
    }
    TYPED.iter().find_map(|(n, m)| {
        let rest = name.strip_prefix(n)?;
        match rest {
            "" | "l" => Some((Some(FloatTy::F64), *m)),
            "f" => Some((Some(FloatTy::F32), *m)),
            _ => None,
        }
    })
}

/// A call of a `math.h` function: `None` if `name` is not one; the
/// arguments are evaluated by `arg` (each converted to the parameter
/// type as a prototype would).
pub fn call(
    f: &mut Fun,
    name: &str,
    args: &[lang_c::span::Node<ast::Expression>],
    at: CSpan,
    arg: &mut dyn FnMut(&mut Fun, &lang_c::span::Node<ast::Expression>) -> Res<Val>,
) -> Option<Res<Val>> {
    let (ty, m) = math_fn(name)?;
    Some((|| {
        let span = f.span(at);
        let arity = match m {
            MathFn::Infinity => 0,
            MathFn::Nan | MathFn::Unary(_) | MathFn::Class(_) | MathFn::Finite => 1,
            MathFn::InfSign => 1,
            MathFn::Binary(_) | MathFn::CopySign => 2,
            MathFn::Fma => 3,
            MathFn::Classify => 6,
        };
        if args.len() != arity {
            return Err(Diagnostic::new(
                span,
                format!("`{name}` takes {arity} argument(s), {} given", args.len()),
            ));
        }
        let dm = f.u.dm;
        let mut vals = Vec::new();
        if !matches!(m, MathFn::Nan) {
            for a in args {
                vals.push(arg(f, a)?);
            }
        }
        // `fpclassify`'s first five arguments are the values it returns.
        let mut results = Vec::new();
        if matches!(m, MathFn::Classify) {
            results = vals.drain(..5).collect();
        }
        // The generic macros compute in their argument's type.
        let ft = match ty {
            Some(t) => t,
            None => vals[0].1.float().unwrap_or(FloatTy::F64),
        };
        let ct = if ft == FloatTy::F32 {
            CInt::FLOAT
        } else {
            CInt::DOUBLE
        };
        let mut es: Vec<Expr> = Vec::new();
        for v in vals {
            es.push(convert(v, ct, dm, span));
        }
        let class = |c: FClass, e: Expr| Expr::float_op(FloatOp::Class(c, ft), vec![e], span);
        let as_int = |b: Expr| (b.bool_to_int(IntTy::I32), CInt::INT);
        Ok(match m {
            MathFn::Unary(op) => (Expr::float_op(FloatOp::Unary(op, ft), es, span), ct),
            MathFn::Binary(op) => {
                // Of two zeros, glibc's `fmin`/`fmax` give the second
                // operand on i386 and the first on x86-64 (C allows
                // either); the IR's operation gives the second.
                if dm == crate::DataModel::Lp64 {
                    es.reverse();
                }
                (Expr::float_op(FloatOp::Binary(op, ft), es, span), ct)
            }
            MathFn::Fma => (Expr::float_op(FloatOp::Fma(ft), es, span), ct),
            MathFn::Class(c) => as_int(class(c, es.remove(0))),
            MathFn::Finite => {
                let x = es.remove(0);
                let bad = Expr::or(class(FClass::Nan, x.clone()), class(FClass::Infinite, x));
                as_int(Expr::logical_not(bad))
            }
            MathFn::InfSign => {
                let x = es.remove(0);
                let sign = Expr::ite(
                    class(FClass::Negative, x.clone()),
                    Expr::int(IntTy::I32, -1),
                    Expr::int(IntTy::I32, 1),
                );
                let v = Expr::ite(class(FClass::Infinite, x), sign, Expr::int(IntTy::I32, 0));
                (v, CInt::INT)
            }
            MathFn::Classify => {
                let x = es.remove(0);
                let r: Vec<Expr> = results
                    .into_iter()
                    .map(|v| convert(v, CInt::INT, dm, span))
                    .collect();
                let mut v = r[2].clone();
                for (c, k) in [
                    (FClass::Subnormal, 3),
                    (FClass::Zero, 4),
                    (FClass::Infinite, 1),
                    (FClass::Nan, 0),
                ] {
                    v = Expr::ite(class(c, x.clone()), r[k].clone(), v);
                }
                (v, CInt::INT)
            }
            MathFn::CopySign => {
                let y = es.remove(1);
                let x = es.remove(0);
                let abs = Expr::float_op(FloatOp::Unary(FUnOp::Abs, ft), vec![x], span);
                let neg = Expr::float_op(FloatOp::Unary(FUnOp::Neg, ft), vec![abs.clone()], span);
                (Expr::ite(class(FClass::Negative, y), neg, abs), ct)
            }
            MathFn::Infinity => (Expr::float(ft, ft.from_f64(f64::INFINITY)), ct),
            MathFn::Nan => (Expr::float(ft, ft.nan()), ct),
        })
    })())
}
