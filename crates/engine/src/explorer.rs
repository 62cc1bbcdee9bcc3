//! The bug finder as a stream of events (WiSE, seed 000, section 3).
//!
//! Each call of [`Explorer::next`] takes one state from the frontier and
//! expands it ([`crate::Expander`]): a state stuck on an error yields
//! [`Event::BugFound`] (after its witness replays on the concrete
//! interpreter), any other state yields [`Event::Pending`] and adds its
//! successors to the frontier, and an empty frontier yields
//! [`Event::Finished`] once. The loop is flat: no recursion per state,
//! whatever the number of states.

use crate::config::Property;
use crate::expand::{Expander, Expansion};
use crate::frontier::{Arena, Frontier};
use crate::merge::{MergeFrontier, MergeMode};
use crate::record::{Record, Recorded};
use crate::searcher::{Search, Strategy, DEFAULT_SEED};
use crate::symbolic::Feasible;
use crate::witness::{Bug, SymState};
use std::sync::Arc;
use wiser_ir::{ErrorKind, Ir, Span};
use wiser_semantics::Options;
use wiser_smt::{Model, Solver, Term};

/// What one step of the bug finder reports.
#[derive(Debug)]
pub enum Event {
    /// A reachable error, with an input that was replayed and reaches it.
    BugFound(Box<Bug>),
    /// A state was taken and expanded; the search goes on.
    Pending,
    /// The frontier is empty: every path has been explored.
    Finished,
    /// An error state whose reachability could not be decided (the solver
    /// answered unknown): neither a bug nor provably unreachable.
    Undecided,
    /// An engine fault: a witness did not replay. Reported, never hidden.
    InternalError(String),
    /// A path went past a bound of the search (`heap_bound`,
    /// `thread_bound`, `switch_bound`) and was cut: the search is not
    /// exhaustive.
    Bounded(crate::Incomplete),
    /// A reachable error of a kind outside the property (see
    /// [`Explorer::with_property`]): not a bug; its path ends.
    OutsideProperty(ErrorKind, Span),
    /// A state where the program ended normally; emitted instead of
    /// `Pending` only when [`Explorer::with_final_states`] asked for it
    /// (for tests that compare the explorer with the interpreter).
    Final(Box<FinalState>),
}

/// A path that ended normally: its path condition and final values.
#[derive(Clone, Debug)]
pub struct FinalState {
    /// The path condition.
    pub path_condition: Vec<Term>,
    /// The main program's variables and their final values.
    pub store: Vec<(Arc<str>, Term)>,
    /// The arrays and their final contents.
    pub arrays: Vec<(Arc<str>, Term)>,
    /// How many nondeterministic reads the path made.
    pub reads: u32,
    /// A model of the path condition, unless the solver answered unknown.
    pub model: Option<Arc<Model>>,
}

/// Counters of one exploration.
#[derive(Clone, Debug, Default)]
pub struct ExploreStats {
    /// States taken from the frontier.
    pub states: u64,
    /// Largest frontier seen.
    pub max_frontier: usize,
}

/// Explores the states of one program.
pub struct Explorer<'ir, S: Solver> {
    ir: &'ir Ir,
    expander: Expander<'ir, S>,
    frontier: Box<dyn Frontier<SymState> + 'ir>,
    out: Vec<SymState>,
    finished: bool,
    final_states: bool,
    /// Counters.
    pub stats: ExploreStats,
}

impl<'ir, S: Solver> Explorer<'ir, S> {
    /// An explorer of `ir` from its initial state, deciding with `solver`.
    pub fn new(ir: &'ir Ir, solver: S, strategy: Strategy) -> Self {
        Explorer::with_options(ir, solver, strategy, Options::default())
    }

    /// An explorer with semantic options.
    pub fn with_options(ir: &'ir Ir, solver: S, strategy: Strategy, options: Options) -> Self {
        let mut expander = Expander::new(ir, Feasible::new(solver), options);
        let search = Search::new(strategy, DEFAULT_SEED, ir);
        let mut frontier: Box<dyn Frontier<SymState>> = Box::new(Arena::new(search.searcher(0)));
        frontier.push(expander.initial(), false);
        Explorer {
            ir,
            expander,
            frontier,
            out: Vec::with_capacity(4),
            finished: false,
            final_states: false,
            stats: ExploreStats::default(),
        }
    }

    /// Only errors of the kinds in `property` are bugs; the others are
    /// reported as [`Event::OutsideProperty`].
    pub fn with_property(mut self, property: Property) -> Self {
        self.expander = self.expander.with_property(property);
        self
    }

