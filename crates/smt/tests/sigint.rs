//! Z3 must leave Ctrl-C to the program: by default it installs its own
//! SIGINT handler while a check runs, and the signal then only cancels the
//! check. The test runs itself again as a child that receives SIGINT
//! during a long check; the child must die of the signal.
#![cfg(unix)]

mod support;

use std::os::unix::process::ExitStatusExt;
use std::process::Command;
use std::time::Duration;
use support::hard_query;
use wiser_smt::{Solver, Z3Solver};

const CHILD: &str = "WISER_SMT_SIGINT_CHILD";

#[test]
fn ctrl_c_reaches_the_program_during_a_check() {
    if std::env::var_os(CHILD).is_some() {
        // SIGINT's default action, whatever this process inherited: a
        // shell starts a background job with SIGINT ignored, and an
        // ignored signal stays ignored across `exec`, which would keep the
        // child alive without Z3 having anything to do with it.
        // SAFETY: `signal` with the default action installs no handler,
        // and nothing else in this child changes SIGINT's disposition.
        unsafe {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
        }
        let pid = std::process::id().to_string();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            let _ = Command::new("kill").args(["-INT", &pid]).status();
        });
        // Past the signal: only Z3's handler would let the check return.
        // The query (Fermat's cubes) is never decided, so the check lasts
        // its whole time limit: a long one, so that on a loaded machine
        // the check cannot end by its time limit before `kill` runs.
        let mut z3 = Z3Solver::new(Some(Duration::from_secs(60)));
        let answer = z3.solve(&hard_query());
        println!("the check survived SIGINT: {answer:?}");
        return;
    }
    let status = Command::new(std::env::current_exe().expect("the test binary"))
        .args([
            "--exact",
            "ctrl_c_reaches_the_program_during_a_check",
            "--nocapture",
        ])
        .env(CHILD, "1")
        .output()
        .expect("run the child");
    assert_eq!(
        status.status.signal(),
        Some(2),
        "the child was not killed by SIGINT: {status:?}"
    );
}
