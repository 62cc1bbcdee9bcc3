//! `malloc`, `calloc` and `free` of single objects: a structure, or a
//! cell holding one integer or pointer. `malloc` makes a fresh object
//! whose integer members hold any value (C leaves them indeterminate; a
//! witness gives the values, like an uninitialised local's) and whose
//! pointer members are `NULL`; `calloc` zeroes them. `malloc` never
//! fails. `free(p)` checks that `malloc` made the object (else an invalid
//! free: a variable, a global structure) and that it is not freed already
//! (a double free), then sets its `$freed` flag, which every later access
//! through a pointer checks (a use after free); `free(NULL)` does
//! nothing. `$live` counts the objects `malloc` made and `free` did not
//! free: when `main` returns, they are unreachable unless a global can
//! hold a pointer, and then a memory leak ([`leak_check`]). Arrays on the
//! heap (`malloc(n * sizeof(int))`) are outside the subset.

use super::call::LibraryCall;
use super::ptr::{self, Value};
use super::{consts, heap, CSpan, Fun, Res};
use crate::types::CType;
use lang_c::ast::{self, Expression as E};
use lang_c::span::Node;
use wiser_ir::{Diagnostic, ErrorKind, Expr, Place, ScalarTy};
use wiser_num::{BinOp, CmpOp, IntTy};

/// Makes a fresh object of structure `sid` in `place`; with `havoc`, its
/// integer members are inputs.
pub fn fresh(f: &mut Fun, place: Place, sid: u32, havoc: bool, span: wiser_ir::Span) -> Res<()> {
    let class = heap::class_of(f.u, f.rb.program(), sid, CSpan::none())?;
    f.rb.new_object(place, class.id, span);
    if havoc {
        let mut ints: Vec<_> = class
            .fields
            .iter()
            .filter_map(|(n, (a, t))| t.int().map(|i| (n.clone(), *a, i)))
            .collect();
        // In declaration order of the arrays: witnesses list reads in a
        // fixed order.
        ints.sort_by_key(|(_, a, _)| a.0);
        for (_, array, t) in ints {
            let tmp = f.rb.temp(ScalarTy::Int(t.ir(f.u.dm)));
            f.rb.havoc(tmp, span);
            let (obj, v) = (f.rb.load(place), f.rb.load(tmp));
            f.rb.store(array, obj, v, span);
        }
    }
    Ok(())
}

/// The type `sizeof` measures in `e` (`sizeof(struct S)`, `sizeof *p`).
fn sized(f: &Fun, e: &Node<E>) -> Option<CType> {
    match &e.node {
        E::SizeOfTy(t) => super::decl::type_name(f.u, &t.node.0.node).ok(),
        E::SizeOfVal(v) => {
            super::static_type::static_type(f.u, &|n: &str| f.lookup(n), &v.node.0).ok()
        }
        E::Cast(c) => sized(f, &c.node.expression),
        _ => None,
    }
}

/// A fresh object of type `ty` (zeroed, or with input integers).
fn object(f: &mut Fun, ty: &CType, zeroed: bool, at: CSpan) -> Res<(Expr, CType)> {
    let span = f.span(at);
    let place = f.rb.temp(ScalarTy::INT);
    match ty {
        CType::Struct(i) => fresh(f, place, *i, !zeroed, span)?,
        CType::Int(_) | CType::Pointer(_) => {
            let (array, vt, _) = heap::cell_array(f, ty, at)?;
            let class = heap::cell_class(f.u, f.rb.program(), vt).id;
            f.rb.new_object(place, class, span);
            if let (false, Some(t)) = (zeroed, ty.int()) {
                let tmp = f.rb.temp(ScalarTy::Int(t.ir(f.u.dm)));
                f.rb.havoc(tmp, span);
                let (obj, v) = (f.rb.load(place), f.rb.load(tmp));
                f.rb.store(array, obj, v, span);
            }
        }
        _ => return Err(unsupported(f, at)),
    }
    let mem = heap::mem(f.u, f.rb.program());
    let obj = f.rb.load(place);
    f.rb.store(mem.malloced, obj, Expr::bool(true), span);
    let more = Expr::binary(
        BinOp::Add,
        f.rb.load(mem.live),
        Expr::int(IntTy::INT, 1),
        span,
    );
    f.rb.assign(mem.live, more, span);
    Ok((f.rb.load(place), ty.clone()))
}

