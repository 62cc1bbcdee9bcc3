//! The well-formedness of a program: every successor exists, every place
//! and array is declared, and all code is well-typed. The builder checks
//! this before handing a program out, so the semantics may rely on it.

use crate::ir::{Code, Instr, Ir, Op, Pc, Place, Routine};
use crate::output::OutPart;
use crate::types::ScalarTy;
use std::collections::VecDeque;
use wiser_num::{BinOp, FloatOperand, FloatResult, IntTy};

/// Checks `ir`; the error says what is wrong where.
pub fn validate(ir: &Ir) -> Result<(), String> {
    let n = ir.code.len() as Pc;
    let mut owner: Vec<Option<usize>> = vec![None; ir.code.len()];
    let routines: Vec<&Routine> = std::iter::once(&ir.main).chain(&ir.procs).collect();
    for (r, routine) in routines.iter().enumerate() {
        if routine.entry >= n {
            return Err(format!("`{}` has no entry instruction", routine.name));
        }
        if routine.params as usize > routine.slots.len() {
            return Err(format!("`{}` has more parameters than slots", routine.name));
        }
        let mut queue = VecDeque::from([routine.entry]);
        while let Some(pc) = queue.pop_front() {
            match owner[pc as usize] {
                Some(o) if o == r => continue,
                Some(o) => {
                    return Err(format!(
                        "instruction {pc} belongs to both `{}` and `{}`",
                        routines[o].name, routine.name
                    ))
                }
                None => owner[pc as usize] = Some(r),
            }
            let loc = &ir.code[pc as usize];
            let cx = Cx { ir, routine, pc };
            for check in loc.checks.iter() {
                if let Some(g) = &check.guard {
                    cx.expect(g, ScalarTy::Bool, "a check's guard")?;
                }
                cx.expect(&check.cond, ScalarTy::Bool, "a check's condition")?;
            }
            for succ in cx.instr(&loc.instr)? {
                if succ >= n {
                    return Err(format!(
                        "instruction {pc} jumps to {succ}, out of the program"
                    ));
                }
                queue.push_back(succ);
            }
        }
    }
    for input in &ir.inputs {
        match ir.main.slots.get(input.slot as usize) {
            Some(s) if s.ty == input.ty => {}
            _ => return Err(format!("input `{}` is not a slot of main", input.name)),
        }
    }
    Ok(())
}

struct Cx<'a> {
    ir: &'a Ir,
    routine: &'a Routine,
    pc: Pc,
}

