//! Declarations: types from specifiers and declarators, globals, locals,
//! static locals, arrays (fixed and variable length) and initialisers.

use super::{consts, heap, ArrObj, CSpan, Dim, Fun, FuncInfo, Res, Unit, Var};
use crate::types::{CInt, CType, FnSig, Len, Rank};
use lang_c::ast::{self, DeclarationSpecifier as DS, TypeSpecifier as TS};
use lang_c::span::Node;
use wiser_ir::{ArrayTy, Builder, Diagnostic, Expr, Place, ScalarTy};
use wiser_num::{Int, IntTy};

/// The largest array the front end initialises element by element.
pub(super) const MAX_ELEMENTWISE: u64 = 4096;

/// What the specifiers of a declaration say.
pub struct Specs {
    pub ty: CType,
    pub typedef: bool,
    pub is_static: bool,
    pub is_extern: bool,
}

/// The base type of a list of type specifiers.
/// Enumeration constants declared by specifiers, to be added to the scope.
type Enumerators = Vec<(String, i64)>;

fn base_type(u: &Unit, specs: &[&Node<TS>], at: CSpan, enums: &mut Enumerators) -> Res<CType> {
    let (mut longs, mut signed, mut unsigned) = (0, false, false);
    let mut base: Option<Rank> = None;
    let mut other: Option<CType> = None;
    for s in specs {
        match &s.node {
            TS::Void => other = Some(CType::Void),
            TS::Char => base = Some(Rank::Char),
            TS::Short => base = Some(Rank::Short),
            TS::Int => base = base.or(Some(Rank::Int)),
            TS::Long => longs += 1,
            TS::Signed => signed = true,
            TS::Unsigned => unsigned = true,
            TS::Bool => base = Some(Rank::Bool),
            TS::Float => base = Some(Rank::Float),
            TS::Double => base = Some(Rank::Double),
            // Declaring a function of complex or `_FloatN` values (headers
            // do) is harmless; a variable or a value of one is an error.
            TS::Complex | TS::TS18661Float(_) => {
                other = Some(CType::Opaque(
                    "complex and `_FloatN` types".into(),
                    Some((s.span.start, s.span.end)),
                ))
            }
            TS::Struct(st) => other = Some(heap::struct_type(u, &st.node, s.span, &members)?),
            TS::Enum(e) => {
                enumerators(u, &e.node, enums)?;
                other = Some(CType::INT);
            }
            TS::TypedefName(id) => match u.typedefs.get(&id.node.name) {
                Some(t) => other = Some(t.clone()),
                // GCC's own type of variadic argument lists, which
                // `<stdio.h>` and `<stdarg.h>` declare `va_list` with:
                // declaring with it is harmless, using a value is an
                // error.
                None if id.node.name == "__builtin_va_list" => {
                    other = Some(CType::Opaque(
                        "variadic argument lists (`va_list`)".into(),
                        Some((s.span.start, s.span.end)),
                    ))
                }
                None => return Err(u.unsupported(s.span, &format!("the type `{}`", id.node.name))),
            },
            TS::Atomic(_) | TS::TypeOf(_) => {
                return Err(u.unsupported(s.span, "`_Atomic` and `typeof`"))
            }
        }
    }
    if let Some(t) = other {
        return Ok(t);
    }
    let rank = match (base, longs) {
        (Some(Rank::Bool), _) => return Ok(CType::Int(CInt::BOOL)),
        (Some(Rank::Char), 0) => Rank::Char,
        (Some(Rank::Short), 0) => Rank::Short,
        (None | Some(Rank::Int), 0) => Rank::Int,
        (None | Some(Rank::Int), 1) => Rank::Long,
        (None | Some(Rank::Int), 2) => Rank::LongLong,
        (Some(Rank::Float), 0) if !signed && !unsigned => Rank::Float,
        (Some(Rank::Double), 0) if !signed && !unsigned => Rank::Double,
        (Some(Rank::Double), 1) if !signed && !unsigned => Rank::LongDouble,
        _ => {
            return Err(Diagnostic::new(
                u.span(at),
                "invalid combination of type specifiers",
            ))
        }
    };
    if base.is_none() && longs == 0 && !signed && !unsigned {
        return Err(Diagnostic::new(u.span(at), "a declaration without a type")
            .with_help("write the type, e.g. `int`"));
    }
    Ok(CType::Int(CInt {
        rank,
        signed: !unsigned,
    }))
}

