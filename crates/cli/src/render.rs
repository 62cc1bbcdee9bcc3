//! Output formats: text for people, JSON for programs.

use crate::heap_render;
use crate::load::Program;
use crate::reads_render::{command_line, named_reads};
use crate::task::PropertySpec;
use serde_json::{json, Value};
use std::fmt::Write;
use wiser_engine::readable::Names;
use wiser_engine::{Bug, Config, Incomplete, Report, Verdict};
use wiser_frontend::{ReadSite, WitnessStyle};
use wiser_semantics::{ArrayInput, CallSite, Input};

fn verdict_name(v: Verdict) -> &'static str {
    v.name()
}

pub(crate) fn array_text(a: &ArrayInput) -> String {
    let entries: Vec<String> = a
        .entries
        .iter()
        .map(|(i, v)| format!("[{i}] = {v}"))
        .collect();
    if entries.is_empty() {
        format!("all {}", a.default)
    } else {
        format!("{}, others {}", entries.join(", "), a.default)
    }
}

/// The frames of a call stack that the program wrote: a C program's IR
/// main routine is start-up code (global initialisers, then the call of
/// C's `main`), left out.
pub(crate) fn user_stack<'s>(program: &Program, stack: &'s [CallSite]) -> &'s [CallSite] {
    match stack {
        [inner @ .., _startup] if program.language.main_is_startup() && !inner.is_empty() => inner,
        _ => stack,
    }
}

/// `f (called at 7:3) <- g (called at 2:1) <- main`, or nothing in main.
pub(crate) fn stack_text(program: &Program, stack: &[CallSite]) -> Option<String> {
    let stack = user_stack(program, stack);
    (stack.len() > 1).then(|| {
        stack
            .iter()
            .enumerate()
            .map(|(i, c)| {
                // The outermost frame was not called by the program.
                if c.call_site.is_dummy() || i + 1 == stack.len() {
                    c.routine.to_string()
                } else {
                    format!(
                        "{} (called at {})",
                        c.routine,
                        program.line_col(c.call_site)
                    )
                }
            })
            .collect::<Vec<_>>()
            .join(" <- ")
    })
}

/// What a check was asked, for the report: the property, and the expected
/// verdict of the SV-COMP task it came from (`true`: no error reachable).
#[derive(Clone, Copy, Debug)]
pub struct Asked {
    pub property: PropertySpec,
    pub expected: Option<bool>,
    /// The part of the property a `false` verdict names (`valid-free`).
    pub subproperty: Option<&'static str>,
}

fn input_text(out: &mut String, program: &Program, bug: &Bug) {
    let input = &bug.input;
    if program.language.witness_style() == WitnessStyle::Reads {
        let reads = named_reads(program, bug);
        if reads.is_empty() && input.vars.is_empty() && input.arrays.is_empty() {
            let _ = writeln!(out, "  input: {}", no_input(input));
        } else if !reads.is_empty() {
            let _ = writeln!(out, "  input: {}", reads.join(", "));
        }
        if let Some(line) = command_line(program, bug) {
            let _ = writeln!(out, "  command line: {line}");
        }
        if !input.vars.is_empty() {
            let _ = writeln!(out, "  globals: {}", vars_text(input));
        }
        if let Some(heap) = heap_render::heap_text(&program.ir, input) {
            let _ = writeln!(out, "  heap: {heap}");
        }
        for (name, a) in &input.arrays {
            if !heap_render::is_field_array(&program.ir, name) {
                let _ = writeln!(out, "  array {name}: {}", array_text(a));
            }
        }
        if let Some(s) = heap_render::schedule_text(input) {
            let _ = writeln!(out, "  schedule (--schedule): {s}");
        }
        return;
    }
    let ir = &program.ir;
    let scalars = scalar_vars_text(ir, input);
    let heap = heap_render::heap_text(ir, input);
    let plain_arrays: Vec<_> = input
        .arrays
        .iter()
        .filter(|(n, _)| !heap_render::is_field_array(ir, n))
        .collect();
    if scalars.is_empty() && input.reads.is_empty() && plain_arrays.is_empty() && heap.is_none() {
        let _ = writeln!(out, "  input: {}", no_input(input));
    }
    if !scalars.is_empty() {
        let _ = writeln!(out, "  input: {scalars}");
    }
    if let Some(heap) = heap {
        let _ = writeln!(out, "  heap: {heap}");
    }
    if !input.reads.is_empty() {
        let reads: Vec<String> = input.reads.iter().map(|v| v.to_string()).collect();
        let _ = writeln!(out, "  reads (x = *): {}", reads.join(", "));
    }
    for (name, a) in plain_arrays {
        let _ = writeln!(out, "  array {name}: {}", array_text(a));
    }
    if let Some(s) = heap_render::schedule_text(input) {
        let _ = writeln!(out, "  schedule (--schedule): {s}");
    }
}

