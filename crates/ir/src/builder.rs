//! The IR builder: how a front end emits a program.
//!
//! A front end declares globals, arrays and procedures on a [`Builder`],
//! then emits each routine's instructions in source order through a
//! [`RoutineBuilder`]. Control flow uses labels: an instruction falls
//! through to the next one emitted unless a [`RoutineBuilder::jump`]
//! sends it elsewhere, and a label may be used before it is bound (forward
//! jumps), so `if`, loops, `break`, `continue`, `goto`, `switch` and
//! short-circuit conditions as branches all lower directly. Jumps cost no
//! step: they become the successors of the instructions before them.
//! [`Builder::finish`] resolves the labels and type-checks the whole
//! program.

use crate::expr::Expr;
use crate::ir::{
    ArrayDecl, ArrayId, Check, ClassDecl, ClassId, Code, Global, InputVar, Instr, Ir, Located, Pc,
    Place, ProcId, Routine, Slot,
};
use crate::source::Span;
use crate::types::{ArrayTy, ScalarTy};
use crate::validate;
use std::sync::Arc;
use thiserror::Error;
use wiser_num::Int;

/// A place in a routine's code, possibly not yet known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Label(u32);

/// Why a program could not be built.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum IrError {
    /// The IR a front end built is not well-formed: a bug in the front end.
    #[error("internal error: the front end built an ill-formed program: {0}")]
    IllFormed(String),
    /// A statement needs more operations than [`crate::expr::MAX_EXPR_OPS`]
    /// (a limit of the program, not a bug).
    #[error("{message}")]
    TooLarge {
        /// The statement.
        span: Span,
        /// What is too large.
        message: String,
    },
}

#[derive(Clone, Copy, Debug)]
enum LabelState {
    Unbound,
    /// Bound to the next instruction the routine emits.
    Pending,
    /// Bound where a jump to another label followed.
    Alias(Label),
    At(Pc),
}

/// A successor field still to be filled in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Hole {
    /// The routine's entry.
    Entry,
    /// `next` (or `then_to`) of the instruction at a pc.
    Next(Pc),
    /// `else_to` of the branch at a pc.
    Else(Pc),
}

pub(crate) struct ProcSig {
    name: Arc<str>,
    pub(crate) params: Vec<Slot>,
    ret: Option<ScalarTy>,
    span: Span,
    body: Option<Routine>,
}

/// Builds one program. See the module documentation.
#[derive(Default)]
pub struct Builder {
    code: Vec<Located>,
    main: Option<Routine>,
    pub(crate) procs: Vec<ProcSig>,
    pub(crate) globals: Vec<Global>,
    pub(crate) arrays: Vec<ArrayDecl>,
    pub(crate) classes: Vec<ClassDecl>,
    inputs: Vec<InputVar>,
    labels: Vec<LabelState>,
    pub(crate) errors: Vec<String>,
    too_large: Option<(Span, String)>,
}

/// A placeholder successor, replaced when labels are resolved.
pub(crate) const HOLE: Pc = Pc::MAX;

impl Builder {
    /// An empty program.
    pub fn new() -> Builder {
        Builder::default()
    }

    /// Declares a global variable; `init: None` makes it an input.
    pub fn global(&mut self, name: impl Into<Arc<str>>, ty: ScalarTy, init: Option<Int>) -> Place {
        self.globals.push(Global {
            name: name.into(),
            ty,
            init: init.map(|v| ty.wrap(&v)),
            refers: None,
        });
        Place::Global(self.globals.len() as u32 - 1)
    }

    /// Declares an array; `init: None` gives it arbitrary (input) contents,
    /// `Some(v)` makes every element `v`.
    pub fn array(&mut self, name: impl Into<Arc<str>>, ty: ArrayTy, init: Option<Int>) -> ArrayId {
        self.arrays.push(ArrayDecl {
            name: name.into(),
            ty,
            init: init.map(|v| ty.elem.wrap(&v)),
        });
        ArrayId(self.arrays.len() as u32 - 1)
    }

    /// The type of an array.
    pub fn array_ty(&self, array: ArrayId) -> ArrayTy {
        self.arrays[array.0 as usize].ty
    }

    /// Declares a procedure, so that calls to it can be emitted before
    /// (or inside) its body. Its parameters are its first slots.
    pub fn declare_proc(
        &mut self,
        name: impl Into<Arc<str>>,
        params: Vec<(Arc<str>, ScalarTy)>,
        ret: Option<ScalarTy>,
        span: Span,
    ) -> ProcId {
        self.procs.push(ProcSig {
            name: name.into(),
            params: params
                .into_iter()
                .map(|(name, ty)| Slot {
                    name,
                    ty,
                    refers: None,
                })
                .collect(),
            ret,
            span,
            body: None,
        });
        ProcId(self.procs.len() as u32 - 1)
    }

