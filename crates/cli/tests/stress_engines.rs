//! Liveness of every engine besides plain `check` (which `stress.rs`
//! covers), on the real binary: `bmc`, `fuzz`, `concolic`, `prove`,
//! `verify` (the portfolio of check, bmc and prove) and `check --merge joins`, each run with tight time and memory limits and
//! SIGINT or SIGTERM at random moments. Every run must end within its
//! limit (or its signal) plus the slack, stay within `--max-memory` plus
//! 10% (the process and its solver processes, sampled every few
//! milliseconds), not die of a signal or a crash, and print a whole JSON
//! report with a `verdict`; the bugs each run found are printed.
//!
//! The schedule is random but seeded, so a failure names the run to
//! repeat. `WISER_STRESS_RUNS` sets the number of runs per engine
//! (default 16; 100 at full size, `WISER_TEST_FULL=1`, as CI runs it).

mod support;

use support::Signal;

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use support::WISER;
use wiser_testkit::Xorshift;

/// The longest a run may take beyond its limit (or its signal): the
/// promise is half a second; the rest is for a loaded test machine (the
/// defects this test was written for ran tens of seconds past).
const SLACK: Duration = Duration::from_millis(2500);

/// A program of the schedule: its name, its source (IMP), the engine
/// arguments it is run with.
struct Program {
    name: &'static str,
    source: &'static str,
}

