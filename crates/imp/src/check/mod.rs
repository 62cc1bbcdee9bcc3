//! Static checks and macro expansion.
//!
//! [`check()`] works in three phases, each of which must succeed before the
//! next runs (so that no error is a mere consequence of an earlier one):
//!
//! 1. checks on the program as written: definitions, calls, macro
//!    recursion, arrays versus scalars, `return` outside procedures;
//! 2. macro expansion, which after phase 1 can only fail by producing a
//!    program that is too large or too deeply nested;
//! 3. definite-assignment analysis of the expanded procedures, which also
//!    computes the main program's inputs.
//!
//! Within a phase every error is collected and the one that comes first in
//! the source is reported.

use crate::ast::{Cond, Expr, Ident, MacroDef, ProcDef, Program, Stmt};
use crate::{Diagnostic, Span, MAX_NESTING};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// A program that passed [`check()`]: macros are expanded, every call is to
/// a procedure with the right number of arguments, and every variable's
/// role is known.
///
/// Every tree in it has height at most [`MAX_NESTING`].
#[derive(Clone, Debug)]
pub struct CheckedProgram {
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
    /// first, then the other scalars it assigns in order of first
    /// appearance.
    pub proc_locals: Vec<Vec<Arc<str>>>,
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
/// * a procedure sees only its parameters and the scalars it assigns, and
///   reads none of them before it is definitely assigned: after an `if`,
///   what both branches assign (or one, when the other ends in `fail` or
///   `return`); after a `while`, what was assigned before it.
///
/// The same analysis on the main program finds its inputs. The program's
/// trees must be at most [`MAX_NESTING`] high, as the parser guarantees;
/// deeper hand-built trees may overflow the stack.
pub fn check(program: Program) -> Result<CheckedProgram, Diagnostic> {
    crate::with_deep_stack(move || check_program(program))
}

fn check_program(program: Program) -> Result<CheckedProgram, Diagnostic> {
    // Phase 1.
    let mut errs = Errors::default();
    let lookup = definitions(&program, &mut errs);
    let info = macro_info(&program, &lookup, &mut errs);
    check_calls(&program, &lookup, &info, &mut errs);
    let arrays = arrays_and_scalars(&program, &mut errs);
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
            body: expander.unit(&p.body)?,
            span: p.span,
        });
    }
    let main = expander.unit(&program.main)?;

    // Phase 3.
    let mut errs = Errors::default();
    let proc_locals = procs.iter().map(|p| proc_flow(p, &mut errs)).collect();
    errs.finish()?;
    let mut flow = Flow::new(None, HashSet::new());
    flow.stmt(&main);
    let main_inputs = flow
        .inputs
        .iter()
        .map(|&id| flow.names[id].clone())
        .collect();

    Ok(CheckedProgram {
        procs,
        main,
        arrays,
        main_inputs,
        main_vars: flow.names,
        proc_locals,
    })
}

/// Keeps the error that comes first in the source.
#[derive(Default)]
struct Errors(Option<Diagnostic>);

impl Errors {
    fn push(&mut self, d: Diagnostic) {
        match &self.0 {
            Some(old) if old.span.lo <= d.span.lo => {}
            _ => self.0 = Some(d),
        }
    }

