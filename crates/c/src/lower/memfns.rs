//! `memset`, `memcpy`, `memmove` and `memcmp`: the C library's functions
//! over raw bytes, on typed memory. They are lowered here rather than
//! written in C (as `libc/libc.c` is) because what they touch depends on
//! the type their `void *` arguments had before the conversion: `memset(p,
//! 0, n * sizeof *p)` writes `n` elements of `p`'s pointee, slot by slot,
//! each store checked as any access through a pointer is (an overflow is
//! an `out_of_bounds`). A byte count that ends inside an element writes
//! the bytes it covers of that last element ([`partial`]). Bytes that
//! typed memory cannot hold are an error: a nonzero byte into a pointer,
//! or the bytes of a structure compared by `memcmp` (its padding has no
//! value here). A `void *` all the way (a
//! generic allocator's) is `bytes.rs`'s: its object's layout is learnt
//! when the program runs.

use super::call::LibraryCall;
use super::expr;
use super::ptr::{self, Value};
use super::{consts, heap, layout, unions, CSpan, Fun, Res, Var};
use crate::types::{CInt, CType, Rank};
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

/// A byte count in elements of one type: the whole elements, and the
/// bytes of one more that it ends inside.
struct Count {
    /// How many whole elements (an `int`).
    whole: Place,
    /// The bytes of the next element that the count covers (`0 ..
    /// size`, a `u64`); `None` when the count is a constant number of
    /// whole elements.
    rest: Option<Place>,
}

/// `n` bytes counted in elements of `elem`.
fn count(f: &mut Fun, elem: &CType, n: &Node<E>) -> Res<Count> {
    let Some((size, _)) = layout::bytes(f.u, elem) else {
        return Err(f
            .u
            .unsupported(n.span, "a byte count of a type without a known size"));
    };
    let span = f.span(n.span);
    let exact = size <= 1 || constant(f, n).is_some_and(|v| v.is_multiple_of(size));
    // In `size_t`'s 64 bits, as C converts it (a negative `int` count is
    // a huge one), and bit-vector arithmetic that solvers take whole.
    let (v, _) = expr::rvalue(f, n)?;
    let bytes = f.rb.temp(ScalarTy::Int(IntTy::U64));
    f.rb.assign(bytes, v.cast(IntTy::U64), span);
    let size = Expr::int(IntTy::U64, Int::from_u64(size));
    let whole = f.rb.temp(ScalarTy::INT);
    let quotient = Expr::binary(BinOp::Div, f.rb.load(bytes), size.clone(), span);
    f.rb.assign(whole, quotient.cast(IntTy::INT), span);
    if exact {
        return Ok(Count { whole, rest: None });
    }
    let rest = f.rb.temp(ScalarTy::Int(IntTy::U64));
    let left = Expr::binary(BinOp::Rem, f.rb.load(bytes), size, span);
    f.rb.assign(rest, left, span);
    Ok(Count {
        whole,
        rest: Some(rest),
    })
}

