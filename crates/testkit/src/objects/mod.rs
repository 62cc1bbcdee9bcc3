//! Random programs with objects and threads, for the differential tester's
//! `--features heap` and `--features threads` modes.
//!
//! They use one class, `class C begin f: int; next: C end`, and are
//! rendered as IMP text through `wiser_imp`'s syntax tree and printer
//! ([`OProgram::source`]), so the whole front end (classes, `new`, `null`,
//! fields, `global`, `spawn`/`join`, `lock`/`unlock`, `atomic`) is under
//! test.
//!
//! * **Heap** ([`Features::Heap`]): two input references `x`, `y` (read
//!   before written), a local reference `p`, field reads and writes through
//!   them and through `r.next`, `new`, `null` comparisons, reference
//!   equality, assertions, an `int` input. The input heaps are finite: the
//!   references and every object's `next` range over `null` and the
//!   objects `1..=N` ([`OProgram::objects`]; the engine runs with
//!   `--max-objects N`), and every read of an `int` field is followed by an
//!   `assume` that puts the value in [`OProgram::fields`], so the heaps
//!   whose fields lie in that domain decide every path, as all heaps do.
//!   At most one `.next` read per program keeps every path within the
//!   engine's bound (a read of `r.next.f` evaluates `r.next` twice: once
//!   for its null check).
//! * **Threads** ([`Features::Threads`]): `int` globals, two lock objects
//!   in globals `m0`, `m1` (with a shared field), two or three procedures
//!   spawned as threads with arguments from the `int` input, reads and
//!   writes of globals as separate statements (so races exist),
//!   `lock`/`unlock` (possible deadlocks), `atomic begin ... end`, `join`s
//!   (some threads are not joined), assertions in threads and in main.
//!
//! [`enumerate_heaps`] and [`enumerate_schedules`] run every input (and
//! every input heap, or every schedule) on the concrete interpreter.

mod enumerate;
mod gen;
mod render;
mod shrink;

pub use enumerate::{
    enumerate_heaps, enumerate_schedules, heap_inputs, place, Place, Places, Schedules,
};
pub use gen::generate_objects;
pub use shrink::{mutate, shrink_objects};

use crate::domain::Domain;
use crate::Name;
use wiser_num::{BinOp, CmpOp};

/// Which constructs a program uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Features {
    /// Objects: input references, fields, `new`, `null`.
    Heap,
    /// Threads: globals, `spawn`, `join`, locks, `atomic`.
    Threads,
}

impl Features {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Features::Heap => "heap",
            Features::Threads => "threads",
        }
    }
}

/// The class every program uses.
pub const CLASS: &str = "C";
/// Its `int` field.
pub const FIELD: &str = "f";
/// Its reference field.
pub const NEXT: &str = "next";

/// An `int` expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IEx {
    /// A literal.
    Num(i64),
    /// A local, parameter or input (never a global: each global access is a
    /// statement of its own).
    Var(Name),
    /// `l op r` (`+ - * /`).
    Bin(BinOp, Box<IEx>, Box<IEx>),
}

/// A reference expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum REx {
    /// `null`.
    Null,
    /// A reference variable.
    Var(Name),
    /// `r.next`.
    Next(Name),
}

/// A condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OCo {
    /// An `int` comparison.
    Cmp(CmpOp, IEx, IEx),
    /// `l == r` (`true`) or `l != r` (`false`) on references.
    Same(bool, REx, REx),
    /// `not c`.
    Not(Box<OCo>),
    /// `l and r`.
    And(Box<OCo>, Box<OCo>),
}

/// A statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OSt {
    /// `v = e`.
    Assign(Name, IEx),
    /// `v = r.f` (in heap programs followed by `assume v in fields`).
    ReadField(Name, REx),
    /// `r.f = e`.
    WriteField(REx, IEx),
    /// `r.next = q`.
    SetNext(REx, REx),
    /// `p = q`.
    SetRef(Name, REx),
    /// `p = new C`.
    New(Name),
    /// `if c then .. else .. fi`.
    If(OCo, Vec<OSt>, Vec<OSt>),
    /// `assert c`.
    Assert(OCo),
    /// `assume c`.
    Assume(OCo),
    /// `v = g` for a global `g`.
    ReadGlobal(Name, Name),
    /// `g = e` for a global `g`.
    WriteGlobal(Name, IEx),
    /// `lock m` (`true`) or `unlock m` (`false`).
    Lock(bool, Name),
    /// `atomic begin .. end`.
    Atomic(Vec<OSt>),
    /// `[t =] spawn p(args)`.
    Spawn(Option<Name>, Name, Vec<IEx>),
    /// `join t`.
    Join(Name),
}

