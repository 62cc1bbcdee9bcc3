//! Seed 003's oracles as property tests.
//!
//! Random small programs are generated as syntax trees, printed with the
//! pretty-printer and compiled from the text (so the printer is exercised
//! too). Every input of a program lies in a small box fixed by `assume`s,
//! so the concrete interpreter can run all of them. Then:
//!
//! * exhaustiveness: every concrete run is covered by a terminal symbolic
//!   state: an error run by a reported bug at the same kind, place and
//!   call stack; a halted run by exactly one [`Event::Final`] state whose
//!   path condition holds under the input and whose store evaluates to the
//!   run's final store (and no final state covers a run that does not
//!   halt);
//! * precision: every final state's model replays concretely to a halt
//!   with the store its terms give under the model, and every reported bug
//!   replays;
//! * the verdict: `check` says bug iff some input fails (with exactly the
//!   failing locations), safe otherwise, never unknown.
//!
//! A failing case prints the program's source. `WISER_ORACLES_CASES=N`
//! changes the number of cases (256 by default, well under a minute in a
//! debug build); `WISER_ORACLES_VERBOSE=1` prints every program with its
//! counts (runs, final states, bug locations).

use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;
use wiser_engine::{
    check, witness, Config, Event, Explorer, FinalState, Strategy as Search, Verdict,
};
use wiser_num::Int;
use wiser_semantics::concrete::{self, Array, Outcome};
use wiser_semantics::{CallSite, ErrorKind, Input, Ir};
use wiser_smt::{ArrayValue, Model, Value, Z3Solver};
use wiser_syntax::ast::{self, ArithOp, CmpOp};
use wiser_syntax::Span;

// ---------------------------------------------------------------------------
// The generator's own small syntax tree.

/// An arithmetic expression; variables are indices into the scope's names.
#[derive(Clone, Debug)]
enum E {
    Num(i64),
    Var(usize),
    /// `a[i]` for a constant `i` in -3..=3, `a[e % 4]` otherwise.
    Elem(Box<E>),
    Neg(Box<E>),
    Bin(ArithOp, Box<E>, Box<E>),
}

#[derive(Clone, Debug)]
enum C {
    Bool(bool),
    Cmp(CmpOp, E, E),
    Not(Box<C>),
    And(Box<C>, Box<C>),
    Or(Box<C>, Box<C>),
}

#[derive(Clone, Debug)]
enum S {
    Assign(usize, E),
    /// `v = *; assume v >= -1 and v <= 1` (main program, outside loops).
    Havoc(usize),
    /// `a[i] = e`, indices as for [`E::Elem`].
    Store(E, E),
    If(C, Vec<S>, Vec<S>),
    /// `iD = 0; while iD < bound [and c] do body; iD = iD + 1 od`, where
    /// `D` is the loop's nesting depth.
    Loop(i64, Option<C>, Vec<S>),
    Assert(C),
    Assume(C),
    /// `v = f(e)`.
    Call(usize, E),
}

#[derive(Clone, Debug)]
struct Proc {
    /// The value of the local `q` (over `p`).
    q: E,
    body: Vec<S>,
    ret: E,
}

#[derive(Clone, Debug)]
struct Prog {
    /// 1 to 3 inputs: `x`, `y`, `z`.
    inputs: usize,
    /// Initial values of the locals `t` and `u`: `v + c` for the input
    /// `v` (when there is one), or `c`.
    locals: [(usize, i64); 2],
    /// Initial contents of `a[-3..=3]` (written only if `a` is used).
    array: [i64; 7],
    proc_: Option<Proc>,
    main: Vec<S>,
}

const INPUT_NAMES: [&str; 3] = ["x", "y", "z"];
const LOCAL_NAMES: [&str; 2] = ["t", "u"];
const PROC_NAMES: [&str; 2] = ["p", "q"];
/// Values a read may take.
const READS: std::ops::RangeInclusive<i64> = -1..=1;

impl Prog {
    /// Inputs lie in `-bound..=bound`: fewer inputs, larger boxes.
    fn bound(&self) -> i64 {
        match self.inputs {
            1 => 4,
            2 => 3,
            _ => 2,
        }
    }

