//! The one module that talks to Z3. Terms are translated bottom-up with an
//! explicit stack (deep terms cannot overflow) and a cache, so a constraint
//! shared by many queries is translated once per solver.
//!
//! Solving is incremental, and the solver's stack is shared by every
//! query of a worker. A query is a path's constraints followed by the new
//! condition. Each path constraint is asserted once, as `g ⇒ c` behind a
//! fresh literal `g`, and a query switches its constraints on by checking
//! under their literals as assumptions: the queries of neighbouring paths
//! reuse most of them, in whatever order the search visits the paths. The
//! new condition, usually asked about once, goes in a scope of its own that
//! is popped after the check, so one-off conditions do not accumulate.
//! Keeping a stack of one push level per constraint and popping to the
//! longest common prefix was measured first: breadth-first search
//! alternates between distant subtrees, so consecutive queries shared
//! little and each check re-asserted 7 to 14 constraints (2 with literals,
//! at a third of the Z3 time; see ARCHITECTURE.md). The literal store is
//! started afresh when it grows past [`MAX_GUARDS`] (or 4 times the query),
//! because inactive implications slow checks down. A check that gives up is
//! retried once on a fresh solver (Z3 preprocesses one-shot queries more
//! aggressively).
//!
//! Bit-vectors map to Z3's `BV` sort operator for operator: our terms have
//! SMT-LIB's `QF_BV` semantics (see [`wiser_num::bv`]), so no operator
//! needs guarding here. Floats are bit-vector patterns in terms; their
//! operations are translated in `z3_backend_float.rs`.
//!
//! A query with float operations (and no arrays) is first asked of cvc5,
//! when there is one (`z3_backend_cvc5.rs`): it reads the SMT-LIB
//! rendering of this translation, and what it does not decide comes back
//! here with the time left.

use crate::bitwuzla_backend::Bitwuzla;
use crate::cvc5_backend::Cvc5;
use crate::model::Model;
use crate::solver::{Answer, Solver, SolverStats};
use crate::term::{BvOp, BvPred, Kind, OvfOp, Scalar, Sort, Term};
use crate::z3_backend_watchdog::Watchdog;
use rustc_hash::{FxHashMap, FxHashSet};
use std::time::{Duration, Instant};
use wiser_num::Int;
use z3::ast::{Array, Bool, Dynamic, Int as ZInt, BV};

/// Translation caches are dropped past this many entries to bound memory.
const MAX_CACHE: usize = 1 << 20;

/// A Z3 solver in the calling thread's Z3 context. Not `Send`: each worker
/// thread makes its own.
pub struct Z3Solver {
    /// Enforces time limits (see `z3_backend_watchdog.rs`); declared first so that it
    /// is dropped before the solver and its context.
    watchdog: Option<Watchdog>,
    /// Made on the first query: creating a Z3 context costs milliseconds,
    /// and many runs never need one.
    solver: Option<z3::Solver>,
    timeout: Option<Duration>,
    deadline: Option<Instant>,
    cache: FxHashMap<Term, Dynamic>,
    /// The floating-point value of each translated float operation whose
    /// result is a float, before it became a pattern: an operation on
    /// its result takes it directly, so a chain of float operations is
    /// one FP term, not a round trip through bits at every step (which
    /// made Z3 an order of magnitude slower).
    floats: FxHashMap<Term, z3::ast::Float>,
    /// The definition of each translated float operation's pattern (see
    /// `z3_backend_float.rs`), asserted with every constraint that
    /// contains the operation.
    definitions: FxHashMap<Term, Bool>,
    /// Each constraint's translation, with the definitions it needs.
    assertions: FxHashMap<Term, Bool>,
    /// Asked first the queries with float operations, if set (see
    /// `z3_backend_external.rs`).
    bitwuzla: Option<Bitwuzla>,
    /// Asked the queries with float operations that Bitwuzla did not
    /// decide, if set.
    cvc5: Option<Cvc5>,
    /// For each constraint asserted since the last reset, the literal that
    /// switches it on.
    guards: FxHashMap<Term, Bool>,
    stats: SolverStats,
}

