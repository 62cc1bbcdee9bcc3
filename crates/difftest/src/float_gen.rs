//! Random float programs for the float mode (`--features float`): a few
//! `f32`/`f64` inputs (and sometimes an `i32` one), read in order, then
//! guards (`assume x == x`, ranges), declarations, assignments, `if`s on
//! float conditions, `assume`s and `assert`s over `+ - * /`, unary `-`,
//! conversions between the float types and `i32` (a float → `i32`
//! conversion can fail with `float_conversion`), comparisons (a NaN test
//! `x != x` among them) and, in C only, `fabs`, `sqrt`, `fmin`, `fmax`,
//! `floor`, `ceil`, `trunc`, `round` and `copysign`; some assertions are
//! laws that hold but for NaN or infinities (`e + v == v + e`), so that
//! guarded programs are safe. The programs are [`FloatProgram`]s
//! (`float_program.rs`), re-exported here.

pub use crate::float_program::*;
use wiser_num::FloatTy;
use wiser_testkit::Xorshift;

/// Literals of both types: small and simple values, the `i32` range's
/// edges, large and tiny magnitudes.
const LITS: [&str; 18] = [
    "0.0",
    "-0.0",
    "1.0",
    "-1.0",
    "0.5",
    "2.0",
    "-2.5",
    "3.0",
    "0.1",
    "10.0",
    "100.0",
    "-1e10",
    "1e-10",
    "2147483647.0",
    "2147483648.0",
    "-2147483648.0",
    "-2147483649.0",
    "1e30",
];

/// Literals of one type only (near its limits).
fn lits_of(t: FloatTy) -> &'static [&'static str] {
    match t {
        FloatTy::F32 => &["3.4028235e38", "1.17549435e-38", "1e-45", "1e-40"],
        FloatTy::F64 => &["1e300", "-1.7976931348623157e308", "4.9e-324", "1e-310"],
    }
}

const INTS: [i32; 8] = [0, 1, -1, 2, 7, -100, 16777217, i32::MAX];

/// The generator's state for one program.
struct Gen {
    rng: Xorshift,
    vars: Vec<(String, Ty)>,
    locals: usize,
    math: bool,
}

impl Gen {
    fn chance(&mut self, percent: u64) -> bool {
        self.rng.below(100) < percent
    }

    fn float_ty(&mut self) -> FloatTy {
        if self.chance(50) {
            FloatTy::F32
        } else {
            FloatTy::F64
        }
    }

    /// The type of a float variable in scope (mostly), or either.
    fn scope_ty(&mut self) -> FloatTy {
        let fs: Vec<FloatTy> = self
            .vars
            .iter()
            .filter_map(|(_, t)| match t {
                Ty::F(f) => Some(*f),
                Ty::I32 => None,
            })
            .collect();
        if fs.is_empty() || self.chance(10) {
            self.float_ty()
        } else {
            fs[self.rng.index(fs.len())]
        }
    }

    fn var_of(&mut self, t: Ty) -> Option<FExpr> {
        let vs: Vec<&(String, Ty)> = self.vars.iter().filter(|(_, vt)| *vt == t).collect();
        if vs.is_empty() {
            return None;
        }
        let (n, t) = vs[self.rng.index(vs.len())];
        Some(FExpr::Var(n.clone(), *t))
    }

    fn lit(&mut self, t: FloatTy) -> FExpr {
        let own = lits_of(t);
        let k = self.rng.index(LITS.len() + own.len());
        let s = if k < LITS.len() {
            LITS[k]
        } else {
            own[k - LITS.len()]
        };
        FExpr::Lit(s, t)
    }

