//! The C mode's comparison: a program without `int` is rendered as IMP
//! and as C with the same meaning ([`wiser_testkit::render_c`]); the C
//! text goes through the C front end (`wiser_c::compile_file`) and is
//! judged against the same enumeration of the IMP program:
//!
//! * **meaning**: every enumerated run of the IMP program, its input
//!   turned into the C program's reads ([`CProgram::reads_of`]), runs on
//!   the C program's IR to the same end: halted, the same error kind, or
//!   an `assume` that fails;
//! * **verdict**: when the C search (`check --all`) is exhaustive, it says
//!   `bug` exactly when some input fails; and it agrees with the verdict
//!   of the IMP program's search when both are exhaustive;
//! * **bugs**: every C witness replays on the C program to its error, and,
//!   turned back into an IMP input ([`CProgram::input_of`]), makes the
//!   IMP program fail with the same kind (else a spurious bug); when the
//!   C search is exhaustive, the C location that each failing IMP
//!   location's first input reaches is among the reported ones (else a
//!   missed bug);
//! * a C text the front end rejects is a disagreement of its own kind.

use crate::compare::{
    internal_errors, replay_witness, Class, Comparison, DisKind, Disagreement, Limits,
};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;
use wiser_c::DataModel;
use wiser_engine::{symex, MergeMode, Strategy, Verdict};
use wiser_semantics::concrete::{self, Outcome};
use wiser_semantics::{ErrorKind, Input};
use wiser_testkit::{
    enumerate, loc, render_c, show_input, show_loc, Budget, CProgram, Invalid, Loc, Program,
};

/// At most this many meaning disagreements are listed (all are counted).
const SHOWN: usize = 3;

/// How a run ended, without where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Halted,
    Error(ErrorKind),
    AssumeFailed,
    OutOfSteps,
}

fn end(o: &Outcome) -> End {
    match o {
        Outcome::Halted => End::Halted,
        Outcome::Error { kind, .. } => End::Error(*kind),
        Outcome::AssumeFailed { .. } => End::AssumeFailed,
        // Nothing stops these runs from outside.
        Outcome::OutOfSteps | Outcome::Interrupted => End::OutOfSteps,
    }
}

fn show_end(e: End) -> String {
    match e {
        End::Halted => "halts".into(),
        End::Error(k) => format!("fails with {}", k.name()),
        End::AssumeFailed => "fails an assume".into(),
        End::OutOfSteps => "runs out of steps".into(),
    }
}

fn show_reads(reads: &[wiser_num::Int]) -> String {
    let v: Vec<String> = reads.iter().map(|r| r.to_string()).collect();
    format!("[{}]", v.join(","))
}

/// A file of its own for each C text (several comparisons run at once).
fn scratch_file(model: DataModel) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!(
        "wiser-difftest-{}-{n}-{}.i",
        std::process::id(),
        match model {
            DataModel::Ilp32 => "ilp32",
            DataModel::Lp64 => "lp64",
        }
    ))
}

/// The C text of `p`, compiled by the C front end: the IR, or the
/// rendered diagnostic.
pub fn compile_c(c: &CProgram, model: DataModel) -> Result<wiser_ir::Ir, String> {
    compile_c_text(&c.text, model)
}

/// A C text (preprocessed) compiled by the C front end under `model`: the
/// IR, or the rendered diagnostic.
pub fn compile_c_text(text: &str, model: DataModel) -> Result<wiser_ir::Ir, String> {
    let path = scratch_file(model);
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let mut sources = wiser_ir::Sources::new();
    let options = wiser_c::Options {
        data_model: model,
        ..Default::default()
    };
    let r = wiser_c::compile_file(&mut sources, &path, &options);
    let _ = std::fs::remove_file(&path);
    r.map(|c| c.ir).map_err(|d| sources.render(&d))
}