    fn finish(self) -> Result<(), Diagnostic> {
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
    let mut defs: Vec<(&Ident, &[Ident], Def, &str)> = Vec::new();
    for (i, m) in program.macros.iter().enumerate() {
        defs.push((&m.name, &m.params, Def::Macro(i), "macro"));
    }
    for (i, p) in program.procs.iter().enumerate() {
        defs.push((&p.name, &p.params, Def::Proc(i), "procedure"));
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
        each_stmt(&def.body, &mut |s| match s {
            Stmt::Assign { target, .. }
            | Stmt::Havoc { target, .. }
            | Stmt::Call {
                target: Some(target),
                ..
            } => {
                if let Some(&i) = params.get(&*target.name) {
                    assigns[i] = true;
                }
                // A call with a target may also be a (wrong) macro call;
                // that is reported elsewhere.
                if let Stmt::Call { callee, args, .. } = s {
                    mark_macro_call(lookup, &info, callee, args, &params, &mut assigns);
                }
            }
            Stmt::Call { callee, args, .. } => {
                if let Some(&Def::Macro(c)) = lookup.get(&callee.name) {
                    has_return |= info.has_return[c];
                }
                mark_macro_call(lookup, &info, callee, args, &params, &mut assigns);
            }
            Stmt::Return { .. } => has_return = true,
            _ => {}
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
                        .with_help(format!(
                            "define it before the main program: `proc {}(...) begin ... end`",
                            callee.name
                        )),
                    );
                    return;
                };
                let (kind, params) = match def {
                    Def::Macro(i) => ("macro", &program.macros[i].params),
                    Def::Proc(i) => ("procedure", &program.procs[i].params),
                };
                if params.len() != args.len() {
                    errs.push(Diagnostic::new(
                        *span,
                        format!(
                            "{kind} `{}` expects {} argument{}, found {}",
                            callee.name,
                            params.len(),
                            plural(params.len()),
                            args.len()
                        ),
                    ));
                }
                let Def::Macro(m) = def else {
                    return;
                };
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
    let mut units: Vec<(Span, &Stmt, Option<&MacroDef>, &[Ident])> = Vec::new();
    for m in &program.macros {
        units.push((m.span, &m.body, Some(m), &[]));
    }
    for p in &program.procs {
        units.push((p.span, &p.body, None, &p.params));
    }
    units.sort_by_key(|u| u.0.lo);
    units.push((program.main.span(), &program.main, None, &[]));

    let mut arrays = Vec::new();
    let mut array_set = HashSet::new();
    for &(_, body, mac, _) in &units {
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
    for &(_, body, mac, params) in &units {
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

/// Calls `f` on `s` and every statement nested in it, in source order.
fn each_stmt<'a>(s: &'a Stmt, f: &mut dyn FnMut(&'a Stmt)) {
    f(s);
    match s {
        Stmt::Seq(items) => {
            for item in items {
                each_stmt(item, f);
            }
        }
        Stmt::If {
            then_branch,
            else_branch,
            ..
        } => {
            each_stmt(then_branch, f);
            each_stmt(else_branch, f);
        }
        Stmt::While { body, .. } => each_stmt(body, f),
        _ => {}
    }
}

/// Calls `f(name, is_array)` on every variable name in `s` (not callees),
/// in source order.
fn stmt_names<'a>(s: &'a Stmt, f: &mut dyn FnMut(&'a Ident, bool)) {
    match s {
        Stmt::Skip(_) | Stmt::Fail(_) => {}
        Stmt::Assign { target, value, .. } => {
            f(target, false);
            expr_names(value, f);
        }
        Stmt::Havoc { target, .. } => f(target, false),
        Stmt::ArrayAssign {
            array,
            index,
            value,
            ..
        } => {
            f(array, true);
            expr_names(index, f);
            expr_names(value, f);
        }
        Stmt::Seq(items) => {
            for item in items {
                stmt_names(item, f);
            }
        }
        Stmt::If {
            cond,
            then_branch,
            else_branch,
            ..
        } => {
            cond_names(cond, f);
            stmt_names(then_branch, f);
            stmt_names(else_branch, f);
        }
        Stmt::While { cond, body, .. } => {
            cond_names(cond, f);
            stmt_names(body, f);
        }
        Stmt::Assert { cond, .. } | Stmt::Assume { cond, .. } => cond_names(cond, f),
        Stmt::Call { target, args, .. } => {
            if let Some(t) = target {
                f(t, false);
            }
            for a in args {
                expr_names(a, f);
            }
        }
        Stmt::Return { value, .. } => expr_names(value, f),
    }
}

fn cond_names<'a>(c: &'a Cond, f: &mut dyn FnMut(&'a Ident, bool)) {
    match c {
        Cond::Bool { .. } => {}
        Cond::Not { operand, .. } => cond_names(operand, f),
        Cond::And { lhs, rhs, .. } | Cond::Or { lhs, rhs, .. } => {
            cond_names(lhs, f);
            cond_names(rhs, f);
        }
        Cond::Cmp { lhs, rhs, .. } => {
            expr_names(lhs, f);
            expr_names(rhs, f);
        }
    }
}

fn expr_names<'a>(e: &'a Expr, f: &mut dyn FnMut(&'a Ident, bool)) {
    match e {
        Expr::Num { .. } => {}
        Expr::Var(id) => f(id, false),
        Expr::Index { array, index, .. } => {
            f(array, true);
            expr_names(index, f);
        }
        Expr::Neg { operand, .. } => expr_names(operand, f),
        Expr::Binary { lhs, rhs, .. } => {
            expr_names(lhs, f);
            expr_names(rhs, f);
        }
    }
}

// ----- phase 2 --------------------------------------------------------------

/// An argument of the macro call being expanded, already expanded in the
/// caller's context.
struct Arg {
    expr: Expr,
    height: usize,
    size: usize,
}

/// Where the expander is.
#[derive(Default)]
struct Cx {
    /// The parameters of the macro being expanded, mapped to arguments.
    subst: HashMap<Arc<str>, Arg>,
    /// The outermost macro call (in a procedure body or the main program)
    /// this is the expansion of; `None` outside macros.
    root: Option<Span>,
}

struct Expander<'p> {
    program: &'p Program,
    lookup: &'p HashMap<Arc<str>, Def>,
    stmts_left: usize,
    nodes_left: usize,
}

type R<T> = Result<T, Diagnostic>;

impl Expander<'_> {
    /// Expands a procedure body or the main program.
    fn unit(&mut self, body: &Stmt) -> R<Stmt> {
        Ok(self.block(body, &Cx::default(), 1)?.0)
    }

    fn too_deep(&self, cx: &Cx, at: Span) -> Diagnostic {
        let d = match cx.root {
            Some(call) => Diagnostic::new(
                call,
                format!(
                    "expanding this macro call nests the program too deeply (more than \
                     {MAX_NESTING} levels)"
                ),
            ),
            None => Diagnostic::new(
                at,
                format!(
                    "after macro expansion, this is nested too deeply (more than {MAX_NESTING} \
                     levels)"
                ),
            ),
        };
        d.with_help("macros are expanded in place; simplify them or use procedures instead")
    }

    fn too_large(&self, cx: &Cx, what: &str) -> Diagnostic {
        Diagnostic::new(
            cx.root.unwrap_or_default(),
            format!("macro expansion makes the program too large (more than {what})"),
        )
        .with_help("macros are expanded in place; use procedures for code that is used often")
    }

    fn recursion(&self, rec: usize, cx: &Cx, at: Span) -> R<()> {
        if rec > MAX_EXPANSION_RECURSION {
            return Err(self.too_deep(cx, at));
        }
        Ok(())
    }

    fn height(&self, h: usize, cx: &Cx, at: Span) -> R<usize> {
        if h > MAX_NESTING {
            return Err(self.too_deep(cx, at));
        }
        Ok(h)
    }

    /// Counts `n` expression nodes built by macro expansion.
    fn nodes(&mut self, cx: &Cx, n: usize) -> R<()> {
        if cx.root.is_some() {
            if n > self.nodes_left {
                return Err(self.too_large(cx, &format!("{MAX_EXPANDED_NODES} expression nodes")));
            }
            self.nodes_left -= n;
        }
        Ok(())
    }

    /// Expands `s` into one statement (a sequence if needed), with its
    /// height. `rec` is the depth of `s` in the output, plus one for every
    /// macro call on the way.
    fn block(&mut self, s: &Stmt, cx: &Cx, rec: usize) -> R<(Stmt, usize)> {
        let mut out = Vec::new();
        let mut height = 0;
        self.stmts(s, cx, rec, &mut out, &mut height)?;
        match out.len() {
            0 => Ok((Stmt::Skip(s.span()), 1)),
            1 => Ok((out.pop().unwrap_or(Stmt::Skip(s.span())), height)),
            _ => {
                let h = self.height(height + 1, cx, s.span())?;
                Ok((Stmt::Seq(out), h))
            }
        }
    }

    /// Appends the expansion of `s` to `out`, splicing sequences so that no
    /// sequence ends up directly inside another; `height` becomes the
    /// maximum height of what was appended.
    fn stmts(
        &mut self,
        s: &Stmt,
        cx: &Cx,
        rec: usize,
        out: &mut Vec<Stmt>,
        height: &mut usize,
    ) -> R<()> {
        self.recursion(rec, cx, s.span())?;
        match s {
            Stmt::Seq(items) => {
                for item in items {
                    self.stmts(item, cx, rec + 1, out, height)?;
                }
                Ok(())
            }
            Stmt::Call {
                target: None,
                callee,
                args,
                span,
            } => {
                let Some(&Def::Macro(m)) = self.lookup.get(&callee.name) else {
                    let (node, h) = self.stmt_node(s, cx, rec)?;
                    return self.push(cx, node, h, out, height);
                };
                let def = &self.program.macros[m];
                let mut subst = HashMap::new();
                for (param, arg) in def.params.iter().zip(args) {
                    let (expr, h) = self.expr(arg, cx, rec + 1)?;
                    let size = expr_size(&expr);
                    subst.entry(param.name.clone()).or_insert(Arg {
                        expr,
                        height: h,
                        size,
                    });
                }
                let inner = Cx {
                    subst,
                    root: Some(cx.root.unwrap_or(*span)),
                };
                self.stmts(&def.body, &inner, rec + 1, out, height)
            }
            _ => {
                let (node, h) = self.stmt_node(s, cx, rec)?;
                self.push(cx, node, h, out, height)
            }
        }
    }

    fn push(
        &mut self,
        cx: &Cx,
        node: Stmt,
        h: usize,
        out: &mut Vec<Stmt>,
        height: &mut usize,
    ) -> R<()> {
        if cx.root.is_some() {
            if self.stmts_left == 0 {
                return Err(self.too_large(cx, &format!("{MAX_EXPANDED_STATEMENTS} statements")));
            }
            self.stmts_left -= 1;
        }
        out.push(node);
        *height = (*height).max(h);
        Ok(())
    }

    /// A parameter's argument when it is assigned (always a variable after
    /// phase 1), else the name itself.
    fn target(&self, t: &Ident, cx: &Cx) -> R<Ident> {
        match cx.subst.get(&t.name) {
            None => Ok(t.clone()),
            Some(Arg {
                expr: Expr::Var(v), ..
            }) => Ok(v.clone()),
            Some(arg) => Err(Diagnostic::new(
                arg.expr.span(),
                format!(
                    "parameter `{}` is assigned in its macro's body, so its argument must be a \
                     variable",
                    t.name
                ),
            )),
        }
    }

    /// Expands one statement that is neither a sequence nor a macro call.
    fn stmt_node(&mut self, s: &Stmt, cx: &Cx, rec: usize) -> R<(Stmt, usize)> {
        let span = s.span();
        let (node, child) = match s {
            Stmt::Skip(_) | Stmt::Fail(_) => (s.clone(), 0),
            Stmt::Assign { target, value, .. } => {
                let target = self.target(target, cx)?;
                let (value, h) = self.expr(value, cx, rec + 1)?;
                (
                    Stmt::Assign {
                        target,
                        value,
                        span,
                    },
                    h,
                )
            }
            Stmt::Havoc { target, .. } => (
                Stmt::Havoc {
                    target: self.target(target, cx)?,
                    span,
                },
                0,
            ),
            Stmt::ArrayAssign {
                array,
                index,
                value,
                ..
            } => {
                let (index, ih) = self.expr(index, cx, rec + 1)?;
                let (value, vh) = self.expr(value, cx, rec + 1)?;
                (
                    Stmt::ArrayAssign {
                        array: array.clone(),
                        index,
                        value,
                        span,
                    },
                    ih.max(vh),
                )
            }
            Stmt::Seq(_) => return self.block(s, cx, rec),
            Stmt::If {
                cond,
                then_branch,
                else_branch,
                ..
            } => {
                let (cond, ch) = self.cond(cond, cx, rec + 1)?;
                let (then_branch, th) = self.block(then_branch, cx, rec + 1)?;
                let (else_branch, eh) = self.block(else_branch, cx, rec + 1)?;
                (
                    Stmt::If {
                        cond,
                        then_branch: Box::new(then_branch),
                        else_branch: Box::new(else_branch),
                        span,
                    },
                    ch.max(th).max(eh),
                )
            }
            Stmt::While { cond, body, .. } => {
                let (cond, ch) = self.cond(cond, cx, rec + 1)?;
                let (body, bh) = self.block(body, cx, rec + 1)?;
                (
                    Stmt::While {
                        cond,
                        body: Box::new(body),
                        span,
                    },
                    ch.max(bh),
                )
            }
            Stmt::Assert { cond, .. } => {
                let (cond, h) = self.cond(cond, cx, rec + 1)?;
                (Stmt::Assert { cond, span }, h)
            }
            Stmt::Assume { cond, .. } => {
                let (cond, h) = self.cond(cond, cx, rec + 1)?;
                (Stmt::Assume { cond, span }, h)
            }
            Stmt::Call {
                target,
                callee,
                args,
                ..
            } => {
                let target = match target {
                    Some(t) => Some(self.target(t, cx)?),
                    None => None,
                };
                let mut new_args = Vec::with_capacity(args.len());
                let mut h = 0;
                for a in args {
                    let (a, ah) = self.expr(a, cx, rec + 1)?;
                    h = h.max(ah);
                    new_args.push(a);
                }
                (
                    Stmt::Call {
                        target,
                        callee: callee.clone(),
                        args: new_args,
                        span,
                    },
                    h,
                )
            }
            Stmt::Return { value, .. } => {
                let (value, h) = self.expr(value, cx, rec + 1)?;
                (Stmt::Return { value, span }, h)
            }
        };
        let h = self.height(child + 1, cx, span)?;
        Ok((node, h))
    }

    fn cond(&mut self, c: &Cond, cx: &Cx, rec: usize) -> R<(Cond, usize)> {
        self.recursion(rec, cx, c.span())?;
        self.nodes(cx, 1)?;
        let (node, child) = match c {
            Cond::Bool { .. } => (c.clone(), 0),
            Cond::Not { operand, span } => {
                let (operand, h) = self.cond(operand, cx, rec + 1)?;
                (
                    Cond::Not {
                        operand: Box::new(operand),
                        span: *span,
                    },
                    h,
                )
            }
            Cond::And { lhs, rhs, span } => {
                let (lhs, lh) = self.cond(lhs, cx, rec + 1)?;
                let (rhs, rh) = self.cond(rhs, cx, rec + 1)?;
                (
                    Cond::And {
                        lhs: Box::new(lhs),
                        rhs: Box::new(rhs),
                        span: *span,
                    },
                    lh.max(rh),
                )
            }
            Cond::Or { lhs, rhs, span } => {
                let (lhs, lh) = self.cond(lhs, cx, rec + 1)?;
                let (rhs, rh) = self.cond(rhs, cx, rec + 1)?;
                (
                    Cond::Or {
                        lhs: Box::new(lhs),
                        rhs: Box::new(rhs),
                        span: *span,
                    },
                    lh.max(rh),
                )
            }
            Cond::Cmp { op, lhs, rhs, span } => {
                let (lhs, lh) = self.expr(lhs, cx, rec + 1)?;
                let (rhs, rh) = self.expr(rhs, cx, rec + 1)?;
                (
                    Cond::Cmp {
                        op: *op,
                        lhs,
                        rhs,
                        span: *span,
                    },
                    lh.max(rh),
                )
            }
        };
        let h = self.height(child + 1, cx, c.span())?;
        Ok((node, h))
    }

    fn expr(&mut self, e: &Expr, cx: &Cx, rec: usize) -> R<(Expr, usize)> {
        self.recursion(rec, cx, e.span())?;
        if let Expr::Var(v) = e {
            if let Some(arg) = cx.subst.get(&v.name) {
                self.nodes(cx, arg.size)?;
                return Ok((arg.expr.clone(), arg.height));
            }
        }
        self.nodes(cx, 1)?;
        let (node, child) = match e {
            Expr::Num { .. } | Expr::Var(_) => (e.clone(), 0),
            Expr::Index { array, index, span } => {
                let (index, h) = self.expr(index, cx, rec + 1)?;
                (
                    Expr::Index {
                        array: array.clone(),
                        index: Box::new(index),
                        span: *span,
                    },
                    h,
                )
            }
            Expr::Neg { operand, span } => {
                let (operand, h) = self.expr(operand, cx, rec + 1)?;
                (
                    Expr::Neg {
                        operand: Box::new(operand),
                        span: *span,
                    },
                    h,
                )
            }
            Expr::Binary {
                op,
                lhs,
                rhs,
                span,
                op_span,
            } => {
                let (lhs, lh) = self.expr(lhs, cx, rec + 1)?;
                let (rhs, rh) = self.expr(rhs, cx, rec + 1)?;
                (
                    Expr::Binary {
                        op: *op,
                        lhs: Box::new(lhs),
                        rhs: Box::new(rhs),
                        span: *span,
                        op_span: *op_span,
                    },
                    lh.max(rh),
                )
            }
        };
        let h = self.height(child + 1, cx, e.span())?;
        Ok((node, h))
    }
}

/// Number of nodes in an expression.
fn expr_size(e: &Expr) -> usize {
    match e {
        Expr::Num { .. } | Expr::Var(_) => 1,
        Expr::Index { index, .. } => 1 + expr_size(index),
        Expr::Neg { operand, .. } => 1 + expr_size(operand),
        Expr::Binary { lhs, rhs, .. } => 1 + expr_size(lhs) + expr_size(rhs),
    }
}

// ----- phase 3 --------------------------------------------------------------

/// Definite-assignment analysis of the main program or of a procedure.
///
/// The set of definitely assigned variables is a bit per variable plus an
/// undo log of the bits set, so that the branches of an `if` and the body
/// of a `while` can be analysed and rolled back in time proportional to
/// what they assign rather than to the number of variables.
struct Flow {
    /// Every scalar seen, in order of first appearance.
    names: Vec<Arc<str>>,
    ids: HashMap<Arc<str>, usize>,
    assigned: Vec<bool>,
    log: Vec<usize>,
    /// Whether the current point is unreachable (after `fail` or
    /// `return`), where everything counts as assigned.
    dead: bool,
    /// The procedure being analysed and its locals; `None` for main.
    proc: Option<Arc<str>>,
    locals: HashSet<Arc<str>>,
    /// Main only: the inputs, in order of first read.
    inputs: Vec<usize>,
    is_input: Vec<bool>,
    errs: Errors,
}

impl Flow {
    fn new(proc: Option<Arc<str>>, locals: HashSet<Arc<str>>) -> Flow {
        Flow {
            names: Vec::new(),
            ids: HashMap::new(),
            assigned: Vec::new(),
            log: Vec::new(),
            dead: false,
            proc,
            locals,
            inputs: Vec::new(),
            is_input: Vec::new(),
            errs: Errors::default(),
        }
    }

    fn intern(&mut self, name: &Arc<str>) -> usize {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.names.len();
        self.names.push(name.clone());
        self.ids.insert(name.clone(), id);
        self.assigned.push(false);
        self.is_input.push(false);
        id
    }

    fn assign(&mut self, id: usize) {
        if !self.assigned[id] {
            self.assigned[id] = true;
            self.log.push(id);
        }
    }

    fn undo(&mut self, mark: usize) {
        for id in self.log.drain(mark..) {
            self.assigned[id] = false;
        }
    }

    fn read(&mut self, v: &Ident) {
        if let Some(proc) = &self.proc {
            let known = self.locals.contains(&v.name);
            if !known || !(self.dead || self.ids.get(&v.name).is_some_and(|&i| self.assigned[i])) {
                let d = Diagnostic::new(
                    v.span,
                    format!(
                        "`{}` may be read before it is assigned in procedure `{proc}`",
                        v.name
                    ),
                )
                .with_help("assign it first; a procedure cannot see the main program's variables");
                self.errs.push(d);
            }
            self.intern(&v.name);
            return;
        }
        let id = self.intern(&v.name);
        if !self.dead && !self.assigned[id] && !self.is_input[id] {
            self.is_input[id] = true;
            self.inputs.push(id);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Skip(_) => {}
            Stmt::Fail(_) => self.dead = true,
            Stmt::Assign { target, value, .. } => {
                let id = self.intern(&target.name);
                self.expr(value);
                self.assign(id);
            }
            Stmt::Havoc { target, .. } => {
                let id = self.intern(&target.name);
                self.assign(id);
            }
            Stmt::ArrayAssign { index, value, .. } => {
                self.expr(index);
                self.expr(value);
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
                let mark = self.log.len();
                let dead = self.dead;
                self.stmt(then_branch);
                let then_assigned = self.log[mark..].to_vec();
                let then_dead = self.dead;
                self.undo(mark);
                self.dead = dead;
                self.stmt(else_branch);
                let else_dead = self.dead;
                self.dead = dead;
                if then_dead && else_dead {
                    self.dead = true;
                } else if then_dead {
                    // Keep what the else branch assigned.
                } else if else_dead {
                    self.undo(mark);
                    for id in then_assigned {
                        self.assign(id);
                    }
                } else {
                    let else_assigned: HashSet<usize> = self.log[mark..].iter().copied().collect();
                    self.undo(mark);
                    for id in then_assigned {
                        if else_assigned.contains(&id) {
                            self.assign(id);
                        }
                    }
                }
            }
            Stmt::While { cond, body, .. } => {
                self.cond(cond);
                let mark = self.log.len();
                let dead = self.dead;
                self.stmt(body);
                self.undo(mark);
                self.dead = dead;
            }
            Stmt::Assert { cond, .. } | Stmt::Assume { cond, .. } => self.cond(cond),
            Stmt::Call { target, args, .. } => {
                let id = target.as_ref().map(|t| self.intern(&t.name));
                for a in args {
                    self.expr(a);
                }
                if let Some(id) = id {
                    self.assign(id);
                }
            }
            Stmt::Return { value, .. } => {
                self.expr(value);
                self.dead = true;
            }
        }
    }

    fn cond(&mut self, c: &Cond) {
        match c {
            Cond::Bool { .. } => {}
            Cond::Not { operand, .. } => self.cond(operand),
            Cond::And { lhs, rhs, .. } | Cond::Or { lhs, rhs, .. } => {
                self.cond(lhs);
                self.cond(rhs);
            }
            Cond::Cmp { lhs, rhs, .. } => {
                self.expr(lhs);
                self.expr(rhs);
            }
        }
    }

    fn expr(&mut self, e: &Expr) {
        match e {
            Expr::Num { .. } => {}
            Expr::Var(v) => self.read(v),
            Expr::Index { index, .. } => self.expr(index),
            Expr::Neg { operand, .. } => self.expr(operand),
            Expr::Binary { lhs, rhs, .. } => {
                self.expr(lhs);
                self.expr(rhs);
            }
        }
    }
}

/// The locals of an (expanded) procedure; reports reads of locals that may
/// not be assigned yet and of names that are not locals at all.
fn proc_flow(p: &ProcDef, errs: &mut Errors) -> Vec<Arc<str>> {
    let mut locals: Vec<Arc<str>> = Vec::new();
    let mut set = HashSet::new();
    for param in &p.params {
        if set.insert(param.name.clone()) {
            locals.push(param.name.clone());
        }
    }
    each_stmt(&p.body, &mut |s| {
        if let Stmt::Assign { target, .. }
        | Stmt::Havoc { target, .. }
        | Stmt::Call {
            target: Some(target),
            ..
        } = s
        {
            if set.insert(target.name.clone()) {
                locals.push(target.name.clone());
            }
        }
    });
    let mut flow = Flow::new(Some(p.name.name.clone()), set);
    for param in &p.params {
        let id = flow.intern(&param.name);
        flow.assign(id);
    }
    flow.stmt(&p.body);
    if let Some(d) = flow.errs.0 {
        errs.push(d);
    }
    locals
}
