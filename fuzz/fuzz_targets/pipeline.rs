//! Small structured IMP programs through the whole pipeline: compile, then
//! `wiser_engine::symex` (one job, breadth- or depth-first, a few thousand
//! states, a timeout, all bugs), with the concrete interpreter as the oracle.
//!
//! The program is built from an `arbitrary` syntax tree and rendered as
//! text: loops with small constant bounds, `if`, arithmetic with `/` and
//! `%`, `assert`, `assume` (small boxes on the inputs first), `x = *`
//! (optionally boxed), `fail`, two arrays and one non-recursive procedure.
//!
//! Properties:
//! * the generated program compiles (the generator only writes valid
//!   programs) and nothing panics;
//! * the report has no internal errors;
//! * every bug's witness replays on `concrete::run` to an error of the same
//!   kind, at the same span, with the same call stack;
//! * when the search was exhaustive (no `incomplete` reason; a `safe`
//!   verdict in particular), every error that a concrete run on sample
//!   inputs reaches (the corners of the input box, zeros, and a few
//!   fuzzer-chosen points) is among the reported bugs; so a `safe`
//!   verdict means none of those runs errs.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use std::fmt::Write;
use std::sync::Arc;
use std::time::Duration;
use wiser_engine::{Config, Strategy, Verdict};
use wiser_num::{BinOp, CmpOp, Int};
use wiser_semantics::concrete::{self, Outcome};
use wiser_semantics::{ArrayInput, Input};

/// The arithmetic operators a program uses.
const ARITH: [BinOp; 5] = [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div, BinOp::Rem];

#[derive(Arbitrary, Debug)]
enum E {
    Num(i8),
    Var(u8),
    Elem(bool, Box<E>),
    Neg(Box<E>),
    /// An arithmetic operation (the `u8` picks one of `ARITH`).
    Bin(u8, Box<E>, Box<E>),
    /// A literal near the ends of `i64` (products leave the fast path).
    Wide(i64),
}

#[derive(Arbitrary, Debug)]
enum C {
    Bool(bool),
    /// A comparison (the `u8` picks one of `CmpOp::ALL`) of two expressions.
    Cmp(u8, E, E),
    Not(Box<C>),
    And(Box<C>, Box<C>),
    Or(Box<C>, Box<C>),
}

#[derive(Arbitrary, Debug)]
enum S {
    Skip,
    Assign(u8, E),
    Havoc(u8, Option<(i8, u8)>),
    Store(bool, E, E),
    If(C, Vec<S>, Vec<S>),
    Loop(u8, Vec<S>),
    Assert(C),
    Assume(C),
    Fail,
    Call(Option<u8>, E, E),
    Return(E),
}

/// A box `lo <= v <= lo + width % 8` on an input.
#[derive(Arbitrary, Debug, Clone, Copy)]
struct Bound {
    lo: i8,
    width: u8,
}

impl Bound {
    fn lo(self) -> i64 {
        self.lo as i64
    }
    fn hi(self) -> i64 {
        self.lo as i64 + (self.width % 8) as i64
    }
}

/// A fuzzer-chosen sample point for the concrete runs.
#[derive(Arbitrary, Debug)]
struct Sample {
    /// Values of `x`, `y`, `z` (and other inputs, cyclically), clamped
    /// into their boxes.
    vars: [i8; 3],
    /// The reads, mapped into `-2..=5`.
    reads: [i8; 8],
    /// Default value and two entries (at 0 and 1) of every array.
    array: [i8; 3],
}

#[derive(Arbitrary, Debug)]
struct Prog {
    /// Boxes on the inputs `x`, `y`, `z`.
    boxes: [Option<Bound>; 3],
    /// The procedure `f(p, q)`: its body and returned value.
    proc_: Option<(Vec<S>, E)>,
    main: Vec<S>,
    /// Extra sample points.
    samples: Vec<Sample>,
    /// Search depth-first instead of breadth-first.
    dfs: bool,
}

const MAIN_VARS: [&str; 5] = ["x", "y", "z", "r", "s"];
const PROC_VARS: [&str; 3] = ["p", "q", "t"];
const ARRAYS: [&str; 2] = ["a", "b"];