    /// Starts the main program.
    pub fn begin_main(&mut self, span: Span) -> RoutineBuilder<'_> {
        RoutineBuilder::new(self, None, "main".into(), Vec::new(), None, span)
    }

    /// Starts the body of a declared procedure.
    pub fn begin_proc(&mut self, proc: ProcId) -> RoutineBuilder<'_> {
        let sig = &self.procs[proc.0 as usize];
        let (name, params, ret, span) = (sig.name.clone(), sig.params.clone(), sig.ret, sig.span);
        RoutineBuilder::new(self, Some(proc), name, params, ret, span)
    }

    /// A new label of the routine being built.
    fn new_label(&mut self) -> Label {
        self.labels.push(LabelState::Unbound);
        Label(self.labels.len() as u32 - 1)
    }

    /// Resolves, type-checks and returns the program.
    pub fn finish(self) -> Result<Ir, IrError> {
        if let Some((span, message)) = self.too_large {
            return Err(IrError::TooLarge { span, message });
        }
        if let Some(e) = self.errors.first() {
            return Err(IrError::IllFormed(e.clone()));
        }
        let main = self
            .main
            .ok_or_else(|| IrError::IllFormed("no main program".into()))?;
        let mut procs = Vec::with_capacity(self.procs.len());
        for sig in self.procs {
            procs.push(sig.body.ok_or_else(|| {
                IrError::IllFormed(format!("procedure `{}` has no body", sig.name))
            })?);
        }
        let threaded = self
            .code
            .iter()
            .any(|l| matches!(l.instr, crate::ir::Instr::Spawn { .. }));
        let visible = self.code.iter().map(crate::cfg::is_visible).collect();
        let ir = Ir {
            code: self.code,
            main,
            procs,
            inputs: self.inputs,
            globals: self.globals,
            arrays: self.arrays,
            classes: self.classes,
            threaded,
            visible,
            unchecked: Vec::new(),
            undecided: Vec::new(),
            accelerated: Vec::new(),
        };
        validate::validate(&ir).map_err(IrError::IllFormed)?;
        Ok(ir)
    }
}

/// Emits the instructions of one routine. See the module documentation.
pub struct RoutineBuilder<'b> {
    pub(crate) b: &'b mut Builder,
    proc: Option<ProcId>,
    name: Arc<str>,
    slots: Vec<Slot>,
    params: u32,
    ret: Option<ScalarTy>,
    span: Span,
    entry: Pc,
    /// Successor fields that fall through to the next instruction emitted.
    open: Vec<Hole>,
    /// Labels bound to the next instruction emitted.
    pending: Vec<Label>,
    /// Successor fields to fill with the position of a label.
    fixups: Vec<(Hole, Label)>,
    labels: Vec<Label>,
    temps: u32,
}

impl<'b> RoutineBuilder<'b> {
    fn new(
        b: &'b mut Builder,
        proc: Option<ProcId>,
        name: Arc<str>,
        params: Vec<Slot>,
        ret: Option<ScalarTy>,
        span: Span,
    ) -> Self {
        RoutineBuilder {
            b,
            proc,
            name,
            params: params.len() as u32,
            slots: params,
            ret,
            span,
            entry: HOLE,
            open: vec![Hole::Entry],
            pending: Vec::new(),
            fixups: Vec::new(),
            labels: Vec::new(),
            temps: 0,
        }
    }

    /// The place of parameter `i`.
    pub fn param(&self, i: u32) -> Place {
        Place::Local(i)
    }

    /// A new local slot (after the parameters) named `name`.
    pub fn local(&mut self, name: impl Into<Arc<str>>, ty: ScalarTy) -> Place {
        self.slots.push(Slot {
            name: name.into(),
            ty,
            refers: None,
        });
        Place::Local(self.slots.len() as u32 - 1)
    }

    /// A new temporary slot (hidden from people: its name starts with `$`).
    pub fn temp(&mut self, ty: ScalarTy) -> Place {
        self.temps += 1;
        let name = format!("$t{}", self.temps);
        self.local(name, ty)
    }