/// The members one declaration in a structure declares, with their
/// types (see [`heap::member_type`]) and widths as bit-fields.
fn members(u: &Unit, fd: &Node<ast::StructField>) -> Res<Vec<(String, CType, Option<u32>)>> {
    let mut ts = Vec::new();
    for s in &fd.node.specifiers {
        if let ast::SpecifierQualifier::TypeSpecifier(t) = &s.node {
            ts.push(t);
        }
    }
    let base = base_type_readonly(u, &ts, fd.span)?;
    let mut out = Vec::new();
    if fd.node.declarators.is_empty() {
        // C11's anonymous structure or union: its members are the
        // containing structure's (`layout::member` finds them).
        if let Some(anonymous) = super::layout::anonymous_member(u, &base) {
            out.push((anonymous, base.clone(), None));
        }
    }
    for d in &fd.node.declarators {
        if d.node.bit_width.is_some() {
            out.push(super::bitfields::declared(u, &base, fd, &d.node)?);
            continue;
        }
        let Some(decl) = &d.node.declarator else {
            continue;
        };
        let (name, ty, params) = declarator(u, base.clone(), &decl.node, None)?;
        let Some(name) = name else { continue };
        let ty = if params.is_some() {
            CType::Opaque("function members".into(), None)
        } else {
            heap::member_type(ty)
        };
        out.push((name, ty, None));
    }
    Ok(out)
}

/// Declares the constants of an enumeration (globally: enumerations in
/// the subset are declared at file scope or used like it).
fn enumerators(u: &Unit, e: &ast::EnumType, out: &mut Enumerators) -> Res<()> {
    let mut next = 0i64;
    for en in &e.enumerators {
        if let Some(x) = &en.node.expression {
            let scope = |n: &str| {
                out.iter()
                    .rev()
                    .find(|(m, _)| m == n)
                    .map(|(_, v)| Var::Const(*v))
                    .or_else(|| u.globals.get(n).cloned())
            };
            let (v, _) = consts::eval(u, &scope, x)?;
            next = v.to_i64().unwrap_or(0);
        }
        out.push((en.node.identifier.node.name.clone(), next));
        next = next.wrapping_add(1);
    }
    Ok(())
}

/// The specifiers of a declaration.
pub fn specifiers(u: &mut Unit, specs: &[Node<DS>], at: CSpan) -> Res<Specs> {
    let mut ts = Vec::new();
    let (mut typedef, mut is_static, mut is_extern) = (false, false, false);
    for s in specs {
        match &s.node {
            DS::StorageClass(sc) => match sc.node {
                ast::StorageClassSpecifier::Typedef => typedef = true,
                ast::StorageClassSpecifier::Static => is_static = true,
                ast::StorageClassSpecifier::Extern => is_extern = true,
                ast::StorageClassSpecifier::ThreadLocal => {
                    return Err(u.unsupported(sc.span, "thread-local storage"))
                }
                _ => {}
            },
            DS::TypeSpecifier(t) => ts.push(t),
            DS::TypeQualifier(_) | DS::Function(_) | DS::Alignment(_) | DS::Extension(_) => {}
        }
    }
    let mut enums = Vec::new();
    let ty = base_type(u, &ts, at, &mut enums)?;
    // Enumerators are file-scope constants in the subset.
    for (n, v) in enums {
        u.globals.insert(n, Var::Const(v));
    }
    Ok(Specs {
        ty,
        typedef,
        is_static,
        is_extern,
    })
}

/// The type of a `TypeName` (casts, `sizeof`).
pub fn type_name(u: &Unit, t: &ast::TypeName) -> Res<CType> {
    // Enumerations in casts are rare; a scratch unit would be needed to
    // declare them here, so they are read as `int` without enumerators.
    let mut ts = Vec::new();
    for s in &t.specifiers {
        if let ast::SpecifierQualifier::TypeSpecifier(x) = &s.node {
            ts.push(x);
        }
    }
    let span = t
        .specifiers
        .first()
        .map(|s| s.span)
        .unwrap_or_else(CSpan::none);
    let base = base_type_readonly(u, &ts, span)?;
    match &t.declarator {
        None => Ok(base),
        Some(d) => Ok(declarator(u, base, &d.node, None)?.1),
    }
}

