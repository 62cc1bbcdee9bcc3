//! The symbolic bug finder of `wiser`.
//!
//! * [`Symbolic`] and [`Feasible`]: the symbolic algebra (terms) and the
//!   symbolic policy (a side is taken when the path condition allows it,
//!   decided by the cheapest layer that can);
//! * [`path`]: path conditions (a box of value sets, other constraints, a
//!   model);
//! * [`Searcher`]: search strategies (breadth-first, depth-first,
//!   random-path, coverage-guided, and the last two interleaved with
//!   breadth-first), and the frontiers that order states by them;
//! * [`merge`]: state merging (exact: values become `ite`s, path
//!   conditions are disjoined) and the frontier that merges;
//! * [`Expander`]: the one expansion step every driver uses;
//! * [`Explorer`]: WiSE's bug finder as an iterator of [`Event`]s;
//! * [`run`]: the run layer under every engine — limits, the one
//!   supervisor, workers, the solver chain, progress counters;
//! * [`symex`]: symbolic execution, one whole supervised run under a [`Config`], on several
//!   workers, giving a [`Report`];
//! * [`witness`]: inputs from models, replayed before any bug is reported;
//!   [`minimise`] makes them small and canonical, [`readable`] prints path
//!   conditions for people;
//! * [`concolic`]: concolic execution and whitebox fuzzing (SAGE);
//! * [`portfolio`]: the engines side by side, the first definitive
//!   answer taken (above every engine, as no engine is above another).
//!
//! ```
//! use wiser_engine::{symex, Config, Verdict};
//! let ir = wiser_imp::compile("if x > 10 then assert x != 42 else skip fi").unwrap();
//! let report = symex(&ir, &Config::default());
//! assert_eq!(report.verdict, Verdict::Bug);
//! assert_eq!(report.bugs[0].input.vars[0].1, 42.into());
//! ```
#![warn(missing_docs)]

pub mod bmc;
pub mod concolic;
mod config;
mod coverage;
mod expand;
mod explorer;
mod frontier;
mod guarded;
mod known;
pub mod merge;
pub mod minimise;
mod parallel;
pub mod path;
pub mod portfolio;
pub mod prefix;
pub mod prove;
pub mod readable;
mod record;
mod report;
pub mod run;
mod searcher;
mod symbolic;
mod symex;
mod visited;
pub mod witness;

pub use bmc::{bmc, Bmc};
pub use config::{Backend, Config, Property, MAX_JOBS};
pub use expand::{Expander, Expansion};
pub use explorer::{Event, ExploreStats, Explorer, FinalState};
pub use frontier::{Arena, Frontier, Pool, Searchable};
pub use known::KnownBugs;
pub use merge::MergeMode;
pub use portfolio::{portfolio, Member, MemberOutcome, PortfolioRun};
pub use prefix::{Prefix, Share};
pub use prove::{prove, prove_with, Method, ProveOptions, DEFAULT_MAX_K};
pub use record::{sort_paths, Coverage, PathEnd, PathEndKind, Record, Recorded, DEFAULT_MAX_PATHS};
pub use report::{
    ConcolicExtra, Extra, Incomplete, Invariant, ProofMethod, ProveExtra, Report, Stats, Verdict,
};
pub use run::{peak_resident_bytes, resident_bytes, Limits, Monitor, GRACE};
pub use searcher::{
    BranchCoverage, BreadthFirst, CoverageGuided, DepthFirst, Info, Interleaved, Parent,
    RandomPath, Search, Searcher, Serial, StateId, Strategy, BFS_EVERY, DEFAULT_SEED,
};
pub use symbolic::{
    array_sort, read_symbol, scalar_of, sort_of, BranchStats, Feasible, SymArray, Symbolic,
};
pub use symex::{combine, symex, symex_monitored, symex_shared, Places};
pub use visited::Visited;
pub use witness::{Bug, SymState};
