//! Static analysis: the static rules and macro expansion.
//!
//! [`analyse()`] works in four phases, each of which must succeed before the
//! next runs (so that no error is a mere consequence of an earlier one):
//!
//! 1. checks on the program as written: definitions, calls, macro
//!    recursion, arrays versus scalars, `return` outside procedures (this
//!    module);
//! 2. macro expansion, which after phase 1 can only fail by producing a
//!    program that is too large or too deeply nested ([`expand`]);
//! 3. definite-assignment analysis of the expanded procedures, which also
//!    computes the main program's inputs ([`flow`]);
//! 4. the typing rules of machine integers ([`crate::types`]).
//!
//! Within a phase every error is collected and the one that comes first in
//! the source is reported.

mod expand;
mod flow;
mod objects;

use crate::ast::{ClassDef, Expr, GlobalDef, Ident, MacroDef, ProcDef, Program, Stmt, Ty};
use crate::classes::{Classes, Globals};
use crate::walk::{each_stmt, stmt_names};
use crate::{Diagnostic, Span, MAX_NESTING};
use expand::Expander;
use flow::{proc_flow, Flow};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// A program that passed [`analyse()`]: macros are expanded, every call is to
/// a procedure with the right number of arguments, and every variable's
/// role is known.
///
/// Every tree in it has height at most [`MAX_NESTING`].
#[derive(Clone, Debug)]
pub struct AnalysedProgram {
    /// Procedures in source order, macros expanded in their bodies.
    pub procs: Vec<ProcDef>,
    /// The main statement, macros expanded.
    pub main: Stmt,
    /// Every name used as an array, in order of first appearance in the
    /// source (macro bodies included).
    pub arrays: Vec<Arc<str>>,
    /// Main-program scalars that may be read before they are written (the
    /// program's inputs), in order of first such read.
    pub main_inputs: Vec<Arc<str>>,
    /// Every scalar of the main program (after expansion), in order of
    /// first appearance.
    pub main_vars: Vec<Arc<str>>,
    /// For each procedure (same order as `procs`): its locals, parameters
    /// first, then the other scalars it assigns or declares in order of
    /// first appearance.
    pub proc_locals: Vec<Vec<Arc<str>>>,
    /// The type of each of `main_vars` (`int` unless declared).
    pub main_types: Vec<Ty>,
    /// For each procedure, the type of each of its `proc_locals`.
    pub proc_types: Vec<Vec<Ty>>,
    /// The element type of each of `arrays`.
    pub array_types: Vec<Ty>,
    /// The classes, in source order. Their methods are also in `procs`,
    /// expanded, as procedures named `Class.method` whose first parameter
    /// is `this`.
    pub classes: Vec<ClassDef>,
    /// The globals, in source order.
    pub globals: Vec<GlobalDef>,
    /// For each of `main_vars`: the index in `classes` of the class it
    /// refers to, if it is a reference.
    pub main_classes: Vec<Option<usize>>,
    /// For each procedure, the same for each of its `proc_locals`.
    pub proc_classes: Vec<Vec<Option<usize>>>,
    /// Does the program start threads (`spawn`)? Then every access to
    /// shared state is lowered as a step of its own.
    pub threaded: bool,
}

/// Macro expansion may add at most this many statements to the program.
const MAX_EXPANDED_STATEMENTS: usize = 1_000_000;
/// ... and at most this many expression and condition nodes, since a
/// macro that uses a parameter twice doubles its argument at every level
/// of a chain of macros without adding statements.
const MAX_EXPANDED_NODES: usize = 4_000_000;
/// Bound on the expander's recursion: the output's height is bounded by
/// [`MAX_NESTING`], but a chain of macros whose bodies are just a call to
/// the next one recurses without adding height.
const MAX_EXPANSION_RECURSION: usize = 2 * MAX_NESTING;