const PROGRAMS: &[Program] = &[
    // A loop of 60 reads: fuzzing has 2^60 paths, bmc a deep formula.
    Program {
        name: "reads60",
        source: "s = 0; i = 0;\nwhile i < 60 do v: int = *; if v > 0 then s = s + 1 else s = s + 2 fi; i = i + 1 od;\nassert s != 45\n",
    },
    // A loop as long as its input: concolic runs long, bmc unwinds.
    Program {
        name: "long_loop",
        source: "i = 0; s = 0;\nwhile i < n do s = s + i * i; if s == 12345 then fail else skip fi; i = i + 1 od\n",
    },
    // Nonlinear, beyond Z3 in a few milliseconds.
    Program {
        name: "fermat",
        source: "assume x > 1 and y > 1 and z > 1;\nif x * x * x + y * y * y == z * z * z then fail else skip fi\n",
    },
    // A bug at once, then an endless search.
    Program {
        name: "bug_then_forever",
        source: "assert x != 7;\ni = 0;\nwhile i < n do i = i + 1; if i * i == n * k + 3 then skip else skip fi od\n",
    },
    // An input heap (bmc, check with a large --max-objects).
    Program {
        name: "list_reverse",
        source: "class Node begin val: int; next: Node end\nvar head: Node;\nn = 0; p = head;\nwhile p != null do p = p.next; n = n + 1 od;\nvar r: Node = null; p = head;\nwhile p != null do q = p.next; p.next = r; r = p; p = q od;\nm = 0; p = r;\nwhile p != null do p = p.next; m = m + 1 od;\nassert m == n\n",
    },
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Engine {
    Bmc,
    Fuzz,
    Concolic,
    MergeJoins,
    Prove,
    Verify,
}

/// One run of the schedule.
#[derive(Debug)]
struct Run {
    engine: Engine,
    program: usize,
    timeout_s: f64,
    max_memory_mb: u64,
    signal: Signal,
    /// An engine-specific size: bmc's bound, concolic's `n`, check's
    /// `--max-objects`.
    size: u64,
}

fn schedule(engine: Engine, n: usize, seed: u64) -> Vec<Run> {
    let mut rng = Xorshift(seed);
    (0..n)
        .map(|_| {
            // Not before 200 ms: a signal that comes before `wiser` has
            // installed its handler (the first thing it does, within
            // milliseconds of starting) ends it as usual, with no report.
            let signal = Signal::random(&mut rng, 200);
            Run {
                engine,
                program: rng.below(PROGRAMS.len() as u64) as usize,
                timeout_s: 0.3 + rng.below(8) as f64 / 10.0,
                max_memory_mb: 150 + rng.below(250),
                signal,
                size: [3, 30, 1000, 100_000, 4_294_967_295][rng.below(5) as usize],
            }
        })
        .collect()
}

fn write_programs() -> Vec<PathBuf> {
    let dir = std::env::temp_dir().join(format!("wiser-stress-engines-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    PROGRAMS
        .iter()
        .map(|p| {
            let path = dir.join(format!("{}.imp", p.name));
            std::fs::File::create(&path)
                .unwrap()
                .write_all(p.source.as_bytes())
                .unwrap();
            path
        })
        .collect()
}

/// The command line of `run` on `file`.
fn command(run: &Run, file: &Path) -> Command {
    let mut cmd = Command::new(WISER);
    let timeout = run.timeout_s.to_string();
    let memory = run.max_memory_mb.to_string();
    let size = run.size.to_string();
    match run.engine {
        Engine::Bmc => {
            let unwind = run.size.min(200).to_string();
            cmd.arg("bmc")
                .arg(file)
                .args(["--unwind", &unwind, "--max-objects", &size]);
        }
        Engine::Fuzz => {
            cmd.arg("fuzz").arg(file).args(["--all", "--jobs", "2"]);
        }
        Engine::Concolic => {
            cmd.arg("concolic")
                .arg(file)
                .args(["--max-steps", "100000000"]);
            // The loops run as long as `n`.
            if PROGRAMS[run.program].source.contains("i < n") {
                cmd.args(["-i", &format!("n={size}")]);
            }
        }
        Engine::MergeJoins => {
            cmd.arg("check")
                .arg(file)
                .args(["--merge", "joins", "--all", "--max-objects", &size])
                .args(["--max-states", "100000000"]);
        }
        Engine::Prove => {
            cmd.arg("prove").arg(file);
        }
        Engine::Verify => {
            cmd.arg("verify")
                .arg(file)
                .args(["--max-objects", &size, "--jobs", "2"]);
        }
    }
    cmd.args([
        "--format",
        "json",
        "--timeout",
        &timeout,
        "--max-memory",
        &memory,
    ]);
    if run.engine != Engine::Concolic {
        cmd.arg("--quiet");
    }
    cmd
}

/// The resident memory of `pid` and its child processes (the solvers),
/// in bytes; 0 for what cannot be read (a process that just ended).
fn tree_bytes(pid: u32) -> u64 {
    let rss = |pid: &str| -> u64 {
        std::fs::read_to_string(format!("/proc/{pid}/status"))
            .ok()
            .and_then(|s| {
                let line = s.lines().find(|l| l.starts_with("VmRSS:"))?.to_owned();
                line.split_whitespace().nth(1)?.parse::<u64>().ok()
            })
            .map_or(0, |kb| kb * 1024)
    };
    let mut total = rss(&pid.to_string());
    if let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) {
        for task in tasks.flatten() {
            let children =
                std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
            total += children.split_whitespace().map(rss).sum::<u64>();
        }
    }
    total
}

/// Waits for `child` until it ends or `until` (from `start`), sampling
/// its memory; the peak, and whether it ended.
fn wait(child: &mut Child, start: Instant, until: Duration) -> (u64, bool) {
    let mut peak = 0;
    loop {
        if matches!(child.try_wait(), Ok(Some(_))) {
            return (peak, true);
        }
        if start.elapsed() > until {
            return (peak, false);
        }
        peak = peak.max(tree_bytes(child.id()));
        std::thread::sleep(Duration::from_millis(3));
    }
}

/// What one run of the binary did.
struct Ended {
    json: Value,
    took: Duration,
    peak: u64,
}

/// Runs `cmd`, sends `signal` if it is still running then, and checks
/// that it ends within `limit` (or its signal) plus [`SLACK`], within
/// `max_memory_mb` plus 10%, not by a signal, with a whole JSON report
/// that has a verdict.
fn measure(
    what: &str,
    mut cmd: Command,
    limit: Duration,
    max_memory_mb: u64,
    signal: &Signal,
) -> Result<Ended, String> {
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let start = Instant::now();
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start wiser: {e}"))?;
    let signal = signal.kill();
    let ends_by = signal.map_or(limit, |(_, after)| after.min(limit));
    // Reports can be long (a concolic run's): a thread drains stdout.
    let stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut { stdout }, &mut s);
        s
    });
    let mut peak = 0;
    if let Some((sig, after)) = signal {
        let (p, ended) = wait(&mut child, start, after);
        peak = p;
        if !ended {
            support::signal_when_ready(child.id(), sig);
        }
    }
    let (p, ended) = wait(&mut child, start, ends_by + SLACK);
    let took = start.elapsed();
    let peak = peak.max(p);
    if !ended {
        let _ = child.kill();
        let _ = child.wait();
        return Err(format!("{what} did not end within {:?}", ends_by + SLACK));
    }
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    let stdout = reader.join().unwrap_or_default();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let Some(code) = out.status.code() else {
        // `wiser` installs its signal handler first thing, and a signal
        // that comes before the run makes the run start stopped: the one
        // signal sent can never kill it.
        return Err(format!(
            "{what} died of a signal ({:?}) after {took:?}; stderr: {stderr}",
            out.status
        ));
    };
    let bound = max_memory_mb * (1 << 20) * 11 / 10;
    if peak > bound {
        return Err(format!(
            "{what} used {} MiB, over --max-memory {max_memory_mb} + 10%",
            peak >> 20
        ));
    }
    let json: Value = serde_json::from_str(stdout.trim()).map_err(|e| {
        let head: String = stdout.chars().take(300).collect();
        format!("{what} (exit {code}): the report is not whole JSON ({e}): {head:?} {stderr}")
    })?;
    if !matches!(json["verdict"].as_str(), Some("bug" | "safe" | "unknown")) {
        let head: String = stdout.chars().take(600).collect();
        return Err(format!(
            "{what} (exit {code}): no verdict in the report: {head} {stderr}"
        ));
    }
    Ok(Ended { json, took, peak })
}

