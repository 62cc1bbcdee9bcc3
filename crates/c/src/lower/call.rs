//! Calls: of the program's functions (one procedure per binding of array
//! parameters), of SV-COMP's special functions, and of functions defined
//! nowhere (an arbitrary result, with a warning; C's output functions
//! print, `output.rs`); calls through function pointers are `fnptr.rs`'s.

use super::expr::{self, Val};
use super::heap;
use super::ptr::{self, Value};
use super::{ArrObj, CSpan, Dim, Fun, Res};
use crate::types::{CInt, CType, Len, Rank};
use lang_c::ast::{self, Expression as E};
use lang_c::span::Node;
use wiser_ir::{Diagnostic, ErrorKind, Expr, ScalarTy};
use wiser_num::{CmpOp, IntTy};

/// The type of `__VERIFIER_nondet_<suffix>`, for the suffixes SV-COMP
/// uses.
fn nondet_suffix(s: &str) -> Option<CInt> {
    let (rank, signed) = match s {
        "bool" | "_Bool" => (Rank::Bool, false),
        "char" => (Rank::Char, true),
        "schar" => (Rank::Char, true),
        "uchar" | "unsigned_char" => (Rank::Char, false),
        "short" => (Rank::Short, true),
        "ushort" | "unsigned_short" => (Rank::Short, false),
        "int" => (Rank::Int, true),
        "uint" | "unsigned" | "unsigned_int" => (Rank::Int, false),
        "long" => (Rank::Long, true),
        "ulong" | "unsigned_long" => (Rank::Long, false),
        "longlong" | "long_long" => (Rank::LongLong, true),
        "ulonglong" | "unsigned_long_long" => (Rank::LongLong, false),
        "size_t" | "u32" => (Rank::Int, false),
        "loff_t" => (Rank::LongLong, true),
        "float" => (Rank::Float, true),
        "double" => (Rank::Double, true),
        _ => return None,
    };
    Some(CInt { rank, signed })
}

/// The result type of a special function, if `name` is one with a result.
pub fn special_type(name: &str) -> Option<CInt> {
    name.strip_prefix("__VERIFIER_nondet_")
        .and_then(nondet_suffix)
}

/// What a lowering of a family of library functions (threads, allocation)
/// makes of a call: `None` when the function is not one of them, else the
/// call's value (`None` for `void`).
pub(super) type LibraryCall = Res<Option<Option<Value>>>;

/// Lowers a call; its value, unless the function returns `void`.
pub fn call(f: &mut Fun, c: &ast::CallExpression, at: CSpan) -> Res<Option<Value>> {
    let name = match super::fnptr::callee(f, &c.callee)? {
        super::fnptr::Callee::Named(name) => name,
        super::fnptr::Callee::Pointer(pe, sig) => return super::fnptr::call(f, pe, &sig, c, at),
    };
    let defined = f.u.funcs.get(name).is_some_and(|fi| fi.def.is_some());
    if !defined {
        for library in [
            super::thread::call,
            super::alloc::call,
            super::memfns::call,
            super::sprintf::call,
        ] {
            if let Some(v) = library(f, name, c, at)? {
                return Ok(v);
            }
        }
    }
    Ok(int_call(f, c, at, name, defined)?.map(|v| match v {
        Ok(v) => Value::Int(v),
        Err((e, t)) => Value::Ptr(e, t),
    }))
}

/// A pointer result: the reference and the pointee type.
type PtrResult = (Expr, CType);

