//! The front end of `wiser`: source text to a checked syntax tree.
//!
//! * [`parse_program`] turns IMP source (the WiSE/PyWiSE dialect plus
//!   `wiser`'s additions) into an [`ast::Program`];
//! * [`check()`] expands macros and enforces the static rules (procedures,
//!   arrays versus scalars, definite assignment of locals, `return` only in
//!   procedures), giving a [`CheckedProgram`];
//! * every failure is a [`Diagnostic`] with a [`Span`] that
//!   [`SourceMap`] turns into a line and column.
//!
//! This crate knows nothing of semantics or solvers.
//!
//! ```
//! let src = "x = 1; if x > 0 then skip else fail fi";
//! let program = wiser_syntax::parse_program(src).unwrap();
//! let checked = wiser_syntax::check(program).unwrap();
//! assert!(checked.main_inputs.is_empty());
//! ```
#![warn(missing_docs)]

pub mod ast;
mod check;
mod diagnostic;
mod lexer;
mod parser;
mod print;

pub use check::{check, CheckedProgram};
pub use diagnostic::{Diagnostic, LineCol, SourceMap, Span};
pub use parser::{parse_cond, parse_program, MAX_NESTING};

/// Stack size for [`with_deep_stack`]: room for recursion over trees of
/// height [`MAX_NESTING`] even in unoptimised builds, whose frames are
/// large (up to about 16 KiB per level of nesting here). It is only
/// reserved address space; pages are committed as they are touched.
pub const DEEP_STACK_SIZE: usize = 256 << 20;

/// Runs `f` on a fresh thread with a [`DEEP_STACK_SIZE`] stack and returns
/// its result (re-raising its panic, if any).
///
/// The parser and [`check()`] use this so that input nested up to
/// [`MAX_NESTING`] levels never overflows the caller's stack, whatever
/// its size (test threads get 2 MiB). Code that walks syntax trees
/// recursively can do the same. If no thread can be created, `f` runs on
/// the current thread.
pub fn with_deep_stack<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    let job = std::sync::Mutex::new(Some(f));
    let run = || {
        let f = job.lock().ok().and_then(|mut j| j.take());
        f.map(|f| f())
    };
    let result = std::thread::scope(|s| {
        let spawned = std::thread::Builder::new()
            .name("wiser-deep-stack".into())
            .stack_size(DEEP_STACK_SIZE)
            .spawn_scoped(s, run);
        match spawned {
            Ok(handle) => match handle.join() {
                Ok(r) => r,
                Err(panic) => std::panic::resume_unwind(panic),
            },
            Err(_) => None,
        }
    });
    match result {
        Some(r) => r,
        // The thread could not be created, so `f` is still in `job`.
        None => match job.into_inner() {
            Ok(Some(f)) => f(),
            _ => unreachable!("the job ran but returned nothing"),
        },
    }
}
