//! Declarations: globals, locals, static locals, arrays (fixed and
//! variable length) and initialisers; their types are
//! [`super::declarator`]'s.

use super::declarator::{declarator, specifiers};
use super::{consts, heap, ArrObj, CSpan, Dim, Fun, FuncInfo, Res, Unit, Var};
use crate::types::{CInt, CType, Len};
use lang_c::ast;
use lang_c::span::Node;
use wiser_ir::{ArrayTy, Builder, Diagnostic, Expr, Place, ScalarTy};
use wiser_num::{Int, IntTy};

/// The largest array the front end initialises element by element.
pub(super) const MAX_ELEMENTWISE: u64 = 4096;

/// A file-scope declaration.
pub fn global_declaration<'a>(
    u: &mut Unit<'a>,
    b: &mut Builder,
    d: &'a Node<ast::Declaration>,
) -> Res<()> {
    let specs = specifiers(u, &d.node.specifiers, d.span)?;
    let mut has_init = false;
    for init in &d.node.declarators {
        let (name, ty, params) = declarator(u, specs.ty.clone(), &init.node.declarator.node, None)?;
        let Some(name) = name else { continue };
        if specs.typedef {
            super::bitfields::note_typedef(u, &d.node.specifiers, &name);
            let ty = if name == "pthread_mutex_t" {
                CType::Mutex
            } else {
                super::fnptr::function_type(ty, params)
            };
            let ty = heap::typedef_type(ty, &init.node.declarator.node);
            u.typedefs.insert(name, ty);
            continue;
        }
        if let Some(params) = params {
            let span = u.span(init.node.declarator.span);
            u.funcs.entry(name).or_insert(FuncInfo {
                ret: ty,
                params,
                def: None,
                span,
            });
            continue;
        }
        if u.globals.contains_key(&name) {
            has_init |= init.node.initializer.is_some();
            continue;
        }
        let ty = super::local_arrays::listed_type(u, ty, init.node.initializer.as_ref())?;
        // An `extern` a system header declares (`stdin`) is the C
        // library's: its IR name is the front end's own, so that `wiser
        // run` does not show it among the program's globals.
        let from_header = u.span(init.span).file != u.map.file();
        let ir_name = if specs.is_extern && from_header {
            format!("$extern {name}")
        } else {
            name.clone()
        };
        let kept = u.heap.global_pointers;
        let var = new_static(u, b, &ir_name, &ty, init.span)?;
        if specs.is_extern && from_header {
            // (`stdout` holds no object of the program's.)
            u.heap.global_pointers = kept;
        }
        u.globals.insert(name, var);
        has_init |= init.node.initializer.is_some();
    }
    if has_init {
        u.global_inits.push(d);
    }
    Ok(())
}

/// Storage for a global or static local: zero-initialised.
fn new_static(u: &mut Unit, b: &mut Builder, name: &str, ty: &CType, at: CSpan) -> Res<Var> {
    match ty {
        CType::Int(_) if u.addressed.contains(plain(name)) => heap_static(u, b, name, ty, at),
        CType::Int(i) => Ok(Var::Scalar(
            b.global(name, i.scalar(u.dm), Some(Int::from(0))),
            *i,
        )),
        CType::Array(elem, Len::Const(n))
            if super::local_arrays::constant_rows(elem)
                && (matches!(
                    super::local_arrays::innermost(elem),
                    CType::Struct(_) | CType::Pointer(_)
                ) || matches!(super::local_arrays::innermost(elem), CType::Int(c) if c.rank == crate::types::Rank::Char)
                    || (u.decays.contains(plain(name))
                        && matches!(super::local_arrays::innermost(elem), CType::Int(_)))) =>
        {
            // Its elements live in an object the IR's main routine makes
            // and zeroes.
            let place = b.global(name, ScalarTy::INT, Some(Int::from(0)));
            u.heap.global_pointers |= !super::fnptr::is_function_pointer(elem);
            let class = heap::class_for(u, b, elem);
            b.global_refers(place, class);
            u.heap.startup.push((place, (**elem).clone(), *n));
            Ok(Var::Block(place, (**elem).clone(), Len::Const(*n)))
        }
        CType::Array(..) => {
            let (elem, dims) = ty
                .dims()
                .ok_or_else(|| u.unsupported(at, "arrays of this element type"))?;
            let mut out = Vec::new();
            for l in dims {
                match l {
                    Len::Const(n) => out.push(Dim::Const(n)),
                    _ => return Err(u.unsupported(at, "a global array without a constant length")),
                }
            }
            let id = b.array(name, array_ty(u, elem), Some(Int::from(0)));
            Ok(Var::Array(ArrObj {
                id,
                elem,
                dims: out,
            }))
        }
        CType::Pointer(_) | CType::Struct(_) | CType::Mutex => heap_static(u, b, name, ty, at),
        CType::Opaque(what, span) => {
            Err(u.unsupported(span.map_or(at, |(a, b)| CSpan::span(a, b)), what))
        }
        CType::Func(_) => Err(u.unsupported(at, "a variable of function type")),
        CType::Void => Err(Diagnostic::new(
            u.span(at),
            format!("`{name}` is declared `void`"),
        )),
    }
}

