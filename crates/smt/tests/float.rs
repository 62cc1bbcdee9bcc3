//! Float operations on terms against their one definition,
//! [`FloatOp::apply`]: for every operation, both float types and several
//! integer types, on the values where IEEE 754 and C's conversions are
//! delicate (zeros, infinities, NaNs, subnormals, the extreme normals,
//! halfway cases, the edges of each integer type's range) and a few
//! pseudo-random patterns, Z3's translation, cvc5 and Bitwuzla reading its
//! SMT-LIB rendering, folding and the model evaluator all give `apply`'s
//! result.
//! Then a few symbolic queries, where Z3 must search rather than compute.

use wiser_num::{CmpOp, FBinOp, FClass, FUnOp, FloatOp, FloatTy, Int, IntTy};
use wiser_smt::{Answer, Bitwuzla, Cvc5, Model, Solver, SolverStats, Sort, Term, Value, Z3Solver};
use wiser_testkit::{external_tool, Xorshift as Rng};

const INT_TYS: [IntTy; 7] = [
    IntTy::I8,
    IntTy::U8,
    IntTy::I32,
    IntTy::U32,
    IntTy::I64,
    IntTy::U64,
    IntTy::INT,
];

/// Every operation on `t`, with the integer types of [`INT_TYS`].
fn ops(t: FloatTy) -> Vec<FloatOp> {
    let mut out = Vec::new();
    for o in [
        FBinOp::Add,
        FBinOp::Sub,
        FBinOp::Mul,
        FBinOp::Div,
        FBinOp::Min,
        FBinOp::Max,
    ] {
        out.push(FloatOp::Binary(o, t));
    }
    for o in [
        FUnOp::Neg,
        FUnOp::Abs,
        FUnOp::Sqrt,
        FUnOp::Floor,
        FUnOp::Ceil,
        FUnOp::Trunc,
        FUnOp::Round,
        FUnOp::RoundEven,
    ] {
        out.push(FloatOp::Unary(o, t));
    }
    out.push(FloatOp::Fma(t));
    out.extend(CmpOp::ALL.map(|o| FloatOp::Cmp(o, t)));
    for c in [
        FClass::Nan,
        FClass::Infinite,
        FClass::Zero,
        FClass::Normal,
        FClass::Subnormal,
        FClass::Negative,
    ] {
        out.push(FloatOp::Class(c, t));
    }
    for i in INT_TYS {
        out.push(FloatOp::FromInt(i, t));
        out.push(FloatOp::ToInt(t, i));
        out.push(FloatOp::ToIntOverflows(t, i));
    }
    out.extend(FloatTy::ALL.map(|to| FloatOp::Convert(t, to)));
    out
}

/// The pattern of the float next to `x` away from zero (`up`) or toward
/// it, in `t`.
fn neighbour(t: FloatTy, x: f64, up: bool) -> u64 {
    let p = t.from_f64(x).low_bits(t.bits());
    let away = (x >= 0.0) == up;
    if x == 0.0 {
        return if up { 1 } else { 1 | (1 << (t.bits() - 1)) };
    }
    if away {
        p + 1
    } else {
        p - 1
    }
}

