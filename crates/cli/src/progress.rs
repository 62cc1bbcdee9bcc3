//! Running an engine with interrupt handling and, on a terminal, a progress
//! line on stderr.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use wiser_engine::Monitor;

/// Runs an engine (`run` gets the monitor it must watch). Ctrl-C, SIGTERM
/// and SIGHUP end it with the bugs found so far (the report says
/// `interrupted`); a second one ends the process at once, as usual.
pub fn supervised<R>(quiet: bool, run: impl FnOnce(Arc<Monitor>) -> R) -> R {
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
        std::thread::spawn(move || paint(&monitor, &done))
    });
    let report = run(monitor);
    done.store(true, Ordering::SeqCst);
    if let Some(p) = painter {
        let _ = p.join();
    }
    report
}

fn paint(monitor: &Monitor, done: &AtomicBool) {
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
        bar.set_message(format!(
            "{} states, frontier {}, {} bugs, {} solver queries",
            monitor.states.load(Ordering::Relaxed),
            monitor.pending.load(Ordering::Relaxed),
            monitor.bugs.load(Ordering::Relaxed),
            monitor.solver_queries.load(Ordering::Relaxed),
        ));
        bar.tick();
        std::thread::sleep(Duration::from_millis(100));
    }
    bar.finish_and_clear();
}
