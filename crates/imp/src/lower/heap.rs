//! Lowering of classes, globals, references and threads.
//!
//! Classes become [`Builder::class`]es whose fields are arrays indexed by
//! references (`Class.field`); every field access goes through
//! [`Expr::deref`], which adds the `null_dereference` check, and a method
//! call passes its receiver, dereferenced, as the first argument of the
//! procedure `Class.method`.
//!
//! **Threads.** In a program that spawns threads, the scheduler may switch
//! before any instruction that touches shared state (globals, arrays,
//! fields, locks). So that `c.n = c.n + 1` can lose an update, as it can
//! on a real machine, a statement that makes more than one access to
//! shared state is split: each read of a global, an array element or a
//! field becomes an assignment to a temporary of its own, in evaluation
//! order, and the statement itself then makes at most one access (its
//! write, if it has one). A statement with a single access stays one
//! instruction, as does every statement of a program without `spawn`,
//! whose IR is exactly what it was before threads existed. Short-circuit
//! conditions whose right operand reads shared state become branches in
//! split statements, so that `p != null and p.f > 0` never reads `p.f`
//! when `p` is `null`.

use super::{internal, scalar, Lowerer, R};
use crate::analysis::Errors;
use crate::ast::{self, Cond, IntTy, Stmt, Ty};
use crate::classes::Classes;
use crate::typer::{Target, VTy};
use crate::{AnalysedProgram, Span};
use std::collections::HashMap;
use std::sync::Arc;
use wiser_ir::{ArrayId, ArrayTy, Builder, ClassId, Expr, Place, ScalarTy};
use wiser_num::Int;

/// The program's classes and globals, declared in the IR.
pub(super) struct Heap {
    pub(super) classes: Classes,
    pub(super) class_ids: Vec<ClassId>,
    /// Per class, per field: its array.
    fields: Vec<Vec<(ArrayId, ArrayTy)>>,
    /// The globals' places, by name.
    pub(super) globals: HashMap<Arc<str>, Place>,
    /// The globals' classes, by name.
    global_refs: HashMap<Arc<str>, usize>,
    /// The globals' types, by name.
    global_types: HashMap<Arc<str>, Ty>,
}

/// Declares the classes, fields and globals of `program` in `b`.
pub(super) fn declare(b: &mut Builder, program: &AnalysedProgram) -> Heap {
    // The program was checked: its class table has no errors.
    let classes = Classes::new(&program.classes, &mut Errors::default());
    let class_ids: Vec<ClassId> = classes.names.iter().map(|n| b.class(n.clone())).collect();
    let mut fields = Vec::with_capacity(classes.fields.len());
    for (c, fs) in classes.fields.iter().enumerate() {
        let mut arrays = Vec::with_capacity(fs.len());
        for f in fs {
            let ty = ScalarTy::Int(if f.class.is_some() { IntTy::INT } else { f.ty });
            let refers = f.class.map(|d| class_ids[d]);
            let id = b.field(class_ids[c], f.name.clone(), ty, refers);
            arrays.push((
                id,
                ArrayTy {
                    index: IntTy::INT,
                    elem: ty,
                },
            ));
        }
        fields.push(arrays);
    }
    let mut globals = HashMap::new();
    let mut global_refs = HashMap::new();
    let mut global_types = HashMap::new();
    for g in &program.globals {
        let init = match &g.init {
            Some(ast::Expr::Num { value, .. }) => Some(value.clone()),
            Some(_) => Some(Int::ZERO),
            None => None,
        };
        let class = g.class.as_ref().and_then(|c| classes.get(&c.name));
        let ty = if class.is_some() { IntTy::INT } else { g.ty };
        let place = b.global(g.name.name.clone(), ScalarTy::Int(ty), init);
        global_types.insert(g.name.name.clone(), Ty::Int(ty));
        if let Some(c) = class {
            b.global_refers(place, class_ids[c]);
            global_refs.insert(g.name.name.clone(), c);
        }
        globals.insert(g.name.name.clone(), place);
    }
    Heap {
        classes,
        class_ids,
        fields,
        globals,
        global_refs,
        global_types,
    }
}

impl Heap {
    /// The id of the class named `name`.
    pub(super) fn class_id(&self, name: &str) -> Option<ClassId> {
        self.classes.get(name).map(|c| self.class_ids[c])
    }

    /// The types of a routine's scalars: the globals', then those of
    /// `names` (parallel to `types`).
    pub(super) fn vars(&self, names: &[Arc<str>], types: &[Ty]) -> HashMap<Arc<str>, Ty> {
        let mut vars = self.global_types.clone();
        vars.extend(super::table(names, types));
        vars
    }

    /// The classes of a routine's references: the globals', then those
    /// of `names` (parallel to `classes`).
    pub(super) fn refs(
        &self,
        names: &[Arc<str>],
        classes: &[Option<usize>],
    ) -> HashMap<Arc<str>, usize> {
        let mut refs = self.global_refs.clone();
        for (name, class) in names.iter().zip(classes) {
            if let Some(c) = class {
                refs.insert(name.clone(), *c);
            }
        }
        refs
    }

