//! Seed 003's oracles for objects and threads: random concurrent programs
//! (built with the IR builder: shared globals, a shared object's field,
//! locks, assertions, spawns and joins, an input) are run on the concrete
//! interpreter over every input of a small domain and **every schedule**
//! (a policy that takes every thread at every scheduling point, without
//! reduction), and the symbolic engine must report exactly the error
//! places that enumeration reaches — with partial-order reduction and
//! with `--por off` — and say `safe` exactly when none is reachable.
//! Every reported witness is replayed by the engine itself.
//!
//! `WISER_THREAD_ORACLES_CASES=N` sets the number of programs (100 by
//! default); `WISER_THREAD_ORACLES_SEED=S` the first seed. A failing
//! program is printed as its IR listing with its seed.

use std::collections::BTreeSet;
use wiser_engine::{symex, Config, Verdict};
use wiser_ir::{Builder, ClassId, Expr, Ir, Place, ProcId, ScalarTy, Site, Span};
use wiser_num::{BinOp, CmpOp, IntTy};
use wiser_semantics::concrete::{Concrete, Follow};
use wiser_semantics::{Fork, Input, Machine, Options, Policy, State, Status};

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Spans numbered in order of emission, so every statement is a place of
/// its own.
struct Spans(u32);

impl Spans {
    fn next(&mut self) -> Span {
        self.0 += 2;
        Span::new(self.0, self.0 + 1)
    }
}

struct Shared {
    globals: [Place; 2],
    locks: [Place; 2],
    lock_class: ClassId,
    cell: Place,
    field: wiser_ir::ArrayId,
}

fn int(v: i64) -> Expr {
    Expr::int(IntTy::INT, v)
}

/// One thread body: a few statements on the shared state.
fn body(rng: &mut Rng, r: &mut wiser_ir::RoutineBuilder<'_>, sh: &Shared, sp: &mut Spans) {
    let t = r.local("t", ScalarTy::INT);
    let a = r.param(0);
    let n = 1 + rng.below(4);
    let mut held: Vec<Place> = Vec::new();
    for _ in 0..n {
        match rng.below(9) {
            0 | 1 => {
                let g = sh.globals[rng.below(2) as usize];
                let v = r.load(g);
                r.assign(t, v, sp.next());
            }
            2 | 3 => {
                let g = sh.globals[rng.below(2) as usize];
                let v = if rng.below(2) == 0 {
                    Expr::binary(BinOp::Add, r.load(t), int(rng.below(3) as i64), sp.next())
                } else {
                    r.load(a)
                };
                r.assign(g, v, sp.next());
            }
            4 => {
                let obj = Expr::deref(r.load(sh.cell), sp.next());
                let v = Expr::select(sh.field, wiser_ir::ArrayTy::INT, obj);
                r.assign(t, v, sp.next());
            }
            5 => {
                let obj = Expr::deref(r.load(sh.cell), sp.next());
                let v = Expr::binary(BinOp::Add, r.load(t), int(1), sp.next());
                r.store(sh.field, obj, v, sp.next());
            }
            6 => {
                let m = sh.locks[rng.below(2) as usize];
                if !held.contains(&m) {
                    let obj = r.load(m);
                    r.lock(sh.lock_class, obj, true, sp.next());
                    held.push(m);
                }
            }
            7 => {
                if let Some(m) = held.pop() {
                    let obj = r.load(m);
                    r.lock(sh.lock_class, obj, false, sp.next());
                }
            }
            _ => {
                let k = rng.below(3) as i64;
                let cond = Expr::cmp(CmpOp::Ne, r.load(t), int(k));
                r.assert(cond, sp.next());
            }
        }
    }
    // Most threads release what they hold; some do not (a deadlock when
    // another thread wants the lock, or main's end when none does).
    if rng.below(4) != 0 {
        while let Some(m) = held.pop() {
            let obj = r.load(m);
            r.lock(sh.lock_class, obj, false, sp.next());
        }
    }
}

