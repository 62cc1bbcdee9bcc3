//! Random programs in the full language, each with a specification that
//! bounds every input, so that enumeration decides reachability.
//!
//! Two modes:
//!
//! * *common*: small input ranges, everything goes: loops (nested, with
//!   constant bounds or bounded by an input), procedures (also bounded
//!   recursion with a fuel parameter), arrays with variable indices and
//!   input cells, reads `x = *` (also inside loops), negative division and
//!   remainder by values that may be zero, assertions, `assume`, `fail`;
//! * *rare*: large input ranges (thousands of points), a quiet program
//!   (no assertion, only nonzero constant divisors) with one or two rare
//!   bugs planted: an assertion that fails for one input (`assert not (x ==
//!   37 and y == -12)`), a failure behind arithmetic (`if x * 7 - y % 5 ==
//!   K then fail`), a division by `E - K`, an accumulation in a loop, a
//!   check inside a procedure. `K` is the value at a random point of the
//!   box (found by running the snippet on the concrete interpreter), or
//!   sometimes just outside the box (a near miss, so the program is safe).
//!
//! Inputs are never assigned, so a planted check over inputs means the
//! same anywhere, and an input can bound a loop.

use crate::program::{Bound, Co, Ex, Name, Proc, Program, Spec, St, ARRAY_REACH};
use fastrand::Rng;
use std::sync::Arc;
use wiser_num::Int;
use wiser_semantics::concrete::{self, Outcome};
use wiser_semantics::Input;
use wiser_syntax::ast::{ArithOp, CmpOp};

/// Sizes of the generated programs.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Most input points (product of the ranges) of a rare-bug program.
    pub rare_points: u64,
    /// Most input points of another program.
    pub common_points: u64,
    /// Most concrete runs a program should need (reads multiply them).
    pub max_runs: u64,
    /// Statements in the main program (before planted bugs).
    pub main_len: (usize, usize),
}

impl GenConfig {
    /// For release runs.
    pub fn standard() -> GenConfig {
        GenConfig {
            rare_points: 12_000,
            common_points: 400,
            max_runs: 30_000,
            main_len: (3, 9),
        }
    }

    /// Small and fast enough for debug-build tests.
    pub fn small() -> GenConfig {
        GenConfig {
            rare_points: 1_500,
            common_points: 100,
            max_runs: 3_000,
            main_len: (2, 6),
        }
    }
}

/// A per-program seed from the run's seed and the program's number.
fn mix(seed: u64, index: u64) -> u64 {
    // splitmix64 of the pair.
    let mut z = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(index)
        .wrapping_add(0x632B_E59B_D9B4_E019);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Program number `index` of the run with seed `seed` (deterministic).
pub fn generate(seed: u64, index: u64, cfg: &GenConfig) -> Program {
    Gen::new(mix(seed, index), cfg).program()
}

#[derive(Clone)]
struct Callee {
    name: Name,
    /// Recursive with a fuel parameter (the second argument).
    fuel: bool,
}

/// What a statement list may use.
#[derive(Clone)]
struct Scope {
    /// Readable scalars.
    read: Vec<Name>,
    /// Assignable scalars.
    write: Vec<Name>,
    /// Callable procedures.
    calls: Vec<Callee>,
    /// Read-only scalars with small ranges, usable as loop bounds.
    bounds: Vec<(Name, i64)>,
    /// Prefix of loop counters (`i` in main, `k` in procedures).
    counter: &'static str,
    depth: u32,
    loops: u32,
    /// Upper bound on how often this point runs per execution (product
    /// of the enclosing loops' bounds); `None` inside procedures, where
    /// reads are not generated.
    runs: Option<u64>,
}

struct Gen<'c> {
    rng: Rng,
    cfg: &'c GenConfig,
    /// Quiet mode: no assertions, no `fail`, no division by a variable.
    quiet: bool,
    inputs: Vec<(Name, i64, i64)>,
    arrays: Vec<Name>,
    /// How many more reads (weighted by `Scope::runs`) may be generated.
    read_budget: u64,
    fresh: u32,
}

fn name(s: &str) -> Name {
    Arc::from(s)
}

