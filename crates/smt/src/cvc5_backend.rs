//! The one module that knows cvc5: finding its executable and how to run
//! it on an SMT-LIB script with a deadline (`smtlib_process.rs` runs it
//! and reads its answer).
//!
//! cvc5 decides floating-point queries several times faster than Z3 4.8.12
//! (see docs/C.md), so [`crate::Z3Solver`] asks it the queries that
//! contain float operations (after Bitwuzla, when there is one), and goes
//! on with Z3 on anything else cvc5 says (an error, `unknown`, no answer
//! by the deadline). The script is the SMT-LIB rendering of the Z3
//! translation (one encoding, several solvers), so this module knows
//! nothing of terms.
//!
//! cvc5 runs as a child process per query, which is killed when the
//! deadline passes. It also gets the deadline as `--tlimit`, so that it
//! stops by itself should our own process be killed first (the solver
//! process is, when a query overruns: see `process.rs`).

use crate::smtlib_process::{configured, run, time_left, ExternalError, Verdict};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;
use std::time::Instant;

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
            .get_or_init(|| configured("WISER_CVC5", "cvc5").map(Cvc5::at))
            .clone()
    }

    /// The executable's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `script` (which must end with `(check-sat)` and, for a
    /// satisfiable query to give values, one `(get-value ...)` asking for
    /// `values` terms), stopping cvc5 at `deadline` or when `stop` is set.
    pub(crate) fn check(
        &self,
        script: &str,
        values: usize,
        deadline: Option<Instant>,
        stop: &AtomicBool,
    ) -> Result<Verdict, ExternalError> {
        let mut cmd = Command::new(&self.path);
        cmd.arg("--lang=smt2");
        if let Some(left) = time_left(deadline)? {
            // A safety net only: the kill at the deadline is what keeps
            // it. At least 1 ms: 0 means no limit.
            cmd.arg(format!("--tlimit={}", left.as_millis().max(1)));
        }
        run(cmd, script, values, deadline, stop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_executable_is_a_spawn_error() {
        let r =
            Cvc5::at("/nonexistent/cvc5").check("(check-sat)\n", 0, None, &AtomicBool::new(false));
        assert!(matches!(r, Err(ExternalError::Spawn(_))), "{r:?}");
    }
}
