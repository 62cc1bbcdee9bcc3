//! SV-COMP verification witnesses, format 2.0 (YAML), written by
//! `--witness FILE.yml`: a violation witness (`violation_sequence`) for a
//! bug, a correctness witness (`invariant_set`) for `safe`, nothing for
//! `unknown`. The format is SoSy-Lab's `sv-witnesses` (its rules are
//! transcribed in `docs/schemas/svcomp-witness-2.0.schema.json`).
//!
//! A violation witness is the bug's replayed witness in the format's
//! terms: one segment per waypoint, in the order the concrete run passes
//! them — a `branching` waypoint (`true`/`false`) at each `if`, `while`
//! and `for` it decides, a `function_return` waypoint (`\result == V`)
//! at each `__VERIFIER_nondet_*` call with the value the input gives,
//! and the `target` at the error. Every passage of a location that has
//! a waypoint is listed, so a validator that matches each follow
//! waypoint at the next passage of its location follows exactly this
//! run. A decision the format has no waypoint for (`switch`, `?:`,
//! `do … while`, `&&`) is left out at all its passages, which keeps that
//! property; a run too long to list keeps its `function_return`
//! waypoints only (they alone fix a sequential run).
//!
//! A correctness witness holds the prover's loop invariants as C
//! expressions ([`crate::c_expr`]); see [`correctness`] for what is left
//! out and why.

use crate::c_expr;
use crate::error::CliError;
use crate::load::Program;
use crate::task::PropertySpec;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::Path;
use wiser_engine::{Bug, Extra, Report, Verdict};
use wiser_frontend::ReadSite;
use wiser_ir::{Cfg, FileId, Pc, Routine, ScalarTy, Span};
use wiser_num::IntTy;
use wiser_semantics::{ErrorKind, Options, TraceOptions, TraceStep};

/// The format version written.
const FORMAT_VERSION: &str = "2.0";

/// Steps of a bug's run kept for its branching waypoints; a longer run's
/// witness lists its `function_return` waypoints only.
const MAX_TRACE_STEPS: usize = 20_000;

/// SV-COMP's property texts, as its `.prp` files write them.
const UNREACH_CALL: &str = "CHECK( init(main()), LTL(G ! call(reach_error())) )";
const NO_OVERFLOW: &str = "CHECK( init(main()), LTL(G ! overflow) )";
const VALID_DEREF: &str = "CHECK( init(main()), LTL(G valid-deref) )";
const VALID_FREE: &str = "CHECK( init(main()), LTL(G valid-free) )";
const VALID_MEMTRACK: &str = "CHECK( init(main()), LTL(G valid-memtrack) )";

/// What a command tells the writer besides the program and its report.
pub struct WitnessRequest<'a> {
    /// The file to write.
    pub path: &'a Path,
    /// The property the run decided.
    pub property: PropertySpec,
    /// `--property`'s argument, when one was given (a `.prp` file's text
    /// is the witness's specification).
    pub property_arg: Option<&'a str>,
    /// The engine finds bugs only (`concolic`, `fuzz`): write a witness
    /// for a bug, never one for `safe`.
    pub bugs_only: bool,
    /// The semantics the run used (a bug's input is replayed under them).
    pub semantics: Options,
}

/// `--witness` asked of a program that is not C: an error before the run.
pub fn check_language(program: &Program, path: &Path) -> Result<(), CliError> {
    if program.language.name() == "c" {
        return Ok(());
    }
    Err(CliError::usage(format!(
        "--witness writes an SV-COMP witness, which describes a C program; `{}` is not C (it is read as {})",
        program.file.display(),
        program.language.name()
    ))
    .help(format!(
        "leave out `--witness {}`, or check a C file",
        path.display()
    )))
}