    /// Marks a local of the main program as an input: its initial value is
    /// arbitrary (a symbol named after it).
    pub fn input(&mut self, place: Place) {
        match (self.proc, place) {
            (None, Place::Local(slot)) if (slot as usize) < self.slots.len() => {
                let s = &self.slots[slot as usize];
                self.b.inputs.push(InputVar {
                    slot,
                    name: s.name.clone(),
                    ty: s.ty,
                    refers: s.refers,
                });
            }
            _ => self.b.errors.push(format!(
                "{place:?} cannot be an input: only main's locals are"
            )),
        }
    }

    /// Marks a local (or parameter) as a reference to objects of `class`
    /// (before [`RoutineBuilder::input`], for an input reference).
    pub fn refers(&mut self, place: Place, class: ClassId) {
        match place {
            Place::Local(i) if (i as usize) < self.slots.len() => {
                self.slots[i as usize].refers = Some(class)
            }
            Place::Global(_) => self.b.global_refers(place, class),
            _ => self.error(format!("{place:?} is not declared")),
        }
    }

    /// The type of a place.
    pub fn place_ty(&self, place: Place) -> Option<ScalarTy> {
        match place {
            Place::Local(i) => self.slots.get(i as usize).map(|s| s.ty),
            Place::Global(g) => self.b.globals.get(g as usize).map(|g| g.ty),
        }
    }

    /// The value of a place, as an expression.
    pub fn load(&self, place: Place) -> Expr {
        let ty = self.place_ty(place).unwrap_or(ScalarTy::INT);
        Expr::load(place, ty)
    }

    /// The builder of the whole program (to declare arrays or globals).
    pub fn program(&mut self) -> &mut Builder {
        self.b
    }

    /// A new label.
    pub fn label(&mut self) -> Label {
        let l = self.b.new_label();
        self.labels.push(l);
        l
    }

    /// Binds `label` to the next instruction emitted (or to the routine's
    /// end if none follows).
    pub fn bind(&mut self, label: Label) {
        match self.b.labels[label.0 as usize] {
            LabelState::Unbound => {
                self.b.labels[label.0 as usize] = LabelState::Pending;
                self.pending.push(label);
            }
            _ => self.error(format!("label {} bound twice", label.0)),
        }
    }

    /// Continues at `label`: whatever would fall through here goes there.
    /// Code emitted after a jump is reachable only through a label bound
    /// after it.
    pub fn jump(&mut self, label: Label) {
        for hole in std::mem::take(&mut self.open) {
            self.fixups.push((hole, label));
        }
        for l in std::mem::take(&mut self.pending) {
            self.b.labels[l.0 as usize] = LabelState::Alias(label);
        }
    }

    /// Can control reach the next instruction emitted (by falling through
    /// or through a label bound since the last jump)?
    pub fn is_reachable(&self) -> bool {
        !self.open.is_empty() || !self.pending.is_empty()
    }

    pub(crate) fn error(&mut self, message: String) {
        self.b.errors.push(format!("in `{}`: {message}", self.name));
    }

    /// Takes an expression apart, recording its type error if it has one.
    pub(crate) fn parts(
        &mut self,
        e: Expr,
        span: Span,
        want: Option<ScalarTy>,
        what: &str,
    ) -> (Code, Vec<Check>) {
        if let Some(w) = want {
            if e.ty() != w && e.error().is_none() {
                let got = e.ty();
                self.error(format!("{what} has type `{got}`, expected `{w}`"));
            }
        }
        let (code, checks, error) = e.into_parts();
        match error {
            Some(e) if e.starts_with(crate::expr::TOO_LARGE) && self.b.too_large.is_none() => {
                self.b.too_large = Some((span, e));
            }
            Some(e) if e.starts_with(crate::expr::TOO_LARGE) => {}
            Some(e) => self.error(format!("{what}: {e}")),
            None => {}
        }
        (code, checks)
    }

    fn emit(&mut self, instr: Instr, span: Span, checks: Vec<Check>) -> Pc {
        let pc = self.b.code.len() as Pc;
        self.b.code.push(Located {
            instr,
            span,
            checks: checks.into_boxed_slice(),
        });
        for hole in std::mem::take(&mut self.open) {
            self.fill(hole, pc);
        }
        for l in std::mem::take(&mut self.pending) {
            self.b.labels[l.0 as usize] = LabelState::At(pc);
        }
        pc
    }

    fn fill(&mut self, hole: Hole, pc: Pc) {
        match hole {
            Hole::Entry => self.entry = pc,
            Hole::Next(at) => {
                let instr = &mut self.b.code[at as usize].instr;
                if let Instr::Branch { then_to, .. } = instr {
                    *then_to = pc;
                } else if let Some(next) = instr.next_mut() {
                    *next = pc;
                }
            }
            Hole::Else(at) => {
                if let Instr::Branch { else_to, .. } = &mut self.b.code[at as usize].instr {
                    *else_to = pc;
                }
            }
        }
    }

