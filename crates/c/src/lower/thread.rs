//! POSIX threads and SV-COMP's atomic sections, on the IR's thread
//! machinery: `pthread_create` spawns a procedure (the thread function,
//! lowered once more as a thread body that returns nothing: the value a
//! thread returns is never read), `pthread_join` joins, `pthread_exit`
//! returns from the thread body, a `pthread_mutex_t` is a reference to a
//! `$mutex` object whose lock `pthread_mutex_lock`/`unlock` take and
//! release, and `__VERIFIER_atomic_begin()`/`end()` (and every function
//! named `__VERIFIER_atomic_*`, from entry to return) are atomic
//! sections.

use super::call::LibraryCall;
use super::expr::{self, LVal};
use super::ptr::{self, Value};
use super::{heap, structs, CSpan, Fun, Res, Var};
use crate::types::{CInt, CType};
use lang_c::ast::{self, BinaryOperator as B, Expression as E, UnaryOperator as U};
use lang_c::span::Node;
use wiser_ir::{Diagnostic, Expr, Place, ScalarTy};
use wiser_num::IntTy;

/// Is evaluating `e` free of reads of shared state (only constants and
/// the locals of the running frame)?
pub fn local_pure(f: &Fun, e: &Node<E>) -> bool {
    match &e.node {
        E::Constant(_) | E::SizeOfTy(_) | E::SizeOfVal(_) => true,
        E::Identifier(id) => matches!(
            f.lookup(&id.node.name),
            Some(Var::Const(_))
                | Some(Var::Scalar(Place::Local(_), _))
                | Some(Var::Ptr(Place::Local(_), _))
        ),
        E::UnaryOperator(u) => {
            matches!(
                u.node.operator.node,
                U::Plus | U::Minus | U::Complement | U::Negate
            ) && local_pure(f, &u.node.operand)
        }
        E::BinaryOperator(b) => {
            !matches!(b.node.operator.node, B::Index | B::Assign)
                && !expr::is_compound(&b.node.operator.node)
                && local_pure(f, &b.node.lhs)
                && local_pure(f, &b.node.rhs)
        }
        E::Cast(c) => local_pure(f, &c.node.expression),
        E::Conditional(c) => {
            local_pure(f, &c.node.condition)
                && local_pure(f, &c.node.then_expression)
                && local_pure(f, &c.node.else_expression)
        }
        _ => false,
    }
}

/// Is `name` a function that runs atomically (SV-COMP's convention)?
pub fn is_atomic_fn(name: &str) -> bool {
    name.starts_with("__VERIFIER_atomic_")
        && name != "__VERIFIER_atomic_begin"
        && name != "__VERIFIER_atomic_end"
}

fn zero() -> Option<Value> {
    Some(Value::Int((Expr::int(IntTy::I32, 0), CInt::INT)))
}

fn args<'c>(f: &Fun, c: &'c ast::CallExpression, n: usize, at: CSpan) -> Res<&'c [Node<E>]> {
    if c.arguments.len() != n {
        return Err(Diagnostic::new(
            f.span(at),
            format!(
                "this function takes {n} arguments, {} given",
                c.arguments.len()
            ),
        ));
    }
    Ok(&c.arguments)
}

/// Requires a null pointer argument (an attribute or a result pointer
/// that wiser does not model).
fn require_null(f: &Fun, e: &Node<E>, what: &str) -> Res<()> {
    if ptr::is_null(f, e) {
        Ok(())
    } else {
        Err(f.u.unsupported(e.span, what))
    }
}

/// Lowers a call of a thread or atomic-section function; `None` when
/// `name` is not one.
pub fn call(f: &mut Fun, name: &str, c: &ast::CallExpression, at: CSpan) -> LibraryCall {
    let span = f.span(at);
    let result = match name {
        "__VERIFIER_atomic_begin" | "__VERIFIER_atomic_end" => {
            f.rb.atomic(name == "__VERIFIER_atomic_begin", span);
            None
        }
        "pthread_create" => {
            let a = args(f, c, 4, at)?;
            create(f, a, span)?;
            zero()
        }
        "pthread_join" => {
            let a = args(f, c, 2, at)?;
            require_null(
                f,
                &a[1],
                "reading a thread's result in `pthread_join` (pass NULL)",
            )?;
            let (t, _) = expr::rvalue(f, &a[0])?;
            f.rb.join(t, span);
            zero()
        }
        "pthread_exit" => {
            let a = args(f, c, 1, at)?;
            if !f.thread {
                return Err(f
                    .u
                    .unsupported(at, "`pthread_exit` outside the function a thread starts in"));
            }
            if !ptr::is_null(f, &a[0]) {
                expr::effect(f, &a[0])?;
            }
            f.rb.ret(None, span);
            None
        }
        "pthread_mutex_init" => {
            let a = args(f, c, 2, at)?;
            require_null(f, &a[1], "mutex attributes (pass NULL)")?;
            mutex_init(f, &a[0], span)?;
            zero()
        }
        "pthread_mutex_lock" | "pthread_mutex_unlock" => {
            let a = args(f, c, 1, at)?;
            let m = mutex(f, &a[0])?;
            let class = heap::mutex_class(f.u, f.rb.program());
            f.rb.lock(class, m, name == "pthread_mutex_lock", span);
            zero()
        }
        "pthread_mutex_destroy" => {
            // Nothing to undo; the mutex must exist.
            let a = args(f, c, 1, at)?;
            let m = mutex(f, &a[0])?;
            let t = f.rb.temp(ScalarTy::INT);
            f.rb.assign(t, Expr::deref(m, span), span);
            zero()
        }
        _ if name.starts_with("pthread_") => {
            return Err(f.u.unsupported(c.callee.span, &format!("`{name}`")))
        }
        _ => return Ok(None),
    };
    Ok(Some(result))
}