    fn main_names(&self) -> Vec<&'static str> {
        let mut v: Vec<&'static str> = INPUT_NAMES[..self.inputs].to_vec();
        v.extend(LOCAL_NAMES);
        v
    }
}

// ---------------------------------------------------------------------------
// Strategies.

fn cmp_op() -> impl Strategy<Value = CmpOp> {
    prop_oneof![
        Just(CmpOp::Eq),
        Just(CmpOp::Ne),
        Just(CmpOp::Lt),
        Just(CmpOp::Le),
        Just(CmpOp::Gt),
        Just(CmpOp::Ge),
    ]
}

fn expr(nvars: usize) -> BoxedStrategy<E> {
    let leaf = prop_oneof![
        2 => (-5i64..5).prop_map(E::Num),
        3 => (0..nvars).prop_map(E::Var),
    ];
    leaf.prop_recursive(3, 10, 2, |inner| {
        let constant = || prop_oneof![-4i64..=-1, 1i64..=4].prop_map(E::Num);
        // Most divisors are nonzero constants (half of them negative), and
        // most products have a constant factor: products of variables
        // compounded by loops soon give the solver polynomials of high
        // degree that it cannot decide (an `unknown` fails the test).
        let divisor = prop_oneof![1 => inner.clone(), 2 => constant()];
        let factor = prop_oneof![1 => inner.clone(), 5 => constant()];
        let linear = prop_oneof![Just(ArithOp::Add), Just(ArithOp::Sub)];
        let division = prop_oneof![Just(ArithOp::Div), Just(ArithOp::Rem)];
        prop_oneof![
            5 => (linear, inner.clone(), inner.clone())
                .prop_map(|(op, a, b)| E::Bin(op, Box::new(a), Box::new(b))),
            2 => (inner.clone(), factor)
                .prop_map(|(a, b)| E::Bin(ArithOp::Mul, Box::new(a), Box::new(b))),
            2 => (division, inner.clone(), divisor)
                .prop_map(|(op, a, b)| E::Bin(op, Box::new(a), Box::new(b))),
            1 => inner.clone().prop_map(|a| E::Neg(Box::new(a))),
            1 => inner.prop_map(|a| E::Elem(Box::new(a))),
        ]
    })
    .boxed()
}

fn cond(nvars: usize) -> BoxedStrategy<C> {
    let leaf = prop_oneof![
        // Simple tests on one variable split paths the most.
        4 => (cmp_op(), (0..nvars).prop_map(E::Var), (-3i64..3).prop_map(E::Num))
            .prop_map(|(op, a, b)| C::Cmp(op, a, b)),
        4 => (cmp_op(), expr(nvars), expr(nvars)).prop_map(|(op, a, b)| C::Cmp(op, a, b)),
        1 => any::<bool>().prop_map(C::Bool),
    ];
    leaf.prop_recursive(2, 4, 2, |inner| {
        prop_oneof![
            1 => inner.clone().prop_map(|c| C::Not(Box::new(c))),
            2 => (inner.clone(), inner.clone()).prop_map(|(a, b)| C::And(Box::new(a), Box::new(b))),
            2 => (inner.clone(), inner).prop_map(|(a, b)| C::Or(Box::new(a), Box::new(b))),
        ]
    })
    .boxed()
}

/// What a statement list may contain.
#[derive(Clone, Copy)]
struct Scope {
    nvars: usize,
    /// Main program outside loops: reads are allowed.
    reads: bool,
    /// A procedure `f` exists and may be called.
    calls: bool,
}

fn stmts(scope: Scope, depth: u32, len: std::ops::Range<usize>) -> BoxedStrategy<Vec<S>> {
    proptest::collection::vec(stmt(scope, depth), len).boxed()
}

