//! A worker process: leases work items of the runs in progress, explores
//! each with the engine's supervised run ([`wiser_engine::symex_shared`])
//! from its prefix, hands prefixes back while other workers are hungry,
//! and posts each item's result.
//!
//! While an item runs, a heartbeat thread renews its lease every quarter
//! of the lease, reads how many workers are hungry, and interrupts the
//! item when the run is over. A worker killed at any point loses nothing:
//! its leased item goes back to the pool when the lease runs out, and the
//! items it handed back are in the stream already.

use crate::broker::{Broker, Item};
use crate::message::ItemResult;
use crate::DistError;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use wiser_engine::{Config, Monitor, Prefix, Share};
use wiser_ir::Ir;

/// How a worker runs.
#[derive(Clone, Debug)]
pub struct WorkerOptions {
    /// The broker's URL (`redis://HOST:PORT`).
    pub broker: String,
    /// The worker's name in the consumer group (unique per process).
    pub name: String,
    /// How long an item stays leased without a renewal before another
    /// worker takes it over.
    pub lease: Duration,
    /// Exit after this long with nothing to do (`None`: serve forever).
    pub idle_exit: Option<Duration>,
}

/// What the worker did.
#[derive(Clone, Debug, Default)]
pub struct WorkerSummary {
    /// Items explored (results posted).
    pub items: u64,
    /// Prefixes handed back.
    pub donated: u64,
    /// States expanded.
    pub states: u64,
}

/// A program loaded from a run's spec: its IR and how to check it.
pub type Loaded = (Arc<Ir>, Config);

/// Serves work items until `worker.interrupt` is set (or the worker was
/// idle for its `idle_exit`); `worker.states` counts the states explored.
/// `load` reads a run's spec (the front end's business).
pub fn serve(
    options: &WorkerOptions,
    load: &dyn Fn(&str) -> Result<Loaded, String>,
    worker: Arc<Monitor>,
) -> Result<WorkerSummary, DistError> {
    let stop = &worker.interrupt;
    let mut broker = Broker::connect(&options.broker)?;
    let mut summary = WorkerSummary::default();
    let mut loaded: HashMap<String, Result<Loaded, String>> = HashMap::new();
    let mut idle_since = Instant::now();
    while !stop.load(Ordering::SeqCst) {
        let runs = broker.runs()?;
        loaded.retain(|run, _| runs.contains(run));
        let mut worked = false;
        for run in &runs {
            if stop.load(Ordering::SeqCst) {
                break;
            }
            let Some(item) = broker.lease(run, &options.name, options.lease, POLL)? else {
                broker.hungry(run, &options.name)?;
                continue;
            };
            broker.fed(run, &options.name)?;
            worked = true;
            if !loaded.contains_key(run) {
                let spec = broker.spec(run)?.unwrap_or_default();
                loaded.insert(run.clone(), load(&spec));
            }
            let result = match &loaded[run] {
                Ok((ir, config)) => {
                    let explored = explore(&broker, options, run, &item, (ir, config), &worker)?;
                    summary.states += explored.counts.states;
                    worker.states.store(summary.states, Ordering::Relaxed);
                    summary.donated += explored.donated.len() as u64;
                    if stop.load(Ordering::SeqCst) {
                        // Stopped by its own signal, not by the run: the
                        // item's lease runs out and another worker takes
                        // the whole item over (its hand-backs stay valid).
                        break;
                    }
                    explored
                }
                Err(msg) => ItemResult {
                    item: item.id.clone(),
                    worker: options.name.clone(),
                    internal_errors: vec![format!(
                        "worker {} could not load the program: {msg}",
                        options.name
                    )],
                    ..ItemResult::default()
                },
            };
            let json = serde_json::to_string(&result).expect("a result serialises");
            broker.finish(run, &item.id, &json)?;
            summary.items += 1;
        }
        if worked {
            idle_since = Instant::now();
        } else {
            if options.idle_exit.is_some_and(|d| idle_since.elapsed() >= d) {
                break;
            }
            if runs.is_empty() {
                std::thread::sleep(POLL);
            }
        }
    }
    Ok(summary)
}

/// How long a worker blocks waiting for an item, and how often the
/// heartbeat looks at the broker.
const POLL: Duration = Duration::from_millis(100);

/// Hungry workers that said so within this long count.
const HUNGRY_WINDOW: Duration = Duration::from_millis(500);

