//! Phase 3 of [`super::analyse()`]: definite assignment, locals and inputs.

use super::Errors;
use crate::ast::{CallParts, Cond, Expr, Ident, Init, ProcDef, Stmt};
use crate::classes::Globals;
use crate::walk::{each_cmp, each_stmt};
use crate::Diagnostic;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// Definite-assignment analysis of the main program or of a procedure.
///
/// The set of definitely assigned variables is a bit per variable plus an
/// undo log of the bits set, so that the branches of an `if` and the body
/// of a `while` can be analysed and rolled back in time proportional to
/// what they assign rather than to the number of variables.
pub(super) struct Flow<'g> {
    /// Every scalar seen, in order of first appearance.
    pub(super) names: Vec<Arc<str>>,
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
    /// The globals, which are neither locals nor inputs of main.
    globals: &'g Globals,
}

impl<'g> Flow<'g> {
    pub(super) fn new(
        proc: Option<Arc<str>>,
        locals: HashSet<Arc<str>>,
        globals: &'g Globals,
    ) -> Flow<'g> {
        Flow {
            globals,
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

    /// The inputs (main only), in order of first read.
    pub(super) fn inputs(&self) -> Vec<Arc<str>> {
        self.inputs
            .iter()
            .map(|&id| self.names[id].clone())
            .collect()
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

    /// Marks the variable `name` as assigned (nothing for a global).
    fn assign_name(&mut self, name: &Arc<str>) {
        if !self.globals.contains(name) {
            let id = self.intern(name);
            self.assign(id);
        }
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
        if self.globals.contains(&v.name) {
            return;
        }
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

    pub(super) fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Skip(_) => {}
            Stmt::Fail(_) => self.dead = true,
            Stmt::Assign { target, value, .. } => {
                self.note(target);
                self.expr(value);
                self.assign_name(&target.name);
            }
            Stmt::Havoc { target, .. } | Stmt::New { target, .. } => {
                self.assign_name(&target.name);
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
            Stmt::Call { .. } | Stmt::MethodCall { .. } | Stmt::Spawn { .. } => {
                if let Some(call) = s.as_call() {
                    self.call(call);
                }
            }
            Stmt::FieldAssign { obj, value, .. } => {
                self.expr(obj);
                self.expr(value);
            }
            Stmt::Join { thread: e, .. } | Stmt::Lock { obj: e, .. } => self.expr(e),
            Stmt::Atomic { body, .. } => self.stmt(body),
            Stmt::RefDecl { target, init, .. } => {
                self.note(target);
                if let Some(value) = init {
                    self.expr(value);
                    self.assign_name(&target.name);
                }
            }
            Stmt::Return { value, .. } => {
                self.expr(value);
                self.dead = true;
            }
            Stmt::Decl { target, init, .. } => {
                // A declaration without a value assigns nothing: in main
                // the variable may then be an input.
                self.note(target);
                match init {
                    Some(Init::Value(value)) => {
                        self.expr(value);
                        self.assign_name(&target.name);
                    }
                    Some(Init::Havoc) => self.assign_name(&target.name),
                    None => {}
                }
            }
            Stmt::ArrayDecl { .. } => {}
        }
    }

    /// A call (of a procedure or a method, or a spawn): the receiver and
    /// the arguments are read, then the target is assigned.
    fn call(&mut self, call: CallParts<'_>) {
        if let Some(t) = call.target {
            self.note(t);
        }
        for e in call.receiver.into_iter().chain(call.args) {
            self.expr(e);
        }
        if let Some(t) = call.target {
            self.assign_name(&t.name);
        }
    }

    /// Records that the variable `v` exists (the order of `names` is that
    /// of first appearance), unless it is a global.
    fn note(&mut self, v: &Ident) {
        if !self.globals.contains(&v.name) {
            self.intern(&v.name);
        }
    }

    fn cond(&mut self, c: &Cond) {
        each_cmp(c, &mut |_, lhs, rhs, _| {
            self.expr(lhs);
            self.expr(rhs);
        });
    }

    fn expr(&mut self, e: &Expr) {
        match e {
            Expr::Num { .. } | Expr::Float { .. } | Expr::Null(_) => {}
            Expr::Var(v) => self.read(v),
            Expr::Field { obj, .. } => self.expr(obj),
            Expr::Index { index, .. } => self.expr(index),
            Expr::Unary { operand, .. } | Expr::Cast { operand, .. } => self.expr(operand),
            Expr::Binary { lhs, rhs, .. } => {
                self.expr(lhs);
                self.expr(rhs);
            }
        }
    }
}

/// The locals of an (expanded) procedure; reports reads of locals that may
/// not be assigned yet and of names that are not locals at all.
pub(super) fn proc_flow(p: &ProcDef, globals: &Globals, errs: &mut Errors) -> Vec<Arc<str>> {
    let mut locals: Vec<Arc<str>> = Vec::new();
    let mut set = HashSet::new();
    for param in &p.params {
        if set.insert(param.name.name.clone()) {
            locals.push(param.name.name.clone());
        }
    }
    each_stmt(&p.body, &mut |s| {
        if let Some(target) = s.assigned_var() {
            if !globals.contains(&target.name) && set.insert(target.name.clone()) {
                locals.push(target.name.clone());
            }
        }
    });
    let mut flow = Flow::new(Some(p.name.name.clone()), set, globals);
    for param in &p.params {
        let id = flow.intern(&param.name.name);
        flow.assign(id);
    }
    flow.stmt(&p.body);
    if let Some(d) = flow.errs.0 {
        errs.push(d);
    }
    locals
}
