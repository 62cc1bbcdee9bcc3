//! The C front end of `wiser`: a C file to the IR ([`wiser_ir::Ir`]) that
//! every engine runs, under C's own rules for types and conversions.
//!
//! * `.c` files go through the system preprocessor (`cpp`); `.i` files are
//!   already preprocessed ([`preprocess`]);
//! * [`lang_c`] parses the text (GNU C11);
//! * `types` holds C's integer types under a [`DataModel`], the integer
//!   promotions and the usual arithmetic conversions;
//! * `lower` checks the program and lowers it through
//!   [`wiser_ir::Builder`], one C function per IR procedure;
//! * [`harness`] writes the C file that makes gcc replay a witness.
//!
//! SV-COMP's conventions are read as documented in `docs/C.md`:
//! `__VERIFIER_nondet_<type>()` is an input read, `reach_error()` and
//! `__VERIFIER_error()` are the error location ([`wiser_ir::ErrorKind::Fail`]),
//! `assert` fails through `__assert_fail` ([`wiser_ir::ErrorKind::Assertion`]),
//! `__VERIFIER_assume`, `assume_abort_if_not`, `abort` and `exit` end a
//! path silently.
#![warn(missing_docs)]

use std::collections::HashMap;
use wiser_ir::{Diagnostic, Ir, Span};

mod frontend;
pub use frontend::{C, FRONTEND};
pub mod harness;
mod libc;
mod lower;
pub use lower::UNSUPPORTED;
mod packed;
mod preprocess;
pub mod types;

/// The sizes of C's integer types (shared with the command line through
/// the front-end interface).
pub use wiser_frontend::DataModel;

/// How to read a C file.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Integer sizes.
    pub data_model: DataModel,
    /// May `malloc`, `calloc` and `realloc` fail (return `NULL`)? Each
    /// call then has both outcomes, a read of the witness.
    pub malloc_may_fail: bool,
}

/// A function whose calls are input reads: `__VERIFIER_nondet_<type>`, or
/// a function that is called but defined nowhere (its result is any value
/// of its return type).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NondetFn {
    /// Its name, e.g. `__VERIFIER_nondet_uchar`.
    pub name: String,
    /// Its C return type as a harness declares it, e.g. `unsigned char`.
    pub c_type: String,
}

/// A compiled C program.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The lowered program.
    pub ir: Ir,
    /// Warnings (implicit declarations, ignored qualifiers, ...).
    pub warnings: Vec<Diagnostic>,
    /// The input reads that are calls of nondeterministic functions, by
    /// the span of their `Havoc` instruction. A read not in this map is an
    /// uninitialised local: a compiled program cannot be made to read a
    /// chosen value there.
    pub nondet_reads: HashMap<Span, NondetFn>,
    /// The structure members an allocation's reads give values to, by the
    /// allocation's span and the member's offset in slots.
    pub member_reads: HashMap<(Span, u64), String>,
    /// Every nondeterministic function the program calls (the harness
    /// defines each of them).
    pub nondet_fns: Vec<NondetFn>,
    /// Does the program define `reach_error` itself? (Older tasks declare
    /// `__VERIFIER_error` and leave it to the verifier; the harness then
    /// defines it.)
    pub defines: Vec<String>,
}

/// Reads, preprocesses (for `.c` files), parses, checks and lowers the C
/// file at `path`. Its text is added to `sources` (the file as written, so
/// that every span points into it; for a `.c` file also the preprocessed
/// text, for code that came from headers); render diagnostics and
/// warnings with `sources`.
pub fn compile_file(
    sources: &mut wiser_ir::Sources,
    path: &std::path::Path,
    options: &Options,
) -> Result<Compiled, Diagnostic> {
    let bytes = std::fs::read(path).map_err(|e| {
        let file = sources.add(wiser_ir::SourceMap::new(
            path.display().to_string(),
            String::new(),
        ));
        Diagnostic::new(
            Span::in_file(file, 0, 0),
            format!("cannot read `{}`: {e}", path.display()),
        )
        .with_help("check the path")
    })?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    compile_text(sources, path, text, options)
}

/// Like [`compile_file`], with the file's text given.
pub fn compile_text(
    sources: &mut wiser_ir::Sources,
    path: &std::path::Path,
    text: String,
    options: &Options,
) -> Result<Compiled, Diagnostic> {
    let mut prepared = preprocess::prepare(sources, path, text, options.data_model)?;
    let config = lang_c::driver::Config {
        cpp_command: String::new(),
        cpp_options: Vec::new(),
        flavor: lang_c::driver::Flavor::GnuC11,
    };
    let parse = |text: String, map: &preprocess::SpanMap| {
        lang_c::driver::parse_preprocessed(&config, text).map_err(|e| {
            let span = map.span(e.offset, e.offset + 1);
            let mut expected: Vec<&str> = e.expected.iter().copied().collect();
            expected.sort_unstable();
            expected.truncate(8);
            Diagnostic::new(span, "syntax error")
                .with_help(format!("expected one of: {}", expected.join(" ")))
        })
    };
    // The parser and the lowering recurse over the syntax tree: give them
    // a deep stack, so that nesting never overflows the caller's.
    deep_stack(move || {
        let mut parsed = parse(prepared.text.clone(), &prepared.map)?;
        // The C library's functions the program uses and does not define
        // are appended to it, and the whole is parsed again.
        let defined = libc::defined(&parsed.unit);
        if let Some(lib) = libc::text_for(&prepared.text, &defined) {
            let file = sources.add(wiser_ir::SourceMap::new(libc::FILE_NAME, libc::SOURCE));
            let mut text = std::mem::take(&mut prepared.text);
            text.push('\n');
            prepared.map.append(text.len(), file);
            text.push_str(&lib);
            parsed = parse(text, &prepared.map)?;
        }
        lower::lower(&parsed.unit, &prepared.map, options)
    })
}

/// Runs `f` on a thread with a large stack (see
/// [`wiser_ir::stack::with_deep_stack`]).
fn deep_stack<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    wiser_ir::stack::with_deep_stack(f)
}