/// A procedure run as a thread: `int` parameters, `int` locals
/// (initialised to 0 first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OProc {
    /// Its name.
    pub name: Name,
    /// Its parameters.
    pub params: Vec<Name>,
    /// Its `int` locals.
    pub locals: Vec<Name>,
    /// Its body.
    pub body: Vec<OSt>,
}

/// A generated program with objects or threads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OProgram {
    /// What it uses.
    pub features: Features,
    /// `int` inputs of the main program and their domains.
    pub inputs: Vec<(Name, Domain)>,
    /// Input references of class [`CLASS`].
    pub refs: Vec<Name>,
    /// Local references of the main program (initialised to `null`).
    pub ref_locals: Vec<Name>,
    /// `int` locals of the main program (initialised to 0).
    pub locals: Vec<Name>,
    /// The input heap's objects are `1..=objects`.
    pub objects: u32,
    /// The values of the input objects' `int` fields.
    pub fields: Domain,
    /// `int` globals (initialised to 0).
    pub globals: Vec<Name>,
    /// Globals of class [`CLASS`] that main sets to new objects first.
    pub shared: Vec<Name>,
    /// Procedures.
    pub procs: Vec<OProc>,
    /// The main statements.
    pub main: Vec<OSt>,
}

impl OProgram {
    /// The specification header (comment lines).
    pub fn header(&self) -> String {
        let mut s = format!("# @features {}\n", self.features.name());
        if !self.refs.is_empty() {
            s.push_str(&format!(
                "# @objects {} (check with --max-objects {})\n# @fields {}\n",
                self.objects, self.objects, self.fields
            ));
        }
        for (n, d) in &self.inputs {
            s.push_str(&format!("# @input {n} {d}\n"));
        }
        s
    }

    /// The source text: the header, then the program.
    pub fn source(&self) -> String {
        format!("{}{}", self.header(), self.to_ast())
    }

    /// Does any statement use name `n`?
    pub fn mentions(&self, n: &str) -> bool {
        let procs = self.procs.iter().map(|p| &p.body[..]);
        crate::program::mentions_in(procs.chain([&self.main[..]]), n, walk)
    }
}

impl std::fmt::Display for OProgram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.source())
    }
}

/// Calls `f` on every name a statement list uses.
pub fn walk(ss: &[OSt], f: &mut dyn FnMut(&Name)) {
    fn ex(e: &IEx, f: &mut dyn FnMut(&Name)) {
        match e {
            IEx::Num(_) => {}
            IEx::Var(v) => f(v),
            IEx::Bin(_, a, b) => {
                ex(a, f);
                ex(b, f);
            }
        }
    }
    fn rx(r: &REx, f: &mut dyn FnMut(&Name)) {
        if let REx::Var(v) | REx::Next(v) = r {
            f(v)
        }
    }
    fn co(c: &OCo, f: &mut dyn FnMut(&Name)) {
        match c {
            OCo::Cmp(_, a, b) => {
                ex(a, f);
                ex(b, f);
            }
            OCo::Same(_, a, b) => {
                rx(a, f);
                rx(b, f);
            }
            OCo::Not(a) => co(a, f),
            OCo::And(a, b) => {
                co(a, f);
                co(b, f);
            }
        }
    }
    for s in ss {
        match s {
            OSt::Assign(v, e) | OSt::WriteGlobal(v, e) => {
                f(v);
                ex(e, f);
            }
            OSt::ReadField(v, r) | OSt::SetRef(v, r) => {
                f(v);
                rx(r, f);
            }
            OSt::WriteField(r, e) => {
                rx(r, f);
                ex(e, f);
            }
            OSt::SetNext(a, b) => {
                rx(a, f);
                rx(b, f);
            }
            OSt::New(v) | OSt::Lock(_, v) | OSt::Join(v) => f(v),
            OSt::If(c, a, b) => {
                co(c, f);
                walk(a, f);
                walk(b, f);
            }
            OSt::Assert(c) | OSt::Assume(c) => co(c, f),
            OSt::ReadGlobal(v, g) => {
                f(v);
                f(g);
            }
            OSt::Atomic(b) => walk(b, f),
            OSt::Spawn(t, p, args) => crate::program::walk_call(t.as_ref(), p, args, f, ex),
        }
    }
}

impl OProgram {
    /// Compiles the source; every input of the compiled program must be
    /// one of [`OProgram::inputs`] or [`OProgram::refs`].
    pub fn compile(&self) -> Result<wiser_ir::Ir, crate::Invalid> {
        let src = self.source();
        let ir = wiser_imp::compile(&src).map_err(|d| {
            crate::Invalid::Compile(wiser_imp::SourceMap::new("generated.imp", &src).render(&d))
        })?;
        for input in &ir.inputs {
            let known = self.inputs.iter().any(|(n, _)| *n == input.name)
                || self.refs.contains(&input.name);
            if !known {
                return Err(crate::Invalid::UnboundedInput(input.name.to_string()));
            }
        }
        Ok(ir)
    }
}
