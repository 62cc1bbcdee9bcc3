//! Running an SMT-LIB solver as a child process: writing it a script,
//! stopping it at a deadline, and reading its answer (`sat` with the
//! values `get-value` asked for, `unsat`, `unknown`). cvc5
//! (`cvc5_backend.rs`) and Bitwuzla (`bitwuzla_backend.rs`) are run
//! this way; each module knows only how to start its solver.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The time left before `deadline` (`None`: no deadline); an error when
/// none is left, so that no process is started for nothing.
pub(crate) fn time_left(deadline: Option<Instant>) -> Result<Option<Duration>, ExternalError> {
    match deadline {
        None => Ok(None),
        Some(d) => {
            let left = d.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(ExternalError::Deadline);
            }
            Ok(Some(left))
        }
    }
}

/// Runs `cmd` (its arguments set) on `script`, which must end with
/// `(check-sat)` and, for a satisfiable query to give values, one
/// `(get-value ...)` asking for `values` terms; stops it at `deadline`,
/// or as soon as `stop` is set (another solver answered first).
pub(crate) fn run(
    mut cmd: Command,
    script: &str,
    values: usize,
    deadline: Option<Instant>,
    stop: &AtomicBool,
) -> Result<Verdict, ExternalError> {
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut child = cmd.spawn().map_err(ExternalError::Spawn)?;
    // The script is written and the answer read by threads of their
    // own, so that neither pipe can fill while this thread waits.
    let mut stdin = child.stdin.take().expect("piped");
    let script = script.to_owned();
    let writer = std::thread::spawn(move || stdin.write_all(script.as_bytes()));
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        stdout.read_to_end(&mut out).map(|_| out)
    });
    let status = wait_until(&mut child, deadline, stop);
    // A write error means the solver stopped reading (it ended): its
    // output says why.
    let _ = writer.join();
    let out = reader.join().map_err(|_| ExternalError::Output)?;
    let status = status?;
    let out = out.map_err(|_| ExternalError::Output)?;
    let out = String::from_utf8_lossy(&out);
    read_answer(&out, values, status)
}

/// Waits for `child` until `deadline` or `stop`, then kills it.
fn wait_until(
    child: &mut Child,
    deadline: Option<Instant>,
    stop: &AtomicBool,
) -> Result<ExitStatus, ExternalError> {
    let mut pause = Duration::from_micros(200);
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Ok(status),
            Ok(None) => {}
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(ExternalError::Output);
            }
        }
        let now = Instant::now();
        if deadline.is_some_and(|d| now >= d) {
            let _ = child.kill();
            let _ = child.wait();
            return Err(ExternalError::Deadline);
        }
        if stop.load(Ordering::Relaxed) {
            let _ = child.kill();
            let _ = child.wait();
            return Err(ExternalError::Stopped);
        }
        let mut nap = pause;
        if let Some(d) = deadline {
            nap = nap.min(d - now);
        }
        std::thread::sleep(nap);
        pause = (pause * 2).min(Duration::from_millis(20));
    }
}

/// The program the environment variable `var` names: `off` (or empty)
/// for none, a path, or when unset `default` looked up on the `PATH`.
pub(crate) fn configured(var: &str, default: &str) -> Option<PathBuf> {
    match std::env::var_os(var) {
        Some(v) if v.is_empty() || v == "off" => None,
        Some(v) => Some(PathBuf::from(v)),
        None => on_path(default),
    }
}

/// The executable `name` in a directory of `PATH`.
fn on_path(name: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|p| {
            std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}

/// What the solver decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Satisfiable, with the values `get-value` asked for, in its order.
    Sat(Vec<SValue>),
    /// Unsatisfiable.
    Unsat,
    /// The solver gave up.
    Unknown,
}

/// A value in the solver's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SValue {
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(wiser_num::Int),
    /// A bit-vector: its width and unsigned value.
    Bv(u32, wiser_num::Int),
}

