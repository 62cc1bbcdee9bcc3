//! Phase 4 of [`crate::check()`]: machine-integer types.
//!
//! The rules (docs/LANGUAGE.md, "Machine integers", says the same for
//! users):
//!
//! * every scalar has one type in its routine (the main program or a
//!   procedure): that of its declarations, wherever they are, or `int`
//!   if it has none. Declaring a variable again with the same type is
//!   allowed (a macro may be expanded several times); with another type
//!   it is an error at the later declaration. A parameter's type is the
//!   signature's, and declaring a parameter is an error. An array's
//!   elements have the type of its `var a: T[]` declarations, in any
//!   routine, or `int`;
//! * literals have no type of their own: each takes the type its context
//!   expects, `int` when nothing gives one, and must fit it (`-5` is one
//!   literal, so `x: u8 = -1` is an error);
//! * the operands' types decide an operation's type (the expected type
//!   only types literals): equal types stay, otherwise the operand whose
//!   type converts losslessly to the other's is converted, otherwise the
//!   types are mismatched. Comparisons likewise;
//! * a value assigned, passed, returned or stored must have the target's
//!   type or convert to it losslessly;
//! * `a << b` and `a >> b` have `a`'s type, which must be fixed-width;
//!   `b` keeps its own type. `& | ^ ~` need fixed-width operands. Casts
//!   `T(e)` convert between any integer types, wrapping; a literal
//!   directly inside one is an `int`. Subscripts may have any integer
//!   type.
//!
//! Lossless conversions, [`crate::typer::lossless`]: anything to `int`;
//! between fixed widths of the same signedness to at least the width;
//! unsigned to signed of a greater width.
//!
//! The expression rules are in [`crate::typer`], shared with lowering;
//! this module finds the declarations and checks every statement.

use crate::ast::{Cond, IntTy, ProcDef, Stmt};
use crate::ast::{Ident, Init, Param};
use crate::check::Errors;
use crate::typer::{Scope, Target};
use crate::walk::each_stmt;
use crate::{Diagnostic, Span};
use std::collections::HashMap;
use std::sync::Arc;

type R<T> = Result<T, Diagnostic>;

/// The types [`check`] found, parallel to the names of
/// [`crate::CheckedProgram`].
pub(crate) struct Types {
    /// Of `main_vars`.
    pub(crate) main: Vec<IntTy>,
    /// Of each procedure's `proc_locals`.
    pub(crate) procs: Vec<Vec<IntTy>>,
    /// The elements of `arrays`.
    pub(crate) arrays: Vec<IntTy>,
}

/// Checks the types of the expanded program; the first error in source
/// order is returned.
pub(crate) fn check(
    procs: &[ProcDef],
    proc_locals: &[Vec<Arc<str>>],
    main: &Stmt,
    main_vars: &[Arc<str>],
    arrays: &[Arc<str>],
) -> R<Types> {
    let mut errs = Errors::default();
    let bodies: Vec<&Stmt> = procs.iter().map(|p| &p.body).chain([main]).collect();
    let elems = array_decls(&bodies, &mut errs);
    // Duplicate definitions were rejected by phase 1.
    let sigs: HashMap<&str, &ProcDef> = procs.iter().map(|p| (&*p.name.name, p)).collect();
    let mut proc_types = Vec::with_capacity(procs.len());
    for (p, locals) in procs.iter().zip(proc_locals) {
        let vars = routine_decls(&p.body, Some(p), &mut errs);
        proc_types.push(types_of(locals, &vars));
        let scope = Scope {
            vars: &vars,
            arrays: &elems,
        };
        let mut checker = Checker {
            scope,
            sigs: &sigs,
            ret: Some(p.ret),
            errs: &mut errs,
        };
        checker.stmt(&p.body);
    }
    let vars = routine_decls(main, None, &mut errs);
    let scope = Scope {
        vars: &vars,
        arrays: &elems,
    };
    let mut checker = Checker {
        scope,
        sigs: &sigs,
        ret: None,
        errs: &mut errs,
    };
    checker.stmt(main);
    errs.finish()?;
    Ok(Types {
        main: types_of(main_vars, &vars),
        procs: proc_types,
        arrays: types_of(arrays, &elems),
    })
}

fn types_of(names: &[Arc<str>], types: &HashMap<Arc<str>, IntTy>) -> Vec<IntTy> {
    names
        .iter()
        .map(|n| types.get(n).copied().unwrap_or(IntTy::INT))
        .collect()
}

/// Records that `name` (an array's elements if `array`) has type `ty`,
/// reporting a conflict with an earlier declaration.
fn declare(
    types: &mut HashMap<Arc<str>, IntTy>,
    name: &Ident,
    ty: IntTy,
    array: bool,
    errs: &mut Errors,
) {
    let d = match types.get(&name.name) {
        Some(&old) if old == ty => return,
        None => {
            types.insert(name.name.clone(), ty);
            return;
        }
        Some(&old) if array => Diagnostic::new(
            name.span,
            format!(
                "array `{}` is already declared with elements of type `{old}`",
                name.name
            ),
        )
        .with_help(
            "an array has one element type in the whole program; remove one of the \
             declarations or rename one of the arrays",
        ),
        Some(&old) => Diagnostic::new(
            name.span,
            format!("`{}` is already declared as `{old}`", name.name),
        )
        .with_help(
            "a variable has one type in its whole routine (the main program or a procedure); \
             remove one of the declarations or rename one of the variables",
        ),
    };
    errs.push(d);
}

