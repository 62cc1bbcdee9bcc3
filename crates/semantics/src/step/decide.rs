//! Decisions: the one sequence by which a condition becomes the sides a
//! path takes. A constant is folded (and told to the policy); otherwise
//! the policy branches, or assumes the side it does not seek, and each
//! side taken records its decision on the trail. A guarded condition's
//! failing side is an error state (a check, an assertion, a lock never
//! released) or no state at all (an `assume`).

use super::Machine;
use crate::algebra::Algebra;
use crate::policy::{Fork, Policy};
use crate::state::{Decision, State, Status};
use wiser_ir::{Code, ErrorKind, Pc, Site, Span};

/// What the failing side of a guarded condition leads to.
#[derive(Clone, Copy)]
pub(super) enum Failing {
    /// Nothing: the path ends there (an `assume` that does not hold).
    Vanishes,
    /// An error, explored only where the policy seeks errors of its kind
    /// ([`Policy::seeks_error`]); elsewhere the path assumes it away.
    Sought(ErrorKind, Span),
    /// An error, always explored (a deadlock).
    Always(ErrorKind, Span),
}

/// A condition one of whose sides ends the path.
pub(super) struct Guarded<V> {
    /// Where it is decided.
    pub site: Site,
    /// The condition, as the algebra built it.
    pub cond: V,
    /// The value of `cond` on the failing side: `true` for a check (its
    /// condition says it faults), `false` for an assertion, an `assume`
    /// or a lock that must be free.
    pub fails_when: bool,
    /// What the failing side leads to.
    pub failing: Failing,
}

impl<A: Algebra> Machine<'_, A> {
    /// Decides `g` in `state`: pushes the failing side's error state onto
    /// `out` where the path may take it, and gives back the state on the
    /// passing side (its path narrowed, its decision recorded), or `None`
    /// when that side cannot be taken.
    pub(super) fn decide<P: Policy<A>>(
        &self,
        alg: &mut A,
        pol: &mut P,
        mut state: State<A, P::Path>,
        g: Guarded<A::Value>,
        out: &mut Vec<State<A, P::Path>>,
    ) -> Option<State<A, P::Path>> {
        let Guarded {
            site,
            cond,
            fails_when,
            failing,
        } = g;
        if let Some(value) = alg.as_bool(&cond) {
            pol.folded(site, value);
            if value != fails_when {
                return Some(state);
            }
            if let Failing::Sought(kind, span) | Failing::Always(kind, span) = failing {
                state.status = Status::Error { kind, span };
                out.push(state);
            }
            return None;
        }
        let error = match failing {
            Failing::Vanishes => None,
            Failing::Sought(kind, span) => {
                let ir = self.ir;
                pol.seeks_error(kind, span, state.steps, &|| state.call_stack(ir))
                    .then_some((kind, span))
            }
            Failing::Always(kind, span) => Some((kind, span)),
        };
        let (fail, pass) = if error.is_some() {
            let fork = pol.branch(&state.path, site, &cond);
            if fails_when {
                (fork.then, fork.otherwise)
            } else {
                (fork.otherwise, fork.then)
            }
        } else {
            let passes = if fails_when {
                alg.not(cond.clone())
            } else {
                cond.clone()
            };
            (None, pol.assume(&state.path, site, &passes))
        };
        let record = pol.records_trail();
        if let (Some(path), Some((kind, span))) = (fail, error) {
            let mut err = error_state(&state, path, kind, span);
            if record {
                push_decision(&mut err, site, fails_when, cond.clone());
            }
            out.push(err);
        }
        state.path = pass?;
        if record {
            push_decision(&mut state, site, !fails_when, cond);
        }
        Some(state)
    }

    /// A conditional branch on `cond` to `then_to` or `else_to`: both
    /// sides go on.
    pub(super) fn branch<P: Policy<A>>(
        &mut self,
        alg: &mut A,
        pol: &mut P,
        mut state: State<A, P::Path>,
        cond: &Code,
        (then_to, else_to): (Pc, Pc),
        out: &mut Vec<State<A, P::Path>>,
    ) {
        let site = Site {
            pc: state.pc,
            check: None,
        };
        let cond = self.eval(alg, cond, &state);
        if let Some(holds) = alg.as_bool(&cond) {
            pol.folded(site, holds);
            state.pc = if holds { then_to } else { else_to };
            out.push(state);
            return;
        }
        let fork = pol.branch(&state.path, site, &cond);
        let record = pol.records_trail().then_some(cond);
        take_sides(state, fork, site, record, then_to, else_to, out);
    }
}

fn push_decision<A: Algebra, P>(state: &mut State<A, P>, site: Site, taken: bool, cond: A::Value) {
    state.trail = state.trail.push(Decision { site, taken, cond });
}

/// A copy of `state` stuck on an error, with path `path`.
fn error_state<A: Algebra, P: Clone>(
    state: &State<A, P>,
    path: P,
    kind: ErrorKind,
    span: Span,
) -> State<A, P> {
    let mut s = state.clone();
    s.path = path;
    s.status = Status::Error { kind, span };
    s
}

/// Pushes the sides a branch may take, cloning `state` only when both are.
fn take_sides<A: Algebra, P: Clone>(
    state: State<A, P>,
    fork: Fork<P>,
    site: Site,
    record: Option<A::Value>,
    then_to: Pc,
    else_to: Pc,
    out: &mut Vec<State<A, P>>,
) {
    let mut go = |mut s: State<A, P>, path: P, taken: bool, to: Pc| {
        s.path = path;
        if let Some(c) = &record {
            push_decision(&mut s, site, taken, c.clone());
        }
        s.pc = to;
        out.push(s);
    };
    match (fork.then, fork.otherwise) {
        (Some(t), Some(e)) => {
            let other = state.clone();
            go(state, t, true, then_to);
            go(other, e, false, else_to);
        }
        (Some(t), None) => go(state, t, true, then_to),
        (None, Some(e)) => go(state, e, false, else_to),
        (None, None) => {}
    }
}