/// Checks `program` and expands its macros. The first error in source
/// order is returned. The rules:
///
/// * definition names (macros and procedures share one namespace) and the
///   parameters of each definition are distinct;
/// * a call names a defined procedure or macro and passes as many
///   arguments as it has parameters;
/// * a macro call is replaced by the macro's body with each parameter
///   replaced by its argument expression; other names in the body are the
///   caller's variables. A parameter the body assigns (possibly through
///   other macros) needs a plain variable as its argument; parameters are
///   scalars; macros return nothing and cannot be recursive; expansion may
///   add at most 1,000,000 statements (and 4,000,000 expression nodes);
/// * a name used with a subscript anywhere is a (global) array and cannot
///   be used as a scalar anywhere, including as a procedure parameter;
/// * `return` appears only in procedures (also through macros);
/// * a procedure sees only its parameters and the scalars it assigns or
///   declares, and reads none of them before it is definitely assigned:
///   after an `if`, what both branches assign (or one, when the other ends
///   in `fail` or `return`); after a `while`, what was assigned before it;
/// * the program is well-typed: the rules of machine integers
///   (docs/LANGUAGE.md, "Machine integers").
///
/// The same analysis on the main program finds its inputs. The program's
/// trees must be at most [`MAX_NESTING`] high, as the parser guarantees;
/// deeper hand-built trees may overflow the stack.
pub fn analyse(program: Program) -> Result<AnalysedProgram, Diagnostic> {
    crate::with_deep_stack(move || check_program(program))
}

fn check_program(mut program: Program) -> Result<AnalysedProgram, Diagnostic> {
    // Phase 1.
    let mut errs = Errors::default();
    let classes = Classes::new(&program.classes, &mut errs);
    let globals = Globals::new(&program.globals, &classes, &mut errs);
    objects::flatten_methods(&mut program);
    let lookup = definitions(&program, &mut errs);
    let info = macro_info(&program, &lookup, &mut errs);
    check_calls(&program, &lookup, &info, &mut errs);
    let arrays = arrays_and_scalars(&program, &mut errs);
    objects::check_names(&program, &classes, &globals, &arrays, &mut errs);
    errs.finish()?;

    // Phase 2.
    let mut expander = Expander {
        program: &program,
        lookup: &lookup,
        stmts_left: MAX_EXPANDED_STATEMENTS,
        nodes_left: MAX_EXPANDED_NODES,
    };
    let mut procs = Vec::with_capacity(program.procs.len());
    for p in &program.procs {
        procs.push(ProcDef {
            name: p.name.clone(),
            params: p.params.clone(),
            ret: p.ret,
            ret_class: p.ret_class.clone(),
            body: expander.unit(&p.body)?,
            span: p.span,
        });
    }
    let main = expander.unit(&program.main)?;

    // Phase 3.
    let mut errs = Errors::default();
    objects::check_bodies(&procs, &main, &mut errs);
    errs.finish()?;
    let mut errs = Errors::default();
    let proc_locals: Vec<_> = procs
        .iter()
        .map(|p| proc_flow(p, &globals, &mut errs))
        .collect();
    errs.finish()?;
    let mut flow = Flow::new(None, HashSet::new(), &globals);
    flow.stmt(&main);
    let main_inputs = flow.inputs();
    let main_vars = flow.names;

    // Phase 4.
    let cx = crate::types::Program {
        procs: &procs,
        proc_locals: &proc_locals,
        main: &main,
        main_vars: &main_vars,
        arrays: &arrays,
        classes: &classes,
        globals: &globals,
    };
    let types = crate::types::check_types(&cx)?;
    let threaded = procs
        .iter()
        .map(|p| &p.body)
        .chain([&main])
        .any(objects::spawns);

    Ok(AnalysedProgram {
        procs,
        main,
        arrays,
        main_inputs,
        main_vars,
        proc_locals,
        main_types: types.main,
        proc_types: types.procs,
        array_types: types.arrays,
        classes: program.classes,
        globals: program.globals,
        main_classes: types.main_classes,
        proc_classes: types.proc_classes,
        threaded,
    })
}

/// Keeps the error that comes first in the source (the texts in the order
/// of their ids: the program's own text before the command line's
/// `--assume` condition).
#[derive(Default)]
pub(crate) struct Errors(Option<Diagnostic>);

impl Errors {
    pub(crate) fn push(&mut self, d: Diagnostic) {
        match &self.0 {
            Some(old) if (old.span.file, old.span.lo) <= (d.span.file, d.span.lo) => {}
            _ => self.0 = Some(d),
        }
    }

    pub(crate) fn finish(self) -> Result<(), Diagnostic> {
        match self.0 {
            Some(d) => Err(d),
            None => Ok(()),
        }
    }
}

