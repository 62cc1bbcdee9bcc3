//! The static rules of classes, globals and threads that are not typing
//! rules: methods become procedures, class names must exist, globals keep
//! their names to themselves, `this` only in methods, atomic sections
//! neither nest nor return, and `spawn` names a procedure.

use super::{plural, Def, Errors};
use crate::ast::{Ident, Param, ProcDef, Program, Stmt, Ty, THIS};
use crate::classes::{is_method, method_proc, Classes, Globals};
use crate::walk::{each_stmt, stmt_names};
use crate::{Diagnostic, Span};
use std::collections::HashMap;
use std::sync::Arc;

/// Appends every method to the procedures, as `Class.method` with `this`
/// as its first parameter, so that all later phases treat methods as the
/// procedures they are (seed 001 §4).
pub(super) fn flatten_methods(program: &mut Program) {
    for class in &program.classes {
        for m in &class.methods {
            let this = Param {
                name: Ident {
                    name: THIS.into(),
                    span: m.name.span,
                },
                ty: Ty::INT,
                class: Some(class.name.clone()),
            };
            program.procs.push(ProcDef {
                name: Ident {
                    name: method_proc(&class.name.name, &m.name.name),
                    span: m.name.span,
                },
                params: std::iter::once(this).chain(m.params.clone()).collect(),
                ret: m.ret,
                ret_class: m.ret_class.clone(),
                body: m.body.clone(),
                span: m.span,
            });
        }
    }
}

/// Class names must be defined; globals may not be declared, used as
/// arrays or as parameters.
pub(super) fn check_names(
    program: &Program,
    classes: &Classes,
    globals: &Globals,
    arrays: &[Arc<str>],
    errs: &mut Errors,
) {
    for g in &program.globals {
        if arrays.contains(&g.name.name) {
            errs.push(
                Diagnostic::new(
                    g.name.span,
                    format!("`{}` is a global scalar but used as an array", g.name.name),
                )
                .with_help("arrays and scalars need different names"),
            );
        }
    }
    let global_decl = |id: &Ident, errs: &mut Errors| {
        if globals.contains(&id.name) {
            errs.push(
                Diagnostic::new(
                    id.span,
                    format!("`{}` is a global and cannot be declared here", id.name),
                )
                .with_help(
                    "its type is given by its `global` definition; use another name for a \
                     variable of this routine",
                ),
            );
        }
    };
    for p in &program.procs {
        for q in &p.params {
            if let Some(c) = &q.class {
                classes.resolve(c, errs);
            }
            global_decl(&q.name, errs);
        }
        if let Some(c) = &p.ret_class {
            classes.resolve(c, errs);
        }
    }
    let bodies = program
        .macros
        .iter()
        .map(|m| &m.body)
        .chain(program.procs.iter().map(|p| &p.body))
        .chain([&program.main]);
    for body in bodies {
        each_stmt(body, &mut |s| match s {
            Stmt::RefDecl { target, class, .. } => {
                classes.resolve(class, errs);
                global_decl(target, errs);
            }
            Stmt::New { class, .. } => {
                classes.resolve(class, errs);
            }
            Stmt::Decl { target, .. } => global_decl(target, errs),
            _ => {}
        });
    }
}

/// `this` only in methods; `atomic` sections neither nest nor contain
/// `return` (which would leave them open).
pub(super) fn check_bodies(procs: &[ProcDef], main: &Stmt, errs: &mut Errors) {
    let bodies = procs
        .iter()
        .map(|p| (&p.body, is_method(&p.name.name)))
        .chain([(main, false)]);
    for (body, method) in bodies {
        if !method {
            stmt_names(body, &mut |id, _| {
                if &*id.name == THIS {
                    errs.push(
                        Diagnostic::new(id.span, "`this` outside a method").with_help(
                            "`this` is the object a method of a class runs on; pass the \
                                 object as a parameter instead",
                        ),
                    );
                }
            });
        }
        each_stmt(body, &mut |s| {
            let Stmt::Atomic { body, .. } = s else {
                return;
            };
            each_stmt(body, &mut |inner| match inner {
                Stmt::Atomic { span, .. } => errs.push(
                    Diagnostic::new(*span, "atomic sections cannot nest")
                        .with_help("the outer section already runs without interruption"),
                ),
                Stmt::Return { span, .. } => errs.push(
                    Diagnostic::new(*span, "`return` inside an atomic section")
                        .with_help("store the result in a variable and return after `end`"),
                ),
                _ => {}
            });
        });
    }
}

/// `spawn p(args)`: `p` is a procedure with as many parameters.
pub(super) fn check_spawn(
    program: &Program,
    lookup: &HashMap<Arc<str>, Def>,
    callee: &Ident,
    nargs: usize,
    span: Span,
    errs: &mut Errors,
) {
    match lookup.get(&callee.name) {
        None => errs.push(
            Diagnostic::new(callee.span, format!("unknown procedure `{}`", callee.name)).with_help(
                format!(
                    "a thread runs a procedure: define it before the main program, `proc {}(...) \
                     begin ... end`",
                    callee.name
                ),
            ),
        ),
        Some(Def::Macro(_)) => errs.push(
            Diagnostic::new(
                callee.span,
                format!(
                    "`{}` is a macro, and a thread runs a procedure",
                    callee.name
                ),
            )
            .with_help("make it a `proc`"),
        ),
        Some(&Def::Proc(i)) => {
            let arity = program.procs[i].params.len();
            if arity != nargs {
                errs.push(Diagnostic::new(
                    span,
                    format!(
                        "procedure `{}` expects {arity} argument{}, found {nargs}",
                        callee.name,
                        plural(arity)
                    ),
                ));
            }
        }
    }
}

/// Does `s` start a thread?
pub(super) fn spawns(s: &Stmt) -> bool {
    let mut found = false;
    each_stmt(s, &mut |s| found |= matches!(s, Stmt::Spawn { .. }));
    found
}
