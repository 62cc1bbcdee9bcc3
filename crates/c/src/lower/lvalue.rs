//! Lvalues (variables, array elements, members and cells) and what is
//! done to them: reading, storing, assignment, compound assignment and
//! `++`/`--`, each emitted as instructions in C's evaluation order.

use super::expr::{convert, pointer_as_int, promote, rvalue, undeclared, Val};
use super::{consts, decl, ptr, ArrObj, CSpan, Dim, Fun, Res, Var};
use crate::types::{CInt, CType, Rank};
use lang_c::ast::{self, BinaryOperator as B, Expression as E, UnaryOperator as U};
use lang_c::span::Node;
use wiser_ir::{Diagnostic, Expr, Place, ScalarTy};
use wiser_num::{BinOp, Int, IntTy};

/// Something that can be assigned.
#[derive(Clone)]
pub enum LVal {
    /// A scalar variable.
    Place(Place, CInt),
    /// An array element: the array and the flat subscript (`u64`, bounds
    /// already checked).
    Elem(ArrObj, Expr),
    /// An integer member of an object, or the value of a cell: the
    /// member's array and the object's reference (checked).
    Heap(wiser_ir::ArrayId, Expr, CInt),
    /// A bit-field member ([`super::bitfields`]): as [`LVal::Heap`],
    /// with its width.
    Bits(wiser_ir::ArrayId, Expr, CInt, u32),
}

impl LVal {
    /// Its C type (what a read of it is: a bit-field's promoted type).
    pub fn ty(&self, dm: crate::DataModel) -> CInt {
        match self {
            LVal::Place(_, t) | LVal::Heap(_, _, t) => *t,
            LVal::Elem(o, _) => o.elem,
            LVal::Bits(_, _, t, w) => super::bitfields::value_ty(*t, *w, dm),
        }
    }
}

/// The value of an lvalue. A read of shared state (a global, an array
/// element, a member) is an instruction of its own in a threaded program
/// ([`Fun::shared`]).
pub fn load(f: &mut Fun, lv: &LVal, span: wiser_ir::Span) -> Val {
    match lv {
        LVal::Place(p @ Place::Local(_), t) => (f.rb.load(*p), *t),
        LVal::Place(p, t) => {
            let v = f.rb.load(*p);
            (f.shared(v, span), *t)
        }
        LVal::Elem(o, i) => {
            let v = Expr::select(o.id, decl::array_ty(f.u, o.elem), i.clone());
            (f.shared(v, span), o.elem)
        }
        LVal::Heap(a, obj, t) => (super::heap::load_int(f, *a, obj.clone(), *t, span), *t),
        LVal::Bits(a, obj, t, w) => {
            let v = super::heap::load_int(f, *a, obj.clone(), *t, span);
            let dm = f.u.dm;
            (super::bitfields::read(v, *t, *w, dm), lv.ty(dm))
        }
    }
}

/// The value an assignment expression has: the lvalue read back, or in
/// a threaded program the value stored (a read back could see another
/// thread's write).
fn assigned(f: &mut Fun, lv: &LVal, stored: Expr, span: wiser_ir::Span) -> Val {
    if f.u.threaded {
        let stored = match lv {
            LVal::Bits(_, _, t, w) => {
                let slot = super::bitfields::truncate(stored, *t, *w, f.u.dm);
                super::bitfields::read(slot, *t, *w, f.u.dm)
            }
            _ => stored,
        };
        (stored, lv.ty(f.u.dm))
    } else {
        load(f, lv, span)
    }
}

/// Stores a value (already of the lvalue's type).
pub fn store(f: &mut Fun, lv: &LVal, v: Expr, span: wiser_ir::Span) {
    match lv {
        LVal::Place(p, _) => f.rb.assign(*p, v, span),
        LVal::Elem(o, i) => f.rb.store(o.id, i.clone(), v, span),
        LVal::Heap(a, obj, t) => super::heap::store_int(f, *a, obj.clone(), v, *t, span),
        LVal::Bits(a, obj, t, w) => {
            let v = super::bitfields::truncate(v, *t, *w, f.u.dm);
            super::heap::store_int(f, *a, obj.clone(), v, *t, span)
        }
    }
}

/// The memory cell an lvalue is, and its type (for
/// [`super::unions::after_store`]); `None` for a variable or an element
/// of an IR array. Its pointer is a load or a constant ([`stable`]).
fn cell(lv: &LVal) -> Option<(Expr, CType)> {
    match lv {
        LVal::Heap(_, obj, t) | LVal::Bits(_, obj, t, _) => Some((obj.clone(), CType::Int(*t))),
        _ => None,
    }
}

