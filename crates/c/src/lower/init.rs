//! Initialisers: a declaration's `= ...` (scalars, arrays with their
//! lists, strings and zero fill), run where the declaration is, and global
//! initialisers run by the IR's main routine before C's `main`.

use super::decl::{array_ty, MAX_ELEMENTWISE};
use super::declarator::{declarator, specifiers};
use super::{consts, expr, heap, layout, ArrObj, Dim, Fun, Res, Var};
use crate::types::{CType, Len};
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
            let obj = f.rb.load(*place);
            heap::store(f, ty, obj, v, span)?;
            super::punned::stored(f, *place, ty, init.span)
        }
        (Var::Struct(place, sid), ast::Initializer::List(items)) => {
            let p = f.rb.load(*place);
            fill(f, &p, &CType::Struct(*sid), items, &mut 0, true)
        }
        // `char s[] = "abc";`
        (Var::Block(place, CType::Int(_), Len::Const(n)), ast::Initializer::Expression(e)) => {
            let ast::Expression::StringLiteral(s) = &e.node else {
                return Err(f
                    .u
                    .unsupported(init.span, "initialising an array from an expression"));
            };
            let p = f.rb.load(*place);
            super::strings::fill_array(f, p, *n, &s.node, e.span)
        }
        // `struct P a[3] = {...}`, `int *ps[2] = {&x, &y}`.
        (Var::Block(place, elem, Len::Const(n)), ast::Initializer::List(items)) => {
            if !zeroed {
                let len = Expr::int(IntTy::INT, Int::from_u64(*n));
                super::alloc::zero_all(f, elem, *place, len, f.span(init.span));
            }
            let p = f.rb.load(*place);
            let ty = CType::Array(Box::new(elem.clone()), Len::Const(*n));
            fill(f, &p, &ty, items, &mut 0, true)
        }
        // `struct S t = s;`, `= f();`: a copy.
        (Var::Struct(place, sid), ast::Initializer::Expression(e)) => {
            let (src, si) = super::structs::object(f, e)?;
            if si != *sid {
                return Err(f.u.unsupported(init.span, "this initialiser"));
            }
            let dst = f.rb.load(*place);
            super::structs::copy(f, dst, src, si, init.span)
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

/// A structure's or array's initialiser list (`{1, &x}`, `{ .y = 5 }`,
/// `{{1, 2}, {3, 4}}`) stored into the object of type `ty` at `p` (a
/// load, evaluated again for each store), by C's rules: a nested list
/// initialises one member or element; an expression that is not itself a
/// structure of the member's type starts a member or element without
/// braces, which takes as many items as it has scalars; `.m` and `[k]`
/// move to a member or element. The object is new, its slots zero, as C
/// makes those the list does not name.
fn fill(
    f: &mut Fun,
    p: &Expr,
    ty: &CType,
    items: &[Node<ast::InitializerListItem>],
    pos: &mut usize,
    braced: bool,
) -> Res<()> {
    let (count, members) = match ty {
        CType::Struct(i) => {
            let m = layout::members(f.u, *i);
            (m.len() as u64, Some(m))
        }
        CType::Array(_, Len::Const(n)) => (*n, None),
        _ => {
            return Err(f.u.unsupported(
                items.first().map_or(lang_c::span::Span::none(), |i| i.span),
                "initialising this type from a list",
            ))
        }
    };
    // The slot offset, type and width as a bit-field of member or
    // element `k`.
    let component = |f: &Fun, k: u64| -> (u64, CType, Option<u32>) {
        match (&members, ty) {
            (Some(m), CType::Struct(sid)) => {
                let (name, offset, t) = &m[k as usize];
                (*offset, t.clone(), layout::member_width(f.u, *sid, name))
            }
            (None, CType::Array(elem, _)) => (k * layout::slots(f.u, elem), (**elem).clone(), None),
            _ => (0, CType::Void, None),
        }
    };
    let mut k = 0u64;
    while let Some(item) = items.get(*pos) {
        // The designators after the first, for the member or element the
        // first names (`.a.b = 1` is `.a = { .b = 1 }`), with the
        // anonymous members a member name is reached through.
        let mut deeper: Vec<Node<ast::Designator>> = Vec::new();
        if let Some(d) = item.node.designation.first() {
            if !braced {
                // A designator belongs to the list around this member.
                return Ok(());
            }
            k = match (&d.node, &members, ty) {
                (ast::Designator::Member(id), Some(m), CType::Struct(sid)) => {
                    let name = &id.node.name;
                    let path = layout::anonymous_path(f.u, *sid, name).ok_or_else(|| {
                        Diagnostic::new(
                            f.span(id.span),
                            format!("the structure has no member `{name}`"),
                        )
                    })?;
                    let first = path.first().unwrap_or(name);
                    for step in path.iter().skip(1).chain(std::iter::once(name)) {
                        if path.is_empty() {
                            break;
                        }
                        let ident = ast::Identifier { name: step.clone() };
                        deeper.push(Node::new(
                            ast::Designator::Member(Node::new(ident, id.span)),
                            d.span,
                        ));
                    }
                    m.iter().position(|(n, _, _)| n == first).unwrap_or(0) as u64
                }
                (ast::Designator::Index(e), None, _) => {
                    let (v, _) = consts::eval(f.u, &|n: &str| f.lookup(n), e)?;
                    v.to_i64().filter(|v| *v >= 0).ok_or_else(|| {
                        Diagnostic::new(f.span(e.span), "a negative array index in a designator")
                    })? as u64
                }
                _ => return Err(f.u.unsupported(d.span, "this designator")),
            };
            deeper.extend(item.node.designation.iter().skip(1).cloned());
        }
        if k >= count {
            if !braced {
                return Ok(());
            }
            return Err(Diagnostic::new(
                f.span(item.span),
                "more initialisers than the object has members or elements",
            ));
        }
        let (offset, cty, width) = component(f, k);
        let span = f.span(item.span);
        let q = layout::plus(p.clone(), offset, span);
        let aggregate = matches!(cty, CType::Struct(_) | CType::Array(..));
        if !deeper.is_empty() {
            // C goes on after the member the designators reached, inside
            // the one the first names: a positional item after that is
            // refused rather than put elsewhere.
            if let Some(next) = items.get(*pos + 1) {
                if next.node.designation.is_empty() {
                    return Err(f.u.unsupported(
                        next.span,
                        "an item without a designator after a nested designator",
                    ));
                }
            }
            let inner = ast::InitializerListItem {
                designation: deeper,
                initializer: item.node.initializer.clone(),
            };
            fill(f, &q, &cty, &[Node::new(inner, item.span)], &mut 0, true)?;
            *pos += 1;
        } else {
            match &item.node.initializer.node {
                ast::Initializer::List(sub) if aggregate => {
                    fill(f, &q, &cty, sub, &mut 0, true)?;
                    *pos += 1;
                }
                ast::Initializer::List(sub) => match sub.as_slice() {
                    [one] if one.node.designation.is_empty() => {
                        let ast::Initializer::Expression(e) = &one.node.initializer.node else {
                            return Err(f.u.unsupported(one.span, "this initialiser"));
                        };
                        store_slot(f, q, (&cty, width), e, item.span)?;
                        *pos += 1;
                    }
                    _ => return Err(f.u.unsupported(item.span, "a list initialising a scalar")),
                },
                ast::Initializer::Expression(e) => match &cty {
                    // A `char` array member or row from a string.
                    CType::Array(elem, Len::Const(n))
                        if matches!(**elem, CType::Int(c) if c.bits(f.u.dm) == 8)
                            && matches!(e.node, ast::Expression::StringLiteral(_)) =>
                    {
                        let ast::Expression::StringLiteral(lit) = &e.node else {
                            unreachable!("matched above")
                        };
                        super::strings::fill_array(f, q, *n, &lit.node, e.span)?;
                        *pos += 1;
                    }
                    CType::Struct(sid) if super::structs::struct_of(f, e) == Some(*sid) => {
                        let (src, _) = super::structs::object(f, e)?;
                        super::structs::copy(f, q, src, *sid, item.span)?;
                        *pos += 1;
                    }
                    CType::Struct(_) | CType::Array(..) => fill(f, &q, &cty, items, pos, false)?,
                    _ => {
                        store_slot(f, q, (&cty, width), e, item.span)?;
                        *pos += 1;
                    }
                },
            }
        }
        if let (CType::Struct(sid), Some(m)) = (ty, &members) {
            if super::unions::is_union(f.u, *sid) {
                // A union's list initialises one member; the others share
                // its bytes.
                let name = m[k as usize].0.clone();
                return super::unions::after_member(f, p.clone(), *sid, &name, item.span);
            }
        }
        k += 1;
    }
    Ok(())
}

/// Stores `e` into the slot `q` of type `ty` (an integer or a pointer;
/// a bit-field when it has a width).
fn store_slot(
    f: &mut Fun,
    q: Expr,
    (ty, width): (&CType, Option<u32>),
    e: &Node<ast::Expression>,
    at: lang_c::span::Span,
) -> Res<()> {
    let value = match (ty, width) {
        (CType::Int(t), Some(w)) => {
            let v = expr::rvalue(f, e)?;
            let v = expr::convert(f, v, super::bitfields::value_ty(*t, w, f.u.dm));
            Some(super::bitfields::truncate(v, *t, w, f.u.dm))
        }
        _ => stored_value(f, e, ty)?,
    };
    let Some(value) = value else {
        return Err(f.u.unsupported(at, "initialising this member"));
    };
    let span = f.span(at);
    heap::store(f, ty, q, value, span)
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
            // A row of `char`s from a string: `char m[2][4] = {"abc", "de"}`.
            ast::Initializer::Expression(e)
                if depth + 2 == obj.dims.len()
                    && matches!(e.node, ast::Expression::StringLiteral(_)) =>
            {
                let ast::Expression::StringLiteral(lit) = &e.node else {
                    unreachable!("matched above")
                };
                let start = k.div_ceil(stride) * stride;
                let text = super::strings::bytes(&lit.node).ok_or_else(|| {
                    f.u.unsupported(e.span, "wide string literals and malformed escapes")
                })?;
                if text.len() as u64 > stride {
                    return Err(Diagnostic::new(
                        f.span(e.span),
                        "the string is longer than the row",
                    ));
                }
                let span = f.span(e.span);
                for (j, b) in text.iter().enumerate() {
                    let at = base + start + j as u64;
                    let v = Expr::int(obj.elem.ir(f.u.dm), Int::from(i64::from(*b as i8)));
                    f.rb.store(obj.id, Expr::int(IntTy::U64, Int::from_u64(at)), v, span);
                    written.insert(at);
                }
                k = start + stride;
            }
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