fn stmt(scope: Scope, depth: u32) -> BoxedStrategy<S> {
    let n = scope.nvars;
    // Assertions and assumptions mostly hold, so that paths go on: an
    // inequality, a disjunction, or any condition.
    let likely = || {
        prop_oneof![
            4 => (expr(n), expr(n)).prop_map(|(a, b)| C::Cmp(CmpOp::Ne, a, b)),
            2 => (cond(n), cond(n)).prop_map(|(a, b)| C::Or(Box::new(a), Box::new(b))),
            1 => cond(n),
        ]
    };
    let mut options: Vec<(u32, BoxedStrategy<S>)> = vec![
        (
            8,
            (0..n, expr(n)).prop_map(|(v, e)| S::Assign(v, e)).boxed(),
        ),
        (
            1,
            (expr(n), expr(n)).prop_map(|(i, e)| S::Store(i, e)).boxed(),
        ),
        (2, likely().prop_map(S::Assert).boxed()),
        (1, likely().prop_map(S::Assume).boxed()),
    ];
    if scope.reads {
        options.push((1, (0..n).prop_map(S::Havoc).boxed()));
    }
    if scope.calls {
        options.push((2, (0..n, expr(n)).prop_map(|(v, e)| S::Call(v, e)).boxed()));
    }
    if depth < 2 {
        let inner = Scope {
            reads: false,
            ..scope
        };
        options.push((
            7,
            (
                cond(n),
                stmts(scope, depth + 1, 1..4),
                stmts(scope, depth + 1, 0..3),
            )
                .prop_map(|(c, a, b)| S::If(c, a, b))
                .boxed(),
        ));
        options.push((
            2,
            (
                0i64..=3,
                proptest::option::weighted(0.4, cond(n)),
                stmts(inner, depth + 1, 1..3),
            )
                .prop_map(|(k, c, body)| S::Loop(k, c, body))
                .boxed(),
        ));
    }
    proptest::strategy::Union::new_weighted(options).boxed()
}

fn program() -> impl Strategy<Value = Prog> {
    (1usize..=3, proptest::bool::weighted(0.4)).prop_flat_map(|(inputs, with_proc)| {
        let nvars = inputs + LOCAL_NAMES.len();
        let proc_scope = Scope {
            nvars: PROC_NAMES.len(),
            reads: false,
            calls: false,
        };
        let proc_ = if with_proc {
            (expr(1), stmts(proc_scope, 1, 0..3), expr(2))
                .prop_map(|(q, body, ret)| Some(Proc { q, body, ret }))
                .boxed()
        } else {
            Just(None).boxed()
        };
        let main_scope = Scope {
            nvars,
            reads: true,
            calls: with_proc,
        };
        (
            [(0usize..4, -5i64..5), (0usize..4, -5i64..5)],
            [
                -5i64..5,
                -5i64..5,
                -5i64..5,
                -5i64..5,
                -5i64..5,
                -5i64..5,
                -5i64..5,
            ],
            proc_,
            stmts(main_scope, 0, 3..10),
        )
            .prop_map(move |(locals, array, proc_, main)| Prog {
                inputs,
                locals,
                array,
                proc_,
                main,
            })
    })
}

// ---------------------------------------------------------------------------
// Rendering to the real syntax tree.

fn ident(name: &str) -> ast::Ident {
    ast::Ident {
        name: Arc::from(name),
        span: Span::default(),
    }
}

fn num(v: i64) -> ast::Expr {
    ast::Expr::Num {
        value: Int::from(v),
        span: Span::default(),
    }
}

fn bin(op: ArithOp, a: ast::Expr, b: ast::Expr) -> ast::Expr {
    ast::Expr::Binary {
        op,
        lhs: Box::new(a),
        rhs: Box::new(b),
        span: Span::default(),
        op_span: Span::default(),
    }
}

fn cmp(op: CmpOp, a: ast::Expr, b: ast::Expr) -> ast::Cond {
    ast::Cond::Cmp {
        op,
        lhs: a,
        rhs: b,
        span: Span::default(),
    }
}

fn and(a: ast::Cond, b: ast::Cond) -> ast::Cond {
    ast::Cond::And {
        lhs: Box::new(a),
        rhs: Box::new(b),
        span: Span::default(),
    }
}

fn var(name: &str) -> ast::Expr {
    ast::Expr::Var(ident(name))
}

