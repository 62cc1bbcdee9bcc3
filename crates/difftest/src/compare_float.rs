//! The float mode's comparison. A float input has 2^32 or 2^64 values, so
//! a program is judged on **sampled** inputs ([`samples`]): for every
//! input, the special values of its type (±0, ±inf, a NaN, the smallest
//! and largest subnormal and normal numbers of each sign, 1, -1, 0.5; for
//! an `i32`, 0, ±1, its limits, ±2^24 + 1), the program's literals and
//! their neighbours, and seeded random patterns (any bits, NaN payloads
//! included, and moderate magnitudes); every combination when they are
//! few, else every combination of the special values and random ones up
//! to [`MAX_SAMPLES`]. Each sample runs on the concrete interpreter; the
//! engine (`symex`, every bug) runs once, and the judgement is sound for
//! sampling:
//!
//! * every bug the engine reports replays, with its witness, to the same
//!   error at the same place, and its witness gives each read a value of
//!   the read's type (else a `witness` disagreement);
//! * a `safe` verdict while some sample fails is a `verdict`
//!   disagreement;
//! * when the search was exhaustive, every place (kind and location) a
//!   sample fails at is reported (else a `missed-bug` disagreement); when
//!   it was not (a timeout, a solver `unknown`), the unreported places are
//!   counted in [`Sampling::unconfirmed`], never as agreement;
//! * a bug the engine reports that no sample reaches is no disagreement
//!   (sampling is not exhaustive): it is counted in
//!   [`Sampling::beyond`].
//!
//! In C mode the C text goes through the C front end (under ILP32 and
//! LP64 in turn) and the judgement is of its IR; when the program has an
//! IMP rendering too (no `math.h` call), every sample must also end the
//! same way (halt, error kind, failed `assume`) on both programs (else a
//! `meaning` disagreement), and a C text the front end rejects is a
//! `c-front-end` disagreement.

use crate::compare::{engine_config, internal_errors, replay_witness, same_place};
use crate::compare::{Class, Comparison, DisKind, Disagreement, Limits};
use crate::float_gen::{FloatProgram, Ty};
use std::collections::BTreeMap;
use std::time::Instant;
use wiser_c::DataModel;
use wiser_engine::{symex, MergeMode, Strategy, Verdict};
use wiser_num::{FloatTy, Int};
use wiser_semantics::concrete::{self, Outcome};
use wiser_semantics::Input;
use wiser_testkit::{loc, show_input, show_loc, Invalid, Loc, Xorshift};

/// At most this many sampled inputs per program.
pub const MAX_SAMPLES: usize = 20_000;

/// What sampling adds to a [`Comparison`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sampling {
    /// Places some sample fails at that an incomplete search did not
    /// report (neither confirmed nor contradicted).
    pub unconfirmed: usize,
    /// Reported bugs (their witnesses replay) that no sample reaches.
    pub beyond: usize,
}

/// The special values of a float type, as patterns: ±0, ±inf, the NaN,
/// the smallest and largest subnormal and normal numbers of each sign, 1,
/// -1 and 0.5.
pub fn special_values(t: FloatTy) -> Vec<Int> {
    let v: Vec<u64> = match t {
        FloatTy::F32 => [
            0.0f32,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::from_bits(1),
            f32::from_bits(0x007f_ffff),
            f32::MIN_POSITIVE,
            f32::MAX,
            -f32::from_bits(1),
            -f32::from_bits(0x007f_ffff),
            -f32::MIN_POSITIVE,
            f32::MIN,
            1.0,
            -1.0,
            0.5,
        ]
        .iter()
        .map(|x| u64::from(x.to_bits()))
        .collect(),
        FloatTy::F64 => [
            0.0f64,
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::from_bits(1),
            f64::from_bits(0x000f_ffff_ffff_ffff),
            f64::MIN_POSITIVE,
            f64::MAX,
            -f64::from_bits(1),
            -f64::from_bits(0x000f_ffff_ffff_ffff),
            -f64::MIN_POSITIVE,
            f64::MIN,
            1.0,
            -1.0,
            0.5,
        ]
        .iter()
        .map(|x| x.to_bits())
        .collect(),
    };
    let mut v: Vec<Int> = v.into_iter().map(Int::from_u64).collect();
    v.push(t.nan());
    v
}