fn var(n: &Name) -> Ex {
    Ex::Var(n.clone())
}

fn bin(op: ArithOp, a: Ex, b: Ex) -> Ex {
    Ex::Bin(op, Box::new(a), Box::new(b))
}

fn eq(a: Ex, b: Ex) -> Co {
    Co::Cmp(CmpOp::Eq, a, b)
}

const CMP: [CmpOp; 6] = [
    CmpOp::Eq,
    CmpOp::Ne,
    CmpOp::Lt,
    CmpOp::Le,
    CmpOp::Gt,
    CmpOp::Ge,
];

impl<'c> Gen<'c> {
    fn new(seed: u64, cfg: &'c GenConfig) -> Self {
        Gen {
            rng: Rng::with_seed(seed),
            cfg,
            quiet: false,
            inputs: Vec::new(),
            arrays: Vec::new(),
            read_budget: 0,
            fresh: 0,
        }
    }

    fn pick<T: Clone>(&mut self, v: &[T]) -> T {
        v[self.rng.usize(0..v.len())].clone()
    }

    fn chance(&mut self, p: f64) -> bool {
        self.rng.f64() < p
    }

    fn small_const(&mut self) -> i64 {
        if self.chance(0.8) {
            self.rng.i64(-5..=5)
        } else {
            self.rng.i64(-20..=20)
        }
    }

    fn nonzero_const(&mut self) -> i64 {
        let k = self.rng.i64(1..=5);
        if self.rng.bool() {
            -k
        } else {
            k
        }
    }

    // -- expressions and conditions ---------------------------------------

    fn leaf(&mut self, sc: &Scope) -> Ex {
        if !sc.read.is_empty() && self.chance(0.6) {
            var(&self.pick(&sc.read))
        } else {
            Ex::Num(self.small_const())
        }
    }

    fn index(&mut self, sc: &Scope, depth: u32) -> Ex {
        match self.rng.u32(0..10) {
            0..=3 => Ex::Num(self.rng.i64(-ARRAY_REACH..=ARRAY_REACH)),
            4..=7 if !sc.read.is_empty() => var(&self.pick(&sc.read)),
            _ => self.expr(sc, depth.saturating_sub(1)),
        }
    }

    fn expr(&mut self, sc: &Scope, depth: u32) -> Ex {
        if depth == 0 || self.chance(0.35) {
            return self.leaf(sc);
        }
        match self.rng.u32(0..20) {
            0..=14 => {
                let op = match self.rng.u32(0..11) {
                    0..=2 => ArithOp::Add,
                    3..=5 => ArithOp::Sub,
                    6..=7 => ArithOp::Mul,
                    8..=9 => ArithOp::Div,
                    _ => ArithOp::Rem,
                };
                let lhs = self.expr(sc, depth - 1);
                let rhs = if matches!(op, ArithOp::Div | ArithOp::Rem)
                    && (self.quiet || self.chance(0.6))
                {
                    Ex::Num(self.nonzero_const())
                } else {
                    self.expr(sc, depth - 1)
                };
                bin(op, lhs, rhs)
            }
            15..=16 => Ex::Neg(Box::new(self.expr(sc, depth - 1))),
            _ if !self.arrays.is_empty() => {
                let a = self.pick(&self.arrays.clone());
                Ex::Elem(a, Box::new(self.index(sc, depth)))
            }
            _ => self.leaf(sc),
        }
    }