fn assign(name: &str, e: ast::Expr) -> ast::Stmt {
    ast::Stmt::Assign {
        target: ident(name),
        value: e,
        span: Span::default(),
    }
}

fn assume(c: ast::Cond) -> ast::Stmt {
    ast::Stmt::Assume {
        cond: c,
        span: Span::default(),
    }
}

/// `lo <= v and v <= hi`, written `v >= lo and v <= hi`.
fn in_range(name: &str, lo: i64, hi: i64) -> ast::Cond {
    and(
        cmp(CmpOp::Ge, var(name), num(lo)),
        cmp(CmpOp::Le, var(name), num(hi)),
    )
}

fn seq(mut v: Vec<ast::Stmt>) -> ast::Stmt {
    match v.len() {
        0 => ast::Stmt::Skip(Span::default()),
        1 => v.pop().unwrap(),
        _ => ast::Stmt::Seq(v),
    }
}

struct Render<'a> {
    names: &'a [&'static str],
    /// Loop counters are `{counter}{depth}`.
    counter: &'static str,
}

impl Render<'_> {
    fn index(&self, e: &E) -> ast::Expr {
        match e {
            E::Num(k) if (-3..=3).contains(k) => num(*k),
            _ => bin(ArithOp::Rem, self.expr(e), num(4)),
        }
    }

    fn expr(&self, e: &E) -> ast::Expr {
        match e {
            E::Num(v) => num(*v),
            E::Var(i) => var(self.names[*i]),
            E::Elem(i) => ast::Expr::Index {
                array: ident("a"),
                index: Box::new(self.index(i)),
                span: Span::default(),
            },
            E::Neg(a) => ast::Expr::Neg {
                operand: Box::new(self.expr(a)),
                span: Span::default(),
            },
            E::Bin(op, a, b) => bin(*op, self.expr(a), self.expr(b)),
        }
    }

    fn cond(&self, c: &C) -> ast::Cond {
        match c {
            C::Bool(b) => ast::Cond::Bool {
                value: *b,
                span: Span::default(),
            },
            C::Cmp(op, a, b) => cmp(*op, self.expr(a), self.expr(b)),
            C::Not(a) => ast::Cond::Not {
                operand: Box::new(self.cond(a)),
                span: Span::default(),
            },
            C::And(a, b) => and(self.cond(a), self.cond(b)),
            C::Or(a, b) => ast::Cond::Or {
                lhs: Box::new(self.cond(a)),
                rhs: Box::new(self.cond(b)),
                span: Span::default(),
            },
        }
    }

    fn stmts(&self, ss: &[S], depth: u32, out: &mut Vec<ast::Stmt>) {
        for s in ss {
            self.stmt(s, depth, out);
        }
    }

    fn block(&self, ss: &[S], depth: u32) -> ast::Stmt {
        let mut v = Vec::new();
        self.stmts(ss, depth, &mut v);
        seq(v)
    }

    fn stmt(&self, s: &S, depth: u32, out: &mut Vec<ast::Stmt>) {
        let sp = Span::default();
        match s {
            S::Assign(v, e) => out.push(assign(self.names[*v], self.expr(e))),
            S::Havoc(v) => {
                let name = self.names[*v];
                out.push(ast::Stmt::Havoc {
                    target: ident(name),
                    span: sp,
                });
                out.push(assume(in_range(name, *READS.start(), *READS.end())));
            }
            S::Store(i, e) => out.push(ast::Stmt::ArrayAssign {
                array: ident("a"),
                index: self.index(i),
                value: self.expr(e),
                span: sp,
            }),
            S::If(c, a, b) => out.push(ast::Stmt::If {
                cond: self.cond(c),
                then_branch: Box::new(self.block(a, depth + 1)),
                else_branch: Box::new(self.block(b, depth + 1)),
                span: sp,
            }),
            S::Loop(bound, c, body) => {
                let counter = format!("{}{depth}", self.counter);
                out.push(assign(&counter, num(0)));
                let mut test = cmp(CmpOp::Lt, var(&counter), num(*bound));
                if let Some(c) = c {
                    test = and(test, self.cond(c));
                }
                let mut v = Vec::new();
                self.stmts(body, depth + 1, &mut v);
                v.push(assign(&counter, bin(ArithOp::Add, var(&counter), num(1))));
                out.push(ast::Stmt::While {
                    cond: test,
                    body: Box::new(seq(v)),
                    span: sp,
                });
            }
            S::Assert(c) => out.push(ast::Stmt::Assert {
                cond: self.cond(c),
                span: sp,
            }),
            S::Assume(c) => out.push(assume(self.cond(c))),
            S::Call(v, e) => out.push(ast::Stmt::Call {
                target: Some(ident(self.names[*v])),
                callee: ident("f"),
                args: vec![self.expr(e)],
                span: sp,
            }),
        }
    }
}

