//! Threads: seed 001 §5's configurations of several thread stacks, the
//! scheduler that lets any thread take the next step, and the partial-order
//! reduction that skips interleavings of independent steps.
//!
//! A state of a program that starts threads keeps the running thread's
//! context inline (`pc`, `frame`, `callers`, as without threads) and the
//! others in [`Threads`]. After every step, [`Machine::step`] asks whether
//! the running thread's next instruction is *visible* (it touches a
//! global, an array or field, a lock, a thread, the input stream: see
//! [`wiser_ir::cfg::is_visible`]). Before an invisible instruction the
//! running thread simply goes on: the instruction commutes with every step
//! of every other thread, so no interleaving is lost. Before a visible one
//! (or when the thread has finished) comes a *scheduling point*:
//!
//! 1. Each unfinished thread's next instruction says whether it can run:
//!    `join t` when thread `t` has finished, `lock o` when `o`'s lock is
//!    free, anything else always. A condition the algebra cannot decide (a
//!    lock on a symbolic reference that may alias a held one) is a decision
//!    of the policy at the blocked instruction's site, like a branch.
//! 2. No thread can run: a [`ErrorKind::Deadlock`] (the main thread at its
//!    end can always run: the program ends with it).
//! 3. Otherwise [`Policy::schedule`] picks which of the threads that can
//!    run to explore (the symbolic policies: all of them; the interpreter:
//!    the one its schedule names), and each becomes a successor in which
//!    that thread runs.
//!
//! **The schedule of a path** lists the points where the chosen thread was
//! not the default one (the running thread when it can go on, else the
//! lowest id that can run); replaying a witness follows it and takes the
//! default elsewhere, so a witness stays short.
//!
//! **Partial-order reduction** (sleep sets, Godefroid 1996): at a point,
//! the threads explored before a sibling are put to sleep in the sibling's
//! subtree as long as each one's next step is independent of the steps
//! taken (different globals, different array cells or fields of different
//! objects, reads only); a sleeping thread is not explored again until a
//! dependent step wakes it. Independence is decided on the steps' actual
//! footprints (indices that the algebra knows as constants; an unknown
//! index may be any), so steps on different objects commute even though
//! they touch the same field array. Sleep sets preserve the reachability
//! of every local state and every deadlock: each Mazurkiewicz trace keeps
//! an explored representative. `Options::por_off` explores every
//! interleaving.
//!
//! **Persistent sets** on top: when a thread's next step touches only
//! objects that no other thread can reach (made by `new` and not
//! published), it runs alone at that point (see `private_step`).

use crate::algebra::Algebra;
use crate::policy::Policy;
use crate::stack::Stack;
use crate::state::{Bound, Decision, Frame, State, Status};
use crate::step::Machine;
use std::sync::Arc;
use wiser_ir::{ArrayId, Code, ErrorKind, Instr, IntTy, Op, Pc, Place, ScalarTy, Site};
use wiser_num::{CmpOp, Int};

/// The most threads a state may hold (sleep sets are bit masks).
pub const MAX_THREADS: u32 = 64;

/// A thread's context.
#[derive(Debug)]
pub struct Thread<V> {
    /// Its next instruction.
    pub pc: Pc,
    /// Its innermost frame.
    pub frame: Frame<V>,
    /// Its other frames, innermost on top.
    pub callers: Stack<Frame<V>>,
    /// Has it finished (returned from the procedure it was started with)?
    pub done: bool,
}

impl<V> Clone for Thread<V> {
    fn clone(&self) -> Self {
        Thread {
            pc: self.pc,
            frame: self.frame.clone(),
            callers: self.callers.clone(),
            done: self.done,
        }
    }
}

/// One entry of a schedule: at scheduling point `point` (counted from 0
/// along the path), thread `thread` was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Switch {
    /// The scheduling point.
    pub point: u32,
    /// The thread that ran from there.
    pub thread: u32,
}

/// The threads of a state (see the module documentation).
#[derive(Debug)]
pub struct Threads<V> {
    /// The running thread's id.
    pub current: u32,
    /// Every thread by id (0 is the main thread). The running thread's
    /// entry is stale except for `done`: its context is in the state.
    pub all: Vec<Thread<V>>,
    /// The thread inside an atomic section, if any, and how deeply the
    /// sections nest (an atomic function called in an atomic section).
    pub atomic: Option<(u32, u32)>,
    /// Scheduling points passed.
    pub points: u32,
    /// Context switches away from a thread that could have gone on.
    pub preemptions: u32,
    /// Threads asleep (partial-order reduction), one bit per id.
    pub sleep: u64,
    /// The non-default choices of the path, newest on top.
    pub schedule: Stack<Switch>,
}

