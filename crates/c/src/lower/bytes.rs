//! `memset`, `memcpy` and `memmove` on a `void *` whose pointee the front
//! end does not know where it lowers the call: a generic allocator's
//! `memset(ptr, 0, n)` after `void *ptr = malloc(n)`, a `zero(void *p,
//! size_t n)` of the program's own. What the bytes cover is learnt when
//! the program runs: in a program that calls a byte function, each object
//! records its element's size in bytes and in slots when it is made
//! (`heap::allocate`), so `n` bytes are `ceil(n / bytes) * slots` slots
//! from the pointer — `n` for the bytes `malloc(16)` makes — rounded up
//! to whole elements as `memfns.rs` rounds a count known only at run
//! time. Each slot is written in every memory (one per scalar type:
//! which one holds the slot's value is its type's business, unknown
//! here), every access checked as any access through a pointer is. A
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

/// How many slots `n` bytes from `p` cover (in a temporary), from the
/// element layout `p`'s object recorded.
fn slots(f: &mut Fun, p: &Expr, n: Expr, at: CSpan) -> Res<Place> {
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
    let up = Expr::binary(
        BinOp::Add,
        n,
        Expr::binary(BinOp::Sub, eb.clone(), int(1), span),
        span,
    );
    let elems = Expr::binary(BinOp::Div, up, eb, span);
    let k = f.rb.temp(ScalarTy::INT);
    f.rb.assign(k, Expr::binary(BinOp::Mul, elems, es, span), span);
    Ok(k)
}

/// `memset(p, byte, n)` of a `void *` `p` (evaluated, in a temporary);
/// `byte` and `n` are values.
pub fn set(f: &mut Fun, p: Expr, byte: Expr, n: Expr, at: CSpan) -> Res<()> {
    let span = f.span(at);
    let k = slots(f, &p, n, at)?;
    let b = f.rb.temp(ScalarTy::Int(IntTy::I32));
    f.rb.assign(b, byte.cast(IntTy::I32), span);
    let memories: Vec<(wiser_ir::ArrayId, CType)> = memories()
        .into_iter()
        .map(|t| Ok((heap::cell_array(f, &t, at)?.0, t)))
        .collect::<Res<_>>()?;
    layout::times(f, f.rb.load(k), false, span, &mut |f, i| {
        let q = heap::checked(f, Expr::binary(BinOp::Add, p.clone(), i, span), span);
        let qt = f.rb.temp(ScalarTy::INT);
        f.rb.assign(qt, q, span);
        for (array, t) in &memories {
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
            f.rb.store(*array, f.rb.load(qt), v, span);
            super::union_ptrs::after_store(f, f.rb.load(qt), t, at)?;
        }
        Ok(())
    })
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
    let ks = slots(f, &s, n.clone(), at)?;
    let kd = slots(f, &d, n, at)?;
    let k = f.rb.temp(ScalarTy::INT);
    let fewer = Expr::cmp(CmpOp::Lt, f.rb.load(kd), f.rb.load(ks));
    f.rb.assign(k, Expr::ite(fewer, f.rb.load(kd), f.rb.load(ks)), span);
    let memories: Vec<(wiser_ir::ArrayId, ScalarTy, CType)> = memories()
        .into_iter()
        .map(|t| {
            let held = heap::value_ty(f.u, &t).unwrap_or(ScalarTy::INT);
            Ok((heap::cell_array(f, &t, at)?.0, held, t))
        })
        .collect::<Res<_>>()?;
    let one = |f: &mut Fun, down: bool| {
        layout::times(f, f.rb.load(k), down, span, &mut |f, i| {
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
