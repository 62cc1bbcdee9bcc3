//! Random programs in the full language, each with a specification that
//! bounds every input, so that enumeration decides reachability.
//!
//! A share of the programs ([`GenConfig::typed_share`]) use machine
//! integers: inputs, locals, parameters, results and array elements of
//! every width and signedness mixed with `int`, casts between all of them,
//! every arithmetic, bitwise and shift operator, comparisons at signed and
//! unsigned types, typed reads; some of them run with wrapping signed
//! arithmetic ([`GenConfig::wrap_share`]). Inputs of a fixed-width type
//! range over short intervals at the interesting places of the type (0,
//! ±1, MIN, MAX, half of MAX, where sums wrap), or over all of it for
//! narrow types. Programs are well-typed by construction
//! ([`crate::typing`] mirrors the rules); one that does not compile is a
//! generator bug.
//!
//! Two modes:
//!
//! * *common*: small input domains, everything goes: loops (nested, with
//!   constant bounds or bounded by an input), procedures (also bounded
//!   recursion with a fuel parameter), arrays with variable indices and
//!   input cells, reads `x = *` (also inside loops), negative division and
//!   remainder by values that may be zero (or -1 under `MIN`), signed
//!   arithmetic at the edges of its type, shifts by amounts that may be
//!   out of range, assertions, `assume`, `fail`;
//! * *rare*: large input domains (thousands of points), a quiet program
//!   (no assertion, no operation that can fail but division by constants
//!   that are neither 0 nor -1; signed arithmetic only where it wraps)
//!   with one or two rare bugs planted: an assertion that fails for one
//!   input, a failure behind arithmetic (`if E == K then fail`), a
//!   division by `E - K`, an accumulation in a loop, a check inside a
//!   procedure, and with machine integers a signed overflow, a `MIN / -1`,
//!   a division by zero or a shift out of range that happens exactly when
//!   `E == K` (through a branch-free zero test on bit-vectors). `K` is the
//!   value at a random point of the box (found by running the snippet on
//!   the concrete interpreter), or sometimes a value elsewhere (a near
//!   miss, so the program is likely safe).
//!
//! Inputs are never assigned, so a planted check over inputs means the
//! same anywhere, and an input can bound a loop.

mod expr;
mod inputs;
mod rare;
mod stmt;

use crate::domain::Domain;
use crate::program::{prune, Proc, Program, St, ARRAY_REACH};
use crate::spec::Spec;
use crate::Name;
use fastrand::Rng;
use std::sync::Arc;
use wiser_num::{BinOp, IntTy, UnOp};

/// Sizes of the generated programs.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Most input points (product of the domains) of a rare-bug program.
    pub rare_points: u64,
    /// Most input points of another program.
    pub common_points: u64,
    /// Most concrete runs a program should need (reads multiply them).
    pub max_runs: u64,
    /// Statements in the main program (before planted bugs).
    pub main_len: (usize, usize),
    /// Deepest nesting of `if`s and loops.
    pub max_depth: u32,
    /// Deepest nesting of loops.
    pub max_loops: u32,
    /// The share of programs that use machine integers.
    pub typed_share: f64,
    /// The share of those that run with wrapping signed arithmetic.
    pub wrap_share: f64,
    /// Only fixed-width types (no `int` anywhere: loop counters and fuel
    /// parameters are `i32`), so that the program has a C rendering
    /// ([`crate::render_c`]). Implies machine integers.
    pub c_compatible: bool,
}

impl GenConfig {
    /// For release runs.
    pub fn standard() -> GenConfig {
        GenConfig {
            rare_points: 12_000,
            common_points: 400,
            max_runs: 30_000,
            main_len: (3, 9),
            max_depth: 3,
            max_loops: 2,
            typed_share: 0.5,
            wrap_share: 0.25,
            c_compatible: false,
        }
    }

    /// Small and fast enough for debug-build tests.
    pub fn small() -> GenConfig {
        GenConfig {
            rare_points: 1_500,
            common_points: 100,
            max_runs: 3_000,
            main_len: (2, 6),
            max_depth: 3,
            max_loops: 2,
            typed_share: 0.5,
            wrap_share: 0.25,
            c_compatible: false,
        }
    }

