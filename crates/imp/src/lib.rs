//! The IMP front end of `wiser`: source text to a checked, typed syntax
//! tree, and that tree to the IR ([`wiser_ir::Ir`]).
//!
//! * [`parse_program`] turns IMP source (the WiSE/PyWiSE dialect plus
//!   `wiser`'s additions, machine integers among them) into an
//!   [`ast::Program`];
//! * [`analyse()`] expands macros and enforces the static rules (procedures,
//!   arrays versus scalars, definite assignment of locals, `return` only in
//!   procedures, the types of machine integers), giving a
//!   [`AnalysedProgram`];
//! * [`lower()`] builds the IR of a checked program; [`compile`] and
//!   [`compile_files`] do all of it;
//! * every failure is a [`Diagnostic`] with a [`Span`] that [`Sources`]
//!   (or a [`SourceMap`]) turns into a line and column.
//!
//! This crate knows nothing of semantics or solvers.
//!
//! ```
//! let src = "x = 1; if x > 0 then skip else fail fi";
//! let program = wiser_imp::parse_program(src).unwrap();
//! let checked = wiser_imp::analyse(program).unwrap();
//! assert!(checked.main_inputs.is_empty());
//! let ir = wiser_imp::compile("n: u8 = *; s: u8 = n + 1; assert s > n").unwrap();
//! assert_eq!(ir.main.slots.len(), 2);
//! ```
#![warn(missing_docs)]

mod analysis;
pub mod ast;
mod classes;
mod frontend;
mod lexer;
mod lower;
mod parser;
mod print;
mod suggest;
mod typer;
mod types;
mod walk;

pub use analysis::{analyse, AnalysedProgram};
pub use frontend::{Imp, FRONTEND};
pub use lower::lower;
pub use parser::{parse_cond, parse_cond_in, parse_program, parse_program_in, MAX_NESTING};
pub use wiser_ir::source::{Diagnostic, FileId, LineCol, SourceMap, Sources, Span};

use ast::Stmt;

/// Parses, checks and lowers a program (text 0 of its spans).
///
/// ```
/// let ir = wiser_imp::compile("x = *; assert 10 / x > 0").unwrap();
/// assert_eq!(ir.inputs.len(), 0);
/// ```
pub fn compile(src: &str) -> Result<wiser_ir::Ir, Diagnostic> {
    lower(&analyse(parse_program(src)?)?)
}

/// Parses, checks and lowers text `program` of `sources`. With `assume`,
/// that text (the command line's `--assume` condition) is a condition on
/// the main program's variables, checked as `assume COND` at the start of
/// main. Every diagnostic's span names the text it is in, so
/// `sources.render(&d)` shows the right one.
///
/// `sources` must hold at least one text: [`Sources::get`] has nothing to
/// give otherwise.
pub fn compile_files(
    sources: &Sources,
    program: FileId,
    assume: Option<FileId>,
) -> Result<wiser_ir::Ir, Diagnostic> {
    compile_assuming(sources, program, assume, false)
}

/// The program of [`compile_files`] cut right after its assumption: the
/// `assume` of text `assume` leads to a `fail` of its own (at the
/// condition's span), and the rest of the program is never reached. One
/// search of it tells whether some input satisfies the condition (the
/// `fail` is reached) and whether the condition itself can fail. Built
/// and validated as any program.
pub fn compile_assumption_cut(
    sources: &Sources,
    program: FileId,
    assume: FileId,
) -> Result<wiser_ir::Ir, Diagnostic> {
    compile_assuming(sources, program, Some(assume), true)
}

/// [`compile_files`], with a `fail` right after the assumption if `cut`.
fn compile_assuming(
    sources: &Sources,
    program: FileId,
    assume: Option<FileId>,
    cut: bool,
) -> Result<wiser_ir::Ir, Diagnostic> {
    let mut ast = parse_program_in(program, sources.get(program).text())?;
    if let Some(file) = assume {
        let cond = parse_cond_in(file, sources.get(file).text())?;
        // The program's own errors come first; then every name of the
        // condition must be one of its inputs.
        suggest::check_assumption(&cond, &analyse(ast.clone())?)?;
        let span = cond.span();
        let mut prefix = vec![Stmt::Assume { cond, span }];
        if cut {
            prefix.push(Stmt::Fail(span));
        }
        ast.main = match ast.main {
            Stmt::Seq(items) => Stmt::Seq(prefix.into_iter().chain(items).collect()),
            other => Stmt::Seq(prefix.into_iter().chain([other]).collect()),
        };
    }
    lower(&analyse(ast)?)
}

pub use wiser_ir::stack::{with_deep_stack, DEEP_STACK_SIZE};
