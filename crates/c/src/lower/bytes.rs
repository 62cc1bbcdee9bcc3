//! `memset`, `memcpy` and `memmove` on a `void *` whose pointee the front
//! end does not know where it lowers the call: a generic allocator's
//! `memset(ptr, 0, n)` after `void *ptr = malloc(n)`, a `zero(void *p,
//! size_t n)` of the program's own. What the bytes cover is learnt when
//! the program runs: in a program that calls a byte function, each object
//! records its element's size in bytes and in slots when it is made
//! (`heap::allocate`), so `n` bytes are `ceil(n / bytes) * slots` slots
//! from the pointer — `n` for the bytes `malloc(16)` makes — the last
//! one written in part where the elements are of one slot ([`Cover`]),
//! else rounded up to the whole element. Each slot is written in every
//! memory (one per scalar type: which one holds the slot's value is its
//! type's business, unknown here), every access checked as any access through a pointer is. A
//! pointer's slot set to bytes other than 0 holds an address in no object
//! (a dereference of it is a `null_dereference`, where gcc's build
//! crashes).

use super::{heap, layout, memfns, CSpan, Fun, Res};
use crate::types::{CInt, CType, Rank};
use wiser_ir::{pointer, Diagnostic, Expr, Place, ScalarTy};
use wiser_num::{BinOp, CmpOp, IntTy};

/// The memories a slot may live in: the integers of each width, and
/// pointers.
fn memories() -> Vec<CType> {
    let mut out: Vec<CType> = [Rank::Char, Rank::Short, Rank::Int, Rank::LongLong]
        .into_iter()
        .map(|r| CType::Int(CInt::new(r, true)))
        .collect();
    out.push(CType::Pointer(Box::new(CType::Void)));
    out
}

/// What `n` bytes from a pointer cover, from the element layout its
/// object recorded.
struct Cover {
    /// How many slots (the last one perhaps in part).
    slots: Place,
    /// The bits of the last slot covered when the elements are of one
    /// slot and the count ends inside one (as `memset(p, 0xff, 5)` on an
    /// `int` array does); 0 when it is covered whole, or the elements
    /// have several slots (whose bytes are not known here: rounded up to
    /// the element, as docs/C.md says).
    last_bits: Place,
}

fn cover(f: &mut Fun, p: &Expr, n: Expr, at: CSpan) -> Res<Cover> {
    let span = f.span(at);
    let mem = heap::mem(f.u, f.rb.program());
    let Some((bytes, slots)) = mem.elem else {
        return Err(Diagnostic::new(
            span,
            "a byte function on a `void *` in a program whose objects record no layout (an internal error: please report it)",
        ));
    };
    let int = |v: i64| Expr::int(IntTy::INT, v);
    let field = heap::field_ty(ScalarTy::INT);
    let obj = pointer::object(p.clone(), span);
    // `NULL` (object 0) records nothing: a byte a slot, and the first
    // access is its null dereference.
    let eb = Expr::select(bytes, field, obj.clone());
    let eb = Expr::ite(Expr::cmp(CmpOp::Eq, eb.clone(), int(0)), int(1), eb);
    let es = Expr::select(slots, field, obj);
    let es = Expr::ite(Expr::cmp(CmpOp::Eq, es.clone(), int(0)), int(1), es);
    let (nt, ebt) = (f.rb.temp(ScalarTy::INT), f.rb.temp(ScalarTy::INT));
    f.rb.assign(nt, n, span);
    f.rb.assign(ebt, eb, span);
    let up = Expr::binary(
        BinOp::Add,
        f.rb.load(nt),
        Expr::binary(BinOp::Sub, f.rb.load(ebt), int(1), span),
        span,
    );
    let elems = Expr::binary(BinOp::Div, up, f.rb.load(ebt), span);
    let k = f.rb.temp(ScalarTy::INT);
    f.rb.assign(k, Expr::binary(BinOp::Mul, elems, es.clone(), span), span);
    let whole = Expr::binary(BinOp::Div, f.rb.load(nt), f.rb.load(ebt), span);
    let done = Expr::binary(BinOp::Mul, whole, f.rb.load(ebt), span);
    let rest = Expr::binary(BinOp::Sub, f.rb.load(nt), done, span);
    let part = Expr::and(
        Expr::cmp(CmpOp::Eq, es, int(1)),
        Expr::cmp(CmpOp::Gt, rest.clone(), int(0)),
    );
    let last_bits = f.rb.temp(ScalarTy::INT);
    let bits = Expr::binary(BinOp::Mul, rest, int(8), span);
    f.rb.assign(last_bits, Expr::ite(part, bits, int(0)), span);
    Ok(Cover {
        slots: k,
        last_bits,
    })
}