/// An lvalue whose subscript is held in a temporary when it has to be
/// evaluated twice (read, then written) and its evaluation has checks.
fn stable(f: &mut Fun, lv: LVal, span: wiser_ir::Span) -> LVal {
    match lv {
        LVal::Elem(o, i) if i.as_const().is_none() => {
            let t = f.rb.temp(ScalarTy::Int(IntTy::U64));
            f.rb.assign(t, i, span);
            let i = f.rb.load(t);
            LVal::Elem(o, i)
        }
        LVal::Heap(a, obj, ty) if obj.as_const().is_none() => {
            let t = f.rb.temp(ScalarTy::INT);
            f.rb.assign(t, obj, span);
            LVal::Heap(a, f.rb.load(t), ty)
        }
        LVal::Bits(a, obj, ty, w) if obj.as_const().is_none() => {
            let t = f.rb.temp(ScalarTy::INT);
            f.rb.assign(t, obj, span);
            LVal::Bits(a, f.rb.load(t), ty, w)
        }
        other => other,
    }
}

pub(super) fn assign(f: &mut Fun, lhs: &Node<E>, rhs: &Node<E>, at: CSpan) -> Res<Val> {
    let span = f.span(at);
    let lv = lvalue(f, lhs)?;
    let lv = if f.effects(rhs) {
        stable(f, lv, span)
    } else {
        lv
    };
    let v = rvalue(f, rhs)?;
    let v = convert(f, v, lv.ty(f.u.dm));
    let lv = stable(f, lv, span);
    store(f, &lv, v.clone(), span);
    super::unions::after_store(f, lhs, cell(&lv), at)?;
    Ok(assigned(f, &lv, v, span))
}

pub(super) fn compound(
    f: &mut Fun,
    b: &ast::BinaryOperatorExpression,
    at: CSpan,
    value: bool,
) -> Res<Val> {
    let span = f.span(at);
    let opspan = f.span(b.operator.span);
    let bop = consts::arith_op(&b.operator.node).expect("a compound operator");
    if ptr::is_pointer(f, &b.lhs) {
        return Err(ptr::arithmetic(f, b.operator.span));
    }
    let lv = lvalue(f, &b.lhs)?;
    let lv = stable(f, lv, span);
    let r = rvalue(f, &b.rhs)?;
    let l = load(f, &lv, span);
    let ty = lv.ty(f.u.dm);
    let (res, rt) = if matches!(bop, BinOp::Shl | BinOp::Shr) {
        super::expr::needs_integer(f, bop.symbol(), l.1, b.operator.span)?;
        super::expr::needs_integer(f, bop.symbol(), r.1, b.operator.span)?;
        let (l, lt) = promote(f, l);
        let (r, _) = promote(f, r);
        (Expr::binary(bop, l, r, opspan), lt)
    } else {
        super::expr::arith(f, bop, l, r, b.operator.span)?
    };
    let v = convert(f, (res, rt), ty);
    store(f, &lv, v.clone(), span);
    super::unions::after_store(f, &b.lhs, cell(&lv), at)?;
    let _ = value;
    Ok(assigned(f, &lv, v, span))
}

/// `++`/`--`, prefix or postfix: the new or the old value (`None` never:
/// always a value, kept in a temporary for the postfix forms).
pub(super) fn step(
    f: &mut Fun,
    operand: &Node<E>,
    up: bool,
    post: bool,
    at: CSpan,
) -> Res<Option<Val>> {
    let span = f.span(at);
    if ptr::is_pointer(f, operand) {
        return Err(ptr::arithmetic(f, at));
    }
    let lv = lvalue(f, operand)?;
    let lv = stable(f, lv, span);
    let old = load(f, &lv, span);
    let ty = old.1;
    let saved = if post {
        let t = f.rb.temp(ty.scalar(f.u.dm));
        f.rb.assign(t, old.0.clone(), span);
        Some(t)
    } else {
        None
    };
    let (p, pt) = promote(f, old);
    let one = (super::float::one(pt, f.u.dm), pt);
    let op = if up { BinOp::Add } else { BinOp::Sub };
    let (new, _) = super::expr::arith(f, op, (p, pt), one, at)?;
    let new = if ty.rank == Rank::Bool {
        // `b++` sets a `_Bool` to 1; `b--` flips it.
        convert(f, (new, pt), ty)
    } else {
        convert(f, (new, pt), ty)
    };
    store(f, &lv, new.clone(), span);
    super::unions::after_store(f, operand, cell(&lv), at)?;
    Ok(Some(match saved {
        Some(t) => (f.rb.load(t), ty),
        None => assigned(f, &lv, new, span),
    }))
}