/// Lowers a call of a program function or of an SV-COMP function.
fn int_call(
    f: &mut Fun,
    c: &ast::CallExpression,
    at: CSpan,
    name: &str,
    defined: bool,
) -> Res<Option<Result<Val, PtrResult>>> {
    let span = f.span(at);
    match name {
        "reach_error" | "__VERIFIER_error" => {
            f.rb.fail(span);
            return Ok(None);
        }
        "__assert_fail" | "__assert" | "__assert_perror_fail" => {
            f.rb.assert(Expr::bool(false), span);
            return Ok(None);
        }
        "__VERIFIER_assume" => {
            let arg = one_arg(f, c, at)?;
            let k = expr::cond(f, arg)?;
            f.rb.assume(k, span);
            return Ok(None);
        }
        "assume_abort_if_not" if !defined => {
            let arg = one_arg(f, c, at)?;
            let k = expr::cond(f, arg)?;
            f.rb.assume(k, span);
            return Ok(None);
        }
        "abort" | "exit" | "_exit" | "__VERIFIER_silent_abort" => {
            for a in &c.arguments {
                expr::effect(f, a)?;
            }
            // The program ends here with every frame's locals still
            // pointing where they point, and wiser does not walk the
            // callers' frames: with no object `malloc` made alive, no
            // leak is possible; with one, whether a frame still reaches
            // it is not decided here (`Ir::undecided`).
            let mut end = Expr::bool(false);
            if f.u.allocates {
                let mem = heap::mem(f.u, f.rb.program());
                let live = Expr::cmp(CmpOp::Ne, f.rb.load(mem.live), Expr::int(IntTy::INT, 0));
                end = end.fault_if(live, ErrorKind::MemoryLeak, span);
                f.u.heap.exit_checks.push(span);
            }
            f.rb.assume(end, span);
            return Ok(None);
        }
        // GCC's branch hint: the value of its first argument.
        "__builtin_expect" if c.arguments.len() == 2 => {
            let v = expr::rvalue(f, &c.arguments[0])?;
            expr::effect(f, &c.arguments[1])?;
            let long = CInt {
                rank: Rank::Long,
                signed: true,
            };
            return Ok(Some(Ok((expr::convert(f, v, long), long))));
        }
        "__builtin_unreachable" => {
            f.rb.assume(Expr::bool(false), span);
            return Ok(None);
        }
        _ => {}
    }
    if let Some(ty) = special_type(name) {
        // SV-COMP's rules make every call of `__VERIFIER_nondet_T` an
        // arbitrary value of `T`, whatever a program's own definition
        // says (older tasks return an uninitialised local from one): the
        // body is not run, and the harness takes the definition over.
        if defined {
            f.u.warn(
                at,
                format!("`{name}` is defined by the program: its calls are taken as arbitrary values of their type, as SV-COMP's rules say, and its body is not run"),
            );
        }
        return Ok(Some(Ok(nondet(f, name, ty, span))));
    }
    if !defined {
        if let Some(v) = super::float::call(f, name, &c.arguments, at, &mut expr::rvalue) {
            return Ok(Some(Ok(v?)));
        }
    }
    if !defined {
        return Ok(undefined(f, name, c, at)?.map(Ok));
    }
    let info = &f.u.funcs[name];
    let params = info.params.clone();
    let ret = info.ret.clone();
    if params.len() != c.arguments.len() {
        return Err(Diagnostic::new(
            span,
            format!(
                "`{name}` takes {} arguments, {} given",
                params.len(),
                c.arguments.len()
            ),
        ));
    }
    // A function of wiser's C library (not in the user's file) that only
    // reads through a parameter may get a pointer into a union's member.
    let library = info.span.file != wiser_ir::FileId(0);
    let mut args = Vec::new();
    let mut arrays = Vec::new();
    for (k, ((_, pty), a)) in params.iter().zip(&c.arguments).enumerate() {
        match pty {
            CType::Int(t) => {
                let v = expr::rvalue(f, a)?;
                // Later arguments' effects must not change an earlier
                // argument's value: hold values in temporaries when any
                // effect follows.
                let v = expr::convert(f, v, *t);
                args.push((v, Some(*t)));
            }
            CType::Array(..) | CType::Pointer(_) if is_array_arg(f, a) => {
                arrays.push(Some(bind_array(f, pty, a)?))
            }
            CType::Array(elem, _) | CType::Pointer(elem) => {
                // A pointer passed as a value (a reference).
                let v = if library && crate::libc::reads_only(name, k) {
                    ptr::pointer_to_read(f, a, elem)?
                } else {
                    ptr::pointer_to(f, a, elem)?
                };
                arrays.push(None);
                args.push((v, None));
            }
            CType::Void => return Err(Diagnostic::new(span, "a `void` parameter")),
            // By value: the caller's object, which the callee copies.
            CType::Struct(_) => {
                let (v, _) = super::structs::object(f, a)?;
                args.push((v, None));
            }
            other => {
                return Err(f.u.unsupported(
                    a.span,
                    &format!("arguments of type `{}`", other.describe_in(f)),
                ))
            }
        }
    }
    if c.arguments.iter().skip(1).any(|a| f.effects(a)) {
        for (v, t) in &mut args {
            let ty = t.map_or(ScalarTy::INT, |t| t.scalar(f.u.dm));
            let tmp = f.rb.temp(ty);
            f.rb.assign(tmp, v.clone(), span);
            *v = f.rb.load(tmp);
        }
    }
    let proc = f.u.instance(f.rb.program(), name, arrays)?;
    let args = args.into_iter().map(|(v, _)| v).collect();
    match ret {
        CType::Int(t) => {
            let dst = f.rb.temp(t.scalar(f.u.dm));
            f.rb.call(proc, args, Some(dst), span);
            Ok(Some(Ok((f.rb.load(dst), t))))
        }
        CType::Void => {
            f.rb.call(proc, args, None, span);
            Ok(None)
        }
        CType::Pointer(t) => {
            let dst = f.rb.temp(ScalarTy::INT);
            f.rb.call(proc, args, Some(dst), span);
            Ok(Some(Err((f.rb.load(dst), *t))))
        }
        // A structure: a pointer to the callee's copy of its result.
        t @ CType::Struct(_) => {
            let dst = f.rb.temp(ScalarTy::INT);
            f.rb.call(proc, args, Some(dst), span);
            Ok(Some(Err((f.rb.load(dst), t))))
        }
        _ => Err(f
            .u
            .unsupported(at, "functions returning arrays or structures")),
    }
}

