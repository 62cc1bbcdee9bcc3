//! Phase 4 of [`crate::analyse()`]: machine-integer types.
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
//! Lossless conversions ([`wiser_num::IntTy::is_lossless_to`]): anything to
//! `int`; between fixed widths of the same signedness to at least the
//! width; unsigned to signed of a greater width.
//!
//! Floats (`f32`, `f64`; docs/LANGUAGE.md, "Floats") convert implicitly to
//! nothing but their own type ([`crate::ast::Ty::is_lossless_to`]): every
//! conversion to, from or between floats is a cast. A float literal takes
//! the float type its context expects (`f64` when none does, or when an
//! open expression has one); an integer literal may take a float type. `%`,
//! bitwise operators and subscripts need integers. Fields and globals
//! cannot be floats (the parser rejects them).
//!
//! The expression rules are in [`crate::typer`], shared with lowering;
//! this module finds the declarations and checks every statement.

use crate::analysis::Errors;
use crate::ast::{CallParts, Ident, Param};
use crate::ast::{Cond, Expr, ProcDef, Stmt, Ty};
use crate::classes::{method_proc, Classes, Globals};
use crate::typer::{Scope, Target, VTy};
use crate::walk::{each_cmp, each_stmt};
use crate::{Diagnostic, Span};

use std::collections::HashMap;
use std::sync::Arc;

type R<T> = Result<T, Diagnostic>;

/// The types [`check`] found, parallel to the names of
/// [`crate::AnalysedProgram`].
pub(crate) struct Types {
    /// Of `main_vars`.
    pub(crate) main: Vec<Ty>,
    /// Of each procedure's `proc_locals`.
    pub(crate) procs: Vec<Vec<Ty>>,
    /// The elements of `arrays`.
    pub(crate) arrays: Vec<Ty>,
    /// The classes of `main_vars` that are references.
    pub(crate) main_classes: Vec<Option<usize>>,
    /// The same for each procedure's `proc_locals`.
    pub(crate) proc_classes: Vec<Vec<Option<usize>>>,
}

/// What [`check`] checks: the expanded program and what the earlier
/// phases found.
pub(crate) struct Program<'a> {
    pub(crate) procs: &'a [ProcDef],
    pub(crate) proc_locals: &'a [Vec<Arc<str>>],
    pub(crate) main: &'a Stmt,
    pub(crate) main_vars: &'a [Arc<str>],
    pub(crate) arrays: &'a [Arc<str>],
    pub(crate) classes: &'a Classes,
    pub(crate) globals: &'a Globals,
}

/// Checks the types of the expanded program; the first error in source
/// order is returned.
pub(crate) fn check_types(p: &Program) -> R<Types> {
    let mut errs = Errors::default();
    let bodies: Vec<&Stmt> = p.procs.iter().map(|p| &p.body).chain([p.main]).collect();
    let elems = array_decls(&bodies, &mut errs);
    // Duplicate definitions were rejected by phase 1.
    let sigs: HashMap<&str, &ProcDef> = p.procs.iter().map(|p| (&*p.name.name, p)).collect();
    let mut proc_types = Vec::with_capacity(p.procs.len());
    let mut proc_classes = Vec::with_capacity(p.procs.len());
    for (def, locals) in p.procs.iter().zip(p.proc_locals) {
        let (vars, refs) = routine_decls(&def.body, Some(def), p, &sigs, &mut errs);
        proc_types.push(types_of(locals, &vars));
        proc_classes.push(classes_of(locals, &refs));
        let scope = Scope {
            vars: &vars,
            arrays: &elems,
            refs: &refs,
            classes: p.classes,
        };
        let ret = VTy {
            ty: def.ret,
            class: def.ret_class.as_ref().and_then(|c| p.classes.get(&c.name)),
        };
        let mut checker = Checker {
            scope,
            sigs: &sigs,
            ret: Some(ret),
            errs: &mut errs,
        };
        checker.stmt(&def.body);
    }
    let (vars, refs) = routine_decls(p.main, None, p, &sigs, &mut errs);
    let scope = Scope {
        vars: &vars,
        arrays: &elems,
        refs: &refs,
        classes: p.classes,
    };
    let mut checker = Checker {
        scope,
        sigs: &sigs,
        ret: None,
        errs: &mut errs,
    };
    checker.stmt(p.main);
    errs.finish()?;
    Ok(Types {
        main: types_of(p.main_vars, &vars),
        procs: proc_types,
        arrays: types_of(p.arrays, &elems),
        main_classes: classes_of(p.main_vars, &refs),
        proc_classes,
    })
}

