//! Lowering of a checked program to the IR, through [`wiser_ir::Builder`].
//!
//! Statements are emitted front to back. `if` is a branch to two labels
//! whose code meets at a third; `while` is a test label, a branch to the
//! body or the exit, the body, and a jump back; jumps cost no step, so
//! sequencing, `skip` and the ends of branches need no instruction of
//! their own. Short-circuit `and`/`or` stay boolean operators
//! ([`Expr::and`], [`Expr::or`]) rather than branches: the IR puts the
//! right operand's checks under a guard, so `b != 0 and a / b > 1` cannot
//! divide by zero. Every check comes from [`Expr`]'s combinators, at the
//! operator's span; each instruction has its statement's span.
//!
//! Expressions are typed by [`crate::typer`], the rules [`crate::analyse()`]
//! already enforced, so a type error here would be a bug; so is any error
//! the builder reports, which becomes an internal-error [`Diagnostic`].

mod heap;

use crate::ast::{Cond, Init, IntTy, ProcDef, Stmt, Ty};
use crate::typer::{Scope, TExpr, TKind, Target, VTy};
use crate::{AnalysedProgram, Diagnostic, Span};
use std::collections::HashMap;
use std::sync::Arc;
use wiser_ir::{
    ArrayId, ArrayTy, Builder, ClassId, Expr, Ir, Place, ProcId, RoutineBuilder, ScalarTy,
};
use wiser_num::{BinOp, FBinOp, FUnOp, FloatOp, UnOp};

type R<T> = Result<T, Diagnostic>;

/// Lowers a checked program to the IR.
///
/// Lowering recurses over the syntax tree, so like the parser and
/// [`crate::analyse()`] it runs on a thread with a large stack
/// ([`crate::with_deep_stack`]): trees up to [`crate::MAX_NESTING`] high
/// must not overflow the caller's stack, whatever its size.
pub fn lower(program: &AnalysedProgram) -> Result<Ir, Diagnostic> {
    crate::with_deep_stack(|| lower_program(program))
}

/// An error that is a bug of this crate, not of the program.
fn internal(at: Span, what: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::new(at, format!("internal error: {what}"))
        .with_help("this is a bug in wiser, not in the program; please report it")
}

/// The span of the main program: with an `--assume` condition inserted in
/// front, only the statements of the program's own text.
fn main_span(main: &Stmt) -> Span {
    match main {
        Stmt::Seq(items) => {
            let Some(last) = items.last() else {
                return Span::default();
            };
            let file = last.span().file;
            let first = items.iter().find(|s| s.span().file == file).unwrap_or(last);
            first.span().to(last.span())
        }
        s => s.span(),
    }
}

/// The IR type of an IMP type.
fn scalar(ty: Ty) -> ScalarTy {
    match ty {
        Ty::Int(t) => ScalarTy::Int(t),
        Ty::Float(t) => ScalarTy::Float(t),
    }
}

