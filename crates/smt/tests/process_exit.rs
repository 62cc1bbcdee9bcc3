//! Solver processes never outlive their use: none remains (not even as a
//! zombie) after a run, none survives its parent, and signals meant for
//! the parent (Ctrl-C, SIGTERM) leave them alone; a child that dies is
//! replaced.
//!
//! These tests look at this process's children in `/proc`, so they run
//! one at a time (under `SERIAL`), and apart from the other tests of the
//! crate (this is a test binary of its own).
#![cfg(target_os = "linux")]

mod support;

use std::sync::Mutex;
use std::time::{Duration, Instant};
use support::hard_query;
use wiser_smt::{Answer, Command, ProcessSolver, Solver, SolverProcesses, SolverStats, Term};

static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

fn command() -> Command {
    Command {
        program: env!("CARGO_BIN_EXE_wiser-z3-server").into(),
        args: Vec::new(),
        memory_limit: None,
    }
}

fn easy_query() -> Vec<Term> {
    vec![Term::lt(&Term::int(3), &Term::int_var("x"))]
}

/// A process's parent, process group and state, from `/proc/<pid>/stat`.
fn stat(pid: u32) -> Option<(u32, u32, char)> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The name, in parentheses, may contain anything: parse after it.
    let rest = &s[s.rfind(')')? + 2..];
    let mut fields = rest.split_whitespace();
    let state = fields.next()?.chars().next()?;
    let ppid = fields.next()?.parse().ok()?;
    let pgrp = fields.next()?.parse().ok()?;
    Some((ppid, pgrp, state))
}

/// The children of `parent` (zombies included).
fn children_of(parent: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
            continue;
        };
        if stat(pid).is_some_and(|(ppid, ..)| ppid == parent) {
            out.push(pid);
        }
    }
    out
}

/// Waits up to `limit` for `ok` to hold.
fn eventually(limit: Duration, mut ok: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if ok() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    ok()
}

fn restarts(s: &ProcessSolver) -> u64 {
    let mut st = SolverStats::default();
    s.stats(&mut st);
    st.solver_restarts
}

#[test]
fn no_child_remains_after_a_run() {
    let _serial = serial();
    let me = std::process::id();
    let processes = SolverProcesses::new();
    {
        // Children that end every way: killed on time, killed by
        // `kill_all`, and dropped.
        let mut timed = ProcessSolver::new(command(), Some(Duration::from_millis(2)), &processes);
        let mut plain = ProcessSolver::new(command(), None, &processes);
        for _ in 0..5 {
            assert!(matches!(timed.solve(&hard_query()), Answer::Unknown(_)));
            assert!(matches!(plain.solve(&easy_query()), Answer::Sat(_)));
        }
        assert_eq!(children_of(me).len(), 2);
        processes.kill_all();
        // Killed, not yet reaped: their owners reap them.
        assert!(matches!(plain.solve(&easy_query()), Answer::Unknown(_)));
        let _dropped = ProcessSolver::new(command(), None, &processes);
    }
    assert_eq!(children_of(me), Vec::<u32>::new(), "children remain");
}

#[test]
fn signals_for_the_parent_leave_the_child_alone() {
    let _serial = serial();
    let me = std::process::id();
    let processes = SolverProcesses::new();
    let mut s = ProcessSolver::new(command(), None, &processes);
    assert!(matches!(s.solve(&easy_query()), Answer::Sat(_)));
    let kids = children_of(me);
    assert_eq!(kids.len(), 1);
    let child = kids[0];
    let (_, group, _) = stat(child).expect("the child");
    let (_, my_group, _) = stat(me).expect("this process");
    assert_eq!(group, child, "the child leads its own process group");
    assert_ne!(group, my_group);
    for sig in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: signals a live child of this test (not reaped: it is
        // ours, and in use below).
        unsafe {
            libc::kill(child as libc::pid_t, sig);
        }
    }
    std::thread::sleep(Duration::from_millis(50));
    assert!(matches!(s.solve(&easy_query()), Answer::Sat(_)));
    assert_eq!(restarts(&s), 0, "the child did not survive the signals");
}

#[test]
fn a_dead_child_is_replaced() {
    let _serial = serial();
    let me = std::process::id();
    let processes = SolverProcesses::new();
    let mut s = ProcessSolver::new(command(), None, &processes);
    assert!(matches!(s.solve(&easy_query()), Answer::Sat(_)));
    // Killed while idle: the next query goes to a new child.
    let child = children_of(me)[0];
    // SAFETY: signals a live child of this test.
    unsafe {
        libc::kill(child as libc::pid_t, libc::SIGKILL);
    }
    assert!(eventually(Duration::from_secs(1), || stat(child)
        .is_some_and(|(.., st)| st == 'Z')));
    assert!(matches!(s.solve(&easy_query()), Answer::Sat(_)));
    assert_eq!(restarts(&s), 1);
    // Killed during a query: that query is unknown (tried again on a new
    // child, which is killed too), and the next one is answered.
    let child = children_of(me)[0];
    let killer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        // SAFETY: signals a child of this test, which is working on a
        // query that does not end by itself.
        unsafe { libc::kill(child as libc::pid_t, libc::SIGKILL) };
        // Then the replacement, once it has started.
        let next = (0..200).find_map(|_| {
            std::thread::sleep(Duration::from_millis(10));
            children_of(std::process::id())
                .into_iter()
                .find(|&c| c != child)
        });
        if let Some(next) = next {
            std::thread::sleep(Duration::from_millis(300));
            // SAFETY: as above.
            unsafe { libc::kill(next as libc::pid_t, libc::SIGKILL) };
        }
    });
    let answer = s.solve(&hard_query());
    killer.join().unwrap();
    assert!(
        matches!(&answer, Answer::Unknown(why) if why.contains("ended")),
        "{answer:?}"
    );
    assert!(matches!(s.solve(&easy_query()), Answer::Sat(_)));
    assert_eq!(restarts(&s), 3);
}

const ORPHAN: &str = "WISER_SMT_ORPHAN_CHILD";

/// The solver process dies with its parent, even one killed with
/// SIGKILL (which runs no clean-up): the test runs itself again as a
/// parent that waits on a query forever, kills that parent, and watches
/// the solver process go.
#[test]
fn children_die_with_their_parent() {
    if std::env::var_os(ORPHAN).is_some() {
        let processes = SolverProcesses::new();
        let mut s = ProcessSolver::new(command(), None, &processes);
        let answer = s.solve(&hard_query());
        println!("the hard query ended: {answer:?}");
        return;
    }
    let _serial = serial();
    let mut parent = std::process::Command::new(std::env::current_exe().expect("the test binary"))
        .args(["--exact", "children_die_with_their_parent", "--nocapture"])
        .env(ORPHAN, "1")
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("run the test as a parent");
    let mut solver = None;
    assert!(eventually(Duration::from_secs(10), || {
        solver = children_of(parent.id()).first().copied();
        solver.is_some()
    }));
    let solver = solver.expect("a solver process");
    // Let it get to work.
    std::thread::sleep(Duration::from_millis(300));
    assert!(stat(solver).is_some());
    parent.kill().expect("kill the parent");
    parent.wait().expect("reap the parent");
    assert!(
        eventually(Duration::from_secs(2), || stat(solver)
            .is_none_or(|(.., st)| st == 'Z')),
        "the solver process outlived its parent"
    );
}