    /// Emits an instruction that falls through to the next one.
    pub(crate) fn emit_seq(&mut self, instr: Instr, span: Span, checks: Vec<Check>) {
        let pc = self.emit(instr, span, checks);
        self.open.push(Hole::Next(pc));
    }

    /// `place = value`.
    pub fn assign(&mut self, dst: Place, value: Expr, span: Span) {
        let ty = self.place_ty(dst);
        if ty.is_none() {
            self.error(format!("assignment to undeclared {dst:?}"));
        }
        let (value, checks) = self.parts(value, span, ty, "the assigned value");
        self.emit_seq(
            Instr::Assign {
                dst,
                value,
                next: HOLE,
            },
            span,
            checks,
        );
    }

    /// `place = *`: a nondeterministic value of the place's type.
    pub fn havoc(&mut self, dst: Place, span: Span) {
        let Some(ty) = self.place_ty(dst) else {
            return self.error(format!("havoc of undeclared {dst:?}"));
        };
        self.emit_seq(
            Instr::Havoc {
                dst,
                ty,
                next: HOLE,
            },
            span,
            Vec::new(),
        );
    }

    /// `array[index] = value`; the index is converted to the array's index
    /// type when it is another integer type.
    pub fn store(&mut self, array: ArrayId, index: Expr, value: Expr, span: Span) {
        let Some(decl) = self.b.arrays.get(array.0 as usize) else {
            return self.error(format!("store to undeclared array {}", array.0));
        };
        let ty = decl.ty;
        let index = match index.int_ty() {
            Some(t) if t != ty.index => index.cast(ty.index),
            _ => index,
        };
        let (index, mut checks) =
            self.parts(index, span, Some(ScalarTy::Int(ty.index)), "the subscript");
        let (value, more) = self.parts(value, span, Some(ty.elem), "the stored value");
        checks.extend(more);
        let instr = Instr::Store {
            array,
            index,
            value,
            next: HOLE,
        };
        self.emit_seq(instr, span, checks);
    }

    /// `array[index] = value` on an array of `len` elements, with the
    /// [`crate::ErrorKind::OutOfBounds`] check of [`Expr::bounded_index`].
    pub fn store_in_bounds(
        &mut self,
        array: ArrayId,
        index: Expr,
        len: Expr,
        value: Expr,
        span: Span,
    ) {
        let Some(decl) = self.b.arrays.get(array.0 as usize) else {
            return self.error(format!("store to undeclared array {}", array.0));
        };
        let index = Expr::bounded_index(decl.ty, index, len, span);
        self.store(array, index, value, span);
    }

    /// A branch to `then_to` when `cond` holds, else to `else_to`.
    pub fn branch(&mut self, cond: Expr, then_to: Label, else_to: Label, span: Span) {
        let (cond, checks) = self.parts(cond, span, Some(ScalarTy::Bool), "the condition");
        let pc = self.emit(
            Instr::Branch {
                cond,
                then_to: HOLE,
                else_to: HOLE,
            },
            span,
            checks,
        );
        self.fixups.push((Hole::Next(pc), then_to));
        self.fixups.push((Hole::Else(pc), else_to));
    }

    /// `assert cond`.
    pub fn assert(&mut self, cond: Expr, span: Span) {
        let (cond, checks) = self.parts(cond, span, Some(ScalarTy::Bool), "the assertion");
        self.emit_seq(Instr::Assert { cond, next: HOLE }, span, checks);
    }

    /// `assume cond`.
    pub fn assume(&mut self, cond: Expr, span: Span) {
        let (cond, checks) = self.parts(cond, span, Some(ScalarTy::Bool), "the assumption");
        self.emit_seq(Instr::Assume { cond, next: HOLE }, span, checks);
    }

    /// An error location (`fail`).
    pub fn fail(&mut self, span: Span) {
        self.emit(Instr::Fail, span, Vec::new());
    }

    /// Ends the main program here.
    pub fn halt(&mut self, span: Span) {
        self.emit(Instr::Halt, span, Vec::new());
    }

    /// A call of `proc` with `args` (evaluated left to right), storing the
    /// result in `dst` if given.
    pub fn call(&mut self, proc: ProcId, args: Vec<Expr>, dst: Option<Place>, span: Span) {
        let Some((codes, checks)) = self.arguments(proc, args, span, "call") else {
            return;
        };
        let sig = &self.b.procs[proc.0 as usize];
        let (ret, callee) = (sig.ret, sig.name.clone());
        if let Some(d) = dst {
            if ret.is_none() || ret != self.place_ty(d) {
                self.error(format!(
                    "the result of `{callee}` cannot be stored in {d:?}"
                ));
            }
        }
        let instr = Instr::Call {
            proc,
            args: codes,
            dst,
            next: HOLE,
        };
        self.emit_seq(instr, span, checks);
    }

