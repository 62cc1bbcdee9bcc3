//! Tests that call a tool outside Rust (xmllint, rsvg-convert, genhtml,
//! chromium, cvc5, Python's `bitwuzla` module): on a machine without the tool they are skipped with a note,
//! so that `cargo test --workspace` works on a fresh machine; under CI
//! (`.ci/run` installs the tools and sets `WISER_REQUIRE_EXTERNAL=1`) a
//! missing tool fails the test instead, so nothing is skipped unseen.

use std::process::{Command, Stdio};

/// Is `tool` on the `PATH`? If not: panics when `WISER_REQUIRE_EXTERNAL=1`,
/// else prints why the caller skips and returns `false`.
pub fn external_tool(tool: &str) -> bool {
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    found_or_skip(found, &format!("`{tool}`"))
}

/// Does `python3` on the `PATH` import `module` (installed with `pip
/// install MODULE`)? If not: as [`external_tool`].
pub fn external_python_module(module: &str) -> bool {
    let found = Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    found_or_skip(found, &format!("Python's `{module}` module"))
}

fn found_or_skip(found: bool, what: &str) -> bool {
    if found {
        return true;
    }
    if std::env::var("WISER_REQUIRE_EXTERNAL").is_ok_and(|v| v == "1") {
        panic!("{what} is not installed, and WISER_REQUIRE_EXTERNAL=1 requires it (.ci/run installs it)");
    }
    eprintln!("skipped: {what} is not installed (.ci/run installs it; WISER_REQUIRE_EXTERNAL=1 makes this a failure)");
    false
}
