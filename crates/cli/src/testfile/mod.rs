//! Tests as files: `check --tests DIR` writes one JSON test per bug (or,
//! with `--all-paths`, per explored path), and for C programs also
//! Test-Comp's XML test suite; `run --test FILE` and `check --replay DIR`
//! run them again on the concrete interpreter. `docs/TESTS.md` describes
//! the format and the rules below.

pub mod json;
mod outcome;
pub mod replay;
pub mod testcomp;

pub use outcome::{describe, error_outcome, program_hash, run_outcome};

use crate::error::CliError;
use crate::load::Program;
use crate::render;
use crate::task::PropertySpec;
use json::{DataModelName, Frame, Origin, Outcome, ProgramRef, TestFile, TestInput};
use std::path::{Path, PathBuf};
use wiser_frontend::DataModel;
use wiser_frontend::ReadSite;
use wiser_semantics::concrete;
use wiser_semantics::{ErrorKind, Input, Options};

/// The step limit of the concrete runs that check a generated test (the
/// default of `wiser run`).
const STEPS: u64 = 1_000_000_000;

/// The part of a test's file name that says what it expects:
/// `assertion-21-1`, `halted`, `assume-failed-7-1`.
fn name_part(o: &Outcome) -> String {
    match o {
        Outcome::Error {
            kind, line, column, ..
        } => format!("{}-{line}-{column}", kind.replace('_', "-")),
        Outcome::Halted => "halted".into(),
        Outcome::AssumeFailed { line, column } => format!("assume-failed-{line}-{column}"),
        Outcome::OutOfSteps => "out-of-steps".into(),
    }
}

/// How a suite is being made.
pub struct Suite<'a> {
    /// The folder written.
    pub dir: &'a Path,
    /// The program's path as given on the command line.
    pub file_arg: &'a Path,
    /// One test per path (`--all-paths`) rather than per bug.
    pub all_paths: bool,
    /// The property checked.
    pub property: PropertySpec,
    /// `--wrap-signed`.
    pub wrap_signed: bool,
    /// `--assume`.
    pub assume: Option<&'a str>,
    /// `--malloc-may-fail`.
    pub malloc_may_fail: bool,
}

/// One test to write: its input, the outcome claimed for it, and the
/// path condition of its path.
pub struct Case {
    /// The input.
    pub input: Input,
    /// What the engine says the input does.
    pub expected: Outcome,
    /// The path condition, as reported.
    pub path_condition: String,
}

/// Is `name` a file that `--tests` writes (and may therefore replace)?
pub fn is_own_file(name: &str) -> bool {
    let numbered = |rest: &str| {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        digits > 0
    };
    if name == "metadata.xml" {
        return true;
    }
    if let Some(n) = name
        .strip_prefix("testcase-")
        .and_then(|r| r.strip_suffix(".xml"))
    {
        return !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit());
    }
    ["bug-", "path-"].iter().any(|p| {
        name.strip_prefix(p)
            .is_some_and(|r| numbered(r) && r.ends_with(".json"))
    })
}

/// Checks, before a search, that the suite can be written to `dir`: it
/// does not exist, or holds only files that `--tests` writes (an earlier
/// suite, which will be replaced).
pub fn check_dir(dir: &Path) -> Result<(), CliError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) if dir.is_file() => {
            return Err(CliError::file(format!(
                "--tests `{}` is a file, not a folder ({e})",
                dir.display()
            ))
            .help("give a folder for the test files (it is created if missing)"))
        }
        Err(e) => {
            return Err(CliError::file(format!(
                "cannot read the folder `{}` given to --tests: {e}",
                dir.display()
            )))
        }
    };
    let mut foreign = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !(entry.path().is_file() && is_own_file(&name)) {
            foreign.push(name);
        }
    }
    if foreign.is_empty() {
        return Ok(());
    }
    foreign.sort();
    let shown: Vec<String> = foreign.iter().take(3).map(|n| format!("`{n}`")).collect();
    Err(CliError::file(format!(
        "--tests `{}` holds files that wiser did not write ({}{}); refusing to write a test suite among them",
        dir.display(),
        shown.join(", "),
        if foreign.len() > 3 { ", ..." } else { "" }
    ))
    .help("give an empty or new folder; a folder holding only an earlier suite (bug-*.json, path-*.json, metadata.xml, testcase-*.xml) is replaced"))
}

