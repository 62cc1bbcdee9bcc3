//! Initialisers: a declaration's `= ...` (scalars, arrays with their
//! lists, strings and zero fill), run where the declaration is, and global
//! initialisers run by the IR's main routine before C's `main`.

use super::decl::{array_ty, declarator, specifiers, MAX_ELEMENTWISE};
use super::{consts, expr, heap, ArrObj, Dim, Fun, Res, Var};
use crate::types::CType;
use lang_c::ast;
use lang_c::span::Node;
use wiser_ir::{Diagnostic, Expr};
use wiser_num::{Int, IntTy};

/// Runs a global declaration's initialisers (in the IR's main routine).
pub fn run_global_initialiser(f: &mut Fun, d: &Node<ast::Declaration>) -> Res<()> {
    for init in &d.node.declarators {
        let Some(i) = &init.node.initializer else {
            continue;
        };
        let specs = specifiers(f.u, &d.node.specifiers, d.span)?;
        let (name, _, _) = declarator(f.u, specs.ty, &init.node.declarator.node, None)?;
        let Some(var) = name.and_then(|n| f.u.globals.get(&n).cloned()) else {
            continue;
        };
        initialise(f, &var, i, true)?;
    }
    Ok(())
}

/// Stores an initialiser into a variable. `zeroed`: the storage is known
/// to hold zeros (elements not named need no store).
pub fn initialise(f: &mut Fun, var: &Var, init: &Node<ast::Initializer>, zeroed: bool) -> Res<()> {
    match (var, &init.node) {
        (Var::Scalar(place, ty), ast::Initializer::Expression(e)) => {
            let v = expr::rvalue(f, e)?;
            let v = expr::convert(f, v, *ty);
            let span = f.span(init.span);
            f.rb.assign(*place, v, span);
            Ok(())
        }
        (Var::Scalar(place, ty), ast::Initializer::List(items)) if items.len() == 1 => initialise(
            f,
            &Var::Scalar(*place, *ty),
            &items[0].node.initializer,
            zeroed,
        ),
        (Var::Array(obj), ast::Initializer::List(items)) => {
            let total: u64 = obj
                .dims
                .iter()
                .map(|d| match d {
                    Dim::Const(n) => *n,
                    Dim::Var(_) => u64::MAX,
                })
                .fold(1u64, |a, b| a.saturating_mul(b));
            let mut written = std::collections::BTreeSet::new();
            let mut pos = 0u64;
            list(f, obj, items, 0, 0, &mut pos, &mut written)?;
            if !zeroed {
                if total > MAX_ELEMENTWISE {
                    return Err(f.u.unsupported(
                        init.span,
                        "initialising a large array that is not global or in `main`",
                    ));
                }
                let span = f.span(init.span);
                for k in 0..total {
                    if !written.contains(&k) {
                        let ty = array_ty(f.u, obj.elem);
                        f.rb.store(
                            obj.id,
                            Expr::int(IntTy::U64, Int::from_u64(k)),
                            Expr::int(ty.elem.int().unwrap_or(IntTy::I32), 0),
                            span,
                        );
                    }
                }
            }
            Ok(())
        }
        (Var::Ptr(place, t), ast::Initializer::Expression(e)) => {
            let v = super::ptr::pointer_to(f, e, t)?;
            let span = f.span(init.span);
            f.rb.assign(*place, v, span);
            Ok(())
        }
        (Var::Cell(place, ty), ast::Initializer::Expression(e)) => {
            let Some(v) = stored_value(f, e, ty)? else {
                return Err(f.u.unsupported(init.span, "this initialiser"));
            };
            let span = f.span(init.span);
            let (array, _) = heap::cell_array(f, ty, init.span)?;
            let obj = f.rb.load(*place);
            f.rb.store(array, obj, v, span);
            Ok(())
        }
        (Var::Struct(place, sid), ast::Initializer::List(items)) => members(f, *place, *sid, items),
        // `struct S t = s;`, `= f();`: a copy.
        (Var::Struct(place, sid), ast::Initializer::Expression(e)) => {
            let (src, si) = super::structs::object(f, e)?;
            if si != *sid {
                return Err(f.u.unsupported(init.span, "this initialiser"));
            }
            let dst = f.rb.load(*place);
            super::structs::copy(f, dst, src, si, init.span)
        }
        (Var::Block(_, CType::Pointer(_), _), ast::Initializer::List(items)) => {
            super::fnptr::block_list(f, var, items, zeroed, init.span)
        }
        // `PTHREAD_MUTEX_INITIALIZER`: the mutex object is made unlocked
        // where the variable is declared.
        (Var::Mutex(_), _) => Ok(()),
        (Var::Array(_), ast::Initializer::Expression(_)) => Err(f.u.unsupported(
            init.span,
            "initialising an array from a string or an expression",
        )),
        _ => Err(f.u.unsupported(init.span, "this initialiser")),
    }
}