/// Does the argument denote an array (bound to an array parameter as an
/// object) rather than a pointer value?
fn is_array_arg(f: &Fun, a: &Node<E>) -> bool {
    // An array whose elements live in an object is passed as the pointer
    // to its first element.
    if let E::Identifier(id) = &a.node {
        if matches!(f.lookup(&id.node.name), Some(super::Var::Block(..))) {
            return false;
        }
    }
    // So is an array member of a structure (`s.data`), which lives in the
    // structure's object.
    if matches!(a.node, E::Member(_)) {
        return false;
    }
    matches!(
        super::static_type::static_type(f.u, &|n: &str| f.lookup(n), a),
        Ok(CType::Array(..))
    )
}

fn one_arg<'c>(f: &Fun, c: &'c ast::CallExpression, at: CSpan) -> Res<&'c Node<E>> {
    match c.arguments.as_slice() {
        [a] => Ok(a),
        _ => Err(Diagnostic::new(
            f.span(at),
            "this function takes one argument",
        )),
    }
}

/// An input read: a nondeterministic value of type `ty`.
fn nondet(f: &mut Fun, name: &str, ty: CInt, span: wiser_ir::Span) -> Val {
    let nf = f.u.nondet_fn(name, ty);
    f.u.nondet_reads.insert(span, nf);
    let t = f.rb.temp(ty.scalar(f.u.dm));
    f.rb.havoc(t, span);
    let v = f.rb.load(t);
    if ty.rank == Rank::Bool {
        // Any value of `_Bool` is 0 or 1.
        return (expr::convert(f, (v, CInt::UINT), ty), ty);
    }
    (v, ty)
}

/// Functions of the C library whose only effect is output: a call of
/// one changes nothing the program can read back (its result, an
/// arbitrary value, is an input only where a path reads it), so it needs
/// no warning. Any other function defined nowhere (`scanf` writes through
/// its arguments) is assumed to change nothing, and the warning says so.
pub(crate) const OUTPUT_ONLY: &[&str] = &[
    "printf", "fprintf", "puts", "fputs", "putchar", "putc", "fputc", "fflush", "perror",
];

/// A function declared (or not) but defined nowhere: its arguments are
/// evaluated, and its result is an arbitrary value of its type.
fn undefined(f: &mut Fun, name: &str, c: &ast::CallExpression, at: CSpan) -> Res<Option<Val>> {
    let ret = match f.u.funcs.get(name) {
        Some(fi) => fi.ret.clone(),
        None => {
            f.u.warn(
                at,
                format!("implicit declaration of function `{name}`: its result is taken as an arbitrary `int`"),
            );
            CType::INT
        }
    };
    if f.u.funcs.contains_key(name) && !OUTPUT_ONLY.contains(&name) {
        f.u.warn(
            at,
            format!("`{name}` is declared but not defined: a call returns an arbitrary value and is assumed to change nothing else"),
        );
    }
    let printed = OUTPUT_ONLY.contains(&name) && super::output::call(f, name, c, at)?;
    for a in c.arguments.iter().filter(|_| !printed) {
        if !matches!(a.node, E::StringLiteral(_)) {
            if let E::Identifier(id) = &a.node {
                if matches!(f.lookup(&id.node.name), Some(super::Var::Array(_))) {
                    continue;
                }
            }
            expr::effect(f, a)?;
        }
    }
    let span = f.span(at);
    match ret {
        CType::Int(t) => {
            f.u.droppable_havocs.insert(span);
            Ok(Some(nondet(f, name, t, span)))
        }
        CType::Void => Ok(None),
        _ => Err(f
            .u
            .unsupported(at, "calls of undefined functions that return pointers")),
    }
}

/// The array object an array argument binds to a parameter of type `pty`.
fn bind_array(f: &mut Fun, pty: &CType, a: &Node<E>) -> Res<ArrObj> {
    let (obj, depth, offset) = expr::array_ref(f, a)?;
    if depth != 0 || offset.is_some() {
        return Err(f
            .u
            .unsupported(a.span, "passing a row of an array (pointer arithmetic)"));
    }
    // The parameter's inner dimensions must be the object's.
    let pdims = match pty {
        CType::Pointer(elem) => {
            let mut v = vec![Len::Unknown];
            if let Some((_, inner)) = elem.dims() {
                v.extend(inner);
            }
            v
        }
        t => t.dims().map(|(_, d)| d).unwrap_or_default(),
    };
    let pelem = match pty {
        CType::Pointer(e) => e.dims().map(|(i, _)| i).or_else(|| e.int()),
        t => t.dims().map(|(i, _)| i),
    };
    let same_inner = pdims.len() == obj.dims.len()
        && pdims
            .iter()
            .zip(&obj.dims)
            .skip(1)
            .all(|(p, o)| match (p, o) {
                (Len::Const(n), Dim::Const(m)) => n == m,
                _ => false,
            });
    let elem_ok =
        pelem.is_some_and(|e| e.ir(f.u.dm) == obj.elem.ir(f.u.dm) && e.rank == obj.elem.rank);
    if !same_inner || !elem_ok {
        return Err(f.u.unsupported(
            a.span,
            "passing an array to a parameter of another shape or element type",
        ));
    }
    Ok(obj)
}
