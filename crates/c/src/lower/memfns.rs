//! `memset`, `memcpy`, `memmove` and `memcmp`: the C library's functions
//! over raw bytes, on typed memory. They are lowered here rather than
//! written in C (as `libc/libc.c` is) because what they touch depends on
//! the type their `void *` arguments had before the conversion: `memset(p,
//! 0, n * sizeof *p)` writes `n` elements of `p`'s pointee, slot by slot,
//! each store checked as any access through a pointer is (an overflow is
//! an `out_of_bounds`). A byte count that is no whole number of elements
//! is an error, and so are bytes that typed memory cannot hold: a nonzero
//! byte into a pointer, or the bytes of a structure compared by
//! `memcmp` (its padding has no value here). A `void *` all the way (a
//! generic allocator's) is `bytes.rs`'s: its object's layout is learnt
//! when the program runs.

use super::call::LibraryCall;
use super::expr;
use super::ptr::{self, Value};
use super::{consts, heap, layout, CSpan, Fun, Res, Var};
use crate::types::{CInt, CType};
use lang_c::ast::{self, Expression as E};
use lang_c::span::Node;
use wiser_ir::{Diagnostic, Expr, Place, ScalarTy};
use wiser_num::{BinOp, CmpOp, Int, IntTy};

/// What a byte-wise argument points to: an object of the memory model (a
/// pointer and its pointee type), or an array variable of the IR's own.
enum Target {
    Memory(Expr, CType),
    Array(super::ArrObj),
    /// A `void *` all the way: its object's layout is learnt when the
    /// program runs (`bytes.rs`).
    Untyped(Expr),
}

/// The target of argument `e` (evaluated once, into a temporary).
fn target(f: &mut Fun, e: &Node<E>) -> Res<Target> {
    if let E::Identifier(id) = &e.node {
        if let Some(Var::Array(obj)) = f.lookup(&id.node.name) {
            return Ok(Target::Array(obj));
        }
    }
    let (p, t) = ptr::pointer(f, e)?;
    let span = f.span(e.span);
    let tmp = f.rb.temp(ScalarTy::INT);
    f.rb.assign(tmp, p, span);
    if matches!(t, CType::Void | CType::Opaque(..)) {
        return Ok(Target::Untyped(f.rb.load(tmp)));
    }
    Ok(Target::Memory(f.rb.load(tmp), t))
}

impl Target {
    /// The element type.
    fn elem(&self) -> CType {
        match self {
            Target::Memory(_, t) => t.clone(),
            Target::Array(o) => CType::Int(o.elem),
            Target::Untyped(_) => CType::Void,
        }
    }

    /// The pointer of a target in the memory model (an array variable
    /// has none).
    fn pointer(&self) -> Option<Expr> {
        match self {
            Target::Memory(p, _) | Target::Untyped(p) => Some(p.clone()),
            Target::Array(_) => None,
        }
    }
}

/// The value of the byte count `n` when it is a constant. (Folding the
/// lowered count is no test: its `%` carries a division check.)
fn constant(f: &Fun, n: &Node<E>) -> Option<u64> {
    let (v, _) = consts::eval(f.u, &|x: &str| f.lookup(x), n).ok()?;
    u64::try_from(v.to_i64()?).ok()
}

/// The number of elements of `elem` that `n` bytes are (an `int`, in a
/// temporary), with the check that it is a whole number.
fn count(f: &mut Fun, elem: &CType, n: &Node<E>) -> Res<Place> {
    let Some((size, _)) = layout::bytes(f.u, elem) else {
        return Err(f
            .u
            .unsupported(n.span, "a byte count of a type without a known size"));
    };
    let span = f.span(n.span);
    if constant(f, n).is_some_and(|v| !v.is_multiple_of(size)) {
        return Err(f.u.unsupported(
            n.span,
            &format!(
                "a constant byte count that ends inside an element of type `{}` ({size} bytes; typed memory writes whole elements)",
                elem.describe_in(f)
            ),
        ));
    }
    let (v, _) = expr::rvalue(f, n)?;
    let v = v.cast(IntTy::INT);
    let size = Expr::int(IntTy::INT, Int::from_u64(size));
    // A count known only when the program runs is rounded up: the bytes
    // of a last, partial element are an access to it (its bounds are
    // checked exactly; its value is written whole, an approximation that
    // docs/C.md states).
    let up = Expr::binary(
        BinOp::Add,
        v,
        Expr::binary(
            BinOp::Sub,
            size.clone(),
            Expr::int(IntTy::INT, Int::from(1)),
            span,
        ),
        span,
    );
    let tmp = f.rb.temp(ScalarTy::INT);
    f.rb.assign(tmp, Expr::binary(BinOp::Div, up, size, span), span);
    Ok(tmp)
}

