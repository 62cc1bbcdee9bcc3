//! The coordinator: opens a run with its root item, reads the workers'
//! results, confirms every bug again from its prefix, and ends the run
//! when every item is accounted for (or on its time, state or interrupt
//! limit).
//!
//! Termination: the coordinator keeps the set of open items. An item's
//! result closes it and opens the items it handed back (unless their own
//! results came first). A worker posts the items it hands back before its
//! result, so the set is empty only when every part of the tree was
//! explored. A result posted twice (a worker killed after posting, whose
//! item another worker took over) is read once; the items the killed
//! worker handed back are explored all the same, and the second worker's
//! exploration covers them again, so duplicates cost time, never answers.

use crate::broker::Broker;
use crate::message::ItemResult;
use crate::DistError;
use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};
use wiser_engine::{Config, Incomplete, Monitor, Prefix, Report, Stats};
use wiser_ir::Ir;

/// How the coordinator runs.
#[derive(Clone, Debug)]
pub struct CoordinatorOptions {
    /// The broker's URL (`redis://HOST:PORT`).
    pub broker: String,
}

/// Who did what in a distributed run.
#[derive(Clone, Debug, Default)]
pub struct Distribution {
    /// The run's id on the broker.
    pub run: String,
    /// Items explored (distinct results).
    pub items: u64,
    /// Results posted twice (an item taken over after its worker died).
    pub duplicates: u64,
    /// States expanded per worker, by name.
    pub workers: BTreeMap<String, u64>,
}

/// How long to wait for the results of items in flight after the run was
/// stopped early (they end at their next look at the broker).
const WIND_DOWN: Duration = Duration::from_secs(2);

/// How long confirming a bug may take past the run's time limit.
const CONFIRM_GRACE: Duration = Duration::from_secs(1);

/// How long the coordinator blocks on the results stream.
const POLL: Duration = Duration::from_millis(100);

/// Runs the check of `ir` under `config` on whatever workers serve the
/// broker; `spec` tells them what to load. The report is the one a
/// single process gives: every bug confirmed here, `safe` only when every
/// item was explored exhaustively.
pub fn coordinate(
    options: &CoordinatorOptions,
    spec: &str,
    ir: Arc<Ir>,
    config: &Config,
    monitor: Arc<Monitor>,
) -> Result<(Report, Distribution), DistError> {
    let start = Instant::now();
    let deadline = config.timeout.map(|t| start + t);
    let mut broker = Broker::connect(&options.broker)?;
    let run = run_id();
    let root = broker.open_run(&run, spec, &Prefix::root(&ir).to_text())?;
    let mut state = Collected {
        open: HashSet::from([root]),
        distribution: Distribution {
            run: run.clone(),
            ..Distribution::default()
        },
        ..Collected::default()
    };
    let mut after = "0".to_string();
    let stopped_by = loop {
        if monitor.interrupt.load(Ordering::SeqCst) {
            break Some(Incomplete::Interrupted);
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break Some(Incomplete::Timeout);
        }
        if state.stats.states >= config.max_states {
            break Some(Incomplete::MaxStates);
        }
        if state.open.is_empty() {
            break None;
        }
        if !config.all_bugs && !state.bugs.is_empty() {
            break Some(Incomplete::StoppedAtFirstBug);
        }
        // At least a millisecond: Redis reads `BLOCK 0` as "for ever".
        let wait = deadline
            .map_or(POLL, |d| {
                POLL.min(d.saturating_duration_since(Instant::now()))
            })
            .max(Duration::from_millis(1));
        for posted in broker.results(&run, &after, wait)? {
            after = posted.id;
            state.absorb(&posted.json, (&ir, config, deadline), &monitor, false);
        }
    };
    broker.close_run(&run, Duration::from_secs(60))?;
    if let Some(why) = stopped_by {
        // Items in flight see `stop`, end, and post what they found. A
        // worker posts its result before it acknowledges its item, so
        // once nothing is leased one more read has every result.
        let until = Instant::now() + WIND_DOWN;
        loop {
            let leased = broker.leased(&run)?;
            let wait = if leased > 0 { POLL } else { Duration::ZERO };
            for posted in broker.results(&run, &after, wait)? {
                after = posted.id;
                state.absorb(&posted.json, (&ir, config, deadline), &monitor, true);
            }
            if leased == 0 || Instant::now() >= until {
                break;
            }
        }
        if !state.open.is_empty() || why != Incomplete::StoppedAtFirstBug {
            state.incomplete.push(why);
        }
    }
    let Collected {
        bugs,
        incomplete,
        internal_errors,
        outside,
        unchecked,
        mut stats,
        distribution,
        ..
    } = state;
    stats.elapsed = start.elapsed();
    let places = wiser_engine::Places { outside, unchecked };
    let report = wiser_engine::combine(config, bugs, incomplete, internal_errors, places, stats);
    Ok((report, distribution))
}

