//! `sprintf` and `snprintf`: formatted output into a buffer, which a
//! program reads back (`strlen`, `strcmp`, an overflow of the buffer), so
//! its bytes are part of the program's state, symbolic where the values
//! are. The format is read here, once, by the one reader of formats
//! ([`super::output::parts`], `wiser_num::printf`), and each piece is
//! written by a function of the C library (`__wiser_put_int`,
//! `__wiser_put_str`, ... in `libc/libc.c`), run by the one semantics
//! like the program: every store into the buffer is checked (a `sprintf`
//! past its buffer is an `out_of_bounds` where the library stores), and a
//! symbolic integer is written digit by digit, its paths forked as the
//! loop runs (as KLEE's C library does). `printf` formats in Rust
//! (`wiser_num::printf`) because its output is printed, not read: the
//! tests hold both to glibc's output.

use super::call::LibraryCall;
use super::expr::{self, Val};
use super::output::held;
use super::ptr::{self, Value};
use super::{heap, CSpan, Fun, Res};
use crate::types::{CInt, CType, Rank};
use lang_c::ast;
use wiser_ir::{Diagnostic, Expr, Part, ScalarTy};
use wiser_num::printf::{Conv, Spec};
use wiser_num::{BinOp, CmpOp, Int, IntTy};

/// An argument of a library function: a pointer, or an integer converted
/// to its parameter's type.
enum Arg {
    Ptr(Expr),
    Int(Val),
}

/// Lowers `sprintf(d, fmt, ...)` and `snprintf(d, n, fmt, ...)`; `None`
/// for other names.
pub fn call(f: &mut Fun, name: &str, c: &ast::CallExpression, at: CSpan) -> LibraryCall {
    let (d, room, fmt, values) = match (name, c.arguments.as_slice()) {
        ("sprintf", [d, fmt, rest @ ..]) => (d, None, fmt, rest),
        ("snprintf", [d, n, fmt, rest @ ..]) => (d, Some(n), fmt, rest),
        _ => return Ok(None),
    };
    let span = f.span(at);
    let (buf, pointee) = ptr::pointer(f, d)?;
    if !matches!(pointee, CType::Int(t) if t.rank == Rank::Char) {
        return Err(Diagnostic::new(
            f.span(d.span),
            format!(
                "`{name}` writes into a `{} *`, not a `char *`",
                pointee.describe_in(f)
            ),
        ));
    }
    let buf = held(f, buf, ScalarTy::INT, true, span);
    let size_t = CInt::new(Rank::Long, false);
    let room = match room {
        Some(n) => {
            let v = expr::rvalue(f, n)?;
            let v = expr::convert(f, v, size_t);
            held(f, v, size_t.scalar(f.u.dm), true, span)
        }
        None => {
            let ty = size_t.ir(f.u.dm);
            Expr::int(ty, ty.max().unwrap_or_else(|| Int::from(-1)))
        }
    };
    let parts = match super::output::parts(f, name, fmt, values, at)? {
        Ok(parts) => parts,
        Err((at, why)) => return Err(f.u.unsupported(at, &why)),
    };
    let char_cells = heap::cell_array(f, &CType::Int(CInt::new(Rank::Char, true)), at)?.0;
    let mut pos = (Expr::int(size_t.ir(f.u.dm), 0), size_t);
    for part in parts {
        let mut args = vec![
            Arg::Ptr(buf.clone()),
            Arg::Int((room.clone(), size_t)),
            Arg::Int(pos),
        ];
        let helper = match part {
            Part::Text(text) => {
                let s = super::strings::object(f, text);
                args.extend([Arg::Ptr(s), int(0), int(0), int(-1)]);
                "__wiser_put_str"
            }
            Part::Str(array, s, spec) if array == char_cells => {
                args.extend([Arg::Ptr(s)]);
                args.extend(layout_of(&spec, false));
                "__wiser_put_str"
            }
            Part::Float(..) => {
                return Err(f.u.unsupported(
                    at,
                    &format!("a floating conversion (`%f`, `%e`, `%g`) in `{name}`"),
                ))
            }
            Part::Str(..) => {
                return Err(f.u.unsupported(
                    at,
                    &format!("a `%s` of an array variable in `{name}` (use a `char *`)"),
                ))
            }
            Part::Int(v, spec) => match spec.conv {
                Conv::Char => {
                    let c = v.cast(IntTy::I32);
                    args.extend([Arg::Int((c, CInt::new(Rank::Int, true)))]);
                    args.extend(layout_of(&spec, false).into_iter().take(2));
                    "__wiser_put_chr"
                }
                Conv::Pointer | Conv::Str => {
                    return Err(f.u.unsupported(at, &format!("`%p` in `{name}`")))
                }
                conv => {
                    let (mag, neg) = sign_and_magnitude(f, v, span);
                    let base = match conv {
                        Conv::Octal => 8,
                        Conv::Hex | Conv::HexUpper => 16,
                        _ => 10,
                    };
                    let ull = CInt::new(Rank::LongLong, false);
                    args.extend([Arg::Int((mag, ull)), Arg::Int((neg, int_t())), int(base)]);
                    args.extend(layout_of(&spec, conv == Conv::HexUpper));
                    "__wiser_put_int"
                }
            },
        };
        let next = library(f, helper, args, span)?;
        pos = (next, size_t);
    }
    let n = library(
        f,
        "__wiser_put_end",
        vec![Arg::Ptr(buf), Arg::Int((room, size_t)), Arg::Int(pos)],
        span,
    )?;
    Ok(Some(Some(Value::Int((n, int_t())))))
}

