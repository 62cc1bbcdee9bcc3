//! Local arrays: an array object of the IR's own where its declaration
//! runs at most once, or an object of the memory model
//! ([`Var::Block`]) for arrays of structures and pointers and for
//! uninitialised arrays whose declaration runs again.

use super::decl::{array_ty, MAX_ELEMENTWISE};
use super::{expr, heap, ArrObj, Dim, Fun, Res, Var};
use crate::types::{CType, Len, Rank};
use lang_c::ast;
use lang_c::span::Node;
use wiser_ir::{Diagnostic, Expr, ScalarTy};
use wiser_num::{CmpOp, Int, IntTy};

/// Does a local array of `elem`s live in an object ([`Var::Block`])? One
/// of structures or pointers always (an initialiser list fills it); one
/// of integers without an initialiser where its declaration can run more
/// than once (an IR array of its own would be shared between runs).
pub fn block_elem(f: &Fun, name: &str, elem: &CType, init: &Node<ast::InitDeclarator>) -> bool {
    if !constant_rows(elem) {
        return false;
    }
    match innermost(elem) {
        CType::Struct(_) | CType::Pointer(_) => true,
        // Strings: `char *p = buf;`, `strlen(buf)`.
        CType::Int(c) if c.rank == Rank::Char => true,
        // Used as a pointer somewhere (`p = a`, `&a[i]`).
        CType::Int(_) if f.u.decays.contains(name) => true,
        CType::Int(_) => init.node.initializer.is_none() && !f.once(),
        _ => false,
    }
}

/// The type of the elements of an array of arrays of ... `ty`.
pub fn innermost(ty: &CType) -> &CType {
    match ty {
        CType::Array(elem, _) => innermost(elem),
        other => other,
    }
}

/// Are all of `ty`'s array dimensions constant (the rows of an array in
/// an object have a size in slots)?
pub fn constant_rows(ty: &CType) -> bool {
    match ty {
        CType::Array(elem, Len::Const(_)) => constant_rows(elem),
        CType::Array(..) => false,
        _ => true,
    }
}

/// A local array whose elements live in a fresh object of its length,
/// made each time the declaration runs; its elements hold any value, and
/// the object ends with the function like the other locals' objects.
pub fn local_block(
    f: &mut Fun,
    name: &str,
    elem: &CType,
    len: &Len,
    init: &Node<ast::InitDeclarator>,
) -> Res<Var> {
    let span = f.span(init.span);
    let size = init
        .node
        .declarator
        .node
        .derived
        .iter()
        .find_map(|d| match &d.node {
            ast::DerivedDeclarator::Array(a) => Some(&a.node.size),
            _ => None,
        });
    // `struct P a[] = {...}`: as many as the list initialises.
    let listed = match &init.node.initializer {
        Some(Node {
            node: ast::Initializer::List(items),
            ..
        }) => Some(listed_len(f.u, &|n: &str| f.lookup(n), elem, items)?),
        Some(Node {
            node: ast::Initializer::Expression(e),
            ..
        }) => match &e.node {
            ast::Expression::StringLiteral(s) => {
                super::strings::bytes(&s.node).map(|b| b.len() as u64 + 1)
            }
            _ => None,
        },
        _ => None,
    };
    let len = match (len, listed) {
        (Len::Unknown, Some(n)) => &Len::Const(n),
        _ => len,
    };
    let n = match (len, size) {
        (Len::Const(n), _) => Expr::int(IntTy::INT, Int::from_u64(*n)),
        (Len::Var(_), Some(ast::ArraySize::VariableExpression(e))) => {
            let (v, _) = expr::rvalue(f, e)?;
            let v = v.cast(IntTy::INT);
            // A negative length is undefined: read as 0, so that every
            // access is out of bounds.
            let neg = Expr::cmp(CmpOp::Lt, v.clone(), Expr::int(IntTy::INT, 0));
            Expr::ite(neg, Expr::int(IntTy::INT, 0), v)
        }
        _ => return Err(f.u.unsupported(init.span, "this array length")),
    };
    if !matches!(innermost(elem), CType::Struct(_)) {
        heap::cell_array(f, innermost(elem), init.span)?;
    }
    let class = heap::class_for(f.u, f.rb.program(), elem);
    let place = f.rb.local(name.to_string(), ScalarTy::INT);
    f.rb.refers(place, class);
    heap::allocate(f, place, elem, n, false, span);
    f.objects.push(place);
    Ok(Var::Block(place, elem.clone(), len.clone()))
}

