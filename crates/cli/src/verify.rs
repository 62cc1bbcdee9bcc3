//! What `check` and `bmc` share around their engines: loading the target
//! and deciding its property, then printing the report, writing a C
//! harness and choosing the exit code.

use crate::args::Target;
use crate::exit;
use crate::formats::Rendered;
use crate::load::{self, Program};
use crate::render::{self, Asked};
use crate::task::{self, PropertySpec};
use serde_json::Value;
use std::path::Path;
use wiser_engine::{Bug, Config, Property, Report, Verdict};
use wiser_frontend::HarnessRead;

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
        Err(failure) if load::is_task(t.file) && failure.is_unsupported() => {
            let message = failure.render();
            crate::out::err(&message);
            let answer = Unsupported {
                file: t.file,
                message,
            };
            crate::formats::print(t.format, t.file, &answer);
            return Ok(Prepared::Answered(exit::UNKNOWN));
        }
        Err(failure) => return Err(failure.render()),
    };
    if t.harness.is_some() && !program.details.has_harness() {
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
    warnings: &[String],
    bmc: Option<BmcInfo>,
) -> Result<(u8, bool), String> {
    let output = CheckOutput {
        t,
        program,
        report,
        config,
        asked,
        warnings,
        bmc: bmc.as_ref(),
    };
    crate::formats::print(t.format, t.file, &output);
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

/// The report of `check` or `bmc`, in every format.
struct CheckOutput<'a> {
    t: &'a Target<'a>,
    program: &'a Program,
    report: &'a Report,
    config: &'a Config,
    asked: Asked,
    /// Warnings about the set-up (`--assume`), for JSON's `warnings`.
    warnings: &'a [String],
    bmc: Option<&'a BmcInfo>,
}

impl Rendered for CheckOutput<'_> {
    fn text(&self) -> String {
        let (program, report) = (self.program, self.report);
        let mut text = String::new();
        if let Some(b) = self.bmc {
            text.push_str(&format!(
                "bounded model checking: bound {} ({})\n",
                b.bound,
                if b.unwinding_assertions {
                    "with unwinding assertions"
                } else {
                    "no unwinding assertions"
                }
            ));
        }
        text.push_str(&render::check_text(
            program,
            report,
            self.config,
            self.asked,
            self.t.trace,
        ));
        if let Some(c) = &report.coverage {
            let summary = crate::coverage::Summary::new(program, c);
            text.push_str(&crate::coverage::text(program, &summary));
        }
        text
    }

    fn json(&self) -> Value {
        let (program, report) = (self.program, self.report);
        let mut json = render::check_json(program, report, self.asked);
        if let Some(obj) = json.as_object_mut() {
            obj.insert("warnings".into(), self.warnings.into());
        }
        if let (Some(b), Some(obj)) = (self.bmc, json.as_object_mut()) {
            obj.insert("engine".into(), "bmc".into());
            obj.insert("bound".into(), b.bound.into());
            obj.insert("unwinding_assertions".into(), b.unwinding_assertions.into());
        }
        if let (Some(c), Some(obj)) = (&report.coverage, json.as_object_mut()) {
            let summary = crate::coverage::Summary::new(program, c);
            obj.insert("coverage".into(), crate::coverage::json(program, &summary));
        }
        if self.t.trace {
            crate::trace_render::add_json_traces(
                &mut json,
                program,
                &report.bugs,
                self.config.options,
            );
        }
        json
    }

    fn sarif(&self) -> Option<Value> {
        let engine = if self.bmc.is_some() { "bmc" } else { "check" };
        Some(crate::sarif::check_sarif(
            self.t.file,
            self.program,
            self.report,
            self.config,
            self.asked,
            engine,
        ))
    }
}

/// The answer `unknown` to an SV-COMP task whose program is outside the
/// front end's subset (`message`: the front end's error).
struct Unsupported<'a> {
    file: &'a Path,
    message: String,
}

impl Rendered for Unsupported<'_> {
    fn text(&self) -> String {
        "verdict: unknown (the task's program is outside the C subset)\n".into()
    }

    fn json(&self) -> Value {
        render::unsupported_json(&self.message)
    }

    fn sarif(&self) -> Option<Value> {
        Some(crate::sarif::unsupported_sarif(self.file, &self.message))
    }
}

/// Writes the harness of the report's bug (a reached error location or a
/// failed assertion first: those are what a compiled harness detects).
pub fn write_harness(
    program: &Program,
    report: &Report,
    out: &std::path::Path,
) -> Result<(), String> {
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
    let sites: Vec<_> = bug
        .read_pcs
        .iter()
        .map(|&pc| program.read_site(pc))
        .collect();
    let reads: Vec<HarnessRead<'_>> = bug.input.reads.iter().zip(&sites).collect();
    let file = program.file.display().to_string();
    let Some(harness) = program.details.harness(&file, &reads) else {
        return Ok(());
    };
    std::fs::write(out, &harness.text).map_err(|e| {
        format!(
            "error: cannot write the harness to `{}`: {e}\n  = help: check that its folder exists and is writable\n",
            out.display()
        )
    })?;
    let note = if detectable(&bug) {
        format!("it exits with code {} at the error", harness.exit_at_error)
    } else {
        format!(
            "the bug is a {}, which a compiled program does not detect",
            bug.kind.describe()
        )
    };
    let command = harness
        .command
        .replace("{program}", &file)
        .replace("{harness}", &out.display().to_string());
    crate::out::errln!(
        "note: harness written to `{}`: `{command}` replays the witness; {note}",
        out.display(),
    );
    Ok(())
}
