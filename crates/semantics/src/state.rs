//! Machine states: where a path is, its frames, its arrays and its path
//! information.
//!
//! Forking a state copies nothing but reference counts: locals sit behind
//! an `Arc` that is copied on the first write after a fork (and written in
//! place while unshared), callers form a persistent [`Stack`], and the
//! domain's arrays and paths are persistent values themselves.

use crate::domain::Domain;
use crate::ir::{Instr, Ir, Pc};
use crate::stack::Stack;
use std::sync::Arc;
use wiser_syntax::Span;

/// The activation of a routine.
#[derive(Debug)]
pub struct Frame<V> {
    /// The routine's slots (parameters first).
    pub locals: Arc<Vec<V>>,
    /// The routine: `None` for the main program.
    pub proc: Option<u32>,
    /// Where the caller resumes.
    pub ret: Pc,
    /// Where the caller stores the result.
    pub dst: Option<u32>,
    /// The call statement (empty for the main program).
    pub call_site: Span,
}

impl<V> Clone for Frame<V> {
    fn clone(&self) -> Self {
        Frame {
            locals: self.locals.clone(),
            proc: self.proc,
            ret: self.ret,
            dst: self.dst,
            call_site: self.call_site,
        }
    }
}

/// The kinds of runtime error; each one is a bug.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ErrorKind {
    /// An `assert` whose condition does not hold.
    Assertion,
    /// A `fail` statement was reached.
    Fail,
    /// A `/` or `%` whose divisor is 0.
    DivisionByZero,
}

impl ErrorKind {
    /// The name used in reports (`assertion`, `fail`, `division_by_zero`).
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Assertion => "assertion",
            ErrorKind::Fail => "fail",
            ErrorKind::DivisionByZero => "division_by_zero",
        }
    }
}

/// How a state stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// It can take a step (or is final: see [`State::is_final`]).
    Running,
    /// It is stuck on a runtime error at `span`.
    Error {
        /// What went wrong.
        kind: ErrorKind,
        /// Where (the statement, or the operator for division by zero).
        span: Span,
    },
}

/// One entry of a call stack, innermost first.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CallSite {
    /// The routine that was running.
    pub routine: Arc<str>,
    /// Where it was called from (empty for `main`).
    pub call_site: Span,
}

/// A machine state over domain `D`.
pub struct State<D: Domain> {
    /// The next instruction.
    pub pc: Pc,
    /// The running routine's frame.
    pub frame: Frame<D::Int>,
    /// The callers' frames, innermost on top.
    pub callers: Stack<Frame<D::Int>>,
    /// The arrays, indexed by array number.
    pub arrays: Arc<Vec<D::Array>>,
    /// The domain's path information.
    pub path: D::Path,
    /// How many `x = *` reads this path has made.
    pub reads: u32,
    /// Running or stuck on an error.
    pub status: Status,
}

impl<D: Domain> Clone for State<D> {
    fn clone(&self) -> Self {
        State {
            pc: self.pc,
            frame: self.frame.clone(),
            callers: self.callers.clone(),
            arrays: self.arrays.clone(),
            path: self.path.clone(),
            reads: self.reads,
            status: self.status,
        }
    }
}

impl<D: Domain> State<D> {
    /// The initial state of `ir`: inputs map to the domain's input values
    /// (in the symbolic domain, to symbols of their own names), every other
    /// slot to 0 (the static checks guarantee it is written before read).
    pub fn initial(ir: &Ir, dom: &mut D, path: D::Path) -> Self {
        let zero = dom.int(&wiser_num::Int::ZERO);
        let mut locals = vec![zero; ir.main.slots.len()];
        for (slot, name) in &ir.inputs {
            locals[*slot as usize] = dom.input(name);
        }
        let arrays = ir.arrays.iter().map(|a| dom.input_array(a)).collect();
        State {
            pc: ir.main.entry,
            frame: Frame {
                locals: Arc::new(locals),
                proc: None,
                ret: 0,
                dst: None,
                call_site: Span::default(),
            },
            callers: Stack::new(),
            arrays: Arc::new(arrays),
            path,
            reads: 0,
            status: Status::Running,
        }
    }

    /// Has the main program ended normally?
    pub fn is_final(&self, ir: &Ir) -> bool {
        self.status == Status::Running && matches!(ir.code[self.pc as usize].instr, Instr::Halt)
    }

    /// The runtime error this state is stuck on, if any.
    pub fn error(&self) -> Option<(ErrorKind, Span)> {
        match self.status {
            Status::Error { kind, span } => Some((kind, span)),
            Status::Running => None,
        }
    }

    /// The call stack, innermost routine first.
    pub fn call_stack(&self, ir: &Ir) -> Vec<CallSite> {
        std::iter::once(&self.frame)
            .chain(self.callers.iter())
            .map(|f| CallSite {
                routine: ir.routine(f.proc).name.clone(),
                call_site: f.call_site,
            })
            .collect()
    }
}
