//! Terms, models and solvers for `wiser`.
//!
//! * [`Term`]: the project's own term type over booleans, integers,
//!   bit-vectors (machine integers) and arrays, normalised on construction
//!   (constant folding, linear sums, canonical comparisons);
//! * [`Model`]: assignments, and evaluation of terms under them (with the
//!   same C division as the concrete semantics, and the bit-vector
//!   operators of [`wiser_num::bv`]);
//! * [`Solver`]: the one interface every decision procedure implements;
//! * [`Z3Solver`]: the only code in the workspace that knows Z3; it asks
//!   [`Cvc5`] first the queries with float operations, reading them as the
//!   SMT-LIB rendering of its own translation;
//! * [`ProcessSolver`]: a `Z3Solver` in a child process ([`serve`]), which
//!   the parent kills when a query overruns its limit, so that no Z3
//!   behaviour (ignored interrupts, runaway memory, crashes) can stall or
//!   end a run.
//!
//! ```
//! use wiser_smt::{Answer, Solver, Term, Z3Solver};
//! let x = Term::int_var("x");
//! // Constant folding: x - x + 1 > 0 is simply true.
//! assert_eq!(Term::lt(&Term::int(0), &Term::add(&Term::sub(&x, &x), &Term::int(1))).as_bool(), Some(true));
//! let mut z3 = Z3Solver::new(None);
//! let answer = z3.solve(&[Term::eq(&Term::rem(&x, &Term::int(7)), &Term::int(-3))]);
//! assert!(matches!(answer, Answer::Sat(m) if m.int("x").rem_trunc(&7.into()) == (-3).into()));
//!
//! // Machine integers: an 8-bit x with x + 1 <u x wraps, so x is 255.
//! use wiser_smt::{BvOp, BvPred, Sort};
//! let b = Term::var("b", Sort::Bv(8));
//! let wraps = Term::bv_cmp(BvPred::Ult, &Term::bv_bin(BvOp::Add, &b, &Term::bv(8, 1)), &b);
//! assert_eq!(wraps.to_string(), "b + 1 < b");
//! assert!(matches!(z3.solve(&[wraps]), Answer::Sat(m) if m.int("b") == 255.into()));
//! ```
#![warn(missing_docs)]

mod bitwuzla_backend;
mod build;
mod bv_build;
mod child;
mod cvc5_backend;
mod display;
mod fp;
mod horn;
mod kinduction;
mod model;
mod order_ints;
mod process;
mod protocol;
mod server;
mod smtlib_process;
mod solver;
mod subst;
mod term;
mod z3_backend;
mod z3_backend_float;
mod z3_backend_horn;
mod z3_backend_watchdog;

pub use bitwuzla_backend::Bitwuzla;
pub use cvc5_backend::Cvc5;
pub use display::{SharedPrinter, MAX_TEXT, MIN_SHARED, PLAIN_NODES};
pub use horn::{Application, Clause, HornAnswer, HornProblem, Refusal, Relation};
pub use kinduction::Unrolling;
pub use model::{ArrayValue, Model, Value};
pub use order_ints::OrderAsIntegers;
pub use process::{Command, ProcessSolver, SolverProcesses};
pub use server::{serve, serve_stdio};
pub use solver::{Answer, CexCache, QueryCache, Solver, SolverStats};
pub use term::{BvOp, BvPred, Kind, OvfOp, Scalar, Sort, Term};
pub use z3_backend::{z3_version, Z3Solver};