    fn cond(&mut self, sc: &Scope, depth: u32) -> Co {
        let r = self.rng.u32(0..20);
        match r {
            0..=8 if !sc.read.is_empty() => {
                let op = self.pick(&CMP);
                let v = var(&self.pick(&sc.read));
                Co::Cmp(op, v, Ex::Num(self.rng.i64(-4..=4)))
            }
            0..=15 => {
                let op = self.pick(&CMP);
                Co::Cmp(op, self.expr(sc, 2), self.expr(sc, 2))
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
    fn likely(&mut self, sc: &Scope) -> Co {
        match self.rng.u32(0..4) {
            0 | 1 => Co::Cmp(CmpOp::Ne, self.expr(sc, 2), self.expr(sc, 2)),
            2 => Co::Or(Box::new(self.cond(sc, 1)), Box::new(self.cond(sc, 1))),
            _ => self.cond(sc, 1),
        }
    }

    // -- statements ---------------------------------------------------------

    fn block(&mut self, sc: &Scope, lo: usize, hi: usize) -> Vec<St> {
        let n = self.rng.usize(lo..=hi);
        (0..n).map(|_| self.stmt(sc)).collect()
    }

    fn stmt(&mut self, sc: &Scope) -> St {
        loop {
            let r = self.rng.u32(0..30);
            match r {
                0..=8 if !sc.write.is_empty() => {
                    let v = self.pick(&sc.write);
                    return St::Assign(v, self.expr(sc, 3));
                }
                9..=10 if !self.arrays.is_empty() => {
                    let a = self.pick(&self.arrays.clone());
                    let i = self.index(sc, 2);
                    return St::Store(a, i, self.expr(sc, 2));
                }
                11..=16 if sc.depth < 3 => {
                    let inner = Scope {
                        depth: sc.depth + 1,
                        ..sc.clone()
                    };
                    let c = self.cond(sc, 1);
                    let a = self.block(&inner, 1, 3);
                    let b = self.block(&inner, 0, 2);
                    return St::If(c, a, b);
                }
                17..=19 if sc.depth < 3 && sc.loops < 2 => return self.loop_(sc),
                20..=21 if !self.quiet => return St::Assert(self.likely(sc)),
                22 => return St::Assume(self.likely(sc)),
                23 if !self.quiet => {
                    let c = self.cond(sc, 1);
                    return St::If(c, vec![St::Fail], vec![]);
                }
                24..=25
                    if !sc.write.is_empty() && sc.runs.is_some_and(|k| k <= self.read_budget) =>
                {
                    self.read_budget -= sc.runs.unwrap_or(0);
                    let v = self.pick(&sc.write);
                    return St::Havoc(v);
                }
                26..=28 if !sc.calls.is_empty() && !sc.write.is_empty() => {
                    let f = self.pick(&sc.calls);
                    let target = self.pick(&sc.write);
                    return self.call(sc, &f, target);
                }
                _ => {}
            }
        }
    }

    fn call(&mut self, sc: &Scope, f: &Callee, target: Name) -> St {
        let first = self.expr(sc, 2);
        let second = if f.fuel {
            // Fuel: a small constant or `v % 3` for a scalar `v`.
            if sc.read.is_empty() || self.chance(0.6) {
                Ex::Num(self.rng.i64(0..=3))
            } else {
                bin(ArithOp::Rem, var(&self.pick(&sc.read)), Ex::Num(3))
            }
        } else {
            self.expr(sc, 2)
        };
        St::Call(Some(target), f.name.clone(), vec![first, second])
    }

    fn loop_(&mut self, sc: &Scope) -> St {
        let counter = name(&format!("{}{}", sc.counter, sc.loops));
        let (bound, iterations) = if !sc.bounds.is_empty() && self.chance(0.3) {
            let (v, hi) = self.pick(&sc.bounds);
            (Bound::Var(v), hi.max(0) as u64)
        } else {
            let k = self.rng.i64(0..=3);
            (Bound::Const(k), k as u64)
        };
        let cond = self.chance(0.3).then(|| self.cond(sc, 1));
        let mut read = sc.read.clone();
        read.push(counter.clone());
        let inner = Scope {
            read,
            depth: sc.depth + 1,
            loops: sc.loops + 1,
            runs: sc.runs.map(|k| k * iterations.max(1)),
            ..sc.clone()
        };
        let body = self.block(&inner, 1, 3);
        St::Loop {
            counter,
            bound,
            cond,
            body,
        }
    }

    // -- procedures ---------------------------------------------------------

    /// `proc rec(n, k)`: recursion bounded by the fuel `k`.
    fn rec_proc(&mut self) -> Proc {
        let (n, k, m, r, s) = (name("n"), name("k"), name("m"), name("r"), name("s"));
        let base_scope = self.proc_scope(vec![n.clone()], vec![]);
        let mut body = vec![St::If(
            Co::Cmp(CmpOp::Le, var(&k), Ex::Num(0)),
            vec![St::Return(self.expr(&base_scope, 2))],
            vec![],
        )];
        let sc = self.proc_scope(vec![n.clone(), k.clone()], vec![]);
        body.push(St::Assign(m.clone(), self.expr(&sc, 2)));
        let sc = self.proc_scope(vec![n.clone(), k.clone(), m.clone()], vec![m.clone()]);
        body.extend(self.block(&sc, 0, 2));
        let fuel = bin(ArithOp::Sub, var(&k), Ex::Num(1));
        body.push(St::Call(
            Some(r.clone()),
            name("rec"),
            vec![self.expr(&sc, 2), fuel.clone()],
        ));
        if self.chance(0.3) {
            body.push(St::Call(
                Some(s.clone()),
                name("rec"),
                vec![self.expr(&sc, 2), fuel],
            ));
            body.push(St::Assign(r.clone(), bin(ArithOp::Add, var(&r), var(&s))));
        }
        let sc = self.proc_scope(vec![n, k, m.clone(), r.clone()], vec![m, r]);
        if !self.quiet && self.chance(0.5) {
            body.push(St::Assert(self.likely(&sc)));
        }
        body.extend(self.block(&sc, 0, 1));
        body.push(St::Return(self.expr(&sc, 2)));
        Proc {
            name: name("rec"),
            params: vec![name("n"), name("k")],
            body,
        }
    }

    /// `proc g(p, q)`: straight code, ifs and loops; may call `rec`.
    fn plain_proc(&mut self, calls: Vec<Callee>) -> Proc {
        let (p, q, l) = (name("p"), name("q"), name("l"));
        let sc = self.proc_scope(vec![p.clone(), q.clone()], vec![]);
        let mut body = vec![St::Assign(l.clone(), self.expr(&sc, 2))];
        let mut sc = self.proc_scope(vec![p.clone(), q.clone(), l.clone()], vec![p, q, l]);
        sc.calls = calls;
        sc.depth = 1;
        body.extend(self.block(&sc, 1, 4));
        if self.chance(0.3) {
            let at = self.rng.usize(0..=body.len().saturating_sub(1)) + 1;
            let c = self.cond(&sc, 1);
            let e = self.expr(&sc, 2);
            body.insert(at.min(body.len()), St::If(c, vec![St::Return(e)], vec![]));
        }
        body.push(St::Return(self.expr(&sc, 2)));
        Proc {
            name: name("g"),
            params: vec![name("p"), name("q")],
            body,
        }
    }

    fn proc_scope(&self, read: Vec<Name>, write: Vec<Name>) -> Scope {
        Scope {
            read,
            write,
            calls: Vec::new(),
            bounds: Vec::new(),
            counter: "j",
            depth: 1,
            loops: 0,
            runs: None,
        }
    }

    // -- planted rare bugs --------------------------------------------------

    fn fresh_local(&mut self) -> Name {
        self.fresh += 1;
        name(&format!("r{}", self.fresh))
    }

    /// A point of the box.
    fn point(&mut self) -> Vec<(Name, i64)> {
        let inputs = self.inputs.clone();
        inputs
            .iter()
            .map(|(n, lo, hi)| (n.clone(), self.rng.i64(*lo..=*hi)))
            .collect()
    }

    /// An expression over the inputs that mixes them well (few collisions).
    fn mixing(&mut self) -> Ex {
        let inputs = self.inputs.clone();
        let mut e = Ex::Num(self.rng.i64(-9..=9));
        for (n, _, _) in &inputs {
            let term = match self.rng.u32(0..6) {
                0 => var(n),
                1 => bin(ArithOp::Mul, var(n), Ex::Num(self.nonzero_const() * 3 + 1)),
                2 => bin(ArithOp::Mul, var(n), var(n)),
                3 => bin(ArithOp::Div, var(n), Ex::Num(self.nonzero_const())),
                4 => bin(ArithOp::Rem, var(n), Ex::Num(self.rng.i64(-97..=-7))),
                _ => bin(
                    ArithOp::Sub,
                    bin(ArithOp::Mul, var(n), Ex::Num(self.rng.i64(2..=13))),
                    Ex::Num(self.rng.i64(-50..=50)),
                ),
            };
            e = if self.rng.bool() {
                bin(ArithOp::Add, e, term)
            } else {
                bin(ArithOp::Sub, term, e)
            };
        }
        if inputs.len() >= 2 && self.chance(0.3) {
            let (a, b) = (inputs[0].0.clone(), inputs[1].0.clone());
            e = bin(ArithOp::Add, e, bin(ArithOp::Mul, var(&a), var(&b)));
        }
        e
    }

    /// The value of `probe` after `stmts; probe = e`, run with the inputs
    /// at `point`, on the concrete interpreter.
    fn value_at(&self, stmts: &[St], procs: &[Proc], e: &Ex, point: &[(Name, i64)]) -> Option<Int> {
        let mut main = stmts.to_vec();
        main.push(St::Assign(name("probe"), e.clone()));
        let p = Program {
            spec: Spec::default(),
            array_init: Vec::new(),
            procs: procs.to_vec(),
            main,
        };
        let ir = wiser_semantics::compile(&p.to_ast().to_string()).ok()?;
        let input = Input {
            vars: point
                .iter()
                .map(|(n, v)| (n.clone(), Int::from(*v)))
                .collect(),
            ..Input::default()
        };
        let run = concrete::run(&ir, &input, 100_000);
        if run.outcome != Outcome::Halted {
            return None;
        }
        run.final_store(&ir)
            .into_iter()
            .find(|(n, _)| &**n == "probe")
            .map(|(_, v)| v)
    }

    /// A value just outside the range of input `i`.
    fn outside(&mut self, i: usize) -> i64 {
        let (_, lo, hi) = self.inputs[i];
        if self.rng.bool() {
            hi + 1
        } else {
            lo - 1
        }
    }

    /// Rare bugs to plant: statements for main, and maybe a procedure.
    fn rare(&mut self, procs: &mut Vec<Proc>) -> Vec<St> {
        let near_miss = self.chance(0.15);
        let p = self.point();
        match self.rng.u32(0..6) {
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
                    let c = eq(var(n), Ex::Num(v));
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
            2 | 3 => {
                for _ in 0..5 {
                    let e = self.mixing();
                    let Some(k) = self.value_at(&[], &[], &e, &p) else {
                        continue;
                    };
                    let Some(k) = k.to_i64() else {
                        continue;
                    };
                    let k = if near_miss { k + 1_000_000 } else { k };
                    return match self.rng.u32(0..3) {
                        0 => vec![St::Assert(Co::Cmp(CmpOp::Ne, e, Ex::Num(k)))],
                        1 => vec![St::If(eq(e, Ex::Num(k)), vec![St::Fail], vec![])],
                        _ => {
                            let r = self.fresh_local();
                            let op = if self.rng.bool() {
                                ArithOp::Div
                            } else {
                                ArithOp::Rem
                            };
                            vec![St::Assign(
                                r,
                                bin(
                                    op,
                                    Ex::Num(self.rng.i64(-100..=100)),
                                    bin(ArithOp::Sub, e, Ex::Num(k)),
                                ),
                            )]
                        }
                    };
                }
                Vec::new()
            }
            // An accumulation in a loop.
            4 => {
                let r = self.fresh_local();
                let counter = name("i9");
                let sc = Scope {
                    read: self
                        .inputs
                        .iter()
                        .map(|(n, _, _)| n.clone())
                        .chain([counter.clone()])
                        .collect(),
                    write: vec![],
                    calls: vec![],
                    bounds: vec![],
                    counter: "i",
                    depth: 0,
                    loops: 0,
                    runs: None,
                };
                // No arrays and no division by a variable in the step, so
                // that the probe computes what the program will.
                let saved = (self.quiet, std::mem::take(&mut self.arrays));
                self.quiet = true;
                let step = self.expr(&sc, 2);
                (self.quiet, self.arrays) = saved;
                let mul = self.rng.i64(2..=7);
                let body = vec![St::Assign(
                    r.clone(),
                    bin(ArithOp::Add, bin(ArithOp::Mul, var(&r), Ex::Num(mul)), step),
                )];
                let snippet = vec![
                    St::Assign(r.clone(), self.mixing()),
                    St::Loop {
                        counter,
                        bound: Bound::Const(self.rng.i64(1..=4)),
                        cond: None,
                        body,
                    },
                ];
                let Some(k) = self
                    .value_at(&snippet, &[], &var(&r), &p)
                    .and_then(|k| k.to_i64())
                else {
                    return Vec::new();
                };
                let k = if near_miss { k + 1_000_000_007 } else { k };
                let mut out = snippet;
                out.push(St::Assert(Co::Cmp(CmpOp::Ne, var(&r), Ex::Num(k))));
                out
            }
            // A check inside a procedure.
            _ => {
                let (a, b) = (name("c1"), name("c2"));
                let saved = std::mem::take(&mut self.inputs);
                self.inputs = vec![(a.clone(), 0, 0), (b.clone(), 0, 0)];
                let e = self.mixing();
                self.inputs = saved;
                let x = p[0].clone();
                let (arg2, v2) = match p.get(1) {
                    Some((n, v)) => (var(n), *v),
                    None => {
                        let c = self.small_const();
                        (Ex::Num(c), c)
                    }
                };
                let env = [(a.clone(), x.1), (b.clone(), v2)];
                let Some(k) = self.value_at(&[], &[], &e, &env).and_then(|k| k.to_i64()) else {
                    return Vec::new();
                };
                let k = if near_miss { k + 1_000_003 } else { k };
                let f = name(&format!("chk{}", procs.len()));
                let v = name("v");
                procs.push(Proc {
                    name: f.clone(),
                    params: vec![a, b],
                    body: vec![
                        St::Assign(v.clone(), e),
                        St::If(eq(var(&v), Ex::Num(k)), vec![St::Fail], vec![]),
                        St::Return(var(&v)),
                    ],
                });
                let r = self.fresh_local();
                vec![St::Call(Some(r), f, vec![var(&x.0), arg2])]
            }
        }
    }

    // -- whole programs -----------------------------------------------------

    /// Ranges for `n` inputs with about `points` points in all.
    fn boxes(&mut self, n: usize, points: u64) -> Vec<(Name, i64, i64)> {
        let side = ((points as f64).powf(1.0 / n as f64).floor() as i64).max(2);
        ["x", "y", "z"][..n]
            .iter()
            .map(|v| {
                let side = self.rng.i64((side / 2).max(2)..=side);
                let below = self.rng.i64(side / 4..=(3 * side / 4).max(side / 4));
                (name(v), -below, side - 1 - below)
            })
            .collect()
    }

    fn program(mut self) -> Program {
        let rare_mode = self.chance(0.4);
        // Some programs of the common mode are quiet too: most of them are
        // safe.
        self.quiet = rare_mode || self.chance(0.25);
        let n = self.rng.usize(1..=3);
        let points = if rare_mode {
            self.rng
                .u64(self.cfg.rare_points / 3..=self.cfg.rare_points)
        } else {
            self.rng.u64(6..=self.cfg.common_points)
        };
        self.inputs = self.boxes(n, points);
        let mut spec = Spec {
            inputs: self.inputs.clone(),
            cells: Vec::new(),
            reads: match self.rng.u32(0..3) {
                0 => (-1, 1),
                1 => (-2, 2),
                _ => (0, 2),
            },
        };
        // Arrays and their input cells.
        if self.chance(0.5) {
            self.arrays.push(name("a"));
            if self.chance(0.2) {
                self.arrays.push(name("b"));
            }
        }
        let mut points = spec.points();
        for a in self.arrays.clone() {
            if !rare_mode && self.chance(0.4) && points * 5 <= self.cfg.common_points * 2 {
                let i = self.rng.i64(-ARRAY_REACH..=ARRAY_REACH);
                spec.cells.push((a, i, -2, 2));
                points *= 5;
            }
        }
        // Reads: as many as the run budget allows (none in rare mode if the
        // box is already large).
        let per_read = (spec.reads.1 - spec.reads.0 + 1) as u64;
        let mut budget = 0;
        let mut runs = points * per_read;
        while runs <= self.cfg.max_runs && budget < 4 {
            budget += 1;
            runs *= per_read;
        }
        self.read_budget = budget;

        let inputs: Vec<Name> = self.inputs.iter().map(|(n, _, _)| n.clone()).collect();
        let locals: Vec<Name> = ["t", "u", "w"].iter().map(|s| name(s)).collect();
        let mut procs = Vec::new();
        let mut calls = Vec::new();
        if self.chance(0.3) {
            procs.push(self.rec_proc());
            calls.push(Callee {
                name: name("rec"),
                fuel: true,
            });
        }
        if self.chance(0.35) {
            let g = self.plain_proc(calls.clone());
            procs.push(g);
            calls.push(Callee {
                name: name("g"),
                fuel: false,
            });
        }
        let top = Scope {
            read: inputs.iter().chain(&locals).cloned().collect(),
            write: locals.clone(),
            calls: calls.clone(),
            bounds: self
                .inputs
                .iter()
                .filter(|(_, lo, hi)| *lo >= -8 && *hi <= 5)
                .map(|(n, _, hi)| (n.clone(), *hi))
                .collect(),
            counter: "i",
            depth: 0,
            loops: 0,
            runs: Some(1),
        };
        let init_scope = Scope {
            read: inputs.clone(),
            ..top.clone()
        };
        let mut main: Vec<St> = locals
            .iter()
            .map(|l| St::Assign(l.clone(), self.expr(&init_scope, 2)))
            .collect();
        let (lo, hi) = self.cfg.main_len;
        main.extend(self.block(&top, lo, hi));
        // Make sure the procedures are called.
        for f in &calls {
            let used = main
                .iter()
                .any(|s| matches!(s, St::Call(_, g, _) if g == &f.name));
            if !used || self.chance(0.3) {
                let target = self.pick(&locals);
                let at = self.rng.usize(locals.len()..=main.len());
                let c = self.call(&top, f, target);
                main.insert(at, c);
            }
        }
        // Planted rare bugs.
        let plant = if rare_mode {
            self.rng.usize(1..=2)
        } else {
            usize::from(self.chance(0.2))
        };
        for _ in 0..plant {
            let stmts = self.rare(&mut procs);
            let at = self.rng.usize(locals.len()..=main.len());
            for (k, s) in stmts.into_iter().enumerate() {
                main.insert(at + k, s);
            }
        }
        // Arrays: every element in reach is initialised, except the cells.
        let mut array_init = Vec::new();
        for a in &self.arrays {
            for i in -ARRAY_REACH..=ARRAY_REACH {
                if !spec.cells.iter().any(|(b, j, _, _)| b == a && *j == i) {
                    array_init.push((a.clone(), i, self.rng.i64(-5..=5)));
                }
            }
        }
        let mut p = Program {
            spec,
            array_init,
            procs,
            main,
        };
        prune(&mut p);
        p
    }
}

/// Drops arrays (initialisation and cells) that no statement uses, and
/// inputs that nothing reads but their `assume`.
pub fn prune(p: &mut Program) {
    let mut arrays: Vec<Name> = p.array_init.iter().map(|(a, _, _)| a.clone()).collect();
    arrays.extend(p.spec.cells.iter().map(|(a, ..)| a.clone()));
    arrays.dedup();
    for a in arrays {
        if !p.mentions(&a) {
            p.array_init.retain(|(b, _, _)| b != &a);
            p.spec.cells.retain(|(b, ..)| b != &a);
        }
    }
    let unused: Vec<Name> = p
        .spec
        .inputs
        .iter()
        .filter(|(n, _, _)| !p.mentions(n))
        .map(|(n, _, _)| n.clone())
        .collect();
    p.spec.inputs.retain(|(n, _, _)| !unused.contains(n));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_compiling() {
        let cfg = GenConfig::small();
        for i in 0..40 {
            let a = generate(7, i, &cfg);
            let b = generate(7, i, &cfg);
            assert_eq!(a, b);
            let src = a.source();
            if let Err(d) = wiser_semantics::compile(&src) {
                panic!("{}\n{src}", d.message);
            }
        }
    }
}
