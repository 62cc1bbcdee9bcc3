//! The command line as a user meets it: output that cannot be written,
//! colour, the checks on arguments and on `--assume`, one error style,
//! several files per run, completions and the man page.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn wiser() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_wiser"));
    c.env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE");
    c
}

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

/// Writes `src` to a fresh file and returns its path.
fn program(name: &str, src: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wiser-cli-ux-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::File::create(&path)
        .unwrap()
        .write_all(src.as_bytes())
        .unwrap();
    path
}

fn run(args: &[&str]) -> Output {
    wiser().args(args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn describe(out: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout\n{}--- stderr\n{}",
        out.status.code(),
        text(&out.stdout),
        text(&out.stderr)
    )
}

/// A usage error: exit 2, nothing on stdout, and stderr in rustc's style
/// with `what` in its first line.
fn usage_error(args: &[&str], what: &str) -> String {
    let out = run(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}\n{}", describe(&out));
    let err = text(&out.stderr);
    let first = err.lines().next().unwrap_or("");
    assert!(
        first.starts_with("error: ") && first.contains(what),
        "{args:?}: wanted `error: ...{what}...`\n{}",
        describe(&out)
    );
    assert!(!err.contains("wiser: "), "{err}");
    err
}

// ----- output that cannot be written -------------------------------------

#[test]
fn a_pipe_closed_early_is_not_a_crash() {
    let file = program(
        "manylocs.imp",
        "if x == 1 then fail else skip fi;\n\
         if x == 2 then fail else skip fi;\n\
         if x == 3 then fail else skip fi;\n\
         assert 10 / (x - 4) > -100\n",
    );
    for args in [
        vec!["check", "--all", "--quiet"],
        vec!["check", "--all", "--quiet", "--format", "json"],
        vec!["run", "--input", "x=5"],
    ] {
        let mut child = wiser()
            .args(&args)
            .arg(&file)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Close the reading end before anything is written (`| head -c 0`).
        drop(child.stdout.take());
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        let status = child.wait().unwrap();
        assert_ne!(status.code(), Some(101), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn a_full_disk_is_an_error_not_a_crash() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // not Linux
    };
    let out = wiser()
        .args(["run", "--input", "x=4"])
        .arg(examples().join("isqrt.imp"))
        .stdout(full)
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("error: cannot write the output"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

// ----- colour ------------------------------------------------------------

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let file = examples().join("div_by_zero.imp");
    let plain = wiser().args(["check", "--quiet"]).arg(&file).output().unwrap();
    assert!(!text(&plain.stdout).contains('\x1b'), "{}", describe(&plain));
    let always = wiser()
        .args(["check", "--quiet", "--color", "always"])
        .arg(&file)
        .output()
        .unwrap();
    let out = text(&always.stdout);
    assert!(out.contains("\x1b[31mbug\x1b[0m: "), "{out:?}");
    assert!(out.contains("verdict: \x1b[1m\x1b[31mbug"), "{out:?}");
    let never = wiser()
        .args(["check", "--quiet", "--color", "never"])
        .arg(&file)
        .env("CLICOLOR_FORCE", "1")
        .output()
        .unwrap();
    assert!(!text(&never.stdout).contains('\x1b'));
    // The colours are the only difference.
    assert_eq!(
        text(&plain.stdout).lines().next(),
        text(&never.stdout).lines().next()
    );
}
