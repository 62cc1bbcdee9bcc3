//! `malloc`, `calloc`, `realloc` and `free`: objects of one or more elements of a
//! structure, integer or pointer type (`malloc(sizeof(T))`,
//! `malloc(n * sizeof(T))`, `calloc(n, sizeof(T))`). A `malloc`'d object
//! of one element has integer members that hold any value (C leaves them
//! indeterminate; a witness gives the values, like an uninitialised
//! local's) and `NULL` pointer members; of several elements, every element
//! holds any value; `calloc` zeroes them all. `malloc` never fails.
//! `free(p)` checks that `malloc` made the object and `p` is its start
//! (else an invalid free: a variable, a global structure, an interior
//! pointer) and that it is not freed already (a double free), then sets
//! its `$freed` flag, which every later access
//! through a pointer checks (a use after free); `free(NULL)` does
//! nothing. `$live` counts the objects `malloc` made and `free` did not
//! free: when `main` returns, one that no global reaches is a memory
//! leak ([`super::leaks`]).

use super::call::LibraryCall;
use super::ptr::{self, Value};
use super::{consts, heap, layout, CSpan, Fun, Res};
use crate::types::CType;
use lang_c::ast::{self, Expression as E};
use lang_c::span::Node;
use wiser_ir::{pointer, Diagnostic, ErrorKind, Expr, Place, ScalarTy};
use wiser_num::{BinOp, CmpOp, IntTy};

/// One element.
fn one() -> Expr {
    Expr::int(IntTy::INT, 1)
}

/// Makes a fresh object of structure `sid` in `place`; with `havoc`, its
/// integer members hold any value (inputs, named by the member; the
/// elements of an array member are the memory's own arbitrary contents)
/// and its pointers are `NULL`; without, every slot is zero.
pub fn fresh(f: &mut Fun, place: Place, sid: u32, havoc: bool, span: wiser_ir::Span) -> Res<()> {
    let ty = CType::Struct(sid);
    heap::allocate(f, place, &ty, one(), false, span);
    layout::zero(f, &ty, f.rb.load(place), !havoc, span);
    if havoc {
        for run in layout::runs(f.u, &ty) {
            let (Some(t), 1) = (run.ty.int(), run.count) else {
                continue;
            };
            let tmp = f.rb.temp(t.scalar(f.u.dm));
            f.rb.havoc(tmp, span);
            f.u.member_reads
                .insert((span, run.offset), run.path.clone());
            let q = layout::plus(f.rb.load(place), run.offset, span);
            let v = f.rb.load(tmp);
            heap::store(f, &run.ty, q, v, span)?;
        }
    }
    Ok(())
}

/// The type `sizeof` measures in `e` (`sizeof(struct S)`, `sizeof *p`).
fn sized(f: &Fun, e: &Node<E>) -> Option<CType> {
    match &e.node {
        E::SizeOfTy(t) => super::declarator::type_name(f.u, &t.node.0.node).ok(),
        E::SizeOfVal(v) => {
            super::static_type::static_type(f.u, &|n: &str| f.lookup(n), &v.node.0).ok()
        }
        E::Cast(c) => sized(f, &c.node.expression),
        _ => None,
    }
}

/// What `malloc`'s argument asks for: `sizeof(T)` (one `T`), or
/// `n * sizeof(T)`, `sizeof(T) * n` (`n` of them): the type and `n`.
fn counted<'e>(f: &Fun, e: &'e Node<E>) -> Option<(CType, Option<&'e Node<E>>)> {
    if let Some(t) = sized(f, e) {
        return Some((t, None));
    }
    let E::BinaryOperator(b) = &e.node else {
        return None;
    };
    if b.node.operator.node != ast::BinaryOperator::Multiply {
        return None;
    }
    match (sized(f, &b.node.lhs), sized(f, &b.node.rhs)) {
        (Some(t), None) => Some((t, Some(&b.node.rhs))),
        (None, Some(t)) => Some((t, Some(&b.node.lhs))),
        _ => None,
    }
}

/// An element count as an IR `int`.
fn count(f: &mut Fun, n: &Node<E>) -> Res<Expr> {
    let (v, _) = super::expr::rvalue(f, n)?;
    Ok(v.cast(IntTy::INT))
}