/// `ty` with the length its initialiser gives an array declared without
/// one (`int a[] = {1, 2};`, `char s[] = "abc";`).
pub fn listed_type(
    u: &super::Unit,
    ty: CType,
    init: Option<&Node<ast::Initializer>>,
) -> Res<CType> {
    let CType::Array(elem, Len::Unknown) = &ty else {
        return Ok(ty);
    };
    let scope = |n: &str| u.globals.get(n).cloned();
    let n = match init.map(|i| &i.node) {
        Some(ast::Initializer::List(items)) => listed_len(u, &scope, elem, items)?,
        Some(ast::Initializer::Expression(e)) => match &e.node {
            ast::Expression::StringLiteral(s) => {
                super::strings::bytes(&s.node).map_or(0, |b| b.len() as u64 + 1)
            }
            _ => return Ok(ty),
        },
        None => return Ok(ty),
    };
    Ok(CType::Array(elem.clone(), Len::Const(n)))
}

/// The length of an array of `elem`s whose length its initialiser list
/// gives: one past the last element it initialises (`[k] =` moves to
/// element `k`; items without braces for an element that is a structure
/// take one item per scalar it holds).
pub fn listed_len(
    u: &super::Unit,
    scope: &dyn Fn(&str) -> Option<Var>,
    elem: &CType,
    items: &[Node<ast::InitializerListItem>],
) -> Res<u64> {
    let scalars: u64 = match elem {
        CType::Struct(_) | CType::Array(..) => super::layout::runs(u, elem)
            .iter()
            .map(|r| r.count)
            .sum::<u64>()
            .max(1),
        _ => 1,
    };
    let (mut k, mut parts, mut len) = (0u64, 0u64, 0u64);
    for item in items {
        if let Some(d) = item.node.designation.first() {
            if let ast::Designator::Index(e) = &d.node {
                let (v, _) = super::consts::eval(u, scope, e)?;
                k = v.to_i64().unwrap_or(0).max(0) as u64;
                parts = 0;
            }
        }
        let braced = matches!(item.node.initializer.node, ast::Initializer::List(_));
        if braced || scalars == 1 {
            len = len.max(k + 1);
            k += 1;
            parts = 0;
        } else {
            len = len.max(k + 1);
            parts += 1;
            if parts == scalars {
                k += 1;
                parts = 0;
            }
        }
    }
    Ok(len)
}