/// The special values of `i32`.
fn special_ints() -> Vec<Int> {
    [0, 1, -1, i32::MIN, i32::MAX, 16_777_217, -16_777_217]
        .into_iter()
        .map(Int::from)
        .collect()
}

/// A random pattern of `t`: any bits, or a moderate magnitude (exponent
/// between 2^-4 and 2^10), or a small multiple of 1/4.
fn random_float(t: FloatTy, rng: &mut Xorshift) -> Int {
    let bits = t.bits();
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    };
    match rng.below(3) {
        0 => Int::from_u64(rng.next() & mask),
        1 => {
            let sign = rng.below(2) << (bits - 1);
            let mant_bits = t.significand_bits() - 1;
            let bias = (1u64 << (t.exponent_bits() - 1)) - 1;
            let exp = bias - 4 + rng.below(15);
            let mant = rng.next() & ((1 << mant_bits) - 1);
            Int::from_u64(sign | exp << mant_bits | mant)
        }
        _ => t.from_f64((rng.below(65) as f64 - 32.0) / 4.0),
    }
}

/// The values sampled for one input: its special values first (the first
/// `specials` of the list), then the program's literals of its type and
/// their neighbours, then random ones; no value twice.
fn pool(ty: Ty, p: &FloatProgram, randoms: usize, rng: &mut Xorshift) -> (Vec<Int>, usize) {
    let (lits, ints) = p.literals();
    let mut v = Vec::new();
    let push = |x: Int, v: &mut Vec<Int>| {
        if !v.contains(&x) {
            v.push(x);
        }
    };
    match ty {
        Ty::F(t) => {
            special_values(t).into_iter().for_each(|x| push(x, &mut v));
            let specials = v.len();
            let mask = if t.bits() == 64 {
                u64::MAX
            } else {
                (1 << t.bits()) - 1
            };
            for (s, _) in lits {
                if let Some(x) = t.parse(s) {
                    // The literal and its negation, and their neighbours.
                    let b = x.low_bits(t.bits());
                    for b in [b, b ^ (1 << (t.bits() - 1))] {
                        push(Int::from_u64(b), &mut v);
                        push(Int::from_u64(b.wrapping_add(1) & mask), &mut v);
                        push(Int::from_u64(b.wrapping_sub(1) & mask), &mut v);
                    }
                }
            }
            // A negative NaN and a signalling one.
            push(
                Int::from_u64(t.nan().low_bits(t.bits()) | 1 << (t.bits() - 1)),
                &mut v,
            );
            push(Int::from_u64((t.nan().low_bits(t.bits()) >> 1) | 1), &mut v);
            for _ in 0..randoms {
                push(random_float(t, rng), &mut v);
            }
            (v, specials)
        }
        Ty::I32 => {
            special_ints().into_iter().for_each(|x| push(x, &mut v));
            let specials = v.len();
            for n in ints {
                for d in [0, 1, -1] {
                    push(Int::from(n.wrapping_add(d)), &mut v);
                }
            }
            for _ in 0..randoms / 2 {
                push(Int::from(rng.next() as u32 as i32), &mut v);
            }
            push(Int::from(rng.below(200) as i32 - 100), &mut v);
            (v, specials)
        }
    }
}

