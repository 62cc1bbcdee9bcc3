//! The builder's part for objects and threads: classes and their fields,
//! references, `new`, `spawn`, `join`, locks and atomic sections (see
//! [`crate::ir::ClassDecl`] and [`crate::ir::Instr`]).

use crate::builder::{Builder, RoutineBuilder, HOLE};
use crate::expr::Expr;
use crate::ir::{ArrayId, ClassDecl, ClassId, Field, Instr, Place, ProcId};
use crate::source::Span;
use crate::types::{ArrayTy, ScalarTy};
use std::sync::Arc;
use wiser_num::{Int, IntTy};

impl Builder {
    /// Marks a global as a reference to objects of `class` (an input
    /// global that is a reference starts as `null` or an input object).
    pub fn global_refers(&mut self, place: Place, class: ClassId) {
        match place {
            Place::Global(g) if (g as usize) < self.globals.len() => {
                self.globals[g as usize].refers = Some(class)
            }
            _ => self.errors.push(format!("{place:?} is not a global")),
        }
    }

    /// Declares a class with no fields yet, and its lock array
    /// (`Name.$lock`, all free at the start).
    pub fn class(&mut self, name: impl Into<Arc<str>>) -> ClassId {
        let name: Arc<str> = name.into();
        let lock = self.array(format!("{name}.$lock"), ArrayTy::INT, Some(Int::ZERO));
        self.classes.push(ClassDecl {
            name,
            fields: Vec::new(),
            lock,
            cell: None,
        });
        ClassId(self.classes.len() as u32 - 1)
    }

    /// Makes `class` a class of cells whose value is its field `value`
    /// (see [`crate::ClassDecl::cell`]).
    pub fn cell_value(&mut self, class: ClassId, value: ArrayId) {
        if let Some(c) = self.classes.get_mut(class.0 as usize) {
            c.cell = Some(value);
        }
    }

    /// Adds a field of type `ty` to `class` (`refers`: the class it refers
    /// to, for a reference, whose type is then `int`). Its array is named
    /// `Class.field` and has input contents: objects of the input heap
    /// have arbitrary fields, and `new` zeroes the fields of the objects
    /// it makes.
    pub fn field(
        &mut self,
        class: ClassId,
        name: impl Into<Arc<str>>,
        ty: ScalarTy,
        refers: Option<ClassId>,
    ) -> ArrayId {
        let name: Arc<str> = name.into();
        let Some(decl) = self.classes.get(class.0 as usize) else {
            self.errors
                .push(format!("field of undeclared class {}", class.0));
            return ArrayId(u32::MAX);
        };
        let full = format!("{}.{name}", decl.name);
        let array = self.array(
            full,
            ArrayTy {
                index: IntTy::INT,
                elem: ty,
            },
            None,
        );
        self.classes[class.0 as usize].fields.push(Field {
            name,
            array,
            refers,
        });
        array
    }

    /// The declared classes.
    pub fn classes(&self) -> &[ClassDecl] {
        &self.classes
    }

    /// Marks parameter `i` of a declared procedure as a reference to
    /// objects of `class`.
    pub fn param_refers(&mut self, proc: ProcId, i: u32, class: ClassId) {
        match self
            .procs
            .get_mut(proc.0 as usize)
            .and_then(|p| p.params.get_mut(i as usize))
        {
            Some(slot) => slot.refers = Some(class),
            None => self
                .errors
                .push(format!("no parameter {i} of procedure {}", proc.0)),
        }
    }
}

impl RoutineBuilder<'_> {
    /// `dst = new class`.
    pub fn new_object(&mut self, dst: Place, class: ClassId, span: Span) {
        if self.place_ty(dst) != Some(ScalarTy::INT) {
            self.error(format!("a reference cannot be stored in {dst:?}"));
        }
        self.emit_seq(
            Instr::New {
                dst,
                class,
                next: HOLE,
            },
            span,
            Vec::new(),
        );
    }

    /// Starts a thread running `proc(args)`; its id goes to `dst`.
    pub fn spawn(&mut self, proc: ProcId, args: Vec<Expr>, dst: Option<Place>, span: Span) {
        let Some((codes, checks)) = self.arguments(proc, args, span, "spawn") else {
            return;
        };
        let instr = Instr::Spawn {
            proc,
            args: codes,
            dst,
            next: HOLE,
        };
        self.emit_seq(instr, span, checks);
    }

    /// Waits for the thread whose id `thread` is.
    pub fn join(&mut self, thread: Expr, span: Span) {
        let ty = thread.int_ty().unwrap_or(IntTy::INT);
        let (thread, checks) = self.parts(thread, span, Some(ScalarTy::Int(ty)), "the thread id");
        self.emit_seq(
            Instr::Join {
                thread,
                ty,
                next: HOLE,
            },
            span,
            checks,
        );
    }

    /// Takes (`acquire`) or releases the lock of the object `obj` (a
    /// reference of `class`), with a [`crate::ErrorKind::NullDereference`]
    /// check.
    pub fn lock(&mut self, class: ClassId, obj: Expr, acquire: bool, span: Span) {
        let Some(lock) = self.b.classes.get(class.0 as usize).map(|c| c.lock) else {
            return self.error(format!("lock of undeclared class {}", class.0));
        };
        let obj = Expr::deref(obj, span);
        let (obj, checks) = self.parts(obj, span, Some(ScalarTy::INT), "the locked object");
        let instr = if acquire {
            Instr::Lock {
                lock,
                obj,
                next: HOLE,
            }
        } else {
            Instr::Unlock {
                lock,
                obj,
                next: HOLE,
            }
        };
        self.emit_seq(instr, span, checks);
    }

    /// Enters (`begin`) or leaves an atomic section.
    pub fn atomic(&mut self, begin: bool, span: Span) {
        self.emit_seq(Instr::Atomic { begin, next: HOLE }, span, Vec::new());
    }
}