/// A random program of `seed`.
fn program(seed: u64) -> Ir {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut sp = Spans(0);
    let mut b = Builder::new();
    let g0 = b.global("g0", ScalarTy::INT, Some(0.into()));
    let g1 = b.global("g1", ScalarTy::INT, Some(0.into()));
    let lock_class = b.class("L");
    let m0 = b.global("m0", ScalarTy::INT, Some(0.into()));
    let m1 = b.global("m1", ScalarTy::INT, Some(0.into()));
    let cell_class = b.class("C");
    let field = b.field(cell_class, "f", ScalarTy::INT, None);
    let cell = b.global("c", ScalarTy::INT, Some(0.into()));
    let sh = Shared {
        globals: [g0, g1],
        locks: [m0, m1],
        lock_class,
        cell,
        field,
    };
    let threads = 2 + rng.below(2) as usize;
    let procs: Vec<ProcId> = (0..threads)
        .map(|k| {
            let p = b.declare_proc(
                format!("p{k}"),
                vec![("a".into(), ScalarTy::INT)],
                None,
                sp.next(),
            );
            let mut r = b.begin_proc(p);
            body(&mut rng, &mut r, &sh, &mut sp);
            r.finish();
            p
        })
        .collect();
    let mut r = b.begin_main(sp.next());
    let x = r.local("x", ScalarTy::INT);
    r.input(x);
    let lo = Expr::cmp(CmpOp::Ge, r.load(x), int(-1));
    let hi = Expr::cmp(CmpOp::Le, r.load(x), int(1));
    r.assume(Expr::and(lo, hi), sp.next());
    for (place, class) in [(m0, lock_class), (m1, lock_class), (cell, cell_class)] {
        let tmp = r.temp(ScalarTy::INT);
        r.new_object(tmp, class, sp.next());
        let v = r.load(tmp);
        r.assign(place, v, sp.next());
    }
    let mut ids = Vec::new();
    for p in procs {
        let t = r.temp(ScalarTy::INT);
        let arg = if rng.below(2) == 0 {
            r.load(x)
        } else {
            int(rng.below(2) as i64)
        };
        r.spawn(p, vec![arg], Some(t), sp.next());
        ids.push(t);
    }
    for t in ids {
        if rng.below(4) != 0 {
            let v = r.load(t);
            r.join(v, sp.next());
        }
    }
    let g = r.load(sh.globals[rng.below(2) as usize]);
    let cond = Expr::cmp(CmpOp::Ne, g, int(rng.below(3) as i64));
    r.assert(cond, sp.next());
    r.finish();
    b.finish().expect("a well-formed program")
}

/// Takes every thread at every scheduling point; follows values otherwise.
struct EverySchedule(Follow);

impl<'i> Policy<Concrete<'i>> for EverySchedule {
    type Path = ();

    fn branch(&mut self, path: &(), site: Site, cond: &wiser_num::Int) -> Fork<()> {
        self.0.branch(path, site, cond)
    }
}

/// What enumeration finds: error places (deadlocks without a place: which
/// thread's statement names one depends on the interleaving), or `None`
/// when a run is too long to enumerate.
type Places = BTreeSet<(String, Option<Span>)>;

fn place(kind: wiser_ir::ErrorKind, span: Span) -> (String, Option<Span>) {
    let at = (kind != wiser_ir::ErrorKind::Deadlock).then_some(span);
    (kind.name().to_string(), at)
}

fn enumerate(ir: &Ir) -> Option<Places> {
    let mut found = Places::new();
    let options = Options {
        por_off: true,
        ..Options::default()
    };
    for x in -1..=1 {
        let input = Input {
            vars: vec![("x".into(), x.into())],
            ..Input::default()
        };
        let mut alg = Concrete::new(&input);
        let mut pol = EverySchedule(Follow::default());
        let mut machine = Machine::with_options(ir, options);
        let mut stack: Vec<State<Concrete<'_>, ()>> = vec![State::initial(ir, &mut alg, ())];
        let mut out = Vec::new();
        let mut states = 0u64;
        while let Some(s) = stack.pop() {
            states += 1;
            if states > 200_000 {
                return None;
            }
            if let Status::Error { kind, span } = s.status {
                found.insert(place(kind, span));
                continue;
            }
            if s.is_final(ir) {
                continue;
            }
            machine.step(&mut alg, &mut pol, s, &mut out);
            stack.append(&mut out);
        }
    }
    Some(found)
}