/// The sampled inputs of `p` (each a list of reads, in the order of its
/// inputs), seeded by `seed`: every combination of the pools' values if
/// there are at most [`MAX_SAMPLES`], else every combination of the
/// special values (if at most that many) and random combinations up to
/// the limit. An input's pool has 1000 random values when it is the only
/// input, 80 with two, 10 with more.
pub fn samples(p: &FloatProgram, seed: u64) -> Vec<Vec<Int>> {
    let mut rng = Xorshift(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1);
    let randoms = match p.inputs.len() {
        1 => 1000,
        2 => 80,
        _ => 10,
    };
    let pools: Vec<(Vec<Int>, usize)> = p
        .inputs
        .iter()
        .map(|(_, t)| pool(*t, p, randoms, &mut rng))
        .collect();
    let product = |sizes: &[usize]| sizes.iter().try_fold(1usize, |a, &n| a.checked_mul(n));
    let all: Vec<usize> = pools.iter().map(|(v, _)| v.len()).collect();
    let special: Vec<usize> = pools.iter().map(|(_, s)| *s).collect();
    let combos = |sizes: &[usize], out: &mut Vec<Vec<Int>>| {
        let total = product(sizes).unwrap_or(0);
        for mut k in 0..total {
            let mut v = Vec::new();
            for (i, n) in sizes.iter().enumerate() {
                v.push(pools[i].0[k % n].clone());
                k /= n;
            }
            out.push(v);
        }
    };
    let mut out = Vec::new();
    if product(&all).is_some_and(|n| n <= MAX_SAMPLES) {
        combos(&all, &mut out);
        return out;
    }
    if product(&special).is_some_and(|n| n <= MAX_SAMPLES) {
        combos(&special, &mut out);
    }
    while out.len() < MAX_SAMPLES {
        out.push(
            pools
                .iter()
                .map(|(v, _)| v[rng.index(v.len())].clone())
                .collect(),
        );
    }
    out
}

/// How a run ended, without where (for the meaning check).
fn end(o: &Outcome) -> String {
    match o {
        Outcome::Halted => "halts".into(),
        Outcome::Error { kind, .. } => format!("fails with {}", kind.name()),
        Outcome::AssumeFailed { .. } => "fails an assume".into(),
        Outcome::OutOfSteps | Outcome::Interrupted => "runs out of steps".into(),
    }
}

fn reads_input(reads: &[Int]) -> Input {
    Input {
        reads: reads.to_vec(),
        ..Input::default()
    }
}

/// The IR of the program's IMP rendering.
pub fn compile_imp(text: &str) -> Result<wiser_ir::Ir, Invalid> {
    wiser_imp::compile(text)
        .map_err(|d| Invalid::Compile(wiser_imp::SourceMap::new("generated.imp", text).render(&d)))
}

/// Compares the engine with the sampled inputs on `p`: its IMP rendering,
/// or with `c` its C rendering under `model` (see the module
/// documentation). `seed` seeds the random samples.
#[allow(clippy::too_many_arguments)]
pub fn compare_float(
    p: &FloatProgram,
    c: bool,
    model: DataModel,
    seed: u64,
    strategy: Strategy,
    merge: MergeMode,
    limits: &Limits,
) -> Result<Comparison, Invalid> {
    let imp_ir = match p.imp() {
        Some(text) => Some(compile_imp(&text)?),
        None if c => None,
        None => return Err(Invalid::Compile("an IMP program with math.h calls".into())),
    };
    let ir = if c {
        match crate::compare_c::compile_c_text(&p.c(), model) {
            Ok(ir) => ir,
            Err(msg) => {
                return Ok(rejected(vec![Disagreement {
                    kind: DisKind::CFrontEnd,
                    detail: format!("the C front end rejects the program:\n{msg}"),
                }]))
            }
        }
    } else {
        imp_ir.clone().expect("an IMP program")
    };
    let twin = if c { imp_ir.as_ref() } else { None };
    Ok(judge_samples(
        &ir,
        &ir,
        twin,
        &samples(p, seed),
        (strategy, merge),
        limits,
    ))
}