const MAX_EXPR_DEPTH: u32 = 4;
const MAX_STMT_DEPTH: u32 = 3;
const MAX_STMTS: u32 = 24;
const MAX_LOOP_NEST: u32 = 2;

struct Render {
    out: String,
    in_proc: bool,
    has_proc: bool,
    stmts_left: u32,
    counters: u32,
}

impl Render {
    fn var(&self, v: u8) -> &'static str {
        if self.in_proc {
            PROC_VARS[v as usize % PROC_VARS.len()]
        } else {
            MAIN_VARS[v as usize % MAIN_VARS.len()]
        }
    }

    fn expr(&mut self, e: &E, depth: u32) {
        let deep = depth >= MAX_EXPR_DEPTH;
        match e {
            E::Num(n) => write!(self.out, "{n}").unwrap(),
            E::Wide(n) => write!(self.out, "({n})").unwrap(),
            E::Var(v) => {
                let v = self.var(*v);
                self.out.push_str(v)
            }
            _ if deep => self.out.push('1'),
            E::Elem(which, i) => {
                self.out.push_str(ARRAYS[*which as usize]);
                self.out.push('[');
                self.expr(i, depth + 1);
                self.out.push(']');
            }
            E::Neg(a) => {
                self.out.push_str("-(");
                self.expr(a, depth + 1);
                self.out.push(')');
            }
            E::Bin(op, a, b) => {
                let op = ARITH[*op as usize % ARITH.len()].symbol();
                self.out.push('(');
                self.expr(a, depth + 1);
                write!(self.out, " {op} ").unwrap();
                self.expr(b, depth + 1);
                self.out.push(')');
            }
        }
    }

    fn cond(&mut self, c: &C, depth: u32) {
        let deep = depth >= MAX_EXPR_DEPTH;
        match c {
            C::Bool(b) => write!(self.out, "{b}").unwrap(),
            _ if deep => self.out.push_str("true"),
            C::Cmp(op, a, b) => {
                let op = CmpOp::ALL[*op as usize % CmpOp::ALL.len()].symbol();
                self.expr(a, depth + 1);
                write!(self.out, " {op} ").unwrap();
                self.expr(b, depth + 1);
            }
            C::Not(a) => {
                self.out.push_str("not (");
                self.cond(a, depth + 1);
                self.out.push(')');
            }
            C::And(a, b) | C::Or(a, b) => {
                let op = if matches!(c, C::And(..)) { "and" } else { "or" };
                self.out.push('(');
                self.cond(a, depth + 1);
                write!(self.out, ") {op} (").unwrap();
                self.cond(b, depth + 1);
                self.out.push(')');
            }
        }
    }

    /// Renders a statement list (at least `skip`), `;`-separated.
    fn block(&mut self, ss: &[S], depth: u32, loops: u32) {
        let mut first = true;
        for s in ss {
            if self.stmts_left == 0 {
                break;
            }
            self.stmts_left -= 1;
            if !first {
                self.out.push_str(";\n");
            }
            first = false;
            self.stmt(s, depth, loops);
        }
        if first {
            self.out.push_str("skip");
        }
    }

    fn stmt(&mut self, s: &S, depth: u32, loops: u32) {
        let nested_ok = depth < MAX_STMT_DEPTH;
        match s {
            S::Skip => self.out.push_str("skip"),
            S::Fail => self.out.push_str("fail"),
            S::Assign(v, e) => {
                let v = self.var(*v);
                write!(self.out, "{v} = ").unwrap();
                self.expr(e, 0);
            }
            S::Havoc(v, bound) => {
                let v = self.var(*v);
                write!(self.out, "{v} = *").unwrap();
                if let Some((lo, w)) = bound {
                    // Small boxes around 0, so that the sample reads
                    // (see `samples`) often fall inside.
                    let lo = (*lo as i64).rem_euclid(5) - 2;
                    let hi = lo + (*w % 4) as i64;
                    write!(self.out, ";\nassume {v} >= {lo} and {v} <= {hi}").unwrap();
                }
            }
            S::Store(which, i, e) => {
                write!(self.out, "{}[", ARRAYS[*which as usize]).unwrap();
                self.expr(i, 0);
                self.out.push_str("] = ");
                self.expr(e, 0);
            }
            S::If(c, t, e) if nested_ok => {
                self.out.push_str("if ");
                self.cond(c, 0);
                self.out.push_str(" then\n");
                self.block(t, depth + 1, loops);
                self.out.push_str("\nelse\n");
                self.block(e, depth + 1, loops);
                self.out.push_str("\nfi");
            }
            S::Loop(n, body) if nested_ok && loops < MAX_LOOP_NEST => {
                let i = format!("{}{}", if self.in_proc { "k" } else { "i" }, self.counters);
                self.counters += 1;
                write!(self.out, "{i} = 0;\nwhile {i} < {} do\n", n % 4).unwrap();
                self.block(body, depth + 1, loops + 1);
                write!(self.out, ";\n{i} = {i} + 1\nod").unwrap();
            }
            S::Assert(c) => {
                self.out.push_str("assert ");
                self.cond(c, 0);
            }
            S::Assume(c) => {
                self.out.push_str("assume ");
                self.cond(c, 0);
            }
            S::Call(target, a, b) if self.has_proc && !self.in_proc => {
                if let Some(t) = target {
                    let t = self.var(*t);
                    write!(self.out, "{t} = ").unwrap();
                }
                self.out.push_str("f(");
                self.expr(a, 0);
                self.out.push_str(", ");
                self.expr(b, 0);
                self.out.push(')');
            }
            S::Return(e) if self.in_proc => {
                self.out.push_str("return ");
                self.expr(e, 0);
            }
            _ => self.out.push_str("skip"),
        }
    }
}

