//! The concrete domain and the interpreter built on it.
//!
//! The interpreter is [`Machine::step`] over [`Concrete`]: every branch has
//! exactly one side, so a run is a single path. It runs programs for
//! `wiser run` and replays every witness before a bug is reported.

use crate::domain::{Domain, Fork};
use crate::ir::{Instr, Ir};
use crate::state::{CallSite, ErrorKind, State};
use crate::step::Machine;
use rpds::RedBlackTreeMapSync;
use std::sync::Arc;
use wiser_num::Int;
use wiser_syntax::ast::{ArithOp, CmpOp};
use wiser_syntax::Span;

/// The initial contents of an input array: `default` everywhere except at
/// the listed entries.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArrayInput {
    /// The value of every element not listed.
    pub default: Int,
    /// `(index, value)` pairs.
    pub entries: Vec<(Int, Int)>,
}

/// A complete input of a program: values of input variables, the values
/// returned by the `x = *` reads in order, and the initial arrays.
/// Anything not given is 0.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Input {
    /// Input variables and their values.
    pub vars: Vec<(Arc<str>, Int)>,
    /// Values of the successive `x = *` reads.
    pub reads: Vec<Int>,
    /// Initial array contents.
    pub arrays: Vec<(Arc<str>, ArrayInput)>,
}

/// A concrete array: a persistent map over a default value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Array {
    /// The value of elements not in `elems`.
    pub default: Int,
    /// Elements that differ from the default (or were written).
    pub elems: RedBlackTreeMapSync<Int, Int>,
}

/// The concrete domain over one [`Input`].
pub struct Concrete<'i> {
    input: &'i Input,
    /// How many reads asked for a value beyond the end of `input.reads`
    /// (those read 0).
    pub missing_reads: u32,
}

impl<'i> Concrete<'i> {
    /// The domain that takes its inputs from `input`.
    pub fn new(input: &'i Input) -> Self {
        Concrete {
            input,
            missing_reads: 0,
        }
    }
}

impl Domain for Concrete<'_> {
    type Int = Int;
    type Bool = bool;
    type Array = Array;
    type Path = ();

    fn int(&mut self, n: &Int) -> Int {
        n.clone()
    }

    fn arith(&mut self, op: ArithOp, a: Int, b: Int) -> Int {
        match op {
            ArithOp::Add => a.add(&b),
            ArithOp::Sub => a.sub(&b),
            ArithOp::Mul => a.mul(&b),
            ArithOp::Div => a.div_trunc(&b),
            ArithOp::Rem => a.rem_trunc(&b),
        }
    }

    fn neg(&mut self, a: Int) -> Int {
        a.neg()
    }

    fn cmp(&mut self, op: CmpOp, a: Int, b: Int) -> bool {
        match op {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        }
    }

    fn bool(&mut self, b: bool) -> bool {
        b
    }

    fn not(&mut self, a: bool) -> bool {
        !a
    }

    fn and(&mut self, a: bool, b: bool) -> bool {
        a && b
    }

    fn or(&mut self, a: bool, b: bool) -> bool {
        a || b
    }

    fn select(&mut self, array: &Array, index: Int) -> Int {
        array
            .elems
            .get(&index)
            .cloned()
            .unwrap_or_else(|| array.default.clone())
    }

    fn store(&mut self, array: &Array, index: Int, value: Int) -> Array {
        Array {
            default: array.default.clone(),
            elems: array.elems.insert(index, value),
        }
    }

    fn input(&mut self, name: &str) -> Int {
        self.input
            .vars
            .iter()
            .find(|(n, _)| &**n == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    }

    fn input_array(&mut self, name: &str) -> Array {
        let given = self.input.arrays.iter().find(|(n, _)| &**n == name);
        let Some((_, a)) = given else {
            return Array {
                default: Int::ZERO,
                elems: RedBlackTreeMapSync::new_sync(),
            };
        };
        let mut elems = RedBlackTreeMapSync::new_sync();
        for (i, v) in &a.entries {
            elems.insert_mut(i.clone(), v.clone());
        }
        Array {
            default: a.default.clone(),
            elems,
        }
    }

    fn read(&mut self, index: u32) -> Int {
        match self.input.reads.get(index as usize) {
            Some(v) => v.clone(),
            None => {
                self.missing_reads += 1;
                Int::ZERO
            }
        }
    }

    fn branch(&mut self, _path: (), cond: &bool) -> Fork<()> {
        if *cond {
            Fork {
                then: Some(()),
                otherwise: None,
            }
        } else {
            Fork {
                then: None,
                otherwise: Some(()),
            }
        }
    }
}

