//! Seed 003's oracles as property tests.
//!
//! Programs come from `wiser_testkit`'s generator (small sizes), half of
//! the properties' cases with unbounded integers only and half with
//! machine integers; every input of a program has a finite domain fixed by
//! `assume`s, so the concrete interpreter can run all of them (with the
//! program's semantic options, wrapping signed arithmetic or not). Then
//! ([`judge::run_oracles`]):
//!
//! * exhaustiveness: every concrete run is covered by a terminal symbolic
//!   state: an error run by a reported bug at the same kind, place and
//!   call stack; a halted run by exactly one [`wiser_engine::Event::Final`]
//!   state whose path condition holds under the input and whose store
//!   evaluates to the run's final store (and no final state covers a run
//!   that does not halt);
//! * precision: every final state's model replays concretely to a halt
//!   with the store its terms give under the model, and every reported bug
//!   replays;
//! * the verdict: `check --all` says bug iff some input fails (with
//!   exactly the failing locations), safe otherwise.
//!
//! Solver queries have a time limit; a case the solver cannot decide is
//! skipped and counted, and the test fails only if more than a quarter of
//! its cases are skipped (a few in a hundred are, mostly on bit-vector
//! products and conversions between `int` and fixed widths). A failing case is shrunk with
//! `wiser_testkit::shrink`'s simplifications and printed as source.
//! Float programs (a few fixed ones, [`float_programs_agree_on_sampled_inputs`])
//! go through the same oracles on sampled inputs, every combination of
//! their inputs' special values: there the oracles that need every input
//! become inclusions (see `judge::judge`).
//! `WISER_ORACLES_CASES=N` changes the number of cases of each property
//! (48 by default: the two properties, run in parallel, take well under a
//! minute in a debug build); `WISER_ORACLES_VERBOSE=1` prints every
//! program with its counts.

#[path = "oracles/judge.rs"]
mod judge;

use judge::{run_oracles, Case, Tally};
use proptest::strategy::{NewTree, Strategy, ValueTree};
use proptest::test_runner::{Config as ProptestConfig, TestRunner};
use std::collections::BTreeSet;
use std::sync::atomic::Ordering;
use wiser_engine::{symex, Config, MergeMode};
use wiser_num::{BinOp, CmpOp, IntTy, UnOp};
use wiser_semantics::ErrorKind;
use wiser_testkit::shrink::mutate;
use wiser_testkit::{generate, Co, Domain, Ex, GenConfig, Proc, Program, Spec, St};

/// Programs of the generator, from a seed the test runner draws, explored
/// with a merge mode.
#[derive(Debug)]
struct Programs(GenConfig, MergeMode);

impl Strategy for Programs {
    type Tree = Shrinking;
    type Value = Case;

    fn new_tree(&self, runner: &mut TestRunner) -> NewTree<Self> {
        use proptest::prelude::Rng;
        let seed = runner.rng().next_u64();
        let prog = generate(seed, 0, &self.0);
        Ok(Shrinking {
            failing: prog.clone(),
            current: prog,
            next: 0,
            shrinking: false,
            merge: self.1,
        })
    }
}

/// Shrinking by the testkit's one-step simplifications, greedily: after a
/// failure the current program is the new base and its simplifications
/// are tried in order; after a pass the next one is.
struct Shrinking {
    /// The smallest failing program so far.
    failing: Program,
    /// The program under test.
    current: Program,
    /// The index of the simplification of `failing` that `current` is.
    next: usize,
    /// Has shrinking begun?
    shrinking: bool,
    /// How the case is explored.
    merge: MergeMode,
}

impl Shrinking {
    /// Moves to simplification `next` of `failing`, or back to `failing`
    /// when there are no more.
    fn advance(&mut self) -> bool {
        match mutate(&self.failing, self.next) {
            Some(p) => {
                self.current = p;
                true
            }
            None => {
                self.current = self.failing.clone();
                false
            }
        }
    }
}

impl ValueTree for Shrinking {
    type Value = Case;

    fn current(&self) -> Case {
        Case::new(self.current.clone(), self.shrinking).with_merge(self.merge)
    }

