//! The generator of heap and thread programs (see the module
//! documentation of [`super`]).

use super::{Features, IEx, OCo, OProc, OProgram, OSt, REx};
use crate::domain::Domain;
use crate::Name;
use fastrand::Rng;
use wiser_num::{BinOp, CmpOp};

/// The input heap's objects are `1..=OBJECTS`. The engine's bound counts
/// the references a path reads from the input heap, the input references
/// `x` and `y` included, so 3 leaves room for one read of `r.next` (every
/// heap of three objects times three `int` inputs is about 83,000 runs).
const OBJECTS: u32 = 3;

/// Program `index` of the run with `seed` that uses `features`.
pub fn generate_objects(seed: u64, index: u64, features: Features) -> OProgram {
    let salt = match features {
        Features::Heap => 0x4845_4150,
        Features::Threads => 0x5448_5244,
    };
    let mut rng = Rng::with_seed(
        seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index.wrapping_mul(0xBF58_476D_1CE4_E5B9) ^ salt,
    );
    match features {
        Features::Heap => heap(&mut rng),
        Features::Threads => threads(&mut rng),
    }
}

fn name(s: &str) -> Name {
    Name::from(s)
}

/// One of `v`, uniformly.
fn pick(rng: &mut Rng, v: &[Name]) -> Name {
    v[rng.usize(0..v.len())].clone()
}

/// A small `int` expression over `vars`.
fn iex(rng: &mut Rng, vars: &[Name], depth: u32) -> IEx {
    match rng.u32(0..if depth == 0 { 2 } else { 4 }) {
        0 => IEx::Num(rng.i64(-2..=2)),
        1 if !vars.is_empty() => IEx::Var(pick(rng, vars)),
        1 => IEx::Num(rng.i64(-2..=2)),
        _ => {
            let op = [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div][rng.usize(0..4)];
            IEx::Bin(
                op,
                Box::new(iex(rng, vars, depth - 1)),
                Box::new(iex(rng, vars, depth - 1)),
            )
        }
    }
}

/// What the heap generator may use.
struct Heap<'r> {
    rng: &'r mut Rng,
    /// Readable `int`s.
    ints: Vec<Name>,
    /// Assignable `int`s.
    int_locals: Vec<Name>,
    /// Reference variables.
    refs: Vec<Name>,
    /// Assignable references.
    ref_locals: Vec<Name>,
    /// `.next` reads left (see the module documentation of [`super`]).
    next_reads: u32,
}