/// Calls `body` for each scalar of element `i` (of type `elem`) that the
/// first `rest` bytes of it reach, under a branch of its own, with the
/// bits of it they cover as a `u64` mask (all its bits, or the low `8 *
/// rest - bit`, as x86 is little-endian): the last, partial element of a
/// byte count, written byte-exactly as gcc's `memset` writes it.
fn partial(
    f: &mut Fun,
    rest: &Place,
    elem: &CType,
    at: CSpan,
    body: &mut dyn FnMut(&mut Fun, &unions::Scalar, Expr) -> Res<()>,
) -> Res<()> {
    let span = f.span(at);
    let Some(scalars) = unions::scalars(f.u, elem) else {
        return Err(f.u.unsupported(
            at,
            &format!(
                "a byte count that may end inside an element of type `{}`, which has more than {} scalars",
                elem.describe_in(f),
                unions::MAX_SCALARS
            ),
        ));
    };
    let u64c = |v: u64| Expr::int(IntTy::U64, Int::from_u64(v));
    let end = f.rb.label();
    let some = f.rb.label();
    let positive = Expr::cmp(CmpOp::Gt, f.rb.load(*rest), u64c(0));
    f.rb.branch(positive, some, end, span);
    f.rb.bind(some);
    let bits = Expr::binary(BinOp::Mul, f.rb.load(*rest), u64c(8), span);
    for s in &scalars {
        let (reached, next) = (f.rb.label(), f.rb.label());
        let cond = Expr::cmp(CmpOp::Gt, bits.clone(), u64c(s.bit));
        f.rb.branch(cond, reached, next, span);
        f.rb.bind(reached);
        // The bits covered, at most 64: `1 << c` in two shifts of at
        // most 32 each, so that `c = 64` gives all ones after `- 1`.
        let past = Expr::binary(BinOp::Sub, bits.clone(), u64c(s.bit), span);
        let within = Expr::cmp(CmpOp::Lt, past.clone(), u64c(s.bits));
        let c = f.rb.temp(ScalarTy::Int(IntTy::U64));
        f.rb.assign(c, Expr::ite(within, past, u64c(s.bits)), span);
        let half = Expr::binary(BinOp::Div, f.rb.load(c), u64c(2), span);
        let other = Expr::binary(BinOp::Sub, f.rb.load(c), half.clone(), span);
        let one = Expr::binary(BinOp::Shl, u64c(1), half, span);
        let power = Expr::binary(BinOp::Shl, one, other, span);
        body(f, s, Expr::binary(BinOp::Sub, power, u64c(1), span))?;
        f.rb.jump(next);
        f.rb.bind(next);
    }
    f.rb.jump(end);
    f.rb.bind(end);
    Ok(())
}

/// `old` with the bits of `mask` taken from `new` (integers of type `t`).
pub(super) fn merged(
    f: &Fun,
    old: Expr,
    new: Expr,
    mask: Expr,
    t: CInt,
    span: wiser_ir::Span,
) -> Expr {
    let (old, new) = (old.cast(IntTy::U64), new.cast(IntTy::U64));
    let differ = Expr::binary(BinOp::BitXor, old.clone(), new, span);
    let taken = Expr::binary(BinOp::BitAnd, differ, mask, span);
    Expr::binary(BinOp::BitXor, old, taken, span).cast(t.ir(f.u.dm))
}

/// A pointer some of whose bytes were overwritten: an address in no
/// object (its dereference is a `null_dereference`), and not `NULL`.
pub(super) fn no_address() -> Expr {
    Expr::int(IntTy::INT, Int::from_u64(1 << 63))
}

/// The new value of a scalar of which `mask` is written with `new`: `new`
/// when that is all of it, else the merge of the bits (an integer) or an
/// address in no object (a pointer).
fn written(
    f: &mut Fun,
    s: &unions::Scalar,
    old: Expr,
    new: Expr,
    mask: Expr,
    span: wiser_ir::Span,
) -> Expr {
    let all = Expr::int(
        IntTy::U64,
        Int::from_u64(u64::MAX >> (64 - s.bits.clamp(1, 64))),
    );
    let whole = Expr::cmp(CmpOp::Eq, mask.clone(), all);
    match s.ty.int() {
        Some(t) => merged(f, old, new, mask, t, span),
        None if matches!(s.ty, CType::Pointer(_)) => Expr::ite(whole, new, no_address()),
        None => new,
    }
}

/// The value of the scalar of type `ty` at slot `off` of element `i` of
/// `t`.
fn read(f: &mut Fun, t: &Target, i: Expr, off: u64, ty: &CType, span: wiser_ir::Span) -> Res<Expr> {
    Ok(match t {
        Target::Memory(q, qt) => {
            let from = slot(f, q, qt, i, off, span);
            load(f, ty, from, span)?
        }
        Target::Array(o) => {
            let (a, i) = element(f, o, i, span);
            let aty = super::decl::array_ty(f.u, o.elem);
            f.shared(Expr::select(a, aty, i), span)
        }
        Target::Untyped(_) => return Err(untyped_here(span)),
    })
}

/// Stores `v` into the scalar of type `ty` at slot `off` of element `i`
/// of `t`.
fn write(f: &mut Fun, t: &Target, i: Expr, off: u64, ty: &CType, v: Expr, at: CSpan) -> Res<()> {
    let span = f.span(at);
    match t {
        Target::Memory(p, pt) => {
            let to = slot(f, p, pt, i, off, span);
            heap::store(f, ty, to.clone(), v, span)?;
            super::union_ptrs::after_store(f, to, ty, at)?;
        }
        Target::Array(o) => {
            let (a, i) = element(f, o, i, span);
            f.rb.store(a, i, v, span);
        }
        Target::Untyped(_) => return Err(untyped_here(span)),
    }
    Ok(())
}

