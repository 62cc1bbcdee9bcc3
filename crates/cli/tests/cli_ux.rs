//! The command line as a user meets it: output that cannot be written,
//! colour, the checks on arguments and on `--assume`, one error style,
//! several files per run, completions and the man page.

mod support;

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use support::{describe, scratch_file, text};

/// `wiser` with colour left to the test (no `NO_COLOR`, no `CLICOLOR_FORCE`
/// from the environment).
fn wiser() -> Command {
    let mut c = support::command();
    c.env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE");
    c
}

fn examples() -> PathBuf {
    support::root().join("examples")
}

fn run(args: &[&str]) -> Output {
    wiser().args(args).output().unwrap()
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
    let file = scratch_file(
        "cli-ux",
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
    assert!(err.starts_with("error: cannot write the output"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

// ----- colour ------------------------------------------------------------

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let file = examples().join("div_by_zero.imp");
    let plain = wiser()
        .args(["check", "--quiet"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        !text(&plain.stdout).contains('\x1b'),
        "{}",
        describe(&plain)
    );
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

// ----- --assume ----------------------------------------------------------

#[test]
fn an_assumption_on_a_name_that_is_no_input_is_an_error_in_its_text() {
    let isqrt = examples().join("isqrt.imp");
    let isqrt = isqrt.to_str().unwrap();
    let err = usage_error(
        &["check", isqrt, "--assume", "y > 0"],
        "the program has no input `y`",
    );
    assert!(
        err.contains(" --> --assume:1:1\n  |\n1 | y > 0\n  | ^\n"),
        "{err}"
    );
    assert!(err.contains("= help: did you mean `x`?"), "{err}");
    // `r` is a local the program assigns before it reads it.
    let err = usage_error(
        &["check", isqrt, "--assume", "x > 0 and r > 100"],
        "`r` is not an input of the program",
    );
    assert!(err.contains(" --> --assume:1:11\n"), "{err}");
}

#[test]
fn an_assumption_no_input_satisfies_gives_safe_with_a_warning() {
    let isqrt = examples().join("isqrt.imp");
    let out = wiser()
        .args(["check", "--quiet", "--assume", "x > 5 and x < 3"])
        .arg(&isqrt)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert!(text(&out.stdout).starts_with("verdict: safe"));
    let err = text(&out.stderr);
    assert!(
        err.starts_with("warning: no input satisfies --assume `x > 5 and x < 3`"),
        "{err}"
    );
    let out = wiser()
        .args([
            "check",
            "--quiet",
            "--format",
            "json",
            "--assume",
            "x > 5 and x < 3",
        ])
        .arg(&isqrt)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["verdict"], "safe");
    let warnings = json["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{json}");
    assert!(warnings[0].as_str().unwrap().contains("no input satisfies"));
    // A satisfiable assumption has no warning.
    let out = wiser()
        .args([
            "check", "--quiet", "--format", "json", "--assume", "x <= 20",
        ])
        .arg(&isqrt)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["warnings"], serde_json::json!([]), "{json}");
    assert!(text(&out.stderr).is_empty(), "{}", describe(&out));
}

#[test]
fn an_assumption_that_can_fail_is_its_own_error_not_a_bug_of_the_program() {
    let isqrt = examples().join("isqrt.imp");
    for format in ["text", "json"] {
        let out = wiser()
            .args([
                "check",
                "--quiet",
                "--format",
                format,
                "--assume",
                "10 / x > 100",
            ])
            .arg(&isqrt)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
        let err = text(&out.stderr);
        assert!(
            err.starts_with(
                "error: the assumption itself can fail: division by zero\n --> --assume:1:4\n"
            ),
            "{err}"
        );
        assert!(err.contains("for the input x = 0"), "{err}");
        assert!(!text(&out.stdout).contains("\"bug\""), "{}", describe(&out));
    }
    // Guarded, it is fine.
    let out = wiser()
        .args(["check", "--quiet", "--assume", "x != 0 and 10 / x > 1"])
        .arg(&isqrt)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
}

// ----- arguments ---------------------------------------------------------

#[test]
fn malformed_and_unused_arguments_are_errors() {
    let havoc = examples().join("havoc.imp");
    let havoc = havoc.to_str().unwrap();
    let isqrt = examples().join("isqrt.imp");
    let isqrt = isqrt.to_str().unwrap();
    usage_error(&["run", havoc, "--reads", "1,,2"], "item 2 is empty");
    usage_error(&["run", havoc, "--reads", "1,2,"], "item 3 is empty");
    usage_error(
        &["run", isqrt, "--reads", "1,2"],
        "this program never reads",
    );
    usage_error(
        &["run", havoc, "--reads", "1,2,3,4,5,6,7,8,9"],
        "values of --reads were not read",
    );
    usage_error(
        &["run", isqrt, "-i", "x=1", "--input", "x=2"],
        "gives `x` twice",
    );
    usage_error(
        &["concolic", isqrt, "-i", "x=1", "-i", "x=1"],
        "gives `x` twice",
    );
    for t in ["nan", "inf", "-1", "-0.5", "soon"] {
        let err = usage_error(&["check", isqrt, "--timeout", t], "--timeout");
        assert!(err.contains(t), "{err}");
    }
    usage_error(&["check", isqrt, "--jobs", "0"], "--jobs");
    usage_error(&["fuzz", isqrt, "--jobs", "0"], "--jobs");
    // `none` and 0 are no limit.
    for t in ["none", "0"] {
        let out = run(&[
            "check",
            isqrt,
            "--quiet",
            "--assume",
            "x <= 3",
            "--timeout",
            t,
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    }
}

// ----- the command line --------------------------------------------------

#[test]
fn completions_man_page_and_version_are_generated() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = run(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}: {}", describe(&out));
        let script = text(&out.stdout);
        assert!(script.contains("wiser"), "{shell}");
        assert!(script.contains("max-states"), "{shell}: options are listed");
    }
    let out = run(&["man"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let page = text(&out.stdout);
    assert!(page.contains(".TH wiser 1"), "{page}");
    assert!(page.contains("completions"), "subcommands are listed");
    let out = run(&["--version"]);
    let version = text(&out.stdout);
    assert!(
        version.starts_with(&format!("wiser {} (Z3 4.", env!("CARGO_PKG_VERSION"))),
        "{version}"
    );
}

#[test]
fn several_files_per_run_and_standard_input() {
    let dir = examples();
    let out = wiser()
        .current_dir(&dir)
        .args(["check", "-q", "assume.imp", "div_by_zero.imp", "nosuch.imp"])
        .output()
        .unwrap();
    // The worst verdict: an error beats a bug, a bug beats safe.
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("==> assume.imp <==\nverdict: safe"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\n==> div_by_zero.imp <==\nbug: division by zero"),
        "{stdout}"
    );
    assert!(text(&out.stderr).starts_with("error: cannot read `nosuch.imp`"));
    let out = wiser()
        .current_dir(&dir)
        .args([
            "check",
            "-q",
            "--format",
            "json",
            "assume.imp",
            "off_by_one.imp",
            "nosuch.imp",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    let docs: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let verdicts: Vec<&str> = docs
        .iter()
        .map(|d| d["verdict"].as_str().unwrap())
        .collect();
    // JSON Lines: a line per file, the unreadable one's its error.
    assert_eq!(verdicts, ["safe", "bug", "error"]);
    assert_eq!(docs[2]["file"], "nosuch.imp");
    assert_eq!(docs[2]["diagnostics"][0]["kind"], "refused");
    // `-` is standard input.
    let mut child = wiser()
        .args(["check", "-q", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"x = *;\nassert x != 3\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    assert!(text(&out.stdout).starts_with("bug: assertion failed at <stdin>:2:1"));
}

#[test]
fn unknown_on_an_example_names_the_arguments_of_its_header() {
    let out = wiser()
        .args(["check", "-q", "--timeout", "1"])
        .arg(examples().join("isqrt.imp"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", describe(&out));
    let err = text(&out.stderr);
    assert!(err.contains("note: "), "{err}");
    assert!(err.contains("--assume 'x <= 400'"), "{err}");
    // With an assumption given, the header is not pressed on the user.
    let out = wiser()
        .args(["check", "-q", "--timeout", "1", "--assume", "x >= 0"])
        .arg(examples().join("isqrt.imp"))
        .output()
        .unwrap();
    assert!(
        !text(&out.stderr).contains("suggests"),
        "{}",
        describe(&out)
    );
}