fn classes_of(names: &[Arc<str>], refs: &HashMap<Arc<str>, usize>) -> Vec<Option<usize>> {
    names.iter().map(|n| refs.get(n).copied()).collect()
}

fn types_of(names: &[Arc<str>], types: &HashMap<Arc<str>, Ty>) -> Vec<Ty> {
    names
        .iter()
        .map(|n| types.get(n).copied().unwrap_or(Ty::INT))
        .collect()
}

/// Records that `name` (an array's elements if `array`) has type `ty`,
/// reporting a conflict with an earlier declaration.
fn declare(
    types: &mut HashMap<Arc<str>, Ty>,
    name: &Ident,
    ty: Ty,
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
fn array_decls(bodies: &[&Stmt], errs: &mut Errors) -> HashMap<Arc<str>, Ty> {
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

/// The types of a routine's parameters and declared scalars (globals
/// included), and the classes of its references: declared ones, and
/// undeclared variables assigned a reference (`x = new C`, `x = y.next`),
/// whose class the first such assignment gives.
fn routine_decls(
    body: &Stmt,
    proc: Option<&ProcDef>,
    p: &Program,
    sigs: &HashMap<&str, &ProcDef>,
    errs: &mut Errors,
) -> (HashMap<Arc<str>, Ty>, HashMap<Arc<str>, usize>) {
    let params: &[Param] = proc.map_or(&[], |p| &p.params);
    let mut types: HashMap<Arc<str>, Ty> = (p.globals.types.iter())
        .map(|(n, &t)| (n.clone(), Ty::Int(t)))
        .collect();
    let mut refs: HashMap<Arc<str>, usize> = p.globals.classes.clone();
    for q in params {
        types.entry(q.name.name.clone()).or_insert(q.ty);
        if let Some(c) = q.class.as_ref().and_then(|c| p.classes.get(&c.name)) {
            refs.entry(q.name.name.clone()).or_insert(c);
        }
    }
    each_stmt(body, &mut |s| {
        let (target, class) = match s {
            Stmt::Decl { target, .. } => (target, None),
            Stmt::RefDecl { target, class, .. } => (target, Some(class)),
            _ => return,
        };
        if let (Some(def), Some(param)) = (proc, params.iter().find(|p| p.name.name == target.name))
        {
            return errs.push(declared_parameter(def, param, target.span));
        }
        match (s, class.and_then(|c| p.classes.get(&c.name))) {
            (Stmt::Decl { ty, .. }, _) => {
                if let Some(&c) = refs.get(&target.name) {
                    errs.push(redeclared(
                        target,
                        &format!("a reference to `{}`", p.classes.names[c]),
                    ));
                } else {
                    declare(&mut types, target, *ty, false, errs)
                }
            }
            (_, Some(c)) => match (refs.get(&target.name), types.get(&target.name)) {
                (Some(&d), _) if d != c => errs.push(redeclared(
                    target,
                    &format!("a reference to `{}`", p.classes.names[d]),
                )),
                (None, Some(ty)) => errs.push(redeclared(target, &format!("`{ty}`"))),
                _ => {
                    refs.insert(target.name.clone(), c);
                    types.insert(target.name.clone(), Ty::INT);
                }
            },
            // An unknown class, reported by phase 1.
            _ => {}
        }
    });
    // Inference, to a fixed point: each round gives a class to at least
    // one more variable, or stops.
    loop {
        let mut changed = false;
        each_stmt(body, &mut |s| {
            let (target, class) = match s {
                Stmt::New { target, class, .. } => (target, p.classes.get(&class.name)),
                Stmt::Assign { target, value, .. } => (target, ref_class(value, &refs, p.classes)),
                Stmt::Call {
                    target: Some(target),
                    callee,
                    ..
                } => (target, ret_class(sigs, &callee.name, p.classes)),
                Stmt::MethodCall {
                    target: Some(target),
                    receiver,
                    method,
                    ..
                } => {
                    let class = ref_class(receiver, &refs, p.classes).and_then(|c| {
                        let name = method_proc(&p.classes.names[c], &method.name);
                        ret_class(sigs, &name, p.classes)
                    });
                    (target, class)
                }
                _ => return,
            };
            if let Some(c) = class {
                if !types.contains_key(&target.name) && !refs.contains_key(&target.name) {
                    refs.insert(target.name.clone(), c);
                    types.insert(target.name.clone(), Ty::INT);
                    changed = true;
                }
            }
        });
        if !changed {
            break;
        }
    }
    (types, refs)
}

/// The class `e` refers to, if it is a reference to one (as far as
/// `refs` knows yet).
fn ref_class(e: &Expr, refs: &HashMap<Arc<str>, usize>, classes: &Classes) -> Option<usize> {
    match e {
        Expr::Var(v) => refs.get(&v.name).copied(),
        Expr::Field { obj, field, .. } => {
            let c = ref_class(obj, refs, classes)?;
            classes.field(c, &field.name)?.1.class
        }
        _ => None,
    }
}

/// The class of the reference procedure `name` returns, if it returns one.
fn ret_class(sigs: &HashMap<&str, &ProcDef>, name: &str, classes: &Classes) -> Option<usize> {
    let c = sigs.get(name)?.ret_class.as_ref()?;
    classes.get(&c.name)
}

fn redeclared(target: &Ident, old: &str) -> Diagnostic {
    Diagnostic::new(
        target.span,
        format!("`{}` is already declared as {old}", target.name),
    )
    .with_help(
        "a variable has one type in its whole routine (the main program or a procedure); \
         remove one of the declarations or rename one of the variables",
    )
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
    ret: Option<VTy>,
    errs: &'e mut Errors,
}

impl<'a> Checker<'a, '_> {
    /// Checks `s` and the statements nested in it, each on its own.
    fn stmt(&mut self, s: &'a Stmt) {
        each_stmt(s, &mut |s| {
            if let Err(d) = self.stmt_inner(s) {
                self.errs.push(d);
            }
        });
    }

    fn stmt_inner(&mut self, s: &'a Stmt) -> R<()> {
        let scope = &self.scope;
        match s {
            Stmt::Havoc { target, span } if scope.refs.contains_key(&target.name) => {
                return Err(Diagnostic::new(
                    *span,
                    format!(
                        "`{}` is a reference and cannot be read from the input",
                        target.name
                    ),
                )
                .with_help(
                    "a reference of the main program that is read before it is assigned is an \
                     input already",
                ));
            }
            Stmt::Skip(_) | Stmt::Fail(_) | Stmt::Havoc { .. } | Stmt::ArrayDecl { .. } => {}
            Stmt::Assign { .. } | Stmt::Decl { .. } | Stmt::RefDecl { .. } => {
                // A declaration without a value assigns nothing.
                if let Some((target, value)) = s.assigned_value() {
                    scope.value_of(value, scope.var_ty(&target.name), Target::Assign)?;
                }
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
            // The statements nested in these are checked on their own.
            Stmt::Seq(_) | Stmt::Atomic { .. } => {}
            Stmt::If { cond, .. }
            | Stmt::While { cond, .. }
            | Stmt::Assert { cond, .. }
            | Stmt::Assume { cond, .. } => self.cond(cond),
            Stmt::Call { .. } | Stmt::MethodCall { .. } | Stmt::Spawn { .. } => {
                if let Some(call) = s.as_call() {
                    self.call(call)?;
                }
            }
            Stmt::Return { value, .. } => {
                let ret = self.ret.unwrap_or(VTy::of(Ty::INT));
                scope.value_of(value, ret, Target::Return)?;
            }
            Stmt::New { target, class, .. } => {
                let to = scope.var_ty(&target.name);
                let made = scope.classes.get(&class.name);
                if to.class != made {
                    let what = match to.class {
                        Some(c) => format!("a reference to `{}`", scope.class_name(c)),
                        None => format!("`{}`", to.ty),
                    };
                    return Err(Diagnostic::new(
                        target.span,
                        format!(
                            "cannot assign a new `{}` to `{}`, which is {what}",
                            class.name, target.name
                        ),
                    )
                    .with_help(format!(
                        "use a variable of class `{}`, e.g. `var {}2: {}`",
                        class.name, target.name, class.name
                    )));
                }
            }
            Stmt::FieldAssign {
                obj, field, value, ..
            } => {
                let o = scope.expr(obj)?;
                let c = scope.reference(&o, "field access")?;
                let Some((_, f)) = scope.classes.field(c, &field.name) else {
                    return Err(scope.classes.no_member(c, field, "field"));
                };
                let to = VTy {
                    ty: Ty::Int(f.ty),
                    class: f.class,
                };
                scope.value_of(value, to, Target::Store)?;
            }
            Stmt::Join { thread, .. } => {
                scope.index(thread)?;
            }
            Stmt::Lock { obj, .. } => {
                let o = scope.expr(obj)?;
                scope.reference(&o, "a lock")?;
            }
        }
        Ok(())
    }

    /// Checks the arguments and the target of a call, a method call or a
    /// spawn.
    fn call(&mut self, call: CallParts<'a>) -> R<()> {
        let (sig, params) = match call.receiver {
            Some(r) => {
                let sig = self.method(r, call.callee)?;
                (sig, &sig.params[1..])
            }
            // Phase 1 checked that the procedure exists and the arity.
            None => match self.sigs.get(&*call.callee.name) {
                Some(sig) => (*sig, &sig.params[..]),
                None => return Ok(()),
            },
        };
        let scope = &self.scope;
        check_args(scope, self.errs, &sig.name.name, call.args, params);
        match call.target {
            Some(t) if call.spawn => {
                if let Some(c) = scope.refs.get(&t.name) {
                    return Err(Diagnostic::new(
                        t.span,
                        format!(
                            "`{}` is a reference to `{}`, and a thread id is an integer",
                            t.name,
                            scope.class_name(*c)
                        ),
                    )
                    .with_help("store the thread id in an integer variable"));
                }
                Ok(())
            }
            Some(t) => self.call_target(sig, t, call.span),
            None => Ok(()),
        }
    }

    /// Checks that the result of the procedure `sig` can go to `target`.
    fn call_target(&self, sig: &ProcDef, target: &Ident, at: Span) -> R<()> {
        let scope = &self.scope;
        let want = sig
            .ret_class
            .as_ref()
            .and_then(|c| scope.classes.get(&c.name));
        let to = scope.var_ty(&target.name);
        match (want, to.class) {
            (None, None) => scope.call_result(sig.ret, &target.name, &sig.name.name, at),
            (Some(c), Some(d)) if c == d => Ok(()),
            (want, _) => {
                let what = |c: Option<usize>, ty: Ty| match c {
                    Some(c) => format!("a reference to `{}`", scope.class_name(c)),
                    None => crate::typer::a(ty),
                };
                Err(Diagnostic::new(
                    at,
                    format!(
                        "`{}` returns {}, but `{}` is {}",
                        sig.name.name,
                        what(want, sig.ret),
                        target.name,
                        what(to.class, to.ty)
                    ),
                )
                .with_help("store the result in a variable of the type it has"))
            }
        }
    }

    /// The procedure of method `method` of the class `receiver` refers to.
    fn method(&self, receiver: &'a Expr, method: &Ident) -> R<&'a ProcDef> {
        let scope = &self.scope;
        let r = scope.expr(receiver)?;
        let c = scope.reference(&r, "method call")?;
        let name = method_proc(scope.class_name(c), &method.name);
        match self.sigs.get(&*name) {
            Some(sig) if scope.classes.has_method(c, &method.name) => Ok(sig),
            _ => Err(scope.classes.no_member(c, method, "method")),
        }
    }

    fn cond(&mut self, c: &'a Cond) {
        each_cmp(c, &mut |op, lhs, rhs, span| {
            if let Err(d) = self.scope.cmp(op.symbol(), lhs, rhs, span) {
                self.errs.push(d);
            }
        });
    }
}

/// Checks the arguments of a call of `callee` against its parameters.
fn check_args<'a>(
    scope: &Scope<'a>,
    errs: &mut Errors,
    callee: &str,
    args: &'a [Expr],
    params: &[Param],
) {
    for (arg, param) in args.iter().zip(params) {
        let target = Target::Arg {
            proc: callee,
            param: &param.name.name,
        };
        let to = VTy {
            ty: param.ty,
            class: param
                .class
                .as_ref()
                .and_then(|c| scope.classes.get(&c.name)),
        };
        if let Err(d) = scope.value_of(arg, to, target) {
            errs.push(d);
        }
    }
}