    /// The code and checks of the arguments of a call or spawn of `proc`,
    /// converted to its parameters' types; `None` if `proc` is undeclared.
    pub(crate) fn arguments(
        &mut self,
        proc: ProcId,
        args: Vec<Expr>,
        span: Span,
        what: &str,
    ) -> Option<(Box<[Code]>, Vec<Check>)> {
        let Some(sig) = self.b.procs.get(proc.0 as usize) else {
            self.error(format!("{what} of undeclared procedure {}", proc.0));
            return None;
        };
        let want: Vec<ScalarTy> = sig.params.iter().map(|s| s.ty).collect();
        if want.len() != args.len() {
            let callee = sig.name.clone();
            self.error(format!(
                "`{callee}` takes {} arguments, {} given",
                want.len(),
                args.len()
            ));
        }
        let mut codes = Vec::with_capacity(args.len());
        let mut checks = Vec::new();
        for (arg, ty) in args.into_iter().zip(want) {
            let (code, more) = self.parts(arg, span, Some(ty), "an argument");
            codes.push(code);
            checks.extend(more);
        }
        Some((codes.into_boxed_slice(), checks))
    }

    /// Returns from the procedure (with a value if it returns one).
    pub fn ret(&mut self, value: Option<Expr>, span: Span) {
        if self.proc.is_none() {
            return self.error("`return` in the main program".into());
        }
        let (value, checks) = match (value, self.ret) {
            (Some(v), Some(t)) => {
                let (code, checks) = self.parts(v, span, Some(t), "the returned value");
                (Some(code), checks)
            }
            (None, None) => (None, Vec::new()),
            _ => {
                self.error("`return` does not match the procedure's result".into());
                (None, Vec::new())
            }
        };
        self.emit(Instr::Return { value }, span, checks);
    }

    /// Ends the routine: control that falls off the end halts (main) or
    /// returns 0 of the result type (a procedure). Resolves the labels.
    pub fn finish(mut self) {
        if self.is_reachable() {
            let end = Span {
                file: self.span.file,
                lo: self.span.hi.saturating_sub(1).max(self.span.lo),
                hi: self.span.hi,
            };
            match (self.proc, self.ret) {
                (None, _) => self.halt(end),
                (Some(_), Some(t)) => self.ret(Some(Expr::zero(t)), end),
                (Some(_), None) => self.ret(None, end),
            }
        }
        for (hole, label) in std::mem::take(&mut self.fixups) {
            match self.resolve(label) {
                Some(pc) => self.fill(hole, pc),
                None => self.error(format!("label {} is never bound", label.0)),
            }
        }
        let routine = Routine {
            name: self.name.clone(),
            entry: self.entry,
            params: self.params,
            slots: std::mem::take(&mut self.slots),
            ret: self.ret,
            span: self.span,
        };
        match self.proc {
            None => self.b.main = Some(routine),
            Some(p) => self.b.procs[p.0 as usize].body = Some(routine),
        }
    }

    /// The instruction a label stands for, following aliases; a cycle of
    /// jumps becomes a `Skip` that loops on itself.
    fn resolve(&mut self, label: Label) -> Option<Pc> {
        // Every label on the way is set to the end of the chain (path
        // compression), so resolving all of a routine's labels is linear
        // even when jumps to jumps nest deeply (`if` in `if` in `if`).
        let mut seen: Vec<Label> = Vec::new();
        let mut l = label;
        loop {
            match self.b.labels[l.0 as usize] {
                LabelState::At(pc) => {
                    for s in seen {
                        self.b.labels[s.0 as usize] = LabelState::At(pc);
                    }
                    return Some(pc);
                }
                LabelState::Alias(next) => {
                    seen.push(l);
                    // A chain longer than there are labels is a cycle.
                    if seen.len() > self.b.labels.len() {
                        let pc = self.b.code.len() as Pc;
                        self.b.code.push(Located {
                            instr: Instr::Skip { next: pc },
                            span: self.span,
                            checks: Box::new([]),
                        });
                        for s in seen {
                            self.b.labels[s.0 as usize] = LabelState::At(pc);
                        }
                        return Some(pc);
                    }
                    l = next;
                }
                LabelState::Unbound | LabelState::Pending => return None,
            }
        }
    }
}