/// What an input with no values says: any run reaches the bug, or any run
/// that follows the schedule.
fn no_input(input: &Input) -> &'static str {
    if input.schedule.is_empty() {
        "(none: every run reaches it)"
    } else {
        "(none: every run that follows the schedule reaches it)"
    }
}

/// An input's variables that are not references: `x = 3, y = 2`.
pub(crate) fn scalar_vars_text(ir: &wiser_ir::Ir, input: &Input) -> String {
    let vars: Vec<String> = input
        .vars
        .iter()
        .filter(|(n, _)| !heap_render::is_ref_var(ir, n))
        .map(|(n, v)| format!("{n} = {}", input_value_text(ir, n, v)))
        .collect();
    vars.join(", ")
}

/// The value `v` of the input variable `name`: a float input (held as its
/// bit pattern) as the shortest decimal that reads back exactly, as
/// `--input NAME=VALUE` reads it; an integer as it is.
pub(crate) fn input_value_text(ir: &wiser_ir::Ir, name: &str, v: &wiser_num::Int) -> String {
    ir.input_type(name)
        .map_or_else(|| v.to_string(), |t| t.show(v))
}

pub(crate) fn bug_text(out: &mut String, program: &Program, bug: &Bug) {
    let lc = program.line_col(bug.span);
    let _ = writeln!(
        out,
        "bug: {} at {}",
        program.describe(bug.kind),
        program.location(bug.span)
    );
    let _ = writeln!(out, "  {:>4} | {}", lc.line, program.line_text(bug.span));
    input_text(out, program, bug);
    if let Some(s) = stack_text(program, &bug.stack) {
        let _ = writeln!(out, "  call stack: {s}");
    }
    if bug.other_stacks > 0 {
        let n = bug.other_stacks;
        let s = if n == 1 { "" } else { "s" };
        let _ = writeln!(out, "  also reached with {n} other call stack{s}");
    }
    let _ = writeln!(out, "  path condition: {}", path_text(program, bug));
}

/// The bug's path condition, as [`condition_text`] prints it.
fn path_text(program: &Program, bug: &Bug) -> String {
    condition_text(program, &bug.read_pcs, &bug.path_condition)
}