/// The kinds of the bugs of a report.
fn bugs(json: &Value) -> Vec<String> {
    json["bugs"]
        .as_array()
        .map(|b| b.iter().map(|b| b["kind"].to_string()).collect())
        .or_else(|| {
            json["bug"]
                .is_object()
                .then(|| vec![json["bug"]["kind"].to_string()])
        })
        .unwrap_or_default()
}

/// Runs one run; `Ok` with a line on what it found.
fn execute(i: usize, run: &Run, file: &Path) -> Result<String, String> {
    let what = format!("run {i} {run:?}");
    let limit = Duration::from_secs_f64(run.timeout_s);
    let ended = measure(
        &what,
        command(run, file),
        limit,
        run.max_memory_mb,
        &run.signal,
    )?;
    let verdict = ended.json["verdict"].as_str().unwrap_or("");
    // The engines that may say `safe` (fuzzing and concolic runs never do).
    let may_prove = matches!(
        run.engine,
        Engine::MergeJoins | Engine::Bmc | Engine::Prove | Engine::Verify
    );
    if !may_prove && verdict == "safe" {
        return Err(format!("{what}: {:?} says safe", run.engine));
    }
    Ok(format!(
        "run {i} {:?} {}: {verdict} in {:?} ({} MiB), bugs {:?}",
        run.engine,
        PROGRAMS[run.program].name,
        ended.took,
        ended.peak >> 20,
        bugs(&ended.json)
    ))
}