/// Past this many guarded constraints the solver starts afresh, so that
/// the constraints of paths long explored stop weighing on new checks.
const MAX_GUARDS: usize = 1024;

/// How long a check on the shared incremental solver may run before the
/// query is asked again on a fresh solver, with what is left of its limit.
/// Inactive constraints can slow the incremental solver by orders of
/// magnitude (hundreds of guarded constraints over integers, bit-vectors
/// and arrays made one check take more than 30 s that a fresh solver
/// answers in milliseconds), and Z3 preprocesses one-shot queries more
/// thoroughly; nearly all incremental checks take well under a
/// millisecond, so the leash costs them nothing.
const LEASH: Duration = Duration::from_millis(100);

/// The version of the Z3 library this program runs, e.g. `4.8.12.0`
/// (for `wiser --version`: only this file knows Z3).
pub fn z3_version() -> String {
    z3::full_version().to_string()
}

impl Z3Solver {
    /// A solver; `timeout` bounds each query (Z3 then answers unknown).
    /// Queries with float operations go to Bitwuzla and cvc5 first when
    /// [`Bitwuzla::from_env`] and [`Cvc5::from_env`] find them.
    pub fn new(timeout: Option<Duration>) -> Z3Solver {
        Z3Solver {
            watchdog: None,
            solver: None,
            timeout,
            deadline: None,
            cache: FxHashMap::default(),
            floats: FxHashMap::default(),
            definitions: FxHashMap::default(),
            assertions: FxHashMap::default(),
            bitwuzla: Bitwuzla::from_env(),
            cvc5: Cvc5::from_env(),
            guards: FxHashMap::default(),
            stats: SolverStats::default(),
        }
    }

    /// Sets the cvc5 asked the queries with float operations that
    /// Bitwuzla did not decide (`None`: none).
    pub fn set_cvc5(&mut self, cvc5: Option<Cvc5>) {
        self.cvc5 = cvc5;
    }

    /// Sets the Bitwuzla asked first the queries with float operations
    /// (`None`: none; with neither, Z3 alone).
    pub fn set_bitwuzla(&mut self, bitwuzla: Option<Bitwuzla>) {
        self.bitwuzla = bitwuzla;
    }

    /// The translation of the constraint `c`, with the definitions of the
    /// float patterns it contains.
    fn assertion(&mut self, c: &Term) -> Bool {
        let b = self
            .translate(c)
            .as_bool()
            .expect("constraints are boolean");
        if self.definitions.is_empty() {
            return b;
        }
        if let Some(a) = self.assertions.get(c) {
            return a.clone();
        }
        // A float operation's pattern is needed unless every operation on
        // it took its FP value instead (see `floats`): only then is its
        // definition asserted.
        let mut parts = vec![b];
        let (mut expanded, mut defined) = (FxHashSet::default(), FxHashSet::default());
        let mut stack = vec![(c, true)];
        while let Some((t, needed)) = stack.pop() {
            if needed && defined.insert(t.addr()) {
                if let Some(d) = self.definitions.get(t) {
                    parts.push(d.clone());
                }
            }
            if !expanded.insert(t.addr()) {
                continue;
            }
            let fp = matches!(t.kind(), Kind::Fp(..));
            for x in t.children() {
                stack.push((x, !(fp && self.floats.contains_key(x))));
            }
        }
        let a = match parts.len() {
            1 => parts.pop().expect("one part"),
            _ => Bool::and(&parts),
        };
        self.assertions.insert(c.clone(), a.clone());
        a
    }

