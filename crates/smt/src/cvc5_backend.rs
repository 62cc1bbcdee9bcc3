//! The one module that knows cvc5: finding its executable, running it on
//! an SMT-LIB script with a deadline, and reading its answer.
//!
//! cvc5 decides floating-point queries several times faster than Z3 4.8.12
//! (see docs/C.md), so [`crate::Z3Solver`] asks it first the queries that
//! contain float operations, and goes on with Z3 on anything else cvc5
//! says (an error, `unknown`, no answer by the deadline). The script is
//! the SMT-LIB rendering of the Z3 translation (one encoding, two
//! solvers), so this module knows nothing of terms: it runs a script and
//! returns a verdict and the `get-value` values as [`SValue`]s.
//!
//! cvc5 runs as a child process per query, which is killed when the
//! deadline passes. It also gets the deadline as `--tlimit`, so that it
//! stops by itself should our own process be killed first (the solver
//! process is, when a query overruns: see `process.rs`).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// A cvc5 executable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cvc5 {
    path: PathBuf,
}

impl Cvc5 {
    /// The cvc5 at `path` (not checked until it is run: a path that does
    /// not run makes every query fall back to Z3).
    pub fn at(path: impl Into<PathBuf>) -> Cvc5 {
        Cvc5 { path: path.into() }
    }

    /// The cvc5 this process uses by default: `WISER_CVC5=PATH` names it,
    /// `WISER_CVC5=off` (or empty) turns it off; otherwise `cvc5` on the
    /// `PATH`, if there is one. Looked up once per process.
    pub fn from_env() -> Option<Cvc5> {
        static FOUND: OnceLock<Option<Cvc5>> = OnceLock::new();
        FOUND
            .get_or_init(|| match std::env::var_os("WISER_CVC5") {
                Some(v) if v.is_empty() || v == "off" => None,
                Some(v) => Some(Cvc5::at(v)),
                None => on_path("cvc5").map(Cvc5::at),
            })
            .clone()
    }

    /// The executable's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `script` (which must end with `(check-sat)` and, for a
    /// satisfiable query to give values, one `(get-value ...)` asking for
    /// `values` terms), stopping cvc5 at `deadline`.
    pub(crate) fn check(
        &self,
        script: &str,
        values: usize,
        deadline: Option<Instant>,
    ) -> Result<Verdict, Cvc5Error> {
        let mut cmd = Command::new(&self.path);
        cmd.arg("--lang=smt2");
        if let Some(d) = deadline {
            let left = d.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(Cvc5Error::Deadline);
            }
            // A safety net only: the kill below is what keeps the
            // deadline. At least 1 ms: 0 means no limit.
            cmd.arg(format!("--tlimit={}", left.as_millis().max(1)));
        }
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child = cmd.spawn().map_err(Cvc5Error::Spawn)?;
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
        let status = wait_until(&mut child, deadline);
        // A write error means cvc5 stopped reading (it ended): its output
        // says why.
        let _ = writer.join();
        let out = reader.join().map_err(|_| Cvc5Error::Output)?;
        let status = status?;
        let out = out.map_err(|_| Cvc5Error::Output)?;
        let out = String::from_utf8_lossy(&out);
        read_answer(&out, values, status)
    }
}

/// Waits for `child` until `deadline`, then kills it.
fn wait_until(child: &mut Child, deadline: Option<Instant>) -> Result<ExitStatus, Cvc5Error> {
    let mut pause = Duration::from_micros(200);
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Ok(status),
            Ok(None) => {}
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(Cvc5Error::Output);
            }
        }
        let now = Instant::now();
        if deadline.is_some_and(|d| now >= d) {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Cvc5Error::Deadline);
        }
        let mut nap = pause;
        if let Some(d) = deadline {
            nap = nap.min(d - now);
        }
        std::thread::sleep(nap);
        pause = (pause * 2).min(Duration::from_millis(20));
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

/// What cvc5 decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Satisfiable, with the values `get-value` asked for, in its order.
    Sat(Vec<SValue>),
    /// Unsatisfiable.
    Unsat,
    /// cvc5 gave up.
    Unknown,
}

/// A value in cvc5's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SValue {
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(wiser_num::Int),
    /// A bit-vector: its width and unsigned value.
    Bv(u32, wiser_num::Int),
}

/// Why cvc5 gave no verdict (the caller asks Z3 instead).
#[derive(Debug)]
pub(crate) enum Cvc5Error {
    /// The executable could not be started.
    Spawn(std::io::Error),
    /// Its output could not be read.
    Output,
    /// The deadline passed first.
    Deadline,
    /// cvc5 reported an error (a symbol it does not know, say).
    Reported,
    /// It ended without a verdict (a crash, a resource limit).
    NoVerdict(ExitStatus),
    /// Its answer was not what the script asks for.
    Malformed,
}

impl std::fmt::Display for Cvc5Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Cvc5Error::Spawn(e) => write!(f, "cvc5 did not start: {e}"),
            Cvc5Error::Output => write!(f, "cvc5's output could not be read"),
            Cvc5Error::Deadline => write!(f, "cvc5 ran out of time"),
            Cvc5Error::Reported => write!(f, "cvc5 reported an error"),
            Cvc5Error::NoVerdict(s) => write!(f, "cvc5 ended without a verdict ({s})"),
            Cvc5Error::Malformed => write!(f, "cvc5's answer was malformed"),
        }
    }
}

/// An s-expression of cvc5's output.
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

/// The verdict in cvc5's output `out`, with `values` values when sat.
fn read_answer(out: &str, values: usize, status: ExitStatus) -> Result<Verdict, Cvc5Error> {
    let sexps = parse_all(out).ok_or(Cvc5Error::Malformed)?;
    let mut it = sexps.iter();
    let verdict = match it.next() {
        None => return Err(Cvc5Error::NoVerdict(status)),
        Some(Sexp::Atom(a)) if a == "sat" => {
            if values == 0 {
                return Ok(Verdict::Sat(Vec::new()));
            }
            let Some(Sexp::List(pairs)) = it.next() else {
                return Err(Cvc5Error::Malformed);
            };
            if pairs.len() != values {
                return Err(Cvc5Error::Malformed);
            }
            let vs = pairs
                .iter()
                .map(|p| match p {
                    Sexp::List(kv) if kv.len() == 2 => value(&kv[1]),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()
                .ok_or(Cvc5Error::Malformed)?;
            Verdict::Sat(vs)
        }
        Some(Sexp::Atom(a)) if a == "unsat" => Verdict::Unsat,
        Some(Sexp::Atom(a)) if a == "unknown" => Verdict::Unknown,
        Some(Sexp::List(l)) if matches!(l.first(), Some(Sexp::Atom(e)) if e == "error") => {
            return Err(Cvc5Error::Reported)
        }
        Some(_) => return Err(Cvc5Error::Malformed),
    };
    Ok(verdict)
}

/// A value as cvc5 prints it: `true`/`false`; `5` or `(- 5)`; `#b0101`,
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

    #[test]
    fn a_missing_executable_is_a_spawn_error() {
        let r = Cvc5::at("/nonexistent/cvc5").check("(check-sat)\n", 0, None);
        assert!(matches!(r, Err(Cvc5Error::Spawn(_))), "{r:?}");
    }
}
