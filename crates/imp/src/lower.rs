//! Lowering of a checked syntax tree to [`Ir`].
//!
//! Statements are lowered back to front, each given the instruction that
//! follows it, so sequencing, `skip` and the ends of branches need no
//! instruction of their own. The static checks of `wiser_syntax::check`
//! guarantee that every name resolves, so lowering cannot fail.

use crate::ir::{Code, DivCheck, Instr, Ir, Located, Op, Pc, Routine};
use std::collections::HashMap;
use std::sync::Arc;
use wiser_num::Int;
use wiser_syntax::ast::{ArithOp, Cond, Expr, Stmt};
use wiser_syntax::{CheckedProgram, Span};

/// Lowers a checked program.
///
/// Lowering recurses over the syntax tree, so like the parser and
/// `check` it runs on a thread with a large stack
/// ([`wiser_syntax::with_deep_stack`]): statements nested up to
/// [`wiser_syntax::MAX_NESTING`] levels must not overflow the caller's
/// stack, whatever its size.
pub fn lower(program: &CheckedProgram) -> Ir {
    wiser_syntax::with_deep_stack(|| lower_program(program))
}

fn lower_program(program: &CheckedProgram) -> Ir {
    let arrays: HashMap<Arc<str>, u32> = program
        .arrays
        .iter()
        .enumerate()
        .map(|(i, a)| (a.clone(), i as u32))
        .collect();
    let proc_index: HashMap<Arc<str>, u32> = program
        .procs
        .iter()
        .enumerate()
        .map(|(i, p)| (p.name.name.clone(), i as u32))
        .collect();
    let mut code = Vec::new();

    let main_slots = program.main_vars.clone();
    let main = {
        let mut lw = Lowerer::new(&mut code, &main_slots, &arrays, &proc_index);
        let halt = lw.emit(Instr::Halt, program.main.span(), Vec::new());
        let entry = lw.stmt(&program.main, halt);
        Routine {
            name: "main".into(),
            entry,
            params: 0,
            slots: main_slots.clone(),
        }
    };
    let procs = program
        .procs
        .iter()
        .zip(&program.proc_locals)
        .map(|(p, slots)| {
            let mut lw = Lowerer::new(&mut code, slots, &arrays, &proc_index);
            let end = Span::new(p.span.hi.saturating_sub(3), p.span.hi);
            let fall_off = Instr::Return {
                value: Box::new([Op::Const(Int::ZERO)]),
            };
            let ret = lw.emit(fall_off, end, Vec::new());
            let entry = lw.stmt(&p.body, ret);
            Routine {
                name: p.name.name.clone(),
                entry,
                params: p.params.len() as u32,
                slots: slots.clone(),
            }
        })
        .collect();
    let slot_of: HashMap<&Arc<str>, u32> = main_slots
        .iter()
        .enumerate()
        .map(|(i, n)| (n, i as u32))
        .collect();
    let inputs = program
        .main_inputs
        .iter()
        .map(|n| (slot_of[n], n.clone()))
        .collect();
    Ir {
        code,
        main,
        procs,
        inputs,
        arrays: program.arrays.clone(),
    }
}

struct Lowerer<'a> {
    code: &'a mut Vec<Located>,
    slots: HashMap<&'a str, u32>,
    arrays: &'a HashMap<Arc<str>, u32>,
    procs: &'a HashMap<Arc<str>, u32>,
}

impl<'a> Lowerer<'a> {
    fn new(
        code: &'a mut Vec<Located>,
        slots: &'a [Arc<str>],
        arrays: &'a HashMap<Arc<str>, u32>,
        procs: &'a HashMap<Arc<str>, u32>,
    ) -> Self {
        let slots = slots
            .iter()
            .enumerate()
            .map(|(i, n)| (&**n, i as u32))
            .collect();
        Lowerer {
            code,
            slots,
            arrays,
            procs,
        }
    }

    fn emit(&mut self, instr: Instr, span: Span, checks: Vec<DivCheck>) -> Pc {
        self.code.push(Located {
            instr,
            span,
            checks: checks.into_boxed_slice(),
        });
        (self.code.len() - 1) as Pc
    }

    fn slot(&self, name: &str) -> u32 {
        self.slots[name]
    }