fn uses_array(p: &Prog) -> bool {
    fn e(x: &E) -> bool {
        match x {
            E::Num(_) | E::Var(_) => false,
            E::Elem(_) => true,
            E::Neg(a) => e(a),
            E::Bin(_, a, b) => e(a) || e(b),
        }
    }
    fn c(x: &C) -> bool {
        match x {
            C::Bool(_) => false,
            C::Cmp(_, a, b) => e(a) || e(b),
            C::Not(a) => c(a),
            C::And(a, b) | C::Or(a, b) => c(a) || c(b),
        }
    }
    fn s(x: &S) -> bool {
        match x {
            S::Havoc(_) => false,
            S::Assign(_, a) | S::Call(_, a) => e(a),
            S::Store(..) => true,
            S::If(k, a, b) => c(k) || a.iter().any(s) || b.iter().any(s),
            S::Loop(_, k, body) => k.as_ref().is_some_and(c) || body.iter().any(s),
            S::Assert(k) | S::Assume(k) => c(k),
        }
    }
    p.main.iter().any(s)
        || p.proc_
            .as_ref()
            .is_some_and(|f| e(&f.q) || e(&f.ret) || f.body.iter().any(s))
}

fn to_ast(p: &Prog) -> ast::Program {
    let main_names = p.main_names();
    let r = Render {
        names: &main_names,
        counter: "i",
    };
    let mut main = Vec::new();
    let b = p.bound();
    for name in &INPUT_NAMES[..p.inputs] {
        main.push(assume(in_range(name, -b, b)));
    }
    for (name, (input, c)) in LOCAL_NAMES.iter().zip(p.locals) {
        let init = if input < p.inputs {
            bin(ArithOp::Add, var(INPUT_NAMES[input]), num(c))
        } else {
            num(c)
        };
        main.push(assign(name, init));
    }
    if uses_array(p) {
        for (k, v) in (-3..=3).zip(p.array) {
            main.push(ast::Stmt::ArrayAssign {
                array: ident("a"),
                index: num(k),
                value: num(v),
                span: Span::default(),
            });
        }
    }
    r.stmts(&p.main, 0, &mut main);
    let procs = p
        .proc_
        .iter()
        .map(|f| {
            let r = Render {
                names: &PROC_NAMES,
                counter: "k",
            };
            let mut body = vec![assign("q", r.expr(&f.q))];
            r.stmts(&f.body, 0, &mut body);
            body.push(ast::Stmt::Return {
                value: r.expr(&f.ret),
                span: Span::default(),
            });
            ast::ProcDef {
                name: ident("f"),
                params: vec![ident("p")],
                body: seq(body),
                span: Span::default(),
            }
        })
        .collect();
    ast::Program {
        macros: Vec::new(),
        procs,
        main: seq(main),
    }
}

/// A generated program and its source; `Debug` shows the source, so a
/// failing case prints the program.
#[derive(Clone)]
struct Case {
    prog: Prog,
    src: String,
}

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n----- program -----\n{}-------------------", self.src)
    }
}

fn case() -> impl Strategy<Value = Case> {
    program().prop_map(|prog| {
        let src = to_ast(&prog).to_string();
        Case { prog, src }
    })
}

// ---------------------------------------------------------------------------
// The oracles.

