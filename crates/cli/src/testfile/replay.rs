//! Replaying tests: `wiser run --test FILE` runs one test's input on the
//! concrete interpreter (the normal `run`) and says whether its outcome is
//! the expected one; `wiser check --replay DIR` does so for every test of
//! a folder and sums up.

use super::json::{DataModelName, Outcome, TestFile};
use super::outcome::{describe, program_hash, run_outcome};
use crate::args::Format;
use crate::error::{CliError, Kind};
use crate::exit;
use crate::formats::Rendered;
use crate::inputs;
use crate::load::{self, LoadOptions, Program, Registry};
use crate::out::Stdout;
use crate::render_run;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use wiser_frontend::DataModel;
use wiser_semantics::concrete;
use wiser_semantics::{Input, Options};

/// What a replay may take from the command line instead of the test.
pub struct Overrides<'a> {
    /// The program to run (instead of the one the test names).
    pub file: Option<&'a Path>,
    /// `--lang`.
    pub lang: Option<&'a str>,
    /// The front ends to choose from.
    pub frontends: Registry,
    /// `--data-model`.
    pub data_model: Option<DataModel>,
    /// `--wrap-signed` (on if the test or the command line says so).
    pub wrap_signed: bool,
    /// `--max-steps`.
    pub max_steps: u64,
}

/// Reads a test file; the error names the file.
pub fn read_test(path: &Path) -> Result<TestFile, CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        CliError::file(format!("cannot read the test `{}`: {e}", path.display()))
            .help("give a test file written by `wiser check --tests DIR`")
    })?;
    TestFile::parse(&text).map_err(|e| {
        CliError::new(
            Kind::TestFile,
            format!("`{}` is not a valid test file: {e}", path.display()),
        )
        .help("docs/TESTS.md describes the format")
    })
}

/// What a program was loaded from and how.
type ProgramKey = (PathBuf, Option<String>, Option<DataModel>, Option<String>);

/// The programs loaded so far, by what was loaded: a suite of a hundred
/// tests of one C program preprocesses it once.
#[derive(Default)]
pub struct Programs {
    // A handful of programs at most: a list is enough.
    loaded: Vec<(ProgramKey, Program)>,
}

impl Programs {
    /// The program `test` is to run on (loaded with the test's language,
    /// data model and `--assume`), and the path it was read from.
    fn get(&mut self, test: &TestFile, o: &Overrides<'_>) -> Result<&Program, CliError> {
        let path = o
            .file
            .map_or_else(|| PathBuf::from(&test.program.file), Path::to_path_buf);
        // An SV-COMP task file says its own language and data model.
        let lang = match (o.lang, load::is_task(&path)) {
            (Some(l), _) => Some(l.to_string()),
            (None, true) => None,
            (None, false) => Some(test.program.language.clone()),
        };
        let data_model = o.data_model.or(test.options.data_model.map(|d| match d {
            DataModelName::Ilp32 => DataModel::Ilp32,
            DataModelName::Lp64 => DataModel::Lp64,
        }));
        let assume = test.options.assume.clone();
        let key = (path.clone(), lang.clone(), data_model, assume.clone());
        let index = match self.loaded.iter().position(|(k, _)| *k == key) {
            Some(i) => i,
            None => {
                let options = LoadOptions {
                    frontends: o.frontends,
                    lang: lang.as_deref(),
                    data_model,
                    assume: assume.as_deref(),
                    malloc_may_fail: test.options.malloc_may_fail,
                };
                let program = load::load_any(&path, &options).map_err(|e| {
                    if o.file.is_some() {
                        e
                    } else {
                        e.note(format!(
                            "the test names the program `{}`; give another with `wiser run FILE --test TEST` or `wiser check FILE --replay DIR`",
                            test.program.file
                        ))
                    }
                })?;
                self.loaded.push((key, program));
                self.loaded.len() - 1
            }
        };
        Ok(&self.loaded[index].1)
    }
}