/// What a defined name denotes: an index into `Program::macros` or
/// `Program::procs`.
#[derive(Clone, Copy)]
enum Def {
    Macro(usize),
    Proc(usize),
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

// ----- phase 1 --------------------------------------------------------------

/// Maps every defined name to its first definition; reports duplicate
/// definitions and parameters.
fn definitions(program: &Program, errs: &mut Errors) -> HashMap<Arc<str>, Def> {
    let mut defs: Vec<(&Ident, Vec<&Ident>, Def, &str)> = Vec::new();
    for (i, m) in program.macros.iter().enumerate() {
        defs.push((&m.name, m.params.iter().collect(), Def::Macro(i), "macro"));
    }
    for (i, p) in program.procs.iter().enumerate() {
        let params = p.params.iter().map(|p| &p.name).collect();
        defs.push((&p.name, params, Def::Proc(i), "procedure"));
    }
    defs.sort_by_key(|d| d.0.span.lo);
    let mut lookup = HashMap::new();
    for (name, params, def, kind) in defs {
        if lookup.contains_key(&name.name) {
            errs.push(
                Diagnostic::new(name.span, format!("`{}` is defined twice", name.name))
                    .with_help("rename one of them; macros and procedures share one namespace"),
            );
        } else {
            lookup.insert(name.name.clone(), def);
        }
        let mut seen = HashSet::new();
        for p in params {
            if !seen.insert(&p.name) {
                errs.push(
                    Diagnostic::new(
                        p.span,
                        format!("duplicate parameter `{}` of {kind} `{}`", p.name, name.name),
                    )
                    .with_help("give each parameter a different name"),
                );
            }
        }
    }
    lookup
}

/// What phase 1 needs to know about each macro's expansion.
struct MacroInfo {
    /// Which parameters the expansion assigns (directly or through the
    /// macros it calls): their arguments must be variables.
    assigns: Vec<Vec<bool>>,
    /// Whether the expansion contains `return`.
    has_return: Vec<bool>,
}

fn params_index(params: &[Ident]) -> HashMap<&str, usize> {
    let mut index = HashMap::new();
    for (i, p) in params.iter().enumerate() {
        index.entry(&*p.name).or_insert(i);
    }
    index
}

/// Reports recursive macros and computes [`MacroInfo`], callees first.
fn macro_info(program: &Program, lookup: &HashMap<Arc<str>, Def>, errs: &mut Errors) -> MacroInfo {
    let n = program.macros.len();
    // The macro calls in each macro's body, as (callee, call statement).
    let sites: Vec<Vec<(usize, &Stmt)>> = program
        .macros
        .iter()
        .map(|m| {
            let mut v = Vec::new();
            each_stmt(&m.body, &mut |s| {
                if let Stmt::Call { callee, .. } = s {
                    if let Some(&Def::Macro(c)) = lookup.get(&callee.name) {
                        v.push((c, s));
                    }
                }
            });
            v
        })
        .collect();

    // Iterative depth-first search: a chain of thousands of macros must
    // not overflow the stack.
    const NEW: u8 = 0;
    const ACTIVE: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; n];
    let mut post_order = Vec::with_capacity(n);
    for root in 0..n {
        if state[root] != NEW {
            continue;
        }
        state[root] = ACTIVE;
        let mut stack = vec![(root, 0usize)];
        while let Some(top) = stack.last_mut() {
            let (m, next) = *top;
            if let Some(&(callee, site)) = sites[m].get(next) {
                top.1 += 1;
                match state[callee] {
                    NEW => {
                        state[callee] = ACTIVE;
                        stack.push((callee, 0));
                    }
                    ACTIVE => {
                        let Stmt::Call { callee: name, .. } = site else {
                            continue;
                        };
                        // The cycle is the part of the search stack from
                        // `callee` up, then back to `callee`.
                        let start = stack.iter().position(|&(x, _)| x == callee).unwrap_or(0);
                        let cycle: Vec<String> = stack[start..]
                            .iter()
                            .map(|&(x, _)| format!("`{}`", program.macros[x].name.name))
                            .chain([format!("`{}`", name.name)])
                            .collect();
                        errs.push(
                            Diagnostic::new(
                                name.span,
                                if cycle.len() == 2 {
                                    format!("recursive macro: {} calls itself", cycle[0])
                                } else {
                                    format!(
                                        "recursive macros: {} calls {}",
                                        cycle[0],
                                        cycle[1..].join(", which calls ")
                                    )
                                },
                            )
                            .with_help(
                                "macros are expanded in place, so they cannot be recursive; \
                                 use a `proc` instead",
                            ),
                        );
                    }
                    _ => {}
                }
            } else {
                state[m] = DONE;
                post_order.push(m);
                stack.pop();
            }
        }
    }

