//! One solver process, seen from the parent: how it is started (its own
//! process group, deaf to Ctrl-C and SIGTERM, killed with its parent,
//! within a memory limit), frames written to and read from its pipes
//! without ever blocking past a deadline, and how it is stopped.
//!
//! Each child is entered in the run's registry ([`SolverProcesses`]) while
//! it may be signalled: it leaves the registry before it is reaped, so
//! that `kill_all` can never signal a pid the kernel has given to another
//! process.

use crate::process::{Command, SolverProcesses};
use crate::protocol;
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::{ChildStdin, ChildStdout, ExitStatus, Stdio};
use std::time::Instant;

/// Why a read or write did not complete.
pub(crate) enum Stop {
    /// The deadline passed.
    TimedOut,
    /// The child closed its pipe (it ended, or was killed).
    Closed,
    /// Another I/O error.
    Io(io::Error),
    /// The child sent something unreadable.
    Protocol(protocol::ProtocolError),
}

impl From<io::Error> for Stop {
    fn from(e: io::Error) -> Stop {
        Stop::Io(e)
    }
}

/// A running solver process.
pub(crate) struct ChildProcess {
    child: std::process::Child,
    stdin: ChildStdin,
    stdout: ChildStdout,
    /// Bytes read but not yet taken as a frame.
    inbox: Vec<u8>,
    registry: SolverProcesses,
    /// Set once the child is killed and reaped.
    status: Option<Option<ExitStatus>>,
}

impl ChildProcess {
    /// Starts `command` and enters it in `registry`. Fails if it cannot be
    /// started, or if the run is over.
    pub fn spawn(command: &Command, registry: &SolverProcesses) -> Result<ChildProcess, String> {
        let mut cmd = std::process::Command::new(&command.program);
        cmd.args(&command.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let parent = std::process::id();
        let limit = command.memory_limit;
        // SAFETY: the closure runs in the forked child before exec and
        // makes only async-signal-safe calls (see `set_up_child`); it
        // allocates nothing and touches no lock.
        unsafe {
            cmd.pre_exec(move || set_up_child(parent, limit));
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("could not start the solver process: {e}"))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("the solver process has no pipes".into());
        };
        if !registry.register(child.id()) {
            let _ = child.kill();
            let _ = child.wait();
            return Err(crate::process::RUN_OVER.into());
        }
        let mut process = ChildProcess {
            child,
            stdin,
            stdout,
            inbox: Vec::new(),
            registry: registry.clone(),
            status: None,
        };
        // Non-blocking on our side only (each pipe end is its own open
        // file description): a write or read then never outlives a
        // deadline, since `poll` does the waiting.
        for fd in [process.stdin.as_raw_fd(), process.stdout.as_raw_fd()] {
            if let Err(e) = set_nonblocking(fd) {
                process.stop();
                return Err(format!("could not set up the solver process's pipes: {e}"));
            }
        }
        Ok(process)
    }