fn lower_program(program: &AnalysedProgram) -> R<Ir> {
    let at = main_span(&program.main);
    let mut b = Builder::new();
    let mut arrays = HashMap::new();
    for (name, &elem) in program.arrays.iter().zip(&program.array_types) {
        let ty = ArrayTy {
            index: IntTy::INT,
            elem: scalar(elem),
        };
        arrays.insert(name.clone(), (b.array(name.clone(), ty, None), ty));
    }
    let elems: HashMap<Arc<str>, Ty> = program
        .arrays
        .iter()
        .cloned()
        .zip(program.array_types.iter().copied())
        .collect();
    let heap = heap::declare(&mut b, program);
    // Every procedure is declared before any body is lowered, so that
    // calls (recursive ones included) can name it.
    let mut procs = HashMap::new();
    let mut ids = Vec::with_capacity(program.procs.len());
    for p in &program.procs {
        let params = p
            .params
            .iter()
            .map(|q| (q.name.name.clone(), scalar(q.ty)))
            .collect();
        let id = b.declare_proc(p.name.name.clone(), params, Some(scalar(p.ret)), p.span);
        for (i, q) in p.params.iter().enumerate() {
            if let Some(c) = q.class.as_ref().and_then(|c| heap.class_id(&c.name)) {
                b.param_refers(id, i as u32, c);
            }
        }
        procs.entry(p.name.name.clone()).or_insert((id, p));
        ids.push(id);
    }
    let cx = Cx {
        arrays: &arrays,
        elems: &elems,
        procs: &procs,
        heap: &heap,
        threaded: program.threaded,
    };

    let vars = heap.vars(&program.main_vars, &program.main_types);
    let refs = heap.refs(&program.main_vars, &program.main_classes);
    let mut rb = b.begin_main(at);
    let mut places = heap.globals.clone();
    for (i, name) in program.main_vars.iter().enumerate() {
        let place = rb.local(name.clone(), scalar(type_of(&vars, name)));
        if let Some(&Some(c)) = program.main_classes.get(i) {
            rb.refers(place, heap.class_ids[c]);
        }
        places.insert(name.clone(), place);
    }
    for name in &program.main_inputs {
        let place = places
            .get(name)
            .ok_or_else(|| internal(at, format!("input `{name}` is not a variable of main")))?;
        rb.input(*place);
    }
    let mut lw = Lowerer::new(&cx, rb, (&vars, &refs), places, None, at);
    lw.stmt(&program.main)?;
    lw.rb.finish();

    for (i, p) in program.procs.iter().enumerate() {
        let (Some(locals), Some(types), Some(&id)) = (
            program.proc_locals.get(i),
            program.proc_types.get(i),
            ids.get(i),
        ) else {
            return Err(internal(p.span, "a procedure without locals"));
        };
        let vars = heap.vars(locals, types);
        let classes = program.proc_classes.get(i).map_or(&[][..], |c| &c[..]);
        let refs = heap.refs(locals, classes);
        let mut rb = b.begin_proc(id);
        let mut places = heap.globals.clone();
        for (k, name) in locals.iter().enumerate() {
            let place = match p.params.get(k) {
                Some(_) => rb.param(k as u32),
                None => {
                    let place = rb.local(name.clone(), scalar(type_of(&vars, name)));
                    if let Some(&Some(c)) = classes.get(k) {
                        rb.refers(place, heap.class_ids[c]);
                    }
                    place
                }
            };
            places.insert(name.clone(), place);
        }
        let ret = VTy {
            ty: p.ret,
            class: p.ret_class.as_ref().and_then(|c| heap.classes.get(&c.name)),
        };
        let mut lw = Lowerer::new(&cx, rb, (&vars, &refs), places, Some(ret), p.span);
        lw.stmt(&p.body)?;
        lw.rb.finish();
    }
    b.finish().map_err(|e| match e {
        wiser_ir::IrError::TooLarge { span, message } => Diagnostic::new(span, message)
            .with_help("split the statement, or expand fewer macros into it"),
        wiser_ir::IrError::IllFormed(why) => internal(at, why),
    })
}

fn type_of(vars: &HashMap<Arc<str>, Ty>, name: &str) -> Ty {
    vars.get(name).copied().unwrap_or(Ty::INT)
}

fn table(names: &[Arc<str>], types: &[Ty]) -> HashMap<Arc<str>, Ty> {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.clone(), types.get(i).copied().unwrap_or(Ty::INT)))
        .collect()
}

/// `e`, of type `from`, converted to `to`: between integers wrapping; an
/// integer to the nearest float; a float to an integer truncated toward
/// zero, with the `float_conversion` check at `at`; a float to the nearest
/// float of the other type.
fn convert(e: Expr, from: Ty, to: Ty, at: Span) -> Expr {
    let op = match (from, to) {
        _ if from == to => return e,
        (Ty::Int(_), Ty::Int(i)) => return e.cast(i),
        (Ty::Int(i), Ty::Float(f)) => FloatOp::FromInt(i, f),
        (Ty::Float(f), Ty::Int(i)) => FloatOp::ToInt(f, i),
        (Ty::Float(f), Ty::Float(g)) => FloatOp::Convert(f, g),
    };
    Expr::float_op(op, vec![e], at)
}

/// What every routine's lowering shares.
struct Cx<'a> {
    arrays: &'a HashMap<Arc<str>, (ArrayId, ArrayTy)>,
    elems: &'a HashMap<Arc<str>, Ty>,
    procs: &'a HashMap<Arc<str>, (ProcId, &'a ProcDef)>,
    heap: &'a heap::Heap,
    /// Does the program start threads? Then each access to shared state
    /// is a step of its own ([`Lowerer::split`]).
    threaded: bool,
}

