//! A third language, defined here and nowhere else, checked end to end
//! through the command line's own code: the front-end interface
//! ([`wiser_frontend::Frontend`]) is all the command line knows of a
//! language, so a toy language plugs in without touching the CLI or the
//! engines.
//!
//! The toy language has two kinds of lines: `NAME = input` reads a value
//! (an unbounded integer) into a variable, and `assert NAME OP NUMBER`
//! (with `==`, `!=`, `<`, `>`) asserts a comparison. Files end in `.toy`.
//!
//! Each test runs `wiser` (the library's [`wiser::main_with_args`] with a
//! registry of IMP, C and the toy) in a child process: this test binary
//! again, which runs [`child`] only with the arguments in [`CHILD`].

mod support;

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;
use wiser_frontend::{
    Frontend, LoadError, LoadRequest, Loaded, LoadedProgram, ReadSite, WitnessStyle,
};
use wiser_ir::{
    Builder, CmpOp, Diagnostic, Expr, IntTy, Ir, Pc, ScalarTy, SourceMap, Sources, Span,
};

/// The toy language.
struct Toy;

/// A toy program: each read is a call of `input()`.
struct ToyProgram;

impl LoadedProgram for ToyProgram {
    fn read_site(&self, _: &Ir, _: &Sources, _: Pc) -> ReadSite {
        ReadSite::Call {
            function: "input".into(),
            type_name: "int".into(),
        }
    }
}

/// Lowers the toy program in text `file` of `sources` through the IR's
/// builder.
fn lower(sources: &Sources, file: wiser_ir::FileId) -> Result<Ir, Diagnostic> {
    let text = sources.get(file).text();
    let mut program = Builder::new();
    let mut main = program.begin_main(Span::in_file(file, 0, text.len() as u32));
    let mut vars = HashMap::new();
    let mut offset = 0u32;
    for line in text.split_inclusive('\n') {
        let span = Span::in_file(file, offset, offset + line.trim_end().len() as u32);
        offset += line.len() as u32;
        let wrong = |what: &str| Diagnostic::new(span, what.to_string());
        match line.split_whitespace().collect::<Vec<_>>()[..] {
            [] => {}
            [name, "=", "input"] => {
                let place = *vars
                    .entry(name.to_string())
                    .or_insert_with(|| main.local(name, ScalarTy::INT));
                main.havoc(place, span);
            }
            ["assert", name, op, number] => {
                let place = *vars
                    .get(name)
                    .ok_or_else(|| wrong(&format!("`{name}` is read nowhere before")))?;
                let op = match op {
                    "==" => CmpOp::Eq,
                    "!=" => CmpOp::Ne,
                    "<" => CmpOp::Lt,
                    ">" => CmpOp::Gt,
                    _ => return Err(wrong(&format!("unknown comparison `{op}`"))),
                };
                let number: i64 = number
                    .parse()
                    .map_err(|_| wrong(&format!("`{number}` is not a number")))?;
                let cond = Expr::cmp(op, main.load(place), Expr::int(IntTy::INT, number));
                main.assert(cond, span);
            }
            _ => {
                return Err(wrong("expected `NAME = input` or `assert NAME OP NUMBER`")
                    .with_help("the toy language has these two statements only"))
            }
        }
    }
    main.finish();
    program
        .finish()
        .map_err(|e| Diagnostic::new(Span::in_file(file, 0, 0), e.to_string()))
}

impl Frontend for Toy {
    fn name(&self) -> &'static str {
        "toy"
    }

    fn description(&self) -> &'static str {
        "A toy language of reads and assertions."
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["toy"]
    }

    fn load(&self, request: &LoadRequest<'_>) -> Result<Loaded, LoadError> {
        let name = request.path.display().to_string();
        let text = std::fs::read_to_string(request.path)
            .map_err(|e| LoadError::refused(format!("cannot read `{name}`: {e}"), None))?;
        let mut sources = Sources::new();
        let file = sources.add(SourceMap::new(name, text));
        match lower(&sources, file) {
            Ok(ir) => Ok(Loaded {
                sources,
                ir: Arc::new(ir),
                warnings: Vec::new(),
                data_model: None,
                details: Box::new(ToyProgram),
            }),
            Err(diagnostic) => Err(LoadError::Program {
                diagnostic,
                sources,
                unsupported: false,
            }),
        }
    }

    fn witness_style(&self) -> WitnessStyle {
        WitnessStyle::Reads
    }

    fn reads_name(&self) -> &'static str {
        "read(s) of `NAME = input`"
    }

    fn statement_condition(&self, _: &str) -> Option<(&'static str, String)> {
        None
    }
}