/// Writes the witness of `report` to `request.path`: a violation witness
/// for its first bug, a correctness witness for `safe`; for `unknown`
/// (or no bug from a bug-finding engine) a note on stderr and no file.
pub fn write_witness(
    program: &Program,
    report: &Report,
    request: &WitnessRequest<'_>,
) -> Result<(), CliError> {
    let path = request.path;
    let skip = |why: &str| {
        crate::out::errln!(
            "note: {why}, so no SV-COMP witness was written to `{}`",
            path.display()
        );
        Ok(())
    };
    let entry = match (report.verdict, report.bugs.first()) {
        (Verdict::Bug, Some(bug)) => violation(program, report, bug, request),
        (_, Some(bug)) if request.bugs_only => violation(program, report, bug, request),
        (Verdict::Safe, _) if !request.bugs_only => match correctness(program, report, request) {
            Some(entry) => entry,
            None => {
                return skip(
                    "the program is safe but has no loop to state an invariant at (the format \
                     needs at least one)",
                )
            }
        },
        (_, None) if request.bugs_only => return skip("no bug was found"),
        _ => return skip("the verdict is unknown"),
    };
    let created = entry["metadata"]["creation_time"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let text = serde_norway::to_string(&Value::Array(vec![entry]))
        .map_err(|e| CliError::file(format!("cannot write the witness as YAML: {e}")))?;
    // YAML 1.2 (serde_norway) leaves the time unquoted; YAML 1.1 readers
    // (PyYAML, which SV-COMP's validators use) would read a timestamp
    // rather than the string the format asks for.
    let text = text.replacen(
        &format!("creation_time: {created}\n"),
        &format!("creation_time: '{created}'\n"),
        1,
    );
    std::fs::write(path, text).map_err(|e| CliError::cannot_write("the witness", path, &e))
}

/// The entry's metadata: format, identity, producer and task.
fn metadata(program: &Program, report: &Report, spec: String) -> Value {
    let file = program.file.display().to_string();
    let hash = file_hash(program);
    let created = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    let data_model = match program.data_model.unwrap_or_default() {
        wiser_frontend::DataModel::Ilp32 => "ILP32",
        wiser_frontend::DataModel::Lp64 => "LP64",
    };
    json!({
        "format_version": FORMAT_VERSION,
        "uuid": uuid::Uuid::new_v4().to_string(),
        "creation_time": created,
        "producer": {
            "name": "wiser",
            "version": env!("CARGO_PKG_VERSION"),
            "configuration": report.extra.engine(),
        },
        "task": {
            "input_files": [file.clone()],
            "input_file_hashes": { file: hash },
            "specification": spec,
            "data_model": data_model,
            "language": "C",
        },
    })
}

/// The SHA-256 of the program's file as read (the front end read the
/// same bytes; the file's text is what `Sources` holds for file 0).
fn file_hash(program: &Program) -> String {
    let text = program.sources.get(FileId(0)).text();
    let bytes = std::fs::read(&program.file).unwrap_or_else(|_| text.as_bytes().to_vec());
    Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The specification: the text of the `.prp` file the run was given (by
/// `--property FILE.prp` or the task), else SV-COMP's text of the
/// property. For `all`, which is no SV-COMP property: the property a
/// bug's kind violates, else those of SV-COMP's properties `all` checks.
fn specification(program: &Program, request: &WitnessRequest<'_>, bug: Option<&Bug>) -> String {
    let from_file = request
        .property_arg
        .map(std::path::PathBuf::from)
        .filter(|p| p.is_file())
        .or_else(|| {
            let task = program.task.as_ref()?;
            let listed = task.property(request.property)?;
            Some(task.path.parent()?.join(&listed.file))
        })
        .and_then(|p| std::fs::read_to_string(p).ok());
    if let Some(text) = from_file {
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with("//"))
            .collect();
        if !lines.is_empty() {
            return lines.join("\n");
        }
    }
    let memsafety = [VALID_DEREF, VALID_FREE, VALID_MEMTRACK].join("\n");
    match request.property {
        PropertySpec::UnreachCall => UNREACH_CALL.into(),
        PropertySpec::NoOverflow => NO_OVERFLOW.into(),
        PropertySpec::ValidMemsafety => memsafety,
        PropertySpec::All => match bug.map(|b| b.kind) {
            Some(ErrorKind::Fail) => UNREACH_CALL.into(),
            Some(ErrorKind::SignedOverflow | ErrorKind::DivisionOverflow) => NO_OVERFLOW.into(),
            Some(k) if crate::task::subproperty(k).is_some() => memsafety,
            _ => [UNREACH_CALL, NO_OVERFLOW, VALID_DEREF, VALID_FREE].join("\n"),
        },
    }
}

/// A `location` object: the file, line, 1-based column and function.
fn location(program: &Program, line: u32, column: u32, function: &str) -> Value {
    json!({
        "file_name": program.file.display().to_string(),
        "line": line,
        "column": column,
        "function": function,
    })
}

/// The location of a span's first character, in `function`.
fn location_at(program: &Program, span: Span, function: &str) -> Value {
    let lc = program.line_col(span);
    location(program, lc.line, lc.column, function)
}

/// The routine an instruction belongs to: the one whose entry is the
/// last at or before it (routines are laid out one after the other).
fn routine_of(program: &Program, pc: Pc) -> &Routine {
    let ir = &program.ir;
    std::iter::once(&ir.main)
        .chain(&ir.procs)
        .filter(|r| r.entry <= pc)
        .max_by_key(|r| r.entry)
        .unwrap_or(&ir.main)
}

/// The C function a span's instruction is in, by its C name (the front
/// end's procedure names may carry a suffix after the function's).
fn function_at(program: &Program, span: Span) -> String {
    let pc = program.ir.code.iter().position(|l| l.span == span);
    let name = pc.map_or("main", |pc| &*routine_of(program, pc as Pc).name);
    c_name(name)
}

fn c_name(name: &str) -> String {
    name.chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

/// One follow waypoint in a segment of its own.
fn segment(kind: &str, constraint: Option<Value>, location: Value) -> Value {
    let mut waypoint = serde_json::Map::new();
    waypoint.insert("type".into(), kind.into());
    waypoint.insert("action".into(), "follow".into());
    if let Some(c) = constraint {
        waypoint.insert("constraint".into(), c);
    }
    waypoint.insert("location".into(), location);
    json!({ "segment": [ { "waypoint": waypoint } ] })
}

/// A `function_return` waypoint for a read by a `__VERIFIER_nondet_*`
/// call at `span` of value `value`: the location is the call's closing
/// parenthesis, as the format asks. `None` for a read the format cannot
/// state (an uninitialised local, a float).
fn read_waypoint(program: &Program, span: Span, site: &ReadSite, value: &str) -> Option<Value> {
    let ReadSite::Call {
        function,
        type_name,
    } = site
    else {
        return None;
    };
    if !function.starts_with("__VERIFIER_nondet_")
        || type_name.contains("float")
        || type_name.contains("double")
        || span.file != FileId(0)
        || span.hi == 0
    {
        return None;
    }
    let paren = Span {
        lo: span.hi - 1,
        ..span
    };
    let constraint =
        json!({ "value": format!("\\result == {value}"), "format": "acsl_expression" });
    Some(segment(
        "function_return",
        Some(constraint),
        location_at(program, paren, &function_at(program, span)),
    ))
}

/// The spans of the branches at loop heads: a `while` or `for` decision
/// the format's branching waypoints name (a `do … while`'s test is not
/// at the loop's head).
fn loop_head_spans(program: &Program) -> std::collections::HashSet<Span> {
    let cfg = Cfg::new(&program.ir);
    (0..program.ir.code.len() as Pc)
        .filter(|&pc| cfg.is_loop_head(pc))
        .map(|pc| program.ir.at(pc).span)
        .collect()
}

/// The keyword a statement at `span` starts with, if it is one the
/// format's waypoints and loop invariants point at.
fn keyword(program: &Program, span: Span) -> Option<&'static str> {
    let text = crate::sites::snippet(
        program,
        Span {
            hi: span.lo + 8,
            ..span
        },
    );
    let word: String = text
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    ["if", "while", "for", "do"]
        .into_iter()
        .find(|k| *k == word)
}

/// Where a witness's target is, and in which function: the bug's place,
/// or for a bug inside wiser's C library (a `sprintf` past its buffer)
/// the call in the program's file that led there (the witness describes
/// the program's file only).
fn target(program: &Program, bug: &Bug) -> (Span, String) {
    let routine = |i: usize, at: Span| {
        bug.stack
            .get(i)
            .map(|c| c_name(&c.routine))
            .unwrap_or_else(|| function_at(program, at))
    };
    if bug.span.file == FileId(0) {
        return (bug.span, routine(0, bug.span));
    }
    // The call stack is innermost first: frame i was called from its
    // call site, in frame i + 1's routine.
    match bug.stack.iter().position(|c| c.call_site.file == FileId(0)) {
        Some(i) => (
            bug.stack[i].call_site,
            routine(i + 1, bug.stack[i].call_site),
        ),
        None => (bug.span, routine(0, bug.span)),
    }
}

/// The violation witness of `bug`: its run's waypoints, then the target.
fn violation(program: &Program, report: &Report, bug: &Bug, request: &WitnessRequest<'_>) -> Value {
    let options = TraceOptions {
        head: MAX_TRACE_STEPS,
        tail: 0,
        ..crate::trace_render::options(program)
    };
    let watch = wiser_semantics::concrete::Watch {
        trace: Some(options),
        ..Default::default()
    };
    let trace = wiser_semantics::concrete::run_watched(
        &program.ir,
        &bug.input,
        u64::MAX,
        request.semantics,
        watch,
    )
    .trace
    .unwrap_or_default();
    let mut content = Vec::new();
    if trace.elided == 0 && !trace.head.is_empty() {
        let loops = loop_head_spans(program);
        for step in trace.steps() {
            match step {
                TraceStep::Branch { span, taken } if span.file == FileId(0) => {
                    let kw = keyword(program, *span);
                    let branching = match kw {
                        Some("if") => true,
                        Some("while" | "for") => loops.contains(span),
                        _ => false,
                    };
                    if branching {
                        let constraint = json!({ "value": taken.to_string() });
                        let loc = location_at(program, *span, &function_at(program, *span));
                        content.push(segment("branching", Some(constraint), loc));
                    }
                }
                TraceStep::Read { span, value, .. } => {
                    let site = crate::trace_render::read_site_at(program, *span);
                    if let Some(w) =
                        site.and_then(|s| read_waypoint(program, *span, &s, &value.to_string()))
                    {
                        content.push(w);
                    }
                }
                _ => {}
            }
        }
    } else {
        // Too long a run to list its decisions: its reads, which fix it.
        for (value, &pc) in bug.input.reads.iter().zip(&bug.read_pcs) {
            let span = program.ir.at(pc).span;
            if let Some(w) =
                read_waypoint(program, span, &program.read_site(pc), &value.to_string())
            {
                content.push(w);
            }
        }
    }
    let (span, function) = target(program, bug);
    content.push(segment(
        "target",
        None,
        location_at(program, span, &function),
    ));
    let spec = specification(program, request, Some(bug));
    json!({
        "entry_type": "violation_sequence",
        "metadata": metadata(program, report, spec),
        "content": content,
    })
}

/// The correctness witness of a `safe` report: the prover's invariants
/// as C expressions, one `loop_invariant` per loop head.
///
/// An invariant is left out (the witness stays valid, only weaker) when
/// it has no C reading ([`c_expr`]: a division by a variable, a variable
/// of a caller's frame, an array, a statement about every cell of an
/// array) or names a variable that the file has
/// not mentioned before the loop (C's scope: the prover's state holds
/// every slot of the frame, even those declared after the loop). Several
/// invariants at one loop (the loop's function called from several
/// places) are joined by `||`: each holds in its own calling context.
/// With no invariant left (or none, from `check` and `bmc`, whose
/// exhaustive search states none), each loop head gets the invariant `1`:
/// the format needs at least one invariant, and `1` is one.
fn correctness(program: &Program, report: &Report, request: &WitnessRequest<'_>) -> Option<Value> {
    // Per loop head (line, column): its function and its invariants in C
    // (`None`: one that has no C reading).
    type AtLoop = (String, Vec<Option<String>>);
    let mut at: BTreeMap<(u32, u32), AtLoop> = BTreeMap::new();
    let mut left_out = 0;
    if let Extra::Prove(p) = &report.extra {
        for inv in &p.invariants {
            // An invariant over every cell of an array has a quantifier,
            // which the witness's C expressions cannot say.
            if inv.span.file != FileId(0)
                || keyword(program, inv.span).is_none()
                || inv.for_every.is_some()
            {
                left_out += 1;
                continue;
            }
            let lc = program.line_col(inv.span);
            let types = |name: &str| variable_type(program, &inv.routine, inv.span, name);
            let text = c_expr::c_expression(&inv.formula, &types);
            left_out += usize::from(text.is_none());
            at.entry((lc.line, lc.column))
                .or_insert_with(|| (c_name(&inv.routine), Vec::new()))
                .1
                .push(text);
        }
    }
    let mut content: Vec<Value> = at
        .into_iter()
        .filter_map(|((line, column), (function, texts))| {
            let texts: Vec<String> = texts.into_iter().collect::<Option<_>>()?;
            let value = match texts.as_slice() {
                [one] => one.clone(),
                _ => texts
                    .iter()
                    .map(|t| format!("({t})"))
                    .collect::<Vec<_>>()
                    .join(" || "),
            };
            Some(invariant(program, line, column, &function, &value))
        })
        .collect();
    if left_out > 0 {
        crate::out::errln!(
            "note: {left_out} loop invariant{} of the proof could not be written as C \
             expression{} and {} left out of the witness",
            if left_out == 1 { "" } else { "s" },
            if left_out == 1 { "" } else { "s" },
            if left_out == 1 { "is" } else { "are" },
        );
    }
    if content.is_empty() {
        let mut heads: Vec<(u32, u32, String)> = loop_head_spans(program)
            .into_iter()
            .filter(|s| {
                s.file == FileId(0) && matches!(keyword(program, *s), Some("while" | "for" | "do"))
            })
            .map(|s| {
                let lc = program.line_col(s);
                (lc.line, lc.column, function_at(program, s))
            })
            .collect();
        heads.sort();
        heads.dedup();
        content = heads
            .iter()
            .map(|(line, column, f)| invariant(program, *line, *column, f, "1"))
            .collect();
    }
    if content.is_empty() {
        return None;
    }
    let spec = specification(program, request, None);
    Some(json!({
        "entry_type": "invariant_set",
        "metadata": metadata(program, report, spec),
        "content": content,
    }))
}

/// One `loop_invariant` element.
fn invariant(program: &Program, line: u32, column: u32, function: &str, value: &str) -> Value {
    json!({
        "invariant": {
            "type": "loop_invariant",
            "location": location(program, line, column, function),
            "value": value,
            "format": "c_expression",
        }
    })
}

/// The C type of the variable `name` of an invariant at `at` in
/// `routine`: a slot of the routine, else a global; `None` unless it is
/// an integer type of a width C has and the file mentions the name
/// before `at` (in the routine, for a slot).
fn variable_type(program: &Program, routine: &str, at: Span, name: &str) -> Option<IntTy> {
    let ir = &program.ir;
    let text = program.sources.get(FileId(0)).text();
    let mentioned = |from: usize| {
        text.get(from..at.lo as usize)
            .is_some_and(|before| mentions(before, name))
    };
    // C's `main` is a procedure; the IR's main routine of the same name
    // is the start-up code that calls it.
    let routine = ir
        .procs
        .iter()
        .chain(std::iter::once(&ir.main))
        .find(|r| &*r.name == routine);
    let slot = routine.and_then(|r| {
        r.slots
            .iter()
            .find(|s| &*s.name == name)
            .map(|s| (s.ty, r.span.lo as usize))
    });
    let global = || {
        ir.globals
            .iter()
            .find(|g| &*g.name == name)
            .map(|g| (g.ty, 0))
    };
    let (ty, from) = slot.or_else(global)?;
    let ScalarTy::Int(ty) = ty else {
        return None;
    };
    (matches!(ty.width(), Some(8 | 16 | 32 | 64)) && mentioned(from)).then_some(ty)
}

/// Does `text` hold `name` as a whole word?
fn mentions(text: &str, name: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(name).any(|(i, _)| {
        !text[..i].chars().next_back().is_some_and(word)
            && !text[i + name.len()..].chars().next().is_some_and(word)
    })
}