/// What is done to a slot: `(f, slot, mask)`, the mask `None` for a
/// slot written whole.
type SlotBody<'a> = dyn FnMut(&mut Fun, Expr, Option<Expr>) -> Res<()> + 'a;

/// The slots of a [`Cover`] written whole, and the one written in part:
/// `body(f, slot, mask)`, with `mask` the `u64` of the bits written of
/// a slot written in part.
fn each(f: &mut Fun, c: &Cover, down: bool, span: wiser_ir::Span, body: &mut SlotBody) -> Res<()> {
    let int = |v: i64| Expr::int(IntTy::INT, v);
    let partial = Expr::cmp(CmpOp::Gt, f.rb.load(c.last_bits), int(0));
    let whole = Expr::binary(
        BinOp::Sub,
        f.rb.load(c.slots),
        Expr::ite(partial.clone(), int(1), int(0)),
        span,
    );
    let wt = f.rb.temp(ScalarTy::INT);
    f.rb.assign(wt, whole, span);
    let last = |f: &mut Fun, body: &mut SlotBody| {
        let (some, end) = (f.rb.label(), f.rb.label());
        f.rb.branch(partial.clone(), some, end, span);
        f.rb.bind(some);
        let one = Expr::int(IntTy::U64, 1);
        let power = Expr::binary(
            BinOp::Shl,
            one.clone(),
            f.rb.load(c.last_bits).cast(IntTy::U64),
            span,
        );
        let mask = Expr::binary(BinOp::Sub, power, one, span);
        body(f, f.rb.load(wt), Some(mask))?;
        f.rb.jump(end);
        f.rb.bind(end);
        Ok(())
    };
    if down {
        last(f, body)?;
    }
    layout::times(f, f.rb.load(wt), down, span, &mut |f, i| body(f, i, None))?;
    if !down {
        last(f, body)?;
    }
    Ok(())
}

/// `memset(p, byte, n)` of a `void *` `p` (evaluated, in a temporary);
/// `byte` and `n` are values.
pub fn set(f: &mut Fun, p: Expr, byte: Expr, n: Expr, at: CSpan) -> Res<()> {
    let span = f.span(at);
    let c = cover(f, &p, n, at)?;
    let b = f.rb.temp(ScalarTy::Int(IntTy::I32));
    f.rb.assign(b, byte.cast(IntTy::I32), span);
    let memories: Vec<(wiser_ir::ArrayId, ScalarTy, CType)> = memories()
        .into_iter()
        .map(|t| {
            let held = heap::value_ty(f.u, &t).unwrap_or(ScalarTy::INT);
            Ok((heap::cell_array(f, &t, at)?.0, held, t))
        })
        .collect::<Res<_>>()?;
    each(f, &c, false, span, &mut |f, i, mask| {
        let q = heap::checked(f, Expr::binary(BinOp::Add, p.clone(), i, span), span);
        let qt = f.rb.temp(ScalarTy::INT);
        f.rb.assign(qt, q, span);
        for (array, held, t) in &memories {
            let v = match t {
                CType::Int(it) => {
                    memfns::repeated(f, f.rb.load(b), *it, span).cast(heap_storage(f, *it))
                }
                // Eight bytes of the value: 0 is `NULL`, anything else an
                // address in no object.
                _ => {
                    let long = CInt::new(Rank::LongLong, false);
                    memfns::repeated(f, f.rb.load(b), long, span).cast(IntTy::INT)
                }
            };
            let v = match &mask {
                None => v,
                Some(m) => {
                    let old = super::ptr::shared_select(f, *array, *held, f.rb.load(qt), span);
                    in_part(f, t, old, v, m.clone(), span)
                }
            };
            f.rb.store(*array, f.rb.load(qt), v, span);
            super::union_ptrs::after_store(f, f.rb.load(qt), t, at)?;
        }
        Ok(())
    })
}