/// The name of the `index`-th (from 1) test of `count`.
fn file_name(all_paths: bool, index: usize, count: usize, expected: &Outcome) -> String {
    let (prefix, min) = if all_paths { ("path", 4) } else { ("bug", 3) };
    let width = count.to_string().len().max(min);
    format!("{prefix}-{index:0width$}-{}.json", name_part(expected))
}

fn data_model_name(program: &Program) -> Option<DataModelName> {
    program.data_model.map(|d| match d {
        DataModel::Ilp32 => DataModelName::Ilp32,
        DataModel::Lp64 => DataModelName::Lp64,
    })
}

/// Writes the suite of `cases` to `s.dir` (replacing an earlier suite
/// there) and returns the files written. Each case's input is run
/// concretely first; one whose run disagrees with the engine is written
/// all the same (the engine's claim is what a test checks) but reported.
pub fn write_suite(
    program: &Program,
    s: &Suite<'_>,
    cases: &[Case],
) -> Result<Vec<PathBuf>, CliError> {
    check_dir(s.dir)?;
    let cannot = |what: &Path, e: std::io::Error| {
        CliError::file(format!("cannot write `{}`: {e}", what.display()))
            .help("check that the folder given to --tests is writable")
    };
    std::fs::create_dir_all(s.dir).map_err(|e| cannot(s.dir, e))?;
    // Replace an earlier suite whole: a stale test of a path that no longer
    // exists would otherwise linger beside the new ones.
    if let Ok(entries) = std::fs::read_dir(s.dir) {
        for entry in entries.flatten() {
            if is_own_file(&entry.file_name().to_string_lossy()) {
                std::fs::remove_file(entry.path()).map_err(|e| cannot(&entry.path(), e))?;
            }
        }
    }
    let sha256 = program_hash(program);
    let options = json::TestOptions {
        wrap_signed: s.wrap_signed,
        data_model: data_model_name(program),
        property: s.property.name().to_string(),
        assume: s.assume.map(str::to_string),
        malloc_may_fail: s.malloc_may_fail,
    };
    let producer = format!("wiser {}", env!("CARGO_PKG_VERSION"));
    let mut written = Vec::new();
    let mut xml_cases = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let run = concrete::run_with(
            &program.ir,
            &case.input,
            STEPS,
            Options {
                wrap_signed: s.wrap_signed,
                ..Options::default()
            },
        );
        let actual = run_outcome(program, &run.outcome);
        if actual != case.expected {
            crate::out::errln!(
                "error: internal error: the input of test {} does not give the outcome the engine found (expected {}, the concrete run gave {}); the test is written with the engine's outcome",
                i + 1,
                describe(&case.expected),
                describe(&actual)
            );
        }
        let test = TestFile {
            format: json::FORMAT.into(),
            version: json::VERSION,
            program: ProgramRef {
                file: s.file_arg.display().to_string(),
                sha256: sha256.clone(),
                language: program.language.name().to_string(),
            },
            options: options.clone(),
            input: TestInput::from_input(&case.input),
            expected: case.expected.clone(),
            origin: Some(Origin {
                kind: if s.all_paths { "path" } else { "bug" }.into(),
                path_condition: Some(case.path_condition.clone()),
                producer: producer.clone(),
            }),
        };
        let path = s
            .dir
            .join(file_name(s.all_paths, i + 1, cases.len(), &case.expected));
        std::fs::write(&path, test.to_text()).map_err(|e| cannot(&path, e))?;
        written.push(path);
        if program.language.writes_testcomp() {
            // Test-Comp's tester gives the inputs to the program's
            // `__VERIFIER_nondet_*` calls in order: a value of anything
            // else (uninitialised memory, the command line, a failing
            // allocation) would shift every later one, so it stays in the
            // JSON test.
            let mut left_out = 0usize;
            let inputs = run
                .read_pcs
                .iter()
                .zip(&case.input.reads)
                .filter_map(|(&pc, v)| match program.read_site(pc) {
                    ReadSite::Call { type_name, .. } => Some(testcomp::Value {
                        value: v.clone(),
                        c_type: Some(type_name),
                        variable: None,
                    }),
                    ReadSite::Uninitialised(_) | ReadSite::Argument(_) | ReadSite::Statement => {
                        left_out += 1;
                        None
                    }
                })
                .collect::<Vec<_>>();
            if left_out > 0 {
                crate::out::errln!(
                    "note: test {} reads {left_out} value(s) that no `__VERIFIER_nondet_*` call gives (uninitialised memory, the command line, an allocation that fails): Test-Comp's tester gives values to those calls only, in order, so `testcase-{}.xml` leaves them out; its JSON test holds all",
                    i + 1,
                    i + 1
                );
            }
            if !case.input.vars.is_empty() || !case.input.arrays.is_empty() {
                crate::out::errln!(
                    "note: test {} gives inputs other than reads (globals or arrays), which Test-Comp's format cannot carry: `testcase-{}.xml` holds its reads only; its JSON test holds all",
                    i + 1,
                    i + 1
                );
            }
            let covers_error = matches!(&case.expected, Outcome::Error { kind, .. } if kind == ErrorKind::Fail.name());
            xml_cases.push((inputs, covers_error));
        }
    }
    if program.language.writes_testcomp() {
        let spec = testcomp::specification(s.all_paths, s.property);
        let meta = testcomp::metadata(
            &s.file_arg.display().to_string(),
            &sha256,
            spec,
            program.data_model.unwrap_or_default(),
            std::time::SystemTime::now(),
        );
        let path = s.dir.join("metadata.xml");
        std::fs::write(&path, meta).map_err(|e| cannot(&path, e))?;
        written.push(path);
        for (i, (inputs, covers_error)) in xml_cases.iter().enumerate() {
            let path = s.dir.join(format!("testcase-{}.xml", i + 1));
            std::fs::write(&path, testcomp::testcase(inputs, *covers_error))
                .map_err(|e| cannot(&path, e))?;
            written.push(path);
        }
    }
    Ok(written)
}

