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
pub const SCHEMA_VERSION: u64 = 2;

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
    /// What it is about: `program`, `unsupported`, `refused` (the file
    /// cannot be used), `usage`, `input`, `file`, `test-file` or `task`.
    pub kind: &'static str,
    /// What went wrong.
    pub message: String,
    /// The file it is in, if it has a place.
    pub file: Option<String>,
    /// Its line and column.
    pub line: Option<u32>,
    /// Column, from 1.
    pub column: Option<u32>,
    /// What to do.
    pub help: Option<String>,
    /// Where it arose (which test, say).
    pub notes: Vec<String>,
}
