//! Function pointers: a function pointer is an IR `int` holding a
//! function's number (0 is `NULL`; the `k`-th function of
//! [`super::Unit::fn_targets`] is `k + 1`), and a call through one is a
//! chain of comparisons with the functions of its type whose name is
//! used as a value somewhere, each branch a direct call, and a last
//! branch that is an error (`NULL`, or a value that is no function of
//! the type).

use super::ptr::{self, Value};
use super::{expr, CSpan, Fun, Res, Unit, Var};
use crate::types::{CType, FnSig};
use lang_c::ast::{self, Expression as E, UnaryOperator as U};
use lang_c::span::Node;
use std::collections::HashSet;
use wiser_ir::{Diagnostic, ErrorKind, Expr, ScalarTy};
use wiser_num::{CmpOp, Int, IntTy};

/// The functions a function pointer may hold: those the program defines
/// and uses as values (`values`, from the scan), in order of definition.
pub fn targets(unit: &ast::TranslationUnit, values: &HashSet<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for ext in &unit.0 {
        if let ast::ExternalDeclaration::FunctionDefinition(fd) = &ext.node {
            if let Some(name) = declared_name(&fd.node.declarator.node) {
                if values.contains(&name) && !out.contains(&name) {
                    out.push(name);
                }
            }
        }
    }
    out
}

/// The name a declarator declares, however deeply parenthesised.
fn declared_name(d: &ast::Declarator) -> Option<String> {
    match &d.kind.node {
        ast::DeclaratorKind::Identifier(id) => Some(id.node.name.clone()),
        ast::DeclaratorKind::Declarator(inner) => declared_name(&inner.node),
        ast::DeclaratorKind::Abstract => None,
    }
}

/// Is `t` a pointer to a function?
pub fn is_function_pointer(t: &CType) -> bool {
    matches!(t, CType::Pointer(p) if matches!(**p, CType::Func(_)))
}

/// The type of the function `name` as declared.
pub fn sig_of(u: &Unit, name: &str) -> Option<FnSig> {
    let fi = u.funcs.get(name)?;
    Some(FnSig::new(
        fi.ret.clone(),
        fi.params.iter().map(|(_, t)| t.clone()),
    ))
}

/// The function `e` names, when it is a function's name that no variable
/// hides.
pub fn function_name<'e>(
    u: &Unit,
    scope: &dyn Fn(&str) -> Option<Var>,
    e: &'e Node<E>,
) -> Option<&'e str> {
    match &e.node {
        E::Identifier(id)
            if scope(&id.node.name).is_none() && u.funcs.contains_key(&id.node.name) =>
        {
            Some(&id.node.name)
        }
        _ => None,
    }
}

/// The type of a function's name used as a value (C converts it to a
/// pointer to the function); `None` when `e` is no function's name.
pub fn designator_type(
    u: &Unit,
    scope: &dyn Fn(&str) -> Option<Var>,
    e: &Node<E>,
) -> Option<CType> {
    let sig = sig_of(u, function_name(u, scope, e)?)?;
    Some(CType::Pointer(Box::new(CType::Func(Box::new(sig)))))
}

/// The value of the function `name` as a pointer, and its pointee type.
pub fn value(f: &Fun, name: &str, at: CSpan) -> Res<(Expr, CType)> {
    let Some(sig) = sig_of(f.u, name) else {
        return Err(Diagnostic::new(
            f.span(at),
            format!("`{name}` is not declared"),
        ));
    };
    if f.u.funcs[name].def.is_none() {
        return Err(f.u.unsupported(
            at,
            &format!("a pointer to `{name}`, which is declared but defined nowhere (a call through it could not be checked)"),
        ));
    }
    let Some(k) = f.u.fn_targets.iter().position(|n| n == name) else {
        return Err(f.u.unsupported(at, &format!("a pointer to `{name}` here")));
    };
    let id = Expr::int(IntTy::INT, Int::from_u64(k as u64 + 1));
    Ok((id, CType::Func(Box::new(sig))))
}

/// How a call reaches its function.
pub enum Callee<'e> {
    /// By name (`f(x)`, `(*f)(x)` and `(&f)(x)` of a function `f`).
    Named(&'e str),
    /// Through a function pointer: the expression of the pointer and
    /// the function type.
    Pointer(&'e Node<E>, FnSig),
}

/// The function a call's callee expression calls.
pub fn callee<'e>(f: &Fun, e: &'e Node<E>) -> Res<Callee<'e>> {
    let scope = |n: &str| f.lookup(n);
    if let E::Identifier(id) = &e.node {
        if f.lookup(&id.node.name).is_none() {
            // A function, declared or not (an implicit declaration).
            return Ok(Callee::Named(&id.node.name));
        }
    }
    if let E::UnaryOperator(u) = &e.node {
        if matches!(u.node.operator.node, U::Indirection | U::Address) {
            if let Some(name) = function_name(f.u, &scope, &u.node.operand) {
                return Ok(Callee::Named(name));
            }
        }
    }
    match ptr::type_of_value(f, e) {
        Some(CType::Pointer(p)) => match *p {
            CType::Func(sig) => Ok(Callee::Pointer(e, *sig)),
            _ => Err(not_a_function(f, e)),
        },
        _ => Err(not_a_function(f, e)),
    }
}