/// A slot of memory `t` of which the bits of `mask` are written with
/// `new`: the merge of the bits for an integer, an address in no object
/// for a pointer.
fn in_part(f: &Fun, t: &CType, old: Expr, new: Expr, mask: Expr, span: wiser_ir::Span) -> Expr {
    match t {
        CType::Int(it) => memfns::merged(f, old, new, mask, *it, span).cast(heap_storage(f, *it)),
        _ => memfns::no_address(),
    }
}

/// The IR type memory holds integers of C type `t` in.
fn heap_storage(f: &Fun, t: CInt) -> IntTy {
    match heap::value_ty(f.u, &CType::Int(t)) {
        Some(ScalarTy::Int(it)) => it,
        _ => IntTy::INT,
    }
}

/// `memcpy(d, s, n)` or `memmove` (backwards when `d` is after `s`)
/// where one of them is a `void *`: every memory's slots, as many as `n`
/// bytes cover in both objects (the fewer: the bytes `malloc(16)` made
/// and then used as a structure hold it in its first slots).
pub fn copy(f: &mut Fun, d: Expr, s: Expr, n: Expr, memmove: bool, at: CSpan) -> Res<()> {
    let span = f.span(at);
    let cs = cover(f, &s, n.clone(), at)?;
    let cd = cover(f, &d, n, at)?;
    // The fewer slots; the last one in part only when it is so on both
    // sides alike.
    let k = f.rb.temp(ScalarTy::INT);
    let fewer = Expr::cmp(CmpOp::Lt, f.rb.load(cd.slots), f.rb.load(cs.slots));
    f.rb.assign(
        k,
        Expr::ite(fewer, f.rb.load(cd.slots), f.rb.load(cs.slots)),
        span,
    );
    let last_bits = f.rb.temp(ScalarTy::INT);
    let alike = Expr::and(
        Expr::cmp(CmpOp::Eq, f.rb.load(cd.slots), f.rb.load(cs.slots)),
        Expr::cmp(CmpOp::Eq, f.rb.load(cd.last_bits), f.rb.load(cs.last_bits)),
    );
    let bits = Expr::ite(alike, f.rb.load(cd.last_bits), Expr::int(IntTy::INT, 0));
    f.rb.assign(last_bits, bits, span);
    let c = Cover {
        slots: k,
        last_bits,
    };
    let memories: Vec<(wiser_ir::ArrayId, ScalarTy, CType)> = memories()
        .into_iter()
        .map(|t| {
            let held = heap::value_ty(f.u, &t).unwrap_or(ScalarTy::INT);
            Ok((heap::cell_array(f, &t, at)?.0, held, t))
        })
        .collect::<Res<_>>()?;
    let one = |f: &mut Fun, down: bool| {
        each(f, &c, down, span, &mut |f, i, mask| {
            let from = heap::checked(
                f,
                Expr::binary(BinOp::Add, s.clone(), i.clone(), span),
                span,
            );
            let to = heap::checked(f, Expr::binary(BinOp::Add, d.clone(), i, span), span);
            let (ft, tt) = (f.rb.temp(ScalarTy::INT), f.rb.temp(ScalarTy::INT));
            f.rb.assign(ft, from, span);
            f.rb.assign(tt, to, span);
            for (array, held, t) in &memories {
                let v = super::ptr::shared_select(f, *array, *held, f.rb.load(ft), span);
                let v = match &mask {
                    None => v,
                    Some(m) => {
                        let old = super::ptr::shared_select(f, *array, *held, f.rb.load(tt), span);
                        in_part(f, t, old, v, m.clone(), span)
                    }
                };
                f.rb.store(*array, f.rb.load(tt), v, span);
                super::union_ptrs::after_store(f, f.rb.load(tt), t, at)?;
            }
            Ok(())
        })
    };
    if !memmove {
        return one(f, false);
    }
    let (back, fwd, end) = (f.rb.label(), f.rb.label(), f.rb.label());
    f.rb.branch(Expr::cmp(CmpOp::Gt, d.clone(), s.clone()), back, fwd, span);
    f.rb.bind(back);
    one(f, true)?;
    f.rb.jump(end);
    f.rb.bind(fwd);
    one(f, false)?;
    f.rb.bind(end);
    Ok(())
}