impl<V> Clone for Threads<V> {
    fn clone(&self) -> Self {
        Threads {
            current: self.current,
            all: self.all.clone(),
            atomic: self.atomic,
            points: self.points,
            preemptions: self.preemptions,
            sleep: self.sleep,
            schedule: self.schedule.clone(),
        }
    }
}

impl<V> Threads<V> {
    /// The threads of a program's initial state: the main thread only
    /// (its entry a copy of the running context, stale as documented).
    pub fn main(pc: Pc, frame: &Frame<V>) -> Self {
        Threads {
            current: 0,
            all: vec![Thread {
                pc,
                frame: frame.clone(),
                callers: Stack::new(),
                done: false,
            }],
            atomic: None,
            points: 0,
            preemptions: 0,
            sleep: 0,
            schedule: Stack::new(),
        }
    }
}

/// Pseudo-globals for the state that is not in variables: which threads
/// exist and have ended (`spawn`, `join`, a thread's end), the allocator
/// (`new` numbers objects in order), the input stream (reads are numbered
/// in order).
const THREAD_TABLE: u32 = u32::MAX;
const ALLOCATOR: u32 = u32::MAX - 1;
const INPUT_STREAM: u32 = u32::MAX - 2;

/// What a step reads and writes, for deciding whether two steps of
/// different threads commute.
#[derive(Clone, Debug, Default)]
struct Footprint {
    /// Depends on everything (threads, the input stream, allocation).
    all: bool,
    /// Globals, with whether they are written.
    globals: Vec<(u32, bool)>,
    /// Array cells: the array, the index if known, written?
    cells: Vec<(ArrayId, Option<Int>, bool)>,
}

impl Footprint {
    fn independent(&self, other: &Footprint) -> bool {
        if self.all || other.all {
            return false;
        }
        let globals = self
            .globals
            .iter()
            .all(|&(g, w)| other.globals.iter().all(|&(h, w2)| g != h || !(w || w2)));
        let cells = self.cells.iter().all(|(a, i, w)| {
            other.cells.iter().all(|(b, j, w2)| {
                let may_alias = match (i, j) {
                    (Some(x), Some(y)) => x == y,
                    _ => true,
                };
                a != b || !(*w || *w2) || !may_alias
            })
        });
        globals && cells
    }
}

