//! Terms, models and solvers for `wiser`.
//!
//! * [`Term`]: the project's own term type, normalised on construction
//!   (constant folding, linear sums, canonical comparisons);
//! * [`Model`]: assignments, and evaluation of terms under them (with the
//!   same C division as the concrete semantics);
//! * [`Solver`]: the one interface every decision procedure implements;
//! * [`Z3Solver`]: the only code in the workspace that knows Z3.
//!
//! ```
//! use wiser_smt::{Answer, Solver, Term, Z3Solver};
//! let x = Term::int_var("x");
//! // Constant folding: x - x + 1 > 0 is simply true.
//! assert_eq!(Term::lt(&Term::int(0), &Term::add(&Term::sub(&x, &x), &Term::int(1))).as_bool(), Some(true));
//! let mut z3 = Z3Solver::new(None);
//! let answer = z3.solve(&[Term::eq(&Term::rem(&x, &Term::int(7)), &Term::int(-3))]);
//! assert!(matches!(answer, Answer::Sat(m) if m.int("x").rem_trunc(&7.into()) == (-3).into()));
//! ```
#![warn(missing_docs)]

mod build;
mod display;
mod model;
mod solver;
mod term;
mod watchdog;
mod z3_backend;

pub use model::{ArrayValue, Model, Value};
pub use solver::{Answer, CexCache, QueryCache, Solver, SolverStats};
pub use term::{Kind, Sort, Term};
pub use z3_backend::Z3Solver;
