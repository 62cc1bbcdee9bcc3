//! Planted rare bugs: checks that fail at one point of a large box (or
//! near one), found by running the snippet at a random point on the
//! concrete interpreter.

use super::{make_proc, name, Gen, Scope};
use crate::domain::{from_int, to_int, type_bounds};
use crate::program::{Bound, Co, Ex, Proc, Program, St};
use crate::spec::Spec;
use crate::Name;
use wiser_num::{BinOp, CmpOp, IntTy, UnOp};
use wiser_semantics::concrete::{self, Outcome};
use wiser_semantics::Input;

fn var(n: &Name) -> Ex {
    Ex::Var(n.clone())
}

fn num(v: i128) -> Ex {
    Ex::Num(v)
}

fn bin(op: BinOp, a: Ex, b: Ex) -> Ex {
    Ex::Bin(op, Box::new(a), Box::new(b))
}

fn cast(ty: IntTy, e: Ex) -> Ex {
    Ex::Cast(ty, Box::new(e))
}

fn eq(a: Ex, b: Ex) -> Co {
    Co::Cmp(CmpOp::Eq, a, b)
}

/// `v` wrapped into `ty`.
fn wrap(v: i128, ty: IntTy) -> i128 {
    match type_bounds(ty) {
        None => v,
        Some((lo, hi)) => lo + (v - lo).rem_euclid(hi - lo + 1),
    }
}

/// The signed type of width `w`.
fn signed(w: u32) -> IntTy {
    IntTy::fixed(w, true).expect("a width")
}

