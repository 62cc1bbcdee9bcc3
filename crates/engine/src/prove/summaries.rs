//! Summaries of recursive procedures, for the clauses of [`super::clauses`].
//!
//! A procedure on a cycle of the call graph cannot be inlined. It gets
//! two relations instead (the "entry/summary" encoding of SeaHorn and
//! Ultimate): `Call_f(params, globals, arrays)`, the states it may be
//! called in, with a clause from each call site; and `Sum_f(params,
//! globals, arrays, result, globals', arrays')`, what a call that
//! returns makes of them. Its body is encoded once, in a context of its
//! own: from `Call_f`'s parameters to each `return`, which ends a clause
//! into `Sum_f`; its errors are queries from `Call_f` (or from its loops'
//! cut points), so they count only for calls that are reachable.
//!
//! At a call, the caller's clause ends: one clause says the call is made
//! (`Call_f` at the arguments and the state), and one, non-linear, takes
//! the caller on past it, to a cut point after the call, from a state
//! whose result, globals and arrays are fresh variables that the callee's
//! summary relates to those before (`caller ∧ Sum_f(...) ⇒ after`).
//!
//! The callee's context runs on a stack whose bottom is a frame of the
//! encoder's, with no routine (as `main`'s: nothing else in the context
//! has none): the callee returns into it (its result in slot 0), and it
//! holds, as slots nothing writes, the values the call started from, so
//! that the cut points of the callee's loops remember them until the
//! `return` gives the summary.

use crate::guarded::Guard;
use crate::symbolic::{SymArray, Symbolic};
use rustc_hash::FxHashSet;
use wiser_ir::{Instr, Ir, Pc, Place, ProcId};
use wiser_semantics::{Algebra, Frame, Locals, Stack, State, Status};
use wiser_smt::Term;

/// The encoder's states: symbolic, with BMC's guards as paths.
pub(super) type GState = State<Symbolic, Guard>;

/// Fresh variables named after what they hold: the first of the names
/// offered that is not taken, else the last with a `'` per repetition.
#[derive(Default)]
pub(super) struct Namer {
    used: FxHashSet<String>,
}

impl Namer {
    /// A variable of `like`'s sort named after the first free of `names`.
    pub(super) fn fresh(&mut self, names: &[String], like: &Term) -> Term {
        let mut text = names
            .iter()
            .find(|n| !self.used.contains(*n))
            .cloned()
            .unwrap_or_else(|| names[names.len() - 1].clone());
        while self.used.contains(&text) {
            text.push('\'');
        }
        self.used.insert(text.clone());
        Term::var(text, like.sort())
    }
}

/// The return point in the keys of the `Call_f` relations.
pub(super) const CALLED: Pc = Pc::MAX - 1;

/// The return point in the keys of the `Sum_f` relations.
pub(super) const SUMMARY: Pc = Pc::MAX - 2;

/// Per procedure: is it on a cycle of the call graph (does it call
/// itself, directly or through others)?
pub(super) fn recursive(ir: &Ir) -> Vec<bool> {
    let callees: Vec<Vec<usize>> = ir
        .procs
        .iter()
        .map(|r| {
            let mut seen = vec![false; ir.code.len()];
            let mut todo = vec![r.entry];
            let mut out = Vec::new();
            while let Some(pc) = todo.pop() {
                if std::mem::replace(&mut seen[pc as usize], true) {
                    continue;
                }
                let instr = &ir.at(pc).instr;
                if let Instr::Call { proc, .. } = instr {
                    out.push(proc.0 as usize);
                }
                todo.extend(wiser_ir::cfg::successors(instr));
            }
            out
        })
        .collect();
    (0..ir.procs.len())
        .map(|p| {
            let mut seen = vec![false; ir.procs.len()];
            let mut todo = callees[p].clone();
            while let Some(q) = todo.pop() {
                if q == p {
                    return true;
                }
                if !std::mem::replace(&mut seen[q], true) {
                    todo.extend(&callees[q]);
                }
            }
            false
        })
        .collect()
}

/// The relations of a summarised procedure `f`: `Call_f`'s parameters,
/// `Sum_f`'s (`Call_f`'s first), and the state `f`'s context starts
/// from, over `Call_f`'s parameters.
pub(super) struct Relations {
    /// `params, globals, arrays`.
    pub call: Vec<Term>,
    /// `params, globals, arrays, result (if f returns one), globals',
    /// arrays'`.
    pub sum: Vec<Term>,
    /// `f`'s entry, on the encoder's bottom frame.
    pub start: GState,
}