fn engine(ir: &Ir, por_off: bool) -> Option<(Verdict, Places)> {
    let config = Config::default()
        .with_jobs(1)
        .with_all_bugs(true)
        .with_max_states(400_000)
        .with_options(Options {
            max_objects: Some(4),
            max_threads: Some(8),
            por_off,
            ..Options::default()
        });
    let report = symex(ir, &config);
    if report.verdict == Verdict::Unknown {
        return None;
    }
    let places = report.bugs.iter().map(|b| place(b.kind, b.span)).collect();
    Some((report.verdict, places))
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn the_engine_finds_exactly_the_errors_of_every_schedule_with_and_without_por() {
    let cases = env("WISER_THREAD_ORACLES_CASES", 100);
    let first = env("WISER_THREAD_ORACLES_SEED", 1);
    let (mut checked, mut skipped, mut buggy) = (0, 0, 0);
    for seed in first..first + cases {
        let ir = program(seed);
        let Some(expected) = enumerate(&ir) else {
            skipped += 1;
            continue;
        };
        for por_off in [false, true] {
            let Some((verdict, places)) = engine(&ir, por_off) else {
                skipped += 1;
                continue;
            };
            let want = if expected.is_empty() {
                Verdict::Safe
            } else {
                Verdict::Bug
            };
            assert!(
                verdict == want && places == expected,
                "seed {seed}, por_off {por_off}: the engine says {verdict:?} with {places:?}, every schedule reaches {expected:?}\n{}",
                ir
            );
        }
        checked += 1;
        buggy += usize::from(!expected.is_empty());
    }
    eprintln!("{checked} programs agree ({buggy} with errors), {skipped} runs skipped");
    assert!(
        skipped * 4 <= cases as usize,
        "too many skipped: {skipped} of {cases}"
    );
}

/// The bound on input objects of the heap oracle: enumeration runs every
/// heap of objects `1..=HEAP_N`, the engine runs with `--max-objects
/// HEAP_N`.
const HEAP_N: i64 = 3;

/// A random single-threaded program over two input references `x`, `y` of
/// class `C { f: int; next: C }`: field reads and writes through them and
/// through `x.next`, reference comparisons, assertions, `new`.
fn heap_program(seed: u64) -> Ir {
    let mut rng = Rng(seed.wrapping_mul(0xd1b5_4a32_d192_ed03) | 1);
    let mut sp = Spans(0);
    let mut b = Builder::new();
    let class = b.class("C");
    let f = b.field(class, "f", ScalarTy::INT, None);
    let next = b.field(class, "next", ScalarTy::INT, Some(class));
    let mut r = b.begin_main(sp.next());
    let x = r.local("x", ScalarTy::INT);
    r.refers(x, class);
    r.input(x);
    let y = r.local("y", ScalarTy::INT);
    r.refers(y, class);
    r.input(y);
    let t = r.local("t", ScalarTy::INT);
    let p = r.local("p", ScalarTy::INT);
    r.refers(p, class);
    if rng.below(2) == 0 {
        // Half the programs rule out null inputs, so that some are safe.
        let xn = Expr::cmp(CmpOp::Ne, r.load(x), int(0));
        let yn = Expr::cmp(CmpOp::Ne, r.load(y), int(0));
        r.assume(Expr::and(xn, yn), sp.next());
        r.new_object(p, class, sp.next());
    }
    let mut read_next = false;
    // `t` is a field's value (in -1..=1 in the enumerated heaps) plus at
    // most one increment, so assertions on 0 and 1 are decided the same on
    // the enumerated heaps and on all heaps.
    let mut branched = false;
    let refs = [x, y, p];
    let n = 2 + rng.below(5);
    for _ in 0..n {
        let q = refs[rng.below(3) as usize];
        match rng.below(8) {
            0 => {
                let obj = Expr::deref(r.load(q), sp.next());
                r.store(f, obj, int(rng.below(2) as i64), sp.next());
            }
            1 => {
                let obj = Expr::deref(r.load(q), sp.next());
                let v = Expr::select(f, wiser_ir::ArrayTy::INT, obj);
                r.assign(t, v, sp.next());
            }
            2 if !read_next => {
                read_next = true;
                let obj = Expr::deref(r.load(x), sp.next());
                let v = Expr::select(next, wiser_ir::ArrayTy::INT, obj);
                r.assign(p, v, sp.next());
            }
            3 => {
                let obj = Expr::deref(r.load(q), sp.next());
                let other = r.load(refs[rng.below(3) as usize]);
                r.store(next, obj, other, sp.next());
            }
            4 => r.new_object(p, class, sp.next()),
            5 if !branched => {
                branched = true;
                let a = r.load(q);
                let other = if rng.below(2) == 0 {
                    int(0)
                } else {
                    r.load(refs[rng.below(3) as usize])
                };
                let then_to = r.label();
                let else_to = r.label();
                let join = r.label();
                r.branch(Expr::cmp(CmpOp::Eq, a, other), then_to, else_to, sp.next());
                r.bind(then_to);
                let v = Expr::binary(BinOp::Add, r.load(t), int(1), sp.next());
                r.assign(t, v, sp.next());
                r.jump(join);
                r.bind(else_to);
                r.jump(join);
                r.bind(join);
            }
            _ => {
                let cond = Expr::cmp(CmpOp::Ne, r.load(t), int(rng.below(2) as i64));
                r.assert(cond, sp.next());
            }
        }
    }
    let obj = Expr::deref(r.load(x), sp.next());
    let v = Expr::select(f, wiser_ir::ArrayTy::INT, obj);
    r.assert(Expr::cmp(CmpOp::Ne, v, int(rng.below(2) as i64)), sp.next());
    r.finish();
    b.finish().expect("a well-formed program")
}

/// Every input heap of objects `1..=HEAP_N`: the references `x`, `y` and
/// each object's `f` (-1, 0 or 1) and `next`.
fn heaps() -> Vec<Input> {
    let n = HEAP_N;
    let objects = n as u32;
    let per_object = 3 * (n + 1);
    let mut out = Vec::new();
    for x in 0..=n {
        for y in 0..=n {
            for code in 0..per_object.pow(objects) {
                let mut c = code;
                let (mut fs, mut nexts) = (Vec::new(), Vec::new());
                for id in 1..=n {
                    let cell = c % per_object;
                    c /= per_object;
                    fs.push((id.into(), (cell % 3 - 1).into()));
                    nexts.push((id.into(), (cell / 3).into()));
                }
                out.push(Input {
                    vars: vec![("x".into(), x.into()), ("y".into(), y.into())],
                    arrays: vec![
                        (
                            "C.f".into(),
                            wiser_semantics::ArrayInput {
                                default: 0.into(),
                                entries: fs,
                            },
                        ),
                        (
                            "C.next".into(),
                            wiser_semantics::ArrayInput {
                                default: 0.into(),
                                entries: nexts,
                            },
                        ),
                    ],
                    ..Input::default()
                });
            }
        }
    }
    out
}

#[test]
fn the_engine_finds_exactly_the_errors_of_every_input_heap_up_to_the_bound() {
    let cases = env("WISER_THREAD_ORACLES_CASES", 100);
    let first = env("WISER_THREAD_ORACLES_SEED", 1);
    let heaps = heaps();
    let (mut checked, mut skipped, mut buggy) = (0, 0, 0);
    for seed in first..first + cases {
        let ir = heap_program(seed);
        let mut expected = Places::new();
        for input in &heaps {
            let run = wiser_semantics::concrete::run(&ir, input, 10_000);
            if let wiser_semantics::concrete::Outcome::Error { kind, span, .. } = run.outcome {
                expected.insert(place(kind, span));
            }
        }
        let config = Config::default()
            .with_jobs(1)
            .with_all_bugs(true)
            .with_options(Options {
                max_objects: Some(HEAP_N as u32),
                ..Options::default()
            });
        let report = symex(&ir, &config);
        if report.verdict == Verdict::Unknown {
            skipped += 1;
            continue;
        }
        let places: Places = report.bugs.iter().map(|b| place(b.kind, b.span)).collect();
        assert!(
            places == expected,
            "seed {seed}: the engine says {:?} with {places:?}, the heaps up to {HEAP_N} objects reach {expected:?}\n{ir}",
            report.verdict
        );
        checked += 1;
        buggy += usize::from(!expected.is_empty());
    }
    eprintln!("{checked} heap programs agree ({buggy} with errors), {skipped} skipped");
    assert!(
        skipped * 4 <= cases as usize,
        "too many skipped: {skipped} of {cases}"
    );
}