/// The base type of a type name: enumerators declared there are not
/// kept (an enumeration defined in a cast is not the subset's way).
fn base_type_readonly(u: &Unit, ts: &[&Node<TS>], at: CSpan) -> Res<CType> {
    base_type(u, ts, at, &mut Vec::new())
}

/// How names are looked up where a declarator is read.
pub type Scope<'s> = &'s dyn Fn(&str) -> Option<Var>;

/// A function's parameter list.
pub type Params = Vec<(Option<String>, CType)>;

/// Applies a declarator to a base type: its name, its type, and its
/// parameters if it declares a function. Array lengths that are not
/// constant are given by `vla` (locals), else unsupported.
pub fn declarator(
    u: &Unit,
    base: CType,
    d: &ast::Declarator,
    scope: Option<Scope>,
) -> Res<(Option<String>, CType, Option<Params>)> {
    let (name, ty, params) = declarator_at(u, base, d, scope)?;
    // A name of function type (`int (f)(int)`, `op_fn g;` with `typedef
    // int op_fn(int);`) declares a function.
    match (ty, params) {
        (CType::Func(sig), None) => {
            let params = sig.params.into_iter().map(|t| (None, t)).collect();
            Ok((name, sig.ret, Some(params)))
        }
        (ty, params) => Ok((name, ty, params)),
    }
}

fn declarator_at(
    u: &Unit,
    base: CType,
    d: &ast::Declarator,
    scope: Option<Scope>,
) -> Res<(Option<String>, CType, Option<Params>)> {
    let name = match &d.kind.node {
        ast::DeclaratorKind::Identifier(id) => Some(id.node.name.clone()),
        ast::DeclaratorKind::Abstract => None,
        ast::DeclaratorKind::Declarator(inner) => {
            if !inner.node.derived.is_empty() {
                // `int (*f)(int)`: the outer part makes the function type
                // the inner declarator (`*f`, `*ops[3]`) derives from.
                let (_, outer, params) = declarator_at(u, base, &super::fnptr::strip(d), scope)?;
                if let Some(params) = params {
                    let sig = FnSig::new(outer, params.into_iter().map(|(_, t)| t));
                    return declarator_at(u, CType::Func(Box::new(sig)), &inner.node, scope);
                }
                // `int (*a)[4]`: declaring one is harmless (headers do),
                // using one is an error.
                let name = match &inner.node.kind.node {
                    ast::DeclaratorKind::Identifier(id) => Some(id.node.name.clone()),
                    _ => None,
                };
                let what = CType::Opaque(
                    "pointers to arrays and complex declarators".into(),
                    Some((inner.span.start, inner.span.end)),
                );
                return Ok((name, what, None));
            }
            match &inner.node.kind.node {
                ast::DeclaratorKind::Identifier(id) => Some(id.node.name.clone()),
                _ => None,
            }
        }
    };
    let mut dims: Vec<Len> = Vec::new();
    let mut pointers = 0;
    let mut params = None;
    for dd in &d.derived {
        match &dd.node {
            ast::DerivedDeclarator::Pointer(_) => pointers += 1,
            ast::DerivedDeclarator::Array(a) => {
                let len = match &a.node.size {
                    ast::ArraySize::Unknown | ast::ArraySize::VariableUnknown => Len::Unknown,
                    ast::ArraySize::VariableExpression(e) | ast::ArraySize::StaticExpression(e) => {
                        let globals = |n: &str| u.globals.get(n).cloned();
                        let lookup: &dyn Fn(&str) -> Option<Var> = match scope {
                            Some(s) => s,
                            None => &globals,
                        };
                        match consts::eval(u, lookup, e) {
                            Ok((v, _)) => match v.to_i64() {
                                Some(n) if n >= 0 => Len::Const(n as u64),
                                _ => {
                                    return Err(Diagnostic::new(
                                        u.span(e.span),
                                        "an array length must not be negative",
                                    ))
                                }
                            },
                            // A variable length: the caller evaluates it.
                            Err(_) => Len::Var(Place::Global(u32::MAX)),
                        }
                    }
                };
                dims.push(len);
            }
            ast::DerivedDeclarator::Function(f) => {
                if params.is_some() {
                    return Err(u.unsupported(dd.span, "functions returning functions"));
                }
                params = Some(parameters(u, &f.node)?);
            }
            ast::DerivedDeclarator::KRFunction(ids) => {
                if !ids.is_empty() {
                    return Err(u.unsupported(dd.span, "K&R-style parameter lists"));
                }
                params = Some(Vec::new());
            }
            ast::DerivedDeclarator::Block(_) => return Err(u.unsupported(dd.span, "blocks")),
        }
    }
    let mut ty = base;
    if params.is_some() {
        // `int *f(void)`, `int **f(void)`: a function returning a pointer,
        // with a level per `*`.
        for _ in 0..pointers.max(usize::from(!dims.is_empty())) {
            ty = CType::Pointer(Box::new(ty));
        }
        return Ok((name, ty, params));
    }
    // `T *a[n]` is an array of pointers (parenthesised declarators, the
    // only way to write a pointer to an array, are refused above).
    for _ in 0..pointers {
        ty = CType::Pointer(Box::new(ty));
    }
    for len in dims.into_iter().rev() {
        ty = CType::Array(Box::new(ty), len);
    }
    Ok((name, ty, None))
}

