//! Running a check, a bounded model check, a concolic run or a fuzzing session with interrupt handling and, on a
//! terminal, a progress line on stderr.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use wiser_engine::concolic::{self, FuzzLimits};
use wiser_engine::{Bmc, Config, Member, Monitor, PortfolioRun, ProveOptions, Report};
use wiser_ir::Ir;
use wiser_semantics::Input;

/// Where Ctrl-C, SIGTERM and SIGHUP go. Signals belong to the whole
/// process and `ctrlc` takes one handler per process, so `main` installs
/// it once, first thing, and hands this value to every command: the run
/// in progress (an engine's, or the interpreter's) is stopped and keeps
/// what it found. For a command that runs an engine
/// ([`Interrupts::expect_runs`]), a signal that comes before its run
/// (while the program loads) makes the run start stopped, so its report,
/// saying `interrupted`, is still printed; otherwise a signal while no
/// run is in progress ends the process at once. A second signal always
/// does (exit code 130), as usual.
#[derive(Clone, Debug, Default)]
pub struct Interrupts(Arc<Mutex<Signalled>>);

/// What the signal handler and the runs share.
#[derive(Debug, Default)]
struct Signalled {
    /// A signal came.
    signalled: bool,
    /// Does the command run an engine, whose report says `interrupted`?
    expecting: bool,
    /// The monitor of the run in progress, if one is.
    run: Option<Arc<Monitor>>,
}

impl Interrupts {
    /// Installs the process's handler. Failing to install it only loses
    /// the graceful stop.
    pub fn install() -> Interrupts {
        // Until the command is known, a signal is kept for its run.
        let interrupts = Interrupts::default();
        interrupts.lock().expecting = true;
        let shared = interrupts.clone();
        let _ = ctrlc::set_handler(move || {
            let mut slot = shared.lock();
            if slot.signalled {
                std::process::exit(130);
            }
            match &slot.run {
                Some(run) => run.interrupt.store(true, Ordering::SeqCst),
                None if slot.expecting => {}
                None => std::process::exit(130),
            }
            slot.signalled = true;
        });
        interrupts
    }

    /// Says whether the command runs an engine: if so, a signal before
    /// its run stops the run at its start; if not, a signal while no run
    /// is in progress ends the process (at once if one already came).
    pub fn expect_runs(&self, runs: bool) {
        let mut slot = self.lock();
        slot.expecting = runs;
        if !runs && slot.signalled && slot.run.is_none() {
            std::process::exit(130);
        }
    }

    fn lock(&self) -> MutexGuard<'_, Signalled> {
        // The handler and the runs only set and read two fields.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `work` with a fresh monitor that the signals stop (at once if
    /// one already came).
    pub fn run<R>(&self, work: impl FnOnce(Arc<Monitor>) -> R) -> R {
        let monitor = Arc::new(Monitor::new());
        {
            let mut slot = self.lock();
            monitor.interrupt.store(slot.signalled, Ordering::SeqCst);
            slot.run = Some(monitor.clone());
        }
        let result = work(monitor);
        self.lock().run = None;
        result
    }
}

/// Runs the check. Ctrl-C, SIGTERM and SIGHUP end it with the bugs found
/// so far (the report says `interrupted`); a second one ends the process
/// at once, as usual.
pub fn check(ir: Arc<Ir>, config: &Config, quiet: bool, signals: &Interrupts) -> Report {
    supervised(quiet, check_line, signals, |monitor| {
        wiser_engine::symex_monitored(ir, config, monitor)
    })
}

/// A distributed run's coordinator, with the same interrupt handling and
/// progress line as `check` (states as the workers' results report them).
pub fn distributed<R>(
    quiet: bool,
    signals: &Interrupts,
    work: impl FnOnce(Arc<Monitor>) -> R,
) -> R {
    supervised(quiet, check_line, signals, work)
}

/// Bounded model checking, with the same interrupt handling and progress
/// line as `check`.
pub fn bmc(
    ir: Arc<Ir>,
    config: &Config,
    bounds: &Bmc,
    quiet: bool,
    signals: &Interrupts,
) -> Report {
    supervised(quiet, check_line, signals, |monitor| {
        wiser_engine::bmc(ir, config, bounds, monitor)
    })
}

/// A proof attempt, with the same interrupt handling and progress line as
/// `check`.
pub fn prove(
    ir: Arc<Ir>,
    config: &Config,
    options: &ProveOptions,
    quiet: bool,
    signals: &Interrupts,
) -> Report {
    supervised(quiet, check_line, signals, |monitor| {
        wiser_engine::prove_with(ir, config, options, monitor)
    })
}

/// The engines side by side (`verify`), with the same interrupt handling
/// and progress line as `check` (the engines' states summed).
pub fn portfolio(
    ir: Arc<Ir>,
    config: &Config,
    members: &[Member],
    quiet: bool,
    signals: &Interrupts,
) -> PortfolioRun {
    supervised(quiet, check_line, signals, |monitor| {
        wiser_engine::portfolio(ir, config, members, monitor)
    })
}

/// Fuzzes, with the same interrupt handling and progress line as `check`.
pub fn fuzz(
    ir: Arc<Ir>,
    seed: Input,
    config: &Config,
    limits: FuzzLimits,
    quiet: bool,
    signals: &Interrupts,
) -> Report {
    supervised(quiet, fuzz_line, signals, |monitor| {
        concolic::fuzz(ir, seed, config, limits, monitor)
    })
}

/// A concolic run and its flips, with the same interrupt handling as
/// `check` (no progress line: one path).
pub fn concolic(
    ir: Arc<Ir>,
    input: &Input,
    config: &Config,
    max_steps: u64,
    signals: &Interrupts,
) -> Report {
    supervised(true, fuzz_line, signals, |monitor| {
        concolic::concolic(ir, input, config, max_steps, monitor)
    })
}

/// Runs `work` with a monitor that `signals` stop, painting `line` on a
/// terminal meanwhile.
fn supervised<R>(
    quiet: bool,
    line: fn(&Monitor, Duration) -> String,
    signals: &Interrupts,
    work: impl FnOnce(Arc<Monitor>) -> R,
) -> R {
    signals.run(|monitor| painted(quiet, line, monitor, work))
}

/// Runs `work`, painting `line` on a terminal meanwhile.
fn painted<R>(
    quiet: bool,
    line: fn(&Monitor, Duration) -> String,
    monitor: Arc<Monitor>,
    work: impl FnOnce(Arc<Monitor>) -> R,
) -> R {
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
