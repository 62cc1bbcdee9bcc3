//! Symbolic execution: the symbolic algebra (values are terms) and the
//! policy that takes each side of a decision the path condition allows,
//! deciding feasibility by the cheapest layer that can.

mod algebra;
mod array;
mod decide;
mod policy;
mod range;

pub use algebra::{array_sort, read_symbol, scalar_of, sort_of, Symbolic};
pub use array::SymArray;
pub use policy::{BranchStats, Feasible};