/// A routine's scalar types and the classes of its references.
type Tables<'a> = (&'a HashMap<Arc<str>, Ty>, &'a HashMap<Arc<str>, usize>);

/// Lowers one routine.
struct Lowerer<'a, 'b> {
    cx: &'a Cx<'a>,
    rb: RoutineBuilder<'b>,
    scope: Scope<'a>,
    places: HashMap<Arc<str>, Place>,
    /// The result type; `None` in main.
    ret: Option<VTy>,
    /// The routine, for internal errors.
    at: Span,
    /// Is every read of shared state in the current statement lowered to
    /// an instruction of its own? (See [`heap`].)
    split: bool,
}

impl<'a, 'b> Lowerer<'a, 'b> {
    fn new(
        cx: &'a Cx<'a>,
        rb: RoutineBuilder<'b>,
        (vars, refs): Tables<'a>,
        places: HashMap<Arc<str>, Place>,
        ret: Option<VTy>,
        at: Span,
    ) -> Self {
        Lowerer {
            cx,
            rb,
            scope: Scope {
                vars,
                arrays: cx.elems,
                refs,
                classes: &cx.heap.classes,
            },
            places,
            ret,
            at,
            split: false,
        }
    }

    fn place(&self, name: &str) -> R<Place> {
        self.places
            .get(name)
            .copied()
            .ok_or_else(|| internal(self.at, format!("`{name}` has no slot")))
    }

    /// The class id of class `c`.
    fn class_id(&self, c: usize) -> ClassId {
        self.cx.heap.class_ids[c]
    }

    fn array(&self, name: &str) -> R<(ArrayId, ArrayTy)> {
        self.cx
            .arrays
            .get(name)
            .copied()
            .ok_or_else(|| internal(self.at, format!("array `{name}` is not declared")))
    }

    /// Lowers `s`, which continues with whatever is emitted next.
    fn stmt(&mut self, s: &'a Stmt) -> R<()> {
        // Statements after `fail` or `return` cannot run: emit nothing.
        if !self.rb.is_reachable() {
            return Ok(());
        }
        let span = s.span();
        self.split = self.cx.threaded && self.shared_accesses(s) > 1;
        if let Some((target, value)) = s.assigned_value() {
            let ty = self.scope.var_ty(&target.name);
            let value = self.scope.value_of(value, ty, Target::Assign)?;
            let value = self.expr(value)?;
            let dst = self.place(&target.name)?;
            self.rb.assign(dst, value, span);
            return Ok(());
        }
        match s {
            // Assignments of a value were lowered above.
            Stmt::Skip(_)
            | Stmt::ArrayDecl { .. }
            | Stmt::Assign { .. }
            | Stmt::Decl {
                init: None | Some(Init::Value(_)),
                ..
            }
            | Stmt::RefDecl { .. } => {}
            Stmt::Fail(_) => self.rb.fail(span),
            Stmt::New { .. }
            | Stmt::FieldAssign { .. }
            | Stmt::MethodCall { .. }
            | Stmt::Spawn { .. }
            | Stmt::Join { .. }
            | Stmt::Lock { .. }
            | Stmt::Atomic { .. } => self.heap_stmt(s)?,
            Stmt::Havoc { target, .. }
            | Stmt::Decl {
                target,
                init: Some(Init::Havoc),
                ..
            } => {
                let dst = self.place(&target.name)?;
                self.rb.havoc(dst, span);
            }
            Stmt::ArrayAssign {
                array,
                index,
                value,
                ..
            } => {
                let (id, _) = self.array(&array.name)?;
                let index = self.scope.index(index)?;
                let index = self.expr(index)?;
                let elem = self.scope.elem(&array.name);
                let value = self.scope.value(value, elem, Target::Store)?;
                let value = self.expr(value)?;
                self.rb.store(id, index, value, span);
            }
            Stmt::Seq(items) => {
                for item in items {
                    self.stmt(item)?;
                }
            }
            Stmt::If {
                cond,
                then_branch,
                else_branch,
                ..
            } => {
                let cond = self.cond(cond)?;
                let (then_to, else_to, end) = (self.rb.label(), self.rb.label(), self.rb.label());
                self.rb.branch(cond, then_to, else_to, span);
                self.rb.bind(then_to);
                self.stmt(then_branch)?;
                let then_falls_through = self.rb.is_reachable();
                self.rb.jump(end);
                self.rb.bind(else_to);
                self.stmt(else_branch)?;
                // When both branches end in `fail` or `return`, nothing
                // follows the `if`: leaving `end` unbound keeps `finish`
                // from adding an unreachable `halt` or `return 0`.
                if then_falls_through || self.rb.is_reachable() {
                    self.rb.bind(end);
                }
            }
            Stmt::While { cond, body, .. } => {
                let (test, enter, exit) = (self.rb.label(), self.rb.label(), self.rb.label());
                self.rb.bind(test);
                let cond = self.cond(cond)?;
                self.rb.branch(cond, enter, exit, span);
                self.rb.bind(enter);
                self.stmt(body)?;
                self.rb.jump(test);
                self.rb.bind(exit);
            }
            Stmt::Assert { cond, .. } => {
                let cond = self.cond(cond)?;
                self.rb.assert(cond, span);
            }
            Stmt::Assume { cond, .. } => {
                let cond = self.cond(cond)?;
                self.rb.assume(cond, span);
            }
            Stmt::Call {
                target,
                callee,
                args,
                ..
            } => self.call(target.as_ref().map(|t| &*t.name), &callee.name, args, span)?,
            Stmt::Return { value, .. } => {
                let ret = self.ret.unwrap_or(VTy::of(Ty::INT));
                let value = self.scope.value_of(value, ret, Target::Return)?;
                let value = self.expr(value)?;
                self.rb.ret(Some(value), span);
            }
        }
        Ok(())
    }

