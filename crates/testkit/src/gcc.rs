//! gcc as a test oracle: scratch folders, and building and running a C
//! program with the flags a data model needs (`-m32`, `-m64`, SSE
//! arithmetic for floats), optionally under UndefinedBehaviorSanitizer.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh scratch folder for a test run: `wiser-<what>-<pid>-<tag>` in
/// the system's temporary folder.
pub fn scratch_dir(what: &str, tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wiser-{what}-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// Builds `text` as `dir/name.c` with `gcc -std=gnu11 -O0 -w` and
/// `flags` (and `-fsanitize=undefined` with `ubsan`), linked with the
/// math library, runs it, and gives its stdout and stderr; `Err` says why
/// it could not.
pub fn gcc_run(
    dir: &Path,
    name: &str,
    text: &str,
    flags: &[&str],
    ubsan: bool,
) -> Result<(String, String), String> {
    let src = dir.join(format!("{name}.c"));
    let exe = dir.join(name);
    std::fs::write(&src, text).map_err(|e| e.to_string())?;
    let mut cmd = Command::new("gcc");
    cmd.args(flags).args(["-std=gnu11", "-O0", "-w"]);
    if ubsan {
        cmd.arg("-fsanitize=undefined");
    }
    let out = cmd
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .arg("-lm")
        .output()
        .map_err(|e| format!("cannot run gcc: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "gcc {} failed: {}",
            flags.join(" "),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let run = Command::new(&exe)
        .env("UBSAN_OPTIONS", "print_stacktrace=0")
        .output()
        .map_err(|e| format!("cannot run the program: {e}"))?;
    if !run.status.success() {
        return Err(format!("the program exited with {}", run.status));
    }
    Ok((
        String::from_utf8_lossy(&run.stdout).into_owned(),
        String::from_utf8_lossy(&run.stderr).into_owned(),
    ))
}