/// The cases of a report's bugs, one per bug in the report's order.
pub fn bug_cases(program: &Program, report: &wiser_engine::Report) -> Vec<Case> {
    report
        .bugs
        .iter()
        .map(|b| Case {
            input: b.input.clone(),
            expected: error_outcome(program, b.kind, b.span, &b.stack),
            path_condition: render::path_condition_text(&b.path_condition),
        })
        .collect()
}

/// Tells on stderr what was written (and how to replay it).
pub fn note_written(dir: &Path, written: &[PathBuf], all_paths: bool) {
    let tests: Vec<&PathBuf> = written
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    let what = if all_paths { "path" } else { "bug" };
    match tests.as_slice() {
        [] => crate::out::errln!(
            "note: no {what} to write a test for; `{}` holds no test",
            dir.display()
        ),
        [one] => crate::out::errln!(
            "note: wrote 1 test to `{}`; `wiser run --test {}` replays it",
            dir.display(),
            one.display()
        ),
        many => crate::out::errln!(
            "note: wrote {} tests to `{}`; `wiser check --replay {}` replays them",
            many.len(),
            dir.display(),
            dir.display()
        ),
    }
}

/// After a check with `--tests DIR`: writes the suite of its bugs (or,
/// with `--all-paths`, of its paths) and says what was written.
pub fn write_for_check(
    dir: &Path,
    args: &crate::args::CheckArgs,
    program: &Program,
    report: &wiser_engine::Report,
    property: PropertySpec,
) -> Result<(), CliError> {
    let cases = if args.all_paths {
        let options = Options {
            wrap_signed: args.semantics.wrap_signed,
            ..Options::default()
        };
        path_cases(program, report, options)
    } else {
        bug_cases(program, report)
    };
    let suite = Suite {
        dir,
        file_arg: args.target.file.as_deref().unwrap_or(&program.file),
        all_paths: args.all_paths,
        property,
        wrap_signed: args.semantics.wrap_signed,
        assume: args.target.assume.as_deref(),
        malloc_may_fail: args.target.lang.malloc_may_fail,
    };
    let written = write_suite(program, &suite, &cases)?;
    note_written(dir, &written, args.all_paths);
    if args.all_paths {
        if report.paths_dropped > 0 {
            crate::out::errln!(
                "note: {} more paths ended beyond the {} kept; they have no test",
                report.paths_dropped,
                cases.len()
            );
        }
        if !report.incomplete.is_empty() {
            crate::out::errln!("note: the search was not exhaustive (see `not covered`); the suite has tests for the paths explored only");
        }
    }
    Ok(())
}