/// Compares the C rendering of `p` (under `model`) with the enumeration
/// of its IMP rendering.
pub fn compare_c(
    p: &Program,
    strategy: Strategy,
    merge: MergeMode,
    limits: &Limits,
    model: DataModel,
) -> Result<Comparison, Invalid> {
    let src = p.source();
    let spec = &p.spec;
    let ir = wiser_testkit::compile(&src, spec)?;
    let c = render_c(p).map_err(|e| Invalid::NoC(e.0))?;
    let options = spec.options();
    let mut dis = Vec::new();
    let c_ir = match compile_c(&c, model) {
        Ok(ir) => Some(ir),
        Err(msg) => {
            dis.push(Disagreement {
                kind: DisKind::CFrontEnd,
                detail: format!("the C rendering does not compile:\n{msg}"),
            });
            None
        }
    };

    // Enumeration of the IMP program, each run replayed on the C program.
    let t0 = Instant::now();
    let mut failing = 0u64;
    let mut locations: BTreeMap<Loc, (Input, Option<Loc>)> = BTreeMap::new();
    let mut meaning = Vec::new();
    let mut meaning_count = 0u64;
    let budget = Budget {
        max_runs: limits.max_runs,
        max_steps: limits.max_steps,
    };
    let runs = enumerate(&ir, spec, budget, |input, run| {
        let c_run = c_ir.as_ref().map(|c_ir| {
            let reads = c.reads_of(input);
            let c_input = Input {
                reads: reads.clone(),
                ..Input::default()
            };
            let r = concrete::run_with(c_ir, &c_input, limits.max_steps * 20, options);
            (reads, r)
        });
        if let Some((reads, r)) = &c_run {
            let (a, b) = (end(&run.outcome), end(&r.outcome));
            if a != b || r.missing_reads > 0 {
                meaning_count += 1;
                if meaning.len() < SHOWN {
                    meaning.push(format!(
                        "IMP input {} {}, but the C program on reads {} {}{}",
                        show_input(input),
                        show_end(a),
                        show_reads(reads),
                        show_end(b),
                        if r.missing_reads > 0 {
                            format!(" (after reading {} more values)", r.missing_reads)
                        } else {
                            String::new()
                        }
                    ));
                }
            }
        }
        if let Outcome::Error { kind, span, stack } = &run.outcome {
            failing += 1;
            let c_loc = c_run.as_ref().and_then(|(_, r)| match &r.outcome {
                Outcome::Error { kind, span, stack } => Some(loc(*kind, *span, stack)),
                _ => None,
            });
            locations
                .entry(loc(*kind, *span, stack))
                .or_insert_with(|| (input.clone(), c_loc));
        }
    })?;
    let enum_time = t0.elapsed();
    if meaning_count > 0 {
        dis.push(Disagreement {
            kind: DisKind::Meaning,
            detail: format!(
                "{meaning_count} of {runs} runs end differently in C:\n  {}",
                meaning.join("\n  ")
            ),
        });
    }
    let expected = if failing > 0 {
        Verdict::Bug
    } else {
        Verdict::Safe
    };
    let config = crate::compare::engine_config(strategy, merge, limits, options);

    let t1 = Instant::now();
    let mut verdict = Verdict::Unknown;
    let mut incomplete = Vec::new();
    let mut states = 0;
    if let Some(c_ir) = &c_ir {
        let report = symex(c_ir, &config);
        verdict = report.verdict;
        incomplete = report.incomplete.clone();
        states = report.stats.states;
        dis.extend(internal_errors(&report));
        let mut reported = BTreeSet::new();
        for bug in &report.bugs {
            let at = loc(bug.kind, bug.span, &bug.stack);
            let (_, replay) =
                replay_witness(c_ir, bug, limits.max_steps * 20, options, "C witness");
            dis.extend(replay);
            let imp_input = c.input_of(&bug.input.reads);
            let imp_run = concrete::run_with(&ir, &imp_input, limits.max_steps, options);
            if end(&imp_run.outcome) != End::Error(bug.kind) {
                dis.push(Disagreement {
                    kind: DisKind::SpuriousBug,
                    detail: format!(
                        "C reports {} with reads {}; the IMP program on {} {}",
                        show_loc(&at),
                        show_reads(&bug.input.reads),
                        show_input(&imp_input),
                        show_end(end(&imp_run.outcome))
                    ),
                });
            } else if !spec.inside(&imp_input, &imp_run.read_types) {
                dis.push(Disagreement {
                    kind: DisKind::Witness,
                    detail: format!(
                        "the C witness {} for {} is outside the specification",
                        show_reads(&bug.input.reads),
                        show_loc(&at)
                    ),
                });
            }
            reported.insert(at);
        }
        if report.incomplete.is_empty() {
            if report.verdict != expected {
                let example = locations
                    .iter()
                    .next()
                    .map(|(l, (i, _))| format!("; e.g. {} fails at {}", show_input(i), show_loc(l)))
                    .unwrap_or_default();
                dis.push(Disagreement {
                    kind: DisKind::Verdict,
                    detail: format!(
                        "C verdict {:?}, but {failing} of {runs} runs fail{example}",
                        report.verdict
                    ),
                });
            }
            for (l, (input, c_loc)) in &locations {
                if let Some(c_loc) = c_loc {
                    // Each place is reported once (with one call stack).
                    if !reported
                        .iter()
                        .any(|r| crate::compare::same_place(r, c_loc))
                    {
                        dis.push(Disagreement {
                            kind: DisKind::MissedBug,
                            detail: format!(
                                "the exhaustive C search did not report {} (IMP {}), reached by {}",
                                show_loc(c_loc),
                                show_loc(l),
                                show_input(input)
                            ),
                        });
                    }
                }
            }
            let imp = symex(&ir, &config);
            if imp.incomplete.is_empty() && imp.verdict != report.verdict {
                dis.push(Disagreement {
                    kind: DisKind::Verdict,
                    detail: format!(
                        "C verdict {:?}, IMP verdict {:?}",
                        report.verdict, imp.verdict
                    ),
                });
            }
        }
    }
    let engine_time = t1.elapsed();
    let class = Class::of(runs, failing);
    Ok(Comparison {
        runs,
        failing,
        class,
        reached: locations.keys().map(|l| l.0).collect(),
        verdict,
        incomplete,
        disagreements: dis,
        states,
        enum_time,
        engine_time,
        skipped: false,
        sampling: None,
    })
}
