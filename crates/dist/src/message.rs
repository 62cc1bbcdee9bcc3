//! What a worker posts when it has explored an item: the item's report,
//! with each bug as the prefix of its error state (the coordinator confirms
//! it again from there) and the counters to add up.

use serde::{Deserialize, Serialize};
use wiser_engine::{BranchStats, Incomplete, Report};
use wiser_ir::{ErrorKind, FileId, Span};

/// The result of one work item.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct ItemResult {
    /// The item's entry id.
    pub item: String,
    /// The worker that explored it.
    pub worker: String,
    /// The items it handed back (their entry ids): parts of its subtree
    /// that this result does not cover.
    pub donated: Vec<String>,
    /// The prefixes of the error states it confirmed as bugs.
    pub bugs: Vec<String>,
    /// Why its search was not exhaustive, by name.
    pub incomplete: Vec<String>,
    /// Internal errors, as they were reported.
    pub internal_errors: Vec<String>,
    /// Reachable errors outside the property: kind name, file, first and
    /// one past the last byte.
    pub outside: Vec<(String, u32, u32, u32)>,
    /// Reached places where the model stops deciding the property, in
    /// the same form.
    pub unchecked: Vec<(String, u32, u32, u32)>,
    /// Counters.
    pub counts: Counts,
}

/// The counters a distributed report adds up.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Counts {
    /// States expanded.
    pub states: u64,
    /// The largest frontier of the item's run.
    pub max_frontier: u64,
    /// States not expanded because an equal one was (in this item's run:
    /// each item has its own set).
    pub revisited: u64,
    /// Decisions folded, sides checked, and by which layer.
    pub branches: [u64; 8],
    /// Solver queries, and those that reached Z3.
    pub queries: u64,
    /// Queries that reached Z3.
    pub z3_queries: u64,
    /// Time in Z3, in microseconds.
    pub z3_micros: u64,
}

impl Counts {
    /// The counters of `report`.
    pub fn of(report: &Report) -> Counts {
        let b = &report.stats.branches;
        let s = &report.stats.solver;
        Counts {
            states: report.stats.states,
            max_frontier: report.stats.max_frontier as u64,
            revisited: report.stats.revisited,
            branches: [
                b.folded,
                b.checks,
                b.by_bounds,
                b.by_model,
                b.by_enumeration,
                b.by_solver,
                b.unknown,
                b.pruned,
            ],
            queries: s.queries,
            z3_queries: s.z3_queries,
            z3_micros: s.z3_time.as_micros() as u64,
        }
    }

    /// Adds these counters to `stats`.
    pub fn add_to(&self, stats: &mut wiser_engine::Stats) {
        stats.states += self.states;
        stats.max_frontier = stats.max_frontier.max(self.max_frontier as usize);
        stats.revisited += self.revisited;
        let [folded, checks, by_bounds, by_model, by_enumeration, by_solver, unknown, pruned] =
            self.branches;
        stats.branches.add(&BranchStats {
            folded,
            checks,
            by_bounds,
            by_model,
            by_enumeration,
            by_solver,
            unknown,
            pruned,
        });
        stats.solver.queries += self.queries;
        stats.solver.z3_queries += self.z3_queries;
        stats.solver.z3_time += std::time::Duration::from_micros(self.z3_micros);
    }
}

impl ItemResult {
    /// The result of item `item` explored by `worker` into `report`.
    pub fn of(item: &str, worker: &str, donated: Vec<String>, report: &Report) -> ItemResult {
        let mut internal_errors = report.internal_errors.clone();
        let mut bugs = Vec::new();
        for bug in &report.bugs {
            match &bug.prefix {
                Some(p) => bugs.push(p.to_text()),
                None => internal_errors.push(format!(
                    "internal error: a bug at bytes {}..{} has no path prefix",
                    bug.span.lo, bug.span.hi
                )),
            }
        }
        ItemResult {
            item: item.to_string(),
            worker: worker.to_string(),
            donated,
            bugs,
            incomplete: report
                .incomplete
                .iter()
                .map(|i| i.name().to_string())
                .collect(),
            internal_errors,
            outside: report.outside_property.iter().map(place).collect(),
            unchecked: report.unchecked_places.iter().map(place).collect(),
            counts: Counts::of(report),
        }
    }

    /// The reasons, read back (an unknown name is an internal error: a
    /// worker of another version).
    pub fn reasons(&self) -> Result<Vec<Incomplete>, String> {
        self.incomplete
            .iter()
            .map(|n| {
                Incomplete::from_name(n)
                    .ok_or_else(|| format!("a worker reported an unknown reason `{n}`"))
            })
            .collect()
    }

    /// The places outside the property, read back.
    pub fn places(&self) -> Result<Vec<(ErrorKind, Span)>, String> {
        read_places(&self.outside)
    }

    /// The reached places where the model stops deciding, read back.
    pub fn unchecked_places(&self) -> Result<Vec<(ErrorKind, Span)>, String> {
        read_places(&self.unchecked)
    }
}

/// A place as a result carries it: kind name, file, first and one past
/// the last byte.
fn place(&(kind, span): &(ErrorKind, Span)) -> (String, u32, u32, u32) {
    (kind.name().to_string(), span.file.0, span.lo, span.hi)
}

/// Places read back from [`place`]'s form.
fn read_places(places: &[(String, u32, u32, u32)]) -> Result<Vec<(ErrorKind, Span)>, String> {
    places
        .iter()
        .map(|(name, file, lo, hi)| {
            let kind = ErrorKind::ALL
                .into_iter()
                .find(|k| k.name() == name)
                .ok_or_else(|| format!("a worker reported an unknown error kind `{name}`"))?;
            Ok((
                kind,
                Span {
                    file: FileId(*file),
                    lo: *lo,
                    hi: *hi,
                },
            ))
        })
        .collect()
}