/// Why the solver gave no verdict (the caller asks the next one).
#[derive(Debug)]
pub(crate) enum ExternalError {
    /// The executable could not be started.
    Spawn(std::io::Error),
    /// Its output could not be read.
    Output,
    /// The deadline passed first.
    Deadline,
    /// Another solver answered first.
    Stopped,
    /// The solver reported an error (a symbol it does not know, say).
    Reported,
    /// It ended without a verdict (a crash, a resource limit).
    NoVerdict(ExitStatus),
    /// Its answer was not what the script asks for.
    Malformed,
}

impl std::fmt::Display for ExternalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExternalError::Spawn(e) => write!(f, "the solver did not start: {e}"),
            ExternalError::Output => write!(f, "the solver's output could not be read"),
            ExternalError::Deadline => write!(f, "the solver ran out of time"),
            ExternalError::Stopped => write!(f, "the solver was stopped: another answered first"),
            ExternalError::Reported => write!(f, "the solver reported an error"),
            ExternalError::NoVerdict(s) => write!(f, "the solver ended without a verdict ({s})"),
            ExternalError::Malformed => write!(f, "the solver's answer was malformed"),
        }
    }
}

/// An s-expression of the solver's output.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Sexp {
    Atom(String),
    List(Vec<Sexp>),
}

/// Reads s-expressions from `text`; `None` when it is not a sequence of
/// well-formed ones.
fn parse_all(text: &str) -> Option<Vec<Sexp>> {
    let mut stack: Vec<Vec<Sexp>> = vec![Vec::new()];
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '(' => stack.push(Vec::new()),
            ')' => {
                let done = stack.pop()?;
                stack.last_mut()?.push(Sexp::List(done));
            }
            c if c.is_whitespace() => {}
            ';' => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '|' | '"' => {
                let mut atom = String::new();
                loop {
                    let d = chars.next()?;
                    if d == c {
                        // `""` inside a string is an escaped quote.
                        if c == '"' && chars.peek() == Some(&'"') {
                            chars.next();
                            atom.push('"');
                            continue;
                        }
                        break;
                    }
                    atom.push(d);
                }
                stack.last_mut()?.push(Sexp::Atom(atom));
            }
            c => {
                let mut atom = String::from(c);
                while let Some(&d) = chars.peek() {
                    if d.is_whitespace() || matches!(d, '(' | ')' | '|' | '"' | ';') {
                        break;
                    }
                    atom.push(d);
                    chars.next();
                }
                stack.last_mut()?.push(Sexp::Atom(atom));
            }
        }
    }
    match <[_; 1]>::try_from(stack) {
        Ok([top]) => Some(top),
        Err(_) => None,
    }
}

