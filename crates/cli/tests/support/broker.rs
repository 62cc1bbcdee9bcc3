//! A real Redis server and `wiser worker` processes for the tests of
//! distributed runs: each test starts its own server on a free port (no
//! persistence), and everything it starts is killed when dropped.

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A Redis server on a port of its own.
pub struct Redis {
    child: Child,
    /// `redis://127.0.0.1:PORT`.
    pub url: String,
}

impl Redis {
    /// Starts one; `None` (with a note) where `redis-server` is missing
    /// off CI (see `wiser_testkit::external_tool`).
    pub fn start() -> Option<Redis> {
        if !wiser_testkit::external_tool("redis-server") {
            return None;
        }
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("cannot start redis-server");
        let redis = Redis {
            child,
            url: format!("redis://127.0.0.1:{port}"),
        };
        let until = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < until, "redis-server did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
        Some(redis)
    }

    /// Starts `wiser worker` named `name` on this broker, with a lease of
    /// one second, exiting after 30 s with nothing to do.
    pub fn worker(&self, name: &str) -> Worker {
        let child = Command::new(super::WISER)
            .args(["worker", "--broker", &self.url, "--name", name])
            .args(["--lease", "1", "--exit-when-idle", "30"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("cannot start wiser worker");
        Worker { child }
    }

    /// `wiser check FILE --broker URL ARGS... --format json`: exit code,
    /// the JSON report, stderr.
    pub fn check(&self, file: &Path, args: &[&str]) -> (i32, serde_json::Value, String) {
        let out = super::command()
            .arg("check")
            .arg(file)
            .args(["--broker", &self.url, "--format", "json"])
            .args(args)
            .output()
            .expect("cannot run wiser");
        let stderr = super::text(&out.stderr);
        (
            out.status.code().unwrap_or(-1),
            super::json_of(&out),
            stderr,
        )
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A `wiser worker` process.
pub struct Worker {
    child: Child,
}

impl Worker {
    /// Kills it with SIGKILL (`kill -9`): it cannot clean up.
    pub fn kill9(&mut self) {
        self.child.kill().expect("cannot kill the worker");
        let _ = self.child.wait();
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
