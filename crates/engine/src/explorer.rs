//! The bug finder as a stream of events (WiSE, seed 000, section 3).
//!
//! Each call of [`Explorer::next`] takes one state from the frontier: a
//! state stuck on an error yields [`Event::BugFound`] (after its witness
//! replays on the concrete interpreter), any other state yields
//! [`Event::Pending`] and adds its successors to the frontier, and an empty
//! frontier yields [`Event::Finished`] once. The loop is flat: no recursion
//! per state, whatever the number of states.

use crate::path::PathCond;
use crate::searcher::{Searcher, Strategy};
use crate::symbolic::Symbolic;
use crate::witness::{self, Bug, Replay};
use slab::Slab;
use std::sync::Arc;
use wiser_semantics::{Ir, Machine, State};
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
    /// A state where the main program ended normally; emitted instead of
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
    /// How many `x = *` reads the path made.
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
    machine: Machine<'ir, Symbolic<S>>,
    dom: Symbolic<S>,
    states: Slab<State<Symbolic<S>>>,
    searcher: Box<dyn Searcher>,
    out: Vec<State<Symbolic<S>>>,
    finished: bool,
    final_states: bool,
    /// Counters.
    pub stats: ExploreStats,
}

impl<'ir, S: Solver> Explorer<'ir, S> {
    /// An explorer of `ir` from its initial state, deciding with `solver`.
    pub fn new(ir: &'ir Ir, solver: S, strategy: Strategy) -> Self {
        let mut dom = Symbolic::new(solver);
        let initial = State::initial(ir, &mut dom, PathCond::new());
        let mut states = Slab::new();
        let mut searcher = strategy.searcher();
        searcher.push(states.insert(initial));
        Explorer {
            machine: Machine::new(ir),
            dom,
            states,
            searcher,
            out: Vec::with_capacity(4),
            finished: false,
            final_states: false,
            stats: ExploreStats::default(),
        }
    }

    /// Reports each normally ended path as [`Event::Final`].
    pub fn with_final_states(mut self, yes: bool) -> Self {
        self.final_states = yes;
        self
    }

    /// The symbolic domain (for its counters and solver).
    pub fn domain(&mut self) -> &mut Symbolic<S> {
        &mut self.dom
    }

    /// The number of states waiting in the frontier.
    pub fn frontier(&self) -> usize {
        self.searcher.len()
    }

    fn bug_event(&mut self, state: &State<Symbolic<S>>) -> Event {
        let ir = self.machine.ir();
        // A path replays in at most as many steps as states were taken.
        let max_steps = self.stats.states + 16;
        match witness::confirm(ir, state, self.dom.solver(), max_steps) {
            Replay::Confirmed(bug) => Event::BugFound(bug),
            Replay::Infeasible => Event::Pending,
            Replay::Undecided => Event::Undecided,
            Replay::Mismatch(msg) => Event::InternalError(msg),
        }
    }
}

impl<S: Solver> Iterator for Explorer<'_, S> {
    type Item = Event;

    fn next(&mut self) -> Option<Event> {
        if self.finished {
            return None;
        }
        let Some(id) = self.searcher.pop() else {
            self.finished = true;
            return Some(Event::Finished);
        };
        let state = self.states.remove(id);
        self.stats.states += 1;
        if state.error().is_some() {
            return Some(self.bug_event(&state));
        }
        if self.final_states && state.is_final(self.machine.ir()) {
            let ir = self.machine.ir();
            return Some(Event::Final(Box::new(FinalState {
                path_condition: state.path.terms(),
                store: ir
                    .main
                    .slots
                    .iter()
                    .cloned()
                    .zip(state.frame.locals.iter().cloned())
                    .collect(),
                arrays: ir
                    .arrays
                    .iter()
                    .cloned()
                    .zip(state.arrays.iter().cloned())
                    .collect(),
                reads: state.reads,
                model: state.path.effective_model().map(Arc::new),
            })));
        }
        self.machine.step(&mut self.dom, state, &mut self.out);
        for s in self.out.drain(..) {
            self.searcher.push(self.states.insert(s));
        }
        self.stats.max_frontier = self.stats.max_frontier.max(self.searcher.len());
        Some(Event::Pending)
    }
}