impl Heap<'_> {
    /// A reference: a variable, `null` (`allow_null`), or `r.next` while
    /// the budget lasts.
    fn rex(&mut self, allow_null: bool) -> REx {
        self.rex_in(allow_null, 10)
    }

    /// A reference to dereference: rarely `r.next` (`r.next.f` reads
    /// `r.next` twice, once for its null check: one more read than the
    /// bound leaves, so the engine cuts such a path with `heap_bound`).
    fn target(&mut self) -> REx {
        self.rex_in(false, 40)
    }

    fn rex_in(&mut self, allow_null: bool, out_of: u32) -> REx {
        let refs = self.refs.clone();
        match self.rng.u32(0..out_of) {
            0 | 1 if allow_null => REx::Null,
            2 if self.next_reads > 0 => {
                self.next_reads -= 1;
                REx::Next(pick(self.rng, &refs))
            }
            _ => REx::Var(pick(self.rng, &refs)),
        }
    }

    fn cond(&mut self) -> OCo {
        let c = if self.rng.bool() {
            let a = self.rex(false);
            let b = self.rex(true);
            OCo::Same(self.rng.bool(), a, b)
        } else {
            let ints = self.ints.clone();
            let op = CmpOp::ALL[self.rng.usize(0..CmpOp::ALL.len())];
            OCo::Cmp(op, iex(self.rng, &ints, 1), iex(self.rng, &ints, 0))
        };
        match self.rng.u32(0..8) {
            0 => OCo::Not(Box::new(c)),
            1 => {
                let d = self.cond();
                OCo::And(Box::new(c), Box::new(d))
            }
            _ => c,
        }
    }

    fn block(&mut self, n: usize, depth: u32) -> Vec<OSt> {
        (0..n).map(|_| self.stmt(depth)).collect()
    }

    fn stmt(&mut self, depth: u32) -> OSt {
        let ints = self.ints.clone();
        let int_locals = self.int_locals.clone();
        let ref_locals = self.ref_locals.clone();
        match self.rng.u32(0..20) {
            0..=3 => {
                let v = pick(self.rng, &int_locals);
                OSt::ReadField(v, self.target())
            }
            4..=6 => {
                // Mostly values the field domain holds, so that a later
                // read's `assume` keeps the path.
                let r = self.target();
                let e = if self.rng.u32(0..4) == 0 {
                    iex(self.rng, &ints, 1)
                } else if self.rng.bool() {
                    IEx::Num(self.rng.i64(-1..=1))
                } else {
                    IEx::Var(pick(self.rng, &ints))
                };
                OSt::WriteField(r, e)
            }
            7 | 8 => {
                let r = self.target();
                OSt::SetNext(r, self.rex(true))
            }
            9 => {
                let p = pick(self.rng, &ref_locals);
                OSt::SetRef(p, self.rex(true))
            }
            10 | 11 => OSt::New(pick(self.rng, &ref_locals)),
            12 => {
                let v = pick(self.rng, &int_locals);
                OSt::Assign(v, iex(self.rng, &ints, 2))
            }
            13..=16 if depth > 0 => {
                let c = self.cond();
                let n = self.rng.usize(1..=3);
                let a = self.block(n, depth - 1);
                let n = self.rng.usize(0..=2);
                let b = self.block(n, depth - 1);
                OSt::If(c, a, b)
            }
            17 | 18 => OSt::Assert(self.cond()),
            _ => {
                let v = pick(self.rng, &int_locals);
                OSt::ReadField(v, self.target())
            }
        }
    }
}

fn heap(rng: &mut Rng) -> OProgram {
    let mut g = Heap {
        rng,
        ints: vec![name("a"), name("v0"), name("v1")],
        int_locals: vec![name("v0"), name("v1")],
        refs: vec![name("x"), name("y"), name("p")],
        ref_locals: vec![name("p")],
        next_reads: 1,
    };
    // Most programs restrict their input references, so that not every
    // program fails on `null`.
    let mut main = Vec::new();
    for r in ["x", "y"] {
        if g.rng.u32(0..3) != 0 {
            main.push(OSt::Assume(OCo::Same(false, REx::Var(name(r)), REx::Null)));
        }
    }
    if g.rng.u32(0..4) == 0 {
        let eq = g.rng.bool();
        main.push(OSt::Assume(OCo::Same(
            eq,
            REx::Var(name("x")),
            REx::Var(name("y")),
        )));
    }
    if g.rng.u32(0..3) != 0 {
        main.push(OSt::New(name("p")));
    }
    let n = g.rng.usize(3..=8);
    main.extend(g.block(n, 2));
    // End with an assertion over the heap half of the time.
    if g.rng.bool() {
        let v = pick(g.rng, &[name("v0"), name("v1")]);
        let r = g.target();
        main.push(OSt::ReadField(v.clone(), r));
        let k = g.rng.i64(-1..=1);
        main.push(OSt::Assert(OCo::Cmp(CmpOp::Ne, IEx::Var(v), IEx::Num(k))));
    }
    OProgram {
        features: Features::Heap,
        inputs: vec![(name("a"), Domain::range(-1, 1))],
        refs: vec![name("x"), name("y")],
        ref_locals: vec![name("p")],
        locals: vec![name("v0"), name("v1")],
        objects: OBJECTS,
        fields: Domain::range(-1, 1),
        globals: Vec::new(),
        shared: Vec::new(),
        procs: Vec::new(),
        main,
    }
    .pruned()
}