/// An lvalue: a scalar variable, an array element (`a[i][j]`, `*a`).
pub fn lvalue(f: &mut Fun, e: &Node<E>) -> Res<LVal> {
    match &e.node {
        E::Identifier(id) => match f.lookup(&id.node.name) {
            Some(Var::Scalar(p, t)) => Ok(LVal::Place(p, t)),
            Some(Var::Array(_)) => Err(f.u.unsupported(e.span, "assigning a whole array")),
            Some(Var::Const(_)) => Err(Diagnostic::new(
                f.span(e.span),
                "an enumeration constant cannot be assigned",
            )),
            Some(Var::Cell(p, CType::Int(t))) => {
                let (array, _) = super::heap::cell_array(f, &CType::Int(t), e.span)?;
                Ok(LVal::Heap(array, f.rb.load(p), t))
            }
            Some(Var::Ptr(..) | Var::Cell(..)) => Err(pointer_as_int(f, e.span)),
            Some(Var::Block(..)) => Err(f.u.unsupported(e.span, "assigning a whole array")),
            Some(Var::Struct(..) | Var::Mutex(_)) => Err(f
                .u
                .unsupported(e.span, "assigning a whole structure or mutex")),
            None => Err(undeclared(f, &id.node.name, e.span)),
        },
        E::BinaryOperator(b)
            if b.node.operator.node == B::Index
                && (ptr::is_pointer(f, &b.node.lhs) || ptr::is_pointer(f, &b.node.rhs)) =>
        {
            ptr::int_lvalue(f, e)
        }
        E::BinaryOperator(b) if b.node.operator.node == B::Index => {
            let (obj, depth, offset) = subscripted(f, e)?;
            match offset {
                Some(offset) if depth == obj.dims.len() => Ok(LVal::Elem(obj, offset)),
                _ => Err(f
                    .u
                    .unsupported(e.span, "a row of a multi-dimensional array used as a value")),
            }
        }
        E::UnaryOperator(u)
            if u.node.operator.node == U::Indirection && ptr::is_pointer(f, &u.node.operand) =>
        {
            ptr::int_lvalue(f, e)
        }
        E::Member(_) => ptr::int_lvalue(f, e),
        E::UnaryOperator(u) if u.node.operator.node == U::Indirection => {
            let (obj, depth, offset) = array_ref(f, &u.node.operand)?;
            if depth >= obj.dims.len() {
                return Err(f
                    .u
                    .unsupported(e.span, "`*` on something that is not an array (pointers)"));
            }
            let span = f.span(e.span);
            let (offset, depth) =
                index_into(f, &obj, depth, offset, Expr::int(IntTy::I32, 0), span);
            if depth != obj.dims.len() {
                return Err(f
                    .u
                    .unsupported(e.span, "a row of a multi-dimensional array used as a value"));
            }
            Ok(LVal::Elem(obj, offset))
        }
        E::Statement(_) | E::Comma(_) | E::Conditional(_) => {
            Err(f.u.unsupported(e.span, "this assignment target"))
        }
        _ => Err(
            Diagnostic::new(f.span(e.span), "this expression cannot be assigned")
                .with_help("assign to a variable or an array element"),
        ),
    }
}

/// `a[i]...[k]`: the array, how many subscripts were applied, and the
/// flat offset so far.
fn subscripted(f: &mut Fun, e: &Node<E>) -> Res<(ArrObj, usize, Option<Expr>)> {
    let E::BinaryOperator(b) = &e.node else {
        return array_ref(f, e);
    };
    if b.node.operator.node != B::Index {
        return array_ref(f, e);
    }
    let (obj, depth, offset) = subscripted(f, &b.node.lhs)?;
    if depth >= obj.dims.len() {
        return Err(Diagnostic::new(
            f.span(e.span),
            "subscript of a value that is not an array",
        ));
    }
    let (i, _) = rvalue(f, &b.node.rhs)?;
    let span = f.span(e.span);
    let (offset, depth) = index_into(f, &obj, depth, offset, i, span);
    Ok((obj, depth, Some(offset)))
}

/// Applies one subscript: checks it against its dimension and folds it
/// into the flat offset (row-major).
fn index_into(
    f: &mut Fun,
    obj: &ArrObj,
    depth: usize,
    offset: Option<Expr>,
    i: Expr,
    span: wiser_ir::Span,
) -> (Expr, usize) {
    let len = dim_expr(f, &obj.dims[depth]);
    let ty = decl::array_ty(f.u, obj.elem);
    let i = Expr::bounded_index(ty, i, len.clone(), span);
    let flat = match offset {
        None => i,
        Some(o) => Expr::binary(BinOp::Add, Expr::binary(BinOp::Mul, o, len, span), i, span),
    };
    (flat, depth + 1)
}

fn dim_expr(f: &Fun, d: &Dim) -> Expr {
    match d {
        Dim::Const(n) => Expr::int(IntTy::U64, Int::from_u64(*n)),
        Dim::Var(p) => f.rb.load(*p),
    }
}

/// An expression that denotes an array (a name, or a row `a[i]` of a
/// multi-dimensional one).
pub fn array_ref(f: &mut Fun, e: &Node<E>) -> Res<(ArrObj, usize, Option<Expr>)> {
    match &e.node {
        E::Identifier(id) => match f.lookup(&id.node.name) {
            Some(Var::Array(obj)) => Ok((obj, 0, None)),
            Some(_) => Err(f.u.unsupported(
                e.span,
                "subscripts and `*` on something that is not an array (pointers)",
            )),
            None => Err(undeclared(f, &id.node.name, e.span)),
        },
        E::BinaryOperator(b) if b.node.operator.node == B::Index => subscripted(f, e),
        // `s.data[i]` of an array member is an access through a pointer
        // (`ptr::int_lvalue`); here the member is no such array, and the
        // member access says why.
        E::Member(m) => {
            super::structs::member_slot(f, &m.node, e.span)?;
            Err(Diagnostic::new(
                f.span(e.span),
                "subscript of a member that is not an array",
            ))
        }
        _ => Err(f.u.unsupported(e.span, "pointer arithmetic")),
    }
}