/// Explores `item`, renewing its lease and handing prefixes back.
fn explore(
    broker: &Broker,
    options: &WorkerOptions,
    run: &str,
    item: &Item,
    (ir, config): (&Arc<Ir>, &Config),
    worker: &Arc<Monitor>,
) -> Result<ItemResult, DistError> {
    let seeds: Result<Vec<Prefix>, String> = item
        .prefixes
        .split_whitespace()
        .map(Prefix::parse)
        .collect();
    let seeds = match seeds {
        Ok(p) => p,
        Err(msg) => {
            return Ok(ItemResult {
                item: item.id.clone(),
                worker: options.name.clone(),
                internal_errors: vec![format!("internal error: {msg}")],
                ..ItemResult::default()
            })
        }
    };
    let share = Arc::new(Handback {
        broker: Mutex::new(broker.again()?),
        run: run.to_string(),
        parent: item.id.clone(),
        wanted: AtomicUsize::new(0),
        given: Mutex::new(Vec::new()),
    });
    let monitor = Arc::new(Monitor::new());
    let done = Arc::new(AtomicBool::new(false));
    let heartbeat = {
        let mut beat = broker.again()?;
        let (share, monitor, done) = (share.clone(), monitor.clone(), done.clone());
        let worker = worker.clone();
        let (run, me, id) = (run.to_string(), options.name.clone(), item.id.clone());
        let every = (options.lease / 4).max(POLL);
        std::thread::spawn(move || {
            let lease = Lease {
                run: &run,
                me: &me,
                id: &id,
                every,
            };
            heartbeat(
                &mut beat,
                &lease,
                &share,
                &monitor,
                &done,
                &worker.interrupt,
            )
        })
    };
    let report = wiser_engine::symex_shared(ir.clone(), config, monitor, &seeds, share.clone());
    done.store(true, Ordering::SeqCst);
    // A heartbeat that lost the broker let the lease run out: the result
    // is still right, at worst a duplicate of another worker's (posting it
    // fails the same way if the broker stays away).
    let _ = heartbeat.join();
    let donated = std::mem::take(&mut *share.given.lock().unwrap_or_else(|e| e.into_inner()));
    let result = ItemResult::of(&item.id, &options.name, donated, &report);
    Ok(result)
}

/// The item a heartbeat keeps leased.
struct Lease<'a> {
    run: &'a str,
    me: &'a str,
    id: &'a str,
    /// How often to renew it.
    every: Duration,
}

/// Renews the lease, tells the share how many workers are hungry, and
/// interrupts the item when the run is over or the worker is stopped,
/// until `done`.
fn heartbeat(
    broker: &mut Broker,
    lease: &Lease<'_>,
    share: &Handback,
    monitor: &Monitor,
    done: &AtomicBool,
    stop: &AtomicBool,
) -> Result<(), DistError> {
    let mut last_renewal = Instant::now();
    while !done.load(Ordering::SeqCst) {
        std::thread::sleep(POLL);
        if stop.load(Ordering::SeqCst) || broker.stopped(lease.run)? {
            monitor.interrupt.store(true, Ordering::SeqCst);
        }
        if last_renewal.elapsed() >= lease.every {
            broker.renew(lease.run, lease.me, lease.id)?;
            last_renewal = Instant::now();
        }
        let hungry = broker.hungry_count(lease.run, HUNGRY_WINDOW)?;
        share.wanted.store(hungry, Ordering::SeqCst);
    }
    Ok(())
}

/// Hands waiting states back to the run's work stream.
struct Handback {
    broker: Mutex<Broker>,
    run: String,
    parent: String,
    /// How many workers are hungry, as the heartbeat last counted them (0
    /// once states were handed back, until it counts again).
    wanted: AtomicUsize,
    /// The items handed back.
    given: Mutex<Vec<String>>,
}

impl Share for Handback {
    fn wanted(&self) -> usize {
        self.wanted.load(Ordering::SeqCst)
    }

    /// One item per hungry worker, in contiguous runs of the prefixes.
    fn give(&self, prefixes: &[Prefix]) -> usize {
        let items = self.wanted().clamp(1, prefixes.len().max(1));
        let per_item = prefixes.len().div_ceil(items).max(1);
        let mut broker = self.broker.lock().unwrap_or_else(|e| e.into_inner());
        let mut given = self.given.lock().unwrap_or_else(|e| e.into_inner());
        let mut taken = 0;
        for chunk in prefixes.chunks(per_item) {
            let text: Vec<String> = chunk.iter().map(Prefix::to_text).collect();
            match broker.add_item(&self.run, &text.join(" "), &self.parent) {
                Ok(id) => given.push(id),
                // Unreachable broker: the rest stay here.
                Err(_) => break,
            }
            taken += chunk.len();
        }
        // Fed: until the heartbeat counts the hungry again.
        self.wanted.store(0, Ordering::SeqCst);
        taken
    }
}