/// [`Relations`] of `f`; `template` is a state of the program (for the
/// sorts of the globals and arrays, and the heap's counts).
pub(super) fn relations(ir: &Ir, alg: &mut Symbolic, f: ProcId, template: &GState) -> Relations {
    let routine = ir.routine(Some(f));
    let mut names = Namer::default();
    let params: Vec<Term> = routine.slots[..routine.params as usize]
        .iter()
        .map(|s| names.fresh(&[s.name.to_string()], &alg.zero(s.ty)))
        .collect();
    let globals: Vec<Term> = ir
        .globals
        .iter()
        .zip(template.globals.iter())
        .map(|(g, v)| names.fresh(&[g.name.to_string()], v))
        .collect();
    let arrays: Vec<Term> = ir
        .arrays
        .iter()
        .zip(template.arrays.iter())
        .map(|(d, a)| names.fresh(&[d.name.to_string()], a.term()))
        .collect();
    let call: Vec<Term> = params
        .iter()
        .chain(&globals)
        .chain(&arrays)
        .cloned()
        .collect();
    let result = routine
        .ret
        .map(|ty| names.fresh(&["result".into()], &alg.zero(ty)));
    let mut sum = call.clone();
    sum.extend(result.clone());
    for v in globals.iter().chain(&arrays) {
        let name = v
            .as_var()
            .map_or_else(|| "v".to_string(), |n| n.to_string());
        sum.push(names.fresh(&[name], v));
    }
    let mut locals = params.clone();
    for s in &routine.slots[params.len()..] {
        locals.push(alg.zero(s.ty));
    }
    // The bottom frame: the result's slot, then the values the call
    // started from.
    let mut bottom: Vec<Term> = routine.ret.map(|ty| alg.zero(ty)).into_iter().collect();
    bottom.extend(call.iter().cloned());
    let frame = |locals: Vec<Term>, proc, dst| Frame {
        locals: Locals::new(locals),
        proc,
        // A real instruction (merging ranks the callers' return
        // points), never run: the encoder takes the state at the return.
        ret: routine.entry,
        dst,
        call_site: routine.span,
    };
    let start = State {
        pc: routine.entry,
        frame: frame(locals, Some(f), routine.ret.map(|_| Place::Local(0))),
        callers: Stack::new().push(frame(bottom, None, None)),
        globals: std::sync::Arc::new(globals),
        arrays: std::sync::Arc::new(arrays.into_iter().map(SymArray::new).collect()),
        path: Guard::new(),
        reads: 0,
        steps: 0,
        status: Status::Running,
        trail: Stack::new(),
        heap: template.heap,
        heap_reads: Stack::new(),
        threads: None,
    };
    Relations { call, sum, start }
}

/// Has `s`, in the context of a summarised procedure, returned from it
/// (is it on the encoder's bottom frame)?
pub(super) fn returned(s: &GState) -> bool {
    s.callers.is_empty() && s.frame.proc.is_none()
}

/// The arguments of `Sum_f` at a state that has [`returned`] from `f`.
pub(super) fn summary_at_return(ir: &Ir, f: ProcId, s: &GState) -> Vec<Term> {
    let has_result = usize::from(ir.routine(Some(f)).ret.is_some());
    let locals = s.frame.locals.to_vec();
    let mut out: Vec<Term> = locals[has_result..].to_vec();
    out.extend(locals[..has_result].iter().cloned());
    out.extend(s.globals.iter().cloned());
    out.extend(s.arrays.iter().map(|a| a.term().clone()));
    out
}

/// At a state `s` just into a call of the summarised `f` (its frame
/// pushed): `Call_f`'s arguments, `Sum_f`'s, and the caller's state past
/// the call, whose result, globals and arrays are the fresh variables of
/// `Sum_f`'s arguments (named `f!…`, which no program's name is).
pub(super) fn call(
    ir: &Ir,
    alg: &mut Symbolic,
    f: ProcId,
    s: &GState,
) -> Option<(Vec<Term>, Vec<Term>, GState)> {
    let routine = ir.routine(Some(f));
    let mut args: Vec<Term> = s.frame.locals.to_vec();
    args.truncate(routine.params as usize);
    args.extend(s.globals.iter().cloned());
    args.extend(s.arrays.iter().map(|a| a.term().clone()));
    let name = &routine.name;
    let mut after = s.clone();
    let callee = after.frame.clone();
    let (caller, rest) = after.callers.clone().split()?;
    after.frame = caller;
    after.callers = rest;
    after.pc = callee.ret;
    let result = routine
        .ret
        .map(|ty| Term::var(format!("{name}!result"), alg.zero(ty).sort()));
    let globals: Vec<Term> = s
        .globals
        .iter()
        .enumerate()
        .map(|(i, v)| Term::var(format!("{name}!g{i}"), v.sort()))
        .collect();
    let arrays: Vec<Term> = s
        .arrays
        .iter()
        .enumerate()
        .map(|(i, a)| Term::var(format!("{name}!a{i}"), a.term().sort()))
        .collect();
    let mut sum = args.clone();
    sum.extend(result.iter().cloned());
    sum.extend(globals.iter().cloned());
    sum.extend(arrays.iter().cloned());
    // The callee's globals and arrays first, then the result's store (a
    // result may go to a global).
    after.globals = std::sync::Arc::new(globals);
    after.arrays = std::sync::Arc::new(arrays.into_iter().map(SymArray::new).collect());
    if let (Some(d), Some(r)) = (callee.dst, result) {
        after.store(d, r);
    }
    Some((args, sum, after))
}

/// The names of the bottom frame's slots, for the cut points of `f`'s
/// context: `result`, then each value the call started from as
/// `name@call`.
pub(super) fn bottom_names(ir: &Ir, f: ProcId) -> Vec<String> {
    let routine = ir.routine(Some(f));
    let mut out: Vec<String> = routine.ret.iter().map(|_| "result".to_string()).collect();
    let params = routine.slots[..routine.params as usize]
        .iter()
        .map(|s| &s.name);
    let globals = ir.globals.iter().map(|g| &g.name);
    let arrays = ir.arrays.iter().map(|a| &a.name);
    out.extend(
        params
            .chain(globals)
            .chain(arrays)
            .map(|n| format!("{n}@call")),
    );
    out
}
