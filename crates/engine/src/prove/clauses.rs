//! From a program to Horn clauses, by the one `Machine::step`.
//!
//! The cut points are the program's entry and every loop head, each in
//! the call context it is reached in (the frames' routines and return
//! points, so a loop of a called procedure is a cut point per call
//! chain: procedures are inlined). A recursive procedure is not inlined
//! but summarised ([`super::summaries`]): its calls end clauses, each
//! call site's continuation is a cut point, and its body is encoded once,
//! in a context of its own, into relations of its calls and its summary.
//! Each cut point gets a relation over every value a state holds there:
//! the frames' slots, the globals, the arrays. From each cut point, the machine runs from a
//! state whose every value is a fresh variable (the relation's
//! parameters; the entry runs from the initial state), with BMC's
//! [`Guarded`] policy (every side of every decision, under its condition)
//! on a merging frontier, so a loop body's paths meet again at its joins
//! and a clause covers many paths (large-block encoding). A state that
//! reaches a cut point ends a clause `rel(params) ∧ guard ⇒ rel'(values)`;
//! an error ends a query `rel(params) ∧ guard ⇒ false`; a call of a
//! summarised procedure ends the clause `rel(params) ∧ guard ⇒
//! call(args)` and the non-linear `rel(params) ∧ sum(args, results) ∧
//! guard ⇒ after(values)`.
//!
//! Values keep their sorts: C's machine integers are bit-vectors with
//! their exact semantics, IMP's integers unbounded.

use super::summaries::{self, GState, Namer, CALLED, SUMMARY};
use crate::config::Property;
use crate::frontier::Frontier;
use crate::guarded::{Guard, Guarded};
use crate::merge::{MergeFrontier, MergeMode};
use crate::report::Incomplete;
use crate::symbolic::{SymArray, Symbolic};
use rustc_hash::FxHashMap;
use std::sync::Arc;
use wiser_ir::{Cfg, Instr, Ir, Pc, ProcId};
use wiser_semantics::{Frame, Machine, Options, Stack, State, Status};
use wiser_smt::{Application, Clause, HornProblem, Relation, Term};

/// Where a cut point is: its `pc` and the call chain that reached it,
/// as (routine, return point) from `main` (or the encoder's bottom frame
/// of a summarised `root`'s context) inward.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct CutKey {
    pub pc: Pc,
    pub frames: Vec<(Option<ProcId>, Pc)>,
    pub root: Option<ProcId>,
}

/// A cut point's relation and the state its clauses start from.
pub(super) struct Cut {
    pub key: CutKey,
    start: Start,
    /// The summarised procedure whose context the cut point is in
    /// (`None`: `main`'s).
    root: Option<ProcId>,
}

/// Where a relation's clauses start.
enum Start {
    /// The program's initial state (the entry).
    Initial,
    /// A state over the relation's parameters.
    From(GState),
    /// Nowhere: a summary, which only clauses into it define.
    Nothing,
}

/// The Horn clauses of a program.
pub(super) struct Encoded {
    pub problem: HornProblem,
    /// Per relation: its cut point.
    pub cuts: Vec<Cut>,
    /// States stepped.
    pub states: u64,
}

/// Why a program could not be encoded.
pub(super) enum NotEncoded {
    /// A limit or the interrupt stopped the encoding.
    Stopped(Incomplete),
    /// The program has what the encoding does not cover.
    Unsupported(String),
}