impl Cx<'_> {
    fn err(&self, what: String) -> String {
        format!("instruction {} of `{}`: {what}", self.pc, self.routine.name)
    }

    fn place(&self, p: Place) -> Result<ScalarTy, String> {
        match p {
            Place::Local(i) => self.routine.slots.get(i as usize).map(|s| s.ty),
            Place::Global(g) => self.ir.globals.get(g as usize).map(|g| g.ty),
        }
        .ok_or_else(|| self.err(format!("{p:?} is not declared")))
    }

    /// The successors of an instruction, after checking its operands.
    fn instr(&self, instr: &Instr) -> Result<Vec<Pc>, String> {
        match instr {
            Instr::Assign { dst, value, .. } => {
                self.expect(value, self.place(*dst)?, "the assigned value")?;
            }
            Instr::Havoc { dst, ty, .. } => {
                if self.place(*dst)? != *ty {
                    return Err(self.err("havoc of the wrong type".into()));
                }
            }
            Instr::Store {
                array,
                index,
                value,
                ..
            } => {
                let decl = self
                    .ir
                    .arrays
                    .get(array.0 as usize)
                    .ok_or_else(|| self.err(format!("array {} is not declared", array.0)))?;
                self.expect(index, ScalarTy::Int(decl.ty.index), "the subscript")?;
                self.expect(value, decl.ty.elem, "the stored value")?;
            }
            Instr::Branch { cond, .. }
            | Instr::Assert { cond, .. }
            | Instr::Assume { cond, .. } => {
                self.expect(cond, ScalarTy::Bool, "the condition")?;
            }
            Instr::Fail | Instr::Halt | Instr::Skip { .. } | Instr::Atomic { .. } => {}
            Instr::Output { parts, .. } => {
                for part in parts.iter() {
                    match part {
                        OutPart::Text(_) => {}
                        OutPart::Int { value, ty, .. } => {
                            self.expect(value, ScalarTy::Int(*ty), "an output value")?
                        }
                        OutPart::Float { value, ty, .. } => {
                            self.expect(value, ScalarTy::Float(*ty), "an output value")?
                        }
                        OutPart::Str { array, start, .. } => {
                            let decl = self.ir.arrays.get(array.0 as usize).ok_or_else(|| {
                                self.err(format!("array {} is not declared", array.0))
                            })?;
                            self.expect(start, ScalarTy::Int(decl.ty.index), "a string's start")?;
                        }
                    }
                }
            }
            Instr::Call {
                proc, args, dst, ..
            } => {
                let callee = self.arguments(*proc, args)?;
                if let Some(d) = dst {
                    if Some(self.place(*d)?) != callee.ret {
                        return Err(
                            self.err(format!("the result of `{}` has another type", callee.name))
                        );
                    }
                }
            }
            Instr::New { dst, class, .. } => {
                if self.ir.classes.get(class.0 as usize).is_none() {
                    return Err(self.err(format!("class {} is not declared", class.0)));
                }
                if self.place(*dst)? != ScalarTy::INT {
                    return Err(self.err("a reference must be stored in an `int` place".into()));
                }
            }
            Instr::Spawn {
                proc, args, dst, ..
            } => {
                self.arguments(*proc, args)?;
                if let Some(d) = dst {
                    if self.place(*d)?.int().is_none() {
                        return Err(self.err("a thread id must be stored in an integer".into()));
                    }
                }
            }
            Instr::Join { thread, ty, .. } => {
                self.expect(thread, ScalarTy::Int(*ty), "the thread id")?;
            }
            Instr::Lock { lock, obj, .. } | Instr::Unlock { lock, obj, .. } => {
                if !self.ir.classes.iter().any(|c| c.lock == *lock) {
                    return Err(self.err(format!("array {} is not a lock array", lock.0)));
                }
                self.expect(obj, ScalarTy::INT, "the locked object")?;
            }
            Instr::Return { value } => {
                if std::ptr::eq(self.routine, &self.ir.main) {
                    return Err(self.err("`return` in the main program".into()));
                }
                match (value, self.routine.ret) {
                    (Some(v), Some(t)) => self.expect(v, t, "the returned value")?,
                    (None, None) => {}
                    _ => return Err(self.err("the returned value does not match".into())),
                }
            }
        }
        Ok(crate::cfg::successors(instr).collect())
    }

    /// The routine `proc`, after checking that `args` fit its parameters
    /// (a call's, or a spawned thread's).
    fn arguments(&self, proc: crate::ir::ProcId, args: &[Code]) -> Result<&Routine, String> {
        let callee = self
            .ir
            .procs
            .get(proc.0 as usize)
            .ok_or_else(|| self.err(format!("procedure {} is not declared", proc.0)))?;
        if args.len() != callee.params as usize {
            return Err(self.err(format!("wrong argument count for `{}`", callee.name)));
        }
        for (arg, slot) in args.iter().zip(&callee.slots) {
            self.expect(arg, slot.ty, "an argument")?;
        }
        Ok(callee)
    }

    fn expect(&self, code: &Code, want: ScalarTy, what: &str) -> Result<(), String> {
        let got = self
            .type_of(code)
            .map_err(|e| self.err(format!("{what}: {e}")))?;
        if got != want {
            return Err(self.err(format!("{what} has type `{got}`, expected `{want}`")));
        }
        Ok(())
    }

    /// Runs the code on a stack of types.
    fn type_of(&self, code: &Code) -> Result<ScalarTy, String> {
        let mut stack: Vec<ScalarTy> = Vec::new();
        let pop = |stack: &mut Vec<ScalarTy>| stack.pop().ok_or("stack underflow".to_string());
        let int = |t: ScalarTy, want: IntTy| -> Result<(), String> {
            if t == ScalarTy::Int(want) {
                Ok(())
            } else {
                Err(format!("an operand has type `{t}`, expected `{want}`"))
            }
        };
        let boolean = |t: ScalarTy| -> Result<(), String> {
            if t == ScalarTy::Bool {
                Ok(())
            } else {
                Err(format!("an operand has type `{t}`, expected `bool`"))
            }
        };
        for op in code.iter() {
            match op {
                Op::Int(t, v) => {
                    if !t.contains(v) {
                        return Err(format!("constant {v} is not a `{t}`"));
                    }
                    stack.push(ScalarTy::Int(*t));
                }
                Op::Bool(_) => stack.push(ScalarTy::Bool),
                Op::Load(p) => stack.push(self.place(*p)?),
                Op::Select(a) => {
                    let decl = self
                        .ir
                        .arrays
                        .get(a.0 as usize)
                        .ok_or_else(|| format!("array {} is not declared", a.0))?;
                    int(pop(&mut stack)?, decl.ty.index)?;
                    stack.push(decl.ty.elem);
                }
                Op::Unary(op, t) => {
                    if *op == wiser_num::UnOp::BitNot && t.is_unbounded() {
                        return Err("`~` on `int`".into());
                    }
                    int(pop(&mut stack)?, *t)?;
                    stack.push(ScalarTy::Int(*t));
                }
                Op::Binary(op, t) => {
                    if op.is_bitwise() && t.is_unbounded() {
                        return Err(format!("`{}` on `int`", op.symbol()));
                    }
                    int(pop(&mut stack)?, *t)?;
                    int(pop(&mut stack)?, *t)?;
                    stack.push(ScalarTy::Int(*t));
                }
                Op::Cmp(_, t) => {
                    int(pop(&mut stack)?, *t)?;
                    int(pop(&mut stack)?, *t)?;
                    stack.push(ScalarTy::Bool);
                }
                Op::Overflows(op, t) => {
                    if !matches!(
                        op,
                        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem | BinOp::Shl
                    ) {
                        return Err(format!("no overflow predicate for `{}`", op.symbol()));
                    }
                    int(pop(&mut stack)?, *t)?;
                    int(pop(&mut stack)?, *t)?;
                    stack.push(ScalarTy::Bool);
                }
                Op::NegOverflows(t) => {
                    int(pop(&mut stack)?, *t)?;
                    stack.push(ScalarTy::Bool);
                }
                Op::Cast(from, to) => {
                    int(pop(&mut stack)?, *from)?;
                    stack.push(ScalarTy::Int(*to));
                }
                Op::Not => {
                    boolean(pop(&mut stack)?)?;
                    stack.push(ScalarTy::Bool);
                }
                Op::And | Op::Or => {
                    boolean(pop(&mut stack)?)?;
                    boolean(pop(&mut stack)?)?;
                    stack.push(ScalarTy::Bool);
                }
                Op::Ite(t) => {
                    let (e, th, c) = (pop(&mut stack)?, pop(&mut stack)?, pop(&mut stack)?);
                    boolean(c)?;
                    if e != *t || th != *t {
                        return Err(format!(
                            "an `ite` of type `{t}` has branches `{th}` and `{e}`"
                        ));
                    }
                    stack.push(*t);
                }
                Op::FloatConst(t, v) => {
                    if !t.bits_ty().contains(v) {
                        return Err(format!("constant {v} is not a pattern of `{t}`"));
                    }
                    stack.push(ScalarTy::Float(*t));
                }
                Op::AsFloat(t) => {
                    int(pop(&mut stack)?, t.bits_ty())?;
                    stack.push(ScalarTy::Float(*t));
                }
                Op::AsBits(t) => {
                    let got = pop(&mut stack)?;
                    if got != ScalarTy::Float(*t) {
                        return Err(format!("an operand has type `{got}`, expected `{t}`"));
                    }
                    stack.push(ScalarTy::Int(t.bits_ty()));
                }
                Op::Float(fop) => {
                    let mut args = Vec::with_capacity(fop.arity());
                    for _ in 0..fop.arity() {
                        args.push(pop(&mut stack)?);
                    }
                    for (want, got) in fop.operands().into_iter().zip(args.into_iter().rev()) {
                        let want = match want {
                            FloatOperand::Float(t) => ScalarTy::Float(t),
                            FloatOperand::Int(t) => ScalarTy::Int(t),
                        };
                        if got != want {
                            return Err(format!(
                                "an operand of `{fop}` has type `{got}`, expected `{want}`"
                            ));
                        }
                    }
                    stack.push(match fop.result() {
                        FloatResult::Float(t) => ScalarTy::Float(t),
                        FloatResult::Int(t) => ScalarTy::Int(t),
                        FloatResult::Bool => ScalarTy::Bool,
                    });
                }
            }
        }
        match (stack.pop(), stack.is_empty()) {
            (Some(t), true) => Ok(t),
            _ => Err("code must leave exactly one value".into()),
        }
    }
}