/// The check, after `main` returns, that every object `malloc` made was
/// freed: one that was not is unreachable (no local outlives `main`) and a
/// memory leak, unless a global can hold a pointer — then whether it is
/// still reachable is not decided here, and `None` says why.
pub fn leak_check(f: &mut Fun, span: wiser_ir::Span) -> Option<&'static str> {
    let mem = f.u.heap.mem?;
    if f.u.heap.global_pointers {
        return Some("a global variable can hold a pointer, and wiser does not decide whether the objects it reaches are still reachable when `main` returns");
    }
    let leaked = Expr::cmp(CmpOp::Ne, f.rb.load(mem.live), Expr::int(IntTy::INT, 0));
    f.rb.assume(
        Expr::bool(true).fault_if(leaked, ErrorKind::MemoryLeak, span),
        span,
    );
    None
}

fn unsupported(f: &Fun, at: CSpan) -> Diagnostic {
    f.u.unsupported(
        at,
        "this allocation: wiser allocates one object at a time (`malloc(sizeof(struct S))`, `calloc(1, sizeof(int))`)",
    )
}

/// Lowers `malloc`, `calloc` and `free`; `None` for other names.
pub fn call(f: &mut Fun, name: &str, c: &ast::CallExpression, at: CSpan) -> LibraryCall {
    let span = f.span(at);
    match (name, c.arguments.as_slice()) {
        ("malloc", [size]) => {
            let ty = sized(f, size).ok_or_else(|| unsupported(f, at))?;
            let (v, t) = object(f, &ty, false, at)?;
            Ok(Some(Some(Value::Ptr(v, t))))
        }
        ("calloc", [n, size]) => {
            let one = consts::eval(f.u, &|x: &str| f.lookup(x), n)
                .is_ok_and(|(v, _)| v == wiser_num::Int::from(1));
            let ty = sized(f, size)
                .filter(|_| one)
                .ok_or_else(|| unsupported(f, at))?;
            let (v, t) = object(f, &ty, true, at)?;
            Ok(Some(Some(Value::Ptr(v, t))))
        }
        ("free", [p]) => {
            if ptr::is_null(f, p) && !ptr::is_pointer(f, p) {
                return Ok(Some(None));
            }
            // Any pointer type: what `free` knows of objects is indexed by
            // references, whatever their class.
            let (v, _) = ptr::pointer(f, p)?;
            let mem = heap::mem(f.u, f.rb.program());
            let tmp = f.rb.temp(ScalarTy::INT);
            f.rb.assign(tmp, v, span);
            let (yes, end) = (f.rb.label(), f.rb.label());
            let nonnull = Expr::cmp(CmpOp::Ne, f.rb.load(tmp), ptr::null());
            f.rb.branch(nonnull, yes, end, span);
            f.rb.bind(yes);
            let ty = heap::FLAG_TY;
            let obj = f.rb.load(tmp);
            let obj = Expr::flag_check(obj, mem.malloced, ty, false, ErrorKind::InvalidFree, span);
            let obj = Expr::flag_check(obj, mem.freed, ty, true, ErrorKind::DoubleFree, span);
            f.rb.store(mem.freed, obj, Expr::bool(true), span);
            let fewer = Expr::binary(
                BinOp::Sub,
                f.rb.load(mem.live),
                Expr::int(IntTy::INT, 1),
                span,
            );
            f.rb.assign(mem.live, fewer, span);
            f.rb.bind(end);
            Ok(Some(None))
        }
        ("malloc" | "calloc" | "free" | "realloc", _) => Err(unsupported(f, at)),
        _ => Ok(None),
    }
}
