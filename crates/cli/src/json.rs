//! What makes `--format json` (and SARIF) usable by programs: a schema
//! version, the tool and the file on every report, and static errors in a
//! structured form ([`Diag`]) for a report of their own on stdout.
//!
//! The JSON reports are described by `docs/schemas/wiser-report.schema.json`
//! (JSON Schema, draft 2020-12); the tests check every output against it.

use serde_json::{json, Map, Value};
use std::path::Path;

/// The version of the JSON report format (`schema_version`): raised when
/// a field changes meaning or is removed; new optional fields keep it.
pub const SCHEMA_VERSION: u64 = 1;

/// `{"name": "wiser", "version": ...}`.
pub fn tool() -> Value {
    json!({"name": "wiser", "version": env!("CARGO_PKG_VERSION")})
}

/// `report` with `schema_version`, `tool` and `file` (the path as given)
/// in front of its own fields.
pub fn stamp(report: Value, file: &Path) -> Value {
    let mut out = Map::new();
    out.insert("schema_version".into(), json!(SCHEMA_VERSION));
    out.insert("tool".into(), tool());
    out.insert("file".into(), json!(file.display().to_string()));
    if let Value::Object(fields) = report {
        out.extend(fields);
    }
    Value::Object(out)
}

/// One static error, as the JSON report and SARIF give it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diag {
    /// What went wrong.
    pub message: String,
    /// The file it is in (as named in the message), if it has a place.
    pub file: Option<String>,
    /// Its line and column.
    pub line: Option<u32>,
    /// Column, from 1.
    pub column: Option<u32>,
    /// What to do.
    pub help: Option<String>,
}

/// Reads the diagnostics out of an error as `wiser` prints it on stderr:
/// rustc's style, `error: MESSAGE`, then ` --> FILE:LINE:COL`, the source
/// line with a caret, then `= help:` lines. Parsing its own fixed format keeps every error path as it is
/// and gives each the same structured form.
pub fn diagnostics(text: &str) -> Vec<Diag> {
    let mut out: Vec<Diag> = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        if let Some(help) = trimmed.strip_prefix("= help: ") {
            if let Some(d) = out.last_mut() {
                d.help = Some(match d.help.take() {
                    Some(h) => format!("{h}; {help}"),
                    None => help.to_string(),
                });
            }
            continue;
        }
        if let Some(place) = trimmed.strip_prefix("--> ") {
            if let Some(d) = out.last_mut().filter(|d| d.file.is_none()) {
                if let Some((file, line, column)) = place_of(place) {
                    (d.file, d.line, d.column) = (Some(file), Some(line), Some(column));
                }
            }
            continue;
        }
        if let Some(d) = header(line) {
            out.push(d);
        }
    }
    if out.is_empty() {
        let message = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        out.push(Diag {
            message: message.trim().to_string(),
            file: None,
            line: None,
            column: None,
            help: None,
        });
    }
    out
}

/// A diagnostic's first line (`error: MESSAGE`), if `line` is one.
fn header(line: &str) -> Option<Diag> {
    let message = line.strip_prefix("error: ")?;
    Some(Diag {
        message: message.trim().to_string(),
        file: None,
        line: None,
        column: None,
        help: None,
    })
}

/// `FILE:LINE:COL` (the file may hold colons).
fn place_of(place: &str) -> Option<(String, u32, u32)> {
    let mut parts = place.trim().rsplitn(3, ':');
    let column = parts.next()?.parse().ok()?;
    let line = parts.next()?.parse().ok()?;
    Some((parts.next()?.to_string(), line, column))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rendered_errors_read_back_as_diagnostics() {
        let text = "error: expected an expression, found ';'\n --> examples/x.imp:2:5\n  |\n2 | y = ;\n  |     ^\n  = help: write a value after '='\n";
        assert_eq!(
            diagnostics(text),
            [Diag {
                message: "expected an expression, found ';'".into(),
                file: Some("examples/x.imp".into()),
                line: Some(2),
                column: Some(5),
                help: Some("write a value after '='".into()),
            }]
        );
        let d = &diagnostics("error: cannot read `x`: No such file\n  = help: check the path\n")[0];
        assert_eq!(d.message, "cannot read `x`: No such file");
        assert_eq!(d.file, None);
        assert_eq!(d.help.as_deref(), Some("check the path"));
        assert_eq!(diagnostics("something odd")[0].message, "something odd");
    }
}
