//! The one module that knows Bitwuzla: finding a Python that has its
//! bindings and how to run it on an SMT-LIB script with a deadline
//! (`smtlib_process.rs` runs it and reads its answer).
//!
//! Bitwuzla (Niemetz and Preiner) decides the satisfiable float queries of
//! SV-COMP's `floats-cdfpl` tasks in seconds where cvc5 1.0.3 takes tens
//! of seconds and Z3 4.8.12 more than a minute (docs/C.md has the
//! numbers), so [`crate::Z3Solver`] asks it first the queries with float
//! operations, then cvc5, then Z3. Debian has no package of it; PyPI's
//! `bitwuzla` wheel carries the library with its Python bindings, so it
//! runs as `python3 -c SHIM`: the shim hands the script to Bitwuzla's own
//! SMT-LIB parser, which executes it and prints the answers as Bitwuzla's
//! command line does. One process per query, killed at the deadline; the
//! deadline is also Bitwuzla's own time limit per check, so that it stops
//! by itself should our process be killed first.

use crate::smtlib_process::{configured, run, time_left, ExternalError, Verdict};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

/// The program Python runs: Bitwuzla's parser executes the script read
/// on standard input (models on, for `get-value`), with the time limit
/// in milliseconds given as its argument.
const SHIM: &str = r#"
import sys
import bitwuzla as b
o = b.Options()
o.set(b.Option.PRODUCE_MODELS, True)
if len(sys.argv) > 1:
    o.set(b.Option.TIME_LIMIT_PER, int(sys.argv[1]))
b.Parser(b.TermManager(), o).parse(sys.stdin.read(), False, False)
"#;

/// Bitwuzla, through a Python interpreter that has its bindings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bitwuzla {
    python: PathBuf,
}

impl Bitwuzla {
    /// Bitwuzla through the Python at `python` (not checked until a query
    /// needs it: a Python without the `bitwuzla` module makes every query
    /// go on to the next solver).
    pub fn with_python(python: impl Into<PathBuf>) -> Bitwuzla {
        Bitwuzla {
            python: python.into(),
        }
    }

    /// The Bitwuzla this process uses by default: `WISER_BITWUZLA=PYTHON`
    /// names the Python interpreter that has the `bitwuzla` module (from
    /// `pip install bitwuzla`), `WISER_BITWUZLA=off` (or empty) turns it
    /// off; otherwise `python3` on the `PATH`. Whether that Python has
    /// the module is found out at the first float query, once per process,
    /// so that programs without floats never start Python.
    pub fn from_env() -> Option<Bitwuzla> {
        static FOUND: OnceLock<Option<Bitwuzla>> = OnceLock::new();
        FOUND
            .get_or_init(|| configured("WISER_BITWUZLA", "python3").map(Bitwuzla::with_python))
            .clone()
    }

    /// The Python interpreter it was given.
    pub fn python(&self) -> &Path {
        &self.python
    }

    /// The interpreter's own executable when it has the `bitwuzla`
    /// module, else `None`; asked once per interpreter and process. (The
    /// executable, not the name given: a `python3` on the `PATH` may be a
    /// launcher script that costs more to start than Bitwuzla's answer.)
    pub(crate) fn executable(&self) -> Option<PathBuf> {
        static PROBED: OnceLock<Mutex<HashMap<PathBuf, Option<PathBuf>>>> = OnceLock::new();
        let probed = PROBED.get_or_init(Mutex::default);
        let mut probed = probed.lock().unwrap_or_else(|e| e.into_inner());
        probed
            .entry(self.python.clone())
            .or_insert_with(|| probe(&self.python))
            .clone()
    }

    /// Runs `script` (which must end with `(check-sat)` and, for a
    /// satisfiable query to give values, one `(get-value ...)` asking for
    /// `values` terms), stopping Bitwuzla at `deadline` or when `stop` is set.
    pub(crate) fn check(
        &self,
        script: &str,
        values: usize,
        deadline: Option<Instant>,
        stop: &AtomicBool,
    ) -> Result<Verdict, ExternalError> {
        let python = self.executable().ok_or_else(|| {
            ExternalError::Spawn(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("{} has no `bitwuzla` module", self.python.display()),
            ))
        })?;
        let mut cmd = Command::new(python);
        cmd.arg("-c").arg(SHIM);
        if let Some(left) = time_left(deadline)? {
            cmd.arg(left.as_millis().max(1).to_string());
        }
        run(cmd, script, values, deadline, stop)
    }
}

/// `python`'s executable if it imports `bitwuzla`.
fn probe(python: &Path) -> Option<PathBuf> {
    let out = Command::new(python)
        .args(["-c", "import sys, bitwuzla; print(sys.executable)"])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let exe = String::from_utf8(out.stdout).ok()?;
    let exe = exe.trim();
    Some(if exe.is_empty() {
        python.to_path_buf()
    } else {
        PathBuf::from(exe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_python_that_does_not_run_is_no_bitwuzla() {
        let b = Bitwuzla::with_python("/nonexistent/python3");
        assert_eq!(b.executable(), None);
        let r = b.check("(check-sat)\n", 0, None, &AtomicBool::new(false));
        assert!(matches!(r, Err(ExternalError::Spawn(_))), "{r:?}");
    }
}