    /// Smaller still: for tests that also compare every final state of
    /// the symbolic search with every run.
    pub fn tiny() -> GenConfig {
        GenConfig {
            rare_points: 400,
            common_points: 60,
            max_runs: 400,
            main_len: (2, 5),
            max_depth: 2,
            max_loops: 1,
            typed_share: 0.5,
            wrap_share: 0.25,
            c_compatible: false,
        }
    }

    /// The same sizes with every program of one kind: machine integers
    /// (`true`) or unbounded integers only.
    pub fn only(mut self, typed: bool) -> GenConfig {
        self.typed_share = if typed { 1.0 } else { 0.0 };
        self
    }

    /// The same sizes with only fixed-width types, for C
    /// ([`GenConfig::c_compatible`]).
    pub fn for_c(mut self) -> GenConfig {
        self.typed_share = 1.0;
        self.c_compatible = true;
        self
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

/// A procedure a statement may call.
#[derive(Clone)]
struct Callee {
    name: Name,
    /// Recursive with a fuel parameter (the second argument).
    fuel: bool,
    params: Vec<IntTy>,
    ret: IntTy,
}

impl Callee {
    /// How a statement calls `proc` (`fuel`: it is recursive, its second
    /// parameter the fuel).
    fn of(proc: &Proc, fuel: bool) -> Callee {
        Callee {
            name: proc.name.clone(),
            fuel,
            params: proc.params.iter().map(|(_, t)| *t).collect(),
            ret: proc.ret,
        }
    }
}

/// What a statement list may use.
#[derive(Clone)]
struct Scope {
    /// Readable scalars.
    read: Vec<(Name, IntTy)>,
    /// Assignable scalars.
    write: Vec<(Name, IntTy)>,
    /// The types of all the routine's scalars (for typing).
    env: Vec<(Name, IntTy)>,
    /// Callable procedures.
    calls: Vec<Callee>,
    /// Read-only scalars with small domains, usable as loop bounds.
    bounds: Vec<(Name, i64)>,
    /// Prefix of loop counters (`i` in main, `j` in procedures).
    counter: &'static str,
    depth: u32,
    loops: u32,
    /// Upper bound on how often this point runs per execution (product
    /// of the enclosing loops' bounds); `None` inside procedures, where
    /// reads are not generated.
    runs: Option<u64>,
}

impl Scope {
    fn new(read: Vec<(Name, IntTy)>, write: Vec<(Name, IntTy)>) -> Scope {
        let mut env = read.clone();
        env.extend(write.iter().cloned());
        Scope {
            read,
            write,
            env,
            calls: Vec::new(),
            bounds: Vec::new(),
            counter: "j",
            depth: 1,
            loops: 0,
            runs: None,
        }
    }
}

struct Gen<'c> {
    rng: Rng,
    cfg: &'c GenConfig,
    /// Machine integers in this program.
    typed: bool,
    /// Signed arithmetic wraps.
    wrap: bool,
    /// Quiet mode: nothing can fail but planted bugs.
    quiet: bool,
    /// Input scalars, their types and domains.
    inputs: Vec<(Name, IntTy, Domain)>,
    /// Arrays and their element types.
    arrays: Vec<(Name, IntTy)>,
    /// Main-program scalars of fixed-width types.
    types: Vec<(Name, IntTy)>,
    /// The specification being built (its read domains are used while
    /// generating: planted snippets run with them).
    spec: Spec,
    /// How many more reads (weighted by `Scope::runs`) may be generated.
    read_budget: u64,
    fresh: u32,
}

fn name(s: &str) -> Name {
    Arc::from(s)
}

/// The fixed-width types: every type a program can name but `int`.
fn fixed() -> &'static [IntTy] {
    &IntTy::NAMED[1..]
}

/// The unsigned type of `ty`'s width (`ty` itself if unbounded).
fn unsigned(ty: IntTy) -> IntTy {
    ty.width()
        .and_then(|w| IntTy::fixed(w, false))
        .unwrap_or(ty)
}