    /// Has the child ended, or said something unasked? Checked before a
    /// query, so that a child that died while idle is replaced instead
    /// of costing the query an `unknown`.
    pub fn is_idle_and_alive(&self) -> bool {
        let mut pfd = libc::pollfd {
            fd: self.stdout.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid `pollfd` on the stack, for an open descriptor;
        // a zero timeout does not wait.
        let r = unsafe { libc::poll(&mut pfd, 1, 0) };
        r == 0 && self.inbox.is_empty()
    }

    /// Writes all of `data` to the child's input by `until`.
    pub fn write_all(&mut self, data: &[u8], until: Option<Instant>) -> Result<(), Stop> {
        let mut done = 0;
        while done < data.len() {
            match self.stdin.write(&data[done..]) {
                Ok(0) => return Err(Stop::Closed),
                Ok(n) => done += n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    if !wait_for(self.stdin.as_raw_fd(), libc::POLLOUT, until)? {
                        return Err(Stop::TimedOut);
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Err(Stop::Closed),
                Err(e) => return Err(Stop::Io(e)),
            }
        }
        Ok(())
    }

    /// Reads the next frame's body from the child's output by `until`.
    pub fn read_frame(&mut self, until: Option<Instant>) -> Result<Vec<u8>, Stop> {
        let mut chunk = [0u8; 1 << 16];
        loop {
            if let Some(n) = protocol::frame_len(&self.inbox).map_err(Stop::Protocol)? {
                if self.inbox.len() >= n {
                    let body = self.inbox[4..n].to_vec();
                    self.inbox.drain(..n);
                    return Ok(body);
                }
            }
            match self.stdout.read(&mut chunk) {
                Ok(0) => return Err(Stop::Closed),
                Ok(n) => self.inbox.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    if !wait_for(self.stdout.as_raw_fd(), libc::POLLIN, until)? {
                        return Err(Stop::TimedOut);
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Stop::Io(e)),
            }
        }
    }

    /// Kills the child (SIGKILL) and reaps it; returns how it ended, if
    /// known. Idempotent.
    pub fn stop(&mut self) -> Option<ExitStatus> {
        if let Some(status) = self.status {
            return status;
        }
        // Out of the registry first: once reaped, its pid may be reused.
        self.registry.deregister(self.child.id());
        // Harmless if it has ended already: it stays a zombie, its pid
        // reserved, until the wait below.
        let _ = self.child.kill();
        let status = self.child.wait().ok();
        self.status = Some(status);
        status
    }
}

impl Drop for ChildProcess {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Runs in the child between fork and exec: only async-signal-safe calls.
fn set_up_child(parent: u32, memory_limit: Option<u64>) -> io::Result<()> {
    // SAFETY: each call is async-signal-safe and takes only plain values
    // or a pointer to a local: setpgid, signal (sigaction), prctl,
    // getppid, setrlimit. `io::Error::last_os_error` reads errno and does
    // not allocate.
    unsafe {
        // Its own process group: a terminal's Ctrl-C goes to the
        // foreground group, the parent's, and the parent decides.
        if libc::setpgid(0, 0) != 0 {
            return Err(io::Error::last_os_error());
        }
        // Ignored dispositions survive exec. The parent ends the child
        // (with SIGKILL) when the run ends.
        libc::signal(libc::SIGINT, libc::SIG_IGN);
        libc::signal(libc::SIGTERM, libc::SIG_IGN);
        // Dies with its parent (strictly: with the thread that forked it).
        if libc::prctl(
            libc::PR_SET_PDEATHSIG,
            libc::SIGKILL as libc::c_ulong,
            0,
            0,
            0,
        ) != 0
        {
            return Err(io::Error::last_os_error());
        }
        // The parent may have died before the line above: the signal
        // would then never come.
        if libc::getppid() as u32 != parent {
            return Err(io::Error::from_raw_os_error(libc::ESRCH));
        }
        if let Some(bytes) = memory_limit {
            let limit = libc::rlimit {
                rlim_cur: bytes as libc::rlim_t,
                rlim_max: bytes as libc::rlim_t,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(io::Error::last_os_error());
            }
        }
    }
    Ok(())
}

fn set_nonblocking(fd: RawFd) -> io::Result<()> {
    // SAFETY: `fd` is an open descriptor owned by the caller; F_GETFL and
    // F_SETFL only read and set its status flags.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Waits until `fd` is ready for `events` (or closed, or in error: the
/// next read or write says which), or `until` passes. `Ok(false)` when it
/// passed.
fn wait_for(fd: RawFd, events: libc::c_short, until: Option<Instant>) -> io::Result<bool> {
    loop {
        let timeout = match until {
            None => -1,
            Some(t) => {
                let left = t.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Ok(false);
                }
                // Rounded up, so that the wait never ends early.
                left.as_micros().div_ceil(1000).min(i32::MAX as u128) as libc::c_int
            }
        };
        let mut pfd = libc::pollfd {
            fd,
            events,
            revents: 0,
        };
        // SAFETY: one valid `pollfd` on the stack, for an open descriptor.
        let r = unsafe { libc::poll(&mut pfd, 1, timeout) };
        match r {
            0 => {}
            r if r > 0 => return Ok(true),
            _ => {
                let e = io::Error::last_os_error();
                if e.kind() != io::ErrorKind::Interrupted {
                    return Err(e);
                }
            }
        }
    }
}

/// The resident memory of process `pid`, in bytes (0 if unknown).
pub(crate) fn resident_bytes(pid: u32) -> u64 {
    let Ok(statm) = std::fs::read_to_string(format!("/proc/{pid}/statm")) else {
        return 0;
    };
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    // SAFETY: sysconf only reads a system constant.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    pages.saturating_mul(u64::try_from(page).unwrap_or(4096))
}