/// A condition of a run whose k-th read was made at `read_pcs[k-1]`,
/// simplified ([`wiser_engine::readable`]), with reads named by their
/// sites as the witness names them (`__VERIFIER_nondet_int()#1`: the first
/// read; read statements keep their `read#1`) and a read of a signed type
/// bounded in signed values.
pub(crate) fn condition_text(
    program: &Program,
    read_pcs: &[wiser_ir::Pc],
    terms: &[wiser_smt::Term],
) -> String {
    // `read#k`: the pc of the k-th read.
    let read_pc = |v: &str| -> Option<wiser_ir::Pc> {
        let k: usize = v.strip_prefix("read#")?.parse().ok()?;
        read_pcs.get(k.checked_sub(1)?).copied()
    };
    let rename = |v: &str| -> Option<String> {
        let pc = read_pc(v)?;
        match program.read_site(pc) {
            ReadSite::Call { function, .. } => Some(format!("{function}(){}", &v[4..])),
            ReadSite::Uninitialised(name) | ReadSite::Argument(name) => Some(name),
            ReadSite::Statement => None,
        }
    };
    let signed = |v: &str| {
        read_pc(v).is_some_and(|pc| {
            matches!(
                program.ir.at(pc).instr,
                wiser_ir::Instr::Havoc { ty: wiser_ir::ScalarTy::Int(t), .. } if t.is_signed()
            )
        })
    };
    let names = Names {
        rename: &rename,
        signed: &signed,
    };
    wiser_engine::readable::path_text(terms, &names)
}

/// A path condition as reports print it, simplified, without names for
/// reads (test files, whose paths carry no read sites).
pub(crate) fn path_condition_text(path_condition: &[wiser_smt::Term]) -> String {
    wiser_engine::readable::path_text(path_condition, &Names::PLAIN)
}

pub(crate) fn incomplete_hint(i: Incomplete, config: &Config, all: &[Incomplete]) -> String {
    match i {
        Incomplete::SolverUnknown => solver_unknown_hint(config, all),
        Incomplete::MaxStates => format!(
            "state limit reached ({} states; raise --max-states)",
            config.max_states
        ),
        Incomplete::Timeout => "time limit reached (raise --timeout)".into(),
        Incomplete::StoppedAtFirstBug => "stopped at the first bug (use --all to go on)".into(),
        Incomplete::MaxMemory => "memory limit reached (raise --max-memory)".into(),
        Incomplete::Interrupted => {
            "interrupted (Ctrl-C or SIGTERM); bugs found so far are listed".into()
        }
        Incomplete::InternalError => "an internal error occurred (see stderr)".into(),
        Incomplete::OutsideProperty => {
            "an error outside the property is reachable; paths through it were not followed".into()
        }
        Incomplete::UnwindBound => "no bug up to the bound, but paths go beyond it (raise --unwind or --unwind-max; --unwinding-assertions says whether the bound suffices)".into(),
        Incomplete::HeapBound => "paths read more references from the input heap than --max-objects allows; larger input heaps were not explored (raise --max-objects)".into(),
        Incomplete::ThreadBound => "paths start more threads than --max-threads allows (raise --max-threads, up to 64)".into(),
        Incomplete::SwitchBound => "paths take more context switches than --max-switches allows (raise or drop --max-switches)".into(),
        Incomplete::MaxRuns => "run limit reached (raise --max-runs)".into(),
        Incomplete::WorkListEmpty => "every generated path was run (the work list is empty); fuzzing is not exhaustive, so this does not mean safe".into(),
        Incomplete::Unchecked => "errors of the property's kinds can happen in ways wiser does not check in this program (see `unchecked`)".into(),
        Incomplete::UncheckedPlace => "a path reached a place where wiser does not decide the property (see `unchecked`, which gives the places)".into(),
        Incomplete::NoInvariant => "no inductive invariant was found (`wiser check` or `wiser bmc` look for bugs)".into(),
        Incomplete::NotEncoded => "the prover does not encode this program yet (`wiser check` explores it)".into(),
    }
}

/// Why the solver left queries undecided. A query cut short when the whole
/// run was (its time limit, Ctrl-C, the memory limit) is also undecided:
/// the hint names the limit that can have cut it, not `--solver-timeout`
/// when that is longer than the run's own time.
fn solver_unknown_hint(config: &Config, all: &[Incomplete]) -> String {
    let what = "the solver could not decide some queries";
    if all.contains(&Incomplete::Interrupted) {
        return format!("{what} (the run was interrupted while they ran)");
    }
    if all.contains(&Incomplete::MaxMemory) {
        return format!("{what} (the memory limit cut the run while they ran; raise --max-memory)");
    }
    if all.contains(&Incomplete::Timeout) {
        let per_query_shorter = match (config.timeout, config.solver_timeout) {
            (Some(run), Some(query)) => query < run,
            (None, _) => true,
            (Some(_), None) => false,
        };
        return if per_query_shorter {
            format!("{what} (raise --solver-timeout, or --timeout: the time limit cut the run while some ran)")
        } else {
            format!("{what} (the time limit cut the run while they ran; raise --timeout)")
        };
    }
    format!("{what} (raise --solver-timeout)")
}