/// A fresh object of `n` elements of type `ty` (`None`: one), made by
/// `malloc` (`zeroed`: `calloc`). One element is zeroed or has input
/// integers (named in witnesses by the allocation); of several, `calloc`
/// zeroes every one and `malloc` leaves them holding any value.
fn object(f: &mut Fun, ty: &CType, n: Option<Expr>, zeroed: bool, at: CSpan) -> Res<(Expr, CType)> {
    let span = f.span(at);
    let place = f.rb.temp(ScalarTy::INT);
    // The count is read once: the length and `calloc`'s loop use it.
    let n = n.map(|n| {
        let t = f.rb.temp(ScalarTy::INT);
        f.rb.assign(t, n, span);
        f.rb.load(t)
    });
    let len = n.clone().unwrap_or_else(one);
    match ty {
        CType::Struct(i) if n.is_none() => fresh(f, place, *i, !zeroed, span)?,
        CType::Struct(_) => heap::allocate(f, place, ty, len.clone(), false, span),
        CType::Int(_) | CType::Pointer(_) => {
            heap::cell_array(f, ty, at)?;
            heap::allocate(f, place, ty, len.clone(), n.is_none(), span);
            if let (false, Some(t), None) = (zeroed, ty.int(), &n) {
                let tmp = f.rb.temp(t.scalar(f.u.dm));
                f.rb.havoc(tmp, span);
                let (obj, v) = (f.rb.load(place), f.rb.load(tmp));
                heap::store(f, ty, obj, v, span)?;
            }
        }
        _ => return Err(unsupported(f, at)),
    };
    if zeroed && n.is_some() {
        zero_all(f, ty, place, len, span);
    }
    let mem = heap::mem(f.u, f.rb.program());
    let obj = pointer::object(f.rb.load(place), span);
    f.rb.store(mem.malloced, obj.clone(), Expr::bool(true), span);
    if let Some((_, last_malloc)) = mem.reuse {
        f.rb.assign(last_malloc, obj, span);
    }
    let more = Expr::binary(BinOp::Add, f.rb.load(mem.live), one(), span);
    f.rb.assign(mem.live, more, span);
    Ok((f.rb.load(place), ty.clone()))
}

/// An object of `n` bytes of a type `malloc`'s argument does not say: `n`
/// `char`s, so that the program may use it as bytes, and as anything else
/// with its bounds checked only as far as `n` slots go (a slot is at least
/// a byte): then out-of-bounds accesses are not all checked, which the
/// unit says ([`heap::Heap::unchecked`]).
fn untyped(f: &mut Fun, n: Expr, at: CSpan) -> Res<(Expr, CType)> {
    f.u.heap.untyped = true;
    let uchar = CType::Int(crate::types::CInt::new(crate::types::Rank::Char, false));
    object(f, &uchar, Some(n), false, at)
}

/// Zeroes the `len` elements of type `ty` of the object `place` points
/// to (a loop).
pub fn zero_all(f: &mut Fun, ty: &CType, place: Place, len: Expr, span: wiser_ir::Span) {
    let size = Expr::int(IntTy::INT, wiser_num::Int::from_u64(layout::slots(f.u, ty)));
    // (The body never fails: nothing to pass on.)
    let _ = layout::times(f, len, false, span, &mut |f, i| {
        let at = Expr::binary(BinOp::Mul, i, size.clone(), span);
        let p = Expr::binary(BinOp::Add, f.rb.load(place), at, span);
        layout::zero(f, ty, p, true, span);
        Ok(())
    });
}

fn unsupported(f: &Fun, at: CSpan) -> Diagnostic {
    f.u.unsupported(
        at,
        "this allocation: wiser allocates `malloc(sizeof(T))`, `malloc(n * sizeof(T))` and `calloc(n, sizeof(T))` for an integer, pointer or structure type `T`",
    )
}

