//! Distributed symbolic execution through a Redis stream.
//!
//! A work item is a path prefix ([`wiser_engine::Prefix`]): the sides of
//! the decisions from the initial state to a waiting state, which every
//! state already keeps. A worker rebuilds the state by replaying the one
//! `Machine::step` with those sides forced, explores the subtree below it
//! with the engine's own supervised run, and hands prefixes of its waiting
//! states back to the stream while other workers are hungry, so an
//! unbalanced tree (a comb) spreads over every worker.
//!
//! Why Redis streams: a consumer group is a work queue with leases that
//! an existing, operated server keeps (each entry is delivered to one
//! consumer and stays pending until acknowledged; a crashed consumer's
//! entries are claimed by another), which is what fault tolerance needs.
//! NATS JetStream offers the same with more moving parts; a batch
//! scheduler's job arrays (Slurm, Kubernetes Indexed Jobs) would give
//! static shards, which cannot rebalance a comb. See docs/DISTRIBUTED.md.
//!
//! [`broker`] holds every Redis command, [`worker`] the worker process,
//! [`coordinator`] the process that opens a run and assembles its report,
//! [`message`] what a worker posts.

#![warn(missing_docs)]

pub mod broker;
pub mod coordinator;
pub mod message;
pub mod worker;

pub use coordinator::{coordinate, CoordinatorOptions, Distribution};
pub use worker::{serve, Loaded, WorkerOptions, WorkerSummary};

use std::fmt;

/// The broker could not be reached or refused a command.
#[derive(Debug)]
pub struct DistError {
    url: String,
    cause: String,
}

impl DistError {
    fn broker(url: &str, e: impl fmt::Display) -> DistError {
        DistError {
            url: url.to_string(),
            cause: e.to_string(),
        }
    }
}

impl fmt::Display for DistError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the broker at {} failed: {} (is a Redis server of version 7 or later running there? \
             `redis-server --port PORT` starts one)",
            self.url, self.cause
        )
    }
}

impl std::error::Error for DistError {}
