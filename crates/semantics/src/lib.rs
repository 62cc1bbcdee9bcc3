//! The operational semantics of `wiser`'s IMP, written once and run over
//! several value domains.
//!
//! * [`lower`] turns a checked program into [`Ir`]: flat instructions with
//!   explicit successors and postfix expression code;
//! * [`Domain`] is what a value domain provides (arithmetic, comparisons,
//!   arrays, inputs, and `branch`, which says which sides of a condition
//!   are feasible);
//! * [`Machine::step`] is the small-step semantics over any domain;
//! * [`concrete`] is the concrete domain and the interpreter built on it.
//!
//! ```
//! use wiser_semantics::{concrete, lower, Input};
//! let program = wiser_syntax::parse_program("y = x / 2; assert y * 2 == x").unwrap();
//! let ir = lower(&wiser_syntax::check(program).unwrap());
//! let input = Input { vars: vec![("x".into(), (-7).into())], ..Input::default() };
//! let run = concrete::run(&ir, &input, 1000);
//! assert!(matches!(run.outcome, concrete::Outcome::Error { .. }));
//! ```
#![warn(missing_docs)]

pub mod concrete;
mod domain;
pub mod ir;
mod lower;
mod stack;
mod state;
mod step;

pub use concrete::{ArrayInput, Input};
pub use domain::{Domain, Fork};
pub use ir::Ir;
pub use lower::lower;
pub use stack::Stack;
pub use state::{CallSite, ErrorKind, Frame, State, Status};
pub use step::Machine;

/// Parses, checks and lowers a program in one call.
pub fn compile(src: &str) -> Result<Ir, wiser_syntax::Diagnostic> {
    let program = wiser_syntax::parse_program(src)?;
    Ok(lower(&wiser_syntax::check(program)?))
}
