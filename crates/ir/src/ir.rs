//! The lowered program the semantics runs.
//!
//! Statements become a flat array of instructions, each naming its
//! successor(s) explicitly, so `skip`, `;`, `goto` and the jumps at the
//! ends of branches and loop bodies cost no step. Expressions become typed
//! postfix [`Code`] evaluated on an explicit stack, so a deep expression
//! never recurses. Every operation that can fail at run time (division by
//! zero, signed overflow, a shift out of range) comes with a [`Check`] on
//! the instruction that contains it, evaluated before the instruction
//! runs; the operations themselves are total.
//!
//! Front ends never build these types by hand: they use
//! [`crate::Builder`] and [`crate::Expr`], which generate the checks of
//! every operator from one table ([`crate::checks_of`]), resolve labels,
//! and type-check the result.

use crate::output::{OutPart, Stream};
use crate::source::Span;
use crate::types::{ArrayTy, ScalarTy};
use std::fmt;
use std::sync::Arc;
use wiser_num::{BinOp, CmpOp, FloatOp, FloatTy, Int, IntTy, UnOp};

/// Index of an instruction in [`Ir::code`].
pub type Pc = u32;

/// A procedure: an index into [`Ir::procs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProcId(pub u32);

/// An array: an index into [`Ir::arrays`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ArrayId(pub u32);

/// A class of objects: an index into [`Ir::classes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClassId(pub u32);

/// Where a scalar lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Place {
    /// A slot of the running routine's frame.
    Local(u32),
    /// A global variable, an index into [`Ir::globals`].
    Global(u32),
}

/// One operation of postfix code. Operands are popped (the last pushed
/// is the right operand) and the result is pushed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// Push an integer constant of a type (a value of that type).
    Int(IntTy, Int),
    /// Push a boolean constant.
    Bool(bool),
    /// Push the value of a place.
    Load(Place),
    /// Pop an index, push that element of the array.
    Select(ArrayId),
    /// Pop `a`, push `op a` (total; see [`IntTy::unary`]).
    Unary(UnOp, IntTy),
    /// Pop `b`, pop `a`, push `a op b` (total; see [`IntTy::binary`]).
    Binary(BinOp, IntTy),
    /// Pop `b`, pop `a`, push the boolean `a op b`.
    Cmp(CmpOp, IntTy),
    /// Pop a value of type `from`, push its conversion to `to`.
    Cast(IntTy, IntTy),
    /// Pop `b`, pop `a`, push whether `a op b` overflows the type
    /// ([`IntTy::overflows`]).
    Overflows(BinOp, IntTy),
    /// Pop `a`, push whether `-a` overflows the type.
    NegOverflows(IntTy),
    /// Pop a boolean, push its negation.
    Not,
    /// Pop two booleans, push their conjunction.
    And,
    /// Pop two booleans, push their disjunction.
    Or,
    /// Pop `else`, `then` and a boolean `cond`; push `cond ? then : else`.
    Ite(ScalarTy),
    /// Push a float constant of a type: its bit pattern.
    FloatConst(FloatTy, Int),
    /// Pop the operation's operands (the last one on top), push its result
    /// (total; see [`FloatOp::apply`]).
    Float(FloatOp),
    /// Pop an unsigned integer of [`FloatTy::bits_ty`], push the float
    /// whose pattern it is (memory holds floats as integers of their
    /// width). The value is unchanged: a float is its pattern.
    AsFloat(FloatTy),
    /// Pop a float, push its pattern as an unsigned integer.
    AsBits(FloatTy),
}

/// Postfix code for one expression.
pub type Code = Box<[Op]>;

/// The kinds of runtime error. Each one is a bug when reachable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ErrorKind {
    /// An `assert` whose condition does not hold.
    Assertion,
    /// A `fail` statement (an error location) was reached.
    Fail,
    /// A `/` or `%` whose divisor is 0.
    DivisionByZero,
    /// `MIN / -1` or `MIN % -1` on a signed type: the quotient does not fit.
    DivisionOverflow,
    /// A signed `+`, `-`, `*`, unary `-` or `<<` whose result does not fit.
    SignedOverflow,
    /// A shift by a negative amount or by at least the type's width.
    InvalidShift,
    /// An array subscript outside the array's bounds (C's arrays have a
    /// length; IMP's do not).
    OutOfBounds,
    /// A field access, method call or lock on `null` (seed 001 §4: the
    /// path condition of a dereference of `e` includes `e != nil`).
    NullDereference,
    /// An access to a heap object after it was freed (C's `free`).
    UseAfterFree,
    /// A `free` of an object already freed.
    DoubleFree,
    /// A `free` of memory `malloc` did not allocate (a variable, a
    /// global structure).
    InvalidFree,
    /// `main` returns while memory it allocated and did not free is
    /// unreachable (SV-COMP's `valid-memtrack`).
    MemoryLeak,
    /// No thread can take a step and some thread has not finished.
    Deadlock,
    /// A conversion of a float to an integer type whose truncated value
    /// does not fit the type (or of a NaN or an infinity): undefined in C
    /// (C11 §6.3.1.4:1).
    FloatConversion,
}

