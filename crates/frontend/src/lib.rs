//! The interface every front end of `wiser` implements, and all the
//! command line knows of a language.
//!
//! A front end ([`Frontend`]) names its language and the file extensions
//! it reads, loads a file to the IR ([`Frontend::load`], with typed
//! errors: [`LoadError`]), and says how its programs talk to people: how a
//! witness's inputs are named ([`WitnessStyle`], [`ReadSite`]), how a
//! branching statement's condition is cut out of its text, whether the IR
//! main routine is start-up code of its own, which arguments a file
//! suggests for itself. What depends on one loaded program (where each
//! read came from, a harness that replays a witness when compiled) is a
//! [`LoadedProgram`].
//!
//! This crate depends on the IR only: front ends never depend on engines,
//! and the command line never asks which language it holds.
#![warn(missing_docs)]

use std::path::Path;
use std::sync::Arc;
use wiser_ir::{Diagnostic, ErrorKind, Ir, Pc, Sources};
use wiser_num::Int;

/// The sizes of a language's integer types, where it has more than one
/// choice (C: ILP32 or LP64).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DataModel {
    /// 32-bit `int`, `long` and pointers (SV-COMP's default, `gcc -m32`).
    #[default]
    Ilp32,
    /// 32-bit `int`, 64-bit `long` and pointers (`gcc -m64` on Linux).
    Lp64,
}

impl DataModel {
    /// The gcc flags that make its floating point IEEE binary32/64 with
    /// no excess precision, as wiser computes: `-m32` code uses the x87
    /// unit by default, whose 80-bit registers round differently; SSE2
    /// rounds every operation to its type. (`-m64` uses SSE already.)
    pub fn gcc_float_flags(self) -> &'static [&'static str] {
        match self {
            DataModel::Ilp32 => &["-msse2", "-mfpmath=sse"],
            DataModel::Lp64 => &[],
        }
    }

    /// The gcc flag that compiles for this model.
    pub fn gcc_flag(self) -> &'static str {
        match self {
            DataModel::Ilp32 => "-m32",
            DataModel::Lp64 => "-m64",
        }
    }
}

/// What to load.
#[derive(Clone, Copy, Debug)]
pub struct LoadRequest<'a> {
    /// The file; `-` is standard input (where the front end reads it).
    pub path: &'a Path,
    /// The data model asked for (front ends without one ignore it).
    pub data_model: DataModel,
    /// An extra condition on the inputs (`--assume`), in the language's
    /// own syntax, where the front end supports it.
    pub assume: Option<&'a str>,
    /// May allocation fail (C's `malloc` returning `NULL`), where the
    /// language allocates that way?
    pub malloc_may_fail: bool,
}

/// A loaded program.
pub struct Loaded {
    /// Every source text the program's spans point into (the file, then
    /// any text of its own, such as an `--assume` condition).
    pub sources: Sources,
    /// The lowered program.
    pub ir: Arc<Ir>,
    /// Warnings of the front end (shown, not fatal).
    pub warnings: Vec<Diagnostic>,
    /// The data model the program was read under, for a language that
    /// has one.
    pub data_model: Option<DataModel>,
    /// What the front end knows of this program beyond its IR.
    pub details: Box<dyn LoadedProgram>,
}

/// Why a file could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    /// An error in the program's text, located in `sources`.
    Program {
        /// The error.
        diagnostic: Diagnostic,
        /// The texts its span points into.
        sources: Sources,
        /// Is the program outside what the front end supports (rather
        /// than wrong)? Reports say so (the diagnostic's `kind`); an
        /// SV-COMP task is answered `unknown` on any error in its program.
        unsupported: bool,
    },
    /// The file cannot be used at all (it cannot be read, it is not text,
    /// an option does not apply to this language, the front end failed).
    Refused {
        /// What is wrong, e.g. ``cannot read `x.imp`: No such file``.
        message: String,
        /// Where, if somewhere in particular.
        location: Option<Location>,
        /// What to do about it.
        help: Option<String>,
    },
}

impl LoadError {
    /// A refusal with a message and a help line.
    pub fn refused(message: impl Into<String>, help: Option<&str>) -> LoadError {
        LoadError::Refused {
            message: message.into(),
            location: None,
            help: help.map(str::to_string),
        }
    }

    /// The error in rustc's style, as `wiser` prints it.
    pub fn render(&self) -> String {
        match self {
            LoadError::Program {
                diagnostic,
                sources,
                ..
            } => sources.render(diagnostic),
            LoadError::Refused {
                message,
                location,
                help,
            } => {
                let mut text = format!("error: {message}\n");
                if let Some(at) = location {
                    text.push_str(&format!(" --> {}:{}\n", at.file, at.line_col));
                }
                if let Some(help) = help {
                    text.push_str(&format!("  = help: {help}\n"));
                }
                text
            }
        }
    }
}

/// A place in a file that is not (or not yet) one of a program's texts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The file's name as shown.
    pub file: String,
    /// Line and column.
    pub line_col: wiser_ir::LineCol,
}

/// How a witness's inputs are named in reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WitnessStyle {
    /// By the program's input variables (`x = 3`), with the reads of
    /// read statements listed after them (IMP's `x = *`).
    Variables,
    /// By its reads in order, each named by its [`ReadSite`]
    /// (`__VERIFIER_nondet_int() = 3`); variables that are inputs are the
    /// program's globals.
    Reads,
}