/// The input of `test` for `program`, checked as `--input` and `--reads`
/// are (each name an input of the program, each value of its type).
fn input(program: &Program, test: &TestFile) -> Result<Input, CliError> {
    let mut items: Vec<String> = test
        .input
        .vars
        .iter()
        .map(|(n, v)| format!("{n}={}", v.0))
        .collect();
    for (name, a) in &test.input.arrays {
        items.extend(
            a.entries
                .iter()
                .map(|(i, v)| format!("{name}[{}]={}", i.0, v.0)),
        );
    }
    let reads = (!test.input.reads.is_empty()).then(|| {
        test.input
            .reads
            .iter()
            .map(|v| v.0.to_string())
            .collect::<Vec<_>>()
            .join(",")
    });
    let mut input = inputs::parse(&program.ir, &items, reads.as_deref(), inputs::INPUT)?;
    input.schedule = test
        .input
        .schedule
        .iter()
        .map(|&(point, thread)| wiser_semantics::Switch { point, thread })
        .collect();
    input.schedule.sort();
    // Defaults are not expressible as `--input` items: set them here.
    for (name, a) in &test.input.arrays {
        let Some(decl) = program
            .ir
            .arrays
            .iter()
            .find(|d| &*d.name == name && d.init.is_none())
        else {
            return Err(CliError::input(format!(
                "`{name}` is not an input array of this program"
            )));
        };
        if !decl.ty.elem.contains(&a.default.0) {
            return Err(CliError::input(format!(
                "the default `{}` of array `{name}` is not a value of type `{}`",
                a.default.0, decl.ty.elem
            )));
        }
        match input.arrays.iter_mut().find(|(n, _)| &**n == name) {
            Some((_, entry)) => entry.default = a.default.0.clone(),
            None => input.arrays.push((
                name.as_str().into(),
                wiser_semantics::ArrayInput {
                    default: a.default.0.clone(),
                    entries: Vec::new(),
                },
            )),
        }
    }
    Ok(input)
}

/// One replayed test.
struct Replayed<'p> {
    program: &'p Program,
    run: concrete::Run,
    actual: Outcome,
    /// The program's text differs from the one the test was made from.
    changed: bool,
}

fn replay<'p>(
    programs: &'p mut Programs,
    test: &TestFile,
    test_path: &Path,
    o: &Overrides<'_>,
) -> Result<Replayed<'p>, CliError> {
    let program = programs.get(test, o)?;
    let input = input(program, test).map_err(|e| {
        e.note(format!(
            "in the input of the test `{}`",
            test_path.display()
        ))
    })?;
    let run = concrete::run_with(
        &program.ir,
        &input,
        o.max_steps,
        Options {
            wrap_signed: test.options.wrap_signed || o.wrap_signed,
            ..Options::default()
        },
    );
    let actual = run_outcome(program, &run.outcome);
    let changed = program_hash(program) != test.program.sha256;
    Ok(Replayed {
        program,
        run,
        actual,
        changed,
    })
}

fn changed_warning(program: &Program) -> String {
    format!(
        "warning: `{}` has changed since the test was written (its SHA-256 differs); the expected outcome may no longer hold",
        program.file.display()
    )
}

/// `wiser run --test FILE`: exit 0 if the outcome is the expected one, 1
/// if not (both after printing the run as `run` does).
pub fn run_test(
    stdout: &Stdout,
    test_path: &Path,
    o: &Overrides<'_>,
    format: Format,
) -> Result<u8, CliError> {
    crate::formats::refuse_sarif(format, "test replays")?;
    let test = read_test(test_path)?;
    let mut programs = Programs::default();
    let r = replay(&mut programs, &test, test_path, o)?;
    if r.changed {
        crate::out::errln!("{}", changed_warning(r.program));
    }
    let pass = r.actual == test.expected;
    let output = TestOutput {
        replay: &r,
        test: &test,
        test_path,
        pass,
        max_steps: o.max_steps,
    };
    crate::formats::print(stdout, format, test_path, &output);
    Ok(if pass { exit::OK } else { exit::BUG })
}

/// The test files of a folder: its `.json` files, by name.
fn suite_files(dir: &Path) -> Result<Vec<PathBuf>, CliError> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        CliError::file(format!(
            "cannot read the folder `{}` given to --replay: {e}",
            dir.display()
        ))
        .help("give a folder of tests written by `wiser check --tests DIR`")
    })?;
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(
            CliError::file(format!("`{}` holds no test files (*.json)", dir.display())).help(
                format!(
                    "write a suite with `wiser check FILE --tests {}`",
                    dir.display()
                ),
            ),
        );
    }
    Ok(files)
}