/// The element types of the declared arrays (of every routine).
fn array_decls(bodies: &[&Stmt], errs: &mut Errors) -> HashMap<Arc<str>, IntTy> {
    let mut elems = HashMap::new();
    for body in bodies {
        each_stmt(body, &mut |s| {
            if let Stmt::ArrayDecl { array, elem, .. } = s {
                declare(&mut elems, array, *elem, true, errs);
            }
        });
    }
    elems
}

/// The types of a routine's parameters and declared scalars.
fn routine_decls(
    body: &Stmt,
    proc: Option<&ProcDef>,
    errs: &mut Errors,
) -> HashMap<Arc<str>, IntTy> {
    let params: &[Param] = proc.map_or(&[], |p| &p.params);
    let mut types: HashMap<Arc<str>, IntTy> = HashMap::new();
    for p in params {
        types.entry(p.name.name.clone()).or_insert(p.ty);
    }
    each_stmt(body, &mut |s| {
        let Stmt::Decl { target, ty, .. } = s else {
            return;
        };
        match (proc, params.iter().find(|p| p.name.name == target.name)) {
            (Some(def), Some(param)) => errs.push(declared_parameter(def, param, target.span)),
            _ => declare(&mut types, target, *ty, false, errs),
        }
    });
    types
}

fn declared_parameter(def: &ProcDef, param: &Param, at: Span) -> Diagnostic {
    let (name, f) = (&param.name.name, &def.name.name);
    Diagnostic::new(
        at,
        format!("`{name}` is a parameter of `{f}` and cannot be declared"),
    )
    .with_help(format!(
        "a parameter's type is given in the signature, e.g. `proc {f}({name}: u8)`; to assign \
         it, write `{name} = ...`"
    ))
}

/// Checks the types of every statement of a routine.
struct Checker<'a, 'e> {
    scope: Scope<'a>,
    sigs: &'a HashMap<&'a str, &'a ProcDef>,
    /// The procedure's result type; `None` in main.
    ret: Option<IntTy>,
    errs: &'e mut Errors,
}

impl<'a> Checker<'a, '_> {
    fn stmt(&mut self, s: &'a Stmt) {
        if let Err(d) = self.stmt_inner(s) {
            self.errs.push(d);
        }
    }

    fn stmt_inner(&mut self, s: &'a Stmt) -> R<()> {
        let scope = &self.scope;
        match s {
            Stmt::Skip(_)
            | Stmt::Fail(_)
            | Stmt::Havoc { .. }
            | Stmt::ArrayDecl { .. }
            | Stmt::Decl {
                init: None | Some(Init::Havoc),
                ..
            } => {}
            Stmt::Assign { target, value, .. }
            | Stmt::Decl {
                target,
                init: Some(Init::Value(value)),
                ..
            } => {
                scope.value(value, scope.var(&target.name), Target::Assign)?;
            }
            Stmt::ArrayAssign {
                array,
                index,
                value,
                ..
            } => {
                scope.index(index)?;
                scope.value(value, scope.elem(&array.name), Target::Store)?;
            }
            Stmt::Seq(items) => {
                for item in items {
                    self.stmt(item);
                }
            }
            Stmt::If {
                cond,
                then_branch,
                else_branch,
                ..
            } => {
                self.cond(cond);
                self.stmt(then_branch);
                self.stmt(else_branch);
            }
            Stmt::While { cond, body, .. } => {
                self.cond(cond);
                self.stmt(body);
            }
            Stmt::Assert { cond, .. } | Stmt::Assume { cond, .. } => self.cond(cond),
            Stmt::Call {
                target,
                callee,
                args,
                span,
            } => {
                // Phase 1 checked that the callee exists and the arity.
                let Some(sig) = self.sigs.get(&*callee.name) else {
                    return Ok(());
                };
                for (arg, param) in args.iter().zip(&sig.params) {
                    let target = Target::Arg {
                        proc: &callee.name,
                        param: &param.name.name,
                    };
                    if let Err(d) = scope.value(arg, param.ty, target) {
                        self.errs.push(d);
                    }
                }
                if let Some(t) = target {
                    scope.call_result(sig.ret, &t.name, &callee.name, *span)?;
                }
            }
            Stmt::Return { value, .. } => {
                let ret = self.ret.unwrap_or(IntTy::INT);
                scope.value(value, ret, Target::Return)?;
            }
        }
        Ok(())
    }

    fn cond(&mut self, c: &'a Cond) {
        match c {
            Cond::Bool { .. } => {}
            Cond::Not { operand, .. } => self.cond(operand),
            Cond::And { lhs, rhs, .. } | Cond::Or { lhs, rhs, .. } => {
                self.cond(lhs);
                self.cond(rhs);
            }
            Cond::Cmp { op, lhs, rhs, span } => {
                if let Err(d) = self.scope.cmp(op.symbol(), lhs, rhs, *span) {
                    self.errs.push(d);
                }
            }
        }
    }
}