/// Where a read of a witness was made, in source terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadSite {
    /// A call of a function whose result is an input.
    Call {
        /// Its name, e.g. `__VERIFIER_nondet_int`.
        function: String,
        /// Its result type as the language writes it, e.g. `int`.
        type_name: String,
    },
    /// A variable read before it was written, by name.
    Uninitialised(String),
    /// A choice of the program's environment, by name: a part of its
    /// command line (C's `argc`, `argv[1][0]`), or whether an allocation
    /// fails (`malloc at 12:9 fails`).
    Argument(String),
    /// A read statement of its own (IMP's `x = *`).
    Statement,
}

/// A witness's read for a harness: its value and the site that made it.
pub type HarnessRead<'a> = (&'a Int, &'a ReadSite);

/// What a front end knows of one loaded program beyond its IR.
pub trait LoadedProgram: Send + Sync {
    /// What made the read at `pc` (the `Havoc` a witness's read came
    /// from). `ir` and `sources` are the program's own.
    fn read_site(&self, ir: &Ir, sources: &Sources, pc: Pc) -> ReadSite {
        let _ = (ir, sources, pc);
        ReadSite::Statement
    }

    /// A source file that, compiled with the program by the language's
    /// own compiler, replays a witness given by its reads; `None` where
    /// the language has no such harness. `file` is the program's path as
    /// the harness should name it.
    fn harness(&self, file: &str, reads: &[HarnessRead<'_>]) -> Option<Harness> {
        let _ = (file, reads);
        None
    }

    /// Does [`LoadedProgram::harness`] write harnesses?
    fn has_harness(&self) -> bool {
        false
    }

    /// For a program loaded with an input assumption (`--assume`): the
    /// program cut right after it, its assumption leading to a `fail` of
    /// its own at the assumption's span, built and validated as any
    /// program. One search of it tells whether some input satisfies the
    /// assumption and whether the assumption itself can fail.
    fn assumption_cut(&self) -> Option<&Arc<Ir>> {
        None
    }

    /// The reads that give the program the command line `args` (the words
    /// after its name), in the order its run makes them, before its own
    /// reads; `None` when the program reads no command line (`ir` is its
    /// own). An error says why `args` cannot be its command line.
    fn command_line(
        &self,
        ir: &Ir,
        args: &[Vec<u8>],
    ) -> Option<Result<Vec<Int>, CommandLineError>> {
        let _ = (ir, args);
        None
    }
}

/// Why some words cannot be a program's command line (too many, too long).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandLineError {
    /// What is wrong, e.g. "the argument `hello` has 5 bytes".
    pub message: String,
    /// What to do about it.
    pub help: String,
}

/// A harness's text and how to use it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Harness {
    /// The source text.
    pub text: String,
    /// The command that compiles it with the program, with `{program}`
    /// and `{harness}` for the two files, e.g.
    /// `gcc -m32 {program} {harness} -o replay && ./replay`.
    pub command: String,
    /// The exit code of the compiled program when it reaches the error.
    pub exit_at_error: i32,
}

/// A language `wiser` reads.
pub trait Frontend: Send + Sync {
    /// The language's name: the value of `--lang`, `language` in reports
    /// and test files (`imp`, `c`).
    fn name(&self) -> &'static str;

    /// One line about the language, for `--help`.
    fn description(&self) -> &'static str;

    /// The file extensions (without their dot) read as this language when
    /// no `--lang` is given.
    fn extensions(&self) -> &'static [&'static str];

    /// Reads and compiles a program.
    fn load(&self, request: &LoadRequest<'_>) -> Result<Loaded, LoadError>;

    /// How a witness's inputs are named.
    fn witness_style(&self) -> WitnessStyle;

    /// What the program's reads are called in a note about reads that had
    /// no value (`read(s) of \`x = *\``).
    fn reads_name(&self) -> &'static str;

    /// What an error of `kind` is called in this language's terms
    /// (C: a `Fail` is a call of `reach_error()`, not IMP's `fail`).
    fn describe_error(&self, kind: ErrorKind) -> &'static str {
        kind.describe()
    }

    /// Is the IR main routine start-up code of the front end (C: global
    /// initialisers, then the call of `main`)? It is then hidden from call
    /// stacks and traces.
    fn main_is_startup(&self) -> bool {
        false
    }

    /// The keyword and condition of a branching statement's source text
    /// (`("while", "i < n")`), white space collapsed, or `None` for other
    /// text.
    fn statement_condition(&self, statement: &str) -> Option<(&'static str, String)>;

    /// The command-line arguments a program's text suggests for checking
    /// it (IMP's `# args:` header line), if any.
    fn suggested_args<'t>(&self, text: &'t str) -> Option<&'t str> {
        let _ = text;
        None
    }

    /// Are test suites of this language also written in Test-Comp's
    /// format (`testcase-N.xml`, each read with its type)?
    fn writes_testcomp(&self) -> bool {
        false
    }
}

/// White space runs (line breaks included) collapsed to one space, the
/// ends trimmed: a statement's condition on one line.
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