impl<A: Algebra> Machine<'_, A> {
    /// The code a thread `t` of `s` would run next, with its locals.
    fn context<P>(s: &State<A, P>, t: u32) -> (Pc, &crate::Locals<A::Value>) {
        let th = s.threads.as_ref().expect("a threaded state");
        if t == th.current {
            (s.pc, &s.frame.locals)
        } else {
            let c = &th.all[t as usize];
            (c.pc, &c.frame.locals)
        }
    }

    /// Whether thread `t` of `s` can take its next step (a boolean value).
    fn can_run<P>(&mut self, alg: &mut A, s: &State<A, P>, t: u32) -> A::Value {
        let (pc, locals) = Self::context(s, t);
        let th = s.threads.as_ref().expect("a threaded state");
        match &self.ir.at(pc).instr {
            Instr::Join { thread, ty, .. } => {
                let v = self.eval_in(alg, thread, locals, s);
                let mut any = alg.bool(false);
                for (d, other) in th.all.iter().enumerate() {
                    if other.done {
                        let id = alg.int(*ty, &Int::from(d as i64));
                        let is = alg.compare(CmpOp::Eq, *ty, v.clone(), id);
                        any = alg.or(any, is);
                    }
                }
                any
            }
            Instr::Lock { lock, obj, .. } => {
                let o = self.eval_in(alg, obj, locals, s);
                let ty = self.ir.arrays[lock.0 as usize].ty;
                let holder = alg.select(ty, &s.arrays[lock.0 as usize], o);
                let free = alg.int(IntTy::INT, &Int::ZERO);
                alg.compare(CmpOp::Eq, IntTy::INT, holder, free)
            }
            _ => alg.bool(true),
        }
    }

    /// The footprint of thread `t`'s next step in `s`.
    fn footprint<P>(&mut self, alg: &mut A, s: &State<A, P>, t: u32) -> Footprint {
        let (pc, locals) = Self::context(s, t);
        let loc = self.ir.at(pc);
        let mut fp = Footprint::default();
        let mut codes: Vec<&Code> = Vec::new();
        for c in loc.checks.iter() {
            codes.push(&c.cond);
            codes.extend(c.guard.as_ref());
        }
        match &loc.instr {
            Instr::Assign { dst, value, .. } => {
                if let Place::Global(g) = dst {
                    fp.globals.push((*g, true));
                }
                codes.push(value);
            }
            Instr::Branch { cond, .. }
            | Instr::Assert { cond, .. }
            | Instr::Assume { cond, .. } => codes.push(cond),
            Instr::Call { args, dst, .. } => {
                if let Some(Place::Global(g)) = dst {
                    fp.globals.push((*g, true));
                }
                codes.extend(args.iter());
            }
            Instr::Store {
                array,
                index,
                value,
                ..
            } => {
                let i = self.eval_in(alg, index, locals, s);
                fp.cells.push((*array, alg.as_int(&i), true));
                codes.push(index);
                codes.push(value);
            }
            Instr::Lock { lock, obj, .. } | Instr::Unlock { lock, obj, .. } => {
                let o = self.eval_in(alg, obj, locals, s);
                fp.cells.push((*lock, alg.as_int(&o), true));
                codes.push(obj);
            }
            // Output changes nothing a thread can read.
            Instr::Skip { .. } | Instr::Fail | Instr::Output { .. } => {}
            Instr::Return { value } => {
                if s.threads.as_ref().is_some_and(|th| {
                    let callers = if t == th.current {
                        &s.callers
                    } else {
                        &th.all[t as usize].callers
                    };
                    callers.is_empty()
                }) {
                    // The thread ends: joins of it may go on.
                    fp.globals.push((THREAD_TABLE, true));
                }
                codes.extend(value.as_ref());
            }
            Instr::Havoc { dst, .. } => {
                fp.globals.push((INPUT_STREAM, true));
                if let Place::Global(g) = dst {
                    fp.globals.push((*g, true));
                }
            }
            Instr::New { dst, .. } => {
                fp.globals.push((ALLOCATOR, true));
                if let Place::Global(g) = dst {
                    fp.globals.push((*g, true));
                }
            }
            Instr::Spawn { args, dst, .. } => {
                fp.globals.push((THREAD_TABLE, true));
                if let Some(Place::Global(g)) = dst {
                    fp.globals.push((*g, true));
                }
                codes.extend(args.iter());
            }
            Instr::Join { thread, .. } => {
                fp.globals.push((THREAD_TABLE, false));
                codes.push(thread);
            }
            Instr::Halt | Instr::Atomic { .. } => fp.all = true,
        }
        for code in codes {
            for op in code.iter() {
                if let Op::Load(Place::Global(g)) = op {
                    fp.globals.push((*g, false));
                }
            }
            self.capture = Some(Vec::new());
            self.eval_in(alg, code, locals, s);
            for (a, i) in self.capture.take().unwrap_or_default() {
                fp.cells.push((a, alg.as_int(&i), false));
            }
        }
        fp
    }

    /// Is thread `t`'s next step *private*: on objects made by `new` that
    /// no other thread can reach (no other thread's frame, no global and
    /// no array holds their reference), outside any loop? Then `{t}` is a
    /// persistent set: no step the others can take before `t` moves
    /// touches those objects, so exploring `t` alone loses nothing (the
    /// loop condition is the cycle proviso: a state on a cycle of the
    /// state graph is always expanded fully, so no thread waits forever).
    fn private_step<P>(&mut self, alg: &mut A, s: &State<A, P>, t: u32) -> bool {
        let (pc, _) = Self::context(s, t);
        if self.cyclic[pc as usize] {
            return false;
        }
        let fp = self.footprint(alg, s, t);
        if fp.all || !fp.globals.is_empty() || fp.cells.is_empty() {
            return false;
        }
        let mut objects: Vec<Int> = Vec::new();
        for (_, index, _) in &fp.cells {
            match index {
                Some(o) if *o < Int::ZERO => objects.push(o.clone()),
                _ => return false,
            }
        }
        let th = s.threads.as_ref().expect("a threaded state");
        let may_hold = |alg: &A, v: &A::Value| alg.as_int(v).is_none_or(|k| objects.contains(&k));
        for (u, other) in th.all.iter().enumerate() {
            if u as u32 == t || other.done {
                continue;
            }
            let (frame, callers) = if u as u32 == th.current {
                (&s.frame, &s.callers)
            } else {
                (&other.frame, &other.callers)
            };
            for f in std::iter::once(frame).chain(callers.iter()) {
                if f.locals.iter().any(|v| may_hold(alg, v)) {
                    return false;
                }
            }
        }
        if s.globals.iter().any(|v| may_hold(alg, v)) {
            return false;
        }
        !s.arrays
            .iter()
            .any(|a| objects.iter().any(|o| alg.array_may_hold(a, o)))
    }

    /// The scheduling that follows a step of a threaded program (see the
    /// module documentation): pushes the successors of `s`.
    pub(crate) fn reschedule<P: Policy<A>>(
        &mut self,
        alg: &mut A,
        pol: &mut P,
        s: State<A, P::Path>,
        out: &mut Vec<State<A, P::Path>>,
    ) {
        let Some(th) = s.threads.as_ref() else {
            out.push(s);
            return;
        };
        let cur = th.current;
        let cur_done = th.all[cur as usize].done;
        if !cur_done && !self.ir.visible[s.pc as usize] {
            out.push(s);
            return;
        }
        let n = th.all.len() as u32;
        let atomic = th.atomic;
        let conds: Vec<Option<A::Value>> = (0..n)
            .map(|t| {
                let done = s.threads.as_ref().is_some_and(|th| th.all[t as usize].done);
                (!done).then(|| self.can_run(alg, &s, t))
            })
            .collect();
        let known: Vec<Option<bool>> = conds
            .iter()
            .map(|c| c.as_ref().map_or(Some(false), |c| alg.as_bool(c)))
            .collect();
        if atomic.is_some_and(|(t, _)| t == cur) && known[cur as usize] == Some(true) {
            out.push(s);
            return;
        }
        // Decide the conditions the algebra cannot, one thread at a time.
        let mut work = vec![(s, known)];
        while let Some((s, known)) = work.pop() {
            let Some(t) = known.iter().position(Option::is_none) else {
                let enabled: Vec<u32> = (0..n)
                    .filter(|&t| known[t as usize] == Some(true))
                    .collect();
                self.choose(alg, pol, s, &enabled, out);
                continue;
            };
            let cond = conds[t].clone().expect("an undecided thread runs");
            let (pc, _) = Self::context(&s, t as u32);
            let site = Site { pc, check: None };
            let fork = pol.branch(&s.path, site, &cond);
            let record = pol.records_trail();
            let mut sides = Vec::new();
            if let Some(path) = fork.otherwise {
                sides.push((false, path));
            }
            if let Some(path) = fork.then {
                sides.push((true, path));
            }
            let last = sides.len();
            let mut s = Some(s);
            for (i, (taken, path)) in sides.into_iter().enumerate() {
                let mut child = if i + 1 == last {
                    s.take().expect("moved once")
                } else {
                    s.as_ref().expect("not moved yet").clone()
                };
                child.path = path;
                if record {
                    child.trail = child.trail.push(Decision {
                        site,
                        taken,
                        cond: cond.clone(),
                    });
                }
                let mut known = known.clone();
                known[t] = Some(taken);
                work.push((child, known));
            }
        }
    }

    /// A scheduling point where no thread can run: a deadlock, named by
    /// the state alone, not by which thread happened to run last: the
    /// lowest thread waiting for a lock, else the lowest waiting at all
    /// (the main thread's `join`).
    fn deadlock<P>(&self, mut s: State<A, P>, out: &mut Vec<State<A, P>>) {
        let th = s.threads.as_ref().expect("a threaded state");
        let waiting: Vec<u32> = (0..th.all.len() as u32)
            .filter(|&t| !th.all[t as usize].done)
            .collect();
        let at_lock = |t: &u32| {
            let (pc, _) = Self::context(&s, *t);
            matches!(self.ir.at(pc).instr, Instr::Lock { .. })
        };
        let who = waiting
            .iter()
            .copied()
            .find(at_lock)
            .or(waiting.first().copied())
            .unwrap_or(th.current);
        switch_to(&mut s, who);
        let span = self.ir.at(s.pc).span;
        s.status = Status::Error {
            kind: ErrorKind::Deadlock,
            span,
        };
        out.push(s);
    }

    /// A scheduling point whose enabled threads are known.
    fn choose<P: Policy<A>>(
        &mut self,
        alg: &mut A,
        pol: &mut P,
        mut s: State<A, P::Path>,
        enabled: &[u32],
        out: &mut Vec<State<A, P::Path>>,
    ) {
        if enabled.is_empty() {
            return self.deadlock(s, out);
        }
        let th = s.threads.as_ref().expect("a threaded state");
        let cur = th.current;
        let default = if enabled.contains(&cur) {
            cur
        } else {
            enabled[0]
        };
        let por = !self.options.por_off;
        let sleep = if por { th.sleep } else { 0 };
        let mut candidates: Vec<u32> = enabled
            .iter()
            .copied()
            .filter(|&t| sleep & (1 << t) == 0)
            .collect();
        if por && candidates.len() > 1 {
            if let Some(t) = candidates
                .clone()
                .into_iter()
                .find(|&t| self.private_step(alg, &s, t))
            {
                candidates = vec![t];
            }
        }
        if candidates.is_empty() {
            // Every thread that can run is asleep: the interleavings from
            // here are explored elsewhere.
            return;
        }
        let point = th.points;
        let chosen = pol.schedule(point, &candidates, default);
        let footprints: Vec<Option<Footprint>> = if por {
            let n = th.all.len() as u32;
            let wanted = |t: u32| sleep & (1 << t) != 0 || chosen.contains(&t);
            (0..n)
                .map(|t| wanted(t).then(|| self.footprint(alg, &s, t)))
                .collect()
        } else {
            Vec::new()
        };
        let could_go_on = enabled.contains(&cur);
        let mut explored: u64 = 0;
        let mut bounded = false;
        for &t in &chosen {
            let th = s.threads.as_ref().expect("a threaded state");
            let preempts = could_go_on && t != cur;
            if preempts
                && self
                    .options
                    .max_switches
                    .is_some_and(|m| th.preemptions >= m)
            {
                bounded = true;
                explored |= 1 << t;
                continue;
            }
            let mut child = s.clone();
            let th = Arc::make_mut(child.threads.as_mut().expect("a threaded state"));
            th.sleep = if por {
                let n = th.all.len() as u32;
                sleep_after(&footprints, t, sleep | explored, n)
            } else {
                0
            };
            explored |= 1 << t;
            th.points += 1;
            if preempts {
                th.preemptions += 1;
            }
            if t != default {
                th.schedule = th.schedule.push(Switch { point, thread: t });
            }
            switch_to(&mut child, t);
            out.push(child);
        }
        if bounded {
            s.status = Status::Bounded(Bound::Switches);
            out.push(s);
        }
    }
}

