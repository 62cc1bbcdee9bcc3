//! The symbolic bug finder of `wiser`.
//!
//! * [`Symbolic`]: the symbolic domain (terms, path conditions, the layers
//!   that decide branch feasibility);
//! * [`Searcher`]: search strategies (breadth-first, depth-first);
//! * [`Explorer`]: WiSE's bug finder as an iterator of [`Event`]s;
//! * [`witness`]: inputs from models, replayed before any bug is reported;
//! * [`check`]: one whole run under a [`Config`], giving a [`Report`].
//!
//! ```
//! use wiser_engine::{check, Config, Verdict};
//! let ir = wiser_semantics::compile("if x > 10 then assert x != 42 else skip fi").unwrap();
//! let report = check(&ir, &Config::default());
//! assert_eq!(report.verdict, Verdict::Bug);
//! assert_eq!(report.bugs[0].input.vars[0].1, 42.into());
//! ```
#![warn(missing_docs)]

mod explorer;
mod memory;
mod parallel;
pub mod path;
mod run;
mod searcher;
mod symbolic;
pub mod witness;

pub use explorer::{Event, ExploreStats, Explorer, FinalState};
pub use memory::{peak_resident_bytes, resident_bytes};
pub use parallel::Monitor;
pub use run::{check, check_monitored, Config, Incomplete, Report, Stats, Verdict};
pub use searcher::{BreadthFirst, DepthFirst, Searcher, StateId, Strategy};
pub use symbolic::{read_symbol, BranchStats, Symbolic};
pub use witness::Bug;