const MAX_STEPS: u64 = 100_000;
const MAX_STATES: u64 = 400_000;

/// Where an error happens: kind, place and call stack (innermost first).
type Loc = (ErrorKind, Span, Vec<(Arc<str>, Span)>);

fn loc(kind: ErrorKind, span: Span, stack: &[CallSite]) -> Loc {
    let stack = stack
        .iter()
        .map(|c| (c.routine.clone(), c.call_site))
        .collect();
    (kind, span, stack)
}

/// One enumerated input and how its run ended.
struct Concrete {
    input: Input,
    outcome: Outcome,
    store: Vec<(Arc<str>, Int)>,
    arrays: Vec<(Arc<str>, Array)>,
}

/// Every input in the box, with every sequence of read values in
/// [`READS`] the run asks for.
fn enumerate(ir: &Ir, bound: i64) -> Vec<Concrete> {
    let names: Vec<Arc<str>> = ir.inputs.iter().map(|(_, n)| n.clone()).collect();
    let mut out = Vec::new();
    let mut values = vec![-bound; names.len()];
    loop {
        let vars: Vec<(Arc<str>, Int)> = names
            .iter()
            .cloned()
            .zip(values.iter().map(|&v| Int::from(v)))
            .collect();
        let mut pending: Vec<Vec<Int>> = vec![Vec::new()];
        while let Some(reads) = pending.pop() {
            let input = Input {
                vars: vars.clone(),
                reads,
                arrays: Vec::new(),
            };
            let run = concrete::run(ir, &input, MAX_STEPS);
            if run.missing_reads > 0 {
                for v in READS {
                    let mut r = input.reads.clone();
                    r.push(Int::from(v));
                    pending.push(r);
                }
                continue;
            }
            out.push(Concrete {
                store: run.final_store(ir),
                arrays: run.final_arrays(ir),
                outcome: run.outcome,
                input,
            });
        }
        // The next point of the box, odometer style.
        let mut k = 0;
        loop {
            if k == values.len() {
                return out;
            }
            if values[k] < bound {
                values[k] += 1;
                break;
            }
            values[k] = -bound;
            k += 1;
        }
    }
}

/// The model that describes a concrete input (arrays: all zero).
fn model_of(ir: &Ir, input: &Input) -> Model {
    let mut m = Model::new();
    for (name, v) in &input.vars {
        m.set_int(name.clone(), v.clone());
    }
    for (k, v) in input.reads.iter().enumerate() {
        m.set_int(Arc::from(wiser_engine::read_symbol(k as u32)), v.clone());
    }
    for name in &ir.arrays {
        m.set_array(name.clone(), ArrayValue::default());
    }
    m
}

fn same_array(concrete: &Array, model: &ArrayValue) -> bool {
    concrete.default == model.default
        && concrete
            .elems
            .keys()
            .chain(model.entries.keys())
            .all(|i| concrete.elems.get(i).unwrap_or(&concrete.default) == &model.get(i))
}

/// Does the final state's store, evaluated under `m`, equal the concrete
/// final store and arrays? `Err` says where it differs.
fn store_matches(
    fs: &FinalState,
    m: &Model,
    store: &[(Arc<str>, Int)],
    arrays: &[(Arc<str>, Array)],
) -> Result<(), String> {
    if fs.store.len() != store.len() || fs.arrays.len() != arrays.len() {
        return Err("store shapes differ".into());
    }
    for ((name, term), (cname, cv)) in fs.store.iter().zip(store) {
        assert_eq!(name, cname);
        match m.eval(term) {
            Value::Int(v) if &v == cv => {}
            other => {
                return Err(format!(
                    "`{name}`: symbolic {term:?} evaluates to {other:?}, concrete {cv}"
                ))
            }
        }
    }
    for ((name, term), (cname, ca)) in fs.arrays.iter().zip(arrays) {
        assert_eq!(name, cname);
        match m.eval(term) {
            Value::Array(av) if same_array(ca, &av) => {}
            other => {
                return Err(format!(
                    "array `{name}`: symbolic evaluates to {other:?}, concrete {ca:?}"
                ))
            }
        }
    }
    Ok(())
}

