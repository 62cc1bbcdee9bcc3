//! The generator's programs: a small syntax tree that is easy to generate
//! and to shrink, with the types of its variables and arrays, and the
//! [`Spec`] that bounds every input. [`crate::render`] turns it into IMP
//! source.

use crate::spec::Spec;
use crate::Name;
use std::fmt;
use wiser_num::{BinOp, CmpOp, IntTy, UnOp};

/// Array indices are kept in `-ARRAY_REACH..=ARRAY_REACH`: a constant index
/// in that range is written as is, any other index `e` as
/// `e % (ARRAY_REACH + 1)`, and every element in the range is initialised
/// (or is an input cell of the specification).
pub const ARRAY_REACH: i64 = 3;

/// An arithmetic expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ex {
    /// A literal (it takes its context's type; see `docs/LANGUAGE.md`).
    Num(i128),
    /// A scalar.
    Var(Name),
    /// An array element; see [`ARRAY_REACH`] for the index.
    Elem(Name, Box<Ex>),
    /// `-e` or `~e`. (`-` on a literal is a literal: `-(5)` is `-5`.)
    Un(UnOp, Box<Ex>),
    /// `l op r`.
    Bin(BinOp, Box<Ex>, Box<Ex>),
    /// `T(e)`.
    Cast(IntTy, Box<Ex>),
}

/// A condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Co {
    /// `true` or `false`.
    Bool(bool),
    /// A comparison.
    Cmp(CmpOp, Ex, Ex),
    /// `not c`.
    Not(Box<Co>),
    /// `l and r`.
    And(Box<Co>, Box<Co>),
    /// `l or r`.
    Or(Box<Co>, Box<Co>),
}

/// How many times a loop may run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// A constant.
    Const(i64),
    /// A variable that the loop does not assign (an input of the program,
    /// which is never assigned, or a parameter).
    Var(Name),
}

/// A statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum St {
    /// `x = e`.
    Assign(Name, Ex),
    /// `x = *; assume x in D`, with the domain of reads of `x`'s type.
    Havoc(Name),
    /// `a[i] = e`.
    Store(Name, Ex, Ex),
    /// `if c then .. else .. fi`.
    If(Co, Vec<St>, Vec<St>),
    /// `i = 0; while i < bound [and c] do body; i = i + 1 od` (the counter
    /// is an `int`).
    Loop {
        /// The counter (assigned only by the loop).
        counter: Name,
        /// The bound.
        bound: Bound,
        /// An extra condition.
        cond: Option<Co>,
        /// The body.
        body: Vec<St>,
    },
    /// `assert c`.
    Assert(Co),
    /// `assume c`.
    Assume(Co),
    /// `fail`.
    Fail,
    /// `[x =] f(args)`.
    Call(Option<Name>, Name, Vec<Ex>),
    /// `return e`.
    Return(Ex),
}

/// A procedure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proc {
    /// Its name.
    pub name: Name,
    /// Its parameters and their types.
    pub params: Vec<(Name, IntTy)>,
    /// The type of its result.
    pub ret: IntTy,
    /// Locals of a fixed-width type (declared at the top of the body);
    /// other locals are `int`.
    pub locals: Vec<(Name, IntTy)>,
    /// Its body.
    pub body: Vec<St>,
}

/// A whole generated program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Its inputs.
    pub spec: Spec,
    /// Main-program scalars of a fixed-width type (declared first); other
    /// scalars are `int`.
    pub types: Vec<(Name, IntTy)>,
    /// Arrays whose elements have a fixed-width type (declared first).
    pub array_types: Vec<(Name, IntTy)>,
    /// Initial array contents (`array, index, value`), written after the
    /// `assume`s of the specification. They are never shrunk away while
    /// the array is used: an uninitialised element would be an input the
    /// specification does not bound.
    pub array_init: Vec<(Name, i64, i128)>,
    /// Procedures.
    pub procs: Vec<Proc>,
    /// The main statements.
    pub main: Vec<St>,
}

/// The types of the names one routine can see.
#[derive(Clone, Copy, Debug)]
pub struct Env<'a> {
    /// Scalars of a fixed-width type; any other is an `int`.
    pub vars: &'a [(Name, IntTy)],
    /// Arrays with fixed-width elements; any other holds `int`s.
    pub arrays: &'a [(Name, IntTy)],
}

impl Env<'_> {
    /// The type of scalar `name`.
    pub fn var(&self, name: &str) -> IntTy {
        lookup(self.vars, name)
    }

    /// The element type of array `name`.
    pub fn elem(&self, name: &str) -> IntTy {
        lookup(self.arrays, name)
    }
}

/// The type `list` gives `name`, `int` if none.
pub fn lookup(list: &[(Name, IntTy)], name: &str) -> IntTy {
    list.iter()
        .find(|(n, _)| &**n == name)
        .map_or(IntTy::INT, |(_, t)| *t)
}

impl Program {
    /// The main program's names and types.
    pub fn main_env(&self) -> Env<'_> {
        Env {
            vars: &self.types,
            arrays: &self.array_types,
        }
    }

    /// Does the program use machine integers (a fixed-width declaration,
    /// or wrapping signed arithmetic)?
    pub fn is_typed(&self) -> bool {
        !self.types.is_empty()
            || !self.array_types.is_empty()
            || self.spec.wrap_signed
            || self.procs.iter().any(|p| {
                !p.ret.is_unbounded()
                    || !p.locals.is_empty()
                    || p.params.iter().any(|(_, t)| !t.is_unbounded())
            })
    }

    /// Does any statement or expression mention `name` (as a scalar or an
    /// array)?
    pub fn mentions(&self, name: &str) -> bool {
        let procs = self.procs.iter().map(|p| &p.body[..]);
        mentions_in(procs.chain([&self.main[..]]), name, walk_block)
    }
}