static TOY: Toy = Toy;

/// IMP, C and the toy language.
static FRONTENDS: wiser::Frontends = &[&wiser_imp::FRONTEND, &wiser_c::FRONTEND, &TOY];

/// The environment variable that holds a child's arguments (one per line).
const CHILD: &str = "WISER_TOY_CHILD_ARGS";

/// `wiser` itself, in a child process run with [`CHILD`] set; a no-op in
/// the test run itself.
#[test]
fn child() {
    let Ok(args) = std::env::var(CHILD) else {
        return;
    };
    let args = std::iter::once("wiser").chain(args.lines()).map(Into::into);
    let code = wiser::main_with_args(FRONTENDS, args);
    std::process::exit(i32::from(code));
}

/// Runs `wiser ARGS` with the toy language; its exit code, stdout and
/// stderr.
fn wiser(args: &[&str]) -> (i32, String, String) {
    let (code, stdout, stderr) = support::captured(
        Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "child", "--nocapture", "--test-threads=1"])
            .env(CHILD, args.join("\n")),
    );
    // The test harness announces its one test before the child speaks.
    let stdout = match stdout.split_once("test child ... ") {
        Some((_, rest)) => rest.to_string(),
        None => stdout,
    };
    (code, stdout, stderr)
}

/// A toy program in a folder of its own.
fn program(name: &str, text: &str) -> PathBuf {
    support::scratch_file("toy", name, text)
}

const BUGGY: &str = "x = input\ny = input\nassert x != 5\n";

#[test]
fn check_finds_the_bug_and_names_its_reads_as_the_toy_does() {
    let file = program("buggy.toy", BUGGY);
    let file = file.to_str().unwrap();
    let (code, out, err) = wiser(&["check", file, "--in-process-solver"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("verdict: bug"), "{out}");
    assert!(out.contains("buggy.toy:3:1"), "{out}");
    assert!(out.contains("input() = 5"), "{out}");
}

#[test]
fn the_json_report_has_the_language_and_the_witness() {
    let file = program("json.toy", BUGGY);
    let file = file.to_str().unwrap();
    let (code, out, err) = wiser(&["check", file, "--format", "json", "--in-process-solver"]);
    assert_eq!(code, 1, "{out}{err}");
    let json: serde_json::Value = serde_json::from_str(out.trim()).expect(&out);
    assert_eq!(json["verdict"], "bug");
    assert_eq!(json["language"], "toy");
    let bug = &json["bugs"][0];
    assert_eq!(bug["kind"], "assertion");
    assert_eq!(bug["line"], 3);
    assert_eq!(bug["nondet"][0]["function"], "input");
    assert_eq!(bug["nondet"][0]["value"], 5);
}

#[test]
fn the_witness_replays_on_the_concrete_interpreter() {
    let file = program("replay.toy", BUGGY);
    let file = file.to_str().unwrap();
    let (code, out, err) = wiser(&["run", file, "--reads", "5,0"]);
    assert_eq!(
        code, 1,
        "the witness reaches the failed assertion: {out}{err}"
    );
    assert!(out.contains("replay.toy:3:1"), "{out}{err}");
    let (code, out, err) = wiser(&["run", file, "--reads", "4,0"]);
    assert_eq!(code, 0, "another input passes the assertion: {out}{err}");
}

#[test]
fn a_safe_program_is_safe() {
    let file = program("safe.toy", "x = input\ny = input\n");
    let (code, out, err) = wiser(&["check", file.to_str().unwrap(), "--in-process-solver"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("verdict: safe"), "{out}");
}

#[test]
fn the_toy_diagnostics_are_rendered_as_every_language_s() {
    let file = program("wrong.toy", "x = input\nprint x\n");
    let (code, out, err) = wiser(&["check", file.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("error: expected `NAME = input` or `assert NAME OP NUMBER`"),
        "{err}"
    );
    assert!(err.contains("wrong.toy:2:1"), "{err}");
    assert!(
        err.contains("= help: the toy language has these two statements only"),
        "{err}"
    );
}

#[test]
fn lang_picks_the_toy_for_another_extension() {
    let file = program("other.txt", BUGGY);
    let file = file.to_str().unwrap();
    let (code, out, err) = wiser(&["check", file, "--lang", "toy", "--in-process-solver"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("input() = 5"), "{out}");
    // Without --lang, the first front end (IMP) reads it, and refuses it.
    let (code, _, _) = wiser(&["check", file, "--in-process-solver"]);
    assert_eq!(code, 2);
}
