//! Solving a [`HornProblem`] with Z3's Horn-clause engine (Spacer, as
//! SeaHorn does), and reading its solution back into [`Term`]s.
//!
//! Each relation becomes an uninterpreted predicate `inv!k`; each clause
//! `∀ vars. body₁(args) ∧ … ∧ bodyₙ(args) ∧ constraint ⇒ head(args)`
//! (Spacer solves non-linear clauses, which summaries of recursive
//! procedures give) (a query's head is
//! `false`) is asserted on a solver for the logic `HORN`. `sat` means the
//! clauses have a solution: each relation's interpretation is read by
//! evaluating the predicate, in Z3's model, at its parameters (left
//! uninterpreted, so the result is a formula over them), and translated
//! back operator by operator. Z3's solution is never trusted: the caller
//! checks it with [`HornProblem::check`] in a fresh solver.

use crate::horn::{Application, HornAnswer, HornProblem};
use crate::term::{BvOp, BvPred, Term};
use crate::z3_backend::Z3Solver;
use rustc_hash::FxHashMap;
use std::time::Instant;
use z3::ast::{Ast, Bool, Dynamic};
use z3::DeclKind;

impl Z3Solver {
    /// Solves `problem` with Spacer, stopping at `deadline`. The solution
    /// is unchecked.
    pub fn solve_horn(&mut self, problem: &HornProblem, deadline: Option<Instant>) -> HornAnswer {
        self.solve_horn_with(problem, deadline, false)
    }

    /// [`Z3Solver::solve_horn`], with Spacer's generaliser over equalities
    /// of uninterpreted terms on or off (`equalities`): on, it finds the
    /// invariants of the prover's non-linear cell clauses; off (Z3's
    /// default), those of linear ones. (Z3's Spacer parameters are global
    /// to the process: each call sets this one.)
    pub fn solve_horn_with(
        &mut self,
        problem: &HornProblem,
        deadline: Option<Instant>,
        equalities: bool,
    ) -> HornAnswer {
        self.warm_up();
        // Spacer, also over finite sorts (where Z3 would pick its datalog
        // engine, which tabulates a relation over every value of 32 bits).
        z3::set_global_param("fp.engine", "spacer");
        let euf = if equalities { "true" } else { "false" };
        z3::set_global_param("fp.spacer.use_euf_gen", euf);
        let Some(solver) = z3::Solver::new_for_logic("HORN") else {
            return HornAnswer::Unknown("Z3 has no solver for the logic HORN".into());
        };
        let mut params = z3::Params::new();
        params.set_bool("ctrl_c", false);
        solver.set_params(&params);
        let decls: Vec<z3::FuncDecl> = problem
            .relations
            .iter()
            .enumerate()
            .map(|(k, r)| {
                let sorts: Vec<z3::Sort> = r
                    .params
                    .iter()
                    .map(|p| self.translate(p).get_sort())
                    .collect();
                let refs: Vec<&z3::Sort> = sorts.iter().collect();
                z3::FuncDecl::new(format!("inv!{k}"), &refs, &z3::Sort::bool())
            })
            .collect();
        for clause in &problem.clauses {
            let constraint = self.translate(&clause.constraint);
            let mut premise = vec![constraint
                .as_bool()
                .expect("clause constraints are boolean")];
            let mut vars = clause.constraint.vars();
            for body in &clause.body {
                premise.push(self.apply(&decls[body.relation], body, &mut vars));
            }
            let conclusion = match &clause.head {
                Some(head) => self.apply(&decls[head.relation], head, &mut vars),
                None => Bool::from_bool(false),
            };
            vars.sort();
            vars.dedup();
            let bound: Vec<Dynamic> = vars.iter().map(|v| self.translate(v)).collect();
            let bound: Vec<&dyn Ast> = bound.iter().map(|b| b as &dyn Ast).collect();
            let body = Bool::and(&premise).implies(&conclusion);
            let formula = if bound.is_empty() {
                body
            } else {
                z3::ast::forall_const(&bound, &[], &body)
            };
            solver.assert(&formula);
        }
        let dump = crate::z3_backend::dump_query(&solver, 0);
        let verdict = self.guarded(deadline, || solver.check());
        if let Some(path) = dump {
            let _ = std::fs::remove_file(path);
        }
        match verdict {
            z3::SatResult::Unsat => HornAnswer::Refuted,
            z3::SatResult::Unknown => HornAnswer::Unknown(
                solver
                    .get_reason_unknown()
                    .unwrap_or_else(|| "unknown".into()),
            ),
            z3::SatResult::Sat => {
                let Some(model) = solver.get_model() else {
                    return HornAnswer::Unknown("Spacer gave no model".into());
                };
                let mut solution = Vec::with_capacity(decls.len());
                for (decl, rel) in decls.iter().zip(&problem.relations) {
                    let at: Vec<Dynamic> = rel.params.iter().map(|p| self.translate(p)).collect();
                    let refs: Vec<&dyn Ast> = at.iter().map(|a| a as &dyn Ast).collect();
                    let Some(formula) = model.eval(&decl.apply(&refs), false) else {
                        return HornAnswer::Unknown(format!("no interpretation of {}", rel.name));
                    };
                    let names: FxHashMap<String, Term> = rel
                        .params
                        .iter()
                        .map(|p| (self.translate(p).to_string(), p.clone()))
                        .collect();
                    // Spacer's solution of a relation that its
                    // preprocessing inlined may keep the variables it
                    // projected away (a callee's, through a summary)
                    // under `exists`: eliminated here where Z3 can.
                    let read = from_z3(&formula, &names).or_else(|why| {
                        eliminate(&formula).map_or(Err(why), |f| from_z3(&f, &names))
                    });
                    match read {
                        Ok(t) => solution.push(t),
                        Err(why) => {
                            return HornAnswer::Unknown(format!(
                                "the invariant of {} uses {why}, which wiser's terms lack",
                                rel.name
                            ))
                        }
                    }
                }
                HornAnswer::Solved(solution)
            }
        }
    }