/// The verdict in the solver's output `out`, with `values` values when sat.
fn read_answer(out: &str, values: usize, status: ExitStatus) -> Result<Verdict, ExternalError> {
    let sexps = parse_all(out).ok_or(ExternalError::Malformed)?;
    let mut it = sexps.iter();
    let verdict = match it.next() {
        None => return Err(ExternalError::NoVerdict(status)),
        Some(Sexp::Atom(a)) if a == "sat" => {
            if values == 0 {
                return Ok(Verdict::Sat(Vec::new()));
            }
            let Some(Sexp::List(pairs)) = it.next() else {
                return Err(ExternalError::Malformed);
            };
            if pairs.len() != values {
                return Err(ExternalError::Malformed);
            }
            let vs = pairs
                .iter()
                .map(|p| match p {
                    Sexp::List(kv) if kv.len() == 2 => value(&kv[1]),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()
                .ok_or(ExternalError::Malformed)?;
            Verdict::Sat(vs)
        }
        Some(Sexp::Atom(a)) if a == "unsat" => Verdict::Unsat,
        Some(Sexp::Atom(a)) if a == "unknown" => Verdict::Unknown,
        Some(Sexp::List(l)) if matches!(l.first(), Some(Sexp::Atom(e)) if e == "error") => {
            return Err(ExternalError::Reported)
        }
        Some(_) => return Err(ExternalError::Malformed),
    };
    Ok(verdict)
}

/// A value as cvc5 and Bitwuzla print it: `true`/`false`; `5` or `(- 5)`; `#b0101`,
/// `#x0f` or `(_ bv15 8)`.
fn value(s: &Sexp) -> Option<SValue> {
    use wiser_num::Int;
    let digits = |d: &str| -> Option<Int> {
        if d.is_empty() || !d.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        d.parse().ok()
    };
    match s {
        Sexp::Atom(a) => match a.as_str() {
            "true" => Some(SValue::Bool(true)),
            "false" => Some(SValue::Bool(false)),
            _ => {
                if let Some(bits) = a.strip_prefix("#b") {
                    radix(bits, 1).map(|v| SValue::Bv(bits.len() as u32, v))
                } else if let Some(hex) = a.strip_prefix("#x") {
                    radix(hex, 4).map(|v| SValue::Bv(4 * hex.len() as u32, v))
                } else {
                    digits(a).map(SValue::Int)
                }
            }
        },
        Sexp::List(l) => match l.as_slice() {
            [Sexp::Atom(minus), Sexp::Atom(n)] if minus == "-" => {
                digits(n).map(|v| SValue::Int(v.neg()))
            }
            [Sexp::Atom(us), Sexp::Atom(bv), Sexp::Atom(w)] if us == "_" => {
                let v = digits(bv.strip_prefix("bv")?)?;
                let w: u32 = w.parse().ok()?;
                Some(SValue::Bv(w, v))
            }
            _ => None,
        },
    }
}

/// The unsigned value of `text`, digits of `bits` bits each (1: binary,
/// 4: hexadecimal), most significant first.
fn radix(text: &str, bits: u32) -> Option<wiser_num::Int> {
    use wiser_num::Int;
    if text.is_empty() {
        return None;
    }
    let base = Int::from(1i64 << bits);
    let mut v = Int::from(0i64);
    for c in text.chars() {
        let d = c.to_digit(1 << bits)?;
        v = v.mul(&base).add(&Int::from(i64::from(d)));
    }
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt;
    use wiser_num::Int;

    fn ok() -> ExitStatus {
        ExitStatus::from_raw(0)
    }

    #[test]
    fn reads_verdicts_and_values() {
        let out = "sat\n((|a#1| #b00000101) (i (- 5)) (p true) (q (_ bv300 16)) (h #xff) (n 12345678901234567890))\n";
        let Ok(Verdict::Sat(vs)) = read_answer(out, 6, ok()) else {
            panic!("not sat")
        };
        assert_eq!(
            vs,
            vec![
                SValue::Bv(8, Int::from(5i64)),
                SValue::Int(Int::from(-5i64)),
                SValue::Bool(true),
                SValue::Bv(16, Int::from(300i64)),
                SValue::Bv(8, Int::from(255i64)),
                SValue::Int("12345678901234567890".parse().unwrap()),
            ]
        );
        let unsat = "unsat\n(error \"Cannot get value unless after a SAT or UNKNOWN response.\")\n";
        assert_eq!(read_answer(unsat, 1, ok()).ok(), Some(Verdict::Unsat));
        assert_eq!(
            read_answer("unknown\n((x #b0))", 1, ok()).ok(),
            Some(Verdict::Unknown)
        );
    }

    #[test]
    fn anything_else_is_an_error_not_a_panic() {
        for out in [
            "",
            "(error \"Parse Error: Unknown indexed function `fp.to_ieee_bv'\")",
            "sat",
            "sat\n((x #b2))",
            "sat\n((x #x))",
            "sat\n((x (_ bvq 8)))",
            "sat\n((x 1) (y 2))",
            "sat\n((x (- (- 1))))",
            "sat\n((x 1)",
            "sat\n)(",
            "|unterminated",
            "\"unterminated",
            "satisfiable",
            "((x 1))",
            "sat\n((x -1))",
        ] {
            assert!(read_answer(out, 1, ok()).is_err(), "{out:?}");
        }
    }
}