/// The text report of a check (with each bug's trace when `trace`).
pub fn check_text(
    program: &Program,
    report: &Report,
    config: &Config,
    asked: Asked,
    trace: bool,
) -> String {
    let mut out = String::new();
    for bug in &report.bugs {
        bug_text(&mut out, program, bug);
        if trace {
            out.push_str(&crate::trace_render::bug_trace_text(
                program,
                bug,
                config.options,
            ));
        }
    }
    for &(kind, span) in &report.outside_property {
        let lc = program.line_col(span);
        let _ = writeln!(
            out,
            "outside the property ({}): {} at {}",
            asked.property.name(),
            program.describe(kind),
            program.location(span)
        );
        let _ = writeln!(out, "  {:>4} | {}", lc.line, program.line_text(span));
    }
    let s = &report.stats;
    let plural = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let merges = if s.merges > 0 {
        format!(", {}", plural(s.merges, "merge", "merges"))
    } else {
        String::new()
    };
    let numbers = format!(
        "{}{merges}, {}, {} ms",
        plural(s.states, "state", "states"),
        plural(s.solver.solver_queries(), "solver query", "solver queries"),
        s.elapsed.as_millis()
    );
    let proof = crate::render_prove::proof(report);
    if let Some(p) = proof {
        crate::render_prove::prove_text(&mut out, program, p);
    }
    match report.verdict {
        Verdict::Bug => {
            let n = report.bugs.len();
            let _ = writeln!(
                out,
                "verdict: bug ({n} bug{} found; {numbers})",
                if n == 1 { "" } else { "s" }
            );
        }
        Verdict::Safe => {
            let how = match proof {
                Some(p) => crate::render_prove::safe_words(p),
                None if report.stats.revisited > 0 => format!(
                    "every reachable state explored, {} repeat{} skipped",
                    report.stats.revisited,
                    if report.stats.revisited == 1 { "" } else { "s" }
                ),
                None => "every path explored".into(),
            };
            let _ = writeln!(out, "verdict: safe ({how}; {numbers})");
        }
        Verdict::Unknown if proof.is_some() => {
            let _ = writeln!(out, "verdict: unknown (no proof; {numbers})");
        }
        Verdict::Unknown => {
            let _ = writeln!(
                out,
                "verdict: unknown (no bug found, but the search was not exhaustive; {numbers})"
            );
        }
    }
    for i in &report.incomplete {
        if report.verdict != Verdict::Bug || *i != Incomplete::StoppedAtFirstBug {
            let _ = writeln!(
                out,
                "  not covered: {}",
                incomplete_hint(*i, config, &report.incomplete)
            );
        }
    }
    for (kind, why) in unchecked(program, asked.property) {
        let _ = writeln!(out, "  unchecked {}: {why}", kind.name());
    }
    for (kind, span, why) in undecided(program, report) {
        let at = program.location(span);
        let _ = writeln!(out, "  unchecked {} at {at}: {why}", kind.name());
    }
    if let Some(expected) = asked.expected {
        let _ = writeln!(
            out,
            "  task: expected verdict {expected} ({})",
            expected_text(asked.property, expected, asked.subproperty)
        );
    }
    out
}