/// What the results say so far.
#[derive(Default)]
struct Collected {
    open: HashSet<String>,
    done: HashSet<String>,
    bug_prefixes: HashSet<String>,
    bugs: Vec<wiser_engine::Bug>,
    incomplete: Vec<Incomplete>,
    internal_errors: Vec<String>,
    outside: Vec<(wiser_ir::ErrorKind, wiser_ir::Span)>,
    unchecked: Vec<(wiser_ir::ErrorKind, wiser_ir::Span)>,
    stats: Stats,
    distribution: Distribution,
}

impl Collected {
    /// Takes in one posted result; `stopping`: the coordinator stopped the
    /// run, so an item's `interrupted` is the coordinator's own doing.
    fn absorb(
        &mut self,
        json: &str,
        (ir, config, deadline): (&Ir, &Config, Option<Instant>),
        monitor: &Monitor,
        stopping: bool,
    ) {
        let result: ItemResult = match serde_json::from_str(json) {
            Ok(r) => r,
            Err(e) => {
                self.internal_errors.push(format!(
                    "internal error: a worker posted an unreadable result: {e}"
                ));
                return;
            }
        };
        if !self.done.insert(result.item.clone()) {
            self.distribution.duplicates += 1;
            return;
        }
        self.open.remove(&result.item);
        for d in &result.donated {
            if !self.done.contains(d) {
                self.open.insert(d.clone());
            }
        }
        self.distribution.items += 1;
        *self
            .distribution
            .workers
            .entry(result.worker.clone())
            .or_default() += result.counts.states;
        result.counts.add_to(&mut self.stats);
        monitor.states.store(self.stats.states, Ordering::Relaxed);
        match result.reasons() {
            Ok(reasons) => self.incomplete.extend(
                reasons
                    .into_iter()
                    // What the stop cut short (an interrupted item, the
                    // solver queries it killed) is the stop's reason.
                    .filter(|&i| {
                        !(stopping
                            && matches!(i, Incomplete::Interrupted | Incomplete::SolverUnknown))
                    }),
            ),
            Err(msg) => self.internal_errors.push(format!("internal error: {msg}")),
        }
        match result.places() {
            Ok(places) => self.outside.extend(places),
            Err(msg) => self.internal_errors.push(format!("internal error: {msg}")),
        }
        match result.unchecked_places() {
            Ok(places) => self.unchecked.extend(places),
            Err(msg) => self.internal_errors.push(format!("internal error: {msg}")),
        }
        self.internal_errors.extend(result.internal_errors);
        for text in result.bugs {
            if !self.bug_prefixes.insert(text.clone()) {
                continue;
            }
            // A bug that comes in at the end of the run still gets a
            // moment to be confirmed.
            let until = deadline.map(|d| d.max(Instant::now() + CONFIRM_GRACE));
            let confirmed = Prefix::parse(&text)
                .and_then(|p| wiser_engine::prefix::confirm_prefix(ir, config, &p, until));
            match confirmed {
                Ok(Some(bug)) => {
                    self.bugs.push(bug);
                    monitor.bugs.fetch_add(1, Ordering::Relaxed);
                }
                Ok(None) => self.incomplete.push(Incomplete::SolverUnknown),
                Err(msg) => self.internal_errors.push(format!(
                    "internal error: a bug worker {} found did not confirm here: {msg}",
                    result.worker
                )),
            }
        }
    }
}

/// A run id no other coordinator picks: the clock and the process.
fn run_id() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{:x}-{:x}", nanos, std::process::id())
}