fn replays(ir: &Ir, input: &Input, at: &Loc) -> Result<(), String> {
    let run = concrete::run(ir, input, MAX_STEPS);
    match run.outcome {
        Outcome::Error { kind, span, stack } if loc(kind, span, &stack) == *at => Ok(()),
        other => Err(format!("witness {input:?} for {at:?} replays as {other:?}")),
    }
}

fn run_oracles(case: &Case) -> Result<(), TestCaseError> {
    let src = &case.src;
    let ir = wiser_semantics::compile(src)
        .map_err(|d| TestCaseError::fail(format!("generated program does not compile: {d:?}")))?;
    // Every input is one of the boxed ones.
    for (_, name) in &ir.inputs {
        prop_assert!(
            INPUT_NAMES[..case.prog.inputs].contains(&&**name),
            "unexpected input `{}`",
            name
        );
    }

    // Concrete enumeration.
    let runs = enumerate(&ir, case.prog.bound());
    let mut failing: BTreeSet<Loc> = BTreeSet::new();
    for r in &runs {
        match &r.outcome {
            Outcome::Error { kind, span, stack } => {
                failing.insert(loc(*kind, *span, stack));
            }
            Outcome::OutOfSteps => {
                return Err(TestCaseError::fail(format!(
                    "input {:?} runs out of steps",
                    r.input
                )))
            }
            Outcome::Halted | Outcome::AssumeFailed { .. } => {}
        }
    }

    // The explorer, with final states.
    let explorer = Explorer::new(&ir, Z3Solver::new(None), Search::Bfs).with_final_states(true);
    let mut finals: Vec<FinalState> = Vec::new();
    let mut explored: BTreeSet<Loc> = BTreeSet::new();
    let mut states = 0u64;
    for ev in explorer {
        states += 1;
        prop_assert!(
            states <= MAX_STATES,
            "the explorer did not finish in {} states",
            MAX_STATES
        );
        match ev {
            Event::Finished => break,
            Event::Pending => {}
            Event::Final(fs) => finals.push(*fs),
            Event::BugFound(bug) => {
                let at = loc(bug.kind, bug.span, &bug.stack);
                replays(&ir, &bug.input, &at).map_err(TestCaseError::fail)?;
                explored.insert(at);
            }
            Event::Undecided => return Err(TestCaseError::fail("the solver answered unknown")),
            Event::InternalError(msg) => return Err(TestCaseError::fail(msg)),
        }
    }

    // Exhaustiveness: each halted run is covered by exactly one final
    // state with the same store; no other run is covered by any.
    for r in &runs {
        let m = model_of(&ir, &r.input);
        let covering: Vec<&FinalState> = finals
            .iter()
            .filter(|fs| fs.path_condition.iter().all(|t| m.holds(t)))
            .collect();
        match &r.outcome {
            Outcome::Halted => {
                prop_assert_eq!(
                    covering.len(),
                    1,
                    "halted input {:?} is covered by {} final states",
                    r.input,
                    covering.len()
                );
                store_matches(covering[0], &m, &r.store, &r.arrays)
                    .map_err(|e| TestCaseError::fail(format!("input {:?}: {e}", r.input)))?;
            }
            other => prop_assert!(
                covering.is_empty(),
                "input {:?} ends as {:?} but a final state covers it: {:?}",
                r.input,
                other,
                covering[0].path_condition
            ),
        }
    }
    prop_assert_eq!(
        &explored,
        &failing,
        "explorer bugs (left) vs failing inputs (right)"
    );

    // Precision: every final state's model replays to its store.
    for fs in &finals {
        let Some(m) = &fs.model else { continue };
        for t in &fs.path_condition {
            prop_assert!(m.holds(t), "a final state's model violates {:?}", t);
        }
        let input = witness::input_from_model(&ir, m, fs.reads);
        let run = concrete::run(&ir, &input, MAX_STEPS);
        prop_assert_eq!(
            &run.outcome,
            &Outcome::Halted,
            "a final state's model {:?} replays as {:?}",
            input,
            run.outcome
        );
        prop_assert!(run.missing_reads == 0, "the replay needed more reads");
        store_matches(fs, m, &run.final_store(&ir), &run.final_arrays(&ir))
            .map_err(|e| TestCaseError::fail(format!("replay of {input:?}: {e}")))?;
    }

    // The verdict of `check --all`.
    let config = Config::default()
        .with_all_bugs(true)
        .with_max_states(MAX_STATES)
        .with_timeout(Some(Duration::from_secs(120)));
    let report = check(&ir, &config);
    prop_assert!(
        report.internal_errors.is_empty(),
        "internal errors: {:?}",
        report.internal_errors
    );
    prop_assert!(
        report.incomplete.is_empty(),
        "the search was not exhaustive: {:?}",
        report.incomplete
    );
    let mut reported: BTreeSet<Loc> = BTreeSet::new();
    for bug in &report.bugs {
        let at = loc(bug.kind, bug.span, &bug.stack);
        replays(&ir, &bug.input, &at).map_err(TestCaseError::fail)?;
        reported.insert(at);
    }
    let expected = if failing.is_empty() {
        Verdict::Safe
    } else {
        Verdict::Bug
    };
    prop_assert_eq!(report.verdict, expected, "verdict");
    prop_assert_eq!(
        &reported,
        &failing,
        "reported bugs (left) vs failing inputs (right)"
    );
    if std::env::var_os("WISER_ORACLES_VERBOSE").is_some() {
        let halted = runs.iter().filter(|r| r.outcome == Outcome::Halted).count();
        let errors = runs
            .iter()
            .filter(|r| matches!(r.outcome, Outcome::Error { .. }))
            .count();
        eprintln!(
            "{}# runs {} finals {} bug locations {} states {} halted {halted} errors {errors}\n",
            case.src,
            runs.len(),
            finals.len(),
            failing.len(),
            report.stats.states
        );
    }
    Ok(())
}