/// The C name of a global or of a static local (`f::x`).
fn plain(name: &str) -> &str {
    name.rsplit("::").next().unwrap_or(name)
}

/// A global or static local that holds a reference: a pointer (`NULL`
/// at the start), or a structure, mutex or address-taken variable whose
/// object the IR's main routine makes before any initialiser runs.
fn heap_static(u: &mut Unit, b: &mut Builder, name: &str, ty: &CType, at: CSpan) -> Res<Var> {
    let place = b.global(name, ScalarTy::INT, Some(Int::from(0)));
    // A pointer, a structure (whose members may be pointers) or a cell
    // holding a pointer can keep a heap object reachable after `main`.
    // (A function pointer holds no object.)
    u.heap.global_pointers |= matches!(ty, CType::Pointer(p) if !matches!(**p, CType::Func(_)))
        || matches!(ty, CType::Struct(_));
    // A punned global lives in its union ([`super::punned`]).
    let punned = super::punned::union_for(u, plain(name), ty);
    let var = match ty {
        CType::Pointer(p) if !u.addressed.contains(plain(name)) => {
            if !matches!(**p, CType::Func(_)) {
                u.heap.root_pointers.push(place);
            }
            return Ok(Var::Ptr(place, (**p).clone()));
        }
        CType::Struct(i) => Var::Struct(place, *i),
        CType::Mutex => Var::Mutex(place),
        _ => {
            if heap::value_ty(u, ty).is_none() {
                return Err(u.unsupported(at, &format!("the address of a {}", ty.describe())));
            };
            Var::Cell(place, ty.clone())
        }
    };
    let object = match punned {
        Some(sid) => {
            super::punned::bind_global(u, place, sid, plain(name));
            CType::Struct(sid)
        }
        None => ty.clone(),
    };
    let class = super::punned::class(u, b, &object, ty);
    b.global_refers(place, class);
    u.heap.startup.push((place, object, 1));
    Ok(var)
}

/// The IR type of an array of `elem`: subscripts are `u64` (a negative
/// subscript converts to a huge one, out of bounds like any other).
pub fn array_ty(u: &Unit, elem: CInt) -> ArrayTy {
    ArrayTy {
        index: IntTy::U64,
        elem: elem.scalar(u.dm),
    }
}

/// Records a function definition.
pub fn function_definition<'a>(u: &mut Unit<'a>, f: &'a Node<ast::FunctionDefinition>) -> Res<()> {
    let specs = specifiers(u, &f.node.specifiers, f.span)?;
    if !f.node.declarations.is_empty() {
        return Err(u.unsupported(f.span, "K&R-style function definitions"));
    }
    let (name, ret, params) = declarator(u, specs.ty, &f.node.declarator.node, None)?;
    let (Some(name), Some(params)) = (name, params) else {
        return Err(Diagnostic::new(
            u.span(f.span),
            "a function definition without a name",
        ));
    };
    if let Some(old) = u.funcs.get(&name) {
        if old.def.is_some() {
            return Err(Diagnostic::new(
                u.span(f.node.declarator.span),
                format!("`{name}` is defined twice"),
            ));
        }
    }
    let span = u.span(f.node.declarator.span);
    u.funcs.insert(
        name,
        FuncInfo {
            ret,
            params,
            def: Some(&f.node),
            span,
        },
    );
    Ok(())
}

pub use super::init::{initialise, run_global_initialiser};