    /// `decl(args)`, noting the arguments' variables in `vars`.
    fn apply(&mut self, decl: &z3::FuncDecl, app: &Application, vars: &mut Vec<Term>) -> Bool {
        let args: Vec<Dynamic> = app.args.iter().map(|a| self.translate(a)).collect();
        for a in &app.args {
            vars.extend(a.vars());
        }
        let refs: Vec<&dyn Ast> = args.iter().map(|a| a as &dyn Ast).collect();
        decl.apply(&refs).as_bool().expect("predicates are boolean")
    }
}

/// How long the full quantifier elimination of one formula may take.
const ELIMINATION_TIME: std::time::Duration = std::time::Duration::from_secs(1);

/// `formula` without quantifiers, by Z3's tactics: `qe-light` (which
/// substitutes the variables that equalities define), then, if that
/// leaves one, `qe` for at most [`ELIMINATION_TIME`]. `None` where
/// neither removes them all (the read-back then fails as before).
fn eliminate(formula: &Dynamic) -> Option<Dynamic> {
    let formula = formula.as_bool()?;
    let tactics = [
        z3::Tactic::new("qe-light"),
        z3::Tactic::new("qe").try_for(ELIMINATION_TIME),
    ];
    tactics.iter().find_map(|tactic| {
        let goal = z3::Goal::new(false, false, false);
        goal.assert(&formula);
        let result = tactic.apply(&goal, None).ok()?;
        let parts: Vec<Bool> = result
            .list_subgoals()
            .map(|g| Bool::and(&g.get_formulas()))
            .collect();
        let out = Dynamic::from_ast(&Bool::or(&parts));
        (!has_quantifier(&out)).then_some(out)
    })
}

/// Does `a` contain a quantifier (or a bound variable)?
fn has_quantifier(a: &Dynamic) -> bool {
    let mut stack = vec![a.clone()];
    let mut seen = rustc_hash::FxHashSet::default();
    while let Some(a) = stack.pop() {
        if !a.is_app() {
            return true;
        }
        if seen.insert(a.clone()) {
            stack.extend(a.children());
        }
    }
    false
}

/// The term of a Z3 formula over the constants `names` (by their Z3
/// text); `Err` names the first operator with no counterpart.
fn from_z3(root: &Dynamic, names: &FxHashMap<String, Term>) -> Result<Term, String> {
    let mut done: FxHashMap<Dynamic, Term> = FxHashMap::default();
    let mut stack: Vec<(Dynamic, bool)> = vec![(root.clone(), false)];
    while let Some((a, expanded)) = stack.pop() {
        if done.contains_key(&a) {
            continue;
        }
        if !expanded {
            stack.push((a.clone(), true));
            if a.is_app() {
                for c in a.children() {
                    stack.push((c, false));
                }
            }
            continue;
        }
        let kids: Vec<Term> = if a.is_app() {
            a.children().iter().map(|c| done[c].clone()).collect()
        } else {
            return Err(format!("a quantifier or bound variable ({a})"));
        };
        let t = one(&a, &kids, names)?;
        done.insert(a, t);
    }
    Ok(done.remove(root).expect("the root was translated"))
}

