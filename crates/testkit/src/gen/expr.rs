//! Typed expressions and conditions.
//!
//! [`Gen::expr`] makes an expression that can go where a `want` is
//! expected: of that type, of a type that converts to it losslessly, or a
//! literal that fits it. Operands are made for the operation's type and
//! then checked against the typing rules ([`crate::typing`]); an operand
//! that does not agree is cast, which is always well-typed. In programs
//! with machine integers an operation on literals alone gets a cast too,
//! so that no literal expression changes type with its context (its
//! operation could then overflow where the generator did not expect it).

use super::{Gen, Scope};
use crate::program::{Co, Env, Ex, ARRAY_REACH};
use crate::typing::{self, accepts, comparable, type_of};
use wiser_num::{BinOp, CmpOp, IntTy, UnOp};

fn bin(op: BinOp, a: Ex, b: Ex) -> Ex {
    Ex::Bin(op, Box::new(a), Box::new(b))
}

fn cast(ty: IntTy, e: Ex) -> Ex {
    Ex::Cast(ty, Box::new(e))
}

impl Gen<'_> {
    pub(super) fn env<'a>(&'a self, sc: &'a Scope) -> Env<'a> {
        Env {
            vars: &sc.env,
            arrays: &self.arrays,
        }
    }

    /// `e` where a `want` is expected: as it is if the rules allow, else
    /// cast.
    fn fit(&self, sc: &Scope, e: Ex, want: IntTy) -> Ex {
        let env = self.env(sc);
        if let Err(why) = type_of(&e, &env) {
            panic!("generator bug: ill-typed subexpression ({why}): {e:?}");
        }
        let literal = matches!(e, Ex::Num(_))
            || matches!(&e, Ex::Un(UnOp::Neg, a) if matches!(**a, Ex::Num(_)));
        let open_op = self.typed && !literal && matches!(type_of(&e, &env), Ok(None));
        if accepts(&e, &env, want) && !open_op && !typing::open_bitwise(&e, &env) {
            e
        } else {
            cast(want, e)
        }
    }

    /// An expression that can go where a `want` is expected.
    pub(super) fn expr(&mut self, sc: &Scope, want: IntTy, depth: u32) -> Ex {
        let e = self.expr_inner(sc, want, depth);
        self.fit(sc, e, want)
    }

    /// A scalar that can go where a `want` is expected, or a cast of one.
    fn var_of(&mut self, sc: &Scope, want: IntTy) -> Ex {
        let exact: Vec<_> = sc.read.iter().filter(|(_, t)| *t == want).collect();
        let wider: Vec<_> = sc
            .read
            .iter()
            .filter(|(_, t)| t.is_lossless_to(want))
            .collect();
        let pool = if !exact.is_empty() && (wider.len() == exact.len() || self.chance(0.6)) {
            exact
        } else {
            wider
        };
        if !pool.is_empty() && (self.chance(0.8) || !self.typed) {
            let (n, _) = pool[self.rng.usize(0..pool.len())].clone();
            return Ex::Var(n);
        }
        let (n, _) = sc.read[self.rng.usize(0..sc.read.len())].clone();
        cast(want, Ex::Var(n))
    }

    fn leaf(&mut self, sc: &Scope, want: IntTy) -> Ex {
        if !sc.read.is_empty() && self.chance(0.6) {
            self.var_of(sc, want)
        } else {
            Ex::Num(self.literal(want))
        }
    }

    /// A subscript: any integer type.
    pub(super) fn index(&mut self, sc: &Scope, depth: u32) -> Ex {
        match self.rng.u32(0..10) {
            0..=3 => Ex::Num(i128::from(self.rng.i64(-ARRAY_REACH..=ARRAY_REACH))),
            4..=7 if !sc.read.is_empty() => {
                let (n, _) = self.pick(&sc.read);
                Ex::Var(n)
            }
            _ => {
                let ty = self.pick_ty();
                self.expr(sc, ty, depth.saturating_sub(1))
            }
        }
    }

    fn expr_inner(&mut self, sc: &Scope, want: IntTy, depth: u32) -> Ex {
        if depth == 0 || self.chance(0.35) {
            return self.leaf(sc, want);
        }
        // Sometimes compute at another type; the result is then converted
        // (implicitly when lossless, else by a cast).
        let at = if self.typed && self.chance(0.3) {
            self.pick_ty()
        } else {
            want
        };
        let fixed = !at.is_unbounded();
        match self.rng.u32(0..24) {
            0..=13 => {
                let op = match self.rng.u32(0..11) {
                    0..=2 => BinOp::Add,
                    3..=5 => BinOp::Sub,
                    6..=7 => BinOp::Mul,
                    8..=9 => BinOp::Div,
                    _ => BinOp::Rem,
                };
                self.arith(sc, op, at, depth)
            }
            14..=15 => {
                let at = self.safe_unary_ty(UnOp::Neg, at);
                let a = self.expr(sc, at, depth - 1);
                self.unary(sc, UnOp::Neg, a, at)
            }
            16..=17 if self.typed && fixed => {
                let op = self.pick(&[BinOp::BitAnd, BinOp::BitOr, BinOp::BitXor]);
                let (a, b) = (self.expr(sc, at, depth - 1), self.expr(sc, at, depth - 1));
                self.combine(sc, op, a, b, at)
            }
            18 if self.typed && fixed => {
                let a = self.expr(sc, at, depth - 1);
                self.unary(sc, UnOp::BitNot, a, at)
            }
            19..=20 if self.typed && fixed => {
                let op = if self.rng.bool() {
                    BinOp::Shl
                } else {
                    BinOp::Shr
                };
                self.shift(sc, op, at, depth)
            }
            21 if self.typed => {
                let from = self.pick_ty();
                let a = self.expr(sc, from, depth - 1);
                cast(want, a)
            }
            _ if !self.arrays.is_empty() => {
                let (a, _) = self.pick(&self.arrays.clone());
                Ex::Elem(a, Box::new(self.index(sc, depth)))
            }
            _ => self.leaf(sc, want),
        }
    }

    /// `a op b` at about `at` (`op` arithmetic or bitwise).
    fn arith(&mut self, sc: &Scope, op: BinOp, at: IntTy, depth: u32) -> Ex {
        let at = self.safe_ty(op, at);
        let lhs = self.expr(sc, at, depth - 1);
        let division = matches!(op, BinOp::Div | BinOp::Rem);
        let rhs = if division && (self.quiet || self.chance(0.6)) {
            Ex::Num(self.divisor(at))
        } else if op == BinOp::Mul && self.typed && self.chance(0.7) {
            // Products of variables on bit-vectors soon make queries the
            // solver cannot decide: most factors are constants.
            Ex::Num(self.literal(at))
        } else {
            self.expr(sc, at, depth - 1)
        };
        self.combine(sc, op, lhs, rhs, at)
    }

    /// `op a` at `at`, with a cast where the operand is a literal
    /// expression or the rules require one.
    fn unary(&mut self, sc: &Scope, op: UnOp, a: Ex, at: IntTy) -> Ex {
        let env = self.env(sc);
        let e = Ex::Un(op, Box::new(a.clone()));
        let ok = match type_of(&e, &env) {
            Ok(Some(t)) => t.is_lossless_to(at) && !(self.quiet && self.risky_unary(op, t)),
            Ok(None) => !self.typed && op == UnOp::Neg,
            Err(_) => false,
        };
        if ok {
            e
        } else {
            Ex::Un(op, Box::new(cast(at, a)))
        }
    }

    fn risky_unary(&self, op: UnOp, ty: IntTy) -> bool {
        op == UnOp::Neg && self.may_overflow(BinOp::Sub, ty)
    }

    /// `a op b` at `at` (not a shift): as is if well-typed with a type
    /// that converts to `at` (and, in quiet mode, cannot overflow), else
    /// with `b`, then both, cast to `at`.
    pub(super) fn combine(&self, sc: &Scope, op: BinOp, a: Ex, b: Ex, at: IntTy) -> Ex {
        let env = self.env(sc);
        let ok = |e: &Ex| match type_of(e, &env) {
            Ok(Some(t)) => t.is_lossless_to(at) && !(self.quiet && self.may_overflow(op, t)),
            Ok(None) => !self.typed,
            Err(_) => false,
        };
        let e = bin(op, a.clone(), b.clone());
        if ok(&e) {
            return e;
        }
        let e = bin(op, a.clone(), cast(at, b.clone()));
        if ok(&e) {
            return e;
        }
        bin(op, cast(at, a), cast(at, b))
    }

    /// `a << n` or `a >> n` with `a` at `at` (fixed-width): the amount is
    /// a constant in range in quiet mode, else often an expression of any
    /// type (out of range for some inputs), sometimes a constant out of
    /// range.
    fn shift(&mut self, sc: &Scope, op: BinOp, at: IntTy, depth: u32) -> Ex {
        let at = self.safe_ty(op, at);
        let mut a = self.expr(sc, at, depth - 1);
        let env = self.env(sc);
        let ta = match type_of(&a, &env) {
            Ok(Some(t)) if !(t.is_unbounded() || self.quiet && self.may_overflow(op, t)) => t,
            _ => {
                a = cast(at, a);
                at
            }
        };
        let width = i128::from(ta.width().expect("fixed"));
        let amount = if self.quiet || self.chance(0.4) {
            Ex::Num(self.rng.i64(0..width as i64).into())
        } else if self.chance(0.1) {
            Ex::Num(if self.rng.bool() { width } else { -1 })
        } else {
            let ty = self.pick_ty();
            self.expr(sc, ty, depth - 1)
        };
        bin(op, a, amount)
    }

    // -- conditions ---------------------------------------------------------

    /// The type to compare at: that of a random readable variable, or any.
    fn cmp_ty(&mut self, sc: &Scope) -> IntTy {
        if !self.typed {
            IntTy::INT
        } else if !sc.read.is_empty() && self.chance(0.6) {
            self.pick(&sc.read).1
        } else {
            self.pick_ty()
        }
    }

    /// `a op b` made well-typed by casts to `ty` where needed.
    fn compare(&self, sc: &Scope, op: CmpOp, a: Ex, b: Ex, ty: IntTy) -> Co {
        let env = self.env(sc);
        if comparable(&a, &b, &env) {
            return Co::Cmp(op, a, b);
        }
        let b = cast(ty, b);
        if comparable(&a, &b, &env) {
            return Co::Cmp(op, a, b);
        }
        Co::Cmp(op, cast(ty, a), b)
    }

    pub(super) fn cond(&mut self, sc: &Scope, depth: u32) -> Co {
        let r = self.rng.u32(0..20);
        match r {
            0..=8 if !sc.read.is_empty() => {
                let op = self.pick(&CmpOp::ALL);
                let (v, ty) = self.pick(&sc.read);
                let k = i128::from(self.rng.i64(-4..=4));
                let k = match crate::domain::type_bounds(ty) {
                    Some((lo, hi)) => k.clamp(lo, hi),
                    None => k,
                };
                Co::Cmp(op, Ex::Var(v), Ex::Num(k))
            }
            0..=15 => {
                let op = self.pick(&CmpOp::ALL);
                let ty = self.cmp_ty(sc);
                let (a, b) = (self.expr(sc, ty, 2), self.expr(sc, ty, 2));
                self.compare(sc, op, a, b, ty)
            }
            16 => Co::Bool(self.rng.bool()),
            _ if depth > 0 => match self.rng.u32(0..5) {
                0 => Co::Not(Box::new(self.cond(sc, depth - 1))),
                1 | 2 => Co::And(
                    Box::new(self.cond(sc, depth - 1)),
                    Box::new(self.cond(sc, depth - 1)),
                ),
                _ => Co::Or(
                    Box::new(self.cond(sc, depth - 1)),
                    Box::new(self.cond(sc, depth - 1)),
                ),
            },
            _ => Co::Bool(true),
        }
    }

    /// A condition that usually holds (for assertions and assumptions).
    pub(super) fn likely(&mut self, sc: &Scope) -> Co {
        match self.rng.u32(0..4) {
            0 | 1 => {
                let ty = self.cmp_ty(sc);
                let (a, b) = (self.expr(sc, ty, 2), self.expr(sc, ty, 2));
                self.compare(sc, CmpOp::Ne, a, b, ty)
            }
            2 => Co::Or(Box::new(self.cond(sc, 1)), Box::new(self.cond(sc, 1))),
            _ => self.cond(sc, 1),
        }
    }
}