    /// Field `i` of class `c` of the object `obj` refers to, with its
    /// `null_dereference` check at `at`.
    pub(super) fn select(&self, c: usize, i: usize, obj: Expr, at: Span) -> Expr {
        let (array, ty) = self.fields[c][i];
        Expr::select(array, ty, Expr::deref(obj, at))
    }

    fn field(&self, c: usize, i: usize) -> (ArrayId, ArrayTy) {
        self.fields[c][i]
    }
}

impl<'a> Lowerer<'a, '_> {
    /// `e` (a read of shared state, of type `ty`) as it is used: in a
    /// split statement, the value of a temporary assigned by a step of its
    /// own.
    pub(super) fn shared_read(&mut self, e: Expr, ty: Ty, at: Span) -> Expr {
        if !self.split {
            return e;
        }
        let tmp = self.rb.temp(scalar(ty));
        self.rb.assign(tmp, e, at);
        self.rb.load(tmp)
    }

    /// `lhs and rhs` or `lhs or rhs` (`c`) as branches, for a right
    /// operand that reads shared state in a split statement.
    pub(super) fn short_circuit(&mut self, c: &'a Cond, lhs: &'a Cond, rhs: &'a Cond) -> R<Expr> {
        let span = c.span();
        let is_and = matches!(c, Cond::And { .. });
        let l = self.cond(lhs)?;
        let tmp = self.rb.temp(ScalarTy::Bool);
        let (eval, skip, end) = (self.rb.label(), self.rb.label(), self.rb.label());
        if is_and {
            self.rb.branch(l, eval, skip, span);
        } else {
            self.rb.branch(l, skip, eval, span);
        }
        self.rb.bind(eval);
        let r = self.cond(rhs)?;
        self.rb.assign(tmp, r, span);
        self.rb.jump(end);
        self.rb.bind(skip);
        self.rb.assign(tmp, Expr::bool(!is_and), span);
        self.rb.bind(end);
        Ok(self.rb.load(tmp))
    }

    /// The statements of objects and threads.
    pub(super) fn heap_stmt(&mut self, s: &'a Stmt) -> R<()> {
        let span = s.span();
        match s {
            Stmt::New { target, class, .. } => {
                let class = self
                    .cx
                    .heap
                    .class_id(&class.name)
                    .ok_or_else(|| internal(span, "an unknown class"))?;
                let (dst, global) = self.dst(&target.name)?;
                self.rb.new_object(dst, class, span);
                self.finish_dst(dst, global, span);
            }
            Stmt::FieldAssign {
                obj, field, value, ..
            } => {
                let o = self.scope.expr(obj)?;
                let c = self.scope.reference(&o, "field access")?;
                let (i, f) = self
                    .cx
                    .heap
                    .classes
                    .field(c, &field.name)
                    .ok_or_else(|| internal(span, "an unknown field"))?;
                let to = VTy {
                    ty: Ty::Int(f.ty),
                    class: f.class,
                };
                let at = obj.span().to(field.span);
                let o = self.expr(o)?;
                let o = Expr::deref(o, at);
                let v = self.scope.value_of(value, to, Target::Store)?;
                let v = self.expr(v)?;
                let (array, _) = self.cx.heap.field(c, i);
                self.rb.store(array, o, v, span);
            }
            Stmt::MethodCall {
                target,
                receiver,
                method,
                args,
                ..
            } => {
                let (id, def, recv) = self.method(receiver, method, span)?;
                let mut values = vec![recv];
                values.extend(self.args(&def.name.name, args, &def.params[1..])?);
                self.call_values(id, def, values, target.as_ref().map(|t| &*t.name), span)?;
            }
            Stmt::Spawn {
                target,
                receiver,
                callee,
                args,
                ..
            } => {
                let (id, values) = match receiver {
                    Some(r) => {
                        let (id, def, recv) = self.method(r, callee, span)?;
                        let mut values = vec![recv];
                        values.extend(self.args(&def.name.name, args, &def.params[1..])?);
                        (id, values)
                    }
                    None => {
                        let (id, def) = self.proc(&callee.name, span)?;
                        (id, self.args(&callee.name, args, &def.params)?)
                    }
                };
                let dst = match target {
                    Some(t) => Some(self.dst(&t.name)?),
                    None => None,
                };
                self.rb.spawn(id, values, dst.map(|d| d.0), span);
                if let Some((dst, global)) = dst {
                    self.finish_dst(dst, global, span);
                }
            }
            Stmt::Join { thread, .. } => {
                let t = self.scope.index(thread)?;
                let t = self.expr(t)?;
                self.rb.join(t, span);
            }
            Stmt::Lock { obj, acquire, .. } => {
                let o = self.scope.expr(obj)?;
                let c = self.scope.reference(&o, "a lock")?;
                let o = self.expr(o)?;
                let class = self.class_id(c);
                self.rb.lock(class, o, *acquire, span);
            }
            Stmt::Atomic { body, .. } => {
                self.rb.atomic(true, span);
                self.stmt(body)?;
                if self.rb.is_reachable() {
                    self.rb.atomic(false, span);
                }
            }
            _ => return Err(internal(span, "not a statement of objects or threads")),
        }
        Ok(())
    }

    /// The procedure of method `method` of `receiver`'s class, and the
    /// receiver dereferenced (with its `null_dereference` check).
    fn method(
        &mut self,
        receiver: &'a ast::Expr,
        method: &ast::Ident,
        span: Span,
    ) -> R<(wiser_ir::ProcId, &'a ast::ProcDef, Expr)> {
        let r = self.scope.expr(receiver)?;
        let c = self.scope.reference(&r, "method call")?;
        let name = crate::classes::method_proc(self.scope.class_name(c), &method.name);
        let (id, def) = self.proc(&name, span)?;
        let at = receiver.span().to(method.span);
        let r = self.expr(r)?;
        Ok((id, def, Expr::deref(r, at)))
    }

    /// Where a result for the variable `name` goes: its place, or in a
    /// threaded program for a global, a temporary that
    /// [`Lowerer::finish_dst`] then copies to the global (the second
    /// place), so that the global is written by a step of its own.
    fn dst(&mut self, name: &str) -> R<(Place, Option<Place>)> {
        let place = self.place(name)?;
        if self.cx.threaded && matches!(place, Place::Global(_)) {
            let ty = self.rb.place_ty(place).unwrap_or(ScalarTy::INT);
            return Ok((self.rb.temp(ty), Some(place)));
        }
        Ok((place, None))
    }

    fn finish_dst(&mut self, tmp: Place, global: Option<Place>, span: Span) {
        if let Some(global) = global {
            let value = self.rb.load(tmp);
            self.rb.assign(global, value, span);
        }
    }

    /// How many accesses to shared state `s` makes itself (not counting
    /// nested statements): reads of globals, array elements and fields,
    /// its write if it writes shared state, and the step itself for the
    /// statements of threads.
    pub(super) fn shared_accesses(&self, s: &Stmt) -> usize {
        let target = |t: &ast::Ident| usize::from(self.is_global(&t.name));
        let opt = |t: &Option<ast::Ident>| t.as_ref().map_or(0, target);
        let exprs = |es: &[ast::Expr]| es.iter().map(|e| self.shared_in_expr(e)).sum::<usize>();
        match s {
            Stmt::Assign {
                target: t, value, ..
            }
            | Stmt::RefDecl {
                target: t,
                init: Some(value),
                ..
            }
            | Stmt::Decl {
                target: t,
                init: Some(ast::Init::Value(value)),
                ..
            } => target(t) + self.shared_in_expr(value),
            Stmt::ArrayAssign { index, value, .. } => {
                1 + self.shared_in_expr(index) + self.shared_in_expr(value)
            }
            Stmt::FieldAssign { obj, value, .. } => {
                1 + self.shared_in_expr(obj) + self.shared_in_expr(value)
            }
            Stmt::If { cond, .. }
            | Stmt::While { cond, .. }
            | Stmt::Assert { cond, .. }
            | Stmt::Assume { cond, .. } => self.shared_in_cond(cond),
            Stmt::Call {
                target: t, args, ..
            } => opt(t) + exprs(args),
            Stmt::MethodCall {
                target: t,
                receiver,
                args,
                ..
            } => opt(t) + self.shared_in_expr(receiver) + exprs(args),
            Stmt::Spawn { receiver, args, .. } => {
                1 + receiver.as_ref().map_or(0, |r| self.shared_in_expr(r)) + exprs(args)
            }
            Stmt::Return { value, .. } => self.shared_in_expr(value),
            Stmt::Join { thread: e, .. } | Stmt::Lock { obj: e, .. } => 1 + self.shared_in_expr(e),
            _ => 0,
        }
    }

    fn is_global(&self, name: &str) -> bool {
        matches!(self.places.get(name), Some(Place::Global(_)))
    }

    pub(super) fn shared_in_cond(&self, c: &Cond) -> usize {
        match c {
            Cond::Bool { .. } => 0,
            Cond::Not { operand, .. } => self.shared_in_cond(operand),
            Cond::And { lhs, rhs, .. } | Cond::Or { lhs, rhs, .. } => {
                self.shared_in_cond(lhs) + self.shared_in_cond(rhs)
            }
            Cond::Cmp { lhs, rhs, .. } => self.shared_in_expr(lhs) + self.shared_in_expr(rhs),
        }
    }

    fn shared_in_expr(&self, e: &ast::Expr) -> usize {
        match e {
            ast::Expr::Num { .. } | ast::Expr::Float { .. } | ast::Expr::Null(_) => 0,
            ast::Expr::Var(v) => usize::from(self.is_global(&v.name)),
            ast::Expr::Index { index, .. } => 1 + self.shared_in_expr(index),
            ast::Expr::Field { obj, .. } => 1 + self.shared_in_expr(obj),
            ast::Expr::Unary { operand, .. } | ast::Expr::Cast { operand, .. } => {
                self.shared_in_expr(operand)
            }
            ast::Expr::Binary { lhs, rhs, .. } => {
                self.shared_in_expr(lhs) + self.shared_in_expr(rhs)
            }
        }
    }
}