/// `e` as the value stored into memory of type `ty` (a cell, a member):
/// an integer converted to it, or a pointer to its pointee; `None` for
/// another type.
fn stored_value(f: &mut Fun, e: &Node<ast::Expression>, ty: &CType) -> Res<Option<Expr>> {
    Ok(Some(match ty {
        CType::Int(t) => {
            let v = expr::rvalue(f, e)?;
            expr::convert(f, v, *t)
        }
        CType::Pointer(t) => super::ptr::pointer_to(f, e, t)?,
        _ => return Ok(None),
    }))
}

/// A structure's initialiser list, `{1, &x}` or `{ .y = 5 }`, stored
/// into the object `place` refers to. The object is new, its members 0
/// (`NULL`), as C's members that the list does not name are.
fn members(
    f: &mut Fun,
    place: wiser_ir::Place,
    sid: u32,
    items: &[Node<ast::InitializerListItem>],
) -> Res<()> {
    let fields: Vec<(String, CType)> = f.u.heap.structs.borrow()[sid as usize]
        .fields
        .clone()
        .unwrap_or_default();
    let class = heap::class_of(f.u, f.rb.program(), sid, lang_c::span::Span::none())?;
    let mut next = 0usize; // the member a positional item initialises
    for item in items {
        if let Some(d) = item.node.designation.first() {
            let ast::Designator::Member(id) = &d.node else {
                return Err(f.u.unsupported(d.span, "this designator"));
            };
            next = fields
                .iter()
                .position(|(n, _)| *n == id.node.name)
                .ok_or_else(|| {
                    Diagnostic::new(
                        f.span(id.span),
                        format!("the structure has no member `{}`", id.node.name),
                    )
                })?;
            if item.node.designation.len() > 1 {
                return Err(f.u.unsupported(d.span, "nested designators"));
            }
        }
        let Some((name, ty)) = fields.get(next) else {
            return Err(Diagnostic::new(
                f.span(item.span),
                "more initialisers than the structure has members",
            ));
        };
        let ast::Initializer::Expression(e) = &item.node.initializer.node else {
            return Err(f.u.unsupported(item.span, "a list initialising a member"));
        };
        let Some(value) = stored_value(f, e, ty)? else {
            return Err(f.u.unsupported(item.span, "initialising this member"));
        };
        let Some(&(array, _)) = class.fields.get(name) else {
            return Err(f.u.unsupported(item.span, "initialising this member"));
        };
        let span = f.span(item.span);
        let obj = f.rb.load(place);
        f.rb.store(array, obj, value, span);
        next += 1;
    }
    Ok(())
}

/// The elements of an initialiser list at `depth`, starting at flat
/// index `base`.
fn list(
    f: &mut Fun,
    obj: &ArrObj,
    items: &[Node<ast::InitializerListItem>],
    depth: usize,
    base: u64,
    pos: &mut u64,
    written: &mut std::collections::BTreeSet<u64>,
) -> Res<()> {
    let stride: u64 = obj.dims[depth + 1..]
        .iter()
        .map(|d| if let Dim::Const(n) = d { *n } else { 1 })
        .product();
    let total = match obj.dims[depth] {
        Dim::Const(n) => n.saturating_mul(stride),
        Dim::Var(_) => u64::MAX,
    };
    let mut k = 0u64; // flat offset within this level
    for item in items {
        if let Some(d) = item.node.designation.first() {
            match &d.node {
                ast::Designator::Index(e) => {
                    let scope = |n: &str| f.lookup(n);
                    let (v, _) = consts::eval(f.u, &scope, e)?;
                    k = v.to_i64().unwrap_or(0).max(0) as u64 * stride;
                }
                _ => return Err(f.u.unsupported(d.span, "this designator")),
            }
        }
        match &item.node.initializer.node {
            ast::Initializer::List(sub) if depth + 1 < obj.dims.len() => {
                let start = k.div_ceil(stride) * stride;
                let mut p = 0;
                list(f, obj, sub, depth + 1, base + start, &mut p, written)?;
                k = start + stride;
            }
            ast::Initializer::List(sub) if sub.len() == 1 => {
                if let ast::Initializer::Expression(e) = &sub[0].node.initializer.node {
                    store_const(f, obj, base + k, e, written)?;
                }
                k += 1;
            }
            ast::Initializer::Expression(e) => {
                store_const(f, obj, base + k, e, written)?;
                k += 1;
            }
            ast::Initializer::List(_) => {
                return Err(f.u.unsupported(item.span, "this initialiser"))
            }
        }
        if k > total {
            return Err(Diagnostic::new(
                f.span(item.span),
                "too many initialisers for the array",
            ));
        }
    }
    *pos = k;
    Ok(())
}

fn store_const(
    f: &mut Fun,
    obj: &ArrObj,
    at: u64,
    e: &Node<ast::Expression>,
    written: &mut std::collections::BTreeSet<u64>,
) -> Res<()> {
    let v = expr::rvalue(f, e)?;
    let v = expr::convert(f, v, obj.elem);
    let span = f.span(e.span);
    f.rb.store(obj.id, Expr::int(IntTy::U64, Int::from_u64(at)), v, span);
    written.insert(at);
    Ok(())
}