/// Does `name` occur in any of `bodies`, among the names `walk` visits in
/// a body? (Each program type walks its own statements.)
pub(crate) fn mentions_in<'a, S: 'a>(
    bodies: impl IntoIterator<Item = &'a [S]>,
    name: &str,
    walk: impl Fn(&[S], &mut dyn FnMut(&Name)),
) -> bool {
    let mut found = false;
    for body in bodies {
        walk(body, &mut |n: &Name| found |= &**n == name);
    }
    found
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source())
    }
}

/// Drops arrays (types, initialisation and cells) that no statement uses,
/// inputs that nothing reads but their `assume`, and the types of scalars
/// no statement mentions.
pub fn prune(p: &mut Program) {
    let mut arrays: Vec<Name> = p.array_init.iter().map(|(a, _, _)| a.clone()).collect();
    arrays.extend(p.spec.cells.iter().map(|(a, ..)| a.clone()));
    arrays.extend(p.array_types.iter().map(|(a, _)| a.clone()));
    arrays.sort();
    arrays.dedup();
    for a in arrays {
        if !p.mentions(&a) {
            p.array_init.retain(|(b, _, _)| b != &a);
            p.spec.cells.retain(|(b, ..)| b != &a);
            p.array_types.retain(|(b, _)| b != &a);
        }
    }
    let unused: Vec<Name> = p
        .spec
        .inputs
        .iter()
        .filter(|(n, _)| !p.mentions(n))
        .map(|(n, _)| n.clone())
        .collect();
    p.spec.inputs.retain(|(n, _)| !unused.contains(n));
    let unmentioned: Vec<Name> = p
        .types
        .iter()
        .filter(|(n, _)| !p.mentions(n))
        .map(|(n, _)| n.clone())
        .collect();
    p.types.retain(|(n, _)| !unmentioned.contains(n));
    for f in &mut p.procs {
        let mut names = Vec::new();
        walk_block(&f.body, &mut |n| names.push(n.clone()));
        f.locals.retain(|(n, _)| names.contains(n));
    }
}

/// Calls `f` on every name used in `ss` (variables, arrays, callees).
pub fn walk_block(ss: &[St], f: &mut dyn FnMut(&Name)) {
    for s in ss {
        walk_stmt(s, f);
    }
}

/// A visitor of the names in a `T`, calling the function it is given.
pub(crate) type Walk<T> = fn(&T, &mut dyn FnMut(&Name));

/// Visits the names of a call (or spawn): its target if any, the callee,
/// then those of its arguments (`walk_arg`). Both program types use it.
pub(crate) fn walk_call<E>(
    target: Option<&Name>,
    callee: &Name,
    args: &[E],
    f: &mut dyn FnMut(&Name),
    walk_arg: Walk<E>,
) {
    if let Some(t) = target {
        f(t);
    }
    f(callee);
    for a in args {
        walk_arg(a, f);
    }
}

fn walk_stmt(s: &St, f: &mut dyn FnMut(&Name)) {
    match s {
        St::Assign(v, e) => {
            f(v);
            walk_expr(e, f);
        }
        St::Havoc(v) => f(v),
        St::Store(a, i, e) => {
            f(a);
            walk_expr(i, f);
            walk_expr(e, f);
        }
        St::If(c, a, b) => {
            walk_cond(c, f);
            walk_block(a, f);
            walk_block(b, f);
        }
        St::Loop {
            counter,
            bound,
            cond,
            body,
        } => {
            f(counter);
            if let Bound::Var(v) = bound {
                f(v);
            }
            if let Some(c) = cond {
                walk_cond(c, f);
            }
            walk_block(body, f);
        }
        St::Assert(c) | St::Assume(c) => walk_cond(c, f),
        St::Fail => {}
        St::Call(t, g, args) => walk_call(t.as_ref(), g, args, f, walk_expr),
        St::Return(e) => walk_expr(e, f),
    }
}

/// Calls `f` on every name used in `c`.
pub fn walk_cond(c: &Co, f: &mut dyn FnMut(&Name)) {
    match c {
        Co::Bool(_) => {}
        Co::Cmp(_, a, b) => {
            walk_expr(a, f);
            walk_expr(b, f);
        }
        Co::Not(a) => walk_cond(a, f),
        Co::And(a, b) | Co::Or(a, b) => {
            walk_cond(a, f);
            walk_cond(b, f);
        }
    }
}

/// Calls `f` on every name used in `e`.
pub fn walk_expr(e: &Ex, f: &mut dyn FnMut(&Name)) {
    match e {
        Ex::Num(_) => {}
        Ex::Var(v) => f(v),
        Ex::Elem(a, i) => {
            f(a);
            walk_expr(i, f);
        }
        Ex::Un(_, a) | Ex::Cast(_, a) => walk_expr(a, f),
        Ex::Bin(_, a, b) => {
            walk_expr(a, f);
            walk_expr(b, f);
        }
    }
}
