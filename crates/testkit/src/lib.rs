//! Test support for `wiser`: random IMP programs whose every input is
//! bounded, so that running all of them on the concrete interpreter
//! decides which errors are reachable. The differential tester
//! (`wiser-difftest`) and the engine's oracle tests (seed 003) both build
//! on it.
//!
//! * [`generate`] makes program number `i` of a seeded run ([`GenConfig`]
//!   sizes it; a share of the programs use machine integers), as a
//!   [`Program`]: a small syntax tree with the types of its variables and
//!   a [`Spec`] that gives every input (scalars, array cells, reads) a
//!   finite [`Domain`] and the semantic options to run it with;
//! * [`Program::source`] renders it as IMP source, specification header
//!   first ([`Spec::parse`] reads it back); [`render_c`] renders a program
//!   without `int` ([`GenConfig::for_c`]) as C with the same meaning;
//! * [`compile`] and [`enumerate`] run every input of the specification on
//!   the concrete interpreter;
//! * [`shrink`] reduces a program by delta debugging while a predicate
//!   holds;
//! * [`typing`] mirrors the typing rules, so that the generator makes only
//!   well-typed programs;
//! * [`objects`]: programs with objects or with threads (one class,
//!   input references and heaps, globals, `spawn`, locks, `atomic`), their
//!   enumeration over every input heap or every schedule;
//! * [`external_tool`]: tests that need a tool outside Rust skip without
//!   it, except under CI;
//! * [`Xorshift`]: a seeded generator for tests whose random choices must
//!   be the same on every machine.
//!
//! It does not depend on `wiser-engine`, so the engine's own tests can use
//! it.
//!
//! ```
//! use wiser_testkit::{compile, enumerate, generate, Budget, GenConfig};
//! let p = generate(1, 0, &GenConfig::small());
//! let ir = compile(&p.source(), &p.spec).unwrap();
//! let mut errors = 0;
//! let budget = Budget { max_runs: 100_000, max_steps: 100_000 };
//! let runs = enumerate(&ir, &p.spec, budget, |_, run| {
//!     errors += usize::from(matches!(run.outcome, wiser_semantics::concrete::Outcome::Error { .. }));
//! })
//! .unwrap();
//! assert!(runs >= 1 && errors as u64 <= runs);
//! ```
#![warn(missing_docs)]

pub use external::{external_python_module, external_tool};
pub use rng::Xorshift;
pub use size::{full_size, sized};

pub mod domain;
pub mod enumerate;
mod external;
pub mod gcc;
pub mod gen;
pub mod objects;
pub mod program;
pub mod render;
pub mod render_c;
mod rng;
pub mod shrink;
mod size;
pub mod spec;
pub mod typing;

pub use domain::Domain;
pub use enumerate::{compile, enumerate, loc, show_input, show_loc, Budget, Invalid, Loc};
pub use gen::{generate, GenConfig};
pub use program::{prune, Bound, Co, Env, Ex, Proc, Program, St, ARRAY_REACH};
pub use render_c::{render_c, CProgram, InputRead, Unsupported};
pub use shrink::shrink;
pub use spec::Spec;

/// A name.
pub type Name = std::sync::Arc<str>;
