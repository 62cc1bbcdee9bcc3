//! The float mode of the differential tester: small seeded runs of
//! float programs in IMP and in C (with `math.h` calls, and the meaning
//! check against the IMP rendering where there is one), judged on sampled
//! inputs. No disagreement and no invalid program; the runs are not
//! vacuous (safe programs and buggy ones, `float_conversion` reached, most
//! searches decided); and the samples hold every special value.

mod support;

use wiser_difftest::float_gen::{FExpr, FStmt, Ty};
use wiser_difftest::{samples, special_values, FloatProgram, GenConfig, Lang, Options, Summary};
use wiser_num::{FloatTy, Int};

fn run(c: bool, count: u64) -> Summary {
    let opts = Options {
        gen: GenConfig::small(),
        limits: support::limits(),
        shrink: None,
        out_dir: None,
        lang: Lang::Float { c },
    };
    let s = support::run_all(2027, count, &opts, |i| {
        let p = wiser_difftest::generate_float(2027, i, c);
        format!("\n{}", p.c())
    });
    eprintln!("{s:?}");
    assert!(s.safe > 0 && s.common + s.rare > 0, "{s:?}");
    // Timeouts and solver `unknown`s are counted, and stay few.
    assert!(s.unknowns * 3 <= s.programs, "{s:?}");
    s
}

#[test]
fn imp_float_programs_agree_on_sampled_inputs() {
    let s = run(false, 16);
    assert!(s.reached.contains_key("float_conversion"), "{s:?}");
    assert!(s.reached.contains_key("assertion"), "{s:?}");
}

#[test]
fn c_float_programs_agree_on_sampled_inputs_and_mean_what_imp_means() {
    run(true, 16);
}

/// A program with three `f32` inputs has more combinations than the
/// samples hold: still, every combination of special values is sampled.
#[test]
fn every_combination_of_special_values_is_sampled() {
    let t = FloatTy::F32;
    let inputs: Vec<(String, Ty)> = (0..3).map(|i| (format!("x{i}"), Ty::F(t))).collect();
    let v = |i: usize| FExpr::Var(format!("x{i}"), Ty::F(t));
    let p = FloatProgram {
        inputs,
        body: vec![FStmt::Assert(wiser_difftest::float_gen::Cond {
            op: "<",
            a: FExpr::Bin('+', Box::new(v(0)), Box::new(v(1))),
            b: v(2),
        })],
    };
    let s = samples(&p, 7);
    assert_eq!(s.len(), wiser_difftest::compare_float::MAX_SAMPLES);
    let specials = special_values(t);
    assert_eq!(specials.len(), 16);
    for a in &specials {
        for b in &specials {
            for c in &specials {
                let want = [a.clone(), b.clone(), c.clone()];
                assert!(s.iter().any(|x| x[..] == want[..]), "{want:?}");
            }
        }
    }
    // The named ones, as patterns.
    for bits in [
        0u64,
        0x8000_0000,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        1,
        0x007f_ffff,
        0x0080_0000,
        0x7f7f_ffff,
        0x3f80_0000,
        0xbf80_0000,
        0x3f00_0000,
    ] {
        assert!(specials.contains(&Int::from_u64(bits)), "{bits:#x}");
    }
}

/// One `f64` input: every special value, its literal's neighbours, and
/// many random patterns.
#[test]
fn a_single_input_gets_its_literals_and_many_random_values() {
    let t = FloatTy::F64;
    let x = FExpr::Var("x0".into(), Ty::F(t));
    let p = FloatProgram {
        inputs: vec![("x0".into(), Ty::F(t))],
        body: vec![FStmt::Assert(wiser_difftest::float_gen::Cond {
            op: "!=",
            a: x,
            b: FExpr::Lit("0.1", t),
        })],
    };
    let s = samples(&p, 1);
    assert!(s.len() > 500, "{}", s.len());
    let tenth = 0.1f64.to_bits();
    for bits in [tenth, tenth + 1, tenth - 1, tenth | 1 << 63] {
        assert!(s.contains(&vec![Int::from_u64(bits)]), "{bits:#x}");
    }
    for v in special_values(t) {
        assert!(s.contains(&vec![v.clone()]), "{v:?}");
    }
}

/// The judgement itself finds what it is there to find: given an engine
/// that searches another program, it reports the bug that engine misses
/// (and its `safe` verdict), and a witness that does not replay; given
/// the right program, it agrees.
#[test]
fn the_judgement_catches_a_missed_bug_a_false_safe_and_a_false_witness() {
    use wiser_difftest::compare_float::compile_imp;
    use wiser_difftest::{judge_samples, DisKind, Limits};
    use wiser_engine::{MergeMode, Strategy};
    let real = compile_imp("var x: f32 = *;\nassert x == x\n").unwrap();
    let blind = compile_imp("var x: f32 = *;\nskip\n").unwrap();
    let wrong = compile_imp("var x: f32 = *;\nassert x != 1.5\n").unwrap();
    let samples: Vec<Vec<Int>> = special_values(FloatTy::F32)
        .into_iter()
        .map(|v| vec![v])
        .collect();
    let search = (Strategy::Bfs, MergeMode::None);
    let limits = support::limits();
    let kinds = |engine| judge_samples(&real, engine, None, &samples, search, &limits).kinds();
    assert!(kinds(&real).is_empty());
    let missed = kinds(&blind);
    assert!(
        missed.contains(&DisKind::Verdict) && missed.contains(&DisKind::MissedBug),
        "{missed:?}"
    );
    assert!(kinds(&wrong).contains(&DisKind::Witness));
    // A search that gives up leaves the sampled failure unconfirmed, not
    // agreed.
    let hurried = Limits {
        max_states: 1,
        ..support::limits()
    };
    let c = judge_samples(&real, &real, None, &samples, search, &hurried);
    assert!(c.unknown(), "{:?}", c.incomplete);
    assert!(c.disagreements.is_empty(), "{:?}", c.disagreements);
    assert_eq!(c.sampling.map(|s| s.unconfirmed), Some(1));
}