impl Gen<'_> {
    /// A type for an expression that mixes the inputs: `int`, or (with
    /// machine integers) an unsigned type, whose arithmetic wraps.
    fn mixing_ty(&mut self) -> IntTy {
        if self.cfg.c_compatible || self.typed && self.chance(0.6) {
            self.pick(&[IntTy::U8, IntTy::U16, IntTy::U32, IntTy::U64])
        } else {
            IntTy::INT
        }
    }

    /// An expression of type `ty` over `inputs` that mixes them well (few
    /// collisions), and cannot fail.
    fn mixing(&mut self, inputs: &[(Name, IntTy)], ty: IntTy) -> Ex {
        let of = |n: &Name, t: IntTy| if t == ty { var(n) } else { cast(ty, var(n)) };
        let Some((_, max)) = type_bounds(ty) else {
            let mut e = num(i128::from(self.rng.i64(-9..=9)));
            for (n, t) in inputs {
                let v = of(n, *t);
                let term = match self.rng.u32(0..6) {
                    0 => v,
                    1 => bin(BinOp::Mul, v, num(self.nonzero() * 3 + 1)),
                    2 => bin(BinOp::Mul, v.clone(), v),
                    3 => bin(BinOp::Div, v, num(self.nonzero())),
                    4 => bin(BinOp::Rem, v, num(i128::from(self.rng.i64(-97..=-7)))),
                    _ => bin(
                        BinOp::Sub,
                        bin(BinOp::Mul, v, num(i128::from(self.rng.i64(2..=13)))),
                        num(i128::from(self.rng.i64(-50..=50))),
                    ),
                };
                e = if self.rng.bool() {
                    bin(BinOp::Add, e, term)
                } else {
                    bin(BinOp::Sub, term, e)
                };
            }
            if inputs.len() >= 2 && self.chance(0.3) {
                let (a, b) = (of(&inputs[0].0, inputs[0].1), of(&inputs[1].0, inputs[1].1));
                e = bin(BinOp::Add, e, bin(BinOp::Mul, a, b));
            }
            return e;
        };
        // Unsigned: multiplications by large odd constants, shifts and
        // xors, as in a hash; everything wraps, nothing fails.
        let width = i128::from(ty.width().expect("fixed"));
        let mut e = cast(ty, num(self.rng.u64(..) as i128 & max));
        for (n, t) in inputs {
            let v = of(n, *t);
            let odd = (self.rng.u64(..) as i128 & max) | 1;
            let term = match self.rng.u32(0..7) {
                0 => v,
                1 => bin(BinOp::Mul, v, num(odd)),
                // A square is hard for the solver on wide bit-vectors.
                2 if width <= 16 => bin(BinOp::Mul, v.clone(), v),
                2 | 3 => bin(BinOp::Div, v, num(i128::from(self.rng.i64(1..=7)))),
                4 => bin(BinOp::BitXor, v.clone(), bin(BinOp::Shr, v, num(width / 2))),
                5 => bin(BinOp::Shl, v, num(i128::from(self.rng.i64(1..=3)))),
                _ => Ex::Un(UnOp::BitNot, Box::new(bin(BinOp::Mul, v, num(odd)))),
            };
            let op = self.pick(&[BinOp::Add, BinOp::Sub, BinOp::BitXor]);
            e = bin(op, e, term);
        }
        e
    }

    fn nonzero(&mut self) -> i128 {
        let k = i128::from(self.rng.i64(1..=5));
        if self.rng.bool() {
            -k
        } else {
            k
        }
    }

    /// The value of `probe` (of type `ty`) after `stmts; probe = e`, run
    /// with the inputs at `point`, on the concrete interpreter.
    fn value_at(
        &self,
        stmts: &[St],
        procs: &[Proc],
        e: &Ex,
        ty: IntTy,
        point: &[(Name, i128)],
    ) -> Option<i128> {
        let mut main = stmts.to_vec();
        let probe = name("probe");
        main.push(St::Assign(probe.clone(), e.clone()));
        let mut types = self.types.clone();
        if !ty.is_unbounded() {
            types.push((probe, ty));
        }
        let p = Program {
            spec: Spec {
                wrap_signed: self.wrap,
                ..Spec::default()
            },
            types,
            array_types: Vec::new(),
            array_init: Vec::new(),
            procs: procs.to_vec(),
            main,
        };
        let src = p.to_ast().to_string();
        let ir = match wiser_imp::compile(&src) {
            Ok(ir) => ir,
            Err(d) => panic!(
                "generator bug: a planted snippet does not compile: {}\n{src}",
                d.message
            ),
        };
        let input = Input {
            vars: point.iter().map(|(n, v)| (n.clone(), to_int(*v))).collect(),
            ..Input::default()
        };
        let run = concrete::run_with(&ir, &input, 100_000, p.spec.options());
        if run.outcome != Outcome::Halted {
            return None;
        }
        run.final_store(&ir)
            .into_iter()
            .find(|(n, _)| &**n == "probe")
            .and_then(|(_, v)| from_int(&v))
    }

    fn input_vars(&self) -> Vec<(Name, IntTy)> {
        self.inputs
            .iter()
            .map(|(n, t, _)| (n.clone(), *t))
            .collect()
    }

    /// Rare bugs to plant: statements for main, and maybe a procedure.
    pub(super) fn rare(&mut self, procs: &mut Vec<Proc>) -> Vec<St> {
        let near_miss = self.chance(0.15);
        let p = self.point();
        let kinds = if self.typed { 8 } else { 6 };
        match self.rng.u32(0..kinds) {
            // One input point: `assert not (x == A and y == B)`.
            0 | 1 => {
                let mut conj: Option<Co> = None;
                let miss_at = self.rng.usize(0..p.len());
                for (i, (n, v)) in p.iter().enumerate() {
                    let v = if near_miss && i == miss_at {
                        self.outside(i)
                    } else {
                        *v
                    };
                    let c = eq(var(n), num(v));
                    conj = Some(match conj {
                        None => c,
                        Some(prev) => Co::And(Box::new(prev), Box::new(c)),
                    });
                }
                let c = conj.expect("at least one input");
                if self.rng.bool() {
                    vec![St::Assert(Co::Not(Box::new(c)))]
                } else {
                    vec![St::If(c, vec![St::Fail], vec![])]
                }
            }
            // Behind arithmetic: `assert E != K` or a division by `E - K`.
            2 | 3 => self.behind_arithmetic(&p, near_miss),
            // An accumulation in a loop (in `int`: not in C-compatible
            // programs, which get another check behind arithmetic).
            4 if self.cfg.c_compatible => self.behind_arithmetic(&p, near_miss),
            4 => self.accumulation(&p, near_miss),
            // A check inside a procedure.
            5 => self.checked_call(&p, near_miss, procs),
            // A machine-integer error exactly when `E == K`.
            _ => self.machine_error(&p, near_miss),
        }
    }

    /// Behind arithmetic: `assert E != K`, `if E == K then fail`, or a
    /// division by `E - K`.
    fn behind_arithmetic(&mut self, p: &[(Name, i128)], near_miss: bool) -> Vec<St> {
        let inputs = self.input_vars();
        for _ in 0..5 {
            let ty = self.mixing_ty();
            let e = self.mixing(&inputs, ty);
            let Some(k) = self.value_at(&[], &[], &e, ty, p) else {
                continue;
            };
            let k = wrap(if near_miss { k + 1_000_003 } else { k }, ty);
            return match self.rng.u32(0..3) {
                0 => vec![St::Assert(Co::Cmp(CmpOp::Ne, e, num(k)))],
                1 => vec![St::If(eq(e, num(k)), vec![St::Fail], vec![])],
                _ => {
                    let r = self.fresh_local(ty);
                    let op = if self.rng.bool() {
                        BinOp::Div
                    } else {
                        BinOp::Rem
                    };
                    let c = i128::from(self.rng.i64(-100..=100));
                    let c = if ty.is_unbounded() { c } else { c.abs() };
                    vec![St::Assign(r, bin(op, num(c), bin(BinOp::Sub, e, num(k))))]
                }
            };
        }
        Vec::new()
    }

    /// `r = E; loop: r = r * c + step; assert r != K`, all in `int`.
    fn accumulation(&mut self, p: &[(Name, i128)], near_miss: bool) -> Vec<St> {
        let r = self.fresh_local(IntTy::INT);
        let counter = name("i9");
        let mut read = self.input_vars();
        read.push((counter.clone(), IntTy::INT));
        let mut sc = Scope::new(read, vec![]);
        sc.counter = "i";
        sc.depth = 0;
        // No arrays and no division by a variable in the step, so that the
        // probe computes what the program will.
        let saved = (self.quiet, std::mem::take(&mut self.arrays));
        self.quiet = true;
        let step = self.expr(&sc, IntTy::INT, 2);
        (self.quiet, self.arrays) = saved;
        let mul = i128::from(self.rng.i64(2..=7));
        let body = vec![St::Assign(
            r.clone(),
            bin(BinOp::Add, bin(BinOp::Mul, var(&r), num(mul)), step),
        )];
        let inputs = self.input_vars();
        let snippet = vec![
            St::Assign(r.clone(), self.mixing(&inputs, IntTy::INT)),
            St::Loop {
                counter,
                bound: Bound::Const(self.rng.i64(1..=4)),
                cond: None,
                body,
            },
        ];
        let Some(k) = self.value_at(&snippet, &[], &var(&r), IntTy::INT, p) else {
            return Vec::new();
        };
        let k = if near_miss { k + 1_000_000_007 } else { k };
        let mut out = snippet;
        out.push(St::Assert(Co::Cmp(CmpOp::Ne, var(&r), num(k))));
        out
    }

    /// `r = chkN(x, y)` where `chkN` fails when a mix of its parameters
    /// is `K`.
    fn checked_call(
        &mut self,
        p: &[(Name, i128)],
        near_miss: bool,
        procs: &mut Vec<Proc>,
    ) -> Vec<St> {
        let (a, b) = (name("c1"), name("c2"));
        let inputs = self.input_vars();
        let (x, tx) = inputs[0].clone();
        let (arg2, ty2, v2) = match inputs.get(1) {
            Some((n, t)) => (var(n), *t, p[1].1),
            None => {
                let c = self.small_const();
                (num(c), self.counter_ty(), c)
            }
        };
        let params = vec![(a.clone(), tx), (b.clone(), ty2)];
        let ty = self.mixing_ty();
        let e = self.mixing(&params, ty);
        // The probe runs the mix in the main program, on inputs named
        // after the parameters.
        let saved = std::mem::replace(&mut self.types, params.clone());
        let env = [(a, p[0].1), (b, v2)];
        let k = self.value_at(&[], &[], &e, ty, &env);
        self.types = saved;
        let Some(k) = k else {
            return Vec::new();
        };
        let k = wrap(if near_miss { k + 1_000_003 } else { k }, ty);
        let f = format!("chk{}", procs.len());
        let v = name("v");
        let locals = [(v.clone(), ty)];
        procs.push(make_proc(
            &f,
            params,
            ty,
            &locals,
            vec![
                St::Assign(v.clone(), e),
                St::If(eq(var(&v), num(k)), vec![St::Fail], vec![]),
                St::Return(var(&v)),
            ],
        ));
        let r = self.fresh_local(ty);
        vec![St::Call(Some(r), name(&f), vec![var(&x), arg2])]
    }

    /// `u = E - K` (unsigned, `W` bits), `z = ((u | -u) >> (W - 1)) ^ 1`,
    /// which is 1 exactly when `E == K`, then an operation that fails
    /// exactly when `z == 1`: a signed overflow, `MIN / -1`, a division by
    /// zero, or a shift by the width.
    fn machine_error(&mut self, p: &[(Name, i128)], near_miss: bool) -> Vec<St> {
        let inputs = self.input_vars();
        let ty = self.pick(&[IntTy::U8, IntTy::U16, IntTy::U32, IntTy::U64]);
        let e = self.mixing(&inputs, ty);
        let Some(k) = self.value_at(&[], &[], &e, ty, p) else {
            return Vec::new();
        };
        let k = wrap(if near_miss { k + 1_000_003 } else { k }, ty);
        let w = i128::from(ty.width().expect("fixed"));
        let u = self.fresh_local(ty);
        let z = self.fresh_local(ty);
        let neg_u = Ex::Un(UnOp::Neg, Box::new(var(&u)));
        let is_zero = bin(
            BinOp::BitXor,
            bin(BinOp::Shr, bin(BinOp::BitOr, var(&u), neg_u), num(w - 1)),
            num(1),
        );
        let mut out = vec![
            St::Assign(u.clone(), bin(BinOp::Sub, e, num(k))),
            St::Assign(z.clone(), is_zero),
        ];
        let v = self.pick(&[8u32, 16, 32, 64]);
        let (sv, uv) = (signed(v), IntTy::fixed(v, false).expect("a width"));
        let (min, max) = type_bounds(sv).expect("fixed");
        let zs = cast(sv, var(&z));
        let choice = if self.wrap {
            // Signed overflow wraps: plant another kind.
            self.rng.u32(3..8)
        } else {
            self.rng.u32(0..8)
        };
        let (target_ty, value) = match choice {
            // Signed overflow: MAX + 1, MIN - 1, 1 << (V - 1).
            0 => (sv, bin(BinOp::Add, zs, num(max))),
            1 => (sv, bin(BinOp::Sub, cast(sv, num(min)), zs)),
            2 => (sv, bin(BinOp::Shl, zs, num(i128::from(v) - 1))),
            // MIN / -1 (or %).
            3 | 4 => {
                let op = if choice == 3 { BinOp::Div } else { BinOp::Rem };
                let divisor = bin(BinOp::Sub, num(1), bin(BinOp::Mul, zs, num(2)));
                (sv, bin(op, cast(sv, num(min)), divisor))
            }
            // Division by zero.
            5 => (
                ty,
                bin(
                    BinOp::Div,
                    num(i128::from(self.rng.i64(1..=100))),
                    bin(BinOp::Sub, num(1), var(&z)),
                ),
            ),
            // A shift by the width (or by -1, signed).
            6 => (
                uv,
                bin(
                    BinOp::Shl,
                    cast(uv, num(i128::from(self.rng.i64(1..=9)))),
                    bin(BinOp::Mul, var(&z), num(i128::from(v))),
                ),
            ),
            _ => {
                let amount = Ex::Un(UnOp::Neg, Box::new(zs));
                (uv, bin(BinOp::Shr, cast(uv, num(max)), amount))
            }
        };
        let r = self.fresh_local(target_ty);
        out.push(St::Assign(r, value));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps() {
        assert_eq!(wrap(256, IntTy::U8), 0);
        assert_eq!(wrap(-1, IntTy::U8), 255);
        assert_eq!(wrap(128, IntTy::I8), -128);
        assert_eq!(wrap(7, IntTy::INT), 7);
    }
}
