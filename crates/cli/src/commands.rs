//! `check` and `bmc` on one file or several: load, prepare, run the
//! engine with its progress line, report.

use crate::args::{self, BmcArgs, CheckArgs, Format};
use crate::{coverage, exit, out, progress, setup, testfile, tree, verify};

/// `wiser check`: a test-suite replay (`--replay`), or a check of each file.
pub fn check(args: &CheckArgs, verbose: bool) -> Result<(u8, bool), String> {
    if let Some(dir) = &args.replay {
        let code = testfile::replay::replay_dir(dir, &args.replay_overrides(), args.target.format)?;
        return Ok((code, false));
    }
    let one_output = [
        args.tests.as_ref().map(|_| "--tests"),
        args.lcov.as_ref().map(|_| "--lcov"),
        args.tree.as_ref().map(|_| "--tree"),
    ];
    if let Some(flag) = one_output.into_iter().flatten().next() {
        if !args.target.more_files.is_empty() {
            return Err(format!("error: `{flag}` writes the results of one program\n  = help: check the files one at a time, each with its own output\n"));
        }
    }
    if let Some(dir) = &args.tests {
        testfile::check_dir(dir)?;
    }
    several(&args.target, |file| {
        let target = args::Target {
            file,
            ..args.target()?
        };
        let (program, asked, property) = match verify::prepare(&target)? {
            verify::Prepared::Ready(p) => *p,
            verify::Prepared::Answered(code) => return Ok((code, false)),
        };
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
        let warnings = setup::check_assumption(&program, &config)?;
        if let Some(path) = &args.tree {
            tree::check_path(path)?;
        }
        let mut report = progress::check(program.ir.clone(), &config, args.quiet);
        if verbose {
            out::errln!("note: statistics: {:?}", report.stats);
        }
        setup::suggest_header_args(&program, &report, target.assume.is_some());
        // The report shows the coverage only when asked (not for --lcov).
        let covered = if args.coverage {
            report.coverage.clone()
        } else {
            report.coverage.take()
        };
        let done = verify::finish(&target, &program, &report, &config, asked, &warnings, None)?;
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
pub fn bmc(args: &BmcArgs, verbose: bool) -> Result<(u8, bool), String> {
    several(&args.target, |file| {
        let target = args::Target {
            file,
            ..args.target()?
        };
        let (program, asked, property) = match verify::prepare(&target)? {
            verify::Prepared::Ready(p) => *p,
            verify::Prepared::Answered(code) => return Ok((code, false)),
        };
        let config = args.config().with_property(property);
        let bounds = args.bounds(&program)?;
        if verbose {
            out::errln!("note: configuration: {config:?}, bounds: {bounds:?}");
        }
        let warnings = setup::check_assumption(&program, &config)?;
        let found = progress::bmc(program.ir.clone(), &config, &bounds, args.quiet);
        if verbose {
            out::errln!("note: statistics: {:?}", found.report.stats);
        }
        let info = verify::BmcInfo {
            bound: found.bound,
            unwinding_assertions: bounds.unwinding_assertions,
        };
        verify::finish(
            &target,
            &program,
            &found.report,
            &config,
            asked,
            &warnings,
            Some(info),
        )
    })
}

/// Checks each file of `target` in turn. With one file, this is `check`
/// itself. With several, each text report follows a `==> FILE <==` line
/// (as `tail` heads its files), a JSON report is one line each (JSON
/// Lines), an error in one file is printed and the others still checked,
/// and the exit code is the worst: an error (2), then a bug (1), then
/// unknown (3), then safe (0).
fn several(
    target: &args::TargetArgs,
    mut check: impl FnMut(&std::path::PathBuf) -> Result<(u8, bool), String>,
) -> Result<(u8, bool), String> {
    if target.more_files.is_empty() {
        return check(target.target()?.file);
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
            out::out(&format!("{gap}==> {} <==\n", file.display()));
        }
        let code = match check(file) {
            Ok((code, stuck)) => {
                leave |= stuck;
                code
            }
            Err(message) => {
                out::err(&message);
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