/// `realloc`'s work once it does not fail: the old object (the pointer in
/// `old`, possibly `NULL`) checked as `free` checks it, a new object of
/// `n` elements of `ty`, the elements both have moved, the old one freed.
fn moved_to_new(f: &mut Fun, ty: &CType, old: Place, n: Expr, at: CSpan) -> Res<(Expr, CType)> {
    let span = f.span(at);
    // The old object is checked as `free` checks it, before
    // anything is made or copied.
    let (yes, made) = (f.rb.label(), f.rb.label());
    let nonnull = Expr::cmp(CmpOp::Ne, f.rb.load(old), ptr::null());
    let obj = f.rb.temp(ScalarTy::INT);
    f.rb.branch(nonnull, yes, made, span);
    f.rb.bind(yes);
    let o = freeable(f, old, span);
    f.rb.assign(obj, o, span);
    f.rb.bind(made);
    let (v, t) = object(f, ty, Some(n.clone()), false, at)?;
    let new = f.rb.temp(ScalarTy::INT);
    f.rb.assign(new, v, span);
    // The elements both objects have move to the new one; then the
    // old one is freed.
    let (copy, end) = (f.rb.label(), f.rb.label());
    let nonnull = Expr::cmp(CmpOp::Ne, f.rb.load(old), ptr::null());
    f.rb.branch(nonnull, copy, end, span);
    f.rb.bind(copy);
    let mem = heap::mem(f.u, f.rb.program());
    let size = Expr::int(IntTy::INT, wiser_num::Int::from_u64(layout::slots(f.u, ty)));
    let old_len = Expr::select(mem.len, heap::field_ty(ScalarTy::INT), f.rb.load(obj));
    let old_n = Expr::binary(BinOp::Div, old_len, size.clone(), span);
    let fewer = Expr::cmp(CmpOp::Lt, old_n.clone(), n.clone());
    let both = f.rb.temp(ScalarTy::INT);
    f.rb.assign(both, Expr::ite(fewer, old_n, n), span);
    let both = f.rb.load(both);
    layout::times(f, both, false, span, &mut |f, i| {
        let at_i = Expr::binary(BinOp::Mul, i, size.clone(), span);
        let to = Expr::binary(BinOp::Add, f.rb.load(new), at_i.clone(), span);
        let from = Expr::binary(BinOp::Add, f.rb.load(old), at_i, span);
        layout::copy(f, ty, to, from, span);
        Ok(())
    })?;
    let o = f.rb.load(obj);
    release(f, o, span);
    f.rb.bind(end);
    Ok((f.rb.load(new), t))
}

/// `make` an allocation; with `--malloc-may-fail`, first choose whether
/// it fails (a read of the witness, named `malloc at 12:9 fails`): then
/// the result is `NULL` and nothing is made.
fn may_fail(
    f: &mut Fun,
    name: &str,
    at: CSpan,
    make: &mut dyn FnMut(&mut Fun) -> Res<(Expr, CType)>,
) -> Res<(Expr, CType)> {
    if !f.u.malloc_may_fail {
        return make(f);
    }
    let span = f.span(at);
    f.u.allocation_choices += 1;
    let choice = environment_choice(
        f,
        format!("${name} fails #{}", f.u.allocation_choices),
        span,
    );
    let res = f.rb.temp(ScalarTy::INT);
    let (fails, works, end) = (f.rb.label(), f.rb.label(), f.rb.label());
    let failed = Expr::cmp(CmpOp::Ne, f.rb.load(choice), Expr::int(IntTy::U8, 0));
    f.rb.branch(failed, fails, works, span);
    f.rb.bind(fails);
    f.rb.assign(res, ptr::null(), span);
    f.rb.jump(end);
    f.rb.bind(works);
    let (v, t) = make(f)?;
    f.rb.assign(res, v, span);
    f.rb.bind(end);
    Ok((f.rb.load(res), t))
}

