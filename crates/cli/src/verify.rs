//! `check` and `bmc`, on one file or several: load the target and decide
//! its property, check its `--assume` condition, run the engine with its
//! progress line, print the report, write a harness and an SV-COMP
//! witness, choose the exit code.
//!
//! ## The set-up: what is checked about `--assume` before a run
//!
//! The names of the condition are checked by the IMP front end (each must
//! be an input). What needs the solver is checked here, once, on the
//! program cut right after the assumption, which the front end builds and
//! validates as any program ([`wiser_frontend::LoadedProgram::assumption_cut`]):
//! its `assume` leads to a `fail` of its own. One exhaustive search of that tiny
//! program (the condition's operations and one branch) tells
//!
//! * whether some input satisfies the condition: the `fail` is reached.
//!   If none does, every path of the real run ends at the assumption and
//!   its `safe` says nothing about the program: a warning says so;
//! * whether the condition itself can fail (`10 / x > 100` divides by
//!   zero when `x = 0`): that is an error of the assumption, reported in
//!   its own text before the run, never a bug of the program with a
//!   witness that `wiser run` would not reproduce.

use crate::args::{self, BmcArgs, CheckArgs, Format, ProveArgs, Target, VerifyArgs};
use crate::error::CliError;
use crate::formats::Rendered;
use crate::load::{self, Program};
use crate::out::Stdout;
use crate::progress::{self, Interrupts};
use crate::render::{self, Asked};
use crate::task::{self, PropertySpec};
use crate::{coverage, exit, out, testfile, tree};
use serde_json::Value;
use std::path::Path;
use std::time::Duration;
use wiser_engine::{Bug, Config, PortfolioRun, Property, Report, Verdict};
use wiser_frontend::HarnessRead;
use wiser_ir::{Diagnostic, Instr, Located};
use wiser_semantics::ErrorKind;

/// `wiser check`: a test-suite replay (`--replay`), or a check of each file.
pub fn check(
    args: &CheckArgs,
    verbose: bool,
    signals: &Interrupts,
    stdout: &Stdout,
) -> Result<(u8, bool), CliError> {
    if let Some(dir) = &args.replay {
        let overrides = args.replay_overrides();
        let code = testfile::replay::replay_dir(stdout, dir, &overrides, args.target.format)?;
        return Ok((code, false));
    }
    let one_output = [
        args.tests.as_ref().map(|_| "--tests"),
        args.lcov.as_ref().map(|_| "--lcov"),
        args.tree.as_ref().map(|_| "--tree"),
    ];
    if let Some(flag) = one_output.into_iter().flatten().next() {
        if !args.target.more_files.is_empty() {
            return Err(
                CliError::usage(format!("`{flag}` writes the results of one program"))
                    .help("check the files one at a time, each with its own output"),
            );
        }
    }
    if let Some(dir) = &args.tests {
        testfile::check_dir(dir)?;
    }
    several(stdout, &args.target, |target, program, asked, property| {
        let config = args.config().with_property(property);
        if args.jobs.is_some_and(|j| j as usize > config.jobs) {
            out::errln!(
                "note: using {} workers, the most a run uses (--jobs {} asked for more)",
                config.jobs,
                args.jobs.unwrap_or_default()
            );
        }
        if verbose {
            out::errln!("note: configuration: {config:?}");
        }
        let warnings = check_assumption(&program, &config, signals)?;
        if let Some(path) = &args.tree {
            tree::check_path(path)?;
        }
        let mut report = match &args.broker {
            None => progress::check(program.ir.clone(), &config, args.quiet, signals),
            Some(url) => {
                crate::dist::coordinate(url, target, &program, &config, args.quiet, signals)?
            }
        };
        if verbose {
            out::errln!("note: statistics: {:?}", report.stats);
        }
        suggest_header_args(&program, &report, target.assume.is_some());
        // The report shows the coverage only when asked (not for --lcov).
        let covered = if args.coverage {
            report.coverage.clone()
        } else {
            report.coverage.take()
        };
        let output = CheckOutput {
            t: target,
            program: &program,
            report: &report,
            config: &config,
            asked,
            warnings: &warnings,
            bmc: None,
            portfolio: None,
        };
        let done = finish(stdout, &output)?;
        if let (Some(path), Some(c)) = (&args.lcov, &covered) {
            coverage::write_lcov(&program, &coverage::Summary::new(&program, c), path)?;
        }
        if let Some(path) = &args.tree {
            tree::write(&program, &report, config.options, path)?;
        }
        if let Some(dir) = &args.tests {
            testfile::write_for_check(dir, args, &program, &report, asked.property)?;
        }
        Ok(done)
    })
}

