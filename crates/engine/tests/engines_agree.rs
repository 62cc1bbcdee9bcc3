//! `bmc`, `check` and `fuzz` agree on bug or no bug wherever all three
//! finish: on every example (IMP and C) and on random programs of the
//! testkit. "Finish" means: `check` exhaustive (or a bug), `bmc` safe or
//! a bug, `fuzz` with an empty work list (every path it could generate
//! was run) or a bug. Each engine replays its witnesses, so a bug one
//! engine reports and another misses is a real disagreement.
//!
//! Also seed 004's two bounded-model-checking examples, with the bounds
//! the issue names.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use wiser_engine::concolic::{fuzz, FuzzLimits};
use wiser_engine::{bmc, symex, Bmc, Config, Incomplete, Monitor, Report, Verdict};
use wiser_ir::{ErrorKind, Ir};
use wiser_semantics::{Input, Options};
use wiser_testkit::{compile, generate, sized, GenConfig};

/// Did each engine finish, and did it find a bug? (Runs cut by a limit
/// are not compared: the limits are smaller by default than at full
/// size, `WISER_TEST_FULL=1`, which compares more of the long runs.)
fn verdicts(ir: &Ir, options: Options) -> (Option<bool>, Option<bool>, Option<bool>) {
    let seconds = Duration::from_secs(sized(5, 20));
    let config = Config::default()
        .with_all_bugs(true)
        .with_options(options)
        .with_max_states(sized(50_000, 200_000))
        .with_timeout(Some(seconds));
    let checked = symex(ir, &config);
    let by_check = match checked.verdict {
        Verdict::Bug => Some(true),
        Verdict::Safe => Some(false),
        Verdict::Unknown => None,
    };
    let bounds = asserted(12);
    let ir = Arc::new(ir.clone());
    let bmc_config = config.clone().with_timeout(Some(seconds));
    let model_checked = bmc(ir.clone(), &bmc_config, &bounds, Arc::new(Monitor::new()));
    assert!(
        model_checked.internal_errors.is_empty(),
        "{:?}",
        model_checked.internal_errors
    );
    let by_bmc = match model_checked.verdict {
        Verdict::Bug => Some(true),
        Verdict::Safe => Some(false),
        Verdict::Unknown => None,
    };
    let limits = FuzzLimits {
        max_runs: 500,
        max_steps: 100_000,
    };
    let fuzz_config = config.with_timeout(Some(Duration::from_secs(sized(3, 10))));
    let fuzzed = fuzz(
        ir,
        Input::default(),
        &fuzz_config,
        limits,
        Arc::new(Monitor::new()),
    );
    assert!(
        fuzzed.internal_errors.is_empty(),
        "{:?}",
        fuzzed.internal_errors
    );
    let stats = fuzzed.fuzz().expect("a fuzzing report");
    let by_fuzz = if !fuzzed.bugs.is_empty() {
        Some(true)
    } else if fuzzed.incomplete == [Incomplete::WorkListEmpty]
        && stats.dropped == 0
        && stats.cut == 0
    {
        Some(false)
    } else {
        None
    };
    (by_check, by_bmc, by_fuzz)
}

#[test]
fn bmc_check_and_fuzz_agree_on_random_programs() {
    let gen = GenConfig::small();
    let mut compared = 0;
    for i in 0..20 {
        let p = generate(0xb3c, i, &gen);
        let Ok(ir) = compile(&p.source(), &p.spec) else {
            continue;
        };
        let options = Options {
            wrap_signed: p.spec.wrap_signed,
            ..Options::default()
        };
        if let (Some(c), Some(b), Some(f)) = verdicts(&ir, options) {
            compared += 1;
            assert!(
                c == b && b == f,
                "program {i}: check {c}, bmc {b}, fuzz {f}\n{}",
                p.source()
            );
        }
    }
    assert!(
        compared >= 6,
        "only {compared} programs where all three finished"
    );
}

#[test]
fn bmc_check_and_fuzz_agree_on_the_examples() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut files: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .chain(std::fs::read_dir(root.join("c")).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    let mut compared = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        // Examples that need command-line arguments (an --assume) are
        // checked with them by the golden tests.
        if text.lines().any(|l| l.contains("args:")) {
            continue;
        }
        let ir = match path.extension().and_then(|e| e.to_str()) {
            Some("imp") => wiser_imp::compile(&text).unwrap(),
            Some("c") => {
                let mut sources = wiser_ir::Sources::default();
                let options = wiser_c::Options::default();
                match wiser_c::compile_file(&mut sources, &path, &options) {
                    Ok(c) => c.ir,
                    Err(_) => continue,
                }
            }
            _ => continue,
        };
        if let (Some(c), Some(b), Some(f)) = verdicts(&ir, Options::default()) {
            compared += 1;
            // Fuzzing follows one schedule (docs/ENGINES.md): it can miss
            // a race that check and bmc, which take every schedule, find.
            assert!(
                c == b && (b == f || (ir.threaded && !f)),
                "{}: check {c}, bmc {b}, fuzz {f}",
                path.display()
            );
        }
    }
    assert!(
        compared >= 8,
        "only {compared} examples where all three finished"
    );
}

fn imp(name: &str) -> Arc<Ir> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(name);
    Arc::new(wiser_imp::compile(&std::fs::read_to_string(path).unwrap()).unwrap())
}

/// `bmc` with the default configuration and `bounds`.
fn bmc_with(ir: &Arc<Ir>, bounds: Bmc) -> Report {
    bmc(
        ir.clone(),
        &Config::default(),
        &bounds,
        Arc::new(Monitor::new()),
    )
}

/// Bound `k` with unwinding assertions.
fn asserted(k: u32) -> Bmc {
    Bmc {
        unwind: k,
        unwinding_assertions: true,
        ..Bmc::default()
    }
}

#[test]
fn seed_004_example_1_is_a_bug_at_bound_2_and_not_before() {
    let ir = imp("bmc_uchar_sum.imp");
    let run = |k| bmc_with(&ir, asserted(k));
    let one = run(1);
    assert_eq!(one.verdict, Verdict::Unknown);
    assert_eq!(one.incomplete, vec![Incomplete::UnwindBound]);
    let two = run(2);
    assert_eq!(two.verdict, Verdict::Bug);
    let bug = &two.bugs[0];
    assert_eq!(bug.kind, ErrorKind::Assertion);
    // The witness replays (bmc confirms it); it reads n = 2 and two bytes.
    assert_eq!(bug.input.reads.len(), 3);
    assert_eq!(bug.input.reads[0], 2.into());
    // Deepening from 1 stops at the same bound.
    let deepened = bmc_with(
        &ir,
        Bmc {
            unwind: 1,
            unwind_max: Some(10),
            ..Bmc::default()
        },
    );
    assert_eq!(
        (deepened.verdict, deepened.bmc_bound()),
        (Verdict::Bug, Some(2))
    );
}

#[test]
fn seed_004_example_2_is_safe_at_bound_256_with_unwinding_assertions() {
    let ir = imp("bmc_uint_sum.imp");
    let run = |k| bmc_with(&ir, asserted(k));
    assert_eq!(run(256).verdict, Verdict::Safe);
    // n can be 255: at bound 100 paths go beyond it.
    let short = run(100);
    assert_eq!(short.verdict, Verdict::Unknown);
    assert_eq!(short.incomplete, vec![Incomplete::UnwindBound]);
}