    /// Merges states as `mode` says (in topological order, with every
    /// eighth pop taking the oldest state, so the search stays complete;
    /// the strategy no longer applies).
    pub fn with_merge(mut self, mode: MergeMode) -> Self {
        if mode == MergeMode::None {
            return self;
        }
        let ir = Arc::new(self.ir.clone());
        let cfg = Arc::new(wiser_ir::Cfg::new(&ir));
        let mut merging = MergeFrontier::new(ir, cfg, mode, 8);
        while let Some(s) = self.frontier.pop() {
            merging.push(s, false);
        }
        self.frontier = Box::new(merging);
        self
    }

    /// How many states were merged into others.
    pub fn merges(&self) -> u64 {
        self.frontier.merges()
    }

    /// Orders the frontier by `search` (made for this program): another
    /// seed, or a search whose coverage the caller reads. The states
    /// waiting so far move over.
    pub fn with_search(mut self, search: &Search) -> Self {
        let mut frontier = Arena::new(search.searcher(0));
        while let Some(s) = self.frontier.pop() {
            frontier.adopt(s);
        }
        self.frontier = Box::new(frontier);
        self
    }

    /// Records what `record` asks for (see [`Expander::with_record`]): read
    /// it with [`Explorer::take_recorded`], and the coverage in
    /// [`Feasible::coverage`] of [`Explorer::policy`].
    pub fn with_record(mut self, record: Record) -> Self {
        self.expander = self.expander.with_record(record);
        self
    }

    /// The paths recorded so far (taken).
    pub fn take_recorded(&mut self) -> Recorded {
        self.expander.take_recorded()
    }

    /// Reports each normally ended path as [`Event::Final`]: every path,
    /// so a sequential program's states are not matched at loop heads
    /// (`visited.rs`). Matching drops a state whose future is another's,
    /// which keeps every bug but not every final state: the dropped
    /// state's path condition and dead values (an input no longer read)
    /// differ from the kept one's. A threaded program's states are
    /// matched on all of that, so there a dropped state's final states
    /// are the kept one's.
    pub fn with_final_states(mut self, yes: bool) -> Self {
        self.final_states = yes;
        if yes && !self.ir.threaded {
            self.expander = self.expander.without_matching();
        }
        self
    }

    /// The policy (for its counters and solver).
    pub fn policy(&mut self) -> &mut Feasible<S> {
        self.expander.policy()
    }

    /// The number of states waiting in the frontier.
    pub fn frontier(&self) -> usize {
        self.frontier.len()
    }

    fn final_state(&self, state: &SymState) -> FinalState {
        let frame = state.main_frame();
        FinalState {
            path_condition: state.path.terms(),
            store: self
                .ir
                .main
                .slots
                .iter()
                .zip(frame.locals.iter())
                .filter(|(s, _)| !s.is_temporary())
                .map(|(s, v)| (s.name.clone(), v.clone()))
                .collect(),
            arrays: self
                .ir
                .arrays
                .iter()
                .map(|a| a.name.clone())
                .zip(state.arrays.iter().map(|a| a.term().clone()))
                .collect(),
            reads: state.reads,
            model: state.path.effective_model().map(Arc::new),
        }
    }
}

impl<S: Solver> Iterator for Explorer<'_, S> {
    type Item = Event;

    fn next(&mut self) -> Option<Event> {
        if self.finished {
            return None;
        }
        let Some(state) = self.frontier.pop() else {
            self.finished = true;
            return Some(Event::Finished);
        };
        self.stats.states += 1;
        let event = match self.expander.expand(state, &mut self.out) {
            Expansion::Stepped
            | Expansion::Infeasible
            | Expansion::Known
            | Expansion::Revisited => Event::Pending,
            Expansion::Final(s) if self.final_states => {
                Event::Final(Box::new(self.final_state(&s)))
            }
            Expansion::Final(_) => Event::Pending,
            Expansion::Bug(bug) => Event::BugFound(bug),
            Expansion::Undecided => Event::Undecided,
            Expansion::Internal(msg) => Event::InternalError(msg),
            Expansion::OutsideProperty(kind, span) => Event::OutsideProperty(kind, span),
            Expansion::Bounded(why) => Event::Bounded(why),
            Expansion::UncheckedPlace(..) => Event::Bounded(crate::Incomplete::UncheckedPlace),
        };
        for s in self.out.drain(..) {
            self.frontier.push(s, true);
        }
        self.stats.max_frontier = self.stats.max_frontier.max(self.frontier.len());
        Some(event)
    }
}