    fn simplify(&mut self) -> bool {
        self.shrinking = true;
        self.failing = self.current.clone();
        self.next = 0;
        self.advance()
    }

    fn complicate(&mut self) -> bool {
        self.next += 1;
        self.advance()
    }
}

/// Cases per property: `WISER_ORACLES_CASES`, or a number that keeps the
/// test well under a minute in a debug build (24; 48 at full size,
/// `WISER_TEST_FULL=1`).
fn cases() -> u32 {
    std::env::var("WISER_ORACLES_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(wiser_testkit::sized(24, 48))
}

/// Runs the oracles on `cases()` programs of `cfg`.
fn property(cfg: GenConfig) {
    property_merging(cfg, MergeMode::None, cases());
}

/// Runs the oracles on `cases` programs of `cfg` explored with `merge`.
fn property_merging(cfg: GenConfig, merge: MergeMode, cases: u32) {
    let config = ProptestConfig {
        cases,
        max_shrink_iters: 2_000,
        max_shrink_time: 120_000,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    let mut runner = TestRunner::new(config);
    let tally = Tally::default();
    if let Err(e) = runner.run(&Programs(cfg, merge), |case| run_oracles(&case, &tally)) {
        panic!("{e}");
    }
    let skipped = tally.skipped.load(Ordering::Relaxed);
    let decided = tally.decided.load(Ordering::Relaxed);
    let with_bugs = tally.with_bugs.load(Ordering::Relaxed);
    eprintln!("{decided} cases decided ({with_bugs} with bugs), {skipped} skipped");
    assert!(
        skipped * 4 <= u64::from(cases),
        "the solver could not decide {skipped} of {cases} cases"
    );
    // Not vacuous: the programs have bugs, and most are decided.
    assert!(with_bugs > 0 && decided * 2 >= u64::from(cases));
}

#[test]
fn unbounded_programs_agree_with_enumeration() {
    property(GenConfig::tiny().only(false));
}

#[test]
fn machine_integer_programs_agree_with_enumeration() {
    property(GenConfig::tiny().only(true));
}

/// Seed 003: merged states are still precise and exhaustive. Half the
/// cases of the properties above (merging is the exception, not the
/// default).
#[test]
fn programs_agree_with_enumeration_when_states_merge_at_joins() {
    property_merging(GenConfig::tiny().only(false), MergeMode::Joins, cases() / 2);
}

#[test]
fn machine_integer_programs_agree_with_enumeration_when_merging_pays() {
    property_merging(GenConfig::tiny().only(true), MergeMode::Auto, cases() / 2);
}

fn var(n: &str) -> Ex {
    Ex::Var(n.into())
}

fn bin(op: BinOp, a: Ex, b: Ex) -> Ex {
    Ex::Bin(op, Box::new(a), Box::new(b))
}

/// The locations `check --all` reports on `prog`, after the oracles pass
/// on it.
fn kinds_found(prog: Program) -> BTreeSet<ErrorKind> {
    let case = Case::new(prog, false);
    run_oracles(&case, &Tally::default()).unwrap_or_else(|e| panic!("{e}\n{case:?}"));
    let ir = wiser_imp::compile(&case.src).unwrap();
    let config = Config::default()
        .with_all_bugs(true)
        .with_options(case.prog.spec.options());
    symex(&ir, &config).bugs.iter().map(|b| b.kind).collect()
}

/// A fixed program through the same oracles, so the harness itself is
/// known to see bugs (negative division, a call, an array, a read).
#[test]
fn harness_sees_a_known_bug() {
    let prog = Program {
        spec: Spec {
            inputs: vec![
                ("x".into(), Domain::range(-3, 3)),
                ("y".into(), Domain::range(-3, 3)),
            ],
            ..Spec::default()
        },
        types: vec![],
        array_types: vec![],
        array_init: (-3..=3).map(|i| ("a".into(), i, 0)).collect(),
        procs: vec![Proc {
            name: "f".into(),
            params: vec![("p".into(), IntTy::INT)],
            ret: IntTy::INT,
            locals: vec![],
            body: vec![
                St::Assign("q".into(), bin(BinOp::Rem, var("p"), Ex::Num(-2))),
                St::Assert(Co::Cmp(CmpOp::Ne, var("q"), Ex::Num(-1))),
                St::Return(bin(BinOp::Div, var("p"), Ex::Num(-2))),
            ],
        }],
        main: vec![
            St::Assign("t".into(), Ex::Num(1)),
            St::Havoc("t".into()),
            St::Store("a".into(), var("x"), var("t")),
            St::Call(
                Some("u".into()),
                "f".into(),
                vec![Ex::Elem("a".into(), Box::new(var("x")))],
            ),
            St::Assign("t".into(), bin(BinOp::Div, Ex::Num(7), var("y"))),
        ],
    };
    assert_eq!(
        kinds_found(prog),
        BTreeSet::from([ErrorKind::Assertion, ErrorKind::DivisionByZero])
    );
}

/// The same for machine integers: a signed overflow, a `MIN / -1` and a
/// shift out of range, each on some inputs only; with wrapping, the
/// overflow is gone.
#[test]
fn harness_sees_machine_integer_bugs() {
    let edges = Domain::from_intervals(vec![(-128, -127), (-1, 1), (126, 127)]);
    let mut prog = Program {
        spec: Spec {
            inputs: vec![("x".into(), edges.clone()), ("y".into(), edges)],
            ..Spec::default()
        },
        types: vec![
            ("x".into(), IntTy::I8),
            ("y".into(), IntTy::I8),
            ("t".into(), IntTy::I8),
            ("u".into(), IntTy::U32),
        ],
        array_types: vec![],
        array_init: vec![],
        procs: vec![],
        main: vec![
            St::Assign("t".into(), bin(BinOp::Add, var("x"), Ex::Num(1))),
            St::Assign("t".into(), bin(BinOp::Div, var("x"), var("y"))),
            St::Assign(
                "u".into(),
                bin(
                    BinOp::Shl,
                    Ex::Cast(IntTy::U32, Box::new(Ex::Num(1))),
                    Ex::Un(UnOp::Neg, Box::new(var("y"))),
                ),
            ),
        ],
    };
    assert_eq!(
        kinds_found(prog.clone()),
        BTreeSet::from([
            ErrorKind::SignedOverflow,
            ErrorKind::DivisionByZero,
            ErrorKind::DivisionOverflow,
            ErrorKind::InvalidShift,
        ])
    );
    prog.spec.wrap_signed = true;
    assert_eq!(
        kinds_found(prog),
        BTreeSet::from([
            ErrorKind::DivisionByZero,
            ErrorKind::DivisionOverflow,
            ErrorKind::InvalidShift,
        ])
    );
}

/// Float programs: their inputs cannot be enumerated, so each is judged
/// on samples (every combination of each input's special values: ±0,
/// ±inf, the NaN, the smallest and largest subnormal and normal numbers
/// of each sign, 1, -1, 0.5, and a few more; for an `i32`, 0, ±1, its
/// limits and ±2^24 + 1): every sampled run that halts is covered by
/// exactly one final state with its store, every final state's model
/// replays, every failing sample's place is reported, and `safe` means no
/// sample fails.
#[test]
fn float_programs_agree_on_sampled_inputs() {
    use wiser_num::{FloatTy, Int};
    // Each program, and the types of its reads in order.
    let programs: [(&str, &[Option<FloatTy>]); 6] = [
        (
            "var x: f32 = *;\nvar y: f32 = *;\nvar s: f32 = x + y;\n\
             if x == x and y == y then assert s == s else skip fi",
            &[Some(FloatTy::F32), Some(FloatTy::F32)],
        ),
        (
            "var x: f64 = *;\nvar n: i32 = i32(x);\nvar y: f64 = f64(n);\n\
             assert y <= x or x < 0.0",
            &[Some(FloatTy::F64)],
        ),
        (
            "var x: f32 = *;\nvar d: f64 = f64(x) * 2.0;\nvar b: f32 = f32(d / 2.0);\n\
             assert b == x",
            &[Some(FloatTy::F32)],
        ),
        (
            "var x: f32 = *;\nvar y: f32 = *;\nvar q: f32 = x - y;\n\
             if q > 0.0 then assert x > y else q = -(q) fi",
            &[Some(FloatTy::F32), Some(FloatTy::F32)],
        ),
        (
            "var x: f32 = *;\nassume x >= -100.0 and x <= 100.0;\nvar y: f32 = x * x;\n\
             assert y >= 0.0;\nvar n: i32 = i32(y)",
            &[Some(FloatTy::F32)],
        ),
        (
            "var n: i32 = *;\nvar d: f64 = f64(n);\nvar m: i32 = i32(d);\n\
             assert m == n;\nvar f: f32 = f32(n);\nassert f != 16777216.0",
            &[None],
        ),
    ];
    let specials = |t: Option<FloatTy>| -> Vec<Int> {
        match t {
            None => [0, 1, -1, i32::MIN, i32::MAX, 16_777_217, -16_777_217, 100]
                .into_iter()
                .map(Int::from)
                .collect(),
            Some(t) => {
                let mut v: Vec<Int> = [
                    0.0,
                    -0.0,
                    f64::INFINITY,
                    f64::NEG_INFINITY,
                    f64::NAN,
                    1.0,
                    -1.0,
                    0.5,
                    0.1,
                    3.0,
                    -2.5,
                    2147483648.0,
                    -2147483649.0,
                    1e10,
                ]
                .into_iter()
                .map(|x| t.from_f64(x))
                .collect();
                let (sub_min, sub_max, norm_min, norm_max) = match t {
                    FloatTy::F32 => (1u64, 0x007f_ffff, 0x0080_0000, 0x7f7f_ffff),
                    FloatTy::F64 => (
                        1,
                        0x000f_ffff_ffff_ffff,
                        0x0010_0000_0000_0000,
                        0x7fef_ffff_ffff_ffff,
                    ),
                };
                let sign = 1u64 << (t.bits() - 1);
                for b in [sub_min, sub_max, norm_min, norm_max] {
                    v.push(Int::from_u64(b));
                    v.push(Int::from_u64(b | sign));
                }
                v
            }
        }
    };
    let tally = Tally::default();
    for (src, types) in programs {
        let ir = wiser_imp::compile(src).unwrap_or_else(|d| panic!("{src}: {d:?}"));
        let pools: Vec<Vec<Int>> = types.iter().map(|t| specials(*t)).collect();
        let mut inputs: Vec<Vec<Int>> = vec![vec![]];
        for pool in &pools {
            inputs = inputs
                .iter()
                .flat_map(|prefix| {
                    pool.iter().map(move |v| {
                        let mut p = prefix.clone();
                        p.push(v.clone());
                        p
                    })
                })
                .collect();
        }
        let options = wiser_semantics::Options::default();
        let runs: Vec<judge::Concrete> = inputs
            .into_iter()
            .map(|reads| {
                let input = wiser_semantics::Input {
                    reads,
                    ..Default::default()
                };
                judge::Concrete::run(&ir, &input, options)
            })
            .collect();
        let subject = judge::Subject {
            ir: &ir,
            src,
            runs: &runs,
            sampled: true,
            options,
            merge: MergeMode::None,
            shrunk: false,
        };
        if let Err(e) = judge::judge(&subject, &tally, std::time::Instant::now()) {
            panic!("{e}\n----- program -----\n{src}");
        }
    }
    let skipped = tally.skipped.load(Ordering::Relaxed);
    let decided = tally.decided.load(Ordering::Relaxed);
    let with_bugs = tally.with_bugs.load(Ordering::Relaxed);
    eprintln!("{decided} float programs decided ({with_bugs} with bugs), {skipped} skipped");
    // Not vacuous: most are decided, some fail on a sample, some do not.
    assert!(
        decided >= 4 && with_bugs >= 2 && with_bugs < decided,
        "{decided} {with_bugs}"
    );
}
