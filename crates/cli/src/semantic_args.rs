//! The options of the semantics that every engine's command shares: how
//! signed arithmetic behaves, and the bounds that keep the input heap and
//! the threads of a run finite.

use clap::{Args, ValueEnum};
use wiser_semantics::Options;

/// Partial-order reduction on or off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PorArg {
    /// Sleep sets: interleavings of independent steps are explored once.
    On,
    /// Every interleaving.
    Off,
}

/// `--wrap-signed`, `--max-objects`, `--max-threads`, `--max-switches`,
/// `--por`.
#[derive(Args, Debug, Clone)]
pub struct SemanticArgs {
    /// Signed fixed-width arithmetic wraps instead of being a `signed_overflow` error.
    #[arg(long)]
    pub wrap_signed: bool,
    /// Programs with objects: the most references a path may read from the input heap (input references and reference fields of input objects), so input heaps have at most N objects; a path that reads more is cut and the verdict cannot be safe (`unknown`, reason heap_bound).
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub max_objects: u32,
    /// Programs with threads: the most threads (the main thread included, at most 64) a path may start; a path that starts more is cut (`unknown`, reason thread_bound).
    #[arg(long, value_name = "N", default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub max_threads: u32,
    /// Programs with threads: the most preemptive context switches (away from a thread that could go on) a path may take; a path that takes more is cut (`unknown`, reason switch_bound) [default: no limit].
    #[arg(long, value_name = "N")]
    pub max_switches: Option<u32>,
    /// Partial-order reduction of thread interleavings: `on` (sleep sets: interleavings of independent steps are explored once; sound for errors and deadlocks) or `off` (every interleaving).
    #[arg(long, value_enum, default_value = "on")]
    pub por: PorArg,
}

impl SemanticArgs {
    /// The semantic options these arguments ask for.
    pub fn options(&self) -> Options {
        Options {
            wrap_signed: self.wrap_signed,
            max_objects: Some(self.max_objects),
            max_threads: Some(self.max_threads),
            max_switches: self.max_switches,
            por_off: self.por == PorArg::Off,
        }
    }
}