/// A block-scope declaration.
pub fn local_declaration(f: &mut Fun, d: &Node<ast::Declaration>) -> Res<()> {
    let specs = specifiers(f.u, &d.node.specifiers, d.span)?;
    for init in &d.node.declarators {
        let (name, ty, params) = declarator(
            f.u,
            specs.ty.clone(),
            &init.node.declarator.node,
            Some(&|n: &str| f.lookup(n)),
        )?;
        let Some(name) = name else { continue };
        if specs.typedef {
            let ty = super::fnptr::function_type(ty, params);
            let ty = heap::typedef_type(ty, &init.node.declarator.node);
            f.u.typedefs.insert(name, ty);
            continue;
        }
        if params.is_some() || specs.is_extern {
            // A block-scope prototype or extern: the file-scope entity.
            if let Some(params) = params {
                let span = f.span(init.span);
                f.u.funcs.entry(name).or_insert(FuncInfo {
                    ret: ty,
                    params,
                    def: None,
                    span,
                });
            }
            continue;
        }
        let span = f.span(init.span);
        let ty = super::local_arrays::listed_type(f.u, ty, init.node.initializer.as_ref())?;
        if specs.is_static {
            let key = init.span.start;
            let var = match f.u.statics.get(&key) {
                Some(v) => v.clone(),
                None => {
                    let label = format!("{}::{name}", f.name);
                    let v = match (&ty, &init.node.initializer) {
                        (
                            CType::Int(t),
                            Some(Node {
                                node: ast::Initializer::Expression(e),
                                ..
                            }),
                        ) if !f.u.addressed.contains(&name) => {
                            // Static initialisers are constants, set before
                            // the program starts.
                            let scope = |n: &str| f.u.globals.get(n).cloned();
                            let (c, from) = consts::eval(f.u, &scope, e)?;
                            let c = consts::convert(&c, from, *t, f.u.dm);
                            let ir = t.scalar(f.u.dm);
                            Var::Scalar(f.rb.program().global(label, ir, Some(c)), *t)
                        }
                        (_, None) => new_static(f.u, f.rb.program(), &label, &ty, init.span)?,
                        (_, Some(i)) => {
                            // Run before `main`, like a global's.
                            let v = new_static(f.u, f.rb.program(), &label, &ty, init.span)?;
                            f.u.static_inits.push((v.clone(), i.clone()));
                            v
                        }
                    };
                    f.u.statics.insert(key, v.clone());
                    v
                }
            };
            f.scopes.last_mut().expect("a scope").insert(name, var);
            continue;
        }
        match &ty {
            CType::Int(i) if !f.u.addressed.contains(&name) => {
                let place = f.rb.local(name.clone(), i.scalar(f.u.dm));
                let var = Var::Scalar(place, *i);
                match &init.node.initializer {
                    Some(i) => {
                        // The variable is in scope in its own initialiser.
                        f.scopes
                            .last_mut()
                            .expect("a scope")
                            .insert(name, var.clone());
                        initialise(f, &var, i, false)?;
                    }
                    None if f.u.thread_ids.contains(&name) => {
                        // Written by `pthread_create` before any use.
                        f.scopes.last_mut().expect("a scope").insert(name, var);
                    }
                    None => {
                        f.rb.havoc(place, span);
                        f.u.droppable_havocs.insert(span);
                        f.scopes.last_mut().expect("a scope").insert(name, var);
                    }
                }
            }
            CType::Array(elem, len) if super::local_arrays::block_elem(f, &name, elem, init) => {
                let var = super::local_arrays::local_block(f, &name, elem, len, init)?;
                declared(f, name, var, init, false)?;
            }
            CType::Array(..) => {
                let obj = super::local_arrays::local_array(f, &name, &ty, init)?;
                let zeroed = f.once();
                declared(f, name, Var::Array(obj), init, zeroed)?;
            }
            CType::Int(_) | CType::Pointer(_) | CType::Struct(_) | CType::Mutex => {
                let initialised = init.node.initializer.is_some();
                let var = local_object(f, &name, &ty, initialised, span)?;
                declared(f, name, var, init, false)?;
            }
            CType::Opaque(what, at) => {
                return Err(f
                    .u
                    .unsupported(at.map_or(init.span, |(a, b)| CSpan::span(a, b)), what))
            }
            CType::Func(_) => {
                return Err(f.u.unsupported(init.span, "a variable of function type"))
            }
            CType::Void => {
                return Err(Diagnostic::new(
                    span,
                    format!("`{name}` is declared `void`"),
                ))
            }
        }
    }
    Ok(())
}