/// What a thread body (or main) may use.
struct Body<'r> {
    rng: &'r mut Rng,
    /// Its `int` variables (the first is the scratch local `t`).
    ints: Vec<Name>,
    globals: Vec<Name>,
    locks: Vec<Name>,
    /// Locks held at this point.
    held: Vec<Name>,
    /// Inside `atomic` (no locks, no nesting).
    atomic: bool,
}

impl<'r> Body<'r> {
    /// A body with `ints`, holding no lock, outside `atomic`.
    fn new(rng: &'r mut Rng, ints: Vec<Name>, globals: &[Name], locks: &[Name]) -> Self {
        Body {
            rng,
            ints,
            globals: globals.to_vec(),
            locks: locks.to_vec(),
            held: Vec::new(),
            atomic: false,
        }
    }

    fn stmt(&mut self, out: &mut Vec<OSt>) {
        let t = name("t");
        let globals = self.globals.clone();
        let locks = self.locks.clone();
        match self.rng.u32(0..12) {
            0 | 1 => out.push(OSt::ReadGlobal(t, pick(self.rng, &globals))),
            2 | 3 => {
                let g = pick(self.rng, &globals);
                let e = if self.rng.bool() {
                    IEx::Bin(
                        BinOp::Add,
                        Box::new(IEx::Var(t)),
                        Box::new(IEx::Num(self.rng.i64(0..=2))),
                    )
                } else {
                    let ints = self.ints.clone();
                    iex(self.rng, &ints, 1)
                };
                out.push(OSt::WriteGlobal(g, e));
            }
            4 => out.push(OSt::ReadField(t, REx::Var(pick(self.rng, &locks)))),
            5 => {
                let m = pick(self.rng, &locks);
                let e = IEx::Bin(BinOp::Add, Box::new(IEx::Var(t)), Box::new(IEx::Num(1)));
                out.push(OSt::WriteField(REx::Var(m), e));
            }
            6 | 7 if !self.atomic => {
                let m = pick(self.rng, &locks);
                if !self.held.contains(&m) {
                    self.held.push(m.clone());
                    out.push(OSt::Lock(true, m));
                } else if let Some(m) = self.held.pop() {
                    out.push(OSt::Lock(false, m));
                }
            }
            8 if !self.atomic => {
                self.atomic = true;
                let mut body = Vec::new();
                for _ in 0..self.rng.usize(1..=3) {
                    self.stmt(&mut body);
                }
                self.atomic = false;
                out.push(OSt::Atomic(body));
            }
            9 => {
                let k = self.rng.i64(-1..=2);
                let c = OCo::Cmp(CmpOp::Eq, IEx::Var(t), IEx::Num(k));
                let mut then = Vec::new();
                self.simple(&mut then);
                out.push(OSt::If(c, then, Vec::new()));
            }
            _ => {
                let k = self.rng.i64(-1..=2);
                let op = if self.rng.u32(0..3) == 0 {
                    CmpOp::Le
                } else {
                    CmpOp::Ne
                };
                out.push(OSt::Assert(OCo::Cmp(op, IEx::Var(t), IEx::Num(k))));
            }
        }
    }

    /// A read or write of a global (inside an `if`: no lock taken in a
    /// branch, so the locks held stay known).
    fn simple(&mut self, out: &mut Vec<OSt>) {
        let g = pick(self.rng, &self.globals);
        if self.rng.bool() {
            out.push(OSt::ReadGlobal(name("t"), g));
        } else {
            let ints = self.ints.clone();
            out.push(OSt::WriteGlobal(g, iex(self.rng, &ints, 1)));
        }
    }

    /// `n` statements, then (most of the time) the release of every lock
    /// still held: a thread that keeps one makes deadlocks possible.
    fn body(&mut self, n: usize, out: &mut Vec<OSt>) {
        for _ in 0..n {
            self.stmt(out);
        }
        if self.rng.u32(0..4) != 0 {
            while let Some(m) = self.held.pop() {
                out.push(OSt::Lock(false, m));
            }
        }
        self.held.clear();
    }
}