/// The reference of the mutex a `pthread_mutex_t *` argument points to.
fn mutex(f: &mut Fun, e: &Node<E>) -> Res<Expr> {
    let (m, t) = ptr::pointer(f, e)?;
    if t != CType::Mutex {
        return Err(Diagnostic::new(
            f.span(e.span),
            format!(
                "a `{} *` where a `pthread_mutex_t *` is expected",
                t.describe_in(f)
            ),
        ));
    }
    Ok(m)
}

/// `pthread_mutex_init(&m, NULL)`. Mutex variables get their object where
/// they are declared (so `PTHREAD_MUTEX_INITIALIZER` needs nothing);
/// a mutex member of an object made by `malloc` is `NULL` until this
/// call makes its mutex.
fn mutex_init(f: &mut Fun, e: &Node<E>, span: wiser_ir::Span) -> Res<()> {
    if let E::UnaryOperator(u) = &e.node {
        if u.node.operator.node == U::Address {
            if let E::Member(m) = &u.node.operand.node {
                let (obj, ty) = structs::member(f, &m.node, u.node.operand.span)?;
                if ty == CType::Mutex {
                    let (array, _) = heap::cell_array(f, &ty, u.node.operand.span)?;
                    let t = f.rb.temp(ScalarTy::INT);
                    heap::allocate(f, t, &ty, Expr::int(wiser_num::IntTy::INT, 1), true, span);
                    let v = f.rb.load(t);
                    f.rb.store(array, obj, v, span);
                    return Ok(());
                }
            }
        }
    }
    let m = mutex(f, e)?;
    let t = f.rb.temp(ScalarTy::INT);
    f.rb.assign(t, Expr::deref(m, span), span);
    Ok(())
}

/// `pthread_create(&t, NULL, fn, arg)`.
fn create(f: &mut Fun, a: &[Node<E>], span: wiser_ir::Span) -> Res<()> {
    require_null(
        f,
        &a[1],
        "thread attributes in `pthread_create` (pass NULL)",
    )?;
    // The thread function, through casts and `&`.
    let mut callee = &a[2];
    loop {
        match &callee.node {
            E::Cast(c) => callee = &c.node.expression,
            E::UnaryOperator(u) if u.node.operator.node == U::Address => callee = &u.node.operand,
            _ => break,
        }
    }
    let name = match &callee.node {
        E::Identifier(id)
            if f.u
                .funcs
                .get(&id.node.name)
                .is_some_and(|fi| fi.def.is_some()) =>
        {
            id.node.name.clone()
        }
        _ => {
            return Err(f.u.unsupported(
                a[2].span,
                "a thread function that is not a function defined in the program",
            ))
        }
    };
    let params = f.u.funcs[&name].params.clone();
    let mut values = Vec::new();
    match params.as_slice() {
        [] => {
            if !ptr::is_null(f, &a[3]) {
                expr::effect(f, &a[3])?;
            }
        }
        [(_, CType::Pointer(t))] => values.push(ptr::pointer_to(f, &a[3], t)?),
        [(_, CType::Int(t))] => {
            let v = expr::rvalue(f, &a[3])?;
            values.push(expr::convert(f, v, *t));
        }
        _ => {
            return Err(f.u.unsupported(
                a[2].span,
                "a thread function whose parameter is not one `void *` (or integer)",
            ))
        }
    }
    let proc = f.u.thread_instance(f.rb.program(), &name)?;
    // The thread id goes to `t` itself (`&t` names the place).
    let target = match &a[0].node {
        E::UnaryOperator(u) if u.node.operator.node == U::Address => &u.node.operand,
        _ => {
            return Err(f.u.unsupported(
                a[0].span,
                "a thread id stored through a pointer (write `&t` for a `pthread_t t`)",
            ))
        }
    };
    let lv = expr::lvalue(f, target)?;
    match &lv {
        LVal::Place(p, _) => f.rb.spawn(proc, values, Some(*p), span),
        other => {
            let ty = other.ty(f.u.dm);
            let t = f.rb.temp(ty.scalar(f.u.dm));
            f.rb.spawn(proc, values, Some(t), span);
            let v = f.rb.load(t);
            expr::store(f, other, v, span);
        }
    }
    Ok(())
}