/// The slot pointer of element `i` of a memory target, checked.
fn slot(f: &mut Fun, p: &Expr, elem: &CType, i: Expr, offset: u64, span: wiser_ir::Span) -> Expr {
    let size = Expr::int(IntTy::INT, Int::from_u64(layout::slots(f.u, elem)));
    let at = Expr::binary(
        BinOp::Add,
        p.clone(),
        Expr::binary(BinOp::Mul, i, size, span),
        span,
    );
    heap::checked(f, layout::plus(at, offset, span), span)
}

/// Element `i` of an array variable, checked against its length.
fn element(f: &Fun, o: &super::ArrObj, i: Expr, span: wiser_ir::Span) -> (wiser_ir::ArrayId, Expr) {
    let total = o.dims.iter().fold(None::<Expr>, |acc, d| {
        let len = match d {
            super::Dim::Const(n) => Expr::int(IntTy::U64, Int::from_u64(*n)),
            super::Dim::Var(p) => f.rb.load(*p),
        };
        Some(match acc {
            None => len,
            Some(a) => Expr::binary(BinOp::Mul, a, len, span),
        })
    });
    let ty = super::decl::array_ty(f.u, o.elem);
    let i = i.cast(IntTy::U64);
    let i = match total {
        Some(len) => Expr::bounded_index(ty, i, len, span),
        None => i,
    };
    (o.id, i)
}

/// The value of `byte` repeated in every byte of an integer of type `t`.
pub(super) fn repeated(f: &Fun, byte: Expr, t: CInt, span: wiser_ir::Span) -> Expr {
    let it = t.ir(f.u.dm);
    // In 64 unsigned bits: `0xff << 56` is no signed overflow.
    let b = Expr::binary(
        BinOp::BitAnd,
        byte.cast(IntTy::U64),
        Expr::int(IntTy::U64, 255),
        span,
    );
    let mut v = b.clone();
    for k in 1..t.bits(f.u.dm) / 8 {
        let shifted = Expr::binary(
            BinOp::Shl,
            b.clone(),
            Expr::int(IntTy::U64, Int::from(8 * i64::from(k))),
            span,
        );
        v = Expr::binary(BinOp::BitOr, v, shifted, span);
    }
    v.cast(it)
}