/// Lowers `malloc`, `calloc`, `realloc` and `free`; `None` for other names.
pub fn call(f: &mut Fun, name: &str, c: &ast::CallExpression, at: CSpan) -> LibraryCall {
    let span = f.span(at);
    match (name, c.arguments.as_slice()) {
        ("malloc", [size]) => {
            let Some((ty, n)) = counted(f, size) else {
                // `malloc(16)`: `size` bytes of a type not known here.
                let n = count(f, size)?;
                let (v, _) = may_fail(f, "malloc", at, &mut |f| untyped(f, n.clone(), at))?;
                return Ok(Some(Some(Value::Ptr(v, CType::Void))));
            };
            let n = n.map(|n| count(f, n)).transpose()?;
            let (v, t) = may_fail(f, "malloc", at, &mut |f| {
                object(f, &ty, n.clone(), false, at)
            })?;
            Ok(Some(Some(Value::Ptr(v, t))))
        }
        ("calloc", [n, size]) => {
            let one = consts::eval(f.u, &|x: &str| f.lookup(x), n)
                .is_ok_and(|(v, _)| v == wiser_num::Int::from(1));
            let ty = sized(f, size).ok_or_else(|| unsupported(f, at))?;
            let n = if one { None } else { Some(count(f, n)?) };
            let (v, t) = may_fail(f, "calloc", at, &mut |f| {
                object(f, &ty, n.clone(), true, at)
            })?;
            Ok(Some(Some(Value::Ptr(v, t))))
        }
        ("free", [p]) => {
            if ptr::is_null(f, p) && !ptr::is_pointer(f, p) {
                return Ok(Some(None));
            }
            // Any pointer type: what `free` knows of objects is indexed by
            // references, whatever their class.
            let (v, _) = ptr::pointer(f, p)?;
            let tmp = f.rb.temp(ScalarTy::INT);
            f.rb.assign(tmp, v, span);
            let (yes, end) = (f.rb.label(), f.rb.label());
            let nonnull = Expr::cmp(CmpOp::Ne, f.rb.load(tmp), ptr::null());
            f.rb.branch(nonnull, yes, end, span);
            f.rb.bind(yes);
            let obj = freeable(f, tmp, span);
            release(f, obj, span);
            f.rb.bind(end);
            Ok(Some(None))
        }
        ("realloc", [p, size]) => {
            let (ty, n) = match counted(f, size) {
                Some((ty, n)) => (ty, n.map(|n| count(f, n)).transpose()?.unwrap_or_else(one)),
                None => {
                    f.u.heap.untyped = true;
                    let uchar =
                        CType::Int(crate::types::CInt::new(crate::types::Rank::Char, false));
                    (uchar, count(f, size)?)
                }
            };
            let old = f.rb.temp(ScalarTy::INT);
            if ptr::is_null(f, p) && !ptr::is_pointer(f, p) {
                f.rb.assign(old, ptr::null(), span);
            } else {
                let (v, _) = ptr::pointer(f, p)?;
                f.rb.assign(old, v, span);
            }
            let n = {
                let t = f.rb.temp(ScalarTy::INT);
                f.rb.assign(t, n, span);
                f.rb.load(t)
            };
            // With `--malloc-may-fail` it may fail: `NULL`, the old object
            // as it was.
            let (v, t) = may_fail(f, "realloc", at, &mut |f| {
                moved_to_new(f, &ty, old, n.clone(), at)
            })?;
            Ok(Some(Some(Value::Ptr(v, t))))
        }
        ("malloc" | "calloc" | "free" | "realloc", _) => Err(unsupported(f, at)),
        _ => Ok(None),
    }
}

/// The object of the pointer in `p` (not `NULL`), checked as `free`
/// checks it: `malloc` made it and `p` is its start (else an invalid
/// free), and it is not freed yet (else a double free).
fn freeable(f: &mut Fun, p: Place, span: wiser_ir::Span) -> Expr {
    let mem = heap::mem(f.u, f.rb.program());
    let obj = pointer::object(f.rb.load(p), span);
    // Only the start of an object `malloc` made may be freed.
    let interior = Expr::cmp(
        CmpOp::Ne,
        pointer::offset(f.rb.load(p), span),
        Expr::int(IntTy::INT, 0),
    );
    let flags = heap::FLAG_TY;
    let not_malloced = Expr::logical_not(Expr::select(mem.malloced, flags, obj.clone()));
    let invalid = Expr::or(interior, not_malloced);
    obj.fault_if(invalid, ErrorKind::InvalidFree, span)
        .fault_if(
            Expr::select(mem.freed, flags, pointer::object(f.rb.load(p), span)),
            ErrorKind::DoubleFree,
            span,
        )
}

/// Frees the object `obj` ([`freeable`]): every later access through a
/// pointer into it is a use after free, and it is no longer live.
fn release(f: &mut Fun, obj: Expr, span: wiser_ir::Span) {
    let mem = heap::mem(f.u, f.rb.program());
    if let Some((freed_after, last_malloc)) = mem.reuse {
        let last = f.rb.load(last_malloc);
        f.rb.store(freed_after, obj.clone(), last, span);
    }
    f.rb.store(mem.freed, obj, Expr::bool(true), span);
    let fewer = Expr::binary(BinOp::Sub, f.rb.load(mem.live), one(), span);
    f.rb.assign(mem.live, fewer, span);
}