    /// Lowers `stmt` so that it continues at `next`; returns its entry.
    fn stmt(&mut self, stmt: &Stmt, next: Pc) -> Pc {
        let mut checks = Vec::new();
        let span = stmt.span();
        match stmt {
            Stmt::Skip(_) => next,
            Stmt::Seq(items) => items.iter().rev().fold(next, |n, s| self.stmt(s, n)),
            Stmt::Fail(_) => self.emit(Instr::Fail, span, checks),
            Stmt::Assign { target, value, .. } => {
                let value = self.expr(value, None, &mut checks);
                let dst = self.slot(&target.name);
                self.emit(Instr::Assign { dst, value, next }, span, checks)
            }
            Stmt::Havoc { target, .. } => {
                let dst = self.slot(&target.name);
                self.emit(Instr::Havoc { dst, next }, span, checks)
            }
            Stmt::ArrayAssign {
                array,
                index,
                value,
                ..
            } => {
                let index = self.expr(index, None, &mut checks);
                let value = self.expr(value, None, &mut checks);
                let array = self.arrays[&array.name];
                let instr = Instr::Store {
                    array,
                    index,
                    value,
                    next,
                };
                self.emit(instr, span, checks)
            }
            Stmt::If {
                cond,
                then_branch,
                else_branch,
                ..
            } => {
                let then_to = self.stmt(then_branch, next);
                let else_to = self.stmt(else_branch, next);
                let cond = self.cond(cond, None, &mut checks);
                let instr = Instr::Branch {
                    cond,
                    then_to,
                    else_to,
                };
                self.emit(instr, span, checks)
            }
            Stmt::While { cond, body, .. } => {
                // The loop test is emitted first so the body can jump back to it.
                let placeholder = Instr::Branch {
                    cond: Box::new([]),
                    then_to: next,
                    else_to: next,
                };
                let test = self.emit(placeholder, span, Vec::new());
                let body_entry = self.stmt(body, test);
                let cond = self.cond(cond, None, &mut checks);
                self.code[test as usize] = Located {
                    instr: Instr::Branch {
                        cond,
                        then_to: body_entry,
                        else_to: next,
                    },
                    span,
                    checks: checks.into_boxed_slice(),
                };
                test
            }
            Stmt::Assert { cond, .. } => {
                let cond = self.cond(cond, None, &mut checks);
                self.emit(Instr::Assert { cond, next }, span, checks)
            }
            Stmt::Assume { cond, .. } => {
                let cond = self.cond(cond, None, &mut checks);
                self.emit(Instr::Assume { cond, next }, span, checks)
            }
            Stmt::Call {
                target,
                callee,
                args,
                ..
            } => {
                let args = args
                    .iter()
                    .map(|a| self.expr(a, None, &mut checks))
                    .collect();
                let instr = Instr::Call {
                    proc: self.procs[&callee.name],
                    args,
                    dst: target.as_ref().map(|t| self.slot(&t.name)),
                    next,
                };
                self.emit(instr, span, checks)
            }
            Stmt::Return { value, .. } => {
                let value = self.expr(value, None, &mut checks);
                self.emit(Instr::Return { value }, span, checks)
            }
        }
    }

    /// Compiles an integer expression; divisions it contains append their
    /// checks (under `guard`) to `checks` in evaluation order.
    fn expr(&self, e: &Expr, guard: Option<&Code>, checks: &mut Vec<DivCheck>) -> Code {
        let mut out = Vec::new();
        self.expr_into(e, guard, checks, &mut out);
        out.into_boxed_slice()
    }

    fn expr_into(
        &self,
        e: &Expr,
        guard: Option<&Code>,
        checks: &mut Vec<DivCheck>,
        out: &mut Vec<Op>,
    ) {
        match e {
            Expr::Num { value, .. } => out.push(Op::Const(value.clone())),
            Expr::Var(id) => out.push(Op::Load(self.slot(&id.name))),
            Expr::Index { array, index, .. } => {
                self.expr_into(index, guard, checks, out);
                out.push(Op::Select(self.arrays[&array.name]));
            }
            Expr::Neg { operand, .. } => {
                // Fold negative literals so `-5` is one constant.
                if let Expr::Num { value, .. } = &**operand {
                    out.push(Op::Const(value.neg()));
                } else {
                    self.expr_into(operand, guard, checks, out);
                    out.push(Op::Neg);
                }
            }
            Expr::Binary {
                op,
                lhs,
                rhs,
                op_span,
                ..
            } => {
                self.expr_into(lhs, guard, checks, out);
                let start = out.len();
                self.expr_into(rhs, guard, checks, out);
                if matches!(op, ArithOp::Div | ArithOp::Rem) {
                    checks.push(DivCheck {
                        guard: guard.cloned(),
                        divisor: out[start..].into(),
                        span: *op_span,
                    });
                }
                out.push(Op::Arith(*op));
            }
        }
    }

    fn cond(&self, c: &Cond, guard: Option<&Code>, checks: &mut Vec<DivCheck>) -> Code {
        let mut out = Vec::new();
        self.cond_into(c, guard, checks, &mut out);
        out.into_boxed_slice()
    }

    fn cond_into(
        &self,
        c: &Cond,
        guard: Option<&Code>,
        checks: &mut Vec<DivCheck>,
        out: &mut Vec<Op>,
    ) {
        match c {
            Cond::Bool { value, .. } => out.push(Op::Bool(*value)),
            Cond::Not { operand, .. } => {
                self.cond_into(operand, guard, checks, out);
                out.push(Op::Not);
            }
            Cond::And { lhs, rhs, .. } | Cond::Or { lhs, rhs, .. } => {
                let is_and = matches!(c, Cond::And { .. });
                let start = out.len();
                self.cond_into(lhs, guard, checks, out);
                // The right operand is evaluated only when the left one
                // holds (`and`) or fails (`or`): that is its guard.
                let mut inner: Vec<Op> = out[start..].to_vec();
                if !is_and {
                    inner.push(Op::Not);
                }
                if let Some(g) = guard {
                    inner.extend(g.iter().cloned());
                    inner.push(Op::And);
                }
                let inner: Code = inner.into_boxed_slice();
                self.cond_into(rhs, Some(&inner), checks, out);
                out.push(if is_and { Op::And } else { Op::Or });
            }
            Cond::Cmp { op, lhs, rhs, .. } => {
                self.expr_into(lhs, guard, checks, out);
                self.expr_into(rhs, guard, checks, out);
                out.push(Op::Cmp(*op));
            }
        }
    }
}