impl ErrorKind {
    /// Every kind, in a fixed order.
    pub const ALL: [ErrorKind; 14] = [
        ErrorKind::Assertion,
        ErrorKind::Fail,
        ErrorKind::DivisionByZero,
        ErrorKind::DivisionOverflow,
        ErrorKind::SignedOverflow,
        ErrorKind::InvalidShift,
        ErrorKind::OutOfBounds,
        ErrorKind::NullDereference,
        ErrorKind::UseAfterFree,
        ErrorKind::DoubleFree,
        ErrorKind::InvalidFree,
        ErrorKind::MemoryLeak,
        ErrorKind::Deadlock,
        ErrorKind::FloatConversion,
    ];

    /// Is it found only once the program has ended (a memory leak, when
    /// `main` has returned)? Then a path that commits it has nothing
    /// after it: outside the property it is no error at all, and no
    /// reason to withhold `safe`.
    pub fn is_terminal(self) -> bool {
        self == ErrorKind::MemoryLeak
    }

    /// The name used in reports (`assertion`, `division_by_zero`, ...).
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Assertion => "assertion",
            ErrorKind::Fail => "fail",
            ErrorKind::DivisionByZero => "division_by_zero",
            ErrorKind::DivisionOverflow => "division_overflow",
            ErrorKind::SignedOverflow => "signed_overflow",
            ErrorKind::InvalidShift => "invalid_shift",
            ErrorKind::OutOfBounds => "out_of_bounds",
            ErrorKind::NullDereference => "null_dereference",
            ErrorKind::UseAfterFree => "use_after_free",
            ErrorKind::DoubleFree => "double_free",
            ErrorKind::InvalidFree => "invalid_free",
            ErrorKind::MemoryLeak => "memory_leak",
            ErrorKind::Deadlock => "deadlock",
            ErrorKind::FloatConversion => "float_conversion",
        }
    }

    /// A short description for people.
    pub fn describe(self) -> &'static str {
        match self {
            ErrorKind::Assertion => "assertion failed",
            ErrorKind::Fail => "`fail` reached",
            ErrorKind::DivisionByZero => "division by zero",
            ErrorKind::DivisionOverflow => "division overflow (MIN / -1)",
            ErrorKind::SignedOverflow => "signed overflow",
            ErrorKind::InvalidShift => "shift by a negative amount or by at least the width",
            ErrorKind::OutOfBounds => "array index out of bounds",
            ErrorKind::NullDereference => "null dereference",
            ErrorKind::UseAfterFree => "use of a freed object",
            ErrorKind::DoubleFree => "object freed twice",
            ErrorKind::InvalidFree => "`free` of memory not allocated by `malloc`",
            ErrorKind::MemoryLeak => {
                "memory leak: allocated memory is unreachable and not freed when `main` returns"
            }
            ErrorKind::Deadlock => "deadlock: no thread can run and some have not finished",
            ErrorKind::FloatConversion => {
                "conversion of a float to an integer type that cannot hold its value"
            }
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A runtime check of an instruction: it faults with `kind` at `span`
/// when `guard` (if any) and `cond` both hold. Checks run in order before
/// the instruction; a path continues past a check only where it does not
/// fault, so each check may assume the earlier ones passed. Guards come
/// from short-circuit operators and conditional expressions: in
/// `b != 0 and a / b > 1` the division is evaluated only when `b != 0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    /// When the checked operation is evaluated at all.
    pub guard: Option<Code>,
    /// The fault condition (boolean code).
    pub cond: Code,
    /// What the fault is.
    pub kind: ErrorKind,
    /// The operator.
    pub span: Span,
}

