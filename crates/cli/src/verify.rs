//! What `check` and `bmc` share around their engines: loading the target
//! and deciding its property, then printing the report, writing a C
//! harness and choosing the exit code.

use crate::args::{Format, LangArgs};
use crate::exit;
use crate::load::{self, Program, ReadSite};
use crate::render::{self, Asked};
use crate::task::{self, PropertySpec};
use std::path::{Path, PathBuf};
use wiser_engine::{Bug, Config, Property, Report, Verdict};

/// What a verification command was asked to look at.
pub struct Target<'a> {
    pub file: &'a PathBuf,
    pub lang: &'a LangArgs,
    pub assume: Option<&'a str>,
    pub property: Option<&'a str>,
    pub harness: Option<&'a Path>,
    pub format: Format,
    /// Show each bug's trace (`--trace`).
    pub trace: bool,
}

/// A loaded target, or an answer given without running an engine.
pub enum Prepared {
    /// The program, what the user asked, and the engine's property.
    Ready(Box<(Program, Asked, Property)>),
    /// Already answered (an SV-COMP task outside the C subset): the exit
    /// code.
    Answered(u8),
}

/// Loads the target and decides its property.
pub fn prepare(t: &Target<'_>) -> Result<Prepared, String> {
    let program = match load::load_any(t.file, &t.lang.options(t.assume)) {
        Ok(p) => p,
        // SV-COMP mode: a task outside the subset is answered `unknown`
        // (with the reason), not refused.
        Err(message) if load::is_task(t.file) && message.contains(wiser_c::UNSUPPORTED) => {
            crate::out::err(&message);
            match t.format {
                Format::Text => {
                    crate::emit("verdict: unknown (the task's program is outside the C subset)\n")
                }
                Format::Json => crate::emit(&format!(
                    "{}\n",
                    crate::machine::stamp(render::unsupported_json(&message), t.file)
                )),
                Format::Sarif => crate::emit(&format!(
                    "{}\n",
                    crate::sarif::unsupported_sarif(t.file, &message)
                )),
            }
            return Ok(Prepared::Answered(exit::UNKNOWN));
        }
        Err(message) => return Err(message),
    };
    if t.harness.is_some() && program.c.is_none() {
        return Err(format!(
            "error: --harness writes a C file for gcc; `{}` is not a C program\n",
            program.file.display()
        ));
    }
    let property = match (t.property, &program.task) {
        (Some(p), _) => task::property_arg(p)?,
        (None, Some(t)) if t.unreach_call => PropertySpec::UnreachCall,
        (None, Some(t)) => return Err(task::no_supported_property(t)),
        (None, None) => PropertySpec::All,
    };
    let expected = program
        .task
        .as_ref()
        .filter(|t| t.unreach_call && property == PropertySpec::UnreachCall)
        .and_then(|t| t.expected_verdict);
    let engine_property = match property {
        PropertySpec::All => Property::all(),
        PropertySpec::UnreachCall => Property::unreach_call(),
    };
    Ok(Prepared::Ready(Box::new((
        program,
        Asked { property, expected },
        engine_property,
    ))))
}

/// What bounded model checking adds to a report.
pub struct BmcInfo {
    /// The last bound tried.
    pub bound: u32,
    /// Were unwinding assertions checked?
    pub unwinding_assertions: bool,
}

