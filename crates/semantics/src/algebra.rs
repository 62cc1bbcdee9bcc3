//! How values are built: the first half of what a domain provides.
//!
//! The small-step semantics in [`crate::step`] computes with values only
//! through this trait. The concrete algebra ([`crate::concrete`]) computes
//! numbers; the symbolic one (in the engine) builds terms. Whether a
//! branch can go one way or the other is a separate question, answered by
//! a [`crate::Policy`]: the same algebra serves symbolic execution, bounded
//! model checking and concolic execution, which differ only in how they
//! decide branches.
//!
//! Every operation is total. Operations with error cases (division by
//! zero, signed overflow, shifts out of range) return some value there —
//! the one `wiser_num` defines — because the semantics checks the error
//! condition *before* the operation, so the value is never observed.

use wiser_ir::{ArrayTy, ScalarTy};
use wiser_num::{BinOp, CmpOp, FloatOp, Int, IntTy, UnOp};

/// A value algebra. Booleans, integers of every type and floats (as their
/// bit patterns) are `Value`s.
pub trait Algebra {
    /// Scalar values (booleans and integers of every type).
    type Value: Clone + PartialEq;
    /// Array values.
    type Array: Clone;

    /// An integer constant of type `ty` (a value of that type).
    fn int(&mut self, ty: IntTy, v: &Int) -> Self::Value;
    /// A boolean constant.
    fn bool(&mut self, b: bool) -> Self::Value;
    /// `op a` at type `ty`.
    fn unary(&mut self, op: UnOp, ty: IntTy, a: Self::Value) -> Self::Value;
    /// `a op b` at type `ty`.
    fn binary(&mut self, op: BinOp, ty: IntTy, a: Self::Value, b: Self::Value) -> Self::Value;
    /// The boolean `a op b` at type `ty`.
    fn compare(&mut self, op: CmpOp, ty: IntTy, a: Self::Value, b: Self::Value) -> Self::Value;
    /// The conversion of `a` from type `from` to type `to`.
    fn cast(&mut self, from: IntTy, to: IntTy, a: Self::Value) -> Self::Value;
    /// The float operation `op` on `args` (its operands in order; floats
    /// are bit patterns, see [`wiser_num::FloatTy`]): [`FloatOp::apply`]
    /// on values.
    fn float(&mut self, op: FloatOp, args: &[Self::Value]) -> Self::Value;
    /// Whether `a op b` overflows `ty` ([`IntTy::overflows`]).
    fn overflows(&mut self, op: BinOp, ty: IntTy, a: Self::Value, b: Self::Value) -> Self::Value;
    /// Whether `-a` overflows `ty`.
    fn neg_overflows(&mut self, ty: IntTy, a: Self::Value) -> Self::Value;
    /// `not a`.
    fn not(&mut self, a: Self::Value) -> Self::Value;
    /// `a and b` (both evaluated: operands are pure).
    fn and(&mut self, a: Self::Value, b: Self::Value) -> Self::Value;
    /// `a or b` (both evaluated).
    fn or(&mut self, a: Self::Value, b: Self::Value) -> Self::Value;
    /// `c ? a : b` on values of type `ty`.
    fn ite(&mut self, ty: ScalarTy, c: Self::Value, a: Self::Value, b: Self::Value) -> Self::Value;
    /// `array[index]`.
    fn select(&mut self, ty: ArrayTy, array: &Self::Array, index: Self::Value) -> Self::Value;
    /// `array` with `index` mapped to `value`.
    fn store(
        &mut self,
        ty: ArrayTy,
        array: &Self::Array,
        index: Self::Value,
        value: Self::Value,
    ) -> Self::Array;
    /// Replaces `array` by `array` with `index` mapped to `value`: the
    /// semantics' one way of writing an array it owns. By default
    /// [`Algebra::store`]; an algebra whose arrays can be updated in place
    /// (the concrete one, whose run never shares them) overrides it, so a
    /// write costs no copy.
    fn store_in(
        &mut self,
        ty: ArrayTy,
        array: &mut Self::Array,
        index: Self::Value,
        value: Self::Value,
    ) {
        *array = self.store(ty, array, index, value);
    }
    /// The array whose every element is `v`.
    fn const_array(&mut self, ty: ArrayTy, v: &Int) -> Self::Array;
    /// The initial value of the input `name` (a main-program variable or a
    /// global read before it is written).
    fn input(&mut self, name: &str, ty: ScalarTy) -> Self::Value;
    /// The initial contents of the input array `name`.
    fn input_array(&mut self, name: &str, ty: ArrayTy) -> Self::Array;
    /// The value of the `index`-th nondeterministic read of a path (from
    /// 0), of type `ty`.
    fn read(&mut self, index: u32, ty: ScalarTy) -> Self::Value;
    /// The truth value of a boolean, when it is known without deciding
    /// anything (a constant).
    fn as_bool(&self, v: &Self::Value) -> Option<bool>;
    /// The integer value of `v`, when it is known without deciding
    /// anything (a constant). Used to tell apart the objects and array
    /// cells that steps of different threads touch.
    fn as_int(&self, v: &Self::Value) -> Option<Int> {
        let _ = v;
        None
    }

    /// May `array` hold the value `v` in some cell (a reference to the
    /// object `v` stored in a field)? `true` when unsure. Used to tell
    /// whether an object is reachable only from one thread.
    fn array_may_hold(&self, array: &Self::Array, v: &Int) -> bool {
        let _ = (array, v);
        true
    }

    /// The constant `v` of a scalar type: `v != 0` for booleans, the
    /// pattern `v` for floats.
    fn scalar(&mut self, ty: ScalarTy, v: &Int) -> Self::Value {
        match ty {
            ScalarTy::Bool => self.bool(!v.is_zero()),
            ScalarTy::Int(t) => self.int(t, v),
            ScalarTy::Float(t) => self.int(t.bits_ty(), v),
        }
    }

    /// The zero of a type (`false` for booleans): the value of a slot not
    /// yet written.
    fn zero(&mut self, ty: ScalarTy) -> Self::Value {
        match ty {
            ScalarTy::Bool => self.bool(false),
            ScalarTy::Int(t) => self.int(t, &Int::ZERO),
            ScalarTy::Float(t) => self.int(t.bits_ty(), &Int::ZERO),
        }
    }
}