/// The errors of the property's kinds that the program's IR does not
/// check, with why ([`wiser_ir::Ir::unchecked`]).
fn unchecked(
    program: &Program,
    property: PropertySpec,
) -> impl Iterator<Item = &(wiser_ir::ErrorKind, std::sync::Arc<str>)> {
    let kinds = property.kinds();
    program
        .ir
        .unchecked
        .iter()
        .filter(move |(k, _)| kinds.contains(k))
}

/// The places where the program's model stops deciding the property
/// that a path reached ([`Report::unchecked_places`]), with why
/// ([`wiser_ir::Ir::undecided`]).
fn undecided<'p>(
    program: &'p Program,
    report: &'p Report,
) -> impl Iterator<Item = (wiser_ir::ErrorKind, wiser_ir::Span, &'p str)> {
    report.unchecked_places.iter().map(|&(kind, span)| {
        let why = program.ir.undecided_at(kind, span).map_or("", |w| &**w);
        (kind, span, why)
    })
}

/// What a task's expected verdict of a property means.
fn expected_text(property: PropertySpec, holds: bool, subproperty: Option<&str>) -> String {
    match (property, holds) {
        (PropertySpec::NoOverflow, true) => "no signed overflow".into(),
        (PropertySpec::NoOverflow, false) => "a signed overflow is reachable".into(),
        (PropertySpec::ValidMemsafety, true) => "memory safe".into(),
        (PropertySpec::ValidMemsafety, false) => match subproperty {
            Some(part) => format!("violates {part}"),
            None => "not memory safe".into(),
        },
        (_, true) => "the error is unreachable".into(),
        (_, false) => "the error is reachable".into(),
    }
}

pub(crate) fn input_json(input: &Input) -> (Value, Value, Value) {
    let vars: serde_json::Map<String, Value> = input
        .vars
        .iter()
        .map(|(n, v)| (n.to_string(), json!(v)))
        .collect();
    let arrays: serde_json::Map<String, Value> = input
        .arrays
        .iter()
        .map(|(n, a)| {
            let entries: Vec<Value> = a.entries.iter().map(|(i, v)| json!([i, v])).collect();
            (
                n.to_string(),
                json!({"default": a.default, "entries": entries}),
            )
        })
        .collect();
    (
        Value::Object(vars),
        json!(input.reads),
        Value::Object(arrays),
    )
}

/// A C witness's reads as JSON: each with the function called (or the
/// uninitialised local), its value and the place of the read.
fn nondet_json(program: &Program, bug: &Bug) -> Value {
    let reads: Vec<Value> = bug
        .input
        .reads
        .iter()
        .zip(&bug.read_pcs)
        .map(|(v, &pc)| {
            let lc = program.line_col(program.ir.at(pc).span);
            let (function, variable) = match program.read_site(pc) {
                ReadSite::Call { function, .. } => (Some(function), None),
                ReadSite::Uninitialised(name) | ReadSite::Argument(name) => (None, Some(name)),
                ReadSite::Statement => (None, None),
            };
            json!({"function": function, "variable": variable, "value": v, "line": lc.line, "column": lc.column})
        })
        .collect();
    Value::Array(reads)
}

/// A bug as JSON (one element of a report's `bugs`).
pub(crate) fn bug_json(program: &Program, b: &Bug) -> Value {
    let lc = program.line_col(b.span);
    let (input, reads, arrays) = input_json(&b.input);
    let frames = user_stack(program, &b.stack);
    let stack: Vec<Value> = frames
        .iter()
        .enumerate()
        .map(|(i, c)| {
            // The outermost frame was not called by the program.
            let called = !c.call_site.is_dummy() && i + 1 < frames.len();
            let at = called.then(|| program.line_col(c.call_site));
            json!({"routine": &*c.routine, "line": at.map(|a| a.line), "column": at.map(|a| a.column)})
        })
        .collect();
    let mut bug = json!({
        "kind": b.kind.name(),
        "line": lc.line,
        "column": lc.column,
        "input": input,
        "reads": reads,
        "arrays": arrays,
        "call_stack": stack,
        "path_condition": path_text(program, b),
        "other_call_stacks": b.other_stacks,
        "file": program.sources.get(b.span.file).name(),
        "message": bug_message(program, b),
    });
    if let Some(part) = crate::task::subproperty(b.kind) {
        bug["subproperty"] = json!(part);
    }
    if program.language.witness_style() == WitnessStyle::Reads {
        bug["nondet"] = nondet_json(program, b);
    }
    if !program.ir.classes.is_empty() {
        bug["heap"] = heap_render::heap_json(&program.ir, &b.input);
    }
    if program.ir.threaded {
        let schedule: Vec<Value> = b
            .input
            .schedule
            .iter()
            .map(|s| json!({"point": s.point, "thread": s.thread}))
            .collect();
        bug["schedule"] = Value::Array(schedule);
    }
    bug
}