    let mut info = MacroInfo {
        assigns: program
            .macros
            .iter()
            .map(|m| vec![false; m.params.len()])
            .collect(),
        has_return: vec![false; n],
    };
    for m in post_order {
        let def = &program.macros[m];
        let params = params_index(&def.params);
        let mut assigns = vec![false; def.params.len()];
        let mut has_return = false;
        each_stmt(&def.body, &mut |s| {
            // A declaration counts as an assignment: its target, too, is
            // replaced by the argument, which must then be a variable.
            if let Some(&i) = s.assigned_var().and_then(|t| params.get(&*t.name)) {
                assigns[i] = true;
            }
            match s {
                Stmt::Call {
                    target,
                    callee,
                    args,
                    ..
                } => {
                    if target.is_none() {
                        if let Some(&Def::Macro(c)) = lookup.get(&callee.name) {
                            has_return |= info.has_return[c];
                        }
                    }
                    // A call with a target may also be a (wrong) macro
                    // call; that is reported elsewhere.
                    mark_macro_call(lookup, &info, callee, args, &params, &mut assigns);
                }
                Stmt::Return { .. } => has_return = true,
                _ => {}
            }
        });
        info.assigns[m] = assigns;
        info.has_return[m] = has_return;
    }
    info
}

/// A macro call inside a macro body assigns the body's parameters that it
/// passes, as plain variables, to parameters the callee assigns.
fn mark_macro_call(
    lookup: &HashMap<Arc<str>, Def>,
    info: &MacroInfo,
    callee: &Ident,
    args: &[Expr],
    params: &HashMap<&str, usize>,
    assigns: &mut [bool],
) {
    let Some(&Def::Macro(c)) = lookup.get(&callee.name) else {
        return;
    };
    for (j, arg) in args.iter().enumerate() {
        if info.assigns[c].get(j).copied().unwrap_or(false) {
            if let Expr::Var(v) = arg {
                if let Some(&i) = params.get(&*v.name) {
                    assigns[i] = true;
                }
            }
        }
    }
}

/// Checks every call (callee, arity, macro arguments) and `return`.
fn check_calls(
    program: &Program,
    lookup: &HashMap<Arc<str>, Def>,
    info: &MacroInfo,
    errs: &mut Errors,
) {
    let bodies = program
        .macros
        .iter()
        .map(|m| (&m.body, false))
        .chain(program.procs.iter().map(|p| (&p.body, false)))
        .chain([(&program.main, true)]);
    for (body, is_main) in bodies {
        each_stmt(body, &mut |s| match s {
            Stmt::Spawn {
                receiver: None,
                callee,
                args,
                span,
                ..
            } => objects::check_spawn(program, lookup, callee, args.len(), *span, errs),
            Stmt::Return { span, .. } if is_main => errs.push(
                Diagnostic::new(*span, "`return` outside a procedure")
                    .with_help("only a procedure can return; the main program simply ends"),
            ),
            Stmt::Call {
                target,
                callee,
                args,
                span,
            } => {
                let Some(&def) = lookup.get(&callee.name) else {
                    errs.push(
                        Diagnostic::new(
                            callee.span,
                            format!("unknown procedure `{}`", callee.name),
                        )
                        .with_help(
                            // Only a name long enough to be a slip (`icn`,
                            // `skpi`): every one-letter name is one edit
                            // from every other (`g` is not a typo of `f`).
                            match crate::suggest::closest(
                                &callee.name,
                                lookup
                                    .keys()
                                    .map(|k| &**k)
                                    .chain(crate::suggest::STATEMENT_KEYWORDS),
                            )
                            .filter(|_| callee.name.len() >= 3)
                            {
                                Some(c) => format!("did you mean `{c}`?"),
                                None => format!(
                                    "define it before the main program: `proc {}(...) begin ... end`",
                                    callee.name
                                ),
                            },
                        ),
                    );
                    return;
                };
                let (kind, arity) = match def {
                    Def::Macro(i) => ("macro", program.macros[i].params.len()),
                    Def::Proc(i) => ("procedure", program.procs[i].params.len()),
                };
                if arity != args.len() {
                    errs.push(Diagnostic::new(
                        *span,
                        format!(
                            "{kind} `{}` expects {arity} argument{}, found {}",
                            callee.name,
                            plural(arity),
                            args.len()
                        ),
                    ));
                }
                let Def::Macro(m) = def else {
                    return;
                };
                let params = &program.macros[m].params;
                if target.is_some() {
                    errs.push(
                        Diagnostic::new(
                            *span,
                            format!("macro `{}` does not return a value", callee.name),
                        )
                        .with_help(
                            "call it as a statement of its own; a macro can assign \
                             variables passed as its arguments",
                        ),
                    );
                }
                if is_main && info.has_return[m] {
                    errs.push(
                        Diagnostic::new(
                            *span,
                            format!(
                                "macro `{}` contains `return`, which is only allowed in a \
                                 procedure",
                                callee.name
                            ),
                        )
                        .with_help("only a procedure can return; the main program simply ends"),
                    );
                }
                for (j, arg) in args.iter().enumerate() {
                    if info.assigns[m].get(j).copied().unwrap_or(false)
                        && !matches!(arg, Expr::Var(_))
                    {
                        errs.push(
                            Diagnostic::new(
                                arg.span(),
                                format!(
                                    "parameter `{}` of macro `{}` is assigned in its body, so \
                                     its argument must be a variable",
                                    params[j].name, callee.name
                                ),
                            )
                            .with_help(
                                "pass a variable; to pass a value, copy it into a variable \
                                 first",
                            ),
                        );
                    }
                }
            }
            _ => {}
        });
    }
}