/// How a concrete run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The main program ended normally.
    Halted,
    /// A runtime error (a bug).
    Error {
        /// What went wrong.
        kind: ErrorKind,
        /// Where.
        span: Span,
        /// The call stack at the error, innermost first.
        stack: Vec<CallSite>,
    },
    /// An `assume` did not hold: the input is outside the program's domain.
    AssumeFailed {
        /// The `assume` statement.
        span: Span,
    },
    /// The step limit was reached first.
    OutOfSteps,
}

/// The result of a concrete run.
pub struct Run {
    /// How it ended.
    pub outcome: Outcome,
    /// The last state (the final state when it halted).
    pub state: State<Concrete<'static>>,
    /// Steps taken.
    pub steps: u64,
    /// Reads past the end of the given read values (they read 0).
    pub missing_reads: u32,
}

impl Run {
    /// The main program's variables and their final values, in slot order
    /// (meaningful when the run halted).
    pub fn final_store(&self, ir: &Ir) -> Vec<(Arc<str>, Int)> {
        let frame = self
            .state
            .callers
            .iter()
            .last()
            .unwrap_or(&self.state.frame);
        ir.main
            .slots
            .iter()
            .cloned()
            .zip(frame.locals.iter().cloned())
            .collect()
    }

    /// The arrays' final contents.
    pub fn final_arrays(&self, ir: &Ir) -> Vec<(Arc<str>, Array)> {
        ir.arrays
            .iter()
            .cloned()
            .zip(self.state.arrays.iter().cloned())
            .collect()
    }
}

/// Runs `ir` on `input` for at most `max_steps` steps.
pub fn run(ir: &Ir, input: &Input, max_steps: u64) -> Run {
    // The domain borrows the input only while stepping; states own their
    // values, so the result can outlive the borrow.
    let mut dom = Concrete::new(input);
    let mut machine = Machine::new(ir);
    let mut state: State<Concrete<'_>> = State::initial(ir, &mut dom, ());
    let mut out = Vec::with_capacity(2);
    let mut steps = 0u64;
    let outcome = loop {
        if let Some((kind, span)) = state.error() {
            let stack = state.call_stack(ir);
            break Outcome::Error { kind, span, stack };
        }
        if state.is_final(ir) {
            break Outcome::Halted;
        }
        if steps >= max_steps {
            break Outcome::OutOfSteps;
        }
        let loc = &ir.code[state.pc as usize];
        // Keep the state for the report only where an `assume` may end the
        // run: a clone elsewhere would make every later write copy locals.
        let before = matches!(loc.instr, Instr::Assume { .. }).then(|| state.clone());
        machine.step(&mut dom, state, &mut out);
        steps += 1;
        match out.pop() {
            Some(next) => {
                drop(before);
                debug_assert!(out.is_empty(), "a concrete step has one successor");
                out.clear();
                state = next;
            }
            None => {
                state = before.expect("only an assume ends a concrete path");
                break Outcome::AssumeFailed { span: loc.span };
            }
        }
    };
    Run {
        outcome,
        state: detach(state),
        steps,
        missing_reads: dom.missing_reads,
    }
}

/// Re-types a concrete state so it no longer borrows the input: concrete
/// states own all their values, only the domain borrows.
fn detach(s: State<Concrete<'_>>) -> State<Concrete<'static>> {
    State {
        pc: s.pc,
        frame: s.frame,
        callers: s.callers,
        arrays: s.arrays,
        path: s.path,
        reads: s.reads,
        status: s.status,
    }
}