/// `wiser bmc` on each file.
pub fn bmc(
    args: &BmcArgs,
    verbose: bool,
    signals: &Interrupts,
    stdout: &Stdout,
) -> Result<(u8, bool), CliError> {
    several(stdout, &args.target, |target, program, asked, property| {
        let config = args.config().with_property(property);
        let bounds = args.bounds(&program)?;
        if verbose {
            out::errln!("note: configuration: {config:?}, bounds: {bounds:?}");
        }
        let info = BmcInfo {
            unwinding_assertions: bounds.unwinding_assertions,
        };
        let run = |config: &Config| {
            progress::bmc(program.ir.clone(), config, &bounds, args.run.quiet, signals)
        };
        let ran = Ran {
            target,
            program: &program,
            asked,
            config: &config,
            bmc: Some(&info),
        };
        run_and_finish(stdout, ran, verbose, signals, run)
    })
}

/// `wiser prove` on each file.
pub fn prove(
    args: &ProveArgs,
    verbose: bool,
    signals: &Interrupts,
    stdout: &Stdout,
) -> Result<(u8, bool), CliError> {
    several(stdout, &args.target, |target, program, asked, property| {
        let config = args.config().with_property(property);
        if verbose {
            out::errln!("note: configuration: {config:?}");
        }
        let options = args.options();
        let run = |config: &Config| {
            progress::prove(
                program.ir.clone(),
                config,
                &options,
                args.run.quiet,
                signals,
            )
        };
        let ran = Ran {
            target,
            program: &program,
            asked,
            config: &config,
            bmc: None,
        };
        run_and_finish(stdout, ran, verbose, signals, run)
    })
}

/// `wiser verify` on each file: the engines side by side, the first
/// definitive answer.
pub fn verify(
    args: &VerifyArgs,
    verbose: bool,
    signals: &Interrupts,
    stdout: &Stdout,
) -> Result<(u8, bool), CliError> {
    let members = args.members();
    several(stdout, &args.target, |target, program, asked, property| {
        let config = args.config().with_property(property);
        if verbose {
            out::errln!("note: configuration: {config:?}, engines: {members:?}");
        }
        let warnings = check_assumption(&program, &config, signals)?;
        let ir = program.ir.clone();
        let run = progress::portfolio(ir, &config, &members, args.run.quiet, signals);
        if verbose {
            out::errln!("note: statistics: {:?}", run.report.stats);
        }
        // The portfolio's BMC always checks unwinding assertions.
        let info = BmcInfo {
            unwinding_assertions: true,
        };
        let output = CheckOutput {
            t: target,
            program: &program,
            report: &run.report,
            config: &config,
            asked,
            warnings: &warnings,
            bmc: Some(&info),
            portfolio: Some(&run),
        };
        finish(stdout, &output)
    })
}

/// What an engine command runs on one file.
struct Ran<'a> {
    target: &'a Target<'a>,
    program: &'a Program,
    asked: Asked,
    config: &'a Config,
    bmc: Option<&'a BmcInfo>,
}

/// Checks `--assume`, runs the engine (`bmc`, `prove`), prints its
/// statistics when verbose, then the report.
fn run_and_finish(
    stdout: &Stdout,
    ran: Ran<'_>,
    verbose: bool,
    signals: &Interrupts,
    run: impl FnOnce(&Config) -> Report,
) -> Result<(u8, bool), CliError> {
    let warnings = check_assumption(ran.program, ran.config, signals)?;
    let found = run(ran.config);
    if verbose {
        out::errln!("note: statistics: {:?}", found.stats);
    }
    let output = CheckOutput {
        t: ran.target,
        program: ran.program,
        report: &found,
        config: ran.config,
        asked: ran.asked,
        warnings: &warnings,
        bmc: ran.bmc,
        portfolio: None,
    };
    finish(stdout, &output)
}