    /// `target = callee(args)` or `callee(args)`. A result of another type
    /// than the target's (which converts losslessly) goes through a
    /// temporary of the result's type.
    fn call(
        &mut self,
        target: Option<&str>,
        callee: &str,
        args: &'a [crate::ast::Expr],
        span: Span,
    ) -> R<()> {
        let (id, def) = self.proc(callee, span)?;
        let values = self.args(callee, args, &def.params)?;
        self.call_values(id, def, values, target, span)
    }

    /// The procedure `name`.
    fn proc(&self, name: &str, span: Span) -> R<(ProcId, &'a ProcDef)> {
        self.cx
            .procs
            .get(name)
            .copied()
            .ok_or_else(|| internal(span, format!("unknown procedure `{name}`")))
    }

    /// The arguments `args` of `callee`, typed as `params`.
    fn args(
        &mut self,
        callee: &str,
        args: &'a [crate::ast::Expr],
        params: &'a [crate::ast::Param],
    ) -> R<Vec<Expr>> {
        let mut values = Vec::with_capacity(args.len());
        for (arg, param) in args.iter().zip(params) {
            let to = Target::Arg {
                proc: callee,
                param: &param.name.name,
            };
            let class = param
                .class
                .as_ref()
                .and_then(|c| self.cx.heap.classes.get(&c.name));
            let ty = VTy {
                ty: param.ty,
                class,
            };
            let value = self.scope.value_of(arg, ty, to)?;
            values.push(self.expr(value)?);
        }
        Ok(values)
    }

    /// Calls `id` (`def`) with `values`; the result goes to `target`.
    fn call_values(
        &mut self,
        id: ProcId,
        def: &'a ProcDef,
        values: Vec<Expr>,
        target: Option<&str>,
        span: Span,
    ) -> R<()> {
        let Some(target) = target else {
            self.rb.call(id, values, None, span);
            return Ok(());
        };
        let dst = self.place(target)?;
        let to = self.scope.var(target);
        // A global target is written by a step of its own in a threaded
        // program (the return writes a temporary).
        let shared = self.cx.threaded && matches!(dst, Place::Global(_));
        if to == def.ret && !shared {
            self.rb.call(id, values, Some(dst), span);
            return Ok(());
        }
        if def.ret_class.is_none() {
            self.scope
                .call_result(def.ret, target, &def.name.name, span)?;
        }
        let tmp = self.rb.temp(scalar(def.ret));
        self.rb.call(id, values, Some(tmp), span);
        let converted = convert(self.rb.load(tmp), def.ret, to, span);
        self.rb.assign(dst, converted, span);
        Ok(())
    }