/// Puts a local's variable in scope and runs its initialiser, if any
/// (`zeroed`: its storage is known to hold zeros).
fn declared(
    f: &mut Fun,
    name: String,
    var: Var,
    init: &Node<ast::InitDeclarator>,
    zeroed: bool,
) -> Res<()> {
    f.scopes
        .last_mut()
        .expect("a scope")
        .insert(name, var.clone());
    if let Some(i) = &init.node.initializer {
        initialise(f, &var, i, zeroed)?;
    }
    Ok(())
}

/// A local that is a pointer (`NULL` until assigned: C leaves it
/// indeterminate, and reading it undefined), a structure (a fresh object
/// whose integer members hold any value, like an uninitialised local),
/// a mutex (a fresh, unlocked one), or a variable whose address is taken
/// (a fresh cell holding any value, or `NULL` for a pointer; with an
/// initialiser (`initialised`), the value it stores: an initialised local
/// is no input).
fn local_object(
    f: &mut Fun,
    name: &str,
    ty: &CType,
    initialised: bool,
    span: wiser_ir::Span,
) -> Res<Var> {
    let place = f.rb.local(name.to_string(), ScalarTy::INT);
    match ty {
        CType::Pointer(p) if !f.u.addressed.contains(name) => {
            f.rb.assign(place, super::ptr::null(), span);
            Ok(Var::Ptr(place, (**p).clone()))
        }
        CType::Struct(i) => {
            let class = heap::class_of(f.u, f.rb.program(), *i);
            f.rb.refers(place, class);
            // Members hold any value, unless an initialiser gives them
            // (those it does not name are 0).
            super::alloc::fresh(f, place, *i, !initialised, span)?;
            f.objects.push(place);
            Ok(Var::Struct(place, *i))
        }
        CType::Mutex => {
            let class = heap::mutex_class(f.u, f.rb.program());
            f.rb.refers(place, class);
            heap::allocate(f, place, ty, Expr::int(IntTy::INT, 1), true, span);
            Ok(Var::Mutex(place))
        }
        _ => {
            let object = cell_object(f, place, name, ty);
            let class = super::punned::class(f.u, f.rb.program(), &object, ty);
            heap::cell_array(f, ty, CSpan::none())?;
            f.rb.refers(place, class);
            heap::allocate(f, place, &object, Expr::int(IntTy::INT, 1), true, span);
            f.objects.push(place);
            if let (Some(t), false) = (ty.int(), initialised) {
                let tmp = f.rb.temp(t.scalar(f.u.dm));
                f.rb.havoc(tmp, span);
                let (obj, v) = (f.rb.load(place), f.rb.load(tmp));
                heap::store(f, ty, obj, v, span)?;
                super::punned::stored(f, place, ty, CSpan::none())?;
            }
            Ok(Var::Cell(place, ty.clone()))
        }
    }
}

/// A parameter whose address is taken (`&x` somewhere): a fresh cell
/// holding the argument.
/// The type of the object the cell of variable `name` (of type `ty`, at
/// `place`) is: its own, or the union a punned variable lives in
/// ([`super::punned`]), noted as such.
fn cell_object(f: &mut Fun, place: Place, name: &str, ty: &CType) -> CType {
    match super::punned::union_for(f.u, name, ty) {
        Some(sid) => {
            super::punned::bind(f, place, sid, name);
            CType::Struct(sid)
        }
        None => ty.clone(),
    }
}

pub fn to_cell(f: &mut Fun, name: &str, var: Var, span: wiser_ir::Span) -> Res<Var> {
    if !f.u.addressed.contains(name) {
        return Ok(var);
    }
    let (value, ty) = match &var {
        Var::Scalar(p, t) => (f.rb.load(*p), CType::Int(*t)),
        Var::Ptr(p, t) => (f.rb.load(*p), CType::Pointer(Box::new(t.clone()))),
        _ => return Ok(var),
    };
    heap::cell_array(f, &ty, CSpan::none())?;
    let place = f.rb.local(format!("&{name}"), ScalarTy::INT);
    let object = cell_object(f, place, name, &ty);
    let class = super::punned::class(f.u, f.rb.program(), &object, &ty);
    f.rb.refers(place, class);
    heap::allocate(f, place, &object, Expr::int(IntTy::INT, 1), true, span);
    f.objects.push(place);
    let obj = f.rb.load(place);
    heap::store(f, &ty, obj, value, span)?;
    super::punned::stored(f, place, &ty, CSpan::none())?;
    Ok(Var::Cell(place, ty))
}