/// One instruction. Successors are explicit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Instr {
    /// `place = value`.
    Assign {
        /// Target.
        dst: Place,
        /// Value.
        value: Code,
        /// Successor.
        next: Pc,
    },
    /// `place = *`: the next nondeterministic input value, of type `ty`.
    Havoc {
        /// Target.
        dst: Place,
        /// Its type.
        ty: ScalarTy,
        /// Successor.
        next: Pc,
    },
    /// `array[index] = value`.
    Store {
        /// Target array.
        array: ArrayId,
        /// Subscript.
        index: Code,
        /// Value.
        value: Code,
        /// Successor.
        next: Pc,
    },
    /// A two-way branch.
    Branch {
        /// Condition.
        cond: Code,
        /// Successor when it holds.
        then_to: Pc,
        /// Successor when it does not.
        else_to: Pc,
    },
    /// An assertion failure when `cond` does not hold.
    Assert {
        /// Condition.
        cond: Code,
        /// Successor.
        next: Pc,
    },
    /// The path ends silently when `cond` does not hold.
    Assume {
        /// Condition.
        cond: Code,
        /// Successor.
        next: Pc,
    },
    /// An error location: reaching it is a bug of kind [`ErrorKind::Fail`].
    Fail,
    /// A procedure call.
    Call {
        /// The callee.
        proc: ProcId,
        /// Arguments, evaluated in the caller's frame, left to right.
        args: Box<[Code]>,
        /// Where the caller stores the result.
        dst: Option<Place>,
        /// Where the caller resumes.
        next: Pc,
    },
    /// Return from the current procedure.
    Return {
        /// The returned value, for a procedure that returns one.
        value: Option<Code>,
    },
    /// The main program ends normally (and with it every thread).
    Halt,
    /// `dst = new class`: a fresh object (an identity no other object
    /// has), every field 0 (`null` for references).
    New {
        /// Where the reference goes.
        dst: Place,
        /// Its class.
        class: ClassId,
        /// Successor.
        next: Pc,
    },
    /// Starts a thread that runs `proc(args)` (seed 001 §5's `run`);
    /// `dst` receives the new thread's id.
    Spawn {
        /// The procedure the thread runs.
        proc: ProcId,
        /// Arguments, evaluated in the spawning frame.
        args: Box<[Code]>,
        /// Where the thread id goes (an integer of the place's type).
        dst: Option<Place>,
        /// Where the spawning thread resumes.
        next: Pc,
    },
    /// Waits until the thread whose id `thread` evaluates to has finished.
    Join {
        /// The thread id, of integer type `ty`.
        thread: Code,
        /// Its type.
        ty: IntTy,
        /// Successor.
        next: Pc,
    },
    /// Takes the lock of object `obj`, waiting while another thread holds
    /// it. `lock` is the class's lock array (0: free, else the holder's
    /// thread id + 1), so a lock is heap state like a field.
    Lock {
        /// The lock array.
        lock: ArrayId,
        /// The object (a reference).
        obj: Code,
        /// Successor.
        next: Pc,
    },
    /// Releases the lock of object `obj`.
    Unlock {
        /// The lock array.
        lock: ArrayId,
        /// The object (a reference).
        obj: Code,
        /// Successor.
        next: Pc,
    },
    /// Enters (`begin`) or leaves an atomic section: while a thread is in
    /// one, no other thread runs (unless it blocks).
    Atomic {
        /// Entering?
        begin: bool,
        /// Successor.
        next: Pc,
    },
    /// Writes `parts` to `stream` (C's `printf`, `puts`, `putchar`):
    /// nothing the program can read back changes, so it is a step that
    /// does nothing for every engine; the concrete interpreter writes it
    /// (see [`crate::output`]).
    Output {
        /// Where it goes.
        stream: Stream,
        /// What is written, in order.
        parts: Box<[OutPart]>,
        /// Successor.
        next: Pc,
    },
    /// A step that does nothing: where jumps form a cycle with no other
    /// instruction (`l: goto l`), so that such a loop takes steps, and in
    /// place of a `Havoc` whose value no path reads
    /// ([`crate::liveness::unread_havocs`]).
    Skip {
        /// Successor.
        next: Pc,
    },
}

/// The pattern of every instruction that goes on to one place after it,
/// binding that successor to `$next` (every instruction but a branch and
/// the ones that end a routine).
macro_rules! goes_on {
    ($next:ident) => {
        Instr::Assign { next: $next, .. }
            | Instr::Havoc { next: $next, .. }
            | Instr::Store { next: $next, .. }
            | Instr::Assert { next: $next, .. }
            | Instr::Assume { next: $next, .. }
            | Instr::Call { next: $next, .. }
            | Instr::New { next: $next, .. }
            | Instr::Spawn { next: $next, .. }
            | Instr::Join { next: $next, .. }
            | Instr::Lock { next: $next, .. }
            | Instr::Unlock { next: $next, .. }
            | Instr::Atomic { next: $next, .. }
            | Instr::Output { next: $next, .. }
            | Instr::Skip { next: $next }
    };
}

