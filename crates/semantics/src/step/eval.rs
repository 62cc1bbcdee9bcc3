//! Expressions: code runs on the machine's explicit stack, never by
//! recursion.

use super::Machine;
use crate::algebra::Algebra;
use crate::state::State;
use wiser_ir::{Code, Op};
use wiser_num::Int;

impl<A: Algebra> Machine<'_, A> {
    /// Evaluates code in `state`'s current frame.
    pub fn eval<P>(&mut self, alg: &mut A, code: &Code, state: &State<A, P>) -> A::Value {
        self.eval_in(alg, code, &state.frame.locals, state)
    }

    /// Evaluates code over the locals `locals` (of some thread's frame)
    /// and `state`'s globals and arrays.
    pub(crate) fn eval_in<P>(
        &mut self,
        alg: &mut A,
        code: &Code,
        locals: &crate::Locals<A::Value>,
        state: &State<A, P>,
    ) -> A::Value {
        let stack = &mut self.stack;
        let base = stack.len();
        for op in code.iter() {
            let v = match op {
                Op::Int(t, n) => alg.int(*t, n),
                Op::Bool(b) => alg.bool(*b),
                Op::Load(wiser_ir::Place::Local(i)) => locals[*i as usize].clone(),
                Op::Load(wiser_ir::Place::Global(g)) => state.globals[*g as usize].clone(),
                Op::Select(a) => {
                    let i = pop(stack);
                    let ty = self.ir.arrays[a.0 as usize].ty;
                    if self.ref_field[a.0 as usize]
                        && alg.as_int(&i).is_none_or(|k| k >= Int::ZERO)
                        && !self.ref_reads.iter().any(|(b, j)| b == a && *j == i)
                    {
                        self.ref_reads.push((*a, i.clone()));
                    }
                    if let Some(c) = &mut self.capture {
                        c.push((*a, i.clone()));
                    }
                    alg.select(ty, &state.arrays[a.0 as usize], i)
                }
                Op::Unary(op, t) => alg.unary(*op, *t, pop(stack)),
                Op::Binary(op, t) => {
                    let (a, b) = pop2(stack);
                    alg.binary(*op, *t, a, b)
                }
                Op::Cmp(op, t) => {
                    let (a, b) = pop2(stack);
                    alg.compare(*op, *t, a, b)
                }
                Op::Cast(from, to) => alg.cast(*from, *to, pop(stack)),
                Op::Overflows(op, t) => {
                    let (a, b) = pop2(stack);
                    alg.overflows(*op, *t, a, b)
                }
                Op::NegOverflows(t) => alg.neg_overflows(*t, pop(stack)),
                Op::Not => alg.not(pop(stack)),
                Op::And => {
                    let (a, b) = pop2(stack);
                    alg.and(a, b)
                }
                Op::Or => {
                    let (a, b) = pop2(stack);
                    alg.or(a, b)
                }
                Op::Ite(t) => {
                    let e = pop(stack);
                    let th = pop(stack);
                    let c = pop(stack);
                    alg.ite(*t, c, th, e)
                }
                Op::FloatConst(t, bits) => alg.int(t.bits_ty(), bits),
                // A float is its pattern: the value stays, its type changes.
                Op::AsFloat(_) | Op::AsBits(_) => pop(stack),
                Op::Float(fop) => {
                    let n = stack.len() - fop.arity();
                    let v = alg.float(*fop, &stack[n..]);
                    stack.truncate(n);
                    v
                }
            };
            stack.push(v);
        }
        let v = pop(stack);
        debug_assert_eq!(stack.len(), base, "validated code leaves one value");
        stack.truncate(base);
        v
    }
}

/// Pops an operand. The IR is validated, so the stack never underflows.
fn pop<V>(stack: &mut Vec<V>) -> V {
    stack.pop().expect("validated code never underflows")
}

/// Pops the two operands of a binary operator: the right one is on top.
fn pop2<V>(stack: &mut Vec<V>) -> (V, V) {
    let b = pop(stack);
    (pop(stack), b)
}
