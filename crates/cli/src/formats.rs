//! The one dispatch on `--format`: every command's report implements
//! [`Rendered`] (its text, JSON and SARIF renderings) and is printed by
//! [`print`], which alone decides which rendering goes to stdout.

use crate::args::Format;
use serde_json::Value;
use std::path::Path;

/// A report in every output format.
pub trait Rendered {
    /// The report for people.
    fn text(&self) -> String;

    /// The JSON report (before [`crate::machine::stamp`]).
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

/// Prints `report` on stdout in `format` (SARIF falls back to JSON for a
/// report without a SARIF form); `file` is the program's path as given,
/// for the JSON and SARIF documents.
pub fn print(format: Format, file: &Path, report: &dyn Rendered) {
    let sarif = match format {
        Format::Text => {
            crate::emit(&report.text());
            crate::machine::reported();
            return;
        }
        Format::Sarif => report.sarif(),
        Format::Json => None,
    };
    let doc = sarif.unwrap_or_else(|| {
        if report.stamped() {
            crate::machine::stamp(report.json(), file)
        } else {
            report.json()
        }
    });
    crate::emit(&format!("{doc}\n"));
    crate::machine::reported();
}