impl Instr {
    /// The successor of an instruction that goes on to one place after it
    /// (`None` for a branch and the instructions that end a routine).
    pub fn next(&self) -> Option<Pc> {
        match self {
            goes_on!(next) => Some(*next),
            Instr::Branch { .. } | Instr::Fail | Instr::Return { .. } | Instr::Halt => None,
        }
    }

    /// [`Instr::next`], to set it.
    pub fn next_mut(&mut self) -> Option<&mut Pc> {
        match self {
            goes_on!(next) => Some(next),
            Instr::Branch { .. } | Instr::Fail | Instr::Return { .. } | Instr::Halt => None,
        }
    }
}

/// An instruction with its location and its checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    /// The instruction.
    pub instr: Instr,
    /// The statement it came from.
    pub span: Span,
    /// Checks to run, in order, before it.
    pub checks: Box<[Check]>,
}

/// A slot of a routine's frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Its name as the program wrote it, or a name starting with `$` for a
    /// temporary the front end made.
    pub name: Arc<str>,
    /// Its type.
    pub ty: ScalarTy,
    /// The class it refers to, when it holds a reference.
    pub refers: Option<ClassId>,
}

impl Slot {
    /// Is it a temporary of the front end rather than a program variable?
    pub fn is_temporary(&self) -> bool {
        self.name.starts_with('$')
    }
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
    /// All its slots, parameters first. Slots are initialised to 0 (the
    /// front end guarantees that a non-input slot is written before read).
    pub slots: Vec<Slot>,
    /// The type of the value it returns, if any.
    pub ret: Option<ScalarTy>,
    /// Its definition.
    pub span: Span,
}

/// A global variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Global {
    /// Its name.
    pub name: Arc<str>,
    /// Its type.
    pub ty: ScalarTy,
    /// Its initial value; `None` for an input (arbitrary initial value).
    pub init: Option<Int>,
    /// The class it refers to, when it holds a reference.
    pub refers: Option<ClassId>,
}

/// An array (global: every routine sees the same one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArrayDecl {
    /// Its name.
    pub name: Arc<str>,
    /// Index and element types.
    pub ty: ArrayTy,
    /// The value of every element at the start; `None` for an input
    /// (arbitrary contents).
    pub init: Option<Int>,
}

/// An input variable of the main program: a slot that may be read before
/// it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputVar {
    /// The slot of `main`.
    pub slot: u32,
    /// Its name.
    pub name: Arc<str>,
    /// Its type.
    pub ty: ScalarTy,
    /// The class it refers to, when it is a reference (then its value is
    /// `0`, `null`, or an object of the input heap).
    pub refers: Option<ClassId>,
}

/// A field of a class: an array indexed by object identities.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// Its name.
    pub name: Arc<str>,
    /// The array that holds it (index `int`, elements of its type).
    pub array: ArrayId,
    /// The class it refers to, when it holds a reference.
    pub refers: Option<ClassId>,
}

/// A class of objects. References are integers: `0` is `null`, objects
/// of the input heap are `1..=N` (N = the bound on input objects) and
/// objects made by `new` are `-1, -2, ...` in order of creation, so the
/// two never alias. Each field is an array indexed by references (seed
/// 001 §4's heap, one array per field).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassDecl {
    /// Its name.
    pub name: Arc<str>,
    /// Its fields.
    pub fields: Vec<Field>,
    /// Its lock array (see [`Instr::Lock`]).
    pub lock: ArrayId,
    /// For a class of cells (objects that each hold one variable whose
    /// address is taken, as C's front end makes them): the field array of
    /// the value. A variable referring to a cell is shown as that value.
    pub cell: Option<ArrayId>,
}

/// A decision point of the semantics: the condition of an instruction
/// (a branch, an assertion, an assumption) or one of its checks. Each
/// recorded decision names its site, so a path can be replayed, negated
/// constraint by constraint, covered or drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Site {
    /// The instruction.
    pub pc: Pc,
    /// `None` for the instruction's own condition, `Some(k)` for its k-th
    /// check.
    pub check: Option<u16>,
}

impl Site {
    /// The `check` index of the decision that assumes the input heap's
    /// bounds before the first step (no instruction has that many checks).
    pub const INPUT_HEAP: u16 = u16::MAX;
}