/// Lowers `memset`, `memcpy`, `memmove` and `memcmp`; `None` for other
/// names.
pub fn call(f: &mut Fun, name: &str, c: &ast::CallExpression, at: CSpan) -> LibraryCall {
    let span = f.span(at);
    match (name, c.arguments.as_slice()) {
        ("memset", [d, byte, n]) => {
            let dst = target(f, d)?;
            if let Target::Untyped(p) = &dst {
                let (b, _) = expr::rvalue(f, byte)?;
                let (n, _) = expr::rvalue(f, n)?;
                super::bytes::set(f, p.clone(), b, n.cast(IntTy::INT), at)?;
                return Ok(Some(result(&dst)));
            }
            let elem = dst.elem();
            let (b, _) = expr::rvalue(f, byte)?;
            let zero =
                consts::eval(f.u, &|x: &str| f.lookup(x), byte).is_ok_and(|(v, _)| v.is_zero());
            let bt = f.rb.temp(ScalarTy::Int(IntTy::I32));
            f.rb.assign(bt, b.cast(IntTy::I32), span);
            let runs = layout::runs(f.u, &elem);
            if !zero && runs.iter().any(|r| r.ty.int().is_none()) {
                return Err(f
                    .u
                    .unsupported(byte.span, "`memset` of pointers to a byte other than 0"));
            }
            let n = count(f, &elem, n)?;
            layout::times(f, f.rb.load(n), false, span, &mut |f, i| {
                match &dst {
                    Target::Array(o) => {
                        let v = repeated(f, f.rb.load(bt), o.elem, span);
                        let (a, i) = element(f, o, i, span);
                        f.rb.store(a, i, v, span);
                    }
                    Target::Untyped(_) => return Err(untyped_here(span)),
                    Target::Memory(p, t) => {
                        for run in &runs {
                            for k in 0..run.count {
                                let q = slot(f, p, t, i.clone(), run.offset + k * run.stride, span);
                                let v = match run.ty.int() {
                                    Some(it) => repeated(f, f.rb.load(bt), it, span),
                                    None => ptr::null(),
                                };
                                heap::store(f, &run.ty, q.clone(), v, span)?;
                                super::union_ptrs::after_store(f, q, &run.ty, at)?;
                            }
                        }
                    }
                }
                Ok(())
            })?;
            Ok(Some(result(&dst)))
        }
        ("memcpy" | "memmove", [d, s, n]) => {
            let dst = target(f, d)?;
            let src = target(f, s)?;
            if matches!(dst, Target::Untyped(_)) || matches!(src, Target::Untyped(_)) {
                let (Some(dp), Some(sp)) = (dst.pointer(), src.pointer()) else {
                    return Err(f.u.unsupported(
                        at,
                        &format!("`{name}` between an array variable and a `void *`"),
                    ));
                };
                let (n, _) = expr::rvalue(f, n)?;
                super::bytes::copy(f, dp, sp, n.cast(IntTy::INT), name == "memmove", at)?;
                return Ok(Some(result(&dst)));
            }
            let (de, se) = (dst.elem(), src.elem());
            let same = match (&de, &se) {
                (CType::Int(a), CType::Int(b)) => a.bits(f.u.dm) == b.bits(f.u.dm),
                (a, b) => a == b,
            };
            if !same {
                return Err(f.u.unsupported(
                    at,
                    &format!(
                        "`{name}` from `{}`s to `{}`s (typed memory copies elements of one type)",
                        se.describe_in(f),
                        de.describe_in(f)
                    ),
                ));
            }
            let n = count(f, &de, n)?;
            // `memmove` copies backwards when the destination is after
            // the source in one object, so that overlap is harmless.
            let down = match (&dst, &src) {
                (Target::Memory(p, _), Target::Memory(q, _)) if name == "memmove" => {
                    Some(Expr::cmp(CmpOp::Gt, p.clone(), q.clone()))
                }
                _ => None,
            };
            let runs = layout::runs(f.u, &de);
            let copy = |f: &mut Fun, down: bool| {
                layout::times(f, f.rb.load(n), down, span, &mut |f, i| {
                    for run in &runs {
                        for k in 0..run.count {
                            let off = run.offset + k * run.stride;
                            let v = match &src {
                                Target::Memory(q, t) => {
                                    let from = slot(f, q, t, i.clone(), off, span);
                                    load(f, &run.ty, from, span)?
                                }
                                Target::Array(o) => {
                                    let (a, i) = element(f, o, i.clone(), span);
                                    let ty = super::decl::array_ty(f.u, o.elem);
                                    f.shared(Expr::select(a, ty, i), span)
                                }
                                Target::Untyped(_) => return Err(untyped_here(span)),
                            };
                            match &dst {
                                Target::Memory(p, t) => {
                                    let to = slot(f, p, t, i.clone(), off, span);
                                    heap::store(f, &run.ty, to.clone(), v, span)?;
                                    super::union_ptrs::after_store(f, to, &run.ty, at)?;
                                }
                                Target::Array(o) => {
                                    let (a, i) = element(f, o, i.clone(), span);
                                    f.rb.store(a, i, v, span);
                                }
                                Target::Untyped(_) => return Err(untyped_here(span)),
                            }
                        }
                    }
                    Ok(())
                })
            };
            match down {
                Some(cond) => {
                    let (back, fwd, end) = (f.rb.label(), f.rb.label(), f.rb.label());
                    f.rb.branch(cond, back, fwd, span);
                    f.rb.bind(back);
                    copy(f, true)?;
                    f.rb.jump(end);
                    f.rb.bind(fwd);
                    copy(f, false)?;
                    f.rb.bind(end);
                }
                None => copy(f, false)?,
            }
            Ok(Some(result(&dst)))
        }
        ("memcmp", [a, b, n]) => {
            let v = memcmp(f, a, b, n, at)?;
            Ok(Some(Some(Value::Int((v, CInt::INT)))))
        }
        ("memset" | "memcpy" | "memmove" | "memcmp", _) => Err(Diagnostic::new(
            span,
            format!("`{name}` takes three arguments"),
        )),
        _ => Ok(None),
    }
}