    /// The literals that switch on `constraints`, asserting `g => c` for
    /// each constraint seen for the first time.
    fn guard(&mut self, constraints: &[Term]) -> Vec<Bool> {
        if self.guards.len() + constraints.len() > MAX_GUARDS.max(4 * constraints.len()) {
            self.solver().reset();
            self.guards.clear();
        }
        let mut out = Vec::with_capacity(constraints.len());
        for c in constraints {
            if let Some(g) = self.guards.get(c) {
                out.push(g.clone());
                continue;
            }
            let b = self.assertion(c);
            let g = Bool::new_const(format!("wiser!g{}", self.stats.z3_asserts));
            self.solver().assert(g.implies(&b));
            self.stats.z3_asserts += 1;
            self.guards.insert(c.clone(), g.clone());
            out.push(g);
        }
        out
    }

    /// When the next check must stop: after the configured timeout, and
    /// not after the run's deadline.
    fn check_deadline(&self) -> Option<Instant> {
        let own = self.timeout.map(|t| Instant::now() + t);
        match (own, self.deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Has the limit of a check that started at `start` passed (its own
    /// timeout, or the run's deadline)?
    fn past_limit(&self, start: Instant) -> bool {
        let now = Instant::now();
        self.timeout.is_some_and(|t| now >= start + t) || self.out_of_time()
    }

    /// Has the run's deadline passed?
    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    fn solver(&mut self) -> &z3::Solver {
        if self.solver.is_none() {
            let solver = new_z3_solver();
            let context = z3::Context::thread_local().get_z3_context();
            self.watchdog = Some(Watchdog::new(context));
            self.solver = Some(solver);
        }
        self.solver.as_ref().expect("just made")
    }

    /// Makes the Z3 context and solver now rather than on the first query
    /// (the solver process does this before it says it is ready).
    pub(crate) fn warm_up(&mut self) {
        self.solver();
    }

    /// Runs `check` under the watchdog, stopped at `deadline`.
    pub(crate) fn guarded<T>(&self, deadline: Option<Instant>, check: impl FnOnce() -> T) -> T {
        match &self.watchdog {
            Some(w) => w.guard(deadline, check),
            None => check(),
        }
    }

    /// Checks `constraints` on a fresh solver, stopped at `deadline`.
    fn one_shot(
        &mut self,
        constraints: &[Term],
        deadline: Option<Instant>,
    ) -> (z3::SatResult, Option<z3::Model>, Option<String>) {
        let fresh = new_z3_solver();
        for c in constraints {
            fresh.assert(self.assertion(c));
            self.stats.z3_asserts += 1;
        }
        self.stats.z3_checks += 1;
        let dump = dump_query(&fresh, self.stats.z3_checks);
        let r = self.guarded(deadline, || fresh.check());
        if let Some(path) = dump {
            let _ = std::fs::remove_file(path);
        }
        (r, fresh.get_model(), fresh.get_reason_unknown())
    }

    pub(crate) fn translate(&mut self, root: &Term) -> Dynamic {
        if let Some(d) = self.cache.get(root) {
            return d.clone();
        }
        if self.cache.len() > MAX_CACHE {
            self.cache.clear();
            self.floats.clear();
            self.definitions.clear();
            self.assertions.clear();
        }
        let mut stack: Vec<(Term, bool)> = vec![(root.clone(), false)];
        while let Some((t, expanded)) = stack.pop() {
            if self.cache.contains_key(&t) {
                continue;
            }
            if !expanded {
                stack.push((t.clone(), true));
                for c in t.children() {
                    if !self.cache.contains_key(c) {
                        stack.push((c.clone(), false));
                    }
                }
                continue;
            }
            let d = self.node(&t);
            self.cache.insert(t, d);
        }
        self.cache[root].clone()
    }

    fn int_of(&self, t: &Term) -> ZInt {
        self.cache[t].as_int().expect("integer-sorted term")
    }

    fn bool_of(&self, t: &Term) -> Bool {
        self.cache[t].as_bool().expect("boolean-sorted term")
    }

    fn bools_of(&self, ts: &[Term]) -> Vec<Bool> {
        ts.iter().map(|t| self.bool_of(t)).collect()
    }

    fn array_of(&self, t: &Term) -> Array {
        self.cache[t].as_array().expect("array-sorted term")
    }

    fn bv_of(&self, t: &Term) -> BV {
        self.cache[t].as_bv().expect("bit-vector-sorted term")
    }

    fn node(&mut self, t: &Term) -> Dynamic {
        match t.kind() {
            Kind::Int(n) => Dynamic::from_ast(&z3_int(n)),
            Kind::Bool(b) => Dynamic::from_ast(&Bool::from_bool(*b)),
            Kind::Var(name, sort) => z3_var(name, *sort),
            Kind::Linear(ms, c) => {
                let mut parts = vec![z3_int(c)];
                for (x, k) in ms.iter() {
                    let x = self.int_of(x);
                    parts.push(if *k == Int::ONE {
                        x
                    } else {
                        ZInt::mul(&[z3_int(k), x])
                    });
                }
                Dynamic::from_ast(&ZInt::add(&parts))
            }
            Kind::Mul(a, b) => Dynamic::from_ast(&ZInt::mul(&[self.int_of(a), self.int_of(b)])),
            Kind::Div(a, b) => Dynamic::from_ast(&c_div(&self.int_of(a), &self.int_of(b))),
            Kind::Rem(a, b) => {
                let (a, b) = (self.int_of(a), self.int_of(b));
                let q = c_div(&a, &b);
                let r = ZInt::sub(&[a, ZInt::mul(&[b.clone(), q])]);
                Dynamic::from_ast(&b.eq(ZInt::from_i64(0)).ite(&ZInt::from_i64(0), &r))
            }
            Kind::Ite(c, a, b) => self.bool_of(c).ite(&self.cache[a], &self.cache[b]),
            Kind::Select(a, i) => self.array_of(a).select(&self.cache[i]),
            Kind::Store(a, i, v) => {
                Dynamic::from_ast(&self.array_of(a).store(&self.cache[i], &self.cache[v]))
            }
            Kind::ConstArray(sort, v) => {
                let Sort::Array(index, _) = sort else {
                    unreachable!("constant arrays have array sorts")
                };
                Dynamic::from_ast(&Array::const_array(&z3_sort(*index), &self.cache[v]))
            }
            Kind::Le(x) => Dynamic::from_ast(&self.int_of(x).le(ZInt::from_i64(0))),
            Kind::Eq(x) => Dynamic::from_ast(&self.int_of(x).eq(ZInt::from_i64(0))),
            Kind::Not(x) => Dynamic::from_ast(&self.bool_of(x).not()),
            Kind::And(xs) => Dynamic::from_ast(&Bool::and(&self.bools_of(xs))),
            Kind::Or(xs) => Dynamic::from_ast(&Bool::or(&self.bools_of(xs))),
            Kind::Bv { width, bits } => Dynamic::from_ast(&BV::from_u64(*bits, u32::from(*width))),
            Kind::BvBin(op, a, b) => {
                let (a, b) = (self.bv_of(a), self.bv_of(b));
                Dynamic::from_ast(&match op {
                    BvOp::Add => a.bvadd(&b),
                    BvOp::Sub => a.bvsub(&b),
                    BvOp::Mul => a.bvmul(&b),
                    BvOp::Udiv => a.bvudiv(&b),
                    BvOp::Sdiv => a.bvsdiv(&b),
                    BvOp::Urem => a.bvurem(&b),
                    BvOp::Srem => a.bvsrem(&b),
                    BvOp::And => a.bvand(&b),
                    BvOp::Or => a.bvor(&b),
                    BvOp::Xor => a.bvxor(&b),
                    BvOp::Shl => a.bvshl(&b),
                    BvOp::Lshr => a.bvlshr(&b),
                    BvOp::Ashr => a.bvashr(&b),
                })
            }
            Kind::BvNeg(a) => Dynamic::from_ast(&self.bv_of(a).bvneg()),
            Kind::BvNot(a) => Dynamic::from_ast(&self.bv_of(a).bvnot()),
            Kind::BvCmp(p, a, b) => {
                let (a, b) = (self.bv_of(a), self.bv_of(b));
                Dynamic::from_ast(&match p {
                    BvPred::Ult => a.bvult(&b),
                    BvPred::Ule => a.bvule(&b),
                    BvPred::Slt => a.bvslt(&b),
                    BvPred::Sle => a.bvsle(&b),
                })
            }
            Kind::BvEq(a, b) => Dynamic::from_ast(&self.bv_of(a).eq(self.bv_of(b))),
            Kind::Extend {
                signed,
                width,
                t: x,
            } => {
                let extra = u32::from(*width) - x.sort().width().expect("a bit-vector");
                let x = self.bv_of(x);
                Dynamic::from_ast(&if *signed {
                    x.sign_ext(extra)
                } else {
                    x.zero_ext(extra)
                })
            }
            Kind::Extract { width, t: x } => {
                Dynamic::from_ast(&self.bv_of(x).extract(u32::from(*width) - 1, 0))
            }
            Kind::BvToInt { signed, t: x } => Dynamic::from_ast(&self.bv_of(x).to_int(*signed)),
            Kind::IntToBv { width, t: x } => {
                Dynamic::from_ast(&BV::from_int(&self.int_of(x), u32::from(*width)))
            }
            Kind::SOvf(op, a, b) => {
                let w = t_width(a);
                let (a, b) = (self.bv_of(a), self.bv_of(b));
                // Z3 splits each signed overflow into its two directions.
                let fits = match op {
                    OvfOp::Add => {
                        Bool::and(&[a.bvadd_no_overflow(&b, true), a.bvadd_no_underflow(&b)])
                    }
                    OvfOp::Sub => {
                        Bool::and(&[a.bvsub_no_overflow(&b), a.bvsub_no_underflow(&b, true)])
                    }
                    OvfOp::Mul => smul_fits(&a, &b, w),
                };
                Dynamic::from_ast(&fits.not())
            }
            Kind::Fp(op, xs) => {
                let args: Vec<(Dynamic, Option<z3::ast::Float>)> = xs
                    .iter()
                    .map(|x| (self.cache[x].clone(), self.floats.get(x).cloned()))
                    .collect();
                let (pattern, value, definition) = crate::z3_backend_float::translate(*op, &args);
                if let Some(v) = value {
                    self.floats.insert(t.clone(), v);
                }
                if let Some(d) = definition {
                    self.definitions.insert(t.clone(), d);
                }
                pattern
            }
        }
    }

    /// Reads back, from Z3's model, the value of every variable in
    /// `constraints`, and for each array the elements at the indices the
    /// constraints read (other elements are unconstrained: 0 will do).
    fn extract(&mut self, z3m: &z3::Model, constraints: &[Term]) -> Option<Model> {
        let mut model = Model::new();
        let mut seen = rustc_hash::FxHashSet::default();
        let mut stack: Vec<&Term> = constraints.iter().collect();
        while let Some(t) = stack.pop() {
            if !seen.insert(t.addr()) {
                continue;
            }
            match t.kind() {
                Kind::Var(name, Sort::Bool) => {
                    let v = z3m.eval(&Bool::new_const(&**name), true)?.as_bool()?;
                    model.set_bool(name.clone(), v);
                }
                Kind::Var(name, sort @ (Sort::Int | Sort::Bv(_))) => {
                    let scalar = sort.scalar()?;
                    let v = z3m.eval(&z3_var(name, *sort), true)?;
                    model.set_int(name.clone(), scalar_value(&v, scalar)?);
                }
                Kind::Select(a, i) => {
                    let mut base = a;
                    while let Kind::Store(inner, ..) = base.kind() {
                        base = inner;
                    }
                    if let Kind::Var(name, sort @ Sort::Array(is, es)) = base.kind() {
                        let zi = self.translate(i);
                        let index = scalar_value(&z3m.eval(&zi, true)?, *is)?;
                        let arr = z3_var(name, *sort).as_array()?;
                        let elem = arr.select(&scalar_const(&index, *is));
                        let value = scalar_value(&z3m.eval(&elem, true)?, *es)?;
                        let mut entry = model.array(name).cloned().unwrap_or_default();
                        entry.entries.insert_mut(index, value);
                        model.set_array(name.clone(), entry);
                    }
                }
                _ => {}
            }
            stack.extend(t.children());
        }
        Some(model)
    }

    /// Reads the answer of a check, pops the new condition's scope if
    /// there is one, and counts the query.
    fn conclude(
        &mut self,
        start: Instant,
        constraints: &[Term],
        result: (z3::SatResult, Option<z3::Model>, Option<String>),
        pop: bool,
    ) -> Answer {
        let answer = match result {
            (z3::SatResult::Unsat, ..) => Answer::Unsat,
            (z3::SatResult::Unknown, _, reason) => {
                Answer::Unknown(reason.unwrap_or_else(|| "unknown".to_string()))
            }
            // The watchdog's interrupt can land as the check ends, and
            // leave Z3 unable to build the model: a time-out, not a
            // solver fault.
            (z3::SatResult::Sat, None, _) if self.past_limit(start) => {
                Answer::Unknown("canceled (the time limit came as the check ended)".into())
            }
            (z3::SatResult::Sat, None, _) => Answer::Unknown("Z3 gave no model".into()),
            (z3::SatResult::Sat, Some(m), _) => match self.extract(&m, constraints) {
                // Our own evaluator must agree that the model satisfies
                // every constraint: this guards the translation.
                Some(model) if constraints.iter().all(|c| model.holds(c)) => Answer::Sat(model),
                Some(_) => Answer::Unknown("model does not satisfy the constraints".into()),
                None => Answer::Unknown("could not read Z3's model".into()),
            },
        };
        if pop {
            self.solver().pop(1);
            self.stats.z3_pops += 1;
        }
        match answer {
            Answer::Sat(_) => self.stats.z3_sat += 1,
            Answer::Unsat => self.stats.z3_unsat += 1,
            Answer::Unknown(_) => self.stats.z3_unknown += 1,
        }
        self.stats.z3_time += start.elapsed();
        answer
    }
}

impl Solver for Z3Solver {
    fn solve(&mut self, constraints: &[Term]) -> Answer {
        let start = Instant::now();
        let deadline = self.check_deadline();
        if let Some(answer) = self.ask_external(constraints, deadline) {
            self.stats.z3_time += start.elapsed();
            return answer;
        }
        self.stats.z3_queries += 1;
        // The path's constraints recur in the queries of neighbouring
        // paths: each is asserted once, behind a literal. The new condition
        // is usually asked once: it goes in a scope of its own, popped after
        // the check (see the module documentation).
        //
        // A solver's first query has nothing to reuse: it goes to a one-shot
        // solver, which Z3 preprocesses fully (substituting variables fixed
        // by equalities, say), where literals and scopes would keep Z3 in
        // its incremental mode. Measured on the `bv` property test, whose
        // queries fix every variable: 1.5 s per query became milliseconds.
        if self.stats.z3_queries == 1 && constraints.len() > 1 {
            self.solver();
            let result = self.one_shot(constraints, deadline);
            return self.conclude(start, constraints, result, false);
        }
        let (last, body) = match constraints.split_last() {
            Some((l, b)) => (Some(l), b),
            None => (None, constraints),
        };
        let assumptions = self.guard(body);
        if let Some(last) = last {
            let b = self.assertion(last);
            let solver = self.solver();
            solver.push();
            solver.assert(&b);
            self.stats.z3_pushes += 1;
            self.stats.z3_asserts += 1;
        }
        self.solver();
        let solver = self.solver.as_ref().expect("just made");
        self.stats.z3_checks += 1;
        let dump = dump_query(solver, self.stats.z3_checks);
        let leash = Instant::now().checked_add(LEASH);
        let verdict = self.guarded(min_time(deadline, leash), || {
            solver.check_assumptions(&assumptions)
        });
        if let Some(path) = dump {
            let _ = std::fs::remove_file(path);
        }
        let result = (verdict, solver.get_model(), solver.get_reason_unknown());
        if result.0 != z3::SatResult::Unknown {
            return self.conclude(start, constraints, result, last.is_some());
        }
        // Interrupted (past its leash or its limit) or given up. An
        // interrupted incremental solver can stay unable to decide even
        // easy queries afterwards (answering "canceled", then "incomplete
        // (theory arithmetic)" to `x = 5 and x < y`), and its store of
        // inactive constraints may be what weighed on the check (see
        // LEASH): it is replaced by a fresh one, and the query, if time is
        // left, is asked afresh.
        self.solver = Some(new_z3_solver());
        self.guards.clear();
        let past_deadline = deadline.is_some_and(|d| Instant::now() >= d);
        if self.out_of_time() || past_deadline {
            return self.conclude(start, constraints, result, false);
        }
        self.stats.one_shot_retries += 1;
        let result = self.one_shot(constraints, deadline);
        self.conclude(start, constraints, result, false)
    }

    fn stats(&self, out: &mut SolverStats) {
        out.add(&self.stats);
    }

    fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    fn deadline(&self) -> Option<Instant> {
        self.deadline
    }
}

/// A debugging aid: with WISER_Z3_DUMP=DIR, each query is written to DIR
/// as SMT-LIB while Z3 works on it; the caller removes the file when the
/// check returns, so the query of a check that does not end is left behind.
pub(crate) fn dump_query(solver: &z3::Solver, check: u64) -> Option<std::path::PathBuf> {
    let dir = std::env::var_os("WISER_Z3_DUMP")?;
    let path =
        std::path::Path::new(&dir).join(format!("query-{}-{check}.smt2", std::process::id()));
    let _ = std::fs::write(&path, format!("{}(check-sat)\n", solver.to_smt2()));
    Some(path)
}

/// The earlier of two optional instants (`None` is no limit).
fn min_time(a: Option<Instant>, b: Option<Instant>) -> Option<Instant> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The width of a bit-vector term.
fn t_width(t: &Term) -> u32 {
    t.sort().width().expect("a bit-vector")
}

/// Does the signed product of `a` and `b` (of width `w`) fit? Not Z3's
/// `bvmul_no_overflow(_, true)`/`bvmul_no_underflow`: Z3 4.8.12 folds
/// them, once both operands are numerals, with the numerals read as
/// unsigned (so -1 * 2 "overflows"), and any query that fixes the
/// operands reaches that fold. Instead: the magnitudes' product must fit
/// unsigned (Z3's unsigned predicate folds correctly) and be at most MAX,
/// or MIN's magnitude when the signs differ.
fn smul_fits(a: &BV, b: &BV, w: u32) -> Bool {
    let zero = BV::from_u64(0, w);
    let (na, nb) = (a.bvslt(&zero), b.bvslt(&zero));
    let magnitude = |neg: &Bool, x: &BV| neg.ite(&x.bvneg(), x);
    let (ma, mb) = (magnitude(&na, a), magnitude(&nb, b));
    let min = 1u64 << (w - 1);
    let limit = na
        .eq(&nb)
        .ite(&BV::from_u64(min - 1, w), &BV::from_u64(min, w));
    Bool::and(&[
        ma.bvmul_no_overflow(&mb, false),
        ma.bvmul(&mb).bvule(&limit),
    ])
}

/// A Z3 solver that leaves SIGINT alone: by default Z3 installs its own
/// handler for the duration of each check, which took Ctrl-C away from
/// the program (time limits are the watchdog's job, not the signal's).
fn new_z3_solver() -> z3::Solver {
    let solver = z3::Solver::new();
    let mut params = z3::Params::new();
    params.set_bool("ctrl_c", false);
    solver.set_params(&params);
    solver
}

fn z3_sort(s: Scalar) -> z3::Sort {
    match s {
        Scalar::Bool => z3::Sort::bool(),
        Scalar::Int => z3::Sort::int(),
        Scalar::Bv(w) => z3::Sort::bitvector(u32::from(w)),
    }
}

/// The Z3 constant for the variable `name` of sort `sort`.
fn z3_var(name: &str, sort: Sort) -> Dynamic {
    match sort {
        Sort::Bool => Dynamic::from_ast(&Bool::new_const(name)),
        Sort::Int => Dynamic::from_ast(&ZInt::new_const(name)),
        Sort::Bv(w) => Dynamic::from_ast(&BV::new_const(name, u32::from(w))),
        Sort::Array(i, e) => Dynamic::from_ast(&Array::new_const(name, &z3_sort(i), &z3_sort(e))),
    }
}

/// A Z3 value of scalar sort `s` as our model stores it: an integer, a
/// bit-vector's unsigned pattern, or a boolean as 0 or 1.
fn scalar_value(v: &Dynamic, s: Scalar) -> Option<Int> {
    match s {
        Scalar::Int => from_z3_int(&v.as_int()?),
        Scalar::Bv(_) => Some(Int::from_u64(v.as_bv()?.as_u64()?)),
        Scalar::Bool => Some(Int::from(i64::from(v.as_bool()?.as_bool()?))),
    }
}

/// The Z3 constant of scalar sort `s` for a value stored as [`scalar_value`]
/// gives it.
fn scalar_const(v: &Int, s: Scalar) -> Dynamic {
    match s {
        Scalar::Int => Dynamic::from_ast(&z3_int(v)),
        Scalar::Bv(w) => {
            let w = u32::from(w);
            Dynamic::from_ast(&BV::from_u64(v.low_bits(w), w))
        }
        Scalar::Bool => Dynamic::from_ast(&Bool::from_bool(!v.is_zero())),
    }
}

fn z3_int(n: &Int) -> ZInt {
    match n.to_i64() {
        Some(v) => ZInt::from_i64(v),
        None => n.to_string().parse().expect("a decimal numeral"),
    }
}

pub(crate) fn from_z3_int(v: &ZInt) -> Option<Int> {
    if let Some(x) = v.as_i64() {
        return Some(Int::from(x));
    }
    // Large values print as `123` or `(- 123)`.
    let s = v.to_string();
    let s = s.trim();
    match s.strip_prefix("(-").and_then(|r| r.strip_suffix(')')) {
        Some(digits) => digits.trim().parse::<Int>().ok().map(|n| n.neg()),
        None => s.parse().ok(),
    }
}

/// C division, total at 0, in terms of SMT-LIB's Euclidean `div`:
/// for a ≥ 0 the quotient of |a| and |b| is exact truncation, and the sign
/// is that of a·b.
fn c_div(a: &ZInt, b: &ZInt) -> ZInt {
    let zero = ZInt::from_i64(0);
    let neg_a = a.unary_minus();
    let neg_b = b.unary_minus();
    let a_nonneg = a.ge(&zero);
    let b_pos = b.gt(&zero);
    let q = a_nonneg.ite(
        &b_pos.ite(&a.div(b), &a.div(&neg_b).unary_minus()),
        &b_pos.ite(&neg_a.div(b).unary_minus(), &neg_a.div(&neg_b)),
    );
    b.eq(&zero).ite(&zero, &q)
}

// Asking Bitwuzla and cvc5, in a file of its own.
#[path = "z3_backend_external.rs"]
mod external;

#[cfg(test)]
#[path = "z3_backend_tests.rs"]
mod tests;