fn render(p: &Prog) -> String {
    let mut r = Render {
        out: String::new(),
        in_proc: false,
        has_proc: p.proc_.is_some(),
        stmts_left: MAX_STMTS,
        counters: 0,
    };
    if let Some((body, ret)) = &p.proc_ {
        r.in_proc = true;
        r.out.push_str("proc f(p, q) begin\nt = p;\n");
        r.block(body, 1, 0);
        r.out.push_str(";\nreturn ");
        r.expr(ret, 0);
        r.out.push_str("\nend\n");
        r.in_proc = false;
    }
    for (v, b) in MAIN_VARS.iter().zip(&p.boxes) {
        if let Some(b) = b {
            writeln!(r.out, "assume {v} >= {} and {v} <= {};", b.lo(), b.hi()).unwrap();
        }
    }
    r.block(&p.main, 0, 0);
    r.out.push('\n');
    r.out
}

/// Sample inputs: every corner of the input box (unboxed inputs 0) with
/// all reads equal to one of a few small constants, and the fuzzer's
/// points (clamped into the box).
fn samples(p: &Prog, ir: &wiser_ir::Ir) -> Vec<Input> {
    let bound_of = |name: &str| {
        MAIN_VARS[..3]
            .iter()
            .position(|v| *v == name)
            .and_then(|i| p.boxes[i])
    };
    let arrays = |a: [i8; 3]| -> Vec<(Arc<str>, ArrayInput)> {
        ir.arrays
            .iter()
            .map(|decl| {
                (
                    decl.name.clone(),
                    ArrayInput {
                        default: Int::from(a[0] as i64),
                        entries: vec![
                            (0.into(), (a[1] as i64).into()),
                            (1.into(), (a[2] as i64).into()),
                        ],
                    },
                )
            })
            .collect()
    };
    let mut out = Vec::new();
    let boxed: Vec<usize> = (0..ir.inputs.len())
        .filter(|&k| bound_of(&ir.inputs[k].name).is_some())
        .collect();
    for mask in 0u32..(1 << boxed.len().min(4)) {
        let vars: Vec<_> = ir
            .inputs
            .iter()
            .enumerate()
            .map(|(k, input)| {
                let name = &input.name;
                let v = match (bound_of(name), boxed.iter().position(|&b| b == k)) {
                    (Some(b), Some(bit)) if bit < 4 => {
                        if mask >> bit & 1 == 1 {
                            b.hi()
                        } else {
                            b.lo()
                        }
                    }
                    (Some(b), _) => b.lo(),
                    (None, _) => 0,
                };
                (name.clone(), Int::from(v))
            })
            .collect();
        for c in [0i64, 1, -1, 2] {
            out.push(Input {
                vars: vars.clone(),
                reads: vec![Int::from(c); 64],
                arrays: arrays([0, 0, 0]),
                // The programs have no threads.
                schedule: Vec::new(),
            });
        }
    }
    for s in p.samples.iter().take(8) {
        let vars = ir
            .inputs
            .iter()
            .enumerate()
            .map(|(k, input)| {
                let name = &input.name;
                let raw = s.vars[k % 3] as i64;
                let v = match bound_of(name) {
                    Some(b) => raw.clamp(b.lo(), b.hi()),
                    None => raw,
                };
                (name.clone(), Int::from(v))
            })
            .collect();
        out.push(Input {
            vars,
            reads: (0..64)
                .map(|k| Int::from((s.reads[k % 8] as i64).rem_euclid(8) - 2))
                .collect(),
            arrays: arrays(s.array),
            schedule: Vec::new(),
        });
    }
    out
}