/// `wiser check --replay DIR`: every test of DIR, a line each and a
/// summary. Exit 0 if every test passed, 1 if some test's outcome was not
/// the expected one, 2 if some test could not be run at all.
pub fn replay_dir(
    stdout: &Stdout,
    dir: &Path,
    o: &Overrides<'_>,
    format: Format,
) -> Result<u8, CliError> {
    crate::formats::refuse_sarif(format, "test replays")?;
    let files = suite_files(dir)?;
    let mut programs = Programs::default();
    let (mut passed, mut mismatched, mut errors) = (0usize, 0usize, 0usize);
    let mut lines = String::new();
    let mut results: Vec<Value> = Vec::new();
    let mut warned: Vec<PathBuf> = Vec::new();
    for path in &files {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let outcome = read_test(path).and_then(|test| {
            let r = replay(&mut programs, &test, path, o)?;
            if r.changed && !warned.contains(&r.program.file) {
                warned.push(r.program.file.clone());
                crate::out::errln!("{}", changed_warning(r.program));
            }
            Ok((test.expected, r.actual))
        });
        match outcome {
            Ok((expected, actual)) if expected == actual => {
                passed += 1;
                lines.push_str(&format!("pass      {name}: {}\n", describe(&actual)));
                results.push(
                    json!({"file": name, "status": "pass", "expected": expected, "actual": actual}),
                );
            }
            Ok((expected, actual)) => {
                mismatched += 1;
                lines.push_str(&format!(
                    "MISMATCH  {name}: expected {}, got {}\n",
                    describe(&expected),
                    describe(&actual)
                ));
                results.push(json!({"file": name, "status": "mismatch", "expected": expected, "actual": actual}));
            }
            Err(error) => {
                errors += 1;
                let message = error.diagnostic().message;
                lines.push_str(&format!("error     {name}: {message}\n"));
                results.push(json!({"file": name, "status": "error", "message": error.text()}));
            }
        }
    }
    let total = files.len();
    let code = if errors > 0 {
        exit::USAGE
    } else if mismatched > 0 {
        exit::BUG
    } else {
        exit::OK
    };
    let summary = Summary {
        lines,
        dir,
        results,
        total,
        passed,
        mismatched,
        errors,
    };
    crate::formats::print(stdout, format, dir, &summary);
    Ok(code)
}

/// `run --test`'s report: the run, then the test's verdict.
struct TestOutput<'a, 'p> {
    replay: &'a Replayed<'p>,
    test: &'a TestFile,
    test_path: &'a Path,
    pass: bool,
    max_steps: u64,
}

impl Rendered for TestOutput<'_, '_> {
    fn text(&self) -> String {
        let (r, test, test_path) = (self.replay, self.test, self.test_path);
        let mut out = render_run::run_text(r.program, &r.run, self.max_steps);
        if self.pass {
            out.push_str(&format!(
                "test `{}`: pass (expected {})\n",
                test_path.display(),
                describe(&test.expected)
            ));
        } else {
            out.push_str(&format!(
                "test `{}`: MISMATCH\n  expected: {}\n  actual:   {}\n",
                test_path.display(),
                describe(&test.expected),
                describe(&r.actual)
            ));
        }
        out
    }

    fn json(&self) -> Value {
        let r = self.replay;
        let mut v = render_run::run_json(r.program, &r.run);
        v["test"] = json!({
            "file": self.test_path.display().to_string(),
            "status": if self.pass { "pass" } else { "mismatch" },
            "expected": self.test.expected,
            "actual": r.actual,
            "program_changed": r.changed,
        });
        v
    }

    fn stamped(&self) -> bool {
        false
    }
}

/// `check --replay`'s report: one line per test, then the counts.
struct Summary<'a> {
    /// The lines of the tests, for the text report.
    lines: String,
    dir: &'a Path,
    results: Vec<Value>,
    total: usize,
    passed: usize,
    mismatched: usize,
    errors: usize,
}

impl Rendered for Summary<'_> {
    fn text(&self) -> String {
        format!(
            "{}replay: {} test{}: {} passed, {} mismatched, {} could not be run\n",
            self.lines,
            self.total,
            if self.total == 1 { "" } else { "s" },
            self.passed,
            self.mismatched,
            self.errors
        )
    }

    fn json(&self) -> Value {
        json!({
            "replay": self.dir.display().to_string(),
            "tests": self.results,
            "passed": self.passed,
            "mismatched": self.mismatched,
            "errors": self.errors,
        })
    }

    fn stamped(&self) -> bool {
        false
    }
}