/// The JSON report of a check.
pub fn check_json(program: &Program, report: &Report, asked: Asked) -> Value {
    let bugs: Vec<Value> = report.bugs.iter().map(|b| bug_json(program, b)).collect();
    let outside: Vec<Value> = report
        .outside_property
        .iter()
        .map(|&(kind, span)| {
            let lc = program.line_col(span);
            json!({"kind": kind.name(), "line": lc.line, "column": lc.column})
        })
        .collect();
    let s = &report.stats;
    let br = &s.branches;
    let mut out = json!({
        "verdict": verdict_name(report.verdict),
        "language": program.language.name(),
        "property": asked.property.name(),
        "expected_verdict": asked.expected,
        "expected_subproperty": asked.subproperty,
        "bugs": bugs,
        "outside_property": outside,
        "unchecked": unchecked(program, asked.property)
            .map(|(k, why)| json!({"kind": k.name(), "reason": &**why}))
            .chain(undecided(program, report).map(|(k, span, why)| {
                let lc = program.line_col(span);
                json!({"kind": k.name(), "reason": why, "line": lc.line, "column": lc.column})
            }))
            .collect::<Vec<_>>(),
        "incomplete": report.incomplete.iter().map(|i| i.name()).collect::<Vec<_>>(),
        "internal_errors": report.internal_errors,
        "stats": {
            "states": s.states,
            "solver_queries": s.solver.solver_queries(),
            "elapsed_ms": s.elapsed.as_millis() as u64,
            "solver_ms": s.solver.z3_time.as_millis() as u64,
            "max_frontier": s.max_frontier,
            "merges": s.merges,
            "revisited": s.revisited,
            "peak_memory_bytes": s.peak_memory,
            "bytes_per_state": s.bytes_per_state,
            "memory_pressure": s.memory_pressure,
            "branches_folded": br.folded,
            "feasibility_checks": br.checks,
            "decided_by_bounds": br.by_bounds,
            "decided_by_model": br.by_model,
            "decided_by_enumeration": br.by_enumeration,
            "decided_by_solver": br.by_solver,
            "solver_unknown": br.unknown,
            "pruned": br.pruned,
            "chain_queries": s.solver.queries,
            "query_cache_hits": s.solver.query_cache_hits,
            "cex_cache_hits": s.solver.cex_cache_hits,
            "z3_sat": s.solver.z3_sat,
            "z3_unsat": s.solver.z3_unsat,
            "z3_unknown": s.solver.z3_unknown,
            "one_shot_retries": s.solver.one_shot_retries,
            "z3_checks": s.solver.z3_checks,
            "z3_pushes": s.solver.z3_pushes,
            "z3_asserts": s.solver.z3_asserts,
            "z3_pops": s.solver.z3_pops,
        },
    });
    // Apart: one `json!` of all the fields passes the macro's recursion
    // limit.
    let external = [
        ("cvc5_queries", s.solver.cvc5_queries),
        ("cvc5_sat", s.solver.cvc5_sat),
        ("cvc5_unsat", s.solver.cvc5_unsat),
        ("cvc5_fallbacks", s.solver.cvc5_fallbacks),
        ("bitwuzla_queries", s.solver.bitwuzla_queries),
        ("bitwuzla_sat", s.solver.bitwuzla_sat),
        ("bitwuzla_unsat", s.solver.bitwuzla_unsat),
        ("bitwuzla_fallbacks", s.solver.bitwuzla_fallbacks),
        ("external_settled", s.solver.external_settled),
    ];
    if let Some(stats) = out["stats"].as_object_mut() {
        for (k, v) in external {
            stats.insert(k.to_string(), v.into());
        }
    }
    out
}