/// The sleep set after thread `t` runs, of `n` threads: the threads
/// asleep (or already explored) before, `asleep`, whose next steps are
/// independent of `t`'s.
fn sleep_after(footprints: &[Option<Footprint>], t: u32, asleep: u64, n: u32) -> u64 {
    let fp_t = footprints[t as usize].as_ref().expect("computed");
    let mut next = 0u64;
    for u in 0..n {
        if asleep & (1 << u) != 0
            && u != t
            && footprints[u as usize]
                .as_ref()
                .is_some_and(|fp_u| fp_u.independent(fp_t))
        {
            next |= 1 << u;
        }
    }
    next
}

/// The thread a run that follows `schedule` (sorted by point) takes at
/// scheduling point `point`: the one the schedule names if it may run,
/// else `default` if it may, else the lowest candidate. The interpreter
/// and concolic execution follow schedules this way.
pub fn follow(schedule: &[Switch], point: u32, candidates: &[u32], default: u32) -> u32 {
    let named = schedule
        .binary_search_by_key(&point, |s| s.point)
        .ok()
        .map(|i| schedule[i].thread)
        .filter(|t| candidates.contains(t));
    named.unwrap_or(if candidates.contains(&default) {
        default
    } else {
        candidates[0]
    })
}

/// Makes thread `t` the running one.
fn switch_to<A: Algebra, P>(s: &mut State<A, P>, t: u32) {
    let th = Arc::make_mut(s.threads.as_mut().expect("a threaded state"));
    let cur = th.current;
    if t == cur {
        return;
    }
    {
        let next = &mut th.all[t as usize];
        std::mem::swap(&mut s.pc, &mut next.pc);
        std::mem::swap(&mut s.frame, &mut next.frame);
        std::mem::swap(&mut s.callers, &mut next.callers);
    }
    // `all[t]` now holds the old thread's context: move it to its slot.
    let (lo, hi) = (t.min(cur) as usize, t.max(cur) as usize);
    let (left, right) = th.all.split_at_mut(hi);
    let (a, b) = (&mut left[lo], &mut right[0]);
    std::mem::swap(&mut a.pc, &mut b.pc);
    std::mem::swap(&mut a.frame, &mut b.frame);
    std::mem::swap(&mut a.callers, &mut b.callers);
    th.current = t;
}

/// The value a lock holds when thread `t` holds it.
pub(crate) fn holder<A: Algebra>(alg: &mut A, t: u32) -> A::Value {
    alg.int(IntTy::INT, &Int::from(i64::from(t) + 1))
}

/// The scalar type of thread ids stored by `spawn` into `ty`.
pub(crate) fn thread_id<A: Algebra>(alg: &mut A, ty: ScalarTy, t: u32) -> A::Value {
    alg.scalar(ty, &Int::from(i64::from(t)))
}