/// The clauses of `ir` for the errors of `property`; `stop` says when
/// the run must end.
pub(super) fn encode(
    ir: &Arc<Ir>,
    property: Property,
    options: Options,
    stop: &dyn Fn() -> Option<Incomplete>,
) -> Result<Encoded, NotEncoded> {
    if ir.threaded {
        return Err(NotEncoded::Unsupported("threads".into()));
    }
    let cfg = Arc::new(Cfg::new(ir));
    let mut alg = Symbolic::new();
    let entry = Cut {
        key: CutKey {
            pc: ir.main.entry,
            frames: vec![(None, 0)],
            root: None,
        },
        start: Start::Initial,
        root: None,
    };
    let mut enc = Encoded {
        problem: HornProblem::default(),
        cuts: Vec::new(),
        states: 0,
    };
    let mut index: FxHashMap<CutKey, usize> = FxHashMap::default();
    index.insert(entry.key.clone(), 0);
    enc.problem.relations.push(Relation {
        name: "entry".into(),
        params: Vec::new(),
    });
    enc.cuts.push(entry);
    // The entry's relation has no parameters and holds: one fact.
    enc.problem.clauses.push(Clause {
        body: Vec::new(),
        constraint: Term::bool(true),
        head: Some(Application {
            relation: 0,
            args: Vec::new(),
        }),
    });
    let recursive = summaries::recursive(ir);
    let template = State::initial(ir, &mut alg, Guard::new());
    // Per summarised procedure met: its `Call_f` and `Sum_f` relations.
    let mut summarised: FxHashMap<ProcId, (usize, usize)> = FxHashMap::default();
    let mut next = 0;
    while next < enc.cuts.len() {
        let start = match &enc.cuts[next].start {
            Start::From(s) => s.clone(),
            Start::Initial => template.clone(),
            Start::Nothing => {
                next += 1;
                continue;
            }
        };
        let root = enc.cuts[next].root;
        let body = Application {
            relation: next,
            args: enc.problem.relations[next].params.clone(),
        };
        let mut frontier =
            MergeFrontier::<Guard>::new(ir.clone(), cfg.clone(), MergeMode::Joins, 0);
        let mut machine = Machine::with_options(ir, options);
        let mut out = Vec::with_capacity(4);
        frontier.push(start, false);
        while let Some(state) = frontier.pop() {
            enc.states += 1;
            if let Some(why) = stop() {
                return Err(NotEncoded::Stopped(why));
            }
            // A call of a summarised procedure ends the clause once the
            // step has run its checks and evaluated its arguments.
            let calls = match &ir.at(state.pc).instr {
                Instr::Call { proc, .. } if recursive[proc.0 as usize] => Some(*proc),
                _ => None,
            };
            machine.step(&mut alg, &mut Guarded, state, &mut out);
            for s in out.drain(..) {
                match s.status {
                    Status::Error { kind, .. } => {
                        if property.contains(kind) || !kind.is_terminal() {
                            enc.problem.clauses.push(Clause {
                                body: vec![body.clone()],
                                constraint: s.path.formula(),
                                head: None,
                            });
                        }
                        continue;
                    }
                    Status::Bounded(b) => {
                        return Err(NotEncoded::Unsupported(format!(
                            "a bound of the search ({})",
                            b.name()
                        )))
                    }
                    Status::Running => {}
                }
                if let Some(f) = calls {
                    let (call, sum) = *summarised.entry(f).or_insert_with(|| {
                        let rel = summaries::relations(ir, &mut alg, f, &template);
                        let name = &ir.routine(Some(f)).name;
                        let entry = ir.routine(Some(f)).entry;
                        let mut add = |what: &str, mark, params, start| {
                            enc.problem.relations.push(Relation {
                                name: format!("{what} {name}").into(),
                                params,
                            });
                            enc.cuts.push(Cut {
                                key: CutKey {
                                    pc: entry,
                                    frames: vec![(Some(f), mark)],
                                    root: Some(f),
                                },
                                start,
                                root: Some(f),
                            });
                            enc.cuts.len() - 1
                        };
                        let call = add("calls of", CALLED, rel.call, Start::From(rel.start));
                        (call, add("summary of", SUMMARY, rel.sum, Start::Nothing))
                    });
                    let Some((args, results, after)) = summaries::call(ir, &mut alg, f, &s) else {
                        return Err(NotEncoded::Unsupported("a call with no caller".into()));
                    };
                    let constraint = s.path.formula();
                    enc.problem.clauses.push(Clause {
                        body: vec![body.clone()],
                        constraint: constraint.clone(),
                        head: Some(Application {
                            relation: call,
                            args,
                        }),
                    });
                    let relation = cut_at(ir, &mut enc, &mut index, &after, root)?;
                    enc.problem.clauses.push(Clause {
                        body: vec![
                            body.clone(),
                            Application {
                                relation: sum,
                                args: results,
                            },
                        ],
                        constraint,
                        head: Some(Application {
                            relation,
                            args: values(&after),
                        }),
                    });
                    continue;
                }
                if let Some(f) = root.filter(|_| summaries::returned(&s)) {
                    if s.heap != template.heap {
                        return Err(NotEncoded::Unsupported(format!(
                            "a recursive procedure that allocates memory (`{}`)",
                            ir.routine(Some(f)).name
                        )));
                    }
                    let Some(&(_, sum)) = summarised.get(&f) else {
                        return Err(NotEncoded::Unsupported("a summary never called".into()));
                    };
                    enc.problem.clauses.push(Clause {
                        body: vec![body.clone()],
                        constraint: s.path.formula(),
                        head: Some(Application {
                            relation: sum,
                            args: summaries::summary_at_return(ir, f, &s),
                        }),
                    });
                    continue;
                }
                if let Some(proc) = s.frame.proc {
                    if s.callers.iter().any(|f| f.proc == Some(proc)) {
                        return Err(NotEncoded::Unsupported("recursion".into()));
                    }
                }
                if !cfg.is_loop_head(s.pc) {
                    frontier.push(s, true);
                    continue;
                }
                let relation = cut_at(ir, &mut enc, &mut index, &s, root)?;
                enc.problem.clauses.push(Clause {
                    body: vec![body.clone()],
                    constraint: s.path.formula(),
                    head: Some(Application {
                        relation,
                        args: values(&s),
                    }),
                });
            }
        }
        next += 1;
    }
    Ok(enc)
}