const MAX_STEPS: u64 = 1_000_000;

fuzz_target!(|p: Prog| {
    let src = render(&p);
    if std::env::var_os("WISER_FUZZ_PRINT").is_some() {
        eprintln!("----- program -----\n{src}");
    }
    let ir = match wiser_imp::compile(&src) {
        Ok(ir) => ir,
        Err(d) => panic!(
            "a generated program does not compile:\n{}\n{src}",
            wiser_imp::SourceMap::new("gen.imp", src.as_str()).render(&d)
        ),
    };
    let strategy = if p.dfs { Strategy::Dfs } else { Strategy::Bfs };
    let config = Config::default()
        .with_strategy(strategy)
        .with_jobs(1)
        .with_max_states(2000)
        .with_timeout(Some(Duration::from_secs(3)))
        .with_solver_timeout(Some(Duration::from_secs(1)))
        .with_all_bugs(true);
    let report = wiser_engine::symex(&ir, &config);
    if std::env::var_os("WISER_FUZZ_PRINT").is_some() {
        eprintln!(
            "verdict {:?} incomplete {:?} bugs {} states {}",
            report.verdict,
            report.incomplete,
            report.bugs.len(),
            report.stats.states
        );
    }
    assert!(
        report.internal_errors.is_empty(),
        "internal errors {:?}\n{src}",
        report.internal_errors
    );
    for bug in &report.bugs {
        let run = concrete::run(&ir, &bug.input, MAX_STEPS);
        match &run.outcome {
            Outcome::Error { kind, span, stack }
                if *kind == bug.kind && *span == bug.span && *stack == bug.stack => {}
            other => panic!(
                "the witness {:?} of a {:?} at {:?} replays as {other:?}\n{src}",
                bug.input, bug.kind, bug.span
            ),
        }
    }
    if report.incomplete.is_empty() {
        assert!(matches!(report.verdict, Verdict::Safe | Verdict::Bug));
        for input in samples(&p, &ir) {
            let run = concrete::run(&ir, &input, MAX_STEPS);
            if std::env::var_os("WISER_FUZZ_PRINT").is_some() {
                let o = &run.outcome;
                eprintln!(
                    "sample {}",
                    format!("{o:?}").split([' ', '{']).next().unwrap_or("")
                );
            }
            if let Outcome::Error { kind, span, stack } = &run.outcome {
                assert!(
                    report
                        .bugs
                        .iter()
                        .any(|b| b.kind == *kind && b.span == *span && b.stack == *stack),
                    "an exhaustive search (verdict {:?}) missed the {kind:?} at {span:?} \
                     (stack {stack:?}) that the input {input:?} reaches; bugs: {:?}\n{src}",
                    report.verdict,
                    report
                        .bugs
                        .iter()
                        .map(|b| (b.kind, b.span))
                        .collect::<Vec<_>>()
                );
            }
        }
    }
});