fn not_a_function(f: &Fun, e: &Node<E>) -> Diagnostic {
    Diagnostic::new(f.span(e.span), "this is called but is not a function")
        .with_help("call a function by its name or through a function pointer")
}

/// A call through a function pointer `pe` of type `sig`: the pointer, then
/// the arguments, are evaluated once, in order; then the pointer is
/// compared with each function of type `sig` that a pointer may hold, and
/// the matching one is called. `NULL` is a `null_dereference`; any other
/// value (an uninitialised pointer) points to no function of the type
/// and is an `out_of_bounds` access, as a data pointer outside every
/// object is.
pub fn call(
    f: &mut Fun,
    pe: &Node<E>,
    sig: &FnSig,
    c: &ast::CallExpression,
    at: CSpan,
) -> Res<Option<Value>> {
    let span = f.span(at);
    if sig.params.len() != c.arguments.len() {
        return Err(Diagnostic::new(
            span,
            format!(
                "a call through a `{}` with {} arguments: the function takes {}",
                sig.describe_pointer(|t| t.describe_in(f)),
                c.arguments.len(),
                sig.params.len()
            ),
        ));
    }
    let (p, _) = ptr::pointer(f, pe)?;
    let target = f.rb.temp(ScalarTy::INT);
    f.rb.assign(target, p, span);
    let mut args = Vec::new();
    for (pty, a) in sig.params.iter().zip(&c.arguments) {
        let (v, ty) = match pty {
            CType::Int(t) => {
                let v = expr::rvalue(f, a)?;
                (expr::convert(f, v, *t), t.scalar(f.u.dm))
            }
            CType::Pointer(elem) => (ptr::pointer_to(f, a, elem)?, ScalarTy::INT),
            // By value: the caller's object, which the callee copies.
            CType::Struct(_) => (super::structs::object(f, a)?.0, ScalarTy::INT),
            other => {
                return Err(f.u.unsupported(
                    a.span,
                    &format!(
                        "arguments of type `{}` through a function pointer",
                        other.describe_in(f)
                    ),
                ))
            }
        };
        let tmp = f.rb.temp(ty);
        f.rb.assign(tmp, v, span);
        args.push(tmp);
    }
    let dst = match &sig.ret {
        CType::Int(t) => Some(f.rb.temp(t.scalar(f.u.dm))),
        CType::Void => None,
        CType::Pointer(_) | CType::Struct(_) => Some(f.rb.temp(ScalarTy::INT)),
        other => {
            return Err(f.u.unsupported(
                at,
                &format!(
                    "calls through pointers to functions returning `{}`",
                    other.describe_in(f)
                ),
            ))
        }
    };
    let candidates: Vec<(usize, String)> =
        f.u.fn_targets
            .iter()
            .enumerate()
            .filter(|(_, n)| sig_of(f.u, n).as_ref() == Some(sig))
            .map(|(k, n)| (k, n.clone()))
            .collect();
    let end = f.rb.label();
    for (k, name) in candidates {
        let (yes, no) = (f.rb.label(), f.rb.label());
        let id = Expr::int(IntTy::INT, Int::from_u64(k as u64 + 1));
        f.rb.branch(Expr::cmp(CmpOp::Eq, f.rb.load(target), id), yes, no, span);
        f.rb.bind(yes);
        let pointers = f.u.funcs[&name]
            .params
            .iter()
            .filter(|(_, t)| matches!(t, CType::Array(..) | CType::Pointer(_)))
            .count();
        let proc = f.u.instance(f.rb.program(), &name, vec![None; pointers])?;
        let values = args.iter().map(|a| f.rb.load(*a)).collect();
        f.rb.call(proc, values, dst, span);
        f.rb.jump(end);
        f.rb.bind(no);
    }
    // No function of the type: `NULL`, or a value that is none.
    let v = f.rb.load(target);
    let null = Expr::cmp(CmpOp::Eq, v.clone(), ptr::null());
    let other = Expr::cmp(CmpOp::Ne, v.clone(), ptr::null());
    let fault = v.fault_if(null, ErrorKind::NullDereference, span).fault_if(
        other,
        ErrorKind::OutOfBounds,
        span,
    );
    let t = f.rb.temp(ScalarTy::INT);
    f.rb.assign(t, fault, span);
    f.rb.assume(Expr::bool(false), span);
    f.rb.bind(end);
    Ok(dst.map(|d| {
        let v = f.rb.load(d);
        match &sig.ret {
            CType::Int(t) => Value::Int((v, *t)),
            CType::Pointer(p) => Value::Ptr(v, (**p).clone()),
            t => Value::Ptr(v, t.clone()),
        }
    }))
}

/// The type a typedef names: `ty`, or the function type of a function
/// declarator (`typedef int op_fn(int);`).
pub fn function_type(ty: CType, params: Option<super::declarator::Params>) -> CType {
    match params {
        Some(ps) => CType::Func(Box::new(FnSig::new(ty, ps.into_iter().map(|(_, t)| t)))),
        None => ty,
    }
}

/// `d` without its name: its derived declarators applied to nothing (the
/// outer part of a parenthesised declarator).
pub fn strip(d: &ast::Declarator) -> ast::Declarator {
    ast::Declarator {
        kind: Node::new(ast::DeclaratorKind::Abstract, d.kind.span),
        derived: d.derived.clone(),
        extensions: Vec::new(),
    }
}