fn threads(rng: &mut Rng) -> OProgram {
    let globals = vec![name("g0"), name("g1")];
    let locks = vec![name("m0"), name("m1")];
    let threads = rng.usize(2..=3);
    let mut procs = Vec::new();
    for k in 0..threads {
        let mut b = Body::new(rng, vec![name("t"), name("a")], &globals, &locks);
        let mut body = Vec::new();
        // Short bodies: every schedule of three threads is enumerated.
        let n = b.rng.usize(1..=if threads == 3 { 2 } else { 3 });
        b.body(n, &mut body);
        procs.push(OProc {
            name: name(&format!("p{k}")),
            params: vec![name("a")],
            locals: vec![name("t")],
            body,
        });
    }
    let mut main = Vec::new();
    let mut b = Body::new(rng, vec![name("t"), name("x")], &globals, &locks);
    if b.rng.bool() {
        main.push(OSt::WriteGlobal(pick(b.rng, &globals), IEx::Var(name("x"))));
    }
    let mut ids = Vec::new();
    for (k, p) in procs.iter().enumerate() {
        let id = name(&format!("h{k}"));
        let arg = if b.rng.bool() {
            IEx::Var(name("x"))
        } else {
            IEx::Num(b.rng.i64(0..=1))
        };
        main.push(OSt::Spawn(Some(id.clone()), p.name.clone(), vec![arg]));
        ids.push(id);
    }
    let n = b.rng.usize(0..=2);
    b.body(n, &mut main);
    for id in &ids {
        if b.rng.u32(0..4) != 0 {
            main.push(OSt::Join(id.clone()));
        }
    }
    main.push(OSt::ReadGlobal(name("t"), pick(b.rng, &globals)));
    let k = b.rng.i64(0..=2);
    main.push(OSt::Assert(OCo::Cmp(
        CmpOp::Ne,
        IEx::Var(name("t")),
        IEx::Num(k),
    )));
    let mut locals = vec![name("t")];
    locals.extend(ids);
    OProgram {
        features: Features::Threads,
        inputs: vec![(name("x"), Domain::range(-1, 1))],
        refs: Vec::new(),
        ref_locals: Vec::new(),
        locals,
        objects: 0,
        fields: Domain::range(0, 0),
        globals,
        shared: locks,
        procs,
        main,
    }
    .pruned()
}

impl OProgram {
    /// Drops `int` inputs and globals no statement uses (an input nothing
    /// reads is no input of the compiled program).
    pub fn pruned(mut self) -> OProgram {
        let unused: Vec<Name> = self
            .inputs
            .iter()
            .map(|(n, _)| n.clone())
            .filter(|n| !self.mentions(n))
            .collect();
        self.inputs.retain(|(n, _)| !unused.contains(n));
        let unused: Vec<Name> = self
            .globals
            .iter()
            .filter(|g| !self.mentions(g))
            .cloned()
            .collect();
        self.globals.retain(|g| !unused.contains(g));
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_programs_compile_with_bounded_inputs() {
        for features in [Features::Heap, Features::Threads] {
            for i in 0..300 {
                let p = generate_objects(7, i, features);
                if let Err(e) = p.compile() {
                    panic!("program {i}: {e}\n{p}");
                }
            }
        }
    }

    #[test]
    fn heap_programs_use_the_heap_and_thread_programs_spawn() {
        let p = generate_objects(1, 0, Features::Heap);
        assert!(p.source().contains("class C"), "{p}");
        assert!(p.source().contains("var x: C"), "{p}");
        let p = generate_objects(1, 0, Features::Threads);
        let src = p.source();
        assert!(src.contains("spawn p0("), "{src}");
        assert!(src.contains("global m0: C = null"), "{src}");
    }
}