fn stress(engine: Engine, seed: u64) {
    let runs: usize = std::env::var("WISER_STRESS_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(wiser_testkit::sized(16, 100));
    let files = write_programs();
    let plan = schedule(engine, runs, seed);
    let mut failures = Vec::new();
    for (i, run) in plan.iter().enumerate() {
        match execute(i, run, &files[run.program]) {
            Ok(line) => println!("{line}"),
            Err(e) => failures.push(e),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {runs} runs failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn bmc_ends_on_time_within_its_memory() {
    stress(Engine::Bmc, 0x0b3c_0001_5eed_0001);
}

#[test]
fn fuzz_ends_on_time_within_its_memory() {
    stress(Engine::Fuzz, 0x0f22_0002_5eed_0002);
}

#[test]
fn concolic_ends_on_time_within_its_memory() {
    stress(Engine::Concolic, 0x0c0c_0003_5eed_0003);
}

#[test]
fn prove_ends_on_time_within_its_memory() {
    stress(Engine::Prove, 0x9a0e_0005_5eed_0005);
}

#[test]
fn verify_ends_on_time_within_its_memory() {
    stress(Engine::Verify, 0x7e21_0006_5eed_0006);
}

#[test]
fn check_merging_joins_ends_on_time_within_its_memory() {
    stress(Engine::MergeJoins, 0x3e26_0004_5eed_0004);
}

/// Writes `source` to a file named `name` and returns its path.
fn write(name: &str, source: &str) -> PathBuf {
    support::scratch_file("stress-examples", name, source)
}

/// One of the commands that ran past their limits before the run layer.
fn ends_on_time(args: &[&str], limit_s: f64, max_memory_mb: u64, signal: Signal) {
    let mut cmd = Command::new(WISER);
    cmd.args(args).args(["--format", "json"]);
    let what = args.join(" ");
    let limit = Duration::from_secs_f64(limit_s);
    match measure(&what, cmd, limit, max_memory_mb, &signal) {
        Ok(e) => println!(
            "{what}: {} in {:?} ({} MiB), bugs {:?}",
            e.json["verdict"],
            e.took,
            e.peak >> 20,
            bugs(&e.json)
        ),
        Err(e) => panic!("{e}"),
    }
}

/// SV-COMP's recursive Ackermann task, as its `Ackermann0N.c` writes it.
const ACKERMANN: &str = "extern int __VERIFIER_nondet_int(void);\n\
extern void abort(void);\n\
void reach_error(void) { abort(); }\n\
int ackermann(int m, int n) {\n\
  if (m == 0) return n + 1;\n\
  if (n == 0) return ackermann(m - 1, 1);\n\
  return ackermann(m - 1, ackermann(m, n - 1));\n\
}\n\
int main(void) {\n\
  int m = __VERIFIER_nondet_int();\n\
  if (m < 0 || m > 3) return 0;\n\
  int n = __VERIFIER_nondet_int();\n\
  if (n < 0 || n > 23) return 0;\n\
  int result = ackermann(m, n);\n\
  if (m < 2 || result >= 4) return 0;\n\
  reach_error();\n\
  return 0;\n\
}\n";

#[test]
fn bmc_on_recursive_ackermann_ends_at_its_time_limit_and_on_sigint() {
    let file = write("ackermann.c", ACKERMANN);
    let file = file.to_str().unwrap();
    let args = ["bmc", file, "--unwind", "6", "--timeout", "3", "--quiet"];
    ends_on_time(&args, 3.0, 4096, Signal::None);
    ends_on_time(&args, 3.0, 4096, Signal::Int(Duration::from_millis(1500)));
}

#[test]
fn bmc_on_a_large_input_heap_ends_at_its_time_and_memory_limits() {
    let file = support::example("list_reverse.imp");
    let file = file.to_str().unwrap();
    let args = [
        "bmc",
        file,
        "--max-objects",
        "10000",
        "--timeout",
        "3",
        "--quiet",
    ];
    ends_on_time(&args, 3.0, 4096, Signal::None);
    let args = [
        "bmc",
        file,
        "--max-objects",
        "4294967295",
        "--max-memory",
        "200",
        "--quiet",
    ];
    ends_on_time(&args, 60.0, 200, Signal::None);
}

#[test]
fn check_on_a_large_input_heap_ends_at_its_memory_limit() {
    let file = support::example("list_reverse.imp");
    let file = file.to_str().unwrap();
    let args = [
        "check",
        file,
        "--max-objects",
        "4294967295",
        "--max-memory",
        "200",
        "--quiet",
    ];
    ends_on_time(&args, 60.0, 200, Signal::None);
}

/// A loop of 60 reads: 2^60 paths.
const READS60: &str = "s = 0; i = 0;\nwhile i < 60 do v: int = *; if v > 0 then s = s + 1 else s = s + 2 fi; i = i + 1 od;\nassert s != 45\n";

#[test]
fn fuzz_on_a_loop_of_60_reads_ends_at_its_time_limit_and_on_sigint() {
    let file = write("reads60.imp", READS60);
    let file = file.to_str().unwrap();
    ends_on_time(
        &["fuzz", file, "--timeout", "2", "--quiet"],
        2.0,
        4096,
        Signal::None,
    );
    let args = ["fuzz", file, "--timeout", "60", "--quiet"];
    ends_on_time(&args, 60.0, 4096, Signal::Int(Duration::from_millis(1000)));
}

#[test]
fn concolic_on_a_long_loop_ends_on_sigint_with_its_report_and_keeps_its_memory() {
    let file = write("long_loop.imp", PROGRAMS[1].source);
    let file = file.to_str().unwrap();
    let args = [
        "concolic",
        file,
        "-i",
        "n=4000000000",
        "--max-steps",
        "4000000000",
    ];
    let interrupted = [&args[..], &["--timeout", "60"]].concat();
    ends_on_time(
        &interrupted,
        60.0,
        4096,
        Signal::Int(Duration::from_millis(1000)),
    );
    let bounded = [&args[..], &["--timeout", "60", "--max-memory", "200"]].concat();
    ends_on_time(&bounded, 60.0, 200, Signal::None);
}