/// The relation of the cut point `s` is at, in the context of `root`,
/// made if it is new.
///
/// A relation's parameters are the state's values; its heap counters
/// (how many objects were made) are not among them, but constants of the
/// cut point, taken from the first state to reach it. So every state
/// that reaches a cut point must have made the same objects: a program
/// that allocates in a loop or on some paths only (as `argv` is made, one
/// way per `argc`), or has read input objects, is refused.
/// Objects made once (static arrays, structures whose address is taken,
/// allocations before the loops) are encoded as their cells' arrays.
fn cut_at(
    ir: &Ir,
    enc: &mut Encoded,
    index: &mut FxHashMap<CutKey, usize>,
    s: &GState,
    root: Option<ProcId>,
) -> Result<usize, NotEncoded> {
    if !s.heap_reads.is_empty() || s.heap.input_refs != 0 {
        return Err(NotEncoded::Unsupported("input objects".into()));
    }
    let key = key_of(s, root);
    if let Some(&r) = index.get(&key) {
        if let Start::From(start) = &enc.cuts[r].start {
            if start.heap != s.heap {
                return Err(NotEncoded::Unsupported(format!(
                    "memory allocated in a loop or on some paths only (a loop head in `{}` is reached with different numbers of objects)",
                    ir.routine(s.frame.proc).name
                )));
            }
        }
        return Ok(r);
    }
    let r = enc.cuts.len();
    let (start, params) = havoc(ir, s, root);
    index.insert(key.clone(), r);
    enc.problem.relations.push(Relation {
        name: format!("cut point at pc {}", key.pc).into(),
        params,
    });
    enc.cuts.push(Cut {
        key,
        start: Start::From(start),
        root,
    });
    Ok(r)
}

/// The cut point a state is at, in the context of `root`.
fn key_of(s: &GState, root: Option<ProcId>) -> CutKey {
    let mut frames: Vec<(Option<ProcId>, Pc)> = s.callers.iter().map(|f| (f.proc, f.ret)).collect();
    frames.reverse();
    frames.push((s.frame.proc, s.frame.ret));
    CutKey {
        pc: s.pc,
        frames,
        root,
    }
}

/// Every value of a state, in the relation's order: the frames' slots
/// from `main` inward, the globals, the arrays.
fn values(s: &GState) -> Vec<Term> {
    let mut frames: Vec<&Frame<Term>> = s.callers.iter().collect();
    frames.reverse();
    frames.push(&s.frame);
    let mut out: Vec<Term> = frames
        .iter()
        .flat_map(|f| f.locals.iter().cloned())
        .collect();
    out.extend(s.globals.iter().cloned());
    out.extend(s.arrays.iter().map(|a| a.term().clone()));
    out
}

/// `s` with every value a fresh variable named after what it holds, and
/// those variables in [`values`]' order. The names are the program's (a
/// name met before is `routine::name`, then gets a `'` per repetition),
/// so an invariant over them reads as the program; in the context of a
/// summarised `root`, the encoder's bottom frame's are
/// [`summaries::bottom_names`].
fn havoc(ir: &Ir, s: &GState, root: Option<ProcId>) -> (GState, Vec<Term>) {
    let mut names = Namer::default();
    let mut params = Vec::new();
    let mut frame_of = |f: &Frame<Term>, params: &mut Vec<Term>| {
        let routine = ir.routine(f.proc);
        let bottom = match root {
            Some(r) if f.proc.is_none() => summaries::bottom_names(ir, r),
            _ => Vec::new(),
        };
        let locals: Vec<Term> = f
            .locals
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let p = match bottom.get(i) {
                    Some(name) => names.fresh(std::slice::from_ref(name), v),
                    None => {
                        let slot = &routine.slots[i].name;
                        let qualified = format!("{}::{slot}", routine.name);
                        names.fresh(&[slot.to_string(), qualified], v)
                    }
                };
                params.push(p.clone());
                p
            })
            .collect();
        Frame {
            locals: wiser_semantics::Locals::new(locals),
            ..f.clone()
        }
    };
    let mut callers: Vec<&Frame<Term>> = s.callers.iter().collect();
    callers.reverse();
    let mut stack = Stack::new();
    for f in callers {
        stack = stack.push(frame_of(f, &mut params));
    }
    let frame = frame_of(&s.frame, &mut params);
    let globals: Vec<Term> = s
        .globals
        .iter()
        .zip(&ir.globals)
        .map(|(v, g)| {
            let p = names.fresh(&[g.name.to_string()], v);
            params.push(p.clone());
            p
        })
        .collect();
    let arrays: Vec<SymArray> = s
        .arrays
        .iter()
        .zip(&ir.arrays)
        .map(|(a, d)| {
            let p = names.fresh(&[d.name.to_string()], a.term());
            params.push(p.clone());
            SymArray::new(p)
        })
        .collect();
    let start = State {
        pc: s.pc,
        frame,
        callers: stack,
        globals: Arc::new(globals),
        arrays: Arc::new(arrays),
        path: Guard::new(),
        reads: 0,
        steps: 0,
        status: Status::Running,
        trail: Stack::new(),
        heap: s.heap,
        heap_reads: Stack::new(),
        threads: None,
    };
    (start, params)
}