/// One Z3 application, its children already translated.
fn one(a: &Dynamic, k: &[Term], names: &FxHashMap<String, Term>) -> Result<Term, String> {
    let decl = a.decl();
    let kind = decl.kind();
    let bin = |f: fn(&Term, &Term) -> Term| -> Result<Term, String> {
        match k {
            [x, y] => Ok(f(x, y)),
            _ => Err(format!("{} of {} operands", decl.name(), k.len())),
        }
    };
    let fold = |f: &dyn Fn(&Term, &Term) -> Term| -> Result<Term, String> {
        let (first, rest) = k.split_first().ok_or_else(|| decl.name())?;
        Ok(rest.iter().fold(first.clone(), |acc, x| f(&acc, x)))
    };
    let bv = |op: BvOp| fold(&|x, y| Term::bv_bin(op, x, y));
    // `swap`: Z3's `>` forms, as our `<` with the operands exchanged.
    let cmp = |p: BvPred, swap: bool| match k {
        [x, y] if swap => Ok(Term::bv_cmp(p, y, x)),
        [x, y] => Ok(Term::bv_cmp(p, x, y)),
        _ => Err(format!("{} of {} operands", decl.name(), k.len())),
    };
    let width = || a.as_bv().map(|b| b.get_size()).unwrap_or(0);
    if k.is_empty() {
        if let Some(p) = names.get(&a.to_string()) {
            return Ok(p.clone());
        }
    }
    Ok(match kind {
        DeclKind::True => Term::bool(true),
        DeclKind::False => Term::bool(false),
        DeclKind::Not => Term::not(&k[0]),
        DeclKind::And => Term::and_all(k.iter().cloned()),
        DeclKind::Or => Term::or_all(k.iter().cloned()),
        DeclKind::Implies => bin(|x, y| Term::or(&Term::not(x), y))?,
        DeclKind::Xor => bin(|x, y| Term::not(&Term::equals(x, y)))?,
        DeclKind::Eq | DeclKind::Iff => bin(Term::equals)?,
        DeclKind::Distinct => {
            let mut all = Vec::new();
            for (i, x) in k.iter().enumerate() {
                for y in &k[i + 1..] {
                    all.push(Term::not(&Term::equals(x, y)));
                }
            }
            Term::and_all(all)
        }
        DeclKind::Ite => Term::ite(&k[0], &k[1], &k[2]),
        DeclKind::Anum => {
            let i = a.as_int().ok_or("a non-integer numeral")?;
            crate::z3_backend::from_z3_int(&i)
                .map(Term::int)
                .ok_or("an unreadable numeral")?
        }
        DeclKind::Le => bin(Term::le)?,
        DeclKind::Lt => bin(Term::lt)?,
        DeclKind::Ge => bin(Term::ge)?,
        DeclKind::Gt => bin(Term::gt)?,
        DeclKind::Add => fold(&Term::add)?,
        DeclKind::Sub => fold(&Term::sub)?,
        DeclKind::Mul => fold(&Term::mul)?,
        DeclKind::Uminus => Term::neg(&k[0]),
        DeclKind::Mod | DeclKind::Idiv => {
            // SMT-LIB's are Euclidean; ours truncate. With a positive
            // constant divisor: mod = rem, plus the divisor if negative.
            let [x, d] = k else { return Err(decl.name()) };
            if d.as_int().is_none_or(|d| d.signum() <= 0) {
                return Err(format!("{} by a non-constant", decl.name()));
            }
            let r = Term::rem(x, d);
            let m = Term::ite(&Term::lt(&r, &Term::int(0)), &Term::add(&r, d), &r);
            if kind == DeclKind::Mod {
                m
            } else {
                Term::div(&Term::sub(x, &m), d)
            }
        }
        DeclKind::Bnum => {
            let b = a.as_bv().and_then(|b| b.as_u64()).ok_or("a wide numeral")?;
            Term::bv(u8::try_from(width()).map_err(|_| "a wide bit-vector")?, b)
        }
        DeclKind::Badd => bv(BvOp::Add)?,
        DeclKind::Bsub => bv(BvOp::Sub)?,
        DeclKind::Bmul => bv(BvOp::Mul)?,
        DeclKind::Band => bv(BvOp::And)?,
        DeclKind::Bor => bv(BvOp::Or)?,
        DeclKind::Bxor => bv(BvOp::Xor)?,
        DeclKind::Budiv | DeclKind::BudivI => bv(BvOp::Udiv)?,
        DeclKind::Bsdiv | DeclKind::BsdivI => bv(BvOp::Sdiv)?,
        DeclKind::Burem | DeclKind::BuremI => bv(BvOp::Urem)?,
        DeclKind::Bsrem | DeclKind::BsremI => bv(BvOp::Srem)?,
        DeclKind::Bshl => bv(BvOp::Shl)?,
        DeclKind::Blshr => bv(BvOp::Lshr)?,
        DeclKind::Bashr => bv(BvOp::Ashr)?,
        DeclKind::Bneg => Term::bv_neg(&k[0]),
        DeclKind::Bnot => Term::bv_not(&k[0]),
        DeclKind::Ult => cmp(BvPred::Ult, false)?,
        DeclKind::Uleq => cmp(BvPred::Ule, false)?,
        DeclKind::Slt => cmp(BvPred::Slt, false)?,
        DeclKind::Sleq => cmp(BvPred::Sle, false)?,
        DeclKind::Ugt => cmp(BvPred::Ult, true)?,
        DeclKind::Ugeq => cmp(BvPred::Ule, true)?,
        DeclKind::Sgt => cmp(BvPred::Slt, true)?,
        DeclKind::Sgeq => cmp(BvPred::Sle, true)?,
        DeclKind::ZeroExt | DeclKind::SignExt => {
            let w = u8::try_from(width()).map_err(|_| "a wide bit-vector")?;
            Term::bv_resize(&k[0], w, kind == DeclKind::SignExt)
        }
        DeclKind::Extract => extract(a, &k[0])?,
        DeclKind::Concat => {
            // hi ++ lo = (zext hi << w(lo)) | zext lo.
            let w = u8::try_from(width()).map_err(|_| "a wide bit-vector")?;
            let (hi, lo) = match k {
                [hi, lo] => (hi, lo),
                _ => return Err("concat of more than two".into()),
            };
            let lw = lo.sort().width().ok_or("concat of a non-bit-vector")?;
            let shifted = Term::bv_bin(
                BvOp::Shl,
                &Term::bv_resize(hi, w, false),
                &Term::bv(w, u64::from(lw)),
            );
            Term::bv_bin(BvOp::Or, &shifted, &Term::bv_resize(lo, w, false))
        }
        DeclKind::Select => bin(Term::select)?,
        DeclKind::Store => match k {
            [arr, i, v] => Term::store(arr, i, v),
            _ => return Err("store".into()),
        },
        _ => return Err(format!("the operator {}", decl.name())),
    })
}