/// A local array object. Arrays are IR objects of their own: a local
/// array is sound only where its declaration runs at most once (in
/// `main`, outside loops, without `goto`), where its initial contents are
/// arbitrary (uninitialised) or zero (initialised); elsewhere only a fully
/// initialised small array is accepted.
pub fn local_array(
    f: &mut Fun,
    name: &str,
    ty: &CType,
    init: &Node<ast::InitDeclarator>,
) -> Res<ArrObj> {
    let (elem, lens) = ty
        .dims()
        .ok_or_else(|| f.u.unsupported(init.span, "arrays of this element type"))?;
    let once = f.once();
    let mut dims = Vec::new();
    let mut var_lens = Vec::new();
    // Lengths of variable-length dimensions, evaluated here.
    let mut k = 0;
    for dd in &init.node.declarator.node.derived {
        if let ast::DerivedDeclarator::Array(a) = &dd.node {
            match (&lens[k], &a.node.size) {
                (Len::Const(n), _) => dims.push(Dim::Const(*n)),
                (Len::Var(_), ast::ArraySize::VariableExpression(e)) => {
                    let place = f.rb.program().global(
                        format!("$len_{name}_{k}"),
                        ScalarTy::Int(IntTy::U64),
                        Some(Int::from(0)),
                    );
                    var_lens.push((place, e));
                    dims.push(Dim::Var(place));
                }
                (Len::Unknown, _) => {
                    // `int a[] = {1, 2, 3}`: the length is the list's.
                    let n = match &init.node.initializer {
                        Some(Node {
                            node: ast::Initializer::List(items),
                            ..
                        }) if k == 0 => items.len() as u64,
                        _ => {
                            return Err(Diagnostic::new(
                                f.span(init.span),
                                format!("the array `{name}` has no length"),
                            ))
                        }
                    };
                    dims.push(Dim::Const(n));
                }
                _ => return Err(f.u.unsupported(init.span, "this array length")),
            }
            k += 1;
        }
    }
    let mut vla_places = Vec::new();
    for (place, e) in var_lens {
        let v = expr::rvalue(f, e)?;
        let (ex, t) = (v.0, v.1);
        let span = f.span(e.span);
        let it = t.ir(f.u.dm);
        // A negative length is undefined: read as 0, so that every access
        // is out of bounds.
        let neg = Expr::cmp(CmpOp::Lt, ex.clone(), Expr::int(it, 0));
        let len = Expr::ite(neg, Expr::int(IntTy::U64, 0), ex.cast(IntTy::U64));
        f.rb.assign(place, len, span);
        vla_places.push((place, span));
    }
    // No object is larger than PTRDIFF_MAX bytes (a pointer difference
    // across it would not fit), and no platform allocates one: a
    // declaration that asks for more cannot run, so the path ends there,
    // as it would in a program killed for it. (Each variable length is
    // bounded alone: with several, their product may still be too large,
    // and those paths are kept.)
    let elem_bytes = u64::from(elem.bits(f.u.dm) / 8).max(1);
    let fixed: u64 = dims
        .iter()
        .map(|d| {
            if let Dim::Const(n) = d {
                (*n).max(1)
            } else {
                1
            }
        })
        .fold(elem_bytes, u64::saturating_mul);
    for (place, span) in vla_places {
        let max_len = max_object_bytes(f.u.dm) / fixed;
        let fits = Expr::cmp(
            CmpOp::Le,
            f.rb.load(place),
            Expr::int(IntTy::U64, Int::from_u64(max_len)),
        );
        f.rb.assume(fits, span);
    }
    let total: Option<u64> = dims
        .iter()
        .map(|d| {
            if let Dim::Const(n) = d {
                Some(*n)
            } else {
                None
            }
        })
        .try_fold(1u64, |a, b| b.map(|b| a.saturating_mul(b)));
    let init_value = if once {
        if init.node.initializer.is_some() {
            Some(Int::from(0))
        } else {
            None
        }
    } else {
        match (init.node.initializer.is_some(), total) {
            (true, Some(n)) if n <= MAX_ELEMENTWISE => Some(Int::from(0)),
            _ => {
                return Err(f.u.unsupported(
                    init.span,
                    "an uninitialised local array outside `main` or inside a loop (declare it global or at the top of `main`)",
                ))
            }
        }
    };
    f.u.array_count += 1;
    let label = format!("{}::{name}", f.name);
    let id = f.rb.program().array(label, array_ty(f.u, elem), init_value);
    Ok(ArrObj { id, elem, dims })
}

/// PTRDIFF_MAX: the largest object, in bytes, of the data model.
fn max_object_bytes(dm: crate::DataModel) -> u64 {
    match dm {
        crate::DataModel::Ilp32 => i32::MAX as u64,
        crate::DataModel::Lp64 => i64::MAX as u64,
    }
}