/// Prints the report, writes the harness if asked, and gives the exit code
/// (and whether to leave without waiting for stray workers).
pub fn finish(
    t: &Target<'_>,
    program: &Program,
    report: &Report,
    config: &Config,
    asked: Asked,
    bmc: Option<BmcInfo>,
) -> Result<(u8, bool), String> {
    match t.format {
        Format::Text => {
            if let Some(b) = &bmc {
                crate::emit(&format!(
                    "bounded model checking: bound {} ({})\n",
                    b.bound,
                    if b.unwinding_assertions {
                        "with unwinding assertions"
                    } else {
                        "no unwinding assertions"
                    }
                ));
            }
            crate::emit(&render::check_text(program, report, config, asked, t.trace));
            if let Some(c) = &report.coverage {
                let summary = crate::coverage::Summary::new(program, c);
                crate::emit(&crate::coverage::text(program, &summary));
            }
        }
        Format::Json => {
            let mut json = render::check_json(program, report, asked);
            if let Some(obj) = json.as_object_mut() {
                obj.insert("warnings".into(), crate::setup::warnings().into());
            }
            if let (Some(b), Some(obj)) = (&bmc, json.as_object_mut()) {
                obj.insert("engine".into(), "bmc".into());
                obj.insert("bound".into(), b.bound.into());
                obj.insert("unwinding_assertions".into(), b.unwinding_assertions.into());
            }
            if let (Some(c), Some(obj)) = (&report.coverage, json.as_object_mut()) {
                let summary = crate::coverage::Summary::new(program, c);
                obj.insert("coverage".into(), crate::coverage::json(program, &summary));
            }
            if t.trace {
                crate::trace_render::add_json_traces(
                    &mut json,
                    program,
                    &report.bugs,
                    config.options,
                );
            }
            let json = crate::machine::stamp(json, t.file);
            crate::emit(&format!("{json}\n"));
        }
        Format::Sarif => {
            let engine = if bmc.is_some() { "bmc" } else { "check" };
            let doc = crate::sarif::check_sarif(t.file, program, report, config, asked, engine);
            crate::emit(&format!("{doc}\n"));
        }
    }
    crate::machine::reported();
    for e in &report.internal_errors {
        crate::out::errln!("error: {e}");
    }
    if let Some(out) = t.harness {
        write_harness(program, report, out)?;
    }
    let code = match report.verdict {
        Verdict::Bug => exit::BUG,
        Verdict::Safe => exit::OK,
        Verdict::Unknown => exit::UNKNOWN,
    };
    Ok((code, report.stats.abandoned_workers > 0))
}

/// Writes the harness of the report's bug (a reached error location or a
/// failed assertion first: those are what a compiled harness detects).
pub fn write_harness(
    program: &Program,
    report: &Report,
    out: &std::path::Path,
) -> Result<(), String> {
    let Some(compiled) = &program.c else {
        return Ok(());
    };
    let detectable = |b: &&Bug| {
        matches!(
            b.kind,
            wiser_semantics::ErrorKind::Fail | wiser_semantics::ErrorKind::Assertion
        )
    };
    let Some(bug) = report.bugs.iter().find(detectable).or(report.bugs.first()) else {
        crate::out::errln!(
            "note: no bug found, so no harness was written to `{}`",
            out.display()
        );
        return Ok(());
    };
    let reads: Vec<wiser_c::harness::Read<'_>> = bug
        .input
        .reads
        .iter()
        .zip(&bug.read_pcs)
        .map(|(v, &pc)| match program.read_site(pc) {
            ReadSite::Call(f) => (v.clone(), Some(f)),
            _ => (v.clone(), None),
        })
        .collect();
    let file = program.file.display().to_string();
    let text = wiser_c::harness::harness(compiled, &file, &reads, program.data_model);
    std::fs::write(out, text).map_err(|e| {
        format!(
            "error: cannot write the harness to `{}`: {e}\n  = help: check that its folder exists and is writable\n",
            out.display()
        )
    })?;
    let note = if detectable(&bug) {
        format!(
            "it exits with code {} at the error",
            wiser_c::harness::EXIT_ERROR_REACHED
        )
    } else {
        format!(
            "the bug is a {}, which a compiled program does not detect",
            bug.kind.describe()
        )
    };
    crate::out::errln!(
        "note: harness written to `{}`: `gcc {} {file} {} -o replay && ./replay` replays the witness; {note}",
        out.display(),
        program.data_model.gcc_flag(),
        out.display(),
    );
    Ok(())
}
