//! Running a check, a bounded model check, a concolic run or a fuzzing session with interrupt handling and, on a
//! terminal, a progress line on stderr.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use wiser_engine::concolic::{self, FuzzLimits};
use wiser_engine::{Bmc, Config, Monitor, Report};
use wiser_ir::Ir;
use wiser_semantics::Input;

/// Runs the check. Ctrl-C, SIGTERM and SIGHUP end it with the bugs found
/// so far (the report says `interrupted`); a second one ends the process
/// at once, as usual.
pub fn check(ir: Arc<Ir>, config: &Config, quiet: bool) -> Report {
    supervised(quiet, check_line, |monitor| {
        wiser_engine::check_monitored(ir, config, monitor)
    })
}

/// Bounded model checking, with the same interrupt handling and progress
/// line as `check`.
pub fn bmc(ir: Arc<Ir>, config: &Config, bounds: &Bmc, quiet: bool) -> Report {
    supervised(quiet, check_line, |monitor| {
        wiser_engine::bmc(ir, config, bounds, monitor)
    })
}

/// Fuzzes, with the same interrupt handling and progress line as `check`.
pub fn fuzz(ir: Arc<Ir>, seed: Input, config: &Config, limits: FuzzLimits, quiet: bool) -> Report {
    supervised(quiet, fuzz_line, |monitor| {
        concolic::fuzz(ir, seed, config, limits, monitor)
    })
}

/// A concolic run and its flips, with the same interrupt handling as
/// `check` (no progress line: one path).
pub fn concolic(ir: Arc<Ir>, input: &Input, config: &Config, max_steps: u64) -> Report {
    supervised(true, fuzz_line, |monitor| {
        concolic::concolic(ir, input, config, max_steps, monitor)
    })
}

/// Runs `work` with a monitor whose interrupt switch Ctrl-C, SIGTERM and
/// SIGHUP set, painting `line` on a terminal meanwhile.
fn supervised<R>(
    quiet: bool,
    line: fn(&Monitor, Duration) -> String,
    work: impl FnOnce(Arc<Monitor>) -> R,
) -> R {
    let monitor = Arc::new(Monitor::new());
    let handler_monitor = monitor.clone();
    // Failing to install the handler only loses the graceful stop.
    let _ = ctrlc::set_handler(move || {
        if handler_monitor.interrupt.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    let show = !quiet && std::io::stderr().is_terminal();
    let done = Arc::new(AtomicBool::new(false));
    let painter = show.then(|| {
        let (monitor, done) = (monitor.clone(), done.clone());
        std::thread::spawn(move || paint(&monitor, &done, line))
    });
    let result = work(monitor);
    done.store(true, Ordering::SeqCst);
    if let Some(p) = painter {
        let _ = p.join();
    }
    result
}

fn check_line(monitor: &Monitor, elapsed: Duration) -> String {
    let states = monitor.states.load(Ordering::Relaxed);
    format!(
        "{states} states ({}/s), frontier {}, {} bugs, {} solver queries",
        rate(states, elapsed),
        monitor.pending.load(Ordering::Relaxed),
        monitor.bugs.load(Ordering::Relaxed),
        monitor.solver_queries.load(Ordering::Relaxed),
    )
}

/// States per second, rounded to what a person reads: `1.2M`, `35k`, `870`.
fn rate(count: u64, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    if secs <= 0.0 {
        return "-".into();
    }
    let r = count as f64 / secs;
    if r >= 1e6 {
        format!("{:.1}M", r / 1e6)
    } else if r >= 1e4 {
        format!("{:.0}k", r / 1e3)
    } else {
        format!("{r:.0}")
    }
}

fn fuzz_line(monitor: &Monitor, _elapsed: Duration) -> String {
    format!(
        "{} runs, {} bugs",
        monitor.states.load(Ordering::Relaxed),
        monitor.bugs.load(Ordering::Relaxed),
    )
}

fn paint(monitor: &Monitor, done: &AtomicBool, line: fn(&Monitor, Duration) -> String) {
    let start = std::time::Instant::now();
    // Short runs finish before anything is drawn.
    std::thread::sleep(Duration::from_millis(300));
    if done.load(Ordering::SeqCst) {
        return;
    }
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {elapsed} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    while !done.load(Ordering::SeqCst) {
        bar.set_message(line(monitor, start.elapsed()));
        bar.tick();
        std::thread::sleep(Duration::from_millis(100));
    }
    bar.finish_and_clear();
}

#[cfg(test)]
mod tests {
    use super::rate;
    use std::time::Duration;

    #[test]
    fn rates_read_as_people_say_them() {
        assert_eq!(rate(3_000_000, Duration::from_secs(2)), "1.5M");
        assert_eq!(rate(70_000, Duration::from_secs(2)), "35k");
        assert_eq!(rate(870, Duration::from_secs(1)), "870");
        assert_eq!(rate(5, Duration::ZERO), "-");
    }
}