/// A whole lowered program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ir {
    /// All instructions, of every routine.
    pub code: Vec<Located>,
    /// The main program.
    pub main: Routine,
    /// Procedures, indexed by [`ProcId`].
    pub procs: Vec<Routine>,
    /// Main slots that are inputs, in the order a witness lists them.
    pub inputs: Vec<InputVar>,
    /// Global variables.
    pub globals: Vec<Global>,
    /// Arrays, indexed by [`ArrayId`].
    pub arrays: Vec<ArrayDecl>,
    /// Classes, indexed by [`ClassId`].
    pub classes: Vec<ClassDecl>,
    /// Does the program start threads? (Then scheduling happens at
    /// every instruction with `visible[pc]`.)
    pub threaded: bool,
    /// Per instruction: does it touch state other threads can see
    /// (globals, arrays and fields, locks, threads, the input stream)?
    /// A thread switch can only matter before such an instruction.
    pub visible: Vec<bool>,
    /// Kinds of error the program may commit in ways these instructions
    /// do not check (the front end's model leaves them out), each with
    /// why: no engine says `safe` of a property that holds one of them.
    pub unchecked: Vec<(ErrorKind, Arc<str>)>,
    /// Checks whose failure is not an error but a place where the front
    /// end's model stops deciding (C's `exit` while objects `malloc` made
    /// are live: whether a live frame still reaches them is not known):
    /// an error state of this kind at this place is no bug; a path that
    /// reaches it keeps the property of its kind from `safe`
    /// ([`Ir::undecided_at`]), and a property without its kind ends the
    /// path there quietly. A front end puts such a check only where the
    /// path ends anyway (the `exit`), so that ending it loses nothing.
    pub undecided: Vec<(ErrorKind, Span, Arc<str>)>,
    /// The loops [`crate::accelerate`] accelerated: each head's edge into
    /// its body now leads to the accelerating code.
    pub accelerated: Vec<Accelerated>,
}

/// One accelerated loop (see [`crate::accelerate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accelerated {
    /// The loop's head, a branch.
    pub head: Pc,
    /// Where its edge into the body leads now: the accelerating code.
    pub code: Pc,
    /// The body's first instruction, where the edge led before.
    pub body: Pc,
}

impl Ir {
    /// Is an error of `kind` at `span` one of [`Ir::undecided`]'s places
    /// (no bug: where the model stops deciding)? Then why.
    pub fn undecided_at(&self, kind: ErrorKind, span: Span) -> Option<&Arc<str>> {
        self.undecided
            .iter()
            .find(|(k, s, _)| (*k, *s) == (kind, span))
            .map(|(_, _, why)| why)
    }

    /// The routine a frame runs: `None` is the main program.
    pub fn routine(&self, proc: Option<ProcId>) -> &Routine {
        match proc {
            None => &self.main,
            Some(p) => &self.procs[p.0 as usize],
        }
    }

    /// The type of a place of a frame of routine `proc` (a local is a
    /// slot of that routine).
    pub fn place_ty(&self, proc: Option<ProcId>, place: Place) -> ScalarTy {
        match place {
            Place::Local(i) => self.routine(proc).slots[i as usize].ty,
            Place::Global(g) => self.globals[g as usize].ty,
        }
    }

    /// The instruction at `pc`.
    pub fn at(&self, pc: Pc) -> &Located {
        &self.code[pc as usize]
    }

    /// The span of a site: the check's operator, or the instruction.
    pub fn site_span(&self, site: Site) -> Span {
        let loc = self.at(site.pc);
        match site.check {
            Some(k) => loc.checks.get(k as usize).map_or(loc.span, |c| c.span),
            None => loc.span,
        }
    }

    /// The field whose array is `array`, with its class, if it is one.
    pub fn field_of(&self, array: ArrayId) -> Option<(ClassId, &Field)> {
        self.classes.iter().enumerate().find_map(|(c, class)| {
            class
                .fields
                .iter()
                .find(|f| f.array == array)
                .map(|f| (ClassId(c as u32), f))
        })
    }

    /// The type of an input array or variable named `name`, if there is one.
    pub fn input_type(&self, name: &str) -> Option<ScalarTy> {
        self.inputs
            .iter()
            .find(|i| &*i.name == name)
            .map(|i| i.ty)
            .or_else(|| {
                self.globals
                    .iter()
                    .find(|g| g.init.is_none() && &*g.name == name)
                    .map(|g| g.ty)
            })
    }
}