/// Loads and prepares each file of `target` in turn and checks it with
/// `check` (a task outside the front end's subset is answered without
/// it). With one file, this is `check` itself. With several, each text report follows a `==> FILE <==` line
/// (as `tail` heads its files), a JSON report is one line each (JSON
/// Lines), an error in one file is printed and the others still checked,
/// and the exit code is the worst: an error (2), then a bug (1), then
/// unknown (3), then safe (0).
fn several(
    stdout: &Stdout,
    target: &args::TargetArgs,
    mut check: impl FnMut(&Target<'_>, Program, Asked, Property) -> Result<(u8, bool), CliError>,
) -> Result<(u8, bool), CliError> {
    let mut check = |file: &std::path::PathBuf| {
        let one = Target {
            file,
            ..target.target()?
        };
        match prepare(stdout, &one)? {
            Prepared::Ready(p) => {
                let (program, asked, property) = *p;
                check(&one, program, asked, property)
            }
            Prepared::Answered(code) => Ok((code, false)),
        }
    };
    if target.more_files.is_empty() {
        return check(target.target()?.file);
    }
    if target.witness.is_some() {
        return Err(
            CliError::usage("`--witness` writes the witness of one program")
                .help("check the files one at a time, each with its own witness file"),
        );
    }
    let badness = |code: u8| match code {
        exit::USAGE => 3,
        exit::BUG => 2,
        exit::UNKNOWN => 1,
        _ => 0,
    };
    let (mut worst, mut leave) = (exit::OK, false);
    for (i, file) in target.files().enumerate() {
        if target.format == Format::Text {
            let gap = if i == 0 { "" } else { "\n" };
            stdout.write(&format!("{gap}==> {} <==\n", file.display()));
        }
        let code = match check(file) {
            Ok((code, stuck)) => {
                leave |= stuck;
                code
            }
            Err(e) => {
                out::err(&e.text());
                // JSON Lines: the file's line is its error document.
                crate::formats::print_error(stdout, target.format, file, &e);
                exit::USAGE
            }
        };
        if badness(code) > badness(worst) {
            worst = code;
        }
        if leave {
            break;
        }
    }
    Ok((worst, leave))
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
pub fn prepare(stdout: &Stdout, t: &Target<'_>) -> Result<Prepared, CliError> {
    let program = match load::load_any(t.file, &t.lang.options(t.assume)) {
        Ok(p) => p,
        // SV-COMP mode: a task outside the subset is answered `unknown`
        // (with the reason), not refused. A task's program is valid C (gcc
        // compiles it), so an error the front end finds in its text (a
        // syntax it does not parse, C89's implicit `int`) is a limit of
        // the front end too.
        Err(error) if load::is_task(t.file) && error.is_in_program() => {
            crate::out::err(&error.text());
            let answer = Unsupported {
                file: t.file,
                error,
            };
            crate::formats::print(stdout, t.format, t.file, &answer);
            return Ok(Prepared::Answered(exit::UNKNOWN));
        }
        Err(error) => return Err(error),
    };
    if let Some(path) = t.witness {
        crate::witness_yaml::check_language(&program, path)?;
    }
    if t.harness.is_some() && !program.details.has_harness() {
        return Err(CliError::usage(format!(
            "--harness writes a C file for gcc; `{}` is not a C program",
            program.file.display()
        )));
    }
    let property = match (t.property, &program.task) {
        (Some(p), _) => task::property_arg(p)?,
        (None, Some(t)) => t
            .default_property()
            .ok_or_else(|| task::no_supported_property(t))?,
        (None, None) => PropertySpec::All,
    };
    let listed = program.task.as_ref().and_then(|t| t.property(property));
    let asked = Asked {
        property,
        expected: listed.and_then(|p| p.expected_verdict),
        subproperty: listed.and_then(|p| p.subproperty),
    };
    let engine_property = Property::only(&property.kinds());
    Ok(Prepared::Ready(Box::new((program, asked, engine_property))))
}

/// What bounded model checking's output adds to its report (whose extra
/// holds the last bound tried).
pub struct BmcInfo {
    /// Were unwinding assertions checked?
    pub unwinding_assertions: bool,
}

/// Prints the report, writes the harness if asked, and gives the exit code
/// (and whether to leave without waiting for stray workers).
fn finish(stdout: &Stdout, output: &CheckOutput<'_>) -> Result<(u8, bool), CliError> {
    let CheckOutput {
        t, program, report, ..
    } = *output;
    crate::formats::print(stdout, t.format, t.file, output);
    for e in &report.internal_errors {
        crate::out::errln!("error: {e}");
    }
    if let Some(out) = t.harness {
        write_harness(program, report, out)?;
    }
    if let Some(path) = t.witness {
        let request = crate::witness_yaml::WitnessRequest {
            path,
            property: output.asked.property,
            property_arg: t.property,
            bugs_only: false,
            semantics: output.config.options,
        };
        crate::witness_yaml::write_witness(program, report, &request)?;
    }
    let code = match report.verdict {
        Verdict::Bug => exit::BUG,
        Verdict::Safe => exit::OK,
        Verdict::Unknown => exit::UNKNOWN,
    };
    Ok((code, report.stats.abandoned_workers > 0))
}

/// The report of `check` or `bmc`, in every format.
#[derive(Clone, Copy)]
struct CheckOutput<'a> {
    t: &'a Target<'a>,
    program: &'a Program,
    report: &'a Report,
    config: &'a Config,
    asked: Asked,
    /// Warnings about the set-up (`--assume`), for JSON's `warnings`.
    warnings: &'a [String],
    bmc: Option<&'a BmcInfo>,
    /// For `verify`: the engines' run.
    portfolio: Option<&'a PortfolioRun>,
}

impl Rendered for CheckOutput<'_> {
    fn text(&self) -> String {
        let (program, report) = (self.program, self.report);
        let mut text = String::new();
        if let (Some(b), Some(bound)) = (self.bmc, report.bmc_bound()) {
            text.push_str(&format!(
                "bounded model checking: bound {} ({})\n",
                bound,
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
        if let Some(run) = self.portfolio {
            text.push_str(&crate::render_portfolio::text(run));
        }
        text
    }

    fn json(&self) -> Value {
        let (program, report) = (self.program, self.report);
        let mut json = render::check_json(program, report, self.asked);
        if let Some(obj) = json.as_object_mut() {
            obj.insert("warnings".into(), self.warnings.into());
        }
        if let (Some(b), Some(bound), Some(obj)) =
            (self.bmc, report.bmc_bound(), json.as_object_mut())
        {
            obj.insert("engine".into(), report.extra.engine().into());
            obj.insert("bound".into(), bound.into());
            obj.insert("unwinding_assertions".into(), b.unwinding_assertions.into());
        }
        if let (Some(p), Some(obj)) = (crate::render_prove::proof(report), json.as_object_mut()) {
            let (invariants, proof) = crate::render_prove::prove_json(program, p);
            obj.insert("engine".into(), report.extra.engine().into());
            obj.insert("invariants".into(), invariants);
            obj.insert("proof".into(), proof);
        }
        if let (Some(run), Some(obj)) = (self.portfolio, json.as_object_mut()) {
            // `engine` stays the engine whose report this is (the
            // `k-induction` member's is `prove`'s, with its method in
            // `proof.method`); `portfolio.answered_by` names the member.
            obj.insert("engine".into(), report.extra.engine().into());
            obj.insert("portfolio".into(), crate::render_portfolio::json(run));
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
        Some(crate::sarif::check_sarif(
            self.t.file,
            self.program,
            self.report,
            self.config,
            self.asked,
        ))
    }
}

/// The answer `unknown` to an SV-COMP task whose program is outside the
/// front end's subset (`error`: the front end's).
struct Unsupported<'a> {
    file: &'a Path,
    error: CliError,
}

impl Rendered for Unsupported<'_> {
    fn text(&self) -> String {
        "verdict: unknown (the task's program is outside the C subset)\n".into()
    }

    fn json(&self) -> Value {
        render::unsupported_json(&self.error.one_line())
    }

    fn sarif(&self) -> Option<Value> {
        Some(crate::sarif::unsupported_sarif(
            self.file,
            &self.error.one_line(),
        ))
    }
}

/// Writes the harness of the report's bug (a reached error location or a
/// failed assertion first: those are what a compiled harness detects).
pub fn write_harness(
    program: &Program,
    report: &Report,
    out: &std::path::Path,
) -> Result<(), CliError> {
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
    std::fs::write(out, &harness.text)
        .map_err(|e| CliError::cannot_write("the harness", out, &e))?;
    let note = if detectable(&bug) {
        format!("it exits with code {} at the error", harness.exit_at_error)
    } else {
        format!(
            "a compiled program does not stop at this error ({}): build it with gcc's \
             `-fsanitize=address` or `-fsanitize=undefined` to see it reported",
            program.describe(bug.kind)
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

/// The text name of the `--assume` condition in [`Program::sources`].
const ASSUME: &str = "--assume";

/// Checks the program's `--assume` condition, if it has one: `Err` (an
/// error message) when the condition can fail, a warning when no input
/// satisfies it (printed on stderr, and returned for the report's
/// `warnings`). The search is bounded by the run's limits and at most ten
/// seconds; an undecided answer says nothing.
pub fn check_assumption(
    program: &Program,
    config: &Config,
    signals: &Interrupts,
) -> Result<Vec<String>, CliError> {
    let Some(cut) = program.details.assumption_cut() else {
        return Ok(Vec::new());
    };
    let in_assume = |l: &&Located| program.sources.get(l.span.file).name() == ASSUME;
    let Some(span) = cut
        .code
        .iter()
        .find(|l| in_assume(l) && matches!(l.instr, Instr::Assume { .. }))
        .map(|l| l.span)
    else {
        return Ok(Vec::new());
    };
    let limit = Duration::from_secs(10);
    let config = config
        .clone()
        .with_property(Property::all())
        .with_all_bugs(true)
        .with_jobs(1)
        .with_timeout(Some(config.timeout.map_or(limit, |t| t.min(limit))));
    let report =
        signals.run(|monitor| wiser_engine::symex_monitored(cut.clone(), &config, monitor));
    if let Some(bug) = report
        .bugs
        .iter()
        .find(|b| b.kind != ErrorKind::Fail || b.span != span)
        .filter(|b| program.sources.get(b.span.file).name() == ASSUME)
    {
        let input = crate::render::vars_text(&bug.input);
        let diag = Diagnostic::new(
            bug.span,
            format!("the assumption itself can fail: {}", bug.kind.describe()),
        )
        .with_help(format!(
            "it fails for the input {input}; guard the operation: `and` evaluates its right side only where its left side holds (e.g. `x != 0 and 10 / x > 1`)"
        ));
        return Err(CliError::Located {
            diagnostic: diag,
            sources: program.sources.clone(),
        });
    }
    if report.verdict == Verdict::Safe && report.bugs.is_empty() {
        let text = program.sources.get(span.file).text();
        let warning = format!(
            "no input satisfies --assume `{text}`: every path ends at the assumption, so a `safe` verdict says nothing about the program"
        );
        crate::out::errln!("warning: {warning}");
        return Ok(vec![warning]);
    }
    Ok(Vec::new())
}

/// After an `unknown` verdict on a file run without `--assume`: the
/// arguments it suggests for itself (IMP's `# args:` header line) (the examples bound their
/// inputs there), as a note naming the command to run.
pub fn suggest_header_args(program: &Program, report: &wiser_engine::Report, assumed: bool) {
    if assumed || report.verdict != Verdict::Unknown {
        return;
    }
    let text = program.sources.get(wiser_ir::FileId(0)).text();
    let Some(args) = program.language.suggested_args(text) else {
        return;
    };
    crate::out::errln!(
        "note: `{}` suggests its own arguments: wiser check {} {}",
        program.file.display(),
        program.file.display(),
        args
    );
}