fn int_t() -> CInt {
    CInt::new(Rank::Int, true)
}

/// An `int` constant argument.
fn int(v: i64) -> Arg {
    Arg::Int((Expr::int(IntTy::I32, v), int_t()))
}

/// The flags (as `libc.c`'s bits), the width and the precision of a
/// conversion, as `int` arguments.
fn layout_of(spec: &Spec, upper: bool) -> Vec<Arg> {
    let fl = spec.flags;
    let bits = [fl.left, fl.zero, fl.plus, fl.space, fl.alt, upper]
        .iter()
        .enumerate()
        .fold(0i64, |acc, (k, on)| acc | (i64::from(*on) << k));
    vec![
        int(bits),
        int(spec.width.map_or(0, i64::from)),
        int(spec.precision.map_or(-1, i64::from)),
    ]
}

/// The magnitude (an `unsigned long long`) and the sign (`int`, 1 when
/// negative) of an integer of the conversion's type.
fn sign_and_magnitude(f: &mut Fun, v: Expr, span: wiser_ir::Span) -> (Expr, Expr) {
    let v = held(f, v.clone(), v.ty(), true, span);
    let signed = v.int_ty().is_some_and(|t| t.is_signed());
    if !signed {
        return (v.cast(IntTy::U64), Expr::int(IntTy::I32, 0));
    }
    let t = v.int_ty().unwrap_or(IntTy::I32);
    let negative = Expr::cmp(CmpOp::Lt, v.clone(), Expr::int(t, 0));
    // `-v` in 64 unsigned bits: the magnitude of the smallest value too.
    let wide = v.cast(IntTy::U64);
    let minus = Expr::binary(
        BinOp::Sub,
        Expr::int(IntTy::U64, Int::from(0)),
        wide.clone(),
        span,
    );
    (
        Expr::ite(negative.clone(), minus, wide),
        Expr::ite(negative, Expr::int(IntTy::I32, 1), Expr::int(IntTy::I32, 0)),
    )
}

/// Calls the C library's `name` (kept in the unit by `libc.rs` for a
/// program that uses `sprintf` or `snprintf`) with `args`; its result.
fn library(f: &mut Fun, name: &str, args: Vec<Arg>, span: wiser_ir::Span) -> Res<Expr> {
    let Some(info) = f.u.funcs.get(name).filter(|i| i.def.is_some()) else {
        return Err(Diagnostic::new(
            span,
            format!("wiser's C library lacks `{name}` (an internal error: please report it)"),
        ));
    };
    let (params, ret) = (info.params.clone(), info.ret.clone());
    let mut values = Vec::with_capacity(args.len());
    let mut arrays = Vec::new();
    for ((_, pty), a) in params.iter().zip(args) {
        match (pty, a) {
            (CType::Int(t), Arg::Int(v)) => values.push(expr::convert(f, v, *t)),
            (_, Arg::Ptr(p)) => {
                arrays.push(None);
                values.push(p);
            }
            (_, Arg::Int((v, _))) => values.push(v),
        }
    }
    let proc = f.u.instance(f.rb.program(), name, arrays)?;
    let CType::Int(rt) = ret else {
        return Err(Diagnostic::new(
            span,
            format!("`{name}` returns no integer"),
        ));
    };
    let dst = f.rb.temp(rt.scalar(f.u.dm));
    f.rb.call(proc, values, Some(dst), span);
    Ok(f.rb.load(dst))
}