fn parameters(u: &Unit, f: &ast::FunctionDeclarator) -> Res<Params> {
    if f.ellipsis == ast::Ellipsis::Some {
        // Variadic prototypes (printf) are accepted; the functions are
        // never defined in the subset.
    }
    let mut out = Vec::new();
    for p in &f.parameters {
        let mut ts = Vec::new();
        for s in &p.node.specifiers {
            if let DS::TypeSpecifier(t) = &s.node {
                ts.push(t);
            }
        }
        let base = base_type_readonly(u, &ts, p.span)?;
        let (name, ty, params) = match &p.node.declarator {
            Some(d) => declarator(u, base, &d.node, None)?,
            None => (None, base, None),
        };
        // `int g(int)` as a parameter is a pointer to such a function.
        let ty = match params {
            Some(ps) => {
                let sig = FnSig::new(ty, ps.into_iter().map(|(_, t)| t));
                CType::Pointer(Box::new(CType::Func(Box::new(sig))))
            }
            None => ty,
        };
        if ty == CType::Void && name.is_none() {
            continue;
        }
        out.push((name, ty));
    }
    Ok(out)
}

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
    let var = match ty {
        CType::Pointer(p) if !u.addressed.contains(plain(name)) => {
            return Ok(Var::Ptr(place, (**p).clone()))
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
    let class = heap::class_for(u, b, ty);
    b.global_refers(place, class);
    u.heap.startup.push((place, ty.clone(), 1));
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
            f.u.typedefs
                .insert(name, super::fnptr::function_type(ty, params));
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
            let class = heap::class_for(f.u, f.rb.program(), ty);
            heap::cell_array(f, ty, CSpan::none())?;
            f.rb.refers(place, class);
            heap::allocate(f, place, ty, Expr::int(IntTy::INT, 1), true, span);
            f.objects.push(place);
            if let (Some(t), false) = (ty.int(), initialised) {
                let tmp = f.rb.temp(t.scalar(f.u.dm));
                f.rb.havoc(tmp, span);
                let (obj, v) = (f.rb.load(place), f.rb.load(tmp));
                heap::store(f, ty, obj, v, span)?;
            }
            Ok(Var::Cell(place, ty.clone()))
        }
    }
}

/// A parameter whose address is taken (`&x` somewhere): a fresh cell
/// holding the argument.
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
    let class = heap::class_for(f.u, f.rb.program(), &ty);
    let place = f.rb.local(format!("&{name}"), ScalarTy::INT);
    f.rb.refers(place, class);
    heap::allocate(f, place, &ty, Expr::int(IntTy::INT, 1), true, span);
    f.objects.push(place);
    let obj = f.rb.load(place);
    heap::store(f, &ty, obj, value, span)?;
    Ok(Var::Cell(place, ty))
}