    /// A float expression of type `t`, at most `depth` operations deep,
    /// not a constant unless `const_ok`.
    fn float(&mut self, t: FloatTy, depth: u32, const_ok: bool) -> FExpr {
        let leaf = depth == 0 || self.chance(30);
        if leaf {
            if const_ok && self.chance(35) {
                return self.lit(t);
            }
            if let Some(v) = self.var_of(Ty::F(t)) {
                return v;
            }
            // No variable of this type: convert one of the other.
            if let Some(v) = self
                .var_of(Ty::F(other(t)))
                .or_else(|| self.var_of(Ty::I32))
            {
                return FExpr::Conv(Ty::F(t), Box::new(v));
            }
            return self.lit(t);
        }
        match self.rng.below(if self.math { 10 } else { 8 }) {
            0..=3 => {
                // `*` and `/` are the solver's slow operations (the more
                // so in `f64`): fewer of them.
                let ops: &[char] = match t {
                    FloatTy::F32 => &['+', '-', '+', '-', '*', '/'],
                    FloatTy::F64 => &['+', '-', '+', '-', '+', '-', '*', '/'],
                };
                let op = ops[self.rng.index(ops.len())];
                let a = self.float(t, depth - 1, true);
                let b = self.float(t, depth - 1, !a.is_const());
                if self.chance(50) {
                    FExpr::Bin(op, Box::new(a), Box::new(b))
                } else {
                    FExpr::Bin(op, Box::new(b), Box::new(a))
                }
            }
            4 => FExpr::Neg(Box::new(self.float(t, depth - 1, const_ok))),
            5 => {
                let a = self.float(other(t), depth - 1, false);
                FExpr::Conv(Ty::F(t), Box::new(a))
            }
            6 => {
                let a = self.int(depth - 1, false);
                FExpr::Conv(Ty::F(t), Box::new(a))
            }
            7 => self.float(t, depth - 1, const_ok),
            _ => {
                let m = MATH[self.rng.index(MATH.len())];
                let a = self.float(t, depth - 1, false);
                let mut args = vec![a];
                if m.arity() == 2 {
                    args.push(self.float(t, depth - 1, true));
                    if self.chance(50) {
                        args.reverse();
                    }
                }
                FExpr::Call(m, args)
            }
        }
    }

    /// An `i32` expression: a variable, a literal (if `const_ok`) or a
    /// float converted.
    fn int(&mut self, depth: u32, const_ok: bool) -> FExpr {
        if const_ok && self.chance(40) {
            return FExpr::Int(INTS[self.rng.index(INTS.len())]);
        }
        if depth == 0 || self.chance(30) {
            if let Some(v) = self.var_of(Ty::I32) {
                return v;
            }
        }
        let t = self.scope_ty();
        let a = self.float(t, depth.saturating_sub(1), false);
        FExpr::Conv(Ty::I32, Box::new(a))
    }

    fn cond(&mut self) -> Cond {
        const OPS: [&str; 6] = ["==", "!=", "<", "<=", ">", ">="];
        let op = OPS[self.rng.index(OPS.len())];
        let k = self.rng.below(10);
        if k == 0 {
            // A NaN test.
            let t = self.scope_ty();
            if let Some(v) = self.var_of(Ty::F(t)) {
                let op = if self.chance(50) { "!=" } else { "==" };
                return Cond {
                    op,
                    a: v.clone(),
                    b: v,
                };
            }
        }
        if k <= 2 {
            let a = self.int(1, false);
            let b = self.int(1, true);
            return Cond { op, a, b };
        }
        let t = self.scope_ty();
        let d = self.depth();
        let a = self.float(t, d, false);
        let b = self.float(t, 1, true);
        Cond { op, a, b }
    }

    /// An expression's depth: mostly 1.
    fn depth(&mut self) -> u32 {
        if self.chance(75) {
            1
        } else {
            2
        }
    }

    /// An assertion that holds for every number (NaN aside, or infinities
    /// too), so that guarded programs are safe: `e + v == v + e`,
    /// `-(-(e)) == e`, `e * 1.0 == e`, `e - e == 0.0`, `e + 0.0 == e`,
    /// `e <= e`, `fabs(e) >= 0.0` (C), `T(U(v)) == v` through the wider
    /// type.
    fn law(&mut self) -> Cond {
        let t = self.scope_ty();
        let e = self.float(t, 1, false);
        let v = self.float(t, 0, false);
        let b = |e: &FExpr| Box::new(e.clone());
        let k = self.rng.below(if self.math { 8 } else { 7 });
        let (op, a, rhs) = match k {
            0 => (
                "==",
                FExpr::Bin('+', b(&e), b(&v)),
                FExpr::Bin('+', b(&v), b(&e)),
            ),
            1 => ("==", FExpr::Neg(Box::new(FExpr::Neg(b(&e)))), e),
            2 => (
                "==",
                FExpr::Bin('*', b(&e), Box::new(FExpr::Lit("1.0", t))),
                e,
            ),
            3 => ("==", FExpr::Bin('-', b(&e), b(&e)), FExpr::Lit("0.0", t)),
            4 => (
                "==",
                FExpr::Bin('+', b(&e), Box::new(FExpr::Lit("0.0", t))),
                e,
            ),
            5 => ("<=", e.clone(), e),
            6 if t == FloatTy::F32 => (
                "==",
                FExpr::Conv(
                    Ty::F(FloatTy::F32),
                    Box::new(FExpr::Conv(Ty::F(FloatTy::F64), b(&v))),
                ),
                v,
            ),
            6 => (
                "==",
                FExpr::Bin('*', b(&e), Box::new(FExpr::Lit("2.0", t))),
                FExpr::Bin('+', b(&e), b(&e)),
            ),
            _ => (">=", FExpr::Call(Math::Fabs, vec![e]), FExpr::Lit("0.0", t)),
        };
        Cond { op, a, b: rhs }
    }