/// `a == b` for two pointers (neither a `NULL` constant), with the reuse
/// of addresses `malloc` may make: once an object is freed, an object
/// `malloc` makes later may have its address, so a pointer into the freed
/// one and one at the same offset into the new one may be equal — a
/// choice of the environment, an input (`the freed object's address is
/// reused at 12:9`; glibc reuses a freed block of the same size at once).
/// Two pointers into live objects, or into objects that never coexisted
/// in that order, compare as their values do — and so do all pointers of
/// a program that never frees (no branch, no choice: the common case
/// costs one comparison).
pub fn equal_addresses(f: &mut Fun, a: Expr, b: Expr, at: CSpan) -> Expr {
    if !f.u.frees {
        return Expr::cmp(CmpOp::Eq, a, b);
    }
    let span = f.span(at);
    let mem = heap::mem(f.u, f.rb.program());
    let Some((freed_after, _)) = mem.reuse else {
        return Expr::cmp(CmpOp::Eq, a, b);
    };
    let (pa, pb) = (f.rb.temp(ScalarTy::INT), f.rb.temp(ScalarTy::INT));
    f.rb.assign(pa, a, span);
    f.rb.assign(pb, b, span);
    let (a, b) = (f.rb.load(pa), f.rb.load(pb));
    let (oa, ob) = (
        pointer::object(a.clone(), span),
        pointer::object(b.clone(), span),
    );
    let flags = heap::FLAG_TY;
    let field = heap::field_ty(ScalarTy::INT);
    // `y` was made by `malloc` after `x`, made by `malloc`, was freed
    // (references count down: a later object's is smaller).
    let reusable = |x: &Expr, y: &Expr| {
        Expr::and(
            Expr::and(
                Expr::select(mem.freed, flags, x.clone()),
                Expr::select(mem.malloced, flags, x.clone()),
            ),
            Expr::and(
                Expr::select(mem.malloced, flags, y.clone()),
                Expr::cmp(
                    CmpOp::Lt,
                    y.clone(),
                    Expr::select(freed_after, field, x.clone()),
                ),
            ),
        )
    };
    let same_offset = Expr::cmp(
        CmpOp::Eq,
        pointer::offset(a.clone(), span),
        pointer::offset(b.clone(), span),
    );
    let may_reuse = Expr::and(
        Expr::and(Expr::cmp(CmpOp::Ne, oa.clone(), ob.clone()), same_offset),
        Expr::or(reusable(&oa, &ob), reusable(&ob, &oa)),
    );
    let res = f.rb.temp(ScalarTy::Int(IntTy::U8));
    let (reused, plain, end) = (f.rb.label(), f.rb.label(), f.rb.label());
    f.rb.branch(may_reuse, reused, plain, span);
    f.rb.bind(reused);
    f.u.address_choices += 1;
    let choice = environment_choice(f, format!("$address reused #{}", f.u.address_choices), span);
    f.rb.assign(res, f.rb.load(choice), span);
    f.rb.jump(end);
    f.rb.bind(plain);
    let equal = Expr::ite(
        Expr::cmp(CmpOp::Eq, a, b),
        Expr::int(IntTy::U8, 1),
        Expr::int(IntTy::U8, 0),
    );
    f.rb.assign(res, equal, span);
    f.rb.bind(end);
    Expr::cmp(CmpOp::Ne, f.rb.load(res), Expr::int(IntTy::U8, 0))
}

/// A yes-or-no choice of the program's environment (0 or 1): a global of
/// its own, named for witnesses (`args::argument_name` reads the name),
/// read where the choice is made.
fn environment_choice(f: &mut Fun, name: String, span: wiser_ir::Span) -> Place {
    let choice = f.rb.program().global(
        name,
        ScalarTy::Int(IntTy::U8),
        Some(wiser_num::Int::from(0)),
    );
    f.rb.havoc(choice, span);
    let boolean = Expr::cmp(CmpOp::Le, f.rb.load(choice), Expr::int(IntTy::U8, 1));
    f.rb.assume(boolean, span);
    choice
}
