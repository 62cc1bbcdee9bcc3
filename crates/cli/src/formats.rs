//! The one dispatch on `--format`: every command's report implements
//! [`Rendered`] (its text, JSON and SARIF renderings) and is printed by
//! [`print`], which alone decides which rendering goes to stdout.

use crate::args::Format;
use crate::error::CliError;
use crate::out::Stdout;
use serde_json::{json, Value};
use std::path::Path;

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
pub fn refuse_sarif(format: Format, what: &str) -> Result<(), CliError> {
    if format == Format::Sarif {
        return Err(CliError::usage(format!(
            "`--format sarif` reports the bugs of a check, not {what}"
        ))
        .help("use `--format json` or `--format text`"));
    }
    Ok(())
}

/// Prints `report` on stdout in `format` (SARIF falls back to JSON for a
/// report without a SARIF form); `file` is the program's path as given,
/// for the JSON and SARIF documents.
pub fn print(stdout: &Stdout, format: Format, file: &Path, report: &dyn Rendered) {
    let sarif = match format {
        Format::Text => {
            stdout.write_report(&report.text());
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
    stdout.write_report(&format!("{doc}\n"));
}

/// The JSON report of a static error: verdict `error` and its
/// diagnostic.
fn error_json(file: &Path, d: &crate::json::Diag) -> Value {
    let diag = json!({
        "severity": "error",
        "kind": d.kind,
        "message": d.message,
        "file": d.file,
        "line": d.line,
        "column": d.column,
        "help": d.help,
        "notes": d.notes,
    });
    crate::json::stamp(json!({"verdict": "error", "diagnostics": [diag]}), file)
}

/// Prints a static error on stdout in the machine formats (its text is on
/// stderr): the document of `file` in place of its report.
pub fn print_error(stdout: &Stdout, command_format: Format, file: &Path, error: &CliError) {
    let doc = match command_format {
        Format::Text => return,
        Format::Json => error_json(file, &error.diagnostic()),
        Format::Sarif => crate::sarif::error_sarif(file, &error.diagnostic()),
    };
    stdout.write_report(&format!("{doc}\n"));
}