    /// Guards on the inputs: `assume x == x` (not a NaN), or a range
    /// `lo <= x <= hi` (which excludes NaN too).
    fn guards(&mut self) -> Vec<FStmt> {
        const BOUNDS: [&str; 7] = ["-100.0", "-10.0", "-1.0", "0.0", "0.5", "2.0", "1e10"];
        let mut out = Vec::new();
        for (n, t) in self.vars.clone() {
            let Ty::F(f) = t else { continue };
            let v = FExpr::Var(n, t);
            match self.rng.below(3) {
                0 => {}
                1 => out.push(FStmt::Assume(Cond {
                    op: "==",
                    a: v.clone(),
                    b: v,
                })),
                _ => {
                    let i = self.rng.index(BOUNDS.len() - 1);
                    let j = i + 1 + self.rng.index(BOUNDS.len() - 1 - i);
                    out.push(FStmt::Assume(Cond {
                        op: ">=",
                        a: v.clone(),
                        b: FExpr::Lit(BOUNDS[i], f),
                    }));
                    out.push(FStmt::Assume(Cond {
                        op: "<=",
                        a: v,
                        b: FExpr::Lit(BOUNDS[j], f),
                    }));
                }
            }
        }
        out
    }

    fn stmts(&mut self, n: usize, depth: u32) -> Vec<FStmt> {
        (0..n).map(|_| self.stmt(depth)).collect()
    }

    fn stmt(&mut self, depth: u32) -> FStmt {
        match self.rng.below(10) {
            0..=1 if depth == 0 && self.locals < 3 => {
                let name = format!("t{}", self.locals);
                self.locals += 1;
                let ty = if self.chance(20) {
                    Ty::I32
                } else {
                    Ty::F(self.float_ty())
                };
                let d = self.depth();
                let e = match ty {
                    Ty::F(t) => self.float(t, d, true),
                    Ty::I32 => self.int(d, false),
                };
                self.vars.push((name.clone(), ty));
                FStmt::Decl(name, ty, e)
            }
            0..=3 => {
                let (n, ty) = self.vars[self.rng.index(self.vars.len())].clone();
                let d = self.depth();
                let e = match ty {
                    Ty::F(t) => self.float(t, d, true),
                    Ty::I32 => self.int(d, false),
                };
                FStmt::Assign(n, e)
            }
            4..=5 if depth < 1 => {
                let c = self.cond();
                let n = 1 + self.rng.index(2);
                let a = self.stmts(n, depth + 1);
                let n = self.rng.index(2);
                let b = self.stmts(n, depth + 1);
                FStmt::If(c, a, b)
            }
            6 => FStmt::Assume(self.cond()),
            7 | 8 => FStmt::Assert(self.law()),
            _ => FStmt::Assert(self.cond()),
        }
    }
}

fn other(t: FloatTy) -> FloatTy {
    match t {
        FloatTy::F32 => FloatTy::F64,
        FloatTy::F64 => FloatTy::F32,
    }
}

/// Program `index` of the float run with `seed`; `math`: with `math.h`
/// calls (for C).
pub fn generate_float(seed: u64, index: u64, math: bool) -> FloatProgram {
    let mix = seed
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .wrapping_add(index.wrapping_mul(0xbf58_476d_1ce4_e5b9))
        ^ 0x5851_f42d_4c95_7f2d;
    let mut g = Gen {
        rng: Xorshift(mix | 1),
        vars: Vec::new(),
        locals: 0,
        math,
    };
    for _ in 0..4 {
        g.rng.next();
    }
    let same = g.chance(60);
    let first = g.float_ty();
    let n = 1 + g.rng.index(2);
    for i in 0..n {
        let t = if same { first } else { g.float_ty() };
        g.vars.push((format!("x{i}"), Ty::F(t)));
    }
    if g.chance(15) {
        g.vars.push(("n".to_string(), Ty::I32));
    }
    let inputs = g.vars.clone();
    let mut body = g.guards();
    let count = 1 + g.rng.index(3);
    body.extend(g.stmts(count, 0));
    if !body.iter().any(|s| matches!(s, FStmt::Assert(_))) {
        let c = if g.chance(50) { g.law() } else { g.cond() };
        body.push(FStmt::Assert(c));
    }
    FloatProgram { inputs, body }
}