    fn cond(&mut self, c: &'a Cond) -> R<Expr> {
        Ok(match c {
            Cond::Bool { value, .. } => Expr::bool(*value),
            Cond::Not { operand, .. } => Expr::logical_not(self.cond(operand)?),
            Cond::And { lhs, rhs, .. } | Cond::Or { lhs, rhs, .. }
                if self.split && self.shared_in_cond(rhs) > 0 =>
            {
                self.short_circuit(c, lhs, rhs)?
            }
            Cond::And { lhs, rhs, .. } => Expr::and(self.cond(lhs)?, self.cond(rhs)?),
            Cond::Or { lhs, rhs, .. } => Expr::or(self.cond(lhs)?, self.cond(rhs)?),
            Cond::Cmp { op, lhs, rhs, span } => {
                let (a, b) = self.scope.cmp(op.symbol(), lhs, rhs, *span)?;
                Expr::cmp(*op, self.expr(a)?, self.expr(b)?)
            }
        })
    }

    fn expr(&mut self, t: TExpr<'a>) -> R<Expr> {
        let at = t.src.span();
        let ty =
            t.ty.ok_or_else(|| internal(at, "an expression was left without a type"))?;
        let op_span = t.op_span();
        let e = match (t.kind, ty) {
            (TKind::Lit(v), Ty::Int(i)) => Expr::int(i, v),
            (TKind::Lit(v), Ty::Float(f)) => {
                Expr::float(f, FloatOp::FromInt(IntTy::INT, f).apply(&[v]))
            }
            (TKind::FloatLit(text), Ty::Float(f)) => {
                let bits = f
                    .parse(text)
                    .ok_or_else(|| internal(at, format!("`{text}` is not a float")))?;
                Expr::float(f, bits)
            }
            (TKind::FloatLit(_), Ty::Int(_)) => {
                return Err(internal(at, "a float literal typed as an integer"))
            }
            (TKind::Var(name), _) => {
                let place = self.place(name)?;
                let e = self.rb.load(place);
                return Ok(match place {
                    Place::Global(_) => self.shared_read(e, ty, at),
                    _ => e,
                });
            }
            (TKind::Index(array, index), _) => {
                let (id, aty) = self.array(array)?;
                let e = Expr::select(id, aty, self.expr(*index)?);
                return Ok(self.shared_read(e, ty, at));
            }
            (TKind::Null, _) => Expr::int(IntTy::INT, wiser_num::Int::ZERO),
            (TKind::Field(obj, c, i), _) => {
                let obj = self.expr(*obj)?;
                let e = self.cx.heap.select(c, i, obj, at);
                return Ok(self.shared_read(e, ty, at));
            }
            (TKind::Unary(op, operand), Ty::Float(f)) => {
                let op = match op {
                    UnOp::Neg => FloatOp::Unary(FUnOp::Neg, f),
                    UnOp::BitNot => return Err(internal(at, "`~` on a float")),
                };
                Expr::float_op(op, vec![self.expr(*operand)?], op_span)
            }
            (TKind::Binary(op, a, b), Ty::Float(f)) => {
                let op = match op {
                    BinOp::Add => FBinOp::Add,
                    BinOp::Sub => FBinOp::Sub,
                    BinOp::Mul => FBinOp::Mul,
                    BinOp::Div => FBinOp::Div,
                    other => return Err(internal(at, format!("`{}` on floats", other.symbol()))),
                };
                let args = vec![self.expr(*a)?, self.expr(*b)?];
                Expr::float_op(FloatOp::Binary(op, f), args, op_span)
            }
            (TKind::Unary(op, operand), Ty::Int(_)) => {
                Expr::unary(op, self.expr(*operand)?, op_span)
            }
            (TKind::Binary(op, a, b), Ty::Int(_)) => {
                Expr::binary(op, self.expr(*a)?, self.expr(*b)?, op_span)
            }
            (TKind::Convert(operand), _) => {
                let from = operand
                    .ty
                    .ok_or_else(|| internal(at, "a conversion of an untyped operand"))?;
                convert(self.expr(*operand)?, from, ty, at)
            }
        };
        Ok(e)
    }
}
