//! The operational semantics of `wiser`, written once and run over several
//! value algebras and branch policies.
//!
//! * [`Algebra`]: how values are built (numbers in the concrete algebra,
//!   terms in the symbolic one);
//! * [`Policy`]: how a decision is taken at a [`wiser_ir::Site`] (follow
//!   the value, ask a solver for every feasible side, take both sides
//!   under guards, follow an input while recording the other side);
//! * [`Machine::step`]: the small-step semantics of the IR over any
//!   algebra and policy, recording each state's [`Trail`] of decisions;
//! * [`concrete`]: the concrete algebra and policy and the interpreter
//!   built on them;
//! * [`trace`]: the steps of a concrete run in the program's terms
//!   (assignments, reads, branches, calls, the error), recorded while the
//!   interpreter runs.
//!
//! ```
//! use wiser_semantics::{concrete, Input};
//! let ir = wiser_imp::compile("y = x / 2; assert y * 2 == x").unwrap();
//! let input = Input { vars: vec![("x".into(), (-7).into())], ..Input::default() };
//! let run = concrete::run(&ir, &input, 1000);
//! assert!(matches!(run.outcome, concrete::Outcome::Error { .. }));
//! ```
#![warn(missing_docs)]

mod algebra;
pub mod concrete;
mod frozen;
mod locals;
mod policy;
mod stack;
mod state;
mod step;
pub mod threads;
pub mod trace;

pub use algebra::Algebra;
pub use concrete::{ArrayInput, Input};
pub use frozen::Frozen;
pub use locals::Locals;
pub use policy::{Fork, Policy};
pub use stack::Stack;
pub use state::{Bound, CallSite, Decision, Frame, HeapCount, State, Status, Trail};
pub use step::{Machine, Options, Output, MAX_OUTPUT};
pub use threads::Switch;
pub use trace::{Trace, TraceOptions, TraceStep};
pub use wiser_ir::ErrorKind;