/// The value of a slot of type `ty` (an integer or a pointer) at `q`.
fn load(f: &mut Fun, ty: &CType, q: Expr, span: wiser_ir::Span) -> Res<Expr> {
    let (array, _) = heap::cell_array(f, ty, CSpan::none())?;
    Ok(match ty {
        CType::Int(t) => heap::load_int(f, array, q, *t, span),
        _ => ptr::shared_select(f, array, ScalarTy::INT, q, span),
    })
}

/// What `memset`, `memcpy` and `memmove` return: the destination (none
/// for an array variable, which is no pointer value here).
fn result(dst: &Target) -> Option<Value> {
    match dst {
        Target::Memory(p, t) => Some(Value::Ptr(p.clone(), t.clone())),
        Target::Untyped(p) => Some(Value::Ptr(p.clone(), CType::Void)),
        Target::Array(_) => None,
    }
}

/// `memcmp(a, b, n)` of two `char` sequences: the difference of the first
/// two bytes that differ, as `unsigned char`s, or 0; it stops at the first
/// difference, as a byte-wise comparison does.
fn memcmp(f: &mut Fun, a: &Node<E>, b: &Node<E>, n: &Node<E>, at: CSpan) -> Res<Expr> {
    let span = f.span(at);
    let (l, r) = (target(f, a)?, target(f, b)?);
    let byte = |t: &CType| matches!(t, CType::Int(i) if i.bits(f.u.dm) == 8);
    if !byte(&l.elem()) || !byte(&r.elem()) {
        return Err(f.u.unsupported(
            at,
            "`memcmp` of other than `char`s (the bytes of wider values, or of what a `void *` points to, have no order here)",
        ));
    }
    let uchar = CInt::new(crate::types::Rank::Char, false);
    let n = count(f, &CType::Int(uchar), n)?;
    let int = |v: i64| Expr::int(IntTy::I32, Int::from(v));
    let res = f.rb.temp(ScalarTy::Int(IntTy::I32));
    f.rb.assign(res, int(0), span);
    let k = f.rb.temp(ScalarTy::INT);
    f.rb.assign(k, Expr::int(IntTy::INT, Int::from(0)), span);
    let (head, next, end) = (f.rb.label(), f.rb.label(), f.rb.label());
    f.rb.bind(head);
    let more = Expr::and(
        Expr::cmp(CmpOp::Lt, f.rb.load(k), f.rb.load(n)),
        Expr::cmp(CmpOp::Eq, f.rb.load(res), int(0)),
    );
    f.rb.branch(more, next, end, span);
    f.rb.bind(next);
    let byte_at = |f: &mut Fun, t: &Target| -> Res<Expr> {
        Ok(match t {
            Target::Memory(p, pt) => {
                let q = slot(f, p, pt, f.rb.load(k), 0, span);
                load(f, &CType::Int(uchar), q, span)?
            }
            Target::Array(o) => {
                let (arr, i) = element(f, o, f.rb.load(k), span);
                let ty = super::decl::array_ty(f.u, o.elem);
                f.shared(Expr::select(arr, ty, i), span).cast(IntTy::U8)
            }
            Target::Untyped(_) => return Err(untyped_here(span)),
        })
    };
    let x = byte_at(f, &l)?.cast(IntTy::I32);
    let y = byte_at(f, &r)?.cast(IntTy::I32);
    f.rb.assign(res, Expr::binary(BinOp::Sub, x, y, span), span);
    let step = Expr::binary(
        BinOp::Add,
        f.rb.load(k),
        Expr::int(IntTy::INT, Int::from(1)),
        span,
    );
    f.rb.assign(k, step, span);
    f.rb.jump(head);
    f.rb.bind(end);
    Ok(f.rb.load(res))
}

/// The error of a typed lowering reached with a `void *` target (which
/// `bytes.rs` lowers before).
fn untyped_here(span: wiser_ir::Span) -> Diagnostic {
    Diagnostic::new(
        span,
        "a byte function's typed lowering got a `void *` (an internal error: please report it)",
    )
}