/// Cases per run: `WISER_ORACLES_CASES`, or a number that keeps the test
/// well under a minute in a debug build.
fn cases() -> u32 {
    std::env::var("WISER_ORACLES_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(256)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        max_shrink_iters: 500,
        failure_persistence: Some(Box::new(FileFailurePersistence::Off)),
        ..ProptestConfig::default()
    })]

    #[test]
    fn explorer_agrees_with_enumeration(case in case()) {
        run_oracles(&case)?;
    }
}

/// A fixed program through the same oracles, so the harness itself is
/// known to see bugs (negative division, a call, an array, a read).
#[test]
fn harness_sees_a_known_bug() {
    let prog = Prog {
        inputs: 2,
        locals: [(3, 1), (0, -2)],
        array: [0; 7],
        proc_: Some(Proc {
            q: E::Bin(ArithOp::Rem, Box::new(E::Var(0)), Box::new(E::Num(-2))),
            body: vec![S::Assert(C::Cmp(CmpOp::Ne, E::Var(1), E::Num(-1)))],
            ret: E::Bin(ArithOp::Div, Box::new(E::Var(0)), Box::new(E::Num(-2))),
        }),
        main: vec![
            S::Havoc(2),
            S::Store(E::Var(0), E::Var(2)),
            S::Call(3, E::Elem(Box::new(E::Var(0)))),
            S::Assign(
                2,
                E::Bin(ArithOp::Div, Box::new(E::Num(7)), Box::new(E::Var(1))),
            ),
        ],
    };
    let src = to_ast(&prog).to_string();
    let case = Case { prog, src };
    run_oracles(&case).unwrap_or_else(|e| panic!("{e}\n{case:?}"));
    let ir = wiser_semantics::compile(&case.src).unwrap();
    let report = check(&ir, &Config::default().with_all_bugs(true));
    let kinds: BTreeSet<ErrorKind> = report.bugs.iter().map(|b| b.kind).collect();
    assert_eq!(
        kinds,
        BTreeSet::from([ErrorKind::Assertion, ErrorKind::DivisionByZero]),
        "{case:?}"
    );
}
