//! The lowered program the semantics runs.
//!
//! Statements become a flat array of instructions, each naming its
//! successor(s) explicitly, so `skip`, `;` and the jumps at the end of an
//! `if` or a loop body cost no step. Expressions become postfix code
//! evaluated on an explicit stack, so evaluating a deep expression never
//! recurses. Names are resolved to slot numbers.

use std::sync::Arc;
use wiser_num::Int;
use wiser_syntax::ast::{ArithOp, CmpOp};
use wiser_syntax::Span;

/// Index of an instruction in [`Ir::code`].
pub type Pc = u32;

/// One operation of postfix expression code. Integer and boolean values
/// live on separate stacks, so every operation knows its operand types.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// Push an integer constant.
    Const(Int),
    /// Push the value of a local slot of the current frame.
    Load(u32),
    /// Pop an index, push that element of the array.
    Select(u32),
    /// Pop one integer, push its negation.
    Neg,
    /// Pop `b`, pop `a`, push `a op b`. Division and remainder are total
    /// here (by zero they give 0): the divisor was checked beforehand.
    Arith(ArithOp),
    /// Pop `b`, pop `a`, push the boolean `a op b`.
    Cmp(CmpOp),
    /// Push a boolean constant.
    Bool(bool),
    /// Pop a boolean, push its negation.
    Not,
    /// Pop two booleans, push their conjunction.
    And,
    /// Pop two booleans, push their disjunction.
    Or,
}

/// Postfix code for one expression (integer- or boolean-valued).
pub type Code = Box<[Op]>;

/// A division or remainder whose divisor must be checked before the
/// instruction that contains it runs. The instruction faults with
/// division by zero when `guard` holds (it is absent when the division is
/// always evaluated) and `divisor` is 0. Guards come from short-circuit
/// `and`/`or`: in `b != 0 and a / b > 1` the division only happens when
/// `b != 0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DivCheck {
    /// When the division is evaluated at all.
    pub guard: Option<Code>,
    /// The divisor.
    pub divisor: Code,
    /// The `/` or `%` operator.
    pub span: Span,
}

/// One instruction. Successors are explicit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Instr {
    /// `slot = value`.
    Assign {
        /// Target slot.
        dst: u32,
        /// Value.
        value: Code,
        /// Successor.
        next: Pc,
    },
    /// `slot = *`: the next input read.
    Havoc {
        /// Target slot.
        dst: u32,
        /// Successor.
        next: Pc,
    },
    /// `array[index] = value`.
    Store {
        /// Target array.
        array: u32,
        /// Subscript.
        index: Code,
        /// Value.
        value: Code,
        /// Successor.
        next: Pc,
    },
    /// A two-way branch (`if` or a loop test).
    Branch {
        /// Condition.
        cond: Code,
        /// Successor when it holds.
        then_to: Pc,
        /// Successor when it does not.
        else_to: Pc,
    },
    /// `assert cond`: an assertion failure when `cond` does not hold.
    Assert {
        /// Condition.
        cond: Code,
        /// Successor.
        next: Pc,
    },
    /// `assume cond`: the path ends silently when `cond` does not hold.
    Assume {
        /// Condition.
        cond: Code,
        /// Successor.
        next: Pc,
    },
    /// `fail`: always a bug.
    Fail,
    /// A procedure call.
    Call {
        /// The callee, an index into [`Ir::procs`].
        proc: u32,
        /// Arguments, evaluated in the caller's frame.
        args: Box<[Code]>,
        /// Where the caller stores the result.
        dst: Option<u32>,
        /// Where the caller resumes.
        next: Pc,
    },
    /// Return from the current procedure.
    Return {
        /// The returned value (`0` when the body falls off its end).
        value: Code,
    },
    /// The main program ends normally.
    Halt,
}

/// An instruction with its location and the divisor checks it needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    /// The instruction.
    pub instr: Instr,
    /// The statement it came from.
    pub span: Span,
    /// Divisors to check, in evaluation order, before it runs.
    pub checks: Box<[DivCheck]>,
}

/// A procedure (or the main program) after lowering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Routine {
    /// Its name (`main` for the main program).
    pub name: Arc<str>,
    /// First instruction.
    pub entry: Pc,
    /// Number of parameters (the first slots).
    pub params: u32,
    /// Names of all its slots, parameters first.
    pub slots: Vec<Arc<str>>,
}

/// A whole lowered program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ir {
    /// All instructions, of every routine.
    pub code: Vec<Located>,
    /// The main program.
    pub main: Routine,
    /// Procedures, indexed by [`Instr::Call::proc`].
    pub procs: Vec<Routine>,
    /// Main slots that are inputs (may be read before written), with names.
    pub inputs: Vec<(u32, Arc<str>)>,
    /// Array names, indexed by array number.
    pub arrays: Vec<Arc<str>>,
}

impl Ir {
    /// The routine a frame runs: `None` is the main program.
    pub fn routine(&self, proc: Option<u32>) -> &Routine {
        match proc {
            None => &self.main,
            Some(p) => &self.procs[p as usize],
        }
    }
}