/// The JSON report of a task whose program is outside the C subset: the
/// verdict `unknown`, the reason `unsupported`, and the front end's message
/// on one line (`what (file:line:col)`).
pub fn unsupported_json(message: &str) -> Value {
    serde_json::json!({
        "verdict": "unknown",
        "incomplete": ["unsupported"],
        "unsupported": message,
        "bugs": [],
        "outside_property": [],
        "internal_errors": [],
        "stats": {"states": 0, "solver_ms": 0, "elapsed_ms": 0},
    })
}

/// An input's variables: `x = 3, y = 2`.
pub(crate) fn vars_text(input: &Input) -> String {
    let vars: Vec<String> = input
        .vars
        .iter()
        .map(|(n, v)| format!("{n} = {v}"))
        .collect();
    vars.join(", ")
}

/// A bug on one line: `assertion failed at examples/x.imp:21:1 with input
/// x = 1`.
pub fn bug_message(program: &Program, bug: &Bug) -> String {
    format!(
        "{} at {} with {}",
        program.describe(bug.kind),
        program.location(bug.span),
        witness_line(program, bug)
    )
}

/// The witness input on one line: `input x = 1`, `reads 3, 4`,
/// `__VERIFIER_nondet_int() = 5`, or `any input`.
pub fn witness_line(program: &Program, bug: &Bug) -> String {
    let input = &bug.input;
    let mut parts = Vec::new();
    if program.language.witness_style() == wiser_frontend::WitnessStyle::Reads {
        let reads = named_reads(program, bug);
        if !reads.is_empty() {
            parts.push(reads.join(", "));
        }
        if !input.vars.is_empty() {
            parts.push(format!("globals {}", vars_text(input)));
        }
    } else {
        let scalars = scalar_vars_text(&program.ir, input);
        if !scalars.is_empty() {
            parts.push(format!("input {scalars}"));
        }
        if let Some(heap) = crate::heap_render::heap_text(&program.ir, input) {
            parts.push(format!("heap {heap}"));
        }
        if !input.reads.is_empty() {
            let reads: Vec<String> = input.reads.iter().map(|v| v.to_string()).collect();
            parts.push(format!("reads {}", reads.join(", ")));
        }
    }
    for (name, a) in &input.arrays {
        if !crate::heap_render::is_field_array(&program.ir, name) {
            parts.push(format!("array {name}: {}", array_text(a)));
        }
    }
    if let Some(s) = crate::heap_render::schedule_text(input) {
        parts.push(format!("schedule {s}"));
    }
    if parts.is_empty() {
        "any input".into()
    } else {
        parts.join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn the_hint_after_a_timeout_cut_names_the_time_limit() {
        let config = Config::default()
            .with_timeout(Some(Duration::from_secs(1)))
            .with_solver_timeout(Some(Duration::from_secs(10)));
        let both = [Incomplete::Timeout, Incomplete::SolverUnknown];
        let hint = incomplete_hint(Incomplete::SolverUnknown, &config, &both);
        assert!(hint.contains("raise --timeout"), "{hint}");
        assert!(!hint.contains("--solver-timeout"), "{hint}");
        // Without a cut, the per-query limit is the one to raise.
        let hint = incomplete_hint(Incomplete::SolverUnknown, &config, &both[1..]);
        assert!(hint.contains("raise --solver-timeout"), "{hint}");
    }
}