/// The judgement of [`compare_float`]: the runs of `ir` on `samples`
/// against the engine's search of `engine` (its witnesses replayed on
/// `ir`), and, with `twin`, each sample's end on `twin` against its end
/// on `ir`. `engine` is `ir` but in the tests of the judgement itself,
/// which give it another program to see that the disagreements are
/// found.
pub fn judge_samples(
    ir: &wiser_ir::Ir,
    engine: &wiser_ir::Ir,
    twin: Option<&wiser_ir::Ir>,
    samples: &[Vec<Int>],
    (strategy, merge): (Strategy, MergeMode),
    limits: &Limits,
) -> Comparison {
    let options = wiser_semantics::Options::default();
    let mut dis = Vec::new();
    let t0 = Instant::now();
    let (mut runs, mut failing) = (0u64, 0u64);
    let mut locations: BTreeMap<Loc, Input> = BTreeMap::new();
    let (mut meaning, mut meaning_count) = (Vec::new(), 0u64);
    for reads in samples {
        let input = reads_input(reads);
        let run = concrete::run_with(ir, &input, limits.max_steps, options);
        runs += 1;
        if let Outcome::Error { kind, span, stack } = &run.outcome {
            failing += 1;
            locations
                .entry(loc(*kind, *span, stack))
                .or_insert(input.clone());
        }
        if let Some(imp) = twin {
            let imp_run = concrete::run_with(imp, &input, limits.max_steps, options);
            let (a, b) = (end(&imp_run.outcome), end(&run.outcome));
            if a != b {
                meaning_count += 1;
                if meaning.len() < 3 {
                    meaning.push(format!("{}: IMP {a}, C {b}", show_input(&input)));
                }
            }
        }
    }
    let enum_time = t0.elapsed();
    if meaning_count > 0 {
        dis.push(Disagreement {
            kind: DisKind::Meaning,
            detail: format!(
                "{meaning_count} of {runs} samples end differently in C:\n  {}",
                meaning.join("\n  ")
            ),
        });
    }

    let t1 = Instant::now();
    let report = symex(engine, &engine_config(strategy, merge, limits, options));
    let engine_time = t1.elapsed();
    dis.extend(internal_errors(&report));
    let mut sampling = Sampling::default();
    let mut reported = Vec::new();
    for bug in &report.bugs {
        let at = loc(bug.kind, bug.span, &bug.stack);
        let (run, replay) = replay_witness(ir, bug, limits.max_steps, options, "witness");
        dis.extend(replay);
        if run.missing_reads > 0 || !run.wrapped_inputs.is_empty() {
            dis.push(Disagreement {
                kind: DisKind::Witness,
                detail: format!(
                    "the witness {} for {} lacks reads or has values outside their types",
                    show_input(&bug.input),
                    show_loc(&at)
                ),
            });
        }
        if !locations.keys().any(|l| same_place(l, &at)) {
            sampling.beyond += 1;
        }
        reported.push(at);
    }
    if report.verdict == Verdict::Safe && failing > 0 {
        let (l, i) = locations.iter().next().expect("a failing sample");
        dis.push(Disagreement {
            kind: DisKind::Verdict,
            detail: format!(
                "verdict Safe, but {failing} of {runs} samples fail; e.g. {} fails at {}",
                show_input(i),
                show_loc(l)
            ),
        });
    }
    for (l, input) in &locations {
        if reported.iter().any(|r| same_place(r, l)) {
            continue;
        }
        if report.incomplete.is_empty() {
            dis.push(Disagreement {
                kind: DisKind::MissedBug,
                detail: format!(
                    "the exhaustive search did not report {}, reached by {}",
                    show_loc(l),
                    show_input(input)
                ),
            });
        } else {
            sampling.unconfirmed += 1;
        }
    }
    Comparison {
        runs,
        failing,
        class: Class::of(runs, failing),
        reached: locations.keys().map(|l| l.0).collect(),
        verdict: report.verdict,
        incomplete: report.incomplete.clone(),
        disagreements: dis,
        states: report.stats.states,
        enum_time,
        engine_time,
        skipped: false,
        sampling: Some(sampling),
    }
}

/// The comparison of a C text the front end rejects.
fn rejected(dis: Vec<Disagreement>) -> Comparison {
    Comparison {
        runs: 0,
        failing: 0,
        class: Class::Safe,
        reached: Default::default(),
        verdict: Verdict::Unknown,
        incomplete: Vec::new(),
        disagreements: dis,
        states: 0,
        enum_time: Default::default(),
        engine_time: Default::default(),
        skipped: false,
        sampling: Some(Sampling::default()),
    }
}