impl<'c> Gen<'c> {
    fn new(seed: u64, cfg: &'c GenConfig) -> Self {
        Gen {
            rng: Rng::with_seed(seed),
            cfg,
            typed: false,
            wrap: false,
            quiet: false,
            inputs: Vec::new(),
            arrays: Vec::new(),
            types: Vec::new(),
            spec: Spec::default(),
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

    /// A type for a new variable: `int` in programs without machine
    /// integers, else `int` a quarter of the time and any fixed-width type
    /// otherwise.
    fn pick_ty(&mut self) -> IntTy {
        if self.cfg.c_compatible {
            return self.pick(fixed());
        }
        if !self.typed || self.chance(0.25) {
            IntTy::INT
        } else {
            self.pick(fixed())
        }
    }

    /// The type of loop counters and fuel parameters: `int`, or `i32` in
    /// C-compatible programs.
    fn counter_ty(&self) -> IntTy {
        if self.cfg.c_compatible {
            IntTy::I32
        } else {
            IntTy::INT
        }
    }

    /// Can `op` at `ty` fail on some operands (other than by a zero or -1
    /// divisor, or a shift amount, which the generator controls)?
    fn may_overflow(&self, op: BinOp, ty: IntTy) -> bool {
        ty.is_signed()
            && !ty.is_unbounded()
            && !self.wrap
            && matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl)
    }

    /// The type to compute `op` at when `want` is wanted: in quiet mode an
    /// operation that may overflow is done unsigned instead.
    fn safe_ty(&self, op: BinOp, want: IntTy) -> IntTy {
        if self.quiet && self.may_overflow(op, want) {
            unsigned(want)
        } else {
            want
        }
    }

    /// [`Gen::safe_ty`] for unary operators.
    fn safe_unary_ty(&self, op: UnOp, want: IntTy) -> IntTy {
        match op {
            UnOp::Neg => self.safe_ty(BinOp::Sub, want),
            UnOp::BitNot => want,
        }
    }

    /// A fresh local of the main program, of type `ty`.
    fn fresh_local(&mut self, ty: IntTy) -> Name {
        self.fresh += 1;
        let n = name(&format!("r{}", self.fresh));
        if !ty.is_unbounded() {
            self.types.push((n.clone(), ty));
        }
        n
    }

    // -- whole programs -----------------------------------------------------

    fn program(mut self) -> Program {
        self.typed = self.chance(self.cfg.typed_share) || self.cfg.c_compatible;
        self.wrap = self.typed && self.chance(self.cfg.wrap_share);
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
        for (n, ty, _) in self.inputs.clone() {
            if !ty.is_unbounded() {
                self.types.push((n, ty));
            }
        }
        let locals: Vec<(Name, IntTy)> = ["t", "u", "w"]
            .iter()
            .map(|s| (name(s), self.pick_ty()))
            .collect();
        for (n, ty) in &locals {
            if !ty.is_unbounded() {
                self.types.push((n.clone(), *ty));
            }
        }
        self.spec = Spec {
            inputs: self
                .inputs
                .iter()
                .map(|(n, _, d)| (n.clone(), d.clone()))
                .collect(),
            cells: Vec::new(),
            reads: match self.rng.u32(0..3) {
                0 => Domain::range(-1, 1),
                1 => Domain::range(-2, 2),
                _ => Domain::range(0, 2),
            },
            typed_reads: Vec::new(),
            wrap_signed: self.wrap,
        };
        let mut read_types: Vec<IntTy> = locals
            .iter()
            .map(|(_, t)| *t)
            .filter(|t| !t.is_unbounded())
            .collect();
        read_types.sort();
        read_types.dedup();
        for ty in read_types {
            let d = self.read_domain(ty);
            self.spec.typed_reads.push((ty, d));
        }
        // Arrays and their input cells.
        if self.chance(0.5) {
            let ty = self.pick_ty();
            self.arrays.push((name("a"), ty));
            if self.chance(0.2) {
                let ty = self.pick_ty();
                self.arrays.push((name("b"), ty));
            }
        }
        let mut points = self.spec.points();
        for (a, ty) in self.arrays.clone() {
            if !rare_mode && self.chance(0.4) && points * 5 <= self.cfg.common_points * 2 {
                let i = self.rng.i64(-ARRAY_REACH..=ARRAY_REACH);
                let d = self.cell_domain(ty);
                points *= d.len();
                self.spec.cells.push((a, i, d));
            }
        }
        // Reads: as many as the run budget allows (none in rare mode if the
        // box is already large).
        let per_read = self.spec.widest_read().max(1);
        let mut budget = 0;
        let mut runs = points.saturating_mul(per_read);
        while runs <= self.cfg.max_runs && budget < 4 {
            budget += 1;
            runs = runs.saturating_mul(per_read);
        }
        self.read_budget = budget;

        let inputs: Vec<(Name, IntTy)> = self
            .inputs
            .iter()
            .map(|(n, t, _)| (n.clone(), *t))
            .collect();
        let mut procs = Vec::new();
        let mut calls = Vec::new();
        if self.chance(0.3) {
            let (p, c) = self.rec_proc();
            procs.push(p);
            calls.push(c);
        }
        if self.chance(0.35) {
            let (g, c) = self.plain_proc(calls.clone());
            procs.push(g);
            calls.push(c);
        }
        let mut top = Scope::new(
            inputs.iter().chain(&locals).cloned().collect(),
            locals.clone(),
        );
        top.calls = calls.clone();
        top.bounds = self
            .inputs
            .iter()
            .filter_map(|(n, _, d)| {
                let (lo, hi) = (d.min()?, d.max()?);
                (lo >= -8 && hi <= 5).then(|| (n.clone(), hi as i64))
            })
            .collect();
        if self.cfg.c_compatible {
            // `i < x` must be well-typed with an `i32` counter.
            let types = self.types.clone();
            let counter = self.counter_ty();
            top.bounds.retain(|(n, _)| {
                let t = crate::program::lookup(&types, n);
                t.is_lossless_to(counter) || counter.is_lossless_to(t)
            });
        }
        top.counter = "i";
        top.depth = 0;
        top.runs = Some(1);
        let init_scope = Scope {
            read: inputs.clone(),
            ..top.clone()
        };
        let mut main: Vec<St> = Vec::new();
        for (l, ty) in &locals {
            let e = self.expr(&init_scope, *ty, 2);
            main.push(St::Assign(l.clone(), e));
        }
        let (lo, hi) = self.cfg.main_len;
        main.extend(self.block(&top, lo, hi));
        // Make sure the procedures are called.
        for f in &calls {
            let used = main
                .iter()
                .any(|s| matches!(s, St::Call(_, g, _) if g == &f.name));
            if !used || self.chance(0.3) {
                let target = self.call_target(&top, f.ret);
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
        for (a, ty) in self.arrays.clone() {
            for i in -ARRAY_REACH..=ARRAY_REACH {
                if !self.spec.cells.iter().any(|(b, j, _)| *b == a && *j == i) {
                    let v = self.literal(ty);
                    array_init.push((a.clone(), i, v));
                }
            }
        }
        let array_types = self
            .arrays
            .iter()
            .filter(|(_, t)| !t.is_unbounded())
            .cloned()
            .collect();
        if self.cfg.c_compatible {
            // Loop counters are declared, like every other variable.
            let counter = self.counter_ty();
            for c in loop_counters(&main) {
                if !self.types.iter().any(|(n, _)| *n == c) {
                    self.types.push((c, counter));
                }
            }
            for p in &mut procs {
                for c in loop_counters(&p.body) {
                    if !p.locals.iter().any(|(n, _)| *n == c) {
                        p.locals.push((c, counter));
                    }
                }
            }
        }
        let mut p = Program {
            spec: self.spec,
            types: self.types,
            array_types,
            array_init,
            procs,
            main,
        };
        prune(&mut p);
        p
    }

    /// A main-program variable to store a result of type `ret` in: a local
    /// that takes it without a cast, or a fresh one of that type.
    fn call_target(&mut self, sc: &Scope, ret: IntTy) -> Name {
        let fits: Vec<Name> = sc
            .write
            .iter()
            .filter(|(_, t)| ret.is_lossless_to(*t))
            .map(|(n, _)| n.clone())
            .collect();
        if fits.is_empty() {
            self.fresh_local(ret)
        } else {
            self.pick(&fits)
        }
    }
}

/// The counters of the loops in `ss` (nested ones too), each once.
fn loop_counters(ss: &[St]) -> Vec<Name> {
    let mut out: Vec<Name> = Vec::new();
    fn walk(ss: &[St], out: &mut Vec<Name>) {
        for s in ss {
            match s {
                St::Loop { counter, body, .. } => {
                    if !out.contains(counter) {
                        out.push(counter.clone());
                    }
                    walk(body, out);
                }
                St::If(_, a, b) => {
                    walk(a, out);
                    walk(b, out);
                }
                _ => {}
            }
        }
    }
    walk(ss, &mut out);
    out
}

/// A procedure's locals of fixed-width types, for [`Proc::locals`].
fn fixed_locals(locals: &[(Name, IntTy)]) -> Vec<(Name, IntTy)> {
    locals
        .iter()
        .filter(|(_, t)| !t.is_unbounded())
        .cloned()
        .collect()
}

/// A procedure with its typed parameters and locals.
fn make_proc(
    name: &str,
    params: Vec<(Name, IntTy)>,
    ret: IntTy,
    locals: &[(Name, IntTy)],
    body: Vec<St>,
) -> Proc {
    Proc {
        name: Arc::from(name),
        params,
        ret,
        locals: fixed_locals(locals),
        body,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fixed_types_are_the_eight_machine_types() {
        assert_eq!(fixed().len(), 8);
        assert!(fixed().iter().all(|t| !t.is_unbounded()));
    }

    /// Every program compiles, and the same seed gives the same program.
    #[test]
    fn deterministic_and_compiling() {
        for cfg in [GenConfig::small(), GenConfig::tiny().only(true)] {
            for i in 0..150 {
                let a = generate(7, i, &cfg);
                let b = generate(7, i, &cfg);
                assert_eq!(a, b);
                let src = a.source();
                if let Err(e) = crate::compile(&src, &a.spec) {
                    panic!("program {i}: {e}\n{src}");
                }
            }
        }
    }

    /// C-compatible programs compile, and no variable, array, parameter or
    /// result is an `int`.
    #[test]
    fn c_compatible_programs_have_no_int() {
        let cfg = GenConfig::small().for_c();
        for i in 0..150 {
            let p = generate(5, i, &cfg);
            let src = p.source();
            if let Err(e) = crate::compile(&src, &p.spec) {
                panic!("program {i}: {e}\n{src}");
            }
            let mut names = Vec::new();
            crate::program::walk_block(&p.main, &mut |n| names.push(n.clone()));
            for n in &names {
                let known = p.types.iter().chain(&p.array_types).any(|(m, _)| m == n)
                    || p.procs.iter().any(|f| f.name == *n);
                assert!(known, "program {i}: `{n}` has no fixed-width type\n{src}");
            }
            for f in &p.procs {
                assert!(!f.ret.is_unbounded(), "program {i}\n{src}");
                let mut names = Vec::new();
                crate::program::walk_block(&f.body, &mut |n| names.push(n.clone()));
                for n in &names {
                    let known = f
                        .params
                        .iter()
                        .chain(&f.locals)
                        .any(|(m, t)| m == n && !t.is_unbounded())
                        || p.array_types.iter().any(|(m, _)| m == n)
                        || p.procs.iter().any(|g| g.name == *n);
                    assert!(
                        known,
                        "program {i}: `{n}` in {} has no fixed-width type\n{src}",
                        f.name
                    );
                }
            }
        }
    }

    /// About half the programs use machine integers, and between them they
    /// use every type, every operator and wrapping.
    #[test]
    fn machine_integers_are_covered() {
        let cfg = GenConfig::standard();
        let mut typed = 0;
        let mut wrap = 0;
        let mut text = String::new();
        for i in 0..200 {
            let p = generate(11, i, &cfg);
            typed += usize::from(p.is_typed());
            wrap += usize::from(p.spec.wrap_signed);
            text.push_str(&p.source());
        }
        assert!((60..=140).contains(&typed), "{typed} of 200 typed");
        assert!(wrap > 5, "{wrap} with wrapping");
        for needle in [
            "i8",
            "i16",
            "i32",
            "i64",
            "u8",
            "u16",
            "u32",
            "u64",
            " & ",
            " | ",
            " ^ ",
            "~",
            " << ",
            " >> ",
            "u8[]",
            "@reads u",
            "@input x -128..",
        ] {
            assert!(text.contains(needle), "no `{needle}` in 200 programs");
        }
    }
}
