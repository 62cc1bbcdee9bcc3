//! Loop acceleration (`wiser_ir::accelerate`) changes no run: on random
//! counting loops over narrow types (every way to end: the guard, an
//! unsigned wrap, a signed overflow, never), the accelerated program ends
//! as the original does, with the same values, in far fewer steps.

use proptest::prelude::*;
use wiser_ir::{accelerate, Ir};
use wiser_num::Int;
use wiser_semantics::concrete::{self, Outcome};
use wiser_semantics::{ErrorKind, Input};

const STEPS: u64 = 4_000_000;

fn outcome(o: &Outcome) -> String {
    match o {
        Outcome::Error { kind, span, .. } => format!("{kind} at {span:?}"),
        other => format!("{other:?}"),
    }
}

/// Runs `ir` and the accelerated `ir` on `vars`; checks they agree and
/// returns the two step counts.
fn agree(src: &str, vars: &[(&str, i64)], accelerated: bool) -> (u64, u64) {
    let ir: Ir = wiser_imp::compile(src).unwrap();
    let mut fast = ir.clone();
    assert_eq!(
        accelerate::counting_loops(&mut fast),
        usize::from(accelerated),
        "{src}\n{fast}"
    );
    let input = Input {
        vars: vars
            .iter()
            .map(|(n, v)| ((*n).into(), Int::from(*v)))
            .collect(),
        ..Input::default()
    };
    let slow_run = concrete::run(&ir, &input, STEPS);
    let fast_run = concrete::run(&fast, &input, STEPS);
    // Undone (for the prover), it runs step by step as written.
    let plain = concrete::run(&accelerate::as_written(&fast), &input, STEPS);
    assert_eq!(
        (outcome(&plain.outcome), plain.steps),
        (outcome(&slow_run.outcome), slow_run.steps)
    );
    let (a, b) = (outcome(&slow_run.outcome), outcome(&fast_run.outcome));
    if matches!(slow_run.outcome, Outcome::OutOfSteps) {
        // Too long to compare (or endless: then the accelerated loop
        // runs out of steps too, which the long-loop test checks).
        return (slow_run.steps, fast_run.steps);
    }
    assert_eq!(a, b, "{src} on {vars:?}");
    let n = slow_run.state.main_frame().locals.len();
    let slow: Vec<_> = (0..n)
        .map(|i| slow_run.state.main_frame().locals[i].clone())
        .collect();
    let fast: Vec<_> = (0..n)
        .map(|i| fast_run.state.main_frame().locals[i].clone())
        .collect();
    assert_eq!(slow, fast, "{src} on {vars:?}");
    (slow_run.steps, fast_run.steps)
}

const TYPES: [&str; 5] = ["u8", "i8", "u16", "i16", "u32"];
const OPS: [&str; 6] = ["<", "<=", ">", ">=", "!=", "=="];

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]
    #[test]
    fn accelerated_loops_end_as_the_originals(
        vt in 0..TYPES.len(), wt in 0..TYPES.len(), op in 0..OPS.len(),
        flip in any::<bool>(), by in -4i64..=4, wby in -100i64..=100,
        v in -70_000i64..70_000, w in -70_000i64..70_000, k in -70_000i64..70_000,
        bound_is_var in any::<bool>(),
    ) {
        prop_assume!(by != 0);
        let (vt, wt) = (TYPES[vt], TYPES[wt]);
        let step = |x: &str, t: &str, by: i64| {
            let s = if by >= 0 { format!("{x} + {by}") } else { format!("{x} - {}", -by) };
            format!("{x} = ({s}): {t}").replace(&format!("): {t}"), ")")
        };
        let bound = if bound_is_var { "k".to_string() } else { format!("{}", k.rem_euclid(100)) };
        let guard = if flip { format!("{bound} {} v", OPS[op]) } else { format!("v {} {bound}", OPS[op]) };
        let src = format!(
            "v: {vt} = *;\nw: {wt} = *;\nk: {vt} = *;\nwhile {guard} do\n  {};\n  {}\nod\n",
            step("v", vt, by), step("w", wt, wby)
        );
        let wrap = |x: i64, t: &str| -> i64 {
            let (bits, signed) = match t { "u8" => (8, false), "i8" => (8, true), "u16" => (16, false), "i16" => (16, true), _ => (32, false) };
            let m = x.rem_euclid(1 << bits);
            if signed && m >= 1 << (bits - 1) { m - (1 << bits) } else { m }
        };
        // `v != K` by steps of more than 1 may jump over `K`: left alone.
        let accelerated = !(OPS[op] == "!=" && by.abs() != 1);
        agree(&src, &[("v", wrap(v, vt)), ("w", wrap(w, wt)), ("k", wrap(k, vt))], accelerated);
    }
}

#[test]
fn long_loops_take_few_steps() {
    // 2^27 iterations to the guard; the bug of SV-COMP's simple_1-1.
    let src = "v: u32 = *;\nw: i32 = *;\nwhile v < 268435455 do\n  v = v + 2;\n  w = w - 1\nod;\nassert v % 2 == 1\n";
    let ir = wiser_imp::compile(src).unwrap();
    let mut fast = ir.clone();
    assert_eq!(accelerate::counting_loops(&mut fast), 1);
    let run = concrete::run(&fast, &Input::default(), 100);
    assert!(
        matches!(
            run.outcome,
            Outcome::Error {
                kind: ErrorKind::Assertion,
                ..
            }
        ),
        "{:?}",
        run.outcome
    );
    let values = &run.state.main_frame().locals;
    assert_eq!(
        (values[0].clone(), values[1].clone()),
        (Int::from(268_435_456), Int::from(-134_217_728))
    );
    // A loop that ends only by a wrap (SV-COMP's overflow_1-2), and one
    // that never ends: stepping on, one wrap at a time, for ever.
    let wraps = "v: u32 = *;\nwhile v >= 10 do\n  v = v + 2\nod\n";
    let mut fast = wiser_imp::compile(wraps).unwrap();
    accelerate::counting_loops(&mut fast);
    let input = Input {
        vars: vec![("v".into(), Int::from(10))],
        ..Input::default()
    };
    let run = concrete::run(&fast, &input, 100);
    assert!(matches!(run.outcome, Outcome::Halted), "{:?}", run.outcome);
    assert_eq!(run.state.main_frame().locals[0], Int::from(0));
    let endless = "v: u32 = *;\nwhile v >= 0 do\n  v = v + 3\nod\n";
    let mut fast = wiser_imp::compile(endless).unwrap();
    accelerate::counting_loops(&mut fast);
    assert!(matches!(
        concrete::run(&fast, &Input::default(), 10_000).outcome,
        Outcome::OutOfSteps
    ));
    // A signed variable overflows where the original does, at its
    // statement, after 2^31 - 1 iterations taken at once.
    let overflows = "v: i32 = *;\nwhile v >= 0 do\n  v = v + 1\nod\n";
    let mut fast = wiser_imp::compile(overflows).unwrap();
    accelerate::counting_loops(&mut fast);
    let run = concrete::run(&fast, &Input::default(), 100);
    let Outcome::Error {
        kind: ErrorKind::SignedOverflow,
        span,
        ..
    } = run.outcome
    else {
        panic!("{:?}", run.outcome)
    };
    assert_eq!(
        (&overflows[span.lo as usize..span.hi as usize], span.lo),
        ("+", 36)
    );
}
