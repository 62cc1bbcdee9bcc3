//! The interface between the semantics and a value domain.
//!
//! The small-step semantics in [`crate::step`] is written once against this
//! trait. The concrete domain ([`crate::concrete`]) evaluates, and its
//! `branch` returns exactly one side; the symbolic domain (in the engine)
//! builds terms and asks a solver which sides are feasible, extending the
//! path condition. This is the executable form of seeds 001/002's claim that
//! the symbolic semantics is derived from the concrete one: there is only
//! one `step`, so the two cannot drift apart.

use wiser_num::Int;
use wiser_syntax::ast::{ArithOp, CmpOp};

/// The feasible successors of a branch on a condition, each with the path
/// information that goes with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fork<P> {
    /// The path on which the condition holds, if feasible.
    pub then: Option<P>,
    /// The path on which it does not hold, if feasible.
    pub otherwise: Option<P>,
}

/// A value domain: how to compute with integers, booleans and arrays, and
/// how to decide branches.
///
/// Every operation is total. In particular division and remainder by zero
/// return some value (0 in the concrete domain): the semantics checks every
/// divisor *before* the operation, so the value is never observed.
pub trait Domain {
    /// Integer values.
    type Int: Clone;
    /// Boolean values.
    type Bool: Clone;
    /// Array values (maps from integers to integers).
    type Array: Clone;
    /// Per-path information (the path condition of the symbolic domain).
    type Path: Clone;

    /// An integer constant.
    fn int(&mut self, n: &Int) -> Self::Int;
    /// `a op b` (total; see the trait documentation).
    fn arith(&mut self, op: ArithOp, a: Self::Int, b: Self::Int) -> Self::Int;
    /// `-a`.
    fn neg(&mut self, a: Self::Int) -> Self::Int;
    /// The comparison `a op b`.
    fn cmp(&mut self, op: CmpOp, a: Self::Int, b: Self::Int) -> Self::Bool;
    /// A boolean constant.
    fn bool(&mut self, b: bool) -> Self::Bool;
    /// `not a`.
    fn not(&mut self, a: Self::Bool) -> Self::Bool;
    /// `a and b`.
    fn and(&mut self, a: Self::Bool, b: Self::Bool) -> Self::Bool;
    /// `a or b`.
    fn or(&mut self, a: Self::Bool, b: Self::Bool) -> Self::Bool;
    /// `array[index]`.
    fn select(&mut self, array: &Self::Array, index: Self::Int) -> Self::Int;
    /// The array `array` with `index` mapped to `value`.
    fn store(&mut self, array: &Self::Array, index: Self::Int, value: Self::Int) -> Self::Array;
    /// The initial value of the input variable `name`.
    fn input(&mut self, name: &str) -> Self::Int;
    /// The initial contents of the array `name`.
    fn input_array(&mut self, name: &str) -> Self::Array;
    /// The value of the `index`-th `x = *` read on a path (from 0).
    fn read(&mut self, index: u32) -> Self::Int;
    /// The feasible sides of a branch on `cond` from a path `path`.
    fn branch(&mut self, path: Self::Path, cond: &Self::Bool) -> Fork<Self::Path>;
    /// The path on which `cond` holds, if feasible: the `then` side of
    /// [`Domain::branch`] alone, for `assume`, which drops the other side.
    fn assume(&mut self, path: Self::Path, cond: &Self::Bool) -> Option<Self::Path> {
        self.branch(path, cond).then
    }
}