impl crate::args::CheckArgs {
    /// What `--replay` takes from the command line.
    pub fn replay_overrides(&self) -> replay::Overrides<'_> {
        replay::Overrides {
            file: self.target.file.as_deref(),
            lang: self.target.lang.lang.as_deref(),
            frontends: self.target.lang.frontends,
            data_model: self
                .target
                .lang
                .data_model
                .map(crate::args::DataModelArg::data_model),
            wrap_signed: self.semantics.wrap_signed,
            max_steps: STEPS,
        }
    }
}

impl crate::args::RunArgs {
    /// What `--test` takes from the command line.
    pub fn replay_overrides(&self) -> replay::Overrides<'_> {
        replay::Overrides {
            file: self.file.as_deref(),
            lang: self.lang.lang.as_deref(),
            frontends: self.lang.frontends,
            data_model: self
                .lang
                .data_model
                .map(crate::args::DataModelArg::data_model),
            wrap_signed: self.wrap_signed,
            max_steps: self.max_steps,
        }
    }
}

/// The cases of a report's ended paths (`--all-paths`), in the report's
/// order (by trail, so the numbering does not depend on `--jobs`): every
/// path that halted or stopped on an error and has an input. Cut and
/// merged paths have none.
pub fn path_cases(program: &Program, report: &wiser_engine::Report, options: Options) -> Vec<Case> {
    use wiser_engine::PathEndKind;
    report
        .paths
        .iter()
        .filter_map(|p| {
            let input = p.input.clone()?;
            let expected = match p.end {
                PathEndKind::Halted => Outcome::Halted,
                PathEndKind::Error { kind, span } | PathEndKind::OutsideProperty { kind, span } => {
                    // A path end carries no call stack; the engine replayed
                    // the input to end at the same place with the same
                    // stack, so the concrete run gives it.
                    let run = concrete::run_with(&program.ir, &input, STEPS, options);
                    match &run.outcome {
                        concrete::Outcome::Error {
                            kind: k,
                            span: s,
                            stack,
                        } if *k == kind && *s == span => error_outcome(program, kind, span, stack),
                        // Disagreement is reported when the suite is
                        // written; the claim keeps the place.
                        _ => {
                            let lc = program.line_col(span);
                            Outcome::Error {
                                kind: kind.name().to_string(),
                                line: lc.line,
                                column: lc.column,
                                call_stack: vec![Frame {
                                    routine: "main".into(),
                                    line: None,
                                    column: None,
                                }],
                            }
                        }
                    }
                }
                PathEndKind::Cut(_) | PathEndKind::Merged => return None,
            };
            Some(Case {
                input,
                expected,
                path_condition: render::path_condition_text(&p.path_condition),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_files_are_recognised_by_name() {
        for name in [
            "bug-001-assertion-21-1.json",
            "path-0001-halted.json",
            "metadata.xml",
            "testcase-12.xml",
        ] {
            assert!(is_own_file(name), "{name}");
        }
        for name in [
            "bug-.json",
            "notes.json",
            "path-x.json",
            "testcase-.xml",
            "testcase-1a.xml",
            "bug-001-assertion-21-1.json~",
            "metadata.xml.bak",
        ] {
            assert!(!is_own_file(name), "{name}");
        }
    }

    #[test]
    fn names_say_what_a_test_expects_and_sort_by_number() {
        let error = Outcome::Error {
            kind: "division_by_zero".into(),
            line: 7,
            column: 12,
            call_stack: Vec::new(),
        };
        assert_eq!(
            file_name(false, 2, 5, &error),
            "bug-002-division-by-zero-7-12.json"
        );
        assert_eq!(
            file_name(true, 3, 21, &Outcome::Halted),
            "path-0003-halted.json"
        );
        // Wider numbers when there are more tests, so names still sort.
        assert_eq!(
            file_name(true, 7, 12_345, &Outcome::Halted),
            "path-00007-halted.json"
        );
        assert!(is_own_file(&file_name(
            true,
            1,
            1,
            &Outcome::AssumeFailed { line: 1, column: 2 }
        )));
    }
}