/// The value of `byte` repeated in every byte of an integer of type `t`
/// whose first bit is bit `rot` of a byte (a bit-field's: `0x0f`'s bytes
/// seen from bit 3 are `0x01e1…e1`).
fn pattern(f: &Fun, byte: Expr, t: CInt, rot: u64, span: wiser_ir::Span) -> Expr {
    if rot == 0 {
        return repeated(f, byte, t, span);
    }
    let all = repeated(f, byte, CInt::new(Rank::LongLong, false), span);
    let amount = Expr::int(IntTy::U64, Int::from_u64(rot));
    Expr::binary(BinOp::Shr, all, amount, span).cast(t.ir(f.u.dm))
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
            // A bit-field's bits start inside a byte: where, by slot.
            let scalars = unions::scalars(f.u, &elem);
            if scalars.is_none() && !zero && layout::has_bit_fields(f.u, &elem) {
                return Err(f.u.unsupported(
                    at,
                    &format!(
                        "`memset` to a byte other than 0 of a `{}`, which has bit-fields and more than {} scalars",
                        elem.describe_in(f),
                        unions::MAX_SCALARS
                    ),
                ));
            }
            let rot = |slot: u64| {
                scalars
                    .iter()
                    .flatten()
                    .find(|s| s.slot == slot)
                    .map_or(0, |s| s.bit % 8)
            };
            let value = |f: &mut Fun, ty: &CType, rot: u64| match ty.int() {
                Some(it) => pattern(f, f.rb.load(bt), it, rot, span),
                None => ptr::null(),
            };
            let n = count(f, &elem, n)?;
            layout::times(f, f.rb.load(n.whole), false, span, &mut |f, i| {
                for run in &runs {
                    for k in 0..run.count {
                        let off = run.offset + k * run.stride;
                        let v = value(f, &run.ty, rot(off));
                        write(f, &dst, i.clone(), off, &run.ty, v, at)?;
                    }
                }
                Ok(())
            })?;
            if let Some(rest) = &n.rest {
                let i = f.rb.load(n.whole);
                partial(f, rest, &elem, at, &mut |f, s, mask| {
                    let old = read(f, &dst, i.clone(), s.slot, &s.ty, span)?;
                    let new = value(f, &s.ty, s.bit % 8);
                    let v = written(f, s, old, new, mask, span);
                    write(f, &dst, i.clone(), s.slot, &s.ty, v, at)
                })?;
            }
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
            let whole = |f: &mut Fun, down: bool| {
                layout::times(f, f.rb.load(n.whole), down, span, &mut |f, i| {
                    for run in &runs {
                        for k in 0..run.count {
                            let off = run.offset + k * run.stride;
                            let v = read(f, &src, i.clone(), off, &run.ty, span)?;
                            write(f, &dst, i.clone(), off, &run.ty, v, at)?;
                        }
                    }
                    Ok(())
                })
            };
            // The bytes of a last, partial element (read before the
            // whole ones are written when copying backwards).
            let last = |f: &mut Fun| match &n.rest {
                Some(rest) => {
                    let i = f.rb.load(n.whole);
                    partial(f, rest, &de, at, &mut |f, s, mask| {
                        let new = read(f, &src, i.clone(), s.slot, &s.ty, span)?;
                        let old = read(f, &dst, i.clone(), s.slot, &s.ty, span)?;
                        let v = written(f, s, old, new, mask, span);
                        write(f, &dst, i.clone(), s.slot, &s.ty, v, at)
                    })
                }
                None => Ok(()),
            };
            match down {
                Some(cond) => {
                    let (back, fwd, end) = (f.rb.label(), f.rb.label(), f.rb.label());
                    f.rb.branch(cond, back, fwd, span);
                    f.rb.bind(back);
                    last(f)?;
                    whole(f, true)?;
                    f.rb.jump(end);
                    f.rb.bind(fwd);
                    whole(f, false)?;
                    last(f)?;
                    f.rb.bind(end);
                }
                None => {
                    whole(f, false)?;
                    last(f)?;
                }
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
    let n = count(f, &CType::Int(uchar), n)?.whole;
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