/// The interesting floats of `t`, as patterns; `edges` adds the floats
/// around each bound of every integer type (for the conversions).
fn floats(t: FloatTy, edges: bool, random: usize) -> Vec<u64> {
    let w = t.bits();
    let mant = t.significand_bits() - 1;
    let sign = 1u64 << (w - 1);
    let p = |x: f64| t.from_f64(x).low_bits(w);
    let max_exp = (1u64 << t.exponent_bits()) - 1;
    let mut out = vec![
        p(0.0),
        p(-0.0),
        p(f64::INFINITY),
        p(f64::NEG_INFINITY),
        t.nan().low_bits(w),
        // Other NaNs: negative, signalling, with a payload.
        t.nan().low_bits(w) | sign,
        (max_exp << mant) | 1,
        1,
        1 | sign,
        (1 << mant) - 1,
        1 << mant,
        ((max_exp - 1) << mant) | ((1 << mant) - 1),
        (((max_exp - 1) << mant) | ((1 << mant) - 1)) | sign,
    ];
    for x in [1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 0.1, 1e10, -3.75] {
        out.push(p(x));
    }
    if edges {
        for i in INT_TYS {
            let Some(bits) = i.width() else { continue };
            let (lo, end) = if i.is_signed() {
                let half = 2f64.powi(bits as i32 - 1);
                (-half, half)
            } else {
                (0.0, 2f64.powi(bits as i32))
            };
            for b in [lo, end] {
                out.push(p(b));
                out.push(neighbour(t, b, true));
                out.push(neighbour(t, b, false));
                for d in [-1.0, -0.5, 0.5, 1.0] {
                    out.push(p(b + d));
                }
            }
        }
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ u64::from(w));
    for _ in 0..random {
        out.push(rng.next() & wiser_num::bv::mask(w));
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Interesting values of integer type `i`, as terms hold them
/// (patterns for fixed widths).
fn ints(i: IntTy) -> Vec<Int> {
    let mut vals: Vec<Int> = [0i64, 1, -1, 7, -100, 16_777_217, -16_777_217]
        .into_iter()
        .map(Int::from)
        .collect();
    vals.push(Int::from((1i64 << 53) + 1));
    vals.push(Int::from(i64::MAX));
    vals.push(Int::from(i64::MIN));
    vals.push(Int::from_u64(u64::MAX));
    // 2^128 - 2^103 rounds to f32's infinity, 2^128 - 2^104 to its max.
    vals.push("340282356779733661637539395458142568448".parse().unwrap());
    vals.push("340282346638528859811704183484516925440".parse().unwrap());
    vals.push(format!("1{}", "0".repeat(400)).parse().unwrap());
    vals.push(format!("-3{}", "0".repeat(30)).parse().unwrap());
    if let (Some(lo), Some(hi)) = (i.min(), i.max()) {
        vals.extend([lo.clone(), hi.clone(), lo.add(&Int::ONE), hi.sub(&Int::ONE)]);
    }
    let mut rng = Rng(77);
    for _ in 0..4 {
        vals.push(Int::from(rng.next() as i64));
    }
    let mut out: Vec<Int> = match i.width() {
        None => vals,
        Some(w) => vals.iter().map(|v| Int::from_u64(v.low_bits(w))).collect(),
    };
    out.sort();
    out.dedup();
    out
}

/// The operand tuples to check `op` on.
fn operand_tuples(op: FloatOp) -> Vec<Vec<Int>> {
    let f = |t: FloatTy, edges, random| {
        floats(t, edges, random)
            .into_iter()
            .map(Int::from_u64)
            .collect::<Vec<_>>()
    };
    match op {
        FloatOp::Binary(_, t) | FloatOp::Cmp(_, t) => {
            let xs = f(t, false, 3);
            let mut out = Vec::new();
            for a in &xs {
                for b in &xs {
                    out.push(vec![a.clone(), b.clone()]);
                }
            }
            out
        }
        FloatOp::Fma(t) => {
            // Every triple of a smaller set, then the whole set against a
            // few, and cases where the fused rounding shows.
            let small: Vec<Int> = [0.0, -0.0, 1.0, -1.5, 0.1, f64::INFINITY, f64::NAN]
                .into_iter()
                .map(|x| t.from_f64(x))
                .collect();
            let mut out = Vec::new();
            for a in &small {
                for b in &small {
                    for c in &small {
                        out.push(vec![a.clone(), b.clone(), c.clone()]);
                    }
                }
            }
            let one = t.from_f64(1.0);
            for x in f(t, false, 3) {
                out.push(vec![x.clone(), x.clone(), x.clone()]);
                out.push(vec![x.clone(), one.clone(), small[4].clone()]);
            }
            let third = t.from_f64(1.0 / 3.0);
            let prod = t.from_f64(-(t.to_f64(&third) * 3.0));
            out.push(vec![third.clone(), t.from_f64(3.0), prod]);
            out
        }
        FloatOp::FromInt(i, _) => ints(i).into_iter().map(|v| vec![v]).collect(),
        FloatOp::ToInt(t, _) | FloatOp::ToIntOverflows(t, _) => {
            f(t, true, 4).into_iter().map(|v| vec![v]).collect()
        }
        FloatOp::Unary(_, t) | FloatOp::Class(_, t) | FloatOp::Convert(t, _) => {
            f(t, true, 8).into_iter().map(|v| vec![v]).collect()
        }
    }
}

fn sort_of_operand(o: wiser_num::FloatOperand) -> Sort {
    match o {
        wiser_num::FloatOperand::Float(t) => Sort::Bv(t.bits() as u8),
        wiser_num::FloatOperand::Int(i) => match i.width() {
            Some(w) => Sort::Bv(w as u8),
            None => Sort::Int,
        },
    }
}

/// The constant term of sort `s` for a value as terms hold it.
fn constant(s: Sort, v: &Int) -> Term {
    match s {
        Sort::Bv(w) => Term::bv(w, v.low_bits(u32::from(w))),
        Sort::Int => Term::int(v.clone()),
        Sort::Bool => Term::bool(!v.is_zero()),
        Sort::Array(..) => unreachable!(),
    }
}

/// `a == b` for terms of any one scalar sort.
fn same(a: &Term, b: &Term) -> Term {
    match a.sort() {
        Sort::Bv(_) => Term::bv_eq(a, b),
        Sort::Int => Term::eq(a, b),
        _ => Term::or(&Term::and(a, b), &Term::and(&Term::not(a), &Term::not(b))),
    }
}

/// `apply`'s result as a model holds it: a pattern (unsigned), an
/// unbounded integer, or 0/1.
fn expected(op: FloatOp, args: &[Int], result: Sort) -> Int {
    let v = op.apply(args);
    match result {
        Sort::Bv(w) => Int::from_u64(v.low_bits(u32::from(w))),
        _ => v,
    }
}

/// The constraints of check `k`: fresh operand variables fixed to
/// `args`, and `r_k == op(operands)`.
fn check_constraints(op: FloatOp, args: &[Int], k: usize) -> (Vec<Term>, Term, Vec<Term>) {
    let mut cs = Vec::new();
    let mut vars = Vec::new();
    for (j, (o, v)) in op.operands().into_iter().zip(args).enumerate() {
        let s = sort_of_operand(o);
        let x = Term::var(format!("a{k}_{j}"), s);
        cs.push(same(&x, &constant(s, v)));
        vars.push(x);
    }
    let node = Term::fp(op, &vars);
    let r = Term::var(format!("r{k}"), node.sort());
    cs.push(same(&r, &node));
    (cs, r, vars)
}

/// The value of `r` in `m`, as an `Int` (booleans 0/1).
fn value_of(m: &Model, r: &Term) -> Int {
    match m.eval(r) {
        Value::Int(n) => n,
        Value::Bool(b) => Int::from(i64::from(b)),
        Value::Array(_) => unreachable!(),
    }
}

fn describe(op: FloatOp, args: &[Int]) -> String {
    let shown: Vec<String> = op
        .operands()
        .into_iter()
        .zip(args)
        .map(|(o, v)| match o {
            wiser_num::FloatOperand::Float(t) => {
                format!("{} ({:#x})", t.display(v), v.low_bits(64))
            }
            wiser_num::FloatOperand::Int(_) => v.to_string(),
        })
        .collect();
    format!("{op} on [{}]", shown.join(", "))
}

/// Which solver a check goes through.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Via {
    /// Z3 alone: its translation, whether or not Bitwuzla or cvc5 is
    /// installed (which `Z3Solver::new` would ask first).
    Z3,
    /// cvc5 (`cvc5` on the `PATH`) in front of Z3.
    Cvc5,
    /// Bitwuzla (`python3` on the `PATH`, with the `bitwuzla` module) in
    /// front of Z3.
    Bitwuzla,
}

/// A solver with only the float solvers of `via`.
fn make(via: Via) -> Z3Solver {
    let mut s = Z3Solver::new(None);
    s.set_cvc5((via == Via::Cvc5).then(|| Cvc5::at("cvc5")));
    s.set_bitwuzla((via == Via::Bitwuzla).then(|| Bitwuzla::with_python("python3")));
    s
}

/// Solves `constraints` through `via`; for Bitwuzla or cvc5, asserts
/// that it gave the answer (Z3 was not needed).
fn solve_with(via: Via, constraints: &[Term]) -> Answer {
    let mut s = make(via);
    let answer = s.solve(constraints);
    let mut st = SolverStats::default();
    s.stats(&mut st);
    let asked = match via {
        Via::Z3 => None,
        Via::Cvc5 => Some((st.cvc5_queries, st.cvc5_fallbacks)),
        Via::Bitwuzla => Some((st.bitwuzla_queries, st.bitwuzla_fallbacks)),
    };
    if let Some(asked) = asked {
        assert_eq!(asked, (1, 0), "{via:?} did not decide ({answer:?}): {st:?}");
    }
    answer
}

/// Checks `op` on `tuples` in one query, and, should the query not be
/// sat with `apply`'s results, each tuple alone to name the culprit;
/// through `via` (Bitwuzla and cvc5 must decide each query).
fn check_batch(op: FloatOp, tuples: &[Vec<Int>], via: Via) -> usize {
    let mut constraints = Vec::new();
    let mut results = Vec::new();
    for (k, args) in tuples.iter().enumerate() {
        let (cs, r, _) = check_constraints(op, args, k);
        constraints.extend(cs);
        results.push(r);
    }
    let answer = solve_with(via, &constraints);
    let ok = match &answer {
        Answer::Sat(m) => tuples
            .iter()
            .zip(&results)
            .all(|(args, r)| value_of(m, r) == expected(op, args, r.sort())),
        _ => false,
    };
    if ok {
        return tuples.len();
    }
    for (k, args) in tuples.iter().enumerate() {
        let (cs, r, _) = check_constraints(op, args, k);
        match solve_with(via, &cs) {
            Answer::Sat(m) => {
                let want = expected(op, args, r.sort());
                assert_eq!(value_of(&m, &r), want, "{via:?} on {}", describe(op, args));
            }
            other => panic!("{}: {other:?}", describe(op, args)),
        }
    }
    panic!("{op}: the batch failed ({answer:?}) but no check alone did");
}

/// Fewer operand tuples for cvc5 and Bitwuzla (a process per query), for
/// cvc5 takes some 15 ms per float
/// result even when the operands are fixed (Z3 folds those): every
/// operation on the values of [`floats`] without the random ones and
/// without the edges of integer ranges except for conversions to
/// integers, and for binary operations, every pair of special values
/// (zeros, infinities, NaN, the smallest subnormal, the largest normal)
/// and every value against 1.5 either way.
fn cvc5_tuples(op: FloatOp) -> Vec<Vec<Int>> {
    let f = |t: FloatTy, edges| -> Vec<Int> {
        floats(t, edges, 0).into_iter().map(Int::from_u64).collect()
    };
    let specials = |t: FloatTy| -> Vec<Int> {
        let w = t.bits();
        let max = t.from_f64(if w == 32 {
            f64::from(f32::MAX)
        } else {
            f64::MAX
        });
        let mut v: Vec<Int> = [0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, 1.0]
            .into_iter()
            .map(|x| t.from_f64(x))
            .collect();
        v.extend([Int::from_u64(1), Int::from_u64(max.low_bits(w))]);
        v
    };
    let pairs = |t: FloatTy| {
        let (sp, one_half) = (specials(t), t.from_f64(1.5));
        let mut out = Vec::new();
        for a in &sp {
            for b in &sp {
                out.push(vec![a.clone(), b.clone()]);
            }
        }
        for x in f(t, false) {
            out.push(vec![x.clone(), one_half.clone()]);
            out.push(vec![one_half.clone(), x]);
        }
        out
    };
    match op {
        FloatOp::Binary(_, t) | FloatOp::Cmp(_, t) => pairs(t),
        FloatOp::Fma(t) => {
            let sp = specials(t);
            let mut out = Vec::new();
            for a in &sp[..5] {
                for b in &sp[..5] {
                    for c in &sp[..6] {
                        out.push(vec![a.clone(), b.clone(), c.clone()]);
                    }
                }
            }
            let third = t.from_f64(1.0 / 3.0);
            let prod = t.from_f64(-(t.to_f64(&third) * 3.0));
            out.push(vec![third, t.from_f64(3.0), prod]);
            out
        }
        FloatOp::FromInt(..) => operand_tuples(op),
        FloatOp::ToInt(t, _) | FloatOp::ToIntOverflows(t, _) => {
            f(t, true).into_iter().map(|v| vec![v]).collect()
        }
        FloatOp::Unary(_, t) | FloatOp::Class(_, t) | FloatOp::Convert(t, _) => {
            f(t, false).into_iter().map(|v| vec![v]).collect()
        }
    }
}

/// Every operation on its operand tuples, in batches: all of
/// [`operand_tuples`] for Z3, [`cvc5_tuples`] for the others.
fn agrees_with_apply_on_every_operation(via: Via) {
    let mut checked = 0;
    for t in FloatTy::ALL {
        for op in ops(t) {
            // Bitwuzla has no mathematical integers: such queries skip it.
            let unbounded = matches!(op,
                FloatOp::FromInt(i, _) | FloatOp::ToInt(_, i) | FloatOp::ToIntOverflows(_, i)
                    if i.is_unbounded());
            if via == Via::Bitwuzla && unbounded {
                continue;
            }
            let tuples = if via != Via::Z3 {
                cvc5_tuples(op)
            } else {
                operand_tuples(op)
            };
            for chunk in tuples.chunks(200) {
                checked += check_batch(op, chunk, via);
            }
        }
    }
    let least = if via == Via::Z3 { 5000 } else { 2000 };
    assert!(checked > least, "{checked} checks");
}

/// Z3's translation of every operation gives `apply`'s result.
#[test]
fn z3_agrees_with_apply_on_every_operation() {
    agrees_with_apply_on_every_operation(Via::Z3);
}

/// So does cvc5 reading the SMT-LIB rendering of that translation, and
/// it decides every query itself (its models pass our evaluator's check).
#[test]
fn cvc5_agrees_with_apply_on_every_operation() {
    if !external_tool("cvc5") {
        return;
    }
    agrees_with_apply_on_every_operation(Via::Cvc5);
}

/// So does Bitwuzla, reading the same rendering.
#[test]
fn bitwuzla_agrees_with_apply_on_every_operation() {
    if !wiser_testkit::external_python_module("bitwuzla") {
        return;
    }
    agrees_with_apply_on_every_operation(Via::Bitwuzla);
}

/// Folding constants and evaluating under a model give `apply`'s result.
#[test]
fn folding_and_evaluation_agree_with_apply() {
    for t in FloatTy::ALL {
        for op in ops(t) {
            for args in operand_tuples(op) {
                let operands = op.operands();
                let sorts: Vec<Sort> = operands.iter().map(|o| sort_of_operand(*o)).collect();
                let consts: Vec<Term> = sorts
                    .iter()
                    .zip(&args)
                    .map(|(s, v)| constant(*s, v))
                    .collect();
                let folded = Term::fp(op, &consts);
                let want = expected(op, &args, folded.sort());
                assert!(folded.is_const(), "{}: {folded}", describe(op, &args));
                assert_eq!(
                    constant(folded.sort(), &want),
                    folded,
                    "{}",
                    describe(op, &args)
                );
                let (_, r, vars) = check_constraints(op, &args, 0);
                let node = Term::fp(op, &vars);
                assert!(!node.is_const());
                let mut m = Model::new();
                for (x, v) in vars.iter().zip(&args) {
                    m.set_int(x.as_var().unwrap().clone(), v.clone());
                }
                assert_eq!(value_of(&m, &node), want, "eval: {}", describe(op, &args));
                assert_eq!(node.sort(), r.sort());
            }
        }
    }
}

fn f32c(x: f32) -> Term {
    Term::bv(32, u64::from(x.to_bits()))
}

/// Queries whose float operands are unknowns: Z3 searches, and its model
/// satisfies the constraints under `apply` (which the solver checks).
#[test]
fn symbolic_queries() {
    let x = Term::var("x", Sort::Bv(32));
    // Doubling is exact: x is 1.5.
    let mul = FloatOp::Binary(FBinOp::Mul, FloatTy::F32);
    let c = [Term::bv_eq(
        &Term::fp(mul, &[x.clone(), f32c(2.0)]),
        &f32c(3.0),
    )];
    match make(Via::Z3).solve(&c) {
        Answer::Sat(m) => assert_eq!(m.int("x"), Int::from_u64(u64::from(1.5f32.to_bits()))),
        other => panic!("{other:?}"),
    }
    // x + 1 == 3 has several solutions (2 - 2^-23 rounds up, to even);
    // Z3's must be one under `apply` (the solver checks its model).
    let add = FloatOp::Binary(FBinOp::Add, FloatTy::F32);
    let c = [
        Term::bv_eq(&Term::fp(add, &[x.clone(), f32c(1.0)]), &f32c(3.0)),
        Term::not(&Term::bv_eq(&x, &f32c(2.0))),
    ];
    match make(Via::Z3).solve(&c) {
        Answer::Sat(m) => {
            let v = f32::from_bits(m.int("x").low_bits(32) as u32);
            assert!(v != 2.0 && v + 1.0 == 3.0, "{v}");
        }
        other => panic!("{other:?}"),
    }
    // No f32 truncates to i32::MAX: 2^31 - 1 is not a float, and the
    // largest float below 2^31 is 2^31 - 128.
    let to = Term::fp(
        FloatOp::ToInt(FloatTy::F32, IntTy::I32),
        std::slice::from_ref(&x),
    );
    let over = Term::fp(
        FloatOp::ToIntOverflows(FloatTy::F32, IntTy::I32),
        std::slice::from_ref(&x),
    );
    let c = [
        Term::not(&over),
        Term::bv_eq(&to, &Term::bv(32, i32::MAX as u64)),
    ];
    assert_eq!(make(Via::Z3).solve(&c), Answer::Unsat);
    let c = [
        Term::not(&over),
        Term::bv_eq(&to, &Term::bv(32, (i32::MAX - 127) as u64)),
    ];
    match make(Via::Z3).solve(&c) {
        Answer::Sat(m) => {
            let v = f32::from_bits(m.int("x").low_bits(32) as u32);
            assert_eq!(v, 2147483520.0);
        }
        other => panic!("{other:?}"),
    }
    // x < x is false for every x, NaN included; x != x only for NaN.
    let lt = Term::fp(
        FloatOp::Cmp(CmpOp::Lt, FloatTy::F32),
        &[x.clone(), x.clone()],
    );
    assert_eq!(make(Via::Z3).solve(&[lt]), Answer::Unsat);
    let ne = Term::fp(
        FloatOp::Cmp(CmpOp::Ne, FloatTy::F32),
        &[x.clone(), x.clone()],
    );
    let neg = Term::fp(
        FloatOp::Unary(FUnOp::Neg, FloatTy::F32),
        std::slice::from_ref(&x),
    );
    match make(Via::Z3).solve(&[ne.clone(), Term::bool(true)]) {
        Answer::Sat(m) => assert!(f32::from_bits(m.int("x").low_bits(32) as u32).is_nan()),
        other => panic!("{other:?}"),
    }
    // -NaN is the canonical NaN, whatever NaN x is.
    let c = [
        ne,
        Term::not(&Term::bv_eq(&neg, &Term::bv(32, 0x7fc0_0000))),
    ];
    assert_eq!(make(Via::Z3).solve(&c), Answer::Unsat);
}

/// Chains of float operations: Z3 takes an operation's FP value straight
/// into the next operation (no round trip through its pattern), which
/// must mean what the patterns mean — a NaN in the middle of a chain
/// included. Each chain is evaluated on fixed operands, as variables, and
/// compared with `apply` step by step.
#[test]
fn chained_operations_agree_with_apply() {
    let t = FloatTy::F64;
    let (add, mul, div) = (
        FloatOp::Binary(FBinOp::Add, t),
        FloatOp::Binary(FBinOp::Mul, t),
        FloatOp::Binary(FBinOp::Div, t),
    );
    let bits = |x: f64| Int::from_u64(x.to_bits());
    for (a, b, c) in [
        (f64::INFINITY, 0.0f64, 1.0f64),
        (0.1, 0.2, 0.3),
        (-0.0, 5.0, -0.0),
        (1e308, 10.0, -1e308),
        (f64::NAN, 1.0, 2.0),
    ] {
        let (x, y, z) = (
            Term::var("x", Sort::Bv(64)),
            Term::var("y", Sort::Bv(64)),
            Term::var("z", Sort::Bv(64)),
        );
        // ((x * y) + z) / z, then compared, classified and converted.
        let p = Term::fp(mul, &[x.clone(), y.clone()]);
        let s = Term::fp(add, &[p, z.clone()]);
        let q = Term::fp(div, &[s, z.clone()]);
        let lt = Term::fp(FloatOp::Cmp(CmpOp::Lt, t), &[q.clone(), x.clone()]);
        let nan = Term::fp(FloatOp::Class(FClass::Nan, t), std::slice::from_ref(&q));
        let f = Term::fp(FloatOp::Convert(t, FloatTy::F32), std::slice::from_ref(&q));
        let r = Term::var("r", Sort::Bv(64));
        let g = Term::var("g", Sort::Bv(32));
        let c_ = [
            Term::bv_eq(&x, &Term::bv(64, a.to_bits())),
            Term::bv_eq(&y, &Term::bv(64, b.to_bits())),
            Term::bv_eq(&z, &Term::bv(64, c.to_bits())),
            Term::bv_eq(&r, &q),
            Term::bv_eq(&g, &f),
        ];
        let pv = mul.apply(&[bits(a), bits(b)]);
        let sv = add.apply(&[pv, bits(c)]);
        let qv = div.apply(&[sv, bits(c)]);
        let ltv = FloatOp::Cmp(CmpOp::Lt, t).apply(&[qv.clone(), bits(a)]);
        let nanv = FloatOp::Class(FClass::Nan, t).apply(std::slice::from_ref(&qv));
        let fv = FloatOp::Convert(t, FloatTy::F32).apply(std::slice::from_ref(&qv));
        for (cond, want) in [(lt, ltv), (nan, nanv)] {
            let mut with = c_.to_vec();
            with.push(if want.is_zero() {
                Term::not(&cond)
            } else {
                cond
            });
            match make(Via::Z3).solve(&with) {
                Answer::Sat(m) => {
                    assert_eq!(m.int("r"), qv, "({a} * {b} + {c}) / {c}");
                    assert_eq!(m.int("g"), fv, "({a} * {b} + {c}) / {c} as f32");
                }
                other => panic!("({a} * {b} + {c}) / {c}: {other:?}"),
            }
        }
    }
}

/// A solver that gives up after a while rather than hang a test.
fn solver() -> Z3Solver {
    let mut s = Z3Solver::new(Some(std::time::Duration::from_secs(20)));
    s.set_cvc5(None);
    s.set_bitwuzla(None);
    s
}

/// Conversions between floats and unbounded integers over unknowns: Z3
/// goes through reals there, where it may give up (unknown, which the
/// engine never reads as unsat) but must never be wrong. Returns whether
/// Z3 decided.
fn never_wrong(c: &[Term], check: impl Fn(&Model)) -> bool {
    match solver().solve(c) {
        Answer::Sat(m) => {
            check(&m);
            true
        }
        Answer::Unknown(_) => false,
        Answer::Unsat => panic!("unsat: {c:?}"),
    }
}

#[test]
fn unbounded_integer_queries() {
    // An unbounded integer whose f64 is 2^53 + 4 but which is not: the
    // halfway cases 2^53 + 3 and 2^53 + 5 round to it (to even).
    let n = Term::int_var("n");
    let d = Term::fp(
        FloatOp::FromInt(IntTy::INT, FloatTy::F64),
        std::slice::from_ref(&n),
    );
    let target = (2f64.powi(53) + 4.0).to_bits();
    let c = [
        Term::bv_eq(&d, &Term::bv(64, target)),
        Term::ne(&n, &Term::int((1i64 << 53) + 4)),
    ];
    never_wrong(&c, |m| {
        let v = m.int("n");
        let near = |k: i64| Int::from((1i64 << 53) + k);
        assert!(v == near(3) || v == near(5), "{v}");
    });
    // A double that truncates to a given unbounded integer.
    let y = Term::var("y", Sort::Bv(64));
    let to = Term::fp(
        FloatOp::ToInt(FloatTy::F64, IntTy::INT),
        std::slice::from_ref(&y),
    );
    let c = [
        Term::eq(&to, &Term::int(-12_345_678_901i64)),
        Term::bool(true),
    ];
    never_wrong(&c, |m| {
        let v = f64::from_bits(m.int("y").low_bits(64));
        assert_eq!(v.trunc(), -12_345_678_901.0);
    });
    // With the operand fixed, Z3 decides (the differential test relies on it).
    let c = [
        Term::eq(&n, &Term::int(-7)),
        Term::bv_eq(&d, &Term::var("r", Sort::Bv(64))),
    ];
    assert!(never_wrong(&c, |m| assert_eq!(
        m.int("r"),
        Int::from_u64((-7f64).to_bits())
    )));
}

#[test]
fn float_terms_print_as_calls() {
    let (x, y) = (Term::var("x", Sort::Bv(32)), Term::var("y", Sort::Bv(64)));
    let add = FloatOp::Binary(FBinOp::Add, FloatTy::F32);
    assert_eq!(
        Term::fp(add, &[x.clone(), f32c(1.5)]).to_string(),
        "fp.add32(x, 1.5)"
    );
    let lt = FloatOp::Cmp(CmpOp::Lt, FloatTy::F64);
    assert_eq!(
        Term::fp(lt, &[y.clone(), y.clone()]).to_string(),
        "fp.lt64(y, y)"
    );
    let to = FloatOp::ToInt(FloatTy::F64, IntTy::I32);
    assert_eq!(
        Term::fp(to, std::slice::from_ref(&y)).to_string(),
        "fp.f64_to_i32(y)"
    );
    let from = FloatOp::FromInt(IntTy::I8, FloatTy::F32);
    assert_eq!(
        Term::fp(from, &[Term::var("b", Sort::Bv(8))]).to_string(),
        "fp.i8_to_f32(b)"
    );
    let nan = FloatOp::Class(FClass::Nan, FloatTy::F32);
    assert_eq!(Term::fp(nan, &[x]).to_string(), "fp.isnan32(x)");
    // Constants fold, by `apply`.
    assert_eq!(Term::fp(add, &[f32c(0.1), f32c(0.2)]), f32c(0.1 + 0.2));
}
