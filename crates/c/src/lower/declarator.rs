//! Types from declarations: the base type of specifiers (structures,
//! enumerations, typedef names), declarators (pointers, arrays,
//! functions and their parameters) and type names.

use super::{consts, heap, CSpan, Res, Unit, Var};
use crate::types::{CInt, CType, FnSig, Len, Rank};
use lang_c::ast::{self, DeclarationSpecifier as DS, TypeSpecifier as TS};
use lang_c::span::Node;
use wiser_ir::{Diagnostic, Place};

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
    heap::declared_attributes(u, specs, &ty);
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