/// Finds the arrays (names used with a subscript anywhere) and reports
/// names also used as scalars, and macro parameters used as arrays.
/// Macro parameters are placeholders for their arguments, not scalars.
fn arrays_and_scalars(program: &Program, errs: &mut Errors) -> Vec<Arc<str>> {
    // Definitions and the main program in source order, each with the
    // parameters that are placeholders (macros) or scalars (procedures).
    let mut units: Vec<(Span, &Stmt, Option<&MacroDef>, Vec<&Ident>)> = Vec::new();
    for m in &program.macros {
        units.push((m.span, &m.body, Some(m), Vec::new()));
    }
    for p in &program.procs {
        let params = p.params.iter().map(|p| &p.name).collect();
        units.push((p.span, &p.body, None, params));
    }
    units.sort_by_key(|u| u.0.lo);
    units.push((program.main.span(), &program.main, None, Vec::new()));

    let mut arrays = Vec::new();
    let mut array_set = HashSet::new();
    for (_, body, mac, _) in &units {
        let (body, mac) = (*body, *mac);
        let placeholders = mac.map(|m| params_index(&m.params)).unwrap_or_default();
        stmt_names(body, &mut |id, is_array| {
            if !is_array {
                return;
            }
            if placeholders.contains_key(&*id.name) {
                let m = mac.map_or("", |m| &m.name.name);
                errs.push(
                    Diagnostic::new(
                        id.span,
                        format!("parameter `{}` of macro `{m}` is used as an array", id.name),
                    )
                    .with_help(
                        "parameters are scalars; arrays are global, so use the array by its \
                         own name",
                    ),
                );
            } else if array_set.insert(id.name.clone()) {
                arrays.push(id.name.clone());
            }
        });
    }

    let scalar_use = |id: &Ident, errs: &mut Errors| {
        if array_set.contains(&id.name) {
            errs.push(
                Diagnostic::new(
                    id.span,
                    format!(
                        "`{}` is used as an array elsewhere but as a scalar here",
                        id.name
                    ),
                )
                .with_help(format!(
                    "arrays and scalars need different names; an element of the array is \
                     written `{}[i]`",
                    id.name
                )),
            );
        }
    };
    for (_, body, mac, params) in &units {
        let (body, mac) = (*body, *mac);
        let placeholders = mac.map(|m| params_index(&m.params)).unwrap_or_default();
        for p in params {
            scalar_use(p, errs);
        }
        stmt_names(body, &mut |id, is_array| {
            if !is_array && !placeholders.contains_key(&*id.name) {
                scalar_use(id, errs);
            }
        });
    }
    arrays
}
