//! Pointers with arithmetic, for front ends whose language has them (C):
//! a pointer is one `int`, `object * STRIDE + offset`. `object` is the
//! reference the IR's [`crate::Instr::New`] made (`-1, -2, …`; `0` for
//! `NULL`), so what a front end knows of an object (freed, its length)
//! stays in arrays indexed by references; `offset` counts the object's
//! elements (`0 ..= length`), so `p + i` is an addition and `p - q` a
//! subtraction, and every cell of every object has its own index in the
//! arrays that hold the values (a field, a cell's value).
//!
//! [`STRIDE`] is `2^64`: an offset reached by adding any 64-bit integer to
//! an offset within an object stays within `(-STRIDE, 2 * STRIDE)`, so a
//! pointer moved out of its object by one subscript is never read as a
//! pointer into another one: [`object`] of it is an object with no element
//! there, or no object, and the access is out of bounds.
//! ([`object`] truncates: the object of `-k * STRIDE + o` for
//! `0 <= o < STRIDE` is `-k`.)

use crate::expr::Expr;
use crate::ir::{ArrayId, ErrorKind};
use crate::source::Span;
use crate::types::{ArrayTy, ScalarTy};
use wiser_num::{BinOp, CmpOp, Int, IntTy};

/// The distance between the first elements of two consecutive objects.
pub fn stride() -> Int {
    Int::from_u64(u64::MAX) + Int::ONE
}

/// `STRIDE - 1`.
fn last_offset() -> Int {
    IntTy::INT.binary(BinOp::Sub, &stride(), &Int::ONE)
}

fn constant(v: Int) -> Expr {
    Expr::int(IntTy::INT, v)
}

/// The pointer to the first element of the object `reference`.
pub fn base(reference: Expr, span: Span) -> Expr {
    Expr::binary(BinOp::Mul, reference, constant(stride()), span)
}

/// The object a pointer points into (`0` for `NULL` and pointers near it).
pub fn object(p: Expr, span: Span) -> Expr {
    let shifted = Expr::binary(BinOp::Sub, p, constant(last_offset()), span);
    Expr::binary(BinOp::Div, shifted, constant(stride()), span)
}

/// The offset of a pointer in its object ([`object`]): `0 .. STRIDE`.
pub fn offset(p: Expr, span: Span) -> Expr {
    let start = base(object(p.clone(), span), span);
    Expr::binary(BinOp::Sub, p, start, span)
}

/// The pointer `p` with the checks of an access through it, after its
/// own: [`ErrorKind::NullDereference`] when it points into no object,
/// [`ErrorKind::UseAfterFree`] when `freed[object]` is set,
/// [`ErrorKind::OutOfBounds`] when its offset is not below `len[object]`.
/// The conditions evaluate `p` again (without its checks), so they stay
/// part of the expression: guarded like its other checks where a
/// short-circuit operator guards the access (`p && p->next->v`).
pub fn checked(p: Expr, freed: ArrayId, len: ArrayId, span: Span) -> Expr {
    let value = p.bare();
    let obj = || object(value.clone(), span);
    let null = Expr::cmp(CmpOp::Eq, obj(), constant(Int::ZERO));
    let flag = ArrayTy {
        index: IntTy::INT,
        elem: ScalarTy::Bool,
    };
    let lens = ArrayTy {
        index: IntTy::INT,
        elem: ScalarTy::INT,
    };
    let is_freed = Expr::select(freed, flag, obj());
    let length = Expr::select(len, lens, obj());
    let outside = Expr::cmp(CmpOp::Ge, offset(value.clone(), span), length);
    p.fault_if(null, ErrorKind::NullDereference, span)
        .fault_if(is_freed, ErrorKind::UseAfterFree, span)
        .fault_if(outside, ErrorKind::OutOfBounds, span)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What [`object`] and [`offset`] compute, on integers.
    fn split(p: &Int) -> (Int, Int) {
        let t = IntTy::INT;
        let obj = t.binary(
            BinOp::Div,
            &t.binary(BinOp::Sub, p, &last_offset()),
            &stride(),
        );
        let off = t.binary(BinOp::Sub, p, &t.binary(BinOp::Mul, &obj, &stride()));
        (obj, off)
    }

    fn at(k: i64, o: &Int) -> Int {
        let t = IntTy::INT;
        t.binary(
            BinOp::Add,
            &t.binary(BinOp::Mul, &Int::from(k), &stride()),
            o,
        )
    }

    #[test]
    fn a_pointer_splits_into_its_object_and_offset() {
        for k in [1i64, 2, 7, 1000] {
            for o in [Int::ZERO, Int::ONE, Int::from(12345), last_offset()] {
                assert_eq!(split(&at(-k, &o)), (Int::from(-k), o));
            }
        }
        // NULL and small offsets from it are in no object.
        assert_eq!(split(&Int::ZERO).0, Int::ZERO);
        assert_eq!(split(&Int::from(40)).0, Int::ZERO);
        // One before an object's start is the previous object's last
        // offset, never one of its elements.
        let before = at(-3, &Int::from(-1));
        assert_eq!(split(&before), (Int::from(-4), last_offset()));
    }
}
