//! The one dispatch on `--format`: every command's report implements
//! [`Rendered`] (its text, JSON and SARIF renderings) and is printed by
//! [`print`], which alone decides which rendering goes to stdout.

use crate::args::Format;
use crate::error::CliError;
use serde_json::{json, Value};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// A report in every output format.
pub trait Rendered {
    /// The report for people.
    fn text(&self) -> String;

    /// The JSON report (before [`crate::json::stamp`]).
    fn json(&self) -> Value;

    /// The SARIF log, where the report has one (else `--format sarif` is
    /// refused before the command runs).
    fn sarif(&self) -> Option<Value> {
        None
    }

    /// Does the JSON report carry `schema_version`, `tool` and `file`?
    /// (Test replays, whose reports the test-file format describes, do
    /// not.)
    fn stamped(&self) -> bool {
        true
    }
}

/// Refuses `--format sarif` before a command whose report has no SARIF
/// form runs (`what` names its reports): SARIF reports the bugs of a
/// check, and a test replay's answer, pass or mismatch, has no place
/// there.
pub fn refuse_sarif(format: Format, what: &str) -> Result<(), String> {
    if format == Format::Sarif {
        return Err(format!(
            "error: `--format sarif` reports the bugs of a check, not {what}\n  = help: use `--format json` or `--format text`\n"
        ));
    }
    Ok(())
}

/// Set once a report is on stdout: an error after it (a harness that
/// cannot be written) must not print a second document.
static REPORTED: AtomicBool = AtomicBool::new(false);

/// Notes that a report was printed.
pub fn reported() {
    REPORTED.store(true, Ordering::SeqCst);
}

/// Prints `report` on stdout in `format` (SARIF falls back to JSON for a
/// report without a SARIF form); `file` is the program's path as given,
/// for the JSON and SARIF documents.
pub fn print(format: Format, file: &Path, report: &dyn Rendered) {
    let sarif = match format {
        Format::Text => {
            crate::out::out(&report.text());
            reported();
            return;
        }
        Format::Sarif => report.sarif(),
        Format::Json => None,
    };
    let doc = sarif.unwrap_or_else(|| {
        if report.stamped() {
            crate::json::stamp(report.json(), file)
        } else {
            report.json()
        }
    });
    crate::out::out(&format!("{doc}\n"));
    reported();
}

/// The JSON report of a static error: verdict `error` and its
/// diagnostics.
fn error_json(file: &Path, diagnostics: &[crate::json::Diag]) -> Value {
    let diags: Vec<Value> = diagnostics
        .iter()
        .map(|d| {
            json!({
                "severity": "error",
                "message": d.message,
                "file": d.file,
                "line": d.line,
                "column": d.column,
                "help": d.help,
            })
        })
        .collect();
    crate::json::stamp(json!({"verdict": "error", "diagnostics": diags}), file)
}

/// Prints a static error on stdout in the machine formats (its text is on
/// stderr), unless a report is already there.
pub fn print_error(command_format: Format, file: &Path, error: &CliError) {
    if REPORTED.load(Ordering::SeqCst) {
        return;
    }
    let doc = match command_format {
        Format::Text => return,
        Format::Json => error_json(file, &error.diagnostics()),
        Format::Sarif => crate::sarif::error_sarif(file, &error.diagnostics()),
    };
    crate::out::out(&format!("{doc}\n"));
}