/// Z3's `((_ extract hi lo) t)`: the bits `lo..=hi` of `t`.
fn extract(a: &Dynamic, t: &Term) -> Result<Term, String> {
    let ctx = z3::Context::thread_local().get_z3_context();
    // SAFETY: `a` is an application of this thread's context (it came
    // from a model of it), and `extract` has two integer parameters.
    let (hi, lo) = unsafe {
        let app = z3_sys::Z3_to_app(ctx, a.get_z3_ast()).ok_or("an extract")?;
        let decl = z3_sys::Z3_get_app_decl(ctx, app).ok_or("an extract")?;
        (
            z3_sys::Z3_get_decl_int_parameter(ctx, decl, 0),
            z3_sys::Z3_get_decl_int_parameter(ctx, decl, 1),
        )
    };
    let w = t.sort().width().ok_or("extract from a non-bit-vector")? as i32;
    if lo < 0 || hi < lo || hi >= w {
        return Err("a malformed extract".into());
    }
    let shifted = Term::bv_bin(BvOp::Lshr, t, &Term::bv(w as u8, lo as u64));
    let width = u8::try_from(hi - lo + 1).map_err(|_| "a wide extract")?;
    Ok(if i32::from(width) == w {
        shifted
    } else {
        Term::bv_resize(&shifted, width, false)
    })
}
